/*
 * worker.c: searches off the event loop: bot moves and puzzle hints. A
 * few threads, at the lowest CPU priority, take jobs (a copy of the
 * position) from three queues and hand each answer back to the loop through
 * an event made active from a thread; the loop plays a bot's move only if
 * the room is still at the same move, and answers a hint only if its
 * connection is still there (a closing connection detaches its hint, so
 * no answer looks for it among all connections).
 *
 * Fairness: a room has at most one job (its bot_pending), a connection at
 * most one hint (it reads nothing more until the answer), and each queue is
 * served in order, so rooms and players take turns. Bots facing a person go
 * first; hints and bot-versus-bot rooms each hold at most all threads but
 * one, so a person's bot waits at most one other job's slice: a bot thinks
 * at most --bot-max-time, a hint searches at most --hint-time (a watch
 * timer cancels it). A hint whose connection closes is cancelled, and at
 * shutdown every running search is.
 */
#define _GNU_SOURCE /* SCHED_IDLE */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <event2/thread.h>

#include "ai/ai.h"
#include "server/server.h"

struct worker_job {
	struct worker_job *next;
	char room[SERVER_ROOM_ID_MAX];
	int game_no, ply, seat, level, depth;
	int human;     /* a bot facing a person: served first */
	long ms;       /* a bot's time to think */
	int64_t start; /* when a thread took it (ms), under the lock */
	const struct rules_game *g;
	void *st;
	int ok;
	struct rules_move move;
	struct ai_report report;
	/* A hint: the connection and request to answer, and the answer. */
	int hint;
	long nodes;        /* the search's bound */
	atomic_int cancel; /* set by the loop: stop searching */
	/* the connection to answer, NULL once it has closed (the loop alone
	 * reads and writes it; worker_cancel_conn clears it) */
	struct conn *conn;
	char *cmd, *id;
	enum ai_verdict verdict;
	char text[SERVER_MOVE_TEXT_MAX];
};

/* Jobs in the order they came. */
struct worker_queue {
	struct worker_job *head, **tail;
};

/* One search thread and the job it is on (under the lock). */
struct worker_thread {
	struct worker *w;
	pthread_t tid;
	struct worker_job *job;
};

struct worker {
	struct server *srv;
	struct worker_thread *threads;
	int nthreads;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	struct worker_queue human, hints, bvb, done;
	int hinting;  /* threads now solving a hint */
	int bvbing;   /* threads now moving for a bot-versus-bot room */
	int max_side; /* hints, and bot-versus-bot moves, at once: all
	                 threads but one, at least one */
	struct event *ready;
	struct event *watch; /* cancels hints past --hint-time */
	int stop;
};

/* How often the watch looks at the running hints. */
#define WORKER_WATCH_MS 100

static void
worker_queue_init(struct worker_queue *q)
{
	q->head = NULL;
	q->tail = &q->head;
}

static struct worker_job *
worker_pop(struct worker_queue *q)
{
	struct worker_job *j = q->head;

	if (j != NULL) {
		q->head = j->next;
		if (q->head == NULL)
			q->tail = &q->head;
	}
	return j;
}

static void
worker_push(struct worker_queue *q, struct worker_job *j)
{
	j->next = NULL;
	*q->tail = j;
	q->tail = &j->next;
}

/* The next job this thread may take, under the lock: a bot facing a
 * person first, else a hint, else a bot-versus-bot move, each of the last
 * two only while fewer than max_side run; NULL for none. */
static struct worker_job *
worker_take(struct worker *w)
{
	struct worker_job *j = worker_pop(&w->human);

	if (j == NULL && w->hinting < w->max_side &&
	    (j = worker_pop(&w->hints)) != NULL)
		w->hinting++;
	if (j == NULL && w->bvbing < w->max_side &&
	    (j = worker_pop(&w->bvb)) != NULL)
		w->bvbing++;
	return j;
}

/* This thread yields the processor to everything else: SCHED_IDLE where
 * Linux has it, else nice 19 (for this thread alone). */
static void
worker_lower_priority(void)
{
#ifdef SCHED_IDLE
	struct sched_param p;

	memset(&p, 0, sizeof p);
	if (pthread_setschedparam(pthread_self(), SCHED_IDLE, &p) == 0)
		return;
#endif
	if (setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19) != 0)
		return; /* best effort: the search still runs */
}

/* A hint, on the worker thread: the verdict and the move as text. */
static void
worker_solve(struct worker_job *j)
{
	j->verdict = ai_solve(j->g, j->st, j->nodes, &j->cancel, &j->move);
	if (j->verdict == AI_WINNABLE && j->move.to != RULES_NONE)
		j->g->format_move(j->st, j->move, j->text, sizeof j->text);
}

/* A bot's move, on the worker thread; 1 when it found one. */
static int
worker_bot_search(struct worker_job *j)
{
	uint64_t seed = (uint64_t)j->game_no * 1000003u + (uint64_t)j->ply;
	struct ai_limits lim;

	ai_limits_level(&lim, j->level, seed);
	lim.depth = j->depth;
	lim.ms = j->ms;
	lim.cancel = &j->cancel;
	return ai_bot_move(j->g, j->st, &lim, &j->move, &j->report) == 0;
}

