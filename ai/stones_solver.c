/*
 * stones_solver.c: perfect play for Stones. The whole game is a few
 * thousand positions, so each call solves every position reachable from the
 * one given (keyed by its position string, which leaves out the repetition
 * history) by retrograde fixed point: won when some move reaches a position
 * lost for the opponent, lost when every move reaches one won for the
 * opponent, drawn when neither ever becomes true (play can go round for
 * ever, and the third repetition draws). The bot wins in the fewest plies,
 * loses in the most, and varies among drawing moves with its seed.
 */
#include <stdlib.h>
#include <string.h>

#include "ai/ai.h"
#include "rules/games.h"

/* The most positions reachable in Stones: about 7,000 (placements and
 * slides, both sides to move); the cap leaves room and bounds memory. */
#define SV_NODES_MAX 16384
/* Hash slots: a power of two above twice the node cap. */
#define SV_SLOTS 32768
/* The position string is 15 characters. */
#define SV_KEY_LEN 16
/* At most 9 placements, or 3 pegs with at most 8 links each. */
#define SV_MOVES_MAX 32
/* Passes of the fixed point; the longest forced game is far shorter. */
#define SV_PASSES_MAX 500

enum { SV_LOST = -1, SV_DRAW = 0, SV_WON = 1, SV_OPEN = 2 };

struct sv_node {
	char key[SV_KEY_LEN];
	int first, n;   /* its children: edge[first .. first + n) */
	int turn;       /* seat to move */
	int8_t val;     /* for the side to move, or SV_OPEN */
	int8_t settled; /* a finished game: val is final */
	int16_t dist;   /* plies to the end of a won or lost game */
};

struct sv {
	struct sv_node *node;
	int nnodes;
	int *slot; /* node index + 1, 0 empty */
	int *edge;
	int nedges;
	_Alignas(16) unsigned char st[RULES_STATE_MAX];
};

static unsigned
sv_hash(const char *key)
{
	unsigned h = 2166136261u;

	for (; *key != '\0'; key++)
		h = (h ^ (unsigned char)*key) * 16777619u;
	return h;
}

/* The node of a position string, added when new; -1 when full. */
static int
sv_intern(struct sv *v, const char *key, const void *st)
{
	unsigned h = sv_hash(key) & (SV_SLOTS - 1);
	struct rules_status s;
	struct sv_node *n;

	for (; v->slot[h] != 0; h = (h + 1) & (SV_SLOTS - 1))
		if (strcmp(v->node[v->slot[h] - 1].key, key) == 0)
			return v->slot[h] - 1;
	if (v->nnodes == SV_NODES_MAX)
		return -1;
	n = &v->node[v->nnodes];
	memset(n, 0, sizeof *n);
	strncpy(n->key, key, SV_KEY_LEN - 1);
	n->turn = rules_stones.turn(st);
	n->val = SV_OPEN;
	rules_stones.status(st, &s);
	if (s.result != RULES_PLAYING) {
		n->settled = 1;
		n->val = s.result != RULES_WIN ? SV_DRAW
		    : s.winner == n->turn      ? SV_WON
		                               : SV_LOST;
	}
	v->slot[h] = ++v->nnodes;
	return v->nnodes - 1;
}

/* The position string of a state. */
static int
sv_key(const void *st, char key[SV_KEY_LEN])
{
	char buf[RULES_LINE_MAX];

	if (rules_stones.to_position(st, buf, sizeof buf) < 0 ||
	    strlen(buf) >= SV_KEY_LEN)
		return -1;
	memcpy(key, buf, strlen(buf) + 1);
	return 0;
}

/* Every position reachable from node 0, with its children; 0 or -1. */
static int
sv_expand(struct sv *v)
{
	int i;

	for (i = 0; i < v->nnodes; i++) {
		struct rules_move mv[SV_MOVES_MAX];
		char err[RULES_ERR_MAX], key[SV_KEY_LEN];
		_Alignas(16) unsigned char child[RULES_STATE_MAX];
		int k, n;

		if (v->node[i].settled)
			continue;
		if (rules_stones.from_position(
		        v->st, v->node[i].key, err, sizeof err) != 0)
			return -1;
		n = rules_stones.legal_moves(v->st, mv, SV_MOVES_MAX);
		v->node[i].first = v->nedges;
		for (k = 0; k < n; k++) {
			int c;

			memcpy(child, v->st, rules_stones.state_size);
			rules_stones.apply(child, mv[k]);
			if (sv_key(child, key) != 0 ||
			    (c = sv_intern(v, key, child)) < 0)
				return -1;
			v->edge[v->nedges++] = c;
		}
		v->node[i].n = n;
	}
	return 0;
}

/* A child's value and distance as seen by the parent's side to move. */
static int
sv_seen(const struct sv *v, int parent, int child)
{
	const struct sv_node *c = &v->node[child];

	if (c->val == SV_OPEN)
		return SV_OPEN;
	return c->turn == v->node[parent].turn ? c->val : -c->val;
}

