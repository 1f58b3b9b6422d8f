/*
 * limit.h: what each address and identity did lately (limit.c): the
 * budgets of messages, failed logins, new names and kept games, across
 * connections and, in a cluster, across nodes.
 */
#ifndef TABLERO_SERVER_NET_LIMIT_H
#define TABLERO_SERVER_NET_LIMIT_H

#include "server/server.h"

/* What one address ("a:...") or one case-folded name ("n:...") did
 * lately, across its connections. */
struct limit_entry {
	struct table_link link; /* in srv->limits, by key */
	char key[SERVER_LIMIT_KEY];
	int refs;            /* connections holding it */
	struct bucket msgs;  /* messages */
	struct bucket fails; /* failed logins */
	struct bucket names; /* new identities (addresses) */
	struct bucket games; /* finished games kept */
	struct bucket reads; /* a guest's reads of the store (addresses) */
	/* An address's use on the other nodes of a cluster as last read
	 * (cluster_limit.c): current while remote_gen is srv->limit_gen;
	 * messages and failed logins drain from remote_at on, as a bucket
	 * refills. */
	unsigned remote_gen;
	int remote_conns;
	double remote_msgs, remote_fails;
	int64_t remote_at;
};

/* limit.c */
struct sockaddr;
struct limit_entry *limit_get(struct server *srv, const char *key);
struct limit_entry *limit_name(struct server *srv, const char *name);
void limit_addr_key(const struct sockaddr *sa, char *key, size_t len);
void limit_sweep(struct server *srv);
void limit_free_all(struct server *srv);
double limit_fails_cap(const struct server *srv, const struct limit_entry *e);
int limit_fails_ok(struct server *srv, struct limit_entry *e, int64_t *wait_ms);
void limit_fails_take(struct server *srv, struct limit_entry *e);
double limit_games_cap(const struct server *srv, const struct limit_entry *e);
int limit_games_ok(struct server *srv, const char *name,
    struct limit_entry *addr, char *why, size_t len);
void limit_games_take(
    struct server *srv, const char *name, struct limit_entry *addr);
int limit_games_check(
    struct conn *c, const char *name, const struct proto_request *req);
int limit_names_take(
    struct server *srv, struct limit_entry *e, int64_t *wait_ms);
int limit_reads_take(
    struct server *srv, struct limit_entry *e, int64_t *wait_ms);
int limit_addr_msgs_has(struct server *srv, struct limit_entry *a, int64_t now);
int limit_remote_conns(const struct server *srv, const struct limit_entry *e);
double limit_used_msgs(struct server *srv, struct limit_entry *e, int64_t now);
double limit_used_fails(struct server *srv, struct limit_entry *e, int64_t now);
void limit_remote_add(struct server *srv, struct limit_entry *e, int conns,
    double msgs, double fails, int64_t now);
void limit_log(struct server *srv, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
