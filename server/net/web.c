/*
 * web.c: the web port (--web-port) and the TLS port (--tls-port): each
 * connection is sniffed by its first byte: an upper-case letter starts an
 * HTTP request (parsed by http-parser); anything else, or silence for
 * WEB_SNIFF_MS, is the line protocol, handed to net.c as a TCP
 * connection is. HTTP serves the browser client's files from memory
 * (webfile.c: built in, or --web-dir's read at start; GET and HEAD,
 * keep-alive, ETag and 304, gzip, a Content-Security-Policy that forbids
 * inline script), one response at a time: the next pipelined request is
 * not read before the last response is sent, so a connection holds its
 * socket and one response. GET /ws becomes a WebSocket (ws.c) once its
 * Origin is checked. The TLS port speaks all of it over TLS (tls.c), so
 * one port serves https://, wss:// and `tablero --tls`. Every wait is a
 * deadline, not an idle timer: a TLS handshake and a request head (the
 * first, or the next on a keep-alive connection) within WEB_HEAD_SEC, a
 * response taken within WEB_RESPONSE_SEC, whatever bytes trickle in.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>
#include <event2/listener.h>
#include <event2/util.h>
#include <http_parser.h>
#include <openssl/ssl.h>

#include "server/net/net.h"
#include "server/net/limit.h"

/* A request head (request line and headers) longer than this is refused
 * (431): a browser's is well under 2 KiB. */
#define WEB_HEAD_MAX 8192
/* A URL longer than this is refused (414): the client's files have short
 * names. */
#define WEB_URL_MAX 256
/* Header values kept (Host, Origin, Sec-WebSocket-Key...); longer ones are
 * cut and then fail their checks. */
#define WEB_VALUE_MAX 256
/* Seconds from a web connection's start (its TLS handshake included), or
 * from its last response, to a whole request head: a deadline, so a
 * client that trickles a byte now and then cannot hold a slot. A browser
 * sends its request at once. */
#define WEB_HEAD_SEC 15
/* Seconds a client has to take a whole response (at most one file, 33 KB
 * or 10 KB gzipped for the largest of the page): a deadline, so a reader
 * of a byte now and then cannot hold a slot either. */
#define WEB_RESPONSE_SEC 60
/* Requests on one keep-alive connection: a page and its dozen files,
 * reloaded a few times. */
#define WEB_REQUESTS_MAX 200
/* Milliseconds a new connection (after its TLS handshake) may stay silent
 * before it is taken for the line protocol and sent the welcome. A browser
 * sends its request soon after it connects, but not always at once: on a
 * busy machine Chromium took more than 300 ms, read the welcome as an
 * HTTP/0.9 response and failed the page (ERR_INVALID_HTTP_RESPONSE). So
 * the wait is long, and tablero speaks first (a blank line, which the
 * line protocol ignores) to be served at once; only a silent telnet or nc
 * waits this long for its welcome. Longer than Chromium keeps a socket it
 * opened ahead and never used (10 s): with 2 s, such a socket got the
 * welcome and a page reload then sent its request on it and hung
 * (test_web_roomstate in CI). */
#define WEB_SNIFF_MS 12000
/* Web listeners: the web port and the TLS port on every listen address. */
#define WEB_LISTENERS_MAX (SERVER_LISTEN_MAX * 4)

struct web {
	struct evconnlistener *listeners[WEB_LISTENERS_MAX];
	int tls_of[WEB_LISTENERS_MAX]; /* 1: the listener speaks TLS */
	int n;
	SSL_CTX *tls;
	struct webfiles *files; /* what GET serves (webfile.c) */
	TAILQ_HEAD(, web_conn) conns;
};

/* Which part of a header http-parser gave us last. */
enum web_hdr { WEB_HDR_NONE, WEB_HDR_FIELD, WEB_HDR_VALUE };

