/*
 * web.c: the web port (--web-port) and the TLS port (--tls-port): each
 * connection is sniffed by its first byte: an upper-case letter starts an
 * HTTP request (parsed by http-parser); anything else, or silence for
 * WEB_SNIFF_MS, is the line protocol, handed to net.c as a TCP
 * connection is. HTTP serves the browser client's plain
 * files from --web-dir (GET and HEAD, keep-alive, a Content-Security-Policy
 * that forbids inline script) and turns GET /ws into a WebSocket (ws.c)
 * once its Origin is checked. The TLS port speaks all of it over TLS
 * (tls.c), so one port serves https://, wss:// and `tablero --tls`.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

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
/* Seconds a web connection may stay silent (between requests, or in the
 * middle of one, or in a TLS handshake) before it is closed: a slow
 * client cannot hold a slot for long. */
#define WEB_IDLE_SEC 15
/* Seconds to send a response to a client that does not read. */
#define WEB_WRITE_SEC 30
/* Requests on one keep-alive connection: a page and its dozen files,
 * reloaded a few times. */
#define WEB_REQUESTS_MAX 200
/* Milliseconds a new connection (after its TLS handshake) may stay silent
 * before it is taken for the line protocol: a browser sends its request
 * at once, while telnet and tablero wait for the server's welcome. */
#define WEB_SNIFF_MS 300
/* Web listeners: the web port and the TLS port on every listen address. */
#define WEB_LISTENERS_MAX (SERVER_LISTEN_MAX * 4)

struct web {
	struct evconnlistener *listeners[WEB_LISTENERS_MAX];
	int tls_of[WEB_LISTENERS_MAX]; /* 1: the listener speaks TLS */
	int n;
	SSL_CTX *tls;
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
	int sniffed; /* the first byte said HTTP */
	int closing; /* the last response is going out */
	int requests;
	struct event *sniff; /* silent this long: the line protocol */
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
};

static void web_read_cb(struct bufferevent *bev, void *arg);
static void web_write_cb(struct bufferevent *bev, void *arg);
static void web_event_cb(struct bufferevent *bev, short what, void *arg);
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
	    '\0';
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
 * sniffing of types, no referrer. */
static void
web_common_headers(struct evbuffer *out)
{
	evbuffer_add_printf(out,
	    "Server: tablerod/%s\r\n"
	    "Content-Security-Policy: default-src 'self'; script-src 'self'; "
	    "style-src 'self'; img-src 'self' data:; connect-src 'self'; "
	    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'\r\n"
	    "X-Content-Type-Options: nosniff\r\n"
	    "X-Frame-Options: DENY\r\n"
	    "Referrer-Policy: no-referrer\r\n",
	    TABLEROD_VERSION);
}

/* Answer with a short text error and close once it is sent. */
static void
web_error(struct web_conn *w, int code, const char *reason)
{
	struct evbuffer *out = bufferevent_get_output(w->bev);
	char body[128];
	int n = snprintf(body, sizeof body, "%d %s\n", code, reason);

	evbuffer_add_printf(out, "HTTP/1.1 %d %s\r\n", code, reason);
	web_common_headers(out);
	evbuffer_add_printf(out,
	    "Content-Type: text/plain; charset=utf-8\r\n"
	    "Content-Length: %d\r\nConnection: close\r\n\r\n%s",
	    n, body);
	w->closing = 1;
	bufferevent_disable(w->bev, EV_READ);
}

/* The file's Content-Type by its name's ending; NULL: not served. */
static const char *
web_type(const char *path)
{
	static const struct {
		const char *ext, *type;
	} types[] = {
	    {".html", "text/html; charset=utf-8"},
	    {".js", "text/javascript; charset=utf-8"},
	    {".css", "text/css; charset=utf-8"},
	    {".svg", "image/svg+xml"},
	    {".png", "image/png"},
	    {".json", "application/json"},
	    {".ico", "image/x-icon"},
	    {".webmanifest", "application/manifest+json"},
	};
	const char *dot = strrchr(path, '.');
	size_t i;

	if (dot == NULL)
		return NULL;
	for (i = 0; i < sizeof types / sizeof types[0]; i++)
		if (strcmp(dot, types[i].ext) == 0)
			return types[i].type;
	return NULL;
}

/* Is the URL's path one the server may serve: letters, digits, '-', '_',
 * '.', '/', no "..", no hidden files, nothing of web/tests/? */
static int
web_path_ok(const char *path)
{
	const char *s;

	/* web/tests/ holds the browser tests and their driver, not the
	 * page. */
	if (path[0] != '/' || strstr(path, "..") != NULL ||
	    strstr(path, "//") != NULL || strstr(path, "/.") != NULL ||
	    strncmp(path, "/tests/", 7) == 0)
		return 0;
	for (s = path; *s != '\0'; s++)
		if (!isalnum((unsigned char)*s) && strchr("-_./", *s) == NULL)
			return 0;
	return 1;
}

