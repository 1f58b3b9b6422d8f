/*
 * cluster_route.c: a player on one node (its home) acting in a room that
 * another node owns (docs/SCALING.md part 3). The home node sends each
 * request line that names a room it does not hold to the owner's stream
 * (stream:{node}, found through the room's lease); the owner runs it on
 * a stand-in connection of that player, whose bufferevent is one end of a
 * pair, as a WebSocket's is (ws.c): whatever the room writes to it
 * (replies and events, in order, each once its change is committed) is
 * read off the other end and added to the home node's stream, addressed
 * to the player's connection there, which writes it to the socket. Every
 * verb and event thus runs unchanged on the owner. Nodes trust each other
 * (a private network: the owner takes the name the home node logged in).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>

#include "server/cluster/cluster.h"
#include "server/cluster/cluster_int.h"
#include "server/club/seek.h"
#include "server/cmd/cmd.h"
#include "server/club/club.h"
#include "server/net/limit.h"

/* How long one XREAD waits for entries before it is sent again (a lost
 * connection is noticed within it). */
#define CLUSTER_ROUTE_BLOCK_MS 2000
/* Entries one XREAD takes at most. */
#define CLUSTER_ROUTE_COUNT 256
/* About how many entries a stream keeps (MAXLEN ~): a node that stops
 * reading for long loses the oldest, never more memory than this. */
#define CLUSTER_ROUTE_KEEP 100000
/* The owners a home connection's requests went to, remembered to tell
 * them when it closes (more: the oldest is forgotten; its stand-in then
 * goes at its idle time). */
#define CLUSTER_ROUTE_NODES 4
/* While a room has no live owner (its node died and its lease has not
 * lapsed, or it lapsed and no node took the room yet), a request for it
 * is looked up again this often, this many times: past a lease and a
 * scan, and then it runs here (and says what is wrong). */
#define CLUSTER_ROUTE_RETRY_MS 500
#define CLUSTER_ROUTE_TRIES                                                    \
	((CLUSTER_LEASE_MS + 3 * CLUSTER_TICK_MS) / CLUSTER_ROUTE_RETRY_MS)
/* A forwarded request with no output back this long, whose owner is
 * dead by then, is routed again. */
#define CLUSTER_ROUTE_ANSWER_MS 3000

/* A remote player's stand-in connection on the owner node. */
struct route_proxy {
	struct route_proxy *next;
	struct cluster *cl;
	char home[CLUSTER_NODE_MAX + 1];
	unsigned long long home_conn;
	/* The stand-in, NULL once freed: the pair's other end may still
	 * have its last output to pass on (a deferred callback). */
	struct conn *c;
	struct bufferevent *end; /* the pair's other end: what c is sent */
	int text;     /* the stand-in's mode as last told to the home node */
	int welcomed; /* the stand-in's own welcome line was dropped */
	/* The stand-in's current room as last told to the home node. */
	char current[SERVER_ROOM_ID_MAX];
};

/* On the home node: where a connection's requests went, and its last
 * forwarded request while no output has come back for it. */
struct route_home {
	char nodes[CLUSTER_ROUTE_NODES][CLUSTER_NODE_MAX + 1];
	int n;
	/* Sent, with no output back since (oldest first, up to *sent_end). */
	struct route_pending *sent, **sent_end;
	/* The room another node owns that this connection's requests
	 * without a room act on (its last forwarded request's), "": none. */
	char current[SERVER_ROOM_ID_MAX];
	char sent_to[CLUSTER_NODE_MAX + 1];
	int64_t sent_ms;
	int local; /* running a line here that came back to this node */
	int proxy; /* the connection is another node's player's stand-in */
};

/* c's record, made when first needed. */
static struct route_home *
cluster_route_home(struct conn *c)
{
	if (c->route == NULL)
		c->route = xcalloc(1, sizeof *c->route);
	return c->route;
}

/* 1 when c is another node's player's stand-in here. */
int
cluster_route_is_standin(const struct conn *c)
{
	return c->route != NULL && c->route->proxy;
}

