/*
 * fuzz_shifter_move.c: the Shape Shifter move notation and position string
 * on random bytes. The input is "POSITION\nMOVE": a position that is
 * accepted must print back as exactly the same text; then (on it, or on a
 * generated level when it was refused) an accepted move must be one that
 * legal_moves lists and must format back to text that parses to the same
 * move, and a refused one must say why.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/games.h"
#include "rules/shifter.h"
#include "tests/fuzz/fuzz.h"

/* Longer input than a position and a move only repeats malformed cases. */
#define FUZZ_INPUT_MAX 256

/* Every listed move formats to text that parses back to it. */
static void
fuzz_check_listed(const struct rules_game *g, const void *st)
{
	struct rules_move list[SHIFTER_SQUARES], again;
	char err[RULES_ERR_MAX], buf[RULES_LINE_MAX];
	int i, n = g->legal_moves(st, list, SHIFTER_SQUARES);

	for (i = 0; i < n; i++) {
		g->format_move(st, list[i], buf, sizeof buf);
		if (g->parse_move(st, buf, &again, err, sizeof err) != 0 ||
		    again.from != list[i].from || again.to != list[i].to)
			abort();
	}
}

/* The position part: accepted text must print back unchanged. */
static void
fuzz_position(const struct rules_game *g, struct shifter_state *st,
    const char *pos, int level)
{
	char err[RULES_ERR_MAX], buf[RULES_LINE_MAX], opt[8];
	struct rules_opt o = {"level", opt};
	uint64_t h;

	opt[0] = (char)('1' + level % 9);
	opt[1] = '\0';
	if (g->init(st, &o, 1, err, sizeof err) != 0)
		abort();
	err[0] = '\0';
	if (g->from_position(st, pos, err, sizeof err) != 0) {
		if (err[0] == '\0')
			abort();
		return;
	}
	h = g->hash(st);
	if (g->to_position(st, buf, sizeof buf) < 0 || strcmp(buf, pos) != 0)
		abort();
	if (g->from_position(st, buf, err, sizeof err) != 0 || g->hash(st) != h)
		abort();
}

static void
fuzz_one(const struct rules_game *g, struct shifter_state *st, const char *pos,
    const char *text, int level)
{
	struct rules_move list[SHIFTER_SQUARES], m;
	char err[RULES_ERR_MAX], buf[RULES_LINE_MAX];
	struct rules_status status;
	int n;

	fuzz_position(g, st, pos, level);
	fuzz_check_listed(g, st);
	err[0] = '\0';
	if (g->parse_move(st, text, &m, err, sizeof err) != 0) {
		if (err[0] == '\0')
			abort();
		return;
	}
	n = g->legal_moves(st, list, SHIFTER_SQUARES);
	if (!rules_move_listed(list, n, m))
		abort();
	g->describe_move(st, m, buf, sizeof buf);
	g->apply(st, m);
	g->status(st, &status);
	if (status.score[0] != __builtin_popcountll(shifter_occupied(st)))
		abort();
	if (g->to_position(st, buf, sizeof buf) < 0 ||
	    g->render(st, buf, sizeof buf) < 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct rules_game *g = &rules_shifter;
	struct shifter_state *st;
	char *text, *nl;

	if (size > FUZZ_INPUT_MAX)
		return 0;
	text = fuzz_text(data, size);
	st = malloc(sizeof *st);
	if (text != NULL && st != NULL) {
		nl = strchr(text, '\n');
		if (nl != NULL)
			*nl = '\0';
		fuzz_one(g, st, text, nl != NULL ? nl + 1 : text,
		    size > 0 ? data[size - 1] : 0);
	}
	free(text);
	free(st);
	return 0;
}