/* One HTTP connection, until it closes or becomes a WebSocket. */
struct web_conn {
	TAILQ_ENTRY(web_conn) entry;
	struct server *srv;
	struct bufferevent *bev;
	struct limit_entry *lim;
	char addr[64];
	int tls;
	int sniffed;    /* the first byte said HTTP */
	int closing;    /* the last response is going out */
	int responding; /* a response is going out: nothing more is read */
	int requests;
	struct event *sniff;    /* silent this long: the line protocol */
	struct event *deadline; /* a head or a response not done by then */
	http_parser parser;
	size_t head;       /* bytes parsed of the current request */
	int head_long;     /* its head was over WEB_HEAD_MAX */
	size_t head_bytes; /* its URL, header names and values */
	int done;          /* a request is complete */
	char url[WEB_URL_MAX + 1];
	size_t urllen;
	int url_long;
	enum web_hdr last;
	char field[32];
	size_t fieldlen;
	char value[WEB_VALUE_MAX + 1];
	size_t valuelen;
	char host[WEB_VALUE_MAX + 1], origin[WEB_VALUE_MAX + 1];
	char key[WEB_VALUE_MAX + 1], version[16];
	char accept_enc[WEB_VALUE_MAX + 1], inm[WEB_VALUE_MAX + 1];
};

static void web_read_cb(struct bufferevent *bev, void *arg);
static void web_write_cb(struct bufferevent *bev, void *arg);
static void web_event_cb(struct bufferevent *bev, short what, void *arg);
static void web_parse(struct web_conn *w);
static http_parser_settings web_settings;

/* Free a web connection (its bufferevent too unless keep_bev). */
static void
web_conn_free(struct web_conn *w, int keep_bev)
{
	struct server *srv = w->srv;

	TAILQ_REMOVE(&srv->web->conns, w, entry);
	srv->nweb--;
	if (w->sniff != NULL)
		event_free(w->sniff);
	if (w->deadline != NULL)
		event_free(w->deadline);
	if (!keep_bev && w->bev != NULL)
		bufferevent_free(w->bev);
	if (w->lim != NULL)
		w->lim->refs--;
	free(w);
}

/* Keep header field/value bytes, cut at the buffer's size. */
static void
web_keep(char *buf, size_t *len, size_t cap, const char *at, size_t n)
{
	if (*len + n > cap)
		n = cap > *len ? cap - *len : 0;
	memcpy(buf + *len, at, n);
	*len += n;
	buf[*len] = '\0';
}

/* One whole header arrived: keep the ones the server looks at. */
static void
web_header_done(struct web_conn *w)
{
	static const struct {
		const char *name;
		size_t off, cap;
	} keep[] = {
	    {"host", offsetof(struct web_conn, host), WEB_VALUE_MAX},
	    {"origin", offsetof(struct web_conn, origin), WEB_VALUE_MAX},
	    {"sec-websocket-key", offsetof(struct web_conn, key),
	        WEB_VALUE_MAX},
	    {"sec-websocket-version", offsetof(struct web_conn, version),
	        sizeof w->version - 1},
	    {"accept-encoding", offsetof(struct web_conn, accept_enc),
	        WEB_VALUE_MAX},
	    {"if-none-match", offsetof(struct web_conn, inm), WEB_VALUE_MAX},
	};
	size_t i;

	if (w->last != WEB_HDR_VALUE)
		return;
	for (i = 0; i < sizeof keep / sizeof keep[0]; i++)
		if (strcasecmp(w->field, keep[i].name) == 0)
			snprintf((char *)w + keep[i].off, keep[i].cap + 1, "%s",
			    w->value);
	w->fieldlen = w->valuelen = 0;
	w->field[0] = w->value[0] = '\0';
}

static int
web_on_begin(http_parser *p)
{
	struct web_conn *w = p->data;

	w->urllen = 0;
	w->url_long = 0;
	w->url[0] = w->host[0] = w->origin[0] = w->key[0] = w->version[0] =
	    w->accept_enc[0] = w->inm[0] = '\0';
	w->last = WEB_HDR_NONE;
	w->fieldlen = w->valuelen = 0;
	w->head_bytes = 0;
	return 0;
}

static int
web_on_url(http_parser *p, const char *at, size_t n)
{
	struct web_conn *w = p->data;

	w->head_bytes += n;
	if (w->urllen + n > WEB_URL_MAX)
		w->url_long = 1;
	web_keep(w->url, &w->urllen, WEB_URL_MAX, at, n);
	return 0;
}

static int
web_on_field(http_parser *p, const char *at, size_t n)
{
	struct web_conn *w = p->data;

	w->head_bytes += n;
	web_header_done(w);
	web_keep(w->field, &w->fieldlen, sizeof w->field - 1, at, n);
	w->last = WEB_HDR_FIELD;
	return 0;
}

