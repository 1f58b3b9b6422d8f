"""test_cluster_redis.py: Redis restarted under load loses nothing
(issue 19).

Two nodes on a Redis of this test's own. ROOMS rooms, each created on node
1 with its other player on node 2, stream moves from both seats (every
move of node 2's players forwarded). Redis is killed (SIGKILL, no
persistence: it comes back empty) in the middle and started again on the
same port after a pause. Then: every move acknowledged before, during or
after the outage is in the room's history and in PostgreSQL, in the order
of its seq; leases, presence and the lobby are rebuilt (`who` and `rooms`
on node 2 show node 1's players and rooms again); every room plays on
across the nodes.
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_lib  # noqa: E402
from cluster_lib import FAILOVER, WAIT, Cluster, retry, seat_of  # noqa: E402
from games_lib import Streamer, login, play_out, req, seeded  # noqa: E402

# Rooms under load at once.
ROOMS = 6
# Moves each seat has ready: the rooms stay playing after them (a 7x7
# Ataxx game of first listed moves takes 46), so the lobby and the game
# after the restart have them to show.
PLAN = 20
# Seconds of load before Redis dies, and seconds it stays dead.
BEFORE = 0.3
OUTAGE = 1.0


def setup(ck, cl, i):
    pa = login(cl.port(0), "ra%d" % i)
    pb = login(cl.port(1), "rb%d" % i)
    r = req(pa, "create", game="ataxx")
    ck.ok(r and r.get("ok"), "room %d: create on node 1: %r" % (i, r))
    room = r["room"]
    j = req(pb, "join", room=room)
    ck.ok(j and j.get("ok"), "room %d: join from node 2: %r" % (i, j))
    st = j["state"]
    return {"room": room, "a": pa, "b": pb, "turn": st["turn"],
            "seat_a": seat_of(st, pa.name), "seat_b": seat_of(st, pb.name)}


def run(ck, a):
    with Cluster(a.build, 2, own_redis=True) as cl:
        restarted(ck, cl)


def restarted(ck, cl):
    rooms = [setup(ck, cl, i) for i in range(ROOMS)]
    streams = []
    for r in rooms:
        for who, seat in (("a", r["seat_a"]), ("b", r["seat_b"])):
            s = Streamer(r[who], r["room"], seat, PLAN, r["turn"])
            streams.append(s)
            s.start()
    time.sleep(BEFORE)
    cl.redis.stop()
    time.sleep(OUTAGE)
    cl.redis.start()
    for s in streams:
        s.join(3 * WAIT + 5)
    acks = sum(len(s.acks) for s in streams)
    print("redis: %d moves acknowledged under load" % acks, flush=True)
    ck.ok(acks > 0, "moves were acknowledged under load")

    for r in rooms:
        tag = "room " + r["room"]
        mine = [s for s in streams if s.room == r["room"]]
        acked = {}
        for s in mine:
            acked.update(s.acks)
        # The stream's seats may have stopped on an error during the
        # outage: the room as a client would see it now, retried while the
        # cluster takes its rooms back.
        st = retry(lambda: _state(r["b"], r["room"]), timeout=FAILOVER)
        ck.ok(st is not None, "%s: node 2 serves the room again" % tag)
        if st is None:
            continue
        got = [h["move"] for h in st["history"]]
        want = [acked[q] for q in sorted(acked)]
        ck.ok(subsequence(want, got), "%s: every acknowledged move is in "
              "the history, in the order of its seq (%d acked, %d in "
              "history)" % (tag, len(want), len(got)))
        stored = [m for _, _, m in cl.stored_moves(r["room"])]
        ck.eq(stored, got, "%s: PostgreSQL holds the history" % tag)

    c = login(cl.port(1), "rwho")
    p = retry(lambda: all(_who_has(c, x["a"].name) for x in rooms),
              timeout=FAILOVER)
    ck.ok(p, "presence rebuilt: node 2's who lists node 1's players")
    listed = retry(lambda: {x["room"] for x in rooms} <=
                   {s.get("room") for s in
                    req(c, "rooms").get("rooms", [])}, timeout=FAILOVER)
    ck.ok(listed, "lobby rebuilt: node 2's rooms lists node 1's rooms "
          "(%r)" % req(c, "rooms"))

    for r in rooms:
        tag = "room %s after" % r["room"]
        for x in (r["a"], r["b"]):
            x.pending = []
        st = _state(r["b"], r["room"])
        if st is None or st["status"] != "playing":
            continue
        seats = {r["seat_a"]: r["a"], r["seat_b"]: r["b"]}
        more = play_out(ck, tag, r["room"], seats, seeded(3), 4,
                        observer=r["b"], to_end=False)
        ck.ok(len(more) > 0, "%s: the room plays on across the nodes" % tag)
        st2 = _state(r["b"], r["room"])
        ck.eq([m for _, _, m in cl.stored_moves(r["room"])],
              [h["move"] for h in st2["history"]],
              "%s: PostgreSQL holds the moves after the restart" % tag)
    for r in rooms:
        r["a"].close()
        r["b"].close()
    c.close()


def subsequence(want, got):
    """Is want got with some items left out (a move stored whose reply
    was lost is in got only)?"""
    it = iter(got)
    return all(any(w == g for g in it) for w in want)


def _state(c, room):
    try:
        r = req(c, "state", room=room)
    except (OSError, TimeoutError, ValueError):
        return None
    return r["state"] if r and r.get("ok") else None


def _who_has(c, name):
    r = req(c, "who")
    return any(p.get("name") == name for p in (r or {}).get("players", []))


if __name__ == "__main__":
    cluster_lib.main(run)
