/*
 * sqlite.c: the SQLite backend of the store (store.h). One data file in
 * WAL mode; the schema is created and migrated here (PRAGMA user_version
 * counts the migrations applied); every statement is prepared once at
 * open. The writer commits a group of ops in one transaction; readers are
 * their own connections, which WAL lets read while the writer writes.
 * Errors are never silent: -1 and a message naming the operation, kept
 * for errmsg.
 */
#include <errno.h>
#include <stdarg.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "server/base/base.h"
#include "server/store/fault.h"
#include "server/store/schema.h"
#include "server/store/store.h"

/* WAL pages (of 4 KiB) past which the store thread checkpoints between
 * groups: SQLite's automatic checkpoint would run at 1000 pages inside a
 * commit; a larger WAL means fewer, longer checkpoints, none of them
 * holding up a commit that output waits for. */
#define STORE_CHECKPOINT_PAGES 4000
/* Room for one error message: an operation, a key and SQLite's text. */
#define STORE_ERRLEN 512
/* How long a write waits for a lock another process holds (a backup, the
 * sqlite3 shell) before it fails; short because the event loop waits. */
#define STORE_BUSY_MS 2000
/* SQLite's page cache in KiB (PRAGMA cache_size, negative: KiB). The
 * default 2 MB no longer holds the moves B-tree of 10,000 rooms (the
 * per-move cost of a commit rose from 5.7 to 9.2 us from 10 to 10,000
 * rooms); 64 MiB holds it with room to spare, and is only used as the
 * data file grows. */
#define STORE_CACHE_KIB 65536
/* The longest data file path whose directory open errors describe. */
#define STORE_PATHLEN 1024
/* Marks the file as tablero's (PRAGMA application_id): "tblr". */
#define STORE_APP_ID 0x74626c72
/* Digits of a room number "r<digits>" that still fit a long long. */
#define STORE_ROOM_DIGITS 18

/* The schema (schema.c, one description for both backends): the
 * schema version of a file is the number of migrations applied. */
#define STORE_SCHEMA_VERSION store_schema_version

/* The columns of a finished game, in the order store_game_row reads. */
#define STORE_GAME_COLS                                                        \
	"id, room, game_no, game, options, seats, result, private,"            \
	" clock_initial_ms, clock_increment_ms, started_ms, ended_ms,"         \
	" nmoves, moves, start, position"

/* The same for a list: a summary, without the moves and positions,
 * which may be hundreds of kilobytes a game and a list never shows. */
#define STORE_GAME_SUMMARY_COLS                                                \
	"id, room, game_no, game, options, seats, result, private,"            \
	" clock_initial_ms, clock_increment_ms, started_ms, ended_ms,"         \
	" nmoves, '', '', ''"
/* A page of finished games: those before the cursor (?1 ended_ms, ?2
 * id), newest first, ?3 of them; its order is the index's (ended_ms,
 * then the rowid), so nothing is sorted. */
#define STORE_GAMES_PAGE                                                       \
	" AND (ended_ms, id) < (?1, ?2) ORDER BY ended_ms DESC, id DESC"       \
	" LIMIT ?3"
/* SQLite's virtual machine steps between two looks at the clock while
 * a bounded read runs (STORE_READ_MS): a few microseconds. */
#define STORE_PROGRESS_STEPS 1000

/* A record's columns, in struct store_record's order. */
#define STORE_RECORD_COLS "name, game, solved, best, tries, updated_ms"

/* A rating's columns, in struct store_rating's order. */
#define STORE_RATING_COLS                                                      \
	"name, pool, rating, rd, vol, wins, draws, losses, updated_ms"

/* The prepared statements, one per operation. */
enum sqlite_stmt {
	ST_IDENT_PUT,
	ST_ROOM_SAVE,
	ST_ROOM_DELETE,
	ST_MOVE_PUT,
	ST_MOVE_TRUNCATE,
	ST_LOAD_ROOMS,
	ST_LOAD_MOVES,
	ST_ROOM_MAX,
	ST_PRUNE,
	ST_PROGRESS_PUT,
	ST_PROGRESS_GET,
	ST_GAME_PUT,
	ST_GAME_REPLACED,
	ST_GAMES_RECENT,
	ST_GAMES_RECENT_GAME,
	ST_GAMES_OF0,
	ST_GAMES_OF1,
	ST_GAME_LAST,
	ST_IDENT_FIND,
	ST_IDENT_PLAYED,
	ST_IDENT_SEEN,
	ST_IDENT_PRUNE,
	ST_GAMES_PRUNE,
	ST_RATING_ONCE,
	ST_RATING_PUT,
	ST_RATINGS_OF,
	ST_RATINGS_TOP,
	ST_RECORD_PUT,
	ST_RECORDS_OF,
	ST_RECORDS_TOP,
	ST_BEGIN,
	ST_COMMIT,
	ST_COUNT
};

