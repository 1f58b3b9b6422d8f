/*
 * room.c: the room the client plays or watches, kept up to date from the
 * server's states and events: seats, whose turn, status, clocks, and the
 * position rebuilt with rules/ (init from the room's options, then the
 * position string), so that boards are drawn and moves checked locally.
 */
#include <stdlib.h>
#include <string.h>

#include "client-cli/client.h"

/* Forget the room: back to the lobby. */
void
room_clear(struct client_room *r)
{
	cJSON_Delete(r->options);
	memset(r, 0, sizeof *r);
	r->myseat = -1;
	r->turn = -1;
	r->status = PROTO_ROOM_STATUS_COUNT;
}

/* Copy a string member of o into buf ("" when absent or not a string). */
static void
room_copy(char *buf, size_t len, const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	snprintf(buf, len, "%s", cJSON_IsString(v) ? v->valuestring : "");
}

/* The seat number of a seat name, or -1. */
static int
room_seat_no(const struct client_room *r, const char *seat)
{
	int i;

	if (r->rg == NULL || seat == NULL)
		return -1;
	for (i = 0; i < r->rg->seats && i < 2; i++)
		if (strcmp(r->rg->seat_names[i], seat) == 0)
			return i;
	return -1;
}

/* "white (ana)", "player 2 (bot level 3)", or just the seat, written
 * into the caller's buf (two labels can go into one sentence) and
 * returned. */
const char *
room_seat_label(const struct client_room *r, int seat, char *buf, size_t len)
{
	if (r->rg == NULL || seat < 0 || seat >= r->rg->seats || seat > 1)
		snprintf(buf, len, "?");
	else if (r->names[seat][0] != '\0')
		snprintf(buf, len, "%s (%s)", r->rg->seat_names[seat],
		    r->names[seat]);
	else
		snprintf(buf, len, "%s", r->rg->seat_names[seat]);
	return buf;
}

/* Seats and names of r from a seats array; our seat found by our name. */
static void
room_seats(struct client *c, struct client_room *r, const cJSON *seats)
{
	const cJSON *s;

	if (!cJSON_IsArray(seats))
		return;
	r->myseat = -1;
	cJSON_ArrayForEach(s, seats) {
		char seat[CLIENT_FIELD], name[CLIENT_FIELD];
		const cJSON *bot = cJSON_GetObjectItemCaseSensitive(s, "bot");
		int n;

		room_copy(seat, sizeof seat, s, "seat");
		room_copy(name, sizeof name, s, "name");
		n = room_seat_no(r, seat);
		if (n < 0)
			continue;
		r->bots[n] = cJSON_IsNumber(bot);
		if (cJSON_IsNumber(bot))
			snprintf(r->names[n], sizeof r->names[n],
			    "bot level %d", bot->valueint);
		else
			snprintf(r->names[n], sizeof r->names[n], "%s", name);
		if (name[0] != '\0' && strcmp(name, c->opts.name) == 0)
			r->myseat = n;
	}
}

/* Rebuild the rules state from the room's options and a position. */
static void
room_position(struct client_room *r, const char *position)
{
	struct rules_opt opts[PROTO_MAX_OPTIONS];
	char err[RULES_ERR_MAX];
	const cJSON *o;
	int n = 0;

	r->have_state = 0;
	if (r->rg == NULL || position == NULL)
		return;
	cJSON_ArrayForEach(o, r->options) {
		if (n >= PROTO_MAX_OPTIONS || !cJSON_IsString(o) ||
		    strcmp(o->string, "file") == 0 ||
		    strcmp(o->string, "position") == 0)
			continue;
		/* a file option of the game's own is its start: the
		 * position replaces it anyway, so it is not needed */
		opts[n].key = o->string;
		opts[n].value = o->valuestring;
		n++;
	}
	memset(r->st, 0, sizeof r->st);
	if (rules_opts_check(r->rg, opts, n, err, sizeof err) != 0 ||
	    r->rg->init(r->st, opts, n, err, sizeof err) != 0) {
		/* options the client does not know: the defaults still hold
		 * the position's shape for every game */
		memset(r->st, 0, sizeof r->st);
		if (r->rg->init(r->st, NULL, 0, err, sizeof err) != 0)
			return;
	}
	if (r->rg->from_position(r->st, position, err, sizeof err) == 0)
		r->have_state = 1;
}

