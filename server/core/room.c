/*
 * room.c: a room and the game in it: made from a game and its options,
 * seats and watchers, events numbered by seq, playing a move (stored before
 * anyone hears of it), automatic passes, clocks and flag fall, players
 * leaving and coming back, and the end of a game.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "server/core/core.h"
#include "server/net/limit.h"
#include "server/store/store.h"
#include "server/store/storeq.h"

/* Call member `hook` of every registered room_hooks table that has it. */
#define ROOM_HOOKS(srv, hook, ...)                                             \
	do {                                                                   \
		int hk_;                                                       \
		for (hk_ = 0; hk_ < (srv)->nroom_hooks; hk_++)                 \
			if ((srv)->room_hooks[hk_]->hook != NULL)              \
				(srv)->room_hooks[hk_]->hook(__VA_ARGS__);     \
	} while (0)

/* A layer above registers what it does when rooms change (at start, in
 * the order they are to run). */
void
room_hooks_add(struct server *srv, const struct room_hooks *h)
{
	if (srv->nroom_hooks == SERVER_ROOM_HOOKS_MAX)
		fatal("room hooks: more than %d tables", SERVER_ROOM_HOOKS_MAX);
	srv->room_hooks[srv->nroom_hooks++] = h;
}

/* Passes the server may play in a row after one move: each side at most
 * once, since two passes in a row mean neither side can move. */
#define ROOM_PASSES_MAX 2
/* Seconds before a bot whose move was refused is asked again. */
#define ROOM_RETRY_SEC 1
/* Watchers' comings and goings a room hears of one by one (a joined or
 * left event each), at most this many a second, in bursts of so many:
 * a few people arriving to watch are each named; a crowd, or guests
 * cycling watch and leave, would send the players an event each (issue
 * 30: 172 a second from 20 guests), and are counted instead. */
#define ROOM_WATCHER_NEWS_PER_SEC 1
#define ROOM_WATCHER_NEWS_BURST 8
/* From this many watchers on, none is named: a room watched by a crowd
 * hears only how many watch (a quarter of the default 64 slots). */
#define ROOM_WATCHERS_MANY 16
/* A counted room's watchers event comes at most this often (ms), when
 * the count changed: the "few seconds" a player waits to see it. */
#define ROOM_WATCHERS_EVERY_MS 3000
/* A lean moved event printed from its template: a room id
 * (SERVER_ROOM_ID_MAX), a notation (SERVER_MOVE_TEXT_MAX), two seat names,
 * two scores and two clocks fit with room to spare; one that does not
 * is made as a tree. */
#define ROOM_LEAN_MOVED_MAX 512

struct room *
room_find(struct server *srv, const char *id)
{
	struct table_link *l = table_find(&srv->rooms_by_id, id);

	return l == NULL ? NULL : TABLE_ITEM(l, struct room, by_id);
}

/* The room (with its id set) joins the server: listed, indexed by id, and
 * linked from its seated players and its creator. */
void
room_add(struct room *r)
{
	struct server *srv = r->srv;
	int i;

	TAILQ_INSERT_TAIL(&srv->rooms, r, entry);
	r->in_server = 1;
	if (srv->rooms_by_id.nchains == 0)
		table_init(&srv->rooms_by_id, SERVER_ROOM_BUCKETS);
	table_add(&srv->rooms_by_id, &r->by_id, r->id);
	for (i = 0; i < r->g->seats; i++)
		if (r->seats[i].player != NULL)
			room_sync_member(r, r->seats[i].player);
	if (player_name_valid(r->creator))
		room_sync_member(r, player_get(srv, r->creator));
	ROOM_HOOKS(srv, added, r);
	lobby_touch(r);
}

/* p no longer points at r: out of its rooms, and not its connection's
 * current room. */
static void
room_unlink(struct room *r, struct player *p)
{
	player_room_del(p, r);
	if (p->conn != NULL && p->conn->current == r)
		p->conn->current = NULL;
}

/* The room leaves memory (closed, or finished and retired; the store
 * keeps what it must): unlinked from everyone who pointed at it, then
 * freed. Players left with neither a connection nor a room go too. */
void
room_forget(struct room *r)
{
	struct server *srv = r->srv;
	struct player **who;
	int n = 0, i, j;

	who = xmalloc((size_t)(r->nwatchers + 3) * sizeof *who);
	for (i = 0; i < r->g->seats; i++)
		if (r->seats[i].player != NULL)
			who[n++] = r->seats[i].player;
	for (i = 0; i < r->nwatchers; i++)
		who[n++] = r->watchers[i];
	if ((who[n] = player_find(srv, r->creator)) != NULL)
		n++;
	TAILQ_REMOVE(&srv->rooms, r, entry);
	table_del(&srv->rooms_by_id, &r->by_id);
	ROOM_HOOKS(srv, gone, r);
	lobby_touch(r);
	for (i = 0; i < n; i++)
		room_unlink(r, who[i]);
	room_free(r);
	for (i = 0; i < n; i++) {
		if (who[i] == NULL || who[i]->conn != NULL ||
		    who[i]->nrooms > 0)
			continue;
		for (j = i + 1; j < n; j++)
			if (who[j] == who[i])
				who[j] = NULL;
		player_release(srv, who[i]);
	}
	free(who);
}

/* Point the rules' option array at the strings of r->options. */
static void
room_opts_from_json(struct room *r)
{
	cJSON *it;

	r->nopts = 0;
	cJSON_ArrayForEach(it, r->options) {
		if (r->nopts == PROTO_MAX_OPTIONS || !cJSON_IsString(it))
			continue;
		if (strcmp(it->string, RATING_OPT) == 0)
			continue; /* the server's (rating.c), not the game's */
		r->opts[r->nopts].key = it->string;
		r->opts[r->nopts].value = it->valuestring;
		r->nopts++;
	}
}

/* Set up r->st from the options (rules_start) and keep it as the game's
 * start. 0 or -1 with the reason. */
static int
room_init_state(struct room *r, char *err, size_t errlen)
{
	if (rules_start(r->g, r->st, r->opts, r->nopts, err, errlen) != 0)
		return -1;
	memcpy(r->start, r->st, r->g->state_size);
	return 0;
}

/* Is the game loaded from a board file or a position (so that nothing in
 * it is random)? */
static int
room_loaded(const cJSON *options)
{
	return cJSON_GetObjectItemCaseSensitive(options, RULES_OPT_FILE) !=
	    NULL ||
	    cJSON_GetObjectItemCaseSensitive(options, RULES_OPT_POSITION) !=
	    NULL;
}

/* A new room for game g with options (an object of strings, taken over).
 * A game with a `seed` option gets a random one when none is given (and
 * the game is not loaded from a file or a position, which leave nothing
 * to chance), so the stored options replay the same game. NULL with the
 * reason in err. */
struct room *
room_new(struct server *srv, const struct rules_game *g, cJSON *options,
    int game_no, char *err, size_t errlen)
{
	struct room *r = xcalloc(1, sizeof *r);

	r->srv = srv;
	r->g = g;
	r->options = options;
	if (rules_has_option(g, RULES_OPT_SEED) &&
	    cJSON_GetObjectItemCaseSensitive(options, RULES_OPT_SEED) == NULL &&
	    !room_loaded(options)) {
		char seed[16];

		snprintf(
		    seed, sizeof seed, "%u", randombytes_uniform(2147483647U));
		cJSON_AddStringToObject(options, RULES_OPT_SEED, seed);
	}
	room_opts_from_json(r);
	r->st = xcalloc(1, g->state_size);
	r->start = xcalloc(1, g->state_size);
	r->draw_offer = -1;
	r->takeback_offer = -1;
	r->rated = -1;
	r->game_no = game_no;
	r->created_ms = r->updated_ms = clock_now_ms();
	if (room_init_state(r, err, errlen) != 0) {
		room_free(r);
		return NULL;
	}
	return r;
}

