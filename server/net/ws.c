/*
 * ws.c: a WebSocket (RFC 6455, framed by wslay) as one more connection
 * of the line protocol. The handshake's accept key is SHA-1 and base64
 * from OpenSSL. Each WebSocket gets a bufferevent pair: the server's end
 * is an ordinary struct conn (net.c: same limits, rate limits and output
 * cap as TCP), this file holds the other end and turns each text message
 * into one line and each line into one text message. Output waits in the
 * pair (where net.c's cap counts it) while the socket is behind.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <sodium.h>
#include <wslay/wslay.h>

#include "server/net/net.h"
#include "server/net/limit.h"

/* The GUID RFC 6455 appends to the client's key. */
#define WS_GUID "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
/* Output bytes sent to the socket (or framed, waiting) before the lines
 * behind them are left in the pair, where the connection's output cap
 * (--max-output) sees them. */
#define WS_OUT_HIGH (64 * 1024)
/* Seconds a closing WebSocket may take to send its last messages and the
 * close frame, and a silent browser may stay without a ping (the page
 * pings every 30 s). */
#define WS_CLOSE_SEC 5
#define WS_IDLE_SEC 120

struct ws {
	TAILQ_ENTRY(ws) entry;
	struct server *srv;
	struct bufferevent *sock; /* the socket (or TLS) */
	struct bufferevent *end;  /* this side of the pair */
	wslay_event_context_ptr ctx;
	int tls;       /* sock writes by itself (TLS) */
	int conn_gone; /* the server's end closed: sending the rest */
	int busy;      /* inside wslay: free later */
	int dead;
};
static TAILQ_HEAD(, ws) ws_all = TAILQ_HEAD_INITIALIZER(ws_all);

static void ws_pump(struct ws *ws);

/* Free the WebSocket; the server's end hears of it as an end of file. */
static void
ws_free(struct ws *ws)
{
	if (ws->busy) {
		ws->dead = 1;
		return;
	}
	if (!ws->conn_gone)
		bufferevent_flush(ws->end, EV_WRITE, BEV_FINISHED);
	TAILQ_REMOVE(&ws_all, ws, entry);
	bufferevent_free(ws->end);
	bufferevent_free(ws->sock);
	wslay_event_context_free(ws->ctx);
	free(ws);
}

static ssize_t
ws_recv_cb(wslay_event_context_ptr ctx, uint8_t *buf, size_t len, int flags,
    void *user)
{
	struct ws *ws = user;
	int n = evbuffer_remove(bufferevent_get_input(ws->sock), buf, len);

	if (n <= 0) {
		wslay_event_set_error(ctx, WSLAY_ERR_WOULDBLOCK);
		return -1;
	}
	return n;
}

static ssize_t
ws_send_cb(wslay_event_context_ptr ctx, const uint8_t *data, size_t len,
    int flags, void *user)
{
	struct ws *ws = user;

	if (bufferevent_write(ws->sock, data, len) != 0) {
		wslay_event_set_error(ctx, WSLAY_ERR_CALLBACK_FAILURE);
		return -1;
	}
	return (ssize_t)len;
}

static int
ws_genmask_cb(wslay_event_context_ptr ctx, uint8_t *buf, size_t len, void *user)
{
	randombytes_buf(buf, len);
	return 0;
}

/* A whole message from the browser: a text one is one line for the
 * server (its line ends, which JSON reads as spaces, made spaces), any
 * other is refused with close code 1003. */
static void
ws_msg_cb(wslay_event_context_ptr ctx,
    const struct wslay_event_on_msg_recv_arg *arg, void *user)
{
	struct ws *ws = user;
	struct evbuffer *out;
	size_t i, from = 0;

	if (arg->opcode == WSLAY_BINARY_FRAME) {
		wslay_event_queue_close(
		    ctx, WSLAY_CODE_UNSUPPORTED_DATA, NULL, 0);
		return;
	}
	if (arg->opcode != WSLAY_TEXT_FRAME || ws->conn_gone)
		return;
	out = bufferevent_get_output(ws->end);
	for (i = 0; i < arg->msg_length; i++) {
		if (arg->msg[i] != '\n' && arg->msg[i] != '\r')
			continue;
		evbuffer_add(out, arg->msg + from, i - from);
		evbuffer_add(out, " ", 1);
		from = i + 1;
	}
	evbuffer_add(out, arg->msg + from, arg->msg_length - from);
	evbuffer_add(out, "\n", 1);
}

