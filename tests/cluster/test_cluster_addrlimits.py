"""test_cluster_addrlimits.py: one address's limits hold across nodes
(issue 19: "limits and rate limits hold per player and per address across
nodes"; docs/SCALING.md part 3, "Rate limits").

Three nodes of the test's own, on ports HAProxy does not balance over (its
health checks would come from the same address), every client from
127.0.0.1, directly to a node's port:
- connections: four open on node 1, then node 2 takes only the two that
  --max-per-address 6 leaves, and node 1 itself refuses one more; node 1
  killed, node 2 takes connections again (its count died with it);
- messages: a flood of pings on node 2 spends the address's burst; the
  same flood on node 3 is let through only as far as the one bucket
  refilled in between (burst + rate x elapsed over both, where each node
  alone would let a whole burst through);
- failed logins: --login-fails 4 spent on node 2, the next failed login
  on node 3 is refused as too many from the address; a name's 5 x
  --login-fails spent on node 2 from five addresses (each within its
  own), the next wrong token for it on node 3, from a sixth address, is
  refused as too many for that name;
- HAProxy first (an own HAProxy with contrib/haproxy-tablero.cfg in front
  of one node, its limits made small through the environment): an
  address holds at most TABLERO_MAX_PER_ADDR connections and opens at
  most TABLERO_CONN_RATE in 10 s; another address is unaffected.
Each node hears of another's use within a tick or two (it writes its
report every CLUSTER_TICK_MS, 2 s, and reads the others' every tick), so
the test waits SYNC before looking on another node.
"""

import os
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_lib  # noqa: E402
from cluster_lib import Node, retry  # noqa: E402
from games_lib import login  # noqa: E402
import harness  # noqa: E402
from harness import Client, is_error  # noqa: E402

# Seconds for a node's use to reach another: its report (every 2 s tick)
# and the other's read of it (its own tick), with a second to spare.
SYNC = 5.0
# The address limits under test, small enough to reach quickly.
MAX_PER_ADDR = 6
ADDR_RATE = 20
ADDR_BURST = 200
LOGIN_FAILS = 4
# A name may fail this many times an address's --login-fails (limit.c).
NAME_FAILS_FACTOR = 5
FLAGS = ["--max-per-address", str(MAX_PER_ADDR),
         "--addr-rate", str(ADDR_RATE), "--addr-burst", str(ADDR_BURST),
         "--login-fails", str(LOGIN_FAILS)]
# Pings in each flood: the whole burst.
FLOOD = ADDR_BURST
# HAProxy's stick-table limits in its test: connections one address holds
# at once, and opens in 10 s.
HA_CUR = 3
HA_RATE = 6


def connect(port):
    """A new connection's first line: ("ok", client) when welcomed,
    ("full", text) when refused as server_full, else ("other", text)."""
    c = Client(port, welcome=False)
    text = c.line()
    if text is not None and '"server_full"' in text:
        c.close()
        return "full", text
    if text is not None and '"error"' not in text:
        return "ok", c
    c.close()
    return "other", text


def welcomed(port, timeout):
    """A welcomed connection to port, tried until one is (bounded): the
    client, or None."""
    def once():
        kind, c = connect(port)
        return c if kind == "ok" else None
    return retry(once, timeout=timeout)


def connections(ck, nodes):
    tag = "conns"
    a, b = nodes[0], nodes[1]
    mine = []
    for i in range(4):
        kind, c = connect(a.port)
        ck.eq(kind, "ok", "%s: connection %d on node 1" % (tag, i + 1))
        if kind == "ok":
            mine.append(c)
    time.sleep(SYNC)
    taken = 0
    kind = "ok"
    while kind == "ok" and taken < MAX_PER_ADDR:
        kind, c = connect(b.port)
        if kind == "ok":
            mine.append(c)
            taken += 1
    ck.eq(taken, MAX_PER_ADDR - 4,
          "%s: node 2 takes only what node 1's four leave of %d" %
          (tag, MAX_PER_ADDR))
    ck.ok(kind == "full" and "too many connections from your address" in c,
          "%s: then refuses with server_full: %r" % (tag, c))
    time.sleep(SYNC)
    kind, c = connect(a.port)
    ck.eq(kind, "full", "%s: node 1 now refuses too (node 2's count "
          "reached it)" % tag)
    if kind == "ok":
        mine.append(c)
    a.kill()
    kind, c = connect(b.port)
    ck.eq(kind, "full", "%s: node 1 killed: its count holds a moment "
          "(node 2 reads it until it ages out)" % tag)
    got = welcomed(b.port, cluster_lib.FAILOVER)
    ck.ok(got is not None, "%s: then node 2 takes connections again "
          "within %.0f s" % (tag, cluster_lib.FAILOVER))
    if got is not None:
        mine.append(got)
    for c in mine:
        c.close()


