/*
 * pg.c: the PostgreSQL backend (libpq), chosen by a postgresql:// URL as
 * --db. The same schema and migrations as SQLite's (schema.c, PostgreSQL's
 * dialect), the same ops and reads. A group is one transaction sent in
 * libpq's pipeline mode: BEGIN, every op, COMMIT, with one round trip per
 * PGPG_PIPE_CHUNK ops, so that a group costs about one network wait and
 * not one per move. Every statement is prepared once per connection.
 * Room numbers come from a sequence, so several servers may share one
 * database. Each connection belongs to one thread (the store thread's
 * writer, the loop's reader), as libpq requires.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "server/base/base.h"
#include "server/store/fault.h"
#include "server/store/schema.h"
#include "server/store/store.h"

/* Room for one error message: an operation, a key and the server's text. */
#define PGPG_ERRLEN 512
/* The most parameters a statement takes (a kept game: 17). */
#define PGPG_PARAMS 20
/* Digits of a 64-bit integer, its sign and the NUL. */
#define PGPG_NUMLEN 24
/* The most moves one PS_MOVE_BATCH statement carries. */
#define PGPG_BATCH_MAX 1024
/* The columns of a move, as PS_MOVE_BATCH's arrays. */
#define PGPG_MOVE_COLS 9
/* Ops sent before the pipeline is synced and the results read: the
 * server's replies to them (tens of bytes each) must fit the socket's
 * buffers, or server and client would each wait for the other to read. */
#define PGPG_PIPE_CHUNK 1024
/* How long the writer waits for a lock another session holds (an
 * operator's transaction, a backup) before its group fails and is tried
 * again later, as SQLite's busy timeout does: held output waits meanwhile,
 * and new changes are refused only once a group has failed. */
#define PGPG_LOCK_TIMEOUT "SET lock_timeout = 2000"
/* Seconds a connection attempt waits for the server. */
#define PGPG_CONNECT_TIMEOUT "10"
/* Key of the advisory lock that serialises migrations when several servers
 * start on one database at once ("tblr"). */
#define PGPG_MIGRATE_LOCK 0x74626c72

/* The prepared statements. */
enum pgpg_stmt {
	PS_ROOM_SAVE,
	PS_ROOM_DELETE,
	PS_MOVE_PUT,
	PS_MOVE_BATCH,
	PS_MOVE_TRUNCATE,
	PS_PROGRESS_PUT,
	PS_GAME_PUT,
	PS_IDENT_PUT,
	PS_IDENT_PLAYED,
	PS_IDENT_SEEN,
	PS_IDENT_PRUNE,
	PS_ROOM_PRUNE,
	PS_GAMES_PRUNE,
	PS_LOAD_ROOMS,
	PS_LOAD_MOVES,
	PS_ROOM_NUMBER,
	PS_ROOM_SKIP,
	PS_IDENT_FIND,
	PS_PROGRESS_GET,
	PS_GAMES_RECENT,
	PS_GAMES_RECENT_GAME,
	PS_GAMES_OF,
	PS_GAME_LAST,
	PS_RATING_PUT,
	PS_RATINGS_OF,
	PS_RATINGS_TOP,
	PS_RECORD_PUT,
	PS_RECORDS_OF,
	PS_RECORDS_TOP,
	PS_COUNT
};

/* The columns of a finished game, in the order pgpg_game_row reads. */
#define PGPG_GAME_COLS                                                         \
	"id, room, game_no, game, options, seats, result, private,"            \
	" clock_initial_ms, clock_increment_ms, started_ms, ended_ms,"         \
	" nmoves, moves, start, position"

/* The same for a list: a summary, without the moves and positions,
 * which may be hundreds of kilobytes a game and a list never shows. */
#define PGPG_GAME_SUMMARY_COLS                                                 \
	"id, room, game_no, game, options, seats, result, private,"            \
	" clock_initial_ms, clock_increment_ms, started_ms, ended_ms,"         \
	" nmoves, '' AS moves, '' AS start, '' AS position"
/* A page of finished games: those before the cursor ($1 ended_ms, $2
 * id), newest first, $3 of them, in an index's order (STORE_V_READS_PG:
 * ended_ms, then id), so nothing is sorted. */
#define PGPG_GAMES_PAGE                                                        \
	" AND (ended_ms, id) < ($1::bigint, $2::bigint)"                       \
	" ORDER BY ended_ms DESC, id DESC LIMIT $3"
/* How a bounded read is unbounded after (pgpg_games_bounded). */
#define PGPG_UNBOUND "SET statement_timeout = 0"
/* PostgreSQL's SQLSTATE for a statement cancelled by its timeout. */
#define PGPG_QUERY_CANCELED "57014"

/* A record's columns, in struct store_record's order. */
#define PGPG_RECORD_COLS "name, game, solved, best, tries, updated_ms"

/* A rating's columns, in struct store_rating's order. */
#define PGPG_RATING_COLS                                                       \
	"name, pool, rating, rd, vol, wins, draws, losses, updated_ms"

