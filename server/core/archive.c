/*
 * archive.c: finished games, kept for good. Each game is written to the
 * store as it ends; from there `rooms ended`, `history`, and `state` and
 * `export` of a room that is no longer in memory read them back. Also the
 * game record (the whole move list in a text form, docs/PROTOCOL.md) that
 * `export` gives of any game.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/core/core.h"
#include "server/net/limit.h"
#include "server/store/storeq.h"
#include "server/store/store.h"

/* Bytes of a kept move besides its seat's name, notation and sentence:
 * the members' names and punctuation (43, the seat's quotes included)
 * and two clocks (PROTO_INT_CHARS each). */
#define ARCHIVE_MOVE_FIXED (48 + 2 * PROTO_INT_CHARS)

/* The seats as kept: seat, name, bot; who was connected is not history. */
static cJSON *
archive_seats(const struct room *r)
{
	cJSON *summary = room_summary(r);
	cJSON *seats = cJSON_DetachItemFromObject(summary, "seats"), *s;

	cJSON_Delete(summary);
	cJSON_ArrayForEach(s, seats)
		cJSON_DeleteItemFromObject(s, "connected");
	return seats;
}

/* The moves as kept: [{"seat", "move", "text", "clocks"}]. */
static cJSON *
archive_moves(const struct room *r)
{
	cJSON *a = cJSON_CreateArray();
	int i;

	for (i = 0; i < r->nhist; i++) {
		const struct room_move *mv = &r->hist[i];
		cJSON *m = cJSON_CreateObject();

		if (mv->seat >= 0)
			cJSON_AddStringToObject(
			    m, "seat", r->g->seat_names[mv->seat]);
		else
			cJSON_AddNullToObject(m, "seat");
		cJSON_AddStringToObject(m, "move", mv->notation);
		cJSON_AddStringToObject(m, "text", mv->sentence);
		if (mv->clock_ms[0] >= 0) {
			cJSON *clk = cJSON_AddArrayToObject(m, "clocks");

			cJSON_AddItemToArray(clk, proto_int(mv->clock_ms[0]));
			cJSON_AddItemToArray(clk, proto_int(mv->clock_ms[1]));
		}
		cJSON_AddItemToArray(a, m);
	}
	return a;
}

/* The moves as kept, printed with proto_line byte for byte as cJSON
 * prints archive_moves' tree: a game's end builds, prints and frees no
 * tree of its hundred moves (amortised, a sixth of the loop's
 * instructions a move at 10 rooms). A fresh string, or NULL when a
 * string would need escaping. */
static char *
archive_moves_line(const struct room *r)
{
	struct proto_line l = {NULL, 3, 0, 0};
	int i;

	for (i = 0; i < r->nhist; i++) {
		const struct room_move *mv = &r->hist[i];
		const char *seat =
		    mv->seat >= 0 ? r->g->seat_names[mv->seat] : "null";

		if (!proto_json_plain(seat) ||
		    !proto_json_plain(mv->notation) ||
		    !proto_json_plain(mv->sentence))
			return NULL;
		l.cap += ARCHIVE_MOVE_FIXED + strlen(seat) +
		    strlen(mv->notation) + strlen(mv->sentence);
	}
	l.buf = xmalloc(l.cap);
	proto_line_str(&l, "[");
	for (i = 0; i < r->nhist; i++) {
		const struct room_move *mv = &r->hist[i];

		proto_line_str(&l, i == 0 ? "{\"seat\":" : ",{\"seat\":");
		if (mv->seat >= 0) {
			proto_line_str(&l, "\"");
			proto_line_str(&l, r->g->seat_names[mv->seat]);
			proto_line_str(&l, "\"");
		} else
			proto_line_str(&l, "null");
		proto_line_str(&l, ",\"move\":\"");
		proto_line_str(&l, mv->notation);
		proto_line_str(&l, "\",\"text\":\"");
		proto_line_str(&l, mv->sentence);
		proto_line_str(&l, "\"");
		if (mv->clock_ms[0] >= 0) {
			proto_line_str(&l, ",\"clocks\":[");
			proto_line_int(&l, mv->clock_ms[0]);
			proto_line_str(&l, ",");
			proto_line_int(&l, mv->clock_ms[1]);
			proto_line_str(&l, "]");
		}
		proto_line_str(&l, "}");
	}
	proto_line_str(&l, "]");
	if (l.full) /* cannot be: l.cap counted every byte */
		fatal("archive_moves_line: %zu bytes were too few", l.cap);
	return l.buf;
}

