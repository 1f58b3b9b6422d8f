#!/bin/sh
# check-layers.sh: tablerod's folders call downwards only. Of the objects
# given (each OBJDIR/FOLDER/NAME.o: the Makefile names today's, so an old
# object left in the build folder by a move is not read), every symbol an
# object leaves undefined must be defined in its own folder, in a folder
# named before it in LAYERS, or in none of the objects given (a
# library's: libevent, rules/, protocol/...). A call against the order is
# printed with the caller, the callee and both folders; the exit status
# is then 1. The headers each object was built from (its .d file) are
# held to the same order: a file includes its own folder's header and
# those below, so that a call up the layers does not even compile. An
# object in a folder missing from LAYERS fails too, so that a new folder
# gets its place on purpose.
# Usage: check-layers.sh "LAYER..." OBJDIR OBJECT... (layers lowest first:
# the Makefile's SERVER_LAYERS; docs/HACKING.md says why each sits where
# it does)
set -eu
[ $# -ge 3 ] || { echo "usage: $0 \"LAYER...\" OBJDIR OBJECT..." >&2; exit 2; }
layers=$1
objdir=${2%/}
shift 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
bad=0

# rank FOLDER: its place in layers (1 is the lowest), 0 when it has none.
rank() {
	r=0 i=0
	for l in $layers; do
		i=$((i + 1))
		[ "$l" = "$1" ] && r=$i
	done
	echo $r
}

# defs: "symbol rank folder/object", uses: the same for undefined ones;
# includes: "rank header folder/object".
: >"$work/defs"
: >"$work/uses"
: >"$work/includes"
for o in "$@"; do
	rel=${o#"$objdir"/}
	folder=${rel%%/*}
	r=$(rank "$folder")
	if [ "$rel" = "$o" ] || [ "$r" -eq 0 ]; then
		echo "check-layers: $o is in no folder of \"$layers\" under $objdir: add its folder to SERVER_LAYERS"
		bad=1
		continue
	fi
	nm -g --defined-only "$o" | awk -v r="$r" -v o="$rel" \
	    'NF >= 3 { print $3, r, o }' >>"$work/defs"
	nm -u "$o" | awk -v r="$r" -v o="$rel" '{ print $NF, r, o }' \
	    >>"$work/uses"
	[ -f "${o%.o}.d" ] || continue
	tr ' \\' '\n\n' <"${o%.o}.d" |
	    sed -n 's|^\(server/\([a-z]*\)/[^/]*\.h\):*$|\2 \1|p' | sort -u |
	    while read -r hfolder header; do
		    echo "$(rank "$hfolder") $header $rel $r"
	    done >>"$work/includes"
done

# A header of a folder above the object's.
while read -r hrank header who r; do
	if [ "$hrank" -gt "$r" ]; then
		echo "check-layers: $who is built with $header:" \
		    "${who%%/*}/ may not include from ${header#server/} above it" \
		    "(order, lowest first: $layers)"
		bad=1
	fi
done <"$work/includes"

# A symbol defined in a folder above the caller's: symbol, use rank,
# caller, def rank, callee.
sort -k1,1 "$work/defs" >"$work/defs.s"
sort -k1,1 "$work/uses" >"$work/uses.s"
join -j 1 "$work/uses.s" "$work/defs.s" | awk -v order="$layers" '
	$4 > $2 {
		split($3, a, "/"); split($5, b, "/")
		printf "check-layers: %s calls %s, defined in %s: %s/ may not " \
		    "call up into %s/ (order, lowest first: %s)\n",
		    $3, $1, $5, a[1], b[1], order
		n++
	}
	END { exit n > 0 }' || bad=1

[ $bad -eq 0 ] || exit 1
echo "check-layers: $# objects, $(wc -l <"$work/uses") undefined symbols, none against the order ($layers)"
