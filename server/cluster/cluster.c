/*
 * cluster.c: a tablerod node in a cluster (docs/SCALING.md part 3). One
 * asynchronous hiredis connection on the server's event loop carries the
 * node's heartbeat (node:{id}) and the leases of the rooms it owns
 * (room:{id}:owner = "node:epoch"). The epoch of a lease is the room's
 * owner_epoch in PostgreSQL, raised by one each time a node takes the
 * room: every op of the room carries it and a commit whose room holds a
 * higher one is refused (pg.c's fence), so a node that lost a room while
 * cut off cannot write a second history; it drops the room and tells its
 * players to reconnect. A periodic scan takes the unfinished rooms whose
 * lease is free (their node died or never was): SET NX, then the claim in
 * PostgreSQL, then the room replayed from what is stored.
 *
 * Redis going away is weather, not defeat (docs/SCALING.md, "Under
 * faults"): the node keeps its rooms and plays on what it can (its own
 * players' moves are stored in PostgreSQL under the fence), refuses what
 * needs Redis with not_ready, and judges nobody gone; when Redis answers
 * again, it sets its leases, watchers and presence again from memory
 * (Redis holds nothing the nodes cannot rebuild), sends again what may
 * have been lost, and waits CLUSTER_SETTLE_MS before taking anyone's
 * rooms, so that every live node has set its own leases first.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hiredis/adapters/libevent.h>
#include <hiredis/async.h>
#include <hiredis/hiredis.h>

#include "server/cluster/cluster.h"
#include "server/cluster/cluster_int.h"
#include "server/cmd/cmd.h"
#include "server/club/club.h"
#include "server/net/limit.h"
#include "server/store/store.h"
#include "server/store/storeq.h"

/* Compare and renew (or take back after Redis lost it) one lease:
 * 1 renewed, 2 set again (Redis restarted), 0 another node holds it, 3
 * in doubt: another node's "node:0", a take not yet claimed in the store
 * (or a stale SET NX that a stopped Redis ran late, which lapses): kept,
 * since the store's fence decides if that node claims it. */
#define CLUSTER_RENEW_LUA                                                      \
	"local v = redis.call('GET', KEYS[1]) "                                \
	"if v == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) "        \
	"return 1 end "                                                        \
	"if not v then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) "    \
	"return 2 end "                                                        \
	"if string.sub(v, -2) == ':0' then return 3 end return 0"
/* Compare and mark gone one lease (a room leaving memory for good): its
 * value becomes CLUSTER_GONE for CLUSTER_GONE_MS. */
#define CLUSTER_RETIRE_LUA                                                     \
	"if redis.call('GET', KEYS[1]) == ARGV[1] then "                       \
	"return redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end "       \
	"return 0"

int
cluster_stats(const struct server *srv, struct cluster_stats *st)
{
	const struct cluster *cl = srv->cluster;
	const struct room *r;

	memset(st, 0, sizeof *st);
	if (cl == NULL)
		return -1;
	*st = cl->stats;
	st->redis_up = cluster_redis_up(cl);
	st->club = cl->club_epoch > 0;
	TAILQ_FOREACH(r, &srv->rooms, entry) {
		st->leases += r->epoch > 0;
		st->clocks_stopped += r->clock_stop_ms != 0;
	}
	st->standins = cluster_standin_count(cl);
	cluster_link_count(cl, &st->links_out, &st->links_in);
	return 0;
}

int
cluster_ready(const struct server *srv)
{
	return srv->cluster == NULL ||
	    (cluster_redis_up(srv->cluster) && srv->cluster->store_ok);
}

/* The lease's key and this node's value for epoch. */
static void
cluster_lease(const struct cluster *cl, const char *room, long long epoch,
    char *key, char *val)
{
	snprintf(key, CLUSTER_KEY, "room:%s:owner", room);
	snprintf(val, CLUSTER_KEY, "%s:%lld", cl->node, epoch);
}

