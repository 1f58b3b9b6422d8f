"""test_cluster_tourney_remind.py: the reminder of a tournament game at
hello reaches a player who logs in on a node that is not the club's
(issue 31). Two nodes: the club's node holds the tournament; ty joins
from the other node and is away when the round is paired; when ty logs
in again on the other node, the club's node hears of it (a "tlogin"
entry of its stream) and sends the pending tourney_round through ty's
stand-in there. Once ty sits down, no reminder comes at the next hello.
"""

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


def is_round(tid):
    return lambda e: (e.get("event") == "tourney_round" and
                      e.get("tourney") == tid)


def run(ck, a):
    with Cluster(a.build, 2) as cl:
        k = club_node(cl)
        ck.ok(k is not None, "a node takes the club")
        here, away = cl.port(k or 0), cl.port(1 - (k or 0))
        org = login(here, "tx")
        r = req(org, "tourney", do="create", game="stones",
                options={"format": "roundrobin", "grace": "600"})
        tid = ((r or {}).get("tourney") or {}).get("id")
        ck.ok(tid is not None, "create on the club's node: %r" % (r,))
        req(org, "tourney", do="join", tourney=tid)
        ty = login(away, "ty")
        r = req(ty, "tourney", do="join", tourney=tid)
        ck.ok(r and r.get("ok"), "ty joins from the other node: %r" % (r,))
        tok = ty.token
        ty.close()
        r = req(org, "tourney", do="start", tourney=tid)
        ck.ok(r and r.get("ok"), "started while ty is away: %r" % (r,))
        ev = until(org, is_round(tid))
        room = (ev or {}).get("room")
        ck.ok(room is not None, "tx told of round 1: %r" % (ev,))

        # The club's node knows the other node alive once a tell from it
        # reaches a player there (the nodes have just started).
        tz = login(away, "tz")
        r = cluster_lib.retry(lambda: (lambda x: x if x and x.get("ok")
                                       else None)(
            req(org, "tell", name="tz", text="hi")), timeout=WAIT)
        ck.ok(r and r.get("ok"), "the nodes know each other: %r" % (r,))
        tz.close()
        ty = login(away, "ty", tok)
        ev = until(ty, is_round(tid), timeout=WAIT + 5)
        ck.ok(ev is not None, "ty, back on the other node, is reminded")
        ev = ev or {}
        ck.eq((ev.get("room"), ev.get("opponent"), ev.get("pending"),
               ev.get("round")), (room, "tx", True, 1),
              "the reminder names the room and the opponent: %r" % (ev,))
        ck.ok(isinstance(ev.get("left"), (int, float)) and
              0 < ev["left"] <= 600, "with the seconds left: %r" % (ev,))
        r = req(ty, "join", room=room)
        ck.ok(r and r.get("ok"), "ty sits down from there: %r" % (r,))
        ty.close()
        ty = login(away, "ty", tok)
        ev = until(ty, is_round(tid), timeout=2)
        ck.ok(ev is None, "seated: no reminder at the next hello: %r"
              % (ev,))
        ty.close()
        org.close()


if __name__ == "__main__":
    cluster_lib.main(run)