/* Turn, status, clocks and position of r from a state or an event. */
static void
room_common(struct client_room *r, const cJSON *o)
{
	const cJSON *turn = cJSON_GetObjectItemCaseSensitive(o, "turn");
	const cJSON *pos = cJSON_GetObjectItemCaseSensitive(o, "position");
	const cJSON *clocks = cJSON_GetObjectItemCaseSensitive(o, "clocks");
	const cJSON *seq = cJSON_GetObjectItemCaseSensitive(o, "seq");
	const cJSON *status = cJSON_GetObjectItemCaseSensitive(o, "status");

	if (cJSON_IsString(status))
		r->status = proto_room_status_from_name(
		    status->valuestring, strlen(status->valuestring));
	if (turn != NULL)
		r->turn = cJSON_IsString(turn)
		    ? room_seat_no(r, turn->valuestring)
		    : -1;
	if (cJSON_IsNumber(seq) && seq->valuedouble >= 0 &&
	    seq->valuedouble <= (double)PROTO_INT_MAX)
		r->seq = (long long)seq->valuedouble;
	if (cJSON_IsString(pos))
		room_position(r, pos->valuestring);
	if (cJSON_IsObject(clocks)) {
		int i;
		r->has_clocks = 1;
		for (i = 0; i < 2 && r->rg != NULL && i < r->rg->seats; i++) {
			const cJSON *ms = cJSON_GetObjectItemCaseSensitive(
			    clocks, r->rg->seat_names[i]);
			/* a cast out of range is undefined: a hostile
			 * server's clock is taken only in the protocol's */
			if (cJSON_IsNumber(ms) && ms->valuedouble >= 0 &&
			    ms->valuedouble <= (double)PROTO_INT_MAX)
				r->clocks[i] = (long long)ms->valuedouble;
		}
		r->clocks_at = view_now_ms();
	} else if (clocks != NULL) {
		r->has_clocks = 0;
	}
	r->clocks_running = r->status == PROTO_ROOM_PLAYING && r->turn >= 0 &&
	    !r->clocks_stopped;
}

/* Take a full state into r (the current room, or one only shown: a past
 * position); 0, or -1 when it is not one. */
int
room_take_state(struct client *c, struct client_room *r, const cJSON *st)
{
	const cJSON *game = cJSON_GetObjectItemCaseSensitive(st, "game");
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(st, "room");
	const cJSON *opts = cJSON_GetObjectItemCaseSensitive(st, "options");
	int keep_step;

	if (!cJSON_IsObject(st) || !cJSON_IsString(game) || !cJSON_IsString(id))
		return -1;
	/* the same room goes on; another game (a server that says so) starts
	 * afresh, so no state of one game is ever read as another's */
	keep_step = r->active && strcmp(r->id, id->valuestring) == 0 &&
	    r->rg == rules_find(game->valuestring);
	if (!keep_step)
		room_clear(r);
	r->active = 1;
	snprintf(r->id, sizeof r->id, "%s", id->valuestring);
	r->rg = rules_find(game->valuestring);
	r->cg = games_for(r->rg);
	cJSON_Delete(r->options);
	r->options = cJSON_IsObject(opts) ? cJSON_Duplicate(opts, 1) : NULL;
	room_seats(c, r, cJSON_GetObjectItemCaseSensitive(st, "seats"));
	r->have_last = 0;
	room_common(r, st);
	return 0;
}

/* Take a full state (create, join, watch, state, hello) as the current
 * room; 0, or -1 when it is not one. */
int
room_from_state(struct client *c, const cJSON *st)
{
	return room_take_state(c, &c->room, st);
}

/* The last move, parsed on the position before it, for highlighting. */
static void
room_last_move(struct client_room *r, const cJSON *ev)
{
	const cJSON *mv = cJSON_GetObjectItemCaseSensitive(ev, "move");
	char err[RULES_ERR_MAX];

	r->have_last = 0;
	if (!r->have_state || !cJSON_IsString(mv))
		return;
	memcpy(r->before, r->st, sizeof r->before);
	if (r->rg->parse_move(
	        r->before, mv->valuestring, &r->last, err, sizeof err) == 0)
		r->have_last = 1;
}

