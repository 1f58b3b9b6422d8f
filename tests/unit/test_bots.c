/*
 * test_bots.c: the computer players. Stones: the solver agrees with a plain
 * minimax on every position it can see the end of, and the bot never loses
 * to a random player. Ataxx and Amazons: the engines play legal moves at
 * every level, on every Ataxx size and with blocked squares, take a win in
 * one, keep to an explicit depth, and stop when cancelled. No timings: the
 * speed is shown by `make bench`.
 */
#include <stdio.h>
#include <string.h>

#include "ai/ai.h"
#include "check.h"
#include "rules/amazons.h"
#include "rules/ataxx.h"
#include "rules/games.h"

struct state {
	_Alignas(16) unsigned char b[RULES_STATE_MAX];
};

static void
new_game(const struct rules_game *g, struct state *st, const char *key,
    const char *val)
{
	struct rules_opt opt = {key, val};
	char err[RULES_ERR_MAX] = "";

	CHECK_INT(
	    g->init(st->b, &opt, key != NULL ? 1 : 0, err, sizeof err), 0);
}

static void
load(const struct rules_game *g, struct state *st, const char *pos)
{
	char err[RULES_ERR_MAX] = "";

	CHECK_INT(g->from_position(st->b, pos, err, sizeof err), 0);
	CHECK_STR(err, "");
}

/* Is m among the legal moves of st? */
static int
legal(const struct rules_game *g, const void *st, struct rules_move m)
{
	static struct rules_move mv[RULES_MAX_MOVES];
	int n = g->legal_moves(st, mv, RULES_MAX_MOVES);

	return rules_move_listed(mv, n, m);
}

/* Plain minimax on the rules interface: +1 won, -1 lost, 0 unknown within
 * depth plies, for the side to move. */
static int
minimax(const struct rules_game *g, const void *st, int depth)
{
	struct rules_move mv[32];
	struct rules_status s;
	int n, i, me = g->turn(st), all_lost = 1;

	rules_status(g, st, &s);
	if (s.result == RULES_WIN)
		return s.winner == me ? 1 : -1;
	if (s.result != RULES_PLAYING || depth == 0)
		return 0;
	n = g->legal_moves(st, mv, 32);
	for (i = 0; i < n; i++) {
		struct state next;
		int v;

		memcpy(next.b, st, g->state_size);
		g->apply(next.b, mv[i]);
		v = minimax(g, next.b, depth - 1);
		if (g->turn(next.b) != me)
			v = -v;
		if (v == 1)
			return 1;
		if (v != -1)
			all_lost = 0;
	}
	return all_lost ? -1 : 0;
}

/* Random slide-phase positions: where a 7-ply minimax sees a forced end,
 * the solver agrees and within as many plies; where the solver says an end
 * comes within 7 plies, minimax sees it. */
static void
test_stones_solver(void)
{
	struct rules_rng rng;
	int k, decided = 0;

	rules_rng_seed(&rng, 5);
	for (k = 0; k < 300; k++) {
		struct state st;
		struct rules_move mv[32], m;
		int ply, n, plies = 0, v, mm;

		new_game(&rules_stones, &st, "first", k % 2 ? "1" : "2");
		for (ply = 0; ply < 6 + (int)rules_rng_below(&rng, 8); ply++) {
			struct rules_status s;

			rules_status(&rules_stones, st.b, &s);
			if (s.result != RULES_PLAYING)
				break;
			n = rules_stones.legal_moves(st.b, mv, 32);
			m = mv[rules_rng_below(&rng, (unsigned)n)];
			rules_stones.apply(st.b, m);
		}
		v = ai_stones_value(st.b, &plies);
		mm = minimax(&rules_stones, st.b, 7);
		if (mm != 0) {
			decided++;
			CHECK_INT(v, mm);
			CHECK(plies <= 7);
		}
		if (v != 0 && plies <= 7)
			CHECK_INT(mm, v);
	}
	CHECK(decided > 10);
}

