"""test_web_transport.py: the web port and the TLS port, over real sockets.

The web port serves the client's files with the security headers, refuses
what it must (traversal, unknown types, methods, long heads and URLs, a
foreign Origin), and turns GET /ws into a WebSocket that carries the line
protocol one message per text frame, with the TCP limits: a message over
--max-line closes with 1009, a binary one with 1003. A silent client gets
the line protocol's welcome. The TLS port serves the same over TLS, to
Python's ssl and to `tablero --tls` with a pinned certificate; a wrong or
unpinned self-signed certificate is refused by the client; a client that
never finishes its handshake is closed. contrib/nginx-tablero.conf (its
names and ports replaced) proxies the page and the WebSocket over TLS. The WebSocket frames here are made
by hand on the client side only (the server's come from ws.c).
"""

import base64
import json
import os
import re
import shutil
import socket
import ssl
import struct
import subprocess
import tempfile
import time

import harness
from harness import Checks, Server, free_port

WEB_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "web")


# Seconds a silent connection on the web port waits for the welcome
# (server/net/web.c, WEB_SNIFF_MS).
SNIFF = 12

def stopped(chk, srv):
    """Stop srv: it exits 0 and its log holds no sanitizer report."""
    chk.eq(srv.stop(), 0, "tablerod exits 0 on SIGTERM")
    text = srv.logtext()
    chk.ok("Sanitizer" not in text and "runtime error" not in text,
           "no sanitizer report: %s" % text[text.find("Sanitizer") - 200:][:2000])
    os.unlink(srv.log.name)


def web_ports(srv):
    """The web and TLS ports from the log (None for one not asked for).
    The harness returns once the TCP port is logged; the web listeners
    are logged just after it, so wait for each port the server was given
    (a bounded wait: a port never logged stays None)."""
    want_web = "--web-port" in srv.extra
    want_tls = "--tls-port" in srv.extra
    deadline = time.time() + 10
    while True:
        text = srv.logtext()
        web = re.search(r"web and websocket on 127\.0\.0\.1:(\d+)", text)
        tls = re.search(r"web and websocket over tls on 127\.0\.0\.1:(\d+)", text)
        if ((web or not want_web) and (tls or not want_tls)) or time.time() > deadline:
            break
        time.sleep(0.02)
    return (int(web.group(1)) if web else None, int(tls.group(1)) if tls else None)


def exchange(sock, data, wait=1.0):
    """Send data and read until the peer closes or wait passes."""
    if data:
        sock.sendall(data)
    sock.settimeout(0.2)
    got = b""
    end = time.time() + wait
    while time.time() < end:
        try:
            b = sock.recv(65536)
        except socket.timeout:
            continue
        except (ConnectionError, ssl.SSLError):
            break
        if not b:
            break
        got += b
    return got


def http(port, head, wait=1.0, wrap=None):
    s = socket.create_connection(("127.0.0.1", port), timeout=harness.WAIT)
    if wrap:
        s = wrap(s)
    try:
        return exchange(s, head.encode() if isinstance(head, str) else head, wait)
    finally:
        s.close()


def get(port, path, extra="", wrap=None):
    return http(port, "GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n%s\r\n"
                % (path, port, extra), wrap=wrap)


