"""test_club_message.py: messages kept for a player who is away (issue
31). `message NAME TEXT` to a registered player who is not here is
stored before its reply (kept: true) and given at their next hello, as
message events after the hello reply, oldest first, in text mode too;
it survives a restart, and is given once. A player who is here gets it
at once (kept: false). The waiting messages are bounded per sender (20)
and per recipient (50); a name nobody has is bad_name, oneself and a
player who blocks the sender are not_allowed, a muted player gets
muted. Runs on SQLite and, through tests/pg.sh, on PostgreSQL."""

import os
import re
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import login, req, server, shut, absorb  # noqa: E402
from harness import Checks, args, is_error, is_ok, store_rows  # noqa: E402
from test_telnet import Telnet  # noqa: E402

PER_SENDER = 20
PER_RECIPIENT = 50


def messages(c, quiet=0.5):
    """The message events c has read, and reads until quiet."""
    for m in c.drain(quiet):
        if "event" in m:
            c.log.append(m)
    absorb(c)
    return [e for e in c.log if e.get("event") == "message"]


def part_refusals(chk, port, tok):
    """The refusals, each of a message that is then not kept."""
    ana = login(port, "ana", tok["ana"])
    try:
        is_error(chk, req(ana, "message", name="zed", text="x"), "bad_name",
                 "a name nobody has", ["nobody is registered as zed"])
        is_error(chk, req(ana, "message", name="ana", text="x"),
                 "not_allowed", "oneself")
        is_error(chk, req(ana, "message", name="bob", text="x" * 600),
                 "bad_request", "chat's length limit")
        is_error(chk, req(ana, "message", name="eve", text="x"),
                 "not_allowed", "eve blocks ana", ["eve blocks you"])
    finally:
        ana.close()


def part_muted(chk, port, tok, root):
    """A muted player sends none."""
    is_ok(chk, req(root, "mute", name="ana"), "root mutes ana")
    ana = login(port, "ana", tok["ana"])
    try:
        is_error(chk, req(ana, "message", name="bob", text="muted?"),
                 "muted", "a muted player sends none")
    finally:
        ana.close()
    is_ok(chk, req(root, "unmute", name="ana"), "root unmutes ana")


def part_bounds(chk, port, tok):
    """20 waiting per sender, 50 per recipient."""
    senders = [login(port, "s%d" % i) for i in range(3)]
    try:
        for i in range(PER_SENDER):
            r = req(senders[0], "message", name="dan", text="n%d" % i)
            if not (r or {}).get("ok"):
                chk.ok(False, "message %d refused: %r" % (i, r))
                return
        is_error(chk, req(senders[0], "message", name="bob", text="x"),
                 "limit_reached", "the sender's bound",
                 ["you have %d messages waiting" % PER_SENDER])
        for i in range(PER_SENDER):
            req(senders[1], "message", name="dan", text="m%d" % i)
        for i in range(PER_RECIPIENT - 2 * PER_SENDER):
            is_ok(chk, req(senders[2], "message", name="dan", text="o%d" % i),
                  "up to the recipient's bound")
        is_error(chk, req(senders[2], "message", name="dan", text="x"),
                 "limit_reached", "the recipient's bound",
                 ["dan has %d messages waiting" % PER_RECIPIENT])
    finally:
        for s in senders:
            s.close()


def main():
    a = args()
    chk = Checks()
    tok = {}
    with tempfile.TemporaryDirectory() as d:
        db = os.path.join(d, "t.db")
        srv = server(a.build, db=db, extra=["--admin", "root"])
        try:
            for n in ("ana", "bob", "dan", "eve", "root"):
                c = login(srv.port, n)
                tok[n] = c.token
                if n == "eve":
                    is_ok(chk, req(c, "block", name="ana"), "eve blocks ana")
                if n != "root":
                    c.close()
                else:
                    root = c
            time.sleep(0.3)
            ana = login(srv.port, "ana", tok["ana"])
            rep = req(ana, "message", name="BOB", text="hi bob\nsecond line")
            chk.eq((rep.get("ok"), rep.get("name"), rep.get("kept")),
                   (True, "bob", True), "kept for bob, who is away")
            chk.eq([(r[0], int(r[1])) for r in store_rows(
                db, "SELECT sender, length(text) FROM messages WHERE "
                "recipient = 'bob'")],
                   [("ana", len("hi bob\nsecond line"))],
                   "stored by the time the reply came")
            rep = req(ana, "message", name="bob", text="and again")
            chk.ok(rep.get("kept"), "a second one")
            ana.close()
            part_bounds(chk, srv.port, tok)
            part_refusals(chk, srv.port, tok)
            part_muted(chk, srv.port, tok, root)
            root.close()
        finally:
            shut(srv)
        srv = server(a.build, db=db)
        try:
            bob = login(srv.port, "bob", tok["bob"])
            got = messages(bob)
            chk.eq([(m.get("from"), m.get("text")) for m in got],
                   [("ana", "hi bob\nsecond line"), ("ana", "and again")],
                   "after a restart bob gets both at hello, oldest first")
            chk.ok(all(isinstance(m.get("sent_ms"), int) and
                       m["sent_ms"] > 1700000000000 for m in got),
                   "each with when it was sent")
            chk.ok(bob.pending == [] or all("event" in m for m in
                                            bob.pending),
                   "nothing else waits")
            bob.close()
            time.sleep(0.3)
            chk.eq(int(store_rows(db, "SELECT count(*) FROM messages WHERE "
                                  "recipient = 'bob'")[0][0]), 0,
                   "given, then deleted")
            bob = login(srv.port, "bob", tok["bob"])
            chk.eq(messages(bob), [], "given once")
            ana = login(srv.port, "ana", tok["ana"])
            rep = req(ana, "message", name="bob", text="you are here")
            chk.eq(rep.get("kept"), False, "bob is here: not kept")
            got = messages(bob)
            chk.eq([m.get("text") for m in got], ["you are here"],
                   "given at once")
            ana.close()
            dan = Telnet(srv.port)
            try:
                dan.type("hello dan " + tok["dan"])
                got = dan.until(r"^\[message from o?s\d, .*\] o9$|^error")
                chk.ok(got and got[-1].endswith("] o9"),
                       "text mode: the kept messages after hello")
                text = "\n".join(got)
                chk.ok(re.search(r"^\[message from s0, \d{4}-\d\d-\d\d "
                                 r"\d\d:\d\d UTC\] n0$", text, re.M),
                       "each line says from whom and when: %r" % got[:4])
                chk.eq(len([x for x in got if x.startswith("[message")]),
                       PER_RECIPIENT, "all 50 of dan's")
            finally:
                dan.close()
            bob.close()
        finally:
            shut(srv)
    chk.done()


if __name__ == "__main__":
    main()
