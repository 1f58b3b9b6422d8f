/*
 * request.c: a request decoded by protocol/ (from what the user typed in
 * shorthand) back into a JSON request object, so that the client always
 * speaks JSON to the server while people type the short forms.
 */
#include <stdlib.h>
#include <string.h>

#include "client-cli/client.h"

/* Add a string field when it is set. */
static void
request_str(cJSON *o, const char *key, const char *value)
{
	if (value != NULL)
		cJSON_AddStringToObject(o, key, value);
}

/* 1 when s is all decimal digits (a seat given by its number). */
static int
request_digits(const char *s)
{
	if (s == NULL || *s == '\0')
		return 0;
	for (; *s != '\0'; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* The create-only members: options, bots, clock, private. */
static void
request_create(cJSON *o, const struct proto_request *req)
{
	int i;

	if (req->noptions > 0) {
		cJSON *opts = cJSON_AddObjectToObject(o, "options");
		for (i = 0; opts != NULL && i < req->noptions; i++)
			cJSON_AddStringToObject(
			    opts, req->options[i].key, req->options[i].value);
	}
	for (i = 0; i < req->nbots; i++) {
		cJSON *bots;
		if (req->bots[i].seat == NULL) {
			cJSON_AddNumberToObject(o, "bot", req->bots[i].level);
			continue;
		}
		bots = cJSON_GetObjectItem(o, "bots");
		if (bots == NULL)
			bots = cJSON_AddObjectToObject(o, "bots");
		if (bots != NULL)
			cJSON_AddNumberToObject(
			    bots, req->bots[i].seat, req->bots[i].level);
	}
	if (req->has_clock) {
		cJSON *clock = cJSON_AddObjectToObject(o, "clock");
		if (clock != NULL) {
			cJSON_AddNumberToObject(
			    clock, "initial", (double)req->clock_initial);
			cJSON_AddNumberToObject(
			    clock, "increment", (double)req->clock_increment);
		}
	}
	if (req->has_private)
		cJSON_AddBoolToObject(o, "private", req->is_private);
}

/* The JSON request that means the same as req; NULL when out of memory. */
cJSON *
request_json(const struct proto_request *req)
{
	cJSON *o = cJSON_CreateObject();
	const char *verb = proto_verb_name(req->verb);

	if (o == NULL || verb == NULL) {
		cJSON_Delete(o);
		return NULL;
	}
	cJSON_AddStringToObject(o, "cmd", verb);
	request_str(o, "name", req->name);
	request_str(o, "token", req->token);
	request_str(o, "game", req->game);
	request_str(o, "room", req->room);
	if (request_digits(req->seat))
		cJSON_AddNumberToObject(o, "seat", atoi(req->seat));
	else
		request_str(o, "seat", req->seat);
	request_str(o, "move", req->move);
	request_str(o, "from", req->from);
	request_str(o, "text", req->text);
	request_str(o, "action", req->action);
	request_str(o, "mode", req->mode);
	request_str(o, "status", req->status);
	if (req->has_seq)
		cJSON_AddNumberToObject(o, "seq", (double)req->seq);
	if (req->has_since)
		cJSON_AddNumberToObject(o, "since", (double)req->since);
	if (req->has_proto)
		cJSON_AddNumberToObject(o, "proto", (double)req->proto);
	request_create(o, req);
	return o;
}
