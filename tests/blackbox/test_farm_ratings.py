#!/usr/bin/env python3
"""test_farm_ratings.py: a rating cannot be farmed with throwaway names
(issue 30, finding 5: a new name per game, two moves each, the throwaway
resigns: 1500 -> 2274 in 60 games).

The farm itself, against the server's defaults: FARM games, each against
a name made for it on the farmer's address, each resigned by the
throwaway after two moves a side. Every game says at its start (the
started event's rated and unrated) and at its end that it is not rated
and why, and the farmer ends at 1600 or less (finger, and the ratings
table).

Then each rule alone, with addresses given by a trusted proxy (the PROXY
protocol): two names on one IPv6 /64 are not rated; a name younger than
--rated-min-age is not; one with fewer than --rated-min-games rated
games is not (games against a bot count, and are rated from the first);
two old names with their games, on two addresses, are rated, at the
start and at the end.

Acknowledged means stored: the decision is stored with the room when the
game starts (the rooms table's unrated), and a server killed and started
again with other flags ends the game as its start said (rated, or not
and why), not as the new flags would. Runs on SQLite and, through
tests/pg.sh, on PostgreSQL."""

import os
import signal
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from games_lib import (FAST, STARTED, absorb, main_in_tmp, req,  # noqa: E402
                       shut, until)
from harness import Client, Server, run_parts, store_rows  # noqa: E402

# Games of the farm: the 60, which is also what one identity may
# have kept in an hour (--games-per-hour).
FARM = 60
# The target: the farmer's rating after the farm.
FARM_MAX = 1600
# A new player's rating.
START = 1500
# The trusted proxy's address, and the flags of the rules' own test: an
# identity is rated once 2 s old with 1 rated game.
PROXY = "127.0.0.2"
MIN_AGE = 2
RULES = ["--proxy-from", PROXY, "--rated-min-age", str(MIN_AGE),
         "--rated-min-games", "1"]



def run_server(build, **kw):
    """A started Server that games_lib stops at exit (by its pid) when
    a part raises before stopping it."""
    s = Server(build, **kw)
    STARTED.append(s)
    return s.start()

def started(room):
    return lambda e: e.get("event") == "started" and e.get("room") == room


def ended(room):
    return lambda e: e.get("event") == "ended" and e.get("room") == room


def hello(c, name, token=None):
    """Log c in as name; c gets .log, .name and .token."""
    c.log = []
    fields = {"name": name}
    if token is not None:
        fields["token"] = token
    r = c.call("hello", **fields)
    c.name = name
    c.token = token if token is not None else (r or {}).get("token")
    absorb(c)
    return c


def named(port, name, token=None):
    return hello(Client(port), name, token)


def proxied(port, addr, name):
    """name, logged in through the trusted proxy as coming from addr."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(harness.WAIT)
    s.bind((PROXY, 0))
    s.connect(("127.0.0.1", port))
    fam, dst = ("TCP6", "::1") if ":" in addr else ("TCP4", "127.0.0.1")
    s.sendall(("PROXY %s %s %s 40000 7777\r\n" % (fam, addr, dst)).encode())
    c = Client.__new__(Client)
    c.sock, c.buf, c.pending, c.next_id = s, b"", [], 1
    c.welcome = c.json()
    return hello(c, name)


def two_moves_each(a, b, room):
    """a (to move) and b each play their first legal move twice."""
    for _ in range(2):
        for c in (a, b):
            moves = req(c, "moves", room=room)["moves"]
            r = req(c, "move", room=room, move=moves[0])
            assert r and r.get("ok"), r


def game(ck, a, b, what, loser=None):
    """A game of Ataxx made by a, joined by b, two moves each, then
    resigned by loser (b by default): (a's started event, a's ended)."""
    room = req(a, "create", game="ataxx")["room"]
    r = req(b, "join", room=room)
    ck.ok(r and r.get("ok"), "%s: join: %r" % (what, r))
    st = until(a, started(room))
    two_moves_each(a, b, room)
    req(loser or b, "resign", room=room)
    until(b, ended(room))
    return st, until(a, ended(room))


def bot_game(c):
    """c plays Ataxx 5x5 against bot level 1 and resigns after two moves
    a side: a rated loss. c's ended event."""
    room = req(c, "create", game="ataxx", options={"size": 5},
               bot=1)["room"]
    for i in range(2):
        moves = req(c, "moves", room=room)["moves"]
        req(c, "move", room=room, move=moves[0])
        until(c, lambda e, n=i: e.get("event") == "moved" and
              e.get("room") == room and e.get("name") is None and
              len([x for x in c.log if x.get("event") == "moved" and
                   x.get("room") == room and x.get("name") is None]) > n)
    req(c, "resign", room=room)
    return until(c, ended(room))


