/*
 * cmd_room.c: the verbs that make, enter, leave and look at rooms: create,
 * join, watch, leave, state, moves, say (room chat) and export.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "server/cmd/cmd.h"
#include "server/club/club.h"
#include "server/net/limit.h"
#include "server/club/tourney.h"
#include "server/store/storeq.h"
#include "server/store/store.h"

/* Letters of a private room's id after its 'p': twelve base32 letters are
 * 60 random bits, so counting or guessing ids never finds one. */
#define CMD_PRIVATE_ID_CHARS 12

/* The one room where the opponent offered this player a draw, or NULL
 * when there is none or more than one. */
static struct room *
cmd_offer_room(struct conn *c)
{
	struct room *r, *found = NULL;
	int seat, i;

	for (i = 0; i < c->player->nrooms; i++) {
		r = c->player->rooms[i];
		seat = room_seat_of(r, c->player);
		if (seat < 0 || r->g->seats != 2 || r->draw_offer != 1 - seat)
			continue;
		if (found != NULL)
			return NULL;
		found = r;
	}
	return found;
}

/* The unfinished room other than `except` this player sits in, the last
 * one that changed, and how many there are into *n (the room verbs fall
 * back to it when the connection has no current room). */
static struct room *
cmd_seated_room(struct conn *c, const struct room *except, int *n)
{
	struct room *r, *latest = NULL;
	int i;

	*n = 0;
	for (i = 0; i < c->player->nrooms; i++) {
		r = c->player->rooms[i];
		if (r == except || r->status == ROOM_ENDED ||
		    room_seat_of(r, c->player) < 0)
			continue;
		(*n)++;
		if (latest == NULL || r->updated_ms >= latest->updated_ms)
			latest = r;
	}
	return latest;
}

/* The room of the invitation the player heard last (bare.c), taken: a
 * join without a room accepts it. NULL when there is none, or its room
 * is gone or over. */
static struct room *
cmd_invited_room(struct conn *c)
{
	struct room *r;

	if (c->player == NULL || c->player->invited[0] == '\0')
		return NULL;
	r = room_find(c->srv, c->player->invited);
	c->player->invited[0] = '\0';
	return r != NULL && r->status != ROOM_ENDED ? r : NULL;
}

/* No room given: the one the request must mean, or NULL after replying
 * the error. A join goes to the room of the last invitation; an answer
 * to a draw offer goes to the room with the offer; else the current
 * room; else the one room the player sits in. */
static struct room *
cmd_room_implied(struct conn *c, const struct proto_request *req)
{
	struct room *r = NULL;
	int n;

	if (req->verb == PROTO_JOIN)
		r = cmd_invited_room(c);
	if (r == NULL && req->verb == PROTO_DRAW && req->action != NULL &&
	    strcmp(req->action, "offer") != 0 &&
	    (c->current == NULL || c->current->draw_offer < 0))
		r = cmd_offer_room(c);
	if (r == NULL)
		r = c->current;
	if (r == NULL && (r = cmd_seated_room(c, NULL, &n)) != NULL && n > 1) {
		conn_error(c, req, PROTO_E_BAD_REQUEST,
		    "which room? you play in %d rooms: add the room "
		    "(room=ID), or join ROOM to make it current",
		    n);
		return NULL;
	}
	if (r == NULL && c->mode == CONN_MODE_TEXT)
		conn_error(c, req, PROTO_E_BAD_REQUEST,
		    "you are in no room: usage: %s",
		    proto_verb_shorthand(req->verb));
	else if (r == NULL)
		conn_error(c, req, PROTO_E_BAD_REQUEST,
		    "field 'room' is required (you are in no room)");
	else
		c->current = r;
	return r;
}

/* The room a request names, or the connection's current room; NULL after
 * replying the error. */
struct room *
cmd_room_arg(struct conn *c, const struct proto_request *req)
{
	struct room *r;

	if (req->room == NULL)
		return cmd_room_implied(c, req);
	r = room_find(c->srv, req->room);
	if (r == NULL) {
		conn_error(
		    c, req, PROTO_E_NO_SUCH_ROOM, "no room '%s'", req->room);
		return NULL;
	}
	return r;
}

/* The request's room (as cmd_room_arg) when c's player sits in it or
 * watches it; NULL after replying. */
struct room *
cmd_room_member(struct conn *c, const struct proto_request *req)
{
	struct room *r = cmd_room_arg(c, req);

	if (r == NULL)
		return NULL;
	if (room_seat_of(r, c->player) < 0 && !room_is_watcher(r, c->player)) {
		conn_error(
		    c, req, PROTO_E_NOT_IN_ROOM, "you are not in %s", r->id);
		return NULL;
	}
	return r;
}

