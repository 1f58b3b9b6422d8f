/*
 * text.c: text mode. Turns any reply, error or event the server builds into
 * plain English lines for people on telnet: boards from "_picture" or
 * "picture", whose turn it is, results, chat. It knows the protocol's
 * fields, never a game: boards and move sentences come from the server.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "protocol/protocol.h"

/* A growing string; oom set once an allocation failed. board: the
 * picture the reader draws itself after the message (proto_text_beside),
 * or NULL. */
struct text_buf {
	char *p;
	size_t len, cap;
	int oom;
	const char *board;
};

/* Append len bytes. */
static void
text_addn(struct text_buf *b, const char *s, size_t len)
{
	size_t cap;
	char *p;

	if (b->oom)
		return;
	if (b->len + len + 1 > b->cap) {
		cap = b->cap == 0 ? 256 : b->cap;
		while (cap < b->len + len + 1)
			cap *= 2;
		p = realloc(b->p, cap);
		if (p == NULL) {
			b->oom = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, s, len);
	b->len += len;
	b->p[b->len] = '\0';
}

static void
text_add(struct text_buf *b, const char *s)
{
	text_addn(b, s, strlen(s));
}

static void text_addf(struct text_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
text_addf(struct text_buf *b, const char *fmt, ...)
{
	va_list ap;
	char small[256], *big;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof small) {
		text_addn(b, small, (size_t)n);
		return;
	}
	big = malloc((size_t)n + 1);
	if (big == NULL) {
		b->oom = 1;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	text_addn(b, big, (size_t)n);
	free(big);
}

/*
 * Append text a client wrote, so that it cannot pass for anything else:
 * each line break (LF, CR, CRLF, NEL, U+2028, U+2029) starts a new line
 * that begins with prefix again (shown as <U+000A> and so on when prefix
 * is NULL); every other control character and every character that
 * reorders or hides text is shown as <U+XXXX>, an invalid byte as <0xXX>.
 */
static void
text_add_untrusted(struct text_buf *b, const char *s, const char *prefix)
{
	size_t len = strlen(s), i = 0, n;
	uint32_t cp;

	while (i < len) {
		n = proto_utf8_next(s + i, len - i, &cp);
		if (n == 0) {
			text_addf(b, "<0x%02X>", (unsigned)(unsigned char)s[i]);
			i++;
			continue;
		}
		if (prefix != NULL && proto_char_breaks(cp)) {
			if (cp == '\r' && i + 1 < len && s[i + 1] == '\n')
				n = 2;
			text_add(b, "\n");
			text_add(b, prefix);
		} else if ((cp < 0x20 && cp != '\t') || cp == 0x7f ||
		    proto_char_hides(cp)) {
			text_addf(b, "<U+%04lX>", (unsigned long)cp);
		} else {
			text_addn(b, s + i, n);
		}
		i += n;
	}
}

/* Text from elsewhere, safe for a terminal (protocol.h). */
char *
proto_text_untrusted(const char *s)
{
	struct text_buf b = {NULL, 0, 0, 0, NULL};

	text_add_untrusted(&b, s, "");
	if (b.oom) {
		free(b.p);
		return NULL;
	}
	return b.p != NULL ? b.p : strdup("");
}

/* 1 when s holds a byte that proto_text_untrusted could change: one
 * below 0x20 (but tab and LF), DEL, or any byte above 0x7f. */
static int
text_maybe_unsafe(const char *s)
{
	for (; *s != '\0'; s++) {
		unsigned char ch = (unsigned char)*s;
		if ((ch < 0x20 && ch != '\t' && ch != '\n') || ch >= 0x7f)
			return 1;
	}
	return 0;
}

/* Replace *sp (a cJSON-owned string) by its safe form when it differs;
 * 0, or -1 when out of memory. */
static int
text_untrusted_swap(char **sp)
{
	char *safe, *kept;
	size_t n;

	if (*sp == NULL || !text_maybe_unsafe(*sp))
		return 0;
	safe = proto_text_untrusted(*sp);
	if (safe == NULL)
		return -1;
	if (strcmp(safe, *sp) == 0) {
		free(safe);
		return 0;
	}
	/* the tree frees its strings with cJSON's own hooks */
	n = strlen(safe) + 1;
	kept = cJSON_malloc(n);
	if (kept != NULL)
		memcpy(kept, safe, n);
	free(safe);
	if (kept == NULL)
		return -1;
	cJSON_free(*sp);
	*sp = kept;
	return 0;
}

/* Every string of the tree made safe for a terminal (protocol.h). */
int
proto_text_untrusted_tree(cJSON *v)
{
	cJSON *c;

	if (v == NULL)
		return 0;
	if (v->string != NULL && !(v->type & cJSON_StringIsConst) &&
	    text_untrusted_swap(&v->string) != 0)
		return -1;
	if (cJSON_IsString(v) && !(v->type & cJSON_IsReference) &&
	    text_untrusted_swap(&v->valuestring) != 0)
		return -1;
	for (c = v->child; c != NULL; c = c->next)
		if (proto_text_untrusted_tree(c) != 0)
			return -1;
	return 0;
}

/* Untrusted text after prefix (taken: freed here), each of its lines
 * prefixed the same. */
static void
text_prefixed(struct text_buf *b, struct text_buf *prefix, const char *text)
{
	if (prefix->oom)
		b->oom = 1;
	else {
		text_add(b, prefix->p);
		text_add_untrusted(b, text != NULL ? text : "", prefix->p);
		text_add(b, "\n");
	}
	free(prefix->p);
}

/* A chat line: "[lobby] ana: text" or "[r1] ana: text", and every further
 * line of a multi-line text with the same prefix. */
static void
text_chat(
    struct text_buf *b, const char *room, const char *from, const char *text)
{
	struct text_buf prefix = {NULL, 0, 0, 0, NULL};

	text_addf(&prefix, "[%s] ", room != NULL ? room : "lobby");
	text_add_untrusted(&prefix, from != NULL ? from : "?", NULL);
	text_add(&prefix, ": ");
	text_prefixed(b, &prefix, text);
}

/* End the current line unless it is already ended (or nothing is there). */
static void
text_eol(struct text_buf *b)
{
	if (b->len > 0 && b->p[b->len - 1] != '\n')
		text_add(b, "\n");
}

/* A string member, or NULL. */
static const char *
text_str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* A double as an integer, saturated (a cast out of range is undefined). */
static long long
text_int(double d)
{
	if (!(d > -1e18))
		return d < 0 ? -1000000000000000000LL : 0;
	if (d > 1e18)
		return 1000000000000000000LL;
	return (long long)d;
}

/* A number member (a cJSON number or a raw integer, proto_number) as an
 * integer: 1 and *out set, else 0. */
static int
text_num(const cJSON *o, const char *key, long long *out)
{
	double d;

	if (!proto_number(cJSON_GetObjectItemCaseSensitive(o, key), &d))
		return 0;
	*out = text_int(d);
	return 1;
}

/* Append a scalar value as people read it. */
static void
text_value(struct text_buf *b, const cJSON *v)
{
	const cJSON *c;
	double d;

	if (cJSON_IsString(v))
		text_add_untrusted(b, v->valuestring, NULL);
	else if (proto_number(v, &d)) {
		if (d == (double)text_int(d))
			text_addf(b, "%lld", text_int(d));
		else
			text_addf(b, "%g", d);
	} else if (cJSON_IsBool(v))
		text_add(b, cJSON_IsTrue(v) ? "yes" : "no");
	else if (cJSON_IsArray(v)) {
		cJSON_ArrayForEach(c, v) {
			text_value(b, c);
			if (c->next != NULL)
				text_add(b, ", ");
		}
	} else if (cJSON_IsObject(v)) {
		cJSON_ArrayForEach(c, v) {
			text_addf(b, "%s=", c->string);
			text_value(b, c);
			if (c->next != NULL)
				text_add(b, ", ");
		}
	} else
		text_add(b, "-");
}

/* "[room] " before an event line, when the event has a room. */
static void
text_room(struct text_buf *b, const cJSON *msg)
{
	const char *room = text_str(msg, "room");

	if (room != NULL)
		text_addf(b, "[%s] ", room);
}

/* "name (seat)" or "name" or "seat" from an object with name and seat. */
static void
text_who(struct text_buf *b, const cJSON *o)
{
	const char *name = text_str(o, "name"), *seat = text_str(o, "seat");

	if (name != NULL && seat != NULL)
		text_addf(b, "%s (%s)", name, seat);
	else if (name != NULL)
		text_add(b, name);
	else if (seat != NULL)
		text_add(b, seat);
	else
		text_add(b, "someone");
}

/* A clock's time for people (protocol.h): the one formatter of the
 * server's text mode and the client. */
void
proto_clock_format(long long ms, char *buf, size_t len)
{
	long long s = ms < 0 ? 0 : ms / 1000;

	if (s >= 3600)
		snprintf(buf, len, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60,
		    s % 60);
	else
		snprintf(buf, len, "%lld:%02lld", s / 60, s % 60);
}

/* A time in milliseconds as h:mm:ss or m:ss. */
static void
text_clock_time(struct text_buf *b, long long ms)
{
	char buf[32];

	proto_clock_format(ms, buf, sizeof buf);
	text_add(b, buf);
}

/* "Clocks: black 4:59, white 5:00." from {seat: ms}. */
static void
text_clocks(struct text_buf *b, const cJSON *clocks)
{
	const cJSON *c;
	double ms;

	/* a reader that draws the board shows the clocks with it */
	if (b->board != NULL || !cJSON_IsObject(clocks) ||
	    clocks->child == NULL)
		return;
	text_add(b, "Clocks: ");
	cJSON_ArrayForEach(c, clocks) {
		text_addf(b, "%s ", c->string);
		if (proto_number(c, &ms))
			text_clock_time(b, text_int(ms));
		else
			text_value(b, c);
		text_add(b, c->next != NULL ? ", " : ".\n");
	}
}

/* The ASCII board of a message: "_picture", else "picture". */
static const char *
text_picture_of(const cJSON *o)
{
	const char *pic = text_str(o, "_picture");

	return pic != NULL ? pic : text_str(o, "picture");
}

/* The message's board (unless the reader draws its own). */
static void
text_picture(struct text_buf *b, const cJSON *o)
{
	const char *pic = text_picture_of(o);

	if (b->board != NULL || pic == NULL || pic[0] == '\0')
		return;
	text_eol(b);
	text_add(b, pic);
	text_eol(b);
}

/* One seat of a seats array: "black: ana", "white: bot level 3",
 * "white: (free)", with " (away)" for a disconnected player. */
static void
text_seat(struct text_buf *b, const cJSON *s)
{
	const char *seat = text_str(s, "seat"), *name = text_str(s, "name");
	const cJSON *conn = cJSON_GetObjectItemCaseSensitive(s, "connected");
	long long level;

	text_addf(b, "%s: ", seat != NULL ? seat : "?");
	if (text_num(s, "bot", &level))
		text_addf(b, "bot level %lld", level);
	else if (name != NULL) {
		text_add(b, name);
		if (cJSON_IsFalse(conn))
			text_add(b, " (away)");
	} else
		text_add(b, "(free)");
}

/* "black: ana, white: bob" from a seats array. */
static void
text_seats(struct text_buf *b, const cJSON *seats)
{
	const cJSON *s;

	cJSON_ArrayForEach(s, seats) {
		text_seat(b, s);
		if (s->next != NULL)
			text_add(b, ", ");
	}
}

/* One side of a rated game: "ana 1512 -> 1498?" (a provisional rating
 * has '?'), a bot's fixed rating "bot level 3 (1500)". */
static void
text_rated_side(struct text_buf *b, const cJSON *s)
{
	const char *name = text_str(s, "name");
	long long before = 0, after = 0, bot = 0;

	text_num(s, "before", &before);
	text_num(s, "after", &after);
	if (name == NULL) {
		text_num(s, "bot", &bot);
		text_addf(b, "bot level %lld (%lld)", bot, before);
		return;
	}
	text_add_untrusted(b, name, NULL);
	text_addf(b, " %lld -> %lld%s", before, after,
	    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(s, "provisional"))
	        ? "?"
	        : "");
}

/* A two-player result's rating line: "Rated (ataxx size=7): ana 1512 ->
 * 1498, bob 1490 -> 1504." or "Not rated: why." */
static void
text_rated(struct text_buf *b, const cJSON *r)
{
	const cJSON *rated = cJSON_GetObjectItemCaseSensitive(r, "rated"), *s;
	const char *why = text_str(r, "unrated"), *pool = text_str(r, "pool");

	if (cJSON_IsFalse(rated)) {
		text_addf(b, "Not rated: %s.\n", why != NULL ? why : "-");
		return;
	}
	if (!cJSON_IsTrue(rated))
		return;
	text_addf(b, "Rated (%s): ", pool != NULL ? pool : "?");
	cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(r, "ratings")) {
		text_rated_side(b, s);
		text_add(b, s->next != NULL ? ", " : ".\n");
	}
}

