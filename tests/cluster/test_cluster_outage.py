"""test_cluster_outage.py: a Redis outage is weather, not defeat (issue
29, "Redis outages are weather").

Two nodes on a Redis of this test's own; ana (node 1, the room's owner)
and bob (node 2) play. Redis is killed (SIGKILL: it comes back empty, as
after a restart without persistence) for OUTAGE seconds in the middle of
the game. Meanwhile: a login and a new room on either node are refused
with not_ready (retryable), bob's move (it needs Redis to reach node 1)
too, while ana's move on the owner is stored and acknowledged; the game
in memory keeps its state. After Redis is back: bob hears ana's move
made during the outage (held for him, then delivered), and both play on
within RESUME seconds, without reconnecting by hand; nobody is told their
opponent left, no grace runs out (the nodes' --grace is shorter than the
outage), no claim is allowed, and PostgreSQL holds every acknowledged
move. The time from Redis's return to bob's first move after it is
printed (the outage's recovery time).
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_lib  # noqa: E402
from chaos_lib import Duel, call, until_time  # noqa: E402
from cluster_lib import WAIT, Cluster  # noqa: E402
from games_lib import login, req, until  # noqa: E402

# Seconds Redis stays dead (the target: 10).
OUTAGE = 10
# The bound: both players go on within this many seconds after
# Redis is back.
RESUME = 30
# A grace shorter than the outage: a disconnection the cluster caused
# would let the opponent claim after it.
GRACE = 4
# Moves before the outage and after it.
BEFORE = 4
AFTER = 4


def run(ck, a):
    with Cluster(a.build, 2, own_redis=True,
                 extra=["--grace", str(GRACE)]) as cl:
        outage(ck, cl)


def outage(ck, cl):
    tag = "outage"
    d = Duel(ck, cl, tag, 0, 1, ("oana", "obob"))
    ck.eq(d.play(BEFORE, 3 * WAIT), BEFORE, "%s: %d moves before" %
          (tag, BEFORE))
    # ana's turn, so that her move during the outage is held for bob.
    st = d.state(d.a, WAIT)
    if st["turn"] != d.seat["oana"]:
        ck.eq(d.play(1, WAIT), 1, "%s: one more move: ana's turn" % tag)
    cl.redis.stop()
    t_down = time.time()

    # Redis is away: new logins and rooms are refused, retryably.
    c = login(cl.port(1), "onew")
    ck.eq((c.hello or {}).get("error"), "not_ready", "%s: a login during "
          "the outage is refused with not_ready: %r" % (tag, c.hello))
    c.close()
    # (a node notices within its watchdog: a few seconds)
    r = None
    deadline = time.time() + WAIT
    while time.time() < deadline:
        r = req(d.a, "create", game="ataxx")
        if r and r.get("error") == "not_ready":
            break
        if r and r.get("ok"):
            req(d.a, "leave", room=r["room"])
        time.sleep(0.3)
    ck.eq((r or {}).get("error"), "not_ready", "%s: a new room during the "
          "outage is refused with not_ready: %r" % (tag, r))
    ms = req(d.a, "moves", room=d.room)
    mv = req(d.a, "move", room=d.room, move=ms["moves"][0])
    ck.ok(mv and mv.get("ok"), "%s: ana's move on the owner is stored "
          "during the outage: %r" % (tag, mv))
    if mv and mv.get("ok"):
        d.acked[mv["seq"]] = mv["move"]
    r = req(d.b, "moves", room=d.room)
    ck.eq((r or {}).get("error"), "not_ready", "%s: bob's request during "
          "the outage is refused with not_ready: %r" % (tag, r))
    time.sleep(max(0, OUTAGE - (time.time() - t_down)))

    cl.redis.start()
    t_up = time.time()
    got = until(d.b, lambda e: e.get("event") == "moved" and
                mv and e.get("seq") == mv.get("seq"), timeout=RESUME)
    ck.ok(got is not None, "%s: bob hears ana's move of the outage after "
          "Redis is back" % tag)
    heard = time.time() - t_up
    ms, took = until_time(lambda: (call(d.b, "moves", 2, room=d.room) or
                                   {}).get("ok"), RESUME)
    r = call(d.b, "move", RESUME, room=d.room,
             move=req(d.b, "moves", room=d.room)["moves"][0]) if ms else None
    ck.ok(r and r.get("ok"), "%s: bob moves again after Redis is back: %r"
          % (tag, r))
    if r and r.get("ok"):
        d.acked[r["seq"]] = r["move"]
    resumed = time.time() - t_up
    ck.ok(resumed <= RESUME, "%s: play went on within %d s of Redis's "
          "return (%.1f s)" % (tag, RESUME, resumed))
    print("outage: Redis down %.1f s; bob heard ana's move %.1f s and "
          "moved %.1f s after it came back" % (t_up - t_down, heard,
                                               resumed), flush=True)
    ck.eq(d.play(AFTER, 3 * WAIT), AFTER, "%s: %d moves after" %
          (tag, AFTER))
    for c in d.clients():
        ck.ok(not any(e.get("event") in ("opponent_gone", "reconnect")
                      for e in c.log),
              "%s: %s was told of no departure and to reconnect nowhere" %
              (tag, c.name))
    # Past the grace: no claim, for nobody left.
    time.sleep(GRACE + 1)
    for c in d.clients():
        r = req(c, "claim", room=d.room)
        ck.ok(r is not None and not r.get("ok"), "%s: %s may not claim: "
              "%r" % (tag, c.name, r))
    d.check()
    for c in d.clients():
        c.close()


if __name__ == "__main__":
    cluster_lib.main(run)