/* A position as its one-line string, into a fresh buffer ("" when it
 * does not fit). */
static char *
archive_position(const struct room *r, const void *st)
{
	char *buf = xmalloc(RULES_TEXT_MAX);

	if (r->g->to_position(st, buf, RULES_TEXT_MAX) < 0)
		buf[0] = '\0';
	return buf;
}

/* Count a kept game against its seated people and the room's creator
 * (once each), and the addresses of those online: what one identity can
 * make the store keep is bounded (--games-per-hour, limit.c). */
static void
archive_count(struct room *r)
{
	const char *who[3];
	int i, j, n = 0;

	for (i = 0; i < r->g->seats && i < 2; i++)
		if (r->seats[i].player != NULL)
			who[n++] = r->seats[i].player->name;
	if (player_name_valid(r->creator))
		who[n++] = r->creator;
	for (i = 0; i < n; i++) {
		struct player *p = player_find(r->srv, who[i]);

		for (j = 0; j < i && strcmp(who[j], who[i]) != 0; j++)
			;
		if (j == i)
			limit_games_take(r->srv, who[i],
			    p != NULL && p->conn != NULL ? p->conn->lim_addr
			                                 : NULL);
	}
}

/* Keep the game that just ended in r (room_commit queues it in the same
 * change as the end), unless it was abandoned before any move: such a
 * game is not history, and keeping it would let anyone grow the store by
 * a row per create and leave. */
void
archive_game(struct room *r)
{
	struct store_game g;
	cJSON *seats, *moves;
	char *options, *seatstr, *movestr, *result, *start, *end;
	int i;

	if (r->nhist == 0)
		return;
	archive_count(r);
	seats = archive_seats(r);
	movestr = archive_moves_line(r);
	moves = movestr == NULL ? archive_moves(r) : NULL;
	options = cJSON_PrintUnformatted(r->options);
	seatstr = cJSON_PrintUnformatted(seats);
	if (movestr == NULL)
		movestr = cJSON_PrintUnformatted(moves);
	result = cJSON_PrintUnformatted(r->result);
	start = archive_position(r, r->start);
	end = archive_position(r, r->st);
	if (options == NULL || seatstr == NULL || movestr == NULL ||
	    result == NULL)
		fatal("out of memory");
	memset(&g, 0, sizeof g);
	g.room = r->id;
	g.game_no = r->game_no;
	g.game = r->g->name;
	g.options = options;
	g.seats = seatstr;
	for (i = 0; i < r->g->seats && i < 2; i++)
		g.names[i] = r->seats[i].player != NULL
		    ? r->seats[i].player->name
		    : NULL;
	g.result = result;
	g.is_private = r->is_private;
	g.clock_initial_ms = r->clock_initial_ms;
	g.clock_increment_ms = r->clock_inc_ms;
	g.ended_ms = clock_now_ms();
	g.started_ms = r->game_no == 1 ? r->created_ms : g.ended_ms;
	g.nmoves = r->nhist;
	g.moves = movestr;
	g.start = start;
	g.position = end;
	storeq_game_put(r->srv->storeq, &g);
	free(options);
	free(seatstr);
	free(movestr);
	free(result);
	free(start);
	free(end);
	cJSON_Delete(seats);
	cJSON_Delete(moves);
}

/* Parse a stored JSON column, or null when it does not parse. */
static cJSON *
archive_json(const char *text)
{
	cJSON *v = cJSON_Parse(text);

	return v != NULL ? v : cJSON_CreateNull();
}

/* A finished game as `rooms ended` and `history` list it: a room
 * summary's fields and the game's number, result, times and move count. */
