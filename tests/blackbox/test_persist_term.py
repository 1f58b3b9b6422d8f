"""test_persist_term.py: a clean SIGTERM and restart loses nothing.

A stream of moves in rooms of all five kinds is cut by SIGTERM: every
client gets a `shutdown` event before its line closes, tablerod exits 0,
and after the restart every move any client was told of is there. A quiet
stop and restart keeps every room as it was (history, position, turn,
seats, options), a waiting room can still be joined, a clock does not run
while the server is down, and a player's one-player progress (the saved
Shape Shifter level) survives.
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import (WAIT, Solo, log_says, login, main_in_tmp,  # noqa: E402
                       req, server, shut, until)
from test_persist_crash import GAMES, Table, rehearse_all  # noqa: E402

# Seconds the server stays down in the clock check: longer than the
# 3-second clock, so a clock that ran while down would have fallen.
DOWN = 3.5


def closes(c):
    """Does the server close c's line (after whatever it still sends)?"""
    deadline = time.time() + WAIT
    while time.time() < deadline:
        try:
            if c.read(max(0.01, deadline - time.time())) is None:
                return True
        except (TimeoutError, OSError, ValueError):
            return False
    return False


def stream_and_term(ck, s, tables):
    for t in tables:
        t.start_stream(len(t.plan or ()))
    total = sum(t.planned for t in tables)
    deadline = time.time() + WAIT
    while time.time() < deadline:
        if sum(t.acked() for t in tables) * 2 >= total:
            break
        time.sleep(0.0005)
    rc = shut(s)
    ck.eq(rc, 0, "SIGTERM: tablerod exits 0")
    for t in tables:
        for th in t.streamers:
            th.join(WAIT)
            ck.ok(not th.is_alive(), "%s: the stream stopped" % t.tag)
            ck.eq(th.errors, [], "%s: no move refused in the stream" % t.tag)
            if th.shutdown is None and not th.closed:
                # Its plan ran out before the stop: read on.
                th.shutdown = until(th.c, lambda e: e.get("event") ==
                                    "shutdown")
                th.closed = closes(th.c)
            ck.ok(th.shutdown is not None and th.closed,
                  "%s %s: a shutdown event, then the close" % (t.tag,
                                                               th.seat))
            ck.ok(isinstance((th.shutdown or {}).get("message"), str),
                  "%s: the shutdown event has a message" % t.tag)
    print("%d of %d streamed moves acknowledged before SIGTERM" %
          (sum(t.acked() for t in tables), total))


def snapshot(c, room):
    st = req(c, "state", room=room)["state"]
    return {k: st.get(k) for k in ("game", "options", "turn", "status",
                                   "position", "board", "history",
                                   "result", "game_no")}, \
        [(x["seat"], x["name"], x["bot"]) for x in st["seats"]]


def claim_after_restart(ck, build, db):
    """After a restart only one player comes back: the other's seat is
    held for the grace period, then the win can be claimed."""
    grace = ["--grace", "3"]
    s = server(build, db=db, extra=grace)
    a, b = login(s.port, "tclaima"), login(s.port, "tclaimb")
    room = req(a, "create", game="stones", options={"first": "1"})["room"]
    req(b, "join", room=room)
    req(a, "move", room=room, move="B2")
    tok = (a.name, a.token)
    a.close()
    b.close()
    ck.eq(shut(s), 0, "claim: stopped")
    s = server(build, db=db, extra=grace)
    a = login(s.port, *tok)
    r = req(a, "join", room=room)
    seats = {x["seat"]: x for x in (r or {}).get("state", {}).get("seats",
                                                                   [])}
    ck.eq(((r or {}).get("seat"), seats.get("player 2", {}).get("name"),
           seats.get("player 2", {}).get("connected")),
          ("player 1", "tclaimb", False), "claim: player 2 is away")
    r = req(a, "claim", room=room)
    ck.eq((r or {}).get("error"), "not_allowed", "claim: not within the "
          "grace period after the restart")
    for _ in range(100):
        r = req(a, "claim", room=room)
        if r and r.get("ok"):
            break
        until(a, lambda e: False, timeout=0.1)
    ck.ok(r and r.get("ok"), "claim: allowed after the grace: %r" % r)
    ev = until(a, lambda e: e.get("event") == "ended")
    ck.eq(((ev or {}).get("winner"), (ev or {}).get("reason")),
          ("player 1", "abandonment"), "claim: won by abandonment")
    a.close()
    shut(s)


