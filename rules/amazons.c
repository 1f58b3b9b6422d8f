/*
 * amazons.c: placeholder until the amazons rules land (the helper replaces this file).
 */
#include "games.h"

const struct rules_game rules_amazons = {
	.name = "amazons",
	.title = "Amazons",
};
