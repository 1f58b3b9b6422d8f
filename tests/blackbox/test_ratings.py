#!/usr/bin/env python3
"""test_ratings.py: rated games, finger and ratings (issue 22).

A game between two people changes both Glicko-2 ratings, in the ended
event, in the stored result and in the ratings table, all alike; a game
against a bot level is rated for the person against the level's fixed
rating, and the bot's does not change; a game created rated=no and an
aborted game (fewer than two moves by each side) are not rated, and say
why; `ratings` lists a pool highest first, 50 a page, the provisional
apart, with ranks that go on across pages; finger shows ratings,
results, the games being played, member since and last seen; one-player
games keep records (solitaire: games solved, fewest pegs left; Shape
Shifter: highest level, fewest retries) that `ratings` lists best first;
ratings and records survive kill -9. Runs on SQLite and, through tests/pg.sh, on
PostgreSQL."""

import json
import os
import signal
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import (ended, login, main_in_tmp, req, server,  # noqa: E402
                       settle, shut, until)
from harness import (WAIT, Client, store_exec, store_rows,  # noqa: E402
                     store_url)

# The bound below which a rating is established (RATING_PROVISIONAL_RD).
PROVISIONAL_RD = 110
# A bot level's fixed rating (rating.c's table): level 1.
BOT1 = 900
# Players on one page of ratings.
PAGE = 50


def play_moves(a, b, room, each):
    """a and b (a to move) each play the first legal move, each times."""
    for _ in range(each):
        for c in (a, b):
            moves = req(c, "moves", room=room)["moves"]
            r = req(c, "move", room=room, move=moves[0])
            assert r and r.get("ok"), r


def duo(a, b, each=2, options=None):
    """A game of Ataxx between a (white) and b that a resigns after each
    moves a side; a's ended event."""
    fields = {"game": "ataxx"}
    if options:
        fields["options"] = options
    room = req(a, "create", **fields)["room"]
    req(b, "join", room=room)
    play_moves(a, b, room, each)
    req(a, "resign", room=room)
    until(b, ended(room))
    return until(a, ended(room))


def stored_result(db, room):
    """The result of the last kept game of room, parsed."""
    rows = store_rows(db, "SELECT result FROM games WHERE room = '%s'"
                      " ORDER BY id DESC" % room)
    return json.loads(rows[0][0]) if rows else None


def stored_rating(db, name, pool):
    """(rating, rd, wins, draws, losses) of name in pool, or None."""
    rows = store_rows(db, "SELECT rating, rd, wins, draws, losses FROM"
                      " ratings WHERE name = '%s' AND pool = '%s'"
                      % (name, pool))
    if not rows:
        return None
    r = rows[0]
    return (float(r[0]), float(r[1]), int(r[2]), int(r[3]), int(r[4]))


def check_people(ck, db, a, b):
    """Two people: both ratings move, the same everywhere."""
    ev = duo(a, b)
    ck.eq(ev.get("rated"), True, "a game between two people is rated")
    ck.eq(ev.get("pool"), "ataxx size=7", "its pool: game and board size")
    sides = {s["name"]: s for s in ev.get("ratings", [])}
    ana, bob = sides.get("ana", {}), sides.get("bob", {})
    ck.eq((ana.get("before"), bob.get("before")), (1500, 1500),
          "new players start at 1500")
    ck.ok(ana.get("after", 1500) < 1500 < bob.get("after", 1500),
          "the loser loses, the winner gains: %r" % ev.get("ratings"))
    ck.eq(ana.get("after", 0) + bob.get("after", 0), 3000,
          "between equals, what one gains the other loses")
    ck.eq((ana.get("provisional"), bob.get("rd")), (True, 290),
          "after one game the deviation is 290, provisional")
    ck.eq(ana.get("change"), ana.get("after", 0) - ana.get("before", 0),
          "change is after minus before")
    kept = stored_result(db, ev["room"])
    ck.eq(kept and kept.get("ratings"), ev.get("ratings"),
          "the kept game's result holds the same change")
    for name, side, wdl in (("ana", ana, (0, 0, 1)), ("bob", bob, (1, 0, 0))):
        row = stored_rating(db, name, "ataxx size=7")
        ck.ok(row is not None and round(row[0]) == side.get("after") and
              round(row[1]) == side.get("rd") and row[2:] == wdl,
              "%s's stored rating is the event's: %r" % (name, row))
    # a second game starts from the first one's ratings
    ev = duo(b, a)
    sides = {s["name"]: s for s in ev.get("ratings", [])}
    ck.eq(sides.get("ana", {}).get("before"), ana.get("after"),
          "the next game starts from the last one's rating")
    ck.ok(sides.get("ana", {}).get("after", 0) > ana.get("after", 0),
          "ana wins the second")
    return ev


