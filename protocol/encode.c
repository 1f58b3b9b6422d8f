/*
 * encode.c: builds replies, errors and events as cJSON objects and prints
 * them as one JSON line each, into a reused buffer. The request's id goes
 * back as the raw text it came as; members named "_..." are for text mode
 * and never printed; the lean form of an event (events.c) leaves out more.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/protocol.h"

/* The hint of the welcome event, for people who connect by hand. */
#define ENCODE_HINT                                                            \
	"Welcome! To play, type: hello YOURNAME (help lists the commands). "   \
	"Programs speak JSON lines: {\"cmd\":\"hello\",\"name\":\"ana\"}"

/* Add item as member `key`, a string constant that is not copied (one
 * allocation less per member); 0, or -1 (item freed) out of memory. */
static int
encode_add(cJSON *o, const char *key, cJSON *item)
{
	if (item == NULL)
		return -1;
	if (!cJSON_AddItemToObjectCS(o, key, item)) {
		cJSON_Delete(item);
		return -1;
	}
	return 0;
}

/* A reply's "re": the request's cmd, as a reference to the verb's
 * constant name when it is one (no copy, for the busiest replies). */
static cJSON *
encode_re(const struct proto_request *req)
{
	const char *name;

	if (req == NULL || req->cmd == NULL)
		return cJSON_CreateNull();
	name = proto_verb_name(req->verb);
	if (name != NULL && strcmp(name, req->cmd) == 0)
		return cJSON_CreateStringReference(name);
	return cJSON_CreateString(req->cmd);
}