def rating_of(c, name):
    """name's rating in ataxx size=7 from finger (START when none)."""
    r = req(c, "finger", name=name)
    for x in (r or {}).get("ratings", []):
        if x.get("pool") == "ataxx size=7":
            return x.get("rating")
    return START


def test_farm(ck, a):
    """The farm of the issue, against the server's defaults."""
    with Server(a.build, extra=FAST, rating_rules=True) as s:
        farmer = named(s.port, "farmer")
        unrated_start = unrated_end = 0
        why = None
        for i in range(FARM):
            t = named(s.port, "throw%d" % i)
            st, en = game(ck, farmer, t, "farm game %d" % i)
            if st and st.get("rated") is False and st.get("unrated"):
                unrated_start += 1
                why = st.get("unrated")
            if en and en.get("rated") is False and \
                    en.get("unrated") == (st or {}).get("unrated"):
                unrated_end += 1
            t.close()
        final = rating_of(farmer, "farmer")
        print("farm: %d games, the farmer's rating after: %r" %
              (FARM, final), flush=True)
        ck.ok(final <= FARM_MAX, "the farm leaves the farmer at %d or "
              "less: %r" % (FARM_MAX, final))
        ck.eq(unrated_start, FARM, "every farm game says at its start "
              "that it is not rated")
        ck.eq(unrated_end, FARM, "and again at its end, for the same "
              "reason")
        ck.ok(why is not None and "address" in why,
              "the reason: one address (%r)" % (why,))
        r = req(farmer, "ratings", game="ataxx")
        listed = [p["name"] for p in (r or {}).get("players", []) +
                  (r or {}).get("provisional", [])]
        ck.ok("farmer" not in listed, "the farmer is in no ratings list: "
              "%r" % (listed,))
        farmer.close()


def test_rules(ck, a):
    """Each rule alone, with addresses from a trusted proxy."""
    with Server(a.build, extra=FAST + RULES, rating_rules=True) as s:
        p = s.port
        old1 = proxied(p, "198.51.100.1", "old1")
        old2 = proxied(p, "198.51.100.2", "old2")
        late = proxied(p, "198.51.100.4", "late")
        made = time.time()
        for c in (old1, old2):
            en = bot_game(c)
            ck.eq(en.get("rated") if en else None, True,
                  "%s's first game, against a bot, is rated" % c.name)
        # one /64: not rated, whatever else holds
        six1 = proxied(p, "2001:db8:1:1::1", "six1")
        six2 = proxied(p, "2001:db8:1:1::2", "six2")
        st, en = game(ck, six1, six2, "one /64")
        ck.ok(st and st.get("rated") is False and
              "address" in st.get("unrated", ""),
              "two names on one IPv6 /64: not rated at the start: %r"
              % (st,))
        ck.ok(en and en.get("rated") is False and
              en.get("unrated") == st.get("unrated"),
              "nor at the end: %r" % (en,))
        # wait for the old ones to be old enough (a wait, not a timing)
        time.sleep(max(0, made + MIN_AGE + 0.2 - time.time()))
        st, en = game(ck, old1, old2, "two old names")
        ck.eq(st.get("rated") if st else None, True,
              "two old names with their games, two addresses: rated at "
              "the start")
        ck.eq(en.get("rated") if en else None, True, "and at the end")
        ck.ok(en and len(en.get("ratings", [])) == 2,
              "both ratings change: %r" % (en,))
        # old enough, but no rated game yet
        st, en = game(ck, old1, late, "no rated game yet")
        ck.ok(st and st.get("rated") is False and
              "late" in st.get("unrated", "") and
              "rated games" in st.get("unrated", ""),
              "a name without a rated game: not rated: %r" % (st,))
        ck.ok(en and en.get("rated") is False, "nor at its end")
        # a rated game, but too young
        kid = proxied(p, "198.51.100.3", "kid")
        bot_game(kid)
        st, en = game(ck, old2, kid, "a young name")
        ck.ok(st and st.get("rated") is False and
              "kid" in st.get("unrated", "") and
              "old" in st.get("unrated", ""),
              "a name younger than --rated-min-age: not rated: %r" % (st,))
        ck.ok(en and en.get("rated") is False and
              en.get("unrated") == st.get("unrated"), "nor at its end")
        # text mode says it too
        room = req(old2, "create", game="ataxx")["room"]
        kid.raw("mode text\njoin %s\n" % room)
        text = ""
        deadline = time.time() + harness.WAIT
        while "Not rated" not in text and time.time() < deadline:
            text += kid.line() + "\n"
        ck.ok("Not rated: kid is new" in text,
              "text mode says so at the start: %r" % text[-300:])
        for c in (old1, old2, late, six1, six2, kid):
            c.close()


