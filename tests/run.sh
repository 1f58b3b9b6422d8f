#!/bin/sh
# run.sh: run every test of tablero (unit binaries, black-box tests against
# the real server, fuzz targets briefly) and end with one line
# "N passed, M failed". Exits non-zero when anything failed.
# Usage: run.sh BUILD_DIR [FUZZ_SECONDS [BLACKBOX_TEST...]]
# Naming black-box tests (file names in tests/blackbox, or paths from the
# repository's root: make cluster-test) runs only those:
# no unit tests but those named too (test_NAME, in BUILD/tests), no fuzzing
# (make tsan-test, make pg-test).
BUILD=${1:-build}
FUZZ_SECONDS=${2:-4}
if [ $# -ge 2 ]; then shift 2; else shift $#; fi
ONLY="$*"
# No single test binary or script may run longer than this.
LIMIT=600

passed=0
failed=0

# tally NAME RC OUTPUT: add a test's "N passed, M failed" line to the totals;
# a test that crashed or printed no such line counts as one failure.
tally() {
	name=$1
	rc=$2
	out=$3
	last=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed' | tail -n 1)
	p=$(printf '%s' "$last" | sed -n 's/^\([0-9]*\) passed.*/\1/p')
	f=$(printf '%s' "$last" | sed -n 's/^[0-9]* passed, \([0-9]*\) failed.*/\1/p')
	[ -n "$p" ] || p=0
	[ -n "$f" ] || f=0
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
	fi
	if [ "$f" -ne 0 ]; then
		printf '%s\n' "$out" | grep -v '^ok ' | tail -n 40
	fi
	printf '%-32s %s passed, %s failed\n' "$name" "$p" "$f"
	passed=$((passed + p))
	failed=$((failed + f))
}

for t in "$BUILD"/tests/test_*; do
	[ -x "$t" ] || continue
	if [ -n "$ONLY" ]; then
		case " $ONLY " in
		*" ${t##*/} "*) ;;
		*) continue ;;
		esac
	fi
	out=$(timeout "$LIMIT" "$t" 2>&1)
	tally "unit/${t##*/}" $? "$out"
done

BLACKBOX=tests/blackbox/test_*.py
if [ -n "$ONLY" ]; then
	BLACKBOX=$(for n in $ONLY; do
		case $n in
		*/*.py) printf '%s\n' "$n" ;; # a path: tests/cluster/...
		*.py) printf 'tests/blackbox/%s\n' "$n" ;;
		esac
	done)
	FUZZ_SECONDS=0
fi
for t in $BLACKBOX; do
	[ -f "$t" ] || { [ -z "$ONLY" ] || tally "blackbox/${t##*/}" 1 "no such test"; continue; }
	out=$(timeout "$LIMIT" python3 "$t" --build "$BUILD" 2>&1)
	tally "blackbox/${t##*/}" $? "$out"
done

# The browser client's tests: Debian's Chromium driven by npm's
# playwright-core, installed (the driver only, no browser) into the
# folder the tests own. TABLERO_WEB=0 skips them.
if [ "${TABLERO_WEB:-1}" = 1 ]; then
	if ! command -v node >/dev/null 2>&1 || ! command -v chromium >/dev/null 2>&1; then
		tally "web" 1 "node or chromium missing (contrib/deps.sh installs them; TABLERO_WEB=0 skips)"
	else
		[ -d web/tests/node_modules/playwright-core ] ||
			(cd web/tests && npm ci --no-audit --no-fund --loglevel=error >/dev/null 2>&1) ||
			(cd web/tests && npm install --no-audit --no-fund --loglevel=error >/dev/null 2>&1)
		for t in web/tests/test_*.mjs; do
			[ -f "$t" ] || continue
			out=$(timeout "$LIMIT" node "$t" --build "$BUILD" 2>&1)
			tally "web/${t##*/}" $? "$out"
		done
	fi
fi

if [ "$FUZZ_SECONDS" != 0 ]; then
	for t in "$BUILD"/fuzz/fuzz_*; do
		[ -x "$t" ] || continue
		name=${t##*/}
		work=$(mktemp -d)
		[ -d "tests/fuzz/corpus/$name" ] && cp -R "tests/fuzz/corpus/$name/." "$work/"
		out=$(timeout "$LIMIT" "$t" -max_total_time="$FUZZ_SECONDS" \
		    -rss_limit_mb=2048 -timeout=10 -artifact_prefix="$work/" "$work" 2>&1)
		rc=$?
		rm -rf "$work"
		if [ $rc -eq 0 ]; then
			tally "fuzz/$name" 0 "1 passed, 0 failed"
		else
			tally "fuzz/$name" $rc "$(printf '%s\n' "$out" | tail -n 30)"
		fi
	done
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
