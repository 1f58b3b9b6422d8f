"""test_tourney.py: tournaments played to the end by scripted players.

A 5-player round robin (Berger tables: everyone meets everyone once, one
bye each) and a 7-player Swiss of 3 rounds (no pair twice, one bye a round,
never twice to one player) are played over the wire: each round the players
are told their room and seat (tourney_round), sit down with join, and the
scripted result is made by a resignation or an agreed draw. The standings
of `tourney show` and of the tourney_ended event are checked against the
same arithmetic done here (Sonneborn-Berger, Buchholz). A player who never
sits down loses by forfeit at the grace (and neither scores when both stay
away). A tournament survives SIGTERM and kill -9 in the middle of a round:
its games, results and rooms come back and it is finished after. Over
telnet, shorthand in and text out, create, join and show (the standings
table).
Stones games: quick, and any Stones room ends at once by resignation.
"""

import functools
import os
import re
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import games_lib  # noqa: E402
import harness  # noqa: E402
from games_lib import (WAIT, Client, login, main_in_tmp, req,  # noqa: E402
                       server, shut, until)


def round_event(tid, rnd):
    return lambda e: (e.get("event") == "tourney_round" and
                      e.get("tourney") == tid and e.get("round") == rnd)


def ended_event(tid):
    return lambda e: (e.get("event") == "tourney_ended" and
                      e.get("tourney") == tid)


def expected(names, games, swiss):
    """Standings by the rules of docs/PROTOCOL.md, worked here: [(name,
    halves, tiebreak quarters)] best first (score, the tie-breaks in
    order, seeding)."""
    halves = dict((n, 0) for n in names)
    for g in games:
        w, b, res = g["white"], g["black"], g["result"]
        if b is None:
            halves[w] += 2
        elif res == "1-0":
            halves[w] += 2
        elif res == "0-1":
            halves[b] += 2
        elif res == "1/2":
            halves[w] += 1
            halves[b] += 1
    bh = dict((n, 0) for n in names)
    sb = dict((n, 0) for n in names)
    wins = dict((n, 0) for n in names)
    for g in games:
        w, b, res = g["white"], g["black"], g["result"]
        if b is None:
            continue
        for me, opp, got in ((w, b, {"1-0": 2, "1/2": 1}.get(res, 0)),
                             (b, w, {"0-1": 2, "1/2": 1}.get(res, 0))):
            bh[me] += 2 * halves[opp]
            sb[me] += got * halves[opp]
            wins[me] += got == 2
    # Swiss: Buchholz, Sonneborn-Berger, wins; round robin:
    # Sonneborn-Berger, wins; then the seeding.
    tb = bh if swiss else sb
    order = sorted(names, key=lambda n: (-halves[n], -tb[n],
                                         -sb[n], -wins[n], names.index(n)))
    return [(n, halves[n], tb[n]) for n in order]


def check_wdl(ck, what, got, games):
    """Each standing's wins, draws and losses count the games played, and
    byes the byes apart (a bye scores a point, as a win)."""
    want = {}
    for g in games:
        w, b, res = g["white"], g["black"], g["result"]
        if b is None:
            want.setdefault(w, [0, 0, 0, 0])[3] += 1
            continue
        for me, k in ((w, {"1-0": 0, "1/2": 1, "0-1": 2}[res]),
                      (b, {"0-1": 0, "1/2": 1, "1-0": 2}[res])):
            want.setdefault(me, [0, 0, 0, 0])[k] += 1
    ck.eq(dict((s.get("name"), [s.get("wins"), s.get("draws"),
                                s.get("losses"), s.get("byes")])
               for s in (got or [])), want,
          what + ": W-D-L of the games played, byes apart")


def check_standings(ck, what, got, want):
    ck.eq([(s.get("name"), s.get("points_halves"),
            s.get("tiebreak_quarters")) for s in (got or [])], want,
          what + ": standings (name, half points, tie-break quarters)")
    ck.eq([s.get("place") for s in (got or [])],
          list(range(1, len(want) + 1)), what + ": places")


