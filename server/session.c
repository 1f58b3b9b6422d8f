/*
 * session.c: one connection's conversation: the welcome, the output mode,
 * the rate limit, decoding each line and dispatching it to its verb through
 * one table, and the rule that a reply goes out before the events it
 * causes.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>

#include "server/server.h"

/* Every verb's handler, by the protocol's list of verbs: a verb without
 * its cmd_<name> does not link. */
static cmd_fn *const session_cmds[] = {
#define SESSION_CMD(upper, lower) [PROTO_##upper] = cmd_##lower,
    PROTO_VERBS(SESSION_CMD)
#undef SESSION_CMD
};
_Static_assert(sizeof session_cmds / sizeof session_cmds[0] == PROTO_VERB_COUNT,
    "one handler per verb");

static void
session_idle(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c = arg;

	if (c->player != NULL || c->state != CONN_OPEN)
		return;
	session_error(c, NULL, PROTO_E_NOT_LOGGED_IN,
	    "%d seconds without a request and no hello; closing",
	    c->srv->cfg.idle_sec);
	net_close(c, 1);
}

/* Before hello, any request starts the idle time again. */
static void
session_idle_reset(struct conn *c)
{
	struct timeval tv = {c->srv->cfg.idle_sec, 0};

	if (c->idle != NULL)
		evtimer_add(c->idle, &tv);
}

/* A new connection: greet it and close it after idle_sec without a
 * request, until it says hello. */
void
session_open(struct conn *c)
{
	struct timeval tv = {c->srv->cfg.idle_sec, 0};
	cJSON *w = proto_welcome(TABLEROD_VERSION);

	c->tokens = c->srv->cfg.burst;
	c->refill_ms = clock_mono_ms();
	net_send_msg(c, w);
	cJSON_Delete(w);
	c->idle = evtimer_new(c->srv->base, session_idle, c);
	if (c->idle == NULL)
		fatal("out of memory");
	evtimer_add(c->idle, &tv);
}

/* Send a reply now, ahead of any events the request has caused so far. */
void
session_reply(struct conn *c, cJSON *reply)
{
	int deferring = c->deferring;

	c->deferring = 0;
	net_send_msg(c, reply);
	c->deferring = deferring;
	cJSON_Delete(reply);
}

void
session_error(struct conn *c, const struct proto_request *req,
    enum proto_error e, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	session_reply(
	    c, proto_error_reply(req, e, msg[0] != '\0' ? msg : NULL));
}

/* Take one token from the bucket; 0 when the client is over its rate. */
static int
session_rate_ok(struct conn *c)
{
	int64_t now = clock_mono_ms();
	double cap = c->srv->cfg.burst;

	c->tokens += (double)(now - c->refill_ms) * c->srv->cfg.rate / 1000.0;
	if (c->tokens > cap)
		c->tokens = cap;
	c->refill_ms = now;
	if (c->tokens < 1.0)
		return 0;
	c->tokens -= 1.0;
	return 1;
}

/* A message over the rate: refused (not run), and a flood is cut off. */
static void
session_refuse(struct conn *c, const struct proto_request *req)
{
	if (++c->refused >= SERVER_FLOOD_MAX) {
		session_error(
		    c, req, PROTO_E_RATE_LIMITED, "flooding; closing");
		net_close(c, 1);
		return;
	}
	session_error(c, req, PROTO_E_RATE_LIMITED,
	    "more than %d messages a second; slow down", c->srv->cfg.rate);
}

/* Log what a client sent, made safe and short. */
static void
session_log_line(struct conn *c, const char *line, size_t len)
{
	char safe[LOG_CLIENT_BYTES * 4 + 8];

	log_debug("conn %llu %s: <%s>", (unsigned long long)c->id, c->addr,
	    log_sanitize(line, len, safe, sizeof safe));
}

/* One complete line from the client: check the rate, decode, dispatch, and
 * send the events the request caused after its reply. */
void
session_line(struct conn *c, const char *line, size_t len)
{
	struct proto_request req;
	char err[256];
	enum proto_error e;

	if (c->srv->cfg.log_level >= LOG_LEVEL_DEBUG)
		session_log_line(c, line, len);
	if (c->player == NULL)
		session_idle_reset(c);
	if (c->mode == CONN_MODE_UNSET)
		c->mode = proto_line_is_json(line, len) ? CONN_MODE_JSON
		                                        : CONN_MODE_TEXT;
	memset(&req, 0, sizeof req);
	err[0] = '\0';
	/* Decoded even when refused, so that every reply echoes its id. */
	e = proto_decode(line, len, &req, err, sizeof err);
	if (!session_rate_ok(c)) {
		session_refuse(c, &req);
		proto_request_free(&req);
		return;
	}
	c->refused = 0;
	if (e != PROTO_OK) {
		if (req.shorthand && e == PROTO_E_BAD_REQUEST)
			proto_shorthand_usage(req.verb, err, sizeof err);
		session_error(c, &req, e, "%s", err);
		proto_request_free(&req);
		return;
	}
	if (proto_verb_login(req.verb) && c->player == NULL) {
		session_error(c, &req, PROTO_E_NOT_LOGGED_IN,
		    "say hello first: hello YOURNAME");
	} else {
		c->deferring = 1;
		session_cmds[req.verb](c, &req);
		c->deferring = 0;
		if (c->state != CONN_DEAD && c->deferred != NULL)
			evbuffer_add_buffer(
			    bufferevent_get_output(c->bev), c->deferred);
	}
	proto_request_free(&req);
}

/* The connection is going: the player's seats are held for them, and a
 * player nothing holds any more leaves memory. */
void
session_closed(struct conn *c)
{
	struct player *p = c->player;
	struct room **held;
	int i, n;

	if (c->idle != NULL)
		evtimer_del(c->idle);
	if (c->waiting && c->srv->worker != NULL)
		worker_cancel_conn(c->srv->worker, c->id);
	if (p == NULL)
		return;
	c->player = NULL;
	c->current = NULL;
	p->conn = NULL;
	log_info("%s left (conn %llu)", p->name, (unsigned long long)c->id);
	if (c->srv->shutting_down)
		return;
	/* a copy: leaving a room as watcher takes it off p->rooms */
	held = room_sorted(p, &n);
	for (i = 0; i < n; i++) {
		room_remove_watcher(held[i], p);
		if (room_seat_of(held[i], p) >= 0)
			room_player_gone(held[i], p);
		room_check_retire(held[i]);
	}
	free(held);
	player_release(c->srv, p);
}
