"""test_cluster_metrics.py: --metrics-port shows the cluster's own figures
and they move (issue 30, "What an operator watches": "cluster leases held
and forwarded requests").

Two nodes with --metrics-port on a Redis of this test's own. Scraped at
the start: Redis up on both, no room leases, nothing forwarded, one node
holds the club. Then ana (node 1) creates a timed room and bob (node 2)
joins it and plays: node 1 holds the room's lease, has bob's stand-in and
ran his requests (served), node 2 forwarded exactly those. Then Redis is
killed: both nodes say Redis is down and count the outage, and node 1
shows the room's clocks stopped (bob is cut off); with Redis back they
go again. The format itself is test_metrics.py's to check; here the
samples are parsed with its parser.
"""

import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_lib  # noqa: E402
from cluster_lib import WAIT, Cluster, retry  # noqa: E402
from games_lib import login, req  # noqa: E402
from test_metrics import fetch, parse  # noqa: E402

# Seconds each side's clock starts with: far more than the test takes.
CLOCK = 300


def metrics_port(node):
    m = retry(lambda: re.search(r"metrics on 127\.0\.0\.1:(\d+)",
                                node.logtext()), timeout=WAIT)
    return int(m.group(1)) if m else None


class Quiet:
    """A Checks that keeps the parser's own checks out of the count (the
    format is test_metrics.py's), failing only on what this test asks."""

    def ok(self, cond, what):
        return cond


def scrape(port):
    status, body = fetch(port)
    return parse(Quiet(), body) if status == 200 else {}


def run(ck, a):
    with Cluster(a.build, 2, own_redis=True,
                 extra=["--metrics-port", "0"]) as cl:
        metrics(ck, cl)


def metrics(ck, cl):
    ports = [metrics_port(n) for n in cl.nodes]
    ck.ok(None not in ports, "both nodes serve metrics: %r" % ports)
    m1, m2 = scrape(ports[0]), scrape(ports[1])
    for i, m in enumerate((m1, m2)):
        ck.eq(m.get("tablerod_cluster_redis_up"), 1.0, "node %d: Redis up"
              % (i + 1))
        ck.eq(m.get('tablerod_cluster_leases{kind="room"}'), 0.0,
              "node %d: no room lease yet" % (i + 1))
        ck.eq(m.get("tablerod_cluster_forwarded_total"), 0.0,
              "node %d: nothing forwarded yet" % (i + 1))
    club = retry(lambda: sum(scrape(p).get('tablerod_cluster_leases'
                                           '{kind="club"}', 0)
                             for p in ports) == 1, timeout=3 * WAIT)
    ck.ok(club, "exactly one node holds the club's lease")

    ana = login(cl.port(0), "mana")
    bob = login(cl.port(1), "mbob")
    r = req(ana, "create", game="ataxx", options={"size": 5},
            clock={"initial": CLOCK, "increment": 0})
    ck.ok(r and r.get("ok"), "ana creates a timed room on node 1: %r" % r)
    room = r["room"]
    sent = 0
    j = req(bob, "join", room=room)
    sent += 1
    ck.ok(j and j.get("ok"), "bob joins from node 2: %r" % j)
    seat = {s["name"]: s["seat"] for s in j["state"]["seats"]}
    # ana moves if she is first, then bob moves: his two requests
    st = req(bob, "state", room=room)["state"]
    sent += 1
    if st["turn"] == seat["mana"]:
        ms = req(ana, "moves", room=room)
        ck.ok(req(ana, "move", room=room, move=ms["moves"][0]).get("ok"),
              "ana moves")
    ms = req(bob, "moves", room=room)
    mv = req(bob, "move", room=room, move=ms["moves"][0])
    sent += 2
    ck.ok(mv and mv.get("ok"), "bob moves through node 1: %r" % mv)

    m1, m2 = scrape(ports[0]), scrape(ports[1])
    ck.eq(m1.get('tablerod_cluster_leases{kind="room"}'), 1.0,
          "node 1 holds the room's lease")
    ck.eq(m2.get('tablerod_cluster_leases{kind="room"}'), 0.0,
          "node 2 holds no room lease")
    ck.eq(m2.get("tablerod_cluster_forwarded_total"), float(sent),
          "node 2 forwarded bob's %d requests: %r" %
          (sent, m2.get("tablerod_cluster_forwarded_total")))
    ck.eq(m1.get("tablerod_cluster_served_total"), float(sent),
          "node 1 ran bob's %d requests: %r" %
          (sent, m1.get("tablerod_cluster_served_total")))
    ck.eq(m1.get("tablerod_cluster_forwarded_total"), 0.0,
          "node 1 forwarded nothing (ana's room is its own)")
    ck.eq(m1.get("tablerod_cluster_standins"), 1.0,
          "node 1 holds bob's stand-in")
    ck.eq(m1.get("tablerod_cluster_clocks_stopped"), 0.0,
          "no clock stopped while Redis answers")

    cl.redis.stop()
    t0 = time.time()
    down = retry(lambda: scrape(ports[0]).get(
        "tablerod_cluster_clocks_stopped") == 1.0, timeout=WAIT)
    ck.ok(down, "node 1 shows the room's clocks stopped while Redis is "
          "away")
    m1, m2 = scrape(ports[0]), scrape(ports[1])
    for i, m in enumerate((m1, m2)):
        ck.eq(m.get("tablerod_cluster_redis_up"), 0.0, "node %d: Redis "
              "down" % (i + 1))
        ck.eq(m.get("tablerod_cluster_redis_outages_total"), 1.0,
              "node %d: one outage counted" % (i + 1))
    cl.redis.start()
    back = retry(lambda: scrape(ports[0]).get(
        "tablerod_cluster_clocks_stopped") == 0.0 and scrape(
            ports[0]).get("tablerod_cluster_redis_up") == 1.0,
        timeout=3 * WAIT)
    ck.ok(back, "node 1: Redis up and the clocks going again after it is "
          "back (%.1f s after the kill)" % (time.time() - t0))
    for c in (ana, bob):
        c.close()


if __name__ == "__main__":
    cluster_lib.main(run)
