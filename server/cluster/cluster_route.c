/*
 * cluster_route.c: a player on one node (its home) acting in a room that
 * another node owns (docs/SCALING.md part 3). The home sends each request
 * line that names a room it does not hold to the owner's stream (found
 * through the room's lease, then kept in a small cache), where a stand-in
 * of the player runs it (cluster_standin.c); what the stand-in is sent
 * comes back numbered, and the home writes it to the player's socket.
 *
 * Every request gets exactly one reply, in order: the home reads no more
 * lines from the connection while one of its requests is in flight (as
 * held.c does for a reply held for the store), numbers it (rseq), and
 * counts it answered when output comes back from the owner it went to
 * saying so (done >= rseq). A request unanswered for a while is sent
 * again (the owner runs a number once); one the owner did not take (a
 * "bounce": the room is not there) or whose owner is gone goes to the
 * room's next owner; one whose room is no more ("gone" lease, or not
 * among the store's unfinished rooms) runs here, where the verb says so
 * (no_such_room, or a finished game from the archive); one whose owner
 * stays unknown, or that cannot go because Redis is away, is answered
 * not_ready (retryable) here. Output comes back per owner's stand-in in
 * order: a gap asks for a replay, a duplicate is dropped, and what came
 * is acknowledged every tick.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/cluster/cluster.h"
#include "server/cluster/cluster_int.h"
#include "server/club/seek.h"
#include "server/cmd/cmd.h"
#include "server/club/club.h"
#include "server/net/limit.h"

/* While a room has no live owner (its node died and its lease has not
 * lapsed, or it lapsed and no node took the room yet, or Redis came back
 * and the nodes take their leases again), a request for it is looked up
 * again this often, this many times: past a lease, the settling after an
 * outage and a scan, and then it is answered not_ready. */
#define CLUSTER_ROUTE_RETRY_MS 500
#define CLUSTER_ROUTE_TRIES                                                    \
	((CLUSTER_LEASE_MS + CLUSTER_SETTLE_MS + CLUSTER_TICK_MS) /            \
	    CLUSTER_ROUTE_RETRY_MS)
/* A request sent with no answer this long is sent again (its owner runs
 * it once, and sends again what was not acknowledged), or to its room's
 * next owner when its owner is gone. */
#define CLUSTER_ROUTE_RESEND_MS 3000
/* A replay of a stand-in's output is asked for at most this often. */
#define CLUSTER_ROUTE_ASK_MS 1000

/* Where a request in flight is. */
enum route_state {
	ROUTE_LOOKUP, /* asking Redis for its room's owner */
	ROUTE_WAIT,   /* waiting to ask again (no live owner yet) */
	ROUTE_SENT,   /* in its owner's stream */
};

/* The request of a home connection in flight. */
struct route_req {
	struct cluster *cl;
	unsigned long long conn; /* the connection's id */
	unsigned long long rseq;
	int club;  /* for the club's node, not a room's */
	int tries; /* lookups that found no live owner */
	int sends; /* times it was sent to an owner */
	enum route_state state;
	char room[SERVER_ROOM_ID_MAX];
	char owner[CLUSTER_NODE_MAX + 1]; /* where it was sent */
	int64_t sent_ms;
	int64_t start_ms; /* when the client's request came */
	struct event *timer;
	size_t len;
	char line[]; /* the request as the client sent it */
};

/* What a lookup's callback finds its request by: the connection and the
 * request's number (the request may be gone by then). */
struct route_ask {
	unsigned long long conn, rseq;
};

/* The verbs that act on a room named in the request: run by its owner. */
static const unsigned char cluster_route_verbs[PROTO_VERB_COUNT] = {
    [PROTO_JOIN] = 1,
    [PROTO_WATCH] = 1,
    [PROTO_LEAVE] = 1,
    [PROTO_STATE] = 1,
    [PROTO_MOVES] = 1,
    [PROTO_MOVE] = 1,
    [PROTO_RESIGN] = 1,
    [PROTO_DRAW] = 1,
    [PROTO_TAKEBACK] = 1,
    [PROTO_UNDO] = 1,
    [PROTO_RESTART] = 1,
    [PROTO_NEXT] = 1,
    [PROTO_HINT] = 1,
    [PROTO_REMATCH] = 1,
    [PROTO_CLAIM] = 1,
    [PROTO_EXPORT] = 1,
    [PROTO_CHAT] = 1,
    [PROTO_SAY] = 1,
    [PROTO_INVITE] = 1,
};