/* The Stones bot, either seat, against a random player: never loses. */
static void
test_stones_never_loses(void)
{
	struct rules_rng rng;
	int k, wins = 0;

	rules_rng_seed(&rng, 9);
	for (k = 0; k < 40; k++) {
		struct state st;
		struct rules_status s;
		int ply, bot = k % 2;

		new_game(&rules_stones, &st, "first", k % 4 < 2 ? "1" : "2");
		for (ply = 0; ply < 200; ply++) {
			struct rules_move mv[32], m;
			struct ai_limits lim;

			rules_status(&rules_stones, st.b, &s);
			if (s.result != RULES_PLAYING)
				break;
			if (rules_stones.turn(st.b) == bot) {
				ai_limits_level(&lim, 1, (uint64_t)k);
				CHECK_INT(ai_bot_move(&rules_stones, st.b, &lim,
				              &m, NULL),
				    0);
			} else {
				int n = rules_stones.legal_moves(st.b, mv, 32);

				m = mv[rules_rng_below(&rng, (unsigned)n)];
			}
			CHECK(legal(&rules_stones, st.b, m));
			rules_stones.apply(st.b, m);
		}
		rules_status(&rules_stones, st.b, &s);
		CHECK(!(s.result == RULES_WIN && s.winner != bot));
		wins += s.result == RULES_WIN && s.winner == bot;
	}
	CHECK(wins > 20);
}

/* A few plies of every level on every Ataxx size: all legal. */
static void
test_ataxx_levels(void)
{
	int size, level;

	for (size = 5; size <= 9; size++) {
		for (level = AI_LEVEL_MIN; level <= AI_LEVEL_MAX; level++) {
			struct state st;
			char val[16];
			int ply;

			snprintf(val, sizeof val, "%d", size);
			new_game(&rules_ataxx, &st, "size", val);
			for (ply = 0; ply < 3; ply++) {
				struct ai_limits lim;
				struct rules_move m;

				ai_limits_level(&lim, level, (uint64_t)ply);
				lim.ms = 20;
				CHECK_INT(ai_bot_move(&rules_ataxx, st.b, &lim,
				              &m, NULL),
				    0);
				CHECK(legal(&rules_ataxx, st.b, m));
				rules_ataxx.apply(st.b, m);
			}
		}
	}
}

/* The bot's move from a position, with an explicit depth, plain or not
 * (Ataxx: material alone and the plain search), and evaluation weights
 * (NULL: the engine's own). */
static struct rules_move
bot_weighed(const struct rules_game *g, const void *st, int depth, int plain,
    const int *weights, struct ai_report *rep)
{
	struct ai_limits lim;
	struct rules_move m = {RULES_NONE, RULES_NONE, RULES_NONE};

	ai_limits_level(&lim, AI_LEVEL_MAX, 1);
	lim.depth = depth;
	lim.plain = plain;
	lim.weights = weights;
	lim.ms = 60000;
	CHECK_INT(ai_bot_move(g, st, &lim, &m, rep), 0);
	CHECK(legal(g, st, m));
	return m;
}

/* The bot's move from a position, with an explicit depth. */
static struct rules_move
bot_depth(const struct rules_game *g, const void *st, int depth,
    struct ai_report *rep)
{
	return bot_weighed(g, st, depth, 0, NULL, rep);
}

/* Blocked squares, a win in one (take the last black piece), a pass, and
 * the depth option. */
static void
test_ataxx_positions(void)
{
	struct state st;
	struct ai_report rep;
	struct rules_move m;
	struct rules_status s;

	new_game(&rules_ataxx, &st, "size", "7");
	load(&rules_ataxx, &st, "x-1-1-o/7/2-1-2/7/2-1-2/7/o-1-1-x x 0 1");
	m = bot_depth(&rules_ataxx, st.b, 3, &rep);
	CHECK(rep.depth <= 3);
	/* white takes the only black piece next to its clone square */
	load(&rules_ataxx, &st, "xx5/1o5/7/7/7/7/7 x 0 1");
	m = bot_depth(&rules_ataxx, st.b, 4, &rep);
	rules_ataxx.apply(st.b, m);
	rules_status(&rules_ataxx, st.b, &s);
	CHECK_INT(s.result, RULES_WIN);
	CHECK_INT(s.winner, 0);
	/* black cannot move: its only move is the pass */
	load(&rules_ataxx, &st, "oxxxxxx/xxxxxxx/xxxxxxx/7/7/7/7 o 0 1");
	m = bot_depth(&rules_ataxx, st.b, 4, &rep);
	CHECK_INT(m.to, RULES_NONE);
	/* explicit depth: never deeper than asked */
	new_game(&rules_ataxx, &st, "size", "7");
	bot_depth(&rules_ataxx, st.b, 2, &rep);
	CHECK_INT(rep.depth, 2);
	bot_depth(&rules_ataxx, st.b, 5, &rep);
	CHECK_INT(rep.depth, 5);
}

