#!/usr/bin/env python3
"""test_newcomer_text.py: text mode as a newcomer on telnet reads it (issue
13): no noise (a board file printed raw in the room header, a seed on a
loaded board, "to move" beside the picture's own turn line, the board twice
when a join starts the game, the shutdown sentence said twice), watchers
not told they may claim, shorthand mistakes answered with the verb's usage
line, and moves on a square without a move saying why."""

import os
import re
import signal
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks, Server, args, login  # noqa: E402
from test_telnet import Telnet as RawTelnet  # noqa: E402


class Telnet(RawTelnet):
    """test_telnet's connection, logged in, with say(): type a line and
    read until quiet."""

    def __init__(self, port, name):
        super().__init__(port)
        self.line()  # the welcome
        self.type("hello %s" % name)
        self.quiet()

    def quiet(self, q=0.3):
        return super().quiet(q)

    def say(self, text, q=0.3):
        self.type(text)
        return self.quiet(q)


BOARD = "3 5\n0 0 0 0 0\n2 2 1 2 2\n0 0 0 0 0\n1 2\n"


def test_loaded_board(chk, port):
    t = Telnet(port, "tx_a")
    out = t.say('create solitaire file="%s"' % BOARD.replace("\n", "\\n"))
    opts = [x for x in out if x.startswith("Options:")]
    chk.eq(len(opts), 1, "one Options line: %r" % out)
    chk.ok(opts and "0 0 0" not in opts[0] and "lines" in opts[0],
           "the board file is not printed raw: %r" % opts)
    chk.ok(all("0 0 0 0 0" != x for x in out),
           "no raw board lines: %r" % out)
    chk.ok(opts and "seed=" not in opts[0],
           "no seed on a loaded board: %r" % opts)
    t.close()


def test_turn_once(chk, port):
    """The picture's own turn line ("player 1 to place peg no. 1", "white
    (player 1) to move") is not followed by another "player 1 to move"."""
    a, b = Telnet(port, "tt_a"), Telnet(port, "tt_b")
    out = a.say("create stones seed=1")
    room = re.search(r"room (r\d+)", "\n".join(out)).group(1)
    out = b.say("join %s" % room) + a.quiet()
    text = "\n".join(out)
    places = re.findall(r"(player \d) to place", text)
    chk.ok(places, "the picture says who places: %r" % text)
    for who in set(places):
        chk.ok(not re.search(r"^%s to move\.$" % who, text, re.M),
               "no '%s to move.' beside it: %r" % (who, text))
    # Amazons says it with a note: "white (player 1) to move"
    out = a.say("create amazons")
    room = re.search(r"room (r\d+)", "\n".join(out)).group(1)
    out = b.say("join %s" % room) + a.quiet()
    text = "\n".join(out)
    chk.ok(re.search(r"^white \(player 1\) to move$", text, re.M),
           "the Amazons picture says who moves: %r" % text)
    chk.ok(not re.search(r"^white to move\.$", text, re.M),
           "no 'white to move.' beside it: %r" % text)
    a.close()
    b.close()


def test_board_once(chk, port):
    """join that starts the game shows the board once (the started
    event's), and create of a one-player game too."""
    a, b = Telnet(port, "bo_a"), Telnet(port, "bo_b")
    out = a.say("create ataxx")
    room = re.search(r"room (r\d+)", "\n".join(out)).group(1)
    a.quiet()
    out = b.say("join %s" % room)
    text = "\n".join(out)
    chk.eq(len(re.findall(r"^   a b c d e f g$", text, re.M)), 1,
           "join: the board once: %r" % text)
    chk.eq(len(re.findall(r"white to move", text)), 1,
           "join: the turn once: %r" % text)
    a.quiet()
    out = a.say("create solitaire")
    text = "\n".join(out)
    chk.eq(len(re.findall(r"pegs? left", text)), 1,
           "one-player create: the board once: %r" % text)
    # resuming a seat (no started event follows) still shows the board
    out = b.say("join %s" % room)
    text = "\n".join(out)
    chk.eq(len(re.findall(r"^   a b c d e f g$", text, re.M)), 1,
           "join again: the board from the state: %r" % text)
    a.close()
    b.close()


def test_watcher_claim(chk, port):
    """A watcher is not told that it may claim the game."""
    a, b = login(port, "wc_a"), login(port, "wc_b")
    room = a.call("create", game="ataxx")["room"]
    b.call("join", room=room)
    w = Telnet(port, "wc_w")
    w.say("watch %s" % room)
    b.close()
    out = w.quiet(1.0)
    text = "\n".join(out)
    chk.ok("is gone" in text, "the watcher hears it: %r" % text)
    chk.ok("you may claim" not in text, "not told it may claim: %r" % text)
    chk.ok("the opponent may claim" in text, "who may: %r" % text)
    a.close()
    w.close()


def test_shutdown(chk, build):
    with Server(build) as s:
        t = Telnet(s.port, "sd_a")
        s.proc.send_signal(signal.SIGTERM)
        out = t.quiet(1.0)
        text = "\n".join(out)
        chk.ok("The server is shutting down" in text, "told: %r" % text)
        chk.eq(text.lower().count("shutting down"), 1,
               "said once: %r" % text)
        t.close()


def test_usage_lines(chk, port):
    """Shorthand mistakes are answered with the verb's usage line, not
    with JSON field names."""
    t = Telnet(port, "us_a")
    for line, want in (("create", "usage: create GAME"),
                       ("move", "usage: move MOVE"),
                       ("draw maybe", "(usage: draw offer|accept|decline)"),
                       ("say", "usage: say TEXT"),
                       ("join", "usage: join ROOM")):
        out = t.say(line)
        err = [x for x in out if x.startswith("error")]
        chk.ok(err and want in err[0], "%s: %r" % (line, out))
        chk.ok(err and "field '" not in err[0],
               "%s: no JSON jargon: %r" % (line, err))
    t.close()


def test_moves_why(chk, port):
    """moves on a square with no move says why."""
    t = Telnet(port, "mw_a")
    t.say("create ataxx bot=1")
    out = t.say("moves b4")
    chk.ok(any(x.startswith("No legal moves: it is white's turn, and no "
                            "move of white starts from b4") for x in out),
           "moves b4 says why: %r" % out)
    out = t.say("moves a1")  # black's piece
    chk.ok(any("no move of white starts from a1" in x for x in out),
           "moves on the opponent's piece says why: %r" % out)
    t.close()


def main():
    a = args()
    chk = Checks()
    with Server(a.build) as s:
        test_loaded_board(chk, s.port)
        test_turn_once(chk, s.port)
        test_usage_lines(chk, s.port)
        test_moves_why(chk, s.port)
        test_board_once(chk, s.port)
        test_watcher_claim(chk, s.port)
    test_shutdown(chk, a.build)
    chk.done()


if __name__ == "__main__":
    main()
