/*
 * cmd_seek.c: the seek verbs (seek, seeks, unseek, and play, which takes
 * a listed seek) and the pairing: a seek that meets an open compatible
 * one, or a seek taken, makes a room at once, seats both players and
 * starts the game; both hear a paired event (match.c's challenges make
 * their rooms here too). Also the seeks'
 * ends: a player who quits, whose grace runs out after a disconnect, or
 * who starts a two-player game by other means has no seek left. The pool
 * itself is seek.c.
 */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "server/net/limit.h"
#include "server/club/seek.h"
#include "server/store/store.h"

/* The options of a seek request as an object of strings with the game's
 * defaults filled in, so "seek ataxx" and "seek ataxx size=7" meet; NULL
 * after replying the error. */
static cJSON *
cmd_seek_options(
    struct conn *c, const struct proto_request *req, const struct rules_game *g)
{
	const struct rules_optdesc *d;
	cJSON *o = cJSON_CreateObject();
	size_t bytes = 0;
	int i;

	for (i = 0; i < req->noptions; i++) {
		const char *k = req->options[i].key;

		if (strcmp(k, RULES_OPT_FILE) == 0 ||
		    strcmp(k, RULES_OPT_POSITION) == 0) {
			conn_error(c, req, PROTO_E_BAD_OPTIONS,
			    "a seek takes no %s: create the room and invite "
			    "someone instead",
			    k);
			cJSON_Delete(o);
			return NULL;
		}
		bytes += strlen(k) + strlen(req->options[i].value);
		cJSON_AddStringToObject(o, k, req->options[i].value);
	}
	if (bytes > SEEK_OPTIONS_MAX) {
		conn_error(c, req, PROTO_E_BAD_OPTIONS,
		    "a seek's options hold %d bytes at most", SEEK_OPTIONS_MAX);
		cJSON_Delete(o);
		return NULL;
	}
	for (d = g->options; d != NULL && d->name != NULL; d++)
		if (d->def != NULL && cJSON_GetObjectItem(o, d->name) == NULL)
			cJSON_AddStringToObject(o, d->name, d->def);
	return o;
}

/* Would a room take these options? 0, or -1 after replying why not (the
 * rules' own words, as create gives them). */
static int
cmd_seek_valid(struct conn *c, const struct proto_request *req,
    const struct rules_game *g, const cJSON *options)
{
	char err[RULES_ERR_MAX];
	struct room *r;

	r = room_new(
	    c->srv, g, cJSON_Duplicate(options, 1), 1, err, sizeof err);
	if (r == NULL) {
		conn_error(c, req, PROTO_E_BAD_OPTIONS, "%s", err);
		return -1;
	}
	room_free(r);
	return 0;
}

/* The seek a request asks for (of game, or req->game), not yet in the
 * pool; NULL after replying the error. match.c makes its challenges'
 * games with it too. */
struct seek *
seek_request_make(
    struct conn *c, const struct proto_request *req, const char *game)
{
	const struct rules_game *g = rules_find(game);
	struct seek *s;
	cJSON *options;

	if (g == NULL) {
		conn_error(c, req, PROTO_E_NO_SUCH_GAME,
		    "no game '%s' (games lists them)", game);
		return NULL;
	}
	if (g->seats != 2) {
		conn_error(c, req, PROTO_E_BAD_OPTIONS,
		    "%s is a one-player game: create %s to play it", g->name,
		    g->name);
		return NULL;
	}
	if ((options = cmd_seek_options(c, req, g)) == NULL)
		return NULL;
	if (cmd_seek_valid(c, req, g, options) != 0) {
		cJSON_Delete(options);
		return NULL;
	}
	s = seek_new(g, options);
	snprintf(s->name, sizeof s->name, "%s", c->player->name);
	s->rated = req->has_rated ? req->is_rated : 1;
	if (req->has_clock) {
		s->clock_initial_ms = (int64_t)req->clock_initial * 1000;
		s->clock_inc_ms = (int64_t)req->clock_increment * 1000;
	}
	if (req->range != NULL &&
	    seek_parse_range(req->range, &s->range_lo, &s->range_hi) != 0) {
		conn_error(c, req, PROTO_E_BAD_REQUEST,
		    "range is the opponents' ratings, LO-HI, from 0 to %d "
		    "(range=1300-1700)",
		    SEEK_RATING_MAX);
		seek_free(s);
		return NULL;
	}
	s->rating = seek_rating(c->srv, s->name, g, s->options);
	s->made_ms = clock_now_ms();
	return s;
}

