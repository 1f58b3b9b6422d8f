"""test_tourney_swiss.py: a Swiss is seeded by rating and paired by the
Dutch system's basic rules (issue 31: round 1 paired seeds 1-2 and 3-4,
seeds followed the order of joining).

Four players join in the order s0, s1, s2, s3; s1 is rated 1600, s2
1500, s0 1400 and s3 has no rating (the default 1500): the seeding is
s1, s2, s3, s0 (equal ratings keep the order of joining). Round 1: top
half against bottom half, s1-s3 (s1 white on board 1) and s0-s2 (the
higher seed s2 black on board 2). s1 and s2 win; the server is killed
(-9) in the middle of round 1 and comes back with the same seeding.
Round 2: score groups {s1, s2} and {s3, s0}, colours by preference: s2
(black in round 1) white against s1, s3 white against s0. s2 and s3 win:
`tourney show` and tourney_ended name the tie-breaks in order, say which
broke each tie, and show the crosstable with every round (JSON and
telnet).
"""

import os
import re
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import (WAIT, Client, login, main_in_tmp, req,  # noqa
                       server, shut, until)
from harness import store_exec  # noqa: E402

NAMES = ["s0", "s1", "s2", "s3"]
RATED = {"s0": 1400, "s1": 1600, "s2": 1500}


def round_ev(tid, rnd):
    return lambda e: (e.get("event") == "tourney_round" and
                      e.get("tourney") == tid and e.get("round") == rnd)


def boards(sh):
    return [(p.get("board"), p.get("white"), p.get("black"))
            for p in sh.get("pairings") or []]


def play(ck, c, p, winner):
    room = p["room"]
    for nm in (p["white"], p["black"]):
        r = req(c[nm], "join", room=room)
        ck.ok(r and r.get("ok"), "%s sits in %s: %r" % (nm, room, r))
    loser = p["black"] if winner == p["white"] else p["white"]
    r = req(c[loser], "resign", room=room)
    ck.ok(r and r.get("ok"), "%s resigns: %r" % (loser, r))
    ck.ok(until(c[winner], lambda e: e.get("event") == "ended" and
                e.get("room") == room) is not None, "%s ended" % room)


def run(ck, a, tmp):
    db = os.path.join(tmp, "swiss.db")
    s = server(a.build, db=db)
    tokens = {}
    for nm in NAMES:
        c = login(s.port, nm)
        tokens[nm] = c.token
        c.close()
    shut(s)
    for nm, rating in RATED.items():
        store_exec(db, "INSERT INTO ratings (name, pool, rating, rd, vol,"
                   " wins, draws, losses, updated_ms) VALUES ('%s', 'stones',"
                   " %d, 60, 0.06, 5, 0, 5, 0)" % (nm, rating))
    s = server(a.build, db=db)
    c = dict((nm, login(s.port, nm, tokens[nm])) for nm in NAMES)
    r = req(c["s0"], "tourney", do="create", game="stones",
            options={"format": "swiss", "rounds": "2", "grace": "600"})
    tid = ((r or {}).get("tourney") or {}).get("id")
    for nm in NAMES:
        req(c[nm], "tourney", do="join", tourney=tid)
    r = req(c["s0"], "tourney", do="start", tourney=tid)
    ck.eq(((r or {}).get("tourney") or {}).get("players"),
          ["s1", "s2", "s3", "s0"], "seeded by rating, joining breaks ties")
    for nm in NAMES:
        ck.ok(until(c[nm], round_ev(tid, 1)) is not None,
              "%s told of round 1" % nm)
    sh = req(c["s0"], "tourney", do="show", tourney=tid) or {}
    ck.eq(boards(sh), [(1, "s1", "s3"), (2, "s0", "s2")],
          "round 1: top half against bottom half, colours by board")
    ps = dict((p["board"], p) for p in sh.get("pairings") or [])
    play(ck, c, ps[1], "s1")
    for x in c.values():
        x.close()
    shut(s, signal.SIGKILL)
    s = server(a.build, db=db)
    c = dict((nm, login(s.port, nm, tokens[nm])) for nm in NAMES)
    sh = req(c["s0"], "tourney", do="show", tourney=tid) or {}
    ck.eq((sh.get("tourney") or {}).get("players"), ["s1", "s2", "s3", "s0"],
          "the seeding is back after kill -9")
    ck.eq(boards(sh), [(1, "s1", "s3"), (2, "s0", "s2")],
          "round 1 is back")
    play(ck, c, ps[2], "s2")
    for nm in NAMES:
        ck.ok(until(c[nm], round_ev(tid, 2)) is not None,
              "%s told of round 2" % nm)
    sh = req(c["s0"], "tourney", do="show", tourney=tid) or {}
    ck.eq(boards(sh), [(1, "s2", "s1"), (2, "s3", "s0")],
          "round 2: by score groups, colours by preference")
    ps = dict((p["board"], p) for p in sh.get("pairings") or [])
    play(ck, c, ps[1], "s2")
    play(ck, c, ps[2], "s3")
    ev = until(c["s0"], lambda e: e.get("event") == "tourney_ended")
    ck.eq((ev or {}).get("tiebreaks"),
          ["Buchholz", "Sonneborn-Berger", "wins", "seed"],
          "tourney_ended names the tie-breaks in order")
    sh = req(c["s0"], "tourney", do="show", tourney=tid) or {}
    crosstable(ck, sh)
    text(ck, s.port, tid)
    for x in c.values():
        x.close()
    shut(s)


