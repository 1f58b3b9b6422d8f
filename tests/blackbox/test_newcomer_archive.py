#!/usr/bin/env python3
"""test_newcomer_archive.py: finished games are kept (issue 13). rooms lists
waiting, playing and adjourned rooms, and finished games only when asked
(newest first, bounded); every game of a room is kept (a rematch too);
state and export work on a finished game after the server restarts, and
export gives the whole move list as a game record and the final
position; history [NAME] lists a player's finished games. A game that
ends before any move is not kept (issue 18), so each game here plays one."""

import json
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks, Server, args, is_error, is_ok, login, store_rows

# rooms ended and history list this many games at most (ARCHIVE_LIST_MAX).
LIST_MAX = 50


def ataxx_game(a, b):
    """ana and bob play two moves and ana resigns; the room."""
    room = a.call("create", game="ataxx")["room"]
    b.call("join", room=room)
    is_ok(Checks(), a.call("move", room=room, move="b6"), "")
    b.call("move", room=room, move="f6")
    a.call("resign", room=room)
    return room


def one_move(c, room):
    """c plays the first legal move in room (a game with no move is not
    kept)."""
    moves = (c.call("moves", room=room) or {}).get("moves") or ["?"]
    is_ok(Checks(), c.call("move", room=room, move=moves[0]), "")


def parse_record(text):
    """The tags and the moves of a game record."""
    tags, moves = {}, []
    head, _, body = text.partition("\n\n")
    for line in head.splitlines():
        m = re.match(r'^\[(\w+(?: \S+)?) ("(?:[^"\\]|\\.)*")\]$', line)
        if m:
            tags[m.group(1)] = json.loads(m.group(2))
    for line in body.splitlines():
        m = re.match(r"^(\d+)\. (\S+) (\S+)$", line)
        if m:
            moves.append((int(m.group(1)), m.group(2), m.group(3)))
    return tags, moves


def first_server(chk, port):
    a, b = login(port, "ar_a"), login(port, "ar_b")
    room = ataxx_game(a, b)
    a.drain()
    # a waiting room is still listed; the finished one only when asked
    waiting = a.call("create", game="ataxx")["room"]
    names = [r["room"] for r in a.call("rooms")["rooms"]]
    chk.ok(waiting in names, "rooms lists the waiting room")
    chk.ok(room not in names, "rooms leaves the finished room out: %r" %
           names)
    ended = a.call("rooms", status="ended")["rooms"]
    chk.ok(len(ended) >= 1 and ended[0]["room"] == room,
           "rooms ended lists it first: %r" % ended[:1])
    if ended:
        e = ended[0]
        chk.eq(e["status"], "ended", "status ended")
        chk.eq((e.get("result") or {}).get("winner_name"), "ar_b",
               "the result is kept")
        chk.eq(e.get("moves"), 2, "the move count is kept")
        chk.eq([s["name"] for s in e["seats"]], ["ar_a", "ar_b"],
               "the players are kept")
        chk.ok(e.get("ended_ms", 0) >= e.get("started_ms", 0) > 0,
               "the times are kept")
    # a rematch: both games kept, the newer first
    a.call("rematch", room=room)
    b.call("rematch", room=room)
    a.event("started")
    st = b.call("state", room=room)["state"]
    mover = [s["name"] for s in st["seats"] if s["seat"] == st["turn"]][0]
    who = a if mover == "ar_a" else b
    one_move(who, room)
    is_ok(chk, who.call("resign", room=room), "resign the rematch")
    ended = [r for r in a.call("rooms", status="ended")["rooms"]
             if r["room"] == room]
    chk.eq([r.get("game_no") for r in ended], [2, 1],
           "both games of the room, newest first")
    a.call("leave", room=waiting)
    a.close()
    b.close()
    return room


def second_server(chk, port, room):
    c = login(port, "ar_c")
    r = c.call("state", room=room)
    if is_ok(chk, r, "state of a finished room after a restart"):
        st = r["state"]
        chk.eq(st["status"], "ended", "state: ended")
        chk.eq(st.get("game_no"), 2, "state: the last game")
        chk.ok(st["result"] is not None, "state: the result")
    r = c.call("export", room=room)
    if is_ok(chk, r, "export of a finished room after a restart"):
        chk.ok(isinstance(r.get("position"), str) and r["position"],
               "export: the final position")
        tags, moves = parse_record(r.get("record", ""))
        chk.eq(tags.get("Room"), room, "record: the room")
        chk.eq(tags.get("Game"), "ataxx", "record: the game")
        chk.eq(tags.get("End"), r.get("position"),
               "record: the final position")
        chk.ok("wins" in tags.get("Result", ""),
               "record: the result: %r" % tags.get("Result"))
    is_error(chk, c.call("state", room="r999"), "no_such_room",
             "a room that never was")
    c.close()


def test_bound(chk, port):
    """rooms ended is bounded and newest first."""
    cs = [login(port, "bd_%d" % i) for i in range(3)]
    made = []
    for i in range(LIST_MAX + 3):
        c = cs[i % 3]
        room = c.call("create", game="solitaire")["room"]
        one_move(c, room)
        is_ok(chk, c.call("resign", room=room), "resign %s" % room)
        made.append(room)
    ended = cs[0].call("rooms", status="ended")["rooms"]
    chk.eq(len(ended), LIST_MAX, "rooms ended lists %d at most" % LIST_MAX)
    chk.eq([e["room"] for e in ended[:3]], made[::-1][:3], "newest first")
    ended = cs[0].call("rooms", game="ataxx", status="ended")
    chk.ok(all(e["game"] == "ataxx" for e in ended["rooms"]),
           "the game filter applies")
    for c in cs:
        c.close()


