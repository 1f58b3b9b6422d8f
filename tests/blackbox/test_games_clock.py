"""test_games_clock.py: time controls and players who go away.

A game with a 2-second clock ends by "timeout" when the side to move does
not move (first before any move, then after a move with an increment);
clocks appear in started, moved and state. A player whose connection
drops: the others get opponent_gone with the grace period, opponent_back
on return (hello with the token; with a clock, a clock event too); claim
is refused within the grace period and ends the game by "abandonment"
after it; a game both players left is adjourned and resumes on return.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_games_duo import Duo  # noqa: E402
from games_lib import (Checks, done, ended, harness, login, req,  # noqa: E402
                       serving, settle, until)

# The grace period given to the second server, in seconds: long enough
# that a claim right after a disconnect is surely within it.
GRACE = 2

# Seconds both players of a 3-second game stay away in the adjourned
# clock check: more than the time left.
ADJOURN_WAIT = 3.5

# Bound on waiting for a flag to fall or a grace period to pass: the
# clock or grace plus a generous margin for a slow machine.
SLACK = 10


def started_of(c, room):
    return until(c, lambda e: e.get("event") == "started"
                 and e.get("room") == room)


def timeout_no_move(ck, port):
    tag = "clk0"
    d = Duo(ck, port, tag, "ataxx", {"size": 5},
            clock={"initial": 2, "increment": 0})
    ev = started_of(d.w, d.room)
    ck.eq((ev or {}).get("clocks"), {"white": 2000, "black": 2000},
          "%s: started shows both clocks at 2 s" % tag)
    # PROTOCOL.md: the clock event comes "at the start and when a player
    # comes back".
    cev = until(d.w, lambda e: e.get("event") == "clock"
                and e.get("room") == d.room, timeout=1)
    cl = (cev or {}).get("clocks") or {}
    ck.ok(sorted(cl) == ["black", "white"] and 0 < cl["white"] <= 2000
          and cl["black"] == 2000, "%s: a clock event at the start: %r"
          % (tag, cev))
    st = req(d.w, "state", room=d.room)["state"]
    cl = st.get("clocks") or {}
    ck.ok(sorted(cl) == ["black", "white"] and 0 < cl["white"] <= 2000
          and cl["black"] == 2000, "%s: state clocks: %r" % (tag, cl))
    summary = [r for r in req(d.w, "rooms").get("rooms", [])
               if r.get("room") == d.room]
    ck.eq(summary[0].get("clock") if summary else None,
          {"initial": 2, "increment": 0}, "%s: rooms shows the time "
          "control" % tag)
    for c in d.clients:
        ck.ok(until(c, ended(d.room), timeout=SLACK) is not None,
              "%s: %s sees the flag fall" % (tag, c.name))
    end, st, moved = d.finish()
    ck.eq((end.get("result"), end.get("winner"), end.get("reason")),
          ("win", "black", "timeout"), "%s: white's flag fell: black wins "
          "on time" % tag)
    ck.eq((st.get("clocks") or {}).get("white"), 0, "%s: white's clock "
          "shows 0" % tag)
    d.close()


def timeout_after_moves(ck, port):
    tag = "clk1"
    d = Duo(ck, port, tag, "stones", {"first": "1"},
            clock={"initial": 2, "increment": 1})
    r = d.move("player 1", "A1")
    ck.ok(r and r.get("ok"), "%s: player 1 places at once: %r" % (tag, r))
    ev = until(d.w, lambda e: e.get("event") == "moved"
               and e.get("room") == d.room)
    cl = (ev or {}).get("clocks") or {}
    ck.ok(0 < cl.get("player 1", 0) <= 3000 and
          0 < cl.get("player 2", 0) <= 2000,
          "%s: moved carries the clocks, the increment added: %r" %
          (tag, cl))
    # Player 1 keeps the turn (three placements) and now waits: its flag
    # falls, even with the increment.
    for c in d.clients:
        ck.ok(until(c, ended(d.room), timeout=SLACK) is not None,
              "%s: %s sees the flag fall" % (tag, c.name))
    end, st, moved = d.finish()
    ck.eq((end.get("result"), end.get("winner"), end.get("reason")),
          ("win", "player 2", "timeout"), "%s: player 2 wins on time" % tag)
    d.close()


def flag_while_away(ck, port):
    """The flag of a player who is away still falls (the opponent is
    here, so the game is not adjourned)."""
    tag = "clkaway"
    d = Duo(ck, port, tag, "ataxx", {"size": 5},
            clock={"initial": 2, "increment": 0})
    r = d.move("white", "b4")
    ck.ok(r and r.get("ok"), "%s: white moves: %r" % (tag, r))
    d.b.close()
    ck.ok(until(d.a, lambda e: e.get("event") == "opponent_gone") is not
          None, "%s: black is gone" % tag)
    ev = until(d.a, ended(d.room), timeout=SLACK)
    ck.eq(((ev or {}).get("winner"), (ev or {}).get("reason")),
          ("white", "timeout"), "%s: black's flag falls while away" % tag)
    d.a.close()
    d.w.close()


def adjourned_clock(ck, port):
    """An adjourned game's clock stops: both players away longer than the
    time left, and the game is still on when they return."""
    tag = "clkadj"
    d = Duo(ck, port, tag, "ataxx", {"size": 5},
            clock={"initial": 3, "increment": 0})
    r = d.move("white", "b4")
    ck.ok(r and r.get("ok"), "%s: white moves: %r" % (tag, r))
    toks = [(c.name, c.token) for c in (d.a, d.b)]
    d.b.close()
    until(d.a, lambda e: e.get("event") == "opponent_gone")
    d.a.close()
    until(d.w, lambda e: False, timeout=ADJOURN_WAIT)
    st = req(d.w, "state", room=d.room)["state"]
    ck.eq(st["status"], "adjourned", "%s: adjourned after %.1f s, no "
          "flag fell" % (tag, ADJOURN_WAIT))
    a, b = [login(port, n, t) for n, t in toks]
    st = req(b, "join", room=d.room)["state"]
    cl = st.get("clocks") or {}
    ck.eq((st["status"], st["turn"]), ("playing", "black"),
          "%s: playing again" % tag)
    ck.ok(cl.get("black", 0) > 1500, "%s: black's clock did not run while "
          "adjourned: %r" % (tag, cl))
    r = req(b, "move", room=d.room, move="b1")
    ck.ok(r and r.get("ok"), "%s: black moves in time: %r" % (tag, r))
    for c in (a, b, d.w):
        c.close()


def bad_clocks(ck, port):
    c = login(port, "clkbad")
    for clock in ({"initial": 0, "increment": 0},
                  {"initial": 86401, "increment": 0},
                  {"initial": 10, "increment": 3601}):
        r = req(c, "create", game="ataxx", clock=clock)
        ck.ok(r and not r.get("ok") and r.get("error") in
              ("bad_request", "bad_options"),
              "a clock %r is refused: %r" % (clock, r))
    r = req(c, "create", game="solitaire", clock={"initial": 5,
                                                  "increment": 0})
    ck.eq((r or {}).get("error"), "bad_options", "no clock in a one-player "
          "game")
    c.close()


def gone_and_claim(ck, port):
    tag = "gone"
    d = Duo(ck, port, tag, "ataxx", {"size": 5})
    r = d.move("white", "b4")
    ck.ok(r and r.get("ok"), "%s: white moves: %r" % (tag, r))
    r = req(d.a, "claim", room=d.room)
    ck.eq((r or {}).get("error"), "not_allowed", "%s: no claim while the "
          "opponent is here" % tag)
    b_name, b_token = d.b.name, d.b.token
    d.b.close()
    for c in (d.a, d.w):
        ev = until(c, lambda e: e.get("event") == "opponent_gone"
                   and e.get("room") == d.room)
        ck.eq(((ev or {}).get("name"), (ev or {}).get("seat"),
               (ev or {}).get("grace")), (b_name, "black", GRACE),
              "%s: %s hears black is gone, with the grace" % (tag, c.name))
    r = req(d.a, "claim", room=d.room)
    ck.eq((r or {}).get("error"), "not_allowed", "%s: no claim within the "
          "grace period" % tag)
    st = req(d.w, "state", room=d.room)["state"]
    ck.eq([s.get("connected") for s in st["seats"]], [True, False],
          "%s: the gone seat shows not connected" % tag)
    ck.eq(st["status"], "playing", "%s: the game goes on" % tag)
    # Black comes back with its token.
    b = login(port, b_name, b_token)
    ck.ok(b.hello and b.hello.get("ok"), "%s: hello with the token: %r" %
          (tag, b.hello))
    ids = [r.get("room") for r in (b.hello or {}).get("rooms", [])]
    ck.ok(d.room in ids, "%s: hello lists the room: %r" % (tag, ids))
    for c in (d.a, d.w):
        ev = until(c, lambda e: e.get("event") == "opponent_back"
                   and e.get("room") == d.room)
        ck.eq(((ev or {}).get("name"), (ev or {}).get("seat")),
              (b_name, "black"), "%s: %s hears black is back" % (tag, c.name))
    r = req(b, "join", room=d.room)
    ck.eq(((r or {}).get("ok"), (r or {}).get("seat")), (True, "black"),
          "%s: join resumes the seat" % tag)
    r = req(b, "move", room=d.room, move="b2")
    ck.ok(r and r.get("ok"), "%s: black plays on: %r" % (tag, r))
    # Gone again, for longer than the grace period.
    seq = req(d.w, "state", room=d.room)["state"]["seq"]
    b.close()
    ev = until(d.a, lambda e: e.get("event") == "opponent_gone"
               and e.get("room") == d.room and e["seq"] > seq)
    ck.ok(ev is not None, "%s: gone again" % tag)
    claimed = None
    for _ in range(SLACK * 4):
        claimed = req(d.a, "claim", room=d.room)
        if claimed and claimed.get("ok"):
            break
        ck.ok(claimed and claimed.get("error") == "not_allowed",
              "%s: an early claim is not_allowed: %r" % (tag, claimed))
        until(d.a, lambda e: False, timeout=0.25)
    ck.ok(claimed and claimed.get("ok"), "%s: claim after the grace: %r" %
          (tag, claimed))
    for c in (d.a, d.w):
        ev = until(c, ended(d.room))
        ck.eq(((ev or {}).get("result"), (ev or {}).get("winner"),
               (ev or {}).get("winner_name"), (ev or {}).get("reason")),
              ("win", "white", d.a.name, "abandonment"),
              "%s: %s sees white win by abandonment" % (tag, c.name))
    d.clients = [d.w, d.a]
    d.a.close()
    d.w.close()


def clock_back(ck, port):
    """With a clock, a returning player brings a clock event."""
    tag = "gonec"
    d = Duo(ck, port, tag, "stones", {"first": "1"},
            clock={"initial": 600, "increment": 0})
    b_name, b_token = d.b.name, d.b.token
    d.b.close()
    ck.ok(until(d.a, lambda e: e.get("event") == "opponent_gone") is not None,
          "%s: gone" % tag)
    b = login(port, b_name, b_token)
    mine = [r for r in (b.hello or {}).get("rooms", [])
            if r.get("room") == d.room]
    ck.eq(mine[0].get("clock") if mine else None,
          {"initial": 600, "increment": 0},
          "%s: hello's room has the time control (a room summary's clock)"
          % tag)
    ev = until(d.a, lambda e: e.get("event") == "opponent_back")
    ck.ok(ev is not None, "%s: back" % tag)
    ev = until(d.a, lambda e: e.get("event") == "clock"
               and e.get("seq", 0) > (ev or {}).get("seq", 1 << 30))
    cl = (ev or {}).get("clocks") or {}
    ck.ok(sorted(cl) == ["player 1", "player 2"] and
          0 < cl["player 1"] <= 600000 and cl["player 2"] == 600000,
          "%s: a clock event after opponent_back: %r" % (tag, ev))
    b.close()
    d.a.close()
    d.w.close()


def adjourned(ck, port):
    tag = "adj"
    d = Duo(ck, port, tag, "amazons")
    r = d.move("white", "d1-d7/d8")
    ck.ok(r and r.get("ok"), "%s: white moves: %r" % (tag, r))
    a_name, a_token = d.a.name, d.a.token
    b_name, b_token = d.b.name, d.b.token
    d.a.close()
    until(d.w, lambda e: e.get("event") == "opponent_gone")
    d.b.close()
    st = None
    for _ in range(40):
        st = req(d.w, "state", room=d.room)["state"]
        if st["status"] == "adjourned":
            break
        until(d.w, lambda e: False, timeout=0.05)
    ck.eq(st["status"], "adjourned", "%s: both gone: adjourned" % tag)
    listed = [r for r in req(d.w, "rooms", status="adjourned")
              .get("rooms", []) if r.get("room") == d.room]
    ck.eq(len(listed), 1, "%s: rooms status=adjourned lists it" % tag)
    a = login(port, a_name, a_token)
    ids = [r.get("room") for r in (a.hello or {}).get("rooms", [])]
    ck.ok(d.room in ids, "%s: hello lists the adjourned room" % tag)
    r = req(a, "join", room=d.room)
    ck.eq(((r or {}).get("seat"), (r or {}).get("state", {}).get("status")),
          ("white", "playing"), "%s: join resumes it" % tag)
    b = login(port, b_name, b_token)
    r = req(b, "join", room=d.room)
    ck.eq(len((r or {}).get("state", {}).get("history", [])), 1,
          "%s: the history survived" % tag)
    r = req(b, "move", room=d.room, move="a7-b8/b7")
    ck.ok(r and r.get("ok"), "%s: black plays on: %r" % (tag, r))
    settle(a)
    for c in (a, b, d.w):
        c.close()


def main():
    a = harness.args()
    ck = Checks()
    with serving(a.build) as s:
        timeout_no_move(ck, s.port)
        timeout_after_moves(ck, s.port)
        flag_while_away(ck, s.port)
        adjourned_clock(ck, s.port)
        bad_clocks(ck, s.port)
    with serving(a.build, extra=["--grace", str(GRACE)]) as s:
        gone_and_claim(ck, s.port)
        clock_back(ck, s.port)
        adjourned(ck, s.port)
    done(ck)


if __name__ == "__main__":
    main()
