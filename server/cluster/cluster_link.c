/*
 * cluster_link.c: the packs of cluster_stream.c straight from node to
 * node, over a TCP connection of their own, with Redis out of the data
 * path (issue 32: Redis's own work was half a local move's for every
 * forwarded one, and each message crossed two more event loops).
 *
 * Each node listens on a port of its own (--node-link, by default a free
 * port on the address it reaches Redis from) and publishes where, with
 * its incarnation and a secret made at its start, in link:{node} (the
 * heartbeat's life). Every tick a node connects to each live node it
 * has no link to: one connection per direction, on which only the
 * connecting node sends. It opens with one line,
 *
 *   TABLERO-LINK 1 FROM INC TO-INC SECRET FENCE
 *
 * then carries frames, each "LEN\n" and a pack's fields as the XADD of
 * the same pack would (cluster_stream_frame reads them as the stream's
 * entry). The secret proves the sender read it from Redis: a link takes
 * exactly what the stream would, from whoever could write the stream.
 *
 * Order: what a node sends another goes in one order, whichever way.
 * A sender holds its packs on a new link until the XADDs it sent to that
 * node's stream before are answered, and names the last one's id
 * (FENCE); the receiver reads the link only once it has read its stream
 * that far. A link that breaks loses what was on it, as a lost stream
 * does: what must arrive is numbered and sent again from memory
 * (cluster_route.c, cluster_standin.c), now through Redis until a link
 * is up again. While this node's Redis is away it sends nothing, as
 * before, and drops what links bring.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/listener.h>
#include <event2/util.h>
#include <sodium.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include "server/cluster/cluster.h"
#include "server/cluster/cluster_int.h"

/* How long a connection to the link port may take to open with its line:
 * a node sends it at once; anything else is a stranger, closed. */
#define CLUSTER_LINK_HELLO_MS 5000
/* How long a receiver waits for its stream to reach a link's fence, and
 * a sender for its XADDs' answers before it: Redis answers within its
 * timeout or is away (then what was lost is sent again anyway). */
#define CLUSTER_LINK_FENCE_MS CLUSTER_REDIS_TIMEOUT_MS
/* Links taken at once: one from each other node (CLUSTER_LIVE_MAX), as
 * many more for incarnations on their way out and strangers waiting for
 * their hello's deadline. */
#define CLUSTER_LINK_INS_MAX (2 * CLUSTER_LIVE_MAX)
/* Bytes a link may have waiting to be sent: a node that reads nothing
 * for that long is not kept a link; its messages go through Redis. */
#define CLUSTER_LINK_OUT_MAX (32 * 1024 * 1024)
/* A node a link to which failed is asked again this long after, when
 * messages for it wait (each tick asks anyway). */
#define CLUSTER_LINK_RETRY_MS 1000

/* A link taken from another node. */
struct link_in {
	struct link_in *next;
	struct cluster *cl;
	struct bufferevent *bev;
	char from[CLUSTER_NODE_MAX + 1]; /* "": no hello yet */
	unsigned long long inc;
	char fence[CLUSTER_STREAM_ID];
	int fenced;       /* read once the stream reaches fence */
	int busy;         /* a frame of it is being acted on */
	int paused;       /* not read while this node's Redis is away */
	int dead;         /* closed meanwhile: freed once it is not */
	int64_t since_ms; /* accepted, or fenced, at */
};

int
cluster_link_config(
    struct cluster *cl, const struct config *cfg, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	int sslen = (int)sizeof ss;

	if (cfg->node_link == NULL)
		return 0;
	if (strcmp(cfg->node_link, "off") == 0) {
		cl->link_off = 1;
		return 0;
	}
	if (strlen(cfg->node_link) >= CLUSTER_LINK_ADDR ||
	    evutil_parse_sockaddr_port(
	        cfg->node_link, (struct sockaddr *)&ss, &sslen) != 0) {
		snprintf(err, errlen,
		    "--node-link: want HOST:PORT (an address, not a name), "
		    "[V6ADDR]:PORT or off, not %s",
		    cfg->node_link);
		return -1;
	}
	return 0;
}

