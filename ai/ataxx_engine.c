/*
 * ataxx_engine.c: the Ataxx computer player, on the bitboards of
 * rules/ataxx.h: iterative deepening principal-variation search with
 * alpha-beta, a transposition table keyed by a Zobrist hash, move ordering
 * (table move, pieces infected, killers, history), judged by material and
 * terms tuned on self-play (enum ax_weight; docs/ENGINES.md has every
 * match behind them; a small neural evaluation, ataxx_net.c, is one
 * weight, off), with reverse futility pruning near the leaves;
 * endings of few empty squares go first to the exact solver of
 * ataxx_solve.c. It stops at its deadline (or when cancelled) and
 * plays the best move of the deepest iteration; low levels are weakened
 * by a depth cap and noise in the evaluation.
 *
 * The file is compiled twice: as itself, on the 128-bit bitboard every
 * board size needs (9x9 is 81 bits), and by ataxx_engine64.c with
 * AX_NARROW, on one 64-bit word, which boards up to 7x7 fit on the 9-wide
 * grid (their last square is bit 60) at half the instructions for every
 * mask, count and lowest bit. ai_ataxx_move hands those boards to it.
 */
#include <stdlib.h>
#include <string.h>

#include "ai/ai.h"
#include "rules/ataxx.h"

/* The bitboard of this copy of the engine: the rules' helpers (ataxx_pop,
 * ataxx_lsb, ataxx_mobile, the square tables) take and give 128 bits; a
 * 64-bit word widens to them exactly, and a table entry cut to 64 bits
 * loses only squares past a 7x7 board. AX_ENGINE names the copy. */
#ifdef AX_NARROW
typedef uint64_t ax_bb;
#define AX_ENGINE ai_ataxx_move64
/* clang names the loader's chooser of a RULES_HOT function's copies after
 * the function, static or not: the two files' must differ. */
#define ax_search ax_search64
#else
typedef ataxx_bb ax_bb;
#define AX_ENGINE ai_ataxx_move128
#endif
/* The largest board the 64-bit copy takes. */
#define AX_NARROW_SIZE 7
_Static_assert((AX_NARROW_SIZE - 1) * (ATAXX_STRIDE + 1) < 64,
    "a 7x7 board's squares are bits of one word");

/* Scores: a won game, beyond any evaluation (minus the plies to it). */
#define AX_WIN 100000
#define AX_INF (AX_WIN + 1000)
/* One piece of material. */
#define AX_PIECE 100

/* The evaluation's terms beyond material, in hundredths of a piece, each
 * one side's count minus the other's (docs/ENGINES.md says how each was
 * measured and tuned), then the search's settings (0 off):
 *   AX_W_EXPOSED: stones next to an empty square, which can be infected;
 *   AX_W_REACH: empty squares a side can clone into;
 *   AX_W_HOLES: empty squares next to that side's stones alone (the
 *     same number as the reach: a square next to both sides cancels out
 *     of either difference);
 *   AX_W_TEMPO: being the side to move;
 *   AX_W_LMR: from this depth, late moves searched a ply shallower first;
 *   AX_W_ASPIRATION: iterations searched in a window this wide each side
 *     of the last score;
 *   AX_W_TIME: 1: more time when the best move or the score changes;
 *   AX_W_TT: 1: two table slots a key, the deeper result kept in the
 *     first, the newest in the second (0: one slot, always replaced);
 *   AX_W_FULL: 1: no shortcut one ply before the leaves (ax_frontier), so
 *     the terms are those of the positions after the last move;
 *   AX_W_RFP: reverse futility pruning: a node of a null window within
 *     AX_RFP_DEPTH plies of the leaves whose own evaluation beats beta by
 *     this much a ply of depth is cut without a search;
 *   AX_W_SOLVE: with this many empty squares or fewer, level 5 first
 *     looks for a forced win with the exact solver (ai/ataxx_solve.c) and
 *     plays it when proven;
 *   AX_W_LMP: late move pruning: a null-window node within AX_LMP_DEPTH
 *     plies of the leaves searches only this many moves a ply of depth
 *     (in order: the table's, the infecting ones, killers, history);
 *   AX_W_EDGE, AX_W_CORNER: piece-square terms, each one side's stones
 *     minus the other's on a class of squares alike under the board's
 *     symmetries: the edge (the outer ring, corners included; a stone
 *     there has 5 neighbours or fewer to be infected from) and the four
 *     corners (3 neighbours);
 *   AX_W_NET: 1: the small neural evaluation of ataxx_net.c replaces the
 *     terms above but the tempo (material stays 100 a piece; the net
 *     weighs it too). */
enum ax_weight {
	AX_W_EXPOSED,
	AX_W_REACH,
	AX_W_HOLES,
	AX_W_TEMPO,
	AX_TERMS, /* the evaluation's terms come before */
	AX_W_LMR = AX_TERMS,
	AX_W_ASPIRATION,
	AX_W_TIME,
	AX_W_TT,
	AX_W_FULL,
	AX_W_RFP,
	AX_W_SOLVE,
	AX_W_LMP,
	AX_W_EDGE,
	AX_W_CORNER,
	AX_W_NET,
	AX_W_COUNT
};
static const int ax_weights[AX_W_COUNT] = {
    -32, 3, 3, 300, 0, 0, 0, 0, 0, 120, 5, 0, 42, 51, 0};
