/*
 * bots.c: the bots' benchmark. `bots speed GAME` prints, for each level,
 * the time per move, the depth reached and the positions searched per
 * second from the start and from a middle game; `bots ladder GAME A B N
 * SCALE` plays N games between two players (levels 1-5, `random`, or `old`
 * for the previous generic bot at level 5's time, `prev` for the previous
 * release's level 5 in bots-prev, `wide` for Ataxx level 5 on 128-bit
 * bitboards) from varied openings, each opening with
 * both colours, every level's time multiplied by SCALE; `bots hints` times
 * the hints on every built-in solitaire board (along the hinted line and
 * on random positions reached in play); `bots texel` writes
 * self-play positions for bench/texel.py; `bots depth GAME N` prints the
 * depth level 5 reaches at its time from N openings.
 */
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ai/ai.h"
#include "rules/amazons.h"
#include "rules/ataxx.h"
#include "rules/games.h"
#include "rules/solitaire.h"

/* Plies played at random before the bots take over, for varied openings. */
#define BOTS_OPENING_PLIES 4
/* A game this long is judged by its score (Ataxx can shuffle forever). */
#define BOTS_PLIES_MAX 400

struct bots_state {
	_Alignas(16) unsigned char b[RULES_STATE_MAX];
};

/* A player: a level 1..5, 0 random, -1 the old generic bot, -2 the
 * previous release's engine at level 5 (BOTS_PREV); a level followed by
 * "p" (e.g. 4p) adds BOTS_PLAIN: the engine with its evaluation's first
 * term alone (Ataxx: and the plain search), to measure what the others
 * add. */
#define BOTS_PLAIN 100
#define BOTS_PREV (-2)
/* `wide`: today's Ataxx level 5 on the 128-bit bitboards of any size, not
 * the 64-bit copy that plays boards up to 7x7 (what the copy gains). */
#define BOTS_WIDE (-3)
static int
bots_player(const char *s)
{
	if (strcmp(s, "random") == 0)
		return 0;
	if (strcmp(s, "old") == 0)
		return -1;
	if (strcmp(s, "prev") == 0)
		return BOTS_PREV;
	if (strcmp(s, "wide") == 0)
		return BOTS_WIDE;
	return atoi(s) + (strchr(s, 'p') != NULL ? BOTS_PLAIN : 0);
}

/* The previous release's engines, renamed: linked into `bots-prev` (make
 * bench builds it from git, see the Makefile), absent (NULL) from `bots`. */
int ai_ataxx_move_prev(const void *st, const struct ai_limits *lim,
    struct rules_move *out, struct ai_report *rep) __attribute__((weak));
int ai_amazons_move_prev(const void *st, const struct ai_limits *lim,
    struct rules_move *out, struct ai_report *rep) __attribute__((weak));

/* The previous release's level 5, or -1 when this binary lacks it. */
static int
bots_prev(const struct rules_game *g, const void *st,
    const struct ai_limits *lim, struct rules_move *m, struct ai_report *rep)
{
	int (*move)(const void *, const struct ai_limits *, struct rules_move *,
	    struct ai_report *) = strcmp(g->name, "ataxx") == 0
	    ? ai_ataxx_move_prev
	    : strcmp(g->name, "amazons") == 0 ? ai_amazons_move_prev
	                                      : NULL;

	if (move == NULL) {
		fprintf(stderr,
		    "bots: no previous engine for %s in this "
		    "binary (build/native/bots-prev has them)\n",
		    g->name);
		exit(2);
	}
	return move(st, lim, m, rep);
}

/* The Ataxx board side the bench plays on (`bots speed ataxx 9`). */
static const char *bots_size = "7";

static void
bots_new(const struct rules_game *g, struct bots_state *st)
{
	struct rules_opt opt[2] = {{"size", bots_size}, {"first", "1"}};
	char err[RULES_ERR_MAX];
	int nopt = strcmp(g->name, "ataxx") == 0 ? 1 : 0;

	if (strcmp(g->name, "stones") == 0) {
		opt[0] = opt[1];
		nopt = 1;
	}
	if (g->init(st->b, opt, nopt, err, sizeof err) != 0) {
		fprintf(stderr, "bots: %s\n", err);
		exit(1);
	}
}

static int
bots_random(const struct rules_game *g, const void *st, struct rules_rng *rng,
    struct rules_move *m)
{
	static struct rules_move mv[RULES_MAX_MOVES];
	int n = g->legal_moves(st, mv, RULES_MAX_MOVES);

	if (n == 0)
		return -1;
	*m = mv[rules_rng_below(rng, (unsigned)n)];
	return 0;
}

/* Trial evaluation weights for the engines (not the plain ones) of the
 * ladder's first player, from BOTS_WEIGHTS="w0,w1,...", and of its second,
 * from BOTS_WEIGHTS_B: the tuning runs of docs/ENGINES.md. NULL: the
 * engine's own. */
static int bots_wbuf[2][AI_WEIGHTS];
static const int *bots_w[2];

static void
bots_read_weights(int k, const char *name)
{
	const char *s = getenv(name);
	int i;

	if (s == NULL || *s == '\0')
		return;
	for (i = 0; i < AI_WEIGHTS && *s != '\0'; i++) {
		char *end;

		bots_wbuf[k][i] = (int)strtol(s, &end, 10);
		s = *end == ',' ? end + 1 : end;
	}
	bots_w[k] = bots_wbuf[k];
}