static const char *const pgpg_sql[PS_COUNT] = {
    [PS_ROOM_SAVE] =
        "INSERT INTO rooms (id, number, game, options, seats, status,"
        " result, creator, private, clock_initial_ms, clock_increment_ms,"
        " game_no, created_ms, updated_ms, seq, owner_epoch, unrated)"
        " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13,"
        " $14, $15, $16, $17)"
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
    [PS_ROOM_DELETE] = "DELETE FROM rooms WHERE id = $1",
    [PS_MOVE_PUT] =
        "INSERT INTO moves (room, game_no, ply, seat, move, clock0,"
        " clock1, at_ms, seq) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
        " ON CONFLICT (room, game_no, ply) DO UPDATE"
        " SET seat = excluded.seat, move = excluded.move,"
        " clock0 = excluded.clock0, clock1 = excluded.clock1,"
        " at_ms = excluded.at_ms, seq = excluded.seq",
    /* A run of moves in one statement, each column an array ($1..$9 as
     * PS_MOVE_PUT's): one statement for the server to plan and run per
     * run of moves, not per move. Where one key comes twice, the later
     * wins, as two PS_MOVE_PUTs in a row would do. */
    [PS_MOVE_BATCH] =
        "INSERT INTO moves (room, game_no, ply, seat, move, clock0,"
        " clock1, at_ms, seq) SELECT DISTINCT ON (room, game_no, ply)"
        " room, game_no, ply, seat, move, clock0, clock1, at_ms, seq"
        " FROM unnest($1::text[], $2::int[], $3::int[], $4::int[],"
        " $5::text[], $6::bigint[], $7::bigint[], $8::bigint[],"
        " $9::bigint[]) WITH ORDINALITY AS t (room, game_no, ply, seat,"
        " move, clock0, clock1, at_ms, seq, i)"
        " ORDER BY room, game_no, ply, i DESC"
        " ON CONFLICT (room, game_no, ply) DO UPDATE"
        " SET seat = excluded.seat, move = excluded.move,"
        " clock0 = excluded.clock0, clock1 = excluded.clock1,"
        " at_ms = excluded.at_ms, seq = excluded.seq",
    [PS_MOVE_TRUNCATE] = "DELETE FROM moves WHERE room = $1"
                         " AND game_no = $2 AND ply >= $3",
    [PS_PROGRESS_PUT] = "INSERT INTO progress (name, game, json,"
                        " updated_ms) VALUES ($1, $2, $3, $4)"
                        " ON CONFLICT (name, game) DO UPDATE"
                        " SET json = excluded.json,"
                        " updated_ms = excluded.updated_ms",
    /* Kept once per (room, game_no, ended_ms): a retried group adds no
     * second row. started_ms: the first move's time, else $12. A game
     * taken back after its end (one-player undo or restart) and ended
     * again is kept once, as it ended last: its earlier end goes. */
    [PS_GAME_PUT] =
        "WITH replaced AS (DELETE FROM games WHERE room = $1"
        " AND game_no = $2 AND ended_ms <> $13)"
        " INSERT INTO games (room, game_no, game, options, seats, name0,"
        " name1, result, private, clock_initial_ms, clock_increment_ms,"
        " started_ms, ended_ms, nmoves, moves, start, position)"
        " SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11,"
        " coalesce((SELECT min(at_ms) FROM moves WHERE room = $1"
        " AND game_no = $2), $12), $13, $14, $15, $16, $17"
        " WHERE NOT EXISTS (SELECT 1 FROM games WHERE room = $1"
        " AND game_no = $2 AND ended_ms = $13)",
    [PS_IDENT_PUT] = "INSERT INTO identities (name, token_hash, created_ms,"
                     " folded, played, seen_ms)"
                     " VALUES ($1, $2, $3, lower($1), 0, $3)"
                     " ON CONFLICT (name)"
                     " DO UPDATE SET token_hash = excluded.token_hash",
    [PS_IDENT_PLAYED] = "UPDATE identities SET played = 1 WHERE name = $1",
    [PS_IDENT_SEEN] = "UPDATE identities SET seen_ms = $2 WHERE name = $1",
    /* Not the creator of an unfinished room (it may still start). */
    [PS_IDENT_PRUNE] = "DELETE FROM identities WHERE played = 0"
                       " AND seen_ms < $1 AND NOT EXISTS (SELECT 1"
                       " FROM rooms WHERE rooms.creator = identities.name"
                       " AND rooms.status <> 'ended')",
    /* $1 is one status or several separated by commas. */
    [PS_ROOM_PRUNE] = "DELETE FROM rooms WHERE updated_ms < $2"
                      " AND strpos(',' || $1 || ',', ',' || status || ',')"
                      " > 0",
    /* The oldest first, $2 at most (games_ended finds them). */
    [PS_GAMES_PRUNE] = "DELETE FROM games WHERE id IN (SELECT id FROM games"
                       " WHERE ended_ms < $1 ORDER BY ended_ms LIMIT $2)",
    /* The values after a game ($10-$13: those it was worked out from).
     * On a cluster another node may have ended a game of the same player
     * since they were read: the row as it is now (the upsert locks it)
     * gets this game's change added, so neither game is lost (its
     * counts exact, its rating moved by both changes, as games of one
     * rating period are). Alone, the row is still the one read and
     * takes the values as they are. Once per game ($14, NULL: no
     * game): the change is made only when the game's row in
     * rating_games is new, so a group tried again after its COMMIT went
     * through unseen (the connection lost while committing) does not
     * add its games' changes a second time. */
    [PS_RATING_PUT] =
        "WITH once AS (INSERT INTO rating_games (game, name, at_ms)"
        " SELECT $14::text, $1::text, $9::bigint WHERE $14::text IS NOT NULL"
        " ON CONFLICT DO NOTHING RETURNING 1)"
        " INSERT INTO ratings (name, pool, rating, rd, vol, wins, draws,"
        " losses, updated_ms) SELECT $1::text, $2::text,"
        " $3::double precision, $4::double precision, $5::double precision,"
        " $6::integer, $7::integer, $8::integer, $9::bigint"
        " WHERE $14::text IS NULL OR EXISTS (SELECT 1 FROM once)"
        " ON CONFLICT (name, pool) DO UPDATE SET rating = CASE"
        " WHEN ratings.rating = $10 THEN excluded.rating"
        " ELSE ratings.rating + (excluded.rating - $10) END,"
        " rd = excluded.rd, vol = excluded.vol,"
        " wins = ratings.wins + (excluded.wins - $11),"
        " draws = ratings.draws + (excluded.draws - $12),"
        " losses = ratings.losses + (excluded.losses - $13),"
        " updated_ms = excluded.updated_ms",
    [PS_RATINGS_OF] = "SELECT " PGPG_RATING_COLS " FROM ratings"
                      " WHERE name = $1 ORDER BY pool",
    /* $2: 1 for the provisional ones (rd at or above $3). */
    [PS_RATINGS_TOP] =
        "SELECT " PGPG_RATING_COLS " FROM ratings"
        " WHERE pool = $1 AND (rd >= $3::double precision) = ($2::int = 1)"
        " ORDER BY rating DESC, name LIMIT $5 OFFSET $4",
    [PS_RECORD_PUT] =
        "INSERT INTO records (name, game, solved, best, tries, updated_ms)"
        " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (name, game) DO UPDATE"
        " SET solved = excluded.solved, best = excluded.best,"
        " tries = excluded.tries, updated_ms = excluded.updated_ms",
    [PS_RECORDS_OF] = "SELECT " PGPG_RECORD_COLS " FROM records"
                      " WHERE name = $1 ORDER BY game",
    /* $2: 1 for a game with levels (highest level, fewest tries). */
    [PS_RECORDS_TOP] =
        "SELECT " PGPG_RECORD_COLS " FROM records WHERE game = $1"
        " ORDER BY CASE WHEN $2::int = 1 THEN best ELSE solved END DESC,"
        " CASE WHEN $2::int = 1 THEN tries ELSE best END, name"
        " LIMIT $4 OFFSET $3",
    [PS_LOAD_ROOMS] =
        "SELECT id, game, options, seats, status, result, creator,"
        " private, clock_initial_ms, clock_increment_ms, game_no,"
        " created_ms, updated_ms, seq, unrated FROM rooms"
        " WHERE status <> 'ended' ORDER BY created_ms, number, id",
    [PS_LOAD_MOVES] = "SELECT ply, seat, move, clock0, clock1, at_ms, seq"
                      " FROM moves WHERE room = $1 AND game_no = $2"
                      " ORDER BY ply",
    [PS_ROOM_NUMBER] = "SELECT nextval('room_numbers'),"
                       " coalesce((SELECT max(number) FROM rooms), 0)",
    /* Numbers taken one by one up past $1 stored: each is unique
     * whoever else takes numbers meanwhile, so the largest is one
     * nobody has and above every stored room. */
    [PS_ROOM_SKIP] = "SELECT max(nextval('room_numbers'))"
                     " FROM generate_series(1, $1::bigint)",
    [PS_IDENT_FIND] = "SELECT name, token_hash, played, created_ms, seen_ms"
                      " FROM identities"
                      " WHERE folded = lower($1) OR name = $1"
                      " ORDER BY name = $1 DESC LIMIT 1",
    [PS_PROGRESS_GET] = "SELECT json FROM progress"
                        " WHERE name = $1 AND game = $2",
    /* The index games_public, or games_public_game with $4 the game. */
    [PS_GAMES_RECENT] = "SELECT " PGPG_GAME_SUMMARY_COLS " FROM games"
                        " WHERE private = 0" PGPG_GAMES_PAGE,
    [PS_GAMES_RECENT_GAME] = "SELECT " PGPG_GAME_SUMMARY_COLS " FROM games"
                             " WHERE private = 0 AND game = $4" PGPG_GAMES_PAGE,
    /* A player's games as the first seat (games_name0_at) and as the
     * second (games_name1_at), each a page in its index's order, merged:
     * one OR of both sorted all of a player's games. $4 the name, $5 1
     * to include private games (a player's own history). */
    [PS_GAMES_OF] = "SELECT * FROM ((SELECT " PGPG_GAME_SUMMARY_COLS
                    " FROM games WHERE name0 = $4"
                    " AND (private = 0 OR $5::int <> 0)" PGPG_GAMES_PAGE
                    ") UNION ALL (SELECT " PGPG_GAME_SUMMARY_COLS
                    " FROM games WHERE name1 = $4"
                    " AND name0 IS DISTINCT FROM $4"
                    " AND (private = 0 OR $5::int <> 0)" PGPG_GAMES_PAGE
                    ")) g ORDER BY ended_ms DESC, id DESC LIMIT $3",
    [PS_GAME_LAST] = "SELECT " PGPG_GAME_COLS " FROM games"
                     " WHERE room = $1 ORDER BY id DESC LIMIT 1",
};

struct store_conn {
	PGconn *pg;
	char *where; /* the URL, to connect again after a lost connection */
	int flags;
	int prepared;  /* the statements exist on this connection */
	int copy_sent; /* --copy-db rows sent and not yet read back */
	int canceled;  /* the last read was stopped by statement_timeout */
	int read_ms;   /* a bounded read's bound (STORE_READ_MS) */
	struct store_fault fault;
	char err[PGPG_ERRLEN];
};

/* One statement's parameters as text (libpq's text format). */
struct pgpg_params {
	const char *v[PGPG_PARAMS];
	char num[PGPG_PARAMS][PGPG_NUMLEN];
	int n;
};

/* Add a string parameter (NULL: SQL NULL). */
static void
pgpg_text(struct pgpg_params *p, const char *v)
{
	p->v[p->n++] = v;
}

/* Add an integer parameter. */
static void
pgpg_int(struct pgpg_params *p, long long v)
{
	snprintf(p->num[p->n], sizeof p->num[p->n], "%lld", v);
	p->v[p->n] = p->num[p->n];
	p->n++;
}

/* Add a floating-point parameter (a rating: 15 digits are plenty). */
static void
pgpg_real(struct pgpg_params *p, double v)
{
	snprintf(p->num[p->n], sizeof p->num[p->n], "%.15g", v);
	p->v[p->n] = p->num[p->n];
	p->n++;
}

/* Keep "op: the server's message" (one line) as the last error; -1. */
static int
pgpg_fail(struct store_conn *c, const char *op, const char *why)
{
	size_t n;

	snprintf(c->err, sizeof c->err, "%s: %s", op,
	    why != NULL && *why != '\0' ? why : PQerrorMessage(c->pg));
	/* The first line: the server's CONTEXT and DETAIL lines follow. */
	c->err[strcspn(c->err, "\n")] = '\0';
	n = strlen(c->err);
	while (n > 0 && c->err[n - 1] == ' ')
		c->err[--n] = '\0';
	return -1;
}

/* Run one fixed statement outside any pipeline; 0 or -1. */
static int
pgpg_exec(struct store_conn *c, const char *sql, const char *op)
{
	PGresult *r = PQexec(c->pg, sql);
	int ok = PQresultStatus(r) == PGRES_COMMAND_OK ||
	    PQresultStatus(r) == PGRES_TUPLES_OK;

	if (!ok)
		pgpg_fail(c, op, PQresultErrorMessage(r));
	PQclear(r);
	return ok ? 0 : -1;
}

/* The schema version stored, 0 in an empty database, -1 (err) in one
 * that holds tables but not tablero's. */
static int
pgpg_version(struct store_conn *c, long long *version)
{
	PGresult *r;
	long long tables;

	r = PQexec(c->pg,
	    "SELECT (SELECT count(*) FROM pg_tables WHERE"
	    " schemaname = current_schema()),"
	    " to_regclass('tablero_schema') IS NOT NULL");
	if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1) {
		pgpg_fail(c, "read the schema", PQresultErrorMessage(r));
		PQclear(r);
		return -1;
	}
	tables = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
	if (strcmp(PQgetvalue(r, 0, 1), "t") != 0) {
		PQclear(r);
		*version = 0;
		if (tables == 0)
			return 0;
		snprintf(c->err, sizeof c->err,
		    "a database but not tablero's (%lld tables, no"
		    " tablero_schema)",
		    tables);
		return -1;
	}
	PQclear(r);
	r = PQexec(c->pg, "SELECT version FROM tablero_schema");
	if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1) {
		pgpg_fail(c, "read the schema version",
		    PQresultStatus(r) == PGRES_TUPLES_OK
		        ? "tablero_schema holds no single row"
		        : PQresultErrorMessage(r));
		PQclear(r);
		return -1;
	}
	*version = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
	PQclear(r);
	return 0;
}

/* Apply the migrations from `from` on and record the version, inside the
 * open transaction. */
static int
pgpg_apply(struct store_conn *c, long long from)
{
	char sql[128], what[64];
	int i;

	if (from == 0 &&
	    pgpg_exec(c,
	        "CREATE TABLE tablero_schema (version INTEGER NOT NULL);"
	        " INSERT INTO tablero_schema VALUES (0)",
	        "create tablero_schema") != 0)
		return -1;
	for (i = (int)from; i < store_schema_version; i++) {
		snprintf(
		    what, sizeof what, "migration to schema version %d", i + 1);
		if (pgpg_exec(c, store_schema_sql(i, 1), what) != 0)
			return -1;
	}
	snprintf(sql, sizeof sql, "UPDATE tablero_schema SET version = %d",
	    store_schema_version);
	return pgpg_exec(c, sql, "record the schema version");
}

/*
 * Bring the schema to this server's version in one transaction, under an
 * advisory lock so that servers starting together migrate one at a time;
 * a database of a newer server is refused.
 */
