"""test_web_deadline.py: a slow drip cannot keep a half-open slot.

Issue 30, finding 10: the 15 s limits on a TLS handshake and an HTTP
request head were idle timers, so one byte every 10 s kept a slot for as
long as the attacker liked; a closing WebSocket stayed open while its
peer kept sending. Here, at once, one client each drips a byte every
DRIP_SEC seconds into: a TLS handshake, an HTTP request head, the head of
a WebSocket upgrade; a WebSocket the server is closing (a binary message:
close code 1003) gets a text message every second and no close frame; a
TCP connection the server is closing (a line over --max-line) gets a byte
every second while the server lingers. Each must be closed by the server
within its limit (the head's 15 s, the close's 5 s and the linger's 2 s)
with generous margins: HEAD_MAX and CLOSE_MAX seconds.
"""

import os
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import Checks, Server  # noqa: E402
from web_lib import WS, frame, web_ports  # noqa: E402

# Seconds between two bytes of a drip: under the old 15 s idle timers.
DRIP_SEC = 3.0
# Seconds by which a dripping head must be closed (its limit is 15 s).
HEAD_MAX = 30.0
# Seconds by which a closing connection that is sent to must be closed
# (its limits are 5 s, and 5 s and 2 s for a TCP one).
CLOSE_MAX = 20.0
# How long a drip goes on at most: past every limit above.
GIVE_UP = 40.0


def gone(sock):
    """Has the server closed sock? Reads what is there without waiting."""
    sock.setblocking(False)
    try:
        while True:
            b = sock.recv(65536)
            if not b:
                return True
    except (BlockingIOError, ssl.SSLWantReadError):
        return False
    except OSError:
        return True
    finally:
        sock.setblocking(True)


def drip(sock, first, byte, every, result, key, start=None, eof=True):
    """Send first, then byte every `every` seconds until the server
    closes sock (a send fails, or with eof the server's end of file is
    read); result[key] = seconds from start (default: now) to the close,
    or None."""
    t0 = time.time() if start is None else start
    try:
        if first:
            sock.sendall(first)
        while time.time() - t0 < GIVE_UP:
            time.sleep(every)
            try:
                sock.sendall(byte)
            except OSError:
                result[key] = time.time() - t0
                return
            if eof and gone(sock):
                result[key] = time.time() - t0
                return
        result[key] = None
    finally:
        sock.close()


def tls_drip(port, result):
    s = socket.create_connection(("127.0.0.1", port), timeout=harness.WAIT)
    # a TLS record header saying 512 bytes of handshake follow
    drip(s, b"\x16\x03\x01\x02\x00", b"\x01", DRIP_SEC, result, "tls")


def head_drip(port, result):
    s = socket.create_connection(("127.0.0.1", port), timeout=harness.WAIT)
    drip(s, b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ", b"a", DRIP_SEC, result,
         "http head")


def upgrade_drip(port, result):
    s = socket.create_connection(("127.0.0.1", port), timeout=harness.WAIT)
    drip(s, b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
         b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\nX-Slow: ",
         b"a", DRIP_SEC, result, "websocket upgrade")


def ws_close_drip(port, result):
    w = WS(port)
    w.frame()  # the welcome
    t0 = time.time()
    w.send(b"\x00", opcode=2)  # binary: the server closes with 1003
    op, data = w.frame()
    while op == 1:
        op, data = w.frame()
    if op != 8:
        result["websocket close"] = "no close frame: %r" % op
        w.close()
        return
    # text, never a close frame back
    drip(w.s, None, frame("{\"cmd\":\"ping\"}"), 1.0, result,
         "websocket close", start=t0)


def tcp_close_drip(port, result):
    s = socket.create_connection(("127.0.0.1", port), timeout=harness.WAIT)
    s.recv(65536)  # the welcome
    t0 = time.time()
    s.sendall(b"x" * 9000 + b"\n")  # over --max-line: closing
    got = b""
    while not got.endswith(b"\n"):
        b = s.recv(65536)
        if not b:
            break
        got += b
    # the server has shut down its writing and lingers, reading what
    # comes: a byte a second until a send fails (the server's reset)
    drip(s, None, b"y", 1.0, result, "tcp close", start=t0, eof=False)


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
    if not chk.ok(shutil.which("openssl"), "openssl (the command) makes "
                  "the TLS certificate"):
        chk.done()
    tmp = tempfile.mkdtemp(prefix="tablero-drip-")
    try:
        crt, key = make_cert(tmp)
        srv = Server(a.build, extra=["--web-port", "0", "--tls-port", "0",
                                     "--tls-cert", crt, "--tls-key",
                                     key]).start()
        try:
            port, tls_port = web_ports(srv)
            if chk.ok(port and tls_port, "the web and TLS ports"):
                result = {}
                threads = [threading.Thread(target=f, args=(p, result))
                           for f, p in ((tls_drip, tls_port),
                                        (head_drip, port),
                                        (upgrade_drip, port),
                                        (ws_close_drip, port),
                                        (tcp_close_drip, srv.port))]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join(GIVE_UP + 2 * harness.WAIT)
                for key, limit in (("tls", HEAD_MAX),
                                   ("http head", HEAD_MAX),
                                   ("websocket upgrade", HEAD_MAX),
                                   ("websocket close", CLOSE_MAX),
                                   ("tcp close", CLOSE_MAX)):
                    took = result.get(key)
                    print("%s: closed after %s s" % (key, took if
                          not isinstance(took, float) else "%.1f" % took),
                          flush=True)
                    chk.ok(isinstance(took, float) and took <= limit,
                           "a drip into a %s is closed within %.0f s: %r"
                           % (key, limit, took))
        finally:
            harness.stopped_cleanly(chk, srv)
            os.unlink(srv.log.name)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    chk.done()


if __name__ == "__main__":
    main()
