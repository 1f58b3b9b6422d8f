"""test_seeks.py: seek, seeks and unseek (issue 22, seeks). Two compatible
seeks (same game and options, defaults counted; same clock; both rated or
both casual; each player inside the other's range) make a room at once:
both players hear `paired`, are seated, and the game starts and is played
to the end. Seeks that differ in any of these do not pair. unseek
withdraws one or all; the limits per player; bad seeks are refused with
the rules' words; a seek waits unlisted while its player is away within
the grace and pairs when they are back, ends past the grace, at quit, and
when the player starts another two-player game; --max-seeks bounds the
pool. Text mode renders the
verbs and the event. Seeks are stored: after kill -9 or SIGTERM each
waits for its player for the grace from the restart, comes back with its
id and pairs; one whose player stays away ends and its row goes;
ids are never given out twice, across a restart too; --copy-db carries
them."""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import (Checks, absorb, done, login, play_out, req,  # noqa
                       seeded, server, shut, until)
import harness  # noqa: E402
from harness import Client, args, is_error, is_ok  # noqa: E402
from test_telnet import Telnet  # noqa: E402

# The grace the server is started with: short, so the test can outlast it.
GRACE = 2


def ids(rep):
    """The ids of a seeks (or unseek) reply's list."""
    return [s["seek"] for s in (rep or {}).get("seeks", [])]


def paired(c):
    """c's paired event, or None."""
    return until(c, lambda e: e.get("event") == "paired", timeout=2)


def test_no_pair(chk, srv):
    """Every way two seeks differ keeps them apart; a matching one pairs."""
    ana = login(srv.port, "ana")
    r = req(ana, "seek", game="ataxx", clock={"initial": 60, "increment": 1})
    is_ok(chk, r, "ana seeks ataxx 60+1 (rated by default)")
    s = r.get("seek") or {}
    chk.eq((s.get("game"), s.get("options"), s.get("rated"),
            s.get("clock"), s.get("range"), s.get("rating"), r.get("room")),
           ("ataxx", {"size": "7"}, True, {"initial": 60, "increment": 1},
            None, 1500, None),
           "the seek: defaults filled in, rated, the clock, no room yet")
    others = [
        ("bob", dict(game="amazons", clock={"initial": 60, "increment": 1}),
         "another game"),
        ("bob", dict(game="ataxx", options={"size": 5},
                     clock={"initial": 60, "increment": 1}),
         "other options"),
        ("bob", dict(game="ataxx", clock={"initial": 60, "increment": 2}),
         "another clock"),
        ("cid", dict(game="ataxx"), "untimed"),
        ("cid", dict(game="ataxx", rated=False,
                     clock={"initial": 60, "increment": 1}), "casual"),
        ("cid", dict(game="ataxx", range="1600-1800",
                     clock={"initial": 60, "increment": 1}),
         "ana (1500) out of the range"),
    ]
    people = {}
    for name, fields, what in others:
        c = people.get(name) or login(srv.port, name)
        people[name] = c
        r = req(c, "seek", **fields)
        is_ok(chk, r, "seek with %s" % what)
        chk.eq(r.get("room"), None, "%s: no pairing" % what)
    chk.eq(paired(ana), None, "ana was paired with none of them")
    lst = req(people["bob"], "seeks")
    chk.eq(len(lst.get("seeks", [])), 7, "seeks lists all seven")
    chk.eq(lst["seeks"][0]["name"], "cid", "newest first")
    chk.eq(len(req(ana, "seeks", game="amazons").get("seeks", [])), 1,
           "seeks GAME lists that game's")

    dan = login(srv.port, "dan")
    r = req(dan, "seek", game="ataxx", options={"size": 7},
            clock={"initial": 60, "increment": 1}, rated=True,
            range="1400-1600")
    is_ok(chk, r, "dan seeks what ana seeks, size=7 spelled out")
    room = r.get("room")
    chk.ok(room is not None and r.get("opponent") == "ana",
           "dan is paired with ana at once: %r" % r)
    ev_a, ev_d = paired(ana) or {}, paired(dan) or {}
    chk.eq((ev_a.get("room"), ev_a.get("opponent"), ev_a.get("rated"),
            ev_a.get("clock")),
           (room, "dan", True, {"initial": 60, "increment": 1}),
           "ana's paired event")
    chk.eq((ev_d.get("room"), ev_d.get("opponent"), ev_d.get("seat")),
           (room, "ana", r.get("seat")), "dan's paired event")
    chk.ok({ev_a.get("seat"), ev_d.get("seat")} == {"black", "white"},
           "one seat each: %r %r" % (ev_a.get("seat"), ev_d.get("seat")))
    for c in (ana, dan):
        st = until(c, lambda e: e.get("event") == "started"
                   and e.get("room") == room)
        chk.ok(st is not None, "%s hears the game start" % c.name)
    st = req(ana, "state", room=room).get("state", {})
    chk.eq((st.get("status"), st.get("clock")),
           ("playing", {"initial": 60, "increment": 1}),
           "the room plays with the seeks' clock")
    names = {s["name"] for s in st.get("seats", [])}
    chk.eq(names, {"ana", "dan"}, "both are seated")
    chk.ok(not [s for s in req(ana, "seeks")["seeks"]
                if s["name"] in ("ana", "dan")],
           "their seeks left the pool")
    for c in list(people.values()):
        req(c, "unseek")
    return ana, dan, room


