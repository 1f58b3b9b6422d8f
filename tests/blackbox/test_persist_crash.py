"""test_persist_crash.py: kill -9 in the middle of a stream of moves loses
nothing that any client was told.

One data file; a room of each of the five kinds, part-played; then every
seat streams its planned moves as fast as its turn comes (one thread per
seat, all rooms at once) and the server is killed with SIGKILL halfway.
On restart (same file, new port) the players hello with their tokens and
find their rooms; every move for which any client got an ok reply or a
moved event is in the history, at its place; the history is a prefix of
what was planned. Then a second stream and a second kill, and at last the
players finish every game.
"""

import os
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import (WAIT, Streamer, ended, log_says, login,  # noqa: E402
                       main_in_tmp, play_out, req, seeded, server, settle,
                       shut, until)

P1, P2 = "player 1", "player 2"

# (tag, game, options, seats of people, moves played before the first
# stream, bots). The bot game has no plan: its person plays the first
# listed move, the bot (level 2) answers; its moves come from the server.
GAMES = [
    ("ax", "ataxx", {"size": 5}, ["white", "black"], 4),
    ("am", "amazons", None, ["white", "black"], 4),
    ("st", "stones", {"first": "1"}, [P1, P2], 2),
    ("so", "solitaire", {"steps": 24, "rows": 7, "cols": 7, "seed": 9},
     ["player"], 2),
    ("sh", "shifter", {"level": 20, "seed": 5}, ["player"], 2),
    ("ab", "ataxx", {"size": 7}, ["white"], 2, {"black": 2}),
]

# Moves the person of the bot game makes in each stream.
BOT_STREAM = 6

# Moves each two-player game plans in all (before, and in two streams).
PLAN_TWO = 40
# Moves at most to finish a game after the crashes.
FINISH_MAX = 2000


def rehearse(ck, port, tag, game, options, seats):
    """The moves of a game as (seat, move), played on a scratch server:
    two-player games with a seeded choice among the listed moves, the
    one-player ones by following hints. The last move before the end is
    left out, so the plan never finishes the game."""
    names = {}
    clients = {}
    for i, seat in enumerate(seats):
        clients[seat] = login(port, "%sr%d" % (tag, i))
        names[seat] = clients[seat].name
    fields = {"game": game}
    if options is not None:
        fields["options"] = options
    r = req(clients[seats[0]], "create", **fields)
    room = r["room"]
    for seat in seats[1:]:
        req(clients[seat], "join", room=room)
    plan = []
    pick = seeded(len(tag) * 31 + 7)
    one = clients[seats[0]]
    game_no = None
    while len(plan) < (PLAN_TWO if len(seats) == 2 else 200):
        st = req(one, "state", room=room)["state"]
        game_no = st.get("game_no") if game_no is None else game_no
        # a won level goes on to the next by itself: that ends it too
        if st["status"] != "playing" or st.get("game_no") != game_no:
            break
        mover = clients[st["turn"]]
        if len(seats) == 2:
            m = pick(req(mover, "moves", room=room)["moves"])
        else:
            m = req(mover, "hint", room=room).get("move")
        r = req(mover, "move", room=room, move=m)
        if not r or not r.get("ok"):
            ck.ok(False, "%s: rehearsal move %r: %r" % (tag, m, r))
            break
        plan.append((st["turn"], r["move"]))
    st = req(one, "state", room=room)["state"]
    if st["status"] == "ended" or st.get("game_no") != game_no:
        plan.pop()
    for c in clients.values():
        c.close()
    return plan


