/*
 * ataxx.h: the Ataxx state and the square masks, shared by the rules
 * (ataxx.c) and the engine (ai/ataxx_engine.c), which searches the
 * bitboards directly.
 */
#ifndef TABLERO_ATAXX_H
#define TABLERO_ATAXX_H

#include <stdint.h>

#include "rules/cpu.h"

__extension__ typedef unsigned __int128 ataxx_bb;

/* Width of the bit grid: the largest board. Squares are bits
 * row * ATAXX_STRIDE + column, row 0 at the top, whatever the size. */
#define ATAXX_STRIDE 9
#define ATAXX_CELLS (ATAXX_STRIDE * ATAXX_STRIDE)

struct ataxx_state {
	uint64_t piece[2][2]; /* per seat, the bitboard as low and high word */
	uint64_t gap[2];      /* squares blocked by the FEN's '-' */
	uint32_t halfmove;    /* plies since the last clone (libataxx) */
	uint32_t fullmove;    /* starts at 1, counts up after black moves */
	uint8_t size;         /* 5 to 9 */
	uint8_t turn;         /* seat to move */
};

/* The 8 squares at distance 1 and the 16 at distance 2 of each square. */
extern const ataxx_bb ataxx_adj[ATAXX_CELLS];
extern const ataxx_bb ataxx_jump[ATAXX_CELLS];

/* Bitboard helpers shared by the rules and the engine. */

RULES_INLINE int
ataxx_pop(ataxx_bb b)
{
	return __builtin_popcountll((uint64_t)b) +
	    __builtin_popcountll((uint64_t)(b >> 64));
}

/* Index of the lowest set bit of a non-empty bitboard. */
RULES_INLINE int
ataxx_lsb(ataxx_bb b)
{
	uint64_t lo = (uint64_t)b;

	if (lo != 0)
		return __builtin_ctzll(lo);
	return 64 + __builtin_ctzll((uint64_t)(b >> 64));
}

RULES_INLINE ataxx_bb
ataxx_get(const uint64_t w[2])
{
	return (ataxx_bb)w[0] | (ataxx_bb)w[1] << 64;
}

/* Every square of a board of side n. */
RULES_INLINE ataxx_bb
ataxx_board(int n)
{
	ataxx_bb row = ((ataxx_bb)1 << n) - 1, all = 0;
	int r;

	for (r = 0; r < n; r++)
		all |= row << (r * ATAXX_STRIDE);
	return all;
}

/* Can a side with these pieces move into one of these empty squares? */
RULES_INLINE int
ataxx_mobile(ataxx_bb side, ataxx_bb empty)
{
	for (; side != 0; side &= side - 1) {
		int sq = ataxx_lsb(side);

		if ((ataxx_adj[sq] | ataxx_jump[sq]) & empty)
			return 1;
	}
	return 0;
}

#endif
