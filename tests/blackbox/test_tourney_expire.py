#!/usr/bin/env python3
"""test_tourney_expire.py: throwaway names cannot hold the server's
tournaments (issue 30, finding 4: 16 throwaway names x 4 open
tournaments filled the server-wide cap of 64 in 4 s, nobody else could
create one, and it survived a restart).

The farm: 16 names from one address each try to create 4 tournaments.
The address holds at most 8 not over (TOURNEY_PER_ADDRESS); past that
`limit_reached` says when to try again (the message, and retry_after in
seconds: when the first of them expires), and someone from another
address still creates one; killed and started again, the server still
counts them against that address (its address is stored with each).

Expiry: an open tournament its organiser does not start within
--tourney-expire seconds expires: stored as "expired" before its
organiser and players hear of it (tourney_ended with expired and a
message); `show` says so, join, leave and start are refused, `list`
leaves it out, and it no longer counts against any cap. One made before
a kill -9 expires on time after the restart (counted from its creation),
and stays expired across another. Runs on SQLite and, through
tests/pg.sh, on PostgreSQL."""

import os
import signal
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from games_lib import FAST, STARTED, main_in_tmp, shut  # noqa: E402
from harness import (Client, Server, is_error, is_ok, login,  # noqa: E402
                     run_parts, store_rows)

# The farm of the issue: names, and tournaments each tries to create.
NAMES = 16
EACH = 4
# What one address may hold (TOURNEY_PER_ADDRESS).
PER_ADDRESS = 8
# The trusted proxy, through which a player comes from another address.
PROXY = "127.0.0.2"
# --tourney-expire of the expiry test, seconds.
EXPIRE = 2



def run_server(build, **kw):
    """A started Server that games_lib stops at exit (by its pid) when
    a part raises before stopping it."""
    s = Server(build, **kw)
    STARTED.append(s)
    return s.start()

def other_address(port, name, addr="198.51.100.9"):
    """name logged in through the trusted proxy, from addr."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(harness.WAIT)
    s.bind((PROXY, 0))
    s.connect(("127.0.0.1", port))
    s.sendall(("PROXY TCP4 %s 127.0.0.1 40000 7777\r\n" % addr).encode())
    c = Client.__new__(Client)
    c.sock, c.buf, c.pending, c.next_id = s, b"", [], 1
    c.welcome = c.json()
    r = c.call("hello", name=name)
    c.token = (r or {}).get("token")
    return c


def create(c):
    return c.call("tourney", do="create", game="stones")


def farm(ck, port):
    """The farm: how many of NAMES x EACH creates succeed, and the first
    refusal."""
    made, refusal = 0, None
    for i in range(NAMES):
        c = login(port, "farm%d" % i)
        for _ in range(EACH):
            r = create(c)
            if r and r.get("ok"):
                made += 1
            elif refusal is None:
                refusal = r
        c.close()
    return made, refusal


def test_cap(ck, a, tmp):
    """16 names x 4 from one address: 8 held, refused with when, someone
    else still creates; the same after kill -9."""
    db = os.path.join(tmp, "cap.db")
    s = run_server(a.build, db=db, extra=FAST + ["--proxy-from", PROXY])
    made, refusal = farm(ck, s.port)
    print("farm: %d names x %d tournaments from one address: %d made" %
          (NAMES, EACH, made), flush=True)
    ck.eq(made, PER_ADDRESS, "one address holds %d tournaments not over"
          % PER_ADDRESS)
    is_error(ck, refusal, "limit_reached", "the next is refused",
             ["your address", "try again in", "expires"])
    retry = (refusal or {}).get("retry_after")
    ck.ok(isinstance(retry, int) and 0 < retry <= 3 * 3600,
          "retry_after: the seconds until the first expires: %r" % (retry,))
    o = other_address(s.port, "elsewhere")
    is_ok(ck, create(o), "a player from another address still creates one")
    o.close()
    shut(s, signal.SIGKILL)
    s = run_server(a.build, db=db, extra=FAST + ["--proxy-from", PROXY])
    c = login(s.port, "farm99")
    is_error(ck, create(c), "limit_reached",
             "after kill -9 the address's tournaments still count",
             ["your address"])
    o = other_address(s.port, "elsewhere2", "198.51.100.10")
    is_ok(ck, create(o), "and another address still creates one")
    c.close()
    o.close()
    shut(s)


def tourney_event(c, tid, timeout):
    """c's tourney_ended event for tid (None when none came in time)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        ev = c.event("tourney_ended", max(0.05, deadline - time.time()))
        if ev is not None and ev.get("tourney") == tid:
            return ev
    return None


