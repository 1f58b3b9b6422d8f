"""test_cluster_client_clocks.py: the `tablero` client shows the clocks
stopped while the cluster has stopped them (issue 29: a Redis outage cuts
a player off; test_cluster_clocks.py checks the server's side).

ana plays in `tablero` (tmux) on node 1, which owns her timed room; bob
(a JSON client) on node 2 joins, so his moves need Redis. ana is to move
and her prompt counts down. Redis is killed: ana's client says the
clocks are stopped, its prompt's clocks say "(stopped)" and stand still
(before, the client counted ana's clock down as if it ran). When Redis
is back, it says the clocks go again and the prompt counts down again
without "(stopped)".
"""

import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_lib  # noqa: E402
from cluster_lib import WAIT, Cluster, redis_cmd  # noqa: E402
from games_lib import login, req  # noqa: E402

sys.path.insert(0, os.path.join(cluster_lib.HERE, "..", "blackbox"))
import client_lib  # noqa: E402

# Each side's clock, seconds (the prompt shows m:ss).
CLOCK = 120
# Seconds between two looks at the stopped prompt: a running clock shows
# another second by then.
STILL = 2.5
# The prompt's clocks: "[white 1:59, black 2:00 (stopped)]".
CLOCKS = re.compile(r"\[(white \d+:\d\d, black \d+:\d\d)( \(stopped\))?\]")


def prompt_clocks(t):
    """(clocks text, stopped) of t's prompt line, or (None, False)."""
    lines = t.screen().rstrip("\n").split("\n")
    m = CLOCKS.search(lines[-1])
    return (m.group(1), m.group(2) is not None) if m else (None, False)


def run(ck, a):
    with Cluster(a.build, 2, own_redis=True) as cl:
        ta = client_lib.client(a.build, cl.port(0), "cana")
        try:
            clocks(ck, cl, ta)
        finally:
            ta.stop()


def clocks(ck, cl, ta):
    ck.ok(ta.wait(r"Welcome, cana\."), "ana logged in on node 1")
    ck.ok(ta.say("create ataxx size=5 time=%d" % CLOCK,
                 r"Waiting for an opponent"), "ana made a timed room")
    keys = cluster_lib.retry(lambda: redis_cmd(cl.redis_addr, "KEYS",
                                               "room:*:owner"), timeout=WAIT)
    ck.eq(len(keys or []), 1, "Redis holds the room's lease")
    room = keys[0].split(":")[1]
    bob = login(cl.port(1), "cbob")
    j = req(bob, "join", room=room)
    ck.ok(j and j.get("ok"), "bob joins from node 2: %r" % j)
    ck.ok(ta.prompt(r"\[white \d+:\d\d, black \d+:\d\d\] White player",
                    timeout=WAIT), "ana's prompt shows the clocks, her move")

    cl.redis.stop()
    ck.ok(ta.wait(r"The clocks are stopped", timeout=WAIT), "ana's client "
          "says the clocks are stopped")
    ck.ok(ta.prompt(r"\(stopped\)\]", timeout=WAIT), "ana's prompt says "
          "(stopped)")
    first, _ = prompt_clocks(ta)
    time.sleep(STILL)
    second, stopped = prompt_clocks(ta)
    ck.ok(first is not None and first == second and stopped,
          "the prompt's clocks stand still while stopped: %r then %r" %
          (first, second))

    cl.redis.start()
    ck.ok(ta.wait(r"The clocks go again", timeout=3 * WAIT), "ana's client "
          "says the clocks go again once Redis is back")
    ck.ok(ta.prompt(r"\[white \d+:\d\d, black \d+:\d\d\] White player",
                    timeout=WAIT), "the prompt counts again without "
          "(stopped)")
    a1, _ = prompt_clocks(ta)
    time.sleep(STILL)
    a2, _ = prompt_clocks(ta)
    ck.ok(a1 is not None and a2 is not None and a1 != a2, "ana's clock "
          "counts down again: %r then %r" % (a1, a2))
    if os.environ.get("TABLERO_SHOW_SCREENS"):
        print(ta.screen())
    bob.close()


if __name__ == "__main__":
    cluster_lib.main(run)