/* Bytes on their way to the browser: in the socket's output and framed
 * in wslay. */
static size_t
ws_behind(struct ws *ws)
{
	return evbuffer_get_length(bufferevent_get_output(ws->sock)) +
	    wslay_event_get_queued_msg_length(ws->ctx);
}

/*
 * Write the socket's output now, as net.c does for TCP: its write event
 * is armed only for what the kernel did not take (arming and disarming
 * it for every message would cost two epoll_ctl calls each). A TLS
 * bufferevent writes by itself.
 */
static void
ws_flush(struct ws *ws)
{
	struct evbuffer *out = bufferevent_get_output(ws->sock);
	int n, err;

	if (ws->tls || evbuffer_get_length(out) == 0)
		return;
	evbuffer_unfreeze(out, 1);
	n = evbuffer_write(out, bufferevent_getfd(ws->sock));
	err = errno;
	evbuffer_freeze(out, 1);
	if (n < 0 && err != EAGAIN && err != EWOULDBLOCK && err != EINTR) {
		ws->dead = 1;
		return;
	}
	if (evbuffer_get_length(out) > 0)
		bufferevent_enable(ws->sock, EV_WRITE);
}

/* Frame the server's complete lines while the browser keeps up (all of
 * them once the server's end is gone), and send. */
static void
ws_pump(struct ws *ws)
{
	struct evbuffer *in = bufferevent_get_input(ws->end);

	while (ws->conn_gone || ws_behind(ws) < WS_OUT_HIGH) {
		struct evbuffer_ptr eol = evbuffer_search(in, "\n", 1, NULL);
		struct wslay_event_msg msg;
		unsigned char *line;

		if (eol.pos < 0)
			break;
		line = evbuffer_pullup(in, eol.pos + 1);
		msg.opcode = WSLAY_TEXT_FRAME;
		msg.msg = line;
		msg.msg_length = (size_t)eol.pos;
		if (wslay_event_queue_msg(ws->ctx, &msg) != 0)
			break; /* closing: the rest is dropped */
		evbuffer_drain(in, (size_t)eol.pos + 1);
	}
	if (ws->conn_gone && !wslay_event_get_close_sent(ws->ctx))
		wslay_event_queue_close(ws->ctx, WSLAY_CODE_NORMAL_CLOSURE,
		    (const uint8_t *)"bye", 3);
	ws->busy++;
	if (wslay_event_send(ws->ctx) != 0)
		ws->dead = 1;
	ws->busy--;
	ws_flush(ws);
	if (!wslay_event_want_read(ws->ctx) &&
	    !wslay_event_want_write(ws->ctx) &&
	    evbuffer_get_length(bufferevent_get_output(ws->sock)) == 0)
		ws->dead = 1;
	if (ws->dead)
		ws_free(ws);
}

/* The browser sent something: frames in, lines to the server. */
static void
ws_sock_read(struct bufferevent *bev, void *arg)
{
	struct ws *ws = arg;

	ws->busy++;
	if (wslay_event_recv(ws->ctx) != 0)
		ws->dead = 1;
	ws->busy--;
	ws_pump(ws);
}

/* The socket took its output (down to the low mark): send more, and
 * disarm the write event once all is out. */
static void
ws_sock_write(struct bufferevent *bev, void *arg)
{
	struct ws *ws = arg;

	if (!ws->tls && evbuffer_get_length(bufferevent_get_output(bev)) == 0)
		bufferevent_disable(bev, EV_WRITE);
	ws_pump(ws);
}

static void
ws_sock_event(struct bufferevent *bev, short what, void *arg)
{
	struct ws *ws = arg;

	if (what & BEV_EVENT_CONNECTED)
		return;
	ws_free(ws);
}

/* Lines from the server. */
static void
ws_end_read(struct bufferevent *bev, void *arg)
{
	ws_pump(arg);
}

/* The server's end closed: send what is left, a close frame, and end
 * once it is out (or after WS_CLOSE_SEC). */
