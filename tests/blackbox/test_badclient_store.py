"""test_badclient_store.py: acknowledged means stored, nothing
unacknowledged is shown, and the server answers while the store fails.

tablerod runs with the test-only hook TABLERO_TEST_STORE_FAULTS naming a
control file: while it holds "fail" every write fails as on a full disk.
Memory is the truth: the first change after the fault (a create) is made
in memory and its reply held; its group fails and is kept. From then on
each state-changing verb (create, join that starts a game, watch, say,
draw offer, accept and decline, resign, claim, leave, rematch, move,
undo, restart, next, hello, takeback, seek, tourney create and join,
block and unblock, password, message, and the operators' kick, mute, unmute, ban, unban
and announce) is refused at once with store_failing,
nobody hears an event, and a ping is answered. After a kill -9 the
stored rooms are exactly as acknowledged before the fault. On a server
whose store fails and comes back, the held reply goes out without a
restart and every verb works again; after a SIGTERM restart the stored
rooms are exactly what was acknowledged. The opponent of a player whose
move is held still gets a ping's answer and a store_failing refusal at
once, and a read of the room only behind the move's event. A bot's move, a game's end by
the rules and a flag's fall wait for the store and happen once it is
back; a store failing past --store-give-up makes tablerod exit non-zero,
and a restart recovers what was committed.
"""

import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import (Solo, log_says, login, main_in_tmp,  # noqa: E402
                       req, server, settle, shut, until)
from harness import Client, is_error, is_ok  # noqa: E402

# Seconds a gone player's seat is held: 0, so claim is allowed at once.
# obs is an operator, for the operators' verbs that store.
FLAGS = ["--grace", "0", "--admin", "obs"]
# Seconds a held reply is waited for to show it does not come.
HELD_S = 1.0
# Seconds of failing after which the give-up server exits, and how long
# the test waits for that at most.
GIVE_UP_S = 1
GIVE_UP_WAIT_S = 15


class Faults:
    """The control file of the store fault hook."""

    def __init__(self, path):
        self.path = path

    def on(self):
        with open(self.path, "w") as f:
            f.write("fail")

    def off(self):
        if os.path.exists(self.path):
            os.unlink(self.path)


def norm(st):
    """What must survive a restart of a room's state: not who is
    connected, not the watchers, not what PROTOCOL.md says is kept in
    memory only (the last chat lines, a pending draw or take-back
    offer), and adjourned is playing."""
    st = dict(st)
    for k in ("watchers", "clocks", "picture", "chat", "draw_offer",
              "takeback_offer"):
        st.pop(k, None)
    st["seats"] = [{k: v for k, v in s.items() if k != "connected"}
                   for s in st.get("seats", [])]
    if st.get("status") == "adjourned":
        st["status"] = "playing"
    if st.get("status") == "ended":
        # a finished game after a restart comes from the games kept in
        # the store: the game as it ended, not the room's event count
        st = {k: st.get(k) for k in ("room", "game", "options", "seats",
                                     "status", "result", "position",
                                     "board", "history")}
    return st


def no_reply(c, rid, secs=HELD_S):
    """Does the reply to rid stay away for secs (held, or the line
    closed without it)?"""
    try:
        return c.reply(rid, timeout=secs) is None
    except (TimeoutError, OSError):
        return True


def trigger(ck, s, c, what):
    """The first change after the fault: made in memory, its reply held;
    the store then reports failing. The request id, to read the reply
    once the store is back."""
    rid = c.send("create", game="ataxx", options={"size": 5})
    ck.ok(no_reply(c, rid), "%s: the change's reply is held" % what)
    ck.ok(log_says(s, "changes are refused until it stores again"),
          "%s: the store reports failing" % what)
    return rid


def state(c, room):
    r = req(c, "state", room=room)
    return (r or {}).get("state")


def quiet(ck, clients, what):
    """No client hears any event (read until the line is quiet)."""
    for c in clients:
        c.log = []
        settle(c, 0.3)
        ck.eq([e.get("event") for e in c.log], [], "%s: %s hears nothing"
              % (what, c.name))


