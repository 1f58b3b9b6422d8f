/*
 * test_amazons_engine.c: the Amazons engine's search and evaluation
 * against plain references. The transposition table's cutoffs and null
 * windows change how much is searched, not the value: at a fixed depth
 * the score is the same with them as without, on random positions; with
 * the moves tried first (the table's, killers) too, the search does less
 * work. The evaluation's mobility, restricted amazons and decided regions
 * agree with square-by-square counts and a plain search through the rules.
 * No timings: the speed is shown by `make bench`.
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
/* The terms' places (enum am_weight), the mobility cap and the moves
 * below which an amazon is restricted (AM_MOB_CAP, AM_RESTRICT). */
#define T_MOB 3
#define T_TRAP 8
#define T_DECIDED 9
#define MOB_CAP 12
#define RESTRICT 3
/* Positions the region referee may search, and the largest region it is
 * given, so that it stays quick (the engine counts these exactly). */
#define REFEREE_NODES 200000L
#define REFEREE_SQUARES 8

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

static int
has(const uint64_t b[2], int sq)
{
	return (int)(b[sq >> 6] >> (sq & 63) & 1);
}

static void
put(uint64_t b[2], int sq)
{
	b[sq >> 6] |= (uint64_t)1 << (sq & 63);
}

/* A board strewn with arrows: each square one with probability pct %,
 * then four amazons a side on random free squares. */
static void
random_arrows(struct amazons_state *st, struct rules_rng *rng, int pct)
{
	int sq, side, k;

	memset(st, 0, sizeof *st);
	for (sq = 0; sq < 100; sq++)
		if ((int)rules_rng_below(rng, 100) < pct)
			put(st->arrows, sq);
	for (side = 0; side < 2; side++)
		for (k = 0; k < 4;) {
			sq = (int)rules_rng_below(rng, 100);
			if (has(st->arrows, sq) || has(st->amz[0], sq) ||
			    has(st->amz[1], sq))
				continue;
			put(st->amz[side], sq);
			k++;
		}
	st->turn = (uint32_t)rules_rng_below(rng, 2);
}

/* Queen moves of the amazon on sq, counted by the rules' complete moves
 * from it (distinct destinations), whichever side it belongs to. */
static int
queen_moves(const struct amazons_state *st, int sq)
{
	static struct rules_move mv[RULES_MAX_MOVES];
	struct amazons_state s = *st;
	char seen[100];
	int n, i, count = 0;

	s.turn = has(st->amz[1], sq) ? 1 : 0;
	n = rules_amazons.legal_from(&s, sq, mv, RULES_MAX_MOVES);
	memset(seen, 0, sizeof seen);
	for (i = 0; i < n; i++)
		if (!seen[mv[i].to]) {
			seen[mv[i].to] = 1;
			count++;
		}
	return count;
}

/* One side's capped mobility and restriction, square by square. */
static void
side_mobility(
    const struct amazons_state *st, int side, int *mob, int *restricted)
{
	int sq;

	*mob = *restricted = 0;
	for (sq = 0; sq < 100; sq++)
		if (has(st->amz[side], sq)) {
			int n = queen_moves(st, sq);

			*mob += n < MOB_CAP ? n : MOB_CAP;
			if (n < RESTRICT)
				*restricted += (RESTRICT - n) * (RESTRICT - n);
		}
}

/* Mobility and restricted amazons against the rules' own moves, on games
 * played at random and on boards strewn with arrows (where amazons are
 * often walled in). */
static void
test_mobility(void)
{
	struct rules_rng rng;
	int k, checked = 0, restricted_seen = 0;

	rules_rng_seed(&rng, 77);
	for (k = 0; k < 300; k++) {
		struct amazons_state st;
		int t[AI_WEIGHTS], m0, r0, m1, r1, me;

		if (k % 2 == 0)
			random_position(
			    &st, &rng, (int)rules_rng_below(&rng, 80));
		else
			random_arrows(&st, &rng, 20 + k % 40);
		if (ai_amazons_terms(&st, t) != 0)
			continue; /* the sides are apart: counted, not these */
		me = (int)st.turn;
		side_mobility(&st, me, &m0, &r0);
		side_mobility(&st, !me, &m1, &r1);
		CHECK_INT(t[T_MOB], m0 - m1);
		CHECK_INT(t[T_TRAP], r1 - r0);
		checked++;
		restricted_seen += r0 + r1 > 0;
	}
	CHECK(checked >= 200);
	CHECK(restricted_seen >= 50);
}

