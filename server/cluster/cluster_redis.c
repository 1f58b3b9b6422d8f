/*
 * cluster_redis.c: the node's two connections to Redis (hiredis on the
 * server's loop): one for commands, one that blocks reading the node's
 * stream. Where Redis is: --redis HOST:PORT or a redis:// URL (with a user
 * and password for AUTH, Redis's ACL), a password file, or Redis
 * Sentinel: --redis-sentinel asks the sentinels for --redis-master's
 * address, and asks again whenever the master stops answering or
 * refuses a write (a failover made it a replica). Redis is "up" while
 * the heartbeat is answered: a watchdog closes both connections when a
 * command waits longer than CLUSTER_REDIS_TIMEOUT_MS (a stopped Redis
 * keeps its sockets open), and every tick connects again what is not
 * connected. When Redis answers again after an absence, cluster_back
 * writes again what Redis lost.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis/adapters/libevent.h>
#include <hiredis/async.h>
#include <hiredis/hiredis.h>

#include "server/cluster/cluster.h"
#include "server/cluster/cluster_int.h"

/* Redis's port when an address or URL names none. */
#define CLUSTER_REDIS_PORT 6379
/* How long the stream reader's XREAD blocks (cluster_stream.c), plus
 * the watchdog's timeout, is how long its answer may take. */
#define CLUSTER_REDIS_READ_MS                                                  \
	(CLUSTER_STREAM_BLOCK_MS + CLUSTER_REDIS_TIMEOUT_MS)

/* The port of the text s[0..n) after its last ':' (def without one) and
 * the host before it (brackets taken off an IPv6 address): 0 or -1. */
static int
cluster_redis_hostport(
    const char *s, size_t n, char *host, size_t hostlen, int *port, int def)
{
	const char *colon = NULL, *h = s;
	size_t hn, i;
	char num[8];
	char *end;
	long p = def;

	if (n > 0 && s[0] == '[') {
		const char *close = memchr(s, ']', n);

		if (close == NULL)
			return -1;
		h = s + 1;
		hn = (size_t)(close - h);
		if ((size_t)(close + 1 - s) < n) {
			if (close[1] != ':')
				return -1;
			colon = close + 1;
		}
	} else {
		for (i = 0; i < n; i++)
			if (s[i] == ':')
				colon = s + i;
		hn = colon != NULL ? (size_t)(colon - s) : n;
	}
	if (hn == 0 || hn >= hostlen)
		return -1;
	if (colon != NULL) {
		size_t pn = n - (size_t)(colon + 1 - s);

		if (pn == 0 || pn >= sizeof num)
			return -1;
		memcpy(num, colon + 1, pn);
		num[pn] = '\0';
		p = strtol(num, &end, 10);
		if (*end != '\0' || p < 1 || p > 65535)
			return -1;
	}
	memcpy(host, h, hn);
	host[hn] = '\0';
	*port = (int)p;
	return 0;
}

/* The URL's percent-encoded s[0..n) decoded into out: 0, or -1 when it
 * does not fit or is malformed. */
static int
cluster_redis_unescape(const char *s, size_t n, char *out, size_t len)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		int c = (unsigned char)s[i];

		if (c == '%') {
			char hex[3] = {0};

			if (i + 2 >= n)
				return -1;
			hex[0] = s[i + 1];
			hex[1] = s[i + 2];
			if (!isxdigit((unsigned char)hex[0]) ||
			    !isxdigit((unsigned char)hex[1]))
				return -1;
			c = (int)strtol(hex, NULL, 16);
			i += 2;
		}
		if (k + 1 >= len)
			return -1;
		out[k++] = (char)c;
	}
	out[k] = '\0';
	return 0;
}

/* A redis:// URL: redis://[[USER]:PASSWORD@]HOST[:PORT][/[DB]] (DB 0
 * only: the cluster uses one database). 0 or -1. */
static int
cluster_redis_url(struct cluster *cl, const char *url)
{
	const char *p = url + strlen("redis://"), *at, *slash, *colon;
	size_t n;

	slash = strchr(p, '/');
	n = slash != NULL ? (size_t)(slash - p) : strlen(p);
	if (slash != NULL && slash[1] != '\0' && strcmp(slash + 1, "0") != 0)
		return -1;
	at = memchr(p, '@', n);
	if (at != NULL) {
		colon = memchr(p, ':', (size_t)(at - p));
		if (colon == NULL) /* redis://PASSWORD@HOST: as redis-cli */
			colon = p - 1;
		if (cluster_redis_unescape(p,
		        (size_t)(colon < p ? 0 : colon - p), cl->user,
		        sizeof cl->user) != 0 ||
		    cluster_redis_unescape(colon + 1, (size_t)(at - colon - 1),
		        cl->pass, sizeof cl->pass) != 0)
			return -1;
		n -= (size_t)(at + 1 - p);
		p = at + 1;
	}
	if (n == 0) /* credentials only: the sentinels say where */
		return cl->nsentinels > 0 ? 0 : -1;
	return cluster_redis_hostport(
	    p, n, cl->host, sizeof cl->host, &cl->port, CLUSTER_REDIS_PORT);
}