static void
cmd_bad_seat(struct conn *c, const struct proto_request *req,
    const struct rules_game *g, const char *seat)
{
	if (g->seats == 1)
		conn_error(c, req, PROTO_E_BAD_REQUEST,
		    "no seat '%s': %s has one seat, '%s'", seat, g->name,
		    g->seat_names[0]);
	else
		conn_error(c, req, PROTO_E_BAD_REQUEST,
		    "no seat '%s': %s has seats '%s' and '%s'", seat, g->name,
		    g->seat_names[0], g->seat_names[1]);
}

/* The level of a saved one-player game to resume: its level, one higher
 * when that level was won; 0 when there is none. */
static long
cmd_saved_level(struct conn *c, const struct rules_game *g)
{
	char buf[4096];
	const char *result;
	cJSON *o, *lvl;
	long level = 0;
	int found = 0;

	if (store_progress_get(c->srv->reader, c->player->name, g->name, buf,
	        sizeof buf, &found) != 0 ||
	    !found)
		return 0;
	o = cJSON_Parse(buf);
	lvl = cJSON_GetObjectItem(
	    cJSON_GetObjectItem(o, "options"), RULES_OPT_LEVEL);
	if (cJSON_IsString(lvl))
		level = strtol(lvl->valuestring, NULL, 10);
	result = cJSON_GetStringValue(cJSON_GetObjectItem(o, "result"));
	if (level > 0 && result != NULL && strcmp(result, "solved") == 0)
		level++;
	cJSON_Delete(o);
	return level;
}

/* Resuming the level last played, not won: the very same level, so the
 * saved game's other options (its seed, its moves table) come back too,
 * unless the create gives them. */
static void
cmd_resume_same(
    struct conn *c, const struct rules_game *g, cJSON *o, long level)
{
	char buf[4096];
	const char *result;
	cJSON *saved, *opts, *it;
	int found = 0;

	if (store_progress_get(c->srv->reader, c->player->name, g->name, buf,
	        sizeof buf, &found) != 0 ||
	    !found)
		return;
	saved = cJSON_Parse(buf);
	opts = cJSON_GetObjectItem(saved, "options");
	result = cJSON_GetStringValue(cJSON_GetObjectItem(saved, "result"));
	it = cJSON_GetObjectItem(opts, RULES_OPT_LEVEL);
	if (result != NULL && strcmp(result, "solved") != 0 &&
	    cJSON_IsString(it) && strtol(it->valuestring, NULL, 10) == level)
		cJSON_ArrayForEach(it, opts)
			if (cJSON_IsString(it) &&
			    cJSON_GetObjectItem(o, it->string) == NULL)
				cJSON_AddStringToObject(
				    o, it->string, it->valuestring);
	cJSON_Delete(saved);
}

/* The options of a create as an object of strings; a one-player game with
 * levels resumes at the player's saved level unless one is given. */
static cJSON *
cmd_create_options(struct conn *c, const struct proto_request *req,
    const struct rules_game *g, long *resumed)
{
	cJSON *o = cJSON_CreateObject();
	const struct rules_optdesc *d;
	int i;

	*resumed = 0;
	for (i = 0; i < req->noptions; i++)
		cJSON_AddStringToObject(
		    o, req->options[i].key, req->options[i].value);
	if (g->seats != 1 || cJSON_GetObjectItem(o, RULES_OPT_LEVEL) != NULL ||
	    cJSON_GetObjectItem(o, RULES_OPT_FILE) != NULL)
		return o;
	for (d = g->options; d != NULL && d->name != NULL; d++) {
		long level;
		char buf[16];

		if (strcmp(d->name, RULES_OPT_LEVEL) != 0 ||
		    d->type != RULES_OPT_INT)
			continue;
		level = cmd_saved_level(c, g);
		if (level < d->min || level > d->max)
			break;
		snprintf(buf, sizeof buf, "%ld", level);
		cJSON_AddStringToObject(o, RULES_OPT_LEVEL, buf);
		*resumed = level;
		cmd_resume_same(c, g, o, level);
		break;
	}
	return o;
}

