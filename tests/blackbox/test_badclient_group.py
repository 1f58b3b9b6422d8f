"""test_badclient_group.py: a group commit of several rooms' moves fails.

The store thread commits the ops of many rooms in one transaction, all of
it or none. Here the moves of several rooms are sent at once (so they
share a group; any that come after the first failed group are refused at
once with store_failing instead, changing nothing) while the store fails, through the test-only hook
TABLERO_TEST_STORE_FAULTS. Memory is the truth: each move is made, but
nobody (mover, opponent or watcher) hears of it while its group is not
committed; the server answers meanwhile (a ping at once, a change refused
at once with store_failing). A kill -9 while it fails loses nothing that
was acknowledged and keeps nothing that was not. With "pass 1" the group
fails in its middle and is kept; once the fault clears it commits whole,
without a restart: every mover is answered and everyone hears every move,
and after a kill -9 the rooms come back exactly as acknowledged.
"""

import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import (log_says, login, main_in_tmp, req,  # noqa: E402
                       server, settle, shut, until)
from harness import is_error, is_ok  # noqa: E402

# Rooms whose moves share the failing group.
ROOMS = 5
# Writes let through before the store fails, in the group failing midway
# (the commit counts as one: a group of one move fails at its commit).
PASS = 1
# Seconds a held reply is waited for to show it does not come.
HELD_S = 1.0


def keep(st):
    """What a room's stored state is compared by (a room back after a
    restart is adjourned until its players return: playing)."""
    out = {k: st.get(k) for k in ("position", "board", "turn", "status",
                                  "history", "seq", "history_total")}
    if out["status"] == "adjourned":
        out["status"] = "playing"
    return out


def split(ck, ids, what):
    """The burst's requests by what became of them while the store
    fails: held (no reply yet) or, when a part of the burst came after
    the first failed group, refused at once with store_failing. Both
    dicts map room to (client, id)."""
    held, refused = {}, {}
    for room, (c, rid) in ids.items():
        try:
            rep = c.reply(rid, timeout=0.05)
        except (TimeoutError, OSError):
            held[room] = (c, rid)
            continue
        refused[room] = (c, rid)
        ck.eq((rep or {}).get("error"), "store_failing", "%s: %s's move, "
              "not held, is refused at once" % (what, room))
    ck.ok(len(held) > 0, "%s: the first group's moves are held" % what)
    return held, refused


def no_reply(c, rid, secs=HELD_S):
    """Does the reply to rid stay away for secs (held)?"""
    try:
        c.reply(rid, timeout=secs)
        return False
    except TimeoutError:
        return True


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

    def states(self, obs=None):
        obs = obs or self.obs
        return {room: keep(req(obs, "state", room=room)["state"])
                for room, _, _ in self.rooms}

    def quiet_all(self):
        for room, w, b in self.rooms:
            for c in (w, b):
                settle(c, 0.05)
                c.log = []
        settle(self.obs, 0.1)
        self.obs.log = []

    def plan_burst(self):
        """Every room's side to move and a legal move of it."""
        sent = []
        for room, w, b in self.rooms:
            c = self.mover(room, w, b)
            mv = req(c, "moves", room=room)["moves"][0]
            sent.append((room, c, mv))
        return sent

    def fire(self, sent):
        """Send the planned moves, all at once: the request ids by
        room."""
        return {room: (c, c.send("move", room=room, move=mv))
                for room, c, mv in sent}

    def send_burst(self):
        """Every room's side to move sends a move, all at once: the
        request ids by room."""
        return self.fire(self.plan_burst())

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


def held_while_failing(ck, s, rs, what):
    """The burst is held: no mover answered, nobody hears a move; the
    server answers a ping and refuses a change at once."""
    ids = rs.send_burst()
    ck.ok(log_says(s, "changes are refused until it stores again"),
          "%s: the store reports failing" % what)
    settle(rs.obs, HELD_S)
    held, refused = split(ck, ids, what)
    for room, _, _ in rs.rooms:
        ck.eq(rs.heard(room), [], "%s: nobody hears %s's move" %
              (what, room))
    p = rs.by
    is_ok(ck, req(p, "ping"), "%s: a ping is answered" % what)
    r = req(p, "create", game="ataxx", options={"size": 5})
    is_error(ck, r, "store_failing", "%s: a change is refused at once"
             % what, ["cannot store games right now"])
    return held, refused


def all_fail_kill(ck, a, db, faults):
    """Fail, kill -9 while failing: the moves never acknowledged are not
    stored, everything acknowledged is."""
    s = server(a.build, db=db)
    rs = Rooms(ck, s.port)
    rs.by = login(s.port, "bystander")
    before = rs.states()
    rs.quiet_all()
    with open(faults, "w") as f:
        f.write("fail")
    held_while_failing(ck, s, rs, "fail")
    shut(s, signal.SIGKILL)
    os.unlink(faults)
    s = server(a.build, db=db)
    obs = login(s.port, "watcher", rs.obs.token)
    ck.eq(rs.states(obs), before, "fail, kill -9: every room as "
          "acknowledged, none of the unacknowledged moves")
    shut(s)
    return rs


def half_fail_clears(ck, a, db, faults):
    """The group fails in its middle and is kept; the fault clears: it
    commits whole and everyone hears every move; kill -9 keeps it."""
    s = server(a.build, db=db)
    rs = Rooms(ck, s.port)
    rs.by = login(s.port, "bystander2")
    before = rs.states()
    rs.quiet_all()
    with open(faults, "w") as f:
        f.write("pass %d" % PASS)
    held, refused = held_while_failing(ck, s, rs, "midway")
    os.unlink(faults)
    for room, (c, rid) in held.items():
        is_ok(ck, c.reply(rid), "cleared: %s's move acknowledged" % room)
    ck.ok(log_says(s, "store: storing again"), "cleared: the store "
          "reports storing again")
    after = rs.states()
    for room, _, _ in rs.rooms:
        moved = room in held
        ck.eq(len(rs.heard(room)), 3 if moved else 0, "cleared: %s's "
              "move heard by both and the watcher when it was held, by "
              "nobody when it was refused" % room)
        ck.eq(after[room]["history_total"],
              before[room]["history_total"] + moved, "cleared: %s moved "
              "once if held, not if refused" % room)
    is_ok(ck, req(rs.by, "create", game="ataxx", options={"size": 5}),
          "cleared: changes are taken again")
    shut(s, signal.SIGKILL)
    s = server(a.build, db=db)
    obs = login(s.port, "watcher", rs.obs.token)
    for room, want in after.items():
        got = keep((req(obs, "state", room=room) or {}).get("state") or {})
        ck.eq((got["position"], got["history"], got["seq"]),
              (want["position"], want["history"], want["seq"]),
              "after kill -9: %s exactly as acknowledged" % room)
    shut(s)


def run(ck, a, tmp):
    faults = os.path.join(tmp, "faults")
    os.environ["TABLERO_TEST_STORE_FAULTS"] = faults
    all_fail_kill(ck, a, os.path.join(tmp, "a.db"), faults)
    half_fail_clears(ck, a, os.path.join(tmp, "b.db"), faults)
    os.environ.pop("TABLERO_TEST_STORE_FAULTS", None)


if __name__ == "__main__":
    main_in_tmp("tablero-group-", run)
