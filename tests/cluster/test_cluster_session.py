"""test_cluster_session.py: logins and the lobby across nodes (issue 19).

Two nodes. `hello` with a name's token on node 2 closes that name's older
connection on node 1 (`replaced`, then closed), and an identity made on one
node logs in on the other with its token (a wrong token is refused there);
`hello` refused before a node has joined is not tested here (the node
joins before it listens in these tests). `rooms` and `who` are
cluster-wide: a room created on node 1 is listed on node 2 with its seats,
a player on node 1 is in node 2's `who` with the room; a private room is
listed nowhere but joins by its id from the other node; a room that ends
leaves the listing everywhere.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_lib  # noqa: E402
from cluster_lib import Cluster, retry  # noqa: E402
from games_lib import login, req, until  # noqa: E402
from harness import is_error  # noqa: E402


def listed(c, room):
    """room's summary in c's `rooms` reply, or None."""
    r = req(c, "rooms")
    return next((s for s in (r or {}).get("rooms", [])
                 if s.get("room") == room), None)


def who(c, name):
    """name's entry in c's `who` reply, or None."""
    r = req(c, "who")
    return next((p for p in (r or {}).get("players", [])
                 if p.get("name") == name), None)


def replaced(ck, cl):
    tag = "replace"
    a1 = login(cl.port(0), "rana")
    ck.ok(a1.hello and a1.hello.get("ok"), "%s: hello on node 1" % tag)
    a2 = login(cl.port(1), "rana", a1.token)
    ck.ok(a2.hello and a2.hello.get("ok") and a2.hello.get("new") is False,
          "%s: the same name with its token on node 2: %r" % (tag, a2.hello))
    e = until(a1, lambda e: e.get("event") == "replaced")
    ck.ok(e is not None, "%s: node 1's connection is told it was "
          "replaced" % tag)
    ck.eq(a1.line(cluster_lib.WAIT) if e is not None else None, None,
          "%s: then node 1 closes it" % tag)
    r = req(a2, "ping")
    ck.ok(r and r.get("pong") is True, "%s: node 2's connection goes on"
          % tag)
    bad = login(cl.port(0), "rana", "0" * 32)
    is_error(ck, bad.hello, "bad_token", "%s: a wrong token on node 1" % tag)
    b = login(cl.port(1), "rbob")
    b.close()
    b1 = login(cl.port(0), "rbob", b.token)
    ck.ok(b1.hello and b1.hello.get("ok") and b1.hello.get("new") is False,
          "%s: node 2's new identity logs in on node 1: %r" % (tag, b1.hello))
    for c in (a1, a2, bad, b1):
        c.close()


def lobby(ck, cl):
    tag = "lobby"
    a = login(cl.port(0), "lana")
    b = login(cl.port(1), "lbob")
    r = req(a, "create", game="ataxx", options={"size": 5})
    ck.ok(r and r.get("ok"), "%s: create on node 1: %r" % (tag, r))
    room = (r or {}).get("room")
    s = retry(lambda: listed(b, room), timeout=cluster_lib.WAIT)
    ck.ok(s is not None, "%s: node 2's rooms lists node 1's room" % tag)
    seats = [(x.get("seat"), x.get("name")) for x in (s or {}).get(
        "seats", [])]
    ck.ok(("lana" in [n for _, n in seats]) and (s or {}).get("status") ==
          "waiting", "%s: with its creator seated, waiting: %r" % (tag, s))
    p = retry(lambda: who(b, "lana"), timeout=cluster_lib.WAIT)
    ck.ok(p is not None and room in p.get("rooms", []),
          "%s: node 2's who has node 1's player in her room: %r" % (tag, p))
    r = req(b, "who")
    ck.ok((r or {}).get("online", 0) >= 2, "%s: who counts both nodes' "
          "players: %r" % (tag, r))
    r = req(a, "create", game="ataxx", options={"size": 5}, private=True)
    ck.ok(r and r.get("ok"), "%s: a private room on node 1: %r" % (tag, r))
    secret = (r or {}).get("room")
    ck.ok(listed(b, secret) is None and listed(a, secret) is None,
          "%s: the private room is listed on no node" % tag)
    j = req(b, "join", room=secret)
    ck.ok(j and j.get("ok"), "%s: node 2 joins the private room by its "
          "id: %r" % (tag, j))
    r = req(b, "join", room=room)
    ck.ok(r and r.get("ok"), "%s: node 2 joins the public room: %r" %
          (tag, r))
    r = req(b, "state")
    ck.ok(r and r.get("ok") and r["state"].get("room") == room,
          "%s: the room node 2's player joined is his current room "
          "(a request without room acts on it, docs/PROTOCOL.md section "
          "5): %.200r" % (tag, r))
    s = retry(lambda: (listed(a, room) or {}).get("status") == "playing"
              and listed(a, room), timeout=cluster_lib.WAIT)
    ck.ok(s, "%s: node 1 lists it playing once node 2's player sat" % tag)
    # One move each way (a game that ends before any move is not kept).
    for _ in range(2):
        st = req(a, "state", room=room)["state"]
        to_move = next(x["name"] for x in st["seats"]
                       if x["seat"] == st["turn"])
        mover = a if to_move == "lana" else b
        ms = req(mover, "moves", room=room)["moves"]
        r = req(mover, "move", room=room, move=ms[0])
        ck.ok(r and r.get("ok"), "%s: a move from node %d: %r" %
              (tag, 1 if mover is a else 2, r))
    r = req(b, "resign", room=room)
    ck.ok(r and r.get("ok"), "%s: resign from node 2: %r" % (tag, r))
    gone = retry(lambda: listed(a, room) is None and listed(b, room) is None,
                 timeout=cluster_lib.WAIT)
    ck.ok(gone, "%s: the finished room leaves the listing everywhere" % tag)
    r = req(b, "rooms", status="ended")
    ck.ok(any(g.get("room") == room for g in (r or {}).get("rooms", [])),
          "%s: node 2 lists the finished game: %r" % (tag, r))
    r = req(b, "history", name="lana")
    ck.ok(r and r.get("ok") and any(g.get("room") == room for g in
                                    r.get("games", [])),
          "%s: node 2's history of node 1's player has the game: %.300r" %
          (tag, r))
    a.close()
    b.close()
    p = retry(lambda: who(login(cl.port(1), "lcat"), "lana") is None,
              timeout=cluster_lib.WAIT)
    ck.ok(p, "%s: a player who left is no longer in who" % tag)


def run(ck, a):
    with Cluster(a.build, 2) as cl:
        replaced(ck, cl)
        lobby(ck, cl)


if __name__ == "__main__":
    cluster_lib.main(run)