/* Put bots in the seats asked for; 0 or -1 after replying the error. */
static int
cmd_create_bots(struct conn *c, const struct proto_request *req, struct room *r,
    int creator_seat)
{
	int i, s;

	if (req->nbots > 0 && r->g->seats < 2) {
		conn_error(c, req, PROTO_E_BAD_OPTIONS,
		    "%s is a one-player game: no bots", r->g->name);
		return -1;
	}
	if (req->bot_depth > 0 && req->nbots == 0) {
		conn_error(c, req, PROTO_E_BAD_REQUEST,
		    "field 'depth' is the bots' search depth: ask for a bot");
		return -1;
	}
	for (i = 0; i < req->nbots; i++) {
		if (req->bots[i].seat == NULL) {
			for (s = 0; s < r->g->seats; s++)
				if (s != creator_seat && r->seats[s].bot == 0 &&
				    (creator_seat >= 0 || s > 0)) {
					r->seats[s].bot = req->bots[i].level;
					r->seats[s].depth = req->bot_depth;
				}
			continue;
		}
		s = room_seat_index(r->g, req->bots[i].seat);
		if (s < 0) {
			cmd_bad_seat(c, req, r->g, req->bots[i].seat);
			return -1;
		}
		if (s == creator_seat) {
			conn_error(c, req, PROTO_E_BAD_REQUEST,
			    "seat '%s' is yours; a bot cannot take it",
			    r->g->seat_names[s]);
			return -1;
		}
		r->seats[s].bot = req->bots[i].level;
		r->seats[s].depth = req->bot_depth;
	}
	return 0;
}

/* 1 when every seat has a player or a bot. */
static int
cmd_room_full(const struct room *r)
{
	int i;

	for (i = 0; i < r->g->seats; i++)
		if (r->seats[i].player == NULL && r->seats[i].bot == 0)
			return 0;
	return 1;
}

/* A joined or left event: who, in which seat (null for a watcher). */
static void
cmd_member_event(
    struct room *r, enum proto_event_kind e, struct player *p, int seat)
{
	cJSON *ev = room_event(r, e);

	cJSON_AddStringToObject(ev, "name", p->name);
	if (seat >= 0)
		cJSON_AddStringToObject(ev, "seat", r->g->seat_names[seat]);
	else
		cJSON_AddNullToObject(ev, "seat");
	cJSON_AddStringToObject(ev, "role", seat >= 0 ? "player" : "watcher");
	room_broadcast(r, ev);
}

/* Make the player a watcher of the room (a joined event tells the room,
 * or a watchers event counts it: room_watcher_news); what watch and a
 * create with bots in every seat share. Guests may take a share of the
 * room's watcher slots, no more. 0, or -1 after replying limit_reached. */
static int
cmd_add_watcher(struct conn *c, const struct proto_request *req, struct room *r)
{
	int guests_max = c->srv->cfg.max_watchers / SERVER_GUEST_WATCHERS_SHARE;

	if (room_is_watcher(r, c->player))
		return 0;
	if (r->nwatchers >= c->srv->cfg.max_watchers) {
		conn_error(c, req, PROTO_E_LIMIT_REACHED,
		    "%s has %d watchers already", r->id, r->nwatchers);
		return -1;
	}
	if (c->guest && room_guests(r) >= guests_max) {
		conn_error(c, req, PROTO_E_LIMIT_REACHED,
		    "%s has %d guests watching, the most guests may be (the "
		    "other watcher slots are kept for players): say hello "
		    "NAME to watch",
		    r->id, guests_max);
		return -1;
	}
	room_add_watcher(r, c->player);
	if (room_watcher_news(r)) {
		room_commit(r, 1, 0);
		cmd_member_event(r, PROTO_EV_JOINED, c->player, -1);
	}
	return 0;
}

/* May the player take one more unfinished room? 0, or -1 after replying
 * limit_reached. */
static int
cmd_room_limit(struct conn *c, const struct proto_request *req)
{
	const struct cluster_ops *cl = c->srv->cluster_ops;
	int n = room_count_for(c->player);

	if (cl != NULL)
		n += cl->rooms_elsewhere(c->srv, c->player);
	if (n < c->srv->cfg.max_rooms_per_player)
		return 0;
	conn_error(c, req, PROTO_E_LIMIT_REACHED,
	    "you are in %d unfinished rooms already",
	    c->srv->cfg.max_rooms_per_player);
	return -1;
}

/* A fresh private room id: 'p' and CMD_PRIVATE_ID_CHARS random letters
 * of lowercase base32 (a-z, 2-7), unlike every room in memory. */