class Table:
    """One room on the server under test: its players, its plan."""

    def __init__(self, ck, port, tag, game, options, seats, before, plan,
                 bots=None):
        self.ck, self.tag, self.game, self.seats = ck, tag, game, seats
        self.plan = plan  # None: a game against a bot
        self.tokens = {}
        self.clients = {}
        for i, seat in enumerate(seats):
            c = login(port, "%sp%d" % (tag, i))
            self.clients[seat] = c
            self.tokens[seat] = (c.name, c.token)
        fields = {"game": game}
        if options is not None:
            fields["options"] = options
        if bots is not None:
            fields["bots"] = bots
        r = req(self.clients[seats[0]], "create", **fields)
        self.room = r["room"]
        for seat in seats[1:]:
            jr = req(self.clients[seat], "join", room=self.room)
            ck.eq(jr.get("seat"), seat, "%s: the joiner's seat" % tag)
        self.done = 0  # moves of the plan the server has (as far as known)
        if plan is None:
            self.bot_moves(before)
            return
        for seat, m in plan[:before]:
            r = req(self.clients[seat], "move", room=self.room, move=m)
            ck.ok(r and r.get("ok"), "%s: move %s %s: %r" % (tag, seat, m, r))
            self.done += 1

    def bot_moves(self, n):
        """The person plays n first-listed moves, waiting for the bot."""
        c = self.clients[self.seats[0]]
        while n > 0:
            st = req(c, "state", room=self.room)["state"]
            if st["status"] != "playing":
                self.ck.ok(False, "%s: the bot game ended early" % self.tag)
                return
            if st["turn"] != self.seats[0]:
                seq = st["seq"]
                until(c, lambda e: e.get("room") == self.room and
                      e.get("seq", 0) > seq)
                continue
            m = req(c, "moves", room=self.room)["moves"][0]
            r = req(c, "move", room=self.room, move=m)
            self.ck.ok(r and r.get("ok"), "%s: move %s: %r" % (self.tag, m,
                                                               r))
            self.done += 1
            n -= 1

    def quiet(self):
        """Wait until no bot is to move (so the room stays as it is)."""
        c = self.clients[self.seats[0]]
        for _ in range(100):
            st = req(c, "state", room=self.room)["state"]
            if st["status"] != "playing" or st["turn"] in self.seats:
                return
            seq = st["seq"]
            until(c, lambda e: e.get("room") == self.room and
                  e.get("seq", 0) > seq)
        self.ck.ok(False, "%s: the bot did not move" % self.tag)

    def start_stream(self, upto):
        """Threads that stream plan[done:upto]; state first (seq, turn)."""
        c0 = self.clients[self.seats[0]]
        st = req(c0, "state", room=self.room)["state"]
        self.seq0, self.ply0 = st["seq"], len(st["history"])
        self.hist0 = [(h["seat"], h["move"]) for h in st["history"]]
        part = (self.plan[self.done:upto] if self.plan is not None
                else [(self.seats[0], None)] * BOT_STREAM)
        self.streamers = []
        for seat in self.seats:
            mine = [m for s, m in part if s == seat]
            if self.plan is None:
                mine = len(mine)
            t = Streamer(self.clients[seat], self.room, seat, mine,
                         st["turn"])
            self.streamers.append(t)
        self.planned = len(part)
        for t in self.streamers:
            t.start()

    def acked(self):
        return sum(len(t.acks) for t in self.streamers)

    def told(self):
        """seq -> move of everything any client was told."""
        out = {}
        for t in self.streamers:
            for d in (t.acks, t.moved):
                for s, m in d.items():
                    if out.setdefault(s, m) != m:
                        self.ck.ok(False, "%s: seq %d was told as %r and "
                                   "%r" % (self.tag, s, out[s], m))
        return out

    def reconnect(self, port):
        """Every player says hello with its token and joins its seat; the
        events they get go on from the last seq any client saw."""
        seen = [self.seq0] + list(self.told())
        for c in self.clients.values():
            seen += [e.get("seq", 0) for e in c.log
                     if e.get("room") == self.room]
        self.seen_before = max(seen)
        for seat in self.seats:
            name, token = self.tokens[seat]
            c = login(port, name, token)
            ok = c.hello and c.hello.get("ok")
            self.ck.ok(ok, "%s: hello %s with its token after the restart:"
                       " %r" % (self.tag, name, c.hello))
            ids = [r.get("room") for r in (c.hello or {}).get("rooms", [])]
            self.ck.ok(self.room in ids, "%s: hello lists %s to %s: %r" %
                       (self.tag, self.room, name, ids))
            r = req(c, "join", room=self.room)
            self.ck.eq(((r or {}).get("ok"), (r or {}).get("seat")),
                       (True, seat), "%s: join resumes %s's seat" %
                       (self.tag, name))
            self.clients[seat] = c
        low = [e for c in self.clients.values() for e in c.log
               if e.get("room") == self.room and
               e.get("seq", 0) <= self.seen_before]
        self.ck.ok(not low, "%s: after the restart seq goes on past %d "
                   "(not %r)" % (self.tag, self.seen_before,
                                 [(e["event"], e["seq"]) for e in low][:3]))

    def verify(self, what):
        """Everything told before the crash is in the history, at its
        place; the history is the plan's prefix (with passes)."""
        tag = "%s %s" % (self.tag, what)
        told = self.told()
        st = req(self.clients[self.seats[0]], "state",
                 room=self.room)["state"]
        hist = [(h["seat"], h["move"]) for h in st["history"]]
        ck = self.ck
        ck.eq(hist[:len(self.hist0)], self.hist0,
              "%s: the history before the stream is intact" % tag)
        missing = []
        for s, m in sorted(told.items()):
            ply = self.ply0 + (s - self.seq0)
            if ply > len(hist) or hist[ply - 1][1] != m:
                missing.append((s, ply, m))
        ck.ok(not missing, "%s: every move a client was told of is stored "
              "(%d told; missing %r)" % (tag, len(told), missing[:3]))
        played = [x for x in hist if x[0] in self.seats]
        if self.plan is not None:
            want = self.plan[:len(played)]
            ck.eq(played, want, "%s: the stored moves are the plan's "
                  "prefix" % tag)
            ck.ok(len(played) <= len(self.plan), "%s: nothing beyond the "
                  "plan" % tag)
        ck.ok(len(played) >= self.done, "%s: no stored move was lost (%d "
              "before the stream, %d now)" % (tag, self.done, len(played)))
        ck.ok(st["status"] == "playing", "%s: the game goes on: %s" %
              (tag, st["status"]))
        self.done = len(played)
        return len(told)

    def finish(self):
        """Play the game to its end: seeded choices or hints."""
        tag = self.tag + " finish"
        if self.seats != ["player"]:
            play_out(self.ck, tag, self.room, self.clients, seeded(3),
                     FINISH_MAX)
            c = self.clients[self.seats[0]]
        else:
            c = self.clients["player"]
            game_no = None
            for _ in range(FINISH_MAX):
                st = req(c, "state", room=self.room)["state"]
                if game_no is None:
                    game_no = st.get("game_no")
                if st["status"] != "playing" or \
                        st.get("game_no") != game_no:
                    break
                h = req(c, "hint", room=self.room)
                r = req(c, "move", room=self.room, move=h.get("move"))
                if not r or not r.get("ok"):
                    self.ck.ok(False, "%s: hinted move %r: %r" % (tag, h, r))
                    break
        ev = until(c, ended(self.room))
        self.ck.ok(ev is not None, "%s: the game ends: %r" % (tag, ev))
        if self.seats == ["player"]:
            self.ck.eq((ev or {}).get("result"), "solved",
                       "%s: the puzzle is solved after the crashes" % tag)

    def close(self):
        for c in self.clients.values():
            c.close()


