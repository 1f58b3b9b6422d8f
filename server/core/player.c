/*
 * player.c: identities: players by name, names, tokens checked against
 * the store, and taking over from an old connection.
 * Tokens are random and only their hash is kept (libsodium).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <sodium.h>

#include "server/core/core.h"
#include "server/net/limit.h"
#include "server/store/storeq.h"
#include "server/store/store.h"

_Static_assert(PLAYER_HASH_HEX == crypto_generichash_BYTES * 2 + 1,
    "a token's hash is BLAKE2b-256 as hex");

struct player *
player_find(struct server *srv, const char *name)
{
	struct table_link *l = table_find(&srv->players, name);

	return l == NULL ? NULL : TABLE_ITEM(l, struct player, link);
}

/* The player of that name, made when first seen. */
struct player *
player_get(struct server *srv, const char *name)
{
	struct player *p = player_find(srv, name);

	if (p != NULL)
		return p;
	p = xcalloc(1, sizeof *p);
	snprintf(p->name, sizeof p->name, "%s", name);
	table_add(&srv->players, &p->link, p->name);
	return p;
}

/* The player sat in a game that started: record it once, so the identity
 * is never pruned as unused. */
void
player_played(struct server *srv, struct player *p)
{
	if (p == NULL || p->played)
		return;
	storeq_identity_played(srv->storeq, p->name);
	p->played = 1;
}

/* A game started in r: each player seated there has played. */
void
player_played_in(struct room *r)
{
	int i;

	for (i = 0; i < r->g->seats; i++)
		player_played(r->srv, r->seats[i].player);
}

/* Delete identities that never played and were last seen (hello) more
 * than unplayed_days ago: at start and then hourly (sweep.c). */
void
player_prune(struct server *srv)
{
	int64_t before =
	    clock_now_ms() - (int64_t)srv->cfg.unplayed_days * 86400 * 1000;

	srv->pruned_ms = clock_mono_ms();
	storeq_identity_prune(srv->storeq, before);
	log_debug("pruning identities that never played, unseen for %d days "
	          "(the store thread logs how many)",
	    srv->cfg.unplayed_days);
}

/* An identity made and not yet known committed: the loop's reader cannot
 * see it yet, so hello looks here first (memory is the truth). */
struct player_fresh {
	struct player_fresh *next;
	uint64_t op; /* the op that stores it */
	struct store_identity id;
};

/* The fresh identity of name whatever its case, into *id: 1, or 0. */
static int
player_fresh_find(
    struct server *srv, const char *name, struct store_identity *id)
{
	struct player_fresh *f;

	for (f = srv->fresh; f != NULL; f = f->next) {
		if (strcasecmp(f->id.name, name) == 0) {
			*id = f->id;
			return 1;
		}
	}
	return 0;
}

/* Ops up to committed are stored: their identities are the reader's. */
void
player_committed(struct server *srv, uint64_t committed)
{
	struct player_fresh **fp = &srv->fresh, *f;

	while ((f = *fp) != NULL) {
		if (f->op <= committed) {
			*fp = f->next;
			free(f);
		} else {
			fp = &f->next;
		}
	}
}

/* Free one player of the table (player_free_all's walk). */
static void
player_free_one(struct table_link *l, void *arg)
{
	struct player *p = TABLE_ITEM(l, struct player, link);

	block_free(p);
	cJSON_Delete(p->ratings);
	free(p->rooms);
	free(p);
}

void
player_free_all(struct server *srv)
{
	player_committed(srv, UINT64_MAX);
	table_walk(&srv->players, player_free_one, NULL);
	table_free(&srv->players);
}

/* Free a player nothing points at any more (offline, in no room); one
 * still pointed at is kept. */
void
player_release(struct server *srv, struct player *p)
{
	if (p->conn != NULL || p->nrooms > 0)
		return;
	table_del(&srv->players, &p->link);
	block_free(p);
	cJSON_Delete(p->ratings);
	free(p->rooms);
	free(p);
}

/* Note that room r holds the player (once). */
void
player_room_add(struct player *p, struct room *r)
{
	int i;

	for (i = 0; i < p->nrooms; i++)
		if (p->rooms[i] == r)
			return;
	if (p->nrooms == p->roomscap) {
		p->roomscap = p->roomscap == 0 ? 4 : p->roomscap * 2;
		p->rooms =
		    xrealloc(p->rooms, (size_t)p->roomscap * sizeof *p->rooms);
	}
	p->rooms[p->nrooms++] = r;
}

/* Room r no longer holds the player (nothing when it did not). */
void
player_room_del(struct player *p, struct room *r)
{
	int i;

	for (i = 0; i < p->nrooms; i++) {
		if (p->rooms[i] == r) {
			p->rooms[i] = p->rooms[--p->nrooms];
			return;
		}
	}
}

/* 1 to 16 letters, digits, '_' and '-'. */
int
player_name_valid(const char *name)
{
	size_t n = strlen(name), i;

	if (n == 0 || n > SERVER_NAME_MAX)
		return 0;
	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)name[i];

		if (!isalnum(ch) && ch != '_' && ch != '-')
			return 0;
		if (ch >= 0x80)
			return 0;
	}
	return 1;
}

