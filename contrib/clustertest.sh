#!/bin/sh
# clustertest.sh: the services a tablero cluster needs, throwaway, for the
# cluster tests and bench: PostgreSQL (contrib/pgtest.sh), redis-server on a
# free loopback port with a temporary folder and no persistence, and HAProxy
# with contrib/haproxy-tablero.cfg (TCP mode, leastconn, a health check
# on ping's "ready", the PROXY protocol from CLUSTERTEST_PROXY_SOURCE, a
# third node through TABLERO_NODE3) on a free port
# in front of NODES node ports reserved here, which
# the tests start their tablerod nodes on. Everything started here is
# stopped by its PID (PostgreSQL by pg_ctl on its folder) when CMD ends,
# however it ends; nothing started by hand is touched.
#
# Usage:
#   sh contrib/clustertest.sh run CMD [ARG...]
#       start the three, run CMD with these set, stop them; exits with
#       CMD's status:
#         TABLERO_TEST_PG          PostgreSQL's URL (as pgtest.sh sets it)
#         TABLERO_TEST_REDIS       HOST:PORT of redis-server
#         TABLERO_TEST_REDIS_PID   its PID (the bench measures its CPU)
#         TABLERO_TEST_HAPROXY     HOST:PORT of HAProxy's front end
#         TABLERO_TEST_HAPROXY_SOCK  its admin socket (show stat)
#         TABLERO_TEST_HAPROXY_WEB  HOST:PORT of HAProxy's web front end
#         TABLERO_TEST_WEB_PORTS   the nodes' web ports (--web-port) behind it
#         TABLERO_TEST_NODE_PORTS  the NODES loopback ports behind HAProxy,
#                                  separated by spaces
#         TABLERO_TEST_PROXY_FROM  the address HAProxy connects from, with
#                                  a PROXY v2 header: the nodes behind it
#                                  take --proxy-from it
#         TABLERO_TEST_REDIS_BIN, TABLERO_TEST_HAPROXY_BIN  the programs,
#                                  for a test that starts its own
# CLUSTERTEST_FSYNC: PostgreSQL's fsync (default off: the tests kill
# tablerod and Redis, never PostgreSQL; the bench sets on).
# CLUSTERTEST_SOCKET=1: TABLERO_TEST_PG names PostgreSQL's Unix socket
# (pgtest.sh's PGTEST_SOCKET; the bench uses it, as run.sh's PG rows do).
set -eu

# The node ports HAProxy balances over: the tests run at most three nodes.
NODES=3
# Seconds to wait for Redis and HAProxy to answer on their ports.
CLUSTERTEST_WAIT=10
# HAProxy's health check period in the tests: a dead node leaves the
# rotation within two of them (fall 2), far inside the issue's 15 s.
CLUSTERTEST_CHECK_INTER=300ms
# The loopback address HAProxy connects to the nodes from (TABLERO_SOURCE),
# which the nodes behind it trust for the PROXY protocol (--proxy-from):
# an address of its own, so the tests' direct connections to a node (from
# 127.0.0.1 and others) stay plain ones.
CLUSTERTEST_PROXY_SOURCE=127.0.0.9

HERE=$(cd "$(dirname "$0")" && pwd)

die() {
	echo "clustertest.sh: $*" >&2
	exit 1
}

# free_ports N: N different loopback TCP ports free right now, outside
# the kernel's ephemeral range (ip_local_port_range). Nothing holds them
# until a node binds one, in a test minutes later: in that range any
# outgoing connection on the machine (a node's to PostgreSQL, a test's
# client) could take one meanwhile ("Address already in use"); outside
# it only an explicit bind can, and these are picked at random.
free_ports() {
	python3 - "$1" <<'EOF'
import random, socket, sys
try:
    with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
        lo, hi = (int(x) for x in f.read().split())
except (OSError, ValueError):
    lo, hi = 32768, 60999
pool = [p for p in range(10000 if lo > 20000 else 1024, 65536)
        if p < lo or p > hi]
out = []
for p in random.SystemRandom().sample(pool, min(len(pool), 1000)):
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", p))
        out.append(p)
    except OSError:
        pass
    finally:
        s.close()
    if len(out) == int(sys.argv[1]):
        break
else:
    sys.exit("clustertest.sh: no free ports outside the ephemeral range")
print(" ".join(map(str, out)))
EOF
}

# A loopback TCP port free right now (for a service that binds it at once).
free_port() {
	free_ports 1
}

# wait_port PORT PID: until PORT accepts a connection (PID still alive).
wait_port() {
	python3 - "$1" "$2" "$CLUSTERTEST_WAIT" <<'EOF'
import os, socket, sys, time
port, pid, wait = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
deadline = time.time() + wait
while time.time() < deadline:
    try:
        os.kill(pid, 0)
    except OSError:
        sys.exit(1)
    try:
        socket.create_connection(("127.0.0.1", port), 1).close()
        sys.exit(0)
    except OSError:
        time.sleep(0.05)
sys.exit(1)
EOF
}

want() {
	command -v "$1" >/dev/null 2>&1 ||
		die "$1 not found (install Debian's $2: sh contrib/deps.sh)"
}

# The PIDs and folders to clean up, filled as things start.
PG_DIR=
REDIS_PID=
HAPROXY_PID=
WORK=

