/*
 * cluster_standin.c: another node's player acting in a room this node
 * owns (docs/SCALING.md part 3). The owner runs each request the player's
 * home node sends (a "req" entry) on a stand-in connection of that
 * player, whose bufferevent is one end of a pair, as a WebSocket's is
 * (ws.c): whatever the room writes to it (replies and events, in order,
 * each once its change is committed) is read off the other end and sent
 * to the home node's stream, for the player's connection there. Every
 * verb and event thus runs unchanged on the owner.
 *
 * A stand-in is keyed by the home node, its incarnation and the home
 * connection's id, so a restarted home's new connections, whose ids start
 * at 1 again, are strangers to the old ones' stand-ins (which close when
 * that incarnation is over: cluster_node.c). Requests carry the home's
 * number (rseq): one already run is not run again. The stand-in's output
 * goes out numbered (oseq), each entry with the newest request whose
 * reply it holds or follows (done: a marker line the stand-in is sent
 * after each request's reply, through held.c, so it comes out behind the
 * reply), and stays in memory until the home acknowledges it; the home
 * asks for what it missed, and everything unacknowledged is sent again
 * when Redis comes back. A request for a room this node does not hold is
 * not run: the home hears "bounce" and asks the room's owner again.
 * Nodes trust each other (a private network, Redis behind AUTH): the
 * owner takes the name the home node logged in.
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

/* Output unacknowledged this long was lost on the way (the home
 * acknowledges every tick): it is sent again. */
#define CLUSTER_STANDIN_RESEND_MS (3 * CLUSTER_TICK_MS)
/* How long a closed stand-in's unacknowledged output is kept for its
 * home to ask for again: a Redis outage the cluster rides out, and the
 * ticks to notice Redis is back. */
#define CLUSTER_STANDIN_LINGER_MS 30000
/* The marker written to a stand-in after a request's reply: a line that
 * starts with a NUL byte, which no reply or event has (JSON escapes
 * control characters, text mode shows them as <U+0000>). */
#define CLUSTER_STANDIN_MARK '\0'

/* Output of a stand-in not yet acknowledged by its home. */
struct standin_out {
	struct standin_out *next;
	unsigned long long oseq, done;
	int64_t sent_ms; /* last sent */
	int text;
	char room[SERVER_ROOM_ID_MAX];
	size_t len;
	char data[];
};

/* A remote player's stand-in connection on the owner node. */
struct standin {
	struct standin *next;
	struct cluster *cl;
	char home[CLUSTER_NODE_MAX + 1];
	unsigned long long inc;  /* the home's incarnation */
	unsigned long long conn; /* the connection's id there */
	unsigned long long sid;  /* the stand-in's id here */
	/* The stand-in, NULL once freed: the pair's other end may still
	 * have its last output to pass on (a deferred callback). */
	struct conn *c;
	struct bufferevent *end; /* the pair's other end: what c is sent */
	int text;     /* the stand-in's mode as last told to the home node */
	int welcomed; /* the stand-in's own welcome line was dropped */
	/* The stand-in's current room as last told to the home node. */
	char current[SERVER_ROOM_ID_MAX];
	unsigned long long last_rseq;       /* the newest request run */
	unsigned long long due;             /* run, its reply still to come */
	unsigned long long done;            /* the newest request replied */
	unsigned long long done_sent;       /* ... as last sent */
	unsigned long long oseq;            /* the last output numbered */
	struct standin_out *out, **out_end; /* unacknowledged, oldest first */
	size_t out_bytes;
	int closed;    /* its connection is gone */
	int home_over; /* nobody will acknowledge: freed once closed */
	int64_t closed_ms;
	/* Told to the home when it closes: "quiet" (the home closed it, or
	 * a newer stand-in took over), "dropped" (closed here without the
	 * client hearing why: it may have missed output), "told" (the
	 * client was told why, as reconnect or replaced). */
	const char *why;
	/* In cl->standin_index by "home|inc|conn" while it is the newest
	 * stand-in of that connection: the only one that can be open, and
	 * the one requests and acknowledgements name, found without a walk
	 * of every stand-in. */
	struct table_link link;
	char key[CLUSTER_STANDIN_KEY];
	int indexed;
};