/* The address the listener took, as published. */
static void
cluster_link_name(struct cluster *cl)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof ss;
	char host[64];
	int port;

	if (getsockname(evconnlistener_get_fd(cl->link_lis),
	        (struct sockaddr *)&ss, &len) != 0)
		return;
	if (ss.ss_family == AF_INET6) {
		struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;

		evutil_inet_ntop(AF_INET6, &s6->sin6_addr, host, sizeof host);
		port = ntohs(s6->sin6_port);
		snprintf(
		    cl->link_addr, sizeof cl->link_addr, "[%s]:%d", host, port);
	} else {
		struct sockaddr_in *s4 = (struct sockaddr_in *)&ss;

		evutil_inet_ntop(AF_INET, &s4->sin_addr, host, sizeof host);
		port = ntohs(s4->sin_port);
		snprintf(
		    cl->link_addr, sizeof cl->link_addr, "%s:%d", host, port);
	}
}

static void cluster_link_accept(struct evconnlistener *lis, evutil_socket_t fd,
    struct sockaddr *sa, int salen, void *arg);

/* Where the listener goes: --node-link, or the address this node's
 * Redis connection goes out from (other nodes reach Redis, so likely
 * this address too), with a free port. 0, or -1. */
static int
cluster_link_where(struct cluster *cl, struct sockaddr_storage *ss, int *len)
{
	socklen_t sl = sizeof *ss;

	if (cl->srv->cfg.node_link != NULL) {
		*len = (int)sizeof *ss;
		return evutil_parse_sockaddr_port(
		    cl->srv->cfg.node_link, (struct sockaddr *)ss, len);
	}
	if (cl->ac == NULL || cl->ac->c.fd < 0 ||
	    getsockname(cl->ac->c.fd, (struct sockaddr *)ss, &sl) != 0)
		return -1;
	if (ss->ss_family == AF_INET6)
		((struct sockaddr_in6 *)ss)->sin6_port = 0;
	else if (ss->ss_family == AF_INET)
		((struct sockaddr_in *)ss)->sin_port = 0;
	else
		return -1;
	*len = (int)sl;
	return 0;
}

/* The listener, once: where it is and the secret. */
static void
cluster_link_listen(struct cluster *cl)
{
	unsigned char secret[(CLUSTER_LINK_SECRET - 1) / 2];
	struct sockaddr_storage ss;
	int len;

	if (cl->link_lis != NULL || cl->link_off)
		return;
	if (cluster_link_where(cl, &ss, &len) != 0)
		return;
	cl->link_lis = evconnlistener_new_bind(cl->srv->base,
	    cluster_link_accept, cl,
	    LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE | LEV_OPT_CLOSE_ON_EXEC,
	    16, (struct sockaddr *)&ss, len);
	if (cl->link_lis == NULL) {
		log_warn("cluster: no link port (%s): messages go through "
		         "Redis",
		    evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()));
		cl->link_off = 1;
		return;
	}
	randombytes_buf(secret, sizeof secret);
	sodium_bin2hex(
	    cl->link_secret, sizeof cl->link_secret, secret, sizeof secret);
	sodium_memzero(secret, sizeof secret);
	cluster_link_name(cl);
	log_info("cluster: links taken on %s", cl->link_addr);
}

/*
 * Links taken.
 */

/* A taken link closed and forgotten (once no frame of it is being acted
 * on: what a frame does may close links). */
static void
cluster_link_in_free(struct link_in *li)
{
	struct cluster *cl = li->cl;
	struct link_in **pp;

	if (li->busy) {
		li->dead = 1;
		return;
	}
	for (pp = &cl->link_ins; *pp != NULL; pp = &(*pp)->next)
		if (*pp == li) {
			*pp = li->next;
			break;
		}
	cl->nlink_ins--;
	bufferevent_free(li->bev);
	free(li);
}

/* The opening line: 0 when it names this incarnation, a live sender and
 * the secret; li's sender, incarnation and fence set. */
