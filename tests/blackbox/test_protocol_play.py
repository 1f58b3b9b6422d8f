"""test_protocol_play.py: the verbs of play over real sockets: move (seq,
stale seq, normalised notation, every refusal: not_in_room, not_a_player,
not_your_turn, illegal_move with the game's reason, game_over, not_allowed
before the start), reply-before-events, seq counting, a spectator seeing
what players see, resign, draw offer/accept/decline, undo, restart, next,
hint, rematch, claim after the grace period, opponent_gone/back,
adjournment and a flag fall.
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import (Checks, Client, Server, args, login,  # noqa: E402
                     is_error, is_ok, run_parts, stopped_cleanly)

# Functional tests send quickly: keep the rate limit out of their way. A
# grace period of 1 s lets claim be tested.
EXTRA = ["--rate", "100000", "--burst", "100000", "--grace", "1"]


def first_after(chk, c, cmd, what, **fields):
    """Send a request on a quiet connection and read the socket raw: the
    first message back must be its reply. Returns (reply, events after it
    up to quiet)."""
    c.drain()
    rid = c.send(cmd, **fields)
    first = c.read()
    chk.ok(first is not None and first.get("re") == cmd and
           first.get("id") == rid,
           "%s: the reply comes before any event: %r" % (what, first))
    return first, c.drain()


def stones_pair(srv, a_name, b_name, watcher=None):
    """Two players (and a watcher) in a started Stones game, player 1
    first. Returns (a, b, w, room)."""
    a = login(srv.port, a_name)
    b = login(srv.port, b_name)
    room = a.call("create", game="stones", options={"first": 1})["room"]
    b.call("join", room=room)
    w = None
    if watcher:
        w = login(srv.port, watcher)
        w.call("watch", room=room)
    a.event("started")
    b.event("started")
    return a, b, w, room


def test_stones_game(chk, srv):
    a = login(srv.port, "sg_a")
    b = login(srv.port, "sg_b")
    d = login(srv.port, "sg_d")
    r = a.call("create", game="stones", options={"first": 1})
    room = r["room"]
    is_error(chk, a.call("move", room=room, move="A1"), "not_allowed",
             "move before the game started", ["started"])
    r, evs = first_after(chk, b, "join", "join", room=room)
    chk.eq([e.get("event") for e in evs], ["joined", "started"],
           "join: events after the reply")
    w = login(srv.port, "sg_w")
    w.call("watch", room=room)
    is_error(chk, b.call("move", room=room, move="A1"), "not_your_turn",
             "player 2 moves first")
    is_error(chk, w.call("move", room=room, move="A1"), "not_a_player",
             "the watcher moves")
    is_error(chk, d.call("move", room=room, move="A1"), "not_in_room",
             "an outsider moves")
    is_error(chk, a.call("move", room=room, move="Z9"), "illegal_move",
             "bad point", ["Not a board position"])
    is_error(chk, a.call("move", room=room, move="A1B1"), "illegal_move",
             "a slide while placing",
             ["Not a board position"])
    is_error(chk, a.call("move", room="r99999", move="A1"), "no_such_room",
             "move in a missing room")

    # a1 in lower case: the reply gives the normalised notation and the seq
    # of its moved event, which follows the reply
    seq0 = a.call("state", room=room)["state"]["seq"]
    r, evs = first_after(chk, a, "move", "move", room=room, move="a1",
                         seq=seq0)
    if is_ok(chk, r, "move with the current seq"):
        chk.eq(r.get("move"), "A1", "move reply: normalised notation")
        chk.eq(r.get("room"), room, "move reply: room")
        chk.eq(r.get("seq"), seq0 + 1, "move reply: seq of the moved event")
    mv = [e for e in evs if e.get("event") == "moved"]
    if chk.ok(len(mv) == 1, "one moved event: %r" % evs):
        m = mv[0]
        chk.eq(m.get("seq"), seq0 + 1, "moved seq")
        chk.eq(m.get("move"), "A1", "moved move")
        chk.eq(m.get("seat"), "player 1", "moved seat")
        chk.eq(m.get("name"), "sg_a", "moved name")
        chk.eq(m.get("text"), "player 1 places a peg on A1", "moved text")
        chk.eq(m.get("turn"), "player 1", "moved turn (places three)")
        chk.eq(m.get("status"), "playing", "moved status")
        chk.ok(isinstance(m.get("position"), str) and
               isinstance(m.get("board"), list) and "clocks" in m,
               "moved has position, board, clocks")
    is_error(chk, a.call("move", room=room, move="A2", seq=seq0),
             "not_allowed", "stale seq", ["stale", str(seq0 + 1)])
    is_error(chk, a.call("move", room=room, move="A1"), "illegal_move",
             "occupied point", ["Position taken by another peg"])
    is_ok(chk, a.call("move", room=room, move="A2"), "A2")
    is_error(chk, a.call("move", room=room, move="A3"), "illegal_move",
             "three in a row while placing",
             ["Cannot complete 3-in-a-row at this stage"])
    is_ok(chk, a.call("move", room=room, move="B3"), "B3")
    is_error(chk, a.call("move", room=room, move="C1"), "not_your_turn",
             "player 1 after three pegs")
    for mv_ in ["C1", "C2", "B1"]:
        is_ok(chk, b.call("move", room=room, move=mv_), mv_)
    # slide phase refusals, in the order of the rules
    for text, reason in [
            ("B3", "Enter origin and destination positions in 4 characters"),
            ("Z1A3", "Origin is not a board position"),
            ("B3Z1", "Destination is not a board position"),
            ("C1C3", "Origin is not occupied by player's 1 peg"),
            ("B3B1", "Destination position is not empty"),
            ("A1C3", "Destination position is not connected to origin position")]:
        is_error(chk, a.call("move", room=room, move=text), "illegal_move",
                 "slide %s" % text, [reason])
    r, evs = first_after(chk, a, "move", "winning move", room=room,
                         move="b3a3")
    chk.eq(r.get("move"), "B3A3", "winning move normalised")
    chk.eq([e.get("event") for e in evs], ["moved", "ended"],
           "the winning move: moved then ended")
    end = evs[-1] if evs else {}
    chk.eq((end.get("result"), end.get("winner"), end.get("winner_name"),
            end.get("reason")),
           ("win", "player 1", "sg_a", "three in a row"), "ended fields")
    chk.ok("scores" in end and end.get("scores") is None,
           "stones has no scores: %r" % end)
    if evs:
        chk.eq(evs[0].get("turn"), None, "no turn after the last move")
        chk.eq(evs[0].get("status"), "ended", "moved status ended")
    for cmd, f in [("move", {"move": "A3A2"}), ("resign", {}),
                   ("draw", {"action": "offer"})]:
        is_error(chk, a.call(cmd, room=room, **f), "game_over",
                 "%s after the end" % cmd)
    st = w.call("state", room=room)["state"]
    chk.eq(st.get("status"), "ended", "state: ended")
    chk.eq(st.get("turn"), None, "state: no turn")
    chk.eq((st.get("result") or {}).get("reason"), "three in a row",
           "state: result")
    hist = st.get("history", [])
    chk.eq([h.get("move") for h in hist],
           ["A1", "A2", "B3", "C1", "C2", "B1", "B3A3"], "state: history")
    chk.eq([h.get("n") for h in hist], list(range(1, 8)), "history n")
    chk.ok(all(h.get("seat") and h.get("text") for h in hist),
           "history seat and text")

    # seq: every event of the room, as the creator saw them, counts 1, 2,
    # ...; the watcher saw the same events from its join on
    aev = [m for m in a.drain() if m.get("room") == room and "event" in m]
    wev = [m for m in w.drain() if m.get("room") == room and "event" in m]
    # (the creator's pending list was drained by first_after along the
    # way; rebuild the full list from the state's seq instead)
    chk.eq(st.get("seq"), 2 + 1 + 1 + 7 + 1,
           "room seq: 2 joins, the start, a watcher, 7 moves, the end")
    seqs = [e.get("seq") for e in wev]
    chk.ok(seqs == list(range(seqs[0], seqs[0] + len(seqs))) if seqs
           else False, "watcher's seqs go up by one: %r" % seqs)
    chk.ok(seqs and seqs[-1] == st.get("seq"),
           "watcher saw the last event")
    chk.eq([e.get("event") for e in wev if e.get("event") in
            ("moved", "ended")], ["moved"] * 7 + ["ended"],
           "watcher saw every move and the end")
    chk.eq(aev, [], "nothing left over for the creator")
    for c in (a, b, d, w):
        c.close()


def test_seq_and_spectator(chk, srv):
    """Every event of one room, on the creator's connection and on a
    spectator's, from the first on: seq 1, 2, 3, ... and the same events."""
    a = login(srv.port, "sq_a")
    r = a.call("create", game="stones", options={"first": 1})
    room = r["room"]
    w = login(srv.port, "sq_w")
    w.call("watch", room=room)
    b = login(srv.port, "sq_b")
    b.call("join", room=room)
    for m in ["A1", "A2", "B3"]:
        a.call("move", room=room, move=m)
    a.call("say", room=room, text="your turn")
    for m in ["C1", "C2", "B1"]:
        b.call("move", room=room, move=m)
    a.call("move", room=room, move="B3A3")
    a.event("ended")
    w.event("ended")
    aev = [m for m in a.drain() if "event" in m]
    wev = [m for m in w.drain() if "event" in m]
    # the ended events were taken out by event(): add them back in order
    st = a.call("state", room=room)["state"]
    last = st["seq"]
    chk.eq([e.get("seq") for e in aev], list(range(1, last)),
           "creator's events count 1, 2, ... (the last is ended)")
    chk.eq([e.get("event") for e in aev][:4],
           ["joined", "joined", "joined", "started"],
           "creator saw creator, watcher, joiner, start")
    from_watch = [e for e in aev if e.get("seq", 0) >= 2]
    chk.eq(wev, from_watch, "the spectator saw exactly the players' events")
    chk.ok(any(e.get("event") == "chat" for e in wev),
           "spectator saw the room chat")
    for c in (a, b, w):
        c.close()


