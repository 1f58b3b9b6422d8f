"""test_cluster_client.py: two `tablero` clients (in tmux) play through
HAProxy on two nodes, the node that owns their room is killed (-9), and
they finish the game (issue 19's "Done when", as README's "Running
several nodes" tells a person to try it).

HAProxy balances by least connections, so the second client lands on the
other node; the room's owner is read from Redis (room:{id}:owner). After
the kill the clients say the connection is lost, reconnect through
HAProxy with their kept tokens, are put back in the game on the surviving
node, and play on until the game ends.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_lib  # noqa: E402
from cluster_lib import FAILOVER, Cluster, redis_cmd  # noqa: E402

sys.path.insert(0, os.path.join(cluster_lib.HERE, "..", "blackbox"))
import client_lib  # noqa: E402

# The prompts of tests/blackbox/test_client_reconnect.py.
PROMPT_W = r"White player \(x\), a square to clone to \([a-i]\d\) or a " \
    r"jump \([a-i]\d[a-i]\d\): "
PROMPT_B = r"Black player \(o\), a square to clone to \([a-i]\d\) or a " \
    r"jump \([a-i]\d[a-i]\d\): "


def owner(cl):
    """(room, index of the owning node) from Redis's one lease, or None."""
    keys = redis_cmd(cl.redis_addr, "KEYS", "room:*:owner") or []
    if len(keys) != 1:
        return None
    room = keys[0].split(":")[1]
    val = redis_cmd(cl.redis_addr, "GET", keys[0]) or ""
    node = val.split(":")[0]
    ids = [n.node_id for n in cl.nodes]
    return (room, ids.index(node)) if node in ids else None


def run(ck, a):
    cl = Cluster(a.build, 2)
    ta = client_lib.client(a.build, cl.front, "ana")
    tb = None
    try:
        ck.ok(ta.wait(r"Welcome, ana\."), "ana logged in through HAProxy")
        tb = client_lib.client(a.build, cl.front, "bob")
        ck.ok(tb.wait(r"Welcome, bob\."), "bob logged in through HAProxy")
        ck.ok(ta.say("create ataxx size=5", r"Waiting for an opponent"),
              "ana made a room")
        own = cluster_lib.retry(lambda: owner(cl), timeout=cluster_lib.WAIT)
        ck.ok(own is not None, "Redis names the room's owner: %r" % (own,))
        if own is None:
            return
        room, i = own
        ck.ok(tb.say("join %s" % room, r"seat black"), "bob joined")
        ck.ok(ta.say("b4", r"^White player clones at b4\.$"), "ana moved")
        ck.ok(tb.wait(r"^White player clones at b4\.$"), "bob saw it")
        ck.ok(tb.say("b2", r"^Black player clones at b2\.$"), "bob moved")
        ck.ok(ta.wait(r"^Black player clones at b2\.$"), "ana saw it")
        ck.ok(ta.prompt(PROMPT_W + "$"), "ana's turn")
        cl.nodes[i].kill()
        lost = [t for t in (ta, tb)
                if t.wait(r"^The connection to the server is lost",
                          timeout=2)]
        ck.ok(len(lost) >= 1, "the client on the killed node is told the "
              "connection is lost")
        for t in lost:
            ck.ok(t.wait(r"^Connected again as (ana|bob)\.$",
                         timeout=FAILOVER + 5),
                  "a client reconnected through HAProxy")
        ck.ok(ta.prompt(PROMPT_W + "$", timeout=FAILOVER),
              "ana is asked for her move again")
        ck.ok(ta.say("c4", r"^White player clones at c4\.$",
                     timeout=FAILOVER), "ana moved after the kill")
        ck.ok(tb.wait(r"^White player clones at c4\.$"), "bob saw it")
        ck.ok(tb.prompt(PROMPT_B + "$"), "bob's turn")
        over = r"^Game over \(resignation\): White player wins!$"
        ck.ok(tb.say("resign", over), "bob resigns")
        ck.ok(ta.wait(over), "ana is told the game is over")
        stored = [m for _, _, m in cl.stored_moves(room)]
        ck.eq(stored, ["b4", "b2", "c4"], "PostgreSQL holds the three moves")
        if os.environ.get("TABLERO_SHOW_SCREENS") or ck.failed:
            print("ana's screen:\n%s\nbob's screen:\n%s" %
                  (ta.screen(), tb.screen()), flush=True)
            for n in cl.nodes:
                print("node %s's log (end):\n%s" %
                      (n.node_id, n.logtext()[-4000:]), flush=True)
    finally:
        ta.stop()
        if tb is not None:
            tb.stop()
        cl.stop()


if __name__ == "__main__":
    cluster_lib.main(run)
