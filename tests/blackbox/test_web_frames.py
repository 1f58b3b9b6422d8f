"""test_web_frames.py: the WebSocket framing the server does itself.

Since issue 32 the server reads and writes a WebSocket's frames with no
bufferevent pair or library between the socket and the session, so the
framing's corners are checked here from the outside, over ws:// and
wss://: a message in fragments (a line spanning three frames, with a
ping between them), a frame sent a byte at a time (split across reads),
many messages in one write (more than --max-line of them together, so
reading stops and goes on), a message of exactly --max-line bytes (a
16-bit length), fragments adding up to
more than --max-line (1009), a continuation with no message, an unmasked
frame, an extension bit and a fragmented ping (1002 each), a close
from the browser (answered with its code) and quit (its reply, then the
server's close with 1000). After each refusal a new
WebSocket is still served.
"""

import json
import os
import shutil
import ssl
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import Checks, Server  # noqa: E402
from web_lib import WS, frame, web_ports  # noqa: E402

# The server's --max-line here (its default).
MAX_LINE = 8192
# Messages sent in one write for the pipelining check: together well over
# MAX_LINE, so the server stops reading at a line's worth and goes on.
PIPELINED = 60


def frame_raw(payload, opcode=1, fin=True, mask=True, rsv=0):
    """A client frame with any of its bits wrong on purpose."""
    if isinstance(payload, str):
        payload = payload.encode()
    n = len(payload)
    hdr = bytes([(0x80 if fin else 0) | rsv | opcode])
    m = 0x80 if mask else 0
    if n < 126:
        hdr += bytes([m | n])
    elif n < 65536:
        hdr += bytes([m | 126]) + struct.pack(">H", n)
    else:
        hdr += bytes([m | 127]) + struct.pack(">Q", n)
    if not mask:
        return hdr + payload
    key = os.urandom(4)
    return hdr + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


def reply(w, want_id):
    """The reply with id want_id (events skipped), or None."""
    while True:
        op, data = w.frame()
        if op is None or op == 8:
            return None
        if op == 1:
            m = json.loads(data)
            if m.get("id") == want_id:
                return m


def close_code(w):
    """The code of the close frame the server sends next (data frames
    skipped), or None."""
    while True:
        op, data = w.frame()
        if op is None:
            return None
        if op == 8:
            return struct.unpack(">H", data[:2])[0] if len(data) >= 2 else 0


def opened(port, wrap):
    """A new WebSocket (over TLS with wrap) and whether its welcome came."""
    w = WS(port, wrap=wrap,
           origin="%s://127.0.0.1:%d" % ("https" if wrap else "http", port))
    op, data = w.frame()
    return w, op == 1 and json.loads(data).get("event") == "welcome"


def check_fragments(chk, port, what, wrap):
    w, ok = opened(port, wrap)
    chk.ok(ok, "%s: the welcome" % what)
    line = json.dumps({"cmd": "ping", "id": "frag", "pad": "x" * 300})
    a, b = len(line) // 3, 2 * len(line) // 3
    w.s.sendall(frame_raw(line[:a], fin=False) + frame_raw(b"p1", opcode=9) +
                frame_raw(line[a:b], opcode=0, fin=False) +
                frame_raw(line[b:], opcode=0))
    got, pong = None, None
    while got is None:
        op, data = w.frame()
        if op is None or op == 8:
            break
        if op == 10:
            pong = data
        elif op == 1 and json.loads(data).get("id") == "frag":
            got = json.loads(data)
    chk.eq(got and got.get("ok"), True,
           "%s: a line in three fragments is one request" % what)
    chk.eq(pong, b"p1", "%s: a ping between fragments gets its pong" % what)
    # A frame a byte at a time: the server reads it across many reads.
    for c in frame_raw(json.dumps({"cmd": "ping", "id": "drip"})):
        w.s.sendall(bytes([c]))
        time.sleep(0.002)
    chk.eq((reply(w, "drip") or {}).get("ok"), True,
           "%s: a frame sent a byte at a time is read whole" % what)
    # Many messages in one write, more than a line's worth together.
    burst = b"".join(frame_raw(json.dumps({"cmd": "ping", "id": "b%d" % i,
                                           "pad": "y" * 200}))
                     for i in range(PIPELINED))
    chk.ok(len(burst) > MAX_LINE, "the burst is over --max-line")
    w.s.sendall(burst)
    ids = []
    while len(ids) < PIPELINED:
        op, data = w.frame()
        if op != 1:
            break
        m = json.loads(data)
        if "re" in m:
            ids.append(m.get("id"))
    chk.eq(ids, ["b%d" % i for i in range(PIPELINED)],
           "%s: %d messages in one write, all answered in order" %
           (what, PIPELINED))
    # A message of exactly --max-line bytes (a 16-bit length): answered.
    head = '{"cmd":"ping","id":"full","pad":"'
    line = head + "z" * (MAX_LINE - len(head) - 2) + '"}'
    w.s.sendall(frame_raw(line))
    chk.eq((reply(w, "full") or {}).get("ok"), True,
           "%s: a message of exactly --max-line bytes" % what)
    # The browser closes: its code comes back, and the socket ends.
    w.s.sendall(frame_raw(struct.pack(">H", 1001), opcode=8))
    chk.eq(close_code(w), 1001, "%s: a close is answered with its code" % what)
    op, _ = w.frame()
    chk.eq(op, None, "%s: the server ends the socket after the close" % what)
    w.close()