static void *
worker_main(void *arg)
{
	struct worker_thread *t = arg;
	struct worker *w = t->w;
	struct worker_job *j = NULL;

	worker_lower_priority();
	for (;;) {
		pthread_mutex_lock(&w->lock);
		while (!w->stop && (j = worker_take(w)) == NULL)
			pthread_cond_wait(&w->wake, &w->lock);
		if (w->stop) {
			pthread_mutex_unlock(&w->lock);
			return NULL;
		}
		t->job = j;
		j->start = clock_mono_ms();
		pthread_mutex_unlock(&w->lock);

		if (j->hint)
			worker_solve(j);
		else
			j->ok = worker_bot_search(j);

		pthread_mutex_lock(&w->lock);
		t->job = NULL;
		if (j->hint || !j->human) {
			if (j->hint)
				w->hinting--;
			else
				w->bvbing--;
			/* a job waiting for a free slot may go now */
			pthread_cond_broadcast(&w->wake);
		}
		worker_push(&w->done, j);
		pthread_mutex_unlock(&w->lock);
		event_active(w->ready, 0, 0);
	}
}

static void
worker_job_free(struct worker_job *j)
{
	free(j->st);
	free(j->cmd);
	free(j->id);
	free(j);
}

/* Answer a finished hint, if its connection is still there. */
static void
worker_hint_done(struct worker *w, struct worker_job *j)
{
	struct proto_request req;
	struct conn *c = j->conn;

	if (c == NULL)
		return;
	memset(&req, 0, sizeof req);
	req.verb = PROTO_HINT;
	req.cmd = j->cmd;
	req.id = j->id;
	cmd_hint_done(
	    c, &req, j->room, j->verdict, j->text[0] != '\0' ? j->text : NULL);
}

/* Back on the loop: play each finished move whose room has not moved on. */
static void
worker_ready(evutil_socket_t fd, short what, void *arg)
{
	struct worker *w = arg;
	struct worker_job *j;
	char err[RULES_ERR_MAX];

	for (;;) {
		struct room *r;

		pthread_mutex_lock(&w->lock);
		j = worker_pop(&w->done);
		pthread_mutex_unlock(&w->lock);
		if (j == NULL)
			return;
		if (j->hint) {
			worker_hint_done(w, j);
			worker_job_free(j);
			continue;
		}
		r = room_find(w->srv, j->room);
		if (r != NULL && r->game_no == j->game_no &&
		    r->nhist == j->ply && r->status == ROOM_PLAYING &&
		    r->g->turn(r->st) == j->seat) {
			r->bot_pending = 0;
			log_debug("room %s: bot level %d, depth %d, %ld nodes "
			          "in %ld ms",
			    r->id, j->level, j->report.depth, j->report.nodes,
			    j->report.ms);
			if (!j->ok)
				log_error("room %s: bot found no move", r->id);
			else if (room_play(
			             r, j->seat, j->move, err, sizeof err) == 0)
				room_after_move(r);
			else
				room_bot_retry(r);
		} else if (r != NULL) {
			r->bot_pending = 0;
			room_schedule_bot(r);
		}
		worker_job_free(j);
	}
}

/* On the loop, now and then: cancel the hints past --hint-time (their
 * answer is "unknown"). */
static void
worker_watch(evutil_socket_t fd, short what, void *arg)
{
	struct worker *w = arg;
	int64_t now = clock_mono_ms();
	int i;

	pthread_mutex_lock(&w->lock);
	for (i = 0; i < w->nthreads; i++) {
		struct worker_job *j = w->threads[i].job;

		if (j != NULL && j->hint &&
		    now - j->start > w->srv->cfg.hint_ms)
			atomic_store(&j->cancel, 1);
	}
	pthread_mutex_unlock(&w->lock);
}

/* The pool: --workers threads (at least one). */
struct worker *
worker_new(struct server *srv)
{
	struct worker *w = xcalloc(1, sizeof *w);
	struct timeval tv;
	int i;

	w->srv = srv;
	w->nthreads = srv->cfg.workers > 0 ? srv->cfg.workers : 1;
	w->max_side = w->nthreads > 1 ? w->nthreads - 1 : 1;
	worker_queue_init(&w->human);
	worker_queue_init(&w->hints);
	worker_queue_init(&w->bvb);
	worker_queue_init(&w->done);
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->wake, NULL);
	w->ready = event_new(srv->base, -1, 0, worker_ready, w);
	w->watch = event_new(srv->base, -1, EV_PERSIST, worker_watch, w);
	if (w->ready == NULL || w->watch == NULL)
		fatal("out of memory");
	tv.tv_sec = 0;
	tv.tv_usec = WORKER_WATCH_MS * 1000;
	event_add(w->watch, &tv);
	w->threads = xcalloc((size_t)w->nthreads, sizeof *w->threads);
	for (i = 0; i < w->nthreads; i++) {
		w->threads[i].w = w;
		if (pthread_create(&w->threads[i].tid, NULL, worker_main,
		        &w->threads[i]) != 0)
			fatal("cannot start the search threads");
	}
	return w;
}