void
cluster_tell(struct conn *c, const char *room, const char *what)
{
	struct server *srv = c->srv;
	int was = srv->out_free;
	cJSON *ev;

	if (c->state != CONN_OPEN)
		return;
	held_free(c);
	ev = proto_event(PROTO_EV_RECONNECT, NULL, 0);
	if (room != NULL)
		cJSON_AddStringToObject(ev, "room", room);
	else
		cJSON_AddNullToObject(ev, "room");
	cJSON_AddStringToObject(ev, "message", what);
	conn_said(c, ev, what); /* its msgid: a fixed sentence */
	srv->out_free = 1;
	net_send_msg(c, ev);
	srv->out_free = was;
	cJSON_Delete(ev);
	net_close(c, 1);
}

/* Room r is another node's now: out of memory, its people told. */
static void
cluster_drop(struct room *r, const char *why)
{
	char id[SERVER_ROOM_ID_MAX];
	int i;

	snprintf(id, sizeof id, "%s", r->id);
	log_warn("cluster: room %s lost (%s): its players are told to "
	         "reconnect",
	    id, why);
	for (i = 0; i < r->g->seats; i++)
		if (r->seats[i].player != NULL &&
		    r->seats[i].player->conn != NULL)
			cluster_tell(
			    r->seats[i].player->conn, id, CLUSTER_MOVED);
	for (i = 0; i < r->nwatchers; i++)
		if (r->watchers[i]->conn != NULL)
			cluster_tell(r->watchers[i]->conn, id, CLUSTER_MOVED);
	r->epoch = 0; /* nothing to give back: the lease is not ours */
	room_forget(r);
}

/* The store's fence: the epoch this node holds on a room. A room not in
 * memory is one being made here (its first save comes before room_add):
 * its first epoch, 1. */
static long long
cluster_fence_epoch(void *arg, const char *room)
{
	struct room *r;

	if (strcmp(room, STORE_CLUB_KEY) == 0)
		return cluster_club_fence_epoch(arg);
	r = room_find(((struct cluster *)arg)->srv, room);
	return r != NULL && r->epoch > 0 ? r->epoch : 1;
}

/* The store refused a room's ops: another node took it. */
static void
cluster_fence_lost(void *arg, const char *room)
{
	struct room *r;

	if (strcmp(room, STORE_CLUB_KEY) == 0) {
		cluster_club_fenced(arg);
		return;
	}
	r = room_find(((struct cluster *)arg)->srv, room);
	if (r != NULL && r->epoch > 0)
		cluster_drop(r,
		    "another node took it: its last changes were "
		    "not stored");
}

int
cluster_bad(const redisReply *rep)
{
	return rep == NULL || rep->type == REDIS_REPLY_ERROR;
}

/* A lease renewal answered; arg: the room's id (ours to free). */
static void
cluster_renewed(redisAsyncContext *ac, void *reply, void *arg)
{
	struct cluster *cl = ac->data;
	redisReply *rep = reply;
	struct room *r;

	r = cl != NULL ? room_find(cl->srv, arg) : NULL;
	if (r != NULL && r->epoch > 0 && !cluster_bad(rep) &&
	    rep->type == REDIS_REPLY_INTEGER) {
		if (rep->integer == 1 || rep->integer == 2)
			r->lease_ms = clock_mono_ms();
		else if (rep->integer == 0)
			cluster_drop(r, "its lease is another node's");
	}
	free(arg);
}

/* Send one command for room id with cb, which frees its copy of id. */
static void
cluster_room_cmd(struct cluster *cl, redisCallbackFn *cb, const char *id,
    const char *lua, const char *key, const char *val, long ms)
{
	char *copy = xstrdup(id);

	if (cl->ac == NULL ||
	    redisAsyncCommand(cl->ac, cb, copy, "EVAL %s 1 %s %s %ld", lua, key,
	        val, ms) != REDIS_OK)
		free(copy);
}

/* Renew every lease this node holds (set again where Redis lost it). A
 * room is never dropped for a lease that lapsed while Redis was away:
 * nobody could take it then, and a node that took it since (Redis came
 * back to it first) fences this one's writes in the store, or is seen
 * holding the lease at the next renewal. */
