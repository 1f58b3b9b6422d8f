/*
 * cluster_node.c: incarnations, and which nodes are alive (docs/SCALING.md
 * part 3, "Under faults"). Every start of a node is a new incarnation
 * (Redis Cluster's node ids, Kafka's broker epochs): a number that grows
 * with the start time. Every entry a node sends names its incarnation and
 * the one it is for; an entry from an incarnation older than the newest
 * heard of is dropped, and one for an older incarnation of this node too,
 * and one from an incarnation judged gone, until it beats again.
 * Each tick the nodes' set (members "node|inc", scored by the last
 * heartbeat) says which nodes live; an incarnation that is replaced by a
 * newer one, or silent past CLUSTER_ALIVE_MS while this node has had
 * Redis long enough to judge, is over: its players' stand-ins here close
 * (they count as leaving: their seats' grace starts), and requests sent
 * to it go to their rooms' next owners.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "server/cluster/cluster.h"
#include "server/cluster/cluster_int.h"

/* The random bits below the start time in an incarnation: two starts in
 * one millisecond still differ. */
#define CLUSTER_NODE_INC_BITS 16

unsigned long long
cluster_node_new_inc(void)
{
	unsigned long long ms = (unsigned long long)clock_now_ms();

	if (sodium_init() < 0)
		fatal("libsodium cannot start");
	return (ms << CLUSTER_NODE_INC_BITS) |
	    randombytes_uniform(1U << CLUSTER_NODE_INC_BITS);
}

void
cluster_node_member(const struct cluster *cl, char *out, size_t len)
{
	snprintf(out, len, "%s|%llu", cl->node, cl->inc);
}

int
cluster_node_addr(const char *v, char *node, unsigned long long *inc,
    unsigned long long *conn)
{
	const char *bar = strchr(v, '|');
	char *end;
	size_t n;

	if (bar == NULL || (n = (size_t)(bar - v)) == 0 || n > CLUSTER_NODE_MAX)
		return -1;
	memcpy(node, v, n);
	node[n] = '\0';
	*inc = strtoull(bar + 1, &end, 10);
	if (*end != '|')
		return -1;
	*conn = strtoull(end + 1, &end, 10);
	if (*end != '\0' && *end != '|')
		return -1;
	return 0;
}

/* node's entry among the known, made when add and new (NULL when not
 * known, or no room). */
static struct cluster_known *
cluster_node_known(struct cluster *cl, const char *node, int add)
{
	int i;

	for (i = 0; i < cl->nknown; i++)
		if (strcmp(cl->known[i].node, node) == 0)
			return &cl->known[i];
	if (!add)
		return NULL;
	if (cl->nknown == CLUSTER_LIVE_MAX) {
		/* Forget a node that is over, to make room. */
		for (i = 0; i < cl->nknown; i++)
			if (cl->known[i].over)
				break;
		if (i == cl->nknown)
			return NULL;
		cl->known[i] = cl->known[--cl->nknown];
	}
	memset(&cl->known[cl->nknown], 0, sizeof cl->known[0]);
	snprintf(
	    cl->known[cl->nknown].node, sizeof cl->known[0].node, "%s", node);
	return &cl->known[cl->nknown++];
}

unsigned long long
cluster_node_inc(const struct cluster *cl, const char *node)
{
	int i;

	if (strcmp(node, cl->node) == 0)
		return cl->inc;
	for (i = 0; i < cl->nknown; i++)
		if (strcmp(cl->known[i].node, node) == 0)
			return cl->known[i].inc;
	return 0;
}

/* node's incarnation inc (and every older one) is over. */
static void
cluster_node_over(struct cluster *cl, const char *node, unsigned long long inc,
    const char *why)
{
	log_info(
	    "cluster: node %s (incarnation %llu) is over: %s", node, inc, why);
	cluster_standin_end(cl, node, inc);
	cluster_route_owner_ended(cl, node, inc);
	cluster_link_over(cl, node, inc);
}

