/*
 * request.c: decodes one line into a struct proto_request. JSON lines are
 * checked here (NUL bytes, nesting depth, "\u0000", the raw text of "id",
 * the verb) and their fields handed to fields.c; other lines go to
 * shorthand.c.
 */
#include <stdlib.h>
#include <string.h>

#include "protocol/protocol.h"

/* Whether a byte is JSON whitespace. */
static int
request_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

int
proto_line_is_json(const char *line, size_t len)
{
	size_t i = 0;

	while (i < len && request_space(line[i]))
		i++;
	return i < len && line[i] == '{';
}

char *
proto_cmd_copy(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || len > PROTO_CMD_MAX || !proto_utf8_valid(s, len))
		return NULL;
	for (i = 0; i < len; i++) {
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return NULL;
	}
	return proto_strndup(s, len);
}

/*
 * Scan a line that cJSON will parse: refuse nesting deeper than
 * PROTO_JSON_DEPTH_MAX (before cJSON recurses into it) and "\u0000" in a
 * string (cJSON would cut the string there without a word).
 */
static enum proto_error
request_scan(const char *s, size_t len, char *err, size_t errlen)
{
	size_t i;
	int depth = 0, instr = 0;

	for (i = 0; i < len; i++) {
		if (instr) {
			if (s[i] == '"')
				instr = 0;
			else if (s[i] == '\\' && i + 1 < len) {
				if (len - i >= 6 &&
				    memcmp(s + i + 1, "u0000", 5) == 0) {
					proto_errf(err, errlen,
					    "\\u0000 is not "
					    "allowed in a string");
					return PROTO_E_BAD_JSON;
				}
				i++;
			}
			continue;
		}
		if (s[i] == '"')
			instr = 1;
		else if (s[i] == '{' || s[i] == '[') {
			if (++depth > PROTO_JSON_DEPTH_MAX) {
				proto_errf(err, errlen,
				    "JSON nested deeper "
				    "than %d levels",
				    PROTO_JSON_DEPTH_MAX);
				return PROTO_E_BAD_JSON;
			}
		} else if (s[i] == '}' || s[i] == ']')
			depth--;
	}
	return PROTO_OK;
}

/* Skip a JSON string starting at s[i] == '"': the index after it. */
static size_t
request_skip_string(const char *s, size_t len, size_t i)
{
	for (i++; i < len; i++) {
		if (s[i] == '\\')
			i++;
		else if (s[i] == '"')
			return i + 1;
	}
	return len;
}

/* Skip one JSON value starting at s[i] (already known to be valid JSON):
 * the index after it. */
static size_t
request_skip_value(const char *s, size_t len, size_t i)
{
	int depth = 0;

	while (i < len) {
		if (s[i] == '"') {
			i = request_skip_string(s, len, i);
			if (depth == 0)
				return i;
			continue;
		}
		if (s[i] == '{' || s[i] == '[')
			depth++;
		else if (s[i] == '}' || s[i] == ']') {
			if (depth == 0)
				return i;
			if (--depth == 0)
				return i + 1;
		} else if (depth == 0 && (s[i] == ',' || request_space(s[i])))
			return i;
		i++;
	}
	return i;
}

/* Whether the raw key text (with quotes) s[0..len) reads "id". */
static int
request_key_is_id(const char *s, size_t len)
{
	cJSON *k;
	int yes;

	if (memchr(s, '\\', len) == NULL)
		return len == 4 && memcmp(s, "\"id\"", 4) == 0;
	k = cJSON_ParseWithLength(s, len);
	yes = cJSON_IsString(k) && strcmp(k->valuestring, "id") == 0;
	cJSON_Delete(k);
	return yes;
}

/*
 * Find the raw text of the first top-level "id" member of a JSON object
 * that cJSON has already accepted. 1 and the span set, else 0.
 */
static int
request_find_id(const char *s, size_t len, size_t *start, size_t *end)
{
	size_t i = 0, k;

	while (i < len && request_space(s[i]))
		i++;
	if (i == len || s[i] != '{')
		return 0;
	i++;
	for (;;) {
		while (i < len && (request_space(s[i]) || s[i] == ','))
			i++;
		if (i >= len || s[i] != '"')
			return 0;
		k = i;
		i = request_skip_string(s, len, i);
		if (request_key_is_id(s + k, i - k)) {
			while (i < len && (request_space(s[i]) || s[i] == ':'))
				i++;
			*start = i;
			*end = request_skip_value(s, len, i);
			return 1;
		}
		while (i < len && (request_space(s[i]) || s[i] == ':'))
			i++;
		i = request_skip_value(s, len, i);
	}
}

/* Whether raw number text is a JSON integer: -?(0|[1-9][0-9]*). */
static int
request_raw_integer(const char *s, size_t len)
{
	size_t i = 0;

	if (i < len && s[i] == '-')
		i++;
	if (i == len)
		return 0;
	if (s[i] == '0')
		return i + 1 == len;
	for (; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
	}
	return 1;
}

/* Take the id of a JSON request as raw text: a string or an integer. */
static enum proto_error
request_id(const char *line, size_t len, const cJSON *root,
    struct proto_request *req, char *err, size_t errlen)
{
	const cJSON *id;
	size_t a, b, i;

