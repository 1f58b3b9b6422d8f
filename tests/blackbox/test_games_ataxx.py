"""test_games_ataxx.py: whole Ataxx games over the wire, with a spectator.

A 5x5 game between two clients choosing among the listed moves with a
fixed seed, played to its end; a game from a position where black must
pass (the pass is a moved event "0000" with no name); a game against a
level-1 bot; the spectator sees exactly what the players see.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_games_duo import Duo  # noqa: E402
from games_lib import (WAIT, Checks, Streamer, done, harness,  # noqa: E402
                       login, req, seeded, serving)

# Moves each side has ready for the move-limit game: more than the limit.
LIMIT_PLAN = 4000

# Moves at most in one test game: far more than a 5x5 game needs (each
# clone fills a square), small enough to fail fast if the end never comes.
MAX_MOVES = 2000

REASONS = ("board full", "no pieces left", "neither side can move")


def check_score(ck, tag, end):
    """The winner has more pieces; a draw has equal counts."""
    sc = end.get("scores") or {}
    ck.eq(sorted(sc), ["black", "white"], "%s: scores for both seats" % tag)
    w, b = sc.get("white", -1), sc.get("black", -1)
    if end.get("result") == "win":
        want = "white" if w > b else "black"
        ck.eq(end.get("winner"), want, "%s: the side with more pieces "
              "(white %d, black %d) wins" % (tag, w, b))
    else:
        ck.eq((end.get("result"), w), ("draw", b), "%s: equal counts draw"
              % tag)


def random_game(ck, port, seed):
    tag = "ax%d" % seed
    d = Duo(ck, port, tag, "ataxx", {"size": 5})
    st = d.created["state"]
    ck.eq(st["position"], "x3o/5/5/5/o3x x 0 1", "%s: the 5x5 start" % tag)
    ck.eq(st["board"], ["x...o", ".....", ".....", ".....", "o...x"],
          "%s: the 5x5 board rows" % tag)
    d.play(seeded(seed), MAX_MOVES)
    end, st, moved = d.finish()
    ck.ok(end.get("reason") in REASONS, "%s: reason %r is Ataxx's" %
          (tag, end.get("reason")))
    check_score(ck, tag, end)
    pieces = sum(row.count("x") + row.count("o") for row in st["board"])
    if end.get("reason") == "board full":
        ck.eq(pieces, 25, "%s: a full board has 25 pieces" % tag)
    r = req(d.w, "export", room=d.room)
    ck.eq(((r or {}).get("format"), (r or {}).get("text")),
          ("position", st["position"]), "%s: export gives the position "
          "string" % tag)
    passes = [e for e in moved if e["move"] == "0000"]
    for e in passes:
        ck.eq((e["seat"], e["name"]), (None, None),
              "%s: a pass is played by the server" % tag)
    d.close()
    return len(moved), len(passes)


def pass_game(ck, port):
    """From a position where white's clone leaves black without a move."""
    tag = "axpass"
    pos = "oxxxx/xxxxx/xxxxx/xxxxx/xxx2 x 0 1"
    d = Duo(ck, port, tag, "ataxx", {"size": 5, "position": pos})
    ck.eq(d.created["state"]["position"], pos, "%s: the position option "
          "is the start" % tag)
    r = req(d.seats["white"], "moves", room=d.room)
    ms = r.get("moves", []) if r else []
    ck.ok("d1" in ms and "e1" in ms and "0000" not in ms and
          all(m[-2:] in ("d1", "e1") for m in ms),
          "%s: white's moves all go to d1 or e1: %r" % (tag, ms))
    r = d.move("white", "d1")
    ck.ok(r and r.get("ok"), "%s: white clones d1: %r" % (tag, r))
    r = req(d.seats["black"], "move", room=d.room, move="0000")
    ck.eq((r or {}).get("error"), "not_your_turn",
          "%s: black cannot pass by hand after the pass" % tag)
    st = req(d.w, "state", room=d.room)["state"]
    ck.eq(st["turn"], "white", "%s: after black's pass white moves" % tag)
    hist = st["history"]
    ck.eq([(h["seat"], h["move"]) for h in hist],
          [("white", "d1"), (None, "0000")], "%s: the pass is in the "
          "history" % tag)
    if len(hist) == 2:
        ck.eq([h["text"] for h in hist],
              ["White player clones at d1",
               "Black player has no move and passes"],
              "%s: the seed's sentences (\"Jugador blanco clona en ...\")"
              % tag)
    r = req(d.seats["white"], "move", room=d.room, move="0000")
    ck.eq((r or {}).get("error"), "illegal_move", "%s: white may not pass"
          % tag)
    ck.eq((r or {}).get("message"), "you have legal moves, you cannot pass",
          "%s: the pass refusal reason" % tag)
    r = d.move("white", "e1")
    ck.ok(r and r.get("ok"), "%s: white clones e1: %r" % (tag, r))
    end, st, moved = d.finish()
    ck.eq([(e["seat"], e["name"], e["move"]) for e in moved],
          [("white", d.names["white"], "d1"), (None, None, "0000"),
           ("white", d.names["white"], "e1")],
          "%s: moved events d1, the pass, e1" % tag)
    if len(moved) == 3:
        ck.eq(moved[1]["text"], "Black player has no move and passes",
              "%s: the pass event's sentence" % tag)
        ck.eq((moved[0]["turn"], moved[1]["turn"]), ("black", "white"),
              "%s: turns around the pass" % tag)
    ck.eq((end.get("result"), end.get("winner"), end.get("reason"),
           end.get("scores")),
          ("win", "white", "board full", {"white": 24, "black": 1}),
          "%s: white wins on a full board 24 to 1" % tag)
    d.close()


