/*
 * test_ataxx_solve.c: the Ataxx endings solver (ai/ataxx_solve.c) against
 * a brute force over the rules interface on small positions (5x5, and 7x7
 * with gaps), and level 5 keeping won endings that the engine without the
 * solver throws away.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai/ai.h"
#include "rules/ataxx.h"
#include "rules/games.h"
#include "tests/unit/check.h"

struct state {
	_Alignas(16) unsigned char b[RULES_STATE_MAX];
};

/* The engine's default weights in enum ax_weight's order
 * (ai/ataxx_engine.c) with the solver (the last) off. */
static const int no_solver[AI_WEIGHTS] = {
    -32, 3, 3, 189, 0, 0, 0, 0, 0, 120, 0};

static void
load(struct state *st, const char *pos)
{
	char err[RULES_ERR_MAX] = "";

	CHECK_INT(rules_ataxx.from_position(st->b, pos, err, sizeof err), 0);
	CHECK_STR(err, "");
}

/* Whether `seat` can force the game to end within d plies with a lead of
 * `lead` or more: every line, through the rules interface alone. */
static int
brute(const void *st, int seat, int lead, int d)
{
	struct rules_move mv[RULES_MAX_MOVES / 8];
	struct rules_status s;
	int n, i, mine = rules_ataxx.turn(st) == seat;

	rules_status(&rules_ataxx, st, &s);
	if (s.result != RULES_PLAYING)
		return s.score[seat] - s.score[!seat] >= lead;
	if (d == 0)
		return 0;
	n = rules_ataxx.legal_moves(st, mv, RULES_MAX_MOVES / 8);
	for (i = 0; i < n; i++) {
		struct state next;

		memcpy(next.b, st, rules_ataxx.state_size);
		rules_ataxx.apply(next.b, mv[i]);
		if (brute(next.b, seat, lead, d - 1) == mine)
			return mine;
	}
	return !mine;
}

/* A random position: a board of side `size`, `gaps` blocked squares,
 * `empty` empty ones, the rest white or black, a random side to move. */
static void
random_position(
    struct state *st, struct rules_rng *rng, int size, int gaps, int empty)
{
	char cell[81], fen[200];
	int n = size * size, i, r, c, at = 0;

	for (i = 0; i < n; i++)
		cell[i] = rules_rng_below(rng, 2) ? 'x' : 'o';
	for (i = 0; i < gaps + empty;) {
		int k = (int)rules_rng_below(rng, (unsigned)n);

		if (cell[k] == '-' || cell[k] == '1')
			continue;
		cell[k] = i < gaps ? '-' : '1';
		i++;
	}
	for (r = 0; r < size; r++) {
		for (c = 0; c < size; c++) {
			/* a run of empty squares is one digit */
			if (cell[r * size + c] == '1' && c > 0 &&
			    cell[r * size + c - 1] == '1')
				fen[at - 1]++;
			else
				fen[at++] = cell[r * size + c];
		}
		fen[at++] = r + 1 < size ? '/' : ' ';
	}
	snprintf(fen + at, sizeof fen - (size_t)at, "%c 0 1",
	    rules_rng_below(rng, 2) ? 'x' : 'o');
	load(st, fen);
}

/* The solver's answer for st with `lead` within d plies, checked against
 * the brute force: the answer, the length of the shortest line (none
 * shorter) and its first move (it leads to a proof one ply shorter). */
static void
check_solve(const struct state *st, int lead, int d, int *won)
{
	struct ai_ataxx_proof pf;
	int seat = rules_ataxx.turn(st->b), r;

	memset(&pf, 0, sizeof pf);
	pf.lead = lead;
	pf.plies = d;
	r = ai_ataxx_solve(st->b, &pf);
	CHECK_INT(r, brute(st->b, seat, lead, d));
	if (r != 1)
		return;
	(*won)++;
	CHECK(pf.length >= 1 && pf.length <= d);
	CHECK(!brute(st->b, seat, lead, pf.length - 1));
	if (pf.length >= 1) {
		struct state next = *st;

		rules_ataxx.apply(next.b, pf.move);
		CHECK(brute(next.b, seat, lead, pf.length - 1));
	}
}

/* Random small endings: 5x5 with 2 or 3 empty squares, 7x7 with gaps and
 * 2 or 3 empty ones (some cannot be reached: "neither side can move"),
 * each for a win, a draw or better and a lead of 3, within up to 6
 * plies. */
static void
test_brute(void)
{
	struct rules_rng rng;
	int i, won = 0, asked = 0;

	rules_rng_seed(&rng, 23);
	for (i = 0; i < 60; i++) {
		struct state st;
		int size = i % 2 ? 7 : 5, gaps = size == 7 ? 12 : 0;
		int empty = 2 + i % 3 / 2, d;

		random_position(&st, &rng, size, gaps, empty);
		for (d = 1; d <= 6; d++) {
			check_solve(&st, 1, d, &won);
			check_solve(&st, 0, d, &won);
			check_solve(&st, 3, d, &won);
			asked += 3;
		}
	}
	printf("ataxx solver: %d questions, %d proofs, as the brute force\n",
	    asked, won);
	/* both answers must occur, or the comparison shows nothing */
	CHECK(won > asked / 10 && won < asked * 9 / 10);
}