/* What cell (r, c) of an Ataxx board holds: 0 empty, 1 the side to move,
 * 2 the other side, 3 off the board or blocked. */
static int
ataxx_at(const struct ataxx_state *s, int r, int c)
{
	int bit = r * ATAXX_STRIDE + c;

	if (r < 0 || c < 0 || r >= s->size || c >= s->size ||
	    (ataxx_get(s->gap) >> bit & 1))
		return 3;
	if (ataxx_get(s->piece[s->turn]) >> bit & 1)
		return 1;
	if (ataxx_get(s->piece[!s->turn]) >> bit & 1)
		return 2;
	return 0;
}

/* Whether cell (r, c) has a neighbour holding `what`. */
static int
ataxx_beside(const struct ataxx_state *s, int r, int c, int what)
{
	int dr, dc;

	for (dr = -1; dr <= 1; dr++)
		for (dc = -1; dc <= 1; dc++)
			if ((dr != 0 || dc != 0) &&
			    ataxx_at(s, r + dr, c + dc) == what)
				return 1;
	return 0;
}

/* Indices of the engine's weights (enum ax_weight) the tests set. */
enum { W_TEMPO = 3, W_FULL = 8, W_EDGE = 12, W_CORNER = 13, W_NET = 14 };

/* The counts behind the engine's terms beyond material (ataxx_engine.c's
 * ax_terms and ax_squares), square by square, for the side to move, in
 * its weights' order; the empty squares in *empty and the playable ones
 * in *squares. */
static void
ataxx_counts(
    const struct ataxx_state *s, int t[AI_WEIGHTS], int *empty, int *squares)
{
	int r, c, n = s->size;

	memset(t, 0, AI_WEIGHTS * sizeof *t);
	t[W_TEMPO] = 1;
	*empty = *squares = 0;
	for (r = 0; r < n; r++)
		for (c = 0; c < n; c++) {
			int at = ataxx_at(s, r, c), sign = at == 1 ? 1 : -1;
			int mine = ataxx_beside(s, r, c, 1);
			int theirs = ataxx_beside(s, r, c, 2);
			int ring = r < c ? r : c;

			ring = n - 1 - r < ring ? n - 1 - r : ring;
			ring = n - 1 - c < ring ? n - 1 - c : ring;
			*squares += at != 3;
			*empty += at == 0;
			if ((at == 1 || at == 2) && ataxx_beside(s, r, c, 0))
				t[0] += sign;
			if ((at == 1 || at == 2) && ring == 0)
				t[W_EDGE] += sign;
			if ((at == 1 || at == 2) && (r == 0 || r == n - 1) &&
			    (c == 0 || c == n - 1))
				t[W_CORNER] += sign;
			if (at != 0)
				continue;
			t[1] += mine - theirs;
			t[2] += (mine && !theirs) - (theirs && !mine);
		}
}

/* The engine's terms beyond material (ataxx_engine.c's ax_shape), square
 * by square, for the side to move. */
static int
ataxx_shape(const struct ataxx_state *s, const int *w)
{
	int t[AI_WEIGHTS], empty, squares, i, v = 0;

	ataxx_counts(s, t, &empty, &squares);
	for (i = 0; i < 4; i++)
		v += w[i] * t[i];
	return v + w[W_EDGE] * t[W_EDGE] + w[W_CORNER] * t[W_CORNER];
}

/* The neural evaluation (AX_W_NET) from the square-by-square counts, with
 * material `mat` (pieces) and the tempo weight w[W_TEMPO] (`mover` 1:
 * handed over, as in the engine's shortcut one ply before the leaves). */
