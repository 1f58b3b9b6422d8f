/*
 * test_reads.c: the reads of finished games a guest can make (history,
 * `rooms ended`, a finished room's last game) walk one index each in its
 * order: SQLite's query plan names the index and sorts nothing; a
 * player's games and the public ones come a page at a time from a
 * cursor, newest first (ended_ms, then the id), with nothing left out or
 * shown twice, private games only in one's own history; a read past its
 * time bound is stopped (STORE_SLOW). On SQLite and,
 * with TABLERO_TEST_PG set (tests/pg.sh), on PostgreSQL (paging; its plan
 * is printed, as a small table's plan says nothing of a large one's).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "server/store/store.h"
#include "tests/unit/check.h"

/* Games made for the tests: enough for several pages of 50. */
#define TEST_READS_GAMES 700
/* A page as the server reads them (ARCHIVE_LIST_MAX). */
#define TEST_READS_PAGE 50

/* Check that text holds (or, want 0, lacks) part, showing it if not. */
static void
test_reads_has(const char *text, const char *part, int want, int line)
{
	int ok = (strstr(text, part) != NULL) == want;

	if (!ok)
		fprintf(stderr, "test_reads.c:%d: plan %s \"%s\":\n%s", line,
		    want ? "lacks" : "has", part, text);
	check_true(ok, __FILE__, line, part);
}
#define CHECK_HAS(text, part) test_reads_has((text), (part), 1, __LINE__)
#define CHECK_LACKS(text, part) test_reads_has((text), (part), 0, __LINE__)

/* Game i of the tests: ana plays one seat or the other (or none), every
 * seventh of hers is private, every fourth game is stones, and ended
 * times repeat in threes so that the id breaks ties. */
static void
test_reads_game(int i, struct store_game *g, char *room, size_t len)
{
	memset(g, 0, sizeof *g);
	snprintf(room, len, "r%d", i + 1);
	g->room = room;
	g->game_no = 1;
	g->game = i % 4 == 0 ? "stones" : "ataxx";
	g->options = "{}";
	g->seats = "[]";
	g->result = "{\"result\":\"draw\"}";
	g->moves = "[{\"seat\":\"white\",\"move\":\"b6\",\"text\":\"x\"}]";
	g->start = g->position = "x5o/7/7/7/7/7/o5x x 0 1";
	g->names[0] = i % 3 == 0 ? "ana" : "bob";
	g->names[1] = i % 3 == 1 ? "ana" : i % 3 == 0 ? "carl" : NULL;
	g->is_private = i % 7 == 0;
	g->ended_ms = 1000000 + i / 3;
	g->nmoves = 1;
}

/* Store the test games in one group. */
static int
test_reads_fill(struct store *s)
{
	struct store_op *head = NULL, **tail = &head;
	char room[16];
	int i, rc;

	for (i = 0; i < TEST_READS_GAMES; i++) {
		struct store_op *op = store_op_new(STORE_OP_GAME_PUT);
		struct store_game g;

		test_reads_game(i, &g, room, sizeof room);
		op->u.game = g;
		op->u.game.room = store_op_str(op, room);
		*tail = op;
		tail = &op->next;
	}
	rc = store_commit(s, head);
	store_op_free(head);
	return rc;
}

/* What one read gathered: each game's (ended_ms, id), in order. */
struct test_reads_seen {
	long long ended[TEST_READS_GAMES + 1], id[TEST_READS_GAMES + 1];
	char game[TEST_READS_GAMES + 1][8];
	int n;
	int has_moves; /* a summary came with its moves */
};

static void
test_reads_cb(void *arg, const struct store_game *g)
{
	struct test_reads_seen *s = arg;

	if (s->n > TEST_READS_GAMES)
		return;
	s->ended[s->n] = g->ended_ms;
	s->id[s->n] = g->id;
	snprintf(s->game[s->n], sizeof s->game[0], "%s", g->game);
	if (g->moves != NULL && g->moves[0] != '\0')
		s->has_moves = 1;
	s->n++;
}

/* Read every page of a list (name: a player's, else the public games of
 * game or all), checking each page's order and size; the number of
 * games, or -1. */