class World:
    """The rooms of the test and the players in them."""

    def __init__(self, ck, port):
        self.ck = ck
        self.port = port
        self.c = {}
        for n in ("ana", "bob", "cy", "dee", "eve", "obs"):
            self.c[n] = login(port, n)
        self.rooms = {}

    def make(self, tag, who, game, **fields):
        r = req(self.c[who], "create", game=game, **fields)
        self.ck.ok(r and r.get("ok"), "%s: create: %r" % (tag, r))
        self.rooms[tag] = (r or {}).get("room")
        return self.rooms[tag]

    def states(self):
        return {tag: state(self.c["obs"], room)
                for tag, room in self.rooms.items()}


def one_move(ck, w, tag, room, names):
    """Whoever of names is to move in room plays a legal move: a game that
    ends before any move is not kept (issue 18), and these must be."""
    for n in names:
        mv = (req(w.c[n], "moves", room=room) or {}).get("moves") or []
        r = req(w.c[n], "move", room=room, move=mv[0]) if mv else None
        if r and r.get("ok"):
            return ck.ok(True, "%s: a move" % tag)
    return ck.ok(False, "%s: a move" % tag)


def setup(ck, w):
    """Rooms in the states the refused verbs start from."""
    ana, bob, cy = w.c["ana"], w.c["bob"], w.c["cy"]
    # waiting: bob's join would start it; ana's leave would close it.
    w.make("waiting", "ana", "ataxx", options={"size": 5})
    # playing: ana and bob, a move made, bob's draw offer pending.
    room = w.make("play", "ana", "ataxx", options={"size": 5},
                  seat="white")
    is_ok(ck, req(bob, "join", room=room), "play: bob joins")
    mv = req(ana, "moves", room=room)["moves"][0]
    is_ok(ck, req(ana, "move", room=room, move=mv), "play: a move")
    # draw: bob offered a draw to ana (accept and decline refused).
    room = w.make("draw", "cy", "ataxx", options={"size": 5},
                  seat="white")
    is_ok(ck, req(bob, "join", room=room), "draw: bob joins")
    one_move(ck, w, "draw", room, ("cy", "bob"))
    is_ok(ck, req(bob, "draw", room=room, action="offer"), "draw: offer")
    # ended: resigned, so a rematch may be asked.
    room = w.make("ended", "ana", "stones", options={"first": "1"})
    is_ok(ck, req(cy, "join", room=room), "ended: cy joins")
    one_move(ck, w, "ended", room, ("ana", "cy"))
    is_ok(ck, req(cy, "resign", room=room), "ended: cy resigns")
    # res: ana and eve playing; ana will resign.
    room = w.make("res", "ana", "ataxx", options={"size": 5})
    is_ok(ck, req(w.c["eve"], "join", room=room), "res: eve joins")
    one_move(ck, w, "res", room, ("ana", "eve"))
    # gone: dee left the line, eve may claim (grace 0).
    room = w.make("gone", "eve", "ataxx", options={"size": 5})
    is_ok(ck, req(w.c["dee"], "join", room=room), "gone: dee joins")
    one_move(ck, w, "gone", room, ("eve", "dee"))
    w.c["dee"].close()
    until(w.c["eve"], lambda e: e.get("event") == "opponent_gone")


def solo_setup(ck, port):
    """A shifter level half played (undo, restart) and one won (next)."""
    half = Solo(ck, port, "half", "shifter", {"level": 2, "seed": 5})
    h = half.call("hint") or {}
    is_ok(ck, half.call("move", move=h.get("move", "a1")),
          "half: a hinted move")
    won = Solo(ck, port, "won", "shifter", {"level": 1, "seed": 5})
    won.follow_hints(10)
    st = won.state()
    ck.eq((st["status"], st["options"].get("level")), ("playing", "2"),
          "won: level 1 solved, level 2 goes on by itself")
    return half, won


def refused(ck, w, c, cmd, what, **fields):
    r = req(c, cmd, **fields)
    is_error(ck, r, "store_failing", "%s refused" % what,
             ["cannot store games right now"])