static void
cluster_renew_all(struct cluster *cl)
{
	char key[CLUSTER_KEY], val[CLUSTER_KEY];
	struct room *r;

	if (!cluster_redis_up(cl))
		return;
	TAILQ_FOREACH(r, &cl->srv->rooms, entry) {
		if (r->epoch <= 0)
			continue;
		cluster_lease(cl, r->id, r->epoch, key, val);
		cluster_room_cmd(cl, cluster_renewed, r->id, CLUSTER_RENEW_LUA,
		    key, val, CLUSTER_LEASE_MS);
	}
}

/* The claimed room as stored: replayed into this node's memory. */
static int
cluster_load_one(void *arg, const struct store_room *sr,
    const struct store_move *moves, int nmoves)
{
	struct room *r = recover_room(arg, sr, moves, nmoves);

	/* room_add gave it the claim's epoch (cluster_room_added). */
	if (r != NULL)
		room_recovered(r);
	return 0;
}

/* A free lease taken (SET NX) for a room found unowned: claim it in the
 * store (fencing whoever had it) and load it; arg: the room's id. */
static void
cluster_taken(redisAsyncContext *ac, void *reply, void *arg)
{
	struct cluster *cl = ac->data;
	redisReply *rep = reply;
	char key[CLUSTER_KEY], val[CLUSTER_KEY];
	long long epoch = 0;
	struct room *r;

	if (cl == NULL) {
		free(arg);
		return;
	}
	cl->scanning--;
	if (cluster_bad(rep) || rep->type != REDIS_REPLY_STATUS ||
	    room_find(cl->srv, arg) != NULL) {
		free(arg);
		return;
	}
	cl->claiming = &epoch;
	if (store_room_claim(
	        cl->srv->reader, arg, &epoch, cluster_load_one, cl->srv) != 0)
		log_error("cluster: room %s: %s", (char *)arg,
		    store_errmsg(cl->srv->reader));
	cl->claiming = NULL;
	r = room_find(cl->srv, arg);
	if (r != NULL && epoch > 0) {
		r->lease_ms = clock_mono_ms();
		cluster_lease(cl, r->id, epoch, key, val);
		redisAsyncCommand(cl->ac, NULL, NULL, "SET %s %s PX %d", key,
		    val, CLUSTER_LEASE_MS);
		log_info("cluster: room %s taken (epoch %lld)", r->id, epoch);
		cl->stats.taken++;
		cluster_standin_seats(cl, r);
		cluster_standin_watchers(cl, r);
	} else {
		/* Ended meanwhile, or set aside: the lease goes. */
		cluster_lease(cl, arg, 0, key, val);
		redisAsyncCommand(cl->ac, NULL, NULL, "DEL %s", key);
	}
	free(arg);
}

/* What one look at the store's unfinished rooms collects. */
struct cluster_scan_walk {
	struct cluster *cl;
	char (*ids)[SERVER_ROOM_ID_MAX];
	int n, cap;
	int take; /* try the leases of those not in memory */
};

/* One unfinished room of the store: noted; not in memory, its lease is
 * tried. */
static int
cluster_scan_one(void *arg, const char *const *vals)
{
	struct cluster_scan_walk *w = arg;
	struct cluster *cl = w->cl;
	char key[CLUSTER_KEY], val[CLUSTER_KEY];
	char *copy;

	if (strlen(vals[0]) >= SERVER_ROOM_ID_MAX)
		return 0;
	if (w->n == w->cap) {
		w->cap = w->cap > 0 ? 2 * w->cap : 64;
		w->ids = xrealloc(w->ids, (size_t)w->cap * sizeof *w->ids);
	}
	snprintf(w->ids[w->n++], sizeof w->ids[0], "%s", vals[0]);
	if (!w->take || room_find(cl->srv, vals[0]) != NULL || cl->ac == NULL)
		return 0;
	cluster_lease(cl, vals[0], 0, key, val);
	copy = xstrdup(vals[0]);
	if (redisAsyncCommand(cl->ac, cluster_taken, copy, "SET %s %s NX PX %d",
	        key, val, CLUSTER_LEASE_MS) != REDIS_OK)
		free(copy);
	else
		cl->scanning++;
	return 0;
}

