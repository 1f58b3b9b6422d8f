/*
 * player.c: identities and who is online: hello (names, tokens, taking
 * over from an old connection, resuming seats), who, and lobby chat.
 * Tokens are random and only their hash is kept (libsodium).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "server/server.h"
#include "server/store.h"

/* Random bytes in a token: 128 bits cannot be guessed. */
#define PLAYER_TOKEN_BYTES 16
/* A token hash: BLAKE2b-256 as hex, with its NUL. */
#define PLAYER_HASH_HEX (crypto_generichash_BYTES * 2 + 1)

static unsigned
player_bucket(const char *name)
{
	unsigned h = 5381;

	/* case-folded, so that every spelling of a name shares a chain */
	for (; *name != '\0'; name++)
		h = h * 33 + (unsigned char)tolower((unsigned char)*name);
	return h % SERVER_PLAYER_BUCKETS;
}

struct player *
player_find(struct server *srv, const char *name)
{
	struct player *p;

	for (p = srv->players[player_bucket(name)]; p != NULL; p = p->next)
		if (strcmp(p->name, name) == 0)
			return p;
	return NULL;
}

/* The player of that name, made when first seen. */
struct player *
player_get(struct server *srv, const char *name)
{
	struct player *p = player_find(srv, name);
	unsigned b;

	if (p != NULL)
		return p;
	p = xcalloc(1, sizeof *p);
	snprintf(p->name, sizeof p->name, "%s", name);
	b = player_bucket(name);
	p->next = srv->players[b];
	srv->players[b] = p;
	return p;
}

/* Forget a player who is offline, sits in no room and watches none: only
 * players online or seated stay in memory (the store keeps the rest). */
void
player_release(struct server *srv, struct player *p)
{
	struct player **pp;
	struct room *r;

	if (p->conn != NULL || srv->shutting_down)
		return;
	TAILQ_FOREACH(r, &srv->rooms, entry)
		if (room_seat_of(r, p) >= 0 || room_is_watcher(r, p))
			return;
	for (pp = &srv->players[player_bucket(p->name)]; *pp != NULL;
	     pp = &(*pp)->next) {
		if (*pp == p) {
			*pp = p->next;
			free(p);
			return;
		}
	}
}

/* The player sat in a game that started: record it once, so the identity
 * is never pruned as unused. */
void
player_played(struct server *srv, struct player *p)
{
	if (p == NULL || p->played)
		return;
	if (store_identity_played(srv->store, p->name) != 0) {
		log_error("store: %s", store_errmsg(srv->store));
		return;
	}
	p->played = 1;
}

/* Delete identities that never played and were last seen (hello) more
 * than unplayed_days ago: at start and then hourly. */
void
player_prune(struct server *srv)
{
	int64_t before =
	    clock_now_ms() - (int64_t)srv->cfg.unplayed_days * 86400 * 1000;
	int n = 0;

	srv->pruned_ms = clock_mono_ms();
	if (store_identity_prune(srv->store, before, &n) != 0) {
		log_error("store: %s", store_errmsg(srv->store));
		return;
	}
	if (n > 0)
		log_info("pruned %d identities that never played, unseen for "
		         "%d days",
		    n, srv->cfg.unplayed_days);
}

