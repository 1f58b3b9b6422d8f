/*
 * amazons_engine.c: the Amazons computer player. It judges a position by
 * territory (which side reaches each empty square first by queen moves,
 * and by king moves) and the mobility of each amazon, all on 100-bit
 * bitboards. Its search is selective: at each node it ranks the queen moves
 * alone, keeps the best few, ranks every arrow of those by the evaluation,
 * and searches only the best few complete moves, with alpha-beta and
 * iterative deepening until its deadline. The root ranks every complete
 * move. Low levels are weakened by a depth cap and noise.
 *
 * Once no empty square is reachable by both sides, the game is a count:
 * each side has its own regions, and the side to move wins when it has
 * more moves left than the other. Each region's moves (the longest
 * sequence of its amazons' moves that stay inside it) are counted by a
 * search bounded by AM_COUNT_NODES and remembered; when every count is
 * exact the evaluation is the exact result (with the difference of the
 * counts), so a won ending is kept and a lost one made as long as can be.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ai/ai.h"
#include "rules/amazons.h"
#include "rules/cpu.h"

__extension__ typedef unsigned __int128 am_bb;

#define AM_HALVES(hi, lo) ((((am_bb)(hi)) << 64) | (am_bb)(lo))
#define AM_FULL ((((am_bb)1) << 100) - 1)
#define AM_FILE_A AM_HALVES(0x4010040ULL, 0x1004010040100401ULL)
#define AM_FILE_J AM_HALVES(0x802008020ULL, 0x802008020080200ULL)
#define AM_NOT_A (AM_FULL & ~AM_FILE_A)
#define AM_NOT_J (AM_FULL & ~AM_FILE_J)

/* A won game, beyond any evaluation (minus the plies to it). */
#define AM_WIN 1000000
#define AM_INF (AM_WIN + 1000)
/* Evaluation weights, per square: queen territory, king territory, a tie
 * (both sides equally close; the side to move gets there first), and
 * mobility (each amazon's queen moves, up to AM_MOB_CAP); then the
 * search's widths: queen moves kept at an inner node, complete moves
 * searched there, and at the root after the first iteration; the search's
 * switches (AM_S_*, bits); then a restricted amazon's penalty (each
 * amazon with n < AM_RESTRICT queen moves counts (AM_RESTRICT - n)^2),
 * and regions already decided (a region no amazon of the other side can
 * enter, counted exactly: the moves its amazons make there minus its
 * squares, which the territory terms counted instead). The bench may try others
 * (ai_limits.weights, in this order; docs/ENGINES.md). */
enum am_weight {
	AM_W_QUEEN,
	AM_W_KING,
	AM_W_TIE,
	AM_W_MOB,
	AM_W_QKEEP,
	AM_W_WIDTH,
	AM_W_ROOT,
	AM_W_SEARCH,
	AM_W_TRAP,
	AM_W_DECIDED,
	AM_W_COUNT
};
/* AM_W_SEARCH's bits: the transposition table's cutoffs, two killer
 * moves a ply tried before a node ranks its moves, null windows after a
 * node's first move, the table's move tried first like the killers, and
 * the time rules (AM_S_PREDICT, AM_S_FULL, below).
 * The cutoffs and null windows change the work, not the value; the moves
 * tried first may lie outside the node's selection (a killer from a
 * sibling, a table move a depth-1 node stopped at) and so widen it. */
#define AM_S_TABLE 1
#define AM_S_KILLERS 2
#define AM_S_PVS 4
#define AM_S_TTMOVE 8
/* AM_W_SEARCH's time rule: start an iteration only when its predicted
 * cost ends within the time (the last iteration's evaluations times
 * their growth a ply, measured over the last two plies because an
 * alpha-beta search grows unevenly from odd to even depths, at the
 * search's rate so far); without it, no iteration starts after half the
 * time. */
#define AM_S_PREDICT 16
/* AM_W_SEARCH's other time rule: start an iteration whenever time is
 * left (the deadline stops it, and what it finished counts). */
#define AM_S_FULL 32
/* The growth of an iteration's cost over the last one's, as predicted:
 * bounds on the measured ratio (a cutoff-rich iteration can look nearly
 * free). */
#define AM_GROWTH_MIN 2.0
#define AM_GROWTH_MAX 16.0
static const int am_weights[AM_W_COUNT] = {10, 4, 2, 3, 12, 14, 40, 15, 0, 0};
_Static_assert(AM_W_COUNT <= AI_WEIGHTS, "room for the bench's weights");
#define AM_MOB_CAP 12
#define AM_RESTRICT 3

/* The most complete moves of a position (the rules' bound) and of queen
 * moves alone (4 amazons, at most 36 squares each). */
#define AM_MOVES_MAX 5000
#define AM_QMOVES_MAX 160
/* The most queen moves kept at an inner node (the bench's settings are
 * bounded by it: the arrays are that large). */
#define AM_QKEEP_MAX 16
/* The deepest search. */
#define AM_PLY_MAX 32
/* A separated position whose every region was counted exactly: won or
 * lost beyond any evaluation, though not within the search's horizon. */
