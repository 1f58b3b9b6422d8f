"""test_games_takeback.py: take-backs in two-player games (issue 21):
ana asks to take back her last move (takeback offer), bob accepts or
declines. Accepted right after her move, one move goes; after bob's
answer, two go, so that ana is to move again; the room hears an undone
event with who asked and how many moves went. A move cancels a pending
request, a bot of a rated game declines at once, and one-player games refuse it. The
truncation is stored: after a restart the room has the same history."""

import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks, Client, Server, args, login  # noqa: E402


def hist(c, room):
    st = c.call("state", room=room)["state"]
    return [h["move"] for h in st["history"]], st["turn"]


def main():
    a = args()
    chk = Checks()
    db = os.path.join(tempfile.mkdtemp(prefix="tablero-tb-"), "t.db")
    srv = Server(a.build, db=db).start()
    ana = login(srv.port, "ana")
    bob = login(srv.port, "bob")
    try:
        room = ana.call("create", game="ataxx",
                        options={"size": 5})["state"]["room"]
        chk.ok(bob.call("join", room=room).get("ok"), "bob joined")
        r = ana.call("takeback", room=room, action="offer")
        chk.eq(r.get("error"), "not_allowed", "no move to take back yet")
        chk.ok(ana.call("move", room=room, move="b4").get("ok"), "ana b4")
        chk.ok(ana.call("takeback", room=room, action="offer").get("ok"),
               "ana asks")
        ev = bob.event("takeback_offered") or {}
        chk.eq((ev.get("name"), ev.get("seat")), ("ana", "white"),
               "bob hears who asks")
        r = ana.call("takeback", room=room, action="accept")
        chk.eq(r.get("error"), "not_allowed", "not one's own request")
        chk.ok(bob.call("takeback", room=room, action="accept").get("ok"),
               "bob accepts")
        ev = ana.event("undone") or {}
        chk.eq((ev.get("name"), ev.get("seat"), ev.get("moves"),
                ev.get("turn")), ("ana", "white", 1, "white"),
               "one move taken back: %r" % ev)
        chk.eq(hist(bob, room), ([], "white"), "the history is empty")
        # two moves: ana's and bob's answer
        chk.ok(ana.call("move", room=room, move="b4").get("ok"), "ana b4")
        chk.ok(bob.call("move", room=room, move="d4").get("ok"), "bob d4")
        chk.ok(ana.call("takeback", room=room, action="offer").get("ok"),
               "ana asks again")
        chk.ok(bob.call("takeback", room=room,
                        action="decline").get("ok"), "bob declines")
        ev = ana.event("takeback_declined") or {}
        chk.eq((ev.get("name"), ev.get("seat")), ("bob", "black"),
               "ana hears bob declined")
        r = bob.call("takeback", room=room, action="accept")
        chk.eq(r.get("error"), "not_allowed", "nothing left to accept")
        chk.ok(ana.call("takeback", room=room, action="offer").get("ok"),
               "ana asks once more")
        chk.ok(bob.call("takeback", room=room, action="accept").get("ok"),
               "bob accepts")
        ev = ana.event("undone") or {}
        chk.eq((ev.get("moves"), ev.get("turn")), (2, "white"),
               "two moves taken back, ana to move: %r" % ev)
        chk.ok(ana.call("move", room=room, move="a4").get("ok"), "ana a4")
        chk.ok(bob.call("move", room=room, move="b2").get("ok"), "bob b2")
        # a move cancels a pending request
        chk.ok(bob.call("takeback", room=room, action="offer").get("ok"),
               "bob asks")
        chk.ok(ana.call("move", room=room, move="b3").get("ok"),
               "ana moves instead")
        r = ana.call("takeback", room=room, action="accept")
        chk.eq(r.get("error"), "not_allowed", "the move cancelled it")
        want = hist(ana, room)
        chk.eq(want, (["a4", "b2", "b3"], "black"), "the game so far")
        # a bot of a rated game declines; one-player games refuse
        broom = ana.call("create", game="ataxx", options={"size": 5},
                         bot=1)["state"]["room"]
        chk.ok(ana.call("move", room=broom, move="b4").get("ok"),
               "ana moves against the bot")
        chk.ok(ana.call("takeback", room=broom, action="offer").get("ok"),
               "ask the bot")
        chk.ok(ana.event("takeback_declined") is not None,
               "the bot declines")
        sroom = ana.call("create", game="solitaire")["state"]["room"]
        r = ana.call("takeback", room=sroom, action="offer")
        chk.eq(r.get("error"), "not_allowed", "one-player games: undo")
        ana.close()
        bob.close()
        srv.stop()
        srv = Server(a.build, db=db, port=srv.port).start()
        c = login(srv.port, "carl")
        chk.eq(hist(c, room), want, "after a restart: the same history")
        c.close()
    finally:
        srv.stop()
    chk.done()


if __name__ == "__main__":
    main()
