/*
 * ataxx.h: the Ataxx state and the square masks, shared by the rules
 * (ataxx.c) and the engine (ai/ataxx_engine.c), which searches the
 * bitboards directly.
 */
#ifndef TABLERO_ATAXX_H
#define TABLERO_ATAXX_H

#include <stdint.h>

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

#endif
