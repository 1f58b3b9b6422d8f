/*
 * match.c: challenges. `match NAME [GAME [OPTIONS]]` asks one connected
 * player for a game (its options, clock, rated or casual, as a seek's);
 * they hear a challenged event and answer `accept [NAME]`, which makes
 * the room and starts the game as a pairing does (cmd_seek.c), or
 * `decline [NAME]`. One challenge waits each way between two players, a
 * player has at most MATCH_OUT_MAX out and MATCH_IN_MAX in, and each
 * expires after --challenge-expire (MATCH_EXPIRE_SEC) or when either
 * player goes (the
 * challenger hears challenge_over with why). A challenge lives in
 * memory, like a tell: it changes nothing the store keeps until it is
 * accepted, and the room it makes is stored as any room is. Neither
 * side may block the other (core/block.c).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "server/club/seek.h"
#include "server/net/limit.h"
#include "server/store/store.h"

/* Challenges one player may have waiting for answers: a few at once is
 * asking around; more is spamming the club. */
#define MATCH_OUT_MAX 3
/* Challenges waiting for one player, from everyone: a screen of them;
 * past that the challengers are told to try again. */
#define MATCH_IN_MAX 10

/* One challenge: its game is a seek of the challenger's, in no pool. */
struct match {
	struct match *next;
	char from[SERVER_NAME_MAX + 1];
	char to[SERVER_NAME_MAX + 1];
	struct seek *s;
	int64_t made_ms; /* monotonic */
};

/* The challenge from one player to another (names as registered). */
static struct match **
match_find(struct server *srv, const char *from, const char *to)
{
	struct match **mp;

	for (mp = &srv->matches; *mp != NULL; mp = &(*mp)->next)
		if ((from == NULL || strcasecmp((*mp)->from, from) == 0) &&
		    (to == NULL || strcasecmp((*mp)->to, to) == 0))
			return mp;
	return NULL;
}

/* How many challenges name has out (from) or in (to). */
static int
match_count(const struct server *srv, const char *name, int from)
{
	const struct match *m;
	int n = 0;

	for (m = srv->matches; m != NULL; m = m->next)
		n += strcmp(from ? m->from : m->to, name) == 0;
	return n;
}

/* Unlink and free *mp; the challenger (when here) hears why. */
static void
match_end(struct server *srv, struct match **mp, const char *why)
{
	struct match *m = *mp;
	cJSON *ev;

	*mp = m->next;
	if (why != NULL) {
		ev = proto_event(PROTO_EV_CHALLENGE_OVER, NULL, 0);
		cJSON_AddStringToObject(ev, "name", m->to);
		cJSON_AddStringToObject(ev, "game", m->s->g->name);
		cJSON_AddStringToObject(ev, "reason", why);
		player_send(srv, m->from, ev);
		cJSON_Delete(ev);
	}
	seek_free(m->s);
	free(m);
}

/* Whether the player called name can hear a challenge now: connected
 * here, or (on a cluster) logged in on another node, where the event
 * goes through a stand-in (player_send). */
static int
match_reachable(struct server *srv, const char *name)
{
	const struct player *p = player_find(srv, name);
	const struct cluster_ops *cl = srv->cluster_ops;

	return (p != NULL && p->conn != NULL) ||
	    (cl != NULL && cl->online(srv, name));
}

/* The name, as registered, of the connected player a challenge goes to,
 * into to; -1 after replying why not (bad_name: nobody has the name;
 * not_allowed: away, you, blocked). */
static int
match_target(struct conn *c, const struct proto_request *req, char *to)
{
	struct player *p = player_find(c->srv, req->name);
	struct store_identity id;
	int found = 0;

	if (p == NULL && player_name_valid(req->name) &&
	    store_identity_find(c->srv->reader, req->name, &id, &found) == 0 &&
	    found)
		p = player_find(c->srv, id.name);
	if (p == NULL && !found) {
		conn_error(c, req, PROTO_E_BAD_NAME,
		    "nobody is registered as %s", req->name);
		return -1;
	}
	snprintf(to, SERVER_NAME_MAX + 1, "%.*s", SERVER_NAME_MAX,
	    p != NULL ? p->name : id.name);
	if (p == c->player) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "that is you: challenge someone else");
		return -1;
	}
	if (!match_reachable(c->srv, to)) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "%s is not connected now (seek GAME waits for anyone)", to);
		return -1;
	}
	if (block_refuses(c->srv, to, c->player->name) ||
	    block_refuses(c->srv, c->player->name, to)) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "%s and you: one blocks the other", to);
		return -1;
	}
	return 0;
}

