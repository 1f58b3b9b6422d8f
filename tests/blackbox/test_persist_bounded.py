#!/usr/bin/env python3
"""test_persist_bounded.py: what one identity can make the data file keep
is bounded (issue 18, item 5).

- Thousands of games made and left before any move (solitaire and Shape
  Shifter, create then leave) leave no row behind: no finished game, and
  the finished room's row goes when it leaves memory, so the data file
  does not grow with them (the file's size is SQLite's alone; with
  PostgreSQL the rows are counted the same).
- --games-per-hour: past that many kept games in an hour, create, rematch
  and next get limit_reached; games left before any move count for
  nothing.
- --keep-games-days: finished games older than that are pruned by the
  sweep, through the store thread; without it they are kept.
"""

import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness
from harness import (Checks, Client, Server, args, is_error, is_ok, login,
                     sqlite_only)

# Create+leave cycles before measuring (the file's working size) and
# measured; each cycle makes one solitaire or one shifter game.
WARM_CYCLES = 1000
CYCLES = 3000
# Bytes the data file may grow by in the measured cycles: the pages of the
# few rooms alive at once (a finished room's row goes a group or two after
# it was made) and their index pages, which vary with the store thread's
# grouping; measured +0 to +12 KiB. Before issue 18 each cycle kept about
# 960 bytes: +2.8 MB for CYCLES.
SLACK = 16 * 4096
# Polls of the data file or the server, 0.05 s apart, before giving up.
POLLS = 200
# No message rate in the way of thousands of requests.
FAST = ["--rate", "100000", "--burst", "100000"]
DAY_MS = 86400 * 1000


def rows(db, sql):
    """One number from db's store, read beside the running server (the
    SQLite file, or its PostgreSQL database)."""
    return int(harness.store_rows(db, sql)[0][0])


def poll(what):
    """what() until it is true, POLLS times at most; its last value."""
    for _ in range(POLLS):
        v = what()
        if v:
            return v
        time.sleep(0.05)
    return what()


def empty_cycles(chk, c, n, tag):
    """n games made and left before any move; each reply checked."""
    bad = 0
    for i in range(n):
        game = "solitaire" if i % 2 == 0 else "shifter"
        r = c.call("create", game=game)
        room = (r or {}).get("room")
        if room is None or not (c.call("leave", room=room) or {}).get("ok"):
            bad += 1
        c.pending = []  # events of games nobody keeps
    chk.eq(bad, 0, "%s: %d games made and left" % (tag, n))


def one_game(c, game="solitaire"):
    """A game with one move, then resigned: kept. Its room."""
    room = c.call("create", game=game)["room"]
    moves = c.call("moves", room=room)["moves"]
    c.call("move", room=room, move=moves[0])
    c.call("resign", room=room)
    c.pending = []
    return room


def no_rows_left(db):
    """No finished game and no room row left (finished rooms gone)."""
    return poll(lambda: rows(db, "SELECT count(*) FROM games") == 0 and
                rows(db, "SELECT count(*) FROM rooms") == 0 and
                rows(db, "SELECT count(*) FROM moves") == 0)


def test_empty_games(chk, build, tmp):
    db = os.path.join(tmp, "empty.db")
    with Server(build, db=db, extra=FAST) as s:
        c = login(s.port, "em_a")
        empty_cycles(chk, c, WARM_CYCLES, "warm-up")
        chk.ok(no_rows_left(db), "warm-up: no game and no room row kept")
        token = c.token
        c.close()
    size = os.path.getsize(db) if harness.PG is None else 0
    with Server(build, db=db, extra=FAST) as s:
        c = Client(s.port)
        is_ok(chk, c.call("hello", name="em_a", token=token), "em_a again")
        empty_cycles(chk, c, CYCLES, "measured")
        chk.ok(no_rows_left(db), "measured: no game and no room row kept")
        r = c.call("rooms", status="ended")
        chk.eq((r or {}).get("rooms"), [], "rooms ended: none of them")
        r = c.call("history")
        chk.eq((r or {}).get("games"), [], "history: none of them")
        c.close()
    if not sqlite_only(chk, "the data file's size"):
        return
    grown = os.path.getsize(db) - size
    print("data file: %d bytes, %+d after %d empty games" %
          (os.path.getsize(db), grown, CYCLES))
    chk.ok(grown <= SLACK, "the data file does not grow with empty games: "
           "%+d bytes after %d (at most %d)" % (grown, CYCLES, SLACK))


def test_games_per_hour(chk, build):
    with Server(build, extra=FAST + ["--games-per-hour", "3"]) as s:
        a = login(s.port, "gh_a")
        # games left before any move count for nothing
        empty_cycles(chk, a, 20, "gh: under the limit")
        rooms = [one_game(a) for _ in range(3)]
        is_error(chk, a.call("create", game="solitaire"), "limit_reached",
                 "gh: a 4th kept game this hour", ["3 finished games"])
        is_error(chk, a.call("rematch", room=rooms[-1]), "limit_reached",
                 "gh: a rematch counts too", ["try again in"])
        # another identity from the same address: its own budget (the
        # address has 10 x as many)
        b = login(s.port, "gh_b")
        r = b.call("create", game="solitaire")
        is_ok(chk, r, "gh: another identity still starts games")
        a.close()
        b.close()


def set_ended(db, room, ended_ms):
    """Make room's kept game look as if it ended at ended_ms."""
    harness.store_exec(db, "UPDATE games SET ended_ms = %d, started_ms = %d "
                       "WHERE room = '%s'" % (ended_ms, ended_ms - 1000,
                                              room))


def history_rooms(port, n=[0]):
    """pr_a's kept games, asked by a fresh identity."""
    n[0] += 1
    c = login(port, "pr_reader%d" % n[0])
    r = c.call("history", name="pr_a")
    c.close()
    return [g["room"] for g in (r or {}).get("games", [])]


def test_prune(chk, build, tmp):
    db = os.path.join(tmp, "prune.db")
    with Server(build, db=db, extra=FAST) as s:
        a = login(s.port, "pr_a")
        old, new = one_game(a), one_game(a, "shifter")
        a.close()
    now = int(time.time() * 1000)
    set_ended(db, old, now - 10 * DAY_MS)
    set_ended(db, new, now - 2 * DAY_MS)
    # kept for good by default
    with Server(build, db=db, extra=FAST) as s:
        time.sleep(1.2)  # one sweep
        chk.eq(history_rooms(s.port), [new, old], "prune: none by default")
    with Server(build, db=db, extra=FAST + ["--keep-games-days", "5"]) as s:
        left = poll(lambda: history_rooms(s.port) == [new])
        chk.ok(left, "prune: the game older than 5 days goes, the other "
               "stays: %r" % history_rooms(s.port))
        chk.ok(poll(lambda: "pruned 1 finished games past --keep-games-days"
                    in s.logtext()), "prune: logged")
        chk.eq(rows(db, "SELECT count(*) FROM games"), 1,
               "prune: one row left in the data file")
    with Server(build, db=db, extra=FAST + ["--keep-games-days", "1"]) as s:
        chk.ok(poll(lambda: history_rooms(s.port) == []),
               "prune: --keep-games-days 1 takes the 2-day-old one")


def main():
    a = args()
    chk = Checks()
    tmp = tempfile.mkdtemp(prefix="tablerod-bounded-")
    try:
        test_games_per_hour(chk, a.build)
        test_prune(chk, a.build, tmp)
        test_empty_games(chk, a.build, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    chk.done()


if __name__ == "__main__":
    main()
