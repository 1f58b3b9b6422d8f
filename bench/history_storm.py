#!/usr/bin/env python3
"""history_storm.py: a bystander's ping while guests ask for the history
of a player with many games (issue 30, finding 6), for bench/run.sh.

Makes a data file whose player "star" has --games finished games (the
server creates the schema; the rows go in with one INSERT ... SELECT),
starts tablerod on it (--extra flags added), and measures a logged-in
bystander's ping round trips (one every 10 ms, from a process of its own)
for --secs seconds on the quiet server, then as long again while --guests
anonymous guests each ask `history star` over and over (one request in
flight each, a fresh connection when the server closes one, as a script
would); a ping still unanswered when the run ends counts as waited that
long. Prints one line of
key=value: quiet_p50_ms, quiet_p99_ms, storm_p50_ms, storm_p99_ms,
history_per_s (pages served), refused_per_s (rate_limited), errors,
server_cpu (the cores tablerod used during the storm).

Usage: history_storm.py --tablerod PATH [--games N] [--guests N]
                        [--secs S] [--pin CPUS] [--extra "FLAGS"]
                        [--db PATH]
(--db: a data file made by the same tablerod, made there when missing and
kept, so that several runs share it.)
Standard library only; loopback only; the server it starts is stopped
(by its pid) however the run ends.
"""

import argparse
import json
import os
import re
import selectors
import shlex
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time

# Seconds to wait for the server to start or stop.
WAIT = 30
# The bystander's ping interval.
PING_EVERY = 0.010


def start(tablerod, db, extra, pin):
    """tablerod on db, a free loopback port; (process, port, log path)."""
    log = tempfile.NamedTemporaryFile(prefix="storm-", suffix=".log",
                                      delete=False)
    cmd = ([] if not pin else ["taskset", "-c", pin]) + [
        tablerod, "--listen", "127.0.0.1", "--port", "0", "--db", db,
        "--log-level", "info"] + extra
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log)
    deadline = time.time() + WAIT
    while time.time() < deadline:
        with open(log.name, errors="replace") as f:
            m = re.search(r"listening on 127\.0\.0\.1:(\d+)", f.read())
        if m:
            return proc, int(m.group(1)), log.name
        if proc.poll() is not None:
            break
        time.sleep(0.05)
    proc.kill()
    with open(log.name, errors="replace") as f:
        raise RuntimeError("tablerod did not start: " + f.read()[-500:])