/* One move of player p (scale multiplies the level's time). */
static int
bots_move(const struct rules_game *g, const void *st, int p, const int *weights,
    double scale, uint64_t seed, struct rules_rng *rng, struct rules_move *m,
    struct ai_report *rep)
{
	struct ai_limits lim;

	memset(rep, 0, sizeof *rep);
	if (p == 0)
		return bots_random(g, st, rng, m);
	ai_limits_level(&lim, p > 0 ? p % BOTS_PLAIN : AI_LEVEL_MAX, seed);
	lim.plain = p > BOTS_PLAIN;
	lim.weights = weights;
	lim.ms = (long)(lim.ms * scale);
	if (lim.ms < 1)
		lim.ms = 1;
	if (p == BOTS_PREV) {
		lim.weights = NULL;
		return bots_prev(g, st, &lim, m, rep);
	}
	if (p == BOTS_WIDE) {
		if (strcmp(g->name, "ataxx") != 0) {
			fprintf(stderr, "bots: `wide` plays Ataxx only\n");
			exit(2);
		}
		return ai_ataxx_move128(st, &lim, m, rep);
	}
	if (p < 0) {
		lim.depth = 64;
		return ai_generic_move(g, st, &lim, m, rep);
	}
	return ai_bot_move(g, st, &lim, m, rep);
}

/* One game, player a (weights wa) as seat 0; 1, 0.5 or 0 for a.
 * maxms[seat] keeps the longest move of each seat's player. */
static double
bots_game(const struct rules_game *g, int a, int b, const int *wa,
    const int *wb, double scale, uint64_t opening, long maxms[2])
{
	struct bots_state st;
	struct rules_status s;
	struct rules_rng rng;
	int ply;

	rules_rng_seed(&rng, opening);
	bots_new(g, &st);
	for (ply = 0; ply < BOTS_PLIES_MAX; ply++) {
		struct rules_move m;
		struct ai_report rep;
		int seat = g->turn(st.b), p = seat == 0 ? a : b;

		rules_status(g, st.b, &s);
		if (s.result != RULES_PLAYING)
			break;
		if (ply < BOTS_OPENING_PLIES && strcmp(g->name, "stones") != 0)
			p = 0;
		if (bots_move(g, st.b, p, seat == 0 ? wa : wb, scale,
		        opening * 977 + (uint64_t)ply, &rng, &m, &rep) != 0)
			break;
		if (rep.ms > maxms[seat])
			maxms[seat] = rep.ms;
		g->apply(st.b, m);
	}
	rules_status(g, st.b, &s);
	if (s.result == RULES_WIN)
		return s.winner == 0 ? 1.0 : 0.0;
	if (s.result == RULES_PLAYING && s.nscores == 2 &&
	    s.score[0] != s.score[1])
		return s.score[0] > s.score[1] ? 1.0 : 0.0;
	return 0.5;
}

/* Openings first, first + 1, ... (each played with both colours), so
 * that parallel runs can play different ones. */
static int
bots_ladder(const struct rules_game *g, const char *pa, const char *pb,
    int games, double scale, int first)
{
	int a = bots_player(pa), b = bots_player(pb), i;
	double score = 0, squares = 0, mean, margin;
	long ms_a[2] = {0, 0}, ms_b[2] = {0, 0};

	for (i = 0; i < games; i++) {
		uint64_t opening = (uint64_t)(i / 2) + (uint64_t)first;
		double r;

		if (i % 2 == 0)
			r = bots_game(g, a, b, bots_w[0], bots_w[1], scale,
			    opening, ms_a);
		else
			r = 1.0 -
			    bots_game(g, b, a, bots_w[1], bots_w[0], scale,
			        opening, ms_b);
		score += r;
		squares += r * r;
		fprintf(stderr, "\r%s %s vs %s: %d/%d games", g->name, pa, pb,
		    i + 1, games);
	}
	fprintf(stderr, "\n");
	/* the 95% margin of the mean score, from the games' own spread */
	mean = games > 0 ? score / games : 0;
	margin = games > 1
	    ? 1.96 * sqrt((squares / games - mean * mean) / (games - 1))
	    : 0;
	printf("%s ladder %s vs %s (time x%g): %.1f / %d = %.1f%% +- %.1f "
	       "(longest move: %s %ld ms, %s %ld ms)\n",
	    g->name, pa, pb, scale, score, games, 100.0 * mean, 100.0 * margin,
	    pa, ms_a[0] > ms_b[1] ? ms_a[0] : ms_b[1], pb,
	    ms_a[1] > ms_b[0] ? ms_a[1] : ms_b[0]);
	return 0;
}

/* Plies played at random before a tuning game's positions are kept. */
#define BOTS_TEXEL_RANDOM 8

/* The empty squares of an Ataxx position (the neural evaluation's
 * phase). */
static int
bots_ataxx_empty(const void *st)
{
	const struct ataxx_state *s = st;

	return ataxx_pop(ataxx_board(s->size) &
	    ~(ataxx_get(s->piece[0]) | ataxx_get(s->piece[1]) |
	        ataxx_get(s->gap)));
}

