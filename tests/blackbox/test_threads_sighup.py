"""test_threads_sighup.py: SIGHUP in a tight loop under load, with the store
failing now and then and the log rotated, changes nothing but the log file.

tablerod logs to a file and runs with the store fault hook
(TABLERO_TEST_STORE_FAULTS, docs/PROTOCOL.md "Storage"). Players
move in many one-player rooms, bots play each other and hints are asked,
so the store thread and the search threads log and hand work back while
the test sends SIGHUP about every millisecond, renames the log file now
and then (a rotation), and turns the store's failure on and off. The
server answers every request and every ping throughout, every line of
every log file is one whole line in the log's format (one write per line,
nothing lost to a closed file), the new file gets "log reopened", a move
is stored again once the store is back, and SIGTERM exits 0. Built with
ThreadSanitizer or AddressSanitizer (make tsan-test, make asan-test) the
server reports nothing (harness fails the test on a report).
"""

import os
import re
import signal
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import WAIT, Server, login, main_in_tmp  # noqa: E402
from games_lib import FAST, STARTED, req, shut  # noqa: E402

# Seconds of load; a sanitizer build (TABLERO_SLOW) is slower, not longer.
LOAD_SECONDS = 3.0
# One-player rooms moved in at once, each by its own client thread.
SOLO_ROOMS = 12
# Rooms where two bots play each other (the search threads' hand-back).
BOT_ROOMS = 2
# SIGHUPs between two renames of the log file.
HUPS_PER_ROTATION = 200
# Seconds the store fault stays on, then off, in turn.
FAULT_FLIP = 0.1
# Seconds the load may go on past LOAD_SECONDS while no move is stored
# yet: eight more of the store thread's one-second retries.
RECOVER_SECONDS = 8.0
# A line of the log: stamp, level, text (docs/tablerod.8, LOGGING).
LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ "
                      r"(error|warn|info|debug) .*$")


class LoggedServer(Server):
    """A Server logging to a file: its text is stderr (where sanitizers
    write) and the current log file (where "listening" is)."""

    def __init__(self, build, logfile, extra=()):
        super().__init__(build, db=extra[0], extra=list(extra[1:]) +
                         ["--log-file", logfile])
        self.logfile = logfile

    def logtext(self):
        text = super().logtext()
        try:
            with open(self.logfile, "r", errors="replace") as f:
                text += f.read()
        except OSError:
            pass
        return text


class Mover(threading.Thread):
    """Moves in a one-player room until told to stop; a new room when the
    game ends. Counts moves stored and refused; any unanswered request
    is an error."""

    def __init__(self, port, name, stop):
        super().__init__(daemon=True)
        self.c = login(port, name)
        self.stop = stop
        self.room = None
        self.stored = self.refused = 0
        self.errors = []

    def ask(self, cmd, **fields):
        try:
            r = req(self.c, cmd, **fields)
        except (TimeoutError, OSError, ValueError) as e:
            r = None
            self.errors.append("%s: %r" % (cmd, e))
        if r is None and not self.errors:
            self.errors.append("%s: no reply" % cmd)
        return r

    def run(self):
        while not self.stop.is_set() and not self.errors:
            if self.room is None:
                r = self.ask("create", game="solitaire",
                             options={"board": "example"})
                if r and r.get("ok"):
                    self.room = r["room"]
                continue
            ms = self.ask("moves", room=self.room)
            if ms is None:
                return
            if not ms.get("ok") or not ms.get("moves"):
                self.ask("leave", room=self.room)
                self.room = None
                continue
            r = self.ask("move", room=self.room, move=ms["moves"][0])
            if r is None:
                return
            if r.get("ok"):
                self.stored += 1
            else:
                self.refused += 1


def pinger(c, stop, out):
    """Pings on c until stop (reading the bot rooms' events on the way);
    records the slowest answer and any failure."""
    out["max"] = 0.0
    while not stop.is_set():
        t = time.time()
        try:
            r = c.call("ping")
        except (TimeoutError, OSError, ValueError) as e:
            out["error"] = repr(e)
            return
        if r is None or not r.get("ok"):
            out["error"] = "ping answered %r" % (r,)
            return
        out["max"] = max(out["max"], time.time() - t)
        c.pending = []  # the bots' events: not looked at
        time.sleep(0.01)


def hupper(pid, logfile, stop, out):
    """SIGHUP about every millisecond; a rotation every few hundred."""
    out["hups"] = out["rotations"] = 0
    while not stop.is_set():
        if out["hups"] % HUPS_PER_ROTATION == 0:
            out["rotations"] += 1
            os.rename(logfile, "%s.%d" % (logfile, out["rotations"]))
        os.kill(pid, signal.SIGHUP)
        out["hups"] += 1
        time.sleep(0.001)


def flipper(faults, stop):
    """The store fails for FAULT_FLIP seconds, then works, in turn."""
    while not stop.is_set():
        with open(faults, "w") as f:
            f.write("fail")
        stop.wait(FAULT_FLIP)
        os.unlink(faults)
        stop.wait(FAULT_FLIP)


def bad_lines(tmp):
    """Lines of any log file that are not one whole log line."""
    bad = []
    for name in sorted(os.listdir(tmp)):
        if not name.startswith("tablerod.log"):
            continue
        with open(os.path.join(tmp, name), "r", errors="replace") as f:
            text = f.read()
        if text and not text.endswith("\n"):
            bad.append((name, "no newline at the end"))
        bad += [(name, ln) for ln in text.splitlines()
                if not LOG_LINE.match(ln)]
    return bad


