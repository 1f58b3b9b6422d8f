/*
 * ws.c: a WebSocket (RFC 6455, framed by wslay) as one more connection
 * of the line protocol. The handshake's accept key is SHA-1 and base64
 * from OpenSSL. Each WebSocket gets a bufferevent pair: the server's end
 * is an ordinary struct conn (net.c: same limits, rate limits and output
 * cap as TCP), this file holds the other end and turns each text message
 * into one line and each line into one text message.
 *
 * Everything a WebSocket makes the server hold is bounded and counted:
 * output waits in the pair while the socket is behind, and what this
 * file holds for the browser (lines taken from the pair, frames, the
 * socket's output) counts in the connection's output (ws_unsent, read by
 * net.c against --max-output and --max-output-total). Reading stops
 * while the browser does not take its frames or the server has not taken
 * the last message, so a client that never reads cannot make the server
 * hold what it sends either. Pings and pongs never reach wslay (which
 * would queue a pong for every ping): this file reads them itself, at
 * most at a rate (past it, nothing more of that browser is read until
 * the rate allows the next one, so a flood stalls in its own socket and
 * costs nothing), and answers at most one ping a WS_PONG_MS, the latest. They
 * do not count as activity: only a message keeps a WebSocket from its idle
 * close. A WebSocket being closed is freed at its deadline whatever the peer
 * sends, and counts against --max-clients and its address's connections until
 * then.
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
 * (--max-output) sees them; and the most lines taken from the pair
 * before they are framed. */
#define WS_OUT_HIGH (64 * 1024)
/* The browser's bytes read ahead of wslay: a frame's header or a whole
 * control frame (at most 131 bytes) and some of the next; reading stops
 * at this until they are taken. */
#define WS_IN_HIGH (16 * 1024)
/* Seconds a closing WebSocket may take to send its last messages and the
 * close frame and to hear the browser's: a deadline, whatever the peer
 * sends meanwhile. */
#define WS_CLOSE_SEC 5
/* Seconds a WebSocket may go without a message (the page sends a ping
 * request every 30 s; control frames do not count), and a browser may
 * take no byte while frames wait for it. */
#define WS_IDLE_SEC 120
/* Control frames (pings and pongs) read from a browser a second, and in
 * a burst: browsers send none on their own, a program a few a minute;
 * past this the browser is read at this pace (a flood waits in its own
 * socket). */
#define WS_CONTROL_PER_SEC 5
#define WS_CONTROL_BURST 20
/* Milliseconds between two pongs at least: pings in between are answered
 * by one pong, for the latest (RFC 6455, 5.5.3, allows it). */
#define WS_PONG_MS 1000
/* A control frame's longest payload (RFC 6455, 5.5). */
#define WS_CONTROL_MAX 125

struct ws {
	TAILQ_ENTRY(ws) entry;
	struct server *srv;
	struct bufferevent *sock; /* the socket (or TLS) */
	struct bufferevent *end;  /* this side of the pair */
	wslay_event_context_ptr ctx;
	struct conn *conn; /* the server's end's connection, until freed */
	struct limit_entry *lim; /* its address's limits */
	int counted;   /* the connection went: this counts the socket */
	int tls;       /* sock writes by itself (TLS) */
	int conn_gone; /* the server's end closed: sending the rest */
	int busy;      /* inside wslay: free later */
	int dead;
	int waiting;   /* reading stopped: ws_may_read said no, or the rate */
	int throttled; /* past the control frames' rate: reading waits */
	int logged;    /* that was logged once */
	uint64_t frame_left;   /* bytes of the current frame wslay may read */
	struct bucket control; /* the browser's pings and pongs */
	int64_t pong_ms;       /* the last pong queued */
	int pong_due;          /* a ping waits for its pong, in pong[] */
	size_t ponglen;
	uint8_t pong[WS_CONTROL_MAX];
	int64_t msg_ms;         /* the browser's last message */
	struct event *idle;     /* watches msg_ms */
	struct event *ponger;   /* the next pong, when it had to wait */
	struct event *deadline; /* armed once the close begins */
	struct event *throttle; /* the next control frame may be read */
};
static TAILQ_HEAD(, ws) ws_all = TAILQ_HEAD_INITIALIZER(ws_all);

