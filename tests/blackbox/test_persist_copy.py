"""test_persist_copy.py: tablerod --copy-db FROM TO moves a club's data.

Games are played on an SQLite file (a finished game, an unfinished one
with moves, a private one, a rematch); the file is copied to PostgreSQL
(with TABLERO_TEST_PG; else to another SQLite file) and from there back to
a new SQLite file. A server on each copy knows everything: the tokens log
in, the unfinished room is listed with its moves and goes on, history
and rooms ended list the finished games as before, and a new room gets a
number never given out. Copying into a store that holds data, or a store
onto itself, or from a file that does not exist, is refused and changes
nothing.
"""

import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import (FAST, STARTED, Server, harness, login,  # noqa: E402
                       main_in_tmp, req, shut)


def started(build, db):
    """A server on db exactly as given (a path or URL), killed at exit
    if the test stops early."""
    s = Server(build, db=db, extra=FAST, db_as_is=True)
    STARTED.append(s)
    return s.start()


def copy(build, src, dst):
    """Run tablerod --copy-db src dst: its exit code and its log."""
    p = subprocess.run([os.path.join(build, "tablerod"), "--copy-db", src,
                        dst, "--log-level", "info"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=harness.WAIT * 3, check=False)
    return p.returncode, p.stdout.decode("utf-8", "replace")


def room_no(room):
    """The number of a public room "r<digits>"."""
    return int(room[1:])


def play(ck, s):
    """The games on the first server; what a copy must show."""
    a, b = login(s.port, "ana"), login(s.port, "bob")
    # A finished game, then its rematch left unfinished with moves.
    room = req(a, "create", game="ataxx")["room"]
    req(b, "join", room=room)
    req(a, "move", room=room, move="b6")
    req(b, "move", room=room, move="f6")
    req(a, "resign", room=room)
    req(a, "rematch", room=room)
    req(b, "rematch", room=room)
    # A private game, finished; a room deleted (its number is spent).
    priv = req(a, "create", game="stones", private=True)["room"]
    req(b, "join", room=priv)
    req(b, "resign", room=priv)
    gone = req(b, "create", game="amazons")["room"]
    req(b, "leave", room=gone)
    # The rematch's first move, by whoever sits first now.
    for c, mv in ((a, "b6"), (b, "b6"), (a, "f6"), (b, "f6")):
        if (req(c, "move", room=room, move=mv) or {}).get("ok"):
            break
    state = req(b, "state", room=room)["state"]
    want = {
        "tokens": {"ana": a.token, "bob": b.token},
        "room": room,
        "history": state.get("history"),
        "ana_games": [g["room"] for g in
                      req(a, "history").get("games", [])],
        "ended": [(r["room"], r.get("game_no")) for r in
                  req(a, "rooms", status="ended")["rooms"]],
        "top": max(room_no(x) for x in (room, gone)),
    }
    ck.ok(len(want["ana_games"]) == 2, "ana has two finished games: %r" %
          want["ana_games"])
    ck.ok(len(want["history"] or []) >= 1, "the rematch has moves: %r" %
          want["history"])
    for c in (a, b):
        c.close()
    return want


def check(ck, build, db, want, what):
    """A server on the copy db shows everything want holds."""
    s = started(build, db)
    a = login(s.port, "ana", want["tokens"]["ana"])
    b = login(s.port, "bob", want["tokens"]["bob"])
    ck.eq(((a.hello or {}).get("ok"), (a.hello or {}).get("new")),
          (True, False), "%s: ana's token logs in" % what)
    ck.eq((b.hello or {}).get("ok"), True, "%s: bob's token too" % what)
    ids = [r.get("room") for r in (a.hello or {}).get("rooms", [])]
    ck.ok(want["room"] in ids, "%s: hello lists ana's unfinished room %s: %r"
          % (what, want["room"], ids))
    st = (req(b, "state", room=want["room"]) or {}).get("state") or {}
    ck.eq(st.get("history"), want["history"], "%s: its moves" % what)
    # It goes on: whoever's turn it is plays a legal move.
    played = False
    for c in (a, b):
        ms = (req(c, "moves", room=want["room"]) or {}).get("moves") or []
        if ms and (req(c, "move", room=want["room"], move=ms[0])
                   or {}).get("ok"):
            played = True
            break
    ck.ok(played, "%s: the unfinished game goes on" % what)
    # What the next copy of this store must show.
    want["history"] = ((req(b, "state", room=want["room"]) or {})
                       .get("state") or {}).get("history")
    ck.eq([g["room"] for g in req(a, "history").get("games", [])],
          want["ana_games"], "%s: ana's history" % what)
    ck.eq([(r["room"], r.get("game_no")) for r in
           req(a, "rooms", status="ended")["rooms"]], want["ended"],
          "%s: rooms ended" % what)
    new = (req(b, "create", game="ataxx") or {}).get("room", "r0")
    ck.ok(room_no(new) > want["top"], "%s: a new room %s gets a number "
          "never given out (above %d)" % (what, new, want["top"]))
    req(b, "leave", room=new)
    a.close()
    b.close()
    ck.eq(shut(s), 0, "%s: the server stops cleanly" % what)


def run(ck, a, tmp):
    src = os.path.join(tmp, "club.db")
    s = started(a.build, src)
    want = play(ck, s)
    ck.eq(shut(s), 0, "the first server stops cleanly")

    mid = harness.pg_fresh() if harness.PG else os.path.join(tmp, "mid.db")
    what = "PostgreSQL" if harness.PG else "an SQLite copy"
    rc, log = copy(a.build, src, mid)
    ck.eq(rc, 0, "copy to %s exits 0: %s" % (what, log[-400:]))
    ck.ok("copy: moves:" in log and "copy: games: 2 rows" in log,
          "the copy logs each table's rows: %s" % log[-600:])
    check(ck, a.build, mid, want, "on " + what)

    back = os.path.join(tmp, "back.db")
    rc, log = copy(a.build, mid, back)
    ck.eq(rc, 0, "copy from %s back to SQLite exits 0: %s" % (what,
                                                             log[-400:]))
    check(ck, a.build, back, want, "back on SQLite")

    rc, log = copy(a.build, src, back)
    ck.ok(rc != 0 and "not empty" in log, "a copy into a store that holds "
          "data is refused: %r %s" % (rc, log[-300:]))
    check(ck, a.build, back, want, "the refused copy changed nothing")
    rc, log = copy(a.build, src, src)
    ck.ok(rc != 0 and "same" in log, "a copy onto itself is refused: %r %s"
          % (rc, log[-300:]))
    typo = os.path.join(tmp, "clb.db")
    rc, log = copy(a.build, typo, os.path.join(tmp, "new.db"))
    ck.ok(rc != 0 and "No such file" in log and not os.path.exists(typo),
          "a missing FROM file is an error, not an empty copy: %r %s" %
          (rc, log[-300:]))


if __name__ == "__main__":
    main_in_tmp("tablero-copy-", run)