/* The verbs of the club (seeks, challenges, tournaments): run by the node that
 * holds the club's lease (cluster_club.c), whatever room they name. */
static const unsigned char cluster_route_club[PROTO_VERB_COUNT] = {
    [PROTO_SEEK] = 1,
    [PROTO_SEEKS] = 1,
    [PROTO_UNSEEK] = 1,
    [PROTO_PLAY] = 1, /* takes a seek of the pool */
    [PROTO_TOURNEY] = 1,
    /* challenges live where the club is, so that two players on
     * different nodes meet there (match.c) */
    [PROTO_MATCH] = 1,
    [PROTO_ACCEPT] = 1,
    [PROTO_DECLINE] = 1,
};

struct route_home *
cluster_route_home(struct conn *c)
{
	struct cluster *cl = c->srv->cluster;
	struct route_home *h = c->route;

	if (h != NULL)
		return h;
	h = c->route = xcalloc(1, sizeof *h);
	h->c = c;
	snprintf(h->key, sizeof h->key, "%llu", (unsigned long long)c->id);
	if (cl != NULL)
		table_add(&cl->homes, &h->link, h->key);
	return h;
}

void
cluster_route_set_standin(struct conn *c)
{
	struct route_home *h = xcalloc(1, sizeof *h);

	h->c = c;
	h->proxy = 1;
	c->route = h;
}

int
cluster_route_is_standin(const struct conn *c)
{
	return c->route != NULL && c->route->proxy;
}

/* The record of this node's connection id, or NULL. */
static struct route_home *
cluster_route_find(struct cluster *cl, unsigned long long id)
{
	char key[CLUSTER_NUM];
	struct table_link *l;

	cluster_num(key, id);
	l = table_find(&cl->homes, key);
	return l != NULL ? TABLE_ITEM(l, struct route_home, link) : NULL;
}

struct conn *
cluster_route_conn(struct cluster *cl, unsigned long long id)
{
	struct route_home *h = cluster_route_find(cl, id);

	return h != NULL && h->c->state == CONN_OPEN && h->c->player != NULL
	    ? h->c
	    : NULL;
}

/* The channel of h with node's stand-ins, or NULL. */
static struct route_chan *
cluster_route_chan(struct route_home *h, const char *node)
{
	int i;

	for (i = 0; i < h->nchans; i++)
		if (strcmp(h->chans[i].node, node) == 0)
			return &h->chans[i];
	return NULL;
}

/* Tell node (its incarnation inc) that h's connection is gone: its
 * stand-in there closes. */
static void
cluster_route_bye(struct cluster *cl, const struct route_home *h,
    const char *node, unsigned long long inc)
{
	const char *f[2] = {"conn", h->key};

	cluster_stream_send(cl, node, inc, "bye", 2, f, NULL);
}

/* A channel of h with node (incarnation inc), new: when h has too many,
 * the oldest is closed (its stand-in told bye). */
static struct route_chan *
cluster_route_chan_add(struct cluster *cl, struct route_home *h,
    const char *node, unsigned long long inc)
{
	struct route_chan *ch;

	if (h->nchans == CLUSTER_ROUTE_NODES) {
		cluster_route_bye(cl, h, h->chans[0].node, h->chans[0].inc);
		memmove(&h->chans[0], &h->chans[1],
		    sizeof h->chans[0] * (CLUSTER_ROUTE_NODES - 1));
		h->nchans--;
	}
	ch = &h->chans[h->nchans++];
	memset(ch, 0, sizeof *ch);
	snprintf(ch->node, sizeof ch->node, "%s", node);
	ch->inc = inc;
	ch->next = 1;
	return ch;
}

/* h's channel with node forgotten (its stand-in there is gone). */
static void
cluster_route_chan_del(struct route_home *h, struct route_chan *ch)
{
	int i = (int)(ch - h->chans);

	memmove(&h->chans[i], &h->chans[i + 1],
	    sizeof h->chans[0] * (size_t)(h->nchans - i - 1));
	h->nchans--;
}