/* May this player have one more seek (and the game it would start)? 0,
 * or -1 after replying limit_reached. */
static int
cmd_seek_limits(struct conn *c, const struct proto_request *req)
{
	struct seek_pool *pool = c->srv->seeks;

	if (seek_count_of(pool, c->player->name) >= SEEK_PER_PLAYER_MAX) {
		conn_error(c, req, PROTO_E_LIMIT_REACHED,
		    "you have %d open seeks already (unseek withdraws them)",
		    SEEK_PER_PLAYER_MAX);
		return -1;
	}
	if (pool->n >= c->srv->cfg.max_seeks) {
		conn_error(c, req, PROTO_E_LIMIT_REACHED,
		    "the server has %d open seeks; try again shortly",
		    c->srv->cfg.max_seeks);
		return -1;
	}
	if (room_count_for(c->player) >= c->srv->cfg.max_rooms_per_player) {
		conn_error(c, req, PROTO_E_LIMIT_REACHED,
		    "you are in %d unfinished rooms already",
		    c->srv->cfg.max_rooms_per_player);
		return -1;
	}
	return limit_games_check(c, c->player->name, req);
}

/* A seek looking for its match: the server and the seek. */
struct cmd_seek_want {
	struct server *srv;
	const struct seek *s;
};

/* Can the seeker of an open seek start a game now with the one who
 * wants it: connected, with a room and a game left to them, and neither
 * blocking the other (core/block.c)? (seek_match's question.) */
static int
cmd_seek_ready(void *arg, const struct seek *s)
{
	const struct cmd_seek_want *w = arg;
	struct server *srv = w->srv;
	struct player *p = player_find(srv, s->name);
	char why[128];

	return p != NULL && p->conn != NULL &&
	    room_count_for(p) < srv->cfg.max_rooms_per_player &&
	    limit_games_ok(srv, p->name, p->conn->lim_addr, why, sizeof why) &&
	    !block_refuses(srv, s->name, w->s->name) &&
	    !block_refuses(srv, w->s->name, s->name);
}

/* The oldest open seek that meets s and whose player can play now, with
 * that player in *p. */
static struct seek *
cmd_seek_match(struct server *srv, const struct seek *s, struct player **p)
{
	struct cmd_seek_want w = {srv, s};
	struct seek *o = seek_match(srv->seeks, s, cmd_seek_ready, &w);

	*p = o != NULL ? player_find(srv, o->name) : NULL;
	return o;
}

/* A joined event for a seated player. */
static void
cmd_seek_joined(struct room *r, int seat)
{
	cJSON *ev = room_event(r, PROTO_EV_JOINED);

	cJSON_AddStringToObject(ev, "name", r->seats[seat].player->name);
	cJSON_AddStringToObject(ev, "seat", r->g->seat_names[seat]);
	cJSON_AddStringToObject(ev, "role", "player");
	room_broadcast(r, ev);
}

/* Tell the player of seat `seat` whom they meet, where (connection
 * event: held with the room's commit like everything after it). */
