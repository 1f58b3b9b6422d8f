"""test_cluster_club.py: seeks, tournaments and tell across nodes
(issue 22 over issue 19's cluster, docs/SCALING.md part 3 "The club").

Two nodes. One holds the club (the lease club:owner); seek, seeks,
unseek and tourney from the other are run there. Two players on
different nodes pair by seek and play the game to its end, rated: both
ratings are stored. A player on one node tells one on the other. A Swiss
of four players, two on each node, Stones, is played to its standings
(the tourney_round events reach both nodes' players). Then the club's
node is killed with kill -9 in the middle of a second tournament: its
players log in again on the other node, which takes the club and the
rooms, reloads the tournament from PostgreSQL and finishes it; it also
reloads a seek made from the surviving node, which its player finds
listed again and which pairs, and new seeks there get ids above every
id shown before the kill (a withdrawn one too).
"""

import os
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_lib  # noqa: E402
from cluster_lib import FAILOVER, Cluster, games_lib, redis_cmd  # noqa: E402
from games_lib import WAIT, login, req, seeded, until  # noqa: E402

sys.path.insert(0, os.path.join(cluster_lib.HERE, "..", "blackbox"))
import test_tourney  # noqa: E402
from test_tourney import (Tourney, check_standings, ended_event,  # noqa: E402
                          expected, seed_of)

# Moves at most in the seek's game (Stones ends far sooner).
MAX_MOVES = 600


def club_node(cl):
    """The index of the node holding the club (bounded wait), or None."""
    def owner():
        v = redis_cmd(cl.redis_addr, "GET", "club:owner")
        if isinstance(v, bytes):
            v = v.decode()
        return v
    v = cluster_lib.retry(owner, timeout=WAIT)
    if not v:
        return None
    node = v.rsplit(":", 1)[0]
    return int(node[1:]) - 1


def seek_game(ck, cl):
    """A on node 1 and B on node 2 seek Stones; B's seek meets A's on the
    club's node; both hear paired and play the game there to its end."""
    a = login(cl.port(0), "ska")
    b = login(cl.port(1), "skb")
    r = req(a, "seek", game="stones")
    ck.ok(r and r.get("ok") and r.get("room") is None,
          "seek from node 1 is open: %r" % (r,))
    r = req(b, "seeks")
    ck.ok(r and r.get("ok") and [s.get("name") for s in r.get("seeks", [])]
          == ["ska"], "seeks from node 2 lists node 1's seek: %r" % (r,))
    r = req(b, "seek", game="stones")
    ck.ok(r and r.get("ok") and r.get("room"),
          "seek from node 2 meets it: %r" % (r,))
    room = (r or {}).get("room")
    seats = {}
    for c in (a, b):
        e = until(c, lambda e: e.get("event") == "paired")
        ck.ok(e is not None and e.get("room") == room,
              "%s hears paired: %r" % (c.name, e))
        seats[(e or {}).get("seat")] = c
    ck.eq(len(seats), 2, "two seats")
    # finger on the node without the club (the room is not there)
    c = login(cl.port(1 - (club_node(cl) or 0)), "skf")

    def fingered():
        r = req(c, "finger", name="skb")
        return [p for p in (r or {}).get("playing", [])
                if p.get("room") == room]
    f = cluster_lib.retry(fingered, timeout=WAIT)
    ck.ok(f and f[0].get("game") == "stones" and
          f[0].get("status") == "playing",
          "finger on the other node shows skb playing in %s: %r" %
          (room, f))
    c.close()
    acked = games_lib.play_out(ck, "seek game", room, seats, seeded(5),
                               MAX_MOVES)
    ck.ok(len(acked) > 0, "moves were played from both nodes")
    for c in (a, b):
        e = until(c, games_lib.ended(room))
        ck.ok(e is not None and e.get("rated") is True,
              "%s sees the rated end: %r" % (c.name, e))
    rows = cluster_lib.retry(lambda: cl.rows(
        "SELECT name FROM ratings WHERE name IN ('ska', 'skb') "
        "ORDER BY name"))
    ck.eq(rows, [("ska",), ("skb",)], "both ratings are in PostgreSQL")
    return a, b