/* Two room ids, for qsort and bsearch. */
static int
cluster_id_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

void
cluster_scan(struct cluster *cl)
{
	struct cluster_scan_walk w = {cl, NULL, 0, 0, 0};

	if (cl->scanning > 0 || !cluster_redis_up(cl) || cl->srv->shutting_down)
		return;
	/* Rooms nobody holds are taken only once every live node has had
	 * the time to set its own leases again after Redis came back. */
	w.take = cluster_redis_settled(cl);
	if (store_rooms_unfinished(cl->srv->reader, cluster_scan_one, &w) !=
	    0) {
		/* Not ready (ping says so) until the store answers again. */
		if (cl->store_ok)
			log_error("cluster: cannot list rooms: %s",
			    store_errmsg(cl->srv->reader));
		cl->store_ok = 0;
		free(w.ids);
		return;
	}
	if (!cl->store_ok)
		log_info("cluster: the store answers again");
	cl->store_ok = 1;
	if (w.n > 1)
		qsort(w.ids, (size_t)w.n, sizeof w.ids[0], cluster_id_cmp);
	free(cl->unfinished);
	cl->unfinished = w.ids;
	cl->nunfinished = w.n;
	cl->unfinished_ms = clock_mono_ms();
}

int
cluster_room_unfinished(const struct cluster *cl, const char *id)
{
	if (cl->unfinished_ms == 0)
		return 1;
	return cl->nunfinished > 0 &&
	    bsearch(id, cl->unfinished, (size_t)cl->nunfinished,
	        sizeof cl->unfinished[0], cluster_id_cmp) != NULL;
}

/* What a look at the store finds while Redis is away. */
struct cluster_away_walk {
	struct cluster *cl;
	char (*taken)[SERVER_ROOM_ID_MAX];
	int n, cap;
};

/* One unfinished room of the store: one of this node's whose epoch rose
 * (another node, which has Redis, took it) is noted. */
static int
cluster_away_one(void *arg, const char *const *vals)
{
	struct cluster_away_walk *w = arg;
	struct room *r = room_find(w->cl->srv, vals[0]);

	if (r == NULL || r->epoch <= 0 || vals[1] == NULL ||
	    atoll(vals[1]) <= r->epoch)
		return 0;
	if (w->n == w->cap) {
		w->cap = w->cap > 0 ? 2 * w->cap : 8;
		w->taken =
		    xrealloc(w->taken, (size_t)w->cap * sizeof *w->taken);
	}
	snprintf(w->taken[w->n++], sizeof w->taken[0], "%s", vals[0]);
	return 0;
}

/* This node's players told to connect again (room NULL: none), once per
 * absence of Redis: a node that has Redis serves them. */
static void
cluster_drain(struct cluster *cl, const char *why)
{
	struct server *srv = cl->srv;
	struct conn *c, **all;
	int i, n = 0;

	log_warn("cluster: Redis away for %lld s, %s: this node's players "
	         "are told to connect again",
	    (long long)((clock_mono_ms() - cl->down_ms) / 1000), why);
	cl->drained = 1;
	all =
	    xmalloc((size_t)(srv->nconns > 0 ? srv->nconns : 1) * sizeof *all);
	TAILQ_FOREACH(c, &srv->conns, entry)
		if (c->state == CONN_OPEN && c->player != NULL &&
		    !cluster_route_is_standin(c) && n < srv->nconns)
			all[n++] = c;
	for (i = 0; i < n; i++)
		cluster_tell(all[i], NULL,
		    "this server lost the rest of the cluster: connect again "
		    "and log in with hello NAME TOKEN");
	free(all);
}

/* Redis away past a lease: the store says whether another node took
 * this node's rooms (then that node serves, and this one's rooms and
 * players go to it); past CLUSTER_DRAIN_MS the players go anyway. */
