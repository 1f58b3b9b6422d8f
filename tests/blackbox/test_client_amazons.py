"""test_client_amazons.py: two tablero clients in tmux play Amazons the
seed's way (amazon, destination, arrow, each checked and re-asked on its
own; a bad arrow re-asks only the arrow), save the game with `save FILE`
(the seed's tablero.txt on the player's machine), load it again with
`load FILE` into a new room, and end it with -1 (resign)."""

import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402

PICK = r"Choose one of your amazons \(-1 to resign\) >> "
DEST = r"Valid amazon, to which square do you want to move your amazon\? " \
    r"\(-1 to resign\) >> "
ARROW = r"Valid move, to which square do you want to shoot your arrow\? " \
    r"\(-1 to resign\) >> "
ARROW_AGAIN = r"To which square do you want to shoot your arrow\? " \
    r"\(-1 to resign\) >> "


def main():
    a = harness.args()
    chk = harness.Checks()
    tmp = tempfile.mkdtemp(prefix="tablero-am-")
    saved = os.path.join(tmp, "tablero.txt")
    again = os.path.join(tmp, "again.txt")
    with harness.Server(a.build) as srv:
        with client_lib.clients(a.build, srv.port, "ana", "bob") as (ta, tb):
            client_lib.logged_in(chk, (ta, tb))
            client_lib.seated(chk, ta, tb, "create amazons")
            chk.ok(ta.wait(PICK), "ana asked for an amazon")
            chk.ok(ta.say("e5", r"^Invalid amazon: e5 is not one of your "
                          r"amazons that can move\.$"), "not an amazon")
            chk.ok(ta.say("d1", DEST), "amazon d1 taken")
            chk.ok(ta.say("e3", r"^Invalid move: the amazon on d1 cannot "
                          r"go to e3"), "a bad destination")
            chk.ok(ta.wait(DEST, 2), "the destination asked again")
            chk.ok(ta.say("d5", ARROW), "destination d5 taken")
            chk.ok(ta.say("e7", r"^Invalid shot: "), "a bad arrow")
            chk.ok(ta.wait(ARROW_AGAIN), "only the arrow is asked again")
            chk.ok(ta.say("d3", r"^Valid shot\.$"), "arrow d3")
            chk.ok(tb.wait(r"^ana: white moves d1 to d5 and shoots d3\.$"),
                   "bob sees the move")
            chk.ok(tb.wait(PICK), "bob asked for an amazon")
            tb.line("d10")
            tb.line("d7")
            chk.ok(tb.say("d6", r"^Valid shot\.$"), "bob's move")
            chk.ok(ta.wait(PICK, 2), "ana's turn again")
            chk.ok(ta.say("save " + saved, r"^Saved to .*tablero\.txt "
                          r"\(tablero\.txt\)\.$"), "saved")
            with open(saved) as f:
                lines = f.read().split("\n")
            chk.eq(sorted(lines[0].split(",")), ["a4", "d5", "g1", "j4"],
                   "white amazons in the file")
            chk.eq(sorted(lines[1].split(",")), ["a7", "d7", "g10", "j7"],
                   "black amazons in the file")
            chk.eq(sorted(lines[2].split(",")), ["d3", "d6"],
                   "arrows in the file")
            chk.eq(lines[3], "1", "white to move in the file")
            chk.ok(ta.say("save /nonexistent-dir/x.txt",
                          r"^Cannot write /nonexistent-dir/x\.txt: No such "
                          r"file or directory\.$"), "a bad path is a sentence")
            chk.ok(ta.say("load " + saved, r"You are in room r2 \(Amazons\), "
                          r"seat white\."), "loaded into room r2")
            chk.ok(ta.say("save " + again, r"^Saved to .*again\.txt"),
                   "saved again")
            with open(again) as f:
                chk.eq(f.read(), "\n".join(lines), "the loaded game is the "
                       "saved one")
            chk.ok(tb.say("join r2", r"seat black"), "bob joins r2")
            chk.ok(ta.wait(PICK, 3), "ana to move in r2")
            if os.environ.get("TABLERO_SHOW_SCREENS"):
                print(ta.screen())
            chk.ok(ta.say("-1", r"^Game over \(resignation\)! The winner is "
                          r"black \(bob\)\.$"), "-1 resigns")
            chk.ok(tb.wait(r"^Game over \(resignation\)! The winner is "
                           r"black \(bob\)\.$"), "bob sees it")
    chk.done()


if __name__ == "__main__":
    main()