def tell(ck, cl):
    """A on node 1 tells B on node 2 (once node 1's lobby cache has B),
    and invites B to a room of node 1's; neither has used the club, so
    neither has a stand-in on the other node before."""
    a = login(cl.port(0), "tla")
    b = login(cl.port(1), "tlb")

    def told():
        r = req(a, "tell", name="tlb", text="hello there")
        return r if r and r.get("ok") else None
    r = cluster_lib.retry(told, timeout=WAIT)
    ck.ok(r and r.get("ok"), "tell to a player on node 2: %r" % (r,))
    e = until(b, lambda e: e.get("event") == "told")
    ck.ok(e is not None and e.get("from") == "tla" and
          e.get("text") == "hello there", "node 2's player is told: %r" % e)
    r = req(b, "tell", name="tla", text="and back")
    ck.ok(r and r.get("ok"), "tell back to node 1: %r" % (r,))
    e = until(a, lambda e: e.get("event") == "told")
    ck.ok(e is not None and e.get("text") == "and back",
          "node 1's player is told: %r" % e)
    # A registered name online nowhere: refused (message is for that);
    # a name nobody has: bad_name (issue 31).
    gone = login(cl.port(0), "tgone")
    gone.close()
    r = req(b, "tell", name="tgone", text="x")
    ck.eq((r or {}).get("error"), "not_allowed",
          "tell to a name online nowhere is refused")
    r = req(b, "tell", name="nobody", text="x")
    ck.eq((r or {}).get("error"), "bad_name",
          "tell to a name nobody has says so")
    r = req(a, "create", game="stones")
    room = (r or {}).get("room")
    r = req(a, "invite", room=room, name="tlb")
    ck.ok(r and r.get("ok"), "invite to a player on node 2: %r" % (r,))
    e = until(b, lambda e: e.get("event") == "invited")
    ck.ok(e is not None and e.get("room") == room and
          e.get("from") == "tla", "node 2's player is invited: %r" % e)
    r = req(b, "join", room=room)
    ck.ok(r and r.get("ok"), "and joins from node 2: %r" % (r,))
    a.close()
    b.close()


