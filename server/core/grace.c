/*
 * grace.c: the end of a gone player's grace period, said when it comes.
 * A player whose connection dropped keeps the seat for --grace seconds;
 * once they are over, the room hears "bob did not come back: claim wins
 * r4" (the grace_over event), so the opponent need not poll with claim.
 * The sweep looks once a second (sweep.c); each absence is told once,
 * and not while the store is failing (it is told when the store is back).
 */
#include "server/core/core.h"
#include "server/net/limit.h"
#include "server/store/storeq.h"

/* Tell the room that the seat's grace is over, once per absence (the
 * absence is known by when it began). */
static void
grace_tell(struct room *r, int seat)
{
	struct room_seat *s = &r->seats[seat];
	cJSON *ev;

	s->grace_told_ms = s->gone_ms;
	room_commit(r, 1, 0); /* its seq stored, as every room event's */
	ev = room_event(r, PROTO_EV_GRACE_OVER);
	cJSON_AddStringToObject(ev, "name", s->player->name);
	cJSON_AddStringToObject(ev, "seat", r->g->seat_names[seat]);
	room_broadcast(r, ev);
}

/* A running two-player game whose gone player's grace has just run out,
 * while the opponent is there to claim it: tell the room. */
void
grace_check(struct room *r, int64_t now)
{
	int64_t grace = (int64_t)r->srv->cfg.grace_sec * 1000;
	int i;

	/* a change the store cannot keep now waits, as verbs are refused:
	 * the room hears it once the store works again */
	if (r->status != ROOM_PLAYING || r->g->seats != 2 ||
	    storeq_failing(r->srv->storeq))
		return;
	for (i = 0; i < 2; i++) {
		struct room_seat *s = &r->seats[i], *o = &r->seats[1 - i];

		if (!s->gone || s->player == NULL || o->player == NULL ||
		    o->gone || s->grace_told_ms == s->gone_ms ||
		    now - s->gone_ms < grace)
			continue;
		grace_tell(r, i);
	}
}
