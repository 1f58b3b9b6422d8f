/*
 * test_pgstore.c: the PostgreSQL backend (server/store/pg.c), against the
 * server TABLERO_TEST_PG names (tests/pg.sh starts a throwaway one; each
 * run makes fresh databases on it). Ops are idempotent (a move put twice,
 * a run of moves repeating a key, a finished game kept once, a rating
 * changed once per game however often its group is tried), a group is
 * all or nothing (a fault in its middle, in a run of moves, and in its
 * rollback, leaves none of it), room numbers come from the sequence above
 * any stored, reads see what is committed, a newer schema and another
 * program's database are refused, and --copy-db's engine carries a store
 * to SQLite and back, and the rooms' and the club's fences hold.
 * Without TABLERO_TEST_PG it says so and checks
 * nothing: make pg-test runs it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/thread.h>
#include <libpq-fe.h>

#include "server/store/store.h"
#include "server/store/storeq.h"
#include "tests/unit/check.h"
#include "tests/unit/store_fixture.h"

/* The URL of the maintenance database, and the fault control file. */
static const char *test_pg_url;
static char test_pg_fault[64];

/* Run sql on the database at url (NULL: the maintenance one); 0 or -1. */
static int
test_pg_exec(const char *url, const char *sql)
{
	PGconn *c = PQconnectdb(url != NULL ? url : test_pg_url);
	PGresult *r = PQexec(c, sql);
	int ok = PQresultStatus(r) == PGRES_COMMAND_OK ||
	    PQresultStatus(r) == PGRES_TUPLES_OK;

	if (!ok)
		fprintf(stderr, "test_pgstore: %s: %s", sql, PQerrorMessage(c));
	PQclear(r);
	PQfinish(c);
	return ok ? 0 : -1;
}

/* The first field of sql's first row as a number (-1: none). */
static long long
test_pg_num(const char *url, const char *sql)
{
	PGconn *c = PQconnectdb(url);
	PGresult *r = PQexec(c, sql);
	long long v = -1;

	if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0)
		v = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
	PQclear(r);
	PQfinish(c);
	return v;
}

/* A fresh database's URL into buf. */
static void
test_pg_fresh(char *buf, size_t len)
{
	static int n;
	char sql[96], name[48];
	const char *slash = strrchr(test_pg_url, '/');

	snprintf(name, sizeof name, "u%ld_%d_%d", (long)getpid(),
	    (int)time(NULL) % 100000, ++n);
	snprintf(sql, sizeof sql, "CREATE DATABASE %s", name);
	CHECK(test_pg_exec(NULL, sql) == 0);
	snprintf(
	    buf, len, "%.*s/%s", (int)(slash - test_pg_url), test_pg_url, name);
}

/* The fault control file holds text ("" : no fault). */
static void
test_pg_faults(const char *text)
{
	FILE *f = fopen(test_pg_fault, "w");

	if (f == NULL)
		return;
	fputs(text, f);
	fclose(f);
}

/* A move op of room r, game 1, ply with the notation mv. */
static struct store_op *
test_pg_move(const char *room, int ply, const char *mv)
{
	struct store_op *op = store_op_new(STORE_OP_MOVE_PUT);

	op->a = store_op_str(op, room);
	op->n = 1;
	op->u.move.ply = ply;
	op->u.move.seat = ply % 2;
	op->u.move.move = store_op_str(op, mv);
	op->u.move.clock_ms[0] = op->u.move.clock_ms[1] = -1;
	op->u.move.at_ms = 1000 + ply;
	op->u.move.seq = ply + 1;
	return op;
}

/* A room op for "r<n>" (playing, game 1). */
static struct store_op *
test_pg_room(const char *id)
{
	struct store_op *op = store_op_new(STORE_OP_ROOM_SAVE);
	struct store_room *r = &op->u.room;

	r->id = store_op_str(op, id);
	r->game = "ataxx";
	r->options = "{}";
	r->seats = "[{\"name\":\"ana\",\"bot\":0}]";
	r->status = "playing";
	r->creator = "ana";
	r->game_no = 1;
	r->created_ms = r->updated_ms = 5;
	return op;
}

/* Chain n ops into one group; its first. */
static struct store_op *
test_pg_chain(struct store_op **ops, int n)
{
	int i;

	for (i = 0; i + 1 < n; i++)
		ops[i]->next = ops[i + 1];
	return ops[0];
}

