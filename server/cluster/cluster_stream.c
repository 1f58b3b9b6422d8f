/*
 * cluster_stream.c: the messages between nodes. Each node reads its own
 * Redis stream, stream:{node}, with XREAD BLOCK from the last entry it
 * read, on a connection of its own; any node adds entries to it with XADD
 * (MAXLEN ~: a node that stops reading for long costs Redis bounded
 * memory). Every message carries its type (t) and the incarnation it is
 * for (to, 0: any), its entry the sender's node and incarnation (from,
 * inc); one for a former incarnation of this node, or from an
 * incarnation older than the newest heard of, is dropped here, before
 * anything acts on it.
 *
 * The messages for one node made during a pass of the loop go as one
 * entry, a pack, at its end (or once the pack is full): its fields are
 * the sender's (from, inc), then one field m per message, whose value
 * holds the message's own fields, its type (t) and the incarnation it is
 * for (to) first, each written LEN:BYTES and a NUL byte (so the reader
 * takes each as a C string where it lies, without a copy). Under load a
 * node sends tens of messages to another in one pass (a batch of
 * requests read by one XREAD answered, each with the replies and events
 * of its stand-in): Redis's cost of an entry grows with its fields, and
 * so does the reader's parsing (a reply object each), so one field a
 * message in one XADD a pass costs both far less than an entry of
 * fields a message (issue 32). The sender writes the command's bytes
 * itself, once, instead of hiredis formatting every argument. An entry
 * whose first field is t is one message with its fields as the entry's,
 * as nodes before the packs wrote them.
 *
 * When a link to the node is up (cluster_link.c), a pack goes on it
 * instead of the stream, the same fields in the same bytes; what a link
 * brings is read here as the stream's entry would be
 * (cluster_stream_frame).
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
/* The most messages one pack holds, and the bytes of fields past which
 * it goes at once: a reader's XREAD reply and a pack's buffer stay
 * bounded however busy a pass. */
#define CLUSTER_STREAM_PACK_MAX 32
#define CLUSTER_STREAM_PACK_BYTES (64 * 1024)
/* About how many messages a stream keeps (MAXLEN ~ counts entries, each
 * at most a full pack): a node that stops reading for long loses the
 * oldest (replayed from their senders' memory when it asks), never more
 * memory than this many full packs. */
#define CLUSTER_STREAM_KEEP_MSGS 100000
#define CLUSTER_STREAM_KEEP (CLUSTER_STREAM_KEEP_MSGS / CLUSTER_STREAM_PACK_MAX)
/* The most fields (names and values) a message in a pack may hold: its
 * type and incarnation, and CLUSTER_STREAM_FIELDS of its own. One with
 * more, or malformed, is dropped. */
#define CLUSTER_STREAM_MSG_FIELDS (4 + CLUSTER_STREAM_FIELDS)
/* Room kept before a pack's fields for the command's head (*N, XADD,
 * the key, MAXLEN ~ KEEP, *, from, inc): a node id is at most
 * CLUSTER_NODE_MAX bytes. */
#define CLUSTER_STREAM_HEADROOM (160 + 2 * CLUSTER_NODE_MAX)
/* A pack's buffer grown past this by a big message is freed once sent,
 * so that one large output does not stay in memory for good. */
#define CLUSTER_STREAM_PACK_KEEP (4 * CLUSTER_STREAM_PACK_BYTES)

/* The decimal digits of n into dst (protocol/'s formatter; no NUL):
 * how many. n is a length or a count, far below LLONG_MAX. */
static size_t
cluster_stream_digits(char *dst, unsigned long long n)
{
	char buf[PROTO_INT_CHARS];
	const char *d = proto_int_digits(buf, (long long)n);
	size_t k = strlen(d);

	memcpy(dst, d, k);
	return k;
}

/* Append "$len\r\n" (RESP's bulk length) to dst: the bytes written. */
static size_t
cluster_stream_bulk_len(char *dst, size_t len)
{
	size_t k = 0;

	dst[k++] = '$';
	k += cluster_stream_digits(dst + k, len);
	dst[k++] = '\r';
	dst[k++] = '\n';
	return k;
}

/* pk's buffer with room for need bytes more. */
static void
cluster_stream_room(struct stream_pack *pk, size_t need)
{
	if (pk->len + need <= pk->cap)
		return;
	need += pk->len;
	pk->cap = need > 2 * pk->cap ? need : 2 * pk->cap;
	pk->buf = xrealloc(pk->buf, pk->cap);
}

/* One message added to pk as its field m: nf fields f (lens[i] each)
 * written LEN:BYTES\0 in one RESP bulk string. */
static void
cluster_stream_add_msg(
    struct stream_pack *pk, int nf, const char *const *f, const size_t *lens)
{
	char digits[CLUSTER_NUM];
	size_t total = 0;
	int i;