_Static_assert(AX_W_COUNT <= AI_WEIGHTS, "room for the bench's weights");

/* The deepest search (plies) and the most moves of one position: at most
 * 81 clones and 16 jumps into each of 81 squares. */
#define AX_PLY_MAX 64
#define AX_MOVES_MAX (ATAXX_CELLS + 16 * ATAXX_CELLS)

/* Moves packed in 16 bits: (from + 1) << 7 | to, from -1 for a clone. */
#define AX_NOMOVE 0xfffe
#define AX_PASS 0xffff
#define AX_MOVE(from, to) ((uint16_t)(((from) + 1) << 7 | (to)))
#define AX_FROM(m) ((int)((m) >> 7) - 1)
#define AX_TO(m) ((int)((m)&0x7f))

/* Late-move reductions: after this many moves, and two plies from this
 * many moves on (and two plies deeper than the first reduction). */
#define AX_LMR_AFTER 3
#define AX_LMR_LATE 12

/* Reverse futility pruning (AX_W_RFP) only this close to the leaves (the
 * one depth measured, docs/ENGINES.md: an evaluation is a poorer guess
 * of a deeper search's result the deeper it is). */
#define AX_RFP_DEPTH 3

/* Late move pruning (AX_W_LMP) only this close to the leaves. */
#define AX_LMP_DEPTH 3

/* The exact solver's share of a move: a quarter of its time and at most
 * this many positions (a proven win takes milliseconds; the budget is
 * what a position that is not won costs before the search gets the
 * rest), and proofs of at most twice the empty squares and this many
 * plies more (a won ending fills the board about twice as slowly as a
 * ply a square: the loser jumps). */
#define AX_SOLVE_SHARE 4
#define AX_SOLVE_NODES 4000000L
#define AX_SOLVE_SLACK 4

/* The clock is read once in this many nodes (a power of two). */
#define AX_CLOCK_EVERY 1024

/* Transposition table entries (a power of two): 16 bytes each, 8 MiB. */
#define AX_TT_SIZE (1u << 19)

enum ax_bound { AX_EXACT, AX_LOWER, AX_UPPER };

struct ax_tt {
	uint64_t key;
	int32_t score;
	uint16_t move;
	int8_t depth;
	uint8_t bound;
};

/* One search: its tables, limits and counters. */
struct ax {
	uint64_t zob[2][ATAXX_CELLS]; /* per seat and square */
	uint64_t zturn;               /* xored in when black is to move */
	struct ax_tt *tt;
	uint16_t *moves;                /* AX_MOVES_MAX per ply */
	int32_t *order;                 /* the ordering score of each */
	uint16_t killer[AX_PLY_MAX][2]; /* quiet moves that cut off */
	int32_t history[ATAXX_CELLS + 1][ATAXX_CELLS];
	long nodes;
	uint64_t deadline;
	const atomic_int *cancel;
	int stop;
	uint16_t root_best; /* the best root move fully searched */
	uint16_t fail_high; /* a root move that beat the aspiration window */
	int noise;          /* evaluation noise, +-, in hundredths of a piece */
	int squares;        /* the board's squares but its gaps (AX_W_NET) */
	int plain;          /* material alone (the bench's yardstick) */
	int shaped;         /* some term beyond material weighs */
	int w[AX_W_COUNT];  /* the evaluation's weights */
	ax_bb edge;         /* the board's outer ring (AX_W_EDGE) */
	ax_bb corner;       /* its four corners (AX_W_CORNER) */
	uint64_t seed;
};

/* A position and its key, from the side to move's view. */
struct ax_pos {
	ax_bb own, opp, empty;
	uint64_t key;
	int side; /* seat of own */
};

/* The squares next to a set. */
RULES_INLINE ax_bb
ax_around(ax_bb set)
{
	ax_bb r = 0;

	for (; set != 0; set &= set - 1)
		r |= ataxx_adj[ataxx_lsb(set)];
	return r;
}

/* The Zobrist key of a position. */
static uint64_t
ax_key(const struct ax *a, ax_bb w, ax_bb b, int turn)
{
	uint64_t k = turn ? a->zturn : 0;

	for (; w != 0; w &= w - 1)
		k ^= a->zob[0][ataxx_lsb(w)];
	for (; b != 0; b &= b - 1)
		k ^= a->zob[1][ataxx_lsb(b)];
	return k;
}

/* The final score of a finished game for the side with `own`. */
RULES_INLINE int
ax_final(int own, int opp, int ply)
{
	if (own > opp)
		return AX_WIN - ply;
	if (own < opp)
		return -AX_WIN + ply;
	return 0;
}

