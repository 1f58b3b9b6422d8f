/*
 * replay.c: a room's game as it stood after its first N moves, for `state`
 * with `at` (a replay with step controls in a client that keeps no rules):
 * the game's start played forward through the rules, move by move from
 * their notation, and the state's board, position, picture and turn
 * replaced by those of then.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/core/core.h"
#include "server/net/limit.h"

/* Rows "x..\n.o.\n" as a JSON array of strings. */
static cJSON *
replay_rows(char *buf)
{
	cJSON *rows = cJSON_CreateArray();
	char *p, *nl;

	for (p = buf; *p != '\0'; p = nl + 1) {
		nl = strchr(p, '\n');
		if (nl != NULL)
			*nl = '\0';
		cJSON_AddItemToArray(rows, cJSON_CreateString(p));
		if (nl == NULL)
			break;
	}
	return rows;
}

/* Put the position after r's first `at` moves into state (made by
 * room_state): 0, or -1 with why in err when the game has fewer moves
 * (or, never expected, a kept move no longer parses). */
int
replay_at(
    const struct room *r, long long at, cJSON *state, char *err, size_t errlen)
{
	char buf[RULES_TEXT_MAX];
	void *st;
	int i;

	if (at > r->nhist) {
		proto_errf(err, errlen, "at=%lld: the game has %d moves", at,
		    r->nhist);
		return -1;
	}
	st = xmalloc(r->g->state_size);
	memcpy(st, r->start, r->g->state_size);
	/* By notation, not by hist[].m: a game rebuilt from the store
	 * (archive.c) keeps only the moves' texts. */
	for (i = 0; i < at; i++) {
		struct rules_move m;
		char why[RULES_ERR_MAX];

		if (r->g->parse_move(
		        st, r->hist[i].notation, &m, why, sizeof why) != 0) {
			proto_errf(err, errlen,
			    "move %d (%s) cannot be replayed: %s", i + 1,
			    r->hist[i].notation, why);
			free(st);
			return -1;
		}
		r->g->apply(st, m);
	}
	if (r->g->board_rows(st, buf, sizeof buf) >= 0)
		cJSON_ReplaceItemInObject(state, "board", replay_rows(buf));
	if (r->g->to_position(st, buf, sizeof buf) >= 0)
		cJSON_ReplaceItemInObject(
		    state, "position", cJSON_CreateString(buf));
	if (r->g->render(st, buf, sizeof buf) >= 0)
		cJSON_ReplaceItemInObject(
		    state, "picture", cJSON_CreateString(buf));
	if (at < r->nhist)
		cJSON_ReplaceItemInObject(state, "turn",
		    cJSON_CreateString(r->g->seat_names[r->g->turn(st)]));
	proto_add_int(state, "at", at);
	free(st);
	return 0;
}
