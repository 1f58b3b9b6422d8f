"""test_replay_at.py: `state` with `at`, the position after a game's first
N moves, for replays in clients that keep no rules (the browser's).

A solitaire game of three jumps: at=0 is the start, at=N each step's board
(the same as the state's board at that point, as recorded while playing),
at=3 the final one, at=4 bad_request; the same from the store once the
finished room has left memory; the shorthand `state ROOM at=N`.
"""

import time

import harness
from harness import Checks, Client, Server, is_error, is_ok


def main():
    a = harness.args()
    chk = Checks()
    srv = Server(a.build, extra=["--keep-ended", "1"]).start()
    try:
        c = Client(srv.port)
        is_ok(chk, c.call("hello", name="replayer"), "hello")
        r = c.call("create", game="solitaire", options={"board": "english"})
        if not is_ok(chk, r, "create"):
            chk.done()
        room = r["room"]
        boards = [r["state"]["board"]]
        for _ in range(3):
            ms = c.call("moves", room=room)["moves"]
            is_ok(chk, c.call("move", room=room, move=ms[0]), "move " + ms[0])
            boards.append(c.call("state", room=room)["state"]["board"])
        for n, want in enumerate(boards):
            st = c.call("state", room=room, at=n).get("state") or {}
            chk.eq(st.get("board"), want, "at=%d is the board after %d moves" % (n, n))
            chk.eq(st.get("at"), n, "at=%d echoed" % n)
            chk.eq(len(st.get("history") or []), 3, "at=%d keeps the whole history" % n)
        is_error(chk, c.call("state", room=room, at=4), "bad_request",
                 "at past the end", ["the game has 3 moves"])
        c.drain()
        c.raw(("state %s at=1\n" % room).encode())
        line = c.line()
        for _ in range(20):  # events that were on their way come first
            if line is None or '"re":"state"' in line:
                break
            line = c.line()
        chk.ok(line is not None and '"at":1' in line, "the shorthand state ROOM at=1: %r" % (line or "")[:80])
        # The game ends (resign is for two players: leave ends a solo game),
        # and the room leaves memory: the store's copy replays the same.
        is_ok(chk, c.call("leave", room=room), "leave")
        # moves answers no_such_room once the room is out of memory
        deadline = time.time() + harness.WAIT
        gone = False
        while time.time() < deadline and not gone:
            gone = (c.call("moves", room=room) or {}).get("error") == "no_such_room"
            if not gone:
                time.sleep(0.2)
        chk.ok(gone, "the finished room left memory")
        for n, want in enumerate(boards):
            st = c.call("state", room=room, at=n).get("state") or {}
            chk.eq(st.get("board"), want, "at=%d from the store" % n)
        c.close()
    finally:
        chk.eq(srv.stop(), 0, "tablerod exits 0")
    chk.done()


if __name__ == "__main__":
    main()