static void
cmd_private_id(struct server *srv, char *id, size_t len)
{
	static const char b32[] = "abcdefghijklmnopqrstuvwxyz234567";
	unsigned char b[CMD_PRIVATE_ID_CHARS];
	int i;

	_Static_assert(CMD_PRIVATE_ID_CHARS + 2 <= SERVER_ROOM_ID_MAX,
	    "a private id fits a room id");
	do {
		randombytes_buf(b, sizeof b);
		id[0] = 'p';
		for (i = 0; i < CMD_PRIVATE_ID_CHARS && (size_t)i + 2 < len;
		     i++)
			id[i + 1] = b32[b[i] & 31];
		id[i + 1] = '\0';
	} while (room_find(srv, id) != NULL);
}

/* Reply {room, seat, state}; started: the game started with this request,
 * so its started event (with the board) follows the reply. */
static void
cmd_reply_room(struct conn *c, const struct proto_request *req, struct room *r,
    int seat, long resumed_level, int started)
{
	cJSON *rep = proto_reply(req), *st = room_state(r);

	cJSON_AddStringToObject(rep, "room", r->id);
	if (seat >= 0)
		cJSON_AddStringToObject(rep, "seat", r->g->seat_names[seat]);
	else
		cJSON_AddNullToObject(rep, "seat");
	if (resumed_level > 0)
		cJSON_AddNumberToObject(
		    rep, "resumed_level", (double)resumed_level);
	/* Text mode then leaves the board to the started event. */
	if (started)
		cJSON_AddBoolToObject(st, "_started", 1);
	chat_add(r, st, c->player);
	cJSON_AddItemToObject(rep, "state", st);
	conn_reply(c, rep);
}

/* The creator's seat: the one asked for, else the first without a bot
 * (-1 when bots take every seat). 0, or -1 after replying the error. */
static int
cmd_creator_seat(
    struct conn *c, const struct proto_request *req, struct room *r, int *seat)
{
	int s;

	*seat = -1;
	if (req->seat != NULL) {
		*seat = room_seat_index(r->g, req->seat);
		if (*seat < 0) {
			cmd_bad_seat(c, req, r->g, req->seat);
			return -1;
		}
	}
	if (cmd_create_bots(c, req, r, *seat) != 0)
		return -1;
	for (s = 0; *seat < 0 && s < r->g->seats; s++)
		if (r->seats[s].bot == 0)
			*seat = s;
	return 0;
}

/* A guest (no name) may play one casual game at a time against a bot:
 * enough to try the server; a name is for more (and for ratings). */
#define CMD_GUEST_GAMES_MAX 1

/* What a guest may create: a two-player game against a bot, one at a
 * time. 0, or -1 after replying not_logged_in or limit_reached. */
static int
cmd_guest_create(
    struct conn *c, const struct proto_request *req, const struct rules_game *g)
{
	if (!c->guest)
		return 0;
	if (g->seats != 2 || req->nbots != 1) {
		conn_error(c, req, PROTO_E_NOT_LOGGED_IN,
		    "without a name you may play a casual game against a "
		    "bot (create %s bot=LEVEL); for anything else: hello "
		    "YOURNAME",
		    g->seats == 2 ? g->name : "ataxx");
		return -1;
	}
	if (room_count_for(c->player) >= CMD_GUEST_GAMES_MAX) {
		conn_error(c, req, PROTO_E_LIMIT_REACHED,
		    "without a name you play %d game at a time: finish or "
		    "leave it (or hello YOURNAME)",
		    CMD_GUEST_GAMES_MAX);
		return -1;
	}
	return 0;
}

/* A guest's games end as they go (a connection closed, or a hello):
 * nobody can come back as a guest, so each running game is resigned
 * (and stored so) rather than held for a return. */
void
cmd_guest_resign_all(struct conn *c)
{
	struct room **held, *r;
	int i, n, seat;

	if (!c->guest || c->player == NULL)
		return;
	held = room_sorted(c->player, &n);
	for (i = 0; i < n; i++) {
		r = held[i];
		seat = room_seat_of(r, c->player);
		if (seat < 0 ||
		    (r->status != ROOM_PLAYING && r->status != ROOM_ADJOURNED))
			continue;
		room_end_prepare(r, "win", 1 - seat, "resignation");
		room_commit(r, 1, 0);
		room_end_announce(r);
		r->seats[seat].gone = 1; /* left: the room may retire */
	}
	free(held);
}

