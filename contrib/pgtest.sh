#!/bin/sh
# pgtest.sh: a throwaway PostgreSQL for tablero's tests and bench. initdb
# into a fresh temporary folder, pg_ctl starts it on a Unix socket in that
# folder and on a free loopback port, and it is stopped (pg_ctl stop on that
# folder's postmaster, nothing else) and deleted at the end. PostgreSQL
# refuses to run as root: as root the server runs as an unprivileged user
# (PGTEST_USER, else "postgres" when the Debian package made it, else
# "nobody") that owns the folder. Never touches a server started by hand.
#
# Usage:
#   sh contrib/pgtest.sh run CMD [ARG...]
#       start, run CMD with TABLERO_TEST_PG set to the server's URL, stop;
#       exits with CMD's status.
#   sh contrib/pgtest.sh start      prints "DIR URL" (the folder, the URL)
#   sh contrib/pgtest.sh stop DIR   stops the server in DIR and deletes DIR
#   sh contrib/pgtest.sh halt DIR   stops the server in DIR at once (as a
#                                   crash would), keeping DIR
#   sh contrib/pgtest.sh resume DIR starts it again, as it was started
#                                   (the fault tests: PostgreSQL away)
#
# The URL names the maintenance database "postgres" of a superuser
# "tablero" with trust authentication on loopback and the socket only.
# PGTEST_SOCKET=1: the URL names the Unix socket instead of the loopback
# port (less work per statement; the bench uses it).
# PGTEST_FSYNC=off turns fsync off (tests that kill tablerod, not
# PostgreSQL, lose nothing by it); the default keeps it on, as the bench
# needs for a fair comparison with SQLite's --sync full.
set -eu

# Ports tried before giving up: another process may take the free port
# found between the probe and the server's bind.
PGTEST_TRIES=5
# Seconds pg_ctl waits for the server to start or stop.
PGTEST_WAIT=60

die() {
	echo "pgtest.sh: $*" >&2
	exit 1
}

# The folder holding initdb and pg_ctl: the newest Debian version's, else
# the PATH's.
pgtest_bindir() {
	d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
	if [ -n "$d" ] && [ -x "$d/initdb" ]; then
		echo "$d"
		return
	fi
	p=$(command -v initdb 2>/dev/null) || die "initdb not found" \
	    "(install Debian's postgresql: sh contrib/deps.sh)"
	dirname "$p"
}

# The user the server runs as: ourselves unless we are root.
pgtest_user() {
	if [ "$(id -u)" != 0 ]; then
		id -un
	elif [ -n "${PGTEST_USER:-}" ]; then
		echo "$PGTEST_USER"
	elif id postgres >/dev/null 2>&1; then
		echo postgres
	else
		echo nobody
	fi
}

# as USER CMD...: run CMD as USER (directly when that is ourselves).
as() {
	u=$1
	shift
	if [ "$u" = "$(id -un)" ]; then
		"$@"
	elif command -v setpriv >/dev/null 2>&1; then
		setpriv --reuid="$u" --regid="$(id -g "$u")" --clear-groups \
		    env HOME="$DIR" "$@"
	else
		runuser -u "$u" -- env HOME="$DIR" "$@"
	fi
}

# A loopback TCP port free right now.
pgtest_port() {
	python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])'
}

pgtest_start() {
	bin=$(pgtest_bindir)
	user=$(pgtest_user)
	DIR=$(mktemp -d "${TMPDIR:-/tmp}/tablero-pg.XXXXXX")
	# The unprivileged user must reach the folder (mktemp makes it 0700).
	[ "$user" = "$(id -un)" ] || chown "$user" "$DIR"
	as "$user" "$bin/initdb" -D "$DIR/data" -U tablero --auth=trust \
	    -E UTF8 --locale=C.UTF-8 >"$DIR/initdb.log" 2>&1 ||
	    { cat "$DIR/initdb.log" >&2; rm -rf "$DIR"; die "initdb failed"; }
	fsync=${PGTEST_FSYNC:-on}
	i=0
	while [ $i -lt $PGTEST_TRIES ]; do
		i=$((i + 1))
		port=$(pgtest_port)
		opts="-c listen_addresses=127.0.0.1 -c port=$port \
		    -c unix_socket_directories=$DIR -c fsync=$fsync \
		    -c max_connections=200"
		if as "$user" "$bin/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" \
		    -w -t "$PGTEST_WAIT" -s -o "$opts" start >/dev/null 2>&1; then
			# resume starts it again with the same options
			printf '%s\n' "$opts" >"$DIR/pg_ctl.opts"
			host=127.0.0.1
			# The socket's folder as a URL host: its slashes encoded.
			[ "${PGTEST_SOCKET:-0}" = 0 ] ||
				host=$(printf '%s' "$DIR" | sed 's|/|%2F|g')
			echo "$DIR postgresql://tablero@$host:$port/postgres"
			return 0
		fi
	done
	cat "$DIR/server.log" >&2 || true
	rm -rf "$DIR"
	die "the server did not start on a free port ($PGTEST_TRIES tries)"
}

pgtest_stop() {
	DIR=$1
	[ -f "$DIR/data/PG_VERSION" ] || die "$DIR holds no server of ours"
	bin=$(pgtest_bindir)
	user=$(stat -c %U "$DIR/data")
	as "$user" "$bin/pg_ctl" -D "$DIR/data" -w -t "$PGTEST_WAIT" -s \
	    -m fast stop >/dev/null 2>&1 || true
	rm -rf "$DIR"
}

# pgtest_halt DIR: the server stopped at once (immediate: as a crash);
# pgtest_resume DIR: started again with the options it had.
pgtest_halt() {
	DIR=$1
	[ -f "$DIR/pg_ctl.opts" ] || die "$DIR holds no server of ours"
	bin=$(pgtest_bindir)
	user=$(stat -c %U "$DIR/data")
	as "$user" "$bin/pg_ctl" -D "$DIR/data" -w -t "$PGTEST_WAIT" -s \
	    -m immediate stop >/dev/null 2>&1
}

pgtest_resume() {
	DIR=$1
	[ -f "$DIR/pg_ctl.opts" ] || die "$DIR holds no server of ours"
	bin=$(pgtest_bindir)
	user=$(stat -c %U "$DIR/data")
	as "$user" "$bin/pg_ctl" -D "$DIR/data" -l "$DIR/server.log" -w \
	    -t "$PGTEST_WAIT" -s -o "$(cat "$DIR/pg_ctl.opts")" start \
	    >/dev/null 2>&1
}

case "${1:-}" in
start)
	pgtest_start
	;;
stop)
	[ $# -eq 2 ] || die "usage: pgtest.sh stop DIR"
	pgtest_stop "$2"
	;;
halt | resume)
	[ $# -eq 2 ] || die "usage: pgtest.sh $1 DIR"
	"pgtest_$1" "$2"
	;;
run)
	shift
	[ $# -ge 1 ] || die "usage: pgtest.sh run CMD [ARG...]"
	out=$(pgtest_start)
	dir=${out%% *}
	url=${out#* }
	trap 'pgtest_stop "$dir"' EXIT
	trap 'exit 130' INT TERM
	rc=0
	TABLERO_TEST_PG=$url "$@" || rc=$?
	exit $rc
	;;
*)
	die "usage: pgtest.sh run CMD... | start | stop DIR | halt DIR | resume DIR"
	;;
esac
