/*
 * cmd_block.c: the verbs with which every player stops a nuisance:
 * block NAME (nothing more of theirs reaches you: tells, invites, seeks'
 * pairings, joins of your rooms, room and lobby chat), unblock NAME and
 * blocks. Each change is stored before its reply (a row op, core/
 * block.c); the list is bounded (SERVER_BLOCKS_MAX).
 */
#include <string.h>
#include <strings.h>

#include "server/cmd/cmd.h"
#include "server/store/store.h"

/* The registered spelling of name into out (len bytes): a player in
 * memory, or an identity of the store, whatever the case it is typed
 * in. 0, or -1 after replying (bad_name: no such identity; internal: the
 * store failed). */
int
cmd_known_name(struct conn *c, const struct proto_request *req,
    const char *name, char *out, size_t len)
{
	struct store_identity id;
	const struct player *p;
	int found = 0;

	if (!player_name_valid(name)) {
		conn_error(c, req, PROTO_E_BAD_NAME,
		    "a name is 1 to 16 letters, digits, '_' or '-'");
		return -1;
	}
	if ((p = player_find(c->srv, name)) != NULL) {
		snprintf(out, len, "%s", p->name);
		return 0;
	}
	memset(&id, 0, sizeof id);
	if (store_identity_find(c->srv->reader, name, &id, &found) != 0) {
		log_error("store: %s", store_errmsg(c->srv->reader));
		conn_error(c, req, PROTO_E_INTERNAL, "the store failed");
		return -1;
	}
	if (!found) {
		conn_error(c, req, PROTO_E_BAD_NAME,
		    "nobody is registered as %s", name);
		return -1;
	}
	snprintf(out, len, "%s", id.name);
	return 0;
}

/* A reply of the three verbs: the name acted on (NULL: none) and the
 * player's list after it. */
static void
cmd_block_reply(
    struct conn *c, const struct proto_request *req, const char *name)
{
	cJSON *rep = proto_reply(req);

	if (name != NULL)
		cJSON_AddStringToObject(rep, "name", name);
	cJSON_AddItemToObject(rep, "blocks", block_json(c->player));
	conn_reply(c, rep);
}

void
cmd_block(struct conn *c, const struct proto_request *req)
{
	char name[SERVER_NAME_MAX + 1];
	int rc;

	if (cmd_known_name(c, req, req->name, name, sizeof name) != 0)
		return;
	if (strcasecmp(name, c->player->name) == 0) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "that is you: block is for someone else");
		return;
	}
	rc = block_add(c->srv, c->player, name);
	if (rc < 0) {
		conn_error(c, req, PROTO_E_LIMIT_REACHED,
		    "you block %d players already (unblock one first)",
		    SERVER_BLOCKS_MAX);
		return;
	}
	if (rc == 0)
		log_info("%s blocks %s", c->player->name, name);
	cmd_block_reply(c, req, name);
}

void
cmd_unblock(struct conn *c, const struct proto_request *req)
{
	char name[SERVER_NAME_MAX + 1];

	if (!player_name_valid(req->name)) {
		conn_error(c, req, PROTO_E_BAD_NAME,
		    "a name is 1 to 16 letters, digits, '_' or '-'");
		return;
	}
	if (block_del(c->srv, c->player, req->name, name) != 0) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "you do not block %s (blocks lists whom you do)",
		    req->name);
		return;
	}
	log_info("%s no longer blocks %s", c->player->name, name);
	cmd_block_reply(c, req, name);
}

void
cmd_blocks(struct conn *c, const struct proto_request *req)
{
	cmd_block_reply(c, req, NULL);
}
