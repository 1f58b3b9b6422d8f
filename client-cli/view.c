/*
 * view.c: what the player sees: sentences, the board drawn by rules/ from
 * the position (the same picture the server's text mode shows) with the
 * cells the last move changed highlighted, the clocks, and errors as
 * sentences. Colour only when wanted (not --no-color, no NO_COLOR, a tty).
 */
#include <sys/ioctl.h>

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "client-cli/client.h"

/* ANSI attributes: the highlighted cells, sentences about moves, errors. */
#define VIEW_HIGHLIGHT "\033[1;7m"
#define VIEW_NOTE "\033[1m"
#define VIEW_ERR "\033[31m"
#define VIEW_OFF "\033[0m"

/* A picture line that differs from the one before the move in more than
 * this many cells is not marked (a line of a whole board redrawn). */
#define VIEW_MARK_MAX 8

/* Milliseconds of a monotonic clock. */
long long
view_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Print text for people (above the prompt when libedit owns the
 * terminal). */
void
view_text(struct client *c, const char *text)
{
	if (c->opts.batch)
		return;
	term_write(c, text);
}

/* printf-like view_text. */
void
view_print(struct client *c, const char *fmt, ...)
{
	char buf[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (c->opts.batch) {
		/* a batch says what went wrong on stderr, never on stdout */
		fputs(buf, stderr);
		return;
	}
	view_text(c, buf);
}

/* Append s to the bounded buffer at *used. */
static void
view_add(char *buf, size_t len, size_t *used, const char *s)
{
	size_t n = strlen(s);

	if (*used + n + 1 > len)
		n = len - *used - 1;
	memcpy(buf + *used, s, n);
	*used += n;
	buf[*used] = '\0';
}

/* Length of the line starting at s (without its '\n'). */
static size_t
view_line_len(const char *s)
{
	const char *e = strchr(s, '\n');

	return e != NULL ? (size_t)(e - s) : strlen(s);
}

/* 1 when a picture line is text, not board: it holds a word (two
 * letters in a row: whose turn, the score, a legend), where every
 * board row and file line of every game has single letters only. */
static int
view_is_text(const char *line, size_t len)
{
	size_t i;

	for (i = 0; i + 1 < len; i++)
		if (isalpha((unsigned char)line[i]) &&
		    isalpha((unsigned char)line[i + 1]))
			return 1;
	return 0;
}

/* 1 when position i of a picture line is a board cell: not part of a
 * number (a rank), so no letter or digit on either side. */
static int
view_is_cell(const char *line, size_t len, size_t i)
{
	int before = i > 0 && isalnum((unsigned char)line[i - 1]);
	int after = i + 1 < len && isalnum((unsigned char)line[i + 1]);

	return !before && !after;
}

/* One picture line, its cells that differ from the line before the move
 * highlighted when they are few. */
static void
view_mark_line(char *out, size_t len, size_t *used, const char *now,
    size_t nlen, const char *was, size_t wlen)
{
	size_t i, diff = 0;
	char one[2] = {0, 0};
	int on = 0;

	if (was != NULL && wlen == nlen)
		for (i = 0; i < nlen; i++)
			diff += now[i] != was[i];
	if (was == NULL || wlen != nlen || diff == 0 || diff > VIEW_MARK_MAX ||
	    view_is_text(now, nlen)) {
		for (i = 0; i < nlen; i++) {
			one[0] = now[i];
			view_add(out, len, used, one);
		}
		return;
	}
	for (i = 0; i < nlen; i++) {
		int mark = now[i] != was[i] && view_is_cell(now, nlen, i);
		if (mark && !on)
			view_add(out, len, used, VIEW_HIGHLIGHT);
		if (!mark && on)
			view_add(out, len, used, VIEW_OFF);
		on = mark;
		one[0] = now[i];
		view_add(out, len, used, one);
	}
	if (on)
		view_add(out, len, used, VIEW_OFF);
}

/* The picture with the last move's cells marked (colour only). */
static void
view_marked(
    struct client *c, const char *now, const char *was, char *out, size_t len)
{
	size_t used = 0;

	out[0] = '\0';
	while (*now != '\0') {
		size_t nlen = view_line_len(now);
		size_t wlen = was != NULL ? view_line_len(was) : 0;

		view_mark_line(out, len, &used, now, nlen,
		    was != NULL && *was != '\0' ? was : NULL, wlen);
		view_add(out, len, &used, "\n");
		now += nlen + (now[nlen] == '\n');
		if (was != NULL) {
			was += wlen + (was[wlen] == '\n');
			if (*was == '\0')
				was = NULL;
		}
	}
}

/* r's clocks as "white 4:53, black 1:00:00" (the side to move counting
 * down, the server's text mode's format); "" for an untimed game. */
static void
view_clocks_of(const struct client_room *r, char *buf, size_t len)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	if (!r->active || !r->has_clocks || r->rg == NULL)
		return;
	for (i = 0; i < r->rg->seats && i < 2; i++) {
		long long ms = r->clocks[i];
		char one[96], time[32];

		if (r->clocks_running && i == r->turn)
			ms -= view_now_ms() - r->clocks_at;
		proto_clock_format(ms, time, sizeof time);
		snprintf(one, sizeof one, "%s%s %s", i ? ", " : "",
		    r->rg->seat_names[i], time);
		view_add(buf, len, &used, one);
	}
}

