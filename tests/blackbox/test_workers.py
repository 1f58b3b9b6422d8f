"""test_workers.py: bot moves and hints search on a pool of threads
(--workers), where bots go first and hints never hold every thread. A long
hint (a hard generated solitaire board that runs out its --hint-nodes)
must not stop a bot from answering elsewhere: with two threads the bot
answers three moves while the hint still runs; with one thread (the old
single worker) the bot waits for the hint, which shows the check can fail.
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import WAIT, Checks, Server, args, is_ok, login  # noqa: E402

# A generated board on which 4 million nodes end "unknown": the hint uses
# its whole budget, about a second (several under AddressSanitizer).
HARD = {"steps": 60, "rows": 10, "cols": 10, "seed": 4}
HINT_NODES = "4000000"
# Bounded wait for that hint, however slow the build.
HINT_WAIT = 120.0
# Moves White plays against a level-1 bot, each answered by the bot.
EXCHANGES = 3


def bot_answers(chk, c, room):
    """Play White's first legal move and wait for the bot's reply move;
    whether it came."""
    moves = c.call("moves", room=room).get("moves") or ["none"]
    is_ok(chk, c.call("move", room=room, move=moves[0]), "move")
    deadline = time.time() + WAIT
    while time.time() < deadline:
        ev = c.event("moved", timeout=max(0.01, deadline - time.time()))
        if ev is None:
            return False
        if ev.get("seat") == "black":
            return True
    return False


def reply_within(c, timeout):
    """The reply that arrives on c within timeout seconds, or None."""
    try:
        return c.reply(timeout=timeout)
    except TimeoutError:
        return None


def run(chk, build, workers):
    tag = "workers=%d" % workers
    extra = ["--workers", str(workers), "--hint-nodes", HINT_NODES]
    with Server(build, extra=extra) as srv:
        a = login(srv.port, "hinter")
        r = a.call("create", game="solitaire", options=HARD)
        is_ok(chk, r, "%s: a hard generated board" % tag)
        a.drain()
        b = login(srv.port, "player")
        r = b.call("create", game="ataxx", options={"size": 5},
                   bots={"black": 1})
        is_ok(chk, r, "%s: ataxx against a bot" % tag)
        rb = r["room"]
        b.drain()

        a.send("hint")
        time.sleep(0.1)  # let a thread take the hint first
        answered = [bot_answers(chk, b, rb) for _ in range(EXCHANGES)]
        chk.eq(answered, [True] * EXCHANGES,
               "%s: the bot answers every move" % tag)
        rep = reply_within(a, 0 if workers > 1 else 0.5)
        if workers > 1:
            chk.ok(rep is None, "%s: the bot answered %d moves while the "
                   "hint ran: %r" % (tag, EXCHANGES, rep))
        else:
            chk.ok(rep is not None, "%s: one thread: the bot waited for "
                   "the hint" % tag)
        if rep is None:
            rep = a.reply(timeout=HINT_WAIT)
        chk.eq(rep and rep.get("verdict"), "unknown",
               "%s: the hint used its budget" % tag)
        chk.ok(srv.proc.poll() is None, "%s: server still running" % tag)
        chk.eq(srv.stop(), 0, "%s: server exits 0 on SIGTERM" % tag)
        a.close()
        b.close()


def main():
    a = args()
    chk = Checks()
    for workers in (2, 1):
        try:
            run(chk, a.build, workers)
        except Exception as e:  # a crash in one run is one failure
            chk.ok(False, "workers=%d raised %r" % (workers, e))
    chk.done()


if __name__ == "__main__":
    main()
