"""test_cluster_fence.py: a node cut off past its lease cannot write a
second history (issue 19, docs/SCALING.md part 3 "How a room fails over").

Two nodes; the room is node 1's (its creator plays there), the other
player is on node 2. With the creator to move, node 1 is stopped (SIGSTOP)
and the creator's move is sent to it: it waits in node 1's socket. Past
the lease, node 2 takes the room on its player's request, and that player
resigns there (node 2 commits the end). Node 1 is continued (SIGCONT) and
reads the creator's move. Whatever it does, its move must not be
acknowledged: either node 1 plays it on its stale copy, its commit fails
the owner_epoch check, and it tells the creator to go (a notice or a
close); or node 1 already knows it lost the room and forwards the move to
node 2, which answers game_over. PostgreSQL holds one history, node 2's;
node 1, asked afterwards, serves it too.
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_lib  # noqa: E402
from cluster_lib import (LEASE, WAIT, Cluster, ataxx_room,  # noqa: E402
                         history, retry, seat_of, stale_reply)
from games_lib import login, play_out, req, seeded  # noqa: E402

# Moves before the stop (an even number: the creator, first to move in
# Ataxx, is to move again).
BEFORE = 4
# Seconds past the lease that node 1 stays stopped.
MARGIN = 2.0
# What the stale owner may say to its player when it drops the room
# (besides closing the connection): names of events.
GOODBYES = ("reconnect", "replaced", "shutdown", "room_lost")


def run(ck, a):
    with Cluster(a.build, 2) as cl:
        fenced(ck, cl)


def fenced(ck, cl):
    tag = "fence"
    pa = login(cl.port(0), "sana")
    pb = login(cl.port(1), "sbob")
    room = ataxx_room(ck, tag, pa, pb)
    st = req(pa, "state", room=room)["state"]
    seat_a = seat_of(st, "sana")
    seats = {seat_a: pa, seat_of(st, "sbob"): pb}
    acked = play_out(ck, tag, room, seats, seeded(7), BEFORE, observer=pb,
                     to_end=False)
    before = [m for _, m, _ in acked]
    st = req(pa, "state", room=room)["state"]
    ck.eq(st["turn"], seat_a, "%s: the creator is to move" % tag)
    moves = req(pa, "moves", room=room)["moves"]
    ck.ok(len(moves) >= 1, "%s: the creator has a move" % tag)

    cl.nodes[0].pause()
    # Sent while node 1 is stopped: it waits in node 1's socket.
    pa.send("move", room=room, move=moves[0])
    time.sleep(LEASE + MARGIN)

    taken = retry(lambda: history(pb, room) == before,
                  timeout=cluster_lib.FAILOVER)
    ck.ok(taken, "%s: node 2 serves the room once node 1's lease is "
          "over" % tag)
    r = req(pb, "resign", room=room)
    ck.ok(r and r.get("ok"), "%s: node 2's player resigns there: %r" %
          (tag, r))

    cl.nodes[0].resume()
    kind, msg = stale_reply(pa, "move", GOODBYES)
    ck.ok(kind in ("error", "told", "closed"),
          "%s: node 1 does not acknowledge the move it read late "
          "(got %s %r)" % (tag, kind, msg))
    if kind == "error" and (msg or {}).get("error") != "game_over":
        kind2, msg2 = stale_reply(pa, "move", GOODBYES)
        ck.ok(kind2 in ("told", "closed"), "%s: having failed to commit, "
              "node 1 tells its player to reconnect (got %s %r after %r)"
              % (tag, kind2, msg2, msg))
    time.sleep(0.5)
    st = req(pb, "state", room=room)["state"]
    ck.eq(([h["move"] for h in st["history"]], st["status"],
           (st.get("result") or {}).get("reason")),
          (before, "ended", "resignation"),
          "%s: node 2 holds its history: the moves before, then the "
          "resignation" % tag)
    ck.eq([m for _, _, m in cl.stored_moves(room)], before,
          "%s: PostgreSQL holds no move after the stop" % tag)
    ck.eq(cl.rows("SELECT status FROM rooms WHERE id = '%s'" % room),
          [("ended",)], "%s: PostgreSQL has the game ended" % tag)
    c = login(cl.port(0), "scat")
    got = retry(lambda: (history(c, room) == before and
                         req(c, "state", room=room)["state"]["status"] ==
                         "ended"), timeout=WAIT)
    ck.ok(got, "%s: node 1, continued, serves node 2's history (%r)" %
          (tag, history(c, room)))
    for x in (pa, pb, c):
        x.close()


if __name__ == "__main__":
    cluster_lib.main(run)