/* The outcome of a game from {result, winner, winner_name, reason,
 * scores}. */
static void
text_result(struct text_buf *b, const cJSON *r)
{
	const char *result = text_str(r, "result"),
	           *winner = text_str(r, "winner"),
	           *wname = text_str(r, "winner_name"),
	           *reason = text_str(r, "reason");
	const cJSON *scores = cJSON_GetObjectItemCaseSensitive(r, "scores");
	const cJSON *c;

	/* A one-player ending comes in words, with what to type next. */
	if (text_str(r, "message") != NULL) {
		text_addf(b, "%s\n", text_str(r, "message"));
		return;
	}
	if (result == NULL)
		result = "over";
	if (strcmp(result, "win") == 0 && winner != NULL) {
		text_add(b, "Game over: ");
		if (wname != NULL)
			text_addf(b, "%s (%s) wins", wname, winner);
		else
			text_addf(b, "%s wins", winner);
	} else if (strcmp(result, "draw") == 0)
		text_add(b, "Game over: a draw");
	else if (strcmp(result, "solved") == 0)
		text_add(b, "Solved");
	else if (strcmp(result, "blocked") == 0)
		text_add(b, "Blocked: no move left");
	else
		text_addf(b, "Game over (%s)", result);
	if (reason != NULL)
		text_addf(b, " (%s)", reason);
	text_add(b, ".\n");
	if (cJSON_IsObject(scores) && scores->child != NULL) {
		text_add(b, "Score: ");
		cJSON_ArrayForEach(c, scores) {
			text_addf(b, "%s ", c->string);
			text_value(b, c);
			text_add(b, c->next != NULL ? ", " : ".\n");
		}
	}
	text_rated(b, r);
}

/* Past a note in brackets on the same line (" (player 1)"), if one
 * starts at p. */
static const char *
text_skip_note(const char *p)
{
	size_t n;

	if (p[0] != ' ' || p[1] != '(')
		return p;
	n = strcspn(p, ")\n");
	return p[n] == ')' ? p + n + 1 : p;
}

/* Whether a picture says whose turn it is: "SEAT to " at the start of a
 * line or after "; " ("white to move", "...; player 1 to place peg no.
 * 1"), with a note in brackets after the seat ("white (player 1) to
 * move"). */
static int
text_picture_says(const char *pic, const char *turn)
{
	const char *p;
	size_t n = strlen(turn);

	if (n == 0) /* "" is found everywhere, and p would never move on */
		return 0;
	for (p = pic; p != NULL && (p = strstr(p, turn)) != NULL; p += n) {
		if ((p == pic || p[-1] == '\n' ||
		        (p - pic >= 2 && p[-2] == ';' && p[-1] == ' ')) &&
		    strncmp(text_skip_note(p + n), " to ", 4) == 0)
			return 1;
	}
	return 0;
}

/* "white to move." or the status, from a turn and a status (unless the
 * board shown with the message says it already: the reader's own, else
 * the message's). */
static void
text_turn(struct text_buf *b, const cJSON *o)
{
	const char *turn = text_str(o, "turn"), *status = text_str(o, "status");

	if (turn != NULL) {
		if (!text_picture_says(
		        b->board != NULL ? b->board : text_picture_of(o), turn))
			text_addf(b, "%s to move.\n", turn);
	} else if (status != NULL && strcmp(status, "playing") != 0)
		text_addf(b, "The game is %s.\n", status);
}

/* "Options: size=7, file=(a board, 5 lines)." A value of several lines
 * (a board file) is not printed raw in the header: export shows it. */
static void
text_options(struct text_buf *b, const cJSON *opts)
{
	const cJSON *o;
	const char *p;
	int lines;

	if (!cJSON_IsObject(opts) || opts->child == NULL)
		return;
	text_add(b, "Options: ");
	cJSON_ArrayForEach(o, opts) {
		text_addf(b, "%s=", o->string);
		if (cJSON_IsString(o) && strchr(o->valuestring, '\n') != NULL) {
			lines = 0;
			for (p = o->valuestring; *p != '\0'; p++)
				lines += *p == '\n' || p[1] == '\0';
			text_addf(b, "(%d lines; export shows them)", lines);
		} else {
			text_value(b, o);
		}
		if (o->next != NULL)
			text_add(b, ", ");
	}
	text_add(b, ".\n");
}

/* A full game state (state reply, create, join, watch). */
static void
text_state(struct text_buf *b, const cJSON *st)
{
	const char *room = text_str(st, "room"), *game = text_str(st, "game"),
	           *title = text_str(st, "title"),
	           *status = text_str(st, "status");
	const cJSON *v;
	long long n;

	text_eol(b);
	text_add(b, "Room ");
	text_add(b, room != NULL ? room : "?");
	if (title != NULL || game != NULL)
		text_addf(b, ": %s", title != NULL ? title : game);
	if (status != NULL)
		text_addf(b, ", %s", status);
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(st, "private")))
		text_add(b, ", private");
	text_add(b, ".\n");
	text_options(b, cJSON_GetObjectItemCaseSensitive(st, "options"));
	v = cJSON_GetObjectItemCaseSensitive(st, "seats");
	if (cJSON_IsArray(v) && v->child != NULL) {
		text_add(b, "Seats: ");
		text_seats(b, v);
		text_add(b, ".\n");
	}
	/* A game that starts with this reply: its started event follows
	 * with the board and the turn, so they are not printed twice. */
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(st, "_started")))
		return;
	text_picture(b, st);
	v = cJSON_GetObjectItemCaseSensitive(st, "result");
	if (cJSON_IsObject(v))
		text_result(b, v);
	else
		text_turn(b, st);
	text_clocks(b, cJSON_GetObjectItemCaseSensitive(st, "clocks"));
	if (text_num(st, "watchers", &n) && n > 0)
		text_addf(b, "Watchers: %lld.\n", n);
}

/* hello's reply. */
static void
text_hello(struct text_buf *b, const cJSON *msg)
{
	const char *name = text_str(msg, "name"),
	           *token = text_str(msg, "token");
	const cJSON *rooms = cJSON_GetObjectItemCaseSensitive(msg, "rooms");
	const cJSON *r;

	if (name == NULL)
		name = "you";
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(msg, "new")) &&
	    token != NULL)
		text_addf(b,
		    "Hello, %s. Your token is %s\nKeep it: next time "
		    "log in with: hello %s %s\n",
		    name, token, name, token);
	else
		text_addf(b, "Welcome back, %s.\n", name);
	cJSON_ArrayForEach(
	    r, cJSON_GetObjectItemCaseSensitive(msg, "abandoned"))
		if (text_str(r, "message") != NULL)
			text_addf(b, "%s\n", text_str(r, "message"));
	if (!cJSON_IsArray(rooms) || rooms->child == NULL)
		return;
	text_add(b, "Your rooms (join ROOM to go back):\n");
	cJSON_ArrayForEach(r, rooms) {
		text_addf(b, "  %s %s, %s\n",
		    text_str(r, "room") ? text_str(r, "room") : "?",
		    text_str(r, "game") ? text_str(r, "game") : "?",
		    text_str(r, "status") ? text_str(r, "status") : "?");
	}
}

/* games' reply: each game, its seats, options and notation. */
static void
text_games(struct text_buf *b, const cJSON *msg)
{
	const cJSON *g, *o, *v;
	const char *s;
	long long n;

	cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(msg, "games")) {
		s = text_str(g, "title");
		text_addf(
		    b, "%s", text_str(g, "name") ? text_str(g, "name") : "?");
		if (s != NULL)
			text_addf(b, " (%s)", s);
		if (text_num(g, "seats", &n))
			text_addf(b, ": %lld player%s", n, n == 1 ? "" : "s");
		v = cJSON_GetObjectItemCaseSensitive(g, "seat_names");
		if (cJSON_IsArray(v) && v->child != NULL) {
			text_add(b, " (");
			text_value(b, v);
			text_add(b, ")");
		}
		text_add(b, "\n");
		cJSON_ArrayForEach(
		    o, cJSON_GetObjectItemCaseSensitive(g, "options")) {
			text_addf(b, "  %s=",
			    text_str(o, "name") ? text_str(o, "name") : "?");
			if ((v = cJSON_GetObjectItemCaseSensitive(
			         o, "choices")) != NULL &&
			    cJSON_IsArray(v)) {
				text_value(b, v);
			} else if (cJSON_GetObjectItemCaseSensitive(o, "min") &&
			    cJSON_GetObjectItemCaseSensitive(o, "max")) {
				text_value(b,
				    cJSON_GetObjectItemCaseSensitive(o, "min"));
				text_add(b, "..");
				text_value(b,
				    cJSON_GetObjectItemCaseSensitive(o, "max"));
			} else
				text_add(b,
				    text_str(o, "type") ? text_str(o, "type")
				                        : "value");
			v = cJSON_GetObjectItemCaseSensitive(o, "default");
			if (v != NULL && !cJSON_IsNull(v) &&
			    !(cJSON_IsString(v) && v->valuestring[0] == '\0')) {
				text_add(b, " (default ");
				text_value(b, v);
				text_add(b, ")");
			}
			if ((s = text_str(o, "help")) != NULL)
				text_addf(b, ": %s", s);
			text_add(b, "\n");
		}
		if ((s = text_str(g, "notation")) != NULL)
			text_addf(b, "  moves: %s\n", s);
		if ((s = text_str(g, "file_format")) != NULL)
			text_addf(b, "  file: %s\n", s);
	}
	if (b->len == 0)
		text_add(b, "No games.\n");
}

