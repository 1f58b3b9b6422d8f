#!/bin/sh
# match.sh: self-play matches in parallel, for docs/ENGINES.md.
#
#   sh bench/match.sh run BOTS SECONDS SCALE OUT SPEC...
#   sh bench/match.sh sum OUT
#
# run: for each SPEC "name:jobs:A:B:weightsA[:weightsB]" starts `jobs`
# processes that play `BOTS ladder ataxx A B 2 SCALE FIRST` (one random
# opening, both colours) again and again with fresh openings until SECONDS
# have passed, each pair's line appended to OUT/name.N; weights (w0,w1,...,
# see ai/ataxx_engine.c's enum ax_weight) go to BOTS_WEIGHTS and
# BOTS_WEIGHTS_B, "-" for the engine's own. Every process plays its own
# openings (job N of every match plays openings N*100000+1, +2, ...), so
# the matches play the same openings job for job.
# sum: per match, the games, A's score and the 95% margin of it from the
# spread of the pairs' scores (each opening pair is one sample).
set -eu

run() {
	bots=$1 secs=$2 scale=$3 out=$4
	shift 4
	mkdir -p "$out"
	end=$(($(date +%s) + secs))
	for spec in "$@"; do
		IFS=: read -r name jobs a b wa wb <<EOF
$spec
EOF
		j=0
		while [ "$j" -lt "$jobs" ]; do
			(
				first=$((j * 100000 + 1))
				[ "$wa" = - ] && wa=
				[ "${wb:--}" = - ] && wb=
				while [ "$(date +%s)" -lt "$end" ]; do
					BOTS_WEIGHTS=$wa BOTS_WEIGHTS_B=$wb \
					    "$bots" ladder ataxx "$a" "$b" 2 \
					    "$scale" "$first" 2>/dev/null \
					    >>"$out/$name.$j" || true
					first=$((first + 1))
				done
			) &
			j=$((j + 1))
		done
	done
	wait
}

sum() {
	for f in "$1"/*.0; do
		name=${f##*/}
		name=${name%.0}
		cat "$1/$name".* | awk -v name="$name" '
			/ladder/ { for (i = 1; i <= NF; i++) if ($i == "/") {
			    s = $(i - 1) / 2; n++; t += s; q += s * s } }
			END { if (n < 2) { print name ": too few games"; exit }
			    m = t / n; sd = sqrt((q / n - m * m) / (n - 1))
			    printf "%-14s %4d games  %5.1f%% +- %4.1f\n",
			        name, 2 * n, 100 * m, 196 * sd }'
	done
}

case "${1:-}" in
run)
	shift
	run "$@"
	;;
sum)
	sum "$2"
	;;
*)
	echo "usage: match.sh run BOTS SECONDS SCALE OUT SPEC... | sum OUT" >&2
	exit 2
	;;
esac
