/*
 * shifter.c: placeholder until the shifter rules land (the helper replaces this file).
 */
#include "games.h"

const struct rules_game rules_shifter = {
	.name = "shifter",
	.title = "Shifter",
};
