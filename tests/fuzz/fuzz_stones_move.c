/*
 * fuzz_stones_move.c: random bytes played as a game of Stones. The first
 * byte picks the `first` option and seed; the rest is lines, each a move
 * text for parse_move, or "!" and a byte that plays that legal move by
 * index. Every accepted move must be among legal_moves, and after each move
 * the game must stay consistent: status against legal_moves, the position
 * string round-trip, the picture and rows.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/games.h"

/* Inputs longer than this add nothing a shorter one cannot reach: the
 * repetition rule ends every game within 6,726 plies. */
#define FUZZ_MAX_INPUT 16384

/* Longest move line handed to parse_move. */
#define FUZZ_MAX_LINE 32

static void
fuzz_check(int ok)
{
	if (!ok)
		abort();
}

/* The game must agree with itself after every move. */
static void
fuzz_consistent(const struct rules_game *g, const void *st)
{
	static unsigned char copy[RULES_STATE_MAX];
	static struct rules_move mv[RULES_MAX_MOVES];
	char pos[RULES_LINE_MAX], again[RULES_LINE_MAX];
	char text[RULES_TEXT_MAX], err[RULES_ERR_MAX];
	struct rules_status s;
	struct rules_move m;
	int n, i;

	g->status(st, &s);
	n = g->legal_moves(st, mv, RULES_MAX_MOVES);
	fuzz_check((n > 0) == (s.result == RULES_PLAYING));
	fuzz_check(s.reason != NULL);
	fuzz_check((s.reason[0] == '\0') == (s.result == RULES_PLAYING));
	fuzz_check(g->turn(st) == 0 || g->turn(st) == 1);
	for (i = 0; i < n; i++) {
		g->format_move(st, mv[i], text, sizeof text);
		fuzz_check(g->parse_move(st, text, &m, err, sizeof err) == 0);
		fuzz_check(memcmp(&m, &mv[i], sizeof m) == 0);
		g->describe_move(st, mv[i], text, sizeof text);
		fuzz_check(text[0] != '\0');
	}
	fuzz_check(g->to_position(st, pos, sizeof pos) > 0);
	memcpy(copy, st, g->state_size);
	fuzz_check(g->from_position(copy, pos, err, sizeof err) == 0);
	fuzz_check(g->to_position(copy, again, sizeof again) > 0);
	fuzz_check(strcmp(pos, again) == 0);
	fuzz_check(g->hash(copy) == g->hash(st));
	fuzz_check(g->render(st, text, sizeof text) > 0);
	fuzz_check(g->board_rows(st, text, sizeof text) == 12);
}

/* Play one line: a move text, or "!" and a byte choosing a legal move. */
static void
fuzz_line(const struct rules_game *g, void *st, const char *line, size_t len)
{
	static struct rules_move mv[RULES_MAX_MOVES];
	char err[RULES_ERR_MAX];
	struct rules_move m;
	int n, i, found = 0;

	n = g->legal_moves(st, mv, RULES_MAX_MOVES);
	if (len == 2 && line[0] == '!') {
		if (n == 0)
			return;
		g->apply(st, mv[(unsigned char)line[1] % (unsigned)n]);
		fuzz_consistent(g, st);
		return;
	}
	err[0] = '\0';
	if (g->parse_move(st, line, &m, err, sizeof err) != 0) {
		fuzz_check(err[0] != '\0');
		return;
	}
	for (i = 0; i < n; i++)
		found |= memcmp(&m, &mv[i], sizeof m) == 0;
	fuzz_check(found);
	g->apply(st, m);
	fuzz_consistent(g, st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned char st[RULES_STATE_MAX];
	static const char *const firsts[] = {"1", "2", "random"};
	const struct rules_game *g = &rules_stones;
	struct rules_opt opts[2];
	char seed[16], line[FUZZ_MAX_LINE + 1], err[RULES_ERR_MAX];
	size_t i, len = 0;

	if (size < 1 || size > FUZZ_MAX_INPUT)
		return 0;
	snprintf(seed, sizeof seed, "%u", (unsigned)data[0] >> 2);
	opts[0] = (struct rules_opt){"first", firsts[data[0] % 3]};
	opts[1] = (struct rules_opt){"seed", seed};
	fuzz_check(rules_opts_check(g, opts, 2, err, sizeof err) == 0);
	fuzz_check(g->init(st, opts, 2, err, sizeof err) == 0);
	fuzz_consistent(g, st);
	for (i = 1; i <= size; i++) {
		if (i == size || data[i] == '\n') {
			line[len] = '\0';
			fuzz_line(g, st, line, len);
			len = 0;
		} else if (len < FUZZ_MAX_LINE) {
			line[len++] = (char)data[i];
		}
	}
	return 0;
}
