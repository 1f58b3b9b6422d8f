/*
 * pairing.c: a tournament's pure arithmetic (pairing.h): the circle method
 * for round robins, Swiss pairing by the basic rules of the FIDE Dutch
 * system (score groups, top half against bottom half, floaters down,
 * colour preferences; docs/RULES.md says what of it is left out), with
 * the older search by score kept as its last resort, byes, and the
 * standings with their tie-breaks. No I/O.
 */
#include <stdlib.h>
#include <string.h>

#include "server/club/pairing.h"

int
pairing_rr_rounds(int n)
{
	if (n < 2)
		return 0;
	return n % 2 == 0 ? n - 1 : n;
}

/*
 * Berger's circle: with N even (a dummy added for an odd n, whose partner
 * has the bye), player N-1 stays put and the others turn; in round r it
 * meets r, and the others pair as (r+i, r-i) mod N-1, so every pair meets
 * exactly once. The fixed player takes white in even rounds, and each other
 * pair's first player in odd boards: nobody's whites and blacks differ by
 * more than one.
 */
int
pairing_rr_round(int n, int round, struct pairing_game *out)
{
	int N = n % 2 == 0 ? n : n + 1, m = N - 1, i, a, b, k = 0;

	if (n < 2 || round < 0 || round >= m)
		return 0;
	for (i = 0; i < N / 2; i++) {
		if (i == 0) {
			a = round;
			b = m;
		} else {
			a = (round + i) % m;
			b = (round - i + m) % m;
		}
		if (i == 0 ? round % 2 != 0 : i % 2 == 0) {
			int t = a;

			a = b;
			b = t;
		}
		/* The dummy's partner has the bye. */
		if (a >= n || b >= n) {
			out[k].white = a >= n ? b : a;
			out[k].black = -1;
		} else {
			out[k].white = a;
			out[k].black = b;
		}
		out[k].res = PAIRING_NONE;
		k++;
	}
	return k;
}

/* What the past games say of each player, for both pairings. */
struct pairing_past {
	int halves[PAIRING_PLAYERS_MAX]; /* points, in halves */
	int cdiff[PAIRING_PLAYERS_MAX];  /* whites minus blacks */
	int col[PAIRING_PLAYERS_MAX][2]; /* last colour, the one before:
	                                    1 white, -1 black, 0 none */
	int bye[PAIRING_PLAYERS_MAX];
	unsigned char met[PAIRING_PLAYERS_MAX][PAIRING_PLAYERS_MAX];
};

/* What the Swiss pairing knows of each player from the past games. */
struct pairing_swiss_state {
	int n;
	struct pairing_past h;
	int order[PAIRING_PLAYERS_MAX]; /* by score, then seeding */
	int pair[PAIRING_PLAYERS_MAX];  /* partner found, -1 none */
	long steps;
	int colours_free; /* may pair two who both need one colour */
	int repeats_ok;
};

/* Points in halves a game gives white (who 0) or black (1). */
static int
pairing_halves(const struct pairing_game *g, int who)
{
	switch (g->res) {
	case PAIRING_WHITE:
		return who == 0 ? 2 : 0;
	case PAIRING_BLACK:
		return who == 1 ? 2 : 0;
	case PAIRING_DRAW:
		return 1;
	default:
		return 0;
	}
}

/* The scores (in halves, by seed) pairing_by_score sorts by, set only
 * around a qsort. */
static const int *pairing_sort_halves;

/* qsort of seeds: higher score first, then the seeding. */
static int
pairing_by_score(const void *x, const void *y)
{
	const int *h = pairing_sort_halves;
	int a = *(const int *)x, b = *(const int *)y;

	if (h[a] != h[b])
		return h[b] - h[a];
	return a - b;
}

/* Sort n seeds in order by the scores halves, then the seeding. */
static void
pairing_sort_by_score(int *order, int n, const int *halves)
{
	pairing_sort_halves = halves;
	qsort(order, (size_t)n, sizeof order[0], pairing_by_score);
	pairing_sort_halves = NULL;
}

/* Gather scores, colours, byes and who met whom from the past games of
 * n players into h. */
static void
pairing_past_read(
    struct pairing_past *h, int n, const struct pairing_game *past, int npast)
{
	int i, side;

