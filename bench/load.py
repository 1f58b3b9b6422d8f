#!/usr/bin/env python3
"""load.py: tablerod under load, measured against its own ping baseline.

Starts the real BUILD/tablerod on a free loopback port with a data file in
a temporary directory, opens N pairs of JSON connections (each pair seated in
its own private Ataxx room) and, for each run, measures for the same time:

  - the ping baseline: every connection does ping round trips, one request
    outstanding at a time (the server's bare request rate);
  - the game load: in every room the side to move sends a random legal move
    as soon as it knows the position (forced passes are the server's), and
    both players ask for a rematch when a game ends.

Meanwhile a bystander, one more connection in a process of its own and in
no room, pings every 10 ms: how long the others' load makes it wait.

It prints the medians over the runs of moves and pings per second, their
ratio, move latency percentiles, the server's CPU time per move and ping,
the bystander's times, the server's memory, and whether the load generator
(this one Python process, selectors and non-blocking sockets) used more CPU
than the server, in which case the rates are a lower bound of what the
server can do. At the end a fresh client must still get through hello and
ping, and SIGTERM must stop the server with exit code 0. This is done once
per --sync mode, each with a new server and data file. Standard library
only; loopback only; every wait is bounded.

Usage: python3 bench/load.py --build BUILD [--pairs N] [--seconds S]
       [--runs R] [--sync normal,full,memory]
Exits 1 when the server misbehaved (error replies, dropped connections,
rooms stuck, stalls, a crash, unhealthy afterwards, SIGTERM not exit 0).
"""

import argparse
import json
import os
import random
import re
import resource
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

# Seconds to wait for the server to start, for a reply while draining, and
# for one plain request of the health check.
WAIT = 10.0
# Seconds allowed at most to collect the replies outstanding at the end of
# a phase.
DRAIN_MAX = 3 * WAIT
# Seconds allowed for all connections to log in and start their games.
SETUP_WAIT = 60.0
# Seconds at the start of each phase that are not counted (ramp-up).
WARMUP = 0.5
# Open files beyond one per connection (the data file, the log, the
# listener, the health check, Python's own).
FD_SPARE = 128
# Seconds between the pings of the bystander: a connection in a process of
# its own (so that the load generator's own queueing is not in its times),
# in no room, that measures how long the others' load makes it wait.
BYSTANDER_PAUSE = 0.01
# Bytes read from a socket at once.
RECV_SIZE = 262144
# Board cells of Ataxx: white is 'x', black 'o', '.' empty.
EMPTY = "."
# The 24 Ataxx steps: distance 1 clones, distance 2 jumps.
STEPS = [(dr, dc) for dr in range(-2, 3) for dc in range(-2, 3)
         if (dr, dc) != (0, 0)]
# Random tries at a move before listing every move of the position.
PICK_TRIES = 24

PING = b'{"cmd":"ping"}\n'
# How the lines start that load.py reads without decoding them (requests
# carry no id, so a reply starts with its verb and ok).
OK_PREFIX = {"move": b'{"re":"move","ok":true,',
             "ping": b'{"re":"ping","ok":true,'}
MOVED_PREFIX = b'{"event":"moved",'
REMATCH = b'{"cmd":"rematch"}\n'
TICK = os.sysconf("SC_CLK_TCK")


