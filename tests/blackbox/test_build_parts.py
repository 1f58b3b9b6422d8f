"""test_build_parts.py: the two builds of the server (issue 28). tablerod
has the cluster (--redis, --node, checked at start); tablerod-alone is
built from every server folder but cluster/, links no hiredis, refuses
the cluster's flags with a clear error, and plays a game. (make
alone-test runs the whole single-node suite against tablerod-alone.)
"""

import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import Checks, Server, args, login, run_parts  # noqa: E402


def run(exe, *argv):
    """exe's exit status and its stderr."""
    p = subprocess.run([exe] + list(argv), stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, timeout=10)
    return p.returncode, p.stderr.decode("utf-8", "replace")


def needed(exe):
    """The shared libraries exe names (readelf -d, NEEDED)."""
    p = subprocess.run(["readelf", "-d", exe], stdout=subprocess.PIPE,
                       timeout=10, check=True)
    return [ln for ln in p.stdout.decode().splitlines() if "(NEEDED)" in ln]


def test_node_checked(chk, build):
    rc, err = run(os.path.join(build, "tablerod"), "--node", "bad node!")
    chk.eq(rc, 2, "tablerod --node 'bad node!' exits 2")
    chk.ok("--node bad node!: 1 to 64 letters" in err,
           "and says what a node id is: %r" % err)


def test_alone_refuses_cluster(chk, build):
    alone = os.path.join(build, "tablerod-alone")
    for flags in (["--redis", "127.0.0.1:6379", "--db",
                   "postgresql:///tablero"], ["--node", "n1"]):
        rc, err = run(alone, *flags)
        chk.eq(rc, 2, "tablerod-alone %s exits 2" % flags[0])
        chk.ok("this build has none (tablerod-alone)" in err,
               "and says the build has no cluster: %r" % err)


def test_alone_links_no_hiredis(chk, build):
    alone = needed(os.path.join(build, "tablerod-alone"))
    full = needed(os.path.join(build, "tablerod"))
    chk.ok(any("libhiredis" in ln for ln in full),
           "tablerod needs libhiredis: %r" % full)
    chk.ok(alone and not any("libhiredis" in ln for ln in alone),
           "tablerod-alone needs no libhiredis: %r" % alone)
    chk.ok(any("libevent" in ln for ln in alone),
           "tablerod-alone needs libevent: %r" % alone)


def play_to_end(chk, a, b, room):
    """a and b play the room's legal moves (the first each time) until
    the game ends; the ended event, or None."""
    for _ in range(200):
        st = a.call("state", room=room)
        state = st.get("state", {}) if st else {}
        if state.get("status") != "playing":
            break
        mover = a if state["turn"] == state["seats"][0]["seat"] else b
        moves = mover.call("moves", room=room)
        if not moves or not moves.get("moves"):
            break
        r = mover.call("move", room=room, move=moves["moves"][0])
        if not (r and r.get("ok")):
            chk.ok(False, "a legal move is taken: %r" % r)
            return None
    return a.event("ended", timeout=5)


def test_alone_plays(chk, build):
    view = tempfile.mkdtemp(prefix="tablerod-alone-")
    try:
        os.symlink(os.path.abspath(os.path.join(build, "tablerod-alone")),
                   os.path.join(view, "tablerod"))
        with Server(view) as srv:
            a, b = login(srv.port, "ana"), login(srv.port, "bob")
            r = a.call("create", game="stones")
            chk.ok(r and r.get("ok"), "tablerod-alone: create: %r" % r)
            room = r["room"]
            chk.ok(b.call("join", room=room).get("ok"), "join")
            ended = play_to_end(chk, a, b, room)
            chk.ok(ended is not None and ended.get("result"),
                   "a game of Stones played to its end: %r" % ended)
            a.close()
            b.close()
    finally:
        shutil.rmtree(view)


def main():
    a = args()
    chk = Checks()
    run_parts(chk, [test_node_checked, test_alone_refuses_cluster,
                    test_alone_links_no_hiredis, test_alone_plays], a.build)
    return chk.done()


if __name__ == "__main__":
    sys.exit(main())
