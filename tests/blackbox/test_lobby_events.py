"""test_lobby_events.py: the rooms_changed event (issue 31: the web
lobby pushed, not polled). A connection whose hello said "lobby": true
hears rooms_changed (no room, no seq) when a public room is made, taken,
started, ended or closed, and when a seated player goes or comes back;
never for a move, a chat line or a private room; several changes within
a second come as one event; a connection that did not ask hears none.
"""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks, Client, Server, args, is_ok  # noqa: E402


def changed(c, quiet=1.5):
    """How many rooms_changed c heard until quiet (at least 1.5 s: the
    events come at most once a second)."""
    n = 0
    for m in c.drain(quiet):
        if m.get("event") == "rooms_changed":
            if "room" in m or "seq" in m:
                return -1
            n += 1
    return n


def hello(port, name, **extra):
    c = Client(port)
    r = c.call("hello", name=name, **extra)
    return c, r


def main():
    a = args()
    chk = Checks()
    with Server(a.build) as srv:
        lob, r = hello(srv.port, "lob", lobby=True)
        is_ok(chk, r, "hello with lobby true")
        deaf, _ = hello(srv.port, "deaf")
        ana, _ = hello(srv.port, "ana")
        bob, _ = hello(srv.port, "bob")
        changed(lob, 0.3)
        # a room made: one event, with neither room nor seq
        r = ana.call("create", game="ataxx")
        room = (r or {}).get("room")
        chk.eq(changed(lob), 1, "a room made: one rooms_changed, no room/seq")
        # taken and started within one request: still one event
        is_ok(chk, bob.call("join", room=room), "bob joins")
        chk.eq(changed(lob), 1, "a seat taken and the game started: one")
        # moves and chat change nothing the lobby lists
        mv = ana.call("moves", room=room)["moves"][0]
        is_ok(chk, ana.call("move", room=room, move=mv), "ana moves")
        is_ok(chk, ana.call("chat", room=room, text="hi"), "ana chats")
        chk.eq(changed(lob), 0, "a move and a chat line: none")
        # several changes within a second: at most one a second
        t0 = time.time()
        for i in range(3):
            x, _ = hello(srv.port, "m%d" % i)
            x.call("create", game="stones")
        n = changed(lob)
        chk.ok(1 <= n <= int(time.time() - t0) + 1,
               "three rooms made at once: %d events, at most one a second" % n)
        # a private room: none
        is_ok(chk, ana.call("create", game="amazons", private=True),
              "a private room")
        chk.eq(changed(lob), 0, "a private room made: none")
        # a seated player gone, then the end of the game
        bob.close()
        chk.eq(changed(lob), 1, "a seated player gone: one")
        is_ok(chk, ana.call("resign", room=room), "ana resigns")
        chk.eq(changed(lob), 1, "the game's end: one")
        # the connection that did not ask heard nothing
        chk.eq(changed(deaf, 0.3), 0, "a hello without lobby hears none")
        # a wrong type is refused
        x = Client(srv.port)
        r = x.call("hello", name="bad", lobby="yes")
        chk.ok(r and not r.get("ok") and r.get("error") == "bad_request",
               "lobby must be true or false: %r" % r)
        for c in (lob, deaf, ana, x):
            c.close()
    chk.done()


if __name__ == "__main__":
    main()
