/*
 * limit.c: what one source address or one identity may do across all of
 * its connections: token buckets for messages, failed logins and new
 * identities, the count of an address's open connections, a table of
 * these keyed by address (IPv6 by its /64) or by case-folded name, swept
 * when idle, and a rate-limited log for what abusers do. In a cluster an
 * address's or a name's entry also holds what the other nodes last
 * reported it used (cluster_limit.c), which its checks count as used.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <netinet/in.h>
#include <sys/socket.h>

#include <event2/util.h>

#include "server/net/net.h"
#include "server/net/limit.h"

/* Abuse log lines per second, and in a burst: enough to see an attack
 * begin, too few for an attacker to fill the disk. */
#define LIMIT_LOG_PER_SEC 5
#define LIMIT_LOG_BURST 20
/* A name gets this many times an address's failed logins: one address
 * alone can never lock a name's owner out. */
#define LIMIT_NAME_FAILS_FACTOR 5
/* Sweeps a pass over the whole table takes: an entry at rest is
 * forgotten within 8 s, and one sweep walks an eighth of the entries (a
 * pause of 0.3 ms at 20,000 entries instead of 2). */
#define LIMIT_SWEEP_PARTS 8
/* A guest's reads of the store in a burst, as seconds of its rate
 * (--guest-reads): a page or two of each list a person looks at, but not
 * a script's loop. */
#define LIMIT_READS_BURST 5
/* Chains of the table at first: the table doubles as entries come. */
#define LIMIT_FIRST_CHAINS 4096

/* An address's message rate per ms and burst; a name's (or a
 * stand-in's) otherwise. */
static double
limit_msgs_rate(const struct server *srv, const struct limit_entry *e)
{
	return (e->key[0] == 'a' ? srv->cfg.addr_rate : srv->cfg.rate) / 1000.0;
}

static double
limit_msgs_cap(const struct server *srv, const struct limit_entry *e)
{
	return e->key[0] == 'a' ? srv->cfg.addr_burst : srv->cfg.burst;
}

/* The other nodes' use of e brought up to now: forgotten when older than
 * the last reports read, else drained at the address's rates. */
static void
limit_remote_drain(struct server *srv, struct limit_entry *e, int64_t now)
{
	double fcap = limit_fails_cap(srv, e);

	if (e->remote_gen != srv->limit_gen) {
		e->remote_gen = srv->limit_gen;
		e->remote_conns = 0;
		e->remote_msgs = e->remote_fails = 0;
		e->remote_at = now;
		return;
	}
	if (now <= e->remote_at)
		return;
	e->remote_msgs -=
	    (double)(now - e->remote_at) * limit_msgs_rate(srv, e);
	e->remote_fails -= (double)(now - e->remote_at) * fcap / 60000.0;
	if (e->remote_msgs < 0)
		e->remote_msgs = 0;
	if (e->remote_fails < 0)
		e->remote_fails = 0;
	e->remote_at = now;
}

/* The connections the other nodes last reported from e's address. */
int
limit_remote_conns(const struct server *srv, const struct limit_entry *e)
{
	return e->remote_gen == srv->limit_gen ? e->remote_conns : 0;
}

/* Add one node's report of e's use (cluster_limit.c); the reports read
 * before (srv->limit_gen was raised since) are forgotten first. */
void
limit_remote_add(struct server *srv, struct limit_entry *e, int conns,
    double msgs, double fails, int64_t now)
{
	limit_remote_drain(srv, e, now);
	e->remote_conns += conns;
	e->remote_msgs += msgs;
	e->remote_fails += fails;
}

/* Messages this node took from e's bucket that have not refilled yet. */
double
limit_used_msgs(struct server *srv, struct limit_entry *e, int64_t now)
{
	double cap = limit_msgs_cap(srv, e);

	if (!e->msgs.used)
		return 0;
	bucket_refill(&e->msgs, limit_msgs_rate(srv, e), cap, now);
	return cap - e->msgs.tokens;
}

