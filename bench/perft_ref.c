/*
 * perft_ref.c: a plain bitboard Ataxx perft from the 7x7 start, the
 * reference issue 23 measured the rules' own perft against ("perft 7 runs
 * at 0.71 of a plain bitboard reference built with -march=native").
 * It is written the way a first bitboard engine writes it, on purpose
 * independent of rules/: 49 squares in one 64-bit word, singles by shifting
 * the board in the eight directions, jumps from a table, moves generated
 * into a list and made on a copy, the last ply counted without making its
 * moves. make bench builds it with -march=native and prints the rules'
 * perft (default and native builds) as a ratio of it.
 * Usage: perft_ref [-t] ataxx DEPTH, as bench/perft.c: prints the leaf
 * count, and with -t the time and the leaves per second on stderr.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REF_SIDE 7
#define REF_SQUARES (REF_SIDE * REF_SIDE)
#define REF_ALL ((UINT64_C(1) << REF_SQUARES) - 1)
/* Columns a shift must not wrap into: all but the first, all but the
 * last. */
#define REF_NOT_A (REF_ALL & ~UINT64_C(0x0040810204081))
#define REF_NOT_G (REF_ALL & ~(UINT64_C(0x0040810204081) << 6))
/* At most 49 clones and 16 jumps into each of 49 squares, or one pass. */
#define REF_MOVES_MAX (REF_SQUARES + 16 * REF_SQUARES)
#define REF_DEPTH_MAX 12

struct ref_pos {
	uint64_t own, opp; /* the side to move's stones, the other side's */
};

struct ref_move {
	int8_t from, to; /* from == to: a clone; to < 0: a pass */
};

static uint64_t ref_jumps[REF_SQUARES];

/* The squares next to any of `b`'s. */
static uint64_t
ref_singles(uint64_t b)
{
	uint64_t e = (b << 1) & REF_NOT_A, w = (b >> 1) & REF_NOT_G;
	uint64_t row = b | e | w;

	return (row | row << REF_SIDE | row >> REF_SIDE) & REF_ALL & ~b;
}

static void
ref_init(void)
{
	int sq, r, c;

	for (sq = 0; sq < REF_SQUARES; sq++)
		for (r = 0; r < REF_SIDE; r++)
			for (c = 0; c < REF_SIDE; c++) {
				int dr = abs(r - sq / REF_SIDE);
				int dc = abs(c - sq % REF_SIDE);

				if ((dr > dc ? dr : dc) == 2)
					ref_jumps[sq] |= UINT64_C(1)
					    << (r * REF_SIDE + c);
			}
}

/* Moves of the side to move, not counting a pass. */
static uint64_t
ref_count(const struct ref_pos *p)
{
	uint64_t empty = REF_ALL & ~(p->own | p->opp), b;
	uint64_t n =
	    (uint64_t)__builtin_popcountll(ref_singles(p->own) & empty);

	for (b = p->own; b != 0; b &= b - 1)
		n += (uint64_t)__builtin_popcountll(
		    ref_jumps[__builtin_ctzll(b)] & empty);
	return n;
}

/* The moves of the side to move into `list`; none when the game is over
 * (a side without stones, or neither side able to move). */
static int
ref_generate(const struct ref_pos *p, struct ref_move *list)
{
	uint64_t empty = REF_ALL & ~(p->own | p->opp), b, t;
	int n = 0;

	if (p->own == 0 || p->opp == 0)
		return 0;
	for (b = ref_singles(p->own) & empty; b != 0; b &= b - 1) {
		list[n].from = list[n].to = (int8_t)__builtin_ctzll(b);
		n++;
	}
	for (b = p->own; b != 0; b &= b - 1)
		for (t = ref_jumps[__builtin_ctzll(b)] & empty; t != 0;
		     t &= t - 1) {
			list[n].from = (int8_t)__builtin_ctzll(b);
			list[n].to = (int8_t)__builtin_ctzll(t);
			n++;
		}
	if (n == 0 && ref_count(&(struct ref_pos){p->opp, p->own}) != 0)
		list[n++].to = -1; /* a pass, when the other side can move */
	return n;
}

static struct ref_pos
ref_make(struct ref_pos p, struct ref_move m)
{
	uint64_t to, cap;

	if (m.to >= 0) {
		to = UINT64_C(1) << m.to;
		cap = ref_singles(to) & p.opp;
		p.own ^=
		    (m.from == m.to ? 0 : UINT64_C(1) << m.from) | to | cap;
		p.opp ^= cap;
	}
	return (struct ref_pos){p.opp, p.own};
}

static uint64_t
ref_perft(const struct ref_pos *p, int depth)
{
	struct ref_move list[REF_MOVES_MAX];
	uint64_t n = 0;
	int i, count;

	if (depth == 1) {
		struct ref_pos q = {p->opp, p->own};
		uint64_t k;

		if (p->own == 0 || p->opp == 0)
			return 0;
		k = ref_count(p);
		return k != 0 ? k : ref_count(&q) != 0;
	}
	count = ref_generate(p, list);
	for (i = 0; i < count; i++) {
		struct ref_pos child = ref_make(*p, list[i]);

		n += ref_perft(&child, depth - 1);
	}
	return n;
}

int
main(int argc, char **argv)
{
	/* White on a7 and g1, black on g7 and a1 (row 0 at the top). */
	struct ref_pos start = {
	    UINT64_C(1) << 0 | UINT64_C(1) << (REF_SQUARES - 1),
	    UINT64_C(1) << (REF_SIDE - 1) |
	        UINT64_C(1) << (REF_SQUARES - REF_SIDE)};
	struct timespec t0, t1;
	int timing = argc > 1 && strcmp(argv[1], "-t") == 0;
	double t;
	uint64_t n;
	int depth;

	argv += timing;
	argc -= timing;
	if (argc != 3 || strcmp(argv[1], "ataxx") != 0 ||
	    (depth = atoi(argv[2])) < 1 || depth > REF_DEPTH_MAX) {
		fprintf(stderr, "usage: perft_ref [-t] ataxx DEPTH (1 to %d)\n",
		    REF_DEPTH_MAX);
		return 2;
	}
	ref_init();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	n = ref_perft(&start, depth);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	t = (double)(t1.tv_sec - t0.tv_sec) +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (timing)
		fprintf(stderr,
		    "ataxx depth %d: %" PRIu64
		    " leaves in %.3f s, %.0f leaves/s\n",
		    depth, n, t, t > 0 ? (double)n / t : 0.0);
	printf("%" PRIu64 "\n", n);
	return 0;
}
