/*
 * registry.c: the list of games, found by wire name. Adding a game is one
 * file in rules/ and one line here.
 */
#include <string.h>

#include "games.h"

const struct rules_game *const rules_games[] = {
    &rules_amazons,
    &rules_ataxx,
    &rules_stones,
    &rules_solitaire,
    &rules_shifter,
    NULL,
};

const struct rules_game *
rules_find(const char *name)
{
	int i;

	for (i = 0; rules_games[i] != NULL; i++)
		if (strcmp(rules_games[i]->name, name) == 0)
			return rules_games[i];
	return NULL;
}
