/*
 * cluster_lobby.c: what every node of a cluster shows of the others
 * (docs/SCALING.md part 3). Each tick a node writes its own part of the
 * lobby to Redis (lobby:{node}: its public unfinished rooms' summaries and
 * its players with their rooms, one JSON text that expires with the node)
 * and reads the other live nodes' parts (the `nodes` sorted set, scored by
 * their last heartbeat) into a cache; `rooms` and `who` add the cache to
 * what the node holds, so the lobby is cluster-wide, at most two ticks
 * old. Presence: online:{name} says which node, incarnation and
 * connection a name is logged in on ("node|inc|conn"), so that `hello` on
 * one node closes the name's older connection on another, and an owner
 * that takes a room finds its players' connections.
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
		cJSON_AddItemToObject(one, "ratings", rating_who(c->player));
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

void
cluster_lobby_presence(
    const struct cluster *cl, const struct conn *c, char *val, size_t len)
{
	snprintf(val, len, "%s|%llu|%llu", cl->node, cl->inc,
	    (unsigned long long)c->id);
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
	/* The live nodes, their incarnations (and those now over). */
	cluster_node_read(cl, rep);
	argv[n++] = "MGET";
	for (i = 0; i < (size_t)cl->nlive && n <= CLUSTER_LOBBY_NODES; i++) {
		if (strcmp(cl->live[i].node, cl->node) == 0)
			continue;
		snprintf(
		    keys[n - 1], sizeof keys[0], "lobby:%s", cl->live[i].node);
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
	cluster_node_member(cl, val, sizeof val);
	redisAsyncCommand(cl->ac, NULL, NULL, "ZADD nodes %s %s", ms, val);
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
		cluster_lobby_presence(cl, c, val, sizeof val);
		redisAsyncCommand(cl->ac, NULL, NULL, "SET %s %s PX %d", key,
		    val, CLUSTER_LOBBY_ONLINE_MS);
	}
}

/* The presence a hello replaced: that connection, on another node (or
 * another connection of this one), is told it was replaced and closed
 * (through that node's stream, for that incarnation). */
static void
cluster_lobby_replaced(redisAsyncContext *ac, void *reply, void *arg)
{
	struct cluster *cl = ac->data;
	redisReply *rep = reply;
	char node[CLUSTER_NODE_MAX + 1], id[CLUSTER_NUM];
	unsigned long long inc, conn;
	const char *f[4];
	char *name = arg;

	if (cl != NULL && rep != NULL && rep->type == REDIS_REPLY_STRING &&
	    cluster_node_addr(rep->str, node, &inc, &conn) == 0 &&
	    strcmp(node, cl->node) != 0) {
		snprintf(id, sizeof id, "%llu", conn);
		f[0] = "name", f[1] = name, f[2] = "conn", f[3] = id;
		cluster_stream_send(cl, node, inc, "kick", 4, f, NULL);
	}
	free(name);
}

void
cluster_player_hello(struct conn *c)
{
	struct cluster *cl = c->srv->cluster;
	char key[CLUSTER_KEY], val[CLUSTER_KEY], ms[24];

	if (cl == NULL || !cluster_lobby_own(c))
		return;
	/* Found by its id from now on (the owners' output for it). */
	cluster_route_home(c);
	if (cl->ac == NULL)
		return;
	snprintf(key, sizeof key, "online:%s", c->player->name);
	cluster_lobby_presence(cl, c, val, sizeof val);
	snprintf(ms, sizeof ms, "%d", CLUSTER_LOBBY_ONLINE_MS);
	redisAsyncCommand(cl->ac, cluster_lobby_replaced,
	    xstrdup(c->player->name), "EVAL %s 1 %s %s %s",
	    CLUSTER_LOBBY_PRESENCE_LUA, key, val, ms);
	cluster_club_hello(cl, c->player->name);
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
	cluster_lobby_presence(cl, c, val, sizeof val);
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
			cJSON_AddItemToObject(one, "ratings",
			    cJSON_IsObject(cJSON_GetObjectItem(p, "ratings"))
			        ? cJSON_Duplicate(
			              cJSON_GetObjectItem(p, "ratings"), 1)
			        : cJSON_CreateObject());
			cJSON_AddItemToObject(one, "rooms",
			    cJSON_Duplicate(
			        cJSON_GetObjectItem(p, "rooms"), 1));
			cJSON_AddItemToArray(list, one);
			added++;
		}
	}
	return added;
}
