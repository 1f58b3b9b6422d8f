/*
 * storeq.c: the store thread and its queue (see storeq.h). The loop
 * numbers each op as it queues it and, at the end of its callback, hands
 * what it collected to the thread. The thread takes everything handed
 * over so far as one group and commits it in one transaction through the
 * backend: all of it or none. On success it tells the loop (through one
 * event) the number of the group's last op; on failure it keeps the group,
 * tells the loop the store is failing, waits (backing off) and tries the
 * group again with whatever was handed over meanwhile. The thread never
 * logs: the loop does, from what the event tells it.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/base/base.h"
#include "server/store/storeq.h"

/* The first wait before a failed group is tried again, and the longest:
 * short enough that a cleared fault (space freed) is noticed within a
 * second, long enough not to spin on a full disk. */
#define STOREQ_RETRY_FIRST_MS 50
#define STOREQ_RETRY_MAX_MS 1000
/* Room for the last failure's text. */
#define STOREQ_WHY 512

/* A list of ops in order. */
struct storeq_list {
	struct store_op *head, **tail;
};

struct storeq {
	struct store *db;
	pthread_t tid;
	pthread_mutex_t mu;
	pthread_cond_t wake; /* the thread: work or stop */
	/* Under mu. */
	struct storeq_list handed; /* for the thread */
	uint64_t committed;        /* newest op committed */
	int64_t failing_since;     /* monotonic ms of the first failed try
	                              of the group, 0: not failing */
	char why[STOREQ_WHY];      /* the last failure */
	long pruned;               /* identities pruned, not yet logged */
	long games_pruned;         /* finished games pruned, the same */
	int stop;
	char **lost; /* rooms fenced, not yet told to the loop */
	int nlost, lostcap;
	struct storeq_stats stats; /* but moves, the loop's */
	/* The loop's own. */
	struct storeq_list collected;
	uint64_t made;  /* ops queued ever: the newest op's number */
	uint64_t known; /* newest op the loop knows committed */
	int failing;    /* the loop's view of failing_since != 0 */
	int64_t since;  /* and of failing_since */
	char seen[STOREQ_WHY];
	int64_t give_up_ms;
	int flush_armed;
	struct event *flush_ev, *done_ev;
	storeq_done_fn done;
	void *arg;
	storeq_epoch_fn fence_epoch;
	storeq_lost_fn fence_lost;
	void *fence_arg;
};

/* A commit's time in seconds, and a group's ops, by bucket. */
const double storeq_commit_bounds[STOREQ_BUCKETS] = {
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5};
const double storeq_group_bounds[STOREQ_BUCKETS] = {
    1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000};

/* The monotonic clock in seconds. */
static double
storeq_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One commit of a group of ops that took sec: counted (under mu). */
static void
storeq_count(struct storeq *q, int rc, double sec, const struct store_op *op)
{
	struct storeq_stats *st = &q->stats;
	uint64_t n = 0;
	int i;

	if (rc != 0) {
		st->failures++;
		return;
	}
	for (; op != NULL; op = op->next)
		n++;
	st->commits++;
	st->commit_sec += sec;
	st->ops += n;
	for (i = 0; i < STOREQ_BUCKETS; i++) {
		st->commit_le[i] += sec <= storeq_commit_bounds[i];
		st->group_le[i] += (double)n <= storeq_group_bounds[i];
	}
}

/* A copy of q's figures (the loop's). */
void
storeq_stats(struct storeq *q, struct storeq_stats *out)
{
	uint64_t moves = q->stats.moves;

	pthread_mutex_lock(&q->mu);
	*out = q->stats;
	pthread_mutex_unlock(&q->mu);
	out->moves = moves;
}

static void
storeq_list_init(struct storeq_list *l)
{
	l->head = NULL;
	l->tail = &l->head;
}

/* Move all of from to the end of to. */
static void
storeq_list_splice(struct storeq_list *to, struct storeq_list *from)
{
	if (from->head == NULL)
		return;
	*to->tail = from->head;
	to->tail = from->tail;
	storeq_list_init(from);
}

/* Hand what the loop collected to the thread. The thread is woken after
 * the lock is let go: woken under it, on the loop's core it ran at once
 * and found the lock still held, two more switches a group. */
static void
storeq_hand(struct storeq *q)
{
	if (q->collected.head == NULL)
		return;
	pthread_mutex_lock(&q->mu);
	storeq_list_splice(&q->handed, &q->collected);
	pthread_mutex_unlock(&q->mu);
	pthread_cond_signal(&q->wake);
}