/* The 9x9 grid but its first column, and but its last: a neighbour
 * found by a shift must not wrap onto the next row, nor past the last
 * square onto the first column a row up. */
#define AX_HALVES(hi, lo) ((ax_bb)((ataxx_bb)(hi) << 64 | (ataxx_bb)(lo)))
#define AX_NOT_COL0 AX_HALVES(0x1feffULL, 0x7fbfdfeff7fbfdfeULL)
#define AX_NOT_COL8 AX_HALVES(0xff7fULL, 0xbfdfeff7fbfdfeffULL)

/* The squares next to a set, by shifts (no loop over its squares). */
RULES_INLINE ax_bb
ax_near(ax_bb set)
{
	ax_bb side = ((set << 1) & AX_NOT_COL0) | ((set >> 1) & AX_NOT_COL8);
	ax_bb row = set | side;

	return side | row << ATAXX_STRIDE | row >> ATAXX_STRIDE;
}

/* The counts behind the terms beyond material, for the side with `own`,
 * to move, in enum ax_weight's order (each one side's minus the
 * other's; the tempo 1). */
RULES_INLINE void
ax_terms(ax_bb own, ax_bb opp, ax_bb empty, int t[AX_TERMS])
{
	ax_bb open = ax_near(empty);
	ax_bb nown = ax_near(own) & empty, nopp = ax_near(opp) & empty;

	t[AX_W_EXPOSED] = ataxx_pop(own & open) - ataxx_pop(opp & open);
	t[AX_W_REACH] = ataxx_pop(nown) - ataxx_pop(nopp);
	t[AX_W_HOLES] = ataxx_pop(nown & ~nopp) - ataxx_pop(nopp & ~nown);
	t[AX_W_TEMPO] = 1;
}

/* The edge and the corners of a board of side n (AX_W_EDGE, AX_W_CORNER). */
static void
ax_classes(int n, ax_bb *edge, ax_bb *corner)
{
	ataxx_bb inner = n > 2 ? ataxx_board(n - 2) << (ATAXX_STRIDE + 1) : 0;
	int last = (n - 1) * ATAXX_STRIDE;

	*edge = (ax_bb)(ataxx_board(n) & ~inner);
	*corner = (ax_bb)((ataxx_bb)1 << 0 | (ataxx_bb)1 << (n - 1) |
	    (ataxx_bb)1 << last | (ataxx_bb)1 << (last + n - 1));
}

/* The piece-square counts for the side with `own`, in t[AX_W_EDGE] and
 * t[AX_W_CORNER]. */
RULES_INLINE void
ax_squares(ax_bb edge, ax_bb corner, ax_bb own, ax_bb opp, int *t)
{
	t[AX_W_EDGE] = ataxx_pop(own & edge) - ataxx_pop(opp & edge);
	t[AX_W_CORNER] = ataxx_pop(own & corner) - ataxx_pop(opp & corner);
}

/* The small neural evaluation (AX_W_NET) of a position of material `mat`
 * (pieces) whose other counts are those of the side with `own`, to move,
 * with the tempo weight; `mover` 1: the same position but the other side
 * to move (the shortcut one ply before the leaves, the tempo handed
 * over). */
RULES_INLINE int
ax_net(
    const struct ax *a, ax_bb own, ax_bb opp, ax_bb empty, int mat, int mover)
{
	int t[AX_W_COUNT], x[AI_ATAXX_NET_IN];

	ax_terms(own, opp, empty, t);
	ax_squares(a->edge, a->corner, own, opp, t);
	x[0] = mat;
	x[1] = t[AX_W_EXPOSED];
	x[2] = t[AX_W_REACH];
	x[3] = t[AX_W_EDGE];
	x[4] = t[AX_W_CORNER];
	return AX_PIECE * mat + ai_ataxx_net(x, ataxx_pop(empty), a->squares) +
	    (mover ? -a->w[AX_W_TEMPO] : a->w[AX_W_TEMPO]);
}

/* The terms beyond material, weighed, for the side with `own`, to move. */
RULES_INLINE int
ax_shape(const struct ax *a, ax_bb own, ax_bb opp, ax_bb empty)
{
	int t[AX_W_COUNT], v = 0, i;

	if (!a->shaped)
		return 0;
	ax_terms(own, opp, empty, t);
	ax_squares(a->edge, a->corner, own, opp, t);
	for (i = 0; i < AX_TERMS; i++)
		v += a->w[i] * t[i];
	return v + a->w[AX_W_EDGE] * t[AX_W_EDGE] +
	    a->w[AX_W_CORNER] * t[AX_W_CORNER];
}

/* The side to move's view: material, shape and the level's noise (the
 * same for the same position, so the table stays consistent). */
RULES_INLINE int
ax_eval(const struct ax *a, const struct ax_pos *p)
{
	int mat = ataxx_pop(p->own) - ataxx_pop(p->opp);
	int v = a->w[AX_W_NET]
	    ? ax_net(a, p->own, p->opp, p->empty, mat, 0)
	    : AX_PIECE * mat + ax_shape(a, p->own, p->opp, p->empty);
	uint64_t key = p->key;

	if (a->noise > 0)
		v += (int)(rules_mix64(key ^ a->seed) %
		         (uint64_t)(2 * a->noise + 1)) -
		    a->noise;
	return v;
}

