/*
 * test_store.c: the SQLite store: schema creation and versions, each
 * op's semantics (upserts, truncation, load order, pruning), a group
 * committed all or nothing (a failure in its middle, and in its rollback,
 * leaves none of it), a group tried again storing its finished game and
 * its ratings once, data surviving a reopen, a reader seeing what the
 * writer committed, and clear errors for corrupt, foreign, newer and
 * unwritable files and for a store that breaks after open.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "server/store/schema.h"
#include "server/store/store.h"
#include "tests/unit/check.h"
#include "tests/unit/store_fixture.h"

/* Check that text holds part, showing the text when it does not. */
#define CHECK_HAS(text, part) test_store_has((text), (part), __LINE__)

static void
test_store_has(const char *text, const char *part, int line)
{
	int ok = text != NULL && strstr(text, part) != NULL;

	if (!ok)
		fprintf(stderr, "test_store.c:%d: \"%s\" lacks \"%s\"\n", line,
		    text != NULL ? text : "(null)", part);
	check_true(ok, __FILE__, line, part);
}

/* Commit one op (freed) as a group of its own: the store's answer. */
static int
store_write(struct store *s, struct store_op *op)
{
	int rc = store_commit(s, op);

	store_op_free(op);
	return rc;
}

/* An op of kind with strings a, b, c and numbers n, m, ms. */
static struct store_op *
store_plain(enum store_op_kind kind, const char *a, const char *b,
    const char *c, int n, int m, long long ms)
{
	struct store_op *op = store_op_new(kind);

	op->a = store_op_str(op, a);
	op->b = store_op_str(op, b);
	op->c = store_op_str(op, c);
	op->n = n;
	op->m = m;
	op->ms = ms;
	return op;
}

static int
store_room_save(struct store *s, const struct store_room *r)
{
	struct store_op *op = store_op_new(STORE_OP_ROOM_SAVE);

	op->u.room = *r; /* borrowed: lives until store_write returns */
	return store_write(s, op);
}

static int
store_room_delete(struct store *s, const char *id)
{
	return store_write(
	    s, store_plain(STORE_OP_ROOM_DELETE, id, NULL, NULL, 0, 0, 0));
}

static int
store_move_truncate(struct store *s, const char *room, int game_no, int ply)
{
	return store_write(s,
	    store_plain(
	        STORE_OP_MOVE_TRUNCATE, room, NULL, NULL, game_no, ply, 0));
}

static int
store_identity_put(struct store *s, const char *name, const char *hash)
{
	struct store_op *op =
	    store_plain(STORE_OP_IDENT_PUT, name, NULL, NULL, 0, 0, 0);

	op->b = hash; /* NULL stays NULL */
	return store_write(s, op);
}

static int
store_identity_played(struct store *s, const char *name)
{
	return store_write(
	    s, store_plain(STORE_OP_IDENT_PLAYED, name, NULL, NULL, 0, 0, 0));
}

static int
store_identity_prune(struct store *s, long long before_ms)
{
	return store_write(s,
	    store_plain(
	        STORE_OP_IDENT_PRUNE, NULL, NULL, NULL, 0, 0, before_ms));
}

static int
store_prune(struct store *s, const char *status, long long before_ms)
{
	return store_write(s,
	    store_plain(
	        STORE_OP_ROOM_PRUNE, status, NULL, NULL, 0, 0, before_ms));
}

/* The games prune op (--keep-games-days); the rows it removed into
 * *count. */
static int
store_games_prune(struct store *s, long long before_ms, int max, int *count)
{
	struct store_op *op = store_plain(
	    STORE_OP_GAMES_PRUNE, NULL, NULL, NULL, max, 0, before_ms);
	long n = 0;
	int rc;

	op->count = &n;
	rc = store_write(s, op);
	*count = (int)n;
	return rc;
}

static int
store_progress_put(
    struct store *s, const char *name, const char *game, const char *json)
{
	return store_write(
	    s, store_plain(STORE_OP_PROGRESS_PUT, name, game, json, 0, 0, 0));
}

static int
store_game_put(struct store *s, const struct store_game *g)
{
	struct store_op *op = store_op_new(STORE_OP_GAME_PUT);

	op->u.game = *g;
	return store_write(s, op);
}

/* An identity's hash by its name as registered: found only when the
 * name found is spelled exactly so. */
static int
store_identity_hash(
    struct store *s, const char *name, char *hash, size_t len, int *found)
{
	struct store_identity id;

	hash[0] = '\0';
	if (store_identity_find(s, name, &id, found) != 0)
		return -1;
	if (*found && strcmp(id.name, name) != 0)
		*found = 0;
	if (*found)
		snprintf(hash, len, "%s", id.hash);
	return 0;
}

/* A fresh temporary path in /tmp (the empty file mkstemp made). */
static void
test_store_tmp(char *path, size_t len)
{
	int fd;

	snprintf(path, len, "/tmp/tablero-test-store-XXXXXX");
	fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
}

/* Remove a data file and its WAL companions. */
static void
test_store_rm(const char *path)
{
	char p[512];

	unlink(path);
	snprintf(p, sizeof p, "%s-wal", path);
	unlink(p);
	snprintf(p, sizeof p, "%s-shm", path);
	unlink(p);
}

/* Run SQL on a file through a separate SQLite connection; SQLite's code. */
static int
test_store_sql(const char *path, const char *sql)
{
	sqlite3 *db;
	int rc;

	if (sqlite3_open(path, &db) != SQLITE_OK) {
		sqlite3_close(db);
		return -1;
	}
	rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
	sqlite3_close(db);
	return rc;
}