def ratings_at_once(ck, cl):
    """rx plays four rated games at once, two in rooms of node 1 and two
    in rooms of node 2, and all four opponents resign at the same moment:
    each node works the new rating out from the one it read, and
    PostgreSQL must keep all four games (four wins, not fewer)."""
    x = login(cl.port(0), "rx")
    opps = [login(cl.port(i // 2), "ro%d" % i) for i in range(4)]
    rooms = []
    for o in opps:
        r = req(o, "create", game="stones")
        ck.ok(r and r.get("ok"), "ra: %s creates a room: %r" % (o.name, r))
        room = (r or {}).get("room")
        j = req(x, "join", room=room)
        ck.ok(j and j.get("ok"), "ra: rx joins %s: %r" % (room, j))
        seats = {r["seat"]: o, j["seat"]: x}
        games_lib.play_out(ck, "ra " + room, room, seats,
                           games_lib.first_move, 8, to_end=False)
        rooms.append(room)
    go = threading.Barrier(len(opps))
    got = [None] * len(opps)

    def resign(i):
        go.wait(WAIT)
        got[i] = req(opps[i], "resign", room=rooms[i])
    ts = [threading.Thread(target=resign, args=(i,))
          for i in range(len(opps))]
    for t in ts:
        t.start()
    for t in ts:
        t.join(WAIT * 2)
    ck.ok(all(r and r.get("ok") for r in got), "ra: four resignations: %r"
          % (got,))
    for room in rooms:
        e = until(x, games_lib.ended(room))
        ck.ok(e is not None and e.get("rated") is True,
              "ra: %s ended rated: %r" % (room, e))
    rows = cl.rows("SELECT wins, draws, losses FROM ratings "
                   "WHERE name = 'rx'")
    ck.eq(rows, [("4", "0", "0")], "ra: PostgreSQL kept rx's four wins")
    rows = cl.rows("SELECT losses FROM ratings WHERE name LIKE 'ro%' "
                   "ORDER BY name")
    ck.eq(rows, [("1",)] * 4, "ra: and each opponent's loss")
    for c in [x] + opps:
        c.close()


class SpreadTourney(Tourney):
    """Tourney with its players spread over the nodes in turn."""

    def __init__(self, ck, ports, tag, n, fmt, extra=None):
        real = test_tourney.login
        turn = iter(range(n))
        test_tourney.login = lambda port, nm: real(
            ports[next(turn) % len(ports)], nm)
        try:
            Tourney.__init__(self, ck, ports[0], tag, n, fmt, extra)
        finally:
            test_tourney.login = real


def decide_by_seed(t):
    def decide(w, b):
        i, j = sorted((seed_of(t, w), seed_of(t, b)))
        return "1-0" if t.names[i] == w else "0-1"
    return decide


def swiss(ck, cl):
    """Four players over two nodes, two Swiss rounds, to the standings."""
    t = SpreadTourney(ck, [cl.port(0), cl.port(1)], "cs", 4, "swiss",
                      {"rounds": "2"})
    # A player of the node without the club logs in again: the new
    # connection has no stand-in on the club's node, so its round events
    # come through one made from its presence.
    club = club_node(cl)
    nm = t.names[3] if club == 0 else t.names[2]
    t.c[nm].close()
    t.c[nm] = login(cl.port(1 - (club or 0)), nm, t.tokens[nm])
    t.c[nm].log = []
    # the old connection's bye reaches the club's node through Redis; an
    # event sent to a stand-in whose home connection is gone is lost
    # (SCALING.md part 3, "The club")
    time.sleep(1.0)
    st = t.start()
    ck.eq(st.get("rounds"), 2, "cs: 2 rounds")
    for rnd in (1, 2):
        t.play_round(rnd, decide_by_seed(t))
    want = expected(t.names, t.games, True)
    for nm in t.names:
        ev = until(t.c[nm], ended_event(t.id))
        check_standings(ck, "cs: %s's tourney_ended" % nm,
                        (ev or {}).get("standings"), want)
    check_standings(ck, "cs: show", t.show().get("standings"), want)
    t.close()


def club_killed(ck, cl):
    """A round robin of four over both nodes; in round 2, once its games
    started, the club's node is killed: the other node takes the club
    and the rooms, the players come back, and it is finished."""
    t = SpreadTourney(ck, [cl.port(0), cl.port(1)], "ck", 4, "roundrobin")
    rounds = t.start().get("rounds")
    ck.eq(rounds, 3, "ck: four players meet in 3 rounds")
    decide = decide_by_seed(t)
    t.play_round(1, decide)
    ps = t.pairings(2)
    for p in ps:
        if p.get("black") is not None:
            t.sit(p)
    club = club_node(cl)
    ck.ok(club is not None, "ck: a node holds the club")
    other = 1 - (club or 0)
    sk = login(cl.port(other), "cksk")
    r = req(sk, "seek", game="amazons", rated=False)
    sk_seek = (r or {}).get("seek") or {}
    ck.ok(r and r.get("ok") and r.get("room") is None,
          "ck: a seek from the other node is open: %r" % (r,))
    # The highest id shown, then withdrawn: no row names it.
    r = req(sk, "seek", game="stones", rated=False)
    gone_id = ((r or {}).get("seek") or {}).get("seek") or "s0"
    req(sk, "unseek", seek=gone_id)
    cl.nodes[club or 0].kill()
    for nm in t.names:
        t.c[nm].close()
        c = cluster_lib.relogin(cl.port(other), nm, t.tokens[nm])
        ck.ok(c is not None, "ck: %s logs in again on the other node" % nm)
        c.log = []
        t.c[nm] = c
    ck.eq(cluster_lib.retry(lambda: club_node(cl) == other), True,
          "ck: the other node took the club")
    seeks_ok = (lambda: (lambda x: x if x and x.get("ok") else None)(
        req(sk, "seeks")))
    r = cluster_lib.retry(seeks_ok, timeout=FAILOVER)
    ck.eq([x for x in (r or {}).get("seeks", []) if x.get("name") == "cksk"],
          [sk_seek], "ck: the new club node reloaded the seek: its player "
          "is back, it is listed with the same id")
    sk2 = login(cl.port(other), "cksk2")
    r = req(sk2, "seek", game="amazons", rated=False)
    ck.ok(r and r.get("room") and r.get("opponent") == "cksk",
          "ck: a new compatible seek pairs with the reloaded one: %r" % (r,))
    new_id = ((r or {}).get("seek") or {}).get("seek") or "s0"
    ck.ok(int(new_id[1:]) > int(gone_id[1:]),
          "ck: the new club node gives out ids above every id shown (%s "
          "was withdrawn before the kill): %s" % (gone_id, new_id))
    sk.close()
    sk2.close()
    for p in ps:
        if p.get("black") is None:
            t.games.append({"white": p["white"], "black": None,
                            "result": "bye"})
            continue
        res = decide(p["white"], p["black"])
        loser = p["black"] if res == "1-0" else p["white"]
        r = cluster_lib.retry(lambda: (lambda x: x if x and x.get("ok")
                                       else None)(
            req(t.c[loser], "resign", room=p["room"])), timeout=FAILOVER)
        ck.ok(r and r.get("ok"), "ck: %s resigns %s after the failover: %r"
              % (loser, p["room"], r))
        t.games.append({"white": p["white"], "black": p["black"],
                        "result": res})
    t.play_round(3, decide)
    want = expected(t.names, t.games, False)
    ev = until(t.c[t.names[0]], ended_event(t.id), timeout=WAIT + 5)
    check_standings(ck, "ck: tourney_ended after the failover",
                    (ev or {}).get("standings"), want)
    t.close()


def run(ck, a):
    with Cluster(a.build, 2) as cl:
        ck.ok(club_node(cl) is not None, "a node takes the club")
        sa, sb = seek_game(ck, cl)
        sa.close()
        sb.close()
        tell(ck, cl)
        ratings_at_once(ck, cl)
        swiss(ck, cl)
        club_killed(ck, cl)


if __name__ == "__main__":
    cluster_lib.main(run)