def test_resign_draw(chk, srv):
    a, b, w, room = stones_pair(srv, "rd_a", "rd_b", "rd_w")
    is_error(chk, a.call("draw", room=room, action="accept"), "not_allowed",
             "accept without an offer")
    is_error(chk, a.call("draw", room=room, action="decline"), "not_allowed",
             "decline without an offer")
    is_error(chk, w.call("draw", room=room, action="offer"), "not_a_player",
             "a watcher offers a draw")
    r, evs = first_after(chk, a, "draw", "draw offer", room=room,
                         action="offer")
    is_ok(chk, r, "draw offer")
    chk.ok(any(e.get("event") == "draw_offered" and e.get("name") == "rd_a"
               and e.get("seat") == "player 1" for e in evs),
           "offerer sees draw_offered: %r" % evs)
    for who, c in (("opponent", b), ("watcher", w)):
        ev = c.event("draw_offered")
        chk.ok(ev is not None and ev.get("name") == "rd_a" and
               ev.get("seat") == "player 1",
               "%s gets draw_offered: %r" % (who, ev))
    is_error(chk, a.call("draw", room=room, action="accept"), "not_allowed",
             "accepting one's own offer")
    is_ok(chk, b.call("draw", room=room, action="decline"), "decline")
    for who, c in (("offerer", a), ("watcher", w)):
        ev = c.event("draw_declined")
        chk.ok(ev is not None and ev.get("name") == "rd_b" and
               ev.get("seat") == "player 2",
               "%s gets draw_declined: %r" % (who, ev))
    is_error(chk, a.call("draw", room=room, action="accept"), "not_allowed",
             "accept after the decline")
    # a move cancels a pending offer
    is_ok(chk, a.call("draw", room=room, action="offer"), "offer, then move")
    is_ok(chk, a.call("move", room=room, move="A1"), "the offerer moves")
    is_error(chk, b.call("draw", room=room, action="accept"), "not_allowed",
             "accept an offer cancelled by a move")
    is_ok(chk, b.call("draw", room=room, action="offer"), "offer again")
    is_ok(chk, a.call("draw", room=room, action="accept"), "accept")
    for who, c in (("a", a), ("b", b), ("watcher", w)):
        ev = c.event("ended")
        chk.ok(ev is not None and ev.get("result") == "draw" and
               ev.get("winner") is None and
               ev.get("reason") == "draw by agreement",
               "%s gets the agreed draw: %r" % (who, ev))
    pic = a.call("state", room=room)["state"]["picture"]
    chk.eq(pic.rstrip("\n").split("\n")[-1],
           "game over (draw by agreement): draw",
           "the picture of an agreed draw says so, not whose turn it is")
    for c in (a, b, w):
        c.close()

    a, b, w, room = stones_pair(srv, "rs_a", "rs_b", "rs_w")
    is_error(chk, w.call("resign", room=room), "not_a_player",
             "a watcher resigns")
    r, evs = first_after(chk, b, "resign", "resign", room=room)
    is_ok(chk, r, "resign")
    ev = a.event("ended")
    chk.ok(ev is not None and ev.get("result") == "win" and
           ev.get("winner") == "player 1" and
           ev.get("winner_name") == "rs_a" and
           ev.get("reason") == "resignation", "resignation: %r" % ev)
    chk.ok(any(e.get("event") == "ended" for e in evs),
           "the resigner hears the end after its reply")
    pic = w.call("state", room=room)["state"]["picture"]
    chk.eq(pic.rstrip("\n").split("\n")[-1],
           "game over (resignation): player 1 wins",
           "the picture after a resignation names the winner")
    chk.ok(pic.startswith("  1   2   3\n"), "the board is still drawn")
    # resign before the start
    r = a.call("create", game="stones")
    is_error(chk, a.call("resign", room=r["room"]), "not_allowed",
             "resign before the start")
    is_error(chk, a.call("claim", room=r["room"]), "not_allowed",
             "claim before the start")
    # a bot declines a draw at once
    r = a.call("create", game="ataxx", bots={"black": 1})
    a.drain()
    is_ok(chk, a.call("draw", room=r["room"], action="offer"),
          "offer a bot a draw")
    ev = a.event("draw_declined")
    chk.ok(ev is not None and ev.get("seat") == "black",
           "the bot declines: %r" % ev)
    for c in (a, b, w):
        c.close()


