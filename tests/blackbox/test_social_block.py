"""test_social_block.py: block NAME, unblock NAME and blocks (issue 30,
finding 8: there was no way to block anyone).

bob blocks ana (whatever the case she is typed in): her tells and
invites are refused, saying so, and never reach him; her seek does not
pair with his (eve's does); she cannot take a seat in his room; her room
chat reaches him only as its seq (hidden, no text: no gap in the room's
events), and over telnet not at all; her lobby chat does not reach him.
Everyone else still reaches both. blocks lists whom he blocks; unblock
lets her through again. A name nobody registered, oneself and a name
not blocked are refused; the list holds at most 100 names. A block is
stored before its reply: after SIGTERM and after kill -9 the restarted
server still has it (read back at hello)."""

import os
import signal
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import (Checks, Client, Server, args, is_error,  # noqa: E402
                     is_ok, login)
from test_telnet import FAST, Telnet, found  # noqa: E402

# The bound on one player's list (SERVER_BLOCKS_MAX).
BLOCKS_MAX = 100


def events(c, name, quiet=0.4):
    """The events called name among everything c gets until quiet."""
    return [m for m in c.drain(quiet) if m.get("event") == name]


def social(chk, ana, bob, eve):
    """tell and invite: refused from ana, fine from eve."""
    is_error(chk, ana.call("tell", name="bob", text="psst"), "not_allowed",
             "ana's tell to bob", ["bob blocks you"])
    room = ana.call("create", game="amazons", private=True)["state"]["room"]
    is_error(chk, ana.call("invite", name="bob", room=room), "not_allowed",
             "ana's invite to bob", ["bob blocks you"])
    is_ok(chk, eve.call("tell", name="bob", text="hi bob"), "eve's tell")
    got = [m for m in bob.drain(0.4) if m.get("event") in ("told",
                                                           "invited")]
    chk.eq([(m["event"], m.get("from")) for m in got], [("told", "eve")],
           "bob hears eve's tell and nothing of ana's")
    is_ok(chk, bob.call("tell", name="ana", text="go away"),
          "bob may still tell ana")
    is_ok(chk, ana.call("leave", room=room), "ana leaves her room")


def chat(chk, srv, ana, bob, eve):
    """Room chat as its seq only, lobby chat not at all, telnet nothing."""
    room = eve.call("create", game="ataxx",
                    options={"size": 5})["state"]["room"]
    is_ok(chk, ana.call("join", room=room), "ana sits with eve")
    is_ok(chk, bob.call("watch", room=room), "bob watches")
    tom = Telnet(srv.port)
    try:
        tom.type("hello tom")
        tom.until(r"Keep it")
        tom.type("block ana")
        found(chk, tom.until(r"^You block:"), r"^You block ana: no tells",
              "text: block in words")
        tom.type("watch " + room)
        tom.until(r"watching|Room " + room)
        tom.quiet(0.3)
        for c in (ana, bob, eve):
            c.drain(0.3)
        is_ok(chk, ana.call("say", room=room, text="spam spam"),
              "ana says something")
        is_ok(chk, eve.call("say", room=room, text="hello all"),
              "eve says something")
        mine = events(bob, "chat")
        theirs = events(eve, "chat")
        chk.eq([(m.get("from"), m.get("text"), m.get("hidden"))
                for m in mine],
               [(None, None, True), ("eve", "hello all", None)],
               "bob: ana's chat hidden, eve's whole")
        chk.eq([m.get("seq") for m in mine], [m.get("seq") for m in theirs],
               "bob's chat events keep the room's seq, no gap")
        chk.eq([m.get("text") for m in theirs], ["spam spam", "hello all"],
               "eve hears both")
        lines = tom.quiet(0.5)
        chk.ok(not any("spam" in x for x in lines) and
               any("hello all" in x for x in lines),
               "telnet: nothing of ana's chat, eve's shown: %r" % lines)
        is_ok(chk, ana.call("chat", text="lobby spam"), "ana's lobby chat")
        is_ok(chk, eve.call("chat", text="lobby hello"), "eve's lobby chat")
        chk.eq([m.get("text") for m in events(bob, "chat")],
               ["lobby hello"], "bob: lobby chat without ana's")
        lines = tom.quiet(0.5)
        chk.ok(not any("lobby spam" in x for x in lines),
               "telnet: no lobby chat of ana's: %r" % lines)
    finally:
        tom.close()
    for c in (ana, bob, eve):
        c.call("leave", room=room)
        c.drain(0.2)


