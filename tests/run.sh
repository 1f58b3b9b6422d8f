#!/bin/sh
# run.sh: run every test of tablero (unit binaries, black-box tests against
# the real server, the browser tests, fuzz targets briefly), TEST_JOBS at
# once (default 6), and end with one line "N passed, M failed". Exits
# non-zero when anything failed. The runner is tests/run.py (Python's
# standard library), which says more.
# Usage: run.sh BUILD_DIR [FUZZ_SECONDS [TEST...]]
# Naming tests (file names in tests/blackbox, or paths from the
# repository's root: make cluster-test; unit binaries test_NAME in
# BUILD/tests) runs only those, without fuzzing (make tsan-test, make
# pg-test). A test that exits 0 without a check ("0 passed, 0 failed",
# or no such line) counts as one failure: it ran no check.
exec python3 "$(dirname "$0")/run.py" "$@"
