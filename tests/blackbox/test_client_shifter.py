"""test_client_shifter.py: a tablero client in tmux plays Shape Shifter
the seed's way: the start question (load the last saved level, or level
1), captures typed as squares (a hint from the server for each), a won
level and the next one, `r` to retry a level, `save FILE` keeping the
level, and the start question's first answer loading it back."""

import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402

QUESTION = r"Load the last saved level \(1\) or start at level 1 \(2\)\? "
PROMPT = r"Level (\d+): the square of the piece to take \(like e4\), or r " \
    r"to retry the level: "

# Level N has N+2 pieces: N+1 captures win it.
MAX_MOVES = 10


def solve(chk, t, level):
    """Play the level with the server's hints until it is won."""
    for _ in range(MAX_MOVES):
        if t.count(r"^Level %d won!$" % level):
            return True
        n = t.count(r"^Hint: ")
        t.line("hint")
        if not t.wait(r"^Hint: ", n + 1):
            return False
        move = re.findall(r"^Hint: (\w+)", t.screen(), re.M)[-1]
        n = t.count(PROMPT)
        t.line(move)
        t.wait(PROMPT + r"|^Level %d won!$" % level, n + 1)
    return t.count(r"^Level %d won!$" % level) > 0


def main():
    a = harness.args()
    chk = harness.Checks()
    saved = os.path.join(tempfile.mkdtemp(prefix="tablero-sh-"), "lvl.txt")
    with harness.Server(a.build) as srv:
        with client_lib.clients(a.build, srv.port, "ana") as (t,):
            client_lib.logged_in(chk, (t,), "logged in")
            t.line("create shifter")
            chk.ok(t.prompt(QUESTION + "$"), "the seed's start question")
            chk.ok(t.say("3", r"^Answer 1 or 2\.$"), "a bad answer")
            chk.ok(t.prompt(QUESTION + "$"), "asked again")
            chk.ok(t.say("2", r"Level 1: the square"), "level 1 begins")
            chk.ok(t.wait(r"^\[ \] active: the \w+ on [a-h][1-8]; \( \) it "
                          r"can take: "), "the active piece and its "
                          "captures are marked")
            chk.ok(t.say("a9", r"^[A-Z].*\.$"), "a bad square is a sentence")
            chk.ok(solve(chk, t, 1), "level 1 solved with hints")
            # the server goes on to the next level by itself (issue 13)
            chk.ok(t.wait(r"Level 2: the square"), "level 2 begins")
            chk.eq(t.count(r"Go on\? \(y/n\)"), 0,
                   "a won level asks nothing: the next one just begins")
            n = t.count(r"^Shape Shifter Chess, level 2: 4 pieces left$")
            hint = t.count(r"^Hint: ")
            t.line("hint")
            chk.ok(t.wait(r"^Hint: ", hint + 1), "level 2's hint comes")
            move = re.findall(r"^Hint: (\w+)", t.screen(), re.M)[-1]
            chk.ok(t.say(move, r"level 2: 3 pieces left"),
                   "one capture (%s):\n%s" %
                   (move, "\n".join(t.screen().splitlines()[-30:])))
            chk.ok(t.say("r", r"^Shape Shifter Chess, level 2: 4 pieces "
                          r"left$"), "r retries the level")
            chk.ok(t.count(r"^Shape Shifter Chess, level 2: 4 pieces "
                           r"left$") > n, "back to four pieces")
            chk.ok(t.say("save " + saved, r"^Saved to .*lvl\.txt \(level "
                         r"file\)\.$"), "the level saved")
            with open(saved) as f:
                level = f.read()
            chk.ok(level.startswith("shifter level 2\n"), "a level file")
            chk.ok(t.say("leave", r"^You left room r1\.$"), "left")
            t.line("create shifter")
            chk.ok(t.prompt(QUESTION + "$"), "the start question again")
            n = t.count(r"Level 2: the square")
            chk.ok(t.say("1", r"^Loading the last saved level\.$"),
                   "the last saved level is offered")
            chk.ok(t.wait(r"Level 2: the square", n + 1), "level 2 is back")
            chk.ok(t.say("save " + saved + ".2", r"^Saved to "),
                   "saved again")
            with open(saved + ".2") as f:
                chk.eq(f.read(), level, "the same level")
            if os.environ.get("TABLERO_SHOW_SCREENS"):
                print(t.screen())
    chk.done()


if __name__ == "__main__":
    main()