def every_verb_refused(ck, w, half, won, port):
    """With the store failing each verb is refused at once, unheard; a
    ping is answered."""
    ana, bob, cy, eve = w.c["ana"], w.c["bob"], w.c["cy"], w.c["eve"]
    rm = w.rooms
    everyone = list(w.c.values()) + half.clients + won.clients
    everyone = [c for c in everyone if c.name != "dee"]
    for c in everyone:
        settle(c, 0.1)
    is_ok(ck, req(cy, "ping"), "a ping is answered")
    refused(ck, w, cy, "create", "create", game="ataxx",
            options={"size": 5})
    refused(ck, w, bob, "join", "join (starts the game)", room=rm["waiting"])
    refused(ck, w, cy, "watch", "watch", room=rm["play"])
    refused(ck, w, ana, "say", "say", room=rm["play"], text="hello")
    refused(ck, w, ana, "draw", "draw offer", room=rm["play"],
            action="offer")
    refused(ck, w, cy, "draw", "draw accept", room=rm["draw"],
            action="accept")
    refused(ck, w, cy, "draw", "draw decline", room=rm["draw"],
            action="decline")
    refused(ck, w, ana, "takeback", "takeback offer", room=rm["play"],
            action="offer")
    refused(ck, w, ana, "resign", "resign", room=rm["res"])
    refused(ck, w, eve, "claim", "claim", room=rm["gone"])
    refused(ck, w, bob, "leave", "leave while playing", room=rm["play"])
    refused(ck, w, ana, "leave", "leave a waiting room", room=rm["waiting"])
    refused(ck, w, ana, "rematch", "rematch", room=rm["ended"])
    refused(ck, w, bob, "move", "move", room=rm["play"], move="a1")
    refused(ck, w, half.p, "undo", "undo", room=half.room)
    refused(ck, w, half.p, "restart", "restart", room=half.room)
    refused(ck, w, won.p, "next", "next", room=won.room)
    refused(ck, w, cy, "seek", "seek (its pairing makes a room)",
            game="stones")
    refused(ck, w, cy, "tourney", "tourney create", do="create",
            game="stones")
    refused(ck, w, cy, "tourney", "tourney join", do="join", tourney="t1")
    refused(ck, w, cy, "block", "block", name="eve")
    refused(ck, w, cy, "unblock", "unblock", name="eve")
    refused(ck, w, cy, "password", "password", password="long enough 1")
    refused(ck, w, cy, "message", "message (a kept one is a row)",
            name="eve", text="hi")
    obs = w.c["obs"]
    refused(ck, w, obs, "kick", "kick", name="eve")
    refused(ck, w, obs, "mute", "mute", name="eve", minutes=5)
    refused(ck, w, obs, "unmute", "unmute", name="eve")
    refused(ck, w, obs, "ban", "ban", name="eve")
    refused(ck, w, obs, "ban", "ban an address", address="192.0.2.1")
    refused(ck, w, obs, "unban", "unban", name="eve")
    refused(ck, w, obs, "announce", "announce", text="hello")
    c = Client(port)
    refused(ck, w, c, "hello", "hello", name="newcomer")
    c.close()
    quiet(ck, everyone, "refused verbs")


def restarted(ck, s, tmp, sig, w, expect, solo, solo_expect):
    """Stop the server with sig, start it on the same file, and compare
    each room's stored state with what was expected (None: gone)."""
    shut(s, sig)
    return restarted_from(ck, tmp, w, expect, solo, solo_expect, sig.name)


def restarted_from(ck, tmp, w, expect, solo, solo_expect, how="kill -9"):
    """Start a server on the test's file and compare each room's stored
    state with what was expected (None: gone)."""
    s = server(ck.build, db=os.path.join(tmp, "t.db"), extra=FLAGS)
    obs = login(s.port, "obs", w.c["obs"].token)
    got = {}
    for tag, room in list(w.rooms.items()) + list(zip(solo, solo)):
        st = state(obs, room)
        want = expect[tag] if tag in expect else solo_expect[tag]
        ck.eq(norm(st) if st else None, norm(want) if want else None,
              "%s: after %s, stored as acknowledged" % (tag, how))
        got[tag] = st
    obs.close()
    return s, got