/* The end of a loop callback: hand the ops over. */
static void
storeq_flush_cb(evutil_socket_t fd, short what, void *arg)
{
	struct storeq *q = arg;

	(void)fd;
	(void)what;
	q->flush_armed = 0;
	storeq_hand(q);
}

/* Log the store starting or stopping to fail (the loop logs for the
 * thread). */
static void
storeq_log(struct storeq *q, int failing)
{
	if (failing && !q->failing)
		log_error("store: %s; changes are refused until it stores "
		          "again",
		    q->seen);
	else if (!failing && q->failing)
		log_warn("store: storing again");
}

/* Tell the loop's fence of the rooms another node took (on the loop). */
static void
storeq_tell_lost(struct storeq *q)
{
	char **lost;
	int n, i;

	pthread_mutex_lock(&q->mu);
	lost = q->lost;
	n = q->nlost;
	q->lost = NULL;
	q->nlost = q->lostcap = 0;
	pthread_mutex_unlock(&q->mu);
	for (i = 0; i < n; i++) {
		if (q->fence_lost != NULL)
			q->fence_lost(q->fence_arg, lost[i]);
		free(lost[i]);
	}
	free(lost);
}

void
storeq_set_fence(
    struct storeq *q, storeq_epoch_fn epoch, storeq_lost_fn lost, void *arg)
{
	q->fence_epoch = epoch;
	q->fence_lost = lost;
	q->fence_arg = arg;
}

/* The thread has news: what committed, whether failing; tell the owner. */
static void
storeq_done_cb(evutil_socket_t fd, short what, void *arg)
{
	struct storeq *q = arg;
	uint64_t committed;
	long pruned, games;

	(void)fd;
	(void)what;
	pthread_mutex_lock(&q->mu);
	committed = q->committed;
	pruned = q->pruned;
	q->pruned = 0;
	games = q->games_pruned;
	q->games_pruned = 0;
	q->since = q->failing_since;
	memcpy(q->seen, q->why, sizeof q->seen);
	pthread_mutex_unlock(&q->mu);
	if (committed > q->known)
		q->known = committed;
	storeq_log(q, q->since != 0);
	if (pruned > 0)
		log_info("pruned %ld identities that never played", pruned);
	if (games > 0)
		log_info(
		    "pruned %ld finished games past --keep-games-days", games);
	storeq_tell_lost(q);
	q->failing = q->since != 0;
	if (q->failing && q->give_up_ms > 0 &&
	    clock_mono_ms() - q->since >= q->give_up_ms) {
		log_error("store: failing for %lld s (%s); giving up: a "
		          "restart recovers what was committed",
		    (long long)(clock_mono_ms() - q->since) / 1000, q->seen);
		exit(EXIT_FAILURE);
	}
	q->done(q->arg, committed, q->failing);
}

void
storeq_add(struct storeq *q, struct store_op *op)
{
	const char *room;

	if (q->fence_epoch != NULL && (room = store_op_fence_key(op)) != NULL)
		op->epoch = q->fence_epoch(q->fence_arg, room);
	op->change = ++q->made;
	*q->collected.tail = op;
	q->collected.tail = &op->next;
	if (!q->flush_armed) {
		q->flush_armed = 1;
		event_active(q->flush_ev, 0, 0);
	}
}

void
storeq_room_save(struct storeq *q, const struct store_room *r)
{
	struct store_op *op = store_op_new(STORE_OP_ROOM_SAVE);

	op->u.room = *r;
	op->u.room.id = store_op_str(op, r->id);
	op->u.room.game = store_op_str(op, r->game);
	op->u.room.options = store_op_str(op, r->options);
	op->u.room.seats = store_op_str(op, r->seats);
	op->u.room.status = store_op_str(op, r->status);
	op->u.room.result = store_op_str(op, r->result);
	op->u.room.creator = store_op_str(op, r->creator);
	op->u.room.unrated = store_op_str(op, r->unrated);
	storeq_add(q, op);
}

/* An op of kind with up to three strings and two numbers. */
static void
storeq_plain(struct storeq *q, enum store_op_kind kind, const char *a,
    const char *b, const char *c, int n, int m, long long ms)
{
	struct store_op *op = store_op_new(kind);

	op->a = store_op_str(op, a);
	op->b = store_op_str(op, b);
	op->c = store_op_str(op, c);
	op->n = n;
	op->m = m;
	op->ms = ms;
	storeq_add(q, op);
}