/* A request waiting for its room's owner (GET of the lease). */
struct route_pending {
	struct cluster *cl;
	uint64_t conn;
	int tries;                  /* lookups that found no live owner */
	int club;                   /* for the club's node, not a room's */
	struct route_pending *next; /* in route_home's sent */
	char room[SERVER_ROOM_ID_MAX];
	size_t len;
	char line[]; /* the request as the client sent it */
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

/* The verbs of the club (seeks and tournaments): run by the node that
 * holds the club's lease (cluster_club.c), whatever room they name. */
static const unsigned char cluster_route_club[PROTO_VERB_COUNT] = {
    [PROTO_SEEK] = 1,
    [PROTO_SEEKS] = 1,
    [PROTO_UNSEEK] = 1,
    [PROTO_TOURNEY] = 1,
};

/* The connection of this node with id, open, or NULL. */
static struct conn *
cluster_route_conn(struct server *srv, unsigned long long id)
{
	struct conn *c;

	TAILQ_FOREACH(c, &srv->conns, entry)
		if (c->id == id)
			return c->state == CONN_OPEN ? c : NULL;
	return NULL;
}

/* Remember that c's requests went to node. */
static void
cluster_route_remember(struct conn *c, const char *node)
{
	struct route_home *h = cluster_route_home(c);
	int i;

	for (i = 0; i < h->n; i++)
		if (strcmp(h->nodes[i], node) == 0)
			return;
	if (h->n == CLUSTER_ROUTE_NODES) {
		memmove(h->nodes[0], h->nodes[1],
		    sizeof h->nodes[0] * (CLUSTER_ROUTE_NODES - 1));
		h->n--;
	}
	snprintf(h->nodes[h->n++], sizeof h->nodes[0], "%s", node);
}

/* The most fields (names and values) of one stream entry made here. */
#define CLUSTER_ROUTE_FIELDS 14

void
cluster_route_send(struct cluster *cl, const char *node, int n,
    const char *const *argv, const size_t *lens)
{
	const char *args[CLUSTER_ROUTE_FIELDS + 6];
	size_t alen[CLUSTER_ROUTE_FIELDS + 6];
	char key[CLUSTER_KEY], keep[24];
	int i, k = 0;

	if (cl->ac == NULL || n > CLUSTER_ROUTE_FIELDS)
		return;
	snprintf(key, sizeof key, "stream:%s", node);
	snprintf(keep, sizeof keep, "%d", CLUSTER_ROUTE_KEEP);
	args[k++] = "XADD";
	args[k++] = key;
	args[k++] = "MAXLEN";
	args[k++] = "~";
	args[k++] = keep;
	args[k++] = "*";
	for (i = 0; i < n; i++)
		args[k++] = argv[i];
	for (i = 0; i < k; i++)
		alen[i] = i >= 6 && lens != NULL && lens[i - 6] != (size_t)-1
		    ? lens[i - 6]
		    : strlen(args[i]);
	redisAsyncCommandArgv(cl->ac, NULL, NULL, k, args, alen);
}

static void cluster_route_lookup(struct route_pending *pr);
static void cluster_route_proxy_gone(struct cluster *cl, struct conn *c);
static void cluster_route_proxy_note(struct route_proxy *px);
static void cluster_route_send_line(struct cluster *cl, struct conn *c,
    const char *room, int club, const char *line, size_t len);

/* The requests of h in flight are answered: forgotten. */
static void
cluster_route_answered(struct route_home *h)
{
	struct route_pending *pr;

	while ((pr = h->sent) != NULL) {
		h->sent = pr->next;
		free(pr);
	}
}

/* Look the owner up again later (the timer of a request waiting). */
static void
cluster_route_retry(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	cluster_route_lookup(arg);
}

/* Run pr's line here and free it (the room is here, or nobody else owns
 * it: the verb then says what is wrong). */
static void
cluster_route_local(struct conn *c, struct route_pending *pr)
{
	/* c lives until the reaper, after this returns */
	cluster_route_home(c)->local = 1;
	session_line(c, pr->line, pr->len);
	c->route->local = 0;
	free(pr);
}

/* Send pr to its room's owner and keep it as c's request in flight. */
static void
cluster_route_send_req(struct cluster *cl, struct conn *c,
    struct route_pending *pr, const char *owner)
{
	struct route_home *h;
	const char *f[CLUSTER_ROUTE_FIELDS];
	size_t lens[CLUSTER_ROUTE_FIELDS];
	char id[24];
	int i;

