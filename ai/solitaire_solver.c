/*
 * solitaire_solver.c: can a peg solitaire position still be won, and which
 * jump keeps it winnable. A depth-first search over peg sets held as
 * 128-bit masks, with
 *   - a table of the positions already proved lost;
 *   - the position-class invariant, checked once at the root;
 *   - a cut for pegs that can never leave their cell and for a goal that
 *     no peg can ever reach, from a quick over-estimate of what may happen;
 *   - jumps tried best first (fewest lone pegs, far pegs first), in runs
 *     of growing length that shuffle near-equal jumps between restarts, as
 *     the time one order takes varies wildly from board to board.
 * Everything a run proves lost stays proved, so the last run, long enough,
 * settles the lost positions too.
 *
 * A board that ships a table of its winnable positions (solitaire_table.c:
 * the English cross) answers a position of many pegs by looking up its
 * jumps. The table holds only positions reachable from the start; whether
 * a position is, is the same question as whether its complement (every
 * peg and hole swapped) can be won: a jump backwards on a position is a
 * jump forwards on its complement, and the start is the complement of the
 * goal's one peg. The complement of a many-peg position has few pegs and
 * is searched in a moment.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ai/ai.h"
#include "rules/solitaire.h"

/* The lost table starts small and doubles while half full, up to
 * SOL_TABLE_BYTES (32 MB: 4M positions of boards up to 64 cells, held in
 * one word, or 2M of larger ones), so that one solve cannot take the
 * server's memory; past that it is a cache that forgets. */
#define SOL_TABLE_MIN_BITS 14
#define SOL_TABLE_BYTES ((size_t)32 << 20)

/* Nodes of the shortest run between restarts (the Luby sequence gives the
 * multiples): about a millisecond of search. */
#define SOL_RUN_NODES 4096L

/* How a jump is rated, lower first: SOL_LONE_WEIGHT for each peg left
 * with no peg beside it, plus how much nearer to the goal the jump brings
 * the pegs. Restarts add a random amount below SOL_NOISE score points, so
 * that they reorder close jumps but seldom poor ones. Tuned on 200
 * generated 7x7 and 10x10 boards. */
#define SOL_LONE_WEIGHT 3
#define SOL_NOISE 4
#define SOL_SCORE_UNIT 256 /* room below one score point for the noise */
#define SOL_SCORE_BIAS 64  /* keeps the (small, negative) scores above 0 */

/* At most four jumps from each cell. */
#define SOL_MAX_MOVES (4 * SOLITAIRE_MAX_CELLS)

/* A set of cells: bit i of the 128 is cell i. */
struct sol_mask {
	uint64_t w[2];
};

/* A jump found at a node, with its rank among the node's jumps. */
struct sol_move {
	uint8_t cell, dir;
	uint32_t key;
};

/* Open addressing, linear probing, one word a position on boards of up
 * to 64 cells (else two); the empty set marks a free slot (a position
 * with no peg is never searched). */
struct sol_table {
	uint64_t *slot;
	size_t size, used; /* in positions */
	int bits, wide;
};

struct sol_search {
	int off[4];              /* cell offset of each direction */
	struct sol_mask from[4]; /* cells a jump that way can start from */
	struct sol_mask side[4]; /* cells with a neighbour that way */
	struct sol_mask usable;
	int goal;
	int dist[SOLITAIRE_MAX_CELLS]; /* steps to the goal, across and down */
	struct sol_table lost;
	long nodes;
	long stop; /* the node count at which this run gives up */
	const atomic_int *cancel;    /* set by another thread: give up */
	const struct ai_soltab *tab; /* answers for the positions of
	                                tab->minpegs pegs or more (NULL:
	                                none), all reachable from the start */
	uint64_t shake; /* 0 in the first run, else this run's random seed */
	/* each depth's jumps (the depth is the peg count) */
	struct sol_move moves[SOLITAIRE_MAX_CELLS][SOL_MAX_MOVES];
};