static int
pgpg_migrate(struct store_conn *c)
{
	char sql[96];
	long long version;

	if (pgpg_exec(c, "BEGIN", "begin the migration") != 0)
		return -1;
	snprintf(sql, sizeof sql, "SELECT pg_advisory_xact_lock(%d)",
	    PGPG_MIGRATE_LOCK);
	if (pgpg_exec(c, sql, "lock for the migration") != 0 ||
	    pgpg_version(c, &version) != 0)
		goto fail;
	if (version > store_schema_version) {
		snprintf(c->err, sizeof c->err,
		    "schema version %lld is newer than this server (%d)",
		    version, store_schema_version);
		goto fail;
	}
	if (version < store_schema_version && pgpg_apply(c, version) != 0)
		goto fail;
	/* Rooms stored by other means (--copy-db, an older server counting
	 * in memory) must not get their numbers again from the sequence. */
	if (pgpg_exec(c,
	        "SELECT setval('room_numbers', m) FROM (SELECT max(number)"
	        " AS m FROM rooms) x WHERE m IS NOT NULL AND m >= (SELECT"
	        " CASE WHEN is_called THEN last_value + 1 ELSE last_value"
	        " END FROM room_numbers)",
	        "catch the room numbers up") != 0)
		goto fail;
	if (pgpg_exec(c, "COMMIT", "commit the schema") != 0)
		goto fail;
	return 0;
fail:
	PQclear(PQexec(c->pg, "ROLLBACK"));
	return -1;
}

/* Prepare every statement on the connection. */
static int
pgpg_prepare(struct store_conn *c)
{
	char name[16];
	PGresult *r;
	int i;

	for (i = 0; i < PS_COUNT; i++) {
		snprintf(name, sizeof name, "s%d", i);
		r = PQprepare(c->pg, name, pgpg_sql[i], 0, NULL);
		if (PQresultStatus(r) != PGRES_COMMAND_OK) {
			pgpg_fail(c, "prepare", PQresultErrorMessage(r));
			PQclear(r);
			return -1;
		}
		PQclear(r);
	}
	c->prepared = 1;
	return 0;
}

/* Close the connection: the server rolls back whatever it had open; the
 * next commit connects again. */
static void
pgpg_disconnect(struct store_conn *c)
{
	if (c->pg != NULL)
		PQfinish(c->pg);
	c->pg = NULL;
	c->prepared = 0;
}

/*
 * Connect (again) and make the connection ready: quiet notices, the
 * commit's durability, the schema (writer), the prepared statements, and
 * pipeline mode for the writer's groups.
 */
static int
pgpg_connect(struct store_conn *c)
{
	const char *keys[] = {
	    "dbname", "connect_timeout", "application_name", NULL};
	const char *vals[] = {c->where, PGPG_CONNECT_TIMEOUT, "tablerod", NULL};

	pgpg_disconnect(c);
	/* expand_dbname: the URL's own fields win over the others. */
	c->pg = PQconnectdbParams(keys, vals, 1);
	if (c->pg == NULL) {
		snprintf(c->err, sizeof c->err, "connect: out of memory");
		return -1;
	}
	if (PQstatus(c->pg) != CONNECTION_OK)
		return pgpg_fail(c, "connect", NULL);
	if (pgpg_exec(c, "SET client_min_messages = warning", "settings") != 0)
		return -1;
	/* --sync full waits for the server's WAL flush at each commit;
	 * normal does not (a crash of PostgreSQL itself, not of tablerod,
	 * may lose the last commits, as SQLite's synchronous=NORMAL may on
	 * a power cut). */
	if (pgpg_exec(c,
	        (c->flags & STORE_SYNC_FULL) ? "SET synchronous_commit = on"
	                                     : "SET synchronous_commit = off",
	        "set synchronous_commit") != 0)
		return -1;
	if (!(c->flags & STORE_READER) &&
	    (pgpg_exec(c, PGPG_LOCK_TIMEOUT, "set lock_timeout") != 0 ||
	        pgpg_migrate(c) != 0))
		return -1;
	if (pgpg_prepare(c) != 0)
		return -1;
	if (!(c->flags & STORE_READER) && PQenterPipelineMode(c->pg) != 1)
		return pgpg_fail(c, "pipeline mode", NULL);
	return 0;
}

/* A connection ready for use: connect again when it was lost. */
static int
pgpg_ready(struct store_conn *c)
{
	if (c->pg != NULL && PQstatus(c->pg) == CONNECTION_OK && c->prepared)
		return 0;
	return pgpg_connect(c);
}

static int
pgpg_handles(const char *where)
{
	return strncmp(where, "postgresql://", 13) == 0 ||
	    strncmp(where, "postgres://", 11) == 0;
}

static void
pgpg_close(struct store_conn *c)
{
	if (c == NULL)
		return;
	if (c->pg != NULL)
		PQfinish(c->pg);
	store_fault_free(&c->fault);
	free(c->where);
	free(c);
}

static struct store_conn *
pgpg_open(const char *where, int flags, char *err, size_t errlen)
{
	struct store_conn *c;

	if ((c = calloc(1, sizeof *c)) == NULL ||
	    (c->where = strdup(where)) == NULL ||
	    store_fault_init(&c->fault) != 0) {
		snprintf(err, errlen, "database: out of memory");
		pgpg_close(c);
		return NULL;
	}
	c->flags = flags;
	c->read_ms = STORE_READ_MS;
	if (pgpg_connect(c) != 0) {
		/* The URL may hold a password: name the database only. */
		snprintf(err, errlen, "database %s: %s",
		    c->pg != NULL && PQdb(c->pg) != NULL ? PQdb(c->pg) : "?",
		    c->err);
		pgpg_close(c);
		return NULL;
	}
	return c;
}

static const char *
pgpg_errmsg(struct store_conn *c)
{
	if (c == NULL)
		return "no store";
	return c->err[0] != '\0' ? c->err : "no error";
}

/* The statement and parameters of one op into p; its statement. */
static enum pgpg_stmt
pgpg_op_params(const struct store_op *op, struct pgpg_params *p)
{
	const struct store_room *r = &op->u.room;
	const struct store_move *m = &op->u.move;
	const struct store_game *g = &op->u.game;
	const char *num;
	long long n;

	p->n = 0;
	switch (op->kind) {
	case STORE_OP_ROOM_SAVE:
		pgpg_text(p, r->id);
		/* "r<digits>" -> its number, else NULL. */
		num = r->id != NULL && r->id[0] == 'r' ? r->id + 1 : "";
		n = *num != '\0' && strspn(num, "0123456789") == strlen(num) &&
		        strlen(num) <= 18
		    ? strtoll(num, NULL, 10)
		    : -1;
		if (n >= 0)
			pgpg_int(p, n);
		else
			pgpg_text(p, NULL);
		pgpg_text(p, r->game);
		pgpg_text(p, r->options);
		pgpg_text(p, r->seats);
		pgpg_text(p, r->status);
		pgpg_text(p, r->result);
		pgpg_text(p, r->creator);
		pgpg_int(p, r->is_private != 0);
		pgpg_int(p, r->clock_initial_ms);
		pgpg_int(p, r->clock_increment_ms);
		pgpg_int(p, r->game_no);
		pgpg_int(p, r->created_ms);
		pgpg_int(p, r->updated_ms);
		pgpg_int(p, r->seq);
		/* A new room's owner_epoch; a stored one's is the fence's. */
		pgpg_int(p, op->epoch);
		pgpg_text(p, r->unrated);
		return PS_ROOM_SAVE;
	case STORE_OP_ROOM_DELETE:
		pgpg_text(p, op->a);
		return PS_ROOM_DELETE;
	case STORE_OP_MOVE_PUT:
		pgpg_text(p, op->a);
		pgpg_int(p, op->n);
		pgpg_int(p, m->ply);
		pgpg_int(p, m->seat);
		pgpg_text(p, m->move);
		pgpg_int(p, m->clock_ms[0]);
		pgpg_int(p, m->clock_ms[1]);
		pgpg_int(p, m->at_ms);
		pgpg_int(p, m->seq);
		return PS_MOVE_PUT;
	case STORE_OP_MOVE_TRUNCATE:
		pgpg_text(p, op->a);
		pgpg_int(p, op->n);
		pgpg_int(p, op->m);
		return PS_MOVE_TRUNCATE;
	case STORE_OP_PROGRESS_PUT:
		pgpg_text(p, op->a);
		pgpg_text(p, op->b);
		pgpg_text(p, op->c);
		pgpg_int(p, op->ms != 0 ? op->ms : clock_now_ms());
		return PS_PROGRESS_PUT;
	case STORE_OP_GAME_PUT:
		pgpg_text(p, g->room);
		pgpg_int(p, g->game_no);
		pgpg_text(p, g->game);
		pgpg_text(p, g->options);
		pgpg_text(p, g->seats);
		pgpg_text(p, g->names[0]);
		pgpg_text(p, g->names[1]);
		pgpg_text(p, g->result);
		pgpg_int(p, g->is_private != 0);
		pgpg_int(p, g->clock_initial_ms);
		pgpg_int(p, g->clock_increment_ms);
		pgpg_int(p, g->started_ms);
		pgpg_int(p, g->ended_ms);
		pgpg_int(p, g->nmoves);
		pgpg_text(p, g->moves);
		pgpg_text(p, g->start);
		pgpg_text(p, g->position);
		return PS_GAME_PUT;
	case STORE_OP_IDENT_PUT:
		pgpg_text(p, op->a);
		pgpg_text(p, op->b);
		pgpg_int(p, op->ms != 0 ? op->ms : clock_now_ms());
		return PS_IDENT_PUT;
	case STORE_OP_IDENT_PLAYED:
		pgpg_text(p, op->a);
		return PS_IDENT_PLAYED;
	case STORE_OP_IDENT_SEEN:
		pgpg_text(p, op->a);
		pgpg_int(p, op->ms);
		return PS_IDENT_SEEN;
	case STORE_OP_IDENT_PRUNE:
		pgpg_int(p, op->ms);
		return PS_IDENT_PRUNE;
	case STORE_OP_ROOM_PRUNE:
		pgpg_text(p, op->a);
		pgpg_int(p, op->ms);
		return PS_ROOM_PRUNE;
	case STORE_OP_GAMES_PRUNE:
		pgpg_int(p, op->ms);
		pgpg_int(p, op->n);
		return PS_GAMES_PRUNE;
	case STORE_OP_RATING_PUT:
		pgpg_text(p, op->u.rating.name);
		pgpg_text(p, op->u.rating.pool);
		pgpg_real(p, op->u.rating.rating);
		pgpg_real(p, op->u.rating.rd);
		pgpg_real(p, op->u.rating.vol);
		pgpg_int(p, op->u.rating.wins);
		pgpg_int(p, op->u.rating.draws);
		pgpg_int(p, op->u.rating.losses);
		pgpg_int(p, op->u.rating.updated_ms);
		pgpg_real(p, op->u.rating.before_rating);
		pgpg_int(p, op->u.rating.before_wins);
		pgpg_int(p, op->u.rating.before_draws);
		pgpg_int(p, op->u.rating.before_losses);
		pgpg_text(p, op->u.rating.game);
		return PS_RATING_PUT;
	case STORE_OP_RECORD_PUT:
		pgpg_text(p, op->u.record.name);
		pgpg_text(p, op->u.record.game);
		pgpg_int(p, op->u.record.solved);
		pgpg_int(p, op->u.record.best);
		pgpg_int(p, op->u.record.tries);
		pgpg_int(p, op->u.record.updated_ms);
		return PS_RECORD_PUT;
	case STORE_OP_ROW:
		break; /* pgpg_send_row: no prepared statement */
	}
	return PS_COUNT;
}

