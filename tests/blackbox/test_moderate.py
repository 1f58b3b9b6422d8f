"""test_moderate.py: the operators' verbs (issue 30, stopping a nuisance:
there were no operators).

tablerod --admin root: only root may kick, mute, unmute, ban, unban,
list the bans and announce (everyone else gets not_allowed); nobody may
sanction an operator, nor ban their own address. kick closes a
player's connection with a kicked error line (they may come back);
mute NAME [MINUTES] stops their chat, say, tell and invite with a
muted error until it runs out or unmute; ban NAME closes their
connection and refuses their hello with banned; ban ADDRESS[/BITS]
closes and refuses every connection from that network (clients bound
to 127.0.0.2 and .3 stand for other hosts), unban lifts either;
announce reaches every connection that is logged in or watching, in
JSON and in words. Every act is logged and stored (admin_log), and
bans and mutes survive SIGTERM and kill -9. Text mode says each in
words; a bad --admin name stops tablerod at start."""

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import (WAIT, Checks, Client, Server, args, is_error,  # noqa
                     is_ok, login, store_rows)
from test_telnet import FAST, Telnet, found  # noqa: E402

ADMIN = ["--admin", "root"]


class From(Client):
    """A client whose connection comes from another loopback address."""

    def __init__(self, port, src, welcome=True):
        self.sock = socket.create_connection(("127.0.0.1", port), WAIT,
                                             source_address=(src, 0))
        self.sock.settimeout(WAIT)
        self.buf = b""
        self.pending = []
        self.next_id = 1
        if welcome:
            self.welcome = self.json()


def closed_with(c, code):
    """The error line (re null) c's connection ends with, then the close:
    its message, or None when it does not end so."""
    msg = None
    deadline = time.time() + WAIT
    while time.time() < deadline:
        try:
            m = c.read(max(0.01, deadline - time.time()))
        except (TimeoutError, OSError, ValueError):
            return None
        if m is None:
            return msg
        if m.get("error") == code and m.get("re", 1) is None:
            msg = m.get("message")
    return None


def not_operators(chk, ana):
    for verb, fields in (("kick", {"name": "bob"}),
                         ("mute", {"name": "bob"}),
                         ("unmute", {"name": "bob"}),
                         ("ban", {"name": "bob"}),
                         ("unban", {"name": "bob"}),
                         ("bans", {}),
                         ("announce", {"text": "hi"})):
        is_error(chk, ana.call(verb, **fields), "not_allowed",
                 "%s from a player" % verb, ["operators"])


def mute(chk, root, ana, bob):
    is_error(chk, root.call("mute", name="ana", minutes=0), "bad_request",
             "mute for 0 minutes", ["unmute"])
    is_error(chk, root.call("mute", name="root"), "not_allowed",
             "an operator is not muted", ["operator"])
    is_error(chk, root.call("mute", name="nobody"), "bad_name",
             "nobody registered")
    r = root.call("mute", name="ANA", minutes=5)
    is_ok(chk, r, "root mutes ana for 5 minutes")
    chk.eq((r.get("name"), r.get("minutes")), ("ana", 5),
           "the reply: who and how long")
    room = bob.call("create", game="amazons")["state"]["room"]
    is_ok(chk, ana.call("watch", room=room), "ana watches bob's room")
    for verb, fields in (("chat", {"text": "x"}),
                         ("say", {"room": room, "text": "x"}),
                         ("tell", {"name": "bob", "text": "x"}),
                         ("invite", {"name": "bob", "room": room})):
        is_error(chk, ana.call(verb, **fields), "muted",
                 "muted ana's %s" % verb, ["muted you for 5 more minutes"])
    chk.eq([m for m in bob.drain(0.3)
            if m.get("event") in ("chat", "told", "invited")], [],
           "bob hears nothing of it")
    is_ok(chk, ana.call("moves", room=room), "a muted player still plays "
          "and reads")
    r = root.call("bans")
    chk.eq([(m.get("name"), m.get("by")) for m in r.get("mutes", [])],
           [("ana", "root")], "bans lists the mute")
    is_ok(chk, root.call("unmute", name="ana"), "root unmutes ana")
    is_ok(chk, ana.call("tell", name="bob", text="thanks"),
          "ana tells again")
    is_error(chk, root.call("unmute", name="ana"), "not_allowed",
             "unmute of someone not muted", ["not muted"])
    is_ok(chk, root.call("mute", name="ana"), "mute until unmute")
    is_error(chk, ana.call("chat", text="x"), "muted",
             "muted until further notice", ["until further notice"])
    bob.call("leave", room=room)
    ana.call("leave", room=room)
    bob.drain(0.2)


