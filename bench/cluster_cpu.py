"""cluster_cpu.py: server CPU per move on two cluster nodes, with the
players on the room's owner (local moves) and with both players on the
other node (every request and every reply and event forwarded through
Redis). Sequential moves (one in flight), so it measures cost, not
throughput: CPU seconds of each tablerod and of redis-server from
/proc/PID/stat over the same moves. Needs TABLERO_TEST_PG (run it under
contrib/pgtest.sh run) and redis-server (a throwaway one of its own,
tests/cluster/cluster_lib.py's OwnRedis).

Usage: python3 bench/cluster_cpu.py [--build DIR] [--moves N]
"""

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "blackbox"))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "cluster"))
import harness  # noqa: E402
from harness import Client, login  # noqa: E402
import cluster_lib  # noqa: E402
from games_lib import log_says  # noqa: E402


def cpu(pid):
    """User plus system CPU seconds of pid."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def play(room, seats, n):
    """Up to n moves, alternately, each the first legal one, until the
    game ends; the moves made."""
    made = 0
    while made < n:
        r = seats["white"].call("state", room=room)
        st = r["state"]
        if st["status"] != "playing":
            break
        c = seats[st["turn"]]
        mv = c.call("moves", room=room)["moves"]
        if not mv:
            break
        r = c.call("move", room=room, move=mv[0])
        if r and r.get("ok"):
            made += 1
    return made


def measure(procs, rooms, n):
    """n moves over the rooms that make_room() makes, one at a time; the
    moves, the seconds and the CPU seconds of each process."""
    before = [cpu(p) for p in procs]
    t0 = time.time()
    made = 0
    while made < n:
        room, seats = rooms()
        made += play(room, seats, n - made)
    wall = time.time() - t0
    return made, wall, [cpu(p) - b for p, b in zip(procs, before)]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", default="build")
    p.add_argument("--moves", type=int, default=400)
    a = p.parse_args()
    redis = cluster_lib.OwnRedis().start()
    db = harness.store_url(":memory:")
    fast = ["--rate", "100000", "--burst", "100000"]
    na = harness.Server(a.build, db=db, db_as_is=True, extra=fast + [
        "--redis", redis.addr, "--node", "ca"]).start()
    nb = harness.Server(a.build, db=db, db_as_is=True, extra=fast + [
        "--redis", redis.addr, "--node", "cb"]).start()
    log_says(na, "ready node=ca")
    log_says(nb, "ready node=cb")
    procs = [na.proc.pid, nb.proc.pid, redis.proc.pid]
    tag = iter(range(1, 1000000))

    def local():
        """A room on ca, both players on ca."""
        k = next(tag)
        x, y = login(na.port, "lx%d" % k), login(na.port, "ly%d" % k)
        room = x.call("create", game="ataxx", options={"size": 7})["room"]
        seat = y.call("join", room=room)["seat"]
        return room, {seat: y, ("white" if seat == "black" else "black"): x}

    def forwarded():
        """A room on ca, both players on cb."""
        k = next(tag)
        f1 = login(na.port, "fx%d" % k)
        room = f1.call("create", game="ataxx", options={"size": 7})["room"]
        f1b = Client(nb.port)
        f1b.call("hello", name="fx%d" % k, token=f1.token)
        f2 = login(nb.port, "fy%d" % k)
        seat = f2.call("join", room=room)["seat"]
        f1b.call("join", room=room)
        return room, {seat: f2,
                      ("white" if seat == "black" else "black"): f1b}

    for name, rooms, who in (("local", local, "other"),
                             ("forwarded", forwarded, "home")):
        made, wall, d = measure(procs, rooms, a.moves)
        print("%-9s %d moves %.1f s; CPU ms per move (state + moves + "
              "move): owner %.3f, %s %.3f, redis %.3f" %
              (name + ":", made, wall, 1000 * d[0] / made, who,
               1000 * d[1] / made, 1000 * d[2] / made), flush=True)
    na.stop()
    nb.stop()
    redis.cleanup()


if __name__ == "__main__":
    main()
