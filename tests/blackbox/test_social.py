"""test_social.py: tell and invite (issue 21, item 6). tell NAME TEXT is a
private message: only its addressee gets it (told, with the sender's
name; each line of a text attributed), with chat's length limit; invite
NAME [ROOM] hands a private room's id to one player (invited: room,
game, who), who joins with it; nobody else hears of either. Both are
refused for a player who is not connected, and for oneself; to a name
nobody has they say so with bad_name (issue 31)."""

import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks, Server, args, is_error, is_ok, login  # noqa
from test_telnet import Telnet, FAST  # noqa: E402


def main():
    a = args()
    chk = Checks()
    with Server(a.build, extra=FAST) as srv:
        ana, bob, eve = (login(srv.port, n) for n in ("ana", "bob", "eve"))
        carl = Telnet(srv.port)
        try:
            carl.type("hello carl")
            carl.until(r"^Hello, carl\.")
            is_ok(chk, ana.call("tell", name="bob", text="psst\nsecond"),
                  "ana tells bob")
            ev = bob.event("told") or {}
            chk.eq((ev.get("from"), ev.get("text")), ("ana", "psst\nsecond"),
                   "bob gets it, from ana")
            chk.ok("room" not in ev, "a told event is no room's")
            chk.eq(eve.event("told", timeout=0.5), None, "eve hears nothing")
            carl.type("tell ana hi there, ana")
            chk.ok(carl.until(r"^Sent\.$"), "tell in shorthand")
            ev = ana.event("told") or {}
            chk.eq((ev.get("from"), ev.get("text")),
                   ("carl", "hi there, ana"), "the rest of the line is text")
            ana.send("tell", name="carl", text="two\nlines")
            chk.ok(carl.until(r"^\[ana to you\] lines$"),
                   "text mode attributes every line")
            is_error(chk, ana.call("tell", name="nobody", text="x"),
                     "bad_name", "tell to a name nobody has says so",
                     ["nobody is registered as nobody"])
            dan = login(srv.port, "dan")
            dan.close()
            time.sleep(0.3)
            is_error(chk, ana.call("tell", name="dan", text="x"),
                     "not_allowed", "tell to a registered name away",
                     ["dan is not connected"])
            carl.type("tell zed hello?")
            chk.ok(carl.until(r"^error \(bad_name\): nobody is registered "
                              r"as zed$"),
                   "telnet: tell zed says nobody is zed")
            is_error(chk, ana.call("tell", name="ana", text="x"),
                     "not_allowed", "tell to oneself")
            is_error(chk, ana.call("tell", name="bob", text="x" * 5000),
                     "bad_request", "tell has chat's limit")
            room = ana.call("create", game="amazons",
                            private=True)["state"]["room"]
            is_ok(chk, ana.call("invite", name="bob", room=room),
                  "ana invites bob")
            is_error(chk, ana.call("invite", name="zed", room=room),
                     "bad_name", "invite to a name nobody has")
            ev = bob.event("invited") or {}
            chk.eq((ev.get("from"), ev.get("room"), ev.get("game"),
                    ev.get("private")), ("ana", room, "amazons", True),
                   "bob sees the room, its game and who invites")
            chk.eq(eve.event("invited", timeout=0.5), None,
                   "eve never sees the private id")
            ana.send("invite", name="carl")
            chk.ok(carl.until(r"^ana invites you to room %s \(amazons\): "
                              r"type join %s to accept\.$" % (room, room)),
                   "invite without a room: the current one, in words")
            is_ok(chk, bob.call("join", room=room), "bob joins with it")
            is_error(chk, eve.call("invite", name="bob", room=room),
                     "not_in_room", "only someone in the room invites")
            carl.type("invite nobody")
            chk.ok(carl.until(r"^error"), "invite needs a room and a player")
            for c in (ana, bob, eve):
                for m in c.drain():
                    chk.ok(m.get("event") != "told" or c is not eve,
                           "eve got no private message: %s" % json.dumps(m))
        finally:
            for c in (ana, bob, eve, carl):
                c.close()
    chk.done()


if __name__ == "__main__":
    main()
