"""test_net_accept.py: out of descriptors, every listener pauses.

Issue 30, finding 3: on EMFILE the web and TLS listeners were never
paused: 550,000 log lines a second and a spinning core. Here the
server's open-files limit is lowered while it runs (prlimit) to two more
than it has open, and connections wait on its TCP, web and TLS ports:
over WATCH seconds its log may gain at most LOG_MAX lines about accept
(one per pause, rate limited), its CPU time may grow by at most CPU_MAX
seconds, and once the limit is raised again the waiting connections are
served (the listeners resume by themselves).

Then the descriptor budget at start: with 64 open files, three ports on
one address leave 64 - 32 reserved - 3 listeners = 29 clients, which the
log says; 29 connections over the three ports (web and TLS ones that
have not finished their request or handshake count) are taken, the next
one is told server_full, and no accept ever fails.
"""

import os
import resource
import shutil
import socket
import ssl
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
from harness import Checks, Client, Server, is_error, is_ok  # noqa: E402
from web_lib import cpu_sec, fds, web_ports  # noqa: E402

# Seconds the server runs out of descriptors with connections waiting.
WATCH = 3.0
# Log lines about accept allowed in WATCH: a pause a second per listener
# at most, and the abuse log's burst.
LOG_MAX = 40
# CPU seconds allowed in WATCH: a paused server does nothing.
CPU_MAX = 1.0
# Connections left waiting on each port.
WAITING = 8


def make_cert(d):
    key, crt = os.path.join(d, "s.key"), os.path.join(d, "s.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048",
                    "-nodes", "-keyout", key, "-out", crt, "-days", "2",
                    "-subj", "/CN=localhost", "-addext",
                    "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                   check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return crt, key


def accept_lines(srv):
    return sum(1 for line in srv.logtext().splitlines()
               if "accept" in line and "accepted" not in line)


def test_emfile(chk, build, crt, key):
    srv = Server(build, extra=["--web-port", "0", "--tls-port", "0",
                               "--tls-cert", crt, "--tls-key", key,
                               "--log-level", "info"]).start()
    try:
        port, tls_port = web_ports(srv)
        if not chk.ok(port and tls_port, "the web and TLS ports"):
            return
        pid = srv.proc.pid
        limits = resource.prlimit(pid, resource.RLIMIT_NOFILE)
        resource.prlimit(pid, resource.RLIMIT_NOFILE,
                         (fds(pid) + 2, limits[1]))
        lines0 = accept_lines(srv)
        cpu0 = cpu_sec(pid)
        socks = []
        for p in (srv.port, port, tls_port):
            for _ in range(WAITING):
                socks.append(socket.create_connection(("127.0.0.1", p),
                                                      timeout=harness.WAIT))
        page = socket.create_connection(("127.0.0.1", port),
                                        timeout=harness.WAIT)
        page.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close"
                     b"\r\n\r\n")
        time.sleep(WATCH)
        lines = accept_lines(srv) - lines0
        cpu = cpu_sec(pid) - cpu0
        print("out of descriptors for %.0f s: %d log lines about accept, "
              "%.2f s of CPU" % (WATCH, lines, cpu), flush=True)
        chk.ok(lines <= LOG_MAX, "%d lines about accept in %.0f s (at most "
               "%d)" % (lines, WATCH, LOG_MAX))
        chk.ok(cpu <= CPU_MAX, "%.2f s of CPU in %.0f s (at most %.1f): "
               "no listener spins" % (cpu, WATCH, CPU_MAX))
        for s in socks:
            s.close()
        resource.prlimit(pid, resource.RLIMIT_NOFILE, limits)
        page.settimeout(harness.WAIT)
        got = b""
        try:
            while True:
                b = page.recv(65536)
                if not b:
                    break
                got += b
        except OSError:
            pass
        page.close()
        chk.ok(got.startswith(b"HTTP/1.1 200"), "the listeners resumed: a "
               "page asked for meanwhile is served: %r" % got[:40])
        c = Client(srv.port)
        is_ok(chk, c.call("ping"), "a new TCP client is served")
        c.close()
    finally:
        harness.stopped_cleanly(chk, srv)
        os.unlink(srv.log.name)


def low_nofile():
    """In the server's child: 64 open files at most, soft and hard."""
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))


def test_budget(chk, build, crt, key):
    srv = Server(build, extra=["--web-port", "0", "--tls-port", "0",
                               "--tls-cert", crt, "--tls-key", key],
                 preexec=low_nofile).start()
    try:
        port, tls_port = web_ports(srv)
        if not chk.ok(port and tls_port, "the web and TLS ports"):
            return
        chk.ok("open files are limited to 64: at most 29 clients" in
               srv.logtext(), "the log says how many clients fit beside "
               "3 listeners: %r" % srv.logtext()[-600:])
        held = []
        # web connections in the middle of a request, TLS ones before
        # their handshake, and line clients
        for _ in range(10):
            s = socket.create_connection(("127.0.0.1", port),
                                         timeout=harness.WAIT)
            s.sendall(b"GET / HT")
            held.append(s)
        for _ in range(10):
            held.append(socket.create_connection(("127.0.0.1", tls_port),
                                                 timeout=harness.WAIT))
        time.sleep(0.5)
        cs = [Client(srv.port) for _ in range(9)]
        chk.ok(all(c.welcome.get("event") == "welcome" for c in cs),
               "29 connections over the three ports are taken")
        d = Client(srv.port, welcome=False)
        m = d.json()
        is_error(chk, m, "server_full", "the 30th connection")
        d.close()
        ctx = ssl.create_default_context(cafile=crt)
        try:
            t = ctx.wrap_socket(socket.create_connection(
                ("127.0.0.1", tls_port), timeout=harness.WAIT),
                server_hostname="localhost")
            got = t.recv(4096)
            t.close()
        except (OSError, ssl.SSLError):
            got = b""
        chk.ok(b"server_full" in got or got == b"",
               "a 30th over TLS is refused too: %r" % got[:60])
        chk.ok("accept:" not in srv.logtext(), "no accept failed")
        is_ok(chk, cs[0].call("ping"), "the clients are still served")
        for c in cs:
            c.close()
        for s in held:
            s.close()
    finally:
        harness.stopped_cleanly(chk, srv)
        os.unlink(srv.log.name)


def main():
    a = harness.args()
    chk = Checks()
    if not chk.ok(shutil.which("openssl"), "openssl (the command) makes "
                  "the TLS certificate"):
        chk.done()
    tmp = tempfile.mkdtemp(prefix="tablero-accept-")
    try:
        crt, key = make_cert(tmp)
        harness.run_parts(chk, [test_emfile, test_budget], a.build, crt, key)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    chk.done()


if __name__ == "__main__":
    main()
