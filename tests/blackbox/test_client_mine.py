"""test_client_mine.py: a move waiting for the player is never lost
(issue 21, item 2). A player in the lobby whose turn comes in a game they
sit in is told "Your move in r1 (Amazons, against ana)" and taken back to
it; one looking at another room is told the way back (join r1), the
prompt shows the rooms waiting for them, and `mine` lists their games."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402

PICK = r"Choose one of your amazons \(-1 to resign\) >> $"


def main():
    a = harness.args()
    chk = harness.Checks()
    with harness.Server(a.build) as srv:
        with client_lib.clients(a.build, srv.port, "ana", "bob") as (ta, tb):
            client_lib.logged_in(chk, (ta, tb))
            client_lib.seated(chk, ta, tb, "create amazons", "room r1")
            chk.ok(ta.prompt(PICK), "ana to move")
            chk.ok(tb.say("create solitaire", r"room r2"), "bob elsewhere")
            chk.ok(tb.say("leave", r"You left room r2"), "and in the lobby")
            chk.ok(tb.prompt(r"^tablero> $"), "bob's lobby prompt")
            ta.line("d1")
            ta.line("d5")
            ta.line("d3")
            chk.ok(tb.wait(r"^Your move in r1 \(Amazons, against ana\): "
                           r"back to it\.$"), "bob is told:\n" + tb.screen())
            chk.ok(tb.prompt(PICK), "and taken back to r1")
            chk.ok(ta.say("create solitaire", r"room r3"), "ana elsewhere")
            tb.line("d10")
            tb.line("d7")
            tb.line("d6")
            chk.ok(ta.wait(r"^Your move in r1 \(Amazons, against bob\): type "
                           r"join r1 to go back\.$"), "ana is told the way "
                   "back:\n" + ta.screen())
            chk.ok(ta.prompt(r"^\(your move in r1\) "),
                   "her prompt shows r1 waits")
            chk.ok(ta.say("mine", r"^  r1  Amazons, white against bob: your "
                          r"move \(join r1\)$"), "mine lists it")
            chk.ok(ta.say("join r1", PICK) or ta.prompt(PICK),
                   "ana goes back to her move")
            chk.ok(ta.prompt(r"^Choose"), "no reminder for the room shown:\n" + ta.screen())
            chk.ok(ta.say("state", r"^Moves \(2\): 1\. d1-d5/d3 2\. "
                          r"d10-d7/d6$"), "state lists the moves so far")
    chk.done()


if __name__ == "__main__":
    main()