void
cmd_create(struct conn *c, const struct proto_request *req)
{
	const struct rules_game *g = rules_find(req->game);
	char err[RULES_ERR_MAX];
	struct room *r;
	cJSON *options;
	long resumed;
	int seat, full;

	if (g == NULL) {
		conn_error(c, req, PROTO_E_NO_SUCH_GAME,
		    "no game '%s' (games lists them)", req->game);
		return;
	}
	if (cmd_guest_create(c, req, g) != 0 || cmd_room_limit(c, req) != 0 ||
	    limit_games_check(c, c->player->name, req) != 0)
		return;
	if (req->has_clock && g->seats < 2) {
		conn_error(c, req, PROTO_E_BAD_OPTIONS,
		    "%s is a one-player game: no clock", g->name);
		return;
	}
	options = cmd_create_options(c, req, g, &resumed);
	if (c->guest) { /* a guest's game is casual: no rating for "~N" */
		cJSON_DeleteItemFromObject(options, RATING_OPT);
		cJSON_AddStringToObject(options, RATING_OPT, "no");
	}
	if (rating_option_check(g, options, err, sizeof err) != 0) {
		cJSON_Delete(options);
		conn_error(c, req, PROTO_E_BAD_OPTIONS, "%s", err);
		return;
	}
	r = room_new(c->srv, g, options, 1, err, sizeof err);
	if (r == NULL) {
		conn_error(c, req, PROTO_E_BAD_OPTIONS, "%s", err);
		return;
	}
	if (cmd_creator_seat(c, req, r, &seat) != 0) {
		room_free(r);
		return;
	}
	r->is_private = req->has_private && req->is_private;
	/* A private room takes no number: its id is random, and public
	 * ids show no gap where one was made. */
	if (r->is_private) {
		cmd_private_id(c->srv, r->id, sizeof r->id);
	} else {
		if (store_room_number(c->srv->reader, &r->number) != 0) {
			log_error("store: %s", store_errmsg(c->srv->reader));
			room_free(r);
			conn_error(c, req, PROTO_E_INTERNAL,
			    "no room number could be had; nothing was made");
			return;
		}
		snprintf(r->id, sizeof r->id, "r%ld", r->number);
	}
	snprintf(r->creator, sizeof r->creator, "%s", c->player->name);
	if (req->has_clock) {
		r->clock_initial_ms = (int64_t)req->clock_initial * 1000;
		r->clock_inc_ms = (int64_t)req->clock_increment * 1000;
		r->clock_ms[0] = r->clock_ms[1] = r->clock_initial_ms;
	}
	if (seat >= 0)
		r->seats[seat].player = c->player;
	full = cmd_room_full(r);
	if (full)
		room_start_prepare(r);
	room_commit(r, 1 + (full ? room_start_nevents(r) : 0), 0);
	room_add(r);
	c->current = r;
	log_info("%s created room %s (%s)", c->player->name, r->id, g->name);
	if (seat < 0) /* bots in every seat: the creator watches */
		room_add_watcher(r, c->player);
	cmd_member_event(r, PROTO_EV_JOINED, c->player, seat);
	if (full)
		room_start_announce(r);
	cmd_reply_room(c, req, r, seat, resumed, full);
}

/* A seat in r taken against someone there who blocks c's player is
 * refused (a challenge they would not hear of otherwise): -1 after
 * replying, else 0. A tournament's pairing is not a challenge: its
 * seats are not asked here. */
static int
cmd_join_blocked(
    struct conn *c, const struct proto_request *req, const struct room *r)
{
	const struct player *p;
	int i;

	for (i = 0; i < r->g->seats; i++) {
		p = r->seats[i].player;
		if (p != NULL && p != c->player &&
		    block_refuses(c->srv, p->name, c->player->name)) {
			conn_error(c, req, PROTO_E_NOT_ALLOWED,
			    "%s blocks you: you cannot take a seat against "
			    "them",
			    p->name);
			return -1;
		}
	}
	return 0;
}

