"""test_client_highlight.py: a board the client joins or watches shows the
last move marked even though no moved event was seen: the state gives the
position after it and the history in pages (here small pages, from a
small --max-output), so the client replays the game from its options
through every page (state since=N) and marks the cells the last move
changed. Two bots play an Ataxx game to its end; a colour terminal
then watches it."""

import os
import re
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import client_lib  # noqa: E402
import harness  # noqa: E402

# The attribute view.c marks a changed cell with (bold, reverse).
MARK = "\x1b[1;7m"

# Bounded wait for the bots' game to end: tries of POLL_S seconds.
POLL_TRIES = 100
POLL_S = 0.1

# Bots' games tried in turn until one is longer than a page of history.
GAMES = ["size=7 bots=white:2,black:1", "size=7 bots=white:1,black:2",
         "size=7 bots=white:3,black:2", "size=7 bots=white:2,black:3"]

# The first line of a 7x7 Ataxx board as view.c draws it (its file
# letters).
BOARD_TOP = r"^ +a +b +c +d +e +f +g *$"

SGR = re.compile(r"\x1b\[[0-9;]*m")


def marked_cells(screen):
    """The squares marked in the last board on a screen captured with its
    attributes (tmux capture-pane -e): a file letter and a rank each."""
    lines = screen.split("\n")
    heads = [i for i, l in enumerate(lines) if re.match(r"^ +a b c", l)]
    if not heads:
        return set()
    files = lines[heads[-1]]
    cells = set()
    for line in lines[heads[-1] + 1:]:
        m = re.match(r"^ *(\d+) ", SGR.sub("", line))
        if not m:
            break
        col, i = 0, 0
        while i < len(line):
            if line.startswith(MARK, i):
                cells.add(files[col] + m.group(1))
            s = SGR.match(line, i)
            if s:
                i = s.end()
                continue
            col += 1
            i += 1
    return cells


def bots_game(b, spec):
    """A room where two bots play Ataxx (spec: its options) to the end;
    its id and its last state (ended, unless the tries ran out)."""
    room = (b.send("create ataxx " + spec) or {}).get("room", "?")
    st = {}
    for _ in range(POLL_TRIES):
        st = (b.send("state " + room) or {}).get("state", {})
        if st.get("status") == "ended":
            break
        time.sleep(POLL_S)
    return room, st


def main():
    a = harness.args()
    chk = harness.Checks()
    tmp = tempfile.mkdtemp(prefix="tablero-mark-")
    # 4096 bytes of output: a state holds about a dozen Ataxx moves
    with harness.Server(a.build, extra=["--max-output", "4096"]) as srv:
        b = client_lib.Batch(a.build, srv.port, "ana",
                             env={"XDG_CONFIG_HOME": tmp})
        room, st = "?", {}
        for spec in GAMES:
            room, st = bots_game(b, spec)
            if len(st.get("history", [])) < st.get("history_total", 0):
                break
        chk.eq(st.get("status"), "ended", "the bots' game ended")
        total = st.get("history_total", 0)
        chk.ok(0 < len(st.get("history", [])) < total,
               "its history needs more than one page (%d of %d moves)"
               % (len(st.get("history", [])), total))
        page = (b.send("state %s since=%d" % (room, total - 1)) or {})
        hist = page.get("state", {}).get("history", [])
        chk.eq([h.get("n") for h in hist], [total],
               "state since=N pages the history")
        last = hist[-1]["move"] if hist else "?"
        t = client_lib.client(a.build, srv.port, "cat",
                              env={"NO_COLOR": ""})
        try:
            chk.ok(t.wait(r"Welcome, cat\."), "cat logged in")
            t.line("watch " + room)
            chk.ok(t.wait(r"^This game is over\.$"), "cat watches")
            cells = set()
            for _ in range(POLL_TRIES):
                screen = t.tmux("capture-pane", "-p", "-e", "-J", "-S",
                                "-50000", "-t", "main")
                cells = marked_cells(screen)
                if cells:
                    break
                time.sleep(POLL_S)
            chk.ok(last[-2:] in cells,
                   "the last move (%s) is marked: %s" % (last, sorted(cells)))
            chk.ok(0 < len(cells) <= 10,
                   "only the cells it changed are marked (a jump: at most 10)")
            time.sleep(POLL_S * 5)
            chk.eq(t.count(BOARD_TOP), 1,
                   "the board is drawn once, when the replay is done")
            if os.environ.get("TABLERO_SHOW_SCREENS"):
                print(t.screen())
        finally:
            t.stop()
            b.close()
    chk.done()


if __name__ == "__main__":
    main()
