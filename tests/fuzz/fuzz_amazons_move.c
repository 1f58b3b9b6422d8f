/*
 * fuzz_amazons_move.c: the Amazons move parser on random bytes, against the
 * opening, the seed's worked example (both sides to move) and a finished
 * game. An accepted move must be one legal_moves lists and must format back
 * to text that parses to the same move; a refused one must say why.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/games.h"
#include "tests/fuzz/fuzz.h"

/* Longer input than any move text only repeats the malformed case. */
#define FUZZ_MOVE_MAX 256

static const char *const fuzz_positions[] = {
    "3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3 w",
    "xB8/6x1W1/x9/Wx4B3/xx7W/6xx2/7x2/1x6B1/1x8/1B2xxWxxx w",
    "xB8/6x1W1/x9/Wx4B3/xx7W/6xx2/7x2/1x6B1/1x8/1B2xxWxxx b",
    "Wx6xW/xx6xx/10/10/BBBB6/10/10/10/xx6xx/Wx6xW w",
};

static void
fuzz_one(const struct rules_game *g, void *st, struct rules_move *list,
    const char *pos, const char *text)
{
	char err[RULES_ERR_MAX], buf[RULES_LINE_MAX];
	struct rules_move m, again;
	int n;

	if (g->init(st, NULL, 0, err, sizeof err) != 0 ||
	    g->from_position(st, pos, err, sizeof err) != 0)
		abort();
	err[0] = '\0';
	if (g->parse_move(st, text, &m, err, sizeof err) != 0) {
		if (err[0] == '\0')
			abort();
		return;
	}
	n = g->legal_moves(st, list, RULES_MAX_MOVES);
	if (!rules_move_listed(list, n, m))
		abort();
	g->format_move(st, m, buf, sizeof buf);
	if (g->parse_move(st, buf, &again, err, sizeof err) != 0 ||
	    again.from != m.from || again.to != m.to || again.arg != m.arg)
		abort();
	g->describe_move(st, m, buf, sizeof buf);
	g->apply(st, m);
	if (g->to_position(st, buf, sizeof buf) < 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct rules_game *g = &rules_amazons;
	struct rules_move *list;
	char *text;
	void *st;
	size_t i;

	if (size > FUZZ_MOVE_MAX)
		return 0;
	text = fuzz_text(data, size);
	st = malloc(g->state_size);
	list = malloc(RULES_MAX_MOVES * sizeof *list);
	if (text != NULL && st != NULL && list != NULL) {
		for (i = 0;
		     i < sizeof fuzz_positions / sizeof fuzz_positions[0]; i++)
			fuzz_one(g, st, list, fuzz_positions[i], text);
	}
	free(text);
	free(st);
	free(list);
	return 0;
}