/* What store_load gave: "room:ply:move ..." and the count. */
struct test_pg_moves {
	char text[256];
	int n;
};

static int
test_pg_load_cb(
    void *arg, const struct store_room *r, const struct store_move *m, int n)
{
	struct test_pg_moves *out = arg;
	size_t len;
	int i;

	for (i = 0; i < n; i++) {
		len = strlen(out->text);
		snprintf(out->text + len, sizeof out->text - len, "%s%s:%d:%s",
		    out->text[0] != '\0' ? " " : "", r->id, m[i].ply,
		    m[i].move);
	}
	out->n += n;
	return 0;
}

/* Everything store_load gives, as text. */
static void
test_pg_loaded(struct store *s, struct test_pg_moves *out)
{
	memset(out, 0, sizeof *out);
	CHECK(store_load(s, test_pg_load_cb, out) == 0);
}

static void
test_pg_games_cb(void *arg, const struct store_game *g)
{
	(*(int *)arg)++;
	(void)g;
}

/* Commit a games prune of at most max games that ended before
 * before_ms: the rows it removed, or -1 when the commit failed. */
static long
test_pg_prune_games(struct store *w, long long before_ms, int max)
{
	struct store_op *op = store_op_new(STORE_OP_GAMES_PRUNE);
	long n = 0;
	int rc;

	op->ms = before_ms;
	op->n = max;
	op->count = &n;
	rc = store_commit(w, op);
	store_op_free(op);
	return rc == 0 ? n : -1;
}

/* Ops are idempotent; a run of moves with a repeated key keeps the
 * later; reads see commits; room numbers rise above any stored. */
static void
test_pg_ops(void)
{
	char url[256], err[512] = "";
	struct store *w, *r;
	struct store_op *ops[6];
	struct store_identity id;
	struct test_pg_moves got;
	struct store_game g;
	long n1, n2;
	int found, count = 0;

	test_pg_fresh(url, sizeof url);
	w = store_open(url, STORE_SYNC_FULL, err, sizeof err);
	CHECK(w != NULL);
	if (w == NULL) {
		fprintf(stderr, "test_pgstore: %s\n", err);
		return;
	}
	CHECK_STR(store_backend_name(w), "postgresql");
	r = store_open_reader(w, err, sizeof err);
	CHECK(r != NULL);
	ops[0] = test_pg_room("r7");
	ops[1] = test_pg_move("r7", 1, "b6");
	ops[2] = test_pg_move("r7", 2, "f6");
	ops[3] = test_pg_move("r7", 2, "f7"); /* the same key: later wins */
	ops[4] = store_op_new(STORE_OP_IDENT_PUT);
	ops[4]->a = store_op_str(ops[4], "Ana");
	ops[4]->b = store_op_str(ops[4], "hash1");
	ops[5] = store_op_new(STORE_OP_GAME_PUT);
	memset(&g, 0, sizeof g);
	g.room = "r7";
	g.game_no = 1;
	g.game = g.options = g.seats = g.result = g.moves = "x";
	g.start = g.position = "p";
	g.ended_ms = 9;
	ops[5]->u.game = g;
	test_pg_chain(ops, 6);
	/* Twice: a group tried again after an unknown outcome. */
	CHECK(store_commit(w, ops[0]) == 0);
	CHECK(store_commit(w, ops[0]) == 0);
	store_op_free(ops[0]);
	test_pg_loaded(r, &got);
	CHECK_STR(got.text, "r7:1:b6 r7:2:f7");
	CHECK(store_identity_find(r, "ANA", &id, &found) == 0);
	CHECK_INT(found, 1);
	CHECK_STR(id.name, "Ana");
	CHECK(store_game_last(r, "r7", test_pg_games_cb, &count, &found) == 0);
	CHECK_INT(test_pg_num(url, "SELECT count(*) FROM games"), 1);
	/* The games prune (--keep-games-days): only games that ended before
	 * its time, its count the rows it removed. */
	CHECK_INT(test_pg_prune_games(w, 9, 5), 0);
	CHECK_INT(test_pg_prune_games(w, 10, 5), 1);
	CHECK_INT(test_pg_num(url, "SELECT count(*) FROM games"), 0);
	CHECK(store_room_number(r, &n1) == 0);
	CHECK(n1 > 7);
	CHECK(store_room_number(r, &n2) == 0);
	CHECK(n2 > n1);
	store_close(r);
	store_close(w);
	/* Reopened: the numbers go on above what was given out. */
	w = store_open(url, 0, err, sizeof err);
	r = w != NULL ? store_open_reader(w, err, sizeof err) : NULL;
	CHECK(r != NULL && store_room_number(r, &n1) == 0 && n1 > n2);
	store_close(r);
	store_close(w);
}