/* The password file: its first line is PASSWORD, or USER PASSWORD (an
 * ACL user). 0, or -1 with the reason in err. */
static int
cluster_redis_password_file(
    struct cluster *cl, const char *path, char *err, size_t errlen)
{
	char line[2 * CLUSTER_CRED_MAX + 2], *sp, *pw;
	FILE *f = fopen(path, "r");
	size_t n, un, pn;

	if (f == NULL) {
		snprintf(err, errlen, "--redis-password-file %s: %s", path,
		    strerror(errno));
		return -1;
	}
	if (fgets(line, sizeof line, f) == NULL)
		line[0] = '\0';
	fclose(f);
	n = strcspn(line, "\r\n");
	line[n] = '\0';
	sp = strchr(line, ' ');
	pw = sp != NULL ? sp + 1 : line;
	un = sp != NULL ? (size_t)(sp - line) : 0;
	pn = strlen(pw);
	if (un >= sizeof cl->user || pn >= sizeof cl->pass || pn == 0) {
		snprintf(err, errlen,
		    "--redis-password-file %s: its first line is PASSWORD or "
		    "USER PASSWORD, each at most %d characters",
		    path, CLUSTER_CRED_MAX - 1);
		sodium_memzero(line, sizeof line);
		return -1;
	}
	memcpy(cl->user, line, un);
	cl->user[un] = '\0';
	memcpy(cl->pass, pw, pn + 1);
	sodium_memzero(line, sizeof line);
	return 0;
}

/* --redis-sentinel HOST:PORT,...: 0 or -1. */
static int
cluster_redis_sentinels(struct cluster *cl, const char *list)
{
	const char *p = list, *comma;
	size_t n;

	while (*p != '\0') {
		comma = strchr(p, ',');
		n = comma != NULL ? (size_t)(comma - p) : strlen(p);
		if (cl->nsentinels == CLUSTER_SENTINELS_MAX ||
		    cluster_redis_hostport(p, n,
		        cl->sentinel_host[cl->nsentinels],
		        sizeof cl->sentinel_host[0],
		        &cl->sentinel_port[cl->nsentinels], 26379) != 0)
			return -1;
		cl->nsentinels++;
		if (comma == NULL)
			break;
		p = comma + 1;
	}
	return cl->nsentinels > 0 ? 0 : -1;
}

int
cluster_redis_config(
    struct cluster *cl, const struct config *cfg, char *err, size_t errlen)
{
	const char *r = cfg->redis;

	if (cfg->redis_sentinel != NULL) {
		if (cluster_redis_sentinels(cl, cfg->redis_sentinel) != 0) {
			snprintf(err, errlen,
			    "--redis-sentinel %s: HOST:PORT,... expected (at "
			    "most %d)",
			    cfg->redis_sentinel, CLUSTER_SENTINELS_MAX);
			return -1;
		}
		if (cfg->redis_master == NULL || cfg->redis_master[0] == '\0' ||
		    strlen(cfg->redis_master) > CLUSTER_MASTER_MAX) {
			snprintf(err, errlen,
			    "--redis-sentinel needs --redis-master NAME (at "
			    "most %d characters)",
			    CLUSTER_MASTER_MAX);
			return -1;
		}
		snprintf(
		    cl->master, sizeof cl->master, "%s", cfg->redis_master);
	} else if (cfg->redis_master != NULL) {
		snprintf(
		    err, errlen, "--redis-master goes with --redis-sentinel");
		return -1;
	}
	if (r != NULL && strncmp(r, "redis://", 8) == 0) {
		if (cluster_redis_url(cl, r) != 0) {
			/* not the URL itself: it may hold a password */
			snprintf(err, errlen,
			    "--redis: a URL redis://[[USER]:PASSWORD@]"
			    "HOST[:PORT][/0] expected");
			return -1;
		}
	} else if (r != NULL &&
	    cluster_redis_hostport(r, strlen(r), cl->host, sizeof cl->host,
	        &cl->port, CLUSTER_REDIS_PORT) != 0) {
		snprintf(err, errlen, "--redis %s: HOST:PORT expected", r);
		return -1;
	}
	if (cfg->redis_password_file != NULL &&
	    cluster_redis_password_file(
	        cl, cfg->redis_password_file, err, errlen) != 0)
		return -1;
	return 0;
}

