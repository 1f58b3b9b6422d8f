"""test_client_lean.py: tablero asks for lean moved events (hello's
"events":"lean", issue 32) and plays each move on its own copy of the
position with the game's rules. Through a recording proxy between a
tablero in tmux and the real server: its hello asks for the lean form;
every moved event it gets has no position, board or sentence; it still
says each move in the seed's words (its own and the bot's); and after
several moves its board is the one a client that comes later draws from
the server's whole state (a watcher). And from a fake server: a lean move
its position cannot take (a missed event) makes it ask for the state."""

import json
import os
import re
import socket
import sys
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402
import test_client_untrusted  # noqa: E402

PROMPT = r"White player \(x\), a square to clone to"
BOT_SAID = r"^Black player (clones at|moves from) "
# Moves of ours to play (each answered by the bot's).
TURNS = 4


class Proxy:
    """One connection forwarded to port, both directions recorded."""

    def __init__(self, port):
        self.port = port
        self.lsock = socket.socket()
        self.lsock.bind(("127.0.0.1", 0))
        self.lsock.listen(1)
        self.lsock.settimeout(harness.WAIT)
        self.up = b""    # what the client sent
        self.down = b""  # what the server sent
        self.threads = []
        t = threading.Thread(target=self.accept, daemon=True)
        t.start()
        self.threads.append(t)

    def listen_port(self):
        return self.lsock.getsockname()[1]

    def accept(self):
        try:
            c, _ = self.lsock.accept()
        except OSError:
            return
        s = socket.create_connection(("127.0.0.1", self.port))
        for a, b, side in ((c, s, "up"), (s, c, "down")):
            t = threading.Thread(target=self.pump, args=(a, b, side),
                                 daemon=True)
            t.start()
            self.threads.append(t)

    def pump(self, a, b, side):
        while True:
            try:
                d = a.recv(65536)
            except OSError:
                d = b""
            if not d:
                for x in (a, b):
                    try:
                        x.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
                return
            setattr(self, side, getattr(self, side) + d)
            try:
                b.sendall(d)
            except OSError:
                return

    def messages(self, side):
        out = []
        for line in getattr(self, side).split(b"\n"):
            try:
                out.append(json.loads(line))
            except ValueError:
                pass
        return out

    def close(self):
        self.lsock.close()


def last_board(screen):
    """The last board drawn: its column header row ("   a b c ...") and
    the seven lines below it (a 5x5 board's rows, counts and turn)."""
    lines = screen.split("\n")
    heads = [i for i, l in enumerate(lines) if re.match(r"^\s+a b c", l)]
    if not heads:
        return None
    return "\n".join(lines[heads[-1]:heads[-1] + 8])


def check_missed(chk, build):
    """A lean move its position cannot take (an event it missed): tablero
    asks the server for the room's state, from a fake server that gives
    it a real create reply and then a move from nowhere."""
    created = test_client_untrusted.real_create_reply(build)
    room = created["state"]["room"]
    lsock = socket.socket()
    lsock.bind(("127.0.0.1", 0))
    lsock.listen(1)
    t = client_lib.client(build, lsock.getsockname()[1], "ana")
    fake = None
    try:
        fake = test_client_untrusted.Fake(lsock)
        fake.send({"event": "welcome", "server": "tablerod",
                   "version": "0.1.0", "proto": 1})
        hello = fake.request()
        fake.send({"re": "hello", "id": hello.get("id"), "ok": True,
                   "name": "ana", "token": "0" * 32, "new": False,
                   "events": "lean", "rooms": []})
        chk.ok(t.wait(r"Welcome back, ana"), "logged in to the fake server")
        t.line("create amazons")
        req = fake.request()
        created["id"] = req.get("id")
        fake.send(created)
        chk.ok(t.wait(r"You are in room " + room), "in the fake room")
        seq = created["state"].get("seq", 1)
        fake.send({"event": "moved", "room": room, "seq": seq + 1,
                   "seat": "white", "move": "a1-a1/a1", "turn": "black"})
        req = fake.request()
        chk.eq((req.get("cmd"), req.get("room")), ("state", room),
               "a lean move the position cannot take: tablero asks state")
    finally:
        if fake is not None:
            fake.close()
        lsock.close()
        t.stop()


def main():
    a = harness.args()
    chk = harness.Checks()
    check_missed(chk, a.build)
    with harness.Server(a.build) as srv:
        px = Proxy(srv.port)
        t = client_lib.client(a.build, px.listen_port(), "ana")
        try:
            chk.ok(t.wait(r"Welcome, ana\."), "logged in through the proxy")
            hello = [m for m in px.messages("up") if m.get("cmd") == "hello"]
            chk.ok(hello and hello[0].get("events") == "lean",
                   "tablero's hello asks for lean events: %r" % (hello,))
            chk.ok(t.say("create ataxx size=5 bot=1", PROMPT),
                   "an Ataxx game against a bot")
            for turn in range(TURNS):
                n = t.count(r"^Moves: ")
                t.line("moves")
                if not t.wait(r"^Moves: ", n + 1):
                    break
                found = re.findall(r"^Moves: (.*)$", t.screen(), re.M)
                # the bot's answer is said below the board it drew
                n = t.count(BOT_SAID)
                t.line(found[-1].split(", ")[0])
                if not chk.ok(t.wait(BOT_SAID, n + 1),
                              "move %d played and answered" % (turn + 1)):
                    break
            moved = [m for m in px.messages("down")
                     if m.get("event") == "moved"]
            chk.ok(len(moved) >= 2 * TURNS,
                   "%d moved events came" % len(moved))
            chk.eq([k for m in moved for k in ("position", "board", "text",
                                               "name") if k in m], [],
                   "every one lean: no position, board, sentence or name")
            chk.ok(t.count(r"^White player (clones at|moves from) ")
                   >= TURNS, "our moves said in the seed's words")
            chk.ok(t.count(BOT_SAID) >= TURNS, "the bot's moves too")
            with client_lib.clients(a.build, srv.port, "wes") as (w,):
                chk.ok(w.wait(r"Welcome, wes\."), "a watcher logged in")
                chk.ok(w.say("watch r1", r"^You are watching room r1"),
                       "watching from the server's whole state")
                ours, theirs = last_board(t.screen()), last_board(w.screen())
                chk.ok(ours is not None and ours == theirs,
                       "tablero's board, move by move, is the server's:\n"
                       "%s\n--- the watcher's:\n%s" % (ours, theirs))
        finally:
            t.stop()
            px.close()
    chk.done()


if __name__ == "__main__":
    main()