/* Self-play for tuning (bench/texel.py, bench/ataxx_net.py): GAMES Ataxx
 * games of level 5 at a fixed depth from random openings (FIRST, FIRST +
 * 1, ...), and for each position after the opening one line: the result
 * for the side to move (1, 0.5, 0), its material, the counts of the
 * evaluation's other terms (AI_WEIGHTS of them, in enum ax_weight's
 * order) and the empty squares. */
static int
bots_texel(int games, int depth, int first)
{
	const struct rules_game *g = &rules_ataxx;
	static int rec[BOTS_PLIES_MAX][2 + AI_WEIGHTS];
	static int turn[BOTS_PLIES_MAX];
	int i, k, j;

	for (i = 0; i < games; i++) {
		struct bots_state st;
		struct rules_status s;
		struct rules_rng rng;
		int ply, n = 0;
		double white;

		rules_rng_seed(&rng, (uint64_t)(first + i));
		bots_new(g, &st);
		for (ply = 0; ply < BOTS_PLIES_MAX; ply++) {
			struct rules_move m;
			struct ai_limits lim;
			struct ai_report rep;

			rules_status(g, st.b, &s);
			if (s.result != RULES_PLAYING)
				break;
			if (ply < BOTS_TEXEL_RANDOM) {
				if (bots_random(g, st.b, &rng, &m) != 0)
					break;
			} else {
				turn[n] = g->turn(st.b);
				rec[n][0] = ai_ataxx_terms(st.b, rec[n] + 1);
				rec[n][1 + AI_WEIGHTS] = bots_ataxx_empty(st.b);
				n++;
				ai_limits_level(&lim, AI_LEVEL_MAX, 1);
				lim.depth = depth;
				lim.ms = 60000;
				if (ai_bot_move(g, st.b, &lim, &m, &rep) != 0)
					break;
			}
			g->apply(st.b, m);
		}
		rules_status(g, st.b, &s);
		white = s.result == RULES_WIN ? (s.winner == 0 ? 1.0 : 0.0)
		    : s.nscores == 2 && s.score[0] != s.score[1]
		    ? (s.score[0] > s.score[1] ? 1.0 : 0.0)
		    : 0.5;
		for (k = 0; k < n; k++) {
			printf("%g", turn[k] == 0 ? white : 1.0 - white);
			for (j = 0; j <= AI_WEIGHTS + 1; j++)
				printf(",%d", rec[k][j]);
			printf("\n");
		}
		fprintf(stderr, "\rtexel: %d/%d games", i + 1, games);
	}
	fprintf(stderr, "\n");
	return 0;
}

/* Hints on one built-in solitaire board: the solver from the start, then
 * along the line its hints give, to the end: the verdict, the first
 * answer's time and the longest. */
static void
bots_hints_board(const char *board)
{
	const struct rules_game *g = &rules_solitaire;
	struct rules_opt opt = {"board", board};
	struct bots_state st;
	struct rules_move hint;
	char err[RULES_ERR_MAX];
	double first = -1, longest = 0, t;
	enum ai_verdict v, v0 = AI_UNKNOWN;
	int n = 0;

	if (g->init(st.b, &opt, 1, err, sizeof err) != 0) {
		fprintf(stderr, "bots: %s\n", err);
		exit(1);
	}
	for (;;) {
		uint64_t t0 = ai_clock_ms();

		v = ai_solve(g, st.b, 0, NULL, &hint);
		t = (double)(ai_clock_ms() - t0);
		if (first < 0) {
			first = t;
			v0 = v;
		}
		if (t > longest)
			longest = t;
		n++;
		if (v != AI_WINNABLE || hint.to == RULES_NONE)
			break;
		g->apply(st.b, hint);
	}
	printf("hint solitaire %s: %s at the start, first hint %.0f ms, "
	       "longest of %d along its line %.0f ms\n",
	    board,
	    v0 == AI_WINNABLE   ? "winnable"
	        : v0 == AI_LOST ? "cannot be won"
	                        : "unknown",
	    first, n, longest);
}

/* Random positions a board's hint is timed on, and the search bound of
 * each: the server's default (SERVER_HINT_NODES), so that "unknown" here is
 * "unknown" there. */
#define BOTS_HINT_POSITIONS 100
/* Early positions (after 1 to BOTS_HINT_EARLY jumps) are the ones the
 * search alone takes longest on: many pegs, so much to prove lost. */
#define BOTS_HINT_EARLY 12
#define BOTS_HINT_NODES 30000000L

static int
bots_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* A solver the hint bench times. */
typedef enum ai_verdict (*bots_solver)(
    const void *, long, const atomic_int *, struct rules_move *);

/* Hints on BOTS_HINT_POSITIONS positions of one board reached by random
 * jumps from its start (1 to early jumps, uniformly, or when early is 0
 * to all but two of its pegs' worth; fewer when no jump is left): how many
 * are winnable, lost and unknown, and the median and longest answer of
 * solver solve. The positions are the same on every run. */
