"""test_cluster_failover.py: the owner of a room killed mid-game (issue 19).

Two nodes. The creator plays from node 1 (which owns the room), the other
player from node 2, a spectator watches from node 2. After some moves node
1 is killed with SIGKILL. Within the failover bound (15 s) node 2 serves
the room with every acknowledged move in it; the creator reconnects
through HAProxy with its token (as the `tablero` client does), resumes its
seat and the game is played to its end. PostgreSQL holds exactly the moves
the final state shows, the acknowledged ones first. Node 1, started again,
joins and serves the finished game from the store.
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_lib  # noqa: E402
from cluster_lib import (FAILOVER, Cluster, ataxx_room, history,  # noqa: E402
                         relogin, retry, seat_of)
from games_lib import (ended, login, play_out, req, seeded,  # noqa: E402
                       until)

# Moves before the kill: enough that a lost one would show.
BEFORE = 8
# Ataxx's pass, played by the server for a side without a move: in the
# history, never acknowledged to a player.
PASS = "0000"
# Moves at most after it: an Ataxx 5x5 game ends far sooner.
MAX_MOVES = 600


def run(ck, a):
    with Cluster(a.build, 2) as cl:
        killed_owner(ck, cl)


def killed_owner(ck, cl):
    tag = "failover"
    pa = login(cl.port(0), "fana")
    pb = login(cl.port(1), "fbob")
    w = login(cl.port(1), "fwat")
    room = ataxx_room(ck, tag, pa, pb)
    ck.ok(req(w, "watch", room=room).get("ok"), "%s: watch on node 2" % tag)
    st = req(pa, "state", room=room)["state"]
    seats = {seat_of(st, "fana"): pa, seat_of(st, "fbob"): pb}
    acked = play_out(ck, tag, room, seats, seeded(19), BEFORE, observer=pb,
                     to_end=False)
    ck.eq(len(acked), BEFORE, "%s: %d moves before the kill" % (tag, BEFORE))
    before = [m for _, m, _ in acked]
    t0 = time.time()
    cl.nodes[0].kill()

    got = retry(lambda: history(pb, room) == before, timeout=FAILOVER)
    took = time.time() - t0
    ck.ok(got, "%s: node 2 serves the room with the %d acknowledged moves "
          "within %.0f s (state: %r)" % (tag, BEFORE, FAILOVER,
                                         history(pb, room)))
    print("failover: node 2 served the room %.1f s after the kill" % took,
          flush=True)
    ck.eq([m for _, _, m in cl.stored_moves(room)], before,
          "%s: PostgreSQL holds the acknowledged moves" % tag)

    pa2 = relogin(cl.front, "fana", pa.token)
    ck.ok(pa2 is not None, "%s: the creator logs in again through HAProxy "
          "with its token" % tag)
    if pa2 is None:
        return
    rooms = [s.get("room") for s in pa2.hello.get("rooms", [])]
    ck.ok(room in rooms, "%s: hello lists the unfinished room: %r" %
          (tag, rooms))
    j = req(pa2, "join", room=room)
    ck.ok(j and j.get("ok") and
          [h["move"] for h in j["state"]["history"]] == before,
          "%s: join resumes the seat with the whole history: %.300r" %
          (tag, j))
    seats[seat_of(j["state"], "fana")] = pa2
    rest = play_out(ck, tag + " after", room, seats, seeded(20), MAX_MOVES,
                    observer=pb)
    ck.ok(len(rest) > 0, "%s: the game went on after the kill" % tag)
    for c in (pa2, pb, w):
        ck.ok(until(c, ended(room)) is not None,
              "%s: %s sees the end" % (tag, c.name))
    final = history(pb, room)
    ck.eq([m for m in final or [] if m != PASS],
          before + [m for _, m, _ in rest],
          "%s: the history is the acknowledged moves, before and after "
          "(and the passes the server played)" % tag)
    ck.eq([m for _, _, m in cl.stored_moves(room)], final,
          "%s: PostgreSQL holds the whole game" % tag)
    moved = [e["move"] for e in w.log if e.get("event") == "moved" and
             e.get("room") == room and e.get("move") != PASS]
    ck.eq(moved[-len(rest):] if rest else [], [m for _, m, _ in rest],
          "%s: the spectator on node 2 saw the moves after the kill"
          % tag)

    n1 = cl.start_node(0)
    ck.ok(n1.proc is not None, "%s: node 1 starts again and joins" % tag)
    c = login(cl.port(0), "fcat")
    ck.eq(history(c, room), final, "%s: node 1 serves the finished game "
          "again" % tag)
    for c in (c, pa2, pb, w):
        c.close()


if __name__ == "__main__":
    cluster_lib.main(run)