def check_bot(ck, db, a):
    """A person against bot level 1: rated against its fixed rating."""
    room = req(a, "create", game="ataxx", options={"size": 5}, bot=1)["room"]

    def bot_moves():
        return [e for e in a.log if e.get("event") == "moved" and
                e.get("room") == room and e.get("seat") == "black"]
    for mine in range(1, 4):
        moves = req(a, "moves", room=room).get("moves") or []
        r = req(a, "move", room=room, move=moves[0]) if moves else None
        ck.ok(r and r.get("ok"), "ana's move %d against the bot" % mine)
        # the bot answers each move before ana's next
        until(a, lambda e, n=mine: len(bot_moves()) >= n)
    req(a, "resign", room=room)
    ev = until(a, ended(room))
    ck.eq(ev and ev.get("rated"), True, "a game against a bot is rated")
    ck.eq(ev and ev.get("pool"), "ataxx size=5", "a board size is a pool")
    sides = {s["seat"]: s for s in (ev or {}).get("ratings", [])}
    bot = sides.get("black", {})
    ck.eq((bot.get("name", "?"), bot.get("bot"), bot.get("before"),
           bot.get("after")), (None, 1, BOT1, BOT1),
          "the bot's rating is its level's and does not change")
    ck.ok(sides.get("white", {}).get("after", 1500) < 1500,
          "the person who resigned loses points")
    ck.ok(stored_rating(db, "ana", "ataxx size=5") is not None,
          "the person's rating is stored")
    ck.eq(store_rows(db, "SELECT count(*) FROM ratings WHERE"
                     " pool = 'ataxx size=5'")[0][0] in (1, "1"), True,
          "no row for the bot")


def check_unrated(ck, db, a, b):
    """rated=no and an aborted game change nothing."""
    before = (stored_rating(db, "ana", "ataxx size=7"),
              stored_rating(db, "bob", "ataxx size=7"))
    ev = duo(a, b, options={"rated": "no"})
    ck.eq((ev.get("rated"), "ratings" in ev), (False, False),
          "created rated=no: not rated")
    ck.ok("rated=no" in ev.get("unrated", ""), "and it says why")
    st = req(a, "state", room=ev["room"]).get("state") or {}
    ck.eq((st.get("options") or {}).get("rated"), "no",
          "the room shows rated=no")
    ev = duo(a, b, each=1)
    ck.eq(ev.get("rated"), False, "one move each: aborted, not rated")
    ck.ok("aborted" in ev.get("unrated", ""), "and it says so: %r" % ev)
    after = (stored_rating(db, "ana", "ataxx size=7"),
             stored_rating(db, "bob", "ataxx size=7"))
    ck.eq(after, before, "no stored rating changed")
    r = req(a, "create", game="ataxx", options={"rated": "perhaps"})
    ck.eq(r.get("error"), "bad_options", "rated takes yes or no")
    r = req(a, "create", game="solitaire", options={"rated": "yes"})
    ck.eq(r.get("error"), "bad_options", "a one-player game is not rated")


def check_list(ck, db, a):
    """ratings: order, ranks, pages, the provisional apart."""
    rows = []
    for i in range(60):
        rows.append("('p%02d', 'ataxx size=6', %d, 60, 0.06, %d, 0, 1, 1)"
                    % (i, 1400 + (i * 37) % 500, i))
    rows.append("('zz_a', 'ataxx size=6', 1900, 60, 0.06, 1, 0, 0, 1)")
    rows.append("('aa_z', 'ataxx size=6', 1900, 60, 0.06, 1, 0, 0, 1)")
    for i in range(3):
        rows.append("('new%d', 'ataxx size=6', %d, 200, 0.06, 1, 0, 0, 1)"
                    % (i, 2000 - i))
    store_exec(db, "INSERT INTO ratings (name, pool, rating, rd, vol, wins,"
               " draws, losses, updated_ms) VALUES " + ", ".join(rows))
    p1 = req(a, "ratings", game="ataxx", options={"size": 6})
    top = p1.get("players", [])
    ck.eq(len(top), PAGE, "a page holds 50")
    ck.eq(p1.get("more"), True, "and says there is more")
    ck.eq([p["rank"] for p in top], list(range(1, PAGE + 1)),
          "ranked 1 to 50")
    ck.ok(all(top[i]["rating"] >= top[i + 1]["rating"]
              for i in range(len(top) - 1)), "highest first")
    ck.eq([p["name"] for p in top[:2]], ["aa_z", "zz_a"],
          "a tie goes by name")
    ck.eq(sorted(p["name"] for p in p1.get("provisional", [])),
          ["new0", "new1", "new2"], "the provisional apart")
    ck.ok(all(p["provisional"] and p["rd"] >= PROVISIONAL_RD
              for p in p1.get("provisional", [])), "flagged provisional")
    p2 = req(a, "ratings", game="ataxx", options={"size": 6, "page": 2})
    ck.eq([p["rank"] for p in p2.get("players", [])],
          list(range(PAGE + 1, 63)), "page 2 goes on from 51")
    ck.eq((p2.get("more"), p2.get("provisional")), (False, []),
          "and is the last")
    names = [p["name"] for p in top + p2.get("players", [])]
    ck.eq(len(set(names)), 62, "no player twice across pages")
    r = req(a, "ratings", game="ataxx", options={"page": 0})
    ck.eq(r.get("error"), "bad_options", "page 0 is refused")
    r = req(a, "ratings", game="ataxx", options={"seed": 1})
    ck.eq(r.get("error"), "bad_options", "only size makes an Ataxx pool")
    r = req(a, "ratings", game="chess")
    ck.eq(r.get("error"), "no_such_game", "an unknown game")


