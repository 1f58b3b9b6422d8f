/*
 * amazons.h: the Amazons state, shared by the rules (amazons.c) and the
 * engine (ai/amazons_engine.c), which searches the bitboards directly.
 */
#ifndef TABLERO_AMAZONS_H
#define TABLERO_AMAZONS_H

#include <stdint.h>

/* The position: amazons per seat (0 white, 1 black), arrows, the side to
 * move. Bitboards as {low 64 squares, high 36 squares}; square n is file
 * n % 10 and rank n / 10, a1 = 0. */
struct amazons_state {
	uint64_t amz[2][2];
	uint64_t arrows[2];
	uint32_t turn;
	uint32_t reserved; /* always 0, so equal positions are equal bytes */
};

#endif