def logged(tmp, text):
    """Does any log file, rotated ones too, hold text?"""
    for name in os.listdir(tmp):
        if name.startswith("tablerod.log"):
            with open(os.path.join(tmp, name), "r", errors="replace") as f:
                if text in f.read():
                    return True
    return False


def stored_again(c):
    """A move is stored once the store works again (bounded wait)."""
    deadline = time.time() + WAIT
    while time.time() < deadline:
        try:
            r = req(c, "create", game="solitaire",
                    options={"board": "example"})
            if r and r.get("ok"):
                ms = req(c, "moves", room=r["room"])
                r = req(c, "move", room=r["room"], move=ms["moves"][0])
                if r and r.get("ok"):
                    return True
        except (TimeoutError, OSError, ValueError, KeyError):
            return False
        time.sleep(0.1)
    return False


def run(ck, a, tmp):
    """The test, with its data files in tmp."""
    faults = os.path.join(tmp, "faults")
    logfile = os.path.join(tmp, "tablerod.log")
    os.environ["TABLERO_TEST_STORE_FAULTS"] = faults
    s = LoggedServer(a.build, logfile, [os.path.join(tmp, "t.db")] + FAST +
                     ["--workers", "2", "--hint-nodes", "20000",
                      "--log-level", "debug"])
    STARTED.append(s)
    s.start()
    watcher = login(s.port, "bvbwatch")
    for _ in range(BOT_ROOMS):
        r = req(watcher, "create", game="ataxx", options={"size": 5},
                bots={"white": 1, "black": 1})
        ck.ok(r and r.get("ok"), "a bot-versus-bot room: %r" % r)
    hinter = login(s.port, "hinter")
    hroom = req(hinter, "create", game="solitaire",
                options={"board": "example"})
    ck.ok(hroom and hroom.get("ok"), "a room for the hints: %r" % hroom)
    stop = threading.Event()
    movers = [Mover(s.port, "mover%d" % i, stop) for i in range(SOLO_ROOMS)]
    pings, hups = {}, {}
    side = [threading.Thread(target=pinger, args=(watcher, stop, pings)),
            threading.Thread(target=hupper, args=(s.proc.pid, logfile, stop,
                                                  hups)),
            threading.Thread(target=flipper, args=(faults, stop))]
    for t in movers + side:
        t.start()
    deadline = time.time() + LOAD_SECONDS
    hints = unanswered = 0
    # The load goes on past LOAD_SECONDS, bounded, until a move is stored:
    # the store thread retries a failed group after 50, 100, 200, 400,
    # 800 ms, then every second, and each retry meets the fault with even
    # odds, so in LOAD_SECONDS all of them may (CI, under ASan: 0 moves
    # stored in 3 s, the server otherwise well).
    while time.time() < deadline or (
            time.time() < deadline + RECOVER_SECONDS and
            sum(m.stored for m in movers) == 0):
        if req(hinter, "hint", room=(hroom or {}).get("room")) is None:
            unanswered += 1
            break
        hints += 1
    stop.set()
    for t in movers + side:
        t.join(WAIT)
        ck.ok(not t.is_alive(), "a load thread stopped")
    if os.path.exists(faults):
        os.unlink(faults)
    stored = sum(m.stored for m in movers)
    refused = sum(m.refused for m in movers)
    print("%d SIGHUPs, %d rotations, %d moves stored, %d refused, %d hints, "
          "slowest ping %.3f s" % (hups.get("hups", 0),
                                   hups.get("rotations", 0), stored, refused,
                                   hints, pings.get("max", 0)))
    ck.eq([e for m in movers for e in m.errors], [], "every request of the "
          "movers is answered")
    ck.eq(pings.get("error"), None, "every ping is answered")
    ck.eq(unanswered, 0, "every hint is answered")
    ck.ok(hints > 0, "hints were asked")
    ck.ok(hups.get("hups", 0) > 100, "SIGHUPs were sent: %r" % hups)
    ck.ok(stored > 0, "moves were stored between the failures")
    # A failed group is kept and its moves held; the moves made once the
    # loop knows the store fails are refused: under a slow (sanitizer)
    # build every move may land in the held groups, none refused.
    ck.ok(refused > 0 or logged(tmp, "changes are refused until it "
                                "stores again"),
          "the store failed under the load (moves held or refused: %d "
          "refused)" % refused)
    ck.ok(s.proc.poll() is None, "the server is still running")
    ck.ok(stored_again(hinter), "a move is stored once the store is back")
    os.kill(s.proc.pid, signal.SIGHUP)
    deadline = time.time() + WAIT
    while time.time() < deadline and "log reopened" not in s.logtext():
        time.sleep(0.02)
    ck.ok("log reopened" in s.logtext(), "the newest log file says "
          "log reopened")
    for c in [m.c for m in movers] + [watcher, hinter]:
        c.close()
    ck.eq(shut(s), 0, "SIGTERM: tablerod exits 0")
    bad = bad_lines(tmp)
    ck.eq(bad[:3], [], "every log line is whole (%d bad)" % len(bad))


if __name__ == "__main__":
    main_in_tmp("tablero-sighup-", run)
