"""test_client_stones.py: two tablero clients in tmux play the seed's whole
Stones game against a real tablerod: the seed's dialogue, its error
sentences on screen word for word, the winner and the play-again question
(answered yes by both: a rematch starts)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402

# The seed's transcript: (who types, what, what must show next on whose
# screen).
PLAY = [
    ("a", "A2", "a", r"Player 1 peg no\. 2\. Enter the board position"),
    ("a", "C1", "a", r"Player 1 peg no\. 3\. Enter the board position"),
    ("a", "B3", "b", r"Player 2 peg no\. 1\. Enter the board position to "
                     r"put your peg: $"),
    ("b", "C1", "b", r"^Position taken by another peg\. Please re-enter\.$"),
    ("b", "0", "b", r"^Invalid position\. Not a board position\. Please "
                    r"re-enter\.$"),
    ("b", "B2", "b", r"Player 2 peg no\. 2\. Enter the board position"),
    ("b", "C3", "b", r"Player 2 peg no\. 3\. Enter the board position"),
    ("b", "A1", "b", r"^Invalid position\. Cannot complete 3-in-a-row at "
                     r"this stage\.$"),
    ("b", "A3", "a", r"Player 1 enter your move: $"),
    ("a", "C1A1", "a", r"^Invalid move\. Destination position is not "
                       r"connected to origin position\. Please re-enter "
                       r"move\.$"),
    ("a", "B1A1", "a", r"^Invalid move\. Origin is not occupied by "
                       r"player's 1 peg$"),
    ("a", "C1B2", "a", r"^Invalid move\. Destination position is not "
                       r"empty\. Please re-enter move\.$"),
    ("a", "SDKJGJSDF", "a", r"^Invalid move\. Enter origin and destination "
                            r"positions in 4 characters, e\.g\., A2B1$"),
    ("a", "C1C2", "b", r"Player 2 enter your move: $"),
    ("b", "B2B1", "a", r"Player 1 enter your move: $"),
    ("a", "C3C2", "a", r"^Invalid move\. Origin is not occupied by "
                       r"player's 1 peg$"),
    ("a", "B3B2", "b", r"^Player 1 wins!$"),
]


def main():
    a = harness.args()
    chk = harness.Checks()
    with harness.Server(a.build) as srv:
        with client_lib.clients(a.build, srv.port, "ana", "bob") as (ta, tb):
            terms = {"a": ta, "b": tb}
            chk.ok(ta.wait(r"Welcome, ana\."), "ana logged in")
            chk.ok(tb.wait(r"Welcome, bob\."), "bob logged in")
            chk.ok(ta.say("create stones first=1", r"Waiting for an "
                          r"opponent: they type join r1\."), "room r1 made")
            chk.ok(tb.say("join r1", r"seat player 2"), "bob joined")
            chk.ok(ta.wait(r"^Player 1 starts first\.$"),
                   "the draw is said")
            chk.ok(ta.wait(r"Player 1 peg no\. 1\. Enter the board position "
                           r"to put your peg: $"), "ana asked for peg 1")
            for who, text, where, want in PLAY:
                t = terms[where]
                n = t.count(want)
                terms[who].line(text)
                chk.ok(t.wait(want, n + 1),
                       "%s types %s: %s shows %r" % (who, text, where, want))
            chk.ok(ta.wait(r"^Player 1 wins!$"), "ana sees she won")
            chk.ok(ta.wait(r"^B o---x---"), "the winning row on the board")
            chk.ok(ta.wait(r"Type 'Y' or 'y' to play again: $"),
                   "the play-again question")
            chk.ok(tb.wait(r"Type 'Y' or 'y' to play again: $"),
                   "the play-again question (bob)")
            if os.environ.get("TABLERO_SHOW_SCREENS"):
                print(ta.screen())
                print(tb.screen())
            tb.line("y")
            ta.line("Y")
            chk.ok(ta.wait(r"starts first\.$", 2), "the rematch starts")
            chk.ok(tb.wait(r"peg no\. 1\. Enter the board position", 2)
                   or ta.wait(r"peg no\. 1\. Enter the board position", 2),
                   "the first placement is asked again")
            # in a running game both ask first (issue 21, item 3)
            chk.ok(ta.say("quit", r"Quit tablero anyway\? \(y/n\) $") or
                   ta.prompt(r"Quit tablero anyway"), "quit asks")
            ta.line("y")
            chk.ok(tb.say("exit", r"If you quit"), "exit asks")
            tb.line("y")
            chk.ok(ta.wait(r"\[exit 0\]$"), "quit: exit code 0")
            chk.ok(tb.wait(r"\[exit 0\]$"), "exit: exit code 0")
    chk.done()


if __name__ == "__main__":
    main()