def kick(chk, srv, root, toks):
    eve = Client(srv.port)
    eve.call("hello", name="eve", token=toks["eve"])
    is_error(chk, root.call("kick", name="root"), "not_allowed",
             "an operator is not kicked")
    is_ok(chk, root.call("kick", name="eve"), "root kicks eve")
    chk.eq(closed_with(eve, "kicked"), "an operator closed your connection",
           "eve: a kicked line, then the close")
    eve = Client(srv.port)
    is_ok(chk, eve.call("hello", name="eve", token=toks["eve"]),
          "a kicked player may come back")
    eve.close()
    time.sleep(0.2)
    is_error(chk, root.call("kick", name="eve"), "not_allowed",
             "kick of someone not connected", ["not connected"])


def ban_name(chk, srv, root, toks):
    dee = Client(srv.port)
    is_ok(chk, dee.call("hello", name="dee", token=toks["dee"]),
          "dee logged in")
    r = root.call("ban", name="dee")
    is_ok(chk, r, "root bans dee")
    chk.eq((r.get("name"), r.get("closed")), ("dee", 1),
           "her one connection closed")
    chk.eq(closed_with(dee, "banned"), "an operator banned you",
           "dee: a banned line, then the close")
    dee = Client(srv.port)
    is_error(chk, dee.call("hello", name="DEE", token=toks["dee"]),
             "banned", "dee's hello, however spelt", ["banned"])
    dee.close()


def ban_address(chk, srv, root):
    is_error(chk, root.call("ban", name="127.0.0.0/8"), "not_allowed",
             "a network holding the operator's address",
             ["your own address"])
    is_error(chk, root.call("ban", address="127.0.0.300"), "bad_request",
             "not an address", ["no address"])
    r = root.call("ban", address="2001:DB8::1/32")
    chk.eq(r.get("address"), "2001:db8::/32", "IPv6, as the server "
           "writes it")
    two = From(srv.port, "127.0.0.2")
    is_ok(chk, two.call("hello", name="tom"), "tom from 127.0.0.2")
    guest = From(srv.port, "127.0.0.2")
    three = From(srv.port, "127.0.0.3")
    r = root.call("ban", name="127.0.0.2")
    is_ok(chk, r, "root bans 127.0.0.2 (shorthand's one argument)")
    chk.eq((r.get("address"), r.get("closed")), ("127.0.0.2/32", 2),
           "both its connections closed")
    for c, what in ((two, "tom"), (guest, "a connection before hello")):
        chk.eq(closed_with(c, "banned"), "an operator banned your address",
               "%s: a banned line, then the close" % what)
    is_ok(chk, three.call("ping"), "127.0.0.3 stays")
    c = From(srv.port, "127.0.0.2", welcome=False)
    chk.eq(closed_with(c, "banned"),
           "an operator banned your address from this server",
           "a new connection from 127.0.0.2: banned at once, no welcome")
    three.close()
    return "127.0.0.2/32"


def announce(chk, srv, root, bob):
    watcher = Client(srv.port)
    rooms = watcher.call("rooms")
    chk.ok(rooms.get("ok"), "a guest looks at the rooms")
    tel = Telnet(srv.port)
    tel.type("hello tel")
    tel.until(r"Keep it")
    r = root.call("announce", text="server restarts at noon\nsave games")
    is_ok(chk, r, "root announces")
    chk.ok(r.get("reached", 0) >= 4, "reached everyone: %r" % r)
    for c, who in ((bob, "bob"), (watcher, "a guest")):
        ev = c.event("announcement") or {}
        chk.eq((ev.get("from"), ev.get("text")),
               ("root", "server restarts at noon\nsave games"),
               "%s hears it" % who)
    found(chk, tel.until(r"save games"),
          r"^\*\*\* root \(operator\): save games$",
          "telnet: every line of it in words")
    watcher.close()
    tel.close()


def text_mode(chk, srv, toks):
    root = Telnet(srv.port)
    try:
        root.type("hello root " + toks["root"])
        root.until(r"Hello")
        root.type("mute bob 10")
        found(chk, root.until(r"^Muted"), r"^Muted bob for 10 minutes\.$",
              "text: mute in words")
        root.type("bans")
        found(chk, root.until(r"bob by root"), r"^  bob by root since ",
              "text: bans lists the mute")
        root.type("unmute bob")
        found(chk, root.until(r"^Unmuted"), r"^Unmuted bob\.$",
              "text: unmute in words")
        root.type("announce back soon")
        found(chk, root.until(r"^Announced"),
              r"^Announced to \d+ connections?\.$", "text: announce")
    finally:
        root.close()


