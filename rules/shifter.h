/*
 * shifter.h: Shape Shifter Chess internals shared by the rules (shifter.c),
 * its solver (ai/shifter_solver.c) and their tests: the plain state with its
 * piece table, and the few functions that work on it directly.
 *
 * Squares are numbered 0..63 row by row from the top left: 0 is a8, 7 is h8,
 * 56 is a1, 63 is h1. A step (dx, dy) from the piece table moves dx columns
 * to the right and dy rows down the picture (towards rank 1), as the seed's
 * "one right and two down" for the knight's 1;2.
 */
#ifndef TABLERO_SHIFTER_H
#define TABLERO_SHIFTER_H

#include <stddef.h>
#include <stdint.h>

#include "rules.h"

#define SHIFTER_SIDE 8
#define SHIFTER_SQUARES 64
/* Piece kinds in one table: 16 keeps the table (and so the state) small
 * and leaves letters A-Z to spare for the pictures. */
#define SHIFTER_MAX_KINDS 16
/* Characters of a piece name (UTF-8, any script): short enough for a
 * legend line and a message. */
#define SHIFTER_NAME_CHARS 15
/* Bytes of a piece name: 15 characters of two bytes (Latin with accents,
 * Greek, Cyrillic) fit; names in wider scripts are fewer characters. */
#define SHIFTER_NAME_MAX 32
/* Lines (steps) of one piece: twice the 16 of a queen's and knight's
 * directions together, plenty for any chess-like piece. */
#define SHIFTER_MAX_STEPS 32
/* Level N has N + 2 pieces and the board has 64 squares. */
#define SHIFTER_MAX_LEVEL 62
/* A square with no piece on it. */
#define SHIFTER_EMPTY (-1)

/* One line of movimientos.csv. */
struct shifter_step {
	int8_t dx, dy;   /* columns right, rows down; each within -7..7 */
	uint8_t extends; /* 1: repeats to the board's edge */
};

/* One kind of piece, in the order of its first line in the file. */
struct shifter_kind {
	char name[SHIFTER_NAME_MAX + 1];
	char letter; /* 'A'..'Z', unique in the table: its pictures' letter */
	uint8_t nsteps;
	struct shifter_step step[SHIFTER_MAX_STEPS];
};

struct shifter_state {
	uint8_t level;       /* 1..SHIFTER_MAX_LEVEL */
	uint8_t nkinds;      /* kinds in the table, 1..SHIFTER_MAX_KINDS */
	int8_t active;       /* the square of the active piece */
	int8_t start_active; /* the same at the start of the level */
	int8_t board[SHIFTER_SQUARES]; /* kind index, or SHIFTER_EMPTY */
	int8_t start[SHIFTER_SQUARES]; /* the level's starting layout */
	struct shifter_kind kind[SHIFTER_MAX_KINDS];
};

/* shifter.c (the game's descriptor, rules_shifter, is in games.h) */
int shifter_table_parse(struct shifter_state *s, const char *text, size_t len,
    char *err, size_t errlen);
int shifter_generate(struct shifter_state *s, int level, uint64_t seed,
    char *err, size_t errlen);
uint64_t shifter_reach(const struct shifter_state *s, int kind, int square);
uint64_t shifter_occupied(const struct shifter_state *s);

#endif
