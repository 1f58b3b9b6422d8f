/*
 * cluster_club.c: seeks and tournaments on a cluster (issue 22 over
 * issue 19, docs/SCALING.md part 3 "The club"). One node at a time holds
 * the club: the lease club:owner = "node:epoch" (SET NX PX, renewed each
 * tick by the rooms' compare-and-set script, its epoch from INCR
 * club:epoch). The club's node keeps the seek pool and the tournaments in
 * memory; the other nodes send it the club verbs (cluster_route.c, as a
 * room's verbs go to its owner), so its stand-ins of their players seek,
 * pair and play there. A node that takes the club reloads the
 * tournaments (tstore.c) and the open seeks (sstore.c) from the store.
 * Events for a player on another node go there through a
 * stand-in made for them (their presence online:{name}).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis/async.h>
#include <hiredis/hiredis.h>

#include "server/cluster/cluster.h"
#include "server/cluster/cluster_int.h"
#include "server/club/seek.h"
#include "server/cmd/cmd.h"
#include "server/club/club.h"
#include "server/net/limit.h"
#include "server/store/store.h"
#include "server/club/tourney.h"

/* The counter whose INCR gives each taking of the club a new epoch. */
#define CLUSTER_CLUB_EPOCH_KEY "club:epoch"
/* Renew the lease when it is ours (1), set it again when Redis lost it
 * (2), 0 when another node holds it: cluster.c's script for rooms. */
#define CLUSTER_CLUB_RENEW_LUA                                                 \
	"local v = redis.call('GET', KEYS[1]) "                                \
	"if v == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) "        \
	"return 1 end "                                                        \
	"if not v then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) "    \
	"return 2 end return 0"

int
cluster_club_here(const struct server *srv)
{
	return srv->cluster == NULL || srv->cluster->club_epoch > 0;
}

int
cluster_club_refuse(struct conn *c, const struct proto_request *req)
{
	if (cluster_club_here(c->srv))
		return 0;
	conn_error(c, req, PROTO_E_NOT_READY,
	    "seeks and tournaments are on another server of the cluster, "
	    "which cannot be reached now: try again in a few seconds");
	return 1;
}

/* This node's lease value for the club's epoch. */
static void
cluster_club_val(const struct cluster *cl, long long epoch, char *val)
{
	snprintf(val, CLUSTER_KEY, "%s:%lld", cl->node, epoch);
}

/* The club is no longer this node's: its seeks and tournaments leave
 * its memory (their rows stay: the next club node reloads them). */
static void
cluster_club_lost(struct cluster *cl, const char *why)
{
	struct server *srv = cl->srv;

	log_warn("cluster: club lost (%s)", why);
	cl->club_epoch = 0;
	cl->club_fence = 0;
	tourney_free_all();
	seek_pool_free(srv->seeks);
	srv->seeks = sstore_pool(srv);
}

/* The club's lease is this node's with epoch: its tournaments back. */
static void
cluster_club_take(struct cluster *cl, long long epoch)
{
	long long fence = 0;

	/* First the store's epoch: a node still writing the club's rows
	 * is fenced from here on, before the rows are read back. */
	if (store_club_claim(cl->srv->reader, &fence) != 0 || fence <= 0) {
		log_error("cluster: the club could not be claimed in the "
		          "store: %s",
		    store_errmsg(cl->srv->reader));
		return; /* the lease lapses; a node takes it then */
	}
	cl->club_fence = fence;
	cl->club_epoch = epoch;
	cl->club_ms = cl->club_taken_ms = clock_mono_ms();
	log_info("cluster: club taken (epoch %lld, %lld in the store)", epoch,
	    fence);
	tourney_free_all();
	if (tourney_recover(cl->srv) != 0)
		log_error("cluster: the tournaments could not be loaded");
	seek_pool_free(cl->srv->seeks);
	cl->srv->seeks = sstore_pool(cl->srv);
	if (sstore_load(cl->srv) != 0)
		log_error("cluster: the seeks could not be loaded");
}

long long
cluster_club_fence_epoch(const struct cluster *cl)
{
	return cl->club_fence > 0 ? cl->club_fence : 1;
}

void
cluster_club_fenced(struct cluster *cl)
{
	struct server *srv = cl->srv;
	struct conn **held;
	int i, n = srv->held_conns.n;

	log_warn("cluster: the store refused the club's rows: another node "
	         "took the club; whatever waited for them is dropped");
	if (cl->club_epoch > 0)
		cluster_club_lost(cl, "another node took it in the store");
	/* Which held output waits for the dropped rows is not known: none
	 * of it may go out, so every connection holding some is told to
	 * reconnect (a rare event: a node cut off past its lease). */
	held = xmalloc((size_t)(n > 0 ? n : 1) * sizeof *held);
	memcpy(held, srv->held_conns.v, (size_t)n * sizeof *held);
	for (i = 0; i < n; i++)
		cluster_tell(held[i], NULL,
		    "seeks and tournaments moved to another server: connect "
		    "again and log in with hello NAME TOKEN");
	free(held);
}

