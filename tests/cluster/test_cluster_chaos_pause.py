"""test_cluster_chaos_pause.py: Redis stopped (SIGSTOP) mid-game (issue
29, the chaos suite).

A stopped Redis keeps its sockets open and answers nothing: the nodes
must notice by themselves (a watchdog on their commands) and ride it out
as an outage. Two nodes on a Redis of this test's own; ana (node 1, the
owner) and bob (node 2) play; Redis is stopped for PAUSE seconds, during
which ana moves on the owner; then it goes on (with what it held, and
with its keys' leases expired meanwhile). Bob hears ana's move and both
play on within RESUME seconds, without reconnecting; no grace runs out
(--grace is shorter than the pause), nothing acknowledged is lost, one
reply per request.
"""

import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_lib  # noqa: E402
from chaos_lib import Duel, until_time  # noqa: E402
from cluster_lib import WAIT, Cluster  # noqa: E402
from games_lib import req, until  # noqa: E402

# Seconds Redis stays stopped.
PAUSE = 10
# Both players go on within this many seconds after Redis goes on.
RESUME = 30
# Shorter than the pause: a disconnection the cluster caused would let
# the opponent claim.
GRACE = 4


def run(ck, a):
    with Cluster(a.build, 2, own_redis=True,
                 extra=["--grace", str(GRACE)]) as cl:
        paused(ck, cl)


def paused(ck, cl):
    tag = "pause"
    d = Duel(ck, cl, tag, 0, 1, ("pana", "pbob"))
    ck.eq(d.play(4, 3 * WAIT), 4, "%s: four moves before" % tag)
    if d.state(d.a, WAIT)["turn"] != d.seat["pana"]:
        ck.eq(d.play(1, WAIT), 1, "%s: ana's turn" % tag)
    pid = cl.redis.proc.pid
    os.kill(pid, signal.SIGSTOP)
    t_stop = time.time()
    try:
        ms = req(d.a, "moves", room=d.room)
        mv = req(d.a, "move", room=d.room, move=ms["moves"][0])
        ck.ok(mv and mv.get("ok"), "%s: ana's move on the owner is stored "
              "while Redis is stopped: %r" % (tag, mv))
        d.acked[mv["seq"]] = mv["move"]
        time.sleep(max(0, PAUSE - (time.time() - t_stop)))
    finally:
        os.kill(pid, signal.SIGCONT)
    t_cont = time.time()
    got = until(d.b, lambda e: e.get("event") == "moved" and
                e.get("seq") == mv["seq"], timeout=RESUME)
    ck.ok(got is not None, "%s: bob hears ana's move once Redis goes on" %
          tag)
    heard = time.time() - t_cont
    n, took = until_time(lambda: d.play(1, RESUME) == 1, RESUME)
    ck.ok(n, "%s: bob moves again within %d s" % (tag, RESUME))
    print("pause: Redis stopped %.1f s; bob heard ana's move %.1f s and "
          "moved %.1f s after it went on" % (t_cont - t_stop, heard,
                                             heard + took), flush=True)
    ck.eq(d.play(4, 3 * WAIT), 4, "%s: four moves after" % tag)
    time.sleep(GRACE + 1)
    for c in d.clients():
        ck.ok(not any(e.get("event") in ("opponent_gone", "reconnect")
                      for e in c.log),
              "%s: %s heard of no departure" % (tag, c.name))
        r = req(c, "claim", room=d.room)
        ck.ok(r is not None and not r.get("ok"), "%s: %s may not claim: "
              "%r" % (tag, c.name, r))
    d.check()
    for c in d.clients():
        c.close()


if __name__ == "__main__":
    cluster_lib.main(run)