def test_play_to_end(chk, srv):
    """A paired game on a small board, played to its end."""
    eli = login(srv.port, "eli")
    fay = login(srv.port, "fay")
    is_ok(chk, req(eli, "seek", game="ataxx", options={"size": 5},
                   rated=False), "eli seeks casual ataxx 5x5")
    r = req(fay, "seek", game="ataxx", options={"size": 5}, rated=False)
    room = r.get("room")
    chk.ok(room is not None, "fay meets eli")
    paired(eli)
    st = req(eli, "state", room=room)["state"]
    seats = {}
    for s in st["seats"]:
        seats[s["seat"]] = eli if s["name"] == "eli" else fay
    play_out(chk, "paired game", room, seats, seeded(22), 600)
    end = until(eli, lambda e: e.get("event") == "ended"
                and e.get("room") == room)
    chk.ok(end is not None, "the paired game ended: %r" %
           ((end or {}).get("result"),))
    eli.close()
    fay.close()


def test_verbs(chk, srv):
    """unseek, the limits, and bad seeks."""
    gus = login(srv.port, "gus")
    ivy = login(srv.port, "ivy")
    a = req(gus, "seek", game="amazons").get("seek", {}).get("seek")
    b = req(gus, "seek", game="stones").get("seek", {}).get("seek")
    c = req(gus, "seek", game="ataxx", options={"size": 9}).get(
        "seek", {}).get("seek")
    chk.ok(None not in (a, b, c), "three seeks")
    is_error(chk, req(gus, "seek", game="shifter"), "limit_reached",
             "a fourth seek", ["3 open seeks"])
    is_error(chk, req(ivy, "unseek", seek=a), "not_allowed",
             "unseek of someone else's seek")
    r = req(gus, "unseek", seek=b)
    is_ok(chk, r, "unseek one")
    chk.eq((r.get("removed"), ids(r)), ([b], [a, c]),
           "the one withdrawn, the others still open")
    is_error(chk, req(gus, "seek", game="amazons"), "not_allowed",
             "the same seek twice", [a])
    r = req(gus, "unseek")
    chk.eq((sorted(r.get("removed", [])), ids(r)), (sorted([a, c]), []),
           "unseek withdraws all")
    chk.eq(req(ivy, "seeks").get("seeks"), [], "the pool is empty")
    is_error(chk, req(gus, "seek", game="solitaire"), "bad_options",
             "a one-player game", ["one-player"])
    is_error(chk, req(gus, "seek", game="chess"), "no_such_game",
             "no such game")
    is_error(chk, req(gus, "seek", game="ataxx", options={"size": 12}),
             "bad_options", "options the rules refuse", ["size"])
    is_error(chk, req(gus, "seek", game="ataxx", options={"colour": "x"}),
             "bad_options", "an option the game lacks")
    is_error(chk, req(gus, "seek", game="amazons",
                      options={"position": "x"}),
             "bad_options", "no position in a seek", ["invite"])
    for bad in ("1700-1500", "abc", "100-9999", "-5-10"):
        is_error(chk, req(gus, "seek", game="ataxx", range=bad),
                 "bad_request", "range=%s" % bad, ["LO-HI"])
    chk.eq(req(ivy, "seeks").get("seeks"), [], "nothing refused was kept")
    guest = Client(srv.port)
    is_ok(chk, guest.call("seeks"), "a guest may list the seeks")
    is_error(chk, guest.call("seek", game="ataxx"), "not_logged_in",
             "a guest may not seek")
    guest.close()
    gus.close()
    ivy.close()


