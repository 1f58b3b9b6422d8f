"""cluster_lib.py: what the cluster tests share (issue 19).

Several tablerod nodes (processes this test owns by PID) against one
PostgreSQL database and one Redis, behind HAProxy: the services of
contrib/clustertest.sh (TABLERO_TEST_PG, TABLERO_TEST_REDIS,
TABLERO_TEST_HAPROXY, TABLERO_TEST_NODE_PORTS), or, for the tests that
restart Redis, a redis-server of the test's own. A node has joined when its
log says "cluster: ready node=ID". A small Redis client (RESP over a
socket) and PostgreSQL through harness's psql helpers let the tests look
at what the cluster stored. Standard library only; not a test itself.

CLUSTER_LIB_SINGLE=1 (to try a test's own logic, never in CI): one plain
node without --redis stands for every node, so that what a test checks
beyond the cluster can be tried on a build without it.
"""

import atexit
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "blackbox"))
import harness  # noqa: E402
from harness import WAIT, Checks, Client, free_port  # noqa: E402,F401
import games_lib  # noqa: E402,F401
from games_lib import FAST  # noqa: E402

# Every node's lease on a room lasts this long without renewal
# (docs/SCALING.md part 3, "Interface for ops": leases live 6 s).
LEASE = 6.0
# The bound on failover: a dead node's rooms are taken by the
# survivors within this many seconds.
FAILOVER = 15.0
# How long HAProxy takes to see a node come or go: two checks of
# contrib/clustertest.sh's 300 ms, with room for a loaded machine.
BALANCE = 2.0

# One plain node stands for them all (see the top).
SINGLE = os.environ.get("CLUSTER_LIB_SINGLE") == "1"

# Every node and Redis this process started, so that none outlives a test
# that stopped on an exception.
STARTED = []


def env(name):
    """A variable contrib/clustertest.sh sets; stops the test clearly
    when it is missing (the test was run outside make cluster-test)."""
    v = os.environ.get(name)
    if not v:
        print("%s is not set: run the cluster tests with make cluster-test "
              "(contrib/clustertest.sh)" % name, flush=True)
        print("0 passed, 1 failed", flush=True)
        sys.exit(1)
    return v


def proxy_from():
    """--proxy-from for a node behind clustertest.sh's HAProxy (which
    sends the PROXY protocol, contrib/haproxy-tablero.cfg)."""
    return ["--proxy-from", env("TABLERO_TEST_PROXY_FROM")]


def hostport(addr):
    host, port = addr.rsplit(":", 1)
    return host, int(port)


class Redis:
    """A minimal Redis client: one command at a time, replies parsed."""

    def __init__(self, addr):
        self.addr = addr
        self.sock = socket.create_connection(hostport(addr), WAIT)
        self.sock.settimeout(WAIT)
        self.buf = b""

    def close(self):
        self.sock.close()

    def _line(self):
        while b"\r\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("redis closed the connection")
            self.buf += chunk
        out, self.buf = self.buf.split(b"\r\n", 1)
        return out

    def _bytes(self, n):
        while len(self.buf) < n + 2:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("redis closed the connection")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n + 2:]
        return out

    def _reply(self):
        line = self._line()
        kind, rest = line[:1], line[1:]
        if kind == b"+":
            return rest.decode()
        if kind == b"-":
            raise RuntimeError("redis: " + rest.decode())
        if kind == b":":
            return int(rest)
        if kind == b"$":
            n = int(rest)
            return None if n < 0 else self._bytes(n).decode("utf-8",
                                                            "replace")
        if kind == b"*":
            n = int(rest)
            return None if n < 0 else [self._reply() for _ in range(n)]
        raise RuntimeError("redis: unexpected reply %r" % line)

    def cmd(self, *args):
        out = b"*%d\r\n" % len(args)
        for a in args:
            a = a if isinstance(a, bytes) else str(a).encode()
            out += b"$%d\r\n%s\r\n" % (len(a), a)
        self.sock.sendall(out)
        return self._reply()


