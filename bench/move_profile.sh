#!/bin/sh
# move_profile.sh: where a move's CPU goes (docs/SCALING.md, issue 32's
# profile). Starts BUILD/tablerod --db :memory: under `perf record
# --call-graph dwarf` (Debian: linux-perf), pinned to core 0 as run.sh
# pins it, drives it with BUILD/loadgen -m moves -r ROOMS on core 1 for
# SECS seconds (perf starts after the set-up), and prints loadgen's line
# and the share of the samples per step of the move path
# (bench/move_steps.py). Not part of `make bench`: perf is not everywhere,
# and its data are large (about 60 MB for 5 s).
#
# Usage: sh bench/move_profile.sh BUILD [ROOMS [SECS [OUTDIR]]]
# LOADGEN_ARGS: more of loadgen's flags, e.g. "-e" for lean events (the
# form the clients ask).
B=${1:-build}
R=${2:-10}
S=${3:-5}
O=${4:-$(mktemp -d "${TMPDIR:-/tmp}/tablero-profile.XXXXXX")}
HERE=$(dirname "$0")
# Samples a second, and the delay before recording (the set-up), in ms.
FREQ=2500
DELAY_MS=1500
command -v perf >/dev/null || { echo "move_profile.sh: no perf" >&2; exit 1; }
mkdir -p "$O"
log=$O/server.log
: >"$log"
perf record --call-graph dwarf,32768 -F $FREQ -D $DELAY_MS \
    -o "$O/perf.$R.data" -- taskset -c 0 "$B/tablerod" --listen 127.0.0.1 \
    --port 0 --db :memory: --rate 100000 --burst 100000 \
    --max-clients 5000 --max-per-address 5000 --new-names 1000000 \
    --games-per-hour 1000000 --bot-delay 0 --log-level info \
    >>"$log" 2>&1 &
PERF=$!
i=0
PORT=
while [ -z "$PORT" ] && [ $i -lt 200 ]; do
	PORT=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$log" |
	    head -n 1)
	[ -n "$PORT" ] || sleep 0.05
	i=$((i + 1))
done
SRV=$(pgrep -P $PERF)
if [ -z "$PORT" ] || [ -z "$SRV" ]; then
	echo "move_profile.sh: tablerod did not start: $(tail -n 3 "$log")" >&2
	kill $PERF 2>/dev/null
	exit 1
fi
# shellcheck disable=SC2086
taskset -c 1 "$B/loadgen" -m moves -p "$PORT" -P "$SRV" -s "$S" -r "$R" \
    ${LOADGEN_ARGS:-}
kill -TERM "$SRV"
wait $PERF 2>/dev/null
python3 "$HERE/move_steps.py" "$O/perf.$R.data"
echo "perf data: $O/perf.$R.data"
