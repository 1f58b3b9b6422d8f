/*
 * tourney.c: tournaments: the tourney verb (create, join, leave, start,
 * list, show), the state machine (open -> playing, round after round ->
 * ended), the rooms made for each round's pairings and the players told
 * where to go (tourney_round), results taken from the rooms' ends
 * (tourney_room_ended, from room_end_prepare), forfeits for players not
 * seated within the grace (tourney_sweep, every second) and recovery at
 * start. Pairings and standings are pairing.c's; rows go through
 * store/tstore.c. Every change is handed to the store before anyone is
 * told of it (the replies and events are held until it commits).
 *
 * The tournaments live in one list for the process (one server each).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/net/limit.h"
#include "server/store/store.h"
#include "server/store/storeq.h"
#include "server/club/tourney.h"

static struct tourney *tourney_list, **tourney_tail = &tourney_list;
static long tourney_max_number;

struct tourney *
tourney_find(const char *id)
{
	struct tourney *t;

	if (id == NULL)
		return NULL;
	for (t = tourney_list; t != NULL; t = t->next)
		if (strcmp(t->id, id) == 0)
			return t;
	return NULL;
}

/* A new tournament with this id at the end of the list (NULL when the id
 * is taken or malformed). */
struct tourney *
tourney_new(struct server *srv, const char *id)
{
	struct tourney *t;
	long n;

	if (tourney_find(id) != NULL || id[0] != 't' ||
	    strlen(id) >= TOURNEY_ID_MAX)
		return NULL;
	n = strtol(id + 1, NULL, 10);
	t = xcalloc(1, sizeof *t);
	t->srv = srv;
	snprintf(t->id, sizeof t->id, "%s", id);
	t->number = n;
	if (n > tourney_max_number)
		tourney_max_number = n;
	*tourney_tail = t;
	tourney_tail = &t->next;
	return t;
}

void
tourney_add_player(struct tourney *t, const char *name, int64_t ms)
{
	if (t->nplayers >= PAIRING_PLAYERS_MAX)
		return;
	snprintf(t->names[t->nplayers], sizeof t->names[0], "%s", name);
	t->joined_ms[t->nplayers++] = ms;
}

/* A new, zeroed game at the end of t's games. */
struct tourney_game *
tourney_add_game(struct tourney *t)
{
	struct tourney_game *g;

	t->games =
	    xgrow(t->games, t->ngames + 1, &t->gamescap, 16, sizeof *t->games);
	g = &t->games[t->ngames++];
	memset(g, 0, sizeof *g);
	g->black = -1;
	return g;
}

int
tourney_player_index(const struct tourney *t, const char *name)
{
	int i;

	for (i = 0; i < t->nplayers; i++)
		if (strcmp(t->names[i], name) == 0)
			return i;
	return -1;
}

/* A result as stored and shown: "" while played, "1-0" (the first seat
 * won), "0-1", "1/2", "0-0" (neither showed), "bye". */
const char *
tourney_res_text(enum pairing_res res, int bye)
{
	if (bye)
		return "bye";
	switch (res) {
	case PAIRING_WHITE:
		return "1-0";
	case PAIRING_BLACK:
		return "0-1";
	case PAIRING_DRAW:
		return "1/2";
	case PAIRING_NEITHER:
		return "0-0";
	case PAIRING_NONE:
		break;
	}
	return "";
}

enum pairing_res
tourney_res_parse(const char *s)
{
	if (strcmp(s, "1-0") == 0 || strcmp(s, "bye") == 0)
		return PAIRING_WHITE;
	if (strcmp(s, "0-1") == 0)
		return PAIRING_BLACK;
	if (strcmp(s, "1/2") == 0)
		return PAIRING_DRAW;
	if (strcmp(s, "0-0") == 0)
		return PAIRING_NEITHER;
	return PAIRING_NONE;
}

static const char *
tourney_status_name(enum tourney_status s)
{
	return s == TOURNEY_OPEN   ? "open"
	    : s == TOURNEY_PLAYING ? "playing"
	    : s == TOURNEY_ENDED   ? "ended"
	                           : "expired";
}

/* 1 when t is over: played to its end, or expired unplayed. */
static int
tourney_over(const struct tourney *t)
{
	return t->status == TOURNEY_ENDED || t->status == TOURNEY_EXPIRED;
}

/* When the open tournament t expires (ms since the epoch). */
static int64_t
tourney_expires_ms(const struct tourney *t)
{
	return t->created_ms + (int64_t)t->srv->cfg.tourney_expire_sec * 1000;
}

/* The live tournament (not ended) whose current round plays in room r,
 * and that game; NULL when none. */
static struct tourney *
tourney_of_room(const char *room, struct tourney_game **gp)
{
	struct tourney *t;
	int i;

	for (t = tourney_list; t != NULL; t = t->next) {
		if (t->status != TOURNEY_PLAYING)
			continue;
		for (i = t->ngames - 1; i >= 0; i--) {
			struct tourney_game *g = &t->games[i];

			if (g->round != t->round)
				break;
			if (g->room[0] != '\0' && strcmp(g->room, room) == 0) {
				*gp = g;
				return t;
			}
		}
	}
	return NULL;
}

/* The pairing.c view of t's games into out (at least ngames long). */
static int
tourney_pairing_games(const struct tourney *t, struct pairing_game *out)
{
	int i;

	for (i = 0; i < t->ngames; i++) {
		out[i].white = t->games[i].white;
		out[i].black = t->games[i].black;
		out[i].res = t->games[i].res;
	}
	return t->ngames;
}

/* The format's tie-break order (pairing.h). */
static enum pairing_tiebreak
tourney_tb(const struct tourney *t)
{
	return t->swiss ? PAIRING_BUCHHOLZ : PAIRING_SONNEBORN_BERGER;
}

/* t's standings into st (nplayers lines, best first). */
static void
tourney_standings(const struct tourney *t, struct pairing_standing *st)
{
	struct pairing_game *pg =
	    xmalloc(sizeof *pg * (size_t)(t->ngames > 0 ? t->ngames : 1));
	int n = tourney_pairing_games(t, pg);

	pairing_standings(t->nplayers, pg, n, tourney_tb(t), st);
	free(pg);
}

/* The names of t's tie-breaks in the order they apply, the seed last. */
static cJSON *
tourney_tiebreaks_json(const struct tourney *t)
{
	const enum pairing_crit *tb = pairing_tiebreaks[tourney_tb(t)];
	cJSON *a = cJSON_CreateArray();
	int i;

	for (i = 0; i < PAIRING_TIEBREAKS_MAX; i++) {
		cJSON_AddItemToArray(
		    a, cJSON_CreateString(pairing_crit_name(tb[i])));
		if (tb[i] == PAIRING_BY_SEED)
			break;
	}
	return a;
}

