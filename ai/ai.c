/*
 * ai.c: the entry points the server calls: a game's solver, found by its
 * wire name in one table (a game without one is solved by the generic
 * search of ai_solve_generic).
 */
#include <string.h>

#include "ai/ai.h"

static const struct {
	const char *game;
	enum ai_verdict (*solve)(
	    const void *, long, const atomic_int *, struct rules_move *);
} ai_solvers[] = {
    {"solitaire", ai_solitaire_solve},
    {"shifter", ai_shifter_solve},
};

enum ai_verdict
ai_solve(const struct rules_game *g, const void *st, long node_limit,
    const atomic_int *cancel, struct rules_move *hint)
{
	size_t i;

	for (i = 0; i < sizeof ai_solvers / sizeof ai_solvers[0]; i++)
		if (strcmp(ai_solvers[i].game, g->name) == 0)
			return ai_solvers[i].solve(
			    st, node_limit, cancel, hint);
	return AI_UNKNOWN;
}

int
ai_cancelled(const atomic_int *cancel)
{
	return cancel != NULL &&
	    atomic_load_explicit(cancel, memory_order_relaxed) != 0;
}
