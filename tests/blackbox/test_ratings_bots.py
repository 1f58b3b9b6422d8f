"""test_ratings_bots.py: a bot level's rating is measured from its
results, in each pool apart (issue 31: bot ratings were fixed at 900 to
2100 in every game, the perfect Stones bot counting as 900).

ex, an established player (deviation 60 in "ataxx size=5"), loses twice
to bot level 1: its rating starts at the level's 900 and rises after each
game (the second starts where the first ended), stored under "~bot1". In
another pool ("ataxx size=6") the same level starts again at 900. A
newcomer's games (provisional) do not move a bot: throwaway names cannot
push a level up for others to farm. Survives a restart (stored).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import ended, login, main_in_tmp, req, server, shut, until  # noqa
from harness import store_exec, store_rows  # noqa: E402

POOL = "ataxx size=5"


def lose_to_bot(ck, c, size, what):
    """c plays three moves against bot level 1 in ataxx size=size and
    resigns; the bot's entry of the ratings in the ended event."""
    room = req(c, "create", game="ataxx", options={"size": size},
               bot=1)["room"]

    def bot_moves():
        return [e for e in c.log if e.get("event") == "moved" and
                e.get("room") == room and e.get("seat") == "black"]
    for mine in range(1, 4):
        moves = req(c, "moves", room=room).get("moves") or []
        r = req(c, "move", room=room, move=moves[0]) if moves else None
        ck.ok(r and r.get("ok"), "%s: move %d against the bot" % (what, mine))
        until(c, lambda e, n=mine: len(bot_moves()) >= n)
    req(c, "resign", room=room)
    ev = until(c, ended(room)) or {}
    ck.eq(ev.get("rated"), True, "%s: rated" % what)
    sides = dict((s.get("seat"), s) for s in ev.get("ratings") or [])
    return sides.get("black") or {}


def bot_row(db, pool):
    rows = store_rows(db, "SELECT rating, wins FROM ratings WHERE"
                      " name = '~bot1' AND pool = '%s'" % pool)
    return (round(float(rows[0][0])), int(rows[0][1])) if rows else None


def run(ck, a, tmp):
    db = os.path.join(tmp, "bots.db")
    s = server(a.build, db=db)
    c = login(s.port, "ex")
    tok = c.token
    c.close()
    shut(s)
    store_exec(db, "INSERT INTO ratings (name, pool, rating, rd, vol, wins,"
               " draws, losses, updated_ms) VALUES ('ex', '%s', 1500, 60,"
               " 0.06, 10, 0, 10, 0)" % POOL)
    s = server(a.build, db=db)
    c = login(s.port, "ex", tok)
    b1 = lose_to_bot(ck, c, 5, "game 1")
    ck.eq(b1.get("before"), 900, "level 1 starts at 900 in a new pool")
    ck.ok((b1.get("after") or 0) > 900,
          "the bot's win raises its rating: %r" % (b1,))
    b2 = lose_to_bot(ck, c, 5, "game 2")
    ck.eq(b2.get("before"), b1.get("after"),
          "the second game starts where the first left the bot")
    ck.ok((b2.get("after") or 0) > (b2.get("before") or 0),
          "and raises it again: %r" % (b2,))
    c.close()
    shut(s)
    ck.eq(bot_row(db, POOL), (b2.get("after"), 2),
          "stored under ~bot1 in its pool, two wins")
    s = server(a.build, db=db)
    c = login(s.port, "ex", tok)
    b6 = lose_to_bot(ck, c, 6, "another pool")
    ck.eq(b6.get("before"), 900, "in another pool level 1 starts again")
    ck.eq(b6.get("after"), 900,
          "ex is new in that pool (provisional): the bot does not move")
    nw = login(s.port, "nw")
    b5 = lose_to_bot(ck, nw, 5, "newcomer")
    ck.eq((b5.get("before"), b5.get("after")),
          (b2.get("after"), b2.get("after")),
          "after a restart the measured rating is back, and a newcomer's "
          "game does not move it")
    c.close()
    nw.close()
    shut(s)


if __name__ == "__main__":
    main_in_tmp("tablero-rbots-", run)