static void ws_pump(struct ws *ws);
static void ws_resume(struct ws *ws);

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
	if (ws->conn != NULL)
		ws->conn->ws = NULL;
	if (ws->counted) {
		ws->srv->nweb--;
		ws->lim->refs--;
	}
	TAILQ_REMOVE(&ws_all, ws, entry);
	bufferevent_free(ws->end);
	bufferevent_free(ws->sock);
	wslay_event_context_free(ws->ctx);
	event_free(ws->idle);
	event_free(ws->ponger);
	event_free(ws->deadline);
	event_free(ws->throttle);
	free(ws);
}

/* Bytes on their way to the browser: in the socket's output and framed
 * in wslay. */
static size_t
ws_behind(const struct ws *ws)
{
	return evbuffer_get_length(bufferevent_get_output(ws->sock)) +
	    wslay_event_get_queued_msg_length(ws->ctx);
}

/* What this WebSocket holds for the browser beyond the pair: the lines
 * taken from it, the frames, the socket's output (net.c counts it in the
 * connection's output). */
size_t
ws_unsent(const struct ws *ws)
{
	return evbuffer_get_length(bufferevent_get_input(ws->end)) +
	    ws_behind(ws);
}

/* May more of the browser's frames be read: wslay reads still (no close
 * came), the server has taken its last message (or is gone) and the
 * browser is taking its frames? */
static int
ws_may_read(const struct ws *ws)
{
	return !ws->throttled && wslay_event_get_read_enabled(ws->ctx) &&
	    ws_behind(ws) < WS_OUT_HIGH &&
	    (ws->conn_gone ||
	        evbuffer_get_length(bufferevent_get_output(ws->end)) <
	            ws->srv->cfg.max_line);
}

/* The close has begun (sent, received, or the server's end gone): the
 * WebSocket is freed WS_CLOSE_SEC from now at the latest. */
static void
ws_closing(struct ws *ws)
{
	struct timeval tv = {WS_CLOSE_SEC, 0};

	if (!evtimer_pending(ws->deadline, NULL))
		evtimer_add(ws->deadline, &tv);
}

/* The close's deadline passed: the WebSocket goes, whatever is left. */
static void
ws_deadline_cb(evutil_socket_t fd, short what, void *arg)
{
	struct ws *ws = arg;

	net_stats()->refused[NET_REFUSED_DEADLINE]++;
	log_debug("websocket: its close not done in %d s; closing its socket",
	    WS_CLOSE_SEC);
	ws_free(ws);
}

/* Bytes were queued for the browser outside the pair (a pong, a close
 * frame): counted in the connection's output like any other. */
static void
ws_added(struct ws *ws, size_t len)
{
	if (ws->conn != NULL)
		net_output_added(ws->conn, len);
}

/* A control frame from the browser (already unmasked, and within the
 * rate): a ping's answer is kept for ws_pong. */
static void
ws_control(struct ws *ws, int ping, const uint8_t *payload, size_t len)
{
	ws->control.tokens -= 1.0;
	if (!ping)
		return; /* an unasked pong: a heartbeat, nothing to answer */
	memcpy(ws->pong, payload, len);
	ws->ponglen = len;
	ws->pong_due = 1;
}

/* May one more control frame be read now? If not, reading waits until
 * the rate allows it (ws_throttle_cb), said once in the log. */
