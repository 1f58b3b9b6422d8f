"""test_telnet_bare.py: what a person types on telnet that is not a verb
(issue 21, items 5 and 7), and the prompt line a player gets on telnet
when it becomes their move ("Your move in r1 (like A1):"). In a running game a bare "A2" or "C1C2" is the
move it spells in the player's current room; a spectator who types one
is told they are watching; hello typed when logged in says so instead of
"field 'name' is required"; a word that is no verb in the lobby is
still an unknown command; state lists the game's moves so far (issue
21, the move list); leaving a puzzle says how to start another
(restart and rematch are refused once you left)."""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks, Server, args  # noqa: E402
from test_telnet import Telnet, FAST  # noqa: E402


def main():
    a = args()
    chk = Checks()
    with Server(a.build, extra=FAST) as srv:
        ana, bob, cat = Telnet(srv.port), Telnet(srv.port), Telnet(srv.port)
        try:
            for t, n in ((ana, "ana"), (bob, "bob"), (cat, "cat")):
                t.type("hello " + n)
                got = t.until(r"^Hello, %s\." % n)
                chk.ok(got and got[-1].startswith("Hello, %s." % n),
                       n + " logged in: %r" % (got[-1:],))
            ana.type("b2")
            chk.ok(ana.until(r"unknown command 'b2'"),
                   "in the lobby a bare word is still unknown")
            ana.type("hello")
            chk.ok(ana.until(r"logged in already, as ana"),
                   "hello when logged in says so")
            ana.type("create stones first=1")
            chk.ok(ana.until(r"[Ww]aiting"), "ana made r1")
            bob.type("join r1")
            chk.ok(bob.until(r"player 1 to place"), "bob joined")
            got = ana.until(r"^Your move in r1 \(like [A-C][1-3]\):$")
            chk.ok(got and "player 1 to place" in " ".join(got),
                   "ana's turn comes with a prompt line: %r" % (got[-3:],))
            chk.eq([l for l in bob.quiet() if l.startswith("Your move")],
                   [], "no prompt for bob, whose turn it is not")
            ana.quiet()
            ana.type("A2")
            got = ana.until(r"A2|error")
            chk.ok(got and "error" not in got[-1],
                   "A2 alone is ana's move: %r" % (got,))
            chk.ok(bob.until(r"A2"), "bob sees it")
            ana.quiet()
            ana.type("state")
            chk.ok(ana.until(r"^Moves \(1\): 1\. A2$"),
                   "state lists the moves so far")
            cat.type("watch r1")
            chk.ok(cat.until(r"watching|r1"), "cat watches")
            cat.quiet()
            cat.type("B2")
            chk.ok(cat.until(r"you are watching r1: only its players move"),
                   "a spectator's move")
            ana.quiet()
            ana.type("zz")  # Stones: player 1 places all three pegs first
            got = ana.until(r"error")
            chk.ok(got and re.search(r"^error \(unknown_cmd\): unknown command "
                                     r"'zz', and no move in r1 either: ",
                                     got[-1]),
                   "a word that is no move either says both: %r" % (got,))
            # leaving a puzzle does not send people to restart/rematch
            cat.type("leave")
            cat.quiet()
            cat.type("create solitaire")
            chk.ok(cat.until(r"pegs left"), "cat plays solitaire")
            cat.quiet()
            cat.type("leave")
            said = (r"^\[r\d+\] You left the game\. Type create solitaire "
                    r"to start another\.$")
            got = cat.until(said)
            chk.ok(got and re.search(said, got[-1])
                   and not any("Type restart" in l for l in got),
                   "leaving a puzzle says what works: %r" % (got,))
        finally:
            for t in (ana, bob, cat):
                t.close()
    chk.done()


if __name__ == "__main__":
    main()
