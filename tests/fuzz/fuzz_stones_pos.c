/*
 * fuzz_stones_pos.c: random bytes as a Stones position string. A string
 * from_position accepts must come back exactly from to_position and give a
 * consistent game; a refused one must leave a reason and the game as it was.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/games.h"

/* A position string is 15 characters; a few more exercise the "text
 * after the position" check without wasting time. */
#define FUZZ_MAX_INPUT 64

static void
fuzz_check(int ok)
{
	if (!ok)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned char st[RULES_STATE_MAX], before[RULES_STATE_MAX];
	static struct rules_move mv[RULES_MAX_MOVES];
	const struct rules_game *g = &rules_stones;
	struct rules_opt opt = {"first", "1"};
	char text[FUZZ_MAX_INPUT + 1], out[RULES_TEXT_MAX];
	char err[RULES_ERR_MAX];
	struct rules_status s;
	int n;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	fuzz_check(g->init(st, &opt, 1, err, sizeof err) == 0);
	memcpy(before, st, g->state_size);
	err[0] = '\0';
	if (g->from_position(st, text, err, sizeof err) != 0) {
		fuzz_check(err[0] != '\0');
		fuzz_check(memcmp(st, before, g->state_size) == 0);
		return 0;
	}
	fuzz_check(g->to_position(st, out, sizeof out) == (int)strlen(text));
	fuzz_check(strcmp(out, text) == 0);
	g->status(st, &s);
	n = g->legal_moves(st, mv, RULES_MAX_MOVES);
	fuzz_check((n > 0) == (s.result == RULES_PLAYING));
	fuzz_check(g->render(st, out, sizeof out) > 0);
	fuzz_check(g->board_rows(st, out, sizeof out) == 12);
	if (n > 0) {
		g->apply(st, mv[n - 1]);
		fuzz_check(g->to_position(st, out, sizeof out) > 0);
	}
	return 0;
}
