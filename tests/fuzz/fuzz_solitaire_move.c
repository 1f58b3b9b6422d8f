/*
 * fuzz_solitaire_move.c: peg solitaire move and cell notation on random
 * text. The first byte picks a board (the three shipped ones, or one
 * generated from it as a seed), the rest is the text. An accepted move
 * must be one of the legal moves and read back the same from its own
 * notation; a refused one must say why.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/games.h"
#include "rules/solitaire.h"
#include "tests/fuzz/fuzz.h"

/* Far over any sensible move, well under a line. */
#define FUZZ_TEXT_MAX 256

static int
fuzz_board(const struct rules_game *g, struct solitaire_state *s, uint8_t pick)
{
	static const char *const boards[] = {"english", "example", "european"};
	struct rules_opt o[4];
	char seed[16], err[RULES_ERR_MAX];

	if (pick < 3) {
		o[0].key = "board";
		o[0].value = boards[pick];
		return g->init(s, o, 1, err, sizeof err);
	}
	snprintf(seed, sizeof seed, "%u", (unsigned)pick);
	o[0].key = "steps";
	o[0].value = pick % 2 ? "12" : "40";
	o[1].key = "seed";
	o[1].value = seed;
	o[2].key = "rows";
	o[2].value = pick % 3 ? "10" : "5";
	o[3].key = "cols";
	o[3].value = pick % 5 ? "10" : "4";
	if (rules_opts_check(g, o, 4, err, sizeof err) != 0)
		abort();
	return g->init(s, o, 4, err, sizeof err);
}

static void
fuzz_check(
    const struct rules_game *g, struct solitaire_state *s, const char *text)
{
	char err[RULES_ERR_MAX], buf[RULES_LINE_MAX];
	struct rules_move m, again;
	int sq;

	err[0] = '\0';
	if (g->parse_square(s, text, &sq, err, sizeof err) == 0) {
		if (sq < 0 || sq >= s->rows * s->cols)
			abort();
	} else if (err[0] == '\0') {
		abort();
	}
	err[0] = '\0';
	if (g->parse_move(s, text, &m, err, sizeof err) != 0) {
		if (err[0] == '\0')
			abort();
		return;
	}
	if (!fuzz_is_legal(g, s, m))
		abort();
	g->format_move(s, m, buf, sizeof buf);
	if (g->parse_move(s, buf, &again, err, sizeof err) != 0 ||
	    again.from != m.from || again.to != m.to || again.arg != m.arg)
		abort();
	g->describe_move(s, m, buf, sizeof buf);
	g->apply(s, m);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct rules_game *g = &rules_solitaire;
	struct solitaire_state *s;
	char *text;

	if (size < 1 || size > FUZZ_TEXT_MAX)
		return 0;
	s = malloc(sizeof *s);
	text = fuzz_text(data + 1, size - 1);
	if (s != NULL && text != NULL) {
		if (fuzz_board(g, s, data[0]) != 0)
			abort();
		fuzz_check(g, s, text);
	}
	free(s);
	free(text);
	return 0;
}
