/*
 * storeq.h: the store thread's queue. The event loop hands each stored
 * change to it as ops (copied values) and goes on; the thread commits
 * everything handed over so far in one transaction (group commit) and runs
 * the WAL checkpoints. Changes are numbered (one verb's or timer's change,
 * ended by storeq_commit), each in a savepoint of the group's transaction;
 * the loop learns through one event which changes committed or which one
 * failed, and holds the output each change causes until then.
 */
#ifndef TABLERO_STOREQ_H
#define TABLERO_STOREQ_H

#include <stdint.h>

#include <event2/event.h>

#include "server/store.h"

struct storeq;

/* Called on the loop when the thread has news: every change up to
 * committed is stored; failed (when not 0) is the change that failed, and
 * every change from it on was dropped (storeq_resume must follow before
 * anything more is stored). */
typedef void (*storeq_done_fn)(void *arg, uint64_t committed, uint64_t failed);

/* Start the thread on s (which it then owns while it runs: the loop uses
 * s only inside storeq_barrier). NULL when the thread cannot start. */
struct storeq *storeq_new(
    struct event_base *base, struct store *s, storeq_done_fn done, void *arg);
/* Commit everything handed over, stop the thread, free q (not the store). */
void storeq_free(struct storeq *q);

/* Queue a write (values copied): part of the change being made. */
void storeq_room_save(struct storeq *q, const struct store_room *r);
void storeq_move_append(struct storeq *q, const char *room, int game_no,
    const struct store_move *m);
void storeq_move_truncate(
    struct storeq *q, const char *room, int game_no, int ply);
void storeq_progress_put(
    struct storeq *q, const char *name, const char *game, const char *json);
void storeq_game_put(struct storeq *q, const struct store_game *g);
void storeq_identity_played(struct storeq *q, const char *name);
/* A room's row and moves deleted (a finished room leaving memory). */
void storeq_room_delete(struct storeq *q, const char *room);
/* At most max finished games that ended before before_ms deleted, the
 * count logged by the thread (days: their age, for that line). */
void storeq_games_prune(
    struct storeq *q, long long before_ms, int max, int days);

/*
 * The change being made is whole: 0 when it will be committed later (held
 * output waits for it), or when stored now. After a failed change the
 * queue is "degraded" until a commit succeeds: each change then waits for
 * its own commit, as without the thread, and -1 means it was refused and
 * dropped. While refusing (storeq_refuse), -1 at once.
 */
int storeq_commit(struct storeq *q);
/* The queue commits later (0) or a change waits for its commit (1). */
int storeq_sync(const struct storeq *q);
/* While on, each change waits for its own commit (a rare verb that
 * cannot be run again, such as hello); nests. */
void storeq_wait_mode(struct storeq *q, int on);
/* Refuse every change (1) or not (0): for requests whose change a failed
 * change dropped, run again to get the error they get without the thread. */
void storeq_refuse(struct storeq *q, int on);

/* The number of the change being made (a room keeps a snapshot per
 * change it is in). */
uint64_t storeq_change(const struct storeq *q);
/* The newest finished change not yet known committed, 0 when none: what
 * output made now may show. */
uint64_t storeq_pending(const struct storeq *q);
/* Changes queued so far (a counter). */
uint64_t storeq_changes(const struct storeq *q);

/* After a failure was reported: drop what is collected and what the
 * thread still holds (all of it belonged to dropped changes), and go on,
 * degraded. */
void storeq_resume(struct storeq *q);

/* Wait until everything handed over is committed (or failed) and the
 * thread is idle; until the loop's current callback returns, the caller
 * may use the store it returns directly (reads, and rare writes that
 * wait: docs/HACKING.md lists them). */
struct store *storeq_barrier(struct storeq *q);

#endif
