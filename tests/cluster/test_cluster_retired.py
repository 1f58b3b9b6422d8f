"""test_cluster_retired.py: a room leaves its owner's memory while another
node's player still has it as the current room of its stand-in (issue 19).

Two nodes. Two players on node 1 play a Stones room there; a third on
node 2 looks at it (`state`, forwarded: node 1 makes a stand-in of that
connection whose current room is the room, though the player neither
plays nor watches there). The game ends by resignation, its players go,
and the room leaves node 1's memory: its lease in Redis says it is gone,
so the onlooker's `state` of it, and its `state` without a room (the
room was its current one), are answered at once on node 2 with an error.
The onlooker then closes its connection: node 1 closes the stand-in without reading the freed room
(under ASan a heap use after free; in a plain build a crash or garbage),
stays up, and stops cleanly.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_lib  # noqa: E402
from cluster_lib import Cluster  # noqa: E402
from games_lib import ended, log_says, login, req, until  # noqa: E402


def run(ck, a):
    with Cluster(a.build, 2) as cl:
        retired(ck, cl)


def retired(ck, cl):
    ana = login(cl.port(0), "rana")
    bob = login(cl.port(0), "rbob")
    spy = login(cl.port(1), "rspy")
    r = req(ana, "create", game="stones")
    ck.ok(r and r.get("ok"), "ana creates a Stones room on node 1: %r" % r)
    room = r["room"]
    r = req(bob, "join", room=room)
    ck.ok(r and r.get("ok"), "bob joins it: %r" % r)
    # Node 2 learns the room's owner from Redis: bounded retries.
    r = cluster_lib.retry(lambda: (lambda x: x if x and x.get("ok") else
                                   None)(req(spy, "state", room=room)))
    ck.ok(r and r.get("ok"), "the onlooker on node 2 reads the room's "
          "state through node 1: %r" % (r,))
    r = req(ana, "resign", room=room)
    ck.ok(r and r.get("ok"), "ana resigns: %r" % r)
    ck.ok(until(bob, ended(room)) is not None, "bob sees the end")
    ana.close()
    bob.close()
    n1 = cl.nodes[0]
    ck.ok(log_says(n1, "room %s leaves memory" % room),
          "the finished room leaves node 1's memory once nobody is in it")
    # The room's lease says it is gone: answered here, not after a
    # failover's wait for an owner that never comes.
    r = req(spy, "state", room=room)
    ck.ok(r is not None and not r.get("ok") and
          r.get("error") == "no_such_room",
          "the onlooker's state of the gone room: no_such_room: %r" % (r,))
    r = req(spy, "state")
    ck.ok(r is not None and not r.get("ok") and room not in str(r),
          "and without a room, the gone room is no longer its current "
          "one: %r" % (r,))
    spy.close()
    # Node 1 closes the stand-in when node 2 says the connection went.
    ck.ok(log_says(n1, "rspy left"), "node 1 closes the onlooker's "
          "stand-in")
    again = login(cl.port(0), "rzed")
    r = req(again, "ping")
    ck.ok(r and r.get("ok"), "node 1 still answers: %r" % (r,))
    again.close()
    ck.eq(n1.stop(), 0, "node 1 stops cleanly (exit 0)")


if __name__ == "__main__":
    cluster_lib.main(run)