def proc_cpu(pid):
    """CPU seconds (user + system, all threads) used by process pid."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def proc_rss(pid):
    """Resident memory of process pid in KiB (0 if unknown)."""
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def machine_cpu():
    """(idle jiffies of the whole machine, its CPUs), from /proc/stat. Its
    busy counters are not read: with tick-based accounting they are
    sampled at a tick that a tickless idle CPU stops, so short bursts
    between sleeps go uncounted, while idle time is measured as the CPUs
    sleep (bench/loadgen.c, lg_machine; issue 32)."""
    idle, ncpu = 0, 0
    with open("/proc/stat") as f:
        for line in f:
            if line.startswith("cpu "):
                v = [int(x) for x in line.split()[1:]]
                idle = v[3] + v[4]
            elif line[:3] == "cpu" and line[3:4].isdigit():
                ncpu += 1
    return idle, ncpu


def machine_busy(m0, m1, wall):
    """The share of the machine's CPU time busy between two machine_cpu()
    readings wall seconds apart (0 to 1)."""
    all_ = wall * max(1, m1[1]) * os.sysconf("SC_CLK_TCK")
    return min(1.0, max(0.0, 1 - (m1[0] - m0[0]) / all_)) if all_ > 0 \
        else 0.0


def median(xs):
    xs = sorted(xs)
    return xs[(len(xs) - 1) // 2] if xs else 0


def percentile(sorted_xs, p):
    """The p-th percentile (0..100) of an already sorted list."""
    if not sorted_xs:
        return 0.0
    i = min(len(sorted_xs) - 1, int(len(sorted_xs) * p / 100.0))
    return sorted_xs[i]


def ataxx_square(n, r, c):
    return chr(97 + c) + str(n - r)


def ataxx_pick(board, mine, rng):
    """A random legal Ataxx move for the side playing `mine` on board (rows,
    top first), or None when it has none."""
    n = len(board)
    own = [(r, c) for r, row in enumerate(board)
           for c, ch in enumerate(row) if ch == mine]
    if not own:
        return None
    for _ in range(PICK_TRIES):
        r, c = own[rng.randrange(len(own))]
        dr, dc = STEPS[rng.randrange(24)]
        rr, cc = r + dr, c + dc
        if 0 <= rr < n and 0 <= cc < n and board[rr][cc] == EMPTY:
            return ataxx_move(n, r, c, rr, cc)
    every = [(r, c, r + dr, c + dc) for r, c in own for dr, dc in STEPS
             if 0 <= r + dr < n and 0 <= c + dc < n
             and board[r + dr][c + dc] == EMPTY]
    if not every:
        return None
    return ataxx_move(n, *every[rng.randrange(len(every))])


def ataxx_move(n, r, c, rr, cc):
    to = ataxx_square(n, rr, cc)
    if max(abs(rr - r), abs(cc - c)) == 1:
        return to
    return ataxx_square(n, r, c) + to


class Server:
    """tablerod on 127.0.0.1 with a free port and a data file in dirname."""

    def __init__(self, build, dirname, sync, nconn):
        self.logname = os.path.join(dirname, "tablerod.log")
        self.db = os.path.join(dirname, "tablero.db")
        store = ["--db", ":memory:"] if sync == "memory" else \
            ["--db", self.db, "--sync", sync]
        self.cmd = [os.path.join(build, "tablerod"), "--listen", "127.0.0.1",
                    "--port", "0"] + store + [
                    "--rate", "100000", "--burst", "100000",
                    "--max-clients", str(nconn + 64), "--log-level", "info",
                    "--bot-delay", "0",
                    # every load client comes from 127.0.0.1: lift the
                    # per-address limits meant for abusers
                    "--max-per-address", str(nconn + 64),
                    "--new-names", "1000000",
                    "--games-per-hour", "1000000"]
        self.proc = None
        self.port = None

    def start(self):
        with open(self.logname, "wb") as log:
            self.proc = subprocess.Popen(self.cmd, stdin=subprocess.DEVNULL,
                                         stdout=subprocess.DEVNULL,
                                         stderr=log)
        deadline = time.time() + WAIT
        while time.time() < deadline:
            m = re.search(r"listening on 127\.0\.0\.1:(\d+)", self.log())
            if m:
                self.port = int(m.group(1))
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.02)
        raise RuntimeError("tablerod did not start: " + self.log()[-2000:])

    def log(self):
        with open(self.logname, "r", errors="replace") as f:
            return f.read()

    def alive(self):
        return self.proc is not None and self.proc.poll() is None

    def stop(self):
        """SIGTERM, then its exit code (SIGKILL and None if it hangs)."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(WAIT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(WAIT)
            return None