/* One standing's value of each tie-break, by name (the seed apart). */
static cJSON *
tourney_tb_values(const struct tourney *t, const struct pairing_standing *s)
{
	const enum pairing_crit *tb = pairing_tiebreaks[tourney_tb(t)];
	cJSON *o = cJSON_CreateObject();
	int i;

	for (i = 0; i < PAIRING_TIEBREAKS_MAX && tb[i] != PAIRING_BY_SEED;
	     i++) {
		double v = tb[i] == PAIRING_BY_BUCHHOLZ ? s->bh_quarters / 4.0
		    : tb[i] == PAIRING_BY_SB            ? s->sb_quarters / 4.0
		                                        : s->wins;

		cJSON_AddNumberToObject(o, pairing_crit_name(tb[i]), v);
	}
	return o;
}

/* The standings as JSON (place, name, seed, points, tie-breaks, what
 * puts each above the next, W-D-L, byes). */
static cJSON *
tourney_standings_json(const struct tourney *t)
{
	struct pairing_standing st[PAIRING_PLAYERS_MAX];
	cJSON *a = cJSON_CreateArray();
	int i;

	tourney_standings(t, st);
	for (i = 0; i < t->nplayers; i++) {
		cJSON *o = cJSON_CreateObject();

		cJSON_AddNumberToObject(o, "place", i + 1);
		cJSON_AddStringToObject(o, "name", t->names[st[i].player]);
		cJSON_AddNumberToObject(o, "seed", st[i].player + 1);
		cJSON_AddItemToObject(
		    o, "tiebreaks", tourney_tb_values(t, &st[i]));
		if (st[i].above_next == PAIRING_BY_LAST)
			cJSON_AddNullToObject(o, "above_next_by");
		else
			cJSON_AddStringToObject(o, "above_next_by",
			    pairing_crit_name(st[i].above_next));
		cJSON_AddNumberToObject(o, "points", st[i].halves / 2.0);
		cJSON_AddNumberToObject(o, "points_halves", st[i].halves);
		cJSON_AddNumberToObject(o, "tiebreak", st[i].tb_quarters / 4.0);
		cJSON_AddNumberToObject(
		    o, "tiebreak_quarters", st[i].tb_quarters);
		cJSON_AddNumberToObject(o, "wins", st[i].wins);
		cJSON_AddNumberToObject(o, "draws", st[i].draws);
		cJSON_AddNumberToObject(o, "losses", st[i].losses);
		cJSON_AddNumberToObject(o, "byes", st[i].byes);
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

static const char *
tourney_tiebreak_name(const struct tourney *t)
{
	return t->swiss ? "Buchholz" : "Sonneborn-Berger";
}

/* Player me's game of round `round` in t, or NULL. */
static const struct tourney_game *
tourney_game_of(const struct tourney *t, int me, int round)
{
	int i;

	for (i = 0; i < t->ngames; i++) {
		const struct tourney_game *g = &t->games[i];

		if (g->round == round && (g->white == me || g->black == me))
			return g;
	}
	return NULL;
}

/* One cell of the crosstable: me's game g from me's side; place[] the
 * places in the standings by player index. */
static cJSON *
tourney_cross_cell(const struct tourney *t, const struct tourney_game *g,
    int me, const int *place)
{
	cJSON *o = cJSON_CreateObject();
	int white = g->white == me, opp = white ? g->black : g->white;
	const char *res = "";

	cJSON_AddNumberToObject(o, "round", g->round);
	if (opp < 0) {
		cJSON_AddNullToObject(o, "opponent");
		cJSON_AddBoolToObject(o, "bye", 1);
		cJSON_AddStringToObject(o, "result", "bye");
		return o;
	}
	cJSON_AddStringToObject(o, "opponent", t->names[opp]);
	cJSON_AddNumberToObject(o, "opponent_place", place[opp]);
	cJSON_AddStringToObject(o, "colour", white ? "white" : "black");
	if (g->res == PAIRING_DRAW)
		res = "1/2";
	else if (g->res == PAIRING_NEITHER)
		res = "0";
	else if (g->res != PAIRING_NONE)
		res = (g->res == PAIRING_WHITE) == white ? "1" : "0";
	cJSON_AddStringToObject(o, "result", res);
	if (strcmp(g->reason, "forfeit") == 0)
		cJSON_AddBoolToObject(o, "forfeit", 1);
	return o;
}

/* The crosstable: a row per player in the order of the standings, with
 * each round played so far (the opponent, their place, the colour, the
 * result from the row's side). */
static cJSON *
tourney_crosstable_json(const struct tourney *t)
{
	struct pairing_standing st[PAIRING_PLAYERS_MAX];
	int place[PAIRING_PLAYERS_MAX], i, r;
	cJSON *a = cJSON_CreateArray();

	tourney_standings(t, st);
	for (i = 0; i < t->nplayers; i++)
		place[st[i].player] = i + 1;
	for (i = 0; i < t->nplayers; i++) {
		cJSON *o = cJSON_CreateObject(), *rounds;
		int me = st[i].player;

		cJSON_AddNumberToObject(o, "place", i + 1);
		cJSON_AddStringToObject(o, "name", t->names[me]);
		cJSON_AddNumberToObject(o, "points_halves", st[i].halves);
		rounds = cJSON_AddArrayToObject(o, "rounds");
		for (r = 1; r <= t->round; r++) {
			const struct tourney_game *g =
			    tourney_game_of(t, me, r);

			if (g != NULL)
				cJSON_AddItemToArray(rounds,
				    tourney_cross_cell(t, g, me, place));
		}
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

/* The most rounds a Swiss of n players can play without a repeat. */
static int
tourney_swiss_rounds_max(int n)
{
	return pairing_rr_rounds(n);
}

/* A Swiss's rounds when rounds= was not given: enough for one winner,
 * about log2 of the players (at least 1). */
static int
tourney_swiss_rounds_default(int n)
{
	int r = 0;

	while ((1 << r) < n)
		r++;
	if (r < 1)
		r = 1;
	return r < tourney_swiss_rounds_max(n) ? r
	                                       : tourney_swiss_rounds_max(n);
}

/* The rounds t plays: fixed at the start; while open, what the start
 * would make with the players joined so far (0 with fewer than two). */
static int
tourney_rounds_planned(const struct tourney *t)
{
	if (t->status != TOURNEY_OPEN)
		return t->rounds;
	if (t->nplayers < 2)
		return t->swiss ? t->rounds : 0;
	if (!t->swiss)
		return pairing_rr_rounds(t->nplayers);
	return t->rounds > 0 ? t->rounds
	                     : tourney_swiss_rounds_default(t->nplayers);
}

/* One tournament's summary (players listed when with_players). */
static cJSON *
tourney_summary(const struct tourney *t, int with_players)
{
	cJSON *o = cJSON_CreateObject();
	int i;

	cJSON_AddStringToObject(o, "id", t->id);
	cJSON_AddStringToObject(o, "game", t->g->name);
	cJSON_AddItemToObject(o, "options", cJSON_Duplicate(t->options, 1));
	cJSON_AddStringToObject(o, "format", t->swiss ? "swiss" : "roundrobin");
	cJSON_AddNumberToObject(o, "rounds", tourney_rounds_planned(t));
	cJSON_AddNumberToObject(o, "round", t->round);
	cJSON_AddStringToObject(o, "status", tourney_status_name(t->status));
	cJSON_AddStringToObject(o, "organiser", t->organiser);
	if (t->status == TOURNEY_OPEN)
		cJSON_AddItemToObject(
		    o, "expires_ms", proto_int(tourney_expires_ms(t)));
	cJSON_AddNumberToObject(o, "grace", t->grace_sec);
	if (t->clock_initial_ms > 0)
		cJSON_AddItemToObject(o, "clock",
		    room_clock_summary(t->clock_initial_ms, t->clock_inc_ms));
	cJSON_AddNumberToObject(o, "nplayers", t->nplayers);
	if (with_players) {
		cJSON *p = cJSON_AddArrayToObject(o, "players");

		for (i = 0; i < t->nplayers; i++)
			cJSON_AddItemToArray(
			    p, cJSON_CreateString(t->names[i]));
	}
	return o;
}

/* The games of round `round` as JSON. */
static cJSON *
tourney_pairings_json(const struct tourney *t, int round)
{
	cJSON *a = cJSON_CreateArray();
	int i;

	for (i = 0; i < t->ngames; i++) {
		const struct tourney_game *g = &t->games[i];
		cJSON *o;

		if (g->round != round)
			continue;
		o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "board", g->board);
		cJSON_AddStringToObject(o, "white", t->names[g->white]);
		if (g->black >= 0)
			cJSON_AddStringToObject(o, "black", t->names[g->black]);
		else
			cJSON_AddNullToObject(o, "black");
		if (g->room[0] != '\0')
			cJSON_AddStringToObject(o, "room", g->room);
		else
			cJSON_AddNullToObject(o, "room");
		cJSON_AddStringToObject(
		    o, "result", tourney_res_text(g->res, g->black < 0));
		cJSON_AddStringToObject(o, "reason", g->reason);
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

/* A room for game g of t: made, stored and in the server, its seats free
 * for the two paired players only (tourney_seat). 0, or -1 (logged). */
static int
tourney_make_room(struct tourney *t, struct tourney_game *g)
{
	char err[RULES_ERR_MAX];
	struct room *r;

	r = room_new(
	    t->srv, t->g, cJSON_Duplicate(t->options, 1), 1, err, sizeof err);
	if (r == NULL) {
		log_error("tournament %s: no room: %s", t->id, err);
		return -1;
	}
	if (store_room_number(t->srv->reader, &r->number) != 0) {
		log_error("store: %s", store_errmsg(t->srv->reader));
		room_free(r);
		return -1;
	}
	snprintf(r->id, sizeof r->id, "r%ld", r->number);
	/* "~t1": no player's name, so the room counts against nobody's rooms */
	snprintf(r->creator, sizeof r->creator, "~t%u", (unsigned)t->number);
	if (t->clock_initial_ms > 0) {
		r->clock_initial_ms = t->clock_initial_ms;
		r->clock_inc_ms = t->clock_inc_ms;
		r->clock_ms[0] = r->clock_ms[1] = r->clock_initial_ms;
	}
	room_commit(r, 0, 0);
	room_add(r);
	snprintf(g->room, sizeof g->room, "%s", r->id);
	return 0;
}

/* Fill ev with what tells side (0 white, 1 black) of g where to play (or
 * of the bye): the tourney_round event's fields, also `mine`'s; pending:
 * a game still waiting for them, with the seconds left before the
 * forfeit. ev, for chaining. */
static cJSON *
tourney_round_fill(const struct tourney *t, const struct tourney_game *g,
    int side, int pending, cJSON *ev)
{
	int opp = side == 0 ? g->black : g->white;

	cJSON_AddStringToObject(ev, "tourney", t->id);
	cJSON_AddStringToObject(ev, "game", t->g->name);
	cJSON_AddNumberToObject(ev, "round", g->round);
	cJSON_AddNumberToObject(ev, "rounds", t->rounds);
	cJSON_AddNumberToObject(ev, "board", g->board);
	if (opp < 0) {
		cJSON_AddNullToObject(ev, "room");
		cJSON_AddBoolToObject(ev, "bye", 1);
		return ev;
	}
	cJSON_AddStringToObject(ev, "room", g->room);
	cJSON_AddStringToObject(ev, "seat", t->g->seat_names[side]);
	cJSON_AddStringToObject(ev, "opponent", t->names[opp]);
	cJSON_AddNumberToObject(ev, "grace", t->grace_sec);
	if (pending) {
		int64_t left = g->deadline_ms - clock_now_ms();

		cJSON_AddBoolToObject(ev, "pending", 1);
		cJSON_AddNumberToObject(
		    ev, "left", left > 0 ? (double)((left + 999) / 1000) : 0);
	}
	return ev;
}

/* The tourney_round event of tourney_round_fill. */
static cJSON *
tourney_round_event(const struct tourney *t, const struct tourney_game *g,
    int side, int pending)
{
	return tourney_round_fill(
	    t, g, side, pending, proto_event(PROTO_EV_TOURNEY_ROUND, NULL, 0));
}

/* Tell both players of g where to play (or of the bye). */
static void
tourney_announce_game(struct tourney *t, const struct tourney_game *g)
{
	int side;

	for (side = 0; side < 2; side++) {
		int me = side == 0 ? g->white : g->black;
		cJSON *ev;

		if (me < 0)
			continue;
		ev = tourney_round_event(t, g, side, 0);
		player_send(t->srv, t->names[me], ev);
		cJSON_Delete(ev);
	}
}

/* A round that could not be made whole is taken back: the rooms of its
 * games from first on go (from memory and the store), and so do the
 * games; the sweep tries the round again. */
static void
tourney_unmake(struct tourney *t, int first)
{
	int i;

	for (i = first; i < t->ngames; i++) {
		struct room *r = t->games[i].room[0] != '\0'
		    ? room_find(t->srv, t->games[i].room)
		    : NULL;

		if (r != NULL) {
			storeq_room_delete(t->srv->storeq, r->id);
			room_forget(r);
		}
	}
	t->ngames = first;
}

/* Pair round t->round + 1, make its rooms and store it all; then tell
 * the players. 0, or -1 when no pairing or room could be had (the round
 * is not begun). */
static int
tourney_next_round(struct tourney *t)
{
	struct pairing_game pg[PAIRING_BOARDS_MAX], *past;
	int n, i, first = t->ngames, repeats = 0;
	int64_t deadline = clock_now_ms() + (int64_t)t->grace_sec * 1000;

	if (t->swiss) {
		past = xmalloc(sizeof *past * (size_t)(t->ngames + 1));
		tourney_pairing_games(t, past);
		n = pairing_swiss(t->nplayers, past, t->ngames, pg, &repeats);
		free(past);
	} else {
		n = pairing_rr_round(t->nplayers, t->round, pg);
	}
	if (n <= 0)
		return -1;
	if (repeats)
		log_warn("tournament %s: round %d repeats a pairing (no round "
		         "without one was found)",
		    t->id, t->round + 1);
	for (i = 0; i < n; i++) {
		struct tourney_game *g = tourney_add_game(t);

		g->round = t->round + 1;
		g->board = i + 1;
		g->white = pg[i].white;
		g->black = pg[i].black;
		g->deadline_ms = deadline;
		if (g->black < 0) {
			g->res = PAIRING_WHITE;
			snprintf(g->reason, sizeof g->reason, "bye");
		} else if (tourney_make_room(t, g) != 0) {
			tourney_unmake(t, first);
			return -1;
		}
	}
	t->round++;
	t->status = TOURNEY_PLAYING;
	tstore_tourney(t);
	for (i = first; i < t->ngames; i++)
		tstore_game(t, &t->games[i]);
	log_info("tournament %s: round %d of %d paired, %d games", t->id,
	    t->round, t->rounds, n);
	for (i = first; i < t->ngames; i++)
		tourney_announce_game(t, &t->games[i]);
	return 0;
}

/* The last round is over: stored, then everyone told the standings. */
static void
tourney_finish(struct tourney *t)
{
	cJSON *ev;
	int i;

	t->status = TOURNEY_ENDED;
	tstore_tourney(t);
	log_info("tournament %s ended", t->id);
	ev = proto_event(PROTO_EV_TOURNEY_ENDED, NULL, 0);
	cJSON_AddStringToObject(ev, "tourney", t->id);
	cJSON_AddStringToObject(ev, "tiebreak", tourney_tiebreak_name(t));
	cJSON_AddItemToObject(ev, "tiebreaks", tourney_tiebreaks_json(t));
	cJSON_AddItemToObject(ev, "standings", tourney_standings_json(t));
	for (i = 0; i < t->nplayers; i++)
		player_send(t->srv, t->names[i], ev);
	if (tourney_player_index(t, t->organiser) < 0)
		player_send(t->srv, t->organiser, ev);
	cJSON_Delete(ev);
}

/* 1 when every game of the current round has its result. */
static int
tourney_round_done(const struct tourney *t)
{
	int i;

	for (i = t->ngames - 1; i >= 0 && t->games[i].round == t->round; i--)
		if (t->games[i].res == PAIRING_NONE)
			return 0;
	return 1;
}

/*
 * The room r has just ended (room_end_prepare, before anything is sent):
 * when it plays a tournament's game, the result is the game's, stored in
 * the same group as the room's end. winner: the seat that won, -1 a
 * draw. The next round is made by the sweep.
 */
void
tourney_room_ended(struct room *r, int winner, const char *reason)
{
	const struct cluster_ops *cl = r->srv->cluster_ops;
	struct tourney_game *g;

	/* On a cluster node that is not the club's (the room moved here
	 * when its node died): the result is stored with the room's end,
	 * and goes to the club's node. */
	if (tourney_of_room(r->id, &g) == NULL &&
	    strncmp(r->creator, "~t", 2) == 0 && cl != NULL &&
	    !cl->club_here(r->srv)) {
		tstore_room_result(r->srv, r->id, winner, reason);
		cl->club_room_ended(r, winner, reason);
		return;
	}
	tourney_result(r->srv, r->id, winner, reason);
}

/* The game played in room id has its result (winner: the seat that won,
 * -1 a draw), stored; nothing when it is no tournament game of this
 * node's or has one already. */
void
tourney_result(
    struct server *srv, const char *id, int winner, const char *reason)
{
	struct tourney_game *g;
	struct tourney *t = tourney_of_room(id, &g);

	(void)srv;
	if (t == NULL || g->res != PAIRING_NONE)
		return;
	g->res = winner == 0 ? PAIRING_WHITE
	    : winner == 1    ? PAIRING_BLACK
	                     : PAIRING_DRAW;
	snprintf(g->reason, sizeof g->reason, "%s", reason);
	tstore_game(t, g);
}

/*
 * Where p may sit in room r: 0 with *seat its seat when r plays a
 * tournament game of p's, 0 with *seat unchanged when r is no tournament
 * room, -1 when it is one and p is not one of its two players.
 */
int
tourney_seat(const struct room *r, const struct player *p, int *seat)
{
	struct tourney_game *g;
	struct tourney *t = tourney_of_room(r->id, &g);

	if (t == NULL)
		return 0;
	if (strcmp(t->names[g->white], p->name) == 0) {
		*seat = 0;
		return 0;
	}
	if (g->black >= 0 && strcmp(t->names[g->black], p->name) == 0) {
		*seat = 1;
		return 0;
	}
	return -1;
}

/* 1 when r was made for a tournament's game (its creator is "~t" and
 * the tournament's number, tourney_make_room), played or not. */
int
tourney_room(const struct room *r)
{
	return strncmp(r->creator, "~t", 2) == 0;
}

/* 1 when r is the room of a tournament game not yet played: it stays
 * when the last player seated leaves it before the start, so that both
 * may still come (the sweep forfeits it at its deadline). */
int
tourney_keeps(const struct room *r)
{
	struct tourney_game *g;

	return tourney_of_room(r->id, &g) != NULL && g->res == PAIRING_NONE;
}

/* The side (0, 1) of the player named name in g when they are paired
 * there and not seated in its room yet (the game waits for them); -1
 * otherwise. By name: on a cluster the player may be another node's,
 * seated here as a stand-in. */
static int
tourney_waits_for(
    const struct tourney *t, const struct tourney_game *g, const char *name)
{
	const struct room *r;
	const struct player *sat;
	int side;

	if (g->res != PAIRING_NONE || g->black < 0 || g->room[0] == '\0')
		return -1;
	if (strcmp(t->names[g->white], name) == 0)
		side = 0;
	else if (strcmp(t->names[g->black], name) == 0)
		side = 1;
	else
		return -1;
	r = room_find(t->srv, g->room);
	sat = r != NULL ? r->seats[side].player : NULL;
	if (sat != NULL && strcmp(sat->name, name) == 0)
		return -1;
	return side;
}

/* Call fn(t, g, side, arg) for each game of a tournament's current round
 * on this node that waits for the player named name to sit down
 * (tourney_waits_for). */
static void
tourney_each_waiting(struct server *srv, const char *name,
    void (*fn)(
        const struct tourney *, const struct tourney_game *, int, void *),
    void *arg)
{
	struct tourney *t;
	int i, side;

	for (t = tourney_list; t != NULL; t = t->next) {
		if (t->srv != srv || t->status != TOURNEY_PLAYING)
			continue;
		for (i = t->ngames - 1; i >= 0 && t->games[i].round == t->round;
		     i--) {
			side = tourney_waits_for(t, &t->games[i], name);
			if (side >= 0)
				fn(t, &t->games[i], side, arg);
		}
	}
}

/* Send the player named arg a pending tourney_round for g. */
static void
tourney_remind(
    const struct tourney *t, const struct tourney_game *g, int side, void *arg)
{
	cJSON *ev = tourney_round_event(t, g, side, 1);

	player_send(t->srv, arg, ev);
	cJSON_Delete(ev);
}

/*
 * p has just logged in (after the hello reply): each tournament game of
 * the current rounds that waits for p to sit down is told again, as a
 * tourney_round with pending and the seconds left, so that a player away
 * when the round was paired (or across a restart) hears of it in time.
 */
void
tourney_logged_in(struct server *srv, const struct player *p)
{
	tourney_remind_name(srv, p->name);
}

/* The reminders of tourney_logged_in for the player named name, wherever
 * they logged in: on a cluster the club's node is told of a login on
 * another node (cluster_club.c) and sends them through player_send. */
void
tourney_remind_name(struct server *srv, const char *name)
{
	tourney_each_waiting(srv, name, tourney_remind, (void *)name);
}

/* Add g, waiting for side, to the array arg as mine lists it. */
static void
tourney_mine_one(
    const struct tourney *t, const struct tourney_game *g, int side, void *arg)
{
	cJSON *one = cJSON_CreateObject();

	tourney_round_fill(t, g, side, 1, one);
	cJSON_AddBoolToObject(one, "your_turn", 0);
	cJSON_AddItemToArray(arg, one);
}

/* The games of this node's tournaments that wait for p to sit down, added
 * to the array rooms as `mine` lists them: room, game, seat, opponent,
 * your_turn (false) and tourney_round's tourney, round, rounds, board,
 * grace, pending and left. */
void
tourney_mine(struct server *srv, const struct player *p, cJSON *rooms)
{
	tourney_each_waiting(srv, p->name, tourney_mine_one, rooms);
}

/* Tell both players of g, just lost by forfeit (stored), what happened
 * and why: a tourney_result with the result, the reason, the winner and
 * a sentence. */
static void
tourney_tell_forfeit(struct tourney *t, const struct tourney_game *g)
{
	const char *w = t->names[g->white], *k = t->names[g->black];
	cJSON *ev;

	ev = proto_event(PROTO_EV_TOURNEY_RESULT, NULL, 0);
	cJSON_AddStringToObject(ev, "tourney", t->id);
	cJSON_AddNumberToObject(ev, "round", g->round);
	cJSON_AddNumberToObject(ev, "board", g->board);
	cJSON_AddStringToObject(ev, "room", g->room);
	cJSON_AddStringToObject(ev, "white", w);
	cJSON_AddStringToObject(ev, "black", k);
	cJSON_AddStringToObject(ev, "result", tourney_res_text(g->res, 0));
	cJSON_AddStringToObject(ev, "reason", g->reason);
	if (g->res == PAIRING_NEITHER)
		cJSON_AddNullToObject(ev, "winner");
	else
		cJSON_AddStringToObject(
		    ev, "winner", g->res == PAIRING_WHITE ? w : k);
	if (g->res == PAIRING_NEITHER)
		proto_sentence(ev, "message",
		    "Tournament %s, round %d: neither %s nor %s sat down in "
		    "%s within %d s: both lose by forfeit (0-0).",
		    t->id, g->round, w, k, g->room, t->grace_sec);
	else
		proto_sentence(ev, "message",
		    "Tournament %s, round %d: %s did not sit down in %s within "
		    "%d s: %s wins by forfeit (%s).",
		    t->id, g->round, g->res == PAIRING_WHITE ? k : w, g->room,
		    t->grace_sec, g->res == PAIRING_WHITE ? w : k,
		    tourney_res_text(g->res, 0));
	player_send(t->srv, w, ev);
	player_send(t->srv, k, ev);
	cJSON_Delete(ev);
}

/* A game whose room still waits past its deadline is lost by whoever is
 * not seated (both: neither scores); the room goes. */
static void
tourney_forfeit(struct tourney *t, struct tourney_game *g)
{
	struct room *r = room_find(t->srv, g->room);
	int seated[2] = {0, 0}, i;

	for (i = 0; r != NULL && i < 2; i++)
		seated[i] = r->seats[i].player != NULL;
	g->res = seated[0] && !seated[1] ? PAIRING_WHITE
	    : seated[1] && !seated[0]    ? PAIRING_BLACK
	                                 : PAIRING_NEITHER;
	snprintf(g->reason, sizeof g->reason, "forfeit");
	tstore_game(t, g);
	log_info("tournament %s: %s - %s in %s: %s by forfeit", t->id,
	    t->names[g->white], t->names[g->black], g->room,
	    tourney_res_text(g->res, 0));
	tourney_tell_forfeit(t, g);
	if (r != NULL) {
		storeq_room_delete(t->srv->storeq, r->id);
		room_forget(r);
	}
}

/* On a cluster, a game whose room is in no node's memory may have ended
 * on a node without the club, its result stored with the room's end and
 * its word to this node lost: that result is the game's (1), not a
 * forfeit. 0 when there is none; -1 when the store could not be read
 * (no forfeit before it can). */
static int
tourney_stored_result(struct tourney *t, struct tourney_game *g)
{
	enum pairing_res res;
	char reason[sizeof g->reason];
	int rc;

	if (t->srv->cluster_ops == NULL)
		return 0;
	rc = tstore_result_of(t->srv, g->room, &res, reason, sizeof reason);
	if (rc != 1)
		return rc;
	g->res = res;
	snprintf(g->reason, sizeof g->reason, "%s", reason);
	log_info("tournament %s: the result of %s came from the store (%s)",
	    t->id, g->room, tourney_res_text(res, 0));
	return 1;
}

/* Forfeits due, and the next round (or the end) once a round is over. */
static void
tourney_step(struct tourney *t, int64_t now)
{
	int i;

	for (i = t->ngames - 1; i >= 0 && t->games[i].round == t->round; i--) {
		struct tourney_game *g = &t->games[i];
		struct room *r;

		if (g->res != PAIRING_NONE || g->black < 0 ||
		    now < g->deadline_ms)
			continue;
		r = room_find(t->srv, g->room);
		if (r == NULL && t->srv->cluster_ops != NULL &&
		    t->srv->cluster_ops->club_room_away(t->srv, g->room))
			continue; /* played on another node of the cluster */
		if (r == NULL && tourney_stored_result(t, g) != 0)
			continue; /* its result from the store, or no store */
		if (r == NULL || r->status == ROOM_WAITING)
			tourney_forfeit(t, g);
	}
	if (!tourney_round_done(t))
		return;
	if (t->round >= t->rounds)
		tourney_finish(t);
	else
		tourney_next_round(t);
}

/* The open tournament t was not started in time: it expires, stored
 * before its organiser and players hear of it (tourney_ended with
 * expired), and counts against no cap from then on. */
static void
tourney_expire(struct tourney *t)
{
	char span[32];
	int sec = t->srv->cfg.tourney_expire_sec;
	cJSON *ev;
	int i;

	t->status = TOURNEY_EXPIRED;
	tstore_tourney(t);
	if (sec >= 3600 && sec % 3600 == 0)
		snprintf(span, sizeof span, "%d h", sec / 3600);
	else if (sec >= 60 && sec % 60 == 0)
		snprintf(span, sizeof span, "%d min", sec / 60);
	else
		snprintf(span, sizeof span, "%d s", sec);
	log_info("tournament %s expired (%d players)", t->id, t->nplayers);
	ev = proto_event(PROTO_EV_TOURNEY_ENDED, NULL, 0);
	cJSON_AddStringToObject(ev, "tourney", t->id);
	cJSON_AddBoolToObject(ev, "expired", 1);
	proto_sentence(ev, "message",
	    "%s expired: its organiser did not start it within %s of its "
	    "creation",
	    t->id, span);
	cJSON_AddStringToObject(ev, "tiebreak", tourney_tiebreak_name(t));
	cJSON_AddItemToObject(ev, "standings", cJSON_CreateArray());
	for (i = 0; i < t->nplayers; i++)
		player_send(t->srv, t->names[i], ev);
	if (tourney_player_index(t, t->organiser) < 0)
		player_send(t->srv, t->organiser, ev);
	cJSON_Delete(ev);
}

void
tourney_sweep(struct server *srv)
{
	const struct cluster_ops *cl = srv->cluster_ops;
	struct tourney *t;
	int64_t now = clock_now_ms();

	if (storeq_failing(srv->storeq) || (cl != NULL && !cl->club_here(srv)))
		return;
	for (t = tourney_list; t != NULL; t = t->next) {
		if (t->srv != srv)
			continue;
		if (t->status == TOURNEY_PLAYING)
			tourney_step(t, now);
		else if (t->status == TOURNEY_OPEN &&
		    now >= tourney_expires_ms(t))
			tourney_expire(t);
	}
}

/* At start, after the rooms: every tournament back from the store. A
 * current game whose room ended while the server was down cannot be (its
 * result is stored with the room's end); one whose room is gone is
 * forfeited at its deadline by the sweep. */
int
tourney_recover(struct server *srv)
{
	struct tourney *t;
	int all = 0, live = 0;

	if (tstore_load(srv) != 0)
		return -1;
	for (t = tourney_list; t != NULL; t = t->next) {
		all++;
		if (!tourney_over(t))
			live++;
	}
	if (all > 0)
		log_info("tournaments: %d back, %d not over", all, live);
	return 0;
}

void
tourney_free_all(void)
{
	struct tourney *t, *next;

	for (t = tourney_list; t != NULL; t = next) {
		next = t->next;
		cJSON_Delete(t->options);
		free(t->games);
		free(t);
	}
	tourney_list = NULL;
	tourney_tail = &tourney_list;
	tourney_max_number = 0;
}

/* ------------------------------------------------------------ the verb */

/* The tournament named by the request, or NULL after replying. */
static struct tourney *
tourney_arg(struct conn *c, const struct proto_request *req)
{
	struct tourney *t = tourney_find(req->tourney);

	if (req->tourney == NULL) {
		conn_error(c, req, PROTO_E_BAD_REQUEST,
		    "which tournament? (tourney %s ID; tourney list shows "
		    "them)",
		    req->act);
		return NULL;
	}
	if (t == NULL)
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "no tournament '%s' (tourney list shows them)",
		    req->tourney);
	return t;
}

/* Reply with the tournament's summary and its players. */
static void
tourney_reply(
    struct conn *c, const struct proto_request *req, const struct tourney *t)
{
	cJSON *rep = proto_reply(req);

	cJSON_AddItemToObject(rep, "tourney", tourney_summary(t, 1));
	conn_reply(c, rep);
}

/* An integer option of create taken out of the options (the rest are the
 * game's): 0 with *v set (def when absent), -1 after replying. */
static int
tourney_take_int(struct conn *c, const struct proto_request *req, cJSON *o,
    const char *key, int min, int max, int def, int *v)
{
	cJSON *it = cJSON_DetachItemFromObjectCaseSensitive(o, key);
	char *end;
	long n;

	*v = def;
	if (it == NULL)
		return 0;
	n = cJSON_IsString(it) ? strtol(it->valuestring, &end, 10) : -1;
	if (!cJSON_IsString(it) || *end != '\0' || end == it->valuestring ||
	    n < min || n > max) {
		conn_error(c, req, PROTO_E_BAD_OPTIONS,
		    "%s must be an integer from %d to %d", key, min, max);
		cJSON_Delete(it);
		return -1;
	}
	*v = (int)n;
	cJSON_Delete(it);
	return 0;
}

/* format=: 0 with *swiss set, -1 after replying. */
static int
tourney_take_format(
    struct conn *c, const struct proto_request *req, cJSON *o, int *swiss)
{
	cJSON *it = cJSON_DetachItemFromObjectCaseSensitive(o, "format");
	int ok = 1;

	*swiss = 0;
	if (it != NULL) {
		const char *s = cJSON_GetStringValue(it);

		if (s != NULL && strcmp(s, "swiss") == 0)
			*swiss = 1;
		else if (s == NULL ||
		    (strcmp(s, "roundrobin") != 0 && strcmp(s, "rr") != 0))
			ok = 0;
		cJSON_Delete(it);
	}
	if (!ok)
		conn_error(c, req, PROTO_E_BAD_OPTIONS,
		    "format must be roundrobin or swiss");
	return ok ? 0 : -1;
}

/* What a cap on tournaments not over counts: those of one organiser,
 * of one address (addr: its limit key), or (both NULL) all of them. */
struct tourney_cap {
	const char *organiser, *addr;
	int live;          /* tournaments not over */
	int64_t first_ms;  /* when the first open one expires (0: none open) */
	const char *first; /* its id */
};

/* Count the tournaments not over that cap c counts. */
static void
tourney_cap_count(struct tourney_cap *c)
{
	struct tourney *t;

	c->live = 0;
	c->first_ms = 0;
	c->first = NULL;
	for (t = tourney_list; t != NULL; t = t->next) {
		if (tourney_over(t) ||
		    (c->organiser != NULL &&
		        strcmp(t->organiser, c->organiser) != 0) ||
		    (c->addr != NULL && strcmp(t->addr, c->addr) != 0))
			continue;
		c->live++;
		if (t->status == TOURNEY_OPEN &&
		    (c->first_ms == 0 || tourney_expires_ms(t) < c->first_ms)) {
			c->first_ms = tourney_expires_ms(t);
			c->first = t->id;
		}
	}
}

/* Whose cap a create is past. */
enum tourney_capper { TOURNEY_CAP_MINE, TOURNEY_CAP_ADDR, TOURNEY_CAP_ALL };

/* Why a create past who's cap of max is refused, into msg: to try again
 * in min minutes, when first expires, or (first NULL) once one ends. One
 * format each, so that a client can translate the sentence whole. */
static void
tourney_cap_why(char *msg, size_t len, enum tourney_capper who, int max,
    long long min, const char *first)
{
	if (first != NULL && who == TOURNEY_CAP_MINE)
		proto_errf(msg, len,
		    "you organise %d tournaments not over already, the most "
		    "there may be; try again in %lld min, when %s expires "
		    "unless it is started",
		    max, min, first);
	else if (first != NULL && who == TOURNEY_CAP_ADDR)
		proto_errf(msg, len,
		    "your address has made %d tournaments not over already, "
		    "the most there may be; try again in %lld min, when %s "
		    "expires unless it is started",
		    max, min, first);
	else if (first != NULL)
		proto_errf(msg, len,
		    "the server runs %d tournaments not over already, the "
		    "most there may be; try again in %lld min, when %s "
		    "expires unless it is started",
		    max, min, first);
	else if (who == TOURNEY_CAP_MINE)
		proto_errf(msg, len,
		    "you organise %d tournaments not over already, the most "
		    "there may be, and all are being played; try again once "
		    "one of them ends",
		    max);
	else if (who == TOURNEY_CAP_ADDR)
		proto_errf(msg, len,
		    "your address has made %d tournaments not over already, "
		    "the most there may be, and all are being played; try "
		    "again once one of them ends",
		    max);
	else
		proto_errf(msg, len,
		    "the server runs %d tournaments not over already, the "
		    "most there may be, and all are being played; try again "
		    "once one of them ends",
		    max);
}

/* Refuse a create past who's cap, saying when to try again: when the
 * first of the open ones it counts expires (the reply's retry_after, in
 * seconds), else once one of them ends. */
static void
tourney_cap_refuse(struct conn *c, const struct proto_request *req,
    const struct tourney_cap *cap, enum tourney_capper who, int max)
{
	char msg[320];
	cJSON *rep;

	if (cap->first_ms > 0) {
		int64_t wait = cap->first_ms - clock_now_ms();
		long long sec = wait > 0 ? (wait + 999) / 1000 : 1;

		tourney_cap_why(
		    msg, sizeof msg, who, max, (sec + 59) / 60, cap->first);
		rep = proto_error_reply(req, PROTO_E_LIMIT_REACHED, msg);
		conn_said(c, rep, msg);
		proto_add_int(rep, "retry_after", sec);
	} else {
		tourney_cap_why(msg, sizeof msg, who, max, 0, NULL);
		rep = proto_error_reply(req, PROTO_E_LIMIT_REACHED, msg);
		conn_said(c, rep, msg);
	}
	conn_reply(c, rep);
}

/* May c make one more tournament: its organiser's, its address's and the
 * server's caps? 0, or -1 after refusing. */
static int
tourney_caps_ok(struct conn *c, const struct proto_request *req)
{
	const char *addr = c->lim_addr != NULL ? c->lim_addr->key : NULL;
	struct tourney_cap mine = {c->player->name, NULL, 0, 0, NULL},
	                   here = {NULL, addr, 0, 0, NULL},
	                   all = {NULL, NULL, 0, 0, NULL};

	tourney_cap_count(&mine);
	if (mine.live >= TOURNEY_PER_ORGANISER) {
		tourney_cap_refuse(
		    c, req, &mine, TOURNEY_CAP_MINE, TOURNEY_PER_ORGANISER);
		return -1;
	}
	if (addr != NULL) {
		tourney_cap_count(&here);
		if (here.live >= TOURNEY_PER_ADDRESS) {
			tourney_cap_refuse(c, req, &here, TOURNEY_CAP_ADDR,
			    TOURNEY_PER_ADDRESS);
			return -1;
		}
	}
	tourney_cap_count(&all);
	if (all.live >= TOURNEY_LIVE_MAX) {
		tourney_cap_refuse(
		    c, req, &all, TOURNEY_CAP_ALL, TOURNEY_LIVE_MAX);
		return -1;
	}
	return 0;
}

static void
tourney_create(struct conn *c, const struct proto_request *req)
{
	const char *game = req->game != NULL ? req->game : req->tourney;
	const struct rules_game *g = game != NULL ? rules_find(game) : NULL;
	char err[RULES_ERR_MAX], id[TOURNEY_ID_MAX];
	struct tourney *t;
	struct room *probe;
	cJSON *o;
	int i, swiss, rounds, grace;

	if (g == NULL) {
		conn_error(c, req, PROTO_E_NO_SUCH_GAME,
		    "no game '%s' (games lists them)", game ? game : "");
		return;
	}
	if (g->seats != 2) {
		conn_error(c, req, PROTO_E_BAD_OPTIONS,
		    "%s is a one-player game: no tournaments", g->name);
		return;
	}
	if (tourney_caps_ok(c, req) != 0)
		return;
	o = cJSON_CreateObject();
	for (i = 0; i < req->noptions; i++)
		cJSON_AddStringToObject(
		    o, req->options[i].key, req->options[i].value);
	if (tourney_take_format(c, req, o, &swiss) != 0 ||
	    tourney_take_int(
	        c, req, o, "rounds", 1, TOURNEY_ROUNDS_MAX, 0, &rounds) != 0 ||
	    tourney_take_int(c, req, o, "grace", TOURNEY_GRACE_MIN,
	        TOURNEY_GRACE_MAX, TOURNEY_GRACE_DEFAULT, &grace) != 0) {
		cJSON_Delete(o);
		return;
	}
	/* The game's options are checked by making a room of them. */
	probe = room_new(c->srv, g, cJSON_Duplicate(o, 1), 1, err, sizeof err);
	if (probe == NULL) {
		conn_error(c, req, PROTO_E_BAD_OPTIONS, "%s", err);
		cJSON_Delete(o);
		return;
	}
	room_free(probe);
	snprintf(id, sizeof id, "t%ld", tourney_max_number + 1);
	t = tourney_new(c->srv, id);
	t->g = g;
	t->options = o;
	t->swiss = swiss;
	t->rounds = swiss ? rounds : 0;
	t->grace_sec = grace;
	if (req->has_clock) {
		t->clock_initial_ms = (int64_t)req->clock_initial * 1000;
		t->clock_inc_ms = (int64_t)req->clock_increment * 1000;
	}
	snprintf(t->organiser, sizeof t->organiser, "%s", c->player->name);
	snprintf(t->addr, sizeof t->addr, "%s",
	    c->lim_addr != NULL ? c->lim_addr->key : "");
	t->created_ms = clock_now_ms();
	tstore_tourney(t);
	log_info("%s created tournament %s (%s, %s)", c->player->name, t->id,
	    g->name, swiss ? "swiss" : "roundrobin");
	tourney_reply(c, req, t);
}

/* 1 after refusing req when t expired unplayed (not_allowed). */
static int
tourney_expired_refuse(
    struct conn *c, const struct proto_request *req, const struct tourney *t)
{
	if (t->status != TOURNEY_EXPIRED)
		return 0;
	conn_error(c, req, PROTO_E_NOT_ALLOWED,
	    "%s expired: its organiser did not start it in time (tourney "
	    "create makes a new one)",
	    t->id);
	return 1;
}

/* Tell t's organiser (unless it is them) that name has just joined (a
 * tourney_joined with the players now). */
static void
tourney_tell_organiser(struct tourney *t, const char *name)
{
	cJSON *ev;

	if (strcmp(t->organiser, name) == 0)
		return;
	ev = proto_event(PROTO_EV_TOURNEY_JOINED, NULL, 0);
	cJSON_AddStringToObject(ev, "tourney", t->id);
	cJSON_AddStringToObject(ev, "name", name);
	cJSON_AddNumberToObject(ev, "nplayers", t->nplayers);
	player_send(t->srv, t->organiser, ev);
	cJSON_Delete(ev);
}

static void
tourney_join(struct conn *c, const struct proto_request *req)
{
	struct tourney *t = tourney_arg(c, req);

	if (t == NULL || tourney_expired_refuse(c, req, t))
		return;
	if (t->status != TOURNEY_OPEN) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "%s has started: it takes no more players", t->id);
		return;
	}
	if (tourney_player_index(t, c->player->name) >= 0) {
		tourney_reply(c, req, t);
		return;
	}
	if (t->nplayers >= PAIRING_PLAYERS_MAX) {
		conn_error(c, req, PROTO_E_LIMIT_REACHED,
		    "%s has %d players already", t->id, PAIRING_PLAYERS_MAX);
		return;
	}
	tourney_add_player(t, c->player->name, clock_now_ms());
	tstore_player(t, t->nplayers - 1);
	tourney_reply(c, req, t);
	tourney_tell_organiser(t, c->player->name);
}

static void
tourney_leave(struct conn *c, const struct proto_request *req)
{
	struct tourney *t = tourney_arg(c, req);
	int i;

	if (t == NULL || tourney_expired_refuse(c, req, t))
		return;
	if (t->status != TOURNEY_OPEN) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "%s has started: a player cannot leave it (a game not "
		    "played is lost at its grace)",
		    t->id);
		return;
	}
	if ((i = tourney_player_index(t, c->player->name)) < 0) {
		conn_error(
		    c, req, PROTO_E_NOT_ALLOWED, "you are not in %s", t->id);
		return;
	}
	tstore_player_delete(t, t->names[i]);
	for (; i + 1 < t->nplayers; i++) {
		memcpy(t->names[i], t->names[i + 1], sizeof t->names[i]);
		t->joined_ms[i] = t->joined_ms[i + 1];
		tstore_player(t, i); /* the seeding closes up */
	}
	t->nplayers--;
	tourney_reply(c, req, t);
}

