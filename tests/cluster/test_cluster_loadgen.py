"""test_cluster_loadgen.py: three nodes under bench/loadgen, one killed
(-9) in the middle, then every acknowledged move checked in PostgreSQL
(issue 19).

bench/loadgen plays ROOMS Ataxx rooms as fast as the nodes answer, every
connection through HAProxy (so the two players of a room are often on
different nodes and their moves forwarded), and logs each ok move reply
(-A). After KILL_AFTER seconds node 3 is killed with SIGKILL; its players'
connections drop, the others go on (their rooms on node 3 fail over). At
the end, for every room, the acknowledged moves in the order of their
seqs must be in PostgreSQL's moves of that room in the same order (a move
stored whose reply was lost may be there too; the games of a finished
room that left memory are in the games table): nothing acknowledged is
lost, whichever node acknowledged it.
"""

import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_lib  # noqa: E402
from cluster_lib import Cluster  # noqa: E402

# Every load client comes from 127.0.0.1: the per-address limits, made
# for abusers, are lifted (as bench/run.sh does), else loadgen's rematches
# are refused once the address has its games of the hour.
LIFTED = ["--max-per-address", "1000", "--new-names", "1000000",
          "--games-per-hour", "1000000"]
# Rooms under load (two connections each), small enough for a shared
# 2-core machine running three nodes, PostgreSQL and Redis.
ROOMS = 30
# Seconds of load, and when in them node 3 dies.
SECONDS = 6
KILL_AFTER = 2.0
# Seconds loadgen may take beyond its load: setup and its drain.
LOADGEN_SLACK = 60


def subsequence(want, got):
    it = iter(got)
    return all(any(w == g for g in it) for w in want)


def run(ck, a):
    cl = Cluster(a.build, 3, extra=LIFTED)
    tmp = tempfile.mkdtemp(prefix="tablero-lg-")
    acklog = os.path.join(tmp, "acks.jsonl")
    try:
        loaded(ck, cl, a.build, acklog)
    finally:
        cl.stop()
        subprocess.run(["rm", "-rf", tmp], check=False)


def loaded(ck, cl, build, acklog):
    lg = subprocess.Popen(
        [os.path.join(build, "loadgen"), "-m", "moves", "-p",
         str(cl.front), "-r", str(ROOMS), "-s", str(SECONDS), "-w", "0.5",
         "-A", acklog], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # Kill once the load is under way: the log has acknowledgements.
    deadline = time.time() + cluster_lib.WAIT
    while time.time() < deadline and lg.poll() is None and \
            (not os.path.exists(acklog) or os.path.getsize(acklog) == 0):
        time.sleep(0.05)
    time.sleep(KILL_AFTER)
    cl.nodes[2].kill()
    try:
        out, err = lg.communicate(timeout=SECONDS + LOADGEN_SLACK)
    except subprocess.TimeoutExpired:
        lg.kill()
        out, err = lg.communicate()
        ck.ok(False, "loadgen finished in time")
    print("loadgen: %s %s" % (out.decode().strip(),
                              err.decode().strip()[-500:]), flush=True)

    acked = defaultdict(list)
    with open(acklog) as f:
        for line in f:
            r = json.loads(line)
            acked[r["room"]].append((r["seq"], r["move"]))
    total = sum(len(v) for v in acked.values())
    print("loadgen: %d moves acknowledged in %d rooms" % (total,
                                                          len(acked)),
          flush=True)
    ck.ok(total > 0, "moves were acknowledged under load")
    lost = []
    stored_total = 0
    for room, acks in sorted(acked.items()):
        want = [m for _, m in sorted(acks)]
        got = cl.stored_games(room)
        stored_total += len(got)
        if not subsequence(want, got):
            row = cl.rows("SELECT status, game_no, owner_epoch FROM rooms "
                          "WHERE id = '%s'" % room)
            lost.append((room, len(want), len(got), row))
    print("loadgen: PostgreSQL holds %d moves of those rooms" %
          stored_total, flush=True)
    for room, _, _, _ in lost[:2]:
        for n in cl.nodes:
            text = n.logtext().splitlines()
            said = [x for x in text if room in x]
            said = said[:4] + ["..."] + said[-8:] if len(said) > 12 \
                else said
            bad = [x for x in text if " error " in x or " warn " in x]
            print("node %s on %s: %s\n  its warnings and errors: %s" %
                  (n.node_id, room, "\n  ".join(said) or "-",
                   "\n  ".join(bad[:10]) or "-"), flush=True)
    ck.ok(not lost, "every acknowledged move is in PostgreSQL, in order "
          "(rooms short of one: %d, first: %r: room, acknowledged, stored, "
          "its row)" % (len(lost), lost[:3]))
    ck.ok(" dropped=0 " not in out.decode(), "the kill dropped the "
          "connections of node 3's players (HAProxy had spread them)")
    survivors = [n for n in cl.nodes[:2] if n.proc is not None and
                 n.proc.poll() is None]
    for n in cl.nodes[:2]:
        if n not in survivors:
            print("node %s died (exit %r); its log ends:\n%s" %
                  (n.node_id, n.proc.poll() if n.proc else None,
                   n.logtext()[-3000:]), flush=True)
    ck.eq(len(survivors), 2, "the two other nodes lived through it")


if __name__ == "__main__":
    cluster_lib.main(run)
