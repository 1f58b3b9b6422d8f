"""chaos_lib.py: what the cluster's fault tests share (issue 29).

A Duel is one two-player game between clients on two nodes whose every
message is recorded: the moves acknowledged to their players, the events
seen, and the replies per request id. Its moves are played with retries
on the errors a client is told to retry (not_ready, store_failing), a
connection the cluster told to reconnect is replaced by a new one with
the player's token, as the clients do, and its checks are the suite's:
nothing acknowledged is lost (PostgreSQL and the room's history hold every
acknowledged move, in order), nobody acts in another's seat (every moved
event names the seat's own player), every request got exactly one reply,
and no game ended by abandonment (no grace_over, no claim won) that a
player did not cause. Standard library only; not a test itself.
"""

import os
import select
import socket
import subprocess
import threading
import time

import cluster_lib
from cluster_lib import WAIT, relogin, seat_of
from games_lib import absorb, login, req, until

# The errors a client is told to try again after.
RETRYABLE = ("not_ready", "store_failing")


def track(c):
    """Count every reply c reads by its id (c.replies: id -> count) and
    keep every message (c.seen), as read off the socket."""
    c.replies = {}
    c.seen = []
    read = c.read

    def counting(timeout=WAIT):
        m = read(timeout)
        if m is not None:
            c.seen.append(m)
            if "re" in m and m.get("id") is not None:
                c.replies[m["id"]] = c.replies.get(m["id"], 0) + 1
        return m
    c.read = counting
    return c


def player(port, name, token=None):
    """A logged-in, tracked client (games_lib.login)."""
    return track(login(port, name, token))


def call(c, cmd, timeout, **fields):
    """req(c, cmd, ...) retried while the answer is retryable or the line
    is slow, until timeout: the last reply (None: closed or no answer)."""
    deadline = time.time() + timeout
    r = None
    while time.time() < deadline:
        try:
            rid = c.send(cmd, **fields)
            r = c.reply(rid, timeout=max(0.5, deadline - time.time()))
        except (OSError, TimeoutError, ValueError):
            return None
        absorb(c)
        if r is None or not r.get("ok") and r.get("error") in RETRYABLE:
            if r is None:
                return None
            time.sleep(0.3)
            continue
        return r
    return r


def hear_moved(ck, clients, seq):
    """Check that each (name, connection) in clients hears the moved
    event of seq within WAIT."""
    for name, c in clients:
        got = until(c, lambda e, s=seq: e.get("event") == "moved" and
                    e.get("seq") == s, timeout=WAIT)
        ck.ok(got is not None, "%s on node 2 hears the last move" % name)