/* Send one numbered output entry to px's home. */
static void
cluster_standin_send_out(struct standin *px, struct standin_out *o)
{
	char conn[CLUSTER_NUM], sid[CLUSTER_NUM], oseq[CLUSTER_NUM],
	    done[CLUSTER_NUM];
	const char *f[14];
	size_t lens[14];
	int i;

	cluster_num(conn, px->conn);
	cluster_num(sid, px->sid);
	cluster_num(oseq, o->oseq);
	cluster_num(done, o->done);
	f[0] = "conn", f[1] = conn, f[2] = "sid", f[3] = sid;
	f[4] = "oseq", f[5] = oseq, f[6] = "done", f[7] = done;
	f[8] = "data", f[9] = o->data;
	/* How it was written (a stand-in made to deliver an event writes
	 * JSON until a request tells it the mode), and the room its
	 * requests without one act on (a pairing's, a round's). */
	f[10] = "mode", f[11] = o->text ? "text" : "json";
	f[12] = "room", f[13] = o->room;
	for (i = 0; i < 14; i++)
		lens[i] = (size_t)-1;
	lens[9] = o->len;
	cluster_stream_send(px->cl, px->home, px->inc, "out", 14, f, lens);
	o->sent_ms = clock_mono_ms();
}

/* Tell px's home that the stand-in closed, and why. */
static void
cluster_standin_send_closed(struct standin *px)
{
	char conn[CLUSTER_NUM], sid[CLUSTER_NUM];
	const char *f[6];

	snprintf(conn, sizeof conn, "%llu", px->conn);
	snprintf(sid, sizeof sid, "%llu", px->sid);
	f[0] = "conn", f[1] = conn, f[2] = "sid", f[3] = sid;
	f[4] = "why", f[5] = px->why != NULL ? px->why : "told";
	cluster_stream_send(px->cl, px->home, px->inc, "closed", 6, f, NULL);
}

/* Unlink and free a stand-in (its connection is closed or freed). */
static void
cluster_standin_free(struct standin *px)
{
	struct standin **pp;
	struct standin_out *o;

	for (pp = &px->cl->standins; *pp != NULL; pp = &(*pp)->next)
		if (*pp == px) {
			*pp = px->next;
			break;
		}
	if (px->indexed)
		table_del(&px->cl->standin_index, &px->link);
	while ((o = px->out) != NULL) {
		px->out = o->next;
		free(o);
	}
	bufferevent_free(px->end);
	free(px);
}

/* Note the stand-in's mode and current room while it lives. */
static void
cluster_standin_note(struct standin *px)
{
	if (px->c == NULL)
		return;
	px->text = px->c->mode == CONN_MODE_TEXT;
	if (px->c->current != NULL)
		snprintf(
		    px->current, sizeof px->current, "%s", px->c->current->id);
}

/* A new output record with room for cap bytes of data (and a NUL). */
static struct standin_out *
cluster_standin_out_new(size_t cap)
{
	return xmalloc(sizeof(struct standin_out) + cap + 1);
}

/* Output o (its first len bytes of data written; len may be 0 when only
 * done moved on, and o is freed when nothing did) for the home:
 * numbered, kept until acknowledged, sent. Past the output cap of a
 * connection, the home is not keeping up: the stand-in closes. */
static void
cluster_standin_push(struct standin *px, struct standin_out *o, size_t len)
{
	size_t room = strlen(px->current);

	if (len == 0 && px->done == px->done_sent) {
		free(o);
		return;
	}
	o->next = NULL;
	o->oseq = ++px->oseq;
	o->done = px->done_sent = px->done;
	o->text = px->text;
	memcpy(o->room, px->current, room + 1);
	o->len = len;
	o->data[len] = '\0';
	if (px->out == NULL)
		px->out_end = &px->out;
	*px->out_end = o;
	px->out_end = &o->next;
	px->out_bytes += sizeof *o + len;
	cluster_standin_send_out(px, o);
	if (px->out_bytes > px->cl->srv->cfg.output_max && px->c != NULL &&
	    px->c->state == CONN_OPEN) {
		log_warn(
		    "cluster: %s of node %s: %zu bytes its home has not "
		    "acknowledged (--max-output %zu): closing its stand-in",
		    px->c->player != NULL ? px->c->player->name : "?", px->home,
		    px->out_bytes, px->cl->srv->cfg.output_max);
		px->why = "dropped";
		net_close(px->c, 0);
	}
}