/* Start a reply: {"re":cmd,"id":raw,"ok":ok}. */
static cJSON *
encode_start(const struct proto_request *req, int ok)
{
	cJSON *o;

	o = cJSON_CreateObject();
	if (o == NULL)
		return NULL;
	if (encode_add(o, "re", encode_re(req)) != 0 ||
	    (req != NULL && req->id != NULL &&
	        encode_add(o, "id", cJSON_CreateRaw(req->id)) != 0) ||
	    encode_add(o, "ok", cJSON_CreateBool(ok)) != 0) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
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
	if (encode_add(o, "error",
	        cJSON_CreateStringReference(proto_error_code(e))) != 0 ||
	    encode_add(o, "message", cJSON_CreateString(message)) != 0) {
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
	if (encode_add(o, "event", cJSON_CreateStringReference(name)) != 0 ||
	    (room != NULL &&
	        encode_add(o, "room", cJSON_CreateString(room)) != 0) ||
	    (seq > 0 && encode_add(o, "seq", proto_int(seq)) != 0)) {
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

/*
 * JSON printing: cJSON prints the line, with cJSON_PrintPreallocated()
 * into the reused buffer. The members named "_..." are taken out of the
 * message first (cJSON_DetachItemViaPointer) and linked back where they
 * were after, so nothing is copied.
 *
 * Linked back by hand, through the next/prev links cJSON documents, not
 * with cJSON_InsertItemInArray: the cJSON 1.7.15 of Debian 12 (the
 * backported fix for CVE-2023-50471) refuses to insert an item whose prev
 * is NULL (as a detached item's is) anywhere but first or last; upstream
 * fixed that in 1.7.18.
 */

/* First allocation of an encoding buffer: a moved event of a 9x9 board
 * (its position, board rows and clocks, about 700 bytes) fits. */
#define ENCODE_OUT_MIN 1024

/* First allocation of the list of members left out: an event has one
 * (its "_picture"), a lean moved event up to seven; no growth for those. */
#define ENCODE_HIDDEN_MIN 8

/* A member left out of the printed line, and where to put it back. */
struct proto_hidden {
	cJSON *parent; /* the object it was a member of */
	cJSON *item;
	cJSON *prev; /* the member before it; NULL: it was the first */
	cJSON *next; /* the member after it; NULL: it was the last */
};

/* Take item, a member of parent, out, recording where it was in
 * o->hidden[*n]; 0, or -1 out of memory (then nothing is taken out). */
static int
encode_hide_one(struct proto_out *o, size_t *n, cJSON *parent, cJSON *item)
{
	struct proto_hidden *h;
	size_t cap;

	if (*n == o->hiddencap) {
		cap = o->hiddencap == 0 ? ENCODE_HIDDEN_MIN : o->hiddencap * 2;
		h = realloc(o->hidden, cap * sizeof *h);
		if (h == NULL)
			return -1;
		o->hidden = h;
		o->hiddencap = cap;
	}
	o->hidden[(*n)++] = (struct proto_hidden){parent, item,
	    item == parent->child ? NULL : item->prev, item->next};
	cJSON_DetachItemViaPointer(parent, item);
	return 0;
}

/* Take the members named "_..." out of item's objects at every depth,
 * recording them in o->hidden from *n on; 0, or -1 out of memory (what was
 * taken out is recorded all the same). */
static int
encode_hide(struct proto_out *o, size_t *n, cJSON *item)
{
	cJSON *c, *next;
	int object = cJSON_IsObject(item);

	for (c = item->child; c != NULL; c = next) {
		next = c->next;
		if (object && c->string != NULL && c->string[0] == '_') {
			if (encode_hide_one(o, n, item, c) != 0)
				return -1;
		} else if (c->child != NULL && encode_hide(o, n, c) != 0)
			return -1;
	}
	return 0;
}

/* Link h's member back between its neighbours. Done last taken out first,
 * each list is then as it was just after the member was taken out, so the
 * neighbours are the recorded ones. cJSON's lists: the first member's prev
 * is the last member, the last one's next is NULL. */
static void
encode_unhide_one(const struct proto_hidden *h)
{
	cJSON *it = h->item;

	it->next = h->next;
	if (h->prev == NULL) {
		it->prev =
		    h->parent->child != NULL ? h->parent->child->prev : it;
		h->parent->child = it;
	} else {
		it->prev = h->prev;
		h->prev->next = it;
	}
	if (h->next != NULL)
		h->next->prev = it;
	else
		h->parent->child->prev = it;
}

/* Put the first n recorded members back, last taken out first. */
static void
encode_unhide(struct proto_out *o, size_t n)
{
	while (n > 0)
		encode_unhide_one(&o->hidden[--n]);
}

/* Make o's buffer at least need bytes, doubling from ENCODE_OUT_MIN; 0,
 * or -1 out of memory (or past what cJSON can print into). */
static int
encode_reserve(struct proto_out *o, size_t need)
{
	size_t cap = o->cap < ENCODE_OUT_MIN ? ENCODE_OUT_MIN : o->cap;
	char *p;

	while (cap < need) {
		if (cap > INT_MAX / 2)
			return -1;
		cap *= 2;
	}
	if (cap == o->cap)
		return 0;
	p = realloc(o->p, cap);
	if (p == NULL)
		return -1;
	o->p = p;
	o->cap = cap;
	return 0;
}

/* Print msg (its hidden members out) into o->p, leaving a byte for the
 * "\n". When the buffer is too small, cJSON_PrintPreallocated() fails
 * without saying why, so cJSON's allocating printer settles it once: it
 * fails only for a message that cannot be printed (or out of memory), and
 * its length sizes the buffer (no retries in a loop). 0, or -1. */
static int
encode_print(struct proto_out *o, cJSON *msg)
{
	char *text;
	size_t len;

	if (encode_reserve(o, ENCODE_OUT_MIN) != 0)
		return -1;
	/* o->cap can be over INT_MAX after text mode used the buffer. */
	if (cJSON_PrintPreallocated(msg, o->p,
	        o->cap - 1 > INT_MAX ? INT_MAX : (int)(o->cap - 1), 0))
		return 0;
	text = cJSON_PrintUnformatted(msg);
	if (text == NULL)
		return -1;
	len = strlen(text);
	if (encode_reserve(o, len + 2) != 0) {
		cJSON_free(text);
		return -1;
	}
	memcpy(o->p, text, len + 1);
	cJSON_free(text);
	return 0;
}

/* The kind of event msg is, when the lean form of it differs from the
 * full one; PROTO_EV_COUNT for anything else (a reply, or an event the
 * same in both forms). */
static enum proto_event_kind
encode_lean_kind(const cJSON *msg)
{
	const cJSON *ev = cJSON_GetObjectItemCaseSensitive(msg, "event");

	if (!cJSON_IsString(ev))
		return PROTO_EV_COUNT;
	return proto_event_from_name(ev->valuestring);
}

/* Take out, recording them in o->hidden from *n on, the members of msg
 * that the lean form of its event leaves out; 0, or -1 out of memory. */
static int
encode_hide_lean(struct proto_out *o, size_t *n, cJSON *msg)
{
	enum proto_event_kind e = encode_lean_kind(msg);
	cJSON *c, *next;

	if (e == PROTO_EV_COUNT)
		return 0;
	for (c = msg->child; c != NULL; c = next) {
		next = c->next;
		if (proto_event_lean_drops(e, c) &&
		    encode_hide_one(o, n, msg, c) != 0)
			return -1;
	}
	return 0;
}

/* msg as one JSON line into o, in the lean form when lean is 1. */
static int
encode_json(struct proto_out *o, const cJSON *msg, int lean)
{
	/* cJSON's printer is not const: msg is put back as it was. */
	cJSON *m = (cJSON *)msg;
	size_t n = 0;
	int rc;

	o->len = 0;
	if (m == NULL)
		rc = -1;
	else {
		rc = encode_hide(o, &n, m);
		if (rc == 0 && lean)
			rc = encode_hide_lean(o, &n, m);
		if (rc == 0)
			rc = encode_print(o, m);
		encode_unhide(o, n);
	}
	if (rc != 0) {
		if (o->p != NULL)
			o->p[0] = '\0';
		return -1;
	}
	o->len = strlen(o->p);
	o->p[o->len++] = '\n';
	o->p[o->len] = '\0';
	return 0;
}

int
proto_json_encode(struct proto_out *o, const cJSON *msg)
{
	return encode_json(o, msg, 0);
}

int
proto_json_encode_lean(struct proto_out *o, const cJSON *msg)
{
	return encode_json(o, msg, 1);
}

void
proto_out_free(struct proto_out *o)
{
	free(o->p);
	free(o->hidden);
	*o = (struct proto_out){0};
}

char *
proto_json_line(const cJSON *msg)
{
	struct proto_out o = {0};

	if (proto_json_encode(&o, msg) != 0) {
		proto_out_free(&o);
		return NULL;
	}
	free(o.hidden);
	return o.p;
}
