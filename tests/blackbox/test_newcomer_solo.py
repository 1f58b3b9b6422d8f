#!/usr/bin/env python3
"""test_newcomer_solo.py: one-player games as a newcomer meets them (issue
13): resuming Shape Shifter gives back the very level being played; the
endings are said in words with the next step; a won Shape Shifter level
goes on to the next by itself; restart and rematch reach a level file's
start; Amazons refuses draw offers."""

import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks, Server, args, is_ok, login


def test_shifter_resume(chk, port):
    """A level left unsolved comes back as the same layout."""
    c = login(port, "sr_a")
    r = c.call("create", game="shifter", options={"level": "3"})
    if not is_ok(chk, r, "create shifter level 3"):
        return
    room, first = r["room"], r["state"]["position"]
    is_ok(chk, c.call("leave", room=room), "leave it (gives up)")
    for i in range(2):
        r = c.call("create", game="shifter")
        if not is_ok(chk, r, "create shifter again"):
            return
        chk.eq(r.get("resumed_level"), 3, "resumed at level 3")
        chk.eq(r["state"]["position"], first,
               "the very same level (%d)" % i)
        c.call("leave", room=r["room"])
    c.close()




BLOCKED = "3 3\n0 0 0\n0 2 1\n0 0 0\n1 2\n"
ONE_JUMP = "1 3\n2 2 1\n0 2\n"


def ended_of(c):
    evs = [m for m in c.drain() if m.get("event") == "ended"]
    return evs[-1] if evs else {}


def test_endings_in_words(chk, port):
    """One-player endings in words, with the next step offered; text mode
    shows them, not a score read as a seat."""
    c = login(port, "ew_a")
    r = c.call("create", game="solitaire", options={"file": ONE_JUMP})
    room = r["room"]
    c.drain()
    moves = c.call("moves", room=room).get("moves", [])
    chk.eq(len(moves), 1, "one jump")
    c.call("move", room=room, move=moves[0] if moves else "x")
    ev = ended_of(c)
    msg = ev.get("message", "")
    chk.ok(msg.startswith("Solved! One peg left on the goal."),
           "solved in words: %r" % msg)
    chk.ok("restart" in msg and "rematch" in msg,
           "and the next step: %r" % msg)
    r = c.call("create", game="solitaire", options={"file": BLOCKED})
    ev = ended_of(c)
    msg = ev.get("message", "")
    chk.ok(msg.startswith("One peg left, off the goal."),
           "blocked in words: %r" % msg)
    chk.ok("restart" in msg, "and the next step: %r" % msg)
    st = c.call("state", room=r["room"])["state"]
    chk.eq(st["result"].get("message"), msg, "state's result has it too")
    # text mode
    c.drain()
    c.raw("mode text\nstate %s\nping\n" % r["room"])
    out = []
    for _ in range(60):
        line = c.line()
        if line is None or line == "pong":
            break
        out.append(line)
    text = "\n".join(out)
    chk.ok("One peg left, off the goal. Play again?" in text,
           "text mode says it in words: %r" % text)
    chk.ok("Score: player" not in text, "no score read as a seat: %r" %
           text)
    c.close()


def test_shifter_goes_on(chk, port):
    """A won Shape Shifter level goes on to the next by itself; next is
    still there and says so."""
    c = login(port, "sg_a")
    room = c.call("create", game="shifter",
                  options={"level": "1", "seed": "5"})["room"]
    c.drain()
    for _ in range(10):
        h = c.call("hint", room=room)
        if "move" not in h:
            break
        c.call("move", room=room, move=h["move"])
        if c.call("state", room=room)["state"].get("game_no") != 1:
            break
    evs = c.drain()
    names = [e.get("event") for e in evs if e.get("event") in
             ("ended", "started")]
    chk.eq(names, ["ended", "started"], "ended, then the next level")
    ended = [e for e in evs if e.get("event") == "ended"]
    chk.ok(ended and "On to level 2" in ended[0].get("message", ""),
           "the ending says so: %r" % ended)
    st = c.call("state", room=room)["state"]
    chk.eq((st["status"], st["options"].get("level")), ("playing", "2"),
           "level 2 is on")
    r = c.call("next", room=room)
    is_ok(chk, r, "next is still there")
    chk.eq(c.call("state", room=room)["state"]["options"].get("level"), "2",
           "and does not skip a level")
    c.close()




def test_restart_level_file(chk, port):
    """restart and rematch in a game made from a level file saved
    mid-level go back to the level's start, also after the server
    restarts."""
    c = login(port, "rl_a")
    r = c.call("create", game="shifter", options={"level": "3", "seed": "7"})
    room, start = r["room"], r["state"]["position"]
    h = c.call("hint", room=room)
    c.call("move", room=room, move=h.get("move"))
    mid = c.call("state", room=room)["state"]["position"]
    saved = c.call("export", room=room)["text"]
    c.call("leave", room=room)
    r = c.call("create", game="shifter", options={"file": saved})
    room = r["room"]
    chk.eq(r["state"]["position"], mid, "the file loads mid-level")
    h = c.call("hint", room=room)
    c.call("move", room=room, move=h.get("move"))
    is_ok(chk, c.call("restart", room=room), "restart")
    st = c.call("state", room=room)["state"]
    chk.eq((st["position"], st["history"], st["status"]),
           (start, [], "playing"), "restart: the level's start")
    c.call("resign", room=room)
    is_ok(chk, c.call("rematch", room=room), "rematch")
    st = c.call("state", room=room)["state"]
    chk.eq((st["position"], st["status"]), (start, "playing"),
           "rematch: the level's start")
    c.close()
    return room, start


def test_amazons_no_draws(chk, port):
    """Amazons has no draws: an offer is refused."""
    a, b = login(port, "ad_a"), login(port, "ad_b")
    room = a.call("create", game="amazons")["room"]
    b.call("join", room=room)
    r = a.call("draw", room=room, action="offer")
    chk.ok(r.get("ok") is False and r.get("error") == "not_allowed" and
           "no draws" in r.get("message", ""),
           "a draw offer in Amazons is refused: %r" % r)
    chk.ok(not [e for e in b.drain() if e.get("event") == "draw_offered"],
           "the opponent hears of no offer")
    room2 = a.call("create", game="ataxx")["room"]
    b.call("join", room=room2)
    is_ok(chk, a.call("draw", room=room2, action="offer"),
          "Ataxx still takes draw offers")
    a.close()
    b.close()


def main():
    a = args()
    chk = Checks()
    tmp = tempfile.mkdtemp(prefix="tablerod-solo-")
    db = os.path.join(tmp, "t.db")
    with Server(a.build, db=db) as s:
        test_shifter_resume(chk, s.port)
        test_endings_in_words(chk, s.port)
        test_shifter_goes_on(chk, s.port)
        room, start = test_restart_level_file(chk, s.port)
        test_amazons_no_draws(chk, s.port)
    with Server(a.build, db=db) as s:
        c = login(s.port, "rl_b")
        st = c.call("state", room=room).get("state", {})
        chk.eq(st.get("position"), start,
               "after a server restart: still the level's start")
        c.close()
    shutil.rmtree(tmp, ignore_errors=True)
    chk.done()


if __name__ == "__main__":
    main()
