#!/usr/bin/env python3
"""test_reads_bounded.py: the reads a guest can make are bounded (issue
30, finding 6: `history NAME` from an anonymous guest sorted all of that
player's games on the event loop; eight guests pushed everyone's ping to
a 2.9 s median).

A player's `history` and `rooms ended` come a page at a time: 50 games,
newest first, `more` and `next` (a cursor) when older ones remain, and
`from=` that cursor goes on with the next page, nothing shown twice or
left out; a guest does not see the player's private games, the player
does; a cursor that is none is bad_request. Guests at one address share
a budget of such reads (--guest-reads a second, 2 by default, in bursts
of five times as many): past it `rate_limited` says when to try again,
and that connection is read again only then (a script asking in a loop
gets a few answers a second, not one per request), while a named
player's reads go on. That the reads walk an
index and sort nothing is tests/unit/test_reads.c's (EXPLAIN QUERY PLAN);
how fast they are is `make bench`'s (the history storm). Runs on SQLite
and, through tests/pg.sh, on PostgreSQL."""

import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import main_in_tmp, serving  # noqa: E402
from harness import Client, is_error, is_ok, login, store_exec  # noqa: E402

# Games made for ana: more than two pages of 50.
GAMES = 123
# Every PRIVATE-th of them is private.
PRIVATE = 10
# A page of finished games (ARCHIVE_LIST_MAX).
PAGE = 50
# The guests' budget by default (--guest-reads): reads a second, and the
# burst (LIMIT_READS_BURST times as many).
GUEST_READS = 2
GUEST_BURST = 5 * GUEST_READS
# A guest's flood of reads sent in one write, the seconds its answers
# are counted for, and the most it may get in them: a refusal a wait
# (500 ms at 2 a second) and the reads that refill meanwhile, with room.
FLOOD = 300
FLOOD_SECS = 1.0
FLOOD_ANSWERED = 12