static int
test_reads_pages(struct store *s, const char *name, int own, const char *game)
{
	struct store_cursor from = {0, 0};
	long long last_e = -1, last_id = -1;
	int total = 0, pages = 0;

	for (;;) {
		struct test_reads_seen *seen = calloc(1, sizeof *seen);
		int i, rc;

		rc = name != NULL ? store_games_of_from(s, name, own, &from,
		                        TEST_READS_PAGE, test_reads_cb, seen)
		                  : store_games_recent_from(s, game, &from,
		                        TEST_READS_PAGE, test_reads_cb, seen);
		CHECK_INT(rc, 0);
		CHECK(!seen->has_moves); /* a list reads no moves */
		for (i = 0; i < seen->n; i++) {
			/* newest first, nothing twice, across pages too */
			CHECK(last_e < 0 || seen->ended[i] < last_e ||
			    (seen->ended[i] == last_e &&
			        seen->id[i] < last_id));
			if (game != NULL)
				CHECK_STR(seen->game[i], game);
			last_e = seen->ended[i];
			last_id = seen->id[i];
		}
		total += seen->n;
		pages++;
		if (rc != 0 || seen->n < TEST_READS_PAGE || pages > 100) {
			free(seen);
			return rc != 0 ? -1 : total;
		}
		CHECK_INT(seen->n, TEST_READS_PAGE);
		from.ended_ms = last_e;
		from.id = last_id;
		free(seen);
	}
}

/* The counts the lists must have: ana's games with or without her
 * private ones, the public games, the public stones games. */
static void
test_reads_counts(int *ana_all, int *ana_public, int *pub, int *pub_stones)
{
	char room[16];
	int i;

	*ana_all = *ana_public = *pub = *pub_stones = 0;
	for (i = 0; i < TEST_READS_GAMES; i++) {
		struct store_game g;
		int ana;

		test_reads_game(i, &g, room, sizeof room);
		ana = strcmp(g.names[0], "ana") == 0 ||
		    (g.names[1] != NULL && strcmp(g.names[1], "ana") == 0);
		*ana_all += ana;
		*ana_public += ana && !g.is_private;
		*pub += !g.is_private;
		*pub_stones += !g.is_private && strcmp(g.game, "stones") == 0;
	}
}

/* Paging on one store (its reader): every list, each game once. */
static void
test_reads_paging(struct store *r)
{
	int ana_all, ana_public, pub, pub_stones;

	test_reads_counts(&ana_all, &ana_public, &pub, &pub_stones);
	CHECK_INT(test_reads_pages(r, "ana", 1, NULL), ana_all);
	CHECK_INT(test_reads_pages(r, "ana", 0, NULL), ana_public);
	CHECK_INT(
	    test_reads_pages(r, "carl", 1, NULL), TEST_READS_GAMES / 3 + 1);
	CHECK_INT(test_reads_pages(r, "nobody", 1, NULL), 0);
	CHECK_INT(test_reads_pages(r, NULL, 0, NULL), pub);
	CHECK_INT(test_reads_pages(r, NULL, 0, "stones"), pub_stones);
}

/* The time bound: a read past it is stopped and says so (a bound of 0
 * stops every read at its first look at the clock, so this depends on
 * no machine's speed). */
static void
test_reads_bound(struct store *r)
{
	struct test_reads_seen *seen = calloc(1, sizeof *seen);
	struct store_cursor from = {0, 0};

	store_set_read_ms(r, 0);
	CHECK_INT(store_games_of_from(
	              r, "ana", 1, &from, TEST_READS_PAGE, test_reads_cb, seen),
	    STORE_SLOW);
	CHECK(strstr(store_errmsg(r), "stopped after 0 ms") != NULL);
	CHECK_INT(store_games_recent_from(
	              r, NULL, &from, TEST_READS_PAGE, test_reads_cb, seen),
	    STORE_SLOW);
	store_set_read_ms(r, STORE_READ_MS);
	seen->n = 0;
	CHECK_INT(store_games_of_from(
	              r, "ana", 1, &from, TEST_READS_PAGE, test_reads_cb, seen),
	    0);
	CHECK_INT(seen->n, TEST_READS_PAGE); /* and the next read goes on */
	free(seen);
}

