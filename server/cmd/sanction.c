/*
 * sanction.c: the operators' sanctions in force: identities banned,
 * addresses and networks banned, players muted (until a time or until
 * lifted), with the operators named by --admin. They live in memory,
 * bounded by SERVER_SANCTIONS_MAX and checked with one short scan (at a
 * connection's start, at hello, at each chat, tell or invite); each
 * change is a row op of the store's table sanctions, in the change of
 * the verb that makes it, and every operator's act is logged and stored
 * in admin_log (schema.c). They are read back at start, before the
 * server listens. The verbs are cmd_moderate.c's.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "server/cmd/cmd.h"
#include "server/store/storeq.h"
#include "server/store/store.h"

/* The stored kinds, by enum sanction_kind. */
static const char *const sanction_kinds[] = {[SANCTION_BAN] = "ban",
    [SANCTION_BANADDR] = "banaddr",
    [SANCTION_MUTE] = "mute"};

struct sanctions {
	struct sanction *v;
	int n, cap;
	int64_t last_log_ms; /* admin_log's last at_ms: each act gets a later
	                        one, so two acts in one millisecond keep their
	                        order and neither overwrites the other (the
	                        table's key starts with at_ms) */
};

#define SANCTION_PUT                                                           \
	"INSERT INTO sanctions (kind, target, until_ms, admin, made_ms)"       \
	" VALUES ($1, $2, $3, $4, $5) ON CONFLICT (kind, target) DO UPDATE"    \
	" SET until_ms = excluded.until_ms, admin = excluded.admin,"           \
	" made_ms = excluded.made_ms"
#define SANCTION_DELETE "DELETE FROM sanctions WHERE kind = $1 AND target = $2"
#define SANCTION_READ                                                          \
	"SELECT kind, target, until_ms, admin, made_ms FROM sanctions"         \
	" ORDER BY made_ms, kind, target"
/* An identity's ban and mute (targets are spelled as registered). */
#define SANCTION_ONE_NAME                                                      \
	"SELECT kind, target, until_ms, admin, made_ms FROM sanctions"         \
	" WHERE kind IN ('ban', 'mute') AND lower(target) = lower($1)"
/* Mutes that ran out while the server was down. */
#define SANCTION_EXPIRED                                                       \
	"DELETE FROM sanctions WHERE kind = 'mute' AND until_ms > 0"           \
	" AND until_ms <= $1"
/* An act, once however often its group is tried (keyed by its time,
 * operator, act and target). */
#define SANCTION_LOG                                                           \
	"INSERT INTO admin_log (at_ms, admin, act, target, detail)"            \
	" VALUES ($1, $2, $3, $4, $5) ON CONFLICT (at_ms, admin, act, target)" \
	" DO NOTHING"

/* 1 when name is one of --admin's, whatever its case. */
int
sanction_is_admin(const struct server *srv, const char *name)
{
	int i;

	for (i = 0; name != NULL && i < srv->cfg.nadmin; i++)
		if (strcasecmp(srv->cfg.admin[i], name) == 0)
			return 1;
	return 0;
}

/* Parse "ADDR[/BITS]" (IPv4 or IPv6; an IPv4-mapped IPv6 network is
 * read as IPv4) into s, the host bits cleared, and write it back as the
 * server spells it into s->target. 0, or -1 when it is not one. */
