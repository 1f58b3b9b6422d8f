/*
 * store.c: tablerod's durable store on SQLite. One data file in WAL mode;
 * the schema is created and migrated here (PRAGMA user_version counts the
 * migrations applied); every statement is prepared once at open and every
 * write is its own committed transaction, so a call that returns 0 is on
 * disk (as far as the synchronous setting promises). Errors are never
 * silent: -1 and a message naming the operation, kept for store_errmsg.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "server/store.h"

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
/* Test-only: when this environment variable names a file, every write
 * fails while that file holds STORE_FAULT_WORD, as it would on a full
 * disk, and "pass N" lets the next N writes through first (a fault in the
 * middle of a request); docs/PROTOCOL.md, "Storage faults". */
#define STORE_FAULT_ENV "TABLERO_TEST_STORE_FAULTS"
#define STORE_FAULT_WORD "fail"
/* Bytes of the control file read. */
#define STORE_FAULT_READ 32

/*
 * The migrations, applied in order; the schema version of a file is the
 * number of them applied. Append new ones at the end, never edit old ones.
 */
static const char *const store_migrations[] = {
    /* 1: the first schema. */
    "CREATE TABLE identities ("
    " name TEXT PRIMARY KEY NOT NULL,"
    " token_hash TEXT NOT NULL,"
    " created_ms INTEGER NOT NULL);"
    "CREATE TABLE rooms ("
    " id TEXT PRIMARY KEY NOT NULL,"
    " number INTEGER," /* from "r<digits>", for store_room_max_number */
    " game TEXT NOT NULL,"
    " options TEXT NOT NULL,"
    " seats TEXT NOT NULL,"
    " status TEXT NOT NULL,"
    " result TEXT,"
    " creator TEXT NOT NULL,"
    " private INTEGER NOT NULL,"
    " clock_initial_ms INTEGER NOT NULL,"
    " clock_increment_ms INTEGER NOT NULL,"
    " game_no INTEGER NOT NULL,"
    " created_ms INTEGER NOT NULL,"
    " updated_ms INTEGER NOT NULL);"
    "CREATE INDEX rooms_status_updated ON rooms (status, updated_ms);"
    "CREATE INDEX rooms_number ON rooms (number);"
    "CREATE TABLE moves ("
    " room TEXT NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,"
    " game_no INTEGER NOT NULL,"
    " ply INTEGER NOT NULL,"
    " seat INTEGER NOT NULL,"
    " move TEXT NOT NULL,"
    " clock0 INTEGER NOT NULL,"
    " clock1 INTEGER NOT NULL,"
    " at_ms INTEGER NOT NULL,"
    " PRIMARY KEY (room, game_no, ply)) WITHOUT ROWID;"
    /* The highest room number ever saved, kept when rooms are deleted
     * so that a pruned room's id is never given out again. */
    "CREATE TABLE meta ("
    " key TEXT PRIMARY KEY NOT NULL,"
    " value INTEGER NOT NULL) WITHOUT ROWID;"
    "INSERT INTO meta (key, value) VALUES ('room_max', 0);"
    "CREATE TRIGGER rooms_max AFTER INSERT ON rooms"
    " WHEN NEW.number IS NOT NULL BEGIN"
    " UPDATE meta SET value = max(value, NEW.number)"
    " WHERE key = 'room_max'; END;"
    "CREATE TABLE progress ("
    " name TEXT NOT NULL,"
    " game TEXT NOT NULL,"
    " json TEXT NOT NULL,"
    " updated_ms INTEGER NOT NULL,"
    " PRIMARY KEY (name, game)) WITHOUT ROWID;",
    /* 2: event numbers survive a restart: the room's last seq, and the
     * seq of each move's moved event. */
    "ALTER TABLE rooms ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE moves ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;",
    /* 3: every finished game is kept, whole: its players (name0 and
     * name1, NULL for a bot or a free seat, for a player's history),
     * result, times, moves (JSON) and start and final positions; a
     * rematch or a restart of the room never touches it. */
    "CREATE TABLE games ("
    " id INTEGER PRIMARY KEY,"
    " room TEXT NOT NULL,"
    " game_no INTEGER NOT NULL,"
    " game TEXT NOT NULL,"
    " options TEXT NOT NULL,"
    " seats TEXT NOT NULL,"
    " name0 TEXT,"
    " name1 TEXT,"
    " result TEXT NOT NULL,"
    " private INTEGER NOT NULL,"
    " clock_initial_ms INTEGER NOT NULL,"
    " clock_increment_ms INTEGER NOT NULL,"
    " started_ms INTEGER NOT NULL,"
    " ended_ms INTEGER NOT NULL,"
    " nmoves INTEGER NOT NULL,"
    " moves TEXT NOT NULL,"
    " start TEXT NOT NULL,"
    " position TEXT NOT NULL);"
    "CREATE INDEX games_ended ON games (ended_ms);"
    "CREATE INDEX games_room ON games (room);"
    "CREATE INDEX games_name0 ON games (name0, ended_ms);"
    "CREATE INDEX games_name1 ON games (name1, ended_ms);",
    /* 4: names are unique whatever their case: `folded` is the name in
     * lower case, unique. Where names clashed already, the first
     * registered (oldest, then smallest in byte order) gets the folded
     * key; the others keep working under their exact spelling only.
     * `played`: set once the identity sat in a game that started;
     * identities that never did are pruned --unplayed-days after they
     * were last seen (`seen_ms`, the last hello). Those made before this
     * version count as played (nothing says otherwise). */
    "ALTER TABLE identities ADD COLUMN folded TEXT;"
    "ALTER TABLE identities ADD COLUMN played INTEGER NOT NULL DEFAULT 1;"
    "ALTER TABLE identities ADD COLUMN seen_ms INTEGER NOT NULL DEFAULT 0;"
    "UPDATE identities SET folded = lower(name) WHERE NOT EXISTS"
    " (SELECT 1 FROM identities o WHERE lower(o.name) ="
    " lower(identities.name) AND (o.created_ms < identities.created_ms"
    " OR (o.created_ms = identities.created_ms AND o.name <"
    " identities.name)));"
    "CREATE UNIQUE INDEX identities_folded ON identities (folded);"
    "CREATE INDEX identities_unplayed ON identities (played, seen_ms);",
};
#define STORE_SCHEMA_VERSION                                                   \
	((int)(sizeof store_migrations / sizeof store_migrations[0]))