/* The request in flight of h forgotten (answered, or answered here). */
static void
cluster_route_req_free(struct cluster *cl, struct route_home *h)
{
	struct route_req *pr = h->req;

	if (pr == NULL)
		return;
	h->req = NULL;
	if (pr->timer != NULL)
		event_free(pr->timer);
	free(pr);
	if (h->in_inflight) {
		TAILQ_REMOVE(&cl->inflight, h, inflight_entry);
		h->in_inflight = 0;
	}
}

/* h's connection reads again (its request in flight is answered). */
static void
cluster_route_resume(struct route_home *h)
{
	struct conn *c = h->c;

	if (!h->paused)
		return;
	h->paused = 0;
	c->waiting = 0;
	net_resume(c);
}

/* The request in flight of h answered by its owner: the next line. */
static void
cluster_route_answered(struct cluster *cl, struct route_home *h)
{
	cluster_route_req_free(cl, h);
	cluster_route_resume(h);
}

/* Run h's request here (its room is here, or is no more: the verb says
 * what is wrong), then read on. */
static void
cluster_route_local(struct cluster *cl, struct route_home *h)
{
	struct route_req *pr = h->req;
	struct conn *c = h->c;

	h->req = NULL;
	if (pr->timer != NULL)
		event_free(pr->timer);
	if (h->in_inflight) {
		TAILQ_REMOVE(&cl->inflight, h, inflight_entry);
		h->in_inflight = 0;
	}
	if (h->paused) {
		h->paused = 0;
		c->waiting = 0;
	}
	/* c lives until the reaper, after this returns */
	h->local = 1;
	session_line(c, pr->line, pr->len);
	if (c->route == h)
		h->local = 0;
	free(pr);
	if (!c->waiting)
		net_resume(c);
}

/* Answer h's request here with a retryable refusal, then read on. */
static void
cluster_route_refuse(struct cluster *cl, struct route_home *h, const char *why)
{
	struct route_req *pr = h->req;
	struct proto_request req;
	char err[256];
	int was = cl->srv->out_free;

	memset(&req, 0, sizeof req);
	proto_decode(pr->line, pr->len, &req, err, sizeof err);
	cl->srv->out_free = 1; /* it shows nothing anyone changed */
	cl->stats.refused++;
	conn_error(h->c, &req, PROTO_E_NOT_READY, "%s", why);
	cl->srv->out_free = was;
	proto_request_free(&req);
	cluster_route_answered(cl, h);
}

static void cluster_route_lookup(struct cluster *cl, struct route_home *h);

/* The timer of a request waiting for an owner: ask again. */
static void
cluster_route_retry(evutil_socket_t fd, short what, void *arg)
{
	struct route_req *pr = arg;
	struct route_home *h;

	(void)fd;
	(void)what;
	h = cluster_route_find(pr->cl, pr->conn);
	if (h != NULL && h->req == pr)
		cluster_route_lookup(pr->cl, h);
}

/* h's request found no live owner (or was bounced): ask again later, or,
 * past CLUSTER_ROUTE_TRIES, answer not_ready. */
static void
cluster_route_wait(struct cluster *cl, struct route_home *h)
{
	struct route_req *pr = h->req;
	struct timeval tv = {0, CLUSTER_ROUTE_RETRY_MS * 1000};

	if (++pr->tries >= CLUSTER_ROUTE_TRIES) {
		cluster_route_refuse(cl, h,
		    "the server holding this room cannot be reached now; "
		    "try again in a few seconds");
		return;
	}
	pr->state = ROUTE_WAIT;
	if (pr->timer == NULL &&
	    (pr->timer = evtimer_new(cl->srv->base, cluster_route_retry, pr)) ==
	        NULL)
		fatal("out of memory");
	evtimer_add(pr->timer, &tv);
}

/* The output form of c as the stand-in takes it: "text", "json", or
 * "lean" (JSON with lean events, read as "json" by a node that knows no
 * lean form). */
static const char *
cluster_route_mode(const struct conn *c)
{
	if (c->mode == CONN_MODE_TEXT)
		return "text";
	return c->lean ? "lean" : "json";
}

/* Send h's request (again, with the same number) to node (which may be
 * the request's own owner field: it is copied first). */
static void
cluster_route_send_req(
    struct cluster *cl, struct route_home *h, const char *node)
{
	struct route_req *pr = h->req;
	struct conn *c = h->c;
	char owner[CLUSTER_NODE_MAX + 1];
	unsigned long long inc;
	struct route_chan *ch;
	char rseq[CLUSTER_NUM], sid[CLUSTER_NUM], ack[CLUSTER_NUM];
	const char *f[CLUSTER_STREAM_FIELDS];
	size_t lens[CLUSTER_STREAM_FIELDS];
	int i;