def redis_cmd(addr, *args):
    """One command on a fresh connection; its reply."""
    r = Redis(addr)
    try:
        return r.cmd(*args)
    finally:
        r.close()


def wait_port(port, proc=None, timeout=WAIT):
    """Until 127.0.0.1:port accepts (proc, when given, still running)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc is not None and proc.poll() is not None:
            return False
        try:
            socket.create_connection(("127.0.0.1", port), 1).close()
            return True
        except OSError:
            time.sleep(0.05)
    return False


class OwnRedis:
    """A redis-server of this test's own, on a free loopback port that
    stays the same across restarts, no persistence: restarted, it is
    empty, as after a Redis failover that lost everything."""

    def __init__(self):
        self.bin = os.environ.get("TABLERO_TEST_REDIS_BIN", "redis-server")
        self.dir = tempfile.mkdtemp(prefix="tablero-redis-")
        self.port = free_port()
        self.addr = "127.0.0.1:%d" % self.port
        self.proc = None
        STARTED.append(self)

    def start(self):
        self.proc = subprocess.Popen(
            [self.bin, "--port", str(self.port), "--bind", "127.0.0.1",
             "--dir", self.dir, "--save", "", "--appendonly", "no",
             "--daemonize", "no", "--logfile",
             os.path.join(self.dir, "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if not wait_port(self.port, self.proc):
            raise RuntimeError("redis-server did not start on %d" %
                               self.port)
        return self

    def stop(self, sig=signal.SIGKILL):
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        self.proc.wait(WAIT)
        self.proc = None

    def cleanup(self):
        self.stop()
        subprocess.run(["rm", "-rf", self.dir], check=False)


class Node(harness.Server):
    """One tablerod node of the cluster: --db the cluster's database,
    --redis, --node ID, on a given port (one HAProxy balances over) or a
    free one. start() returns once the node says it joined."""

    def __init__(self, build, node_id, db, redis, port=0, extra=(),
                 env=None):
        flags = [] if SINGLE else ["--redis", redis, "--node", node_id]
        super().__init__(build, db=db, db_as_is=True, port=port,
                         extra=FAST + flags + list(extra), env=env)
        self.node_id = node_id
        STARTED.append(self)

    def start(self):
        super().start()
        if not self.ready():
            text = self.logtext()
            self.stop(signal.SIGKILL)
            raise RuntimeError("node %s did not join the cluster: %s" %
                               (self.node_id, text[-3000:]))
        return self

    def ready(self, timeout=WAIT):
        """Does the log come to say the node joined (bounded wait)?"""
        mark = "cluster: ready node=%s" % self.node_id
        if SINGLE:
            return True
        deadline = time.time() + timeout
        while time.time() < deadline:
            if mark in self.logtext():
                return True
            if self.proc is None or self.proc.poll() is not None:
                return False
            time.sleep(0.05)
        return mark in self.logtext()

    def pause(self):
        os.kill(self.proc.pid, signal.SIGSTOP)

    def resume(self):
        os.kill(self.proc.pid, signal.SIGCONT)

    def kill(self):
        """kill -9: the node dies with whatever it had in flight."""
        return self.stop(signal.SIGKILL)

    def cleanup(self):
        if self.proc is not None:
            try:
                os.kill(self.proc.pid, signal.SIGCONT)
            except OSError:
                pass
            self.stop(signal.SIGKILL)
        try:
            os.unlink(self.log.name)
        except OSError:
            pass


@atexit.register
def _stop_leftovers():
    for s in STARTED:
        try:
            s.cleanup()
        except Exception:  # noqa: BLE001 (best effort at exit)
            pass


class Cluster:
    """N nodes sharing a fresh PostgreSQL database (or db, a URL) and a
    Redis (the shared one, emptied first, or own=True: one of the test's
    own that it may restart). Node i (from 0) listens on the i-th port
    HAProxy balances over, so .front reaches them all; node_env: {i:
    variables} for node i's environment (e.g. a store fault file)."""

    def __init__(self, build, n, own_redis=False, extra=(), node_env=None,
                 db=None):
        self.build = build
        self.node_env = dict(node_env or {})
        self.db = db or harness.pg_fresh()
        if own_redis:
            self.redis = OwnRedis().start()
            self.redis_addr = self.redis.addr
        else:
            self.redis = None
            self.redis_addr = env("TABLERO_TEST_REDIS")
            redis_cmd(self.redis_addr, "FLUSHALL")
        self.front = hostport(env("TABLERO_TEST_HAPROXY"))[1]
        self.ports = [int(p) for p in
                      env("TABLERO_TEST_NODE_PORTS").split()]
        self.extra = list(extra)
        # Each node's web port behind HAProxy's web front end (clustertest.sh).
        self.web_ports = [int(p) for p in os.environ.get(
            "TABLERO_TEST_WEB_PORTS", "").split()]
        web = os.environ.get("TABLERO_TEST_HAPROXY_WEB")
        self.web_front = hostport(web)[1] if web else None
        self.nodes = []
        for i in range(1 if SINGLE else n):
            self.nodes.append(self.start_node(i))
        wait_front(self.front)
        if not SINGLE and not wait_balanced(len(self.nodes)):
            raise RuntimeError("HAProxy did not take every node: %r" %
                               haproxy_status())

    def start_node(self, i):
        """Start node i (again, after a kill): node id n{i+1}, trusting
        HAProxy's PROXY headers (its connections come from
        TABLERO_TEST_PROXY_FROM; the tests' own, from elsewhere, stay
        plain)."""
        web = (["--web-port", str(self.web_ports[i])]
               if i < len(self.web_ports) else [])
        web += proxy_from()
        node = Node(self.build, "n%d" % (i + 1), self.db, self.redis_addr,
                    port=self.ports[i], extra=self.extra + web,
                    env=self.node_env.get(i))
        node.start()
        if i < len(self.nodes):
            self.nodes[i] = node
            wait_balanced(i + 1, only=i)
        return node

    def port(self, i):
        return self.nodes[0 if SINGLE else i].port

    def rows(self, sql):
        """Rows of sql on the cluster's database (fields as strings)."""
        return harness.store_rows(self.db, sql)

    def stored_moves(self, room):
        """The moves PostgreSQL holds for room: (game_no, ply, move)."""
        return [(int(g), int(p), m) for g, p, m in self.rows(
            "SELECT game_no, ply, move FROM moves WHERE room = '%s' "
            "ORDER BY game_no, ply" % room.replace("'", "''"))]

    def stored_games(self, room):
        """Every move PostgreSQL holds for room, game after game: the
        moves table's for the games still there, else the kept game's
        (a finished room leaving memory deletes its row and moves; its
        kept games stay in the games table)."""
        live, kept = {}, {}
        for g, _, m in self.stored_moves(room):
            live.setdefault(g, []).append(m)
        for g, ms in self.rows(
                "SELECT game_no, string_agg(x->>'move', ' ' ORDER BY n) "
                "FROM games, json_array_elements(moves::json) WITH "
                "ORDINALITY AS t(x, n) WHERE room = '%s' GROUP BY game_no"
                % room.replace("'", "''")):
            kept[int(g)] = (ms or "").split()
        out = []
        for g in sorted(set(live) | set(kept)):
            out += live.get(g, kept.get(g, []))
        return out

    def stop(self):
        for node in self.nodes:
            node.cleanup()
        if self.redis is not None:
            self.redis.cleanup()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def wait_front(port, timeout=WAIT):
    """Until HAProxy's front end answers a ping through some node."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            c = Client(port)
            r = c.call("ping")
            c.close()
            if r and r.get("pong") is True:
                return True
        except (OSError, ValueError, TimeoutError):
            pass
        time.sleep(0.1)
    return False


def haproxy_status():
    """{server name: status} from HAProxy's admin socket ("UP", "DOWN",
    ...); {} when there is none."""
    path = os.environ.get("TABLERO_TEST_HAPROXY_SOCK")
    if not path:
        return {}
    try:
        s = socket.socket(socket.AF_UNIX)
        s.settimeout(WAIT)
        s.connect(path)
        s.sendall(b"show stat\n")
        out = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            out += chunk
        s.close()
    except OSError:
        return {}
    lines = out.decode().splitlines()
    if not lines or not lines[0].startswith("# "):
        return {}
    head = lines[0][2:].split(",")
    col = {k: i for i, k in enumerate(head)}
    st = {}
    for line in lines[1:]:
        f = line.split(",")
        if len(f) > col["status"] and f[col["svname"]].startswith("node"):
            st[f[col["svname"]]] = f[col["status"]]
    return st


def wait_balanced(n, only=None, timeout=WAIT):
    """Until HAProxy has node1..node{n} (or node{only+1} alone) in its
    rotation, so that connections through it spread over them all."""
    names = ["node%d" % (i + 1) for i in range(n)
             if only is None or i == only]
    if not os.environ.get("TABLERO_TEST_HAPROXY_SOCK"):
        time.sleep(BALANCE)
        return True
    deadline = time.time() + timeout
    while time.time() < deadline:
        st = haproxy_status()
        if all(st.get(x, "").startswith("UP") for x in names):
            return True
        time.sleep(0.1)
    return False


def relogin(port, name, token, timeout=FAILOVER):
    """A games_lib login of name with its token through port (HAProxy),
    retried until a node takes it (bounded): what a client does after its
    node died. None when none did in time."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            c = games_lib.login(port, name, token)
            if c.hello and c.hello.get("ok"):
                return c
            c.close()
        except (OSError, ValueError, TimeoutError, AttributeError):
            pass
        time.sleep(0.2)
    return None


