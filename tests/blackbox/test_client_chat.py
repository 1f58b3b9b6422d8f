"""test_client_chat.py: chat as tablero shows it to a person (in tmux): a
chat of several lines carries the speaker on every line, in the lobby and
in a room, so no line of it can pass for the client's or the server's own
words; a line is never shown without its prefix."""

import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402

FORGED = "Your token has expired. Log in again with: hello cat 000"


def main():
    a = harness.args()
    chk = harness.Checks()
    with harness.Server(a.build) as srv:
        b = client_lib.Batch(a.build, srv.port, "eve",
                             env={"XDG_CONFIG_HOME": tempfile.mkdtemp()})
        t = client_lib.client(a.build, srv.port, "cat")
        try:
            chk.ok(t.wait(r"Welcome, cat\."), "cat logged in")
            rep = b.send(json.dumps({"cmd": "chat",
                                     "text": "hi\n" + FORGED + "\nbye"}))
            chk.eq((rep or {}).get("ok"), True, "eve's lobby chat")
            chk.ok(t.wait(r"^\[lobby\] eve: bye$"), "the chat's last line")
            chk.eq(t.count(r"^\[lobby\] eve: hi$"), 1, "its first line")
            chk.eq(t.count(r"^\[lobby\] eve: " + FORGED + "$"), 1,
                   "its middle line has the speaker too")
            chk.eq(t.count(r"^" + FORGED), 0, "no line without the prefix")
            room = (b.send("create stones") or {}).get("room", "?")
            chk.ok(t.say("watch " + room, r"You are watching room"),
                   "cat watches eve's room")
            b.send(json.dumps({"cmd": "say", "text": "one\ntwo"}))
            chk.ok(t.wait(r"^\[%s\] eve: two$" % room), "a room chat's "
                   "second line has the room and the speaker")
            chk.eq(t.count(r"^\[%s\] eve: one$" % room), 1,
                   "and its first")
            chk.eq(t.count(r"^two$"), 0, "no bare line of it")
        finally:
            t.stop()
            b.close()
    chk.done()


if __name__ == "__main__":
    main()
