/*
 * cluster_stream.c: the messages between nodes. Each node reads its own
 * Redis stream, stream:{node}, with XREAD BLOCK from the last entry it
 * read, on a connection of its own; any node adds entries to it with XADD
 * (MAXLEN ~: a node that stops reading for long costs Redis bounded
 * memory). Every entry carries its type (t), the sender's node and
 * incarnation (from, inc) and the incarnation it is for (to, 0: any);
 * one for a former incarnation of this node, or from an incarnation older
 * than the newest heard of, is dropped here, before anything acts on it.
 *
 * A stream entry is not acknowledged by Redis here: the messages that
 * must arrive are numbered and acknowledged end to end by the nodes
 * (requests by the home, a stand-in's output by the owner; see
 * cluster_route.c and cluster_standin.c), and replayed from the sender's
 * memory, because the loss to cover is Redis losing the stream itself
 * (a restart without persistence, a failover to a replica that had not
 * got the last writes), which no acknowledgement kept in Redis survives.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/cluster/cluster.h"
#include "server/cluster/cluster_int.h"

/* Entries one XREAD takes at most. */
#define CLUSTER_STREAM_COUNT 256
/* About how many entries a stream keeps (MAXLEN ~): a node that stops
 * reading for long loses the oldest (replayed from their senders' memory
 * when it asks), never more memory than this. */
#define CLUSTER_STREAM_KEEP 100000
/* The fields every entry has before its own: t, from, inc, to. */
#define CLUSTER_STREAM_HEAD 8

void
cluster_stream_send(struct cluster *cl, const char *node, unsigned long long to,
    const char *t, int n, const char *const *argv, const size_t *lens)
{
	const char *args[6 + CLUSTER_STREAM_HEAD + CLUSTER_STREAM_FIELDS];
	size_t alen[6 + CLUSTER_STREAM_HEAD + CLUSTER_STREAM_FIELDS];
	char key[CLUSTER_KEY], keep[CLUSTER_NUM], tonum[CLUSTER_NUM];
	int i, k = 0, first;

	if (cl->ac == NULL || n > CLUSTER_STREAM_FIELDS)
		return;
	snprintf(key, sizeof key, "stream:%s", node);
	snprintf(keep, sizeof keep, "%d", CLUSTER_STREAM_KEEP);
	snprintf(tonum, sizeof tonum, "%llu", to);
	args[k++] = "XADD";
	args[k++] = key;
	args[k++] = "MAXLEN";
	args[k++] = "~";
	args[k++] = keep;
	args[k++] = "*";
	args[k++] = "t";
	args[k++] = t;
	args[k++] = "from";
	args[k++] = cl->node;
	args[k++] = "inc";
	args[k++] = cl->inc_text;
	args[k++] = "to";
	args[k++] = tonum;
	first = k;
	for (i = 0; i < n; i++)
		args[k++] = argv[i];
	for (i = 0; i < k; i++)
		alen[i] =
		    i >= first && lens != NULL && lens[i - first] != (size_t)-1
		    ? lens[i - first]
		    : strlen(args[i]);
	redisAsyncCommandArgv(cl->ac, NULL, NULL, k, args, alen);
}

const redisReply *
cluster_stream_field(const redisReply *fields, const char *name)
{
	size_t i;

	for (i = 0; i + 1 < fields->elements; i += 2)
		if (fields->element[i]->type == REDIS_REPLY_STRING &&
		    strcmp(fields->element[i]->str, name) == 0)
			return fields->element[i + 1];
	return NULL;
}

const char *
cluster_stream_str(const redisReply *fields, const char *name)
{
	const redisReply *v = cluster_stream_field(fields, name);

	return v != NULL && v->type == REDIS_REPLY_STRING ? v->str : "";
}

unsigned long long
cluster_stream_num(const redisReply *fields, const char *name)
{
	return strtoull(cluster_stream_str(fields, name), NULL, 10);
}