int
sanction_parse_net(const char *text, struct sanction *s)
{
	char host[INET6_ADDRSTRLEN + 8];
	const char *slash = strchr(text, '/');
	size_t hl = slash != NULL ? (size_t)(slash - text) : strlen(text);
	static const unsigned char mapped[12] = {
	    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
	char *end;
	long bits;
	int i, max;

	if (hl == 0 || hl >= sizeof host)
		return -1;
	memcpy(host, text, hl);
	host[hl] = '\0';
	memset(s->addr, 0, sizeof s->addr);
	if (inet_pton(AF_INET, host, s->addr) == 1)
		s->family = AF_INET, max = 32;
	else if (inet_pton(AF_INET6, host, s->addr) == 1)
		s->family = AF_INET6, max = 128;
	else
		return -1;
	bits = max;
	if (slash != NULL) {
		bits = strtol(slash + 1, &end, 10);
		if (slash[1] < '0' || slash[1] > '9' || *end != '\0' ||
		    bits < 0 || bits > max)
			return -1;
	}
	if (s->family == AF_INET6 && bits >= 96 &&
	    memcmp(s->addr, mapped, sizeof mapped) == 0) {
		memmove(s->addr, s->addr + 12, 4);
		memset(s->addr + 4, 0, 12);
		s->family = AF_INET;
		bits -= 96;
	}
	s->bits = (int)bits;
	max = s->family == AF_INET ? 4 : 16;
	for (i = 0; i < max; i++) {
		int keep = s->bits - i * 8;

		if (keep <= 0)
			s->addr[i] = 0;
		else if (keep < 8)
			s->addr[i] &= (unsigned char)(0xff << (8 - keep));
	}
	if (inet_ntop(s->family, s->addr, host, sizeof host) == NULL)
		return -1;
	snprintf(s->target, sizeof s->target, "%s/%d", host, s->bits);
	return 0;
}

/* Does the address of a connection ("HOST:PORT", as net.c writes it)
 * lie in the network s? */
int
sanction_net_covers(const struct sanction *s, const char *addr)
{
	struct sanction a;
	char host[INET6_ADDRSTRLEN + 8];
	const char *colon = strrchr(addr, ':');
	size_t hl = colon != NULL ? (size_t)(colon - addr) : strlen(addr);
	int full, rest;

	if (hl == 0 || hl >= sizeof host)
		return 0;
	memcpy(host, addr, hl);
	host[hl] = '\0';
	if (sanction_parse_net(host, &a) != 0 || a.family != s->family)
		return 0;
	full = s->bits / 8;
	rest = s->bits % 8;
	if (memcmp(a.addr, s->addr, (size_t)full) != 0)
		return 0;
	return rest == 0 ||
	    ((a.addr[full] ^ s->addr[full]) & (0xff << (8 - rest))) == 0;
}

/* The sanction of kind on target (a name whatever its case, or an
 * address as written by sanction_parse_net), or NULL. A mute that has
 * run out is let go on the way. */
struct sanction *
sanction_find(struct server *srv, enum sanction_kind kind, const char *target)
{
	struct sanctions *all = srv->sanctions;
	int64_t now = clock_now_ms();
	int i;

	for (i = 0; all != NULL && i < all->n; i++) {
		struct sanction *s = &all->v[i];

		if (s->kind != kind || strcasecmp(s->target, target) != 0)
			continue;
		if (s->until_ms != 0 && s->until_ms <= now) {
			all->v[i] = all->v[--all->n];
			return NULL;
		}
		return s;
	}
	return NULL;
}

/* 1 when a connection from addr ("HOST:PORT") is banned. */
int
sanction_addr_banned(const struct server *srv, const char *addr)
{
	const struct sanctions *all = srv->sanctions;
	int i;

	for (i = 0; all != NULL && i < all->n; i++)
		if (all->v[i].kind == SANCTION_BANADDR &&
		    sanction_net_covers(&all->v[i], addr))
			return 1;
	return 0;
}

/* One row of SANCTION_ONE_NAME into memory (a cluster's hello). */
static int
sanction_name_row(void *arg, const char *const *v)
{
	struct server *srv = arg;
	struct sanction s;

	memset(&s, 0, sizeof s);
	if (v[0] == NULL || v[1] == NULL || v[2] == NULL || v[3] == NULL ||
	    v[4] == NULL || !player_name_valid(v[1]))
		return 0;
	s.kind = strcmp(v[0], "mute") == 0 ? SANCTION_MUTE : SANCTION_BAN;
	snprintf(s.target, sizeof s.target, "%s", v[1]);
	s.until_ms = strtoll(v[2], NULL, 10);
	snprintf(s.admin, sizeof s.admin, "%s", v[3]);
	s.made_ms = strtoll(v[4], NULL, 10);
	if ((s.until_ms == 0 || s.until_ms > clock_now_ms()) &&
	    srv->sanctions->n < SERVER_SANCTIONS_MAX) {
		srv->sanctions->v = xgrow(srv->sanctions->v, srv->sanctions->n,
		    &srv->sanctions->cap, 16, sizeof *srv->sanctions->v);
		srv->sanctions->v[srv->sanctions->n++] = s;
	}
	return 0;
}

/* 1 when the identity name is banned. On a cluster, where another node
 * may have banned or muted it since this one started, its stored
 * sanctions are read first (each login's one read), so they hold on
 * every node from the player's next login. */
int
sanction_name_banned(struct server *srv, const char *name)
{
	const char *v[1] = {name};
	struct sanctions *all = srv->sanctions;
	int i;

	if (srv->cluster_ops == NULL)
		return sanction_find(srv, SANCTION_BAN, name) != NULL;
	/* The store is the truth here: an unban elsewhere counts too. */
	for (i = all->n - 1; i >= 0; i--)
		if (all->v[i].kind != SANCTION_BANADDR &&
		    strcasecmp(all->v[i].target, name) == 0)
			all->v[i] = all->v[--all->n];
	if (store_rows(srv->reader, SANCTION_ONE_NAME, 1, v, 5,
	        sanction_name_row, srv) != 0)
		log_error("store: reading %s's sanctions: %s", name,
		    store_errmsg(srv->reader));
	return sanction_find(srv, SANCTION_BAN, name) != NULL;
}

/* 1 after refusing req with muted when c's player is muted. */
int
sanction_muted(struct conn *c, const struct proto_request *req)
{
	const struct sanction *s =
	    sanction_find(c->srv, SANCTION_MUTE, c->player->name);
	int64_t left;

	if (s == NULL)
		return 0;
	if (s->until_ms == 0) {
		conn_error(c, req, PROTO_E_MUTED,
		    "an operator muted you until further notice: you cannot "
		    "chat, tell or invite");
		return 1;
	}
	left = (s->until_ms - clock_now_ms() + 59999) / 60000;
	conn_error(c, req, PROTO_E_MUTED,
	    "an operator muted you for %lld more minute%s: you cannot chat, "
	    "tell or invite until then",
	    (long long)left, left == 1 ? "" : "s");
	return 1;
}

/* Queue s's row. */
static void
sanction_put_row(struct server *srv, const struct sanction *s)
{
	char until[24], made[24];
	const char *v[5] = {
	    sanction_kinds[s->kind], s->target, until, s->admin, made};

	snprintf(until, sizeof until, "%lld", (long long)s->until_ms);
	snprintf(made, sizeof made, "%lld", (long long)s->made_ms);
	storeq_row(srv->storeq, "sanctions", SANCTION_PUT, 5, v);
}

/* Put s in force in memory only (replacing one of its kind and target):
 * another node of a cluster stored it. 0, or -1 when
 * SERVER_SANCTIONS_MAX are in force. */
int
sanction_hold(struct server *srv, const struct sanction *s)
{
	struct sanctions *all = srv->sanctions;
	struct sanction *old = sanction_find(srv, s->kind, s->target);

	if (old != NULL) {
		*old = *s;
		return 0;
	}
	if (all->n >= SERVER_SANCTIONS_MAX)
		return -1;
	all->v = xgrow(all->v, all->n, &all->cap, 16, sizeof *all->v);
	all->v[all->n++] = *s;
	return 0;
}

/* Put s in force (replacing one of its kind and target), in memory and
 * as a row op. 0, or -1 when SERVER_SANCTIONS_MAX are in force. */
int
sanction_add(struct server *srv, const struct sanction *s)
{
	if (sanction_hold(srv, s) != 0)
		return -1;
	sanction_put_row(srv, s);
	return 0;
}

/* Lift the sanction of kind on target in memory only (another node of a
 * cluster lifted it in the store). */
void
sanction_drop(struct server *srv, enum sanction_kind kind, const char *target)
{
	struct sanctions *all = srv->sanctions;
	struct sanction *s = sanction_find(srv, kind, target);

	if (s != NULL)
		*s = all->v[--all->n];
}

/* Lift the sanction of kind on target: in memory and as a row op, its
 * target as it was written into shown (sizeof s->target). 0, or -1
 * when none is in force. */
int
sanction_del(struct server *srv, enum sanction_kind kind, const char *target,
    char *shown)
{
	struct sanctions *all = srv->sanctions;
	struct sanction *s = sanction_find(srv, kind, target);
	const char *v[2];

	if (s == NULL)
		return -1;
	memcpy(shown, s->target, sizeof s->target);
	v[0] = sanction_kinds[kind];
	v[1] = shown;
	storeq_row(srv->storeq, "sanctions", SANCTION_DELETE, 2, v);
	*s = all->v[--all->n];
	return 0;
}

/* The sanctions in force as bans' reply lists them: bans (identities
 * and addresses) and mutes, oldest first. */
void
sanction_json(struct server *srv, cJSON *bans, cJSON *mutes)
{
	struct sanctions *all = srv->sanctions;
	int64_t now = clock_now_ms();
	int i;

	for (i = 0; all != NULL && i < all->n; i++) {
		const struct sanction *s = &all->v[i];
		cJSON *o;

		if (s->until_ms != 0 && s->until_ms <= now)
			continue;
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o,
		    s->kind == SANCTION_BANADDR ? "address" : "name",
		    s->target);
		cJSON_AddStringToObject(o, "by", s->admin);
		cJSON_AddNumberToObject(o, "since", (double)s->made_ms);
		if (s->until_ms != 0)
			cJSON_AddNumberToObject(
			    o, "until", (double)s->until_ms);
		cJSON_AddItemToArray(
		    s->kind == SANCTION_MUTE ? mutes : bans, o);
	}
}

