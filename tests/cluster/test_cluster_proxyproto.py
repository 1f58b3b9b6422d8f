"""test_cluster_proxyproto.py: behind HAProxy the nodes count each
player's own address (the PROXY protocol: contrib/haproxy-tablero.cfg's
send-proxy-v2, the nodes' --proxy-from; docs/SCALING.md part 3, "Rate
limits").

Two nodes behind clustertest.sh's HAProxy with --max-per-address 2, every
client connecting through HAProxy from a loopback address of its own
(127.0.0.21, .22, ...), HAProxy itself connecting from
TABLERO_TEST_PROXY_FROM: an address holds two connections over the
cluster (HAProxy spreads them over both nodes) and its third is refused by
a node, while other addresses are let in as if alone (before the PROXY
protocol every player was HAProxy's one address: the third player at all
was refused). The nodes' reports in Redis (limits:{node}) and their logs
name the players' addresses; HAProxy's health checks (LOCAL headers) keep
the nodes in the rotation; the web front end passes the browser's address
too.
"""

import os
import re
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_lib  # noqa: E402
from cluster_lib import Cluster, redis_cmd, retry  # noqa: E402
from harness import Client  # noqa: E402

# The per-address cap under test: small, so a third connection shows it.
MAX_PER_ADDR = 2
# Seconds for one node's connections to reach the other: its report
# (every 2 s tick) and the other's read of it, with a second to spare.
SYNC = 5.0


def through(port, source):
    """A connection to HAProxy's front end from the loopback address
    source: ("ok", client) when a node welcomed it, ("full", line) when
    refused as server_full, else ("other", line)."""
    c = Client.__new__(Client)
    c.sock = socket.create_connection(("127.0.0.1", port), cluster_lib.WAIT,
                                      source_address=(source, 0))
    c.sock.settimeout(cluster_lib.WAIT)
    c.buf, c.pending, c.next_id = b"", [], 1
    text = c.line()
    if text is not None and '"server_full"' in text:
        c.close()
        return "full", text
    if text is not None and '"welcome"' in text:
        return "ok", c
    c.close()
    return "other", text


def reports(cl):
    """Every node's limits:{node} report, as one text."""
    out = []
    for n in cl.nodes:
        r = redis_cmd(cl.redis_addr, "GET", "limits:" + n.node_id)
        if r:
            out.append(r)
    return "\n".join(out)


def conns_in_reports(text, addr):
    """The connections the reports count from addr, over the nodes."""
    return sum(int(m.group(1)) for m in re.finditer(
        r"^a:%s (\d+) " % re.escape(addr), text, re.M))


def addresses(ck, cl):
    tag = "addresses"
    held = []
    for i in range(MAX_PER_ADDR):
        kind, c = through(cl.front, "127.0.0.21")
        ck.eq(kind, "ok", "%s: 127.0.0.21's connection %d through HAProxy"
              % (tag, i + 1))
        if kind == "ok":
            held.append(c)
    if held:
        r = held[0].call("hello", name="ppclu")
        ck.ok(r and r.get("ok"), "%s: a login through HAProxy: %r" % (tag, r))
    time.sleep(SYNC)
    text = retry(lambda: (lambda t: t if conns_in_reports(
        t, "127.0.0.21") == MAX_PER_ADDR else None)(reports(cl)),
        timeout=cluster_lib.WAIT)
    ck.ok(text is not None, "%s: the nodes' reports in Redis count %d "
          "connections from 127.0.0.21, the player's own address: %r"
          % (tag, MAX_PER_ADDR, reports(cl)[:600]))
    kind, c = through(cl.front, "127.0.0.21")
    ck.ok(kind == "full" and "too many connections from your address" in c,
          "%s: 127.0.0.21's third connection is refused by a node: %r"
          % (tag, c))
    if kind == "ok":
        held.append(c)
    for src in ("127.0.0.22", "127.0.0.23"):
        for i in range(MAX_PER_ADDR):
            kind, c = through(cl.front, src)
            ck.eq(kind, "ok", "%s: %s is counted apart: its connection %d "
                  "is let in" % (tag, src, i + 1))
            if kind == "ok":
                held.append(c)
    logs = "".join(n.logtext() for n in cl.nodes)
    ck.ok(re.search(r"ppclu logged in from 127\.0\.0\.21:\d+", logs),
          "%s: the node's log names the player's address" % tag)
    ck.ok(re.search(r"PROXY v2 local, stays %s" % re.escape(
        cluster_lib.env("TABLERO_TEST_PROXY_FROM")), logs),
          "%s: HAProxy's health checks come as LOCAL headers" % tag)
    for c in held:
        c.close()


def web(ck, cl):
    tag = "web"
    if cl.web_front is None:
        return
    s = socket.create_connection(("127.0.0.1", cl.web_front),
                                 cluster_lib.WAIT,
                                 source_address=("127.0.0.24", 0))
    s.settimeout(cluster_lib.WAIT)
    s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    got = b""
    while True:
        try:
            b = s.recv(65536)
        except OSError:
            break
        if not b:
            break
        got += b
    s.close()
    ck.ok(got.startswith(b"HTTP/1.1 "), "%s: the web front end answers: %r"
          % (tag, got[:40]))
    ck.ok(retry(lambda: re.search(r"PROXY v2 for 127\.0\.0\.24:\d+", "".join(
        n.logtext() for n in cl.nodes)), timeout=cluster_lib.WAIT),
          "%s: a node's web port read the browser's address" % tag)


def run(ck, a):
    cl = Cluster(a.build, 2, extra=["--max-per-address", str(MAX_PER_ADDR),
                                    "--web-dir", os.path.join(
                                        cluster_lib.HERE, "..", "..", "web")])
    try:
        addresses(ck, cl)
        web(ck, cl)
    finally:
        cl.stop()


if __name__ == "__main__":
    cluster_lib.main(run)
