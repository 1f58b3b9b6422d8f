/*
 * lobby.c: the rooms_changed event: a connection that asked for it
 * (hello's "lobby": true) hears that the lobby's list of rooms changed
 * (a room made, closed, started, ended, a seat taken or left, a player
 * gone or back), so that a lobby need not poll `rooms`. Changes are
 * coalesced: at most one event a LOBBY_EVERY_MS, carrying nothing but its
 * name (the client asks `rooms` again). Private rooms change nothing here.
 */

#include <string.h>

#include "server/core/core.h"

/* At most one rooms_changed a second: a busy server's lobby (games
 * starting and ending every moment) costs each listener one small event
 * a second and one `rooms` request, however many rooms change. */
#define LOBBY_EVERY_MS 1000

/* The room events after which a room's summary in `rooms` reads
 * differently (moves, chat and clocks change nothing there). */
static const char *const lobby_kinds[] = {"joined", "left", "started", "ended",
    "opponent_gone", "opponent_back", NULL};

/* Send rooms_changed to every logged-in connection that asked for it. */
static void
lobby_fire(evutil_socket_t fd, short what, void *arg)
{
	struct server *srv = arg;
	struct net_cache cache = {NULL, NULL, NULL};
	struct conn *c;
	cJSON *ev = proto_event(PROTO_EV_ROOMS_CHANGED, NULL, 0);

	if (ev == NULL)
		fatal("out of memory");
	srv->lobby_sent_ms = clock_mono_ms();
	TAILQ_FOREACH(c, &srv->conns, entry)
		if (c->lobby && c->player != NULL && c->state == CONN_OPEN)
			net_send_cached(c, ev, &cache);
	net_cache_clear(&cache);
	cJSON_Delete(ev);
}

/* The list of rooms changed with r: an event within LOBBY_EVERY_MS of
 * the last one (one for every change until then). */
void
lobby_touch(struct room *r)
{
	struct server *srv = r->srv;
	int64_t wait = srv->lobby_sent_ms + LOBBY_EVERY_MS - clock_mono_ms();
	struct timeval tv;

	if (r->is_private || srv->shutting_down)
		return;
	if (srv->lobby_timer == NULL)
		srv->lobby_timer = evtimer_new(srv->base, lobby_fire, srv);
	if (evtimer_pending(srv->lobby_timer, NULL))
		return;
	if (wait < 0)
		wait = 0;
	tv.tv_sec = (time_t)(wait / 1000);
	tv.tv_usec = (suseconds_t)(wait % 1000) * 1000;
	evtimer_add(srv->lobby_timer, &tv);
}

/* lobby_touch when ev (a room event of r about to be sent) is one that
 * changes r's summary. */
void
lobby_event(struct room *r, const cJSON *ev)
{
	const char *kind =
	    cJSON_GetStringValue(cJSON_GetObjectItem(ev, "event"));
	int i;

	if (kind == NULL)
		return;
	for (i = 0; lobby_kinds[i] != NULL; i++)
		if (strcmp(kind, lobby_kinds[i]) == 0) {
			lobby_touch(r);
			return;
		}
}

/* Free the timer (at exit). */
void
lobby_free(struct server *srv)
{
	if (srv->lobby_timer != NULL)
		event_free(srv->lobby_timer);
	srv->lobby_timer = NULL;
}
