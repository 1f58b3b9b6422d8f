"""test_net_write.py: the write path when the socket would block.

The server writes a connection's output at the end of a loop pass and
arms its write event only for bytes the kernel did not take. Here a
watcher with a tiny receive window asks for many big replies and stops
reading while they and room events pile up for it (more than the
kernel's largest send buffer, so most of it waits for the write event):
when it reads again everything arrives whole and in order (the replies,
then every event by seq), and a message sent once it has caught up still
arrives at once (the write event was disarmed and the next output was
written again). A big reply followed by a line too long is flushed whole
before the error and the close. A watcher that stops for good is still
dropped at --max-output, and the one talking is served on.
"""

import json
import os
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import (WAIT, log_says, login, main_in_tmp, req,  # noqa: E402
                       server, shut)

# The per-connection output cap: well above what the slow watcher is
# sent before it reads.
CAP = 32 * 1024 * 1024
# The cap of the second server, for the watcher that never reads.
SMALL_CAP = 64 * 1024
# The slow watchers' receive buffer: a window of a few KiB.
RCVBUF = 4096
# Moves played first, so that `state` is a big reply (tens of KiB).
MOVES = 400
# White and black jump back and forth on 5x5: nothing is ever taken.
CYCLE = ["a5a3", "e5e3", "a3a5", "e3e5"]
# `state` requests the slow watcher sends before reading: with MOVES,
# about 8 MB of replies, twice the kernel's largest send buffer
# (net.ipv4.tcp_wmem is 4 MiB at most by default).
STATES = 300
# Chat lines queued behind them.
SAYS = 500
TEXT = "x" * 400
# Chat lines at most for the watcher that never reads: 4 MB, far more
# than SMALL_CAP and the kernel's buffers.
STOPPED_SAYS = 10000
# A line longer than the server's line limit (8 KiB).
LONG_LINE = 64 * 1024


class Slow:
    """A raw JSON connection with a small receive window."""

    def __init__(self, port):
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RCVBUF)
        self.sock.settimeout(WAIT)
        self.sock.connect(("127.0.0.1", port))
        self.buf = b""

    def send(self, msg):
        self.sock.sendall(json.dumps(msg).encode() + b"\n")

    def line(self):
        """The next whole line as bytes, or None at the end of file."""
        while b"\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                return None
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line

    def msg(self):
        line = self.line()
        return None if line is None else json.loads(line)

    def reply(self, verb):
        """Read up to the reply to verb; the events before it."""
        seen = []
        while True:
            m = self.msg()
            if m is None or m.get("re") == verb:
                return m, seen
            seen.append(m)

    def close(self):
        self.sock.close()


def long_game(ck, port):
    """A room where ana and bob played MOVES moves; (room, ana, bob)."""
    ana, bob = login(port, "ana"), login(port, "bob")
    r = req(ana, "create", game="ataxx", options={"size": 5}, seat="white")
    room = r["room"]
    req(bob, "join", room=room)
    for k in range(MOVES):
        mover = ana if k % 2 == 0 else bob
        r = req(mover, "move", room=room, move=CYCLE[k % 4])
        if not ck.ok(r is not None and r.get("ok"), "move %d: %r" % (k, r)):
            break
    return room, ana, bob


def check_state(ck, what, m, room):
    """m is the whole state reply of room, with its history in order."""
    st = (m or {}).get("state", {})
    hist = st.get("history", [])
    ck.ok(m is not None and m.get("ok"), "%s: state answers" % what)
    ck.eq([h.get("n") for h in hist], list(range(1, MOVES + 1)),
          "%s: the whole history, in order" % what)


