/*
 * test_amazons_engine.c: the Amazons engine's search and evaluation
 * against plain references. The transposition table's cutoffs and null
 * windows change how much is searched, not the value: at a fixed depth
 * the score is the same with them as without, on random positions; with
 * the moves tried first (the table's, killers) too, the search does less
 * work. No timings: the speed is shown by `make bench`.
 */
#include <stdio.h>
#include <string.h>

#include "ai/ai.h"
#include "check.h"
#include "rules/amazons.h"
#include "rules/games.h"

/* Where AM_W_SEARCH sits in the engine's weights, and its bits (enum
 * am_weight in ai/amazons_engine.c). */
#define W_SEARCH 7
#define S_TABLE 1
#define S_KILLERS 2
#define S_PVS 4
#define S_TTMOVE 8

/* A position after `plies` random moves from the start (fewer when the
 * game ends first). */
static void
random_position(struct amazons_state *st, struct rules_rng *rng, int plies)
{
	struct rules_move mv[RULES_MAX_MOVES / 2];
	char err[RULES_ERR_MAX] = "";
	int ply, n;

	CHECK_INT(rules_amazons.init(st, NULL, 0, err, sizeof err), 0);
	for (ply = 0; ply < plies; ply++) {
		n = rules_amazons.legal_moves(st, mv, RULES_MAX_MOVES / 2);
		if (n == 0)
			break;
		rules_amazons.apply(st, mv[rules_rng_below(rng, (unsigned)n)]);
	}
}

/* The engine's search of st to `depth` with search switches `bits`. */
static struct rules_move
search(
    const struct amazons_state *st, int depth, int bits, struct ai_report *rep)
{
	struct ai_limits lim;
	struct rules_move m = {RULES_NONE, RULES_NONE, RULES_NONE};
	int w[AI_WEIGHTS];

	ai_amazons_defaults(w);
	w[W_SEARCH] = bits;
	ai_limits_level(&lim, AI_LEVEL_MAX, 1);
	lim.depth = depth;
	lim.ms = 600000;
	lim.weights = w;
	memset(rep, 0, sizeof *rep);
	CHECK_INT(ai_amazons_move(st, &lim, &m, rep), 0);
	return m;
}

/* At depths 3 and 4 the table's cutoffs (with and without null windows)
 * give the score plain alpha-beta gives, in fewer nodes over all the
 * positions; every switch on, far fewer. */
static void
test_table_same_value(void)
{
	struct rules_rng rng;
	long plain_nodes = 0, table_nodes = 0, all_nodes = 0;
	int k, checked = 0;

	rules_rng_seed(&rng, 2323);
	for (k = 0; k < 16; k++) {
		struct amazons_state st;
		struct ai_report r0, r1, r2, r3;
		struct rules_move one;
		int depth = 3 + k % 2;

		random_position(&st, &rng, 4 + 3 * k);
		if (rules_amazons.legal_moves(&st, &one, 1) == 0)
			continue;
		search(&st, depth, 0, &r0);
		search(&st, depth, S_TABLE, &r1);
		search(&st, depth, S_TABLE | S_PVS, &r2);
		CHECK_INT(r1.score, r0.score);
		CHECK_INT(r2.score, r0.score);
		CHECK_INT(r1.depth, depth);
		search(&st, depth, S_TABLE | S_KILLERS | S_PVS | S_TTMOVE, &r3);
		CHECK_INT(r3.depth, depth);
		plain_nodes += r0.nodes;
		table_nodes += r1.nodes;
		all_nodes += r3.nodes;
		checked++;
	}
	CHECK(checked >= 12);
	CHECK(table_nodes < plain_nodes);
	CHECK(all_nodes < plain_nodes * 3 / 4);
	printf("amazons table: %d positions, %ld nodes plain, %ld with the "
	       "table's cutoffs, %ld with every switch\n",
	    checked, plain_nodes, table_nodes, all_nodes);
}

int
main(void)
{
	test_table_same_value();
	return check_done();
}
