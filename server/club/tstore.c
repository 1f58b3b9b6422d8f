/*
 * tstore.c: tournaments in the store: their rows (tourneys,
 * tourney_players, tourney_games; schema.c) written as row ops through the
 * store thread, in the change being made, and read back whole at start
 * (tourney.c's recovery). Upserts keyed by each table's primary key, so a
 * group tried again does no harm. The club's rows (storeq_club_row), but
 * for a game's result written by a cluster node without the club, in its
 * room's end (tstore_room_result).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/store/schema.h"
#include "server/store/store.h"
#include "server/store/storeq.h"
#include "server/club/tourney.h"

#define TSTORE_TOURNEY_PUT                                                     \
	"INSERT INTO tourneys (id, game, options, format, rounds, grace_sec,"  \
	" clock_initial_ms, clock_increment_ms, organiser, status, round,"     \
	" created_ms, organiser_addr) VALUES ($1, $2, $3, $4, $5, $6, $7, $8," \
	" $9, $10, $11, $12, $13) ON CONFLICT (id) DO UPDATE SET"              \
	" rounds = excluded.rounds, status = excluded.status,"                 \
	" round = excluded.round"
#define TSTORE_PLAYER_PUT                                                      \
	"INSERT INTO tourney_players (tourney, name, seq, joined_ms)"          \
	" VALUES ($1, $2, $3, $4) ON CONFLICT (tourney, name) DO UPDATE"       \
	" SET seq = excluded.seq"
#define TSTORE_PLAYER_DELETE                                                   \
	"DELETE FROM tourney_players WHERE tourney = $1 AND name = $2"
#define TSTORE_GAME_PUT                                                        \
	"INSERT INTO tourney_games (tourney, round, board, white, black, "     \
	"room,"                                                                \
	" result, reason, deadline_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, "   \
	"$8,"                                                                  \
	" $9) ON CONFLICT (tourney, round, board) DO UPDATE SET"               \
	" room = excluded.room, result = excluded.result,"                     \
	" reason = excluded.reason, deadline_ms = excluded.deadline_ms"

/* A game's result by its room, unless it has one (the club forfeited
 * it): $1 the room, $2 the result, $3 why. */
#define TSTORE_ROOM_RESULT                                                     \
	"UPDATE tourney_games SET result = $2, reason = $3"                    \
	" WHERE room = $1 AND result = ''"

static const char *const tstore_status[] = {
    "open", "playing", "ended", "expired"};

/* Queue the tournament's row. */
void
tstore_tourney(struct tourney *t)
{
	char rounds[16], grace[16], ci[24], cinc[24], round[16], created[24];
	char *options = cJSON_PrintUnformatted(t->options);
	const char *v[13];

	if (options == NULL)
		fatal("out of memory");
	snprintf(rounds, sizeof rounds, "%d", t->rounds);
	snprintf(grace, sizeof grace, "%d", t->grace_sec);
	snprintf(ci, sizeof ci, "%lld", (long long)t->clock_initial_ms);
	snprintf(cinc, sizeof cinc, "%lld", (long long)t->clock_inc_ms);
	snprintf(round, sizeof round, "%d", t->round);
	snprintf(created, sizeof created, "%lld", (long long)t->created_ms);
	v[0] = t->id;
	v[1] = t->g->name;
	v[2] = options;
	v[3] = t->swiss ? "swiss" : "roundrobin";
	v[4] = rounds;
	v[5] = grace;
	v[6] = ci;
	v[7] = cinc;
	v[8] = t->organiser;
	v[9] = tstore_status[t->status];
	v[10] = round;
	v[11] = created;
	v[12] = t->addr[0] != '\0' ? t->addr : NULL;
	storeq_club_row(t->srv->storeq, "tourneys", TSTORE_TOURNEY_PUT, 13, v);
	free(options);
}