class Tourney:
    """A tournament, its players' connections and the games seen."""

    def __init__(self, ck, port, tag, n, fmt, extra=None):
        self.ck = ck
        self.port = port
        self.tag = tag
        self.names = ["%s%d" % (tag, i) for i in range(n)]
        self.c = dict((nm, login(port, nm)) for nm in self.names)
        self.tokens = dict((nm, self.c[nm].token) for nm in self.names)
        org = self.c[self.names[0]]
        fields = {"do": "create", "game": "stones",
                  "options": dict({"format": fmt}, **(extra or {}))}
        r = req(org, "tourney", **fields)
        ck.ok(r and r.get("ok"), "%s: tourney create: %r" % (tag, r))
        self.id = ((r or {}).get("tourney") or {}).get("id")
        for nm in self.names:
            r = req(self.c[nm], "tourney", do="join", tourney=self.id)
            ck.ok(r and r.get("ok"), "%s: %s joins: %r" % (tag, nm, r))
        self.games = []

    def start(self):
        r = req(self.c[self.names[1]], "tourney", do="start",
                tourney=self.id)
        self.ck.eq((r or {}).get("error"), "not_allowed",
                   "%s: only the organiser starts it" % self.tag)
        r = req(self.c[self.names[0]], "tourney", do="start",
                tourney=self.id)
        self.ck.ok(r and r.get("ok"), "%s: start: %r" % (self.tag, r))
        return (r or {}).get("tourney") or {}

    def show(self):
        return req(self.c[self.names[0]], "tourney", do="show",
                   tourney=self.id) or {}

    def pairings(self, rnd):
        """Every player's tourney_round of round rnd, checked against the
        pairings `tourney show` gives; the pairings."""
        ck, tag = self.ck, self.tag
        evs = {}
        for nm in self.names:
            evs[nm] = until(self.c[nm], round_event(self.id, rnd))
            ck.ok(evs[nm] is not None, "%s: %s told of round %d" %
                  (tag, nm, rnd))
        sh = self.show()
        ck.eq(sh.get("pairings_round"), rnd, "%s: show's round" % tag)
        ps = sh.get("pairings") or []
        seen = []
        for p in ps:
            w, b = p.get("white"), p.get("black")
            seen += [w] + ([b] if b is not None else [])
            ew, eb = evs.get(w) or {}, evs.get(b) or {}
            if b is None:
                ck.ok(ew.get("bye") is True and p.get("result") == "bye",
                      "%s r%d: %s has the bye" % (tag, rnd, w))
                continue
            ck.eq((ew.get("room"), ew.get("opponent"), eb.get("room"),
                   eb.get("opponent")), (p.get("room"), b, p.get("room"), w),
                  "%s r%d: both told the room and opponent" % (tag, rnd))
            ck.ok(ew.get("seat") != eb.get("seat"),
                  "%s r%d: two seats" % (tag, rnd))
        ck.eq(sorted(seen), sorted(self.names),
              "%s r%d: everyone plays once" % (tag, rnd))
        return ps

    def sit(self, p):
        room = p["room"]
        for nm in (p["white"], p["black"]):
            r = req(self.c[nm], "join", room=room)
            self.ck.ok(r and r.get("ok"), "%s: %s sits in %s: %r" %
                       (self.tag, nm, room, r))

    def finish(self, p, result):
        """Make the result of a started game: the loser resigns, or a
        draw is offered and accepted."""
        room, w, b = p["room"], p["white"], p["black"]
        if result == "1/2":
            req(self.c[w], "draw", room=room, action="offer")
            r = req(self.c[b], "draw", room=room, action="accept")
        else:
            loser = b if result == "1-0" else w
            r = req(self.c[loser], "resign", room=room)
        self.ck.ok(r and r.get("ok"), "%s: %s ends %s: %r" %
                   (self.tag, result, room, r))
        ev = until(self.c[w], lambda e: e.get("event") == "ended" and
                   e.get("room") == room)
        self.ck.ok(ev is not None, "%s: %s ended" % (self.tag, room))

    def play_round(self, rnd, decide):
        ps = self.pairings(rnd)
        for p in ps:
            if p.get("black") is None:
                self.games.append({"white": p["white"], "black": None,
                                   "result": "bye"})
                continue
            self.sit(p)
            res = decide(p["white"], p["black"])
            self.finish(p, res)
            self.games.append({"white": p["white"], "black": p["black"],
                               "result": res})
        return ps

    def close(self):
        for c in self.c.values():
            c.close()


def seed_of(t, name):
    return t.names.index(name)


