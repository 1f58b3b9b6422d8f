"""test_web_pipeline.py: pipelined requests cannot take the descriptors,
and the page's files are served for a browser to keep.

Issue 30, finding 2: 143 web connections each pipelining 200 GET
/js/app.js and never reading held about 140 descriptors each (every
queued file response kept its file open): 20,000 descriptors from one
address. Here CONNS connections each pipeline PIPELINED requests and
never read; the server may hold at most a few descriptors beyond one a
connection (counted in /proc/PID/fd), over plain HTTP and over TLS, and
a new client is still served. Then the built-in files' caching: an ETag and a
Cache-Control on every file, 304 for a matching If-None-Match, the gzip
copy (the same bytes once unpacked) for a client that accepts it, with
Vary: Accept-Encoding, and one response at a time on a keep-alive
connection, in order.
"""

import gzip
import os
import re
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import Checks, Client, Server, is_ok  # noqa: E402
from web_lib import fds, web_ports  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
# Connections that pipeline, and the requests each sends at once.
CONNS = 20
PIPELINED = 200
# Descriptors allowed beyond one a connection: what the server may open
# meanwhile (none is needed) and the slack of counting while it works.
SLACK = 16


def request(path, extra=""):
    return ("GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n%s\r\n"
            % (path, extra)).encode()


class Reader:
    """Responses off one socket, one at a time (pipelined ones too)."""

    def __init__(self, sock):
        self.sock = sock
        self.buf = b""

    def _more(self):
        b = self.sock.recv(65536)
        if not b:
            raise ConnectionError("closed")
        self.buf += b

    def response(self):
        """The next response: (status, headers dict, body), or (None,
        {}, b"") when the connection ends first."""
        try:
            while b"\r\n\r\n" not in self.buf:
                self._more()
            head, _, self.buf = self.buf.partition(b"\r\n\r\n")
            lines = head.decode("latin1").split("\r\n")
            status = int(lines[0].split()[1])
            hdrs = {}
            for line in lines[1:]:
                k, _, v = line.partition(":")
                hdrs[k.strip().lower()] = v.strip()
            n = int(hdrs.get("content-length", "0"))
            while len(self.buf) < n:
                self._more()
            body, self.buf = self.buf[:n], self.buf[n:]
            return status, hdrs, body
        except (ConnectionError, OSError):
            return None, {}, b""


def response(sock):
    return Reader(sock).response()


def get(port, path, extra="", wrap=None):
    s = socket.create_connection(("127.0.0.1", port), timeout=harness.WAIT)
    if wrap:
        s = wrap(s)
    try:
        s.sendall(request(path, extra + "Connection: close\r\n"))
        return response(s)
    finally:
        s.close()


def check_pipelining(chk, srv, port, what, wrap=None):
    """CONNS connections pipeline and never read: descriptors bounded."""
    base = fds(srv.proc.pid)
    socks = []
    burst = request("/js/app.js") * PIPELINED
    for _ in range(CONNS):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.settimeout(harness.WAIT)
        s.connect(("127.0.0.1", port))
        if wrap:
            s = wrap(s)
        s.setblocking(False)
        try:
            s.send(burst)
        except (BlockingIOError, ssl.SSLWantWriteError):
            pass
        socks.append(s)
    most = 0
    end = time.time() + 2.0
    while time.time() < end:
        most = max(most, fds(srv.proc.pid))
        time.sleep(0.1)
    print("%s: %d descriptors before, at most %d with %d connections "
          "pipelining %d requests" % (what, base, most, CONNS, PIPELINED),
          flush=True)
    chk.ok(most <= base + CONNS + SLACK,
           "%s: %d connections pipelining hold %d descriptors (at most %d)"
           % (what, CONNS, most - base, CONNS + SLACK))
    c = Client(srv.port)
    is_ok(chk, c.call("ping"), "%s: a new client is served meanwhile" % what)
    c.close()
    status, _, body = get(port, "/js/app.js", wrap=wrap)
    chk.eq(status, 200, "%s: and a new web client too" % what)
    for s in socks:
        s.close()