/*
 * A Swiss is seeded by rating before its first round: each player's
 * rating in the games' pool (rating_of: a new player's 1500 when there is
 * none), highest first, the order of joining between equal ratings. The
 * new order is stored as the players' seq, so a restart pairs the same.
 */
static void
tourney_seed(struct tourney *t)
{
	int rating[PAIRING_PLAYERS_MAX], i, j;

	for (i = 0; i < t->nplayers; i++)
		rating[i] =
		    rating_of(t->srv, t->names[i], t->g, t->options, NULL);
	/* insertion sort: stable, and at most 64 players */
	for (i = 1; i < t->nplayers; i++) {
		char name[SERVER_NAME_MAX + 1];
		int64_t ms = t->joined_ms[i];
		int r = rating[i];

		memcpy(name, t->names[i], sizeof name);
		for (j = i; j > 0 && rating[j - 1] < r; j--) {
			memcpy(t->names[j], t->names[j - 1], sizeof name);
			t->joined_ms[j] = t->joined_ms[j - 1];
			rating[j] = rating[j - 1];
		}
		memcpy(t->names[j], name, sizeof name);
		t->joined_ms[j] = ms;
		rating[j] = r;
	}
	for (i = 0; i < t->nplayers; i++)
		tstore_player(t, i);
}