#define AM_SOLVED (AM_WIN / 2)
/* Positions one region's count may search; past that it is not exact.
 * Small regions (a dozen squares) are counted in far fewer. A region of
 * more than AM_COUNT_SQUARES empty squares is not counted at all: the
 * evaluation's territory already judges it, and a count that runs out
 * would cost every evaluation of the search a thousand times its own. */
#define AM_COUNT_NODES 4000L
#define AM_COUNT_SQUARES 20
/* Remembered region counts (a power of two). */
#define AM_COUNT_SLOTS 4096
/* Transposition table entries (a power of two), 16 bytes each: 1 MiB. An
 * inner node ranks a few hundred moves by the evaluation, so a 2 s search
 * visits some ten thousand nodes: the table holds them all. */
#define AM_TT_SIZE (1u << 16)
/* The side-to-move part of the Zobrist key. */
#define AM_Z_TURN 0x9e3779b97f4a7c15ULL

struct am_move {
	int8_t from, to, arrow;
	int score; /* the mover's evaluation of the position after it */
};

/* A position of the search: the side to move's amazons (`side`: 0 white,
 * 1 black), the other side's, the arrows, and its Zobrist key. */
struct am_pos {
	am_bb me, opp, arrows;
	uint64_t key;
	int side;
};

/* What the score of a table entry is: exact, at least, at most. */
enum am_bound { AM_B_EXACT = 1, AM_B_LOWER, AM_B_UPPER };

/* A transposition table entry: the key, the score and its bound from a
 * search of `depth` plies, and the best move found (from < 0: none). */
struct am_tt {
	uint64_t key;
	int32_t score;
	int8_t from, to, arrow, depth;
	uint8_t bound;
};

/* A region's count: its amazons and empty squares, the most moves they
 * make, and whether that is exact (else an upper bound). */
struct am_count {
	am_bb amz, empty;
	int16_t moves;
	int8_t exact, used;
};

struct am {
	long nodes;              /* positions evaluated */
	struct am_count *counts; /* AM_COUNT_SLOTS, or NULL: no counting */
	struct am_tt *tt;        /* AM_TT_SIZE, or NULL: no table */
	struct am_move killer[AM_PLY_MAX][2];
	uint64_t deadline;
	const atomic_int *cancel;
	int stop;
	int noise;
	int plain;         /* queen territory alone (the bench's yardstick) */
	int w[AM_W_COUNT]; /* weights and widths (enum am_weight) */
	uint64_t seed;
};

RULES_INLINE int
am_pop(am_bb b)
{
	return __builtin_popcountll((uint64_t)b) +
	    __builtin_popcountll((uint64_t)(b >> 64));
}

RULES_INLINE int
am_lsb(am_bb b)
{
	uint64_t lo = (uint64_t)b;

	if (lo != 0)
		return __builtin_ctzll(lo);
	return 64 + __builtin_ctzll((uint64_t)(b >> 64));
}

RULES_INLINE am_bb
am_get(const uint64_t h[2])
{
	return AM_HALVES(h[1], h[0]);
}

/* A set moved one step in direction d (0..7), edges masked. */
RULES_INLINE am_bb
am_step(am_bb b, int d)
{
	switch (d) {
	case 0:
		return (b << 10) & AM_FULL;
	case 1:
		return b >> 10;
	case 2:
		return (b << 1) & AM_NOT_A;
	case 3:
		return (b >> 1) & AM_NOT_J;
	case 4:
		return (b << 11) & AM_NOT_A;
	case 5:
		return (b << 9) & AM_NOT_J;
	case 6:
		return (b >> 9) & AM_NOT_A;
	default:
		return (b >> 11) & AM_NOT_J;
	}
}

/* b shifted n squares up (left) or down, unmasked. */
RULES_INLINE am_bb
am_shift(am_bb b, int left, int n)
{
	return left ? b << n : b >> n;
}

/* The empty squares rays from `gen` reach going n squares at a step
 * (up when left), squares off `mask` (a wrapped edge) blocking: a
 * Kogge-Stone fill, three doublings and an eighth step covering the
 * longest ray (9 squares), whatever the number of rays. */
RULES_INLINE am_bb
am_ray(am_bb gen, am_bb empty, int left, int n, am_bb mask)
{
	am_bb open = empty & mask, pro = open;

	gen |= pro & am_shift(gen, left, n);
	pro &= am_shift(pro, left, n);
	gen |= pro & am_shift(gen, left, 2 * n);
	pro &= am_shift(pro, left, 2 * n);
	gen |= pro & am_shift(gen, left, 4 * n);
	pro &= am_shift(pro, left, 4 * n);
	gen |= pro & am_shift(gen, left, 8 * n);
	return am_shift(gen, left, n) & open;
}

