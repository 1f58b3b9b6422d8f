/*
 * pages.c: pages of finished games (`history`, `rooms ended`) read on a
 * search thread, not on the loop. A page is an index range of at most
 * ARCHIVE_LIST_MAX + 1 games (archive.c), bounded by STORE_READ_MS, but
 * eight guests asking for pages as fast as their budget allows still made
 * everyone else's replies wait behind them on the loop (issue 30's guest
 * history storm). Here the read, and the JSON of its games, run on a
 * worker thread (worker_task) from a store connection of their own; the
 * connection reads nothing more meanwhile (net_pause), and the reply is
 * sent from the loop when the page is back.
 *
 * One page is read at a time, under the pages' own lock: a store call and
 * its error message go together, and page reads never hold more than one
 * search thread in the store (tasks are served as hints are: bots facing
 * a person keep a thread of their own, worker.c).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/core/core.h"
#include "server/store/store.h"

struct pages {
	struct store *st; /* the page reads' connection */
	pthread_mutex_t mu;
};

/* A page asked for: what to read, and the reply being built. */
struct pages_job {
	struct server *srv;
	struct proto_request req; /* the request's verb, cmd, id, name */
	char *name;               /* history: whose games; NULL: rooms ended */
	char *game;               /* rooms ended: one game's; NULL: all */
	int own;                  /* history: private games too */
	struct archive_page pg;   /* pg.list is in rep */
	cJSON *rep;
	int rc;
	char err[256];
	pages_done_fn *done;
};

/* Open the page reads' store connection beside srv's reader; 0, or -1
 * with the reason in err. */
int
pages_open(struct server *srv, char *err, size_t errlen)
{
	struct pages *p = xcalloc(1, sizeof *p);

	p->st = store_open_reader(srv->store, err, errlen);
	if (p->st == NULL) {
		free(p);
		return -1;
	}
	pthread_mutex_init(&p->mu, NULL);
	srv->pages = p;
	return 0;
}

/* Close it (after the search threads stopped). */
void
pages_close(struct server *srv)
{
	struct pages *p = srv->pages;

	if (p == NULL)
		return;
	store_close(p->st);
	pthread_mutex_destroy(&p->mu);
	free(p);
	srv->pages = NULL;
}

/* On a search thread: read the page into the reply's list. */
static void
pages_work(void *arg)
{
	struct pages_job *j = arg;
	struct pages *p = j->srv->pages;

	pthread_mutex_lock(&p->mu);
	if (j->name != NULL)
		j->rc = archive_games_of_in(p->st, j->name, j->own, &j->pg);
	else
		j->rc = archive_recent_in(p->st, j->game, &j->pg);
	if (j->rc != 0)
		snprintf(j->err, sizeof j->err, "%s", store_errmsg(p->st));
	pthread_mutex_unlock(&p->mu);
}

/* The page or the failure, to the connection (net_answer). */
static void
pages_answer(struct conn *c, void *arg)
{
	struct pages_job *j = arg;

	j->done(c, &j->req, j->rep, &j->pg, j->rc);
	j->rep = NULL; /* done took it */
}

/* Back on the loop: the connection (NULL when it closed) hears the page
 * or the failure, and reads again. */
static void
pages_work_done(struct conn *c, void *arg)
{
	struct pages_job *j = arg;

	if (j->rc != 0)
		log_error("store: %s", j->err);
	if (c != NULL)
		net_answer(c, pages_answer, j);
	cJSON_Delete(j->rep);
	proto_request_free(&j->req);
	free(j->name);
	free(j->game);
	free(j);
}

/* Read a page for c off the loop: the games name played (own: its private
 * ones too) when name is not NULL, else the public ones of game (NULL: of
 * every game), from from (zeros: the newest) into list, which is in rep;
 * then done(c, req, rep, page, rc) on the loop, which takes rep. c reads
 * nothing more meanwhile; nothing is called when c closes first. */
void
pages_read(struct conn *c, const struct proto_request *req, const char *name,
    int own, const char *game, const struct store_cursor *from, cJSON *rep,
    cJSON *list, pages_done_fn *done)
{
	struct pages_job *j = xcalloc(1, sizeof *j);

	j->srv = c->srv;
	j->done = done;
	j->req.verb = req->verb;
	j->req.shorthand = req->shorthand;
	j->req.cmd = req->cmd != NULL ? xstrdup(req->cmd) : NULL;
	j->req.id = req->id != NULL ? xstrdup(req->id) : NULL;
	j->req.name = req->name != NULL ? xstrdup(req->name) : NULL;
	j->name = name != NULL ? xstrdup(name) : NULL;
	j->game = game != NULL ? xstrdup(game) : NULL;
	j->own = own;
	j->pg.from = *from;
	j->pg.list = list;
	j->rep = rep;
	net_pause(c);
	worker_task(c->srv->worker, c, pages_work, pages_work_done, j);
}