void
cmd_join(struct conn *c, const struct proto_request *req)
{
	struct room *r = cmd_room_arg(c, req);
	int seat, s, start, paired;

	if (r == NULL)
		return;
	seat = room_seat_of(r, c->player);
	if (seat >= 0) {
		room_player_back(r, c->player);
		c->current = r;
		cmd_reply_room(c, req, r, seat, 0, 0);
		return;
	}
	if (r->status == ROOM_ENDED) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "the game in %s is over (watch it instead)", r->id);
		return;
	}
	if (tourney_seat(r, c->player, &seat) != 0) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "%s is a tournament game of two other players (watch it "
		    "instead)",
		    r->id);
		return;
	}
	paired = seat >= 0;
	if (seat < 0 && req->seat != NULL) {
		seat = room_seat_index(r->g, req->seat);
		if (seat < 0) {
			cmd_bad_seat(c, req, r->g, req->seat);
			return;
		}
		if (r->seats[seat].player != NULL || r->seats[seat].bot > 0) {
			conn_error(c, req, PROTO_E_ROOM_FULL,
			    "seat '%s' is taken", r->g->seat_names[seat]);
			return;
		}
	}
	for (s = 0; seat < 0 && s < r->g->seats; s++)
		if (r->seats[s].player == NULL && r->seats[s].bot == 0)
			seat = s;
	if (seat < 0) {
		conn_error(c, req, PROTO_E_ROOM_FULL,
		    "every seat in %s is taken (watch it instead)", r->id);
		return;
	}
	if ((!paired && cmd_join_blocked(c, req, r) != 0) ||
	    cmd_room_limit(c, req) != 0)
		return;
	room_remove_watcher(r, c->player);
	r->seats[seat].player = c->player;
	r->seats[seat].gone = 0;
	start = r->status == ROOM_WAITING && cmd_room_full(r);
	if (start)
		room_start_prepare(r);
	room_commit(r, 1 + (start ? room_start_nevents(r) : 0), 0);
	room_sync_member(r, c->player);
	c->current = r;
	cmd_member_event(r, PROTO_EV_JOINED, c->player, seat);
	if (start)
		room_start_announce(r);
	cmd_reply_room(c, req, r, seat, 0, start);
}

void
cmd_watch(struct conn *c, const struct proto_request *req)
{
	struct room *r = cmd_room_arg(c, req);
	cJSON *rep, *st;

	if (r == NULL)
		return;
	if (room_seat_of(r, c->player) >= 0) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "you play in %s; join it instead", r->id);
		return;
	}
	if (cmd_add_watcher(c, req, r) != 0)
		return;
	c->current = r;
	rep = proto_reply(req);
	cJSON_AddStringToObject(rep, "room", r->id);
	st = room_state(r);
	chat_add(r, st, c->player);
	cJSON_AddItemToObject(rep, "state", st);
	conn_reply(c, rep);
}

/* Close a room nobody plays in any more, and forget it. */
static void
cmd_room_close(struct room *r)
{
	log_info("room %s closed", r->id);
	room_forget(r);
}

/* Hand the store what leave changed: the room deleted when it closes,
 * else its row with the nevents events to come. */
static void
cmd_leave_commit(struct room *r, int closing, int nevents)
{
	if (closing)
		storeq_room_delete(r->srv->storeq, r->id);
	else
		room_commit(r, nevents, 0);
}

void
cmd_leave(struct conn *c, const struct proto_request *req)
{
	struct room *r = cmd_room_arg(c, req);
	int seat, s, people = 0, ended = 0, closing, told = 1;

	if (r == NULL)
		return;
	seat = room_seat_of(r, c->player);
	if (seat < 0 && !room_is_watcher(r, c->player)) {
		conn_error(
		    c, req, PROTO_E_NOT_IN_ROOM, "you are not in %s", r->id);
		return;
	}
	if (seat < 0) {
		/* its own left event, or counted (room_watcher_news) */
		told = room_watcher_news(r);
		room_remove_watcher(r, c->player);
	} else if (r->status == ROOM_PLAYING || r->status == ROOM_ADJOURNED) {
		ended = 1;
		if (r->g->seats == 1) {
			room_end_prepare(r, "blocked", -1, "resignation");
			/* the player is gone from the room: restart and
			 * rematch would be refused (the result was just
			 * made by room_end_prepare: nothing else holds it) */
			cJSON_DeleteItemFromObjectCaseSensitive(
			    r->result, "message");
			cJSON_DeleteItemFromObjectCaseSensitive(
			    r->result, "msg");
			cJSON_DeleteItemFromObjectCaseSensitive(
			    r->result, "args");
			proto_sentence(r->result, "message",
			    "You left the game. Type create %s to start "
			    "another.",
			    r->g->name);
		} else
			room_end_prepare(r, "win", 1 - seat, "resignation");
	} else if (r->status == ROOM_WAITING) {
		r->seats[seat].player = NULL;
	}
	for (s = 0; s < r->g->seats; s++)
		if (r->seats[s].player != NULL)
			people++;
	closing = r->status == ROOM_WAITING && people == 0 && !tourney_keeps(r);
	if (closing || told || ended)
		cmd_leave_commit(r, closing, told + ended);
	room_sync_member(r, c->player);
	conn_reply(c, proto_reply(req));
	if (c->current == r) {
		int n;

		/* Another room the player sits in stays current. */
		c->current = cmd_seated_room(c, r, &n);
	}
	if (ended)
		room_end_announce(r);
	if (seat >= 0 && r->status == ROOM_ENDED)
		r->seats[seat].gone = 1; /* left: the room may retire */
	if (told)
		cmd_member_event(r, PROTO_EV_LEFT, c->player, seat);
	if (closing)
		cmd_room_close(r);
	else if (r->status != ROOM_WAITING)
		room_check_retire(r);
}

