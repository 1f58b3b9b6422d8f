/*
 * proxy.c: connections from a trusted load balancer (--proxy-from, such as
 * HAProxy with send-proxy-v2) start with a PROXY protocol header (parsed
 * by protocol/proxy.c) saying whose connection it is. Such a connection
 * waits here, counted against --max-clients but against no address, until
 * its header is read, exactly its bytes and no more: then the client's
 * address (or, for LOCAL and UNKNOWN, the proxy's own) is handed to the
 * listener's code (net.c, web.c) as if the client had connected itself,
 * and every per-address limit, log line and cluster report counts that
 * address. A malformed header, or none within PROXY_HEADER_SEC, closes the
 * connection with a logged reason. Connections from other sources are
 * plain: a header from them is no header, only bytes. Its lists of
 * addresses and networks serve --metrics-from too (proxy_list_*).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <event2/event.h>
#include <event2/util.h>

#include "server/net/net.h"
#include "server/net/limit.h"

/* Seconds a trusted proxy has to send a whole header: a proxy sends it at
 * once, and the spec asks for at least 3 s to cover a TCP retransmit; a
 * source that sends half a header cannot hold a slot for longer. */
#define PROXY_HEADER_SEC 5
#define PROXY_STR2(x) #x
#define PROXY_STR(x) PROXY_STR2(x)
/* Entries in --proxy-from: a few load balancers, or their networks. */
#define PROXY_NETS_MAX 16
/* The longest entry: an IPv6 address and "/128". */
#define PROXY_NET_TEXT_MAX 64

/* One trusted source: an address and how many of its leading bits. */
struct proxy_net {
	int family; /* AF_INET or AF_INET6 */
	uint8_t addr[16];
	int bits;
};

/* A trusted connection waiting for its header. */
struct proxy_wait {
	TAILQ_ENTRY(proxy_wait) entry;
	struct server *srv;
	evutil_socket_t fd;
	struct sockaddr_storage peer;
	char peer_text[64];
	struct event *ev, *timer;
	proxy_done_fn *done;
	int arg;
	unsigned char buf[PROTO_PROXY_MAX];
	size_t have;
};

struct proxy {
	struct proxy_net nets[PROXY_NETS_MAX];
	int nnets;
	TAILQ_HEAD(, proxy_wait) waits;
	int nwaits;
};

/* A list of addresses and networks (--metrics-from). */
struct proxy_list {
	struct proxy_net nets[PROXY_NETS_MAX];
	int n;
};

/* Parse one "ADDR[/BITS]" entry of flag's list. 0, or -1 with the
 * reason. */
static int
proxy_net_parse(const char *flag, const char *s, size_t len,
    struct proxy_net *n, char *err, size_t errlen)
{
	char text[PROXY_NET_TEXT_MAX];
	char *slash, *end;
	long bits;

	if (len == 0 || len >= sizeof text) {
		snprintf(err, errlen, "%s: '%.*s' is not ADDR[/BITS]", flag,
		    (int)(len < sizeof text ? len : sizeof text), s);
		return -1;
	}
	memcpy(text, s, len);
	text[len] = '\0';
	if ((slash = strchr(text, '/')) != NULL)
		*slash = '\0';
	memset(n, 0, sizeof *n);
	if (inet_pton(AF_INET, text, n->addr) == 1) {
		n->family = AF_INET;
		n->bits = 32;
	} else if (inet_pton(AF_INET6, text, n->addr) == 1) {
		n->family = AF_INET6;
		n->bits = 128;
	} else {
		snprintf(err, errlen, "%s: '%s' is no IP address", flag, text);
		return -1;
	}
	if (slash == NULL)
		return 0;
	errno = 0;
	bits = strtol(slash + 1, &end, 10);
	if (slash[1] == '\0' || *end != '\0' || errno != 0 || bits < 0 ||
	    bits > n->bits) {
		snprintf(err, errlen, "%s: '/%s' is not 0 to %d bits", flag,
		    slash + 1, n->bits);
		return -1;
	}
	n->bits = (int)bits;
	return 0;
}

/* Parse flag's comma-separated list into nets (at most max). Their
 * number, or -1 with the reason in err. */
static int
proxy_nets_parse(const char *flag, const char *list, struct proxy_net *nets,
    int max, char *err, size_t errlen)
{
	const char *p = list, *comma;
	int n = 0;

	for (;;) {
		comma = strchr(p, ',');
		if (n == max) {
			snprintf(
			    err, errlen, "%s: at most %d entries", flag, max);
			return -1;
		}
		if (proxy_net_parse(flag, p,
		        comma != NULL ? (size_t)(comma - p) : strlen(p),
		        &nets[n], err, errlen) != 0)
			return -1;
		n++;
		if (comma == NULL)
			return n;
		p = comma + 1;
	}
}