/* name's ratings as the reader sees them. */
static struct store_fixture_rated
test_pg_rated(struct store *r, const char *name)
{
	struct store_fixture_rated out = {0, 0, 0};

	CHECK(store_ratings_of(r, name, store_fixture_rated_cb, &out) == 0);
	return out;
}

/* A group tried again after its COMMIT went through unseen (committed
 * twice here, as the store thread does when the acknowledgement was
 * lost) changes each rating once, also when another game's change was
 * stored in between; the marks go with their prune. Before the marks
 * (rating_games), the second try added the change again: 2 wins. */
static void
test_pg_ratings_once(void)
{
	char url[256], err[512] = "";
	struct store *w, *r;
	struct store_op *op, *next;
	struct store_fixture_rated got;

	test_pg_fresh(url, sizeof url);
	w = store_open(url, STORE_SYNC_FULL, err, sizeof err);
	r = w != NULL ? store_open_reader(w, err, sizeof err) : NULL;
	CHECK(r != NULL);
	if (r == NULL) {
		fprintf(stderr, "test_pgstore: %s\n", err);
		store_close(w);
		return;
	}
	op = store_fixture_rating("ana", "r1/1@100", 100, 1500, 1600, 0);
	CHECK(store_commit(w, op) == 0);
	CHECK(store_commit(w, op) == 0); /* the retry */
	got = test_pg_rated(r, "ana");
	CHECK_INT(got.n, 1);
	CHECK_INT(got.wins, 1);
	CHECK(got.rating == 1600);
	/* The next game, then the first game's group once more. */
	next = store_fixture_rating("ana", "r2/1@200", 200, 1600, 1650, 1);
	CHECK(store_commit(w, next) == 0);
	store_op_free(next);
	CHECK(store_commit(w, op) == 0);
	store_op_free(op);
	got = test_pg_rated(r, "ana");
	CHECK_INT(got.wins, 2);
	CHECK(got.rating == 1650);
	CHECK_INT(test_pg_num(url, "SELECT count(*) FROM rating_games"), 2);
	op = store_op_new(STORE_OP_ROW);
	op->u.row.what = "rating_games";
	op->u.row.sql = "DELETE FROM rating_games WHERE at_ms < $1";
	op->u.row.n = 1;
	op->u.row.vals[0] = store_op_str(op, "150");
	CHECK(store_commit(w, op) == 0);
	store_op_free(op);
	CHECK_INT(test_pg_num(url, "SELECT count(*) FROM rating_games"), 1);
	store_close(r);
	store_close(w);
}

/* A fault in the middle of a run of moves, at the commit, and in the
 * rollback: none of the group on disk, and the next try commits it. */
static void
test_pg_faults_group(void)
{
	static const char *const faults[] = {
	    "pass 2", "pass 4", "pass 3 undo", "fail undo"};
	char url[256], err[512] = "";
	struct store_op *ops[4];
	struct store *w, *r;
	struct test_pg_moves got;
	size_t i;

	test_pg_fresh(url, sizeof url);
	w = store_open(url, 0, err, sizeof err);
	r = w != NULL ? store_open_reader(w, err, sizeof err) : NULL;
	CHECK(r != NULL);
	if (r == NULL)
		return;
	for (i = 0; i < sizeof faults / sizeof faults[0]; i++) {
		ops[0] = test_pg_room("r1");
		ops[1] = test_pg_move("r1", 1, "b6");
		ops[2] = test_pg_move("r1", 2, "f6");
		ops[3] = test_pg_move("r1", 3, "a7");
		test_pg_chain(ops, 4);
		test_pg_faults(faults[i]);
		CHECK(store_commit(w, ops[0]) != 0);
		CHECK(strstr(store_errmsg(w), "injected") != NULL);
		test_pg_loaded(r, &got);
		CHECK_INT(got.n, 0);
		CHECK_INT(test_pg_num(url, "SELECT count(*) FROM rooms"), 0);
		test_pg_faults("");
		CHECK(store_commit(w, ops[0]) == 0);
		test_pg_loaded(r, &got);
		CHECK_STR(got.text, "r1:1:b6 r1:2:f6 r1:3:a7");
		store_op_free(ops[0]);
		ops[0] = store_op_new(STORE_OP_ROOM_DELETE);
		ops[0]->a = store_op_str(ops[0], "r1");
		CHECK(store_commit(w, ops[0]) == 0);
		store_op_free(ops[0]);
	}
	store_close(r);
	store_close(w);
}