class Duel:
    """Player a (node ia) creates an Ataxx 5x5 room (with clock, create's
    field, when given) that player b (node ib) joins; both tracked.
    .acked: seq -> move acknowledged to either."""

    def __init__(self, ck, cl, tag, ia, ib, names, clock=None):
        self.ck, self.cl, self.tag = ck, cl, tag
        self.names = names
        self.a = player(cl.port(ia), names[0])
        self.b = player(cl.port(ib), names[1])
        self.old = []  # clients replaced after a reconnect
        extra = {"clock": clock} if clock else {}
        r = req(self.a, "create", game="ataxx", options={"size": 5},
                **extra)
        ck.ok(r and r.get("ok"), "%s: create: %r" % (tag, r))
        self.room = r["room"]
        j = req(self.b, "join", room=self.room)
        ck.ok(j and j.get("ok"), "%s: join from the other node: %r" %
              (tag, j))
        st = j["state"]
        self.seat = {names[0]: seat_of(st, names[0]),
                     names[1]: seat_of(st, names[1])}
        self.acked = {}

    def clients(self):
        return [self.a, self.b]

    def client_of(self, name):
        return self.a if name == self.names[0] else self.b

    def reconnect(self, name, port=None):
        """name's connection replaced by a new one through port (HAProxy
        by default) with its token: what a client does when told to
        reconnect or when its node went. True when it logged in."""
        old = self.client_of(name)
        self.old.append(old)
        old.close()
        c = relogin(port or self.cl.front, name, old.token,
                    timeout=cluster_lib.FAILOVER + 2 * cluster_lib.LEASE)
        if c is None:
            return False
        track(c)
        j = call(c, "join", WAIT, room=self.room)
        self.ck.ok(j and j.get("ok"), "%s: %s joins again after "
                   "reconnecting: %r" % (self.tag, name, j))
        if name == self.names[0]:
            self.a = c
        else:
            self.b = c
        return True

    def told_to_reconnect(self, c, wait=0.2):
        """Was c told to connect again (reading what came, briefly)?"""
        try:
            e = until(c, lambda e: e.get("event") in ("reconnect",
                                                      "shutdown"),
                      timeout=wait)
        except (OSError, ValueError):
            return True
        return e is not None

    def state(self, c, timeout):
        r = call(c, "state", timeout, room=self.room)
        return r["state"] if r and r.get("ok") else None

    def play(self, n, timeout, pick=lambda ms: ms[0]):
        """n more moves, each by the side to move (its own `state` and
        `moves`), retried while refused as retryable, until timeout. The
        number of moves acknowledged."""
        deadline = time.time() + timeout
        done = 0
        while done < n and time.time() < deadline:
            left = deadline - time.time()
            st = self.state(self.a, left) or self.state(self.b, left)
            if st is None or st["status"] != "playing":
                break
            mover = next(name for name, s in self.seat.items()
                         if s == st["turn"])
            c = self.client_of(mover)
            ms = call(c, "moves", deadline - time.time(), room=self.room)
            if not ms or not ms.get("ok") or not ms.get("moves"):
                if self.told_to_reconnect(c):
                    self.reconnect(mover)
                continue
            r = call(c, "move", deadline - time.time(), room=self.room,
                     move=pick(ms["moves"]))
            if r and r.get("ok"):
                self.acked[r["seq"]] = r["move"]
                done += 1
            elif self.told_to_reconnect(c) or r is None:
                self.reconnect(mover)
        return done

    def settle(self):
        """Read what is still coming to both."""
        for c in self.clients():
            try:
                for m in c.drain(0.3):
                    if "event" in m:
                        c.log.append(m)
            except (OSError, ValueError):
                pass

    def check(self, what=""):
        """The suite's checks on this game."""
        ck, tag = self.ck, self.tag + (" " + what if what else "")
        self.settle()
        st = self.state(self.a, WAIT) or self.state(self.b, WAIT)
        ck.ok(st is not None, "%s: the room is served" % tag)
        hist = [h["move"] for h in (st or {}).get("history", [])]
        want = [self.acked[q] for q in sorted(self.acked)]
        ck.ok(subsequence(want, hist), "%s: every acknowledged move is in "
              "the history, in order (%d acked, %d in history)" %
              (tag, len(want), len(hist)))
        stored = [m for _, _, m in self.cl.stored_moves(self.room)]
        ck.eq(stored, hist, "%s: PostgreSQL holds the history" % tag)
        clients = self.clients() + self.old
        wrong = []
        for c in clients:
            for e in getattr(c, "seen", []):
                if e.get("event") != "moved" or e.get("room") != self.room \
                        or e.get("seat") is None:
                    continue
                who = [n for n, s in self.seat.items() if s == e["seat"]]
                if who and e.get("name") != who[0]:
                    wrong.append(e)
        ck.eq(wrong, [], "%s: every move was made by its seat's player" %
              tag)
        dup = [(getattr(c, "name", "?"), i, k) for c in clients
               for i, k in getattr(c, "replies", {}).items() if k > 1]
        ck.eq(dup, [], "%s: one reply per request" % tag)
        lost = [e for c in clients for e in getattr(c, "seen", [])
                if e.get("event") == "grace_over" or
                (e.get("event") == "ended" and
                 e.get("reason") == "abandonment")]
        ck.eq(lost, [], "%s: no grace ran out, no game lost by "
              "abandonment" % tag)
        return st