/* Failed logins this node counted against e that have not refilled. */
double
limit_used_fails(struct server *srv, struct limit_entry *e, int64_t now)
{
	double cap = limit_fails_cap(srv, e);

	if (!e->fails.used)
		return 0;
	bucket_refill(&e->fails, cap / 60000.0, cap, now);
	return cap - e->fails.tokens;
}

/* May address a send one more message now: a whole token left in its
 * bucket once the other nodes' use is counted too? Takes none. */
int
limit_addr_msgs_has(struct server *srv, struct limit_entry *a, int64_t now)
{
	if (bucket_has(&a->msgs, limit_msgs_rate(srv, a),
	        limit_msgs_cap(srv, a), now)) {
		limit_remote_drain(srv, a, now);
		if (a->msgs.tokens - a->remote_msgs >= 1.0)
			return 1;
	}
	net_stats()->refused[NET_REFUSED_ADDR_RATE]++;
	return 0;
}

/* The entry for key, made (full buckets) when missing; NULL when the
 * table is full. */
struct limit_entry *
limit_get(struct server *srv, const char *key)
{
	struct table_link *l = table_find(&srv->limits, key);
	struct limit_entry *e;

	if (l != NULL)
		return TABLE_ITEM(l, struct limit_entry, link);
	if (srv->limits.n >= SERVER_LIMIT_ENTRIES)
		return NULL;
	if (srv->limits.nchains == 0)
		table_init(&srv->limits, LIMIT_FIRST_CHAINS);
	e = xcalloc(1, sizeof *e);
	snprintf(e->key, sizeof e->key, "%s", key);
	table_add(&srv->limits, &e->link, e->key);
	return e;
}

/* The entry of a case-folded name ("n:" and the name in lower case). */
struct limit_entry *
limit_name(struct server *srv, const char *name)
{
	char key[SERVER_LIMIT_KEY];
	size_t i;

	snprintf(key, sizeof key, "n:%s", name);
	for (i = 2; key[i] != '\0'; i++)
		key[i] = (char)tolower((unsigned char)key[i]);
	return limit_get(srv, key);
}

/* An address's key: "a:" and the IPv4 address, or an IPv6 address's /64
 * (one subscriber usually holds a whole /64); "" for other families. */
void
limit_addr_key(const struct sockaddr *sa, char *key, size_t len)
{
	char host[64] = "";

	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const void *)sa;

		evutil_inet_ntop(AF_INET, &in->sin_addr, host, sizeof host);
	} else if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const void *)sa;
		struct in6_addr a = in6->sin6_addr;

		if (IN6_IS_ADDR_V4MAPPED(&a)) {
			evutil_inet_ntop(
			    AF_INET, &a.s6_addr[12], host, sizeof host);
		} else {
			memset(&a.s6_addr[8], 0, 8);
			evutil_inet_ntop(AF_INET6, &a, host, sizeof host);
		}
	}
	snprintf(key, len, "a:%s", host);
}

/* Is the entry at rest: nobody holds it and every bucket is full? */
static int
limit_idle(struct server *srv, struct limit_entry *e, int64_t now)
{
	const struct config *cfg = &srv->cfg;

	if (e->refs > 0)
		return 0;
	limit_remote_drain(srv, e, now);
	if (e->remote_conns > 0 || e->remote_msgs > 0 || e->remote_fails > 0)
		return 0;
	if (e->msgs.used) {
		int addr = e->key[0] == 'a';
		double cap = addr ? cfg->addr_burst : cfg->burst;

		bucket_refill(&e->msgs,
		    (addr ? cfg->addr_rate : cfg->rate) / 1000.0, cap, now);
		if (e->msgs.tokens < cap)
			return 0;
	}
	if (e->fails.used) {
		double cap = limit_fails_cap(srv, e);

		bucket_refill(&e->fails, cap / 60000.0, cap, now);
		if (e->fails.tokens < cap)
			return 0;
	}
	if (e->names.used) {
		double cap = cfg->new_names;

		bucket_refill(&e->names, cap / 3600000.0, cap, now);
		if (e->names.tokens < cap)
			return 0;
	}
	if (e->games.used) {
		double cap = limit_games_cap(srv, e);

		bucket_refill(&e->games, cap / 3600000.0, cap, now);
		if (e->games.tokens < cap)
			return 0;
	}
	if (e->reads.used) {
		double cap = (double)cfg->guest_reads * LIMIT_READS_BURST;

		bucket_refill(&e->reads, cfg->guest_reads / 1000.0, cap, now);
		if (e->reads.tokens < cap)
			return 0;
	}
	return 1;
}

