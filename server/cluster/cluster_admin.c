/*
 * cluster_admin.c: the operators' acts across the nodes (cmd_moderate.c).
 * An act made on one node (kick, ban, mute and their lifting, stored
 * there) goes to every other live node as an "admin" entry of its
 * stream; each applies it to its memory and its own connections
 * (cmd_moderate_remote), so a player connected to another node is kicked
 * or banned at once, and a mute holds there from the next message on.
 * An announcement needs none of this: it goes to each player through
 * the cluster's delivery (player_send).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/cluster/cluster.h"
#include "server/cluster/cluster_int.h"

void
cluster_admin_send(struct server *srv, const char *act, const char *target,
    long long until_ms, const char *admin, long long made_ms)
{
	struct cluster *cl = srv->cluster;
	char until[CLUSTER_NUM], made[CLUSTER_NUM];
	const char *f[10];
	int i;

	if (cl == NULL)
		return;
	snprintf(until, sizeof until, "%lld", until_ms);
	snprintf(made, sizeof made, "%lld", made_ms);
	f[0] = "act", f[1] = act;
	f[2] = "target", f[3] = target;
	f[4] = "until", f[5] = until;
	f[6] = "admin", f[7] = admin;
	f[8] = "made", f[9] = made;
	for (i = 0; i < cl->nlive; i++)
		if (strcmp(cl->live[i].node, cl->node) != 0)
			cluster_stream_send(cl, cl->live[i].node,
			    cl->live[i].inc, "admin", 10, f, NULL);
}

void
cluster_admin_got(struct cluster *cl, const redisReply *fields)
{
	cmd_moderate_remote(cl->srv, cluster_stream_str(fields, "act"),
	    cluster_stream_str(fields, "target"),
	    strtoll(cluster_stream_str(fields, "until"), NULL, 10),
	    cluster_stream_str(fields, "admin"),
	    strtoll(cluster_stream_str(fields, "made"), NULL, 10));
}