/* Queue one statement on the pipeline; 0 or -1. */
static int
pgpg_send(
    struct store_conn *c, enum pgpg_stmt which, const struct pgpg_params *p)
{
	char name[16];

	snprintf(name, sizeof name, "s%d", (int)which);
	if (PQsendQueryPrepared(c->pg, name, p->n, p->v, NULL, NULL, 0) != 1)
		return pgpg_fail(c, "send", NULL);
	return 0;
}

/* Queue a statement of fixed text on the pipeline; 0 or -1. */
static int
pgpg_send_sql(struct store_conn *c, const char *sql)
{
	if (PQsendQueryParams(c->pg, sql, 0, NULL, NULL, NULL, NULL, 0) != 1)
		return pgpg_fail(c, "send", NULL);
	return 0;
}

/*
 * Sync the pipeline and read the results of its `sent` statements and
 * the sync; 0 when all succeeded, else -1 with the first error (the
 * statements after it were skipped by the server). counts[i], when
 * given and not NULL, gets the rows statement i changed added.
 */
static int
pgpg_drain(struct store_conn *c, int sent, const char *const *what,
    long *const *counts)
{
	PGresult *r;
	int i, bad = 0;

	if (PQpipelineSync(c->pg) != 1)
		return pgpg_fail(c, "sync", NULL);
	for (i = 0; i < sent; i++) {
		if ((r = PQgetResult(c->pg)) == NULL)
			return pgpg_fail(c, "read results", NULL);
		if (!bad && PQresultStatus(r) != PGRES_COMMAND_OK &&
		    PQresultStatus(r) != PGRES_TUPLES_OK) {
			pgpg_fail(c, what != NULL ? what[i] : "copy",
			    PQresultErrorMessage(r));
			bad = 1;
		} else if (!bad && counts != NULL && counts[i] != NULL)
			*counts[i] += strtol(PQcmdTuples(r), NULL, 10);
		PQclear(r);
		/* Each statement's results end with NULL. */
		while ((r = PQgetResult(c->pg)) != NULL)
			PQclear(r);
	}
	r = PQgetResult(c->pg);
	if (r == NULL || PQresultStatus(r) != PGRES_PIPELINE_SYNC) {
		if (!bad)
			pgpg_fail(c, "pipeline sync", NULL);
		bad = 1;
	}
	PQclear(r);
	return bad ? -1 : 0;
}

/* A name for each op kind, for the error of a failed op. */
static const char *
pgpg_op_name(enum store_op_kind kind)
{
	switch (kind) {
	case STORE_OP_ROOM_SAVE:
		return "save room";
	case STORE_OP_ROOM_DELETE:
		return "delete room";
	case STORE_OP_MOVE_PUT:
		return "put move";
	case STORE_OP_MOVE_TRUNCATE:
		return "truncate moves";
	case STORE_OP_PROGRESS_PUT:
		return "put progress";
	case STORE_OP_GAME_PUT:
		return "put finished game";
	case STORE_OP_IDENT_PUT:
		return "put identity";
	case STORE_OP_IDENT_PLAYED:
		return "mark identity played";
	case STORE_OP_IDENT_SEEN:
		return "mark identity seen";
	case STORE_OP_IDENT_PRUNE:
		return "prune identities";
	case STORE_OP_ROOM_PRUNE:
		return "prune rooms";
	case STORE_OP_GAMES_PRUNE:
		return "prune games";
	case STORE_OP_RATING_PUT:
		return "put rating";
	case STORE_OP_RECORD_PUT:
		return "put record";
	case STORE_OP_ROW:
		return "write a row";
	}
	return "write";
}

/* A growing text buffer, for the arrays of PS_MOVE_BATCH. */
struct pgpg_buf {
	char *p;
	size_t len, cap;
};

/* Append n bytes of v; 0, or -1 out of memory. */
static int
pgpg_buf_add(struct pgpg_buf *b, const char *v, size_t n)
{
	char *grown;
	size_t cap;

	if (b->len + n + 1 > b->cap) {
		cap = b->cap ? b->cap : 256;
		while (cap < b->len + n + 1)
			cap *= 2;
		if ((grown = realloc(b->p, cap)) == NULL)
			return -1;
		b->p = grown;
		b->cap = cap;
	}
	memcpy(b->p + b->len, v, n);
	b->len += n;
	b->p[b->len] = '\0';
	return 0;
}

/* Append one element of an array literal: a number, or a string quoted
 * with its quotes and backslashes escaped ("{", "," and "}" are added by
 * the caller). */
static int
pgpg_buf_elem(struct pgpg_buf *b, const char *text, long long num)
{
	char tmp[PGPG_NUMLEN];
	size_t i;
	int rc;

	if (text == NULL) {
		snprintf(tmp, sizeof tmp, "%lld", num);
		return pgpg_buf_add(b, tmp, strlen(tmp));
	}
	rc = pgpg_buf_add(b, "\"", 1);
	for (i = 0; text[i] != '\0' && rc == 0; i++) {
		if (text[i] == '"' || text[i] == '\\')
			rc = pgpg_buf_add(b, "\\", 1);
		if (rc == 0)
			rc = pgpg_buf_add(b, text + i, 1);
	}
	return rc == 0 ? pgpg_buf_add(b, "\"", 1) : -1;
}

/* Add one move op to the nine arrays (open "{" before the first). */
static int
pgpg_batch_add(struct pgpg_buf *col, const struct store_op *op, int first)
{
	const struct store_move *m = &op->u.move;
	const char *text[PGPG_MOVE_COLS] = {
	    op->a, NULL, NULL, NULL, m->move, NULL, NULL, NULL, NULL};
	long long num[PGPG_MOVE_COLS] = {0, op->n, m->ply, m->seat, 0,
	    m->clock_ms[0], m->clock_ms[1], m->at_ms, m->seq};
	int i;

	for (i = 0; i < PGPG_MOVE_COLS; i++)
		if (pgpg_buf_add(&col[i], first ? "{" : ",", 1) != 0 ||
		    pgpg_buf_elem(&col[i], text[i], num[i]) != 0)
			return -1;
	return 0;
}

/*
 * Send the run of moves from *op on (up to PGPG_BATCH_MAX) as one
 * statement; *op moves past them. Each move is a write for the fault
 * hook: at a fault the moves before it are sent and *faulted is set
 * (*op then stays on the faulting move). The statements sent are added
 * to *sent; 0, or -1.
 */
static int
pgpg_send_moves(
    struct store_conn *c, const struct store_op **op, int *sent, int *faulted)
{
	struct pgpg_buf col[PGPG_MOVE_COLS];
	const char *vals[PGPG_MOVE_COLS];
	char name[16];
	int i, n = 0, rc = 0;

	memset(col, 0, sizeof col);
	*faulted = 0;
	while (*op != NULL && (*op)->kind == STORE_OP_MOVE_PUT &&
	    n < PGPG_BATCH_MAX) {
		if (store_fault_now(&c->fault)) {
			*faulted = 1;
			break;
		}
		if ((rc = pgpg_batch_add(col, *op, n == 0)) != 0)
			break;
		n++;
		*op = (*op)->next;
	}
	for (i = 0; i < PGPG_MOVE_COLS && rc == 0 && n > 0; i++) {
		rc = pgpg_buf_add(&col[i], "}", 1);
		vals[i] = col[i].p;
	}
	if (rc != 0)
		snprintf(c->err, sizeof c->err, "put moves: out of memory");
	else if (n > 0) {
		snprintf(name, sizeof name, "s%d", (int)PS_MOVE_BATCH);
		if (PQsendQueryPrepared(
		        c->pg, name, PGPG_MOVE_COLS, vals, NULL, NULL, 0) != 1)
			rc = pgpg_fail(c, "send", NULL);
		else
			(*sent)++;
	}
	for (i = 0; i < PGPG_MOVE_COLS; i++)
		free(col[i].p);
	return rc;
}

/* An injected fault, sent as a statement that fails in the middle of the
 * group, so that the server itself throws the group away. */
#define PGPG_FAULT_SQL                                                         \
	"DO $$BEGIN RAISE EXCEPTION 'database or disk is full (injected "      \
	"by " STORE_FAULT_ENV ")'; END$$"

/* Queue a row op on the pipeline: its statement, the values as text;
 * 0 or -1. */
static int
pgpg_send_row(struct store_conn *c, const struct store_row *row)
{
	if (PQsendQueryParams(
	        c->pg, row->sql, row->n, NULL, row->vals, NULL, NULL, 0) != 1)
		return pgpg_fail(c, row->what, NULL);
	return 0;
}

/* Send ops from *op on, up to PGPG_PIPE_CHUNK of them (the BEGIN first
 * when begin), then read their results; *op moves past them. */
