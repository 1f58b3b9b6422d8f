#!/bin/sh
# run.sh: tablero's benchmarks, run by `make bench`. Prints the perft speed
# (leaves per second, the median of 3 runs) of Ataxx depth 7 and Amazons
# depth 2 from their start positions, and checks each leaf count against the
# published one. Exits non-zero when a count is wrong.
# Usage: sh bench/run.sh BUILD_DIR
BUILD=${1:-build}
RUNS=3
status=0

# perft_speed GAME DEPTH WANT: run `perft -t` RUNS times and print the leaf
# count and the median leaves per second.
perft_speed() {
	game=$1
	depth=$2
	want=$3
	if ! "$BUILD/perft" "$game" 1 >/dev/null 2>&1; then
		echo "$game perft $depth: not available ($game is not built yet)"
		return
	fi
	speeds=
	i=0
	while [ $i -lt $RUNS ]; do
		out=$("$BUILD/perft" -t "$game" "$depth" 2>&1)
		leaves=$(printf '%s\n' "$out" | grep -E '^[0-9]+$' | tail -n 1)
		speed=$(printf '%s\n' "$out" |
		    sed -n 's/.*, \([0-9]*\) leaves\/s$/\1/p')
		speeds="$speeds $speed"
		i=$((i + 1))
	done
	median=$(for s in $speeds; do echo "$s"; done | sort -n |
	    sed -n "$(((RUNS + 1) / 2))p")
	echo "$game perft $depth: $leaves leaves, median $median leaves/s" \
	    "(runs:$speeds)"
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
exit $status