def test_rematch(chk, srv):
    a, b, w, room = stones_pair(srv, "rm_a", "rm_b", "rm_w")
    is_error(chk, a.call("rematch", room=room), "not_allowed",
             "rematch while playing")
    b.call("resign", room=room)
    a.event("ended")
    is_error(chk, w.call("rematch", room=room), "not_a_player",
             "a watcher asks for a rematch")
    r, evs = first_after(chk, a, "rematch", "rematch", room=room)
    is_ok(chk, r, "rematch asked")
    ev = b.event("rematch_offered")
    chk.ok(ev is not None and ev.get("name") == "rm_a" and
           ev.get("seat") == "player 1", "rematch_offered: %r" % ev)
    chk.eq(a.call("state", room=room)["state"]["status"], "ended",
           "one rematch is not enough")
    b.drain()
    is_ok(chk, b.call("rematch", room=room), "rematch accepted")
    ev = b.event("started")
    chk.ok(ev is not None and ev.get("room") == room, "a new game starts")
    ev = w.event("started")
    chk.ok(ev is not None, "the watcher sees the new game")
    st = a.call("state", room=room)["state"]
    chk.eq(st.get("status"), "playing", "rematch: playing")
    chk.eq(st.get("history"), [], "rematch: empty history")
    chk.eq(st.get("result"), None, "rematch: no result")
    chk.eq(sorted(s.get("name") for s in st.get("seats", [])),
           ["rm_a", "rm_b"], "rematch: the same two players")
    chk.eq(st.get("game_no"), 2, "rematch: the second game")
    seat_of = {x.get("name"): x.get("seat") for x in st.get("seats", [])}
    chk.eq(seat_of, {"rm_a": "player 2", "rm_b": "player 1"},
           "rematch: the players swap seats")
    # the new game is playable by whoever has the turn
    turn = st.get("turn")
    mover = [s["name"] for s in st["seats"] if s["seat"] == turn]
    c = a if mover == ["rm_a"] else b
    is_ok(chk, c.call("move", room=room, move="B2"), "a move in the rematch")
    for c in (a, b, w):
        c.close()


