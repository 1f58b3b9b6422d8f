#!/usr/bin/env python3
"""move_bytes.py: the bytes one Ataxx move puts on the wire, per form.

Starts the real BUILD/tablerod (--db :memory:) on a free loopback port and
plays one 7x7 Ataxx game between two JSON players in a public room, twice:
once as clients that take the full moved event (the default), once as
clients that said hello with "events":"lean" and apply each move to a
board of their own (as a lean client does). A move's bytes are the mover's
reply plus the moved event to each of the two players, each line with its
newline; requests carry an id, as a client's do. Prints one line of
key=value figures for bench/run.sh: the mean and the largest over the
game for each form, and whether the lean form's largest is within the
target (issue 32: at most 250 bytes). Seeded: the same game each run.
Standard library only; loopback only; every wait is bounded.

Usage: python3 bench/move_bytes.py --build BUILD [--moves N] [--seed N]
"""

import argparse
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "blackbox"))
import harness  # noqa: E402

# Issue 32's target for one move between two JSON players, reply included.
TARGET = 250
# Moves played at most per form: a 7x7 game rarely needs more.
MOVES_MAX = 400
# The Ataxx pieces by seat (the position string's letters).
PIECE = {"white": "x", "black": "o"}


def ataxx_squares(board):
    """(file, rank, char) for every square of board rows (rank 7 first)."""
    n = len(board)
    for r, row in enumerate(board):
        for f, ch in enumerate(row):
            yield f, n - 1 - r, ch


def ataxx_name(f, r):
    return "abcdefg"[f] + str(r + 1)


def ataxx_pick(board, seat, rng):
    """A legal move for seat on board: a clone when there is one, else a
    jump; None when seat has none (the server passes for it)."""
    mine, empty = PIECE[seat], {}
    for f, r, ch in ataxx_squares(board):
        if ch == ".":
            empty[(f, r)] = True
    own = [(f, r) for f, r, ch in ataxx_squares(board) if ch == mine]
    clones, jumps = set(), []
    for f, r in own:
        for df in range(-2, 3):
            for dr in range(-2, 3):
                to = (f + df, r + dr)
                if to not in empty:
                    continue
                if max(abs(df), abs(dr)) == 1:
                    clones.add(ataxx_name(*to))
                elif max(abs(df), abs(dr)) == 2:
                    jumps.append(ataxx_name(f, r) + ataxx_name(*to))
    if clones:
        return rng.choice(sorted(clones))
    return rng.choice(jumps) if jumps else None


def ataxx_apply(board, seat, move):
    """board after seat's move (a lean client's own copy of the rules)."""
    if move == "0000":
        return board
    n = len(board)
    rows = [list(row) for row in board]

    def at(name):
        return int(name[1:]) - 1, "abcdefg".index(name[0])

    def put(r, f, ch):
        rows[n - 1 - r][f] = ch
    mine = PIECE[seat]
    theirs = "o" if mine == "x" else "x"
    if len(move) == 4:
        r, f = at(move[:2])
        put(r, f, ".")
        to = move[2:]
    else:
        to = move
    r, f = at(to)
    put(r, f, mine)
    for dr in (-1, 0, 1):
        for df in (-1, 0, 1):
            rr, ff = r + dr, f + df
            if 0 <= rr < n and 0 <= ff < n and rows[n - 1 - rr][ff] == theirs:
                put(rr, ff, mine)
    return ["".join(row) for row in rows]


def apply_event(board, ev):
    """The board and turn after a moved (or ended) event: the full form's
    own board, or the lean form's move applied."""
    if ev.get("event") != "moved":
        return board, None
    if "board" in ev:
        return ev["board"], ev["turn"]
    return ataxx_apply(board, ev["seat"], ev["move"]), ev["turn"]


def line_msg(c):
    """The next line off c: (its bytes on the wire, the message)."""
    text = c.line()
    if text is None:
        raise RuntimeError("the server closed a connection")
    return len(text.encode()) + 1, json.loads(text)


def next_moved(c):
    """The next moved or ended event of c: (bytes, message)."""
    while True:
        n, m = line_msg(c)
        if m.get("event") in ("moved", "ended"):
            return n, m


def play(port, lean, moves_max, seed):
    """One game; the list of each player move's bytes."""
    hello = {"events": "lean"} if lean else {}
    tag = "l" if lean else "f"
    a = harness.Client(port)
    b = harness.Client(port)
    ra = a.call("hello", name="mb" + tag + "a", **hello)
    b.call("hello", name="mb" + tag + "b", **hello)
    if lean and ra.get("events") != "lean":
        raise RuntimeError("the server has no lean form: %r" % ra)
    room = a.call("create", game="ataxx")["room"]
    b.call("join", room=room)
    started = a.event("started")
    b.event("started")
    board, turn = started["board"], started["turn"]
    seats = {"white": a, "black": b}
    rng = random.Random(seed)
    sizes = []
    while turn is not None and len(sizes) < moves_max:
        mover, other = seats[turn], seats["black" if turn == "white" else
                                          "white"]
        mv = ataxx_pick(board, turn, rng)
        if mv is None:
            raise RuntimeError("no move, and no pass from the server")
        mover.raw(json.dumps({"cmd": "move", "id": mover.next_id,
                              "move": mv}, separators=(",", ":")) + "\n")
        mover.next_id += 1
        nrep, rep = line_msg(mover)
        if not rep.get("ok"):
            raise RuntimeError("move refused: %r" % rep)
        n1, ev = next_moved(mover)
        n2, _ = next_moved(other)
        sizes.append(nrep + n1 + n2)
        board, turn = apply_event(board, ev)
        # a side left with no move passes: the server's moved event
        while turn is not None and ataxx_pick(board, turn, rng) is None:
            _, ev = next_moved(a)
            next_moved(b)
            board, turn = apply_event(board, ev)
    if lean:
        st = a.call("state", room=room)["state"]
        if st["status"] == "playing" and st["board"] != board:
            raise RuntimeError("the lean client's board went wrong")
    a.close()
    b.close()
    return sizes


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", default="build")
    p.add_argument("--moves", type=int, default=MOVES_MAX)
    p.add_argument("--seed", type=int, default=32)
    a = p.parse_args()
    out = []
    with harness.Server(a.build) as srv:
        for lean in (False, True):
            sizes = play(srv.port, lean, a.moves, a.seed)
            name = "lean" if lean else "full"
            out.append("%s_mean=%.1f %s_max=%d" % (
                name, sum(sizes) / len(sizes), name, max(sizes)))
            if lean:
                out.append("moves=%d target=%d lean_met=%s" % (
                    len(sizes), TARGET,
                    "yes" if max(sizes) <= TARGET else "no"))
    print(" ".join(out))


if __name__ == "__main__":
    main()
