/*
 * ai.c: the entry points the server calls: a game's solver, found by the
 * game's descriptor in one table (a game without one has no solver: its
 * hint answers AI_UNKNOWN).
 */
#include "ai/ai.h"
#include "rules/games.h"

static const struct {
	const struct rules_game *game;
	enum ai_verdict (*solve)(
	    const void *, long, const atomic_int *, struct rules_move *);
} ai_solvers[] = {
    {&rules_solitaire, ai_solitaire_solve},
    {&rules_shifter, ai_shifter_solve},
};

enum ai_verdict
ai_solve(const struct rules_game *g, const void *st, long node_limit,
    const atomic_int *cancel, struct rules_move *hint)
{
	size_t i;

	for (i = 0; i < sizeof ai_solvers / sizeof ai_solvers[0]; i++)
		if (ai_solvers[i].game == g)
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