def round_robin(ck, port):
    """Five players, five rounds: every pair once, a bye each; the higher
    seed wins except that seeds 1 and 2 (0-based) and 0 and 4 draw, and
    seed 3 beats seed 0. rr0, rr1 and rr2 tie on 3.5 points; rr0's
    Sonneborn-Berger (7.75) puts it first, rr1 and rr2 tie on it too
    (6.25) and on wins (2 each), and the seeding decides."""
    t = Tourney(ck, port, "rr", 5, "roundrobin")

    def decide(w, b):
        i, j = sorted((seed_of(t, w), seed_of(t, b)))
        if (i, j) in ((1, 2), (0, 4)):
            return "1/2"
        winner = t.names[j] if (i, j) == (0, 3) else t.names[i]
        return "1-0" if winner == w else "0-1"

    sh = t.show().get("tourney") or {}
    ck.eq((sh.get("rounds"), sh.get("round"), sh.get("status")),
          (5, 0, "open"), "rr: before the start, the 5 rounds planned "
          "with its 5 players, round 0, open")
    st = t.start()
    ck.eq((st.get("rounds"), st.get("status")), (5, "playing"),
          "rr: 5 rounds, playing")
    r = req(t.c[t.names[0]], "tourney", do="join", tourney=t.id)
    ck.eq((r or {}).get("error"), "not_allowed", "rr: no joining once begun")
    met = set()
    for rnd in range(1, 6):
        for p in t.play_round(rnd, decide):
            if p.get("black") is not None:
                met.add(frozenset((p["white"], p["black"])))
    ck.eq(len(met), 10, "rr: the 10 pairs met, each once")
    byes = [g["white"] for g in t.games if g["black"] is None]
    ck.eq(sorted(byes), sorted(t.names), "rr: one bye each")
    want = expected(t.names, t.games, False)
    ck.eq(want, [("rr0", 7, 31), ("rr1", 7, 25), ("rr2", 7, 25),
                 ("rr3", 6, 20), ("rr4", 3, 7)],
          "rr: the standings worked by hand")
    ev = until(t.c[t.names[2]], ended_event(t.id))
    ck.ok(ev is not None, "rr: tourney_ended came")
    ck.eq((ev or {}).get("tiebreak"), "Sonneborn-Berger", "rr: its tiebreak")
    check_standings(ck, "rr: tourney_ended", (ev or {}).get("standings"),
                    want)
    check_wdl(ck, "rr: tourney_ended", (ev or {}).get("standings"), t.games)
    sh = t.show()
    ck.eq((sh.get("tourney") or {}).get("status"), "ended", "rr: ended")
    check_standings(ck, "rr: show after the end", sh.get("standings"), want)
    check_wdl(ck, "rr: show after the end", sh.get("standings"), t.games)
    return t


def swiss(ck, port):
    """Seven players, three Swiss rounds: lower seeds win, except that a
    game between seeds 2 and 5 is drawn."""
    t = Tourney(ck, port, "sw", 7, "swiss", {"rounds": "3"})

    def decide(w, b):
        i, j = sorted((seed_of(t, w), seed_of(t, b)))
        if (i, j) == (2, 5):
            return "1/2"
        return "1-0" if t.names[i] == w else "0-1"

    st = t.start()
    ck.eq(st.get("rounds"), 3, "sw: 3 rounds")
    pairs = []
    byes = []
    for rnd in range(1, 4):
        for p in t.play_round(rnd, decide):
            if p.get("black") is None:
                byes.append(p["white"])
            else:
                pairs.append(frozenset((p["white"], p["black"])))
    ck.eq(len(pairs), len(set(pairs)), "sw: no pair met twice")
    ck.eq(len(byes), 3, "sw: a bye each round")
    ck.eq(len(set(byes)), 3, "sw: never two byes to one player")
    want = expected(t.names, t.games, True)
    ev = until(t.c[t.names[0]], ended_event(t.id))
    ck.eq((ev or {}).get("tiebreak"), "Buchholz", "sw: its tiebreak")
    check_standings(ck, "sw: tourney_ended", (ev or {}).get("standings"),
                    want)
    check_standings(ck, "sw: show", t.show().get("standings"), want)
    return t


def no_show(ck, port):
    """Two players, grace 1 s: one sits, the other never comes; then two
    who both stay away."""
    t = Tourney(ck, port, "ns", 2, "roundrobin", {"grace": "1"})
    t.start()
    ps = t.pairings(1)
    p = ps[0]
    r = req(t.c[p["white"]], "join", room=p["room"])
    ck.ok(r and r.get("ok"), "ns: the first player sits")
    r = req(t.c[p["white"]], "leave", room=p["room"])
    ck.ok(r and r.get("ok"), "ns: and leaves before the start")
    r = req(t.c[p["white"]], "join", room=p["room"])
    ck.ok(r and r.get("ok"), "ns: the room stayed: the player sits again")
    stranger = login(port, "nsx")
    r = req(stranger, "join", room=p["room"])
    ck.eq((r or {}).get("error"), "not_allowed",
          "ns: nobody else may take the free seat")
    stranger.close()
    ev = until(t.c[p["white"]], ended_event(t.id), timeout=WAIT + 5)
    ck.ok(ev is not None, "ns: the tournament ends after the grace")
    sh = t.show()
    g = (sh.get("pairings") or [{}])[0]
    ck.eq((g.get("result"), g.get("reason")), ("1-0", "forfeit"),
          "ns: the absent player lost by forfeit")
    check_standings(ck, "ns", sh.get("standings"),
                    [(p["white"], 2, 0), (p["black"], 0, 0)])
    t.close()

    t = Tourney(ck, port, "nz", 2, "roundrobin", {"grace": "1"})
    t.start()
    t.pairings(1)
    ev = until(t.c[t.names[0]], ended_event(t.id), timeout=WAIT + 5)
    ck.ok(ev is not None, "nz: ends though nobody sat")
    g = (t.show().get("pairings") or [{}])[0]
    ck.eq((g.get("result"), g.get("reason")), ("0-0", "forfeit"),
          "nz: neither scores")
    t.close()


