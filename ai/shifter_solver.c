/*
 * shifter_solver.c: decides whether a Shape Shifter Chess position can still
 * be won, and which capture keeps it winnable.
 *
 * Pieces never change kind on their square (the mover leaves, the taken
 * piece stays), so a position is the set of squares left and the active
 * square, and winning is finding a path from the active piece through every
 * other piece. The search is depth-first over bitboards with:
 *  - a memo of positions proven lost (kept across restarts: lost is lost);
 *  - cuts: every piece left must be reachable from the active one, and the
 *    pieces must have distinct takers (a bipartite matching from each piece
 *    to a piece that can take it, Hall's condition for a path), which also
 *    catches a piece nobody can take and two pieces with no capture left;
 *  - a forced capture: when a piece can only be taken by the active one,
 *    the active piece must take it now;
 *  - restarts: searches for paths have heavy tails (an ordering that is
 *    slow on one board is instant with another), so the search runs with a
 *    node budget that doubles, switching between two orders of captures
 *    (fewest onward captures first, Warnsdorff's rule; or fewest takers
 *    first) and, after the first two runs, random tie-breaks.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ai/ai.h"
#include "rules/shifter.h"

/* Memo slots to start with, and the most it grows to: 2^20 slots of 16
 * bytes is 16 MB, a fair share of a worker thread's memory. */
#define SHIFTER_MEMO_MIN (1u << 12)
#define SHIFTER_MEMO_MAX (1u << 20)
/* Slots probed for a key: past this the memo overwrites, so a full memo
 * stays fast and bounded (it only forgets, never lies). */
#define SHIFTER_MEMO_PROBES 16
/* Nodes of the first two runs; each later pair of runs has twice as many.
 * Small, because most generated levels fall in a few dozen nodes. */
#define SHIFTER_FIRST_RUN 2000L

/* A position proven lost; occ == 0 marks a free slot (a position always
 * has its active piece). */
struct shifter_memo_slot {
	uint64_t occ;
	int64_t active;
};

struct shifter_solver {
	uint64_t out[SHIFTER_SQUARES]; /* what the piece on each square takes */
	uint64_t in[SHIFTER_SQUARES];  /* the squares whose piece takes it */
	long nodes;                    /* nodes searched, all runs together */
	long stop;                     /* this run ends at this many nodes */
	const atomic_int *cancel;      /* set by another thread: give up */
	unsigned run;                  /* this run's number: its order */
	struct shifter_memo_slot *memo;
	size_t cap, used; /* cap is a power of two */
};

static uint64_t
shifter_solver_bit(int sq)
{
	return (uint64_t)1 << sq;
}

static int
shifter_solver_first(uint64_t m)
{
	return __builtin_ctzll(m);
}

static int
shifter_solver_count(uint64_t m)
{
	return __builtin_popcountll(m);
}

static size_t
shifter_memo_home(const struct shifter_solver *sv, uint64_t occ, int active)
{
	uint64_t h =
	    rules_mix64(occ ^ (uint64_t)active * 0x9e3779b97f4a7c15ULL);

	return (size_t)h & (sv->cap - 1);
}

/* Is (occ, active) known to be lost? */
static int
shifter_memo_has(const struct shifter_solver *sv, uint64_t occ, int active)
{
	size_t i, home;

	if (sv->memo == NULL)
		return 0;
	home = shifter_memo_home(sv, occ, active);
	for (i = 0; i < SHIFTER_MEMO_PROBES; i++) {
		const struct shifter_memo_slot *e =
		    &sv->memo[(home + i) & (sv->cap - 1)];

		if (e->occ == 0)
			return 0;
		if (e->occ == occ && e->active == active)
			return 1;
	}
	return 0;
}

/* Store a key in the first free slot of its probe run, else over its home
 * slot. */
static void
shifter_memo_put(struct shifter_solver *sv, uint64_t occ, int active)
{
	size_t i, home = shifter_memo_home(sv, occ, active);
	struct shifter_memo_slot *e;

	for (i = 0; i < SHIFTER_MEMO_PROBES; i++) {
		e = &sv->memo[(home + i) & (sv->cap - 1)];
		if (e->occ == 0) {
			e->occ = occ;
			e->active = active;
			sv->used++;
			return;
		}
	}
	e = &sv->memo[home];
	e->occ = occ;
	e->active = active;
}