def crash(ck, s, tables, upto, round_no):
    """Stream on every table, SIGKILL halfway; how many were told."""
    for t in tables:
        t.start_stream(upto(t))
    total = sum(t.planned for t in tables)
    deadline = time.time() + WAIT
    while time.time() < deadline:
        if sum(t.acked() for t in tables) * 2 >= total:
            break
        time.sleep(0.0005)
    rc = shut(s, signal.SIGKILL)
    ck.eq(rc, -signal.SIGKILL, "round %d: the server died by SIGKILL" %
          round_no)
    for t in tables:
        for th in t.streamers:
            th.join(WAIT)
            ck.ok(not th.is_alive(), "%s round %d: the stream stopped" %
                  (t.tag, round_no))
            ck.eq(th.errors, [], "%s round %d: no move refused in the "
                  "stream" % (t.tag, round_no))
    told = sum(len(t.told()) for t in tables)
    print("round %d: %d of %d streamed moves acknowledged before the kill"
          % (round_no, sum(t.acked() for t in tables), total))
    return told


def snap(c, room):
    st = req(c, "state", room=room)["state"]
    return {k: st.get(k) for k in ("game", "options", "turn", "status",
                                   "position", "history", "game_no",
                                   "seats")}


def last_seq(clients, room):
    """The highest seq of room that any of clients has seen."""
    settle_all(clients)
    return max([e.get("seq", 0) for c in clients for e in c.log
                if e.get("room") == room] or [0])


