/*
 * held.c: output held until the store has committed what it shows. Each
 * message is tagged with the newest op not yet known committed when it
 * was made (none for a ping's reply); a connection's messages go out in
 * order, each once its tag is committed, except that a reply showing
 * nothing anyone changed (a ping's, a refusal) goes ahead of held events:
 * they tell of changes not yet stored, which the client has not seen
 * happen. While one of a connection's replies is held it reads nothing
 * more, so its replies stay in order and at most its last request waits;
 * events held for it alone do not stop it. A group that fails is tried
 * again, its output still
 * held: nothing held is ever dropped for it. A connection's held bytes
 * sit in one buffer cut by (tag, length) marks, so holding a message
 * allocates nothing in the common case.
 */
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>

#include "server/net/net.h"
#include "server/net/limit.h"
#include "server/store/storeq.h"

/* Connections whose held output held_release sends without allocating
 * a list of them (more take one allocation): one commit's worth at 100
 * rooms, two players each. */
#define HELD_RELEASE_STACK 256

/* A run of bytes of a queue that waits for one op. */
struct held_mark {
	uint64_t tag; /* the newest op its messages may show */
	size_t len;
};

/* A connection's queue of messages: their bytes in one buffer, cut into
 * runs by marks[first..n) in order, each run with the same or an older
 * tag than its own (so nothing per message is allocated). */
struct net_held {
	struct evbuffer *buf;
	struct held_mark *marks;
	int first, n, cap;
};

/* The tag of a message made now: 0 when it may go at once. */
uint64_t
held_tag(struct conn *c)
{
	if (c->srv->out_free || c->srv->storeq == NULL)
		return 0;
	return storeq_pending(c->srv->storeq);
}

/* *qp, made on first use (kept for the connection's life). */
static struct net_held *
held_queue(struct net_held **qp)
{
	if (*qp == NULL) {
		*qp = xcalloc(1, sizeof **qp);
		if (((*qp)->buf = evbuffer_new()) == NULL)
			fatal("out of memory");
	}
	return *qp;
}

static int
held_queue_empty(const struct net_held *q)
{
	return q == NULL || q->first == q->n;
}

/* A run of len bytes waiting for tag ends q (the bytes are in q->buf
 * already): part of the last run when that waits for the same op or
 * a newer one. */
static void
held_queue_mark(struct net_held *q, uint64_t tag, size_t len)
{
	if (q->n > q->first && q->marks[q->n - 1].tag >= tag) {
		q->marks[q->n - 1].len += len;
		return;
	}
	if (q->first > 0 && q->n == q->cap) { /* slide down: room at the end */
		memmove(q->marks, q->marks + q->first,
		    (size_t)(q->n - q->first) * sizeof *q->marks);
		q->n -= q->first;
		q->first = 0;
	}
	q->marks = xgrow(q->marks, q->n, &q->cap, 8, sizeof *q->marks);
	q->marks[q->n].tag = tag;
	q->marks[q->n].len = len;
	q->n++;
}

/* Append a message to a queue. */
static void
held_append(struct net_held *q, uint64_t tag, const char *data, size_t len)
{
	if (evbuffer_add(q->buf, data, len) != 0)
		fatal("out of memory");
	held_queue_mark(q, tag, len);
}

/* Move len bytes from the front of q's buffer to the end of to. */
static void
held_move(struct net_held *q, struct evbuffer *to, size_t len)
{
	if (len == evbuffer_get_length(q->buf)) {
		if (evbuffer_add_buffer(to, q->buf) != 0)
			fatal("out of memory");
		return;
	}
	if (evbuffer_remove_buffer(q->buf, to, len) != (int)len)
		fatal("held output lost");
}

static void
held_queue_free(struct net_held *q)
{
	if (q == NULL)
		return;
	evbuffer_free(q->buf);
	free(q->marks);
	free(q);
}

/* len more bytes of c are held (in c->hq): it is listed. */
static void
held_list(struct conn *c, size_t len)
{
	c->held = c->hq;
	c->held_bytes += len;
	if (c->held_slot < 0)
		c->held_slot = slots_add(&c->srv->held_conns, c);
}

/* One of c's replies is held: c reads no more lines until it is sent.
 * 1 while it is. */
int
held_blocks(const struct conn *c)
{
	return c->held != NULL && c->reply_held > c->srv->committed;
}

/* The reply just held at the end of c->hq: c reads no more lines (its
 * input stops growing at a line's worth, as net_pause's) until the ops
 * of that run are committed. */
