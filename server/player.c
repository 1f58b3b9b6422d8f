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

	for (; *name != '\0'; name++)
		h = h * 33 + (unsigned char)*name;
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

/* Check name and token against the store; make a new identity for a new
 * name (*token_out gets its token). 0, or -1 after replying an error. */
static int
player_authenticate(struct conn *c, const struct proto_request *req,
    char *token_out, size_t toklen, int *is_new)
{
	char stored[PLAYER_HASH_HEX], given[PLAYER_HASH_HEX];
	int found = 0;

	*is_new = 0;
	if (store_identity_get(
	        c->srv->store, req->name, stored, sizeof stored, &found) != 0) {
		log_error("store: %s", store_errmsg(c->srv->store));
		session_error(c, req, PROTO_E_INTERNAL, "the store failed");
		return -1;
	}
	if (!found && req->token != NULL) {
		session_error(c, req, PROTO_E_BAD_TOKEN,
		    "no identity %s: say hello without a token to make it",
		    req->name);
		return -1;
	}
	if (found && req->token == NULL) {
		session_error(c, req, PROTO_E_NAME_TAKEN,
		    "name %s is registered: hello %s TOKEN", req->name,
		    req->name);
		return -1;
	}
	if (found) {
		player_token_hash(req->token, given);
		if (sodium_memcmp(given, stored, sizeof given) != 0) {
			session_error(c, req, PROTO_E_BAD_TOKEN,
			    "wrong token for %s", req->name);
			return -1;
		}
		return 0;
	}
	player_token_new(token_out, toklen);
	player_token_hash(token_out, given);
	if (store_identity_put(c->srv->store, req->name, given) != 0) {
		log_error("store: %s", store_errmsg(c->srv->store));
		session_error(c, req, PROTO_E_INTERNAL, "the store failed");
		return -1;
	}
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
	if (player_authenticate(c, req, token, sizeof token, &is_new) != 0)
		return;
	p = player_get(c->srv, req->name);
	player_replace(p);
	p->conn = c;
	c->player = p;
	evtimer_del(c->idle);
	log_info("%s logged in from %s (conn %llu)", p->name, c->addr,
	    (unsigned long long)c->id);

	rep = proto_reply(req);
	cJSON_AddStringToObject(rep, "name", p->name);
	cJSON_AddStringToObject(rep, "token", is_new ? token : req->token);
	cJSON_AddBoolToObject(rep, "new", is_new);
	/* Back in every seat first, so the rooms listed show it (the
	 * events this sends wait until the reply is out). */
	TAILQ_FOREACH(r, &c->srv->rooms, entry)
		if (room_seat_of(r, p) >= 0)
			room_player_back(r, p);
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
}

void
player_who(struct conn *c, const struct proto_request *req)
{
	cJSON *rep = proto_reply(req), *list, *one, *ids;
	struct conn *o;
	struct room *r;

	list = cJSON_AddArrayToObject(rep, "players");
	TAILQ_FOREACH(o, &c->srv->conns, entry) {
		if (o->player == NULL || o->state != CONN_OPEN)
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
