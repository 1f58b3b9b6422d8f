"""test_client_amazons_steps.py: the Amazons prompt on an 80x24 terminal
(issue 21, item 4): the board is drawn again at each step of a move with
the chosen amazon in brackets and the squares it (then its arrow) can
reach marked +; a compact board keeps the column letters and the prompt
on the screen together; `back` or an empty line undoes the last choice;
`moves SQUARE` is a few lines, not one per move."""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402

PICK = r"Choose one of your amazons \(-1 to resign\) >> $"
DEST = r"to which square do you want to move your amazon\? " \
    r"\(-1 to resign\) >> $"
ARROW = r"to which square do you want to shoot your arrow\? " \
    r"\(-1 to resign\) >> $"
FILES = r"^ +a  b  c  d  e  f  g  h  i  j$"


def visible(t):
    """What the 24 rows show now (no scrollback)."""
    return t.tmux("capture-pane", "-p", "-t", "main")


def row(t, rank):
    """The last drawn compact row of rank (its cells as shown)."""
    rows = re.findall(r"^ *%d  (.*) %d$" % (rank, rank), t.screen(), re.M)
    return rows[-1] if rows else ""


def main():
    a = harness.args()
    chk = harness.Checks()
    with harness.Server(a.build) as srv:
        with client_lib.clients(a.build, srv.port, "ana", "bob", width=80,
                                height=24) as (ta, tb):
            client_lib.logged_in(chk, (ta, tb))
            client_lib.seated(chk, ta, tb, "create amazons")
            chk.ok(ta.prompt(PICK), "ana asked for an amazon")
            scr = visible(ta)
            chk.ok(re.search(FILES, scr, re.M), "the column letters fit "
                   "in 80x24 with the prompt:\n" + scr)
            chk.ok(ta.say("d1", r"back or an empty line chooses another"),
                   "d1 chosen")
            chk.ok(ta.prompt(DEST), "the destination is asked")
            chk.eq(row(ta, 1), "+  +  + [0] +  +  0  .  .  . ",
                   "rank 1 drawn again: d1 chosen, its squares marked")
            chk.ok(re.search(FILES, visible(ta), re.M),
                   "the letters still show at the destination step")
            chk.ok(ta.say("back", r"^Choose another amazon\.$"),
                   "back undoes the amazon")
            chk.ok(ta.prompt(PICK), "the amazon is asked again")
            ta.line("g1")
            chk.ok(ta.prompt(DEST), "g1 chosen")
            chk.ok(ta.say("g4", r"marks the arrow's squares"), "g4 chosen")
            chk.ok(ta.prompt(ARROW), "the arrow is asked")
            chk.eq(row(ta, 4), "0  +  +  +  +  + [0] +  +  0 ",
                   "rank 4: the amazon drawn on g4, its arrows marked")
            chk.ok(ta.say("", r"^The amazon on g1 is yours to move again\.$"),
                   "an empty line undoes the destination")
            chk.ok(ta.prompt(DEST), "the destination is asked again")
            ta.line("g5")
            chk.ok(ta.prompt(ARROW), "g5 chosen")
            chk.ok(ta.say("g8", r"^Valid shot\.$"), "arrow g8")
            chk.ok(tb.wait(r"^ana: white moves g1 to g5 and shoots g8\.$"),
                   "bob sees the move the undos led to")
            chk.ok(tb.prompt(PICK), "bob to move")
            n = len(tb.screen().split("\n"))
            chk.ok(tb.say("moves d10", r"moves in all"), "moves d10")
            lines = tb.screen().split("\n")[n:]
            chk.ok(len(lines) <= 8, "moves d10 takes %d lines (at most 8):"
                   "\n%s" % (len(lines), "\n".join(lines)))
            chk.ok(tb.wait(r"d10 goes to d2 \(\d+\)"), "grouped by square")
    chk.done()


if __name__ == "__main__":
    main()
