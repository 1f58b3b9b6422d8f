"""test_client_moderate.py: block and the operators' verbs in tablero
(issue 30, stopping a nuisance): help lists them, they complete as the
first word, block's reply and an announcement read in words, and a
player an operator kicks reads why and is not connected again until
they type something."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402
from test_client_complete import typed  # noqa: E402


def main():
    a = harness.args()
    chk = harness.Checks()
    with harness.Server(a.build, extra=["--admin", "root"]) as srv:
        with client_lib.clients(a.build, srv.port, "root", "bob",
                                "ana") as (tr, tb, ta):
            client_lib.logged_in(chk, (tr, tb, ta), "all logged in")
            chk.ok(tb.say("help", r"announce TEXT"), "help lists announce")
            screen = tb.screen()
            for usage in ("block NAME", "unblock NAME", "blocks",
                          "kick NAME", "mute NAME [MINUTES]",
                          "ban NAME|ADDRESS[/BITS]", "bans"):
                chk.ok(usage in screen, "help lists %s" % usage)
            typed(tb, "unbl\t", "unblock ", chk, "unblock completes")
            typed(tb, "annou\t", "announce ", chk, "announce completes")
            chk.ok(tb.say("block ana", r"^You block: ana\.$"),
                   "bob blocks ana: the list in words")
            chk.ok(tb.count(r"^You block ana: no tells") == 1,
                   "and what it does")
            chk.ok(ta.say("tell bob hi", r"^Bob blocks you: your tells"),
                   "ana's tell is refused, saying why")
            chk.ok(tr.say("announce back in five minutes",
                          r"^Announced to \d+ connections\.$"),
                   "root announces")
            chk.ok(tb.wait(r"^\*\*\* root \(operator\): back in five "
                           r"minutes$"), "bob reads the announcement")
            chk.ok(tr.say("kick ana", r"^Kicked ana\.$"), "root kicks ana")
            chk.ok(ta.wait(r"^An operator closed your connection\.$"),
                   "ana reads why")
            chk.ok(ta.wait(r"An operator of the server closed the "
                           r"connection; type any command"),
                   "and that typing connects again:\n" + ta.screen())
            chk.ok(not ta.wait(r"Connected again as ana", timeout=2),
                   "ana is not connected again by herself")
            ta.line("who")
            chk.ok(ta.wait(r"^Connected again as ana\.$"),
                   "a command connects her again:\n" + ta.screen())
    chk.done()


if __name__ == "__main__":
    main()
