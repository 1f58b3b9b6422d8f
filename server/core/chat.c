/*
 * chat.c: the last lines of each room's chat, kept in memory with the
 * room (not stored), so that a page reloaded, or a player who comes back
 * or comes to watch, sees what was said just before: `join`, `watch` and
 * `state` replies carry them in the state's `chat`.
 */

#include "server/core/core.h"

/* The lines a room keeps: enough to read back a conversation, and at most
 * ROOM_CHAT_KEPT * SERVER_CHAT_MAX (10 KB) per room in memory and in a
 * state reply, far below the output cap. */
#define ROOM_CHAT_KEPT 20

/* Keep one line of r's chat (its event's seq), the oldest dropped past
 * ROOM_CHAT_KEPT. */
void
chat_keep(struct room *r, const char *from, const char *text, long long seq)
{
	cJSON *line = cJSON_CreateObject();

	if (r->chat == NULL)
		r->chat = cJSON_CreateArray();
	if (line == NULL || r->chat == NULL)
		fatal("out of memory");
	proto_add_int(line, "seq", seq);
	cJSON_AddStringToObject(line, "from", from);
	cJSON_AddStringToObject(line, "text", text);
	cJSON_AddItemToArray(r->chat, line);
	while (cJSON_GetArraySize(r->chat) > ROOM_CHAT_KEPT)
		cJSON_DeleteItemFromArray(r->chat, 0);
}

/* Add r's kept lines to st (a state) as "chat", oldest first, leaving out
 * those from a sender viewer blocks (viewer may be NULL). */
void
chat_add(const struct room *r, cJSON *st, const struct player *viewer)
{
	cJSON *out = cJSON_AddArrayToObject(st, "chat"), *line;

	if (out == NULL)
		fatal("out of memory");
	cJSON_ArrayForEach(line, r->chat) {
		const char *from =
		    cJSON_GetStringValue(cJSON_GetObjectItem(line, "from"));

		if (viewer != NULL && from != NULL && block_has(viewer, from))
			continue;
		cJSON_AddItemToArray(out, cJSON_Duplicate(line, 1));
	}
}