static void
cmd_seek_tell(struct room *r, int seat, const char *seek_id, int rated)
{
	struct player *p = r->seats[seat].player;
	cJSON *ev;

	if (p->conn == NULL)
		return;
	ev = proto_event(PROTO_EV_PAIRED, NULL, 0);
	cJSON_AddStringToObject(ev, "room", r->id);
	cJSON_AddStringToObject(ev, "game", r->g->name);
	cJSON_AddStringToObject(ev, "seat", r->g->seat_names[seat]);
	cJSON_AddStringToObject(
	    ev, "opponent", r->seats[1 - seat].player->name);
	if (seek_id[0] != '\0')
		cJSON_AddStringToObject(ev, "seek", seek_id);
	else /* a challenge accepted (match.c) */
		cJSON_AddNullToObject(ev, "seek");
	cJSON_AddBoolToObject(ev, "rated", rated);
	cJSON_AddItemToObject(ev, "clock",
	    room_clock_summary(r->clock_initial_ms, r->clock_inc_ms));
	net_send_msg(p->conn, ev);
	cJSON_Delete(ev);
}

/* A room for two seeks (theirs, older, of player p; mine, of player me),
 * its seats drawn by lot, the game started, both told; NULL when no room
 * could be had (logged). The seeks leave the pool as the game starts
 * (seek_room_started). Rated or casual is told in the paired event; a
 * casual game is made rated=no. A seek with no id is no pool's (a seek
 * taken with play, a challenge accepted). */
struct room *
seek_room_make(struct server *srv, struct seek *theirs, struct player *p,
    struct seek *mine, struct player *me)
{
	char err[RULES_ERR_MAX], their_id[SEEK_ID_MAX], my_id[SEEK_ID_MAX];
	int rated = mine->rated, seat = (int)randombytes_uniform(2);
	cJSON *options = cJSON_Duplicate(mine->options, 1);
	struct room *r;

	if (!mine->rated) /* a casual seek's game is not rated (rating.c) */
		cJSON_AddStringToObject(options, RATING_OPT, "no");
	r = room_new(srv, mine->g, options, 1, err, sizeof err);
	if (r == NULL || store_room_number(srv->reader, &r->number) != 0) {
		log_error("seek: no room for %s and %s: %s", theirs->name,
		    mine->name, r == NULL ? err : store_errmsg(srv->reader));
		room_free(r);
		return NULL;
	}
	snprintf(r->id, sizeof r->id, "r%ld", r->number);
	snprintf(r->creator, sizeof r->creator, "%s", theirs->name);
	r->clock_initial_ms = mine->clock_initial_ms;
	r->clock_inc_ms = mine->clock_inc_ms;
	r->seats[seat].player = me;
	r->seats[1 - seat].player = p;
	snprintf(their_id, sizeof their_id, "%s", theirs->id);
	snprintf(my_id, sizeof my_id, "%s", mine->id);
	room_start_prepare(r); /* both players' seeks leave the pool here */
	room_commit(r, 2 + room_start_nevents(r), 0);
	room_add(r);
	me->conn->current = r;
	p->conn->current = r;
	log_info("seek: %s and %s paired in %s (%s)", p->name, me->name, r->id,
	    r->g->name);
	cmd_seek_tell(r, 1 - seat, their_id, rated);
	cmd_seek_tell(r, seat, my_id, rated);
	cmd_seek_joined(r, 0);
	cmd_seek_joined(r, 1);
	room_start_announce(r);
	return r;
}

void
cmd_seek(struct conn *c, const struct proto_request *req)
{
	struct seek *s, *same, *theirs;
	struct player *p = NULL;
	struct room *r;
	cJSON *rep;

	if (club_refused(c, req))
		return;
	if (cmd_seek_limits(c, req) != 0 ||
	    (s = seek_request_make(c, req, req->game)) == NULL)
		return;
	if ((same = seek_find_same(c->srv->seeks, s)) != NULL) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "you seek that game already (%s)", same->id);
		seek_free(s);
		return;
	}
	theirs = cmd_seek_match(c->srv, s, &p);
	seek_add(c->srv->seeks, s);
	sstore_counted(c->srv, s); /* its id is never given out again */
	rep = proto_reply(req);
	cJSON_AddItemToObject(rep, "seek", seek_json(s));
	if (theirs == NULL) {
		sstore_put(c->srv, s); /* the reply waits for its commit */
		log_info("seek: %s seeks %s (%s)", c->player->name, s->g->name,
		    s->id);
		cJSON_AddNullToObject(rep, "room");
		conn_reply(c, rep);
		return;
	}
	if ((r = seek_room_make(c->srv, theirs, p, s, c->player)) == NULL) {
		seek_remove(c->srv->seeks, s);
		cJSON_Delete(rep);
		conn_error(c, req, PROTO_E_INTERNAL,
		    "no room could be made; your seek is not kept");
		return;
	}
	cJSON_AddStringToObject(rep, "room", r->id);
	cJSON_AddStringToObject(
	    rep, "seat", r->g->seat_names[room_seat_of(r, c->player)]);
	cJSON_AddStringToObject(rep, "opponent", p->name);
	conn_reply(c, rep);
}