/* Queue player i's row (seq: its place in the seeding). */
void
tstore_player(struct tourney *t, int i)
{
	char seq[16], joined[24];
	const char *v[4] = {t->id, t->names[i], seq, joined};

	snprintf(seq, sizeof seq, "%d", i);
	snprintf(joined, sizeof joined, "%lld", (long long)t->joined_ms[i]);
	storeq_club_row(
	    t->srv->storeq, "tourney_players", TSTORE_PLAYER_PUT, 4, v);
}

void
tstore_player_delete(struct tourney *t, const char *name)
{
	const char *v[2] = {t->id, name};

	storeq_club_row(
	    t->srv->storeq, "tourney_players", TSTORE_PLAYER_DELETE, 2, v);
}

/* Queue one game's row. */
void
tstore_game(struct tourney *t, const struct tourney_game *g)
{
	char round[16], board[16], deadline[24];
	const char *v[9];

	snprintf(round, sizeof round, "%d", g->round);
	snprintf(board, sizeof board, "%d", g->board);
	snprintf(deadline, sizeof deadline, "%lld", (long long)g->deadline_ms);
	v[0] = t->id;
	v[1] = round;
	v[2] = board;
	v[3] = t->names[g->white];
	v[4] = g->black >= 0 ? t->names[g->black] : NULL;
	v[5] = g->room[0] != '\0' ? g->room : NULL;
	v[6] = tourney_res_text(g->res, g->black < 0);
	v[7] = g->reason;
	v[8] = deadline;
	storeq_club_row(t->srv->storeq, "tourney_games", TSTORE_GAME_PUT, 9, v);
}

/* Queue the result of the game played in room (winner: the seat that
 * won, the first "white"; -1 a draw) in the change ending the room, on a
 * cluster node without the club: it shares the room's fence, so it is
 * stored exactly when the room's end is, whatever becomes of the club's
 * node (which is told too, and writes the same). */
void
tstore_room_result(
    struct server *srv, const char *room, int winner, const char *reason)
{
	const char *v[3] = {room,
	    tourney_res_text(winner == 0 ? PAIRING_WHITE
	            : winner == 1        ? PAIRING_BLACK
	                                 : PAIRING_DRAW,
	        0),
	    reason};

	storeq_room_row(
	    srv->storeq, room, "tourney_games", TSTORE_ROOM_RESULT, 3, v);
}

/* What tstore_result_of looks for and finds. */
struct tstore_find {
	const char *room;
	enum pairing_res res;
	char *reason;
	size_t len;
	int found;
};

static int
tstore_find_row(void *arg, const char *const *v)
{
	struct tstore_find *f = arg;

	if (v[5] == NULL || v[6] == NULL || strcmp(v[5], f->room) != 0)
		return 0;
	f->res = tourney_res_parse(v[6]);
	snprintf(f->reason, f->len, "%s", v[7] != NULL ? v[7] : "");
	f->found = 1;
	return 0;
}

/* The stored result of the game played in room (a node without the club
 * may have stored it with the room's end): 1 with *res and reason, 0
 * when there is none yet, -1 when the store could not be read (logged).
 * Reads the whole table: only for a game whose room is nowhere. */
int
tstore_result_of(struct server *srv, const char *room, enum pairing_res *res,
    char *reason, size_t len)
{
	struct tstore_find f = {room, PAIRING_NONE, reason, len, 0};
	const struct store_table *tab = NULL;
	int i;

	for (i = 0; i < store_ntables; i++)
		if (strcmp(store_tables[i].name, "tourney_games") == 0)
			tab = &store_tables[i];
	if (tab == NULL ||
	    store_copy_read(srv->reader, tab, tstore_find_row, &f) != 0) {
		log_error("store: reading tourney_games: %s",
		    tab != NULL ? store_errmsg(srv->reader) : "no table");
		return -1;
	}
	*res = f.res;
	return f.found && f.res != PAIRING_NONE;
}

/* The table named name of store_tables, or NULL. */
static const struct store_table *
tstore_table(const char *name)
{
	int i;

	for (i = 0; i < store_ntables; i++)
		if (strcmp(store_tables[i].name, name) == 0)
			return &store_tables[i];
	return NULL;
}