/* One entry of this node's stream, to whoever acts on its type. */
static void
cluster_stream_entry(struct cluster *cl, const redisReply *fields)
{
	const char *t = cluster_stream_str(fields, "t");
	const char *from = cluster_stream_str(fields, "from");
	unsigned long long inc = cluster_stream_num(fields, "inc");
	unsigned long long to = cluster_stream_num(fields, "to");

	if ((to != 0 && to != cl->inc) || from[0] == '\0' ||
	    strlen(from) > CLUSTER_NODE_MAX ||
	    cluster_node_heard(cl, from, inc) != 0)
		return;
	if (strcmp(t, "req") == 0)
		cluster_standin_req(cl, from, inc, fields);
	else if (strcmp(t, "out") == 0)
		cluster_route_out(cl, from, inc, fields);
	else if (strcmp(t, "ack") == 0)
		cluster_standin_ack(cl, from, inc, fields);
	else if (strcmp(t, "resend") == 0)
		cluster_standin_resend(cl, from, inc, fields);
	else if (strcmp(t, "bye") == 0)
		cluster_standin_bye(cl, from, inc, fields);
	else if (strcmp(t, "bounce") == 0)
		cluster_route_bounce(cl, from, fields);
	else if (strcmp(t, "closed") == 0)
		cluster_route_closed_entry(cl, from, fields);
	else if (strcmp(t, "tend") == 0)
		cluster_club_ended(cl, cluster_stream_str(fields, "room"),
		    cluster_stream_str(fields, "winner"),
		    cluster_stream_str(fields, "reason"));
	else if (strcmp(t, "tlogin") == 0)
		cluster_club_login(cl, cluster_stream_str(fields, "name"));
	else if (strcmp(t, "kick") == 0)
		cluster_lobby_kick(cl, cluster_stream_str(fields, "name"),
		    cluster_stream_num(fields, "conn"));
	else if (strcmp(t, "admin") == 0)
		cluster_admin_got(cl, fields);
}

/* XREAD answered: every entry in order, then read on. */
static void
cluster_stream_got(redisAsyncContext *ac, void *reply, void *arg)
{
	struct cluster *cl = ac->data;
	redisReply *rep = reply, *entries, *e;
	size_t i;

	(void)arg;
	if (cl == NULL || rep == NULL || ac != cl->rd)
		return;
	cl->read_ms = 0;
	if (rep->type == REDIS_REPLY_ERROR) {
		/* not read again at once: the next tick connects again */
		log_warn("cluster: reading stream:%s: %s", cl->node, rep->str);
		cl->rd = NULL;
		redisAsyncFree(ac);
		return;
	}
	if (rep->type == REDIS_REPLY_ARRAY && rep->elements == 1 &&
	    rep->element[0]->type == REDIS_REPLY_ARRAY &&
	    rep->element[0]->elements == 2) {
		entries = rep->element[0]->element[1];
		for (i = 0; i < entries->elements; i++) {
			e = entries->element[i];
			if (e->type != REDIS_REPLY_ARRAY || e->elements != 2 ||
			    e->element[0]->type != REDIS_REPLY_STRING)
				continue;
			snprintf(cl->last_id, sizeof cl->last_id, "%s",
			    e->element[0]->str);
			if (e->element[1]->type == REDIS_REPLY_ARRAY)
				cluster_stream_entry(cl, e->element[1]);
		}
	}
	if (cl->rd == ac)
		cluster_stream_read(cl);
}

void
cluster_stream_read(struct cluster *cl)
{
	char key[CLUSTER_KEY];

	if (cl->rd == NULL)
		return;
	snprintf(key, sizeof key, "stream:%s", cl->node);
	cl->read_ms = clock_mono_ms();
	redisAsyncCommand(cl->rd, cluster_stream_got, NULL,
	    "XREAD COUNT %d BLOCK %d STREAMS %s %s", CLUSTER_STREAM_COUNT,
	    CLUSTER_STREAM_BLOCK_MS, key, cl->last_id);
}
