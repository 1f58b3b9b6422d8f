/*
 * session.c: one connection's conversation: the welcome, the output mode,
 * the rate limit, decoding each line and dispatching it to its verb through
 * one table, and the rule that a reply goes out before the events it
 * causes.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>

#include "server/club/seek.h"
#include "server/cmd/cmd.h"
#include "server/club/club.h"
#include "server/net/limit.h"
#include "server/store/storeq.h"

/* Every verb's handler, by the protocol's list of verbs: a verb without
 * its cmd_<name> does not link. */
static cmd_fn *const session_cmds[] = {
#define SESSION_CMD(upper, lower) [PROTO_##upper] = cmd_##lower,
    PROTO_VERBS(SESSION_CMD)
#undef SESSION_CMD
};
_Static_assert(sizeof session_cmds / sizeof session_cmds[0] == PROTO_VERB_COUNT,
    "one handler per verb");

/* Is the player in an unfinished game or watching one? Such a
 * connection may stay silent as long as it likes. */
static int
session_busy(struct conn *c)
{
	const struct player *p = c->player;
	int i;

	for (i = 0; i < p->nrooms; i++)
		if ((p->rooms[i]->status != ROOM_ENDED &&
		        room_seat_of(p->rooms[i], p) >= 0) ||
		    room_is_watcher(p->rooms[i], p))
			return 1;
	return 0;
}

/* Check again in `sec` seconds. */
static void
session_idle_in(struct conn *c, int64_t ms)
{
	struct timeval tv;

	tv.tv_sec = (time_t)(ms / 1000);
	tv.tv_usec = (suseconds_t)(ms % 1000) * 1000;
	evtimer_add(c->idle, &tv);
}

/* The idle timer of a logged-in connection: one with no game and nothing
 * to watch that was silent for lobby_idle_sec is closed. */
static void
session_lobby_idle(struct conn *c)
{
	int64_t limit = (int64_t)c->srv->cfg.lobby_idle_sec * 1000;
	int64_t quiet = clock_mono_ms() - c->last_ms;

	if (quiet < limit) {
		session_idle_in(c, limit - quiet);
		return;
	}
	if (session_busy(c)) {
		session_idle_in(c, limit);
		return;
	}
	log_info("conn %llu %s: %s idle %d s in no game; closing",
	    (unsigned long long)c->id, c->addr, c->player->name,
	    c->srv->cfg.lobby_idle_sec);
	conn_error(c, NULL, PROTO_E_IDLE,
	    "idle for %d seconds in no game; closing",
	    c->srv->cfg.lobby_idle_sec);
	net_close(c, 1);
}

static void
session_idle(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c = arg;

	if (c->state != CONN_OPEN)
		return;
	if (c->player != NULL) {
		session_lobby_idle(c);
		return;
	}
	conn_error(c, NULL, PROTO_E_NOT_LOGGED_IN,
	    "%d seconds without a request and no hello; closing",
	    c->srv->cfg.idle_sec);
	net_close(c, 1);
}

/* Logged in: from now on the idle timer watches for a silent lobby. */
void
session_logged_in(struct conn *c)
{
	session_idle_in(c, (int64_t)c->srv->cfg.lobby_idle_sec * 1000);
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
	c->refill_ms = c->last_ms = clock_mono_ms();
	c->srv->out_free = 1; /* it shows nothing the store holds */
	if (sanction_addr_banned(c->srv, c->addr)) {
		limit_log(c->srv,
		    "conn %llu %s: refused: the address is banned",
		    (unsigned long long)c->id, c->addr);
		conn_error(c, NULL, PROTO_E_BANNED,
		    "an operator banned your address from this server");
		c->srv->out_free = 0;
		cJSON_Delete(w);
		net_close(c, 1);
		return;
	}
	net_send_msg(c, w);
	c->srv->out_free = 0;
	cJSON_Delete(w);
	c->idle = evtimer_new(c->srv->base, session_idle, c);
	if (c->idle == NULL)
		fatal("out of memory");
	evtimer_add(c->idle, &tv);
}

/* Which bucket refused a message. */
enum session_over {
	SESSION_RATE_OK,
	SESSION_OVER_CONN,
	SESSION_OVER_ADDR,
	SESSION_OVER_NAME,
};

/* Take one token from the connection's bucket, its address's and its
 * identity's (so reconnecting gives no fresh burst), or none when any is
 * empty: which one refused. */
