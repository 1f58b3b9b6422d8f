#!/bin/sh
# pg.sh: every black-box test that stores anything, against PostgreSQL: a
# throwaway server (contrib/pgtest.sh) that the harness gives each tablerod
# a database of (tests/blackbox/harness.py, TABLERO_TEST_PG). Ends with
# run.sh's "N passed, M failed"; exits non-zero when anything failed.
# Usage: sh tests/pg.sh [BUILD_DIR]
set -eu
BUILD=${1:-build}
cd "$(dirname "$0")/.."
# The scripts whose servers store: persistence (kill -9, SIGTERM, data
# files, --copy-db, the bounded disk of test_persist_bounded), store
# faults (in the middle of a group too), finished games, progress,
# identities (tokens, case-folded names and their migration, pruning),
# tournaments (their rows, restarts in the middle of a round), the
# protocol suites, bots resuming after a restart, blocks and the
# operators' bans, mutes and log, the rating's decision stored at a
# game's start, the paged reads of finished games (read off the loop),
# passwords.
TESTS=$(cd tests/blackbox && echo test_persist_*.py test_badclient_store.py \
    test_badclient_group.py test_badclient_midgroup.py \
    test_badclient_private.py test_badclient_abuse.py \
    test_newcomer_archive.py test_newcomer_solo.py test_protocol_*.py \
    test_client_reconnect.py test_client_token.py test_bots_fair.py \
    test_workers.py test_ratings.py test_seeks.py test_tourney.py \
    test_social_block.py test_moderate.py test_farm_ratings.py \
    test_reads_bounded.py test_reads_offloop.py test_tourney_expire.py \
    test_accounts.py \
    test_club_message.py test_club_history.py)
# PostgreSQL's own fsync is not under test (the tests kill tablerod, never
# PostgreSQL): off keeps the suite quick. The backend's own unit test too.
# shellcheck disable=SC2086 # the list is meant to split into words
PGTEST_FSYNC=off exec sh contrib/pgtest.sh run \
    sh tests/run.sh "$BUILD" 0 test_pgstore test_reads $TESTS