/* An integer PRAGMA of a file, read through a separate connection. */
static long long
test_store_pragma(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	long long v = -999;

	if (sqlite3_open(path, &db) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			v = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return v;
}

/* A room with the given id, status and creation time. */
static struct store_room
test_store_room(const char *id, const char *status, long long created)
{
	struct store_room r = {
	    .id = id,
	    .game = "ataxx",
	    .options = "{\"size\":7}",
	    .seats =
	        "[{\"name\":\"ana\",\"bot\":0},{\"name\":\"bo\",\"bot\":1}]",
	    .status = status,
	    .result = NULL,
	    .creator = "ana",
	    .is_private = 0,
	    .clock_initial_ms = 300000,
	    .clock_increment_ms = 2000,
	    .game_no = 1,
	    .created_ms = created,
	    .updated_ms = created,
	    .seq = created + 7,
	};

	return r;
}

/* Put move `ply` (its notation text) to (room, game_no); the store's
 * answer. */
static int
test_store_move_text(
    struct store *s, const char *room, int game_no, int ply, const char *text)
{
	struct store_move m;
	struct store_op *op;

	m.ply = ply;
	m.seat = (ply - 1) % 2;
	m.move = text;
	m.clock_ms[0] = 1000 * ply;
	m.clock_ms[1] = 2000 * ply;
	m.at_ms = 5000 + ply;
	m.seq = 100 + ply;
	op = store_op_new(STORE_OP_MOVE_PUT);
	op->a = room;
	op->n = game_no;
	op->u.move = m;
	return store_write(s, op);
}

/* Append move `ply` ("m<ply>") to (room, game_no); the store's answer. */
static int
test_store_move(struct store *s, const char *room, int game_no, int ply)
{
	char text[32];

	snprintf(text, sizeof text, "m%d", ply);
	return test_store_move_text(s, room, game_no, ply, text);
}

/* What a store_load callback saw. */
struct test_store_seen {
	int rooms;
	char ids[16][16];
	int nmoves[16];
	int plies_ok;    /* every room's moves were 1..n with the right text */
	int stop_at;     /* return -1 at this room (1-based), 0 never */
	struct store *s; /* when set, write to the store from the callback */
	int write_failed;
	char options[64]; /* the first room's options */
	int result_null;  /* the first room's result was NULL */
	long long clock0; /* the first room's first move's clock */
	char move3[16];   /* the first room's third move ("" if none) */
};

/* Record one loaded room and check its moves. */
static int
test_store_seen_cb(void *arg, const struct store_room *r,
    const struct store_move *moves, int nmoves)
{
	struct test_store_seen *seen = arg;
	char want[32];
	int i;

	if (seen->rooms < 16) {
		snprintf(
		    seen->ids[seen->rooms], sizeof seen->ids[0], "%s", r->id);
		seen->nmoves[seen->rooms] = nmoves;
	}
	if (r->seq != r->created_ms + 7)
		seen->plies_ok = 0;
	if (seen->rooms == 0) {
		snprintf(seen->options, sizeof seen->options, "%s", r->options);
		seen->result_null = r->result == NULL;
		seen->clock0 = nmoves > 0 ? moves[0].clock_ms[0] : -1;
		if (nmoves >= 3)
			snprintf(seen->move3, sizeof seen->move3, "%s",
			    moves[2].move);
	}
	for (i = 0; i < nmoves; i++) {
		snprintf(want, sizeof want, "m%d", i + 1);
		if (moves[i].ply != i + 1 || strcmp(moves[i].move, want) != 0 ||
		    moves[i].seat != i % 2 || moves[i].at_ms != 5000 + i + 1 ||
		    moves[i].seq != 100 + i + 1)
			seen->plies_ok = 0;
	}
	seen->rooms++;
	if (seen->s != NULL &&
	    test_store_move(seen->s, r->id, r->game_no, nmoves + 1) != 0)
		seen->write_failed = 1;
	return seen->stop_at == seen->rooms ? -1 : 0;
}

/* Load into a fresh record. */
static int
test_store_load(struct store *s, struct test_store_seen *seen)
{
	memset(seen, 0, sizeof *seen);
	seen->plies_ok = 1;
	return store_load(s, test_store_seen_cb, seen);
}

/* Names are unique whatever their case; found as registered; pruned
 * only when they never played. */
static void
test_store_identities_folded(struct store *s)
{
	struct store_identity id;
	int found = -1;

	CHECK_INT(store_identity_find(s, "ANA", &id, &found), 0);
	CHECK_INT(found, 1);
	CHECK_STR(id.name, "ana");
	CHECK_STR(id.hash, "def456");
	CHECK_INT(id.played, 0);
	/* Another spelling of a registered name cannot be registered. */
	CHECK_INT(store_identity_put(s, "Ana", "x"), -1);
	CHECK_HAS(store_errmsg(s), "UNIQUE constraint failed");
	CHECK_INT(store_identity_find(s, "nobody", &id, &found), 0);
	CHECK_INT(found, 0);
	CHECK_INT(store_identity_put(s, "Cy", "h"), 0);
	CHECK_INT(store_identity_played(s, "ana"), 0);
	CHECK_INT(store_identity_find(s, "aNa", &id, &found), 0);
	CHECK_INT(id.played, 1);
	/* Seen before 2100: Cy never played and goes, ana stays. */
	CHECK_INT(store_identity_prune(s, 4102444800000LL), 0);
	CHECK_INT(store_identity_find(s, "cy", &id, &found), 0);
	CHECK_INT(found, 0);
	CHECK_INT(store_identity_find(s, "ana", &id, &found), 0);
	CHECK_INT(found, 1);
}

static void
test_store_identities(struct store *s)
{
	char hash[128];
	int found = -1;

	CHECK_INT(store_identity_hash(s, "ana", hash, sizeof hash, &found), 0);
	CHECK_INT(found, 0);
	CHECK_STR(hash, "");
	CHECK_INT(store_identity_put(s, "ana", "abc123"), 0);
	CHECK_INT(store_identity_hash(s, "ana", hash, sizeof hash, &found), 0);
	CHECK_INT(found, 1);
	CHECK_STR(hash, "abc123");
	/* A second put replaces the hash (a retried group does no harm). */
	CHECK_INT(store_identity_put(s, "ana", "def456"), 0);
	CHECK_INT(store_identity_hash(s, "ana", hash, sizeof hash, &found), 0);
	CHECK_STR(hash, "def456");
	/* Another case finds it under its registered spelling. */
	CHECK_INT(store_identity_hash(s, "Ana", hash, sizeof hash, &found), 0);
	CHECK_INT(found, 0);
	/* A missing hash is refused. */
	CHECK_INT(store_identity_put(s, "bo", NULL), -1);
	CHECK_HAS(store_errmsg(s), "put identity: NOT NULL constraint failed");
	test_store_identities_folded(s);
}

static void
test_store_progress(struct store *s)
{
	char buf[64];
	int found = -1;

	CHECK_INT(
	    store_progress_get(s, "ana", "shifter", buf, sizeof buf, &found),
	    0);
	CHECK_INT(found, 0);
	CHECK_INT(store_progress_put(s, "ana", "shifter", "{\"level\":3}"), 0);
	CHECK_INT(
	    store_progress_put(s, "ana", "solitaire", "{\"board\":\"x\"}"), 0);
	CHECK_INT(store_progress_put(s, "ana", "shifter", "{\"level\":7}"), 0);
	CHECK_INT(
	    store_progress_get(s, "ana", "shifter", buf, sizeof buf, &found),
	    0);
	CHECK_INT(found, 1);
	CHECK_STR(buf, "{\"level\":7}");
	CHECK_INT(
	    store_progress_get(s, "ana", "solitaire", buf, sizeof buf, &found),
	    0);
	CHECK_STR(buf, "{\"board\":\"x\"}");
	CHECK_INT(
	    store_progress_get(s, "bo", "shifter", buf, sizeof buf, &found), 0);
	CHECK_INT(found, 0);
}

static void
test_store_rooms_moves(struct store *s)
{
	struct store_room r = test_store_room("r1", "playing", 100);
	struct test_store_seen seen;
	int i;

	CHECK_INT(store_room_save(s, &r), 0);
	for (i = 1; i <= 5; i++)
		CHECK_INT(test_store_move(s, "r1", 1, i), 0);
	/* Saving the room again (an upsert) keeps its moves. */
	r.options = "{\"size\":9}";
	r.updated_ms = 200;
	CHECK_INT(store_room_save(s, &r), 0);
	CHECK_INT(test_store_load(s, &seen), 0);
	CHECK_INT(seen.rooms, 1);
	CHECK_INT(seen.nmoves[0], 5);
	CHECK(seen.plies_ok);
	CHECK_STR(seen.options, "{\"size\":9}");
	CHECK(seen.result_null);
	CHECK_INT(seen.clock0, 1000);

	/* The same ply twice is an upsert: a group tried again after a
	 * commit that did happen writes it again, harmlessly. */
	CHECK_INT(test_store_move(s, "r1", 1, 3), 0);
	CHECK_INT(test_store_load(s, &seen), 0);
	CHECK_INT(seen.nmoves[0], 5);
	CHECK(seen.plies_ok);
	/* Put again with another move, the ply keeps the later one (as
	 * PostgreSQL's does: test_pgstore's run of moves repeating a key). */
	CHECK_INT(test_store_move_text(s, "r1", 1, 3, "x3"), 0);
	CHECK_INT(test_store_load(s, &seen), 0);
	CHECK_INT(seen.nmoves[0], 5);
	CHECK_STR(seen.move3, "x3");
	CHECK_INT(test_store_move(s, "r1", 1, 3), 0);
	CHECK_INT(test_store_load(s, &seen), 0);
	CHECK_STR(seen.move3, "m3");
	CHECK(seen.plies_ok);
	/* A move for a room that does not exist is refused, naming the
	 * operation and key. */
	CHECK_INT(test_store_move(s, "r404", 1, 1), -1);
	CHECK_HAS(store_errmsg(s), "put move (room r404 game 1 ply 1)");
	CHECK_HAS(store_errmsg(s), "FOREIGN KEY constraint failed");
	/* A room without its game is refused. */
	r.game = NULL;
	CHECK_INT(store_room_save(s, &r), -1);
	CHECK_HAS(store_errmsg(s), "save room: NOT NULL constraint failed");
	r.game = "ataxx";

	/* Truncate from ply 3 (an undo of three moves); the store still
	 * works after the errors above. */
	CHECK_INT(store_move_truncate(s, "r1", 1, 3), 0);
	CHECK_INT(test_store_load(s, &seen), 0);
	CHECK_INT(seen.nmoves[0], 2);
	CHECK(seen.plies_ok);
	CHECK_INT(test_store_move(s, "r1", 1, 3), 0);

	/* A rematch: game 2's moves are the ones loaded; game 1's stay. */
	r.game_no = 2;
	CHECK_INT(store_room_save(s, &r), 0);
	CHECK_INT(test_store_move(s, "r1", 2, 1), 0);
	CHECK_INT(test_store_load(s, &seen), 0);
	CHECK_INT(seen.nmoves[0], 1);
	CHECK_INT(store_move_truncate(s, "r1", 2, 1), 0);
	CHECK_INT(test_store_load(s, &seen), 0);
	CHECK_INT(seen.nmoves[0], 0);
	r.game_no = 1;
	CHECK_INT(store_room_save(s, &r), 0);
	CHECK_INT(test_store_load(s, &seen), 0);
	CHECK_INT(seen.nmoves[0], 3);

	/* Deleting the room takes its moves (of every game) with it. */
	CHECK_INT(store_room_delete(s, "r1"), 0);
	CHECK_INT(test_store_load(s, &seen), 0);
	CHECK_INT(seen.rooms, 0);
	CHECK_INT(store_room_save(s, &r), 0);
	CHECK_INT(test_store_load(s, &seen), 0);
	CHECK_INT(seen.nmoves[0], 0);
	CHECK_INT(store_room_delete(s, "r1"), 0);
	CHECK_INT(store_room_delete(s, "r1"), 0);
}

static void
test_store_load_order(struct store *s)
{
	struct store_room r;
	struct test_store_seen seen;
	long n = -1;

	/* r1 of test_store_rooms_moves was deleted but still counts; 1
	 * was given out already: a number never given out before. */
	CHECK_INT(store_room_number(s, &n), 0);
	CHECK_INT(n, 2);
	/* Saved out of order; created_ms then number decide. */
	r = test_store_room("r12", "playing", 300);
	CHECK_INT(store_room_save(s, &r), 0);
	r = test_store_room("r3", "waiting", 300);
	CHECK_INT(store_room_save(s, &r), 0);
	r = test_store_room("r2", "ended", 50);
	r.result = "{\"winner\":0}";
	CHECK_INT(store_room_save(s, &r), 0);
	r = test_store_room("r9", "adjourned", 100);
	CHECK_INT(store_room_save(s, &r), 0);
	/* An id without the "r<digits>" form has no number. */
	r = test_store_room("r99x", "playing", 400);
	CHECK_INT(store_room_save(s, &r), 0);
	CHECK_INT(test_store_move(s, "r9", 1, 1), 0);
	CHECK_INT(test_store_move(s, "r9", 1, 2), 0);
	CHECK_INT(test_store_move(s, "r2", 1, 1), 0);

	CHECK_INT(store_room_number(s, &n), 0);
	CHECK_INT(n, 13);
	CHECK_INT(test_store_load(s, &seen), 0);
	CHECK_INT(seen.rooms, 4);
	CHECK_STR(seen.ids[0], "r9");
	CHECK_STR(seen.ids[1], "r3");
	CHECK_STR(seen.ids[2], "r12");
	CHECK_STR(seen.ids[3], "r99x");
	CHECK_INT(seen.nmoves[0], 2);
	CHECK_INT(seen.nmoves[1], 0);
	CHECK(seen.plies_ok);

	/* A callback's -1 stops the load with an error. */
	memset(&seen, 0, sizeof seen);
	seen.stop_at = 2;
	CHECK_INT(store_load(s, test_store_seen_cb, &seen), -1);
	CHECK_INT(seen.rooms, 2);
	CHECK_HAS(store_errmsg(s), "load: stopped by the caller at room r3");

	/* The callback may write to the store, and that write is there. */
	memset(&seen, 0, sizeof seen);
	seen.plies_ok = 1;
	seen.s = s;
	CHECK_INT(store_load(s, test_store_seen_cb, &seen), 0);
	CHECK_INT(seen.write_failed, 0);
	CHECK_INT(test_store_load(s, &seen), 0);
	CHECK_INT(seen.nmoves[0], 3);
	CHECK_INT(seen.nmoves[1], 1);
	CHECK(seen.plies_ok);

	/* Prune adjourned and waiting rooms last updated before 200: r9. */
	CHECK_INT(store_prune(s, "adjourned,waiting", 200), 0);
	CHECK_INT(test_store_load(s, &seen), 0);
	CHECK_INT(seen.rooms, 3);
	CHECK_STR(seen.ids[0], "r3");
	CHECK_INT(store_prune(s, "adjourned", 1000), 0);
	CHECK_INT(test_store_load(s, &seen), 0);
	CHECK_INT(seen.rooms, 3);
	/* A part of a status matches nothing; the whole status does. */
	CHECK_INT(store_prune(s, "wait", 1000), 0);
	CHECK_INT(test_store_load(s, &seen), 0);
	CHECK_INT(seen.rooms, 3);
	CHECK_INT(store_prune(s, "waiting", 1000), 0);
	CHECK_INT(test_store_load(s, &seen), 0);
	CHECK_INT(seen.rooms, 2);
	/* r2 (ended) goes: a move for it is refused now. */
	CHECK_INT(test_store_move(s, "r2", 1, 2), 0);
	CHECK_INT(store_prune(s, "ended", 1000), 0);
	CHECK_INT(test_store_move(s, "r2", 1, 3), -1);
	CHECK_HAS(store_errmsg(s), "FOREIGN KEY constraint failed");
	CHECK_INT(test_store_load(s, &seen), 0);
	CHECK_INT(seen.rooms, 2);
	CHECK_STR(seen.ids[0], "r12");
	/* The highest number ever used stays when its room is gone. */
	CHECK_INT(store_room_delete(s, "r12"), 0);
	CHECK_INT(store_room_number(s, &n), 0);
	CHECK_INT(n, 14);
}

/* Every operation on a throw-away store. */
static void
test_store_memory(void)
{
	char err[256] = "";
	struct store *s = store_open(":memory:", 0, err, sizeof err);
	long n = -1;

	CHECK(s != NULL);
	if (s == NULL) {
		fprintf(stderr, "open :memory:: %s\n", err);
		return;
	}
	CHECK_STR(store_errmsg(s), "no error");
	CHECK_INT(store_room_number(s, &n), 0);
	CHECK_INT(n, 1);
	test_store_identities(s);
	test_store_progress(s);
	test_store_rooms_moves(s);
	test_store_load_order(s);
	store_close(s);
}

/* A file store: the schema is recorded, data survives a reopen. */
static void
test_store_file(int sync_full)
{
	char path[64], err[256] = "", buf[128];
	struct store *s;
	struct store_room r = test_store_room("r7", "playing", 10);
	struct test_store_seen seen;
	int found = 0;
	long n = 0;

	test_store_tmp(path, sizeof path);
	s = store_open(path, sync_full, err, sizeof err);
	CHECK(s != NULL);
	if (s == NULL) {
		fprintf(stderr, "open %s: %s\n", path, err);
		test_store_rm(path);
		return;
	}
	CHECK_INT(store_identity_put(s, "ana", "h1"), 0);
	CHECK_INT(store_progress_put(s, "ana", "shifter", "{\"level\":4}"), 0);
	CHECK_INT(store_room_save(s, &r), 0);
	CHECK_INT(test_store_move(s, "r7", 1, 1), 0);
	CHECK_INT(test_store_move(s, "r7", 1, 2), 0);
	/* Another connection sees the moves already: committed. */
	CHECK_INT(test_store_pragma(path, "SELECT count(*) FROM moves"), 2);
	CHECK_INT(test_store_pragma(path,
	              "SELECT count(*) FROM"
	              " pragma_journal_mode WHERE journal_mode = 'wal'"),
	    1);
	store_close(s);

	CHECK_INT(test_store_pragma(path, "PRAGMA user_version"),
	    store_schema_version);
	CHECK_INT(test_store_pragma(path, "PRAGMA application_id"), 0x74626c72);
	s = store_open(path, sync_full, err, sizeof err);
	CHECK(s != NULL);
	if (s != NULL) {
		CHECK_INT(
		    store_identity_hash(s, "ana", buf, sizeof buf, &found), 0);
		CHECK_INT(found, 1);
		CHECK_STR(buf, "h1");
		CHECK_INT(store_progress_get(
		              s, "ana", "shifter", buf, sizeof buf, &found),
		    0);
		CHECK_STR(buf, "{\"level\":4}");
		CHECK_INT(test_store_load(s, &seen), 0);
		CHECK_INT(seen.rooms, 1);
		CHECK_STR(seen.ids[0], "r7");
		CHECK_INT(seen.nmoves[0], 2);
		CHECK(seen.plies_ok);
		CHECK_INT(store_room_number(s, &n), 0);
		CHECK_INT(n, 8);
		store_close(s);
	}
	test_store_rm(path);
}

/* A file from a newer server is refused, and left as it was. */
static void
test_store_newer(void)
{
	char path[64], err[256] = "", want[128];
	struct store *s;

	test_store_tmp(path, sizeof path);
	s = store_open(path, 0, err, sizeof err);
	CHECK(s != NULL);
	store_close(s);
	snprintf(want, sizeof want, "PRAGMA user_version = %d",
	    store_schema_version + 3);
	CHECK_INT(test_store_sql(path, want), SQLITE_OK);
	s = store_open(path, 0, err, sizeof err);
	CHECK(s == NULL);
	store_close(s);
	snprintf(want, sizeof want,
	    "schema version %d is newer than this server (%d)",
	    store_schema_version + 3, store_schema_version);
	CHECK_HAS(err, want);
	CHECK_HAS(err, path);
	CHECK_INT(test_store_pragma(path, "PRAGMA user_version"),
	    store_schema_version + 3);
	test_store_rm(path);
}

/* Write bytes to a fresh file and check that opening it fails with a
 * message holding `want`. */
static void
test_store_bad_file(const char *bytes, size_t len, const char *want)
{
	char path[64], err[256] = "";
	struct store *s;
	FILE *f;

	test_store_tmp(path, sizeof path);
	f = fopen(path, "wb");
	CHECK(f != NULL);
	if (f != NULL) {
		CHECK_INT(fwrite(bytes, 1, len, f), len);
		fclose(f);
	}
	s = store_open(path, 0, err, sizeof err);
	CHECK(s == NULL);
	store_close(s);
	CHECK_HAS(err, path);
	CHECK_HAS(err, want);
	test_store_rm(path);
}

/* A tablero file whose table pages were overwritten after its header is
 * refused at open, not at the first read of the damaged table. */
static void
test_store_damaged(const char *garbage, size_t len)
{
	char path[64], err[256] = "";
	struct store_room r = test_store_room("r1", "playing", 1);
	struct store *s;
	long size, off;
	FILE *f;
	int i;

	test_store_tmp(path, sizeof path);
	s = store_open(path, 0, err, sizeof err);
	CHECK(s != NULL);
	if (s == NULL) {
		test_store_rm(path);
		return;
	}
	CHECK_INT(store_room_save(s, &r), 0);
	for (i = 1; i <= 300; i++)
		CHECK_INT(test_store_move(s, "r1", 1, i), 0);
	store_close(s);
	f = fopen(path, "r+b");
	CHECK(f != NULL);
	if (f == NULL) {
		test_store_rm(path);
		return;
	}
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	/* Pages of 4096 bytes; page 1 (the header and schema) stays. */
	CHECK(size >= 3 * 4096);
	for (off = 4096; off + 4096 <= size; off += 4096) {
		fseek(f, off, SEEK_SET);
		CHECK_INT(fwrite(garbage, 1, len < 64 ? len : 64, f), 64);
	}
	fclose(f);
	s = store_open(path, 0, err, sizeof err);
	CHECK(s == NULL);
	store_close(s);
	CHECK_HAS(err, path);
	CHECK_HAS(err, "damaged");
	test_store_rm(path);
}

/* A directory the server may not write to is named in the error. Root
 * writes anywhere, so this only runs as another user. */
static void
test_store_unwritable_dir(void)
{
	char dir[64] = "/tmp/tablero-test-store-XXXXXX", path[96];
	char err[256] = "";
	struct store *s;

	if (geteuid() == 0)
		return;
	CHECK(mkdtemp(dir) != NULL);
	CHECK_INT(chmod(dir, 0555), 0);
	snprintf(path, sizeof path, "%s/x.db", dir);
	s = store_open(path, 0, err, sizeof err);
	CHECK(s == NULL);
	store_close(s);
	CHECK_HAS(err, "cannot open");
	CHECK_HAS(err, "Permission denied");
	rmdir(dir);
}

/* Corrupt, foreign and unwritable files are refused at open. */
static void
test_store_bad_files(void)
{
	char garbage[8192], path[64], err[256] = "";
	const char *text = "white: ana\nblack: bo\n1. e4 e5\n";
	struct store *s;
	unsigned x = 12345;
	size_t i;

	for (i = 0; i < sizeof garbage; i++) {
		x = x * 1103515245 + 12345;
		garbage[i] = (char)(x >> 16);
	}
	test_store_bad_file(garbage, sizeof garbage, "not a database");
	test_store_bad_file(text, strlen(text), "not a database");

	/* Another program's SQLite file. */
	test_store_tmp(path, sizeof path);
	CHECK_INT(test_store_sql(path, "CREATE TABLE t (x)"), SQLITE_OK);
	s = store_open(path, 0, err, sizeof err);
	CHECK(s == NULL);
	store_close(s);
	CHECK_HAS(err, "an SQLite database but not tablero's");
	test_store_rm(path);

	test_store_damaged(garbage, sizeof garbage);

	s = store_open("/nonexistent-dir/x.db", 0, err, sizeof err);
	CHECK(s == NULL);
	store_close(s);
	CHECK_HAS(err, "data file /nonexistent-dir/x.db: cannot open");
	CHECK_HAS(err, "No such file or directory");

	s = store_open("", 0, err, sizeof err);
	CHECK(s == NULL);
	CHECK_HAS(err, "no path given");
	test_store_unwritable_dir();
}

/* A store that breaks after open (another program dropped a table) fails
 * each write with a message, and what still works keeps working. */
static void
test_store_broken(void)
{
	char path[64], err[256] = "";
	struct store *s;
	struct store_room r = test_store_room("r1", "playing", 1);
	struct test_store_seen seen;

	test_store_tmp(path, sizeof path);
	s = store_open(path, 0, err, sizeof err);
	CHECK(s != NULL);
	if (s == NULL) {
		test_store_rm(path);
		return;
	}
	CHECK_INT(store_room_save(s, &r), 0);
	CHECK_INT(test_store_move(s, "r1", 1, 1), 0);
	CHECK_INT(test_store_sql(path, "DROP TABLE moves"), SQLITE_OK);
	CHECK_INT(test_store_move(s, "r1", 1, 2), -1);
	CHECK_HAS(store_errmsg(s), "put move (room r1 game 1 ply 2)");
	CHECK_HAS(store_errmsg(s), "no such table: moves");
	CHECK_INT(test_store_load(s, &seen), -1);
	CHECK_HAS(store_errmsg(s), "load moves (room r1): ");
	CHECK_INT(store_identity_put(s, "ana", "h"), 0);
	store_close(s);
	test_store_rm(path);
}

/* What a games query gave: the rooms and game numbers, in order. */
struct test_store_games {
	char rooms[8][8];
	int game_no[8];
	int n;
};

static void
test_store_game_seen(void *arg, const struct store_game *g)
{
	struct test_store_games *seen = arg;

	if (seen->n == 8)
		return;
	snprintf(seen->rooms[seen->n], sizeof seen->rooms[0], "%s", g->room);
	seen->game_no[seen->n++] = g->game_no;
}

/* The prune by age (--keep-games-days) on the four games of
 * test_store_games (ended at 1000 to 1003): the oldest first, at most max
 * a call, and nothing that ended at or after the limit. */
static void
test_store_games_prune(struct store *s)
{
	struct test_store_games seen;
	int n = -1;

	CHECK_INT(store_games_prune(s, 1000, 10, &n), 0);
	CHECK_INT(n, 0);
	CHECK_INT(store_games_prune(s, 1003, 1, &n), 0);
	CHECK_INT(n, 1); /* the oldest: r1's first game */
	CHECK_INT(store_games_prune(s, 1003, 10, &n), 0);
	CHECK_INT(n, 2);
	memset(&seen, 0, sizeof seen);
	CHECK_INT(
	    store_games_of(s, "ana", 1, 10, test_store_game_seen, &seen), 0);
	CHECK_INT(seen.n, 1);
	CHECK_STR(seen.rooms[0], "r3"); /* ended at 1003: kept */
}

/* Finished games: kept whole, listed newest first and bounded, by player
 * (private ones only for their own history), and a room's last one. */
static void
test_store_games(void)
{
	char err[256] = "";
	struct store *s = store_open(":memory:", 0, err, sizeof err);
	struct store_game g;
	struct test_store_games seen;
	int i, found = 0;

	CHECK(s != NULL);
	if (s == NULL)
		return;
	memset(&g, 0, sizeof g);
	g.game = "ataxx";
	g.options = "{}";
	g.seats = "[]";
	g.result = "{\"result\":\"draw\"}";
	g.moves = "[]";
	g.start = g.position = "x5o/7/7/7/7/7/o5x x 0 1";
	for (i = 0; i < 4; i++) {
		g.room = i < 2 ? "r1" : i == 2 ? "r2" : "r3";
		g.game_no = i < 2 ? i + 1 : 1;
		g.names[0] = "ana";
		g.names[1] = i == 1 ? NULL : "bob";
		g.is_private = i == 3;
		g.ended_ms = 1000 + i;
		CHECK_INT(store_game_put(s, &g), 0);
	}
	memset(&seen, 0, sizeof seen);
	CHECK_INT(
	    store_games_recent(s, NULL, 2, test_store_game_seen, &seen), 0);
	CHECK_INT(seen.n, 2);
	CHECK_STR(seen.rooms[0], "r2"); /* r3 is private */
	CHECK_STR(seen.rooms[1], "r1");
	CHECK_INT(seen.game_no[1], 2);
	memset(&seen, 0, sizeof seen);
	CHECK_INT(
	    store_games_of(s, "bob", 0, 10, test_store_game_seen, &seen), 0);
	CHECK_INT(seen.n, 2);
	CHECK_STR(seen.rooms[0], "r2");
	CHECK_STR(seen.rooms[1], "r1");
	CHECK_INT(seen.game_no[1], 1);
	memset(&seen, 0, sizeof seen);
	CHECK_INT(
	    store_games_of(s, "bob", 1, 10, test_store_game_seen, &seen), 0);
	CHECK_INT(seen.n, 3);
	CHECK_STR(seen.rooms[0], "r3");
	memset(&seen, 0, sizeof seen);
	CHECK_INT(
	    store_game_last(s, "r1", test_store_game_seen, &seen, &found), 0);
	CHECK_INT(found, 1);
	CHECK_INT(seen.game_no[0], 2);
	CHECK_INT(
	    store_game_last(s, "r9", test_store_game_seen, &seen, &found), 0);
	CHECK_INT(found, 0);
	test_store_games_prune(s);
	store_close(s);
}

/* Write ctl's fault control text (store.h's test hook). */
static void
test_store_fault(const char *ctl, const char *text)
{
	FILE *f = fopen(ctl, "w");

	CHECK(f != NULL);
	if (f == NULL)
		return;
	fputs(text, f);
	fclose(f);
}

/* A group of three ops: room id's row and its first two moves. */
static struct store_op *
test_store_group_ops(const char *id)
{
	static struct store_room r;
	static struct store_move m[2];
	struct store_op *room = store_op_new(STORE_OP_ROOM_SAVE);
	int i;

	r = test_store_room(id, "playing", 100);
	room->u.room = r;
	room->u.room.id = store_op_str(room, id);
	for (i = 1; i >= 0; i--) {
		struct store_op *op = store_op_new(STORE_OP_MOVE_PUT);

		m[i].ply = i + 1;
		m[i].seat = i % 2;
		m[i].move = i == 0 ? "m1" : "m2";
		m[i].clock_ms[0] = 1000 * (i + 1);
		m[i].clock_ms[1] = 2000 * (i + 1);
		m[i].at_ms = 5000 + i + 1;
		m[i].seq = 100 + i + 1;
		op->a = store_op_str(op, id);
		op->n = 1;
		op->u.move = m[i];
		op->next = room->next;
		room->next = op;
	}
	return room;
}

/*
 * A group is all or nothing: a write failing in its middle, the commit
 * failing, or the rollback of a failed group failing too (the connection
 * is then closed and opened again) leave none of it, as the reader sees;
 * the next group commits alone; a group committed twice (tried again
 * after a commit that did happen) is stored once.
 */
static void
test_store_group(void)
{
	char path[64], ctl[64], err[256] = "";
	struct store *s, *rd;
	struct store_op *g1, *g2;
	struct test_store_seen seen;

	test_store_tmp(path, sizeof path);
	test_store_tmp(ctl, sizeof ctl);
	setenv("TABLERO_TEST_STORE_FAULTS", ctl, 1);
	s = store_open(path, 0, err, sizeof err);
	unsetenv("TABLERO_TEST_STORE_FAULTS");
	CHECK(s != NULL);
	rd = s != NULL ? store_open_reader(s, err, sizeof err) : NULL;
	CHECK(rd != NULL);
	if (rd == NULL) {
		store_close(s);
		test_store_rm(path);
		test_store_rm(ctl);
		return;
	}
	g1 = test_store_group_ops("r1");
	g2 = test_store_group_ops("r2");
	/* The third write fails: the first two are not kept. */
	test_store_fault(ctl, "pass 2");
	CHECK_INT(store_commit(s, g1), -1);
	CHECK_HAS(store_errmsg(s), "injected");
	CHECK_INT(test_store_load(rd, &seen), 0);
	CHECK_INT(seen.rooms, 0);
	/* Every write goes through, the commit fails. */
	test_store_fault(ctl, "pass 3");
	CHECK_INT(store_commit(s, g1), -1);
	CHECK_HAS(store_errmsg(s), "commit");
	CHECK_INT(test_store_load(rd, &seen), 0);
	CHECK_INT(seen.rooms, 0);
	/* The second write fails and so does the rollback: what the first
	 * wrote is not committed by the next group. */
	test_store_fault(ctl, "pass 1 undo");
	CHECK_INT(store_commit(s, g1), -1);
	test_store_fault(ctl, "");
	CHECK_INT(store_commit(s, g2), 0);
	CHECK_INT(test_store_load(rd, &seen), 0);
	CHECK_INT(seen.rooms, 1);
	CHECK_STR(seen.ids[0], "r2");
	CHECK_INT(seen.nmoves[0], 2);
	/* The failed group tried again, twice: stored once, whole. */
	CHECK_INT(store_commit(s, g1), 0);
	CHECK_INT(store_commit(s, g1), 0);
	CHECK_INT(test_store_load(rd, &seen), 0);
	CHECK_INT(seen.rooms, 2);
	CHECK_INT(seen.nmoves[0], 2);
	CHECK_INT(seen.nmoves[1], 2);
	CHECK(seen.plies_ok);
	store_op_free(g1);
	store_op_free(g2);
	store_close(rd);
	store_close(s);
	test_store_rm(path);
	test_store_rm(ctl);
}

/* Rows of a file's games table for (room, game_no), read through a
 * separate connection. */
static long long
test_store_games_rows(const char *path, const char *room, int game_no)
{
	char sql[128];

	snprintf(sql, sizeof sql,
	    "SELECT count(*) FROM games WHERE room = '%s' AND game_no = %d",
	    room, game_no);
	return test_store_pragma(path, sql);
}

/* A group that ends room's game game_no at ended_ms: the room's row
 * (ended), its last move and the finished game. */
static struct store_op *
test_store_end_group(const char *room, int game_no, long long ended_ms)
{
	static struct store_room r;
	struct store_op *save = store_op_new(STORE_OP_ROOM_SAVE);
	struct store_op *move = store_op_new(STORE_OP_MOVE_PUT);
	struct store_op *game = store_op_new(STORE_OP_GAME_PUT);
	struct store_game *g = &game->u.game;

	r = test_store_room(room, "ended", 100);
	r.game_no = game_no;
	r.result = "{\"result\":\"win\",\"winner\":\"white\"}";
	save->u.room = r;
	save->u.room.id = store_op_str(save, room);
	move->a = store_op_str(move, room);
	move->n = game_no;
	move->u.move.ply = 1;
	move->u.move.move = "b6";
	move->u.move.clock_ms[0] = move->u.move.clock_ms[1] = -1;
	move->u.move.at_ms = ended_ms - 10;
	move->u.move.seq = 1;
	g->room = store_op_str(game, room);
	g->game_no = game_no;
	g->game = "ataxx";
	g->options = "{}";
	g->seats = "[]";
	g->names[0] = "ana";
	g->names[1] = "bob";
	g->result = r.result;
	g->moves = "[{\"move\":\"b6\"}]";
	g->start = g->position = "x5o/7/7/7/7/7/o5x x 0 1";
	g->nmoves = 1;
	g->ended_ms = ended_ms;
	save->next = move;
	move->next = game;
	return save;
}

/* A group that ends a game, committed again after its COMMIT went
 * through unseen (the store thread's retry when the acknowledgement was
 * lost), keeps the finished game once, also when another game of the
 * room ended in between (the games' key: room, game number and end, as
 * PostgreSQL's test_pg_ops checks). */
static void
test_store_game_once(void)
{
	char err[256] = "", path[64];
	struct store *s;
	struct store_op *g1, *g2;
	struct test_store_games seen;
	int found = 0;

	test_store_tmp(path, sizeof path);
	s = store_open(path, 0, err, sizeof err);
	CHECK(s != NULL);
	if (s == NULL) {
		test_store_rm(path);
		return;
	}
	g1 = test_store_end_group("r7", 1, 9000);
	CHECK_INT(store_commit(s, g1), 0);
	CHECK_INT(store_commit(s, g1), 0); /* the retry */
	CHECK_INT(test_store_games_rows(path, "r7", 1), 1);
	g2 = test_store_end_group("r7", 2, 9500);
	CHECK_INT(store_commit(s, g2), 0);
	CHECK_INT(store_commit(s, g1), 0); /* the first group, once more */
	CHECK_INT(store_commit(s, g2), 0);
	store_op_free(g1);
	store_op_free(g2);
	CHECK_INT(test_store_games_rows(path, "r7", 1), 1);
	CHECK_INT(test_store_games_rows(path, "r7", 2), 1);
	CHECK_INT(test_store_pragma(path, "SELECT count(*) FROM games"), 2);
	memset(&seen, 0, sizeof seen);
	CHECK_INT(
	    store_games_of(s, "bob", 0, 10, test_store_game_seen, &seen), 0);
	CHECK_INT(seen.n, 2);
	CHECK_INT(
	    store_game_last(s, "r7", test_store_game_seen, &seen, &found), 0);
	CHECK_INT(found, 1);
	store_close(s);
	test_store_rm(path);
}

/* The fault control file's text into buf ("" when unreadable). */
static void
test_store_fault_text(const char *ctl, char *buf, size_t len)
{
	FILE *f = fopen(ctl, "r");
	size_t n = 0;

	if (f != NULL) {
		n = fread(buf, 1, len - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
}

/* A commit on its own thread (test_store_hold). */
struct test_store_held {
	struct store *s;
	struct store_op *ops;
	int rc;
};

static void *
test_store_held_main(void *arg)
{
	struct test_store_held *h = arg;

	h->rc = store_commit(h->s, h->ops);
	return NULL;
}

/* The fault hook's "hold": a commit stops before it begins, says so
 * ("holding") and stores nothing until the file says something else;
 * then it commits. (tests/cluster/test_cluster_fence_held.py holds a
 * node's commit so while another node takes its room.) */
static void
test_store_hold(void)
{
	char path[64], ctl[64], text[32], err[256] = "";
	struct timespec tick = {0, 10 * 1000000L};
	struct test_store_held h = {NULL, NULL, -9};
	struct test_store_seen seen;
	struct store *rd;
	pthread_t tid;
	int i;

	test_store_tmp(path, sizeof path);
	test_store_tmp(ctl, sizeof ctl);
	setenv("TABLERO_TEST_STORE_FAULTS", ctl, 1);
	h.s = store_open(path, 0, err, sizeof err);
	unsetenv("TABLERO_TEST_STORE_FAULTS");
	rd = h.s != NULL ? store_open_reader(h.s, err, sizeof err) : NULL;
	CHECK(rd != NULL);
	if (rd == NULL) {
		store_close(h.s);
		test_store_rm(path);
		test_store_rm(ctl);
		return;
	}
	h.ops = test_store_group_ops("r1");
	test_store_fault(ctl, "hold");
	CHECK_INT(pthread_create(&tid, NULL, test_store_held_main, &h), 0);
	for (i = 0; i < 1000; i++) { /* 10 s at most */
		test_store_fault_text(ctl, text, sizeof text);
		if (strcmp(text, "holding") == 0)
			break;
		nanosleep(&tick, NULL);
	}
	CHECK_STR(text, "holding");
	nanosleep(&tick, NULL);
	CHECK_INT(h.rc, -9); /* still in the commit */
	CHECK_INT(test_store_load(rd, &seen), 0);
	CHECK_INT(seen.rooms, 0);
	test_store_fault(ctl, "");
	CHECK_INT(pthread_join(tid, NULL), 0);
	CHECK_INT(h.rc, 0);
	CHECK_INT(test_store_load(rd, &seen), 0);
	CHECK_INT(seen.rooms, 1);
	CHECK_INT(seen.nmoves[0], 2);
	store_op_free(h.ops);
	store_close(rd);
	store_close(h.s);
	test_store_rm(path);
	test_store_rm(ctl);
}

/* A group committed twice (its acknowledgement lost) changes each rating
 * once, also after another game's change; a rated game's mark is kept
 * once per person, and goes with its prune. */
static void
test_store_ratings_once(void)
{
	char err[256] = "", path[64];
	struct store *s;
	struct store_op *op;
	struct store_fixture_rated got = {0, 0, 0};

	test_store_tmp(path, sizeof path);
	s = store_open(path, 0, err, sizeof err);
	CHECK(s != NULL);
	if (s == NULL) {
		test_store_rm(path);
		return;
	}
	op = store_fixture_rating("ana", "r1/1@100", 100, 1500, 1600, 0);
	CHECK_INT(store_commit(s, op), 0);
	CHECK_INT(store_commit(s, op), 0);
	CHECK_INT(
	    store_write(
	        s, store_fixture_rating("ana", "r2/1@200", 200, 1600, 1650, 1)),
	    0);
	CHECK_INT(store_commit(s, op), 0); /* the first group, once more */
	store_op_free(op);
	CHECK_INT(store_ratings_of(s, "ana", store_fixture_rated_cb, &got), 0);
	CHECK_INT(got.n, 1);
	CHECK_INT(got.wins, 2);
	CHECK(got.rating == 1650);
	op = store_op_new(STORE_OP_ROW);
	op->u.row.what = "rating_games";
	op->u.row.sql = "DELETE FROM rating_games WHERE at_ms < $1";
	op->u.row.n = 1;
	op->u.row.vals[0] = store_op_str(op, "150");
	CHECK_INT(store_write(s, op), 0);
	CHECK_INT(
	    test_store_pragma(path, "SELECT count(*) FROM rating_games"), 1);
	store_close(s);
	test_store_rm(path);
}

int
main(void)
{
	test_store_group();
	test_store_hold();
	test_store_ratings_once();
	test_store_games();
	test_store_game_once();
	test_store_memory();
	test_store_file(0);
	test_store_file(1);
	test_store_newer();
	test_store_bad_files();
	test_store_broken();
	return check_done();
}
