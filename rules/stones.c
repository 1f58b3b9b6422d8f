/*
 * stones.c: placeholder until the stones rules land (the helper replaces this file).
 */
#include "games.h"

const struct rules_game rules_stones = {
	.name = "stones",
	.title = "Stones",
};