static int
ws_control_ok(struct ws *ws)
{
	int64_t now = clock_mono_ms(), wait;
	struct timeval tv;

	if (bucket_has(&ws->control, WS_CONTROL_PER_SEC / 1000.0,
	        WS_CONTROL_BURST, now))
		return 1;
	wait = bucket_wait_ms(&ws->control, WS_CONTROL_PER_SEC / 1000.0);
	tv.tv_sec = wait / 1000;
	tv.tv_usec = (wait % 1000) * 1000;
	ws->throttled = 1;
	evtimer_add(ws->throttle, &tv);
	net_stats()->refused[NET_REFUSED_WS_CONTROL]++;
	if (!ws->logged) {
		ws->logged = 1;
		limit_log(ws->srv,
		    "websocket %s: more than %d pings and pongs a second: read "
		    "at that pace",
		    ws->conn != NULL ? ws->conn->addr : "?",
		    WS_CONTROL_PER_SEC);
	}
	return 0;
}

/* The rate allows the next control frame: reading goes on. */
static void
ws_throttle_cb(evutil_socket_t fd, short what, void *arg)
{
	struct ws *ws = arg;

	ws->throttled = 0;
	ws_resume(ws);
}

/*
 * At the start of a frame: look at its header in the socket's input. A
 * ping or pong as a browser sends it (final, masked, at most 125 bytes,
 * no extension bits) is taken here whole; anything else is wslay's to
 * read (a malformed control frame too: wslay closes with 1002), and
 * frame_left is its length. 1: a frame for wslay; 2: a control frame
 * taken; 0: its header (or the control frame) is not whole yet.
 */
static int
ws_frame_start(struct ws *ws)
{
	struct evbuffer *in = bufferevent_get_input(ws->sock);
	size_t have = evbuffer_get_length(in), hlen = 2, i;
	uint8_t h[2 + 4 + WS_CONTROL_MAX];
	uint64_t plen;

	if (have < 2)
		return 0;
	evbuffer_copyout(in, h, have < 14 ? have : 14);
	plen = h[1] & 0x7f;
	if ((h[0] == (0x80 | WSLAY_PING) || h[0] == (0x80 | WSLAY_PONG)) &&
	    (h[1] & 0x80) != 0 && plen <= WS_CONTROL_MAX) {
		if (have < 6 + plen || !ws_control_ok(ws))
			return 0;
		evbuffer_remove(in, h, 6 + plen);
		for (i = 0; i < plen; i++)
			h[6 + i] ^= h[2 + i % 4];
		ws_control(ws, h[0] == (0x80 | WSLAY_PING), h + 6, plen);
		return 2;
	}
	if (plen == 126)
		hlen += 2;
	else if (plen == 127)
		hlen += 8;
	if (have < hlen)
		return 0;
	if (plen == 126) {
		plen = (uint64_t)h[2] << 8 | h[3];
	} else if (plen == 127) {
		plen = 0;
		for (i = 2; i < 10; i++)
			plen = plen << 8 | h[i];
	}
	hlen += (h[1] & 0x80) != 0 ? 4 : 0;
	/* a length past 2^63 is wslay's to refuse */
	ws->frame_left = plen > UINT64_MAX - hlen ? UINT64_MAX : plen + hlen;
	return 1;
}

/* Stop reading the socket until ws_resume: what is read stays in its
 * input, the rest in the kernel. (With reading on, libevent would call
 * the read callback again and again for an input left at its high mark.) */
static void
ws_wait(struct ws *ws)
{
	ws->waiting = 1;
	bufferevent_disable(ws->sock, EV_READ);
}

/* wslay reads: the bytes of the current frame, and at a frame's end no
 * further (the next frame's header is looked at first), while reading
 * may go on. */
