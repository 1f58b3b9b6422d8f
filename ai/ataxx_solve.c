/*
 * ataxx_solve.c: Ataxx endings solved exactly. Whether the side to move
 * can force the game to end within a number of plies with at least a given
 * lead: an AND/OR search on the bitboards of rules/ataxx.h, deepened one
 * ply at a time, with a table of what is proven.
 *
 * A jump does not fill a square and the game has no repetition rule, so
 * its positions form cycles and "who wins" need not be decided by any
 * finite search. The question asked here is finite: "can the side to move
 * force the end within d plies?". Its answer depends on the position and
 * d alone, never on the path that led there (nothing is cut for repeating
 * a position), so the table may keep it: the fewest plies a position is
 * known won in, the most it is known not won in. A yes is a proof: every
 * line the other side can choose ends within d plies, with the lead.
 * Played by the shortest proven line, a won ending cannot cycle: after
 * the two moves of a turn the winner's next proof is at least two plies
 * shorter (docs/ENGINES.md).
 */
#include <stdlib.h>

#include "ai/ai.h"
#include "rules/ataxx.h"

/* The moves of one position with at most AI_ATAXX_SOLVE_EMPTY empty
 * squares: a clone and up to 16 jumps into each. */
#define AXS_MOVES_MAX (17 * AI_ATAXX_SOLVE_EMPTY)

/* The longest line searched (plies), whatever the caller asks: bounds
 * the recursion and the move lists kept per ply. */
#define AXS_PLIES_MAX 64

/* Table entries (a power of two), 16 bytes each: 4 MiB. */
#define AXS_TT_SIZE (1u << 18)

/* The clock and the node limit are looked at once in this many nodes (a
 * power of two). */
#define AXS_CLOCK_EVERY 4096

/* "Not known won in any number of plies" in an entry's `won`. */
#define AXS_NEVER 127

/* Moves packed as in the engine: (from + 1) << 7 | to, from -1 a clone. */
#define AXS_MOVE(from, to) ((uint16_t)(((from) + 1) << 7 | (to)))
#define AXS_FROM(m) ((int)((m) >> 7) - 1)
#define AXS_TO(m) ((int)((m)&0x7f))
#define AXS_NOMOVE 0xffff

struct axs_tt {
	uint64_t key;
	uint16_t move; /* the move that proved or refuted it */
	int8_t won;    /* the fewest plies it is known won in (AXS_NEVER) */
	int8_t open;   /* the most plies it is known not won in (-1) */
};

/* A position: `own` to move, its seat, its key. */
struct axs_pos {
	ataxx_bb own, opp, empty;
	uint64_t key;
	int side;
};

/* One solve: the question, its limits, its tables. */
struct axs {
	uint64_t zob[2][ATAXX_CELLS];
	uint64_t zturn;
	struct axs_tt *tt;
	uint16_t moves[AXS_PLIES_MAX][AXS_MOVES_MAX];
	int seat;    /* the side that must force the end */
	int lead;    /* the lead it must end with */
	int gapless; /* every square of the board is playable */
	long nodes, node_limit;
	uint64_t deadline;
	const atomic_int *cancel;
	int stop;
	uint16_t best; /* the root move of the last proof */
};

/* Whether a piece of `side` is one or two squares from an empty one (a
 * loop over the few empty squares, not over the pieces). */
static inline int
axs_mobile(ataxx_bb side, ataxx_bb empty)
{
	for (; empty != 0; empty &= empty - 1) {
		int sq = ataxx_lsb(empty);

		if ((ataxx_adj[sq] | ataxx_jump[sq]) & side)
			return 1;
	}
	return 0;
}

/* Whether the game is over: a side without pieces, a full board, or
 * neither side able to move (only with gaps: on a whole board some empty
 * square is next to a piece). */
static inline int
axs_over(const struct axs *s, const struct axs_pos *p)
{
	return p->own == 0 || p->opp == 0 || p->empty == 0 ||
	    (!s->gapless && !axs_mobile(p->own | p->opp, p->empty));
}

/* Whether a finished game meets the solver's side's lead. */
static inline int
axs_met(const struct axs *s, const struct axs_pos *p)
{
	int lead = ataxx_pop(p->own) - ataxx_pop(p->opp);

	return (p->side == s->seat ? lead : -lead) >= s->lead;
}

/* Whether the game can end at all within d plies (a necessary
 * condition): each ply fills at most one square, and a side loses at
 * most 8 pieces to each move of the other. A board with gaps can also
 * end with empty squares nobody reaches: no bound there. */
