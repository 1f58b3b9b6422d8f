"""test_i18n_sentences.py: a JSON client can translate the server's
sentences (docs/PROTOCOL.md, "Sentences in other languages").

Real error replies carry "msg" (the English printf format, the msgid) and
"args", and formatting msg with args gives the English "message" exactly:
an error with arguments, an error code's own sentence, and refused moves
whose reasons come from the game's rules (solitaire and Ataxx), and a
refused login, whose reason is passed along (conn_error_text), and a
reason that wraps the game's own (a sentence inside the sentence). The
reason of a moves reply, a move's sentence, and a one-player game's end, whose reason is a
sentence of its own inside the sentence. A
telnet client's lines stay as they were: no msgid in text mode.
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks, Client, Server, args, login  # noqa: E402
from test_telnet import Telnet  # noqa: E402

# A C printf conversion, as the server's formats have them.
CONV = re.compile(r"%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d+))?(?:hh|h|ll|l|z|j|t)?"
                  r"([diouxXcsfgeE%])")


def c_format(fmt, args):
    """fmt (a C printf format) with args, as C would print it; an argument
    that is a sentence of its own ({msg, args}) is formatted the same way,
    with a capital where it opens the sentence or follows '. ', '! ' or
    '? ' (docs/PROTOCOL.md)."""
    args = list(args)
    out, at = "", 0
    for m in CONV.finditer(fmt):
        out += fmt[at:m.start()]
        at = m.end()
        flags, width, prec, conv = m.groups()
        if conv == "%":
            out += "%"
            continue
        spec = "%" + flags
        if width == "*":
            width = str(args.pop(0))
        spec += width or ""
        if prec == "*":
            prec = str(args.pop(0))
        if prec is not None:
            spec += "." + prec
        v = args.pop(0)
        if isinstance(v, dict):
            v = c_format(v["msg"], v["args"])
            if m.start() == 0 or re.search(r"[.!?] $", fmt[:m.start()]):
                v = v[:1].upper() + v[1:]
        out += (spec + ("d" if conv in "iu" else conv)) % v
    return out + fmt[at:]


def reproduces(chk, rep, what, msg=None, key="message"):
    """rep carries msg and args that make its sentence again."""
    ok = (rep is not None and isinstance(rep.get("msg"), str) and
          isinstance(rep.get("args"), list))
    if not chk.ok(ok, "%s: msg and args (%r)" % (what, rep)):
        return
    if msg is not None:
        chk.eq(rep["msg"], msg, what + ": the msgid")
    chk.eq(c_format(rep["msg"], rep["args"]), rep[key],
           what + ": msg with args is the sentence")


def errors(chk, port):
    c = login(port, "ana")
    rep = c.call("join", room="r999")
    reproduces(chk, rep, "join of a room that is not", "no room '%s'")
    chk.eq(rep.get("args"), ["r999"], "the room is the argument")
    rep = c.call("frobnicate")
    reproduces(chk, rep, "an unknown verb",
               "unknown command '%s' (help lists them)")
    rep = c.call("join")
    reproduces(chk, rep, "join in no room")
    rep = c.call("create", game="solitaire",
                 options={"position": "3x3:oo./..x/..o goal=2,2"})
    reproduces(chk, rep, "a bad position", "option 'position': %s")
    chk.eq((rep.get("args") or [None])[0],
           {"msg": "position: row %d, cell %d: '%c' is not #, . or o",
            "args": [2, 3, "x"]},
           "the game's reason is a sentence inside the sentence")
    c.close()
    c = Client(port)
    rep = c.call("hello", name="ana", token="0" * 32)
    chk.eq(rep.get("error"), "bad_token", "a wrong token is refused")
    reproduces(chk, rep, "a wrong token (a reason passed along)",
               "wrong token for that name")
    c.close()
    c = Client(port)
    rep = c.call("join", room="r1")
    reproduces(chk, rep, "join before hello",
               "say hello first: hello YOURNAME")
    chk.eq(rep.get("args"), [], "a code's own sentence has no arguments")
    c.close()


def refused_moves(chk, port):
    c = login(port, "sol")
    rep = c.call("create", game="solitaire")
    room = rep.get("room")
    for move, msgid in (("9,9 up", "not a cell of this board: %s,%s"),
                        ("4,4 up", "no peg at %d,%d"),
                        ("zz", "malformed move: expected like 3,4 up")):
        rep = c.call("move", room=room, move=move)
        chk.eq(rep.get("error"), "illegal_move", move + ": refused")
        reproduces(chk, rep, "solitaire refuses " + move, msgid)
    c.close()
    a = login(port, "atx")
    rep = a.call("create", game="ataxx", bot=1)
    room = rep.get("room")
    chk.eq(rep.get("seat"), "white", "the player moves first")
    for move, msgid in (
            ("a7d4", "%s to %s is not a jump (distance must be 2)"),
            ("q9", "%c%.*s is not a square of this board (a1 to %c%d)"),
            ("b2", "no piece of yours adjacent to %s")):
        rep = a.call("move", room=room, move=move)
        chk.eq(rep.get("error"), "illegal_move", move + ": refused")
        reproduces(chk, rep, "ataxx refuses " + move, msgid)
    a.close()


def more_sentences(chk, port):
    """A reply's reason, and a one-player ending whose reason is a
    sentence of its own."""
    a = login(port, "mvs")
    room = a.call("create", game="ataxx", bot=1).get("room")
    rep = a.call("moves", room=room, **{"from": "g7"})
    chk.eq(rep.get("moves"), [], "black's g7 has no move for white")
    reproduces(chk, rep, "the moves reply's reason",
               "it is %s's turn, and no move of %s starts from %s (not a "
               "%s piece, or it cannot move)", key="reason")
    rep = a.call("move", room=room, move="a7a5")
    ev = a.event("moved")
    reproduces(chk, ev, "a move's sentence", "White player moves from %s to %s",
               key="text")
    chk.eq((ev or {}).get("args"), ["a7", "a5"], "the squares are its args")
    a.close()
    c = login(port, "solend")
    room = c.call("create", game="solitaire",
                  options={"position": "3x3:oo./.../..o goal=2,2"}
                  ).get("room")
    c.call("move", room=room, move="1,1")
    ev = c.event("ended")
    reproduces(chk, ev, "a one-player game's end",
               "%s: %d pieces remain. Play again? Type undo to take back "
               "a move, restart to try again, or rematch for a new game.")
    chk.eq((ev or {}).get("args"), [{"msg": "no move left", "args": []}, 2],
           "the reason is a sentence of its own")
    st = c.call("state", room=room).get("state", {})
    reproduces(chk, st.get("result"), "the state's result")
    c.close()


def text_mode(chk, port):
    t = Telnet(port)
    t.until("hello")
    t.type("hello tel")
    t.until("tel")
    t.type("join r999")
    lines = t.until("r999")
    chk.ok(lines and "no room 'r999'" in lines[-1], "telnet sees the "
           "sentence: %r" % lines)
    chk.ok(not any("%s" in ln or "msg" in ln for ln in lines),
           "telnet sees no msgid: %r" % lines)
    t.close()


def main():
    a = args()
    chk = Checks()
    with Server(a.build) as s:
        errors(chk, s.port)
        refused_moves(chk, s.port)
        more_sentences(chk, s.port)
        text_mode(chk, s.port)
    chk.done()


if __name__ == "__main__":
    main()
