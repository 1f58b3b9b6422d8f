"""test_badclient_text.py: chat cannot forge what a text-mode reader sees.

A victim on telnet (text mode) and mallory (JSON or shorthand). Every line
of a multi-line chat, lobby or room, carries mallory's prefix, so a chat
cannot print a line that looks like the server's; carriage returns, other
control characters, and the characters that reorder or hide text (bidi
overrides and isolates, U+0085, U+2028/2029, zero-width and other
invisible format characters) are refused with bad_request and nobody
hears them, in chat, say, names and options alike. JSON readers get the
newline JSON-escaped, on one line; emoji with their joiners pass.
"""

import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import login, main_in_tmp, req, server, shut  # noqa: E402
from harness import Client, is_ok  # noqa: E402

FORGERY = ("hi\nHello, victim. Your token has expired. Log in again with: "
           "hello admin 0000\n\nerror (bad_token): wrong token\n")

# Characters that reorder or hide text, and controls, each refused.
HIDING = ["\u0085", "\u2028", "\u2029", "\u202a", "\u202b", "\u202c",
          "\u202d", "\u202e", "\u2066", "\u2067", "\u2068", "\u2069",
          "\u200e", "\u200f", "\u061c", "\u200b", "\u200c", "\u2060",
          "\ufeff", "\u00ad", "\u180e", "\U000e0041", "\u0090"]
CONTROLS = ["\r", "\r\n", "\x1b[2J", "\x07", "\x7f", "\x08"]


class Telnet:
    """A text-mode client: lines as people read them."""

    def __init__(self, port, name):
        self.c = Client(port)
        self.c.raw("hello %s\n" % name)
        self.lines = []
        self.quiet()

    def quiet(self, wait=0.3):
        """Read lines until none comes for wait seconds (bounded)."""
        got = []
        deadline = time.time() + 5
        while time.time() < deadline:
            try:
                line = self.c.line(wait)
            except TimeoutError:
                break
            if line is None:
                break
            got.append(line)
        self.lines += got
        return got

    def send(self, line):
        self.c.raw(line.encode() + b"\n")


def prefixed(ck, lines, prefix, what, n):
    """Every line carries prefix; n of them."""
    ck.eq(len(lines), n, "%s: %d lines: %r" % (what, n, lines))
    for ln in lines:
        ck.ok(ln.startswith(prefix), "%s: line %r starts with %r" %
              (what, ln, prefix))


def forgery(ck, port):
    v = Telnet(port, "victim")
    m = login(port, "mallory")
    is_ok(ck, req(m, "chat", text=FORGERY), "lobby chat of many lines")
    got = v.quiet()
    prefixed(ck, got, "[lobby] mallory: ", "lobby forgery", 5)
    ck.eq(got[1], "[lobby] mallory: Hello, victim. Your token has expired."
          " Log in again with: hello admin 0000", "the forged line is "
          "attributed")
    # A room: the same in say, and through shorthand.
    r = req(m, "create", game="ataxx", options={"size": 5})
    room = r["room"]
    v.send("join " + room)
    v.quiet()
    is_ok(ck, req(m, "say", room=room, text="a\nb\n"), "say of two lines")
    prefixed(ck, v.quiet(), "[%s] mallory: " % room, "room say", 3)
    # JSON readers: one line, the newline escaped.
    j = login(port, "jay")
    is_ok(ck, req(m, "chat", text="x\ny"), "chat for a JSON reader")
    raw = j.line()
    ck.ok("\n" not in raw and json.loads(raw).get("text") == "x\ny",
          "JSON: one line, text with its newline: %r" % raw)
    v.quiet()
    # Emoji with a joiner and a variation selector pass as they are.
    heart = "\u2764\ufe0f \U0001f469\u200d\U0001f4bb"
    is_ok(ck, req(m, "chat", text=heart), "emoji pass")
    ck.eq(v.quiet(), ["[lobby] mallory: " + heart], "emoji shown as sent")
    j.drain()
    return v, m, j, room


def refused(ck, v, m, j, room):
    """Each hiding or control character, refused in every field that
    reaches another reader, and unheard."""
    for ch in HIDING + CONTROLS:
        what = "U+%04X" % ord(ch[0])
        tries = [("chat", {"text": "a" + ch + "b"}),
                 ("say", {"room": room, "text": ch + "x"})]
        if ch[0] != "\r":  # a board file passed as an option may hold CR
            tries.append(("create", {"game": "stones",
                                     "options": {"seed": "1" + ch}}))
        for cmd, fields in tries:
            r = req(m, cmd, **fields)
            ck.ok(r is not None and r.get("error") in (
                "bad_request", "bad_json"), "%s in %s refused: %r" %
                (what, cmd, r))
        if ch not in ("\x00", "\r", "\r\n"):
            # Typed on telnet, the same (a line cannot hold CR or NUL).
            v.send("say x" + ch + "y")
            got = v.quiet()
            ck.ok(len(got) == 1 and got[0].startswith("error ("),
                  "%s typed: refused: %r" % (what, got))
        c = Client(j.sock.getpeername()[1])
        r = c.call("hello", name="ad" + ch + "min")
        ck.ok(r is not None and r.get("error") in ("bad_request",
                                                   "bad_name"),
              "%s in a name refused: %r" % (what, r))
        c.close()
    ck.eq(v.quiet(), [], "the victim heard none of them")
    ck.eq([x for x in j.drain() if x.get("event") == "chat"], [],
          "the JSON reader heard none of them")


def run(ck, a, tmp):
    s = server(a.build)
    v, m, j, room = forgery(ck, s.port)
    refused(ck, v, m, j, room)
    shut(s)


if __name__ == "__main__":
    main_in_tmp("tablero-badtext-", run)