/* SQLite: the plans, then paging through a reader of a data file. */
static void
test_reads_sqlite(void)
{
	char dir[] = "/tmp/test_reads.XXXXXX", path[64], err[256] = "";
	char plan[4096];
	struct store *w, *r;

	if (mkdtemp(dir) == NULL) {
		CHECK(0);
		return;
	}
	snprintf(path, sizeof path, "%s/t.db", dir);
	w = store_open(path, 0, err, sizeof err);
	CHECK(w != NULL);
	if (w == NULL) {
		fprintf(stderr, "test_reads: %s\n", err);
		return;
	}
	r = store_open_reader(w, err, sizeof err);
	CHECK(r != NULL);
	CHECK_INT(test_reads_fill(w), 0);
	if (r != NULL) {
		/* a player's games: both seats' indexes, each in its order */
		CHECK_INT(store_plan(r, "games_of", plan, sizeof plan), 0);
		CHECK_HAS(
		    plan, "SEARCH games USING INDEX games_name0 (name0=?");
		CHECK_HAS(
		    plan, "SEARCH games USING INDEX games_name1 (name1=?");
		CHECK_LACKS(plan, "TEMP B-TREE");
		CHECK_LACKS(plan, "SCAN");
		CHECK_INT(store_plan(r, "games_recent", plan, sizeof plan), 0);
		CHECK_HAS(plan, "USING INDEX games_public (private=?");
		CHECK_LACKS(plan, "TEMP B-TREE");
		CHECK_INT(
		    store_plan(r, "games_recent_game", plan, sizeof plan), 0);
		CHECK_HAS(plan,
		    "USING INDEX games_public_game (private=? AND "
		    "game=?");
		CHECK_LACKS(plan, "TEMP B-TREE");
		CHECK_INT(store_plan(r, "game_last", plan, sizeof plan), 0);
		CHECK_HAS(plan, "USING INDEX games_room (room=?");
		CHECK_LACKS(plan, "TEMP B-TREE");
		/* a game's end: its earlier rows in one seek, not through
		 * every game of the room (games_room) */
		CHECK_INT(store_plan(r, "game_put", plan, sizeof plan), 0);
		CHECK_HAS(plan, "games_room_game (room=? AND game_no=?");
		CHECK_LACKS(plan, "INDEX games_room (");
		CHECK_LACKS(plan, "SCAN games");
		CHECK(store_plan(r, "no such read", plan, sizeof plan) != 0);
		test_reads_paging(r);
		test_reads_bound(r);
		store_close(r);
	}
	store_close(w);
	unlink(path);
	snprintf(path, sizeof path, "%s/t.db-wal", dir);
	unlink(path);
	snprintf(path, sizeof path, "%s/t.db-shm", dir);
	unlink(path);
	rmdir(dir);
}

/* PostgreSQL (TABLERO_TEST_PG): paging through a fresh database. */
static void
test_reads_pg(void)
{
	const char *url = getenv("TABLERO_TEST_PG");
	char name[64], sql[128], db[512], err[256] = "", plan[4096];
	struct store *w, *r;
	PGconn *c;
	PGresult *res;
	char *slash;

	if (url == NULL || *url == '\0') {
		printf("test_reads: no TABLERO_TEST_PG: PostgreSQL not "
		       "tested\n");
		return;
	}
	snprintf(name, sizeof name, "reads_%ld", (long)getpid());
	snprintf(sql, sizeof sql, "CREATE DATABASE %s", name);
	c = PQconnectdb(url);
	res = PQexec(c, sql);
	CHECK(PQresultStatus(res) == PGRES_COMMAND_OK);
	PQclear(res);
	PQfinish(c);
	snprintf(db, sizeof db, "%s", url);
	slash = strrchr(db, '/');
	if (slash == NULL || slash - db < 12) {
		CHECK(0);
		return;
	}
	snprintf(slash + 1, sizeof db - (size_t)(slash + 1 - db), "%s", name);
	w = store_open(db, 0, err, sizeof err);
	CHECK(w != NULL);
	if (w == NULL) {
		fprintf(stderr, "test_reads: %s\n", err);
		return;
	}
	r = store_open_reader(w, err, sizeof err);
	CHECK(r != NULL);
	CHECK_INT(test_reads_fill(w), 0);
	if (r != NULL) {
		if (store_plan(r, "games_of", plan, sizeof plan) != 0) {
			CHECK(0);
			fprintf(stderr, "test_reads: %s\n", store_errmsg(r));
		}
		printf("test_reads: PostgreSQL's plan of games_of:\n%s", plan);
		test_reads_paging(r);
		store_close(r);
	}
	store_close(w);
}

int
main(void)
{
	test_reads_sqlite();
	test_reads_pg();
	return check_done();
}