static const char *const sqlite_sql[ST_COUNT] = {
    [ST_IDENT_PUT] = "INSERT INTO identities (name, token_hash, created_ms,"
                     " folded, played, seen_ms)"
                     " VALUES (?1, ?2, ?3, lower(?1), 0, ?3)"
                     " ON CONFLICT (name)"
                     " DO UPDATE SET token_hash = excluded.token_hash",
    /* An upsert, not INSERT OR REPLACE: a replace deletes the row first
     * and the cascade would take the room's moves with it. */
    [ST_ROOM_SAVE] =
        "INSERT INTO rooms (id, number, game, options, seats, status,"
        " result, creator, private, clock_initial_ms, clock_increment_ms,"
        " game_no, created_ms, updated_ms, seq, unrated) VALUES (?1, ?2, ?3,"
        " ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)"
        " ON CONFLICT (id) DO UPDATE"
        " SET number = excluded.number, game = excluded.game,"
        " options = excluded.options, seats = excluded.seats,"
        " status = excluded.status, result = excluded.result,"
        " creator = excluded.creator, private = excluded.private,"
        " clock_initial_ms = excluded.clock_initial_ms,"
        " clock_increment_ms = excluded.clock_increment_ms,"
        " game_no = excluded.game_no, created_ms = excluded.created_ms,"
        " updated_ms = excluded.updated_ms, seq = excluded.seq,"
        " unrated = excluded.unrated",
    [ST_ROOM_DELETE] = "DELETE FROM rooms WHERE id = ?1",
    /* An upsert: a group tried again after a commit that did happen
     * writes the same move again, harmlessly. */
    [ST_MOVE_PUT] =
        "INSERT INTO moves (room, game_no, ply, seat, move, clock0,"
        " clock1, at_ms, seq) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
        " ON CONFLICT (room, game_no, ply) DO UPDATE SET seat ="
        " excluded.seat, move = excluded.move, clock0 = excluded.clock0,"
        " clock1 = excluded.clock1, at_ms = excluded.at_ms,"
        " seq = excluded.seq",
    [ST_MOVE_TRUNCATE] = "DELETE FROM moves WHERE room = ?1"
                         " AND game_no = ?2 AND ply >= ?3",
    [ST_LOAD_ROOMS] =
        "SELECT id, game, options, seats, status, result, creator,"
        " private, clock_initial_ms, clock_increment_ms, game_no,"
        " created_ms, updated_ms, seq, unrated FROM rooms"
        " WHERE status <> 'ended' ORDER BY created_ms, number, id",
    [ST_LOAD_MOVES] = "SELECT ply, seat, move, clock0, clock1, at_ms, seq"
                      " FROM moves WHERE room = ?1 AND game_no = ?2"
                      " ORDER BY ply",
    [ST_ROOM_MAX] = "SELECT max(coalesce((SELECT value FROM meta"
                    " WHERE key = 'room_max'), 0),"
                    " coalesce((SELECT max(number) FROM rooms), 0))",
    /* ?1 is one status or several separated by commas. */
    [ST_PRUNE] = "DELETE FROM rooms WHERE updated_ms < ?2"
                 " AND instr(',' || ?1 || ',', ',' || status || ',') > 0",
    [ST_PROGRESS_PUT] = "INSERT INTO progress (name, game, json,"
                        " updated_ms) VALUES (?1, ?2, ?3, ?4)"
                        " ON CONFLICT (name, game) DO UPDATE"
                        " SET json = excluded.json,"
                        " updated_ms = excluded.updated_ms",
    [ST_PROGRESS_GET] = "SELECT json FROM progress"
                        " WHERE name = ?1 AND game = ?2",
    /* started_ms: the first move's time, else ?13 (the caller's guess). */
    [ST_GAME_PUT] =
        "INSERT INTO games (room, game_no, game, options, seats, name0,"
        " name1, result, private, clock_initial_ms, clock_increment_ms,"
        " started_ms, ended_ms, nmoves, moves, start, position)"
        " SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11,"
        " coalesce((SELECT min(at_ms) FROM moves WHERE room = ?1"
        " AND game_no = ?2), ?12), ?13, ?14, ?15, ?16, ?17"
        /* kept once, however often its group is tried */
        " WHERE NOT EXISTS (SELECT 1 FROM games WHERE room = ?1"
        " AND game_no = ?2 AND ended_ms = ?13)",
    /* A game taken back after its end (one-player undo or restart) and
     * ended again is kept once, as it ended last: its earlier end goes. */
    [ST_GAME_REPLACED] = "DELETE FROM games WHERE room = ?1"
                         " AND game_no = ?2 AND ended_ms <> ?3",
    /* The index games_public, or games_public_game with ?4 the game. */
    [ST_GAMES_RECENT] = "SELECT " STORE_GAME_SUMMARY_COLS " FROM games"
                        " WHERE private = 0" STORE_GAMES_PAGE,
    [ST_GAMES_RECENT_GAME] =
        "SELECT " STORE_GAME_SUMMARY_COLS " FROM games"
        " WHERE private = 0 AND game = ?4" STORE_GAMES_PAGE,
    /* A player's games as the first seat (games_name0), then as the
     * second (games_name1), each in the index's order, merged by
     * sqlite_games_of: one OR of both sorted all of a player's games
     * (0.4 s at 300,000). ?4 the name, ?5 1 to include private games
     * (a player's own history). */
    [ST_GAMES_OF0] =
        "SELECT " STORE_GAME_SUMMARY_COLS " FROM games"
        " WHERE name0 = ?4 AND (private = 0 OR ?5)" STORE_GAMES_PAGE,
    [ST_GAMES_OF1] = "SELECT " STORE_GAME_SUMMARY_COLS " FROM games"
                     " WHERE name1 = ?4 AND name0 IS NOT ?4"
                     " AND (private = 0 OR ?5)" STORE_GAMES_PAGE,
    [ST_GAME_LAST] = "SELECT " STORE_GAME_COLS " FROM games"
                     " WHERE room = ?1 ORDER BY id DESC LIMIT 1",
    /* The exact spelling first (a name that clashed before version 4),
     * else whatever case. */
    [ST_IDENT_FIND] = "SELECT name, token_hash, played, created_ms, seen_ms"
                      " FROM identities"
                      " WHERE folded = lower(?1) OR name = ?1"
                      " ORDER BY name = ?1 DESC LIMIT 1",
    [ST_IDENT_PLAYED] = "UPDATE identities SET played = 1 WHERE name = ?1",
    [ST_IDENT_SEEN] = "UPDATE identities SET seen_ms = ?2 WHERE name = ?1",
    /* Not the creator of an unfinished room (it may still start). */
    [ST_IDENT_PRUNE] = "DELETE FROM identities WHERE played = 0"
                       " AND seen_ms < ?1 AND NOT EXISTS (SELECT 1"
                       " FROM rooms WHERE rooms.creator = identities.name"
                       " AND rooms.status <> 'ended')",
    /* The oldest first, ?2 at most (games_ended finds them). */
    [ST_GAMES_PRUNE] = "DELETE FROM games WHERE id IN (SELECT id FROM games"
                       " WHERE ended_ms < ?1 ORDER BY ended_ms LIMIT ?2)",
    /* The game's mark: no row changed when its change is stored. */
    [ST_RATING_ONCE] = "INSERT INTO rating_games (game, name, at_ms)"
                       " VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
    /* The values after a game, made once per game (ST_RATING_ONCE). */
    [ST_RATING_PUT] =
        "INSERT INTO ratings (name, pool, rating, rd, vol, wins, draws,"
        " losses, updated_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
        " ON CONFLICT (name, pool) DO UPDATE SET rating = excluded.rating,"
        " rd = excluded.rd, vol = excluded.vol, wins = excluded.wins,"
        " draws = excluded.draws, losses = excluded.losses,"
        " updated_ms = excluded.updated_ms",
    [ST_RATINGS_OF] = "SELECT " STORE_RATING_COLS " FROM ratings"
                      " WHERE name = ?1 ORDER BY pool",
    /* ?2: 1 for the provisional ones (rd at or above ?3). */
    [ST_RATINGS_TOP] = "SELECT " STORE_RATING_COLS " FROM ratings"
                       " WHERE pool = ?1 AND (rd >= ?3) = (?2 = 1)"
                       " ORDER BY rating DESC, name LIMIT ?5 OFFSET ?4",
    [ST_RECORD_PUT] =
        "INSERT INTO records (name, game, solved, best, tries, updated_ms)"
        " VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (name, game) DO UPDATE"
        " SET solved = excluded.solved, best = excluded.best,"
        " tries = excluded.tries, updated_ms = excluded.updated_ms",
    [ST_RECORDS_OF] = "SELECT " STORE_RECORD_COLS " FROM records"
                      " WHERE name = ?1 ORDER BY game",
    /* ?2: 1 for a game with levels (highest level, fewest tries). */
    [ST_RECORDS_TOP] =
        "SELECT " STORE_RECORD_COLS " FROM records WHERE game = ?1"
        " ORDER BY CASE WHEN ?2 = 1 THEN best ELSE solved END DESC,"
        " CASE WHEN ?2 = 1 THEN tries ELSE best END, name"
        " LIMIT ?4 OFFSET ?3",
    /* Every group commit's two: prepared once, not parsed per group by
     * sqlite3_exec (issue 32's profile: 4.6% of a move's CPU in memory). */
    [ST_BEGIN] = "BEGIN IMMEDIATE",
    [ST_COMMIT] = "COMMIT",
};

struct store_conn {
	sqlite3 *db; /* NULL: closed after a failed rollback, to reopen */
	sqlite3_stmt *st[ST_COUNT];
	char *path;
	int flags; /* STORE_SYNC_FULL, STORE_READER */
	char err[STORE_ERRLEN];
	struct store_fault fault; /* test-only (fault.h); writers only */
	int wal_pages;            /* pages in the WAL after the last commit */
	int64_t deadline_ms; /* a bounded read stops past it (mono); 0: none */
	int read_ms;         /* the bound (STORE_READ_MS; set_read_ms) */
	int stopped;         /* the progress handler stopped the read */
	long next_room;      /* the last room number given out (reader) */
	sqlite3_stmt *copy_st;            /* --copy-db: the insert of copy_t */
	const struct store_table *copy_t; /* its table */
};

/* A room of store_load with its strings copied out of the statement. */
struct sqlite_load_room {
	struct store_room r;
	char *text; /* one block holding every string of r */
};

/* Keep "op: SQLite's message" as the last error; always -1. */
static int
sqlite_fail(struct store_conn *s, const char *op)
{
	snprintf(s->err, sizeof s->err, "%s: %s", op, sqlite3_errmsg(s->db));
	return -1;
}

/* The injected failure of op, as SQLite would report a full disk; -1. */
static int
sqlite_fail_injected(struct store_conn *s, const char *op)
{
	snprintf(s->err, sizeof s->err,
	    "%s: database or disk is full (injected by %s)", op,
	    STORE_FAULT_ENV);
	return -1;
}

/* Reset a statement for its next use, dropping the caller's strings. */
static void
sqlite_reset(sqlite3_stmt *st)
{
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
}

/* Bind ?1, ?2, ... from ap as fmt says, one letter each: 't' a string
 * (NULL: SQL NULL), 'i' an int, 'l' a long long, 'n' a long long left NULL
 * when negative, 'd' a double; SQLite's code, stopping at the first
 * failure. */
static int
sqlite_vbind(sqlite3_stmt *st, const char *fmt, va_list ap)
{
	const char *v;
	long long n;
	int i, rc = SQLITE_OK;

	for (i = 0; fmt[i] != '\0' && rc == SQLITE_OK; i++) {
		if (fmt[i] == 'i')
			rc = sqlite3_bind_int64(st, i + 1, va_arg(ap, int));
		else if (fmt[i] == 'd')
			rc = sqlite3_bind_double(st, i + 1, va_arg(ap, double));
		else if (fmt[i] == 'l' || fmt[i] == 'n') {
			n = va_arg(ap, long long);
			if (fmt[i] == 'l' || n >= 0)
				rc = sqlite3_bind_int64(st, i + 1, n);
		} else if ((v = va_arg(ap, const char *)) == NULL)
			rc = sqlite3_bind_null(st, i + 1);
		else
			rc = sqlite3_bind_text(st, i + 1, v, -1, SQLITE_STATIC);
	}
	return rc;
}

/* sqlite_vbind with the values as arguments. */
static int
sqlite_bind(sqlite3_stmt *st, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = sqlite_vbind(st, fmt, ap);
	va_end(ap);
	return rc;
}

/* Reset st after its last step rc: 0 when it ran to its end, else -1
 * with "op: why". */