/* The club's lease renewed (or not). */
static void
cluster_club_renewed(redisAsyncContext *ac, void *reply, void *arg)
{
	struct cluster *cl = ac->data;
	redisReply *rep = reply;

	(void)arg;
	if (cl == NULL || cl->club_epoch <= 0 || rep == NULL ||
	    rep->type != REDIS_REPLY_INTEGER)
		return;
	if (rep->integer > 0)
		cl->club_ms = clock_mono_ms();
	else
		cluster_club_lost(cl, "its lease is another node's");
}

/* SET NX of the club answered (arg: the epoch tried, ours to free). */
static void
cluster_club_set(redisAsyncContext *ac, void *reply, void *arg)
{
	struct cluster *cl = ac->data;
	redisReply *rep = reply;
	long long epoch = *(long long *)arg;

	free(arg);
	if (cl == NULL)
		return;
	cl->club_trying = 0;
	if (rep != NULL && rep->type == REDIS_REPLY_STATUS &&
	    strcmp(rep->str, "OK") == 0)
		cluster_club_take(cl, epoch);
}

/* A new epoch came: try the lease with it. */
static void
cluster_club_epoch(redisAsyncContext *ac, void *reply, void *arg)
{
	struct cluster *cl = ac->data;
	redisReply *rep = reply;
	char val[CLUSTER_KEY];
	long long *epoch;

	(void)arg;
	if (cl == NULL)
		return;
	if (rep == NULL || rep->type != REDIS_REPLY_INTEGER || cl->ac == NULL) {
		cl->club_trying = 0;
		return;
	}
	epoch = xmalloc(sizeof *epoch);
	*epoch = rep->integer;
	cluster_club_val(cl, *epoch, val);
	if (redisAsyncCommand(cl->ac, cluster_club_set, epoch,
	        "SET %s %s NX PX %d", CLUSTER_CLUB_KEY, val,
	        CLUSTER_LEASE_MS) != REDIS_OK) {
		free(epoch);
		cl->club_trying = 0;
	}
}

/* Who holds the club: nobody, so this node tries (a new epoch first). */
static void
cluster_club_owner(redisAsyncContext *ac, void *reply, void *arg)
{
	struct cluster *cl = ac->data;
	redisReply *rep = reply;

	(void)arg;
	if (cl == NULL)
		return;
	if (rep == NULL || rep->type != REDIS_REPLY_NIL || cl->ac == NULL ||
	    redisAsyncCommand(cl->ac, cluster_club_epoch, NULL, "INCR %s",
	        CLUSTER_CLUB_EPOCH_KEY) != REDIS_OK)
		cl->club_trying = 0;
}

void
cluster_club_tick(struct cluster *cl)
{
	char val[CLUSTER_KEY];

	/* Not dropped while Redis was away (nobody could take it then; a
	 * node that took it since is seen at the renewal, and fences the
	 * club's rows in the store meanwhile). */
	if (!cluster_redis_up(cl))
		return;
	if (cl->club_epoch > 0) {
		cluster_club_val(cl, cl->club_epoch, val);
		redisAsyncCommand(cl->ac, cluster_club_renewed, NULL,
		    "EVAL %s 1 %s %s %d", CLUSTER_CLUB_RENEW_LUA,
		    CLUSTER_CLUB_KEY, val, CLUSTER_LEASE_MS);
		return;
	}
	/* Taken only once every live node had the time to set its own lease
	 * again after Redis came back. */
	if (cl->club_trying || !cluster_redis_settled(cl))
		return;
	cl->club_trying = 1;
	if (redisAsyncCommand(cl->ac, cluster_club_owner, NULL, "GET %s",
	        CLUSTER_CLUB_KEY) != REDIS_OK)
		cl->club_trying = 0;
}

/* A lease's value "node:epoch" into node and *id. */
static int
cluster_club_split(const char *v, char *node, unsigned long long *id)
{
	const char *colon = strrchr(v, ':');
	size_t n;

	if (colon == NULL || (n = (size_t)(colon - v)) == 0 ||
	    n > CLUSTER_NODE_MAX)
		return -1;
	memcpy(node, v, n);
	node[n] = '\0';
	*id = strtoull(colon + 1, NULL, 10);
	return 0;
}

