"""test_client_takeback.py: a take-back in tablero (issue 21): ana plays
in Ataxx and asks to take her move back; bob reads the request in words
and accepts; both read that it was taken back, the board shows the
start again, and ana is asked for her move again."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402

PROMPT_W = r"White player \(x\), a square to clone to \([a-e]\d\) or a " \
    r"jump \([a-e]\d[a-e]\d\): "


def main():
    a = harness.args()
    chk = harness.Checks()
    with harness.Server(a.build) as srv:
        with client_lib.clients(a.build, srv.port, "ana", "bob") as (ta, tb):
            client_lib.logged_in(chk, (ta, tb))
            client_lib.seated(chk, ta, tb, "create ataxx size=5")
            chk.ok(ta.say("b4", r"^White player clones at b4\.$"),
                   "ana moved")
            ta.line("takeback offer")
            chk.ok(tb.wait(r"ana \(white\) asks to take back their last "
                           r"move: takeback accept or takeback decline\."),
                   "bob reads the request:\n" + tb.screen())
            tb.line("takeback accept")
            chk.ok(tb.wait(r"ana \(white\) takes back 1 move\."),
                   "bob reads it was taken back:\n" + tb.screen())
            chk.ok(ta.wait(r"ana \(white\) takes back 1 move\."),
                   "ana reads it too:\n" + ta.screen())
            chk.ok(ta.wait(PROMPT_W, n=2), "ana is asked again:\n"
                   + ta.screen())
            chk.ok(ta.say("a4", r"^White player clones at a4\.$"),
                   "ana plays another move")
    chk.done()


if __name__ == "__main__":
    main()