/* Every empty square a queen on any square of `set` reaches. */
RULES_INLINE am_bb
am_queen(am_bb set, am_bb empty)
{
	return am_ray(set, empty, 1, 10, AM_FULL) |
	    am_ray(set, empty, 0, 10, AM_FULL) |
	    am_ray(set, empty, 1, 1, AM_NOT_A) |
	    am_ray(set, empty, 0, 1, AM_NOT_J) |
	    am_ray(set, empty, 1, 11, AM_NOT_A) |
	    am_ray(set, empty, 1, 9, AM_NOT_J) |
	    am_ray(set, empty, 0, 9, AM_NOT_A) |
	    am_ray(set, empty, 0, 11, AM_NOT_J);
}

/* Every empty square next to a square of `set`. */
RULES_INLINE am_bb
am_king(am_bb set, am_bb empty)
{
	am_bb r = 0;
	int d;

	for (d = 0; d < 8; d++)
		r |= am_step(set, d);
	return r & empty;
}

/* Squares closer to side a than to b (in moves of `reach`), minus the
 * opposite, and ties in *ties. */
RULES_INLINE int
am_territory(am_bb a, am_bb b, am_bb empty, am_bb (*reach)(am_bb, am_bb),
    int *ties, am_bb *reach_a, am_bb *reach_b)
{
	am_bb seen_a = 0, seen_b = 0, fa = a, fb = b;
	int t = 0;

	*ties = 0;
	while (fa != 0 || fb != 0) {
		am_bb na = fa != 0 ? reach(fa, empty) & ~seen_a : 0;
		am_bb nb = fb != 0 ? reach(fb, empty) & ~seen_b : 0;

		t += am_pop(na & ~seen_b & ~nb) - am_pop(nb & ~seen_a & ~na);
		*ties += am_pop(na & nb);
		seen_a |= na;
		seen_b |= nb;
		fa = na;
		fb = nb;
	}
	*reach_a = seen_a;
	*reach_b = seen_b;
	return t;
}

/* The amazons' mobility: queen moves of each, capped; in *restricted the
 * sum of (AM_RESTRICT - n)^2 over the amazons with n < AM_RESTRICT. */
RULES_INLINE int
am_mobility(am_bb set, am_bb empty, int *restricted)
{
	int m = 0;

	*restricted = 0;
	for (; set != 0; set &= set - 1) {
		int n = am_pop(am_queen(set & -set, empty));

		m += n < AM_MOB_CAP ? n : AM_MOB_CAP;
		if (n < AM_RESTRICT)
			*restricted += (AM_RESTRICT - n) * (AM_RESTRICT - n);
	}
	return m;
}

/* The squares of `area` connected to `seeds` by king steps, the flood
 * stopping early once it holds all of `enough` (AM_FULL: never). */
RULES_INLINE am_bb
am_flood(am_bb seeds, am_bb area, am_bb enough)
{
	am_bb r = seeds, grow;

	while ((r & enough) != enough) {
		grow = r | am_king(r, area);
		if (grow == r)
			break;
		r = grow;
	}
	return r;
}

/* The most moves amazons amz make inside the empty squares `empty`
 * (their region), searching at most *budget more positions: past that,
 * *exact is cleared and the count is an upper bound. */
static int
am_fill(am_bb amz, am_bb empty, long *budget, int *exact)
{
	int best = 0, bound = am_pop(empty), v;
	am_bb set, t, w;

	for (set = amz; set != 0 && best < bound; set &= set - 1) {
		am_bb fb = set & -set;

		for (t = am_queen(fb, empty); t != 0 && best < bound;
		     t &= t - 1) {
			am_bb tb = t & -t, e = (empty ^ tb) | fb;

			for (w = am_queen(tb, e); w != 0 && best < bound;
			     w &= w - 1) {
				if (--*budget < 0) {
					*exact = 0;
					return bound;
				}
				v = 1 +
				    am_fill((amz ^ fb) | tb, e ^ (w & -w),
				        budget, exact);
				if (v > best)
					best = v;
			}
		}
	}
	return best;
}

/* One region's count, remembered; none (not exact) past the deadline,
 * which the root's ranking of every move does not otherwise check. */
static int
am_region(struct am *a, am_bb amz, am_bb empty, int *exact)
{
	uint64_t h = rules_mix64((uint64_t)amz ^ (uint64_t)(amz >> 64) * 3 ^
	    (uint64_t)empty * 5 ^ (uint64_t)(empty >> 64) * 7);
	struct am_count *c = &a->counts[h & (AM_COUNT_SLOTS - 1)];
	long budget = AM_COUNT_NODES;
	int ex = 1;

	if (am_pop(empty) > AM_COUNT_SQUARES ||
	    (a->deadline != 0 && ai_out_of_time(a->deadline, a->cancel))) {
		*exact = 0;
		return am_pop(empty);
	}
	if (!c->used || c->amz != amz || c->empty != empty) {
		c->moves = (int16_t)am_fill(amz, empty, &budget, &ex);
		c->exact = (int8_t)ex;
		c->amz = amz;
		c->empty = empty;
		c->used = 1;
	}
	*exact &= c->exact;
	return c->moves;
}