def relogin(t):
    for nm in t.names:
        t.c[nm].close()
        t.c[nm] = login(t.port, nm, t.tokens[nm])


def restarts(ck, a, tmp):
    """Four players in a round robin on a data file: SIGTERM in the middle
    of round 1 (one game over, one being played) and kill -9 in the middle
    of round 2; it is finished after each restart."""
    db = os.path.join(tmp, "tourney.db")
    s = server(a.build, db=db)
    t = Tourney(ck, s.port, "rs", 4, "roundrobin", {"grace": "600"})
    t.start()

    def decide(w, b):
        return "1-0" if seed_of(t, w) < seed_of(t, b) else "0-1"

    for rnd, sig in ((1, signal.SIGTERM), (2, signal.SIGKILL)):
        ps = t.pairings(rnd)
        first, second = ps[0], ps[1]
        t.sit(first)
        res = decide(first["white"], first["black"])
        t.finish(first, res)
        t.games.append(dict(first, result=res))
        t.sit(second)
        shut(s, sig)
        s = server(a.build, db=db)
        t.port = s.port
        relogin(t)
        sh = t.show()
        ck.eq((sh.get("tourney") or {}).get("round"), rnd,
              "rs: round %d back after %s" % (rnd, sig.name))
        got = dict((g.get("room"), g.get("result"))
                   for g in sh.get("pairings") or [])
        ck.eq(got, {first["room"]: res, second["room"]: ""},
              "rs: round %d's results back after %s" % (rnd, sig.name))
        r = req(t.c[second["white"]], "join", room=second["room"])
        ck.ok(r and r.get("ok") and r.get("seat") is not None,
              "rs: the game being played is back, its seats too (%r)" %
              (r,))
        req(t.c[second["black"]], "join", room=second["room"])
        res = decide(second["white"], second["black"])
        t.finish(second, res)
        t.games.append(dict(second, result=res))
    # Round 3 is paired; kill -9 before anyone sits: its rooms, waiting
    # and empty, come back and take their players.
    ps = t.pairings(3)
    shut(s, signal.SIGKILL)
    s = server(a.build, db=db)
    t.port = s.port
    relogin(t)
    sh = t.show()
    ck.eq([(p.get("room"), p.get("result")) for p in sh.get("pairings") or []],
          [(p["room"], "") for p in ps], "rs: round 3's rooms back, unplayed")
    for p in ps:
        t.sit(p)
        res = decide(p["white"], p["black"])
        t.finish(p, res)
        t.games.append(dict(p, result=res))
    ev = until(t.c[t.names[0]], ended_event(t.id))
    want = expected(t.names, t.games, False)
    check_standings(ck, "rs: after two restarts",
                    (ev or {}).get("standings"), want)
    t.close()
    ck.eq(shut(s), 0, "rs: the server stops cleanly")
    # --copy-db takes the tournament along (to an SQLite file).
    dst = os.path.join(tmp, "copy.db")
    p = subprocess.run([os.path.join(a.build, "tablerod"), "--copy-db",
                        harness.store_url(db), dst, "--log-level", "info"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=WAIT * 3, check=False)
    log = p.stdout.decode("utf-8", "replace")
    ck.ok(p.returncode == 0 and "tourney_games: 6 rows" in log,
          "rs: --copy-db copies the tournament's rows: %s" % log[-600:])
    s = harness.Server(a.build, db=dst, db_as_is=True).start()
    c = login(s.port, "rs0", t.tokens["rs0"])
    sh = req(c, "tourney", do="show", tourney=t.id) or {}
    ck.eq((sh.get("tourney") or {}).get("status"), "ended",
          "rs: the copy holds the ended tournament")
    check_standings(ck, "rs: on the copy", sh.get("standings"), want)
    c.close()
    shut(s)


def errors(ck, port):
    c = login(port, "terr")
    r = req(c, "tourney", do="create", game="solitaire")
    ck.eq((r or {}).get("error"), "bad_options", "one-player game refused")
    r = req(c, "tourney", do="create", game="stones",
            options={"format": "knockout"})
    ck.eq((r or {}).get("error"), "bad_options", "unknown format refused")
    r = req(c, "tourney", do="create", game="stones",
            options={"format": "swiss", "rounds": "99"})
    ck.eq((r or {}).get("error"), "bad_options", "too many rounds refused")
    r = req(c, "tourney", do="show", tourney="t999")
    ck.eq((r or {}).get("error"), "not_allowed", "unknown tournament")
    r = req(c, "tourney", do="create", game="stones",
            options={"format": "swiss", "rounds": "5"})
    tid = ((r or {}).get("tourney") or {}).get("id")
    req(c, "tourney", do="join", tourney=tid)
    r = req(c, "tourney", do="start", tourney=tid)
    ck.eq((r or {}).get("error"), "not_allowed", "one player cannot start")
    r = req(c, "tourney", do="leave", tourney=tid)
    ck.ok(r and r.get("ok") and
          (r.get("tourney") or {}).get("players") == [],
          "leave before the start: %r" % (r,))
    r = req(c, "tourney", do="list")
    ck.ok(r and any(x.get("id") == tid for x in r.get("tourneys") or []),
          "list shows it")
    c.close()


# (this file's text-mode reads stop after 50 lines)
lines_until = functools.partial(games_lib.lines_until, limit=50)


def text_mode(ck, port):
    """Telnet: shorthand in, text out: the summary line and the standings
    table."""
    c = Client(port)
    c.raw(b"hello tx\r\n")
    ck.ok(lines_until(c, r"tx") is not None, "text: logged in")
    c.raw(b"tourney create stones format=swiss rounds=1 grace=30\r\n")
    m = lines_until(
        c, r"^(t\d+) stones Swiss, not started \(1 round planned\), open")
    ck.ok(m is not None, "text: the summary line of create")
    tid = m.group(1) if m else "t0"
    c.raw(("tourney join %s\r\n" % tid).encode())
    ck.ok(lines_until(c, r"^Players: tx$") is not None, "text: joined")
    c.raw(("tourney show %s\r\n" % tid).encode())
    ck.ok(lines_until(c, r"#  name +points +tb  W-D-L   \(tb: Buchholz\)")
          is not None, "text: the standings table's header")
    ck.ok(lines_until(c, r"^ +1  tx +0 +0  0-0-0$") is not None,
          "text: a standings line")
    text_round_robin(ck, port, c)
    c.close()


def text_round_robin(ck, port, c):
    """Telnet: a round robin says it has not started and how many rounds
    it will have with its players (not "round 0 of 0"); once started,
    the player with the bye shows it beside W-D-L ("0-0-0 +1 bye", 1
    point), not as a bare 0-0-0."""
    c.raw(b"tourney create stones grace=30\r\n")
    m = lines_until(c, r"^(t\d+) stones round robin, not started, open, "
                    r"0 players")
    ck.ok(m is not None, "text: an empty round robin has not started")
    tid = m.group(1) if m else "t0"
    c.raw(("tourney join %s\r\n" % tid).encode())
    ck.ok(lines_until(c, r"^Players: tx$") is not None, "text: tx joined")
    others = [login(port, nm) for nm in ("txa", "txb")]
    for o in others:
        req(o, "tourney", do="join", tourney=tid)
    c.raw(("tourney show %s\r\n" % tid).encode())
    ck.ok(lines_until(c, r"^%s stones round robin, not started \(3 rounds "
                      r"planned\), open, 3 players" % tid) is not None,
          "text: three players: 3 rounds planned")
    c.raw(("tourney start %s\r\n" % tid).encode())
    ck.ok(lines_until(c, r"^%s stones round robin, round 1 of 3, playing"
                      % tid) is not None, "text: started, round 1 of 3")
    c.raw(("tourney show %s\r\n" % tid).encode())
    ck.ok(lines_until(c, r"^ +1  tx[ab]? +1 +0  0-0-0 \+1 bye$") is not None,
          "text: the bye's standings line says so")
    for o in others:
        o.close()


def run(ck, a, tmp):
    s = server(a.build)
    text_mode(ck, s.port)
    errors(ck, s.port)
    round_robin(ck, s.port).close()
    swiss(ck, s.port).close()
    no_show(ck, s.port)
    shut(s)
    restarts(ck, a, tmp)


if __name__ == "__main__":
    main_in_tmp("tablero-tourney-", run)
