"""test_client_token.py: a tablero client whose kept token the server no
longer knows (the server's data file was reset, or the identity never
played and was pruned) logs in again under its name with a new token,
and says why; a kept token that is wrong for a name still registered is
still refused: its password is asked, and without one another name
(issue 21, item 9; issue 31)."""

import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402


def token_path(home, port, name):
    return os.path.join(home, "tablero", "127.0.0.1_%d_%s.token" % (port, name))


def main():
    a = harness.args()
    chk = harness.Checks()
    tmp = tempfile.mkdtemp(prefix="tablero-tok-")
    cfg = os.path.join(tmp, "config")
    env = {"XDG_CONFIG_HOME": cfg}
    srv = harness.Server(a.build, db=os.path.join(tmp, "one.db")).start()
    port = srv.port
    t = client_lib.client(a.build, port, "ana", env=env)
    try:
        chk.ok(t.wait(r"Welcome, ana\."), "ana registered")
        chk.ok(t.say("quit", r"\[exit 0\]"), "and quit")
        with open(token_path(cfg, port, "ana")) as f:
            first = f.read().strip()
        chk.ok(len(first) > 0, "her token is kept")
    finally:
        t.stop()
        srv.stop()
    # the same address, a new data file: the server knows no ana
    srv = harness.Server(a.build, db=os.path.join(tmp, "two.db"),
                         port=port).start()
    t = client_lib.client(a.build, port, "ana", env=env)
    try:
        chk.ok(t.wait(r"^This server no longer knew the name ana .*: it is "
                      r"yours again, with a new token\.$"), "said why")
        chk.ok(t.wait(r"Welcome, ana\."), "logged in again")
        with open(token_path(cfg, port, "ana")) as f:
            second = f.read().strip()
        chk.ok(second != first and len(second) > 0, "a new token is kept")
        chk.ok(t.say("games", r"[Aa]taxx"), "and the client works")
    finally:
        t.stop()
    # a wrong kept token for a name that is registered: refused
    with open(token_path(cfg, port, "ana"), "w") as f:
        f.write("0" * len(second) + "\n")
    t = client_lib.client(a.build, port, "ana", env=env)
    try:
        chk.ok(t.wait(r"The name ana is registered, and this client has "
                      r"no token for it"), "a wrong token is still "
               "refused, with advice")
        chk.ok(t.prompt(r"Password for ana: $"), "its password is asked "
               "(issue 31)")
        t.line("")
        chk.ok(t.wait(r"^Choose another name\.$") and
               t.prompt(r"Your name: $"), "Enter alone: another name is "
               "asked")
        chk.eq(t.count(r"it is yours again"), 0, "nothing taken over")
    finally:
        t.stop()
        srv.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    chk.done()


if __name__ == "__main__":
    main()