static int
ataxx_net_value(const struct ataxx_state *s, int mat, int mover, const int *w)
{
	int t[AI_WEIGHTS], x[AI_ATAXX_NET_IN], empty, squares;

	ataxx_counts(s, t, &empty, &squares);
	x[0] = mat;
	x[1] = t[0];
	x[2] = t[1];
	x[3] = t[W_EDGE];
	x[4] = t[W_CORNER];
	return 100 * mat + ai_ataxx_net(x, empty, squares) +
	    (mover ? -w[W_TEMPO] : w[W_TEMPO]);
}

/* The side to move's pieces minus the other side's. */
static int
ataxx_material(const void *st)
{
	struct rules_status s;
	int me = rules_ataxx.turn(st);

	rules_status(&rules_ataxx, st, &s);
	return s.score[me] - s.score[1 - me];
}

/* The best material the side to move has after one move, or -1000000
 * when the engine's shortcut one ply before the leaves does not apply (no
 * move but a pass, at most one empty square, or a move that takes every
 * opposing piece). */
static int
ataxx_one_ply(const void *st)
{
	const struct ataxx_state *s = st;
	struct rules_move mv[RULES_MAX_MOVES / 8];
	int me = s->turn, n, i, r, c, empty = 0, best = -1000000;

	for (r = 0; r < s->size; r++)
		for (c = 0; c < s->size; c++)
			empty += ataxx_at(s, r, c) == 0;
	n = rules_ataxx.legal_moves(st, mv, RULES_MAX_MOVES / 8);
	if (empty <= 1 || n == 0 || mv[0].to == RULES_NONE)
		return -1000000;
	for (i = 0; i < n; i++) {
		struct state next;
		struct rules_status t;

		memcpy(next.b, st, rules_ataxx.state_size);
		rules_ataxx.apply(next.b, mv[i]);
		rules_status(&rules_ataxx, next.b, &t);
		if (t.score[1 - me] == 0)
			return -1000000;
		if (100 * (t.score[me] - t.score[1 - me]) > best)
			best = 100 * (t.score[me] - t.score[1 - me]);
	}
	return best;
}

/* Negamax over the rules interface with the engine's scoring and its
 * whole evaluation (weights w, no reductions): material x100 plus the
 * shape terms, a finished game +-(100000 - ply); at depth 0 a game ended
 * by "neither side can move" still counts as material, as the engine only
 * finds that out when it looks for moves; one ply before the leaves the
 * engine's shortcut unless w[8] (the best material after one move plus
 * this position's shape, the move handing the tempo over). */
static int
ataxx_negamax_shape(const void *st, int depth, int ply, const int *w)
{
	struct rules_move mv[RULES_MAX_MOVES / 8];
	struct rules_status s;
	int me = rules_ataxx.turn(st), n, i, best = -1000000;

	rules_status(&rules_ataxx, st, &s);
	if (s.result != RULES_PLAYING &&
	    (depth > 0 || strcmp(s.reason, "neither side can move") != 0)) {
		if (s.result == RULES_DRAW)
			return 0;
		return s.winner == me ? 100000 - ply : -100000 + ply;
	}
	if (depth == 0 && w[W_NET])
		return ataxx_net_value(st, s.score[me] - s.score[1 - me], 0, w);
	if (depth == 0)
		return 100 * (s.score[me] - s.score[1 - me]) +
		    ataxx_shape(st, w);
	if (depth == 1 && !w[W_FULL] && (n = ataxx_one_ply(st)) > -1000000)
		return w[W_NET] ? ataxx_net_value(st, n / 100, 1, w)
		                : n + ataxx_shape(st, w) - 2 * w[W_TEMPO];
	n = rules_ataxx.legal_moves(st, mv, RULES_MAX_MOVES / 8);
	for (i = 0; i < n; i++) {
		struct state next;
		int v;

		memcpy(next.b, st, rules_ataxx.state_size);
		rules_ataxx.apply(next.b, mv[i]);
		v = -ataxx_negamax_shape(next.b, depth - 1, ply + 1, w);
		if (v > best)
			best = v;
	}
	return best;
}

/* Plain negamax: material alone, every move made down to the leaves. */
static int
ataxx_negamax(const void *st, int depth, int ply)
{
	static const int plain[AI_WEIGHTS] = {[8] = 1};

	return ataxx_negamax_shape(st, depth, ply, plain);
}

/* Random Ataxx moves from st (a bound drawn anew below `most` each ply):
 * whether the side to move then has a move. */