	for (i = 0; i < nf; i++)
		total += cluster_stream_digits(digits, lens[i]) + 2 + lens[i];
	cluster_stream_room(pk, 2 * CLUSTER_NUM + 16 + total);
	memcpy(pk->buf + pk->len, "$1\r\nm\r\n", 7);
	pk->len += 7;
	pk->len += cluster_stream_bulk_len(pk->buf + pk->len, total);
	for (i = 0; i < nf; i++) {
		pk->len += cluster_stream_digits(pk->buf + pk->len, lens[i]);
		pk->buf[pk->len++] = ':';
		memcpy(pk->buf + pk->len, f[i], lens[i]);
		pk->len += lens[i];
		pk->buf[pk->len++] = '\0';
	}
	pk->buf[pk->len++] = '\r';
	pk->buf[pk->len++] = '\n';
	pk->nfields += 2;
}

/* The pack's messages, if any, as one XADD to its node's stream (lost
 * when Redis is away: what must arrive is sent again from memory). */
static void
cluster_stream_flush_one(struct cluster *cl, struct stream_pack *pk)
{
	char head[CLUSTER_STREAM_HEADROOM], key[CLUSTER_KEY];
	int hlen;

	if (pk->nmsgs == 0)
		return;
	snprintf(key, sizeof key, "stream:%s", pk->node);
	hlen = snprintf(head, sizeof head,
	    "*%d\r\n$4\r\nXADD\r\n$%zu\r\n%s\r\n$6\r\nMAXLEN\r\n$1\r\n~\r\n"
	    "$%d\r\n%d\r\n$1\r\n*\r\n$4\r\nfrom\r\n$%zu\r\n%s\r\n"
	    "$3\r\ninc\r\n$%zu\r\n%s\r\n",
	    10 + pk->nfields, strlen(key), key,
	    snprintf(NULL, 0, "%d", CLUSTER_STREAM_KEEP), CLUSTER_STREAM_KEEP,
	    strlen(cl->node), cl->node, strlen(cl->inc_text), cl->inc_text);
	if (hlen < 0 || (size_t)hlen >= sizeof head)
		fatal("cluster: a stream entry's head is too long");
	if (cl->ac != NULL &&
	    !cluster_link_send(cl, pk->node, pk->buf + CLUSTER_STREAM_HEADROOM,
	        pk->len - CLUSTER_STREAM_HEADROOM)) {
		memcpy(pk->buf + CLUSTER_STREAM_HEADROOM - hlen, head,
		    (size_t)hlen);
		cl->stats.packs_redis++;
		redisAsyncFormattedCommand(cl->ac, cluster_link_xadded,
		    cluster_link_xadd(cl, pk->node),
		    pk->buf + CLUSTER_STREAM_HEADROOM - hlen,
		    pk->len - (CLUSTER_STREAM_HEADROOM - (size_t)hlen));
	}
	pk->len = CLUSTER_STREAM_HEADROOM;
	pk->nfields = pk->nmsgs = 0;
	if (pk->cap > CLUSTER_STREAM_PACK_KEEP) {
		free(pk->buf);
		pk->buf = NULL;
		pk->cap = 0;
	}
}

void
cluster_num(char out[CLUSTER_NUM], unsigned long long n)
{
	out[cluster_stream_digits(out, n)] = '\0';
}

void
cluster_stream_flush(struct cluster *cl)
{
	int i;

	for (i = 0; i < cl->npacks; i++)
		cluster_stream_flush_one(cl, &cl->packs[i]);
}

/* The end of the loop's pass: every pack goes. */
static void
cluster_stream_flush_cb(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	cluster_stream_flush(arg);
}

/* The pack for node's stream, new when there is none (when every slot
 * is taken, all of them are sent and emptied first). */
static struct stream_pack *
cluster_stream_pack(struct cluster *cl, const char *node)
{
	struct stream_pack *pk;
	int i;

	for (i = 0; i < cl->npacks; i++)
		if (strcmp(cl->packs[i].node, node) == 0)
			return &cl->packs[i];
	if (cl->npacks == CLUSTER_STREAM_PACKS) {
		cluster_stream_flush(cl);
		for (i = 0; i < cl->npacks; i++)
			free(cl->packs[i].buf);
		cl->npacks = 0;
	}
	pk = &cl->packs[cl->npacks++];
	memset(pk, 0, sizeof *pk);
	snprintf(pk->node, sizeof pk->node, "%s", node);
	pk->len = CLUSTER_STREAM_HEADROOM;
	return pk;
}

void
cluster_stream_send(struct cluster *cl, const char *node, unsigned long long to,
    const char *t, int n, const char *const *argv, const size_t *lens)
{
	const char *f[CLUSTER_STREAM_MSG_FIELDS];
	size_t flen[CLUSTER_STREAM_MSG_FIELDS];
	struct stream_pack *pk;
	char tonum[CLUSTER_NUM];
	int i;

	if (cl->ac == NULL || n > CLUSTER_STREAM_FIELDS)
		return;
	pk = cluster_stream_pack(cl, node);
	if (pk->buf == NULL) {
		pk->cap = CLUSTER_STREAM_HEADROOM + 1024;
		pk->buf = xmalloc(pk->cap);
	}
	cluster_num(tonum, to);
	f[0] = "t", f[1] = t, f[2] = "to", f[3] = tonum;
	for (i = 0; i < 4; i++)
		flen[i] = strlen(f[i]);
	for (i = 0; i < n; i++) {
		f[4 + i] = argv[i];
		flen[4 + i] = lens != NULL && lens[i] != (size_t)-1
		    ? lens[i]
		    : strlen(argv[i]);
	}
	cluster_stream_add_msg(pk, 4 + n, f, flen);
	pk->nmsgs++;
	if (pk->nmsgs >= CLUSTER_STREAM_PACK_MAX ||
	    pk->len >= CLUSTER_STREAM_PACK_BYTES)
		cluster_stream_flush_one(cl, pk);
	else
		event_active(cl->pack_ev, 0, 0);
}

