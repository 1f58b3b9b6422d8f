"""test_cluster_seekstore.py: the open seeks survive the club's node
(issue 22 over issue 19, docs/SCALING.md part 3 "The club").

Three nodes. A player on each node that does not hold the club opens a
seek; the club's node is killed with kill -9. One of the two others takes
the club and reloads both seeks from PostgreSQL: the player on that node
is here, the other's player is on the third node. Both players find
their seek listed again with its id (the remote one through the stand-in
their next club verb makes), and a new compatible seek pairs with each.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_lib  # noqa: E402
from cluster_lib import FAILOVER, Cluster  # noqa: E402
from games_lib import login, req  # noqa: E402
from test_cluster_club import club_node  # noqa: E402

# The games of the two seeks: different, so each pairs only with its own.
GAMES = ("amazons", "stones")


def ok_or_none(r):
    return r if r and r.get("ok") else None


def run(ck, a):
    if cluster_lib.SINGLE:
        ck.skip("on a single node: the club's node is killed")
        return
    with Cluster(a.build, 3) as cl:
        club = club_node(cl)
        ck.ok(club is not None, "a node takes the club")
        others = [i for i in range(3) if i != (club or 0)]
        players, seeks = [], []
        for i, game in zip(others, GAMES):
            c = login(cl.port(i), "ss%d" % i)
            r = req(c, "seek", game=game, rated=False)
            ck.ok(r and r.get("ok") and r.get("room") is None,
                  "ss%d on node %d seeks %s: %r" % (i, i + 1, game, r))
            players.append(c)
            seeks.append((r or {}).get("seek") or {})
        cl.nodes[club or 0].kill()
        ck.ok(cluster_lib.retry(lambda: club_node(cl) in others),
              "another node took the club")
        for c, s, game in zip(players, seeks, GAMES):
            r = cluster_lib.retry(lambda: ok_or_none(req(c, "seeks")),
                                  timeout=FAILOVER)
            mine = [x for x in (r or {}).get("seeks", [])
                    if x.get("name") == c.name]
            ck.eq(mine, [s], "%s's seek is back, listed with its id (%s)"
                  % (c.name, "here" if club_node(cl) == int(c.name[2:])
                     else "through a stand-in"))
            o = login(cl.port(others[0]), c.name + "o")
            r = req(o, "seek", game=game, rated=False)
            ck.ok(r and r.get("room") and r.get("opponent") == c.name,
                  "a new %s seek pairs with %s's reloaded one: %r"
                  % (game, c.name, r))
            o.close()
            c.close()


if __name__ == "__main__":
    cluster_lib.main(run)
