"""games_lib.py: helpers the game and persistence black-box tests share.

Event logs per client, room views compared between players and spectators,
games played from the `moves` verb with a seeded choice, one-player rooms
with a spectator, and a stream of moves from each seat in threads (for the
crash tests); harness scans every stopped server's log for sanitizer
reports. Not a test itself (tests/run.sh runs only test_*.py).
"""

import atexit
import contextlib
import os
import random
import re
import shutil
import signal
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import WAIT, Checks, Client, Server  # noqa: E402,F401

# Flags every server of these tests gets: the games are played as fast as
# the loop allows, far above the default message rate of a person.
FAST = ["--rate", "100000", "--burst", "100000"]

# Names of the events whose fields players and spectators must agree on.
SHARED_EVENTS = ("moved", "ended", "started", "joined", "left", "undone",
                 "restarted", "opponent_gone", "opponent_back", "clock")


# Every server these tests started, so that none outlives a test that
# stopped on an exception.
STARTED = []


def server(build, db=":memory:", extra=()):
    """A started Server with the FAST flags (and any extra ones)."""
    s = Server(build, db=db, extra=FAST + list(extra))
    STARTED.append(s)
    return s.start()


@contextlib.contextmanager
def serving(build, db=":memory:", extra=()):
    """server() for a with block: shut down when the block ends, however
    it ends."""
    s = server(build, db=db, extra=extra)
    try:
        yield s
    finally:
        shut(s)


@atexit.register
def _stop_leftovers():
    for s in STARTED:
        if s.proc is not None:
            shut(s, signal.SIGKILL)


def login(port, name, token=None):
    """A logged-in client with an event log (.log) and .token, .hello."""
    c = Client(port)
    c.log = []
    fields = {"name": name}
    if token is not None:
        fields["token"] = token
    r = c.call("hello", **fields)
    c.hello = r
    c.token = token if token is not None else (r or {}).get("token")
    c.name = name
    absorb(c)
    return c


def absorb(c):
    """Move the events the harness left pending into c.log, in order."""
    keep = []
    for m in c.pending:
        if "event" in m:
            c.log.append(m)
        else:
            keep.append(m)
    c.pending = keep


def req(c, cmd, **fields):
    """Send a request and return its reply (None when the line closed);
    events read on the way go to c.log."""
    r = c.call(cmd, **fields)
    absorb(c)
    return r


def lines_until(c, pattern, limit=60):
    """Text-mode lines until one matches pattern (bounded): its match."""
    for _ in range(limit):
        try:
            line = c.line(WAIT)
        except (TimeoutError, OSError):
            return None
        if line is None:
            return None
        m = re.search(pattern, line)
        if m:
            return m
    return None


def until(c, pred, timeout=WAIT):
    """The first event in c.log satisfying pred, reading more as needed
    (bounded); None when none came or the line closed."""
    absorb(c)
    for e in c.log:
        if pred(e):
            return e
    deadline = time.time() + timeout
    while True:
        left = deadline - time.time()
        if left <= 0:
            return None
        try:
            m = c.read(left)
        except (TimeoutError, OSError):
            return None
        if m is None:
            return None
        if "event" not in m:
            c.pending.append(m)
            continue
        c.log.append(m)
        if pred(m):
            return m


def ended(room):
    """A predicate: the ended event of room."""
    return lambda e: e.get("event") == "ended" and e.get("room") == room


def settle(c, quiet=0.15):
    """Read whatever is still coming until the line is quiet."""
    absorb(c)
    for m in c.drain(quiet):
        if "event" in m:
            c.log.append(m)
        else:
            c.pending.append(m)


def room_events(c, room, from_seq=1):
    """c's events of room with seq >= from_seq, in arrival order."""
    return [e for e in c.log
            if e.get("room") == room and e.get("seq", 0) >= from_seq]


def compare_views(ck, what, room, clients, from_seq):
    """Every client saw the same events of room from from_seq on: the same
    names, seqs and fields (a gapless seq run), in the same order."""
    views = [room_events(c, room, from_seq) for c in clients]
    first = views[0]
    seqs = [e["seq"] for e in first]
    ck.eq(seqs, list(range(from_seq, from_seq + len(seqs))),
          "%s: seq runs without gaps from %d" % (what, from_seq))
    for c, v in zip(clients[1:], views[1:]):
        ck.eq(len(v), len(first), "%s: %s saw as many events as %s" %
              (what, c.name, clients[0].name))
        diff = [(a.get("seq"), a.get("event"), b.get("event"))
                for a, b in zip(first, v) if a != b]
        ck.ok(not diff, "%s: %s and %s saw the same events (first "
              "difference: %r)" % (what, clients[0].name, c.name,
                                   diff[:1]))
    return first


def check_history(ck, what, state, moved):
    """The state's history is the moved events' seats, moves and texts."""
    hist = [(h.get("seat"), h.get("move"), h.get("text"))
            for h in state.get("history", [])]
    seen = [(e.get("seat"), e.get("move"), e.get("text")) for e in moved]
    ck.eq(len(hist), len(seen), "%s: history has one entry per moved event"
          % what)
    ck.ok(hist == seen, "%s: history equals the moved events (first "
          "difference at %r)" % (what, next(
              (i for i, (a, b) in enumerate(zip(hist, seen)) if a != b),
              None)))
    ck.eq([h.get("n") for h in state.get("history", [])],
          list(range(1, len(hist) + 1)), "%s: history numbered from 1" % what)