static void
cluster_away(struct cluster *cl)
{
	struct cluster_away_walk w = {cl, NULL, 0, 0};
	struct room *r;
	int64_t away;
	int i;

	if (cl->down_ms == 0 || cl->drained || cl->srv->shutting_down)
		return;
	away = clock_mono_ms() - cl->down_ms;
	if (away < CLUSTER_LEASE_MS)
		return;
	if (store_rooms_unfinished(cl->srv->reader, cluster_away_one, &w) != 0)
		log_error("cluster: cannot list rooms: %s",
		    store_errmsg(cl->srv->reader));
	for (i = 0; i < w.n; i++)
		if ((r = room_find(cl->srv, w.taken[i])) != NULL)
			cluster_drop(r,
			    "another node took it while this node "
			    "could not reach Redis");
	free(w.taken);
	if (w.n > 0)
		cluster_drain(cl, "another node took its rooms");
	else if (away >= CLUSTER_DRAIN_MS)
		cluster_drain(cl, "past the time it waits");
}

/* Every CLUSTER_TICK_MS: connect what is not, renew, write this node's
 * part of the lobby, acknowledge, beat (the scan follows the beat's
 * answer). */
static void
cluster_tick(evutil_socket_t fd, short what, void *arg)
{
	struct cluster *cl = arg;
	char key[CLUSTER_KEY], val[CLUSTER_KEY];

	(void)fd;
	(void)what;
	cluster_redis_tick(cl);
	cluster_standin_tick(cl);
	if (!cluster_redis_up(cl))
		cluster_away(cl);
	if (cl->ac == NULL)
		return;
	if (cluster_redis_up(cl)) {
		cluster_renew_all(cl);
		cluster_club_tick(cl);
		cluster_lobby_tick(cl);
		cluster_limit_tick(cl);
		cluster_route_tick(cl);
		cluster_link_tick(cl);
	}
	snprintf(key, sizeof key, "node:%s", cl->node);
	snprintf(val, sizeof val, "inc=%llu pid=%ld port=%d", cl->inc,
	    (long)getpid(), cl->srv->cfg.port);
	cluster_redis_beat(cl, key, val);
}

/* The entries of watchers:{room} of every room here, written again (Redis
 * lost them, or may have). */
static void
cluster_rewatch(struct cluster *cl)
{
	char key[CLUSTER_KEY], val[CLUSTER_KEY];
	struct room *r;
	int i;

	TAILQ_FOREACH(r, &cl->srv->rooms, entry) {
		if (r->epoch <= 0 || r->status == ROOM_ENDED)
			continue;
		snprintf(key, sizeof key, "watchers:%s", r->id);
		for (i = 0; i < r->nwatchers; i++) {
			if (r->watchers[i]->conn == NULL)
				continue;
			cluster_standin_watcher_val(cl, r->watchers[i]->conn,
			    r->watchers[i], val, sizeof val);
			redisAsyncCommand(
			    cl->ac, NULL, NULL, "SADD %s %s", key, val);
		}
	}
}

/* 1 when a seated, present player of r is another node's (a stand-in
 * here): one Redis carries their moves to this node. */
static int
cluster_room_remote(const struct room *r)
{
	int i;

	for (i = 0; i < r->g->seats && i < 2; i++) {
		const struct player *p = r->seats[i].player;

		if (p != NULL && !r->seats[i].gone && p->conn != NULL &&
		    cluster_route_is_standin(p->conn))
			return 1;
	}
	return 0;
}

void
cluster_clocks(struct cluster *cl, int stop)
{
	struct room *r;
	int n = 0;

	TAILQ_FOREACH(r, &cl->srv->rooms, entry) {
		if (stop && r->clock_stop_ms == 0 &&
		    r->status == ROOM_PLAYING && r->clock_initial_ms > 0 &&
		    cluster_room_remote(r)) {
			room_clock_stop(r);
			n++;
		} else if (!stop && r->clock_stop_ms != 0) {
			room_clock_go(r);
			n++;
		}
	}
	if (n > 0)
		log_info("cluster: clocks %s in %d room%s",
		    stop ? "stopped" : "going again", n, n == 1 ? "" : "s");
}