class WS:
    """A WebSocket client: handshake, masked frames out, frames in."""

    def __init__(self, port, origin=None, wrap=None):
        self.s = socket.create_connection(("127.0.0.1", port), timeout=harness.WAIT)
        if wrap:
            self.s = wrap(self.s)
        key = base64.b64encode(os.urandom(16)).decode()
        origin = origin or "http://127.0.0.1:%d" % port
        self.s.sendall(("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\n"
                        "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                        "Sec-WebSocket-Key: %s\r\nOrigin: %s\r\n\r\n" % (port, key, origin)).encode())
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            b = self.s.recv(4096)
            if not b:
                break
            self.buf += b
        head, _, self.buf = self.buf.partition(b"\r\n\r\n")
        self.head = head.decode("latin1")

    def send(self, payload, opcode=1):
        if isinstance(payload, str):
            payload = payload.encode()
        n = len(payload)
        hdr = bytes([0x80 | opcode])
        if n < 126:
            hdr += bytes([0x80 | n])
        elif n < 65536:
            hdr += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            hdr += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        self.s.sendall(hdr + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def _need(self, n):
        while len(self.buf) < n:
            b = self.s.recv(65536)
            if not b:
                raise ConnectionError("closed")
            self.buf += b

    def frame(self):
        """(opcode, payload) of the next frame, or (None, None) at the end."""
        try:
            self._need(2)
            op, n = self.buf[0] & 0x0F, self.buf[1] & 0x7F
            i = 2
            if n == 126:
                self._need(4)
                n, i = struct.unpack(">H", self.buf[2:4])[0], 4
            elif n == 127:
                self._need(10)
                n, i = struct.unpack(">Q", self.buf[2:10])[0], 10
            self._need(i + n)
            data, self.buf = self.buf[i:i + n], self.buf[i + n:]
            return op, data
        except (ConnectionError, socket.timeout, OSError):
            return None, None

    def json(self):
        while True:
            op, data = self.frame()
            if op is None or op == 8:
                return None
            if op == 1:
                return json.loads(data)

    def call(self, cmd, **fields):
        self.send(json.dumps(dict(cmd=cmd, id=cmd, **fields)))
        while True:
            m = self.json()
            if m is None or m.get("re") == cmd:
                return m

    def close(self):
        self.s.close()


def test_files(chk, port):
    r = get(port, "/")
    chk.ok(r.startswith(b"HTTP/1.1 200 OK"), "GET / is the page: %r" % r[:40])
    chk.ok(b"Content-Security-Policy: default-src 'self'; script-src 'self'" in r,
           "the page forbids inline script")
    chk.ok(b"X-Content-Type-Options: nosniff" in r and b"X-Frame-Options: DENY" in r,
           "nosniff and no framing")
    chk.ok(b"text/javascript" in get(port, "/js/app.js"), "modules as JavaScript")
    for path, code in [("/../server/web.c", b"404"), ("/js/../../Makefile", b"404"),
                       ("/.git/config", b"404"), ("/nothing.html", b"404"),
                       ("/tests/package.json", b"404"),
                       ("/index.html?x=1", b"200"), ("/" + "a" * 300, b"414")]:
        r = get(port, path)
        chk.ok(r.startswith(b"HTTP/1.1 " + code), "%s gets %s: %r" % (path[:40], code, r[:30]))
    r = http(port, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
    chk.ok(r.startswith(b"HTTP/1.1 405"), "POST is refused")
    r = http(port, "GET / HTTP/1.1\r\nHost: x\r\nX: " + "y" * 9000 + "\r\n\r\n")
    chk.ok(r.startswith(b"HTTP/1.1 431"), "a head over 8 KiB is refused: %r" % r[:30])
    r = http(port, "GET / HTTP/1.1\r\nHost: x\r\n\r\nGET /style.css HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    chk.eq(r.count(b"HTTP/1.1 200 OK"), 2, "two pipelined requests on one keep-alive connection")


def test_websocket(chk, port):
    w = WS(port, origin="http://evil.example")
    chk.ok(w.head.startswith("HTTP/1.1 403"), "a foreign Origin is refused: %r" % w.head[:30])
    w.close()
    w = WS(port)
    chk.ok(w.head.startswith("HTTP/1.1 101"), "the page's own Origin is upgraded")
    m = w.json()
    chk.eq(m and m.get("event"), "welcome", "the welcome comes as one text frame")
    r = w.call("rooms")
    chk.eq(r and r.get("ok"), True, "a guest lists the rooms over the WebSocket")
    r = w.call("chat", text="hi")
    chk.eq(r and r.get("error"), "not_logged_in", "a guest may not chat")
    # A line end inside a message is a space: still one request.
    w.send('{"cmd":"hello",\n"name":"wsuser","id":"h"}')
    r = w.json()
    chk.eq((r or {}).get("name"), "wsuser", "a message with a line end in it is one request")
    r = w.call("create", game="ataxx")
    chk.eq(r and r.get("ok"), True, "create over the WebSocket")
    w.send(b"\x00\x01", opcode=2)
    op, data = w.frame()
    while op == 1:
        op, data = w.frame()
    chk.eq((op, data[:2] if data else None), (8, struct.pack(">H", 1003)),
           "a binary message closes with 1003")
    w.close()
    w = WS(port)
    w.json()
    w.send('{"cmd":"ping","pad":"' + "x" * 9000 + '"}')
    op, data = w.frame()
    chk.eq((op, data[:2] if data else None), (8, struct.pack(">H", 1009)),
           "a message over --max-line closes with 1009")
    w.close()
    w = WS(port)
    w.json()
    w.send(b"hi", opcode=9)
    op, data = w.frame()
    chk.eq((op, data), (10, b"hi"), "a ping gets its pong")
    w.close()


def test_line_protocol(chk, port):
    s = socket.create_connection(("127.0.0.1", port), timeout=harness.WAIT)
    # a silent client waits WEB_SNIFF_MS (12 s) for its welcome
    s.settimeout(SNIFF + harness.WAIT)
    first = s.recv(4096)
    chk.ok(first.startswith(b'{"event":"welcome"'), "a silent client on the web port gets the welcome")
    got = exchange(s, b"hello webtel\r\n", 0.5)
    chk.ok(b"Hello, webtel" in got, "telnet plays on the web port: %r" % got[:60])
    s.close()
    # A browser's request may come late (Chromium on a busy machine took
    # over the old 300 ms and read the welcome as an HTTP/0.9 answer): a
    # request a second after the connect is still HTTP.
    s = socket.create_connection(("127.0.0.1", port), timeout=harness.WAIT)
    time.sleep(1.0)
    got = exchange(s, b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
                   harness.WAIT)
    chk.ok(got.startswith(b"HTTP/1.1 200 OK"),
           "a request a second after the connect gets the page: %r" % got[:40])
    s.close()
    # A client that speaks first (tablero sends a blank line) gets the
    # welcome without waiting for the silence, and plays.
    s = socket.create_connection(("127.0.0.1", port), timeout=harness.WAIT)
    s.sendall(b"\n")
    s.settimeout(harness.WAIT)
    first = s.recv(4096)
    chk.ok(first.startswith(b'{"event":"welcome"'), "a blank line first gets the welcome")
    got = exchange(s, b'{"cmd":"hello","name":"webblank"}\n', 0.5)
    chk.ok(b'"ok":true' in got, "and the hello after it is answered: %r" % got[:80])
    s.close()


def make_cert(d, name):
    key, crt = os.path.join(d, name + ".key"), os.path.join(d, name + ".pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key,
                    "-out", crt, "-days", "2", "-subj", "/CN=localhost", "-addext",
                    "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return crt, key


def client(build, tls_port, extra, lines, wait=harness.WAIT):
    env = dict(os.environ, XDG_CONFIG_HOME=tempfile.mkdtemp(prefix="tablero-cfg-"))
    p = subprocess.run([os.path.join(build, "tablero"), "--batch", "--tls"] + extra +
                       ["127.0.0.1:%d" % tls_port], input="\n".join(lines) + "\n",
                       capture_output=True, text=True, timeout=wait, env=env)
    return p.returncode, p.stdout, p.stderr


def test_tls(chk, build, tmp):
    crt, key = make_cert(tmp, "server")
    other, _ = make_cert(tmp, "other")
    srv = Server(build, extra=["--tls-port", "0", "--tls-cert", crt, "--tls-key", key]).start()
    try:
        _, tls_port = web_ports(srv)
        if not chk.ok(tls_port, "the TLS port is logged"):
            return
        ctx = ssl.create_default_context(cafile=crt)
        wrap = lambda s: ctx.wrap_socket(s, server_hostname="localhost")  # noqa: E731
        r = get(tls_port, "/", wrap=wrap)
        chk.ok(r.startswith(b"HTTP/1.1 200 OK"), "https:// serves the page")
        w = WS(tls_port, origin="https://127.0.0.1:%d" % tls_port, wrap=wrap)
        chk.ok(w.head.startswith("HTTP/1.1 101"), "wss:// upgrades with the https origin")
        chk.eq((w.json() or {}).get("event"), "welcome", "welcome over wss")
        w.close()
        s = wrap(socket.create_connection(("127.0.0.1", tls_port), timeout=harness.WAIT))
        got = exchange(s, b"\n", 0.8)
        chk.ok(got.startswith(b'{"event":"welcome"'),
               "the line protocol over TLS, a blank line first, gets its welcome")
        s.close()
        rc, out, err = client(build, tls_port, ["--tls-pin", crt], ["hello tlsana", "quit"])
        chk.ok('"name":"tlsana"' in out, "tablero --tls with the pinned certificate logs in: %r %r" % (out[-200:], err[-200:]))
        rc, out, err = client(build, tls_port, [], ["hello tlsbob"])
        chk.eq(rc, 2, "tablero --tls refuses an unknown self-signed certificate (exit 2)")
        chk.ok("certificate is refused" in out + err, "and says why: %r" % (out + err)[-200:])
        rc, out, err = client(build, tls_port, ["--tls-pin", other], ["hello tlscat"])
        chk.eq(rc, 2, "a certificate other than the pinned one is refused")
        # A client that never starts its handshake is closed.
        s = socket.create_connection(("127.0.0.1", tls_port), timeout=30)
        t0 = time.time()
        s.settimeout(30)
        try:
            b = s.recv(10)
        except (socket.timeout, ConnectionError):
            b = None
        took = time.time() - t0
        chk.ok(b == b"" and 10 <= took <= 25, "a handshake never made is closed after about 15 s: %r in %.1f s" % (b, took))
        s.close()
    finally:
        stopped(chk, srv)


def test_nginx(chk, build, tmp, nginx):
    """contrib/nginx-tablero.conf, its names and ports replaced, in front
    of the web port: the page and the WebSocket through nginx's TLS."""
    crt, key = make_cert(tmp, "proxy")
    np = free_port()
    srv = Server(build, extra=["--web-port", "0", "--web-dir", WEB_DIR,
                               "--web-origin", "https://127.0.0.1:%d" % np]).start()
    try:
        port, _ = web_ports(srv)
        with open(os.path.join(os.path.dirname(WEB_DIR), "contrib", "nginx-tablero.conf")) as f:
            site = f.read()
        site = (site.replace("listen 443 ssl;", "listen 127.0.0.1:%d ssl;" % np)
                .replace("/etc/letsencrypt/live/game.example.org/fullchain.pem", crt)
                .replace("/etc/letsencrypt/live/game.example.org/privkey.pem", key)
                .replace("127.0.0.1:8080", "127.0.0.1:%d" % port))
        with open(os.path.join(tmp, "site.conf"), "w") as f:
            f.write(site)
        with open(os.path.join(tmp, "nginx.conf"), "w") as f:
            f.write("pid %s/nginx.pid;\nerror_log %s/error.log;\ndaemon off;\n"
                    "events {}\nhttp {\n access_log off;\n"
                    " client_body_temp_path %s/cb;\n proxy_temp_path %s/px;\n"
                    " fastcgi_temp_path %s/fc;\n uwsgi_temp_path %s/uw;\n scgi_temp_path %s/sc;\n"
                    " include %s/site.conf;\n}\n" % ((tmp,) * 8))
        ng = subprocess.Popen([nginx, "-p", tmp, "-c", os.path.join(tmp, "nginx.conf"),
                               "-e", os.path.join(tmp, "error.log")],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.time() + harness.WAIT
            while time.time() < deadline:
                try:
                    socket.create_connection(("127.0.0.1", np), timeout=1).close()
                    break
                except OSError:
                    time.sleep(0.05)
            ctx = ssl.create_default_context(cafile=crt)
            wrap = lambda s: ctx.wrap_socket(s, server_hostname="localhost")  # noqa: E731
            r = get(np, "/", wrap=wrap)
            chk.ok(r.startswith(b"HTTP/1.1 200 OK") and b"script-src 'self'" in r,
                   "the page through nginx: %r" % r[:60])
            w = WS(np, origin="https://127.0.0.1:%d" % np, wrap=wrap)
            chk.ok(w.head.startswith("HTTP/1.1 101"), "the WebSocket through nginx: %r" % w.head[:40])
            chk.eq((w.json() or {}).get("event"), "welcome", "the welcome through nginx")
            r = w.call("hello", name="viaproxy")
            chk.eq((r or {}).get("name"), "viaproxy", "a hello through nginx")
            w.close()
        finally:
            ng.terminate()
            ng.wait(harness.WAIT)
    finally:
        stopped(chk, srv)


def main():
    a = harness.args()
    chk = Checks()
    srv = Server(a.build, extra=["--web-port", "0", "--web-dir", WEB_DIR]).start()
    try:
        port, _ = web_ports(srv)
        if chk.ok(port, "the web port is logged"):
            test_files(chk, port)
            test_websocket(chk, port)
            test_line_protocol(chk, port)
    finally:
        stopped(chk, srv)
    if shutil.which("openssl"):
        tmp = tempfile.mkdtemp(prefix="tablero-tls-")
        try:
            test_tls(chk, a.build, tmp)
            nginx = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin")
            if chk.ok(nginx, "nginx (contrib/deps.sh installs it) for the proxy test"):
                test_nginx(chk, a.build, tmp, nginx)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    else:
        chk.ok(False, "openssl (the command) is needed to make test certificates")
    chk.done()


if __name__ == "__main__":
    main()