/* A finished game on one line, without its line end: "r1 #2 ataxx
 * ended - white: ana, black: bot level 3 - black wins (resignation), 23
 * moves". */
static void
text_finished_words(struct text_buf *b, const cJSON *r)
{
	const cJSON *res = cJSON_GetObjectItemCaseSensitive(r, "result"), *s;
	const char *result = text_str(res, "result"),
	           *winner = text_str(res, "winner"),
	           *reason = text_str(res, "reason");
	long long n;

	text_addf(b, "%s", text_str(r, "room") ? text_str(r, "room") : "?");
	if (text_num(r, "game_no", &n))
		text_addf(b, " #%lld", n);
	text_addf(
	    b, " %s ended -", text_str(r, "game") ? text_str(r, "game") : "?");
	cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(r, "seats")) {
		text_addf(b,
		    " %s: ", text_str(s, "seat") ? text_str(s, "seat") : "?");
		if (text_num(s, "bot", &n))
			text_addf(b, "bot level %lld", n);
		else
			text_add(
			    b, text_str(s, "name") ? text_str(s, "name") : "-");
		text_add(b, s->next != NULL ? "," : "");
	}
	if (result != NULL && strcmp(result, "win") == 0 && winner != NULL)
		text_addf(b, " - %s wins", winner);
	else
		text_addf(b, " - %s", result != NULL ? result : "over");
	if (reason != NULL)
		text_addf(b, " (%s)", reason);
	if (text_num(r, "moves", &n))
		text_addf(b, ", %lld move%s", n, n == 1 ? "" : "s");
}

/* A finished game on one line (text_finished_words). */
static void
text_finished(struct text_buf *b, const cJSON *r)
{
	text_finished_words(b, r);
	text_add(b, "\n");
}

/* One room summary on one line. */
static void
text_summary(struct text_buf *b, const cJSON *r)
{
	const cJSON *clock = cJSON_GetObjectItemCaseSensitive(r, "clock");
	long long n, ini, inc;

	if (cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(r, "result"))) {
		text_finished(b, r);
		return;
	}

	text_addf(b, "%s %s %s",
	    text_str(r, "room") ? text_str(r, "room") : "?",
	    text_str(r, "game") ? text_str(r, "game") : "?",
	    text_str(r, "status") ? text_str(r, "status") : "?");
	if (cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(r, "seats"))) {
		text_add(b, " - ");
		text_seats(b, cJSON_GetObjectItemCaseSensitive(r, "seats"));
	}
	if (text_num(clock, "initial", &ini) &&
	    text_num(clock, "increment", &inc))
		text_addf(b, " - clock %lld s + %lld s", ini, inc);
	if (text_num(r, "watchers", &n) && n > 0)
		text_addf(b, " - %lld watching", n);
	text_add(b, "\n");
}

/* rooms' reply. */
static void
text_rooms(struct text_buf *b, const cJSON *msg)
{
	const cJSON *r, *rooms = cJSON_GetObjectItemCaseSensitive(msg, "rooms");

	if (!cJSON_IsArray(rooms) || rooms->child == NULL) {
		text_add(b, "No rooms. Open one with: create GAME\n");
		return;
	}
	cJSON_ArrayForEach(r, rooms)
		text_summary(b, r);
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(msg, "more")) &&
	    text_str(msg, "next") != NULL) {
		const char *st = text_str(rooms->child, "status");

		if (st != NULL && strcmp(st, "ended") == 0)
			text_addf(b, "More games: rooms ended from=%s\n",
			    text_str(msg, "next"));
		else
			text_addf(b, "More rooms: rooms from=%s\n",
			    text_str(msg, "next"));
	}
}

/* A player's ratings in who: " [ataxx 1620, stones 1500?]" (none: ""). */
static void
text_who_ratings(struct text_buf *b, const cJSON *ratings)
{
	const cJSON *g;
	long long rating;

	if (!cJSON_IsObject(ratings) || ratings->child == NULL)
		return;
	text_add(b, " [");
	cJSON_ArrayForEach(g, ratings) {
		if (!text_num(g, "rating", &rating))
			continue;
		text_add_untrusted(b, g->string, NULL);
		text_addf(b, " %lld%s%s", rating,
		    cJSON_IsTrue(
		        cJSON_GetObjectItemCaseSensitive(g, "provisional"))
		        ? "?"
		        : "",
		    g->next != NULL ? ", " : "");
	}
	text_add(b, "]");
}

/* who's reply: "Online: ana [ataxx 1620] (r1), bob." */
void
text_reply_who(struct text_buf *b, const cJSON *msg)
{
	const cJSON *p, *rooms;
	long long online;

	text_add(b, "Online:");
	cJSON_ArrayForEach(
	    p, cJSON_GetObjectItemCaseSensitive(msg, "players")) {
		text_addf(
		    b, " %s", text_str(p, "name") ? text_str(p, "name") : "?");
		text_who_ratings(
		    b, cJSON_GetObjectItemCaseSensitive(p, "ratings"));
		rooms = cJSON_GetObjectItemCaseSensitive(p, "rooms");
		if (cJSON_IsArray(rooms) && rooms->child != NULL) {
			text_add(b, " (");
			text_value(b, rooms);
			text_add(b, ")");
		}
		text_add(b, p->next != NULL ? "," : "");
	}
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(msg, "more")) &&
	    text_num(msg, "online", &online))
		text_addf(b, " (of %lld online)", online);
	text_add(b, ".\n");
}

/* mine's reply: "  r4  ataxx, white against bob: your move (join r4)". */
void
text_reply_mine(struct text_buf *b, const cJSON *msg)
{
	const cJSON *r, *rooms = cJSON_GetObjectItemCaseSensitive(msg, "rooms");
	const char *id, *opp;

	if (!cJSON_IsArray(rooms) || rooms->child == NULL) {
		text_add(b, "You hold no seat in a game that is on.\n");
		return;
	}
	text_add(b, "Your games:\n");
	cJSON_ArrayForEach(r, rooms) {
		id = text_str(r, "room");
		opp = text_str(r, "opponent");
		text_addf(b, "  %s  %s", id != NULL ? id : "?",
		    text_str(r, "game") != NULL ? text_str(r, "game") : "?");
		if (text_str(r, "seat") != NULL)
			text_addf(b, ", %s", text_str(r, "seat"));
		if (opp != NULL)
			text_addf(b, " against %s", opp);
		/* A tournament game waiting for us is said as such, below. */
		if (text_str(r, "status") != NULL &&
		    strcmp(text_str(r, "status"), "playing") != 0 &&
		    text_str(r, "tourney") == NULL)
			text_addf(b, " (%s)", text_str(r, "status"));
		if (cJSON_IsTrue(
		        cJSON_GetObjectItemCaseSensitive(r, "your_turn")))
			text_addf(
			    b, ": your move (join %s)", id != NULL ? id : "?");
		else if (text_str(r, "tourney") != NULL)
			text_addf(b, ": tournament %s (join %s)",
			    text_str(r, "tourney"), id != NULL ? id : "?");
		text_add(b, "\n");
	}
}

/* help's reply. */
void
text_reply_help(struct text_buf *b, const cJSON *msg)
{
	const cJSON *v;
	const char *sh, *sum;

	text_add(b, "Commands (every one also takes room=ID):\n");
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(msg, "verbs")) {
		sh = text_str(v, "shorthand");
		if (sh == NULL)
			sh = text_str(v, "verb");
		sum = text_str(v, "summary");
		text_addf(b, "  %-36s %s\n", sh != NULL ? sh : "?",
		    sum != NULL ? sum : "");
	}
}

/* hint's reply. */
void
text_reply_hint(struct text_buf *b, const cJSON *msg)
{
	const char *verdict = text_str(msg, "verdict"),
	           *move = text_str(msg, "move");

	if (verdict != NULL && strcmp(verdict, "lost") == 0)
		text_add(b,
		    "This position cannot be solved any more: undo or "
		    "restart.\n");
	else if (move != NULL)
		text_addf(b, "Hint: %s%s\n", move,
		    verdict != NULL && strcmp(verdict, "winnable") == 0
		        ? " (the puzzle stays solvable)"
		        : "");
	else
		text_add(b, "No hint for this position.\n");
}

/* Members of a reply or event that the generic rendering leaves out (msg
 * and args say what a sentence was printed from, for JSON clients that
 * translate it). */
static int
text_skipped(const char *key)
{
	static const char *const keys[] = {"re", "id", "ok", "event", "room",
	    "seq", "state", "picture", "msg", "args"};
	size_t i;

	if (key == NULL || key[0] == '_')
		return 1;
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		if (strcmp(key, keys[i]) == 0)
			return 1;
	}
	return 0;
}

/* Any other members as "key: value" lines. */
static void
text_rest(struct text_buf *b, const cJSON *msg)
{
	const cJSON *c;

	cJSON_ArrayForEach(c, msg) {
		if (text_skipped(c->string))
			continue;
		text_addf(b, "%s: ", c->string);
		text_value(b, c);
		text_add(b, "\n");
	}
}

/* The state a reply carries, else its picture. */
static void
text_tail(struct text_buf *b, const cJSON *msg)
{
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(msg, "state");

	if (cJSON_IsObject(st))
		text_state(b, st);
	else
		text_picture(b, msg);
}

/*
 * The renderers of the replies, one per verb's row in verbs.c (several
 * verbs share one).
 */

void
text_reply_hello(struct text_buf *b, const cJSON *msg)
{
	text_hello(b, msg);
	text_tail(b, msg);
}

void
text_reply_games(struct text_buf *b, const cJSON *msg)
{
	text_games(b, msg);
	text_tail(b, msg);
}

void
text_reply_rooms(struct text_buf *b, const cJSON *msg)
{
	text_rooms(b, msg);
	text_tail(b, msg);
}

