/*
 * storeq.h: the store thread and its queue. The loop applies a change in
 * memory, hands the queue its writes as ops (copied values, numbered in
 * order) and goes on; at the end of the loop's callback the ops go to the
 * thread, which commits everything handed over so far in one transaction
 * (group commit), then runs the backend's housekeeping. A group that fails
 * is kept and tried again with backoff, with whatever was handed over
 * since; nothing is ever taken back in memory. The loop learns through
 * one event how far the store has committed and whether it is failing.
 */
#ifndef TABLERO_STORE_STOREQ_H
#define TABLERO_STORE_STOREQ_H

#include <stdint.h>

#include <event2/event.h>

#include "server/store/store.h"

struct storeq;

/* Called on the loop when the thread has news: every op up to committed
 * is stored; failing is 1 while the last try of a group failed. */
typedef void (*storeq_done_fn)(void *arg, uint64_t committed, int failing);

/* The cluster's fence (cluster.c): the lease epoch a node holds on a
 * room, stamped on each op of the room as it is queued (0: none); and,
 * on the loop, a room whose ops were refused because another node took
 * it (its ops are dropped, never acknowledged; the rest commit). The
 * club is fenced the same way under the name STORE_CLUB_KEY. */
typedef long long (*storeq_epoch_fn)(void *arg, const char *room);
typedef void (*storeq_lost_fn)(void *arg, const char *room);

/* Start the thread on the writer s (which it then owns: the loop reads
 * through its own reader). give_up_ms: a store failing that long makes
 * the loop log why and exit non-zero (0: never). NULL when it cannot
 * start. */
struct storeq *storeq_new(struct event_base *base, struct store *s,
    int64_t give_up_ms, storeq_done_fn done, void *arg);
/* Commit everything handed over (one more try when failing), stop the
 * thread, free q (not the store); the number of ops not stored. */
uint64_t storeq_free(struct storeq *q);

/* Stamp ops with epoch's answer and tell lost of fenced rooms (before
 * the done callback that counts their ops as gone). */
void storeq_set_fence(
    struct storeq *q, storeq_epoch_fn epoch, storeq_lost_fn lost, void *arg);

/* Queue an op (taken over): one more write of the change being made. */
void storeq_add(struct storeq *q, struct store_op *op);

/* Queue a write, values copied (the usual ops). */
void storeq_room_save(struct storeq *q, const struct store_room *r);
void storeq_room_delete(struct storeq *q, const char *id);
/* A row op: the statement sql (static text) with n values, copied;
 * storeq_club_row's is one of the club's (fenced by the club's epoch). */
void storeq_row(struct storeq *q, const char *what, const char *sql, int n,
    const char *const *vals);
void storeq_club_row(struct storeq *q, const char *what, const char *sql, int n,
    const char *const *vals);
/* A row op that shares room's fence: stored only while the room's ops
 * are (a cluster node that lost the room has it dropped with them). */
void storeq_room_row(struct storeq *q, const char *room, const char *what,
    const char *sql, int n, const char *const *vals);
void storeq_move_put(struct storeq *q, const char *room, int game_no,
    const struct store_move *m);
void storeq_move_truncate(
    struct storeq *q, const char *room, int game_no, int ply);
void storeq_progress_put(
    struct storeq *q, const char *name, const char *game, const char *json);
void storeq_game_put(struct storeq *q, const struct store_game *g);
void storeq_rating_put(struct storeq *q, const struct store_rating *r);
void storeq_record_put(struct storeq *q, const struct store_record *r);
void storeq_identity_put(struct storeq *q, const char *name, const char *hash);
void storeq_identity_played(struct storeq *q, const char *name);
void storeq_identity_seen(struct storeq *q, const char *name, long long ms);
void storeq_identity_prune(struct storeq *q, long long before_ms);
void storeq_room_prune(
    struct storeq *q, const char *status, long long before_ms);
/* At most max finished games that ended before before_ms, the oldest
 * first; the loop logs how many went. */
void storeq_games_prune(struct storeq *q, long long before_ms, int max);

/* The newest op queued and not yet known committed, 0 when none: output
 * made now is held until it is. */
uint64_t storeq_pending(const struct storeq *q);
/* Ops queued so far (a counter). */
uint64_t storeq_ops(const struct storeq *q);
/* 1 while the store is failing: requests that would change stored state
 * are refused (PROTO_E_STORE_FAILING). */
int storeq_failing(const struct storeq *q);
/* Why the last try failed ("" when none), for logs and errors. */
const char *storeq_why(const struct storeq *q);
/* How long, in ms, the store has been failing (0: it is not). */
int64_t storeq_failing_ms(const struct storeq *q);

/* The store's figures since start, for --metrics-port: histograms count
 * each commit once in every bucket whose bound it is within. */
#define STOREQ_BUCKETS 12
struct storeq_stats {
	uint64_t commits;  /* groups committed */
	uint64_t failures; /* tries of a group that failed */
	uint64_t moves;    /* moves queued */
	double commit_sec; /* the commits' time, all together */
	uint64_t commit_le[STOREQ_BUCKETS]; /* by storeq_commit_bounds */
	uint64_t ops;                       /* ops in the groups committed */
	uint64_t group_le[STOREQ_BUCKETS];  /* by storeq_group_bounds */
};
/* The buckets' upper bounds: seconds a commit took, ops in a group. */
extern const double storeq_commit_bounds[STOREQ_BUCKETS];
extern const double storeq_group_bounds[STOREQ_BUCKETS];
void storeq_stats(struct storeq *q, struct storeq_stats *out);

#endif
