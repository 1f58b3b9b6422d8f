"""test_client_words.py: the client's sentences that sent people the
wrong way (issue 21, item 7): a spectator typing a move is told they are
watching; hello and mode typed in the client get the client's answer,
not a field error or "Output is text now"; a player waiting at the
play-again question is told when the other one left; Stones says who
starts before the board, as the seed, and a resignation's winner; a solitaire undo says what
happened; a clock past an hour reads h:mm:ss as in text mode."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402


def main():
    a = harness.args()
    chk = harness.Checks()
    with harness.Server(a.build) as srv:
        with client_lib.clients(a.build, srv.port, "ana", "bob",
                                "cat") as (ta, tb, tc):
            client_lib.logged_in(chk, (ta, tb, tc), "all logged in")
            chk.ok(ta.say("hello", r"^You are logged in already "
                          r"\(as ana\)\.$"), "hello in the client")
            chk.ok(ta.say("mode json", r"^The mode is for telnet"),
                   "mode in the client")
            chk.eq(ta.count(r"Output is text now"), 0, "no telnet answer")
            chk.ok(ta.say("create stones first=1", r"Waiting"), "stones")
            chk.ok(tb.say("join r1", r"seat player 2"), "bob joined")
            chk.ok(ta.wait(r"peg no\. 1\. Enter the board position"),
                   "ana to place")
            scr = ta.screen()
            chk.ok(0 <= scr.find("starts first.") < scr.rfind("  1   2   3"),
                   "who starts is said before the board:\n" + scr)
            chk.ok(tc.say("watch r1", r"You are watching room r1"),
                   "cat watches")
            chk.ok(tc.say("b2", r"^You are watching room r1: only its "
                          r"players move\."), "a spectator's move")
            chk.eq(tc.count(r"Unknown command 'b2'"), 0, "not 'unknown'")
            ta.line("resign")
            # ana (player 1) resigned: player 2 won, on both screens
            for t in (ta, tb):
                chk.ok(t.wait(r"^Player 2 wins! \(resignation\)$"),
                       "%s reads that bob (player 2) won:\n%s"
                       % (t.name, t.screen()))
            chk.ok(tb.wait(r"Type 'Y' or 'y' to play again: $"),
                   "bob is asked to play again")
            chk.ok(ta.wait(r"Type 'Y' or 'y' to play again: $"),
                   "ana is asked to play again")
            ta.line("n")
            ta.line("leave")
            chk.ok(tb.wait(r"^No rematch then\."), "bob is told ana left")
            chk.ok(tb.prompt(r"^\[r1\] > $"), "and no longer asked")
            chk.ok(tc.say("leave", r"You left room r1"), "cat leaves")
            chk.ok(tc.say("create solitaire", r"Peg solitaire"),
                   "a solitaire game")
            tc.line("4 2")
            chk.ok(tc.wait(r"pegs left"), "a jump")
            chk.ok(tc.say("undo", r"Move taken back\."), "undo says so")
            # a lost level answered n, then r after all (issue 21, item 7)
            tc.line("leave")
            pos = ("1 ......../C......./..C...../......../......../......../"
                   "......../.......C a7")
            chk.ok(tc.say('create shifter position="%s"' % pos,
                          r"Level 1: the square"), "a level to lose")
            chk.ok(tc.say("c6", r"the level is lost"), "lost")
            chk.ok(tc.say("n", r"^Type r to play it again, leave to go back"),
                   "n says r plays it again")
            n = tc.count(r"level 1: 3 pieces left$")
            chk.ok(tc.say("r", r"level 1: 3 pieces left$") and
                   tc.count(r"level 1: 3 pieces left$") > n,
                   "r after n retries the level:\n" + tc.screen())
            chk.eq(tc.count(r"Unknown command 'r'"), 0, "r is no unknown")
            # one clock format: the server's h:mm:ss past an hour
            ta.line("create ataxx bot=1 time=4000")
            chk.ok(ta.prompt(r"^\[white 1:06:\d\d, black 1:06:40\] "),
                   "a clock past an hour reads h:mm:ss:\n" + ta.screen())
    chk.done()


if __name__ == "__main__":
    main()