void
cluster_back(struct cluster *cl)
{
	cl->drained = 0;
	cluster_clocks(cl, 0);
	cluster_renew_all(cl);
	cluster_club_tick(cl);
	cluster_lobby_tick(cl);
	cluster_limit_tick(cl);
	cluster_rewatch(cl);
	cluster_standin_back(cl);
	cluster_route_back(cl);
	cluster_link_tick(cl);
}

static void cluster_room_added(struct room *r);
static void cluster_room_gone(struct room *r);
static void cluster_watcher(struct room *r, struct player *p, int add);

/* The cluster for the layers below (core.h). */
static const struct cluster_ops cluster_ops = {
    .ready = cluster_ready,
    .route = cluster_route_forward,
    .route_bare = cluster_route_bare,
    .conn_closed = cluster_route_closed,
    .hello = cluster_player_hello,
    .hello_rooms = cluster_hello_rooms,
    .lobby_rooms = cluster_lobby_rooms,
    .lobby_who = cluster_lobby_who,
    .rooms_elsewhere = cluster_rooms_elsewhere,
    .finger_rooms = cluster_finger_rooms,
    .online = cluster_online_elsewhere,
    .deliver = cluster_club_deliver,
    .club_here = cluster_club_here,
    .club_refuse = cluster_club_refuse,
    .club_room_away = cluster_club_room_away,
    .club_room_ended = cluster_club_room_ended,
    .is_standin = cluster_route_is_standin,
    .admin = cluster_admin_send,
};

/* The rooms' changes the cluster follows: leases and watchers. */
static const struct room_hooks cluster_room_hooks = {
    .added = cluster_room_added,
    .gone = cluster_room_gone,
    .watcher = cluster_watcher,
};

/* The default node id: hostname-pid, cut to what --node allows. */
static void
cluster_default_node(struct cluster *cl)
{
	char host[CLUSTER_NODE_MAX + 1] = "node";
	size_t i;

	gethostname(host, sizeof host - 1);
	host[sizeof host - 1] = '\0';
	for (i = 0; host[i] != '\0'; i++)
		if (!isalnum((unsigned char)host[i]) && host[i] != '-' &&
		    host[i] != '.')
			host[i] = '_';
	snprintf(cl->node, sizeof cl->node, "%.40s-%ld", host, (long)getpid());
}

int
cluster_check(const struct config *cfg, char *err, size_t errlen)
{
	struct cluster *cl;
	int rc;

	if (cfg->redis == NULL && cfg->redis_sentinel == NULL) {
		if (cfg->redis_master == NULL &&
		    cfg->redis_password_file == NULL && cfg->node_link == NULL)
			return 0;
		snprintf(err, errlen,
		    "--redis-master, --redis-password-file and --node-link go "
		    "with --redis or --redis-sentinel");
		return -1;
	}
	cl = xcalloc(1, sizeof *cl);
	rc = cluster_redis_config(cl, cfg, err, errlen);
	if (rc == 0)
		rc = cluster_link_config(cl, cfg, err, errlen);
	sodium_memzero(cl->pass, sizeof cl->pass);
	free(cl);
	return rc;
}

