/*
 * conn.c: the client's one connection to tablerod: resolve and connect,
 * cut what arrives into lines with protocol/'s framer, send JSON lines,
 * keep the queue of requests waiting for their replies, and when the
 * connection is lost, try again with a capped backoff (interactive mode).
 * A connection without --tls speaks first with a few blank lines: the
 * line protocol ignores them, and a server's TLS port closes at once, so
 * that it is told from a slow server at once.
 */
#include <sys/socket.h>

#include <netdb.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>

#include "client-cli/client.h"

/* Bytes read from the socket per framer pass. */
#define CONN_CHUNK 4096

/* The first words of a plain connection: empty lines, which the line
 * protocol ignores without a reply (docs/PROTOCOL.md, section 1); on a
 * web port they say "not HTTP", so the welcome comes at once instead of
 * after the server's wait for a browser's request (web.c's WEB_SNIFF_MS);
 * and a TLS server reads them as a record header that cannot be one (5
 * bytes) and closes the connection at once: the probe for a TLS port. */
#define CONN_PROBE "\n\n\n\n\n"

/* The first byte of a TLS record a server sends first: an alert (21) or
 * a handshake (22); tablerod's welcome begins with '{'. */
#define CONN_TLS_ALERT 0x15
#define CONN_TLS_HANDSHAKE 0x16

static void conn_read_cb(struct bufferevent *bev, void *arg);
static void conn_event_cb(struct bufferevent *bev, short what, void *arg);

/* Forget every request still waiting for its reply. */
static void
conn_pending_clear(struct client *c)
{
	while (c->npending > 0) {
		struct client_pending *p = &c->pending[c->pending_head];
		free(p->path);
		p->path = NULL;
		c->pending_head = (c->pending_head + 1) % CLIENT_PENDING_MAX;
		c->npending--;
	}
	c->pending_head = 0;
}

/* Resolve host:port and open a non-blocking connection; 0 or -1. */
int
conn_start(struct client *c)
{
	struct addrinfo hints, *res = NULL;
	int rc;

	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	rc = getaddrinfo(c->opts.host, c->opts.port, &hints, &res);
	if (rc != 0 || res == NULL) {
		view_print(c, "Cannot find server %s: %s.\n", c->opts.host,
		    gai_strerror(rc));
		return -1;
	}
	c->framer = proto_framer_new(CLIENT_LINE_MAX);
	c->bev = bufferevent_socket_new(c->base, -1, BEV_OPT_CLOSE_ON_FREE);
	if (c->framer == NULL || c->bev == NULL) {
		freeaddrinfo(res);
		conn_stop(c);
		return -1;
	}
	rc = bufferevent_socket_connect(
	    c->bev, res->ai_addr, (int)res->ai_addrlen);
	freeaddrinfo(res);
	if (rc != 0) {
		conn_stop(c);
		return -1;
	}
	if (c->opts.tls) {
		char why[256];
		struct bufferevent *t = tls_wrap(c, c->bev, why, sizeof why);

		if (t == NULL) {
			view_print(c, "Cannot connect with TLS: %s.\n", why);
			conn_stop(c);
			return -1;
		}
		c->bev = t;
	}
	bufferevent_setcb(c->bev, conn_read_cb, NULL, conn_event_cb, c);
	bufferevent_enable(c->bev, EV_READ | EV_WRITE);
	return 0;
}

/* Close the connection (if any) and forget what it waited for. */
void
conn_stop(struct client *c)
{
	if (c->bev != NULL)
		bufferevent_free(c->bev);
	c->bev = NULL;
	proto_framer_free(c->framer);
	c->framer = NULL;
	c->connected = 0;
	c->logged_in = 0;
	c->resyncing = 0;
	c->heard = 0;
	c->probed = 0;
	c->tls_port = 0;
	conn_pending_clear(c);
}

/* The retry timer: connect again. */
static void
conn_retry_cb(evutil_socket_t fd, short what, void *arg)
{
	struct client *c = arg;

	if (conn_start(c) != 0)
		conn_lost(c, "cannot connect");
}