int
cluster_redis_up(const struct cluster *cl)
{
	return cl->ac != NULL && cl->up_ms != 0;
}

int
cluster_redis_settled(const struct cluster *cl)
{
	/* At the first connection the leases of the live nodes are there
	 * already (or the whole cluster starts): nothing to wait for. */
	return cluster_redis_up(cl) &&
	    (!cl->lost_once ||
	        clock_mono_ms() - cl->up_ms >= CLUSTER_SETTLE_MS);
}

/* Redis stopped answering: from now on it is away. */
static void
cluster_redis_away(struct cluster *cl)
{
	int was_up = cl->up_ms != 0;

	if (was_up) {
		cl->down_ms = clock_mono_ms();
		cl->lost_once = 1;
		cl->stats.outages++;
	}
	cl->up_ms = 0;
	cl->beat_ms = 0;
	if (cl->nsentinels > 0)
		cl->master_known = 0; /* ask the sentinels again */
	if (was_up)
		cluster_clocks(cl, 1);
}

void
cluster_redis_drop(struct cluster *cl, const char *why)
{
	redisAsyncContext *ac = cl->ac, *rd = cl->rd;

	if (ac == NULL && rd == NULL)
		return;
	if (!cl->told_down)
		log_warn("cluster: Redis %s:%d: %s; connecting again", cl->host,
		    cl->port, why);
	cl->told_down = 1;
	cl->ac = cl->rd = NULL;
	cluster_redis_away(cl);
	cl->read_ms = 0;
	/* Their callbacks run now with no reply, and see no connection. */
	if (ac != NULL)
		redisAsyncFree(ac);
	if (rd != NULL)
		redisAsyncFree(rd);
	cl->scanning = 0;
	cl->club_trying = 0;
}

/* AUTH answered: a refusal is logged, and the connection closed (it
 * could do nothing). */
static void
cluster_redis_authed(redisAsyncContext *ac, void *reply, void *arg)
{
	struct cluster *cl = ac->data;
	redisReply *rep = reply;

	(void)arg;
	if (cl == NULL || rep == NULL || rep->type != REDIS_REPLY_ERROR)
		return;
	log_error("cluster: Redis %s:%d refused AUTH%s%s: %s", cl->host,
	    cl->port, cl->user[0] != '\0' ? " as " : "", cl->user, rep->str);
	if (ac == cl->ac || ac == cl->rd)
		cluster_redis_drop(cl, "AUTH refused");
}

/* AUTH first on a new connection, when there is a password: it is the
 * connection's first command, so every later one runs authenticated. */
static void
cluster_redis_auth(
    struct cluster *cl, redisAsyncContext *ac, redisCallbackFn *cb)
{
	if (cl->pass[0] == '\0')
		return;
	if (cl->user[0] != '\0')
		redisAsyncCommand(
		    ac, cb, NULL, "AUTH %s %s", cl->user, cl->pass);
	else
		redisAsyncCommand(ac, cb, NULL, "AUTH %s", cl->pass);
}

static void
cluster_redis_connected(const redisAsyncContext *ac, int status)
{
	struct cluster *cl = ac->data;

	if (cl == NULL)
		return;
	if (status != REDIS_OK) {
		if (!cl->told_down)
			log_warn("cluster: Redis %s:%d unreachable: %s",
			    cl->host, cl->port, ac->errstr);
		cl->told_down = 1;
		/* hiredis frees it */
		if (ac == cl->rd) {
			cl->rd = NULL;
			cl->read_ms = 0;
		} else if (ac == cl->ac) {
			cl->ac = NULL;
			cluster_redis_away(cl);
		}
		return;
	}
	if (ac == cl->rd) {
		cluster_stream_read(cl);
		return;
	}
	if (ac == cl->ac)
		log_info(
		    "cluster: connected to Redis %s:%d", cl->host, cl->port);
}

static void
cluster_redis_disconnected(const redisAsyncContext *ac, int status)
{
	struct cluster *cl = ac->data;

	if (cl == NULL)
		return;
	if (status != REDIS_OK && ac == cl->ac && !cl->told_down) {
		log_warn("cluster: lost Redis %s:%d: %s", cl->host, cl->port,
		    ac->errstr);
		cl->told_down = 1;
	}
	if (ac == cl->rd) {
		cl->rd = NULL;
		cl->read_ms = 0;
	} else if (ac == cl->ac) {
		cl->ac = NULL;
		cluster_redis_away(cl);
		cl->scanning = 0;
		cl->club_trying = 0;
	}
}

