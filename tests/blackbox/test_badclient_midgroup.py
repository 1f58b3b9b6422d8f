"""test_badclient_midgroup.py: a group fails in its middle, and in the
rollback of that failure (where the old code took a change back alone):
after a kill -9 the disk holds the whole group or none of it, and exactly
what was acknowledged.

The moves of several rooms are sent at once, so they share one group
(one transaction). Through the test-only hook TABLERO_TEST_STORE_FAULTS,
"pass 1" lets the group's first write through and fails the second; "pass
1 undo" also makes the rollback of that failed group fail, so the store
must close its connection (which rolls back) rather than let a later
commit carry the half-written group. Three cases:

  none:   the group fails midway (rollback failing too), kill -9: none of
          its moves on disk, every room as acknowledged before;
  whole:  the group fails midway, the fault clears: it commits whole
          (every mover acknowledged), kill -9: all of it on disk;
  retry:  the rollback fails, the fault clears: the group tried again
          commits once, each room one move further, no move doubled.
"""

import os
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import (log_says, login, main_in_tmp, req,  # noqa: E402
                       server, shut)
from harness import is_ok  # noqa: E402
from test_badclient_group import (HELD_S, Rooms, keep,  # noqa: E402
                                  no_reply, split)
from games_lib import settle  # noqa: E402

# Writes let through before the store fails (the commit counts as one):
# a group of one move fails at its commit, of more in its middle.
PASS = 1


def fault(path, text):
    with open(path, "w") as f:
        f.write(text)


def stored(ck, a, db, rs, want, what, jroom, jwant):
    """Start a server on db and compare every room with want, and the
    join's room with jwant."""
    s = server(a.build, db=db)
    obs = login(s.port, "watcher", rs.obs.token)
    ck.eq(rs.states(obs), want, "%s: after kill -9, every room exactly as "
          "acknowledged" % what)
    st = keep((req(obs, "state", room=jroom) or {}).get("state") or {})
    ck.eq(st, jwant, "%s: after kill -9, the join's room as acknowledged"
          % what)
    shut(s)


def first_failure(log):
    """The first store failure the log tells of."""
    for line in log.splitlines():
        if "injected" in line:
            return line
    return ""


def case(ck, a, tmp, faults, name, text, clears):
    """One case on a fresh file: a burst whose group fails with text;
    the fault clears (clears) or not; kill -9; what the disk holds."""
    db = os.path.join(tmp, name + ".db")
    s = server(a.build, db=db)
    rs = Rooms(ck, s.port)
    # A join that starts a game writes the room and marks both (new)
    # players as having played: several writes in one request, so the
    # first failed group always fails in its middle.
    jc, jj = login(s.port, "jcreator"), login(s.port, "jjoiner")
    jroom = (req(jc, "create", game="ataxx", options={"size": 5},
                 seat="white") or {}).get("room")
    jbefore = keep((req(rs.obs, "state", room=jroom) or {})["state"])
    before = rs.states()
    plan = rs.plan_burst()
    rs.quiet_all()
    fault(faults, text)
    jid = jj.send("join", room=jroom)
    ids = rs.fire(plan)
    ck.ok(log_says(s, "changes are refused until it stores again"),
          "%s: the group failed" % name)
    first = first_failure(s.logtext())
    ck.ok(first != "" and "commit:" not in first, "%s: in its middle (a "
          "write after the first failed): %s" % (name, first))
    ck.ok(no_reply(jj, jid), "%s: the join is not acknowledged" % name)
    settle(rs.obs, HELD_S)
    held, _ = split(ck, ids, name)
    want, jwant = before, jbefore
    if clears:
        os.unlink(faults)
        is_ok(ck, jj.reply(jid), "%s: the join acknowledged once the "
              "fault clears" % name)
        jwant = keep((req(rs.obs, "state", room=jroom) or {})["state"])
        ck.eq(jwant["status"], "playing", "%s: the join started the game"
              % name)
        for room, (c, rid) in held.items():
            is_ok(ck, c.reply(rid), "%s: %s's move acknowledged once the "
                  "fault clears" % (name, room))
        want = rs.states()
        for room, _, _ in rs.rooms:
            ck.eq(want[room]["history_total"],
                  before[room]["history_total"] + (room in held),
                  "%s: %s one move further if held (none if refused), "
                  "none doubled" % (name, room))
    shut(s, signal.SIGKILL)
    if os.path.exists(faults):
        os.unlink(faults)
    stored(ck, a, db, rs, want, name, jroom, jwant)


def run(ck, a, tmp):
    faults = os.path.join(tmp, "faults")
    os.environ["TABLERO_TEST_STORE_FAULTS"] = faults
    case(ck, a, tmp, faults, "none", "pass %d undo" % PASS, False)
    case(ck, a, tmp, faults, "whole", "pass %d" % PASS, True)
    case(ck, a, tmp, faults, "retry", "pass %d undo" % PASS, True)
    os.environ.pop("TABLERO_TEST_STORE_FAULTS", None)


if __name__ == "__main__":
    main_in_tmp("tablero-midgroup-", run)
