/*
 * game_ataxx.c: how the client asks an Ataxx player for a move (a square
 * to clone to, or source and destination to jump), says every move in the
 * seed's words for both sides and the bot ("Black player clones at b6",
 * "White player moves from a7 to c5"), and gives the final counts.
 */
#include <ctype.h>
#include <string.h>

#include "client-cli/client.h"
#include "rules/games.h"

/* "White player" / "Black player". */
static void
ataxx_player(const struct client_room *r, int seat, char *buf, size_t len)
{
	snprintf(buf, len, "%s player",
	    seat >= 0 && seat < 2 ? r->rg->seat_names[seat] : "?");
	buf[0] = (char)toupper((unsigned char)buf[0]);
}

/* Examples for the prompt from the moves legal now, so that they start
 * from the player's own pieces: a clone ("b6") and a jump ("a7c5"). */
static void
ataxx_examples(const struct client_room *r, char *clone, char *jump, size_t len)
{
	static struct rules_move moves[RULES_MAX_MOVES];
	int i, n = r->rg->legal_moves(r->st, moves, RULES_MAX_MOVES);

	snprintf(clone, len, "b6");
	snprintf(jump, len, "a7c5");
	for (i = n - 1; i >= 0; i--) {
		if (moves[i].to == RULES_NONE)
			continue;
		if (moves[i].from == RULES_NONE)
			r->rg->format_move(r->st, moves[i], clone, len);
		else
			r->rg->format_move(r->st, moves[i], jump, len);
	}
}

static void
ataxx_prompt(const struct client_room *r, char *buf, size_t len)
{
	char who[64], clone[CLIENT_FIELD], jump[CLIENT_FIELD];

	ataxx_player(r, r->turn, who, sizeof who);
	ataxx_examples(r, clone, jump, sizeof clone);
	snprintf(buf, len,
	    "%s (%c), a square to clone to (%s) or a jump (%s): ", who,
	    r->turn == 0 ? 'x' : 'o', clone, jump);
}

static enum cg_action
ataxx_input(struct client_room *r, const char *line, char *move, size_t mlen,
    char *msg, size_t msglen)
{
	struct rules_move m;
	char err[RULES_ERR_MAX], in[CLIENT_FIELD];
	size_t i, n = 0;

	games_trim(line, in, sizeof in);
	/* "a7 c5" and "a7-c5" are the jump a7c5 */
	for (i = 0; in[i] != '\0' && n + 1 < mlen; i++)
		if (in[i] != ' ' && in[i] != '-')
			move[n++] = in[i];
	move[n] = '\0';
	if (r->rg->parse_move(r->st, move, &m, err, sizeof err) != 0) {
		games_reason_default(r, err, msg, msglen);
		return CG_AGAIN;
	}
	return CG_SEND;
}

/* The seed's move sentence, for people and for the bot alike: the
 * rules' own (describe_move on the position before the move, which the
 * room still holds), so the client says what the server says. Nothing
 * when the move does not parse there (the server's text is shown). */
static void
ataxx_moved(const struct client_room *r, const cJSON *ev, char *buf, size_t len)
{
	const cJSON *mv = cJSON_GetObjectItemCaseSensitive(ev, "move");
	struct rules_move m;
	char err[RULES_ERR_MAX], sentence[RULES_TEXT_MAX];

	if (!cJSON_IsString(mv) ||
	    r->rg->parse_move(r->st, mv->valuestring, &m, err, sizeof err) != 0)
		return;
	r->rg->describe_move(r->st, m, sentence, sizeof sentence);
	snprintf(buf, len, "%s.", sentence);
}

/* The winner (or a draw) and both counts. */
static void
ataxx_ended(const struct client_room *r, const cJSON *ev, char *buf, size_t len)
{
	const cJSON *w = cJSON_GetObjectItemCaseSensitive(ev, "winner");
	const cJSON *reason = cJSON_GetObjectItemCaseSensitive(ev, "reason");
	const cJSON *scores = cJSON_GetObjectItemCaseSensitive(ev, "scores");
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(scores, "white");
	const cJSON *b = cJSON_GetObjectItemCaseSensitive(scores, "black");
	char who[64], counts[128] = "";

	if (cJSON_IsNumber(a) && cJSON_IsNumber(b))
		snprintf(counts, sizeof counts,
		    "\nWhite pieces: %d. Black pieces: %d.", a->valueint,
		    b->valueint);
	if (cJSON_IsString(w)) {
		ataxx_player(r,
		    strcmp(w->valuestring, r->rg->seat_names[0]) == 0 ? 0 : 1,
		    who, sizeof who);
		snprintf(buf, len, "Game over (%s): %s wins!%s",
		    cJSON_IsString(reason) ? reason->valuestring : "", who,
		    counts);
	} else
		snprintf(buf, len, "Game over (%s): a draw.%s",
		    cJSON_IsString(reason) ? reason->valuestring : "", counts);
}

const struct client_game game_ataxx = {
    .rules = &rules_ataxx,
    .prompt = ataxx_prompt,
    .input = ataxx_input,
    .moved = ataxx_moved,
    .reason = games_reason_default,
    .ended = ataxx_ended,
    .again = "Do you want to play again? (y/n):",
};
