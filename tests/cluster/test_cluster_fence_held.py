"""test_cluster_fence_held.py: the fence at the commit itself (issue 28,
point 6; docs/SCALING.md part 3 "How a room fails over"): a stale node's
write that reaches PostgreSQL is refused there by the room's
owner_epoch check (server/store/pg.c, pgpg_fence).

test_cluster_fence.py stops a node before it reads a move: the node
gives the room up on waking, before anything is committed, so the
commit never runs with a stale epoch. Here the commit does. Two nodes;
the room is node 1's (its creator plays there) and node 1 stores
through a fault control file (TABLERO_TEST_STORE_FAULTS,
docs/HACKING.md "Storage faults"). With the creator to move, the file
is set to "hold" and the creator moves: node 1 applies the move, and
its store thread takes the group and stops before it begins the
transaction (it writes "holding" into the file). Node 1 is then stopped
(SIGSTOP) past its lease; node 2 takes the room on its player's request
and that player resigns there (node 2 commits the end, with the room's
new epoch). Node 1 is continued and gives the room up (its lease
lapsed), but its store thread still holds the group, stamped with the
epoch node 1 had: the hold is released and that group goes to
PostgreSQL. The fence must refuse it: the move is never acknowledged,
and once node 1 has stored something after it (a new room of another
player), PostgreSQL holds node 2's history alone, the game ended by
resignation. With the epoch check disabled the stale move and room row
are stored over node 2's end, and this test fails.
"""

import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_lib  # noqa: E402
from cluster_lib import (LEASE, WAIT, Cluster, ataxx_room,  # noqa: E402
                         history, retry, seat_of, stale_reply)
from games_lib import login, play_out, req, seeded  # noqa: E402

# Moves before the hold (an even number: the creator, first to move in
# Ataxx, is to move again).
BEFORE = 4
# Seconds past the lease that node 1 stays stopped.
MARGIN = 2.0
# Seconds the creator's move must stay unacknowledged while its group is
# held (node 1 still running).
UNACKED = 0.5
# What the stale owner may say to its player when it drops the room
# (besides closing the connection): names of events.
GOODBYES = ("reconnect", "replaced", "shutdown", "room_lost")


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def read(path):
    with open(path) as f:
        return f.read()


def replies(c, seconds):
    """The replies c reads within seconds (events are left aside)."""
    out = []
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            m = c.read(max(0.01, deadline - time.time()))
        except (TimeoutError, OSError):
            break
        if m is None:
            break
        if "re" in m:
            out.append(m)
    return out


def run(ck, a):
    fd, ctl = tempfile.mkstemp(prefix="tablero-fence-held-")
    os.close(fd)
    try:
        with Cluster(a.build, 2, node_env={
                0: {"TABLERO_TEST_STORE_FAULTS": ctl}}) as cl:
            held(ck, cl, ctl)
    finally:
        os.unlink(ctl)


def held(ck, cl, ctl):
    tag = "held"
    pa = login(cl.port(0), "hana")
    pb = login(cl.port(1), "hbob")
    room = ataxx_room(ck, tag, pa, pb)
    st = req(pa, "state", room=room)["state"]
    seat_a = seat_of(st, "hana")
    seats = {seat_a: pa, seat_of(st, "hbob"): pb}
    acked = play_out(ck, tag, room, seats, seeded(7), BEFORE, observer=pb,
                     to_end=False)
    before = [m for _, m, _ in acked]
    ck.eq(len(before), BEFORE, "%s: %d moves before the hold" %
          (tag, BEFORE))
    st = req(pa, "state", room=room)["state"]
    ck.eq(st["turn"], seat_a, "%s: the creator is to move" % tag)
    moves = req(pa, "moves", room=room)["moves"]
    ck.ok(len(moves) >= 1, "%s: the creator has a move" % tag)

    write(ctl, "hold")
    pa.send("move", room=room, move=moves[0])
    ck.ok(retry(lambda: read(ctl) == "holding", timeout=WAIT),
          "%s: node 1's store thread holds a group (%r)" % (tag, read(ctl)))
    ck.eq(replies(pa, UNACKED), [], "%s: the move waits for its commit" %
          tag)

    cl.nodes[0].pause()
    time.sleep(LEASE + MARGIN)
    taken = retry(lambda: history(pb, room) == before,
                  timeout=cluster_lib.FAILOVER)
    ck.ok(taken, "%s: node 2 serves the room once node 1's lease is "
          "over" % tag)
    r = req(pb, "resign", room=room)
    ck.ok(r and r.get("ok"), "%s: node 2's player resigns there: %r" %
          (tag, r))
    claimed = cl.rows("SELECT owner_epoch FROM rooms WHERE id = '%s'" %
                      room)
    ck.ok(claimed and int(claimed[0][0]) > 1, "%s: node 2 took the room "
          "with a new epoch in PostgreSQL: %r" % (tag, claimed))

    # Node 1 wakes with the group still held: it gives the room up (its
    # lease lapsed), then the hold ends and the group, stamped with
    # node 1's old epoch, goes to PostgreSQL.
    cl.nodes[0].resume()
    lost = "cluster: room %s lost" % room
    ck.ok(retry(lambda: lost in cl.nodes[0].logtext(), timeout=WAIT),
          "%s: node 1 gives the room up on waking" % tag)
    ck.eq(read(ctl), "holding", "%s: the group is still held" % tag)
    write(ctl, "")
    kind, msg = stale_reply(pa, "move", GOODBYES)
    ck.ok(kind in ("error", "told", "closed"),
          "%s: node 1 does not acknowledge the held move (got %s %r)" %
          (tag, kind, msg))
    # Node 1's store thread commits in order: once a later change of
    # node 1 is stored, the held group has been tried.
    c = login(cl.port(0), "hcat")
    r = req(c, "create", game="ataxx", options={"size": 5})
    ck.ok(r and r.get("ok"), "%s: node 1 stores a new room after the held "
          "group: %r" % (tag, r))
    ck.eq(cl.rows("SELECT count(*) FROM rooms WHERE id = '%s'" %
                  (r or {}).get("room", "?")), [("1",)],
          "%s: the new room is in PostgreSQL" % tag)

    ck.eq([m for _, _, m in cl.stored_moves(room)], before,
          "%s: PostgreSQL refused the stale move (no move after the "
          "hold)" % tag)
    ck.eq(cl.rows("SELECT status, result::json->>'reason' FROM rooms "
                  "WHERE id = '%s'" % room),
          [("ended", "resignation")],
          "%s: PostgreSQL keeps node 2's end over node 1's stale row" % tag)
    st = req(pb, "state", room=room)["state"]
    ck.eq(([h["move"] for h in st["history"]], st["status"]),
          (before, "ended"), "%s: node 2 holds its history" % tag)
    for x in (pa, pb, c):
        x.close()


if __name__ == "__main__":
    cluster_lib.main(run)