static int
cluster_link_hello(struct link_in *li, const char *line, size_t len)
{
	struct cluster *cl = li->cl;
	struct wire_hello h;

	if (wire_hello_parse(line, len, &h) != 0 || h.to != cl->inc ||
	    sodium_memcmp(h.secret, cl->link_secret, CLUSTER_LINK_SECRET - 1) !=
	        0 ||
	    strcmp(h.from, cl->node) == 0 ||
	    cluster_node_heard(cl, h.from, h.inc) != 0) {
		sodium_memzero(&h, sizeof h);
		return -1;
	}
	snprintf(li->from, sizeof li->from, "%s", h.from);
	li->inc = h.inc;
	snprintf(li->fence, sizeof li->fence, "%s", h.fence);
	sodium_memzero(&h, sizeof h);
	return 0;
}

/* The frames waiting on li, acted on in order while it is read (one
 * that is malformed closes it): 0, or -1 when li was freed. */
static int
cluster_link_frames(struct link_in *li)
{
	struct evbuffer *in = bufferevent_get_input(li->bev);
	const char *head;
	char *body;
	size_t peek, hlen, len;
	int rc;

	while (!li->fenced) {
		/* While this node's Redis is away its links wait, as its
		 * stream does (what comes meanwhile is read when Redis is
		 * back; the senders' own limit bounds it). */
		if (!cluster_redis_up(li->cl)) {
			li->paused = 1;
			bufferevent_disable(li->bev, EV_READ);
			return 0;
		}
		/* The head: at most its digits and the newline. */
		if ((peek = evbuffer_get_length(in)) == 0)
			return 0;
		if (peek > CLUSTER_LINK_LEN_DIGITS + 1)
			peek = CLUSTER_LINK_LEN_DIGITS + 1;
		head = (const char *)evbuffer_pullup(in, (ev_ssize_t)peek);
		rc = wire_frame_head(
		    head, peek, CLUSTER_LINK_FRAME_MAX, &hlen, &len);
		if (rc < 0)
			goto bad;
		if (rc == 0 || evbuffer_get_length(in) < hlen + len)
			return 0;
		evbuffer_drain(in, hlen);
		if (len == 0)
			continue; /* an empty pack: nothing to act on */
		body = (char *)evbuffer_pullup(in, (ev_ssize_t)len);
		li->busy = 1;
		rc = cluster_stream_frame(li->cl, li->from, li->inc, body, len);
		li->busy = 0;
		if (li->dead) {
			cluster_link_in_free(li);
			return -1;
		}
		if (rc != 0)
			goto bad;
		evbuffer_drain(in, len);
	}
	return 0;
bad:
	log_warn(
	    "cluster: a malformed frame on the link from %s: closed", li->from);
	cluster_link_in_free(li);
	return -1;
}

/* Bytes came on a taken link: its opening line first, then frames. */
static void
cluster_link_in_read(struct bufferevent *bev, void *arg)
{
	struct link_in *li = arg;
	struct evbuffer *in = bufferevent_get_input(bev);
	struct evbuffer_ptr nl;
	const char *line;
	int rc;

	if (li->from[0] == '\0') {
		nl = evbuffer_search(in, "\n", 1, NULL);
		if (nl.pos < 0) {
			if (evbuffer_get_length(in) > CLUSTER_LINK_HELLO_MAX)
				cluster_link_in_free(li);
			return;
		}
		line = (const char *)evbuffer_pullup(in, nl.pos + 1);
		rc = (size_t)nl.pos > CLUSTER_LINK_HELLO_MAX
		    ? -1
		    : cluster_link_hello(li, line, (size_t)nl.pos);
		evbuffer_drain(in, (size_t)nl.pos + 1);
		if (rc != 0) {
			log_warn("cluster: a connection to the link port "
			         "without a node's opening: closed");
			cluster_link_in_free(li);
			return;
		}
		bufferevent_set_timeouts(bev, NULL, NULL);
		if (wire_id_cmp(li->cl->last_id, li->fence) < 0) {
			li->fenced = 1;
			li->since_ms = clock_mono_ms();
			return;
		}
		log_info("cluster: link from %s (incarnation %llu) up",
		    li->from, li->inc);
	}
	cluster_link_frames(li);
}

/* A taken link ended (closed, broken, its opening late). */
static void
cluster_link_in_event(struct bufferevent *bev, short what, void *arg)
{
	struct link_in *li = arg;

	(void)bev;
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR | BEV_EVENT_TIMEOUT)) {
		if (li->from[0] != '\0')
			log_info("cluster: link from %s (incarnation %llu) "
			         "closed",
			    li->from, li->inc);
		cluster_link_in_free(li);
	}
}