/* create and join: the seat taken, or watching when bots took them all. */
void
text_reply_seated(struct text_buf *b, const cJSON *msg)
{
	const char *room = text_str(msg, "room"), *s = text_str(msg, "seat");

	if (s != NULL)
		text_addf(
		    b, "You are in room %s, seat %s.\n", room ? room : "?", s);
	else /* bots in every seat: the creator watches */
		text_addf(b, "You are watching room %s.\n", room ? room : "?");
	text_tail(b, msg);
}

void
text_reply_watch(struct text_buf *b, const cJSON *msg)
{
	const char *room = text_str(msg, "room");

	text_addf(b, "You are watching room %s.\n", room ? room : "?");
	text_tail(b, msg);
}

void
text_reply_leave(struct text_buf *b, const cJSON *msg)
{
	text_add(b, "You left the room.\n");
	text_tail(b, msg);
}

/* Width the move list is wrapped at (an 80-column terminal). */
#define TEXT_RECORD_WIDTH 78

/* The moves of a state's history page: "Moves: 1. b6  2. f2 ...",
 * wrapped; nothing when no move was played. */
static void
text_record(struct text_buf *b, const cJSON *st)
{
	const cJSON *hist = cJSON_GetObjectItemCaseSensitive(st, "history");
	const cJSON *h;
	long long since = 0, total = 0, n;
	size_t col;

	if (!cJSON_IsArray(hist) || hist->child == NULL)
		return;
	text_num(st, "history_since", &since);
	if (!text_num(st, "history_total", &total))
		total = cJSON_GetArraySize(hist);
	if (since > 0)
		text_addf(b, "Moves (%lld; from move %lld):", total, since + 1);
	else
		text_addf(b, "Moves (%lld):", total);
	col = 20;
	cJSON_ArrayForEach(h, hist) {
		const char *mv = text_str(h, "move");
		char one[64];
		int len;
		if (mv == NULL || !text_num(h, "n", &n))
			continue;
		len = snprintf(one, sizeof one, " %lld. %s", n, mv);
		if (len < 0)
			continue;
		if (col + (size_t)len > TEXT_RECORD_WIDTH) {
			text_add(b, "\n");
			col = 0;
		}
		text_add_untrusted(b, one, NULL);
		col += (size_t)len;
	}
	text_add(b, "\n");
}

char *
proto_text_rated(const cJSON *result)
{
	struct text_buf b = {NULL, 0, 0, 0, NULL};

	text_rated(&b, result);
	if (b.oom || b.p == NULL) {
		free(b.p);
		return NULL;
	}
	return b.p;
}

char *
proto_text_record(const cJSON *state)
{
	struct text_buf b = {NULL, 0, 0, 0, NULL};

	text_record(&b, state);
	if (b.oom) {
		free(b.p);
		return NULL;
	}
	return b.p;
}

void
text_reply_state(struct text_buf *b, const cJSON *msg)
{
	text_tail(b, msg);
	text_record(b, cJSON_GetObjectItemCaseSensitive(msg, "state"));
}

void
text_reply_moves(struct text_buf *b, const cJSON *msg)
{
	const cJSON *moves = cJSON_GetObjectItemCaseSensitive(msg, "moves");

	if (cJSON_IsArray(moves) && moves->child != NULL) {
		text_add(b, "Moves: ");
		text_value(b, moves);
		text_add(b, "\n");
	} else if (text_str(msg, "reason") != NULL)
		text_addf(b, "No legal moves: %s.\n", text_str(msg, "reason"));
	else
		text_add(b, "No legal moves.\n");
}

void
text_reply_move(struct text_buf *b, const cJSON *msg)
{
	text_addf(b, "You played %s.\n",
	    text_str(msg, "move") ? text_str(msg, "move") : "");
}

void
text_reply_export(struct text_buf *b, const cJSON *msg)
{
	const char *s;

	if ((s = text_str(msg, "format")) != NULL)
		text_addf(b, "Format: %s\n", s);
	if ((s = text_str(msg, "text")) != NULL) {
		text_add(b, s);
		text_eol(b);
	}
	if ((s = text_str(msg, "record")) != NULL) {
		text_add(b, "Record:\n");
		text_add(b, s);
		text_eol(b);
	}
}

static void text_date(struct text_buf *b, long long ms);

/* What a kept game did to name's rating, for history: ", rated: 1500 ->
 * 1338? (-162)", ", not rated", or nothing (a one-player game). */
static void
text_history_rating(struct text_buf *b, const cJSON *g, const char *name)
{
	const cJSON *res = cJSON_GetObjectItemCaseSensitive(g, "result"), *e;
	long long before, after, change;

	if (cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(res, "rated"))) {
		text_add(b, ", not rated");
		return;
	}
	cJSON_ArrayForEach(
	    e, cJSON_GetObjectItemCaseSensitive(res, "ratings")) {
		if (text_str(e, "name") == NULL ||
		    strcasecmp(text_str(e, "name"), name) != 0 ||
		    !text_num(e, "before", &before) ||
		    !text_num(e, "after", &after) ||
		    !text_num(e, "change", &change))
			continue;
		text_addf(b, ", rated: %lld -> %lld%s (%+lld)", before, after,
		    cJSON_IsTrue(
		        cJSON_GetObjectItemCaseSensitive(e, "provisional"))
		        ? "?"
		        : "",
		    change);
	}
}

/* history's reply: a player's finished games, newest first, each with
 * the date it ended and what it did to the player's rating:
 * "  2026-11-29 11:31 UTC  r1 #1 ataxx ended - ..., rated: 1500 -> 1338?
 * (-162)". */
void
text_reply_history(struct text_buf *b, const cJSON *msg)
{
	const cJSON *g, *games = cJSON_GetObjectItemCaseSensitive(msg, "games");
	const char *name = text_str(msg, "name");

	if (name == NULL)
		name = "?";
	if (!cJSON_IsArray(games) || games->child == NULL) {
		text_addf(b, "%s has no finished games yet.\n", name);
		return;
	}
	text_addf(b, "Finished games of %s, newest first:\n", name);
	cJSON_ArrayForEach(g, games) {
		long long ended = 0;

		text_add(b, "  ");
		text_num(g, "ended_ms", &ended);
		text_date(b, ended);
		text_add(b, "  ");
		text_finished_words(b, g);
		text_history_rating(b, g, name);
		text_add(b, "\n");
	}
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(msg, "more")) &&
	    text_str(msg, "next") != NULL)
		text_addf(b, "More: history %s from=%s\n", name,
		    text_str(msg, "next"));
}

/* A time in ms since the epoch as "2026-11-27 04:50 UTC" ("-" when 0). */
static void
text_date(struct text_buf *b, long long ms)
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;
	char buf[32];

	if (ms <= 0 || gmtime_r(&t, &tm) == NULL ||
	    strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", &tm) == 0) {
		text_add(b, "-");
		return;
	}
	text_add(b, buf);
}

/* One rating in a table: "1512? rd 240  3 won, 1 drawn, 2 lost". */
static void
text_rating_row(struct text_buf *b, const cJSON *o)
{
	long long rating = 0, rd = 0, w = 0, d = 0, l = 0;

	text_num(o, "rating", &rating);
	text_num(o, "rd", &rd);
	text_num(o, "wins", &w);
	text_num(o, "draws", &d);
	text_num(o, "losses", &l);
	text_addf(b, "%5lld%s rd %-4lld %lld won, %lld drawn, %lld lost\n",
	    rating,
	    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "provisional"))
	        ? "?"
	        : " ",
	    rd, w, d, l);
}

/* One one-player record: "12 solved, highest level 7 in 2 tries" or
 * "3 solved, fewest left 1". */
static void
text_solo_record(struct text_buf *b, const cJSON *o)
{
	long long solved = 0, level = 0, tries = 0, left = 0;

	text_num(o, "solved", &solved);
	if (text_num(o, "level", &level)) {
		text_num(o, "tries", &tries);
		if (level > 0)
			text_addf(b,
			    "%lld solved, highest level %lld (%lld %s)\n",
			    solved, level, tries,
			    tries == 1 ? "retry" : "retries");
		else
			text_addf(b, "%lld solved\n", solved);
		return;
	}
	text_num(o, "fewest_left", &left);
	text_addf(b, "%lld solved, fewest left %lld\n", solved, left);
}

/* finger's reply: who, since when, last seen, ratings, games now. */
void
text_reply_finger(struct text_buf *b, const cJSON *msg)
{
	const char *name = text_str(msg, "name");
	const cJSON *it, *list;
	long long ms = 0;

	text_add_untrusted(b, name != NULL ? name : "?", NULL);
	text_add(b,
	    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(msg, "online"))
	        ? ": online now.\n"
	        : ":\n");
	if (text_num(msg, "since_ms", &ms)) {
		text_add(b, "  Member since ");
		text_date(b, ms);
		text_add(b, ", last seen ");
		text_num(msg, "seen_ms", &ms);
		text_date(b, ms);
		text_add(b, ".\n");
	}
	list = cJSON_GetObjectItemCaseSensitive(msg, "ratings");
	if (!cJSON_IsArray(list) || list->child == NULL)
		text_add(b, "  No rated games yet.\n");
	else
		text_add(b, "  Ratings ('?': provisional):\n");
	cJSON_ArrayForEach(it, list) {
		const char *pool = text_str(it, "pool");

		text_addf(b, "    %-16s ", pool != NULL ? pool : "?");
		text_rating_row(b, it);
	}
	list = cJSON_GetObjectItemCaseSensitive(msg, "records");
	if (cJSON_IsArray(list) && list->child != NULL)
		text_add(b, "  One-player records:\n");
	cJSON_ArrayForEach(it, list) {
		const char *game = text_str(it, "game");

		text_addf(b, "    %-16s ", game != NULL ? game : "?");
		text_solo_record(b, it);
	}
	list = cJSON_GetObjectItemCaseSensitive(msg, "playing");
	if (cJSON_IsArray(list) && list->child != NULL) {
		text_add(b, "  Playing now:");
		cJSON_ArrayForEach(it, list) {
			const char *room = text_str(it, "room"),
			           *game = text_str(it, "game"),
			           *seat = text_str(it, "seat");

			text_addf(b, " %s (%s, %s)%s", room ? room : "?",
			    game ? game : "?", seat ? seat : "?",
			    it->next != NULL ? "," : ".\n");
		}
	}
}

/* One list of ratings' rows: "  1. bob     1712  rd 60 ...". */
static void
text_ratings_list(struct text_buf *b, const cJSON *list)
{
	const cJSON *it;
	long long rank;

	cJSON_ArrayForEach(it, list) {
		const char *name = text_str(it, "name");

		if (text_num(it, "rank", &rank))
			text_addf(b, "  %4lld. ", rank);
		else
			text_add(b, "        ");
		text_add_untrusted(b, name != NULL ? name : "?", NULL);
		text_addf(b, "%*s ",
		    (int)(name != NULL && strlen(name) < 16 ? 16 - strlen(name)
		                                            : 0),
		    "");
		text_rating_row(b, it);
	}
}