static int
web_on_value(http_parser *p, const char *at, size_t n)
{
	struct web_conn *w = p->data;

	w->head_bytes += n;
	web_keep(w->value, &w->valuelen, WEB_VALUE_MAX, at, n);
	w->last = WEB_HDR_VALUE;
	return 0;
}

static int
web_on_headers(http_parser *p)
{
	struct web_conn *w = p->data;

	web_header_done(w);
	w->head_long = w->head_bytes > WEB_HEAD_MAX;
	return 0;
}

/* A request is complete: stop the parser so it is answered before the
 * next one (pipelined requests wait in the input). */
static int
web_on_complete(http_parser *p)
{
	struct web_conn *w = p->data;

	w->done = 1;
	http_parser_pause(p, 1);
	return 0;
}

/* Headers every response carries: no inline script, no framing, no
 * sniffing of types, no referrer. 'wasm-unsafe-eval' lets the page compile
 * its WebAssembly rules (js/rules.wasm, from this server); it allows no
 * eval of script. */
static void
web_common_headers(struct evbuffer *out)
{
	evbuffer_add_printf(out,
	    "Server: tablerod/%s\r\n"
	    "Content-Security-Policy: default-src 'self'; "
	    "script-src 'self' 'wasm-unsafe-eval'; "
	    "style-src 'self'; img-src 'self' data:; connect-src 'self'; "
	    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'\r\n"
	    "X-Content-Type-Options: nosniff\r\n"
	    "X-Frame-Options: DENY\r\n"
	    "Referrer-Policy: no-referrer\r\n",
	    TABLEROD_VERSION);
}

/* (Re)arm the connection's one deadline, sec seconds from now. */
static void
web_deadline_in(struct web_conn *w, int sec)
{
	struct timeval tv = {sec, 0};

	evtimer_add(w->deadline, &tv);
}

/* A response is queued: read nothing more until it is sent (web_write_cb
 * goes on with the next request, or closes when !keep). */
static void
web_responding(struct web_conn *w, int keep)
{
	w->responding = 1;
	if (!keep)
		w->closing = 1;
	bufferevent_disable(w->bev, EV_READ);
	web_deadline_in(w, WEB_RESPONSE_SEC);
}

/* Answer with a short text error and close once it is sent. */
static void
web_error(struct web_conn *w, int code, const char *reason)
{
	struct evbuffer *out = bufferevent_get_output(w->bev);
	char body[128];
	int n = snprintf(body, sizeof body, "%d %s\n", code, reason);

	net_count_http(code);
	evbuffer_add_printf(out, "HTTP/1.1 %d %s\r\n", code, reason);
	web_common_headers(out);
	evbuffer_add_printf(out,
	    "Content-Type: text/plain; charset=utf-8\r\n"
	    "Content-Length: %d\r\nConnection: close\r\n\r\n%s",
	    n, body);
	web_responding(w, 0);
}

/* Does an Accept-Encoding value take gzip: named (or "*") with a q above
 * 0? */
static int
web_accepts_gzip(const char *value)
{
	const char *p = value;
	int gzip = -1, star = -1;

	while (*p != '\0') {
		const char *end = strchr(p, ','), *semi, *q;
		size_t n, len = end != NULL ? (size_t)(end - p) : strlen(p);
		int yes = 1;

		while (len > 0 && (*p == ' ' || *p == '\t')) {
			p++;
			len--;
		}
		semi = memchr(p, ';', len);
		n = semi != NULL ? (size_t)(semi - p) : len;
		while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		/* q=0, q=0.0 ... refuse; any other q takes it */
		if (semi != NULL && (q = strstr(semi, "q=")) != NULL &&
		    q < p + len && strtod(q + 2, NULL) <= 0.0)
			yes = 0;
		if ((n == 4 && strncasecmp(p, "gzip", 4) == 0) ||
		    (n == 6 && strncasecmp(p, "x-gzip", 6) == 0))
			gzip = yes;
		else if (n == 1 && *p == '*')
			star = yes;
		if (end == NULL)
			break;
		p = end + 1;
	}
	return gzip >= 0 ? gzip : star > 0;
}

