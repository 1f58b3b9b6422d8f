"""test_proxy_protocol.py: --proxy-from, the PROXY protocol (v1 and v2)
from a trusted load balancer, over real sockets.

Trusted sources here are 127.0.0.2 and 127.0.0.3 (a client binds its
source address); 127.0.0.1 is not trusted. With --max-per-address 1: two
connections through one proxy with different PROXY addresses are both
let in (the proxy's own address counts for nothing), a third with a
repeated address is refused, on the game port, the web port and the TLS
port alike (the header comes before the TLS handshake); the address is
the one the logs show. LOCAL and UNKNOWN keep the proxy's address. An
untrusted source's header is not honoured (its own address counts, the
line gets an error). A malformed header is closed with a logged reason,
sanitized; half a header is closed after the timeout. A bad --proxy-from
stops the server at start.
"""

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
from harness import Checks, Client, Server, is_error

SIG = b"\r\n\r\n\x00\r\nQUIT\n"
# The server's wait for a whole header (PROXY_HEADER_SEC) and a margin.
HEADER_SEC = 5


def connect(port, src):
    """A TCP connection to the server's port from source address src."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(harness.WAIT)
    s.bind((src, 0))
    s.connect(("127.0.0.1", port))
    return s


def over(sock, welcome=True):
    """A harness Client on an open socket (after its PROXY header)."""
    c = Client.__new__(Client)
    c.sock = sock
    c.buf = b""
    c.pending = []
    c.next_id = 1
    if welcome:
        # a blank line first, as tablero sends: the web and TLS ports
        # take a silent client for the line protocol only after 12 s
        sock.sendall(b"\r\n")
        c.welcome = c.json()
    return c


def v1(addr, port=40000, dport=7777):
    fam = "TCP6" if ":" in addr else "TCP4"
    dst = "::1" if ":" in addr else "127.0.0.1"
    return ("PROXY %s %s %s %d %d\r\n" % (fam, addr, dst, port, dport)).encode()


def v2(addr, port=40000, dport=7777, local=False):
    if local:
        return SIG + bytes([0x20, 0x00]) + struct.pack("!H", 0)
    if ":" in addr:
        body = (socket.inet_pton(socket.AF_INET6, addr) +
                socket.inet_pton(socket.AF_INET6, "::1") +
                struct.pack("!HH", port, dport))
        return SIG + bytes([0x21, 0x21]) + struct.pack("!H", len(body)) + body
    body = (socket.inet_aton(addr) + socket.inet_aton("127.0.0.1") +
            struct.pack("!HH", port, dport))
    return SIG + bytes([0x21, 0x11]) + struct.pack("!H", len(body)) + body


def proxied(port, src, header, welcome=True):
    """A client through the 'proxy' src that sent header first."""
    s = connect(port, src)
    s.sendall(header)
    return over(s, welcome)


def wait_log(srv, pattern, wait=harness.WAIT):
    """The first match of pattern in the log, waiting for it (bounded)."""
    deadline = time.time() + wait
    while True:
        m = re.search(pattern, srv.logtext())
        if m or time.time() > deadline:
            return m
        time.sleep(0.05)


def closed_within(sock, wait):
    """Seconds until the server closes sock (None: still open after wait),
    and what it sent."""
    start = time.time()
    got = b""
    while time.time() - start < wait:
        sock.settimeout(max(0.05, wait - (time.time() - start)))
        try:
            b = sock.recv(4096)
        except socket.timeout:
            break
        except ConnectionError:
            return time.time() - start, got
        if not b:
            return time.time() - start, got
        got += b
    return None, got


def refused(chk, c, what):
    m = c.json()
    is_error(chk, m, "server_full", what, ["too many connections"])
    c.close()


def web_ports(srv):
    deadline = time.time() + harness.WAIT
    while True:
        text = srv.logtext()
        web = re.search(r"web and websocket on 127\.0\.0\.1:(\d+)", text)
        tls = re.search(r"web and websocket over tls on 127\.0\.0\.1:(\d+)", text)
        if (web and tls) or time.time() > deadline:
            break
        time.sleep(0.02)
    return (int(web.group(1)) if web else None, int(tls.group(1)) if tls else None)


def http_get(sock, port):
    sock.sendall(("GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n"
                  % port).encode())
    got = b""
    while True:
        try:
            b = sock.recv(65536)
        except (socket.timeout, ConnectionError, ssl.SSLError):
            break
        if not b:
            break
        got += b
    sock.close()
    return got


def test_game_port(chk, srv):
    """Two PROXY addresses through one proxy counted apart; a repeat
    refused; the logs name the client's address."""
    port = srv.port
    a = proxied(port, "127.0.0.2", v1("198.51.100.1", 1111))
    chk.eq(a.welcome.get("event"), "welcome", "v1 from a trusted proxy: welcome")
    r = a.call("hello", name="ppann")
    chk.ok(r and r.get("ok"), "v1: hello works after the header: %r" % r)
    b = proxied(port, "127.0.0.2", v2("198.51.100.2", 2222))
    chk.eq(b.welcome.get("event"), "welcome",
           "v2 from the same proxy, another address: let in (max 1 per address)")
    r = b.call("hello", name="ppbob")
    chk.ok(r and r.get("ok"), "v2: hello works after the header: %r" % r)
    c = proxied(port, "127.0.0.3", v2("198.51.100.1", 3333), welcome=False)
    refused(chk, c, "a repeated PROXY address (through another proxy) is refused")
    d = proxied(port, "127.0.0.2", v1("2001:db8:7:7::1", 4444))
    chk.eq(d.welcome.get("event"), "welcome", "v1 TCP6 address: let in")
    e = proxied(port, "127.0.0.2", v2("2001:db8:7:7::2", 5555), welcome=False)
    refused(chk, e, "v2 IPv6 address in the same /64 is the same address")
    d.close()
    chk.ok(wait_log(srv, r"ppann logged in from 198\.51\.100\.1:1111"),
           "the log names the PROXY address of the player")
    chk.ok(wait_log(srv, r"198\.51\.100\.1:3333: 1 connections from that address"),
           "the refusal is logged with the PROXY address")
    chk.ok(not re.search(r"127\.0\.0\.2:\d+: \d+ connections from that address",
                         srv.logtext()),
           "the proxy's own address is never counted")
    return a, b


