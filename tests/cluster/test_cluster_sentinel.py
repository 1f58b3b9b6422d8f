"""test_cluster_sentinel.py: Redis's own high availability and access
control under the cluster (issue 29: Redis AUTH/ACL and Sentinel).

A Redis master and a replica of this test's own, where the default user
is off, the nodes' ACL user (tablero, with a password) may run only the
commands the nodes use on only their keys (the line docs/SCALING.md
gives), and an admin user serves replication and the sentinels; three
sentinels (Debian's redis-sentinel) watch the master. Node 1
logs in with a redis:// URL holding the user and password, node 2 with a
password file ("USER PASSWORD"); both find the master through the
sentinels. A client without the password is refused by Redis (nobody who
merely reaches Redis can inject requests in a player's name), and a node
with a wrong password does not join. Ana (node 1) and bob (node 2) play;
the master is killed (SIGKILL) in the middle of the game; the sentinels
promote the replica, the nodes follow them there, and the game goes on:
every acknowledged move is stored, one reply per request, nobody lost
by abandonment. The time from the kill to the next move played across
the nodes is printed (the Sentinel failover as players see it).
"""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_lib  # noqa: E402
import harness  # noqa: E402
from chaos_lib import Duel  # noqa: E402
from cluster_lib import (FAILOVER, STARTED, WAIT, Node, Redis,  # noqa: E402
                         free_port, retry, wait_port)

# The master's name the sentinels know.
MASTER = "tmaster"
USER, PASSWORD = "tablero", "s3cret-pw"
# The nodes' ACL: the commands they run (Lua's too) on their keys only,
# as docs/SCALING.md gives it.
NODE_ACL = ["resetkeys", "~node:*", "~nodes", "~lobby:*", "~limits:*",
            "~room:*", "~club:*", "~online:*", "~watchers:*", "~stream:*",
            "~link:*",
            "resetchannels", "-@all", "+get", "+set", "+del", "+mget",
            "+incr", "+eval", "+pexpire", "+zadd", "+zrangebyscore",
            "+zremrangebyscore", "+sadd", "+srem", "+smembers", "+xadd",
            "+xread", "+ping"]
# Replication and the sentinels need more: a user of their own.
ADMIN, ADMIN_PASSWORD = "admin", "adm1n-pw"
# How long the sentinels may take to promote the replica and the nodes to
# follow them: down-after (1 s), the election and the promotion, a
# tick of each node, with margins for a loaded machine.
FOLLOW = FAILOVER + 15
# Moves before the master dies and after.
BEFORE = 4
AFTER = 4


class Proc:
    """A process of this test's own (stopped by its PID at the end)."""

    def __init__(self, argv, log):
        self.log = log
        self.proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        STARTED.append(self)

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(WAIT)

    def cleanup(self):
        self.kill()


def redis_server(tmp, name, port, replica_of=None):
    binary = os.environ.get("TABLERO_TEST_REDIS_BIN", "redis-server")
    d = os.path.join(tmp, name)
    os.makedirs(d)
    argv = [binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", d,
            "--save", "", "--appendonly", "no", "--daemonize", "no",
            "--logfile", os.path.join(d, "redis.log"),
            "--user", "default", "off",
            "--user", USER, "on", ">" + PASSWORD] + NODE_ACL + [
            "--user", ADMIN, "on", ">" + ADMIN_PASSWORD, "~*", "&*", "+@all",
            "--masteruser", ADMIN, "--masterauth", ADMIN_PASSWORD]
    if replica_of is not None:
        argv += ["--replicaof", "127.0.0.1", str(replica_of)]
    p = Proc(argv, os.path.join(d, "redis.log"))
    if not wait_port(port, p.proc):
        raise RuntimeError("redis-server %s did not start" % name)
    return p


def sentinel(tmp, i, port, master_port):
    conf = os.path.join(tmp, "sentinel%d.conf" % i)
    with open(conf, "w") as f:
        f.write("port %d\nbind 127.0.0.1\ndir %s\n"
                "logfile %s\n"
                "sentinel monitor %s 127.0.0.1 %d 2\n"
                "sentinel auth-user %s %s\n"
                "sentinel auth-pass %s %s\n"
                "sentinel down-after-milliseconds %s 1000\n"
                "sentinel failover-timeout %s 5000\n"
                "sentinel parallel-syncs %s 1\n" %
                (port, tmp, os.path.join(tmp, "sentinel%d.log" % i),
                 MASTER, master_port, MASTER, ADMIN, MASTER, ADMIN_PASSWORD,
                 MASTER, MASTER, MASTER))
    binary = shutil.which("redis-sentinel")
    argv = [binary, conf] if binary else \
        [os.environ.get("TABLERO_TEST_REDIS_BIN", "redis-server"), conf,
         "--sentinel"]
    p = Proc(argv, os.path.join(tmp, "sentinel%d.log" % i))
    if not wait_port(port, p.proc):
        raise RuntimeError("sentinel %d did not start" % i)
    return p