def flood(port):
    """FLOOD pings in one write on a new connection: how many were
    answered pong (the rest refused, or the line closed as a flood)."""
    c = welcomed(port, cluster_lib.WAIT)
    if c is None:
        return -1
    c.raw("".join('{"cmd":"ping","id":%d}\n' % (i + 1)
                  for i in range(FLOOD)))
    pongs = replies = 0
    while replies < FLOOD:
        try:
            m = c.read()
        except (TimeoutError, OSError):
            break
        if m is None:
            break
        if "re" in m:
            replies += 1
            pongs += m.get("pong") is True
    c.close()
    return pongs


def messages(ck, nodes):
    tag = "msgs"
    t0 = time.time()
    first = flood(nodes[1].port)
    ck.ok(first >= ADDR_BURST - ADDR_RATE,
          "%s: node 2 answers a burst's worth of pings (%d of %d)" %
          (tag, first, FLOOD))
    time.sleep(SYNC)
    second = flood(nodes[2].port)
    elapsed = time.time() - t0
    allowed = ADDR_BURST + ADDR_RATE * elapsed
    ck.ok(first + second <= allowed,
          "%s: node 3 then lets through only what one bucket refilled: "
          "%d + %d pongs <= %d + %d/s x %.1f s = %.0f" %
          (tag, first, second, ADDR_BURST, ADDR_RATE, elapsed, allowed))
    ck.ok(second < first,
          "%s: node 3 did not give the address a fresh burst (%d, node "
          "2: %d)" % (tag, second, first))


def login_from(port, source, name, token):
    """games_lib.login from the loopback address source: the hello's
    reply."""
    c = Client.__new__(Client)
    c.sock = socket.create_connection(("127.0.0.1", port), cluster_lib.WAIT,
                                      source_address=(source, 0))
    c.sock.settimeout(cluster_lib.WAIT)
    c.buf, c.pending, c.next_id = b"", [], 1
    try:
        c.welcome = c.json()
        return c.call("hello", name=name, token=token)
    finally:
        c.close()


