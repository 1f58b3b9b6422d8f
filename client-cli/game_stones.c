/*
 * game_stones.c: the Stones dialogue of the seed, word for word: "Player 1
 * peg no. 1. Enter the board position to put your peg:", moves like C1C2
 * after "Player 1 enter your move:", the seed's error sentences (checked
 * here with rules/ before sending), "Player 1 wins!" and the play-again
 * question.
 */
#include <ctype.h>
#include <string.h>

#include "client-cli/client.h"

/* How many pegs the seat to move has down (from the board rows). */
static int
stones_pegs(const struct client_room *r)
{
	char rows[64];
	int i, n = 0;
	char mine = r->turn == 0 ? 'x' : 'o';

	if (r->rg->board_rows(r->st, rows, sizeof rows) < 0)
		return 3;
	for (i = 0; rows[i] != '\0'; i++)
		n += rows[i] == mine;
	return n;
}

static void
stones_prompt(const struct client_room *r, char *buf, size_t len)
{
	int pegs = stones_pegs(r);

	if (pegs < 3)
		snprintf(buf, len,
		    "Player %d peg no. %d. Enter the board position to put "
		    "your peg: ",
		    r->turn + 1, pegs + 1);
	else
		snprintf(buf, len, "Player %d enter your move: ", r->turn + 1);
}

/* The rules' reason (also the server's) as the seed says it, whatever
 * the case and wording around the reason's key words. */
static void
stones_reason(
    const struct client_room *r, const char *text, char *buf, size_t len)
{
	char why[RULES_ERR_MAX];
	size_t i;
	int player = r->turn + 1;

	for (i = 0; text[i] != '\0' && i + 1 < sizeof why; i++)
		why[i] = (char)tolower((unsigned char)text[i]);
	why[i] = '\0';
	if (strstr(why, "taken by another peg") != NULL)
		snprintf(buf, len,
		    "Position taken by another peg. Please re-enter.");
	else if (strstr(why, "3-in-a-row") != NULL ||
	    strstr(why, "three in a row") != NULL)
		snprintf(buf, len,
		    "Invalid position. Cannot complete "
		    "3-in-a-row at this stage.");
	else if (strstr(why, "place one peg") != NULL ||
	    strncmp(why, "not a board position", 21) == 0)
		snprintf(buf, len,
		    "Invalid position. Not a board position. "
		    "Please re-enter.");
	else if (strstr(why, "not connected") != NULL)
		snprintf(buf, len,
		    "Invalid move. Destination position is not "
		    "connected to origin position. Please "
		    "re-enter move.");
	else if (strstr(why, "origin is not occupied") != NULL)
		snprintf(buf, len,
		    "Invalid move. Origin is not occupied by player's %d peg",
		    player);
	else if (strstr(why, "not empty") != NULL)
		snprintf(buf, len,
		    "Invalid move. Destination position is not "
		    "empty. Please re-enter move.");
	else if (strstr(why, "4 characters") != NULL ||
	    strstr(why, "board position") != NULL)
		snprintf(buf, len,
		    "Invalid move. Enter origin and destination "
		    "positions in 4 characters, e.g., A2B1");
	else
		games_reason_default(r, text, buf, len);
}

static enum cg_action
stones_input(struct client_room *r, const char *line, char *move, size_t mlen,
    char *msg, size_t msglen)
{
	struct rules_move m;
	char err[RULES_ERR_MAX];

	games_trim(line, move, mlen);
	if (r->rg->parse_move(r->st, move, &m, err, sizeof err) != 0) {
		stones_reason(r, err, msg, msglen);
		return CG_AGAIN;
	}
	return CG_SEND;
}

/* The player number ending a seat name ("player 1"), '?' when empty. */
static char
stones_player_no(const char *seat)
{
	size_t n = strlen(seat);

	return n > 0 ? seat[n - 1] : '?';
}

/* "Player 1 wins!" */
static void
stones_ended(
    const struct client_room *r, const cJSON *ev, char *buf, size_t len)
{
	const cJSON *w = cJSON_GetObjectItemCaseSensitive(ev, "winner");
	const cJSON *reason = cJSON_GetObjectItemCaseSensitive(ev, "reason");
	const char *why = cJSON_IsString(reason) ? reason->valuestring : "";

	if (cJSON_IsString(w) && strcmp(why, "three in a row") == 0)
		snprintf(buf, len, "Player %c wins!",
		    stones_player_no(w->valuestring));
	else if (cJSON_IsString(w))
		snprintf(buf, len, "Player %c wins! (%s)",
		    stones_player_no(w->valuestring), why);
	else
		snprintf(buf, len, "Nobody wins: %s.", why);
}

/* "Player 1 starts first." */
static void
stones_started(const struct client_room *r, char *buf, size_t len)
{
	snprintf(buf, len, "Player %d starts first.", r->turn + 1);
}

const struct client_game game_stones = {
    .name = "stones",
    .prompt = stones_prompt,
    .input = stones_input,
    .reason = stones_reason,
    .ended = stones_ended,
    .again = "Type 'Y' or 'y' to play again:",
    .started = stones_started,
};
