/*
 * rules_wasm.c: the games' rules for the web page. The Makefile builds this
 * file and rules/ (the server's own rules, unchanged) to WebAssembly,
 * build/web/js/rules.wasm, which tablerod serves beside the page's
 * scripts. web/js/rules.js holds one room's game in it, so that the page
 * plays each lean `moved` event on its own position, as the terminal
 * client does, and asks `state` only when it missed an event
 * (docs/PROTOCOL.md, "Lean events").
 *
 * The page writes a request into rules_wasm_in()'s buffer as strings, each
 * ending in a NUL, calls rules_wasm_load() or rules_wasm_move() with the
 * bytes written, and reads the answer, strings each ending in a NUL, from
 * rules_wasm_out()'s buffer. A call returns 0, or -1 with the reason as
 * the answer's one string.
 *
 * The module is the page's: one game at a time, in this file's static
 * state (there is no loop to share it with).
 */
#include <string.h>

#include "rules/rules.h"

/* The most bytes of one request or answer: a loaded board file (the
 * largest text option the games take) with room to spare. */
#define RULES_WASM_IO_MAX (256 * 1024)

/* The most options a request gives (rules_start's own limit). */
#define RULES_WASM_OPTS_MAX RULES_START_OPTS_MAX

/* The exports (the page calls them; nothing in C does). */
char *rules_wasm_in(void);
char *rules_wasm_out(void);
int rules_wasm_io_max(void);
int rules_wasm_load(int len);
int rules_wasm_move(int len);

static char rules_wasm_req[RULES_WASM_IO_MAX];
static char rules_wasm_ans[RULES_WASM_IO_MAX];
static size_t rules_wasm_used;
static _Alignas(16) unsigned char rules_wasm_st[RULES_STATE_MAX];
static const struct rules_game *rules_wasm_game;

/* Where the page writes a request. */
__attribute__((export_name("rules_wasm_in"))) char *
rules_wasm_in(void)
{
	return rules_wasm_req;
}

/* Where the page reads the answer. */
__attribute__((export_name("rules_wasm_out"))) char *
rules_wasm_out(void)
{
	return rules_wasm_ans;
}

/* The size of both buffers. */
__attribute__((export_name("rules_wasm_io_max"))) int
rules_wasm_io_max(void)
{
	return RULES_WASM_IO_MAX;
}

/* Append a string and its NUL to the answer (cut when it would not fit). */
static void
rules_wasm_put(const char *s)
{
	size_t n = strlen(s);

	if (n + 1 > RULES_WASM_IO_MAX - rules_wasm_used)
		n = RULES_WASM_IO_MAX - rules_wasm_used - 1;
	memcpy(rules_wasm_ans + rules_wasm_used, s, n);
	rules_wasm_used += n;
	rules_wasm_ans[rules_wasm_used++] = '\0';
}

/* An answer of one string, the reason; -1. */
static int
rules_wasm_fail(const char *why)
{
	rules_wasm_used = 0;
	rules_wasm_put(why);
	return -1;
}

/*
 * Split a request of len bytes into its strings: up to max pointers into
 * the request; their count, or -1 when the last string has no NUL.
 */
static int
rules_wasm_split(int len, const char **out, int max)
{
	int n = 0, at = 0;

	if (len < 0 || len > RULES_WASM_IO_MAX ||
	    (len > 0 && rules_wasm_req[len - 1] != '\0'))
		return -1;
	while (at < len && n < max) {
		out[n++] = rules_wasm_req + at;
		at += (int)strlen(rules_wasm_req + at) + 1;
	}
	return at < len ? -1 : n;
}

/*
 * Start a game: the request is the game's wire name, the position string
 * (to_position's form, as `state` gives it), then each option's name and
 * value (`state`'s `options`). The game is made from its options, as the
 * server made it, then set to the position. The answer is the board rows,
 * one string.
 */
__attribute__((export_name("rules_wasm_load"))) int
rules_wasm_load(int len)
{
	const char *part[2 + 2 * RULES_WASM_OPTS_MAX];
	struct rules_opt opts[RULES_WASM_OPTS_MAX];
	char err[RULES_ERR_MAX], rows[RULES_TEXT_MAX];
	const struct rules_game *g;
	int n, i;

	rules_wasm_game = NULL;
	n = rules_wasm_split(len, part, (int)(sizeof part / sizeof part[0]));
	if (n < 2 || n % 2 != 0)
		return rules_wasm_fail("a malformed request");
	g = rules_find(part[0]);
	if (g == NULL)
		return rules_wasm_fail("no such game");
	for (i = 0; i < (n - 2) / 2; i++) {
		opts[i].key = part[2 + 2 * i];
		opts[i].value = part[3 + 2 * i];
	}
	if (rules_start(g, rules_wasm_st, opts, (n - 2) / 2, err, sizeof err) !=
	        0 ||
	    g->from_position(rules_wasm_st, part[1], err, sizeof err) != 0)
		return rules_wasm_fail(err);
	rules_wasm_game = g;
	rules_wasm_used = 0;
	g->board_rows(rules_wasm_st, rows, sizeof rows);
	rules_wasm_put(rows);
	return 0;
}

/*
 * Play one move on the game loaded: the request is the move as the
 * `moved` event gave it. The answer: the move in notation, its sentence
 * (the `text` of `state`'s history, said on the position before it), the
 * position string, the board rows and the picture after it.
 */
__attribute__((export_name("rules_wasm_move"))) int
rules_wasm_move(int len)
{
	static char text[RULES_TEXT_MAX];
	const struct rules_game *g = rules_wasm_game;
	char err[RULES_ERR_MAX];
	const char *part[1];
	struct rules_move m;

	if (g == NULL)
		return rules_wasm_fail("no game is loaded");
	if (rules_wasm_split(len, part, 1) != 1)
		return rules_wasm_fail("a malformed request");
	if (g->parse_move(rules_wasm_st, part[0], &m, err, sizeof err) != 0)
		return rules_wasm_fail(err);
	rules_wasm_used = 0;
	g->format_move(rules_wasm_st, m, text, sizeof text);
	rules_wasm_put(text);
	g->describe_move(rules_wasm_st, m, text, sizeof text);
	rules_wasm_put(text);
	g->apply(rules_wasm_st, m);
	if (g->to_position(rules_wasm_st, text, sizeof text) < 0)
		return rules_wasm_fail("the position does not fit");
	rules_wasm_put(text);
	g->board_rows(rules_wasm_st, text, sizeof text);
	rules_wasm_put(text);
	g->render(rules_wasm_st, text, sizeof text);
	rules_wasm_put(text);
	return 0;
}