/* The moves left to amazons `side` when no other amazon shares their
 * regions (the empty squares they reach, `reach`): the sum over the
 * regions, each an 8-connected group of those squares and amazons. */
static int
am_count(struct am *a, am_bb side, am_bb reach, int *exact)
{
	am_bb left = side, area = reach | side, r, grow;
	int n = 0;

	while (left != 0) {
		r = left & -left;
		for (;;) {
			grow = r | am_king(r, area);
			if (grow == r)
				break;
			r = grow;
		}
		n += am_region(a, r & side, r & reach, exact);
		left &= ~r;
	}
	return n;
}

/* Every complete move of a count: AM_SOLVED for a won count, minus for
 * a lost one (the side to move wins with more moves left), plus the
 * difference; 0 when the sides still share a region or a count is not
 * exact (*known cleared). */
static int
am_counted(struct am *a, am_bb me, am_bb opp, am_bb rme, am_bb ropp, int *known)
{
	int exact = 1, m, o;

	*known = 0;
	if (a->counts == NULL || (rme & ropp) != 0)
		return 0;
	m = am_count(a, me, rme, &exact);
	o = am_count(a, opp, ropp, &exact);
	if (!exact)
		return 0;
	*known = 1;
	return (m > o ? AM_SOLVED : -AM_SOLVED) + (m - o);
}

/* Regions of amazons `side` that no amazon of `other` can enter, counted
 * exactly (regions too large or too slow to count add nothing): the moves
 * they make there minus the regions' empty squares, at most 0. `kother`
 * holds the empty squares other's amazons reach by king steps: an amazon
 * next to one of them or to one of other's is not alone, which settles
 * most positions without a flood. */
static int
am_decided(struct am *a, am_bb side, am_bb other, am_bb empty, am_bb kother)
{
	am_bb area = empty | side | other, reach, alone;
	int exact = 1;

	if (a->counts == NULL ||
	    (side & ~am_king(kother | other, AM_FULL)) == 0)
		return 0;
	alone = side & ~am_flood(other, area, side);
	if (alone == 0)
		return 0;
	reach = am_flood(alone, area, AM_FULL) & empty;
	return am_count(a, alone, reach, &exact) - am_pop(reach);
}

/* The evaluation's counts for the side to move, each its own minus the
 * other's, in enum am_weight's order (the search's entries 0); the
 * restricted amazons and decided regions only when weighed or `all`.
 * When every region is counted (the sides apart) the whole evaluation
 * instead, *known set. */
RULES_INLINE int
am_terms(struct am *a, am_bb me, am_bb opp, am_bb arrows, int all,
    int t[AM_W_COUNT], int *known)
{
	am_bb empty = AM_FULL & ~(me | opp | arrows), rme, ropp, kme, kopp;
	int kties, rm, ro, v;

	memset(t, 0, AM_W_COUNT * sizeof *t);
	t[AM_W_QUEEN] =
	    am_territory(me, opp, empty, am_queen, &t[AM_W_TIE], &rme, &ropp);
	*known = 0;
	if (a->plain)
		return 0;
	v = am_counted(a, me, opp, rme, ropp, known);
	if (*known)
		return v;
	t[AM_W_KING] =
	    am_territory(me, opp, empty, am_king, &kties, &kme, &kopp);
	t[AM_W_MOB] =
	    am_mobility(me, empty, &rm) - am_mobility(opp, empty, &ro);
	t[AM_W_TRAP] = ro - rm;
	if (all || a->w[AM_W_DECIDED] != 0)
		t[AM_W_DECIDED] = am_decided(a, me, opp, empty, kopp) -
		    am_decided(a, opp, me, empty, kme);
	return 0;
}

/* The position for the side to move, with amazons `me` against `opp`. */
RULES_HOT static int
am_eval(struct am *a, am_bb me, am_bb opp, am_bb arrows)
{
	int t[AM_W_COUNT], v, known, i;

	a->nodes++;
	v = am_terms(a, me, opp, arrows, 0, t, &known);
	if (a->plain)
		return am_weights[AM_W_QUEEN] * t[AM_W_QUEEN];
	if (known)
		return v;
	v = a->w[AM_W_QUEEN] * t[AM_W_QUEEN] + a->w[AM_W_KING] * t[AM_W_KING] +
	    a->w[AM_W_TIE] * t[AM_W_TIE] + a->w[AM_W_MOB] * t[AM_W_MOB];
	for (i = AM_W_TRAP; i < AM_W_COUNT; i++)
		v += a->w[i] * t[i];
	if (a->noise > 0) {
		uint64_t h = rules_mix64((uint64_t)me ^
		    (uint64_t)(me >> 64) * 3 ^ (uint64_t)opp * 5 ^
		    (uint64_t)(opp >> 64) * 7 ^ (uint64_t)arrows ^
		    (uint64_t)(arrows >> 64) * 11 ^ a->seed);

		v += (int)(h % (uint64_t)(2 * a->noise + 1)) - a->noise;
	}
	return v;
}