static void
bots_hints_random(
    const char *board, int early, bots_solver solve, const char *how)
{
	const struct rules_game *g = &rules_solitaire;
	struct rules_opt opt = {"board", board};
	struct bots_state st;
	struct rules_move hint, m;
	struct rules_rng rng;
	char err[RULES_ERR_MAX];
	double t[BOTS_HINT_POSITIONS];
	int i, k, plies, slow = 0, n[3] = {0, 0, 0};

	rules_rng_seed(&rng, 23);
	for (i = 0; i < BOTS_HINT_POSITIONS; i++) {
		uint64_t t0;
		enum ai_verdict v;

		if (g->init(st.b, &opt, 1, err, sizeof err) != 0) {
			fprintf(stderr, "bots: %s\n", err);
			exit(1);
		}
		plies = 1 +
		    (int)rules_rng_below(&rng,
		        early > 0
		            ? (unsigned)early
		            : (unsigned)(((const struct solitaire_state *)st.b)
		                             ->pegs -
		                  2));
		for (k = 0; k < plies && bots_random(g, st.b, &rng, &m) == 0;
		     k++)
			g->apply(st.b, m);
		t0 = ai_clock_ms();
		v = solve(st.b, BOTS_HINT_NODES, NULL, &hint);
		t[i] = (double)(ai_clock_ms() - t0);
		slow += t[i] > 1000;
		n[v == AI_WINNABLE ? 0 : v == AI_LOST ? 1 : 2]++;
	}
	qsort(t, BOTS_HINT_POSITIONS, sizeof t[0], bots_cmp_double);
	if (early > 0)
		snprintf(err, sizeof err, "1-%d", early);
	else
		snprintf(err, sizeof err, "1-all");
	printf("hint solitaire %s, %d positions after %s random jumps, %s: "
	       "%d winnable, %d lost, %d unknown; median %.0f ms, max %.0f ms, "
	       "%d over 1 s\n",
	    board, BOTS_HINT_POSITIONS, err, how, n[0], n[1], n[2],
	    (t[BOTS_HINT_POSITIONS / 2 - 1] + t[BOTS_HINT_POSITIONS / 2]) / 2,
	    t[BOTS_HINT_POSITIONS - 1], slow);
}

/*
 * `bots soltable BOARD MIN > data/solitaire/BOARD.win`: the table of a
 * built-in solitaire board's winnable positions (ai/solitaire_table.c):
 * every position reachable from its start, each class of symmetric ones
 * once, searched to the end with each result remembered, and the
 * winnable ones of MIN pegs or more written out. English: 23.5 million
 * classes (1,679,071 winnable), about 40 s and 256 MB. The solver's
 * reachability test needs a start that is every usable cell but the
 * goal.
 */

/* Slots of the generator's table: a power of two, about 1.4 times the
 * English board's 23.5 million classes. */
#define SOLGEN_BITS 25
#define SOLGEN_WIN ((uint64_t)1 << 62)
#define SOLGEN_KEY (SOLGEN_WIN - 1)

struct solgen {
	int njumps, nbytes, nsym;
	uint8_t jump[4 * AI_SOLTAB_CELLS][3]; /* from, over, to */
	uint64_t goal;                        /* the goal's key bit */
	uint64_t sym[8][8][256]; /* image of byte b's value, per symmetry */
	uint64_t *slot;          /* key | SOLGEN_WIN, 0 free */
	size_t used;
};

/* The key of the class of peg set k: the least of its images. */
static uint64_t
solgen_canon(const struct solgen *g, uint64_t k)
{
	uint64_t best = ~(uint64_t)0, img;
	int s, b;

	for (s = 0; s < g->nsym; s++) {
		img = 0;
		for (b = 0; b < g->nbytes; b++)
			img |= g->sym[s][b][(k >> (8 * b)) & 255];
		if (img < best)
			best = img;
	}
	return best;
}

/* Whether peg set k (npegs pegs) can be won, remembered by class. */
static int
solgen_win(struct solgen *g, uint64_t k, int npegs)
{
	uint64_t c, m = ((uint64_t)1 << SOLGEN_BITS) - 1;
	size_t i;
	int j, w = 0;

	if (npegs == 1)
		return k == g->goal;
	c = solgen_canon(g, k);
	for (i = rules_mix64(c) & m; g->slot[i] != 0; i = (i + 1) & m)
		if ((g->slot[i] & SOLGEN_KEY) == c)
			return (g->slot[i] & SOLGEN_WIN) != 0;
	for (j = 0; j < g->njumps; j++) {
		uint64_t a = (uint64_t)1 << g->jump[j][0],
		         b = (uint64_t)1 << g->jump[j][1],
		         t = (uint64_t)1 << g->jump[j][2];

		if ((k & a) && (k & b) && !(k & t))
			w |= solgen_win(g, k ^ a ^ b ^ t, npegs - 1);
	}
	for (i = rules_mix64(c) & m; g->slot[i] != 0; i = (i + 1) & m)
		;
	g->slot[i] = c | (w ? SOLGEN_WIN : 0);
	if (++g->used > (m + 1) / 10 * 9) {
		fprintf(
		    stderr, "bots: soltable: more than %zu classes\n", g->used);
		exit(1);
	}
	return w;
}

