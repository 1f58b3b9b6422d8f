/*
 * ataxx.c: placeholder until the ataxx rules land (the helper replaces this file).
 */
#include "games.h"

const struct rules_game rules_ataxx = {
	.name = "ataxx",
	.title = "Ataxx",
};
