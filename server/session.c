/*
 * session.c: one connection's conversation: the welcome, the output mode,
 * the rate limit, decoding each line and dispatching it to its verb through
 * one table, and the rule that a reply goes out before the events it
 * causes.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>

#include "server/server.h"

typedef void (*session_fn)(struct conn *, const struct proto_request *);

static void session_ping(struct conn *c, const struct proto_request *req);
static void session_quit(struct conn *c, const struct proto_request *req);
static void session_mode(struct conn *c, const struct proto_request *req);

/* Every verb's handler, and whether it needs hello first. */
static const struct {
	enum proto_verb verb;
	session_fn fn;
	int login;
} session_table[] = {
    {PROTO_HELLO, player_hello, 0},
    {PROTO_GAMES, lobby_games, 0},
    {PROTO_ROOMS, lobby_rooms, 1},
    {PROTO_CREATE, cmd_create, 1},
    {PROTO_JOIN, cmd_join, 1},
    {PROTO_WATCH, cmd_watch, 1},
    {PROTO_LEAVE, cmd_leave, 1},
    {PROTO_STATE, cmd_state, 1},
    {PROTO_MOVES, cmd_moves, 1},
    {PROTO_MOVE, cmd_move, 1},
    {PROTO_RESIGN, cmd_resign, 1},
    {PROTO_DRAW, cmd_draw, 1},
    {PROTO_UNDO, cmd_undo, 1},
    {PROTO_RESTART, cmd_restart, 1},
    {PROTO_NEXT, cmd_next, 1},
    {PROTO_HINT, cmd_hint, 1},
    {PROTO_REMATCH, cmd_rematch, 1},
    {PROTO_CLAIM, cmd_claim, 1},
    {PROTO_EXPORT, cmd_export, 1},
    {PROTO_CHAT, player_lobby_chat, 1},
    {PROTO_SAY, cmd_say, 1},
    {PROTO_WHO, player_who, 1},
    {PROTO_PING, session_ping, 0},
    {PROTO_QUIT, session_quit, 0},
    {PROTO_MODE, session_mode, 0},
    {PROTO_HELP, lobby_help, 0},
};

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

static session_fn
session_lookup(enum proto_verb verb, int *login)
{
	size_t i;

	for (i = 0; i < sizeof session_table / sizeof session_table[0]; i++) {
		if (session_table[i].verb == verb) {
			*login = session_table[i].login;
			return session_table[i].fn;
		}
	}
	return NULL;
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
	session_fn fn;
	int login = 0;

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
	fn = session_lookup(req.verb, &login);
	if (fn == NULL) {
		session_error(c, &req, PROTO_E_UNKNOWN_CMD, "unknown command");
	} else if (login && c->player == NULL) {
		session_error(c, &req, PROTO_E_NOT_LOGGED_IN,
		    "say hello first: hello YOURNAME");
	} else {
		c->deferring = 1;
		fn(c, &req);
		c->deferring = 0;
		if (c->state != CONN_DEAD)
			evbuffer_add_buffer(
			    bufferevent_get_output(c->bev), c->deferred);
	}
	proto_request_free(&req);
}

/* The connection is going: the player's seats are held for them. */
void
session_closed(struct conn *c)
{
	struct player *p = c->player;
	struct room *r;

	if (c->idle != NULL)
		evtimer_del(c->idle);
	if (c->waiting && c->srv->worker != NULL)
		worker_cancel_conn(c->srv->worker, c->id);
	if (p == NULL)
		return;
	c->player = NULL;
	p->conn = NULL;
	log_info("%s left (conn %llu)", p->name, (unsigned long long)c->id);
	if (c->srv->shutting_down)
		return;
	TAILQ_FOREACH(r, &c->srv->rooms, entry) {
		room_remove_watcher(r, p);
		if (room_seat_of(r, p) >= 0)
			room_player_gone(r, p);
	}
}

static void
session_ping(struct conn *c, const struct proto_request *req)
{
	cJSON *rep = proto_reply(req);

	cJSON_AddBoolToObject(rep, "pong", 1);
	cJSON_AddNumberToObject(rep, "time", (double)clock_now_ms());
	session_reply(c, rep);
}

static void
session_quit(struct conn *c, const struct proto_request *req)
{
	cJSON *rep = proto_reply(req);

	cJSON_AddStringToObject(rep, "message", "bye");
	session_reply(c, rep);
	net_close(c, 1);
}

/* Switch output mode; the reply already speaks the new one. */
static void
session_mode(struct conn *c, const struct proto_request *req)
{
	cJSON *rep = proto_reply(req);

	c->mode =
	    strcmp(req->mode, "text") == 0 ? CONN_MODE_TEXT : CONN_MODE_JSON;
	cJSON_AddStringToObject(rep, "mode", req->mode);
	session_reply(c, rep);
}
