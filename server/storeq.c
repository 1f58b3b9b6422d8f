/*
 * storeq.c: the store thread and its queue (see storeq.h). The loop copies
 * each write into an op, numbered with the change it belongs to, and at
 * the end of its callback hands what it collected to the thread. The
 * thread takes everything handed over so far, writes it in one transaction
 * (each change in a savepoint, so a failing change is taken back alone and
 * the ones before it still commit), commits, tells the loop through an
 * event, and checkpoints the WAL between groups. After a failure it waits
 * for the loop to put its rooms back (storeq_resume) and drops every op it
 * still holds.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/server.h"
#include "server/storeq.h"

/* WAL pages (of 4 KiB) past which the thread checkpoints between groups:
 * SQLite's automatic checkpoint would run at 1000 pages inside a commit;
 * a larger WAL means fewer, longer checkpoints, none of them holding up a
 * commit that output waits for. */
#define STOREQ_CHECKPOINT_PAGES 4000
/* The most strings one op carries (a kept game has ten). */
#define STOREQ_STRS 12

enum storeq_kind {
	STOREQ_ROOM_SAVE,
	STOREQ_MOVE_APPEND,
	STOREQ_MOVE_TRUNCATE,
	STOREQ_PROGRESS_PUT,
	STOREQ_GAME_PUT,
	STOREQ_IDENT_PLAYED,
	STOREQ_ROOM_DELETE,
	STOREQ_GAMES_PRUNE,
};

/* One write, its values copied (s[] owns every string the union points
 * at). */
struct storeq_op {
	struct storeq_op *next;
	enum storeq_kind kind;
	uint64_t change;
	char *s[STOREQ_STRS];
	int ns;
	int game_no, ply;
	long long before_ms; /* STOREQ_GAMES_PRUNE */
	union {
		struct store_room room;
		struct store_move move;
		struct store_game game;
	} u;
};

/* A list of ops in order. */
struct storeq_list {
	struct storeq_op *head, **tail;
};

struct storeq {
	struct store *db;
	pthread_t tid;
	pthread_mutex_t mu;
	pthread_cond_t wake; /* the thread: work, a resume or stop */
	pthread_cond_t idle; /* the loop: a group done, the thread idle */
	/* Under mu. */
	struct storeq_list handed; /* for the thread */
	uint64_t committed;        /* newest change committed */
	uint64_t failed;           /* a failed change, until resumed */
	uint64_t discard;          /* drop ops of changes up to this */
	int busy;                  /* the thread is writing */
	int loop_holds;            /* the loop uses the store: wait */
	int stop;
	/* The loop's own. */
	struct storeq_list collected;
	uint64_t change;  /* the change being made, from 1 */
	uint64_t ops;     /* ops in it so far */
	uint64_t changes; /* writes queued ever (a counter) */
	uint64_t known;   /* newest change the loop knows settled (committed,
	                     or dropped after a failure) */
	int degraded, refusing, flush_armed;
	int waits; /* storeq_wait_mode: changes wait for their commit */
	struct event *flush_ev, *done_ev;
	storeq_done_fn done;
	void *arg;
};

static void
storeq_list_init(struct storeq_list *l)
{
	l->head = NULL;
	l->tail = &l->head;
}