/* The columns of a finished game, in the order store_game_row reads. */
#define STORE_GAME_COLS                                                        \
	"id, room, game_no, game, options, seats, result, private,"            \
	" clock_initial_ms, clock_increment_ms, started_ms, ended_ms,"         \
	" nmoves, moves, start, position"

/* The prepared statements, one per operation. */
enum store_stmt {
	ST_IDENT_GET,
	ST_IDENT_PUT,
	ST_ROOM_SAVE,
	ST_ROOM_DELETE,
	ST_MOVE_APPEND,
	ST_MOVE_TRUNCATE,
	ST_LOAD_ROOMS,
	ST_LOAD_MOVES,
	ST_ROOM_MAX,
	ST_PRUNE,
	ST_PROGRESS_PUT,
	ST_PROGRESS_GET,
	ST_GAME_PUT,
	ST_GAMES_RECENT,
	ST_GAMES_OF,
	ST_GAME_LAST,
	ST_IDENT_FIND,
	ST_IDENT_PLAYED,
	ST_IDENT_SEEN,
	ST_IDENT_PRUNE,
	ST_GAMES_PRUNE,
	ST_COUNT
};

static const char *const store_sql[ST_COUNT] = {
    [ST_IDENT_GET] = "SELECT token_hash FROM identities WHERE name = ?1",
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
        " game_no, created_ms, updated_ms, seq) VALUES (?1, ?2, ?3, ?4, ?5,"
        " ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)"
        " ON CONFLICT (id) DO UPDATE"
        " SET number = excluded.number, game = excluded.game,"
        " options = excluded.options, seats = excluded.seats,"
        " status = excluded.status, result = excluded.result,"
        " creator = excluded.creator, private = excluded.private,"
        " clock_initial_ms = excluded.clock_initial_ms,"
        " clock_increment_ms = excluded.clock_increment_ms,"
        " game_no = excluded.game_no, created_ms = excluded.created_ms,"
        " updated_ms = excluded.updated_ms, seq = excluded.seq",
    [ST_ROOM_DELETE] = "DELETE FROM rooms WHERE id = ?1",
    [ST_MOVE_APPEND] =
        "INSERT INTO moves (room, game_no, ply, seat, move, clock0,"
        " clock1, at_ms, seq) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    [ST_MOVE_TRUNCATE] = "DELETE FROM moves WHERE room = ?1"
                         " AND game_no = ?2 AND ply >= ?3",
    [ST_LOAD_ROOMS] =
        "SELECT id, game, options, seats, status, result, creator,"
        " private, clock_initial_ms, clock_increment_ms, game_no,"
        " created_ms, updated_ms, seq FROM rooms WHERE status <> 'ended'"
        " ORDER BY created_ms, number, id",
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
        " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11,"
        " coalesce((SELECT min(at_ms) FROM moves WHERE room = ?1"
        " AND game_no = ?2), ?12), ?13, ?14, ?15, ?16, ?17)",
    [ST_GAMES_RECENT] = "SELECT " STORE_GAME_COLS " FROM games"
                        " WHERE private = 0 AND (?2 IS NULL OR game = ?2)"
                        " ORDER BY ended_ms DESC, id DESC LIMIT ?1",
    /* ?2: 1 to include private games (a player's own history). */
    [ST_GAMES_OF] = "SELECT " STORE_GAME_COLS " FROM games"
                    " WHERE (name0 = ?1 OR name1 = ?1)"
                    " AND (private = 0 OR ?2)"
                    " ORDER BY ended_ms DESC, id DESC LIMIT ?3",
    [ST_GAME_LAST] = "SELECT " STORE_GAME_COLS " FROM games"
                     " WHERE room = ?1 ORDER BY id DESC LIMIT 1",
    /* The exact spelling first (a name that clashed before version 4),
     * else whatever case. */
    [ST_IDENT_FIND] = "SELECT name, token_hash, played FROM identities"
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
};

struct store {
	sqlite3 *db;
	sqlite3_stmt *st[ST_COUNT];
	char err[STORE_ERRLEN];
	char *fault_file; /* test-only fault control file, or NULL */
	char fault_seen[STORE_FAULT_READ]; /* its "pass N" last read */
	long fault_left;                   /* writes it still lets through */
	int in_txn;    /* inside store_begin .. store_commit */
	int wal_pages; /* pages in the WAL after the last commit (manual) */
};

/* A room of store_load with its strings copied out of the statement. */
struct store_load_room {
	struct store_room r;
	char *text; /* one block holding every string of r */
};

