"""test_club_history.py: history with dates and rating changes (issue
31). Each kept game's result holds its ratings (before, after, change),
stored with the game; text mode (telnet, and tablero, which renders
replies the same way) prints each game with the date it ended and what
it did to the player's rating, or "not rated", also after a restart."""

import os
import re
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import login, req, server, shut  # noqa: E402
from harness import RATING_RULES_OFF, Checks, args  # noqa: E402
from test_ratings import duo  # noqa: E402
from test_telnet import Telnet  # noqa: E402

DATE = r"\d{4}-\d\d-\d\d \d\d:\d\d UTC"


def history_lines(port, name):
    """The lines of `history NAME` over telnet."""
    t = Telnet(port)
    try:
        t.type("hello reader")
        t.until(r"^Hello, reader\.|^error")
        t.type("history " + name)
        got = t.until(r"^Finished games of|^error")
        return got[-1:] + t.quiet(0.3)
    finally:
        t.close()


def check(chk, lines, rated, tag):
    """The two games of ana: the newest casual, the older rated."""
    games = [x for x in lines if x.startswith("  ")]
    chk.eq(len(games), 2, "%s: two games listed: %r" % (tag, lines))
    if len(games) != 2:
        return
    chk.ok(re.match(r"^  %s  r\d+ #1 ataxx ended - .*, not rated$" % DATE,
                    games[0]), "%s: a casual game: %r" % (tag, games[0]))
    want = r"^  %s  r\d+ #1 ataxx ended - .*, rated: %d -> %d%s \(%+d\)$" % (
        DATE, rated["before"], rated["after"],
        r"\?" if rated["provisional"] else "", rated["change"])
    chk.ok(re.match(want, games[1]),
           "%s: the rated game, dated, with ana's change: %r" % (tag,
                                                                 games[1]))


def main():
    a = args()
    chk = Checks()
    with tempfile.TemporaryDirectory() as d:
        db = os.path.join(d, "t.db")
        srv = server(a.build, db=db, extra=RATING_RULES_OFF)
        try:
            ana, bob = login(srv.port, "ana"), login(srv.port, "bob")
            ev = duo(ana, bob)
            rated = [r for r in ev.get("ratings", [])
                     if r.get("name") == "ana"]
            chk.eq(len(rated), 1, "the game was rated for ana")
            time.sleep(0.01)
            duo(ana, bob, options={"rated": "no"})
            rep = req(ana, "history")
            first = (rep.get("games") or [{}])[-1]
            chk.eq([r.get("change") for r in
                    first.get("result", {}).get("ratings", [])
                    if r.get("name") == "ana"],
                   [rated[0]["change"]] if rated else [None],
                   "JSON: the kept result holds the change")
            chk.ok(isinstance(first.get("ended_ms"), int),
                   "JSON: the date it ended")
            if rated:
                check(chk, history_lines(srv.port, "ana"), rated[0],
                      "telnet")
            ana.close()
            bob.close()
        finally:
            shut(srv)
        srv = server(a.build, db=db, extra=RATING_RULES_OFF)
        try:
            if rated:
                check(chk, history_lines(srv.port, "ana"), rated[0],
                      "after a restart")
        finally:
            shut(srv)
    chk.done()


if __name__ == "__main__":
    main()