static enum session_over
session_rate_ok(struct conn *c)
{
	const struct config *cfg = &c->srv->cfg;
	int64_t now = c->last_ms; /* session_line has just read the clock */
	double cap = cfg->burst;
	struct limit_entry *a = c->lim_addr, *n = c->lim_name;

	c->tokens += (double)(now - c->refill_ms) * cfg->rate / 1000.0;
	if (c->tokens > cap)
		c->tokens = cap;
	c->refill_ms = now;
	if (c->tokens < 1.0)
		return SESSION_OVER_CONN;
	if (a != NULL && !limit_addr_msgs_has(c->srv, a, now))
		return SESSION_OVER_ADDR;
	if (n != NULL &&
	    !bucket_has(&n->msgs, cfg->rate / 1000.0, cfg->burst, now))
		return SESSION_OVER_NAME;
	c->tokens -= 1.0;
	if (a != NULL)
		a->msgs.tokens -= 1.0;
	if (n != NULL)
		n->msgs.tokens -= 1.0;
	return SESSION_RATE_OK;
}

/* A message over the rate: refused (not run), and a flood is cut off;
 * the start of each refusal run is logged. */
static void
session_refuse(
    struct conn *c, const struct proto_request *req, enum session_over why)
{
	static const char *const what[] = {
	    "", "connection", "address", "identity"};
	int rate =
	    why == SESSION_OVER_ADDR ? c->srv->cfg.addr_rate : c->srv->cfg.rate;

	if (c->refused++ == 0)
		limit_log(c->srv, "conn %llu %s%s%s: rate limited (%s)",
		    (unsigned long long)c->id, c->addr,
		    c->player != NULL ? " as " : "",
		    c->player != NULL ? c->player->name : "", what[why]);
	if (c->refused >= SERVER_FLOOD_MAX) {
		conn_error(c, req, PROTO_E_RATE_LIMITED, "flooding; closing");
		net_close(c, 1);
		return;
	}
	/* one format each, so that a client can translate it whole */
	if (why == SESSION_OVER_ADDR)
		conn_error(c, req, PROTO_E_RATE_LIMITED,
		    "more than %d messages a second from your address; slow "
		    "down",
		    rate);
	else if (why == SESSION_OVER_NAME)
		conn_error(c, req, PROTO_E_RATE_LIMITED,
		    "more than %d messages a second as this player; slow down",
		    rate);
	else
		conn_error(c, req, PROTO_E_RATE_LIMITED,
		    "more than %d messages a second; slow down", rate);
}

/* Whether a line holds the word "password" in any case (a hello with one,
 * the password verb); lines may hold NUL bytes. */
static int
session_has_password(const char *line, size_t len)
{
	static const char word[] = "password";
	size_t i, n = sizeof word - 1;

	for (i = 0; i + n <= len; i++)
		if (strncasecmp(line + i, word, n) == 0)
			return 1;
	return 0;
}

/* Log what a client sent, made safe and short; a line that may hold a
 * password is not logged, only that it came. */
static void
session_log_line(struct conn *c, const char *line, size_t len)
{
	char safe[LOG_CLIENT_BYTES * 4 + 8];

	if (session_has_password(line, len)) {
		log_debug("conn %llu %s: <a line with a password, not logged>",
		    (unsigned long long)c->id, c->addr);
		return;
	}
	log_debug("conn %llu %s: <%s>", (unsigned long long)c->id, c->addr,
	    log_sanitize(line, len, safe, sizeof safe));
}

static void session_dispatch(struct conn *c, const struct proto_request *req);

/* Verbs a visitor without a name may use: they read and watch, and change
 * nothing but the watchers of a room; and they play a casual game
 * against a bot (create checks that: cmd_room.c). */
static int
session_guest_verb(enum proto_verb v)
{
	switch (v) {
	case PROTO_CREATE:
	case PROTO_MOVE:
	case PROTO_RESIGN:
	case PROTO_ROOMS:
	case PROTO_WATCH:
	case PROTO_LEAVE:
	case PROTO_STATE:
	case PROTO_MOVES:
	case PROTO_EXPORT:
	case PROTO_HISTORY:
	case PROTO_WHO:
	case PROTO_SEEKS:
		return 1;
	default:
		return 0;
	}
}

/* A read-only verb (or a game against a bot) before hello: the
 * connection becomes an anonymous guest, a player "~N" (N its
 * connection's id) that no hello can name and the store never keeps as
 * an identity. A name still held by a room from before a restart (a
 * guest's game adjourned by the stop) is not given again: N moves on. */
static void
session_guest(struct conn *c)
{
	char name[SERVER_NAME_MAX + 1];
	unsigned long long n = c->id % 1000000000000000ULL;
	struct player *p;

	do {
		snprintf(name, sizeof name, "~%llu", n);
		n = (n + 1000003ULL) % 1000000000000000ULL;
	} while (player_find(c->srv, name) != NULL);
	p = player_get(c->srv, name);
	p->conn = c;
	c->player = p;
	c->guest = 1;
	session_logged_in(c);
	log_debug("conn %llu %s: watching as guest %s",
	    (unsigned long long)c->id, c->addr, name);
}

