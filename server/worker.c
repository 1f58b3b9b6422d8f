/*
 * worker.c: searches off the event loop: bot moves and puzzle hints. One
 * thread takes jobs (a copy of the position) from a queue and hands each
 * answer back to the loop through an event made active from the thread; the
 * loop plays a bot's move only if the room is still at the same move, and
 * answers a hint only if its connection is still there.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/thread.h>

#include "ai/ai.h"
#include "server/server.h"

/* Nodes a hint may search: a quarter of a second per million, so at most
 * about ten seconds of the worker's time; shipped boards take milliseconds,
 * large generated ones may end "unknown". */
#define WORKER_HINT_NODES 30000000L

struct worker_job {
	struct worker_job *next;
	char room[SERVER_ROOM_ID_MAX];
	int game_no, ply, seat, level;
	const struct rules_game *g;
	void *st;
	int ok;
	struct rules_move move;
	/* A hint: the connection and request to answer, and the answer. */
	int hint;
	uint64_t conn;
	char *cmd, *id;
	enum ai_verdict verdict;
	char text[SERVER_MOVE_TEXT_MAX];
};

struct worker {
	struct server *srv;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	struct worker_job *todo, *done;
	struct event *ready;
	int stop;
};

/* Take jobs off the list in the order they came. */
static struct worker_job *
worker_pop(struct worker_job **list)
{
	struct worker_job *j = *list;

	if (j != NULL)
		*list = j->next;
	return j;
}

static void
worker_push(struct worker_job **list, struct worker_job *j)
{
	j->next = NULL;
	while (*list != NULL)
		list = &(*list)->next;
	*list = j;
}

/* A hint, on the worker thread: the verdict and the move as text. */
static void
worker_solve(struct worker_job *j)
{
	j->verdict = ai_solve(j->g, j->st, WORKER_HINT_NODES, &j->move);
	if (j->verdict == AI_WINNABLE && j->move.to != RULES_NONE)
		j->g->format_move(j->st, j->move, j->text, sizeof j->text);
}

/* A bot's move, on the worker thread; 1 when it found one. */
static int
worker_bot_search(struct worker_job *j)
{
	uint64_t seed = (uint64_t)j->game_no * 1000003u + (uint64_t)j->ply;

	return ai_bot_move(j->g, j->st, j->level, seed, &j->move) == 0;
}

static void *
worker_main(void *arg)
{
	struct worker *w = arg;
	struct worker_job *j;

	for (;;) {
		pthread_mutex_lock(&w->lock);
		while (!w->stop && w->todo == NULL)
			pthread_cond_wait(&w->wake, &w->lock);
		if (w->stop) {
			pthread_mutex_unlock(&w->lock);
			return NULL;
		}
		j = worker_pop(&w->todo);
		pthread_mutex_unlock(&w->lock);

		if (j->hint)
			worker_solve(j);
		else
			j->ok = worker_bot_search(j);

		pthread_mutex_lock(&w->lock);
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
	struct conn *c = net_find(w->srv, j->conn);

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
			if (!j->ok)
				log_error("room %s: bot found no move", r->id);
			else if (room_play(
			             r, j->seat, j->move, err, sizeof err) == 0)
				room_after_move(r);
		} else if (r != NULL) {
			r->bot_pending = 0;
			room_schedule_bot(r);
		}
		worker_job_free(j);
	}
}

struct worker *
worker_new(struct server *srv)
{
	struct worker *w = xcalloc(1, sizeof *w);

	w->srv = srv;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->wake, NULL);
	w->ready = event_new(srv->base, -1, 0, worker_ready, w);
	if (w->ready == NULL)
		fatal("out of memory");
	if (pthread_create(&w->thread, NULL, worker_main, w) != 0)
		fatal("cannot start the bot thread");
	return w;
}

void
worker_free(struct worker *w)
{
	struct worker_job *j;

	pthread_mutex_lock(&w->lock);
	w->stop = 1;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	while ((j = worker_pop(&w->todo)) != NULL)
		worker_job_free(j);
	while ((j = worker_pop(&w->done)) != NULL)
		worker_job_free(j);
	event_free(w->ready);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->wake);
	free(w);
}

/* A job on a copy of room r's position. */
static struct worker_job *
worker_job_new(const struct room *r)
{
	struct worker_job *j = xcalloc(1, sizeof *j);

	snprintf(j->room, sizeof j->room, "%s", r->id);
	j->game_no = r->game_no;
	j->ply = r->nhist;
	j->seat = r->g->turn(r->st);
	j->g = r->g;
	j->st = xmalloc(r->g->state_size);
	memcpy(j->st, r->st, r->g->state_size);
	return j;
}

/* Queue a job and wake the thread. */
static void
worker_submit(struct worker *w, struct worker_job *j)
{
	pthread_mutex_lock(&w->lock);
	worker_push(&w->todo, j);
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
}

/* Ask for the move of the bot to move in room r. */
void
worker_bot(struct worker *w, struct room *r, int level)
{
	struct worker_job *j = worker_job_new(r);

	j->level = level;
	worker_submit(w, j);
}

/* Ask for a hint in room r for connection c, answering request req. */
void
worker_hint(struct worker *w, struct room *r, struct conn *c,
    const struct proto_request *req)
{
	struct worker_job *j = worker_job_new(r);

	j->hint = 1;
	j->conn = c->id;
	j->cmd = req->cmd != NULL ? xstrdup(req->cmd) : NULL;
	j->id = req->id != NULL ? xstrdup(req->id) : NULL;
	worker_submit(w, j);
}
