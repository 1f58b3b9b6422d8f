"""test_cluster_packs.py: the messages a node makes for another in one
pass of its loop go as one stream entry, a pack (issue 32;
docs/SCALING.md, "Messages between nodes"), and a node drops a
malformed message of a pack without harm. The nodes run with --node-link
off: with links up, packs go on them instead (test_cluster_link.py).

Two nodes; ana on node 1 (the room's owner), bob and a watcher, wat, on
node 2. Each of ana's moves sends bob's and wat's stand-ins on node 1 the
moved event in the same pass: two `out` messages for node 2, in one entry
of stream:n2. Then a pack with malformed messages, as if from node 2, is
added to stream:n1: node 1 answers and the game goes on.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chaos_lib import Duel, call, hear_moved, player  # noqa: E402
from cluster_lib import WAIT, Cluster, main, redis_cmd  # noqa: E402

# Moves played (each of ana's makes a pack of two for node 2).
MOVES = 6


def messages(entry):
    """The messages of one stream entry ([id, [field, value, ...]]): its
    m fields (a pack), or 1 for an entry that is one message."""
    fields = entry[1]
    names = fields[0::2]
    if names and names[0] == "t":
        return 1
    return sum(1 for n in names if n == "m")


def packs(ck, cl):
    d = Duel(ck, cl, "pack", 0, 1, ("pkana", "pkbob"))
    wat = player(cl.port(1), "pkwat")
    w = call(wat, "watch", WAIT, room=d.room)
    ck.ok(w and w.get("ok"), "wat watches from node 2: %r" % (w,))
    ck.eq(d.play(MOVES, 4 * WAIT), MOVES, "%d moves" % MOVES)
    hear_moved(ck, (("bob", d.b), ("wat", wat)), max(d.acked))
    entries = redis_cmd(cl.redis_addr, "XRANGE", "stream:n2", "-", "+")
    counts = [messages(e) for e in entries]
    print("stream:n2: %d entries holding %d messages: %r" %
          (len(counts), sum(counts), counts), flush=True)
    ck.ok(max(counts or [0]) >= 2, "an entry of stream:n2 holds more than "
          "one message (ana's move to bob's and wat's stand-ins): %r" %
          counts)
    ck.ok(len(counts) < sum(counts), "fewer entries than messages: %r" %
          counts)
    return d


def malformed(ck, cl, d):
    """A pack from node 2 (its name and incarnation, as its entries in
    stream:n1 say) with malformed messages: dropped, node 1 goes on."""
    entries = redis_cmd(cl.redis_addr, "XRANGE", "stream:n1", "-", "+",
                        "COUNT", "1")
    ck.ok(entries, "node 2 wrote to stream:n1")
    f = entries[0][1]
    inc = f[f.index("inc") + 1]
    bad = [b"5:xx\0", b"999999999999:t\0", b"1:t\0", b"x", b"",
           b"1:t\x002:to", b"1:t\x003:ack\x002:to\x001:0\x00" * 20]
    args = ["XADD", "stream:n1", "*", "from", "n2", "inc", inc]
    for m in bad:
        args += ["m", m]
    redis_cmd(cl.redis_addr, *args)
    r = call(d.a, "ping", WAIT)
    ck.ok(r and r.get("ok"), "node 1 answers after the malformed pack")
    ck.eq(d.play(2, 4 * WAIT), 2, "two more moves after it")
    d.check()


def run(ck, a):
    # Links off: packs through Redis, as when no link is up (test_cluster_
    # link.py has the links).
    with Cluster(a.build, 2, extra=["--node-link", "off"]) as cl:
        ck.eq(redis_cmd(cl.redis_addr, "KEYS", "link:*"), [],
              "with --node-link off no node publishes a link")
        d = packs(ck, cl)
        malformed(ck, cl, d)


if __name__ == "__main__":
    main(run)
