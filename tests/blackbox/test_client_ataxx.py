"""test_client_ataxx.py: a tablero client in tmux plays a whole Ataxx game
on 5x5 against a level-1 bot: its prompt, the seed's move sentences for
both sides (the bot's too), a refused move said as a sentence, the final
counts and the play-again question."""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402

PROMPT = r"White player \(x\), a square to clone to \(b6\) or a jump " \
    r"\(a7c5\): "
END = r"^Game over \("

# A 5x5 game has at most a few dozen turns (each clone fills a square).
MAX_TURNS = 80


def last_moves(t):
    """The moves of the last `moves` reply on the screen."""
    found = re.findall(r"^Moves: (.*)$", t.screen(), re.M)
    return found[-1].split(", ") if found else []


def main():
    a = harness.args()
    chk = harness.Checks()
    with harness.Server(a.build) as srv:
        t = client_lib.client(a.build, srv.port, "ana")
        try:
            chk.ok(t.wait(r"Welcome, ana\."), "logged in")
            chk.ok(t.say("create ataxx size=5 bot=1", PROMPT),
                   "the first prompt")
            chk.ok(t.say("a1", r"^Destination a1 is occupied by black\.$"),
                   "an illegal move is a sentence")
            turns = 0
            while t.count(END) == 0 and turns < MAX_TURNS:
                turns += 1
                n = t.count(r"^Moves: ")
                t.line("moves")
                if not t.wait(r"^Moves: ", n + 1):
                    break
                moves = last_moves(t)
                if not chk.ok(moves, "moves listed"):
                    break
                n = t.count(PROMPT)
                t.line(moves[0])
                t.wait(PROMPT + "|" + END, n + 1)
            chk.ok(t.wait(END), "the game ended within %d turns" % MAX_TURNS)
            chk.ok(t.wait(r"^White player (clones at|moves from) "),
                   "our moves in the seed's words")
            chk.ok(t.wait(r"^Black player (clones at|moves from) "),
                   "the bot's moves in the seed's words")
            chk.ok(t.wait(r"^White pieces: \d+\. Black pieces: \d+\.$"),
                   "the final counts")
            chk.ok(t.wait(r"Do you want to play again\? \(y/n\): $"),
                   "the play-again question")
            if os.environ.get("TABLERO_SHOW_SCREENS"):
                print(t.screen())
            chk.ok(t.say("y", r"The game starts"), "a rematch starts")
        finally:
            t.stop()
    chk.done()


if __name__ == "__main__":
    main()