void
storeq_room_delete(struct storeq *q, const char *id)
{
	storeq_plain(q, STORE_OP_ROOM_DELETE, id, NULL, NULL, 0, 0, 0);
}

/* A row op (club: 1 for one of the club's; room: the room whose fence
 * it shares, or NULL) queued. */
static void
storeq_row_op(struct storeq *q, int club, const char *room, const char *what,
    const char *sql, int n, const char *const *vals)
{
	struct store_op *op = store_op_new(STORE_OP_ROW);
	int i;

	if (n + (room != NULL) > STORE_OP_STRS)
		fatal("%s: %d values in one row op", what, n);
	op->u.row.what = what;
	op->u.row.sql = sql;
	op->u.row.club = club;
	op->u.row.room = store_op_str(op, room);
	op->u.row.n = n;
	for (i = 0; i < n; i++)
		op->u.row.vals[i] = store_op_str(op, vals[i]);
	storeq_add(q, op);
}

void
storeq_row(struct storeq *q, const char *what, const char *sql, int n,
    const char *const *vals)
{
	storeq_row_op(q, 0, NULL, what, sql, n, vals);
}

void
storeq_room_row(struct storeq *q, const char *room, const char *what,
    const char *sql, int n, const char *const *vals)
{
	storeq_row_op(q, 0, room, what, sql, n, vals);
}

void
storeq_club_row(struct storeq *q, const char *what, const char *sql, int n,
    const char *const *vals)
{
	storeq_row_op(q, 1, NULL, what, sql, n, vals);
}

void
storeq_move_put(
    struct storeq *q, const char *room, int game_no, const struct store_move *m)
{
	struct store_op *op = store_op_new(STORE_OP_MOVE_PUT);

	op->u.move = *m;
	op->u.move.move = store_op_str(op, m->move);
	op->a = store_op_str(op, room);
	op->n = game_no;
	q->stats.moves++;
	storeq_add(q, op);
}

void
storeq_move_truncate(struct storeq *q, const char *room, int game_no, int ply)
{
	storeq_plain(
	    q, STORE_OP_MOVE_TRUNCATE, room, NULL, NULL, game_no, ply, 0);
}

void
storeq_progress_put(
    struct storeq *q, const char *name, const char *game, const char *json)
{
	storeq_plain(q, STORE_OP_PROGRESS_PUT, name, game, json, 0, 0, 0);
}

void
storeq_game_put(struct storeq *q, const struct store_game *g)
{
	struct store_op *op = store_op_new(STORE_OP_GAME_PUT);
	struct store_game *c = &op->u.game;

	*c = *g;
	c->room = store_op_str(op, g->room);
	c->game = store_op_str(op, g->game);
	c->options = store_op_str(op, g->options);
	c->seats = store_op_str(op, g->seats);
	c->names[0] = store_op_str(op, g->names[0]);
	c->names[1] = store_op_str(op, g->names[1]);
	c->result = store_op_str(op, g->result);
	c->moves = store_op_str(op, g->moves);
	c->start = store_op_str(op, g->start);
	c->position = store_op_str(op, g->position);
	storeq_add(q, op);
}

void
storeq_rating_put(struct storeq *q, const struct store_rating *r)
{
	struct store_op *op = store_op_new(STORE_OP_RATING_PUT);
	struct store_rating *c = &op->u.rating;

	*c = *r;
	c->name = store_op_str(op, r->name);
	c->pool = store_op_str(op, r->pool);
	c->game = store_op_str(op, r->game);
	storeq_add(q, op);
}

void
storeq_record_put(struct storeq *q, const struct store_record *r)
{
	struct store_op *op = store_op_new(STORE_OP_RECORD_PUT);
	struct store_record *c = &op->u.record;

	*c = *r;
	c->name = store_op_str(op, r->name);
	c->game = store_op_str(op, r->game);
	storeq_add(q, op);
}

void
storeq_identity_put(struct storeq *q, const char *name, const char *hash)
{
	storeq_plain(q, STORE_OP_IDENT_PUT, name, hash, NULL, 0, 0, 0);
}

void
storeq_identity_played(struct storeq *q, const char *name)
{
	storeq_plain(q, STORE_OP_IDENT_PLAYED, name, NULL, NULL, 0, 0, 0);
}

