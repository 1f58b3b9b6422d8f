"""test_telnet_club.py: two things a telnet player typed that the server
did not know (issue 31). A bare "join" after an invitation joins the
invited room (the server remembers the last invitation a player heard;
a JSON client gets the same), and "mine" lists the games the player
sits in, saying where it is their move."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks, Server, args, is_ok, login  # noqa: E402
from test_telnet import Telnet, FAST  # noqa: E402


def test_join(chk, srv):
    ana = login(srv.port, "ana")
    bob = Telnet(srv.port)
    try:
        bob.type("hello bob")
        chk.ok(bob.until(r"^Hello, bob\."), "bob logged in")
        room = ana.call("create", game="ataxx", private=True)["state"]["room"]
        is_ok(chk, ana.call("invite", name="bob", room=room),
              "ana invites bob")
        chk.ok(bob.until(r"invites you to room %s" % room),
               "bob reads the invitation")
        bob.type("join")
        got = bob.until(r"^You are in room|^error")
        chk.ok(got and got[-1].startswith("You are in room %s" % room),
               "a bare join takes the invitation: %r" % (got[-3:],))
        chk.ok(ana.event("started") is not None, "the game starts for ana")
        bob.quiet()
        bob.type("join")
        got = bob.until(r"^You are in room|^error|^Room")
        chk.ok(got and "error" not in got[-1],
               "a second join resumes the current room: %r" % (got,))
    finally:
        ana.close()
        bob.close()


def test_mine(chk, srv):
    cat = Telnet(srv.port)
    dan = login(srv.port, "dan")
    try:
        cat.type("hello cat")
        chk.ok(cat.until(r"^Hello, cat\."), "cat logged in")
        cat.type("mine")
        got = cat.until(r"no seat|^error")
        chk.ok(got and got[-1] == "You hold no seat in a game that is on.",
               "mine with no game says so: %r" % (got,))
        cat.type("create ataxx seat=white")
        chk.ok(cat.until(r"^You are in room r\d+"), "cat made a room")
        room = [x for x in cat.seen if x.startswith("You are in room")][-1]
        room = room.split()[4].rstrip(",")
        is_ok(chk, dan.call("join", room=room), "dan joins")
        cat.quiet()
        cat.type("mine")
        got = cat.until(r"^  %s " % room)
        chk.ok(got and got[-1] == "  %s  ataxx, white against dan: your "
               "move (join %s)" % (room, room),
               "mine lists the game, its seat and the turn: %r" % (got,))
        rep = dan.call("mine")
        rooms = rep.get("rooms") or [{}]
        chk.eq((rooms[0].get("room"), rooms[0].get("seat"),
                rooms[0].get("opponent"), rooms[0].get("your_turn")),
               (room, "black", "cat", False), "mine in JSON")
    finally:
        cat.close()
        dan.close()


def main():
    a = args()
    chk = Checks()
    with Server(a.build, extra=FAST) as srv:
        test_join(chk, srv)
        test_mine(chk, srv)
    chk.done()


if __name__ == "__main__":
    main()
