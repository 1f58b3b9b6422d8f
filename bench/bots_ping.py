#!/usr/bin/env python3
"""bots_ping.py: another client's ping while bots think.

Starts the real BUILD/tablerod on a free loopback port (--db :memory:, two
search threads), measures a client's ping round trips with nothing else
running (the baseline), then again while two bot-versus-bot rooms at
level 5 (Ataxx 7x7 and Amazons) keep both search threads busy, and prints
the median and 99th percentile of each, with the target: p99 under 0.5 ms
while bots think (the threads run at SCHED_IDLE). Standard library only;
loopback only; every wait is bounded.

Usage: python3 bench/bots_ping.py --build BUILD [--pings N]
"""

import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

# Seconds to wait for the server to start and for any one reply.
WAIT = 10.0
# Pause between pings, seconds: a person's client, not a flood.
GAP = 0.002
# Target for p99 while bots think, milliseconds.
TARGET_MS = 0.5


class Conn:
    """One JSON connection with line reads."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), WAIT)
        self.sock.settimeout(WAIT)
        self.buf = b""
        self.line()  # the welcome

    def line(self):
        while b"\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise RuntimeError("server closed")
            self.buf += chunk
        out, self.buf = self.buf.split(b"\n", 1)
        return json.loads(out)

    def call(self, **req):
        self.sock.sendall((json.dumps(req) + "\n").encode())
        while True:
            m = self.line()
            if "re" in m:
                return m


def pings(c, n):
    """n ping round trips, in milliseconds, sorted."""
    out = []
    for _ in range(n):
        t = time.perf_counter()
        c.call(cmd="ping")
        out.append((time.perf_counter() - t) * 1000.0)
        time.sleep(GAP)
    return sorted(out)


def pct(xs, p):
    return xs[min(len(xs) - 1, int(len(xs) * p / 100.0))]


def drain(c, stop):
    """Read and drop the bot rooms' events until stop."""
    c.sock.settimeout(0.2)
    while not stop.is_set():
        try:
            if not c.sock.recv(65536):
                return
        except OSError:
            continue


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--pings", type=int, default=2000)
    a = ap.parse_args()
    log = tempfile.NamedTemporaryFile(prefix="bots-ping-", delete=False)
    cmd = [os.path.join(a.build, "tablerod"), "--listen", "127.0.0.1",
           "--port", "0", "--db", ":memory:", "--workers", "2",
           "--bot-delay", "0", "--bot-pace", "0"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=log)
    try:
        port, deadline = None, time.time() + WAIT
        while port is None and time.time() < deadline:
            with open(log.name, errors="replace") as f:
                m = re.search(r"listening on 127\.0\.0\.1:(\d+)", f.read())
            port = int(m.group(1)) if m else None
            time.sleep(0.02)
        if port is None:
            print("bots_ping: tablerod did not start")
            return 1
        p = Conn(port)
        p.call(cmd="hello", name="pinger")
        base = pings(p, a.pings)
        b = Conn(port)
        b.call(cmd="hello", name="crowd")
        for game in ("ataxx", "amazons"):
            r = b.call(cmd="create", game=game, bots={"white": 5,
                                                       "black": 5})
            if not r.get("ok"):
                print("bots_ping: create failed: %r" % r)
                return 1
        stop = threading.Event()
        t = threading.Thread(target=drain, args=(b, stop))
        t.start()
        time.sleep(0.5)
        busy = pings(p, a.pings)
        stop.set()
        t.join(WAIT)
        print("ping alone: median %.3f ms, p99 %.3f ms (%d pings)"
              % (pct(base, 50), pct(base, 99), len(base)))
        print("ping while two level-5 bot rooms think: median %.3f ms, "
              "p99 %.3f ms (target p99 < %.1f ms: %s)"
              % (pct(busy, 50), pct(busy, 99), TARGET_MS,
                 "met" if pct(busy, 99) < TARGET_MS else "MISSED"))
        return 0
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(WAIT)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(WAIT)
        os.unlink(log.name)


if __name__ == "__main__":
    sys.exit(main())
