/*
 * pairing.c: a tournament's pure arithmetic (pairing.h): the circle method
 * for round robins, Swiss pairing by score without repeats (a search that
 * backtracks when the greedy choice leads nowhere), colours, byes and the
 * standings with Sonneborn-Berger or Buchholz. No I/O.
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

/* What the Swiss pairing knows of each player from the past games. */
struct pairing_swiss_state {
	int n;
	int halves[PAIRING_PLAYERS_MAX];
	int colour[PAIRING_PLAYERS_MAX]; /* whites minus blacks */
	int last[PAIRING_PLAYERS_MAX];   /* 1 white, -1 black, 0 none */
	int bye[PAIRING_PLAYERS_MAX];
	unsigned char met[PAIRING_PLAYERS_MAX][PAIRING_PLAYERS_MAX];
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

static struct pairing_swiss_state *pairing_sort_state;

/* qsort: higher score first, then the seeding. */
static int
pairing_by_score(const void *x, const void *y)
{
	const struct pairing_swiss_state *s = pairing_sort_state;
	int a = *(const int *)x, b = *(const int *)y;

	if (s->halves[a] != s->halves[b])
		return s->halves[b] - s->halves[a];
	return a - b;
}

/* Gather scores, colours, byes and who met whom from the past games. */
static void
pairing_swiss_init(struct pairing_swiss_state *s, int n,
    const struct pairing_game *past, int npast)
{
	int i;

	memset(s, 0, sizeof *s);
	s->n = n;
	for (i = 0; i < npast; i++) {
		const struct pairing_game *g = &past[i];

		if (g->white < 0 || g->white >= n)
			continue;
		if (g->black < 0) {
			s->bye[g->white] = 1;
			s->halves[g->white] += 2;
			continue;
		}
		if (g->black >= n)
			continue;
		s->halves[g->white] += pairing_halves(g, 0);
		s->halves[g->black] += pairing_halves(g, 1);
		s->colour[g->white]++;
		s->colour[g->black]--;
		s->last[g->white] = 1;
		s->last[g->black] = -1;
		s->met[g->white][g->black] = s->met[g->black][g->white] = 1;
	}
	for (i = 0; i < n; i++) {
		s->order[i] = i;
		s->pair[i] = -1;
	}
	pairing_sort_state = s;
	qsort(s->order, (size_t)n, sizeof s->order[0], pairing_by_score);
	pairing_sort_state = NULL;
}

/* 1 when p and q both had two whites more than blacks (or two blacks
 * more): whoever took the colour they both had would have three. */
static int
pairing_same_need(const struct pairing_swiss_state *s, int p, int q)
{
	return (s->colour[p] >= 2 && s->colour[q] >= 2) ||
	    (s->colour[p] <= -2 && s->colour[q] <= -2);
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
		    (s->met[p][q] && !s->repeats_ok) ||
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
		if (s->bye[p] && !s->repeats_ok)
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
	if (s->colour[p] != s->colour[q])
		return s->colour[p] < s->colour[q];
	if (s->last[p] != s->last[q])
		return s->last[p] < s->last[q];
	return 1;
}

int
pairing_swiss(int n, const struct pairing_game *past, int npast,
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

/* qsort: score, tie-break, then the seeding. */
static int
pairing_by_standing(const void *x, const void *y)
{
	const struct pairing_standing *a = x, *b = y;

	if (a->halves != b->halves)
		return b->halves - a->halves;
	if (a->tb_quarters != b->tb_quarters)
		return b->tb_quarters - a->tb_quarters;
	return a->player - b->player;
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
			if (tb == PAIRING_BUCHHOLZ)
				out[me].tb_quarters += 2 * halves[opp];
			else
				out[me].tb_quarters += h * halves[opp];
		}
	}
	for (i = 0; i < n; i++)
		out[i].halves = halves[i];
	qsort(out, (size_t)n, sizeof *out, pairing_by_standing);
}