def seed_games(db):
    """GAMES finished games of ana (seat 0 or 1 by turns) against bob,
    every PRIVATE-th private, and as many public stones games of two
    others, written into the store as the server writes them."""
    rows = []
    start = "x5o/7/7/7/7/7/o5x x 0 1"
    for i in range(GAMES):
        names = ("ana", "bob") if i % 2 == 0 else ("bob", "ana")
        seats = ('[{"seat":"white","name":"%s","bot":null},'
                 '{"seat":"black","name":"%s","bot":null}]' % names)
        rows.append("('r%d', 1, 'ataxx', '{\"size\":\"7\"}', '%s', '%s',"
                    " '%s', '{\"result\":\"draw\",\"reason\":\"x\"}', %d,"
                    " 0, 0, %d, %d, 1, '[]', '%s', '%s')"
                    % (1000 + i, seats, names[0], names[1],
                       1 if i % PRIVATE == 0 else 0, 1000 + i,
                       # ends repeat in pairs: the id breaks the tie
                       2000000 + i // 2, start, start))
        rows.append("('r%d', 1, 'stones', '{}', '[]', 'carl', 'dora',"
                    " '{\"result\":\"draw\",\"reason\":\"x\"}', 0, 0, 0,"
                    " %d, %d, 1, '[]', '', '')"
                    % (5000 + i, 1000 + i, 1000000 + i))
    store_exec(db, "INSERT INTO games (room, game_no, game, options, seats,"
               " name0, name1, result, private, clock_initial_ms,"
               " clock_increment_ms, started_ms, ended_ms, nmoves, moves,"
               " start, position) VALUES " + ", ".join(rows))


def pages(ck, c, what, cmd, key, **fields):
    """Every page of a list read with cmd (history or rooms); the rooms
    in order, or None when a reply failed."""
    seen, n = [], 0
    while True:
        r = c.call(cmd, **fields)
        if not is_ok(ck, r, "%s, page %d" % (what, n + 1)):
            return None
        page = [g["room"] for g in r.get(key, [])]
        seen += page
        n += 1
        if not r.get("more"):
            ck.eq(r.get("next"), None, "%s: the last page has no next" % what)
            return seen
        ck.eq(len(page), PAGE, "%s: a page before the last is full" % what)
        ck.ok(isinstance(r.get("next"), str),
              "%s: next is a cursor: %r" % (what, r.get("next")))
        if n > GAMES or not isinstance(r.get("next"), str):
            return seen
        fields["from"] = r["next"]


def check_paging(ck, port):
    """history and rooms ended, page by page, for a guest and for ana."""
    ana_public = ["r%d" % (1000 + i) for i in reversed(range(GAMES))
                  if i % PRIVATE != 0]
    ana_all = ["r%d" % (1000 + i) for i in reversed(range(GAMES))]
    g = Client(port)
    seen = pages(ck, g, "a guest's history of ana", "history", "games",
                 name="ana")
    ck.eq(seen, ana_public, "a guest pages through ana's public games, "
          "newest first, each once")
    a = login(port, "ana")
    seen = pages(ck, a, "ana's own history", "history", "games")
    ck.eq(seen, ana_all, "ana pages through all of hers, private too")
    seen = pages(ck, a, "rooms ended stones", "rooms", "rooms",
                 status="ended", game="stones")
    ck.eq(seen, ["r%d" % (5000 + i) for i in reversed(range(GAMES))],
          "rooms ended stones: every public stones game, newest first")
    r = a.call("history", name="ana", **{"from": "r12"})
    is_error(ck, r, "bad_request", "a cursor that is none", ["from"])
    r = a.call("rooms", status="ended", **{"from": "12x"})
    is_error(ck, r, "bad_request", "rooms ended with a bad cursor")
    r = a.call("history", name="nobody")
    ck.ok(r and r.get("ok") and r.get("games") == [] and
          r.get("more") is False, "no games: one empty page: %r" % (r,))
    g.close()
    a.close()


def past_budget(port):
    """Guests at one address asking history until one is refused: the
    budget is spent now. Each asks once from a connection of its own (a
    refused guest is not read again until its budget refills, which would
    let its next read through)."""
    for _ in range(4 * GUEST_BURST):
        g = Client(port)
        r = g.call("history", name="ana")
        g.close()
        if r and r.get("error") == "rate_limited":
            return True
    return False


def check_budget(ck, port):
    """Guests at one address share GUEST_BURST reads and GUEST_READS a
    second, then are refused with when to try again; a named player is
    not."""
    g1, g2 = Client(port), Client(port)
    got = []
    t0 = time.monotonic()
    for i in range(GUEST_BURST + 3):
        c = g1 if i % 2 == 0 else g2
        r = c.call("history", name="ana")
        got.append(r.get("ok") if r else None)
    # the burst, and what refilled while the loop ran (a refused guest
    # waits for the refill before its next read: that read goes through)
    most = GUEST_BURST + int(GUEST_READS * (time.monotonic() - t0)) + 1
    ck.ok(got.count(True) <= most,
          "guests at one address read at most the burst and the refill "
          "(%d): %r" % (most, got))
    ck.ok(got.count(True) < len(got), "and some are refused: %r" % (got,))
    ck.ok(got[0] is True, "the first read goes through")
    is_ok(ck, g1.call("ping"), "the guest's ping still goes")
    is_ok(ck, g1.call("rooms"), "and rooms in memory")
    for what, cmd, fields in (
            ("rooms ended", "rooms", {"status": "ended"}),
            ("a finished room's state", "state", {"room": "r1000"})):
        if not ck.ok(past_budget(port), "the budget spent again"):
            break
        g = Client(port)
        is_error(ck, g.call(cmd, **fields), "rate_limited",
                 what + " past the guests' budget", ["try again in"])
        g.close()
    b = login(port, "bob")
    for i in range(GUEST_BURST + 3):
        r = b.call("history", name="ana")
        if not is_ok(ck, r, "a named player's read %d" % (i + 1)):
            break
    b.close()
    g1.close()
    g2.close()


def refused_wait(r):
    """The ms a rate_limited reply says to wait ("try again in N ms"),
    or None."""
    m = re.search(r"try again in (\d+) ms", (r or {}).get("message", ""))
    return int(m.group(1)) if m else None


def check_rest(ck, port):
    """A guest refused a read is not read again until the time it was
    told: its next request waits that long, and a script that asks in a
    loop gets a few answers a second, not one per request (the flood
    costs the server one refusal a wait)."""
    g = Client(port)
    wait = None
    for _ in range(4 * GUEST_BURST):
        r = g.call("history", name="ana")
        if r and not r.get("ok"):
            wait = refused_wait(r)
            break
    if not ck.ok(wait is not None and wait > 0,
                 "a guest past the budget is told how long to wait"):
        g.close()
        return
    t0 = time.monotonic()
    r = g.call("ping")
    took_ms = (time.monotonic() - t0) * 1000
    is_ok(ck, r, "the refused guest's next request is answered")
    ck.ok(took_ms >= wait * 0.8 - 20,
          "... but not before the wait it was told: %.0f ms of %d"
          % (took_ms, wait))
    g.close()
    f = Client(port)
    f.raw("".join('{"cmd":"history","name":"ana","id":%d}\n' % i
                  for i in range(FLOOD)))
    got, t0 = 0, time.monotonic()
    while time.monotonic() - t0 < FLOOD_SECS:
        try:
            if f.line(timeout=max(0.01, FLOOD_SECS
                                  - (time.monotonic() - t0))) is None:
                break
        except TimeoutError:
            break
        got += 1
    ck.ok(got <= FLOOD_ANSWERED,
          "a guest sending %d reads at once gets at most %d answers in "
          "%.0f s, not one each: %d" % (FLOOD, FLOOD_ANSWERED, FLOOD_SECS,
                                        got))
    ck.ok(got >= 1, "and is answered (a refusal, or a page)")
    f.close()


def run(ck, a, tmp):
    db = os.path.join(tmp, "t.db")
    with serving(a.build, db=db) as s:
        seed_games(db)
        check_paging(ck, s.port)
        check_budget(ck, s.port)
        check_rest(ck, s.port)


if __name__ == "__main__":
    main_in_tmp("tablero-reads-", run)
