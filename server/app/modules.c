/*
 * modules.c: the optional parts tablerod is built with: the cluster
 * (cluster/, --redis), its flags' check and its metrics. tablerod-alone
 * links alone.c in its place, and none of cluster/ (make tablerod-alone).
 */
#include <stdio.h>

#include <event2/buffer.h>

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

/* The cluster's figures (docs/tablerod.8), on a cluster node only. */
static void
modules_cluster_metrics(struct server *srv, struct evbuffer *out)
{
	struct cluster_stats st;

	if (cluster_stats(srv, &st) != 0)
		return;
	metrics_one(out, "tablerod_cluster_redis_up", "gauge",
	    "1 while Redis answers this node.",
	    (unsigned long long)st.redis_up);
	metrics_head(out, "tablerod_cluster_leases", "gauge",
	    "Leases this node holds: rooms, and the club (0 or 1).");
	evbuffer_add_printf(out,
	    "tablerod_cluster_leases{kind=\"room\"} %d\n"
	    "tablerod_cluster_leases{kind=\"club\"} %d\n",
	    st.leases, st.club);
	metrics_one(out, "tablerod_cluster_standins", "gauge",
	    "Other nodes' players acting in this node's rooms (stand-ins).",
	    (unsigned long long)st.standins);
	metrics_head(out, "tablerod_cluster_links", "gauge",
	    "Links up between this node and others: those it sends its "
	    "messages on (out), those others send theirs on (in).");
	evbuffer_add_printf(out,
	    "tablerod_cluster_links{way=\"out\"} %d\n"
	    "tablerod_cluster_links{way=\"in\"} %d\n",
	    st.links_out, st.links_in);
	metrics_head(out, "tablerod_cluster_packs_total", "counter",
	    "Packs of messages this node sent other nodes: straight on a "
	    "link, or through Redis (no link up).");
	evbuffer_add_printf(out,
	    "tablerod_cluster_packs_total{way=\"link\"} %llu\n"
	    "tablerod_cluster_packs_total{way=\"redis\"} %llu\n",
	    st.packs_link, st.packs_redis);
	metrics_one(out, "tablerod_cluster_clocks_stopped", "gauge",
	    "Rooms whose clocks are stopped for a player the cluster cut off.",
	    (unsigned long long)st.clocks_stopped);
	metrics_one(out, "tablerod_cluster_forwarded_total", "counter",
	    "Requests of this node's players sent to the node holding their "
	    "room or the club.",
	    st.forwarded);
	metrics_one(out, "tablerod_cluster_forward_resent_total", "counter",
	    "Forwarded requests sent again (no answer in time, a bounce, a "
	    "new owner).",
	    st.resent);
	metrics_one(out, "tablerod_cluster_forward_refused_total", "counter",
	    "Requests answered not_ready: no node holding their room could "
	    "be reached.",
	    st.refused);
	metrics_one(out, "tablerod_cluster_served_total", "counter",
	    "Other nodes' players' requests run here.", st.served);
	metrics_one(out, "tablerod_cluster_bounced_total", "counter",
	    "Other nodes' requests sent back: the room is not this node's.",
	    st.bounced);
	metrics_one(out, "tablerod_cluster_rooms_taken_total", "counter",
	    "Rooms this node took (at its start, or from a node gone).",
	    st.taken);
	metrics_one(out, "tablerod_cluster_redis_outages_total", "counter",
	    "Times Redis stopped answering this node.", st.outages);
}

static const struct app_module modules_cluster = {
    .name = "cluster",
    .check = modules_cluster_check,
    .start = cluster_start,
    .stop = cluster_stop,
    .metrics = modules_cluster_metrics,
};

const struct app_module *const app_modules[] = {&modules_cluster, NULL};