	snprintf(id, sizeof id, "%llu", (unsigned long long)c->id);
	f[0] = "t", f[1] = "req";
	f[2] = "from", f[3] = cl->node;
	f[4] = "conn", f[5] = id;
	f[6] = "name", f[7] = c->player->name;
	f[8] = "mode", f[9] = c->mode == CONN_MODE_TEXT ? "text" : "json";
	f[10] = "room", f[11] = pr->room;
	f[12] = "line", f[13] = pr->line;
	for (i = 0; i < CLUSTER_ROUTE_FIELDS; i++)
		lens[i] = (size_t)-1;
	lens[13] = pr->len;
	cluster_route_send(cl, owner, CLUSTER_ROUTE_FIELDS, f, lens);
	cluster_route_remember(c, owner);
	h = c->route;
	if (h->sent == NULL)
		h->sent_end = &h->sent;
	pr->next = NULL;
	*h->sent_end = pr;
	h->sent_end = &pr->next;
	pr->tries = 0;
	snprintf(h->sent_to, sizeof h->sent_to, "%s", owner);
	h->sent_ms = clock_mono_ms();
}

/* The lease of a room answered: send the request to its owner; wait when
 * the owner is dead or there is none yet; run it here when the room is
 * here or, after waiting, nobody owns it. */
static void
cluster_route_owner(redisAsyncContext *ac, void *reply, void *arg)
{
	struct route_pending *pr = arg;
	struct cluster *cl = ac->data;
	redisReply *rep = reply;
	char owner[CLUSTER_NODE_MAX + 1];
	struct timeval tv = {0, CLUSTER_ROUTE_RETRY_MS * 1000};
	const char *colon;
	struct conn *c;
	size_t n;

	c = cl != NULL ? cluster_route_conn(cl->srv, pr->conn) : NULL;
	if (c == NULL || c->player == NULL) {
		free(pr);
		return;
	}
	owner[0] = '\0';
	if (rep != NULL && rep->type == REDIS_REPLY_STRING &&
	    (colon = strrchr(rep->str, ':')) != NULL &&
	    (n = (size_t)(colon - rep->str)) <= CLUSTER_NODE_MAX) {
		memcpy(owner, rep->str, n);
		owner[n] = '\0';
	}
	if (strcmp(owner, cl->node) == 0 ||
	    (pr->club ? cluster_club_here(cl->srv)
	              : room_find(cl->srv, pr->room) != NULL)) {
		cluster_route_local(c, pr);
		return;
	}
	/* Gone for good: not the current room any more, and this node
	 * answers at once (the verb says there is no such room). */
	if (!pr->club && rep != NULL && rep->type == REDIS_REPLY_STRING &&
	    strcmp(rep->str, CLUSTER_GONE) == 0) {
		if (c->route != NULL &&
		    strcmp(c->route->current, pr->room) == 0)
			c->route->current[0] = '\0';
		cluster_route_local(c, pr);
		return;
	}
	if (owner[0] == '\0' || !cluster_node_alive(cl, owner)) {
		if (++pr->tries >= CLUSTER_ROUTE_TRIES) {
			cluster_route_local(c, pr);
			return;
		}
		if (event_base_once(cl->srv->base, -1, EV_TIMEOUT,
		        cluster_route_retry, pr, &tv) != 0)
			cluster_route_local(c, pr);
		return;
	}
	cluster_route_send_req(cl, c, pr, owner);
}

/* Ask Redis who owns pr's room (its lease). */
static void
cluster_route_lookup(struct route_pending *pr)
{
	struct cluster *cl = pr->cl;
	char key[CLUSTER_KEY];

	if (pr->club)
		snprintf(key, sizeof key, "%s", CLUSTER_CLUB_KEY);
	else
		snprintf(key, sizeof key, "room:%s:owner", pr->room);
	if (cl->ac == NULL ||
	    redisAsyncCommand(cl->ac, cluster_route_owner, pr, "GET %s", key) !=
	        REDIS_OK)
		free(pr);
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
	    c->player == NULL || cl->ac == NULL)
		return 0;
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
	cluster_route_home(c);
	cluster_route_send_line(cl, c, room, club, line, len);
	return 1;
}