def name_logins(ck, nodes):
    tag = "name fails"
    owner = login(nodes[1].port, "namefail")
    ck.ok(owner.hello and owner.hello.get("ok"),
          "%s: identity made on node 2" % tag)
    owner.close()
    t0 = time.time()
    for a in range(NAME_FAILS_FACTOR):
        source = "127.0.0.%d" % (10 + a)
        for i in range(LOGIN_FAILS):
            r = login_from(nodes[1].port, source, "namefail", "0" * 32)
            is_error(ck, r, "bad_token", "%s: wrong token %d from %s on "
                     "node 2" % (tag, i + 1, source))
    time.sleep(SYNC)
    # On node 3, from fresh addresses (each within its own budget): wrong
    # tokens are taken only as far as the name's one bucket refilled
    # since the first failure (node 3 alone would take a whole budget).
    cap = NAME_FAILS_FACTOR * LOGIN_FAILS
    taken, r = 0, None
    while taken < cap:
        source = "127.0.0.%d" % (30 + taken // LOGIN_FAILS)
        r = login_from(nodes[2].port, source, "namefail", "0" * 32)
        if not r or r.get("error") != "bad_token":
            break
        taken += 1
    refilled = cap * (time.time() - t0) / 60.0
    is_error(ck, r, "rate_limited",
             "%s: node 3 refuses wrong tokens as too many for the name" %
             tag, ["too many failed logins for namefail"])
    ck.ok(taken <= refilled,
          "%s: after taking %d, no more than the name's bucket refilled "
          "in between (%.1f of %d a minute)" % (tag, taken, refilled, cap))


def logins(ck, nodes):
    tag = "fails"
    owner = login(nodes[1].port, "addrfail")
    ck.ok(owner.hello and owner.hello.get("ok"),
          "%s: identity made on node 2" % tag)
    owner.close()
    for i in range(LOGIN_FAILS):
        bad = login(nodes[1].port, "addrfail", "0" * 32)
        is_error(ck, bad.hello, "bad_token",
                 "%s: wrong token %d on node 2" % (tag, i + 1))
        bad.close()
    time.sleep(SYNC)
    bad = login(nodes[2].port, "addrfail", "0" * 32)
    is_error(ck, bad.hello, "rate_limited",
             "%s: the next wrong token, on node 3, is refused as too many "
             "from the address" % tag, ["too many failed logins"])
    bad.close()


def via(port, source):
    """A connection to port from the loopback address source: its socket
    once welcomed (a node's first line came through), or None when closed
    before that (refused by HAProxy)."""
    try:
        s = socket.create_connection(("127.0.0.1", port), cluster_lib.WAIT,
                                     source_address=(source, 0))
    except OSError:
        return None
    s.settimeout(cluster_lib.WAIT)
    try:
        data = s.recv(4096)
    except OSError:
        data = b""
    if b"\n" in data and b'"error"' not in data:
        return s
    s.close()
    return None


def haproxy(ck, a):
    tag = "haproxy"
    # The node trusts HAProxy's PROXY headers (from TABLERO_SOURCE): the
    # clients below are counted at their own addresses, by HAProxy first.
    node = harness.Server(a.build, extra=cluster_lib.FAST +
                          cluster_lib.proxy_from()).start()
    port = cluster_lib.free_port()
    log = tempfile.NamedTemporaryFile(prefix="tablero-ha-", delete=False)
    cfg = os.path.join(cluster_lib.HERE, "..", "..", "contrib",
                       "haproxy-tablero.cfg")
    env = dict(os.environ, TABLERO_LISTEN="127.0.0.1:%d" % port,
               TABLERO_CHECK_INTER="300ms",
               TABLERO_SOURCE=cluster_lib.env("TABLERO_TEST_PROXY_FROM"),
               TABLERO_MAX_PER_ADDR=str(HA_CUR),
               TABLERO_CONN_RATE=str(HA_RATE))
    for i in (1, 2, 3):
        env["TABLERO_NODE%d" % i] = "127.0.0.1:%d" % node.port
    ha = subprocess.Popen(
        [os.environ.get("TABLERO_TEST_HAPROXY_BIN", "haproxy"), "-db", "-f",
         cfg], env=env, stdout=log, stderr=log)
    held = []
    try:
        # Waiting from 127.0.0.2: 127.0.0.1's counts start at nothing.
        first = retry(lambda: via(port, "127.0.0.2"),
                      timeout=cluster_lib.WAIT)
        ck.ok(first is not None, "%s: HAProxy passes a connection to the "
              "node" % tag)
        if first is not None:
            first.close()
        for i in range(HA_CUR):
            s = via(port, "127.0.0.1")
            ck.ok(s is not None, "%s: connection %d of %d held" %
                  (tag, i + 1, HA_CUR))
            held.append(s)
        ck.eq(via(port, "127.0.0.1"), None, "%s: one more than %d at once "
              "is closed before the node sees it" % (tag, HA_CUR))
        for s in held:
            if s is not None:
                s.close()
        held = []
        time.sleep(0.5)  # HAProxy sees the closes
        for i in range(HA_RATE - HA_CUR - 1):
            s = via(port, "127.0.0.1")
            ck.ok(s is not None, "%s: after closing, new connections are "
                  "taken again (%d)" % (tag, i + 1))
            held.append(s)
        ck.eq(via(port, "127.0.0.1"), None, "%s: past %d new connections "
              "in 10 s one is closed, however few are open" %
              (tag, HA_RATE))
        other = via(port, "127.0.0.3")
        ck.ok(other is not None, "%s: another address is taken" % tag)
        if other is not None:
            other.close()
    finally:
        for s in held:
            if s is not None:
                s.close()
        if ha.poll() is None:
            ha.kill()
        ha.wait(cluster_lib.WAIT)
        node.stop()
        os.unlink(node.log.name)
        log.close()
        os.unlink(log.name)


def run(ck, a):
    db = harness.pg_fresh()
    redis = cluster_lib.env("TABLERO_TEST_REDIS")
    cluster_lib.redis_cmd(redis, "FLUSHALL")
    nodes = [Node(a.build, "n%d" % (i + 1), db, redis,
                  extra=FLAGS).start() for i in range(3)]
    try:
        connections(ck, nodes)
        messages(ck, nodes)
        logins(ck, nodes)
        name_logins(ck, nodes)
    finally:
        for n in nodes:
            n.cleanup()
    haproxy(ck, a)


if __name__ == "__main__":
    cluster_lib.main(run)
