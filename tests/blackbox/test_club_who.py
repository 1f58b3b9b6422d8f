"""test_club_who.py: who with ratings (issue 31). Each player listed
carries, for every game they have rated games in, their rating in the
pool of that game where they played the most (the options they play),
provisional or not: kept current as games end, read again at hello,
shown in text mode as "ana [ataxx 1662?]"."""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import ended, login, req, server, shut, until  # noqa: E402
from harness import RATING_RULES_OFF, Checks, args  # noqa: E402
from test_ratings import duo  # noqa: E402
from test_telnet import Telnet  # noqa: E402


def who_of(c, name):
    """name's entry in c's who, or {}."""
    for p in req(c, "who").get("players", []):
        if p.get("name") == name:
            return p
    return {}


def after_of(ev, name):
    """name's rating after the game in an ended event."""
    for r in ev.get("ratings", []):
        if r.get("name") == name:
            return r.get("after"), r.get("provisional")
    return None, None


def main():
    a = args()
    chk = Checks()
    srv = server(a.build, extra=RATING_RULES_OFF)
    try:
        ana, bob = login(srv.port, "ana"), login(srv.port, "bob")
        chk.eq(who_of(ana, "ana").get("ratings"), {},
               "no rated game: no ratings")
        duo(ana, bob)
        last = duo(ana, bob)
        chk.ok(last and last.get("rated"),
               "the games were rated: %r" % (last,))
        five = duo(ana, bob, options={"size": 5})
        want = after_of(last, "ana")
        got = who_of(bob, "ana").get("ratings", {}).get("ataxx", {})
        chk.eq((got.get("pool"), got.get("rating"), got.get("provisional"),
                got.get("games")),
               ("ataxx size=7", want[0], want[1], 2),
               "who: ana's ataxx is the pool she played most, as the "
               "last game left it")
        chk.ok(after_of(five, "ana")[0] != want[0],
               "the size=5 rating differs, so the pool chosen matters")
        bob.close()
        bob = login(srv.port, "bob", bob.token)
        want = after_of(last, "bob")
        got = who_of(ana, "bob").get("ratings", {}).get("ataxx", {})
        chk.eq((got.get("rating"), got.get("provisional")), want,
               "read again at hello")
        cat = Telnet(srv.port)
        try:
            cat.type("hello cat")
            cat.until(r"^Hello, cat\.")
            cat.type("who")
            got = cat.until(r"^Online:")
            line = got[-1] if got else ""
            chk.ok(re.search(r"\bana \[ataxx %d\??\]" %
                             after_of(last, "ana")[0], line),
                   "text mode: %r" % line)
            chk.ok(re.search(r"\bcat(,|\.)", line) and "cat [" not in line,
                   "a player without rated games has no brackets")
        finally:
            cat.close()
        ana.close()
        bob.close()
    finally:
        shut(srv)
    chk.done()


if __name__ == "__main__":
    main()