/*
 * A lean moved event (hello's "events":"lean": no position, no board, no
 * sentence) is played on the position the room holds, with the game's
 * rules, as the server played it. One the rules cannot take (a missed
 * event: the caller sees have_state 0 and asks for the state) leaves the
 * room without a position rather than with a wrong one.
 */
static void
room_apply_lean(struct client_room *r, const cJSON *ev)
{
	if (cJSON_GetObjectItemCaseSensitive(ev, "position") != NULL ||
	    !r->have_state)
		return;
	if (!r->have_last) {
		r->have_state = 0;
		return;
	}
	r->rg->apply(r->st, r->last);
}

/* The sentence of a move event the server sent without one (the lean
 * form), as the full form's text and name make it: "ana: White clones
 * from b6 to b5." (a bot's and the server's own moves without a name);
 * on the position before the move. Nothing when the move does not parse. */
void
room_move_text(
    const struct client_room *r, const cJSON *ev, char *buf, size_t len)
{
	const cJSON *mv = cJSON_GetObjectItemCaseSensitive(ev, "move");
	const cJSON *seat = cJSON_GetObjectItemCaseSensitive(ev, "seat");
	char err[RULES_ERR_MAX], sentence[RULES_TEXT_MAX];
	struct rules_move m;
	int n;

	buf[0] = '\0';
	if (!r->have_state || r->rg == NULL || !cJSON_IsString(mv) ||
	    r->rg->parse_move(r->st, mv->valuestring, &m, err, sizeof err) != 0)
		return;
	r->rg->describe_move(r->st, m, sentence, sizeof sentence);
	n = cJSON_IsString(seat) ? room_seat_no(r, seat->valuestring) : -1;
	if (n >= 0 && !r->bots[n] && r->names[n][0] != '\0')
		snprintf(buf, len, "%s: %s.", r->names[n], sentence);
	else
		snprintf(buf, len, "%s.", sentence);
}

/* Take an event of the current room (started, moved, ended, undone,
 * restarted, clock, joined, left, opponent_gone/back). */
void
room_from_event(
    struct client *c, const cJSON *ev, enum proto_event_kind ev_kind)
{
	struct client_room *r = &c->room;

	if (ev_kind == PROTO_EV_STARTED) {
		room_seats(c, r, cJSON_GetObjectItemCaseSensitive(ev, "seats"));
		r->status = PROTO_ROOM_PLAYING;
		r->have_last = 0;
		r->step = 0;
		r->ask_again = 0;
	} else if (ev_kind == PROTO_EV_MOVED) {
		room_last_move(r, ev);
		room_apply_lean(r, ev);
		r->step = 0;
	} else if (ev_kind == PROTO_EV_ENDED) {
		r->status = PROTO_ROOM_ENDED;
		r->turn = -1;
	} else if (ev_kind == PROTO_EV_UNDONE ||
	    ev_kind == PROTO_EV_RESTARTED) {
		r->have_last = 0;
		r->step = 0;
	}
	if (ev_kind == PROTO_EV_MOVED || ev_kind == PROTO_EV_STARTED ||
	    ev_kind == PROTO_EV_UNDONE || ev_kind == PROTO_EV_RESTARTED)
		r->replaying = 0; /* the history being replayed is old */
	if (ev_kind == PROTO_EV_CLOCK)
		r->clocks_stopped = cJSON_IsTrue(
		    cJSON_GetObjectItemCaseSensitive(ev, "stopped"));
	room_common(r, ev);
	if (ev_kind == PROTO_EV_ENDED)
		r->clocks_running = 0;
}

/* 1 when we sit in the room, it is playing and it is our turn. */
int
room_my_turn(const struct client_room *r)
{
	return r->active && r->myseat >= 0 && r->turn == r->myseat &&
	    r->status == PROTO_ROOM_PLAYING;
}

/* 1 when we hold a seat in a running game against someone (leaving it
 * costs the game, now or after the grace time). */
int
room_playing_against(const struct client_room *r)
{
	return r->active && r->myseat >= 0 && r->rg != NULL &&
	    r->rg->seats >= 2 && r->status == PROTO_ROOM_PLAYING;
}