/* Is --proxy-from's value a good list? 0, or -1 with the reason. */
int
proxy_check_flag(const char *list, char *err, size_t errlen)
{
	struct proxy_net nets[PROXY_NETS_MAX];

	return proxy_nets_parse(
	           "--proxy-from", list, nets, PROXY_NETS_MAX, err, errlen) < 0
	    ? -1
	    : 0;
}

/* Read --proxy-from. 0, or -1 logged. */
int
proxy_init(struct server *srv)
{
	char err[160];
	int n;

	if (srv->cfg.proxy_from == NULL)
		return 0;
	srv->proxy = xcalloc(1, sizeof *srv->proxy);
	TAILQ_INIT(&srv->proxy->waits);
	n = proxy_nets_parse("--proxy-from", srv->cfg.proxy_from,
	    srv->proxy->nets, PROXY_NETS_MAX, err, sizeof err);
	if (n < 0) {
		log_error("%s", err);
		return -1;
	}
	srv->proxy->nnets = n;
	log_info("PROXY protocol required from %s", srv->cfg.proxy_from);
	return 0;
}

/* Do the first bits of a and b agree? */
static int
proxy_bits_match(const uint8_t *a, const uint8_t *b, int bits)
{
	int whole = bits / 8, rest = bits % 8;

	if (memcmp(a, b, (size_t)whole) != 0)
		return 0;
	return rest == 0 ||
	    ((a[whole] ^ b[whole]) & (0xff << (8 - rest)) & 0xff) == 0;
}

/* Is sa in one of nets[0..n)? (An IPv4-mapped IPv6 address is its
 * IPv4 address.) */
static int
proxy_nets_match(const struct proxy_net *nets, int n, const struct sockaddr *sa)
{
	const uint8_t *a;
	int family, i;

	if (sa->sa_family == AF_INET) {
		family = AF_INET;
		a = (const uint8_t *)&(
		    (const struct sockaddr_in *)(const void *)sa)
		        ->sin_addr;
	} else if (sa->sa_family == AF_INET6) {
		a = ((const struct sockaddr_in6 *)(const void *)sa)
		        ->sin6_addr.s6_addr;
		family = AF_INET6;
		if (IN6_IS_ADDR_V4MAPPED((const struct in6_addr *)a)) {
			family = AF_INET;
			a += 12;
		}
	} else
		return 0;
	for (i = 0; i < n; i++)
		if (nets[i].family == family &&
		    proxy_bits_match(a, nets[i].addr, nets[i].bits))
			return 1;
	return 0;
}

/* Is sa one of --proxy-from's sources? */
static int
proxy_trusted(const struct proxy *px, const struct sockaddr *sa)
{
	return proxy_nets_match(px->nets, px->nnets, sa);
}

/* flag's list of ADDR[/BITS] (such as --metrics-from), parsed; NULL with
 * the reason in err. */
struct proxy_list *
proxy_list_new(const char *flag, const char *list, char *err, size_t errlen)
{
	struct proxy_list *l = xcalloc(1, sizeof *l);

	if ((l->n = proxy_nets_parse(
	         flag, list, l->nets, PROXY_NETS_MAX, err, errlen)) < 0) {
		free(l);
		return NULL;
	}
	return l;
}

/* Is sa one of the list's addresses or in one of its networks? */
int
proxy_list_has(const struct proxy_list *l, const struct sockaddr *sa)
{
	return proxy_nets_match(l->nets, l->n, sa);
}

void
proxy_list_free(struct proxy_list *l)
{
	free(l);
}

/* Connections waiting for their header (they count as clients). */
int
proxy_waiting(const struct server *srv)
{
	return srv->proxy != NULL ? srv->proxy->nwaits : 0;
}

/* Forget a wait; its socket too unless keep_fd. */
static void
proxy_wait_free(struct proxy_wait *w, int keep_fd)
{
	struct proxy *px = w->srv->proxy;

	TAILQ_REMOVE(&px->waits, w, entry);
	px->nwaits--;
	event_free(w->ev);
	event_free(w->timer);
	if (!keep_fd)
		evutil_closesocket(w->fd);
	free(w);
}

/* Give up on a wait: logged (rate-limited, the bytes sanitized), closed. */
static void
proxy_wait_fail(struct proxy_wait *w, const char *why)
{
	char shown[LOG_CLIENT_BYTES * 4 + 1];
	size_t n = w->have < LOG_CLIENT_BYTES ? w->have : LOG_CLIENT_BYTES;

	limit_log(w->srv, "proxy %s: %s; closing (read \"%s\")", w->peer_text,
	    why, log_sanitize((const char *)w->buf, n, shown, sizeof shown));
	proxy_wait_free(w, 0);
}