def stop(proc):
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(WAIT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(WAIT)


def make_db(tablerod, path, games):
    """A data file in tablerod's schema with `games` finished games of
    star against others, newest last."""
    proc, _, log = start(tablerod, path, [], None)
    stop(proc)
    os.unlink(log)
    con = sqlite3.connect(path)
    con.execute("PRAGMA journal_mode = WAL")
    seats = ("'[{\"seat\":\"white\",\"name\":\"star\",\"bot\":null},"
             "{\"seat\":\"black\",\"name\":\"p' || (i % 997) || '\","
             "\"bot\":null}]'")
    con.execute(
        "INSERT INTO games (room, game_no, game, options, seats, name0,"
        " name1, result, private, clock_initial_ms, clock_increment_ms,"
        " started_ms, ended_ms, nmoves, moves, start, position)"
        " WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c"
        " WHERE i < ?)"
        " SELECT 'r' || i, 1, 'ataxx', '{\"size\":\"7\"}', " + seats + ","
        " CASE WHEN i % 2 = 0 THEN 'star' ELSE 'p' || (i % 997) END,"
        " CASE WHEN i % 2 = 0 THEN 'p' || (i % 997) ELSE 'star' END,"
        " '{\"result\":\"win\",\"winner\":\"white\",\"reason\":"
        "\"resignation\",\"rated\":false}', i % 10 = 0, 0, 0,"
        " 1700000000000 + i * 1000, 1700000000000 + i * 1000 + 500, 40,"
        " '[]', 'x5o/7/7/7/7/7/o5x x 0 1', 'x5o/7/7/7/7/7/o5x x 0 1'"
        " FROM c", (games,))
    con.commit()
    con.close()


class Conn:
    """One client connection: a socket and what it has read."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), WAIT)
        self.sock.setblocking(False)
        self.buf = b""
        self.sent_at = None

    def send(self, msg):
        self.sock.sendall((json.dumps(msg) + "\n").encode())
        self.sent_at = time.monotonic()

    def lines(self):
        """Whole lines read so far (None when the server closed)."""
        try:
            data = self.sock.recv(1 << 20)
        except BlockingIOError:
            return []
        except ConnectionError:
            data = b""
        if not data:
            return None
        self.buf += data
        out = []
        while b"\n" in self.buf:
            line, self.buf = self.buf.split(b"\n", 1)
            out.append(line)
        return out


def cpu_secs(pid):
    """The CPU seconds (user and system, every thread) process pid used."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(v, p):
    if not v:
        return -1
    v = sorted(v)
    return v[min(len(v) - 1, int(len(v) * p))]


def bystander(port, secs):
    """The bystander's process: log in, ping every PING_EVERY for secs
    seconds, one ping in flight; print each ping's send time and round
    trip ("T MS" lines; a ping unanswered at the end counts as waited
    until then)."""
    try:
        # the guests' process takes a core's worth of Python on the same
        # core: at a real-time priority the bystander reads its reply when
        # it comes, not when the scheduler gets round to it
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
    except (OSError, AttributeError):
        print("history_storm.py: the bystander runs at normal priority",
              file=sys.stderr)
    c = Conn(port)
    c.sock.setblocking(True)
    c.send({"cmd": "hello", "name": "bystander"})
    while not any(json.loads(ln).get("re") == "hello"
                  for ln in c.lines() or []):
        pass
    c.sent_at = None
    c.sock.setblocking(False)
    sel = selectors.DefaultSelector()
    sel.register(c.sock, selectors.EVENT_READ, c)
    out, end = [], time.monotonic() + secs
    next_ping = time.monotonic()
    while True:
        now = time.monotonic()
        if now >= end:
            if c.sent_at is not None:
                out.append((c.sent_at, (now - c.sent_at) * 1000))
            break
        if c.sent_at is None and now >= next_ping:
            c.send({"cmd": "ping"})
            next_ping = now + PING_EVERY
        wait = end - now if c.sent_at is not None else next_ping - now
        for _ in sel.select(max(0.0, min(wait, end - now))):
            lines = c.lines()
            if lines is None:
                raise RuntimeError("the server closed the bystander")
            for line in lines:
                if (json.loads(line).get("re") == "ping" and
                        c.sent_at is not None):
                    out.append((c.sent_at,
                                (time.monotonic() - c.sent_at) * 1000))
                    c.sent_at = None
    c.sock.close()
    for t, ms in out:
        print("%.6f %.3f" % (t, ms))


def run(tool, port, guests, secs, pid):
    """The quiet phase, then the storm; the figures. The bystander pings
    from a process of its own (run by tool): in the guests' process its
    replies waited behind theirs, thousands a second, in the load
    generator's own loop, and the row blamed that on the server."""
    sel = selectors.DefaultSelector()
    by = subprocess.Popen([sys.executable, tool, "--bystander", str(port),
                           "--secs", str(2 * secs + 1)],
                          stdout=subprocess.PIPE)
    stats = {"history": 0, "refused": 0, "errors": 0}
    gs = []

    def new_guest():
        g = Conn(port)
        sel.register(g.sock, selectors.EVENT_READ, g)
        g.send({"cmd": "history", "name": "star"})
        return g

    # the quiet phase: the bystander alone (its first half second, while
    # it logs in, is not counted)
    quiet_t0 = time.monotonic() + 0.5
    time.sleep(secs + 0.5)
    storm_t0 = time.monotonic()
    cpu0 = cpu_secs(pid)
    gs = [new_guest() for _ in range(guests)]
    storm_end = storm_t0 + secs
    while True:
        now = time.monotonic()
        if now >= storm_end:
            break
        for key, _ in sel.select(storm_end - now):
            c = key.data
            lines = c.lines()
            if lines is None:
                sel.unregister(c.sock)
                c.sock.close()
                gs.remove(c)
                gs.append(new_guest())
                continue
            for line in lines:
                m = json.loads(line)
                if "re" not in m:
                    continue
                if m.get("ok"):
                    stats["history"] += 1
                elif m.get("error") == "rate_limited":
                    stats["refused"] += 1
                else:
                    stats["errors"] += 1
                c.send({"cmd": "history", "name": "star"})
    dur = time.monotonic() - storm_t0
    server_cpu = (cpu_secs(pid) - cpu0) / dur
    for c in gs:
        c.sock.close()
    pings, _ = by.communicate(timeout=WAIT + 2 * secs)
    if by.returncode != 0:
        raise RuntimeError("the bystander failed")
    quiet, storm = [], []
    for ln in pings.decode().split("\n"):
        if not ln:
            continue
        t, ms = (float(x) for x in ln.split())
        if quiet_t0 <= t < storm_t0:
            quiet.append(ms)
        elif storm_t0 <= t < storm_end:
            storm.append(ms)
    return ("quiet_p50_ms=%.2f quiet_p99_ms=%.2f storm_p50_ms=%.2f "
            "storm_p99_ms=%.2f history_per_s=%.0f refused_per_s=%.0f "
            "errors=%d server_cpu=%.2f" % (pct(quiet, 0.5), pct(quiet, 0.99),
                           pct(storm, 0.5), pct(storm, 0.99),
                           stats["history"] / dur, stats["refused"] / dur,
                           stats["errors"], server_cpu))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bystander", type=int, default=0,
                   help="(internal) be the bystander on this port")
    p.add_argument("--tablerod")
    p.add_argument("--games", type=int, default=300000)
    p.add_argument("--guests", type=int, default=8)
    p.add_argument("--secs", type=float, default=5)
    p.add_argument("--pin", default="")
    p.add_argument("--extra", default="")
    p.add_argument("--db", default="",
                   help="the data file, made there (and kept) when missing;"
                   " by default a temporary one")
    a = p.parse_args()
    if a.bystander:
        return bystander(a.bystander, a.secs)
    if not a.tablerod:
        p.error("--tablerod is needed")
    tmp = tempfile.mkdtemp(prefix="storm-")
    db = a.db or os.path.join(tmp, "storm.db")
    if not os.path.exists(db):
        make_db(a.tablerod, db, a.games)
    proc, port, log = start(a.tablerod, db,
                            ["--rate", "100000", "--burst", "100000"] +
                            shlex.split(a.extra), a.pin)
    try:
        print(run(os.path.abspath(__file__), port, a.guests, a.secs, proc.pid),
              flush=True)
    finally:
        stop(proc)
        os.unlink(log)
        for f in os.listdir(tmp):
            os.unlink(os.path.join(tmp, f))
        os.rmdir(tmp)


if __name__ == "__main__":
    sys.exit(main())