def every_verb_works(ck, w, half, won):
    """With the fault cleared the same verbs are acknowledged; the states
    they left, for the restart (None: ended rooms are not kept)."""
    ana, bob, cy, eve = w.c["ana"], w.c["bob"], w.c["cy"], w.c["eve"]
    rm = w.rooms
    r = req(cy, "create", game="ataxx", options={"size": 5})
    is_ok(ck, r, "create works again")
    rm["created"] = (r or {}).get("room")
    is_ok(ck, req(cy, "moves", room=rm["created"]),
          "the created room takes requests")
    is_ok(ck, req(bob, "join", room=rm["waiting"]), "join works again")
    is_ok(ck, req(ana, "say", room=rm["play"], text="hi"), "say works")
    is_ok(ck, req(cy, "watch", room=rm["play"]), "watch works")
    is_ok(ck, req(cy, "draw", room=rm["draw"], action="accept"),
          "draw accept works")
    is_ok(ck, req(eve, "claim", room=rm["gone"]), "claim works")
    is_ok(ck, req(ana, "rematch", room=rm["ended"]), "rematch works")
    is_ok(ck, req(cy, "rematch", room=rm["ended"]), "rematch starts")
    is_ok(ck, req(ana, "resign", room=rm["res"]), "resign works")
    h = half.call("hint") or {}
    is_ok(ck, half.call("move", move=h.get("move", "a1")),
          "half: move works")
    is_ok(ck, half.call("undo"), "undo works")
    is_ok(ck, won.call("next"), "next works")
    r = req(cy, "tourney", do="create", game="stones")
    is_ok(ck, r, "tourney create works")
    is_ok(ck, req(cy, "tourney", do="join",
                  tourney=((r or {}).get("tourney") or {}).get("id")),
          "tourney join works")
    is_ok(ck, req(cy, "block", name="eve"), "block works")
    is_ok(ck, req(cy, "password", password="long enough 1"),
          "password works")
    is_ok(ck, req(w.c["obs"], "mute", name="eve", minutes=1),
          "an operator's mute works")
    expect = w.states()
    # Ended games are not reloaded as rooms, never adjourned and playable:
    # after a restart state shows the game kept in the store as it ended.
    for tag in ("draw", "gone", "res"):
        ck.eq(expect[tag]["status"], "ended", "%s: ended" % tag)
    return expect, {half.room: half.state(), won.room: won.state()}


def opponent_answers(ck, a, tmp, faults):
    """The mover's move is held while the store fails; the opponent, who
    has the moved event held for them, still gets a ping's answer and a
    store_failing refusal at once, without the event; a read of the room
    (which would show the move) waits behind the event; once the store is
    back the mover's reply, the event and the read arrive, in that order
    for the opponent."""
    s = server(a.build, db=os.path.join(tmp, "opp.db"))
    ana, bob = login(s.port, "oa"), login(s.port, "ob")
    room = (req(ana, "create", game="ataxx", options={"size": 5})
            or {}).get("room")
    is_ok(ck, req(bob, "join", room=room), "opponent: bob joins")
    settle(ana, 0.2)
    settle(bob, 0.2)
    faults.on()
    rid = ana.send("move", room=room, move="b4")
    ck.ok(no_reply(ana, rid), "opponent: the mover's reply is held")
    bob.log = []
    is_ok(ck, req(bob, "ping"), "opponent: a ping is answered while the "
          "store fails")
    refused(ck, None, bob, "say", "opponent: say", room=room, text="hi")
    ck.eq([e.get("event") for e in bob.log], [], "opponent: the held "
          "move is not heard")
    sid = bob.send("state", room=room)
    ck.ok(no_reply(bob, sid), "opponent: a read of the room waits")
    faults.off()
    is_ok(ck, ana.reply(rid), "opponent: the move acknowledged once the "
          "store is back")
    r = bob.reply(sid)
    # events read before the reply wait in pending: the moved event came
    # first, and the read shows the move
    moved = [m for m in bob.pending if m.get("event") == "moved"]
    ck.ok(r is not None and r.get("ok") and len(moved) == 1 and
          r["state"]["seq"] == moved[0]["seq"],
          "opponent: the event, then the read showing the move: %r %r"
          % (moved, (r or {}).get("state", {}).get("seq")))
    shut(s)


