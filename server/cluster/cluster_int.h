/*
 * cluster_int.h: what cluster.c (nodes, leases) and cluster_route.c
 * (requests and output between nodes over Redis streams) share.
 */
#ifndef TABLERO_SERVER_CLUSTER_INT_H
#define TABLERO_SERVER_CLUSTER_INT_H

#include <cjson/cJSON.h>
#include <hiredis/async.h>
#include <hiredis/hiredis.h>

#include "server/club/club.h"
#include "server/cluster/cluster.h"
#include "server/cmd/cmd.h"

/* How often the node beats, renews its leases and looks for orphans:
 * a third of the lease, so two renewals can be lost before it lapses. */
#define CLUSTER_TICK_MS 2000
/* A lease's life: a dead node's rooms are taken within it plus one scan
 * (6 + 2 s, inside the 15 s the issue allows for failover). */
#define CLUSTER_LEASE_MS 6000
/* A room's lease once the room has left memory and the store (finished
 * and retired, closed, expired), and for how long: a request still
 * naming it (another node's player's current room) is answered "no
 * room" at once instead of waiting out a failover for an owner. Room ids
 * are never used again. */
#define CLUSTER_GONE "gone"
#define CLUSTER_GONE_MS (10 * 60 * 1000)
/* The heartbeat key's life: a node gone that long is dead. */
#define CLUSTER_NODE_TTL_MS 6000
/* Room for a Redis key or value made here: a room id, a node id. */
#define CLUSTER_KEY 160
/* The most nodes a node keeps the heartbeats of. */
#define CLUSTER_LIVE_MAX 64
/* A node whose last heartbeat is older than this is taken for dead by
 * the others' routing: its beat (every tick) and our read of it (every
 * tick) are both late, with a second to spare. */
#define CLUSTER_ALIVE_MS 5000
/* Room for a stream entry's id ("1700000000000-12"). */
#define CLUSTER_STREAM_ID 48

struct route_proxy;

struct cluster {
	struct server *srv;
	char node[CLUSTER_NODE_MAX + 1];
	char host[CLUSTER_KEY];
	int port;
	redisAsyncContext *ac; /* NULL: not connected (tried each tick) */
	redisAsyncContext *rd; /* the stream reader's (XREAD BLOCK) */
	char last_id[CLUSTER_STREAM_ID]; /* the last entry read, "$": none */
	struct route_proxy *proxies;     /* remote players' connections here */
	struct event *tick;
	int ready;    /* joined once: logins are taken */
	int scanning; /* lease tries of a scan still unanswered */
	/* While a room is claimed: where its new epoch is (set before the
	 * room is loaded, so that its first ops carry it). */
	const long long *claiming;
	int told_down; /* "Redis unreachable" logged since it was up */
	/* The other nodes' parts of the lobby (cluster_lobby.c). */
	cJSON *lobby;
	/* The live nodes and their last heartbeats (ms), as last read. */
	struct cluster_live {
		char node[CLUSTER_NODE_MAX + 1];
		long long ms;
	} live[CLUSTER_LIVE_MAX];
	int nlive;
	/* The club (cluster_club.c): the epoch of its lease while this node
	 * holds it (0: another node's, or none), when it was last renewed,
	 * and whether a try to take it is unanswered. */
	long long club_epoch;
	/* The club's epoch in the store (store_club_claim) while this node
	 * holds it: stamped on the club's rows, which the store refuses
	 * once another node has taken the club (0: not held). */
	long long club_fence;
	int64_t club_ms;
	int64_t club_taken_ms; /* when this node last took it */
	int club_trying;
};

/* cluster_route.c */
/* Read the node's stream on cl->rd, from cl->last_id on, for good. */
void cluster_route_read(struct cluster *cl);
/* At stop: every remote player's connection here closed. */
void cluster_route_stop(struct cluster *cl);
/* Add an entry of n fields and values to node's stream; lens[i] the
 * length of argv[i] when it may hold any byte, (size_t)-1 (or lens NULL):
 * a C string. */
void cluster_route_send(struct cluster *cl, const char *node, int n,
    const char *const *argv, const size_t *lens);

/* The stand-in (another node's player's connection here) of c: its
 * home node and connection id into home and *id; 0, or -1 when c is
 * not one. */
int cluster_route_home_of(const struct cluster *cl, const struct conn *c,
    const char **home, unsigned long long *id);
/* The seated players of room r, just taken by this node, are back: those
 * logged in here at once, those on other nodes (found by their presence)
 * through a stand-in each. */
void cluster_route_seats(struct cluster *cl, struct room *r);
/* The watchers of room r, taken by this node, watch it here (from
 * watchers:{room}). */
void cluster_route_watchers(struct cluster *cl, struct room *r);
/* Tell c with a reconnect event (room NULL: none) that what it used went
 * to another node, with nothing held shown (it showed changes that may
 * never be stored), and close it: the client connects again. */
void cluster_tell(struct conn *c, const char *room, const char *what);
#define CLUSTER_MOVED                                                          \
	"this room moved to another server: connect again and log in with "    \
	"hello NAME TOKEN"
/* r leaves memory: no stand-in keeps it as its current room (one acting
 * for a player who is not in the room is not unlinked by room_forget). */