/* The seek play takes: listed, not the player's own; NULL after
 * replying the error. */
static struct seek *
cmd_play_find(struct conn *c, const struct proto_request *req)
{
	struct seek *s = seek_find(c->srv->seeks, req->seek);

	if (s == NULL || s->gone_ms != 0) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "no open seek '%s' (seeks lists them)", req->seek);
		return NULL;
	}
	if (strcmp(s->name, c->player->name) == 0) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "%s is your own seek (unseek withdraws it)", s->id);
		return NULL;
	}
	return s;
}

/* The taker's side of seek s: the same game, clock and rating choice,
 * with the taker's rating and the id of the seek taken (never in the
 * pool). */
static struct seek *
cmd_play_side(struct conn *c, const struct seek *s)
{
	struct seek *mine = seek_new(s->g, cJSON_Duplicate(s->options, 1));

	snprintf(mine->name, sizeof mine->name, "%s", c->player->name);
	snprintf(mine->id, sizeof mine->id, "%s", s->id); /* in paired */
	mine->rated = s->rated;
	mine->clock_initial_ms = s->clock_initial_ms;
	mine->clock_inc_ms = s->clock_inc_ms;
	mine->rating = seek_rating(c->srv, mine->name, s->g, mine->options);
	mine->made_ms = clock_now_ms();
	return mine;
}

/* play SEEK: take a listed seek: its game starts at once, as if the
 * taker had made the same seek, within its range. */
void
cmd_play(struct conn *c, const struct proto_request *req)
{
	struct cmd_seek_want w = {c->srv, NULL};
	struct seek *theirs, *mine;
	struct player *p;
	struct room *r;
	cJSON *rep;

	if (club_refused(c, req) || (theirs = cmd_play_find(c, req)) == NULL)
		return;
	if (room_count_for(c->player) >= c->srv->cfg.max_rooms_per_player) {
		conn_error(c, req, PROTO_E_LIMIT_REACHED,
		    "you are in %d unfinished rooms already",
		    c->srv->cfg.max_rooms_per_player);
		return;
	}
	if (limit_games_check(c, c->player->name, req) != 0)
		return;
	mine = cmd_play_side(c, theirs);
	w.s = mine;
	if (!seek_compatible(theirs, mine)) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "%s wants opponents rated %d-%d; you are %d here",
		    theirs->name, theirs->range_lo, theirs->range_hi,
		    mine->rating);
		seek_free(mine);
		return;
	}
	if (!cmd_seek_ready(&w, theirs)) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "%s cannot play you now (blocked, or at a limit of "
		    "rooms or games)",
		    theirs->name);
		seek_free(mine);
		return;
	}
	p = player_find(c->srv, theirs->name);
	r = seek_room_make(c->srv, theirs, p, mine, c->player);
	seek_free(mine);
	if (r == NULL) {
		conn_error(c, req, PROTO_E_INTERNAL, "no room could be made");
		return;
	}
	rep = proto_reply(req);
	cJSON_AddStringToObject(rep, "seek", req->seek);
	cJSON_AddStringToObject(rep, "room", r->id);
	cJSON_AddStringToObject(
	    rep, "seat", r->g->seat_names[room_seat_of(r, c->player)]);
	cJSON_AddStringToObject(rep, "opponent", p->name);
	conn_reply(c, rep);
}

