"""test_cluster_match.py: `match` between players on two different nodes
(issue 31). Challenges live on the club's node (match, accept and decline
are club verbs, routed there as seek is); the challenged event reaches a
player on the other node through a stand-in. Both ways: from the node
without the club to a player on the club's node, accepted, the game
played there and resigned; then from the club's node to a player on the
other node, declined (the challenger hears challenge_over)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_lib  # noqa: E402
from cluster_lib import Cluster, redis_cmd  # noqa: E402
from games_lib import WAIT, login, req, until  # noqa: E402


def club_node(cl):
    """The index of the node holding the club (bounded wait), or None."""
    def owner():
        v = redis_cmd(cl.redis_addr, "GET", "club:owner")
        return v.decode() if isinstance(v, bytes) else v
    v = cluster_lib.retry(owner, timeout=WAIT)
    return None if not v else int(v.rsplit(":", 1)[0][1:]) - 1


def challenge(a, name, **fields):
    """a challenges name, again while the nodes' lobby caches catch up
    (bounded); the last reply."""
    return cluster_lib.retry(lambda: (lambda r: r if r and r.get("ok")
                                      else None)(
        req(a, "match", name=name, **fields)), timeout=WAIT) or \
        req(a, "match", name=name, **fields)


def event(c, name):
    return until(c, lambda e: e.get("event") == name, timeout=WAIT + 5)


def run(ck, a):
    with Cluster(a.build, 2) as cl:
        k = club_node(cl)
        ck.ok(k is not None, "a node takes the club")
        club, other = cl.port(k or 0), cl.port(1 - (k or 0))
        mx = login(other, "mx")  # not on the club's node
        my = login(club, "my")
        r = challenge(mx, "my", game="stones")
        ck.ok(r and r.get("ok") and r.get("name") == "my",
              "mx challenges my on the other node: %r" % (r,))
        ev = event(my, "challenged") or {}
        ck.eq((ev.get("from"), ev.get("game")), ("mx", "stones"),
              "my hears the challenge: %r" % (ev,))
        r = req(my, "accept", name="mx") or {}
        ck.ok(r.get("ok") and r.get("opponent") == "mx",
              "my accepts: %r" % (r,))
        room = r.get("room")
        for c in (mx, my):
            ev = until(c, lambda e: e.get("event") == "started" and
                       e.get("room") == room, timeout=WAIT + 5)
            ck.ok(ev is not None, "%s sees the game start" % c.name)
        r = req(mx, "resign", room=room) or {}
        ck.ok(r.get("ok"), "mx resigns from the other node: %r" % (r,))
        ev = until(my, lambda e: e.get("event") == "ended" and
                   e.get("room") == room, timeout=WAIT + 5) or {}
        ck.eq((ev.get("winner_name"), ev.get("reason")),
              ("my", "resignation"), "my wins: %r" % (ev,))

        r = challenge(my, "mx", game="ataxx")
        ck.ok(r and r.get("ok"), "my challenges mx back: %r" % (r,))
        ev = event(mx, "challenged") or {}
        ck.eq((ev.get("from"), ev.get("game")), ("my", "ataxx"),
              "mx hears it on the other node: %r" % (ev,))
        r = req(mx, "decline") or {}
        ck.ok(r.get("ok") and r.get("name") == "my",
              "mx declines: %r" % (r,))
        ev = event(my, "challenge_over") or {}
        ck.eq((ev.get("name"), ev.get("reason")), ("mx", "declined"),
              "my hears the decline: %r" % (ev,))
        r = req(mx, "match", name="nobody_here") or {}
        ck.eq(r.get("error"), "bad_name", "an unknown name: %r" % (r,))
        mx.close()
        my.close()


if __name__ == "__main__":
    cluster_lib.main(run)