	memset(h, 0, sizeof *h);
	for (i = 0; i < npast; i++) {
		const struct pairing_game *g = &past[i];

		if (g->white < 0 || g->white >= n)
			continue;
		if (g->black < 0) {
			h->bye[g->white] = 1;
			h->halves[g->white] += 2;
			continue;
		}
		if (g->black >= n)
			continue;
		for (side = 0; side < 2; side++) {
			int me = side == 0 ? g->white : g->black;

			h->halves[me] += pairing_halves(g, side);
			h->cdiff[me] += side == 0 ? 1 : -1;
			h->col[me][1] = h->col[me][0];
			h->col[me][0] = side == 0 ? 1 : -1;
		}
		h->met[g->white][g->black] = h->met[g->black][g->white] = 1;
	}
}

/* The Swiss pairing's start: the past games, everyone unpaired, in
 * order of score. */
static void
pairing_swiss_init(struct pairing_swiss_state *s, int n,
    const struct pairing_game *past, int npast)
{
	int i;

	memset(s, 0, sizeof *s);
	s->n = n;
	pairing_past_read(&s->h, n, past, npast);
	for (i = 0; i < n; i++) {
		s->order[i] = i;
		s->pair[i] = -1;
	}
	pairing_sort_by_score(s->order, n, s->h.halves);
}

/* 1 when p and q both had two whites more than blacks (or two blacks
 * more): whoever took the colour they both had would have three. */
static int
pairing_same_need(const struct pairing_swiss_state *s, int p, int q)
{
	return (s->h.cdiff[p] >= 2 && s->h.cdiff[q] >= 2) ||
	    (s->h.cdiff[p] <= -2 && s->h.cdiff[q] <= -2);
}

/* Pair the players of order[] not yet paired (skip: the bye), the first
 * free one with the highest-placed free one it may meet, backtracking
 * when the rest cannot be paired. 1 when everyone is paired. */
static int
pairing_swiss_search(struct pairing_swiss_state *s, int skip)
{
	int i, j, p = -1, q;

	for (i = 0; i < s->n; i++) {
		q = s->order[i];
		if (q != skip && s->pair[q] < 0) {
			p = q;
			break;
		}
	}
	if (p < 0)
		return 1;
	for (j = i + 1; j < s->n; j++) {
		q = s->order[j];
		if (q == skip || s->pair[q] >= 0 ||
		    (s->h.met[p][q] && !s->repeats_ok) ||
		    (!s->colours_free && pairing_same_need(s, p, q)))
			continue;
		if (++s->steps > PAIRING_SEARCH_MAX && !s->repeats_ok)
			return 0;
		s->pair[p] = q;
		s->pair[q] = p;
		if (pairing_swiss_search(s, skip))
			return 1;
		s->pair[p] = s->pair[q] = -1;
	}
	return 0;
}

/* Pair everyone, the bye (when n is odd) going to the lowest-placed who
 * had none that leaves a round without repeats; *bye gets it (-1). */
static int
pairing_swiss_try(struct pairing_swiss_state *s, int *bye)
{
	int i, p;

	*bye = -1;
	if (s->n % 2 == 0)
		return pairing_swiss_search(s, -1);
	for (i = s->n - 1; i >= 0; i--) {
		p = s->order[i];
		if (s->h.bye[p] && !s->repeats_ok)
			continue;
		if (pairing_swiss_search(s, p)) {
			*bye = p;
			return 1;
		}
		if (s->steps > PAIRING_SEARCH_MAX && !s->repeats_ok)
			return 0;
	}
	return 0;
}

/* 1 when p (placed above q) takes white against q. */
static int
pairing_white_first(const struct pairing_swiss_state *s, int p, int q)
{
	if (s->h.cdiff[p] != s->h.cdiff[q])
		return s->h.cdiff[p] < s->h.cdiff[q];
	if (s->h.col[p][0] != s->h.col[q][0])
		return s->h.col[p][0] < s->h.col[q][0];
	return 1;
}

/* The search before the Dutch system, kept as the last resort: by score
 * without repeats where it can, else the fewest repeats (and a second
 * bye). */