static void
held_block(struct conn *c)
{
	c->reply_held = c->hq->marks[c->hq->n - 1].tag;
	if (c->bev != NULL) /* a WebSocket stops at a line's worth itself */
		bufferevent_setwatermark(
		    c->bev, EV_READ, 0, c->srv->cfg.max_line);
}

static void
held_unlist(struct conn *c)
{
	struct conn *moved;

	if (c->held_slot < 0)
		return;
	moved = slots_del(&c->srv->held_conns, c->held_slot);
	if (moved != NULL)
		moved->held_slot = c->held_slot;
	c->held_slot = -1;
}

/* Queue a message for c: behind the reply while deferring, held while it
 * (or anything before it) waits for a commit, else straight out; a reply
 * that waits for nothing goes ahead of held events (not of a held reply). */
void
held_add(struct conn *c, const char *data, size_t len)
{
	uint64_t tag = held_tag(c);

	if (c->deferring) {
		held_append(held_queue(&c->dq), tag, data, len);
		c->deferred_bytes += len;
		return;
	}
	if (tag == 0 && (c->held == NULL || (c->replying && !held_blocks(c)))) {
		evbuffer_add(c->out, data, len);
		return;
	}
	held_append(held_queue(&c->hq), tag, data, len);
	held_list(c, len);
	if (c->replying)
		held_block(c);
}

/* The request is done: the events it caused go behind its reply. */
void
held_end_deferring(struct conn *c)
{
	struct net_held *d = c->dq;
	struct evbuffer *out = c->out;

	c->deferred_bytes = 0;
	if (held_queue_empty(d))
		return;
	for (; d->first < d->n; d->first++) {
		struct held_mark *m = &d->marks[d->first];

		if (c->held == NULL && m->tag == 0) {
			held_move(d, out, m->len);
			continue;
		}
		held_move(d, held_queue(&c->hq)->buf, m->len);
		held_queue_mark(c->hq, m->tag, m->len);
		held_list(c, m->len);
	}
	d->first = d->n = 0;
}

/* Send what of c waits for ops up to committed; 1 when nothing of it
 * is held any more. */
static int
held_send(struct conn *c, uint64_t committed)
{
	struct net_held *q = c->hq;
	size_t len = 0;

	while (q->first < q->n && q->marks[q->first].tag <= committed)
		len += q->marks[q->first++].len;
	c->held_bytes -= len;
	if (c->state != CONN_DEAD)
		held_move(q, c->out, len);
	else
		evbuffer_drain(q->buf, len);
	if (q->first < q->n)
		return 0;
	q->first = q->n = 0;
	c->held = NULL;
	held_unlist(c);
	return 1;
}

/* A connection whose replies are all out reads again; one with nothing
 * held any more that is closing starts its lingering close. */
void
held_go_on(struct conn *c)
{
	if (held_blocks(c))
		return;
	/* (a WebSocket's output is framed when it is freed) */
	if (c->held == NULL && c->state == CONN_FLUSHING && !c->lingering &&
	    (c->bev == NULL || evbuffer_get_length(c->out) == 0))
		net_linger_now(c);
	if (!c->waiting)
		net_resume(c);
}

/* Every op up to committed is stored: what waited for it goes out, and
 * connections whose held replies went read again. */
void
held_release(struct server *srv, uint64_t committed)
{
	struct conn *stack[HELD_RELEASE_STACK], **free_now = stack;
	int n = 0, i = 0;

	srv->committed = committed;
	if (srv->held_conns.n == 0)
		return;
	if (srv->held_conns.n > HELD_RELEASE_STACK)
		free_now =
		    xmalloc((size_t)srv->held_conns.n * sizeof *free_now);
	while (i < srv->held_conns.n) {
		struct conn *c = srv->held_conns.v[i];
		int emptied = held_send(c, committed);

		if (emptied ||
		    (c->reply_held != 0 && c->reply_held <= committed)) {
			c->reply_held = 0;
			free_now[n++] = c;
		}
		if (!emptied) /* else its slot now holds another */
			i++;
	}
	for (i = 0; i < n; i++)
		held_go_on(free_now[i]);
	if (free_now != stack)
		free(free_now);
}

/* The connection goes: everything it held goes with it. */
void
held_free(struct conn *c)
{
	held_queue_free(c->hq);
	held_queue_free(c->dq);
	c->held = c->hq = c->dq = NULL;
	c->held_bytes = c->deferred_bytes = 0;
	c->reply_held = 0;
	held_unlist(c);
}
