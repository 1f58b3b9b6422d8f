"""test_client_social.py: tell and invite in tablero (issue 21, item 6):
a private message shows with its sender; an invitation names the room,
its game and who invites, and a bare `join` accepts it."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402


def main():
    a = harness.args()
    chk = harness.Checks()
    with harness.Server(a.build) as srv:
        with client_lib.clients(a.build, srv.port, "ana", "bob") as (ta, tb):
            client_lib.logged_in(chk, (ta, tb))
            chk.ok(ta.say("tell bob fancy a game?", r"^Sent\.$"), "told")
            chk.ok(tb.wait(r"^\[ana to you\] fancy a game\?$"),
                   "bob reads it, from ana")
            chk.ok(ta.say("create amazons private=yes", r"Waiting for"),
                   "a private room")
            rid = ta.screen().split("You are in room ")[-1].split(" ")[0]
            chk.ok(ta.say("invite bob", r"^Invited\.$"), "invited")
            chk.ok(tb.wait(r"^ana invites you to room %s \(amazons\): type "
                           r"join %s to accept\.$" % (rid, rid)),
                   "bob reads the invitation:\n" + tb.screen())
            chk.ok(tb.say("join", r"You are in room %s \(Amazons\), seat "
                          r"black\." % rid), "a bare join accepts it")
    chk.done()


if __name__ == "__main__":
    main()