/* The current room's clocks (view_clocks_of). */
void
view_clocks(struct client *c, char *buf, size_t len)
{
	view_clocks_of(&c->room, buf, len);
}

/* The terminal's height in rows, or 0 when it is not known. */
int
view_rows(void)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0)
		return 0;
	return ws.ws_row;
}

/* r's board for st (r->st or r->before) into buf: the game's own
 * drawing when it has one, else rules' picture; its length, or -1. */
static int
view_render(
    struct client_room *r, const void *st, int marks, char *buf, size_t len)
{
	int n = -1;

	if (r->cg != NULL && r->cg->draw != NULL)
		n = r->cg->draw(r, st, marks, view_rows(), buf, len);
	if (n < 0)
		n = r->rg->render(st, buf, len);
	return n;
}

/* The board view_board() draws now, unmarked, in a static buffer; NULL
 * when it draws none. */
const char *
view_picture(struct client *c)
{
	struct client_room *r = &c->room;
	static char now[RULES_TEXT_MAX];

	if (!r->active || !r->have_state || r->rg == NULL ||
	    view_render(r, r->st, 1, now, sizeof now) < 0)
		return NULL;
	return now;
}

/* Draw the room's board, whose turn it is and the clocks. */
void
view_board(struct client *c)
{
	view_board_of(c, &c->room);
}

/* Draw r's board (the current room's, or one only shown, a past
 * position), whose turn it is and its clocks. */
void
view_board_of(struct client *c, struct client_room *r)
{
	static char now[RULES_TEXT_MAX];
	static char was[RULES_TEXT_MAX];
	static char out[RULES_TEXT_MAX * 3];
	char clocks[256];

	if (!r->active || !r->have_state)
		return;
	r->board_due = 0;
	if (r->rg == NULL || view_render(r, r->st, 1, now, sizeof now) < 0)
		return;
	if (c->opts.color && r->have_last &&
	    view_render(r, r->before, 0, was, sizeof was) >= 0)
		view_marked(c, now, was, out, sizeof out);
	else
		view_marked(c, now, NULL, out, sizeof out);
	view_text(c, out);
	view_clocks_of(r, clocks, sizeof clocks);
	if (clocks[0] != '\0')
		view_print(c, "Clocks: %s\n", clocks);
}

/* An error reply as a sentence: its message with a capital and a full
 * stop, never JSON. */
void
view_error(struct client *c, const cJSON *rep)
{
	const cJSON *msg = cJSON_GetObjectItemCaseSensitive(rep, "message");
	const cJSON *code = cJSON_GetObjectItemCaseSensitive(rep, "error");
	char buf[1024];
	size_t n;

	snprintf(buf, sizeof buf, "%s",
	    cJSON_IsString(msg) ? msg->valuestring
	        : cJSON_IsString(code)
	        ? proto_error_message(proto_error_from_code(code->valuestring))
	        : "the server refused that");
	buf[0] = (char)toupper((unsigned char)buf[0]);
	n = strlen(buf);
	if (n > 0 && buf[n - 1] != '.' && buf[n - 1] != '?' &&
	    buf[n - 1] != '!' && n + 1 < sizeof buf)
		strcat(buf, ".");
	if (c->opts.color)
		view_print(c, VIEW_ERR "%s" VIEW_OFF "\n", buf);
	else
		view_print(c, "%s\n", buf);
}

/* The client's own refusal of a command (a file that cannot be read):
 * a sentence, or in batch mode a JSON error line {"re":verb,"ok":false,
 * "error":"local","message":...} on stdout, in order with the replies. */
void
view_refuse(struct client *c, const char *verb, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	cJSON *o;
	char *line;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (!c->opts.batch) {
		view_print(c, "%s\n", buf);
		return;
	}
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "re", verb);
	cJSON_AddBoolToObject(o, "ok", 0);
	cJSON_AddStringToObject(o, "error", "local");
	cJSON_AddStringToObject(o, "message", buf);
	line = proto_json_line(o);
	if (line != NULL)
		fputs(line, c->out);
	fflush(c->out);
	free(line);
	cJSON_Delete(o);
}