/* An operator's act: a log line (client text sanitized) and a row of
 * admin_log in the change being made, at a millisecond after the last
 * act's. */
void
sanction_log(struct server *srv, const char *admin, const char *act,
    const char *target, const char *detail)
{
	char at[24], safe[LOG_CLIENT_BYTES * 4 + 8];
	const char *v[5] = {at, admin, act, target, detail};
	struct sanctions *all = srv->sanctions;
	int64_t now = clock_now_ms();

	all->last_log_ms = now > all->last_log_ms ? now : all->last_log_ms + 1;
	snprintf(at, sizeof at, "%lld", (long long)all->last_log_ms);
	storeq_row(srv->storeq, "admin_log", SANCTION_LOG, 5, v);
	log_warn("operator %s: %s %s%s%s", admin, act, target,
	    detail[0] != '\0' ? ": " : "",
	    log_sanitize(detail, strlen(detail), safe, sizeof safe));
}

/* One stored row back into memory; a row that cannot be read is
 * logged and left. */
static int
sanction_load_row(void *arg, const char *const *v)
{
	struct server *srv = arg;
	struct sanctions *all = srv->sanctions;
	struct sanction s;
	int kind;

	memset(&s, 0, sizeof s);
	for (kind = 0; kind <= SANCTION_MUTE; kind++)
		if (v[0] != NULL && strcmp(v[0], sanction_kinds[kind]) == 0)
			break;
	if (kind > SANCTION_MUTE || v[1] == NULL || v[2] == NULL ||
	    v[3] == NULL || v[4] == NULL || strlen(v[1]) >= sizeof s.target ||
	    (kind == SANCTION_BANADDR ? sanction_parse_net(v[1], &s) != 0
	                              : !player_name_valid(v[1]))) {
		log_error("sanctions: a stored row cannot be read (%s %s); "
		          "left out",
		    v[0] != NULL ? v[0] : "?", v[1] != NULL ? v[1] : "?");
		return 0;
	}
	if (all->n >= SERVER_SANCTIONS_MAX)
		return 0;
	s.kind = (enum sanction_kind)kind;
	snprintf(s.target, sizeof s.target, "%s", v[1]);
	s.until_ms = strtoll(v[2], NULL, 10);
	snprintf(s.admin, sizeof s.admin, "%s", v[3]);
	s.made_ms = strtoll(v[4], NULL, 10);
	if (s.until_ms != 0 && s.until_ms <= clock_now_ms())
		return 0;
	all->v = xgrow(all->v, all->n, &all->cap, 16, sizeof *all->v);
	all->v[all->n++] = s;
	return 0;
}