/* What limit_sweep_one needs: the server and the time of the sweep. */
struct limit_sweep_arg {
	struct server *srv;
	int64_t now;
};

/* Forget one entry if it is at rest (limit_sweep's visit). */
static void
limit_sweep_one(struct table_link *l, void *arg)
{
	struct limit_sweep_arg *a = arg;
	struct limit_entry *e = TABLE_ITEM(l, struct limit_entry, link);

	if (!limit_idle(a->srv, e, a->now))
		return;
	table_del(&a->srv->limits, l);
	free(e);
}

/* Forget the entries at rest (they would be made again just as they
 * were): called every second or so, it visits 1 / LIMIT_SWEEP_PARTS of
 * the table's chains from where the last call stopped, so the pause
 * stays short however many entries there are. */
void
limit_sweep(struct server *srv)
{
	struct limit_sweep_arg a = {srv, clock_mono_ms()};
	size_t chains = srv->limits.nchains / LIMIT_SWEEP_PARTS;

	table_sweep(&srv->limits, chains > 0 ? chains : 1, limit_sweep_one, &a);
}

/* Free one entry (limit_free_all's walk). */
static void
limit_free_one(struct table_link *l, void *arg)
{
	free(TABLE_ITEM(l, struct limit_entry, link));
}

void
limit_free_all(struct server *srv)
{
	table_walk(&srv->limits, limit_free_one, NULL);
	table_free(&srv->limits);
}

/* Failed logins an entry may have in a minute (a name more than an
 * address). */
double
limit_fails_cap(const struct server *srv, const struct limit_entry *e)
{
	double n = srv->cfg.login_fails;

	return e->key[0] == 'n' ? n * LIMIT_NAME_FAILS_FACTOR : n;
}

/* May this entry fail one more login now (the failures other nodes
 * reported for it counted too)? Without taking; else *wait_ms: until the
 * whole budget has a login left. */
int
limit_fails_ok(struct server *srv, struct limit_entry *e, int64_t *wait_ms)
{
	double cap, left;
	int64_t now;

	if (e == NULL)
		return 1;
	cap = limit_fails_cap(srv, e);
	now = clock_mono_ms();
	limit_remote_drain(srv, e, now);
	bucket_has(&e->fails, cap / 60000.0, cap, now); /* refilled */
	left = e->fails.tokens - e->remote_fails;
	if (left >= 1.0)
		return 1;
	*wait_ms = (int64_t)((1.0 - left) / (cap / 60000.0)) + 1;
	net_stats()->refused[NET_REFUSED_LOGIN_FAILS]++;
	return 0;
}

/* One failed login counted against the entry. */
void
limit_fails_take(struct server *srv, struct limit_entry *e)
{
	double cap;

	if (e == NULL)
		return;
	cap = limit_fails_cap(srv, e);
	bucket_has(&e->fails, cap / 60000.0, cap, clock_mono_ms());
	if (e->fails.tokens >= 1.0)
		e->fails.tokens -= 1.0;
	else
		e->fails.tokens = 0;
}

/* May this address make one more identity this hour? Takes one if so. */
int
limit_names_take(struct server *srv, struct limit_entry *e, int64_t *wait_ms)
{
	double cap = srv->cfg.new_names, per_ms = cap / 3600000.0;

	if (e == NULL)
		return 1;
	if (!bucket_has(&e->names, per_ms, cap, clock_mono_ms())) {
		*wait_ms = bucket_wait_ms(&e->names, per_ms);
		net_stats()->refused[NET_REFUSED_NEW_NAMES]++;
		return 0;
	}
	e->names.tokens -= 1.0;
	return 1;
}

/* May guests at this address read the store once more now (history,
 * `rooms ended`, a finished room no longer in memory)? Takes one if so;
 * else *wait_ms: until one is left. */