/* Does an If-None-Match value name etag (or "*")? Weak tags count. */
static int
web_etag_match(const char *value, const char *etag)
{
	const char *p = value;
	size_t n = strlen(etag);

	while (*p != '\0') {
		while (*p == ' ' || *p == '\t' || *p == ',')
			p++;
		if (*p == '*')
			return 1;
		if (strncmp(p, "W/", 2) == 0)
			p += 2;
		if (strncmp(p, etag, n) == 0 &&
		    (p[n] == '\0' || p[n] == ',' || p[n] == ' '))
			return 1;
		p = strchr(p, ',');
		if (p == NULL)
			break;
	}
	return 0;
}

/*
 * Serve one of the client's files from memory (HEAD: its headers only):
 * its gzip copy to a client that takes gzip, 304 to one that has it
 * already (If-None-Match), and an ETag with Cache-Control: no-cache, so a
 * browser keeps every file and asks again with its ETag (the files'
 * names carry no version, so a kept copy is checked on each load, and a
 * new server's files are seen at once).
 */
static void
web_file(struct web_conn *w, const char *path, int head, int keep)
{
	struct evbuffer *out = bufferevent_get_output(w->bev);
	const struct webfile *f;
	const char *etag;
	int gz;

	if (strcmp(path, "/") == 0)
		path = "/index.html";
	if ((f = webfile_find(w->srv->web->files, path)) == NULL) {
		web_error(w, 404, "Not Found");
		return;
	}
	gz = f->gz != NULL && web_accepts_gzip(w->accept_enc);
	etag = gz ? f->gzetag : f->etag;
	if (w->inm[0] != '\0' && web_etag_match(w->inm, etag)) {
		net_count_http(304);
		evbuffer_add_printf(out, "HTTP/1.1 304 Not Modified\r\n");
		web_common_headers(out);
		evbuffer_add_printf(out,
		    "ETag: %s\r\nCache-Control: no-cache\r\n%s"
		    "Connection: %s\r\n\r\n",
		    etag, f->gz != NULL ? "Vary: Accept-Encoding\r\n" : "",
		    keep ? "keep-alive" : "close");
		web_responding(w, keep);
		return;
	}
	net_count_http(200);
	evbuffer_add_printf(out, "HTTP/1.1 200 OK\r\n");
	web_common_headers(out);
	evbuffer_add_printf(out,
	    "Content-Type: %s\r\nContent-Length: %zu\r\n%s"
	    "ETag: %s\r\nCache-Control: no-cache\r\n%s"
	    "Connection: %s\r\n\r\n",
	    f->type, gz ? f->gzlen : f->len,
	    gz ? "Content-Encoding: gzip\r\n" : "", etag,
	    f->gz != NULL ? "Vary: Accept-Encoding\r\n" : "",
	    keep ? "keep-alive" : "close");
	/* a reference to the bytes in memory: nothing is copied */
	if (!head && (gz ? f->gzlen : f->len) > 0 &&
	    evbuffer_add_reference(out, gz ? f->gz : f->data,
	        gz ? f->gzlen : f->len, NULL, NULL) != 0)
		fatal("out of memory serving a file");
	web_responding(w, keep);
}

/* Is the Origin one this server's pages come from: the scheme and host
 * the request came to, or one named by --web-origin? A request without
 * Origin comes from no browser page and is let in (programs). */
static int
web_origin_ok(struct web_conn *w)
{
	const struct config *cfg = &w->srv->cfg;
	char self[WEB_VALUE_MAX + 16];
	int i;

	if (w->origin[0] == '\0')
		return 1;
	for (i = 0; i < cfg->nweb_origin; i++)
		if (strcasecmp(w->origin, cfg->web_origin[i]) == 0)
			return 1;
	if (w->host[0] == '\0')
		return 0;
	snprintf(
	    self, sizeof self, "%s://%s", w->tls ? "https" : "http", w->host);
	return strcasecmp(w->origin, self) == 0;
}

/* GET /ws with Upgrade: websocket: checked, then handed to ws.c. 0: the
 * connection is now the WebSocket's. */