static int
pgpg_chunk(struct store_conn *c, const struct store_op **op, int begin)
{
	const char *what[PGPG_PIPE_CHUNK + 2];
	long *counts[PGPG_PIPE_CHUNK + 2] = {NULL};
	struct pgpg_params p;
	enum pgpg_stmt which;
	int sent = 0, rc = 0, faulted;

	if (begin) {
		what[sent++] = "begin";
		if (pgpg_send_sql(c, "BEGIN") != 0)
			return -1;
	}
	while (*op != NULL && sent < PGPG_PIPE_CHUNK) {
		what[sent] = pgpg_op_name((*op)->kind);
		faulted = 0;
		if ((*op)->kind == STORE_OP_MOVE_PUT) {
			if ((rc = pgpg_send_moves(c, op, &sent, &faulted)) != 0)
				break;
			what[sent] = "put move";
		} else if (store_fault_now(&c->fault)) {
			faulted = 1;
		} else if ((*op)->kind == STORE_OP_ROW) {
			what[sent] = (*op)->u.row.what;
			if ((rc = pgpg_send_row(c, &(*op)->u.row)) != 0)
				break;
			sent++;
			*op = (*op)->next;
		} else if ((which = pgpg_op_params(*op, &p)) == PS_COUNT) {
			snprintf(c->err, sizeof c->err, "unknown op %d",
			    (int)(*op)->kind);
			rc = -1;
			break;
		} else if ((rc = pgpg_send(c, which, &p)) != 0) {
			break;
		} else {
			/* A prune's rows removed go to its count. */
			counts[sent] = (*op)->count;
			sent++;
			*op = (*op)->next;
		}
		if (faulted) {
			/* The rest of the group is not sent: no COMMIT. */
			if ((rc = pgpg_send_sql(c, PGPG_FAULT_SQL)) == 0)
				sent++;
			break;
		}
	}
	if (*op == NULL && rc == 0) {
		what[sent++] = "commit";
		/* The commit counts as a write for the fault hook. */
		rc = pgpg_send_sql(
		    c, store_fault_now(&c->fault) ? PGPG_FAULT_SQL : "COMMIT");
	}
	if (pgpg_drain(c, sent, what, counts) != 0)
		return -1;
	return rc;
}

/* Mark the ops whose room is one of the fence query's rows r; how many
 * rooms were fenced. The ops are the store thread's (commit's const is
 * the backend's promise to change nothing else). */
static int
pgpg_fence_mark(const struct store_op *ops, const PGresult *r)
{
	const struct store_op *op;
	const char *id;
	int i;

	for (i = 0; i < PQntuples(r); i++)
		for (op = ops; op != NULL; op = op->next)
			if ((id = store_op_room(op)) != NULL &&
			    strcmp(id, PQgetvalue(r, i, 0)) == 0)
				((struct store_op *)op)->fenced = 1;
	return PQntuples(r);
}

/* After a failed group: roll its transaction back. When the rollback
 * fails (or the fault hook says it does) or the connection is gone, close
 * it: nothing half-written can be committed by a later group. */
static void
pgpg_abort(struct store_conn *c)
{
	const char *what[1] = {"rollback"};
	char keep[PGPG_ERRLEN];

	memcpy(keep, c->err, sizeof keep);
	if (store_fault_undo(&c->fault) || PQstatus(c->pg) != CONNECTION_OK ||
	    pgpg_send_sql(c, "ROLLBACK") != 0 ||
	    pgpg_drain(c, 1, what, NULL) != 0)
		pgpg_disconnect(c);
	memcpy(c->err, keep, sizeof keep);
}

/*
 * Sync the pipeline and read what a fence sent: BEGIN's result unless
 * begun (it was read before), the fence query's (kept in *res for the
 * caller to read and PQclear) and the sync. 0, or -1 (nothing kept).
 */
static int
pgpg_fence_read(
    struct store_conn *c, const char *what, int begun, PGresult **res)
{
	const char *step[2] = {"begin", what};
	PGresult *r;
	int i, rc = 0;

	*res = NULL;
	if (PQpipelineSync(c->pg) != 1)
		return pgpg_fail(c, "sync", NULL);
	for (i = begun; i < 2; i++) {
		if ((r = PQgetResult(c->pg)) == NULL) {
			PQclear(*res);
			*res = NULL;
			return pgpg_fail(c, step[i], "no result");
		}
		if (PQresultStatus(r) != PGRES_COMMAND_OK &&
		    PQresultStatus(r) != PGRES_TUPLES_OK && rc == 0)
			rc = pgpg_fail(c, step[i], PQresultErrorMessage(r));
		if (i == 1 && rc == 0)
			*res = r;
		else
			PQclear(r);
		while ((r = PQgetResult(c->pg)) != NULL)
			PQclear(r);
	}
	r = PQgetResult(c->pg);
	if ((r == NULL || PQresultStatus(r) != PGRES_PIPELINE_SYNC) && rc == 0)
		rc = pgpg_fail(c, "pipeline sync", NULL);
	PQclear(r);
	if (rc != 0) {
		PQclear(*res);
		*res = NULL;
		return -1;
	}
	return 0;
}

/*
 * The cluster's fence (SCALING.md part 3): the rooms of the group's ops
 * that carry an epoch are read and locked (FOR SHARE: a node taking one
 * of them waits for this transaction's end); an op whose room holds a
 * higher owner_epoch is marked fenced. BEGIN is sent first, so the
 * transaction is open after it. 0 (none fenced, or no op carries an
 * epoch: nothing sent, *begun 0), STORE_FENCED or -1.
 */
static int
pgpg_fence(struct store_conn *c, const struct store_op *ops, int *begun)
{
	const char *vals[2], *id;
	struct pgpg_buf col[2];
	const struct store_op *op;
	PGresult *r;
	int n = 0, rc = 0, fenced = 0;

	*begun = 0;
	memset(col, 0, sizeof col);
	for (op = ops; op != NULL && rc == 0; op = op->next) {
		if (op->epoch <= 0 || (id = store_op_room(op)) == NULL)
			continue;
		rc = pgpg_buf_add(&col[0], n == 0 ? "{" : ",", 1) |
		    pgpg_buf_elem(&col[0], id, 0) |
		    pgpg_buf_add(&col[1], n == 0 ? "{" : ",", 1) |
		    pgpg_buf_elem(&col[1], NULL, op->epoch);
		n++;
	}
	if (n == 0 || rc != 0) {
		free(col[0].p);
		free(col[1].p);
		return rc != 0 ? pgpg_fail(c, "fence", "out of memory") : 0;
	}
	pgpg_buf_add(&col[0], "}", 1);
	pgpg_buf_add(&col[1], "}", 1);
	vals[0] = col[0].p;
	vals[1] = col[1].p;
	/* Only the rooms whose stored epoch is higher come back. */
	rc = pgpg_send_sql(c, "BEGIN");
	if (rc == 0 &&
	    PQsendQueryParams(c->pg,
	        "SELECT id FROM (SELECT r.id, r.owner_epoch, f.epoch FROM "
	        "rooms r"
	        " JOIN unnest($1::text[], $2::bigint[]) AS f (id, epoch)"
	        " ON r.id = f.id ORDER BY r.id FOR SHARE OF r) AS l"
	        " WHERE owner_epoch > epoch",
	        2, NULL, vals, NULL, NULL, 0) != 1)
		rc = pgpg_fail(c, "send", NULL);
	free(col[0].p);
	free(col[1].p);
	if (rc != 0)
		return -1;
	*begun = 1;
	if (pgpg_fence_read(c, "fence", 0, &r) != 0)
		return -1;
	fenced = pgpg_fence_mark(ops, r);
	PQclear(r);
	return fenced ? STORE_FENCED : 0;
}

/* 1 when op is one of the club's rows stamped with an epoch. */
static int
pgpg_club_op(const struct store_op *op)
{
	return op->kind == STORE_OP_ROW && op->u.row.club && op->epoch > 0;
}

/*
 * The club's fence, as pgpg_fence is the rooms': when the group holds club
 * rows stamped with an epoch, the counters row "club" (the epoch of the
 * last taking of the club, pgpg_club_claim) is read and locked (FOR
 * SHARE: a node taking the club waits for this transaction's end); the
 * club rows stamped lower are marked fenced. BEGIN is sent first unless
 * *begun. 0 (none fenced, or no club row: nothing sent), STORE_FENCED
 * or -1.
 */
static int
pgpg_fence_club(struct store_conn *c, const struct store_op *ops, int *begun)
{
	const struct store_op *op;
	long long stored = 0;
	PGresult *r;
	int any = 0, first = *begun, fenced = 0;

	for (op = ops; op != NULL; op = op->next)
		any |= pgpg_club_op(op);
	if (!any)
		return 0;
	if (!*begun && pgpg_send_sql(c, "BEGIN") != 0)
		return -1;
	*begun = 1;
	if (PQsendQueryParams(c->pg,
	        "SELECT value FROM counters WHERE name = 'club' FOR SHARE", 0,
	        NULL, NULL, NULL, NULL, 0) != 1)
		return pgpg_fail(c, "send", NULL);
	if (pgpg_fence_read(c, "club fence", first, &r) != 0)
		return -1;
	if (PQntuples(r) == 1)
		stored = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
	PQclear(r);
	for (op = ops; op != NULL; op = op->next)
		if (pgpg_club_op(op) && op->epoch < stored) {
			((struct store_op *)op)->fenced = 1;
			fenced = 1;
		}
	return fenced ? STORE_FENCED : 0;
}

static int
pgpg_commit(struct store_conn *c, const struct store_op *ops)
{
	const struct store_op *op = ops;
	int begin = 1, begun, rc;

	if (ops == NULL)
		return 0;
	store_fault_hold(&c->fault); /* test-only: a stalled commit */
	if (pgpg_ready(c) != 0)
		return -1;
	if ((rc = pgpg_fence(c, ops, &begun)) != 0 ||
	    (rc = pgpg_fence_club(c, ops, &begun)) != 0) {
		if (begun)
			pgpg_abort(c);
		return rc;
	}
	begin = !begun;
	while (begin || op != NULL) {
		if (pgpg_chunk(c, &op, begin) != 0) {
			pgpg_abort(c);
			return -1;
		}
		begin = 0;
	}
	return 0;
}