/* ratings' reply of a one-player game: its records, best first. */
static void
text_records(struct text_buf *b, const cJSON *msg, const cJSON *list)
{
	const char *game = text_str(msg, "game"),
	           *order = text_str(msg, "order");
	const cJSON *it;
	long long page = 1, rank = 0;

	text_num(msg, "page", &page);
	text_addf(b, "Records of %s (%s), page %lld:\n", game ? game : "?",
	    order != NULL && strcmp(order, "level") == 0
	        ? "highest level solved, then fewest retries"
	        : "most games solved, then fewest pieces left",
	    page);
	if (list->child == NULL)
		text_add(b, "  Nobody has finished a game yet.\n");
	cJSON_ArrayForEach(it, list) {
		const char *name = text_str(it, "name");

		text_num(it, "rank", &rank);
		text_addf(b, "  %4lld. ", rank);
		text_add_untrusted(b, name != NULL ? name : "?", NULL);
		text_addf(b, "%*s ",
		    (int)(name != NULL && strlen(name) < 16 ? 16 - strlen(name)
		                                            : 0),
		    "");
		text_solo_record(b, it);
	}
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(msg, "more")))
		text_addf(b, "More: ratings %s page=%lld\n", game ? game : "?",
		    page + 1);
}

/* ratings' reply: the page's established players, then the provisional
 * (or a one-player game's records). */
void
text_reply_ratings(struct text_buf *b, const cJSON *msg)
{
	const char *pool = text_str(msg, "pool");
	const cJSON *top = cJSON_GetObjectItemCaseSensitive(msg, "players"),
	            *prov =
	                cJSON_GetObjectItemCaseSensitive(msg, "provisional"),
	            *records = cJSON_GetObjectItemCaseSensitive(msg, "records");
	long long page = 1, bound = 0;

	if (cJSON_IsArray(records)) {
		text_records(b, msg, records);
		return;
	}
	text_num(msg, "page", &page);
	text_num(msg, "provisional_rd", &bound);
	text_addf(
	    b, "Ratings of %s, page %lld:\n", pool != NULL ? pool : "?", page);
	if (!cJSON_IsArray(top) || top->child == NULL)
		text_add(b, "  Nobody established here yet.\n");
	text_ratings_list(b, top);
	if (cJSON_IsArray(prov) && prov->child != NULL) {
		text_addf(b, "Provisional (deviation %lld or more):\n", bound);
		text_ratings_list(b, prov);
	}
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(msg, "more")))
		text_addf(b, "More: ratings %s page=%lld\n",
		    pool != NULL ? pool : "?", page + 1);
}

/* The verbs whose reply in text is one fixed sentence, their row's. */
void
text_reply_said(struct text_buf *b, const cJSON *msg)
{
	const char *said =
	    proto_verb_said(proto_verb_from_name(text_str(msg, "re")));

	text_addf(b, "%s\n", said != NULL ? said : "OK.");
}

/* The verbs whose reply says only that it was done, and any fields. */
void
text_reply_ok(struct text_buf *b, const cJSON *msg)
{
	const char *re = text_str(msg, "re");

	text_addf(b, "OK (%s).\n", re != NULL ? re : "?");
	text_rest(b, msg);
}

/* A successful reply, by its verb's renderer. */
static void
text_reply(struct text_buf *b, const cJSON *msg)
{
	const char *re = text_str(msg, "re");
	enum proto_verb v = proto_verb_from_name(re);

	if (v != PROTO_VERB_COUNT) {
		proto_verb_text(v)(b, msg);
		return;
	}
	text_addf(b, "OK%s%s.\n", re ? ": " : "", re ? re : "");
	text_rest(b, msg);
	text_tail(b, msg);
}

/*
 * The renderers of the events, one per row of events.c. A room's events
 * start with "[room] ".
 */

/* The greeting in words for a person who typed before logging in (the
 * hint's JSON example is for programs, and left out). */
void
text_event_welcome(struct text_buf *b, const cJSON *msg)
{
	text_addf(b,
	    "Welcome to %s %s (protocol %d). To play, type: hello YOURNAME "
	    "(help lists the commands).\n",
	    text_str(msg, "server") ? text_str(msg, "server") : "",
	    text_str(msg, "version") ? text_str(msg, "version") : "",
	    PROTO_VERSION);
}

/* The lobby's rooms changed (hello's lobby field). */
void
text_event_rooms_changed(struct text_buf *b, const cJSON *msg)
{
	text_add(b, "The lobby's rooms changed: rooms lists them.\n");
}

void
text_event_replaced(struct text_buf *b, const cJSON *msg)
{
	text_add(
	    b, "You logged in from another connection; this one closes.\n");
}

void
text_event_shutdown(struct text_buf *b, const cJSON *msg)
{
	text_addf(b, "The server is shutting down%s%s\n",
	    text_str(msg, "message") ? ": " : ".",
	    text_str(msg, "message") ? text_str(msg, "message") : "");
}

/* Lobby chat ("[lobby] ") and room chat ("[r1] "). */
void
text_event_chat(struct text_buf *b, const cJSON *msg)
{
	/* A room's chat from someone the reader blocks: only its seq, so
	 * that the room's events count on without a gap; nothing to read. */
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(msg, "hidden")))
		return;
	text_chat(b, text_str(msg, "room"), text_str(msg, "from"),
	    text_str(msg, "text"));
}

void
text_event_joined(struct text_buf *b, const cJSON *msg)
{
	const char *role = text_str(msg, "role");

	text_room(b, msg);
	text_add(b, text_str(msg, "name") ? text_str(msg, "name") : "someone");
	if (role != NULL && strcmp(role, "watcher") == 0)
		text_add(b, " is watching.\n");
	else
		text_addf(b, " joined%s%s.\n",
		    text_str(msg, "seat") ? " as " : "",
		    text_str(msg, "seat") ? text_str(msg, "seat") : "");
}

void
text_event_left(struct text_buf *b, const cJSON *msg)
{
	text_room(b, msg);
	text_who(b, msg);
	text_add(b, " left.\n");
}

/* How many watch a busy room: "[r1] 23 watching (20 of them guests)." */
void
text_event_watchers(struct text_buf *b, const cJSON *msg)
{
	long long n = 0, guests = 0;

	text_room(b, msg);
	text_num(msg, "watchers", &n);
	text_num(msg, "guests", &guests);
	text_addf(b, "%lld watching", n);
	if (guests > 0)
		text_addf(b, " (%lld of them guests)", guests);
	text_add(b, ".\n");
}

void
text_event_started(struct text_buf *b, const cJSON *msg)
{
	const cJSON *seats = cJSON_GetObjectItemCaseSensitive(msg, "seats");

	text_room(b, msg);
	text_add(b, "The game starts");
	if (cJSON_IsArray(seats)) {
		text_add(b, ": ");
		text_seats(b, seats);
	}
	text_add(b, ".\n");
	if (cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(msg, "rated")) &&
	    text_str(msg, "unrated") != NULL)
		text_addf(b, "Not rated: %s.\n", text_str(msg, "unrated"));
	text_picture(b, msg);
	text_turn(b, msg);
	text_clocks(b, cJSON_GetObjectItemCaseSensitive(msg, "clocks"));
}

void
text_event_moved(struct text_buf *b, const cJSON *msg)
{
	const char *s = text_str(msg, "text"), *name = text_str(msg, "name");

	text_room(b, msg);
	if (name != NULL)
		text_addf(b, "%s plays %s", name,
		    text_str(msg, "move") ? text_str(msg, "move") : "");
	if (s != NULL)
		text_addf(b, "%s%s", name ? ": " : "", s);
	text_add(b, ".\n");
	text_picture(b, msg);
	text_turn(b, msg);
	text_clocks(b, cJSON_GetObjectItemCaseSensitive(msg, "clocks"));
}

void
text_event_ended(struct text_buf *b, const cJSON *msg)
{
	text_room(b, msg);
	text_result(b, msg);
}

void
text_event_draw_offered(struct text_buf *b, const cJSON *msg)
{
	text_room(b, msg);
	text_who(b, msg);
	text_add(b, " offers a draw: draw accept or draw decline.\n");
}

void
text_event_draw_declined(struct text_buf *b, const cJSON *msg)
{
	text_room(b, msg);
	text_who(b, msg);
	text_add(b, " declines the draw.\n");
}

void
text_event_takeback_offered(struct text_buf *b, const cJSON *msg)
{
	text_room(b, msg);
	text_who(b, msg);
	text_add(b,
	    " asks to take back their last move: takeback accept or "
	    "takeback decline.\n");
}

void
text_event_takeback_declined(struct text_buf *b, const cJSON *msg)
{
	text_room(b, msg);
	text_who(b, msg);
	text_add(b, " declines the take-back.\n");
}

void
text_event_rematch_offered(struct text_buf *b, const cJSON *msg)
{
	text_room(b, msg);
	text_who(b, msg);
	text_add(b, " wants a rematch: type rematch to play again.\n");
}

void
text_event_opponent_gone(struct text_buf *b, const cJSON *msg)
{
	long long n;

	text_room(b, msg);
	text_who(b, msg);
	/* Watchers read it too: only the opponent may claim. */
	if (text_num(msg, "grace", &n))
		text_addf(b,
		    " is gone; the seat is held for %lld s, then the opponent "
		    "may claim the game.\n",
		    n);
	else
		text_add(b, " is gone.\n");
}

/* A private message: "[ana to you] text", each line prefixed. */
void
text_event_told(struct text_buf *b, const cJSON *msg)
{
	struct text_buf prefix = {NULL, 0, 0, 0, NULL};
	const char *from = text_str(msg, "from"), *text = text_str(msg, "text");

	text_add(&prefix, "[");
	text_add_untrusted(&prefix, from != NULL ? from : "?", NULL);
	text_add(&prefix, " to you] ");
	text_prefixed(b, &prefix, text);
}

/* A kept message, at hello: "[message from ana, 2026-11-29 11:31 UTC]
 * text", every line of it prefixed the same. */
void
text_event_message(struct text_buf *b, const cJSON *msg)
{
	struct text_buf prefix = {NULL, 0, 0, 0, NULL};
	const char *from = text_str(msg, "from"), *text = text_str(msg, "text");
	long long ms = 0;

	text_add(&prefix, "[message from ");
	text_add_untrusted(&prefix, from != NULL ? from : "?", NULL);
	text_add(&prefix, ", ");
	text_num(msg, "sent_ms", &ms);
	text_date(&prefix, ms);
	text_add(&prefix, "] ");
	text_prefixed(b, &prefix, text);
}