static int
web_upgrade(struct web_conn *w)
{
	if (strcmp(w->url, "/ws") != 0) {
		web_error(w, 404, "Not Found");
		return -1;
	}
	if (strcmp(w->version, "13") != 0 || w->key[0] == '\0' ||
	    w->parser.method != HTTP_GET) {
		web_error(w, 400, "Bad Request");
		return -1;
	}
	if (!web_origin_ok(w)) {
		limit_log(w->srv, "web %s: origin %s refused (host %s)",
		    w->addr, w->origin, w->host);
		web_error(w, 403, "Forbidden");
		return -1;
	}
	if (ws_accept(w->srv, w->bev, w->key, w->addr, w->lim,
	        w->tls ? NET_BEV_WRITES : 0) != 0) {
		web_error(w, 400, "Bad Request");
		return -1;
	}
	return 0;
}

/* Answer the request just parsed. 1: the connection became a WebSocket
 * (w is freed). */
static int
web_answer(struct web_conn *w)
{
	int method = w->parser.method, keep;
	char *q;

	w->requests++;
	if (w->head_long) {
		web_error(w, 431, "Request Header Fields Too Large");
		return 0;
	}
	if (w->url_long) {
		web_error(w, 414, "URI Too Long");
		return 0;
	}
	if ((q = strchr(w->url, '?')) != NULL)
		*q = '\0';
	if (w->parser.upgrade) {
		if (web_upgrade(w) != 0)
			return 0;
		web_conn_free(w, 1);
		return 1;
	}
	if (method != HTTP_GET && method != HTTP_HEAD) {
		web_error(w, 405, "Method Not Allowed");
		return 0;
	}
	keep = http_should_keep_alive(&w->parser) &&
	    w->requests < WEB_REQUESTS_MAX;
	web_file(w, w->url, method == HTTP_HEAD, keep);
	return 0;
}

/* The first byte is not "G": the line protocol, handed to net.c. */
static void
web_to_lines(struct web_conn *w)
{
	struct bufferevent *bev = w->bev;
	struct server *srv = w->srv;
	int tls = w->tls;

	bufferevent_setwatermark(bev, EV_WRITE, 0, 0);
	net_conn_new(srv, bev, w->addr, w->lim, tls ? NET_BEV_WRITES : 0);
	web_conn_free(w, 1);
	bufferevent_trigger(bev, EV_READ, BEV_TRIG_IGNORE_WATERMARKS);
}

/* Nothing came for WEB_SNIFF_MS: a client waiting for the welcome. */
static void
web_sniff_cb(evutil_socket_t fd, short what, void *arg)
{
	struct web_conn *w = arg;

	if (!w->sniffed &&
	    evbuffer_get_length(bufferevent_get_input(w->bev)) == 0)
		web_to_lines(w);
}

/* Start waiting WEB_SNIFF_MS for a first byte. */
static void
web_sniff_start(struct web_conn *w)
{
	struct timeval tv = {WEB_SNIFF_MS / 1000, (WEB_SNIFF_MS % 1000) * 1000};

	w->sniff = evtimer_new(w->srv->base, web_sniff_cb, w);
	if (w->sniff == NULL)
		fatal("out of memory");
	evtimer_add(w->sniff, &tv);
}

/* The first bytes of a connection: an upper-case letter starts HTTP,
 * anything else is the line protocol. 1 when w is now HTTP, 0 when
 * nothing came yet or w went to net.c. */
static int
web_sniffed(struct web_conn *w)
{
	unsigned char first;

	if (w->sniffed)
		return 1;
	if (evbuffer_copyout(bufferevent_get_input(w->bev), &first, 1) < 1)
		return 0;
	/* HTTP methods are upper case; the protocol's verbs and JSON are
	 * not. */
	if (first < 'A' || first > 'Z') {
		web_to_lines(w);
		return 0;
	}
	w->sniffed = 1;
	return 1;
}

static void
web_read_cb(struct bufferevent *bev, void *arg)
{
	struct web_conn *w = arg;

	if (web_sniffed(w))
		web_parse(w);
}

/* Parse what came in up to the end of one request and answer it; the
 * next waits in the input until the answer is sent (web_write_cb). */
