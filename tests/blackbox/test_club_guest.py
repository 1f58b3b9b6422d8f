"""test_club_guest.py: guests (no hello) may play casual games against
bots (issue 31). A guest's create of a two-player game with a bot
starts it, unrated ("created with rated=no"), one game at a time; a game
against a person or a one-player game still needs a name; a guest who
goes resigns the game (nobody can come back as that guest), and a hello
on the guest's connection ends it the same way. Over telnet too."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import login, req, server, shut, until  # noqa: E402
from harness import Client, Checks, args, is_error  # noqa: E402
from test_telnet import Telnet  # noqa: E402


def part_json(chk, port):
    g = Client(port)
    g.log = []
    ana = login(port, "ana")
    try:
        rep = req(g, "create", game="ataxx", bot=1)
        chk.ok(rep.get("ok"), "a guest creates ataxx against a bot: %r"
               % ({k: rep.get(k) for k in ("ok", "error", "message")},))
        room = rep.get("room")
        st = rep.get("state") or {}
        chk.eq((st.get("status"), st.get("options", {}).get("rated")),
               ("playing", "no"), "it starts, casual")
        seat = rep.get("seat")
        mine = [x for x in st.get("seats", []) if x.get("seat") == seat]
        chk.ok(mine and (mine[0].get("name") or "").startswith("~"),
               "the guest sits as ~N: %r" % (mine,))
        is_error(chk, req(g, "create", game="amazons", bot=2),
                 "limit_reached", "one game at a time")
        moves = req(g, "moves", room=room).get("moves") or []
        r = req(g, "move", room=room, move=moves[0]) if moves else {}
        chk.ok(r.get("ok"), "the guest moves: %r" % (r,))
        req(ana, "watch", room=room)
        g.close()
        e = until(ana, lambda e: e.get("event") == "ended" and
                  e.get("room") == room) or {}
        chk.eq((e.get("reason"), e.get("rated")), ("resignation", False),
               "the guest went: the game ends, unrated")
    finally:
        g.close()
        ana.close()
    g = Client(port)
    try:
        is_error(chk, g.call("create", game="stones"), "not_logged_in",
                 "a game against a person needs a name",
                 ["casual game against a bot"])
        is_error(chk, g.call("create", game="solitaire"), "not_logged_in",
                 "a one-player game needs a name")
        is_error(chk, g.call("chat", text="hi"), "not_logged_in",
                 "chat still needs a name")
    finally:
        g.close()


def part_telnet(chk, port):
    t = Telnet(port)
    try:
        t.type("create ataxx size=5 bot=1")
        got = t.until(r"^You are in room|^error")
        chk.ok(got and got[-1].startswith("You are in room"),
               "telnet: a guest's game: %r" % (got[-3:],))
        t.quiet(0.5)
        t.type("resign")
        got = t.until(r"Not rated|^error")
        chk.ok(got and "created with rated=no" in got[-1],
               "telnet: not rated, and why: %r" % (got[-2:],))
        t.quiet(0.3)
        t.type("create ataxx bot=2")
        got = t.until(r"^You are in room|^error")
        chk.ok(got and got[-1].startswith("You are in room"),
               "after the end another game: %r" % (got[-1:],))
        t.type("hello zoe")
        got = t.until(r"^Hello, zoe|^error")
        chk.ok(got and got[-1].startswith("Hello, zoe"),
               "a hello ends the guest: %r" % (got[-1:],))
        t.type("mine")
        got = t.until(r"no seat|^Your games|^error")
        chk.eq(got[-1:], ["You hold no seat in a game that is on."],
               "the guest's game is not zoe's")
    finally:
        t.close()


def main():
    a = args()
    chk = Checks()
    srv = server(a.build)
    try:
        part_json(chk, srv.port)
        part_telnet(chk, srv.port)
    finally:
        shut(srv)
    chk.done()


if __name__ == "__main__":
    main()
