"""test_games_grace.py: the end of a gone player's grace period is said
when it comes (issue 21, item 8): bob drops out of a running game, ana
gets opponent_gone, then, once --grace seconds have passed, grace_over
(with bob's name and seat) without asking; a text-mode watcher reads
"bob (black) did not come back: claim wins r1."; claim then wins, and
bob, back later, is told by hello that he lost it by abandonment (JSON
`abandoned`, and a sentence in text). A player who comes back in time
makes no grace_over."""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks, Client, Server, args, login  # noqa: E402
from test_telnet import Telnet, FAST  # noqa: E402

GRACE = 1
# The sweep looks once a second: the event comes within this of the end.
SLACK = 4


def main():
    a = args()
    chk = Checks()
    with Server(a.build, extra=FAST + ["--grace", str(GRACE)]) as srv:
        ana = login(srv.port, "ana")
        bob = login(srv.port, "bob")
        cat = Telnet(srv.port)
        try:
            cat.type("hello cat")
            cat.until(r"^Hello, cat\.")
            room = ana.call("create", game="ataxx")["state"]["room"]
            chk.ok(bob.call("join", room=room).get("ok"), "bob joined")
            cat.type("watch " + room)
            cat.until(r"to move")
            bob.close()
            chk.ok(ana.event("opponent_gone") is not None, "bob is gone")
            t0 = time.time()
            ev = ana.event("grace_over", timeout=GRACE + SLACK)
            chk.ok(ev is not None, "grace_over comes by itself")
            chk.ok(time.time() - t0 >= GRACE - 0.2, "not before the grace")
            ev = ev or {}
            chk.eq((ev.get("room"), ev.get("name"), ev.get("seat")),
                   (room, "bob", "black"), "who did not come back")
            chk.ok(isinstance(ev.get("seq"), int), "a room event, with seq")
            chk.ok(cat.until(r"^\[%s\] bob \(black\) did not come back: "
                             r"claim wins %s\.$" % (room, room)),
                   "the watcher reads it in words")
            chk.ok(ana.call("claim", room=room).get("ok"), "claim wins")
            chk.ok(ana.event("ended") is not None, "the game ended")
            # bob comes back: hello tells him he lost it
            btok = bob.token
            bob = Client(srv.port)
            rep = bob.call("hello", name="bob", token=btok)
            lost = rep.get("abandoned") or [{}]
            chk.eq((len(rep.get("abandoned") or []), lost[0].get("room"),
                    lost[0].get("winner"), lost[0].get("winner_name")),
                   (1, room, "white", "ana"),
                   "hello lists the game bob lost while away: %r" % rep)
            bob.close()
            bt = Telnet(srv.port)
            bt.type("hello bob " + btok)
            chk.ok(bt.until(r"^While you were away, ana claimed %s "
                            r"\(Ataxx\): you lost it by abandonment\.$"
                            % room), "in words for a person")
            bt.close()
            # back in time: no grace_over
            ana.call("leave", room=room)
            room2 = ana.call("create", game="ataxx")["state"]["room"]
            carl = login(srv.port, "carl")
            chk.ok(carl.call("join", room=room2).get("ok"), "carl joined")
            tok = carl.token
            carl.close()
            chk.ok(ana.event("opponent_gone") is not None, "carl is gone")
            carl = Client(srv.port)
            carl.call("hello", name="carl", token=tok)
            chk.ok(ana.event("opponent_back") is not None, "carl is back")
            chk.eq(ana.event("grace_over", timeout=GRACE + SLACK), None,
                   "no grace_over for a player who came back")
            carl.close()
        finally:
            ana.close()
            cat.close()
    chk.done()


if __name__ == "__main__":
    main()
