"""test_bots_fair.py: the search threads serve everyone fairly, and stop
when the server does.

Fairness, counted rather than timed: sixteen bot-versus-bot Amazons rooms
at level 5 (each move a slice of --bot-max-time) keep both threads busy;
a person then plays Ataxx against a level-1 bot. In the server's log (one
thread writes it, in order) we count the bot-versus-bot moves finished
between the person's move and the bot's answer: a bot facing a person goes
before every bot-versus-bot room, and those rooms hold at most one of the
two threads, so at most one such move may finish in between (the one
running when the person moved). First come, first served (the old pool)
puts the answer behind the whole crowd: about eight moves per thread.

Shutdown: a bot told to search 64 plies with a minute to think is thinking
when TERM comes; the server exits within WAIT (10 s), long before the
minute is up, because the search is cancelled. Restarted on the same data
file, the room's bots still have their depth.
"""

import os
import re
import signal
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import (WAIT, Checks, Client, Server, args, is_ok,  # noqa: E402
                     login)
from test_workers import bot_answers  # noqa: E402

# Bot-versus-bot rooms of the crowd, and the slice of each of their moves.
CROWD = 16
SLICE_MS = "150"
WORKERS = 2
# Moves the person plays, each answered by the bot.
EXCHANGES = 4
# Bot-versus-bot moves that may finish while the person's bot waits.
BVB_ALLOWED = 1

BOT_LINE = re.compile(r"room (\S+): bot level")
MOVE_LINE = re.compile(r'"cmd": ?"move"')


def waits(log, room):
    """For each move the person sent in room, the bot-versus-bot moves that
    finished before its bot's answer."""
    out, counting, n = [], False, 0
    for line in log.splitlines():
        if MOVE_LINE.search(line) and ('"%s"' % room) in line:
            counting, n = True, 0
            continue
        m = BOT_LINE.search(line)
        if not counting or m is None:
            continue
        if m.group(1) == room:
            out.append(n)
            counting = False
        else:
            n += 1
    return out


def reader(c, stop):
    """Read and drop what arrives on c (the crowd's events) until stop."""
    c.sock.settimeout(0.2)
    while not stop.is_set():
        try:
            if not c.sock.recv(65536):
                return
        except OSError:
            continue


def fairness(chk, build):
    extra = ["--workers", str(WORKERS), "--bot-max-time", SLICE_MS,
             "--max-rooms-per-player", str(CROWD)]
    with Server(build, extra=extra) as srv:
        crowd = login(srv.port, "crowd")
        for i in range(CROWD):
            r = crowd.call("create", game="amazons",
                           bots={"white": 5, "black": 5})
            is_ok(chk, r, "bot-versus-bot room %d" % i)
        stop = threading.Event()
        t = threading.Thread(target=reader, args=(crowd, stop))
        t.start()
        time.sleep(0.5)  # the crowd's jobs fill the queues
        p = login(srv.port, "person")
        r = p.call("create", game="ataxx", options={"size": 5},
                   bots={"black": 1})
        is_ok(chk, r, "ataxx against a level-1 bot")
        room = r["room"]
        p.drain()
        answered = [bot_answers(chk, p, room) for _ in range(EXCHANGES)]
        chk.eq(answered, [True] * EXCHANGES, "the bot answers every move")
        stop.set()
        t.join(WAIT)
        crowd.close()
        log = srv.logtext()
        got = waits(log, room)
        print("bot-versus-bot moves finished while the person's bot "
              "waited: %r (allowed %d each)" % (got, BVB_ALLOWED))
        chk.eq(len(got), EXCHANGES, "every answer is in the log")
        chk.ok(all(n <= BVB_ALLOWED for n in got),
               "the person's bot waits at most one other slice: %r" % got)
        total = len([m for m in BOT_LINE.finditer(log)
                     if m.group(1) != room])
        chk.ok(total >= EXCHANGES,
               "the crowd played meanwhile (%d moves)" % total)


def shutdown(chk, build, db):
    extra = ["--workers", "1", "--bot-max-time", "60000"]
    srv = Server(build, db=db, extra=extra).start()
    try:
        c = login(srv.port, "deep")
        token = c.token
        r = c.call("create", game="ataxx", options={"size": 9},
                   bots={"white": 5, "black": 5}, depth=64)
        is_ok(chk, r, "a bot-versus-bot room searching 64 plies")
        time.sleep(0.5)  # white's bot is thinking
        start = time.time()
        srv.proc.send_signal(signal.SIGTERM)
        try:
            rc = srv.proc.wait(WAIT)
        except Exception:
            rc = None
        chk.eq(rc, 0, "TERM stops a thinking bot at once (%.2f s)"
               % (time.time() - start))
    finally:
        srv.stop(signal.SIGKILL)
        os.unlink(srv.log.name)
    return token


def depth_kept(chk, build, db, token):
    """The depth is stored with the seats: the room comes back with it."""
    with Server(build, db=db, extra=["--workers", "1"]) as srv:
        c = Client(srv.port)
        is_ok(chk, c.call("hello", name="deep", token=token), "hello again")
        rooms = c.call("rooms", status="playing").get("rooms") or []
        depths = [s.get("depth") for r in rooms for s in r["seats"]]
        chk.eq(depths, [64, 64], "the bots' depth after a restart")


def main():
    a = args()
    chk = Checks()
    fairness(chk, a.build)
    with tempfile.TemporaryDirectory() as d:
        db = os.path.join(d, "tablero.db")
        token = shutdown(chk, a.build, db)
        depth_kept(chk, a.build, db, token)
    chk.done()


if __name__ == "__main__":
    main()
