#!/bin/sh
# cluster.sh: make bench's cluster rows (issue 19), run by bench/run.sh
# after its table (BENCH_CLUSTER=0 skips them). Ataxx moves in ROOMS rooms
# (bench/loadgen, as fast as answered) against a throwaway PostgreSQL
# (fsync on, its Unix socket) and Redis (contrib/clustertest.sh):
#   one node      one tablerod on PostgreSQL, no Redis;
#   two, local    two nodes, each room's players both on the room's node
#                 (loadgen -S split): no move is forwarded;
#   two, fwd      two nodes, each room made on node 1 and both its players
#                 on node 2 (loadgen -S far): every move is forwarded.
# Every move names its room (loadgen -R), in every row alike.
# Each row: moves/s, and the server CPU per move in microseconds of each
# node and of Redis, over loadgen's measured window (from
# /proc/PID/stat). The last lines are the forwarded/local ratio of the
# nodes' CPU per move (issue 19's target: at most 2x) and of the nodes'
# and Redis's together (issue 32's: at most 1.5x). Medians of RUNS runs,
# each against fresh nodes, a fresh database and an empty Redis.
# Pinning (issue 32): with at least CLUSTER_PINS cores, node 1, node 2,
# Redis, PostgreSQL (its postmaster, so every backend it forks), HAProxy
# and loadgen each get a core of their own (taskset, the cores listed in
# CLUSTER_CORES, default 0 to 5); with fewer, nothing is pinned and they
# share the cores, so the rates say little and the CPU per move is the
# figure to read (the table's heading says which).
# Usage: sh bench/cluster.sh BUILD_DIR
# BENCH_QUICK=1: one run of 1 s.
set -u
BUILD=${1:-build}
HERE=$(cd "$(dirname "$0")" && pwd)

if [ -z "${TABLERO_TEST_REDIS:-}" ]; then
	command -v redis-server >/dev/null 2>&1 || {
		echo "cluster.sh: no cluster rows: redis-server missing" \
		    "(sh contrib/deps.sh)" >&2
		exit 0
	}
	CLUSTERTEST_FSYNC=on CLUSTERTEST_SOCKET=1 exec sh \
	    "$HERE/../contrib/clustertest.sh" run sh "$0" "$BUILD"
fi

if [ -n "${BENCH_QUICK:-}" ] && [ "${BENCH_QUICK:-0}" != 0 ]; then
	RUNS=1
	SECS=1
else
	RUNS=3
	SECS=3