/* Serve one of the client's files (HEAD: its headers only). */
static void
web_file(struct web_conn *w, const char *path, int head, int keep)
{
	struct evbuffer *out = bufferevent_get_output(w->bev);
	char full[1024];
	const char *type;
	struct stat st;
	int fd;

	if (strcmp(path, "/") == 0)
		path = "/index.html";
	type = web_type(path);
	if (!web_path_ok(path) || type == NULL || w->srv->cfg.web_dir == NULL) {
		web_error(w, 404, "Not Found");
		return;
	}
	snprintf(full, sizeof full, "%s%s", w->srv->cfg.web_dir, path);
	fd = open(full, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		if (fd >= 0)
			close(fd);
		web_error(w, 404, "Not Found");
		return;
	}
	evbuffer_add_printf(out, "HTTP/1.1 200 OK\r\n");
	web_common_headers(out);
	evbuffer_add_printf(out,
	    "Content-Type: %s\r\nContent-Length: %lld\r\n"
	    "Cache-Control: no-cache\r\nConnection: %s\r\n\r\n",
	    type, (long long)st.st_size, keep ? "keep-alive" : "close");
	if (head || st.st_size == 0)
		close(fd);
	else if (evbuffer_add_file(out, fd, 0, st.st_size) != 0)
		fatal("out of memory serving a file");
	if (!keep) {
		w->closing = 1;
		bufferevent_disable(w->bev, EV_READ);
	}
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

	bufferevent_set_timeouts(bev, NULL, NULL);
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
	struct timeval tv = {0, WEB_SNIFF_MS * 1000};

	w->sniff = evtimer_new(w->srv->base, web_sniff_cb, w);
	if (w->sniff == NULL)
		fatal("out of memory");
	evtimer_add(w->sniff, &tv);
}

/* Parse what came in, answering each complete request in turn. */
static void
web_read_cb(struct bufferevent *bev, void *arg)
{
	struct web_conn *w = arg;
	struct evbuffer *in = bufferevent_get_input(bev);

	if (!w->sniffed) {
		unsigned char first;

		if (evbuffer_copyout(in, &first, 1) < 1)
			return;
		/* HTTP methods are upper case; the protocol's verbs and JSON
		 * are not. */
		if (first < 'A' || first > 'Z') {
			web_to_lines(w);
			return;
		}
		w->sniffed = 1;
	}
	while (!w->closing && evbuffer_get_length(in) > 0) {
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

/* The output is sent: a closing connection is done. */
static void
web_write_cb(struct bufferevent *bev, void *arg)
{
	struct web_conn *w = arg;

	if (w->closing && evbuffer_get_length(bufferevent_get_output(bev)) == 0)
		web_conn_free(w, 0);
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
	if (what & BEV_EVENT_TIMEOUT)
		log_debug("web %s: timed out", w->addr);
	web_conn_free(w, 0);
}

/* A connection to a web (tls 0) or TLS (1) listener from sa (the
 * client's address). */
static void
web_accept_from(
    struct server *srv, evutil_socket_t fd, const struct sockaddr *sa, int tls)
{
	struct web *web = srv->web;
	struct timeval idle = {WEB_IDLE_SEC, 0}, wr = {WEB_WRITE_SEC, 0};
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
	http_parser_init(&w->parser, HTTP_REQUEST);
	w->parser.data = w;
	TAILQ_INSERT_TAIL(&web->conns, w, entry);
	srv->nweb++;
	bufferevent_setcb(w->bev, web_read_cb, web_write_cb, web_event_cb, w);
	bufferevent_set_timeouts(w->bev, &idle, &wr);
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

/* Start the web and TLS listeners the flags ask for. 0, or -1 logged. */
int
web_listen(struct server *srv)
{
	const struct config *cfg = &srv->cfg;

	if (cfg->web_port < 0 && cfg->tls_port < 0)
		return 0;
	http_parser_settings_init(&web_settings);
	web_settings.on_message_begin = web_on_begin;
	web_settings.on_url = web_on_url;
	web_settings.on_header_field = web_on_field;
	web_settings.on_header_value = web_on_value;
	web_settings.on_headers_complete = web_on_headers;
	web_settings.on_message_complete = web_on_complete;
	srv->web = xcalloc(1, sizeof *srv->web);
	TAILQ_INIT(&srv->web->conns);
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

/* Stop taking web connections (shutting down). */
void
web_stop(struct server *srv)
{
	int i;

	if (srv->web == NULL)
		return;
	for (i = 0; i < srv->web->n; i++)
		evconnlistener_disable(srv->web->listeners[i]);
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
	free(srv->web);
	srv->web = NULL;
}