def test_claim(chk, srv):
    a, b, w, room = stones_pair(srv, "cl_a", "cl_b")
    is_error(chk, a.call("claim", room=room), "not_allowed",
             "claim while the opponent is here")
    tok = b.token
    b.close()
    ev = a.event("opponent_gone")
    chk.ok(ev is not None and ev.get("name") == "cl_b" and
           ev.get("seat") == "player 2" and ev.get("grace") == 1,
           "opponent_gone with the grace period: %r" % ev)
    r = a.call("claim", room=room)
    # the grace period has probably not passed yet; if it has, the claim
    # is fine too (no timing assertions)
    if r.get("ok") is False:
        is_error(chk, r, "not_allowed", "claim within the grace period")
        time.sleep(1.2)
        r = a.call("claim", room=room)
    is_ok(chk, r, "claim after the grace period")
    ev = a.event("ended")
    chk.ok(ev is not None and ev.get("result") == "win" and
           ev.get("winner") == "player 1" and
           ev.get("reason") == "abandonment", "claim wins: %r" % ev)
    is_error(chk, a.call("claim", room=room), "game_over",
             "claim after the end")
    # the gone player comes back and sees the result
    b = Client(srv.port)
    r = b.call("hello", name="cl_b", token=tok)
    is_ok(chk, r, "hello with the token after a claim")
    st = b.call("state", room=room)
    chk.ok(st.get("ok") and st["state"]["result"]["reason"] == "abandonment",
           "the claimed game is over for the loser too")
    a.close()
    b.close()