static void
web_parse(struct web_conn *w)
{
	struct evbuffer *in = bufferevent_get_input(w->bev);

	while (!w->closing && !w->responding && evbuffer_get_length(in) > 0) {
		struct evbuffer_iovec v;
		size_t n;
		enum http_errno e;

		if (evbuffer_peek(in, -1, NULL, &v, 1) < 1)
			break;
		w->done = 0;
		n = http_parser_execute(
		    &w->parser, &web_settings, v.iov_base, v.iov_len);
		e = HTTP_PARSER_ERRNO(&w->parser);
		evbuffer_drain(in, n);
		w->head += n;
		if (e == HPE_PAUSED)
			http_parser_pause(&w->parser, 0);
		else if (e != HPE_OK) {
			web_error(w, 400, "Bad Request");
			return;
		}
		if (w->done) {
			w->head = 0;
			if (web_answer(w))
				return;
			continue;
		}
		if (w->head > WEB_HEAD_MAX) {
			web_error(w, 431, "Request Header Fields Too Large");
			return;
		}
		if (n == 0)
			break;
	}
}

/* The output is sent: a closing connection is done; another reads its
 * next request, which has WEB_HEAD_SEC from now. */
static void
web_write_cb(struct bufferevent *bev, void *arg)
{
	struct web_conn *w = arg;

	if (evbuffer_get_length(bufferevent_get_output(bev)) > 0)
		return;
	if (w->closing) {
		web_conn_free(w, 0);
		return;
	}
	if (!w->responding)
		return;
	w->responding = 0;
	web_deadline_in(w, WEB_HEAD_SEC);
	bufferevent_enable(bev, EV_READ);
	web_parse(w);
}

static void
web_event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct web_conn *w = arg;

	if (what & BEV_EVENT_CONNECTED) {
		/* the TLS handshake is done */
		if (w->sniff == NULL)
			web_sniff_start(w);
		return;
	}
	web_conn_free(w, 0);
}

/* A deadline passed: a handshake or request head not whole, or a
 * response not taken, in time. */
static void
web_deadline_cb(evutil_socket_t fd, short what, void *arg)
{
	struct web_conn *w = arg;

	net_stats()->refused[NET_REFUSED_DEADLINE]++;
	log_debug("web %s: %s not done in time; closing", w->addr,
	    w->responding ? "a response" : "a request");
	web_conn_free(w, 0);
}

/* A connection to a web (tls 0) or TLS (1) listener from sa (the
 * client's address). */
static void
web_accept_from(
    struct server *srv, evutil_socket_t fd, const struct sockaddr *sa, int tls)
{
	struct web *web = srv->web;
	struct limit_entry *lim;
	struct web_conn *w;

	if ((lim = net_admit(srv, fd, sa)) == NULL)
		return;
	w = xcalloc(1, sizeof *w);
	w->srv = srv;
	w->lim = lim;
	lim->refs++;
	w->tls = tls;
	net_addr_words(sa, w->addr, sizeof w->addr);
	w->bev = tls ? tls_accept(srv, web->tls, fd)
	             : bufferevent_socket_new(srv->base, fd,
	                   BEV_OPT_CLOSE_ON_FREE | BEV_OPT_DEFER_CALLBACKS);
	if (w->bev == NULL) {
		/* tls_accept closed fd */
		lim->refs--;
		free(w);
		return;
	}
	if ((w->deadline = evtimer_new(srv->base, web_deadline_cb, w)) == NULL)
		fatal("out of memory");
	http_parser_init(&w->parser, HTTP_REQUEST);
	w->parser.data = w;
	TAILQ_INSERT_TAIL(&web->conns, w, entry);
	srv->nweb++;
	bufferevent_setcb(w->bev, web_read_cb, web_write_cb, web_event_cb, w);
	web_deadline_in(w, WEB_HEAD_SEC);
	bufferevent_enable(w->bev, EV_READ);
	if (!tls)
		web_sniff_start(w);
}

/* A new connection on a web or TLS listener: a trusted proxy's waits for
 * its PROXY header first (before any TLS). */
static void
web_accept_cb(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa,
    int socklen, void *arg)
{
	struct server *srv = arg;
	struct web *web = srv->web;
	int i, tls = 0;

	for (i = 0; i < web->n; i++)
		if (web->listeners[i] == l)
			tls = web->tls_of[i];
	if (proxy_take(srv, fd, sa, (socklen_t)socklen, web_accept_from, tls))
		return;
	web_accept_from(srv, fd, sa, tls);
}