/* Give the room's game new options (taken over) and set it up from them
 * at its start, with no move played; for restart at a level's start. 0,
 * or -1 with the reason (then nothing changed and o is freed). */
int
room_reset_options(struct room *r, cJSON *o, char *err, size_t errlen)
{
	cJSON *old = r->options;
	void *st = xmalloc(r->g->state_size);

	memcpy(st, r->st, r->g->state_size);
	r->options = o;
	room_opts_from_json(r);
	if (room_init_state(r, err, errlen) != 0) {
		r->options = old;
		room_opts_from_json(r);
		memcpy(r->st, st, r->g->state_size);
		cJSON_Delete(o);
		free(st);
		return -1;
	}
	cJSON_Delete(old);
	free(st);
	r->nhist = 0;
	return 0;
}

/* Free a room's memory; it must not be in the server (room_forget() takes
 * a room out first; room_new's and recovery's rejects never were in). */
void
room_free(struct room *r)
{
	if (r->flag_timer != NULL)
		event_free(r->flag_timer);
	if (r->bot_timer != NULL)
		event_free(r->bot_timer);
	if (r->retire_timer != NULL)
		event_free(r->retire_timer);
	if (r->watchers_timer != NULL)
		event_free(r->watchers_timer);
	cJSON_Delete(r->options);
	cJSON_Delete(r->result);
	cJSON_Delete(r->chat);
	free(r->st);
	free(r->start);
	free(r->watchers);
	free(r->hist);
	free(r);
}

/* A seat by name ("white", any case) or number from 1; -1 when none. */
int
room_seat_index(const struct rules_game *g, const char *s)
{
	char *end;
	long n;
	int i;

	for (i = 0; i < g->seats; i++)
		if (strcasecmp(g->seat_names[i], s) == 0)
			return i;
	n = strtol(s, &end, 10);
	if (*s != '\0' && *end == '\0' && n >= 1 && n <= g->seats)
		return (int)n - 1;
	return -1;
}

/* At shutdown: every room freed (players are freed after, all at once). */
void
room_free_all(struct server *srv)
{
	struct room *r;

	while ((r = TAILQ_FIRST(&srv->rooms)) != NULL) {
		TAILQ_REMOVE(&srv->rooms, r, entry);
		room_free(r);
	}
	table_free(&srv->rooms_by_id);
	lobby_free(srv);
}

int
room_seat_of(const struct room *r, const struct player *p)
{
	int i;

	for (i = 0; i < r->g->seats; i++)
		if (r->seats[i].player == p && p != NULL)
			return i;
	return -1;
}

int
room_is_watcher(const struct room *r, const struct player *p)
{
	int i;

	for (i = 0; i < r->nwatchers; i++)
		if (r->watchers[i] == p)
			return 1;
	return 0;
}

/* Does the room point at the player (seat, watcher or creator)? */
static int
room_holds(const struct room *r, const struct player *p)
{
	return room_seat_of(r, p) >= 0 || room_is_watcher(r, p) ||
	    strcmp(r->creator, p->name) == 0;
}

/* After a change to the room's seats or watchers: the player's list of
 * rooms says again whether this room holds them. */
void
room_sync_member(struct room *r, struct player *p)
{
	if (room_holds(r, p))
		player_room_add(p, r);
	else
		room_unlink(r, p);
}

/* The player watches the room (no check of the limit). */
int
room_add_watcher(struct room *r, struct player *p)
{
	if (room_is_watcher(r, p))
		return 0;
	r->watchers = xrealloc(
	    r->watchers, (size_t)(r->nwatchers + 1) * sizeof *r->watchers);
	r->watchers[r->nwatchers++] = p;
	player_room_add(p, r);
	ROOM_HOOKS(r->srv, watcher, r, p, 1);
	return 1;
}

void
room_remove_watcher(struct room *r, struct player *p)
{
	int i;

	for (i = 0; i < r->nwatchers; i++) {
		if (r->watchers[i] == p) {
			ROOM_HOOKS(r->srv, watcher, r, p, 0);
			r->watchers[i] = r->watchers[--r->nwatchers];
			room_sync_member(r, p);
			return;
		}
	}
}

static int
room_cmp_number(const void *a, const void *b)
{
	const struct room *x = *(struct room *const *)a,
	                  *y = *(struct room *const *)b;

	return (x->number > y->number) - (x->number < y->number);
}

/* The rooms that hold the player, oldest first, in a malloc'd array of
 * *n (free it). */
struct room **
room_sorted(const struct player *p, int *n)
{
	struct room **a = xmalloc((size_t)(p->nrooms + 1) * sizeof *a);

	if (p->nrooms > 0) {
		memcpy(a, p->rooms, (size_t)p->nrooms * sizeof *a);
		qsort(a, (size_t)p->nrooms, sizeof *a, room_cmp_number);
	}
	*n = p->nrooms;
	return a;
}

/* Unfinished rooms a player sits in or created (bot games included). */
int
room_count_for(const struct player *p)
{
	int i, n = 0;

	for (i = 0; i < p->nrooms; i++) {
		const struct room *r = p->rooms[i];

		if (r->status != ROOM_ENDED &&
		    (room_seat_of(r, p) >= 0 ||
		        strcmp(r->creator, p->name) == 0))
			n++;
	}
	return n;
}

/* A finished room nobody is in: no watcher, and every seated person has
 * left it or is offline. */
static int
room_idle(const struct room *r)
{
	int i;

	if (r->nwatchers > 0)
		return 0;
	for (i = 0; i < r->g->seats; i++) {
		const struct room_seat *s = &r->seats[i];

		if (s->player != NULL && s->player->conn != NULL && !s->gone)
			return 0;
	}
	return 1;
}

/* The retire timer: a finished room leaves memory once idle or once
 * --keep-ended seconds have passed since its end; a rematch keeps it. */
static void
room_retire_fire(evutil_socket_t fd, short what, void *arg)
{
	struct room *r = arg;
	int64_t left = r->ended_mono_ms +
	    (int64_t)r->srv->cfg.ended_keep_sec * 1000 - clock_mono_ms();
	struct timeval tv;

	if (r->status != ROOM_ENDED)
		return;
	if (!room_idle(r) && left > 0) {
		tv.tv_sec = (time_t)(left / 1000);
		tv.tv_usec = (suseconds_t)(left % 1000) * 1000;
		evtimer_add(r->retire_timer, &tv);
		return;
	}
	log_info("room %s leaves memory (finished%s)", r->id,
	    left > 0 ? ", nobody in it" : "");
	/* Its kept games are in the games table (queued before): its row
	 * and moves go (left behind by a stop before the delete commits:
	 * recovery prunes them). */
	storeq_room_delete(r->srv->storeq, r->id);
	room_forget(r);
}

/* Arm the retire timer of a finished room: at once when it is idle, else
 * for the end of its keep time. Never frees the room here, so any caller
 * may go on using it. */