def stored(chk, db, acts):
    rows = store_rows(db, "SELECT admin, act, target FROM admin_log "
                      "ORDER BY at_ms")
    chk.eq([tuple(r) for r in rows], acts,
           "every act in admin_log, in order")


def main():
    a = args()
    chk = Checks()
    tmp = tempfile.mkdtemp(prefix="tablero-moderate-")
    db = os.path.join(tmp, "t.db")
    bad = subprocess.run([os.path.join(a.build, "tablerod"), "--admin",
                          "no way", "--db", ":memory:"],
                         stderr=subprocess.PIPE, timeout=WAIT)
    chk.ok(bad.returncode == 2 and b"--admin" in bad.stderr,
           "a bad --admin name stops tablerod: %r" % (bad.stderr,))
    try:
        srv = Server(a.build, db=db, extra=FAST + ADMIN).start()
    except RuntimeError as e:
        chk.ok(False, "tablerod --admin root starts: %s" % str(e)[-200:])
        chk.done()
    try:
        chk.ok("--admin root: nobody is registered" in srv.logtext(),
               "the log says the operator's name is not registered yet")
        root = login(srv.port, "root")
        ana, bob = login(srv.port, "ana"), login(srv.port, "bob")
        toks = {"root": root.token, "ana": ana.token, "bob": bob.token}
        for n in ("dee", "eve"):
            c = login(srv.port, n)
            toks[n] = c.token
            c.close()
        not_operators(chk, ana)
        mute(chk, root, ana, bob)
        kick(chk, srv, root, toks)
        ban_name(chk, srv, root, toks)
        net = ban_address(chk, srv, root)
        announce(chk, srv, root, bob)
        text_mode(chk, srv, toks)
        chk.ok("operator root: ban dee: identity" in srv.logtext(),
               "the log has each act")
        acts = [("root", "mute", "ana"), ("root", "unmute", "ana"),
                ("root", "mute", "ana"), ("root", "kick", "eve"),
                ("root", "ban", "dee"), ("root", "ban", "2001:db8::/32"),
                ("root", "ban", net), ("root", "announce", ""),
                ("root", "mute", "bob"), ("root", "unmute", "bob"),
                ("root", "announce", "")]
        stored(chk, db, acts)
        for c in (root, ana, bob):
            c.close()
        # SIGTERM: the bans and the mute are still in force.
        chk.eq(srv.stop(), 0, "SIGTERM: exits 0")
        srv = Server(a.build, db=db, extra=FAST + ADMIN).start()
        ana = Client(srv.port)
        is_ok(chk, ana.call("hello", name="ana", token=toks["ana"]),
              "ana after SIGTERM")
        is_error(chk, ana.call("chat", text="x"), "muted",
                 "after SIGTERM: ana still muted")
        dee = Client(srv.port)
        is_error(chk, dee.call("hello", name="dee", token=toks["dee"]),
                 "banned", "after SIGTERM: dee still banned")
        c = From(srv.port, "127.0.0.2", welcome=False)
        chk.ok(closed_with(c, "banned") is not None,
               "after SIGTERM: 127.0.0.2 still banned")
        root = Client(srv.port)
        root.call("hello", name="root", token=toks["root"])
        is_ok(chk, root.call("unban", name="dee"), "root unbans dee")
        is_ok(chk, root.call("unban", address="127.0.0.2"),
              "root unbans 127.0.0.2")
        is_ok(chk, root.call("unmute", name="ana"), "root unmutes ana")
        is_ok(chk, root.call("ban", name="bob"), "root bans bob")
        is_error(chk, root.call("unban", name="dee"), "not_allowed",
                 "unban of someone not banned", ["not banned"])
        for x in (ana, dee, root):
            x.close()
        # kill -9 right after: what was acknowledged is what holds.
        srv.stop(signal.SIGKILL)
        srv = Server(a.build, db=db, extra=FAST + ADMIN).start()
        dee = Client(srv.port)
        is_ok(chk, dee.call("hello", name="dee", token=toks["dee"]),
              "after kill -9: dee unbanned")
        ana = Client(srv.port)
        ana.call("hello", name="ana", token=toks["ana"])
        is_ok(chk, ana.call("chat", text="free again"),
              "after kill -9: ana unmuted")
        two = From(srv.port, "127.0.0.2")
        is_ok(chk, two.call("ping"), "after kill -9: 127.0.0.2 unbanned")
        bob = Client(srv.port)
        is_error(chk, bob.call("hello", name="bob", token=toks["bob"]),
                 "banned", "after kill -9: bob banned")
        for x in (dee, ana, two, bob):
            x.close()
        chk.eq(srv.stop(), 0, "the last server exits 0")
    finally:
        srv.stop()
    chk.done()


if __name__ == "__main__":
    main()
