"""web_lib.py: what the black-box tests of the web and TLS ports share.

The ports from the server's log, a WebSocket client whose frames are made
by hand (masked, any opcode, sent without waiting for anything back), and
what a test reads of the server process from /proc: its resident memory,
its open descriptors, its CPU time. Standard library only.
"""

import base64
import os
import re
import socket
import struct
import time

import harness


def web_ports(srv):
    """The web and TLS ports from srv's log (None for one not asked
    for), waiting (bounded) for each port srv was given."""
    want_web = "--web-port" in srv.extra
    want_tls = "--tls-port" in srv.extra
    deadline = time.time() + harness.WAIT
    while True:
        text = srv.logtext()
        web = re.search(r"web and websocket on 127\.0\.0\.1:(\d+)", text)
        tls = re.search(r"web and websocket over tls on 127\.0\.0\.1:(\d+)",
                        text)
        if ((web or not want_web) and (tls or not want_tls)) or \
                time.time() > deadline:
            break
        time.sleep(0.02)
    return (int(web.group(1)) if web else None,
            int(tls.group(1)) if tls else None)


def rss_kib(pid):
    """The resident memory of process pid in KiB (VmRSS)."""
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def fds(pid):
    """How many descriptors process pid has open."""
    return len(os.listdir("/proc/%d/fd" % pid))


def cpu_sec(pid):
    """The CPU seconds process pid has used (user and system)."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def frame(payload, opcode=1, fin=True):
    """One client frame: masked, as RFC 6455 asks of a client."""
    if isinstance(payload, str):
        payload = payload.encode()
    n = len(payload)
    hdr = bytes([(0x80 if fin else 0) | opcode])
    if n < 126:
        hdr += bytes([0x80 | n])
    elif n < 65536:
        hdr += bytes([0x80 | 126]) + struct.pack(">H", n)
    else:
        hdr += bytes([0x80 | 127]) + struct.pack(">Q", n)
    mask = os.urandom(4)
    return hdr + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


class WS:
    """A WebSocket client on 127.0.0.1:port: the handshake, then frames
    out (send) and in (frame)."""

    def __init__(self, port, origin=None, wrap=None, rcvbuf=None):
        self.s = socket.socket()
        if rcvbuf:
            self.s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.s.settimeout(harness.WAIT)
        self.s.connect(("127.0.0.1", port))
        if wrap:
            self.s = wrap(self.s)
        key = base64.b64encode(os.urandom(16)).decode()
        origin = origin or "http://127.0.0.1:%d" % port
        self.s.sendall(("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                        "Sec-WebSocket-Version: 13\r\n"
                        "Sec-WebSocket-Key: %s\r\nOrigin: %s\r\n\r\n"
                        % (port, key, origin)).encode())
        self.buf = b""
        while b"\r\n\r\n" not in self.buf:
            b = self.s.recv(4096)
            if not b:
                break
            self.buf += b
        head, _, self.buf = self.buf.partition(b"\r\n\r\n")
        self.head = head.decode("latin1")

    def send(self, payload, opcode=1):
        self.s.sendall(frame(payload, opcode))

    def _need(self, n):
        while len(self.buf) < n:
            b = self.s.recv(65536)
            if not b:
                raise ConnectionError("closed")
            self.buf += b

    def frame(self, timeout=harness.WAIT):
        """(opcode, payload) of the next frame, or (None, None) at the
        end or when nothing comes within timeout."""
        self.s.settimeout(timeout)
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

    def close(self):
        try:
            self.s.close()
        except OSError:
            pass


def closed_by_peer(sock, wait):
    """Read (and drop) what sock gets for at most wait seconds: True
    once the peer closed it (end of file or reset)."""
    end = time.time() + wait
    while time.time() < end:
        sock.settimeout(max(0.01, min(0.2, end - time.time())))
        try:
            b = sock.recv(65536)
        except socket.timeout:
            continue
        except OSError:
            return True
        if not b:
            return True
    return False
