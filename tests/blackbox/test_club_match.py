"""test_club_match.py: play SEEK takes a listed seek, and match NAME
[GAME ...] challenges one player, who accepts or declines (issue 31).
A taken seek or an accepted challenge makes the room and starts the
game at once (both hear paired, then started); blocks, ranges and one's
own seek are refused; one challenge waits each way; a challenge ends
when its player goes or when it expires (--challenge-expire), and the
challenger hears why; telnet reads the
challenge in words and answers it with a bare accept."""

import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import login, req, server, shut, until  # noqa: E402
from harness import Checks, args, is_error, is_ok  # noqa: E402
from test_telnet import Telnet  # noqa: E402


def ev(event, **kw):
    """A predicate: the event named event with fields kw."""
    return lambda e: e.get("event") == event and all(
        e.get(k) == v for k, v in kw.items())


def part_play(chk, port):
    ana, bob, cat, dan, eve, fay = (login(port, n) for n in
                                    ("ana", "bob", "cat", "dan", "eve",
                                     "fay"))
    try:
        sid = req(ana, "seek", game="ataxx", options={"size": 5},
                  rated=False)["seek"]["seek"]
        chk.ok(any(s["seek"] == sid for s in req(bob, "seeks")["seeks"]),
               "bob sees ana's seek")
        is_error(chk, req(ana, "play", seek=sid), "not_allowed",
                 "one's own seek", ["your own seek"])
        is_error(chk, req(bob, "play", seek="s999"), "not_allowed",
                 "no such seek")
        rep = req(bob, "play", seek=sid)
        chk.eq((rep.get("ok"), rep.get("opponent"), rep.get("seek")),
               (True, "ana", sid), "bob takes it: %r" % (rep,))
        room = rep.get("room")
        p = until(ana, ev("paired", room=room)) or {}
        chk.eq((p.get("opponent"), p.get("seek"), p.get("rated")),
               ("bob", sid, False), "ana is paired with bob, casual")
        chk.ok(until(ana, ev("started", room=room)), "ana's game starts")
        chk.ok(until(bob, ev("started", room=room)), "bob's game starts")
        st = req(bob, "state", room=room)["state"]
        chk.eq(st["options"].get("size"), "5", "the seek's options")
        chk.eq(req(bob, "seeks")["seeks"], [], "the seek is gone")
        sid = req(cat, "seek", game="ataxx", range="2000-2500")["seek"]["seek"]
        is_error(chk, req(dan, "play", seek=sid), "not_allowed",
                 "outside the seek's range", ["wants opponents rated "
                                              "2000-2500; you are 1500"])
        is_ok(chk, req(eve, "block", name="fay"), "eve blocks fay")
        sid = req(eve, "seek", game="stones")["seek"]["seek"]
        is_error(chk, req(fay, "play", seek=sid), "not_allowed",
                 "a seek of a player who blocks you")
    finally:
        for c in (ana, bob, cat, dan, eve, fay):
            c.close()


def part_match(chk, port):
    gus, ida, jo = (login(port, n) for n in ("gus", "ida", "jo"))
    hal = Telnet(port)
    try:
        hal.type("hello hal")
        chk.ok(hal.until(r"^Hello, hal\."), "hal logged in")
        is_error(chk, req(gus, "match", name="zed"), "bad_name",
                 "nobody is zed")
        is_error(chk, req(gus, "match", name="gus"), "not_allowed", "oneself")
        rep = req(gus, "match", name="hal", game="stones",
                  clock={"initial": 300, "increment": 5})
        chk.eq((rep.get("ok"), rep.get("name"), rep.get("game")),
               (True, "hal", "stones"), "gus challenges hal")
        is_error(chk, req(gus, "match", name="hal", game="ataxx"),
                 "not_allowed", "one challenge each way",
                 ["challenged hal already"])
        got = hal.until(r"challenges you")
        chk.ok(got and re.match(
            r"^gus challenges you to stones \((\w+=\w+, )*rated, 300\+5 "
            r"s\): type accept gus or decline gus \(within 60 s\)\.$",
            got[-1]), "hal reads it in words: %r" % (got[-1:],))
        hal.type("accept")
        got = hal.until(r"^You play|^error")
        chk.ok(got and got[-1].startswith("You play") and
               got[-1].endswith("against gus in room %s." %
                                got[-1].split()[-1].rstrip(".")),
               "a bare accept starts the game: %r" % (got[-1:],))
        p = until(gus, ev("paired", opponent="hal")) or {}
        chk.eq((p.get("game"), p.get("seek"), p.get("clock")),
               ("stones", None, {"initial": 300, "increment": 5}),
               "gus is paired, no seek, the clock asked for")
        chk.ok(until(gus, ev("started", room=p.get("room"))),
               "the game starts")
        is_error(chk, req(ida, "accept"), "not_allowed", "nothing to accept")
        is_ok(chk, req(ida, "match", name="jo", game="amazons"),
              "ida challenges jo")
        chk.ok(until(jo, ev("challenged", **{"from": "ida"})),
               "jo hears it")
        rep = req(jo, "decline", name="ida")
        chk.eq((rep.get("ok"), rep.get("name")), (True, "ida"), "jo declines")
        o = until(ida, ev("challenge_over", name="jo")) or {}
        chk.eq(o.get("reason"), "declined", "ida hears it was declined")
        is_error(chk, req(jo, "accept", name="ida"), "not_allowed",
                 "it is over")
        is_ok(chk, req(jo, "block", name="ida"), "jo blocks ida")
        is_error(chk, req(ida, "match", name="jo"), "not_allowed",
                 "a player who blocks you", ["one blocks the other"])
        kim = login(port, "kim")
        is_ok(chk, req(kim, "match", name="ida"), "kim challenges ida")
        kim.close()
        o = until(ida, ev("challenged", **{"from": "kim"}))
        chk.ok(o is not None, "ida was challenged")
        t0 = time.time()
        is_ok(chk, req(ida, "match", name="gus"), "ida challenges gus")
        gus.close()
        o = until(ida, ev("challenge_over", name="gus"), timeout=5) or {}
        chk.eq(o.get("reason"), "gone", "gus went: ida hears so")
        chk.ok(time.time() - t0 < 4, "within the sweep's second or two")
        is_error(chk, req(ida, "accept", name="kim"), "not_allowed",
                 "kim went: the challenge is over")
    finally:
        for c in (gus, ida, jo, hal):
            c.close()


def part_expire(chk, build):
    """A challenge not answered in --challenge-expire ends: the
    challenger hears so, and may challenge again."""
    srv = server(build, extra=["--challenge-expire", "2"])
    try:
        lea, max_ = login(srv.port, "lea"), login(srv.port, "max")
        rep = req(lea, "match", name="max", game="ataxx")
        chk.eq(rep.get("expires_in"), 2, "the flag's time is told")
        t0 = time.time()
        o = until(lea, ev("challenge_over", name="max"), timeout=6) or {}
        chk.eq(o.get("reason"), "expired", "no answer: it expires")
        chk.ok(1.5 < time.time() - t0 < 5, "after about 2 s")
        is_error(chk, req(max_, "accept"), "not_allowed", "it is over")
        is_ok(chk, req(lea, "match", name="max", game="ataxx"),
              "lea may challenge again")
        lea.close()
        max_.close()
    finally:
        shut(srv)


def main():
    a = args()
    chk = Checks()
    srv = server(a.build)
    try:
        part_play(chk, srv.port)
        part_match(chk, srv.port)
    finally:
        shut(srv)
    part_expire(chk, a.build)
    chk.done()


if __name__ == "__main__":
    main()
