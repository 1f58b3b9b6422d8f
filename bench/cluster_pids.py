"""cluster_pids.py: the PID of a throwaway service of
contrib/clustertest.sh, for bench/cluster.sh to pin it to a core.

  python3 bench/cluster_pids.py pg URL        PostgreSQL's postmaster: the
      first line of the lock file beside its Unix socket (URL names the
      socket's folder, as CLUSTERTEST_SOCKET=1 makes it)
  python3 bench/cluster_pids.py haproxy SOCK  HAProxy: "Pid:" of its admin
      socket's "show info"

Prints nothing when it cannot tell (a TCP URL, no socket): that service
stays unpinned.
"""

import socket
import sys
import urllib.parse


def pg(url):
    """The postmaster's PID from URL's socket lock file, or None."""
    u = urllib.parse.urlparse(url)
    q = urllib.parse.parse_qs(u.query)
    host = urllib.parse.unquote(u.netloc.rsplit("@", 1)[-1].rsplit(":", 1)[0])
    port = u.port or int(q.get("port", ["5432"])[0])
    if not host.startswith("/"):
        host = q.get("host", [""])[0]
    try:
        with open("%s/.s.PGSQL.%d.lock" % (host, port)) as f:
            return f.readline().strip()
    except (OSError, ValueError):
        return None


def haproxy(path):
    """HAProxy's PID from its admin socket, or None."""
    try:
        s = socket.socket(socket.AF_UNIX)
        s.settimeout(5)
        s.connect(path)
        s.sendall(b"show info\n")
        data = b""
        while True:
            b = s.recv(4096)
            if not b:
                break
            data += b
    except OSError:
        return None
    for line in data.decode(errors="replace").splitlines():
        if line.startswith("Pid:"):
            return line.split(":", 1)[1].strip()
    return None


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("pg", "haproxy"):
        sys.exit("usage: cluster_pids.py pg URL | haproxy SOCK")
    pid = (pg if sys.argv[1] == "pg" else haproxy)(sys.argv[2])
    if pid:
        print(pid)


if __name__ == "__main__":
    main()