void
cmd_state(struct conn *c, const struct proto_request *req)
{
	struct room *r;
	cJSON *rep, *st;
	char err[128];

	if (req->room != NULL && room_find(c->srv, req->room) == NULL) {
		cmd_archive_show(c, req);
		return;
	}
	if ((r = cmd_room_arg(c, req)) == NULL)
		return;
	st = room_state_since(r,
	    !req->has_since            ? 0
	        : req->since < INT_MAX ? (int)req->since
	                               : INT_MAX);
	if (req->has_at && replay_at(r, req->at, st, err, sizeof err) != 0) {
		cJSON_Delete(st);
		conn_error(c, req, PROTO_E_BAD_REQUEST, "%s", err);
		return;
	}
	chat_add(r, st, c->player);
	rep = proto_reply(req);
	cJSON_AddItemToObject(rep, "state", st);
	conn_reply(c, rep);
}

/* Why a moves list is empty, in words, as the reply's reason: the game
 * is not under way, or the side to move has no move (from that square). */
static void
cmd_moves_why(const struct room *r, const char *from, cJSON *rep)
{
	struct rules_move one[1];
	const char *seat = r->g->seat_names[r->g->turn(r->st)];

	if (r->status == ROOM_ENDED)
		proto_sentence(rep, "reason", "the game is over");
	else if (r->status == ROOM_WAITING)
		proto_sentence(rep, "reason",
		    "the game has not started: waiting for a player");
	else if (from != NULL && r->g->legal_moves(r->st, one, 1) > 0)
		proto_sentence(rep, "reason",
		    "it is %s's turn, and no move of %s starts from %s (not "
		    "a %s piece, or it cannot move)",
		    seat, seat, from, seat);
	else
		proto_sentence(
		    rep, "reason", "%s, to move, has no legal move", seat);
}

void
cmd_moves(struct conn *c, const struct proto_request *req)
{
	struct room *r = cmd_room_arg(c, req);
	struct rules_move *moves;
	char err[RULES_ERR_MAX], buf[SERVER_MOVE_TEXT_MAX];
	cJSON *rep, *list;
	int n = 0, i, sq = 0;

	if (r == NULL)
		return;
	if (req->from != NULL &&
	    r->g->parse_square(r->st, req->from, &sq, err, sizeof err) != 0) {
		conn_error(c, req, PROTO_E_BAD_REQUEST, "from: %s", err);
		return;
	}
	moves = xmalloc(RULES_MAX_MOVES * sizeof *moves);
	if (r->status == ROOM_PLAYING || r->status == ROOM_ADJOURNED)
		n = req->from != NULL
		    ? r->g->legal_from(r->st, sq, moves, RULES_MAX_MOVES)
		    : r->g->legal_moves(r->st, moves, RULES_MAX_MOVES);
	rep = proto_reply(req);
	cJSON_AddStringToObject(rep, "room", r->id);
	list = cJSON_AddArrayToObject(rep, "moves");
	for (i = 0; i < n; i++) {
		r->g->format_move(r->st, moves[i], buf, sizeof buf);
		cJSON_AddItemToArray(list, cJSON_CreateString(buf));
	}
	free(moves);
	if (n == 0)
		cmd_moves_why(r, req->from, rep);
	conn_reply(c, rep);
}

/* Is the chat text within SERVER_CHAT_MAX? 1, or 0 after replying
 * bad_request (lobby and room chat alike). */
int
cmd_chat_fits(struct conn *c, const struct proto_request *req)
{
	if (strlen(req->text) <= SERVER_CHAT_MAX)
		return 1;
	conn_error(c, req, PROTO_E_BAD_REQUEST,
	    "chat text is longer than %d bytes", SERVER_CHAT_MAX);
	return 0;
}

/* Does a member of r (a seat or a watcher) block from? */
static int
cmd_say_blocked(const struct room *r, const char *from)
{
	int i;

	for (i = 0; i < r->g->seats; i++)
		if (r->seats[i].player != NULL &&
		    r->seats[i].player->conn != NULL &&
		    block_has(r->seats[i].player, from))
			return 1;
	for (i = 0; i < r->nwatchers; i++)
		if (r->watchers[i]->conn != NULL &&
		    block_has(r->watchers[i], from))
			return 1;
	return 0;
}