/* Connect (again) to the master: the commands' connection or the stream
 * reader's (*which); the callbacks say how it went. */
static void
cluster_redis_open(struct cluster *cl, redisAsyncContext **which)
{
	redisAsyncContext *ac = redisAsyncConnect(cl->host, cl->port);

	if (ac == NULL)
		fatal("out of memory");
	if (ac->err) {
		if (!cl->told_down)
			log_warn("cluster: Redis %s:%d: %s", cl->host, cl->port,
			    ac->errstr);
		cl->told_down = 1;
		redisAsyncFree(ac);
		return;
	}
	ac->data = cl;
	redisLibeventAttach(ac, cl->srv->base);
	redisAsyncSetConnectCallback(ac, cluster_redis_connected);
	redisAsyncSetDisconnectCallback(ac, cluster_redis_disconnected);
	*which = ac;
	cluster_redis_auth(cl, ac, cluster_redis_authed);
}

/* The sentinel asked is done with: closed, its callbacks inert. */
static void
cluster_redis_sentinel_done(struct cluster *cl)
{
	redisAsyncContext *sq = cl->sq;

	if (sq == NULL)
		return;
	cl->sq = NULL;
	sq->data = NULL;
	redisAsyncFree(sq);
}

/* A sentinel answered where the master is (an array of its host and
 * port), or could not: the next one is asked next time. */
static void
cluster_redis_told(redisAsyncContext *ac, void *reply, void *arg)
{
	struct cluster *cl = ac->data;
	redisReply *rep = reply;
	char host[CLUSTER_KEY];
	long port;

	(void)arg;
	if (cl == NULL || ac != cl->sq)
		return;
	if (rep != NULL && rep->type == REDIS_REPLY_ARRAY &&
	    rep->elements == 2 && rep->element[0]->type == REDIS_REPLY_STRING &&
	    rep->element[1]->type == REDIS_REPLY_STRING &&
	    rep->element[0]->len < sizeof host &&
	    (port = strtol(rep->element[1]->str, NULL, 10)) > 0 &&
	    port <= 65535) {
		snprintf(host, sizeof host, "%s", rep->element[0]->str);
		if (strcmp(host, cl->host) != 0 || port != cl->port ||
		    !cl->ever_up)
			log_info("cluster: Sentinel %s:%d says master %s is "
			         "%s:%ld",
			    cl->sentinel_host[cl->sentinel_next],
			    cl->sentinel_port[cl->sentinel_next], cl->master,
			    host, port);
		snprintf(cl->host, sizeof cl->host, "%s", host);
		cl->port = (int)port;
		cl->master_known = 1;
	} else {
		log_warn("cluster: Sentinel %s:%d: no master %s (%s)",
		    cl->sentinel_host[cl->sentinel_next],
		    cl->sentinel_port[cl->sentinel_next], cl->master,
		    rep == NULL                          ? "no answer"
		        : rep->type == REDIS_REPLY_ERROR ? rep->str
		                                         : "unknown");
		cl->sentinel_next = (cl->sentinel_next + 1) % cl->nsentinels;
	}
	cluster_redis_sentinel_done(cl);
	if (cl->master_known && cl->ac == NULL) {
		cluster_redis_open(cl, &cl->ac);
		if (cl->ac != NULL && cl->rd == NULL)
			cluster_redis_open(cl, &cl->rd);
	}
}

/* A sentinel's connection failed or went: the next is asked next time
 * (a connection made is answered by cluster_redis_told). */
static void
cluster_redis_sentinel_gone(const redisAsyncContext *ac, int status)
{
	struct cluster *cl = ac->data;

	if (cl == NULL || ac != cl->sq)
		return;
	if (status != REDIS_OK)
		log_warn("cluster: Sentinel %s:%d unreachable: %s",
		    cl->sentinel_host[cl->sentinel_next],
		    cl->sentinel_port[cl->sentinel_next], ac->errstr);
	cl->sq = NULL; /* hiredis frees it */
	cl->sentinel_next = (cl->sentinel_next + 1) % cl->nsentinels;
}

/* A sentinel's connection is made, or failed (then it is gone). */
static void
cluster_redis_sentinel_connected(const redisAsyncContext *ac, int status)
{
	if (status != REDIS_OK)
		cluster_redis_sentinel_gone(ac, status);
}