static int
sol_bit(const struct sol_mask *m, int i)
{
	return (int)((m->w[i >> 6] >> (i & 63)) & 1);
}

static void
sol_flip(struct sol_mask *m, int i)
{
	m->w[i >> 6] ^= (uint64_t)1 << (i & 63);
}

static int
sol_none(struct sol_mask a)
{
	return (a.w[0] | a.w[1]) == 0;
}

static int
sol_same(struct sol_mask a, struct sol_mask b)
{
	return a.w[0] == b.w[0] && a.w[1] == b.w[1];
}

static int
sol_count(struct sol_mask a)
{
	return __builtin_popcountll(a.w[0]) + __builtin_popcountll(a.w[1]);
}

static struct sol_mask
sol_and(struct sol_mask a, struct sol_mask b)
{
	a.w[0] &= b.w[0];
	a.w[1] &= b.w[1];
	return a;
}

static struct sol_mask
sol_or(struct sol_mask a, struct sol_mask b)
{
	a.w[0] |= b.w[0];
	a.w[1] |= b.w[1];
	return a;
}

/* a without the cells of b */
static struct sol_mask
sol_minus(struct sol_mask a, struct sol_mask b)
{
	a.w[0] &= ~b.w[0];
	a.w[1] &= ~b.w[1];
	return a;
}

/* Bit i of the result is bit i + k of a (0 < |k| < 64). */
static struct sol_mask
sol_pull(struct sol_mask a, int k)
{
	struct sol_mask r;

	if (k > 0) {
		r.w[0] = a.w[0] >> k | a.w[1] << (64 - k);
		r.w[1] = a.w[1] >> k;
	} else {
		k = -k;
		r.w[1] = a.w[1] << k | a.w[0] >> (64 - k);
		r.w[0] = a.w[0] << k;
	}
	return r;
}

/* The lowest cell of a non-empty set, taken out of it. */
static int
sol_take(struct sol_mask *m)
{
	int i;

	if (m->w[0] != 0) {
		i = __builtin_ctzll(m->w[0]);
		m->w[0] &= m->w[0] - 1;
		return i;
	}
	i = 64 + __builtin_ctzll(m->w[1]);
	m->w[1] &= m->w[1] - 1;
	return i;
}

static size_t
sol_hash(const struct sol_mask *m)
{
	return (size_t)rules_mix64(m->w[0] ^ rules_mix64(m->w[1]));
}

static int
sol_table_init(struct sol_table *t, int bits, int wide)
{
	t->slot = calloc((size_t)wide << bits, sizeof *t->slot);
	t->size = t->slot != NULL ? (size_t)1 << bits : 0;
	t->used = 0;
	t->bits = bits;
	t->wide = wide;
	return t->slot != NULL ? 0 : -1;
}

static int
sol_slot_free(const struct sol_table *t, size_t i)
{
	return t->slot[i * t->wide] == 0 &&
	    (t->wide == 1 || t->slot[i * t->wide + 1] == 0);
}

static int
sol_slot_is(const struct sol_table *t, size_t i, const struct sol_mask *m)
{
	return t->slot[i * t->wide] == m->w[0] &&
	    (t->wide == 1 || t->slot[i * t->wide + 1] == m->w[1]);
}

static void
sol_slot_set(struct sol_table *t, size_t i, const struct sol_mask *m)
{
	t->slot[i * t->wide] = m->w[0];
	if (t->wide == 2)
		t->slot[i * t->wide + 1] = m->w[1];
}

static int
sol_table_has(const struct sol_table *t, const struct sol_mask *m, size_t hash)
{
	size_t i;

	if (t->size == 0)
		return 0;
	for (i = hash & (t->size - 1); !sol_slot_free(t, i);
	     i = (i + 1) & (t->size - 1))
		if (sol_slot_is(t, i, m))
			return 1;
	return 0;
}

