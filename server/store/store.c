/*
 * store.c: the store interface's calls (store.h), each passed on to the
 * backend the --db string picked, and the ops the loop hands the store
 * thread. A store is one connection; a reader that cannot have its own
 * (an in-memory SQLite database) shares the writer's under a lock, so
 * every call takes the store's lock, never contended otherwise.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/store/fault.h"
#include "server/store/store.h"

/* The backends, the default (a file path) last. */
static const struct store_backend *const store_backends[] = {
    &store_pg,
    &store_sqlite,
};

struct store {
	const struct store_backend *be;
	struct store_conn *conn;
	char *where;
	int flags;
	pthread_mutex_t own;
	pthread_mutex_t *mu;      /* &own, or the writer's when shared */
	int shared;               /* conn is the writer's: not closed here */
	struct store_fault fault; /* a reader's: test-only (fault.h) */
};

/* A store's lock: recursive, so that a load's callback may write to the
 * store it reads (a reader sharing the writer's connection). */
static void
store_lock_init(pthread_mutex_t *mu)
{
	pthread_mutexattr_t a;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(mu, &a);
	pthread_mutexattr_destroy(&a);
}

/* A store around conn, sharing the writer w's connection and lock when w
 * is not NULL; NULL when conn is NULL or memory runs out, the reason in
 * err. */
static struct store *
store_wrap(const struct store_backend *be, struct store_conn *conn,
    const char *where, int flags, struct store *w, char *err, size_t errlen)
{
	struct store *s;

	if (conn == NULL) {
		if (err[0] == '\0')
			snprintf(err, errlen, "%s: out of memory", where);
		return NULL;
	}
	if ((s = calloc(1, sizeof *s)) == NULL ||
	    (s->where = strdup(where)) == NULL) {
		free(s);
		if (w == NULL)
			be->close(conn);
		snprintf(err, errlen, "%s: out of memory", where);
		return NULL;
	}
	if ((flags & STORE_READER) && store_fault_init(&s->fault) != 0) {
		free(s->where);
		free(s);
		if (w == NULL)
			be->close(conn);
		snprintf(err, errlen, "%s: out of memory", where);
		return NULL;
	}
	s->be = be;
	s->conn = conn;
	s->flags = flags;
	store_lock_init(&s->own);
	s->mu = w != NULL ? w->mu : &s->own;
	s->shared = w != NULL;
	return s;
}

struct store *
store_open(const char *where, int flags, char *err, size_t errlen)
{
	size_t i, n = sizeof store_backends / sizeof store_backends[0];
	const struct store_backend *be;

	for (i = 0; i < n; i++) {
		be = store_backends[i];
		if (be->handles(where))
			return store_wrap(be,
			    be->open(where, flags, err, errlen), where, flags,
			    NULL, err, errlen);
	}
	snprintf(err, errlen, "%s: no store backend takes it", where);
	return NULL;
}

struct store *
store_open_reader(struct store *w, char *err, size_t errlen)
{
	const struct store_backend *be = w->be;
	int flags = w->flags | STORE_READER;

	if (be->reader_shares != NULL && be->reader_shares(w->where))
		return store_wrap(be, w->conn, w->where, flags, w, err, errlen);
	return store_wrap(be, be->open(w->where, flags, err, errlen), w->where,
	    flags, NULL, err, errlen);
}

void
store_close(struct store *s)
{
	if (s == NULL)
		return;
	if (!s->shared)
		s->be->close(s->conn);
	pthread_mutex_destroy(&s->own);
	store_fault_free(&s->fault);
	free(s->where);
	free(s);
}

const char *
store_errmsg(struct store *s)
{
	const char *m;

	if (s == NULL)
		return "no store";
	pthread_mutex_lock(s->mu);
	m = s->be->errmsg(s->conn);
	pthread_mutex_unlock(s->mu);
	return m;
}

const char *
store_backend_name(const struct store *s)
{
	return s->be->name;
}

/* Run one backend call under the store's lock. */
#define STORE_CALL(s, call)                                                    \
	do {                                                                   \
		int rc_;                                                       \
		pthread_mutex_lock((s)->mu);                                   \
		rc_ = (s)->be->call;                                           \
		pthread_mutex_unlock((s)->mu);                                 \
		return rc_;                                                    \
	} while (0)

