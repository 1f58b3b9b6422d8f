"""test_client_ataxx.py: a tablero client in tmux plays a whole Ataxx game
on 5x5 against a level-1 bot, on a clock: the start (whose turn and the
clocks said once, by the board), its prompt with the clocks, the seed's
move sentences for both sides (the bot's too), a refused move said
as a sentence, the final counts and the play-again question. The end
names the winner (or the draw), the reason and the counts the server
gives for the game (asked by a third connection), on both screens. A
second client watches: the same boards and sentences, no prompts."""

import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402

# the examples are moves legal now (issue 21, item 7: a1c3 started in
# the opponent's corner)
PROMPT = r"White player \(x\), a square to clone to \([a-i]\d\) or a jump " \
    r"\(([a-i]\d)[a-i]\d\): "
END = r"^Game over \("

# A 5x5 game has at most a few dozen turns (each clone fills a square).
MAX_TURNS = 80


def last_moves(t):
    """The moves of the last `moves` reply on the screen."""
    found = re.findall(r"^Moves: (.*)$", t.screen(), re.M)
    return found[-1].split(", ") if found else []


def said_end(port, room):
    """The lines the client must show at the end of room's game, from
    the server's own result (state, asked as another player would): the
    winner's side (or the draw) with the reason, then the counts."""
    c = harness.login(port, "judge")
    try:
        res = (c.call("state", room=room).get("state") or {}).get("result")
    finally:
        c.close()
    res = res or {}
    scores = res.get("scores") or {}
    if res.get("result") == "win":
        head = "Game over (%s): %s player wins!" % (
            res.get("reason"), str(res.get("winner")).capitalize())
    else:
        head = "Game over (%s): a draw." % res.get("reason")
    counts = "White pieces: %s. Black pieces: %s." % (
        scores.get("white"), scores.get("black"))
    return res, r"^%s\n%s$" % (re.escape(head), re.escape(counts))


def gone(port, names):
    """Wait until none of names is online any more; True, or False after
    harness.WAIT."""
    c = harness.login(port, "observer")
    deadline = time.time() + harness.WAIT
    try:
        while time.time() < deadline:
            rep = c.call("who")
            online = [p["name"] for p in rep.get("players", [])]
            if not any(n in online for n in names):
                return True
            time.sleep(0.05)
        return False
    finally:
        c.close()


def main():
    a = harness.args()
    chk = harness.Checks()
    with harness.Server(a.build) as srv:
        with client_lib.clients(a.build, srv.port, "ana", "wes") as (t, w):
            chk.ok(t.wait(r"Welcome, ana\."), "logged in")
            chk.ok(t.say("create ataxx size=5 bot=1 time=600 inc=5", PROMPT),
                   "the first prompt")
            chk.ok(t.prompt(r"^\[white \d+:\d\d, black 10:00\] " + PROMPT),
                   "the clocks in the prompt")
            src = re.findall(PROMPT, t.screen())
            chk.ok(src and src[0] in ("a5", "e1"), "the jump example starts "
                   "from a white piece: %r" % (src,))
            # the board says whose turn it is and the clocks follow it:
            # the started event's words above it do not say them again
            chk.eq(t.count(r"^white to move\.$"), 0,
                   "no turn line above a board that says it")
            chk.eq(t.count(r"^white to move$"), 1, "the board's turn line")
            chk.eq(t.count(r"^Clocks: "), 1, "the clocks once")
            chk.ok(w.wait(r"Welcome, wes\."), "the watcher logged in")
            chk.ok(w.say("watch r1", r"^You are watching room r1 \(Ataxx\)"),
                   "watching r1")
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
            res, end = said_end(srv.port, "r1")
            chk.ok(res.get("result") in ("win", "draw"),
                   "the server has the game's result: %r" % (res,))
            chk.ok(t.wait(end), "ana reads the server's result %r:\n%s"
                   % (res, t.screen()))
            chk.ok(w.wait(end), "the watcher reads it too:\n" + w.screen())
            if os.environ.get("TABLERO_SHOW_SCREENS"):
                print(t.screen())
            chk.ok(w.wait(r"^White pieces: \d+\. Black pieces: \d+\.$"),
                   "the watcher sees the end")
            chk.ok(w.count(r"^White player (clones at|moves from) ") ==
                   t.count(r"^White player (clones at|moves from) "),
                   "the watcher sees every move")
            chk.eq(w.count(r"a square to clone to|play again"), 0,
                   "the watcher gets no prompt")
            chk.ok(t.say("y", r"The game starts"), "a rematch starts")
        chk.ok(gone(srv.port, ["ana", "wes"]),
               "a client whose terminal is gone goes away")
    chk.done()


if __name__ == "__main__":
    main()