/* Send line, a request of c, to the node that holds room (or the club). */
static void
cluster_route_send_line(struct cluster *cl, struct conn *c, const char *room,
    int club, const char *line, size_t len)
{
	struct route_home *h = c->route;
	struct route_pending *pr = xmalloc(sizeof *pr + len + 1);

	pr->cl = cl;
	pr->conn = c->id;
	pr->tries = 0;
	pr->club = club;
	snprintf(pr->room, sizeof pr->room, "%s", room);
	memcpy(pr->line, line, len);
	pr->line[len] = '\0';
	pr->len = len;
	if (!club) { /* a club verb leaves the current room as it is */
		snprintf(h->current, sizeof h->current, "%s", pr->room);
		c->current = NULL;
	}
	cluster_route_lookup(pr);
}

int
cluster_route_bare(struct conn *c, const char *line, size_t len)
{
	struct cluster *cl = c->srv->cluster;
	struct route_home *h = c->route;

	if (cl == NULL || h == NULL || h->local || h->proxy ||
	    c->player == NULL || cl->ac == NULL || c->current != NULL ||
	    h->current[0] == '\0' || room_find(c->srv, h->current) != NULL)
		return 0;
	cluster_route_send_line(cl, c, h->current, 0, line, len);
	return 1;
}

void
cluster_route_tick(struct cluster *cl)
{
	struct route_pending *pr;
	struct route_home *h;
	struct conn *c;
	int64_t now = clock_mono_ms();

	TAILQ_FOREACH(c, &cl->srv->conns, entry) {
		if ((h = c->route) == NULL || h->sent == NULL ||
		    now - h->sent_ms < CLUSTER_ROUTE_ANSWER_MS ||
		    cluster_node_alive(cl, h->sent_to))
			continue;
		/* Its owner died with them unanswered: their rooms' next
		 * owners run them, in order (a move it had stored is then
		 * refused, as played). */
		log_info("cluster: node %s died; %s's requests go to their "
		         "rooms' next owners",
		    h->sent_to, c->player != NULL ? c->player->name : "?");
		while ((pr = h->sent) != NULL) {
			h->sent = pr->next;
			cluster_route_lookup(pr);
		}
	}
}

void
cluster_route_closed(struct conn *c)
{
	struct cluster *cl = c->srv->cluster;
	struct route_home *h = c->route;
	const char *f[6];
	char id[24];
	int i;

	cluster_lobby_gone(c);
	c->route = NULL;
	if (h == NULL)
		return;
	if (h->proxy)
		cluster_route_proxy_gone(cl, c);
	cluster_route_answered(h);
	snprintf(id, sizeof id, "%llu", (unsigned long long)c->id);
	f[0] = "t", f[1] = "bye", f[2] = "from", f[4] = "conn", f[5] = id;
	for (i = 0; cl != NULL && i < h->n; i++) {
		f[3] = cl->node;
		cluster_route_send(cl, h->nodes[i], 6, f, NULL);
	}
	free(h);
}

/* A stand-in's connection is about to be freed: its proxy keeps what
 * the output still to come needs (its mode and room), not the pointer. */
static void
cluster_route_proxy_gone(struct cluster *cl, struct conn *c)
{
	struct route_proxy *px;

	for (px = cl != NULL ? cl->proxies : NULL; px != NULL; px = px->next)
		if (px->c == c) {
			cluster_route_proxy_note(px);
			px->c = NULL;
			return;
		}
}

/* Unlink and free a stand-in (its connection is closed or freed). */
static void
cluster_route_proxy_free(struct route_proxy *px)
{
	struct route_proxy **pp;

	for (pp = &px->cl->proxies; *pp != NULL; pp = &(*pp)->next)
		if (*pp == px) {
			*pp = px->next;
			break;
		}
	bufferevent_free(px->end);
	free(px);
}

