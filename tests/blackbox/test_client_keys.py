"""test_client_keys.py: what a person's keys do in tablero (issue 21,
items 3 and 9). Ctrl-C clears the half-typed line, as in a shell, and
never ends the client; quit, exit, Ctrl-D and leave in a running
two-player game ask first (quit says the seat is kept for the grace
time; leave says it resigns); n stays, y goes. A name the server refuses
(not a possible name, or someone else's) is asked again instead of
ending the client."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402

PROMPT = r"^tablero> $"
PICK = r"Choose one of your amazons"


def names(chk, build, port):
    """A name with a space, then someone else's, then a good one."""
    tb = client_lib.client(build, port, "bob")
    t = client_lib.Term("%s 127.0.0.1:%d" % (client_lib.tablero(build),
                                              port), name="noname")
    try:
        chk.ok(tb.wait(r"Welcome, bob\."), "bob is registered")
        chk.ok(t.prompt(r"Your name: $"), "the name is asked")
        t.line("ana maria")
        chk.ok(t.wait(r"Choose another name\."), "a bad name: told why")
        chk.ok(t.prompt(r"Your name: $"), "and asked again:\n" + t.screen())
        t.line("bob")
        chk.ok(t.wait(r"The name bob is registered", 1), "a taken name: "
               "told")
        chk.ok(t.prompt(r"Password for bob: $"), "its password asked "
               "(issue 31)")
        t.line("")  # none: another name
        chk.ok(t.wait(r"Choose another name\.", 2) and
               t.prompt(r"Your name: $"), "and asked again")
        chk.ok(t.say("ana", r"Welcome, ana\."), "a good name logs in")
        chk.eq(t.count(r"^\[exit"), 0, "the client never ended")
    finally:
        t.stop()
        tb.stop()


def keys(chk, build, port):
    """Ctrl-C, quit, leave and Ctrl-D in and out of a game."""
    with client_lib.clients(build, port, "carl", "dora") as (ta, tb):
        client_lib.logged_in(chk, (ta, tb))
        ta.keys("crea")
        # The line editor has the letters before Ctrl-C comes (under load
        # they could still be in the terminal's queue, and Ctrl-C then
        # finds an empty line).
        chk.ok(ta.prompt(r"^tablero> crea$"), "the line holds 'crea'")
        ta.tmux("send-keys", "-t", "main", "C-c")
        chk.ok(ta.prompt(PROMPT), "Ctrl-C clears the line:\n" + ta.screen())
        chk.eq(ta.count(r"Ctrl-C clears the line"), 0,
               "no lesson when a line was cleared")
        ta.tmux("send-keys", "-t", "main", "C-c")
        chk.ok(ta.wait(r"Ctrl-C clears the line; quit or Ctrl-D leaves", 1),
               "Ctrl-C on an empty line says how to leave")
        chk.ok(ta.prompt(PROMPT), "and the client is still there")
        chk.ok(ta.say("create amazons", r"Waiting for an opponent"),
               "the next line is whole (no 'crea' left before it)")
        chk.ok(tb.say("join r1", r"seat black"), "dora joined")
        chk.ok(ta.wait(PICK), "carl to move")
        chk.ok(ta.say("quit", r"If you quit, your seat is kept for the "
                      r"server's grace time"), "quit in a game asks")
        chk.ok(ta.prompt(r"Quit tablero anyway\? \(y/n\) $"), "the question")
        chk.ok(ta.say("n", r"^You stay in room r1\.$"), "n stays")
        chk.ok(ta.prompt(PICK), "back at the game's prompt")
        chk.ok(ta.say("leave", r"Leaving room r1 now resigns"),
               "leave in a game asks")
        chk.ok(ta.prompt(r"Leave room r1 and resign\? \(y/n\) $"),
               "the leave question")
        ta.tmux("send-keys", "-t", "main", "C-c")
        chk.ok(ta.wait(r"^You stay in room r1\.$", 2), "Ctrl-C says no")
        chk.eq(tb.count(r"resign"), 0, "dora saw nobody resign")
        ta.tmux("send-keys", "-t", "main", "C-d")
        chk.ok(ta.wait(r"If you quit, your seat is kept", 2),
               "Ctrl-D in a game asks too")
        chk.ok(ta.say("y", r"^\[exit 0\]$"), "y quits")
        chk.ok(tb.wait(r"carl.*(gone|left|disconnected|away)"),
               "dora hears carl went:\n" + tb.screen())
        tb.line("quit")
        chk.ok(tb.wait(r"If you quit"), "dora is asked too")


def main():
    a = harness.args()
    chk = harness.Checks()
    with harness.Server(a.build) as srv:
        names(chk, a.build, srv.port)
        keys(chk, a.build, srv.port)
    chk.done()


if __name__ == "__main__":
    main()