void
room_check_retire(struct room *r)
{
	struct timeval now = {0, 0}, keep = {r->srv->cfg.ended_keep_sec, 0};

	if (r->status != ROOM_ENDED || r->srv->shutting_down)
		return;
	if (r->retire_timer == NULL &&
	    (r->retire_timer =
	            evtimer_new(r->srv->base, room_retire_fire, r)) == NULL)
		fatal("out of memory");
	if (room_idle(r))
		evtimer_add(r->retire_timer, &now);
	else if (!evtimer_pending(r->retire_timer, NULL))
		evtimer_add(r->retire_timer, &keep);
}

/* Milliseconds left on a seat's clock now (the one running included). */
static int64_t
room_clock_left(const struct room *r, int seat)
{
	int64_t left = r->clock_ms[seat];

	if (r->status == ROOM_PLAYING && r->g->turn(r->st) == seat)
		left -= room_clock_now(r) - r->turn_start_ms;
	return left > 0 ? left : 0;
}

/* The clocks (null untimed): live, charged up to now, or as they stood
 * when the turn began, which is exact for started and moved however long
 * the store took. */
static cJSON *
room_clocks(const struct room *r, int live)
{
	cJSON *o;
	int i;

	if (r->clock_initial_ms == 0)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	for (i = 0; i < r->g->seats; i++)
		proto_add_int(o, r->g->seat_names[i],
		    live ? room_clock_left(r, i) : r->clock_ms[i]);
	return o;
}

/* The board as an array of row strings. */
static cJSON *
room_board(const struct room *r)
{
	char buf[RULES_TEXT_MAX];
	cJSON *rows = cJSON_CreateArray();
	char *p, *nl;

	if (r->g->board_rows(r->st, buf, sizeof buf) < 0)
		return rows;
	for (p = buf; *p != '\0'; p = nl + 1) {
		nl = strchr(p, '\n');
		if (nl == NULL) {
			cJSON_AddItemToArray(rows, cJSON_CreateString(p));
			break;
		}
		*nl = '\0';
		cJSON_AddItemToArray(rows, cJSON_CreateString(p));
	}
	return rows;
}

/*
 * The game's picture.  A two-player picture ends with one line on whose
 * turn it is (rules.h); when the game ended off the board (resignation,
 * timeout, agreement, abandonment) that line says how it ended instead.
 * Its length, or -1.
 */
int
room_picture(const struct room *r, char *buf, size_t len)
{
	const cJSON *res = r->result;
	const char *winner, *reason;
	struct rules_status st;
	char *last;
	int n = r->g->render(r->st, buf, len);

	if (n < 0 || r->status != ROOM_ENDED || r->g->seats != 2 || res == NULL)
		return n;
	rules_status(r->g, r->st, &st);
	if (st.result != RULES_PLAYING || n < 1 || buf[n - 1] != '\n')
		return n;
	buf[n - 1] = '\0';
	last = strrchr(buf, '\n');
	last = last == NULL ? buf : last + 1;
	winner = cJSON_GetStringValue(cJSON_GetObjectItem(res, "winner"));
	reason = cJSON_GetStringValue(cJSON_GetObjectItem(res, "reason"));
	n = (int)(last - buf);
	n += snprintf(last, len - (size_t)n, "game over (%s): %s%s\n",
	    reason != NULL ? reason : "ended", winner != NULL ? winner : "draw",
	    winner != NULL ? " wins" : "");
	return n < (int)len ? n : -1;
}

/* Does c read text mode? */
static int
room_reads_text(const struct conn *c)
{
	return c->mode == CONN_MODE_TEXT;
}

/* Does c read a moved event's full form (the mover's name, the sentence,
 * the status, the position and rows): text mode, or JSON in the full
 * form (anything but hello's "events":"lean")? */
static int
room_reads_full(const struct conn *c)
{
	return c->mode == CONN_MODE_TEXT || !c->lean;
}

/* Does anyone an event of the room goes to (room_broadcast: the seated
 * players online and the watchers) read it as reads says? */
static int
room_audience(const struct room *r, int (*reads)(const struct conn *))
{
	int i;

	for (i = 0; i < r->g->seats; i++) {
		const struct player *p = r->seats[i].player;

		if (p != NULL && p->conn != NULL && reads(p->conn))
			return 1;
	}
	for (i = 0; i < r->nwatchers; i++)
		if (r->watchers[i]->conn != NULL && reads(r->watchers[i]->conn))
			return 1;
	return 0;
}

/* An event's "_picture", the board text mode shows: drawn only when
 * someone in the room reads text mode (JSON clients never see it). */
void
room_add_picture(const struct room *r, cJSON *ev)
{
	char buf[RULES_TEXT_MAX];

	if (room_audience(r, room_reads_text) &&
	    room_picture(r, buf, sizeof buf) >= 0)
		cJSON_AddStringToObject(ev, "_picture", buf);
}

/* The position string and the board rows. */
static void
room_add_board(const struct room *r, cJSON *o)
{
	char buf[RULES_TEXT_MAX];

	if (r->g->to_position(r->st, buf, sizeof buf) >= 0)
		cJSON_AddStringToObject(o, "position", buf);
	cJSON_AddItemToObject(o, "board", room_board(r));
}

/* The state's position, board and (public) picture. */
static void
room_add_position(const struct room *r, cJSON *o)
{
	char buf[RULES_TEXT_MAX];

	room_add_board(r, o);
	if (room_picture(r, buf, sizeof buf) >= 0)
		cJSON_AddStringToObject(o, "picture", buf);
}

/* An event's position, board and (for text mode) picture. */
static void
room_add_position_event(const struct room *r, cJSON *ev)
{
	room_add_board(r, ev);
	room_add_picture(r, ev);
}

const char *
room_status_name(enum room_status s)
{
	return proto_room_status_name((enum proto_room_status)s);
}

/* What the rooms verb lists of a room. */
cJSON *
room_summary(const struct room *r)
{
	cJSON *o = cJSON_CreateObject(), *seats;
	int i;

	cJSON_AddStringToObject(o, "room", r->id);
	cJSON_AddStringToObject(o, "game", r->g->name);
	cJSON_AddStringToObject(o, "status", room_status_name(r->status));
	seats = cJSON_AddArrayToObject(o, "seats");
	for (i = 0; i < r->g->seats; i++) {
		const struct room_seat *s = &r->seats[i];
		cJSON *one = cJSON_CreateObject();

		cJSON_AddStringToObject(one, "seat", r->g->seat_names[i]);
		if (s->player != NULL)
			cJSON_AddStringToObject(one, "name", s->player->name);
		else
			cJSON_AddNullToObject(one, "name");
		if (s->bot > 0)
			cJSON_AddNumberToObject(one, "bot", s->bot);
		else
			cJSON_AddNullToObject(one, "bot");
		if (s->bot > 0 && s->depth > 0)
			cJSON_AddNumberToObject(one, "depth", s->depth);
		cJSON_AddBoolToObject(one, "connected",
		    s->bot > 0 || (s->player != NULL && !s->gone));
		cJSON_AddItemToArray(seats, one);
	}
	cJSON_AddNumberToObject(o, "watchers", r->nwatchers);
	cJSON_AddItemToObject(o, "clock",
	    room_clock_summary(r->clock_initial_ms, r->clock_inc_ms));
	return o;
}

/* A time control as summaries show it: {"initial": s, "increment": s},
 * or null untimed. */