/* Put m in a free slot, given that it is not there yet. */
static void
sol_table_put(struct sol_table *t, const struct sol_mask *m, size_t hash)
{
	size_t i = hash & (t->size - 1);

	while (!sol_slot_free(t, i))
		i = (i + 1) & (t->size - 1);
	sol_slot_set(t, i, m);
	t->used++;
}

/* Double the table; on failure keep the old one. */
static void
sol_table_grow(struct sol_table *t)
{
	struct sol_table bigger;
	struct sol_mask m = {{0, 0}};
	size_t i;

	if (sol_table_init(&bigger, t->bits + 1, t->wide) != 0)
		return;
	for (i = 0; i < t->size; i++) {
		if (sol_slot_free(t, i))
			continue;
		m.w[0] = t->slot[i * t->wide];
		m.w[1] = t->wide == 2 ? t->slot[i * t->wide + 1] : 0;
		sol_table_put(&bigger, &m, sol_hash(&m));
	}
	free(t->slot);
	*t = bigger;
}

/* Remember a lost position. When the table is full at its largest, the
 * position takes the slot of another one, which is merely forgotten (no
 * slot is ever freed, so the others stay found). */
static void
sol_table_add(struct sol_table *t, const struct sol_mask *m, size_t hash)
{
	if (t->size == 0)
		return;
	if (2 * t->used >= t->size &&
	    ((sizeof *t->slot * (size_t)t->wide) << (t->bits + 1)) <=
	        SOL_TABLE_BYTES)
		sol_table_grow(t);
	if (4 * t->used >= 3 * t->size) {
		sol_slot_set(t, hash & (t->size - 1), m);
		return;
	}
	sol_table_put(t, m, hash);
}

/* The cells from which a peg can jump in direction d, given the cells
 * that hold pegs and those that are free. */
static struct sol_mask
sol_movers(const struct sol_search *s, int d, struct sol_mask pegs,
    struct sol_mask free)
{
	int k = s->off[d];

	return sol_and(sol_and(pegs, s->from[d]),
	    sol_and(sol_pull(pegs, k), sol_pull(free, 2 * k)));
}

/*
 * A quick over-estimate of everything that can still happen: the cells
 * that may ever hold a peg and those that may ever be emptied, grown
 * together by every jump they allow until nothing changes. A peg on a
 * cell that can never be emptied stays for good, so the position is lost
 * when such a peg is off the goal, or when no peg can ever reach the goal.
 */
static int
sol_hopeless(const struct sol_search *s, struct sol_mask pegs)
{
	struct sol_mask canpeg = pegs, canfree = sol_minus(s->usable, pegs);
	struct sol_mask m, peg0, free0;
	int d, k;

	do {
		peg0 = canpeg;
		free0 = canfree;
		for (d = 0; d < 4; d++) {
			m = sol_movers(s, d, canpeg, canfree);
			if (sol_none(m))
				continue;
			k = s->off[d];
			canfree = sol_or(canfree, sol_or(m, sol_pull(m, -k)));
			canpeg = sol_or(canpeg, sol_pull(m, -2 * k));
		}
	} while (!sol_same(peg0, canpeg) || !sol_same(free0, canfree));
	m = sol_minus(pegs, canfree);
	if (sol_bit(&m, s->goal))
		sol_flip(&m, s->goal);
	return !sol_none(m) || !sol_bit(&canpeg, s->goal);
}