static int
am_cmp(const void *x, const void *y)
{
	const struct am_move *p = x, *q = y;

	return (q->score > p->score) - (q->score < p->score);
}

/* The queen moves of the side with `me`, each scored by the position
 * after it without an arrow; the best `keep` of them, best first. */
static int
am_queen_moves(struct am *a, am_bb me, am_bb opp, am_bb arrows,
    struct am_move *q, int keep)
{
	am_bb empty = AM_FULL & ~(me | opp | arrows), set, t;
	int n = 0;

	for (set = me; set != 0; set &= set - 1) {
		int from = am_lsb(set);
		am_bb fb = set & -set;

		for (t = am_queen(fb, empty); t != 0; t &= t - 1) {
			am_bb to = t & -t;

			q[n].from = (int8_t)from;
			q[n].to = (int8_t)am_lsb(t);
			q[n].arrow = -1;
			q[n].score = keep > 0
			    ? -am_eval(a, opp, (me ^ fb) | to, arrows)
			    : 0;
			n++;
		}
	}
	if (keep > 0 && n > keep) {
		qsort(q, (size_t)n, sizeof *q, am_cmp);
		n = keep;
	}
	return n;
}

/* Complete moves: every arrow of the given queen moves, each scored by
 * the evaluation; the count, sorted best first. */
static int
am_complete(struct am *a, am_bb me, am_bb opp, am_bb arrows,
    const struct am_move *q, int nq, struct am_move *out, int max)
{
	int i, n = 0;

	for (i = 0; i < nq; i++) {
		am_bb fb = (am_bb)1 << q[i].from, tb = (am_bb)1 << q[i].to;
		am_bb moved = (me ^ fb) | tb;
		am_bb t = am_queen(tb, AM_FULL & ~(moved | opp | arrows));

		for (; t != 0 && n < max; t &= t - 1) {
			out[n] = q[i];
			out[n].arrow = (int8_t)am_lsb(t);
			out[n].score =
			    -am_eval(a, opp, moved, arrows | (t & -t));
			n++;
		}
	}
	qsort(out, (size_t)n, sizeof *out, am_cmp);
	return n;
}

static int
am_stopped(struct am *a)
{
	if (!a->stop && ai_out_of_time(a->deadline, a->cancel))
		a->stop = 1;
	return a->stop;
}

/* The Zobrist key of a piece (kind 0 a white amazon, 1 a black one, 2 an
 * arrow) on square sq: drawn from a fixed mix, so there is no table to
 * fill and nothing shared between the server's threads. */
RULES_INLINE uint64_t
am_z(int kind, int sq)
{
	return rules_mix64((uint64_t)(kind * 128 + sq) + 0x2545f4914f6cdd1dULL);
}

/* The key of a whole position. */
static uint64_t
am_key(am_bb white, am_bb black, am_bb arrows, int turn)
{
	uint64_t k = turn ? AM_Z_TURN : 0;
	am_bb b;

	for (b = white; b != 0; b &= b - 1)
		k ^= am_z(0, am_lsb(b));
	for (b = black; b != 0; b &= b - 1)
		k ^= am_z(1, am_lsb(b));
	for (b = arrows; b != 0; b &= b - 1)
		k ^= am_z(2, am_lsb(b));
	return k;
}

/* The position after move m, the other side to move. */
RULES_INLINE struct am_pos
am_play(const struct am_pos *p, const struct am_move *m)
{
	struct am_pos c;

	c.me = p->opp;
	c.opp = (p->me ^ (am_bb)1 << m->from) | (am_bb)1 << m->to;
	c.arrows = p->arrows | (am_bb)1 << m->arrow;
	c.side = !p->side;
	c.key = p->key ^ am_z(p->side, m->from) ^ am_z(p->side, m->to) ^
	    am_z(2, m->arrow) ^ AM_Z_TURN;
	return c;
}

/* Whether m is a legal move of the side to move (table and killer moves
 * come from other positions). */
static int
am_legal(const struct am_pos *p, const struct am_move *m)
{
	am_bb empty = AM_FULL & ~(p->me | p->opp | p->arrows), fb, tb;

	if (m->from < 0 || m->to < 0 || m->arrow < 0)
		return 0;
	fb = (am_bb)1 << m->from;
	tb = (am_bb)1 << m->to;
	if ((p->me & fb) == 0 || (am_queen(fb, empty) & tb) == 0)
		return 0;
	return (am_queen(tb, (empty ^ tb) | fb) >> m->arrow & 1) != 0;
}

static int
am_same(const struct am_move *x, const struct am_move *y)
{
	return x->from == y->from && x->to == y->to && x->arrow == y->arrow;
}

/* Whether m is among the n moves of `list`. */
static int
am_listed(const struct am_move *list, int n, const struct am_move *m)
{
	int i;

	for (i = 0; i < n; i++)
		if (am_same(&list[i], m))
			return 1;
	return 0;
}