static int
sqlite_done(struct store_conn *s, sqlite3_stmt *st, int rc, const char *op)
{
	if (rc != SQLITE_DONE)
		sqlite_fail(s, op);
	sqlite_reset(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* Bind a write statement (sqlite_vbind) and run it to its end; 0, or -1
 * with "op: why". */
static int
sqlite_exec(struct store_conn *s, enum sqlite_stmt which, const char *op,
    const char *fmt, ...)
{
	sqlite3_stmt *st = s->st[which];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = sqlite_vbind(st, fmt, ap);
	va_end(ap);

	if (store_fault_now(&s->fault)) {
		sqlite_reset(st);
		return sqlite_fail_injected(s, op);
	}
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	return sqlite_done(s, st, rc, op);
}

/* Step a bound query to its first row: 1 with a row (the statement still
 * open), 0 without one or -1 on an error (both reset). */
static int
sqlite_step_row(
    struct store_conn *s, sqlite3_stmt *st, int bind_rc, const char *op)
{
	int rc = bind_rc;

	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	return rc == SQLITE_ROW ? 1 : sqlite_done(s, st, rc, op);
}

/*
 * Run a bound query expected to give at most one row whose first column is
 * text, and copy it into buf; *found says whether there was a row.
 */
static int
sqlite_get_text(struct store_conn *s, enum sqlite_stmt which, int bind_rc,
    const char *op, char *buf, size_t len, int *found)
{
	sqlite3_stmt *st = s->st[which];
	const unsigned char *v;
	int row, n;

	*found = 0;
	if (len > 0)
		buf[0] = '\0';
	if ((row = sqlite_step_row(s, st, bind_rc, op)) <= 0)
		return row;
	v = sqlite3_column_text(st, 0);
	n = sqlite3_column_bytes(st, 0);
	if (v == NULL || (size_t)n >= len) {
		snprintf(s->err, sizeof s->err,
		    "%s: %s (%d bytes, room for %zu)", op,
		    v == NULL ? "stored value is NULL" : "value too long", n,
		    len > 0 ? len - 1 : 0);
		sqlite_reset(st);
		return -1;
	}
	memcpy(buf, v, (size_t)n + 1);
	*found = 1;
	sqlite_reset(st);
	return 0;
}

/* The number of a room id "r<digits>", or -1 when it has no such form. */
static long long
sqlite_id_number(const char *id)
{
	long long n = 0;
	size_t i;

	if (id == NULL || id[0] != 'r' || id[1] == '\0')
		return -1;
	for (i = 1; id[i] != '\0'; i++) {
		if (id[i] < '0' || id[i] > '9' || i > STORE_ROOM_DIGITS)
			return -1;
		n = n * 10 + (id[i] - '0');
	}
	return n;
}

/* Run one statement of the open sequence and copy its first column's text
 * (if it gives a row) into buf; SQLite's code. */
static int
sqlite_query_text(sqlite3 *db, const char *sql, char *buf, size_t len)
{
	sqlite3_stmt *st;
	const unsigned char *v;
	int rc;

	if (len > 0)
		buf[0] = '\0';
	rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		v = sqlite3_column_text(st, 0);
		if (v != NULL && len > 0)
			snprintf(buf, len, "%s", (const char *)v);
		rc = SQLITE_OK;
	} else if (rc == SQLITE_DONE)
		rc = SQLITE_OK;
	sqlite3_finalize(st);
	return rc;
}

/* Like store_query_text for a statement whose answer is an integer. */
static int
sqlite_query_int(sqlite3 *db, const char *sql, long long *v)
{
	char buf[32];
	int rc;

	rc = sqlite_query_text(db, sql, buf, sizeof buf);
	if (rc == SQLITE_OK)
		*v = strtoll(buf, NULL, 10);
	return rc;
}

/* When a file cannot be opened or written, say what is wrong with its
 * directory (WAL needs to create PATH-wal and PATH-shm beside it). */
static void
sqlite_dir_hint(const char *path, char *buf, size_t len)
{
	char copy[STORE_PATHLEN];
	const char *dir;

	buf[0] = '\0';
	if (strlen(path) >= sizeof copy || strcmp(path, ":memory:") == 0)
		return;
	memcpy(copy, path, strlen(path) + 1);
	dir = dirname(copy);
	if (access(dir, W_OK | X_OK) != 0)
		snprintf(buf, len, "; directory %s: %s", dir, strerror(errno));
}

/* Write "data file PATH: what: SQLite's message (system error)" into err,
 * with a word on the directory when the file could not be opened or
 * written; always -1. */
static int
sqlite_open_err(
    sqlite3 *db, const char *path, const char *what, char *err, size_t errlen)
{
	char sys[128] = "", hint[STORE_PATHLEN + 64] = "";
	int code = db != NULL ? sqlite3_errcode(db) & 0xff : SQLITE_NOMEM;

	if (code == SQLITE_CANTOPEN || code == SQLITE_READONLY)
		sqlite_dir_hint(path, hint, sizeof hint);
	/* The system error of SQLite's last try, unless the directory
	 * explains it better (the last try may have been read-only). */
	if (hint[0] == '\0' && db != NULL && sqlite3_system_errno(db) != 0)
		snprintf(sys, sizeof sys, " (%s)",
		    strerror(sqlite3_system_errno(db)));
	snprintf(err, errlen, "data file %s: %s: %s%s%s", path, what,
	    db != NULL ? sqlite3_errmsg(db) : "out of memory", sys, hint);
	return -1;
}

/* The first line of quick_check's report that names a problem, cut to
 * one line for the log; the report is changed in place. */
static const char *
sqlite_first_problem(char *report)
{
	char *p = report, *nl;

	/* The report opens with "*** in database main ***" on its own line. */
	if (strncmp(p, "***", 3) == 0 && (nl = strchr(p, '\n')) != NULL)
		p = nl + 1;
	if ((nl = strchr(p, '\n')) != NULL)
		*nl = '\0';
	return p;
}

/*
 * Check that the file is a readable, writable, undamaged SQLite database
 * and tablero's (or empty), so problems show at start and not at the first
 * move. 0, or -1 with the reason in err.
 */
static int
sqlite_check_file(sqlite3 *db, const char *path, char *err, size_t errlen)
{
	char buf[256];
	long long tables, app, version;

	/* SQLite falls back to reading when the file cannot be written. */
	if (sqlite3_db_readonly(db, "main") == 1) {
		snprintf(err, errlen, "data file %s: the file is not writable",
		    path);
		return -1;
	}
	/* A schema too big for page 1 (as the tables of six migrations
	 * are) is read from later pages: damage there shows here. */
	if (sqlite_query_int(
	        db, "SELECT count(*) FROM sqlite_master", &tables) != SQLITE_OK)
		return sqlite_open_err(db, path,
		    (sqlite3_errcode(db) & 0xff) == SQLITE_CORRUPT
		        ? "damaged"
		        : "cannot use",
		    err, errlen);
	if (sqlite_query_text(db, "PRAGMA quick_check", buf, sizeof buf) !=
	    SQLITE_OK)
		return sqlite_open_err(
		    db, path, "integrity check failed", err, errlen);
	if (strcmp(buf, "ok") != 0) {
		snprintf(err, errlen,
		    "data file %s: damaged: %s (and maybe more; see PRAGMA "
		    "quick_check)",
		    path, sqlite_first_problem(buf));
		return -1;
	}
	if (sqlite_query_int(db, "PRAGMA application_id", &app) != SQLITE_OK ||
	    sqlite_query_int(db, "PRAGMA user_version", &version) != SQLITE_OK)
		return sqlite_open_err(
		    db, path, "cannot read the header", err, errlen);
	if (app != STORE_APP_ID && (app != 0 || version != 0 || tables != 0)) {
		snprintf(err, errlen,
		    "data file %s: an SQLite database but not tablero's "
		    "(application id %lld, schema version %lld, %lld schema "
		    "entries)",
		    path, app, version, tables);
		return -1;
	}
	return 0;
}

/* Set PRAGMA name to value and read it back into *v: 0, or -1 when
 * SQLite fails. */
static int
sqlite_pragma_set(sqlite3 *db, const char *name, long long value, long long *v)
{
	char sql[64];

	snprintf(sql, sizeof sql, "PRAGMA %s = %lld", name, value);
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return -1;
	snprintf(sql, sizeof sql, "PRAGMA %s", name);
	return sqlite_query_int(db, sql, v) == SQLITE_OK ? 0 : -1;
}

/* Set WAL, the synchronous level, the page cache and foreign keys,
 * checking each answer. */
static int
sqlite_pragmas(
    sqlite3 *db, const char *path, int sync_full, char *err, size_t errlen)
{
	char mode[32];
	long long v;

	if (sqlite_query_text(db, "PRAGMA journal_mode = WAL", mode,
	        sizeof mode) != SQLITE_OK)
		return sqlite_open_err(
		    db, path, "cannot set WAL mode", err, errlen);
	/* An in-memory database keeps its journal in memory: fine. */
	if (strcmp(mode, "wal") != 0 && strcmp(mode, "memory") != 0) {
		snprintf(err, errlen,
		    "data file %s: WAL mode refused (the journal mode stays "
		    "\"%s\")",
		    path, mode);
		return -1;
	}
	/* 2: FULL, 1: NORMAL. */
	if (sqlite_pragma_set(db, "synchronous", sync_full ? 2 : 1, &v) != 0)
		return sqlite_open_err(
		    db, path, "cannot set synchronous", err, errlen);
	if (v != (sync_full ? 2 : 1)) {
		snprintf(err, errlen,
		    "data file %s: synchronous is %lld, not %d", path, v,
		    sync_full ? 2 : 1);
		return -1;
	}
	/* Negative: KiB, not pages. */
	if (sqlite_pragma_set(db, "cache_size", -STORE_CACHE_KIB, &v) != 0 ||
	    v != -STORE_CACHE_KIB)
		return sqlite_open_err(
		    db, path, "cannot set cache_size", err, errlen);
	if (sqlite_pragma_set(db, "foreign_keys", 1, &v) != 0 || v != 1) {
		snprintf(err, errlen,
		    "data file %s: foreign keys cannot be enabled (this SQLite "
		    "lacks them)",
		    path);
		return -1;
	}
	return 0;
}

/* Apply the migrations from version `from` on, inside the open write
 * transaction; 0 or -1 with the reason in err. */
static int
sqlite_apply(sqlite3 *db, const char *path, int from, char *err, size_t errlen)
{
	char sql[64], what[64];
	int i;

	for (i = from; i < STORE_SCHEMA_VERSION; i++) {
		if (sqlite3_exec(db, store_schema_sql(i, 0), NULL, NULL,
		        NULL) != SQLITE_OK) {
			snprintf(what, sizeof what,
			    "migration to schema version %d failed", i + 1);
			return sqlite_open_err(db, path, what, err, errlen);
		}
	}
	snprintf(sql, sizeof sql,
	    "PRAGMA user_version = %d; PRAGMA application_id = %d",
	    STORE_SCHEMA_VERSION, STORE_APP_ID);
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return sqlite_open_err(
		    db, path, "cannot record the schema version", err, errlen);
	return 0;
}

/*
 * Bring the schema to this server's version in one write transaction
 * (which also proves the file can be locked and written); a file from a
 * newer server is refused.
 */
static int
sqlite_migrate(sqlite3 *db, const char *path, char *err, size_t errlen)
{
	long long version;

	if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return sqlite_open_err(
		    db, path, "cannot lock for writing", err, errlen);
	if (sqlite_query_int(db, "PRAGMA user_version", &version) !=
	    SQLITE_OK) {
		sqlite_open_err(
		    db, path, "cannot read the schema version", err, errlen);
		goto fail;
	}
	if (version > STORE_SCHEMA_VERSION) {
		snprintf(err, errlen,
		    "data file %s: schema version %lld is newer than this "
		    "server (%d)",
		    path, version, STORE_SCHEMA_VERSION);
		goto fail;
	}
	if (version < 0) {
		snprintf(err, errlen,
		    "data file %s: schema version %lld is invalid", path,
		    version);
		goto fail;
	}
	if (version < STORE_SCHEMA_VERSION &&
	    sqlite_apply(db, path, (int)version, err, errlen) != 0)
		goto fail;
	if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		sqlite_open_err(
		    db, path, "cannot commit the schema", err, errlen);
		goto fail;
	}
	return 0;
fail:
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

/* Prepare every statement for reuse until close. */
static int
sqlite_prepare(struct store_conn *s, const char *path, char *err, size_t errlen)
{
	int i;

	for (i = 0; i < ST_COUNT; i++)
		if (sqlite3_prepare_v3(s->db, sqlite_sql[i], -1,
		        SQLITE_PREPARE_PERSISTENT, &s->st[i],
		        NULL) != SQLITE_OK)
			return sqlite_open_err(
			    s->db, path, "cannot prepare", err, errlen);
	return 0;
}

/* SQLite's WAL hook: remember the WAL's size for sqlite_idle. */
static int
sqlite_wal_hook(void *arg, sqlite3 *db, const char *name, int pages)
{
	struct store_conn *s = arg;

	(void)db;
	(void)name;
	s->wal_pages = pages;
	return SQLITE_OK;
}

/* SQLite's progress handler: stop a bounded read past its deadline. */
static int
sqlite_progress(void *arg)
{
	struct store_conn *s = arg;

	if (s->deadline_ms == 0 || clock_mono_ms() < s->deadline_ms)
		return 0;
	s->stopped = 1;
	return 1;
}

/* Start a bounded read (its bound, STORE_READ_MS, from now). */
static void
sqlite_bound(struct store_conn *s)
{
	s->deadline_ms = clock_mono_ms() + s->read_ms;
	s->stopped = 0;
}

static void
sqlite_set_read_ms(struct store_conn *s, int ms)
{
	s->read_ms = ms;
}

/* End a bounded read that returned rc: STORE_SLOW, saying so, when the
 * deadline stopped it; else rc. */
static int
sqlite_unbound(struct store_conn *s, int rc, const char *op)
{
	s->deadline_ms = 0;
	if (!s->stopped)
		return rc;
	s->stopped = 0;
	snprintf(s->err, sizeof s->err,
	    "%s: stopped after %d ms (the longest a read may take)", op,
	    s->read_ms);
	return STORE_SLOW;
}

static void sqlite_close(struct store_conn *s);

/* Connect s to its file: open, check, set up, migrate (a writer) and
 * prepare; 0 or -1 with the reason in err. */
static int
sqlite_connect(struct store_conn *s, char *err, size_t errlen)
{
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
	const char *path = s->path;

	if (sqlite3_open_v2(path, &s->db, flags, NULL) != SQLITE_OK)
		return sqlite_open_err(s->db, path, "cannot open", err, errlen);
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, STORE_BUSY_MS);
	sqlite3_progress_handler(
	    s->db, STORE_PROGRESS_STEPS, sqlite_progress, s);
	if (sqlite_check_file(s->db, path, err, errlen) != 0 ||
	    sqlite_pragmas(
	        s->db, path, s->flags & STORE_SYNC_FULL, err, errlen) != 0 ||
	    (!(s->flags & STORE_READER) &&
	        sqlite_migrate(s->db, path, err, errlen) != 0) ||
	    sqlite_prepare(s, path, err, errlen) != 0)
		return -1;
	/* A reader never writes: SQLite refuses it if it tries. */
	if (s->flags & STORE_READER) {
		if (sqlite3_exec(s->db, "PRAGMA query_only = 1", NULL, NULL,
		        NULL) != SQLITE_OK)
			return sqlite_open_err(
			    s->db, path, "query_only", err, errlen);
		return 0;
	}
	/* Checkpoints are the store thread's, between groups (sqlite_idle):
	 * SQLite's automatic one would run inside a commit. */
	if (sqlite3_exec(s->db, "PRAGMA wal_autocheckpoint = 0", NULL, NULL,
	        NULL) != SQLITE_OK)
		return sqlite_open_err(
		    s->db, path, "wal_autocheckpoint", err, errlen);
	sqlite3_wal_hook(s->db, sqlite_wal_hook, s);
	return 0;
}