def check_caching(chk, port):
    with open(os.path.join(ROOT, "web", "js", "app.js"), "rb") as f:
        app = f.read()
    status, h, body = get(port, "/js/app.js")
    chk.ok(status == 200 and body == app, "app.js as it is")
    etag = h.get("etag")
    chk.ok(etag and re.match(r'^"[0-9a-f]{16,}"$', etag),
           "an ETag of the content: %r" % etag)
    cc = h.get("cache-control", "")
    chk.ok("no-cache" in cc or "max-age" in cc,
           "a Cache-Control that keeps it: %r" % cc)
    status, h2, body = get(port, "/js/app.js",
                           "If-None-Match: %s\r\n" % etag)
    chk.eq((status, len(body)), (304, 0), "304 for the same ETag")
    chk.eq(h2.get("etag"), etag, "the 304 names the ETag")
    status, _, _ = get(port, "/js/app.js", 'If-None-Match: "00"\r\n')
    chk.eq(status, 200, "200 for another ETag")
    status, hz, body = get(port, "/js/app.js",
                           "Accept-Encoding: br, gzip;q=0.8\r\n")
    chk.eq(hz.get("content-encoding"), "gzip", "gzip when accepted")
    try:
        unpacked = gzip.decompress(body)
    except OSError:
        unpacked = None
    chk.ok(unpacked == app and len(body) < len(app),
           "the gzip copy is app.js, smaller (%d bytes of %d)"
           % (len(body), len(app)))
    chk.ok("accept-encoding" in hz.get("vary", "").lower(),
           "Vary: Accept-Encoding")
    chk.ok(hz.get("etag") not in (None, etag), "the gzip copy has its own "
           "ETag: %r" % hz.get("etag"))
    status, hn, _ = get(port, "/js/app.js", "Accept-Encoding: gzip;q=0\r\n")
    chk.eq(hn.get("content-encoding"), None, "no gzip when refused (q=0)")
    status, h, body = get(port, "/")
    chk.ok(status == 200 and "no-cache" in h.get("cache-control", ""),
           "the page itself is checked each time: %r" %
           h.get("cache-control"))
    # Keep-alive: each response whole and in order.
    want = []
    for name in ("style.css", "favicon.svg", "index.html"):
        with open(os.path.join(ROOT, "web", name), "rb") as f:
            want.append((200, f.read()))
    s = socket.create_connection(("127.0.0.1", port), timeout=harness.WAIT)
    s.sendall(request("/style.css") + request("/favicon.svg") +
              request("/", "Connection: close\r\n"))
    r = Reader(s)
    got = []
    for _ in range(3):
        status, _, body = r.response()
        got.append((status, body))
    s.close()
    chk.ok(got == want, "three pipelined responses, whole and in order: %r"
           % [(st, len(b)) for st, b in got])


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
    tmp = tempfile.mkdtemp(prefix="tablero-pipe-")
    try:
        extra = ["--web-port", "0"]
        tls = shutil.which("openssl") is not None
        if tls:
            crt, key = make_cert(tmp)
            extra += ["--tls-port", "0", "--tls-cert", crt, "--tls-key", key]
        srv = Server(a.build, extra=extra).start()
        try:
            port, tls_port = web_ports(srv)
            if chk.ok(port, "the web port is logged"):
                check_pipelining(chk, srv, port, "http")
                check_caching(chk, port)
            if tls and chk.ok(tls_port, "the TLS port is logged"):
                ctx = ssl.create_default_context(cafile=crt)
                check_pipelining(chk, srv, tls_port, "https", wrap=lambda s:
                                 ctx.wrap_socket(s,
                                                 server_hostname="localhost"))
        finally:
            harness.stopped_cleanly(chk, srv)
            os.unlink(srv.log.name)
        chk.ok(tls, "openssl (the command) makes the TLS certificate")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    chk.done()


if __name__ == "__main__":
    main()