/* The connection is gone: a batch ends; a person's client says so and
 * tries again after a wait that doubles up to CLIENT_BACKOFF_MAX_MS. */
void
conn_lost(struct client *c, const char *why)
{
	struct timeval tv;
	int was_connected = c->connected, tls_port = c->tls_port;

	conn_stop(c);
	if (c->quitting) {
		event_base_loopexit(c->base, NULL);
		return;
	}
	if (tls_port && !c->ever_logged_in) {
		view_print(c,
		    "The server at %s:%s speaks TLS (it is a --tls-port): "
		    "add --tls (tablero --tls %s:%s).\n",
		    c->opts.host, c->opts.port, c->opts.host, c->opts.port);
		c->exit_code = CLIENT_EXIT_CONNECT;
		event_base_loopexit(c->base, NULL);
		return;
	}
	if (c->opts.batch || !c->ever_logged_in) {
		if (was_connected)
			view_print(c, "The connection to %s:%s is lost (%s).\n",
			    c->opts.host, c->opts.port, why);
		c->exit_code = c->ever_logged_in || was_connected
		    ? CLIENT_EXIT_LOST
		    : CLIENT_EXIT_CONNECT;
		if (!c->ever_logged_in && !was_connected)
			view_print(c, "Cannot connect to %s:%s (%s).\n",
			    c->opts.host, c->opts.port, why);
		event_base_loopexit(c->base, NULL);
		return;
	}
	if (c->dozing) {
		view_print(c, "%s; type any command to connect again.\n",
		    c->dozing == PROTO_E_IDLE
		        ? "The server closed the connection after a long "
		          "silence in the lobby"
		        : "An operator of the server closed the connection");
		return;
	}
	if (c->backoff_ms == 0)
		c->backoff_ms = CLIENT_BACKOFF_FIRST_MS;
	if (was_connected)
		view_print(c,
		    "The connection to the server is lost (%s); "
		    "reconnecting...\n",
		    why);
	tv.tv_sec = c->backoff_ms / 1000;
	tv.tv_usec = (c->backoff_ms % 1000) * 1000;
	c->backoff_ms *= 2;
	if (c->backoff_ms > CLIENT_BACKOFF_MAX_MS)
		c->backoff_ms = CLIENT_BACKOFF_MAX_MS;
	if (c->retry == NULL)
		c->retry = evtimer_new(c->base, conn_retry_cb, c);
	if (c->retry != NULL)
		evtimer_add(c->retry, &tv);
}

/* The connection's end, out of its own callback. */
static void
conn_lost_cb(evutil_socket_t fd, short what, void *arg)
{
	struct client *c = arg;

	conn_lost(c, c->lost_why);
}

/* End the connection from a fresh loop pass, never from inside its own
 * callback; c->lost_why says why. */
static void
conn_end(struct client *c, struct bufferevent *bev)
{
	struct timeval now = {0, 0};

	bufferevent_disable(bev, EV_READ | EV_WRITE);
	if (event_base_once(c->base, -1, EV_TIMEOUT, conn_lost_cb, c, &now) !=
	    0)
		conn_lost(c, c->lost_why);
}

/* Connected, an error, or the end of the stream. */
static void
conn_event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct client *c = arg;

	if (what & BEV_EVENT_CONNECTED) {
		/* Speak first (CONN_PROBE); over TLS (after the handshake)
		 * one blank line says "not HTTP" to the TLS port's sniff. */
		if (c->opts.tls) {
			bufferevent_write(bev, "\n", 1);
		} else {
			c->probed = 1;
			bufferevent_write(
			    bev, CONN_PROBE, sizeof CONN_PROBE - 1);
		}
		if (!c->connected)
			session_connected(c);
		c->connected = 1;
		return;
	}
	if (!(what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)))
		return;
	c->lost_why = what & BEV_EVENT_EOF
	    ? "the server closed it"
	    : evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR());
	if (c->opts.tls && tls_why(bev) != NULL)
		c->lost_why = tls_why(bev);
	if (!c->opts.tls && c->probed && !c->heard) {
		/* closed at the probe without a word: a TLS port */
		c->tls_port = 1;
		c->lost_why = "it speaks TLS: add --tls";
	}
	conn_end(c, bev);
}