/* Note the stand-in's mode and current room while it lives. */
static void
cluster_route_proxy_note(struct route_proxy *px)
{
	if (px->c == NULL)
		return;
	px->text = px->c->mode == CONN_MODE_TEXT;
	if (px->c->current != NULL)
		snprintf(
		    px->current, sizeof px->current, "%s", px->c->current->id);
}

/* What the owner sent a stand-in: to the home node, for its socket. */
static void
cluster_route_end_read(struct bufferevent *bev, void *arg)
{
	struct route_proxy *px = arg;
	struct evbuffer *in = bufferevent_get_input(bev);
	size_t len = evbuffer_get_length(in);
	const char *f[10];
	size_t lens[10];
	char id[24];

	if (!px->welcomed) {
		/* The welcome is the home node's to send, and it did: the
		 * stand-in's own (its first line) goes nowhere. */
		struct evbuffer_ptr eol = evbuffer_search(in, "\n", 1, NULL);

		if (eol.pos < 0)
			return;
		evbuffer_drain(in, (size_t)eol.pos + 1);
		px->welcomed = 1;
		len = evbuffer_get_length(in);
	}
	if (len == 0)
		return;
	snprintf(id, sizeof id, "%llu", px->home_conn);
	cluster_route_proxy_note(px);
	lens[0] = lens[1] = lens[2] = lens[3] = lens[4] = lens[6] = lens[7] =
	    lens[8] = lens[9] = (size_t)-1;
	lens[5] = len;
	f[0] = "t", f[1] = "out", f[2] = "conn", f[3] = id, f[4] = "data";
	f[5] = (const char *)evbuffer_pullup(in, -1);
	/* How it was written (a stand-in made to deliver an event writes
	 * JSON until a request tells it the mode), and the room its
	 * requests without one act on (a pairing's, a round's). */
	f[6] = "mode", f[7] = px->text ? "text" : "json";
	f[8] = "room", f[9] = px->current;
	cluster_route_send(px->cl, px->home, 10, f, lens);
	evbuffer_drain(in, len);
}

/* The stand-in closed (the room moved away, its home connection
 * closed): what it had sent before goes, then it is forgotten. The home
 * connection stays: its next request finds the room's owner again. */
static void
cluster_route_end_event(struct bufferevent *bev, short what, void *arg)
{
	struct route_proxy *px = arg;

	(void)bev;
	if (!(what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)))
		return;
	cluster_route_end_read(px->end, px);
	cluster_route_proxy_free(px);
}

/* The stand-in of (home, conn), made and logged in as name when new. */
static struct route_proxy *
cluster_route_proxy(struct cluster *cl, const char *home,
    unsigned long long conn, const char *name)
{
	struct server *srv = cl->srv;
	struct bufferevent *pair[2];
	struct route_proxy *px;
	struct limit_entry *lim;
	struct player *p;
	char key[SERVER_LIMIT_KEY], addr[64];
	struct conn *old;

	for (px = cl->proxies; px != NULL; px = px->next)
		if (px->home_conn == conn && strcmp(px->home, home) == 0 &&
		    px->c != NULL && px->c->state == CONN_OPEN)
			return px;
	if (!player_name_valid(name) ||
	    bufferevent_pair_new(srv->base, BEV_OPT_DEFER_CALLBACKS, pair) != 0)
		return NULL;
	snprintf(key, sizeof key, "x:%.32s/%llu", home, conn);
	snprintf(addr, sizeof addr, "node %.40s conn %llu", home, conn);
	lim = limit_get(srv, key);
	px = xcalloc(1, sizeof *px);
	px->cl = cl;
	snprintf(px->home, sizeof px->home, "%s", home);
	px->home_conn = conn;
	px->end = pair[1];
	px->c = net_conn_new(srv, pair[0], addr, lim, NET_RELAY);
	cluster_route_home(px->c)->proxy = 1;
	bufferevent_setcb(
	    pair[1], cluster_route_end_read, NULL, cluster_route_end_event, px);
	bufferevent_enable(pair[1], EV_READ | EV_WRITE);
	px->next = cl->proxies;
	cl->proxies = px;
	/* Logged in as the home node says (nodes trust each other). */
	p = player_get(srv, name);
	if (p->conn != NULL && cluster_route_is_standin(p->conn)) {
		/* An older stand-in of the name (closing, or of its former
		 * home): it goes quietly, the player stays. */
		old = p->conn;
		old->player = NULL;
		old->current = NULL;
		p->conn = NULL;
		net_close(old, 0);
	}
	player_replace(p);
	p->conn = px->c;
	px->c->player = p;
	px->c->lim_name = limit_name(srv, p->name);
	if (px->c->lim_name != NULL)
		px->c->lim_name->refs++;
	/* No idle timer: the home connection has its own, and a stand-in
	 * closes with it (bye). */
	if (px->c->idle != NULL)
		evtimer_del(px->c->idle);
	log_info("cluster: %s of node %s plays here (conn %llu)", name, home,
	    (unsigned long long)px->c->id);
	if (cluster_club_here(srv)) /* the player is here: their seeks too */
		seek_logged_in(srv, p);
	return px;
}