	id = cJSON_GetObjectItemCaseSensitive(root, "id");
	if (id == NULL)
		return PROTO_OK;
	if (!request_find_id(line, len, &a, &b) || b <= a) {
		proto_errf(err, errlen, "field 'id' could not be read");
		return PROTO_E_BAD_REQUEST;
	}
	if (b - a > PROTO_ID_MAX) {
		proto_errf(err, errlen, "field 'id' is longer than %d bytes",
		    PROTO_ID_MAX);
		return PROTO_E_BAD_REQUEST;
	}
	if (cJSON_IsString(id)) {
		if (!proto_utf8_valid(line + a, b - a)) {
			proto_errf(err, errlen,
			    "field 'id' is not valid "
			    "UTF-8");
			return PROTO_E_BAD_REQUEST;
		}
		for (i = a; i < b; i++) {
			if ((unsigned char)line[i] < 0x20) {
				proto_errf(err, errlen,
				    "field 'id' contains "
				    "a control character");
				return PROTO_E_BAD_REQUEST;
			}
		}
	} else if (!cJSON_IsNumber(id) ||
	    !request_raw_integer(line + a, b - a)) {
		proto_errf(err, errlen,
		    "field 'id' must be a string or an "
		    "integer");
		return PROTO_E_BAD_REQUEST;
	}
	req->id = proto_strndup(line + a, b - a);
	if (req->id == NULL) {
		proto_errf(err, errlen, "out of memory");
		return PROTO_E_INTERNAL;
	}
	return PROTO_OK;
}

/* Read "cmd" into req->cmd and req->verb. */
static enum proto_error
request_cmd(
    const cJSON *root, struct proto_request *req, char *err, size_t errlen)
{
	const cJSON *cmd;

	cmd = cJSON_GetObjectItemCaseSensitive(root, "cmd");
	if (cmd == NULL || cJSON_IsNull(cmd)) {
		proto_errf(err, errlen, "field 'cmd' is required");
		return PROTO_E_BAD_REQUEST;
	}
	if (!cJSON_IsString(cmd)) {
		proto_errf(err, errlen, "field 'cmd' must be a string");
		return PROTO_E_BAD_REQUEST;
	}
	req->cmd = proto_cmd_copy(cmd->valuestring, strlen(cmd->valuestring));
	req->verb = proto_verb_from_name(cmd->valuestring);
	if (req->verb == PROTO_VERB_COUNT)
		return proto_unknown_cmd(req, err, errlen);
	return PROTO_OK;
}

/* Decode a JSON line. */
static enum proto_error
request_json(const char *line, size_t len, struct proto_request *req, char *err,
    size_t errlen)
{
	cJSON *root;
	const char *end = NULL;
	enum proto_error e, eid;
	size_t rest;
	unsigned fields;
	int f;

	if (memchr(line, '\0', len) != NULL) {
		proto_errf(err, errlen, "the line contains a NUL byte");
		return PROTO_E_BAD_JSON;
	}
	e = request_scan(line, len, err, errlen);
	if (e != PROTO_OK)
		return e;
	root = cJSON_ParseWithLengthOpts(line, len, &end, 0);
	if (root == NULL) {
		proto_errf(err, errlen,
		    "the line is not valid JSON (at byte "
		    "%zu)",
		    end != NULL && end >= line ? (size_t)(end - line)
		                               : (size_t)0);
		return PROTO_E_BAD_JSON;
	}
	rest = len - (size_t)(end - line);
	while (rest > 0 && request_space(end[0])) {
		end++;
		rest--;
	}
	if (rest > 0) {
		cJSON_Delete(root);
		proto_errf(err, errlen,
		    "unexpected text after the JSON "
		    "object");
		return PROTO_E_BAD_JSON;
	}
	if (!cJSON_IsObject(root)) {
		cJSON_Delete(root);
		proto_errf(err, errlen, "a request must be a JSON object");
		return PROTO_E_BAD_REQUEST;
	}
	/* cmd first, so that an error about the id still echoes it */
	e = request_cmd(root, req, err, errlen);
	eid = request_id(
	    line, len, root, req, e == PROTO_OK ? err : NULL, errlen);
	if (e == PROTO_OK)
		e = eid;
	fields = proto_verb_fields(req->verb);
	for (f = 0; e == PROTO_OK && f < PROTO_F_COUNT; f++) {
		if (!(fields & 1u << f))
			continue;
		e = proto_field_json(req, (enum proto_field)f,
		    cJSON_GetObjectItemCaseSensitive(
		        root, proto_field_name((enum proto_field)f)),
		    err, errlen);
	}
	cJSON_Delete(root);
	if (e == PROTO_OK)
		e = proto_request_check(req, err, errlen);
	return e;
}

enum proto_error
proto_decode(const char *line, size_t len, struct proto_request *req, char *err,
    size_t errlen)
{
	memset(req, 0, sizeof *req);
	req->verb = PROTO_VERB_COUNT;
	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (proto_line_is_json(line, len)) {
		req->shorthand = 0;
		return request_json(line, len, req, err, errlen);
	}
	req->shorthand = 1;
	return proto_decode_shorthand(line, len, req, err, errlen);
}
