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

# want_file PATH DEBIAN_PACKAGE
want_file() {
	[ -e "$1" ] || missing="$missing $2"
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
# A cluster node (--redis) talks to Redis through hiredis, whose libevent
# adapter runs on the server's loop; the cluster tests start redis-server.
want_pc hiredis libhiredis-dev
want_cmd redis-server redis-server
# The cluster tests run three sentinels (Redis Sentinel, Redis's own
# failover) in front of a master and a replica.
want_cmd redis-sentinel redis-sentinel
# The PostgreSQL tests and bench start a throwaway server of their own
# (contrib/pgtest.sh): initdb and pg_ctl, which Debian keeps off the PATH.
[ -n "$(ls /usr/lib/postgresql/*/bin/initdb 2>/dev/null)" ] ||
	command -v initdb >/dev/null 2>&1 || missing="$missing postgresql"
# The cluster tests (contrib/clustertest.sh) put HAProxy in front of the
# nodes, as contrib/haproxy-tablero.cfg does in production.
[ -x /usr/sbin/haproxy ] || command -v haproxy >/dev/null 2>&1 ||
	missing="$missing haproxy"
# TLS for the web and TLS ports (libevent's bufferevent_openssl), and
# SHA-1 and base64 for the WebSocket handshake.
want_pc libevent_openssl libevent-dev
want_pc libssl libssl-dev
# The TLS tests make their certificates with the openssl command, and
# test contrib/nginx-tablero.conf with nginx.
want_cmd openssl openssl
if [ "${TABLERO_WEB:-1}" = 1 ]; then
	want_file /usr/sbin/nginx nginx-light
fi
# HTTP request parsing for the web port (Node's http-parser) and the
# WebSocket framing of bench/loadgen's clients (wslay; the server frames
# its own); Debian ships no .pc for them.
want_file /usr/include/wslay/wslay.h libwslay-dev
want_file /usr/include/http_parser.h libhttp-parser-dev
# The client's line editing and history (readline-compatible callbacks).
want_pc libedit libedit-dev
# The client's black-box tests drive it in a terminal.
want_cmd tmux tmux
# The browser tests: Debian's Chromium, driven by npm's playwright-core
# (which downloads no browser); TABLERO_WEB=0 skips them.
if [ "${TABLERO_WEB:-1}" = 1 ]; then
	want_cmd chromium chromium
	want_cmd node nodejs
	want_cmd npm npm
fi
# The web page's rules (js/rules.wasm): rules/ built to WebAssembly by
# clang, linked by wasm-ld against wasi-libc, with compiler-rt's builtins
# for wasm32 (the C library's printf needs them).
want_cmd clang clang
want_cmd wasm-ld lld
want_file /usr/lib/wasm32-wasi/libc.a wasi-libc
[ -n "$(ls /usr/lib/llvm-*/lib/clang/*/lib/wasi/libclang_rt.builtins-wasm32.a 2>/dev/null)" ] ||
	missing="$missing libclang-rt-dev-wasm32"
if [ "${TABLERO_FUZZ:-1}" = 1 ]; then
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