cJSON *
room_clock_summary(long long initial_ms, long long inc_ms)
{
	cJSON *clk;

	if (initial_ms <= 0)
		return cJSON_CreateNull();
	clk = cJSON_CreateObject();
	cJSON_AddNumberToObject(clk, "initial", (double)(initial_ms / 1000));
	cJSON_AddNumberToObject(clk, "increment", (double)(inc_ms / 1000));
	return clk;
}

static cJSON *
room_turn(const struct room *r)
{
	if (r->status != ROOM_PLAYING && r->status != ROOM_ADJOURNED)
		return cJSON_CreateNull();
	return cJSON_CreateString(r->g->seat_names[r->g->turn(r->st)]);
}

/* One member of the room's summary, so state and events describe seats
 * and the time control exactly as the rooms verb does. */
static cJSON *
room_summary_part(const struct room *r, const char *key)
{
	cJSON *summary = room_summary(r);
	cJSON *part = cJSON_DetachItemFromObject(summary, key);

	cJSON_Delete(summary);
	return part;
}

/* The full state, its history from the first move (one page). */
cJSON *
room_state(const struct room *r)
{
	return room_state_since(r, 0);
}

/* The moves after move `since`, as many as one page holds (at most
 * SERVER_STATE_HISTORY_MAX, within its share of --max-output, at least
 * one), into the array h. */
static void
room_history_page(const struct room *r, int since, cJSON *h)
{
	size_t budget = r->srv->cfg.output_max / SERVER_STATE_SHARE, used = 0;
	int i;

	for (i = since; i < r->nhist && i - since < SERVER_STATE_HISTORY_MAX;
	     i++) {
		/* A move's entry: its two texts and about 48 bytes more. */
		size_t cost = strlen(r->hist[i].notation) +
		    strlen(r->hist[i].sentence) + 48;
		cJSON *m;

		if (i > since && used + cost > budget)
			break;
		used += cost;
		m = cJSON_CreateObject();
		proto_add_int(m, "n", i + 1);
		if (r->hist[i].seat >= 0)
			cJSON_AddStringToObject(
			    m, "seat", r->g->seat_names[r->hist[i].seat]);
		else
			cJSON_AddNullToObject(m, "seat");
		cJSON_AddStringToObject(m, "move", r->hist[i].notation);
		cJSON_AddStringToObject(m, "text", r->hist[i].sentence);
		cJSON_AddItemToArray(h, m);
	}
}

/* The seat name of seat (an offer's asker), or null when no offer is
 * pending (-1) or the game is not under way. */
static cJSON *
room_offer_json(const struct room *r, int seat)
{
	if (seat < 0 || seat >= r->g->seats || r->status != ROOM_PLAYING)
		return cJSON_CreateNull();
	return cJSON_CreateString(r->g->seat_names[seat]);
}

/* The terms of the game under way, for a state that is read again (a
 * reloaded page, a client back in the room): whether it is rated (null
 * while undecided or for one player; unrated's why when not), the
 * tournament it belongs to (a tournament room's creator is "~t" and the
 * number of tournament "tN": tourney.c) and the pending draw offer and
 * take-back request (the asking seat). */
static void
room_state_terms(const struct room *r, cJSON *o)
{
	if (r->rated < 0)
		cJSON_AddNullToObject(o, "rated");
	else
		cJSON_AddBoolToObject(o, "rated", r->rated);
	if (r->rated == 0)
		cJSON_AddStringToObject(o, "unrated", r->unrated);
	if (strncmp(r->creator, "~t", 2) == 0 && r->creator[2] != '\0')
		cJSON_AddStringToObject(o, "tourney", r->creator + 1);
	else
		cJSON_AddNullToObject(o, "tourney");
	cJSON_AddItemToObject(
	    o, "draw_offer", room_offer_json(r, r->draw_offer));
	cJSON_AddItemToObject(
	    o, "takeback_offer", room_offer_json(r, r->takeback_offer));
}

/* The full state, as the state verb gives it, with one page of history:
 * the moves after move `since` (history_since), and history_total. */
cJSON *
room_state_since(const struct room *r, int since)
{
	cJSON *o = cJSON_CreateObject(), *h;

	cJSON_AddStringToObject(o, "room", r->id);
	cJSON_AddStringToObject(o, "game", r->g->name);
	cJSON_AddStringToObject(o, "title", r->g->title);
	cJSON_AddItemToObject(o, "options", cJSON_Duplicate(r->options, 1));
	cJSON_AddItemToObject(o, "seats", room_summary_part(r, "seats"));
	cJSON_AddItemToObject(o, "turn", room_turn(r));
	cJSON_AddStringToObject(o, "status", room_status_name(r->status));
	if (r->result != NULL)
		cJSON_AddItemToObject(
		    o, "result", cJSON_Duplicate(r->result, 1));
	else
		cJSON_AddNullToObject(o, "result");
	room_add_position(r, o);
	h = cJSON_AddArrayToObject(o, "history");
	since = since < 0 ? 0 : since > r->nhist ? r->nhist : since;
	room_history_page(r, since, h);
	cJSON_AddNumberToObject(o, "history_since", since);
	cJSON_AddNumberToObject(o, "history_total", r->nhist);
	cJSON_AddItemToObject(o, "clocks", room_clocks(r, 1));
	cJSON_AddItemToObject(o, "clock", room_summary_part(r, "clock"));
	proto_add_int(o, "seq", r->seq);
	cJSON_AddBoolToObject(o, "private", r->is_private);
	cJSON_AddNumberToObject(o, "watchers", r->nwatchers);
	cJSON_AddNumberToObject(o, "game_no", r->game_no);
	room_state_terms(r, o);
	return o;
}

/* A new event of this room, with the next seq (only a room's events). */
cJSON *
room_event(struct room *r, enum proto_event_kind e)
{
	cJSON *ev;

	/* A moved event's seq is stored with its move; any other event's
	 * seq is stored with the room when it has been sent, so that seq
	 * never goes back after a restart. */
	if (!proto_event_in_room(e))
		fatal("room_event: %s is not a room's event",
		    proto_event_name(e));
	if (e != PROTO_EV_MOVED && r->seq + 1 > r->seq_stored)
		r->seq_dirty = 1;
	ev = proto_event(e, r->id, ++r->seq);
	if (ev == NULL)
		fatal("out of memory");
	return ev;
}

/* The guests (anonymous watchers, session.c) among r's watchers. */
int
room_guests(const struct room *r)
{
	int i, n = 0;

	for (i = 0; i < r->nwatchers; i++)
		n +=
		    r->watchers[i]->conn != NULL && r->watchers[i]->conn->guest;
	return n;
}

/* The count of r's watchers, when it changed since the last: a watchers
 * event (no seq; stored nowhere). */
static void
room_watchers_cb(evutil_socket_t fd, short what, void *arg)
{
	struct room *r = arg;
	cJSON *ev;

	if (!r->watchers_dirty)
		return;
	r->watchers_dirty = 0;
	ev = proto_event(PROTO_EV_WATCHERS, r->id, 0);
	if (ev == NULL)
		fatal("out of memory");
	proto_add_int(ev, "watchers", r->nwatchers);
	proto_add_int(ev, "guests", room_guests(r));
	room_broadcast(r, ev);
}

/* A watcher of r is coming or going (r->nwatchers counts it): may the
 * room hear of it in its own joined or left event? 1, taking one of the
 * room's ROOM_WATCHER_NEWS; 0 when the room has ROOM_WATCHERS_MANY
 * watchers or its news ran out: then it is counted in a watchers event
 * within ROOM_WATCHERS_EVERY_MS instead, so that a crowd, or guests
 * cycling watch and leave, cost the players a few events, not one each. */