/* A connection to the link port: it has CLUSTER_LINK_HELLO_MS to open. */
static void
cluster_link_accept(struct evconnlistener *lis, evutil_socket_t fd,
    struct sockaddr *sa, int salen, void *arg)
{
	struct timeval tv = {CLUSTER_LINK_HELLO_MS / 1000,
	    (CLUSTER_LINK_HELLO_MS % 1000) * 1000};
	struct cluster *cl = arg;
	struct link_in *li;

	(void)lis;
	(void)sa;
	(void)salen;
	if (cl->nlink_ins >= CLUSTER_LINK_INS_MAX) {
		evutil_closesocket(fd);
		return;
	}
	li = xcalloc(1, sizeof *li);
	li->cl = cl;
	li->since_ms = clock_mono_ms();
	li->bev =
	    bufferevent_socket_new(cl->srv->base, fd, BEV_OPT_CLOSE_ON_FREE);
	if (li->bev == NULL)
		fatal("out of memory");
	bufferevent_setcb(
	    li->bev, cluster_link_in_read, NULL, cluster_link_in_event, li);
	bufferevent_set_timeouts(li->bev, &tv, NULL);
	bufferevent_enable(li->bev, EV_READ);
	li->next = cl->link_ins;
	cl->link_ins = li;
	cl->nlink_ins++;
}

/* Read again the fenced link li (its fence passed, or it waited too
 * long): 0, or -1 when it was freed. */
static int
cluster_link_unfence(struct link_in *li)
{
	li->fenced = 0;
	log_info(
	    "cluster: link from %s (incarnation %llu) up", li->from, li->inc);
	return cluster_link_frames(li);
}

void
cluster_link_stream_read(struct cluster *cl)
{
	struct link_in *li;

again: /* what a frame does may close other links: from the start */
	for (li = cl->link_ins; li != NULL; li = li->next)
		if (li->fenced && wire_id_cmp(cl->last_id, li->fence) >= 0) {
			cluster_link_unfence(li);
			goto again;
		}
}

/*
 * Links this node sends on.
 */

/* node's slot, made when add and new (NULL: none, or no room). */
static struct link_out *
cluster_link_slot(struct cluster *cl, const char *node, int add)
{
	struct link_out *lo;
	int i;

	for (i = 0; i < cl->nlinks; i++)
		if (strcmp(cl->links[i].node, node) == 0)
			return &cl->links[i];
	if (!add || cl->nlinks == CLUSTER_LIVE_MAX)
		return NULL;
	lo = &cl->links[cl->nlinks++];
	memset(lo, 0, sizeof *lo);
	lo->cl = cl;
	lo->fd = -1;
	snprintf(lo->node, sizeof lo->node, "%s", node);
	return lo;
}

/* lo's connection closed: its packs go through Redis again. */
static void
cluster_link_out_close(struct link_out *lo, const char *why)
{
	if (lo->state >= LINK_FENCE)
		log_info("cluster: link to %s (incarnation %llu) closed: %s",
		    lo->node, lo->inc, why);
	if (lo->rev != NULL)
		event_free(lo->rev);
	if (lo->wev != NULL)
		event_free(lo->wev);
	if (lo->out != NULL)
		evbuffer_free(lo->out);
	if (lo->held != NULL)
		evbuffer_free(lo->held);
	if (lo->fd >= 0)
		evutil_closesocket(lo->fd);
	lo->rev = lo->wev = NULL;
	lo->out = lo->held = NULL;
	lo->fd = -1;
	lo->state = LINK_NONE;
	lo->since_ms = clock_mono_ms();
}

/* 1 when err says a socket would block (or was interrupted). */
static int
cluster_link_retry(int err)
{
	return err == EAGAIN || err == EWOULDBLOCK || err == EINTR;
}

/* What lo has to send, written now as far as the socket takes it (the
 * rest when it has room): 0, or -1 when the link broke (closed). */
