"""test_tourney_mine.py: `mine` lists a tournament game that waits for the
player to sit down (issue 31), in JSON (with the tournament, the seat,
the opponent, pending and the seconds left, and the room's summary) and
over telnet, as the terminal client's `mine` says it; once seated, the
game is listed as any other, once. Stones games."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import (Client, lines_until, login, main_in_tmp, req,  # noqa: E402
                       server, shut, until)


def run(ck, a, tmp):
    s = server(a.build)
    ma, mb = login(s.port, "ma"), login(s.port, "mb")
    r = req(ma, "tourney", do="create", game="stones",
            options={"format": "roundrobin", "grace": "600"})
    tid = ((r or {}).get("tourney") or {}).get("id")
    for c in (ma, mb):
        req(c, "tourney", do="join", tourney=tid)
    tok_b = mb.token
    mb.close()
    r = req(ma, "tourney", do="start", tourney=tid)
    ck.ok(r and r.get("ok"), "start: %r" % (r,))
    ev = until(ma, lambda e: e.get("event") == "tourney_round")
    room = (ev or {}).get("room")
    seat_a = (ev or {}).get("seat")
    ck.ok(room is not None, "ma told of the round: %r" % (ev,))

    mb = login(s.port, "mb", tok_b)
    r = req(mb, "mine") or {}
    rooms = r.get("rooms") or []
    ck.eq(len(rooms), 1, "mine lists the waiting game: %r" % (r,))
    one = rooms[0] if rooms else {}
    ck.eq((one.get("room"), one.get("game"), one.get("tourney"),
           one.get("opponent"), one.get("pending"), one.get("your_turn"),
           one.get("round")),
          (room, "stones", tid, "ma", True, False, 1),
          "the room, the tournament, the opponent, pending")
    ck.ok(one.get("seat") in ("player 1", "player 2") and
          one.get("seat") != seat_a, "mb's own seat: %r" % (one,))
    ck.ok(isinstance(one.get("left"), (int, float)) and
          0 < one["left"] <= 600, "the seconds left: %r" % (one,))
    ck.eq(one.get("status"), "waiting", "the room's summary: %r" % (one,))

    t = Client(s.port)
    t.raw(("hello mb %s\r\n" % tok_b).encode())
    ck.ok(lines_until(t, r"mb") is not None, "telnet: mb logged in")
    t.raw(b"mine\r\n")
    m = lines_until(t, r"^  (r\d+)  stones, (.+) against ma: tournament "
                    r"(t\d+) \(join (r\d+)\)$")
    ck.ok(m is not None and m.groups() == (room, one.get("seat"), tid, room),
          "telnet's mine says it as the client does: %r"
          % (m.groups() if m else None,))

    t.close()
    mb = login(s.port, "mb", tok_b)  # the telnet login took mb's place
    r = req(mb, "join", room=room)
    ck.ok(r and r.get("ok"), "mb sits: %r" % (r,))
    r = req(mb, "mine") or {}
    rooms = r.get("rooms") or []
    ck.eq([x.get("room") for x in rooms], [room],
          "seated: listed once: %r" % (rooms,))
    ck.eq((rooms[0] if rooms else {}).get("pending"), None,
          "as a seat held, not a game waiting")
    ma2 = login(s.port, "mz")
    r = req(ma2, "mine") or {}
    ck.eq(r.get("rooms"), [], "someone else's tournament game: not listed")
    for c in (ma, mb, ma2):
        c.close()
    shut(s)


if __name__ == "__main__":
    main_in_tmp("tablero-tmine-", run)
