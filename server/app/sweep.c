/*
 * sweep.c: tablerod's housekeeping, once a second on the event loop:
 * forgets abuse accounting at rest, expires waiting rooms whose creator
 * is gone, tells rooms whose gone player's grace is over (grace.c),
 * hourly prunes identities that never played, and (with
 * --keep-games-days) prunes old finished games through the store thread.
 */
#include <string.h>

#include "server/club/seek.h"
#include "server/app/app.h"
#include "server/cmd/cmd.h"
#include "server/club/club.h"
#include "server/net/limit.h"
#include "server/club/tourney.h"
#include "server/store/storeq.h"
#include "server/store/store.h"

/* Seconds between two sweeps: the finest expiry the flags can ask for. */
#define SWEEP_SEC 1
/* Seconds between two prunes of identities that never played. */
#define SWEEP_PRUNE_SEC 3600
/* Seconds between two prunes of finished games past --keep-games-days,
 * each of SERVER_GAMES_PRUNE_MAX games at most: up to 360,000 an hour,
 * far above the games per hour the limits let anyone keep. */
#define SWEEP_GAMES_SEC 10
/* Chains of the room index one sweep visits, from where the last one
 * stopped: the whole index every second up to SERVER_ROOM_BUCKETS rooms,
 * beyond that a pass of chains / 1024 seconds (the index has one to two
 * chains a room: 16 s at 10,000 rooms), so a sweep's pause on the loop
 * stays the same at any number of rooms; a waiting room whose creator is
 * gone expires that much late at most. */
#define SWEEP_ROOM_CHAINS 1024

/* Is the room waiting for players while its creator has been gone longer
 * than waiting_expire_sec? */
static int
sweep_expired(const struct room *r, int64_t now)
{
	int64_t limit = (int64_t)r->srv->cfg.waiting_expire_sec * 1000;
	int i;

	if (r->status != ROOM_WAITING)
		return 0;
	for (i = 0; i < r->g->seats; i++) {
		const struct room_seat *s = &r->seats[i];

		if (s->player == NULL || strcmp(s->player->name, r->creator))
			continue;
		return s->gone && now - s->gone_ms >= limit;
	}
	return 0;
}

/* Close the room if it expired (a visit of sweep_rooms). */
static void
sweep_room(struct table_link *l, void *arg)
{
	struct room *r = TABLE_ITEM(l, struct room, by_id);
	struct server *srv = r->srv;
	const int64_t *now = arg;

	grace_check(r, *now);
	if (!sweep_expired(r, *now))
		return;
	storeq_room_delete(srv->storeq, r->id);
	log_info("room %s: waiting with its creator %s gone for %d s; expired",
	    r->id, r->creator, srv->cfg.waiting_expire_sec);
	room_forget(r);
}

/* Close the waiting rooms whose creator is gone (see sweep_expired),
 * among those of SWEEP_ROOM_CHAINS chains of the room index: a delete
 * queued for the store, then gone from memory (memory is the truth: a
 * failing store retries the delete); room_forget lets go of the players
 * nothing else holds. */
static void
sweep_rooms(struct server *srv)
{
	int64_t now = clock_mono_ms();

	table_sweep(&srv->rooms_by_id, SWEEP_ROOM_CHAINS, sweep_room, &now);
}

/* Hand the store thread a prune of the finished games that ended more
 * than --keep-games-days ago (none when 0: kept for good); the loop does
 * not wait for it. */
static void
sweep_games(struct server *srv)
{
	int days = srv->cfg.keep_games_days;

	srv->games_pruned_ms = clock_mono_ms();
	if (days <= 0)
		return;
	storeq_games_prune(srv->storeq,
	    clock_now_ms() - (int64_t)days * 86400 * 1000,
	    SERVER_GAMES_PRUNE_MAX);
}

/* The hourly prunes: identities that never played, old marks of rated
 * games, messages kept too long or for identities gone. */
static void
sweep_prune(struct server *srv)
{
	player_prune(srv);
	rating_prune(srv);
	message_prune(srv);
}

static void
sweep_run(evutil_socket_t fd, short what, void *arg)
{
	struct server *srv = arg;

	if (srv->shutting_down)
		return;
	limit_sweep(srv);
	sweep_rooms(srv);
	seek_sweep(srv);
	match_sweep(srv);
	tourney_sweep(srv);
	if (clock_mono_ms() - srv->pruned_ms >= SWEEP_PRUNE_SEC * 1000)
		sweep_prune(srv);
	if (clock_mono_ms() - srv->games_pruned_ms >= SWEEP_GAMES_SEC * 1000)
		sweep_games(srv);
}

/* Sweep every SWEEP_SEC from now on (prune first at once). */
void
sweep_start(struct server *srv)
{
	struct timeval tv = {SWEEP_SEC, 0};

	srv->sweep = event_new(srv->base, -1, EV_PERSIST, sweep_run, srv);
	if (srv->sweep == NULL)
		fatal("out of memory");
	evtimer_add(srv->sweep, &tv);
	sweep_prune(srv);
	sweep_games(srv);
}

void
sweep_stop(struct server *srv)
{
	if (srv->sweep != NULL)
		event_free(srv->sweep);
	srv->sweep = NULL;
}