static int
cluster_link_out_write(struct link_out *lo)
{
	int n;

	while (evbuffer_get_length(lo->out) > 0) {
		n = evbuffer_write(lo->out, lo->fd);
		if (n > 0)
			continue;
		if (n < 0 && cluster_link_retry(errno)) {
			event_add(lo->wev, NULL);
			return 0;
		}
		cluster_link_out_close(
		    lo, n == 0 ? "the other end closed it" : strerror(errno));
		return -1;
	}
	return 0;
}

/* lo's XADDs are answered (or waited for too long): its opening line
 * with the fence, then what was held; packs go on it from now on. */
static void
cluster_link_out_up(struct cluster *cl, struct link_out *lo)
{
	evbuffer_add_printf(lo->out, "TABLERO-LINK %d %s %llu %llu %s %s\n",
	    CLUSTER_LINK_VERSION, cl->node, cl->inc, lo->inc, lo->secret,
	    lo->last_id[0] != '\0' ? lo->last_id : "0-0");
	evbuffer_add_buffer(lo->out, lo->held);
	evbuffer_free(lo->held);
	lo->held = NULL;
	lo->state = LINK_UP;
	lo->since_ms = clock_mono_ms();
	log_info(
	    "cluster: link to %s (incarnation %llu) up", lo->node, lo->inc);
	cluster_link_out_write(lo);
}

/* Room to write on lo: the connection made (up once its XADDs are
 * answered), or what waited written. */
static void
cluster_link_out_writable(evutil_socket_t fd, short what, void *arg)
{
	struct link_out *lo = arg;
	int err = 0;
	socklen_t len = sizeof err;

	(void)what;
	if (lo->state != LINK_CONNECTING) {
		cluster_link_out_write(lo);
		return;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err != 0) {
		cluster_link_out_close(lo, "cannot connect");
		return;
	}
	lo->state = LINK_FENCE;
	lo->since_ms = clock_mono_ms();
	if ((lo->held = evbuffer_new()) == NULL)
		fatal("out of memory");
	event_add(lo->rev, NULL);
	if (lo->xadds == 0)
		cluster_link_out_up(lo->cl, lo);
}

/* The other end sends nothing on a link this node sends on: readable
 * means it closed the link, or broke it (anything it sends is
 * dropped). */
static void
cluster_link_out_readable(evutil_socket_t fd, short what, void *arg)
{
	struct link_out *lo = arg;
	char buf[256];
	ev_ssize_t n;

	(void)what;
	while ((n = recv(fd, buf, sizeof buf, 0)) > 0)
		;
	if (n < 0 && cluster_link_retry(errno))
		return;
	cluster_link_out_close(lo,
	    n == 0 ? "the other end closed it"
	           : evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()));
}

/* Connect lo to addr (its node's incarnation inc, whose secret is
 * secret). */