static inline int
axs_can_end(const struct axs *s, const struct axs_pos *p, int d)
{
	if (!s->gapless || ataxx_pop(p->empty) <= d)
		return 1;
	return ataxx_pop(p->own) <= 8 * (d / 2) ||
	    ataxx_pop(p->opp) <= 8 * ((d + 1) / 2);
}

/* The position after move m of p's side (a pass when m is AXS_NOMOVE). */
static inline void
axs_play(
    const struct axs *s, const struct axs_pos *p, uint16_t m, struct axs_pos *q)
{
	int from, to;
	ataxx_bb cap, own;
	uint64_t k = p->key ^ s->zturn;

	q->side = !p->side;
	if (m == AXS_NOMOVE) {
		q->own = p->opp;
		q->opp = p->own;
		q->empty = p->empty;
		q->key = k;
		return;
	}
	from = AXS_FROM(m);
	to = AXS_TO(m);
	cap = ataxx_adj[to] & p->opp;
	own = p->own | cap | (ataxx_bb)1 << to;
	q->empty = p->empty & ~((ataxx_bb)1 << to);
	k ^= s->zob[p->side][to];
	if (from >= 0) {
		own &= ~((ataxx_bb)1 << from);
		q->empty |= (ataxx_bb)1 << from;
		k ^= s->zob[p->side][from];
	}
	for (; cap != 0; cap &= cap - 1) {
		int sq = ataxx_lsb(cap);

		k ^= s->zob[0][sq] ^ s->zob[1][sq];
	}
	q->own = p->opp & ~own;
	q->opp = own;
	q->key = k;
}

/* The moves of p's side, `first` first, then the most pieces infected
 * first; of equal ones, the solver's side tries clones first (each fills
 * a square, towards the end) and the other side jumps (which fill
 * nothing: the end may not come within the plies left); the count. */
static int
axs_gen(const struct axs_pos *p, int mine, uint16_t first, uint16_t *mv)
{
	int8_t rank[AXS_MOVES_MAX];
	ataxx_bb b, t;
	int n = 0, i, j;

	/* by destination: there are few empty squares, many pieces */
	for (b = p->empty; b != 0; b &= b - 1) {
		int to = ataxx_lsb(b);

		if (ataxx_adj[to] & p->own)
			mv[n++] = AXS_MOVE(-1, to);
		for (t = ataxx_jump[to] & p->own; t != 0; t &= t - 1)
			mv[n++] = AXS_MOVE(ataxx_lsb(t), to);
	}
	for (i = 0; i < n; i++)
		rank[i] = (int8_t)(mv[i] == first
		        ? 64
		        : 2 * ataxx_pop(ataxx_adj[AXS_TO(mv[i])] & p->opp) +
		            ((AXS_FROM(mv[i]) < 0) == mine));
	/* insertion sort, best first: a few dozen moves */
	for (i = 1; i < n; i++) {
		uint16_t m = mv[i];
		int8_t r = rank[i];

		for (j = i; j > 0 && rank[j - 1] < r; j--) {
			mv[j] = mv[j - 1];
			rank[j] = rank[j - 1];
		}
		mv[j] = m;
		rank[j] = r;
	}
	return n;
}

/* Remember what d plies proved about p (won: 1 or 0) and the move. */
static void
axs_store(struct axs *s, const struct axs_pos *p, int d, int won, uint16_t m)
{
	struct axs_tt *e = &s->tt[p->key & (AXS_TT_SIZE - 1)];

	if (e->key != p->key) {
		e->key = p->key;
		e->won = AXS_NEVER;
		e->open = -1;
	}
	if (won && d < e->won)
		e->won = (int8_t)d;
	if (!won && d > e->open)
		e->open = (int8_t)d;
	e->move = m;
}

/* Whether the search must stop: node limit, deadline or cancel. */
static int
axs_stopped(struct axs *s)
{
	if ((s->nodes & (AXS_CLOCK_EVERY - 1)) == 0 && !s->stop &&
	    ((s->node_limit > 0 && s->nodes >= s->node_limit) ||
	        (s->deadline > 0 && ai_out_of_time(s->deadline, s->cancel)) ||
	        ai_cancelled(s->cancel)))
		s->stop = 1;
	return s->stop;
}

/* Whether the solver's side can force the end of the game from p within
 * d plies with its lead (0 too when stopped: look at s->stop). */