static int
bots_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static int
bots_soltable(const char *board, int minpegs)
{
	static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
	const struct rules_game *rg = &rules_solitaire;
	struct rules_opt opt = {"board", board};
	struct bots_state st;
	const struct solitaire_state *b = (const void *)st.b;
	struct ai_soltab_board tb;
	struct solgen *g = calloc(1, sizeof *g);
	char err[RULES_ERR_MAX];
	int idx[SOLITAIRE_MAX_CELLS], k, d, s, v, bit, r, c;
	uint64_t start = 0, *win;
	size_t i, n = 0;

	if (g == NULL || rg->init(st.b, &opt, 1, err, sizeof err) != 0 ||
	    ai_soltab_board(&tb, b) != 0 ||
	    tb.ncells > 8 * AI_SOLTAB_KEY_BYTES) {
		fprintf(
		    stderr, "bots: soltable: no table for board %s\n", board);
		return 1;
	}
	g->slot = calloc((size_t)1 << SOLGEN_BITS, sizeof *g->slot);
	if (g->slot == NULL) {
		fprintf(stderr, "bots: soltable: out of memory\n");
		return 1;
	}
	memset(idx, -1, sizeof idx);
	for (k = 0; k < tb.ncells; k++)
		idx[tb.cell[k]] = k;
	for (k = 0; k < tb.ncells; k++) {
		r = tb.cell[k] / b->cols;
		c = tb.cell[k] % b->cols;
		if (b->cell[tb.cell[k]] == SOLITAIRE_PEG)
			start |= (uint64_t)1 << k;
		for (d = 0; d < 4; d++) {
			int r2 = r + 2 * dr[d], c2 = c + 2 * dc[d];

			if (r2 < 0 || r2 >= b->rows || c2 < 0 ||
			    c2 >= b->cols || idx[r2 * b->cols + c2] < 0 ||
			    idx[(r + dr[d]) * b->cols + c + dc[d]] < 0)
				continue;
			g->jump[g->njumps][0] = (uint8_t)k;
			g->jump[g->njumps][1] =
			    (uint8_t)idx[(r + dr[d]) * b->cols + c + dc[d]];
			g->jump[g->njumps][2] = (uint8_t)idx[r2 * b->cols + c2];
			g->njumps++;
		}
	}
	if (start !=
	    (((uint64_t)1 << tb.ncells) - 1) - ((uint64_t)1 << idx[b->goal])) {
		fprintf(stderr,
		    "bots: soltable: the start of %s is not every "
		    "cell but the goal\n",
		    board);
		return 1;
	}
	g->goal = (uint64_t)1 << idx[b->goal];
	g->nsym = tb.nsym;
	g->nbytes = (tb.ncells + 7) / 8;
	for (s = 0; s < tb.nsym; s++)
		for (k = 0; k < g->nbytes; k++)
			for (v = 0; v < 256; v++)
				for (bit = 0; bit < 8; bit++)
					if ((v >> bit & 1) &&
					    8 * k + bit < tb.ncells)
						g->sym[s][k][v] |= (uint64_t)1
						    << tb.perm[s][8 * k + bit];
	solgen_win(g, start, b->pegs);
	win = malloc(g->used * sizeof *win);
	if (win == NULL) {
		fprintf(stderr, "bots: soltable: out of memory\n");
		return 1;
	}
	for (i = 0; i < (size_t)1 << SOLGEN_BITS; i++)
		if ((g->slot[i] & SOLGEN_WIN) &&
		    __builtin_popcountll(g->slot[i] & SOLGEN_KEY) >= minpegs)
			win[n++] = g->slot[i] & SOLGEN_KEY;
	qsort(win, n, sizeof *win, bots_cmp_u64);
	printf("tablero-solitaire-win %d %d %d %llx %d %zu\n", b->rows, b->cols,
	    b->goal, (unsigned long long)tb.usable, minpegs, n);
	for (i = 0; i < n; i++)
		for (k = 0; k < AI_SOLTAB_KEY_BYTES; k++)
			putchar((int)(win[i] >> (8 * k) & 255));
	fprintf(stderr,
	    "bots: soltable %s: %zu classes reachable, %zu "
	    "winnable with %d pegs or more\n",
	    board, g->used, n, minpegs);
	free(win);
	free(g->slot);
	free(g);
	return 0;
}

/* Every built-in solitaire board's hint times (the board option's
 * choices). */
static int
bots_hints(void)
{
	const struct rules_optdesc *o;

	for (o = rules_solitaire.options; o->name != NULL; o++) {
		const char *p, *bar;

		if (strcmp(o->name, "board") != 0 || o->choices == NULL)
			continue;
		for (p = o->choices; *p != '\0'; p = *bar ? bar + 1 : bar) {
			char name[32];
			size_t len;

			bar = strchr(p, '|');
			if (bar == NULL)
				bar = p + strlen(p);
			len = (size_t)(bar - p) < sizeof name - 1
			    ? (size_t)(bar - p)
			    : sizeof name - 1;
			memcpy(name, p, len);
			name[len] = '\0';
			bots_hints_board(name);
			bots_hints_random(name, 0, ai_solitaire_solve, "hints");
			bots_hints_random(
			    name, BOTS_HINT_EARLY, ai_solitaire_solve, "hints");
			bots_hints_random(name, BOTS_HINT_EARLY,
			    ai_solitaire_search, "search alone");
		}
	}
	return 0;
}