static void
storeq_list_free(struct storeq_list *l)
{
	struct storeq_op *op, *next;
	int i;

	for (op = l->head; op != NULL; op = next) {
		next = op->next;
		for (i = 0; i < op->ns; i++)
			free(op->s[i]);
		free(op);
	}
	storeq_list_init(l);
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

/* Hand what the loop collected to the thread. */
static void
storeq_hand(struct storeq *q)
{
	if (q->ops > 0)
		q->change++;
	q->ops = 0;
	if (q->collected.head == NULL)
		return;
	pthread_mutex_lock(&q->mu);
	storeq_list_splice(&q->handed, &q->collected);
	pthread_cond_signal(&q->wake);
	pthread_mutex_unlock(&q->mu);
}

/* The end of a loop callback: hand the changes over, and let the thread
 * go on after a barrier. */
static void
storeq_flush_cb(evutil_socket_t fd, short what, void *arg)
{
	struct storeq *q = arg;

	(void)fd;
	(void)what;
	q->flush_armed = 0;
	storeq_hand(q);
	pthread_mutex_lock(&q->mu);
	if (q->loop_holds) {
		q->loop_holds = 0;
		pthread_cond_signal(&q->wake);
	}
	pthread_mutex_unlock(&q->mu);
}

static void
storeq_arm(struct storeq *q)
{
	if (!q->flush_armed) {
		q->flush_armed = 1;
		event_active(q->flush_ev, 0, 0);
	}
}

/* The thread has news: tell the loop's owner. */
static void
storeq_done_cb(evutil_socket_t fd, short what, void *arg)
{
	struct storeq *q = arg;
	uint64_t committed, failed;

	(void)fd;
	(void)what;
	pthread_mutex_lock(&q->mu);
	committed = q->committed;
	failed = q->failed;
	pthread_mutex_unlock(&q->mu);
	if (committed > q->known)
		q->known = committed;
	q->done(q->arg, committed, failed);
}

/* A new op of the change being made; the caller fills it. */
static struct storeq_op *
storeq_op(struct storeq *q, enum storeq_kind kind)
{
	struct storeq_op *op = xcalloc(1, sizeof *op);

	op->kind = kind;
	op->change = q->change;
	*q->collected.tail = op;
	q->collected.tail = &op->next;
	q->ops++;
	q->changes++;
	storeq_arm(q);
	return op;
}

/* A copy of v owned by op (NULL stays NULL). */
static const char *
storeq_str(struct storeq_op *op, const char *v)
{
	size_t n;

	if (v == NULL)
		return NULL;
	if (op->ns == STOREQ_STRS)
		fatal("storeq: more than %d strings in one op", STOREQ_STRS);
	n = strlen(v) + 1;
	op->s[op->ns] = xmalloc(n);
	memcpy(op->s[op->ns], v, n);
	return op->s[op->ns++];
}

void
storeq_room_save(struct storeq *q, const struct store_room *r)
{
	struct storeq_op *op = storeq_op(q, STOREQ_ROOM_SAVE);

	op->u.room = *r;
	op->u.room.id = storeq_str(op, r->id);
	op->u.room.game = storeq_str(op, r->game);
	op->u.room.options = storeq_str(op, r->options);
	op->u.room.seats = storeq_str(op, r->seats);
	op->u.room.status = storeq_str(op, r->status);
	op->u.room.result = storeq_str(op, r->result);
	op->u.room.creator = storeq_str(op, r->creator);
}

void
storeq_move_append(
    struct storeq *q, const char *room, int game_no, const struct store_move *m)
{
	struct storeq_op *op = storeq_op(q, STOREQ_MOVE_APPEND);

	op->u.move = *m;
	op->u.move.move = storeq_str(op, m->move);
	storeq_str(op, room);
	op->game_no = game_no;
}

void
storeq_move_truncate(struct storeq *q, const char *room, int game_no, int ply)
{
	struct storeq_op *op = storeq_op(q, STOREQ_MOVE_TRUNCATE);

	storeq_str(op, room);
	op->game_no = game_no;
	op->ply = ply;
}

void
storeq_progress_put(
    struct storeq *q, const char *name, const char *game, const char *json)
{
	struct storeq_op *op = storeq_op(q, STOREQ_PROGRESS_PUT);

	storeq_str(op, name);
	storeq_str(op, game);
	storeq_str(op, json);
}

void
storeq_game_put(struct storeq *q, const struct store_game *g)
{
	struct storeq_op *op = storeq_op(q, STOREQ_GAME_PUT);
	struct store_game *c = &op->u.game;

	*c = *g;
	c->room = storeq_str(op, g->room);
	c->game = storeq_str(op, g->game);
	c->options = storeq_str(op, g->options);
	c->seats = storeq_str(op, g->seats);
	c->names[0] = storeq_str(op, g->names[0]);
	c->names[1] = storeq_str(op, g->names[1]);
	c->result = storeq_str(op, g->result);
	c->moves = storeq_str(op, g->moves);
	c->start = storeq_str(op, g->start);
	c->position = storeq_str(op, g->position);
}

void
storeq_identity_played(struct storeq *q, const char *name)
{
	storeq_str(storeq_op(q, STOREQ_IDENT_PLAYED), name);
}

void
storeq_room_delete(struct storeq *q, const char *room)
{
	storeq_str(storeq_op(q, STOREQ_ROOM_DELETE), room);
}

void
storeq_games_prune(struct storeq *q, long long before_ms, int max, int days)
{
	struct storeq_op *op = storeq_op(q, STOREQ_GAMES_PRUNE);

	op->before_ms = before_ms;
	op->ply = max;
	op->game_no = days;
}

/* Prune the games op asks for, and log how many went. */
static int
storeq_games_pruned(struct store *s, const struct storeq_op *op)
{
	int n = 0;

	if (store_games_prune(s, op->before_ms, op->ply, &n) != 0)
		return -1;
	if (n > 0)
		log_info("pruned %d finished games older than %d days", n,
		    op->game_no);
	return 0;
}

/* Run one op on the thread's connection; 0, or -1 logged as the server
 * logged a refused write before the thread. */
static int
storeq_apply_op(struct store *s, const struct storeq_op *op)
{
	const struct store_move *m = &op->u.move;
	int rc = -1;

	switch (op->kind) {
	case STOREQ_ROOM_SAVE:
		if ((rc = store_room_save(s, &op->u.room)) != 0)
			log_error("store: room %s: %s; refused", op->u.room.id,
			    store_errmsg(s));
		return rc;
	case STOREQ_MOVE_APPEND:
		if ((rc = store_move_append(s, op->s[1], op->game_no, m)) != 0)
			log_error("store: room %s move %d: %s", op->s[1],
			    m->ply, store_errmsg(s));
		return rc;
	case STOREQ_MOVE_TRUNCATE:
		rc = store_move_truncate(s, op->s[0], op->game_no, op->ply);
		break;
	case STOREQ_PROGRESS_PUT:
		rc = store_progress_put(s, op->s[0], op->s[1], op->s[2]);
		break;
	case STOREQ_GAME_PUT:
		rc = store_game_put(s, &op->u.game);
		break;
	case STOREQ_IDENT_PLAYED:
		rc = store_identity_played(s, op->s[0]);
		break;
	case STOREQ_ROOM_DELETE:
		rc = store_room_delete(s, op->s[0]);
		break;
	case STOREQ_GAMES_PRUNE:
		rc = storeq_games_pruned(s, op);
		break;
	}
	if (rc != 0)
		log_error("store: %s; refused", store_errmsg(s));
	return rc;
}

/* Write one group: each change in a savepoint, up to the first that
 * fails (taken back alone); the ones before it commit. The newest change
 * committed into *committed and the failed one into *failed (0: none). */
static void
storeq_apply(struct storeq *q, struct storeq_op *ops, uint64_t *committed,
    uint64_t *failed)
{
	struct storeq_op *op = ops;
	uint64_t last = 0;

	*failed = 0;
	if (store_group_begin(q->db) != 0) {
		log_error("store: %s", store_errmsg(q->db));
		*failed = ops->change;
		return;
	}
	while (op != NULL && *failed == 0) {
		uint64_t change = op->change;
		int rc = store_group_mark(q->db);

		for (; op != NULL && op->change == change; op = op->next)
			if (rc == 0)
				rc = storeq_apply_op(q->db, op);
		if (rc == 0 && store_group_keep(q->db) == 0)
			last = change;
		else if (store_group_undo(q->db) == 0)
			*failed = change;
		else
			*failed = ops->change; /* the group is lost */
	}
	if (store_group_commit(q->db) != 0) {
		log_error("store: %s", store_errmsg(q->db));
		*failed = ops->change;
		return;
	}
	if (*failed != ops->change)
		*committed = last;
}

/* Drop the ops of changes the loop has put back (up to q->discard);
 * what is left. */
static struct storeq_op *
storeq_drop_old(struct storeq_op *ops, uint64_t discard)
{
	struct storeq_list old;

	storeq_list_init(&old);
	while (ops != NULL && ops->change <= discard) {
		struct storeq_op *next = ops->next;

		ops->next = NULL;
		*old.tail = ops;
		old.tail = &ops->next;
		ops = next;
	}
	storeq_list_free(&old);
	return ops;
}

/* The thread: group after group until stopped with nothing left. */
static void *
storeq_main(void *arg)
{
	struct storeq *q = arg;
	struct storeq_list group;
	uint64_t committed, failed;
	int checkpointed;

	pthread_mutex_lock(&q->mu);
	for (;;) {
		while (!q->stop &&
		    (q->handed.head == NULL || q->failed != 0 || q->loop_holds))
			pthread_cond_wait(&q->wake, &q->mu);
		if (q->handed.head == NULL || q->failed != 0)
			break; /* stopping, with nothing more it may write */
		group = q->handed;
		storeq_list_init(&q->handed);
		group.head = storeq_drop_old(group.head, q->discard);
		if (group.head == NULL) {
			pthread_cond_broadcast(&q->idle);
			continue;
		}
		q->busy = 1;
		committed = q->committed;
		pthread_mutex_unlock(&q->mu);
		storeq_apply(q, group.head, &committed, &failed);
		storeq_list_free(&group);
		pthread_mutex_lock(&q->mu);
		q->committed = committed;
		q->failed = failed;
		pthread_cond_broadcast(&q->idle);
		pthread_mutex_unlock(&q->mu);
		event_active(q->done_ev, 0, 0);
		if (store_checkpoint(
		        q->db, STOREQ_CHECKPOINT_PAGES, &checkpointed) != 0)
			log_error("store: %s", store_errmsg(q->db));
		pthread_mutex_lock(&q->mu);
		q->busy = 0;
		pthread_cond_broadcast(&q->idle);
	}
	pthread_mutex_unlock(&q->mu);
	return NULL;
}

struct storeq *
storeq_new(
    struct event_base *base, struct store *s, storeq_done_fn done, void *arg)
{
	struct storeq *q = xcalloc(1, sizeof *q);

	q->db = s;
	q->done = done;
	q->arg = arg;
	q->change = 1;
	storeq_list_init(&q->handed);
	storeq_list_init(&q->collected);
	q->flush_ev = event_new(base, -1, 0, storeq_flush_cb, q);
	q->done_ev = event_new(base, -1, 0, storeq_done_cb, q);
	if (q->flush_ev == NULL || q->done_ev == NULL)
		fatal("out of memory");
	if (store_wal_manual(s) != 0) {
		log_error("store: %s", store_errmsg(s));
		goto fail;
	}
	pthread_mutex_init(&q->mu, NULL);
	pthread_cond_init(&q->wake, NULL);
	pthread_cond_init(&q->idle, NULL);
	if (pthread_create(&q->tid, NULL, storeq_main, q) != 0) {
		log_error("cannot start the store thread");
		pthread_mutex_destroy(&q->mu);
		pthread_cond_destroy(&q->wake);
		pthread_cond_destroy(&q->idle);
		goto fail;
	}
	return q;
fail:
	event_free(q->flush_ev);
	event_free(q->done_ev);
	free(q);
	return NULL;
}

void
storeq_free(struct storeq *q)
{
	int checkpointed;

	if (q == NULL)
		return;
	storeq_hand(q);
	pthread_mutex_lock(&q->mu);
	q->stop = 1;
	q->loop_holds = 0;
	pthread_cond_signal(&q->wake);
	pthread_mutex_unlock(&q->mu);
	pthread_join(q->tid, NULL);
	if (q->failed == 0 && store_checkpoint(q->db, 1, &checkpointed) != 0)
		log_error("store: %s", store_errmsg(q->db));
	storeq_list_free(&q->handed);
	storeq_list_free(&q->collected);
	event_free(q->flush_ev);
	event_free(q->done_ev);
	pthread_mutex_destroy(&q->mu);
	pthread_cond_destroy(&q->wake);
	pthread_cond_destroy(&q->idle);
	free(q);
}

/* Degraded (or waiting by request): wait for the change just made to be
 * committed; 0, or -1 when it failed. A failure stays reported for the
 * done event (which puts back what other changes made and drops what the
 * thread holds); until then every change waiting here fails at once. The
 * loop may hold the store (storeq_barrier): the thread may write
 * meanwhile, as the loop waits. */
static int
storeq_wait(struct storeq *q)
{
	uint64_t change = q->change;
	int ok, holds;

	storeq_hand(q);
	pthread_mutex_lock(&q->mu);
	holds = q->loop_holds;
	q->loop_holds = 0;
	pthread_cond_signal(&q->wake);
	while ((q->committed < change && q->failed == 0) || q->busy)
		pthread_cond_wait(&q->idle, &q->mu);
	ok = q->committed >= change;
	q->loop_holds = holds;
	pthread_cond_signal(&q->wake);
	pthread_mutex_unlock(&q->mu);
	if (!ok) {
		q->degraded = 1;
		event_active(q->done_ev, 0, 0);
		return -1;
	}
	q->degraded = 0;
	q->known = change;
	return 0;
}

int
storeq_commit(struct storeq *q)
{
	if (q->refusing) {
		storeq_list_free(&q->collected);
		q->ops = 0;
		return -1;
	}
	if (q->ops == 0)
		return 0;
	if (q->degraded || q->waits > 0)
		return storeq_wait(q);
	q->change++;
	q->ops = 0;
	return 0;
}

int
storeq_sync(const struct storeq *q)
{
	return q->degraded || q->refusing || q->waits > 0;
}

void
storeq_wait_mode(struct storeq *q, int on)
{
	q->waits += on ? 1 : -1;
}

void
storeq_refuse(struct storeq *q, int on)
{
	q->refusing = on;
}

uint64_t
storeq_change(const struct storeq *q)
{
	return q->change;
}

uint64_t
storeq_pending(const struct storeq *q)
{
	uint64_t last = q->ops > 0 ? q->change : q->change - 1;

	return last > q->known ? last : 0;
}

uint64_t
storeq_changes(const struct storeq *q)
{
	return q->changes;
}

void
storeq_resume(struct storeq *q)
{
	storeq_list_free(&q->collected);
	if (q->ops > 0)
		q->change++;
	q->ops = 0;
	q->degraded = 1;
	pthread_mutex_lock(&q->mu);
	q->discard = q->change - 1;
	q->failed = 0;
	pthread_cond_signal(&q->wake);
	pthread_mutex_unlock(&q->mu);
	q->known = q->change - 1; /* settled: nothing held waits for them */
}

struct store *
storeq_barrier(struct storeq *q)
{
	storeq_hand(q);
	pthread_mutex_lock(&q->mu);
	q->loop_holds = 0; /* held already: what was just handed goes first */
	pthread_cond_signal(&q->wake);
	while ((q->handed.head != NULL && q->failed == 0) || q->busy)
		pthread_cond_wait(&q->idle, &q->mu);
	q->loop_holds = 1;
	pthread_mutex_unlock(&q->mu);
	storeq_arm(q);
	return q->db;
}