def slow_reader(ck, s, room, bob):
    """Reply and events pile up unread; then all arrive, in order."""
    w = Slow(s.port)
    w.msg()  # the welcome
    w.send({"cmd": "hello", "name": "slowpoke"})
    ck.ok((w.reply("hello")[0] or {}).get("ok"), "slowpoke is in")
    w.send({"cmd": "watch", "room": room})
    m, seen = w.reply("watch")
    ck.ok(m is not None and m.get("ok"), "watch answers: %.200r" % m)
    w.sock.sendall(b"".join(json.dumps({"cmd": "state", "room": room,
                                        "id": i}).encode() + b"\n"
                            for i in range(STATES)))
    # The chat begins once the server has taken the last request (its
    # debug log has each as it is handled): every reply is queued ahead
    # of the events. (A fixed half second was too short on a loaded
    # machine: an event among the replies was read as one of them.)
    ck.ok(log_says(s, '"cmd": "state", "room": "%s", "id": %d}'
                   % (room, STATES - 1)),
          "the server took every state request")
    for i in range(SAYS):
        if req(bob, "say", room=room, text="%d %s" % (i, TEXT)) is None:
            break
    bob.log.clear()
    ids = []
    for i in range(STATES):
        m, seen = w.reply("state")
        ids.append((m or {}).get("id"))
        if m is None or i % 50 == 0:
            check_state(ck, "state %d" % i, m, room)
        if m is None:
            break
    ck.eq(ids, list(range(STATES)), "every state reply, in order")
    said, seqs = [], []
    while len(said) < SAYS:
        m = w.msg()
        if m is None:
            break
        if m.get("event") == "chat" and m.get("room") == room:
            said.append(int(m["text"].split()[0]))
            seqs.append(m["seq"])
    ck.eq(said, list(range(SAYS)), "every event arrived once, in order")
    ck.ok(seqs == sorted(seqs) and len(set(seqs)) == len(seqs),
          "their seq grows")
    # Caught up: the next message goes out again at once.
    req(bob, "say", room=room, text="last")
    m = w.msg()
    ck.ok(m is not None and m.get("text") == "last",
          "a message after catching up arrives: %.200r" % m)
    # A big reply, then a line too long: reply, error, end of file.
    w.sock.sendall(json.dumps({"cmd": "state", "room": room}).encode() +
                   b"\n" + b"y" * LONG_LINE + b"\n")
    time.sleep(0.3)
    m, seen = w.reply("state")
    check_state(ck, "before closing", m, room)
    m = w.msg()
    ck.eq((m or {}).get("error"), "line_too_long",
          "then the error: %.200r" % m)
    try:
        end = w.line()
    except ConnectionResetError:
        end = "reset"
    ck.eq(end, None, "then the end of file, no reset")
    w.close()


def stopped_reader(ck, s, bob):
    """A watcher that never reads is dropped at --max-output; the one
    talking (who reads) is served on."""
    r = req(bob, "create", game="ataxx", options={"size": 5}, seat="white")
    room = (r or {}).get("room", "")
    ck.ok(room, "bob made a room: %r" % r)
    w = Slow(s.port)
    w.sock.sendall(b'hello sleepy\nwatch %s\n' % room.encode())
    ck.ok(log_says(s, "sleepy logged in"), "sleepy is in")
    for i in range(STOPPED_SAYS):
        if req(bob, "say", room=room, text=TEXT) is None:
            break
        bob.log.clear()
        if i % 100 == 99 and "sleepy: not reading" in s.logtext():
            break
    ck.ok(log_says(s, "sleepy: not reading, dropping it"),
          "sleepy was dropped for not reading")
    ck.ok(log_says(s, "--max-output %d" % SMALL_CAP),
          "the log names the cap")
    r = req(bob, "ping")
    ck.ok(r is not None and r.get("ok"), "bob is served on: %r" % r)
    w.close()


def run(ck, a, tmp):
    s = server(a.build, extra=["--max-output", str(CAP)])
    room, ana, bob = long_game(ck, s.port)
    ana.close()
    slow_reader(ck, s, room, bob)
    ck.ok("not reading" not in s.logtext(), "nobody was dropped")
    shut(s)
    s = server(a.build, extra=["--max-output", str(SMALL_CAP)])
    stopped_reader(ck, s, login(s.port, "bob"))
    shut(s)


if __name__ == "__main__":
    main_in_tmp("tablero-netwrite-", run)
