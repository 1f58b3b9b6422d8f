/*
 * encode.c: builds replies, errors and events as cJSON objects and prints
 * them as one JSON line each. The request's id goes back as the raw text it
 * came as; members named "_..." are for text mode and never printed.
 */
#include <stdlib.h>
#include <string.h>

#include "protocol/protocol.h"

/* The hint of the welcome event, for people who connect by hand. */
#define ENCODE_HINT                                                            \
	"Type: hello YOURNAME   (JSON programs: "                              \
	"{\"cmd\":\"hello\",\"name\":\"ana\"}); help lists the commands"

/* Start a reply: {"re":cmd,"id":raw,"ok":ok}. */
static cJSON *
encode_start(const struct proto_request *req, int ok)
{
	cJSON *o;

	o = cJSON_CreateObject();
	if (o == NULL)
		return NULL;
	if (req != NULL && req->cmd != NULL) {
		if (cJSON_AddStringToObject(o, "re", req->cmd) == NULL)
			goto fail;
	} else if (cJSON_AddNullToObject(o, "re") == NULL)
		goto fail;
	if (req != NULL && req->id != NULL &&
	    cJSON_AddRawToObject(o, "id", req->id) == NULL)
		goto fail;
	if (cJSON_AddBoolToObject(o, "ok", ok) == NULL)
		goto fail;
	return o;
fail:
	cJSON_Delete(o);
	return NULL;
}

cJSON *
proto_reply(const struct proto_request *req)
{
	return encode_start(req, 1);
}

cJSON *
proto_error_reply(
    const struct proto_request *req, enum proto_error e, const char *message)
{
	cJSON *o;

	if (e == PROTO_OK || e >= PROTO_E_COUNT)
		e = PROTO_E_INTERNAL;
	o = encode_start(req, 0);
	if (o == NULL)
		return NULL;
	if (message == NULL || message[0] == '\0')
		message = proto_error_message(e);
	if (cJSON_AddStringToObject(o, "error", proto_error_code(e)) == NULL ||
	    cJSON_AddStringToObject(o, "message", message) == NULL) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

cJSON *
proto_event(enum proto_event_kind e, const char *room, long long seq)
{
	const char *name = proto_event_name(e);
	cJSON *o;

	if (name == NULL)
		return NULL;
	o = cJSON_CreateObject();
	if (o == NULL)
		return NULL;
	if (cJSON_AddStringToObject(o, "event", name) == NULL ||
	    (room != NULL &&
	        cJSON_AddStringToObject(o, "room", room) == NULL) ||
	    (seq > 0 &&
	        cJSON_AddNumberToObject(o, "seq", (double)seq) == NULL)) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

cJSON *
proto_welcome(const char *version)
{
	cJSON *o;

	o = proto_event(PROTO_EV_WELCOME, NULL, 0);
	if (o == NULL)
		return NULL;
	if (cJSON_AddStringToObject(o, "server", "tablerod") == NULL ||
	    cJSON_AddStringToObject(o, "version", version) == NULL ||
	    cJSON_AddNumberToObject(o, "proto", PROTO_VERSION) == NULL ||
	    cJSON_AddStringToObject(o, "hint", ENCODE_HINT) == NULL) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

/* Whether any object member at any depth has a name starting with '_'. */
static int
encode_has_hidden(const cJSON *item)
{
	const cJSON *c;

	for (c = item->child; c != NULL; c = c->next) {
		if (cJSON_IsObject(item) && c->string != NULL &&
		    c->string[0] == '_')
			return 1;
		if (c->child != NULL && encode_has_hidden(c))
			return 1;
	}
	return 0;
}

/* Delete the members named "_..." at every depth. */
static void
encode_strip(cJSON *item)
{
	cJSON *c, *next;

	for (c = item->child; c != NULL; c = next) {
		next = c->next;
		if (cJSON_IsObject(item) && c->string != NULL &&
		    c->string[0] == '_') {
			cJSON_Delete(cJSON_DetachItemViaPointer(item, c));
			continue;
		}
		if (c->child != NULL)
			encode_strip(c);
	}
}

char *
proto_json_line(const cJSON *msg)
{
	cJSON *copy = NULL;
	char *text, *line;
	size_t len;

	if (msg == NULL)
		return NULL;
	if (encode_has_hidden(msg)) {
		copy = cJSON_Duplicate(msg, 1);
		if (copy == NULL)
			return NULL;
		encode_strip(copy);
		msg = copy;
	}
	text = cJSON_PrintUnformatted(msg);
	cJSON_Delete(copy);
	if (text == NULL)
		return NULL;
	len = strlen(text);
	line = malloc(len + 2);
	if (line != NULL) {
		memcpy(line, text, len);
		line[len] = '\n';
		line[len + 1] = '\0';
	}
	cJSON_free(text);
	return line;
}