def test_gone_back(chk, srv):
    a, b, w, room = stones_pair(srv, "gb_a", "gb_b", "gb_w")
    a.call("move", room=room, move="A1")
    tok = b.token
    b.close()
    for who, c in (("opponent", a), ("watcher", w)):
        ev = c.event("opponent_gone")
        chk.ok(ev is not None and ev.get("name") == "gb_b",
               "%s hears opponent_gone: %r" % (who, ev))
    summ = [s for s in w.call("rooms").get("rooms", [])
            if s.get("room") == room]
    chk.ok(summ and summ[0]["seats"][1].get("connected") is False,
           "rooms shows the gone player as not connected: %r" % summ)
    b = Client(srv.port)
    r = b.call("hello", name="gb_b", token=tok)
    if is_ok(chk, r, "hello back"):
        rooms = r.get("rooms", [])
        chk.ok([x.get("room") for x in rooms] == [room],
               "hello lists the seat's room: %r" % rooms)
        chk.ok(rooms and rooms[0].get("status") == "playing" and
               "history" not in rooms[0] and
               isinstance(rooms[0].get("seq"), int),
               "hello gives the room's summary, not its state: %r" % rooms)
        st = b.call("state", room=room).get("state", {})
        chk.eq(len(st.get("history", [])), 1, "state gives the history")
    for who, c in (("opponent", a), ("watcher", w)):
        ev = c.event("opponent_back")
        chk.ok(ev is not None and ev.get("name") == "gb_b" and
               ev.get("seat") == "player 2",
               "%s hears opponent_back: %r" % (who, ev))
    is_error(chk, a.call("claim", room=room), "not_allowed",
             "claim after the opponent came back")
    # the current room after hello is the room with the seat
    a.call("move", room=room, move="A2")
    a.call("move", room=room, move="B3")
    is_ok(chk, b.call("move", move="C1"), "move without room after hello")
    # both gone: adjourned; one back: playing again
    tok_a = a.token
    a.close()
    b.close()
    a.token = tok_a
    deadline = time.time() + 5
    status = None
    while time.time() < deadline:
        rs = [s for s in w.call("rooms").get("rooms", [])
              if s.get("room") == room]
        status = rs[0]["status"] if rs else None
        if status == "adjourned":
            break
        time.sleep(0.05)
    chk.eq(status, "adjourned", "both players gone: adjourned")
    rs = w.call("rooms", status="adjourned").get("rooms", [])
    chk.ok(room in [s.get("room") for s in rs], "rooms status=adjourned")
    a = Client(srv.port)
    a.call("hello", name="gb_a", token=tok_a)
    r = a.call("join", room=room)
    if is_ok(chk, r, "join resumes an adjourned game"):
        chk.eq(r.get("seat"), "player 1", "resumed seat")
    st = w.call("state", room=room)["state"]
    chk.eq(st.get("status"), "playing", "back to playing")
    a.close()
    w.close()