	snprintf(owner, sizeof owner, "%s", node);
	inc = cluster_node_inc(cl, owner);
	ch = cluster_route_chan(h, owner);
	if (ch == NULL || (inc != 0 && ch->inc != inc)) {
		if (ch != NULL)
			cluster_route_chan_del(h, ch);
		ch = cluster_route_chan_add(cl, h, owner, inc);
	}
	cluster_num(rseq, pr->rseq);
	cluster_num(sid, ch->sid);
	cluster_num(ack, ch->next - 1);
	f[0] = "conn", f[1] = h->key;
	f[2] = "name", f[3] = c->player->name;
	f[4] = "mode", f[5] = cluster_route_mode(c);
	f[6] = "room", f[7] = pr->room;
	f[8] = "club", f[9] = pr->club ? "1" : "0";
	f[10] = "rseq", f[11] = rseq;
	/* what came from its stand-in so far, acknowledged on the way */
	f[12] = "sid", f[13] = sid;
	f[14] = "ack", f[15] = ack;
	f[16] = "line", f[17] = pr->line;
	for (i = 0; i < 18; i++)
		lens[i] = (size_t)-1;
	lens[17] = pr->len;
	cluster_stream_send(cl, owner, inc, "req", 18, f, lens);
	if (pr->sends++ == 0)
		cl->stats.forwarded++;
	else
		cl->stats.resent++;
	ch->acked = ch->next - 1;
	pr->state = ROUTE_SENT;
	snprintf(pr->owner, sizeof pr->owner, "%s", owner);
	pr->sent_ms = clock_mono_ms();
	if (!pr->club) {
		snprintf(h->cache_room, sizeof h->cache_room, "%s", pr->room);
		snprintf(h->cache_node, sizeof h->cache_node, "%s", owner);
	}
}

/* The lease of a request's room answered: send it to its owner; wait
 * when there is no live owner yet; run it here when the room is here or
 * is no more. */
static void
cluster_route_owner(redisAsyncContext *ac, void *reply, void *arg)
{
	struct route_ask *ask = arg;
	struct cluster *cl = ac->data;
	redisReply *rep = reply;
	char owner[CLUSTER_NODE_MAX + 1];
	struct route_home *h;
	struct route_req *pr;
	const char *colon;
	size_t n;

	h = cl != NULL ? cluster_route_find(cl, ask->conn) : NULL;
	pr = h != NULL ? h->req : NULL;
	if (pr == NULL || pr->rseq != ask->rseq || pr->state != ROUTE_LOOKUP) {
		free(ask);
		return;
	}
	free(ask);
	if (rep == NULL || rep->type == REDIS_REPLY_ERROR) {
		cluster_route_wait(cl, h); /* Redis went meanwhile */
		return;
	}
	owner[0] = '\0';
	if (rep->type == REDIS_REPLY_STRING &&
	    (colon = strrchr(rep->str, ':')) != NULL &&
	    (n = (size_t)(colon - rep->str)) <= CLUSTER_NODE_MAX) {
		memcpy(owner, rep->str, n);
		owner[n] = '\0';
	}
	if (pr->club ? cluster_club_here(cl->srv)
	             : room_find(cl->srv, pr->room) != NULL) {
		cluster_route_local(cl, h);
		return;
	}
	/* Gone for good: not the current room any more, and this node
	 * answers at once (the verb says there is no such room). */
	if (!pr->club && rep->type == REDIS_REPLY_STRING &&
	    strcmp(rep->str, CLUSTER_GONE) == 0) {
		if (strcmp(h->current, pr->room) == 0)
			h->current[0] = '\0';
		cluster_route_local(cl, h);
		return;
	}
	/* No lease, and not an unfinished room of the store: there is no
	 * such room (or it is a finished one, which the archive serves).
	 * Only a list read since the request came says so: the room was
	 * stored before its id was given out, but it may be newer than an
	 * older list, and its lease not seen yet (its node set it late). */
	if (owner[0] == '\0' && !pr->club &&
	    cl->unfinished_ms >= pr->start_ms &&
	    !cluster_room_unfinished(cl, pr->room)) {
		cluster_route_local(cl, h);
		return;
	}
	/* No owner yet, this node's own lease but not its room (a former
	 * incarnation's, or being taken), or a dead owner: wait. */
	if (owner[0] == '\0' || strcmp(owner, cl->node) == 0 ||
	    !cluster_node_alive(cl, owner)) {
		cluster_route_wait(cl, h);
		return;
	}
	cluster_route_send_req(cl, h, owner);
}