/* Run a prepared read on the reader connection: its rows, or NULL (err). */
static PGresult *
pgpg_query(struct store_conn *c, enum pgpg_stmt which,
    const struct pgpg_params *p, const char *op)
{
	char name[16];
	PGresult *r;

	if (pgpg_ready(c) != 0)
		return NULL;
	snprintf(name, sizeof name, "s%d", (int)which);
	r = PQexecPrepared(c->pg, name, p->n, p->v, NULL, NULL, 0);
	if (PQresultStatus(r) == PGRES_TUPLES_OK)
		return r;
	c->canceled = PQresultErrorField(r, PG_DIAG_SQLSTATE) != NULL &&
	    strcmp(PQresultErrorField(r, PG_DIAG_SQLSTATE),
	        PGPG_QUERY_CANCELED) == 0;
	pgpg_fail(c, op, PQresultErrorMessage(r));
	PQclear(r);
	return NULL;
}

/* Field (row, col) as a number; 0 when NULL. */
static long long
pgpg_ll(const PGresult *r, int row, int col)
{
	return strtoll(PQgetvalue(r, row, col), NULL, 10);
}

/* Field (row, col) as a string, NULL when SQL NULL. */
static const char *
pgpg_str_or_null(const PGresult *r, int row, int col)
{
	return PQgetisnull(r, row, col) ? NULL : PQgetvalue(r, row, col);
}

/* Row i of PS_LOAD_ROOMS into rm (pointing into r). */
static void
pgpg_room_row(const PGresult *r, int i, struct store_room *rm)
{
	memset(rm, 0, sizeof *rm);
	rm->id = PQgetvalue(r, i, 0);
	rm->game = PQgetvalue(r, i, 1);
	rm->options = PQgetvalue(r, i, 2);
	rm->seats = PQgetvalue(r, i, 3);
	rm->status = PQgetvalue(r, i, 4);
	rm->result = pgpg_str_or_null(r, i, 5);
	rm->creator = PQgetvalue(r, i, 6);
	rm->is_private = (int)pgpg_ll(r, i, 7);
	rm->clock_initial_ms = pgpg_ll(r, i, 8);
	rm->clock_increment_ms = pgpg_ll(r, i, 9);
	rm->game_no = (int)pgpg_ll(r, i, 10);
	rm->created_ms = pgpg_ll(r, i, 11);
	rm->updated_ms = pgpg_ll(r, i, 12);
	rm->seq = pgpg_ll(r, i, 13);
	/* by name: the queries that read rooms put it in different places */
	rm->unrated = PQfnumber(r, "unrated") >= 0
	    ? pgpg_str_or_null(r, i, PQfnumber(r, "unrated"))
	    : NULL;
}

/* Call cb with room rm and its current game's moves. */
static int
pgpg_load_room(struct store_conn *c, const struct store_room *rm,
    store_room_cb cb, void *arg)
{
	struct pgpg_params p = {.n = 0};
	struct store_move *moves;
	PGresult *r;
	int i, n, rc;

	pgpg_text(&p, rm->id);
	pgpg_int(&p, rm->game_no);
	if ((r = pgpg_query(c, PS_LOAD_MOVES, &p, "load moves")) == NULL)
		return -1;
	n = PQntuples(r);
	if ((moves = calloc((size_t)n + 1, sizeof *moves)) == NULL) {
		PQclear(r);
		snprintf(c->err, sizeof c->err, "load moves: out of memory");
		return -1;
	}
	for (i = 0; i < n; i++) {
		moves[i].ply = (int)pgpg_ll(r, i, 0);
		moves[i].seat = (int)pgpg_ll(r, i, 1);
		moves[i].move = PQgetvalue(r, i, 2);
		moves[i].clock_ms[0] = pgpg_ll(r, i, 3);
		moves[i].clock_ms[1] = pgpg_ll(r, i, 4);
		moves[i].at_ms = pgpg_ll(r, i, 5);
		moves[i].seq = pgpg_ll(r, i, 6);
	}
	rc = cb(arg, rm, moves, n);
	if (rc != 0)
		snprintf(c->err, sizeof c->err,
		    "load: stopped by the caller at room %.40s", rm->id);
	free(moves);
	PQclear(r);
	return rc != 0 ? -1 : 0;
}

static int
pgpg_load(struct store_conn *c, store_room_cb cb, void *arg)
{
	struct pgpg_params p = {.n = 0};
	struct store_room rm;
	PGresult *r;
	int i, n, ret = 0;

	if ((r = pgpg_query(c, PS_LOAD_ROOMS, &p, "load rooms")) == NULL)
		return -1;
	n = PQntuples(r);
	for (i = 0; i < n && ret == 0; i++) {
		pgpg_room_row(r, i, &rm);
		ret = pgpg_load_room(c, &rm, cb, arg);
	}
	PQclear(r);
	return ret;
}

static int
pgpg_room_number(struct store_conn *c, long *n)
{
	struct pgpg_params p = {.n = 0};
	PGresult *r;
	long long v, stored;

	if ((r = pgpg_query(c, PS_ROOM_NUMBER, &p, "room number")) == NULL)
		return -1;
	v = PQntuples(r) == 1 ? pgpg_ll(r, 0, 0) : -1;
	stored = PQntuples(r) == 1 ? pgpg_ll(r, 0, 1) : -1;
	PQclear(r);
	/* Rooms stored with numbers not from the sequence (another
	 * server's counting): go past them (PS_ROOM_SKIP). */
	if (v >= 1 && stored >= v) {
		pgpg_int(&p, stored - v + 1);
		r = pgpg_query(c, PS_ROOM_SKIP, &p, "room number");
		if (r == NULL)
			return -1;
		v = PQntuples(r) == 1 ? pgpg_ll(r, 0, 0) : -1;
		PQclear(r);
	}
	if (v < 1 || v > LONG_MAX) {
		snprintf(
		    c->err, sizeof c->err, "room number: %lld out of range", v);
		return -1;
	}
	*n = (long)v;
	return 0;
}

static int
pgpg_identity_find(struct store_conn *c, const char *name,
    struct store_identity *out, int *found)
{
	struct pgpg_params p = {.n = 0};
	PGresult *r;

	*found = 0;
	pgpg_text(&p, name);
	if ((r = pgpg_query(c, PS_IDENT_FIND, &p, "find identity")) == NULL)
		return -1;
	if (PQntuples(r) == 1) {
		if ((size_t)PQgetlength(r, 0, 0) >= sizeof out->name ||
		    (size_t)PQgetlength(r, 0, 1) >= sizeof out->hash) {
			PQclear(r);
			snprintf(c->err, sizeof c->err,
			    "find identity: bad row for %.64s", name);
			return -1;
		}
		snprintf(
		    out->name, sizeof out->name, "%s", PQgetvalue(r, 0, 0));
		snprintf(
		    out->hash, sizeof out->hash, "%s", PQgetvalue(r, 0, 1));
		out->played = (int)pgpg_ll(r, 0, 2);
		out->created_ms = pgpg_ll(r, 0, 3);
		out->seen_ms = pgpg_ll(r, 0, 4);
		*found = 1;
	}
	PQclear(r);
	return 0;
}

static int
pgpg_progress_get(struct store_conn *c, const char *name, const char *game,
    char *buf, size_t len, int *found)
{
	struct pgpg_params p = {.n = 0};
	PGresult *r;
	int n;

	*found = 0;
	if (len > 0)
		buf[0] = '\0';
	pgpg_text(&p, name);
	pgpg_text(&p, game);
	if ((r = pgpg_query(c, PS_PROGRESS_GET, &p, "get progress")) == NULL)
		return -1;
	if (PQntuples(r) == 1) {
		n = PQgetlength(r, 0, 0);
		if ((size_t)n >= len) {
			PQclear(r);
			snprintf(c->err, sizeof c->err,
			    "get progress: value too long (%d bytes, room"
			    " for %zu)",
			    n, len > 0 ? len - 1 : 0);
			return -1;
		}
		memcpy(buf, PQgetvalue(r, 0, 0), (size_t)n + 1);
		*found = 1;
	}
	PQclear(r);
	return 0;
}

/* Row i of a games query (PGPG_GAME_COLS) into g, pointing into r. */
static void
pgpg_game_row(const PGresult *r, int i, struct store_game *g)
{
	memset(g, 0, sizeof *g);
	g->id = pgpg_ll(r, i, 0);
	g->room = PQgetvalue(r, i, 1);
	g->game_no = (int)pgpg_ll(r, i, 2);
	g->game = PQgetvalue(r, i, 3);
	g->options = PQgetvalue(r, i, 4);
	g->seats = PQgetvalue(r, i, 5);
	g->result = PQgetvalue(r, i, 6);
	g->is_private = (int)pgpg_ll(r, i, 7);
	g->clock_initial_ms = pgpg_ll(r, i, 8);
	g->clock_increment_ms = pgpg_ll(r, i, 9);
	g->started_ms = pgpg_ll(r, i, 10);
	g->ended_ms = pgpg_ll(r, i, 11);
	g->nmoves = (int)pgpg_ll(r, i, 12);
	g->moves = PQgetvalue(r, i, 13);
	g->start = PQgetvalue(r, i, 14);
	g->position = PQgetvalue(r, i, 15);
}

/* Run a games query and call cb on each row; the count into *n. */
static int
pgpg_games_run(struct store_conn *c, enum pgpg_stmt which,
    const struct pgpg_params *p, const char *op, store_game_cb cb, void *arg,
    int *n)
{
	struct store_game g;
	PGresult *r;
	int i;

	*n = 0;
	if ((r = pgpg_query(c, which, p, op)) == NULL)
		return -1;
	for (i = 0; i < PQntuples(r); i++) {
		pgpg_game_row(r, i, &g);
		(*n)++;
		cb(arg, &g);
	}
	PQclear(r);
	return 0;
}

/* A bounded read (STORE_READ_MS): a games query under the server's
 * statement_timeout, lifted after; STORE_SLOW when the timeout stopped
 * it. */
static int
pgpg_games_bounded(struct store_conn *c, enum pgpg_stmt which,
    const struct pgpg_params *p, const char *op, store_game_cb cb, void *arg,
    int *n)
{
	char bound[48];
	int rc;

	/* 0 is no timeout to PostgreSQL: the least it has is 1 ms */
	snprintf(bound, sizeof bound, "SET statement_timeout = %d",
	    c->read_ms > 0 ? c->read_ms : 1);
	*n = 0;
	if (pgpg_ready(c) != 0 || pgpg_exec(c, bound, op) != 0)
		return -1;
	c->canceled = 0;
	rc = pgpg_games_run(c, which, p, op, cb, arg, n);
	if (pgpg_exec(c, PGPG_UNBOUND, op) != 0)
		return -1;
	if (rc != 0 && c->canceled) {
		snprintf(c->err, sizeof c->err,
		    "%s: stopped after %d ms (the longest a read may take)", op,
		    c->read_ms);
		return STORE_SLOW;
	}
	return rc;
}