/* Output of len bytes of data for the home (cluster_standin_push). */
static void
cluster_standin_emit(struct standin *px, const char *data, size_t len)
{
	struct standin_out *o;

	if (len == 0 && px->done == px->done_sent)
		return;
	o = cluster_standin_out_new(len);
	memcpy(o->data, data, len);
	cluster_standin_push(px, o, len);
}

/* Everything unacknowledged from oseq from on, sent again. */
static void
cluster_standin_replay(struct standin *px, unsigned long long from)
{
	struct standin_out *o;

	for (o = px->out; o != NULL; o = o->next)
		if (o->oseq >= from)
			cluster_standin_send_out(px, o);
}

/* The home has every output up to oseq n: forgotten here. */
static void
cluster_standin_acked(struct standin *px, unsigned long long n)
{
	struct standin_out *o;

	while ((o = px->out) != NULL && o->oseq <= n) {
		px->out = o->next;
		px->out_bytes -= sizeof *o + o->len;
		free(o);
	}
}

static void cluster_standin_mark(struct standin *px, unsigned long long n);

/* What the owner sent a stand-in: numbered, to the home node, for its
 * socket; the markers taken out (each says its request is replied). */
static void
cluster_standin_end_read(struct bufferevent *bev, void *arg)
{
	struct standin *px = arg;
	struct evbuffer *in = bufferevent_get_input(bev);
	size_t len, i = 0, k = 0, used;
	const char *data, *nl, *mark;
	struct standin_out *o;
	char *clean;

	if (!px->welcomed) {
		/* The welcome is the home node's to send, and it did: the
		 * stand-in's own (its first line) goes nowhere. */
		struct evbuffer_ptr eol = evbuffer_search(in, "\n", 1, NULL);

		if (eol.pos < 0)
			return;
		evbuffer_drain(in, (size_t)eol.pos + 1);
		px->welcomed = 1;
	}
	len = evbuffer_get_length(in);
	if (len == 0)
		return;
	data = (const char *)evbuffer_pullup(in, -1);
	/* the markers taken out as it is copied into its output record */
	o = cluster_standin_out_new(len);
	clean = o->data;
	used = len;
	while (i < len) {
		size_t run;

		if (data[i] == CLUSTER_STANDIN_MARK) {
			unsigned long long n;

			if ((nl = memchr(data + i, '\n', len - i)) == NULL) {
				used = i; /* a marker not whole yet */
				break;
			}
			n = i + 1 < len && data[i + 1] == 'R'
			    ? strtoull(data + i + 2, NULL, 10)
			    : 0;
			if (n > px->done)
				px->done = n;
			i = (size_t)(nl - data) + 1;
			continue;
		}
		mark = memchr(data + i, CLUSTER_STANDIN_MARK, len - i);
		run = mark != NULL ? (size_t)(mark - (data + i)) : len - i;
		memcpy(clean + k, data + i, run);
		k += run;
		i += run;
	}
	cluster_standin_note(px);
	cluster_standin_push(px, o, k);
	evbuffer_drain(in, used);
	/* A reply that came late (a hint's) is out: its marker follows. */
	if (px->due != 0 && px->c != NULL && px->c->state != CONN_DEAD &&
	    !px->c->waiting)
		cluster_standin_mark(px, px->due);
}

/* The stand-in closed (the room moved away, its home connection
 * closed, its home is over): what it had sent before goes, the home
 * hears why, and it is forgotten once its output is acknowledged. */
