"""test_cluster_link.py: the nodes' messages go straight from node to node
on links of their own, not through Redis (issue 32; docs/SCALING.md,
"Links between nodes"), and the link port takes nothing from a stranger.

Two nodes with --metrics-port. ana (node 1) creates a room, bob (node 2)
joins it and a watcher, wat, watches from node 2. Once both nodes say
their links are up (tablerod_cluster_links), 12 moves are played: every
pack of both nodes went on a link (tablerod_cluster_packs_total), none
through Redis, and neither node's stream grew; the game is whole (every
acknowledged move in the history and in PostgreSQL, one reply a request,
each move its seat's player's). link:n1 names node 1's incarnation, a
secret and the address it takes links on.

Then strangers on node 1's link port: a wrong secret, a line too long,
silence past the opening's deadline, and a right opening followed by a
malformed frame: each connection is closed, and the game goes on. Last,
node 2 is killed (kill -9) and started again under its id: node 1 links
to the new incarnation, and a new game between the nodes goes on links.
"""

import os
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chaos_lib import Duel, call, hear_moved, player  # noqa: E402
from cluster_lib import WAIT, Cluster, main, redis_cmd, retry  # noqa: E402
from test_cluster_metrics import metrics_port, scrape  # noqa: E402

# Moves played once the links are up (with the 2 before and the 2 after
# the strangers, inside the 5x5 game, which its first moves fill in 22).
MOVES = 12
# The opening's deadline on the link port (CLUSTER_LINK_HELLO_MS), and the
# slack a loaded machine gets beyond it.
HELLO_S = 5
SLACK_S = 5


def links_up(port):
    """Are node's links up both ways (its metrics say one out, one in)?"""
    m = scrape(port)
    return (m.get('tablerod_cluster_links{way="out"}') == 1.0 and
            m.get('tablerod_cluster_links{way="in"}') == 1.0)


def packs(port):
    m = scrape(port)
    return (m.get('tablerod_cluster_packs_total{way="link"}', -1.0),
            m.get('tablerod_cluster_packs_total{way="redis"}', -1.0))


def xlen(cl, node):
    return redis_cmd(cl.redis_addr, "XLEN", "stream:%s" % node)


def on_links(ck, cl, ports):
    d = Duel(ck, cl, "link", 0, 1, ("lkana", "lkbob"))
    wat = player(cl.port(1), "lkwat")
    w = call(wat, "watch", WAIT, room=d.room)
    ck.ok(w and w.get("ok"), "wat watches from node 2: %r" % (w,))
    ck.eq(d.play(2, 4 * WAIT), 2, "two moves (the links come up)")
    for i, p in enumerate(ports):
        ck.ok(retry(lambda p=p: links_up(p), timeout=WAIT),
              "node %d: a link up each way" % (i + 1))
    before = [packs(p) for p in ports]
    streams = [xlen(cl, "n1"), xlen(cl, "n2")]
    ck.eq(d.play(MOVES, 4 * WAIT), MOVES, "%d moves" % MOVES)
    hear_moved(ck, (("bob", d.b), ("wat", wat)), max(d.acked))
    after = [packs(p) for p in ports]
    print("packs (link, redis) before %r after %r; streams %r -> %r" %
          (before, after, streams, [xlen(cl, "n1"), xlen(cl, "n2")]),
          flush=True)
    for i in range(2):
        ck.ok(after[i][0] - before[i][0] >= MOVES / 2,
              "node %d sent its packs on the link: %r -> %r" %
              (i + 1, before[i], after[i]))
        ck.eq(after[i][1], before[i][1],
              "node %d sent no pack through Redis" % (i + 1))
    ck.eq([xlen(cl, "n1"), xlen(cl, "n2")], streams,
          "neither node's stream grew")
    d.check()
    return d


def link_key(ck, cl):
    """link:n1 and node 1's incarnation: (inc, secret, (host, port))."""
    v = redis_cmd(cl.redis_addr, "GET", "link:n1")
    ck.ok(isinstance(v, str) and len(v.split()) == 3,
          "link:n1 holds INC SECRET ADDR: %r" % (v,))
    inc, secret, addr = v.split()
    members = redis_cmd(cl.redis_addr, "ZRANGE", "nodes", "0", "-1")
    ck.ok("n1|%s" % inc in members, "link:n1 names node 1's incarnation "
          "(%s in %r)" % (inc, members))
    ck.eq(len(secret), 64, "the secret is 32 bytes in hex")
    host, port = addr.rsplit(":", 1)
    return inc, secret, (host, int(port))


def closed_within(s, timeout):
    """Does the other end close s within timeout (seconds)? What it sends
    first is read and dropped."""
    s.settimeout(0.2)
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            if s.recv(4096) == b"":
                return True
        except socket.timeout:
            continue
        except OSError:
            return True
    return False


def strangers(ck, cl, d, addr, secret):
    n2inc = [m.split("|")[1] for m in
             redis_cmd(cl.redis_addr, "ZRANGE", "nodes", "0", "-1")
             if m.startswith("n2|")][0]
    n1inc = link_key(ck, cl)[0]
    cases = [
        ("a wrong secret", "TABLERO-LINK 1 n2 %s %s %s 0-0\n" %
         (n2inc, n1inc, "0" * 64), 2),
        ("a line too long", "TABLERO-LINK " + "x" * 4000, 2),
        ("silence", "", HELLO_S + SLACK_S),
        ("a malformed frame after a right opening",
         "TABLERO-LINK 1 n2 %s %s %s 0-0\n12\n$1\r\nm\r\n$99\r\n" %
         (n2inc, n1inc, secret), 2),
        ("a frame longer than a link takes", "TABLERO-LINK 1 n2 %s %s %s "
         "0-0\n999999999\n" % (n2inc, n1inc, secret), 2),
    ]
    for what, send, wait in cases:
        s = socket.create_connection(addr, timeout=WAIT)
        if send:
            s.sendall(send.encode())
        ck.ok(closed_within(s, wait), "the link port closes %s" % what)
        s.close()
    r = call(d.a, "ping", WAIT)
    ck.ok(r and r.get("ok"), "node 1 answers after the strangers")
    ck.eq(d.play(2, 4 * WAIT), 2, "two more moves after them")
    d.check("after the strangers")


def restarted(ck, cl, ports):
    """Node 2 killed and started again: node 1 links to the new one."""
    cl.nodes[1].kill()
    cl.start_node(1)
    p2 = metrics_port(cl.nodes[1])
    d = Duel(ck, cl, "again", 0, 1, ("lkcid", "lkdee"))
    ck.eq(d.play(2, 4 * WAIT), 2, "two moves with the new node 2")
    ck.ok(retry(lambda: links_up(ports[0]) and links_up(p2),
                timeout=2 * WAIT),
          "node 1 and the new node 2 linked both ways")
    before = packs(p2)
    ck.eq(d.play(6, 4 * WAIT), 6, "six more moves")
    after = packs(p2)
    ck.ok(after[0] - before[0] >= 3 and after[1] == before[1],
          "the new node 2 sends on its link: %r -> %r" % (before, after))
    d.check("with the new node 2")


def run(ck, a):
    with Cluster(a.build, 2, extra=["--metrics-port", "0"]) as cl:
        ports = [metrics_port(n) for n in cl.nodes]
        ck.ok(None not in ports, "both nodes serve metrics: %r" % ports)
        d = on_links(ck, cl, ports)
        _, secret, addr = link_key(ck, cl)
        strangers(ck, cl, d, addr, secret)
        restarted(ck, cl, ports)


if __name__ == "__main__":
    main(run)
