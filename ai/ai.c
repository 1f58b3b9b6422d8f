/*
 * ai.c: the entry points the server calls: a game's solver or bot engine,
 * found by the game's descriptor in one table (a game without a solver has
 * no hints: AI_UNKNOWN; a two-player game without an engine is played by
 * the generic search of bot.c), the levels' times, and the clock every
 * search checks.
 */
#include <string.h>
#include <time.h>

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

/* Each game's own engine, by descriptor. */
static const struct {
	const struct rules_game *game;
	int (*move)(const void *, const struct ai_limits *, struct rules_move *,
	    struct ai_report *);
} ai_engines[] = {
    {&rules_ataxx, ai_ataxx_move},
    {&rules_amazons, ai_amazons_move},
    {&rules_stones, ai_stones_move},
};

/* Time per move of levels 1 to 5, in milliseconds (docs/PROTOCOL.md). */
static const long ai_level_table[AI_LEVEL_MAX] = {50, 200, 500, 1000, 2000};

long
ai_level_ms(int level)
{
	if (level < AI_LEVEL_MIN)
		level = AI_LEVEL_MIN;
	if (level > AI_LEVEL_MAX)
		level = AI_LEVEL_MAX;
	return ai_level_table[level - 1];
}

void
ai_limits_level(struct ai_limits *lim, int level, uint64_t seed)
{
	memset(lim, 0, sizeof *lim);
	lim->level = level;
	lim->ms = ai_level_ms(level);
	lim->seed = seed;
}

int
ai_bot_move(const struct rules_game *g, const void *st,
    const struct ai_limits *lim, struct rules_move *out, struct ai_report *rep)
{
	struct ai_report spare;
	size_t i;

	if (rep == NULL)
		rep = &spare;
	memset(rep, 0, sizeof *rep);
	for (i = 0; i < sizeof ai_engines / sizeof ai_engines[0]; i++)
		if (ai_engines[i].game == g)
			return ai_engines[i].move(st, lim, out, rep);
	return ai_generic_move(g, st, lim, out, rep);
}

/* A bot accepts a draw when its last search found its own side this far
 * behind, in its engine's units: Ataxx scores in hundredths of a piece,
 * so three pieces. */
#define AI_DRAW_MARGIN_ATAXX 300

int
ai_bot_accepts_draw(const struct rules_game *g, int score)
{
	if (g == &rules_stones)
		return score <= 0; /* the solver's exact value: drawn or lost */
	if (g == &rules_ataxx)
		return score <= -AI_DRAW_MARGIN_ATAXX;
	return 0; /* no engine score to go by (or no draws: Amazons) */
}

uint64_t
ai_clock_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

uint64_t
ai_deadline(uint64_t start, long ms)
{
	return start + (uint64_t)(ms - ms / 32);
}

int
ai_out_of_time(uint64_t deadline, const atomic_int *cancel)
{
	return ai_cancelled(cancel) || ai_clock_ms() >= deadline;
}
