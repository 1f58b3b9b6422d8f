/*
 * games.c: the table of the games' prompt files (one game_*.c per game),
 * keyed by the game's descriptor in rules/ (whose registry alone knows
 * the names), and the helpers they share. A sixth game is one more file
 * and one more line in games_table.
 */
#include <ctype.h>
#include <string.h>

#include "client-cli/client.h"

static const struct client_game *const games_table[] = {
    &game_amazons,
    &game_ataxx,
    &game_stones,
    &game_solitaire,
    &game_shifter,
    NULL,
};

/* The prompt file of a game by its rules' descriptor, or NULL. */
const struct client_game *
games_for(const struct rules_game *rg)
{
	int i;

	for (i = 0; rg != NULL && games_table[i] != NULL; i++)
		if (games_table[i]->rules == rg)
			return games_table[i];
	return NULL;
}

/* The prompt file of a game by its wire name (rules/' registry), or
 * NULL. */
const struct client_game *
games_find(const char *name)
{
	return name != NULL ? games_for(rules_find(name)) : NULL;
}

/* The i-th game, or NULL past the end (for completion). */
const struct client_game *
games_at(int i)
{
	int n;

	if (i < 0)
		return NULL;
	for (n = 0; games_table[n] != NULL; n++)
		if (n == i)
			return games_table[n];
	return NULL;
}

/* in without its leading and trailing blanks, into out. */
void
games_trim(const char *in, char *out, size_t len)
{
	size_t n;

	while (*in == ' ' || *in == '\t')
		in++;
	n = strlen(in);
	while (n > 0 &&
	    (in[n - 1] == ' ' || in[n - 1] == '\t' || in[n - 1] == '\r' ||
	        in[n - 1] == '\n'))
		n--;
	if (n >= len)
		n = len - 1;
	memmove(out, in, n); /* out may be in */
	out[n] = '\0';
}

/* The server's (or rules') reason as a sentence: a capital, a stop. */
void
games_reason_default(
    const struct client_room *r, const char *why, char *buf, size_t len)
{
	size_t n;

	snprintf(buf, len, "%s", why);
	buf[0] = (char)toupper((unsigned char)buf[0]);
	n = strlen(buf);
	if (n > 0 && n + 1 < len && buf[n - 1] != '.')
		strcat(buf, ".");
}

/* The legal moves from a square named in the game's notation; their
 * count, or -1 with the reason when the square is not one. */
int
games_square_moves(const struct client_room *r, const char *square,
    struct rules_move *out, int max, char *err, size_t errlen)
{
	int sq;

	if (r->rg->parse_square(r->st, square, &sq, err, errlen) != 0)
		return -1;
	return r->rg->legal_from(r->st, sq, out, max);
}