class Proxy:
    """A TCP proxy on a free loopback port in front of addr (HOST:PORT),
    for one node's connections to Redis: "pass" forwards, "freeze" holds
    what comes (the connections stay open, as across a stalled network),
    "cut" closes every connection and refuses new ones (a node cut off).
    Threads of this process, stopped by stop()."""

    def __init__(self, addr):
        self.up = cluster_lib.hostport(addr)
        self.lsock = socket.socket()
        self.lsock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.lsock.bind(("127.0.0.1", 0))
        self.lsock.listen(64)
        self.port = self.lsock.getsockname()[1]
        self.addr = "127.0.0.1:%d" % self.port
        self.mode = "pass"
        self.pairs = []
        self.lock = threading.Lock()
        self.running = True
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while self.running:
            r, _, _ = select.select([self.lsock], [], [], 0.1)
            if not r:
                continue
            try:
                c, _ = self.lsock.accept()
            except OSError:
                return
            if self.mode == "cut":
                c.close()
                continue
            try:
                u = socket.create_connection(self.up, WAIT)
            except OSError:
                c.close()
                continue
            with self.lock:
                self.pairs.append((c, u))
            threading.Thread(target=self._pump, args=(c, u),
                             daemon=True).start()

    def _pump(self, c, u):
        peer = {c: u, u: c}
        try:
            while self.running and self.mode != "cut":
                if self.mode == "freeze":
                    time.sleep(0.05)
                    continue
                r, _, _ = select.select([c, u], [], [], 0.1)
                if self.mode != "pass":
                    continue  # held: read when it passes again
                for s in r:
                    data = s.recv(65536)
                    if not data:
                        return
                    peer[s].sendall(data)
        except OSError:
            pass
        finally:
            for s in (c, u):
                try:
                    s.close()
                except OSError:
                    pass
            with self.lock:
                if (c, u) in self.pairs:
                    self.pairs.remove((c, u))

    def set(self, mode):
        """Switch to mode; "cut" closes every connection now."""
        self.mode = mode
        if mode == "cut":
            with self.lock:
                pairs = list(self.pairs)
            for c, u in pairs:
                for s in (c, u):
                    try:
                        s.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass

    def stop(self):
        self.set("cut")
        self.running = False
        self.lsock.close()


class OwnPg:
    """A PostgreSQL of this test's own (contrib/pgtest.sh), which it may
    halt (as a crash) and resume; .url its maintenance database."""

    def __init__(self):
        self.script = os.path.join(cluster_lib.HERE, "..", "..", "contrib",
                                   "pgtest.sh")
        out = subprocess.run(["sh", self.script, "start"], check=True,
                             capture_output=True, text=True,
                             env=dict(os.environ, PGTEST_FSYNC="off"),
                             timeout=120).stdout.split()
        self.dir, self.url = out[0], out[1]
        cluster_lib.STARTED.append(self)

    def halt(self):
        subprocess.run(["sh", self.script, "halt", self.dir], check=True,
                       timeout=120)

    def resume(self):
        subprocess.run(["sh", self.script, "resume", self.dir], check=True,
                       timeout=120)

    def cleanup(self):
        if self.dir is not None:
            subprocess.run(["sh", self.script, "stop", self.dir],
                           check=False, timeout=120)
            self.dir = None


def node_through(cl, i, redis_addr):
    """Node i of cl stopped (SIGTERM) and started again (a new
    incarnation) on its HAProxy port with redis_addr for --redis (a
    Proxy's): cluster_lib.Cluster.start_node with another Redis."""
    cl.nodes[i].stop()
    web = (["--web-port", str(cl.web_ports[i])]
           if i < len(cl.web_ports) else [])
    node = cluster_lib.Node(cl.build, "n%d" % (i + 1), cl.db, redis_addr,
                            port=cl.ports[i], extra=cl.extra + web +
                            cluster_lib.proxy_from())
    node.start()
    cl.nodes[i] = node
    cluster_lib.wait_balanced(i + 1, only=i)
    return node


def subsequence(want, got):
    """Is want got with some items left out (a move stored whose reply
    was lost is in got only)?"""
    it = iter(got)
    return all(any(w == g for g in it) for w in want)


def until_time(fn, timeout, pause=0.2):
    """fn() until it is true (bounded): (value, seconds it took)."""
    t0 = time.time()
    v = cluster_lib.retry(fn, timeout=timeout, pause=pause)
    return v, time.time() - t0
