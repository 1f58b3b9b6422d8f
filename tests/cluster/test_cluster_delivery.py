"""test_cluster_delivery.py: what goes between nodes arrives once, and
every request gets one reply (issue 29, findings 4 and 6).

Two nodes; ana on node 1 (the room's owner), bob on node 2.

1. A lost event is replayed: node 2 reaches Redis through a proxy of this
   test. The proxy holds node 2's connections (as a stalled network
   does); ana moves; the test deletes node 2's stream, so her move's
   event is gone from Redis; the proxy closes node 2's connections and
   lets new ones through. Node 1 still has the event (unacknowledged) and
   sends it again: bob hears it, in order, and plays on. The nodes run
   without links here (--node-link off), so the event goes by the
   stream; the rest runs with links, as nodes do by default.
2. One request, one reply, even when its room moves mid-flight: on bob's
   turn node 1 is stopped (SIGSTOP) and bob sends his move; node 2 takes
   the room once node 1's lease has lapsed and answers it; node 1 is
   continued. Bob gets exactly one reply to that move, ana (told to
   reconnect by node 1, which lost the room) comes back and the game
   goes on. Meanwhile a request for the room is never answered
   no_such_room, and one for a room that never was is, at once.
3. Watchers are cleaned on disconnect: a spectator on node 2 of a room on
   node 1 is in watchers:{room}; closing its connection (no leave)
   removes it.
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_lib  # noqa: E402
from chaos_lib import (Duel, Proxy, call, node_through,  # noqa: E402
                       player, until_time)
from cluster_lib import (FAILOVER, LEASE, WAIT, Cluster,  # noqa: E402
                         redis_cmd, retry)
from games_lib import req, until  # noqa: E402

# How long a lost event may take to come again: the owner sends what is
# unacknowledged again after three ticks, and node 2 reconnects.
REPLAY = 20
# How long to listen for a second reply after node 1 goes on.
AFTER = 8


def turn_of(d, name, ck, tag):
    """Play a move when it is not name's turn."""
    st = d.state(d.a, WAIT)
    if st["turn"] != d.seat[name]:
        ck.eq(d.play(1, WAIT), 1, "%s: a move, to make it %s's turn" %
              (tag, name))


def lost_event(ck, cl, proxy):
    tag = "lost"
    d = Duel(ck, cl, tag, 0, 1, ("lana", "lbob"))
    ck.eq(d.play(2, 3 * WAIT), 2, "%s: two moves" % tag)
    turn_of(d, "lana", ck, tag)
    proxy.set("freeze")
    ms = req(d.a, "moves", room=d.room)
    mv = req(d.a, "move", room=d.room, move=ms["moves"][0])
    ck.ok(mv and mv.get("ok"), "%s: ana moves: %r" % (tag, mv))
    d.acked[mv["seq"]] = mv["move"]
    time.sleep(0.5)
    redis_cmd(cl.redis_addr, "DEL", "stream:n2")
    proxy.set("cut")
    time.sleep(0.5)
    proxy.set("pass")
    got, took = until_time(lambda: until(
        d.b, lambda e: e.get("event") == "moved" and
        e.get("seq") == mv["seq"], timeout=1) is not None, REPLAY)
    ck.ok(got, "%s: bob hears ana's move whose entry Redis lost (within "
          "%d s)" % (tag, REPLAY))
    print("lost: the lost event came again %.1f s after node 2 could "
          "reach Redis again" % took, flush=True)
    seqs = [e["seq"] for e in d.b.log if e.get("room") == d.room and
            "seq" in e]
    ck.eq(seqs, sorted(set(seqs)), "%s: bob's events of the room came in "
          "order, each once: %r" % (tag, seqs))
    ck.eq(d.play(2, 3 * WAIT), 2, "%s: two more moves" % tag)
    d.check()