/* Close s's connection (an open transaction is rolled back). */
static void
sqlite_disconnect(struct store_conn *s)
{
	int i;

	for (i = 0; i < ST_COUNT; i++) {
		sqlite3_finalize(s->st[i]);
		s->st[i] = NULL;
	}
	/* With every statement finalized the close cannot be refused. */
	sqlite3_close(s->db);
	s->db = NULL;
}

static int
sqlite_handles(const char *where)
{
	return where != NULL && strncmp(where, "postgres", 8) != 0;
}

/* A reader of an in-memory database shares the writer's connection:
 * there is no file for a second one to open. */
static int
sqlite_reader_shares(const char *where)
{
	return strcmp(where, ":memory:") == 0;
}

/* SQLite's process-wide settings, before its first use: no memory
 * statistics (nothing reads them), whose upkeep took a process-wide
 * mutex around every allocation SQLite made (about 2% of a move's CPU at
 * 10 rooms in memory). Later calls, or SQLite already started by someone
 * else, change nothing (sqlite3_config refuses then). */
static void
sqlite_configure(void)
{
	(void)sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

/* Open the store; after any fork (daemonising), since an SQLite
 * connection must not cross one. */
static struct store_conn *
sqlite_open(const char *path, int flags, char *err, size_t errlen)
{
	static pthread_once_t configured = PTHREAD_ONCE_INIT;
	struct store_conn *s;

	pthread_once(&configured, sqlite_configure);
	if (path == NULL || *path == '\0') {
		snprintf(err, errlen, "data file: no path given");
		return NULL;
	}
	if ((s = calloc(1, sizeof *s)) == NULL ||
	    (s->path = strdup(path)) == NULL ||
	    (!(flags & STORE_READER) && store_fault_init(&s->fault) != 0)) {
		snprintf(err, errlen, "data file %s: out of memory", path);
		sqlite_close(s);
		return NULL;
	}
	s->flags = flags;
	s->read_ms = STORE_READ_MS;
	if (sqlite_connect(s, err, errlen) != 0) {
		sqlite_close(s);
		return NULL;
	}
	return s;
}

static void
sqlite_close(struct store_conn *s)
{
	if (s == NULL)
		return;
	sqlite3_finalize(s->copy_st);
	sqlite_disconnect(s);
	store_fault_free(&s->fault);
	free(s->path);
	free(s);
}

static const char *
sqlite_errmsg(struct store_conn *s)
{
	if (s == NULL)
		return "no store";
	return s->err[0] != '\0' ? s->err : "no error";
}

/* Between groups: copy the WAL back into the data file once it holds
 * STORE_CHECKPOINT_PAGES (a passive checkpoint never waits for readers). */
static int
sqlite_idle(struct store_conn *s)
{
	if (s->wal_pages < STORE_CHECKPOINT_PAGES)
		return 0;
	if (sqlite3_wal_checkpoint_v2(s->db, NULL, SQLITE_CHECKPOINT_PASSIVE,
	        NULL, NULL) != SQLITE_OK)
		return sqlite_fail(s, "checkpoint");
	s->wal_pages = 0;
	return 0;
}

static int
sqlite_identity_put(struct store_conn *s, const char *name, const char *hash)
{
	return sqlite_exec(s, ST_IDENT_PUT, "put identity", "ttl", name, hash,
	    (long long)clock_now_ms());
}

static int
sqlite_identity_find(struct store_conn *s, const char *name,
    struct store_identity *out, int *found)
{
	sqlite3_stmt *st = s->st[ST_IDENT_FIND];
	const unsigned char *n, *h;
	int row;

	*found = 0;
	row =
	    sqlite_step_row(s, st, sqlite_bind(st, "t", name), "find identity");
	if (row <= 0)
		return row;
	n = sqlite3_column_text(st, 0);
	h = sqlite3_column_text(st, 1);
	if (n == NULL || h == NULL ||
	    (size_t)sqlite3_column_bytes(st, 0) >= sizeof out->name ||
	    (size_t)sqlite3_column_bytes(st, 1) >= sizeof out->hash) {
		snprintf(s->err, sizeof s->err, "find identity: bad row for %s",
		    name);
		sqlite_reset(st);
		return -1;
	}
	snprintf(out->name, sizeof out->name, "%s", (const char *)n);
	snprintf(out->hash, sizeof out->hash, "%s", (const char *)h);
	out->played = sqlite3_column_int(st, 2);
	out->created_ms = sqlite3_column_int64(st, 3);
	out->seen_ms = sqlite3_column_int64(st, 4);
	*found = 1;
	sqlite_reset(st);
	return 0;
}

static int
sqlite_identity_played(struct store_conn *s, const char *name)
{
	return sqlite_exec(
	    s, ST_IDENT_PLAYED, "mark identity played", "t", name);
}

static int
sqlite_identity_seen(struct store_conn *s, const char *name, long long ms)
{
	return sqlite_exec(
	    s, ST_IDENT_SEEN, "mark identity seen", "tl", name, ms);
}

static int
sqlite_identity_prune(struct store_conn *s, long long before_ms)
{
	return sqlite_exec(
	    s, ST_IDENT_PRUNE, "prune identities", "l", before_ms);
}

/* ?2, the room's number, stays NULL for an id not of the form "r<n>". */
static int
sqlite_room_save(struct store_conn *s, const struct store_room *r)
{
	return sqlite_exec(s, ST_ROOM_SAVE, "save room", "tnttttttillilllt",
	    r->id, sqlite_id_number(r->id), r->game, r->options, r->seats,
	    r->status, r->result, r->creator, r->is_private != 0,
	    r->clock_initial_ms, r->clock_increment_ms, r->game_no,
	    r->created_ms, r->updated_ms, r->seq, r->unrated);
}

static int
sqlite_room_delete(struct store_conn *s, const char *id)
{
	return sqlite_exec(s, ST_ROOM_DELETE, "delete room", "t", id);
}

static int
sqlite_move_put(struct store_conn *s, const char *room, int game_no,
    const struct store_move *m)
{
	sqlite3_stmt *st = s->st[ST_MOVE_PUT];
	char op[128] = "";
	int rc = sqlite_bind(st, "tiiitllll", room, game_no, m->ply, m->seat,
	    m->move, m->clock_ms[0], m->clock_ms[1], m->at_ms, m->seq);

	if (rc == SQLITE_OK && store_fault_now(&s->fault)) {
		sqlite_reset(st);
		return sqlite_fail_injected(s, "put move");
	}
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc != SQLITE_DONE)
		snprintf(op, sizeof op, "put move (room %.40s game %d ply %d)",
		    room != NULL ? room : "(null)", game_no, m->ply);
	return sqlite_done(s, st, rc, op);
}

