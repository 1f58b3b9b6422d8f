"""test_client_password.py: passwords in the tablero client (issue 31,
accounts), in tmux.

ana sets a password with the client's `password` command: the current
one (none: Enter alone), the new one twice, each typed without echo. A
second machine (a client with a config folder of its own: no token)
started as ana is told the name is registered and asked for the
password without echo; a wrong one is refused and asked again, the right
one logs in and its token is kept, so the next start there logs in
without asking. Two different new passwords change nothing. No password
ever shows on a screen.
"""

import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402

PW = "correct horse 1"


def token_path(home, port, name):
    return os.path.join(home, "tablero", "127.0.0.1_%d_%s.token" % (port, name))


def set_password(chk, t):
    chk.ok(t.say("password", r"Setting the password of ana"),
           "password asks")
    chk.ok(t.prompt(r"Current password \(Enter alone if there is none\): $"),
           "for the current one first")
    t.line("")
    chk.ok(t.prompt(r"New password \(8 or more characters\): $"),
           "then the new one")
    t.line(PW)
    chk.ok(t.prompt(r"New password again: $"), "and again")
    t.line(PW)
    chk.ok(t.wait(r"^Password set"), "the server stored it")


def main():
    a = harness.args()
    chk = harness.Checks()
    tmp = tempfile.mkdtemp(prefix="tablero-pw-")
    one, two = os.path.join(tmp, "one"), os.path.join(tmp, "two")
    srv = harness.Server(a.build, db=os.path.join(tmp, "pw.db")).start()
    port = srv.port
    t = client_lib.client(a.build, port, "ana", env={"XDG_CONFIG_HOME": one})
    try:
        chk.ok(t.wait(r"Welcome, ana\."), "ana registered on machine one")
        set_password(chk, t)
        chk.eq(t.count(PW), 0, "machine one never shows the password")
        chk.ok(t.say("quit", r"\[exit 0\]"), "and quit")
    finally:
        t.stop()
    t = client_lib.client(a.build, port, "ana", env={"XDG_CONFIG_HOME": two})
    try:
        chk.ok(t.wait(r"^The name ana is registered, and this client has no "
                      r"token for it\.$"), "machine two: registered")
        chk.ok(t.prompt(r"^Password for ana: $"), "asked for the password")
        t.line("not the password")
        chk.ok(t.wait(r"[Ww]rong password for that name"), "a wrong one is refused")
        chk.ok(t.wait(r"^Password for ana: $", 2), "and asked again")
        t.line(PW)
        chk.ok(t.wait(r"Welcome back, ana\."), "the right one logs in")
        chk.eq(t.count(PW) + t.count("not the password"), 0,
               "machine two never shows what was typed")
        chk.ok(os.path.exists(token_path(two, port, "ana")),
               "machine two keeps the token it got")
        chk.ok(t.say("password", r"Setting the password"), "password again")
        chk.ok(t.prompt(r"Current password"), "the current one")
        t.line(PW)
        chk.ok(t.prompt(r"New password \(8"), "the new one")
        t.line("one new password")
        chk.ok(t.prompt(r"New password again: $"), "again")
        t.line("another new one")
        chk.ok(t.wait(r"The two new passwords differ: the password is "
                      r"unchanged\."), "two different ones change nothing")
        chk.ok(t.say("games", r"[Aa]taxx"), "the client goes on")
        chk.ok(t.say("quit", r"\[exit 0\]"), "and quit")
    finally:
        t.stop()
    t = client_lib.client(a.build, port, "ana", env={"XDG_CONFIG_HOME": two})
    try:
        chk.ok(t.wait(r"Welcome back, ana\."), "machine two's next start "
               "logs in with the kept token")
        chk.eq(t.count(r"Password for"), 0, "without asking")
    finally:
        t.stop()
        srv.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    chk.done()


if __name__ == "__main__":
    main()