/* The header is read: on to the listener with the address it says. */
static void
proxy_wait_done(struct proxy_wait *w, const struct proto_proxy *pp)
{
	struct sockaddr_storage ss = w->peer;
	struct server *srv = w->srv;
	evutil_socket_t fd = w->fd;
	proxy_done_fn *done = w->done;
	int arg = w->arg;
	char where[64];

	if (!pp->local && pp->family == 4) {
		struct sockaddr_in *in = (struct sockaddr_in *)&ss;

		memset(&ss, 0, sizeof ss);
		in->sin_family = AF_INET;
		memcpy(&in->sin_addr, pp->addr, 4);
		in->sin_port = htons(pp->port);
	} else if (!pp->local) {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;

		memset(&ss, 0, sizeof ss);
		in6->sin6_family = AF_INET6;
		memcpy(&in6->sin6_addr, pp->addr, 16);
		in6->sin6_port = htons(pp->port);
	}
	net_addr_words((struct sockaddr *)&ss, where, sizeof where);
	log_debug("proxy %s: PROXY v%d %s %s", w->peer_text, pp->version,
	    pp->local ? "local, stays" : "for", where);
	proxy_wait_free(w, 1);
	done(srv, fd, (struct sockaddr *)&ss, arg);
}

/* Bytes came: take those that belong to the header, and no more. */
static void
proxy_wait_read(evutil_socket_t fd, short what, void *arg)
{
	struct proxy_wait *w = arg;
	struct proto_proxy pp;
	ssize_t n, got;
	size_t take;
	int rc;

	(void)what;
	n = recv(fd, w->buf + w->have, sizeof w->buf - w->have, MSG_PEEK);
	if (n < 0 &&
	    (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return;
	if (n <= 0) {
		log_debug("proxy %s: closed before its PROXY header (%s)",
		    w->peer_text, n == 0 ? "eof" : strerror(errno));
		proxy_wait_free(w, 0);
		return;
	}
	rc = proto_proxy_parse(w->buf, w->have + (size_t)n, &pp);
	if (rc == PROTO_PROXY_BAD) {
		w->have += (size_t)n;
		proxy_wait_fail(w, pp.why);
		return;
	}
	/* MORE: every byte seen is the header's; DONE: up to its end. */
	take = rc == PROTO_PROXY_DONE ? pp.len - w->have : (size_t)n;
	got = recv(fd, w->buf + w->have, take, 0);
	if (got != (ssize_t)take) {
		proxy_wait_fail(w, "could not read its header back");
		return;
	}
	w->have += take;
	if (rc == PROTO_PROXY_DONE)
		proxy_wait_done(w, &pp);
}

/* PROXY_HEADER_SEC passed without a whole header. */
static void
proxy_wait_timeout(evutil_socket_t fd, short what, void *arg)
{
	struct proxy_wait *w = arg;

	(void)fd;
	(void)what;
	proxy_wait_fail(
	    w, "no whole PROXY header in " PROXY_STR(PROXY_HEADER_SEC) " s");
}

/*
 * A new connection on fd from sa: when sa is a trusted proxy, it waits
 * here for its header (or is refused when the server is full or shutting
 * down), done(srv, fd, client address) is called once the header is
 * read, and 1 is returned: the caller is done with fd. 0: a plain
 * connection, the caller goes on.
 */
int
proxy_take(struct server *srv, evutil_socket_t fd, const struct sockaddr *sa,
    socklen_t salen, proxy_done_fn *done, int arg)
{
	struct timeval tv = {PROXY_HEADER_SEC, 0};
	struct proxy *px = srv->proxy;
	struct proxy_wait *w;

	if (px == NULL || !proxy_trusted(px, sa))
		return 0;
	if (!net_admit_room(srv, fd))
		return 1;
	w = xcalloc(1, sizeof *w);
	w->srv = srv;
	w->fd = fd;
	w->done = done;
	w->arg = arg;
	if ((size_t)salen > sizeof w->peer)
		salen = sizeof w->peer;
	memcpy(&w->peer, sa, (size_t)salen);
	net_addr_words(sa, w->peer_text, sizeof w->peer_text);
	w->ev =
	    event_new(srv->base, fd, EV_READ | EV_PERSIST, proxy_wait_read, w);
	w->timer = evtimer_new(srv->base, proxy_wait_timeout, w);
	if (w->ev == NULL || w->timer == NULL)
		fatal("out of memory accepting a connection");
	TAILQ_INSERT_TAIL(&px->waits, w, entry);
	px->nwaits++;
	event_add(w->ev, NULL);
	evtimer_add(w->timer, &tv);
	return 1;
}

/* Close every connection still waiting for its header (shutting down). */
void
proxy_stop(struct server *srv)
{
	struct proxy_wait *w;

	if (srv->proxy == NULL)
		return;
	while ((w = TAILQ_FIRST(&srv->proxy->waits)) != NULL)
		proxy_wait_free(w, 0);
}

/* Free what proxy_init made. */
void
proxy_free_all(struct server *srv)
{
	proxy_stop(srv);
	free(srv->proxy);
	srv->proxy = NULL;
}
