#!/usr/bin/env python3
"""test_guests_watch.py: guests cannot take a room's watcher slots nor
flood its players with joined and left events (issue 30, finding 7:
guests took every watcher slot of a room, 64; 20 guests cycling watch
and leave sent a seated player 172 joined/left events a second).

Guests may take half of a room's watcher slots (SERVER_GUEST_WATCHERS_
SHARE): past that a guest's watch gets limit_reached, and a player with
a name still watches. A few watchers coming are each told (joined, with
their name and role watcher), as before; 20 guests cycling watch and
leave as fast as the server lets them cost a seated player at most the
room's burst of such events, one a second after it, and a `watchers`
event with the count every 3 s: the number of events the player gets is
checked against that bound (a count, not a time), the churn itself
against a floor (it happened), and the last `watchers` event says how
many watch once the guests are gone."""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import main_in_tmp, serving  # noqa: E402
from harness import Client, is_error, is_ok, login  # noqa: E402

# Watcher slots of a room (--max-watchers default) and the guests' share.
MAX_WATCHERS = 64
GUESTS_MAX = MAX_WATCHERS // 2
# Guests that try to watch in the cap's test: more than their share.
GUESTS = 40
# The churn: guests cycling watch and leave, for about CHURN_SEC seconds.
CHURN_GUESTS = 20
CHURN_SEC = 3.0
# Watch-and-leave cycles the churn must at least make for the test to
# mean anything (a loaded machine makes fewer, an idle one thousands).
CHURN_MIN = 60
# The room's events about watchers: a burst of 8 named, one a second
# after, a count every 3 s (room.c), and a margin of a few.
BURST, PER_SEC, EVERY = 8, 1, 3.0
MARGIN = 3


def room_of(port, tag):
    """Two players (tag a, tag b) seated in an Ataxx game: (a, b, room)."""
    ana, bob = login(port, tag + "a"), login(port, tag + "b")
    room = ana.call("create", game="ataxx")["room"]
    bob.call("join", room=room)
    ana.drain(0.2)
    return ana, bob, room


def check_cap(ck, port):
    """GUESTS guests try; GUESTS_MAX watch; a named watcher still can."""
    ana, bob, room = room_of(port, "cap")
    guests, got = [], []
    for _ in range(GUESTS):
        g = Client(port)
        guests.append(g)
        got.append(g.call("watch", room=room))
    ok = [r for r in got if r and r.get("ok")]
    ck.eq(len(ok), GUESTS_MAX, "guests take half the watcher slots")
    refused = [r for r in got if r and not r.get("ok")]
    ck.ok(refused != [], "the others are refused")
    if refused:
        is_error(ck, refused[0], "limit_reached", "a guest past its share",
                 ["guests", "hello"])
    carl = login(port, "carl")
    r = carl.call("watch", room=room)
    is_ok(ck, r, "a named player still watches")
    ck.eq((r or {}).get("state", {}).get("watchers"), GUESTS_MAX + 1,
          "the state counts every watcher")
    ana.drain(0.3)
    for c in guests + [carl, ana, bob]:
        c.close()


def check_few(ck, port):
    """A few watchers coming are each named, as before."""
    ana, bob, room = room_of(port, "few")
    for name in ("dora", "ed"):
        w = login(port, name)
        is_ok(ck, w.call("watch", room=room), "%s watches" % name)
        ev = ana.event("joined", 2.0)
        ck.ok(ev is not None and ev.get("name") == name and
              ev.get("role") == "watcher" and isinstance(ev.get("seq"), int),
              "ana hears %s came to watch: %r" % (name, ev))
        w.close()
    ana.close()
    bob.close()


def check_churn(ck, port):
    """CHURN_GUESTS guests cycle watch and leave: ana gets a bounded
    number of events about it, then the count."""
    ana, bob, room = room_of(port, "churn")
    guests = [Client(port) for _ in range(CHURN_GUESTS)]
    cycles = 0
    t0 = time.time()
    while time.time() - t0 < CHURN_SEC:
        for g in guests:
            g.send("watch", room=room)
        for g in guests:
            g.reply()
        for g in guests:
            g.send("leave", room=room)
        for g in guests:
            g.reply()
        cycles += CHURN_GUESTS
    secs = time.time() - t0
    # the last count comes within EVERY of the last change
    events = ana.drain(EVERY + 1.0)
    about = [e for e in events if e.get("event") in
             ("joined", "left", "watchers")]
    bound = BURST + PER_SEC * (secs + EVERY) + (secs + EVERY) / EVERY + 1
    print("churn: %d watch-and-leave cycles in %.1f s; ana got %d events "
          "about watchers (%.1f a second; bound %d)" %
          (cycles, secs, len(about), len(about) / secs, bound), flush=True)
    ck.ok(cycles >= CHURN_MIN, "the churn happened: %d cycles" % cycles)
    ck.ok(len(about) <= bound + MARGIN,
          "a seated player gets at most %d events about watchers, not one "
          "per watch and leave: %d" % (bound, len(about)))
    counts = [e for e in about if e.get("event") == "watchers"]
    ck.ok(counts != [], "the churn is told as a count")
    if counts:
        last = counts[-1]
        ck.eq((last.get("room"), last.get("watchers"), last.get("guests")),
              (room, 0, 0), "the last count: nobody watches now")
        ck.ok("seq" not in last, "a count is no event of the game (no seq)")
    for c in guests + [ana, bob]:
        c.close()


def run(ck, a, tmp):
    with serving(a.build) as s:
        check_cap(ck, s.port)
        check_few(ck, s.port)
        check_churn(ck, s.port)


if __name__ == "__main__":
    main_in_tmp("tablero-guests-", run)