/* Milliseconds since the epoch, for the rows' creation and update times. */
static long long
store_now_ms(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		return 0;
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Keep "op: SQLite's message" as the last error; always -1. */
static int
store_fail(struct store *s, const char *op)
{
	snprintf(s->err, sizeof s->err, "%s: %s", op, sqlite3_errmsg(s->db));
	return -1;
}

/* Test-only fault injection: 1 when the control file says every write
 * must fail now (STORE_FAULT_ENV); never without that variable. */
static int
store_fault(struct store *s)
{
	char buf[STORE_FAULT_READ];
	size_t n;
	FILE *f;

	if (s->fault_file == NULL || (f = fopen(s->fault_file, "r")) == NULL)
		return 0;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	if (strncmp(buf, "pass ", 5) == 0) {
		if (strcmp(buf, s->fault_seen) != 0) {
			memcpy(s->fault_seen, buf, sizeof buf);
			s->fault_left = strtol(buf + 5, NULL, 10);
		}
		if (s->fault_left > 0) {
			s->fault_left--;
			return 0;
		}
		return 1;
	}
	s->fault_seen[0] = '\0';
	return strcmp(buf, STORE_FAULT_WORD) == 0;
}

/* The injected failure of op, as SQLite would report a full disk; -1. */
static int
store_fail_injected(struct store *s, const char *op)
{
	snprintf(s->err, sizeof s->err,
	    "%s: database or disk is full (injected by %s)", op,
	    STORE_FAULT_ENV);
	return -1;
}

/* Reset a statement for its next use, dropping the caller's strings. */
static void
store_reset(sqlite3_stmt *st)
{
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
}

/* Bind a string (NULL binds SQL NULL) unless an earlier bind failed. */
static void
store_bind_text(sqlite3_stmt *st, int i, const char *v, int *rc)
{
	if (*rc != SQLITE_OK)
		return;
	if (v == NULL)
		*rc = sqlite3_bind_null(st, i);
	else
		*rc = sqlite3_bind_text(st, i, v, -1, SQLITE_STATIC);
}

/* Bind an integer unless an earlier bind failed. */
static void
store_bind_int(sqlite3_stmt *st, int i, long long v, int *rc)
{
	if (*rc == SQLITE_OK)
		*rc = sqlite3_bind_int64(st, i, v);
}

/* Run a bound write statement to its end; 0, or -1 with "op: why". */
static int
store_exec(struct store *s, enum store_stmt which, int bind_rc, const char *op)
{
	sqlite3_stmt *st = s->st[which];
	int rc = bind_rc;

	if (store_fault(s)) {
		store_reset(st);
		return store_fail_injected(s, op);
	}
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc != SQLITE_DONE) {
		store_fail(s, op);
		store_reset(st);
		return -1;
	}
	store_reset(st);
	return 0;
}

/* Step a bound query to its first row: 1 with a row (the statement still
 * open), 0 without one or -1 on an error (both reset). */
static int
store_step_row(struct store *s, sqlite3_stmt *st, int bind_rc, const char *op)
{
	int rc = bind_rc;

	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc != SQLITE_DONE)
		store_fail(s, op);
	store_reset(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/*
 * Run a bound query expected to give at most one row whose first column is
 * text, and copy it into buf; *found says whether there was a row.
 */
static int
store_get_text(struct store *s, enum store_stmt which, int bind_rc,
    const char *op, char *buf, size_t len, int *found)
{
	sqlite3_stmt *st = s->st[which];
	const unsigned char *v;
	int row, n;

	*found = 0;
	if (len > 0)
		buf[0] = '\0';
	if ((row = store_step_row(s, st, bind_rc, op)) <= 0)
		return row;
	v = sqlite3_column_text(st, 0);
	n = sqlite3_column_bytes(st, 0);
	if (v == NULL || (size_t)n >= len) {
		snprintf(s->err, sizeof s->err,
		    "%s: %s (%d bytes, room for %zu)", op,
		    v == NULL ? "stored value is NULL" : "value too long", n,
		    len > 0 ? len - 1 : 0);
		store_reset(st);
		return -1;
	}
	memcpy(buf, v, (size_t)n + 1);
	*found = 1;
	store_reset(st);
	return 0;
}

/* The number of a room id "r<digits>", or -1 when it has no such form. */
static long long
store_room_number(const char *id)
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
store_query_text(sqlite3 *db, const char *sql, char *buf, size_t len)
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
store_query_int(sqlite3 *db, const char *sql, long long *v)
{
	char buf[32];
	int rc;

	rc = store_query_text(db, sql, buf, sizeof buf);
	if (rc == SQLITE_OK)
		*v = strtoll(buf, NULL, 10);
	return rc;
}

/* When a file cannot be opened or written, say what is wrong with its
 * directory (WAL needs to create PATH-wal and PATH-shm beside it). */
static void
store_dir_hint(const char *path, char *buf, size_t len)
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
 * written. */
static void
store_open_err(
    sqlite3 *db, const char *path, const char *what, char *err, size_t errlen)
{
	char sys[128] = "", hint[STORE_PATHLEN + 64] = "";
	int code = db != NULL ? sqlite3_errcode(db) & 0xff : SQLITE_NOMEM;

	if (code == SQLITE_CANTOPEN || code == SQLITE_READONLY)
		store_dir_hint(path, hint, sizeof hint);
	/* The system error of SQLite's last try, unless the directory
	 * explains it better (the last try may have been read-only). */
	if (hint[0] == '\0' && db != NULL && sqlite3_system_errno(db) != 0)
		snprintf(sys, sizeof sys, " (%s)",
		    strerror(sqlite3_system_errno(db)));
	snprintf(err, errlen, "data file %s: %s: %s%s%s", path, what,
	    db != NULL ? sqlite3_errmsg(db) : "out of memory", sys, hint);
}

/* The first line of quick_check's report that names a problem, cut to
 * one line for the log; the report is changed in place. */
static const char *
store_first_problem(char *report)
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
store_check_file(sqlite3 *db, const char *path, char *err, size_t errlen)
{
	char buf[256];
	long long tables, app, version;

	/* SQLite falls back to reading when the file cannot be written. */
	if (sqlite3_db_readonly(db, "main") == 1) {
		snprintf(err, errlen, "data file %s: the file is not writable",
		    path);
		return -1;
	}
	if (store_query_int(db, "SELECT count(*) FROM sqlite_master",
	        &tables) != SQLITE_OK) {
		store_open_err(db, path, "cannot use", err, errlen);
		return -1;
	}
	if (store_query_text(db, "PRAGMA quick_check", buf, sizeof buf) !=
	    SQLITE_OK) {
		store_open_err(db, path, "integrity check failed", err, errlen);
		return -1;
	}
	if (strcmp(buf, "ok") != 0) {
		snprintf(err, errlen,
		    "data file %s: damaged: %s (and maybe"
		    " more; see PRAGMA quick_check)",
		    path, store_first_problem(buf));
		return -1;
	}
	if (store_query_int(db, "PRAGMA application_id", &app) != SQLITE_OK ||
	    store_query_int(db, "PRAGMA user_version", &version) != SQLITE_OK) {
		store_open_err(db, path, "cannot read the header", err, errlen);
		return -1;
	}
	if (app != STORE_APP_ID && (app != 0 || version != 0 || tables != 0)) {
		snprintf(err, errlen,
		    "data file %s: an SQLite database but not"
		    " tablero's (application id %lld, schema version %lld,"
		    " %lld schema entries)",
		    path, app, version, tables);
		return -1;
	}
	return 0;
}

/* Give the connection a page cache of STORE_CACHE_KIB; 0 or -1. */
static int
store_cache(sqlite3 *db, const char *path, char *err, size_t errlen)
{
	char sql[64];
	long long v;

	snprintf(sql, sizeof sql, "PRAGMA cache_size = -%d", STORE_CACHE_KIB);
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK ||
	    store_query_int(db, "PRAGMA cache_size", &v) != SQLITE_OK ||
	    v != -STORE_CACHE_KIB) {
		store_open_err(db, path, "cannot set cache_size", err, errlen);
		return -1;
	}
	return 0;
}