static cJSON *
archive_summary(const struct store_game *g)
{
	cJSON *o = cJSON_CreateObject(), *seats = archive_json(g->seats), *s;

	cJSON_AddStringToObject(o, "room", g->room);
	cJSON_AddStringToObject(o, "game", g->game);
	cJSON_AddStringToObject(o, "status", "ended");
	cJSON_ArrayForEach(s, seats)
		cJSON_AddBoolToObject(s, "connected", 0);
	cJSON_AddItemToObject(o, "seats", seats);
	cJSON_AddNumberToObject(o, "watchers", 0);
	cJSON_AddItemToObject(o, "clock",
	    room_clock_summary(g->clock_initial_ms, g->clock_increment_ms));
	cJSON_AddNumberToObject(o, "game_no", g->game_no);
	cJSON_AddItemToObject(o, "result", archive_json(g->result));
	cJSON_AddNumberToObject(o, "started_ms", (double)g->started_ms);
	cJSON_AddNumberToObject(o, "ended_ms", (double)g->ended_ms);
	cJSON_AddNumberToObject(o, "moves", g->nmoves);
	return o;
}

/* A page's games as the query gives them: the first ARCHIVE_LIST_MAX
 * go into the list; one more says that older ones remain. */
static void
archive_list_add(void *arg, const struct store_game *g)
{
	struct archive_page *pg = arg;

	if (pg->n == ARCHIVE_LIST_MAX) {
		pg->more = 1;
		return;
	}
	cJSON_AddItemToArray(pg->list, archive_summary(g));
	pg->n++;
	snprintf(pg->next, sizeof pg->next, "%lld.%lld", g->ended_ms, g->id);
}

/* Read a page's cursor ("ENDED_MS.ID", as a page's next gives it) into
 * *out; 0, or -1 when it is no cursor. */
int
archive_cursor_parse(const char *text, struct store_cursor *out)
{
	char *end;

	if (text == NULL || text[0] < '0' || text[0] > '9')
		return -1;
	out->ended_ms = strtoll(text, &end, 10);
	if (*end != '.' || end[1] < '0' || end[1] > '9')
		return -1;
	out->id = strtoll(end + 1, &end, 10);
	return *end == '\0' && out->ended_ms > 0 && out->id > 0 ? 0 : -1;
}

/* A page of the finished public games (of one game if game is not NULL)
 * read from st into pg, newest first from pg->from; 0, or -1 when the
 * store failed, STORE_SLOW when the read took too long. On a search
 * thread (pages.c): it touches nothing but st and pg. */
int
archive_recent_in(struct store *st, const char *game, struct archive_page *pg)
{
	pg->n = pg->more = 0;
	pg->next[0] = '\0';
	return store_games_recent_from(
	    st, game, &pg->from, ARCHIVE_LIST_MAX + 1, archive_list_add, pg);
}

/* A page of the finished games name played, its private ones too when
 * own; as archive_recent_in. */
int
archive_games_of_in(
    struct store *st, const char *name, int own, struct archive_page *pg)
{
	pg->n = pg->more = 0;
	pg->next[0] = '\0';
	return store_games_of_from(st, name, own, &pg->from,
	    ARCHIVE_LIST_MAX + 1, archive_list_add, pg);
}

/* Refuse req after a read of the store that returned rc (-1 or
 * STORE_SLOW): internal, saying which. */
void
archive_read_failed(struct conn *c, const struct proto_request *req, int rc)
{
	if (rc == STORE_SLOW)
		conn_error(c, req, PROTO_E_INTERNAL,
		    "reading the store took longer than %d ms, the most a "
		    "read may take; try again later",
		    STORE_READ_MS);
	else
		conn_error(c, req, PROTO_E_INTERNAL, "the store failed");
}

/* The last finished game of a room, copied out of the query. */
static void
archive_keep(void *arg, const struct store_game *g)
{
	cJSON **out = arg;
	cJSON *o = archive_summary(g);

	cJSON_AddStringToObject(o, "_options", g->options);
	cJSON_AddStringToObject(o, "_moves", g->moves);
	cJSON_AddStringToObject(o, "_start", g->start);
	cJSON_AddStringToObject(o, "_position", g->position);
	cJSON_AddBoolToObject(o, "_private", g->is_private);
	*out = o;
}

/* The stored moves into r's history (notation, sentence, seat, clocks;
 * the moves themselves are not needed to show a finished game). */