def check_finger(ck, a, bob_after):
    """finger: ratings, results, games now, since and last seen."""
    room = req(a, "create", game="ataxx")["room"]
    f = req(a, "finger", name="BOB")
    ck.eq(f.get("name"), "bob", "finger finds a name whatever its case")
    ck.eq(f.get("online"), True, "bob is online")
    ck.ok(f.get("since_ms", 0) > 0 and f.get("seen_ms", 0) > 0,
          "member since and last seen")
    r7 = [r for r in f.get("ratings", []) if r["pool"] == "ataxx size=7"]
    ck.ok(r7 and r7[0]["rating"] == bob_after and r7[0]["game"] == "ataxx"
          and (r7[0]["wins"], r7[0]["draws"], r7[0]["losses"]) == (1, 0, 1),
          "bob's rating and results: %r" % r7)
    mine = req(a, "finger")
    ck.eq(mine.get("name"), "ana", "finger alone is oneself")
    ck.ok(any(p["room"] == room for p in mine.get("playing", [])),
          "the games one sits in now")
    ck.eq({r["pool"] for r in mine.get("ratings", [])},
          {"ataxx size=7", "ataxx size=5"}, "one rating per pool")
    r = req(a, "finger", name="nobody_here")
    ck.eq(r.get("error"), "bad_name", "an unknown name")
    req(a, "leave", room=room)
    return mine.get("ratings")


def solve(ck, c, room, what):
    """Play the solver's hints in room until the game is solved. Only an
    ended event newer than every event of room seen so far counts: an
    earlier try of the same room (ended, then restarted) left its own
    ended event in c.log."""
    settle(c)
    seen = max([e.get("seq", 0) for e in c.log if e.get("room") == room],
               default=0)
    for _ in range(80):
        h = req(c, "hint", room=room)
        if not h.get("move"):
            break
        req(c, "move", room=room, move=h["move"])
        ev = until(c, lambda e: ended(room)(e) and e.get("seq", 0) > seen,
                   timeout=0.05)
        if ev:
            ck.eq(ev.get("result"), "solved", what + " solved")
            return ev
    ck.ok(False, what + ": not solved by the hints")
    return None


