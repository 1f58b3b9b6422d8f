"""test_protocol_session.py: the connection-level protocol of tablerod over
real sockets: the welcome, hello with names and tokens (bad_name,
name_taken, bad_token, not_allowed, replaced), what is allowed before hello
(not_logged_in), ids echoed verbatim, the decoder's errors (bad_json,
bad_request, unknown_cmd), games, help, ping, who, lobby chat, mode and
quit.
"""

import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import (Checks, Client, Server, args, login,  # noqa: E402
                     is_error, is_ok, run_parts, stopped_cleanly)

# Every verb of the protocol, as help must list them.
VERBS = ["hello", "games", "rooms", "create", "join", "watch", "leave",
         "state", "moves", "move", "resign", "draw", "takeback",
         "undo", "restart",
         "next", "hint", "rematch", "claim", "export", "history", "chat",
         "say", "tell", "invite", "who", "ping", "quit", "mode", "help"]
VERBS += ["finger", "ratings"]  # issue 22: ratings and profiles
VERBS += ["tourney"]  # issue 22: tournaments
VERBS += ["password"]  # issue 31: accounts (test_accounts.py)

# Functional tests send quickly: keep the rate limit out of their way.
FAST = ["--rate", "100000", "--burst", "100000"]

# Issue 22's seeks (seek, seeks, unseek: tests/blackbox/test_seeks.py).
VERBS += ["seek", "seeks", "unseek"]
# Issue 30's blocks and operators (test_social_block.py, test_moderate.py).
VERBS += ["block", "unblock", "blocks", "kick", "mute", "unmute", "ban",
          "unban", "bans", "announce"]
# Issue 31's club (test_club_*.py, test_telnet_club.py).
VERBS += ["mine", "message", "match", "accept", "decline", "play"]


def raw_reply(c, line):
    """Send one raw line; the next line back (raw text), as the server
    wrote it."""
    c.raw(line + "\n")
    return c.line()