void
storeq_identity_seen(struct storeq *q, const char *name, long long ms)
{
	storeq_plain(q, STORE_OP_IDENT_SEEN, name, NULL, NULL, 0, 0, ms);
}

void
storeq_identity_prune(struct storeq *q, long long before_ms)
{
	storeq_plain(
	    q, STORE_OP_IDENT_PRUNE, NULL, NULL, NULL, 0, 0, before_ms);
}

void
storeq_room_prune(struct storeq *q, const char *status, long long before_ms)
{
	storeq_plain(
	    q, STORE_OP_ROOM_PRUNE, status, NULL, NULL, 0, 0, before_ms);
}

void
storeq_games_prune(struct storeq *q, long long before_ms, int max)
{
	storeq_plain(
	    q, STORE_OP_GAMES_PRUNE, NULL, NULL, NULL, max, 0, before_ms);
}

/* The last op of a list (not empty). */
static struct store_op *
storeq_last(struct storeq_list *l)
{
	return (struct store_op *)((char *)l->tail -
	    offsetof(struct store_op, next));
}

/* Wait ms on the thread, or less when stopped; mu held. */
static void
storeq_sleep(struct storeq *q, int ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	if (!q->stop)
		pthread_cond_timedwait(&q->wake, &q->mu, &ts);
}

/* Point the group's identity and games prunes at *idents and *games
 * (the thread's own). */
static void
storeq_count_prunes(struct store_op *op, long *idents, long *games)
{
	for (; op != NULL; op = op->next) {
		if (op->kind == STORE_OP_IDENT_PRUNE)
			op->count = idents;
		else if (op->kind == STORE_OP_GAMES_PRUNE)
			op->count = games;
	}
}

/* 1 when room is among the n first of lost. */
static int
storeq_is_lost(char *const *lost, int n, const char *room)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(lost[i], room) == 0)
			return 1;
	return 0;
}

/* After STORE_FENCED: the rooms of the group's fenced ops join q->lost
 * and every op of those rooms leaves the group (freed: another node owns
 * them now); mu held. */
static void
storeq_drop_fenced(struct storeq *q, struct storeq_list *group)
{
	struct storeq_list kept;
	struct store_op *op, *next;
	const char *room;
	int first = q->nlost;

	for (op = group->head; op != NULL; op = op->next) {
		if (!op->fenced || (room = store_op_fence_key(op)) == NULL ||
		    storeq_is_lost(q->lost + first, q->nlost - first, room))
			continue;
		if (q->nlost == q->lostcap) {
			q->lostcap = q->lostcap ? q->lostcap * 2 : 8;
			q->lost = xrealloc(
			    q->lost, (size_t)q->lostcap * sizeof *q->lost);
		}
		q->lost[q->nlost++] = xstrdup(room);
	}
	storeq_list_init(&kept);
	for (op = group->head; op != NULL; op = next) {
		next = op->next;
		op->next = NULL;
		room = store_op_fence_key(op);
		if (room != NULL &&
		    storeq_is_lost(q->lost + first, q->nlost - first, room)) {
			store_op_free(op);
			continue;
		}
		*kept.tail = op;
		kept.tail = &op->next;
	}
	*group = kept;
}

/* The thread: group after group until stopped with nothing left (or,
 * stopping, with a group that failed once more). */

