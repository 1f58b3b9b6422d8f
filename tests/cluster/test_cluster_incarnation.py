"""test_cluster_incarnation.py: a node started again under the same --node
is a new incarnation, and nothing of the old one acts (issue 29, findings
1 and 3).

Node 1 owns the rooms; node 2 is a home node on a port of its own (out
of HAProxy, so that nothing but this test opens connections to it and
its connection ids are known). Connection ids start at 1 again when a
node starts.

1. The impersonation: ana (node 1) and bob (node 2) play; node 2 is
   killed (SIGKILL) on bob's turn and started again under the same id;
   a new identity, mal, logs in there until one of its connections gets
   bob's old connection id, then sends a move and a chat in bob's room.
   Neither acts as bob: no move is stored, nobody hears mal's text, and
   mal's requests get an error. Bob's seat counts as gone (his node's
   old incarnation is over), and bob, logging in again with his token
   on node 1, is back in it.
2. A node that died for good: cat (node 2) sits in dan's room (node 1);
   node 2 is killed and never comes back. Within a lease, a scan and the
   grace, dan's claim is allowed (it never was: the dead node's
   stand-in stayed "connected").
"""

import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_lib  # noqa: E402
from cluster_lib import (FAILOVER, LEASE, Cluster, Node,  # noqa: E402
                         retry, seat_of)
from games_lib import login, req  # noqa: E402

# The grace the nodes give a gone player: short, so that a claim can be
# tried within the test; the claims below wait it out with a margin.
GRACE = 3
# How long a claim may take to be allowed after a home node's end: a
# lease (its absence is seen), a scan, the grace, and margins for a
# loaded machine.
CLAIM_WAIT = FAILOVER + LEASE + GRACE + 10
# Connections tried on the restarted node to get a known id: far more
# than the ids before bob's.
TRIES = 50
# What mal says: it must never be heard as bob's.
MAL_TEXT = "mal speaking, not bob"


def conn_id(node, name):
    """The connection id name logged in on at node (from its log)."""
    m = re.findall(r"%s logged in from \S+ \(conn (\d+)\)" % name,
                   node.logtext())
    return int(m[-1]) if m else None


def turn_to(ck, tag, room, mover, other, who):
    """Play one move of `other` when it is not `who`'s turn, so that it
    is (ataxx: turns alternate)."""
    st = req(mover, "state", room=room)["state"]
    if seat_of(st, who) == st["turn"]:
        return
    ms = req(other, "moves", room=room)["moves"]
    r = req(other, "move", room=room, move=ms[0])
    ck.ok(r and r.get("ok"), "%s: a move to make it %s's turn: %r" %
          (tag, who, r))


def connected(c, room, name):
    """Does room's state (as c gets it) show name's seat connected?"""
    r = req(c, "state", room=room)
    seats = r["state"]["seats"] if r and r.get("ok") else []
    return any(s.get("name") == name and s.get("connected") for s in seats)


def history(c, room):
    r = req(c, "state", room=room)
    return [h["move"] for h in r["state"]["history"]] if r and r.get(
        "ok") else None


