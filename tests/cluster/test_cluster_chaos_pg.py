"""test_cluster_chaos_pg.py: PostgreSQL stopped mid-game (issue 29, the
chaos suite).

Two nodes on a PostgreSQL of this test's own; ana (node 1, the owner)
and bob (node 2) play. PostgreSQL is stopped at once (as a crash) for
DOWN seconds. Meanwhile every node's ping says "ready":false (HAProxy
takes them out) and moves are refused with store_failing (retryable:
nothing changed) or held until PostgreSQL is back (acknowledged means
stored), with one reply either way; the game in memory keeps its
state. Once PostgreSQL is back the nodes are ready again and the game
goes on, with every acknowledged move stored, one reply per request, and
nobody losing by abandonment.
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_lib  # noqa: E402
from chaos_lib import Duel, OwnPg, until_time  # noqa: E402
from cluster_lib import WAIT, Client, Cluster  # noqa: E402
from games_lib import req  # noqa: E402

# Seconds PostgreSQL stays down (well inside --store-give-up's 60).
DOWN = 10
# Play goes on within this many seconds after PostgreSQL is back (the
# store tries again after up to a second; a node's reader reconnects).
RESUME = 30


def ready(port):
    try:
        c = Client(port)
        r = c.call("ping")
        c.close()
    except (OSError, TimeoutError, ValueError):
        return None
    return (r or {}).get("ready")


def run(ck, a):
    pg = OwnPg()
    with Cluster(a.build, 2, db=pg.url) as cl:
        stopped(ck, cl, pg)
    pg.cleanup()


def stopped(ck, cl, pg):
    tag = "pg"
    d = Duel(ck, cl, tag, 0, 1, ("gana", "gbob"))
    ck.eq(d.play(4, 3 * WAIT), 4, "%s: four moves before" % tag)
    pg.halt()
    t0 = time.time()
    down, took = until_time(lambda: ready(cl.port(0)) is False and
                            ready(cl.port(1)) is False, 3 * WAIT)
    ck.ok(down, "%s: both nodes' pings say ready:false" % tag)
    print("pg: both nodes not ready %.1f s after PostgreSQL stopped" %
          took, flush=True)
    # A move now: refused (store_failing), or held until its commit goes
    # through once PostgreSQL is back; one reply either way.
    st = d.state(d.a, WAIT)
    mover = next(n for n, s in d.seat.items() if s == st["turn"])
    c = d.client_of(mover)
    ms = req(c, "moves", room=d.room)["moves"]
    rid = c.send("move", room=d.room, move=ms[0])
    time.sleep(max(0, DOWN - (time.time() - t0)))
    pg.resume()
    t_up = time.time()
    r = c.reply(rid, timeout=RESUME)
    ck.ok(r is not None and (r.get("ok") or r.get("error") ==
                             "store_failing"),
          "%s: the move sent while PostgreSQL was down is answered: "
          "stored, or refused with store_failing: %r" % (tag, r))
    if r and r.get("ok"):
        d.acked[r["seq"]] = r["move"]
    n, took = until_time(lambda: d.play(1, RESUME) == 1, RESUME)
    ck.ok(n, "%s: a move within %d s of PostgreSQL's return" % (tag,
                                                                RESUME))
    print("pg: PostgreSQL down %.1f s; the next move %.1f s after it came "
          "back" % (t_up - t0, time.time() - t_up), flush=True)
    up, _ = until_time(lambda: ready(cl.port(0)) and ready(cl.port(1)),
                       WAIT)
    ck.ok(up, "%s: both nodes are ready again" % tag)
    ck.eq(d.play(4, 3 * WAIT), 4, "%s: four moves after" % tag)
    d.check()
    for c in d.clients():
        c.close()


if __name__ == "__main__":
    cluster_lib.main(run)
