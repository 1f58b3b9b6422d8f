"""test_games_stones.py: whole Stones games over the wire, with a spectator.

first=1 played to three in a row; first=2 (player 2 places first); games
between seeded random choosers to their end (a win or a draw by third
repetition); a rematch in the same room (the players swap seats and a new
game starts from the empty board).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_games_duo import Duo  # noqa: E402
from games_lib import (Checks, done, harness, req, seeded,  # noqa: E402
                       serving, until)

P1, P2 = "player 1", "player 2"

# A random 3x3 game repeats a position three times long before this.
MAX_MOVES = 600


def scripted(ck, port):
    tag = "stfirst1"
    d = Duo(ck, port, tag, "stones", {"first": "1"})
    for seat, m in ((P1, "A1"), (P1, "A2"), (P1, "B3"), (P2, "C1"),
                    (P2, "C2"), (P2, "B1"), (P1, "b3c3"), (P2, "B1B2"),
                    (P1, "C3B3"), (P2, "C2C3"), (P1, "B3A3")):
        r = d.move(seat, m)
        ck.ok(r and r.get("ok"), "%s: %s %s: %r" % (tag, seat, m, r))
    end, st, moved = d.finish()
    ck.eq((end.get("result"), end.get("winner"), end.get("reason")),
          ("win", P1, "three in a row"), "%s: player 1 wins" % tag)
    ck.eq(moved[6]["move"] if len(moved) > 6 else None, "B3C3",
          "%s: lower case input is normalised" % tag)
    ck.eq(st["position"], "xxx/.o./o.o o x", "%s: the final position" % tag)
    return d


def rematch(ck, d):
    """Both players ask for a rematch: a new game in the same room, the
    seats swapped, the board empty."""
    tag = "strematch"
    before = req(d.w, "state", room=d.room)["state"]
    r = req(d.a, "rematch", room=d.room)
    ck.ok(r and r.get("ok"), "%s: the first ask: %r" % (tag, r))
    ev = until(d.b, lambda e: e.get("event") == "rematch_offered"
               and e.get("room") == d.room)
    ck.ok(ev is not None and ev.get("name") == d.a.name,
          "%s: the opponent hears of the offer: %r" % (tag, ev))
    r = req(d.b, "rematch", room=d.room)
    ck.ok(r and r.get("ok"), "%s: the second ask: %r" % (tag, r))
    evs = [until(c, lambda e: e.get("event") == "started"
                 and e.get("room") == d.room and e["seq"] > before["seq"])
           for c in d.clients]
    ck.ok(all(e is not None for e in evs), "%s: everyone sees the new "
          "start" % tag)
    ck.ok(evs[0] == evs[1] == evs[2], "%s: the same started event" % tag)
    st = req(d.w, "state", room=d.room)["state"]
    ck.eq((st["status"], st["history"], st["result"]),
          ("playing", [], None), "%s: a fresh game" % tag)
    ck.eq(st.get("game_no"), before.get("game_no", 0) + 1,
          "%s: the game number goes up" % tag)
    names = {s["seat"]: s["name"] for s in st["seats"]}
    ck.eq(names, {P1: d.b.name, P2: d.a.name}, "%s: the seats swap" % tag)
    ck.eq(st["board"], ["...", "...", "..."], "%s: the board is empty" % tag)
    ck.eq(st["turn"], P1, "%s: first=1 still: player 1 places" % tag)
    # The new game is playable by the new seats, to its end.
    seats = {P1: d.b, P2: d.a}
    for seat, m in ((P1, "A1"), (P1, "A2"), (P1, "B3"), (P2, "C1"),
                    (P2, "C2"), (P2, "B1"), (P1, "B3A3")):
        r = req(seats[seat], "move", room=d.room, move=m)
        ck.ok(r and r.get("ok"), "%s: %s %s: %r" % (tag, seat, m, r))
    ev = until(d.w, lambda e: e.get("event") == "ended"
               and e.get("room") == d.room and e["seq"] > before["seq"])
    ck.eq((ev or {}).get("winner_name"), d.b.name,
          "%s: the new player 1 wins" % tag)


def rematch_redraws(ck, port):
    """first=random: a rematch draws anew, from a new seed."""
    tag = "stredraw"
    d = Duo(ck, port, tag, "stones", {"first": "random", "seed": 42})
    seeds = ["42"]
    for round_no in range(3):
        st = req(d.w, "state", room=d.room)["state"]
        mover = {x["seat"]: x["name"] for x in st["seats"]}[st["turn"]]
        c = d.a if mover == d.a.name else d.b
        r = req(c, "resign", room=d.room)
        ck.ok(r and r.get("ok"), "%s: resign: %r" % (tag, r))
        until(d.w, lambda e: e.get("event") == "ended" and
              e["seq"] > st["seq"])
        req(d.a, "rematch", room=d.room)
        req(d.b, "rematch", room=d.room)
        ev = until(d.w, lambda e: e.get("event") == "started" and
                   e["seq"] > st["seq"])
        ck.ok(ev is not None, "%s: rematch %d starts" % (tag, round_no))
        st = req(d.w, "state", room=d.room)["state"]
        ck.eq(st["options"].get("first"), "random", "%s: still random" % tag)
        seeds.append(st["options"].get("seed"))
    ck.eq(len(set(seeds)), len(seeds), "%s: each rematch has a new seed: %r"
          % (tag, seeds))
    d.close()


def first_two(ck, port):
    tag = "stfirst2"
    d = Duo(ck, port, tag, "stones", {"first": "2"})
    st = req(d.w, "state", room=d.room)["state"]
    ck.eq((st["turn"], st["position"]), (P2, ".../.../... o o"),
          "%s: player 2 places first" % tag)
    r = d.move(P1, "A1")
    ck.eq((r or {}).get("error"), "not_your_turn", "%s: player 1 waits" % tag)
    d.play(seeded(5), MAX_MOVES)
    end, st, moved = d.finish()
    ck.eq([e["seat"] for e in moved[:6]], [P2] * 3 + [P1] * 3,
          "%s: player 2 places three, then player 1" % tag)
    d.close()


def random_game(ck, port, seed):
    tag = "strand%d" % seed
    d = Duo(ck, port, tag, "stones", {"first": "random", "seed": seed})
    d.play(seeded(seed), MAX_MOVES)
    end, st, moved = d.finish()
    ok = (end.get("result"), end.get("reason")) in (
        ("win", "three in a row"), ("draw", "third repetition"))
    ck.ok(ok, "%s: the end is a win or a repetition draw: %r" % (tag, end))
    if end.get("result") == "win":
        ck.eq(end.get("winner"), moved[-1]["seat"], "%s: the last mover "
              "wins" % tag)
    d.close()
    return end.get("result")


def main():
    a = harness.args()
    ck = Checks()
    with serving(a.build) as s:
        d = scripted(ck, s.port)
        rematch(ck, d)
        d.close()
        first_two(ck, s.port)
        rematch_redraws(ck, s.port)
        results = [random_game(ck, s.port, seed) for seed in range(1, 7)]
        # The same seed draws the same first player.
        d1 = Duo(ck, s.port, "stseeda", "stones", {"seed": 42})
        d2 = Duo(ck, s.port, "stseedb", "stones", {"seed": 42})
        t1 = req(d1.w, "state", room=d1.room)["state"]["turn"]
        t2 = req(d2.w, "state", room=d2.room)["state"]["turn"]
        ck.ok(t1 == t2 and t1 in (P1, P2), "the same seed draws the same "
              "first player: %r %r" % (t1, t2))
        d1.close()
        d2.close()
        print("random stones results:", results)
    done(ck)


if __name__ == "__main__":
    main()
