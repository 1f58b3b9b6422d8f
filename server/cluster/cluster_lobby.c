/*
 * cluster_lobby.c: what every node of a cluster shows of the others
 * (docs/SCALING.md part 3). Each tick a node writes its own part of the
 * lobby to Redis (lobby:{node}: its public unfinished rooms' summaries and
 * its players with their rooms, one JSON text that expires with the node)
 * and reads the other live nodes' parts (the `nodes` sorted set, scored by
 * their last heartbeat) into a cache; `rooms` and `who` add the cache to
 * what the node holds, so the lobby is cluster-wide, at most two ticks
 * old. Presence: online:{name} says which node and connection a name is
 * logged in on, so that `hello` on one node closes the name's older
 * connection on another.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis/async.h>
#include <hiredis/hiredis.h>

#include "server/cluster/cluster.h"
#include "server/cluster/cluster_int.h"
#include "server/cmd/cmd.h"
#include "server/club/club.h"
#include "server/net/limit.h"

/* A name's presence lives this long unrefreshed (a node refreshes its
 * players' every tick; a dead node's expire). */
#define CLUSTER_LOBBY_ONLINE_MS 30000
/* The most other nodes whose lobby one node reads. */
#define CLUSTER_LOBBY_NODES 64
/* Set the presence of a name, returning the one it replaces. */
#define CLUSTER_LOBBY_PRESENCE_LUA                                             \
	"local old = redis.call('GET', KEYS[1]) "                              \
	"redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return old"
/* Delete a name's presence when it is still this connection's. */
#define CLUSTER_LOBBY_GONE_LUA                                                 \
	"if redis.call('GET', KEYS[1]) == ARGV[1] then "                       \
	"return redis.call('DEL', KEYS[1]) end return 0"

/* A connection that is a person's own here (not another node's
 * stand-in, not a guest), logged in. */
static int
cluster_lobby_own(const struct conn *c)
{
	return c->player != NULL && c->state == CONN_OPEN && !c->guest &&
	    !cluster_route_is_standin(c);
}

/* This node's part: its listed rooms and its players, as JSON text. */
static char *
cluster_lobby_mine(struct server *srv)
{
	cJSON *o = cJSON_CreateObject(), *rooms, *players, *one, *ids;
	struct room *r, **held;
	struct conn *c;
	char *text;
	int i, n, guests = 0;

	rooms = cJSON_AddArrayToObject(o, "rooms");
	TAILQ_FOREACH(r, &srv->rooms, entry)
		if (!r->is_private && r->status != ROOM_ENDED)
			cJSON_AddItemToArray(rooms, room_summary(r));
	players = cJSON_AddArrayToObject(o, "players");
	TAILQ_FOREACH(c, &srv->conns, entry) {
		if (c->guest && c->state == CONN_OPEN)
			guests++;
		if (c->player == NULL || c->state != CONN_OPEN || c->guest)
			continue;
		one = cJSON_CreateObject();
		cJSON_AddStringToObject(one, "name", c->player->name);
		cJSON_AddBoolToObject(
		    one, "here", !cluster_route_is_standin(c));
		ids = cJSON_AddArrayToObject(one, "rooms");
		held = room_sorted(c->player, &n);
		for (i = 0; i < n; i++)
			if (!held[i]->is_private &&
			    held[i]->status != ROOM_ENDED &&
			    (room_seat_of(held[i], c->player) >= 0 ||
			        room_is_watcher(held[i], c->player)))
				cJSON_AddItemToArray(
				    ids, cJSON_CreateString(held[i]->id));
		free(held);
		cJSON_AddItemToArray(players, one);
	}
	cJSON_AddNumberToObject(o, "guests", guests);
	text = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	if (text == NULL)
		fatal("out of memory");
	return text;
}

/* The other nodes' parts came: they are the cache now. */
static void
cluster_lobby_got(redisAsyncContext *ac, void *reply, void *arg)
{
	struct cluster *cl = ac->data;
	redisReply *rep = reply;
	cJSON *all, *one;
	size_t i;

	(void)arg;
	if (cl == NULL || rep == NULL || rep->type != REDIS_REPLY_ARRAY)
		return;
	all = cJSON_CreateArray();
	for (i = 0; i < rep->elements; i++)
		if (rep->element[i]->type == REDIS_REPLY_STRING &&
		    (one = cJSON_ParseWithLength(
		         rep->element[i]->str, rep->element[i]->len)) != NULL)
			cJSON_AddItemToArray(all, one);
	cJSON_Delete(cl->lobby);
	cl->lobby = all;
}