cleanup() {
	[ -z "$HAPROXY_PID" ] || kill "$HAPROXY_PID" 2>/dev/null || true
	[ -z "$REDIS_PID" ] || kill "$REDIS_PID" 2>/dev/null || true
	[ -z "$HAPROXY_PID" ] || wait "$HAPROXY_PID" 2>/dev/null || true
	[ -z "$REDIS_PID" ] || wait "$REDIS_PID" 2>/dev/null || true
	[ -z "$PG_DIR" ] || sh "$HERE/pgtest.sh" stop "$PG_DIR" || true
	[ -z "$WORK" ] || rm -rf "$WORK"
}

start_redis() {
	port=$(free_port)
	mkdir -p "$WORK/redis"
	# No RDB snapshots, no append-only file: the cluster rebuilds what Redis
	# holds from the nodes and PostgreSQL (the tests check that it does).
	"$REDIS_BIN" --port "$port" --bind 127.0.0.1 --dir "$WORK/redis" \
	    --save "" --appendonly no --daemonize no \
	    --logfile "$WORK/redis/redis.log" >/dev/null 2>&1 &
	REDIS_PID=$!
	wait_port "$port" "$REDIS_PID" ||
		{ cat "$WORK/redis/redis.log" >&2; die "redis-server did not start"; }
	REDIS_ADDR=127.0.0.1:$port
}

start_haproxy() {
	# HAProxy's two front ends, then each node's port and web port
	# (--web-port), all different.
	# shellcheck disable=SC2046 # the ports, one word each
	set -- $(free_ports $((2 + 2 * NODES)))
	port=$1
	web_port=$2
	shift 2
	NODE_PORTS=
	WEB_PORTS=
	i=0
	while [ $i -lt $NODES ]; do
		i=$((i + 1))
		NODE_PORTS="$NODE_PORTS $1"
		WEB_PORTS="$WEB_PORTS $2"
		shift 2
	done
	NODE_PORTS=${NODE_PORTS# }
	WEB_PORTS=${WEB_PORTS# }
	# shellcheck disable=SC2086 # three words, three ports
	set -- $WEB_PORTS
	web_env="TABLERO_WEB_LISTEN=127.0.0.1:$web_port TABLERO_WEB1=127.0.0.1:$1"
	web_env="$web_env TABLERO_WEB2=127.0.0.1:$2 TABLERO_WEB3=127.0.0.1:$3"
	# shellcheck disable=SC2086 # three words, three ports
	set -- $NODE_PORTS
	# A second file adds HAProxy's admin socket, where the tests read
	# which nodes it has in the rotation (show stat).
	HAPROXY_SOCK=$WORK/haproxy.sock
	printf 'global\n    stats socket %s mode 600 level operator\n' \
	    "$HAPROXY_SOCK" >"$WORK/haproxy-stats.cfg"
	# shellcheck disable=SC2086 # web_env: assignments, one word each
	env $web_env TABLERO_LISTEN=127.0.0.1:$port TABLERO_NODE1=127.0.0.1:$1 \
	    TABLERO_NODE2=127.0.0.1:$2 TABLERO_NODE3=127.0.0.1:$3 \
	    TABLERO_CHECK_INTER=$CLUSTERTEST_CHECK_INTER \
	    TABLERO_SOURCE=$CLUSTERTEST_PROXY_SOURCE \
	    "$HAPROXY_BIN" -db -f "$HERE/haproxy-tablero.cfg" \
	    -f "$WORK/haproxy-stats.cfg" >"$WORK/haproxy.log" 2>&1 &
	HAPROXY_PID=$!
	wait_port "$port" "$HAPROXY_PID" ||
		{ cat "$WORK/haproxy.log" >&2; die "haproxy did not start"; }
	HAPROXY_ADDR=127.0.0.1:$port
	HAPROXY_WEB_ADDR=127.0.0.1:$web_port
}

case "${1:-}" in
run)
	shift
	[ $# -ge 1 ] || die "usage: clustertest.sh run CMD [ARG...]"
	want redis-server redis-server
	want psql postgresql-client
	REDIS_BIN=$(command -v redis-server)
	HAPROXY_BIN=$(command -v haproxy || echo /usr/sbin/haproxy)
	[ -x "$HAPROXY_BIN" ] || die "haproxy not found (sh contrib/deps.sh)"
	trap cleanup EXIT
	trap 'exit 130' INT TERM
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/tablero-cluster.XXXXXX")
	out=$(PGTEST_FSYNC=${CLUSTERTEST_FSYNC:-off} \
	    PGTEST_SOCKET=${CLUSTERTEST_SOCKET:-0} sh "$HERE/pgtest.sh" start)
	PG_DIR=${out%% *}
	PG_URL=${out#* }
	start_redis
	start_haproxy
	rc=0
	TABLERO_TEST_PG=$PG_URL TABLERO_TEST_REDIS=$REDIS_ADDR \
	    TABLERO_TEST_REDIS_PID=$REDIS_PID \
	    TABLERO_TEST_HAPROXY=$HAPROXY_ADDR \
	    TABLERO_TEST_HAPROXY_SOCK=$HAPROXY_SOCK \
	    TABLERO_TEST_NODE_PORTS=$NODE_PORTS \
	    TABLERO_TEST_WEB_PORTS=$WEB_PORTS \
	    TABLERO_TEST_HAPROXY_WEB=$HAPROXY_WEB_ADDR \
	    TABLERO_TEST_PROXY_FROM=$CLUSTERTEST_PROXY_SOURCE \
	    TABLERO_TEST_REDIS_BIN=$REDIS_BIN \
	    TABLERO_TEST_HAPROXY_BIN=$HAPROXY_BIN "$@" || rc=$?
	exit $rc
	;;
*)
	die "usage: clustertest.sh run CMD [ARG...]"
	;;
esac
