"""test_telnet.py: people on telnet. Raw sockets that send telnet option
negotiation first, CRLF line endings and shorthand commands; the server
answers in text mode (sentences, ASCII boards). Two of them play a whole
game of Stones to its end while a third watches; then `mode json` and
`mode text` switch the output. A person is greeted in words (issue 21).
"""

import json
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import (WAIT, Checks, Client, Server, args,  # noqa: E402
                     run_parts, stopped_cleanly)

FAST = ["--rate", "100000", "--burst", "100000"]

# IAC WILL ECHO, IAC DO SUPPRESS-GO-AHEAD: what a telnet client may send.
NEGOTIATE = b"\xff\xfb\x01\xff\xfd\x03"
# IAC SB NAWS 80x24 IAC SE: a window-size subnegotiation.
NAWS = b"\xff\xfa\x1f\x00\x50\x00\x18\xff\xf0"


class Telnet(Client):
    """A raw connection that types lines the way telnet does."""

    def __init__(self, port):
        super().__init__(port, welcome=False)
        self.seen = []  # every line read, for checks over the session

    def type(self, text):
        self.raw(text.encode() + b"\r\n")

    def until(self, pattern, timeout=WAIT):
        """Lines up to and including the first one matching pattern (a
        regex); the lines read (the match last), or the lines read before
        the timeout or close (no match)."""
        out = []
        deadline = time.time() + timeout
        while True:
            try:
                line = self.line(max(0.01, deadline - time.time()))
            except TimeoutError:
                return out
            if line is None:
                return out
            out.append(line)
            self.seen.append(line)
            if re.search(pattern, line):
                return out

    def quiet(self, q=0.2):
        """Lines until nothing comes for q seconds."""
        out = []
        while True:
            try:
                line = self.line(q)
            except TimeoutError:
                return out
            if line is None:
                return out
            out.append(line)
            self.seen.append(line)


def found(chk, lines, pattern, what):
    """Some line matches pattern."""
    return chk.ok(any(re.search(pattern, x) for x in lines),
                  "%s: no line matches %r in %r" % (what, pattern, lines))


def picture(lines):
    """The Stones picture is there: the row labels and the legend."""
    text = "\n".join(lines)
    return (re.search(r"^A .*---", text, re.M) is not None and
            re.search(r"^C .*---", text, re.M) is not None and
            "x = player 1, o = player 2" in text)