class Conn:
    """One client connection and what it knows of its game."""

    __slots__ = ("sock", "name", "pair", "partner", "creator", "rbuf",
                 "wbuf", "busy", "verb", "sent_at", "todo", "seat", "mine",
                 "turn", "turn_mark", "board", "playing", "rematch",
                 "ready", "dead", "resync")

    def __init__(self, sock, name, pair, creator):
        self.sock = sock
        self.name = name
        self.pair = pair
        self.partner = None
        self.creator = creator
        self.rbuf = b""
        self.wbuf = b""
        self.busy = False
        self.verb = None
        self.sent_at = 0.0
        self.todo = []
        self.seat = None
        self.mine = None
        self.turn = None
        self.turn_mark = b"-"
        self.board = None
        self.playing = False
        self.rematch = False
        self.ready = False
        self.dead = False
        self.resync = False


SETUP, PING_PHASE, MOVE_PHASE = "setup", "ping", "move"


class Load:
    """The connections, the event loop and the counters of one server."""

    def __init__(self, port, pairs, size, seed):
        self.port = port
        self.pairs = pairs
        self.size = size
        self.rng = random.Random(seed)
        self.sel = selectors.DefaultSelector()
        self.conns = []
        self.phase = None
        self.counting = False
        self.errors = {}
        self.dropped = 0
        self.reset()

    def reset(self):
        self.n_ok = 0
        self.lat = []
        self.games = 0
        self.per_pair = [0] * self.pairs

    # -- connections -------------------------------------------------------

    def connect_all(self):
        for i in range(self.pairs):
            a = self.open("L%dw" % i, i, True)
            b = self.open("L%db" % i, i, False)
            a.partner, b.partner = b, a

    def open(self, name, pair, creator):
        sock = socket.create_connection(("127.0.0.1", self.port), WAIT)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.setblocking(False)
        c = Conn(sock, name, pair, creator)
        self.sel.register(sock, selectors.EVENT_READ, c)
        self.conns.append(c)
        return c

    def close_all(self):
        for c in self.conns:
            if not c.dead:
                self.sel.unregister(c.sock)
                c.sock.close()
                c.dead = True
        self.sel.close()

    def send(self, c, data, verb):
        c.busy = True
        c.verb = verb
        c.sent_at = time.perf_counter()
        if c.wbuf:
            c.wbuf += data
            return
        try:
            n = c.sock.send(data)
        except BlockingIOError:
            n = 0
        except OSError:
            self.drop(c)
            return
        if n < len(data):
            c.wbuf = data[n:]
            self.sel.modify(c.sock,
                            selectors.EVENT_READ | selectors.EVENT_WRITE, c)

    def flush(self, c):
        try:
            n = c.sock.send(c.wbuf)
        except BlockingIOError:
            return
        except OSError:
            self.drop(c)
            return
        c.wbuf = c.wbuf[n:]
        if not c.wbuf:
            self.sel.modify(c.sock, selectors.EVENT_READ, c)

    def drop(self, c):
        """The server closed c (or it broke): count it, forget it."""
        if c.dead:
            return
        c.dead = True
        c.busy = False
        self.dropped += 1
        self.sel.unregister(c.sock)
        c.sock.close()

    def poll(self, timeout):
        for key, ev in self.sel.select(timeout):
            c = key.data
            if c.dead:
                continue
            if ev & selectors.EVENT_WRITE:
                self.flush(c)
            if ev & selectors.EVENT_READ:
                self.read(c)

    def read(self, c):
        try:
            chunk = c.sock.recv(RECV_SIZE)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            self.drop(c)
            return
        lines = (c.rbuf + chunk).split(b"\n")
        c.rbuf = lines.pop()
        now = time.perf_counter()
        for line in lines:
            if not line:
                continue
            # Fast paths, so that the load generator spends its CPU on
            # load: an ok move or ping reply, and a move event that does
            # not give c the turn, need no JSON decoding.
            if c.busy and line.startswith(OK_PREFIX.get(c.verb, b"-")):
                self.counted(c, now)
            elif line.startswith(MOVED_PREFIX) and c.turn_mark not in line:
                c.turn = None
            else:
                self.message(c, json.loads(line), now)
        self.act(c)

    # -- protocol ----------------------------------------------------------

    def message(self, c, m, now):
        if "re" in m:
            self.reply(c, m, now)
            return
        ev = m.get("event")
        if ev == "moved":
            c.turn = m.get("turn")
            c.board = m.get("board")
            c.playing = m.get("status") == "playing"
        elif ev == "started":
            self.started(c, m)
        elif ev == "ended":
            c.playing = False
            c.rematch = True
            if c.creator and self.counting:
                self.games += 1
        elif ev == "welcome":
            c.todo.append((json.dumps({"cmd": "hello", "name": c.name})
                           .encode() + b"\n", "hello"))
        elif ev == "shutdown":
            pass

    def started(self, c, m):
        seats = m.get("seats") or []
        for i, s in enumerate(seats):
            if s.get("name") == c.name:
                c.seat = s.get("seat")
                c.turn_mark = b'"turn":' + json.dumps(c.seat).encode()
                c.mine = "x" if i == 0 else "o"
        c.turn = m.get("turn")
        c.board = m.get("board")
        c.playing = True
        c.ready = True

    def reply(self, c, m, now):
        c.busy = False
        verb = c.verb
        if not m.get("ok"):
            key = "%s %s" % (verb, m.get("error"))
            if key not in self.errors:
                print("load: %s: %s reply: %s" % (c.name, verb,
                                                  json.dumps(m)[:300]))
            self.errors[key] = self.errors.get(key, 0) + 1
            if verb in ("move", "rematch"):
                c.resync = True
            return
        if verb == "move" or verb == "ping":
            self.counted(c, now)
        elif verb == "create":
            c.partner.todo.append((json.dumps({"cmd": "join",
                                               "room": m["room"]})
                                   .encode() + b"\n", "join"))
            self.act(c.partner)
        elif verb == "hello" and c.creator:
            c.todo.append((json.dumps({"cmd": "create", "game": "ataxx",
                                       "options": {"size": self.size},
                                       "private": True}).encode() + b"\n",
                           "create"))
        elif verb == "state":
            st = m["state"]
            c.turn = st.get("turn")
            c.board = st.get("board")
            c.playing = st.get("status") == "playing"
            c.rematch = st.get("status") == "ended"

    def counted(self, c, now):
        """An ok move or ping reply came to c."""
        c.busy = False
        if self.counting:
            self.n_ok += 1
            self.lat.append(now - c.sent_at)
            self.per_pair[c.pair] += 1

    def act(self, c):
        """Send c's next request if it has none outstanding."""
        if c.busy or c.dead:
            return
        ph = self.phase
        if ph == PING_PHASE:
            self.send(c, PING, "ping")
        elif ph == MOVE_PHASE:
            if c.resync:
                c.resync = False
                self.send(c, b'{"cmd":"state"}\n', "state")
            elif c.rematch:
                c.rematch = False
                self.send(c, REMATCH, "rematch")
            elif c.playing and c.turn == c.seat:
                mv = ataxx_pick(c.board, c.mine, self.rng)
                if mv is None:
                    # The server passes for a side without a move, so the
                    # board c holds is not the room's: ask for the state.
                    key = "move: no legal move on the board of the events"
                    self.errors[key] = self.errors.get(key, 0) + 1
                    self.send(c, b'{"cmd":"state"}\n', "state")
                    return
                self.send(c, b'{"cmd":"move","move":"' + mv.encode() +
                          b'"}\n', "move")
        elif c.todo:
            data, verb = c.todo.pop(0)
            self.send(c, data, verb)

    # -- phases ------------------------------------------------------------

    def setup(self):
        self.phase = SETUP
        self.connect_all()
        deadline = time.time() + SETUP_WAIT
        while not all(c.ready or c.dead for c in self.conns):
            if time.time() > deadline:
                raise RuntimeError("setup: only %d of %d connections started"
                                   " a game within %d s" %
                                   (sum(c.ready for c in self.conns),
                                    len(self.conns), SETUP_WAIT))
            self.poll(0.1)
        self.phase = None
        if self.dropped:
            raise RuntimeError("setup: the server dropped %d connections"
                               % self.dropped)

    def run_phase(self, kind, seconds, pid):
        """Load the server for WARMUP + seconds with phase kind; measure the
        last `seconds`. Returns the measurements as a dict."""
        self.reset()
        self.phase = kind
        for c in self.conns:
            self.act(c)
        t0 = time.perf_counter()
        w0 = t0 + WARMUP
        w1 = w0 + seconds
        now = t0
        by = Bystander(self.port, w0, w1)
        while now < w0:
            self.poll(w0 - now)
            now = time.perf_counter()
        s_cpu, c_cpu, m_cpu = proc_cpu(pid), proc_cpu(os.getpid()), \
            machine_cpu()
        start = time.perf_counter()
        self.counting = True
        while now < w1:
            self.poll(min(w1 - now, 0.05))
            now = time.perf_counter()
        self.counting = False
        wall = time.perf_counter() - start
        s_cpu = proc_cpu(pid) - s_cpu
        c_cpu = proc_cpu(os.getpid()) - c_cpu
        m_end = machine_cpu()
        self.phase = None
        stall = self.drain()
        by = by.result()
        lat = sorted(self.lat)
        return {
            "rate": self.n_ok / wall, "n": self.n_ok,
            "p50": percentile(lat, 50) * 1e3,
            "p99": percentile(lat, 99) * 1e3,
            "max": (lat[-1] if lat else 0) * 1e3,
            "server_cpu": s_cpu / wall, "client_cpu": c_cpu / wall,
            "machine_busy": machine_busy(m_cpu, m_end, wall),
            "server_cpu_per": s_cpu / self.n_ok if self.n_ok else 0,
            "games": self.games, "stall": stall,
            "pair_min": min(self.per_pair), "pair_max": max(self.per_pair),
            "pair_median": median(self.per_pair),
            "by_p50": by[0], "by_p99": by[1], "by_max": by[2],
        }

    def drain(self):
        """Wait for every outstanding reply, as long as replies keep coming
        (a slow disk under --sync full is slow, not stalled): the number
        still missing after WAIT seconds without one, or DRAIN_MAX in all
        (0 when all came)."""
        end = time.time() + DRAIN_MAX
        waiting = sum(1 for c in self.conns if c.busy)
        quiet_until = time.time() + WAIT
        while waiting and time.time() < min(end, quiet_until):
            self.poll(0.05)
            now_waiting = sum(1 for c in self.conns if c.busy)
            if now_waiting < waiting:
                quiet_until = time.time() + WAIT
            waiting = now_waiting
        if not waiting:
            self.poll(0.05)  # the events that follow the last replies
        return waiting