/* The live nodes came: read the parts of the others. */
static void
cluster_lobby_nodes(redisAsyncContext *ac, void *reply, void *arg)
{
	struct cluster *cl = ac->data;
	redisReply *rep = reply;
	const char *argv[CLUSTER_LOBBY_NODES + 1];
	char keys[CLUSTER_LOBBY_NODES][CLUSTER_KEY];
	size_t i;
	int n = 0;

	(void)arg;
	if (cl == NULL || rep == NULL || rep->type != REDIS_REPLY_ARRAY)
		return;
	/* Pairs of member and score (WITHSCORES). */
	cl->nlive = 0;
	for (i = 0; i + 1 < rep->elements && cl->nlive < CLUSTER_LIVE_MAX;
	     i += 2) {
		if (rep->element[i]->type != REDIS_REPLY_STRING ||
		    rep->element[i + 1]->type != REDIS_REPLY_STRING)
			continue;
		snprintf(cl->live[cl->nlive].node, sizeof cl->live[0].node,
		    "%s", rep->element[i]->str);
		cl->live[cl->nlive++].ms =
		    strtoll(rep->element[i + 1]->str, NULL, 10);
	}
	argv[n++] = "MGET";
	for (i = 0; i < rep->elements && n <= CLUSTER_LOBBY_NODES; i += 2) {
		if (rep->element[i]->type != REDIS_REPLY_STRING ||
		    strcmp(rep->element[i]->str, cl->node) == 0)
			continue;
		snprintf(keys[n - 1], sizeof keys[0], "lobby:%s",
		    rep->element[i]->str);
		argv[n] = keys[n - 1];
		n++;
	}
	if (n == 1) {
		cJSON_Delete(cl->lobby);
		cl->lobby = NULL;
		return;
	}
	redisAsyncCommandArgv(ac, cluster_lobby_got, NULL, n, argv, NULL);
}

void
cluster_lobby_tick(struct cluster *cl)
{
	struct server *srv = cl->srv;
	char key[CLUSTER_KEY], val[CLUSTER_KEY], ms[24];
	struct conn *c;
	char *mine;
	long long now = clock_now_ms();

	if (cl->ac == NULL)
		return;
	snprintf(ms, sizeof ms, "%lld", now);
	redisAsyncCommand(cl->ac, NULL, NULL, "ZADD nodes %s %s", ms, cl->node);
	mine = cluster_lobby_mine(srv);
	snprintf(key, sizeof key, "lobby:%s", cl->node);
	redisAsyncCommand(cl->ac, NULL, NULL, "SET %s %s PX %d", key, mine,
	    CLUSTER_NODE_TTL_MS);
	free(mine);
	/* Nodes silent past a node's life are dead: out of the set. */
	snprintf(ms, sizeof ms, "%lld", now - CLUSTER_NODE_TTL_MS);
	redisAsyncCommand(
	    cl->ac, NULL, NULL, "ZREMRANGEBYSCORE nodes -inf (%s", ms);
	redisAsyncCommand(cl->ac, cluster_lobby_nodes, NULL,
	    "ZRANGEBYSCORE nodes %s +inf WITHSCORES", ms);
	/* Presence of this node's players, kept alive. */
	TAILQ_FOREACH(c, &srv->conns, entry) {
		if (!cluster_lobby_own(c))
			continue;
		snprintf(key, sizeof key, "online:%s", c->player->name);
		snprintf(val, sizeof val, "%s:%llu", cl->node,
		    (unsigned long long)c->id);
		redisAsyncCommand(cl->ac, NULL, NULL, "SET %s %s PX %d", key,
		    val, CLUSTER_LOBBY_ONLINE_MS);
	}
}

/* The presence a hello replaced: that connection, on another node, is
 * told it was replaced and closed (through that node's stream). */
static void
cluster_lobby_replaced(redisAsyncContext *ac, void *reply, void *arg)
{
	struct cluster *cl = ac->data;
	redisReply *rep = reply;
	char node[CLUSTER_NODE_MAX + 1];
	const char *colon, *f[6];
	char *name = arg;
	size_t n;

	if (cl != NULL && rep != NULL && rep->type == REDIS_REPLY_STRING &&
	    (colon = strrchr(rep->str, ':')) != NULL &&
	    (n = (size_t)(colon - rep->str)) <= CLUSTER_NODE_MAX) {
		memcpy(node, rep->str, n);
		node[n] = '\0';
		if (strcmp(node, cl->node) != 0) {
			f[0] = "t", f[1] = "kick", f[2] = "name", f[3] = name;
			f[4] = "conn", f[5] = colon + 1;
			cluster_route_send(cl, node, 6, f, NULL);
		}
	}
	free(name);
}

void
cluster_player_hello(struct conn *c)
{
	struct cluster *cl = c->srv->cluster;
	char key[CLUSTER_KEY], val[CLUSTER_KEY], ms[24];

	if (cl == NULL || cl->ac == NULL || !cluster_lobby_own(c))
		return;
	snprintf(key, sizeof key, "online:%s", c->player->name);
	snprintf(
	    val, sizeof val, "%s:%llu", cl->node, (unsigned long long)c->id);
	snprintf(ms, sizeof ms, "%d", CLUSTER_LOBBY_ONLINE_MS);
	redisAsyncCommand(cl->ac, cluster_lobby_replaced,
	    xstrdup(c->player->name), "EVAL %s 1 %s %s %s",
	    CLUSTER_LOBBY_PRESENCE_LUA, key, val, ms);
}