static int
axs_prove(struct axs *s, const struct axs_pos *p, int d, int ply)
{
	uint16_t *mv = s->moves[ply], first = AXS_NOMOVE;
	struct axs_tt *e = &s->tt[p->key & (AXS_TT_SIZE - 1)];
	int mine = p->side == s->seat, n, i;

	s->nodes++;
	if (axs_over(s, p))
		return axs_met(s, p);
	if (d == 0 || ply >= AXS_PLIES_MAX - 1 || axs_stopped(s) ||
	    !axs_can_end(s, p, d))
		return 0;
	if (e->key == p->key) {
		if (e->won <= d)
			return 1;
		if (e->open >= d)
			return 0;
		first = e->move;
	}
	n = axs_gen(p, mine, first, mv);
	if (n == 0) {
		struct axs_pos q;
		int r;

		axs_play(s, p, AXS_NOMOVE, &q);
		r = axs_prove(s, &q, d - 1, ply + 1);
		if (!s->stop)
			axs_store(s, p, d, r, AXS_NOMOVE);
		return r;
	}
	for (i = 0; i < n; i++) {
		struct axs_pos q;
		int r;

		axs_play(s, p, mv[i], &q);
		r = axs_prove(s, &q, d - 1, ply + 1);
		if (s->stop)
			return 0;
		/* one move proves it for the solver's side; one refutes it
		 * for the other side */
		if (r == mine) {
			if (ply == 0)
				s->best = mv[i];
			axs_store(s, p, d, r, mv[i]);
			return r;
		}
	}
	axs_store(s, p, d, !mine, mv[0]);
	return !mine;
}

/* The interface's square of a grid bit. */
static int16_t
axs_square(const struct ataxx_state *st, int bit)
{
	return (int16_t)(bit / ATAXX_STRIDE * st->size + bit % ATAXX_STRIDE);
}

/* A fresh solve for pf's question from st, or NULL when out of memory. */
static struct axs *
axs_new(const struct ataxx_state *st, const struct ai_ataxx_proof *pf)
{
	struct axs *s = calloc(1, sizeof *s);
	struct rules_rng rng;
	int c, i;

	if (s == NULL)
		return NULL;
	if ((s->tt = calloc(AXS_TT_SIZE, sizeof *s->tt)) == NULL) {
		free(s);
		return NULL;
	}
	rules_rng_seed(&rng, 0x534f4c56u); /* fixed: keys are per solve */
	for (c = 0; c < 2; c++)
		for (i = 0; i < ATAXX_CELLS; i++)
			s->zob[c][i] = rules_rng_next(&rng);
	s->zturn = rules_rng_next(&rng);
	s->seat = st->turn;
	s->lead = pf->lead;
	s->gapless = ataxx_get(st->gap) == 0;
	s->node_limit = pf->node_limit;
	s->deadline = pf->deadline;
	s->cancel = pf->cancel;
	return s;
}

int
ai_ataxx_solve(const void *state, struct ai_ataxx_proof *pf)
{
	const struct ataxx_state *st = state;
	ataxx_bb w = ataxx_get(st->piece[0]), b = ataxx_get(st->piece[1]);
	struct axs_pos p;
	struct axs *s;
	int d, r = 0, most;

	pf->move.from = pf->move.to = pf->move.arg = RULES_NONE;
	pf->length = 0;
	pf->nodes = 0;
	p.side = st->turn;
	p.own = st->turn ? b : w;
	p.opp = st->turn ? w : b;
	p.empty = ataxx_board(st->size) & ~(w | b | ataxx_get(st->gap));
	if (ataxx_pop(p.empty) > AI_ATAXX_SOLVE_EMPTY)
		return -1;
	if ((s = axs_new(st, pf)) == NULL)
		return -1;
	p.key = st->turn ? s->zturn : 0;
	for (; w != 0; w &= w - 1)
		p.key ^= s->zob[0][ataxx_lsb(w)];
	for (b = ataxx_get(st->piece[1]); b != 0; b &= b - 1)
		p.key ^= s->zob[1][ataxx_lsb(b)];
	if (axs_over(s, &p)) {
		r = axs_met(s, &p);
		free(s->tt);
		free(s);
		return r;
	}
	most = pf->plies < AXS_PLIES_MAX - 1 ? pf->plies : AXS_PLIES_MAX - 1;
	for (d = 1; d <= most && r == 0; d++) {
		s->best = AXS_NOMOVE;
		r = axs_prove(s, &p, d, 0);
		if (s->stop)
			r = -1;
		else if (r)
			pf->length = d;
	}
	if (r == 1 && s->best != AXS_NOMOVE) {
		pf->move.from = AXS_FROM(s->best) < 0
		    ? RULES_NONE
		    : axs_square(st, AXS_FROM(s->best));
		pf->move.to = axs_square(st, AXS_TO(s->best));
	}
	pf->nodes = s->nodes;
	free(s->tt);
	free(s);
	return r;
}