def test_back_clock(chk, srv):
    """A player comes back to a timed game: opponent_back, then clock."""
    a = login(srv.port, "bc_a")
    b = login(srv.port, "bc_b")
    room = a.call("create", game="stones", options={"first": 1},
                  clock={"initial": 600, "increment": 0})["room"]
    b.call("join", room=room)
    tok = b.token
    b.close()
    a.event("opponent_gone")
    a.drain()
    b = Client(srv.port)
    b.call("hello", name="bc_b", token=tok)
    ev = a.event("opponent_back")
    chk.ok(ev is not None and ev.get("name") == "bc_b", "opponent_back")
    ev2 = a.event("clock")
    c = ev2.get("clocks") if ev2 else None
    chk.ok(isinstance(c, dict) and set(c) == {"player 1", "player 2"} and
           all(isinstance(v, int) and 0 < v <= 600000 for v in c.values()),
           "a clock event follows opponent_back in a timed game: %r" % ev2)
    chk.ok(ev is not None and ev2 is not None and
           ev2.get("seq") == ev.get("seq") + 1, "clock right after back")
    a.close()
    b.close()


def test_flag_fall(chk, srv):
    a = login(srv.port, "ff_a")
    b = login(srv.port, "ff_b")
    room = a.call("create", game="stones", options={"first": 1},
                  clock={"initial": 1, "increment": 0})["room"]
    b.call("join", room=room)
    ev = b.event("ended", timeout=8)
    chk.ok(ev is not None and ev.get("result") == "win" and
           ev.get("winner") == "player 2" and ev.get("reason") == "timeout",
           "the flag falls: %r" % ev)
    is_error(chk, a.call("move", room=room, move="A1"), "game_over",
             "move after the flag fell")
    st = a.call("state", room=room)["state"]
    chk.eq(st.get("clocks", {}).get("player 1"), 0, "the fallen flag")
    a.close()
    b.close()


