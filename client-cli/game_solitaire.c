/*
 * game_solitaire.c: how the client asks a peg solitaire player for a
 * move, as the seed's program did: a peg by its row and column; a peg
 * with one jump jumps at once, one with several gets the directions as a
 * numbered list to choose from; at the end, won or blocked, and the
 * play-again question.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "client-cli/client.h"
#include "rules/games.h"

enum { SOLITAIRE_PEG, SOLITAIRE_CHOICE };

static void
solitaire_prompt(const struct client_room *r, char *buf, size_t len)
{
	if (r->step == SOLITAIRE_CHOICE)
		snprintf(buf, len, "Choose a direction (1-%d): ", r->nchoices);
	else
		snprintf(buf, len, "Choose a peg to move (row column): ");
}

/* "3 4", "3,4", "(3, 4)" to "3,4"; 0 or -1. */
static int
solitaire_cell(const char *in, char *out, size_t len)
{
	long v[2];
	int n = 0;
	char *end;

	while (*in != '\0' && n < 2) {
		if (isdigit((unsigned char)*in)) {
			v[n++] = strtol(in, &end, 10);
			in = end;
		} else if (strchr(" \t,()", *in) != NULL)
			in++;
		else
			return -1;
	}
	while (*in != '\0' && strchr(" \t)", *in) != NULL)
		in++;
	if (n != 2 || *in != '\0' || v[0] > 99 || v[1] > 99)
		return -1;
	snprintf(out, len, "%ld,%ld", v[0], v[1]);
	return 0;
}

/* The numbered directions of a peg with several jumps. */
static enum cg_action
solitaire_offer(struct client_room *r, const struct rules_move *moves, int n,
    char *msg, size_t msglen)
{
	size_t used = 0;
	int i;

	r->nchoices = 0;
	for (i = 0; i < n && i < CLIENT_CHOICES_MAX; i++) {
		char text[CLIENT_FIELD];
		const char *dir;
		int k;
		r->rg->format_move(r->st, moves[i], text, sizeof text);
		snprintf(r->choices[i], sizeof r->choices[i], "%s", text);
		dir = strchr(text, ' ');
		k = snprintf(msg + used, msglen - used, "%s%d) %s",
		    i ? "  " : "That peg can jump several ways: ", i + 1,
		    dir != NULL ? dir + 1 : text);
		if (k > 0 && (size_t)k < msglen - used)
			used += (size_t)k;
		r->nchoices++;
	}
	r->step = SOLITAIRE_CHOICE;
	return CG_AGAIN;
}

/* A peg chosen by row and column. */
static enum cg_action
solitaire_peg(struct client_room *r, const char *in, char *move, size_t mlen,
    char *msg, size_t msglen)
{
	struct rules_move moves[CLIENT_CHOICES_MAX];
	char cell[CLIENT_FIELD], err[RULES_ERR_MAX];
	struct rules_move m;
	int n;

	/* a whole move ("3,4 up") goes as it is */
	if (strpbrk(in, "udlrUDLR") != NULL) {
		if (r->rg->parse_move(r->st, in, &m, err, sizeof err) != 0) {
			games_reason_default(r, err, msg, msglen);
			return CG_AGAIN;
		}
		snprintf(move, mlen, "%s", in);
		return CG_SEND;
	}
	if (solitaire_cell(in, cell, sizeof cell) != 0) {
		snprintf(msg, msglen,
		    "Give the peg's row and column, like 4 2 or 4,2.");
		return CG_AGAIN;
	}
	n = games_square_moves(
	    r, cell, moves, CLIENT_CHOICES_MAX, err, sizeof err);
	if (n < 0) {
		games_reason_default(r, err, msg, msglen);
		return CG_AGAIN;
	}
	if (n == 0) {
		snprintf(msg, msglen,
		    "There is no peg at %s that can jump: choose another.",
		    cell);
		return CG_AGAIN;
	}
	if (n > 1)
		return solitaire_offer(r, moves, n, msg, msglen);
	r->rg->format_move(r->st, moves[0], move, mlen);
	return CG_SEND;
}

static enum cg_action
solitaire_input(struct client_room *r, const char *line, char *move,
    size_t mlen, char *msg, size_t msglen)
{
	char in[CLIENT_FIELD];
	char *end;
	long k;

	games_trim(line, in, sizeof in);
	if (r->step != SOLITAIRE_CHOICE)
		return solitaire_peg(r, in, move, mlen, msg, msglen);
	k = strtol(in, &end, 10);
	if (end == in || *end != '\0' || k < 1 || k > r->nchoices) {
		snprintf(
		    msg, msglen, "Choose a number from 1 to %d.", r->nchoices);
		return CG_AGAIN;
	}
	snprintf(move, mlen, "%s", r->choices[k - 1]);
	r->step = SOLITAIRE_PEG;
	return CG_SEND;
}

/* Won (one peg, on the goal) or blocked. */
static void
solitaire_ended(
    const struct client_room *r, const cJSON *ev, char *buf, size_t len)
{
	const cJSON *res = cJSON_GetObjectItemCaseSensitive(ev, "result");
	const cJSON *reason = cJSON_GetObjectItemCaseSensitive(ev, "reason");
	const cJSON *scores = cJSON_GetObjectItemCaseSensitive(ev, "scores");
	const cJSON *left = cJSON_GetObjectItemCaseSensitive(scores, "player");
	const char *why = cJSON_IsString(reason) ? reason->valuestring : "";

	if (cJSON_IsString(res) && strcmp(res->valuestring, "solved") == 0)
		snprintf(buf, len, "You won: one peg left, on the goal!");
	else if (cJSON_IsNumber(left))
		snprintf(buf, len, "You lost (%s): %d pegs left.", why,
		    left->valueint);
	else
		snprintf(buf, len, "You lost (%s).", why);
}

const struct client_game game_solitaire = {
    .rules = &rules_solitaire,
    .prompt = solitaire_prompt,
    .input = solitaire_input,
    .reason = games_reason_default,
    .ended = solitaire_ended,
    .again = "Play again? (y/n):",
};