/* Every move of the side with `own` (clones first); the count. */
RULES_INLINE int
ax_gen(ax_bb own, ax_bb empty, uint16_t *mv)
{
	ax_bb b, t;
	int n = 0;

	for (b = ax_around(own) & empty; b != 0; b &= b - 1)
		mv[n++] = AX_MOVE(-1, ataxx_lsb(b));
	for (b = own; b != 0; b &= b - 1) {
		int from = ataxx_lsb(b);

		for (t = ataxx_jump[from] & empty; t != 0; t &= t - 1)
			mv[n++] = AX_MOVE(from, ataxx_lsb(t));
	}
	return n;
}

/* Ordering scores: the table move, then pieces infected (a clone counts
 * one more), killers, history. */
RULES_INLINE void
ax_score(const struct ax *a, const uint16_t *mv, int32_t *sc, int n, ax_bb opp,
    uint16_t ttmove, int ply)
{
	int i;

	for (i = 0; i < n; i++) {
		int from = AX_FROM(mv[i]), to = AX_TO(mv[i]);
		int32_t s = 1000 *
		    (ataxx_pop(ataxx_adj[to] & opp) + (from < 0 ? 1 : 0));

		if (mv[i] == ttmove)
			s = 1 << 30;
		else if (mv[i] == a->killer[ply][0])
			s += 600;
		else if (mv[i] == a->killer[ply][1])
			s += 500;
		s += a->history[from + 1][to] >> 4 < 400
		    ? a->history[from + 1][to] >> 4
		    : 400;
		sc[i] = s;
	}
}

/* Bring the best-scored move at or after i to i. */
RULES_INLINE void
ax_pick(uint16_t *mv, int32_t *sc, int i, int n)
{
	int b = i, j;

	for (j = i + 1; j < n; j++)
		if (sc[j] > sc[b])
			b = j;
	if (b != i) {
		uint16_t m = mv[i];
		int32_t s = sc[i];

		mv[i] = mv[b];
		sc[i] = sc[b];
		mv[b] = m;
		sc[b] = s;
	}
}

/* The position after move m (not a pass), for the other side. */
RULES_INLINE void
ax_play(
    const struct ax *a, const struct ax_pos *p, uint16_t m, struct ax_pos *q)
{
	int from = AX_FROM(m), to = AX_TO(m);
	ax_bb cap = ataxx_adj[to] & p->opp, bit = (ax_bb)1 << to;
	ax_bb own = p->own | bit | cap, empty = p->empty & ~bit;
	uint64_t k = p->key ^ a->zturn ^ a->zob[p->side][to], c;

	if (from >= 0) {
		own &= ~((ax_bb)1 << from);
		empty |= (ax_bb)1 << from;
		k ^= a->zob[p->side][from];
	}
	for (c = 0; cap != 0; cap &= cap - 1) {
		int sq = ataxx_lsb(cap);

		c ^= a->zob[0][sq] ^ a->zob[1][sq];
	}
	q->own = p->opp & ~(ataxx_adj[to] & p->opp);
	q->opp = own;
	q->empty = empty;
	q->key = k ^ c;
	q->side = !p->side;
}

/* The table's entry for a key: with AX_W_TT the one of its pair of slots
 * that holds it, else (or when neither does) its first slot; one slot
 * a key without AX_W_TT. */
RULES_INLINE struct ax_tt *
ax_slot(const struct ax *a, uint64_t key)
{
	struct ax_tt *pair;

	if (!a->w[AX_W_TT])
		return &a->tt[key & (AX_TT_SIZE - 1)];
	pair = &a->tt[key & (AX_TT_SIZE - 2)];
	return pair[1].key == key ? &pair[1] : &pair[0];
}

/* Store a result; win scores are kept relative to this node. */
RULES_INLINE void
ax_store(struct ax *a, uint64_t key, int depth, int score, int bound,
    uint16_t move, int ply)
{
	struct ax_tt *e = ax_slot(a, key);

	if (a->w[AX_W_TT] && e->key != key) {
		/* a new position: over the shallower of the pair, keeping
		 * the deeper one in the first slot */
		struct ax_tt *pair = &a->tt[key & (AX_TT_SIZE - 2)];

		if (depth >= pair[0].depth) {
			pair[1] = pair[0];
			e = &pair[0];
		} else {
			e = &pair[1];
		}
	}
	if (score > AX_WIN - AX_PLY_MAX * 2)
		score += ply;
	else if (score < -AX_WIN + AX_PLY_MAX * 2)
		score -= ply;
	if (e->key == key && e->depth > depth && bound != AX_EXACT)
		return;
	e->key = key;
	e->score = score;
	e->move = move;
	e->depth = (int8_t)depth;
	e->bound = (uint8_t)bound;
}