void cluster_route_room_gone(struct cluster *cl, const struct room *r);

/* Every tick: requests sent to an owner that died unanswered are
 * routed again (to the room's next owner). */
void cluster_route_tick(struct cluster *cl);

/* A stand-in of (home, conn) logged in as name, made when new: the way
 * this node sends that player what it holds (held for the store like any
 * output); NULL when it cannot be made. */
struct conn *cluster_route_standin(struct cluster *cl, const char *home,
    unsigned long long conn, const char *name);

/* cluster_club.c */
/* Every tick: drop the club when its lease may have lapsed unrenewed,
 * renew it, or try to take it when no node holds it. */
void cluster_club_tick(struct cluster *cl);
/* The store's fence for the club's rows: the epoch they carry. */
long long cluster_club_fence_epoch(const struct cluster *cl);
/* The store refused the club's rows: another node took the club. */
void cluster_club_fenced(struct cluster *cl);
/* Another node's room of a tournament game ended (a "tend" entry). */
void cluster_club_ended(struct cluster *cl, const char *room,
    const char *winner, const char *reason);

/* cluster_limit.c */
/* Every tick: report this node's use of each address's limits, read the
 * other live nodes' reports into the limits table. */
void cluster_limit_tick(struct cluster *cl);

/* cluster_lobby.c */
/* 1 when node is this one or beat lately (or nothing is known yet). */
int cluster_node_alive(const struct cluster *cl, const char *node);
/* Write this node's part of the lobby and presence, read the others'. */
void cluster_lobby_tick(struct cluster *cl);
/* Another node's hello replaced name's connection id here. */
void cluster_lobby_kick(
    struct cluster *cl, const char *name, unsigned long long id);

/*
 * The cluster as the layers below see it (core.h's struct cluster_ops,
 * filled by cluster.c from these).
 */
/* 1 when the node takes logins: alone, or joined (Redis reached). */
int cluster_ready(const struct server *srv);
/* cluster_route.c: a request line for a room another node owns goes
 * there: 1 when taken (its reply and events come back through Redis),
 * 0 when it runs here. */
struct conn;
struct proto_request;
/* A shorthand line that is no verb, from a connection whose current room
 * another node holds: sent there, where it may be a bare move ("A2")
 * (bare.c); 1 when sent, 0 when it is this node's to refuse. */
int cluster_route_bare(struct conn *c, const char *line, size_t len);
int cluster_route_forward(struct conn *c, const struct proto_request *req,
    const char *line, size_t len);
/* A home connection closed: its stand-ins on other nodes go too. */
void cluster_route_closed(struct conn *c);
/* 1 when c is another node's player's stand-in here. */
int cluster_route_is_standin(const struct conn *c);
/* cluster_lobby.c: a name logged in here (its presence; its older
 * connection on another node is closed); a connection's end. */
void cluster_player_hello(struct conn *c);
void cluster_lobby_gone(struct conn *c);
/* The other nodes' public rooms that req's filters let through, added to
 * list (`rooms`); their players merged into list by name (`who`): how
 * many were added, guests counted into *guests. */
struct cJSON;
void cluster_lobby_rooms(const struct server *srv,
    const struct proto_request *req, struct cJSON *list);
int cluster_lobby_who(
    const struct server *srv, struct cJSON *list, int *guests);
/* The unfinished rooms p created or sits in on other nodes (from the
 * store), for the rooms-per-player limit; 0 alone. */
int cluster_rooms_elsewhere(struct server *srv, const struct player *p);
/* The unfinished rooms p sits in that this node does not hold (another
 * node's, or a dead node's not yet taken), as the store has them, added
 * to hello's list `rooms`; nothing alone. */
void cluster_hello_rooms(
    struct server *srv, const struct player *p, struct cJSON *rooms);
/* cluster_club.c: seeks and tournaments live on one node, the club's
 * (a lease like a room's). 1 when they are this node's: alone, or the
 * club's node. */
int cluster_club_here(const struct server *srv);
/* 1 after refusing req (not_ready) when the club is another node's: a
 * club verb that could not be sent there is not run here. */
int cluster_club_refuse(struct conn *c, const struct proto_request *req);
/* The node whose lease club verbs follow ("club:owner"). */
#define CLUSTER_CLUB_KEY "club:owner"
/* Send ev to name, logged in on another node (its presence), through a
 * stand-in there; nothing when it is nowhere. */
void cluster_club_deliver(
    struct server *srv, const char *name, const struct cJSON *ev);
/* 1 when name is logged in on another live node (the lobby's cache). */
int cluster_online_elsewhere(const struct server *srv, const char *name);
/* The public rooms name sits in on other nodes (the lobby's cache, at
 * most two ticks old), added to list as finger's "playing" entries
 * unless list has them already. */
void cluster_finger_rooms(
    const struct server *srv, const char *name, struct cJSON *list);
/* 1 when room id, not in this node's memory, may be on another node:
 * listed there, or the club was taken too lately to know (the rooms of
 * a dead node are taken within a lease and a scan). */
int cluster_club_room_away(const struct server *srv, const char *id);
/* A tournament's room ended on a node that is not the club's: its
 * result goes to the club's node (0), or -1 when this node is it. */
int cluster_club_room_ended(struct room *r, int winner, const char *reason);

#endif