/* Set WAL, the synchronous level, the page cache and foreign keys,
 * checking each answer. */
static int
store_pragmas(
    sqlite3 *db, const char *path, int sync_full, char *err, size_t errlen)
{
	char mode[32];
	long long v;

	if (store_query_text(db, "PRAGMA journal_mode = WAL", mode,
	        sizeof mode) != SQLITE_OK) {
		store_open_err(db, path, "cannot set WAL mode", err, errlen);
		return -1;
	}
	/* An in-memory database keeps its journal in memory: fine. */
	if (strcmp(mode, "wal") != 0 && strcmp(mode, "memory") != 0) {
		snprintf(err, errlen,
		    "data file %s: WAL mode refused (the"
		    " journal mode stays \"%s\")",
		    path, mode);
		return -1;
	}
	if (sqlite3_exec(db,
	        sync_full ? "PRAGMA synchronous = FULL"
	                  : "PRAGMA synchronous = NORMAL",
	        NULL, NULL, NULL) != SQLITE_OK ||
	    store_query_int(db, "PRAGMA synchronous", &v) != SQLITE_OK) {
		store_open_err(db, path, "cannot set synchronous", err, errlen);
		return -1;
	}
	if (v != (sync_full ? 2 : 1)) {
		snprintf(err, errlen,
		    "data file %s: synchronous is %lld, not"
		    " %d",
		    path, v, sync_full ? 2 : 1);
		return -1;
	}
	if (store_cache(db, path, err, errlen) != 0)
		return -1;
	if (sqlite3_exec(db, "PRAGMA foreign_keys = ON", NULL, NULL, NULL) !=
	        SQLITE_OK ||
	    store_query_int(db, "PRAGMA foreign_keys", &v) != SQLITE_OK ||
	    v != 1) {
		snprintf(err, errlen,
		    "data file %s: foreign keys cannot be"
		    " enabled (this SQLite lacks them)",
		    path);
		return -1;
	}
	return 0;
}

/* Apply the migrations from version `from` on, inside the open write
 * transaction; 0 or -1 with the reason in err. */
static int
store_apply(sqlite3 *db, const char *path, int from, char *err, size_t errlen)
{
	char sql[64], what[64];
	int i;

	for (i = from; i < STORE_SCHEMA_VERSION; i++) {
		if (sqlite3_exec(db, store_migrations[i], NULL, NULL, NULL) !=
		    SQLITE_OK) {
			snprintf(what, sizeof what,
			    "migration to schema"
			    " version %d failed",
			    i + 1);
			store_open_err(db, path, what, err, errlen);
			return -1;
		}
	}
	snprintf(sql, sizeof sql,
	    "PRAGMA user_version = %d; "
	    "PRAGMA application_id = %d",
	    STORE_SCHEMA_VERSION, STORE_APP_ID);
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK) {
		store_open_err(
		    db, path, "cannot record the schema version", err, errlen);
		return -1;
	}
	return 0;
}

/*
 * Bring the schema to this server's version in one write transaction
 * (which also proves the file can be locked and written); a file from a
 * newer server is refused.
 */