/* The first bytes of a plain connection: 0, or -1 when they begin a TLS
 * record (the connection is then ended). */
static int
conn_first_bytes(struct client *c, struct bufferevent *bev)
{
	unsigned char b;

	if (c->heard)
		return 0;
	c->heard = 1;
	if (c->opts.tls ||
	    evbuffer_copyout(bufferevent_get_input(bev), &b, 1) != 1 ||
	    (b != CONN_TLS_ALERT && b != CONN_TLS_HANDSHAKE))
		return 0;
	c->tls_port = 1;
	c->lost_why = "it speaks TLS: add --tls";
	conn_end(c, bev);
	return -1;
}

/* Lines from the server, one at a time through the framer. */
static void
conn_read_cb(struct bufferevent *bev, void *arg)
{
	struct client *c = arg;
	struct evbuffer *in = bufferevent_get_input(bev);
	char buf[CONN_CHUNK];
	int n;

	if (!c->connected) {
		/* bytes may come before libevent reports the connect */
		c->connected = 1;
		session_connected(c);
	}
	if (conn_first_bytes(c, bev) != 0)
		return;
	while (
	    c->bev == bev && (n = evbuffer_remove(in, buf, sizeof buf)) > 0) {
		size_t off = 0;
		while (off < (size_t)n && c->bev == bev) {
			const char *line;
			size_t len;
			int toolong;
			off += proto_framer_push(c->framer, buf + off,
			    (size_t)n - off, &line, &len, &toolong);
			if (toolong)
				view_print(c,
				    "The server sent a line longer "
				    "than %d bytes; it is ignored.\n",
				    CLIENT_LINE_MAX);
			if (line != NULL)
				session_line(c, line, len);
		}
	}
}

/* Queue what the reply to the next request is for; -1 when full. */
static int
conn_pending_push(
    struct client *c, enum client_purpose purpose, const char *path)
{
	struct client_pending *p;

	if (c->npending >= CLIENT_PENDING_MAX)
		return -1;
	p = &c->pending[(c->pending_head + c->npending) % CLIENT_PENDING_MAX];
	p->purpose = purpose;
	p->path = path != NULL ? strdup(path) : NULL;
	c->npending++;
	return 0;
}

/* The user acts after an idle close: connect again now. */
static void
conn_wake(struct client *c)
{
	c->dozing = 0;
	c->backoff_ms = 0;
	view_print(c,
	    "Connecting again to %s:%s; type the command once more when "
	    "connected.\n",
	    c->opts.host, c->opts.port);
	if (conn_start(c) != 0)
		conn_lost(c, "cannot connect");
}

/* Send one request (consumed) and remember what its reply is for. */
int
conn_send(
    struct client *c, cJSON *req, enum client_purpose purpose, const char *path)
{
	char *line;
	int rc = -1;

	if (req == NULL)
		return -1;
	if (c->bev == NULL || !c->connected) {
		cJSON_Delete(req);
		if (c->dozing) {
			conn_wake(c);
			return -1;
		}
		view_print(c,
		    "Not connected to the server: try again in a "
		    "moment.\n");
		return -1;
	}
	line = proto_json_line(req);
	cJSON_Delete(req);
	if (line != NULL && conn_pending_push(c, purpose, path) == 0)
		rc = bufferevent_write(c->bev, line, strlen(line));
	else if (line != NULL)
		view_print(c,
		    "Too many requests are waiting for the server: "
		    "try again in a moment.\n");
	free(line);
	return rc;
}

/* Send a line the user wrote as JSON, as it is (batch). */
int
conn_send_raw(struct client *c, const char *line, size_t len)
{
	if (c->bev == NULL || !c->connected)
		return -1;
	if (conn_pending_push(c, CLIENT_P_PRINT, NULL) != 0)
		return -1;
	if (bufferevent_write(c->bev, line, len) != 0)
		return -1;
	return bufferevent_write(c->bev, "\n", 1);
}