/* Whether a table entry settles a node searched with (alpha, beta). */
static int
am_tt_cut(const struct am_tt *e, int alpha, int beta)
{
	return e->bound == AM_B_EXACT ||
	    (e->bound == AM_B_LOWER && e->score >= beta) ||
	    (e->bound == AM_B_UPPER && e->score <= alpha);
}

/* The moves tried before a node ranks its own: the table's, then the
 * killers of the ply, each legal and once; their count. */
static int
am_first_moves(struct am *a, const struct am_pos *p, const struct am_tt *e,
    int ply, struct am_move *out)
{
	int n = 0, k;

	if ((a->w[AM_W_SEARCH] & AM_S_TTMOVE) && e != NULL &&
	    e->key == p->key && e->from >= 0) {
		out[n].from = e->from;
		out[n].to = e->to;
		out[n].arrow = e->arrow;
		if (am_legal(p, &out[n]))
			n++;
	}
	if (!(a->w[AM_W_SEARCH] & AM_S_KILLERS))
		return n;
	for (k = 0; k < 2; k++) {
		const struct am_move *m = &a->killer[ply][k];

		if (!am_listed(out, n, m) && am_legal(p, m))
			out[n++] = *m;
	}
	return n;
}

static int am_search(struct am *a, const struct am_pos *p, int depth, int ply,
    int alpha, int beta);

/* The score of move m for the side to move of p, searched depth - 1 more
 * plies (at depth 1 the evaluation), a null window first when `scout`. */
static int
am_child(struct am *a, const struct am_pos *p, const struct am_move *m,
    int depth, int ply, int alpha, int beta, int scout)
{
	struct am_pos c = am_play(p, m);
	int v;

	if (depth <= 1)
		return -am_eval(a, c.me, c.opp, c.arrows);
	if (scout && (a->w[AM_W_SEARCH] & AM_S_PVS)) {
		v = -am_search(a, &c, depth - 1, ply + 1, -alpha - 1, -alpha);
		if (v <= alpha || v >= beta || a->stop)
			return v;
	}
	return -am_search(a, &c, depth - 1, ply + 1, -beta, -alpha);
}

/* At depth 1: the best evaluation among every arrow of the ranked queen
 * moves q[0..nq), stopping at the first that reaches beta; *bm its move. */
static int
am_frontier(struct am *a, const struct am_pos *p, const struct am_move *q,
    int nq, int beta, struct am_move *bm)
{
	int i, best = -AM_INF;

	for (i = 0; i < nq; i++) {
		am_bb fb = (am_bb)1 << q[i].from, tb = (am_bb)1 << q[i].to;
		am_bb moved = (p->me ^ fb) | tb;
		am_bb t = am_queen(tb, AM_FULL & ~(moved | p->opp | p->arrows));

		for (; t != 0; t &= t - 1) {
			int v =
			    -am_eval(a, p->opp, moved, p->arrows | (t & -t));

			if (v > best) {
				best = v;
				*bm = q[i];
				bm->arrow = (int8_t)am_lsb(t);
				if (best >= beta)
					return best;
			}
		}
	}
	return best;
}

/* Remember a node's result and, on a cutoff, its move as a killer. */
static void
am_store(struct am *a, const struct am_pos *p, struct am_tt *e, int depth,
    int ply, int best, int alpha0, int beta, const struct am_move *bm)
{
	if (a->stop)
		return;
	if (best >= beta && bm->from >= 0 && !am_same(bm, &a->killer[ply][0])) {
		a->killer[ply][1] = a->killer[ply][0];
		a->killer[ply][0] = *bm;
	}
	if (e == NULL)
		return;
	e->key = p->key;
	e->score = best;
	e->depth = (int8_t)depth;
	e->bound = best <= alpha0 ? AM_B_UPPER
	    : best >= beta        ? AM_B_LOWER
	                          : AM_B_EXACT;
	e->from = bm->from;
	e->to = bm->to;
	e->arrow = bm->arrow;
}

/* Alpha-beta (fail-soft) over the selected moves, the table's and the
 * killers first; at depth 1 the best static score of the candidates is
 * the value. */