/* A newer schema and another program's database are refused. */
static void
test_pg_refused(void)
{
	char url[256], err[512] = "";
	struct store *w;

	test_pg_fresh(url, sizeof url);
	w = store_open(url, 0, err, sizeof err);
	CHECK(w != NULL);
	store_close(w);
	CHECK(
	    test_pg_exec(url, "UPDATE tablero_schema SET version = 999") == 0);
	err[0] = '\0';
	CHECK(store_open(url, 0, err, sizeof err) == NULL);
	CHECK(strstr(err, "999") != NULL);
	test_pg_fresh(url, sizeof url);
	CHECK(test_pg_exec(url, "CREATE TABLE recipes (name text)") == 0);
	err[0] = '\0';
	CHECK(store_open(url, 0, err, sizeof err) == NULL);
	CHECK(strstr(err, "not tablero's") != NULL);
}

/* A store copied to SQLite and back keeps its moves and numbers. */
static void
test_pg_copy(void)
{
	char url[256], back[256], err[512] = "", file[64];
	struct store_op *ops[3];
	struct store *w, *r;
	struct test_pg_moves got;
	long n;

	test_pg_fresh(url, sizeof url);
	w = store_open(url, 0, err, sizeof err);
	CHECK(w != NULL);
	if (w == NULL)
		return;
	ops[0] = test_pg_room("r40");
	ops[1] = test_pg_move("r40", 1, "b6");
	ops[2] = test_pg_move("r40", 2, "with \"quotes\" and \\");
	CHECK(store_commit(w, test_pg_chain(ops, 3)) == 0);
	store_op_free(ops[0]);
	store_close(w);
	snprintf(file, sizeof file, "/tmp/test_pgstore.%ld.db", (long)getpid());
	unlink(file);
	CHECK(store_copy(url, file, err, sizeof err) == 0);
	test_pg_fresh(back, sizeof back);
	CHECK(store_copy(file, back, err, sizeof err) == 0);
	CHECK(store_copy(file, back, err, sizeof err) != 0);
	CHECK(strstr(err, "not empty") != NULL);
	w = store_open(back, 0, err, sizeof err);
	r = w != NULL ? store_open_reader(w, err, sizeof err) : NULL;
	CHECK(r != NULL);
	if (r != NULL) {
		test_pg_loaded(r, &got);
		CHECK_STR(got.text, "r40:1:b6 r40:2:with \"quotes\" and \\");
		CHECK(store_room_number(r, &n) == 0 && n > 40);
	}
	store_close(r);
	store_close(w);
	unlink(file);
	strcat(file, "-wal");
	unlink(file);
	file[strlen(file) - 4] = '\0';
	strcat(file, "-shm");
	unlink(file);
}

/* load/claim callback: count the moves of the room given. */
static int
test_pg_claim_cb(void *arg, const struct store_room *rm,
    const struct store_move *moves, int nmoves)
{
	(void)rm;
	(void)moves;
	*(int *)arg = nmoves;
	return 0;
}

/* The cluster's fence: a room made with epoch 1 and claimed by another
 * node (epoch 2) refuses the first node's next group, marks the ops of
 * that room only, writes none of the group, and takes the new owner's. */
