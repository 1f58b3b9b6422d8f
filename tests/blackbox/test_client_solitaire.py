"""test_client_solitaire.py: a tablero client in tmux loads a solitaire
board from a local file (`load FILE`) and plays it to its end (asking the
server for a hint before each move): a peg with one jump jumps at once, a
peg with several gets the seed's numbered list; the end says the player
won; a file that cannot be read is a sentence."""

import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402

PROMPT = r"Choose a peg to move \(row column\): "
CHOICE = r"Choose a direction \(1-(\d)\): "
WON = r"^You won: one peg left, on the goal!$"

# The seed's example board has 13 pegs: 12 jumps win it.
MAX_MOVES = 20

# One row ". o o o .": the middle peg can jump left or right.
TWO_WAYS = "1 5\n1 2 2 2 1\n0 0\n"


def play_hint(chk, t):
    """Ask for a hint and play it through the prompts; False when stuck."""
    n = t.count(r"^Hint: ")
    t.line("hint")
    if not t.wait(r"^Hint: ", n + 1):
        return False
    hints = re.findall(r"^Hint: (\d+),(\d+) (\w+)", t.screen(), re.M)
    if not hints:
        return False
    row, col, way = hints[-1]
    n = t.count(r"That peg can jump several ways: ")
    p = t.count(PROMPT)
    t.line("%s %s" % (row, col))
    t.wait(PROMPT + "|" + WON + "|That peg can jump several ways: ", p + 1)
    if t.count(r"That peg can jump several ways: ") > n:
        lists = re.findall(r"^That peg can jump several ways: (.*)$",
                           t.screen(), re.M)
        ways = re.findall(r"(\d)\) (\w+)", lists[-1])
        pick = [k for k, w in ways if w == way]
        if not chk.ok(pick, "the hint's direction %s is offered" % way):
            return False
        p = t.count(PROMPT)
        t.line(pick[0])
        t.wait(PROMPT + "|" + WON, p + 1)
    return True


def main():
    a = harness.args()
    chk = harness.Checks()
    board = os.path.abspath("data/solitaire/example.txt")
    tmp = tempfile.mkdtemp(prefix="tablero-sol-")
    two = os.path.join(tmp, "two.txt")
    with open(two, "w") as f:
        f.write(TWO_WAYS)
    with harness.Server(a.build) as srv:
        with client_lib.clients(a.build, srv.port, "ana") as (t,):
            client_lib.logged_in(chk, (t,), "logged in")
            chk.ok(t.say("load %s/nothing.txt" % tmp,
                         r"^Cannot read .*nothing\.txt: No such file or "
                         r"directory\.$"), "a missing file is a sentence")
            chk.ok(t.say("load " + two, PROMPT), "a board file loaded")
            chk.ok(t.say("1 3", r"^That peg can jump several ways: 1\) "
                         r"left  2\) right$"), "two jumps are offered")
            chk.ok(t.say("3", r"^Choose a number from 1 to 2\.$"),
                   "a bad choice is re-asked")
            chk.ok(t.say("1", r"^You lost \(no move left\): 2 pegs left\.$"),
                   "the first choice played: blocked")
            chk.ok(t.wait(r"Play again\? \(y/n\): $"), "play again asked")
            chk.ok(t.say("n", r"^Type leave to go back to the lobby"),
                   "no more")
            chk.ok(t.say("leave", r"^You left room r1\.$"), "left r1")
            chk.ok(t.say("load " + board, PROMPT), "the seed's board")
            chk.ok(t.say("1 1", r"^There is no peg at 1,1 that can jump: "
                         r"choose another\.$"), "a cell with no peg")
            moves = 0
            while t.count(WON) == 0 and moves < MAX_MOVES:
                moves += 1
                if not play_hint(chk, t):
                    break
            chk.ok(t.wait(WON), "the board is solved")
            chk.ok(t.wait(r"Play again\? \(y/n\): ", 2), "play again asked")
            if os.environ.get("TABLERO_SHOW_SCREENS"):
                print(t.screen())
            t.line("quit")
            chk.ok(t.wait(r"\[exit 0\]$"), "quit: exit code 0")
    chk.done()


if __name__ == "__main__":
    main()
