"""test_bot_answers.py: a bot answers draw offers and take-back requests
(issue 31) as docs/RULES.md ("Bots answer offers") says. A draw: the bot
accepts when its last search scored its own side lost by a margin (Ataxx:
three pieces), declines before its first move and in an even position.
A take-back: granted in an unrated game (a bot with a set depth is never
rated), declined in a rated one. Bots with a set depth search the same
tree every time, so the answers do not depend on the machine's speed."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks, Server, args, login  # noqa: E402

# Ataxx 5x5, white (x, ana) to move with fifteen pieces against the bot's
# one (o, black, on a1): whatever the bot plays it stays far behind.
LOST_FOR_BOT = "xxxxx/xxxxx/xxxxx/5/o4 x 0 1"


def bot_room(c, **opts):
    """A room where c plays white against a depth-2 bot; its id."""
    r = c.call("create", game="ataxx", bot=1, depth=2, **opts)
    return r["state"]["room"]


def bot_moved(c):
    """Wait for the bot's move; whether it came."""
    return c.event("moved") is not None and c.event("moved") is not None


def test_draws(chk, ana):
    room = bot_room(ana, options={"size": 5})
    ana.drain()
    chk.ok(ana.call("draw", room=room, action="offer").get("ok"),
           "offer a draw before the bot has moved")
    ev = ana.event("draw_declined") or {}
    chk.eq(ev.get("seat"), "black", "no search yet: the bot declines")
    chk.ok(ana.call("move", room=room, move="b4").get("ok"), "ana b4")
    chk.ok(bot_moved(ana), "the bot answers the move")
    chk.ok(ana.call("draw", room=room, action="offer").get("ok"),
           "offer a draw in an even position")
    ev = ana.event("draw_declined") or {}
    chk.eq(ev.get("seat"), "black", "even: the bot declines")
    st = ana.call("state", room=room)["state"]
    chk.eq(st.get("status"), "playing", "the game goes on")

    room = bot_room(ana, options={"position": LOST_FOR_BOT})
    ana.drain()
    chk.ok(ana.call("move", room=room, move="e2").get("ok"), "ana e2")
    chk.ok(bot_moved(ana), "the bot answers the move")
    ana.drain()
    chk.ok(ana.call("draw", room=room, action="offer").get("ok"),
           "offer a draw to a bot that is lost")
    ev = ana.event("ended") or {}
    chk.eq((ev.get("result"), ev.get("reason")),
           ("draw", "draw by agreement"), "the bot accepts: %r" % ev)
    chk.eq(ana.event("draw_declined", timeout=0.3), None,
           "and does not decline as well")


def test_takebacks(chk, ana):
    room = bot_room(ana, options={"size": 5})
    ana.drain()
    chk.ok(ana.call("move", room=room, move="b4").get("ok"), "ana b4")
    chk.ok(bot_moved(ana), "the bot answers the move")
    ana.drain()
    chk.ok(ana.call("takeback", room=room, action="offer").get("ok"),
           "ask the bot of an unrated game for a take-back")
    ev = ana.event("undone") or {}
    chk.eq((ev.get("moves"), ev.get("turn"), ev.get("name")),
           (2, "white", "ana"), "granted: two moves go, ana to move: %r" % ev)
    st = ana.call("state", room=room)["state"]
    chk.eq(st.get("history"), [], "the history is empty again")
    chk.ok(ana.call("move", room=room, move="a4").get("ok"),
           "ana plays another move")
    chk.ok(bot_moved(ana), "and the bot answers it")

    r = ana.call("create", game="ataxx", bot=1, options={"size": 5})
    room = r["state"]["room"]
    chk.eq((ana.event("started") or {}).get("rated"), True,
           "a game against a bot level is rated")
    ana.drain()
    chk.ok(ana.call("move", room=room, move="b4").get("ok"), "ana b4")
    chk.ok(ana.call("takeback", room=room, action="offer").get("ok"),
           "ask the bot of a rated game")
    ev = ana.event("takeback_declined") or {}
    chk.eq(ev.get("seat"), "black", "rated: the bot declines")


def main():
    a = args()
    chk = Checks()
    srv = Server(a.build).start()
    try:
        ana = login(srv.port, "ana")
        test_draws(chk, ana)
        test_takebacks(chk, ana)
        ana.close()
    finally:
        srv.stop()
    chk.done()


if __name__ == "__main__":
    main()