def check_records(ck, db, a):
    """One-player records: solitaire's games solved and fewest left,
    Shape Shifter's highest level and fewest retries; ratings lists them
    best first."""
    room = req(a, "create", game="solitaire",
               options={"board": "example"})["room"]
    solve(ck, a, room, "the example board")
    room = req(a, "create", game="solitaire",
               options={"board": "example"})["room"]
    moves = req(a, "moves", room=room)["moves"]
    req(a, "move", room=room, move=moves[0])
    req(a, "resign", room=room)
    until(a, ended(room))
    # A level 1 whose first listed capture (the knight takes the bishop on
    # a3) leaves a bishop that cannot take the rook: the try ends blocked
    # (an end is a try), the restart starts it over. A generated level did
    # this only now and then, and its ended event then passed for the end
    # of the solved try.
    room = req(a, "create", game="shifter", options={
        "position": "1 ......../......../......../.C....../......../"
                    "A.T...../......../........ b5"})["room"]
    moves = req(a, "moves", room=room)["moves"]
    ck.eq(moves[0], "a3", "shifter: the first capture listed")
    req(a, "move", room=room, move=moves[0])
    ev = until(a, ended(room))
    ck.eq(ev and ev.get("result"), "blocked",
          "shifter: the first try ends blocked")
    ck.ok(req(a, "restart", room=room).get("ok"), "a restart is a retry")
    solve(ck, a, room, "level 1")
    req(a, "leave", room=room)
    f = req(a, "finger")
    recs = {r["game"]: r for r in f.get("records", [])}
    ck.eq(recs.get("solitaire"), {"game": "solitaire", "solved": 1,
                                  "fewest_left": 1},
          "solitaire: one solved, fewest pegs left 1 (the given-up game "
          "changes neither)")
    ck.eq(recs.get("shifter"), {"game": "shifter", "solved": 1, "level": 1,
                                "tries": 1},
          "shifter: level 1 solved after one retry")
    store_exec(db, "INSERT INTO records (name, game, solved, best, tries,"
               " updated_ms) VALUES ('bob', 'shifter', 3, 3, 5, 1),"
               " ('carl', 'shifter', 3, 3, 2, 1), ('dan', 'shifter', 1, 1,"
               " 0, 1), ('bob', 'solitaire', 3, 2, 0, 1), ('carl',"
               " 'solitaire', 3, 1, 0, 1)")
    r = req(a, "ratings", game="shifter")
    ck.eq([(x["rank"], x["name"]) for x in r.get("records", [])],
          [(1, "carl"), (2, "bob"), (3, "dan"), (4, "ana")],
          "shifter: highest level first, then fewest retries")
    r = req(a, "ratings", game="solitaire")
    ck.eq([x["name"] for x in r.get("records", [])], ["carl", "bob", "ana"],
          "solitaire: most solved first, then fewest left")
    r = req(a, "ratings", game="solitaire", options={"board": "english"})
    ck.eq(r.get("error"), "bad_options", "records take only page")
    return f.get("records")


def check_text(ck, port):
    """Telnet: the ended text says each side's rating before and after."""
    t = Client(port)
    t.raw("hello tina\n")
    dora = login(port, "dora")
    t.raw("create ataxx size=8\n")
    room = None
    for _ in range(40):
        line = t.line()
        m = re.search(r"\b(r\d+)\b", line or "")
        if m:
            room = m.group(1)
            break
    req(dora, "join", room=room)
    for mine, theirs in (("b7", "g7"), ("b6", "g6")):
        t.raw("move %s room=%s\n" % (mine, room))
        for _ in range(50):
            r = req(dora, "move", room=room, move=theirs)
            if r.get("ok") or r.get("error") != "not_your_turn":
                break
            time.sleep(0.05)
    t.raw("resign room=%s\n" % room)
    out = ""
    for _ in range(200):
        line = t.line()
        if line is None:
            break
        out += line + "\n"
        if line.startswith("Rated") or line.startswith("Not rated"):
            break
    ck.ok("Rated (ataxx size=8): tina 1500 -> 1338?, dora 1500 -> 1662?."
          in out, "the ended text in telnet: %r" % out[-300:])
    t.close()


def run(ck, a, tmp):
    db = os.path.join(tmp, "r.db")
    s = server(a.build, db=db)
    ana, bob = login(s.port, "ana"), login(s.port, "bob")
    ev = check_people(ck, db, ana, bob)
    bob_after = {x["name"]: x for x in ev["ratings"]}["bob"]["after"]
    check_bot(ck, db, ana)
    check_unrated(ck, db, ana, bob)
    check_list(ck, db, ana)
    mine = check_finger(ck, ana, bob_after)
    records = check_records(ck, db, ana)
    check_text(ck, s.port)
    settle(ana)
    shut(s, signal.SIGKILL)
    s = server(a.build, db=db)
    ana = login(s.port, "ana", ana.token)
    again = req(ana, "finger")
    ck.eq(again.get("ratings"), mine, "the ratings survive kill -9")
    ck.eq(again.get("records"), records, "the records survive kill -9")
    text = login(s.port, "carl")
    text.raw("mode text\nratings ataxx size=7\n")
    out = ""
    for _ in range(20):
        line = text.line()
        if line is None:
            break
        out += line + "\n"
        if "bob" in line:
            break
    ck.ok("Ratings of ataxx size=7" in out and "bob" in out,
          "ratings in text mode: %r" % out)
    shut(s)
    # --copy-db takes the ratings and the records along
    dst = os.path.join(tmp, "copy.db")
    p = subprocess.run([os.path.join(a.build, "tablerod"), "--copy-db",
                        store_url(db), store_url(dst)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=WAIT * 3, check=False)
    ck.eq(p.returncode, 0, "--copy-db: %s" % p.stdout.decode()[-300:])
    s = server(a.build, db=dst)
    ana = login(s.port, "ana", ana.token)
    again = req(ana, "finger")
    ck.eq((again.get("ratings"), again.get("records")), (mine, records),
          "the copy holds the ratings and the records")
    shut(s)


if __name__ == "__main__":
    main_in_tmp("tablero-ratings-", run)