/* message's reply: kept for later, or given at once. */
void
text_reply_message(struct text_buf *b, const cJSON *msg)
{
	const char *name = text_str(msg, "name");

	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(msg, "kept")))
		text_addf(b,
		    "Kept for %s, who is away: they get it at their next "
		    "hello.\n",
		    name != NULL ? name : "?");
	else
		text_addf(b, "%s is here: given at once.\n",
		    name != NULL ? name : "?");
}

/* "ana invites you to room r4 (amazons): type join to accept." */
void
text_event_invited(struct text_buf *b, const cJSON *msg)
{
	const char *from = text_str(msg, "from"), *room = text_str(msg, "room");
	const char *game = text_str(msg, "game");

	text_add_untrusted(b, from != NULL ? from : "someone", NULL);
	text_add(b, " invites you to room ");
	text_add_untrusted(b, room != NULL ? room : "?", NULL);
	text_add(b, " (");
	text_add_untrusted(b, game != NULL ? game : "?", NULL);
	text_add(b, "): type join ");
	text_add_untrusted(b, room != NULL ? room : "?", NULL);
	text_add(b, " to accept.\n");
}

void
text_event_grace_over(struct text_buf *b, const cJSON *msg)
{
	const char *room = text_str(msg, "room");

	text_room(b, msg);
	text_who(b, msg);
	text_addf(b, " did not come back: claim wins %s.\n",
	    room != NULL ? room : "the game");
}

void
text_event_opponent_back(struct text_buf *b, const cJSON *msg)
{
	text_room(b, msg);
	text_who(b, msg);
	text_add(b, " is back.\n");
}

void
text_event_clock(struct text_buf *b, const cJSON *msg)
{
	text_room(b, msg);
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(msg, "stopped")))
		text_add(b,
		    "The clocks are stopped: a player is cut off by "
		    "the server, not by their own doing.\n");
	text_clocks(b, cJSON_GetObjectItemCaseSensitive(msg, "clocks"));
	text_eol(b);
}

/* undone: a one-player undo, or a two-player take-back (who asked, and
 * how many moves went). */
void
text_event_undone(struct text_buf *b, const cJSON *msg)
{
	long long n = 1;

	text_room(b, msg);
	if (text_str(msg, "name") != NULL) {
		text_num(msg, "moves", &n);
		text_who(b, msg);
		text_addf(
		    b, " takes back %lld move%s.\n", n, n == 1 ? "" : "s");
	} else
		text_add(b, "Move taken back.\n");
	text_picture(b, msg);
}

void
text_event_restarted(struct text_buf *b, const cJSON *msg)
{
	text_room(b, msg);
	text_add(b, "Back to the start.\n");
	text_picture(b, msg);
}

/* An event line (or lines), by its row's renderer; an event this library
 * does not know shows its name and fields. */
static void
text_event(struct text_buf *b, const cJSON *msg, const char *ev)
{
	enum proto_event_kind e = proto_event_from_name(ev);

	if (e != PROTO_EV_COUNT) {
		proto_event_text(e)(b, msg);
		return;
	}
	text_room(b, msg);
	text_addf(b, "%s\n", ev);
	text_rest(b, msg);
}

/* Render msg into b (empty at the start). */
static void
text_render(struct text_buf *b, const cJSON *msg)
{
	const char *ev = text_str(msg, "event");
	const cJSON *ok = cJSON_GetObjectItemCaseSensitive(msg, "ok");

	if (ev != NULL)
		text_event(b, msg, ev);
	else if (cJSON_IsFalse(ok)) {
		text_addf(b, "error (%s): ",
		    text_str(msg, "error") ? text_str(msg, "error")
		                           : "internal");
		text_add_untrusted(b,
		    text_str(msg, "message") ? text_str(msg, "message") : "",
		    NULL);
		text_add(b, "\n");
	} else if (cJSON_IsTrue(ok))
		text_reply(b, msg);
	else
		text_rest(b, msg);
	if (b->len == 0)
		text_add(b, "OK.\n");
	text_eol(b);
}

/* Render msg into o, for a reader that draws board itself (or NULL). */
static int
text_encode(struct proto_out *o, const cJSON *msg, const char *board)
{
	struct text_buf b = {o->p, 0, o->cap, 0, board};

	if (b.p != NULL)
		b.p[0] = '\0';
	text_render(&b, msg);
	o->p = b.p;
	o->cap = b.cap;
	o->len = b.oom ? 0 : b.len;
	if (o->p != NULL)
		o->p[o->len] = '\0';
	return b.oom ? -1 : 0;
}

int
proto_text_encode(struct proto_out *o, const cJSON *msg)
{
	return text_encode(o, msg, NULL);
}

char *
proto_text_beside(const cJSON *msg, const char *board)
{
	struct proto_out o = {0};

	if (text_encode(&o, msg, board) != 0) {
		proto_out_free(&o);
		return NULL;
	}
	return o.p;
}

char *
proto_text(const cJSON *msg)
{
	return proto_text_beside(msg, NULL);
}

/* A seek as one line of seeks and the seek reply: "s3 ana (1500) ataxx
 * size=7 time=300 inc=3 rated range=1400-1600"; names and options come
 * from other players, so they are printed as untrusted text. */
static void
text_seek_line(struct text_buf *b, const cJSON *s)
{
	const cJSON *o, *clk = cJSON_GetObjectItemCaseSensitive(s, "clock");
	const cJSON *range = cJSON_GetObjectItemCaseSensitive(s, "range");
	const char *id = text_str(s, "seek"), *name = text_str(s, "name");
	const char *game = text_str(s, "game");
	long long n, lo, hi;

	text_add_untrusted(b, id != NULL ? id : "?", NULL);
	text_add(b, " ");
	text_add_untrusted(b, name != NULL ? name : "?", NULL);
	if (text_num(s, "rating", &n))
		text_addf(b, " (%lld)", n);
	text_add(b, " ");
	text_add_untrusted(b, game != NULL ? game : "?", NULL);
	cJSON_ArrayForEach(o, cJSON_GetObjectItemCaseSensitive(s, "options")) {
		text_add(b, " ");
		text_add_untrusted(b, o->string, NULL);
		text_add(b, "=");
		text_add_untrusted(
		    b, cJSON_IsString(o) ? o->valuestring : "?", NULL);
	}
	if (text_num(clk, "initial", &n)) {
		text_addf(b, " time=%lld", n);
		if (text_num(clk, "increment", &n) && n > 0)
			text_addf(b, " inc=%lld", n);
	} else {
		text_add(b, " untimed");
	}
	text_add(b,
	    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(s, "rated"))
	        ? " rated"
	        : " casual");
	if (text_num(range, "min", &lo) && text_num(range, "max", &hi))
		text_addf(b, " range=%lld-%lld", lo, hi);
	text_eol(b);
}

/* seek's reply: the seek made, and whether it met another at once. */
void
text_reply_seek(struct text_buf *b, const cJSON *msg)
{
	const cJSON *s = cJSON_GetObjectItemCaseSensitive(msg, "seek");
	const char *room = text_str(msg, "room"), *id = text_str(s, "seek");

	if (room != NULL) {
		text_addf(b, "Your seek %s met another at once: room ",
		    id != NULL ? id : "");
		text_add_untrusted(b, room, NULL);
		text_add(b, ".\n");
		return;
	}
	text_add(b, "Seeking: ");
	text_seek_line(b, s);
	text_addf(b,
	    "A matching seek starts the game; unseek %s withdraws it.\n",
	    id != NULL ? id : "");
}

/* seeks' reply (and unseek's: what was withdrawn, what is still open). */
void
text_reply_seeks(struct text_buf *b, const cJSON *msg)
{
	const cJSON *s, *list = cJSON_GetObjectItemCaseSensitive(msg, "seeks");
	const cJSON *gone = cJSON_GetObjectItemCaseSensitive(msg, "removed");

	if (cJSON_IsArray(gone)) {
		text_add(b, "Withdrawn:");
		cJSON_ArrayForEach(s, gone) {
			text_add(b, " ");
			text_add_untrusted(
			    b, cJSON_IsString(s) ? s->valuestring : "?", NULL);
		}
		text_add(b, gone->child == NULL ? " none.\n" : ".\n");
	}
	if (!cJSON_IsArray(list) || list->child == NULL) {
		text_add(b,
		    cJSON_IsArray(gone)
		        ? "You have no open seek.\n"
		        : "No open seeks. Make one with: seek GAME\n");
		return;
	}
	text_add(
	    b, cJSON_IsArray(gone) ? "Your open seeks:\n" : "Open seeks:\n");
	cJSON_ArrayForEach(s, list) {
		text_add(b, "  ");
		text_seek_line(b, s);
	}
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(msg, "more")))
		text_add(b, "  (more: seeks GAME narrows the list)\n");
}

/* play's and accept's reply: "You play white against bob in room r12." */
void
text_reply_play(struct text_buf *b, const cJSON *msg)
{
	const char *seat = text_str(msg, "seat"),
	           *opp = text_str(msg, "opponent");
	const char *room = text_str(msg, "room");

	text_addf(b, "You play %s against ", seat != NULL ? seat : "?");
	text_add_untrusted(b, opp != NULL ? opp : "?", NULL);
	text_addf(b, " in room %s.\n", room != NULL ? room : "?");
}

/* match's reply: the challenge is out. */
void
text_reply_match(struct text_buf *b, const cJSON *msg)
{
	const char *name = text_str(msg, "name"), *game = text_str(msg, "game");
	long long sec = 0;

	text_num(msg, "expires_in", &sec);
	text_addf(b,
	    "You challenge %s to %s; the answer comes within %lld s.\n",
	    name != NULL ? name : "?", game != NULL ? game : "?", sec);
}

/* "ana challenges you to ataxx (size=7, rated, untimed): type accept ana
 * or decline ana (within 60 s)." */
void
text_event_challenged(struct text_buf *b, const cJSON *msg)
{
	const char *from = text_str(msg, "from"), *game = text_str(msg, "game");
	const cJSON *o, *clock = cJSON_GetObjectItemCaseSensitive(msg, "clock");
	long long ini = 0, inc = 0, sec = 0;

	text_add_untrusted(b, from != NULL ? from : "?", NULL);
	text_add(b, " challenges you to ");
	text_add_untrusted(b, game != NULL ? game : "?", NULL);
	text_add(b, " (");
	cJSON_ArrayForEach(
	    o, cJSON_GetObjectItemCaseSensitive(msg, "options")) {
		text_add_untrusted(b, o->string, NULL);
		text_add(b, "=");
		text_add_untrusted(
		    b, cJSON_IsString(o) ? o->valuestring : "?", NULL);
		text_add(b, ", ");
	}
	text_add(b,
	    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(msg, "rated"))
	        ? "rated, "
	        : "casual, ");
	if (text_num(clock, "initial", &ini) &&
	    text_num(clock, "increment", &inc))
		text_addf(b, "%lld+%lld s", ini, inc);
	else
		text_add(b, "untimed");
	text_num(msg, "expires_in", &sec);
	text_add(b, "): type accept ");
	text_add_untrusted(b, from != NULL ? from : "?", NULL);
	text_add(b, " or decline ");
	text_add_untrusted(b, from != NULL ? from : "?", NULL);
	text_addf(b, " (within %lld s).\n", sec);
}