static int
sqlite_move_truncate(
    struct store_conn *s, const char *room, int game_no, int ply)
{
	return sqlite_exec(
	    s, ST_MOVE_TRUNCATE, "truncate moves", "tii", room, game_no, ply);
}

/* The text of column i, "" for NULL; valid until the statement steps. */
static const char *
sqlite_col(sqlite3_stmt *st, int i)
{
	const unsigned char *v = sqlite3_column_text(st, i);

	return v != NULL ? (const char *)v : "";
}

/* Copy the current row of ST_LOAD_ROOMS into lr, its strings (columns 0
 * to 6 in the order of store_room's, and 14) into one block. */
static int
sqlite_load_copy(sqlite3_stmt *st, struct sqlite_load_room *lr)
{
	const char **dst[8] = {&lr->r.id, &lr->r.game, &lr->r.options,
	    &lr->r.seats, &lr->r.status, &lr->r.result, &lr->r.creator,
	    &lr->r.unrated};
	static const int col[8] = {0, 1, 2, 3, 4, 5, 6, 14};
	size_t off[8], len[8], total = 0;
	int i;

	for (i = 0; i < 8; i++) {
		len[i] = strlen(sqlite_col(st, col[i])) + 1;
		off[i] = total;
		total += len[i];
	}
	if ((lr->text = malloc(total)) == NULL)
		return -1;
	for (i = 0; i < 8; i++) {
		memcpy(lr->text + off[i], sqlite_col(st, col[i]), len[i]);
		*dst[i] = lr->text + off[i];
	}
	/* A room not ended has no result, a game not decided no unrated:
	 * NULL as on save. */
	if (sqlite3_column_type(st, 5) == SQLITE_NULL)
		lr->r.result = NULL;
	if (sqlite3_column_type(st, 14) == SQLITE_NULL)
		lr->r.unrated = NULL;
	lr->r.is_private = sqlite3_column_int(st, 7);
	lr->r.clock_initial_ms = sqlite3_column_int64(st, 8);
	lr->r.clock_increment_ms = sqlite3_column_int64(st, 9);
	lr->r.game_no = sqlite3_column_int(st, 10);
	lr->r.created_ms = sqlite3_column_int64(st, 11);
	lr->r.updated_ms = sqlite3_column_int64(st, 12);
	lr->r.seq = sqlite3_column_int64(st, 13);
	return 0;
}

/* Free the rooms store_load_rooms gathered. */
static void
sqlite_load_free(struct sqlite_load_room *rooms, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(rooms[i].text);
	free(rooms);
}

/*
 * Gather every unfinished room into an array first, so that no statement
 * is active while the callback runs (it may write to the store itself).
 */
static int
sqlite_load_rooms(
    struct store_conn *s, struct sqlite_load_room **out, size_t *nout)
{
	sqlite3_stmt *st = s->st[ST_LOAD_ROOMS];
	struct sqlite_load_room *rooms = NULL, *grown;
	size_t n = 0, cap = 0;
	int rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			grown = realloc(rooms, cap * sizeof *rooms);
			if (grown == NULL)
				goto nomem;
			rooms = grown;
		}
		if (sqlite_load_copy(st, &rooms[n]) != 0)
			goto nomem;
		n++;
	}
	if (sqlite_done(s, st, rc, "load rooms") != 0) {
		sqlite_load_free(rooms, n);
		return -1;
	}
	*out = rooms;
	*nout = n;
	return 0;
nomem:
	snprintf(s->err, sizeof s->err, "load rooms: out of memory");
	sqlite_reset(st);
	sqlite_load_free(rooms, n);
	return -1;
}

/* A growing array of moves with their notations in one text block; off
 * keeps each notation's offset until the block stops moving. */
struct sqlite_load_moves {
	struct store_move *m;
	size_t *off;
	size_t n, cap;
	char *text;
	size_t used, size;
};

/* Make room for one more move in lm. */
static int
sqlite_load_moves_grow(struct sqlite_load_moves *lm)
{
	void *grown;
	size_t cap;

	if (lm->n < lm->cap)
		return 0;
	/* nmoves reaches the callback as an int. */
	if (lm->cap >= (size_t)INT_MAX / 2)
		return -1;
	cap = lm->cap ? lm->cap * 2 : 64;
	if ((grown = realloc(lm->m, cap * sizeof *lm->m)) == NULL)
		return -1;
	lm->m = grown;
	if ((grown = realloc(lm->off, cap * sizeof *lm->off)) == NULL)
		return -1;
	lm->off = grown;
	lm->cap = cap;
	return 0;
}