def settle_all(clients):
    for c in clients:
        settle(c)


def rewinds(ck, build, db):
    """What changes a room without a plain move survives kill -9 too: a
    Stones rematch (game 2, seats swapped), a solitaire undo, a restart,
    a Shape Shifter level after next."""
    s = server(build, db=db)
    a, b = login(s.port, "rwa"), login(s.port, "rwb")
    st = req(a, "create", game="stones", options={"first": "1"})["room"]
    req(b, "join", room=st)
    for c, m in ((a, "A1"), (a, "A2"), (a, "B3"), (b, "C1"), (b, "C2"),
                 (b, "B1"), (a, "B3A3")):
        req(c, "move", room=st, move=m)
    req(a, "rematch", room=st)
    req(b, "rematch", room=st)
    r = req(b, "move", room=st, move="B2")
    ck.ok(r and r.get("ok"), "rematch: the new player 1 places: %r" % r)
    so = req(a, "create", game="solitaire", options={"board": "example"})
    so = so["room"]
    for _ in range(3):
        req(a, "move", room=so, move=req(a, "hint", room=so)["move"])
    req(a, "undo", room=so)
    rs = req(b, "create", game="solitaire", options={"steps": 8, "rows": 5,
                                                      "cols": 5, "seed": 2})
    rs = rs["room"]
    for _ in range(2):
        req(b, "move", room=rs, move=req(b, "hint", room=rs)["move"])
    req(b, "restart", room=rs)
    req(b, "move", room=rs, move=req(b, "hint", room=rs)["move"])
    sh = req(b, "create", game="shifter", options={"level": 1, "seed": 3})
    sh = sh["room"]
    for _ in range(2):
        req(b, "move", room=sh, move=req(b, "hint", room=sh)["move"])
    req(b, "next", room=sh)
    req(b, "move", room=sh, move=req(b, "hint", room=sh)["move"])
    am = req(a, "create", game="amazons", options={
        "file": "a7,g1,i9,j6\nb1,b10,g7,i3\na10,a8,a6,b7,b6,b3,b2,e1,f1,"
                "g5,g9,h1,h4,h5,i1,j1\n1\n"})["room"]
    req(b, "join", room=am)
    for c, m in ((a, "a7-b8/c8"), (b, "b1-c1/d1")):
        r = req(c, "move", room=am, move=m)
        ck.ok(r and r.get("ok"), "file game: %s: %r" % (m, r))
    ck_ = req(a, "create", game="ataxx", options={"size": 5},
              clock={"initial": 100, "increment": 0})["room"]
    req(b, "join", room=ck_)
    req(a, "move", room=ck_, move="b4")
    until(b, lambda e: False, timeout=0.3)
    req(b, "move", room=ck_, move="b1")
    last = until(a, lambda e: e.get("event") == "moved" and
                 e.get("room") == ck_ and e.get("move") == "b1")
    black_left = ((last or {}).get("clocks") or {}).get("black")
    rooms = {"rematch": (0, st), "undo": (0, so), "restart": (1, rs),
             "next": (1, sh), "file": (0, am)}
    cs = [a, b]
    before = {k: snap(cs[i], room) for k, (i, room) in rooms.items()}
    seen = {k: last_seq(cs, room) for k, (i, room) in rooms.items()}
    ck.eq(before["rematch"]["game_no"], 2, "rematch: game 2")
    ck.eq(len(before["undo"]["history"]), 2, "undo: two moves left")
    ck.eq(len(before["restart"]["history"]), 1, "restart: one move since")
    ck.eq(before["next"]["options"].get("level"), "2", "next: level 2")
    toks = [(c.name, c.token) for c in cs]
    ck.eq(shut(s, signal.SIGKILL), -signal.SIGKILL, "rewinds: killed")
    for c in cs:
        c.close()
    s = server(build, db=db)
    cs = [login(s.port, n, t) for n, t in toks]
    for k, (i, room) in rooms.items():
        after = snap(cs[i], room)
        for seat in after.get("seats", []):
            seat["connected"] = True  # only the other player may be away
        for seat in before[k].get("seats", []):
            seat["connected"] = True
        ck.eq(after, before[k], "%s: the room is as it was after kill -9"
              % k)
        settle_all(cs)
        low = [(e["event"], e["seq"]) for c in cs for e in c.log
               if e.get("room") == room and e.get("seq", 0) <= seen[k]]
        ck.ok(not low, "%s: after kill -9 seq goes on past %d, the last "
              "one seen (not %r)" % (k, seen[k], low[:3]))
    cl = req(cs[0], "state", room=ck_)["state"].get("clocks") or {}
    ck.ok(black_left is not None and 0 < black_left < 100000,
          "clock game: black's clock after its move: %r" % black_left)
    ck.eq(cl.get("black"), black_left, "clock game: after kill -9 black's "
          "clock is what its last move left")
    ck.ok(0 < cl.get("white", 0) <= 100000, "clock game: white's clock "
          "runs from what it had: %r" % cl)
    r = req(cs[0], "move", room=st, move="A1")
    ck.eq((r or {}).get("error"), "not_your_turn", "rematch: the old "
          "player 1 is player 2 now")
    r = req(cs[1], "move", room=st, move="A1")
    ck.ok(r and r.get("ok"), "rematch: the new player 1 places on: %r" % r)
    for c in cs:
        c.close()
    shut(s)


