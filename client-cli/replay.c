/*
 * replay.c: the last move of a room the client (re)joins, for the
 * highlight. A state gives the position after the last move and the
 * history in pages, never the position before it, so the game is played
 * again here from the room's options (as the server starts it) through
 * every page of history (`state since=N` for the next one), and the
 * position before the last move is kept. The replay counts only when it
 * ends on the state's own position; anything else (a move this client
 * cannot parse, a move played meanwhile) leaves the board unmarked.
 */
#include <string.h>

#include "client-cli/client.h"

/* An integer member of o, or -1 when absent or out of range. */
static long long
replay_int(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsNumber(v) || v->valuedouble < 0 ||
	    v->valuedouble > (double)PROTO_INT_MAX)
		return -1;
	return (long long)v->valuedouble;
}

/* The game's start from the room's options, as the server sets it up. */
static int
replay_init(struct client_room *r)
{
	struct rules_opt opts[PROTO_MAX_OPTIONS + 1];
	char err[RULES_ERR_MAX];
	const cJSON *o;
	int n = 0;

	cJSON_ArrayForEach(o, r->options) {
		if (!cJSON_IsString(o) || n >= PROTO_MAX_OPTIONS + 1)
			return -1;
		opts[n++] = (struct rules_opt){
		    .key = o->string, .value = o->valuestring};
	}
	memset(r->replay, 0, sizeof r->replay);
	return rules_start(r->rg, r->replay, opts, n, err, sizeof err);
}

/* Start replaying the room from a state just taken (room_from_state):
 * 0 when there is a history to replay, -1 when not (nothing to mark). */
int
replay_start(struct client_room *r, const cJSON *st)
{
	r->replaying = 0;
	r->replay_total = replay_int(st, "history_total");
	if (r->rg == NULL || !r->have_state || r->replay_total <= 0 ||
	    replay_init(r) != 0)
		return -1;
	r->replay_n = 0;
	r->replaying = 1;
	return 0;
}

/* The replay is over: the last move is marked when the replay ended on
 * the state's own position. */
static void
replay_finish(struct client_room *r)
{
	char a[RULES_LINE_MAX], b[RULES_LINE_MAX];

	r->replaying = 0;
	if (r->rg->to_position(r->replay, a, sizeof a) < 0 ||
	    r->rg->to_position(r->st, b, sizeof b) < 0 || strcmp(a, b) != 0)
		return;
	r->last = r->replay_last;
	r->have_last = 1;
}

/* One page of history (a state of the room being replayed): its moves
 * played on. The `since` of the next page to ask, 0 when the replay is
 * over (r->have_last says whether it found the last move), -1 when it
 * failed. */
long long
replay_page(struct client_room *r, const cJSON *st)
{
	const cJSON *h, *e;
	char err[RULES_ERR_MAX];

	if (!r->replaying || replay_int(st, "history_since") != r->replay_n ||
	    replay_int(st, "history_total") != r->replay_total) {
		r->replaying = 0;
		return -1;
	}
	h = cJSON_GetObjectItemCaseSensitive(st, "history");
	cJSON_ArrayForEach(e, h) {
		const cJSON *mv = cJSON_GetObjectItemCaseSensitive(e, "move");
		struct rules_move m;
		if (!cJSON_IsString(mv) ||
		    r->rg->parse_move(
		        r->replay, mv->valuestring, &m, err, sizeof err) != 0 ||
		    r->replay_n >= r->replay_total) {
			r->replaying = 0;
			return -1;
		}
		if (r->replay_n + 1 == r->replay_total) {
			memcpy(r->before, r->replay, sizeof r->before);
			r->replay_last = m;
		}
		r->rg->apply(r->replay, m);
		r->replay_n++;
	}
	if (r->replay_n < r->replay_total && cJSON_GetArraySize(h) > 0)
		return r->replay_n;
	if (r->replay_n == r->replay_total)
		replay_finish(r);
	r->replaying = 0;
	return 0;
}