static void
test_pg_fence(void)
{
	char url[256], err[512] = "", sql[160];
	struct store *w, *r;
	struct store_op *ops[3];
	long long epoch = 0;
	int nmoves = -1;

	test_pg_fresh(url, sizeof url);
	w = store_open(url, 0, err, sizeof err);
	CHECK(w != NULL);
	if (w == NULL)
		return;
	r = store_open_reader(w, err, sizeof err);
	CHECK(r != NULL);
	ops[0] = test_pg_room("r1");
	ops[1] = test_pg_move("r1", 1, "b6");
	ops[2] = test_pg_room("r2");
	ops[0]->epoch = ops[1]->epoch = ops[2]->epoch = 1;
	CHECK_INT(store_commit(w, test_pg_chain(ops, 3)), 0);
	store_op_free(ops[0]);
	CHECK_INT(test_pg_num(url,
	              "SELECT owner_epoch FROM rooms"
	              " WHERE id = 'r1'"),
	    1);
	/* Another node claims r1: epoch 2, with its one move loaded. */
	CHECK_INT(
	    store_room_claim(r, "r1", &epoch, test_pg_claim_cb, &nmoves), 0);
	CHECK_INT(epoch, 2);
	CHECK_INT(nmoves, 1);
	/* The first node, still at epoch 1, writes r1 and r2. */
	ops[0] = test_pg_move("r1", 2, "f6");
	ops[1] = test_pg_move("r2", 1, "a1");
	ops[0]->epoch = ops[1]->epoch = 1;
	CHECK_INT(store_commit(w, test_pg_chain(ops, 2)), STORE_FENCED);
	CHECK_INT(ops[0]->fenced, 1);
	CHECK_INT(ops[1]->fenced, 0);
	snprintf(sql, sizeof sql, "SELECT count(*) FROM moves");
	CHECK_INT(test_pg_num(url, sql), 1);
	/* Without the fenced op the rest commits (what storeq does). */
	ops[0]->next = NULL;
	CHECK_INT(store_commit(w, ops[1]), 0);
	CHECK_INT(test_pg_num(url, sql), 2);
	/* The new owner writes r1 at epoch 2. */
	ops[0]->epoch = 2;
	ops[0]->fenced = 0;
	CHECK_INT(store_commit(w, ops[0]), 0);
	CHECK_INT(test_pg_num(url, sql), 3);
	store_op_free(ops[0]);
	store_op_free(ops[1]);
	/* An ended or unknown room is not claimed. */
	CHECK_INT(
	    store_room_claim(r, "r9", &epoch, test_pg_claim_cb, &nmoves), 0);
	CHECK_INT(epoch, 0);
	store_close(r);
	store_close(w);
}

/* The store thread's side of the fence: what storeq told the loop. */
struct test_pg_news {
	uint64_t committed;
	char lost[64];
	int nlost;
};

static void
test_pg_news_done(void *arg, uint64_t committed, int failing)
{
	(void)failing;
	((struct test_pg_news *)arg)->committed = committed;
}

/* Every room's ops carry epoch 1 (the node that made them). */
static long long
test_pg_epoch(void *arg, const char *room)
{
	(void)arg;
	(void)room;
	return 1;
}

static void
test_pg_lost(void *arg, const char *room)
{
	struct test_pg_news *n = arg;

	snprintf(n->lost, sizeof n->lost, "%s", room);
	n->nlost++;
}

/* Run base until the news says op upto committed (bounded). */
static void
test_pg_wait(struct event_base *base, struct test_pg_news *n, uint64_t upto)
{
	struct timeval tick = {0, 10000};
	int i;

	for (i = 0; i < 500 && n->committed < upto; i++) {
		event_base_loopexit(base, &tick);
		event_base_dispatch(base);
	}
}

/* A group that mixes a fenced room's ops with another room's: storeq
 * drops the fenced room's (never stored, told to the loop before the
 * commit news) and commits the rest. */