void
player_free_all(struct server *srv)
{
	int i;

	for (i = 0; i < SERVER_PLAYER_BUCKETS; i++) {
		while (srv->players[i] != NULL) {
			struct player *p = srv->players[i];

			srv->players[i] = p->next;
			free(p);
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

static void
player_token_hash(const char *token, char hex[PLAYER_HASH_HEX])
{
	unsigned char h[crypto_generichash_BYTES];

	crypto_generichash(
	    h, sizeof h, (const unsigned char *)token, strlen(token), NULL, 0);
	sodium_bin2hex(hex, PLAYER_HASH_HEX, h, sizeof h);
}

static void
player_token_new(char *token, size_t len)
{
	unsigned char b[PLAYER_TOKEN_BYTES];

	randombytes_buf(b, sizeof b);
	sodium_bin2hex(token, len, b, sizeof b);
}

/* Refuse a hello from an address, or for a name, with too many failed
 * logins lately: 0, or -1 after replying. */
static int
player_throttled(
    struct conn *c, const struct proto_request *req, struct limit_entry *name)
{
	int64_t wait = 0;

	if (!limit_fails_ok(c->srv, c->lim_addr, &wait)) {
		limit_log(c->srv,
		    "conn %llu %s: hello as %s refused: too many "
		    "failed logins from there",
		    (unsigned long long)c->id, c->addr, req->name);
		session_error(c, req, PROTO_E_RATE_LIMITED,
		    "too many failed logins from your address; try again in "
		    "%lld s",
		    (long long)(wait + 999) / 1000);
		return -1;
	}
	if (!limit_fails_ok(c->srv, name, &wait)) {
		limit_log(c->srv,
		    "conn %llu %s: hello as %s refused: too many "
		    "failed logins for that name",
		    (unsigned long long)c->id, c->addr, req->name);
		session_error(c, req, PROTO_E_RATE_LIMITED,
		    "too many failed logins for %s; try again in %lld s",
		    req->name, (long long)(wait + 999) / 1000);
		return -1;
	}
	return 0;
}

/* A wrong token: counted against the address (and the name when it
 * exists), logged, refused. */
static void
player_failed(struct conn *c, const struct proto_request *req,
    struct limit_entry *name, const char *why)
{
	limit_fails_take(c->srv, c->lim_addr);
	limit_fails_take(c->srv, name);
	limit_log(c->srv, "conn %llu %s: failed login as %s: %s",
	    (unsigned long long)c->id, c->addr, req->name, why);
	session_error(c, req, PROTO_E_BAD_TOKEN, "%s", why);
}

/* Make a new identity for a new name, within the address's hourly
 * allowance; 0, or -1 after replying an error. */
static int
player_register(struct conn *c, const struct proto_request *req,
    char *token_out, size_t toklen)
{
	char given[PLAYER_HASH_HEX];
	int64_t wait = 0;

	if (!limit_names_take(c->srv, c->lim_addr, &wait)) {
		limit_log(c->srv,
		    "conn %llu %s: new identity %s refused (%d "
		    "an hour per address)",
		    (unsigned long long)c->id, c->addr, req->name,
		    c->srv->cfg.new_names);
		session_error(c, req, PROTO_E_LIMIT_REACHED,
		    "your address made %d new names this hour; try again in "
		    "%lld min, or log in to an existing one",
		    c->srv->cfg.new_names, (long long)(wait + 59999) / 60000);
		return -1;
	}
	player_token_new(token_out, toklen);
	player_token_hash(token_out, given);
	if (store_identity_put(c->srv->store, req->name, given) != 0) {
		log_error("store: %s", store_errmsg(c->srv->store));
		session_error(c, req, PROTO_E_INTERNAL, "the store failed");
		return -1;
	}
	return 0;
}

/* Check name and token against the store (names match whatever their
 * case; *id gets the name as registered); make a new identity for a new
 * name (*token_out gets its token). 0, or -1 after replying an error. */
static int
player_authenticate(struct conn *c, const struct proto_request *req,
    char *token_out, size_t toklen, struct store_identity *id, int *is_new)
{
	char given[PLAYER_HASH_HEX];
	struct limit_entry *name = NULL;
	int found = 0;

	*is_new = 0;
	if (store_identity_find(c->srv->store, req->name, id, &found) != 0) {
		log_error("store: %s", store_errmsg(c->srv->store));
		session_error(c, req, PROTO_E_INTERNAL, "the store failed");
		return -1;
	}
	if (found && req->token != NULL)
		name = limit_name(c->srv, id->name);
	if (req->token != NULL && player_throttled(c, req, name) != 0)
		return -1;
	if (!found && req->token != NULL) {
		player_failed(c, req, NULL,
		    "no identity of that name: say hello without a token to "
		    "make it");
		return -1;
	}
	if (found && req->token == NULL) {
		session_error(c, req, PROTO_E_NAME_TAKEN,
		    "name %s is registered: hello %s TOKEN", id->name,
		    id->name);
		return -1;
	}
	if (found) {
		player_token_hash(req->token, given);
		if (strlen(id->hash) + 1 != sizeof given ||
		    sodium_memcmp(given, id->hash, sizeof given) != 0) {
			player_failed(
			    c, req, name, "wrong token for that name");
			return -1;
		}
		return 0;
	}
	if (player_register(c, req, token_out, toklen) != 0)
		return -1;
	snprintf(id->name, sizeof id->name, "%s", req->name);
	id->played = 0;
	*is_new = 1;
	return 0;
}

/* Another connection holds this identity: tell it, and let it go without
 * touching the seats (the new connection takes them over). */
static void
player_replace(struct player *p)
{
	struct conn *old = p->conn;
	cJSON *ev;

	if (old == NULL)
		return;
	ev = proto_event("replaced", NULL, 0);
	cJSON_AddStringToObject(
	    ev, "message", "you logged in from another connection");
	net_send_msg(old, ev);
	cJSON_Delete(ev);
	old->player = NULL;
	p->conn = NULL;
	net_close(old, 1);
}

void
player_hello(struct conn *c, const struct proto_request *req)
{
	char token[PLAYER_TOKEN_BYTES * 2 + 1] = "";
	struct player *p;
	struct room *r, *latest = NULL;
	struct store_identity id;
	cJSON *rep, *rooms;
	int is_new;

	if (c->player != NULL) {
		session_error(c, req, PROTO_E_NOT_ALLOWED,
		    "already logged in as %s", c->player->name);
		return;
	}
	if (!player_name_valid(req->name)) {
		session_error(c, req, PROTO_E_BAD_NAME,
		    "a name is 1 to 16 letters, digits, '_' or '-'");
		return;
	}
	if (player_authenticate(c, req, token, sizeof token, &id, &is_new) != 0)
		return;
	p = player_get(c->srv, id.name);
	p->played = p->played || id.played;
	if (!p->played && !is_new &&
	    store_identity_seen(c->srv->store, p->name) != 0)
		log_error("store: %s", store_errmsg(c->srv->store));
	player_replace(p);
	p->conn = c;
	c->player = p;
	c->lim_name = limit_name(c->srv, p->name);
	if (c->lim_name != NULL)
		c->lim_name->refs++;
	session_logged_in(c);
	log_info("%s logged in from %s (conn %llu)", p->name, c->addr,
	    (unsigned long long)c->id);

	rep = proto_reply(req);
	cJSON_AddStringToObject(rep, "name", p->name);
	cJSON_AddStringToObject(rep, "token", is_new ? token : req->token);
	cJSON_AddBoolToObject(rep, "new", is_new);
	rooms = cJSON_AddArrayToObject(rep, "rooms");
	TAILQ_FOREACH(r, &c->srv->rooms, entry) {
		if (room_seat_of(r, p) < 0 || r->status == ROOM_ENDED)
			continue;
		cJSON_AddItemToArray(rooms, room_state(r));
		if (latest == NULL || r->updated_ms >= latest->updated_ms)
			latest = r;
	}
	session_reply(c, rep);
	c->current = latest;
	TAILQ_FOREACH(r, &c->srv->rooms, entry)
		if (room_seat_of(r, p) >= 0)
			room_player_back(r, p);
}

/* Who is online: at most SERVER_WHO_MAX of them, so the reply stays far
 * below the output cap however many are; "online" counts them all. */
void
player_who(struct conn *c, const struct proto_request *req)
{
	cJSON *rep = proto_reply(req), *list, *one, *ids;
	struct conn *o;
	struct room *r;
	int n = 0;

	list = cJSON_AddArrayToObject(rep, "players");
	TAILQ_FOREACH(o, &c->srv->conns, entry) {
		if (o->player == NULL || o->state != CONN_OPEN)
			continue;
		if (n++ >= SERVER_WHO_MAX)
			continue;
		one = cJSON_CreateObject();
		cJSON_AddStringToObject(one, "name", o->player->name);
		ids = cJSON_AddArrayToObject(one, "rooms");
		TAILQ_FOREACH(r, &c->srv->rooms, entry)
			if (!r->is_private && r->status != ROOM_ENDED &&
			    (room_seat_of(r, o->player) >= 0 ||
			        room_is_watcher(r, o->player)))
				cJSON_AddItemToArray(
				    ids, cJSON_CreateString(r->id));
		cJSON_AddItemToArray(list, one);
	}
	cJSON_AddNumberToObject(rep, "online", n);
	cJSON_AddBoolToObject(rep, "more", n > SERVER_WHO_MAX);
	session_reply(c, rep);
}

/* Chat to everybody logged in. */
void
player_lobby_chat(struct conn *c, const struct proto_request *req)
{
	struct net_cache cache = {NULL, NULL};
	struct conn *o;
	cJSON *ev;

	if (req->room != NULL) {
		cmd_say(c, req);
		return;
	}
	if (strlen(req->text) > SERVER_CHAT_MAX) {
		session_error(c, req, PROTO_E_BAD_REQUEST,
		    "chat text is longer than %d bytes", SERVER_CHAT_MAX);
		return;
	}
	session_reply(c, proto_reply(req));
	ev = proto_event("chat", NULL, 0);
	cJSON_AddStringToObject(ev, "from", c->player->name);
	cJSON_AddStringToObject(ev, "text", req->text);
	TAILQ_FOREACH(o, &c->srv->conns, entry)
		if (o->player != NULL && o->state == CONN_OPEN)
			net_send_cached(o, ev, &cache);
	net_cache_clear(&cache);
	cJSON_Delete(ev);
}