def stale_reply(c, verb, goodbyes):
    """What a stale node's connection gets for its request of verb:
    ("ok", reply), ("error", reply), ("told", event: one of goodbyes) or
    ("closed", None), reading (bounded: a lease and more) until one of
    these; ("silent", None) else."""
    deadline = time.time() + WAIT + LEASE
    while time.time() < deadline:
        try:
            m = c.read(max(0.01, deadline - time.time()))
        except (TimeoutError, OSError):
            return ("silent", None)
        except ValueError:
            continue
        if m is None:
            return ("closed", None)
        if m.get("re") == verb:
            return ("ok" if m.get("ok") else "error", m)
        if m.get("event") in goodbyes:
            return ("told", m)
    return ("silent", None)


def seat_of(state, name):
    """The seat name sits in, in a room's state."""
    return next(s["seat"] for s in state["seats"] if s["name"] == name)


def history(c, room):
    """The moves of room's state as c's node serves it, or None (no
    answer, an error, or a connection lost to a dead node)."""
    try:
        r = games_lib.req(c, "state", room=room)
    except (OSError, TimeoutError, ValueError):
        return None
    if not r or not r.get("ok"):
        return None
    return [h["move"] for h in r["state"]["history"]]


def ataxx_room(ck, tag, pa, pb):
    """pa (on node 1) creates an Ataxx 5x5 room and pb (on node 2) joins
    it: two checks; the room's id."""
    r = games_lib.req(pa, "create", game="ataxx", options={"size": 5})
    ck.ok(r and r.get("ok"), "%s: create on node 1: %r" % (tag, r))
    room = r["room"]
    ck.ok(games_lib.req(pb, "join", room=room).get("ok"),
          "%s: join from node 2" % tag)
    return room


def retry(fn, timeout=FAILOVER, pause=0.2):
    """fn() until it returns something true (bounded); its last value."""
    deadline = time.time() + timeout
    v = fn()
    while not v and time.time() < deadline:
        time.sleep(pause)
        v = fn()
    return v


def main(run):
    """A cluster test's main: run(ck, args) then the count line (an
    exception, e.g. a reply without the field a step needs, counts as one
    failure after those already counted)."""
    a = harness.args()
    ck = Checks()
    env("TABLERO_TEST_PG")
    try:
        run(ck, a)
    except Exception:  # noqa: BLE001 (a failure to count, not a crash)
        traceback.print_exc()
        ck.ok(False, "the test stopped on an exception (above)")
    finally:
        _stop_leftovers()
    ck.done()