static void
ws_end_event(struct bufferevent *bev, short what, void *arg)
{
	struct ws *ws = arg;
	struct timeval tv = {WS_CLOSE_SEC, 0};

	if (!(what & BEV_EVENT_EOF) || ws->conn_gone)
		return;
	ws->conn_gone = 1;
	bufferevent_set_timeouts(ws->sock, &tv, &tv);
	ws_pump(ws);
}

/* The Sec-WebSocket-Accept for key: base64 of SHA-1 of key and the GUID
 * (OpenSSL's). 0, or -1 for a key that is not 16 bytes in base64. */
static int
ws_accept_key(const char *key, char out[32])
{
	unsigned char md[SHA_DIGEST_LENGTH], raw[24];
	char both[128];
	int n;

	/* 16 random bytes in base64 are 24 characters. */
	if (strlen(key) != 24)
		return -1;
	n = EVP_DecodeBlock(raw, (const unsigned char *)key, 24);
	if (n != 18 || key[22] != '=' || key[23] != '=')
		return -1;
	snprintf(both, sizeof both, "%s%s", key, WS_GUID);
	SHA1((const unsigned char *)both, strlen(both), md);
	EVP_EncodeBlock((unsigned char *)out, md, sizeof md);
	return 0;
}

/*
 * Turn an HTTP connection (bev, after its GET /ws request) into a
 * WebSocket: answer 101, make the pair and the server's connection. 0, or
 * -1 for a bad key (the caller answers 400; nothing was taken).
 */
int
ws_accept(struct server *srv, struct bufferevent *bev, const char *key,
    const char *addr, struct limit_entry *lim, int flags)
{
	static const struct wslay_event_callbacks cbs = {
	    ws_recv_cb, ws_send_cb, ws_genmask_cb, NULL, NULL, NULL, ws_msg_cb};
	struct timeval idle = {WS_IDLE_SEC, 0};
	struct bufferevent *pair[2];
	char accept[32];
	struct ws *ws;

	if (ws_accept_key(key, accept) != 0)
		return -1;
	ws = xcalloc(1, sizeof *ws);
	ws->srv = srv;
	ws->sock = bev;
	if (wslay_event_context_server_init(&ws->ctx, &cbs, ws) != 0 ||
	    bufferevent_pair_new(srv->base, BEV_OPT_DEFER_CALLBACKS, pair) != 0)
		fatal("out of memory making a websocket");
	/* A message is a line: the line limit is the message limit (over
	 * it, wslay closes with 1009). */
	wslay_event_config_set_max_recv_msg_length(ws->ctx, srv->cfg.max_line);
	ws->end = pair[1];
	TAILQ_INSERT_TAIL(&ws_all, ws, entry);
	evbuffer_add_printf(bufferevent_get_output(bev),
	    "HTTP/1.1 101 Switching Protocols\r\n"
	    "Upgrade: websocket\r\nConnection: Upgrade\r\n"
	    "Sec-WebSocket-Accept: %s\r\n\r\n",
	    accept);
	ws->tls = (flags & NET_BEV_WRITES) != 0;
	bufferevent_setcb(bev, ws_sock_read, ws_sock_write, ws_sock_event, ws);
	bufferevent_setwatermark(bev, EV_WRITE, WS_OUT_HIGH / 4, 0);
	bufferevent_set_timeouts(bev, &idle, &idle);
	bufferevent_enable(bev, ws->tls ? EV_READ | EV_WRITE : EV_READ);
	if (!ws->tls)
		bufferevent_disable(bev, EV_WRITE);
	ws_flush(ws);
	/* Lines beyond WS_OUT_HIGH stay in the server's end. */
	bufferevent_setwatermark(pair[1], EV_READ, 0, WS_OUT_HIGH);
	bufferevent_setcb(pair[1], ws_end_read, NULL, ws_end_event, ws);
	bufferevent_enable(pair[1], EV_READ | EV_WRITE);
	net_conn_new(srv, pair[0], addr, lim, flags | NET_RELAY);
	if (evbuffer_get_length(bufferevent_get_input(bev)) > 0)
		bufferevent_trigger(bev, EV_READ, BEV_TRIG_IGNORE_WATERMARKS);
	return 0;
}

/* Free every WebSocket (at exit). */
void
ws_free_all(struct server *srv)
{
	struct ws *ws;

	while ((ws = TAILQ_FIRST(&ws_all)) != NULL) {
		ws->busy = 0;
		ws->conn_gone = 1;
		ws_free(ws);
	}
}
