/*
 * worker.c: searches off the event loop: bot moves and puzzle hints (and
 * tasks: a short computation for a connection, a password's hash). A
 * few threads, at a low CPU priority, take jobs (a copy of the position)
 * from three queues and hand each answer back to the loop; the loop plays
 * a bot's move only if the room is still at the same move, and answers a
 * hint only if its connection is still there (a closing connection
 * detaches its hint, so no answer looks for it among all connections).
 *
 * Nothing the loop waits for is ever held by a search thread: the threads
 * run at a low priority and may be kept off the processor for as long as
 * the machine is busy, so they share no lock with the loop. The loop hands
 * a job over by pushing it onto an atomic stack (`incoming`) and posting a
 * semaphore; a thread hands an answer back by pushing it onto another
 * atomic stack (`done`) and writing to an eventfd the loop watches. Pushes
 * are compare-and-swap loops and the taker takes the whole stack with one
 * exchange, so no side ever waits for the other. The three queues and the
 * counts of running jobs belong to the threads alone, under a lock only
 * they take. The loop keeps its own list of every job out (`live`), which
 * it alone reads: the hint watch and a closing connection find jobs there
 * and cancel them through their atomic flag.
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
#define _GNU_SOURCE /* SCHED_BATCH */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/eventfd.h>
#endif

#include "ai/ai.h"
#include "server/core/core.h"
#include "server/net/limit.h"

struct worker_job {
	struct worker_job *next; /* in a stack or a queue */
	/* the loop's list of every job out (the loop alone) */
	struct worker_job *live_prev, *live_next;
	char room[SERVER_ROOM_ID_MAX];
	int game_no, ply, seat, level, depth;
	int human; /* a bot facing a person: served first */
	long ms;   /* a bot's time to think */
	/* when a thread took it (ms, never 0), 0 before: the watch reads it */
	atomic_llong start;
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
	worker_hint_fn *done; /* answers it, on the loop */
	char *cmd, *id;
	/* A task (worker_task): run on a thread with arg, then task_done on
	 * the loop with the connection (NULL once it closed) and arg. */
	worker_task_fn *task;
	worker_task_done_fn *task_done;
	void *arg;
	enum ai_verdict verdict;
	char text[SERVER_MOVE_TEXT_MAX];
};

/* Jobs in the order they came. */
struct worker_queue {
	struct worker_job *head, **tail;
};

