#!/usr/bin/env python3
"""test_newcomer_solo.py: one-player games as a newcomer meets them (issue
13): resuming Shape Shifter gives back the very level being played; the
endings are said in words with the next step; a won Shape Shifter level
goes on to the next by itself."""

import os
import sys

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


def main():
    a = args()
    chk = Checks()
    with Server(a.build) as s:
        test_shifter_resume(chk, s.port)
        test_endings_in_words(chk, s.port)
        test_shifter_goes_on(chk, s.port)
    chk.done()


if __name__ == "__main__":
    main()