def test_local(chk, srv):
    """LOCAL (v2) and UNKNOWN (v1): the proxy's own address stands."""
    c = proxied(srv.port, "127.0.0.2", v2(None, local=True))
    chk.eq(c.welcome.get("event"), "welcome", "v2 LOCAL: let in")
    chk.ok(wait_log(srv, r"proxy 127\.0\.0\.2:\d+: PROXY v2 local, stays 127\.0\.0\.2"),
           "v2 LOCAL keeps the proxy's address")
    r = c.call("ping")
    chk.ok(r and r.get("pong") is True, "a health check's ping after LOCAL: %r" % r)
    d = proxied(srv.port, "127.0.0.3", b"PROXY UNKNOWN\r\n")
    chk.eq(d.welcome.get("event"), "welcome", "v1 UNKNOWN: let in")
    chk.ok(wait_log(srv, r"PROXY v1 local, stays 127\.0\.0\.3"),
           "v1 UNKNOWN keeps the proxy's address")
    c.close()
    d.close()


def test_untrusted(chk, srv):
    """127.0.0.1 is not trusted: its header is only a line, and its own
    address is the one counted."""
    a = Client(srv.port)
    chk.eq(a.welcome.get("event"), "welcome", "an untrusted connection is plain")
    a.raw(v1("198.51.100.77"))
    # Text mode: the welcome in words, then the line's error.
    lines = [a.line(), a.line()]
    chk.ok(any(x and x.startswith("error (unknown_cmd): unknown command 'proxy'")
               for x in lines),
           "an untrusted PROXY line is an unknown command, not honoured: %r"
           % (lines,))
    b = Client(srv.port, welcome=False)
    refused(chk, b, "a second connection from 127.0.0.1 is refused (max 1): "
            "the first counted as 127.0.0.1, not as its PROXY address")
    # (The line itself is in the debug log; as a connection's address,
    # ADDR:PORT, it is nowhere.)
    chk.ok(not re.search(r"198\.51\.100\.77:\d", srv.logtext()),
           "the untrusted header's address is used nowhere")
    # v2 from an untrusted source: binary, also only bytes.
    a.raw(v2("198.51.100.78"))
    a.close()
    chk.ok(not re.search(r"198\.51\.100\.78:\d", srv.logtext()),
           "an untrusted v2 header's address is used nowhere")