class Bystander:
    """This script again, as `--bystander PORT FROM UNTIL`: the times (p50,
    p99, max in ms) of its pings sent between FROM and UNTIL, in
    time.perf_counter() seconds (CLOCK_MONOTONIC, the same in every
    process)."""

    def __init__(self, port, start, end):
        self.proc = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "--bystander",
             str(port), repr(start), repr(end)], stdout=subprocess.PIPE,
            stdin=subprocess.DEVNULL)

    def result(self):
        """(p50, p99, max) in ms; (0, 0, 0) when it failed (it says why)."""
        try:
            out, _ = self.proc.communicate(timeout=DRAIN_MAX)
            return tuple(json.loads(out))
        except (subprocess.TimeoutExpired, ValueError):
            self.proc.kill()
            self.proc.wait()
            return (0.0, 0.0, 0.0)


def bystander_main(port, start, end):
    """The bystander process: print [p50, p99, max] of the times in ms of
    its pings sent between start and end, as JSON. It says no hello, so
    it may stay at most the server's --idle (60 s)."""
    lat = []
    with socket.create_connection(("127.0.0.1", port), WAIT) as s:
        s.settimeout(WAIT)
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        f = s.makefile("rwb")
        f.readline()
        while True:
            t = time.perf_counter()
            if t >= end:
                break
            f.write(PING)
            f.flush()
            if not f.readline():
                raise OSError("the server closed the bystander")
            if t >= start:
                lat.append(time.perf_counter() - t)
            time.sleep(BYSTANDER_PAUSE)
    lat.sort()
    print(json.dumps([percentile(lat, 50) * 1e3, percentile(lat, 99) * 1e3,
                      (lat[-1] if lat else 0) * 1e3]))
    return 0


