#!/usr/bin/env python3
"""test_newcomer_bugs.py: the bugs a newcomer met (issue 13): an adjourned
game's grace starting again when it resumes, hello showing the player's own
seat connected, restart into a start that is already over, the time before
hello being an idle timer, games listing the generic options, the
daemon's failure message naming its log, and README on the service."""

import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import (WAIT, Checks, Client, Server, args, is_error, is_ok,
                     login)

GRACE = 2  # seconds, --grace


def duo(port, a="ana", b="bob"):
    """ana and bob in a running ataxx room; (ana, bob, room)."""
    ca, cb = login(port, a), login(port, b)
    r = ca.call("create", game="ataxx")
    room = r["room"]
    cb.call("join", room=room)
    ca.event("started")
    cb.event("started")
    return ca, cb, room


def relogin(port, name, token):
    c = Client(port)
    return c, c.call("hello", name=name, token=token)


def test_adjourned_grace(chk, port):
    """Both players gone for longer than the grace, one comes back: the
    other's grace starts again from then, so no claim at once."""
    ca, cb, room = duo(port, "gr_a", "gr_b")
    tok_a, tok_b = ca.token, cb.token
    ca.close()
    cb.close()
    time.sleep(GRACE + 1.0)
    c, rep = relogin(port, "gr_a", tok_a)
    is_ok(chk, rep, "hello after the adjournment")
    r = c.call("claim", room=room)
    is_error(chk, r, "not_allowed", "claim right after an adjourned game "
             "resumes", ["more seconds"])
    st = c.call("state", room=room)["state"]
    chk.eq(st["status"], "playing", "the game goes on")
    c.close()


def test_hello_connected(chk, port):
    """hello's rooms show the player's own seat as connected."""
    ca, cb, room = duo(port, "hc_a", "hc_b")
    tok = ca.token
    ca.close()
    cb.event("opponent_gone")
    c, rep = relogin(port, "hc_a", tok)
    rooms = [x for x in rep.get("rooms", []) if x["room"] == room]
    chk.eq(len(rooms), 1, "hello lists the room")
    if rooms:
        seat = [s for s in rooms[0]["seats"] if s["name"] == "hc_a"][0]
        chk.eq(seat["connected"], True, "hello: own seat connected")
    r = c.call("rooms")
    seat = [s for x in r["rooms"] if x["room"] == room
            for s in x["seats"] if s["name"] == "hc_a"][0]
    chk.eq(seat["connected"], True, "rooms agrees")
    c.close()
    cb.close()


BLOCKED = "3 3\n0 0 0\n0 2 1\n0 0 0\n1 2\n"


def test_restart_finished_start(chk, port):
    """restart into a start that is already over: the room says so."""
    c = login(port, "rs_a")
    r = c.call("create", game="solitaire", options={"file": BLOCKED})
    if not is_ok(chk, r, "create a blocked solitaire"):
        return
    room = r["room"]
    c.drain()
    r = c.call("restart", room=room)
    is_ok(chk, r, "restart")
    ev = c.event("restarted")
    chk.eq((ev or {}).get("status"), "ended", "restarted says ended")
    ev = c.event("ended")
    chk.ok(ev is not None and ev.get("result") == "blocked",
           "an ended event follows: %r" % (ev,))
    st = c.call("state", room=room)["state"]
    chk.eq(st["status"], "ended", "state: ended after restart")
    chk.ok(st["result"] is not None and st["result"]["result"] == "blocked",
           "state: result blocked: %r" % (st["result"],))
    r = c.call("moves", room=room)
    chk.eq(r.get("moves"), [], "no moves")
    c.close()


def test_idle_timer(chk, build):
    """Before hello the time allowed is an idle timer: each request starts
    it again."""
    with Server(build, extra=["--idle", "2"]) as s:
        c = Client(s.port)
        for i in range(3):
            time.sleep(1.2)
            r = c.call("ping")
            if not chk.ok(r is not None and r.get("ok"),
                          "ping %d at %.1f s keeps it open" %
                          (i, (i + 1) * 1.2)):
                break
        # silent for longer than the idle time: closed
        t0 = time.time()
        last = None
        while time.time() - t0 < WAIT:
            m = c.json()
            if m is None:
                break
            last = m
        chk.ok(last is not None and last.get("error") == "not_logged_in",
               "then silence closes it: %r" % (last,))
        c.close()


def test_games_options(chk, port):
    """games lists file and position for every game that takes them."""
    c = Client(port)
    games = {g["name"]: g for g in c.call("games")["games"]}
    for name, want in (("amazons", ["file", "position"]),
                       ("ataxx", ["position"]),
                       ("solitaire", ["file", "position"]),
                       ("shifter", ["file", "position"]),
                       ("stones", ["position"])):
        names = [o["name"] for o in games[name]["options"]]
        for w in want:
            chk.ok(w in names, "%s lists option %s: %r" % (name, w, names))
        chk.eq(len(names), len(set(names)), "%s: each option once" % name)
    chk.ok("file" not in [o["name"] for o in games["ataxx"]["options"]],
           "ataxx has no file format, so no file option")
    # and amazons really takes file= as listed
    c.call("hello", name="go_a")
    r = c.call("export", room=c.call("create", game="amazons")["room"])
    text = r["text"]
    r = c.call("create", game="amazons", options={"file": text})
    is_ok(chk, r, "amazons takes the listed file option")
    c.close()


def test_daemon_names_log(chk, build):
    """A daemon that fails after detaching names its log file."""
    tmp = tempfile.mkdtemp(prefix="tablerod-nc-")
    try:
        log = os.path.join(tmp, "y.log")
        p = subprocess.run([os.path.join(build, "tablerod"), "-d",
                            "--log-file", log, "--port", "0", "--listen",
                            "127.0.0.1", "--db",
                            os.path.join(tmp, "nodir", "y.db")],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=WAIT)
        chk.ok(p.returncode != 0, "the launcher fails")
        chk.ok(log.encode() in p.stderr,
               "the message names the log: %r" % p.stderr)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def test_readme_service(chk):
    """README says what systemctl reload does under the unit (which logs
    to the journal) and needs no data-directory step (StateDirectory=)."""
    root = os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))))
    with open(os.path.join(root, "README.md")) as f:
        readme = f.read()
    with open(os.path.join(root, "contrib", "tablerod.service")) as f:
        unit = f.read()
    chk.ok("StateDirectory=tablero" in unit, "the unit has StateDirectory")
    chk.ok("StateDirectory" in readme, "README names StateDirectory")
    chk.ok("journal" in readme, "README says the unit logs to the journal")
    chk.ok("which\n  reopens the log file" not in readme and
           "reopens the log file." not in readme,
           "README no longer says reload reopens the log file")
    chk.ok("data directory" not in unit.split("[Unit]")[0],
           "the unit's comment asks for no data directory")


def main():
    a = args()
    chk = Checks()
    with Server(a.build, extra=["--grace", str(GRACE)]) as s:
        test_adjourned_grace(chk, s.port)
        test_hello_connected(chk, s.port)
        test_restart_finished_start(chk, s.port)
        test_games_options(chk, s.port)
    test_idle_timer(chk, a.build)
    test_daemon_names_log(chk, a.build)
    test_readme_service(chk)
    chk.done()


if __name__ == "__main__":
    main()