def start_pass(ck, port):
    """White cannot move from the start position: the server passes for it
    as the game starts, before black's first move."""
    tag = "axstart"
    pos = "xoooo/ooooo/ooooo/ooooo/ooo2 x 0 1"
    d = Duo(ck, port, tag, "ataxx", {"position": pos})
    st = req(d.w, "state", room=d.room)["state"]
    ck.eq((st["turn"], [(h["seat"], h["move"]) for h in st["history"]]),
          ("black", [(None, "0000")]), "%s: white passed at the start" % tag)
    for m in ("d1", "e1"):
        r = d.move("black", m)
        ck.ok(r and r.get("ok"), "%s: black clones %s: %r" % (tag, m, r))
    end, st, moved = d.finish()
    ck.eq([(e["seat"], e["move"]) for e in moved],
          [(None, "0000"), ("black", "d1"), (None, "0000"), ("black", "e1")],
          "%s: white passes twice, black fills the board" % tag)
    ck.eq((end.get("result"), end.get("winner"), end.get("reason")),
          ("win", "black", "board full"), "%s: black fills the board" % tag)
    d.close()


def move_limit(ck, port):
    """Two players jumping back and forth forever (Ataxx has no repetition
    rule): the server's move limit ends the game in a draw."""
    tag = "axlimit"
    a, b = login(port, tag + "a"), login(port, tag + "b")
    room = req(a, "create", game="ataxx", options={"size": 5})["room"]
    req(b, "join", room=room)
    ta = Streamer(a, room, "white", ["a5a3", "a3a5"] * LIMIT_PLAN, "white")
    tb = Streamer(b, room, "black", ["e5e3", "e3e5"] * LIMIT_PLAN, "white")
    ta.start()
    tb.start()
    ta.join(3 * WAIT)
    tb.join(3 * WAIT)
    ck.ok(ta.ended is not None or tb.ended is not None,
          "%s: the cycling game ends" % tag)
    ck.eq([e for e in ta.errors + tb.errors
           if not (isinstance(e, dict) and e.get("error") == "game_over")],
          [], "%s: no other refusal on the way" % tag)
    st = req(a, "state", room=room)["state"]
    res = st.get("result") or {}
    ck.eq((st["status"], res.get("result"), res.get("reason"),
           res.get("winner")), ("ended", "draw", "move limit", None),
          "%s: a draw by the move limit" % tag)
    # The history comes in pages (state since=N).
    hist = list(st["history"])
    while len(hist) < st.get("history_total", 0):
        page = req(a, "state", room=room, since=len(hist))["state"]
        if not page["history"]:
            break
        hist += page["history"]
    ck.eq([h["n"] for h in hist], list(range(1, len(hist) + 1)),
          "%s: the pages join up" % tag)
    n = len(hist)
    ck.eq(n, len(ta.acks) + len(tb.acks), "%s: every acknowledged move is "
          "in the history" % tag)
    ck.ok(1000 <= n < 2 * LIMIT_PLAN, "%s: the limit is a few thousand "
          "moves (%d)" % (tag, n))
    a.close()
    b.close()


def bot_game(ck, port):
    """A person (white) against a level-1 bot (black), to the end."""
    tag = "axbot"
    d = Duo(ck, port, tag, "ataxx", {"size": 5}, bots={"black": 1})
    ck.eq(d.created.get("seat"), "white", "%s: the creator sits white" % tag)
    seats = d.created["state"]["seats"]
    ck.eq([(s["seat"], s["bot"]) for s in seats],
          [("white", None), ("black", 1)], "%s: black is a level-1 bot" % tag)
    ck.eq(d.created["state"]["status"], "playing",
          "%s: the game starts at once" % tag)
    d.names["black"] = None
    d.play(seeded(7), MAX_MOVES)
    end, st, moved = d.finish()
    ck.ok(end.get("reason") in REASONS, "%s: reason %r" % (tag,
                                                         end.get("reason")))
    check_score(ck, tag, end)
    bot_moves = [e for e in moved if e["seat"] == "black"]
    ck.ok(len(bot_moves) > 0, "%s: the bot moved" % tag)
    d.close()


def main():
    a = harness.args()
    ck = Checks()
    with serving(a.build) as s:
        runs = [random_game(ck, s.port, seed) for seed in (1, 2, 3)]
        print("random 5x5 games (moves, passes):", runs)
        pass_game(ck, s.port)
        start_pass(ck, s.port)
        move_limit(ck, s.port)
        bot_game(ck, s.port)
    done(ck)


if __name__ == "__main__":
    main()
