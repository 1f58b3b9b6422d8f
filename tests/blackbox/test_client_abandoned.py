"""test_client_abandoned.py: bob leaves a running Ataxx game, his grace
runs out and ana claims it; when bob comes back in tablero (his kept
token), the client says he lost it by abandonment, in the server's
sentence from hello (issue 21, item 8)."""

import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402

GRACE = 1
# The claim is tried until the grace is over: at most this many times.
CLAIM_TRIES = 40


def main():
    a = harness.args()
    chk = harness.Checks()
    with harness.Server(a.build, extra=["--grace", str(GRACE)]) as srv:
        ana = harness.login(srv.port, "ana")
        bob = harness.login(srv.port, "bob")
        tb = None
        try:
            room = ana.call("create", game="ataxx")["state"]["room"]
            chk.ok(bob.call("join", room=room).get("ok"), "bob joined")
            chk.ok(ana.call("move", room=room, move="b6").get("ok"),
                   "ana moved")
            tok = bob.token
            bob.close()
            rep = {}
            for _ in range(CLAIM_TRIES):
                rep = ana.call("claim", room=room)
                if rep.get("ok"):
                    break
                time.sleep(0.25)
            chk.ok(rep.get("ok"), "ana claims the game: %r" % rep)
            conf = tempfile.mkdtemp(prefix="tablero-abandoned-")
            d = os.path.join(conf, "tablero")
            os.makedirs(d, mode=0o700)
            path = os.path.join(d, "127.0.0.1_%d_bob.token" % srv.port)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
            os.write(fd, (tok + "\n").encode())
            os.close(fd)
            tb = client_lib.client(a.build, srv.port, "bob",
                                   env={"XDG_CONFIG_HOME": conf})
            chk.ok(tb.wait(r"Welcome back, bob\."), "bob is back:\n"
                   + tb.screen())
            chk.ok(tb.wait(r"^While you were away, ana claimed %s "
                           r"\(Ataxx\): you lost it by abandonment\.$"
                           % room), "bob is told he lost it:\n"
                   + tb.screen())
        finally:
            ana.close()
            if tb is not None:
                tb.stop()
    chk.done()


if __name__ == "__main__":
    main()