def crosstable(ck, sh):
    """Final: s2 2, s1 1, s3 1, s0 0; s1 and s3 tie on points, s1's
    Buchholz (s3 1 + s2 2 = 3) beats s3's (s1 1 + s0 0 = 1)."""
    st = sh.get("standings") or []
    ck.eq([(x.get("name"), x.get("seed"), x.get("above_next_by"))
           for x in st],
          [("s2", 2, "points"), ("s1", 1, "Buchholz"), ("s3", 3, "points"),
           ("s0", 4, None)], "standings: seed, and what breaks each tie")
    ck.eq((st[1] if len(st) > 1 else {}).get("tiebreaks"),
          {"Buchholz": 3, "Sonneborn-Berger": 1, "wins": 1},
          "s1's tie-breaks by name")
    ck.eq(sh.get("tiebreaks"), ["Buchholz", "Sonneborn-Berger", "wins",
                                "seed"], "show names the tie-breaks")
    want = {"s2": [(1, "s0", 4, "black", "1"), (2, "s1", 2, "white", "1")],
            "s1": [(1, "s3", 3, "white", "1"), (2, "s2", 1, "black", "0")],
            "s3": [(1, "s1", 2, "black", "0"), (2, "s0", 4, "white", "1")],
            "s0": [(1, "s2", 1, "white", "0"), (2, "s3", 3, "black", "0")]}
    got = dict((row.get("name"),
                [(x.get("round"), x.get("opponent"), x.get("opponent_place"),
                  x.get("colour"), x.get("result"))
                 for x in row.get("rounds") or []])
               for row in sh.get("crosstable") or [])
    ck.eq(got, want, "the crosstable: every round of every player")
    ck.eq([row.get("place") for row in sh.get("crosstable") or []],
          [1, 2, 3, 4], "the crosstable's rows in the standings' order")


def text(ck, port, tid):
    """Telnet: the tie-breaks named, the tie said, the crosstable."""
    t = Client(port)
    t.raw(b"hello sx\r\n")
    t.raw(("tourney show %s\r\n" % tid).encode())
    lines = []
    for _ in range(40):
        try:
            line = t.line(WAIT)
        except (TimeoutError, OSError):
            break
        if line is None:
            break
        lines.append(line)
        if line.startswith("Round 2:"):
            break
    t.close()
    body = "\n".join(lines)
    for pat, what in (
            (r"Tie-breaks, in order: Buchholz, Sonneborn-Berger, wins, "
             r"seed\.", "the order of the tie-breaks"),
            (r"  s1 is above s3 on Buchholz\.", "the tie and its breaker"),
            (r"\n +#  name +R1 +R2 points\n", "the crosstable's header"),
            (r"\n +1  s2 +4b1 +2w1 +2\n", "s2's row"),
            (r"\n +4  s0 +1w0 +3b0 +0\n", "s0's row")):
        ck.ok(re.search(pat, body) is not None, "text: %s:\n%s" %
              (what, body))


if __name__ == "__main__":
    main_in_tmp("tablero-tswiss-", run)