/* A page's cursor and length ($1 to $3); the newest first when the
 * cursor is {0, 0}. */
static void
pgpg_page(struct pgpg_params *p, const struct store_cursor *from, int limit)
{
	int none = from->ended_ms == 0 && from->id == 0;

	pgpg_int(p, none ? LLONG_MAX : from->ended_ms);
	pgpg_int(p, none ? LLONG_MAX : from->id);
	pgpg_int(p, limit);
}

static int
pgpg_games_recent(struct store_conn *c, const char *game,
    const struct store_cursor *from, int limit, store_game_cb cb, void *arg)
{
	struct pgpg_params p = {.n = 0};
	int n;

	pgpg_page(&p, from, limit);
	if (game != NULL)
		pgpg_text(&p, game);
	return pgpg_games_bounded(c,
	    game != NULL ? PS_GAMES_RECENT_GAME : PS_GAMES_RECENT, &p,
	    "list finished games", cb, arg, &n);
}

static int
pgpg_games_of(struct store_conn *c, const char *name, int with_private,
    const struct store_cursor *from, int limit, store_game_cb cb, void *arg)
{
	struct pgpg_params p = {.n = 0};
	int n;

	pgpg_page(&p, from, limit);
	pgpg_text(&p, name);
	pgpg_int(&p, with_private != 0);
	return pgpg_games_bounded(
	    c, PS_GAMES_OF, &p, "a player's games", cb, arg, &n);
}

static int
pgpg_game_last(struct store_conn *c, const char *room, store_game_cb cb,
    void *arg, int *found)
{
	struct pgpg_params p = {.n = 0};

	pgpg_text(&p, room);
	return pgpg_games_bounded(
	    c, PS_GAME_LAST, &p, "a room's last game", cb, arg, found);
}

static void
pgpg_set_read_ms(struct store_conn *c, int ms)
{
	c->read_ms = ms;
}

/* The query plan of a read (store_backend's plan): PostgreSQL's EXPLAIN
 * of its statement with sample arguments, one step a line. */
static int
pgpg_plan(struct store_conn *c, const char *what, char *buf, size_t len)
{
	static const struct {
		const char *what;
		enum pgpg_stmt st;
		const char *args;
	} reads[] = {
	    {"games_of", PS_GAMES_OF,
	        "(9223372036854775807, 9223372036854775807, 50, 'ana', 0)"},
	    {"games_recent", PS_GAMES_RECENT,
	        "(9223372036854775807, 9223372036854775807, 50)"},
	    {"games_recent_game", PS_GAMES_RECENT_GAME,
	        "(9223372036854775807, 9223372036854775807, 50, 'ataxx')"},
	    {"game_last", PS_GAME_LAST, "('r1')"},
	};
	char sql[256];
	size_t used = 0, i;
	PGresult *r;
	int j;

	if (len > 0)
		buf[0] = '\0';
	if (pgpg_ready(c) != 0)
		return -1;
	for (i = 0; i < sizeof reads / sizeof reads[0]; i++) {
		if (strcmp(reads[i].what, what) != 0)
			continue;
		snprintf(sql, sizeof sql, "EXPLAIN EXECUTE s%d %s",
		    (int)reads[i].st, reads[i].args);
		r = PQexec(c->pg, sql);
		if (PQresultStatus(r) != PGRES_TUPLES_OK) {
			pgpg_fail(c, "query plan", PQresultErrorMessage(r));
			PQclear(r);
			return -1;
		}
		for (j = 0; j < PQntuples(r) && used < len; j++)
			used += (size_t)snprintf(buf + used, len - used, "%s\n",
			    PQgetvalue(r, j, 0));
		PQclear(r);
		return 0;
	}
	snprintf(c->err, sizeof c->err, "query plan: no read '%s'", what);
	return -1;
}

/* Run a ratings query, calling cb on each row. */
static int
pgpg_ratings_run(struct store_conn *c, enum pgpg_stmt which,
    const struct pgpg_params *p, const char *op, store_rating_cb cb, void *arg)
{
	struct store_rating rt;
	PGresult *r;
	int i;

	if ((r = pgpg_query(c, which, p, op)) == NULL)
		return -1;
	for (i = 0; i < PQntuples(r); i++) {
		rt.name = PQgetvalue(r, i, 0);
		rt.pool = PQgetvalue(r, i, 1);
		rt.rating = strtod(PQgetvalue(r, i, 2), NULL);
		rt.rd = strtod(PQgetvalue(r, i, 3), NULL);
		rt.vol = strtod(PQgetvalue(r, i, 4), NULL);
		rt.wins = (int)pgpg_ll(r, i, 5);
		rt.draws = (int)pgpg_ll(r, i, 6);
		rt.losses = (int)pgpg_ll(r, i, 7);
		rt.updated_ms = pgpg_ll(r, i, 8);
		cb(arg, &rt);
	}
	PQclear(r);
	return 0;
}

static int
pgpg_ratings_of(
    struct store_conn *c, const char *name, store_rating_cb cb, void *arg)
{
	struct pgpg_params p = {.n = 0};

	pgpg_text(&p, name);
	return pgpg_ratings_run(
	    c, PS_RATINGS_OF, &p, "a player's ratings", cb, arg);
}

static int
pgpg_ratings_top(struct store_conn *c, const char *pool, int provisional,
    double rd_bound, int offset, int limit, store_rating_cb cb, void *arg)
{
	struct pgpg_params p = {.n = 0};

	pgpg_text(&p, pool);
	pgpg_int(&p, provisional != 0);
	pgpg_real(&p, rd_bound);
	pgpg_int(&p, offset);
	pgpg_int(&p, limit);
	return pgpg_ratings_run(c, PS_RATINGS_TOP, &p, "list ratings", cb, arg);
}

/* Run a records query, calling cb on each row. */
static int
pgpg_records_run(struct store_conn *c, enum pgpg_stmt which,
    const struct pgpg_params *p, const char *op, store_record_cb cb, void *arg)
{
	struct store_record rec;
	PGresult *r;
	int i;

	if ((r = pgpg_query(c, which, p, op)) == NULL)
		return -1;
	for (i = 0; i < PQntuples(r); i++) {
		rec.name = PQgetvalue(r, i, 0);
		rec.game = PQgetvalue(r, i, 1);
		rec.solved = (int)pgpg_ll(r, i, 2);
		rec.best = (int)pgpg_ll(r, i, 3);
		rec.tries = (int)pgpg_ll(r, i, 4);
		rec.updated_ms = pgpg_ll(r, i, 5);
		cb(arg, &rec);
	}
	PQclear(r);
	return 0;
}

static int
pgpg_records_of(
    struct store_conn *c, const char *name, store_record_cb cb, void *arg)
{
	struct pgpg_params p = {.n = 0};

	pgpg_text(&p, name);
	return pgpg_records_run(
	    c, PS_RECORDS_OF, &p, "a player's records", cb, arg);
}

static int
pgpg_records_top(struct store_conn *c, const char *game, int by_level,
    int offset, int limit, store_record_cb cb, void *arg)
{
	struct pgpg_params p = {.n = 0};

	pgpg_text(&p, game);
	pgpg_int(&p, by_level != 0);
	pgpg_int(&p, offset);
	pgpg_int(&p, limit);
	return pgpg_records_run(c, PS_RECORDS_TOP, &p, "list records", cb, arg);
}

/* Run sql and wait for its rows: on the writer's pipeline, or as a plain
 * query on a reader (no pipeline: the tournaments' reload at start reads
 * its tables through copy_read on the loop's reader). */
static PGresult *
pgpg_pipe_query(struct store_conn *c, const char *sql, const char *op)
{
	PGresult *r, *rows;

	if (PQpipelineStatus(c->pg) == PQ_PIPELINE_OFF) {
		rows = PQexec(c->pg, sql);
		if (PQresultStatus(rows) != PGRES_TUPLES_OK) {
			pgpg_fail(c, op, PQresultErrorMessage(rows));
			PQclear(rows);
			return NULL;
		}
		return rows;
	}
	if (pgpg_send_sql(c, sql) != 0 || PQpipelineSync(c->pg) != 1) {
		pgpg_fail(c, op, NULL);
		return NULL;
	}
	rows = PQgetResult(c->pg);
	while ((r = PQgetResult(c->pg)) != NULL)
		PQclear(r);
	/* The sync's own result. */
	r = PQgetResult(c->pg);
	if (r == NULL || PQresultStatus(r) != PGRES_PIPELINE_SYNC) {
		PQclear(r);
		PQclear(rows);
		pgpg_fail(c, op, "the pipeline lost its sync");
		return NULL;
	}
	PQclear(r);
	if (PQresultStatus(rows) != PGRES_TUPLES_OK) {
		pgpg_fail(c, op, PQresultErrorMessage(rows));
		PQclear(rows);
		return NULL;
	}
	return rows;
}

static int
pgpg_copy_read(struct store_conn *c, const struct store_table *t,
    store_row_cb cb, void *arg)
{
	const char *vals[STORE_TABLE_COLS];
	PGresult *r;
	int i, j, rc = 0;

	if (pgpg_ready(c) != 0)
		return -1;
	r = pgpg_pipe_query(c, store_table_sql(t, 0, 1), t->name);
	if (r == NULL)
		return -1;
	if (PQnfields(r) != t->ncols) {
		snprintf(c->err, sizeof c->err, "%s: %d columns, not %d",
		    t->name, PQnfields(r), t->ncols);
		PQclear(r);
		return -1;
	}
	for (i = 0; i < PQntuples(r) && rc == 0; i++) {
		for (j = 0; j < t->ncols; j++)
			vals[j] = pgpg_str_or_null(r, i, j);
		rc = cb(arg, vals);
	}
	PQclear(r);
	return rc;
}

/* Read back the copy's rows sent so far (and `more` statements after
 * them); 0 when all went in. */