/* The game a challenge without one asks for: the one the challenger
 * has the most rated games in (who's ratings), else the first two-player
 * game of the registry. */
static const char *
match_default_game(const struct player *me)
{
	const cJSON *row, *best = NULL;
	static char game[RATING_POOL_MAX];
	int i;

	cJSON_ArrayForEach(row, me->ratings)
		if (best == NULL ||
		    cJSON_GetArrayItem(row, 2)->valuedouble >
		        cJSON_GetArrayItem(best, 2)->valuedouble)
			best = row;
	if (best != NULL) {
		snprintf(game, sizeof game, "%.*s",
		    (int)strcspn(best->string, " "), best->string);
		return game;
	}
	for (i = 0; rules_games[i] != NULL; i++)
		if (rules_games[i]->seats == 2)
			return rules_games[i]->name;
	return "ataxx";
}

/* Can this player start one more game now? 0, or -1 after replying. */
static int
match_limits(struct conn *c, const struct proto_request *req)
{
	if (room_count_for(c->player) >= c->srv->cfg.max_rooms_per_player) {
		conn_error(c, req, PROTO_E_LIMIT_REACHED,
		    "you are in %d unfinished rooms already",
		    c->srv->cfg.max_rooms_per_player);
		return -1;
	}
	return limit_games_check(c, c->player->name, req);
}

/* The challenged event: who, the game, its options, clock and rating. */
static cJSON *
match_event(struct server *srv, const struct match *m)
{
	cJSON *ev = proto_event(PROTO_EV_CHALLENGED, NULL, 0);
	cJSON *s = seek_json(m->s);

	cJSON_AddStringToObject(ev, "from", m->from);
	cJSON_AddStringToObject(ev, "game", m->s->g->name);
	cJSON_AddItemToObject(ev, "options",
	    cJSON_Duplicate(cJSON_GetObjectItem(s, "options"), 1));
	cJSON_AddItemToObject(
	    ev, "clock", cJSON_Duplicate(cJSON_GetObjectItem(s, "clock"), 1));
	cJSON_AddBoolToObject(ev, "rated", m->s->rated);
	cJSON_AddNumberToObject(
	    ev, "expires_in", srv->cfg.challenge_expire_sec);
	cJSON_Delete(s);
	return ev;
}

/* match NAME [GAME ...]: a challenge to one connected player, who hears
 * it at once (challenged). */
void
cmd_match(struct conn *c, const struct proto_request *req)
{
	char to[SERVER_NAME_MAX + 1];
	struct match *m;
	struct seek *s;
	cJSON *rep, *ev;

	if (match_target(c, req, to) != 0 || match_limits(c, req) != 0)
		return;
	if (match_find(c->srv, c->player->name, to) != NULL) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "you have challenged %s already: wait for the answer "
		    "(it expires in %d s at most)",
		    to, c->srv->cfg.challenge_expire_sec);
		return;
	}
	if (match_count(c->srv, c->player->name, 1) >= MATCH_OUT_MAX ||
	    match_count(c->srv, to, 0) >= MATCH_IN_MAX) {
		conn_error(c, req, PROTO_E_LIMIT_REACHED,
		    "too many challenges wait: you may have %d out, and %s "
		    "%d in",
		    MATCH_OUT_MAX, to, MATCH_IN_MAX);
		return;
	}
	s = seek_request_make(c, req,
	    req->game != NULL ? req->game : match_default_game(c->player));
	if (s == NULL)
		return;
	m = xcalloc(1, sizeof *m);
	snprintf(m->from, sizeof m->from, "%s", c->player->name);
	snprintf(m->to, sizeof m->to, "%s", to);
	m->s = s;
	m->made_ms = clock_mono_ms();
	m->next = c->srv->matches;
	c->srv->matches = m;
	rep = proto_reply(req);
	cJSON_AddStringToObject(rep, "name", to);
	cJSON_AddStringToObject(rep, "game", s->g->name);
	cJSON_AddNumberToObject(
	    rep, "expires_in", c->srv->cfg.challenge_expire_sec);
	conn_reply(c, rep);
	ev = match_event(c->srv, m);
	player_send(c->srv, to, ev);
	cJSON_Delete(ev);
	log_info("match: %s challenges %s (%s)", m->from, m->to, s->g->name);
}