static int
store_migrate(sqlite3 *db, const char *path, char *err, size_t errlen)
{
	long long version;

	if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) !=
	    SQLITE_OK) {
		store_open_err(
		    db, path, "cannot lock for writing", err, errlen);
		return -1;
	}
	if (store_query_int(db, "PRAGMA user_version", &version) != SQLITE_OK) {
		store_open_err(
		    db, path, "cannot read the schema version", err, errlen);
		goto fail;
	}
	if (version > STORE_SCHEMA_VERSION) {
		snprintf(err, errlen,
		    "data file %s: schema version %lld is"
		    " newer than this server (%d)",
		    path, version, STORE_SCHEMA_VERSION);
		goto fail;
	}
	if (version < 0) {
		snprintf(err, errlen,
		    "data file %s: schema version %lld is"
		    " invalid",
		    path, version);
		goto fail;
	}
	if (version < STORE_SCHEMA_VERSION &&
	    store_apply(db, path, (int)version, err, errlen) != 0)
		goto fail;
	if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		store_open_err(
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
store_prepare(struct store *s, const char *path, char *err, size_t errlen)
{
	int i;

	for (i = 0; i < ST_COUNT; i++) {
		if (sqlite3_prepare_v3(s->db, store_sql[i], -1,
		        SQLITE_PREPARE_PERSISTENT, &s->st[i],
		        NULL) != SQLITE_OK) {
			store_open_err(
			    s->db, path, "cannot prepare", err, errlen);
			return -1;
		}
	}
	return 0;
}

/* Open the store; after any fork (daemonising), since an SQLite
 * connection must not cross one. */
struct store *
store_open(const char *path, int sync_full, char *err, size_t errlen)
{
	struct store *s;
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;

	if (path == NULL || *path == '\0') {
		snprintf(err, errlen, "data file: no path given");
		return NULL;
	}
	if ((s = calloc(1, sizeof *s)) == NULL) {
		snprintf(err, errlen, "data file %s: out of memory", path);
		return NULL;
	}
	if (sqlite3_open_v2(path, &s->db, flags, NULL) != SQLITE_OK) {
		store_open_err(s->db, path, "cannot open", err, errlen);
		goto fail;
	}
	if (getenv(STORE_FAULT_ENV) != NULL && *getenv(STORE_FAULT_ENV) != '\0')
		s->fault_file = strdup(getenv(STORE_FAULT_ENV));
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, STORE_BUSY_MS);
	if (store_check_file(s->db, path, err, errlen) != 0 ||
	    store_pragmas(s->db, path, sync_full, err, errlen) != 0 ||
	    store_migrate(s->db, path, err, errlen) != 0 ||
	    store_prepare(s, path, err, errlen) != 0)
		goto fail;
	return s;
fail:
	store_close(s);
	return NULL;
}

void
store_close(struct store *s)
{
	int i;

	if (s == NULL)
		return;
	for (i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(s->st[i]);
	/* With every statement finalized the close cannot be refused. */
	sqlite3_close(s->db);
	free(s->fault_file);
	free(s);
}

const char *
store_errmsg(struct store *s)
{
	if (s == NULL)
		return "no store";
	return s->err[0] != '\0' ? s->err : "no error";
}

/* SQLite's WAL hook: remember the WAL's size for store_checkpoint. */
static int
store_wal_hook(void *arg, sqlite3 *db, const char *name, int pages)
{
	struct store *s = arg;

	(void)db;
	(void)name;
	s->wal_pages = pages;
	return SQLITE_OK;
}

int
store_wal_manual(struct store *s)
{
	if (sqlite3_exec(s->db, "PRAGMA wal_autocheckpoint = 0", NULL, NULL,
	        NULL) != SQLITE_OK)
		return store_fail(s, "wal_autocheckpoint");
	sqlite3_wal_hook(s->db, store_wal_hook, s);
	return 0;
}

int
store_checkpoint(struct store *s, int min_pages, int *done)
{
	*done = 0;
	if (s->wal_pages < min_pages || s->in_txn)
		return 0;
	if (sqlite3_wal_checkpoint_v2(s->db, NULL, SQLITE_CHECKPOINT_PASSIVE,
	        NULL, NULL) != SQLITE_OK)
		return store_fail(s, "checkpoint");
	s->wal_pages = 0;
	*done = 1;
	return 0;
}

/* Run one fixed statement of the group transaction; 0 or -1. */
static int
store_group_exec(struct store *s, const char *sql, const char *op)
{
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return store_fail(s, op);
	return 0;
}

int
store_group_begin(struct store *s)
{
	if (store_group_exec(s, "BEGIN IMMEDIATE", "begin") != 0)
		return -1;
	s->in_txn = 1;
	return 0;
}

int
store_group_commit(struct store *s)
{
	s->in_txn = 0;
	if (store_group_exec(s, "COMMIT", "commit") == 0)
		return 0;
	if (sqlite3_get_autocommit(s->db) == 0)
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	return -1;
}

int
store_group_mark(struct store *s)
{
	return store_group_exec(s, "SAVEPOINT change", "savepoint");
}

int
store_group_keep(struct store *s)
{
	return store_group_exec(s, "RELEASE change", "release");
}

int
store_group_undo(struct store *s)
{
	/* ROLLBACK TO leaves the savepoint open: RELEASE it too. */
	if (store_group_exec(s, "ROLLBACK TO change", "rollback to") != 0)
		return -1;
	return store_group_keep(s);
}

int
store_begin(struct store *s)
{
	if (s->in_txn) {
		snprintf(s->err, sizeof s->err,
		    "begin: a transaction is open already");
		return -1;
	}
	if (store_fault(s))
		return store_fail_injected(s, "begin");
	if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) !=
	    SQLITE_OK)
		return store_fail(s, "begin");
	s->in_txn = 1;
	return 0;
}

int
store_commit(struct store *s)
{
	if (!s->in_txn)
		return 0;
	if (store_fault(s)) {
		store_rollback(s);
		return store_fail_injected(s, "commit");
	}
	if (sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		store_fail(s, "commit");
		store_rollback(s);
		return -1;
	}
	s->in_txn = 0;
	return 0;
}

void
store_rollback(struct store *s)
{
	if (!s->in_txn)
		return;
	/* SQLite may have rolled back already (a full disk): harmless. */
	if (sqlite3_get_autocommit(s->db) == 0)
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	s->in_txn = 0;
}

int
store_identity_get(
    struct store *s, const char *name, char *hash, size_t hashlen, int *found)
{
	int rc = SQLITE_OK;

	store_bind_text(s->st[ST_IDENT_GET], 1, name, &rc);
	return store_get_text(
	    s, ST_IDENT_GET, rc, "get identity", hash, hashlen, found);
}

