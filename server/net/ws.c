/*
 * ws.c: a WebSocket (RFC 6455) as one more connection of the line
 * protocol, framed here, with nothing between the socket and the
 * session: the browser's frames are unmasked straight from the socket's
 * input into the connection's input (each text message one line, its
 * line ends made spaces), and the connection's output lines are framed
 * straight into the socket's output when net.c's flusher writes them,
 * one text frame per line, all that a loop pass queued in one write. The
 * connection (net.c: same limits, rate limits and output cap as TCP) has
 * no bufferevent of its own: its input and output are two evbuffers of
 * this file, and net.c calls ws_send to write and ws_resume to read on.
 * The handshake's accept key is SHA-1 and base64 from OpenSSL.
 *
 * Everything a WebSocket makes the server hold is bounded and counted:
 * the frames waiting in the socket's output (ws_unsent, pongs and close
 * frames too) count in the connection's output, against --max-output
 * and --max-output-total. Reading stops while the browser does not take
 * its frames or the server has not taken its last message, so a client
 * that never reads cannot make the server hold what it sends either.
 * Pings and pongs are read at most at a rate (past it, nothing more of
 * that browser is read until the rate allows the next one, so a flood
 * stalls in its own socket and costs nothing), and at most one ping a
 * WS_PONG_MS is answered, the latest. They do not count as activity:
 * only a message keeps a WebSocket from its idle close. A WebSocket
 * outlives its connection: once the connection is freed (ws_conn_freed)
 * it sends the close frame and waits for the browser's, at most until
 * its deadline whatever the peer sends, and counts against --max-clients
 * and its address's connections until then.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <openssl/evp.h>
#include <openssl/sha.h>

#include "server/net/net.h"
#include "server/net/limit.h"

/* The GUID RFC 6455 appends to the client's key. */
#define WS_GUID "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
/* Bytes framed for the browser and not yet taken by its socket past
 * which nothing more of the browser is read (it is not reading); the
 * socket's write callback comes when a quarter of it is left. */
#define WS_OUT_HIGH (64 * 1024)
/* The browser's bytes read ahead of the framing: a frame's header or a
 * whole control frame (at most 131 bytes) and some of the next; reading
 * stops at this until they are taken (a data frame's payload is taken as
 * it comes, so a long frame never stalls on it). */
#define WS_IN_HIGH (16 * 1024)
/* Seconds a closing WebSocket may take to send its last messages and the
 * close frame and to hear the browser's: a deadline, whatever the peer
 * sends meanwhile. */
#define WS_CLOSE_SEC 5
/* Bytes a WebSocket closed for breaking the protocol may still send
 * (read and dropped, so the close does not reset the connection and
 * destroy the close frame on its way) before it is closed at once. */
#define WS_DISCARD_MAX (256 * 1024)
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
/* A frame header's most bytes: two, eight of length, four of mask. */
#define WS_HEAD_MAX 14

/* Opcodes (RFC 6455, 5.2). */
enum {
	WS_OP_CONT = 0,
	WS_OP_TEXT = 1,
	WS_OP_BINARY = 2,
	WS_OP_CLOSE = 8,
	WS_OP_PING = 9,
	WS_OP_PONG = 10
};
/* Close codes (RFC 6455, 7.4.1). */
#define WS_CODE_NORMAL 1000
#define WS_CODE_PROTOCOL 1002
#define WS_CODE_UNSUPPORTED 1003
#define WS_CODE_NO_STATUS 1005 /* none in the frame: none in the reply */
#define WS_CODE_TOO_BIG 1009