/* "bob declined your challenge (ataxx)." and the like. */
void
text_event_challenge_over(struct text_buf *b, const cJSON *msg)
{
	const char *name = text_str(msg, "name"), *game = text_str(msg, "game");
	const char *why = text_str(msg, "reason");

	text_add(b, "Your challenge to ");
	text_add_untrusted(b, name != NULL ? name : "?", NULL);
	text_add(b, " (");
	text_add_untrusted(b, game != NULL ? game : "?", NULL);
	text_add(b, ") is over: ");
	if (why != NULL && strcmp(why, "declined") == 0)
		text_add(b, "they declined.\n");
	else if (why != NULL && strcmp(why, "expired") == 0)
		text_add(b, "no answer came in time.\n");
	else
		text_add(b, "they are gone or cannot play now.\n");
}

/* A seek met another: the game starts in the room named. */
void
text_event_paired(struct text_buf *b, const cJSON *msg)
{
	const char *room = text_str(msg, "room"),
	           *opp = text_str(msg, "opponent");
	const char *game = text_str(msg, "game"), *seat = text_str(msg, "seat");

	text_add(b, "Paired with ");
	text_add_untrusted(b, opp != NULL ? opp : "?", NULL);
	text_add(b, " for ");
	text_add_untrusted(b, game != NULL ? game : "?", NULL);
	text_add(b, ": you play ");
	text_add_untrusted(b, seat != NULL ? seat : "?", NULL);
	text_add(b, " in room ");
	text_add_untrusted(b, room != NULL ? room : "?", NULL);
	text_add(b, ".\n");
}

/* A tournament's one-line summary: "t1 stones Swiss, round 2 of 3,
 * playing, 7 players (organiser ana)"; before the start "t1 stones round
 * robin, not started (3 rounds planned), open, 4 players (...)". */
static void
text_tourney_line(struct text_buf *b, const cJSON *t)
{
	const char *id = text_str(t, "id"), *game = text_str(t, "game");
	const char *format = text_str(t, "format"), *st = text_str(t, "status");
	const char *org = text_str(t, "organiser");
	long long round = 0, rounds = 0, n = 0;

	text_num(t, "round", &round);
	text_num(t, "rounds", &rounds);
	text_num(t, "nplayers", &n);
	text_add_untrusted(b, id != NULL ? id : "?", NULL);
	text_add(b, " ");
	text_add_untrusted(b, game != NULL ? game : "?", NULL);
	text_add(b, " ");
	text_add(b,
	    format != NULL && strcmp(format, "swiss") == 0 ? "Swiss"
	                                                   : "round robin");
	if (round > 0)
		text_addf(b, ", round %lld of %lld", round, rounds);
	else if (rounds > 0)
		text_addf(b, ", not started (%lld round%s planned)", rounds,
		    rounds == 1 ? "" : "s");
	else
		text_add(b, ", not started");
	text_addf(b, ", %s, %lld player%s (organiser ", st != NULL ? st : "?",
	    n, n == 1 ? "" : "s");
	text_add_untrusted(b, org != NULL ? org : "?", NULL);
	text_add(b, ")\n");
}

/* A score in quarters of a point, as "2", "2.5" or "2.75". */
static void
text_quarters(struct text_buf *b, long long q, int width)
{
	char s[32];

	if (q % 4 == 0)
		snprintf(s, sizeof s, "%lld", q / 4);
	else if (q % 2 == 0)
		snprintf(s, sizeof s, "%lld.5", q / 4);
	else
		snprintf(s, sizeof s, "%.2f", (double)q / 4);
	text_addf(b, "%*s", width, s);
}

/* The standings as a table: place, name, points, tie-break, W-D-L of
 * the games played and the byes apart ("2-0-1 +1 bye"; a bye scores a
 * win's point). */
static void
text_standings(struct text_buf *b, const cJSON *list, const char *tb)
{
	const cJSON *s;

	if (!cJSON_IsArray(list) || list->child == NULL)
		return;
	text_addf(b, "  #  %-16s %6s %6s  W-D-L   (tb: %s)\n", "name", "points",
	    "tb", tb != NULL ? tb : "tie-break");
	cJSON_ArrayForEach(s, list) {
		const char *name = text_str(s, "name");
		long long place = 0, halves = 0, tbq = 0, w = 0, d = 0, l = 0,
		          byes = 0;
		size_t len;

		text_num(s, "place", &place);
		text_num(s, "points_halves", &halves);
		text_num(s, "tiebreak_quarters", &tbq);
		text_num(s, "wins", &w);
		text_num(s, "draws", &d);
		text_num(s, "losses", &l);
		text_num(s, "byes", &byes);
		text_addf(b, "%3lld  ", place);
		text_add_untrusted(b, name != NULL ? name : "?", NULL);
		len = name != NULL ? strlen(name) : 1;
		text_addf(b, "%*s ", len < 16 ? (int)(16 - len) : 0, "");
		text_quarters(b, halves * 2, 6);
		text_add(b, " ");
		text_quarters(b, tbq, 6);
		text_addf(b, "  %lld-%lld-%lld", w, d, l);
		if (byes > 0)
			text_addf(
			    b, " +%lld bye%s", byes, byes == 1 ? "" : "s");
		text_add(b, "\n");
	}
}

/* The tie-breaks by name in the order they apply, and each tie on points
 * with what broke it: "Tie-breaks, in order: Buchholz, Sonneborn-Berger,
 * wins, seed." then "  bob is above ana on wins." */
static void
text_tiebreak_notes(struct text_buf *b, const cJSON *msg)
{
	const cJSON *order = cJSON_GetObjectItemCaseSensitive(msg, "tiebreaks");
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(msg, "standings");
	const cJSON *it;
	int first = 1;

	if (!cJSON_IsArray(order) || order->child == NULL ||
	    !cJSON_IsArray(st) || st->child == NULL)
		return;
	text_add(b, "Tie-breaks, in order:");
	cJSON_ArrayForEach(it, order) {
		if (!cJSON_IsString(it))
			continue;
		text_add(b, first ? " " : ", ");
		text_add_untrusted(b, it->valuestring, NULL);
		first = 0;
	}
	text_add(b, ".\n");
	cJSON_ArrayForEach(it, st) {
		const char *by = text_str(it, "above_next_by");
		const char *me = text_str(it, "name");
		const char *next =
		    it->next != NULL ? text_str(it->next, "name") : NULL;

		if (by == NULL || next == NULL || strcmp(by, "points") == 0)
			continue;
		text_add(b, "  ");
		text_add_untrusted(b, me != NULL ? me : "?", NULL);
		text_add(b, " is above ");
		text_add_untrusted(b, next, NULL);
		text_add(b, " on ");
		text_add_untrusted(b, by, NULL);
		text_add(b, ".\n");
	}
}

/* One crosstable cell: the opponent's place, w or b, and the result from
 * the row's side (1, 0, = a draw, + and - forfeits, * being played), as
 * "4w1"; "bye" for the bye. */
static void
text_cross_cell(struct text_buf *b, const cJSON *cell)
{
	const char *res = text_str(cell, "result"),
	           *col = text_str(cell, "colour");
	int forfeit =
	    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cell, "forfeit"));
	long long place = 0;
	char s[32];
	const char *r;

	if (res != NULL && strcmp(res, "bye") == 0) {
		text_addf(b, " %6s", "bye");
		return;
	}
	text_num(cell, "opponent_place", &place);
	if (res == NULL || *res == '\0')
		r = "*";
	else if (strcmp(res, "1/2") == 0)
		r = "=";
	else if (strcmp(res, "1") == 0)
		r = forfeit ? "+" : "1";
	else
		r = forfeit ? "-" : "0";
	snprintf(s, sizeof s, "%lld%c%s", place,
	    col != NULL && strcmp(col, "black") == 0 ? 'b' : 'w', r);
	text_addf(b, " %6s", s);
}

/* The crosstable: a row per player in the order of the standings, a
 * column per round. */
static void
text_crosstable(struct text_buf *b, const cJSON *rows, long long rounds)
{
	const cJSON *row, *cell;
	long long r;

	if (!cJSON_IsArray(rows) || rows->child == NULL || rounds <= 0)
		return;
	text_add(b,
	    "Crosstable (each round: the opponent's place, w or b, "
	    "the result: 1 0 =, + - forfeits, * playing):\n");
	text_addf(b, "  #  %-16s", "name");
	for (r = 1; r <= rounds; r++)
		text_addf(b, " %5s%lld", "R", r);
	text_addf(b, " %6s\n", "points");
	cJSON_ArrayForEach(row, rows) {
		const char *name = text_str(row, "name");
		long long place = 0, halves = 0;
		size_t len = name != NULL ? strlen(name) : 1;

		text_num(row, "place", &place);
		text_num(row, "points_halves", &halves);
		text_addf(b, "%3lld  ", place);
		text_add_untrusted(b, name != NULL ? name : "?", NULL);
		text_addf(b, "%*s", len < 16 ? (int)(16 - len) : 0, "");
		r = 0;
		cJSON_ArrayForEach(
		    cell, cJSON_GetObjectItemCaseSensitive(row, "rounds")) {
			text_cross_cell(b, cell);
			r++;
		}
		for (; r < rounds; r++)
			text_addf(b, " %6s", "");
		text_add(b, " ");
		text_quarters(b, halves * 2, 6);
		text_add(b, "\n");
	}
}

/* The games of a round: "  1. ana - bob  r7  1-0". */
static void
text_pairings(struct text_buf *b, const cJSON *list)
{
	const cJSON *g;

	cJSON_ArrayForEach(g, list) {
		const char *w = text_str(g, "white"), *k = text_str(g, "black");
		const char *room = text_str(g, "room"),
		           *res = text_str(g, "result");
		long long board = 0;

		text_num(g, "board", &board);
		text_addf(b, "  %lld. ", board);
		text_add_untrusted(b, w != NULL ? w : "?", NULL);
		if (k == NULL) {
			text_add(b, " has the bye");
		} else {
			text_add(b, " - ");
			text_add_untrusted(b, k, NULL);
		}
		if (room != NULL) {
			text_add(b, "  ");
			text_add_untrusted(b, room, NULL);
		}
		text_add(b, "  ");
		text_add_untrusted(
		    b, res != NULL && *res != '\0' ? res : "playing", NULL);
		text_eol(b);
	}
}