/* Ataxx endings for the solver (ai/ataxx_solve.c): COUNT positions with
 * EMPTY empty squares or fewer, reached by level 3 (noisy, quick) from
 * random four-ply openings (the same every run), each solved for a win
 * for the side to move with up to MS milliseconds; the answers and the
 * times. */
static int
bots_endings(int empty, int count, long ms)
{
	const struct rules_game *g = &rules_ataxx;
	double *t = calloc((size_t)count + 1, sizeof *t);
	int i, won = 0, open = 0, unknown = 0, longest = 0, opening = 0;
	long nodes = 0;
	double total = 0;

	if (t == NULL)
		return 1;
	for (i = 0; i < count; i++) {
		struct bots_state st;
		struct rules_rng rng;
		struct ai_ataxx_proof pf;
		struct rules_status s;
		uint64_t t0;
		int ply, r;

		rules_rng_seed(&rng, 5000 + (uint64_t)++opening);
		bots_new(g, &st);
		for (ply = 0;; ply++) {
			struct rules_move m;
			struct ai_report rep;
			const struct ataxx_state *as = (const void *)st.b;
			ataxx_bb e = ataxx_board(as->size) &
			    ~(ataxx_get(as->piece[0]) |
			        ataxx_get(as->piece[1]) | ataxx_get(as->gap));

			rules_status(g, st.b, &s);
			if (s.result != RULES_PLAYING || ataxx_pop(e) <= empty)
				break;
			if (bots_move(g, st.b, ply < BOTS_OPENING_PLIES ? 0 : 3,
			        NULL, 0.05, (uint64_t)(opening * 1000 + ply),
			        &rng, &m, &rep) != 0)
				break;
			g->apply(st.b, m);
		}
		if (s.result != RULES_PLAYING && opening < 10 * count) {
			i--; /* over before it got there: another opening */
			continue;
		}
		memset(&pf, 0, sizeof pf);
		pf.lead = 1;
		pf.plies = 2 * empty + 4;
		t0 = ai_clock_ms();
		pf.deadline = t0 + (uint64_t)ms;
		r = ai_ataxx_solve(st.b, &pf);
		t[i] = (double)(ai_clock_ms() - t0);
		total += t[i];
		nodes += pf.nodes;
		if (getenv("BOTS_VERBOSE") != NULL) {
			char fen[200];

			g->to_position(st.b, fen, sizeof fen);
			fprintf(stderr,
			    "%s: %d in %d plies, %.0f ms, %ld nodes\n", fen, r,
			    pf.length, t[i], pf.nodes);
		}
		won += r == 1;
		open += r == 0;
		unknown += r < 0;
		if (r == 1 && pf.length > longest)
			longest = pf.length;
	}
	qsort(t, (size_t)count, sizeof *t, bots_cmp_double);
	printf("ataxx endings, <= %d empty, %d positions: won %d (longest "
	       "%d plies), not won %d, unknown after %ld ms %d; median %.0f "
	       "ms, max %.0f ms, %.0f nodes/s\n",
	    empty, count, won, longest, open, ms, unknown,
	    count > 0 ? t[count / 2] : 0.0, count > 0 ? t[count - 1] : 0.0,
	    total > 0 ? nodes * 1000.0 / total : 0.0);
	free(t);
	return 0;
}

/* A middle game: BOTS_MID plies of level-1 play from the start. */
#define BOTS_MID 20

static void
bots_speed_at(const struct rules_game *g, const void *st, const char *where)
{
	int level;

	for (level = AI_LEVEL_MIN; level <= AI_LEVEL_MAX; level++) {
		struct ai_limits lim;
		struct ai_report rep;
		struct rules_move m;

		ai_limits_level(&lim, level, 7);
		if (ai_bot_move(g, st, &lim, &m, &rep) != 0)
			return;
		printf("%s level %d %s: %ld ms (limit %ld), depth %d, %ld "
		       "nodes, %.0f nodes/s\n",
		    g->name, level, where, rep.ms, lim.ms, rep.depth, rep.nodes,
		    rep.ms > 0 ? rep.nodes * 1000.0 / rep.ms : 0.0);
	}
}

static int
bots_speed(const struct rules_game *g)
{
	struct bots_state st;
	struct rules_rng rng;
	int i;

	bots_new(g, &st);
	bots_speed_at(g, st.b, "start");
	rules_rng_seed(&rng, 1);
	for (i = 0; i < BOTS_MID; i++) {
		struct rules_move m;
		struct ai_report rep;

		if (bots_move(g, st.b, 1, NULL, 1.0, (uint64_t)i, &rng, &m,
		        &rep) != 0)
			return 0;
		g->apply(st.b, m);
	}
	bots_speed_at(g, st.b, "middle");
	return 0;
}

/* Positions `bots depth` times: the start and random openings. */
#define BOTS_DEPTH_MAX 64

static int
bots_cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/* Player p's search at its full time (or, depth > 0, to that depth
 * whatever the time) from the start and from n - 1 openings of
 * BOTS_OPENING_PLIES random plies: each position's depth, nodes and time,
 * then the medians (docs/ENGINES.md's "depth at 2 s"). */
