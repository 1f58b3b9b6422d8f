"""test_client_amazons_end.py: the end of an Amazons game as both players
read it in tablero (issue 21, item 1): when the side to move is left with
no move, the sentence names that side as the one that cannot move and the
other as the winner (two seat labels in one sentence once came out of one
static buffer, and named the loser twice)."""

import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402

PICK = r"Choose one of your amazons"
# white to move; after i10-i9/h10 black's amazons are all walled in
BOARD = "a1,b1,c1,i10\na10,c10,e10,g10\n" \
    "b10,d10,f10,a9,b9,c9,d9,e9,f9,g9,h9,j9\n1"
END = r"^Sadly black \(bob\) has no possible moves\.\nGame over! The " \
    r"winner is white \(ana\)\.$"


def main():
    a = harness.args()
    chk = harness.Checks()
    tmp = tempfile.mkdtemp(prefix="tablero-amend-")
    path = os.path.join(tmp, "tablero.txt")
    with open(path, "w") as f:
        f.write(BOARD)
    with harness.Server(a.build) as srv:
        with client_lib.clients(a.build, srv.port, "ana", "bob") as (ta, tb):
            client_lib.logged_in(chk, (ta, tb))
            chk.ok(ta.say("load " + path, r"You are in room r1"), "loaded")
            chk.ok(tb.say("join r1", r"seat black"), "bob joined")
            chk.ok(ta.wait(PICK), "ana asked for an amazon")
            ta.line("i10")
            ta.line("i9")
            chk.ok(ta.say("h10", r"^Valid shot\.$"), "ana's last move")
            chk.ok(ta.wait(END), "ana reads that she won:\n" + ta.screen())
            chk.ok(tb.wait(END), "bob reads that ana won:\n" + tb.screen())
    chk.done()


if __name__ == "__main__":
    main()