/* The board's masks and distances. */
static void
sol_setup(struct sol_search *s, const struct solitaire_state *st)
{
	static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
	int r, c, d, i, gr = st->goal / st->cols, gc = st->goal % st->cols;

	memset(s, 0, offsetof(struct sol_search, moves));
	s->goal = st->goal;
	for (d = 0; d < 4; d++)
		s->off[d] = dr[d] * st->cols + dc[d];
	for (r = 0; r < st->rows; r++) {
		for (c = 0; c < st->cols; c++) {
			i = r * st->cols + c;
			s->dist[i] = abs(r - gr) + abs(c - gc);
			for (d = 0; d < 4; d++)
				if (r + dr[d] >= 0 && r + dr[d] < st->rows &&
				    c + dc[d] >= 0 && c + dc[d] < st->cols)
					sol_flip(&s->side[d], i);
			if (st->cell[i] == SOLITAIRE_OFF)
				continue;
			sol_flip(&s->usable, i);
			for (d = 0; d < 4; d++) {
				if (r + 2 * dr[d] < 0 ||
				    r + 2 * dr[d] >= st->rows ||
				    c + 2 * dc[d] < 0 ||
				    c + 2 * dc[d] >= st->cols ||
				    st->cell[i + s->off[d]] == SOLITAIRE_OFF ||
				    st->cell[i + 2 * s->off[d]] ==
				        SOLITAIRE_OFF)
					continue;
				sol_flip(&s->from[d], i);
			}
		}
	}
}

/*
 * The position class: colour cell (r, c) by (r + c) mod 3 and, apart, by
 * (r - c) mod 3. A jump covers three cells of three different colours in
 * each colouring, so it changes every colour's peg count by one and flips
 * all their parities: whether two colours' counts have the same parity
 * never changes. A position whose class differs from the class of one peg
 * on the goal can never be won (the European board from its centre).
 */
static int
sol_class(const struct solitaire_state *st, const struct sol_mask *pegs)
{
	int n[2][3] = {{0, 0, 0}, {0, 0, 0}}, i, r, c;

	for (i = 0; i < st->rows * st->cols; i++) {
		if (!sol_bit(pegs, i))
			continue;
		r = i / st->cols;
		c = i % st->cols;
		n[0][(r + c) % 3]++;
		n[1][(r - c + 3 * SOLITAIRE_MAX_SIDE) % 3]++;
	}
	return ((n[0][0] + n[0][1]) & 1) | ((n[0][1] + n[0][2]) & 1) << 1 |
	    ((n[1][0] + n[1][1]) & 1) << 2 | ((n[1][1] + n[1][2]) & 1) << 3;
}

/* Jump from cell i in direction d (and back again: it is its own undo). */
static void
sol_jump(const struct sol_search *s, struct sol_mask *p, int i, int d)
{
	sol_flip(p, i);
	sol_flip(p, i + s->off[d]);
	sol_flip(p, i + 2 * s->off[d]);
}

/* The rank of jump (i, d) in position p: lone pegs it leaves, how far in
 * it brings the pegs, and in a restart some noise. */
static uint32_t
sol_rank(
    const struct sol_search *s, struct sol_mask p, int i, int d, size_t hash)
{
	struct sol_mask near = {{0, 0}};
	int k = s->off[d], e, score;
	uint32_t noise = 0;

	sol_jump(s, &p, i, d);
	for (e = 0; e < 4; e++)
		near =
		    sol_or(near, sol_and(sol_pull(p, s->off[e]), s->side[e]));
	score = SOL_LONE_WEIGHT * sol_count(sol_minus(p, near)) +
	    s->dist[i + 2 * k] - s->dist[i] - s->dist[i + k];
	if (s->shake != 0)
		noise = (uint32_t)(rules_mix64(hash ^ s->shake ^
		                       (uint64_t)(4 * i + d)) %
		    (SOL_NOISE * SOL_SCORE_UNIT));
	return (uint32_t)(score + SOL_SCORE_BIAS) * SOL_SCORE_UNIT + noise;
}

/* The jumps of position p, best first (ties: cell by cell, each cell's in
 * the order up, down, left, right). */
static int
sol_moves(const struct sol_search *s, const struct sol_mask *p, size_t hash,
    struct sol_move *mv)
{
	struct sol_mask m[4], all = {{0, 0}}, free = sol_minus(s->usable, *p);
	struct sol_move t;
	int d, i, j, n = 0;