static int
am_search(struct am *a, const struct am_pos *p, int depth, int ply, int alpha,
    int beta)
{
	/* AM_QKEEP_MAX queen moves, at most 36 arrows each */
	struct am_move q[AM_QMOVES_MAX], mv[AM_QKEEP_MAX * 40], first[3];
	struct am_move bm = {-1, -1, -1, 0};
	struct am_tt *e = NULL;
	int nq, n, i, nfirst, tried = 0, alpha0 = alpha, best = -AM_INF, v;

	if (am_stopped(a))
		return 0;
	if (depth <= 0)
		return am_eval(a, p->me, p->opp, p->arrows);
	if (ply >= AM_PLY_MAX - 1)
		depth = 1;
	if (a->tt != NULL) {
		e = &a->tt[p->key & (AM_TT_SIZE - 1)];
		if ((a->w[AM_W_SEARCH] & AM_S_TABLE) && e->key == p->key &&
		    e->depth >= depth && am_tt_cut(e, alpha, beta))
			return e->score;
	}
	nfirst = am_first_moves(a, p, e, ply, first);
	for (i = 0; i < nfirst; i++, tried++) {
		v = am_child(
		    a, p, &first[i], depth, ply, alpha, beta, tried > 0);
		if (a->stop)
			return 0;
		if (v > best) {
			best = v;
			bm = first[i];
		}
		if (v > alpha)
			alpha = v;
		if (alpha >= beta)
			goto done;
	}
	nq = am_queen_moves(a, p->me, p->opp, p->arrows, q, a->w[AM_W_QKEEP]);
	if (nq == 0)
		return -AM_WIN + ply;
	if (depth == 1) {
		struct am_move fm;

		v = am_frontier(a, p, q, nq, beta, &fm);
		if (v > best) {
			best = v;
			bm = fm;
		}
		goto done;
	}
	n = am_complete(
	    a, p->me, p->opp, p->arrows, q, nq, mv, AM_QKEEP_MAX * 40);
	if (n > a->w[AM_W_WIDTH])
		n = a->w[AM_W_WIDTH];
	for (i = 0; i < n; i++) {
		if (am_listed(first, nfirst, &mv[i]))
			continue;
		v = am_child(
		    a, p, &mv[i], depth, ply, alpha, beta, tried++ > 0);
		if (a->stop)
			return 0;
		if (v > best) {
			best = v;
			bm = mv[i];
		}
		if (v > alpha)
			alpha = v;
		if (alpha >= beta)
			break;
	}
done:
	am_store(a, p, e, depth, ply, best, alpha0, beta, &bm);
	return best;
}

/* One iteration at the root over mv[0..n); the best index, or -1 when
 * stopped before the first move was searched. Scores are written back so
 * the next iteration searches the best first. */
static int
am_root(struct am *a, const struct am_pos *p, struct am_move *mv, int n,
    int depth, int *score)
{
	int i, alpha = -AM_INF, bi = -1;

	for (i = 0; i < n; i++) {
		int v = am_child(a, p, &mv[i], depth, 0, alpha, AM_INF, i > 0);

		if (a->stop)
			break;
		mv[i].score = v;
		if (v > alpha) {
			alpha = v;
			bi = i;
		}
	}
	*score = alpha;
	return bi;
}

/* The depth cap and noise of a level (weakening the first three). */
static int
am_level(struct am *a, const struct ai_limits *lim)
{
	static const int caps[AI_LEVEL_MAX] = {1, 1, 2, AM_PLY_MAX, AM_PLY_MAX};
	static const int noise[AI_LEVEL_MAX] = {60, 20, 5, 0, 0};
	int l = lim->level < AI_LEVEL_MIN ? AI_LEVEL_MIN
	    : lim->level > AI_LEVEL_MAX   ? AI_LEVEL_MAX
	                                  : lim->level;

	a->noise = noise[l - 1];
	if (lim->depth > 0) {
		a->noise = 0;
		return lim->depth < AM_PLY_MAX ? lim->depth : AM_PLY_MAX;
	}
	return caps[l - 1];
}

/* Whether to start iteration `depth`, `elapsed` of `ms` spent: with
 * AM_S_FULL while time is left; with AM_S_PREDICT and three iterations
 * measured (cost[d]: iteration d's evaluations; `total` all of them with
 * the root's ranking), when its predicted cost ends within the time; else
 * before half the time. */
static int
am_next(const struct am *a, int depth, const long *cost, long total,
    long elapsed, long ms)
{
	double growth;

	if (a->w[AM_W_SEARCH] & AM_S_FULL)
		return elapsed < ms;
	if (!(a->w[AM_W_SEARCH] & AM_S_PREDICT) || depth < 5 ||
	    cost[depth - 3] <= 0 || total <= 0)
		return elapsed * 2 <= ms;
	growth = sqrt((double)cost[depth - 1] / (double)cost[depth - 3]);
	growth = growth < AM_GROWTH_MIN ? AM_GROWTH_MIN
	    : growth > AM_GROWTH_MAX    ? AM_GROWTH_MAX
	                                : growth;
	return elapsed +
	    (double)cost[depth - 1] * growth * (double)elapsed /
	        (double)total <=
	    (double)ms;
}

/* Iterative deepening over the ranked root moves; the best move's index. */
static int
am_deepen(struct am *a, const struct am_pos *p, struct am_move *mv, int n,
    int cap, uint64_t start, long ms, struct ai_report *rep)
{
	int depth, best = 0, width = n < a->w[AM_W_ROOT] ? n : a->w[AM_W_ROOT];
	long cost[AM_PLY_MAX + 1] = {0}, before;

	rep->depth = 1;
	rep->score = mv[0].score;
	for (depth = 2; depth <= cap; depth++) {
		int score, bi;

		if (!am_next(a, depth, cost, a->nodes,
		        (long)(ai_clock_ms() - start), ms))
			break;
		before = a->nodes;
		bi = am_root(a, p, mv, width, depth, &score);
		cost[depth] = a->nodes - before;
		if (bi >= 0 && (!a->stop || mv[bi].score > mv[0].score))
			best = bi;
		if (a->stop)
			break;
		rep->depth = depth;
		rep->score = score;
		/* the best first for the next iteration */
		if (best != 0) {
			struct am_move t = mv[best];

			memmove(mv + 1, mv, (size_t)best * sizeof *mv);
			mv[0] = t;
			best = 0;
		}
		if (score > AM_WIN - AM_PLY_MAX || score < -AM_WIN + AM_PLY_MAX)
			break;
	}
	return best;
}