/* The challenge to c's player that accept or decline answers: from
 * req->name, or the only one waiting; NULL after replying. */
static struct match **
match_answered(struct conn *c, const struct proto_request *req)
{
	struct match **mp;

	if (req->name != NULL) {
		mp = match_find(c->srv, req->name, c->player->name);
		if (mp == NULL)
			conn_error(c, req, PROTO_E_NOT_ALLOWED,
			    "no challenge from %s waits for you", req->name);
		return mp;
	}
	switch (match_count(c->srv, c->player->name, 0)) {
	case 0:
		conn_error(
		    c, req, PROTO_E_NOT_ALLOWED, "no challenge waits for you");
		return NULL;
	case 1:
		return match_find(c->srv, NULL, c->player->name);
	default:
		conn_error(c, req, PROTO_E_BAD_REQUEST,
		    "several challenges wait for you: name whose (%s NAME)",
		    proto_verb_name(req->verb));
		return NULL;
	}
}

/* accept [NAME]: the challenge's room is made and its game starts, as a
 * pairing's (seek_room_make). */
void
cmd_accept(struct conn *c, const struct proto_request *req)
{
	struct match **mp = match_answered(c, req), *m;
	struct seek *mine;
	struct player *p;
	struct room *r;
	cJSON *rep;
	char why[128];

	if (mp == NULL || match_limits(c, req) != 0)
		return;
	m = *mp;
	p = player_find(c->srv, m->from);
	if (p == NULL || p->conn == NULL ||
	    room_count_for(p) >= c->srv->cfg.max_rooms_per_player ||
	    !limit_games_ok(
	        c->srv, p->name, p->conn->lim_addr, why, sizeof why)) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "%s cannot play now (gone, or at a limit of rooms or "
		    "games); the challenge is over",
		    m->from);
		match_end(c->srv, mp, "gone");
		return;
	}
	mine = seek_new(m->s->g, cJSON_Duplicate(m->s->options, 1));
	snprintf(mine->name, sizeof mine->name, "%s", c->player->name);
	mine->rated = m->s->rated;
	mine->clock_initial_ms = m->s->clock_initial_ms;
	mine->clock_inc_ms = m->s->clock_inc_ms;
	r = seek_room_make(c->srv, m->s, p, mine, c->player);
	seek_free(mine);
	match_end(c->srv, mp, NULL);
	if (r == NULL) {
		conn_error(c, req, PROTO_E_INTERNAL, "no room could be made");
		return;
	}
	rep = proto_reply(req);
	cJSON_AddStringToObject(rep, "room", r->id);
	cJSON_AddStringToObject(
	    rep, "seat", r->g->seat_names[room_seat_of(r, c->player)]);
	cJSON_AddStringToObject(rep, "opponent", p->name);
	conn_reply(c, rep);
}

/* decline [NAME]: the challenge ends; its challenger hears so. */
void
cmd_decline(struct conn *c, const struct proto_request *req)
{
	struct match **mp = match_answered(c, req);
	cJSON *rep;

	if (mp == NULL)
		return;
	rep = proto_reply(req);
	cJSON_AddStringToObject(rep, "name", (*mp)->from);
	conn_reply(c, rep);
	match_end(c->srv, mp, "declined");
}

/* The sweep's part (every second): challenges past --challenge-expire, or
 * whose challenger or challenged is gone, end. */
void
match_sweep(struct server *srv)
{
	struct match **mp = &srv->matches;
	const struct player *from;
	int64_t now = clock_mono_ms();

	while (*mp != NULL) {
		from = player_find(srv, (*mp)->from);
		if (from == NULL || from->conn == NULL)
			match_end(srv, mp, NULL);
		else if (now - (*mp)->made_ms >=
		    (int64_t)srv->cfg.challenge_expire_sec * 1000)
			match_end(srv, mp, "expired");
		else if (!match_reachable(srv, (*mp)->to))
			match_end(srv, mp, "gone");
		else
			mp = &(*mp)->next;
	}
}

/* Free every challenge (at exit). */
void
match_free_all(struct server *srv)
{
	while (srv->matches != NULL)
		match_end(srv, &srv->matches, NULL);
}