/* tourney's reply: a list, or one tournament with its standings and the
 * current round's pairings. */
void
text_reply_tourney(struct text_buf *b, const cJSON *msg)
{
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(msg, "tourneys");
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(msg, "tourney");
	const cJSON *it, *players, *pairings;

	if (cJSON_IsArray(list)) {
		if (list->child == NULL)
			text_add(b,
			    "No tournaments yet: tourney create GAME "
			    "starts one.\n");
		cJSON_ArrayForEach(it, list)
			text_tourney_line(b, it);
		return;
	}
	if (!cJSON_IsObject(t)) {
		text_reply_ok(b, msg);
		return;
	}
	text_tourney_line(b, t);
	players = cJSON_GetObjectItemCaseSensitive(t, "players");
	if (cJSON_IsArray(players) && players->child != NULL) {
		text_add(b, "Players:");
		cJSON_ArrayForEach(it, players)
			if (cJSON_IsString(it)) {
				text_add(b, " ");
				text_add_untrusted(b, it->valuestring, NULL);
			}
		text_eol(b);
	}
	text_standings(b, cJSON_GetObjectItemCaseSensitive(msg, "standings"),
	    text_str(msg, "tiebreak"));
	text_tiebreak_notes(b, msg);
	{
		long long round = 0;

		text_num(t, "round", &round);
		text_crosstable(b,
		    cJSON_GetObjectItemCaseSensitive(msg, "crosstable"), round);
	}
	pairings = cJSON_GetObjectItemCaseSensitive(msg, "pairings");
	if (cJSON_IsArray(pairings) && pairings->child != NULL) {
		long long round = 0;

		text_num(msg, "pairings_round", &round);
		text_addf(b, "Round %lld:\n", round);
		text_pairings(b, pairings);
	}
}

/* A round begins: where to go, or the bye. */
void
text_event_tourney_round(struct text_buf *b, const cJSON *msg)
{
	const char *id = text_str(msg, "tourney"),
	           *room = text_str(msg, "room");
	const char *seat = text_str(msg, "seat"),
	           *opp = text_str(msg, "opponent");
	long long round = 0, rounds = 0, grace = 0;
	int pending =
	    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(msg, "pending"));

	text_num(msg, "round", &round);
	text_num(msg, "rounds", &rounds);
	text_num(msg, "grace", &grace);
	/* a reminder at hello: the seconds left, not the whole grace */
	if (pending)
		text_num(msg, "left", &grace);
	text_add(b, "Tournament ");
	text_add_untrusted(b, id != NULL ? id : "?", NULL);
	text_addf(b, ", round %lld of %lld: ", round, rounds);
	if (room == NULL) {
		text_add(b, "you have the bye (a win).\n");
		return;
	}
	if (pending)
		text_add(b, "your game is waiting for you: ");
	text_add(b, "you play ");
	text_add_untrusted(b, seat != NULL ? seat : "?", NULL);
	text_add(b, " against ");
	text_add_untrusted(b, opp != NULL ? opp : "?", NULL);
	text_add(b, ": type join ");
	text_add_untrusted(b, room, NULL);
	text_addf(b, " within %lld s or lose the game.\n", grace);
}

/* A tournament game decided unplayed (a forfeit): the server's sentence,
 * which says who did not sit down and who wins. */
void
text_event_tourney_result(struct text_buf *b, const cJSON *msg)
{
	const char *m = text_str(msg, "message");
	const char *id = text_str(msg, "tourney"),
	           *res = text_str(msg, "result");

	if (m != NULL) {
		text_add_untrusted(b, m, NULL);
		text_eol(b);
		return;
	}
	text_add(b, "Tournament ");
	text_add_untrusted(b, id != NULL ? id : "?", NULL);
	text_add(b, ": a game ended ");
	text_add_untrusted(b, res != NULL ? res : "?", NULL);
	text_add(b, ".\n");
}

/* To the organiser: a player joined their tournament. */
void
text_event_tourney_joined(struct text_buf *b, const cJSON *msg)
{
	const char *id = text_str(msg, "tourney"),
	           *name = text_str(msg, "name");
	long long n = 0;

	text_num(msg, "nplayers", &n);
	text_add_untrusted(b, name != NULL ? name : "?", NULL);
	text_add(b, " joined your tournament ");
	text_add_untrusted(b, id != NULL ? id : "?", NULL);
	text_addf(b, " (%lld player%s now).\n", n, n == 1 ? "" : "s");
}

/* The last round is over: the final standings. */
void
text_event_tourney_ended(struct text_buf *b, const cJSON *msg)
{
	const char *id = text_str(msg, "tourney");

	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(msg, "expired"))) {
		text_add(b, "Tournament ");
		text_add_untrusted(b, id != NULL ? id : "?", NULL);
		text_add(b,
		    " expired: its organiser did not start it in "
		    "time.\n");
		return;
	}
	text_add(b, "Tournament ");
	text_add_untrusted(b, id != NULL ? id : "?", NULL);
	text_add(b, " is over. Final standings:\n");
	text_standings(b, cJSON_GetObjectItemCaseSensitive(msg, "standings"),
	    text_str(msg, "tiebreak"));
	text_tiebreak_notes(b, msg);
}

/* The room (none: the seeks and tournaments) moved to another cluster
 * node: connect again. */
void
text_event_reconnect(struct text_buf *b, const cJSON *msg)
{
	if (text_str(msg, "room") == NULL) {
		text_add(b,
		    "Seeks and tournaments moved to another server: "
		    "connect again and log in with hello NAME TOKEN.\n");
		return;
	}
	text_addf(b,
	    "Room %s moved to another server: connect again and "
	    "log in with hello NAME TOKEN.\n",
	    text_str(msg, "room") ? text_str(msg, "room") : "?");
}

/* The names of a list (blocks), "nobody" when it is empty. */
static void
text_names(struct text_buf *b, const cJSON *list)
{
	const cJSON *n;

	if (!cJSON_IsArray(list) || list->child == NULL) {
		text_add(b, "nobody");
		return;
	}
	cJSON_ArrayForEach(n, list) {
		text_add_untrusted(
		    b, cJSON_IsString(n) ? n->valuestring : "?", NULL);
		if (n->next != NULL)
			text_add(b, ", ");
	}
}

/* block, unblock and blocks: what changed, then whom the player blocks:
 * "You block eve: ... You block: eve, tom." */
void
text_reply_blocks(struct text_buf *b, const cJSON *msg)
{
	const char *re = text_str(msg, "re"), *name = text_str(msg, "name");

	if (re != NULL && name != NULL && strcmp(re, "block") == 0) {
		text_add(b, "You block ");
		text_add_untrusted(b, name, NULL);
		text_add(b,
		    ": no tells, invites, pairings, joins or chat of "
		    "theirs reach you.\n");
	} else if (re != NULL && name != NULL && strcmp(re, "unblock") == 0) {
		text_add(b, "You no longer block ");
		text_add_untrusted(b, name, NULL);
		text_add(b, ".\n");
	}
	text_add(b, "You block: ");
	text_names(b, cJSON_GetObjectItemCaseSensitive(msg, "blocks"));
	text_add(b, ".\n");
}

/* An operator's act done: "Muted eve for 10 minutes.", "Banned
 * 10.0.0.0/8 (2 connections closed).", "Announced to 12 players." */
void
text_reply_moderate(struct text_buf *b, const cJSON *msg)
{
	static const char *const done[][2] = {{"kick", "Kicked"},
	    {"mute", "Muted"}, {"unmute", "Unmuted"}, {"ban", "Banned"},
	    {"unban", "Unbanned"}};
	const char *re = text_str(msg, "re"), *who = text_str(msg, "name");
	long long n;
	size_t i;

	if (re != NULL && strcmp(re, "announce") == 0) {
		if (!text_num(msg, "reached", &n))
			n = 0;
		text_addf(b, "Announced to %lld connection%s.\n", n,
		    n == 1 ? "" : "s");
		return;
	}
	if (who == NULL)
		who = text_str(msg, "address");
	for (i = 0; i < sizeof done / sizeof done[0]; i++)
		if (re != NULL && strcmp(re, done[i][0]) == 0)
			text_add(b, done[i][1]);
	text_add(b, " ");
	text_add_untrusted(b, who != NULL ? who : "?", NULL);
	if (text_num(msg, "minutes", &n))
		text_addf(b, " for %lld minute%s", n, n == 1 ? "" : "s");
	else if (re != NULL && strcmp(re, "mute") == 0)
		text_add(b, " until unmuted");
	if (text_num(msg, "closed", &n) && n > 0)
		text_addf(
		    b, " (%lld connection%s closed)", n, n == 1 ? "" : "s");
	text_add(b, ".\n");
}

/* One ban or mute of bans' reply: "eve by ana since 2026-11-27 04:50
 * UTC, until ..." */
static void
text_ban_line(struct text_buf *b, const cJSON *o)
{
	const char *what = text_str(o, "name"), *by = text_str(o, "by");
	long long ms;

	if (what == NULL)
		what = text_str(o, "address");
	text_add(b, "  ");
	text_add_untrusted(b, what != NULL ? what : "?", NULL);
	text_add(b, " by ");
	text_add_untrusted(b, by != NULL ? by : "?", NULL);
	text_add(b, " since ");
	text_date(b, text_num(o, "since", &ms) ? ms : 0);
	if (text_num(o, "until", &ms)) {
		text_add(b, ", until ");
		text_date(b, ms);
	}
	text_add(b, "\n");
}

/* bans: the bans and mutes in force, one a line. */
void
text_reply_bans(struct text_buf *b, const cJSON *msg)
{
	static const char *const lists[][2] = {
	    {"bans", "Banned"}, {"mutes", "Muted"}};
	const cJSON *list, *o;
	size_t i;

	for (i = 0; i < sizeof lists / sizeof lists[0]; i++) {
		list = cJSON_GetObjectItemCaseSensitive(msg, lists[i][0]);
		if (!cJSON_IsArray(list) || list->child == NULL) {
			text_addf(b, "%s: nobody.\n", lists[i][1]);
			continue;
		}
		text_addf(b, "%s:\n", lists[i][1]);
		cJSON_ArrayForEach(o, list)
			text_ban_line(b, o);
	}
}

/* "*** ana (operator): TEXT", every line of the text so prefixed. */
void
text_event_announcement(struct text_buf *b, const cJSON *msg)
{
	struct text_buf prefix = {NULL, 0, 0, 0, NULL};
	const char *from = text_str(msg, "from");

	text_add(&prefix, "*** ");
	text_add_untrusted(&prefix, from != NULL ? from : "?", NULL);
	text_add(&prefix, " (operator): ");
	text_prefixed(b, &prefix, text_str(msg, "text"));
}