def impersonation(ck, cl):
    tag = "restart"
    extra = cl.extra
    b = Node(cl.build, "n2", cl.db, cl.redis_addr, extra=extra).start()
    ana = login(cl.port(0), "iana")
    bob = login(b.port, "ibob")
    r = req(ana, "create", game="ataxx", options={"size": 5})
    ck.ok(r and r.get("ok"), "%s: create on node 1: %r" % (tag, r))
    room = r["room"]
    j = req(bob, "join", room=room)
    ck.ok(j and j.get("ok"), "%s: bob joins from node 2: %r" % (tag, j))
    turn_to(ck, tag, room, ana, ana, "ibob")
    before = history(ana, room)
    bob_id = conn_id(b, "ibob")
    ck.ok(bob_id is not None, "%s: bob's connection id on node 2 (%r)" %
          (tag, bob_id))
    b.kill()
    bob.close()
    b2 = Node(cl.build, "n2", cl.db, cl.redis_addr, extra=extra).start()
    mal = None
    for i in range(TRIES):
        c = login(b2.port, "imal%d" % i)
        got = conn_id(b2, "imal%d" % i)
        if got == bob_id:
            mal = c
            break
        c.close()
        if got is None or got > bob_id:
            break
    ck.ok(mal is not None, "%s: a new identity on the restarted node 2 "
          "got bob's old connection id %r" % (tag, bob_id))
    if mal is None:
        b2.cleanup()
        return
    ms = req(ana, "moves", room=room)["moves"]
    mv = req(mal, "move", room=room, move=ms[0])
    ck.ok(mv is not None and not mv.get("ok"), "%s: mal's move in bob's "
          "seat is refused: %r" % (tag, mv))
    say = req(mal, "chat", room=room, text=MAL_TEXT)
    ck.ok(say is not None and not say.get("ok"), "%s: mal's chat in "
          "bob's room is refused: %r" % (tag, say))
    # Let anything mal caused arrive (a routed request, its events).
    req(ana, "ping")
    time.sleep(1)
    req(ana, "ping")
    ck.eq(history(ana, room), before, "%s: no move was made in bob's seat"
          % tag)
    ck.eq([m for _, _, m in cl.stored_moves(room)], before,
          "%s: PostgreSQL holds no move of mal's" % tag)
    heard = [e for e in ana.log if e.get("event") == "chat" and
             e.get("text") == MAL_TEXT]
    ck.eq(heard, [], "%s: nobody heard mal's text (least of all as bob's)"
          % tag)
    # Bob's seat is gone with his node's old incarnation.
    gone = retry(lambda: not connected(ana, room, "ibob"),
                 timeout=CLAIM_WAIT, pause=0.5)
    ck.ok(gone, "%s: bob's seat counts as gone once his node's old "
          "incarnation is over" % tag)
    bob2 = login(cl.port(0), "ibob", bob.token)
    ck.ok(bob2.hello and bob2.hello.get("ok"), "%s: bob logs in again on "
          "node 1 with his token: %r" % (tag, bob2.hello))
    j = req(bob2, "join", room=room)
    ck.ok(j and j.get("ok") and seat_of(j["state"], "ibob"),
          "%s: bob is back in his seat: %.200r" % (tag, j))
    ck.ok(connected(ana, room, "ibob"), "%s: and counts as there" % tag)
    bob2.close()
    mal.close()
    ana.close()
    b2.cleanup()


def died_for_good(ck, cl):
    tag = "died"
    b = Node(cl.build, "n3", cl.db, cl.redis_addr, extra=cl.extra).start()
    dan = login(cl.port(0), "idan")
    cat = login(b.port, "icat")
    r = req(dan, "create", game="ataxx", options={"size": 5})
    ck.ok(r and r.get("ok"), "%s: create on node 1: %r" % (tag, r))
    room = r["room"]
    j = req(cat, "join", room=room)
    ck.ok(j and j.get("ok"), "%s: cat joins from node 3: %r" % (tag, j))
    turn_to(ck, tag, room, dan, dan, "icat")
    r = req(dan, "claim", room=room)
    ck.ok(r is not None and not r.get("ok"), "%s: no claim while cat is "
          "there: %r" % (tag, r))
    t0 = time.time()
    b.kill()
    cat.close()
    ok = retry(lambda: (req(dan, "claim", room=room) or {}).get("ok"),
               timeout=CLAIM_WAIT, pause=0.5)
    ck.ok(ok, "%s: dan may claim after cat's node died for good (within "
          "%d s; last: %r)" % (tag, CLAIM_WAIT, req(dan, "claim",
                                                    room=room)))
    if ok:
        print("died: claim allowed %.1f s after the kill (grace %d s)" %
              (time.time() - t0, GRACE), flush=True)
    dan.close()
    b.cleanup()


def run(ck, a):
    with Cluster(a.build, 1, extra=["--grace", str(GRACE)]) as cl:
        impersonation(ck, cl)
        died_for_good(ck, cl)


if __name__ == "__main__":
    cluster_lib.main(run)