def test_away(chk, srv):
    """Away within the grace: unlisted, unpaired; back: paired. Past the
    grace: gone. quit ends seeks at once; so does another game."""
    jo = login(srv.port, "jo")
    kim = login(srv.port, "kim")
    req(jo, "seek", game="amazons", rated=False)
    jo.close()
    time.sleep(0.3)
    chk.eq(req(kim, "seeks").get("seeks"), [], "an away seeker is unlisted")
    r = req(kim, "seek", game="amazons", rated=False)
    chk.eq(r.get("room"), None, "and not paired")
    jo = login(srv.port, "jo", token=jo.token)
    ev = paired(jo) or {}
    chk.eq(ev.get("opponent"), "kim", "jo back within the grace: paired")
    chk.eq((paired(kim) or {}).get("room"), ev.get("room"), "kim too")

    lou = login(srv.port, "lou")
    req(lou, "seek", game="stones")
    lou.close()
    time.sleep(GRACE + 2)
    lou = login(srv.port, "lou", token=lou.token)
    chk.eq(req(lou, "seeks").get("seeks"), [],
           "past the grace the seek is gone")

    req(lou, "seek", game="stones")
    r = req(lou, "quit")
    is_ok(chk, r, "quit")
    chk.eq(req(kim, "seeks").get("seeks"), [], "quit ends the seek at once")

    max_ = login(srv.port, "max")
    req(max_, "seek", game="stones")
    r = req(max_, "create", game="amazons", bot=1)
    is_ok(chk, r, "max starts a game against a bot")
    chk.eq(req(kim, "seeks").get("seeks"), [],
           "a game started by other means ends the seek")
    max_.close()


def test_text(chk, srv):
    """The verbs and the event in text mode."""
    ned = Telnet(srv.port)
    ned.type("hello ned")
    ned.until(r"^Hello, ned\.")
    ned.type("seek ataxx size=6 time=120 inc=2 casual range=1000-2000")
    lines = ned.until(r"unseek s\d+ withdraws it")
    chk.ok(any("Seeking: s" in ln and "ned (1500) ataxx size=6 time=120 "
               "inc=2 casual range=1000-2000" in ln for ln in lines),
           "the seek in words: %r" % lines)
    ned.type("seeks")
    lines = ned.until(r"ned \(1500\)")
    chk.ok(any(ln.startswith("Open seeks") for ln in lines),
           "seeks in words: %r" % lines)
    oli = login(srv.port, "oli")
    r = req(oli, "seek", game="ataxx", options={"size": 6}, rated=False,
            clock={"initial": 120, "increment": 2})
    chk.ok(r.get("room") is not None, "oli meets ned's text-mode seek")
    lines = ned.until(r"^Paired with oli for ataxx: you play \w+ in room r")
    chk.ok(lines and lines[-1].startswith("Paired with oli"),
           "the paired event in words: %r" % lines[-3:])
    ned.type("unseek")
    chk.ok(ned.until(r"^Withdrawn: none\.$"), "unseek in words")
    ned.close()
    oli.close()


def test_pool_full(chk, build):
    """--max-seeks bounds the pool; a withdrawn seek makes room again."""
    s = server(build, extra=["--max-seeks", "3"])
    try:
        pat, ray = login(s.port, "pat"), login(s.port, "ray")
        for c, game in ((pat, "amazons"), (pat, "stones"), (ray, "ataxx")):
            is_ok(chk, req(c, "seek", game=game), "seek %s" % game)
        is_error(chk, req(ray, "seek", game="stones", rated=False),
                 "limit_reached", "the pool is full",
                 ["the server has 3 open seeks"])
        req(pat, "unseek", seek="s1")
        is_ok(chk, req(ray, "seek", game="stones", rated=False),
              "room again after an unseek")
    finally:
        s.stop()


def rated_game(srv, winner, loser):
    """A rated Ataxx game (size 7) that loser resigns after two moves a
    side; the ratings it gave, by name."""
    w, l_ = login(srv.port, winner), login(srv.port, loser)
    room = req(w, "create", game="ataxx")["room"]
    req(l_, "join", room=room)
    for _ in range(2):
        for c in (w, l_):
            moves = req(c, "moves", room=room)["moves"]
            req(c, "move", room=room, move=moves[0])
    req(l_, "resign", room=room)
    ev = until(w, lambda e: e.get("event") == "ended" and
               e.get("room") == room)
    return w, l_, {x.get("name"): x.get("after")
                   for x in (ev or {}).get("ratings", [])}