/* Add the current row of ST_LOAD_MOVES to lm. */
static int
sqlite_load_moves_add(struct sqlite_load_moves *lm, sqlite3_stmt *st)
{
	const char *move = sqlite_col(st, 2);
	size_t len = strlen(move) + 1;
	struct store_move *m;
	void *grown;

	if (sqlite_load_moves_grow(lm) != 0)
		return -1;
	while (lm->size - lm->used < len) {
		lm->size = lm->size ? lm->size * 2 : 1024;
		if ((grown = realloc(lm->text, lm->size)) == NULL)
			return -1;
		lm->text = grown;
	}
	memcpy(lm->text + lm->used, move, len);
	lm->off[lm->n] = lm->used;
	lm->used += len;
	m = &lm->m[lm->n++];
	m->ply = sqlite3_column_int(st, 0);
	m->seat = sqlite3_column_int(st, 1);
	m->move = NULL;
	m->clock_ms[0] = sqlite3_column_int64(st, 3);
	m->clock_ms[1] = sqlite3_column_int64(st, 4);
	m->at_ms = sqlite3_column_int64(st, 5);
	m->seq = sqlite3_column_int64(st, 6);
	return 0;
}

/* Point each move at its notation once the text block stops moving. */
static void
sqlite_load_moves_fix(struct sqlite_load_moves *lm)
{
	size_t i;

	for (i = 0; i < lm->n; i++)
		lm->m[i].move = lm->text + lm->off[i];
}

/* Read the moves of (room, game_no) in order into lm. */
static int
sqlite_load_moves(struct store_conn *s, const struct store_room *r,
    struct sqlite_load_moves *lm)
{
	sqlite3_stmt *st = s->st[ST_LOAD_MOVES];
	char op[96];
	int rc = sqlite_bind(st, "ti", r->id, r->game_no);

	lm->n = 0;
	lm->used = 0;
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (sqlite_load_moves_add(lm, st) != 0) {
			snprintf(s->err, sizeof s->err,
			    "load moves (room %.40s): out of memory", r->id);
			sqlite_reset(st);
			return -1;
		}
		rc = SQLITE_OK;
	}
	snprintf(op, sizeof op, "load moves (room %.40s)", r->id);
	if (sqlite_done(s, st, rc, op) != 0)
		return -1;
	sqlite_load_moves_fix(lm);
	return 0;
}

static int
sqlite_load(struct store_conn *s, store_room_cb cb, void *arg)
{
	struct sqlite_load_room *rooms;
	struct sqlite_load_moves lm = {0};
	size_t n, i;
	int ret = 0;

	if (sqlite_load_rooms(s, &rooms, &n) != 0)
		return -1;
	for (i = 0; i < n && ret == 0; i++) {
		if (sqlite_load_moves(s, &rooms[i].r, &lm) != 0) {
			ret = -1;
			break;
		}
		if (cb(arg, &rooms[i].r, lm.m, (int)lm.n) != 0) {
			snprintf(s->err, sizeof s->err,
			    "load: stopped by the caller at room %.40s",
			    rooms[i].r.id);
			ret = -1;
		}
	}
	free(lm.m);
	free(lm.off);
	free(lm.text);
	sqlite_load_free(rooms, n);
	return ret;
}

/* The next room number: the highest ever stored, read once, then
 * counted here (the loop's reader alone gives them out). */
static int
sqlite_room_number(struct store_conn *s, long *n)
{
	sqlite3_stmt *st = s->st[ST_ROOM_MAX];
	long long v;

	/* An aggregate: always one row. */
	if (sqlite_step_row(s, st, SQLITE_OK, "max room number") != 1)
		return -1;
	v = sqlite3_column_int64(st, 0);
	sqlite_reset(st);
	if (v < 0 || v > LONG_MAX) {
		snprintf(s->err, sizeof s->err,
		    "max room number: %lld out of range", v);
		return -1;
	}
	if ((long)v > s->next_room)
		s->next_room = (long)v;
	*n = ++s->next_room;
	return 0;
}

static int
sqlite_prune(struct store_conn *s, const char *status, long long before_ms)
{
	return sqlite_exec(s, ST_PRUNE, "prune rooms", "tl", status, before_ms);
}

/* At most max finished games that ended before before_ms, the oldest
 * first. */
static int
sqlite_games_prune(struct store_conn *s, long long before_ms, int max)
{
	return sqlite_exec(
	    s, ST_GAMES_PRUNE, "prune games", "li", before_ms, max);
}

static int
sqlite_progress_put(
    struct store_conn *s, const char *name, const char *game, const char *json)
{
	return sqlite_exec(s, ST_PROGRESS_PUT, "put progress", "tttl", name,
	    game, json, (long long)clock_now_ms());
}

static int
sqlite_progress_get(struct store_conn *s, const char *name, const char *game,
    char *buf, size_t len, int *found)
{
	int rc = sqlite_bind(s->st[ST_PROGRESS_GET], "tt", name, game);

	return sqlite_get_text(
	    s, ST_PROGRESS_GET, rc, "get progress", buf, len, found);
}

static int
sqlite_game_put(struct store_conn *s, const struct store_game *g)
{
	if (sqlite_exec(s, ST_GAME_REPLACED, "replace finished game", "til",
	        g->room, g->game_no, g->ended_ms) != 0)
		return -1;
	return sqlite_exec(s, ST_GAME_PUT, "put finished game",
	    "tittttttillllittt", g->room, g->game_no, g->game, g->options,
	    g->seats, g->names[0], g->names[1], g->result, g->is_private != 0,
	    g->clock_initial_ms, g->clock_increment_ms, g->started_ms,
	    g->ended_ms, g->nmoves, g->moves, g->start, g->position);
}

/* The current row of a games query (STORE_GAME_COLS) into g; its strings
 * live until the statement steps again. */
static void
sqlite_game_row(sqlite3_stmt *st, struct store_game *g)
{
	memset(g, 0, sizeof *g);
	g->id = sqlite3_column_int64(st, 0);
	g->room = sqlite_col(st, 1);
	g->game_no = sqlite3_column_int(st, 2);
	g->game = sqlite_col(st, 3);
	g->options = sqlite_col(st, 4);
	g->seats = sqlite_col(st, 5);
	g->result = sqlite_col(st, 6);
	g->is_private = sqlite3_column_int(st, 7);
	g->clock_initial_ms = sqlite3_column_int64(st, 8);
	g->clock_increment_ms = sqlite3_column_int64(st, 9);
	g->started_ms = sqlite3_column_int64(st, 10);
	g->ended_ms = sqlite3_column_int64(st, 11);
	g->nmoves = sqlite3_column_int(st, 12);
	g->moves = sqlite_col(st, 13);
	g->start = sqlite_col(st, 14);
	g->position = sqlite_col(st, 15);
}

/* Step a bound games query, calling cb on each row; the count into *n. */
static int
sqlite_games_run(struct store_conn *s, enum sqlite_stmt which, int bind_rc,
    const char *op, store_game_cb cb, void *arg, int *n)
{
	sqlite3_stmt *st = s->st[which];
	struct store_game g;
	int rc = bind_rc;

	*n = 0;
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		sqlite_game_row(st, &g);
		(*n)++;
		cb(arg, &g);
		rc = SQLITE_OK;
	}
	return sqlite_done(s, st, rc, op);
}

/* Step a bound ratings query, calling cb on each row. */
static int
sqlite_ratings_run(struct store_conn *s, enum sqlite_stmt which, int bind_rc,
    const char *op, store_rating_cb cb, void *arg)
{
	sqlite3_stmt *st = s->st[which];
	struct store_rating r;
	int rc = bind_rc;

	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		r.name = sqlite_col(st, 0);
		r.pool = sqlite_col(st, 1);
		r.rating = sqlite3_column_double(st, 2);
		r.rd = sqlite3_column_double(st, 3);
		r.vol = sqlite3_column_double(st, 4);
		r.wins = sqlite3_column_int(st, 5);
		r.draws = sqlite3_column_int(st, 6);
		r.losses = sqlite3_column_int(st, 7);
		r.updated_ms = sqlite3_column_int64(st, 8);
		cb(arg, &r);
		rc = SQLITE_OK;
	}
	return sqlite_done(s, st, rc, op);
}

static int
sqlite_ratings_of(
    struct store_conn *s, const char *name, store_rating_cb cb, void *arg)
{
	int rc = sqlite_bind(s->st[ST_RATINGS_OF], "t", name);

	return sqlite_ratings_run(
	    s, ST_RATINGS_OF, rc, "a player's ratings", cb, arg);
}

static int
sqlite_ratings_top(struct store_conn *s, const char *pool, int provisional,
    double rd_bound, int offset, int limit, store_rating_cb cb, void *arg)
{
	int rc = sqlite_bind(s->st[ST_RATINGS_TOP], "tidii", pool,
	    provisional != 0, rd_bound, offset, limit);

	return sqlite_ratings_run(
	    s, ST_RATINGS_TOP, rc, "list ratings", cb, arg);
}

