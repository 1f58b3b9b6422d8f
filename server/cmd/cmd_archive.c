/*
 * cmd_archive.c: the verbs that read finished games from the store
 * (core/archive.c keeps them): history, and state or export of a room
 * that is no longer in memory.
 */
#include <string.h>

#include "server/cmd/cmd.h"

/* The verb history [NAME]: the latest finished games a player played,
 * newest first; one's own private games too. */
void
cmd_history(struct conn *c, const struct proto_request *req)
{
	const char *name = req->name != NULL ? req->name : c->player->name;
	cJSON *rep, *list;

	if (!player_name_valid(name)) {
		conn_error(c, req, PROTO_E_BAD_NAME,
		    "a name is 1 to 16 letters, digits, '_' or '-'");
		return;
	}
	rep = proto_reply(req);
	cJSON_AddStringToObject(rep, "name", name);
	list = cJSON_AddArrayToObject(rep, "games");
	if (archive_games_of(
	        c->srv, name, strcmp(name, c->player->name) == 0, list) != 0) {
		cJSON_Delete(rep);
		conn_error(c, req, PROTO_E_INTERNAL, "the store failed");
		return;
	}
	conn_reply(c, rep);
}

/* state or export of a room that is not in memory: its last finished
 * game from the store. */
void
cmd_archive_show(struct conn *c, const struct proto_request *req)
{
	cJSON *row = NULL, *rep;
	struct room *r = archive_find(c, req, &row);

	if (r == NULL)
		return;
	if (!archive_visible(c, row)) {
		conn_error(
		    c, req, PROTO_E_NO_SUCH_ROOM, "no room '%s'", req->room);
	} else if (req->verb == PROTO_EXPORT) {
		cmd_export_room(c, req, r, cJSON_GetObjectItem(row, "seats"));
	} else {
		cJSON *st = archive_state_of(r, row);
		char err[128];

		if (req->has_at &&
		    replay_at(r, req->at, st, err, sizeof err) != 0) {
			cJSON_Delete(st);
			conn_error(c, req, PROTO_E_BAD_REQUEST, "%s", err);
		} else {
			rep = proto_reply(req);
			cJSON_AddItemToObject(rep, "state", st);
			conn_reply(c, rep);
		}
	}
	room_free(r);
	cJSON_Delete(row);
}