/* Whether time is up or the search was cancelled, checked now and then. */
RULES_INLINE int
ax_stopped(struct ax *a)
{
	if ((a->nodes & (AX_CLOCK_EVERY - 1)) == 1 && !a->stop &&
	    ai_out_of_time(a->deadline, a->cancel))
		a->stop = 1;
	return a->stop;
}

RULES_HOT static int ax_search(struct ax *a, const struct ax_pos *p, int depth,
    int ply, int alpha, int beta);

/* A side with no move passes; the game ends when neither can move. */
RULES_INLINE int
ax_pass(struct ax *a, const struct ax_pos *p, int depth, int ply, int alpha,
    int beta)
{
	struct ax_pos q;

	if (!ataxx_mobile(p->opp, p->empty))
		return ax_final(ataxx_pop(p->own), ataxx_pop(p->opp), ply);
	q.own = p->opp;
	q.opp = p->own;
	q.empty = p->empty;
	q.key = p->key ^ a->zturn;
	q.side = !p->side;
	return -ax_search(a, &q, depth - 1, ply + 1, -beta, -alpha);
}

/* Remember a move that cut off: killer (quiet ones) and history. */
RULES_INLINE void
ax_good(struct ax *a, const struct ax_pos *p, uint16_t m, int depth, int ply)
{
	int from = AX_FROM(m), to = AX_TO(m);

	if ((ataxx_adj[to] & p->opp) == 0 && a->killer[ply][0] != m) {
		a->killer[ply][1] = a->killer[ply][0];
		a->killer[ply][0] = m;
	}
	if (a->history[from + 1][to] < (1 << 24))
		a->history[from + 1][to] += depth * depth;
}

/* One ply before the leaves, without noise, the value is the best
 * material after one move, found from the destination squares alone (a
 * clone gains a piece, each piece infected counts twice): 1 and the value
 * in *v, or 0 when the position needs the full search (a pass, the last
 * empty square, or a move that takes every opposing piece). The caller
 * adds this position's shape terms: one move changes them little, and the
 * shortcut is worth a ply. */
RULES_INLINE int
ax_frontier(const struct ax_pos *p, int *v)
{
	ax_bb clones = ax_around(p->own) & p->empty, jumps = 0, b;
	int best = -1, nopp = ataxx_pop(p->opp);

	for (b = p->own; b != 0; b &= b - 1)
		jumps |= ataxx_jump[ataxx_lsb(b)];
	jumps &= p->empty & ~clones; /* a clone there does better */
	if ((clones | jumps) == 0 || ataxx_pop(p->empty) <= 1)
		return 0;
	for (b = clones | jumps; b != 0; b &= b - 1) {
		int to = ataxx_lsb(b);
		int c = ataxx_pop(ataxx_adj[to] & p->opp);
		int gain = 2 * c + ((clones >> to) & 1 ? 1 : 0);

		if (c == nopp)
			return 0;
		if (gain > best)
			best = gain;
	}
	*v = AX_PIECE * (ataxx_pop(p->own) - nopp + best);
	return 1;
}

/* How many plies shallower the i-th move (in order) is searched first:
 * late moves at depth AX_W_LMR or more, other than the killers, one ply,
 * very late ones two; a move that then beats alpha is searched again at
 * full depth. */
RULES_INLINE int
ax_reduction(const struct ax *a, int i, int depth, uint16_t m, int ply)
{
	if (a->w[AX_W_LMR] <= 0 || depth < a->w[AX_W_LMR] || i < AX_LMR_AFTER ||
	    m == a->killer[ply][0] || m == a->killer[ply][1])
		return 0;
	return i >= AX_LMR_LATE && depth >= a->w[AX_W_LMR] + 2 ? 2 : 1;
}

/* Reverse futility pruning: 1 and a score at or above beta in *v when a
 * null-window node near the leaves is so far ahead by its own evaluation
 * that a search would only confirm it (AX_W_RFP). */
RULES_INLINE int
ax_futile(const struct ax *a, const struct ax_pos *p, int depth, int ply,
    int alpha, int beta, int *v)
{
	int s;

	if (a->w[AX_W_RFP] <= 0 || ply == 0 || depth > AX_RFP_DEPTH ||
	    beta - alpha != 1 || beta > AX_WIN / 2 || beta < -AX_WIN / 2)
		return 0;
	s = ax_eval(a, p) - a->w[AX_W_RFP] * depth;
	if (s < beta)
		return 0;
	*v = s;
	return 1;
}

/* Late move pruning: whether the i-th move (in order) and those after it
 * are left out of a null-window node near the leaves (AX_W_LMP), once a
 * move has been searched and no won or lost score is at stake. */
RULES_INLINE int
ax_late(const struct ax *a, int i, int depth, int alpha, int beta, int best)
{
	return a->w[AX_W_LMP] > 0 && depth <= AX_LMP_DEPTH &&
	    i >= a->w[AX_W_LMP] * depth && beta - alpha == 1 &&
	    beta < AX_WIN / 2 && beta > -AX_WIN / 2 && best > -AX_WIN / 2;
}