static void
cluster_standin_end_event(struct bufferevent *bev, short what, void *arg)
{
	struct standin *px = arg;

	(void)bev;
	if (!(what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)) || px->closed)
		return;
	cluster_standin_end_read(px->end, px);
	px->closed = 1;
	px->closed_ms = clock_mono_ms();
	if (px->home_over) {
		cluster_standin_free(px);
		return;
	}
	cluster_standin_send_closed(px);
	if (px->out == NULL)
		cluster_standin_free(px);
}

/* Tell the stand-in (its marker line, behind its reply) that request n
 * is replied, or mark it at once when the stand-in is gone. A request
 * whose reply comes later (a hint) is marked when its reply has come. */
static void
cluster_standin_mark(struct standin *px, unsigned long long n)
{
	char line[CLUSTER_NUM + 4];
	int len;

	if (px->c != NULL && px->c->state != CONN_DEAD && px->c->waiting) {
		px->due = n;
		return;
	}
	px->due = 0;
	if (px->c != NULL && px->c->state != CONN_DEAD) {
		len = snprintf(
		    line, sizeof line, "%cR%llu\n", CLUSTER_STANDIN_MARK, n);
		net_send(px->c, line, (size_t)len);
		return;
	}
	if (n > px->done)
		px->done = n;
	cluster_standin_emit(px, "", 0);
}

/* The index key of (home, inc, conn) into key. */
static void
cluster_standin_key(char key[CLUSTER_STANDIN_KEY], const char *home,
    unsigned long long inc, unsigned long long conn)
{
	char num[CLUSTER_NUM];
	size_t n = strnlen(home, CLUSTER_NODE_MAX), k;

	/* "home|inc|conn", without snprintf (one a request) */
	memcpy(key, home, n);
	key[n++] = '|';
	cluster_num(num, inc);
	k = strlen(num);
	memcpy(key + n, num, k);
	n += k;
	key[n++] = '|';
	cluster_num(num, conn);
	memcpy(key + n, num, strlen(num) + 1);
}

/* The newest stand-in of (home, inc, conn), open or closed, or NULL: a
 * lookup in the index. */
static struct standin *
cluster_standin_newest(struct cluster *cl, const char *home,
    unsigned long long inc, unsigned long long conn)
{
	char key[CLUSTER_STANDIN_KEY];
	struct table_link *l;

	cluster_standin_key(key, home, inc, conn);
	l = table_find(&cl->standin_index, key);
	return l != NULL ? TABLE_ITEM(l, struct standin, link) : NULL;
}

/* The stand-in of (home, inc, conn) that is open, or NULL. Only the
 * newest of a connection can be: a new one is made only when none is. */
static struct standin *
cluster_standin_find(struct cluster *cl, const char *home,
    unsigned long long inc, unsigned long long conn)
{
	struct standin *px = cluster_standin_newest(cl, home, inc, conn);

	if (px != NULL && !px->closed && px->c != NULL &&
	    px->c->state == CONN_OPEN)
		return px;
	return NULL;
}

/* The stand-in sid of (home, inc, conn), open or closed, or NULL: the
 * newest at once; an older, closed one (its output not yet all
 * acknowledged) by a walk, which only such late entries pay. */
static struct standin *
cluster_standin_find_sid(struct cluster *cl, const char *home,
    unsigned long long inc, unsigned long long conn, unsigned long long sid)
{
	struct standin *px = cluster_standin_newest(cl, home, inc, conn);

	if (px != NULL && px->sid == sid)
		return px;
	for (px = cl->standins; px != NULL; px = px->next)
		if (px->sid == sid && px->conn == conn && px->inc == inc &&
		    strcmp(px->home, home) == 0)
			return px;
	return NULL;
}

/* px is the newest stand-in of its connection: in the index, in place of
 * the one before. */
static void
cluster_standin_index(struct cluster *cl, struct standin *px)
{
	struct standin *old =
	    cluster_standin_newest(cl, px->home, px->inc, px->conn);

	if (old != NULL) {
		table_del(&cl->standin_index, &old->link);
		old->indexed = 0;
	}
	cluster_standin_key(px->key, px->home, px->inc, px->conn);
	table_add(&cl->standin_index, &px->link, px->key);
	px->indexed = 1;
}

