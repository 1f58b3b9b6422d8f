"""test_persist_store.py: a store error is never silent, and nothing is
shown before it is stored.

Another process holds the data file's write lock (SQLite BEGIN IMMEDIATE;
with PostgreSQL, a session's LOCK TABLE),
so tablerod cannot commit: a move is made in memory but neither
acknowledged nor heard while its group cannot commit; an undo meanwhile
is refused at once with `store_failing` and changes nothing; the error is
logged; the server keeps serving (a ping, a read of the unchanged room),
and once the lock is gone the held move is acknowledged with the next
seq, without a restart. After kill -9 the history holds exactly the
acknowledged moves.
"""

import os
import signal
import sqlite3
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import (harness, log_says, login, main_in_tmp,  # noqa: E402
                       req, server, settle, shut)


def no_reply(c, rid, secs=1.0):
    """Does the reply to rid stay away for secs (held)?"""
    try:
        return c.reply(rid, timeout=secs) is None
    except (TimeoutError, OSError):
        return True


class Lock:
    """The data file's write lock, held by this process; with PostgreSQL
    (harness.PG), a psql session's lock on the tables instead."""

    def __init__(self, path):
        self.con = self.proc = None
        if harness.PG is None:
            self.con = sqlite3.connect(path, timeout=10,
                                       isolation_level=None)
            self.con.execute("BEGIN IMMEDIATE")
            return
        url = harness.store_url(path)
        self.proc = subprocess.Popen(["psql", "-X", "-q", url],
                                     stdin=subprocess.PIPE,
                                     stdout=subprocess.DEVNULL)
        self.proc.stdin.write(b"BEGIN; LOCK TABLE rooms, moves, games,"
                              b" identities, progress IN EXCLUSIVE MODE;\n")
        self.proc.stdin.flush()
        deadline = time.time() + harness.WAIT
        while time.time() < deadline and harness.pg_sql(
                "SELECT count(*) FROM pg_locks l JOIN pg_class c ON"
                " c.oid = l.relation WHERE c.relname = 'moves' AND"
                " l.mode = 'ExclusiveLock' AND l.granted", url).strip() != "1":
            time.sleep(0.05)

    def release(self):
        if self.con is not None:
            self.con.execute("ROLLBACK")
            self.con.close()
            return
        self.proc.stdin.write(b"ROLLBACK;\n")
        self.proc.stdin.close()
        self.proc.wait(harness.WAIT)


# What the log says of a lock held too long.
LOCKED = "database is locked" if harness.PG is None else "lock timeout"


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
    p2.log = []
    rid = p1.send("move", room=room, move="A2")
    ck.ok(log_says(s, "changes are refused until it stores again"),
          "the store error is logged")
    ck.ok(LOCKED in s.logtext(), "with its reason")
    ck.ok(no_reply(p1, rid), "a move the store cannot take is not "
          "acknowledged")
    settle(p2, 0.3)
    ck.eq([e.get("event") for e in p2.log], [], "nor heard")
    r = req(solo, "undo", room=sroom)
    ck.eq(((r or {}).get("ok"), (r or {}).get("error")),
          (False, "store_failing"), "an undo meanwhile is refused at once")
    ck.ok(isinstance((r or {}).get("message"), str) and r["message"],
          "with a message: %r" % r)
    r = req(solo, "ping")
    ck.eq((r or {}).get("pong"), True, "the server keeps serving (p2 has "
          "the held move's event to read first)")
    lock.release()

    r = p1.reply(rid)
    ck.ok(r and r.get("ok"), "after the lock the move is acknowledged: %r"
          % r)
    ck.eq(view(req(solo, "state", room=sroom)["state"]), view(sbefore),
          "the refused undo changed nothing")
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