int
ai_amazons_move(const void *st, const struct ai_limits *lim,
    struct rules_move *out, struct ai_report *rep)
{
	const struct amazons_state *s = st;
	uint64_t start = ai_clock_ms();
	am_bb me = am_get(s->amz[s->turn]), opp = am_get(s->amz[!s->turn]);
	am_bb arrows = am_get(s->arrows);
	struct am_move q[AM_QMOVES_MAX], *mv;
	struct am_pos p;
	struct am a;
	int nq, n, best, cap, i;

	memset(&a, 0, sizeof a);
	p.me = me;
	p.opp = opp;
	p.arrows = arrows;
	p.side = s->turn != 0;
	p.key = am_key(am_get(s->amz[0]), am_get(s->amz[1]), arrows, p.side);
	a.deadline = ai_deadline(start, lim->ms);
	a.cancel = lim->cancel;
	a.seed = rules_mix64(lim->seed + 1);
	a.plain = lim->plain;
	for (i = 0; i < AM_W_COUNT; i++)
		a.w[i] = lim->weights != NULL && !a.plain ? lim->weights[i]
		                                          : am_weights[i];
	/* widths the arrays hold, at least one move */
	a.w[AM_W_QKEEP] = a.w[AM_W_QKEEP] < 1 ? 1
	    : a.w[AM_W_QKEEP] > AM_QKEEP_MAX  ? AM_QKEEP_MAX
	                                      : a.w[AM_W_QKEEP];
	if (a.w[AM_W_WIDTH] < 1)
		a.w[AM_W_WIDTH] = 1;
	if (a.w[AM_W_ROOT] < 1)
		a.w[AM_W_ROOT] = 1;
	cap = am_level(&a, lim);
	nq = am_queen_moves(&a, me, opp, arrows, q, 0);
	if (nq == 0 || (mv = malloc(AM_MOVES_MAX * sizeof *mv)) == NULL)
		return -1;
	a.counts = calloc(AM_COUNT_SLOTS, sizeof *a.counts);
	/* without memory for it, the search goes on without a table */
	if (a.w[AM_W_SEARCH] & (AM_S_TABLE | AM_S_TTMOVE))
		a.tt = calloc(AM_TT_SIZE, sizeof *a.tt);
	n = am_complete(&a, me, opp, arrows, q, nq, mv, AM_MOVES_MAX);
	best = am_deepen(&a, &p, mv, n, cap, start, lim->ms, rep);
	out->from = mv[best].from;
	out->to = mv[best].to;
	out->arg = mv[best].arrow;
	free(mv);
	free(a.counts);
	free(a.tt);
	rep->nodes = a.nodes;
	rep->ms = (long)(ai_clock_ms() - start);
	return 0;
}

int
ai_amazons_count(const void *st, int moves[2])
{
	const struct amazons_state *s = st;
	am_bb w = am_get(s->amz[0]), b = am_get(s->amz[1]);
	am_bb empty = AM_FULL & ~(w | b | am_get(s->arrows)), rw, rb;
	struct am a;
	int ties, exact = 1;

	memset(&a, 0, sizeof a);
	am_territory(w, b, empty, am_queen, &ties, &rw, &rb);
	if ((rw & rb) != 0)
		return -1;
	a.counts = calloc(AM_COUNT_SLOTS, sizeof *a.counts);
	if (a.counts == NULL)
		return -1;
	moves[0] = am_count(&a, w, rw, &exact);
	moves[1] = am_count(&a, b, rb, &exact);
	free(a.counts);
	return exact;
}

void
ai_amazons_defaults(int weights[AI_WEIGHTS])
{
	int i;

	for (i = 0; i < AI_WEIGHTS; i++)
		weights[i] = i < AM_W_COUNT ? am_weights[i] : 0;
}

int
ai_amazons_terms(const void *st, int terms[AI_WEIGHTS])
{
	const struct amazons_state *s = st;
	struct am a;
	int t[AM_W_COUNT], known, i;

	memset(&a, 0, sizeof a);
	memcpy(a.w, am_weights, sizeof a.w);
	a.counts = calloc(AM_COUNT_SLOTS, sizeof *a.counts);
	if (a.counts == NULL)
		return -1;
	am_terms(&a, am_get(s->amz[s->turn]), am_get(s->amz[!s->turn]),
	    am_get(s->arrows), 1, t, &known);
	free(a.counts);
	for (i = 0; i < AI_WEIGHTS; i++)
		terms[i] = i < AM_W_COUNT ? t[i] : 0;
	return known;
}
