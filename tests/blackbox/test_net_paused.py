"""test_net_paused.py: a connection waiting for its reply costs nothing,
however much it sent behind the request.

A connection whose reply is held (for the store's commit, held.c) or
being computed (a hint) reads no more lines, and its input stops at one
line's worth (--max-line). libevent runs a read callback again and again
while it leaves the input at that high mark with reading on, so a client
that sent more than a line behind its request made the event loop spin
for as long as the reply took (found while doing issue 30's finding 1).
Here the store fails (the test-only TABLERO_TEST_STORE_FAULTS hook), so a
create's reply is held; the client sends PINGS pings behind it at once
(the rate limits are lifted), over TCP and then over a WebSocket. Over HELD_SEC seconds the event
loop's thread may use at most CPU_MAX seconds; once the store is back the
reply and every ping's reply arrive, in order.
"""

import json
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import Checks, Server, is_ok, login  # noqa: E402
from web_lib import WS, frame, web_ports  # noqa: E402

# Pings sent behind the held request: 12 KiB, more than --max-line.
PINGS = 800
# Seconds the reply stays held while the loop's CPU is measured.
HELD_SEC = 2.0
# The loop thread's CPU seconds allowed meanwhile (it has nothing to do).
CPU_MAX = 0.5


def loop_cpu(pid):
    """CPU seconds of the event loop's thread (the main one)."""
    with open("/proc/%d/task/%d/stat" % (pid, pid)) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def faults(path, on):
    if on:
        with open(path, "w") as f:
            f.write("fail")
    elif os.path.exists(path):
        os.unlink(path)


def held(chk, srv, fpath, what, send, replies):
    """Fail the store, send a create and PINGS pings behind it (send),
    measure the loop, bring the store back, check the replies (replies():
    the next PINGS + 1 reply ids, in order)."""
    faults(fpath, True)
    cpu0 = loop_cpu(srv.proc.pid)
    send([json.dumps({"cmd": "create", "game": "ataxx", "id": "c"})] +
         [json.dumps({"cmd": "ping", "id": i}) for i in range(PINGS)])
    time.sleep(HELD_SEC)
    cpu = loop_cpu(srv.proc.pid) - cpu0
    print("%s: the loop used %.2f s of CPU in %.0f s while the reply was "
          "held" % (what, cpu, HELD_SEC), flush=True)
    chk.ok(cpu <= CPU_MAX, "%s: the loop used %.2f s of CPU while a reply "
           "was held (at most %.1f)" % (what, cpu, CPU_MAX))
    faults(fpath, False)
    got = replies()
    chk.ok(got == ["c"] + list(range(PINGS)), "%s: the held reply, then "
           "every ping's, in order: %d replies, the first %r"
           % (what, len(got), got[:3]))


def tcp_replies(c):
    def read():
        out = []
        for _ in range(PINGS + 1):
            m = c.reply(timeout=harness.WAIT)
            if m is None:
                break
            out.append(m.get("id"))
        return out
    return read


def ws_replies(w):
    def read():
        out = []
        while len(out) < PINGS + 1:
            op, data = w.frame()
            if op is None or op == 8:
                break
            if op == 1:
                m = json.loads(data)
                if "re" in m:
                    out.append(m.get("id"))
        return out
    return read


def main():
    a = harness.args()
    chk = Checks()
    tmp = tempfile.mkdtemp(prefix="tablero-paused-")
    fpath = os.path.join(tmp, "faults")
    os.environ["TABLERO_TEST_STORE_FAULTS"] = fpath
    try:
        srv = Server(a.build, db=os.path.join(tmp, "t.db"),
                     extra=["--web-port", "0", "--rate", "100000",
                            "--burst", "100000"]).start()
        try:
            port, _ = web_ports(srv)
            c = login(srv.port, "tcpana")
            is_ok(chk, c.call("ping"), "a TCP client")
            held(chk, srv, fpath, "tcp",
                 lambda lines: c.raw("".join(x + "\n" for x in lines)),
                 tcp_replies(c))
            c.close()
            if chk.ok(port, "the web port is logged"):
                w = WS(port)
                w.frame()  # the welcome
                w.send(json.dumps({"cmd": "hello", "name": "wsbea",
                                   "id": "h"}))
                op, data = w.frame()
                chk.ok(op == 1 and b'"ok":true' in data, "a WebSocket "
                       "client: %r" % data[:80] if data else op)
                held(chk, srv, fpath, "websocket",
                     lambda lines: w.s.sendall(b"".join(frame(x)
                                                        for x in lines)),
                     ws_replies(w))
                w.close()
        finally:
            faults(fpath, False)
            harness.stopped_cleanly(chk, srv)
            os.unlink(srv.log.name)
    finally:
        os.environ.pop("TABLERO_TEST_STORE_FAULTS", None)
        shutil.rmtree(tmp, ignore_errors=True)
    chk.done()


if __name__ == "__main__":
    main()