/* Principal-variation search of position p to depth plies. */
RULES_HOT static int
ax_search(struct ax *a, const struct ax_pos *p, int depth, int ply, int alpha,
    int beta)
{
	uint16_t *mv = a->moves + (size_t)ply * AX_MOVES_MAX,
	         ttmove = AX_NOMOVE;
	int32_t *sc = a->order + (size_t)ply * AX_MOVES_MAX;
	struct ax_tt *e = ax_slot(a, p->key);
	int n, i, best = -AX_INF, alpha0 = alpha;
	uint16_t bestmove = AX_NOMOVE;

	a->nodes++;
	if (ax_stopped(a))
		return 0;
	if (p->opp == 0 || p->own == 0)
		return ax_final(ataxx_pop(p->own), ataxx_pop(p->opp), ply);
	if (p->empty == 0)
		return ax_final(ataxx_pop(p->own), ataxx_pop(p->opp), ply);
	if (e->key == p->key) {
		int s = e->score;

		if (s > AX_WIN - AX_PLY_MAX * 2)
			s -= ply;
		else if (s < -AX_WIN + AX_PLY_MAX * 2)
			s += ply;
		ttmove = e->move;
		if (e->depth >= depth && ply > 0 &&
		    (e->bound == AX_EXACT ||
		        (e->bound == AX_LOWER && s >= beta) ||
		        (e->bound == AX_UPPER && s <= alpha)))
			return s;
	}
	if (depth <= 0 || ply >= AX_PLY_MAX - 1)
		return ax_eval(a, p);
	if (ax_futile(a, p, depth, ply, alpha, beta, &n))
		return n;
	if (depth == 1 && a->noise == 0 && !a->w[AX_W_FULL] &&
	    ax_frontier(p, &n))
		return a->w[AX_W_NET]
		    ? ax_net(a, p->own, p->opp, p->empty, n / AX_PIECE, 1)
		    : n + ax_shape(a, p->own, p->opp, p->empty) -
		        2 * a->w[AX_W_TEMPO];
	n = ax_gen(p->own, p->empty, mv);
	if (n == 0)
		return ax_pass(a, p, depth, ply, alpha, beta);
	ax_score(a, mv, sc, n, p->opp, ttmove, ply);
	for (i = 0; i < n; i++) {
		struct ax_pos q;
		int v;

		if (ax_late(a, i, depth, alpha, beta, best))
			break;
		ax_pick(mv, sc, i, n);
		ax_play(a, p, mv[i], &q);
		if (i == 0) {
			v = -ax_search(
			    a, &q, depth - 1, ply + 1, -beta, -alpha);
		} else {
			int r = ax_reduction(a, i, depth, mv[i], ply);

			v = -ax_search(
			    a, &q, depth - 1 - r, ply + 1, -alpha - 1, -alpha);
			if (r > 0 && v > alpha && !a->stop)
				v = -ax_search(a, &q, depth - 1, ply + 1,
				    -alpha - 1, -alpha);
			if (v > alpha && v < beta && !a->stop)
				v = -ax_search(
				    a, &q, depth - 1, ply + 1, -beta, -alpha);
		}
		if (a->stop)
			return 0;
		if (v > best) {
			best = v;
			bestmove = mv[i];
			/* at the root, in an aspiration window, a score at
			 * or below alpha is only a bound: no better than the
			 * first move's */
			if (ply == 0 && (i == 0 || v > alpha))
				a->root_best = mv[i];
		}
		if (v > alpha)
			alpha = v;
		if (alpha >= beta) {
			ax_good(a, p, mv[i], depth, ply);
			break;
		}
	}
	ax_store(a, p->key, depth, best,
	    best >= beta        ? AX_LOWER
	        : best > alpha0 ? AX_EXACT
	                        : AX_UPPER,
	    bestmove, ply);
	return best;
}

/* The depth cap and noise of a level: levels 1 to 3 with noise; level 4
 * capped at 5 plies, as uncapped it scored only 43% against level 5 (its
 * time halved is one ply less; see docs/RULES.md). */
static void
ax_level(struct ax *a, const struct ai_limits *lim, int *cap)
{
	static const int caps[AI_LEVEL_MAX] = {1, 2, 3, 5, AX_PLY_MAX - 2};
	static const int noise[AI_LEVEL_MAX] = {150, 60, 20, 0, 0};
	int l = lim->level < AI_LEVEL_MIN ? AI_LEVEL_MIN
	    : lim->level > AI_LEVEL_MAX   ? AI_LEVEL_MAX
	                                  : lim->level;

	*cap = caps[l - 1];
	a->noise = noise[l - 1];
	if (l < AI_LEVEL_MAX) {
		/* the pruning and the piece-square terms were measured at
		 * level 5 only: the capped levels keep the strength their
		 * ladder was measured at */
		a->w[AX_W_RFP] = 0;
		a->w[AX_W_LMP] = 0;
		a->w[AX_W_EDGE] = 0;
		a->w[AX_W_CORNER] = 0;
	}
	if (lim->depth > 0) {
		*cap =
		    lim->depth < AX_PLY_MAX - 2 ? lim->depth : AX_PLY_MAX - 2;
		a->noise = 0;
	}
}