int
cluster_start(struct server *srv)
{
	struct timeval tv = {
	    CLUSTER_TICK_MS / 1000, (CLUSTER_TICK_MS % 1000) * 1000};
	struct cluster *cl;
	char err[CLUSTER_ERR];

	if (srv->cfg.redis == NULL && srv->cfg.redis_sentinel == NULL)
		return 0;
	cl = xcalloc(1, sizeof *cl);
	cl->srv = srv;
	cl->store_ok = 1;
	cl->inc = cluster_node_new_inc();
	snprintf(cl->inc_text, sizeof cl->inc_text, "%llu", cl->inc);
	TAILQ_INIT(&cl->inflight);
	TAILQ_INIT(&cl->unacked);
	/* Entries from now on: not those a node of the same name left
	 * (stream ids are Redis's clock in ms; nodes keep clocks close). */
	snprintf(cl->last_id, sizeof cl->last_id, "%lld-0",
	    (long long)clock_now_ms());
	if (cluster_redis_config(cl, &srv->cfg, err, sizeof err) != 0 ||
	    cluster_link_config(cl, &srv->cfg, err, sizeof err) != 0) {
		log_error("%s", err);
		free(cl);
		return -1;
	}
	if (srv->cfg.node != NULL)
		snprintf(cl->node, sizeof cl->node, "%s", srv->cfg.node);
	else
		cluster_default_node(cl);
	cluster_stream_start(cl);
	cl->tick = event_new(srv->base, -1, EV_PERSIST, cluster_tick, cl);
	if (cl->tick == NULL)
		fatal("out of memory");
	event_add(cl->tick, &tv);
	srv->cluster = cl;
	srv->cluster_ops = &cluster_ops;
	room_hooks_add(srv, &cluster_room_hooks);
	storeq_set_fence(
	    srv->storeq, cluster_fence_epoch, cluster_fence_lost, cl);
	if (cl->nsentinels > 0)
		log_info("cluster: node %s (incarnation %llu) joining through "
		         "Redis master %s, asking %d sentinels%s",
		    cl->node, cl->inc, cl->master, cl->nsentinels,
		    cl->pass[0] != '\0' ? ", with AUTH" : "");
	else
		log_info("cluster: node %s (incarnation %llu) joining through "
		         "Redis %s:%d%s",
		    cl->node, cl->inc, cl->host, cl->port,
		    cl->pass[0] != '\0' ? ", with AUTH" : "");
	cluster_tick(-1, 0, cl);
	return 0;
}

void
cluster_stop(struct server *srv)
{
	struct cluster *cl = srv->cluster;

	if (cl == NULL)
		return;
	event_free(cl->tick);
	cluster_route_stop(cl);
	cluster_standin_stop(cl);
	cluster_stream_stop(cl);
	cluster_link_stop(cl);
	cluster_redis_stop(cl);
	srv->cluster = NULL;
	srv->cluster_ops = NULL;
	cJSON_Delete(cl->lobby);
	free(cl->unfinished);
	free(cl);
}

/* A room joins this node's memory: a new room takes its lease. */
static void
cluster_room_added(struct room *r)
{
	struct cluster *cl = r->srv->cluster;
	char key[CLUSTER_KEY], val[CLUSTER_KEY];

	if (cl == NULL)
		return;
	if (cl->claiming != NULL) {
		/* Claimed: cluster_taken sets its lease. */
		r->epoch = *cl->claiming;
		r->lease_ms = clock_mono_ms();
		return;
	}
	/* A new room: its first lease, epoch 1, stored with it. */
	r->epoch = 1;
	r->lease_ms = clock_mono_ms();
	if (!cluster_redis_up(cl))
		return; /* the next renewal sets it */
	cluster_lease(cl, r->id, r->epoch, key, val);
	redisAsyncCommand(cl->ac, NULL, NULL, "SET %s %s NX PX %d", key, val,
	    CLUSTER_LEASE_MS);
}

/* A watcher came to or left room r here: kept in Redis, so that the node
 * that takes the room after this one goes on sending them its events. */
static void
cluster_watcher(struct room *r, struct player *p, int add)
{
	struct cluster *cl = r->srv->cluster;
	char key[CLUSTER_KEY], val[CLUSTER_KEY];

	if (cl == NULL || cl->ac == NULL || p->conn == NULL)
		return;
	cluster_standin_watcher_val(cl, p->conn, p, val, sizeof val);
	snprintf(key, sizeof key, "watchers:%s", r->id);
	redisAsyncCommand(
	    cl->ac, NULL, NULL, "%s %s %s", add ? "SADD" : "SREM", key, val);
}