static void *
storeq_main(void *arg)
{
	struct storeq *q = arg;
	struct storeq_list group;
	int retry_ms = STOREQ_RETRY_FIRST_MS, rc;
	double t0;
	uint64_t dropped = 0; /* the last op of a group cut by the fence */
	long pruned, games;

	storeq_list_init(&group);
	pthread_mutex_lock(&q->mu);
	for (;;) {
		while (!q->stop && q->handed.head == NULL && group.head == NULL)
			pthread_cond_wait(&q->wake, &q->mu);
		storeq_list_splice(&group, &q->handed);
		if (group.head == NULL)
			break; /* stopping, nothing left */
		pthread_mutex_unlock(&q->mu);
		pruned = games = 0;
		storeq_count_prunes(group.head, &pruned, &games);
		t0 = storeq_now();
		rc = store_commit(q->db, group.head);
		pthread_mutex_lock(&q->mu);
		storeq_count(q, rc == STORE_FENCED ? 0 : rc, storeq_now() - t0,
		    group.head);
		if (rc == STORE_FENCED) {
			/* Never stored; the rest is tried again at once. */
			if (storeq_last(&group)->change > dropped)
				dropped = storeq_last(&group)->change;
			storeq_drop_fenced(q, &group);
			if (group.head != NULL)
				continue;
			rc = 0;
		}
		if (rc == 0) {
			if (group.head != NULL &&
			    storeq_last(&group)->change > dropped)
				dropped = storeq_last(&group)->change;
			q->committed = dropped;
			dropped = 0;
			q->pruned += pruned;
			q->games_pruned += games;
			q->failing_since = 0;
			q->why[0] = '\0';
			store_op_free(group.head);
			storeq_list_init(&group);
			retry_ms = STOREQ_RETRY_FIRST_MS;
			pthread_mutex_unlock(&q->mu);
			/* The loop told after the lock is let go: woken
			 * under it, the loop ran at once on a shared core,
			 * found it held (storeq_done_cb) and waited. */
			event_active(q->done_ev, 0, 0);
			store_idle(q->db); /* a failed checkpoint waits */
			pthread_mutex_lock(&q->mu);
			continue;
		}
		if (q->failing_since == 0)
			q->failing_since = clock_mono_ms();
		snprintf(q->why, sizeof q->why, "%s", store_errmsg(q->db));
		event_active(q->done_ev, 0, 0);
		if (q->stop)
			break; /* tried once more: the group stays unstored */
		storeq_sleep(q, retry_ms);
		retry_ms = retry_ms * 2 > STOREQ_RETRY_MAX_MS
		    ? STOREQ_RETRY_MAX_MS
		    : retry_ms * 2;
	}
	storeq_list_splice(&group, &q->handed);
	q->handed = group; /* what was never stored, for storeq_free */
	if (group.head == NULL)
		storeq_list_init(&q->handed);
	pthread_mutex_unlock(&q->mu);
	return NULL;
}

/* Free q's events, lock and itself (the thread is not running). */
static void
storeq_destroy(struct storeq *q)
{
	event_free(q->flush_ev);
	event_free(q->done_ev);
	while (q->nlost > 0)
		free(q->lost[--q->nlost]);
	free(q->lost);
	pthread_mutex_destroy(&q->mu);
	pthread_cond_destroy(&q->wake);
	free(q);
}

struct storeq *
storeq_new(struct event_base *base, struct store *s, int64_t give_up_ms,
    storeq_done_fn done, void *arg)
{
	struct storeq *q = xcalloc(1, sizeof *q);

	q->db = s;
	q->done = done;
	q->arg = arg;
	q->give_up_ms = give_up_ms;
	storeq_list_init(&q->handed);
	storeq_list_init(&q->collected);
	q->flush_ev = event_new(base, -1, 0, storeq_flush_cb, q);
	q->done_ev = event_new(base, -1, 0, storeq_done_cb, q);
	if (q->flush_ev == NULL || q->done_ev == NULL)
		fatal("out of memory");
	pthread_mutex_init(&q->mu, NULL);
	pthread_cond_init(&q->wake, NULL);
	if (pthread_create(&q->tid, NULL, storeq_main, q) != 0) {
		log_error("cannot start the store thread");
		storeq_destroy(q);
		return NULL;
	}
	return q;
}

uint64_t
storeq_free(struct storeq *q)
{
	uint64_t lost = 0;
	struct store_op *op;

	if (q == NULL)
		return 0;
	storeq_hand(q);
	pthread_mutex_lock(&q->mu);
	q->stop = 1;
	pthread_cond_signal(&q->wake);
	pthread_mutex_unlock(&q->mu);
	pthread_join(q->tid, NULL);
	for (op = q->handed.head; op != NULL; op = op->next)
		lost++;
	store_op_free(q->handed.head);
	store_op_free(q->collected.head);
	storeq_destroy(q);
	return lost;
}

uint64_t
storeq_pending(const struct storeq *q)
{
	return q->made > q->known ? q->made : 0;
}

uint64_t
storeq_ops(const struct storeq *q)
{
	return q->made;
}

int
storeq_failing(const struct storeq *q)
{
	return q->failing;
}

const char *
storeq_why(const struct storeq *q)
{
	return q->seen;
}

int64_t
storeq_failing_ms(const struct storeq *q)
{
	return q->failing ? clock_mono_ms() - q->since : 0;
}