def test_solo(chk, srv):
    """undo, restart, hint, next and rematch in one-player games."""
    a = login(srv.port, "solo_a")
    r = a.call("create", game="solitaire",
               options={"steps": 3, "seed": 7, "rows": 5, "cols": 5})
    room = r["room"]
    start = r["state"]["position"]
    is_error(chk, a.call("undo", room=room), "not_allowed",
             "undo with no move")
    is_error(chk, a.call("next", room=room), "not_allowed",
             "next in a game without levels")
    h = a.call("hint", room=room)
    if is_ok(chk, h, "hint"):
        chk.eq(h.get("verdict"), "winnable", "hint verdict at the start")
        chk.ok(h.get("move") in a.call("moves", room=room).get("moves", []),
               "the hinted move is legal: %r" % h)
    a.call("move", room=room, move=h.get("move", ""))
    after1 = a.call("state", room=room)["state"]["position"]
    r, evs = first_after(chk, a, "undo", "undo", room=room)
    is_ok(chk, r, "undo")
    und = [e for e in evs if e.get("event") == "undone"]
    chk.ok(und and und[0].get("position") == start and
           isinstance(und[0].get("board"), list),
           "undone event back to the start: %r" % und)
    st = a.call("state", room=room)["state"]
    chk.eq((st["position"], st["history"]), (start, []),
           "state after undo")
    a.call("move", room=room, move=h.get("move", ""))
    chk.eq(a.call("state", room=room)["state"]["position"], after1,
           "the same move again")
    r, evs = first_after(chk, a, "restart", "restart", room=room)
    is_ok(chk, r, "restart")
    rs = [e for e in evs if e.get("event") == "restarted"]
    chk.ok(rs and rs[0].get("position") == start,
           "restarted event back to the start: %r" % rs)
    # solve by hints
    for _ in range(10):
        h = a.call("hint", room=room)
        if not h.get("ok") or "move" not in h:
            break
        a.call("move", room=room, move=h["move"])
    st = a.call("state", room=room)["state"]
    chk.eq(st.get("status"), "ended", "solved by following hints")
    chk.eq((st.get("result") or {}).get("result"), "solved", "result solved")
    is_error(chk, a.call("hint", room=room), "game_over", "hint after end")
    a.drain()
    is_ok(chk, a.call("rematch", room=room), "one-player rematch")
    ev = a.event("started")
    chk.ok(ev is not None and ev.get("room") == room,
           "one-player rematch starts at once: %r" % ev)
    st = a.call("state", room=room)["state"]
    chk.eq((st.get("status"), st.get("history"), st.get("game_no")),
           ("playing", [], 2), "one-player rematch: a new game")

    # a lost position: hint says so
    r = a.call("create", game="solitaire",
               options={"file": "3 5\n0 0 0 0 0\n2 2 1 2 2\n0 0 0 0 0\n1 2\n"})
    if is_ok(chk, r, "solitaire from a board file"):
        h = a.call("hint")
        chk.ok(h.get("ok") and h.get("verdict") == "lost" and
               "move" not in h, "hint says lost: %r" % h)

    # shifter: next before and after the level is won
    r = a.call("create", game="shifter", options={"level": 1, "seed": 5})
    room = r["room"]
    is_error(chk, a.call("next", room=room), "not_allowed",
             "next before the level is won")
    for _ in range(10):
        h = a.call("hint", room=room)
        if not h.get("ok") or "move" not in h:
            break
        a.call("move", room=room, move=h["move"])
        if a.call("state", room=room)["state"].get("game_no") != 1:
            break
    evs = a.drain()
    ended = [e for e in evs if e.get("event") == "ended"]
    chk.eq([e.get("result") for e in ended], ["solved"],
           "shifter level 1 solved")
    # the next level starts by itself after the win; next says so
    chk.ok(any(e.get("event") == "started" for e in evs),
           "the next level starts by itself: %r" % evs)
    st = a.call("state", room=room)["state"]
    chk.eq(st.get("options", {}).get("level"), "2", "level 2")
    r = a.call("next", room=room)
    is_ok(chk, r, "next right after the win")
    chk.eq(r.get("level"), 2, "next: already at level 2")
    st = a.call("state", room=room)["state"]
    chk.eq((st.get("options", {}).get("level"), st.get("game_no")),
           ("2", 2), "next changed nothing")
    chk.eq(st.get("status"), "playing", "level 2 playing")
    # one-player verbs in a two-player game
    r = a.call("create", game="ataxx", bots={"black": 1})
    for cmd in ["undo", "restart", "next", "hint"]:
        is_error(chk, a.call(cmd, room=r["room"]), "not_allowed",
                 "%s in a two-player game" % cmd)
    is_error(chk, a.call("draw", room=room, action="offer"), "not_allowed",
             "draw in a one-player game")
    is_error(chk, a.call("claim", room=room), "not_allowed",
             "claim in a one-player game")
    a.close()