/* hello on a guest connection: the guest stops watching and goes, so
 * the connection logs in as anyone does. */
static void
session_guest_end(struct conn *c)
{
	struct player *p = c->player;
	struct room **held;
	int i, n;

	cmd_guest_resign_all(c);
	held = room_sorted(p, &n);
	for (i = 0; i < n; i++) {
		room_remove_watcher(held[i], p);
		room_check_retire(held[i]);
	}
	free(held);
	c->player = NULL;
	c->current = NULL;
	c->guest = 0;
	p->conn = NULL;
	player_release(c->srv, p);
}

/* Before a verb runs: a read-only verb before hello makes the connection a
 * guest, hello ends a guest, and a guest is refused everything else. 0:
 * go on; -1: refused (replied). */
static int
session_guest_gate(struct conn *c, const struct proto_request *req)
{
	if (!proto_verb_login(req->verb)) {
		if (req->verb == PROTO_HELLO && c->guest)
			session_guest_end(c);
		return 0;
	}
	if (c->guest && !session_guest_verb(req->verb)) {
		conn_error(c, req, PROTO_E_NOT_LOGGED_IN,
		    "watching needs no name, but this does: hello YOURNAME");
		return -1;
	}
	if (c->player == NULL && session_guest_verb(req->verb))
		session_guest(c);
	return 0;
}

/* A person's first line (shorthand, not hello): greet them in words
 * before its reply. The JSON welcome stays as it is, since programs wait
 * for it before speaking; a first hello gets its own greeting. */
static void
session_greet(struct conn *c, const char *line, size_t len)
{
	static const char hello[] = "hello";
	size_t i = 0, n = sizeof hello - 1;
	cJSON *w;

	while (i < len && (line[i] == ' ' || line[i] == '\t'))
		i++;
	if (len - i >= n && strncasecmp(line + i, hello, n) == 0 &&
	    (len - i == n || isspace((unsigned char)line[i + n])))
		return;
	w = proto_welcome(TABLEROD_VERSION);
	if (w == NULL)
		fatal("out of memory");
	c->srv->out_free = 1; /* it shows nothing the store holds */
	net_send_msg(c, w);
	c->srv->out_free = 0;
	cJSON_Delete(w);
}

/* One complete line from the client: check the rate, decode, dispatch, and
 * send the events the request caused after its reply. */
void
session_line(struct conn *c, const char *line, size_t len)
{
	const struct cluster_ops *cl = c->srv->cluster_ops;
	struct proto_request req;
	char err[256];
	enum proto_error e;
	enum session_over over;

	if (c->srv->cfg.log_level >= LOG_LEVEL_DEBUG)
		session_log_line(c, line, len);
	if (c->player == NULL)
		session_idle_reset(c);
	if (c->mode == CONN_MODE_UNSET) {
		c->mode = proto_line_is_json(line, len) ? CONN_MODE_JSON
		                                        : CONN_MODE_TEXT;
		if (c->mode == CONN_MODE_TEXT)
			session_greet(c, line, len);
	}
	memset(&req, 0, sizeof req);
	err[0] = '\0';
	/* Decoded even when refused, so that every reply echoes its id. */
	e = proto_decode(line, len, &req, err, sizeof err);
	c->last_ms = clock_mono_ms();
	over = session_rate_ok(c);
	/* Refusals before the verb show nothing anyone changed: never
	 * held behind a commit. */
	c->srv->out_free = 1;
	if (over == SESSION_RATE_OK && e != PROTO_OK) /* "A2" is a move */
		e = bare_line(c, line, len, &req, e, err, sizeof err);
	if (over != SESSION_RATE_OK) {
		session_refuse(c, &req, over);
	} else if (e == PROTO_E_UNKNOWN_CMD && req.shorthand && cl != NULL &&
	    cl->route_bare(c, line, len)) {
		c->refused = 0; /* "A2" in a room another node holds */
	} else if (e != PROTO_OK) {
		c->refused = 0;
		if (req.shorthand && e == PROTO_E_BAD_REQUEST)
			proto_shorthand_usage(req.verb, err, sizeof err);
		conn_error(c, &req, e, "%s", err);
	} else {
		c->refused = 0;
		if (cl == NULL || !cl->route(c, &req, line, len))
			session_dispatch(c, &req);
	}
	c->srv->out_free = 0;
	proto_request_free(&req);
}

/* The verbs that may change what the store keeps (and chat to a room,
 * which is say): refused at once while the store is failing (the others
 * read memory or the committed store). */
