"""test_tourney_notice.py: a tournament leaves nobody out (issue 31).

- A player away when a round is paired is told of the game waiting for
  them at every hello (tourney_round with pending and the seconds left),
  also after a restart, in JSON and over telnet; once seated, no more.
- The winner by forfeit is told why (tourney_result: result, reason,
  winner, a sentence), over JSON and telnet alike.
- A tournament room has no rematch (tourney_room).
- The organiser is told of each join (tourney_joined), also over telnet.
Stones games: any room ends at once by resignation.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import (WAIT, Client, lines_until, login, main_in_tmp, req,  # noqa: E402
                       server, shut, until)


def ev_is(name, tid):
    return lambda e: e.get("event") == name and e.get("tourney") == tid


def telnet(port, name, token=None):
    c = Client(port)
    c.raw(("hello %s%s\r\n" % (name, " " + token if token else "")).encode())
    return c


def make(ck, org, grace, players):
    r = req(org, "tourney", do="create", game="stones",
            options={"format": "roundrobin", "grace": str(grace)})
    tid = ((r or {}).get("tourney") or {}).get("id")
    ck.ok(tid is not None, "create: %r" % (r,))
    for p in players:
        r = req(p, "tourney", do="join", tourney=tid)
        ck.ok(r and r.get("ok"), "%s joins: %r" % (p.name, r))
    return tid


def pending(ck, a, tmp):
    """pa organises and plays; pb is away when the round is paired. pb is
    told at each hello, after a restart too, and over telnet; not once
    seated."""
    db = os.path.join(tmp, "notice.db")
    s = server(a.build, db=db)
    pa, pb = login(s.port, "pa"), login(s.port, "pb")
    tid = make(ck, pa, 600, [pa, pb])
    tok_a, tok_b = pa.token, pb.token
    pb.close()
    r = req(pa, "tourney", do="start", tourney=tid)
    ck.ok(r and r.get("ok"), "start: %r" % (r,))
    ev = until(pa, ev_is("tourney_round", tid))
    room = (ev or {}).get("room")
    ck.ok(room is not None and not ev.get("pending"),
          "pa told of round 1 as it is paired: %r" % (ev,))
    pb = login(s.port, "pb", tok_b)
    ev = until(pb, ev_is("tourney_round", tid))
    ck.ok(ev is not None, "pb, away at the pairing, is told at hello")
    ev = ev or {}
    ck.eq((ev.get("room"), ev.get("opponent"), ev.get("pending"),
           ev.get("round"), ev.get("game")),
          (room, "pa", True, 1, "stones"),
          "the reminder names the room, the opponent, and is pending")
    ck.ok(isinstance(ev.get("left"), (int, float)) and
          0 < ev["left"] <= 600, "the seconds left: %r" % (ev.get("left"),))
    pb.close()
    pa.close()
    shut(s)
    s = server(a.build, db=db)
    pb = login(s.port, "pb", tok_b)
    ev = until(pb, ev_is("tourney_round", tid))
    ck.ok(ev is not None and ev.get("pending") is True and
          ev.get("room") == room, "after a restart, told again: %r" % (ev,))
    pb.close()
    t = telnet(s.port, "pb", tok_b)
    m = lines_until(t, r"Tournament %s, round 1 of 1: your game is waiting "
                    r"for you: you play .+ against pa: type join %s "
                    r"within (\d+) s" % (tid, room))
    ck.ok(m is not None and 0 < int(m.group(1)) <= 600,
          "telnet: the reminder as a sentence")
    t.raw(("join %s\r\n" % room).encode())
    ck.ok(lines_until(t, r"%s" % room) is not None, "telnet: pb sits")
    t.close()
    pb = login(s.port, "pb", tok_b)
    rooms = [x.get("room") for x in (pb.hello or {}).get("rooms") or []]
    ck.ok(room in rooms, "seated: the room is in hello's rooms")
    pa = login(s.port, "pa", tok_a)
    ev = until(pa, ev_is("tourney_round", tid))
    ck.ok(ev is not None and ev.get("pending") is True,
          "pa, not yet seated, is told too")
    ev = until(pb, ev_is("tourney_round", tid), timeout=0.5)
    ck.ok(ev is None, "pb, seated, is not told again: %r" % (ev,))
    pa.close()
    pb.close()
    shut(s)


def forfeit(ck, port):
    """fo organises; fw (telnet) sits down, fl never comes: both hear
    why fw wins."""
    org = login(port, "fo")
    fl = login(port, "fl")
    tid = make(ck, org, 3, [fl])
    fw = telnet(port, "fw")
    ck.ok(lines_until(fw, r"fw") is not None, "telnet: fw logged in")
    fw.raw(("tourney join %s\r\n" % tid).encode())
    ck.ok(lines_until(fw, r"^Players: ") is not None, "telnet: fw joined")
    r = req(org, "tourney", do="start", tourney=tid)
    ck.ok(r and r.get("ok"), "start: %r" % (r,))
    m = lines_until(fw, r"type join (r\d+) within")
    ck.ok(m is not None, "telnet: fw told where to play")
    room = m.group(1) if m else "r0"
    fw.raw(("join %s\r\n" % room).encode())
    m = lines_until(fw, r"^Tournament %s, round 1: fl did not sit down in "
                    r"%s within 3 s: fw wins by forfeit \((1-0|0-1)\)\.$"
                    % (tid, room))
    ck.ok(m is not None, "telnet: the winner is told why")
    ev = until(fl, ev_is("tourney_result", tid), timeout=WAIT + 5)
    ev = ev or {}
    ck.eq((ev.get("room"), ev.get("reason"), ev.get("winner")),
          (room, "forfeit", "fw"), "the loser's tourney_result")
    ck.eq(ev.get("result"), m.group(1) if m else None,
          "the same result in JSON and text")
    ck.ok("did not sit down" in (ev.get("message") or ""),
          "its message: %r" % (ev.get("message"),))
    for c in (org, fl, fw):
        c.close()


def no_rematch(ck, port):
    """A tournament game played to its end: rematch is refused."""
    ra, rb = login(port, "ra"), login(port, "rb")
    tid = make(ck, ra, 600, [ra, rb])
    req(ra, "tourney", do="start", tourney=tid)
    ev = until(ra, ev_is("tourney_round", tid))
    room = (ev or {}).get("room")
    for c in (ra, rb):
        r = req(c, "join", room=room)
        ck.ok(r and r.get("ok"), "%s sits: %r" % (c.name, r))
    r = req(rb, "resign", room=room)
    ck.ok(r and r.get("ok"), "rb resigns: %r" % (r,))
    ck.ok(until(ra, lambda e: e.get("event") == "ended" and
                e.get("room") == room) is not None, "the game ended")
    for c in (ra, rb):
        r = req(c, "rematch", room=room) or {}
        ck.eq(r.get("error"), "tourney_room",
              "%s: no rematch in a tournament room: %r" % (c.name, r))
        ck.ok("tournament" in (r.get("message") or ""),
              "the message says why: %r" % (r.get("message"),))
    for c in (ra, rb):
        c.close()


def joins(ck, port):
    """The organiser (telnet, then JSON) hears of each join, not their
    own."""
    t = telnet(port, "jo")
    ck.ok(lines_until(t, r"jo") is not None, "telnet: jo logged in")
    t.raw(b"tourney create stones grace=30\r\n")
    m = lines_until(t, r"^(t\d+) stones round robin")
    tid = m.group(1) if m else "t0"
    t.raw(("tourney join %s\r\n" % tid).encode())
    ck.ok(lines_until(t, r"^Players: jo$") is not None, "telnet: jo joined")
    j1 = login(port, "j1")
    r = req(j1, "tourney", do="join", tourney=tid)
    ck.ok(r and r.get("ok"), "j1 joins")
    ck.ok(lines_until(t, r"^j1 joined your tournament %s \(2 players now\)"
                      % tid) is not None, "telnet: the organiser is told")
    t.close()
    jo = login(port, "jp")
    r = req(jo, "tourney", do="create", game="stones")
    tid = ((r or {}).get("tourney") or {}).get("id")
    req(jo, "tourney", do="join", tourney=tid)
    req(j1, "tourney", do="join", tourney=tid)
    ev = until(jo, ev_is("tourney_joined", tid))
    ck.eq(((ev or {}).get("name"), (ev or {}).get("nplayers")), ("j1", 2),
          "tourney_joined names who joined and the count")
    ck.ok(not any(e.get("event") == "tourney_joined" and
                  e.get("name") == "jp" for e in jo.log),
          "the organiser is not told of their own join")
    jo.close()
    j1.close()


def run(ck, a, tmp):
    s = server(a.build)
    joins(ck, s.port)
    no_rematch(ck, s.port)
    forfeit(ck, s.port)
    shut(s)
    pending(ck, a, tmp)


if __name__ == "__main__":
    main_in_tmp("tablero-tnotice-", run)
