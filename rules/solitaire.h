/*
 * solitaire.h: the peg solitaire state, shared by the rules (solitaire.c)
 * and the solver (ai/solitaire_solver.c), which reads the board directly.
 */
#ifndef TABLERO_SOLITAIRE_H
#define TABLERO_SOLITAIRE_H

#include <stdint.h>

/* The largest board side, as the seed's MAXDIM; 10x10 cells fit the
 * solver's 128-bit peg masks. */
#define SOLITAIRE_MAX_SIDE 10
#define SOLITAIRE_MAX_CELLS (SOLITAIRE_MAX_SIDE * SOLITAIRE_MAX_SIDE)

/* A cell, with the values the board file uses. */
enum solitaire_cell {
	SOLITAIRE_OFF = 0,   /* not usable: no hole, never a peg */
	SOLITAIRE_EMPTY = 1, /* a usable hole with no peg */
	SOLITAIRE_PEG = 2,   /* a usable hole with a peg */
};

/* Cells are numbered row * cols + col from 0, row 0 at the top. */
struct solitaire_state {
	int8_t rows, cols;
	int16_t goal;                      /* the goal cell, always usable */
	int16_t pegs;                      /* how many cells hold a peg */
	uint8_t cell[SOLITAIRE_MAX_CELLS]; /* enum solitaire_cell */
};

#endif