int
store_commit(struct store *s, const struct store_op *ops)
{
	STORE_CALL(s, commit(s->conn, ops));
}

int
store_idle(struct store *s)
{
	if (s->be->idle == NULL)
		return 0;
	STORE_CALL(s, idle(s->conn));
}

int
store_load(struct store *s, store_room_cb cb, void *arg)
{
	STORE_CALL(s, load(s->conn, cb, arg));
}

int
store_room_number(struct store *s, long *n)
{
	STORE_CALL(s, room_number(s->conn, n));
}

int
store_identity_find(
    struct store *s, const char *name, struct store_identity *out, int *found)
{
	STORE_CALL(s, identity_find(s->conn, name, out, found));
}

int
store_progress_get(struct store *s, const char *name, const char *game,
    char *buf, size_t len, int *found)
{
	STORE_CALL(s, progress_get(s->conn, name, game, buf, len, found));
}

/* The newest `limit` public finished games (store_games_recent_from's
 * first page). */
int
store_games_recent(
    struct store *s, const char *game, int limit, store_game_cb cb, void *arg)
{
	return store_games_recent_from(s, game, NULL, limit, cb, arg);
}

/* The newest `limit` finished games of name (store_games_of_from's first
 * page). */
int
store_games_of(struct store *s, const char *name, int with_private, int limit,
    store_game_cb cb, void *arg)
{
	return store_games_of_from(s, name, with_private, NULL, limit, cb, arg);
}

/* A page of the public finished games from `from` (NULL: the newest). */
int
store_games_recent_from(struct store *s, const char *game,
    const struct store_cursor *from, int limit, store_game_cb cb, void *arg)
{
	static const struct store_cursor newest = {0, 0};

	store_fault_read_hold(&s->fault); /* test-only: a slow read */
	STORE_CALL(s,
	    games_recent(
	        s->conn, game, from != NULL ? from : &newest, limit, cb, arg));
}

/* A page of name's finished games from `from` (NULL: the newest). */
int
store_games_of_from(struct store *s, const char *name, int with_private,
    const struct store_cursor *from, int limit, store_game_cb cb, void *arg)
{
	static const struct store_cursor newest = {0, 0};

	store_fault_read_hold(&s->fault); /* test-only: a slow read */
	STORE_CALL(s,
	    games_of(s->conn, name, with_private, from != NULL ? from : &newest,
	        limit, cb, arg));
}

/* Bound the store's bounded reads to ms (store_backend's set_read_ms). */
void
store_set_read_ms(struct store *s, int ms)
{
	if (s->be->set_read_ms == NULL)
		return;
	pthread_mutex_lock(s->mu);
	s->be->set_read_ms(s->conn, ms);
	pthread_mutex_unlock(s->mu);
}

/* The query plan of one of the reads (store_backend's plan); -1 when the
 * backend cannot tell. */
int
store_plan(struct store *s, const char *what, char *buf, size_t len)
{
	if (s->be->plan == NULL)
		return -1;
	STORE_CALL(s, plan(s->conn, what, buf, len));
}

int
store_game_last(
    struct store *s, const char *room, store_game_cb cb, void *arg, int *found)
{
	STORE_CALL(s, game_last(s->conn, room, cb, arg, found));
}

/* A backend without the cluster's calls (SQLite). */
static int
store_no_cluster(struct store *s)
{
	(void)s;
	return -1;
}

int
store_rooms_unfinished(struct store *s, store_row_cb cb, void *arg)
{
	if (s->be->rooms_unfinished == NULL)
		return store_no_cluster(s);
	STORE_CALL(s, rooms_unfinished(s->conn, cb, arg));
}

int
store_room_claim(struct store *s, const char *id, long long *epoch,
    store_room_cb cb, void *arg)
{
	if (s->be->room_claim == NULL)
		return store_no_cluster(s);
	STORE_CALL(s, room_claim(s->conn, id, epoch, cb, arg));
}

int
store_club_claim(struct store *s, long long *epoch)
{
	if (s->be->club_claim == NULL)
		return store_no_cluster(s);
	STORE_CALL(s, club_claim(s->conn, epoch));
}

