/*
 * test_storeq.c: the store thread's queue: changes queued in one loop pass
 * commit in one group and are reported through the done event; a change
 * that fails in the middle of a group is taken back alone (the ones before
 * it commit, the ones after it are dropped); after a failure the queue
 * waits for each change's own commit until one succeeds; refusing, and a
 * barrier that sees everything queued.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>
#include <event2/thread.h>

#include "server/store.h"
#include "server/storeq.h"
#include "tests/unit/check.h"

/* Loop passes to wait for the thread's news at most (each is bounded by
 * a 10 ms timeout), so a broken queue fails instead of hanging. */
#define TEST_STOREQ_PASSES 500

/* What the done event said last. */
struct test_storeq_news {
	uint64_t committed, failed;
	int calls;
};

static void
test_storeq_done(void *arg, uint64_t committed, uint64_t failed)
{
	struct test_storeq_news *n = arg;

	n->committed = committed;
	n->failed = failed;
	n->calls++;
}

/* Run the loop until the news says change `upto` committed or a change
 * failed. */
static void
test_storeq_wait(
    struct event_base *base, struct test_storeq_news *n, uint64_t upto)
{
	struct timeval tick = {0, 10000};
	int i;

	for (i = 0; i < TEST_STOREQ_PASSES; i++) {
		if (n->committed >= upto || n->failed != 0)
			return;
		event_base_loopexit(base, &tick);
		event_base_dispatch(base);
	}
}

/* Queue one change: room id's row. */
static int
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
	return storeq_commit(q);
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
	struct store *s;
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
	if (s == NULL || base == NULL)
		return check_done();
	q = storeq_new(base, s, test_storeq_done, &news);
	CHECK(q != NULL);

	/* Two changes in one pass: one group, both committed. */
	CHECK_U64(storeq_change(q), 1);
	CHECK_INT(test_storeq_room(q, "r1"), 0);
	CHECK_INT(test_storeq_room(q, "r2"), 0);
	CHECK_U64(storeq_pending(q), 2);
	CHECK_INT(storeq_sync(q), 0);
	test_storeq_wait(base, &news, 2);
	CHECK_U64(news.committed, 2);
	CHECK_U64(news.failed, 0);
	CHECK_U64(storeq_pending(q), 0);

	/* Three more in one pass; the second fails: the first commits,
	 * the third is dropped. */
	test_storeq_fault(faults, "pass 1");
	CHECK_INT(test_storeq_room(q, "r3"), 0);
	CHECK_INT(test_storeq_room(q, "r4"), 0);
	CHECK_INT(test_storeq_room(q, "r5"), 0);
	test_storeq_wait(base, &news, 5);
	CHECK_U64(news.committed, 3);
	CHECK_U64(news.failed, 4);
	storeq_resume(q);
	CHECK_U64(storeq_pending(q), 0);
	CHECK_INT(storeq_sync(q), 1); /* degraded: changes wait */
	test_storeq_ids(storeq_barrier(q), ids);
	CHECK_STR(ids, "r1 r2 r3 ");

	/* Degraded and still failing: refused at once, reported too. */
	news.failed = 0;
	CHECK_INT(test_storeq_room(q, "r6"), -1);
	test_storeq_wait(base, &news, 99);
	CHECK_U64(news.failed, 6);
	storeq_resume(q);

	/* The fault cleared: the change waits for its commit, and the
	 * queue commits later again. */
	unlink(faults);
	CHECK_INT(test_storeq_room(q, "r7"), 0);
	CHECK_INT(storeq_sync(q), 0);
	CHECK_U64(storeq_pending(q), 0);

	/* Refusing: -1 and nothing queued. */
	storeq_refuse(q, 1);
	CHECK_INT(test_storeq_room(q, "r8"), -1);
	storeq_refuse(q, 0);
	CHECK_U64(storeq_pending(q), 0);

	/* A barrier sees everything queued before it. */
	CHECK_INT(test_storeq_room(q, "r9"), 0);
	test_storeq_ids(storeq_barrier(q), ids);
	CHECK_STR(ids, "r1 r2 r3 r7 r9 ");

	/* Stopping commits what is queued. */
	CHECK_INT(test_storeq_room(q, "r10"), 0);
	storeq_free(q);
	test_storeq_ids(s, ids);
	CHECK_STR(ids, "r1 r2 r3 r7 r9 r10 ");
	store_close(s);
	event_base_free(base);
	unlink(db);
	snprintf(p, sizeof p, "%s-wal", db);
	unlink(p);
	snprintf(p, sizeof p, "%s-shm", db);
	unlink(p);
	return check_done();
}