int
room_watcher_news(struct room *r)
{
	static const struct timeval every = {ROOM_WATCHERS_EVERY_MS / 1000,
	    (ROOM_WATCHERS_EVERY_MS % 1000) * 1000};

	if (r->nwatchers < ROOM_WATCHERS_MANY &&
	    bucket_has(&r->watcher_news, ROOM_WATCHER_NEWS_PER_SEC / 1000.0,
	        ROOM_WATCHER_NEWS_BURST, clock_mono_ms())) {
		r->watcher_news.tokens -= 1.0;
		return 1;
	}
	r->watchers_dirty = 1;
	if (r->watchers_timer == NULL)
		r->watchers_timer =
		    evtimer_new(r->srv->base, room_watchers_cb, r);
	if (!evtimer_pending(r->watchers_timer, NULL))
		evtimer_add(r->watchers_timer, &every);
	return 0;
}

/* Send an event to every seated player online and every watcher; ev is
 * freed. */
void
room_broadcast(struct room *r, cJSON *ev)
{
	struct net_cache cache = {NULL, NULL, NULL};
	int i;

	lobby_event(r, ev);
	for (i = 0; i < r->g->seats; i++) {
		struct player *p = r->seats[i].player;

		if (p != NULL && p->conn != NULL)
			net_send_cached(p->conn, ev, &cache);
	}
	for (i = 0; i < r->nwatchers; i++)
		if (r->watchers[i]->conn != NULL)
			net_send_cached(r->watchers[i]->conn, ev, &cache);
	net_cache_clear(&cache);
	cJSON_Delete(ev);
	if (r->seq_dirty) {
		r->seq_dirty = 0;
		room_save(r);
	}
}

/* Queue the room's row (its seq as it is now): not a verb's change of
 * its own (room_broadcast's seq, an adjournment); its output is held. */
void
room_save(struct room *r)
{
	r->updated_ms = clock_now_ms();
	write_room(r);
	r->seq_stored = r->seq;
}

/* A finished one-player game's options, kept for the player's next create
 * (the seeds save the last level and board). */
static void
room_save_progress(struct room *r)
{
	struct player *p = r->seats[0].player;
	cJSON *o;
	char *json;

	if (r->g->seats != 1 || p == NULL || r->status != ROOM_ENDED)
		return;
	o = cJSON_CreateObject();
	cJSON_AddItemToObject(o, "options", cJSON_Duplicate(r->options, 1));
	cJSON_AddStringToObject(o, "result",
	    cJSON_GetStringValue(cJSON_GetObjectItem(r->result, "result")));
	json = cJSON_PrintUnformatted(o);
	if (json == NULL)
		fatal("out of memory");
	storeq_progress_put(r->srv->storeq, p->name, r->g->name, json);
	free(json);
	cJSON_Delete(o);
}

/*
 * Hand the store what a verb changed, before anyone hears of it: the
 * room's row with the seq of the nevents events about to be sent, the
 * moves from ply truncate_from on removed (0: none), a finished
 * one-player game's progress and a finished game kept for good. The
 * change is made in memory already and stays: what it causes is held
 * until the store commits it (memory is the truth).
 */
void
room_commit(struct room *r, int nevents, int truncate_from)
{
	struct storeq *q = r->srv->storeq;

	r->updated_ms = clock_now_ms();
	if (truncate_from > 0)
		storeq_move_truncate(q, r->id, r->game_no, truncate_from);
	r->seq += nevents;
	write_room(r);
	r->seq -= nevents;
	room_save_progress(r);
	/* A game that has just ended is kept for good, in the same group
	 * as its end. */
	if (r->archive_due && r->status == ROOM_ENDED) {
		archive_game(r);
		r->archive_due = 0;
	}
	r->seq_stored = r->seq + nevents;
}

static void room_flag_fell(evutil_socket_t fd, short what, void *arg);

/* Arm (or stop) the flag timer for the side to move. */
void
room_clock_arm(struct room *r)
{
	struct timeval tv;
	int64_t left;

	if (r->flag_timer == NULL &&
	    (r->flag_timer = evtimer_new(r->srv->base, room_flag_fell, r)) ==
	        NULL)
		fatal("out of memory");
	evtimer_del(r->flag_timer);
	if (r->clock_initial_ms == 0 || r->status != ROOM_PLAYING ||
	    r->g->seats < 2 || r->clock_stop_ms != 0)
		return;
	left = room_clock_left(r, r->g->turn(r->st));
	tv.tv_sec = (time_t)(left / 1000);
	tv.tv_usec = (suseconds_t)(left % 1000) * 1000;
	evtimer_add(r->flag_timer, &tv);
}

static void
room_flag_fell(evutil_socket_t fd, short what, void *arg)
{
	struct room *r = arg;
	int seat;

	if (r->status != ROOM_PLAYING)
		return;
	if (r->clock_initial_ms == 0 || r->clock_stop_ms != 0)
		return;
	seat = r->g->turn(r->st);
	if (room_clock_left(r, seat) > 0) {
		room_clock_arm(r);
		return;
	}
	room_end(r, "win", 1 - seat, "timeout");
}

/* Tell the room the clocks (a game with a clock only); running: as they
 * stand now, the side to move's clock charged. A stopped room's event
 * says so. */
static void
room_clock_event(struct room *r, int running)
{
	cJSON *ev;

	if (r->clock_initial_ms == 0)
		return;
	ev = room_event(r, PROTO_EV_CLOCK);
	cJSON_AddItemToObject(ev, "clocks", room_clocks(r, running));
	if (r->clock_stop_ms != 0)
		cJSON_AddBoolToObject(ev, "stopped", 1);
	room_broadcast(r, ev);
}

/* The time the clocks read: now, or when they were stopped. */
int64_t
room_clock_now(const struct room *r)
{
	return r->clock_stop_ms != 0 ? r->clock_stop_ms : clock_mono_ms();
}

/* Stop the clocks of a timed game under way (a player cut off by the
 * cluster, not by their own doing): nobody's time runs and no flag falls
 * until room_clock_go; moves are still played. The room hears of it. */
void
room_clock_stop(struct room *r)
{
	if (r->clock_initial_ms == 0 || r->status != ROOM_PLAYING ||
	    r->clock_stop_ms != 0)
		return;
	r->clock_stop_ms = clock_mono_ms();
	if (r->flag_timer != NULL)
		evtimer_del(r->flag_timer);
	room_commit(r, 1, 0);
	room_clock_event(r, 1);
}

/* Start stopped clocks again where they stood: the time they were
 * stopped is charged to nobody. */
void
room_clock_go(struct room *r)
{
	int64_t now = clock_mono_ms();

	if (r->clock_stop_ms == 0)
		return;
	r->turn_start_ms += now - r->clock_stop_ms;
	r->clock_stop_ms = 0;
	if (r->status != ROOM_PLAYING)
		return;
	room_commit(r, 1, 0);
	room_clock_event(r, 1);
	room_clock_arm(r);
}

/* The game begins (or begins again): clocks set; nothing stored or sent
 * yet (room_commit, then room_start_announce). */
