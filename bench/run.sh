#!/bin/sh
# run.sh: tablero's benchmarks, run by `make bench`. Prints the perft speed
# (leaves per second, the median of 3 runs) of Ataxx depth 7 and Amazons
# depth 2 from their start positions, and checks each leaf count against the
# published one, the bots' speed, depths and short ladders (bench/bots.c),
# and ping while bots think (bench/bots_ping.py). Exits non-zero when a
# count is wrong.
# Usage: sh bench/run.sh BUILD_DIR
BUILD=${1:-build}
RUNS=3
status=0

# median: the middle one of the numbers on standard input.
median() {
	sort -n | sed -n "$(((RUNS + 1) / 2))p"
}

# perft_speed GAME DEPTH WANT [-g]: run `perft -t` RUNS times and print the leaf
# count and the median leaves per second.
perft_speed() {
	game=$1
	depth=$2
	want=$3
	flag=${4:-}
	if ! "$BUILD/perft" "$game" 1 >/dev/null 2>&1; then
		echo "$game perft $depth: not available ($game is not built yet)"
		return
	fi
	speeds=
	i=0
	while [ $i -lt $RUNS ]; do
		out=$("$BUILD/perft" $flag -t "$game" "$depth" 2>&1)
		leaves=$(printf '%s\n' "$out" | grep -E '^[0-9]+$' | tail -n 1)
		speed=$(printf '%s\n' "$out" |
		    sed -n 's/.*, \([0-9]*\) leaves\/s$/\1/p')
		speeds="$speeds $speed"
		i=$((i + 1))
	done
	median=$(for s in $speeds; do echo "$s"; done | median)
	echo "$game perft $depth${flag:+ (generic $flag)}: $leaves leaves," \
	    "median $median leaves/s (runs:$speeds)"
	last_median=$median
	if [ "$leaves" != "$want" ]; then
		echo "$game perft $depth: WRONG COUNT, published $want"
		status=1
	fi
}

if [ ! -x "$BUILD/perft" ]; then
	echo "run.sh: no $BUILD/perft; run make first" >&2
	exit 1
fi
perft_speed ataxx 7 5023479496
perft_speed amazons 2 4307152

# The baseline, measured in this same run: the generic perft over the rules
# interface (copy-make, no bulk counting) against the game's own perft.
for spec in "ataxx 5 4752668" "amazons 2 4307152"; do
	set -- $spec
	perft_speed "$1" "$2" "$3"
	fast=$last_median
	perft_speed "$1" "$2" "$3" -g
	slow=$last_median
	if [ -n "$fast" ] && [ -n "$slow" ] && [ "$slow" -gt 0 ]; then
		echo "$1 perft $2: own perft is $(awk "BEGIN { printf \"%.1f\", $fast / $slow }")x the generic one"
	fi
done

# The bots: time per move, depth and nodes per second of each level from the
# start and a middle game; Stones' value; short ladders (time x SCALE).
# The full ladder (hours on two cores; times x0.1, 100 Ataxx and 20 Amazons
# games a pair):
#   for p in "1 random" "2 1" "3 2" "4 3" "5 4"; do
#     build/bots ladder ataxx $p 100 0.1; build/bots ladder amazons $p 20 0.1
#   done; build/bots ladder ataxx 5 old 100 1
if [ -x "$BUILD/bots" ]; then
	"$BUILD/bots" speed ataxx
	"$BUILD/bots" speed amazons
	"$BUILD/bots" stones | tail -n 1
	"$BUILD/bots" ladder ataxx 1 random 20 1 2>/dev/null
	"$BUILD/bots" ladder ataxx 2 1 20 0.1 2>/dev/null
	"$BUILD/bots" ladder ataxx 5 old 10 0.05 2>/dev/null
	"$BUILD/bots" ladder amazons 2 1 4 0.1 2>/dev/null
fi
# Another client's ping while two level-5 bot rooms think (target p99 under
# 0.5 ms: the search threads run at SCHED_IDLE).
if command -v python3 >/dev/null 2>&1; then
	python3 "$(dirname "$0")/bots_ping.py" --build "$BUILD" || status=1
fi

# The store: moves appended per second with synchronous NORMAL and FULL.
if [ -x "$BUILD/bench_store" ]; then
	"$BUILD/bench_store" || status=1
fi

# Under load: the real tablerod with 500 connections playing Ataxx in 250
# rooms, against its own ping baseline in the same run, with synchronous
# NORMAL and FULL (bench/load.py; about a minute).
if command -v python3 >/dev/null 2>&1; then
	python3 "$(dirname "$0")/load.py" --build "$BUILD" --pairs 250 \
	    --seconds 3 --runs 3 || status=1
else
	echo "load: not run (no python3)"
fi
exit $status
