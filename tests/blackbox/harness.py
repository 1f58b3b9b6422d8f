"""harness.py: what every black-box test of tablerod shares.

Starts the real tablerod on a free loopback port (port 0, read back from its
log), talks to it over real sockets with bounded waits, counts checks, and
ends with the line "N passed, M failed". Standard library only.

With TABLERO_TEST_PG set to a PostgreSQL URL (contrib/pgtest.sh run sets
it), every server stores in PostgreSQL instead: a fresh database per
":memory:" server, and one database per data file path, so that a server
started again on the same path (after kill -9 or SIGTERM) finds what the
last one stored. Tests of SQLite's file itself ask sqlite_only().
"""

import argparse
import itertools
import json
import os
import random
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.parse

# Every wait on the server is bounded by this many seconds.
WAIT = 10.0

# The rules against rating farms (issue 30: a game between two people is
# rated only when both names are a day old with five rated games, from
# two addresses) lifted: every test's players are made a moment before
# on one loopback address, and the tests of ratings, seeks, tournaments
# and the rest play rated games between them. A Server made with
# rating_rules=True keeps the server's defaults (test_farm_ratings.py).
RATING_RULES_OFF = ["--rated-min-age", "0", "--rated-min-games", "0",
                    "--rated-same-address"]
# Builds asked whether they have those rules (an older build, run to see
# a new test fail, has not): path -> bool.
_has_rating_rules = {}


def has_rating_rules(build):
    """Does build's tablerod take the rating rules' flags?"""
    if build not in _has_rating_rules:
        out = subprocess.run([os.path.join(build, "tablerod"), "--help"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             timeout=WAIT, check=False).stdout
        _has_rating_rules[build] = b"--rated-min-age" in out
    return _has_rating_rules[build]

# Sanitizer reports found in the logs (stderr) of stopped servers: a build
# with ASan/UBSan/TSan writes them there; Checks.done() fails on any.
SANITIZER_REPORTS = []

SANITIZER_MARKS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer",
                   "runtime error:", "WARNING: ThreadSanitizer",
                   "ThreadSanitizer: reported")


def scan_sanitizer(text):
    """Record (and print) the first report of each kind in a log."""
    for mark in SANITIZER_MARKS:
        i = text.find(mark)
        if i >= 0:
            SANITIZER_REPORTS.append(text[max(0, i - 200):i + 3000])
            print(text[max(0, i - 200):i + 3000], flush=True)


class Checks:
    """Counts checks; prints failures as they happen."""

    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.skipped = None

    def ok(self, cond, what):
        if cond:
            self.passed += 1
        else:
            self.failed += 1
            print("FAIL", what, flush=True)
        return cond

    def eq(self, got, want, what):
        return self.ok(got == want, "%s: got %r, want %r" % (what, got, want))

    def skip(self, why):
        """The test does not apply here (why, printed): done() then
        passes without a check of the test's own."""
        print("skipped: %s" % why, flush=True)
        self.skipped = why

    def done(self):
        # A test that made no check (a loop that never ran, a part that
        # returned early) fails, unless it said why it skipped.
        if self.skipped is None:
            self.ok(self.passed + self.failed > 0,
                    "the test made at least one check")
        self.eq(len(SANITIZER_REPORTS), 0,
                "no sanitizer report in the tablerod logs")
        print("%d passed, %d failed" % (self.passed, self.failed), flush=True)
        sys.exit(0 if self.failed == 0 else 1)


def is_error(chk, rep, code, what, words=None):
    """Check that rep is an error reply with this code (and, when given,
    a message holding each of words)."""
    if not chk.ok(rep is not None and rep.get("ok") is False,
                  "%s: want error %s, got %.300r" % (what, code, rep)):
        return False
    good = chk.eq(rep.get("error"), code, what + ": error code")
    msg = rep.get("message")
    chk.ok(isinstance(msg, str) and msg != "",
           what + ": error has a message: %r" % (rep,))
    for w in words or []:
        good = chk.ok(isinstance(msg, str) and w in msg,
                      "%s: message %r names %r" % (what, msg, w)) and good
    return good


def is_ok(chk, rep, what):
    """Check that rep is an ok reply."""
    return chk.ok(rep is not None and rep.get("ok") is True,
                  "%s: want ok, got %.300r" % (what, rep))


# The PostgreSQL server the tests store in, or None: SQLite files.
PG = os.environ.get("TABLERO_TEST_PG") or None
# Databases made so far by this process, by data file path.
_pg_dbs = {}
_pg_count = itertools.count(1)


def pg_url(name):
    """The URL of database name on PG's server."""
    u = urllib.parse.urlsplit(PG)
    return urllib.parse.urlunsplit(u._replace(path="/" + name))


def pg_sql(sql, db=None):
    """Run sql with psql on PG (on database db, a URL, when given);
    its output, rows one a line with fields separated by '|'."""
    out = subprocess.run(["psql", db or PG, "-X", "-q", "-A", "-t",
                          "-v", "ON_ERROR_STOP=1", "-c", sql],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         timeout=WAIT, check=False)
    if out.returncode != 0:
        raise RuntimeError("psql: %s: %s" % (sql, out.stderr.decode()))
    return out.stdout.decode()