void
room_start_prepare(struct room *r)
{
	int i;

	r->status = ROOM_PLAYING;
	r->draw_offer = -1;
	r->takeback_offer = -1;
	for (i = 0; i < 2; i++) {
		r->clock_ms[i] = r->clock_initial_ms;
		r->seats[i].rematch = 0;
	}
	r->turn_start_ms = room_clock_now(r);
	r->rated = -1; /* the club decides (rating.c) */
	r->unrated[0] = '\0';
	ROOM_HOOKS(r->srv, started, r);
}

/* The events room_start_announce sends. */
int
room_start_nevents(const struct room *r)
{
	return r->clock_initial_ms > 0 ? 2 : 1;
}

/* Tell everyone the (stored) game has begun, and let it run. */
void
room_start_announce(struct room *r)
{
	cJSON *ev;

	ev = room_event(r, PROTO_EV_STARTED);
	cJSON_AddItemToObject(ev, "seats", room_summary_part(r, "seats"));
	cJSON_AddItemToObject(ev, "turn", room_turn(r));
	room_add_position_event(r, ev);
	cJSON_AddItemToObject(ev, "clocks", room_clocks(r, 0));
	/* the club's decision, stored with the start (a two-player game) */
	if (r->rated >= 0) {
		cJSON_AddBoolToObject(ev, "rated", r->rated);
		if (!r->rated)
			cJSON_AddStringToObject(ev, "unrated", r->unrated);
	}
	room_broadcast(r, ev);
	room_clock_event(r, 0);
	room_after_move(r);
	player_played_in(r);
}

/* The scores by seat name, or null. */
static cJSON *
room_scores(const struct room *r, const struct rules_status *st)
{
	cJSON *o;
	int i;

	if (st->nscores == 0)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	for (i = 0; i < st->nscores && i < 2; i++) {
		const char *key =
		    i < r->g->seats ? r->g->seat_names[i] : "score";

		cJSON_AddNumberToObject(o, key, st->score[i]);
	}
	return o;
}

/* The level after the one played in r (a level file may have set it), or
 * 0 when the game has no levels. */
long
room_level_after(const struct room *r)
{
	struct rules_status st;

	if (rules_optdesc_find(r->g, RULES_OPT_LEVEL) == NULL)
		return 0;
	rules_status(r->g, r->st, &st);
	return (st.level > 0 ? st.level
	                     : rules_opt_long(
	                           r->g, r->opts, r->nopts, RULES_OPT_LEVEL)) +
	    1;
}

/*
 * A one-player ending in words, with what to type next (the seeds ask
 * "play again?"): "Solved! One peg left on the goal. ...", "No move left:
 * 3 pieces remain. ...". A won level goes on to the next by itself
 * (cmd_auto_next), and says so.
 */
static void
room_solo_message(struct room *r, const char *result, const char *reason,
    const struct rules_status *st)
{
	char why[SERVER_SENTENCE_MAX];
	int left = st->nscores > 0 ? st->score[0] : 0;
	long next = room_level_after(r);

	if (next > 0 && next > rules_optdesc_find(r->g, RULES_OPT_LEVEL)->max)
		next = 0; /* that was the last level */
	snprintf(why, sizeof why, "%s", reason);
	if (why[0] >= 'a' && why[0] <= 'z')
		why[0] = (char)(why[0] - 'a' + 'A');
	if (strcmp(reason, "resignation") == 0)
		proto_sentence(r->result, "message",
		    "You gave up. Play again? Type restart to try again, or "
		    "rematch for a new game.");
	else if (strcmp(result, "solved") == 0 && next > 0)
		proto_sentence(r->result, "message",
		    "Solved! %s. On to level %ld.", why, next);
	else if (strcmp(result, "solved") == 0)
		proto_sentence(r->result, "message",
		    "Solved! %s. Play again? Type restart to play it again, "
		    "or rematch for a new game.",
		    why);
	else if (left > 1)
		proto_sentence(r->result, "message",
		    "%s: %d pieces remain. Play again? Type undo to take back "
		    "a move, restart to try again, or rematch for a new game.",
		    why, left);
	else
		proto_sentence(r->result, "message",
		    "%s. Play again? Type undo to take back a move, restart "
		    "to try again, or rematch for a new game.",
		    why);
	/* the reason is a phrase of its own, translated on its own */
	if (strcmp(reason, "resignation") != 0)
		proto_said_nest(r->result, 0, reason);
}

/* The game is over (in memory: room_commit, then room_end_announce). */
void
room_end_prepare(
    struct room *r, const char *result, int winner, const char *reason)
{
	struct rules_status st;

	rules_status(r->g, r->st, &st);
	if (r->clock_initial_ms > 0 && r->status == ROOM_PLAYING) {
		int seat = r->g->turn(r->st);

		r->clock_ms[seat] = room_clock_left(r, seat);
	}
	r->status = ROOM_ENDED;
	r->draw_offer = -1;
	r->takeback_offer = -1;
	cJSON_Delete(r->result);
	r->result = cJSON_CreateObject();
	cJSON_AddStringToObject(r->result, "result", result);
	if (winner >= 0) {
		const struct player *p = r->seats[winner].player;

		cJSON_AddStringToObject(
		    r->result, "winner", r->g->seat_names[winner]);
		if (p != NULL)
			cJSON_AddStringToObject(
			    r->result, "winner_name", p->name);
		else
			cJSON_AddNullToObject(r->result, "winner_name");
	} else {
		cJSON_AddNullToObject(r->result, "winner");
		cJSON_AddNullToObject(r->result, "winner_name");
	}
	cJSON_AddStringToObject(r->result, "reason", reason);
	cJSON_AddItemToObject(r->result, "scores", room_scores(r, &st));
	if (r->g->seats == 1)
		room_solo_message(r, result, reason, &st);
	r->archive_due = 1;
	if (r->flag_timer != NULL)
		evtimer_del(r->flag_timer);
	ROOM_HOOKS(r->srv, ended, r, result, winner, reason);
}

/* The game is over: handed to the store, then one ended event with
 * result, reason and scores. */
void
room_end(struct room *r, const char *result, int winner, const char *reason)
{
	if (r->status == ROOM_ENDED)
		return;
	room_end_prepare(r, result, winner, reason);
	room_commit(r, 1, 0);
	room_end_announce(r);
}

/* Tell everyone how the (stored) game ended. */
void
room_end_announce(struct room *r)
{
	cJSON *ev = room_event(r, PROTO_EV_ENDED), *it;

	cJSON_ArrayForEach(it, r->result)
		cJSON_AddItemToObject(ev, it->string, cJSON_Duplicate(it, 1));
	room_broadcast(r, ev);
	log_info("room %s ended: %s (%s)", r->id,
	    cJSON_GetStringValue(cJSON_GetObjectItem(r->result, "result")),
	    cJSON_GetStringValue(cJSON_GetObjectItem(r->result, "reason")));
	r->ended_mono_ms = clock_mono_ms();
	room_check_retire(r);
}

/* The clocks after seat's move, charged for its thinking time and given
 * the increment, into clk[]; r is not changed. 0, or -1 when the seat's
 * flag has fallen. */
static int
room_clock_charge(const struct room *r, int seat, int64_t now, int64_t clk[2])
{
	clk[0] = r->clock_ms[0];
	clk[1] = r->clock_ms[1];
	if (r->clock_initial_ms == 0 || seat < 0)
		return 0;
	clk[seat] -= now - r->turn_start_ms;
	if (clk[seat] <= 0)
		return -1;
	clk[seat] += r->clock_inc_ms;
	return 0;
}