/* The player is connected again through a stand-in: back in every seat
 * it holds here (as hello does). */
static void
cluster_standin_back_in(struct player *p)
{
	struct room **held;
	int i, n;

	held = room_sorted(p, &n);
	for (i = 0; i < n; i++)
		if (room_seat_of(held[i], p) >= 0)
			room_player_back(held[i], p);
	free(held);
}

/* The stand-in of (home, inc, conn), made and logged in as name when
 * new; back: the player counts as back in its seats (not when a room
 * just taken seats it itself). */
static struct standin *
cluster_standin_make(struct cluster *cl, const char *home,
    unsigned long long inc, unsigned long long conn, const char *name, int back)
{
	struct server *srv = cl->srv;
	struct bufferevent *pair[2];
	struct standin *px, *opx;
	struct limit_entry *lim;
	struct player *p;
	char key[SERVER_LIMIT_KEY], addr[64];
	struct conn *old;

	if ((px = cluster_standin_find(cl, home, inc, conn)) != NULL)
		return px->c->player != NULL &&
		        strcmp(px->c->player->name, name) == 0
		    ? px
		    : NULL;
	if (!player_name_valid(name) ||
	    bufferevent_pair_new(srv->base, BEV_OPT_DEFER_CALLBACKS, pair) != 0)
		return NULL;
	snprintf(key, sizeof key, "x:%.32s/%llu", home, conn);
	snprintf(addr, sizeof addr, "node %.40s conn %llu", home, conn);
	lim = limit_get(srv, key);
	px = xcalloc(1, sizeof *px);
	px->cl = cl;
	snprintf(px->home, sizeof px->home, "%s", home);
	px->inc = inc;
	px->conn = conn;
	px->end = pair[1];
	px->c = net_conn_new(srv, pair[0], addr, lim, NET_RELAY);
	px->sid = px->c->id;
	cluster_route_set_standin(px->c);
	bufferevent_setcb(pair[1], cluster_standin_end_read, NULL,
	    cluster_standin_end_event, px);
	bufferevent_enable(pair[1], EV_READ | EV_WRITE);
	px->next = cl->standins;
	cl->standins = px;
	cluster_standin_index(cl, px);
	/* Logged in as the home node says (nodes trust each other). */
	p = player_get(srv, name);
	if (p->conn != NULL && cluster_route_is_standin(p->conn)) {
		/* An older stand-in of the name (closing, or of its former
		 * home): it goes quietly, the player stays. */
		old = p->conn;
		for (opx = cl->standins; opx != NULL; opx = opx->next)
			if (opx->c == old)
				opx->why = "quiet";
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
	log_info("cluster: %s of node %s plays here (conn %llu, their conn "
	         "%llu, incarnation %llu)",
	    name, home, (unsigned long long)px->c->id, conn, inc);
	if (cluster_club_here(srv)) /* the player is here: their seeks too */
		seek_logged_in(srv, p);
	if (back)
		cluster_standin_back_in(p);
	return px;
}

struct conn *
cluster_standin_get(struct cluster *cl, const char *home,
    unsigned long long inc, unsigned long long conn, const char *name)
{
	struct standin *px = cluster_standin_make(cl, home, inc, conn, name, 1);

	return px != NULL ? px->c : NULL;
}

/* Tell (home, inc)'s connection conn that its request rseq was not run
 * here: this node does not hold its room (or the club). */
static void
cluster_standin_bounce(struct cluster *cl, const char *home,
    unsigned long long inc, unsigned long long conn, unsigned long long rseq)
{
	char c[CLUSTER_NUM], r[CLUSTER_NUM];
	const char *f[4];

	snprintf(c, sizeof c, "%llu", conn);
	snprintf(r, sizeof r, "%llu", rseq);
	f[0] = "conn", f[1] = c, f[2] = "rseq", f[3] = r;
	cluster_stream_send(cl, home, inc, "bounce", 4, f, NULL);
}

void
cluster_standin_req(struct cluster *cl, const char *from,
    unsigned long long inc, const redisReply *fields)
{
	struct server *srv = cl->srv;
	unsigned long long conn = cluster_stream_num(fields, "conn");
	unsigned long long rseq = cluster_stream_num(fields, "rseq");
	const char *name = cluster_stream_str(fields, "name");
	const char *room = cluster_stream_str(fields, "room");
	int club = cluster_stream_num(fields, "club") != 0;
	const redisReply *line = cluster_stream_field(fields, "line");
	struct standin *px = cluster_standin_find(cl, from, inc, conn);
	struct room *r;

	if (line == NULL || line->type != REDIS_REPLY_STRING || rseq == 0)
		return;
	if (px != NULL && cluster_stream_num(fields, "sid") == px->sid)
		cluster_standin_acked(px, cluster_stream_num(fields, "ack"));
	if (px != NULL && rseq <= px->last_rseq) {
		/* Run already: the home missed its reply, or asks again
		 * before it came; what it has not acknowledged goes again. */
		cluster_standin_replay(px, 0);
		return;
	}
	if (club ? !cluster_club_here(srv) : room_find(srv, room) == NULL) {
		cl->stats.bounced++;
		cluster_standin_bounce(cl, from, inc, conn, rseq);
		return;
	}
	if (px == NULL)
		px = cluster_standin_make(cl, from, inc, conn, name, 1);
	if (px == NULL || px->c->player == NULL ||
	    strcmp(px->c->player->name, name) != 0) {
		log_warn("cluster: a request of node %s conn %llu as %s was "
		         "not run: no stand-in could be made",
		    from, conn, name);
		return;
	}
	/* A request without a room acts on the room the home node
	 * forwards it for (a stand-in made since knows none). */
	if ((r = room_find(srv, room)) != NULL)
		px->c->current = r;
	px->c->mode = strcmp(cluster_stream_str(fields, "mode"), "text") == 0
	    ? CONN_MODE_TEXT
	    : CONN_MODE_JSON;
	px->c->lean = strcmp(cluster_stream_str(fields, "mode"), "lean") == 0;
	px->last_rseq = rseq;
	cl->stats.served++;
	session_line(px->c, line->str, line->len);
	cluster_standin_mark(px, rseq);
}

void
cluster_standin_ack(struct cluster *cl, const char *from,
    unsigned long long inc, const redisReply *fields)
{
	struct standin *px = cluster_standin_find_sid(cl, from, inc,
	    cluster_stream_num(fields, "conn"),
	    cluster_stream_num(fields, "sid"));

	if (px == NULL)
		return;
	cluster_standin_acked(px, cluster_stream_num(fields, "oseq"));
	if (px->closed && px->out == NULL)
		cluster_standin_free(px);
}

void
cluster_standin_resend(struct cluster *cl, const char *from,
    unsigned long long inc, const redisReply *fields)
{
	unsigned long long conn = cluster_stream_num(fields, "conn");
	unsigned long long sid = cluster_stream_num(fields, "sid");
	struct standin *px = cluster_standin_find_sid(cl, from, inc, conn, sid);
	struct standin gone;

	if (px != NULL) {
		cluster_standin_replay(px, cluster_stream_num(fields, "oseq"));
		if (px->closed)
			cluster_standin_send_closed(px);
		return;
	}
	/* Forgotten: what the home missed is lost, and it must hear so. */
	memset(&gone, 0, sizeof gone);
	gone.cl = cl;
	snprintf(gone.home, sizeof gone.home, "%s", from);
	gone.inc = inc;
	gone.conn = conn;
	gone.sid = sid;
	gone.why = "dropped";
	cluster_standin_send_closed(&gone);
}

void
cluster_standin_bye(struct cluster *cl, const char *from,
    unsigned long long inc, const redisReply *fields)
{
	struct standin *px = cluster_standin_find(
	    cl, from, inc, cluster_stream_num(fields, "conn"));

	if (px == NULL)
		return;
	px->why = "quiet";
	px->home_over = 1;
	net_close(px->c, 0);
}

void
cluster_standin_end(
    struct cluster *cl, const char *node, unsigned long long inc)
{
	struct standin *px, *next;

	for (px = cl->standins; px != NULL; px = next) {
		next = px->next;
		if (strcmp(px->home, node) != 0 || px->inc > inc)
			continue;
		px->home_over = 1;
		if (px->closed) {
			cluster_standin_free(px);
		} else if (px->c != NULL && px->c->state == CONN_OPEN) {
			log_info("cluster: %s of node %s leaves: its node's "
			         "incarnation %llu is over",
			    px->c->player != NULL ? px->c->player->name : "?",
			    node, px->inc);
			px->why = "dropped";
			net_close(px->c, 0);
		}
	}
}

void
cluster_standin_back(struct cluster *cl)
{
	struct standin *px;

	for (px = cl->standins; px != NULL; px = px->next) {
		cluster_standin_replay(px, 0);
		if (px->closed)
			cluster_standin_send_closed(px);
	}
}

void
cluster_standin_tick(struct cluster *cl)
{
	struct standin *px, *next;
	int64_t now = clock_mono_ms();

	for (px = cl->standins; px != NULL; px = next) {
		next = px->next;
		if (px->due != 0 &&
		    (px->c == NULL || px->c->state == CONN_DEAD ||
		        !px->c->waiting))
			cluster_standin_mark(px, px->due);
		if (px->out != NULL && cluster_redis_up(cl) &&
		    now - px->out->sent_ms >= CLUSTER_STANDIN_RESEND_MS)
			cluster_standin_replay(px, 0);
		if (px->closed &&
		    (px->out == NULL ||
		        now - px->closed_ms >= CLUSTER_STANDIN_LINGER_MS))
			cluster_standin_free(px);
	}
}

int
cluster_standin_count(const struct cluster *cl)
{
	const struct standin *px;
	int n = 0;

	for (px = cl->standins; px != NULL; px = px->next)
		n += px->c != NULL;
	return n;
}

void
cluster_standin_stop(struct cluster *cl)
{
	while (cl->standins != NULL)
		cluster_standin_free(cl->standins);
	table_free(&cl->standin_index);
}

/* A stand-in's connection is about to be freed: its record keeps what
 * the output still to come needs (its mode and room), not the pointer. */
void
cluster_standin_conn_gone(struct cluster *cl, struct conn *c)
{
	struct standin *px;

	for (px = cl != NULL ? cl->standins : NULL; px != NULL; px = px->next)
		if (px->c == c) {
			cluster_standin_note(px);
			px->c = NULL;
			return;
		}
}

int
cluster_standin_home_of(const struct cluster *cl, const struct conn *c,
    const char **home, unsigned long long *inc, unsigned long long *id)
{
	const struct standin *px;

	for (px = cl->standins; px != NULL; px = px->next)
		if (px->c == c) {
			*home = px->home;
			*inc = px->inc;
			*id = px->conn;
			return 0;
		}
	return -1;
}

void
cluster_standin_watcher_val(const struct cluster *cl, const struct conn *c,
    const struct player *p, char *val, size_t len)
{
	const char *home;
	unsigned long long inc, id;

	if (cluster_standin_home_of(cl, c, &home, &inc, &id) != 0) {
		home = cl->node;
		inc = cl->inc;
		id = (unsigned long long)c->id;
	}
	snprintf(val, len, "%s|%llu|%llu|%s", home, inc, id, p->name);
}

/* 1 when (node, inc) is a live incarnation to act for: alive, and not
 * older than the newest heard of. */
static int
cluster_standin_live(
    const struct cluster *cl, const char *node, unsigned long long inc)
{
	unsigned long long known = cluster_node_inc(cl, node);

	return cluster_node_alive(cl, node) && (known == 0 || inc >= known);
}

/* The watchers of a room just taken (arg: its id): each watches it here,
 * its own connection when its home is this node, else a stand-in. */
static void
cluster_standin_watchers_got(redisAsyncContext *ac, void *reply, void *arg)
{
	struct cluster *cl = ac->data;
	redisReply *rep = reply;
	char home[CLUSTER_NODE_MAX + 1];
	unsigned long long inc, id;
	const char *name;
	struct standin *px;
	struct conn *c;
	struct room *r;
	size_t i;

	r = cl != NULL ? room_find(cl->srv, arg) : NULL;
	free(arg);
	if (r == NULL || rep == NULL || rep->type != REDIS_REPLY_ARRAY)
		return;
	for (i = 0; i < rep->elements; i++) {
		if (rep->element[i]->type != REDIS_REPLY_STRING ||
		    cluster_node_addr(rep->element[i]->str, home, &inc, &id) !=
		        0 ||
		    (name = strrchr(rep->element[i]->str, '|')) == NULL)
			continue;
		name++;
		c = NULL;
		if (strcmp(home, cl->node) == 0) {
			if (inc == cl->inc)
				c = cluster_route_conn(cl, id);
		} else if (cluster_standin_live(cl, home, inc) &&
		    (px = cluster_standin_make(cl, home, inc, id, name, 0)) !=
		        NULL) {
			c = px->c;
		}
		if (c != NULL && c->player != NULL &&
		    strcmp(c->player->name, name) == 0 &&
		    room_seat_of(r, c->player) < 0)
			room_add_watcher(r, c->player);
	}
}

void
cluster_standin_watchers(struct cluster *cl, struct room *r)
{
	char key[CLUSTER_KEY];

	if (cl->ac == NULL)
		return;
	snprintf(key, sizeof key, "watchers:%s", r->id);
	redisAsyncCommand(cl->ac, cluster_standin_watchers_got, xstrdup(r->id),
	    "SMEMBERS %s", key);
}

void
cluster_standin_room_gone(struct cluster *cl, const struct room *r)
{
	struct standin *px;

	for (px = cl->standins; px != NULL; px = px->next)
		if (px->c != NULL && px->c->current == r)
			px->c->current = NULL;
}

/* A room taken with one of its players back: recovery adjourned it
 * (everyone starts away); it goes on, with any forced pass. */
static void
cluster_standin_resume(struct room *r)
{
	if (r->status != ROOM_ADJOURNED)
		return;
	r->status = ROOM_PLAYING;
	r->turn_start_ms = room_clock_now(r);
	room_save(r);
	room_after_move(r);
}

/* A seated player's presence (arg: "room|name"): on another node, a
 * stand-in of that connection sits back in the seat (its login does). */
static void
cluster_standin_seat_got(redisAsyncContext *ac, void *reply, void *arg)
{
	struct cluster *cl = ac->data;
	redisReply *rep = reply;
	char home[CLUSTER_NODE_MAX + 1], *name = strchr(arg, '|');
	unsigned long long inc, id;
	struct room *r;
	int seat;

	if (cl != NULL && name != NULL && rep != NULL &&
	    rep->type == REDIS_REPLY_STRING &&
	    cluster_node_addr(rep->str, home, &inc, &id) == 0 &&
	    strcmp(home, cl->node) != 0 &&
	    cluster_standin_live(cl, home, inc) &&
	    cluster_standin_make(cl, home, inc, id, name + 1, 0) != NULL) {
		*name = '\0';
		r = room_find(cl->srv, arg);
		seat = r != NULL
		    ? room_seat_of(r, player_find(cl->srv, name + 1))
		    : -1;
		if (seat >= 0) {
			r->seats[seat].gone = 0;
			cluster_standin_resume(r);
		}
	}
	free(arg);
}

void
cluster_standin_seats(struct cluster *cl, struct room *r)
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
			cluster_standin_resume(r);
			continue;
		}
		if (cl->ac == NULL)
			continue;
		snprintf(key, sizeof key, "online:%s", p->name);
		snprintf(val, sizeof val, "%s|%s", r->id, p->name);
		redisAsyncCommand(cl->ac, cluster_standin_seat_got,
		    xstrdup(val), "GET %s", key);
	}
}
