"""test_cluster_clocks.py: a Redis outage stops the clocks of the games it
cuts a player off from (issue 29: "no grace runs out and no claim is
allowed for a disconnection the cluster caused"; a clock running out is
the same loss).

Two nodes on a Redis of this test's own; ana (node 1, the room's owner)
and bob (node 2) play a timed game (CLOCK s each). Redis is killed for
OUTAGE seconds with ana to move. While it is away: ana hears a `clock`
event with `stopped`, her `state` shows the clocks standing still, and
her move is stored; bob, whose moves need Redis to reach node 1, is then
to move and cannot. After Redis is back: a `clock` event says the clocks
go again, bob's clock has been charged only the time since Redis came
back (on today's main it is charged the whole outage: a few more seconds
and his flag would have fallen for a fault of the infrastructure), and
the game goes on with nothing acknowledged lost. The time from Redis's
return to the clocks going again and to bob's next move is printed.
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_lib  # noqa: E402
from chaos_lib import Duel, call  # noqa: E402
from cluster_lib import WAIT, Cluster  # noqa: E402
from games_lib import req, until  # noqa: E402

# Seconds Redis stays dead (the outage).
OUTAGE = 10
# Each side's clock, seconds: far more than the test takes, so that only
# the time charged is judged, not a flag.
CLOCK = 120
# The bound: play goes on within this many seconds after Redis
# is back.
RESUME = 30
# Seconds bob is to move with Redis away, at least: on today's main his
# clock is charged them.
BOB_WAITS = 6
# Seconds between two reads of the stopped clocks.
STILL = 1.5
# A grace shorter than the outage, as in test_cluster_outage.py.
GRACE = 4
# Seconds of slack on bob's charge: the state is read after the clocks
# went again, and the test's clock and the node's are read apart.
SLACK = 1.0


def run(ck, a):
    with Cluster(a.build, 2, own_redis=True,
                 extra=["--grace", str(GRACE)]) as cl:
        clocks(ck, cl)


def stopped(e, room):
    return e.get("event") == "clock" and e.get("room") == room and \
        e.get("stopped") is True


def clocks(ck, cl):
    tag = "clocks"
    d = Duel(ck, cl, tag, 0, 1, ("cana", "cbob"),
             clock={"initial": CLOCK, "increment": 0})
    ck.eq(d.play(2, 3 * WAIT), 2, "%s: 2 moves before" % tag)
    st = d.state(d.a, WAIT)
    if st["turn"] != d.seat["cana"]:
        ck.eq(d.play(1, WAIT), 1, "%s: one more move: ana's turn" % tag)
    cl.redis.stop()
    t_down = time.time()

    # (node 1 notices within its watchdog: a new room is refused then)
    r = None
    deadline = time.time() + WAIT
    while time.time() < deadline:
        r = req(d.a, "create", game="ataxx")
        if r and r.get("error") == "not_ready":
            break
        if r and r.get("ok"):
            req(d.a, "leave", room=r["room"])
        time.sleep(0.3)
    ck.eq((r or {}).get("error"), "not_ready", "%s: node 1 noticed the "
          "outage: %r" % (tag, r))
    e = until(d.a, lambda e: stopped(e, d.room), timeout=WAIT / 2)
    ck.ok(e is not None, "%s: ana hears that the clocks stopped (bob is "
          "cut off by the outage)" % tag)
    ms = req(d.a, "moves", room=d.room)
    mv = req(d.a, "move", room=d.room, move=ms["moves"][0])
    t_move = time.time()
    ck.ok(mv and mv.get("ok"), "%s: ana's move on the owner is stored "
          "during the outage: %r" % (tag, mv))
    if mv and mv.get("ok"):
        d.acked[mv["seq"]] = mv["move"]
    moved = until(d.a, lambda e: e.get("event") == "moved" and
                  mv and e.get("seq") == mv.get("seq"), timeout=WAIT)
    # bob's clock as his turn began (moved's clocks)
    bob_left = (moved or {}).get("clocks") or {}
    s1 = req(d.a, "state", room=d.room)
    time.sleep(STILL)
    s2 = req(d.a, "state", room=d.room)
    c1 = ((s1 or {}).get("state") or {}).get("clocks")
    c2 = ((s2 or {}).get("state") or {}).get("clocks")
    ck.ok(c1 is not None and c1 == c2, "%s: the clocks stand still during "
          "the outage, bob to move: %r then %r" % (tag, c1, c2))
    time.sleep(max(0, OUTAGE - (time.time() - t_down),
                   BOB_WAITS - (time.time() - t_move)))

    cl.redis.start()
    t_up = time.time()
    go = until(d.a, lambda e: e.get("event") == "clock" and
               e.get("room") == d.room and not e.get("stopped") and
               e.get("seq", 0) > (mv or {}).get("seq", 0),
               timeout=RESUME)
    ck.ok(go is not None, "%s: ana hears that the clocks go again" % tag)
    went = time.time() - t_up
    r = call(d.b, "state", RESUME, room=d.room)
    now = time.time()
    st = (r or {}).get("state") or {}
    bseat = d.seat["cbob"]
    left = (st.get("clocks") or {}).get(bseat)
    ck.ok(left is not None and st.get("turn") == bseat, "%s: bob reads the "
          "state after Redis is back, his turn: %r" % (tag, r))
    if left is not None:
        before = bob_left.get(bseat, CLOCK * 1000)
        charged = (before - left) / 1000.0
        ck.ok(charged <= now - t_up + SLACK, "%s: bob's clock was charged "
              "%.1f s, no more than the %.1f s since Redis came back (the "
              "outage is charged to nobody)" % (tag, charged, now - t_up))
    r = call(d.b, "move", RESUME, room=d.room,
             move=req(d.b, "moves", room=d.room)["moves"][0])
    ck.ok(r and r.get("ok"), "%s: bob moves again after Redis is back: %r"
          % (tag, r))
    if r and r.get("ok"):
        d.acked[r["seq"]] = r["move"]
    print("clocks: Redis down %.1f s; the clocks went again %.1f s and bob "
          "moved %.1f s after it came back" % (t_up - t_down, went,
                                               time.time() - t_up),
          flush=True)
    ck.eq(d.play(2, 3 * WAIT), 2, "%s: 2 moves after" % tag)
    for c in d.clients():
        ck.ok(not any(e.get("event") == "ended" for e in c.log),
              "%s: %s's game did not end (no flag fell)" % (tag, c.name))
    d.check()
    for c in d.clients():
        c.close()


if __name__ == "__main__":
    cluster_lib.main(run)
