#!/usr/bin/env python3
"""test_reads_offloop.py: a page of finished games is read off the event
loop (issue 30, finding 6: guests' `history` made everyone else wait;
bounded and paged reads still ran on the loop, so the guest history
storm kept a bystander's ping p99 at about twice a quiet server's).

Through the test-only hook TABLERO_TEST_STORE_FAULTS ("readhold": the
next page read waits, as a slow read would, writing "readholding"), a
guest's `history` and `rooms ended` are held inside the store while a
bystander's ping, another guest's `rooms` and a named player's `who` are
answered at once. The guest that asked reads nothing more meanwhile: its
own ping, sent behind the held read, comes after the page, in order. A
guest that hangs up while its read is held costs nothing: the server
answers on. On today's main the held read stalls the loop, and the
bystander's ping waits for it. Runs on SQLite and, through tests/pg.sh,
on PostgreSQL."""

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import main_in_tmp, serving  # noqa: E402
from harness import Client, is_ok, login  # noqa: E402
from test_reads_bounded import PAGE, seed_games  # noqa: E402

# Seconds a held read is waited for, and a bystander's reply.
WAIT_HELD = 10
# Seconds the bystander's ping may take while a read is held: the loop
# is free, so it is answered in milliseconds; a stalled loop never
# answers before the read is let go.
BYSTANDER = 3
# Seconds the asking guest is watched for a reply that must not come
# while its read is held.
QUIET = 0.5


def put(path, text):
    with open(path, "w") as f:
        f.write(text)


def held(path):
    """Does the control file come to say a page read is held?"""
    deadline = time.time() + WAIT_HELD
    while time.time() < deadline:
        with open(path) as f:
            if f.read() == "readholding":
                return True
        time.sleep(0.01)
    return False


def nothing_yet(c):
    """No message reaches c within QUIET seconds."""
    try:
        m = c.read(QUIET)
    except TimeoutError:
        return True
    c.pending.append(m)
    return False


def answered(c, cmd, **fields):
    """c's reply to cmd within BYSTANDER seconds, or None (and how long
    it took)."""
    t0 = time.monotonic()
    try:
        r = c.reply(c.send(cmd, **fields), timeout=BYSTANDER)
    except TimeoutError:
        r = None
    return r, time.monotonic() - t0


def bystanders(ck, port, what, name):
    """While a read is held: a named player's (name) hello, ping and who,
    another guest's rooms, each answered within BYSTANDER seconds."""
    b, g = Client(port, welcome=False), Client(port, welcome=False)
    for c in (b, g):
        try:
            w = c.json(timeout=BYSTANDER)
        except TimeoutError:
            w = None
        ck.ok(w is not None and w.get("event") == "welcome",
              "%s: a new connection is welcomed while the read is held: "
              "%.200r" % (what, w))
    for c, cmd, fields in ((b, "hello", {"name": name}), (b, "ping", {}),
                           (b, "who", {}), (g, "rooms", {})):
        r, took = answered(c, cmd, **fields)
        ck.ok(r is not None and r.get("ok"),
              "%s: a bystander's %s is answered while the read is held "
              "(%.3f s): %.200r" % (what, cmd, took, r))
    g.close()
    b.close()


def check_history(ck, port, faults):
    """A guest's history held in the store; the others go on; the guest
    gets its page, then its ping."""
    put(faults, "readhold")
    g = Client(port)
    hid = g.send("history", name="ana")
    ck.ok(held(faults), "history: the page read is held in the store")
    pid = g.send("ping")
    bystanders(ck, port, "history", "byh")
    ck.ok(nothing_yet(g), "the asking guest hears nothing while its read "
          "is held (its ping waits behind it)")
    put(faults, "")
    r = g.json(timeout=WAIT_HELD)
    ck.ok(r is not None and r.get("id") == hid and r.get("ok") and
          len(r.get("games", [])) == PAGE and r.get("more") is True,
          "let go: the guest's first message is its page of %d games: "
          "%.200r" % (PAGE, r))
    r = g.json(timeout=WAIT_HELD)
    ck.ok(r is not None and r.get("id") == pid and r.get("ok"),
          "then its ping, in order: %.200r" % (r,))
    g.close()


def check_rooms_ended(ck, port, faults):
    """rooms ended is read off the loop the same way."""
    put(faults, "readhold")
    g = Client(port)
    rid = g.send("rooms", status="ended", game="stones")
    ck.ok(held(faults), "rooms ended: the page read is held in the store")
    bystanders(ck, port, "rooms ended", "byr")
    put(faults, "")
    r = g.reply(rid, timeout=WAIT_HELD)
    ck.ok(r is not None and r.get("ok") and
          len(r.get("rooms", [])) == PAGE,
          "let go: rooms ended gives its page: %.200r" % (r,))
    g.close()


def check_gone(ck, port, faults):
    """A guest hangs up while its read is held: nothing is sent to it
    and the server answers on."""
    put(faults, "readhold")
    g = Client(port)
    g.send("history", name="ana")
    ck.ok(held(faults), "gone: the page read is held")
    g.close()
    time.sleep(0.2)
    put(faults, "")
    b = login(port, "byg")
    is_ok(ck, b.call("history", name="ana"),
          "after a guest left mid-read, the next history is answered")
    is_ok(ck, b.call("ping"), "and the server answers on")
    b.close()


def run(ck, a, tmp):
    db = os.path.join(tmp, "t.db")
    faults = os.path.join(tmp, "faults")
    put(faults, "")
    os.environ["TABLERO_TEST_STORE_FAULTS"] = faults
    try:
        with serving(a.build, db=db) as s:
            seed_games(db)
            check_history(ck, s.port, faults)
            check_rooms_ended(ck, s.port, faults)
            check_gone(ck, s.port, faults)
    finally:
        os.environ.pop("TABLERO_TEST_STORE_FAULTS", None)
        put(faults, "")


if __name__ == "__main__":
    main_in_tmp("tablero-offloop-", run)
