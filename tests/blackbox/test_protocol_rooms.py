"""test_protocol_rooms.py: the room verbs of tablerod over real sockets:
create (options, seat, bots, private, clock), rooms and its filters, join,
watch, leave, state, moves, say, export and the current room, with their
errors (no_such_game, bad_options, no_such_room, room_full, not_in_room,
not_allowed, bad_request) and the joined/left/started events.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import (Checks, Server, args, login, is_error,  # noqa: E402
                     is_ok, run_parts, stopped_cleanly)

# Functional tests send quickly: keep the rate limit out of their way.
FAST = ["--rate", "100000", "--burst", "100000"]

STATE_KEYS = ["room", "game", "title", "options", "seats", "turn", "status",
              "result", "board", "position", "picture", "history", "clocks",
              "seq", "private", "watchers"]
SUMMARY_KEYS = ["room", "game", "status", "seats", "watchers", "clock"]


def check_state(chk, st, what):
    """A full state has every field the protocol names, well typed."""
    if not chk.ok(isinstance(st, dict), what + ": state is an object"):
        return
    for k in STATE_KEYS:
        chk.ok(k in st, "%s: state has %s" % (what, k))
    chk.ok(isinstance(st.get("board"), list) and
           all(isinstance(r, str) for r in st.get("board", [])),
           what + ": board is a list of row strings")
    chk.ok(isinstance(st.get("position"), str), what + ": position string")
    chk.ok(isinstance(st.get("picture"), str) and "\n" in st["picture"],
           what + ": picture is a multi-line string")
    chk.ok(isinstance(st.get("history"), list), what + ": history list")
    chk.ok(isinstance(st.get("seq"), int), what + ": seq integer")
    chk.ok(st.get("status") in ("waiting", "playing", "ended", "adjourned"),
           what + ": status word")
    for s in st.get("seats", []):
        chk.ok(set(["seat", "name", "bot", "connected"]) <= set(s),
               "%s: seat %r has seat, name, bot, connected" % (what, s))


def check_summary(chk, s, what):
    for k in SUMMARY_KEYS:
        chk.ok(k in s, "%s: summary has %s" % (what, k))


def events_of(msgs, room):
    return [m for m in msgs if "event" in m and m.get("room") == room]


def test_create(chk, srv):
    a = login(srv.port, "cr_a")
    r = a.call("create", game="stones")
    if not is_ok(chk, r, "create stones"):
        return
    room = r.get("room")
    chk.ok(isinstance(room, str) and room, "create: room id")
    chk.eq(r.get("seat"), "player 1", "create: first free seat")
    check_state(chk, r.get("state"), "create stones")
    st = r.get("state", {})
    chk.eq(st.get("status"), "waiting", "two-player game waits")
    chk.eq(st.get("turn"), None, "no turn while waiting")
    chk.eq(st.get("result"), None, "no result while waiting")
    chk.eq(st.get("private"), False, "not private by default")
    chk.eq(st.get("clocks"), None, "no clock by default")
    chk.eq(st.get("history"), [], "empty history")
    chk.eq(st.get("game"), "stones", "state game")
    chk.eq(st.get("room"), room, "state room")
    ev = a.event("joined")
    chk.ok(ev is not None and ev.get("name") == "cr_a" and
           ev.get("seat") == "player 1" and ev.get("role") == "player" and
           ev.get("room") == room and ev.get("seq") == 1,
           "creator's joined event: %r" % ev)
    chk.eq(st.get("seq"), 1, "state seq counts the joined event")

    # options, in JSON as numbers and as strings
    r = a.call("create", game="ataxx", options={"size": 5})
    if is_ok(chk, r, "create ataxx size 5"):
        chk.eq(r["state"].get("options", {}).get("size"), "5",
               "option kept as text")
        chk.eq(len(r["state"].get("board", [])), 5, "5 board rows")
    r = a.call("create", game="ataxx", options={"size": "9"})
    if is_ok(chk, r, "create ataxx size '9'"):
        chk.eq(len(r["state"].get("board", [])), 9, "9 board rows")
    is_error(chk, a.call("create", game="ataxx", options={"size": 4}),
             "bad_options", "ataxx size 4", ["size"])
    is_error(chk, a.call("create", game="ataxx", options={"size": 10}),
             "bad_options", "ataxx size 10", ["size"])
    is_error(chk, a.call("create", game="ataxx", options={"size": "big"}),
             "bad_options", "ataxx size big", ["size"])
    is_error(chk, a.call("create", game="ataxx", options={"colour": "red"}),
             "bad_options", "unknown option", ["colour"])
    is_error(chk, a.call("create", game="stones",
                         options={"first": "3"}),
             "bad_options", "stones first=3", ["first"])
    is_error(chk, a.call("create", game="chess"), "no_such_game",
             "create chess", ["chess"])
    is_error(chk, a.call("create", game="Stones"), "no_such_game",
             "game names are exact")

    # seats
    r = a.call("create", game="stones", seat="player 2")
    if is_ok(chk, r, "create with seat name"):
        chk.eq(r.get("seat"), "player 2", "seat by name")
    r = a.call("create", game="ataxx", seat=2)
    if is_ok(chk, r, "create with seat number"):
        chk.eq(r.get("seat"), "black", "seat number 2 is the second seat")
    is_error(chk, a.call("create", game="ataxx", seat="red"), "bad_request",
             "create with an unknown seat", ["red"])
    is_error(chk, a.call("create", game="ataxx", seat=3), "bad_request",
             "create with seat 3 of 2")

    # one-player games start at once, and take neither bots nor clocks
    r = a.call("create", game="solitaire")
    if is_ok(chk, r, "create solitaire"):
        chk.eq(r["state"].get("status"), "playing", "one-player starts")
        chk.eq(r.get("seat"), "player", "solitaire seat")
    is_error(chk, a.call("create", game="solitaire", bots={"player": 1}),
             "bad_options", "bots in a one-player game")
    is_error(chk, a.call("create", game="shifter",
                         clock={"initial": 60, "increment": 0}),
             "bad_options", "clock in a one-player game")
    a.close()


def test_bots(chk, srv):
    a = login(srv.port, "bot_a")
    # One bot: the game starts with the creator's reply.
    r = a.call("create", game="ataxx", bots={"black": 1})
    if is_ok(chk, r, "create ataxx with a bot"):
        room = r["room"]
        chk.eq(r.get("seat"), "white", "creator takes the free seat")
        seats = r["state"].get("seats", [])
        chk.ok(len(seats) == 2 and seats[1].get("bot") == 1 and
               seats[1].get("name") is None, "bot in black: %r" % seats)
        ev = a.event("started")
        chk.ok(ev is not None and ev.get("room") == room,
               "started after the bot took its seat")
        is_error(chk, a.call("create", game="ataxx", bots={"white": 1},
                             seat="white"), "bad_request",
                 "bot in the creator's seat")
    is_error(chk, a.call("create", game="ataxx", bots={"green": 2}),
             "bad_request", "bot in an unknown seat", ["green"])
    # Bots in every seat: the creator watches a bot game to its end.
    r = a.call("create", game="stones", bots={"1": 1, "2": 1})
    if not is_ok(chk, r, "create stones with two bots"):
        a.close()
        return
    room = r["room"]
    chk.ok("seat" in r and r["seat"] is None,
           "bots in every seat: the reply's seat is null: %r" % sorted(r))
    ev = a.event("ended", timeout=20)
    chk.ok(ev is not None and ev.get("room") == room,
           "the bot game ends: %r" % ev)
    evs = events_of(a.drain(), room)
    st = a.call("state", room=room)
    if is_ok(chk, st, "state of the bot game"):
        st = st["state"]
        chk.eq(st.get("status"), "ended", "bot game ended")
        chk.ok(len(st.get("history", [])) >= 7, "bot game has moves")
        chk.eq(st.get("watchers"), 1, "creator counted as a watcher")
    chk.ok(any(e.get("event") == "joined" and e.get("role") == "watcher" and
               e.get("name") == "bot_a" for e in evs),
           "creator joined as watcher: %r" % evs[:2])
    seqs = [e.get("seq") for e in evs] + [ev.get("seq") if ev else None]
    chk.eq(seqs, list(range(1, len(seqs) + 1)),
           "the watcher saw every event of the bot game, seq 1, 2, ...")
    a.close()


def test_private_clock(chk, srv):
    a = login(srv.port, "pc_a")
    b = login(srv.port, "pc_b")
    r = a.call("create", game="stones", private=True)
    if not is_ok(chk, r, "create private"):
        return
    priv = r["room"]
    chk.eq(r["state"].get("private"), True, "state says private")
    rooms = b.call("rooms").get("rooms", [])
    chk.ok(priv not in [s.get("room") for s in rooms],
           "a private room is not listed")
    who = b.call("who").get("players", [])
    chk.ok(all(priv not in p.get("rooms", []) for p in who),
           "who does not show a private room")
    c = login(srv.port, "pc_c")
    is_ok(chk, c.call("watch", room=priv), "watch a private room by id")
    c.close()
    r = b.call("join", room=priv)
    is_ok(chk, r, "join a private room by id")
    r = b.call("state", room=priv)
    chk.ok(r.get("ok") and r["state"]["status"] == "playing",
           "the private game started")

    r = a.call("create", game="stones", options={"first": 1},
               clock={"initial": 60, "increment": 2})
    if not is_ok(chk, r, "create with a clock"):
        return
    room = r["room"]
    clocks = r["state"].get("clocks")
    chk.eq(clocks, {"player 1": 60000, "player 2": 60000},
           "clocks of a waiting room show the initial time")
    summ = [s for s in b.call("rooms").get("rooms", [])
            if s.get("room") == room]
    chk.ok(summ and summ[0].get("clock") == {"initial": 60, "increment": 2},
           "rooms shows the time control: %r" % summ)
    b.drain()
    b.call("join", room=room)
    ev = b.event("started")
    c = ev.get("clocks") if ev else None
    chk.ok(isinstance(c, dict) and set(c) == {"player 1", "player 2"} and
           all(isinstance(v, int) and 55000 <= v <= 60000
               for v in c.values()),
           "started carries the clocks: %r" % c)
    a.drain()
    a.call("move", room=room, move="A1")
    ev = a.event("moved")
    c = ev.get("clocks") if ev else None
    chk.ok(isinstance(c, dict) and 55000 <= c.get("player 2", 0) <= 60000,
           "moved carries the clocks: %r" % c)
    st = b.call("state", room=room).get("state", {})
    chk.ok(isinstance(st.get("clocks"), dict) and
           set(st["clocks"]) == {"player 1", "player 2"},
           "state carries the clocks: %r" % st.get("clocks"))
    for clk, word in [({"initial": 0}, "initial"),
                      ({"initial": 86401}, "initial"),
                      ({"initial": 10, "increment": 3601}, "increment"),
                      ({"increment": 3}, "initial")]:
        is_error(chk, a.call("create", game="stones", clock=clk),
                 "bad_request", "clock %r" % clk, [word])
    a.close()
    b.close()


def test_rooms_filters(chk, srv):
    a = login(srv.port, "rf_a")
    b = login(srv.port, "rf_b")
    w1 = a.call("create", game="ataxx").get("room")
    p1 = a.call("create", game="amazons").get("room")
    b.call("join", room=p1)
    r = b.call("rooms")
    if not is_ok(chk, r, "rooms"):
        return
    for s in r.get("rooms", []):
        check_summary(chk, s, "rooms %s" % s.get("room"))
    ids = [s.get("room") for s in r.get("rooms", [])]
    chk.ok(w1 in ids and p1 in ids, "rooms lists both")
    r = b.call("rooms", game="ataxx")
    chk.ok(all(s.get("game") == "ataxx" for s in r.get("rooms", [])) and
           w1 in [s.get("room") for s in r.get("rooms", [])],
           "rooms game=ataxx")
    r = b.call("rooms", status="playing")
    chk.ok(all(s.get("status") == "playing" for s in r.get("rooms", [])) and
           p1 in [s.get("room") for s in r.get("rooms", [])],
           "rooms status=playing")
    r = b.call("rooms", status="waiting", game="amazons")
    chk.ok(p1 not in [s.get("room") for s in r.get("rooms", [])],
           "rooms game and status together")
    r = b.call("rooms", game="shifter", status="adjourned")
    chk.eq(r.get("rooms"), [], "rooms with no match is empty")
    is_error(chk, b.call("rooms", game="chess"), "no_such_game",
             "rooms game=chess")
    summ = [s for s in b.call("rooms", game="amazons").get("rooms", [])
            if s.get("room") == p1][0]
    chk.eq([(s.get("seat"), s.get("name"), s.get("bot"), s.get("connected"))
            for s in summ.get("seats", [])],
           [("white", "rf_a", None, True), ("black", "rf_b", None, True)],
           "rooms seats")
    a.close()
    b.close()


def test_join_watch_leave(chk, srv):
    a = login(srv.port, "jw_a")
    b = login(srv.port, "jw_b")
    c = login(srv.port, "jw_c")
    r = a.call("create", game="stones", options={"first": 1})
    room = r.get("room")
    is_error(chk, b.call("join", room="r99999"), "no_such_room",
             "join a missing room", ["r99999"])
    is_error(chk, b.call("join", room=room, seat="player 1"), "room_full",
             "join a taken seat")
    is_error(chk, b.call("join", room=room, seat="player 9"), "bad_request",
             "join an unknown seat")
    a.drain()
    r = b.call("join", room=room)
    if is_ok(chk, r, "join"):
        chk.eq(r.get("room"), room, "join: room")
        chk.eq(r.get("seat"), "player 2", "join: the free seat")
        check_state(chk, r.get("state"), "join")
    for who, cl in (("creator", a), ("joiner", b)):
        ev = cl.event("joined")
        chk.ok(ev is not None and ev.get("name") == "jw_b" and
               ev.get("seat") == "player 2" and ev.get("role") == "player",
               "%s sees jw_b join: %r" % (who, ev))
        ev = cl.event("started")
        chk.ok(ev is not None and ev.get("turn") == "player 1" and
               isinstance(ev.get("seats"), list) and
               isinstance(ev.get("board"), list) and
               isinstance(ev.get("position"), str) and "clocks" in ev,
               "%s sees the start: %r" % (who, ev))
    is_error(chk, c.call("join", room=room), "room_full", "join a full room")
    # joining your own seat again resumes it
    r = b.call("join", room=room)
    if is_ok(chk, r, "join again"):
        chk.eq(r.get("seat"), "player 2", "join again: same seat")

    # watch
    is_error(chk, c.call("watch", room="r99999"), "no_such_room",
             "watch a missing room")
    is_error(chk, a.call("watch", room=room), "not_allowed",
             "a player watches own room")
    r = c.call("watch", room=room)
    if is_ok(chk, r, "watch"):
        chk.eq(r.get("room"), room, "watch: room")
        check_state(chk, r.get("state"), "watch")
        chk.eq(r["state"].get("watchers"), 1, "watchers counted")
    for who, cl in (("a", a), ("b", b), ("c", c)):
        ev = cl.event("joined")
        chk.ok(ev is not None and ev.get("name") == "jw_c" and
               ev.get("seat") is None and ev.get("role") == "watcher",
               "%s sees the watcher: %r" % (who, ev))
    summ = [s for s in a.call("rooms").get("rooms", [])
            if s.get("room") == room]
    chk.ok(summ and summ[0].get("watchers") == 1, "rooms counts watchers")
    # the watcher leaves
    is_ok(chk, c.call("leave", room=room), "watcher leaves")
    for who, cl in (("a", a), ("b", b)):
        ev = cl.event("left")
        chk.ok(ev is not None and ev.get("name") == "jw_c" and
               ev.get("role") == "watcher" and ev.get("seat") is None,
               "%s sees the watcher leave: %r" % (who, ev))
    is_error(chk, c.call("leave", room=room), "not_in_room",
             "leave a room you are not in")
    st = a.call("state", room=room).get("state", {})
    chk.eq(st.get("watchers"), 0, "watcher gone")
    # a player leaves a running game: that resigns it
    a.drain()
    b.drain()
    is_ok(chk, b.call("leave", room=room), "player leaves a running game")
    ev = a.event("ended")
    chk.ok(ev is not None and ev.get("result") == "win" and
           ev.get("winner") == "player 1" and
           ev.get("winner_name") == "jw_a" and
           ev.get("reason") == "resignation",
           "leaving resigns: %r" % ev)
    ev = a.event("left")
    chk.ok(ev is not None and ev.get("name") == "jw_b" and
           ev.get("role") == "player", "left event of the player: %r" % ev)
    # the game is over: nobody new may take a seat (semantics: not_allowed)
    is_error(chk, c.call("join", room=room), "not_allowed",
             "join an ended game")
    r = c.call("watch", room=room)
    is_ok(chk, r, "watch an ended game")

    # the creator leaves a waiting room alone: it closes
    r = a.call("create", game="ataxx")
    wroom = r.get("room")
    is_ok(chk, a.call("leave", room=wroom), "leave own waiting room")
    is_error(chk, b.call("state", room=wroom), "no_such_room",
             "a closed room is gone")
    chk.ok(wroom not in [s.get("room")
                         for s in b.call("rooms").get("rooms", [])],
           "a closed room is not listed")
    a.close()
    b.close()
    c.close()


def test_current_room(chk, srv):
    a = login(srv.port, "cur_a")
    is_error(chk, a.call("state"), "bad_request", "state without any room",
             ["room"])
    is_error(chk, a.call("say", text="hi"), "bad_request",
             "say without any room", ["room"])
    is_error(chk, a.call("state", room="r99999"), "no_such_room",
             "state of a missing room")
    r1 = a.call("create", game="ataxx").get("room")
    r2 = a.call("create", game="amazons").get("room")
    st = a.call("state")
    chk.ok(st.get("ok") and st["state"]["room"] == r2,
           "state without room: the last created room")
    b = login(srv.port, "cur_b")
    b.call("join", room=r1)
    st = b.call("state")
    chk.ok(st.get("ok") and st["state"]["room"] == r1,
           "state without room: the joined room")
    r = b.call("moves")
    chk.ok(r.get("ok") and r.get("room", r1) == r1 and r.get("moves"),
           "moves without room: the joined room: %r" % r)
    r = b.call("export")
    chk.ok(r.get("ok") and r.get("format") == "position",
           "export without room")
    a.close()
    b.close()


def test_say(chk, srv):
    a = login(srv.port, "say_a")
    b = login(srv.port, "say_b")
    c = login(srv.port, "say_c")
    room = a.call("create", game="stones").get("room")
    b.call("watch", room=room)
    a.drain()
    b.drain()
    is_ok(chk, a.call("say", text="good luck"), "say")
    seqs = []
    for who, cl in (("player", a), ("watcher", b)):
        ev = cl.event("chat")
        chk.ok(ev is not None and ev.get("from") == "say_a" and
               ev.get("text") == "good luck" and ev.get("room") == room,
               "%s gets the room chat: %r" % (who, ev))
        seqs.append(ev.get("seq") if ev else None)
    chk.ok(seqs[0] is not None and seqs[0] == seqs[1],
           "room chat has a seq: %r" % seqs)
    chk.ok(c.event("chat", timeout=0.3) is None,
           "someone outside the room does not get room chat")
    is_ok(chk, b.call("chat", room=room, text="hi from the stands"),
          "chat with room is room chat")
    ev = a.event("chat")
    chk.ok(ev is not None and ev.get("room") == room and
           ev.get("text") == "hi from the stands", "room chat via chat")
    is_error(chk, c.call("say", room=room, text="let me in"), "not_in_room",
             "say in a room you are not in")
    is_error(chk, c.call("chat", room=room, text="let me in"), "not_in_room",
             "chat in a room you are not in")
    is_error(chk, a.call("say", text="y" * 501), "bad_request",
             "say over 500 bytes")
    is_ok(chk, a.call("say", text="y" * 500), "say of 500 bytes")
    a.close()
    b.close()
    c.close()


def test_moves_export(chk, srv):
    a = login(srv.port, "mx_a")
    r = a.call("create", game="stones", options={"first": 1}, bots={"2": 1})
    room = r.get("room")
    r = a.call("moves", room=room)
    if is_ok(chk, r, "moves at the start of stones"):
        chk.eq(sorted(r.get("moves", [])),
               sorted(c + d for c in "ABC" for d in "123"),
               "nine placements")
    r = a.call("moves", room=room, **{"from": "b2"})
    if is_ok(chk, r, "moves from B2"):
        chk.eq(r.get("moves"), ["B2"], "moves from one point")
    is_error(chk, a.call("moves", room=room, **{"from": "Z9"}),
             "bad_request", "moves from a bad square")
    w = a.call("create", game="ataxx").get("room")
    r = a.call("moves", room=w)
    chk.ok(r.get("ok") and r.get("moves") == [],
           "no moves while waiting: %r" % r)
    # export in each game's format
    for game, fmt, opts in [("ataxx", "position", {}),
                            ("amazons", "tablero.txt", {}),
                            ("solitaire", "board file", {}),
                            ("shifter", "level file", {"seed": 1})]:
        r = a.call("create", game=game, options=opts, **(
            {"bots": {"2": 1}} if game in ("ataxx", "amazons") else {}))
        rm = r.get("room")
        e = a.call("export", room=rm)
        if is_ok(chk, e, "export " + game):
            chk.eq(e.get("format"), fmt, "export %s format" % game)
            chk.ok(isinstance(e.get("text"), str) and e["text"],
                   "export %s text" % game)
            if fmt == "position":
                pos = r.get("state", {}).get("position")
                st = a.call("state", room=rm).get("state", {})
                chk.eq(e.get("text"), st.get("position"),
                       "export without a file format gives the position")
                chk.ok(pos is not None, "position in create")
    a.close()


def shorthand(c, line):
    """Send a shorthand line on a JSON connection: its JSON reply (with
    no id: shorthand has none)."""
    c.raw(line + "\n")
    return c.reply()


def test_shorthand(chk, srv):
    """The shorthand forms of PROTOCOL.md mean the same as their JSON."""
    a = login(srv.port, "sh_a")
    b = login(srv.port, "sh_b")
    r = shorthand(a, "create ataxx size=5 bot=3")
    if is_ok(chk, r, "create ataxx size=5 bot=3"):
        chk.ok("id" not in r, "shorthand replies have no id")
        st = r["state"]
        chk.eq(st["options"].get("size"), "5", "size=5 is an option")
        chk.eq([(x["seat"], x["name"], x["bot"]) for x in st["seats"]],
               [("white", "sh_a", None), ("black", None, 3)],
               "bot=3 fills the free seat")
    r = shorthand(a, "create amazons bots=black:2 time=300 inc=5 "
                  "private=yes")
    if is_ok(chk, r, "create amazons bots= time= inc= private="):
        st = r["state"]
        chk.eq(st.get("private"), True, "private=yes")
        chk.eq(st["seats"][1].get("bot"), 2, "bots=black:2")
        clk = st.get("clocks") or {}
        chk.ok(set(clk) == {"white", "black"} and
               all(290000 <= v <= 300000 for v in clk.values()),
               "time=300 inc=5: clocks %r" % clk)
        chk.eq(st["options"], {}, "time, inc, bots, private are not options")
    r = shorthand(a, "create stones first=1")
    room = r.get("room")
    r = shorthand(b, "rooms stones waiting")
    chk.ok(r.get("ok") and room in [x["room"] for x in r["rooms"]] and
           all(x["game"] == "stones" and x["status"] == "waiting"
               for x in r["rooms"]), "rooms stones waiting: %r" % r)
    r = shorthand(b, 'join %s "player 2"' % room)
    if is_ok(chk, r, "join with a quoted seat name"):
        chk.eq(r.get("seat"), "player 2", "quoted seat")
    r = shorthand(a, "moves b2")
    chk.ok(r.get("ok") and r.get("moves") == ["B2"], "moves b2: %r" % r)
    r = shorthand(a, "moves from=c3")
    chk.ok(r.get("ok") and r.get("moves") == ["C3"], "moves from=c3")
    is_error(chk, shorthand(a, "move b2 move=c3"), "bad_request",
             "a field given twice", ["twice"])
    is_error(chk, shorthand(a, "state foo=1"), "bad_request",
             "an unknown key", ["foo"])
    is_error(chk, shorthand(a, "join %s 1 2" % room), "bad_request",
             "too many arguments")
    is_error(chk, shorthand(a, 'say'), "bad_request", "say without text")
    is_error(chk, shorthand(a, 'create stones first="1'), "bad_request",
             "an unterminated quote", ["quote"])
    r = shorthand(a, "MOVE b2 seq=%d" % a.call("state")["state"]["seq"])
    chk.ok(r.get("ok") and r.get("move") == "B2",
           "MOVE in capitals with seq=: %r" % r)
    r = shorthand(a, "state room=%s" % room)
    chk.ok(r.get("ok") and r["state"]["room"] == room, "state room=ID")
    a.drain()
    is_ok(chk, shorthand(a, "say good game = \"fun\""), "say rest")
    ev = b.event("chat")
    chk.eq(ev.get("text") if ev else None, 'good game = \"fun\"',
           "say takes the rest of the line verbatim")
    a.drain()
    is_ok(chk, shorthand(b, "chat room=%s  two  spaces" % room),
          "chat room=ID text")
    ev = a.event("chat")
    chk.ok(ev is not None and ev.get("room") == room and
           ev.get("text") == "two  spaces", "chat room=ID: %r" % ev)
    r = shorthand(a, 'create solitaire file="3 5\\n0 0 0 0 0\\n2 2 1 2 2'
                  '\\n0 0 0 0 0\\n1 2"')
    if is_ok(chk, r, "a board file inline in quotes"):
        chk.eq(r["state"].get("board"), ["#####", "ooGoo", "#####"],
               "the inline board")
        r = shorthand(a, "move 2,1 right")
        chk.ok(r.get("ok") and r.get("move") == "2,1 right",
               "move 2,1 right: words joined by one space: %r" % r)
    a.close()
    b.close()


def main():
    a = args()
    chk = Checks()
    with Server(a.build, extra=FAST) as srv:
        run_parts(chk, [test_create, test_bots, test_private_clock,
                        test_rooms_filters, test_join_watch_leave,
                        test_current_room, test_say, test_moves_export,
                        test_shorthand], srv)
        stopped_cleanly(chk, srv)
    chk.done()



if __name__ == "__main__":
    main()