def test_malformed(chk, srv):
    """A malformed header: closed, the reason and the bytes logged
    sanitized; a header with no end: closed after the timeout."""
    s = connect(srv.port, "127.0.0.2")
    s.sendall(b"PROXY TCP4 999.1.2.3 127.0.0.1 1 2\r\n{\"cmd\":\"ping\"}\n")
    t, got = closed_within(s, harness.WAIT)
    chk.ok(t is not None and b"welcome" not in got,
           "a malformed v1 header is closed at once, with no welcome (%r, %r)" % (t, got))
    chk.ok(wait_log(srv, r"proxy 127\.0\.0\.2:\d+: v1: an address not of the family named; "
                    r"closing \(read \"PROXY TCP4 999\.1\.2\.3"),
           "the reason and the header's bytes are logged")
    s.close()
    s = connect(srv.port, "127.0.0.2")
    s.sendall(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03GARBAGE")
    t, got = closed_within(s, harness.WAIT)
    chk.ok(t is not None and got == b"", "garbage instead of a header: closed")
    chk.ok(wait_log(srv, r"not a PROXY protocol header; closing \(read \"\\x16\\x03"),
           "the garbage is logged sanitized (\\xNN)")
    s.close()
    # Oversized v2: refused from its head, not waited for.
    s = connect(srv.port, "127.0.0.3")
    s.sendall(SIG + bytes([0x21, 0x11]) + struct.pack("!H", 60000))
    t, _ = closed_within(s, harness.WAIT)
    chk.ok(t is not None and t < HEADER_SEC,
           "an oversized v2 header is closed at once (%r s)" % t)
    s.close()
    chk.ok(wait_log(srv, r"v2: longer than the server takes"), "oversized: logged")
    # Half a header: held no longer than the timeout.
    s = connect(srv.port, "127.0.0.2")
    s.sendall(b"PROXY TCP4 198.51.")
    t, got = closed_within(s, HEADER_SEC + 5)
    chk.ok(t is not None and HEADER_SEC - 1 <= t <= HEADER_SEC + 4 and got == b"",
           "half a header is closed after about %d s (%r s)" % (HEADER_SEC, t))
    chk.ok(wait_log(srv, r"no whole PROXY header in %d s; closing \(read \"PROXY TCP4 198\.51\.\"\)"
                    % HEADER_SEC), "the timeout is logged with what came")
    s.close()
    # A header sent a byte at a time still works, and the client's first
    # line right behind it is not lost.
    s = connect(srv.port, "127.0.0.3")
    for byte in v2("198.51.100.40"):
        s.sendall(bytes([byte]))
    s.sendall(b'{"cmd":"ping","id":"p1"}\n')
    c = over(s)
    r = c.reply("p1")
    chk.ok(r and r.get("pong") is True,
           "a header in 1-byte pieces, then a ping in the same stream: %r" % r)
    c.close()


def make_cert(d):
    key, crt = os.path.join(d, "k.pem"), os.path.join(d, "c.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                    key, "-out", crt, "-days", "2", "-subj", "/CN=localhost"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return crt, key


def test_web(chk, srv, web, tls):
    """The web port and the TLS port honour it too; a repeated address is
    refused there as on the game port (198.51.100.1 is still connected)."""
    s = connect(web, "127.0.0.2")
    s.sendall(v2("198.51.100.5") + b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
              b"Connection: close\r\n\r\n" % web)
    got = http_get(s, web)
    chk.ok(got.startswith(b"HTTP/1.1 200"), "web port through PROXY v2: %r" % got[:60])
    s = connect(web, "127.0.0.3")
    s.sendall(v1("198.51.100.1"))
    t, got = closed_within(s, harness.WAIT)
    chk.ok(b"too many connections" in got,
           "web port: a PROXY address already connected is refused: %r" % got[:120])
    s.close()
    if tls is None:
        return
    ctx = ssl.create_default_context()
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    s = connect(tls, "127.0.0.2")
    s.sendall(v1("198.51.100.6", 6666))
    s = ctx.wrap_socket(s, server_hostname="localhost")
    got = http_get(s, tls)
    chk.ok(got.startswith(b"HTTP/1.1 200"), "TLS port: PROXY v1, then TLS: %r" % got[:60])
    s = connect(tls, "127.0.0.2")
    s.sendall(v2("198.51.100.2"))
    t, got = closed_within(s, harness.WAIT)
    chk.ok(b"too many connections" in got,
           "TLS port: a PROXY address already connected is refused before TLS")
    s.close()
    # The line protocol over TLS behind the header: the log names the
    # client's address.
    s = connect(tls, "127.0.0.3")
    s.sendall(v2("198.51.100.7", 7070))
    s = ctx.wrap_socket(s, server_hostname="localhost")
    c = over(s)
    r = c.call("hello", name="pptls")
    chk.ok(r and r.get("ok"), "TLS line protocol behind a PROXY header: %r" % r)
    chk.ok(wait_log(srv, r"pptls logged in from 198\.51\.100\.7:7070"),
           "TLS: the log names the PROXY address")
    c.close()


def test_bad_flag(chk, build):
    p = subprocess.run([os.path.join(build, "tablerod"), "--proxy-from", "10.0.0.0/40",
                        "--db", ":memory:", "--port", "0"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=harness.WAIT)
    chk.eq(p.returncode, 2, "a bad --proxy-from exits 2")
    chk.ok(b"--proxy-from" in p.stderr, "and says why: %r" % p.stderr)


def main():
    a = harness.args()
    chk = Checks()
    tmp = tempfile.mkdtemp(prefix="tablero-proxy-")
    try:
        crt, key = make_cert(tmp)
        tls_args = ["--tls-port", "0", "--tls-cert", crt, "--tls-key", key]
    except (OSError, subprocess.CalledProcessError):
        tls_args = []  # no openssl: the TLS port is not tested
    srv = Server(a.build, extra=["--proxy-from", "127.0.0.2,127.0.0.3/32",
                                 "--max-per-address", "1", "--web-port", "0",
                                 "--web-dir", os.path.join(os.path.dirname(
                                     os.path.abspath(__file__)), "..", "..", "web")]
                 + tls_args)
    try:
        srv.start()
        chk.ok(wait_log(srv, r"PROXY protocol required from 127\.0\.0\.2,127\.0\.0\.3/32"),
               "the trusted sources are logged at start")
        web, tls = web_ports(srv)
        held = test_game_port(chk, srv)
        test_local(chk, srv)
        test_untrusted(chk, srv)
        test_malformed(chk, srv)
        test_web(chk, srv, web, tls if tls_args else None)
        for c in held:
            c.close()
        chk.eq(srv.stop(), 0, "tablerod exits 0 on SIGTERM")
    finally:
        srv.stop()
        os.unlink(srv.log.name)
        shutil.rmtree(tmp, ignore_errors=True)
    test_bad_flag(chk, a.build)
    chk.done()


if __name__ == "__main__":
    main()
