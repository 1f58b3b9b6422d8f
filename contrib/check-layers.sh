#!/bin/sh
# check-layers.sh: tablerod's folders call downwards only. For each folder
# of OBJDIR (build/obj/server), every symbol its objects leave undefined
# must be defined in the same folder, in a folder named before it, or in
# none of OBJDIR's objects (a library's: libevent, rules/, protocol/...).
# A call against the order is printed with the caller, the callee and
# both folders; the exit status is then 1. The headers each object was
# built from (its .d file) are held to the same order: a file includes
# its own folder's header and those below, so that a call up the layers
# does not even compile. A folder of OBJDIR missing from the order fails
# too, so a new folder gets its place on purpose.
# Usage: check-layers.sh OBJDIR LAYER... (lowest first; the Makefile's
# SERVER_LAYERS, docs/HACKING.md says why each sits where it does)
set -eu
[ $# -ge 2 ] || { echo "usage: $0 OBJDIR LAYER..." >&2; exit 2; }
objdir=$1
shift
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
bad=0
for d in "$objdir"/*/; do
	d=${d%/}
	d=${d##*/}
	case " $* " in
	*" $d "*) ;;
	*)
		echo "check-layers: $objdir/$d is in no layer: add it to SERVER_LAYERS"
		bad=1
		;;
	esac
done
# defs: "symbol rank folder/object", uses: the same for undefined ones.
rank=0
for layer in "$@"; do
	rank=$((rank + 1))
	for o in "$objdir/$layer"/*.o; do
		[ -f "$o" ] || continue
		name=$layer/${o##*/}
		nm -g --defined-only "$o" | awk -v r=$rank -v o="$name" \
		    'NF >= 3 { print $3, r, o }' >>"$work/defs"
		nm -u "$o" | awk -v r=$rank -v o="$name" \
		    '{ print $NF, r, o }' >>"$work/uses"
		[ -f "${o%.o}.d" ] && tr ' \\' '\n\n' <"${o%.o}.d" |
		    sed -n "s|^\(server/\([a-z]*\)/[^/]*\.h\):*$|\2 \1 $name|p" |
		    sort -u >>"$work/includes"
	done
done
# The headers: folder, header, including object.
touch "$work/includes"
while read -r folder header who; do
	mine=${who%%/*}
	r_mine=0 r_theirs=0 i=0
	for layer in "$@"; do
		i=$((i + 1))
		[ "$layer" = "$mine" ] && r_mine=$i
		[ "$layer" = "$folder" ] && r_theirs=$i
	done
	if [ "$r_theirs" -gt "$r_mine" ]; then
		echo "check-layers: $who is built with $header:" \
		    "$mine/ may not include from $folder/ above it (order: $*)"
		bad=1
	fi
done <"$work/includes"
[ -s "$work/uses" ] || { echo "check-layers: no objects in $objdir" >&2; exit 2; }
sort -k1,1 "$work/defs" >"$work/defs.s"
sort -k1,1 "$work/uses" >"$work/uses.s"
# symbol, use rank, caller, def rank, callee
join -j 1 "$work/uses.s" "$work/defs.s" | awk -v order="$*" '
	$4 > $2 {
		split($3, a, "/"); split($5, b, "/")
		printf "check-layers: %s calls %s, defined in %s: %s/ may not " \
		    "call up into %s/ (order, lowest first: %s)\n",
		    $3, $1, $5, a[1], b[1], order
		n++
	}
	END { exit n > 0 }' || bad=1
if [ $bad -ne 0 ]; then
	exit 1
fi
echo "check-layers: $(wc -l <"$work/uses") undefined symbols in $# folders, none against the order ($*)"