def bot_waits(ck, a, tmp, faults):
    """A move against a bot while the store fails: held, and the bot's
    answer too; once the store is back the move is acknowledged and the
    bot's move heard: the game never stalls."""
    s = server(a.build, db=os.path.join(tmp, "bot.db"),
               extra=["--bot-delay", "300"])
    p = login(s.port, "botfan")
    r = req(p, "create", game="ataxx", options={"size": 5}, bot=1)
    room = (r or {}).get("room")
    seq = state(p, room)["seq"]
    p.log = []
    faults.on()
    rid = p.send("move", room=room, move="b4")
    ck.ok(no_reply(p, rid, 1.5), "bot game: the move is held while the "
          "store fails")
    ck.eq([e.get("event") for e in p.log], [], "nothing while it fails")
    faults.off()
    is_ok(ck, p.reply(rid), "bot game: the move acknowledged once the "
          "store is back")
    ev = until(p, lambda e: e.get("event") == "moved" and
               e.get("seat") == "black")
    ck.ok(ev is not None and ev["seq"] == seq + 2, "the bot moves once "
          "the store is back: %r" % ev)
    shut(s)


def end_waits(ck, a, tmp, faults):
    """A move that ends the game by the rules is stored, but the store
    fails before the end: the game is not shown over until the end is
    stored, then ends by itself; after a restart it is over, never
    playable."""
    db = os.path.join(tmp, "end.db")
    s = server(a.build, db=db)
    w, b = login(s.port, "endw"), login(s.port, "endb")
    r = req(w, "create", game="ataxx", seat="white",
            options={"size": 5, "position": "xo3/5/5/5/5 x 0 1"})
    room = (r or {}).get("room")
    is_ok(ck, req(b, "join", room=room), "end: black joins")
    settle(b, 0.2)
    b.log = []
    with open(faults.path, "w") as f:
        f.write("pass 1")  # the move's write goes through, the end's not
    rid = w.send("move", room=room, move="a4")
    ck.ok(no_reply(w, rid), "end: the last move is not acknowledged "
          "while its group fails")
    settle(b, 0.5)
    ck.eq([e.get("event") for e in b.log], [], "end: neither the move "
          "nor the end is heard while the store fails")
    faults.off()
    is_ok(ck, w.reply(rid), "end: the move acknowledged once the store "
          "is back")
    ev = until(b, lambda e: e.get("event") == "ended")
    ck.ok(ev is not None and ev.get("reason") == "no pieces left",
          "end: the game ends with it: %r" % ev)
    shut(s, signal.SIGKILL)
    s = server(a.build, db=db)
    w = login(s.port, "endw", w.token)
    ck.eq(w.hello.get("rooms"), [], "end: after a restart it is over")
    shut(s)


def flag_waits(ck, a, tmp, faults):
    """A flag falls while the store fails: nobody is told the game is
    over until it is stored, then it ends on time by itself."""
    s = server(a.build, db=os.path.join(tmp, "flag.db"))
    w, b = login(s.port, "flagw"), login(s.port, "flagb")
    r = req(w, "create", game="ataxx", seat="white", options={"size": 5},
            clock={"initial": 1, "increment": 0})
    room = (r or {}).get("room")
    is_ok(ck, req(b, "join", room=room), "flag: the game starts")
    settle(b, 0.2)
    b.log = []
    faults.on()
    ck.ok(log_says(s, "changes are refused until it stores again"),
          "flag: the fall's group failed")
    settle(b, 1.5)
    ck.eq([e.get("event") for e in b.log], [], "flag: no end while the "
          "store fails")
    tries = s.logtext().count("changes are refused")
    ck.eq(tries, 1, "flag: the failing store is logged once, not each "
          "try")
    faults.off()
    ev = until(b, lambda e: e.get("event") == "ended")
    ck.ok(ev is not None and ev.get("reason") == "timeout" and
          ev.get("winner") == "black", "flag: white's flag falls once the "
          "store is back: %r" % ev)
    shut(s)