fi
# Rooms under load: enough to keep two nodes' loops busy, few enough for a
# 2-core machine to run loadgen, two nodes, Redis and PostgreSQL at once.
ROOMS=${CLUSTER_ROOMS:-100}
# Seconds loadgen may take beyond its load (setting up the rooms, its
# drain) before the run counts as failed: a node that cannot forward
# leaves it waiting for a join forever.
LOADGEN_SLACK=60
# Connections each node takes: the rooms' players and the bystander.
CLIENTS=$((2 * ROOMS + 16))
# The processes pinned a core each: node 1, node 2, Redis, PostgreSQL,
# HAProxy, loadgen.
CLUSTER_PINS=6
CORES=${CLUSTER_CORES:-0 1 2 3 4 5}
# shellcheck disable=SC2086 # the list is meant to split into words
set -- $CORES
if command -v taskset >/dev/null 2>&1 && [ "$(nproc)" -ge "$CLUSTER_PINS" ] &&
    [ $# -ge "$CLUSTER_PINS" ]; then
	PIN_N1=$1 PIN_N2=$2 PIN_REDIS=$3 PIN_PG=$4 PIN_HAPROXY=$5 PIN_LG=$6
	PINNED="each node, Redis, PostgreSQL, HAProxy and loadgen on a core of its own (cores $CORES)"
else
	PIN_N1='' PIN_N2='' PIN_REDIS='' PIN_PG='' PIN_HAPROXY='' PIN_LG=''
	PINNED="nothing pinned: nodes, Redis, PostgreSQL, HAProxy and loadgen share the cores (pinning needs $CLUSTER_PINS)"
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/tablero-cbench.XXXXXX")
PIDS=
DBS=0
status=0
trap 'stop_nodes; rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM

# pin CORE PID: PID and its threads on CORE (nothing when CORE is empty).
pin() {
	[ -n "$1" ] && [ -n "$2" ] && taskset -a -p -c "$1" "$2" >/dev/null
}

# pin_services: Redis, PostgreSQL's postmaster (its backends inherit the
# core) and HAProxy on their cores. The postmaster's PID is the first
# line of its socket's lock file; HAProxy's comes from its admin socket.
pin_services() {
	[ -n "$PIN_REDIS" ] || return 0
	pin "$PIN_REDIS" "$TABLERO_TEST_REDIS_PID"
	pin "$PIN_PG" "$(python3 "$HERE/cluster_pids.py" pg "$TABLERO_TEST_PG")"
	pin "$PIN_HAPROXY" "$(python3 "$HERE/cluster_pids.py" haproxy \
	    "${TABLERO_TEST_HAPROXY_SOCK:-}")"
}

# fresh_db: DB becomes the URL of a new empty database on the throwaway
# PostgreSQL.
fresh_db() {
	DBS=$((DBS + 1))
	psql -X -q "$TABLERO_TEST_PG" -c "CREATE DATABASE cbench$DBS" >&2 ||
		exit 1
	DB="${TABLERO_TEST_PG%/*}/cbench$DBS"
}

# redis_flush: empty the Redis (a fresh cluster for each run).
redis_flush() {
	python3 - "$TABLERO_TEST_REDIS" <<'EOF'
import socket, sys
h, p = sys.argv[1].rsplit(":", 1)
s = socket.create_connection((h, int(p)), 5)
s.sendall(b"*1\r\n$8\r\nFLUSHALL\r\n")
if not s.recv(64).startswith(b"+OK"):
    sys.exit("FLUSHALL failed")
EOF
}

# start_node N DB [--redis]: tablerod node N on a free port; sets
# NODE_PID and NODE_PORT; with --redis it joins the cluster first.
start_node() {
	log="$TMP/node$1.log"
	: >"$log"
	flags=
	[ "${3:-}" = --redis ] &&
		flags="--redis $TABLERO_TEST_REDIS --node n$1"
	pincmd=
	core=$PIN_N1
	[ "$1" = 2 ] && core=$PIN_N2
	[ -n "$core" ] && pincmd="taskset -c $core"
	# Every load client comes from 127.0.0.1: the per-address limits,
	# made for abusers, are lifted (as bench/run.sh does).
	# shellcheck disable=SC2086
	$pincmd "$BUILD/tablerod" --listen 127.0.0.1 --port 0 --db "$2" --sync full \
	    --rate 100000 --burst 100000 --max-clients "$CLIENTS" \
	    --max-per-address "$CLIENTS" --new-names 1000000 \
	    --games-per-hour 1000000 --log-level info $flags >>"$log" 2>&1 &
	NODE_PID=$!
	PIDS="$PIDS $NODE_PID"
	NODE_PORT=
	i=0
	while [ $i -lt 400 ]; do
		NODE_PORT=$(sed -n \
		    's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$log" |
		    head -n 1)
		if [ -n "$NODE_PORT" ] && { [ -z "$flags" ] ||
		    grep -q "cluster: ready node=n$1" "$log"; }; then
			return 0
		fi
		kill -0 "$NODE_PID" 2>/dev/null || break
		sleep 0.05
		i=$((i + 1))
	done
	echo "cluster.sh: node $1 did not start:" >&2
	tail -n 5 "$log" >&2
	exit 1
}

stop_nodes() {
	for p in $PIDS; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	PIDS=
}

# run_load NAME LOADGEN-ARGS...: one run, its key=value line appended to
# $TMP/NAME.runs; a failed run is said and makes the bench fail.
run_load() {
	name=$1
	shift
	lgpin=
	[ -n "$PIN_LG" ] && lgpin="taskset -c $PIN_LG"
	# shellcheck disable=SC2086 # lgpin is a command or nothing
	out=$(timeout $((SECS + LOADGEN_SLACK)) $lgpin "$BUILD/loadgen" -m moves \
	    -r "$ROOMS" -R -s "$SECS" "$@" 2>"$TMP/lg.err")
	rc=$?
	if [ $rc -ne 0 ] || ! printf '%s\n' "$out" |
	    grep -q ' errors=0 dropped=0' ||
	    printf '%s\n' "$out" | grep -q '^rate=0 '; then
		echo "cluster.sh: $name: FAILED: $out $(head -c 300 \
		    "$TMP/lg.err")" >&2
		status=1
	fi
	printf '%s\n' "$out" >>"$TMP/$name.runs"
}

# get NAME KEY: the median of KEY over NAME's runs ("-" if none).
get() {
	v=$(tr ' ' '\n' <"$TMP/$1.runs" 2>/dev/null | sed -n "s/^$2=//p" |
	    sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }')
	echo "${v:--}"
}

pin_services
r=0
while [ $r -lt $RUNS ]; do
	fresh_db
	start_node 1 "$DB"
	run_load one -p "$NODE_PORT" -P "$NODE_PID" -x $r
	stop_nodes
	for layout in split far; do
		fresh_db
		redis_flush
		start_node 1 "$DB" --redis
		p1=$NODE_PORT
		pid1=$NODE_PID
		start_node 2 "$DB" --redis
		run_load "$layout" -p "$p1" -q "$NODE_PORT" -S "$layout" \
		    -P "$pid1" -Q "$NODE_PID" -Q "$TABLERO_TEST_REDIS_PID" -x $r
		stop_nodes
	done
	r=$((r + 1))
done

cores=$(nproc)
printf '\ncluster rows: %d rooms, PostgreSQL (fsync on), %d cores, %s\n' \
    "$ROOMS" "$cores" "$PINNED"
printf '%-34s %10s %10s %10s %10s %10s\n' scenario "moves/s" "node1 us" \
    "node2 us" "nodes us" "redis us"
# sum A B: A + B, A when B is "-", "-" when A is.
sum() {
	awk -v a="$1" -v b="$2" 'BEGIN {
	    if (a == "-") print "-"; else if (b == "-") print a;
	    else printf "%.1f", a + b }'
}
row() {
	n1=$(get "$2" cpu_us)
	n2=$(get "$2" cpu2_us)
	rd=$(get "$2" cpu3_us)
	both=$(awk -v a="$n1" -v b="$n2" 'BEGIN {
	    if (a == "-") print "-"; else if (b == "-") print a;
	    else printf "%.1f", a + b }')
	printf '%-34s %10s %10s %10s %10s %10s\n' "$1" "$(get "$2" rate)" \
	    "$n1" "$n2" "$both" "$rd"
	eval "BOTH_$2=\$both"
	# shellcheck disable=SC2034 # read through the eval
	all=$(sum "$both" "$rd")
	eval "ALL_$2=\$all"
}
row "one node, PostgreSQL" one
row "two nodes, local rooms" split
row "two nodes, every move forwarded" far
# shellcheck disable=SC2154 # set by row's eval
awk -v f="$BOTH_far" -v l="$BOTH_split" 'BEGIN {
	if (f == "-" || l == "-" || f == 0 || l == 0) {
		print "issue 19: forwarded/local CPU per move: - (a row failed)"
		exit
	}
	r = f / l
	printf "issue 19: forwarded/local CPU per move (both nodes): %.2fx, target <= 2x: %s\n",
	    r, r <= 2 ? "met" : "missed"
}'
# shellcheck disable=SC2154 # set by row's eval
awk -v f="$ALL_far" -v l="$ALL_split" 'BEGIN {
	if (f == "-" || l == "-" || f == 0 || l == 0) {
		print "issue 32: forwarded move <= 1.5x local: - (a row failed)"
		exit
	}
	r = f / l
	printf "issue 32: forwarded move <= 1.5x local: %.2f %s (nodes and Redis: %.1f against %.1f us a move)\n",
	    r, r <= 1.5 ? "met" : "missed", f, l
}'
if [ "$cores" -lt 4 ]; then
	echo "issue 19: two nodes' moves/s against one node's not judged: $cores cores" \
	    "(the target of 1.7x needs a core per node and more for the rest)"
fi
exit $status