/* A moved event's "scores": the game's score per seat in seat order (an
 * array, a few bytes in the lean form); none when the game keeps none. */
static void
room_add_score_list(cJSON *ev, const struct rules_status *st)
{
	cJSON *a;
	int i;

	if (st->nscores == 0)
		return;
	a = cJSON_AddArrayToObject(ev, "scores");
	for (i = 0; i < st->nscores && i < 2; i++)
		cJSON_AddItemToArray(a, proto_int(st->score[i]));
}

/* Append a move to the room's history (play and recovery). */
void
room_hist_push(struct room *r, const struct room_move *mv)
{
	if (r->nhist == r->histcap) {
		r->histcap = r->histcap == 0 ? 64 : r->histcap * 2;
		r->hist =
		    xrealloc(r->hist, (size_t)r->histcap * sizeof *r->hist);
	}
	r->hist[r->nhist++] = *mv;
}

/* Append the JSON string s, or null for NULL (s needs no escaping). */
static void
room_line_name(struct proto_line *l, const char *s)
{
	if (s == NULL) {
		proto_line_str(l, "null");
		return;
	}
	proto_line_str(l, "\"");
	proto_line_str(l, s);
	proto_line_str(l, "\"");
}

/* The lean moved event of seat's move mv as one line into buf, byte for
 * byte what the lean encoding of room_play's tree gives (protocol/
 * events.c: room, seq, seat, move, turn, scores, the clocks in a room
 * with clocks); its length, or -1 when a string would need escaping or
 * it does not fit (then the tree is made). */
static int
room_lean_moved_line(const struct room *r, int seat, const struct room_move *mv,
    const struct rules_status *st, char *buf, size_t len)
{
	struct proto_line l = {buf, len, 0, 0};
	int i;

	if (!proto_json_plain(r->id) || !proto_json_plain(mv->notation))
		return -1;
	proto_line_str(&l, "{\"event\":\"moved\",\"room\":");
	room_line_name(&l, r->id);
	proto_line_str(&l, ",\"seq\":");
	proto_line_int(&l, r->seq + 1);
	proto_line_str(&l, ",\"seat\":");
	room_line_name(&l, seat >= 0 ? r->g->seat_names[seat] : NULL);
	proto_line_str(&l, ",\"move\":");
	room_line_name(&l, mv->notation);
	proto_line_str(&l, ",\"turn\":");
	room_line_name(&l,
	    st->result == RULES_PLAYING ? r->g->seat_names[r->g->turn(r->st)]
	                                : NULL);
	for (i = 0; i < st->nscores && i < 2; i++) {
		proto_line_str(&l, i == 0 ? ",\"scores\":[" : ",");
		proto_line_int(&l, st->score[i]);
	}
	if (st->nscores > 0)
		proto_line_str(&l, "]");
	for (i = 0; r->clock_initial_ms > 0 && i < r->g->seats; i++) {
		proto_line_str(&l, i == 0 ? ",\"clocks\":{" : ",");
		room_line_name(&l, r->g->seat_names[i]);
		proto_line_str(&l, ":");
		proto_line_int(&l, r->clock_ms[i]);
	}
	if (r->clock_initial_ms > 0)
		proto_line_str(&l, "}");
	proto_line_str(&l, "}\n");
	return l.full ? -1 : (int)l.len;
}

/* Send the moved event of seat's move mv, printed from a template, to a
 * room whose readers all take the lean form (JSON: the session's sent
 * hook does nothing for them, see bare_sent): no tree to build, encode
 * and free for the busiest event. 0, or -1 when the tree must be made. */
static int
room_lean_moved_send(struct room *r, int seat, const struct room_move *mv,
    const struct rules_status *st)
{
	char line[ROOM_LEAN_MOVED_MAX];
	int n = room_lean_moved_line(r, seat, mv, st, line, sizeof line), i;

	if (n < 0)
		return -1;
	r->seq++; /* stored with its move (write_move) */
	for (i = 0; i < r->g->seats; i++) {
		struct player *p = r->seats[i].player;

		if (p != NULL && p->conn != NULL)
			net_send(p->conn, line, (size_t)n);
	}
	for (i = 0; i < r->nwatchers; i++)
		if (r->watchers[i]->conn != NULL)
			net_send(r->watchers[i]->conn, line, (size_t)n);
	if (r->seq_dirty) {
		r->seq_dirty = 0;
		room_save(r);
	}
	return 0;
}

/* Play a legal move for seat (-1: the server, for a pass): handed to the
 * store, the position changes and everyone hears of it once the store
 * commits. 0, or -1 when the mover's flag fell. */
int
room_play(
    struct room *r, int seat, struct rules_move m, char *err, size_t errlen)
{
	struct room_move mv;
	struct rules_status st;
	int64_t clk[2], now;
	cJSON *ev;
	int full;

	memset(&mv, 0, sizeof mv);
	mv.m = m;
	mv.seat = seat;
	r->g->format_move(r->st, m, mv.notation, sizeof mv.notation);
	r->g->describe_move(r->st, m, mv.sentence, sizeof mv.sentence);
	now = room_clock_now(r);
	if (room_clock_charge(r, seat, now, clk) != 0) {
		r->clock_ms[seat] = 0;
		room_end(r, "win", 1 - seat, "timeout");
		proto_errf(err, errlen, "your time ran out");
		return -1;
	}
	mv.clock_ms[0] = r->clock_initial_ms ? clk[0] : -1;
	mv.clock_ms[1] = r->clock_initial_ms ? clk[1] : -1;
	write_move(r, &mv, r->nhist + 1);
	/* The move happens in memory now, clocks included. */
	if (r->clock_initial_ms > 0 && seat >= 0) {
		r->clock_ms[0] = clk[0];
		r->clock_ms[1] = clk[1];
		r->turn_start_ms = now;
	}
	r->g->apply(r->st, m);
	room_hist_push(r, &mv);
	r->draw_offer = -1;
	r->takeback_offer = -1;
	r->updated_ms = clock_now_ms();

	/* What only the full form carries (the name, the sentence, the
	 * status, the position and rows) is not made when every reader
	 * takes the lean form, which leaves it out (protocol/events.c): the
	 * position and rows were a third of the event's work, the sentence
	 * with its msgid and arguments a dozen allocations. */
	full = room_audience(r, room_reads_full);
	rules_status(r->g, r->st, &st);
	if (!full && room_lean_moved_send(r, seat, &mv, &st) == 0)
		return 0;
	ev = room_event(r, PROTO_EV_MOVED);
	if (seat >= 0) {
		const struct player *p = r->seats[seat].player;

		cJSON_AddStringToObject(ev, "seat", r->g->seat_names[seat]);
		if (full && p != NULL)
			cJSON_AddStringToObject(ev, "name", p->name);
		else if (full)
			cJSON_AddNullToObject(ev, "name");
	} else {
		cJSON_AddNullToObject(ev, "seat");
		if (full)
			cJSON_AddNullToObject(ev, "name");
	}
	cJSON_AddStringToObject(ev, "move", mv.notation);
	if (full) {
		cJSON_AddStringToObject(ev, "text", mv.sentence);
		proto_said_add(
		    ev, rules_said_of(mv.sentence)); /* a client translates */
	}
	if (st.result == RULES_PLAYING)
		cJSON_AddStringToObject(
		    ev, "turn", r->g->seat_names[r->g->turn(r->st)]);
	else
		cJSON_AddNullToObject(ev, "turn");
	if (full)
		cJSON_AddStringToObject(ev, "status",
		    st.result == RULES_PLAYING ? "playing" : "ended");
	room_add_score_list(ev, &st);
	if (full)
		room_add_position_event(r, ev);
	cJSON_AddItemToObject(ev, "clocks", room_clocks(r, 0));
	room_broadcast(r, ev);
	return 0;
}