/* A tourneys row, as tourney.c keeps it. */
static int
tstore_load_tourney(void *arg, const char *const *v)
{
	struct server *srv = arg;
	struct tourney *t;
	int i;

	for (i = 0; i < 12; i++)
		if (v[i] == NULL)
			return 0;
	if ((t = tourney_new(srv, v[0])) == NULL)
		return 0;
	t->g = rules_find(v[1]);
	t->options = cJSON_Parse(v[2]);
	if (t->g == NULL || !cJSON_IsObject(t->options)) {
		log_error("tournament %s: game %s or its options unreadable",
		    v[0], v[1]);
		if (t->g == NULL)
			t->g = rules_find("stones");
		if (!cJSON_IsObject(t->options)) {
			cJSON_Delete(t->options);
			t->options = cJSON_CreateObject();
		}
	}
	t->swiss = strcmp(v[3], "swiss") == 0;
	t->rounds = atoi(v[4]);
	t->grace_sec = atoi(v[5]);
	t->clock_initial_ms = strtoll(v[6], NULL, 10);
	t->clock_inc_ms = strtoll(v[7], NULL, 10);
	snprintf(t->organiser, sizeof t->organiser, "%s", v[8]);
	t->status = strcmp(v[9], "ended") == 0 ? TOURNEY_ENDED
	    : strcmp(v[9], "expired") == 0     ? TOURNEY_EXPIRED
	    : strcmp(v[9], "playing") == 0     ? TOURNEY_PLAYING
	                                       : TOURNEY_OPEN;
	t->round = atoi(v[10]);
	t->created_ms = strtoll(v[11], NULL, 10);
	snprintf(t->addr, sizeof t->addr, "%s", v[12] != NULL ? v[12] : "");
	return 0;
}

static int
tstore_load_player(void *arg, const char *const *v)
{
	struct tourney *t;

	if (v[0] == NULL || v[1] == NULL || v[3] == NULL)
		return 0;
	if ((t = tourney_find(v[0])) == NULL)
		return 0;
	tourney_add_player(t, v[1], strtoll(v[3], NULL, 10));
	return 0;
}

static int
tstore_load_game(void *arg, const char *const *v)
{
	struct tourney *t;
	struct tourney_game *g;

	if (v[0] == NULL || v[1] == NULL || v[2] == NULL || v[3] == NULL ||
	    v[6] == NULL || (t = tourney_find(v[0])) == NULL)
		return 0;
	g = tourney_add_game(t);
	g->round = atoi(v[1]);
	g->board = atoi(v[2]);
	g->white = tourney_player_index(t, v[3]);
	g->black = v[4] != NULL ? tourney_player_index(t, v[4]) : -1;
	if (g->white < 0 || (v[4] != NULL && g->black < 0)) {
		log_error("tournament %s: a game of round %s names a player "
		          "it lacks; left out",
		    v[0], v[1]);
		t->ngames--;
		return 0;
	}
	snprintf(g->room, sizeof g->room, "%s", v[5] != NULL ? v[5] : "");
	g->res = tourney_res_parse(v[6]);
	snprintf(g->reason, sizeof g->reason, "%s", v[7] != NULL ? v[7] : "");
	g->deadline_ms = v[8] != NULL ? strtoll(v[8], NULL, 10) : 0;
	return 0;
}

/* Every tournament back from the store's reader: rows, then players (in
 * their seeding), then games. 0, or -1 (logged). */
int
tstore_load(struct server *srv)
{
	static const char *const names[3] = {
	    "tourneys", "tourney_players", "tourney_games"};
	static const store_row_cb cbs[3] = {
	    tstore_load_tourney, tstore_load_player, tstore_load_game};
	int i;

	for (i = 0; i < 3; i++) {
		const struct store_table *tab = tstore_table(names[i]);

		if (tab == NULL ||
		    store_copy_read(srv->reader, tab, cbs[i], srv) != 0) {
			log_error("store: reading %s: %s", names[i],
			    tab != NULL ? store_errmsg(srv->reader)
			                : "no table");
			return -1;
		}
	}
	return 0;
}