def give_up(ck, a, tmp, faults):
    """A store failing past --store-give-up: tablerod logs why and exits
    non-zero; a restart recovers what was committed, and nothing else."""
    db = os.path.join(tmp, "giveup.db")
    s = server(a.build, db=db, extra=["--store-give-up", str(GIVE_UP_S)])
    p = login(s.port, "quitter")
    r = req(p, "create", game="ataxx", options={"size": 5})
    kept = (r or {}).get("room")
    is_ok(ck, r, "give-up: a room made before the fault")
    faults.on()
    rid = p.send("create", game="ataxx", options={"size": 5})
    ck.ok(log_says(s, "giving up", GIVE_UP_WAIT_S), "give-up: logged")
    deadline = time.time() + GIVE_UP_WAIT_S
    while s.proc.poll() is None and time.time() < deadline:
        time.sleep(0.05)
    rc = s.proc.poll()
    ck.ok(rc is not None and rc != 0, "give-up: tablerod exited non-zero "
          "(%r)" % rc)
    ck.ok(no_reply(p, rid, 0.2), "give-up: the held create was never "
          "acknowledged")
    shut(s)
    faults.off()
    s = server(a.build, db=db)
    p = login(s.port, "quitter", p.token)
    r = req(p, "rooms")
    mine = [x["room"] for x in (r or {}).get("rooms", [])
            if x["seats"][0].get("name") == "quitter"]
    ck.eq(mine, [kept], "give-up: after a restart, the committed room "
          "alone")
    shut(s)


def run(ck, a, tmp):
    ck.build = a.build
    faults = Faults(os.path.join(tmp, "faults"))
    os.environ["TABLERO_TEST_STORE_FAULTS"] = faults.path
    s = server(a.build, db=os.path.join(tmp, "t.db"), extra=FLAGS)
    w = World(ck, s.port)
    setup(ck, w)
    half, won = solo_setup(ck, s.port)
    trig = login(s.port, "trig")
    before = w.states()
    solo = (half.room, won.room)
    solo_before = {half.room: half.state(), won.room: won.state()}
    faults.on()
    trigger(ck, s, trig, "first fault")
    every_verb_refused(ck, w, half, won, s.port)
    # kill -9 while failing: exactly what was acknowledged before it.
    shut(s, signal.SIGKILL)
    faults.off()
    s, got = restarted_from(ck, tmp, w, before, solo, solo_before)
    r = req(w.c["obs"], "rooms")
    ck.eq([x for x in (r or {}).get("rooms", [])
           if x["seats"][0].get("name") == "trig"], [],
          "the unacknowledged create is not stored")
    # The store fails and comes back: the held reply goes out without a
    # restart, and every verb works again.
    for n, c in w.c.items():
        c.close()
        if n != "dee":
            w.c[n] = login(s.port, n, c.token)
    for c in half.clients + won.clients:
        c.close()
    half.p = login(s.port, half.p.name, half.p.token)
    won.p = login(s.port, won.p.name, won.p.token)
    half.clients, won.clients = [half.p], [won.p]
    trig = login(s.port, "trig", trig.token)
    faults.on()
    rid = trigger(ck, s, trig, "second fault")
    r = req(w.c["ana"], "join", room=w.rooms["play"])
    is_error(ck, r, "store_failing", "join of one's own adjourned seat "
             "refused")
    faults.off()
    is_ok(ck, trig.reply(rid), "the held create is acknowledged once the "
          "store is back")
    ck.ok(log_says(s, "store: storing again"), "the store reports "
          "storing again")
    is_ok(ck, req(w.c["bob"], "join", room=w.rooms["play"]),
          "bob back in play")
    is_ok(ck, req(w.c["ana"], "join", room=w.rooms["play"]),
          "ana back in play")
    # A draw offer and a finished game are not rooms a restart brings
    # back: offered again, and a game ended again, for the verbs below.
    is_ok(ck, req(w.c["bob"], "draw", room=w.rooms["draw"],
                  action="offer"), "draw: offered again")
    room = w.make("ended", "ana", "stones", options={"first": "1"})
    is_ok(ck, req(w.c["cy"], "join", room=room), "ended: cy joins")
    is_ok(ck, req(w.c["cy"], "resign", room=room), "ended: cy resigns")
    expect, solo_expect = every_verb_works(ck, w, half, won)
    s, _ = restarted(ck, s, tmp, signal.SIGTERM, w, expect, solo,
                     solo_expect)
    shut(s)
    opponent_answers(ck, a, tmp, faults)
    bot_waits(ck, a, tmp, faults)
    end_waits(ck, a, tmp, faults)
    flag_waits(ck, a, tmp, faults)
    give_up(ck, a, tmp, faults)
    os.environ.pop("TABLERO_TEST_STORE_FAULTS", None)


if __name__ == "__main__":
    main_in_tmp("tablero-badstore-", run)