def test_history(chk, port):
    """history [NAME]: a player's finished games, newest first, bounded;
    private games only in one's own history; text mode lists them."""
    a, b = login(port, "hi_a"), login(port, "hi_b")
    first = ataxx_game(a, b)
    r = a.call("create", game="ataxx", private=True)
    second = r["room"]
    b.call("join", room=second)
    one_move(a, second)
    a.call("resign", room=second)
    third = a.call("create", game="solitaire")["room"]
    one_move(a, third)
    a.call("resign", room=third)
    a.drain()
    r = a.call("history")
    if is_ok(chk, r, "history"):
        chk.eq(r.get("name"), "hi_a", "history: whose")
        chk.eq([g["room"] for g in r.get("games", [])],
               [third, second, first], "history: newest first, private too")
        g = (r.get("games") or [{}])[-1]
        chk.eq((g.get("result") or {}).get("winner_name"), "hi_b",
               "history: the result")
    r = b.call("history", name="hi_a")
    chk.eq([g["room"] for g in (r or {}).get("games", [])], [third, first],
           "someone else's history: no private game")
    r = b.call("history", name="nobody_here")
    chk.eq((r or {}).get("games"), [], "no games: an empty list")
    is_error(chk, b.call("history", name="bad name!"), "bad_name",
             "history of a name that cannot be")
    # bounded
    for i in range(LIST_MAX + 1):
        room = b.call("create", game="solitaire")["room"]
        one_move(b, room)
        b.call("resign", room=room)
    r = b.call("history")
    chk.eq(len(r.get("games", [])), LIST_MAX,
           "history lists %d at most" % LIST_MAX)
    # text mode
    a.raw("mode text\nhistory\nping\n")
    out = []
    for _ in range(20):
        line = a.line()
        if line is None or line == "pong":
            break
        out.append(line)
    text = "\n".join(out)
    chk.ok("Finished games of hi_a, newest first:" in text and
           "%s #1 ataxx ended - white: hi_a, black: hi_b - black wins "
           "(resignation), 2 moves" % first in text,
           "history in text: %r" % text)
    a.close()
    b.close()


def test_live_record(chk, port):
    """export of a live game: the record holds every move so far."""
    a, b = login(port, "lr_a"), login(port, "lr_b")
    room = a.call("create", game="ataxx")["room"]
    b.call("join", room=room)
    a.call("move", room=room, move="b6")
    b.call("move", room=room, move="f6")
    a.call("move", room=room, move="a7c5")
    r = a.call("export", room=room)
    tags, moves = parse_record(r.get("record", ""))
    chk.eq(moves, [(1, "white", "b6"), (2, "black", "f6"),
                   (3, "white", "a7c5")], "record: every move")
    chk.eq(tags.get("Result"), "*", "record: the game goes on")
    chk.eq(tags.get("Start"), "x5o/7/7/7/7/7/o5x x 0 1", "record: start")
    a.close()
    b.close()


def test_kept_moves(chk, port, db):
    """The moves a game keeps (printed without a tree since issue 32's
    fourth session) are cJSON's compact JSON, member for member: seat,
    move, text, and clocks where the room has them."""
    a, b = login(port, "km_a"), login(port, "km_b")
    for clock in (None, {"initial": 60, "increment": 1}):
        fields = {"game": "ataxx"}
        if clock:
            fields["clock"] = clock
        room = a.call("create", **fields)["room"]
        b.call("join", room=room)
        a.call("move", room=room, move="b6")
        b.call("move", room=room, move="f6")
        is_ok(chk, a.call("resign", room=room), "resign %s" % room)
        rows = store_rows(db, "SELECT moves FROM games WHERE room = '%s'"
                          % room)
        text = rows[0][0] if rows else "[]"
        kept = json.loads(text)
        chk.eq(text, json.dumps(kept, separators=(",", ":"),
                                ensure_ascii=False),
               "kept moves as compact JSON (clock %r)" % clock)
        chk.eq([(m.get("seat"), m.get("move")) for m in kept],
               [("white", "b6"), ("black", "f6")],
               "the kept moves (clock %r)" % clock)
        chk.ok(all(list(m)[:3] == ["seat", "move", "text"] and
                   isinstance(m.get("text"), str) and m["text"]
                   for m in kept), "seat, move, text in order: %r" % kept)
        clocks = [m.get("clocks") for m in kept]
        if clock:
            chk.ok(all(isinstance(c, list) and len(c) == 2 and
                       all(isinstance(x, int) for x in c) for c in clocks),
                   "clocks kept with each move: %r" % clocks)
        else:
            chk.eq(clocks, [None, None], "no clocks without a clock")
    a.close()
    b.close()


def main():
    a = args()
    chk = Checks()
    tmp = tempfile.mkdtemp(prefix="tablerod-archive-")
    db = os.path.join(tmp, "t.db")
    try:
        # many games in a row: no rate limit in the way
        fast = ["--rate", "1000", "--burst", "1000"]
        with Server(a.build, db=db, extra=fast) as s:
            room = first_server(chk, s.port)
            test_live_record(chk, s.port)
            test_history(chk, s.port)
            test_kept_moves(chk, s.port, db)
        with Server(a.build, db=db, extra=fast) as s:
            second_server(chk, s.port, room)
            test_bound(chk, s.port)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    chk.done()


if __name__ == "__main__":
    main()
