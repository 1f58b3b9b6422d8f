"""test_web_flood.py: a WebSocket ping flood cannot grow the server.

Issue 30, finding 1: one client sending 125-byte pings and never reading
grew the server from 14 MB to 2 GB in 20 s (1.3 GB in 10 s over wss),
because each ping's pong was queued outside the output caps. Here a
client floods pings (up to FLOOD_BYTES, for at most FLOOD_SEC) and never
reads, over ws:// and then over wss://; the server's resident memory
(VmRSS) may grow by GROWTH_MAX_KIB at most and its CPU time by CPU_MAX
seconds, the flood stalls in the flooder's own socket (the server reads
pings at 5 a second, which the log says), and a bystander on the TCP
port is answered meanwhile. Pings sent faster than one a second are
answered by one pong a second, for the latest ping, not by a pong each.
"""

import os
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
from web_lib import WS, cpu_sec, frame, rss_kib, web_ports  # noqa: E402

# The most the flooder sends, and for how long: far more than the growth
# allowed, small enough not to exhaust a test machine when a server
# keeps it all.
FLOOD_BYTES = 256 * 1024 * 1024
FLOOD_SEC = 5
# The server's CPU seconds allowed over the flood: reading five pings a
# second costs nothing; a server that reads them all is busy throughout.
CPU_MAX = 1.0
# Growth of the server's memory allowed over the flood: its buffers for
# one connection are tens of KiB; allocator noise is less than this.
GROWTH_MAX_KIB = 32 * 1024
# Pings in the burst of the pong interval check.
BURST = 5


def flood(sock, seconds, limit):
    """Send 125-byte pings on sock without ever reading, for at most
    seconds or limit bytes, or until the server closes; bytes sent."""
    one = frame(b"p" * 125, opcode=9)
    chunk = one * (65536 // len(one))
    sent, off = 0, 0
    sock.setblocking(False)
    end = time.time() + seconds
    while time.time() < end and sent < limit:
        try:
            n = sock.send(chunk[off:])
        except (BlockingIOError, ssl.SSLWantWriteError,
                ssl.SSLWantReadError):
            time.sleep(0.005)
            continue
        except OSError:
            break  # the server closed it
        sent += n
        off = (off + n) % len(chunk)
    sock.setblocking(True)
    return sent


def check_flood(chk, srv, port, what, wrap=None):
    """One flooder on port (wrapped in TLS by wrap): bounded memory and
    CPU, the flood stalls in the flooder's socket, bystander served."""
    by = Client(srv.port)
    is_ok(chk, by.call("ping"), "%s: the bystander is answered before" % what)
    w = WS(port, wrap=wrap, rcvbuf=4096, origin="%s://127.0.0.1:%d"
           % ("https" if wrap else "http", port))
    if not chk.ok(w.head.startswith("HTTP/1.1 101"), "%s: upgraded" % what):
        return
    before = rss_kib(srv.proc.pid)
    cpu0 = cpu_sec(srv.proc.pid)
    sent = flood(w.s, FLOOD_SEC, FLOOD_BYTES)
    grew = rss_kib(srv.proc.pid) - before
    cpu = cpu_sec(srv.proc.pid) - cpu0
    print("%s: %d KiB of pings taken in %d s; the server grew by %d KiB "
          "and used %.2f s of CPU" % (what, sent // 1024, FLOOD_SEC, grew,
                                      cpu), flush=True)
    chk.ok(grew <= GROWTH_MAX_KIB,
           "%s: the server grew by %d KiB (at most %d) for %d KiB of pings"
           % (what, grew, GROWTH_MAX_KIB, sent // 1024))
    chk.ok(sent < FLOOD_BYTES // 4, "%s: the flood stalls in the flooder's "
           "socket (%d KiB taken)" % (what, sent // 1024))
    chk.ok(cpu <= CPU_MAX, "%s: %.2f s of CPU over the flood (at most %.1f)"
           % (what, cpu, CPU_MAX))
    chk.ok("pings and pongs a second" in srv.logtext(),
           "%s: the log says the flooder is read at the rate" % what)
    is_ok(chk, by.call("ping"), "%s: the bystander is answered during the "
          "flood" % what)
    w.close()
    by.close()


def check_pong_interval(chk, port):
    """A ping, its pong, then BURST pings at once: one pong for them
    all, for the latest, once the interval since the first pong has
    passed."""
    w = WS(port)
    w.frame()  # the welcome
    w.send(b"first", opcode=9)
    op, data = w.frame()
    chk.eq((op, data), (10, b"first"), "a ping gets its pong")
    w.s.sendall(b"".join(frame(b"p%d" % i, opcode=9) for i in range(BURST)))
    pongs = []
    end = time.time() + 3.0  # three times the interval
    while time.time() < end:
        op, data = w.frame(timeout=max(0.01, end - time.time()))
        if op == 10:
            pongs.append(data)
    chk.eq(pongs, [b"p%d" % (BURST - 1)], "a burst of %d pings right after "
           "a pong: one pong, for the latest" % BURST)
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
    tmp = tempfile.mkdtemp(prefix="tablero-flood-")
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
                check_flood(chk, srv, port, "ws")
                check_pong_interval(chk, port)
            if tls and chk.ok(tls_port, "the TLS port is logged"):
                ctx = ssl.create_default_context(cafile=crt)
                check_flood(chk, srv, tls_port, "wss", wrap=lambda s:
                            ctx.wrap_socket(s, server_hostname="localhost"))
        finally:
            harness.stopped_cleanly(chk, srv)
            os.unlink(srv.log.name)
        chk.ok(tls, "openssl (the command) makes the TLS certificate")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    chk.done()


if __name__ == "__main__":
    main()