/* The open seeks, newest first, at most SEEK_LIST_MAX (of one game when
 * asked); a seeker who is gone (within the grace) is not listed. */
void
cmd_seeks(struct conn *c, const struct proto_request *req)
{
	const struct rules_game *g = NULL;
	cJSON *rep, *list;
	int more;

	if (club_refused(c, req))
		return;
	if (req->game != NULL && (g = rules_find(req->game)) == NULL) {
		conn_error(
		    c, req, PROTO_E_NO_SUCH_GAME, "no game '%s'", req->game);
		return;
	}
	rep = proto_reply(req);
	list = cJSON_AddArrayToObject(rep, "seeks");
	more = seek_list_json(c->srv->seeks, g, SEEK_LIST_MAX, list);
	cJSON_AddBoolToObject(rep, "more", more);
	conn_reply(c, rep);
}

/* unseek [SEEK]: withdraw one of the player's seeks, or all; the reply
 * names those withdrawn and lists those still open. */
void
cmd_unseek(struct conn *c, const struct proto_request *req)
{
	struct seek_pool *pool = c->srv->seeks;
	struct seek *s;
	cJSON *rep, *gone, *left;

	if (club_refused(c, req))
		return;
	s = req->seek != NULL ? seek_find(pool, req->seek) : NULL;
	if (req->seek != NULL &&
	    (s == NULL || strcmp(s->name, c->player->name) != 0)) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "you have no open seek '%s' (seeks lists them)", req->seek);
		return;
	}
	rep = proto_reply(req);
	gone = cJSON_AddArrayToObject(rep, "removed");
	left = cJSON_AddArrayToObject(rep, "seeks");
	seek_withdraw(pool, c->player->name, req->seek, gone, left);
	conn_reply(c, rep);
}

/* A two-player game starts (a pairing, create, join, rematch): its
 * players' seeks end, since they have a game now. */
void
seek_room_started(struct room *r)
{
	int i;

	if (r->g->seats != 2 || r->srv->seeks == NULL)
		return;
	for (i = 0; i < r->g->seats; i++)
		if (r->seats[i].player != NULL &&
		    seek_remove_player(r->srv->seeks, r->seats[i].player->name))
			log_info("seek: %s's seeks end: a game starts in %s",
			    r->seats[i].player->name, r->id);
}

/* The player's connection closed: their seeks wait for the grace. A quit
 * ends them at once (cmd_quit). */
void
seek_conn_closed(struct server *srv, const char *name)
{
	if (srv->seeks != NULL)
		seek_player_gone(srv->seeks, name, clock_mono_ms());
}

/* The player logged in again: their waiting seeks are open again, and
 * the first one that meets another open seek starts its game now (one:
 * the game ends the player's other seeks). */
void
seek_logged_in(struct server *srv, struct player *me)
{
	struct seek *s, *theirs;
	struct player *p = NULL;

	if (srv->seeks == NULL)
		return;
	seek_player_back(srv->seeks, me->name);
	if (room_count_for(me) >= srv->cfg.max_rooms_per_player)
		return;
	for (s = seek_next_of(srv->seeks, me->name, NULL); s != NULL;
	     s = seek_next_of(srv->seeks, me->name, s)) {
		if ((theirs = cmd_seek_match(srv, s, &p)) != NULL) {
			seek_room_make(srv, theirs, p, s, me);
			return;
		}
	}
}

/* The sweep's part: seeks whose player stayed away past --grace end. */
void
seek_sweep(struct server *srv)
{
	int n;

	if (srv->seeks == NULL)
		return;
	n = seek_expire(
	    srv->seeks, clock_mono_ms(), (int64_t)srv->cfg.grace_sec * 1000);
	if (n > 0)
		log_info(
		    "seek: %d seeks ended: their players did not come back", n);
}