struct ws {
	TAILQ_ENTRY(ws) entry;
	struct server *srv;
	struct bufferevent *sock; /* the socket (or TLS) */
	/* its input and output, kept here: read for every message */
	struct evbuffer *sockin, *sockout;
	struct evbuffer *in;     /* lines read: the connection's input */
	struct evbuffer *out;    /* lines to frame: the connection's output */
	struct conn *conn;       /* the connection, until freed */
	struct limit_entry *lim; /* its address's limits */
	int counted;        /* the connection went: this counts the socket */
	int tls;            /* sock writes by itself (TLS) */
	int broken;         /* the socket failed: freed with the connection */
	int close_sent;     /* our close frame is out: nothing more framed */
	int close_received; /* the browser's came: nothing more read */
	int discarding;     /* the browser broke the protocol: input dropped */
	size_t discarded;
	int waiting;   /* reading stopped: ws_may_read said no, or the rate */
	int throttled; /* past the control frames' rate: reading waits */
	int logged;    /* that was logged once */
	/* The data frame being read: payload bytes left, its mask, where in
	 * the mask the next byte is, and whether it ends its message. */
	uint64_t frame_left;
	uint8_t mask[4];
	unsigned mask_at;
	int frame_fin;
	int in_msg;            /* a text message began and has not ended */
	uint64_t msg_len;      /* its bytes so far */
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

/* Free the WebSocket and its socket (its connection is gone, but at
 * exit, when the connection is told it has none). */
static void
ws_free(struct ws *ws)
{
	if (ws->conn != NULL) {
		ws->conn->ws = NULL;
		ws->conn->in = ws->conn->out = NULL;
	}
	if (ws->counted) {
		ws->srv->nweb--;
		ws->lim->refs--;
	}
	TAILQ_REMOVE(&ws_all, ws, entry);
	bufferevent_free(ws->sock);
	evbuffer_free(ws->in);
	evbuffer_free(ws->out);
	event_free(ws->idle);
	event_free(ws->ponger);
	event_free(ws->deadline);
	event_free(ws->throttle);
	free(ws);
}

/* The socket failed, timed out or ended, or a deadline passed: the
 * WebSocket goes now, with its connection (freed later, by the reaper:
 * this is freed from ws_conn_freed then). */
static void
ws_drop(struct ws *ws)
{
	if (ws->conn == NULL) {
		ws_free(ws);
		return;
	}
	ws->broken = 1;
	bufferevent_disable(ws->sock, EV_READ | EV_WRITE);
	net_close(ws->conn, 0);
}

/* Bytes framed for the browser and not yet taken by its socket. */
static size_t
ws_behind(const struct ws *ws)
{
	return evbuffer_get_length(ws->sockout);
}

/* What this WebSocket holds for the browser beyond the connection's
 * output: its frames (net.c counts them in the connection's output). */
size_t
ws_unsent(const struct ws *ws)
{
	return ws_behind(ws);
}

/* May more of the browser's frames be read: no close came, the browser
 * is taking its frames and the server has taken its last message (or
 * the connection is gone)? */
static int
ws_may_read(const struct ws *ws)
{
	return !ws->throttled && !ws->close_received && !ws->broken &&
	    ws_behind(ws) < WS_OUT_HIGH &&
	    (ws->conn == NULL ||
	        evbuffer_get_length(ws->in) < ws->srv->cfg.max_line);
}

/* The close has begun (sent, received, or the connection gone): the
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
	log_debug("websocket %s: its close not done in %d s; closed",
	    ws->conn != NULL ? ws->conn->addr : "?", WS_CLOSE_SEC);
	ws_drop(ws);
}

/* Bytes were queued for the browser beyond the connection's lines (a
 * pong, a close frame): counted in the connection's output like any
 * other. */
static void
ws_added(struct ws *ws, size_t len)
{
	if (ws->conn != NULL)
		net_output_added(ws->conn, len);
}

/* A server frame's header (final, unmasked) for a payload of len bytes
 * into h; its length. */
static size_t
ws_head(uint8_t h[10], int opcode, size_t len)
{
	int i;

	h[0] = (uint8_t)(0x80 | opcode);
	if (len < 126) {
		h[1] = (uint8_t)len;
		return 2;
	}
	if (len <= 0xffff) {
		h[1] = 126;
		h[2] = (uint8_t)(len >> 8);
		h[3] = (uint8_t)len;
		return 4;
	}
	h[1] = 127;
	for (i = 0; i < 8; i++)
		h[2 + i] = (uint8_t)((uint64_t)len >> (56 - 8 * i));
	return 10;
}

/* A control frame for the browser, whole, at the end of the socket's
 * output (between two data frames: each is queued whole). */
static void
ws_control_add(struct ws *ws, int opcode, const uint8_t *payload, size_t len)
{
	struct evbuffer *dst = ws->sockout;
	uint8_t h[10];
	size_t hlen = ws_head(h, opcode, len);

	if (evbuffer_add(dst, h, hlen) != 0 ||
	    evbuffer_add(dst, payload, len) != 0)
		fatal("out of memory framing a websocket's control frame");
	ws_added(ws, hlen + len);
}

/* Bytes of frames gathered on the stack before they go into the socket's
 * output with one evbuffer_add: a move's reply and events are a few
 * hundred; a larger frame goes in by itself. */
#define WS_FRAME_BATCH 4096

/* Frames for the browser: written to the socket at once when nothing
 * waits before them (as net.c writes a TCP connection's output at the end
 * of the pass, without an evbuffer between), and what the kernel did not
 * take, or all of it behind frames that wait, queued in the socket's
 * output. A failed write queues it too: ws_write, next, meets the error
 * and drops the WebSocket. */
static void
ws_sockout_add(struct ws *ws, const void *p, size_t len)
{
	ssize_t n = 0;

	if (!ws->tls && evbuffer_get_length(ws->sockout) == 0) {
		n = send(bufferevent_getfd(ws->sock), p, len, MSG_NOSIGNAL);
		if (n < 0)
			n = 0;
	}
	p = (const char *)p + n;
	len -= (size_t)n;
	if (len > 0 && evbuffer_add(ws->sockout, p, len) != 0)
		fatal("out of memory framing a websocket's messages");
}

/*
 * Frame every whole line of the connection's output, one text frame each,
 * into the socket's output, in one pass: the lines read where they lie
 * (made contiguous only when the output spans several chains), each copied
 * once behind its header into a batch on the stack, the batch added with
 * one call, and the connection's output drained once. (Framed line by
 * line, each line's reserve, remove and commit, and the output's callback
 * at each remove, cost more than the copy: callgrind, issue 32.) After
 * our close frame the lines are dropped (RFC 6455, 5.5.1: nothing follows
 * it).
 */
static void
ws_frame_lines(struct ws *ws)
{
	char batch[WS_FRAME_BATCH];
	size_t have = evbuffer_get_length(ws->out), at = 0, fill = 0, len, k;
	struct evbuffer_iovec v;
	const char *src, *nl;
	uint8_t h[10];

	if (ws->close_sent || ws->broken) {
		evbuffer_drain(ws->out, have);
		return;
	}
	if (have == 0)
		return;
	if (evbuffer_peek(ws->out, -1, NULL, &v, 1) == 1 && v.iov_len == have)
		src = v.iov_base;
	else if ((src = (const char *)evbuffer_pullup(ws->out, -1)) == NULL)
		fatal("out of memory framing a websocket's messages");
	while ((nl = memchr(src + at, '\n', have - at)) != NULL) {
		len = (size_t)(nl - (src + at));
		k = ws_head(h, WS_OP_TEXT, len);
		if (fill + k + len > sizeof batch && fill > 0) {
			ws_sockout_add(ws, batch, fill);
			fill = 0;
		}
		if (k + len > sizeof batch) {
			ws_sockout_add(ws, h, k);
			ws_sockout_add(ws, src + at, len);
		} else {
			memcpy(batch + fill, h, k);
			memcpy(batch + fill + k, src + at, len);
			fill += k + len;
		}
		at += len + 1;
	}
	if (fill > 0)
		ws_sockout_add(ws, batch, fill);
	if (at > 0)
		evbuffer_drain(ws->out, at);
}

/* Our close frame with code (and reason), once; the close has begun. */
static void
ws_close(struct ws *ws, int code, const char *reason)
{
	uint8_t p[2 + 16];
	size_t n = 0;

	if (ws->close_sent)
		return;
	ws->close_sent = 1;
	if (code != WS_CODE_NO_STATUS) {
		p[0] = (uint8_t)(code >> 8);
		p[1] = (uint8_t)code;
		n = 2;
		if (reason != NULL) {
			size_t r = strlen(reason);

			if (r > sizeof p - 2)
				r = sizeof p - 2;
			memcpy(p + 2, reason, r);
			n += r;
		}
	}
	ws_control_add(ws, WS_OP_CLOSE, p, n);
	ws_closing(ws);
}

/* Write the socket's output now, as net.c does for TCP: its write event
 * is armed only for what the kernel did not take (arming and disarming
 * it for every message would cost two epoll_ctl calls each). A TLS
 * bufferevent writes by itself. 0, or -1 when the socket failed (the
 * WebSocket is dropped: freed if it had no connection). */
static int
ws_write(struct ws *ws)
{
	struct evbuffer *out = ws->sockout;
	int n, err;

	if (ws->tls || ws->broken || evbuffer_get_length(out) == 0)
		return 0;
	evbuffer_unfreeze(out, 1);
	n = evbuffer_write(out, bufferevent_getfd(ws->sock));
	err = errno;
	evbuffer_freeze(out, 1);
	if (n < 0 && err != EAGAIN && err != EWOULDBLOCK && err != EINTR) {
		ws_drop(ws);
		return -1;
	}
	if (evbuffer_get_length(out) > 0)
		bufferevent_enable(ws->sock, EV_WRITE);
	return 0;
}

/* Is the close done (the connection gone, both close frames through and
 * ours taken by the kernel)? Then the WebSocket is freed: 1. */
static int
ws_done(struct ws *ws)
{
	if (ws->conn != NULL || !ws->close_sent || !ws->close_received ||
	    ws_behind(ws) > 0)
		return 0;
	ws_free(ws);
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

/* Frames may be read again (net.c: the connection takes lines again):
 * read on, and what is already in, later in this loop pass (not from
 * inside the callback that made room). */
void
ws_resume(struct ws *ws)
{
	if (!ws->waiting || !ws_may_read(ws))
		return;
	ws->waiting = 0;
	bufferevent_enable(ws->sock, EV_READ);
	bufferevent_trigger(ws->sock, EV_READ,
	    BEV_TRIG_IGNORE_WATERMARKS | BEV_TRIG_DEFER_CALLBACKS);
}

/* Frame and write what the connection queued (net.c's flusher, at the
 * end of a loop pass). */
void
ws_send(struct ws *ws)
{
	ws_frame_lines(ws);
	ws_write(ws);
}

/* The browser broke the protocol (or sent what the server does not
 * take): our close frame with code, the connection closed, and what the
 * browser still sends dropped until it closes or the deadline. -1. */
static int
ws_fail(struct ws *ws, int code)
{
	struct evbuffer *src = ws->sockin;

	log_debug("websocket %s: closed with %d",
	    ws->conn != NULL ? ws->conn->addr : "?", code);
	ws_close(ws, code, NULL);
	ws->discarding = 1;
	ws->discarded += evbuffer_get_length(src);
	evbuffer_drain(src, evbuffer_get_length(src));
	if (ws->conn != NULL)
		net_close(ws->conn, 0);
	return -1;
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

/* May a close frame carry this code (RFC 6455, 7.4: the defined ones a
 * peer may send, and the ranges for libraries and applications)? */
static int
ws_code_ok(int code)
{
	return (code >= 1000 && code <= 1003) ||
	    (code >= 1007 && code <= 1011) || (code >= 3000 && code <= 4999);
}

/* The browser's close frame (payload unmasked): answered with its code,
 * and the connection closed; nothing more is read. */
static int
ws_close_received(struct ws *ws, const uint8_t *p, size_t len)
{
	int code = WS_CODE_NO_STATUS;

	if (len == 1)
		return ws_fail(ws, WS_CODE_PROTOCOL);
	if (len >= 2) {
		code = p[0] << 8 | p[1];
		if (!ws_code_ok(code))
			return ws_fail(ws, WS_CODE_PROTOCOL);
	}
	ws->close_received = 1;
	ws_close(ws, code, NULL);
	if (ws->conn != NULL)
		net_close(ws->conn, 0);
	return 1;
}

/* A control frame whose header is at h (its first bytes, copied; room
 * for the whole frame): taken whole once all of it is in and the rate
 * allows. 1 taken, 0 not yet, -1 failed. */
static int
ws_control_frame(struct ws *ws, uint8_t *h, int op, int fin)
{
	struct evbuffer *src = ws->sockin;
	size_t plen = h[1] & 0x7f, i;

	if (!fin || plen > WS_CONTROL_MAX ||
	    (op != WS_OP_CLOSE && op != WS_OP_PING && op != WS_OP_PONG))
		return ws_fail(ws, WS_CODE_PROTOCOL);
	if (evbuffer_get_length(src) < 6 + plen)
		return 0;
	if (op != WS_OP_CLOSE && !ws_control_ok(ws))
		return 0;
	evbuffer_remove(src, h, 6 + plen);
	for (i = 0; i < plen; i++)
		h[6 + i] ^= h[2 + i % 4];
	if (op == WS_OP_CLOSE)
		return ws_close_received(ws, h + 6, plen);
	ws->control.tokens -= 1.0;
	if (op == WS_OP_PONG)
		return 1; /* an unasked pong: a heartbeat, nothing to answer */
	memcpy(ws->pong, h + 6, plen);
	ws->ponglen = plen;
	ws->pong_due = 1;
	return 1;
}

/* A text message ended: one line for the connection. */
static void
ws_msg_end(struct ws *ws)
{
	ws->in_msg = 0;
	ws->msg_len = 0;
	ws->msg_ms = clock_mono_ms();
	if (ws->conn != NULL && evbuffer_add(ws->in, "\n", 1) != 0)
		fatal("out of memory reading a websocket");
}

/*
 * At the start of a frame: its header in the socket's input. A control
 * frame is taken whole (ws_control_frame); a data frame's header is
 * taken and its payload is read as it comes (ws_payload). Masked frames
 * only, no extension bits, continuations only inside a text message; a
 * binary message is refused with 1003, a message over --max-line with
 * 1009 (both at the header: nothing of it is read). 1 taken, 0 not
 * whole yet (or the rate waits), -1 failed.
 */
static int
ws_frame_start(struct ws *ws)
{
	struct evbuffer *src = ws->sockin;
	size_t have = evbuffer_get_length(src), hlen = 2, i;
	uint8_t h[6 + WS_CONTROL_MAX];
	uint64_t plen;
	int op, fin;

	if (have < 2)
		return 0;
	evbuffer_copyout(src, h, have < WS_HEAD_MAX ? have : WS_HEAD_MAX);
	fin = (h[0] & 0x80) != 0;
	op = h[0] & 0x0f;
	if ((h[0] & 0x70) != 0 || (h[1] & 0x80) == 0)
		return ws_fail(ws, WS_CODE_PROTOCOL);
	if (op >= WS_OP_CLOSE)
		return ws_control_frame(ws, h, op, fin);
	if (op == WS_OP_BINARY && !ws->in_msg)
		return ws_fail(ws, WS_CODE_UNSUPPORTED);
	if ((op != WS_OP_TEXT && op != WS_OP_CONT) ||
	    (op == WS_OP_CONT) != (ws->in_msg != 0))
		return ws_fail(ws, WS_CODE_PROTOCOL);
	plen = h[1] & 0x7f;
	hlen += plen == 126 ? 2 : plen == 127 ? 8 : 0;
	if (have < hlen + 4)
		return 0;
	if (plen == 126) {
		plen = (uint64_t)h[2] << 8 | h[3];
	} else if (plen == 127) {
		plen = 0;
		for (i = 2; i < 10; i++)
			plen = plen << 8 | h[i];
	}
	/* a message is a line: the line limit is the message limit */
	if (plen > ws->srv->cfg.max_line - ws->msg_len)
		return ws_fail(ws, WS_CODE_TOO_BIG);
	memcpy(ws->mask, h + hlen, 4);
	evbuffer_drain(src, hlen + 4);
	ws->mask_at = 0;
	ws->frame_left = plen;
	ws->frame_fin = fin;
	ws->in_msg = 1;
	ws->msg_len += plen;
	if (plen == 0 && fin)
		ws_msg_end(ws);
	return 1;
}

/* The payload bytes of the current data frame now in the socket's
 * input: unmasked into the connection's input in one copy (line ends
 * made spaces, as JSON reads them), or dropped once it is gone. */
static void
ws_payload(struct ws *ws)
{
	struct evbuffer *src = ws->sockin;
	size_t n = evbuffer_get_length(src), i;
	struct evbuffer_iovec v;
	uint8_t *p;

	if (n > ws->frame_left)
		n = (size_t)ws->frame_left;
	ws->frame_left -= n;
	if (ws->conn == NULL) {
		evbuffer_drain(src, n);
	} else {
		if (evbuffer_reserve_space(ws->in, (ev_ssize_t)n, &v, 1) < 1)
			fatal("out of memory reading a websocket");
		p = v.iov_base;
		evbuffer_remove(src, p, n);
		for (i = 0; i < n; i++) {
			p[i] ^= ws->mask[(ws->mask_at + i) & 3];
			if (p[i] == '\n' || p[i] == '\r')
				p[i] = ' ';
		}
		ws->mask_at = (unsigned)((ws->mask_at + n) & 3);
		v.iov_len = n;
		if (evbuffer_commit_space(ws->in, &v, 1) != 0)
			fatal("out of memory reading a websocket");
	}
	if (ws->frame_left == 0 && ws->frame_fin)
		ws_msg_end(ws);
}

/* Read the browser's frames in the socket's input while reading may go
 * on; stop reading (ws_wait) when it may not. -1 when it failed. */
static int
ws_parse(struct ws *ws)
{
	struct evbuffer *src = ws->sockin;
	int r;

	while (evbuffer_get_length(src) > 0) {
		if (!ws_may_read(ws)) {
			ws_wait(ws);
			return 0;
		}
		if (ws->frame_left > 0) {
			ws_payload(ws);
			continue;
		}
		if ((r = ws_frame_start(ws)) < 0)
			return -1;
		if (r == 0) {
			if (ws->throttled)
				ws_wait(ws);
			return 0;
		}
	}
	return 0;
}

/* The pong a ping waits for: now, if WS_PONG_MS has passed since the
 * last, else when it has (for the latest ping by then). */
static void
ws_pong(struct ws *ws)
{
	int64_t now = clock_mono_ms(), wait = ws->pong_ms + WS_PONG_MS - now;

	if (!ws->pong_due || ws->close_sent)
		return;
	if (wait > 0) {
		struct timeval tv = {wait / 1000, (wait % 1000) * 1000};

		if (!evtimer_pending(ws->ponger, NULL))
			evtimer_add(ws->ponger, &tv);
		return;
	}
	ws->pong_due = 0;
	ws->pong_ms = now;
	ws_control_add(ws, WS_OP_PONG, ws->pong, ws->ponglen);
}

/* The pong interval passed: the latest ping's pong goes. */
static void
ws_ponger_cb(evutil_socket_t fd, short what, void *arg)
{
	struct ws *ws = arg;

	ws_pong(ws);
	if (ws_write(ws) == 0)
		ws_done(ws);
}

/* The browser sent something: frames in, lines to the connection, which
 * reads them at once; pongs and close frames out. */
static void
ws_sock_read(struct bufferevent *bev, void *arg)
{
	struct ws *ws = arg;
	struct evbuffer *src = bufferevent_get_input(bev);

	if (ws->discarding) {
		ws->discarded += evbuffer_get_length(src);
		evbuffer_drain(src, evbuffer_get_length(src));
		if (ws->discarded > WS_DISCARD_MAX)
			ws_drop(ws);
		return;
	}
	ws_parse(ws);
	if (ws->conn != NULL && evbuffer_get_length(ws->in) > 0)
		net_input(ws->conn);
	ws_pong(ws);
	if (ws_write(ws) != 0 || ws_done(ws))
		return;
	/* the connection took its lines: the rest of the input now */
	if (ws->conn == NULL || ws->conn->state == CONN_OPEN)
		ws_resume(ws);
}

/* The socket took its output (down to the low mark): read on, disarm
 * the write event once all is out, and end a finished close. */
static void
ws_sock_write(struct bufferevent *bev, void *arg)
{
	struct ws *ws = arg;

	if (!ws->tls && evbuffer_get_length(bufferevent_get_output(bev)) == 0)
		bufferevent_disable(bev, EV_WRITE);
	if (ws_done(ws))
		return;
	ws_resume(ws);
}

static void
ws_sock_event(struct bufferevent *bev, short what, void *arg)
{
	struct ws *ws = arg;

	if (what & BEV_EVENT_CONNECTED)
		return;
	ws_drop(ws);
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
	ws_drop(ws);
}

/* The connection is being freed (net.c's reaper): the rest of its
 * output goes, then the close frame; from now on this socket counts
 * against --max-clients and its address's connections by itself, until
 * its close is done or its deadline passes. */
void
ws_conn_freed(struct ws *ws)
{
	ws->conn = NULL;
	if (ws->broken) {
		ws_free(ws);
		return;
	}
	ws->counted = 1;
	ws->srv->nweb++;
	ws->lim->refs++;
	evbuffer_drain(ws->in, evbuffer_get_length(ws->in));
	ws_frame_lines(ws);
	ws_close(ws, WS_CODE_NORMAL, "bye");
	if (ws_write(ws) != 0 || ws_done(ws))
		return;
	ws_resume(ws);
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
 * WebSocket: answer 101 and make the server's connection, whose input
 * and output are this WebSocket's. 0, or -1 for a bad key (the caller
 * answers 400; nothing was taken).
 */
int
ws_accept(struct server *srv, struct bufferevent *bev, const char *key,
    const char *addr, struct limit_entry *lim, int flags)
{
	struct timeval idle = {WS_IDLE_SEC, 0};
	char accept[32];
	struct ws *ws;

	if (ws_accept_key(key, accept) != 0)
		return -1;
	ws = xcalloc(1, sizeof *ws);
	ws->srv = srv;
	ws->sock = bev;
	ws->sockin = bufferevent_get_input(bev);
	ws->sockout = bufferevent_get_output(bev);
	ws->lim = lim;
	ws->msg_ms = clock_mono_ms();
	ws->pong_ms = ws->msg_ms - WS_PONG_MS;
	ws->in = evbuffer_new();
	ws->out = evbuffer_new();
	ws->idle = evtimer_new(srv->base, ws_idle_cb, ws);
	ws->ponger = evtimer_new(srv->base, ws_ponger_cb, ws);
	ws->deadline = evtimer_new(srv->base, ws_deadline_cb, ws);
	ws->throttle = evtimer_new(srv->base, ws_throttle_cb, ws);
	if (ws->in == NULL || ws->out == NULL || ws->idle == NULL ||
	    ws->ponger == NULL || ws->deadline == NULL || ws->throttle == NULL)
		fatal("out of memory making a websocket");
	TAILQ_INSERT_TAIL(&ws_all, ws, entry);
	net_count_http(101);
	/* written with the welcome, by net.c's flusher */
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
	ws->conn = net_conn_new_ws(srv, ws, ws->in, ws->out, addr, lim);
	/* the 101 goes with the welcome (net.c's flusher), or now */
	if (evbuffer_get_length(ws->out) == 0 && ws_write(ws) != 0)
		return 0;
	if (evbuffer_get_length(bufferevent_get_input(bev)) > 0)
		bufferevent_trigger(bev, EV_READ, BEV_TRIG_IGNORE_WATERMARKS);
	return 0;
}

/* Free every WebSocket (at exit, before net.c frees the connections:
 * each is told it has no WebSocket any more). */
void
ws_free_all(struct server *srv)
{
	struct ws *ws;

	while ((ws = TAILQ_FIRST(&ws_all)) != NULL)
		ws_free(ws);
}
