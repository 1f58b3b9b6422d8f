/*
 * modules.c: the optional parts tablerod is built with: the cluster
 * (cluster/, --redis). tablerod-alone links alone.c in its place, and
 * none of cluster/ (make tablerod-alone).
 */
#include <stdio.h>

#include "server/app/app.h"
#include "server/cluster/cluster.h"

/* --node: 1 to CLUSTER_NODE_MAX of [A-Za-z0-9-_.]; the Redis flags. */
static int
modules_cluster_check(const struct config *cfg, char *err, size_t errlen)
{
	if (cfg->node != NULL && !cluster_node_valid(cfg->node)) {
		snprintf(err, errlen,
		    "--node %s: 1 to %d letters, digits, '-', '_' or '.'",
		    cfg->node, CLUSTER_NODE_MAX);
		return -1;
	}
	/* --redis and its company: refused before anything starts */
	return cluster_check(cfg, err, errlen);
}

static const struct app_module modules_cluster = {
    .name = "cluster",
    .check = modules_cluster_check,
    .start = cluster_start,
    .stop = cluster_stop,
};

const struct app_module *const app_modules[] = {&modules_cluster, NULL};