/* Ask Redis who owns h's request's room (its lease). */
static void
cluster_route_lookup(struct cluster *cl, struct route_home *h)
{
	struct route_req *pr = h->req;
	struct route_ask *ask;
	char key[CLUSTER_KEY];

	if (!cluster_redis_up(cl)) {
		cluster_route_wait(cl, h);
		return;
	}
	if (pr->club)
		snprintf(key, sizeof key, "%s", CLUSTER_CLUB_KEY);
	else
		snprintf(key, sizeof key, "room:%s:owner", pr->room);
	ask = xmalloc(sizeof *ask);
	ask->conn = pr->conn;
	ask->rseq = pr->rseq;
	pr->state = ROUTE_LOOKUP;
	if (redisAsyncCommand(
	        cl->ac, cluster_route_owner, ask, "GET %s", key) != REDIS_OK) {
		free(ask);
		cluster_route_wait(cl, h);
	}
}

/* Send line, a request of c, to the node that holds room (or the club):
 * c reads nothing more until it is answered. */
static void
cluster_route_start(struct cluster *cl, struct conn *c, const char *room,
    int club, const char *line, size_t len)
{
	struct route_home *h = cluster_route_home(c);
	struct route_req *pr = xcalloc(1, sizeof *pr + len + 1);

	pr->cl = cl;
	pr->conn = c->id;
	pr->rseq = ++h->rseq;
	pr->start_ms = clock_mono_ms();
	pr->club = club;
	snprintf(pr->room, sizeof pr->room, "%s", room);
	memcpy(pr->line, line, len);
	pr->line[len] = '\0';
	pr->len = len;
	if (!club) { /* a club verb leaves the current room as it is */
		snprintf(h->current, sizeof h->current, "%s", pr->room);
		c->current = NULL;
	}
	h->req = pr;
	TAILQ_INSERT_TAIL(&cl->inflight, h, inflight_entry);
	h->in_inflight = 1;
	h->paused = 1;
	net_pause(c);
	if (!club && strcmp(h->cache_room, pr->room) == 0 &&
	    h->cache_node[0] != '\0' && cluster_node_alive(cl, h->cache_node))
		cluster_route_send_req(cl, h, h->cache_node);
	else
		cluster_route_lookup(cl, h);
}

/* A request that cannot go now (Redis is away): refused, retryable. */
static int
cluster_route_away(struct conn *c, const struct proto_request *req)
{
	conn_error(c, req, PROTO_E_NOT_READY,
	    "this server cannot reach the rest of the cluster now; try again "
	    "in a few seconds");
	return 1;
}

int
cluster_route_forward(struct conn *c, const struct proto_request *req,
    const char *line, size_t len)
{
	struct cluster *cl = c->srv->cluster;
	struct route_home *h = c->route;
	const char *room = req->room;
	int club = cluster_route_club[req->verb];

	if (cl == NULL || (h != NULL && (h->local || h->proxy)) ||
	    c->player == NULL)
		return 0;
	/* A new room needs its lease: not while Redis is away. */
	if (req->verb == PROTO_CREATE && !cluster_redis_up(cl))
		return cluster_route_away(c, req);
	if (club && cluster_club_here(c->srv))
		return 0;
	if (club)
		room = "";
	else if (!cluster_route_verbs[req->verb])
		return 0;
	/* Without a room: the current room, when it is another node's
	 * (a room of this node made current since wins; chat without a room
	 * is to the lobby). */
	if (room == NULL && req->verb != PROTO_CHAT && c->current == NULL &&
	    h != NULL && h->current[0] != '\0')
		room = h->current;
	if (!club &&
	    (room == NULL || strlen(room) >= SERVER_ROOM_ID_MAX ||
	        room_find(c->srv, room) != NULL))
		return 0;
	if (c->guest) {
		/* A guest's name is its connection's here: no other node can
		 * stand in for it. */
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "%s is on another server of the cluster: log in (hello "
		    "NAME) to watch it there",
		    club ? "the club" : room);
		return 1;
	}
	if (!cluster_redis_up(cl))
		return cluster_route_away(c, req);
	cluster_route_start(cl, c, room, club, line, len);
	return 1;
}

