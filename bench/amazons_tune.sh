#!/bin/sh
# amazons_tune.sh: the Amazons self-play matches of docs/ENGINES.md
# ("Amazons: self-play"), one after another under nice -n 19 (the build
# machine is shared), each a row of the table there.
#
#   sh bench/amazons_tune.sh BOTS GAMES SCALE [NAME=WEIGHTS[@OPPONENT]]...
#
# Each variant is level 5 with WEIGHTS (BOTS_WEIGHTS: every entry of enum
# am_weight in ai/amazons_engine.c, in its order) against level 5 with the
# engine's own weights, or against OPPONENT (`prev`: the previous release's
# level 5, which needs BOTS = build/bots-prev, see `make bots-prev`; `-`
# for the defaults). GAMES games (half the openings, both colours each),
# every move given SCALE times level 5's 2 s, from opening FIRST (the
# environment's, else 1: a second match with FIRST=101 plays 100 other
# openings, to add to the first when it is close). Without variants: the
# variants of the last round against the defaults, as the table lists
# them (docs/ENGINES.md also lists the matches against `prev` and main).
set -eu

if [ $# -lt 3 ]; then
	echo "usage: amazons_tune.sh BOTS GAMES SCALE [NAME=WEIGHTS[@OPP]]..." >&2
	exit 2
fi
bots=$1 games=$2 scale=$3 first=${FIRST:-1}
shift 3
# queen, king, tie, mobility, queen moves kept, width, root width, search
# switches, restricted amazons, decided regions
if [ $# -eq 0 ]; then
	set -- \
	    "restricted-8=10,4,2,3,8,10,40,15,8,0" \
	    "decided-14=10,4,2,3,8,10,40,15,0,14" \
	    "wider=10,4,2,3,12,14,40,15,0,0" \
	    "search-off=10,4,2,3,8,10,40,0,0,0"
fi
for v in "$@"; do
	name=${v%%=*}
	rest=${v#*=}
	w=${rest%@*}
	opp=5
	case $rest in
	*@*) opp=${rest##*@} ;;
	esac
	[ "$w" = - ] && w=
	line=$(BOTS_WEIGHTS=$w nice -n 19 "$bots" ladder amazons 5 "$opp" \
	    "$games" "$scale" "$first" 2>/dev/null)
	# "... 5 vs 5 (time x0.02): 104.0 / 200 = 52.0% +- 6.9 (longest ..."
	echo "$line" | awk -v name="$name" -v w="${w:-defaults}" -v opp="$opp" '{
	    for (i = 1; i <= NF; i++) if ($i == "+-") {
	        printf "| %s | %s | %s | %s | %s |\n", name, w,
	            opp == "5" ? "defaults" : opp, $(i - 1), $(i + 1) } }'
	echo "$line" >&2
done