def main():
    main_in_tmp("tablero-term-", run)


def run(ck, a, tmp):
    """The test, with its data files in tmp."""
    db = os.path.join(tmp, "tablero.db")
    plans = rehearse_all(ck, a.build, "t")

    # 1. SIGTERM in the middle of a stream.
    s = server(a.build, db=db)
    tables = [Table(ck, s.port, "t" + tag, game, options, seats, before,
                    plans[tag], *bots)
              for tag, game, options, seats, before, *bots in GAMES]
    stream_and_term(ck, s, tables)
    s = server(a.build, db=db)
    ck.ok(log_says(s, "recovered %d rooms" % len(GAMES)), "every room comes "
          "back")
    for t in tables:
        t.close()
        t.reconnect(s.port)
        t.verify("after SIGTERM")

    # 2. A quiet stop: every room as it was; a waiting room; progress.
    for t in tables:
        t.quiet()
    snaps = {t.tag: snapshot(t.clients[t.seats[0]], t.room) for t in tables}
    w = login(s.port, "twait")
    waiting = req(w, "create", game="stones", options={"first": "2"},
                  private=True)["room"]
    clk = [login(s.port, "tclka"), login(s.port, "tclkb")]
    croom = req(clk[0], "create", game="ataxx", options={"size": 6},
                clock={"initial": 3, "increment": 0})["room"]
    req(clk[1], "join", room=croom)
    r = req(clk[0], "move", room=croom, move="b5")
    ck.ok(r and r.get("ok"), "clock game: white moves: %r" % r)
    g = Solo(ck, s.port, "tshl", "shifter", {"level": 1, "seed": 5})
    g.follow_hints(10)
    st = g.state()
    ck.eq((st["status"], st["options"].get("level"), st.get("game_no")),
          ("playing", "2", 2), "shifter level 1 won: level 2 goes on")
    tokens = [(c.name, c.token) for c in [w, g.p] + clk]
    for t in tables:
        t.close()
    for c in [w, g.p, g.w] + clk:
        c.close()
    ck.eq(shut(s), 0, "a quiet SIGTERM exits 0")
    time.sleep(DOWN)
    s = server(a.build, db=db)
    for t in tables:
        t.reconnect(s.port)
        ck.eq(snapshot(t.clients[t.seats[0]], t.room), snaps[t.tag],
              "%s: the room is as it was" % t.tag)
    clk = [login(s.port, n, tok) for n, tok in tokens[2:]]
    st = req(clk[0], "state", room=croom)["state"]
    ck.eq((st["status"], st["turn"]), ("playing", "black"),
          "clock game: still playing after %.1f s down" % DOWN)
    cl = st.get("clocks") or {}
    ck.ok(cl.get("black", 0) > 1500 and cl.get("white", 0) > 1500,
          "clock game: the time down was not charged: %r" % cl)
    r = req(clk[1], "move", room=croom, move="b2")
    ck.ok(r and r.get("ok"), "clock game: black moves in time: %r" % r)
    w = login(s.port, *tokens[0])
    ids = [x.get("room") for x in (w.hello or {}).get("rooms", [])]
    ck.ok(waiting in ids, "the waiting room is still the creator's: %r" %
          ids)
    j = login(s.port, "tjoin")
    r = req(j, "join", room=waiting)
    ck.eq(((r or {}).get("ok"), (r or {}).get("state", {}).get("status"),
           (r or {}).get("state", {}).get("private")),
          (True, "playing", True), "the private waiting room can be joined "
          "and starts")
    ev = until(w, lambda e: e.get("event") == "started"
               and e.get("room") == waiting)
    ck.eq((ev or {}).get("turn"), "player 2", "its game starts with "
          "first=2 kept")
    p = login(s.port, *tokens[1])
    r = req(p, "create", game="shifter")
    ck.eq((r or {}).get("resumed_level"), 2, "the saved shifter level "
          "survives the restart")
    for t in tables:
        t.finish()
        t.close()
    for c in [w, j, p] + clk:
        c.close()
    shut(s)
    claim_after_restart(ck, a.build, os.path.join(tmp, "claim.db"))


if __name__ == "__main__":
    main()
