"""test_room_chat_kept.py: a room keeps its last 20 chat lines in memory
(issue 31: room chat lost on reload). The state in the replies to
`join`, `watch` and `state` has `chat`: the last lines, oldest first,
each with `seq`, `from` and `text`; lines from a sender the reader
blocks are left out; a room with no chat has an empty list."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks, Client, Server, args, is_ok  # noqa: E402

KEPT = 20


def hello(port, name, token=None):
    c = Client(port)
    r = c.call("hello", name=name, **({"token": token} if token else {}))
    c.token = r.get("token")
    return c


def main():
    a = args()
    chk = Checks()
    with Server(a.build) as srv:
        ana, bob, eve = (hello(srv.port, n) for n in ("ana", "bob", "eve"))
        room = ana.call("create", game="ataxx")["room"]
        st = ana.call("state", room=room)["state"]
        chk.eq(st.get("chat"), [], "a room without chat: an empty list")
        is_ok(chk, bob.call("join", room=room), "bob joins")
        for i in range(KEPT + 5):
            who = ana if i % 2 == 0 else bob
            is_ok(chk, who.call("chat", room=room, text="line %d" % i),
                  "line %d" % i)
        st = bob.call("state", room=room)["state"]
        chat = st.get("chat") or []
        chk.eq(len(chat), KEPT, "state keeps the last %d lines" % KEPT)
        chk.eq([m.get("text") for m in chat[:1] + chat[-1:]],
               ["line 5", "line %d" % (KEPT + 4)], "oldest first, the last kept")
        chk.ok(all(isinstance(m.get("seq"), int) for m in chat) and
               [m["seq"] for m in chat] == sorted(m["seq"] for m in chat),
               "each line has its seq, in order")
        chk.eq([m.get("from") for m in chat[-1:]], ["ana"],
               "each line names its sender")
        w = eve.call("watch", room=room)
        chk.eq(len(w["state"].get("chat") or []), KEPT,
               "watch's state has the lines")
        is_ok(chk, eve.call("leave", room=room), "eve leaves")
        is_ok(chk, eve.call("block", name="ana"), "eve blocks ana")
        w = eve.call("watch", room=room)
        froms = {m.get("from") for m in w["state"].get("chat") or []}
        chk.eq(froms, {"bob"}, "a blocked sender's lines are left out")
        bob.close()
        bob = hello(srv.port, "bob", bob.token)
        j = bob.call("join", room=room)
        chk.eq(len(j["state"].get("chat") or []), KEPT,
               "join's state after a reconnect has them")
        for c in (ana, bob, eve):
            c.close()
    chk.done()


if __name__ == "__main__":
    main()