/* Squares 8-connected to sq through empty squares and amazons, in reg. */
static void
region_of(const struct amazons_state *st, int sq, char reg[100])
{
	int stack[100], n = 0, df, dr;

	memset(reg, 0, 100);
	reg[sq] = 1;
	stack[n++] = sq;
	while (n > 0) {
		int s = stack[--n];

		for (df = -1; df <= 1; df++)
			for (dr = -1; dr <= 1; dr++) {
				int f = s % 10 + df, r = s / 10 + dr,
				    t = r * 10 + f;

				if (f < 0 || f > 9 || r < 0 || r > 9 ||
				    reg[t] || has(st->arrows, t))
					continue;
				reg[t] = 1;
				stack[n++] = t;
			}
	}
}

/* The most moves side `side` makes alone on st (its turn every time),
 * by a plain search through the rules; -1 past *budget. */
static int
alone_moves(const struct amazons_state *st, int side, long *budget)
{
	static struct rules_move mvs[REFEREE_SQUARES + 2][RULES_MAX_MOVES / 4];
	static int level;
	struct rules_move *mv = mvs[level];
	struct amazons_state next;
	int i, n, v, best = 0;

	next = *st;
	next.turn = (uint32_t)side;
	n = rules_amazons.legal_moves(&next, mv, RULES_MAX_MOVES / 4);
	for (i = 0; i < n; i++) {
		if (--*budget < 0)
			return -1;
		next = *st;
		next.turn = (uint32_t)side;
		rules_amazons.apply(&next, mv[i]);
		level++;
		v = alone_moves(&next, side, budget);
		level--;
		if (v < 0)
			return -1;
		if (v + 1 > best)
			best = v + 1;
	}
	return best;
}

/* One side's decided regions by the referee: for each region holding its
 * amazons and none of the other's, its moves (the region alone on the
 * board, the rest arrows) minus its empty squares; 1 on success, 0 when a
 * region is too large for the referee. */
static int
side_decided(const struct amazons_state *st, int side, int *out)
{
	char done[100], reg[100];
	int sq, t;

	memset(done, 0, sizeof done);
	*out = 0;
	for (sq = 0; sq < 100; sq++) {
		struct amazons_state alone;
		int empty = 0, other = 0, moves;
		long budget = REFEREE_NODES;

		if (!has(st->amz[side], sq) || done[sq])
			continue;
		region_of(st, sq, reg);
		memset(&alone, 0, sizeof alone);
		for (t = 0; t < 100; t++) {
			done[t] |= reg[t];
			if (!reg[t])
				put(alone.arrows, t);
			else if (has(st->amz[!side], t))
				other = 1;
			else if (has(st->amz[side], t))
				put(alone.amz[side], t);
			else
				empty++;
		}
		if (other)
			continue;
		if (empty > REFEREE_SQUARES)
			return 0;
		moves = alone_moves(&alone, side, &budget);
		if (moves < 0)
			return 0;
		*out += moves - empty;
	}
	return 1;
}

/* Decided regions against the referee, on boards strewn with arrows where
 * the sides still meet somewhere (else the whole position is counted). */
static void
test_decided(void)
{
	struct rules_rng rng;
	int k, checked = 0, defective = 0;

	rules_rng_seed(&rng, 99);
	for (k = 0; k < 20000 && checked < 1500; k++) {
		struct amazons_state st;
		int t[AI_WEIGHTS], d0, d1, me;

		random_arrows(&st, &rng, 55 + k % 20);
		if (ai_amazons_terms(&st, t) != 0)
			continue;
		me = (int)st.turn;
		if (!side_decided(&st, me, &d0) || !side_decided(&st, !me, &d1))
			continue;
		CHECK_INT(t[T_DECIDED], d0 - d1);
		checked++;
		defective += d0 != 0 || d1 != 0;
	}
	CHECK(checked >= 1000);
	CHECK(defective >= 30);
	printf("amazons decided regions: %d positions checked, %d with a "
	       "defective region\n",
	    checked, defective);
}

int
main(void)
{
	test_table_same_value();
	test_mobility();
	test_decided();
	return check_done();
}