int
limit_reads_take(struct server *srv, struct limit_entry *e, int64_t *wait_ms)
{
	double per_ms = srv->cfg.guest_reads / 1000.0,
	       cap = (double)srv->cfg.guest_reads * LIMIT_READS_BURST;

	if (e == NULL)
		return 1;
	if (!bucket_has(&e->reads, per_ms, cap, clock_mono_ms())) {
		*wait_ms = bucket_wait_ms(&e->reads, per_ms);
		return 0;
	}
	e->reads.tokens -= 1.0;
	return 1;
}

/*
 * A warning about what a client did, at most LIMIT_LOG_PER_SEC a second:
 * the rest are counted, and the count is logged with the next line let
 * through.  Client bytes must be sanitised by the caller.
 */
void
limit_log(struct server *srv, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	if (!bucket_has(&srv->log_bucket, LIMIT_LOG_PER_SEC / 1000.0,
	        LIMIT_LOG_BURST, clock_mono_ms())) {
		srv->log_suppressed++;
		return;
	}
	srv->log_bucket.tokens -= 1.0;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (srv->log_suppressed > 0) {
		log_warn("%s (and %ld more such lines not logged)", line,
		    srv->log_suppressed);
		srv->log_suppressed = 0;
		return;
	}
	log_warn("%s", line);
}

/* Finished games an entry may have kept in an hour (an address
 * SERVER_ADDR_RATE_FACTOR times a name's). */
double
limit_games_cap(const struct server *srv, const struct limit_entry *e)
{
	double n = srv->cfg.games_per_hour;

	return e->key[0] == 'a' ? n * SERVER_ADDR_RATE_FACTOR : n;
}

/* May an identity start a game: do its name and (when given) its
 * address each have a kept game left this hour? Takes nothing (a game
 * counts once kept). When not, why in words, with when to try again. */
int
limit_games_ok(struct server *srv, const char *name, struct limit_entry *addr,
    char *why, size_t len)
{
	struct limit_entry *e[2] = {limit_name(srv, name), addr};
	int64_t now = clock_mono_ms();
	int i;

	for (i = 0; i < 2; i++) {
		double cap, per_ms;
		long long wait_min;

		if (e[i] == NULL)
			continue;
		cap = limit_games_cap(srv, e[i]);
		per_ms = cap / 3600000.0;
		if (bucket_has(&e[i]->games, per_ms, cap, now))
			continue;
		wait_min =
		    (long long)(bucket_wait_ms(&e[i]->games, per_ms) + 59999) /
		    60000;
		if (i == 0)
			proto_errf(why, len,
			    "you have %d finished games kept this hour; try "
			    "again in %lld min",
			    (int)cap, wait_min);
		else
			proto_errf(why, len,
			    "your address has %d finished games kept this "
			    "hour; try again in %lld min",
			    (int)cap, wait_min);
		net_stats()->refused[NET_REFUSED_GAMES]++;
		return 0;
	}
	return 1;
}

/* One kept game counted against a name and (when given) an address. */
void
limit_games_take(struct server *srv, const char *name, struct limit_entry *addr)
{
	struct limit_entry *e[2] = {limit_name(srv, name), addr};
	int64_t now = clock_mono_ms();
	int i;

	for (i = 0; i < 2; i++) {
		double cap;

		if (e[i] == NULL)
			continue;
		cap = limit_games_cap(srv, e[i]);
		bucket_has(&e[i]->games, cap / 3600000.0, cap, now);
		e[i]->games.tokens =
		    e[i]->games.tokens >= 1.0 ? e[i]->games.tokens - 1.0 : 0;
	}
}

/* limit_games_ok for identity name on c and c's address; -1 after refusing
 * req with limit_reached when either has no kept game left this hour. */
int
limit_games_check(
    struct conn *c, const char *name, const struct proto_request *req)
{
	char why[128];

	if (limit_games_ok(c->srv, name, c->lim_addr, why, sizeof why))
		return 0;
	conn_error(c, req, PROTO_E_LIMIT_REACHED, "%s", why);
	return -1;
}
