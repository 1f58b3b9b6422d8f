#!/bin/sh
# cluster.sh: the cluster tests (tests/cluster/test_*.py: several tablerod
# nodes sharing PostgreSQL and Redis behind HAProxy, issue 19), against the
# throwaway services of contrib/clustertest.sh. Ends with run.sh's
# "N passed, M failed"; exits non-zero when anything failed.
# Usage: sh tests/cluster.sh [BUILD_DIR [TEST...]]
# (TEST: file names in tests/cluster; all of them by default.)
set -eu
BUILD=${1:-build}
[ $# -ge 1 ] && shift
cd "$(dirname "$0")/.."
if [ $# -ge 1 ]; then
	TESTS=$(for t in "$@"; do printf 'tests/cluster/%s\n' "${t##*/}"; done)
else
	TESTS=$(ls tests/cluster/test_*.py)
fi
# The browser tests are not cluster tests (run.sh would run them too).
# One test at a time: they share clustertest.sh's node ports behind
# HAProxy, its Redis (emptied by each) and its PostgreSQL.
# shellcheck disable=SC2086 # the list is meant to split into words
TABLERO_WEB=0 TEST_JOBS=1 exec sh contrib/clustertest.sh run \
    sh tests/run.sh "$BUILD" 0 $TESTS