/* Double the memo while it is under its cap; on no memory keep the old. */
static void
shifter_memo_grow(struct shifter_solver *sv)
{
	struct shifter_memo_slot *old = sv->memo;
	size_t oldcap = sv->cap, i;

	sv->memo = calloc(oldcap * 2, sizeof *sv->memo);
	if (sv->memo == NULL) {
		sv->memo = old;
		return;
	}
	sv->cap = oldcap * 2;
	sv->used = 0;
	for (i = 0; i < oldcap; i++)
		if (old[i].occ != 0)
			shifter_memo_put(sv, old[i].occ, (int)old[i].active);
	free(old);
}

/* Remember that (occ, active) is lost. */
static void
shifter_memo_add(struct shifter_solver *sv, uint64_t occ, int active)
{
	if (sv->memo == NULL)
		return;
	if (sv->used * 2 >= sv->cap && sv->cap < SHIFTER_MEMO_MAX)
		shifter_memo_grow(sv);
	shifter_memo_put(sv, occ, active);
}

/* The pieces of `rest` that some chain of captures from `from` reaches. */
static uint64_t
shifter_solver_reached(const struct shifter_solver *sv, uint64_t rest, int from)
{
	uint64_t seen = sv->out[from] & rest, todo = seen;

	while (todo != 0) {
		uint64_t o = sv->out[shifter_solver_first(todo)] & rest & ~seen;

		todo &= todo - 1;
		seen |= o;
		todo |= o;
	}
	return seen;
}

/* Find a taker among `takers` for the piece on q, moving earlier matches
 * along (an augmenting path); 1 when found. */
static int
shifter_solver_augment(const struct shifter_solver *sv, int q, uint64_t takers,
    uint64_t *tried, int8_t *taken_by)
{
	uint64_t c;

	for (c = sv->in[q] & takers & ~*tried; c != 0; c &= c - 1) {
		int p = shifter_solver_first(c);

		*tried |= shifter_solver_bit(p);
		if (taken_by[p] < 0 ||
		    shifter_solver_augment(
		        sv, taken_by[p], takers, tried, taken_by)) {
			taken_by[p] = (int8_t)q;
			return 1;
		}
	}
	return 0;
}

/* Can every piece of `rest` get its own taker among rest and the active
 * piece? A path takes each piece once, each taker takes once. */
static int
shifter_solver_matched(
    const struct shifter_solver *sv, uint64_t rest, int active)
{
	uint64_t takers = rest | shifter_solver_bit(active), m, tried;
	int8_t taken_by[SHIFTER_SQUARES];

	memset(taken_by, -1, sizeof taken_by);
	for (m = rest; m != 0; m &= m - 1) {
		tried = 0;
		if (!shifter_solver_augment(
		        sv, shifter_solver_first(m), takers, &tried, taken_by))
			return 0;
	}
	return 1;
}

/* Can a path from the active piece still take every piece of `rest`? 0
 * when it cannot; else 1 and the captures worth trying in *moves: all of
 * them, or the one the active piece is forced to make. */
static int
shifter_solver_feasible(
    const struct shifter_solver *sv, uint64_t rest, int active, uint64_t *moves)
{
	uint64_t once = sv->out[active] & rest, twice = 0, m, forced;

	for (m = rest; m != 0; m &= m - 1) {
		uint64_t o = sv->out[shifter_solver_first(m)] & rest;

		twice |= once & o;
		once |= o;
	}
	if (once != rest)
		return 0;
	*moves = sv->out[active] & rest;
	forced = *moves & ~twice;
	if (forced != 0) {
		if ((forced & (forced - 1)) != 0)
			return 0;
		*moves = forced;
	}
	return shifter_solver_reached(sv, rest, active) == rest &&
	    shifter_solver_matched(sv, rest, active);
}