int
store_identity_put(struct store *s, const char *name, const char *hash)
{
	sqlite3_stmt *st = s->st[ST_IDENT_PUT];
	int rc = SQLITE_OK;

	store_bind_text(st, 1, name, &rc);
	store_bind_text(st, 2, hash, &rc);
	store_bind_int(st, 3, store_now_ms(), &rc);
	return store_exec(s, ST_IDENT_PUT, rc, "put identity");
}

int
store_identity_find(
    struct store *s, const char *name, struct store_identity *out, int *found)
{
	sqlite3_stmt *st = s->st[ST_IDENT_FIND];
	const unsigned char *n, *h;
	int rc = SQLITE_OK, row;

	*found = 0;
	store_bind_text(st, 1, name, &rc);
	if ((row = store_step_row(s, st, rc, "find identity")) <= 0)
		return row;
	n = sqlite3_column_text(st, 0);
	h = sqlite3_column_text(st, 1);
	if (n == NULL || h == NULL ||
	    (size_t)sqlite3_column_bytes(st, 0) >= sizeof out->name ||
	    (size_t)sqlite3_column_bytes(st, 1) >= sizeof out->hash) {
		snprintf(s->err, sizeof s->err, "find identity: bad row for %s",
		    name);
		store_reset(st);
		return -1;
	}
	snprintf(out->name, sizeof out->name, "%s", (const char *)n);
	snprintf(out->hash, sizeof out->hash, "%s", (const char *)h);
	out->played = sqlite3_column_int(st, 2);
	*found = 1;
	store_reset(st);
	return 0;
}

int
store_identity_played(struct store *s, const char *name)
{
	int rc = SQLITE_OK;

	store_bind_text(s->st[ST_IDENT_PLAYED], 1, name, &rc);
	return store_exec(s, ST_IDENT_PLAYED, rc, "mark identity played");
}

/* store_exec for a DELETE, with the count of rows it deleted. */
static int
store_exec_count(struct store *s, enum store_stmt which, int bind_rc,
    const char *op, int *count)
{
	*count = 0;
	if (store_exec(s, which, bind_rc, op) != 0)
		return -1;
	/* Rows a cascade removed (a room's moves) are not counted. */
	*count = sqlite3_changes(s->db);
	return 0;
}

int
store_identity_seen(struct store *s, const char *name)
{
	sqlite3_stmt *st = s->st[ST_IDENT_SEEN];
	int rc = SQLITE_OK;

	store_bind_text(st, 1, name, &rc);
	store_bind_int(st, 2, store_now_ms(), &rc);
	return store_exec(s, ST_IDENT_SEEN, rc, "mark identity seen");
}

int
store_identity_prune(struct store *s, long long before_ms, int *count)
{
	int rc = SQLITE_OK;

	store_bind_int(s->st[ST_IDENT_PRUNE], 1, before_ms, &rc);
	return store_exec_count(
	    s, ST_IDENT_PRUNE, rc, "prune identities", count);
}

int
store_room_save(struct store *s, const struct store_room *r)
{
	sqlite3_stmt *st = s->st[ST_ROOM_SAVE];
	long long n = store_room_number(r->id);
	int rc = SQLITE_OK;

	store_bind_text(st, 1, r->id, &rc);
	if (n >= 0)
		store_bind_int(st, 2, n, &rc);
	store_bind_text(st, 3, r->game, &rc);
	store_bind_text(st, 4, r->options, &rc);
	store_bind_text(st, 5, r->seats, &rc);
	store_bind_text(st, 6, r->status, &rc);
	store_bind_text(st, 7, r->result, &rc);
	store_bind_text(st, 8, r->creator, &rc);
	store_bind_int(st, 9, r->is_private != 0, &rc);
	store_bind_int(st, 10, r->clock_initial_ms, &rc);
	store_bind_int(st, 11, r->clock_increment_ms, &rc);
	store_bind_int(st, 12, r->game_no, &rc);
	store_bind_int(st, 13, r->created_ms, &rc);
	store_bind_int(st, 14, r->updated_ms, &rc);
	store_bind_int(st, 15, r->seq, &rc);
	return store_exec(s, ST_ROOM_SAVE, rc, "save room");
}

int
store_room_delete(struct store *s, const char *id)
{
	int rc = SQLITE_OK;

	store_bind_text(s->st[ST_ROOM_DELETE], 1, id, &rc);
	return store_exec(s, ST_ROOM_DELETE, rc, "delete room");
}

int
store_move_append(
    struct store *s, const char *room, int game_no, const struct store_move *m)
{
	sqlite3_stmt *st = s->st[ST_MOVE_APPEND];
	char op[128];
	int rc = SQLITE_OK;

	store_bind_text(st, 1, room, &rc);
	store_bind_int(st, 2, game_no, &rc);
	store_bind_int(st, 3, m->ply, &rc);
	store_bind_int(st, 4, m->seat, &rc);
	store_bind_text(st, 5, m->move, &rc);
	store_bind_int(st, 6, m->clock_ms[0], &rc);
	store_bind_int(st, 7, m->clock_ms[1], &rc);
	store_bind_int(st, 8, m->at_ms, &rc);
	store_bind_int(st, 9, m->seq, &rc);
	if (rc == SQLITE_OK && store_fault(s)) {
		store_reset(st);
		return store_fail_injected(s, "append move");
	}
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc != SQLITE_DONE) {
		snprintf(op, sizeof op,
		    "append move (room %.40s game %d ply"
		    " %d)",
		    room != NULL ? room : "(null)", game_no, m->ply);
		store_fail(s, op);
		store_reset(st);
		return -1;
	}
	store_reset(st);
	return 0;
}