struct conn *
cluster_route_standin(struct cluster *cl, const char *home,
    unsigned long long conn, const char *name)
{
	struct route_proxy *px = cluster_route_proxy(cl, home, conn, name);

	return px != NULL ? px->c : NULL;
}

/* The value of field name in a stream entry's field array, or NULL. */
static const redisReply *
cluster_route_field(const redisReply *fields, const char *name)
{
	size_t i;

	for (i = 0; i + 1 < fields->elements; i += 2)
		if (fields->element[i]->type == REDIS_REPLY_STRING &&
		    strcmp(fields->element[i]->str, name) == 0)
			return fields->element[i + 1];
	return NULL;
}

/* The string of field name, or "" when missing. */
static const char *
cluster_route_str(const redisReply *fields, const char *name)
{
	const redisReply *v = cluster_route_field(fields, name);

	return v != NULL && v->type == REDIS_REPLY_STRING ? v->str : "";
}

/* The owner's stand-in of c acts on room when a request names none (a
 * pairing or a round seated it there): so do c's requests from now on,
 * unless a room of this node is c's current one. */
static void
cluster_route_follow(struct conn *c, const char *room)
{
	struct route_home *h;

	if (room[0] == '\0' || strlen(room) >= SERVER_ROOM_ID_MAX ||
	    room_find(c->srv, room) != NULL)
		return;
	h = cluster_route_home(c);
	if (strcmp(h->current, room) == 0)
		return;
	snprintf(h->current, sizeof h->current, "%s", room);
	c->current = NULL;
}

/* A stand-in's output for c's socket: as it came, or, when the stand-in
 * wrote JSON and c reads text (an event delivered before any request
 * told the owner c's mode), each line rendered in c's mode here. */
static void
cluster_route_out(struct conn *c, const char *data, size_t len, int json)
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