/* Ask the next sentinel where the master is. */
static void
cluster_redis_ask(struct cluster *cl)
{
	int i = cl->sentinel_next;
	redisAsyncContext *sq =
	    redisAsyncConnect(cl->sentinel_host[i], cl->sentinel_port[i]);

	if (sq == NULL)
		fatal("out of memory");
	if (sq->err) {
		log_warn("cluster: Sentinel %s:%d: %s", cl->sentinel_host[i],
		    cl->sentinel_port[i], sq->errstr);
		redisAsyncFree(sq);
		cl->sentinel_next = (i + 1) % cl->nsentinels;
		return;
	}
	sq->data = cl;
	redisLibeventAttach(sq, cl->srv->base);
	redisAsyncSetConnectCallback(sq, cluster_redis_sentinel_connected);
	redisAsyncSetDisconnectCallback(sq, cluster_redis_sentinel_gone);
	cl->sq = sq;
	cl->sq_ms = clock_mono_ms();
	/* A sentinel without a password refuses AUTH and answers anyway. */
	cluster_redis_auth(cl, sq, NULL);
	redisAsyncCommand(sq, cluster_redis_told, NULL,
	    "SENTINEL get-master-addr-by-name %s", cl->master);
}

void
cluster_redis_tick(struct cluster *cl)
{
	int64_t now = clock_mono_ms();

	if (cl->ac != NULL && cl->beat_ms != 0 &&
	    now - cl->beat_ms > CLUSTER_REDIS_TIMEOUT_MS) {
		cluster_redis_drop(cl, "no answer within the timeout");
	} else if (cl->rd != NULL && cl->read_ms != 0 &&
	    now - cl->read_ms > CLUSTER_REDIS_READ_MS) {
		redisAsyncContext *rd = cl->rd;

		cl->rd = NULL;
		cl->read_ms = 0;
		redisAsyncFree(rd);
	}
	if (cl->sq != NULL && now - cl->sq_ms > CLUSTER_REDIS_TIMEOUT_MS) {
		cluster_redis_sentinel_done(cl);
		cl->sentinel_next = (cl->sentinel_next + 1) % cl->nsentinels;
	}
	if (cl->ac == NULL) {
		if (cl->nsentinels > 0 && !cl->master_known) {
			if (cl->sq == NULL)
				cluster_redis_ask(cl);
			return;
		}
		cluster_redis_open(cl, &cl->ac);
	}
	if (cl->rd == NULL && cl->ac != NULL)
		cluster_redis_open(cl, &cl->rd);
}

/* The heartbeat answered: Redis is up (back, when it was away). */
static void
cluster_redis_beaten(redisAsyncContext *ac, void *reply, void *arg)
{
	struct cluster *cl = ac->data;
	redisReply *rep = reply;
	int64_t now = clock_mono_ms();

	(void)arg;
	if (cl == NULL || ac != cl->ac || rep == NULL)
		return;
	cl->beat_ms = 0;
	if (rep->type == REDIS_REPLY_ERROR) {
		/* READONLY: a failover made it a replica; NOAUTH, ... */
		log_warn("cluster: Redis %s:%d refused the heartbeat: %s",
		    cl->host, cl->port, rep->str);
		cl->told_down = 0;
		cluster_redis_drop(cl, "it refuses writes");
		return;
	}
	if (cl->up_ms == 0) {
		cl->up_ms = now;
		cl->told_down = 0;
		if (!cl->ever_up) {
			cl->ever_up = 1;
			log_info("cluster: ready node=%s", cl->node);
		} else {
			log_info("cluster: Redis %s:%d answers again after "
			         "%lld ms",
			    cl->host, cl->port,
			    (long long)(cl->down_ms != 0 ? now - cl->down_ms
			                                 : 0));
		}
		cluster_back(cl);
	}
	cluster_scan(cl);
}

void
cluster_redis_beat(struct cluster *cl, const char *key, const char *val)
{
	if (cl->ac == NULL)
		return;
	if (cl->beat_ms == 0)
		cl->beat_ms = clock_mono_ms();
	redisAsyncCommand(cl->ac, cluster_redis_beaten, NULL, "SET %s %s PX %d",
	    key, val, CLUSTER_NODE_TTL_MS);
}

void
cluster_redis_stop(struct cluster *cl)
{
	redisAsyncContext *all[3] = {cl->ac, cl->rd, cl->sq};
	int i;

	cl->ac = cl->rd = cl->sq = NULL;
	for (i = 0; i < 3; i++)
		if (all[i] != NULL) {
			all[i]->data = NULL;
			redisAsyncFree(all[i]);
		}
	sodium_memzero(cl->pass, sizeof cl->pass);
}