void
cluster_stream_start(struct cluster *cl)
{
	cl->pack_ev =
	    event_new(cl->srv->base, -1, 0, cluster_stream_flush_cb, cl);
	if (cl->pack_ev == NULL)
		fatal("out of memory");
}

void
cluster_stream_stop(struct cluster *cl)
{
	int i;

	cluster_stream_flush(cl);
	for (i = 0; i < cl->npacks; i++)
		free(cl->packs[i].buf);
	cl->npacks = 0;
	if (cl->pack_ev != NULL)
		event_free(cl->pack_ev);
	cl->pack_ev = NULL;
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

/* One message of this node's stream, from a live incarnation of node
 * from, to whoever acts on its type. */
static void
cluster_stream_message(struct cluster *cl, const char *from,
    unsigned long long inc, const redisReply *fields)
{
	const char *t = cluster_stream_str(fields, "t");
	unsigned long long to = cluster_stream_num(fields, "to");

	if (to != 0 && to != cl->inc)
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

/* 1 when field i of an entry is named name. */
static int
cluster_stream_named(const redisReply *fields, size_t i, const char *name)
{
	return fields->element[i]->type == REDIS_REPLY_STRING &&
	    strcmp(fields->element[i]->str, name) == 0;
}

/* One message of a pack (the value of a field m): its fields parsed
 * where they lie (wire_fields) and acted on; a malformed one is
 * dropped. */
static void
cluster_stream_unpack(struct cluster *cl, const char *from,
    unsigned long long inc, const redisReply *m)
{
	redisReply el[CLUSTER_STREAM_MSG_FIELDS], view;
	redisReply *ptr[CLUSTER_STREAM_MSG_FIELDS];
	char *str[CLUSTER_STREAM_MSG_FIELDS];
	size_t lens[CLUSTER_STREAM_MSG_FIELDS];
	int k, i;

	k = wire_fields(m->str, m->len, str, lens, CLUSTER_STREAM_MSG_FIELDS);
	if (k < 0 || k % 2 != 0)
		return;
	for (i = 0; i < k; i++) {
		memset(&el[i], 0, sizeof el[i]);
		el[i].type = REDIS_REPLY_STRING;
		el[i].str = str[i];
		el[i].len = lens[i];
		ptr[i] = &el[i];
	}
	memset(&view, 0, sizeof view);
	view.type = REDIS_REPLY_ARRAY;
	view.element = ptr;
	view.elements = (size_t)k;
	cluster_stream_message(cl, from, inc, &view);
}

/* One entry of this node's stream: a pack (from, inc, then a field m
 * each message), or one message as older nodes wrote it. */
static void
cluster_stream_entry(struct cluster *cl, const redisReply *fields)
{
	const char *from = cluster_stream_str(fields, "from");
	unsigned long long inc = cluster_stream_num(fields, "inc");
	size_t i;

	if (from[0] == '\0' || strlen(from) > CLUSTER_NODE_MAX)
		return;
	if (fields->elements >= 2 && cluster_stream_named(fields, 0, "t")) {
		if (cluster_node_heard(cl, from, inc) == 0)
			cluster_stream_message(cl, from, inc, fields);
		return;
	}
	if (cluster_node_heard(cl, from, inc) != 0)
		return;
	for (i = 0; i + 1 < fields->elements; i += 2)
		if (cluster_stream_named(fields, i, "m") &&
		    fields->element[i + 1]->type == REDIS_REPLY_STRING)
			cluster_stream_unpack(
			    cl, from, inc, fields->element[i + 1]);
}

int
cluster_stream_frame(struct cluster *cl, const char *from,
    unsigned long long inc, char *body, size_t len)
{
	char *p = body, *end = body + len, *name, *val;
	size_t nlen, vlen;
	redisReply m;

	if (cluster_node_heard(cl, from, inc) != 0)
		return 0;
	while (p < end) {
		if (wire_bulk(&p, end, &name, &nlen) != 0 ||
		    wire_bulk(&p, end, &val, &vlen) != 0)
			return -1;
		if (nlen != 1 || name[0] != 'm')
			continue;
		memset(&m, 0, sizeof m);
		m.type = REDIS_REPLY_STRING;
		m.str = val;
		m.len = vlen;
		cluster_stream_unpack(cl, from, inc, &m);
	}
	return 0;
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
		cluster_link_stream_read(cl);
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
