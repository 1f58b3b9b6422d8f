/*
 * mine.c: the two-player games where the player holds a seat besides the
 * room on the screen, so that a move waiting for them is never lost: the
 * client keeps each such room (from the hello reply, from the states of
 * rooms it sat in, from their events), says "Your move in r4 (Amazons,
 * against ana)" with the way back when a move there makes it their turn,
 * goes back by itself when the player is in the lobby, shows the rooms
 * waiting for them in the prompt, and lists them with `mine`.
 */
#include <stdlib.h>
#include <string.h>

#include "client-cli/client.h"

/* The string member key of o, or NULL. */
static const char *
mine_str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Our entry for room id, or NULL. */
static struct client_mine *
mine_find(struct client *c, const char *id)
{
	int i;

	for (i = 0; i < c->nmine; i++)
		if (strcmp(c->mine[i].room, id) == 0)
			return &c->mine[i];
	return NULL;
}

/* 1 when we hold a seat in room id, as far as the client knows. */
int
mine_has(struct client *c, const char *id)
{
	return mine_find(c, id) != NULL;
}

/* Forget room id. */
void
mine_drop(struct client *c, const char *id)
{
	struct client_mine *m = mine_find(c, id);

	if (m == NULL)
		return;
	*m = c->mine[--c->nmine];
}

/* Keep (or update) the room id with our seat and the opponent's name
 * from a seats array; its entry, or NULL when we have no seat there or
 * the table is full. */
static struct client_mine *
mine_keep(
    struct client *c, const char *id, const char *game, const cJSON *seats)
{
	struct client_mine *m = mine_find(c, id);
	const cJSON *s;
	char seat[CLIENT_FIELD] = "", against[CLIENT_FIELD] = "";
	const struct rules_game *rg;

	cJSON_ArrayForEach(s, seats) {
		const char *name = mine_str(s, "name");
		const char *sn = mine_str(s, "seat");
		if (name == NULL || sn == NULL)
			continue;
		if (strcmp(name, c->opts.name) == 0)
			snprintf(seat, sizeof seat, "%s", sn);
		else
			snprintf(against, sizeof against, "%s", name);
	}
	rg = game != NULL ? rules_find(game) : NULL;
	if (seat[0] == '\0' || (rg != NULL && rg->seats < 2)) {
		/* a puzzle waits for nobody: no reminders */
		mine_drop(c, id);
		return NULL;
	}
	if (m == NULL && c->nmine < CLIENT_MINE_MAX) {
		m = &c->mine[c->nmine++];
		memset(m, 0, sizeof *m);
	}
	if (m == NULL)
		return NULL;
	snprintf(m->room, sizeof m->room, "%s", id);
	snprintf(m->seat, sizeof m->seat, "%s", seat);
	snprintf(m->against, sizeof m->against, "%s", against);
	if (game != NULL)
		snprintf(m->game, sizeof m->game, "%s", game);
	return m;
}

/* The room summaries of a hello reply: where we sit, and whose turn. */
void
mine_from_hello(struct client *c, const cJSON *rooms)
{
	const cJSON *r;

	c->nmine = 0;
	cJSON_ArrayForEach(r, rooms) {
		const char *id = mine_str(r, "room");
		const char *turn = mine_str(r, "turn");
		struct client_mine *m;
		if (id == NULL)
			continue;
		m = mine_keep(c, id, mine_str(r, "game"),
		    cJSON_GetObjectItemCaseSensitive(r, "seats"));
		if (m != NULL)
			m->my_turn = turn != NULL && strcmp(turn, m->seat) == 0;
	}
}

/* A room's state (create, join, watch, state): kept when we sit there. */
void
mine_from_state(struct client *c, const cJSON *st)
{
	const char *id = mine_str(st, "room");
	const char *status = mine_str(st, "status");
	const char *turn = mine_str(st, "turn");
	struct client_mine *m;

	if (id == NULL)
		return;
	if (status != NULL && strcmp(status, "ended") == 0) {
		mine_drop(c, id);
		return;
	}
	m = mine_keep(c, id, mine_str(st, "game"),
	    cJSON_GetObjectItemCaseSensitive(st, "seats"));
	if (m != NULL)
		m->my_turn = turn != NULL && strcmp(turn, m->seat) == 0;
}

/* The title of a game by its wire name. */
static const char *
mine_title(const char *game)
{
	const struct rules_game *rg = rules_find(game);

	return rg != NULL ? rg->title : game;
}

/* An event of a room where we may sit: the table kept up to date; for
 * a room not on the screen (quiet 0), 1 when it made it our move there
 * (said; the caller joins it again when we are in the lobby). */
int
mine_event(
    struct client *c, const cJSON *ev, enum proto_event_kind ev_kind, int quiet)
{
	const char *id = mine_str(ev, "room");
	const char *turn = mine_str(ev, "turn");
	struct client_mine *m = id != NULL ? mine_find(c, id) : NULL;
	int was;

	if (m == NULL)
		return 0;
	if (ev_kind == PROTO_EV_ENDED) {
		mine_drop(c, id);
		return 0;
	}
	if (ev_kind == PROTO_EV_LEFT) {
		const char *who = mine_str(ev, "name");
		if (who != NULL && strcmp(who, c->opts.name) == 0)
			mine_drop(c, id);
		return 0;
	}
	if (ev_kind == PROTO_EV_STARTED)
		mine_keep(
		    c, id, NULL, cJSON_GetObjectItemCaseSensitive(ev, "seats"));
	if (turn == NULL || (m = mine_find(c, id)) == NULL)
		return 0;
	was = m->my_turn;
	m->my_turn = strcmp(turn, m->seat) == 0;
	if (!m->my_turn || was || quiet)
		return 0;
	if (!c->room.active) {
		view_print(c, "Your move in %s (%s%s%s): back to it.\n",
		    m->room, mine_title(m->game),
		    m->against[0] ? ", against " : "", m->against);
		return 1;
	}
	view_print(c, "Your move in %s (%s%s%s): type join %s to go back.\n",
	    m->room, mine_title(m->game), m->against[0] ? ", against " : "",
	    m->against, m->room);
	return 0;
}

/* The rooms waiting for our move other than the one on the screen, as
 * " r4 r7" for the prompt ("" when none). */
void
mine_waiting(const struct client *c, char *buf, size_t len)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < c->nmine; i++) {
		const struct client_mine *m = &c->mine[i];
		int n;
		if (!m->my_turn ||
		    (c->room.active && strcmp(m->room, c->room.id) == 0))
			continue;
		n = snprintf(buf + used, len - used, " %s", m->room);
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
}

/* `mine`: the games we sit in, and where it is our move. */
void
mine_list(struct client *c)
{
	int i;

	if (c->nmine == 0) {
		view_print(c, "You hold no seat in a game that is on.\n");
		return;
	}
	view_print(c, "Your games:\n");
	for (i = 0; i < c->nmine; i++) {
		const struct client_mine *m = &c->mine[i];
		char way[CLIENT_FIELD + 32] = "";
		if (m->my_turn)
			snprintf(
			    way, sizeof way, ": your move (join %s)", m->room);
		view_print(c, "  %s  %s, %s%s%s%s\n", m->room,
		    mine_title(m->game), m->seat,
		    m->against[0] ? " against " : "", m->against, way);
	}
}