static void
tourney_start(struct conn *c, const struct proto_request *req)
{
	struct tourney *t = tourney_arg(c, req);
	int rounds, asked;

	if (t == NULL)
		return;
	if (strcmp(t->organiser, c->player->name) != 0) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "only %s, the organiser, can start %s", t->organiser,
		    t->id);
		return;
	}
	if (tourney_expired_refuse(c, req, t))
		return;
	if (t->status != TOURNEY_OPEN) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "%s has started already", t->id);
		return;
	}
	if (t->nplayers < 2) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "%s needs two players at least (it has %d)", t->id,
		    t->nplayers);
		return;
	}
	rounds = tourney_rounds_planned(t);
	if (t->swiss && rounds > tourney_swiss_rounds_max(t->nplayers)) {
		conn_error(c, req, PROTO_E_BAD_OPTIONS,
		    "%d players can play %d Swiss rounds at most without "
		    "meeting twice (this one asks %d)",
		    t->nplayers, tourney_swiss_rounds_max(t->nplayers), rounds);
		return;
	}
	asked = t->rounds;
	t->rounds = rounds;
	if (t->swiss)
		tourney_seed(t);
	if (tourney_next_round(t) != 0) {
		t->rounds = asked; /* rounds= as given (0: none) */
		conn_error(c, req, PROTO_E_INTERNAL,
		    "the first round could not be made; nothing was started");
		return;
	}
	log_info("%s started tournament %s: %d players, %d rounds",
	    c->player->name, t->id, t->nplayers, t->rounds);
	tourney_reply(c, req, t);
}