static int
ataxx_wander(struct state *st, struct rules_rng *rng, unsigned most)
{
	struct rules_move mv[RULES_MAX_MOVES / 8];
	int ply, n;

	for (ply = 0; ply < (int)rules_rng_below(rng, most); ply++) {
		n = rules_ataxx.legal_moves(st->b, mv, RULES_MAX_MOVES / 8);
		if (n == 0)
			break;
		rules_ataxx.apply(st->b, mv[rules_rng_below(rng, (unsigned)n)]);
	}
	return rules_ataxx.legal_moves(st->b, mv, 1) > 0;
}

/* With its evaluation's terms (and no reductions), the engine's score at
 * depths 1 to 3 (3 in an aspiration window; with and without the shortcut
 * one ply before the leaves, with one or two table slots a key; with the
 * linear terms, the piece-square ones among them, or the neural
 * evaluation) equals negamax's with the same terms counted square by
 * square, on every size (the shifts that find neighbours do not wrap, the
 * edge and corners are each size's); the tuner's counts are those. */
static void
test_ataxx_shape(void)
{
	static const int ws[4][AI_WEIGHTS] = {
	    {-23, 7, 11, 5, 0, 50, 0, 1, 0, 0, 0, 0, 13, 29},
	    {-23, 7, 11, 5, 0, 50, 0, 0, 1, 0, 0, 0, -17, 41},
	    {-23, 7, 11, 5, 0, 50, 0, 1, 0, 0, 0, 0, 13, 29, 1},
	    {-23, 7, 11, 5, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1}};
	struct rules_rng rng;
	int k;

	rules_rng_seed(&rng, 12);
	for (k = 0; k < 120; k++) {
		struct state st;
		struct ai_report rep;
		char val[16];
		int depth = 1 + k % 3, t[AI_WEIGHTS], mat, i, v;
		int tc[AI_WEIGHTS], empty, squares;
		const int *w = ws[k % 4];

		snprintf(val, sizeof val, "%d", 5 + k % 5);
		new_game(&rules_ataxx, &st, "size", val);
		if (!ataxx_wander(&st, &rng, 60))
			continue;
		bot_weighed(&rules_ataxx, st.b, depth, 0, w, &rep);
		CHECK_INT(rep.score, ataxx_negamax_shape(st.b, depth, 0, w));
		/* the counts the tuner reads weigh up to the same */
		mat = ai_ataxx_terms(st.b, t);
		for (i = 0, v = 0; i < AI_WEIGHTS; i++)
			v += w[i] * t[i];
		CHECK_INT(v, ataxx_shape((const void *)st.b, w));
		CHECK_INT(mat, ataxx_material(st.b));
		/* and each count is the square-by-square one */
		ataxx_counts((const void *)st.b, tc, &empty, &squares);
		for (i = 0; i < AI_WEIGHTS; i++)
			CHECK_INT(t[i], tc[i]);
	}
}

/* The engine's exact-depth score equals plain negamax's, from random
 * positions of every size (its shortcut one ply before the leaves, its
 * table and its pruning change nothing). */
static void
test_ataxx_scores(void)
{
	struct rules_rng rng;
	int k;

	rules_rng_seed(&rng, 11);
	for (k = 0; k < 60; k++) {
		struct state st;
		struct ai_report rep;
		char val[16];
		int depth = 1 + k % 3;

		snprintf(val, sizeof val, "%d", 5 + k % 5);
		new_game(&rules_ataxx, &st, "size", val);
		if (!ataxx_wander(&st, &rng, 60))
			continue;
		bot_weighed(&rules_ataxx, st.b, depth, 1, NULL, &rep);
		CHECK_INT(rep.score, ataxx_negamax(st.b, depth, 0));
	}
}

/* The engine's two copies, on 128-bit and on 64-bit bitboards, search
 * alike on boards up to 7x7: the same move, score, depth and positions
 * searched at explicit depths, from random positions with and without
 * blocked squares, with the default weights and with the noise of level
 * 1 (the 64-bit copy plays every such board). */