def challenge(chk, ana, bob, eve):
    """A seat against bob, and a pairing with him, are not ana's."""
    room = bob.call("create", game="stones",
                    options={"first": "1"})["state"]["room"]
    is_error(chk, ana.call("join", room=room), "not_allowed",
             "ana takes a seat against bob", ["bob blocks you"])
    is_ok(chk, ana.call("watch", room=room), "ana may still watch")
    is_ok(chk, bob.call("leave", room=room), "bob closes his room")
    ana.call("leave", room=room)
    r = bob.call("seek", game="ataxx", options={"size": 7}, rated=False)
    is_ok(chk, r, "bob seeks ataxx")
    r = ana.call("seek", game="ataxx", options={"size": 7}, rated=False)
    is_ok(chk, r, "ana seeks the same")
    chk.eq(r.get("room"), None, "ana's seek does not pair with bob's")
    r = eve.call("seek", game="ataxx", options={"size": 7}, rated=False)
    chk.eq(r.get("opponent"), "bob", "eve's seek pairs with bob's: %r" % r)
    ana.call("unseek")
    for c in (ana, bob, eve):
        c.drain(0.2)
    if r.get("room"):
        bob.call("resign", room=r["room"])
        for c in (bob, eve):
            c.call("leave", room=r["room"])


def errors(chk, srv, bob):
    is_error(chk, bob.call("block", name="nobody"), "bad_name",
             "a name nobody registered", ["nobody is registered"])
    is_error(chk, bob.call("block", name="bad name!"), "bad_name",
             "not a name")
    is_error(chk, bob.call("block", name="BOB"), "not_allowed",
             "oneself", ["that is you"])
    is_error(chk, bob.call("unblock", name="eve"), "not_allowed",
             "eve is not blocked", ["do not block eve"])
    r = bob.call("block", name="ana")
    chk.eq(r.get("blocks"), ["ana"], "blocking ana again changes nothing")
    # The bound: 100 names in all.
    names = ["b%03d" % i for i in range(BLOCKS_MAX)]
    for n in names:
        login(srv.port, n).close()
    n_ok = sum(1 for n in names[:BLOCKS_MAX - 1]
               if bob.call("block", name=n).get("ok"))
    chk.eq(n_ok, BLOCKS_MAX - 1, "bob blocks 99 more")
    is_error(chk, bob.call("block", name=names[-1]), "limit_reached",
             "the 101st", ["100"])
    for n in names[:BLOCKS_MAX - 1]:
        bob.call("unblock", name=n)
    chk.eq(bob.call("blocks").get("blocks"), ["ana"], "back to ana alone")


def main():
    a = args()
    chk = Checks()
    tmp = tempfile.mkdtemp(prefix="tablero-block-")
    db = os.path.join(tmp, "t.db")
    srv = Server(a.build, db=db, extra=FAST).start()
    try:
        ana, bob, eve = (login(srv.port, n) for n in ("ana", "bob", "eve"))
        r = bob.call("block", name="ANA")
        is_ok(chk, r, "bob blocks ana, typed ANA")
        chk.eq((r.get("name"), r.get("blocks")), ("ana", ["ana"]),
               "the reply names her as registered, and the list")
        social(chk, ana, bob, eve)
        chat(chk, srv, ana, bob, eve)
        challenge(chk, ana, bob, eve)
        errors(chk, srv, bob)
        # SIGTERM: stored, read back at hello.
        toks = {n: c.token for n, c in (("ana", ana), ("bob", bob),
                                        ("eve", eve))}
        for c in (ana, bob, eve):
            c.close()
        chk.eq(srv.stop(), 0, "SIGTERM: exits 0")
        srv = Server(a.build, db=db, extra=FAST).start()
        ana = login_as(srv.port, "ana", toks["ana"])
        bob = login_as(srv.port, "bob", toks["bob"])
        chk.eq(bob.call("blocks").get("blocks"), ["ana"],
               "after SIGTERM: bob still blocks ana")
        is_error(chk, ana.call("tell", name="bob", text="x"), "not_allowed",
                 "after SIGTERM: ana's tell is refused")
        # kill -9 right after an acknowledged block and unblock.
        eve = login_as(srv.port, "eve", toks["eve"])
        is_ok(chk, bob.call("block", name="eve"), "bob blocks eve")
        is_ok(chk, bob.call("unblock", name="ana"), "bob unblocks ana")
        for c in (ana, bob, eve):
            c.close()
        srv.stop(signal.SIGKILL)
        srv = Server(a.build, db=db, extra=FAST).start()
        ana = login_as(srv.port, "ana", toks["ana"])
        bob = login_as(srv.port, "bob", toks["bob"])
        eve = login_as(srv.port, "eve", toks["eve"])
        chk.eq(bob.call("blocks").get("blocks"), ["eve"],
               "after kill -9: eve blocked, ana not")
        is_ok(chk, ana.call("tell", name="bob", text="hello again"),
              "unblocked, ana's tell goes through")
        chk.eq([m.get("from") for m in events(bob, "told")], ["ana"],
               "and reaches bob")
        is_error(chk, eve.call("tell", name="bob", text="x"), "not_allowed",
                 "eve's is refused")
        for c in (ana, bob, eve):
            c.close()
        chk.eq(srv.stop(), 0, "the last server exits 0")
    finally:
        srv.stop()
    chk.done()


def login_as(port, name, token):
    """A client logged in to an existing identity."""
    c = Client(port)
    r = c.call("hello", name=name, token=token)
    c.token = token if r and r.get("ok") else None
    return c


if __name__ == "__main__":
    main()