def test_replace_quit(chk, srv):
    """A second connection with the token takes over the seats; quit holds
    them like any disconnect."""
    a, b, w, room = stones_pair(srv, "rq_a", "rq_b", "rq_w")
    a2 = Client(srv.port)
    r = a2.call("hello", name="rq_a", token=a.token)
    is_ok(chk, r, "hello from a second connection")
    chk.ok(r.get("rooms") and r["rooms"][0].get("room") == room,
           "the new connection is told about the seat")
    chk.ok(a.event("replaced") is not None, "the old one is replaced")
    chk.ok(b.event("opponent_gone", timeout=0.3) is None,
           "a replaced connection is not a gone player")
    r, evs = first_after(chk, a2, "move", "move from the new connection",
                         move="A1")
    is_ok(chk, r, "the new connection plays the seat (current room)")
    ev = b.event("moved")
    chk.ok(ev is not None and ev.get("name") == "rq_a",
           "the opponent sees the move")
    # quit: reply, close, and the seat is held
    r = b.call("quit")
    is_ok(chk, r, "quit")
    ev = a2.event("opponent_gone")
    chk.ok(ev is not None and ev.get("name") == "rq_b",
           "quit holds the seat: opponent_gone: %r" % ev)
    st = w.call("state", room=room)["state"]
    chk.eq(st.get("status"), "playing", "still playing after quit")
    chk.eq([x.get("name") for x in st.get("seats", [])], ["rq_a", "rq_b"],
           "the seats are held")
    # a watcher disconnecting is no longer counted
    w.close()
    deadline = time.time() + 5
    n = None
    while time.time() < deadline:
        n = a2.call("state", room=room)["state"].get("watchers")
        if n == 0:
            break
        time.sleep(0.05)
    chk.eq(n, 0, "a watcher who disconnected is not counted")
    a.close()
    a2.close()
    b.close()


def test_watcher_joins_bot_rematch(chk, srv):
    a = login(srv.port, "wj_a")
    b = login(srv.port, "wj_b")
    room = a.call("create", game="stones")["room"]
    b.call("watch", room=room)
    r = b.call("join", room=room)
    is_ok(chk, r, "a watcher takes the free seat")
    st = r.get("state", {})
    chk.eq(st.get("watchers"), 0, "no longer counted as a watcher")
    chk.eq(st.get("status"), "playing", "the game starts")
    # rematch against a bot: the bot is always willing
    r = a.call("create", game="ataxx", bots={"black": 1})
    room = r["room"]
    a.call("resign", room=room)
    a.event("ended")
    a.drain()
    is_ok(chk, a.call("rematch", room=room), "rematch against a bot")
    ev = a.event("started")
    chk.ok(ev is not None and ev.get("room") == room,
           "the bot accepts at once: %r" % ev)
    st = a.call("state", room=room)["state"]
    chk.eq([(x.get("seat"), x.get("name"), x.get("bot"))
            for x in st.get("seats", [])],
           [("white", None, 1), ("black", "wj_a", None)],
           "the seats swap: the bot is white now")
    ev = a.event("moved")
    chk.ok(ev is not None and ev.get("seat") == "white" and
           ev.get("name") is None, "the bot (white) moves first: %r" % ev)
    a.close()
    b.close()


def test_first_drawn(chk, srv):
    """Stones with first=random: a seed decides, and a rematch draws the
    first player anew."""
    a = login(srv.port, "fd_a")
    b = login(srv.port, "fd_b")
    turns = set()
    for _ in range(2):
        r = a.call("create", game="stones", options={"first": "random",
                                                     "seed": 12345})
        b.call("join", room=r["room"])
        turns.add(b.call("state", room=r["room"])["state"]["turn"])
        a.call("resign", room=r["room"])
    chk.eq(len(turns), 1, "the same seed draws the same first player")
    room = a.call("create", game="stones",
                  options={"first": "random"})["room"]
    b.call("join", room=room)
    firsts = set()
    for i in range(24):
        # the seat that starts: the same every time if nothing is drawn
        firsts.add(a.call("state", room=room)["state"]["turn"])
        if len(firsts) == 2:
            break
        a.call("resign", room=room)
        a.call("rematch", room=room)
        b.call("rematch", room=room)
    # 24 fair draws all alike: about one chance in ten million
    chk.eq(firsts, {"player 1", "player 2"},
           "rematches draw the first player anew (both seats started)")
    a.close()
    b.close()


def main():
    a = args()
    chk = Checks()
    with Server(a.build, extra=EXTRA) as srv:
        run_parts(chk, [test_stones_game, test_seq_and_spectator,
                        test_resign_draw, test_rematch, test_claim,
                        test_gone_back, test_back_clock, test_flag_fall,
                        test_replace_quit, test_watcher_joins_bot_rematch,
                        test_first_drawn, test_solo], srv)
        stopped_cleanly(chk, srv)
    chk.done()



if __name__ == "__main__":
    main()
