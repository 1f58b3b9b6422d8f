/*
 * club.c: the club on the rooms. Through the room hooks, a game's start
 * settles its players' seeks and is told whether it is rated, and its
 * end is rated, then recorded, then
 * scored in its tournament: the rating's change goes into the result
 * before the tournament reads it and pairs its next round.
 */
#include "server/club/club.h"
#include "server/club/seek.h"
#include "server/club/tourney.h"

static void
club_room_started(struct room *r)
{
	seek_room_started(r);
	rating_game_start(r);
}

static void
club_room_ended(
    struct room *r, const char *result, int winner, const char *reason)
{
	rating_game_end(r, result, winner);
	record_game_end(r, result);
	tourney_room_ended(r, winner, reason);
}

static const struct room_hooks club_room_hooks = {
    .started = club_room_started,
    .ended = club_room_ended,
};

/* 1 after refusing req (not_ready) when the club's verbs run on another
 * node of the cluster (the node that holds the club's lease); 0 alone. */
int
club_refused(struct conn *c, const struct proto_request *req)
{
	const struct cluster_ops *cl = c->srv->cluster_ops;

	return cl != NULL && cl->club_refuse(c, req);
}

/* Attach the club to the rooms (at start, before any room is made). */
void
club_start(struct server *srv)
{
	room_hooks_add(srv, &club_room_hooks);
}
