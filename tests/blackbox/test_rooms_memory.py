"""test_rooms_memory.py: only live rooms stay in memory. A finished room
leaves once nobody is in it (players left or offline, no watcher) or once
--keep-ended has passed; a rematch keeps it; rooms are found by id among
many (the index grows past its first size).
"""

import time

import harness
from harness import Checks, Client, Server, is_error, is_ok, login

# Bound on waiting for something the server does on its own.
PATIENCE = 20.0


def gone(c, room):
    """Poll moves ROOM until no_such_room (bounded); True when it came.
    (state of a finished room that left memory comes from the store.)"""
    deadline = time.time() + PATIENCE
    while time.time() < deadline:
        r = c.call("moves", room=room)
        if r is not None and r.get("error") == "no_such_room":
            return True
        time.sleep(0.1)
    return False


def duel(chk, port, tag):
    """Two players in a started Stones room: (a, b, room)."""
    a = login(port, tag + "a")
    b = login(port, tag + "b")
    r = a.call("create", game="stones")
    is_ok(chk, r, tag + ": create")
    room = r["room"]
    is_ok(chk, b.call("join", room=room), tag + ": join")
    return a, b, room


def test_last_member_leaves(chk, port):
    a, b, room = duel(chk, port, "lm")
    is_ok(chk, a.call("resign", room=room), "lm: resign")
    st = b.call("state", room=room)
    if is_ok(chk, st, "lm: state after the end"):
        chk.eq(st["state"]["status"], "ended", "lm: the room is ended")
    is_ok(chk, b.call("leave", room=room), "lm: b leaves")
    st = a.call("state", room=room)
    is_ok(chk, st, "lm: a is still in the room: it stays")
    is_ok(chk, a.call("leave", room=room), "lm: a leaves")
    chk.ok(gone(b, room), "lm: the room left memory once nobody was in it")
    is_error(chk, b.call("join", room=room), "no_such_room",
             "lm: join a retired room")
    a.close()
    b.close()


def test_members_go_offline(chk, port):
    a, b, room = duel(chk, port, "off")
    is_ok(chk, b.call("resign", room=room), "off: resign")
    w = login(port, "offw")
    is_ok(chk, w.call("watch", room=room), "off: watch the finished room")
    a.close()
    b.close()
    time.sleep(0.3)
    is_ok(chk, w.call("state", room=room), "off: a watcher keeps it")
    is_ok(chk, w.call("leave", room=room), "off: the watcher leaves")
    chk.ok(gone(w, room), "off: offline players and no watcher: it left")
    w.close()


def test_bot_game_alone(chk, port):
    a = login(port, "bga")
    r = a.call("create", game="stones", bots={"1": 1, "2": 1})
    if not is_ok(chk, r, "bga: create a bot game"):
        return
    room = r["room"]
    a.close()
    w = login(port, "bgw")
    chk.ok(gone(w, room),
           "bga: a bot game nobody watches leaves memory once it ends")
    w.close()


def test_keep_time(chk, build):
    with Server(build, extra=["--keep-ended", "1"]) as srv:
        a, b, room = duel(chk, srv.port, "kt")
        is_ok(chk, a.call("resign", room=room), "kt: resign")
        chk.ok(gone(a, room), "kt: --keep-ended 1: gone while both stay")
        is_error(chk, a.call("state"), "bad_request",
                 "kt: the retired room is no one's current room")
        r = a.call("create", game="stones")
        is_ok(chk, r, "kt: the player can create again")
        a.close()
        b.close()


def test_rematch_keeps(chk, build):
    with Server(build, extra=["--keep-ended", "1"]) as srv:
        a, b, room = duel(chk, srv.port, "rk")
        is_ok(chk, a.call("resign", room=room), "rk: resign")
        is_ok(chk, a.call("rematch", room=room), "rk: a asks")
        is_ok(chk, b.call("rematch", room=room), "rk: b agrees")
        time.sleep(1.5)
        st = a.call("state", room=room)
        if is_ok(chk, st, "rk: the rematch keeps the room"):
            chk.eq(st["state"]["status"], "playing", "rk: playing again")
        a.close()
        b.close()


def test_many_rooms(chk, build):
    """More rooms than the index's first buckets: each found by its id."""
    n = 1100
    with Server(build, extra=["--rate", "100000", "--burst", "100000",
                              "--max-rooms-per-player", "1000"]) as srv:
        cs = [login(srv.port, "mr%d" % i) for i in range(2)]
        ids = []
        for i in range(n):
            r = cs[i % 2].call("create", game="stones")
            if r is None or not r.get("ok"):
                chk.ok(False, "mr: create %d: %r" % (i, r))
                break
            ids.append(r["room"])
        chk.eq(len(set(ids)), n, "mr: distinct rooms made")
        bad = [i for i in ids[::37] + ids[-3:]
               if (cs[0].call("state", room=i) or {}).get("state", {})
               .get("room") != i]
        chk.eq(bad, [], "mr: each room found by its id")
        is_error(chk, cs[0].call("state", room="r999999"), "no_such_room",
                 "mr: an unknown id")
        who = cs[1].call("who")
        mine = [p for p in (who or {}).get("players", [])
                if p.get("name") == "mr1"]
        chk.eq(len(mine[0]["rooms"]) if mine else -1, n // 2,
               "mr: who lists each player's own rooms")
        for c in cs:
            c.close()


def main():
    a = harness.args()
    chk = Checks()
    with Server(a.build) as srv:
        test_last_member_leaves(chk, srv.port)
        test_members_go_offline(chk, srv.port)
        test_bot_game_alone(chk, srv.port)
    test_keep_time(chk, a.build)
    test_rematch_keeps(chk, a.build)
    test_many_rooms(chk, a.build)
    chk.done()


if __name__ == "__main__":
    main()