def test_session(chk, srv):
    ana = Telnet(srv.port)
    w = ana.until(r"welcome")
    chk.ok(w and json.loads(w[-1]).get("event") == "welcome",
           "telnet: the welcome comes first: %r" % w)
    # negotiation first, split across two writes; then CRLF lines
    ana.raw(NEGOTIATE[:4])
    time.sleep(0.05)
    ana.raw(NEGOTIATE[4:] + b"hello ana\r\n")
    lines = ana.until(r"Keep it")
    m = [re.search(r"Hello, ana\. Your token is ([0-9a-f]{32})", x)
         for x in lines]
    m = [x for x in m if x]
    chk.ok(m, "hello in text: the token sentence: %r" % lines)
    tok = m[0].group(1) if m else "?"
    found(chk, lines, r"hello ana " + tok, "hello: how to log in again")

    bob = Telnet(srv.port)
    bob.until(r"welcome")
    bob.raw(b"\xff\xfd\x01HELLO bob\r\n")  # verbs in any case
    found(chk, bob.until(r"Keep it"), r"Hello, bob\.", "bob's hello")

    ana.type("create stones first=1")
    lines = ana.until(r"joined as player 1")
    mr = [re.search(r"You are in room (r\d+), seat player 1\.", x)
          for x in lines]
    mr = [x for x in mr if x]
    chk.ok(mr, "create: the room sentence: %r" % lines)
    room = mr[0].group(1) if mr else "r?"
    found(chk, lines, r"^Room %s: Stones, waiting\." % room, "create: state")
    chk.ok(picture(lines), "create: the ASCII board: %r" % lines)
    ana.type("rooms stones waiting")
    found(chk, ana.until(room + " stones waiting"),
          room + r" stones waiting - player 1: ana, player 2: \(free\)",
          "rooms in text")

    wat = Telnet(srv.port)
    wat.until(r"welcome")
    wat.raw(NAWS + b"hello cleo\r\n")
    wat.until(r"Keep it")

    bob.type("join " + room)
    lines = bob.until(r"The game starts")
    found(chk, lines, r"You are in room %s, seat player 2\." % room,
          "join in text")
    found(chk, lines, r"^\[%s\] The game starts: player 1: ana, "
          r"player 2: bob\." % room, "started in text")
    lines = ana.until(r"The game starts")
    found(chk, lines, r"^\[%s\] bob joined as player 2\." % room,
          "ana sees bob join")
    lines += ana.until(r" to (move|place)")
    chk.ok(picture(lines), "started: the board for ana")
    found(chk, lines, r"player 1 to (move|place)", "started: whose turn")

    # a JSON program watches the same game: the same events, in JSON
    jw = Client(srv.port)
    jw.call("hello", name="jsonwatch")
    jw.call("watch", room=room)
    wat.type("watch " + room)
    found(chk, wat.until(r"You are watching"),
          r"You are watching room %s\." % room, "watch in text")
    found(chk, ana.until(r"cleo is watching"),
          r"^\[%s\] cleo is watching\." % room, "ana sees the watcher")

    # out of turn, garbage, a bad point
    bob.type("move c1")
    found(chk, bob.until(r"^error"),
          r"^error \(not_your_turn\): it is player 1's turn",
          "not your turn in text")
    ana.type("frobnicate")
    found(chk, ana.until(r"^error"), r"^error \(unknown_cmd\)",
          "unknown command in text")
    ana.type("move z9")
    found(chk, ana.until(r"^error"),
          r"^error \(illegal_move\): Not a board position",
          "illegal move in text")
    ana.type("moves")
    found(chk, ana.until(r"^Moves:"),
          r"^Moves: A1, A2, A3, B1, B2, B3, C1, C2, C3$", "moves in text")
    # telnet noise inside a line
    ana.raw(b"pi" + NAWS + b"ng\r\n")
    found(chk, ana.until(r"^pong$"), r"^pong$", "IAC SB .. SE inside a line")

    # the game: ana places three, bob places three, ana slides to win
    for mv in ["a1", "A2", "b3"]:
        ana.type("move " + mv)
        lines = ana.until(r"You played")
        found(chk, lines, r"^You played %s\.$" % mv.upper(),
              "ana plays %s" % mv)
        lines = ana.until(r" to (move|place)")
        found(chk, lines, r"^\[%s\] ana plays %s: player 1 places a peg "
              r"on %s\." % (room, mv.upper(), mv.upper()),
              "the moved sentence for %s" % mv)
        chk.ok(picture(lines), "the board after %s" % mv)
    lines = bob.until(r"places a peg on B3")
    lines += bob.until(r"player 2 to (move|place)")
    chk.ok(picture(lines), "bob sees the board")
    found(chk, lines, r"player 2 to (move|place)",
          "bob is told it is his turn")
    chk.ok(re.search(r"^A x---x---", "\n".join(lines), re.M) is not None,
           "bob's board shows A1 and A2: %r" % lines)
    for mv in ["C1", "C2", "B1"]:
        bob.type("move " + mv)
        found(chk, bob.until(r"You played"), r"^You played %s\.$" % mv,
              "bob plays %s" % mv)
    bob.type("say good luck, ana")
    found(chk, ana.until(r"bob: good luck"), r"^\[%s\] bob: good luck, "
          r"ana$" % room, "room chat in text")
    ana.type("move B3 A3")  # shorthand joins the words: "B3 A3"
    found(chk, ana.until(r"^error"), r"^error \(illegal_move\)",
          "a move with a space is one text")
    ana.type("move b3a3")
    lines = ana.until(r"Game over")
    found(chk, lines, r"^You played B3A3\.$", "the winning move")
    found(chk, lines, r"^\[%s\] ana plays B3A3: player 1 slides B3 to "
          r"A3\." % room, "the winning sentence")
    chk.ok(re.search(r"^A x---x---x", "\n".join(lines), re.M) is not None,
           "the final board shows three in a row: %r" % lines)
    found(chk, lines, r"^\[%s\] Game over: ana \(player 1\) wins \(three "
          r"in a row\)\.$" % room, "the end in text")
    for who, t in (("bob", bob), ("cleo", wat)):
        found(chk, t.until(r"Game over"), r"Game over: ana \(player 1\) "
              r"wins \(three in a row\)\.", "%s sees the end" % who)
    found(chk, wat.seen, r"^\[%s\] bob plays C2: player 2 places a peg "
          r"on C2\.$" % room, "the watcher saw the moves")
    jev = [m for m in jw.drain() if "event" in m]
    chk.eq([m.get("move") for m in jev if m.get("event") == "moved"],
           ["A1", "A2", "B3", "C1", "C2", "B1", "B3A3"],
           "the JSON watcher of a text game saw every move in JSON")
    chk.ok(any(m.get("event") == "ended" for m in jev),
           "the JSON watcher saw the end")
    chk.ok(all(not k.startswith("_") for m in jev for k in m),
           "no text-only members reach the JSON watcher")
    jw.close()
    ana.type("move a3a2")
    found(chk, ana.until(r"^error"), r"^error \(game_over\)",
          "move after the end")

    ana.type("state")
    lines = ana.until(r"Game over")
    found(chk, lines, r"^Room %s: Stones, ended\." % room, "state in text")
    chk.ok(picture(lines), "state: the board")
    ana.type("who")
    found(chk, ana.until(r"^Online:"), r"^Online: .*ana.*bob",
          "who in text")
    ana.type("help")
    lines = ana.until(r"^\s+help\s")
    found(chk, lines, r"^Commands", "help in text")
    found(chk, lines, r"^\s+move MOVE", "help lists move")
    ana.type("ping")
    found(chk, ana.until(r"pong"), r"^pong$", "ping in text")

    # bare CR (telnet's CR NUL) before the CRLF
    ana.raw(b"ping\r\x00\r\n")
    found(chk, ana.until(r"pong|error"), r"^pong$", "CR NUL then CRLF")

    # mode json and back
    ana.type("mode json")
    lines = ana.until(r"^\{")
    m = json.loads(lines[-1]) if lines else {}
    chk.ok(m.get("re") == "mode" and m.get("ok") is True and
           m.get("mode") == "json", "mode json: its reply in JSON: %r" % m)
    ana.type("ping")
    lines = ana.until(r"^\{")
    m = json.loads(lines[-1]) if lines else {}
    chk.ok(m.get("re") == "ping" and m.get("pong") is True,
           "shorthand ping answered in JSON: %r" % m)
    bob.type("say gg")
    lines = ana.until(r'"event":"chat"')
    m = json.loads(lines[-1]) if lines else {}
    chk.ok(m.get("from") == "bob" and m.get("text") == "gg" and
           m.get("room") == room, "events in JSON too: %r" % m)
    ana.type("mode text")
    lines = ana.until(r"text")
    chk.ok(lines and not lines[-1].startswith("{"),
           "mode text: its reply in text: %r" % lines)
    ana.type("ping")
    found(chk, ana.until(r"pong"), r"^pong$", "text again")

    # quit: a goodbye, then the connection closes
    bob.type("quit")
    lines = bob.until(r"Bye")
    found(chk, lines, r"^Bye\.$", "quit in text")
    chk.ok(bob.line() is None, "quit closes the connection")

    # the server never sent telnet commands nor CRLF
    for who, t in (("ana", ana), ("bob", bob), ("cleo", wat)):
        t.quiet()
        chk.ok(all(not x.endswith("\r") for x in t.seen),
               "%s: every line ends in \\n, not \\r\\n" % who)
        chk.ok(all("\xff" not in x and "\ufffd" not in x for x in t.seen),
               "%s: no telnet bytes from the server" % who)
    for t in (ana, bob, wat):
        t.close()


