/*
 * game_shifter.c: how the client talks a Shape Shifter player through the
 * levels: the board marks the active piece and what it can take (the
 * rules' picture), a move is the square of the piece to take, `r` retries
 * the level, and at the start the seed's question: load the last saved
 * level, or begin at level 1.
 */
#include <stdlib.h>
#include <string.h>

#include "client-cli/client.h"
#include "rules/games.h"
#include "rules/shifter.h"

/* The level being played, from the rules' status. */
static int
shifter_level(const struct client_room *r)
{
	struct rules_status st;

	rules_status(r->rg, r->st, &st);
	return st.level;
}

static void
shifter_prompt(const struct client_room *r, char *buf, size_t len)
{
	snprintf(buf, len,
	    "Level %d: the square of the piece to take (like e4), or r to "
	    "retry the level: ",
	    shifter_level(r));
}

static enum cg_action
shifter_input(struct client_room *r, const char *line, char *move, size_t mlen,
    char *msg, size_t msglen)
{
	struct rules_move m;
	char err[RULES_ERR_MAX];

	games_trim(line, move, mlen);
	if (strcmp(move, "r") == 0 || strcmp(move, "R") == 0) {
		snprintf(move, mlen, "restart");
		return CG_VERB;
	}
	if (r->rg->parse_move(r->st, move, &m, err, sizeof err) != 0) {
		games_reason_default(r, err, msg, msglen);
		return CG_AGAIN;
	}
	return CG_SEND;
}

/* A level won, or no capture left. */
static void
shifter_ended(
    const struct client_room *r, const cJSON *ev, char *buf, size_t len)
{
	const cJSON *res = cJSON_GetObjectItemCaseSensitive(ev, "result");

	if (cJSON_IsString(res) && strcmp(res->valuestring, "solved") == 0)
		snprintf(buf, len, "Level %d won!", shifter_level(r));
	else
		snprintf(buf, len,
		    "No capture is left: the level is lost. Retry it "
		    "(y), or not (n).");
}

/* After a won level the next one; after a lost one, the same again. */
static const char *
shifter_again_verb(const struct client_room *r)
{
	return strcmp(r->result, "solved") == 0 ? "next" : "restart";
}

/* A won level below the last: the server begins the next one itself. */
static int
shifter_goes_on(const struct client_room *r, const cJSON *ev)
{
	const cJSON *res = cJSON_GetObjectItemCaseSensitive(ev, "result");

	return cJSON_IsString(res) && strcmp(res->valuestring, "solved") == 0 &&
	    shifter_level(r) < SHIFTER_MAX_LEVEL;
}

/* The start question's answer: 1 the last saved level (the file kept by
 * the last save on this machine, else the server's saved progress), 2
 * level 1. */
static int
shifter_start(struct client *c, const char *answer, cJSON *create, char *msg,
    size_t msglen)
{
	char a[8];
	cJSON *opts;
	size_t len;
	char *file;

	games_trim(answer, a, sizeof a);
	if (strcmp(a, "1") != 0 && strcmp(a, "2") != 0) {
		snprintf(msg, msglen, "Answer 1 or 2.");
		return 1;
	}
	opts = cJSON_AddObjectToObject(create, "options");
	if (opts == NULL)
		return -1;
	if (a[0] == '2') {
		cJSON_AddStringToObject(opts, "level", "1");
		return 0;
	}
	file = files_last(rules_shifter.name, &len);
	if (file == NULL) {
		snprintf(msg, msglen,
		    "No level was saved on this machine: "
		    "going on from your last level on the "
		    "server.");
		return 0;
	}
	cJSON_AddStringToObject(opts, "file", file);
	free(file);
	snprintf(msg, msglen, "Loading the last saved level.");
	return 0;
}

const struct client_game game_shifter = {
    .rules = &rules_shifter,
    .prompt = shifter_prompt,
    .input = shifter_input,
    .reason = games_reason_default,
    .ended = shifter_ended,
    .again = "Go on? (y/n):",
    .start_question = "Load the last saved level (1) or start at level 1 "
                      "(2)?",
    .start = shifter_start,
    .again_verb = shifter_again_verb,
    .goes_on = shifter_goes_on,
};
