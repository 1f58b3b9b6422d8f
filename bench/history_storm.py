#!/usr/bin/env python3
"""history_storm.py: a bystander's ping while guests ask for the history
of a player with many games (issue 30, finding 6), for bench/run.sh.

Makes a data file whose player "star" has --games finished games (the
server creates the schema; the rows go in with one INSERT ... SELECT),
starts tablerod on it (--extra flags added), and measures a logged-in
bystander's ping round trips (one every 10 ms) for --secs seconds on the
quiet server, then as long again while --guests anonymous guests each ask
`history star` over and over (one request in flight each, a fresh
connection after a refusal, as a script would); a ping still unanswered
when a phase ends counts as waited that long. Prints one line of
key=value: quiet_p50_ms, quiet_p99_ms, storm_p50_ms, storm_p99_ms,
history_per_s (pages served), refused_per_s (rate_limited), errors.

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


def pct(v, p):
    if not v:
        return -1
    v = sorted(v)
    return v[min(len(v) - 1, int(len(v) * p))]


def run(port, guests, secs):
    """The quiet phase, then the storm; the figures."""
    sel = selectors.DefaultSelector()
    by = Conn(port)
    sel.register(by.sock, selectors.EVENT_READ, by)
    by.send({"cmd": "hello", "name": "bystander"})
    quiet, storm = [], []
    stats = {"history": 0, "refused": 0, "errors": 0}
    gs = []

    def new_guest():
        g = Conn(port)
        g.kind = "guest"
        sel.register(g.sock, selectors.EVENT_READ, g)
        g.send({"cmd": "history", "name": "star"})
        return g

    by.kind = "by"
    by.ready = False
    by.phase, by.counted = quiet, False
    next_ping = time.monotonic()
    t0 = time.monotonic()
    phase_end = t0 + secs
    storming = False
    while True:
        now = time.monotonic()
        if now >= phase_end:
            # a ping still unanswered counts as waited so far: a server
            # stalled for the whole phase must not show no wait at all
            # (its answer, when it comes, is not counted again)
            if by.sent_at is not None and by.ready and not by.counted:
                by.phase.append((now - by.sent_at) * 1000)
                by.counted = True
            if storming:
                break
            storming = True
            gs = [new_guest() for _ in range(guests)]
            phase_end = now + secs
            storm_t0 = now
        if by.ready and by.sent_at is None and now >= next_ping:
            by.send({"cmd": "ping"})
            by.phase = storm if storming else quiet
            by.counted = False
            next_ping = now + PING_EVERY
        for key, _ in sel.select(max(0.0, min(next_ping, phase_end) - now)):
            c = key.data
            lines = c.lines()
            if lines is None:
                sel.unregister(c.sock)
                c.sock.close()
                if c.kind == "guest" and storming:
                    gs.remove(c)
                    gs.append(new_guest())
                else:
                    stats["errors"] += 1
                continue
            for line in lines:
                m = json.loads(line)
                if "re" not in m:
                    continue
                if c.kind == "by":
                    if m["re"] == "hello":
                        by.ready = True
                        c.sent_at = None
                    elif m["re"] == "ping":
                        rtt = (time.monotonic() - c.sent_at) * 1000
                        if not c.counted:
                            c.phase.append(rtt)
                        c.sent_at = None
                    continue
                if m.get("ok"):
                    stats["history"] += 1
                elif m.get("error") == "rate_limited":
                    stats["refused"] += 1
                else:
                    stats["errors"] += 1
                c.send({"cmd": "history", "name": "star"})
    dur = time.monotonic() - storm_t0
    for c in gs + [by]:
        c.sock.close()
    return ("quiet_p50_ms=%.2f quiet_p99_ms=%.2f storm_p50_ms=%.2f "
            "storm_p99_ms=%.2f history_per_s=%.0f refused_per_s=%.0f "
            "errors=%d" % (pct(quiet, 0.5), pct(quiet, 0.99),
                           pct(storm, 0.5), pct(storm, 0.99),
                           stats["history"] / dur, stats["refused"] / dur,
                           stats["errors"]))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--tablerod", required=True)
    p.add_argument("--games", type=int, default=300000)
    p.add_argument("--guests", type=int, default=8)
    p.add_argument("--secs", type=float, default=5)
    p.add_argument("--pin", default="")
    p.add_argument("--extra", default="")
    p.add_argument("--db", default="",
                   help="the data file, made there (and kept) when missing;"
                   " by default a temporary one")
    a = p.parse_args()
    tmp = tempfile.mkdtemp(prefix="storm-")
    db = a.db or os.path.join(tmp, "storm.db")
    if not os.path.exists(db):
        make_db(a.tablerod, db, a.games)
    proc, port, log = start(a.tablerod, db,
                            ["--rate", "100000", "--burst", "100000"] +
                            shlex.split(a.extra), a.pin)
    try:
        print(run(port, a.guests, a.secs), flush=True)
    finally:
        stop(proc)
        os.unlink(log)
        for f in os.listdir(tmp):
            os.unlink(os.path.join(tmp, f))
        os.rmdir(tmp)


if __name__ == "__main__":
    sys.exit(main())