static int
pgpg_copy_drain(struct store_conn *c, int more)
{
	int n = c->copy_sent + more;

	c->copy_sent = 0;
	return pgpg_drain(c, n, NULL, NULL);
}

static int
pgpg_copy_txn(struct store_conn *c, int what)
{
	if (what == 0) {
		c->copy_sent = 0;
		if (pgpg_ready(c) != 0 || pgpg_send_sql(c, "BEGIN") != 0)
			return -1;
		return pgpg_copy_drain(c, 1);
	}
	if (what < 0) {
		pgpg_copy_drain(c, 0);
		pgpg_abort(c);
		return 0;
	}
	/* The finished games keep their ids: the next id follows them. */
	if (pgpg_send_sql(c,
	        "SELECT setval(pg_get_serial_sequence('games',"
	        " 'id'), coalesce(max(id), 0) + 1, false)"
	        " FROM games") != 0 ||
	    pgpg_send_sql(c, "COMMIT") != 0 || pgpg_copy_drain(c, 2) != 0) {
		pgpg_abort(c);
		return -1;
	}
	return 0;
}

static int
pgpg_copy_write(
    struct store_conn *c, const struct store_table *t, const char *const *vals)
{
	if (PQsendQueryParams(c->pg, store_table_sql(t, 1, 1), t->ncols, NULL,
	        vals, NULL, NULL, 0) != 1)
		return pgpg_fail(c, t->name, NULL);
	if (++c->copy_sent >= PGPG_PIPE_CHUNK)
		return pgpg_copy_drain(c, 0);
	return 0;
}

/* Run sql with params on c outside any pipeline: its rows, or NULL. */
static PGresult *
pgpg_exec_rows(struct store_conn *c, const char *sql, int n,
    const char *const *vals, const char *op)
{
	PGresult *r;

	if (pgpg_ready(c) != 0)
		return NULL;
	r = PQexecParams(c->pg, sql, n, NULL, vals, NULL, NULL, 0);
	if (PQresultStatus(r) != PGRES_TUPLES_OK) {
		pgpg_fail(c, op, PQresultErrorMessage(r));
		PQclear(r);
		return NULL;
	}
	return r;
}

/* A read of fixed text with its values as text: each row's first ncols
 * columns to cb. */
static int
pgpg_rows(struct store_conn *c, const char *sql, int n, const char *const *vals,
    int ncols, store_row_cb cb, void *arg)
{
	const char *cols[STORE_ROWS_COLS];
	PGresult *r;
	int i, j, rc = 0;

	if (ncols > STORE_ROWS_COLS) {
		snprintf(c->err, sizeof c->err, "read rows: %d columns", ncols);
		return -1;
	}
	if ((r = pgpg_exec_rows(c, sql, n, vals, "read rows")) == NULL)
		return -1;
	if (PQnfields(r) < ncols) {
		snprintf(c->err, sizeof c->err, "read rows: %d columns, not %d",
		    PQnfields(r), ncols);
		PQclear(r);
		return -1;
	}
	for (i = 0; i < PQntuples(r) && rc == 0; i++) {
		for (j = 0; j < ncols; j++)
			cols[j] = pgpg_str_or_null(r, i, j);
		rc = cb(arg, cols);
	}
	PQclear(r);
	return rc;
}

static int
pgpg_rooms_unfinished(struct store_conn *c, store_row_cb cb, void *arg)
{
	const char *vals[2];
	PGresult *r = pgpg_exec_rows(c,
	    "SELECT id, owner_epoch FROM rooms WHERE status <> 'ended' "
	    "ORDER BY id",
	    0, NULL, "list rooms");
	int i, rc = 0;

	if (r == NULL)
		return -1;
	for (i = 0; i < PQntuples(r) && rc == 0; i++) {
		vals[0] = PQgetvalue(r, i, 0);
		vals[1] = PQgetvalue(r, i, 1);
		rc = cb(arg, vals);
	}
	PQclear(r);
	return 0;
}

static int
pgpg_room_claim(struct store_conn *c, const char *id, long long *epoch,
    store_room_cb cb, void *arg)
{
	const char *vals[1] = {id};
	struct store_room rm;
	PGresult *r;
	int rc;

	*epoch = 0;
	/* The columns of PS_LOAD_ROOMS, then the new epoch: above the
	 * last one taken, and above 1, the epoch of the node that made the
	 * room (0 stored: made by a node alone, or before epochs). */
	r = pgpg_exec_rows(c,
	    "UPDATE rooms SET owner_epoch = greatest(owner_epoch, 1) + 1"
	    " WHERE id = $1 AND status <> 'ended'"
	    " RETURNING id, game, options, seats, status, result, creator,"
	    " private, clock_initial_ms, clock_increment_ms, game_no,"
	    " created_ms, updated_ms, seq, owner_epoch, unrated",
	    1, vals, "claim a room");
	if (r == NULL)
		return -1;
	if (PQntuples(r) != 1) {
		PQclear(r);
		return 0;
	}
	pgpg_room_row(r, 0, &rm);
	*epoch = pgpg_ll(r, 0, 14);
	rc = pgpg_load_room(c, &rm, cb, arg);
	PQclear(r);
	return rc;
}

static int
pgpg_club_claim(struct store_conn *c, long long *epoch)
{
	PGresult *r = pgpg_exec_rows(c,
	    "INSERT INTO counters (name, value) VALUES ('club', 1)"
	    " ON CONFLICT (name) DO UPDATE SET value = counters.value + 1"
	    " RETURNING value",
	    0, NULL, "claim the club");

	*epoch = 0;
	if (r == NULL)
		return -1;
	if (PQntuples(r) == 1)
		*epoch = pgpg_ll(r, 0, 0);
	PQclear(r);
	return 0;
}

/* The arguments the player's-rooms queries share: $1 the player's name, $2
 * a seat of theirs as write.c's JSON has it, $3 the ids to leave out as a
 * text[] literal (ids->p, freed by the caller); -1 out of memory. */
static int
pgpg_rooms_args(const char *name, const char *const *skip, int nskip,
    struct pgpg_buf *ids, char *seat, size_t seatlen, const char *vals[3])
{
	int i, rc = pgpg_buf_add(ids, "{", 1);

	for (i = 0; i < nskip && rc == 0; i++)
		rc = (i > 0 ? pgpg_buf_add(ids, ",", 1) : 0) |
		    pgpg_buf_elem(ids, skip[i], 0);
	if (rc != 0 || pgpg_buf_add(ids, "}", 1) != 0)
		return -1;
	snprintf(seat, seatlen, "\"name\":\"%s\"", name);
	vals[0] = name;
	vals[1] = seat;
	vals[2] = ids->p;
	return 0;
}

static int
pgpg_rooms_of(struct store_conn *c, const char *name, const char *const *skip,
    int nskip, long *n)
{
	struct pgpg_buf ids = {NULL, 0, 0};
	char seat[PGPG_ERRLEN];
	const char *vals[3];
	PGresult *r;

	if (pgpg_rooms_args(name, skip, nskip, &ids, seat, sizeof seat, vals)) {
		free(ids.p);
		return pgpg_fail(c, "count rooms", "out of memory");
	}
	r = pgpg_exec_rows(c,
	    "SELECT count(*) FROM rooms WHERE status <> 'ended'"
	    " AND (creator = $1 OR strpos(seats, $2) > 0)"
	    " AND NOT (id = ANY ($3::text[]))",
	    3, vals, "count rooms");
	free(ids.p);
	if (r == NULL)
		return -1;
	*n = PQntuples(r) == 1 ? (long)pgpg_ll(r, 0, 0) : 0;
	PQclear(r);
	return 0;
}

static int
pgpg_rooms_seated(struct store_conn *c, const char *name,
    const char *const *skip, int nskip, int limit, store_room_cb cb, void *arg)
{
	struct pgpg_buf ids = {NULL, 0, 0};
	char seat[PGPG_ERRLEN], lim[16];
	const char *vals[3];
	struct store_room rm;
	PGresult *r;
	int i;

	if (pgpg_rooms_args(name, skip, nskip, &ids, seat, sizeof seat, vals)) {
		free(ids.p);
		return pgpg_fail(c, "list rooms", "out of memory");
	}
	snprintf(lim, sizeof lim, "%d", limit);
	vals[0] = lim;
	/* The columns of PS_LOAD_ROOMS. */
	r = pgpg_exec_rows(c,
	    "SELECT id, game, options, seats, status, result, creator,"
	    " private, clock_initial_ms, clock_increment_ms, game_no,"
	    " created_ms, updated_ms, seq FROM rooms"
	    " WHERE status <> 'ended' AND strpos(seats, $2) > 0"
	    " AND NOT (id = ANY ($3::text[]))"
	    " ORDER BY updated_ms DESC LIMIT $1::integer",
	    3, vals, "list rooms");
	free(ids.p);
	if (r == NULL)
		return -1;
	for (i = 0; i < PQntuples(r); i++) {
		pgpg_room_row(r, i, &rm);
		if (cb(arg, &rm, NULL, 0) != 0)
			break;
	}
	PQclear(r);
	return 0;
}

const struct store_backend store_pg = {
    .name = "postgresql",
    .handles = pgpg_handles,
    .reader_shares = NULL,
    .open = pgpg_open,
    .close = pgpg_close,
    .errmsg = pgpg_errmsg,
    .commit = pgpg_commit,
    .idle = NULL,
    .load = pgpg_load,
    .room_number = pgpg_room_number,
    .identity_find = pgpg_identity_find,
    .ratings_of = pgpg_ratings_of,
    .ratings_top = pgpg_ratings_top,
    .records_of = pgpg_records_of,
    .records_top = pgpg_records_top,
    .progress_get = pgpg_progress_get,
    .games_recent = pgpg_games_recent,
    .games_of = pgpg_games_of,
    .game_last = pgpg_game_last,
    .rows = pgpg_rows,
    .plan = pgpg_plan,
    .set_read_ms = pgpg_set_read_ms,
    .copy_read = pgpg_copy_read,
    .copy_txn = pgpg_copy_txn,
    .copy_write = pgpg_copy_write,
    .rooms_unfinished = pgpg_rooms_unfinished,
    .room_claim = pgpg_room_claim,
    .club_claim = pgpg_club_claim,
    .rooms_of = pgpg_rooms_of,
    .rooms_seated = pgpg_rooms_seated,
};