static int
bots_depth(const struct rules_game *g, int n, int p, int fixed)
{
	long depth[BOTS_DEPTH_MAX], rate[BOTS_DEPTH_MAX];
	int i, k;

	if (n < 1 || n > BOTS_DEPTH_MAX)
		n = n < 1 ? 1 : BOTS_DEPTH_MAX;
	for (i = 0; i < n; i++) {
		struct bots_state st;
		struct rules_rng rng;
		struct rules_move m;
		struct ai_report rep;

		bots_new(g, &st);
		rules_rng_seed(&rng, (uint64_t)i);
		for (k = 0; i > 0 && k < BOTS_OPENING_PLIES; k++) {
			if (bots_random(g, st.b, &rng, &m) != 0)
				return 1;
			g->apply(st.b, m);
		}
		if (fixed > 0) {
			struct ai_limits lim;

			ai_limits_level(&lim, AI_LEVEL_MAX, 7);
			lim.depth = fixed;
			lim.ms = 600000;
			lim.weights = bots_w[0];
			if (ai_bot_move(g, st.b, &lim, &m, &rep) != 0)
				return 1;
		} else if (bots_move(g, st.b, p, bots_w[0], 1.0, 7, &rng, &m,
		               &rep) != 0)
			return 1;
		depth[i] = rep.depth;
		rate[i] = rep.ms > 0 ? rep.nodes * 1000 / rep.ms : 0;
		printf("%s depth %s: opening %d: %ld ms, depth %d, %ld nodes, "
		       "%ld nodes/s\n",
		    g->name, p == BOTS_PREV ? "prev" : "level", i, rep.ms,
		    rep.depth, rep.nodes, rate[i]);
	}
	qsort(depth, (size_t)n, sizeof *depth, bots_cmp_long);
	qsort(rate, (size_t)n, sizeof *rate, bots_cmp_long);
	printf("%s depth at full time from the opening (%d positions): median "
	       "depth %ld, median %ld nodes/s\n",
	    g->name, n, depth[n / 2], rate[n / 2]);
	return 0;
}

/* Self-play for tuning the Amazons evaluation (bench/amazons_texel.py):
 * GAMES games of level 5 at a fixed depth from BOTS_TEXEL_RANDOM random
 * plies (openings FIRST, FIRST + 1, ...), and for each later position one
 * line: the result for the side to move (1 or 0: Amazons has no draw),
 * the arrows on the board (the phase), then the terms' counts in enum
 * am_weight's order (ai/amazons_engine.c). A game ends once the sides are
 * apart and every region is counted exactly (ai_amazons_count): its
 * result is then known, the side to move winning with more moves left,
 * and the evaluation is that count, with no weight to fit. */
static int
bots_texel_amazons(int games, int depth, int first)
{
	const struct rules_game *g = &rules_amazons;
	static int rec[BOTS_PLIES_MAX][1 + AI_WEIGHTS];
	static int turn[BOTS_PLIES_MAX];
	int i, k, j;

	for (i = 0; i < games; i++) {
		struct bots_state st;
		const struct amazons_state *as = (const void *)st.b;
		struct rules_status s;
		struct rules_rng rng;
		int ply, n = 0, white = -1, left[2];

		rules_rng_seed(&rng, (uint64_t)(first + i));
		bots_new(g, &st);
		for (ply = 0; ply < BOTS_PLIES_MAX; ply++) {
			struct rules_move m;
			struct ai_limits lim;
			struct ai_report rep;

			rules_status(g, st.b, &s);
			if (s.result != RULES_PLAYING)
				break;
			if (ply < BOTS_TEXEL_RANDOM) {
				if (bots_random(g, st.b, &rng, &m) != 0)
					break;
				g->apply(st.b, m);
				continue;
			}
			if (ai_amazons_count(st.b, left) == 1) {
				white = as->turn == 0 ? left[0] > left[1]
				                      : left[0] >= left[1];
				break;
			}
			turn[n] = g->turn(st.b);
			ai_amazons_terms(st.b, rec[n] + 1);
			rec[n][0] = __builtin_popcountll(as->arrows[0]) +
			    __builtin_popcountll(as->arrows[1]);
			n++;
			ai_limits_level(&lim, AI_LEVEL_MAX, 1);
			lim.depth = depth;
			lim.ms = 600000;
			if (ai_bot_move(g, st.b, &lim, &m, &rep) != 0)
				break;
			g->apply(st.b, m);
		}
		if (white < 0) {
			rules_status(g, st.b, &s);
			white = s.result == RULES_WIN && s.winner == 0;
		}
		for (k = 0; k < n; k++) {
			printf("%d", turn[k] == 0 ? white : 1 - white);
			for (j = 0; j < 1 + AI_WEIGHTS; j++)
				printf(",%d", rec[k][j]);
			printf("\n");
		}
		fprintf(stderr, "\rtexel amazons: %d/%d games", i + 1, games);
	}
	fprintf(stderr, "\n");
	return 0;
}

/* Every set of three first pegs: the value for the first player, counted,
 * and the losing and winning sets named. */