def moved_mid_flight(ck, cl):
    tag = "mid-flight"
    d = Duel(ck, cl, tag, 0, 1, ("mana", "mbob"))
    ck.eq(d.play(2, 3 * WAIT), 2, "%s: two moves" % tag)
    turn_of(d, "mbob", ck, tag)
    ms = req(d.b, "moves", room=d.room)["moves"]
    cl.nodes[0].pause()
    t0 = time.time()
    rid = d.b.send("move", room=d.room, move=ms[0], id=999)
    # Another client of node 2, asking for the room meanwhile.
    w = player(cl.port(1), "mwat")
    answers = []

    def ask():
        r = req(w, "state", room=d.room)
        answers.append((r or {}).get("error") or "ok")
        return r and r.get("ok")
    retry(ask, timeout=FAILOVER + LEASE, pause=0.5)
    ck.ok("no_such_room" not in answers, "%s: the room was never "
          "answered no_such_room while its owner was away: %r" %
          (tag, answers))
    r = d.b.reply(rid, timeout=FAILOVER + LEASE)
    took = time.time() - t0
    ck.ok(r is not None, "%s: bob's move is answered once node 2 holds "
          "the room: %r" % (tag, r))
    print("mid-flight: bob's move answered %.1f s after node 1 stopped" %
          took, flush=True)
    if r and r.get("ok"):
        d.acked[r["seq"]] = r["move"]
    cl.nodes[0].resume()
    # Anything node 1 still had for bob arrives now, if at all.
    deadline = time.time() + AFTER
    while time.time() < deadline:
        try:
            m = d.b.read(max(0.05, deadline - time.time()))
        except (TimeoutError, OSError):
            break
        if m is None:
            break
        if "event" in m:
            d.b.log.append(m)
    ck.eq(d.b.replies.get(999), 1, "%s: bob's move got exactly one reply"
          % tag)
    t = time.time()
    r = req(w, "join", room="r999999")
    ck.eq((r or {}).get("error"), "no_such_room", "%s: a room that never "
          "was: no_such_room" % tag)
    ck.ok(time.time() - t < LEASE, "%s: ... at once (%.1f s)" %
          (tag, time.time() - t))
    # ana's node lost the room: she is told to reconnect, and does.
    d.reconnect("mana")
    ck.eq(d.play(2, 3 * WAIT), 2, "%s: two more moves after" % tag)
    d.check()
    w.close()


def watchers_cleaned(ck, cl):
    tag = "watchers"
    a = player(cl.port(0), "wana")
    r = req(a, "create", game="ataxx", options={"size": 5})
    room = r["room"]
    w = player(cl.port(1), "wwat")
    ck.ok((req(w, "watch", room=room) or {}).get("ok"), "%s: a spectator "
          "on node 2 watches node 1's room" % tag)
    key = "watchers:%s" % room
    there = retry(lambda: redis_cmd(cl.redis_addr, "SMEMBERS", key),
                  timeout=WAIT)
    ck.ok(there and any(x.endswith("|wwat") for x in there), "%s: it is "
          "in %s: %r" % (tag, key, there))
    w.close()
    gone = retry(lambda: not redis_cmd(cl.redis_addr, "SMEMBERS", key),
                 timeout=WAIT)
    ck.ok(gone, "%s: closing its connection (no leave) takes it out: %r"
          % (tag, redis_cmd(cl.redis_addr, "SMEMBERS", key)))
    a.close()


def run(ck, a):
    # The stream's loss: the nodes without links, so that ana's event
    # goes by node 2's stream (on a link it would wait in the link for
    # node 2's Redis to come back, and never be in the stream to lose).
    with Cluster(a.build, 2, extra=["--node-link", "off"]) as cl:
        proxy = Proxy(cl.redis_addr)
        try:
            node_through(cl, 1, proxy.addr)
            lost_event(ck, cl, proxy)
        finally:
            proxy.set("pass")
        proxy.stop()
    with Cluster(a.build, 2) as cl:
        watchers_cleaned(ck, cl)
        moved_mid_flight(ck, cl)



if __name__ == "__main__":
    cluster_lib.main(run)
