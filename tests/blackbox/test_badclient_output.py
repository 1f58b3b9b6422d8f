"""test_badclient_output.py: no reply is larger than the server will send,
so a player with long games is never locked out of their identity.

With a small --max-output, ana and bob play three long Ataxx games (jumps
back and forth: thousands of moves). ana logs in again: hello answers
(room summaries, not states) and every reply stays within the cap; she
pages each game's history with `state since=N` and gets every move once,
in order; `join` of her seat answers too. A client that stops reading is
dropped, and the log says who and why.
"""

import json
import os
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import (WAIT, log_says, login, main_in_tmp, req,  # noqa: E402
                       server, shut)
from harness import is_ok  # noqa: E402

# The output cap of the test: a few hundred moves of history exceed it.
CAP = 16384
# Moves in each of the three games.
MOVES = 1200
GAMES = 3
# White and black jump back and forth on 5x5: nothing is ever taken.
CYCLE = ["a5a3", "e5e3", "a3a5", "e3e5"]
# Chat lines sent to a watcher that never reads: 20 MB.
SAYS = 50000


class Line:
    """A JSON-mode connection read line by line, keeping line sizes."""

    def __init__(self, port, name, token=None):
        self.sock = socket.create_connection(("127.0.0.1", port), WAIT)
        self.sock.settimeout(WAIT)
        self.buf = b""
        self.biggest = 0
        self.next()  # the welcome
        hello = {"cmd": "hello", "name": name}
        if token is not None:
            hello["token"] = token
        self.hello = self.call(hello)

    def next(self):
        while b"\n" not in self.buf:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                return None
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        self.biggest = max(self.biggest, len(line) + 1)
        return json.loads(line)

    def send(self, msg):
        self.sock.sendall(json.dumps(msg).encode() + b"\n")

    def call(self, msg):
        """Send and read up to the reply (events are dropped)."""
        self.send(msg)
        while True:
            m = self.next()
            if m is None or "re" in m:
                return m

    def until_seq(self, room, seq):
        """Read until the event of room numbered seq."""
        while True:
            m = self.next()
            if m is None or (m.get("room") == room and m.get("seq") == seq):
                return m

    def close(self):
        self.sock.close()


def play_long(ck, port):
    """Three long games between ana and bob; their rooms and moves."""
    ana, bob = Line(port, "ana"), Line(port, "bob")
    rooms = {}
    for g in range(GAMES):
        r = ana.call({"cmd": "create", "game": "ataxx",
                      "options": {"size": 5}, "seat": "white"})
        room = r["room"]
        bob.call({"cmd": "join", "room": room})
        played = []
        for k in range(MOVES):
            mover, other = (ana, bob) if k % 2 == 0 else (bob, ana)
            mv = CYCLE[k % 4]
            r = mover.call({"cmd": "move", "room": room, "move": mv})
            if not ck.ok(r is not None and r.get("ok"), "%s move %d %s: %r"
                         % (room, k + 1, mv, r)):
                break
            other.until_seq(room, r["seq"])
            played.append(mv)
        rooms[room] = played
    tokens = (ana.hello["token"], bob.hello["token"])
    ana.close()
    bob.close()
    return rooms, tokens


def page(ck, c, room, played):
    """Page the history of room; every move once, in order."""
    hist, since, pages = [], 0, 0
    while pages <= MOVES:
        r = c.call({"cmd": "state", "room": room, "since": since})
        st = (r or {}).get("state", {})
        if not ck.ok(r is not None and r.get("ok"), "%s: state since=%d: "
                     "%.200r" % (room, since, r)):
            return
        ck.eq((st.get("history_since"), st.get("history_total")),
              (since, len(played)), "%s: page since %d" % (room, since))
        got = st.get("history", [])
        pages += 1
        if not got:
            break
        hist += got
        since += len(got)
    ck.eq([h["n"] for h in hist], list(range(1, len(played) + 1)),
          "%s: every move once, in order" % room)
    ck.eq([h["move"] for h in hist], played, "%s: the moves played" % room)
    ck.ok(pages > 3, "%s: a long game takes several pages (%d)"
          % (room, pages))


def run(ck, a, tmp):
    s = server(a.build, extra=["--max-output", str(CAP)])
    t0 = time.time()
    rooms, (tok, _) = play_long(ck, s.port)
    print("played %d moves in %.1f s" % (GAMES * MOVES, time.time() - t0))
    for attempt in range(2):
        ana = Line(s.port, "ana", tok)
        h = ana.hello
        if not ck.ok(h is not None and h.get("ok"), "hello %d answers: "
                     "%.200r" % (attempt, h)):
            break
        ck.eq(sorted(x["room"] for x in h.get("rooms", [])), sorted(rooms),
              "hello lists the three rooms")
        ck.ok(all("history" not in x for x in h.get("rooms", [])),
              "hello gives summaries, not states")
        for room, played in rooms.items():
            page(ck, ana, room, played)
            r = ana.call({"cmd": "join", "room": room})
            ck.ok(r is not None and r.get("ok"), "join of her seat "
                  "answers: %.200r" % r)
        ck.ok(ana.biggest <= CAP, "no reply is larger than the cap: %d"
              % ana.biggest)
        ana.close()
    ck.ok("dropping it" not in s.logtext(), "nobody reading was dropped")
    # One who never reads is dropped, and the log says who and why.
    room = sorted(rooms)[0]
    sleepy = socket.socket()
    sleepy.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    sleepy.connect(("127.0.0.1", s.port))
    sleepy.sendall(b'hello sleepy\nwatch %s\n' % room.encode())
    bob = login(s.port, "bob", _)
    ck.ok(log_says(s, "sleepy logged in"), "sleepy is in")
    # Far more than any kernel buffers between them.
    for i in range(SAYS):
        if req(bob, "say", room=room, text="x" * 400) is None:
            break
        if i % 100 == 99 and "sleepy: not reading" in s.logtext():
            break
    ck.ok(log_says(s, "sleepy: not reading, dropping it"), "the log says "
          "sleepy was dropped for not reading")
    ck.ok(log_says(s, "--max-output %d" % CAP), "and names the cap")
    shut(s)


if __name__ == "__main__":
    main_in_tmp("tablero-badoutput-", run)