/* One entry of this node's stream. */
static void
cluster_route_entry(struct cluster *cl, const redisReply *fields)
{
	const char *t = cluster_route_str(fields, "t");
	unsigned long long id =
	    strtoull(cluster_route_str(fields, "conn"), NULL, 10);
	const redisReply *data;
	struct route_proxy *px;
	struct room *r;
	struct conn *c;
	int was;

	if (strcmp(t, "req") == 0) {
		data = cluster_route_field(fields, "line");
		px = cluster_route_proxy(cl, cluster_route_str(fields, "from"),
		    id, cluster_route_str(fields, "name"));
		if (px == NULL || data == NULL ||
		    data->type != REDIS_REPLY_STRING)
			return;
		/* A request without a room acts on the room the home node
		 * forwards it for (a stand-in made since knows none). */
		if ((r = room_find(
		         cl->srv, cluster_route_str(fields, "room"))) != NULL)
			px->c->current = r;
		px->c->mode =
		    strcmp(cluster_route_str(fields, "mode"), "text") == 0
		    ? CONN_MODE_TEXT
		    : CONN_MODE_JSON;
		session_line(px->c, data->str, data->len);
	} else if (strcmp(t, "out") == 0) {
		data = cluster_route_field(fields, "data");
		if ((c = cluster_route_conn(cl->srv, id)) == NULL ||
		    data == NULL || data->type != REDIS_REPLY_STRING)
			return;
		if (c->route != NULL) /* output came back: the owner lives */
			cluster_route_answered(c->route);
		cluster_route_follow(c, cluster_route_str(fields, "room"));
		/* Committed on the owner before it was sent: not held. */
		was = cl->srv->out_free;
		cl->srv->out_free = 1;
		cluster_route_out(c, data->str, data->len,
		    strcmp(cluster_route_str(fields, "mode"), "json") == 0);
		cl->srv->out_free = was;
	} else if (strcmp(t, "tend") == 0) {
		cluster_club_ended(cl, cluster_route_str(fields, "room"),
		    cluster_route_str(fields, "winner"),
		    cluster_route_str(fields, "reason"));
	} else if (strcmp(t, "kick") == 0) {
		cluster_lobby_kick(cl, cluster_route_str(fields, "name"), id);
	} else if (strcmp(t, "bye") == 0) {
		for (px = cl->proxies; px != NULL; px = px->next)
			if (px->c != NULL && px->c->state == CONN_OPEN &&
			    px->home_conn == id &&
			    strcmp(px->home,
			        cluster_route_str(fields, "from")) == 0)
				net_close(px->c, 0);
	}
}

/* XREAD answered: every entry in order, then read on. */
static void
cluster_route_got(redisAsyncContext *ac, void *reply, void *arg)
{
	struct cluster *cl = ac->data;
	redisReply *rep = reply, *entries, *e;
	size_t i;

	(void)arg;
	if (cl == NULL || rep == NULL)
		return;
	if (rep->type == REDIS_REPLY_ARRAY && rep->elements == 1 &&
	    rep->element[0]->type == REDIS_REPLY_ARRAY &&
	    rep->element[0]->elements == 2) {
		entries = rep->element[0]->element[1];
		for (i = 0; i < entries->elements; i++) {
			e = entries->element[i];
			if (e->type != REDIS_REPLY_ARRAY || e->elements != 2 ||
			    e->element[0]->type != REDIS_REPLY_STRING)
				continue;
			snprintf(cl->last_id, sizeof cl->last_id, "%s",
			    e->element[0]->str);
			if (e->element[1]->type == REDIS_REPLY_ARRAY)
				cluster_route_entry(cl, e->element[1]);
		}
	} else if (rep->type == REDIS_REPLY_ERROR) {
		log_warn("cluster: reading stream:%s: %s", cl->node, rep->str);
	}
	cluster_route_read(cl);
}

void
cluster_route_read(struct cluster *cl)
{
	char key[CLUSTER_KEY];

	if (cl->rd == NULL)
		return;
	snprintf(key, sizeof key, "stream:%s", cl->node);
	redisAsyncCommand(cl->rd, cluster_route_got, NULL,
	    "XREAD COUNT %d BLOCK %d STREAMS %s %s", CLUSTER_ROUTE_COUNT,
	    CLUSTER_ROUTE_BLOCK_MS, key, cl->last_id);
}

void
cluster_route_stop(struct cluster *cl)
{
	while (cl->proxies != NULL)
		cluster_route_proxy_free(cl->proxies);
}

int
cluster_route_home_of(const struct cluster *cl, const struct conn *c,
    const char **home, unsigned long long *id)
{
	const struct route_proxy *px;

	for (px = cl->proxies; px != NULL; px = px->next)
		if (px->c == c) {
			*home = px->home;
			*id = px->home_conn;
			return 0;
		}
	return -1;
}

/* The watchers of a room just taken (arg: its id): each watches it here,
 * its own connection when its home is this node, else a stand-in. */