/* Listen on port on every configured address; tls: the TLS listener. */
static int
web_bind(struct server *srv, int port, int tls)
{
	const struct config *cfg = &srv->cfg;
	static const char *const all[] = {"0.0.0.0", "::"};
	const char *const *hosts = cfg->nlisten > 0 ? cfg->listen : all;
	int nhosts = cfg->nlisten > 0 ? cfg->nlisten : 2, i, bound = 0;

	for (i = 0; i < nhosts; i++) {
		struct evconnlistener *l[4];
		int n = net_bind_port(srv, hosts[i], port, web_accept_cb, l, 4,
		        tls ? "web and websocket over tls"
		            : "web and websocket"),
		    k;

		if (n < 0 && cfg->nlisten > 0)
			return -1;
		for (k = 0; k < n && srv->web->n < WEB_LISTENERS_MAX; k++) {
			srv->web->tls_of[srv->web->n] = tls;
			srv->web->listeners[srv->web->n++] = l[k];
			bound++;
		}
	}
	return bound > 0 ? 0 : -1;
}

/* The files GET serves: --web-dir's, read now, or the built-in copy. 0,
 * or -1 logged (a --web-dir that cannot be read stops the start). */
static int
web_files(struct server *srv)
{
	const char *dir = srv->cfg.web_dir;
	char err[512];
	size_t bytes;
	int n;

	if ((srv->web->files = webfile_load(dir, err, sizeof err)) == NULL) {
		log_error("%s", err);
		return -1;
	}
	n = webfile_count(srv->web->files, &bytes);
	if (dir != NULL && n == 0) {
		log_error("--web-dir %s: no file to serve in it", dir);
		return -1;
	}
	log_info("web client: %d files, %zu bytes with their gzip copies, %s%s",
	    n, bytes, dir != NULL ? "read from " : "built in",
	    dir != NULL ? dir : "");
	return 0;
}

/* Start the web and TLS listeners the flags ask for. 0, or -1 logged. */
int
web_listen(struct server *srv)
{
	const struct config *cfg = &srv->cfg;
	struct stat st;

	if (cfg->web_port < 0 && cfg->tls_port < 0) {
		if (cfg->web_dir != NULL &&
		    (stat(cfg->web_dir, &st) != 0 || !S_ISDIR(st.st_mode))) {
			log_error("--web-dir %s: no such folder", cfg->web_dir);
			return -1;
		}
		return 0;
	}
	http_parser_settings_init(&web_settings);
	web_settings.on_message_begin = web_on_begin;
	web_settings.on_url = web_on_url;
	web_settings.on_header_field = web_on_field;
	web_settings.on_header_value = web_on_value;
	web_settings.on_headers_complete = web_on_headers;
	web_settings.on_message_complete = web_on_complete;
	srv->web = xcalloc(1, sizeof *srv->web);
	TAILQ_INIT(&srv->web->conns);
	if (web_files(srv) != 0)
		return -1;
	if (cfg->web_port >= 0 && web_bind(srv, cfg->web_port, 0) != 0)
		return -1;
	if (cfg->tls_port >= 0) {
		if (cfg->tls_cert == NULL || cfg->tls_key == NULL) {
			log_error("--tls-port needs --tls-cert and --tls-key");
			return -1;
		}
		if ((srv->web->tls = tls_server_ctx(
		         cfg->tls_cert, cfg->tls_key)) == NULL)
			return -1;
		if (web_bind(srv, cfg->tls_port, 1) != 0)
			return -1;
	}
	return 0;
}

/* Take connections on the web and TLS listeners again (on) or not:
 * net.c pauses every listener when descriptors run out. */
void
web_listeners_enable(struct server *srv, int on)
{
	int i;

	if (srv->web == NULL)
		return;
	for (i = 0; i < srv->web->n; i++)
		if (on)
			evconnlistener_enable(srv->web->listeners[i]);
		else
			evconnlistener_disable(srv->web->listeners[i]);
}

/* Stop taking web connections (shutting down). */
void
web_stop(struct server *srv)
{
	web_listeners_enable(srv, 0);
}

/* Free every web connection, WebSocket and listener. */
void
web_free_all(struct server *srv)
{
	struct web_conn *w;
	int i;

	ws_free_all(srv);
	if (srv->web == NULL)
		return;
	while ((w = TAILQ_FIRST(&srv->web->conns)) != NULL)
		web_conn_free(w, 0);
	for (i = 0; i < srv->web->n; i++)
		evconnlistener_free(srv->web->listeners[i]);
	tls_free(srv->web->tls);
	webfile_free(srv->web->files);
	free(srv->web);
	srv->web = NULL;
}