static void
cluster_link_connect(struct cluster *cl, struct link_out *lo,
    unsigned long long inc, const char *secret, const char *addr)
{
	struct sockaddr_storage ss;
	int len = (int)sizeof ss, one = 1;

	if (evutil_parse_sockaddr_port(addr, (struct sockaddr *)&ss, &len) != 0)
		return;
	lo->fd =
	    socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (lo->fd < 0) {
		log_warn("cluster: no socket for a link: %s", strerror(errno));
		return;
	}
	/* A pack goes at once: it is a move someone waits for. */
	setsockopt(lo->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	lo->rev = event_new(cl->srv->base, lo->fd, EV_READ | EV_PERSIST,
	    cluster_link_out_readable, lo);
	lo->wev = event_new(
	    cl->srv->base, lo->fd, EV_WRITE, cluster_link_out_writable, lo);
	lo->out = evbuffer_new();
	if (lo->rev == NULL || lo->wev == NULL || lo->out == NULL)
		fatal("out of memory");
	lo->inc = inc;
	snprintf(lo->secret, sizeof lo->secret, "%s", secret);
	lo->state = LINK_CONNECTING;
	lo->since_ms = clock_mono_ms();
	if (connect(lo->fd, (struct sockaddr *)&ss, (socklen_t)len) != 0 &&
	    errno != EINPROGRESS) {
		cluster_link_out_close(lo, "cannot connect");
		return;
	}
	event_add(lo->wev, NULL);
}

/* link:{node} came: "INC SECRET ADDR"; connect when INC is the node's
 * live incarnation. */
static void
cluster_link_got(redisAsyncContext *ac, void *reply, void *arg)
{
	struct cluster *cl = ac->data;
	redisReply *rep = reply;
	struct link_out *lo;
	char secret[CLUSTER_LINK_SECRET], addr[CLUSTER_LINK_ADDR];
	unsigned long long inc;
	intptr_t i = (intptr_t)arg;

	if (cl == NULL || i < 0 || i >= cl->nlinks)
		return;
	lo = &cl->links[i];
	if (lo->state != LINK_ASKED)
		return;
	lo->state = LINK_NONE;
	if (rep == NULL || rep->type != REDIS_REPLY_STRING ||
	    rep->len >= CLUSTER_KEY ||
	    sscanf(rep->str, "%llu %64s %79s", &inc, secret, addr) != 3 ||
	    strlen(secret) != CLUSTER_LINK_SECRET - 1 ||
	    inc < cluster_node_inc(cl, lo->node))
		return; /* an incarnation that is over */
	cluster_link_connect(cl, lo, inc, secret, addr);
}

/* Ask where node's link is (a slot of its own), unless it is linked or
 * being linked. */
static void
cluster_link_ask(struct cluster *cl, const char *node, unsigned long long inc)
{
	struct link_out *lo = cluster_link_slot(cl, node, 1);

	if (lo == NULL)
		return;
	if (lo->state >= LINK_CONNECTING && lo->inc < inc)
		cluster_link_out_close(lo, "the node started again");
	if (lo->state != LINK_NONE)
		return;
	lo->state = LINK_ASKED;
	lo->since_ms = clock_mono_ms();
	redisAsyncCommand(cl->ac, cluster_link_got,
	    (void *)(intptr_t)(lo - cl->links), "GET link:%s", node);
}

/* Links stuck: a connection or fence waited past its time. */
static void
cluster_link_late(struct cluster *cl)
{
	int64_t now = clock_mono_ms();
	struct link_in *li;
	int i;

	for (i = 0; i < cl->nlinks; i++) {
		struct link_out *lo = &cl->links[i];

		if (lo->state == LINK_FENCE &&
		    now - lo->since_ms > CLUSTER_LINK_FENCE_MS)
			cluster_link_out_up(cl, lo);
		else if (lo->state == LINK_CONNECTING &&
		    now - lo->since_ms > CLUSTER_LINK_HELLO_MS)
			cluster_link_out_close(lo, "connecting took too long");
		else if (lo->state == LINK_ASKED &&
		    now - lo->since_ms > CLUSTER_REDIS_TIMEOUT_MS)
			lo->state = LINK_NONE;
	}
again: /* what a frame does may close other links: from the start */
	for (li = cl->link_ins; li != NULL; li = li->next)
		if (li->fenced && now - li->since_ms > CLUSTER_LINK_FENCE_MS) {
			cluster_link_unfence(li);
			goto again;
		}
}

/* Redis answers: the links that waited for it are read again. */
static void
cluster_link_resume(struct cluster *cl)
{
	struct link_in *li;

again: /* what a frame does may close other links: from the start */
	for (li = cl->link_ins; li != NULL && cluster_redis_up(cl);
	     li = li->next)
		if (li->paused && !li->dead) {
			li->paused = 0;
			bufferevent_enable(li->bev, EV_READ);
			cluster_link_frames(li);
			goto again;
		}
}

void
cluster_link_tick(struct cluster *cl)
{
	char key[CLUSTER_KEY], val[CLUSTER_KEY];
	int i;

	if (cl->ac == NULL || cl->link_off)
		return;
	cluster_link_resume(cl);
	cluster_link_listen(cl);
	cluster_link_late(cl);
	if (cl->link_lis == NULL)
		return;
	snprintf(key, sizeof key, "link:%s", cl->node);
	snprintf(val, sizeof val, "%llu %s %s", cl->inc, cl->link_secret,
	    cl->link_addr);
	redisAsyncCommand(cl->ac, NULL, NULL, "SET %s %s PX %d", key, val,
	    CLUSTER_NODE_TTL_MS);
	for (i = 0; i < cl->nlive; i++)
		if (strcmp(cl->live[i].node, cl->node) != 0 &&
		    cluster_node_alive(cl, cl->live[i].node))
			cluster_link_ask(cl, cl->live[i].node, cl->live[i].inc);
}

int
cluster_link_send(
    struct cluster *cl, const char *node, const char *body, size_t len)
{
	struct link_out *lo = cluster_link_slot(cl, node, 0);
	struct evbuffer *out;

	if (lo == NULL || len > CLUSTER_LINK_FRAME_MAX ||
	    (lo->state != LINK_UP && lo->state != LINK_FENCE))
		return 0;
	out = lo->state == LINK_FENCE ? lo->held : lo->out;
	if (evbuffer_get_length(out) > CLUSTER_LINK_OUT_MAX) {
		cluster_link_out_close(lo, "the other end reads too slowly");
		return 0;
	}
	evbuffer_add_printf(out, "%zu\n", len);
	evbuffer_add(out, body, len);
	cl->stats.packs_link++;
	/* Written at once: the pack goes at the end of the loop's pass. */
	if (lo->state == LINK_UP)
		cluster_link_out_write(lo);
	return 1;
}

void *
cluster_link_xadd(struct cluster *cl, const char *node)
{
	struct link_out *lo = cluster_link_slot(cl, node, 1);

	if (lo == NULL)
		return (void *)(intptr_t)-1;
	lo->xadds++;
	/* No link to node yet: asked for now, not at the next tick. */
	if (lo->state == LINK_NONE && cl->link_lis != NULL &&
	    clock_mono_ms() - lo->since_ms >= CLUSTER_LINK_RETRY_MS &&
	    cluster_redis_up(cl))
		cluster_link_ask(cl, node, cluster_node_inc(cl, node));
	return (void *)(intptr_t)(lo - cl->links);
}

void
cluster_link_xadded(redisAsyncContext *ac, void *reply, void *arg)
{
	struct cluster *cl = ac->data;
	redisReply *rep = reply;
	intptr_t i = (intptr_t)arg;
	struct link_out *lo;

	if (cl == NULL || i < 0 || i >= cl->nlinks)
		return;
	lo = &cl->links[i];
	if (lo->xadds > 0)
		lo->xadds--;
	if (rep != NULL && rep->type == REDIS_REPLY_STRING &&
	    rep->len < sizeof lo->last_id)
		snprintf(lo->last_id, sizeof lo->last_id, "%s", rep->str);
	if (lo->xadds == 0 && lo->state == LINK_FENCE)
		cluster_link_out_up(cl, lo);
}

void
cluster_link_over(struct cluster *cl, const char *node, unsigned long long inc)
{
	struct link_out *lo = cluster_link_slot(cl, node, 0);
	struct link_in *li, *next;

	if (lo != NULL && lo->state >= LINK_CONNECTING && lo->inc <= inc)
		cluster_link_out_close(lo, "the node is over");
	for (li = cl->link_ins; li != NULL; li = next) {
		next = li->next;
		if (strcmp(li->from, node) == 0 && li->inc <= inc)
			cluster_link_in_free(li);
	}
}

void
cluster_link_count(const struct cluster *cl, int *out, int *in)
{
	const struct link_in *li;
	int i;

	*out = *in = 0;
	for (i = 0; i < cl->nlinks; i++)
		*out += cl->links[i].state == LINK_UP;
	for (li = cl->link_ins; li != NULL; li = li->next)
		*in += li->from[0] != '\0' && !li->fenced && !li->dead;
}

void
cluster_link_stop(struct cluster *cl)
{
	int i;

	for (i = 0; i < cl->nlinks; i++)
		if (cl->links[i].state >= LINK_CONNECTING)
			cluster_link_out_close(&cl->links[i], "the node stops");
	while (cl->link_ins != NULL)
		cluster_link_in_free(cl->link_ins);
	if (cl->link_lis != NULL)
		evconnlistener_free(cl->link_lis);
	cl->link_lis = NULL;
	sodium_memzero(cl->link_secret, sizeof cl->link_secret);
}
