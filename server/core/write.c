/*
 * write.c: the server's objects as store ops: a room's row and a move,
 * queued on the store thread (storeq.c) as part of the change being made.
 * Every write of a room or a move goes through here; recovery only reads.
 */
#include <stdlib.h>
#include <string.h>

#include "server/core/core.h"
#include "server/net/limit.h"
#include "server/store/store.h"
#include "server/store/storeq.h"

static cJSON *
write_seats_json(const struct room *r)
{
	cJSON *a = cJSON_CreateArray();
	int i;

	for (i = 0; i < r->g->seats; i++) {
		cJSON *s = cJSON_CreateObject();

		if (r->seats[i].player != NULL)
			cJSON_AddStringToObject(
			    s, "name", r->seats[i].player->name);
		else
			cJSON_AddNullToObject(s, "name");
		cJSON_AddNumberToObject(s, "bot", r->seats[i].bot);
		if (r->seats[i].depth > 0)
			cJSON_AddNumberToObject(s, "depth", r->seats[i].depth);
		cJSON_AddItemToArray(a, s);
	}
	return a;
}

/* Queue the room's row as part of the change being made. */
void
write_room(struct room *r)
{
	struct store_room sr;
	cJSON *seats = write_seats_json(r);
	char *options = cJSON_PrintUnformatted(r->options);
	char *seatstr = cJSON_PrintUnformatted(seats);
	char *result =
	    r->result != NULL ? cJSON_PrintUnformatted(r->result) : NULL;

	if (options == NULL || seatstr == NULL)
		fatal("out of memory");
	memset(&sr, 0, sizeof sr);
	sr.id = r->id;
	sr.game = r->g->name;
	sr.options = options;
	sr.seats = seatstr;
	sr.status = room_status_name(r->status);
	sr.result = result;
	sr.creator = r->creator;
	sr.is_private = r->is_private;
	sr.clock_initial_ms = r->clock_initial_ms;
	sr.clock_increment_ms = r->clock_inc_ms;
	sr.game_no = r->game_no;
	sr.created_ms = r->created_ms;
	sr.updated_ms = r->updated_ms;
	sr.seq = r->seq;
	sr.unrated = r->rated < 0 ? NULL : r->rated ? "" : r->unrated;
	storeq_room_save(r->srv->storeq, &sr);
	free(options);
	free(seatstr);
	free(result);
	cJSON_Delete(seats);
}

/* Queue a move (ply of the room's current game), keyed by room, game
 * and ply: written again harmlessly if its group is tried again. */
void
write_move(struct room *r, const struct room_move *mv, int ply)
{
	struct store_move sm;

	sm.ply = ply;
	sm.seat = mv->seat;
	sm.move = mv->notation;
	sm.clock_ms[0] = mv->clock_ms[0];
	sm.clock_ms[1] = mv->clock_ms[1];
	sm.at_ms = clock_now_ms();
	sm.seq = r->seq + 1; /* the moved event that follows */
	storeq_move_put(r->srv->storeq, r->id, r->game_no, &sm);
}