static void
test_pg_fence_queue(void)
{
	char url[256], err[512] = "";
	struct test_pg_news news = {0, "", 0};
	struct store_move m = {.ply = 2,
	    .seat = 1,
	    .move = "f6",
	    .clock_ms = {-1, -1},
	    .at_ms = 9,
	    .seq = 3};
	struct event_base *base = event_base_new();
	struct store *w, *r;
	struct storeq *q;
	long long epoch = 0;
	int nmoves = 0;

	test_pg_fresh(url, sizeof url);
	w = store_open(url, 0, err, sizeof err);
	r = w != NULL ? store_open_reader(w, err, sizeof err) : NULL;
	CHECK(r != NULL && base != NULL);
	if (r == NULL || base == NULL)
		return;
	q = storeq_new(base, w, 0, test_pg_news_done, &news);
	CHECK(q != NULL);
	storeq_set_fence(q, test_pg_epoch, test_pg_lost, &news);
	storeq_add(q, test_pg_room("r1"));
	storeq_add(q, test_pg_room("r2"));
	storeq_add(q, test_pg_move("r1", 1, "b6"));
	test_pg_wait(base, &news, storeq_ops(q));
	CHECK_U64(news.committed, storeq_ops(q));
	CHECK_INT(
	    store_room_claim(r, "r1", &epoch, test_pg_claim_cb, &nmoves), 0);
	CHECK_INT(epoch, 2);
	/* The old owner goes on writing both rooms in one group. */
	storeq_move_put(q, "r1", 1, &m);
	storeq_add(q, test_pg_move("r2", 1, "a1"));
	test_pg_wait(base, &news, storeq_ops(q));
	CHECK_U64(news.committed, storeq_ops(q));
	CHECK_INT(news.nlost, 1);
	CHECK_STR(news.lost, "r1");
	CHECK_INT(test_pg_num(url,
	              "SELECT count(*) FROM moves"
	              " WHERE room = 'r1'"),
	    1);
	CHECK_INT(test_pg_num(url,
	              "SELECT count(*) FROM moves"
	              " WHERE room = 'r2'"),
	    1);
	CHECK_U64(storeq_free(q), 0);
	store_close(r);
	store_close(w);
	event_base_free(base);
}

/* The club's epoch the test holds (the rooms' is 1), and what was lost. */
struct test_pg_club {
	struct test_pg_news news;
	long long epoch;
};

static long long
test_pg_club_epoch(void *arg, const char *key)
{
	struct test_pg_club *c = arg;

	return strcmp(key, STORE_CLUB_KEY) == 0 ? c->epoch : 1;
}

static void
test_pg_club_lost(void *arg, const char *key)
{
	test_pg_lost(&((struct test_pg_club *)arg)->news, key);
}

/* A club's row (counters name = value) queued. */
static void
test_pg_club_row(struct storeq *q, const char *name)
{
	const char *v[2] = {name, "7"};

	storeq_club_row(q, "counters",
	    "INSERT INTO counters (name, value) VALUES ($1, $2)", 2, v);
}

/* The club fenced as rooms are: a node whose club epoch is below the
 * stored one (another took the club since: store_club_claim) has its
 * club rows dropped, never stored, and is told (STORE_CLUB_KEY); the
 * rest of its group commits; the new holder's rows are stored. Before
 * the fence the stale node's row was written. */
static void
test_pg_club_fence(void)
{
	char url[256], err[512] = "";
	struct test_pg_club club = {{0, "", 0}, 0};
	struct event_base *base = event_base_new();
	struct store *w, *r;
	struct storeq *q;
	long long e2 = 0;

	test_pg_fresh(url, sizeof url);
	w = store_open(url, 0, err, sizeof err);
	r = w != NULL ? store_open_reader(w, err, sizeof err) : NULL;
	CHECK(r != NULL && base != NULL);
	if (r == NULL || base == NULL)
		return;
	q = storeq_new(base, w, 0, test_pg_news_done, &club.news);
	CHECK(q != NULL);
	storeq_set_fence(q, test_pg_club_epoch, test_pg_club_lost, &club);
	CHECK_INT(store_club_claim(r, &club.epoch), 0);
	CHECK(club.epoch == 1);
	test_pg_club_row(q, "a");
	test_pg_wait(base, &club.news, storeq_ops(q));
	CHECK_U64(club.news.committed, storeq_ops(q));
	CHECK_INT(test_pg_num(url,
	              "SELECT count(*) FROM counters"
	              " WHERE name = 'a'"),
	    1);
	/* Another node takes the club; this one writes on, with a room. */
	CHECK_INT(store_club_claim(r, &e2), 0);
	CHECK(e2 == 2);
	test_pg_club_row(q, "b");
	storeq_add(q, test_pg_room("r3"));
	test_pg_wait(base, &club.news, storeq_ops(q));
	CHECK_U64(club.news.committed, storeq_ops(q));
	CHECK_INT(club.news.nlost, 1);
	CHECK_STR(club.news.lost, STORE_CLUB_KEY);
	CHECK_INT(test_pg_num(url,
	              "SELECT count(*) FROM counters"
	              " WHERE name = 'b'"),
	    0);
	CHECK_INT(test_pg_num(url,
	              "SELECT count(*) FROM rooms"
	              " WHERE id = 'r3'"),
	    1);
	/* With the new epoch the club's rows are stored. */
	club.epoch = e2;
	test_pg_club_row(q, "c");
	test_pg_wait(base, &club.news, storeq_ops(q));
	CHECK_INT(club.news.nlost, 1);
	CHECK_INT(test_pg_num(url,
	              "SELECT count(*) FROM counters"
	              " WHERE name = 'c'"),
	    1);
	CHECK_U64(storeq_free(q), 0);
	store_close(r);
	store_close(w);
	event_base_free(base);
}

