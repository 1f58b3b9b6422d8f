"""test_cluster_flags.py: the Redis flags are checked before anything
starts (issue 29: AUTH and Sentinel).

A malformed --redis (HOST:PORT or a redis:// URL), a missing password
file, --redis-sentinel without --redis-master (or --redis-master, or a
password file, without either) make tablerod exit with status 2 and say
which flag and why, before it opens its store, and never print the
password a URL holds; --node-link wants an address and a port, or off,
and goes with --redis.
"""

import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cluster_lib  # noqa: E402
from cluster_lib import WAIT  # noqa: E402

# A store URL nothing listens on: were it opened, the error would be its.
DB = "postgresql://tablero@127.0.0.1:1/none"

CASES = [
    (["--redis", "redis://u:s3cret@"], "--redis: a URL"),
    (["--redis", "redis://:s3cret@127.0.0.1:6379/1"], "--redis: a URL"),
    (["--redis", "redis://u%2:s3cret@h"], "--redis: a URL"),
    (["--redis", "host:0"], "--redis host:0: HOST:PORT expected"),
    (["--redis", "127.0.0.1:6379", "--redis-password-file",
      "/nonexistent/redis.pw"], "--redis-password-file /nonexistent"),
    (["--redis-sentinel", "127.0.0.1:26379"],
     "--redis-sentinel needs --redis-master"),
    (["--redis-sentinel", "127.0.0.1:x"], "--redis-sentinel 127.0.0.1:x"),
    (["--redis", "127.0.0.1:6379", "--redis-master", "m"],
     "--redis-master goes with --redis-sentinel"),
    (["--redis", "127.0.0.1:6379", "--node-link", "here"],
     "--node-link: want HOST:PORT"),
    (["--redis", "127.0.0.1:6379", "--node-link", "127.0.0.1:99999"],
     "--node-link: want HOST:PORT"),
    (["--node-link", "127.0.0.1:7000"],
     "--node-link go with --redis"),
]


def run(ck, a):
    binary = os.path.join(a.build, "tablerod")
    for flags, said in CASES:
        p = subprocess.run([binary, "--port", "0", "--db", DB] + flags,
                           capture_output=True, text=True, timeout=WAIT)
        out = p.stdout + p.stderr
        ck.eq(p.returncode, 2, "%r: exit status 2" % flags)
        ck.ok(said in out, "%r: says %r: %r" % (flags, said, out[-300:]))
        ck.ok("s3cret" not in out, "%r: the password is not shown" % flags)


if __name__ == "__main__":
    cluster_lib.main(run)
