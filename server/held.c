/*
 * held.c: output held until the store has committed what it shows. Each
 * message is tagged with the newest change not yet known committed when it
 * was made (none for a ping's reply); a connection's messages go out in
 * order, each once its tag is committed. While a connection has output
 * held it reads nothing more, so its replies stay in order and at most its
 * last request waits. When a change fails, every held message goes (all of
 * them may show a dropped change) and that request is run again.
 */
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>

#include "server/server.h"
#include "server/storeq.h"

/* Messages with the same or an older tag, in order. */
struct net_held {
	struct net_held *next;
	uint64_t tag; /* the newest change they may show */
	struct evbuffer *buf;
};

/* The tag of a message made now: 0 when it may go at once. */
uint64_t
held_tag(struct conn *c)
{
	if (c->srv->out_free || c->srv->storeq == NULL)
		return 0;
	return storeq_pending(c->srv->storeq);
}

/* Append to a list of held messages: to its last entry when that waits
 * for the same change or a newer one. */
static void
held_append(struct net_held **head, struct net_held **tail, uint64_t tag,
    const char *data, size_t len)
{
	struct net_held *h = *tail;

	if (h == NULL || h->tag < tag) {
		h = xcalloc(1, sizeof *h);
		h->tag = tag;
		if ((h->buf = evbuffer_new()) == NULL)
			fatal("out of memory");
		if (*tail != NULL)
			(*tail)->next = h;
		else
			*head = h;
		*tail = h;
	}
	if (evbuffer_add(h->buf, data, len) != 0)
		fatal("out of memory");
}

static void
held_free_list(struct net_held *h)
{
	while (h != NULL) {
		struct net_held *next = h->next;

		evbuffer_free(h->buf);
		free(h);
		h = next;
	}
}

/* The connection has output held: listed, and it reads no more lines
 * (its input stops growing at a line's worth, as net_pause's). */
static void
held_list(struct conn *c)
{
	struct server *srv = c->srv;

	if (c->held_slot >= 0)
		return;
	srv->held_conns = xgrow(srv->held_conns, srv->nheld_conns,
	    &srv->held_conns_cap, 64, sizeof *srv->held_conns);
	c->held_slot = srv->nheld_conns;
	srv->held_conns[srv->nheld_conns++] = c;
	bufferevent_setwatermark(c->bev, EV_READ, 0, srv->cfg.max_line);
}

static void
held_unlist(struct conn *c)
{
	struct server *srv = c->srv;
	struct conn *last;

	if (c->held_slot < 0)
		return;
	last = srv->held_conns[--srv->nheld_conns];
	srv->held_conns[c->held_slot] = last;
	last->held_slot = c->held_slot;
	c->held_slot = -1;
}

/* Queue a message for c: behind the reply while deferring, held while it
 * (or anything before it) waits for a commit, else straight out. */
void
held_add(struct conn *c, const char *data, size_t len)
{
	uint64_t tag = held_tag(c);

	if (c->deferring) {
		held_append(&c->dhead, &c->dtail, tag, data, len);
		c->deferred_bytes += len;
		return;
	}
	if (c->held == NULL && tag == 0) {
		evbuffer_add(bufferevent_get_output(c->bev), data, len);
		return;
	}
	held_append(&c->held, &c->held_tail, tag, data, len);
	c->held_bytes += len;
	held_list(c);
}

/* The request is done: the events it caused go behind its reply. */
void
held_end_deferring(struct conn *c)
{
	struct net_held *h = c->dhead, *next;
	struct evbuffer *out = bufferevent_get_output(c->bev);

	c->dhead = c->dtail = NULL;
	c->deferred_bytes = 0;
	for (; h != NULL; h = next) {
		next = h->next;
		h->next = NULL;
		if (c->held == NULL && h->tag == 0) {
			evbuffer_add_buffer(out, h->buf);
			evbuffer_free(h->buf);
			free(h);
			continue;
		}
		if (c->held_tail != NULL)
			c->held_tail->next = h;
		else
			c->held = h;
		c->held_tail = h;
		c->held_bytes += evbuffer_get_length(h->buf);
		held_list(c);
	}
}

/* Send what of c waits for changes up to committed; 1 when nothing of it
 * is held any more. */
static int
held_send(struct conn *c, uint64_t committed)
{
	struct evbuffer *out = bufferevent_get_output(c->bev);

	while (c->held != NULL && c->held->tag <= committed) {
		struct net_held *h = c->held;

		c->held = h->next;
		c->held_bytes -= evbuffer_get_length(h->buf);
		if (c->state != CONN_DEAD)
			evbuffer_add_buffer(out, h->buf);
		evbuffer_free(h->buf);
		free(h);
	}
	if (c->held != NULL)
		return 0;
	c->held_tail = NULL;
	held_unlist(c);
	return 1;
}

/* A connection with nothing held any more reads again. */
void
held_go_on(struct conn *c)
{
	if (c->held != NULL)
		return;
	free(c->req_line);
	c->req_line = NULL;
	if (c->state == CONN_FLUSHING && !c->lingering &&
	    evbuffer_get_length(bufferevent_get_output(c->bev)) == 0)
		net_linger_now(c);
	if (!c->waiting)
		net_resume(c);
}

/* Every change up to committed is stored: what waited for it goes out. */
void
held_release(struct server *srv, uint64_t committed)
{
	struct conn **free_now;
	int n = 0, i = 0;

	if (srv->nheld_conns == 0)
		return;
	free_now = xmalloc((size_t)srv->nheld_conns * sizeof *free_now);
	while (i < srv->nheld_conns) {
		struct conn *c = srv->held_conns[i];

		if (held_send(c, committed))
			free_now[n++] = c; /* its slot now holds another */
		else
			i++;
	}
	for (i = 0; i < n; i++)
		held_go_on(free_now[i]);
	free(free_now);
}

/*
 * A change failed: every held message goes (each may show a dropped
 * change). The connections that had any, in *out (to free), their count:
 * the caller runs again each one's request whose reply was dropped and
 * then lets it read (held_go_on).
 */
int
held_drop(struct server *srv, struct conn ***out)
{
	struct conn **cs;
	int n = 0;

	cs = xmalloc((size_t)(srv->nheld_conns + 1) * sizeof *cs);
	while (srv->nheld_conns > 0) {
		struct conn *c = srv->held_conns[srv->nheld_conns - 1];

		held_free_list(c->held);
		c->held = c->held_tail = NULL;
		c->held_bytes = 0;
		held_unlist(c);
		cs[n++] = c;
	}
	*out = cs;
	return n;
}

/* The connection goes: everything it held goes with it. */
void
held_free(struct conn *c)
{
	held_free_list(c->held);
	held_free_list(c->dhead);
	c->held = c->held_tail = c->dhead = c->dtail = NULL;
	c->held_bytes = c->deferred_bytes = 0;
	held_unlist(c);
	free(c->req_line);
	c->req_line = NULL;
}