def test_token_again(chk, srv):
    """A person comes back with the token the text told them."""
    t = Telnet(srv.port)
    t.until(r"welcome")
    t.type("hello dora")
    lines = t.until(r"Keep it")
    m = [re.search(r"hello dora ([0-9a-f]{32})", x) for x in lines]
    m = [x for x in m if x]
    tok = m[0].group(1) if m else "?"
    t.type("create ataxx size=5 bot=1")
    found(chk, t.until(r"The game starts"), r"The game starts: white: "
          r"dora, black: bot level 1\.", "a game against a bot in text")
    t.close()
    u = Telnet(srv.port)
    u.until(r"welcome")
    u.type("hello dora")
    found(chk, u.until(r"^error"), r"^error \(name_taken\): .*hello dora",
          "name_taken in text")
    u.type("hello dora " + tok)
    lines = u.until(r"^\s+r\d+ ataxx")
    found(chk, lines, r"^Welcome back, dora\.", "welcome back")
    found(chk, lines, r"^\s+r\d+ ataxx, ", "the rooms to go back to")
    u.type("quit")
    u.until(r"Bye")
    u.close()


def test_greeting(chk, srv):
    """A person is greeted in words: the JSON welcome's hint is a
    sentence, and a first shorthand line that is not hello gets a plain
    greeting before its reply; a first hello or JSON line gets none."""
    t = Telnet(srv.port)
    w = t.until(r"welcome")
    hint = json.loads(w[-1]).get("hint", "") if w else ""
    chk.ok(hint.startswith("Welcome! To play, type: hello YOURNAME"),
           "the welcome's hint speaks to people: %r" % hint)
    t.type("help")
    lines = t.until(r"^Welcome to tablerod ")
    chk.ok(lines and re.search(r"^Welcome to tablerod \S+ \(protocol 1\)\. "
                               r"To play, type: hello YOURNAME \(help lists "
                               r"the commands\)\.$", lines[-1]),
           "a first shorthand line is greeted in words: %r" % lines)
    rest = t.quiet()
    chk.ok(rest and not rest[0].startswith("{"),
           "then the reply, in text: %r" % rest[:2])
    t.type("games")
    chk.ok(not any(x.startswith("Welcome to") for x in t.quiet()),
           "greeted once")
    t.close()
    h = Telnet(srv.port)
    h.until(r"welcome")
    h.type("hello greta")
    lines = h.until(r"Keep it")
    chk.ok(lines and not any(x.startswith("Welcome to") for x in lines),
           "a first hello is its own greeting: %r" % lines)
    h.close()
    j = Telnet(srv.port)
    j.until(r"welcome")
    j.type(json.dumps({"cmd": "games"}))
    out = j.quiet()
    chk.ok(out and all(x.startswith("{") for x in out),
           "a first JSON line gets JSON only: %r" % out[:2])
    j.close()


def main():
    a = args()
    chk = Checks()
    with Server(a.build, extra=FAST) as srv:
        run_parts(chk, [test_session, test_token_again, test_greeting], srv)
        stopped_cleanly(chk, srv)
    chk.done()



if __name__ == "__main__":
    main()
