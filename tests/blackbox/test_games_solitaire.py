"""test_games_solitaire.py: peg solitaire over the wire, with a spectator.

The seed's example board and a generated board (`steps`) solved by
following `hint` to the end (ended "solved"); a board that can only end
blocked (hint says "lost"); undo and restart (undone / restarted events
with the position); export and its round trip through the `file` option.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import (Checks, Solo, check_history,  # noqa: E402
                       check_moved_chain, done, ended, harness, serving, until)

EXAMPLE_POS = "6x6:######/.ooo##/oo#o##/.o..##/o.oooo/###o## goal=3,4"
EXAMPLE_FILE = ("6 6\n0 0 0 0 0 0\n1 2 2 2 0 0\n2 2 0 2 0 0\n1 2 1 1 0 0\n"
                "2 1 2 2 2 2\n0 0 0 2 0 0\n2 3\n")


def pegs(position):
    return position.split(":", 1)[1].split(" ")[0].count("o")


def check_solved(ck, g, played):
    """The end of a solved board: one ended event, seen by both."""
    tag = g.tag
    for c in g.clients:
        ck.ok(until(c, ended(g.room)) is not None, "%s: %s got ended" %
              (tag, c.name))
    view = g.views()
    moved = [e for e in view if e["event"] == "moved"]
    ends = [e for e in view if e["event"] == "ended"]
    ck.eq(len(ends), 1, "%s: one ended event" % tag)
    end = ends[0] if ends else {}
    ck.eq((end.get("result"), end.get("winner"), end.get("reason"),
           end.get("scores")),
          ("solved", None, "one peg left on the goal", {"player": 1}),
          "%s: solved with one peg on the goal" % tag)
    st = g.state()
    ck.eq((st["status"], st["turn"]), ("ended", None), "%s: ended" % tag)
    ck.eq(pegs(st["position"]), 1, "%s: one peg left" % tag)
    check_history(ck, tag, st, moved)
    check_moved_chain(ck, tag, moved, g.names)
    ck.eq([e["move"] for e in moved], played, "%s: the moved events are "
          "the hinted moves" % tag)
    r = g.call("hint")
    ck.eq((r or {}).get("error"), "game_over", "%s: no hint after the end"
          % tag)
    r = g.call("move", move="1,1 up")
    ck.eq((r or {}).get("error"), "game_over", "%s: no move after the end"
          % tag)
    return st


def example(ck, port):
    g = Solo(ck, port, "solex", "solitaire", {"board": "example"})
    st = g.created.get("state", {})
    ck.eq((st.get("status"), st.get("position")), ("playing", EXAMPLE_POS),
          "solex: the seed's example starts at once")
    r = g.call("export")
    ck.eq(((r or {}).get("format"), (r or {}).get("text")),
          ("board file", EXAMPLE_FILE), "solex: export in the seed's format")
    r = g.call("move", move="9,9 up")
    ck.eq((r or {}).get("error"), "illegal_move", "solex: off the board")
    ck.ok("9,9" in (r or {}).get("message", ""),
          "solex: the reason names the cell: %r" % r)
    r = g.call("next")
    ck.eq((r or {}).get("error"), "not_allowed", "solex: no levels")
    r = g.call("moves")
    ck.eq(sorted((r or {}).get("moves", [])),
          ["2,3 left", "2,4 down", "3,2 down", "5,4 left", "6,4 up"],
          "solex: the example's five first jumps")
    played = g.follow_hints(20)
    ck.eq(len(played), pegs(EXAMPLE_POS) - 1, "solex: one jump per peg "
          "taken")
    st = check_solved(ck, g, played)
    # undo works after the end too (docs/RULES.md, server policies): the game goes on.
    r = g.call("undo")
    ck.ok(r and r.get("ok"), "solex: undo after the end: %r" % r)
    ev = until(g.w, lambda e: e.get("event") == "undone" and
               e.get("room") == g.room)
    ck.eq(((ev or {}).get("turn"), (ev or {}).get("status")),
          ("player", "playing"), "solex: undone says the game goes on")
    st2 = g.state()
    ck.eq((st2["status"], st2["result"], len(st2["history"])),
          ("playing", None, len(played) - 1), "solex: playing again, one "
          "move fewer")
    r = g.call("move", move=played[-1])
    ck.ok(r and r.get("ok"), "solex: the last jump again: %r" % r)
    evs = [e for e in g.w.log if e.get("event") == "ended" and
           e.get("room") == g.room]
    if len(evs) < 2:
        until(g.w, lambda e: e.get("event") == "ended" and e.get("room") ==
              g.room and e["seq"] > evs[0]["seq"])
    evs = [e for e in g.w.log if e.get("event") == "ended" and
           e.get("room") == g.room]
    ck.eq([(e["result"], e["reason"]) for e in evs],
          [("solved", "one peg left on the goal")] * 2,
          "solex: solved a second time")
    g.close()


def generated(ck, port):
    opts = {"steps": 12, "rows": 5, "cols": 6, "seed": 3}
    g = Solo(ck, port, "solgen", "solitaire", opts)
    st = g.created.get("state", {})
    n = pegs(st.get("position", ":"))
    ck.ok(2 <= n <= 13, "solgen: 12 backward jumps make at most 13 pegs "
          "(%d)" % n)
    ck.ok(st.get("position", "").startswith("5x6:"), "solgen: a 5x6 board")
    # The same options make the same board.
    g2 = Solo(ck, port, "solgen2", "solitaire", opts)
    ck.eq(g2.created.get("state", {}).get("position"), st.get("position"),
          "solgen: the same seed makes the same board")
    g2.close()
    played = g.follow_hints(20)
    ck.eq(len(played), n - 1, "solgen: one jump per peg taken")
    check_solved(ck, g, played)
    g.close()


def blocked(ck, port):
    pos = "3x3:oo./.../..o goal=2,2"
    g = Solo(ck, port, "solblk", "solitaire", {"position": pos})
    r = g.call("hint")
    ck.eq(((r or {}).get("verdict"), "move" in (r or {})), ("lost", False),
          "solblk: the hint says lost")
    r = g.call("undo")
    ck.eq((r or {}).get("error"), "not_allowed", "solblk: nothing to undo")
    r = g.call("move", move="1,1")
    ck.eq((r or {}).get("move"), "1,1 right", "solblk: R,C alone for the "
          "peg's one jump")
    for c in g.clients:
        ck.ok(until(c, ended(g.room)) is not None, "solblk: %s got ended"
              % c.name)
    view = g.views()
    end = [e for e in view if e["event"] == "ended"]
    ck.eq([(e.get("result"), e.get("reason"), e.get("scores"))
           for e in end], [("blocked", "no move left", {"player": 2})],
          "solblk: blocked, two pegs left")
    # restart after the end: the board again, playing, no history.
    seq = view[-1]["seq"]
    r = g.call("restart")
    ck.ok(r and r.get("ok"), "solblk: restart after the end: %r" % r)
    ev = [until(c, lambda e: e.get("event") == "restarted" and
                e.get("room") == g.room and e["seq"] > seq)
          for c in g.clients]
    ck.ok(ev[0] is not None and ev[0] == ev[1],
          "solblk: both see the same restarted event")
    ck.eq(((ev[0] or {}).get("position"), (ev[0] or {}).get("board")),
          (pos, ["oo.", ".G.", "..o"]), "solblk: restarted carries the "
          "start position")
    st = g.state()
    ck.eq((st["status"], st["history"], st["result"], st["position"]),
          ("playing", [], None, pos), "solblk: the board is back")
    g.close()


def two_ways(ck, port):
    """R,C alone is refused when the peg can jump two ways, naming them."""
    pos = "5x5:...../..o../.oo../...../..... goal=1,3"
    g = Solo(ck, port, "sol2way", "solitaire", {"position": pos})
    r = g.call("move", move="3,3")
    msg = (r or {}).get("message", "")
    ck.ok((r or {}).get("error") == "illegal_move" and "up" in msg and
          "left" in msg, "sol2way: 3,3 alone names both ways: %r" % r)
    r = g.call("moves", **{"from": "3,3"})
    ck.eq(sorted((r or {}).get("moves", [])), ["3,3 left", "3,3 up"],
          "sol2way: moves from 3,3")
    r = g.call("move", move="3,3 U")
    ck.eq((r or {}).get("move"), "3,3 up", "sol2way: a short direction")
    ev = until(g.w, ended(g.room))
    ck.eq(((ev or {}).get("result"), (ev or {}).get("reason")),
          ("blocked", "no move left"),
          "sol2way: two pegs left that cannot jump: blocked")
    g.close()
    g = Solo(ck, port, "soloff", "solitaire",
             {"position": "3x3:oo./.../... goal=2,2"})
    r = g.call("move", move="1,1")
    ev = until(g.w, ended(g.room))
    ck.eq(((ev or {}).get("result"), (ev or {}).get("reason"),
           (ev or {}).get("scores")),
          ("blocked", "one peg left, off the goal", {"player": 1}),
          "soloff: one peg left, not on the goal: blocked")
    g.close()


def undo_restart(ck, port):
    g = Solo(ck, port, "solundo", "solitaire", {"board": "example"})
    h1 = g.call("hint")["move"]
    r1 = g.call("move", move=h1)
    after1 = g.state()["position"]
    h2 = g.call("hint")["move"]
    g.call("move", move=h2)
    seq = g.state()["seq"]
    r = g.call("undo")
    ck.ok(r and r.get("ok"), "solundo: undo: %r" % r)
    ev = [until(c, lambda e: e.get("event") == "undone" and
                e.get("room") == g.room and e["seq"] > seq)
          for c in g.clients]
    ck.ok(ev[0] is not None and ev[0] == ev[1],
          "solundo: both see the same undone event")
    ck.eq((ev[0] or {}).get("position"), after1, "solundo: undone carries "
          "the position after the first move")
    st = g.state()
    ck.eq(([h["move"] for h in st["history"]], st["position"]),
          ([r1["move"]], after1), "solundo: one move left in the history")
    # The undone move can be played again, and others too.
    r = g.call("move", move=h2)
    ck.ok(r and r.get("ok"), "solundo: the move again after undo: %r" % r)
    r = g.call("restart")
    ck.ok(r and r.get("ok"), "solundo: restart: %r" % r)
    st = g.state()
    ck.eq((st["position"], st["history"]), (EXAMPLE_POS, []),
          "solundo: restart goes back to the example's start")
    view = g.views()
    ck.eq([e["event"] for e in view if e["event"] not in ("joined",)],
          ["moved", "moved", "undone", "moved", "restarted"],
          "solundo: the spectator saw moves, undone, restarted")
    # The exported board, loaded as a file, is the same position.
    r = g.call("export")
    g2 = Solo(ck, port, "solfile", "solitaire", {"file": r["text"]})
    ck.eq(g2.created.get("state", {}).get("position"), EXAMPLE_POS,
          "solundo: export then file is the same board")
    g2.close()
    g.close()


def hint_order(ck, port):
    """A hint is solved off the event loop, yet the requests sent right
    behind it on the same connection are answered after it, in order."""
    c = harness.login(port, "hintorder")
    c.call("create", game="solitaire",
           options={"steps": 24, "rows": 7, "cols": 7, "seed": 9})
    c.raw('{"cmd":"hint","id":"h"}\n{"cmd":"ping","id":"p"}\n'
          '{"cmd":"state","id":"s"}\n')
    ids = []
    for _ in range(3):
        r = c.reply()
        ids.append((r or {}).get("id"))
        if (r or {}).get("id") == "h":
            ck.eq(r.get("verdict"), "winnable",
                  "hint order: a generated board is winnable")
    ck.eq(ids, ["h", "p", "s"], "hint order: replies in request order")
    c.close()


def main():
    a = harness.args()
    ck = Checks()
    with serving(a.build) as s:
        example(ck, s.port)
        generated(ck, s.port)
        blocked(ck, s.port)
        two_ways(ck, s.port)
        undo_restart(ck, s.port)
        hint_order(ck, s.port)
    done(ck)


if __name__ == "__main__":
    main()
