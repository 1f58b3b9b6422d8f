"""test_client_seeks.py: seeks in tablero (issue 22, in tmux): seek and
seeks in words, tab completion of the verbs and of a seek's id after
unseek, and a pairing that takes both players to the new game's board
(one seeking from tablero, one from another tablero)."""

import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402
from test_client_complete import typed  # noqa: E402


def main():
    a = harness.args()
    chk = harness.Checks()
    with harness.Server(a.build) as srv:
        env = {"XDG_CONFIG_HOME": tempfile.mkdtemp()}
        with client_lib.clients(a.build, srv.port, "ana", "bob",
                                env=env) as (ta, tb):
            client_lib.logged_in(chk, (ta, tb))
            typed(ta, "unse\t", "unseek ", chk, "unseek completes")
            chk.ok(ta.say("seek stones casual", r"unseek s1 withdraws it"),
                   "ana's first seek:\n" + ta.screen())
            chk.ok(ta.say("seek ataxx size=5 time=300 casual",
                          r"unseek s2 withdraws it"), "ana's second seek")
            chk.ok(ta.wait(r"Seeking: s2 ana \(1500\) ataxx size=5 time=300 "
                           r"casual"), "the seek in words")
            typed(ta, "unseek s\t", "unseek s", chk,
                  "two seek ids: no single completion")
            typed(ta, "unseek s1\t", "unseek s1 ", chk,
                  "a seek id after unseek")
            chk.ok(ta.say("unseek s1", r"^Withdrawn: s1\.$"),
                   "unseek one")
            chk.ok(tb.say("seeks", r"s2 ana \(1500\) ataxx size=5"),
                   "bob sees ana's seek:\n" + tb.screen())
            chk.ok(tb.say("seek ataxx size=5 time=300 casual",
                          r"met another at once"),
                   "bob's seek meets ana's:\n" + tb.screen())
            for t, who, other in ((ta, "ana", "bob"), (tb, "bob", "ana")):
                chk.ok(t.wait(r"Paired with %s for ataxx: you play \w+ in "
                              r"room r\d+\." % other),
                       "%s is told of the pairing:\n%s" % (who, t.screen()))
                chk.ok(t.wait(r"^x white 2, o black 2") and
                       t.wait(r"\[r\d+\] >|(White|Black) player \("),
                       "%s is taken to the room, its board drawn:\n%s"
                       % (who, t.screen()))
            chk.ok(ta.say("seeks", r"No open seeks"),
                   "the pairing emptied the pool")
    chk.done()


if __name__ == "__main__":
    main()