static void
test_ataxx_widths(void)
{
	static const char *const gaps[] = {NULL,
	    "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1", "x3o/1-1-1/5/1-1-1/o3x o 0 1"};
	struct rules_rng rng;
	int k;

	rules_rng_seed(&rng, 13);
	for (k = 0; k < 45; k++) {
		struct state st;
		struct ai_limits lim;
		struct ai_report r64, r128;
		struct rules_move m64, m128;
		char val[16];

		snprintf(val, sizeof val, "%d", 5 + k % 3);
		if (gaps[k % 3] != NULL)
			load(&rules_ataxx, &st, gaps[k % 3]);
		else
			new_game(&rules_ataxx, &st, "size", val);
		if (!ataxx_wander(&st, &rng, 90))
			continue;
		ai_limits_level(&lim, k % 2 ? 1 : AI_LEVEL_MAX, (uint64_t)k);
		lim.depth = k % 2 ? 0 : 1 + k % 5;
		lim.ms = 60000;
		memset(&r64, 0, sizeof r64);
		memset(&r128, 0, sizeof r128);
		CHECK_INT(ai_ataxx_move64(st.b, &lim, &m64, &r64), 0);
		CHECK_INT(ai_ataxx_move128(st.b, &lim, &m128, &r128), 0);
		CHECK_INT(m64.from, m128.from);
		CHECK_INT(m64.to, m128.to);
		CHECK_INT(r64.score, r128.score);
		CHECK_INT(r64.depth, r128.depth);
		CHECK(r64.nodes == r128.nodes);
	}
}

/* A search cancelled before it starts still answers at once, legally. */
static void
test_cancel(void)
{
	const struct rules_game *games[] = {&rules_ataxx, &rules_amazons};
	atomic_int cancel;
	size_t i;

	atomic_init(&cancel, 1);
	for (i = 0; i < 2; i++) {
		struct state st;
		struct ai_limits lim;
		struct ai_report rep;
		struct rules_move m;

		new_game(games[i], &st, NULL, NULL);
		ai_limits_level(&lim, AI_LEVEL_MAX, 3);
		lim.ms = 600000;
		lim.cancel = &cancel;
		CHECK_INT(ai_bot_move(games[i], st.b, &lim, &m, &rep), 0);
		CHECK(legal(games[i], st.b, m));
		CHECK(rep.depth <= 2);
	}
}

/* Amazons: legal moves at every level; a side that can trap the last
 * free amazon of the opponent does. */
static void
test_amazons(void)
{
	struct state st;
	struct ai_report rep;
	struct rules_move m;
	struct rules_status s;
	int level;

	new_game(&rules_amazons, &st, NULL, NULL);
	for (level = AI_LEVEL_MIN; level <= AI_LEVEL_MAX; level++) {
		struct ai_limits lim;

		ai_limits_level(&lim, level, (uint64_t)level);
		lim.ms = 30;
		CHECK_INT(ai_bot_move(&rules_amazons, st.b, &lim, &m, NULL), 0);
		CHECK(legal(&rules_amazons, st.b, m));
		rules_amazons.apply(st.b, m);
	}
	/* random positions, deep into the game: a legal move each time */
	for (level = 0; level < 20; level++) {
		struct rules_rng rng;
		struct rules_move mv[RULES_MAX_MOVES / 2];
		struct ai_limits lim;
		int ply, n;

		rules_rng_seed(&rng, (uint64_t)level + 40);
		new_game(&rules_amazons, &st, NULL, NULL);
		for (ply = 0; ply < 10 + 3 * level; ply++) {
			n = rules_amazons.legal_moves(
			    st.b, mv, RULES_MAX_MOVES / 2);
			if (n == 0)
				break;
			rules_amazons.apply(
			    st.b, mv[rules_rng_below(&rng, (unsigned)n)]);
		}
		if (rules_amazons.legal_moves(st.b, mv, 1) == 0)
			continue;
		ai_limits_level(&lim, 1 + level % AI_LEVEL_MAX, 1);
		lim.ms = 20;
		CHECK_INT(ai_bot_move(&rules_amazons, st.b, &lim, &m, NULL), 0);
		CHECK(legal(&rules_amazons, st.b, m));
	}
	/* three black amazons are walled in; the one on a10 has b10 as its
	 * only way out: white wins by shooting there (or standing there) */
	load(&rules_amazons, &st,
	    "B1x7/xx8/10/10/4WW4/4WW4/10/8xx/xx6xB/Bx6xB w");
	m = bot_depth(&rules_amazons, st.b, 2, &rep);
	rules_amazons.apply(st.b, m);
	rules_status(&rules_amazons, st.b, &s);
	CHECK_INT(s.result, RULES_WIN);
	CHECK_INT(s.winner, 0);
}