/* Stop the threads (every running search is cancelled and answers at
 * once) and drop what is still queued. */
void
worker_free(struct worker *w)
{
	struct worker_job *j;
	int i;

	pthread_mutex_lock(&w->lock);
	w->stop = 1;
	for (i = 0; i < w->nthreads; i++)
		if (w->threads[i].job != NULL)
			atomic_store(&w->threads[i].job->cancel, 1);
	pthread_cond_broadcast(&w->wake);
	pthread_mutex_unlock(&w->lock);
	for (i = 0; i < w->nthreads; i++)
		pthread_join(w->threads[i].tid, NULL);
	free(w->threads);
	while ((j = worker_pop(&w->human)) != NULL)
		worker_job_free(j);
	while ((j = worker_pop(&w->hints)) != NULL)
		worker_job_free(j);
	while ((j = worker_pop(&w->bvb)) != NULL)
		worker_job_free(j);
	while ((j = worker_pop(&w->done)) != NULL)
		worker_job_free(j);
	event_free(w->ready);
	event_free(w->watch);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->wake);
	free(w);
}

/* A job on a copy of room r's position. */
static struct worker_job *
worker_job_new(const struct room *r)
{
	struct worker_job *j = xcalloc(1, sizeof *j);

	atomic_init(&j->cancel, 0);
	snprintf(j->room, sizeof j->room, "%s", r->id);
	j->game_no = r->game_no;
	j->ply = r->nhist;
	j->seat = r->g->turn(r->st);
	j->g = r->g;
	j->st = xmalloc(r->g->state_size);
	memcpy(j->st, r->st, r->g->state_size);
	return j;
}

/* Queue a job and wake the threads (any idle one may take it). */
static void
worker_submit(struct worker *w, struct worker_job *j)
{
	pthread_mutex_lock(&w->lock);
	worker_push(j->hint ? &w->hints : j->human ? &w->human : &w->bvb, j);
	pthread_cond_broadcast(&w->wake);
	pthread_mutex_unlock(&w->lock);
}

/* Ask for the move of the bot in seat `seat` of room r (its turn): its
 * level's time, never more than --bot-max-time. */
void
worker_bot(struct worker *w, struct room *r, int seat)
{
	struct worker_job *j = worker_job_new(r);
	int s;

	j->level = r->seats[seat].bot;
	j->depth = r->seats[seat].depth;
	j->ms = ai_level_ms(j->level);
	if (j->ms > w->srv->cfg.bot_max_ms)
		j->ms = w->srv->cfg.bot_max_ms;
	if (j->depth > 0)
		j->ms = w->srv->cfg.bot_max_ms;
	for (s = 0; s < r->g->seats; s++)
		if (r->seats[s].bot == 0)
			j->human = 1;
	worker_submit(w, j);
}

/* Is j a hint for the connection with this id (still attached)? */
static int
worker_job_for(const struct worker_job *j, uint64_t conn)
{
	return j->hint && j->conn != NULL && j->conn->id == conn;
}

/* Connection conn is closing (on the loop, before it is freed): drop its
 * queued hint, cancel a running one and detach it and an answered one
 * from it (their answer finds no connection and is dropped). */
void
worker_cancel_conn(struct worker *w, uint64_t conn)
{
	struct worker_queue keep;
	struct worker_job *j;
	int i;

	worker_queue_init(&keep);
	pthread_mutex_lock(&w->lock);
	while ((j = worker_pop(&w->hints)) != NULL) {
		if (worker_job_for(j, conn))
			worker_job_free(j);
		else
			worker_push(&keep, j);
	}
	w->hints.head = keep.head;
	w->hints.tail = keep.head != NULL ? keep.tail : &w->hints.head;
	for (i = 0; i < w->nthreads; i++) {
		j = w->threads[i].job;
		if (j != NULL && worker_job_for(j, conn)) {
			atomic_store(&j->cancel, 1);
			j->conn = NULL;
		}
	}
	for (j = w->done.head; j != NULL; j = j->next)
		if (worker_job_for(j, conn))
			j->conn = NULL;
	pthread_mutex_unlock(&w->lock);
}

/* Ask for a hint in room r for connection c, answering request req. */
void
worker_hint(struct worker *w, struct room *r, struct conn *c,
    const struct proto_request *req)
{
	struct worker_job *j = worker_job_new(r);

	j->hint = 1;
	j->nodes = w->srv->cfg.hint_nodes;
	j->conn = c;
	j->cmd = req->cmd != NULL ? xstrdup(req->cmd) : NULL;
	j->id = req->id != NULL ? xstrdup(req->id) : NULL;
	worker_submit(w, j);
}