int
store_ratings_of(
    struct store *s, const char *name, store_rating_cb cb, void *arg)
{
	STORE_CALL(s, ratings_of(s->conn, name, cb, arg));
}

int
store_ratings_top(struct store *s, const char *pool, int provisional,
    double rd_bound, int offset, int limit, store_rating_cb cb, void *arg)
{
	STORE_CALL(s,
	    ratings_top(
	        s->conn, pool, provisional, rd_bound, offset, limit, cb, arg));
}

int
store_records_of(
    struct store *s, const char *name, store_record_cb cb, void *arg)
{
	STORE_CALL(s, records_of(s->conn, name, cb, arg));
}

int
store_records_top(struct store *s, const char *game, int by_level, int offset,
    int limit, store_record_cb cb, void *arg)
{
	STORE_CALL(
	    s, records_top(s->conn, game, by_level, offset, limit, cb, arg));
}

int
store_rooms_of(struct store *s, const char *name, const char *const *skip,
    int nskip, long *n)
{
	if (s->be->rooms_of == NULL)
		return store_no_cluster(s);
	STORE_CALL(s, rooms_of(s->conn, name, skip, nskip, n));
}

int
store_rooms_seated(struct store *s, const char *name, const char *const *skip,
    int nskip, int limit, store_room_cb cb, void *arg)
{
	if (s->be->rooms_seated == NULL)
		return store_no_cluster(s);
	STORE_CALL(s, rooms_seated(s->conn, name, skip, nskip, limit, cb, arg));
}

int
store_rows(struct store *s, const char *sql, int n, const char *const *vals,
    int ncols, store_row_cb cb, void *arg)
{
	STORE_CALL(s, rows(s->conn, sql, n, vals, ncols, cb, arg));
}

int
store_copy_read(
    struct store *s, const struct store_table *t, store_row_cb cb, void *arg)
{
	STORE_CALL(s, copy_read(s->conn, t, cb, arg));
}

int
store_copy_txn(struct store *s, int what)
{
	STORE_CALL(s, copy_txn(s->conn, what));
}

int
store_copy_write(
    struct store *s, const struct store_table *t, const char *const *vals)
{
	STORE_CALL(s, copy_write(s->conn, t, vals));
}

struct store_op *
store_op_new(enum store_op_kind kind)
{
	struct store_op *op = calloc(1, sizeof *op);

	if (op == NULL) {
		fputs("tablerod: out of memory\n", stderr);
		abort();
	}
	op->kind = kind;
	return op;
}

const char *
store_op_str(struct store_op *op, const char *v)
{
	size_t n;

	if (v == NULL)
		return NULL;
	if (op->nown == STORE_OP_STRS) {
		fprintf(stderr, "tablerod: more than %d strings in one op\n",
		    STORE_OP_STRS);
		abort();
	}
	n = strlen(v) + 1;
	if ((op->own[op->nown] = malloc(n)) == NULL) {
		fputs("tablerod: out of memory\n", stderr);
		abort();
	}
	memcpy(op->own[op->nown], v, n);
	return op->own[op->nown++];
}

void
store_op_free(struct store_op *ops)
{
	struct store_op *next;
	int i;

	for (; ops != NULL; ops = next) {
		next = ops->next;
		for (i = 0; i < ops->nown; i++)
			free(ops->own[i]);
		free(ops);
	}
}

const char *
store_op_room(const struct store_op *op)
{
	switch (op->kind) {
	case STORE_OP_ROOM_SAVE:
		return op->u.room.id;
	case STORE_OP_GAME_PUT:
		return op->u.game.room;
	case STORE_OP_ROOM_DELETE:
	case STORE_OP_MOVE_PUT:
	case STORE_OP_MOVE_TRUNCATE:
		return op->a;
	case STORE_OP_ROW:
		return op->u.row.room;
	default:
		return NULL;
	}
}

const char *
store_op_fence_key(const struct store_op *op)
{
	if (op->kind == STORE_OP_ROW && op->u.row.club)
		return STORE_CLUB_KEY;
	return store_op_room(op);
}