/* Positions the referee below may search, so that it stays quick. */
#define REFEREE_NODES 200000L

/* The most moves side `side` makes alone from st (its turn every time),
 * by a plain search through the rules interface; -1 past *budget. */
static int
amazons_alone(const struct amazons_state *st, int side, long *budget)
{
	struct rules_move mv[512];
	struct amazons_state next = *st;
	int i, n, v, best = 0;

	next.turn = (uint32_t)side;
	n = rules_amazons.legal_moves(&next, mv, 512);
	if (n == 512)
		return -1; /* too large for the referee */
	for (i = 0; i < n; i++) {
		if (--*budget < 0)
			return -1;
		next = *st;
		next.turn = (uint32_t)side;
		rules_amazons.apply(&next, mv[i]);
		v = amazons_alone(&next, side, budget);
		if (v < 0)
			return -1;
		if (v + 1 > best)
			best = v + 1;
	}
	return best;
}

/*
 * Amazons endings: positions where the sides no longer meet, made by
 * random arrows. The engine's count of each side's moves agrees with a
 * plain search, and from every such position the side with more moves to
 * make (counting the move it is to make) wins when the engine plays both
 * sides: a won ending is never thrown away.
 */
static void
test_amazons_endings(void)
{
	struct rules_rng rng;
	struct amazons_state st;
	struct rules_status s;
	struct rules_move m;
	struct ai_report rep;
	int trial, i, sq, side, moves[2], counted = 0, checked = 0, played = 0;
	int wrong = 0, lost = 0;

	rules_rng_seed(&rng, 23);
	for (trial = 0; trial < 4000; trial++) {
		memset(&st, 0, sizeof st);
		for (sq = 0; sq < 100; sq++)
			if (rules_rng_below(&rng, 100) < 66)
				st.arrows[sq >> 6] |= (uint64_t)1 << (sq & 63);
		for (i = 0; i < 8; i++) {
			sq = (int)rules_rng_below(&rng, 100);
			if ((st.amz[0][sq >> 6] | st.amz[1][sq >> 6]) >>
			        (sq & 63) &
			    1)
				continue;
			st.arrows[sq >> 6] &= ~((uint64_t)1 << (sq & 63));
			st.amz[i & 1][sq >> 6] |= (uint64_t)1 << (sq & 63);
		}
		st.turn = rules_rng_below(&rng, 2);
		if (ai_amazons_count(&st, moves) != 1)
			continue;
		counted++;
		for (side = 0; side < 2; side++) {
			long budget = REFEREE_NODES;
			int v = amazons_alone(&st, side, &budget);

			if (v < 0)
				continue;
			checked++;
			if (v != moves[side]) {
				wrong++;
				printf("     count %d, referee %d\n",
				    moves[side], v);
			}
		}
		if (moves[st.turn] <= moves[!st.turn] || moves[!st.turn] == 0 ||
		    played == 40)
			continue;
		/* the side to move has more: it wins, whoever it is */
		played++;
		side = (int)st.turn;
		for (i = 0; i < 200; i++) {
			rules_status(&rules_amazons, &st, &s);
			if (s.result != RULES_PLAYING)
				break;
			m = bot_depth(&rules_amazons, &st, 2, &rep);
			rules_amazons.apply(&st, m);
		}
		rules_status(&rules_amazons, &st, &s);
		if (s.result != RULES_WIN || s.winner != side)
			lost++;
	}
	printf("amazons endings: %d counted, %d checked, %d played, %d of them "
	       "thrown away\n",
	    counted, checked, played, lost);
	CHECK_INT(wrong, 0);
	CHECK_INT(lost, 0);
	CHECK(checked > 80);
	CHECK(played == 40);
}

int
main(void)
{
	test_stones_solver();
	test_stones_never_loses();
	test_ataxx_levels();
	test_ataxx_positions();
	test_ataxx_scores();
	test_ataxx_shape();
	test_ataxx_widths();
	test_cancel();
	test_amazons();
	test_amazons_endings();
	return check_done();
}
