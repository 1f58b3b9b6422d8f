"""test_client_untrusted.py: no string a server sends reaches the player's
terminal raw (issue 21, item 11). A fake server (this script) speaks the
protocol to a real tablero in tmux and puts terminal escapes (ESC, BEL) in
every string the client prints: the names of a joined and a left event (in
the player's room and in another), an error reply's message, the shutdown
message (not shown: its words are telnet's), the names and text of a move
in another room, chat, and the rooms of the hello reply. Every byte the client writes to the pane is recorded
(tmux pipe-pane); each path's marker must show as <U+001B>... on the screen
and never follow a real 0x1b byte."""

import json
import os
import socket
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402

ESC = "\x1b"


def bad(tag):
    """A string that would set the terminal's title to tag (OSC 0) and
    clear the screen, were it printed raw."""
    return ESC + "]0;" + tag + "\x07" + ESC + "[2J"


class Fake:
    """One accepted connection from tablero, spoken to in JSON lines."""

    def __init__(self, lsock):
        lsock.settimeout(client_lib.WAIT)
        self.sock, _ = lsock.accept()
        self.sock.settimeout(client_lib.WAIT)
        self.buf = b""

    def send(self, msg):
        self.sock.sendall((json.dumps(msg) + "\n").encode())

    def request(self):
        """The next request tablero sends, as a dict; blank lines (tablero
        speaks first with one) are skipped, as the server skips them."""
        while True:
            while b"\n" not in self.buf:
                chunk = self.sock.recv(65536)
                if not chunk:
                    raise EOFError("tablero closed")
                self.buf += chunk
            line, self.buf = self.buf.split(b"\n", 1)
            if line.strip():
                return json.loads(line.decode())

    def close(self):
        self.sock.close()


def real_create_reply(build):
    """A create reply from the real server, for the fake one to send."""
    with harness.Server(build) as srv:
        c = harness.login(srv.port, "ana")
        rep = c.call("create", game="amazons")
        c.close()
    return rep


def main():
    a = harness.args()
    chk = harness.Checks()
    created = real_create_reply(a.build)
    room = created["state"]["room"]
    lsock = socket.socket()
    lsock.bind(("127.0.0.1", 0))
    lsock.listen(1)
    port = lsock.getsockname()[1]
    raw = os.path.join(tempfile.mkdtemp(prefix="tablero-raw-"), "pane")
    t = client_lib.client(a.build, port, "ana")
    t.tmux("pipe-pane", "-o", "-t", "main", "cat >> " + raw)
    fake = None
    try:
        fake = Fake(lsock)
        fake.send({"event": "welcome", "server": "tablerod",
                   "version": "0.1.0", "proto": 1})
        hello = fake.request()
        chk.eq(hello.get("cmd"), "hello", "tablero says hello")
        hostile_rooms = [
            {"room": "x" + bad("ROOMID"), "game": bad("ROOMGAME"),
             "status": "adjourned"},
            {"room": "y", "game": "amazons", "status": "adjourned"}]
        fake.send({"re": "hello", "id": hello.get("id"), "ok": True,
                   "name": "ana", "token": "0" * 32, "new": False,
                   "rooms": hostile_rooms})
        chk.ok(t.wait(r"Welcome back, ana"), "logged in")
        fake.send({"event": "joined", "room": "r9", "seq": 2,
                   "name": bad("JOINOTHER"), "seat": "black",
                   "role": "player"})
        fake.send({"event": "left", "room": "r9", "seq": 3,
                   "name": bad("LEFTOTHER"), "seat": None,
                   "role": "watcher"})
        fake.send({"event": "moved", "room": "r9", "seq": 4,
                   "seat": bad("MOVESEAT"), "name": bad("MOVENAME"),
                   "move": bad("MOVEMOVE"), "text": bad("MOVETEXT"),
                   "turn": "black", "status": "playing"})
        fake.send({"event": "chat", "from": bad("CHATFROM"),
                   "text": bad("CHATTEXT")})
        t.line("create amazons")
        req = fake.request()
        chk.eq(req.get("cmd"), "create", "tablero asks to create")
        created["id"] = req.get("id")
        fake.send(created)
        chk.ok(t.wait(r"You are in room " + room), "in the fake room")
        fake.send({"event": "joined", "room": room, "seq": 2,
                   "name": bad("JOINHERE"), "seat": None,
                   "role": "watcher"})
        fake.send({"event": "left", "room": room, "seq": 3,
                   "name": bad("LEFTHERE"), "seat": None,
                   "role": "watcher"})
        t.line("rooms")
        req = fake.request()
        fake.send({"re": req.get("cmd"), "id": req.get("id"), "ok": False,
                   "error": "bad_request", "message": bad("ERRMSG")})
        fake.send({"event": "shutdown", "message": bad("SHUTDOWN")})
        chk.ok(t.wait(r"The server is stopping; your games are saved"), "the shutdown is shown")
        time.sleep(0.3)  # pipe-pane's cat writes what the pane got
        with open(raw, "rb") as f:
            seen = f.read()
        screen = t.screen()
        for tag in ["ROOMID", "ROOMGAME", "JOINOTHER", "LEFTOTHER",
                    "MOVENAME", "MOVETEXT", "CHATFROM", "CHATTEXT",
                    "JOINHERE", "LEFTHERE", "ERRMSG", "SHUTDOWN"]:
            chk.ok((ESC + "]0;" + tag).encode() not in seen,
                   "%s: no raw escape reaches the terminal" % tag)
            # the shutdown's own words are telnet's: the client says its own
            chk.ok(tag == "SHUTDOWN" or "<U+001B>]0;" + tag + "<U+0007>" in screen,
                   "%s: shown as <U+001B>, visibly:\n%s" % (tag, screen))
        chk.ok(b"\x1b[2J" not in seen, "nothing clears the screen")
    finally:
        if fake is not None:
            fake.close()
        lsock.close()
        t.stop()
    chk.done()


if __name__ == "__main__":
    main()