def test_expire(ck, a, tmp):
    """An open tournament expires, stored first, told, out of the caps."""
    db = os.path.join(tmp, "expire.db")
    extra = FAST + ["--tourney-expire", str(EXPIRE)]
    s = run_server(a.build, db=db, extra=extra)
    org, pl = login(s.port, "org"), login(s.port, "pl")
    r = create(org)
    is_ok(ck, r, "create")
    t = (r or {}).get("tourney", {})
    tid = t.get("id")
    ck.ok(isinstance(t.get("expires_ms"), int) and
          t["expires_ms"] - time.time() * 1000 <= EXPIRE * 1000 + 500,
          "an open tournament says when it expires: %r" % (t,))
    is_ok(ck, pl.call("tourney", do="join", tourney=tid), "join")
    ev = tourney_event(pl, tid, EXPIRE + harness.WAIT)
    ck.ok(ev is not None and ev.get("expired") is True and
          "expired" in ev.get("message", ""),
          "its player hears it expired: %r" % (ev,))
    ev = tourney_event(org, tid, harness.WAIT)
    ck.ok(ev is not None and ev.get("expired") is True,
          "and its organiser: %r" % (ev,))
    rows = store_rows(db, "SELECT status FROM tourneys WHERE id = '%s'" % tid)
    ck.eq(rows, [("expired",)], "stored as expired")
    r = org.call("tourney", do="show", tourney=tid)
    ck.eq((r or {}).get("tourney", {}).get("status"), "expired",
          "show says it expired")
    for do, c in (("join", login(s.port, "late")), ("start", org),
                  ("leave", pl)):
        is_error(ck, c.call("tourney", do=do, tourney=tid), "not_allowed",
                 "%s of an expired tournament" % do, ["expired"])
    r = org.call("tourney", do="list")
    ck.ok(r and r.get("ok") and
          tid not in [x.get("id") for x in r.get("tourneys", [])],
          "list leaves it out: %r" % (r,))
    # expired ones count against no cap: the organiser makes four more
    for i in range(4):
        is_ok(ck, create(org), "a new one %d after the expiry" % (i + 1))
    # one made before a kill -9 expires on time after the restart
    org2 = login(s.port, "org2")
    r = create(org2)
    is_ok(ck, r, "org2 creates one")
    tid2 = (r or {}).get("tourney", {}).get("id")
    shut(s, signal.SIGKILL)
    s = run_server(a.build, db=db, extra=extra)
    token = org2.token
    org2 = Client(s.port)
    org2.call("hello", name="org2", token=token)
    deadline = time.time() + EXPIRE + harness.WAIT
    status = None
    while time.time() < deadline:
        r = org2.call("tourney", do="show", tourney=tid2)
        status = (r or {}).get("tourney", {}).get("status")
        if status == "expired":
            break
        time.sleep(0.2)
    ck.eq(status, "expired", "made before a kill -9, it expires on time "
          "after the restart (%r)" % (r,))
    shut(s)
    s = run_server(a.build, db=db, extra=FAST)
    c = login(s.port, "again")
    for x in (tid, tid2):
        r = c.call("tourney", do="show", tourney=x)
        ck.eq((r or {}).get("tourney", {}).get("status"), "expired",
              "%s stays expired after another restart" % x)
    c.close()
    shut(s)


def run(ck, a, tmp):
    run_parts(ck, [test_cap, test_expire], a, tmp)


if __name__ == "__main__":
    main_in_tmp("tablero-tourney-cap-", run)