/* The captures among `moves` in this run's order; their count. */
static int
shifter_solver_order(
    const struct shifter_solver *sv, uint64_t rest, uint64_t moves, int *order)
{
	uint64_t key[SHIFTER_SQUARES], k, t;
	int n = 0, i;

	for (t = moves; t != 0; t &= t - 1) {
		int sq = shifter_solver_first(t);
		uint64_t onward =
		    (uint64_t)shifter_solver_count(sv->out[sq] & rest);
		uint64_t takers =
		    (uint64_t)shifter_solver_count(sv->in[sq] & rest);
		uint64_t tie = sv->run < 2
		    ? (uint64_t)sq
		    : rules_mix64(sv->run * 64u + (unsigned)sq) & 0xffff;

		k = sv->run % 2 == 0 ? onward << 32 | tie
		                     : takers << 40 | onward << 32 | tie;
		for (i = n; i > 0 && key[i - 1] > k; i--) {
			key[i] = key[i - 1];
			order[i] = order[i - 1];
		}
		key[i] = k;
		order[i] = sq;
		n++;
	}
	return n;
}

/* 1 when the position (occ, active) can be won, with the first capture in
 * *first; 0 when it cannot; -1 when this run's nodes ran out. */
static int
shifter_solver_search(
    struct shifter_solver *sv, uint64_t occ, int active, int *first)
{
	uint64_t rest = occ & ~shifter_solver_bit(active), moves;
	int order[SHIFTER_SQUARES], n, i, r;

	if (rest == 0)
		return 1;
	if (sv->nodes >= sv->stop)
		return -1;
	sv->nodes++;
	if ((sv->nodes & (AI_CANCEL_EVERY - 1)) == 0 &&
	    ai_cancelled(sv->cancel))
		return -1;
	if ((sv->out[active] & rest) == 0 || shifter_memo_has(sv, occ, active))
		return 0;
	if (!shifter_solver_feasible(sv, rest, active, &moves)) {
		shifter_memo_add(sv, occ, active);
		return 0;
	}
	n = shifter_solver_order(sv, rest, moves, order);
	for (i = 0; i < n; i++) {
		r = shifter_solver_search(sv, rest, order[i], NULL);
		if (r == 1 && first != NULL)
			*first = order[i];
		if (r != 0)
			return r;
	}
	shifter_memo_add(sv, occ, active);
	return 0;
}

/* Runs with doubling budgets until one finishes or node_limit (> 0) is
 * spent; the search's answer, -1 for out of nodes. */
static int
shifter_solver_runs(struct shifter_solver *sv, uint64_t occ, int active,
    long node_limit, int *first)
{
	long budget = SHIFTER_FIRST_RUN;
	int r;

	for (sv->run = 0;; sv->run++) {
		sv->stop = sv->nodes + budget;
		if (node_limit > 0 && sv->stop > node_limit)
			sv->stop = node_limit;
		r = shifter_solver_search(sv, occ, active, first);
		if (r >= 0 || (node_limit > 0 && sv->nodes >= node_limit) ||
		    ai_cancelled(sv->cancel))
			return r;
		if (sv->run % 2 == 1 && budget < LONG_MAX / 4)
			budget *= 2;
	}
}

enum ai_verdict
ai_shifter_solve(const void *st, long node_limit, const atomic_int *cancel,
    struct rules_move *hint)
{
	const struct shifter_state *s = st;
	struct shifter_solver sv;
	struct rules_move none = {RULES_NONE, RULES_NONE, RULES_NONE};
	uint64_t occ = shifter_occupied(s), t;
	int sq, first = RULES_NONE, r;

	if (hint != NULL)
		*hint = none;
	if ((occ & ~shifter_solver_bit(s->active)) == 0)
		return AI_WINNABLE;
	memset(&sv, 0, sizeof sv);
	sv.cancel = cancel;
	for (sq = 0; sq < SHIFTER_SQUARES; sq++) {
		if (s->board[sq] == SHIFTER_EMPTY)
			continue;
		sv.out[sq] = shifter_reach(s, s->board[sq], sq) & occ;
		for (t = sv.out[sq]; t != 0; t &= t - 1)
			sv.in[shifter_solver_first(t)] |=
			    shifter_solver_bit(sq);
	}
	sv.cap = SHIFTER_MEMO_MIN;
	sv.memo = calloc(sv.cap, sizeof *sv.memo);
	r = shifter_solver_runs(&sv, occ, s->active, node_limit, &first);
	free(sv.memo);
	if (r < 0)
		return AI_UNKNOWN;
	if (r == 0)
		return AI_LOST;
	if (hint != NULL) {
		hint->from = s->active;
		hint->to = (int16_t)first;
	}
	return AI_WINNABLE;
}
