/*
 * stones.h: what rules/stones.c tells beyond the rules interface: why a
 * move is refused, as a code, so a client words it the seed's way
 * without reading the English sentence back.
 */
#ifndef TABLERO_STONES_H
#define TABLERO_STONES_H

#include "rules/rules.h"

/* Why a Stones move is refused, in the seed's order of checks. */
enum stones_reason {
	STONES_OK,
	STONES_R_OVER,           /* the game is over */
	STONES_R_NOT_POINT,      /* a placement that names no point */
	STONES_R_TAKEN,          /* a placement on a peg */
	STONES_R_THREE,          /* a placement that makes three in a row */
	STONES_R_FOUR_CHARS,     /* a slide not of four characters */
	STONES_R_FROM_NOT_POINT, /* a slide's origin names no point */
	STONES_R_TO_NOT_POINT,   /* a slide's destination names no point */
	STONES_R_FROM_NOT_OWN,   /* the origin holds none of the mover's pegs */
	STONES_R_TO_TAKEN,       /* the destination holds a peg */
	STONES_R_NOT_CONNECTED,  /* no line joins origin and destination */
	STONES_R_COUNT
};

/* Check a move in the notation: STONES_OK with *out set, or why not. */
enum stones_reason stones_check_move(
    const void *st, const char *text, struct rules_move *out);

/* The rules' sentence for a reason (what parse_move writes), with the
 * mover's player number where it says one; "" for STONES_OK. */
void stones_reason_text(
    enum stones_reason why, int player, char *buf, size_t len);

#endif