int
cluster_node_heard(struct cluster *cl, const char *node, unsigned long long inc)
{
	struct cluster_known *k;
	unsigned long long old;

	if (strcmp(node, cl->node) == 0)
		return inc == cl->inc ? 0 : -1; /* this node's former self */
	if ((k = cluster_node_known(cl, node, 1)) == NULL)
		return 0;
	if (k->inc == 0 || inc == k->inc) {
		k->inc = inc;
		/* Judged gone: what it sent before it beats again is stale
		 * (a paused node's late output, for rooms taken since). */
		return k->over ? -1 : 0;
	}
	if (inc < k->inc)
		return -1;
	old = k->inc;
	k->inc = inc;
	k->over = 0;
	cluster_node_over(cl, node, old, "started again");
	return 0;
}

/* The member "node|inc" into node and *inc: 0 or -1. */
static int
cluster_node_split(const char *m, char *node, unsigned long long *inc)
{
	const char *bar = strchr(m, '|');
	char *end;
	size_t n;

	if (bar == NULL || (n = (size_t)(bar - m)) == 0 || n > CLUSTER_NODE_MAX)
		return -1;
	memcpy(node, m, n);
	node[n] = '\0';
	*inc = strtoull(bar + 1, &end, 10);
	return *end == '\0' && *inc > 0 ? 0 : -1;
}

/* The live entry of node, or NULL. */
static struct cluster_live *
cluster_node_live(struct cluster *cl, const char *node)
{
	int i;

	for (i = 0; i < cl->nlive; i++)
		if (strcmp(cl->live[i].node, node) == 0)
			return &cl->live[i];
	return NULL;
}

void
cluster_node_read(struct cluster *cl, const redisReply *rep)
{
	char node[CLUSTER_NODE_MAX + 1];
	unsigned long long inc;
	struct cluster_live *l;
	long long now = clock_now_ms(), ms;
	size_t i;
	int k;

	/* Pairs of member and score (WITHSCORES); a node listed twice (a
	 * former incarnation not yet out of the set) counts as its newest. */
	cl->nlive = 0;
	for (i = 0; i + 1 < rep->elements; i += 2) {
		if (rep->element[i]->type != REDIS_REPLY_STRING ||
		    rep->element[i + 1]->type != REDIS_REPLY_STRING ||
		    cluster_node_split(rep->element[i]->str, node, &inc) != 0)
			continue;
		ms = strtoll(rep->element[i + 1]->str, NULL, 10);
		if (strcmp(node, cl->node) == 0 && inc != cl->inc)
			continue;
		if ((l = cluster_node_live(cl, node)) == NULL) {
			if (cl->nlive == CLUSTER_LIVE_MAX)
				continue;
			l = &cl->live[cl->nlive++];
			snprintf(l->node, sizeof l->node, "%s", node);
			l->inc = 0;
		}
		if (inc > l->inc) {
			l->inc = inc;
			l->ms = ms;
		}
	}
	for (k = 0; k < cl->nlive; k++)
		if (strcmp(cl->live[k].node, cl->node) != 0)
			cluster_node_heard(
			    cl, cl->live[k].node, cl->live[k].inc);
	/* Judge absences only with a whole picture: Redis answered long
	 * enough for every live node to have beaten since. */
	if (!cluster_redis_settled(cl))
		return;
	for (k = 0; k < cl->nknown; k++) {
		struct cluster_known *kn = &cl->known[k];
		int fresh;

		l = cluster_node_live(cl, kn->node);
		if (l != NULL && l->inc < kn->inc)
			continue; /* heard of before its first heartbeat */
		fresh = l != NULL && now - l->ms <= CLUSTER_ALIVE_MS;
		if (fresh) {
			kn->over = 0;
		} else if (!kn->over && kn->inc != 0) {
			kn->over = 1;
			cluster_node_over(
			    cl, kn->node, kn->inc, "no heartbeat past a lease");
		}
	}
}

int
cluster_node_alive(const struct cluster *cl, const char *node)
{
	int i;

	if (strcmp(node, cl->node) == 0 || cl->nlive == 0 ||
	    !cluster_redis_settled(cl))
		return 1;
	for (i = 0; i < cl->nlive; i++)
		if (strcmp(cl->live[i].node, node) == 0)
			return clock_now_ms() - cl->live[i].ms <=
			    CLUSTER_ALIVE_MS;
	return 0;
}
