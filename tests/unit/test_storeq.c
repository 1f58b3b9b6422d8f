/*
 * test_storeq.c: the store thread's queue: ops queued in one loop pass
 * commit in one group and are reported through the done event; a group
 * that fails in its middle is kept, none of it on disk, reported as
 * failing, and tried again (with what was queued meanwhile) until the
 * fault clears, then committed whole; stopping commits what is queued.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>
#include <event2/thread.h>

#include "server/store/store.h"
#include "server/store/storeq.h"
#include "tests/unit/check.h"

/* Loop passes to wait for the thread's news at most (each is bounded by
 * a 10 ms timeout), so a broken queue fails instead of hanging. */
#define TEST_STOREQ_PASSES 500

/* What the done event said last. */
struct test_storeq_news {
	uint64_t committed;
	int failing, failures;
};

static void
test_storeq_done(void *arg, uint64_t committed, int failing)
{
	struct test_storeq_news *n = arg;

	n->committed = committed;
	n->failing = failing;
	n->failures += failing;
}

/* Run the loop until the news says op `upto` committed, or (upto 0) that
 * the store is failing. */
static void
test_storeq_wait(
    struct event_base *base, struct test_storeq_news *n, uint64_t upto)
{
	struct timeval tick = {0, 10000};
	int i;

	for (i = 0; i < TEST_STOREQ_PASSES; i++) {
		if (upto > 0 ? n->committed >= upto : n->failing)
			return;
		event_base_loopexit(base, &tick);
		event_base_dispatch(base);
	}
}

/* Queue one op: room id's row. */
static void
test_storeq_room(struct storeq *q, const char *id)
{
	struct store_room r;

	memset(&r, 0, sizeof r);
	r.id = id;
	r.game = "ataxx";
	r.options = "{}";
	r.seats = "[]";
	r.status = "playing";
	r.creator = "ana";
	r.game_no = 1;
	storeq_room_save(q, &r);
}

/* The ids of the stored rooms, space-separated, into buf. */
static int
test_storeq_ids_cb(void *arg, const struct store_room *r,
    const struct store_move *moves, int nmoves)
{
	char *buf = arg;

	(void)moves;
	(void)nmoves;
	strcat(buf, r->id);
	strcat(buf, " ");
	return 0;
}

static void
test_storeq_ids(struct store *s, char *buf)
{
	buf[0] = '\0';
	CHECK_INT(store_load(s, test_storeq_ids_cb, buf), 0);
}

static void
test_storeq_fault(const char *path, const char *what)
{
	FILE *f = fopen(path, "w");

	CHECK(f != NULL);
	if (f == NULL)
		return;
	fputs(what, f);
	fclose(f);
}

int
main(void)
{
	char db[] = "/tmp/tablero-test-storeq-XXXXXX", faults[600];
	char err[512], ids[256], p[600];
	struct test_storeq_news news = {0, 0, 0};
	struct event_base *base;
	struct storeq *q;
	struct store *s, *rd;
	int fd = mkstemp(db);

	CHECK(fd >= 0);
	close(fd);
	unlink(db);
	snprintf(faults, sizeof faults, "%s.faults", db);
	setenv("TABLERO_TEST_STORE_FAULTS", faults, 1);
	CHECK_INT(evthread_use_pthreads(), 0);
	base = event_base_new();
	s = store_open(db, 0, err, sizeof err);
	CHECK(s != NULL);
	rd = s != NULL ? store_open_reader(s, err, sizeof err) : NULL;
	CHECK(rd != NULL);
	if (rd == NULL || base == NULL)
		return check_done();
	q = storeq_new(base, s, 0, test_storeq_done, &news);
	CHECK(q != NULL);

	/* Two ops in one pass: one group, both committed. */
	CHECK_U64(storeq_pending(q), 0);
	test_storeq_room(q, "r1");
	test_storeq_room(q, "r2");
	CHECK_U64(storeq_pending(q), 2);
	test_storeq_wait(base, &news, 2);
	CHECK_U64(news.committed, 2);
	CHECK_INT(news.failing, 0);
	CHECK_U64(storeq_pending(q), 0);
	CHECK_INT(storeq_failing(q), 0);

	/* Three more in one pass; the second write fails: the group is
	 * kept, none of it on disk, and the store is failing. */
	test_storeq_fault(faults, "pass 1");
	test_storeq_room(q, "r3");
	test_storeq_room(q, "r4");
	test_storeq_room(q, "r5");
	test_storeq_wait(base, &news, 0);
	CHECK_INT(news.failing, 1);
	CHECK_U64(news.committed, 2);
	CHECK_INT(storeq_failing(q), 1);
	CHECK(strstr(storeq_why(q), "injected") != NULL);
	CHECK_U64(storeq_pending(q), 5);
	test_storeq_ids(rd, ids);
	CHECK_STR(ids, "r1 r2 ");

	/* Queued while failing: joins the group tried again. The fault
	 * clears: all of it commits, in order, and the store is well. */
	test_storeq_room(q, "r6");
	test_storeq_fault(faults, "");
	test_storeq_wait(base, &news, 6);
	CHECK_U64(news.committed, 6);
	CHECK_INT(news.failing, 0);
	CHECK_INT(storeq_failing(q), 0);
	CHECK_U64(storeq_pending(q), 0);
	test_storeq_ids(rd, ids);
	CHECK_STR(ids, "r1 r2 r3 r4 r5 r6 ");

	/* Stopping commits what is queued. */
	test_storeq_room(q, "r7");
	CHECK_U64(storeq_free(q), 0);
	test_storeq_ids(rd, ids);
	CHECK_STR(ids, "r1 r2 r3 r4 r5 r6 r7 ");

	/* Stopping while the store fails: one more try, and what it could
	 * not store is counted (never acknowledged). */
	q = storeq_new(base, s, 0, test_storeq_done, &news);
	CHECK(q != NULL);
	test_storeq_fault(faults, "fail");
	test_storeq_room(q, "r8");
	test_storeq_room(q, "r9");
	CHECK_U64(storeq_free(q), 2);
	test_storeq_ids(rd, ids);
	CHECK_STR(ids, "r1 r2 r3 r4 r5 r6 r7 ");
	store_close(rd);
	store_close(s);
	event_base_free(base);
	unlink(faults);
	unlink(db);
	snprintf(p, sizeof p, "%s-wal", db);
	unlink(p);
	snprintf(p, sizeof p, "%s-shm", db);
	unlink(p);
	return check_done();
}