def health(port, name):
    """None when a fresh client gets through hello and ping, else why not."""
    try:
        with socket.create_connection(("127.0.0.1", port), WAIT) as s:
            s.settimeout(WAIT)
            f = s.makefile("rwb")
            welcome = json.loads(f.readline())
            if welcome.get("event") != "welcome":
                return "no welcome: %r" % welcome
            for req in ({"cmd": "hello", "name": name}, {"cmd": "ping"}):
                f.write(json.dumps(req).encode() + b"\n")
                f.flush()
                while True:
                    m = json.loads(f.readline())
                    if "re" in m:
                        break
                if not m.get("ok"):
                    return "%s failed: %r" % (req["cmd"], m)
            return None
    except (OSError, ValueError) as e:
        return "%s: %s" % (type(e).__name__, e)


def fmt_runs(results, key, f="%.0f"):
    return " ".join(f % r[key] for r in results)


def bench_sync(a, sync):
    """Start a server with --sync sync, measure, stop it. True when the
    server behaved."""
    good = True
    tmp = tempfile.mkdtemp(prefix="tablero-load-")
    srv = Server(a.build, tmp, sync, 2 * a.pairs)
    load = None
    try:
        srv.start()
        pid = srv.proc.pid
        load = Load(srv.port, a.pairs, a.size, a.seed)
        t = time.time()
        load.setup()
        setup_s = time.time() - t
        rss0 = proc_rss(pid)
        t = time.perf_counter() + 0.5  # after the bystander has started
        by_idle = Bystander(srv.port, t, t + 0.5).result()[0]
        moves, pings, rss = [], [], []
        for _ in range(a.runs):
            pings.append(load.run_phase(PING_PHASE, a.seconds, pid))
            moves.append(load.run_phase(MOVE_PHASE, a.seconds, pid))
            rss.append(proc_rss(pid))
            if not srv.alive():
                break
        good = report(a, sync, load, moves, pings, setup_s, rss0, rss,
                      by_idle)
        sizes = ["%s %.1f MiB" % (os.path.basename(f), os.path.getsize(f) /
                                  1048576.0)
                 for f in (srv.db, srv.db + "-wal") if os.path.exists(f)]
        if sizes:
            print("load: data file after the load: %s" % ", ".join(sizes))
        if not srv.alive():
            print("load: tablerod DIED under load (exit %s)"
                  % srv.proc.poll())
            return False
        why = health(srv.port, "healthcheck")
        if why is None:
            print("load: after the load a fresh client still gets hello and"
                  " ping through")
        else:
            print("load: UNHEALTHY after the load: %s" % why)
            good = False
        t = time.time()
        rc = srv.stop()
        print("load: SIGTERM with %d clients connected: exit code %s after"
              " %.2f s" % (len(load.conns) - load.dropped, rc,
                           time.time() - t))
        good = good and rc == 0
        bad = [line for line in srv.log().splitlines()
               if re.search(r"\b(error|warn|warning)\b", line, re.I)]
        if bad:
            print("load: %d warnings/errors in the server log, first: %s"
                  % (len(bad), bad[0]))
        return good
    finally:
        if load is not None:
            load.close_all()
        if srv.alive():
            srv.proc.kill()
            srv.proc.wait(WAIT)
        shutil.rmtree(tmp, ignore_errors=True)