/* A finished game and a pass: the answers without a move. */
static void
test_edges(void)
{
	struct state st;
	struct ai_ataxx_proof pf;
	int d, won = 0;

	memset(&pf, 0, sizeof pf);
	pf.lead = 1;
	pf.plies = 4;
	load(&st, "xxxxx/xxxxx/xxxxx/ooooo/ooooo x 0 1");
	CHECK_INT(ai_ataxx_solve(st.b, &pf), 1);
	CHECK_INT(pf.length, 0);
	CHECK_INT(pf.move.to, RULES_NONE);
	load(&st, "xxxxx/xxxxx/ooooo/ooooo/ooooo x 0 1");
	CHECK_INT(ai_ataxx_solve(st.b, &pf), 0);
	/* black fills the last square and wins */
	load(&st, "1oooo/ooooo/ooooo/ooooo/oooox o 0 1");
	CHECK_INT(ai_ataxx_solve(st.b, &pf), 1);
	CHECK_INT(pf.length, 1);
	/* the corner is walled in by gaps: once white fills the other empty
	 * square, neither side can move and the game is over */
	load(&st,
	    "1--oooo/---oooo/---xxxx/xxxxxx1/xxxxxxx/xxxxxxx/xxxxxxx x 0 1");
	CHECK_INT(ai_ataxx_solve(st.b, &pf), 1);
	CHECK_INT(pf.length, 1);
	for (d = 1; d <= 4; d++)
		check_solve(&st, 1, d, &won);
	CHECK_INT(won, 4);
	/* too many empty squares: not taken */
	load(&st, "x5o/7/7/7/7/7/o5x x 0 1");
	CHECK_INT(ai_ataxx_solve(st.b, &pf), -1);
	/* the node limit comes first: unknown, not "not won" */
	pf.plies = 40;
	pf.node_limit = 1;
	load(&st,
	    "1ooooxx/1ooooox/1ooooxx/1xxooxx/xxxooxx/ooxxoxo/ooxxoxo x 0 1");
	CHECK_INT(ai_ataxx_solve(st.b, &pf), -1);
}

/* The engine's move at a fixed depth, with the solver or without. */
static struct rules_move
engine(const void *st, int depth, const int *weights)
{
	struct ai_limits lim;
	struct rules_move m = {RULES_NONE, RULES_NONE, RULES_NONE};

	ai_limits_level(&lim, AI_LEVEL_MAX, 1);
	lim.depth = depth;
	lim.weights = weights;
	lim.ms = 60000;
	CHECK_INT(ai_bot_move(&rules_ataxx, st, &lim, &m, NULL), 0);
	return m;
}

/* Play st to the end, the winner by the engine at `depth` with
 * `weights`, the other side by the engine without the solver at depth 3;
 * 1 when `seat` wins. */
static int
play_out(const struct state *start, int seat, int depth, const int *weights)
{
	struct state st = *start;
	struct rules_status s;
	int ply;

	for (ply = 0; ply < 400; ply++) {
		int mine;

		rules_status(&rules_ataxx, st.b, &s);
		if (s.result != RULES_PLAYING)
			break;
		mine = rules_ataxx.turn(st.b) == seat;
		rules_ataxx.apply(st.b,
		    engine(st.b, mine ? depth : 3, mine ? weights : no_solver));
	}
	rules_status(&rules_ataxx, st.b, &s);
	return s.result == RULES_WIN && s.winner == seat;
}

/* Endings of 4 empty squares or fewer reached by level 3 from random
 * openings: where the side to move has a proven forced win, level 5 (a
 * fixed depth 2, with the solver) wins every one against the engine
 * without it, and the engine without the solver at the same depth throws
 * some away. */
static void
test_keeps_wins(void)
{
	int game, proven = 0, kept = 0, thrown = 0;

	for (game = 0; game < 60 && proven < 16; game++) {
		struct state st;
		struct rules_rng rng;
		struct rules_status s;
		struct ai_ataxx_proof pf;
		int ply, seat;

		rules_rng_seed(&rng, 700 + (uint64_t)game);
		load(&st, "x5o/7/7/7/7/7/o5x x 0 1");
		for (ply = 0;; ply++) {
			const struct ataxx_state *as = (const void *)st.b;
			ataxx_bb e = ataxx_board(7) &
			    ~(ataxx_get(as->piece[0]) |
			        ataxx_get(as->piece[1]));
			struct ai_limits lim;
			struct rules_move m;

			rules_status(&rules_ataxx, st.b, &s);
			if (s.result != RULES_PLAYING || ataxx_pop(e) <= 4)
				break;
			ai_limits_level(&lim, 3, (uint64_t)(game * 1000 + ply));
			lim.ms = 60000;
			CHECK_INT(
			    ai_bot_move(&rules_ataxx, st.b, &lim, &m, NULL), 0);
			rules_ataxx.apply(st.b, m);
		}
		if (s.result != RULES_PLAYING)
			continue;
		memset(&pf, 0, sizeof pf);
		pf.lead = 1;
		pf.plies = 12;
		pf.node_limit = 2000000;
		if (ai_ataxx_solve(st.b, &pf) != 1 || pf.length < 3)
			continue;
		proven++;
		seat = rules_ataxx.turn(st.b);
		kept += play_out(&st, seat, 2, NULL);
		thrown += !play_out(&st, seat, 2, no_solver);
	}
	printf("ataxx endings: %d proven wins, kept %d with the solver, %d "
	       "thrown away without it\n",
	    proven, kept, thrown);
	CHECK(proven >= 8);
	CHECK_INT(kept, proven);
	CHECK(thrown > 0);
}

int
main(void)
{
	test_edges();
	test_brute();
	test_keeps_wins();
	return check_done();
}
