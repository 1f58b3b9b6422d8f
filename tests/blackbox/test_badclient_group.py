"""test_badclient_group.py: a group commit of several rooms' moves fails.

The store thread commits the changes of many rooms in one transaction.
Here the moves of several rooms are sent at once (so they share a group)
while the store fails, through the test-only hook TABLERO_TEST_STORE_FAULTS:
every mover gets `internal`, nobody (opponent or watcher) hears of any of
those moves, and every room's state is as before. With "pass 2" the group
fails in its middle: the two moves stored first are acknowledged and
heard, the others refused and unheard. Play goes on once the fault
clears, and after a kill -9 the rooms come back exactly as acknowledged.
"""

import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import (login, main_in_tmp, req, server, settle,  # noqa: E402
                       shut, until)
from harness import is_error, is_ok  # noqa: E402

# Rooms whose moves share the failing group.
ROOMS = 5
# Writes let through before the store fails, in the group failing midway.
PASS = 2


def keep(st):
    """What a failed move must leave as it was."""
    return {k: st.get(k) for k in ("position", "board", "turn", "status",
                                   "history", "seq", "history_total")}


class Rooms:
    """ROOMS ataxx rooms, each with its white and black player; one
    watcher of them all."""

    def __init__(self, ck, port):
        self.ck = ck
        self.obs = login(port, "watcher")
        self.rooms = []
        for i in range(ROOMS):
            w, b = login(port, "w%d" % i), login(port, "b%d" % i)
            r = req(w, "create", game="ataxx", options={"size": 5},
                    seat="white")
            room = (r or {}).get("room")
            is_ok(ck, req(b, "join", room=room), "room %d: black joins" % i)
            is_ok(ck, req(self.obs, "watch", room=room), "room %d: watched"
                  % i)
            self.rooms.append((room, w, b))

    def mover(self, room, w, b):
        st = req(self.obs, "state", room=room)["state"]
        return w if st["turn"] == "white" else b

    def states(self):
        return {room: keep(req(self.obs, "state", room=room)["state"])
                for room, _, _ in self.rooms}

    def quiet_all(self):
        for room, w, b in self.rooms:
            for c in (w, b):
                settle(c, 0.05)
                c.log = []
        settle(self.obs, 0.1)
        self.obs.log = []

    def burst(self):
        """Every room's side to move sends a move, all at once; the
        replies by room."""
        sent = []
        for room, w, b in self.rooms:
            c = self.mover(room, w, b)
            mv = req(c, "moves", room=room)["moves"][0]
            sent.append((room, c, mv))
        ids = [(room, c, c.send("move", room=room, move=mv))
               for room, c, mv in sent]
        return {room: c.reply(rid) for room, c, rid in ids}

    def heard(self, room):
        """The moved events of room heard by its players and the
        watcher."""
        out = []
        for r, w, b in self.rooms:
            if r != room:
                continue
            for c in (w, b, self.obs):
                settle(c, 0.1)
                out += [e for e in c.log if e.get("event") == "moved" and
                        e.get("room") == room]
        return out


def all_fail(ck, rs, faults):
    before = rs.states()
    rs.quiet_all()
    with open(faults, "w") as f:
        f.write("fail")
    replies = rs.burst()
    for room, rep in replies.items():
        is_error(ck, rep, "internal", "fail: %s's move refused" % room)
    for room, _, _ in rs.rooms:
        ck.eq(rs.heard(room), [], "fail: nobody hears %s's move" % room)
    ck.eq(rs.states(), before, "fail: every room as before")
    os.unlink(faults)


def half_fail(ck, rs, faults):
    before = rs.states()
    rs.quiet_all()
    with open(faults, "w") as f:
        f.write("pass %d" % PASS)
    replies = rs.burst()
    after = rs.states()
    oks = [room for room, rep in replies.items() if rep and rep.get("ok")]
    ck.eq(len(oks), PASS, "midway: %d moves stored: %r" % (PASS, replies))
    for room, rep in replies.items():
        if room in oks:
            ck.eq(len(rs.heard(room)), 3, "midway: %s's move heard by both "
                  "and the watcher" % room)
            ck.eq(after[room]["history_total"],
                  before[room]["history_total"] + 1, "midway: %s moved"
                  % room)
            continue
        is_error(ck, rep, "internal", "midway: %s's move refused" % room)
        ck.eq(rs.heard(room), [], "midway: nobody hears %s's move" % room)
        ck.eq(after[room], before[room], "midway: %s as before" % room)
    os.unlink(faults)


def play_on(ck, rs):
    rs.quiet_all()
    replies = rs.burst()
    for room, rep in replies.items():
        is_ok(ck, rep, "cleared: %s's move stored" % room)
        ck.ok(until(rs.obs, lambda e, r=room: e.get("event") == "moved" and
                    e.get("room") == r) is not None,
              "cleared: the watcher hears %s's move" % room)


def run(ck, a, tmp):
    faults = os.path.join(tmp, "faults")
    os.environ["TABLERO_TEST_STORE_FAULTS"] = faults
    db = os.path.join(tmp, "t.db")
    s = server(a.build, db=db)
    rs = Rooms(ck, s.port)
    all_fail(ck, rs, faults)
    half_fail(ck, rs, faults)
    play_on(ck, rs)
    expect = rs.states()
    shut(s, signal.SIGKILL)
    s = server(a.build, db=db)
    obs = login(s.port, "watcher2")
    for room, want in expect.items():
        st = (req(obs, "state", room=room) or {}).get("state") or {}
        got = keep(st)
        ck.eq((got["position"], got["history"], got["seq"]),
              (want["position"], want["history"], want["seq"]),
              "after kill -9: %s exactly as acknowledged" % room)
    shut(s)
    os.environ.pop("TABLERO_TEST_STORE_FAULTS", None)


if __name__ == "__main__":
    main_in_tmp("tablero-group-", run)