static void
archive_hist(struct room *r, const cJSON *moves)
{
	const cJSON *m;

	r->nhist = 0;
	r->histcap = cJSON_GetArraySize(moves);
	r->hist =
	    xcalloc(r->histcap > 0 ? (size_t)r->histcap : 1, sizeof *r->hist);
	cJSON_ArrayForEach(m, moves) {
		struct room_move *mv = &r->hist[r->nhist++];
		const char *seat = cJSON_GetStringValue(
		    cJSON_GetObjectItemCaseSensitive(m, "seat"));
		const cJSON *clk =
		    cJSON_GetObjectItemCaseSensitive(m, "clocks");
		const char *s;

		mv->seat = seat != NULL ? room_seat_index(r->g, seat) : -1;
		s = cJSON_GetStringValue(
		    cJSON_GetObjectItemCaseSensitive(m, "move"));
		snprintf(mv->notation, sizeof mv->notation, "%s",
		    s != NULL ? s : "?");
		s = cJSON_GetStringValue(
		    cJSON_GetObjectItemCaseSensitive(m, "text"));
		snprintf(mv->sentence, sizeof mv->sentence, "%s",
		    s != NULL ? s : "");
		mv->clock_ms[0] = mv->clock_ms[1] = -1;
		if (cJSON_GetArraySize(clk) == 2) {
			mv->clock_ms[0] =
			    (int64_t)cJSON_GetArrayItem(clk, 0)->valuedouble;
			mv->clock_ms[1] =
			    (int64_t)cJSON_GetArrayItem(clk, 1)->valuedouble;
		}
	}
}

/* A room rebuilt, outside the server's rooms, from a kept game: the
 * game's options, its start and final positions, history and result.
 * NULL when the game can no longer be set up (logged). */
static struct room *
archive_room(struct server *srv, const cJSON *row)
{
	const char *id = cJSON_GetStringValue(cJSON_GetObjectItem(row, "room"));
	const struct rules_game *g =
	    rules_find(cJSON_GetStringValue(cJSON_GetObjectItem(row, "game")));
	cJSON *options = archive_json(
	    cJSON_GetStringValue(cJSON_GetObjectItem(row, "_options")));
	cJSON *moves;
	char err[RULES_ERR_MAX];
	struct room *r;
	int last;

	if (g == NULL || !cJSON_IsObject(options)) {
		cJSON_Delete(options);
		log_error("archive: room %s: no such game or bad options", id);
		return NULL;
	}
	r = room_new(srv, g, options,
	    (int)cJSON_GetNumberValue(cJSON_GetObjectItem(row, "game_no")), err,
	    sizeof err);
	if (r == NULL ||
	    g->from_position(r->start,
	        cJSON_GetStringValue(cJSON_GetObjectItem(row, "_start")), err,
	        sizeof err) != 0 ||
	    g->from_position(r->st,
	        cJSON_GetStringValue(cJSON_GetObjectItem(row, "_position")),
	        err, sizeof err) != 0) {
		log_error("archive: room %s: %s", id, err);
		if (r != NULL)
			room_free(r);
		return NULL;
	}
	snprintf(r->id, sizeof r->id, "%s", id);
	r->status = ROOM_ENDED;
	r->is_private = cJSON_IsTrue(cJSON_GetObjectItem(row, "_private"));
	r->result = cJSON_Duplicate(cJSON_GetObjectItem(row, "result"), 1);
	moves = archive_json(
	    cJSON_GetStringValue(cJSON_GetObjectItem(row, "_moves")));
	archive_hist(r, moves);
	cJSON_Delete(moves);
	if (cJSON_IsObject(cJSON_GetObjectItem(row, "clock"))) {
		cJSON *clk = cJSON_GetObjectItem(row, "clock");

		r->clock_initial_ms = (int64_t)cJSON_GetNumberValue(
		                          cJSON_GetObjectItem(clk, "initial")) *
		    1000;
		r->clock_inc_ms = (int64_t)cJSON_GetNumberValue(
		                      cJSON_GetObjectItem(clk, "increment")) *
		    1000;
	}
	last = r->nhist - 1;
	if (last >= 0 && r->hist[last].clock_ms[0] >= 0) {
		r->clock_ms[0] = r->hist[last].clock_ms[0];
		r->clock_ms[1] = r->hist[last].clock_ms[1];
	}
	return r;
}