void
cluster_lobby_gone(struct conn *c)
{
	struct cluster *cl = c->srv->cluster;
	char key[CLUSTER_KEY], val[CLUSTER_KEY];

	if (cl == NULL || cl->ac == NULL || c->player == NULL || c->guest ||
	    cluster_route_is_standin(c))
		return;
	snprintf(key, sizeof key, "online:%s", c->player->name);
	snprintf(
	    val, sizeof val, "%s:%llu", cl->node, (unsigned long long)c->id);
	redisAsyncCommand(cl->ac, NULL, NULL, "EVAL %s 1 %s %s",
	    CLUSTER_LOBBY_GONE_LUA, key, val);
}

void
cluster_lobby_kick(struct cluster *cl, const char *name, unsigned long long id)
{
	struct player *p = player_find(cl->srv, name);

	if (p != NULL && p->conn != NULL && p->conn->id == id &&
	    !cluster_route_is_standin(p->conn))
		player_replace(p);
}

void
cluster_lobby_rooms(
    const struct server *srv, const struct proto_request *req, cJSON *list)
{
	const struct cluster *cl = srv->cluster;
	const cJSON *part, *r;
	const char *game, *status;

	if (cl == NULL || cl->lobby == NULL)
		return;
	cJSON_ArrayForEach(part, cl->lobby) {
		cJSON_ArrayForEach(r, cJSON_GetObjectItem(part, "rooms")) {
			game = cJSON_GetStringValue(
			    cJSON_GetObjectItem(r, "game"));
			status = cJSON_GetStringValue(
			    cJSON_GetObjectItem(r, "status"));
			if (req->game != NULL &&
			    (game == NULL || strcmp(game, req->game) != 0))
				continue;
			if (req->status != NULL &&
			    (status == NULL ||
			        strcmp(status, req->status) != 0))
				continue;
			cJSON_AddItemToArray(list, cJSON_Duplicate(r, 1));
		}
	}
}

/* name's entry in list, or NULL. */
static cJSON *
cluster_lobby_find(cJSON *list, const char *name)
{
	cJSON *one;
	const char *n;

	cJSON_ArrayForEach(one, list) {
		n = cJSON_GetStringValue(cJSON_GetObjectItem(one, "name"));
		if (n != NULL && strcmp(n, name) == 0)
			return one;
	}
	return NULL;
}

/* Add the ids of from missing in to (two arrays of strings). */
static void
cluster_lobby_union(cJSON *to, const cJSON *from)
{
	const cJSON *id;
	const cJSON *have;
	int found;

	cJSON_ArrayForEach(id, from) {
		found = 0;
		cJSON_ArrayForEach(have, to)
			if (cJSON_IsString(have) && cJSON_IsString(id) &&
			    strcmp(have->valuestring, id->valuestring) == 0)
				found = 1;
		if (!found && cJSON_IsString(id))
			cJSON_AddItemToArray(to, cJSON_Duplicate(id, 0));
	}
}

int
cluster_lobby_who(const struct server *srv, cJSON *list, int *guests)
{
	const struct cluster *cl = srv->cluster;
	const cJSON *part, *p;
	cJSON *have, *one;
	const char *name;
	int added = 0;

	if (cl == NULL || cl->lobby == NULL)
		return 0;
	cJSON_ArrayForEach(part, cl->lobby) {
		*guests += (int)cJSON_GetNumberValue(
		    cJSON_GetObjectItem(part, "guests"));
		cJSON_ArrayForEach(p, cJSON_GetObjectItem(part, "players")) {
			name = cJSON_GetStringValue(
			    cJSON_GetObjectItem(p, "name"));
			if (name == NULL)
				continue;
			if ((have = cluster_lobby_find(list, name)) != NULL) {
				cluster_lobby_union(
				    cJSON_GetObjectItem(have, "rooms"),
				    cJSON_GetObjectItem(p, "rooms"));
				continue;
			}
			if (list == NULL ||
			    cJSON_GetArraySize(list) >= SERVER_WHO_MAX)
				continue;
			one = cJSON_CreateObject();
			cJSON_AddStringToObject(one, "name", name);
			cJSON_AddItemToObject(one, "rooms",
			    cJSON_Duplicate(
			        cJSON_GetObjectItem(p, "rooms"), 1));
			cJSON_AddItemToArray(list, one);
			added++;
		}
	}
	return added;
}

int
cluster_node_alive(const struct cluster *cl, const char *node)
{
	int i;

	if (strcmp(node, cl->node) == 0 || cl->nlive == 0)
		return 1;
	for (i = 0; i < cl->nlive; i++)
		if (strcmp(cl->live[i].node, node) == 0)
			return clock_now_ms() - cl->live[i].ms <=
			    CLUSTER_ALIVE_MS;
	return 0;
}