int
store_move_truncate(struct store *s, const char *room, int game_no, int ply)
{
	sqlite3_stmt *st = s->st[ST_MOVE_TRUNCATE];
	int rc = SQLITE_OK;

	store_bind_text(st, 1, room, &rc);
	store_bind_int(st, 2, game_no, &rc);
	store_bind_int(st, 3, ply, &rc);
	return store_exec(s, ST_MOVE_TRUNCATE, rc, "truncate moves");
}

/* The text of column i, "" for NULL; valid until the statement steps. */
static const char *
store_col(sqlite3_stmt *st, int i)
{
	const unsigned char *v = sqlite3_column_text(st, i);

	return v != NULL ? (const char *)v : "";
}

/* Copy the current row of ST_LOAD_ROOMS into lr, its strings (columns 0
 * to 6, in the order of store_room's) into one block. */
static int
store_load_copy(sqlite3_stmt *st, struct store_load_room *lr)
{
	const char **dst[7] = {&lr->r.id, &lr->r.game, &lr->r.options,
	    &lr->r.seats, &lr->r.status, &lr->r.result, &lr->r.creator};
	size_t off[7], len[7], total = 0;
	int i;

	for (i = 0; i < 7; i++) {
		len[i] = strlen(store_col(st, i)) + 1;
		off[i] = total;
		total += len[i];
	}
	if ((lr->text = malloc(total)) == NULL)
		return -1;
	for (i = 0; i < 7; i++) {
		memcpy(lr->text + off[i], store_col(st, i), len[i]);
		*dst[i] = lr->text + off[i];
	}
	/* A room not ended has no result: NULL as on save. */
	if (sqlite3_column_type(st, 5) == SQLITE_NULL)
		lr->r.result = NULL;
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
store_load_free(struct store_load_room *rooms, size_t n)
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
store_load_rooms(struct store *s, struct store_load_room **out, size_t *nout)
{
	sqlite3_stmt *st = s->st[ST_LOAD_ROOMS];
	struct store_load_room *rooms = NULL, *grown;
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
		if (store_load_copy(st, &rooms[n]) != 0)
			goto nomem;
		n++;
	}
	if (rc != SQLITE_DONE) {
		store_fail(s, "load rooms");
		store_reset(st);
		store_load_free(rooms, n);
		return -1;
	}
	store_reset(st);
	*out = rooms;
	*nout = n;
	return 0;
nomem:
	snprintf(s->err, sizeof s->err, "load rooms: out of memory");
	store_reset(st);
	store_load_free(rooms, n);
	return -1;
}

/* A growing array of moves with their notations in one text block; off
 * keeps each notation's offset until the block stops moving. */
struct store_load_moves {
	struct store_move *m;
	size_t *off;
	size_t n, cap;
	char *text;
	size_t used, size;
};

/* Make room for one more move in lm. */
static int
store_load_moves_grow(struct store_load_moves *lm)
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
store_load_moves_add(struct store_load_moves *lm, sqlite3_stmt *st)
{
	const char *move = store_col(st, 2);
	size_t len = strlen(move) + 1;
	struct store_move *m;
	void *grown;

	if (store_load_moves_grow(lm) != 0)
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
store_load_moves_fix(struct store_load_moves *lm)
{
	size_t i;

	for (i = 0; i < lm->n; i++)
		lm->m[i].move = lm->text + lm->off[i];
}

/* Read the moves of (room, game_no) in order into lm. */
static int
store_load_moves(
    struct store *s, const struct store_room *r, struct store_load_moves *lm)
{
	sqlite3_stmt *st = s->st[ST_LOAD_MOVES];
	char op[96];
	int rc = SQLITE_OK;

	lm->n = 0;
	lm->used = 0;
	store_bind_text(st, 1, r->id, &rc);
	store_bind_int(st, 2, r->game_no, &rc);
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (store_load_moves_add(lm, st) != 0) {
			snprintf(s->err, sizeof s->err,
			    "load moves (room"
			    " %.40s): out of memory",
			    r->id);
			store_reset(st);
			return -1;
		}
		rc = SQLITE_OK;
	}
	if (rc != SQLITE_DONE) {
		snprintf(op, sizeof op, "load moves (room %.40s)", r->id);
		store_fail(s, op);
		store_reset(st);
		return -1;
	}
	store_reset(st);
	store_load_moves_fix(lm);
	return 0;
}

int
store_load(struct store *s, store_room_cb cb, void *arg)
{
	struct store_load_room *rooms;
	struct store_load_moves lm = {0};
	size_t n, i;
	int ret = 0;

	if (store_load_rooms(s, &rooms, &n) != 0)
		return -1;
	for (i = 0; i < n && ret == 0; i++) {
		if (store_load_moves(s, &rooms[i].r, &lm) != 0) {
			ret = -1;
			break;
		}
		if (cb(arg, &rooms[i].r, lm.m, (int)lm.n) != 0) {
			snprintf(s->err, sizeof s->err,
			    "load: stopped by the"
			    " caller at room %.40s",
			    rooms[i].r.id);
			ret = -1;
		}
	}
	free(lm.m);
	free(lm.off);
	free(lm.text);
	store_load_free(rooms, n);
	return ret;
}

int
store_room_max_number(struct store *s, long *n)
{
	sqlite3_stmt *st = s->st[ST_ROOM_MAX];
	long long v;

	if (sqlite3_step(st) != SQLITE_ROW) {
		store_fail(s, "max room number");
		store_reset(st);
		return -1;
	}
	v = sqlite3_column_int64(st, 0);
	store_reset(st);
	if (v < 0 || v > LONG_MAX) {
		snprintf(s->err, sizeof s->err,
		    "max room number: %lld out of"
		    " range",
		    v);
		return -1;
	}
	*n = (long)v;
	return 0;
}

int
store_prune(
    struct store *s, const char *status, long long before_ms, int *count)
{
	sqlite3_stmt *st = s->st[ST_PRUNE];
	int rc = SQLITE_OK;

