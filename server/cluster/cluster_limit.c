/*
 * cluster_limit.c: the per-address limits (limit.c) over a cluster's
 * nodes (docs/SCALING.md part 3, "Rate limits"). Every tick a node writes
 * `limits:{node}`, expiring with the node: one line per address it
 * serves, "a:ADDR CONNS MSGS FAILS", its open connections from there and
 * the messages and failed logins it took from the address's buckets that
 * have not refilled yet, and one per name with failed logins, "n:NAME 0 0
 * FAILS" (a name's messages need no sharing: it has one connection in the
 * cluster). It reads the other live nodes' reports into its limit
 * entries, where the checks count them as used: so an address's
 * connections, messages and failed logins, and a name's failed logins,
 * are counted once over the cluster, at most a tick or two late, with no
 * Redis round trip per connection, message or login.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/buffer.h>

#include "server/cluster/cluster_int.h"
#include "server/cmd/cmd.h"
#include "server/club/club.h"
#include "server/net/limit.h"

/* A report's key: "limits:" and the node id. */
#define CLUSTER_LIMIT_PREFIX "limits:"
/* Bounds on what one report line may claim: a node's connections from an
 * address (no more than a node's file descriptors) and its messages or
 * failed logins (no more than the largest --addr-burst): a garbled
 * report cannot make an address look used forever. */
#define CLUSTER_LIMIT_CONNS_MAX 1000000
#define CLUSTER_LIMIT_USE_MAX 10000000.0

/* What one walk of the limits table collects into a report. */
struct cluster_limit_walk {
	struct server *srv;
	struct evbuffer *out;
	int64_t now;
};

/* One address's or name's line of this node's report, when it uses
 * anything. */
static void
cluster_limit_line(struct table_link *l, void *arg)
{
	struct cluster_limit_walk *w = arg;
	struct limit_entry *e = TABLE_ITEM(l, struct limit_entry, link);
	double msgs, fails;

	int addr = e->key[0] == 'a';

	if (!addr && e->key[0] != 'n')
		return;
	msgs = addr ? limit_used_msgs(w->srv, e, w->now) : 0;
	fails = limit_used_fails(w->srv, e, w->now);
	if ((!addr || e->refs <= 0) && msgs < 0.01 && fails < 0.01)
		return;
	evbuffer_add_printf(w->out, "%s %d %.2f %.2f\n", e->key,
	    addr ? e->refs : 0, msgs, fails);
}

/* Add one report line to the entry of its address; bad lines skipped. */
static void
cluster_limit_take(struct server *srv, const char *line, int64_t now)
{
	char key[SERVER_LIMIT_KEY];
	struct limit_entry *e;
	double msgs, fails;
	int conns;

	if (sscanf(line, "%55s %d %lf %lf", key, &conns, &msgs, &fails) != 4 ||
	    (strncmp(key, "a:", 2) != 0 && strncmp(key, "n:", 2) != 0) ||
	    conns < 0 || conns > CLUSTER_LIMIT_CONNS_MAX || !(msgs >= 0) ||
	    !(msgs <= CLUSTER_LIMIT_USE_MAX) || !(fails >= 0) ||
	    !(fails <= CLUSTER_LIMIT_USE_MAX))
		return;
	if (key[0] == 'n')
		conns = 0,
		msgs = 0; /* only a name's failed logins are shared */
	if ((e = limit_get(srv, key)) != NULL)
		limit_remote_add(srv, e, conns, msgs, fails, now);
}

/* The other nodes' reports came: they replace the ones read before. */
static void
cluster_limit_got(redisAsyncContext *ac, void *reply, void *arg)
{
	struct cluster *cl = ac->data;
	redisReply *rep = reply;
	int64_t now = clock_mono_ms();
	const char *p, *nl;
	size_t i;

	(void)arg;
	if (cl == NULL || rep == NULL || rep->type != REDIS_REPLY_ARRAY)
		return;
	cl->srv->limit_gen++;
	for (i = 0; i < rep->elements; i++) {
		if (rep->element[i]->type != REDIS_REPLY_STRING)
			continue;
		for (p = rep->element[i]->str; *p != '\0'; p = nl + 1) {
			cluster_limit_take(cl->srv, p, now);
			if ((nl = strchr(p, '\n')) == NULL)
				break;
		}
	}
}

/* Write this node's report; read the other live nodes'. */
void
cluster_limit_tick(struct cluster *cl)
{
	struct cluster_limit_walk w = {
	    cl->srv, evbuffer_new(), clock_mono_ms()};
	const char *argv[CLUSTER_LIVE_MAX + 1];
	char keys[CLUSTER_LIVE_MAX][CLUSTER_KEY], key[CLUSTER_KEY];
	size_t len;
	int i, n = 0;

	if (cl->ac == NULL || w.out == NULL) {
		if (w.out != NULL)
			evbuffer_free(w.out);
		return;
	}
	table_walk(&cl->srv->limits, cluster_limit_line, &w);
	len = evbuffer_get_length(w.out);
	snprintf(key, sizeof key, CLUSTER_LIMIT_PREFIX "%s", cl->node);
	redisAsyncCommand(cl->ac, NULL, NULL, "SET %s %b PX %d", key,
	    len > 0 ? (const char *)evbuffer_pullup(w.out, -1) : "", len,
	    CLUSTER_NODE_TTL_MS);
	evbuffer_free(w.out);
	argv[n++] = "MGET";
	for (i = 0; i < cl->nlive; i++) {
		if (strcmp(cl->live[i].node, cl->node) == 0 ||
		    !cluster_node_alive(cl, cl->live[i].node))
			continue;
		snprintf(keys[n - 1], sizeof keys[0], CLUSTER_LIMIT_PREFIX "%s",
		    cl->live[i].node);
		argv[n] = keys[n - 1];
		n++;
	}
	if (n == 1) {
		cl->srv->limit_gen++; /* alone now: nothing counts but ours */
		return;
	}
	redisAsyncCommandArgv(cl->ac, cluster_limit_got, NULL, n, argv, NULL);
}