/* The kept game of a room not in memory, rebuilt; NULL after replying
 * no_such_room (or internal when the store failed). *row gets its row. */
struct room *
archive_find(struct conn *c, const struct proto_request *req, cJSON **row)
{
	struct room *r;
	int found = 0, rc;

	*row = NULL;
	rc = store_game_last(
	    c->srv->reader, req->room, archive_keep, row, &found);
	if (rc != 0) {
		log_error("store: %s", store_errmsg(c->srv->reader));
		cJSON_Delete(*row);
		*row = NULL;
		archive_read_failed(c, req, rc);
		return NULL;
	}
	if (!found || *row == NULL) {
		conn_error(
		    c, req, PROTO_E_NO_SUCH_ROOM, "no room '%s'", req->room);
		return NULL;
	}
	r = archive_room(c->srv, *row);
	if (r == NULL) {
		cJSON_Delete(*row);
		*row = NULL;
		conn_error(c, req, PROTO_E_INTERNAL,
		    "the game kept for %s cannot be shown", req->room);
	}
	return r;
}

/* The state of a kept game: as room_state, with the kept seats. */
cJSON *
archive_state_of(const struct room *r, const cJSON *row)
{
	cJSON *st = room_state(r);

	cJSON_ReplaceItemInObject(
	    st, "seats", cJSON_Duplicate(cJSON_GetObjectItem(row, "seats"), 1));
	cJSON_AddItemToObject(st, "ended_ms",
	    cJSON_Duplicate(cJSON_GetObjectItem(row, "ended_ms"), 1));
	return st;
}

/* May this player look at a kept private game? Only who played it. */
int
archive_visible(const struct conn *c, const cJSON *row)
{
	const cJSON *s;

	if (!cJSON_IsTrue(cJSON_GetObjectItem(row, "_private")))
		return 1;
	cJSON_ArrayForEach(s, cJSON_GetObjectItem(row, "seats")) {
		const char *name = cJSON_GetStringValue(
		    cJSON_GetObjectItemCaseSensitive(s, "name"));

		if (name != NULL && strcmp(name, c->player->name) == 0)
			return 1;
	}
	return 0;
}

/* Append a JSON string (quotes and escapes) to the record. */
static void
archive_quote(cJSON *parts, const char *s)
{
	cJSON *str = cJSON_CreateString(s != NULL ? s : "");
	char *q = cJSON_PrintUnformatted(str);

	if (q == NULL)
		fatal("out of memory");
	cJSON_AddItemToArray(parts, cJSON_CreateString(q));
	free(q);
	cJSON_Delete(str);
}

/* "[Tag "value"]" */
static void
archive_tag(cJSON *parts, const char *tag, const char *value)
{
	char head[64];

	snprintf(head, sizeof head, "[%s ", tag);
	cJSON_AddItemToArray(parts, cJSON_CreateString(head));
	archive_quote(parts, value);
	cJSON_AddItemToArray(parts, cJSON_CreateString("]\n"));
}

/* The result in words: "white wins (resignation)", "draw (move limit)",
 * "solved (1 peg left)", or "*" while the game goes on. */
static void
archive_result_words(const cJSON *res, char *buf, size_t len)
{
	const char *result = cJSON_GetStringValue(
	    cJSON_GetObjectItemCaseSensitive(res, "result"));
	const char *winner = cJSON_GetStringValue(
	    cJSON_GetObjectItemCaseSensitive(res, "winner"));
	const char *reason = cJSON_GetStringValue(
	    cJSON_GetObjectItemCaseSensitive(res, "reason"));

	if (result == NULL)
		snprintf(buf, len, "*");
	else if (strcmp(result, "win") == 0 && winner != NULL)
		snprintf(buf, len, "%s wins (%s)", winner,
		    reason != NULL ? reason : "");
	else
		snprintf(
		    buf, len, "%s (%s)", result, reason != NULL ? reason : "");
}