def store_url(db):
    """What --db gets for a test's db: db itself without PG; with PG, a
    fresh database for ":memory:" and the same one for the same path."""
    if PG is None or db.startswith("postgresql:"):
        return db
    if db != ":memory:" and db in _pg_dbs:
        return _pg_dbs[db]
    name = "t%d_%d_%d" % (os.getpid(), int(time.time()), next(_pg_count))
    pg_sql("CREATE DATABASE " + name)
    url = pg_url(name)
    if db != ":memory:":
        _pg_dbs[db] = url
    return url


def store_bytes(db):
    """Everything the store for db holds, as bytes: the data file and its
    WAL, or with PG a data-only dump of its database."""
    if PG is not None:
        out = subprocess.run(["pg_dump", "--data-only", store_url(db)],
                             stdout=subprocess.PIPE, timeout=WAIT,
                             check=True)
        return out.stdout
    raw = b""
    for p in (db, db + "-wal"):
        if os.path.exists(p):
            with open(p, "rb") as f:
                raw += f.read()
    return raw


def store_exec(db, sql, pg=None):
    """Run sql (statements separated by ';') on the store the tests'
    servers use for db, as another program would: the SQLite file, or
    with PG its database (pg, when given, is PostgreSQL's dialect)."""
    if PG is not None:
        pg_sql(pg if pg is not None else sql, store_url(db))
        return
    con = sqlite3.connect(db)
    con.executescript(sql)
    con.commit()
    con.close()


def store_rows(db, sql):
    """The rows of query sql on db's store, each a tuple of its fields
    (with PG all strings); None for NULL."""
    if PG is None:
        con = sqlite3.connect(db)
        rows = con.execute(sql).fetchall()
        con.close()
        return rows
    out = subprocess.run(["psql", store_url(db), "-X", "-q", "-A", "-t",
                          "-P", "null=\\N", "-c", sql],
                         stdout=subprocess.PIPE, timeout=WAIT, check=True)
    return [tuple(None if f == "\\N" else f for f in line.split("|"))
            for line in out.stdout.decode().splitlines()]


def pg_fresh():
    """The URL of a new, empty database on PG."""
    return store_url(":memory:")


def sqlite_only(chk, what):
    """True when the tests store in SQLite files; else says that `what`
    (a test of SQLite's file itself) does not apply, and False."""
    if PG is None:
        return True
    print("skipped with PostgreSQL (SQLite's file only): %s" % what,
          flush=True)
    return False


def run_parts(chk, parts, *rest):
    """Each of parts(chk, *rest) in turn: an exception in one is one
    failure and the next still runs. BB_TIMES=1 prints each one's
    seconds."""
    for t in parts:
        try:
            t0 = time.time()
            t(chk, *rest)
            if os.environ.get("BB_TIMES"):
                print("%s %.2f s" % (t.__name__, time.time() - t0))
        except Exception as e:  # a crash in one test is one failure
            chk.ok(False, "%s raised %r" % (t.__name__, e))


def stopped_cleanly(chk, srv):
    """Two checks: the server still runs, and exits 0 on SIGTERM."""
    chk.ok(srv.proc.poll() is None, "server still running")
    t0 = time.time()
    good = chk.eq(srv.stop(), 0, "server exits 0 on SIGTERM")
    if os.environ.get("BB_TIMES"):
        print("stop %.2f s" % (time.time() - t0))
    return good