def report(a, sync, load, moves, pings, setup_s, rss0, rss, by_idle):
    """Print the lines for one server; True when nothing went wrong."""
    good = True
    mv = median([r["rate"] for r in moves])
    pg = median([r["rate"] for r in pings])
    print("load: %d connections, ataxx %dx%d, %s: median %.0f moves/s"
          " (runs: %s), p50 %.1f ms, p99 %.1f ms, max %.1f ms; ping baseline"
          " median %.0f/s (runs: %s), p50 %.1f ms, p99 %.1f ms; moves/pings"
          " %.2f; server cpu %.0f us/move, %.0f us/ping"
          % (2 * a.pairs, a.size, a.size, "db :memory:" if sync == "memory"
             else "sync " + sync, mv, fmt_runs(moves, "rate"),
             median([r["p50"] for r in moves]),
             median([r["p99"] for r in moves]),
             max(r["max"] for r in moves), pg, fmt_runs(pings, "rate"),
             median([r["p50"] for r in pings]),
             median([r["p99"] for r in pings]),
             mv / pg if pg else 0,
             median([r["server_cpu_per"] for r in moves]) * 1e6,
             median([r["server_cpu_per"] for r in pings]) * 1e6))
    print("load: setup (%d logins, %d rooms) %.1f s; %d games finished in the"
          " measured move time; moves per pair and run: min %d, median %d,"
          " max %d" % (2 * a.pairs, a.pairs, setup_s,
                       sum(r["games"] for r in moves),
                       min(r["pair_min"] for r in moves),
                       median([r["pair_median"] for r in moves]),
                       max(r["pair_max"] for r in moves)))
    print("load: a bystander (no room) pinging every %.0f ms waits p50 %.1f"
          " ms, p99 %.1f ms, max %.1f ms during the moves, p50 %.1f ms"
          " during the pings (%.2f ms alone)"
          % (BYSTANDER_PAUSE * 1e3, median([r["by_p50"] for r in moves]),
             median([r["by_p99"] for r in moves]),
             max(r["by_max"] for r in moves),
             median([r["by_p50"] for r in pings]), by_idle))
    for name, rs in (("moves", moves), ("pings", pings)):
        sc = median([r["server_cpu"] for r in rs])
        cc = median([r["client_cpu"] for r in rs])
        mb = median([r["machine_busy"] for r in rs])
        line = ("load: cpu during %s: server %.0f%% of a core, load"
                " generator %.0f%%, machine %.0f%% busy (%d cores)"
                % (name, sc * 100, cc * 100, mb * 100, os.cpu_count() or 0))
        others = mb * (os.cpu_count() or 1) - sc - cc
        if others > 0.25:
            line += ("; other processes used about %.0f%% of a core, so"
                     " the numbers are noisy" % (others * 100))
        if cc > sc:
            line += ("; the load generator used more CPU than the server:"
                     " it is the bottleneck, the %s rate is a lower bound"
                     % name)
        print(line)
    saturated = median([r["machine_busy"] for r in moves + pings])
    per_move = median([r["server_cpu_per"] for r in moves])
    per_ping = median([r["server_cpu_per"] for r in pings])
    if per_move > 0 and per_ping > 0:
        print("load: at the server's cpu cost, one core of its own would"
              " carry about %.0f moves/s or %.0f pings/s%s"
              % (1 / per_move, 1 / per_ping,
                 "; the machine was saturated (%.0f%% busy), so the rates"
                 " above are what the server got of the CPU left, not its"
                 " capacity" % (saturated * 100) if saturated > 0.95
                 else ""))
    print("load: server rss %.1f MiB after setup, after each run: %s MiB"
          % (rss0 / 1024, " ".join("%.1f" % (x / 1024) for x in rss)))
    stalls = sum(r["stall"] for r in moves + pings)
    if stalls:
        print("load: STALL: %d requests got no reply within %.0f s" %
              (stalls, WAIT))
        good = False
    stuck = [r["pair_min"] for r in moves if r["pair_min"] == 0]
    if stuck:
        print("load: STUCK: in %d of %d runs some room made no move at all"
              % (len(stuck), len(moves)))
        good = False
    if load.errors:
        print("load: ERROR replies: %s" % ", ".join(
            "%s x%d" % kv for kv in sorted(load.errors.items())))
        good = False
    if load.dropped:
        print("load: the server DROPPED %d connections" % load.dropped)
        good = False
    if len(moves) < a.runs:
        good = False
    return good