/* A fresh search, or NULL when out of memory. */
static struct ax *
ax_new(const struct ai_limits *lim, uint64_t start)
{
	struct ax *a = calloc(1, sizeof *a);
	struct rules_rng rng;
	int s, i;

	if (a == NULL)
		return NULL;
	a->tt = calloc(AX_TT_SIZE, sizeof *a->tt);
	a->moves = malloc((size_t)AX_PLY_MAX * AX_MOVES_MAX * sizeof *a->moves);
	a->order = malloc((size_t)AX_PLY_MAX * AX_MOVES_MAX * sizeof *a->order);
	if (a->tt == NULL || a->moves == NULL || a->order == NULL) {
		free(a->tt);
		free(a->moves);
		free(a->order);
		free(a);
		return NULL;
	}
	rules_rng_seed(&rng, 0x41544158u); /* fixed: keys are per search */
	for (s = 0; s < 2; s++)
		for (i = 0; i < ATAXX_CELLS; i++)
			a->zob[s][i] = rules_rng_next(&rng);
	a->zturn = rules_rng_next(&rng);
	a->deadline = ai_deadline(start, lim->ms);
	a->cancel = lim->cancel;
	a->seed = rules_mix64(lim->seed + 1);
	/* plain: the previous engine, material and the plain search */
	a->plain = lim->plain;
	for (i = 0; i < AX_W_COUNT; i++)
		a->w[i] = a->plain         ? 0
		    : lim->weights != NULL ? lim->weights[i]
		                           : ax_weights[i];
	for (i = 0; i < AX_TERMS; i++)
		a->shaped |= a->w[i] != 0;
	a->shaped |= a->w[AX_W_EDGE] != 0 || a->w[AX_W_CORNER] != 0;
	return a;
}

static void
ax_free(struct ax *a)
{
	free(a->tt);
	free(a->moves);
	free(a->order);
	free(a);
}

/* The interface's square number of a grid bit. */
static int
ax_square(const struct ataxx_state *s, int bit)
{
	return bit / ATAXX_STRIDE * s->size + bit % ATAXX_STRIDE;
}

/* One iteration: in a window around the last score `prev` when
 * aspiration is on and the depth is worth it, searched again with the
 * full window when the score falls outside. */
static int
ax_iterate(struct ax *a, const struct ax_pos *p, int depth, int prev)
{
	int lo = -AX_INF, hi = AX_INF, v;

	if (a->w[AX_W_ASPIRATION] > 0 && depth >= 3 && prev > -AX_WIN / 2 &&
	    prev < AX_WIN / 2) {
		lo = prev - a->w[AX_W_ASPIRATION];
		hi = prev + a->w[AX_W_ASPIRATION];
	}
	a->root_best = AX_NOMOVE;
	v = ax_search(a, p, depth, 0, lo, hi);
	if (a->stop || (v > lo && v < hi))
		return v;
	if (v >= hi && a->root_best != AX_NOMOVE)
		a->fail_high = a->root_best; /* better than the last best */
	a->root_best = AX_NOMOVE;
	return ax_search(a, p, depth, 0, -AX_INF, AX_INF);
}

/* Whether to start another iteration after `spent` of `ms`: it takes a
 * few times as long as the last, so past half the time it would mostly be
 * cut off (a cut iteration still helps: it searches the best move first);
 * while the best move or the score is still moving, up to three quarters. */
static int
ax_more_time(const struct ax *a, long spent, long ms, int unsettled)
{
	if (spent * 2 <= ms)
		return 1;
	return a->w[AX_W_TIME] && unsettled && spent * 4 <= ms * 3;
}

/* Iterative deepening from the root; the best move (AX_PASS if none). */
static uint16_t
ax_root(struct ax *a, const struct ax_pos *p, int cap, uint64_t start, long ms,
    struct ai_report *rep)
{
	uint16_t best = AX_NOMOVE;
	int depth, prev = 0;

	for (depth = 1; depth <= cap; depth++) {
		uint16_t before = best;
		int v;

		a->fail_high = AX_NOMOVE;
		v = ax_iterate(a, p, depth, prev);
		/* A stopped iteration searched the previous best first (the
		 * table's move): a move it found better is better. */
		if (a->root_best != AX_NOMOVE)
			best = a->root_best;
		else if (a->fail_high != AX_NOMOVE)
			best = a->fail_high;
		if (a->stop)
			break;
		rep->depth = depth;
		rep->score = v;
		if (v > AX_WIN - AX_PLY_MAX * 2 || v < -AX_WIN + AX_PLY_MAX * 2)
			break;
		if (!ax_more_time(a, (long)(ai_clock_ms() - start), ms,
		        depth > 1 && (best != before || v < prev - AX_PIECE)))
			break;
		prev = v;
	}
	return best;
}