def check_moved_chain(ck, what, moved, names, last_ends=True):
    """Each moved event names its mover, says whose turn is next (the seat
    of the next move), and the last one (when a move ended the game) has
    turn null and status ended."""
    bad = []
    for i, e in enumerate(moved):
        if e.get("move") == "0000" and e.get("seat") is None:
            if e.get("name") is not None or "passes" not in e.get("text", ""):
                bad.append(("pass fields", i, e.get("name"), e.get("text")))
        elif names.get(e.get("seat"), "?") != e.get("name"):
            bad.append(("name", i, e.get("seat"), e.get("name")))
        if i + 1 < len(moved):
            nxt = moved[i + 1]
            want = nxt.get("seat")
            if want is None:  # a pass: its seat is the side that passes
                want = e.get("turn")
            if e.get("turn") != want or e.get("status") != "playing":
                bad.append(("turn", i, e.get("turn"), want))
        for key in ("position", "board", "text", "clocks"):
            if key not in e:
                bad.append(("field", i, key))
        if "_picture" in e:
            bad.append(("text-only field in JSON", i))
    if moved and last_ends:
        last = moved[-1]
        if last.get("turn") is not None or last.get("status") != "ended":
            bad.append(("last", last.get("turn"), last.get("status")))
    ck.ok(not bad, "%s: moved events name the mover and the next turn "
          "(problems: %r)" % (what, bad[:3]))


def play_out(ck, what, room, seats, pick, max_moves, observer=None,
             to_end=True):
    """Play room to its end: the side to move (from `state`) asks `moves`
    and plays pick(moves). seats maps seat name -> client. Returns the
    list of (seq, move, seat) acknowledged. Stops at max_moves (a failure
    when to_end)."""
    anyone = observer or next(iter(seats.values()))
    acked = []
    for _ in range(max_moves):
        st = req(anyone, "state", room=room)
        if not st or not st.get("ok"):
            ck.ok(False, "%s: state answered %r" % (what, st))
            return acked
        st = st["state"]
        if st["status"] == "ended":
            return acked
        seat = st["turn"]
        mover = seats.get(seat)
        if mover is None:  # a bot's turn: wait for its move
            seq = st["seq"]
            if until(anyone, lambda e: e.get("event") in ("moved", "ended")
                     and e.get("room") == room
                     and e.get("seq", 0) > seq) is None:
                ck.ok(False, "%s: the bot did not move" % what)
                return acked
            continue
        ms = req(mover, "moves", room=room)
        if not ms or not ms.get("ok") or not ms["moves"]:
            ck.ok(False, "%s: moves for %s answered %r" % (what, seat, ms))
            return acked
        m = pick(ms["moves"])
        r = req(mover, "move", room=room, move=m)
        if not r or not r.get("ok"):
            ck.ok(False, "%s: the listed move %r was refused: %r" %
                  (what, m, r))
            return acked
        if r.get("move") != m or r.get("room") != room:
            ck.ok(False, "%s: move reply %r for %r" % (what, r, m))
        acked.append((r["seq"], r["move"], seat))
    ck.ok(not to_end, "%s: no end within %d moves" % (what, max_moves))
    return acked


def check_acked(ck, what, acked, moved, names):
    """Every acknowledged move is the moved event of its seq."""
    by_seq = {e["seq"]: e for e in moved}
    bad = [(s, m) for s, m, seat in acked
           if by_seq.get(s, {}).get("move") != m
           or by_seq.get(s, {}).get("seat") != seat
           or by_seq.get(s, {}).get("name") != names.get(seat)]
    ck.ok(not bad, "%s: each move reply's seq is its moved event (bad: %r)"
          % (what, bad[:3]))


def seeded(seed):
    """A deterministic chooser among listed moves."""
    rng = random.Random(seed)
    return lambda moves: moves[rng.randrange(len(moves))]


def first_move(moves):
    return moves[0]


