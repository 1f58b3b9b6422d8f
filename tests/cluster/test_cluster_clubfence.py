"""test_cluster_clubfence.py: a club node cut off past its lease cannot
write the club's rows (issue 22 over issue 19, docs/SCALING.md part 3
"The club is fenced as rooms are").

Two nodes. A player of the club's node (connected to it, not through the
balancer) sends a seek while that node is stopped (SIGSTOP): it waits in
the node's socket. Past the lease the other node takes the club (its
epoch raised in PostgreSQL) and serves seeks. The stopped node is
continued (SIGCONT) and reads the seek. Whatever it does, the seek may be
acknowledged only where the club now is: either the stale node runs it on
its old pool, its commit fails the club's epoch check and it tells the
player to reconnect (or closes), with no row written; or it already knows
it lost the club and forwards the seek to the new club node, which opens
it and lists it. An acknowledged seek that the new club node does not list
(a row written behind its back) is the failure this guards against. In
practice the continued node's tick notices the lapsed lease before it
reads the seek (the forwarded path); the stale path's fence itself is
tested in tests/unit/test_pgstore.c (test_pg_club_fence).
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_lib  # noqa: E402
from cluster_lib import (LEASE, WAIT, Cluster, redis_cmd, retry,  # noqa: E402
                         stale_reply)
from games_lib import login, req  # noqa: E402

# Seconds past the lease that the club's node stays stopped.
MARGIN = 2.0
# What the stale club node may say to its player when it drops the club
# (besides closing the connection): names of events.
GOODBYES = ("reconnect", "replaced", "shutdown")


def club_owner(cl):
    """The index of the node holding the club now, or None."""
    v = redis_cmd(cl.redis_addr, "GET", "club:owner")
    if isinstance(v, bytes):
        v = v.decode()
    if not v:
        return None
    return int(v.rsplit(":", 1)[0][1:]) - 1


def fenced(ck, cl):
    tag = "clubfence"
    old = retry(lambda: club_owner(cl), timeout=WAIT)
    ck.ok(old is not None, "%s: a node holds the club" % tag)
    old = old or 0
    new = 1 - old
    pa = login(cl.port(old), "cfa")
    pb = login(cl.port(new), "cfb")
    r = req(pa, "seeks")
    ck.ok(r and r.get("ok"), "%s: the club's node answers seeks" % tag)

    cl.nodes[old].pause()
    # Sent while the club's node is stopped: it waits in its socket.
    pa.send("seek", game="amazons", rated=False)
    time.sleep(LEASE + MARGIN)
    taken = retry(lambda: club_owner(cl) == new,
                  timeout=cluster_lib.FAILOVER)
    ck.ok(taken, "%s: the other node takes the club" % tag)
    served = retry(lambda: (req(pb, "seeks") or {}).get("ok"),
                   timeout=cluster_lib.FAILOVER)
    ck.ok(served, "%s: and serves seeks" % tag)

    cl.nodes[old].resume()
    kind, msg = stale_reply(pa, "seek", GOODBYES)
    listed = retry(lambda: any(
        s.get("name") == "cfa"
        for s in (req(pb, "seeks") or {}).get("seeks", [])), timeout=WAIT)
    rows = cl.rows("SELECT id FROM seeks WHERE name = 'cfa'")
    if kind == "ok":
        ck.ok(listed, "%s: the seek acknowledged after the wake-up is the "
              "new club node's: listed there (%r, rows %r)" %
              (tag, msg, rows))
    else:
        ck.ok(kind in ("told", "closed", "error"),
              "%s: the stale club node does not acknowledge the seek "
              "(got %s %r)" % (tag, kind, msg))
        ck.eq(rows, [], "%s: and no row of it is stored" % tag)
    ck.eq(len(rows), 1 if kind == "ok" else 0,
          "%s: a seek row exactly when the seek was acknowledged" % tag)
    for x in (pa, pb):
        x.close()


def run(ck, a):
    cl = Cluster(a.build, 2)
    try:
        fenced(ck, cl)
    finally:
        cl.stop()


if __name__ == "__main__":
    cluster_lib.main(run)