/* Join the parts into one malloc'd string. */
static char *
archive_join(const cJSON *parts)
{
	const cJSON *p;
	size_t n = 1;
	char *out, *w;

	cJSON_ArrayForEach(p, parts)
		n += strlen(p->valuestring);
	out = w = xmalloc(n);
	cJSON_ArrayForEach(p, parts) {
		size_t k = strlen(p->valuestring);

		memcpy(w, p->valuestring, k);
		w += k;
	}
	*w = '\0';
	return out;
}

/*
 * The game record of r (docs/PROTOCOL.md, "Game records"): tag lines
 * [Tag "value"] with JSON-quoted values (room, game, game number, each
 * option, each seat, result, start and final positions), a blank line,
 * then one line per move "N. SEAT MOVE" ("-" for a pass the server
 * played). seats is the seats array (NULL: the room's own). Malloc'd.
 */
char *
archive_record(const struct room *r, const cJSON *seats)
{
	cJSON *parts = cJSON_CreateArray(), *own = NULL;
	const cJSON *it;
	char buf[SERVER_SENTENCE_MAX + 64], *pos, *out;
	int i;

	if (seats == NULL)
		seats = own = archive_seats(r);
	archive_tag(parts, "Room", r->id);
	archive_tag(parts, "Game", r->g->name);
	snprintf(buf, sizeof buf, "%d", r->game_no);
	archive_tag(parts, "GameNo", buf);
	cJSON_ArrayForEach(it, r->options) {
		snprintf(buf, sizeof buf, "Option %s", it->string);
		archive_tag(parts, buf, cJSON_GetStringValue(it));
	}
	cJSON_ArrayForEach(it, seats) {
		const char *seat = cJSON_GetStringValue(
		    cJSON_GetObjectItemCaseSensitive(it, "seat"));
		const char *name = cJSON_GetStringValue(
		    cJSON_GetObjectItemCaseSensitive(it, "name"));
		const cJSON *bot = cJSON_GetObjectItemCaseSensitive(it, "bot");
		char who[64];

		if (cJSON_IsNumber(bot))
			snprintf(
			    who, sizeof who, "bot level %d", bot->valueint);
		else
			snprintf(
			    who, sizeof who, "%s", name != NULL ? name : "-");
		snprintf(buf, sizeof buf, "Seat %s", seat != NULL ? seat : "?");
		archive_tag(parts, buf, who);
	}
	archive_result_words(r->result, buf, sizeof buf);
	archive_tag(parts, "Result", buf);
	pos = archive_position(r, r->start);
	archive_tag(parts, "Start", pos);
	free(pos);
	pos = archive_position(r, r->st);
	archive_tag(parts, "End", pos);
	free(pos);
	cJSON_AddItemToArray(parts, cJSON_CreateString("\n"));
	for (i = 0; i < r->nhist; i++) {
		snprintf(buf, sizeof buf, "%d. %s %s\n", i + 1,
		    r->hist[i].seat >= 0 ? r->g->seat_names[r->hist[i].seat]
		                         : "-",
		    r->hist[i].notation);
		cJSON_AddItemToArray(parts, cJSON_CreateString(buf));
	}
	out = archive_join(parts);
	cJSON_Delete(parts);
	cJSON_Delete(own);
	return out;
}

/* The result of a kept game, copied out of the query. */
struct archive_result {
	int game_no;
	char result[16];
};

static void
archive_result_of(void *arg, const struct store_game *g)
{
	struct archive_result *res = arg;
	cJSON *o = cJSON_Parse(g->result);
	const char *s = cJSON_GetStringValue(cJSON_GetObjectItem(o, "result"));

	res->game_no = g->game_no;
	snprintf(res->result, sizeof res->result, "%s", s != NULL ? s : "");
	cJSON_Delete(o);
}

/* Did the server just start this game by itself, after the room's
 * previous game was won (no move played in it yet)? */
int
archive_just_advanced(const struct room *r)
{
	struct archive_result res = {0, ""};
	int found = 0;

	if (r->status != ROOM_PLAYING || r->nhist > 0 || r->game_no < 2)
		return 0;
	if (store_game_last(
	        r->srv->reader, r->id, archive_result_of, &res, &found) != 0) {
		log_error("store: %s", store_errmsg(r->srv->reader));
		return 0;
	}
	return found && res.game_no == r->game_no - 1 &&
	    strcmp(res.result, "solved") == 0;
}
