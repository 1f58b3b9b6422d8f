/*
 * fuzz_solitaire_pos.c: the peg solitaire position string on random text,
 * and the solver on what it accepts. A refused string must say why and
 * leave the game as it was; an accepted one must write back exactly as it
 * was read. The solver, on a small node budget, must give a legal hint
 * whenever it says the position is winnable.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ai/ai.h"
#include "rules/games.h"
#include "rules/solitaire.h"
#include "tests/fuzz/fuzz.h"

/* A 10x10 position is under 130 bytes. */
#define FUZZ_POS_MAX 512

/* Enough for the solver to finish on small positions and to give up, as
 * it must, on large ones, while the fuzzer stays quick. */
#define FUZZ_SOLVER_NODES 2000

static void
fuzz_check(
    const struct rules_game *g, struct solitaire_state *s, const char *text)
{
	char err[RULES_ERR_MAX], pos[RULES_LINE_MAX];
	struct solitaire_state before;
	struct rules_status st;
	struct rules_move hint;
	enum ai_verdict v;

	if (g->init(s, NULL, 0, err, sizeof err) != 0)
		abort();
	before = *s;
	err[0] = '\0';
	if (g->from_position(s, text, err, sizeof err) != 0) {
		if (err[0] == '\0' || memcmp(s, &before, sizeof before) != 0)
			abort();
		return;
	}
	if (g->to_position(s, pos, sizeof pos) < 0 || strcmp(pos, text) != 0)
		abort();
	g->status(s, &st);
	v = ai_solitaire_solve(s, FUZZ_SOLVER_NODES, NULL, &hint);
	if (st.result == RULES_SOLVED && (v != AI_WINNABLE || hint.to >= 0))
		abort();
	if (st.result == RULES_BLOCKED && v != AI_LOST)
		abort();
	if (v == AI_WINNABLE && st.result == RULES_PLAYING &&
	    !fuzz_is_legal(g, s, hint))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct rules_game *g = &rules_solitaire;
	struct solitaire_state *s;
	char *text;

	if (size > FUZZ_POS_MAX)
		return 0;
	s = malloc(sizeof *s);
	text = fuzz_text(data, size);
	if (s != NULL && text != NULL)
		fuzz_check(g, s, text);
	free(s);
	free(text);
	return 0;
}