/* A room leaves this node's memory: its lease is given back. */
static void
cluster_room_gone(struct room *r)
{
	struct cluster *cl = r->srv->cluster;
	char key[CLUSTER_KEY], val[CLUSTER_KEY];

	if (cl == NULL)
		return;
	cluster_standin_room_gone(cl, r);
	if (r->epoch <= 0 || cl->ac == NULL)
		return;
	/* Every room_forget but cluster_drop's (epoch 0) is for good: the
	 * room left the store too. */
	cluster_lease(cl, r->id, r->epoch, key, val);
	redisAsyncCommand(cl->ac, NULL, NULL, "EVAL %s 1 %s %s %s %d",
	    CLUSTER_RETIRE_LUA, key, val, CLUSTER_GONE, CLUSTER_GONE_MS);
	if (r->status == ROOM_ENDED) {
		snprintf(key, sizeof key, "watchers:%s", r->id);
		redisAsyncCommand(cl->ac, NULL, NULL, "DEL %s", key);
	}
}

/* The ids of p's rooms on this node, for the store to leave out. */
static const char **
cluster_local_ids(const struct player *p)
{
	const char **skip = xmalloc(((size_t)p->nrooms + 1) * sizeof *skip);
	int i;

	for (i = 0; i < p->nrooms; i++)
		skip[i] = p->rooms[i]->id;
	return skip;
}

/* One stored room as hello lists it when another node holds it: what the
 * store knows (docs/PROTOCOL.md, hello). */
static int
cluster_hello_room(void *arg, const struct store_room *sr,
    const struct store_move *moves, int nmoves)
{
	const struct rules_game *g = rules_find(sr->game);
	cJSON *o, *seats, *stored, *it;
	int i = 0;

	(void)moves;
	(void)nmoves;
	if (g == NULL)
		return 0;
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "room", sr->id);
	cJSON_AddStringToObject(o, "game", g->name);
	cJSON_AddStringToObject(o, "status", sr->status);
	seats = cJSON_AddArrayToObject(o, "seats");
	stored = cJSON_Parse(sr->seats);
	cJSON_ArrayForEach(it, stored) {
		const char *name =
		    cJSON_GetStringValue(cJSON_GetObjectItem(it, "name"));
		const cJSON *bot = cJSON_GetObjectItem(it, "bot");
		cJSON *one;

		if (i == g->seats)
			break;
		one = cJSON_CreateObject();
		cJSON_AddStringToObject(one, "seat", g->seat_names[i++]);
		if (name != NULL)
			cJSON_AddStringToObject(one, "name", name);
		else
			cJSON_AddNullToObject(one, "name");
		if (cJSON_IsNumber(bot) && bot->valueint > 0)
			cJSON_AddNumberToObject(one, "bot", bot->valueint);
		else
			cJSON_AddNullToObject(one, "bot");
		cJSON_AddNullToObject(one, "connected");
		cJSON_AddItemToArray(seats, one);
	}
	cJSON_Delete(stored);
	cJSON_AddNullToObject(o, "watchers");
	cJSON_AddItemToObject(o, "clock",
	    room_clock_summary(sr->clock_initial_ms, sr->clock_increment_ms));
	cJSON_AddNullToObject(o, "turn");
	proto_add_int(o, "seq", sr->seq);
	cJSON_AddBoolToObject(o, "private", sr->is_private);
	cJSON_AddBoolToObject(o, "elsewhere", 1);
	cJSON_AddItemToArray(arg, o);
	return 0;
}

void
cluster_hello_rooms(struct server *srv, const struct player *p, cJSON *rooms)
{
	const char **skip;

	if (srv->cluster == NULL)
		return;
	skip = cluster_local_ids(p);
	/* At most what the rooms-per-player limit lets anyone hold. */
	if (store_rooms_seated(srv->reader, p->name, skip, p->nrooms,
	        srv->cfg.max_rooms_per_player, cluster_hello_room, rooms) != 0)
		log_error("cluster: listing %s's rooms: %s", p->name,
		    store_errmsg(srv->reader));
	free(skip);
}

int
cluster_rooms_elsewhere(struct server *srv, const struct player *p)
{
	const char **skip;
	long n = 0;

	if (srv->cluster == NULL)
		return 0;
	skip = cluster_local_ids(p);
	if (store_rooms_of(srv->reader, p->name, skip, p->nrooms, &n) != 0) {
		log_error("cluster: counting %s's rooms: %s", p->name,
		    store_errmsg(srv->reader));
		n = 0;
	}
	free(skip);
	return (int)n;
}