static void
cluster_route_watchers_got(redisAsyncContext *ac, void *reply, void *arg)
{
	struct cluster *cl = ac->data;
	redisReply *rep = reply;
	char home[CLUSTER_NODE_MAX + 1], name[SERVER_NAME_MAX + 1];
	unsigned long long id;
	struct route_proxy *px;
	struct conn *c;
	struct room *r;
	size_t i;

	r = cl != NULL ? room_find(cl->srv, arg) : NULL;
	free(arg);
	if (r == NULL || rep == NULL || rep->type != REDIS_REPLY_ARRAY)
		return;
	for (i = 0; i < rep->elements; i++) {
		if (rep->element[i]->type != REDIS_REPLY_STRING ||
		    sscanf(rep->element[i]->str, "%64[^|]|%llu|%16s", home, &id,
		        name) != 3)
			continue;
		c = NULL;
		if (strcmp(home, cl->node) == 0)
			c = cluster_route_conn(cl->srv, id);
		else if (cluster_node_alive(cl, home) &&
		    (px = cluster_route_proxy(cl, home, id, name)) != NULL)
			c = px->c;
		if (c != NULL && c->player != NULL &&
		    strcmp(c->player->name, name) == 0 &&
		    room_seat_of(r, c->player) < 0)
			room_add_watcher(r, c->player);
	}
}

void
cluster_route_watchers(struct cluster *cl, struct room *r)
{
	char key[CLUSTER_KEY];

	if (cl->ac == NULL)
		return;
	snprintf(key, sizeof key, "watchers:%s", r->id);
	redisAsyncCommand(cl->ac, cluster_route_watchers_got, xstrdup(r->id),
	    "SMEMBERS %s", key);
}

void
cluster_route_room_gone(struct cluster *cl, const struct room *r)
{
	struct route_proxy *px;

	for (px = cl->proxies; px != NULL; px = px->next)
		if (px->c != NULL && px->c->current == r)
			px->c->current = NULL;
}

/* A room taken with one of its players back: recovery adjourned it
 * (everyone starts away); it goes on, with any forced pass. */
static void
cluster_route_resume(struct room *r)
{
	if (r->status != ROOM_ADJOURNED)
		return;
	r->status = ROOM_PLAYING;
	r->turn_start_ms = clock_mono_ms();
	room_save(r);
	room_after_move(r);
}

/* A seated player's presence (arg: "room|name"): on another node, a
 * stand-in of that connection sits back in the seat (its login does). */
static void
cluster_route_seat_got(redisAsyncContext *ac, void *reply, void *arg)
{
	struct cluster *cl = ac->data;
	redisReply *rep = reply;
	char home[CLUSTER_NODE_MAX + 1], *name = strchr(arg, '|');
	unsigned long long id;
	struct room *r;
	int seat;

	if (cl != NULL && name != NULL && rep != NULL &&
	    rep->type == REDIS_REPLY_STRING &&
	    sscanf(rep->str, "%64[^:]:%llu", home, &id) == 2 &&
	    strcmp(home, cl->node) != 0 && cluster_node_alive(cl, home) &&
	    cluster_route_proxy(cl, home, id, name + 1) != NULL) {
		*name = '\0';
		r = room_find(cl->srv, arg);
		seat = r != NULL
		    ? room_seat_of(r, player_find(cl->srv, name + 1))
		    : -1;
		if (seat >= 0) {
			r->seats[seat].gone = 0;
			cluster_route_resume(r);
		}
	}
	free(arg);
}

void
cluster_route_seats(struct cluster *cl, struct room *r)
{
	char key[CLUSTER_KEY], val[CLUSTER_KEY];
	struct player *p;
	int i;

	for (i = 0; i < r->g->seats; i++) {
		if ((p = r->seats[i].player) == NULL)
			continue;
		if (p->conn != NULL) {
			/* Never away: only the room moved (no event, so the
			 * room's seq is the one the player knows). */
			r->seats[i].gone = 0;
			cluster_route_resume(r);
			continue;
		}
		if (cl->ac == NULL)
			continue;
		snprintf(key, sizeof key, "online:%s", p->name);
		snprintf(val, sizeof val, "%s|%s", r->id, p->name);
		redisAsyncCommand(cl->ac, cluster_route_seat_got, xstrdup(val),
		    "GET %s", key);
	}
}