int
cluster_route_bare(struct conn *c, const char *line, size_t len)
{
	struct cluster *cl = c->srv->cluster;
	struct route_home *h = c->route;

	if (cl == NULL || h == NULL || h->local || h->proxy ||
	    c->player == NULL || c->guest || c->current != NULL ||
	    h->current[0] == '\0' || room_find(c->srv, h->current) != NULL)
		return 0;
	if (!cluster_redis_up(cl))
		return cluster_route_away(c, NULL);
	cluster_route_start(cl, c, h->current, 0, line, len);
	return 1;
}

/* The owner's stand-in of c acts on room when a request names none (a
 * pairing or a round seated it there): so do c's requests from now on,
 * unless a room of this node is c's current one. */
static void
cluster_route_follow(struct route_home *h, const char *room)
{
	struct conn *c = h->c;

	if (room[0] == '\0' || strlen(room) >= SERVER_ROOM_ID_MAX ||
	    room_find(c->srv, room) != NULL || strcmp(h->current, room) == 0)
		return;
	snprintf(h->current, sizeof h->current, "%s", room);
	c->current = NULL;
}

/* A stand-in's output for c's socket: as it came, or, when the stand-in
 * wrote JSON and c reads text (an event delivered before any request
 * told the owner c's mode), each line rendered in c's mode here. */
static void
cluster_route_write(struct conn *c, const char *data, size_t len, int json)
{
	const char *p = data, *end = data + len, *nl;
	cJSON *msg;

	if (!json || c->mode != CONN_MODE_TEXT) {
		net_send(c, data, len);
		return;
	}
	while (p < end) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		if ((msg = cJSON_ParseWithLength(p, (size_t)(nl - p))) != NULL)
			net_send_msg(c, msg);
		cJSON_Delete(msg);
		p = nl + 1;
	}
}

/* Ask node for its stand-in's output from ch->next on (a gap came). */
static void
cluster_route_ask(
    struct cluster *cl, const struct route_home *h, struct route_chan *ch)
{
	char sid[CLUSTER_NUM], oseq[CLUSTER_NUM];
	const char *f[6];
	int64_t now = clock_mono_ms();

	if (ch->asked_ms != 0 && now - ch->asked_ms < CLUSTER_ROUTE_ASK_MS)
		return;
	ch->asked_ms = now;
	snprintf(sid, sizeof sid, "%llu", ch->sid);
	snprintf(oseq, sizeof oseq, "%llu", ch->next);
	f[0] = "conn", f[1] = h->key, f[2] = "sid", f[3] = sid;
	f[4] = "oseq", f[5] = oseq;
	cluster_stream_send(cl, ch->node, ch->inc, "resend", 6, f, NULL);
}

void
cluster_route_out(struct cluster *cl, const char *from, unsigned long long inc,
    const redisReply *fields)
{
	struct route_home *h =
	    cluster_route_find(cl, cluster_stream_num(fields, "conn"));
	const redisReply *data = cluster_stream_field(fields, "data");
	unsigned long long sid = cluster_stream_num(fields, "sid");
	unsigned long long oseq = cluster_stream_num(fields, "oseq");
	unsigned long long done = cluster_stream_num(fields, "done");
	struct route_chan *ch;
	struct conn *c;
	int was, answered;

	if (h == NULL || h->c->state != CONN_OPEN || data == NULL ||
	    data->type != REDIS_REPLY_STRING || sid == 0 || oseq == 0)
		return;
	c = h->c;
	ch = cluster_route_chan(h, from);
	if (ch == NULL)
		ch = cluster_route_chan_add(cl, h, from, inc);
	else if (inc < ch->inc)
		return;
	if (inc > ch->inc || sid > ch->sid) {
		/* A new incarnation of the owner, or a new stand-in there:
		 * its output is numbered from 1 (a channel made for a request
		 * before any output came knows no stand-in yet: sid 0). */
		if (inc > ch->inc || ch->sid != 0) {
			ch->next = 1;
			ch->acked = 0;
		}
		ch->inc = inc;
		ch->sid = sid;
	} else if (sid < ch->sid) {
		return; /* a stand-in replaced since */
	}
	if (oseq < ch->next)
		return; /* had it */
	if (oseq > ch->next) {
		cluster_route_ask(cl, h, ch);
		return;
	}
	ch->next++;
	if (!h->in_unacked) {
		TAILQ_INSERT_TAIL(&cl->unacked, h, unacked_entry);
		h->in_unacked = 1;
	}
	answered = h->req != NULL && h->req->state == ROUTE_SENT &&
	    strcmp(h->req->owner, from) == 0 && done >= h->req->rseq;
	cluster_route_follow(h, cluster_stream_str(fields, "room"));
	if (data->len > 0) {
		/* Committed on the owner before it was sent: not held. */
		was = cl->srv->out_free;
		cl->srv->out_free = 1;
		cluster_route_write(c, data->str, data->len,
		    strcmp(cluster_stream_str(fields, "mode"), "json") == 0);
		cl->srv->out_free = was;
	}
	/* Writing may have closed c (its output cap): h went with it. */
	if (answered && c->route == h)
		cluster_route_answered(cl, h);
}

