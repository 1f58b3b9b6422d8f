"""test_games_amazons.py: whole Amazons games over the wire, with a spectator.

A game from the opening with both sides choosing among the listed moves
(fixed seed) until a side has no move; a game from the seed's tablero.txt
(the generic `file` option) played out; a game from a position string one
move from the end; illegal moves answered with the rules' reasons.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_games_duo import Duo  # noqa: E402
from games_lib import (Checks, done, harness, req, seeded,  # noqa: E402
                       serving)

# Every move puts an arrow on one of the 92 empty squares: no game is longer.
MAX_MOVES = 92

OPENING = "3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3 w"

# The seed's saved game (tablero.txt) and its position string.
SEED_FILE = ("a7,g1,i9,j6\nb1,b10,g7,i3\n"
             "a10,a8,a6,b7,b6,b3,b2,e1,f1,g5,g9,h1,h4,h5,i1,j1\n1\n")
SEED_POS = "xB8/6x1W1/x9/Wx4B3/xx7W/6xx2/7x2/1x6B1/1x8/1B2xxWxxx w"


def check_end(ck, tag, end, moved):
    """The side to move has no move and loses: the last mover wins."""
    ck.eq((end.get("result"), end.get("reason"), end.get("scores")),
          ("win", "no move", None), "%s: a win by no move, no scores" % tag)
    if moved:
        ck.eq(end.get("winner"), moved[-1]["seat"],
              "%s: the last mover wins" % tag)


def opening_game(ck, port, seed):
    tag = "am%d" % seed
    d = Duo(ck, port, tag, "amazons")
    ck.eq(d.created["state"]["position"], OPENING, "%s: the opening" % tag)
    r = req(d.seats["white"], "moves", room=d.room)
    ck.eq(len((r or {}).get("moves", [])), 2176,
          "%s: 2176 moves from the opening" % tag)
    r = req(d.seats["white"], "moves", room=d.room, **{"from": "d1"})
    ms = (r or {}).get("moves", [])
    ck.ok(ms and all(m.startswith("d1-") for m in ms),
          "%s: moves from d1 all start at d1" % tag)
    r = req(d.seats["white"], "move", room=d.room, move="d1-d9/d10")
    ck.eq(((r or {}).get("error"), (r or {}).get("message")),
          ("illegal_move", "arrow square d10 is occupied"),
          "%s: an arrow onto an amazon" % tag)
    r = req(d.seats["white"], "move", room=d.room, move="a4-a8/a9")
    ck.eq(((r or {}).get("error"), (r or {}).get("message")),
          ("illegal_move", "queen path blocked at a7"),
          "%s: a queen path through an amazon" % tag)
    r = req(d.seats["black"], "move", room=d.room, move="a7-a6/a5")
    ck.eq((r or {}).get("error"), "not_your_turn", "%s: black first" % tag)
    r = d.move("white", "D1I6E10")
    ck.eq((r or {}).get("move"), "d1-i6/e10", "%s: the compact form is "
          "normalised" % tag)
    d.play(seeded(seed), 10, to_end=False)
    d.late_watcher(port)
    # Mid-game, the export loads back through the file option.
    mid = req(d.w, "state", room=d.room)["state"]["position"]
    text = req(d.w, "export", room=d.room).get("text")
    r = req(d.w, "create", game="amazons", options={"file": text})
    ck.eq((r or {}).get("state", {}).get("position"), mid,
          "%s: export then file gives the same position" % tag)
    if r and r.get("ok"):
        req(d.w, "leave", room=r["room"])
    d.play(seeded(seed), MAX_MOVES)
    end, st, moved = d.finish()
    check_end(ck, tag, end, moved)
    ck.eq(moved[0]["text"] if moved else None,
          "white moves d1 to i6 and shoots e10", "%s: the move sentence"
          % tag)
    d.close()
    return len(moved)


def file_game(ck, port):
    """The seed's tablero.txt through the `file` option, played out."""
    tag = "amfile"
    d = Duo(ck, port, tag, "amazons", {"file": SEED_FILE})
    ck.eq(d.created["state"]["position"], SEED_POS,
          "%s: the seed's file loads as its position" % tag)
    r = req(d.w, "export", room=d.room)
    ck.eq(((r or {}).get("format"), (r or {}).get("text")),
          ("tablero.txt", "a7,g1,i9,j6\nb1,b10,g7,i3\n"
           "a6,a8,a10,b2,b3,b6,b7,e1,f1,g5,g9,h1,h4,h5,i1,j1\n1\n"),
          "%s: export writes the seed's four lines, sorted" % tag)
    r = req(d.seats["white"], "move", room=d.room, move="j6-g6/g8")
    ck.eq(((r or {}).get("error"), (r or {}).get("message")),
          ("illegal_move", "arrow path blocked at g7"),
          "%s: the seed's blocked arrow" % tag)
    d.play(seeded(11), MAX_MOVES)
    end, st, moved = d.finish()
    check_end(ck, tag, end, moved)
    d.close()


def last_move_game(ck, port):
    """Black's amazons walled in but for one: white's move ends it."""
    tag = "amlast"
    # Black: a10 b10 a9 boxed in by arrows, j1 with one free neighbour
    # (i1); white's e2-e1/i1 takes it.
    pos = "BBx7/Bxx7/xx8/10/4W5/10/W8W/10/4W3xx/9B w"
    d = Duo(ck, port, tag, "amazons", {"position": pos})
    ck.eq(d.created["state"]["position"], pos, "%s: the position" % tag)
    ck.eq(d.created["state"]["status"], "waiting", "%s: waits for black"
          % tag)
    r = d.move("white", "e2-e1/i1")
    ck.ok(r and r.get("ok"), "%s: white walls black's last amazon in: %r"
          % (tag, r))
    end, st, moved = d.finish()
    check_end(ck, tag, end, moved)
    ck.eq(end.get("winner"), "white", "%s: white wins" % tag)
    d.close()


def main():
    a = harness.args()
    ck = Checks()
    with serving(a.build) as s:
        opening_game(ck, s.port, 1)
        opening_game(ck, s.port, 2)
        file_game(ck, s.port)
        last_move_game(ck, s.port)
    done(ck)


if __name__ == "__main__":
    main()