static int
pairing_swiss_any(int n, const struct pairing_game *past, int npast,
    struct pairing_game *out, int *repeats)
{
	static struct pairing_swiss_state s;
	unsigned char done[PAIRING_PLAYERS_MAX] = {0};
	int i, p, q, bye, attempt, k = 0;

	*repeats = 0;
	if (n < 2 || n > PAIRING_PLAYERS_MAX)
		return 0;
	pairing_swiss_init(&s, n, past, npast);
	/* Without repeats and with colours kept within two; else without
	 * repeats; else repeats allowed (and a second bye). */
	for (attempt = 0; attempt < 3; attempt++) {
		for (i = 0; i < n; i++)
			s.pair[i] = -1;
		s.steps = 0;
		s.colours_free = attempt >= 1;
		s.repeats_ok = attempt >= 2;
		if (pairing_swiss_try(&s, &bye))
			break;
	}
	if (attempt == 3)
		return 0;
	*repeats = attempt == 2;
	for (i = 0; i < n; i++) {
		p = s.order[i];
		q = s.pair[p];
		/* each pair once, from its higher-placed player */
		if (q < 0 || p == bye || done[p])
			continue;
		done[p] = done[q] = 1;
		out[k].white = pairing_white_first(&s, p, q) ? p : q;
		out[k].black = out[k].white == p ? q : p;
		out[k].res = PAIRING_NONE;
		k++;
	}
	if (bye >= 0) {
		out[k].white = bye;
		out[k].black = -1;
		out[k].res = PAIRING_WHITE;
		k++;
	}
	return k;
}

const enum pairing_crit pairing_tiebreaks[2][PAIRING_TIEBREAKS_MAX] = {
    [PAIRING_SONNEBORN_BERGER] = {PAIRING_BY_SB, PAIRING_BY_WINS,
        PAIRING_BY_SEED, PAIRING_BY_SEED},
    [PAIRING_BUCHHOLZ] = {PAIRING_BY_BUCHHOLZ, PAIRING_BY_SB, PAIRING_BY_WINS,
        PAIRING_BY_SEED},
};

const char *
pairing_crit_name(enum pairing_crit c)
{
	switch (c) {
	case PAIRING_BY_POINTS:
		return "points";
	case PAIRING_BY_BUCHHOLZ:
		return "Buchholz";
	case PAIRING_BY_SB:
		return "Sonneborn-Berger";
	case PAIRING_BY_WINS:
		return "wins";
	case PAIRING_BY_SEED:
		return "seed";
	case PAIRING_BY_LAST:
		break;
	}
	return "";
}

/* The tie-break order the standings sort by (pairing_standings). */
static const enum pairing_crit *pairing_sort_tb;

/* a's value minus b's on criterion c: above 0 when a is better. */
static int
pairing_crit_diff(const struct pairing_standing *a,
    const struct pairing_standing *b, enum pairing_crit c)
{
	switch (c) {
	case PAIRING_BY_POINTS:
		return a->halves - b->halves;
	case PAIRING_BY_BUCHHOLZ:
		return a->bh_quarters - b->bh_quarters;
	case PAIRING_BY_SB:
		return a->sb_quarters - b->sb_quarters;
	case PAIRING_BY_WINS:
		return a->wins - b->wins;
	case PAIRING_BY_SEED:
		return b->player - a->player;
	case PAIRING_BY_LAST:
		break;
	}
	return 0;
}

/* The first criterion (points, then the tie-breaks in order) on which a
 * and b differ. */
static enum pairing_crit
pairing_crit_first(
    const struct pairing_standing *a, const struct pairing_standing *b)
{
	int i;

	if (pairing_crit_diff(a, b, PAIRING_BY_POINTS) != 0)
		return PAIRING_BY_POINTS;
	for (i = 0; i < PAIRING_TIEBREAKS_MAX; i++)
		if (pairing_crit_diff(a, b, pairing_sort_tb[i]) != 0)
			return pairing_sort_tb[i];
	return PAIRING_BY_SEED;
}

/* qsort: score, the tie-breaks in order, then the seeding. */
static int
pairing_by_standing(const void *x, const void *y)
{
	const struct pairing_standing *a = x, *b = y;

	return -pairing_crit_diff(a, b, pairing_crit_first(a, b));
}