static const unsigned char session_stores[PROTO_VERB_COUNT] = {
    [PROTO_HELLO] = 1,
    [PROTO_PASSWORD] = 1, /* the identity's row */
    [PROTO_CREATE] = 1,
    [PROTO_JOIN] = 1,
    [PROTO_WATCH] = 1,
    [PROTO_LEAVE] = 1,
    [PROTO_MOVE] = 1,
    [PROTO_RESIGN] = 1,
    [PROTO_DRAW] = 1,
    [PROTO_TAKEBACK] = 1,
    [PROTO_UNDO] = 1,
    [PROTO_RESTART] = 1,
    [PROTO_NEXT] = 1,
    [PROTO_REMATCH] = 1,
    [PROTO_CLAIM] = 1,
    [PROTO_SAY] = 1,
    [PROTO_MESSAGE] = 1, /* a kept message is a row */
    [PROTO_SEEK] = 1,    /* its row; a pairing makes a room */
    [PROTO_PLAY] = 1,    /* makes a room */
    [PROTO_ACCEPT] = 1,  /* makes a room */
    [PROTO_UNSEEK] = 1,  /* deletes rows */
    [PROTO_BLOCK] = 1,   /* its row */
    [PROTO_UNBLOCK] = 1,
    /* the operators' acts: each is a row of admin_log, a ban or a mute
     * one of sanctions */
    [PROTO_KICK] = 1,
    [PROTO_MUTE] = 1,
    [PROTO_UNMUTE] = 1,
    [PROTO_BAN] = 1,
    [PROTO_UNBAN] = 1,
    [PROTO_ANNOUNCE] = 1,
};

/* The verbs whose replies show nothing anyone changed (a ping, the list
 * of games, help): never held behind a commit, so the server answers
 * them while the store fails (only behind what the connection has held
 * already). */
static const unsigned char session_free[PROTO_VERB_COUNT] = {
    [PROTO_PING] = 1,
    [PROTO_GAMES] = 1,
    [PROTO_HELP] = 1,
    [PROTO_MODE] = 1,
    [PROTO_QUIT] = 1,
};

/* Run a decoded request through its verb's handler, the events it causes
 * behind its reply (held, with the reply, until what it changed is
 * committed). */
static void
session_dispatch(struct conn *c, const struct proto_request *req)
{
	if (session_guest_gate(c, req) != 0)
		return;
	if (proto_verb_login(req->verb) && c->player == NULL) {
		conn_error(c, req, PROTO_E_NOT_LOGGED_IN,
		    "say hello first: hello YOURNAME");
		return;
	}
	if ((session_stores[req->verb] ||
	        (req->verb == PROTO_CHAT && req->room != NULL)) &&
	    storeq_failing(c->srv->storeq)) {
		conn_error(c, req, PROTO_E_STORE_FAILING,
		    "the server cannot store games right now; try again "
		    "shortly");
		return;
	}
	c->srv->out_free = session_free[req->verb];
	c->deferring = 1;
	session_cmds[req->verb](c, req);
	c->deferring = 0;
	c->srv->out_free = 0;
	held_end_deferring(c);
}

/* News from the store thread (storeq_done_fn): what waited for ops up to
 * committed goes out, and identities made up to there are the reader's. A
 * failing store needs nothing here: its group is tried again, its output
 * still held, and session_dispatch refuses new changes meanwhile. */
void
session_store_done(void *arg, uint64_t committed, int failing)
{
	struct server *srv = arg;

	(void)failing;
	player_committed(srv, committed);
	rating_committed(srv, committed);
	message_committed(srv, committed);
	record_committed(srv, committed);
	held_release(srv, committed);
}

/* Let go of the address's and identity's limits (kept while at rest). */
static void
session_unref_limits(struct conn *c)
{
	if (c->lim_addr != NULL)
		c->lim_addr->refs--;
	if (c->lim_name != NULL)
		c->lim_name->refs--;
	c->lim_addr = c->lim_name = NULL;
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
	session_unref_limits(c);
	if (c->srv->cluster_ops != NULL)
		c->srv->cluster_ops->conn_closed(c);
	if (p == NULL)
		return;
	if (!c->srv->shutting_down)
		cmd_guest_resign_all(c); /* before the conn lets go of p */
	c->player = NULL;
	c->current = NULL;
	p->conn = NULL;
	log_info("%s left (conn %llu)", p->name, (unsigned long long)c->id);
	if (c->srv->shutting_down)
		return;
	seek_conn_closed(c->srv, p->name);
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

/* What net.c does with a connection: this session (srv->conn_ops). */
const struct conn_ops session_conn_ops = {
    .open = session_open,
    .line = session_line,
    .sent = bare_sent,
    .closed = session_closed,
};
