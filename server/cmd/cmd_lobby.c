/*
 * cmd_lobby.c: the verbs that look at the server as a whole: games (what
 * can be played, from the rules registry), rooms (what is going on), help,
 * who (the players online) and lobby chat.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "server/cmd/cmd.h"
#include "server/club/club.h"
#include "server/net/limit.h"

static const char *const cmd_lobby_opt_types[] = {"int", "choice", "text"};

/* An option's description as the games verb lists it. */
static cJSON *
cmd_lobby_option(const struct rules_optdesc *d)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "name", d->name);
	cJSON_AddStringToObject(o, "type", cmd_lobby_opt_types[d->type]);
	if (d->type == RULES_OPT_INT) {
		cJSON_AddNumberToObject(o, "min", (double)d->min);
		cJSON_AddNumberToObject(o, "max", (double)d->max);
	} else if (d->type == RULES_OPT_TEXT) {
		cJSON_AddNumberToObject(o, "max", (double)d->max);
	} else {
		cJSON *ch = cJSON_AddArrayToObject(o, "choices");
		const char *p = d->choices;

		while (p != NULL && *p != '\0') {
			const char *bar = strchr(p, '|');
			size_t n = bar != NULL ? (size_t)(bar - p) : strlen(p);
			char word[64];

			if (n >= sizeof word)
				n = sizeof word - 1;
			memcpy(word, p, n);
			word[n] = '\0';
			cJSON_AddItemToArray(ch, cJSON_CreateString(word));
			p = bar != NULL ? bar + 1 : NULL;
		}
	}
	if (d->def != NULL)
		cJSON_AddStringToObject(o, "default", d->def);
	else
		cJSON_AddNullToObject(o, "default");
	cJSON_AddStringToObject(o, "help", d->help != NULL ? d->help : "");
	return o;
}

/* The options the server gives every game that can take them (a board
 * file, a position string), unless the game declares its own. */
static void
cmd_lobby_generic_options(const struct rules_game *g, cJSON *arr)
{
	const struct rules_optdesc file = {RULES_OPT_FILE, RULES_OPT_TEXT, 0,
	    PROTO_OPTION_VALUE_MAX, NULL, NULL,
	    "a board in the game's file format (file_format) to start from"};
	const struct rules_optdesc position = {RULES_OPT_POSITION,
	    RULES_OPT_TEXT, 0, PROTO_OPTION_VALUE_MAX, NULL, NULL,
	    "a position in the game's one-line notation to start from"};

	if (g->import_file != NULL &&
	    rules_optdesc_find(g, RULES_OPT_FILE) == NULL)
		cJSON_AddItemToArray(arr, cmd_lobby_option(&file));
	if (g->from_position != NULL &&
	    rules_optdesc_find(g, RULES_OPT_POSITION) == NULL)
		cJSON_AddItemToArray(arr, cmd_lobby_option(&position));
}

void
cmd_games(struct conn *c, const struct proto_request *req)
{
	cJSON *rep = proto_reply(req), *list;
	int i, s;

	list = cJSON_AddArrayToObject(rep, "games");
	for (i = 0; rules_games[i] != NULL; i++) {
		const struct rules_game *g = rules_games[i];
		const struct rules_optdesc *d;
		cJSON *one = cJSON_CreateObject(), *arr;

		cJSON_AddStringToObject(one, "name", g->name);
		cJSON_AddStringToObject(one, "title", g->title);
		cJSON_AddNumberToObject(one, "seats", g->seats);
		arr = cJSON_AddArrayToObject(one, "seat_names");
		for (s = 0; s < g->seats; s++)
			cJSON_AddItemToArray(
			    arr, cJSON_CreateString(g->seat_names[s]));
		arr = cJSON_AddArrayToObject(one, "options");
		for (d = g->options; d != NULL && d->name != NULL; d++)
			cJSON_AddItemToArray(arr, cmd_lobby_option(d));
		cmd_lobby_generic_options(g, arr);
		cJSON_AddStringToObject(one, "notation", g->notation);
		/* what `draw offer` would say: a page shows no button that
		 * the server refuses */
		cJSON_AddBoolToObject(
		    one, "draw_offers", g->seats == 2 && !g->no_draw_offers);
		if (g->file_format != NULL)
			cJSON_AddStringToObject(
			    one, "file_format", g->file_format);
		else
			cJSON_AddNullToObject(one, "file_format");
		cJSON_AddItemToArray(list, one);
	}
	conn_reply(c, rep);
}

/* Does the rooms request list this room? */
static int
cmd_rooms_listed(const struct room *r, const struct proto_request *req)
{
	if (r->is_private)
		return 0;
	if (req->game != NULL && strcmp(req->game, r->g->name) != 0)
		return 0;
	if (req->status == NULL) /* finished games: only when asked */
		return r->status != ROOM_ENDED;
	return strcmp(req->status, room_status_name(r->status)) == 0;
}

/* The room number a `from` cursor names ("r12" or "12"); 0 when bad. */
static long
cmd_rooms_cursor(const char *from)
{
	char *end;
	long n;

	if (from[0] == 'r')
		from++;
	n = strtol(from, &end, 10);
	return *from != '\0' && *end == '\0' && n > 0 ? n : 0;
}

/* rooms ended [GAME] [from=CURSOR]: a page of the finished public games
 * from the store, newest first, ARCHIVE_LIST_MAX at most; "next" is the
 * cursor of the page after (`from`). The page is read off the loop. */
