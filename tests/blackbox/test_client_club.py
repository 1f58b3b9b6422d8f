"""test_client_club.py: the club's new events in tablero (issue 31): a
message shows with its sender and date, a challenge in words, and a
bare accept takes the player to the new game's board; mine and who
work as typed."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402


def main():
    a = harness.args()
    chk = harness.Checks()
    with harness.Server(a.build) as srv:
        ana = harness.login(srv.port, "ana")
        with client_lib.clients(a.build, srv.port, "bob") as (tb,):
            client_lib.logged_in(chk, (tb,))
            r = ana.call("message", name="bob", text="see you at eight")
            chk.eq(r.get("kept"), False, "bob is here")
            chk.ok(tb.wait(r"^\[message from ana, \d{4}-\d\d-\d\d \d\d:\d\d "
                           r"UTC\] see you at eight$"),
                   "bob reads the message, from ana, dated:\n" + tb.screen())
            r = ana.call("match", name="bob", game="stones")
            chk.ok(r.get("ok"), "ana challenges bob: %r" % (r,))
            chk.ok(tb.wait(r"^ana challenges you to stones \(.*\): type "
                           r"accept ana or decline ana \(within 60 s\)\.$"),
                   "bob reads the challenge:\n" + tb.screen())
            chk.ok(tb.say("accept", r"Paired with ana for stones"),
                   "a bare accept pairs them:\n" + tb.screen())
            chk.ok(tb.wait(r"^\[r\d+\] The game starts: .*bob"),
                   "bob is at the new board:\n" + tb.screen())
            chk.ok(tb.say("who", r"^Online: "), "who:\n" + tb.screen())
        ana.close()
    chk.done()


if __name__ == "__main__":
    main()
