/*
 * game_amazons.c: how the client talks an Amazons player through a move,
 * as the seed's program did (in English): choose an amazon, then its
 * destination, then where the arrow goes, each step checked on its own
 * and re-asked on its own (a bad arrow re-asks only the arrow); -1
 * resigns at any step.
 */
#include <stdlib.h>
#include <string.h>

#include "client-cli/client.h"

/* The steps of a move (client_room.step). */
enum { AMAZONS_PICK, AMAZONS_DEST, AMAZONS_ARROW };

static void
amazons_prompt(const struct client_room *r, char *buf, size_t len)
{
	if (r->step == AMAZONS_DEST)
		snprintf(buf, len,
		    "Valid amazon, to which square do you want "
		    "to move your amazon? (-1 to resign) >> ");
	else if (r->step == AMAZONS_ARROW && r->part[2][0] != '\0')
		snprintf(buf, len,
		    "To which square do you want to shoot your "
		    "arrow? (-1 to resign) >> ");
	else if (r->step == AMAZONS_ARROW)
		snprintf(buf, len,
		    "Valid move, to which square do you want to "
		    "shoot your arrow? (-1 to resign) >> ");
	else
		snprintf(buf, len,
		    "Choose one of your amazons (-1 to resign) "
		    ">> ");
}

/* Step 1: one of our amazons that can move. */
static enum cg_action
amazons_pick(struct client_room *r, const char *sq, char *msg, size_t msglen)
{
	static struct rules_move moves[RULES_MAX_MOVES];
	char err[RULES_ERR_MAX];
	int n =
	    games_square_moves(r, sq, moves, RULES_MAX_MOVES, err, sizeof err);

	if (n < 0) {
		snprintf(msg, msglen, "Invalid amazon: %s.", err);
		return CG_AGAIN;
	}
	if (n == 0) {
		snprintf(msg, msglen,
		    "Invalid amazon: %s is not one of your amazons that can "
		    "move.",
		    sq);
		return CG_AGAIN;
	}
	snprintf(r->part[0], sizeof r->part[0], "%s", sq);
	r->step = AMAZONS_DEST;
	return CG_AGAIN;
}

/* Step 2: a square the chosen amazon reaches. */
static enum cg_action
amazons_dest(struct client_room *r, const char *sq, char *msg, size_t msglen)
{
	static struct rules_move moves[RULES_MAX_MOVES];
	char err[RULES_ERR_MAX];
	int n = games_square_moves(
	    r, r->part[0], moves, RULES_MAX_MOVES, err, sizeof err);
	int to, i;

	if (r->rg->parse_square(r->st, sq, &to, err, sizeof err) != 0) {
		snprintf(msg, msglen, "Invalid move: %s.", err);
		return CG_AGAIN;
	}
	for (i = 0; i < n; i++)
		if (moves[i].to == to)
			break;
	if (i == n) {
		snprintf(msg, msglen,
		    "Invalid move: the amazon on %s cannot go to %s (it moves "
		    "like a queen and cannot pass arrows or amazons).",
		    r->part[0], sq);
		return CG_AGAIN;
	}
	snprintf(r->part[1], sizeof r->part[1], "%s", sq);
	r->part[2][0] = '\0';
	r->step = AMAZONS_ARROW;
	return CG_AGAIN;
}

/* Step 3: the arrow; the whole move is checked by rules/. */
static enum cg_action
amazons_arrow(struct client_room *r, const char *sq, char *move, size_t mlen,
    char *msg, size_t msglen)
{
	struct rules_move m;
	char err[RULES_ERR_MAX];

	snprintf(move, mlen, "%s-%s/%s", r->part[0], r->part[1], sq);
	if (r->rg->parse_move(r->st, move, &m, err, sizeof err) != 0) {
		snprintf(msg, msglen, "Invalid shot: %s.", err);
		snprintf(r->part[2], sizeof r->part[2], "again");
		return CG_AGAIN;
	}
	snprintf(msg, msglen, "Valid shot.");
	r->step = AMAZONS_PICK;
	return CG_SEND;
}

static enum cg_action
amazons_input(struct client_room *r, const char *line, char *move, size_t mlen,
    char *msg, size_t msglen)
{
	char sq[CLIENT_FIELD];

	games_trim(line, sq, sizeof sq);
	if (strcmp(sq, "-1") == 0)
		return CG_RESIGN;
	if (r->step == AMAZONS_DEST)
		return amazons_dest(r, sq, msg, msglen);
	if (r->step == AMAZONS_ARROW)
		return amazons_arrow(r, sq, move, mlen, msg, msglen);
	return amazons_pick(r, sq, msg, msglen);
}

/* "Game over! The winner is ana." as the seed ends. */
static void
amazons_ended(
    const struct client_room *r, const cJSON *ev, char *buf, size_t len)
{
	const cJSON *w = cJSON_GetObjectItemCaseSensitive(ev, "winner");
	const cJSON *reason = cJSON_GetObjectItemCaseSensitive(ev, "reason");
	int seat = cJSON_IsString(w) && strcmp(w->valuestring, "black") == 0;
	const char *why = cJSON_IsString(reason) ? reason->valuestring : "";
	char winner[CLIENT_LABEL], loser[CLIENT_LABEL];

	if (!cJSON_IsString(w)) {
		snprintf(buf, len, "Game over! Nobody wins (%s).", why);
		return;
	}
	if (strcmp(why, "no move") == 0)
		snprintf(buf, len,
		    "Sadly %s has no possible moves.\nGame over! The winner "
		    "is %s.",
		    room_seat_label(r, !seat, loser, sizeof loser),
		    room_seat_label(r, seat, winner, sizeof winner));
	else
		snprintf(buf, len, "Game over (%s)! The winner is %s.", why,
		    room_seat_label(r, seat, winner, sizeof winner));
}

/* "It is white's turn!" at the start, as the seed names who begins. */
static void
amazons_started(const struct client_room *r, char *buf, size_t len)
{
	char who[CLIENT_LABEL];

	snprintf(buf, len, "%s starts!",
	    room_seat_label(r, r->turn, who, sizeof who));
}

const struct client_game game_amazons = {
    .name = "amazons",
    .prompt = amazons_prompt,
    .input = amazons_input,
    .reason = games_reason_default,
    .ended = amazons_ended,
    .again = "Play again? (y/n):",
    .started = amazons_started,
};