	for (d = 0; d < 4; d++) {
		m[d] = sol_movers(s, d, *p, free);
		all = sol_or(all, m[d]);
	}
	while (!sol_none(all)) {
		i = sol_take(&all);
		for (d = 0; d < 4; d++) {
			if (!sol_bit(&m[d], i))
				continue;
			mv[n].cell = (uint8_t)i;
			mv[n].dir = (uint8_t)d;
			mv[n].key = sol_rank(s, *p, i, d, hash);
			for (j = n; j > 0 && mv[j - 1].key > mv[j].key; j--) {
				t = mv[j];
				mv[j] = mv[j - 1];
				mv[j - 1] = t;
			}
			n++;
		}
	}
	return n;
}

/* Whether peg set p of a table's board is in the table. */
static int
sol_table_wins(const struct ai_soltab *t, const struct sol_mask *p)
{
	uint64_t key = 0;
	int k;

	for (k = 0; k < t->board.ncells; k++)
		if (sol_bit(p, t->board.cell[k]))
			key |= (uint64_t)1 << k;
	return ai_soltab_has(t, key);
}

/* Can the position be won? 1 yes, 0 no, -1 when this run's nodes ran out.
 * At the root (hint not NULL) the first jump found that wins goes there. */
static int
sol_dfs(struct sol_search *s, struct sol_mask *p, int npegs,
    struct rules_move *hint)
{
	struct sol_move *mv = s->moves[npegs - 1];
	size_t hash;
	int d, i, j, n, res;

	if (npegs == 1)
		return sol_bit(p, s->goal);
	if (++s->nodes > s->stop)
		return -1;
	if (s->tab != NULL && npegs >= s->tab->minpegs && hint == NULL)
		return sol_table_wins(s->tab, p);
	if ((s->nodes & (AI_CANCEL_EVERY - 1)) == 0 && ai_cancelled(s->cancel))
		return -1;
	hash = sol_hash(p);
	if (sol_table_has(&s->lost, p, hash) || sol_hopeless(s, *p))
		return 0;
	n = sol_moves(s, p, hash, mv);
	for (j = 0; j < n; j++) {
		i = mv[j].cell;
		d = mv[j].dir;
		sol_jump(s, p, i, d);
		res = sol_dfs(s, p, npegs - 1, NULL);
		sol_jump(s, p, i, d);
		if (res > 0 && hint != NULL) {
			hint->from = (int16_t)i;
			hint->to = (int16_t)(i + 2 * s->off[d]);
		}
		if (res != 0)
			return res;
	}
	sol_table_add(&s->lost, p, hash);
	return 0;
}

/* The Luby sequence 1 1 2 1 1 2 4 1 1 2 ... (i from 1): the restart
 * lengths that waste the least on searches whose time varies wildly. */
static long
sol_luby(long i)
{
	long k;

	for (;;) {
		for (k = 1; (1L << k) - 1 < i; k++)
			;
		if (i == (1L << k) - 1)
			return 1L << (k - 1);
		i -= (1L << (k - 1)) - 1;
	}
}

/* Search in runs of growing length until one gives the answer or the
 * node limit (0: none) is spent. */
static int
sol_restarts(struct sol_search *s, struct sol_mask *p, int npegs, long limit,
    struct rules_move *hint)
{
	long run;
	int res;

	for (run = 1;; run++) {
		s->shake = run == 1 ? 0 : rules_mix64((uint64_t)run) | 1;
		s->stop = s->nodes + SOL_RUN_NODES * sol_luby(run);
		if (limit > 0 && s->stop > limit)
			s->stop = limit;
		res = sol_dfs(s, p, npegs, hint);
		if (res >= 0 || (limit > 0 && s->nodes >= limit) ||
		    ai_cancelled(s->cancel))
			return res;
	}
}

