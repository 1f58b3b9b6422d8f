/*
 * bot.c: a computer player for any two-player game, on the rules interface
 * alone: iterative-deepening negamax with alpha-beta, judged by the score
 * difference (pieces in Ataxx) and the mobility of the side to move, until
 * its deadline (the previous bot; the games now have their own engines, and
 * the bench measures them against this one at equal time).
 */
#include <stdlib.h>
#include <string.h>

#include "ai/ai.h"

/* A won or lost position, beyond any evaluation. */
#define BOT_WIN 1000000
/* The deepest iteration tried, whatever the budget. */
#define BOT_DEPTH_MAX 12

/* The clock is read once in this many nodes (a power of two). */
#define BOT_CLOCK_EVERY 256

struct bot {
	const struct rules_game *g;
	long nodes;
	uint64_t deadline;
	const atomic_int *cancel;
	int out_of_time;
	unsigned char *states;    /* one state per ply */
	struct rules_move *moves; /* RULES_MAX_MOVES per ply */
	struct rules_rng rng;
};

/* The position as seen by the side to move: terminal results first, then
 * 16 per piece of score difference, plus mobility. */
static int
bot_eval(struct bot *b, const void *st, int ply, int nmoves)
{
	struct rules_status s;
	int me;

	rules_status(b->g, st, &s);
	me = b->g->turn(st);
	if (s.result == RULES_WIN)
		return s.winner == me ? BOT_WIN - ply : -BOT_WIN + ply;
	if (s.result != RULES_PLAYING)
		return 0;
	if (s.nscores == 2)
		return 16 * (s.score[me] - s.score[1 - me]) + nmoves;
	return nmoves;
}

static int
bot_search(
    struct bot *b, const void *st, int depth, int ply, int alpha, int beta)
{
	struct rules_move *mv = b->moves + (size_t)ply * RULES_MAX_MOVES;
	void *next = b->states + (size_t)ply * b->g->state_size;
	int n, i, best = -BOT_WIN - 1;

	if ((++b->nodes & (BOT_CLOCK_EVERY - 1)) == 0 &&
	    ai_out_of_time(b->deadline, b->cancel))
		b->out_of_time = 1;
	if (b->out_of_time)
		return 0;
	n = b->g->legal_moves(st, mv, RULES_MAX_MOVES);
	if (n == 0 || depth == 0)
		return bot_eval(b, st, ply, n);
	for (i = 0; i < n; i++) {
		int v;

		memcpy(next, st, b->g->state_size);
		b->g->apply(next, mv[i]);
		/* A pass keeps the same side to move in no game here; the
		 * sign flips with whoever moves next. */
		v = b->g->turn(next) == b->g->turn(st)
		    ? bot_search(b, next, depth - 1, ply + 1, alpha, beta)
		    : -bot_search(b, next, depth - 1, ply + 1, -beta, -alpha);
		if (b->out_of_time)
			return 0;
		if (v > best)
			best = v;
		if (v > alpha)
			alpha = v;
		if (alpha >= beta)
			break;
	}
	return best;
}

/* One full-width iteration at the root; 0 when it finished. */
static int
bot_root(struct bot *b, const void *st, struct rules_move *root, int n,
    int depth, struct rules_move *best)
{
	void *next = b->states + (size_t)(BOT_DEPTH_MAX + 1) * b->g->state_size;
	int alpha = -BOT_WIN - 1, i;

	for (i = 0; i < n; i++) {
		int v;

		memcpy(next, st, b->g->state_size);
		b->g->apply(next, root[i]);
		v = b->g->turn(next) == b->g->turn(st)
		    ? bot_search(b, next, depth - 1, 1, alpha, BOT_WIN + 1)
		    : -bot_search(b, next, depth - 1, 1, -BOT_WIN - 1, -alpha);
		if (b->out_of_time)
			return -1;
		if (v > alpha) {
			alpha = v;
			*best = root[i];
		}
	}
	return 0;
}

/* The bot's move for the side to move; 0, or -1 when it has none. The
 * root moves are shuffled with the seed so equal moves vary between games;
 * it looks level + 1 plies ahead, or lim->depth. */
int
ai_generic_move(const struct rules_game *g, const void *st,
    const struct ai_limits *lim, struct rules_move *out, struct ai_report *rep)
{
	struct bot b;
	struct rules_move *root, best;
	int n, i, depth, cap = lim->depth > 0 ? lim->depth : lim->level + 1;
	uint64_t start = ai_clock_ms();

	memset(&b, 0, sizeof b);
	b.g = g;
	b.deadline = ai_deadline(start, lim->ms);
	b.cancel = lim->cancel;
	rules_rng_seed(&b.rng, lim->seed);
	b.states = malloc((size_t)(BOT_DEPTH_MAX + 2) * g->state_size);
	b.moves = malloc(
	    (size_t)(BOT_DEPTH_MAX + 2) * RULES_MAX_MOVES * sizeof *b.moves);
	root = malloc(RULES_MAX_MOVES * sizeof *root);
	if (b.states == NULL || b.moves == NULL || root == NULL) {
		free(b.states);
		free(b.moves);
		free(root);
		return -1;
	}
	n = g->legal_moves(st, root, RULES_MAX_MOVES);
	for (i = n - 1; i > 0; i--) {
		unsigned j = rules_rng_below(&b.rng, (unsigned)i + 1);
		struct rules_move t = root[i];

		root[i] = root[j];
		root[j] = t;
	}
	if (n > 0)
		best = root[0];
	for (depth = 1; n > 1 && depth <= BOT_DEPTH_MAX && depth <= cap;
	     depth++) {
		struct rules_move found = best;

		if (bot_root(&b, st, root, n, depth, &found) != 0)
			break;
		best = found;
		rep->depth = depth;
	}
	rep->nodes = b.nodes;
	rep->ms = (long)(ai_clock_ms() - start);
	free(b.states);
	free(b.moves);
	free(root);
	if (n == 0)
		return -1;
	*out = best;
	return 0;
}