/* One node's value from its children; 1 when it changed. */
static int
sv_update(struct sv *v, int i)
{
	struct sv_node *n = &v->node[i];
	int k, won = 0, all_lost = 1, best = 0, worst = 0, val = SV_OPEN;
	int dist = 0;

	for (k = 0; k < n->n; k++) {
		int c = v->edge[n->first + k], s = sv_seen(v, i, c);
		int d = v->node[c].dist + 1;

		if (s == SV_WON && (!won || d < best))
			best = d;
		won |= s == SV_WON;
		if (s != SV_LOST)
			all_lost = 0;
		else if (d > worst)
			worst = d;
	}
	if (won) {
		val = SV_WON;
		dist = best;
	} else if (all_lost && n->n > 0) {
		val = SV_LOST;
		dist = worst;
	}
	if (val == n->val && dist == n->dist)
		return 0;
	n->val = (int8_t)val;
	n->dist = (int16_t)dist;
	return 1;
}

/* Solve everything reachable from st (node 0); 0 or -1. */
static int
sv_solve(struct sv *v, const void *st)
{
	char key[SV_KEY_LEN];
	int pass, i, changed = 1;

	if (sv_key(st, key) != 0 || sv_intern(v, key, st) != 0 ||
	    sv_expand(v) != 0)
		return -1;
	for (pass = 0; changed && pass < SV_PASSES_MAX; pass++) {
		changed = 0;
		for (i = 0; i < v->nnodes; i++)
			if (!v->node[i].settled)
				changed |= sv_update(v, i);
	}
	for (i = 0; i < v->nnodes; i++)
		if (v->node[i].val == SV_OPEN)
			v->node[i].val = SV_DRAW;
	return 0;
}

static struct sv *
sv_new(void)
{
	struct sv *v = calloc(1, sizeof *v);

	if (v == NULL)
		return NULL;
	v->node = malloc(SV_NODES_MAX * sizeof *v->node);
	v->slot = calloc(SV_SLOTS, sizeof *v->slot);
	v->edge = malloc((size_t)SV_NODES_MAX * SV_MOVES_MAX * sizeof *v->edge);
	if (v->node == NULL || v->slot == NULL || v->edge == NULL) {
		free(v->node);
		free(v->slot);
		free(v->edge);
		free(v);
		return NULL;
	}
	return v;
}

static void
sv_free(struct sv *v)
{
	free(v->node);
	free(v->slot);
	free(v->edge);
	free(v);
}

int
ai_stones_value(const void *st, int *plies)
{
	struct sv *v = sv_new();
	int val;

	if (v == NULL)
		return -2;
	if (sv_solve(v, st) != 0) {
		sv_free(v);
		return -2;
	}
	val = v->node[0].val;
	if (plies != NULL)
		*plies = v->node[0].dist;
	sv_free(v);
	return val;
}

/* How good a move is for the mover, higher better: a win sooner, a draw,
 * a loss later; the seed orders equal moves. */
static long
sv_rank(const struct sv *v, const void *st, struct rules_move m, uint64_t seed)
{
	_Alignas(16) unsigned char child[RULES_STATE_MAX];
	char key[SV_KEY_LEN];
	struct rules_status s;
	long jitter =
	    (long)(rules_mix64(seed ^ (uint64_t)(m.from * 16 + m.to + 17)) &
	        1023);
	int me = rules_stones.turn(st), i, val, dist;
	unsigned h;

	memcpy(child, st, rules_stones.state_size);
	rules_stones.apply(child, m);
	rules_stones.status(child, &s);
	/* the real game's repetition count may end it here */
	if (s.result == RULES_WIN)
		return s.winner == me ? 4000000 : -4000000;
	if (s.result != RULES_PLAYING)
		return jitter;
	if (sv_key(child, key) != 0)
		return jitter;
	h = sv_hash(key) & (SV_SLOTS - 1);
	for (; v->slot[h] != 0; h = (h + 1) & (SV_SLOTS - 1))
		if (strcmp(v->node[v->slot[h] - 1].key, key) == 0)
			break;
	if (v->slot[h] == 0)
		return jitter;
	i = v->slot[h] - 1;
	val = v->node[i].turn == me ? v->node[i].val : -v->node[i].val;
	dist = v->node[i].dist;
	if (val == SV_WON)
		return 3000000 - 1024L * dist;
	if (val == SV_LOST)
		return -3000000 + 1024L * dist;
	return jitter;
}

int
ai_stones_move(const void *st, const struct ai_limits *lim,
    struct rules_move *out, struct ai_report *rep)
{
	struct rules_move mv[SV_MOVES_MAX];
	uint64_t start = ai_clock_ms();
	struct sv *v;
	long best = 0;
	int n, k, bi = 0;

	n = rules_stones.legal_moves(st, mv, SV_MOVES_MAX);
	if (n == 0)
		return -1;
	if ((v = sv_new()) == NULL)
		return -1;
	if (sv_solve(v, st) != 0) {
		sv_free(v);
		*out = mv[0];
		return 0;
	}
	for (k = 0; k < n; k++) {
		long r = sv_rank(v, st, mv[k], lim->seed);

		if (k == 0 || r > best) {
			best = r;
			bi = k;
		}
	}
	rep->nodes = v->nnodes;
	rep->depth = v->node[0].dist;
	rep->score = v->node[0].val;
	rep->ms = (long)(ai_clock_ms() - start);
	sv_free(v);
	*out = mv[bi];
	return 0;
}