	store_bind_text(st, 1, status, &rc);
	store_bind_int(st, 2, before_ms, &rc);
	return store_exec_count(s, ST_PRUNE, rc, "prune rooms", count);
}

int
store_games_prune(struct store *s, long long before_ms, int max, int *count)
{
	sqlite3_stmt *st = s->st[ST_GAMES_PRUNE];
	int rc = SQLITE_OK;

	store_bind_int(st, 1, before_ms, &rc);
	store_bind_int(st, 2, max, &rc);
	return store_exec_count(s, ST_GAMES_PRUNE, rc, "prune games", count);
}

int
store_progress_put(
    struct store *s, const char *name, const char *game, const char *json)
{
	sqlite3_stmt *st = s->st[ST_PROGRESS_PUT];
	int rc = SQLITE_OK;

	store_bind_text(st, 1, name, &rc);
	store_bind_text(st, 2, game, &rc);
	store_bind_text(st, 3, json, &rc);
	store_bind_int(st, 4, store_now_ms(), &rc);
	return store_exec(s, ST_PROGRESS_PUT, rc, "put progress");
}

int
store_progress_get(struct store *s, const char *name, const char *game,
    char *buf, size_t len, int *found)
{
	sqlite3_stmt *st = s->st[ST_PROGRESS_GET];
	int rc = SQLITE_OK;

	store_bind_text(st, 1, name, &rc);
	store_bind_text(st, 2, game, &rc);
	return store_get_text(
	    s, ST_PROGRESS_GET, rc, "get progress", buf, len, found);
}

int
store_game_put(struct store *s, const struct store_game *g)
{
	sqlite3_stmt *st = s->st[ST_GAME_PUT];
	int rc = SQLITE_OK;

	store_bind_text(st, 1, g->room, &rc);
	store_bind_int(st, 2, g->game_no, &rc);
	store_bind_text(st, 3, g->game, &rc);
	store_bind_text(st, 4, g->options, &rc);
	store_bind_text(st, 5, g->seats, &rc);
	store_bind_text(st, 6, g->names[0], &rc);
	store_bind_text(st, 7, g->names[1], &rc);
	store_bind_text(st, 8, g->result, &rc);
	store_bind_int(st, 9, g->is_private != 0, &rc);
	store_bind_int(st, 10, g->clock_initial_ms, &rc);
	store_bind_int(st, 11, g->clock_increment_ms, &rc);
	store_bind_int(st, 12, g->started_ms, &rc);
	store_bind_int(st, 13, g->ended_ms, &rc);
	store_bind_int(st, 14, g->nmoves, &rc);
	store_bind_text(st, 15, g->moves, &rc);
	store_bind_text(st, 16, g->start, &rc);
	store_bind_text(st, 17, g->position, &rc);
	return store_exec(s, ST_GAME_PUT, rc, "put finished game");
}

/* The current row of a games query (STORE_GAME_COLS) into g; its strings
 * live until the statement steps again. */
static void
store_game_row(sqlite3_stmt *st, struct store_game *g)
{
	memset(g, 0, sizeof *g);
	g->id = sqlite3_column_int64(st, 0);
	g->room = store_col(st, 1);
	g->game_no = sqlite3_column_int(st, 2);
	g->game = store_col(st, 3);
	g->options = store_col(st, 4);
	g->seats = store_col(st, 5);
	g->result = store_col(st, 6);
	g->is_private = sqlite3_column_int(st, 7);
	g->clock_initial_ms = sqlite3_column_int64(st, 8);
	g->clock_increment_ms = sqlite3_column_int64(st, 9);
	g->started_ms = sqlite3_column_int64(st, 10);
	g->ended_ms = sqlite3_column_int64(st, 11);
	g->nmoves = sqlite3_column_int(st, 12);
	g->moves = store_col(st, 13);
	g->start = store_col(st, 14);
	g->position = store_col(st, 15);
}

/* Step a bound games query, calling cb on each row; the count into *n. */
static int
store_games_run(struct store *s, enum store_stmt which, int bind_rc,
    const char *op, store_game_cb cb, void *arg, int *n)
{
	sqlite3_stmt *st = s->st[which];
	struct store_game g;
	int rc = bind_rc;

	*n = 0;
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		store_game_row(st, &g);
		(*n)++;
		cb(arg, &g);
		rc = SQLITE_OK;
	}
	if (rc != SQLITE_DONE) {
		store_fail(s, op);
		store_reset(st);
		return -1;
	}
	store_reset(st);
	return 0;
}

int
store_games_recent(
    struct store *s, const char *game, int limit, store_game_cb cb, void *arg)
{
	int rc = SQLITE_OK, n;

	store_bind_int(s->st[ST_GAMES_RECENT], 1, limit, &rc);
	store_bind_text(s->st[ST_GAMES_RECENT], 2, game, &rc);
	return store_games_run(
	    s, ST_GAMES_RECENT, rc, "list finished games", cb, arg, &n);
}

int
store_games_of(struct store *s, const char *name, int with_private, int limit,
    store_game_cb cb, void *arg)
{
	sqlite3_stmt *st = s->st[ST_GAMES_OF];
	int rc = SQLITE_OK, n;

	store_bind_text(st, 1, name, &rc);
	store_bind_int(st, 2, with_private != 0, &rc);
	store_bind_int(st, 3, limit, &rc);
	return store_games_run(
	    s, ST_GAMES_OF, rc, "a player's games", cb, arg, &n);
}

int
store_game_last(
    struct store *s, const char *room, store_game_cb cb, void *arg, int *found)
{
	int rc = SQLITE_OK;

	store_bind_text(s->st[ST_GAME_LAST], 1, room, &rc);
	return store_games_run(
	    s, ST_GAME_LAST, rc, "a room's last game", cb, arg, found);
}