def free_port():
    """A loopback port free now, for a server that must be told its port:
    outside the kernel's ephemeral range (ip_local_port_range), where an
    outgoing connection (any test's, running at once) could take it
    before the server binds it, and at random among the others."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            lo, hi = (int(x) for x in f.read().split())
    except (OSError, ValueError):
        lo, hi = 32768, 60999
    pool = [p for p in range(10000 if lo > 20000 else 1024, 65536)
            if p < lo or p > hi]
    # SystemRandom: a test that seeds the module does not fix the pick
    pick = random.SystemRandom().sample(pool, min(len(pool), 1000))
    for port in pick + [0]:
        s = socket.socket()
        try:
            s.bind(("127.0.0.1", port))
            return s.getsockname()[1]
        except OSError:
            continue
        finally:
            s.close()
    raise RuntimeError("no free loopback port")


def args():
    """The command line every test takes: --build DIR."""
    p = argparse.ArgumentParser()
    p.add_argument("--build", default="build")
    a, _ = p.parse_known_args()
    return a


class Server:
    """A tablerod process on 127.0.0.1 and a free port."""

    def __init__(self, build, db=":memory:", extra=(), port=0,
                 preexec=None, db_as_is=False, env=None,
                 rating_rules=False):
        self.build = build
        self.env = env  # variables added to the test's own (or None)
        self.rating_rules = rating_rules  # the rating rules as deployed
        self.db_as_is = db_as_is  # db goes to --db unmapped (store_url)
        self.preexec = preexec  # run in the child before exec (limits)
        self.db = db
        self.extra = list(extra)
        self.proc = None
        self.port = port
        self.log = tempfile.NamedTemporaryFile(
            prefix="tablerod-", suffix=".log", delete=False)

    def start(self):
        cmd = [os.path.join(self.build, "tablerod"), "--listen", "127.0.0.1",
               "--port", str(self.port), "--db",
               self.db if self.db_as_is else store_url(self.db),
               "--bot-delay", "0",
               "--bot-pace", "0",
               "--log-level", "debug"] + (
                   RATING_RULES_OFF if not self.rating_rules and
                   has_rating_rules(self.build) else []) + self.extra
        env = None
        if self.env:
            env = dict(os.environ)
            env.update(self.env)
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                                     stderr=self.log, env=env,
                                     preexec_fn=self.preexec)
        deadline = time.time() + WAIT
        while time.time() < deadline:
            m = re.search(r"listening on 127\.0\.0\.1:(\d+)", self.logtext())
            if m:
                self.port = int(m.group(1))
                return self
            if self.proc.poll() is not None:
                raise RuntimeError("tablerod exited: " + self.logtext())
            time.sleep(0.02)
        raise RuntimeError("tablerod did not start: " + self.logtext())

    def logtext(self):
        with open(self.log.name, "r", errors="replace") as f:
            return f.read()

    def stop(self, sig=signal.SIGTERM):
        """Stop it (TERM by default, KILL for a crash); its exit code."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            rc = self.proc.wait(WAIT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rc = self.proc.wait(WAIT)
        self.proc = None
        try:
            scan_sanitizer(self.logtext())
        except OSError:
            pass
        return rc

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        os.unlink(self.log.name)


class Client:
    """One connection: send lines or JSON, read lines, events and replies."""

    def __init__(self, port, welcome=True):
        self.sock = socket.create_connection(("127.0.0.1", port), WAIT)
        self.sock.settimeout(WAIT)
        self.buf = b""
        self.pending = []  # JSON messages read but not yet asked for
        self.next_id = 1
        if welcome:
            self.welcome = self.json()

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass

    def raw(self, data):
        self.sock.sendall(data if isinstance(data, bytes) else data.encode())

    def line(self, timeout=WAIT):
        """The next line (text), or None when the server closed."""
        deadline = time.time() + timeout
        while b"\n" not in self.buf:
            left = deadline - time.time()
            if left <= 0:
                raise TimeoutError("no line within %.1f s" % timeout)
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except ConnectionResetError:
                chunk = b""
            if not chunk:
                if self.buf:
                    out, self.buf = self.buf, b""
                    return out.decode("utf-8", "replace")
                return None
            self.buf += chunk
        out, self.buf = self.buf.split(b"\n", 1)
        return out.decode("utf-8", "replace")

    def read(self, timeout=WAIT):
        """The next message off the socket, as a dict (None when
        closed), ignoring pending."""
        text = self.line(timeout)
        return None if text is None else json.loads(text)

    def json(self, timeout=WAIT):
        """The next message, pending ones first (None when closed)."""
        if self.pending:
            return self.pending.pop(0)
        return self.read(timeout)

    def send(self, cmd, **fields):
        """Send a JSON request with a fresh id; return that id."""
        fields["cmd"] = cmd
        fields.setdefault("id", self.next_id)
        self.next_id += 1
        self.raw(json.dumps(fields) + "\n")
        return fields["id"]

    def reply(self, rid=None, timeout=WAIT):
        """The reply (to rid, when given); events before it wait in
        pending for event()."""
        for i, m in enumerate(self.pending):
            if "re" in m and (rid is None or m.get("id") == rid):
                return self.pending.pop(i)
        skipped = []
        deadline = time.time() + timeout
        while True:
            m = self.read(max(0.01, deadline - time.time()))
            if m is None:
                self.pending = self.pending + skipped
                return None
            if "re" in m and (rid is None or m.get("id") == rid):
                self.pending = self.pending + skipped
                return m
            skipped.append(m)

    def call(self, cmd, **fields):
        """Send a request and return its reply."""
        return self.reply(self.send(cmd, **fields))

    def event(self, name=None, timeout=WAIT):
        """The next event (named name, skipping others), or None."""
        deadline = time.time() + timeout
        while True:
            for i, m in enumerate(self.pending):
                if "event" in m and (name is None or m["event"] == name):
                    return self.pending.pop(i)
            left = deadline - time.time()
            if left <= 0:
                return None
            try:
                m = self.read(left)
            except TimeoutError:
                return None
            if m is None:
                return None
            self.pending.append(m)

    def drain(self, quiet=0.2):
        """Everything that arrives until the line is quiet."""
        out = list(self.pending)
        self.pending = []
        while True:
            try:
                m = self.json(quiet)
            except TimeoutError:
                return out
            if m is None:
                return out
            out.append(m)


def login(port, name):
    """A client logged in as name (JSON mode); its token in .token."""
    c = Client(port)
    r = c.call("hello", name=name)
    c.token = r.get("token") if r else None
    return c