def test_rated_range(chk, srv):
    """A range is checked against the players' real ratings: after a rated
    game the winner is above 1500 and out of a 1400-1600 range, a new
    player (1500) inside it."""
    rina, _, after = rated_game(srv, "rina", "rolf")
    chk.ok(after.get("rina", 0) > 1600,
           "rina won a rated game: above 1600 (%s)" % after.get("rina"))
    rudi = login(srv.port, "rudi")
    r = req(rudi, "seek", game="ataxx", range="1400-1600")
    is_ok(chk, r, "rudi seeks ataxx, opponents 1400-1600")
    r = req(rina, "seek", game="ataxx")
    is_ok(chk, r, "rina seeks ataxx")
    chk.eq((r.get("room"), (r.get("seek") or {}).get("rating")),
           (None, after.get("rina")),
           "rina's seek carries her rating and meets no one: she is out "
           "of rudi's range")
    req(rina, "unseek")
    ruth = login(srv.port, "ruth")
    r = req(ruth, "seek", game="ataxx")
    chk.ok(bool(r.get("room")), "ruth (new, 1500) meets rudi's seek")
    chk.ok(paired(rudi) is not None, "rudi is paired")


def seek_rows(db):
    """The seeks table's (id, name) rows, sorted."""
    return sorted((str(i), str(n)) for i, n in
                  harness.store_rows(db, "SELECT id, name FROM seeks"))


