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

/* The longest node id (--node): it is part of Redis keys and log lines. */
#define CLUSTER_NODE_MAX 64

/* 1 when id is a valid --node: 1 to CLUSTER_NODE_MAX of [A-Za-z0-9-_.]. */
int cluster_node_valid(const char *id);
/* Room for the reason a cluster flag is refused. */
#define CLUSTER_ERR 256
/* The Redis flags (--redis, its URL, --redis-password-file,
 * --redis-sentinel, --redis-master) read as cluster_start will: 0, or -1
 * with the reason in err (the flags' check, before anything starts). */
struct config;
int cluster_check(const struct config *cfg, char *err, size_t errlen);
/* Join the cluster when --redis is given (0 without it): the node's
 * state, the store's fence, the timer that connects to Redis, beats and
 * renews; 0, or -1 (logged). */
int cluster_start(struct server *srv);
/* Leave: the Redis connection closed (the leases expire by themselves). */
void cluster_stop(struct server *srv);

/* The node's cluster figures for --metrics-port (docs/tablerod.8): gauges
 * as they are now, counters since the start. */
struct cluster_stats {
	int redis_up;       /* 1 while Redis answers this node */
	int leases;         /* rooms whose lease this node holds */
	int club;           /* 1 while this node holds the club */
	int standins;       /* other nodes' players' stand-ins here */
	int clocks_stopped; /* rooms whose clocks the cluster stopped */
	int links_out;      /* links up this node sends on */
	int links_in;       /* links up other nodes send on to this one */
	unsigned long long packs_link;  /* packs sent on links */
	unsigned long long packs_redis; /* packs sent through Redis (XADD) */
	unsigned long long forwarded;   /* requests sent to another node */
	unsigned long long resent;      /* of them, sent again (no answer, a
	                                   bounce, a new owner) */
	unsigned long long refused;     /* not_ready: no owner reachable */
	unsigned long long served;      /* other nodes' requests run here */
	unsigned long long bounced;     /* ... not run: not this node's room */
	unsigned long long taken;       /* rooms taken (start, failover) */
	unsigned long long outages;     /* times Redis stopped answering */
};
/* srv's figures into st: 0, or -1 (st zeroed) when it is no cluster
 * node. */
int cluster_stats(const struct server *srv, struct cluster_stats *st);

#endif