/* Step a bound records query, calling cb on each row. */
static int
sqlite_records_run(struct store_conn *s, enum sqlite_stmt which, int bind_rc,
    const char *op, store_record_cb cb, void *arg)
{
	sqlite3_stmt *st = s->st[which];
	struct store_record r;
	int rc = bind_rc;

	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		r.name = sqlite_col(st, 0);
		r.game = sqlite_col(st, 1);
		r.solved = sqlite3_column_int(st, 2);
		r.best = sqlite3_column_int(st, 3);
		r.tries = sqlite3_column_int(st, 4);
		r.updated_ms = sqlite3_column_int64(st, 5);
		cb(arg, &r);
		rc = SQLITE_OK;
	}
	return sqlite_done(s, st, rc, op);
}

static int
sqlite_records_of(
    struct store_conn *s, const char *name, store_record_cb cb, void *arg)
{
	int rc = sqlite_bind(s->st[ST_RECORDS_OF], "t", name);

	return sqlite_records_run(
	    s, ST_RECORDS_OF, rc, "a player's records", cb, arg);
}

static int
sqlite_records_top(struct store_conn *s, const char *game, int by_level,
    int offset, int limit, store_record_cb cb, void *arg)
{
	int rc = sqlite_bind(
	    s->st[ST_RECORDS_TOP], "tiii", game, by_level != 0, offset, limit);

	return sqlite_records_run(
	    s, ST_RECORDS_TOP, rc, "list records", cb, arg);
}

static int
sqlite_record_put(struct store_conn *s, const struct store_record *r)
{
	return sqlite_exec(s, ST_RECORD_PUT, "put record", "ttiiil", r->name,
	    r->game, r->solved, r->best, r->tries, r->updated_ms);
}

/* A rating's change, unless its game's change is stored already (a
 * group tried again after its commit went through unseen). */
static int
sqlite_rating_put(struct store_conn *s, const struct store_rating *r)
{
	sqlite3_stmt *once = s->st[ST_RATING_ONCE];
	int rc;

	/* Not a write of its own for the fault hook: one put, one write. */
	if (r->game != NULL) {
		rc = sqlite_bind(once, "ttl", r->game, r->name, r->updated_ms);
		if (rc == SQLITE_OK)
			rc = sqlite3_step(once);
		if (sqlite_done(s, once, rc, "put rating") != 0)
			return -1;
		if (sqlite3_changes(s->db) == 0)
			return 0; /* stored by an earlier try */
	}
	return sqlite_exec(s, ST_RATING_PUT, "put rating", "ttdddiiil", r->name,
	    r->pool, r->rating, r->rd, r->vol, r->wins, r->draws, r->losses,
	    r->updated_ms);
}

/* Bind a page's cursor and length (?1 to ?3); the newest first when
 * the cursor is {0, 0}. */
static int
sqlite_bind_page(sqlite3_stmt *st, const struct store_cursor *from, int limit)
{
	int none = from->ended_ms == 0 && from->id == 0;

	return sqlite_bind(st, "lli", none ? LLONG_MAX : from->ended_ms,
	    none ? LLONG_MAX : from->id, limit);
}

static int
sqlite_games_recent(struct store_conn *s, const char *game,
    const struct store_cursor *from, int limit, store_game_cb cb, void *arg)
{
	enum sqlite_stmt which =
	    game != NULL ? ST_GAMES_RECENT_GAME : ST_GAMES_RECENT;
	sqlite3_stmt *st = s->st[which];
	int n, rc = sqlite_bind_page(st, from, limit);

	if (rc == SQLITE_OK && game != NULL)
		rc = sqlite3_bind_text(st, 4, game, -1, SQLITE_STATIC);
	sqlite_bound(s);
	rc = sqlite_games_run(s, which, rc, "list finished games", cb, arg, &n);
	return sqlite_unbound(s, rc, "list finished games");
}

/* Step st to its next row: 1 with one, 0 at its end, -1 on an error. */
static int
sqlite_games_step(sqlite3_stmt *st, int *rc)
{
	*rc = sqlite3_step(st);
	return *rc == SQLITE_ROW ? 1 : *rc == SQLITE_DONE ? 0 : -1;
}

/* Which of two rows comes first, newest first: 1 when a's does. */
static int
sqlite_games_newer(sqlite3_stmt *a, sqlite3_stmt *b)
{
	long long ea = sqlite3_column_int64(a, 11),
	          eb = sqlite3_column_int64(b, 11);

	return ea != eb
	    ? ea > eb
	    : sqlite3_column_int64(a, 0) > sqlite3_column_int64(b, 0);
}

/* A page of a player's games: the games as the first seat and as the
 * second, each one index range in its order, merged newest first. */
static int
sqlite_games_of(struct store_conn *s, const char *name, int with_private,
    const struct store_cursor *from, int limit, store_game_cb cb, void *arg)
{
	sqlite3_stmt *st[2] = {s->st[ST_GAMES_OF0], s->st[ST_GAMES_OF1]};
	struct store_game g;
	int i, rc[2], have[2] = {0, 0}, sent = 0, ret = 0;

	sqlite_bound(s);
	for (i = 0; i < 2; i++) {
		rc[i] = sqlite_bind_page(st[i], from, limit);
		if (rc[i] == SQLITE_OK)
			rc[i] = sqlite3_bind_text(
			    st[i], 4, name, -1, SQLITE_STATIC);
		if (rc[i] == SQLITE_OK)
			rc[i] = sqlite3_bind_int(st[i], 5, with_private != 0);
		if (rc[i] == SQLITE_OK)
			have[i] = sqlite_games_step(st[i], &rc[i]);
		else
			have[i] = -1;
	}
	while (have[0] >= 0 && have[1] >= 0 && (have[0] || have[1]) &&
	    sent < limit) {
		i = !have[0] || (have[1] && sqlite_games_newer(st[1], st[0]));
		sqlite_game_row(st[i], &g);
		cb(arg, &g);
		sent++;
		have[i] = sqlite_games_step(st[i], &rc[i]);
	}
	for (i = 0; i < 2; i++) {
		if (have[i] < 0 && ret == 0)
			ret = sqlite_fail(s, "a player's games");
		sqlite_reset(st[i]);
	}
	return sqlite_unbound(s, ret, "a player's games");
}

static int
sqlite_game_last(struct store_conn *s, const char *room, store_game_cb cb,
    void *arg, int *found)
{
	int rc = sqlite_bind(s->st[ST_GAME_LAST], "t", room);

	sqlite_bound(s);
	rc = sqlite_games_run(
	    s, ST_GAME_LAST, rc, "a room's last game", cb, arg, found);
	return sqlite_unbound(s, rc, "a room's last game");
}

/* The query plan of a read (store_backend's plan): SQLite's EXPLAIN QUERY
 * PLAN of its statements, one step a line. */
static int
sqlite_plan(struct store_conn *s, const char *what, char *buf, size_t len)
{
	static const struct {
		const char *what;
		enum sqlite_stmt st[2];
		int n;
	} reads[] = {
	    {"games_of", {ST_GAMES_OF0, ST_GAMES_OF1}, 2},
	    {"games_recent", {ST_GAMES_RECENT, ST_GAMES_RECENT}, 1},
	    {"games_recent_game", {ST_GAMES_RECENT_GAME, ST_GAMES_RECENT}, 1},
	    {"game_last", {ST_GAME_LAST, ST_GAME_LAST}, 1},
	    {"game_put", {ST_GAME_REPLACED, ST_GAME_PUT}, 2},
	};
	size_t used = 0;
	size_t i;
	int j;

	if (len > 0)
		buf[0] = '\0';
	for (i = 0; i < sizeof reads / sizeof reads[0]; i++) {
		if (strcmp(reads[i].what, what) != 0)
			continue;
		for (j = 0; j < reads[i].n; j++) {
			char sql[2048];
			sqlite3_stmt *st;
			int rc;

			snprintf(sql, sizeof sql, "EXPLAIN QUERY PLAN %s",
			    sqlite_sql[reads[i].st[j]]);
			if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) !=
			    SQLITE_OK)
				return sqlite_fail(s, "query plan");
			while (
			    (rc = sqlite3_step(st)) == SQLITE_ROW && used < len)
				used += (size_t)snprintf(buf + used, len - used,
				    "%s\n", sqlite_col(st, 3));
			sqlite3_finalize(st);
			if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
				snprintf(s->err, sizeof s->err,
				    "query plan: step failed");
				return -1;
			}
		}
		return 0;
	}
	snprintf(s->err, sizeof s->err, "query plan: no read '%s'", what);
	return -1;
}

/* Run one fixed statement; 0 or -1 with "op: why". */
static int
sqlite_run(struct store_conn *s, const char *sql, const char *op)
{
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return sqlite_fail(s, op);
	return 0;
}

/* Run a prepared statement without values (ST_BEGIN, ST_COMMIT) once:
 * 0, or -1 with "op: why", like sqlite_run. */
static int
sqlite_step_fixed(struct store_conn *s, enum sqlite_stmt which, const char *op)
{
	sqlite3_stmt *st = s->st[which];

	return sqlite_done(s, st, sqlite3_step(st), op);
}

/* Open s's connection again: 0, or -1 with it closed (tried again by the
 * next commit) and the reason kept for errmsg. */