def wait_rows(db, want, timeout):
    """The seeks rows once they are want, or as they are after timeout
    seconds."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        rows = seek_rows(db)
        if rows == want:
            return rows
        time.sleep(0.1)
    return seek_rows(db)


def test_restart(chk, build, tmp, sig, tag):
    """Seeks survive a restart (kill -9 or SIGTERM): the rows are written
    before the replies, the seeks wait for their players for the grace
    from the restart, come back listed with the same ids and pair; one
    whose player never comes back ends and its row goes. New ids follow
    the largest stored one."""
    db = os.path.join(tmp, "seeks-%s.db" % tag)
    extra = ["--grace", str(GRACE)]
    a, e, f = tag + "ada", tag + "eve", tag + "fay"
    s = server(build, db=db, extra=extra)
    eve = login(s.port, e)
    r = req(eve, "seek", game="ataxx")
    x_id = (r.get("seek") or {}).get("seek")
    is_ok(chk, req(eve, "unseek", seek=x_id), "%s: unseek" % tag)
    chk.eq(seek_rows(db), [], "%s: a withdrawn seek's row is gone" % tag)
    ada = login(s.port, a)
    r = req(ada, "seek", game="stones", rated=False, range="1000-2000",
            clock={"initial": 60, "increment": 1})
    is_ok(chk, r, "%s: ada seeks" % tag)
    a_seek = r.get("seek") or {}
    r = req(eve, "seek", game="amazons")
    e_id = (r.get("seek") or {}).get("seek")
    chk.eq(seek_rows(db), sorted([(a_seek.get("seek"), a), (e_id, e)]),
           "%s: each acknowledged seek is a row" % tag)
    ada.close()
    eve.close()
    rc = shut(s, sig)
    if sig == signal.SIGTERM:
        chk.eq(rc, 0, "%s: SIGTERM stops the server cleanly" % tag)

    s = server(build, db=db, extra=extra)
    try:
        ada = login(s.port, a, token=ada.token)
        lst = req(ada, "seeks")
        chk.eq(lst.get("seeks"), [a_seek],
               "%s: ada back within the grace: her seek is listed again, "
               "the same id and fields; eve's (away) is not" % tag)
        fay = login(s.port, f)
        r = req(fay, "seek", game="stones", rated=False,
                clock={"initial": 60, "increment": 1})
        f_id = (r.get("seek") or {}).get("seek")
        chk.eq(f_id, "s%d" % (int(e_id[1:]) + 1),
               "%s: a new seek's id follows the largest stored" % tag)
        chk.eq((r.get("room") is not None, r.get("opponent")), (True, a),
               "%s: a new compatible seek pairs with ada's" % tag)
        chk.eq((paired(ada) or {}).get("seek"), a_seek.get("seek"),
               "%s: ada is paired through her stored seek" % tag)
        chk.eq(seek_rows(db), [(e_id, e)],
               "%s: the paired seek's row went with the room's commit" % tag)
        chk.eq(wait_rows(db, [], GRACE + 5), [],
               "%s: eve never came back: past the grace her seek's row "
               "is deleted" % tag)
        eve = login(s.port, e, token=eve.token)
        chk.eq(req(eve, "seeks").get("seeks"), [],
               "%s: and her seek is gone" % tag)
        ada.close()
        fay.close()
        eve.close()
    finally:
        shut(s)


def test_ids_never_repeat(chk, build, tmp):
    """An id once shown never names another seek: after seeks that were
    withdrawn (the highest row deleted) and paired (the second seek's id
    shown, never a row), kill -9 and a restart with no seek stored, the
    next seek's id is above every id shown, so `unseek s1` typed from an
    old screen cannot reach a new seek. (Before the counter was kept the
    next id came after the largest stored, none: s1 again.)"""
    db = os.path.join(tmp, "ids.db")
    extra = ["--grace", str(GRACE)]
    s = server(build, db=db, extra=extra)
    ida = login(s.port, "ida")
    shown = [(req(ida, "seek", game="ataxx").get("seek") or {}).get("seek")]
    r = req(ida, "seek", game="stones")
    shown.append((r.get("seek") or {}).get("seek"))
    is_ok(chk, req(ida, "unseek", seek=shown[-1]), "ida withdraws a seek")
    jon = login(s.port, "jon")
    r = req(jon, "seek", game="ataxx")
    chk.ok(bool(r.get("room")), "jon's seek pairs with ida's at once")
    shown.append((r.get("seek") or {}).get("seek"))
    chk.eq(seek_rows(db), [], "no seek is stored any more")
    ida.close()
    jon.close()
    shut(s, signal.SIGKILL)
    s = server(build, db=db, extra=extra)
    try:
        kim = login(s.port, "kim")
        new = (req(kim, "seek", game="amazons").get("seek") or {}).get("seek")
        top = max(int(i[1:]) for i in shown)
        chk.eq(new, "s%d" % (top + 1),
               "after a restart the next id is above every id shown "
               "(%s), not one given out before" % ", ".join(shown))
        kim.close()
    finally:
        shut(s)


def test_copy(chk, build, tmp):
    """--copy-db carries the open seeks: a server on the copy has the seek
    back for its player."""
    db = os.path.join(tmp, "copy-src.db")
    s = server(build, db=db, extra=["--grace", str(GRACE)])
    gil = login(s.port, "gil")
    r = req(gil, "seek", game="amazons")
    g_seek = r.get("seek") or {}
    gil.close()
    shut(s)
    dst = os.path.join(tmp, "copy-dst.db")
    p = subprocess.run([os.path.join(build, "tablerod"), "--copy-db",
                        harness.store_url(db), dst, "--log-level", "info"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=harness.WAIT * 3, check=False)
    log = p.stdout.decode("utf-8", "replace")
    chk.ok(p.returncode == 0 and "seeks: 1 rows" in log,
           "--copy-db copies the seeks' rows: %s" % log[-600:])
    s = harness.Server(build, db=dst, db_as_is=True,
                       extra=["--grace", str(GRACE)]).start()
    try:
        gil = login(s.port, "gil", token=gil.token)
        chk.eq(req(gil, "seeks").get("seeks"), [g_seek],
               "the copy holds gil's seek")
        gil.close()
    finally:
        shut(s)


def main():
    a = args()
    chk = Checks()
    s = server(a.build, extra=["--grace", str(GRACE)])
    try:
        test_no_pair(chk, s)
        test_play_to_end(chk, s)
        test_verbs(chk, s)
        test_away(chk, s)
        test_text(chk, s)
        test_rated_range(chk, s)
    finally:
        s.stop()
    test_pool_full(chk, a.build)
    tmp = tempfile.mkdtemp(prefix="tablero-seeks-")
    try:
        test_restart(chk, a.build, tmp, signal.SIGKILL, "k")
        test_restart(chk, a.build, tmp, signal.SIGTERM, "t")
        test_ids_never_repeat(chk, a.build, tmp)
        test_copy(chk, a.build, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done(chk)


if __name__ == "__main__":
    main()
