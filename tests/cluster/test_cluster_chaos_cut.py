"""test_cluster_chaos_cut.py: a node cut off from Redis only (issue 29,
the chaos suite; "Health that tells the truth").

Two nodes behind HAProxy; node 2 reaches Redis through a proxy of this
test, which then cuts it off (PostgreSQL and the players still reach it).
Two games: ana (node 1, the owner) against bob (node 2), and cat (node 2,
the owner) against dan (node 1). While cut off, node 2's ping says
"ready":false and HAProxy takes it out of the rotation, bob's requests
for node 1's room are refused with not_ready; node 1 takes cat's room
once its lease lapses (node 2's writes to it are fenced from then on),
and node 2, seeing in the store that another node took its room, tells
its players to connect again: they do, through HAProxy, to node 1, and
both games go on there. Once Redis is reachable again node 2 is back in
the rotation. Every acknowledged move is stored, nobody plays in
another's seat, every request got one reply, nobody lost by abandonment.
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_lib  # noqa: E402
from chaos_lib import Duel, Proxy, node_through, until_time  # noqa: E402
from cluster_lib import (FAILOVER, WAIT, Cluster, haproxy_status,  # noqa
                         retry)
from games_lib import req  # noqa: E402

# How long node 2 may take to tell its players to go: a lease and a
# scan (node 1 takes its room), a tick to see it, and margins; at most
# its own limit (cluster_int.h's CLUSTER_DRAIN_MS, 30 s) and margins.
DRAIN = 45


def ready(port):
    """The ready field of a ping straight to port (None: no answer)."""
    try:
        c = cluster_lib.Client(port)
        r = c.call("ping")
        c.close()
    except (OSError, TimeoutError, ValueError):
        return None
    return (r or {}).get("ready")


def run(ck, a):
    with Cluster(a.build, 2) as cl:
        proxy = Proxy(cl.redis_addr)
        try:
            node_through(cl, 1, proxy.addr)
            cut(ck, cl, proxy)
        finally:
            proxy.stop()


def cut(ck, cl, proxy):
    tag = "cut"
    d1 = Duel(ck, cl, tag + " ana-bob", 0, 1, ("cana", "cbob"))
    d2 = Duel(ck, cl, tag + " cat-dan", 1, 0, ("ccat", "cdan"))
    for d in (d1, d2):
        ck.eq(d.play(3, 3 * WAIT), 3, "%s: three moves before" % d.tag)
    ck.eq(ready(cl.port(1)), True, "%s: node 2 is ready before" % tag)
    proxy.set("cut")
    t0 = time.time()
    got, took = until_time(lambda: ready(cl.port(1)) is False, WAIT)
    ck.ok(got, "%s: node 2's ping says ready:false once cut off" % tag)
    print("cut: node 2 not ready %.1f s after the cut" % took, flush=True)
    out = retry(lambda: haproxy_status().get("node2", "").startswith(
        "DOWN") or not os.environ.get("TABLERO_TEST_HAPROXY_SOCK"),
                timeout=WAIT)
    ck.ok(out, "%s: HAProxy took node 2 out of the rotation: %r" %
          (tag, haproxy_status()))
    r = req(d1.b, "moves", room=d1.room)
    ck.eq((r or {}).get("error"), "not_ready", "%s: bob's request for "
          "node 1's room is refused with not_ready: %r" % (tag, r))
    told = retry(lambda: d1.told_to_reconnect(d1.b) and
                 d2.told_to_reconnect(d2.a), timeout=DRAIN, pause=0.5)
    ck.ok(told, "%s: node 2 tells its players to connect again (within "
          "%d s)" % (tag, DRAIN))
    print("cut: node 2's players told to go %.1f s after the cut" %
          (time.time() - t0), flush=True)
    for d, name in ((d1, "cbob"), (d2, "ccat")):
        ck.ok(d.reconnect(name), "%s: %s connects again through HAProxy"
              % (d.tag, name))
        ck.eq(d.play(3, FAILOVER + 3 * WAIT), 3, "%s: three moves after, "
              "node 2 cut off" % d.tag)
    proxy.set("pass")
    back, took = until_time(lambda: ready(cl.port(1)) is True, 3 * WAIT)
    ck.ok(back, "%s: node 2 is ready again once it reaches Redis" % tag)
    print("cut: node 2 ready %.1f s after Redis was reachable again" %
          took, flush=True)
    ck.ok(cluster_lib.wait_balanced(2), "%s: and back in HAProxy's "
          "rotation: %r" % (tag, haproxy_status()))
    for d in (d1, d2):
        ck.eq(d.play(2, 3 * WAIT), 2, "%s: two moves after" % d.tag)
        d.check()
        for c in d.clients():
            c.close()


if __name__ == "__main__":
    cluster_lib.main(run)