static void
tourney_list_reply(struct conn *c, const struct proto_request *req)
{
	cJSON *rep = proto_reply(req);
	cJSON *a = cJSON_AddArrayToObject(rep, "tourneys");
	struct tourney *t;

	/* not the expired ones: nothing was played in them */
	for (t = tourney_list; t != NULL; t = t->next)
		if (t->status != TOURNEY_EXPIRED)
			cJSON_AddItemToArray(a, tourney_summary(t, 0));
	conn_reply(c, rep);
}

static void
tourney_show(struct conn *c, const struct proto_request *req)
{
	struct tourney *t = tourney_arg(c, req);
	cJSON *rep;

	if (t == NULL)
		return;
	rep = proto_reply(req);
	cJSON_AddItemToObject(rep, "tourney", tourney_summary(t, 1));
	cJSON_AddStringToObject(rep, "tiebreak", tourney_tiebreak_name(t));
	cJSON_AddItemToObject(rep, "tiebreaks", tourney_tiebreaks_json(t));
	cJSON_AddItemToObject(rep, "standings", tourney_standings_json(t));
	cJSON_AddItemToObject(rep, "crosstable", tourney_crosstable_json(t));
	cJSON_AddNumberToObject(rep, "pairings_round", t->round);
	cJSON_AddItemToObject(
	    rep, "pairings", tourney_pairings_json(t, t->round));
	conn_reply(c, rep);
}

void
cmd_tourney(struct conn *c, const struct proto_request *req)
{
	/* create, join, leave and start store a change: refused at once
	 * while the store fails, as session.c refuses the verbs that
	 * store; list and show only read (their replies wait behind what
	 * the connection has held, as every read's). On a cluster only the
	 * club's node runs it (the others send it there). */
	if (club_refused(c, req))
		return;
	if (strcmp(req->act, "list") != 0 && strcmp(req->act, "show") != 0 &&
	    storeq_failing(c->srv->storeq)) {
		c->srv->out_free = 1; /* shows nothing changed: not held */
		conn_error(c, req, PROTO_E_STORE_FAILING,
		    "the server cannot store games right now; try again "
		    "shortly");
		return;
	}
	if (strcmp(req->act, "create") == 0)
		tourney_create(c, req);
	else if (strcmp(req->act, "join") == 0)
		tourney_join(c, req);
	else if (strcmp(req->act, "leave") == 0)
		tourney_leave(c, req);
	else if (strcmp(req->act, "start") == 0)
		tourney_start(c, req);
	else if (strcmp(req->act, "list") == 0)
		tourney_list_reply(c, req);
	else
		tourney_show(c, req);
}
