#!/usr/bin/env python3
"""test_newcomer_room.py: the current room (issue 13). A prompt the server
prints works as typed: "draw accept" after "bob offers a draw" reaches the
room with the offer, even after leaving another room; someone seated in
rooms is never told "you are in no room"."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks, Client, Server, args, is_error, is_ok, login


def game(ca, cb):
    r = ca.call("create", game="ataxx")
    room = r["room"]
    cb.call("join", room=room)
    ca.event("started")
    cb.event("started")
    return room


def test_draw_after_leave(chk, port):
    ca, cb = login(port, "cr_a"), login(port, "cr_b")
    r1 = game(ca, cb)
    r2 = game(ca, cb)
    # ana opens a room and leaves it: her current room is gone
    r3 = ca.call("create", game="ataxx")["room"]
    is_ok(chk, ca.call("leave", room=r3), "leave the waiting room")
    # bob offers a draw in r1; ana answers as the prompt says
    is_ok(chk, cb.call("draw", room=r1, action="offer"), "offer in r1")
    ev = ca.event("draw_offered")
    chk.eq((ev or {}).get("room"), r1, "ana hears the offer")
    r = ca.call("draw", action="accept")
    is_ok(chk, r, "draw accept without a room")
    st = ca.call("state", room=r1)["state"]
    chk.eq(st["status"], "ended", "r1 ended by the accepted draw")
    chk.eq(ca.call("state", room=r2)["state"]["status"], "playing",
           "r2 goes on")
    # bob offers in r2 while ana's current room is r1 (just answered)
    is_ok(chk, ca.call("state", room=r1), "look at r1")
    is_ok(chk, cb.call("draw", room=r2, action="offer"), "offer in r2")
    ca.event("draw_offered")
    r = ca.call("draw", action="decline")
    is_ok(chk, r, "decline reaches r2")
    chk.eq(ca.call("state", room=r2)["state"]["status"], "playing",
           "r2 still playing")
    ca.close()
    cb.close()


def test_never_no_room(chk, port):
    """Seated in rooms with no current room: a verb without a room picks
    the one room, or asks which one; never 'you are in no room'."""
    ca, cb = login(port, "nr_a"), login(port, "nr_b")
    r1 = game(ca, cb)
    tok = ca.token
    ca.close()
    # back, then open and leave a waiting room: none is current
    c = Client(port)
    c.call("hello", name="nr_a", token=tok)
    r2 = c.call("create", game="ataxx")["room"]
    c.call("leave", room=r2)
    r = c.call("state")
    is_ok(chk, r, "state without a room after leave: %r" % (r,))
    chk.eq((r.get("state") or {}).get("room"), r1, "the one seated room")
    # two seated rooms, and none current: asked which
    r3 = game(c, cb)
    r4 = c.call("create", game="ataxx")["room"]
    c.call("leave", room=r4)
    c2 = Client(port)
    c.close()
    c2.call("hello", name="nr_a", token=tok)
    c2.call("create", game="ataxx")
    r = c2.call("leave")
    is_ok(chk, r, "leave the current waiting room")
    r = c2.call("moves")
    msg = (r or {}).get("message", "")
    chk.ok("no room" not in msg, "never 'you are in no room': %r" % (r,))
    chk.ok(r.get("ok") or r3 in str(r) or "which room" in msg,
           "a useful answer: %r" % (r,))
    c2.close()
    cb.close()


def test_not_seated(chk, port):
    c = login(port, "ns_a")
    is_error(chk, c.call("state"), "bad_request", "no room at all",
             ["room"])
    c.close()


def main():
    a = args()
    chk = Checks()
    with Server(a.build) as s:
        test_draw_after_leave(chk, s.port)
        test_never_no_room(chk, s.port)
        test_not_seated(chk, s.port)
    chk.done()


if __name__ == "__main__":
    main()
