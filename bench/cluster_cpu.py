"""cluster_cpu.py: server CPU per move on two cluster nodes, with the
players on the room's owner (local moves) and with both players on the
other node (every request and every reply and event forwarded through
Redis). Sequential moves (one in flight), so it measures cost, not
throughput: CPU seconds of each tablerod and of redis-server from
/proc/PID/stat over the same moves. Needs TABLERO_TEST_PG (run it under
contrib/pgtest.sh run) and redis-server.

Usage: python3 bench/cluster_cpu.py [--build DIR] [--moves N]
"""

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "blackbox"))
import harness  # noqa: E402
from harness import Client, login  # noqa: E402
import test_cluster_smoke as smoke  # noqa: E402


def cpu(pid):
    """User plus system CPU seconds of pid."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def play(room, seats, n):
    """n moves, alternately, each the first legal one (a new game when
    one ends); the moves made."""
    made = 0
    while made < n:
        st = seats["white"].call("state", room=room)["state"]
        if st["status"] == "ended":
            for c in seats.values():
                c.call("rematch", room=room)
            continue
        c = seats[st["turn"]]
        mv = c.call("moves", room=room)["moves"]
        if not mv:
            time.sleep(0.01)
            continue
        r = c.call("move", room=room, move=mv[0])
        if r and r.get("ok"):
            made += 1
    return made


def measure(procs, room, seats, n):
    before = [cpu(p) for p in procs]
    t0 = time.time()
    made = play(room, seats, n)
    wall = time.time() - t0
    return made, wall, [cpu(p) - b for p, b in zip(procs, before)]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", default="build")
    p.add_argument("--moves", type=int, default=400)
    a = p.parse_args()
    redis = smoke.Redis().start()
    db = harness.store_url(":memory:")
    na = smoke.node(a.build, db, redis.addr, "ca")
    nb = smoke.node(a.build, db, redis.addr, "cb")
    smoke.wait_log(na, "ready node=ca")
    smoke.wait_log(nb, "ready node=cb")
    procs = [na.proc.pid, nb.proc.pid, redis.proc.pid]
    # Local: both players on the owner, ca.
    x, y = login(na.port, "lx"), login(na.port, "ly")
    room = x.call("create", game="ataxx", options={"size": 7})["room"]
    seat = y.call("join", room=room)["seat"]
    seats = {seat: y, ("white" if seat == "black" else "black"): x}
    made, wall, d = measure(procs, room, seats, a.moves)
    print("local:     %d moves %.1f s; CPU ms/move: owner %.3f, other "
          "%.3f, redis %.3f" % (made, wall, 1000 * d[0] / made,
                                1000 * d[1] / made, 1000 * d[2] / made))
    # Forwarded: the room on ca, both players on cb.
    f1 = login(na.port, "fx")
    room = f1.call("create", game="ataxx", options={"size": 7})["room"]
    f1b = Client(nb.port)
    f1b.call("hello", name="fx", token=f1.token)
    f2 = login(nb.port, "fy")
    seat = f2.call("join", room=room)["seat"]
    f1b.call("join", room=room)
    seats = {seat: f2, ("white" if seat == "black" else "black"): f1b}
    time.sleep(0.5)
    made, wall, d = measure(procs, room, seats, a.moves)
    print("forwarded: %d moves %.1f s; CPU ms/move: owner %.3f, home "
          "%.3f, redis %.3f" % (made, wall, 1000 * d[0] / made,
                                1000 * d[1] / made, 1000 * d[2] / made))
    na.stop()
    nb.stop()
    redis.stop()


if __name__ == "__main__":
    main()