class Streamer(threading.Thread):
    """One seat of a game in a thread: whenever it is this seat's turn (as
    the last moved event said), send the next move of `plan` at once, or,
    when plan is a number, that many moves chosen as the first that
    `moves` lists. Records every acknowledgement: ok replies (acks) and
    moved events (moved), as seq -> move. Stops when the line closes, at
    the end of the plan, on an error reply, or when the game ends."""

    def __init__(self, client, room, seat, plan, turn_now):
        super().__init__(daemon=True)
        self.c = client
        self.room = room
        self.seat = seat
        self.choose = isinstance(plan, int)
        self.plan = [None] * plan if self.choose else list(plan)
        self.sent = 0
        self.turn = turn_now  # whose turn it is as the stream starts
        self.acks = {}
        self.moved = {}
        self.errors = []
        self.shutdown = None
        self.ended = None
        self.closed = False

    def _send(self, cmd, **fields):
        try:
            self.c.send(cmd, room=self.room, **fields)
            return True
        except OSError:
            self.closed = True
            return False

    def run(self):
        c = self.c
        deadline = time.time() + 3 * WAIT
        waiting = False
        while time.time() < deadline:
            if self.turn == self.seat and not waiting and self.plan:
                m = self.plan.pop(0)
                if not (self._send("moves") if m is None else
                        self._send("move", move=m)):
                    return
                self.sent += 1
                waiting = True
            if not self.plan and not waiting and self.turn != self.seat:
                return  # nothing more to send (the other seat may go on)
            try:
                msg = c.read(max(0.01, deadline - time.time()))
            except (TimeoutError, OSError, ValueError):
                self.closed = True
                return
            if msg is None:
                self.closed = True
                return
            if msg.get("re") == "move" and msg.get("ok") and \
                    msg.get("seq") in self.moved:
                self.errors.append("moved event %d before its reply" %
                                   msg["seq"])
                return
            if msg.get("re") == "moves":
                if not msg.get("ok") or not msg.get("moves"):
                    self.errors.append(msg)
                    return
                if not self._send("move", move=msg["moves"][0]):
                    return
            elif msg.get("re") == "move":
                waiting = False
                if not msg.get("ok"):
                    self.errors.append(msg)
                    return
                self.acks[msg["seq"]] = msg["move"]
                self.turn = "?"  # until its moved event says who is next
            elif msg.get("event") == "moved" and msg.get("room") == self.room:
                self.moved[msg["seq"]] = msg["move"]
                self.turn = msg.get("turn")
                if self.turn is None:
                    return
            elif msg.get("event") == "ended" and msg.get("room") == self.room:
                self.ended = msg
                return
            elif msg.get("event") == "shutdown":
                self.shutdown = msg
        self.errors.append("the stream did not finish in time")


def main_in_tmp(prefix, run):
    """A test's main: run(ck, args, tmp) with a fresh temporary folder,
    removed after; ends with the count line."""
    a = harness.args()
    ck = Checks()
    tmp = tempfile.mkdtemp(prefix=prefix)
    try:
        run(ck, a, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    done(ck)


def done(ck):
    """No sanitizer report in any server log (Checks.done looks), then the
    counts and exit."""
    ck.done()


def log_says(s, text, timeout=WAIT):
    """Does the server's log come to hold text (bounded wait)?"""
    deadline = time.time() + timeout
    while time.time() < deadline:
        if text in s.logtext():
            return True
        time.sleep(0.02)
    return text in s.logtext()


def shut(s, sig=None):
    """Stop a Server (TERM, or the signal given; harness looks for
    sanitizer reports in its log) and remove its log; the exit code."""
    rc = s.stop() if sig is None else s.stop(sig)
    try:
        os.unlink(s.log.name)
    except OSError:
        pass
    return rc


class Solo:
    """A one-player room with its player and a spectator."""

    def __init__(self, ck, port, tag, game, options=None):
        self.ck = ck
        self.tag = tag
        self.p = login(port, tag + "p")
        self.w = login(port, tag + "w")
        fields = {"game": game}
        if options is not None:
            fields["options"] = options
        r = req(self.p, "create", **fields)
        ck.ok(r and r.get("ok"), "%s: create %s %r: %r" %
              (tag, game, options, r))
        self.created = r or {}
        self.room = self.created.get("room")
        wr = req(self.w, "watch", room=self.room)
        ck.ok(wr and wr.get("ok"), "%s: watch: %r" % (tag, wr))
        self.from_seq = (wr or {}).get("state", {}).get("seq", 0) + 1
        self.clients = [self.w, self.p]
        self.names = {"player": self.p.name}

    def state(self):
        return req(self.p, "state", room=self.room)["state"]

    def call(self, cmd, **fields):
        return req(self.p, cmd, room=self.room, **fields)

    def follow_hints(self, limit):
        """Play hinted moves until the game ends (or a won level gives
        way to the next by itself); the moves played."""
        played = []
        game_no = None
        for _ in range(limit):
            st = self.state()
            if game_no is None:
                game_no = st.get("game_no")
            if st["status"] != "playing" or st.get("game_no") != game_no:
                return played
            h = self.call("hint")
            if not h or h.get("verdict") != "winnable" or "move" not in h:
                self.ck.ok(False, "%s: hint on a winnable board: %r" %
                           (self.tag, h))
                return played
            r = self.call("move", move=h["move"])
            if not r or not r.get("ok"):
                self.ck.ok(False, "%s: the hinted move %r was refused: %r"
                           % (self.tag, h["move"], r))
                return played
            played.append(r["move"])
        self.ck.ok(False, "%s: no end within %d hinted moves" %
                   (self.tag, limit))
        return played

    def views(self, from_seq=None):
        """Both clients saw the same events (read until quiet first)."""
        for c in self.clients:
            settle(c)
        return compare_views(self.ck, self.tag, self.room, self.clients,
                             self.from_seq if from_seq is None else from_seq)

    def close(self):
        for c in self.clients:
            c.close()