void
pairing_standings(int n, const struct pairing_game *games, int ngames,
    enum pairing_tiebreak tb, struct pairing_standing *out)
{
	int halves[PAIRING_PLAYERS_MAX] = {0};
	int i, side;

	if (n > PAIRING_PLAYERS_MAX)
		n = PAIRING_PLAYERS_MAX;
	memset(out, 0, sizeof *out * (size_t)n);
	for (i = 0; i < n; i++)
		out[i].player = i;
	for (i = 0; i < ngames; i++) {
		const struct pairing_game *g = &games[i];

		if (g->white < 0 || g->white >= n || g->res == PAIRING_NONE)
			continue;
		if (g->black < 0) {
			halves[g->white] += 2;
			out[g->white].byes++;
			continue;
		}
		if (g->black >= n)
			continue;
		for (side = 0; side < 2; side++) {
			int me = side == 0 ? g->white : g->black;
			int h = pairing_halves(g, side);

			halves[me] += h;
			if (h == 2)
				out[me].wins++;
			else if (h == 1)
				out[me].draws++;
			else
				out[me].losses++;
		}
	}
	for (i = 0; i < ngames; i++) {
		const struct pairing_game *g = &games[i];

		if (g->white < 0 || g->white >= n || g->black < 0 ||
		    g->black >= n || g->res == PAIRING_NONE)
			continue;
		for (side = 0; side < 2; side++) {
			int me = side == 0 ? g->white : g->black;
			int opp = side == 0 ? g->black : g->white;
			int h = pairing_halves(g, side);

			/* points P = halves / 2, in quarters 2 * halves */
			out[me].bh_quarters += 2 * halves[opp];
			out[me].sb_quarters += h * halves[opp];
		}
	}
	for (i = 0; i < n; i++) {
		out[i].halves = halves[i];
		out[i].tb_quarters = tb == PAIRING_BUCHHOLZ
		    ? out[i].bh_quarters
		    : out[i].sb_quarters;
	}
	pairing_sort_tb = pairing_tiebreaks[tb];
	qsort(out, (size_t)n, sizeof *out, pairing_by_standing);
	for (i = 0; i < n; i++)
		out[i].above_next = i + 1 < n
		    ? pairing_crit_first(&out[i], &out[i + 1])
		    : PAIRING_BY_LAST;
	pairing_sort_tb = NULL;
}

/* ------------------------------------------------ the Dutch system */

/* What the Dutch pairing knows of each player from the past games, and
 * the search's state. */
struct pairing_dutch {
	int n;
	struct pairing_past h;
	int rank[PAIRING_PLAYERS_MAX]; /* to pair: by score, then seeding */
	int nrank;
	int gstart[PAIRING_PLAYERS_MAX + 1]; /* score groups in rank[] */
	int ngroups;
	int pair[PAIRING_PLAYERS_MAX];
	long steps;
	int strict; /* two with the same absolute colour never meet */
};

/* The Dutch pairing's start: the past games. */
static void
pairing_dutch_init(
    struct pairing_dutch *d, int n, const struct pairing_game *past, int npast)
{
	memset(d, 0, sizeof *d);
	d->n = n;
	pairing_past_read(&d->h, n, past, npast);
}

/* p's colour preference (1 white, -1 black, 0 none) and its strength
 * into *strength: 3 absolute (two more of one colour, or the same
 * colour twice running), 2 strong (one more), 1 mild (even, the other
 * colour from the last), 0 none. */
static int
pairing_dutch_pref(const struct pairing_dutch *d, int p, int *strength)
{
	const int *c = d->h.col[p];

	*strength = 3;
	if (d->h.cdiff[p] < -1 || (c[0] == -1 && c[1] == -1))
		return 1;
	if (d->h.cdiff[p] > 1 || (c[0] == 1 && c[1] == 1))
		return -1;
	*strength = 2;
	if (d->h.cdiff[p] != 0)
		return d->h.cdiff[p] < 0 ? 1 : -1;
	*strength = c[0] != 0 ? 1 : 0;
	return -c[0];
}

/* May p and q meet in this round? Never twice; in the strict pass not
 * when both must have the same colour. */
