"""test_web_output.py: a WebSocket's output counts against the caps.

Since issue 32 a WebSocket's messages are framed straight into its
socket's output (ws.c) at the end of each loop pass, no longer kept in a
bufferevent pair; what waits there must still count in its connection's
output, or a browser that does not read could make the server hold
without bound what others send it. Here WebSockets log in and never read
while a TCP player chats in the lobby (each chat an event to every one
of them, one a loop pass): one alone is dropped past --max-output (the
log says so), and two together past --max-output-total lose the one
furthest behind, each under its own cap; a reader on the same server is
answered meanwhile and stays.
"""

import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import Checks, Client, Server, is_ok  # noqa: E402
from web_lib import WS, web_ports  # noqa: E402

# --max-output for the first server: above the 64 KiB a WebSocket may
# have framed and untaken before the server stops reading it, so only
# what others send it (the chat) can take it past the cap.
OUTPUT_MAX = 256 * 1024
# --max-output-total for the second server (its least), far under each
# browser's own cap (the default, 1 MiB).
OUTPUT_TOTAL = 64 * 1024
# Lobby chat lines the talker sends at most, each about 560 bytes to
# every listener: far more than the caps and the kernel's buffers.
CHATS = 20000
# The listeners' receive buffer: small, so the output waits on the
# server's side.
RCVBUF = 4096


def listener(port, name):
    """A WebSocket logged in as name that will never read again."""
    w = WS(port, rcvbuf=RCVBUF)
    w.frame()
    w.send(json.dumps({"cmd": "hello", "name": name, "id": "h"}))
    while True:
        op, data = w.frame()
        if op != 1 or json.loads(data).get("id") == "h":
            return w


def chat_until(srv, talker, text, count):
    """The talker chats in the lobby (reading its replies, so it is never
    behind) until the log says text count times; whether it did."""
    line = "x" * 500
    for i in range(CHATS):
        talker.send("chat", text=line)
        talker.reply()
        if i % 50 == 0 and srv.logtext().count(text) >= count:
            return True
    return srv.logtext().count(text) >= count


def reader_ok(chk, port, what):
    w = WS(port)
    w.frame()
    n = 0
    for i in range(20):
        w.send(json.dumps({"cmd": "ping", "id": "p%d" % i}))
        while True:
            op, data = w.frame()
            if op != 1:
                break
            if json.loads(data).get("id") == "p%d" % i:
                n += 1
                break
    chk.eq(n, 20, "a reader is answered %s" % what)
    w.close()


def start(build, extra):
    return Server(build, extra=["--web-port", "0", "--rate", "100000",
                                "--burst", "100000"] + extra).start()


def check_one(chk, build):
    srv = start(build, ["--max-output", str(OUTPUT_MAX)])
    try:
        port, _ = web_ports(srv)
        w = listener(port, "deaf")
        talker = Client(srv.port)
        is_ok(chk, talker.call("hello", name="talker"), "the talker logs in")
        chk.ok(chat_until(srv, talker, "not reading, dropping it", 1),
               "a WebSocket that does not read is dropped at --max-output")
        reader_ok(chk, port, "beside it")
        talker.close()
        w.close()
    finally:
        harness.stopped_cleanly(chk, srv)
        os.unlink(srv.log.name)


def check_total(chk, build):
    srv = start(build, ["--max-output-total", str(OUTPUT_TOTAL)])
    try:
        port, _ = web_ports(srv)
        ws = [listener(port, "deaf%d" % i) for i in range(2)]
        talker = Client(srv.port)
        is_ok(chk, talker.call("hello", name="talker"), "the talker logs in")
        chk.ok(chat_until(srv, talker, "dropping it first", 1),
               "WebSockets that do not read are shed at --max-output-total")
        chk.eq(srv.logtext().count("not reading, dropping it"), 0,
               "none of them past its own --max-output")
        reader_ok(chk, port, "beside them")
        talker.close()
        for w in ws:
            w.close()
    finally:
        harness.stopped_cleanly(chk, srv)
        os.unlink(srv.log.name)


def main():
    a = harness.args()
    chk = Checks()
    check_one(chk, a.build)
    check_total(chk, a.build)
    chk.done()


if __name__ == "__main__":
    main()