/* The only legal move is a pass? Then *m is it. */
static int
room_forced_pass(struct room *r, struct rules_move *m)
{
	struct rules_move moves[2];
	int n = r->g->legal_moves(r->st, moves, 2);

	if (n != 1 || !rules_is_pass(moves[0]))
		return 0;
	*m = moves[0];
	return 1;
}

static const char *
room_result_name(enum rules_result res)
{
	switch (res) {
	case RULES_WIN:
		return "win";
	case RULES_DRAW:
		return "draw";
	case RULES_SOLVED:
		return "solved";
	case RULES_BLOCKED:
		return "blocked";
	default:
		return "playing";
	}
}

/* After any move: end the game if the rules say so, play forced passes,
 * then run the clock and wake a bot whose turn it is. */
void
room_after_move(struct room *r)
{
	struct rules_status st;
	struct rules_move pass;
	char err[RULES_ERR_MAX];
	int passes = 0;

	for (;;) {
		if (r->status != ROOM_PLAYING)
			return;
		rules_status(r->g, r->st, &st);
		if (st.result != RULES_PLAYING) {
			room_end(r, room_result_name(st.result), st.winner,
			    st.reason);
			return;
		}
		if (r->nhist >= SERVER_GAME_MOVES_MAX) {
			room_end(r, "draw", -1, "move limit");
			return;
		}
		if (passes == ROOM_PASSES_MAX || !room_forced_pass(r, &pass))
			break;
		if (room_play(r, -1, pass, err, sizeof err) != 0)
			return; /* a pass has no clock to run out */
		passes++;
	}
	room_clock_arm(r);
	room_schedule_bot(r);
}

/* A seated player's connection dropped: hold the seat, tell the others, and
 * adjourn the game when nobody is left to play it. */
void
room_player_gone(struct room *r, struct player *p)
{
	int seat = room_seat_of(r, p), i, present = 0;
	cJSON *ev;

	if (seat < 0 || r->status == ROOM_ENDED)
		return;
	r->seats[seat].gone = 1;
	r->seats[seat].gone_ms = clock_mono_ms();
	lobby_touch(r); /* the seat reads "gone" in rooms */
	if (r->status != ROOM_PLAYING)
		return;
	for (i = 0; i < r->g->seats; i++)
		if (r->seats[i].player != NULL && !r->seats[i].gone)
			present++;
	if (present == 0) {
		int turn = r->g->turn(r->st);

		if (r->clock_initial_ms > 0)
			r->clock_ms[turn] = room_clock_left(r, turn);
		r->status = ROOM_ADJOURNED;
		if (r->flag_timer != NULL)
			evtimer_del(r->flag_timer);
		room_save(r);
		log_info("room %s adjourned", r->id);
		return;
	}
	room_commit(r, 1, 0);
	ev = room_event(r, PROTO_EV_OPPONENT_GONE);
	cJSON_AddStringToObject(ev, "name", p->name);
	cJSON_AddStringToObject(ev, "seat", r->g->seat_names[seat]);
	cJSON_AddNumberToObject(ev, "grace", r->srv->cfg.grace_sec);
	room_broadcast(r, ev);
}

/* A seated player is back (hello with the token, or join). */
void
room_player_back(struct room *r, struct player *p)
{
	int seat = room_seat_of(r, p);
	cJSON *ev;

	if (seat < 0 || !r->seats[seat].gone)
		return;
	lobby_touch(r);
	if (r->status == ROOM_ENDED || r->status == ROOM_WAITING) {
		r->seats[seat].gone = 0;
		return;
	}
	r->seats[seat].gone = 0;
	if (r->status == ROOM_ADJOURNED) {
		int i;

		/* The adjournment held every seat: a player still away gets
		 * the whole grace period from now on. */
		for (i = 0; i < r->g->seats; i++)
			if (r->seats[i].gone)
				r->seats[i].gone_ms = clock_mono_ms();
		r->status = ROOM_PLAYING;
		r->turn_start_ms = room_clock_now(r);
	}
	room_commit(r, r->clock_initial_ms > 0 ? 2 : 1, 0);
	ev = room_event(r, PROTO_EV_OPPONENT_BACK);
	cJSON_AddStringToObject(ev, "name", p->name);
	cJSON_AddStringToObject(ev, "seat", r->g->seat_names[seat]);
	room_broadcast(r, ev);
	room_clock_event(r, 1);
	room_clock_arm(r);
	room_schedule_bot(r);
}

/* Rebuild the position from the start and the first n moves (undo). */
void
room_replay(struct room *r, int nmoves)
{
	int i;

	memcpy(r->st, r->start, r->g->state_size);
	for (i = 0; i < nmoves; i++)
		r->g->apply(r->st, r->hist[i].m);
	r->nhist = nmoves;
}

static void
room_bot_fire(evutil_socket_t fd, short what, void *arg)
{
	struct room *r = arg;
	int seat;

	if (r->status != ROOM_PLAYING) {
		r->bot_pending = 0;
		return;
	}
	seat = r->g->turn(r->st);
	worker_bot(r->srv->worker, r, seat);
}

/* The side to move is a bot: ask the worker for its move after a short
 * pause (so people can follow a bot game; at least --bot-pace when only
 * bots play). */
void
room_schedule_bot(struct room *r)
{
	struct timeval tv;
	int seat, ms = r->srv->cfg.bot_delay_ms;

	if (r->status != ROOM_PLAYING || r->bot_pending)
		return;
	seat = r->g->turn(r->st);
	if (r->seats[seat].bot == 0)
		return;
	if (r->bot_timer == NULL &&
	    (r->bot_timer = evtimer_new(r->srv->base, room_bot_fire, r)) ==
	        NULL)
		fatal("out of memory");
	r->bot_pending = 1;
	if (r->seats[1 - seat].bot > 0 && ms < r->srv->cfg.bot_pace_ms)
		ms = r->srv->cfg.bot_pace_ms;
	tv.tv_sec = ms / 1000;
	tv.tv_usec = (ms % 1000) * 1000;
	evtimer_add(r->bot_timer, &tv);
}

/* The bot's move was refused (its flag fell): ask again in
 * ROOM_RETRY_SEC (room_bot_fire lets it be if the game is over). */
void
room_bot_retry(struct room *r)
{
	struct timeval tv = {ROOM_RETRY_SEC, 0};

	if (r->bot_timer == NULL)
		return;
	r->bot_pending = 1;
	evtimer_add(r->bot_timer, &tv);
}

/* A room rebuilt from the store goes on: adjourned while its people are
 * away, running when only bots play it, ended if its last move ended it. */
void
room_recovered(struct room *r)
{
	struct rules_status st;
	int i, people = 0;

	if (r->status != ROOM_PLAYING && r->status != ROOM_ADJOURNED)
		return;
	for (i = 0; i < r->g->seats; i++)
		if (r->seats[i].player != NULL)
			people++;
	rules_status(r->g, r->st, &st);
	r->status = people > 0 && st.result == RULES_PLAYING ? ROOM_ADJOURNED
	                                                     : ROOM_PLAYING;
	room_save(r);
	room_after_move(r);
}