void
cluster_route_bounce(
    struct cluster *cl, const char *from, const redisReply *fields)
{
	struct route_home *h =
	    cluster_route_find(cl, cluster_stream_num(fields, "conn"));
	struct route_req *pr = h != NULL ? h->req : NULL;

	if (pr == NULL || pr->state != ROUTE_SENT ||
	    pr->rseq != cluster_stream_num(fields, "rseq") ||
	    strcmp(pr->owner, from) != 0)
		return;
	/* Not there (the cache or the lease was stale): look again. */
	if (strcmp(h->cache_room, pr->room) == 0)
		h->cache_room[0] = '\0';
	cluster_route_wait(cl, h);
}

void
cluster_route_closed_entry(
    struct cluster *cl, const char *from, const redisReply *fields)
{
	struct route_home *h =
	    cluster_route_find(cl, cluster_stream_num(fields, "conn"));
	unsigned long long sid = cluster_stream_num(fields, "sid");
	const char *why = cluster_stream_str(fields, "why");
	struct route_chan *ch;
	struct route_req *pr;

	if (h == NULL || h->c->state != CONN_OPEN ||
	    (ch = cluster_route_chan(h, from)) == NULL ||
	    (ch->sid != 0 && sid < ch->sid))
		return;
	/* The channel stays: what came of that stand-in is acknowledged at
	 * the next tick, so the owner forgets it (its next stand-in starts
	 * the channel again). */
	if (ch->sid == 0)
		ch->sid = sid;
	if (!h->in_unacked) {
		TAILQ_INSERT_TAIL(&cl->unacked, h, unacked_entry);
		h->in_unacked = 1;
	}
	if (strcmp(h->cache_node, from) == 0)
		h->cache_room[0] = '\0';
	pr = h->req;
	if (strcmp(why, "dropped") == 0) {
		/* The owner closed the stand-in without the client hearing:
		 * it may have missed events, so it starts again. */
		log_info("cluster: %s's stand-in on node %s was dropped: "
		         "the client is told to connect again",
		    h->c->player != NULL ? h->c->player->name : "?", from);
		cluster_tell(h->c, h->current[0] != '\0' ? h->current : NULL,
		    "the server holding your game lost track of this "
		    "connection: connect again and log in with hello NAME "
		    "TOKEN");
		return;
	}
	/* Its stand-in will not answer: the room's owner now will. */
	if (pr != NULL && pr->state == ROUTE_SENT &&
	    strcmp(pr->owner, from) == 0)
		cluster_route_wait(cl, h);
}

void
cluster_route_owner_ended(
    struct cluster *cl, const char *node, unsigned long long inc)
{
	struct route_home *h, *next;

	(void)inc;
	for (h = TAILQ_FIRST(&cl->inflight); h != NULL; h = next) {
		next = TAILQ_NEXT(h, inflight_entry);
		if (h->req != NULL && h->req->state == ROUTE_SENT &&
		    strcmp(h->req->owner, node) == 0) {
			if (strcmp(h->cache_node, node) == 0)
				h->cache_room[0] = '\0';
			cluster_route_wait(cl, h);
		}
	}
}

