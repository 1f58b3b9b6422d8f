/*
 * fuzz_amazons_pos.c: the Amazons position string on random bytes. An
 * accepted string must come back exactly from to_position, and the game it
 * sets up must answer every query (moves, status, picture, file) sanely.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/games.h"
#include "tests/fuzz/fuzz.h"

/* The longest valid position is under 120 bytes; more only repeats. */
#define FUZZ_POS_MAX 512

static void
fuzz_check(const struct rules_game *g, void *st, struct rules_move *list,
    const char *text)
{
	char err[RULES_ERR_MAX], buf[RULES_TEXT_MAX];
	struct rules_status status;
	int n;

	if (g->init(st, NULL, 0, err, sizeof err) != 0)
		abort();
	err[0] = '\0';
	if (g->from_position(st, text, err, sizeof err) != 0) {
		if (err[0] == '\0')
			abort();
		return;
	}
	if (g->to_position(st, buf, sizeof buf) < 0 || strcmp(buf, text) != 0)
		abort();
	n = g->legal_moves(st, list, RULES_MAX_MOVES);
	g->status(st, &status);
	if ((n == 0) != (status.result == RULES_WIN))
		abort();
	if ((uint64_t)n != g->perft(st, 1))
		abort();
	if (g->render(st, buf, sizeof buf) < 0 ||
	    g->board_rows(st, buf, sizeof buf) < 0 ||
	    g->export_file(st, buf, sizeof buf) < 0)
		abort();
	if (n > 0)
		g->apply(st, list[n - 1]);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct rules_game *g = &rules_amazons;
	struct rules_move *list;
	char *text;
	void *st;

	if (size > FUZZ_POS_MAX)
		return 0;
	text = fuzz_text(data, size);
	st = malloc(g->state_size);
	list = malloc(RULES_MAX_MOVES * sizeof *list);
	if (text != NULL && st != NULL && list != NULL)
		fuzz_check(g, st, list, text);
	free(text);
	free(st);
	free(list);
	return 0;
}
