/*
 * games.h: each game's descriptor, one per file of rules/, for the registry
 * and for code (tests, ai/) that names a game on purpose.
 */
#ifndef TABLERO_GAMES_H
#define TABLERO_GAMES_H

#include "rules.h"

extern const struct rules_game rules_amazons;   /* amazons.c */
extern const struct rules_game rules_ataxx;     /* ataxx.c */
extern const struct rules_game rules_stones;    /* stones.c */
extern const struct rules_game rules_solitaire; /* solitaire.c */
extern const struct rules_game rules_shifter;   /* shifter.c */

#endif