/* Search peg set p of board b (npegs pegs, at least 2), with the answers
 * of table tab (NULL: none) for positions of many pegs: 1 winnable (and
 * *hint a jump that keeps it so), 0 lost, -1 unknown. */
static int
sol_search_from(const struct solitaire_state *b, struct sol_mask *p, int npegs,
    const struct ai_soltab *tab, long node_limit, const atomic_int *cancel,
    struct rules_move *hint)
{
	struct sol_search *s = malloc(sizeof *s);
	int res;

	if (s == NULL)
		return -1;
	sol_setup(s, b);
	s->cancel = cancel;
	s->tab = tab;
	sol_table_init(
	    &s->lost, SOL_TABLE_MIN_BITS, b->rows * b->cols > 64 ? 2 : 1);
	res = sol_restarts(s, p, npegs, node_limit, hint);
	free(s->lost.slot);
	free(s);
	return res;
}

/* Whether pegs, a position of board b that is not in its table tab, can
 * be reached from the start: then it is lost (1), else its table does not
 * apply (0). */
static int
sol_reachable(const struct solitaire_state *b, const struct sol_mask *pegs,
    const struct ai_soltab *tab, long node_limit, const atomic_int *cancel)
{
	struct sol_mask comp = {{0, 0}}, goal = {{0, 0}};
	struct rules_move unused;
	int k;

	for (k = 0; k < tab->board.ncells; k++)
		if (!sol_bit(pegs, tab->board.cell[k]))
			sol_flip(&comp, tab->board.cell[k]);
	if (sol_count(comp) <= 1) /* the full board's is empty */
		return sol_count(comp) == 1 && sol_bit(&comp, b->goal);
	sol_flip(&goal, b->goal);
	if (sol_class(b, &comp) != sol_class(b, &goal))
		return 0;
	return sol_search_from(b, &comp, sol_count(comp), NULL, node_limit,
	           cancel, &unused) == 1;
}

/* The verdict on position st, with its board's table when tables is set
 * and the board ships one. */
static enum ai_verdict
sol_solve(const void *st, long node_limit, const atomic_int *cancel,
    struct rules_move *hint, int tables)
{
	const struct solitaire_state *b = st;
	struct sol_mask pegs = {{0, 0}}, goal = {{0, 0}};
	struct ai_soltab tab;
	const struct ai_soltab *use = NULL;
	int i, res;

	hint->from = hint->to = hint->arg = RULES_NONE;
	for (i = 0; i < b->rows * b->cols; i++)
		if (b->cell[i] == SOLITAIRE_PEG)
			sol_flip(&pegs, i);
	if (b->pegs == 1 && b->cell[b->goal] == SOLITAIRE_PEG)
		return AI_WINNABLE;
	sol_flip(&goal, b->goal);
	if (b->pegs < 2 || sol_class(b, &pegs) != sol_class(b, &goal))
		return AI_LOST;
	if (tables && ai_soltab_find(b, &tab) && b->pegs >= tab.minpegs) {
		if (sol_table_wins(&tab, &pegs))
			use = &tab;
		else if (sol_reachable(b, &pegs, &tab, node_limit, cancel))
			return AI_LOST;
	}
	res = sol_search_from(b, &pegs, b->pegs, use, node_limit, cancel, hint);
	if (res < 0)
		return AI_UNKNOWN;
	return res > 0 ? AI_WINNABLE : AI_LOST;
}

enum ai_verdict
ai_solitaire_solve(const void *st, long node_limit, const atomic_int *cancel,
    struct rules_move *hint)
{
	return sol_solve(st, node_limit, cancel, hint, 1);
}

enum ai_verdict
ai_solitaire_search(const void *st, long node_limit, const atomic_int *cancel,
    struct rules_move *hint)
{
	return sol_solve(st, node_limit, cancel, hint, 0);
}