static int
pairing_dutch_ok(const struct pairing_dutch *d, int p, int q)
{
	int sp, sq, cp, cq;

	if (d->h.met[p][q])
		return 0;
	if (!d->strict)
		return 1;
	cp = pairing_dutch_pref(d, p, &sp);
	cq = pairing_dutch_pref(d, q, &sq);
	return !(sp == 3 && sq == 3 && cp == cq);
}

static int pairing_dutch_bracket(
    struct pairing_dutch *d, int g, const int *fl, int nfl);

/* Pair p and q tentatively, counting the step; 0 when the search is
 * over its bound. */
static int
pairing_dutch_try(struct pairing_dutch *d, int p, int q)
{
	if (++d->steps > PAIRING_SEARCH_MAX)
		return 0;
	d->pair[p] = q;
	d->pair[q] = p;
	return 1;
}

static void
pairing_dutch_untry(struct pairing_dutch *d, int p, int q)
{
	d->pair[p] = d->pair[q] = -1;
}

/* The homogeneous part of bracket g: S1 = r[0..half), each paired with a
 * player of S2 = r[half..nr) in order (the identity first, then the
 * next transpositions), j the S1 player to pair; whoever is left floats
 * down after the players in down. 1 when the rest of the round pairs. */
static int
pairing_dutch_s1(struct pairing_dutch *d, int g, const int *r, int nr, int half,
    int j, const int *down, int ndown)
{
	int next[PAIRING_PLAYERS_MAX], nn = 0, k, p, q;

	if (j == half) {
		for (k = 0; k < ndown; k++)
			next[nn++] = down[k];
		for (k = 0; k < nr; k++)
			if (d->pair[r[k]] < 0)
				next[nn++] = r[k];
		if (g + 1 == d->ngroups)
			return nn == 0;
		return pairing_dutch_bracket(d, g + 1, next, nn);
	}
	p = r[j];
	for (k = half; k < nr; k++) {
		q = r[k];
		if (d->pair[q] >= 0 || !pairing_dutch_ok(d, p, q))
			continue;
		if (!pairing_dutch_try(d, p, q))
			return 0;
		if (pairing_dutch_s1(d, g, r, nr, half, j + 1, down, ndown))
			return 1;
		pairing_dutch_untry(d, p, q);
		if (d->steps > PAIRING_SEARCH_MAX)
			return 0;
	}
	return 0;
}

/* The players floated into bracket g (fl[i] on), each paired with the
 * highest resident it may meet, or floated on down; then the residents
 * left pair among themselves, as many pairs as can be first. */
static int
pairing_dutch_mdp(struct pairing_dutch *d, int g, const int *fl, int nfl, int i,
    int *down, int ndown)
{
	int r[PAIRING_PLAYERS_MAX], nr = 0, k, half, p, q;
	int last = g + 1 == d->ngroups;

	if (i == nfl) {
		for (k = d->gstart[g]; k < d->gstart[g + 1]; k++)
			if (d->pair[d->rank[k]] < 0)
				r[nr++] = d->rank[k];
		for (half = nr / 2; half >= 0; half--) {
			if (last && (half * 2 != nr || ndown > 0))
				break;
			if (pairing_dutch_s1(d, g, r, nr, half, 0, down, ndown))
				return 1;
			if (d->steps > PAIRING_SEARCH_MAX)
				return 0;
		}
		return 0;
	}
	p = fl[i];
	for (k = d->gstart[g]; k < d->gstart[g + 1]; k++) {
		q = d->rank[k];
		if (d->pair[q] >= 0 || !pairing_dutch_ok(d, p, q))
			continue;
		if (!pairing_dutch_try(d, p, q))
			return 0;
		if (pairing_dutch_mdp(d, g, fl, nfl, i + 1, down, ndown))
			return 1;
		pairing_dutch_untry(d, p, q);
		if (d->steps > PAIRING_SEARCH_MAX)
			return 0;
	}
	if (last)
		return 0;
	down[ndown] = p; /* floats on down */
	return pairing_dutch_mdp(d, g, fl, nfl, i + 1, down, ndown + 1);
}

/* Pair bracket g: the floaters fl from above, then its residents. */
static int
pairing_dutch_bracket(struct pairing_dutch *d, int g, const int *fl, int nfl)
{
	int down[PAIRING_PLAYERS_MAX];

	return pairing_dutch_mdp(d, g, fl, nfl, 0, down, 0);
}

