#!/bin/sh
# deps.sh: install the Debian packages tablero needs to build and test, but
# only those pkg-config (or the PATH) cannot already find. Called by the
# Makefile before every build so a fresh machine needs nothing by hand.
set -eu

missing=""

# want_pc PKGCONFIG_NAME DEBIAN_PACKAGE
want_pc() {
	pkg-config --exists "$1" 2>/dev/null || missing="$missing $2"
}

# want_cmd COMMAND DEBIAN_PACKAGE
want_cmd() {
	command -v "$1" >/dev/null 2>&1 || missing="$missing $2"
}

want_cmd pkg-config pkg-config
want_cmd cc gcc
want_cmd make make
want_cmd python3 python3
want_pc libevent libevent-dev
want_pc libcjson libcjson-dev
want_pc sqlite3 libsqlite3-dev
# Random tokens and their hashes (never hand-written crypto).
want_pc libsodium libsodium-dev
# The PostgreSQL backend (--db postgresql://...) links libpq.
want_pc libpq libpq-dev
# The PostgreSQL tests and bench start a throwaway server of their own
# (contrib/pgtest.sh): initdb and pg_ctl, which Debian keeps off the PATH.
[ -n "$(ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null)" ] ||
	command -v initdb >/dev/null 2>&1 || missing="$missing postgresql"
# The client's line editing and history (readline-compatible callbacks).
want_pc libedit libedit-dev
# The client's black-box tests drive it in a terminal.
want_cmd tmux tmux
if [ "${TABLERO_FUZZ:-1}" = 1 ]; then
	want_cmd clang clang
	# libFuzzer and the sanitizer runtimes for clang.
	[ -n "$(ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a 2>/dev/null)" ] ||
		missing="$missing libclang-rt-dev"
fi

[ -z "$missing" ] && exit 0

echo "deps.sh: installing:$missing" >&2
if [ "$(id -u)" != 0 ]; then
	SUDO=sudo
else
	SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >&2
# shellcheck disable=SC2086 # the list is meant to split into words
$SUDO apt-get install -y -qq --no-install-recommends $missing >&2