/* An event on its way to a player elsewhere: the name, then the JSON. */
struct club_deliver {
	char name[SERVER_NAME_MAX + 1];
	char json[];
};

/* The presence of a deliver's player answered: a stand-in of that
 * connection here sends it the event (held for the store as any output
 * of this node, then through the home node's stream). */
static void
cluster_club_present(redisAsyncContext *ac, void *reply, void *arg)
{
	struct cluster *cl = ac->data;
	struct club_deliver *d = arg;
	redisReply *rep = reply;
	char node[CLUSTER_NODE_MAX + 1];
	unsigned long long inc, id, known;
	struct conn *c;
	cJSON *ev;

	if (cl != NULL && rep != NULL && rep->type == REDIS_REPLY_STRING &&
	    cluster_node_addr(rep->str, node, &inc, &id) == 0 &&
	    strcmp(node, cl->node) != 0 && cluster_node_alive(cl, node) &&
	    ((known = cluster_node_inc(cl, node)) == 0 || inc >= known) &&
	    (c = cluster_standin_get(cl, node, inc, id, d->name)) != NULL &&
	    (ev = cJSON_Parse(d->json)) != NULL) {
		net_send_msg(c, ev);
		cJSON_Delete(ev);
	}
	free(d);
}

void
cluster_club_deliver(struct server *srv, const char *name, const cJSON *ev)
{
	struct cluster *cl = srv->cluster;
	struct club_deliver *d;
	char key[CLUSTER_KEY], *json;
	size_t len;

	if (cl == NULL || cl->ac == NULL || !player_name_valid(name) ||
	    (json = cJSON_PrintUnformatted(ev)) == NULL)
		return;
	len = strlen(json);
	d = xmalloc(sizeof *d + len + 1);
	snprintf(d->name, sizeof d->name, "%s", name);
	memcpy(d->json, json, len + 1);
	cJSON_free(json);
	snprintf(key, sizeof key, "online:%s", name);
	if (redisAsyncCommand(cl->ac, cluster_club_present, d, "GET %s", key) !=
	    REDIS_OK)
		free(d);
}

/* The lobby cache's entry of name on another node, or NULL. */
static const cJSON *
cluster_club_player(const struct server *srv, const char *name)
{
	const cJSON *part, *p;
	const char *n;

	if (srv->cluster == NULL || name == NULL)
		return NULL;
	cJSON_ArrayForEach(part, srv->cluster->lobby) {
		cJSON_ArrayForEach(p, cJSON_GetObjectItem(part, "players")) {
			n = cJSON_GetStringValue(
			    cJSON_GetObjectItem(p, "name"));
			if (n != NULL && strcmp(n, name) == 0 &&
			    cJSON_IsTrue(cJSON_GetObjectItem(p, "here")))
				return p;
		}
	}
	return NULL;
}

int
cluster_online_elsewhere(const struct server *srv, const char *name)
{
	return cluster_club_player(srv, name) != NULL;
}

/* 1 when list already names room id. */
static int
cluster_club_listed(const cJSON *list, const char *id)
{
	const cJSON *o;
	const char *rid;

	cJSON_ArrayForEach(o, list) {
		rid = cJSON_GetStringValue(cJSON_GetObjectItem(o, "room"));
		if (rid != NULL && strcmp(rid, id) == 0)
			return 1;
	}
	return 0;
}

void
cluster_finger_rooms(const struct server *srv, const char *name, cJSON *list)
{
	const cJSON *part, *r, *seat;
	const char *id, *who;
	cJSON *o;

	if (srv->cluster == NULL || name == NULL)
		return;
	cJSON_ArrayForEach(part, srv->cluster->lobby) {
		cJSON_ArrayForEach(r, cJSON_GetObjectItem(part, "rooms")) {
			id = cJSON_GetStringValue(
			    cJSON_GetObjectItem(r, "room"));
			if (id == NULL || cluster_club_listed(list, id))
				continue;
			cJSON_ArrayForEach(
			    seat, cJSON_GetObjectItem(r, "seats")) {
				who = cJSON_GetStringValue(
				    cJSON_GetObjectItem(seat, "name"));
				if (who == NULL || strcmp(who, name) != 0)
					continue;
				o = cJSON_CreateObject();
				cJSON_AddStringToObject(o, "room", id);
				cJSON_AddItemToObject(o, "game",
				    cJSON_Duplicate(
				        cJSON_GetObjectItem(r, "game"), 1));
				cJSON_AddItemToObject(o, "seat",
				    cJSON_Duplicate(
				        cJSON_GetObjectItem(seat, "seat"), 1));
				cJSON_AddItemToObject(o, "status",
				    cJSON_Duplicate(
				        cJSON_GetObjectItem(r, "status"), 1));
				cJSON_AddItemToArray(list, o);
				break;
			}
		}
	}
}

