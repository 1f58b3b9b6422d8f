"""test_badclient_private.py: a private room is reachable only with its id.

ana makes public and private rooms; mallory, logged in, counts room ids
(r1 .. r60, and the private id's neighbours) with every verb that names a
room and finds only the public ones: each other id gets the very error of a
room that does not exist. Private rooms are listed to nobody (rooms, who),
their ids are 'p' and twelve base32 letters, public ids show no gap, and
bob, given the id, joins and plays; after a restart the same holds.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import login, main_in_tmp, req, server, shut  # noqa: E402
from harness import is_ok  # noqa: E402

# The verbs that name a room, with the fields each needs.
VERBS = [("state", {}), ("export", {}), ("moves", {}), ("watch", {}),
         ("join", {}), ("say", {"text": "hi"}), ("leave", {}),
         ("resign", {}), ("move", {"move": "a1"}), ("claim", {}),
         ("rematch", {}), ("draw", {"action": "offer"}), ("undo", {}),
         ("restart", {}), ("hint", {}), ("next", {})]
# Ids counted.
COUNT = 60
PRIVATE_ID = re.compile(r"^p[a-z2-7]{12}$")


def strip(rep):
    """A reply without what differs between two requests (id) and the
    room id the message (and its args) echo."""
    rep = dict(rep or {})
    rep.pop("id", None)
    msg = rep.get("message")
    if isinstance(msg, str) and isinstance(rep.get("args"), list):
        # the echoed id is also an argument of the message's msgid
        rep["args"] = ["ID" if isinstance(a, str) and "'%s'" % a in msg
                       else a for a in rep["args"]]
    if isinstance(msg, str):
        rep["message"] = re.sub(r"'[^']*'", "'ID'", msg)
    return rep


def neighbours(pid):
    """Ids one letter away from a private id: a guess that is close."""
    out = []
    for i in range(1, len(pid)):
        c = "a" if pid[i] != "a" else "b"
        out.append(pid[:i] + c + pid[i + 1:])
    return out


def counting(ck, port, public, private, what):
    """mallory counts ids: only the public rooms answer, every other id
    gets the error of a room that does not exist."""
    m = login(port, "mallory%d" % len(what))
    ghost = {verb: strip(req(m, verb, room="nosuchroom", **f))
             for verb, f in VERBS}
    ids = ["r%d" % i for i in range(1, COUNT + 1)]
    for p in private:
        ids += neighbours(p) + [p.upper(), "r" + p[1:]]
    found = set()
    for rid in ids:
        for verb, f in VERBS:
            rep = req(m, verb, room=rid, **f)
            if (rep or {}).get("error") == "no_such_room":
                ck.eq(strip(rep), ghost[verb], "%s: %s %s is a ghost" %
                      (what, verb, rid))
            else:
                found.add(rid)
            if verb in ("watch", "join") and (rep or {}).get("ok"):
                req(m, "leave", room=rid)
    ck.eq(sorted(found), sorted(public), "%s: counting finds only the "
          "public rooms" % what)
    ck.eq(found & set(private), set(), "%s: counting finds no private "
          "room" % what)
    listed = [r["room"] for r in req(m, "rooms").get("rooms", [])]
    ck.eq(set(listed) & set(private), set(), "%s: rooms lists no private "
          "room" % what)
    who = req(m, "who").get("players", [])
    ck.eq([p for p in who if set(p.get("rooms", [])) & set(private)], [],
          "%s: who shows no private room" % what)
    m.close()


def run(ck, a, tmp):
    db = os.path.join(tmp, "t.db")
    s = server(a.build, db=db)
    ana = login(s.port, "ana")
    bob = login(s.port, "bob")
    public, private = [], []
    for i in range(3):
        # Full (a bot plays), so that mallory's join is refused.
        r = req(ana, "create", game="ataxx", options={"size": 5}, bot=1)
        public.append(r["room"])
        r = req(ana, "create", game="stones", private=True)
        ck.ok(is_ok(ck, r, "private create") and
              PRIVATE_ID.match(r.get("room", "")) is not None,
              "a private id is p and 12 base32 letters: %r" %
              (r or {}).get("room"))
        ck.eq(r["state"]["private"], True, "the state says private")
        private.append(r.get("room", ""))
    ck.eq(public, ["r1", "r2", "r3"], "public ids have no gaps")
    ck.eq(len(set(private)), 3, "private ids differ")
    counting(ck, s.port, public, private, "counting")
    # With the id, bob joins and the game starts.
    r = req(bob, "join", room=private[0])
    is_ok(ck, r, "bob joins with the id")
    ck.eq((r or {}).get("state", {}).get("status"), "playing",
          "the private game starts")
    listed = [x["room"] for x in req(bob, "rooms").get("rooms", [])]
    ck.eq(set(listed) & set(private), set(), "not listed to its players "
          "either")
    hello = login(s.port, "bob", bob.token).hello
    ck.eq([x["room"] for x in hello.get("rooms", [])], [private[0]],
          "hello lists the private room to its player")
    shut(s)
    s = server(a.build, db=db)
    ana = login(s.port, "ana", ana.token)
    ck.eq(sorted(x["room"] for x in ana.hello.get("rooms", [])),
          sorted(public + private), "after a restart: the same ids")
    counting(ck, s.port, public, private, "after a restart")
    r = req(ana, "create", game="ataxx", options={"size": 5}, bot=1)
    ck.eq((r or {}).get("room"), "r4", "the next public id follows on")
    shut(s)


if __name__ == "__main__":
    main_in_tmp("tablero-badprivate-", run)
