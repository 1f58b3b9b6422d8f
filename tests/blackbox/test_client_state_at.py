"""test_client_state_at.py: the terminal client's boards for `state ROOM
at=N` and for going back to a game (issue 31).

- `state at=N` draws the position after the game's first N moves under a
  line that says which ("Room r1 (Ataxx) after move 2 of 3:", "at its
  start"), and only shows it: the room on the screen keeps its own
  position and turn, so the prompt does not ask for a move that is not
  ours, and the game goes on from the real position.
- `join` back to a game we sit in that has no move yet draws its board
  (the other game's board stayed on the screen), while a join that
  starts a game draws the board once, with the started event."""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402

WHITE = r"White player \(x\), a square to clone to "
CLONED = r"^(White|Black) player clones at "
FILES = r"^   a b c d e$"
# the 5x5 start, and the boards after 2 and 3 moves (b5 b1 b4)
START = "\n".join([" 5 x . . . o", " 4 . . . . .", " 3 . . . . .",
                   " 2 . . . . .", " 1 o . . . x"])
AFTER2 = "\n".join([" 5 x x . . o", " 4 . . . . .", " 3 . . . . .",
                    " 2 . . . . .", " 1 o o . . x"])
AFTER3 = "\n".join([" 5 x x . . o", " 4 . x . . .", " 3 . . . . .",
                    " 2 . . . . .", " 1 o o . . x"])


def after(screen, marker):
    """What the screen shows after the last line matching marker."""
    found = list(re.finditer(marker, screen, re.M))
    return screen[found[-1].end():] if found else ""


def board_after(screen, marker):
    """The first board (the five rows under the files line) after the
    last line matching marker, or ""."""
    rest = after(screen, marker)
    m = re.search(FILES + r"\n((?:.*\n){5})", rest, re.M)
    return m.group(1).rstrip("\n") if m else ""


def server_board(port, room):
    """The rows of room's board in the server's own picture, as a third
    player reads it."""
    c = harness.login(port, "judge")
    try:
        pic = (c.call("state", room=room).get("state") or {}).get(
            "picture") or ""
    finally:
        c.close()
    return "\n".join(l for l in pic.split("\n") if re.match(r" \d ", l))


def play(chk, ta, moves):
    """Each (term, move) in turn, each waited for on ta's screen."""
    for t, move in moves:
        n = ta.count(CLONED)
        t.line(move)
        chk.ok(ta.wait(CLONED, n + 1), "%s played %s" % (t.name, move))


def main():
    a = harness.args()
    chk = harness.Checks()
    with harness.Server(a.build) as srv:
        with client_lib.clients(a.build, srv.port, "ana", "bob") as (ta, tb):
            client_lib.logged_in(chk, [ta, tb])
            client_lib.seated(chk, ta, tb, "create ataxx size=5")
            chk.ok(ta.prompt(WHITE), "ana to move")
            play(chk, ta, ((ta, "b5"), (tb, "b1"), (ta, "b4")))
            chk.ok(tb.wait(r"^White player clones at b4\.$"),
                   "bob saw b4")
            # a past position, while it is bob's move
            chk.ok(ta.say("state at=2",
                          r"^Room r1 \(Ataxx\) after move 2 of 3:$"),
                   "the position after move 2 is said to be that")
            chk.ok(ta.wait(r"^Room r1 \(Ataxx\) after move 2 of 3:\n" +
                           FILES + "\n" + re.escape(AFTER2) + "$"),
                   "and drawn:\n" + ta.screen())
            chk.ok(ta.prompt(r"^\[r1\] > $"),
                   "the prompt still waits for bob's move:\n" +
                   ta.screen().rstrip("\n").split("\n")[-1])
            chk.ok(ta.say("state r1 at=0", r"^Room r1 \(Ataxx\) at its "
                          r"start:$"), "the start, asked by room")
            chk.eq(board_after(ta.screen(), r"^Room r1 \(Ataxx\) at its "
                               r"start:$"), START, "the start drawn")
            chk.ok(ta.prompt(r"^\[r1\] > $"), "still bob's move")
            # the game goes on from the real position
            play(chk, ta, ((tb, "d5"),))
            chk.ok(ta.prompt(WHITE), "then ana's move")
            play(chk, ta, ((ta, "c4"),))
            chk.ok(ta.wait(r"^White player clones at c4\.$"),
                   "ana's move played from the real position")

            # a second game that starts and has no move yet
            chk.ok(ta.say("create ataxx size=5", r"Waiting for an "
                          r"opponent: they type join r2\."), "r2 made")
            n = tb.count(FILES)
            chk.ok(tb.say("join r2", r"^You are in room r2 \(Ataxx\), "
                          r"seat black\.$"), "bob joins r2")
            chk.ok(tb.wait(r"^\[r2\] The game starts"), "r2 starts")
            chk.ok(ta.prompt(WHITE), "ana to move in r2")
            chk.ok(tb.wait(FILES, n + 1), "bob's board of r2")
            chk.eq(len(re.findall(FILES, after(tb.screen(), r"^You are in "
                                  r"room r2 "), re.M)), 1,
                   "drawn once, with the started event")
            # ana goes to r1 and back to r2
            chk.ok(ta.say("join r1", r"^You are in room r1 \(Ataxx\), "
                          r"seat white\.$"), "ana back in r1")
            chk.eq(board_after(ta.screen(), r"^You are in room r1 "),
                   server_board(srv.port, "r1"), "r1's board")
            chk.ok(ta.say("join r2", r"^You are in room r2 \(Ataxx\), "
                          r"seat white\.$"), "ana back in r2")
            chk.ok(ta.wait(r"^You are in room r2 \(Ataxx\), seat white\.\n"
                           + FILES + "\n" + re.escape(START) + "$"),
                   "r2's board is drawn again:\n" + ta.screen())
            chk.ok(ta.prompt(WHITE), "ana's move in r2")
    chk.done()


if __name__ == "__main__":
    main()
