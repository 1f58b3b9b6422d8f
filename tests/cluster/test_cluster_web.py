"""test_cluster_web.py: a browser's connection through HAProxy's web front
end (issue 19: "the web client reconnects through the load balancer too").

Two nodes, each with its web port behind HAProxy's `tablero_web` front end
(contrib/haproxy-tablero.cfg). The page is served through it. A WebSocket
player logs in through it and creates an Ataxx room (its node owns the
room); a TCP player on the other node joins and they play. The WebSocket's
node is killed: the WebSocket closes, HAProxy takes that node out of the
web rotation with its game port, and the WebSocket player connects again
through the same front end (as the web client does, with its kept token),
lands on the other node, finds the room with every acknowledged move and
plays the game to its end. PostgreSQL holds the whole game.
"""

import os
import select
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "blackbox"))
import cluster_lib  # noqa: E402
from cluster_lib import FAILOVER, WAIT, Cluster, redis_cmd  # noqa: E402
from games_lib import ended, login, req, until  # noqa: E402
from test_web_transport import WS, get  # noqa: E402

# Moves before the kill.
BEFORE = 6
# Moves at most in the whole game (a 5x5 Ataxx game ends far sooner).
MAX_MOVES = 600
# Ataxx's pass, played by the server for a side without a move.
PASS = "0000"


def ws_login(port, name, token=None, timeout=FAILOVER):
    """A WebSocket through port logged in as name (with token), retried
    until a node takes it (bounded); (ws, hello reply) or (None, None)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            ws = WS(port)
            if " 101 " in ws.head.split("\r\n")[0]:
                fields = {"name": name}
                if token:
                    fields["token"] = token
                r = ws.call("hello", **fields)
                if r and r.get("ok"):
                    return ws, r
            ws.close()
        except (OSError, ValueError):
            pass
        time.sleep(0.2)
    return None, None


def ws_end(ws, timeout):
    """How ws ends within timeout, frames before the end skipped: "close
    frame", "closed" (end of stream or reset) or "timeout" (still open;
    WS.frame alone reads a timeout as an end)."""
    deadline = time.time() + timeout
    while True:
        left = deadline - time.time()
        if not ws.buf and (left <= 0 or
                           not select.select([ws.s], [], [], left)[0]):
            return "timeout"
        op, _ = ws.frame()
        if op == 8:
            return "close frame"
        if op is None:
            return "closed" if time.time() < deadline else "timeout"


def turn_name(state):
    """The name of the seat to move, or None when nobody is."""
    seat = state.get("turn")
    for s in state["seats"]:
        if s["seat"] == seat:
            return s["name"]
    return None


def play(ws, tcp, room, names, count):
    """Play up to count moves (the first legal one each time) from the
    seat to move; the moves acknowledged, in order."""
    acked = []
    for _ in range(count):
        st = req(tcp, "state", room=room)["state"]
        if st.get("status") != "playing":
            break
        who = turn_name(st)
        if who == names[0]:
            moves = ws.call("moves", room=room)["moves"]
            r = ws.call("move", room=room, move=moves[0])
        else:
            moves = req(tcp, "moves", room=room)["moves"]
            r = req(tcp, "move", room=room, move=moves[0])
        if not r or not r.get("ok"):
            break
        acked.append(moves[0])
    return acked


def run(ck, a):
    with Cluster(a.build, 2) as cl:
        through_front(ck, cl)


def through_front(ck, cl):
    front = cl.web_front
    ck.ok(front is not None, "clustertest.sh gives HAProxy's web front end")
    if front is None:
        return
    page = get(front, "/")
    ck.ok(page.startswith(b"HTTP/1.1 200") and b"<html" in page.lower(),
          "the page comes through HAProxy's web front end")
    ws, hello = ws_login(front, "wana")
    ck.ok(ws is not None, "a WebSocket logs in through the front end")
    if ws is None:
        return
    token = hello["token"]
    r = ws.call("create", game="ataxx", options={"size": 5})
    ck.ok(r and r.get("ok"), "the WebSocket player creates a room: %r" % r)
    room = r["room"]
    owner = redis_cmd(cl.redis_addr, "GET", "room:%s:owner" % room)
    owner = owner.decode() if isinstance(owner, bytes) else owner
    mine = int(owner.split(":")[0][1:]) - 1
    other = 1 - mine
    tcp = login(cl.port(other), "wbob")
    ck.ok(req(tcp, "join", room=room).get("ok"),
          "a TCP player on the other node joins")
    before = play(ws, tcp, room, ("wana", "wbob"), BEFORE)
    ck.eq(len(before), BEFORE, "%d moves before the kill" % BEFORE)

    cl.nodes[mine].kill()
    how = ws_end(ws, WAIT)
    ck.ok(how in ("close frame", "closed"), "the WebSocket closed with its "
          "node (a close frame, or the connection closed): %s" % how)
    ws.close()
    ws, hello = ws_login(front, "wana", token)
    ck.ok(ws is not None, "the WebSocket player connects again through the "
          "front end with its token, to the node left")
    if ws is None:
        return
    rooms = [s.get("room") for s in hello.get("rooms", [])]
    ck.ok(room in rooms, "hello lists the unfinished room: %r (%.600r)" % (rooms, hello))
    j = None
    deadline = time.time() + FAILOVER
    while time.time() < deadline:
        j = ws.call("join", room=room)
        if j and j.get("ok"):
            break
        time.sleep(0.3)
    hist = [h["move"] for h in ((j or {}).get("state") or {}).get(
        "history", []) if h["move"] != PASS]
    ck.eq(hist, before, "the room comes back with every acknowledged move")
    rest = play(ws, tcp, room, ("wana", "wbob"), MAX_MOVES)
    ck.ok(len(rest) > 0, "the game goes on after the kill")
    ck.ok(until(tcp, ended(room)) is not None, "the game ends")
    final = [h["move"] for h in req(tcp, "state", room=room)["state"][
        "history"]]
    ck.eq([m for m in final if m != PASS], before + rest,
          "the history is every acknowledged move, before and after")
    ck.eq([m for _, _, m in cl.stored_moves(room)], final,
          "PostgreSQL holds the whole game")
    ws.close()
    tcp.close()


if __name__ == "__main__":
    cluster_lib.main(run)