def stored_unrated(db, room):
    rows = store_rows(db, "SELECT unrated FROM rooms WHERE id = '%s'" % room)
    return rows[0][0] if rows else "(no row)"


def restart_game(ck, a, db, first, second, what):
    """ana and bob start a game on a server with flags first, which is
    killed; on a server with flags second they finish it. (started,
    ended) events and the stored decision."""
    s = run_server(a.build, db=db, extra=FAST + first, rating_rules=True)
    ana, bob = named(s.port, "ana"), named(s.port, "bob")
    room = req(ana, "create", game="ataxx")["room"]
    req(bob, "join", room=room)
    st = until(ana, started(room))
    kept = stored_unrated(db, room)
    shut(s, signal.SIGKILL)
    s = run_server(a.build, db=db, extra=FAST + second, rating_rules=True)
    ana = named(s.port, "ana", ana.token)
    bob = named(s.port, "bob", bob.token)
    for c in (ana, bob):
        r = req(c, "join", room=room)
        ck.ok(r and r.get("ok"), "%s: %s is back in %s: %r" %
              (what, c.name, room, r))
    two_moves_each(ana, bob, room)
    req(bob, "resign", room=room)
    en = until(ana, ended(room))
    ana.close()
    bob.close()
    shut(s)
    return st, en, kept


def test_restart(ck, a, tmp):
    """The decision is stored at the start and holds after kill -9,
    whatever the new server's flags say."""
    lifted = harness.RATING_RULES_OFF
    db = os.path.join(tmp, "unrated.db")
    st, en, kept = restart_game(ck, a, db, [], lifted, "unrated")
    ck.ok(st and st.get("rated") is False, "started: not rated: %r" % (st,))
    ck.eq(kept, (st or {}).get("unrated"),
          "the reason is stored with the room before the start is told")
    ck.ok(en and en.get("rated") is False and
          en.get("unrated") == (st or {}).get("unrated"),
          "after kill -9, and a server that would rate it, the end says "
          "what the start said: %r" % (en,))
    db = os.path.join(tmp, "rated.db")
    st, en, kept = restart_game(ck, a, db, lifted, [], "rated")
    ck.eq((st or {}).get("rated"), True, "started rated")
    ck.eq(kept, "", "stored: rated ('')")
    ck.ok(en and en.get("rated") is True and len(en.get("ratings", [])) == 2,
          "after kill -9, and a server that would not rate it, the game "
          "is rated as its start said: %r" % (en,))


def run(ck, a, tmp):
    run_parts(ck, [test_farm, test_rules], a)
    run_parts(ck, [test_restart], a, tmp)


if __name__ == "__main__":
    main_in_tmp("tablero-farm-", run)