int
cluster_club_room_away(const struct server *srv, const char *id)
{
	const struct cluster *cl = srv->cluster;
	const cJSON *part, *r;
	const char *rid;

	if (cl == NULL)
		return 0;
	if (clock_mono_ms() - cl->club_taken_ms <
	    CLUSTER_LEASE_MS + 2 * CLUSTER_TICK_MS)
		return 1;
	cJSON_ArrayForEach(part, cl->lobby) {
		cJSON_ArrayForEach(r, cJSON_GetObjectItem(part, "rooms")) {
			rid = cJSON_GetStringValue(
			    cJSON_GetObjectItem(r, "room"));
			if (rid != NULL && strcmp(rid, id) == 0)
				return 1;
		}
	}
	return 0;
}

/* A tournament room's end on its way to the club's node. */
struct club_end {
	char room[SERVER_ROOM_ID_MAX];
	char winner[8];
	char reason[32];
};

/* The club's node is known: the result goes to its stream. */
static void
cluster_club_end_owner(redisAsyncContext *ac, void *reply, void *arg)
{
	struct cluster *cl = ac->data;
	struct club_end *e = arg;
	redisReply *rep = reply;
	char node[CLUSTER_NODE_MAX + 1];
	unsigned long long epoch;
	const char *f[8];

	if (cl != NULL && rep != NULL && rep->type == REDIS_REPLY_STRING &&
	    cluster_club_split(rep->str, node, &epoch) == 0) {
		f[0] = "room", f[1] = e->room;
		f[2] = "winner", f[3] = e->winner, f[4] = "reason";
		f[5] = e->reason;
		cluster_stream_send(cl, node, 0, "tend", 6, f, NULL);
	} else if (cl != NULL) {
		log_warn("cluster: no club node for the result of %s", e->room);
	}
	free(e);
}

int
cluster_club_room_ended(struct room *r, int winner, const char *reason)
{
	struct cluster *cl = r->srv->cluster;
	struct club_end *e;

	if (cl == NULL || cl->club_epoch > 0 || cl->ac == NULL)
		return -1;
	e = xcalloc(1, sizeof *e);
	snprintf(e->room, sizeof e->room, "%s", r->id);
	snprintf(e->winner, sizeof e->winner, "%d", winner);
	snprintf(e->reason, sizeof e->reason, "%s", reason);
	if (redisAsyncCommand(cl->ac, cluster_club_end_owner, e, "GET %s",
	        CLUSTER_CLUB_KEY) != REDIS_OK)
		free(e);
	return 0;
}

void
cluster_club_ended(struct cluster *cl, const char *room, const char *winner,
    const char *reason)
{
	if (cl->club_epoch <= 0)
		return;
	tourney_result(cl->srv, room, atoi(winner), reason);
}

/* A login on its way to the club's node: the player's name. */
struct club_login {
	char name[SERVER_NAME_MAX + 1];
};

/* The club's node is known: the login goes to its stream. */
static void
cluster_club_login_owner(redisAsyncContext *ac, void *reply, void *arg)
{
	struct cluster *cl = ac->data;
	struct club_login *l = arg;
	redisReply *rep = reply;
	char node[CLUSTER_NODE_MAX + 1];
	unsigned long long epoch;
	const char *f[2];

	if (cl != NULL && rep != NULL && rep->type == REDIS_REPLY_STRING &&
	    cluster_club_split(rep->str, node, &epoch) == 0 &&
	    strcmp(node, cl->node) != 0) {
		f[0] = "name", f[1] = l->name;
		cluster_stream_send(cl, node, 0, "tlogin", 2, f, NULL);
		log_debug("cluster: %s logged in: told the club's node %s",
		    l->name, node);
	}
	free(l);
}

void
cluster_club_hello(struct cluster *cl, const char *name)
{
	struct club_login *l;

	if (cl->club_epoch > 0 || cl->ac == NULL || !player_name_valid(name))
		return;
	l = xcalloc(1, sizeof *l);
	snprintf(l->name, sizeof l->name, "%s", name);
	/* After the presence set on the same connection: the club's node
	 * finds the player online when it sends the reminders. */
	if (redisAsyncCommand(cl->ac, cluster_club_login_owner, l, "GET %s",
	        CLUSTER_CLUB_KEY) != REDIS_OK)
		free(l);
}

void
cluster_club_login(struct cluster *cl, const char *name)
{
	if (cl->club_epoch <= 0 || !player_name_valid(name))
		return;
	log_debug("cluster: %s logged in on another node: reminders", name);
	tourney_remind_name(cl->srv, name);
}
