"""test_cluster_chaos_restart.py: the owner killed (SIGKILL) and started
again under the same --node two seconds later, mid-game (issue 29, the
chaos suite; as the shipped tablerod@ unit does with RestartSec=2).

Two nodes behind HAProxy; ana (node 1, the room's owner) and bob (node
2) play. Node 1 dies and comes back as a new incarnation: the room moves
to whichever node takes it first, ana reconnects through HAProxy with
her token (as the clients do), bob plays on from node 2, and the game
goes on: every acknowledged move is stored, nobody plays in another's
seat, one reply per request, nobody loses by abandonment. The time from
the kill to the next acknowledged move is printed.
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_lib  # noqa: E402
from chaos_lib import Duel  # noqa: E402
from cluster_lib import FAILOVER, LEASE, WAIT, Cluster  # noqa: E402

# The restart delay of contrib/tablerod@.service (RestartSec=2).
RESTART = 2


def run(ck, a):
    with Cluster(a.build, 2) as cl:
        restarted(ck, cl)


def restarted(ck, cl):
    tag = "restart"
    d = Duel(ck, cl, tag, 0, 1, ("rsana", "rsbob"))
    ck.eq(d.play(4, 3 * WAIT), 4, "%s: four moves before" % tag)
    cl.nodes[0].kill()
    t0 = time.time()
    time.sleep(RESTART)
    cl.start_node(0)
    ck.ok(d.reconnect("rsana"), "%s: ana logs in again through HAProxy" %
          tag)
    ck.eq(d.play(1, FAILOVER + 2 * LEASE), 1, "%s: a move after the "
          "restart" % tag)
    print("restart: the next move %.1f s after the owner was killed" %
          (time.time() - t0), flush=True)
    ck.eq(d.play(4, 3 * WAIT), 4, "%s: four moves after" % tag)
    d.check()
    for c in d.clients():
        c.close()


if __name__ == "__main__":
    cluster_lib.main(run)
