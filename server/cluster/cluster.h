/*
 * cluster.h: several tablerod nodes as one service (docs/SCALING.md part
 * 3): Redis between the nodes (heartbeats, room leases), PostgreSQL as the
 * one store, whose owner_epoch fences a node that lost a room. Without
 * --redis none of it runs and tablerod is one node alone.
 */
#ifndef TABLERO_SERVER_CLUSTER_H
#define TABLERO_SERVER_CLUSTER_H

#include <stddef.h>

struct server;
struct room;
struct player;

/* The longest node id (--node): it is part of Redis keys and log lines. */
#define CLUSTER_NODE_MAX 64

/* 1 when id is a valid --node: 1 to CLUSTER_NODE_MAX of [A-Za-z0-9-_.]. */
int cluster_node_valid(const char *id);
/* Join the cluster when --redis is given (0 without it): the node's
 * state, the store's fence, the timer that connects to Redis, beats and
 * renews; 0, or -1 (logged). */
int cluster_start(struct server *srv);
/* Leave: the Redis connection closed (the leases expire by themselves). */
void cluster_stop(struct server *srv);
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