/* Send one member p of r the chat event ev, or, when p blocks its
 * sender, hidden: the same seq without the text (JSON; text mode, which
 * shows no seq, gets nothing), so the room's events count on without a
 * gap that would send a client back for the state. */
static void
cmd_say_one(struct player *p, const cJSON *ev, const cJSON *hidden,
    const char *from, struct net_cache caches[2])
{
	int blocked = block_has(p, from);

	if (p->conn == NULL || (blocked && p->conn->mode == CONN_MODE_TEXT))
		return;
	net_send_cached(p->conn, blocked ? hidden : ev, &caches[blocked]);
}

/* room_broadcast of a chat event ev (freed) that some member blocks. */
static void
cmd_say_apart(struct room *r, cJSON *ev, const char *from)
{
	struct net_cache caches[2] = {{NULL, NULL, NULL}, {NULL, NULL, NULL}};
	cJSON *hidden = cJSON_Duplicate(ev, 1);
	int i;

	if (hidden == NULL)
		fatal("out of memory");
	cJSON_DeleteItemFromObjectCaseSensitive(hidden, "from");
	cJSON_DeleteItemFromObjectCaseSensitive(hidden, "text");
	cJSON_AddBoolToObject(hidden, "hidden", 1);
	for (i = 0; i < r->g->seats; i++)
		if (r->seats[i].player != NULL)
			cmd_say_one(
			    r->seats[i].player, ev, hidden, from, caches);
	for (i = 0; i < r->nwatchers; i++)
		cmd_say_one(r->watchers[i], ev, hidden, from, caches);
	net_cache_clear(&caches[0]);
	net_cache_clear(&caches[1]);
	cJSON_Delete(hidden);
	cJSON_Delete(ev);
	if (r->seq_dirty) { /* as room_broadcast does */
		r->seq_dirty = 0;
		room_save(r);
	}
}

/* Chat in a room, for its players and watchers (those who block the
 * sender get only its seq). */
void
cmd_say(struct conn *c, const struct proto_request *req)
{
	struct room *r;
	cJSON *ev;

	if (sanction_muted(c, req) || (r = cmd_room_member(c, req)) == NULL)
		return;
	if (!cmd_chat_fits(c, req))
		return;
	room_commit(r, 1, 0);
	conn_reply(c, proto_reply(req));
	ev = room_event(r, PROTO_EV_CHAT);
	cJSON_AddStringToObject(ev, "from", c->player->name);
	cJSON_AddStringToObject(ev, "text", req->text);
	chat_keep(r, c->player->name, req->text, r->seq);
	if (cmd_say_blocked(r, c->player->name))
		cmd_say_apart(r, ev, c->player->name);
	else
		room_broadcast(r, ev);
}

/* The position in the seed's file format, or the position string, and
 * the game record; a finished room no longer in memory from the store. */
void
cmd_export(struct conn *c, const struct proto_request *req)
{
	struct room *r;

	if (req->room != NULL && room_find(c->srv, req->room) == NULL) {
		cmd_archive_show(c, req);
		return;
	}
	if ((r = cmd_room_arg(c, req)) != NULL)
		cmd_export_room(c, req, r, NULL);
}

/* export's reply for r: text (the file format or the position string),
 * position, and record (archive_record, with these seats or r's own). */
void
cmd_export_room(struct conn *c, const struct proto_request *req,
    const struct room *r, const cJSON *seats)
{
	char *buf, *record;
	cJSON *rep;
	int n;

	buf = xmalloc(RULES_TEXT_MAX);
	if (r->g->export_file != NULL)
		n = r->g->export_file(r->st, buf, RULES_TEXT_MAX);
	else
		n = r->g->to_position(r->st, buf, RULES_TEXT_MAX);
	if (n < 0) {
		free(buf);
		conn_error(c, req, PROTO_E_INTERNAL,
		    "the position does not fit the export buffer");
		return;
	}
	rep = proto_reply(req);
	cJSON_AddStringToObject(rep, "room", r->id);
	cJSON_AddStringToObject(rep, "format",
	    r->g->export_file != NULL ? r->g->file_format : "position");
	cJSON_AddStringToObject(rep, "text", buf);
	if (r->g->to_position(r->st, buf, RULES_TEXT_MAX) >= 0)
		cJSON_AddStringToObject(rep, "position", buf);
	free(buf);
	record = archive_record(r, seats);
	cJSON_AddStringToObject(rep, "record", record);
	free(record);
	conn_reply(c, rep);
}