static void
cmd_rooms_ended(struct conn *c, const struct proto_request *req)
{
	struct archive_page pg;
	cJSON *rep, *list;

	if (cmd_archive_from(c, req, &pg) != 0 ||
	    cmd_archive_budget(c, req) != 0)
		return;
	rep = proto_reply(req);
	list = cJSON_AddArrayToObject(rep, "rooms");
	pages_read(
	    c, req, NULL, 0, req->game, &pg.from, rep, list, cmd_archive_page);
}

/* The public rooms, newest first, at most rooms_page of them: "more" says
 * whether older ones remain, "next" is the cursor to ask for them with
 * (`from`: rooms older than that one). A page is a few hundred bytes a
 * room, so the reply stays far below the output cap. */
void
cmd_rooms(struct conn *c, const struct proto_request *req)
{
	cJSON *rep, *list;
	struct room *r, *last = NULL;
	long before = LONG_MAX;
	int n = 0, more = 0;

	if (req->game != NULL && rules_find(req->game) == NULL) {
		conn_error(
		    c, req, PROTO_E_NO_SUCH_GAME, "no game '%s'", req->game);
		return;
	}
	if (req->status != NULL && strcmp(req->status, "ended") == 0) {
		cmd_rooms_ended(c, req);
		return;
	}
	if (req->from != NULL && (before = cmd_rooms_cursor(req->from)) == 0) {
		conn_error(c, req, PROTO_E_BAD_REQUEST,
		    "from is the room a page ended with, like r12");
		return;
	}
	rep = proto_reply(req);
	list = cJSON_AddArrayToObject(rep, "rooms");
	TAILQ_FOREACH_REVERSE(r, &c->srv->rooms, room_list, entry)
	{
		if (r->number >= before || !cmd_rooms_listed(r, req))
			continue;
		if (n == c->srv->cfg.rooms_page) {
			more = 1;
			break;
		}
		cJSON_AddItemToArray(list, room_summary(r));
		last = r;
		n++;
	}
	if (c->srv->cluster_ops != NULL)
		c->srv->cluster_ops->lobby_rooms(c->srv, req, list);
	cJSON_AddBoolToObject(rep, "more", more);
	if (more)
		cJSON_AddStringToObject(rep, "next", last->id);
	else
		cJSON_AddNullToObject(rep, "next");
	conn_reply(c, rep);
}

void
cmd_help(struct conn *c, const struct proto_request *req)
{
	cJSON *rep = proto_reply(req), *list;
	int v;

	list = cJSON_AddArrayToObject(rep, "verbs");
	for (v = 0; v < PROTO_VERB_COUNT; v++) {
		cJSON *one = cJSON_CreateObject();

		cJSON_AddStringToObject(one, "verb", proto_verb_name(v));
		cJSON_AddStringToObject(
		    one, "shorthand", proto_verb_shorthand(v));
		cJSON_AddStringToObject(one, "summary", proto_verb_summary(v));
		cJSON_AddItemToArray(list, one);
	}
	conn_reply(c, rep);
}

/* Who is online: at most SERVER_WHO_MAX of them, so the reply stays far
 * below the output cap however many are; "online" counts them all. */
void
cmd_who(struct conn *c, const struct proto_request *req)
{
	cJSON *rep = proto_reply(req), *list, *one, *ids;
	struct room *r, **held;
	struct conn *o;
	int i, n, online = 0, guests = 0;

	list = cJSON_AddArrayToObject(rep, "players");
	TAILQ_FOREACH(o, &c->srv->conns, entry) {
		if (o->player == NULL || o->state != CONN_OPEN)
			continue;
		if (o->guest) {
			guests++;
			continue;
		}
		if (online++ >= SERVER_WHO_MAX)
			continue;
		one = cJSON_CreateObject();
		cJSON_AddStringToObject(one, "name", o->player->name);
		cJSON_AddItemToObject(one, "ratings", rating_who(o->player));
		ids = cJSON_AddArrayToObject(one, "rooms");
		held = room_sorted(o->player, &n);
		for (i = 0; i < n; i++) {
			r = held[i];
			if (!r->is_private && r->status != ROOM_ENDED &&
			    (room_seat_of(r, o->player) >= 0 ||
			        room_is_watcher(r, o->player)))
				cJSON_AddItemToArray(
				    ids, cJSON_CreateString(r->id));
		}
		free(held);
		cJSON_AddItemToArray(list, one);
	}
	if (c->srv->cluster_ops != NULL)
		online += c->srv->cluster_ops->lobby_who(c->srv, list, &guests);
	cJSON_AddNumberToObject(rep, "online", online);
	cJSON_AddNumberToObject(rep, "guests", guests);
	cJSON_AddBoolToObject(rep, "more", online > SERVER_WHO_MAX);
	conn_reply(c, rep);
}

/* Chat to everybody logged in. */
void
cmd_chat(struct conn *c, const struct proto_request *req)
{
	struct net_cache cache = {NULL, NULL, NULL};
	struct conn *o;
	cJSON *ev;

	if (req->room != NULL) {
		cmd_say(c, req);
		return;
	}
	if (sanction_muted(c, req) || !cmd_chat_fits(c, req))
		return;
	conn_reply(c, proto_reply(req));
	ev = proto_event(PROTO_EV_CHAT, NULL, 0);
	cJSON_AddStringToObject(ev, "from", c->player->name);
	cJSON_AddStringToObject(ev, "text", req->text);
	/* Lobby chat has no seq: whoever blocks the sender gets nothing. */
	TAILQ_FOREACH(o, &c->srv->conns, entry)
		if (o->player != NULL && o->state == CONN_OPEN &&
		    !block_has(o->player, c->player->name))
			net_send_cached(o, ev, &cache);
	net_cache_clear(&cache);
	cJSON_Delete(ev);
}
