"""test_client_mark.py: the last move's highlight marks board cells only
(issue 21, item 10): never a character of a text line under the board,
like the 2 of "black (player 2) to move" in Amazons or the count of
Ataxx's "x white 3, o black 2". Two colour terminals play a move of
each game; every marked line on the mover's opponent's screen must be a
board line (no word in it), and the board must show a mark. Ana then
resigns: both read bob's side named the winner."""

import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402

# The attribute view.c marks a changed cell with (bold, reverse).
MARK = "\x1b[1;7m"
SGR = re.compile(r"\x1b\[[0-9;]*m")
# A word: two letters in a row (board lines have single letters only).
WORD = re.compile(r"[A-Za-z]{2}")


def marked_lines(t):
    """The lines of the pane that hold a mark, without their SGRs."""
    screen = t.tmux("capture-pane", "-p", "-e", "-J", "-S", "-50000",
                    "-t", "main")
    return [SGR.sub("", l) for l in screen.split("\n") if MARK in l]


def play(chk, ta, tb, game, moves, said, won):
    """ana creates game, bob joins, ana plays moves (lines); bob's marks
    are checked once he has read said; ana resigns and both read won
    (a pattern naming bob's side the winner)."""
    client_lib.seated(chk, ta, tb, "create " + game, game + ": room made",
                      "r%d" % play.room, joined=game + ": joined")
    play.room += 1
    for m in moves:
        ta.line(m)
    chk.ok(tb.wait(said), game + ": bob saw the move:\n" + tb.screen())
    time.sleep(0.3)
    lines = marked_lines(tb)
    chk.ok(lines, game + ": the board shows a mark")
    for l in lines:
        chk.ok(not WORD.search(l), "%s: a text line is marked: %r"
               % (game, l))
    ta.line("resign")
    for t in (ta, tb):
        chk.ok(t.wait(won), "%s: %s reads that bob won:\n%s"
               % (game, t.name, t.screen()))
    tb.line("n")
    ta.line("n")
    ta.line("leave")
    tb.line("leave")


play.room = 1


def main():
    a = harness.args()
    chk = harness.Checks()
    colour = {"NO_COLOR": "", "TERM": "xterm"}
    with harness.Server(a.build) as srv:
        with client_lib.clients(a.build, srv.port, "ana", "bob",
                                env=colour) as (ta, tb):
            client_lib.logged_in(chk, (ta, tb))
            play(chk, ta, tb, "amazons", ["d1", "d5", "d3"],
                 r"ana: white moves d1 to d5 and shoots d3",
                 r"^Game over \(resignation\)! The winner is black "
                 r"\(bob\)\.$")
            play(chk, ta, tb, "ataxx", ["b6"], r"clones at b6",
                 r"^Game over \(resignation\): Black player wins!$")
    chk.done()


if __name__ == "__main__":
    main()