def sentinel_says(port, *args):
    r = Redis("127.0.0.1:%d" % port)
    try:
        return r.cmd("SENTINEL", *args)
    finally:
        r.close()


def run(ck, a):
    tmp = tempfile.mkdtemp(prefix="tablero-sentinel-")
    try:
        sentinels(ck, a, tmp)
    finally:
        for p in list(STARTED):
            try:
                p.cleanup()
            except Exception:  # noqa: BLE001 (best effort)
                pass
        shutil.rmtree(tmp, ignore_errors=True)


def sentinels(ck, a, tmp):
    pm, pr = free_port(), free_port()
    master = redis_server(tmp, "master", pm)
    redis_server(tmp, "replica", pr, replica_of=pm)
    ps = [free_port() for _ in range(3)]
    for i, p in enumerate(ps):
        sentinel(tmp, i, p, pm)
    known = retry(lambda: any(
        r[r.index("port") + 1] == str(pr) and "s_down" not in
        r[r.index("flags") + 1]
        for r in sentinel_says(ps[0], "replicas", MASTER) or []),
        timeout=3 * WAIT, pause=0.5)
    ck.ok(known, "the sentinels know the replica")
    try:
        Redis("127.0.0.1:%d" % pm).cmd("KEYS", "*")
        refused = None
    except RuntimeError as e:
        refused = str(e)
    ck.ok(refused and "NOAUTH" in refused, "a client without the password "
          "is refused: %r" % refused)
    r = Redis("127.0.0.1:%d" % pm)
    try:
        r.cmd("AUTH", USER, PASSWORD)
        r.cmd("KEYS", "*")
        refused = None
    except RuntimeError as e:
        refused = str(e)
    finally:
        r.close()
    ck.ok(refused and "NOPERM" in refused, "the nodes' user may not run "
          "what the nodes do not: %r" % refused)

    db = harness.pg_fresh()
    slist = ",".join("127.0.0.1:%d" % p for p in ps)
    common = ["--redis-sentinel", slist, "--redis-master", MASTER,
              "--grace", "5"]
    pwfile = os.path.join(tmp, "redis.pw")
    with open(pwfile, "w") as f:
        f.write("%s %s\n" % (USER, PASSWORD))
    os.chmod(pwfile, 0o600)
    url = "redis://%s:%s@127.0.0.1:%d/" % (USER, PASSWORD, pm)
    n1 = Node(a.build, "s1", db, url, extra=common).start()
    n2 = Node(a.build, "s2", db, "127.0.0.1:%d" % pm,
              extra=common + ["--redis-password-file", pwfile]).start()
    ck.ok(True, "both nodes joined through the sentinels, with AUTH")
    bad = Node(a.build, "s3", db, "redis://%s:wrong@127.0.0.1:%d/" %
               (USER, pm), extra=common)
    harness.Server.start(bad)
    said = retry(lambda: "refused AUTH" in bad.logtext(), timeout=WAIT)
    ck.ok(said and "cluster: ready" not in bad.logtext(), "a node with a "
          "wrong password says Redis refused it, and does not join")
    ck.ok(PASSWORD not in n1.logtext() + n2.logtext() + bad.logtext(),
          "no log line shows the password")
    bad.cleanup()

    class Two:
        """What Duel needs of a cluster: two nodes' ports, the db."""
        front = None

        def port(self, i):
            return (n1, n2)[i].port

        def stored_moves(self, room):
            return [(int(g), int(p), m) for g, p, m in harness.store_rows(
                db, "SELECT game_no, ply, move FROM moves WHERE room = "
                "'%s' ORDER BY game_no, ply" % room)]
    d = Duel(ck, Two(), "sentinel", 0, 1, ("sana", "sbob"))
    ck.eq(d.play(BEFORE, 3 * WAIT), BEFORE, "%d moves before" % BEFORE)
    # bob's turn: his move goes through Redis (the room is node 1's)
    if d.state(d.a, WAIT)["turn"] != d.seat["sbob"]:
        ck.eq(d.play(1, WAIT), 1, "a move, to make it bob's turn")
    master.kill()
    t0 = time.time()
    ck.eq(d.play(1, FOLLOW), 1, "bob's move, from node 2 to node 1's room, "
          "after the master died, within %d s" % FOLLOW)
    took = time.time() - t0
    now = retry(lambda: sentinel_says(ps[0], "get-master-addr-by-name",
                                      MASTER) == ["127.0.0.1", str(pr)],
                timeout=WAIT)
    ck.ok(now, "the sentinels promoted the replica")
    print("sentinel: a move across the nodes %.1f s after the master was "
          "killed" % took, flush=True)
    ck.eq(d.play(AFTER, 3 * WAIT), AFTER, "%d moves after" % AFTER)
    for n in (n1, n2):
        ck.ok("master %s is 127.0.0.1:%d" % (MASTER, pr) in n.logtext(),
              "node %s followed the sentinels to the new master" %
              n.node_id)
    d.check()
    for c in d.clients():
        c.close()


if __name__ == "__main__":
    cluster_lib.main(run)