struct worker {
	struct server *srv;
	pthread_t *tids;
	int nthreads;
	/* The loop to the threads: jobs pushed by the loop, taken whole by
	 * a thread; one post of wake per job, and nthreads at stop. */
	_Atomic(struct worker_job *) incoming;
	sem_t wake;
	atomic_int stop;
	/* The threads alone, under qlock: the queues and what runs. */
	pthread_mutex_t qlock;
	struct worker_queue human, hints, bvb;
	int hinting;  /* threads now solving a hint */
	int bvbing;   /* threads now moving for a bot-versus-bot room */
	int max_side; /* hints, and bot-versus-bot moves, at once: all
	                 threads but one, at least one */
	/* The threads to the loop: answers pushed by the threads, taken
	 * whole by the loop, which is woken through notify. */
	_Atomic(struct worker_job *) done;
	int notify[2]; /* [0] read by the loop, [1] written by threads (the
	                  same eventfd twice on Linux, else a pipe) */
	struct event *ready;
	/* The loop alone. */
	struct event *watch; /* cancels hints past --hint-time */
	struct worker_job *live;
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

/* Push j onto an atomic stack; never waits (lock-free). */
static void
worker_stack_push(_Atomic(struct worker_job *) *top, struct worker_job *j)
{
	struct worker_job *old = atomic_load(top);

	do
		j->next = old;
	while (!atomic_compare_exchange_weak(top, &old, j));
}

/* Take a whole atomic stack, oldest first. */
static struct worker_job *
worker_stack_take(_Atomic(struct worker_job *) *top)
{
	struct worker_job *j = atomic_exchange(top, NULL), *fifo = NULL;

	while (j != NULL) {
		struct worker_job *next = j->next;

		j->next = fifo;
		fifo = j;
		j = next;
	}
	return fifo;
}

/* On a thread, under qlock: move the jobs the loop handed over into
 * their queues, in the order they came. */
static void
worker_sort_incoming(struct worker *w)
{
	struct worker_job *j = worker_stack_take(&w->incoming), *next;

	for (; j != NULL; j = next) {
		next = j->next;
		worker_push(j->hint || j->task != NULL ? &w->hints
		        : j->human                     ? &w->human
		                                       : &w->bvb,
		    j);
	}
}

/* The next job this thread may take, under qlock: a bot facing a
 * person first, else a hint or a task, else a bot-versus-bot move, each of the
 * last two only while fewer than max_side run; NULL for none. */
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

/* This thread gives the processor to everything else: SCHED_BATCH (no
 * waking preemption of the loop) at nice 19, for this thread alone.
 * Not SCHED_IDLE: an idle-class thread may get nothing for seconds on a
 * busy machine, and its bot with it; nice 19 still gets a small share. */
static void
worker_lower_priority(void)
{
#ifdef SCHED_BATCH
	struct sched_param p;

	memset(&p, 0, sizeof p);
	(void)pthread_setschedparam(pthread_self(), SCHED_BATCH, &p);
#endif
	/* best effort: the search runs at any priority */
	(void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 19);
}

/* Wake the loop: one write to the eventfd or pipe, which never blocks
 * (a full pipe already wakes it). */
static void
worker_notify(struct worker *w)
{
	static const uint64_t one = 1;
	ssize_t n;

	do
		n = write(w->notify[1], &one, sizeof one);
	while (n == -1 && errno == EINTR);
}

/* Sleep until the loop posts a job (or stop). */
static void
worker_sleep(struct worker *w)
{
	while (sem_wait(&w->wake) == -1 && errno == EINTR)
		;
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

/* Take the next job this thread may run, or NULL: after stop, or when
 * nothing is queued that it may take now. */
static struct worker_job *
worker_next(struct worker *w)
{
	struct worker_job *j = NULL;

	pthread_mutex_lock(&w->qlock);
	worker_sort_incoming(w);
	if (!atomic_load(&w->stop))
		j = worker_take(w);
	pthread_mutex_unlock(&w->qlock);
	return j;
}

/* A job has run: free its slot (a job waiting for it goes on the next
 * round of some thread, this one first). */
static void
worker_finished(struct worker *w, const struct worker_job *j)
{
	if (!j->hint && j->task == NULL && j->human)
		return;
	pthread_mutex_lock(&w->qlock);
	if (j->hint || j->task != NULL)
		w->hinting--;
	else
		w->bvbing--;
	pthread_mutex_unlock(&w->qlock);
}

static void *
worker_main(void *arg)
{
	struct worker *w = arg;
	struct worker_job *j;

	worker_lower_priority();
	for (;;) {
		j = worker_next(w);
		if (j == NULL) {
			if (atomic_load(&w->stop))
				return NULL;
			worker_sleep(w);
			continue;
		}
		atomic_store(&j->start, clock_mono_ms() | 1);
		if (j->task != NULL)
			j->task(j->arg);
		else if (j->hint)
			worker_solve(j);
		else
			j->ok = worker_bot_search(j);
		worker_finished(w, j);
		worker_stack_push(&w->done, j);
		worker_notify(w);
	}
}

/* On the loop: j is out (submitted, not yet answered). */
static void
worker_live_add(struct worker *w, struct worker_job *j)
{
	j->live_prev = NULL;
	j->live_next = w->live;
	if (w->live != NULL)
		w->live->live_prev = j;
	w->live = j;
}

static void
worker_live_remove(struct worker *w, struct worker_job *j)
{
	if (j->live_prev != NULL)
		j->live_prev->live_next = j->live_next;
	else
		w->live = j->live_next;
	if (j->live_next != NULL)
		j->live_next->live_prev = j->live_prev;
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
	j->done(
	    c, &req, j->room, j->verdict, j->text[0] != '\0' ? j->text : NULL);
}

/* On the loop: play a finished bot move if its room has not moved on. */
static void
worker_bot_done(struct worker *w, struct worker_job *j)
{
	char err[RULES_ERR_MAX];
	struct room *r = room_find(w->srv, j->room);

	if (r != NULL && r->game_no == j->game_no && r->nhist == j->ply &&
	    r->status == ROOM_PLAYING && r->g->turn(r->st) == j->seat) {
		r->bot_pending = 0;
		log_debug("room %s: bot level %d, depth %d, %ld nodes "
		          "in %ld ms",
		    r->id, j->level, j->report.depth, j->report.nodes,
		    j->report.ms);
		if (!j->ok)
			log_error("room %s: bot found no move", r->id);
		else if (room_play(r, j->seat, j->move, err, sizeof err) == 0) {
			r->seats[j->seat].bot_score = j->report.score;
			r->seats[j->seat].bot_score_game = r->game_no;
			room_after_move(r);
		} else
			room_bot_retry(r);
	} else if (r != NULL) {
		r->bot_pending = 0;
		room_schedule_bot(r);
	}
}

/* Empty the eventfd or pipe that woke the loop (it never blocks). */
static void
worker_drain_notify(struct worker *w)
{
	char buf[256];
	ssize_t n;

	do
		n = read(w->notify[0], buf, sizeof buf);
	while (n > 0 || (n == -1 && errno == EINTR));
}

/* Back on the loop: take every answer the threads handed back and
 * deliver each (a hint's reply, a bot's move). */
static void
worker_ready(evutil_socket_t fd, short what, void *arg)
{
	struct worker *w = arg;
	struct worker_job *j, *next;

	worker_drain_notify(w);
	for (j = worker_stack_take(&w->done); j != NULL; j = next) {
		next = j->next;
		worker_live_remove(w, j);
		if (j->task != NULL)
			j->task_done(j->conn, j->arg);
		else if (j->hint)
			worker_hint_done(w, j);
		else
			worker_bot_done(w, j);
		worker_job_free(j);
	}
}

/* On the loop, now and then: cancel the hints past --hint-time (their
 * answer is "unknown"). A job on the live list is not freed before the
 * loop takes its answer, so reading it here is safe. */
static void
worker_watch(evutil_socket_t fd, short what, void *arg)
{
	struct worker *w = arg;
	int64_t now = clock_mono_ms();
	struct worker_job *j;

	for (j = w->live; j != NULL; j = j->live_next) {
		long long start = atomic_load(&j->start);

		if (j->hint && start != 0 && now - start > w->srv->cfg.hint_ms)
			atomic_store(&j->cancel, 1);
	}
}

/* The eventfd (Linux) or pipe the threads wake the loop through,
 * non-blocking on both ends; 0 or -1. */
static int
worker_notify_open(int fds[2])
{
#ifdef __linux__
	fds[0] = fds[1] = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	return fds[0] == -1 ? -1 : 0;
#else
	int i;

	if (pipe(fds) != 0)
		return -1;
	for (i = 0; i < 2; i++)
		if (fcntl(fds[i], F_SETFL, O_NONBLOCK) == -1 ||
		    fcntl(fds[i], F_SETFD, FD_CLOEXEC) == -1)
			return -1;
	return 0;
#endif
}

static void
worker_notify_close(int fds[2])
{
	close(fds[0]);
	if (fds[1] != fds[0])
		close(fds[1]);
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
	atomic_init(&w->incoming, NULL);
	atomic_init(&w->done, NULL);
	atomic_init(&w->stop, 0);
	worker_queue_init(&w->human);
	worker_queue_init(&w->hints);
	worker_queue_init(&w->bvb);
	pthread_mutex_init(&w->qlock, NULL);
	if (sem_init(&w->wake, 0, 0) != 0 || worker_notify_open(w->notify) != 0)
		fatal("cannot make the search threads' hand-over");
	w->ready = event_new(
	    srv->base, w->notify[0], EV_READ | EV_PERSIST, worker_ready, w);
	w->watch = event_new(srv->base, -1, EV_PERSIST, worker_watch, w);
	if (w->ready == NULL || w->watch == NULL)
		fatal("out of memory");
	event_add(w->ready, NULL);
	tv.tv_sec = 0;
	tv.tv_usec = WORKER_WATCH_MS * 1000;
	event_add(w->watch, &tv);
	w->tids = xcalloc((size_t)w->nthreads, sizeof *w->tids);
	for (i = 0; i < w->nthreads; i++)
		if (pthread_create(&w->tids[i], NULL, worker_main, w) != 0)
			fatal("cannot start the search threads");
	return w;
}

/* Jobs out (queued or searching, not yet answered): the loop's own list,
 * walked for --metrics-port. */
int
worker_jobs(const struct worker *w)
{
	const struct worker_job *j;
	int n = 0;

	for (j = w != NULL ? w->live : NULL; j != NULL; j = j->live_next)
		n++;
	return n;
}

/* Stop the threads (every running search is cancelled and answers at
 * once) and drop every job still out, wherever it is. */
void
worker_free(struct worker *w)
{
	struct worker_job *j, *next;
	int i;

	atomic_store(&w->stop, 1);
	for (j = w->live; j != NULL; j = j->live_next)
		atomic_store(&j->cancel, 1);
	for (i = 0; i < w->nthreads; i++)
		sem_post(&w->wake);
	for (i = 0; i < w->nthreads; i++)
		pthread_join(w->tids[i], NULL);
	free(w->tids);
	for (j = w->live; j != NULL; j = next) {
		next = j->live_next;
		if (j->task != NULL)
			j->task_done(NULL, j->arg); /* it frees arg */
		worker_job_free(j);
	}
	event_free(w->ready);
	event_free(w->watch);
	worker_notify_close(w->notify);
	sem_destroy(&w->wake);
	pthread_mutex_destroy(&w->qlock);
	free(w);
}

/* A job on a copy of room r's position. */
static struct worker_job *
worker_job_new(const struct room *r)
{
	struct worker_job *j = xcalloc(1, sizeof *j);

	atomic_init(&j->cancel, 0);
	atomic_init(&j->start, 0);
	snprintf(j->room, sizeof j->room, "%s", r->id);
	j->game_no = r->game_no;
	j->ply = r->nhist;
	j->seat = r->g->turn(r->st);
	j->g = r->g;
	j->st = xmalloc(r->g->state_size);
	memcpy(j->st, r->st, r->g->state_size);
	return j;
}

/* Hand a job to the threads (any idle one may take it); never waits. */
static void
worker_submit(struct worker *w, struct worker_job *j)
{
	worker_live_add(w, j);
	worker_stack_push(&w->incoming, j);
	sem_post(&w->wake);
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

/* Connection conn is closing (on the loop, before it is freed): cancel
 * its hint, queued, running or answered, and detach it (its answer
 * finds no connection and is dropped; a queued one stops at once). */
void
worker_cancel_conn(struct worker *w, uint64_t conn)
{
	struct worker_job *j;

	for (j = w->live; j != NULL; j = j->live_next)
		if ((j->hint || j->task != NULL) && j->conn != NULL &&
		    j->conn->id == conn) {
			atomic_store(&j->cancel, 1);
			j->conn = NULL;
		}
}

/* Ask for a hint in room r for connection c, answered by done on the
 * loop (if c is still there) with request req's id. */
void
worker_hint(struct worker *w, struct room *r, struct conn *c,
    const struct proto_request *req, worker_hint_fn *done)
{
	struct worker_job *j = worker_job_new(r);

	j->hint = 1;
	j->done = done;
	j->nodes = w->srv->cfg.hint_nodes;
	j->conn = c;
	j->cmd = req->cmd != NULL ? xstrdup(req->cmd) : NULL;
	j->id = req->id != NULL ? xstrdup(req->id) : NULL;
	worker_submit(w, j);
}

/* Run task(arg) on a search thread for connection c (served as hints
 * are), then done(c, arg) back on the loop, with c NULL when the
 * connection closed meanwhile (or at shutdown): done frees arg. */
void
worker_task(struct worker *w, struct conn *c, worker_task_fn *task,
    worker_task_done_fn *done, void *arg)
{
	struct worker_job *j = xcalloc(1, sizeof *j);

	atomic_init(&j->cancel, 0);
	atomic_init(&j->start, 0);
	j->task = task;
	j->task_done = done;
	j->arg = arg;
	j->conn = c;
	worker_submit(w, j);
}
