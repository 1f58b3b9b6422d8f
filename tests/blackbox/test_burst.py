"""test_burst.py: a burst of connects loses none. 1000 clients connect at
once while tablerod is held still (SIGSTOP), so every connection has to wait
in the kernel's listen queue; with the server's default --backlog (the
system's largest) the kernel queues them all, and once the server goes on
every one gets its welcome. With a small backlog (the old 128) the kernel
drops the extra handshakes, and a client may believe it is connected and
never hear from the server. Loopback only; every wait is bounded.
"""

import os
import resource
import selectors
import signal
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import WAIT, Checks, Server, args, login  # noqa: E402

# Clients in the burst.
BURST = 1000
# Open files this test needs beyond the burst's sockets.
FD_SPARE = 64
# Seconds the connects may take while the server is stopped: the kernel
# completes a queued handshake at once, so this only bounds a failure.
CONNECT_WAIT = 3.0
SOMAXCONN = "/proc/sys/net/core/somaxconn"
NETSTAT = "/proc/net/netstat"


def read_int(path):
    try:
        with open(path) as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def listen_drops():
    """The kernel's ListenOverflows + ListenDrops counters (this network
    namespace), or None when they cannot be read."""
    try:
        with open(NETSTAT) as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    for names, values in zip(lines, lines[1:]):
        if names.startswith("TcpExt:") and values.startswith("TcpExt:"):
            d = dict(zip(names.split()[1:], values.split()[1:]))
            if "ListenOverflows" in d and "ListenDrops" in d:
                return int(d["ListenOverflows"]) + int(d["ListenDrops"])
    return None


def raise_fd_limit(need):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < need:
        if hard != resource.RLIM_INFINITY and hard < need:
            return False
        resource.setrlimit(resource.RLIMIT_NOFILE, (need, hard))
    return True


def connect_all(port, n):
    """n non-blocking connects; (sockets, how many completed within
    CONNECT_WAIT)."""
    socks = []
    sel = selectors.DefaultSelector()
    for _ in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        s.connect_ex(("127.0.0.1", port))
        socks.append(s)
        sel.register(s, selectors.EVENT_WRITE)
    done = 0
    deadline = time.time() + CONNECT_WAIT
    while done < n and time.time() < deadline:
        for key, _ in sel.select(0.1):
            sel.unregister(key.fileobj)
            if key.fileobj.getsockopt(socket.SOL_SOCKET,
                                      socket.SO_ERROR) == 0:
                done += 1
    sel.close()
    return socks, done


def welcomes(socks):
    """How many sockets received a whole welcome line within 2 * WAIT."""
    sel = selectors.DefaultSelector()
    bufs = {}
    for s in socks:
        sel.register(s, selectors.EVENT_READ)
        bufs[s] = b""
    got = 0
    deadline = time.time() + 2 * WAIT
    while bufs and time.time() < deadline:
        for key, _ in sel.select(0.1):
            s = key.fileobj
            try:
                chunk = s.recv(4096)
            except OSError:
                chunk = b""
            bufs[s] += chunk
            if b"\n" in bufs[s] or not chunk:
                if bufs[s].startswith(b'{"event":"welcome"'):
                    got += 1
                sel.unregister(s)
                del bufs[s]
    sel.close()
    return got


def main():
    a = args()
    chk = Checks()
    n = BURST
    most = read_int(SOMAXCONN)
    if most is not None and most < n:
        print("note: net.core.somaxconn is %d here: a burst of %d instead"
              % (most, most))
        n = most
    if not raise_fd_limit(n + FD_SPARE):
        print("note: the open-files hard limit is below %d" % (n + FD_SPARE))
        chk.ok(False, "open files for the burst")
        chk.done()
    # the burst all comes from 127.0.0.1: one address may hold them all
    with Server(a.build, extra=["--max-clients", str(n + FD_SPARE),
                                "--max-per-address", str(n + FD_SPARE),
                                "--log-level", "info"]) as srv:
        before = listen_drops()
        srv.proc.send_signal(signal.SIGSTOP)
        try:
            socks, connected = connect_all(srv.port, n)
        finally:
            srv.proc.send_signal(signal.SIGCONT)
        chk.eq(connected, n, "connects completed while the server was "
               "stopped (queued by the kernel)")
        got = welcomes(socks)
        chk.eq(got, n, "clients of the burst that got their welcome")
        after = listen_drops()
        if before is not None and after is not None:
            # Informational only: the counters are the whole network
            # namespace's, and other servers may overflow meanwhile.
            print("note: the kernel dropped %d handshakes meanwhile "
                  "(ListenOverflows + ListenDrops, every listener)"
                  % (after - before))
        for s in socks:
            s.close()
        c = login(srv.port, "after")
        rep = c.call("ping")
        chk.ok(rep is not None and rep.get("ok") is True,
               "a fresh client is served after the burst: %r" % (rep,))
        c.close()
        chk.ok(srv.proc.poll() is None, "the server is still running")
    chk.done()


if __name__ == "__main__":
    main()