def closed(c, timeout=5.0):
    """True when the server closes c (everything before is discarded)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            if c.line(max(0.01, deadline - time.time())) is None:
                return True
        except TimeoutError:
            return False
    return False


def no_underscore(msg):
    """True when no member at any depth has a name starting with '_'."""
    if isinstance(msg, dict):
        return all(not k.startswith("_") and no_underscore(v)
                   for k, v in msg.items())
    if isinstance(msg, list):
        return all(no_underscore(v) for v in msg)
    return True


def test_welcome(chk, srv):
    c = Client(srv.port)
    w = c.welcome
    chk.eq(w.get("event"), "welcome", "welcome event")
    chk.eq(w.get("server"), "tablerod", "welcome server")
    chk.eq(w.get("version"), "0.1.0", "welcome version")
    chk.eq(w.get("proto"), 1, "welcome proto")
    chk.ok("hello" in w.get("hint", ""), "welcome hint says hello: %r" % w)
    chk.ok("room" not in w and "seq" not in w, "welcome has no room/seq")
    c.close()


def test_before_hello(chk, srv):
    c = Client(srv.port)
    is_ok(chk, c.call("games"), "games before hello")
    r = c.call("ping")
    is_ok(chk, r, "ping before hello")
    is_ok(chk, c.call("help"), "help before hello")
    is_ok(chk, c.call("mode", mode="json"), "mode before hello")
    for cmd, fields in [("create", {"game": "stones"}),
                        ("join", {"room": "r1"}),
                        ("chat", {"text": "hi"})]:
        r = c.call(cmd, **fields)
        is_error(chk, r, "not_logged_in", cmd + " before hello", ["hello"])
        chk.eq(r.get("re"), cmd, cmd + " before hello: re")
    # Reading and watching need no name (an anonymous guest, section 5);
    # the playing verbs stay refused after them.
    is_ok(chk, c.call("rooms"), "rooms before hello")
    is_ok(chk, c.call("who"), "who before hello")
    is_error(chk, c.call("watch", room="r1"), "no_such_room",
             "watch before hello reaches the room check")
    # A guest may play a bot (issue 31): move reaches the room check too.
    is_error(chk, c.call("move", room="r1", move="A1"), "no_such_room",
             "move before hello reaches the room check")
    r = c.call("create", game="stones")
    is_error(chk, r, "not_logged_in", "create as a guest", ["hello"])
    # quit is allowed before hello: reply, then close
    r = c.call("quit")
    is_ok(chk, r, "quit before hello")
    chk.ok(closed(c), "quit closes the connection")
    c.close()


def test_hello(chk, srv):
    c = Client(srv.port)
    r = c.call("hello", name="ana")
    if not is_ok(chk, r, "hello ana"):
        return
    chk.eq(r.get("re"), "hello", "hello re")
    chk.eq(r.get("name"), "ana", "hello name")
    tok = r.get("token")
    chk.ok(isinstance(tok, str) and re.fullmatch(r"[0-9a-f]{32}", tok or ""),
           "token is 32 hex characters: %r" % tok)
    chk.eq(r.get("new"), True, "first hello is new")
    chk.eq(r.get("rooms"), [], "no rooms yet")
    is_error(chk, c.call("hello", name="ana2"), "not_allowed",
             "hello twice on one connection")
    is_error(chk, c.call("hello", name="ana", token=tok), "not_allowed",
             "hello again with the token on the same connection")

    # The name is registered now: without the token it is taken.
    d = Client(srv.port)
    is_error(chk, d.call("hello", name="ana"), "name_taken",
             "hello ana without token", ["hello ana"])
    is_error(chk, d.call("hello", name="ana", token="0" * 32), "bad_token",
             "hello ana with a wrong token")
    is_error(chk, d.call("hello", name="nobody7", token="0" * 32),
             "bad_token", "hello with a token for an unknown name")
    # The failed hellos did not log d in.
    is_error(chk, d.call("chat", text="hi"), "not_logged_in",
             "after failed hellos")

    # Right token: d takes over; c hears "replaced" and is closed.
    r = d.call("hello", name="ana", token=tok)
    if is_ok(chk, r, "hello ana with the token"):
        chk.eq(r.get("new"), False, "hello with token is not new")
        chk.eq(r.get("token"), tok, "hello with token: the reply has the token")
        chk.eq(r.get("rooms"), [], "hello with token: rooms")
        chk.eq(r.get("name"), "ana", "hello with token: name")
    ev = c.event("replaced")
    chk.ok(ev is not None, "old connection gets replaced")
    if ev is not None:
        chk.ok("room" not in ev and "seq" not in ev, "replaced: no room/seq")
    chk.ok(closed(c), "replaced connection is closed")
    is_ok(chk, d.call("ping"), "new connection serves")
    c.close()
    d.close()


def test_names(chk, srv):
    c = Client(srv.port)
    for bad in ["", "a" * 17, "an a", "ana!", "\u00f1andu", "a/b", "a.b",
                "a\u0301"]:
        is_error(chk, c.call("hello", name=bad), "bad_name",
                 "bad name %r" % bad)
    r = c.call("hello", name="A_b-9" + "x" * 11)
    is_ok(chk, r, "16-character name of letters, digits, _ and -")
    c.close()
    # the shortest name
    d = Client(srv.port)
    is_ok(chk, d.call("hello", name="Z"), "one-character name")
    d.close()


def test_ids(chk, srv):
    c = Client(srv.port)
    big = "123456789012345678901234567890"
    cases = [("7", 7), ('"abc"', "abc"), (big, int(big)), ("-5", -5),
             ("0", 0), ('"x\\"y\\u00e9"', 'x"y\u00e9'),
             ('""', ""), ('"12"', "12")]
    for raw, val in cases:
        line = raw_reply(c, '{"cmd":"ping","id":%s}' % raw)
        m = json.loads(line)
        chk.eq(m.get("id"), val, "id %s echoed" % raw)
        chk.ok('"id":%s' % raw in line.replace(" ", ""),
               "id %s echoed verbatim in %r" % (raw, line))
        chk.eq(type(m.get("id")), type(val), "id %s keeps its type" % raw)
    line = raw_reply(c, '{"cmd":"ping"}')
    m = json.loads(line)
    is_ok(chk, m, "ping without id")
    chk.ok("id" not in m or m["id"] is None, "no id, none echoed: %r" % m)
    # ids in error replies too
    m = json.loads(raw_reply(c, '{"cmd":"frobnicate","id":%s}' % big))
    is_error(chk, m, "unknown_cmd", "unknown cmd with big id")
    chk.eq(m.get("id"), int(big), "error echoes the big id")
    chk.eq(m.get("re"), "frobnicate", "error echoes the cmd")
    m = json.loads(raw_reply(c, '{"id":"q9","cmd":"chat","text":"x"}'))
    is_error(chk, m, "not_logged_in", "id before cmd")
    chk.eq(m.get("id"), "q9", "id before cmd echoed")
    # ids that are neither string nor integer
    for raw in ["1.5", "1e3", "true", "{}", "[1]"]:
        m = json.loads(raw_reply(c, '{"cmd":"ping","id":%s}' % raw))
        is_error(chk, m, "bad_request", "id %s" % raw, ["id"])
    # blank lines get no reply
    c.raw('\n\n   \n\t\r\n{"cmd":"ping","id":"after-blanks"}\n')
    m = c.reply()
    chk.eq(m.get("id") if m else None, "after-blanks",
           "blank lines are ignored, the next request answered")
    # a NUL byte: bad_json in a JSON line, bad_request in a shorthand one
    c.raw(b'{"cmd":"ping","id":1}\x00\n')
    m = c.reply()
    is_error(chk, m, "bad_json", "NUL byte in a JSON line")
    c.raw(b'ping\x00\n')
    m = c.reply()
    is_error(chk, m, "bad_request", "NUL byte in a shorthand line")
    # the reply order follows the request order
    c.raw("".join('{"cmd":"ping","id":%d}\n' % i for i in range(20)))
    got = [c.reply().get("id") for _ in range(20)]
    chk.eq(got, list(range(20)), "replies in request order")
    c.close()


def test_decoder_errors(chk, srv):
    c = login(srv.port, "dec")
    for line in ['{"cmd":"ping"', '{cmd:"ping"}', '{"cmd":"ping"} x',
                 '{"cmd":"ping",}', '{"cmd":"ping","text":"\\u0000"}',
                 '{"cmd":"chat","text":"a\\u0000b"}',
                 '{"cmd":"ping","a":' + "[" * 40 + "]" * 40 + "}",
                 '{"cmd":"ping","id":1', "{", '{"cmd":"ping" "id":1}']:
        m = json.loads(raw_reply(c, line))
        is_error(chk, m, "bad_json", "bad json %r" % line[:40])
    # not an object, missing or wrong-typed fields: bad_request naming them
    for line, word in [('{"id":1}', "cmd"), ('{"cmd":5}', "cmd"),
                       ('{"cmd":null}', "cmd"),
                       ('{"cmd":"hello","name":5}', "name"),
                       ('{"cmd":"create"}', "game"),
                       ('{"cmd":"create","game":7}', "game"),
                       ('{"cmd":"create","game":"stones","private":"yes"}',
                        "private"),
                       ('{"cmd":"create","game":"stones","options":[1]}',
                        "options"),
                       ('{"cmd":"create","game":"stones",'
                        '"options":{"first":[1]}}', "first"),
                       ('{"cmd":"create","game":"stones",'
                        '"clock":{"initial":0}}', "initial"),
                       ('{"cmd":"create","game":"stones",'
                        '"clock":{"initial":10,"increment":-1}}',
                        "increment"),
                       ('{"cmd":"create","game":"stones","bots":{"2":9}}',
                        "bots"),
                       ('{"cmd":"move","room":"r1"}', "move"),
                       ('{"cmd":"move","room":"r1","move":"A1","seq":"x"}',
                        "seq"),
                       ('{"cmd":"move","room":"r1","move":"A1","seq":-1}',
                        "seq"),
                       ('{"cmd":"move","room":5,"move":"A1"}', "room"),
                       ('{"cmd":"chat"}', "text"),
                       ('{"cmd":"draw","action":"maybe"}', "action"),
                       ('{"cmd":"draw"}', "action"),
                       ('{"cmd":"mode","mode":"xml"}', "mode"),
                       ('{"cmd":"rooms","status":"sleeping"}', "status"),
                       ('{"cmd":"join","room":"r1","seat":0}', "seat"),
                       ('{"cmd":"hello","name":"x","proto":2}', "protocol")]:
        m = json.loads(raw_reply(c, line))
        is_error(chk, m, "bad_request", "bad request %s" % line, [word])
        if m.get("id") is not None:
            chk.eq(m.get("id"), 1, "bad request echoes the id")
    m = json.loads(raw_reply(c, '[1,2]'))
    chk.ok(m.get("ok") is False and m.get("error") in
           ("unknown_cmd", "bad_request"), "an array line is refused: %r" % m)
    for line in ['{"cmd":"frobnicate"}', '{"cmd":"HELLO","name":"x"}',
                 '{"cmd":""}']:
        m = json.loads(raw_reply(c, line))
        is_error(chk, m, "unknown_cmd", "unknown cmd %s" % line)
    m = json.loads(raw_reply(c, "frobnicate now please"))
    is_error(chk, m, "unknown_cmd", "unknown shorthand verb")
    chk.eq(m.get("re"), "frobnicate", "unknown shorthand echoes the verb")
    # extra fields are ignored
    m = json.loads(raw_reply(c, '{"cmd":"ping","zzz":[1,{"a":2}],"id":3}'))
    is_ok(chk, m, "unknown extra fields are ignored")
    # every error above left the connection usable
    is_ok(chk, c.call("ping"), "still served after decoder errors")
    c.close()


def test_games(chk, srv):
    c = Client(srv.port)
    r = c.call("games")
    if not is_ok(chk, r, "games"):
        return
    games = {g.get("name"): g for g in r.get("games", [])}
    chk.eq(sorted(games), sorted(["amazons", "ataxx", "stones", "solitaire",
                                  "shifter"]), "the five games")
    seats = {"amazons": 2, "ataxx": 2, "stones": 2, "solitaire": 1,
             "shifter": 1}
    for name, g in games.items():
        for k in ["name", "title", "seats", "seat_names", "options",
                  "notation", "file_format"]:
            chk.ok(k in g, "games %s has %s" % (name, k))
        chk.eq(g.get("seats"), seats.get(name), "games %s seats" % name)
        # draw offers: two-player games but Amazons (no draws)
        chk.eq(g.get("draw_offers"), seats.get(name) == 2 and
               name != "amazons", "games %s draw_offers" % name)
        chk.eq(len(g.get("seat_names", [])), seats.get(name),
               "games %s seat_names" % name)
        chk.ok(isinstance(g.get("title"), str) and g.get("title"),
               "games %s title" % name)
        chk.ok(isinstance(g.get("notation"), str) and g.get("notation"),
               "games %s notation" % name)
        for o in g.get("options", []):
            what = "games %s option %s" % (name, o.get("name"))
            chk.ok(o.get("type") in ("int", "choice", "text"), what + " type")
            chk.ok("default" in o and "help" in o, what + " default, help")
            if o.get("type") == "int":
                chk.ok(isinstance(o.get("min"), int) and
                       isinstance(o.get("max"), int) and
                       o["min"] <= o["max"], what + " min <= max")
            if o.get("type") == "choice":
                chk.ok(isinstance(o.get("choices"), list) and o["choices"],
                       what + " choices")
    if "ataxx" in games:
        size = [o for o in games["ataxx"]["options"] if o["name"] == "size"]
        chk.ok(size and size[0]["min"] == 5 and size[0]["max"] == 9,
               "ataxx size 5..9: %r" % size)
    if "stones" in games:
        first = [o for o in games["stones"]["options"]
                 if o["name"] == "first"]
        chk.ok(first and set(first[0]["choices"]) == {"1", "2", "random"},
               "stones first choices: %r" % first)
    c.close()


def test_help_ping(chk, srv):
    c = Client(srv.port)
    r = c.call("help")
    if is_ok(chk, r, "help"):
        verbs = r.get("verbs", [])
        names = [v.get("verb") for v in verbs]
        chk.eq(sorted(names), sorted(VERBS), "help lists every verb")
        chk.ok(all(isinstance(v.get("shorthand"), str) and v["shorthand"] and
                   isinstance(v.get("summary"), str) and v["summary"]
                   for v in verbs), "each verb has shorthand and summary")
    r = c.call("ping")
    if is_ok(chk, r, "ping"):
        chk.eq(r.get("pong"), True, "pong")
        t = r.get("time")
        chk.ok(isinstance(t, int) and abs(t - time.time() * 1000) < 86400e3,
               "ping time is ms since the epoch: %r" % t)
    c.close()


def test_who_chat(chk, srv):
    a = login(srv.port, "wa")
    b = login(srv.port, "wb")
    anon = Client(srv.port)
    r = a.call("create", game="stones")
    room = r.get("room") if r else None
    r = a.call("who")
    if is_ok(chk, r, "who"):
        players = {p.get("name"): p.get("rooms") for p in r.get("players", [])}
        chk.ok("wa" in players and "wb" in players, "who lists wa and wb")
        chk.eq(players.get("wa"), [room], "who: wa's rooms")
        chk.eq(players.get("wb"), [], "who: wb's rooms")
    a.drain()
    b.drain()
    r = a.call("chat", text="hello lobby \u00e9")
    is_ok(chk, r, "lobby chat")
    for who, c in (("wa", a), ("wb", b)):
        ev = c.event("chat")
        chk.ok(ev is not None and ev.get("from") == "wa" and
               ev.get("text") == "hello lobby \u00e9",
               "%s gets the lobby chat: %r" % (who, ev))
        if ev is not None:
            chk.ok("room" not in ev and "seq" not in ev,
                   "lobby chat has no room and no seq: %r" % ev)
    chk.ok(anon.event("chat", timeout=0.3) is None,
           "a connection without hello gets no lobby chat")
    is_ok(chk, a.call("chat", text="x" * 500), "chat of 500 bytes")
    is_error(chk, a.call("chat", text=""), "bad_request", "empty chat")
    is_error(chk, a.call("chat", text="x" * 501), "bad_request",
             "chat of 501 bytes")
    is_error(chk, a.call("chat", text="\u00e9" * 251), "bad_request",
             "chat of 502 bytes in 251 characters")
    a.close()
    b.close()
    anon.close()


def test_mode(chk, srv):
    c = login(srv.port, "modey")
    # A JSON connection stays JSON for shorthand lines.
    m = json.loads(raw_reply(c, "ping"))
    is_ok(chk, m, "shorthand ping on a JSON connection answers JSON")
    chk.eq(m.get("re"), "ping", "shorthand ping re")
    c.raw('{"cmd":"mode","mode":"text","id":1}\n')
    line = c.line()
    chk.ok(not line.startswith("{") and "text" in line.lower(),
           "mode text: its reply is text already: %r" % line)
    c.raw('{"cmd":"ping","id":2}\n')
    line = c.line()
    chk.eq(line.strip(), "pong", "JSON ping in text mode answers text")
    c.raw('{"cmd":"frobnicate"}\n')
    line = c.line()
    chk.ok(line.startswith("error (unknown_cmd)"),
           "errors in text mode: %r" % line)
    c.raw("mode json\n")
    m = json.loads(c.line())
    is_ok(chk, m, "mode json: reply in JSON")
    chk.eq(m.get("mode"), "json", "mode json: mode")
    chk.eq(m.get("re"), "mode", "mode json: re")
    # a text connection from the first line on
    t = Client(srv.port)
    t.raw("ping\n")
    # a person's first shorthand line is greeted in words first (issue 21)
    chk.ok(t.line().startswith("Welcome to tablerod "),
           "first shorthand line: the greeting in words")
    chk.eq(t.line().strip(), "pong", "first shorthand line sets text mode")
    t.raw('{"cmd":"ping"}\n')
    chk.eq(t.line().strip(), "pong", "later JSON lines stay text")
    c.close()
    t.close()


def test_json_clean(chk, srv):
    """JSON output never carries '_' fields (text-mode pictures)."""
    a = login(srv.port, "cleana")
    b = login(srv.port, "cleanb")
    r = a.call("create", game="stones", options={"first": 1})
    room = r.get("room")
    b.call("join", room=room)
    a.call("move", move="A1")
    msgs = a.drain() + b.drain() + [r, a.call("state")]
    chk.ok(any(m.get("event") == "moved" for m in msgs), "saw a moved event")
    chk.ok(any(m.get("event") == "started" for m in msgs),
           "saw a started event")
    chk.ok(all(no_underscore(m) for m in msgs),
           "no '_' field in any JSON message")
    a.close()
    b.close()


def main():
    a = args()
    chk = Checks()
    with Server(a.build, extra=FAST) as srv:
        run_parts(chk, [test_welcome, test_before_hello, test_hello,
                        test_names, test_ids, test_decoder_errors,
                        test_games, test_help_ping, test_who_chat,
                        test_mode, test_json_clean], srv)
        stopped_cleanly(chk, srv)
    chk.done()



if __name__ == "__main__":
    main()
