/*
 * game_stones.c: the Stones dialogue of the seed, word for word: "Player 1
 * peg no. 1. Enter the board position to put your peg:", moves like C1C2
 * after "Player 1 enter your move:", the seed's error sentences (checked
 * here with rules/ before sending), "Player 1 wins!" and the play-again
 * question.
 */
#include <string.h>

#include "client-cli/client.h"
#include "rules/games.h"
#include "rules/stones.h"

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

/* The seed's sentence for why a move is refused, from the rules' code
 * (stones_check_move), never from reading an English sentence back. */
static void
stones_say(
    const struct client_room *r, enum stones_reason why, char *buf, size_t len)
{
	int player = r->turn + 1;

	switch (why) {
	case STONES_R_TAKEN:
		snprintf(buf, len,
		    "Position taken by another peg. Please re-enter.");
		break;
	case STONES_R_THREE:
		snprintf(buf, len,
		    "Invalid position. Cannot complete 3-in-a-row at this "
		    "stage.");
		break;
	case STONES_R_NOT_POINT:
		snprintf(buf, len,
		    "Invalid position. Not a board position. Please "
		    "re-enter.");
		break;
	case STONES_R_NOT_CONNECTED:
		snprintf(buf, len,
		    "Invalid move. Destination position is not connected to "
		    "origin position. Please re-enter move.");
		break;
	case STONES_R_FROM_NOT_OWN:
		snprintf(buf, len,
		    "Invalid move. Origin is not occupied by player's %d peg",
		    player);
		break;
	case STONES_R_TO_TAKEN:
		snprintf(buf, len,
		    "Invalid move. Destination position is not empty. Please "
		    "re-enter move.");
		break;
	case STONES_R_FOUR_CHARS:
	case STONES_R_FROM_NOT_POINT:
	case STONES_R_TO_NOT_POINT:
		snprintf(buf, len,
		    "Invalid move. Enter origin and destination positions in "
		    "4 characters, e.g., A2B1");
		break;
	default:
		stones_reason_text(why, player, buf, len);
		break;
	}
}

static enum cg_action
stones_input(struct client_room *r, const char *line, char *move, size_t mlen,
    char *msg, size_t msglen)
{
	struct rules_move m;
	enum stones_reason why;

	games_trim(line, move, mlen);
	why = stones_check_move(r->st, move, &m);
	if (why != STONES_OK) {
		stones_say(r, why, msg, msglen);
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
    .rules = &rules_stones,
    .prompt = stones_prompt,
    .input = stones_input,
    .reason = games_reason_default, /* the server's word: a stale board */
    .ended = stones_ended,
    .again = "Type 'Y' or 'y' to play again:",
    .started = stones_started,
};
