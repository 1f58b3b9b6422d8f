"""test_workers.py: bot moves and hints search on a pool of threads
(--workers), where bots go first and hints never hold every thread. A long
hint (a hard generated solitaire board that runs out its --hint-nodes)
must not stop a bot from answering elsewhere: with two threads the bot
answers three moves while the hint still runs; with one thread (the old
single worker) the bot waits for the hint, which shows the check can fail.
A hint is cancelled when its connection closes and at shutdown: with a
budget of minutes, the one thread is free again at once.
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
# A board still "unknown" after 30 million nodes (13 s here): given a
# budget of a billion, only a cancel frees its thread within WAIT.
HARDER = {"steps": 60, "rows": 10, "cols": 10, "seed": 10}
# Bounded wait for that hint, however slow the build.
HINT_WAIT = 120.0
# Moves White plays against a level-1 bot, each answered by the bot.
EXCHANGES = 3


def bot_answers(chk, c, room, wait=WAIT):
    """Play White's first legal move and wait (up to wait seconds) for the
    bot's reply move; whether it came."""
    moves = c.call("moves", room=room).get("moves") or ["none"]
    is_ok(chk, c.call("move", room=room, move=moves[0]), "move")
    deadline = time.time() + wait
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
        ping = a.send("ping")  # waits behind the hint: replies in order
        time.sleep(0.1)  # let a thread take the hint first
        # one thread: the first answer waits for the hint, however slow
        wait = WAIT if workers > 1 else HINT_WAIT
        answered = [bot_answers(chk, b, rb, wait) for _ in range(EXCHANGES)]
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
        chk.eq(rep and (rep.get("re"), rep.get("verdict")),
               ("hint", "unknown"), "%s: the hint used its budget" % tag)
        rep = a.reply(timeout=WAIT)
        chk.eq(rep and (rep.get("re"), rep.get("id")), ("ping", ping),
               "%s: the ping sent after the hint is answered after it" %
               tag)
        chk.ok(srv.proc.poll() is None, "%s: server still running" % tag)
        chk.eq(srv.stop(), 0, "%s: server exits 0 on SIGTERM" % tag)
        a.close()
        b.close()


def hint_then(build, chk, tag, leave):
    """One thread, a hint with a budget of minutes on the hard board, then
    leave(srv, hinter, player, room of the player's bot game)."""
    extra = ["--workers", "1", "--hint-nodes", "1000000000"]
    with Server(build, extra=extra) as srv:
        a = login(srv.port, tag + "_h")
        is_ok(chk, a.call("create", game="solitaire", options=HARDER),
              "%s: a very hard generated board" % tag)
        b = login(srv.port, tag + "_p")
        r = b.call("create", game="ataxx", options={"size": 5},
                   bots={"black": 1})
        is_ok(chk, r, "%s: ataxx against a bot" % tag)
        a.drain()
        b.drain()
        a.send("hint")
        time.sleep(0.3)  # the one thread is on the hint
        leave(srv, a, b, r["room"])
        a.close()
        b.close()


def test_cancel_on_close(chk, build):
    def leave(srv, a, b, room):
        a.close()
        chk.ok(bot_answers(chk, b, room), "close: the hinter left, the "
               "thread is free: the bot answers")
        chk.eq(srv.stop(), 0, "close: server exits 0 on SIGTERM")
    hint_then(build, chk, "close", leave)


def test_cancel_on_shutdown(chk, build):
    def leave(srv, a, b, room):
        t0 = time.time()
        rc = srv.stop()
        chk.eq(rc, 0, "shutdown: the server stops with a hint running "
               "(in %.1f s; the hint alone would take minutes)" %
               (time.time() - t0))
    hint_then(build, chk, "shutdown", leave)


def main():
    a = args()
    chk = Checks()
    for workers in (2, 1):
        try:
            run(chk, a.build, workers)
        except Exception as e:  # a crash in one run is one failure
            chk.ok(False, "workers=%d raised %r" % (workers, e))
    for t in (test_cancel_on_close, test_cancel_on_shutdown):
        try:
            t(chk, a.build)
        except Exception as e:
            chk.ok(False, "%s raised %r" % (t.__name__, e))
    chk.done()


if __name__ == "__main__":
    main()
