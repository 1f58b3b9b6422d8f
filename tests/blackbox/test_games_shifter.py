"""test_games_shifter.py: Shape Shifter Chess over the wire, with a spectator.

Levels 1, 2 and 3 won by following `hint` (ended "solved", "level won"),
the next level starting by itself in the same room (`next` then only says
so); undo and restart inside a
level; a board that ends blocked ("no capture left"); the saved level
offered by the next `create`; export and the `file` option round trip;
a game ended, taken back (undo, restart) and ended again is in `history`
once.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from games_lib import (Checks, Solo, check_moved_chain, done,  # noqa: E402
                       ended, harness, req, serving, until)


def pieces(position):
    """Pieces on a position string: "LEVEL rows ACTIVE"."""
    rows = position.split(" ")[1]
    return sum(ch.isalpha() for ch in rows)


def level_of(position):
    return int(position.split(" ")[0])


def win_level(ck, g, level, start_seq):
    """Follow hints to the end of this level; the ended event."""
    tag = "%s L%d" % (g.tag, level)
    st = g.state()
    ck.eq((level_of(st["position"]), pieces(st["position"]),
           st["options"].get("level")), (level, level + 2, str(level)),
          "%s: level %d has %d pieces" % (tag, level, level + 2))
    played = g.follow_hints(level + 5)
    ck.eq(len(played), level + 1, "%s: %d captures win it" %
          (tag, level + 1))
    for c in g.clients:
        ck.ok(until(c, lambda e: ended(g.room)(e) and e["seq"] > start_seq)
              is not None, "%s: %s got ended" % (tag, c.name))
    view = g.views(start_seq)
    moved = [e for e in view if e["event"] == "moved"]
    ends = [e for e in view if e["event"] == "ended"]
    ck.eq([(e.get("result"), e.get("reason"), e.get("winner"))
           for e in ends], [("solved", "level won", None)],
          "%s: one ended event, solved, level won" % tag)
    check_moved_chain(ck, tag, moved, g.names)
    ck.eq([e["move"] for e in moved], played, "%s: moved = hinted" % tag)
    ck.eq([e.get("scores") for e in ends], [{"player": 1}],
          "%s: one piece left" % tag)
    ck.ok(all("On to level %d" % (level + 1) in e.get("message", "")
              for e in ends), "%s: the ending says what comes: %r" %
          (tag, ends))
    return ends[-1]["seq"] if ends else start_seq


def next_level(ck, g, level, seq):
    """After a win the next level starts by itself, seen by both; next
    then only says so."""
    tag = "%s next" % g.tag
    evs = [until(c, lambda e: e.get("event") == "started" and
                 e.get("room") == g.room and e["seq"] > seq)
           for c in g.clients]
    ck.ok(evs[0] is not None and evs[0] == evs[1],
          "%s: both see the same started event" % tag)
    r = g.call("next")
    ck.ok(r and r.get("ok") and r.get("level") == level,
          "%s: next says level %d: %r" % (tag, level, r))
    st = g.state()
    ck.eq((st["status"], st["history"], st["result"]),
          ("playing", [], None), "%s: level %d starts fresh" % (tag, level))
    ck.eq(st["options"].get("level"), str(level), "%s: options level %d"
          % (tag, level))
    ck.eq(st.get("game_no"), level, "%s: one game per level" % tag)
    ck.eq((evs[0] or {}).get("position"), st["position"],
          "%s: started carries the level's position" % tag)
    return (evs[0] or {}).get("seq", seq)


def undo_restart(ck, g):
    """Inside a level: undo one capture, restart after two."""
    tag = g.tag + " undo"
    start = g.state()
    h = g.call("hint")["move"]
    g.call("move", move=h)
    after1 = g.state()
    h2 = g.call("hint")["move"]
    g.call("move", move=h2)
    r = g.call("undo")
    ck.ok(r and r.get("ok"), "%s: undo: %r" % (tag, r))
    ev = [until(c, lambda e: e.get("event") == "undone" and
                e.get("room") == g.room and e["seq"] > after1["seq"])
          for c in g.clients]
    ck.ok(ev[0] is not None and ev[0] == ev[1], "%s: both see undone" % tag)
    st = g.state()
    ck.eq((st["position"], len(st["history"])), (after1["position"], 1),
          "%s: back to after the first capture" % tag)
    ck.eq((ev[0] or {}).get("position"), after1["position"],
          "%s: undone carries the position" % tag)
    r = g.call("undo")
    ck.ok(r and r.get("ok"), "%s: undo again: %r" % (tag, r))
    ck.eq(g.state()["position"], start["position"], "%s: back at the start"
          % tag)
    r = g.call("undo")
    ck.eq((r or {}).get("error"), "not_allowed", "%s: nothing more to undo"
          % tag)
    g.call("move", move=h)
    g.call("move", move=h2)
    seq = g.state()["seq"]
    r = g.call("restart")
    ck.ok(r and r.get("ok"), "%s: restart: %r" % (tag, r))
    ev = [until(c, lambda e: e.get("event") == "restarted" and
                e.get("room") == g.room and e["seq"] > seq)
          for c in g.clients]
    ck.ok(ev[0] is not None and ev[0] == ev[1], "%s: both see restarted"
          % tag)
    st = g.state()
    ck.eq((st["position"], st["history"], st["status"]),
          (start["position"], [], "playing"), "%s: restart: the level's "
          "start" % tag)
    return (ev[0] or {}).get("seq", seq)


def levels(ck, port):
    g = Solo(ck, port, "shl", "shifter", {"level": 1, "seed": 5})
    r = g.call("next")
    ck.eq((r or {}).get("error"), "not_allowed", "shl: next before winning")
    r = g.call("move", move="zz")
    ck.eq((r or {}).get("error"), "illegal_move", "shl: a malformed move")
    r = g.call("moves")
    ms = (r or {}).get("moves", [])
    ck.ok(len(ms) >= 1, "shl: the active piece has captures: %r" % ms)
    seq = win_level(ck, g, 1, g.from_seq)
    seq = next_level(ck, g, 2, seq)
    seq = win_level(ck, g, 2, seq)
    seq = next_level(ck, g, 3, seq)
    seq = undo_restart(ck, g)
    win_level(ck, g, 3, seq)
    # The next create resumes at the saved level: 4, one past the won 3.
    r = req(g.p, "create", game="shifter")
    ck.eq(((r or {}).get("resumed_level"),
           (r or {}).get("state", {}).get("options", {}).get("level")),
          (4, "4"), "shl: create offers the saved level")
    g.close()


def blocked(ck, port):
    pos = ("1 .......T/......../......../......../......../.C....../"
           "......../C....... a1")
    g = Solo(ck, port, "shblk", "shifter", {"position": pos})
    ck.eq(g.created.get("state", {}).get("position"), pos,
          "shblk: the position option")
    r = g.call("hint")
    ck.eq((r or {}).get("verdict"), "lost", "shblk: the hint says lost")
    r = g.call("moves")
    ck.eq((r or {}).get("moves"), ["b3"], "shblk: one capture")
    r = g.call("move", move="h8")
    ck.eq((r or {}).get("error"), "illegal_move", "shblk: h8 is not a "
          "capture of the caballo")
    r = g.call("move", move="b3")
    ck.ok(r and r.get("ok"), "shblk: b3: %r" % r)
    for c in g.clients:
        ck.ok(until(c, ended(g.room)) is not None, "shblk: %s got ended"
              % c.name)
    view = g.views()
    ck.eq([(e.get("result"), e.get("reason")) for e in view
           if e["event"] == "ended"], [("blocked", "no capture left")],
          "shblk: blocked, no capture left")
    r = g.call("next")
    ck.eq((r or {}).get("error"), "not_allowed", "shblk: no next after a "
          "blocked end")
    r = g.call("export")
    ck.eq((r or {}).get("format"), "level file", "shblk: export format")
    g2 = Solo(ck, port, "shfile", "shifter", {"file": (r or {}).get("text",
                                                                     "")})
    ck.eq(g2.created.get("state", {}).get("position"),
          "1 .......T/......../......../......../......../.C....../"
          "......../........ b3", "shblk: the exported file loads back")
    g2.close()
    g.close()


def history_once(ck, port):
    """A lost game taken back by undo, then by restart, and lost again
    each time is one game in the player's history, as it ended last."""
    pos = ("1 .......T/......../......../......../......../.C....../"
           "......../C....... a1")
    g = Solo(ck, port, "shhis", "shifter", {"position": pos})
    for step in ("first", "undo", "restart"):
        if step != "first":
            r = g.call(step)
            ck.ok(r and r.get("ok"), "shhis: %s: %r" % (step, r))
        r = g.call("move", move="b3")
        ck.ok(r and r.get("ok"), "shhis: b3 after %s: %r" % (step, r))
        ck.ok(until(g.p, ended(g.room)) is not None,
              "shhis: ended after %s" % step)
    h = req(g.p, "history") or {}
    mine = [(x.get("room"), x.get("game_no")) for x in h.get("games", [])
            if x.get("room") == g.room]
    ck.eq(mine, [(g.room, 1)], "shhis: the game is listed once: %r" % h)
    g.close()


def next_after_file(ck, port):
    """A level loaded from a level file knows its own number: winning it
    leads to the level after that one, not to level 2."""
    g = Solo(ck, port, "shnf", "shifter", {"level": 5, "seed": 3})
    text = (g.call("export") or {}).get("text", "")
    g.close()
    f = Solo(ck, port, "shnf2", "shifter", {"file": text})
    ck.eq(level_of(f.created.get("state", {}).get("position", "0 x")), 5,
          "shnf: the file's level")
    f.follow_hints(20)
    r = f.call("next")
    ck.ok(r and r.get("ok"), "shnf: next after the file's level: %r" % r)
    st = f.state()
    ck.eq(level_of(st.get("position", "0 x")), 6,
          "shnf: the level after a loaded level 5 is 6")
    f.close()


def main():
    a = harness.args()
    ck = Checks()
    with serving(a.build) as s:
        levels(ck, s.port)
        blocked(ck, s.port)
        history_once(ck, s.port)
        next_after_file(ck, s.port)
    done(ck)


if __name__ == "__main__":
    main()