def raise_fd_limit(need):
    """Make sure this process and the server (which inherits it) may open
    need files; False when the hard limit is lower."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < need:
        if hard != resource.RLIM_INFINITY and hard < need:
            return False
        resource.setrlimit(resource.RLIMIT_NOFILE, (need, hard))
    return True


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--bystander":
        return bystander_main(int(sys.argv[2]), float(sys.argv[3]),
                              float(sys.argv[4]))
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--build", default="build")
    p.add_argument("--pairs", type=int, default=250,
                   help="client pairs, one room each (default 250)")
    p.add_argument("--seconds", type=float, default=5.0,
                   help="measured seconds per phase and run, at most 50"
                   " (default 5)")
    p.add_argument("--runs", type=int, default=3, help="runs (default 3)")
    p.add_argument("--size", type=int, default=7,
                   help="Ataxx board side (default 7)")
    p.add_argument("--sync", default="normal,full",
                   help="comma-separated SQLite synchronous modes, one"
                   " server each: normal, full, or memory for --db :memory:"
                   " as a baseline without a data file (default normal,full)")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    # Phases stay under the server's 60 s before hello (the bystander).
    if not 1 <= a.pairs <= 4000 or not 0 < a.seconds <= 50 or \
            not 1 <= a.runs <= 20 or not 5 <= a.size <= 9:
        p.error("--pairs 1..4000, --seconds up to 50, --runs 1..20,"
                " --size 5..9")
    syncs = [s for s in a.sync.split(",") if s]
    if not syncs or any(s not in ("normal", "full", "memory")
                        for s in syncs):
        p.error("--sync takes normal, full and/or memory")
    if not os.access(os.path.join(a.build, "tablerod"), os.X_OK):
        print("load: no %s/tablerod; run make first" % a.build,
              file=sys.stderr)
        return 1
    if not raise_fd_limit(2 * a.pairs + FD_SPARE):
        print("load: %d pairs need %d open files, the hard limit is %d"
              % (a.pairs, 2 * a.pairs + FD_SPARE,
                 resource.getrlimit(resource.RLIMIT_NOFILE)[1]),
              file=sys.stderr)
        return 1
    # The last resort against a hang: everything above is bounded, so this
    # only fires on a bug; the finally blocks still stop the server.
    budget = len(syncs) * (SETUP_WAIT + a.runs * 2 *
                           (a.seconds + WARMUP + DRAIN_MAX) + 4 * WAIT) + 30
    signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(
        TimeoutError("load.py ran over its %d s budget" % budget)))
    signal.alarm(int(budget))
    good = True
    for sync in syncs:
        try:
            good = bench_sync(a, sync) and good
        except (RuntimeError, OSError, ValueError) as e:
            print("load: sync %s: FAILED: %s" % (sync, e))
            good = False
        sys.stdout.flush()
    signal.alarm(0)
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
