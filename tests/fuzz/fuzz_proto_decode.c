/*
 * fuzz_proto_decode.c: the request decoder (JSON and shorthand) under
 * random lines, then the reply or error that echoes the request's cmd and
 * id, printed as a JSON line and as text. The printed line must parse back
 * as one JSON object, be valid UTF-8 and hold its only "\n" at the end.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/protocol.h"

/* A little over the default line limit: the framer never hands out more. */
#define FUZZ_INPUT_MAX (PROTO_LINE_MAX_DEFAULT + 64)

/* Print msg as a line and check it; abort on any broken promise. */
static void
fuzz_check_line(const cJSON *msg)
{
	char *line, *text;
	size_t len;
	cJSON *back;

	line = proto_json_line(msg);
	if (line == NULL)
		abort();
	len = strlen(line);
	if (len < 3 || line[len - 1] != '\n' ||
	    memchr(line, '\n', len - 1) != NULL || !proto_utf8_valid(line, len))
		abort();
	back = cJSON_ParseWithLength(line, len);
	if (!cJSON_IsObject(back))
		abort();
	cJSON_Delete(back);
	text = proto_text(msg);
	if (text == NULL || text[0] == '\0' || text[strlen(text) - 1] != '\n')
		abort();
	free(text);
	free(line);
}

/* Echo a decoded request's strings in an event, as the server would. */
static void
fuzz_echo(const struct proto_request *req)
{
	cJSON *ev;
	int i;

	ev = proto_event(PROTO_EV_CHAT, req->room, 1);
	if (ev == NULL)
		abort();
	if (req->name != NULL)
		cJSON_AddStringToObject(ev, "from", req->name);
	if (req->text != NULL)
		cJSON_AddStringToObject(ev, "text", req->text);
	if (req->move != NULL)
		cJSON_AddStringToObject(ev, "_picture", req->move);
	for (i = 0; i < req->noptions; i++)
		cJSON_AddStringToObject(
		    ev, req->options[i].key, req->options[i].value);
	fuzz_check_line(ev);
	cJSON_Delete(ev);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proto_request req;
	char err[256];
	enum proto_error e;
	cJSON *r;

	if (size > FUZZ_INPUT_MAX)
		return 0;
	e = proto_decode((const char *)data, size, &req, err, sizeof err);
	if (e == PROTO_OK) {
		if (req.verb >= PROTO_VERB_COUNT || req.cmd == NULL)
			abort();
		r = proto_reply(&req);
		fuzz_echo(&req);
	} else {
		if (e != PROTO_E_BAD_JSON && e != PROTO_E_BAD_REQUEST &&
		    e != PROTO_E_UNKNOWN_CMD)
			abort();
		if (err[0] == '\0' || !proto_utf8_valid(err, strlen(err)))
			abort();
		r = proto_error_reply(&req, e, err);
	}
	if (r == NULL)
		abort();
	fuzz_check_line(r);
	cJSON_Delete(r);
	proto_request_free(&req);
	return 0;
}