static void
bots_stones_triples(const struct bots_state *start)
{
	int a, b, c, count[3] = {0, 0, 0};

	for (a = 0; a < 9; a++)
		for (b = a + 1; b < 9; b++)
			for (c = b + 1; c < 9; c++) {
				struct bots_state st = *start;
				struct rules_move m = {
				    RULES_NONE, 0, RULES_NONE};
				struct rules_move mv[16];
				int sq[3] = {a, b, c}, k, n, v;

				for (k = 0; k < 3; k++) {
					m.to = (int16_t)sq[k];
					n = rules_stones.legal_moves(
					    st.b, mv, 16);
					if (!rules_move_listed(mv, n, m))
						break;
					rules_stones.apply(st.b, m);
				}
				if (k < 3)
					continue;
				/* the second player is to move: turn it round
				 */
				v = -ai_stones_value(st.b, NULL);
				count[v + 1]++;
				if (v >= 0)
					printf("stones: first pegs %c%d %c%d "
					       "%c%d: "
					       "the first player %s\n",
					    'A' + a / 3, a % 3 + 1, 'A' + b / 3,
					    b % 3 + 1, 'A' + c / 3, c % 3 + 1,
					    v > 0 ? "wins" : "draws");
			}
	printf("stones: of the %d legal sets of first pegs, %d lose, %d draw, "
	       "%d win for the first player\n",
	    count[0] + count[1] + count[2], count[0], count[1], count[2]);
}

/* Stones under perfect play: the value from the start and after each
 * first placement, for the player who places first. */
static int
bots_stones(void)
{
	static const char *const word[] = {"loses", "draws", "wins"};
	struct bots_state st, next;
	struct rules_move mv[16];
	int n, i, plies, v;

	bots_new(&rules_stones, &st);
	v = ai_stones_value(st.b, &plies);
	printf("stones: the first player %s (%d plies)\n", word[v + 1], plies);
	n = rules_stones.legal_moves(st.b, mv, 16);
	for (i = 0; i < n; i++) {
		char text[16];

		next = st;
		rules_stones.format_move(st.b, mv[i], text, sizeof text);
		rules_stones.apply(next.b, mv[i]);
		v = ai_stones_value(next.b, &plies);
		printf("stones: first peg on %s: the first player %s (%d "
		       "plies)\n",
		    text, word[v + 1], plies);
	}
	bots_stones_triples(&st);
	return 0;
}

int
main(int argc, char **argv)
{
	const struct rules_game *g = argc > 2 ? rules_find(argv[2]) : NULL;

	if (argc == 2 && strcmp(argv[1], "stones") == 0)
		return bots_stones();
	if (g != NULL && argc == 4 && strcmp(argv[1], "speed") == 0) {
		bots_size = argv[3];
		return bots_speed(g);
	}
	if (g != NULL && argc == 3 && strcmp(argv[1], "speed") == 0)
		return bots_speed(g);
	bots_read_weights(0, "BOTS_WEIGHTS");
	bots_read_weights(1, "BOTS_WEIGHTS_B");
	if (argc == 2 && strcmp(argv[1], "hints") == 0)
		return bots_hints();
	if (argc == 4 && strcmp(argv[1], "soltable") == 0)
		return bots_soltable(argv[2], atoi(argv[3]));
	if (argc == 5 && strcmp(argv[1], "endings") == 0)
		return bots_endings(
		    atoi(argv[2]), atoi(argv[3]), atol(argv[4]));
	if (argc == 6 && strcmp(argv[1], "texel") == 0 &&
	    strcmp(argv[2], "amazons") == 0)
		return bots_texel_amazons(
		    atoi(argv[3]), atoi(argv[4]), atoi(argv[5]));
	if (argc == 5 && strcmp(argv[1], "texel") == 0)
		return bots_texel(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
	if (g != NULL && argc >= 4 && argc <= 6 &&
	    strcmp(argv[1], "depth") == 0)
		return bots_depth(g, atoi(argv[3]),
		    argc >= 5 ? bots_player(argv[4]) : AI_LEVEL_MAX,
		    argc == 6 ? atoi(argv[5]) : 0);
	if (g != NULL && (argc == 7 || argc == 8) &&
	    strcmp(argv[1], "ladder") == 0)
		return bots_ladder(g, argv[3], argv[4], atoi(argv[5]),
		    atof(argv[6]), argc == 8 ? atoi(argv[7]) : 1);
	fprintf(stderr,
	    "usage: bots speed GAME [ATAXX_SIZE]\n"
	    "       bots stones\n"
	    "       bots hints   (the solitaire boards' hint times)\n"
	    "       bots soltable BOARD MIN > data/solitaire/BOARD.win\n"
	    "       bots endings EMPTY COUNT MS   (the Ataxx endings "
	    "solver)\n"
	    "       bots texel GAMES DEPTH FIRST   (Ataxx self-play for "
	    "bench/texel.py, bench/ataxx_net.py)\n"
	    "       bots depth GAME POSITIONS [PLAYER [DEPTH]]   (depth at "
	    "full time from the opening; nodes to a fixed depth)\n"
	    "       bots texel amazons GAMES DEPTH FIRST   (Amazons self-play "
	    "for bench/amazons_texel.py)\n"
	    "       bots ladder GAME A B GAMES SCALE [FIRST_OPENING]   (A, B: "
	    "1-5, random, old, prev, wide, 1p-5p)\n");
	return 2;
}