/* Everyone but skip (-1: nobody) into order[], by score and seeding;
 * their number. */
static int
pairing_dutch_rank(struct pairing_dutch *d, int skip, int *order)
{
	int i, k = 0;

	for (i = 0; i < d->n; i++)
		if (i != skip)
			order[k++] = i;
	pairing_sort_by_score(order, k, d->h.halves);
	return k;
}

/* Rank everyone but the bye by score and seeding, cut into score groups,
 * and search; 1 when every player is paired. */
static int
pairing_dutch_search(struct pairing_dutch *d, int bye)
{
	int i, k;

	for (i = 0; i < d->n; i++)
		d->pair[i] = -1;
	k = d->nrank = pairing_dutch_rank(d, bye, d->rank);
	d->ngroups = 0;
	for (i = 0; i < k; i++)
		if (i == 0 ||
		    d->h.halves[d->rank[i]] != d->h.halves[d->rank[i - 1]])
			d->gstart[d->ngroups++] = i;
	d->gstart[d->ngroups] = k;
	if (k == 0)
		return 1;
	return pairing_dutch_bracket(d, 0, NULL, 0);
}

/* Who of p (ranked higher) and q takes white on board b (0-based): both
 * preferences met when they differ; else the stronger one; else the
 * higher-ranked player's; with none at all, the higher-ranked player has
 * white on odd boards (1, 3, ...) and black on even ones. */
static int
pairing_dutch_white(const struct pairing_dutch *d, int p, int q, int b)
{
	int sp, sq, cp = pairing_dutch_pref(d, p, &sp),
	            cq = pairing_dutch_pref(d, q, &sq);

	if (cp == 0 && cq == 0)
		return b % 2 == 0 ? p : q;
	if (cp == 0)
		return cq == 1 ? q : p;
	if (cq == 0 || cp != cq || sp >= sq)
		return cp == 1 ? p : q;
	return cq == 1 ? q : p;
}

/* The rank of p in d->rank (its place in the pairing order). */
static int
pairing_dutch_place(const struct pairing_dutch *d, int p)
{
	int i;

	for (i = 0; i < d->nrank; i++)
		if (d->rank[i] == p)
			return i;
	return d->n;
}

/* The found pairs into out: boards by the higher player's place (so by
 * score, then seeding), colours by preference, the bye last. */
static int
pairing_dutch_out(
    const struct pairing_dutch *d, int bye, struct pairing_game *out)
{
	int i, p, q, k = 0;

	for (i = 0; i < d->nrank; i++) {
		p = d->rank[i];
		q = d->pair[p];
		if (q < 0 || pairing_dutch_place(d, q) < i)
			continue;
		out[k].white = pairing_dutch_white(d, p, q, k);
		out[k].black = out[k].white == p ? q : p;
		out[k].res = PAIRING_NONE;
		k++;
	}
	if (bye >= 0) {
		out[k].white = bye;
		out[k].black = -1;
		out[k].res = PAIRING_WHITE;
		k++;
	}
	return k;
}

int
pairing_swiss(int n, const struct pairing_game *past, int npast,
    struct pairing_game *out, int *repeats)
{
	static struct pairing_dutch d;
	int all[PAIRING_PLAYERS_MAX];
	int i, bye, strict;

	*repeats = 0;
	if (n < 2 || n > PAIRING_PLAYERS_MAX)
		return 0;
	pairing_dutch_init(&d, n, past, npast);
	for (strict = 1; strict >= 0; strict--) {
		/* one bound for the whole pass, whoever has the bye */
		d.steps = 0;
		d.strict = strict;
		if (n % 2 == 0) {
			if (pairing_dutch_search(&d, -1))
				return pairing_dutch_out(&d, -1, out);
			continue;
		}
		/* the bye: the lowest-ranked who has had none and leaves
		 * the rest pairable */
		pairing_dutch_rank(&d, -1, all);
		for (i = n - 1; i >= 0; i--) {
			bye = all[i];
			if (d.h.bye[bye])
				continue;
			if (pairing_dutch_search(&d, bye))
				return pairing_dutch_out(&d, bye, out);
			if (d.steps > PAIRING_SEARCH_MAX)
				break;
		}
	}
	return pairing_swiss_any(n, past, npast, out, repeats);
}