def check_refused(chk, port, what, wrap):
    cases = [
        ("fragments over --max-line", 1009,
         frame_raw("a" * 5000, fin=False) + frame_raw("b" * 5000, opcode=0)),
        ("a continuation with no message", 1002, frame_raw("x", opcode=0)),
        ("an unmasked frame", 1002, frame_raw('{"cmd":"ping"}', mask=False)),
        ("an extension bit", 1002, frame_raw('{"cmd":"ping"}', rsv=0x40)),
        ("a fragmented ping", 1002, frame_raw(b"p", opcode=9, fin=False)),
        ("a text frame inside a message", 1002,
         frame_raw("a", fin=False) + frame_raw("b")),
    ]
    for name, code, data in cases:
        w, ok = opened(port, wrap)
        w.s.sendall(data)
        chk.eq(close_code(w), code, "%s: %s closes with %d" % (what, name, code))
        w.close()
    w, ok = opened(port, wrap)
    w.send(json.dumps({"cmd": "ping", "id": "after"}))
    chk.eq((reply(w, "after") or {}).get("ok"), True,
           "%s: a new WebSocket is served after the refusals" % what)
    # quit: its reply, then the server's close frame with 1000.
    w.send(json.dumps({"cmd": "quit", "id": "q"}))
    chk.eq((reply(w, "q") or {}).get("ok"), True, "%s: quit is answered" % what)
    chk.eq(close_code(w), 1000, "%s: then the server closes with 1000" % what)
    w.close()


def make_cert(d):
    key, crt = os.path.join(d, "s.key"), os.path.join(d, "s.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048",
                    "-nodes", "-keyout", key, "-out", crt, "-days", "2",
                    "-subj", "/CN=localhost", "-addext",
                    "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                   check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return crt, key


def main():
    a = harness.args()
    chk = Checks()
    tmp = tempfile.mkdtemp(prefix="tablero-frames-")
    try:
        # (the rate limit lifted: the burst is many requests at once)
        extra = ["--web-port", "0", "--max-line", str(MAX_LINE),
                 "--rate", "100000", "--burst", "100000"]
        tls = shutil.which("openssl") is not None
        if tls:
            crt, key = make_cert(tmp)
            extra += ["--tls-port", "0", "--tls-cert", crt, "--tls-key", key]
        srv = Server(a.build, extra=extra).start()
        try:
            port, tls_port = web_ports(srv)
            if chk.ok(port, "the web port is logged"):
                check_fragments(chk, port, "ws", None)
                check_refused(chk, port, "ws", None)
            if tls and chk.ok(tls_port, "the TLS port is logged"):
                ctx = ssl.create_default_context(cafile=crt)

                def wrap(s):
                    return ctx.wrap_socket(s, server_hostname="localhost")
                check_fragments(chk, tls_port, "wss", wrap)
                check_refused(chk, tls_port, "wss", wrap)
        finally:
            harness.stopped_cleanly(chk, srv)
            os.unlink(srv.log.name)
        chk.ok(tls, "openssl (the command) makes the TLS certificate")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    chk.done()


if __name__ == "__main__":
    main()