/* Say which of --admin's names nobody registered yet (the first hello
 * of that name will own it) and read the sanctions in force; mutes run
 * out while the server was down are deleted. 0, or -1 (logged) when
 * the server must not start. */
int
sanction_load(struct server *srv)
{
	struct store_identity id;
	char now[24];
	const char *v[1] = {now};
	int i, found;

	for (i = 0; i < srv->cfg.nadmin; i++) {
		found = 0;
		if (store_identity_find(
		        srv->reader, srv->cfg.admin[i], &id, &found) == 0 &&
		    !found)
			log_warn("--admin %s: nobody is registered under that "
			         "name yet: the first hello as %s owns it, and "
			         "is an operator",
			    srv->cfg.admin[i], srv->cfg.admin[i]);
	}
	srv->sanctions = xcalloc(1, sizeof *srv->sanctions);
	if (store_rows(srv->reader, SANCTION_READ, 0, NULL, 5,
	        sanction_load_row, srv) != 0) {
		log_error(
		    "store: reading sanctions: %s", store_errmsg(srv->reader));
		return -1;
	}
	snprintf(now, sizeof now, "%lld", (long long)clock_now_ms());
	storeq_row(srv->storeq, "sanctions", SANCTION_EXPIRED, 1, v);
	if (srv->sanctions->n > 0)
		log_info(
		    "sanctions: %d bans and mutes in force", srv->sanctions->n);
	return 0;
}

void
sanction_free_all(struct server *srv)
{
	if (srv->sanctions == NULL)
		return;
	free(srv->sanctions->v);
	free(srv->sanctions);
	srv->sanctions = NULL;
}
