"""test_text_picture.py: the board picture of events is drawn for text mode
only. Two JSON programs play Ataxx: their events carry the position and the
rows, never a picture. A person on telnet watches: every move reaches them
with the board drawn. One player switches to text mode in the middle of the
game and sees the board from the next move on; back in JSON, no picture
again.
"""

import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks, Server, args, login  # noqa: E402
from test_telnet import Telnet  # noqa: E402

FAST = ["--rate", "100000", "--burst", "100000"]
# The Ataxx picture's legend line (docs/RULES.md).
LEGEND = r"^x white \d+, o black \d+ \(\. empty\)$"


def no_picture(chk, msgs, what):
    """No message has a picture member, hidden or not."""
    bad = [m for m in msgs if "picture" in m or
           any(k.startswith("_") for k in m)]
    chk.ok(not bad, "%s: no picture in JSON: %r" % (what, bad[:1]))


def play(chk, mover, move):
    rep = mover.call("move", move=move)
    chk.ok(rep is not None and rep.get("ok") is True,
           "move %s: %r" % (move, rep))


def test_audience(chk, srv):
    ana = login(srv.port, "ana")
    bob = Telnet(srv.port)  # JSON first, text mode later
    bob.welcome = bob.json()
    bob.call("hello", name="bob")
    rep = ana.call("create", game="ataxx", seat="white",
                   options={"size": 5})
    room = rep.get("room") if rep else None
    chk.ok(room, "create: %r" % rep)
    chk.ok(bob.call("join", room=room).get("ok") is True, "bob joins")
    started = ana.event("started")
    chk.ok(started is not None and "board" in started and
           "position" in started, "started has the board: %r" % started)
    no_picture(chk, [started], "started, JSON only")

    play(chk, ana, "b4")
    moved = bob.event("moved")
    chk.ok(moved is not None and moved.get("move") == "b4" and
           moved.get("board", [None])[1] == ".x...",
           "bob sees the move: %r" % moved)
    no_picture(chk, ana.drain() + bob.drain() + [moved], "moved, JSON only")

    # a person on telnet watches: the next move comes with the board
    cleo = Telnet(srv.port)
    cleo.until(r"welcome")
    cleo.type("hello cleo")
    cleo.until(r"Keep it")
    cleo.type("watch " + room)
    cleo.until(r"You are watching")
    cleo.quiet(0.3)
    play(chk, bob, "d4")
    lines = cleo.until(r"to move$")
    text = "\n".join(lines)
    chk.ok(re.search(r"^\[%s\] bob plays d4" % room, text, re.M),
           "the watcher reads the move: %r" % lines)
    chk.ok(re.search(LEGEND, text, re.M) and
           re.search(r"^ 4 \. x \. o \.$", text, re.M) and
           re.search(r"^white to move$", text, re.M),
           "the watcher sees the board drawn: %r" % lines)
    no_picture(chk, ana.drain() + bob.drain(), "moved, a text watcher")

    # bob switches to text mode: the board from the next move on
    bob.raw(b'{"cmd":"mode","mode":"text"}\n')
    bob.quiet(0.3)
    bob.pending = []
    play(chk, ana, "b3")
    lines = bob.until(r"to move$")
    text = "\n".join(lines)
    chk.ok(re.search(r"^\[%s\] ana plays b3" % room, text, re.M) and
           re.search(LEGEND, text, re.M) and
           re.search(r"^ 3 \. x \. \. \.$", text, re.M),
           "bob in text mode sees the board: %r" % lines)

    # and back to JSON: no picture again, the watcher still has it
    bob.type("mode json")
    bob.until(r"^\{")
    ana.drain()
    bob.raw(b'{"cmd":"move","move":"d3","id":"m"}\n')
    msgs = []
    for _ in range(10):
        line = bob.line()
        if line is None:
            break
        msgs.append(json.loads(line))
        if msgs[-1].get("id") == "m":
            break
    chk.ok(msgs and msgs[-1].get("id") == "m" and
           msgs[-1].get("ok") is True,
           "bob plays in JSON again: %r" % msgs)
    moved = ana.event("moved")
    chk.ok(moved is not None and moved.get("move") == "d3",
           "ana sees it: %r" % moved)
    no_picture(chk, msgs + ana.drain() + bob.drain() + [moved],
               "back in JSON")
    cleo.until(r"ana plays b3")
    cleo.until(r"to move$")
    lines = cleo.until(r"to move$")
    chk.ok(re.search(r"^ 3 \. x \. o \.$", "\n".join(lines), re.M),
           "the watcher still gets the board: %r" % lines)
    for c in (ana, bob, cleo):
        c.close()


def main():
    a = args()
    chk = Checks()
    with Server(a.build, extra=FAST) as srv:
        try:
            test_audience(chk, srv)
        except Exception as e:  # a crash is one failure
            chk.ok(False, "test_audience raised %r" % (e,))
        chk.ok(srv.proc.poll() is None, "server still running")
        chk.eq(srv.stop(), 0, "server exits 0 on SIGTERM")
    return chk.done()


if __name__ == "__main__":
    sys.exit(main())