#ifndef AX_NARROW
int
ai_ataxx_terms(const void *st, int terms[AI_WEIGHTS])
{
	const struct ataxx_state *s = st;
	ax_bb w = ataxx_get(s->piece[0]), b = ataxx_get(s->piece[1]);
	ax_bb own = s->turn ? b : w, opp = s->turn ? w : b;

	ax_bb edge, corner;

	memset(terms, 0, AI_WEIGHTS * sizeof *terms);
	ax_classes(s->size, &edge, &corner);
	ax_terms(own, opp, ataxx_board(s->size) & ~(w | b | ataxx_get(s->gap)),
	    terms);
	ax_squares(edge, corner, own, opp, terms);
	return ataxx_pop(own) - ataxx_pop(opp);
}
#endif

/* Level 5 (or an explicit depth) in an ending of AX_W_SOLVE empty
 * squares or fewer: 1 and the first move of the shortest forced win when
 * the solver proves one within its share, else 0. */
static int
ax_solved(const struct ax *a, const struct ataxx_state *s,
    const struct ai_limits *lim, int empty, uint64_t start,
    struct rules_move *out, struct ai_report *rep)
{
	struct ai_ataxx_proof pf;

	if (a->noise > 0 || (lim->depth <= 0 && lim->level < AI_LEVEL_MAX) ||
	    empty > a->w[AX_W_SOLVE] || empty > AI_ATAXX_SOLVE_EMPTY)
		return 0;
	memset(&pf, 0, sizeof pf);
	pf.lead = 1;
	pf.plies = 2 * empty + AX_SOLVE_SLACK;
	pf.node_limit = AX_SOLVE_NODES;
	pf.deadline = start + (uint64_t)(lim->ms / AX_SOLVE_SHARE);
	pf.cancel = lim->cancel;
	if (ai_ataxx_solve(s, &pf) != 1 || pf.move.to == RULES_NONE)
		return 0;
	*out = pf.move;
	rep->depth = pf.length;
	rep->score = AX_WIN - pf.length;
	rep->nodes = pf.nodes;
	rep->ms = (long)(ai_clock_ms() - start);
	return 1;
}

int
AX_ENGINE(const void *st, const struct ai_limits *lim, struct rules_move *out,
    struct ai_report *rep)
{
	const struct ataxx_state *s = st;
	uint64_t start = ai_clock_ms();
	ax_bb w = ataxx_get(s->piece[0]), b = ataxx_get(s->piece[1]);
	struct ax_pos p;
	struct ax *a;
	uint16_t mv[AX_MOVES_MAX], best;
	int cap;

	p.side = s->turn;
	p.own = s->turn ? b : w;
	p.opp = s->turn ? w : b;
	p.empty = ataxx_board(s->size) & ~(w | b | ataxx_get(s->gap));
	if (p.own == 0 || p.opp == 0 || p.empty == 0 ||
	    (!ataxx_mobile(p.own, p.empty) && !ataxx_mobile(p.opp, p.empty)))
		return -1;
	if (ax_gen(p.own, p.empty, mv) == 0) {
		out->from = out->to = out->arg = RULES_NONE;
		return 0;
	}
	if ((a = ax_new(lim, start)) == NULL)
		return -1;
	ax_classes(s->size, &a->edge, &a->corner);
	a->squares = ataxx_pop(ataxx_board(s->size) & ~ataxx_get(s->gap));
	ax_level(a, lim, &cap);
	if (ax_solved(a, s, lim, ataxx_pop(p.empty), start, out, rep)) {
		ax_free(a);
		return 0;
	}
	p.key = ax_key(a, w, b, s->turn);
	best = ax_root(a, &p, cap, start, lim->ms, rep);
	if (best == AX_NOMOVE || best == AX_PASS)
		best = mv[0];
	rep->nodes = a->nodes;
	rep->ms = (long)(ai_clock_ms() - start);
	ax_free(a);
	out->from = (int16_t)(AX_FROM(best) < 0 ? RULES_NONE
	                                        : ax_square(s, AX_FROM(best)));
	out->to = (int16_t)ax_square(s, AX_TO(best));
	out->arg = RULES_NONE;
	return 0;
}

#ifndef AX_NARROW
/* The two copies, as ai.h declares them: repeated here so that a copy of
 * this file with its functions renamed (make bots-prev) declares them. */
int ai_ataxx_move64(const void *st, const struct ai_limits *lim,
    struct rules_move *out, struct ai_report *rep);
int ai_ataxx_move128(const void *st, const struct ai_limits *lim,
    struct rules_move *out, struct ai_report *rep);

int
ai_ataxx_move(const void *st, const struct ai_limits *lim,
    struct rules_move *out, struct ai_report *rep)
{
	const struct ataxx_state *s = st;

	if (s->size <= AX_NARROW_SIZE)
		return ai_ataxx_move64(st, lim, out, rep);
	return ai_ataxx_move128(st, lim, out, rep);
}
#endif