/* A token's hash as the store keeps it (hex: PLAYER_HASH_HEX bytes). */
void
player_token_hash(const char *token, char *hex)
{
	unsigned char h[crypto_generichash_BYTES];

	crypto_generichash(
	    h, sizeof h, (const unsigned char *)token, strlen(token), NULL, 0);
	sodium_bin2hex(hex, PLAYER_HASH_HEX, h, sizeof h);
}

/* A fresh random token as hex (len: PLAYER_TOKEN_BYTES * 2 + 1). */
void
player_token_new(char *token, size_t len)
{
	unsigned char b[PLAYER_TOKEN_BYTES];

	randombytes_buf(b, sizeof b);
	sodium_bin2hex(token, len, b, sizeof b);
}

/* Refuse a hello (or a password change) from an address, or for the
 * identity called name (NULL: none), with too many failed logins lately:
 * 0, or -1 after replying. */
int
player_throttled(
    struct conn *c, const struct proto_request *req, const char *who)
{
	struct limit_entry *name = who != NULL ? limit_name(c->srv, who) : NULL;
	const char *as = req->name != NULL ? req->name : who;
	int64_t wait = 0;

	if (!limit_fails_ok(c->srv, c->lim_addr, &wait)) {
		limit_log(c->srv,
		    "conn %llu %s: %s as %s refused: too many "
		    "failed logins from there",
		    (unsigned long long)c->id, c->addr, req->cmd, as);
		conn_error(c, req, PROTO_E_RATE_LIMITED,
		    "too many failed logins from your address; try again in "
		    "%lld s",
		    (long long)(wait + 999) / 1000);
		return -1;
	}
	if (!limit_fails_ok(c->srv, name, &wait)) {
		limit_log(c->srv,
		    "conn %llu %s: %s as %s refused: too many "
		    "failed logins for that name",
		    (unsigned long long)c->id, c->addr, req->cmd, as);
		conn_error(c, req, PROTO_E_RATE_LIMITED,
		    "too many failed logins for %s; try again in %lld s", as,
		    (long long)(wait + 999) / 1000);
		return -1;
	}
	return 0;
}

/* A wrong token or password: counted against the address (and the
 * identity called name, NULL when none exists), logged, refused with
 * code; why is a literal or a reason made with proto_errf, so that its
 * msgid goes with it (conn_error_text). */
void
player_failed(struct conn *c, const struct proto_request *req, const char *name,
    enum proto_error code, const char *why)
{
	const char *as = req->name != NULL ? req->name : name;

	limit_fails_take(c->srv, c->lim_addr);
	if (name != NULL)
		limit_fails_take(c->srv, limit_name(c->srv, name));
	/* "failed login" as before accounts; "failed password" for that verb */
	limit_log(c->srv, "conn %llu %s: failed %s as %s: %s",
	    (unsigned long long)c->id, c->addr,
	    req->verb == PROTO_HELLO ? "login" : req->cmd, as, why);
	conn_error_text(c, req, code, why);
}

/* Make a new identity for a new name, within the address's hourly
 * allowance; 0, or -1 after replying an error. */
static int
player_register(struct conn *c, const struct proto_request *req,
    char *token_out, size_t toklen)
{
	char given[PLAYER_HASH_HEX];
	struct player_fresh *f;
	int64_t wait = 0;

	if (!limit_names_take(c->srv, c->lim_addr, &wait)) {
		limit_log(c->srv,
		    "conn %llu %s: new identity %s refused (%d "
		    "an hour per address)",
		    (unsigned long long)c->id, c->addr, req->name,
		    c->srv->cfg.new_names);
		conn_error(c, req, PROTO_E_LIMIT_REACHED,
		    "your address made %d new names this hour; try again in "
		    "%lld min, or log in to an existing one",
		    c->srv->cfg.new_names, (long long)(wait + 59999) / 60000);
		return -1;
	}
	player_token_new(token_out, toklen);
	player_token_hash(token_out, given);
	storeq_identity_put(c->srv->storeq, req->name, given);
	f = xcalloc(1, sizeof *f);
	f->op = storeq_ops(c->srv->storeq);
	snprintf(f->id.name, sizeof f->id.name, "%s", req->name);
	snprintf(f->id.hash, sizeof f->id.hash, "%s", given);
	f->id.created_ms = clock_now_ms();
	f->next = c->srv->fresh;
	c->srv->fresh = f;
	return 0;
}

/* Whether token is name's: the identity's own (hash, as found) or one
 * a password login gave it. 1, 0, or -1 (logged). */
static int
player_token_ok(
    struct server *srv, const char *name, const char *hash, const char *token)
{
	char given[PLAYER_HASH_HEX];
	int found = 0;

	player_token_hash(token, given);
	if (strlen(hash) + 1 == sizeof given &&
	    sodium_memcmp(given, hash, sizeof given) == 0)
		return 1;
	if (password_device_find(srv, name, given, &found) != 0)
		return -1;
	return found;
}

