"""test_client_reconnect.py: tablerod is killed (-9) and started again in
the middle of a game between two tablero clients in tmux: both say the
connection is lost, reconnect by themselves (logging in with their kept
tokens), are put back in the game, and the game goes on. The token file is
the player's alone (mode 0600)."""

import os
import signal
import stat
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402

# the examples are legal moves of the player's own (issue 21, item 7)
PROMPT_W = r"White player \(x\), a square to clone to \([a-i]\d\) or a " \
    r"jump \([a-i]\d[a-i]\d\): "
PROMPT_B = r"Black player \(o\), a square to clone to \([a-i]\d\) or a " \
    r"jump \([a-i]\d[a-i]\d\): "


def main():
    a = harness.args()
    chk = harness.Checks()
    db = os.path.join(tempfile.mkdtemp(prefix="tablero-rc-"), "t.db")
    srv = harness.Server(a.build, db=db).start()
    ta = client_lib.client(a.build, srv.port, "ana")
    tb = client_lib.client(a.build, srv.port, "bob")
    try:
        client_lib.logged_in(chk, (ta, tb))
        tok = os.path.join(ta.home, "config", "tablero",
                           "127.0.0.1_%d_ana.token" % srv.port)
        chk.ok(os.path.exists(tok), "the token is kept in the config folder")
        if os.path.exists(tok):
            chk.eq(stat.S_IMODE(os.stat(tok).st_mode), 0o600,
                   "the token file's mode")
        client_lib.seated(chk, ta, tb, "create ataxx size=5")
        chk.ok(ta.say("b4", r"^White player clones at b4\.$"), "ana moved")
        chk.ok(tb.wait(PROMPT_B), "bob's turn")
        srv.stop(signal.SIGKILL)
        chk.ok(ta.wait(r"^The connection to the server is lost"),
               "ana is told the connection is lost")
        chk.ok(tb.wait(r"^The connection to the server is lost"),
               "bob is told too")
        srv = harness.Server(a.build, db=db, port=srv.port).start()
        chk.ok(ta.wait(r"^Connected again as ana\.$", timeout=20),
               "ana reconnected")
        chk.ok(tb.wait(r"^Connected again as bob\.$", timeout=20),
               "bob reconnected")
        chk.ok(tb.prompt(PROMPT_B + "$"), "bob is asked for his move again")
        chk.ok(tb.say("b2", r"^Black player clones at b2\.$"), "bob moved")
        chk.ok(ta.wait(r"^Black player clones at b2\.$"), "ana sees it")
        chk.ok(ta.prompt(PROMPT_W + "$"), "the game goes on: ana's turn")
        chk.ok(ta.say("c4", r"^White player clones at c4\.$"), "ana moved")
        if os.environ.get("TABLERO_SHOW_SCREENS"):
            print(tb.screen())
    finally:
        ta.stop()
        tb.stop()
        srv.stop()
    chk.done()


if __name__ == "__main__":
    main()
