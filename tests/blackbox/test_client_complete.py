"""test_client_complete.py: tab completion in tablero (libedit, in tmux):
the first word of a line completes to verbs and the client's own commands
only; the words after it to game names and room ids only (and, right after
`tourney`, to its subcommands; tournament ids are remembered as room ids
are). finger and ratings complete and show their text in the client."""

import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402


def typed(t, keys, want, chk, what):
    """Type keys (a Tab as \\t) and an X (so the Tab's work is on screen
    once the X is), then check the line being typed; clear it."""
    for part in keys.split("\t")[:-1]:
        t.keys(part)
        t.tmux("send-keys", "-t", "main", "Tab")
    t.keys(keys.split("\t")[-1] + "X")
    ok = t.prompt(r"> " + re.escape(want) + "X *$")
    last = t.screen().rstrip("\n").split("\n")[-1]
    chk.ok(ok, "%s: %r" % (what, last))
    t.tmux("send-keys", "-t", "main", "C-u")
    t.prompt(r"> $")


def main():
    a = harness.args()
    chk = harness.Checks()
    with harness.Server(a.build) as srv:
        b = client_lib.Batch(a.build, srv.port, "ana",
                             env={"XDG_CONFIG_HOME": tempfile.mkdtemp()})
        room = (b.send("create stones") or {}).get("room", "?")
        t = client_lib.client(a.build, srv.port, "cat")
        try:
            chk.ok(t.wait(r"Welcome, cat\."), "cat logged in")
            chk.ok(t.say("rooms", room), "the rooms are listed")
            typed(t, "wat\t", "watch ", chk, "a verb as the first word")
            typed(t, "watch r\t", "watch %s " % room, chk,
                  "a room id after the verb")
            typed(t, "create ata\t", "create ataxx ", chk,
                  "a game name after the verb")
            typed(t, "join wa\t", "join wa", chk,
                  "no verb after the first word")
            typed(t, "ata\t", "ata", chk, "no game name as the first word")
            typed(t, "  sta\t", "  state ", chk,
                  "a verb after leading blanks")
            # issue 22: finger and ratings complete, and show their tables
            typed(t, "fin\t", "finger ", chk, "finger completes")
            typed(t, "ratings ata\t", "ratings ataxx ", chk,
                  "a game name after ratings")
            chk.ok(t.say("ratings ataxx size=5", r"Ratings of ataxx size=5"),
                   "the client shows a ratings table")
            chk.ok(t.say("finger ana", r"Member since"),
                   "the client shows a profile")
            typed(t, "tourney cr\t", "tourney create ", chk,
                  "a tourney subcommand after tourney")
            typed(t, "tourney create sto\t", "tourney create stones ", chk,
                  "a game name after tourney create")
            typed(t, "join cr\t", "join cr", chk,
                  "no tourney subcommand after another verb")
            chk.ok(t.say("tourney create stones", "t1"),
                   "tourney create answers with its id")
            typed(t, "tourney join t\t", "tourney join t1 ", chk,
                  "a tournament's id after tourney join")
        finally:
            t.stop()
            b.close()
    chk.done()


if __name__ == "__main__":
    main()