/* A hello with a password for identity *id: checked off the loop,
 * answered by done (1); or -1 after replying (no password set, a store
 * failure). */
static int
player_password_login(struct conn *c, const struct proto_request *req,
    const struct store_identity *id, password_done_fn *done)
{
	char stored[sizeof((struct password_result *)0)->hashed], why[256];

	if (password_stored(c->srv, id->name, stored) != 0) {
		conn_error(c, req, PROTO_E_INTERNAL, "the store failed");
		return -1;
	}
	if (stored[0] == '\0') {
		proto_errf(why, sizeof why,
		    "%s has no password: log in with its token (hello %s "
		    "TOKEN), then set one with: password NEW",
		    id->name, id->name);
		player_failed(c, req, id->name, PROTO_E_BAD_PASSWORD, why);
		return -1;
	}
	password_check(c, req, id, stored, req->password, NULL, done);
	return 1;
}

/* Check name and token (or password) against the store (names match
 * whatever their case; *id gets the name as registered); make a new
 * identity for a new name (*token_out gets its token). 0; -1 after
 * replying an error; 1 when a password is being checked off the loop,
 * and pw_done will go on (password_check). */
int
player_authenticate(struct conn *c, const struct proto_request *req,
    char *token_out, size_t toklen, struct store_identity *id, int *is_new,
    password_done_fn *pw_done)
{
	const char *secret = req->token != NULL ? req->token : req->password;
	int found = 0, ok;

	*is_new = 0;
	if (req->token != NULL && req->password != NULL) {
		conn_error(c, req, PROTO_E_BAD_REQUEST,
		    "give a token or a password, not both");
		return -1;
	}
	found = player_fresh_find(c->srv, req->name, id);
	if (!found &&
	    store_identity_find(c->srv->reader, req->name, id, &found) != 0) {
		log_error("store: %s", store_errmsg(c->srv->reader));
		conn_error(c, req, PROTO_E_INTERNAL, "the store failed");
		return -1;
	}
	if (secret != NULL &&
	    player_throttled(c, req, found ? id->name : NULL) != 0)
		return -1;
	if (!found && req->token != NULL) {
		player_failed(c, req, NULL, PROTO_E_BAD_TOKEN,
		    "no identity of that name: say hello without a token to "
		    "make it");
		return -1;
	}
	if (!found && req->password != NULL) {
		player_failed(c, req, NULL, PROTO_E_BAD_PASSWORD,
		    "no identity of that name: say hello without a password "
		    "to make it, then set one with: password NEW");
		return -1;
	}
	if (found && secret == NULL) {
		conn_error(c, req, PROTO_E_NAME_TAKEN,
		    "name %s is registered: hello %s TOKEN, or hello %s "
		    "password=PASSWORD if it has a password",
		    id->name, id->name, id->name);
		return -1;
	}
	if (found && req->password != NULL)
		return player_password_login(c, req, id, pw_done);
	if (found) {
		ok = player_token_ok(c->srv, id->name, id->hash, req->token);
		if (ok < 0) {
			conn_error(
			    c, req, PROTO_E_INTERNAL, "the store failed");
			return -1;
		}
		if (!ok) {
			player_failed(c, req, id->name, PROTO_E_BAD_TOKEN,
			    "wrong token for that name");
			return -1;
		}
		return 0;
	}
	if (player_register(c, req, token_out, toklen) != 0)
		return -1;
	snprintf(id->name, sizeof id->name, "%s", req->name);
	id->played = 0;
	id->created_ms = clock_now_ms();
	*is_new = 1;
	return 0;
}

/* Another connection holds this identity: tell it, and let it go without
 * touching the seats (the new connection takes them over). */
void
player_replace(struct player *p)
{
	struct conn *old = p->conn;
	cJSON *ev;

	if (old == NULL)
		return;
	ev = proto_event(PROTO_EV_REPLACED, NULL, 0);
	proto_sentence(ev, "message", "you logged in from another connection");
	net_send_msg(old, ev);
	cJSON_Delete(ev);
	old->player = NULL;
	old->current = NULL;
	p->conn = NULL;
	net_close(old, 1);
}

/* 1 when the player called name is connected here or, in a cluster, on
 * another node (its lobby cache). */
int
player_online(struct server *srv, const char *name)
{
	const struct player *p = player_find(srv, name);

	if (p != NULL && p->conn != NULL && p->conn->state == CONN_OPEN)
		return 1;
	return srv->cluster_ops != NULL && srv->cluster_ops->online(srv, name);
}

/* Send ev to the player called name where they are connected: here, or
 * through the cluster on another node; nothing when they are nowhere
 * (nothing is kept for later). */
void
player_send(struct server *srv, const char *name, const cJSON *ev)
{
	struct player *p = player_find(srv, name);

	if (p != NULL && p->conn != NULL && p->conn->state == CONN_OPEN)
		net_send_msg(p->conn, ev);
	else if (srv->cluster_ops != NULL)
		srv->cluster_ops->deliver(srv, name, ev);
}
