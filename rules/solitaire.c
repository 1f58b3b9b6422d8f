/*
 * solitaire.c: placeholder until the solitaire rules land (the helper replaces this file).
 */
#include "games.h"

const struct rules_game rules_solitaire = {
	.name = "solitaire",
	.title = "Solitaire",
};