def main():
    main_in_tmp("tablero-crash-", run)


def rehearse_all(ck, build, prefix):
    """Each game of GAMES rehearsed on a scratch server: its plan by tag
    (None for the games with bots, which play themselves)."""
    scratch = server(build)
    plans = {}
    try:
        for tag, game, options, seats, before, *bots in GAMES:
            if bots:
                plans[tag] = None
                continue
            plans[tag] = rehearse(ck, scratch.port, prefix + tag, game,
                                  options, seats)
            ck.ok(len(plans[tag]) >= before + 6, "%s: a plan of %d moves" %
                  (tag, len(plans[tag])))
    finally:
        shut(scratch)
    return plans


def run(ck, a, tmp):
    """The test, with its data files in tmp."""
    db = os.path.join(tmp, "tablero.db")
    plans = rehearse_all(ck, a.build, "")
    s = server(a.build, db=db)
    tables = [Table(ck, s.port, tag, game, options, seats, before,
                    plans[tag], *bots)
              for tag, game, options, seats, before, *bots in GAMES]
    crash(ck, s, tables, lambda t: (len(t.plan or ()) + t.done) // 2, 1)
    s = server(a.build, db=db)
    ck.ok(log_says(s, "recovered %d rooms" % len(GAMES)), "the log says "
          "all %d rooms came back" % len(GAMES))
    for t in tables:
        t.close()
        t.reconnect(s.port)
        t.verify("after kill 1")
    crash(ck, s, tables, lambda t: len(t.plan or ()), 2)
    s = server(a.build, db=db)
    for t in tables:
        t.close()
        t.reconnect(s.port)
        t.verify("after kill 2")
        t.finish()
        t.close()
    shut(s)
    rewinds(ck, a.build, os.path.join(tmp, "rewinds.db"))


if __name__ == "__main__":
    main()
