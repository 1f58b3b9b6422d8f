"""test_persist_store.py: a store error is never silent and changes nothing.

Another process holds the data file's write lock (SQLite BEGIN IMMEDIATE),
so tablerod cannot commit: a move is refused with `internal` and nothing
changes (history, seq, position, turn, clocks: no increment for a move
that was not made); an undo is refused the same way; the error is logged;
the server keeps serving, and once the lock is gone the same move goes
through with the next seq. After kill -9 the history holds exactly the
accepted moves.
"""

import os
import signal
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import login, main_in_tmp, req, server, shut  # noqa: E402


class Lock:
    """The data file's write lock, held by this process."""

    def __init__(self, path):
        self.con = sqlite3.connect(path, timeout=10, isolation_level=None)
        self.con.execute("BEGIN IMMEDIATE")

    def release(self):
        self.con.execute("ROLLBACK")
        self.con.close()


def view(st):
    return {k: st.get(k) for k in ("history", "seq", "position", "turn",
                                   "status", "board")}


def main():
    main_in_tmp("tablero-store-", run)


def run(ck, a, tmp):
    """The test, with its data files in tmp."""
    db = os.path.join(tmp, "tablero.db")
    s = server(a.build, db=db)
    p1, p2 = login(s.port, "lockp1"), login(s.port, "lockp2")
    room = req(p1, "create", game="stones", options={"first": "1"},
               clock={"initial": 60, "increment": 30})["room"]
    req(p2, "join", room=room)
    r = req(p1, "move", room=room, move="A1")
    ck.ok(r and r.get("ok"), "A1 before the lock: %r" % r)
    solo = login(s.port, "locks")
    sroom = req(solo, "create", game="solitaire",
                options={"board": "example"})["room"]
    h = req(solo, "hint", room=sroom)["move"]
    req(solo, "move", room=sroom, move=h)
    before = req(p2, "state", room=room)["state"]
    sbefore = req(solo, "state", room=sroom)["state"]

    lock = Lock(db)
    r = req(p1, "move", room=room, move="A2")
    ck.eq(((r or {}).get("ok"), (r or {}).get("error")), (False, "internal"),
          "a move the store cannot take is refused with internal")
    ck.ok(isinstance((r or {}).get("message"), str) and r["message"],
          "with a message: %r" % r)
    after = req(p2, "state", room=room)["state"]
    ck.eq(view(after), view(before), "the refused move changed nothing")
    cl = after.get("clocks") or {}
    was = (before.get("clocks") or {}).get("player 1", 0)
    ck.ok(0 < cl.get("player 1", 0) <= was,
          "the refused move credits no time: %r, was %r" % (cl, was))
    r = req(solo, "undo", room=sroom)
    ck.eq((r or {}).get("error"), "internal", "an undo the store cannot "
          "take is refused with internal")
    ck.eq(view(req(solo, "state", room=sroom)["state"]), view(sbefore),
          "the refused undo changed nothing")
    r = req(p2, "ping")
    ck.eq((r or {}).get("pong"), True, "the server keeps serving")
    ck.ok("error" in s.logtext() and room in s.logtext(),
          "the store error is logged")
    lock.release()

    r = req(p1, "move", room=room, move="A2")
    ck.ok(r and r.get("ok"), "after the lock the move goes through: %r" % r)
    ck.eq((r or {}).get("seq"), before["seq"] + 1, "with the next seq, no "
          "gap")
    r = req(solo, "undo", room=sroom)
    ck.ok(r and r.get("ok"), "after the lock the undo goes through: %r" % r)
    want = [(h["seat"], h["move"]) for h in
            req(p2, "state", room=room)["state"]["history"]]
    ck.eq(want, [("player 1", "A1"), ("player 1", "A2")], "two moves")
    toks = [(c.name, c.token) for c in (p1, solo)]
    ck.eq(shut(s, signal.SIGKILL), -signal.SIGKILL, "killed")
    for c in (p1, p2, solo):
        c.close()
    s = server(a.build, db=db)
    c = login(s.port, *toks[0])
    got = [(h["seat"], h["move"]) for h in
           req(c, "state", room=room)["state"]["history"]]
    ck.eq(got, want, "after kill -9: exactly the accepted moves")
    c.close()
    c = login(s.port, *toks[1])
    ck.eq(req(c, "state", room=sroom)["state"]["history"], [],
          "after kill -9: the undo is kept")
    c.close()
    shut(s)


if __name__ == "__main__":
    main()
