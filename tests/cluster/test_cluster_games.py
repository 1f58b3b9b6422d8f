"""test_cluster_games.py: whole games across nodes (issue 19).

Three nodes. For each two-player game (Amazons, Ataxx, Stones) one player
on node 1 creates the room (node 1 owns it), the other joins from node 2,
and a spectator watches from node 3; they play a seeded game to its end
through the `moves` and `move` verbs. Every client must see the same
events with gapless seqs (the spectator on a third node too), each move
reply must be its moved event, and PostgreSQL must hold exactly the
acknowledged moves. Then draws, chat and a rematch across nodes.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_lib  # noqa: E402
from cluster_lib import Cluster  # noqa: E402
from games_lib import login, req, seeded, until  # noqa: E402

sys.path.insert(0, os.path.join(cluster_lib.HERE, "..", "blackbox"))
from test_games_duo import Duo  # noqa: E402

# Moves at most in one game: far more than any of these needs, small
# enough to fail fast when the end never comes.
MAX_MOVES = 600

# The games and the options that keep each short: (game, options).
GAMES = (("ataxx", {"size": 5}), ("stones", {"first": "1"}),
         ("amazons", None))


class SpreadDuo(Duo):
    """Duo with its three clients on three nodes: the creator on ports[0],
    the joining player on ports[1], the spectator on ports[2]."""

    def __init__(self, ck, ports, tag, game, options=None):
        self.ck = ck
        self.tag = tag
        self.a = login(ports[0], tag + "a")
        self.b = login(ports[1], tag + "b")
        self.w = login(ports[2], tag + "w")
        fields = {"game": game}
        if options is not None:
            fields["options"] = options
        r = req(self.a, "create", **fields)
        ck.ok(r and r.get("ok"), "%s: create %s: %r" % (tag, game, r))
        self.room = r["room"]
        self.created = r
        self.seats = {r["seat"]: self.a}
        self.names = {r["seat"]: self.a.name}
        wr = req(self.w, "watch", room=self.room)
        ck.ok(wr and wr.get("ok"), "%s: watch from node 3: %r" % (tag, wr))
        self.from_seq = wr["state"]["seq"] + 1
        jr = req(self.b, "join", room=self.room)
        ck.ok(jr and jr.get("ok"), "%s: join from node 2: %r" % (tag, jr))
        self.seats[jr["seat"]] = self.b
        self.names[jr["seat"]] = self.b.name
        self.clients = [self.w, self.a, self.b]
        self.acked = []


def whole_game(ck, cl, game, options, seed):
    tag = "%s%d" % (game[:2], seed)
    d = SpreadDuo(ck, [cl.port(0), cl.port(1), cl.port(2)], tag, game,
                  options)
    d.play(seeded(seed), MAX_MOVES)
    end, st, moved = d.finish()
    stored = cl.stored_moves(d.room)
    ck.eq([m for _, _, m in stored], [e["move"] for e in moved],
          "%s: PostgreSQL holds the moves the players saw, in order" % tag)
    return d


def social(ck, cl, d):
    """Chat, a rematch and a draw by agreement across the nodes of d's
    room (a game that has draws)."""
    tag = d.tag + "s"
    r = req(d.b, "chat", room=d.room, text="good game")
    ck.ok(r and r.get("ok"), "%s: chat from node 2: %r" % (tag, r))
    for c in (d.a, d.w, d.b):
        e = until(c, lambda e: e.get("event") == "chat" and
                  e.get("text") == "good game")
        ck.ok(e is not None and e.get("from") == d.b.name,
              "%s: %s hears node 2's chat: %r" % (tag, c.name, e))
    r = req(d.b, "rematch", room=d.room)
    ck.ok(r and r.get("ok"), "%s: rematch offer from node 2: %r" % (tag, r))
    e = until(d.a, lambda e: e.get("event") == "rematch_offered")
    ck.ok(e is not None and e.get("name") == d.b.name,
          "%s: node 1's player hears the rematch offer: %r" % (tag, e))
    r = req(d.a, "rematch", room=d.room)
    ck.ok(r and r.get("ok"), "%s: rematch accepted on node 1: %r" % (tag, r))
    for c in d.clients:
        e = until(c, lambda e: e.get("event") == "started" and
                  e.get("room") == d.room and e.get("seq", 0) > 1)
        ck.ok(e is not None, "%s: %s sees the rematch start" % (tag, c.name))
    r = req(d.a, "draw", room=d.room, action="offer")
    ck.ok(r and r.get("ok"), "%s: draw offer from node 1: %r" % (tag, r))
    e = until(d.b, lambda e: e.get("event") == "draw_offered")
    ck.ok(e is not None and e.get("name") == d.a.name,
          "%s: node 2's player hears the offer: %r" % (tag, e))
    r = req(d.b, "draw", room=d.room, action="accept")
    ck.ok(r and r.get("ok"), "%s: draw accepted on node 2: %r" % (tag, r))
    for c in d.clients:
        e = until(c, lambda e: e.get("event") == "ended" and
                  e.get("room") == d.room and
                  e.get("reason") == "draw by agreement")
        ck.ok(e is not None, "%s: %s sees the agreed draw" % (tag, c.name))
    stored = cl.rows("SELECT game_no, status FROM rooms WHERE id = '%s'"
                     % d.room)
    ck.eq(stored, [("2", "ended")], "%s: PostgreSQL has the second game "
          "ended" % tag)


def run(ck, a):
    with Cluster(a.build, 3) as cl:
        for i, (game, options) in enumerate(GAMES):
            d = whole_game(ck, cl, game, options, 11 + i)
            if game == "ataxx":
                social(ck, cl, d)


if __name__ == "__main__":
    cluster_lib.main(run)