static int
sqlite_reconnect(struct store_conn *s)
{
	char err[STORE_ERRLEN];

	if (sqlite_connect(s, err, sizeof err) == 0)
		return 0;
	sqlite_disconnect(s);
	snprintf(s->err, sizeof s->err, "%s", err);
	return -1;
}

/* A group failed inside its transaction: roll it all back. When the
 * rollback fails (or the fault hook says it does), the connection is
 * closed, which rolls back too, and opened again: nothing half-written can
 * be committed by a later group. Always -1, the group's error kept. */
static int
sqlite_undo(struct store_conn *s)
{
	if (!store_fault_undo(&s->fault) &&
	    (sqlite3_get_autocommit(s->db) ||
	        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL) == SQLITE_OK))
		return -1;
	sqlite_disconnect(s);
	sqlite_reconnect(s);
	return -1;
}

/* A prune's answer rc; its rows removed added to *op->count. */
static int
sqlite_counted(struct store_conn *s, const struct store_op *op, int rc)
{
	if (rc == 0 && op->count != NULL)
		*op->count += sqlite3_changes(s->db);
	return rc;
}

/* A row op: its statement with its values as text. */
static int
sqlite_row(struct store_conn *s, const struct store_row *row)
{
	sqlite3_stmt *st;
	int i, rc = SQLITE_OK;

	if (sqlite3_prepare_v2(s->db, row->sql, -1, &st, NULL) != SQLITE_OK)
		return sqlite_fail(s, row->what);
	for (i = 0; i < row->n && rc == SQLITE_OK; i++)
		rc = row->vals[i] == NULL
		    ? sqlite3_bind_null(st, i + 1)
		    : sqlite3_bind_text(
		          st, i + 1, row->vals[i], -1, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sqlite_fail(s, row->what);
}

/* Run one op inside the group's transaction. */
static int
sqlite_op(struct store_conn *s, const struct store_op *op)
{
	switch (op->kind) {
	case STORE_OP_ROOM_SAVE:
		return sqlite_room_save(s, &op->u.room);
	case STORE_OP_ROOM_DELETE:
		return sqlite_room_delete(s, op->a);
	case STORE_OP_MOVE_PUT:
		return sqlite_move_put(s, op->a, op->n, &op->u.move);
	case STORE_OP_MOVE_TRUNCATE:
		return sqlite_move_truncate(s, op->a, op->n, op->m);
	case STORE_OP_PROGRESS_PUT:
		return sqlite_progress_put(s, op->a, op->b, op->c);
	case STORE_OP_GAME_PUT:
		return sqlite_game_put(s, &op->u.game);
	case STORE_OP_IDENT_PUT:
		return sqlite_identity_put(s, op->a, op->b);
	case STORE_OP_IDENT_PLAYED:
		return sqlite_identity_played(s, op->a);
	case STORE_OP_IDENT_SEEN:
		return sqlite_identity_seen(s, op->a, op->ms);
	case STORE_OP_IDENT_PRUNE:
		return sqlite_counted(s, op, sqlite_identity_prune(s, op->ms));
	case STORE_OP_ROOM_PRUNE:
		return sqlite_counted(s, op, sqlite_prune(s, op->a, op->ms));
	case STORE_OP_GAMES_PRUNE:
		return sqlite_counted(
		    s, op, sqlite_games_prune(s, op->ms, op->n));
	case STORE_OP_RATING_PUT:
		return sqlite_rating_put(s, &op->u.rating);
	case STORE_OP_RECORD_PUT:
		return sqlite_record_put(s, &op->u.record);
	case STORE_OP_ROW:
		return sqlite_row(s, &op->u.row);
	}
	snprintf(s->err, sizeof s->err, "unknown op %d", (int)op->kind);
	return -1;
}

/* The group's transaction: all of ops or none. */
static int
sqlite_commit(struct store_conn *s, const struct store_op *ops)
{
	store_fault_hold(&s->fault); /* test-only: a stalled commit */
	if (s->db == NULL && sqlite_reconnect(s) != 0)
		return -1;
	if (sqlite_step_fixed(s, ST_BEGIN, "begin") != 0)
		return sqlite_undo(s);
	for (; ops != NULL; ops = ops->next)
		if (sqlite_op(s, ops) != 0)
			return sqlite_undo(s);
	if (store_fault_now(&s->fault)) {
		sqlite_fail_injected(s, "commit");
		return sqlite_undo(s);
	}
	if (sqlite_step_fixed(s, ST_COMMIT, "commit") != 0)
		return sqlite_undo(s);
	return 0;
}
/* A read of fixed text with its values bound as text: each row's first
 * ncols columns to cb. */
static int
sqlite_rows(struct store_conn *s, const char *sql, int n,
    const char *const *vals, int ncols, store_row_cb cb, void *arg)
{
	const char *cols[STORE_ROWS_COLS];
	sqlite3_stmt *st;
	int i, rc = SQLITE_OK, ret = 0;

	if (ncols > STORE_ROWS_COLS ||
	    sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return sqlite_fail(s, "read rows");
	for (i = 0; i < n && rc == SQLITE_OK; i++)
		rc = vals[i] == NULL
		    ? sqlite3_bind_null(st, i + 1)
		    : sqlite3_bind_text(st, i + 1, vals[i], -1, SQLITE_STATIC);
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (i = 0; i < ncols; i++)
			cols[i] = sqlite3_column_type(st, i) == SQLITE_NULL
			    ? NULL
			    : sqlite_col(st, i);
		if ((ret = cb(arg, cols)) != 0)
			break;
		rc = SQLITE_OK;
	}
	if (ret == 0 && rc != SQLITE_DONE)
		ret = sqlite_fail(s, "read rows");
	sqlite3_finalize(st);
	return ret;
}

static int
sqlite_copy_read(struct store_conn *s, const struct store_table *t,
    store_row_cb cb, void *arg)
{
	const char *vals[STORE_TABLE_COLS];
	sqlite3_stmt *st;
	int i, rc, ret = 0;

	if (sqlite3_prepare_v2(
	        s->db, store_table_sql(t, 0, 0), -1, &st, NULL) != SQLITE_OK)
		return sqlite_fail(s, t->name);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (i = 0; i < t->ncols; i++)
			vals[i] = sqlite3_column_type(st, i) == SQLITE_NULL
			    ? NULL
			    : sqlite_col(st, i);
		if ((ret = cb(arg, vals)) != 0)
			break;
	}
	if (ret == 0 && rc != SQLITE_DONE)
		ret = sqlite_fail(s, t->name);
	sqlite3_finalize(st);
	return ret;
}

static int
sqlite_copy_txn(struct store_conn *s, int what)
{
	sqlite3_finalize(s->copy_st);
	s->copy_st = NULL;
	s->copy_t = NULL;
	if (what == 0)
		return sqlite_run(s, "BEGIN IMMEDIATE", "begin the copy");
	if (what > 0)
		return sqlite_run(s, "COMMIT", "commit the copy");
	if (!sqlite3_get_autocommit(s->db))
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return 0;
}

static int
sqlite_copy_write(
    struct store_conn *s, const struct store_table *t, const char *const *vals)
{
	int i, rc = SQLITE_OK;

	if (s->copy_t != t) {
		sqlite3_finalize(s->copy_st);
		s->copy_t = NULL;
		if (sqlite3_prepare_v2(s->db, store_table_sql(t, 1, 0), -1,
		        &s->copy_st, NULL) != SQLITE_OK)
			return sqlite_fail(s, t->name);
		s->copy_t = t;
	}
	for (i = 0; i < t->ncols && rc == SQLITE_OK; i++)
		rc = vals[i] == NULL ? sqlite3_bind_null(s->copy_st, i + 1)
		                     : sqlite3_bind_text(s->copy_st, i + 1,
		                           vals[i], -1, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(s->copy_st);
	sqlite_reset(s->copy_st);
	return rc == SQLITE_DONE ? 0 : sqlite_fail(s, t->name);
}

const struct store_backend store_sqlite = {
    .name = "sqlite",
    .handles = sqlite_handles,
    .reader_shares = sqlite_reader_shares,
    .open = sqlite_open,
    .close = sqlite_close,
    .errmsg = sqlite_errmsg,
    .commit = sqlite_commit,
    .idle = sqlite_idle,
    .load = sqlite_load,
    .room_number = sqlite_room_number,
    .identity_find = sqlite_identity_find,
    .progress_get = sqlite_progress_get,
    .games_recent = sqlite_games_recent,
    .games_of = sqlite_games_of,
    .ratings_of = sqlite_ratings_of,
    .ratings_top = sqlite_ratings_top,
    .records_of = sqlite_records_of,
    .records_top = sqlite_records_top,
    .game_last = sqlite_game_last,
    .rows = sqlite_rows,
    .plan = sqlite_plan,
    .set_read_ms = sqlite_set_read_ms,
    .copy_read = sqlite_copy_read,
    .copy_txn = sqlite_copy_txn,
    .copy_write = sqlite_copy_write,
};