/* A tournament game's result (room, result) as a node without the club
 * writes it: in the room's change, sharing the room's fence. */
static void
test_pg_result_row(struct storeq *q, const char *room)
{
	const char *v[2] = {room, "1-0"};

	storeq_room_row(q, room, "tourney_games",
	    "UPDATE tourney_games SET result = $2 WHERE room = $1"
	    " AND result = ''",
	    2, v);
}

/* A row that shares a room's fence (a tournament game's result written
 * by a node without the club, tstore_room_result) is dropped with the
 * room's ops when another node took the room, and stored with them
 * otherwise. */
static void
test_pg_room_row_fence(void)
{
	char url[256], err[512] = "";
	struct test_pg_news news = {0, "", 0};
	struct event_base *base = event_base_new();
	struct store *w, *r;
	struct storeq *q;
	long long epoch = 0;
	int nmoves = 0;

	test_pg_fresh(url, sizeof url);
	w = store_open(url, 0, err, sizeof err);
	r = w != NULL ? store_open_reader(w, err, sizeof err) : NULL;
	CHECK(r != NULL && base != NULL);
	if (r == NULL || base == NULL)
		return;
	CHECK_INT(test_pg_exec(url,
	              "INSERT INTO tourneys VALUES ('t1', 'stones', '{}',"
	              " 'swiss', 1, 60, 0, 0, 'ana', 'playing', 1, 1);"
	              " INSERT INTO tourney_games VALUES"
	              " ('t1', 1, 1, 'ana', 'bob', 'r1', '', '', 9),"
	              " ('t1', 1, 2, 'cy', 'dee', 'r2', '', '', 9)"),
	    0);
	q = storeq_new(base, w, 0, test_pg_news_done, &news);
	CHECK(q != NULL);
	storeq_set_fence(q, test_pg_epoch, test_pg_lost, &news);
	storeq_add(q, test_pg_room("r1"));
	storeq_add(q, test_pg_room("r2"));
	test_pg_wait(base, &news, storeq_ops(q));
	CHECK_INT(
	    store_room_claim(r, "r1", &epoch, test_pg_claim_cb, &nmoves), 0);
	CHECK_INT(epoch, 2);
	test_pg_result_row(q, "r1");
	test_pg_result_row(q, "r2");
	test_pg_wait(base, &news, storeq_ops(q));
	CHECK_U64(news.committed, storeq_ops(q));
	CHECK_INT(news.nlost, 1);
	CHECK_STR(news.lost, "r1");
	CHECK_INT(test_pg_num(url,
	              "SELECT count(*) FROM tourney_games"
	              " WHERE result = '1-0'"),
	    1);
	CHECK_INT(test_pg_num(url,
	              "SELECT count(*) FROM tourney_games"
	              " WHERE room = 'r2' AND result = '1-0'"),
	    1);
	CHECK_U64(storeq_free(q), 0);
	store_close(r);
	store_close(w);
	event_base_free(base);
}

int
main(void)
{
	test_pg_url = getenv("TABLERO_TEST_PG");
	if (test_pg_url == NULL || *test_pg_url == '\0') {
		check_skip("test_pgstore: no TABLERO_TEST_PG (make pg-test "
		           "runs it)");
		return check_done();
	}
	snprintf(test_pg_fault, sizeof test_pg_fault,
	    "/tmp/test_pgstore.%ld.faults", (long)getpid());
	test_pg_faults("");
	/* The backend reads the variable when it opens a writer. */
	setenv("TABLERO_TEST_STORE_FAULTS", test_pg_fault, 1);
	/* The store thread wakes the loop (storeq's done event). */
	CHECK_INT(evthread_use_pthreads(), 0);
	test_pg_ops();
	test_pg_ratings_once();
	test_pg_faults_group();
	test_pg_refused();
	test_pg_copy();
	test_pg_fence();
	test_pg_fence_queue();
	test_pg_club_fence();
	test_pg_room_row_fence();
	unlink(test_pg_fault);
	return check_done();
}