static ssize_t
ws_recv_cb(wslay_event_context_ptr ctx, uint8_t *buf, size_t len, int flags,
    void *user)
{
	struct ws *ws = user;
	struct evbuffer *in = bufferevent_get_input(ws->sock);
	size_t n;
	int r;

	for (;;) {
		if (!ws_may_read(ws)) {
			ws_wait(ws);
			break;
		}
		if (ws->frame_left == 0 && (r = ws_frame_start(ws)) != 1) {
			if (r == 2)
				continue;
			if (ws->throttled)
				ws_wait(ws);
			break;
		}
		n = evbuffer_get_length(in);
		if (n > len)
			n = len;
		if (n > ws->frame_left)
			n = (size_t)ws->frame_left;
		if (n == 0)
			break;
		n = (size_t)evbuffer_remove(in, buf, n);
		ws->frame_left -= n;
		return (ssize_t)n;
	}
	wslay_event_set_error(ctx, WSLAY_ERR_WOULDBLOCK);
	return -1;
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
	ws->msg_ms = clock_mono_ms();
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

/* The pong a ping waits for: now, if WS_PONG_MS has passed since the
 * last, else when it has (for the latest ping by then). */
static void
ws_pong(struct ws *ws)
{
	struct wslay_event_msg msg;
	int64_t now = clock_mono_ms(), wait = ws->pong_ms + WS_PONG_MS - now;

	if (!ws->pong_due)
		return;
	if (wait > 0) {
		struct timeval tv = {wait / 1000, (wait % 1000) * 1000};

		if (!evtimer_pending(ws->ponger, NULL))
			evtimer_add(ws->ponger, &tv);
		return;
	}
	ws->pong_due = 0;
	ws->pong_ms = now;
	msg.opcode = WSLAY_PONG;
	msg.msg = ws->pong;
	msg.msg_length = ws->ponglen;
	if (wslay_event_queue_msg(ws->ctx, &msg) == 0)
		ws_added(ws, 2 + ws->ponglen);
}

/* The pong interval passed: the latest ping's pong goes. */
static void
ws_ponger_cb(evutil_socket_t fd, short what, void *arg)
{
	struct ws *ws = arg;

	ws_pong(ws);
	ws_pump(ws);
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

/* Frames may be read again: read on, and what is already in, later in
 * this loop pass (not from inside the callback that made room). */
static void
ws_resume(struct ws *ws)
{
	if (!ws->waiting || !ws_may_read(ws))
		return;
	ws->waiting = 0;
	bufferevent_enable(ws->sock, EV_READ);
	bufferevent_trigger(ws->sock, EV_READ,
	    BEV_TRIG_IGNORE_WATERMARKS | BEV_TRIG_DEFER_CALLBACKS);
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
		    (const uint8_t *)"bye", 3); /* no connection to count in */
	ws->busy++;
	if (wslay_event_send(ws->ctx) != 0)
		ws->dead = 1;
	ws->busy--;
	ws_flush(ws);
	if (wslay_event_get_close_sent(ws->ctx) ||
	    wslay_event_get_close_received(ws->ctx) ||
	    !wslay_event_get_read_enabled(ws->ctx))
		ws_closing(ws);
	if (!wslay_event_want_read(ws->ctx) &&
	    !wslay_event_want_write(ws->ctx) &&
	    evbuffer_get_length(bufferevent_get_output(ws->sock)) == 0)
		ws->dead = 1;
	if (ws->dead) {
		ws_free(ws);
		return;
	}
	ws_resume(ws);
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
	/* the close came (or a malformed frame): nothing more is read */
	if (!wslay_event_get_read_enabled(ws->ctx))
		ws_wait(ws);
	ws_pong(ws);
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

/* The server took the messages waiting in the pair: read on. */
static void
ws_end_write(struct bufferevent *bev, void *arg)
{
	ws_resume(arg);
}

/* The server's end closed: send what is left, a close frame, and end
 * once it is out (or at the close's deadline). */
static void
ws_end_event(struct bufferevent *bev, short what, void *arg)
{
	struct ws *ws = arg;

	if (!(what & BEV_EVENT_EOF) || ws->conn_gone)
		return;
	ws->conn_gone = 1;
	ws_closing(ws);
	ws_pump(ws);
}

/* No message for WS_IDLE_SEC (pings and pongs do not count): closed. */
static void
ws_idle_cb(evutil_socket_t fd, short what, void *arg)
{
	struct ws *ws = arg;
	int64_t left =
	    ws->msg_ms + (int64_t)WS_IDLE_SEC * 1000 - clock_mono_ms();
	struct timeval tv = {left / 1000, (left % 1000) * 1000};

	if (left > 0) {
		evtimer_add(ws->idle, &tv);
		return;
	}
	log_debug("websocket %s: no message in %d s; closing",
	    ws->conn != NULL ? ws->conn->addr : "?", WS_IDLE_SEC);
	ws_free(ws);
}

/* The server's end's connection is being freed (net.c): from now on
 * this socket counts against --max-clients and its address's
 * connections by itself, until it is closed. */
void
ws_conn_freed(struct ws *ws)
{
	ws->conn = NULL;
	if (ws->counted)
		return;
	ws->counted = 1;
	ws->srv->nweb++;
	ws->lim->refs++;
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
	ws->lim = lim;
	ws->msg_ms = clock_mono_ms();
	ws->pong_ms = ws->msg_ms - WS_PONG_MS;
	if (wslay_event_context_server_init(&ws->ctx, &cbs, ws) != 0 ||
	    bufferevent_pair_new(srv->base, BEV_OPT_DEFER_CALLBACKS, pair) != 0)
		fatal("out of memory making a websocket");
	ws->idle = evtimer_new(srv->base, ws_idle_cb, ws);
	ws->ponger = evtimer_new(srv->base, ws_ponger_cb, ws);
	ws->deadline = evtimer_new(srv->base, ws_deadline_cb, ws);
	ws->throttle = evtimer_new(srv->base, ws_throttle_cb, ws);
	if (ws->idle == NULL || ws->ponger == NULL || ws->deadline == NULL ||
	    ws->throttle == NULL)
		fatal("out of memory making a websocket");
	/* A message is a line: the line limit is the message limit (over
	 * it, wslay closes with 1009). */
	wslay_event_config_set_max_recv_msg_length(ws->ctx, srv->cfg.max_line);
	ws->end = pair[1];
	TAILQ_INSERT_TAIL(&ws_all, ws, entry);
	net_count_http(101);
	evbuffer_add_printf(bufferevent_get_output(bev),
	    "HTTP/1.1 101 Switching Protocols\r\n"
	    "Upgrade: websocket\r\nConnection: Upgrade\r\n"
	    "Sec-WebSocket-Accept: %s\r\n\r\n",
	    accept);
	ws->tls = (flags & NET_BEV_WRITES) != 0;
	bufferevent_setcb(bev, ws_sock_read, ws_sock_write, ws_sock_event, ws);
	bufferevent_setwatermark(bev, EV_WRITE, WS_OUT_HIGH / 4, 0);
	bufferevent_setwatermark(bev, EV_READ, 0, WS_IN_HIGH);
	/* only a browser that takes no byte while frames wait times out
	 * here; a silent one is ws_idle_cb's */
	bufferevent_set_timeouts(bev, NULL, &idle);
	evtimer_add(ws->idle, &idle);
	bufferevent_enable(bev, ws->tls ? EV_READ | EV_WRITE : EV_READ);
	if (!ws->tls)
		bufferevent_disable(bev, EV_WRITE);
	ws_flush(ws);
	/* Lines beyond WS_OUT_HIGH stay in the server's end. */
	bufferevent_setwatermark(pair[1], EV_READ, 0, WS_OUT_HIGH);
	bufferevent_setcb(pair[1], ws_end_read, ws_end_write, ws_end_event, ws);
	bufferevent_enable(pair[1], EV_READ | EV_WRITE);
	ws->conn = net_conn_new(srv, pair[0], addr, lim, flags | NET_RELAY);
	ws->conn->ws = ws;
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
