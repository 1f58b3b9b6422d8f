"""test_client_rated.py: the terminal client says how a game was rated
when it ends (issue 31). Each game's own sentence for the outcome ("Game
over (resignation): Black player wins!") replaced the server's text, and
with it the line telnet shows after it: "Rated (ataxx size=5): ana 1500
-> 1440?, bob 1500 -> 1560?." Two clients in tmux play a rated Ataxx game
(two moves each, then ana resigns): both read the rating line, as the
server's result (asked by a third connection) has it. Then ana resigns a
game against a bot at once: "Not rated: why." with the server's reason."""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402

PROMPT = r"(White|Black) player \([xo]\), a square to clone to "
END = r"^Game over \(resignation\): "


def result(port, room):
    """The server's result of room's game, as another player reads it."""
    c = harness.login(port, "judge")
    try:
        return (c.call("state", room=room).get("state") or {}).get(
            "result") or {}
    finally:
        c.close()


def rated_line(res):
    """The line text mode ends this result with (docs/PROTOCOL.md,
    Result), as a regular expression matching a whole line."""
    if res.get("rated") is False:
        return r"^%s$" % re.escape("Not rated: %s." % res.get("unrated"))
    sides = ["%s %d -> %d%s" % (s["name"], s["before"], s["after"],
                                "?" if s.get("provisional") else "")
             for s in res.get("ratings") or []]
    return r"^%s$" % re.escape("Rated (%s): %s." % (res.get("pool"),
                                                    ", ".join(sides)))


def main():
    a = harness.args()
    chk = harness.Checks()
    with harness.Server(a.build) as srv:
        with client_lib.clients(a.build, srv.port, "ana", "bob") as (ta, tb):
            client_lib.logged_in(chk, [ta, tb])
            client_lib.seated(chk, ta, tb, "create ataxx size=5")
            chk.ok(ta.prompt(PROMPT), "ana to move")
            # two moves a side: fewer is an aborted game, not rated
            for t, move in ((ta, "b5"), (tb, "b1"), (ta, "b4"), (tb, "d5")):
                n = ta.count(r"^(White|Black) player clones at ")
                t.line(move)
                chk.ok(ta.wait(r"^(White|Black) player clones at ", n + 1),
                       "%s played %s" % (t.name, move))
            chk.ok(ta.prompt(PROMPT), "ana to move again")
            chk.ok(ta.say("resign", END), "ana resigns")
            chk.ok(tb.wait(END), "bob reads the end")
            res = result(srv.port, "r1")
            chk.ok(res.get("rated") is True and len(res.get("ratings")
                                                    or []) == 2,
                   "the server rated the game: %r" % (res,))
            line = rated_line(res)
            chk.ok(ta.wait(line), "ana reads %s:\n%s" % (line, ta.screen()))
            chk.ok(tb.wait(line), "bob reads %s:\n%s" % (line, tb.screen()))
            chk.ok(re.search(r"^Rated \(ataxx size=5\): ana 1500 -> \d+\?, "
                             r"bob 1500 -> \d+\?\.$", ta.screen(), re.M),
                   "both names and ratings, provisional")
            chk.ok(re.search(END + r".*\n.*\n" + line[1:], ta.screen(),
                             re.M), "after the game's own sentence and the "
                   "counts")
            chk.eq(ta.count(r"^Rated "), 1, "said once")
            chk.ok(ta.say("n", r"^Type leave to go back"), "no rematch")
            chk.ok(ta.say("leave", r"^You left"), "ana leaves r1")
            # a game given up at once is aborted: not rated, and why
            chk.ok(ta.say("create ataxx size=5 bot=1", PROMPT),
                   "a game against a bot")
            chk.ok(ta.say("resign", END), "ana resigns at once")
            res = result(srv.port, "r2")
            chk.ok(res.get("rated") is False and res.get("unrated"),
                   "the server did not rate it: %r" % (res,))
            line = rated_line(res)
            chk.ok(ta.wait(line), "ana reads %s:\n%s" % (line, ta.screen()))
    chk.done()


if __name__ == "__main__":
    main()