/* Acknowledge to each owner what came from its stand-ins since. */
static void
cluster_route_acks(struct cluster *cl)
{
	char sid[CLUSTER_NUM], oseq[CLUSTER_NUM];
	struct route_home *h;
	struct route_chan *ch;
	const char *f[6];
	int i;

	while ((h = TAILQ_FIRST(&cl->unacked)) != NULL) {
		TAILQ_REMOVE(&cl->unacked, h, unacked_entry);
		h->in_unacked = 0;
		for (i = 0; i < h->nchans; i++) {
			ch = &h->chans[i];
			if (ch->next - 1 <= ch->acked || ch->sid == 0)
				continue;
			cluster_num(sid, ch->sid);
			cluster_num(oseq, ch->next - 1);
			f[0] = "conn", f[1] = h->key, f[2] = "sid", f[3] = sid;
			f[4] = "oseq", f[5] = oseq;
			cluster_stream_send(
			    cl, ch->node, ch->inc, "ack", 6, f, NULL);
			ch->acked = ch->next - 1;
		}
	}
}

void
cluster_route_tick(struct cluster *cl)
{
	struct route_home *h, *next;
	struct route_req *pr;
	int64_t now = clock_mono_ms();

	if (!cluster_redis_up(cl))
		return;
	cluster_route_acks(cl);
	for (h = TAILQ_FIRST(&cl->inflight); h != NULL; h = next) {
		next = TAILQ_NEXT(h, inflight_entry);
		pr = h->req;
		if (pr == NULL || pr->state != ROUTE_SENT ||
		    now - pr->sent_ms < CLUSTER_ROUTE_RESEND_MS)
			continue;
		if (cluster_node_alive(cl, pr->owner))
			cluster_route_send_req(cl, h, pr->owner);
		else
			cluster_route_wait(cl, h);
	}
}

void
cluster_route_back(struct cluster *cl)
{
	struct route_home *h;

	TAILQ_FOREACH(h, &cl->inflight, inflight_entry)
		if (h->req != NULL && h->req->state == ROUTE_SENT)
			cluster_route_send_req(cl, h, h->req->owner);
}

/* The entries of watchers:{room} that c stood for, gone with it: the
 * rooms of this node p watches through c. */
static void
cluster_route_unwatch(struct cluster *cl, struct conn *c)
{
	struct player *p = c->player;
	char key[CLUSTER_KEY], val[CLUSTER_KEY];
	int i;

	if (p == NULL || cl->ac == NULL)
		return;
	for (i = 0; i < p->nrooms; i++) {
		if (!room_is_watcher(p->rooms[i], p))
			continue;
		cluster_standin_watcher_val(cl, c, p, val, sizeof val);
		snprintf(key, sizeof key, "watchers:%s", p->rooms[i]->id);
		redisAsyncCommand(cl->ac, NULL, NULL, "SREM %s %s", key, val);
	}
}

void
cluster_route_closed(struct conn *c)
{
	struct cluster *cl = c->srv->cluster;
	struct route_home *h = c->route;
	int i;

	if (cl != NULL)
		cluster_route_unwatch(cl, c);
	cluster_lobby_gone(c);
	c->route = NULL;
	if (h == NULL)
		return;
	if (h->proxy) {
		cluster_standin_conn_gone(cl, c);
		free(h);
		return;
	}
	for (i = 0; cl != NULL && i < h->nchans; i++)
		cluster_route_bye(cl, h, h->chans[i].node, h->chans[i].inc);
	if (cl != NULL) {
		cluster_route_req_free(cl, h);
		if (h->in_unacked)
			TAILQ_REMOVE(&cl->unacked, h, unacked_entry);
		table_del(&cl->homes, &h->link);
	}
	free(h);
}

/* At stop: every record freed (the connections close after). */
static void
cluster_route_free_one(struct table_link *l, void *arg)
{
	struct route_home *h = TABLE_ITEM(l, struct route_home, link);
	struct cluster *cl = arg;

	cluster_route_req_free(cl, h);
	table_del(&cl->homes, l);
	h->c->route = NULL;
	free(h);
}

void
cluster_route_stop(struct cluster *cl)
{
	struct conn *c;

	table_walk(&cl->homes, cluster_route_free_one, cl);
	table_free(&cl->homes);
	TAILQ_INIT(&cl->unacked);
	TAILQ_INIT(&cl->inflight);
	/* The stand-ins' records (in no table). */
	TAILQ_FOREACH(c, &cl->srv->conns, entry)
		if (c->route != NULL) {
			free(c->route);
			c->route = NULL;
		}
}
