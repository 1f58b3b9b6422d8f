/*
 * encode.c: builds replies, errors and events as cJSON objects and prints
 * them as one JSON line each, into a reused buffer. The request's id goes
 * back as the raw text it came as; members named "_..." are for text mode
 * and never printed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/protocol.h"

/* The hint of the welcome event, for people who connect by hand. */
#define ENCODE_HINT                                                            \
	"Type: hello YOURNAME   (JSON programs: "                              \
	"{\"cmd\":\"hello\",\"name\":\"ana\"}); help lists the commands"

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

/* Start a reply: {"re":cmd,"id":raw,"ok":ok}. */
static cJSON *
encode_start(const struct proto_request *req, int ok)
{
	cJSON *o;

	o = cJSON_CreateObject();
	if (o == NULL)
		return NULL;
	if (encode_add(o, "re",
	        req != NULL && req->cmd != NULL ? cJSON_CreateString(req->cmd)
	                                        : cJSON_CreateNull()) != 0 ||
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
	    (seq > 0 &&
	        encode_add(o, "seq", cJSON_CreateNumber((double)seq)) != 0)) {
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
 * JSON printing. cJSON builds the messages and parses requests; the line
 * is printed here, straight into a reused buffer, in exactly the bytes
 * cJSON_PrintUnformatted() gives (tests/unit/test_encode.c compares them),
 * but without a deep copy to leave out the "_..." members, without
 * printf for integers (cJSON prints each number with "%1.15g" and reads
 * it back with sscanf to check it) and without a malloc per message.
 */

/* First allocation of an encoding buffer: an event of a 9x9 board fits. */
#define ENCODE_OUT_MIN 1024

/* Integral numbers below this in magnitude print as plain integers (cJSON's
 * "%1.15g" writes every integer of 15 digits or fewer that way); others go
 * through cJSON's own number printer. */
#define ENCODE_EXACT 1e15

/* Room for any number cJSON prints ("%1.17g" and a sign). */
#define ENCODE_NUMBER_MAX 64

/* Grow o to hold n more bytes and the NUL; 0, or -1 out of memory. */
static int
encode_grow(struct proto_out *o, size_t n)
{
	size_t cap = o->cap < ENCODE_OUT_MIN ? ENCODE_OUT_MIN : o->cap;
	char *p;

	while (cap - o->len <= n) {
		if (cap > (size_t)-1 / 2)
			return -1;
		cap *= 2;
	}
	p = realloc(o->p, cap);
	if (p == NULL)
		return -1;
	o->p = p;
	o->cap = cap;
	return 0;
}

/* Append n bytes (short and frequent: kept inline, growing aside). */
static inline int
encode_put(struct proto_out *o, const char *s, size_t n)
{
	if (n >= o->cap - o->len && encode_grow(o, n) != 0)
		return -1;
	memcpy(o->p + o->len, s, n);
	o->len += n;
	return 0;
}

/* A string in quotes, escaped as cJSON does: \" \\ \b \f \n \r \t, other
 * control characters as \u00xx, everything else as it is. NULL prints as
 * "" (as in cJSON). */
static int
encode_string(struct proto_out *o, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)(s != NULL ? s : "");
	char esc[6] = {'\\', 'u', '0', '0', 0, 0};
	size_t run;

	if (encode_put(o, "\"", 1) != 0)
		return -1;
	for (;;) {
		for (run = 0; u[run] >= 0x20 && u[run] != '"' && u[run] != '\\';
		     run++)
			;
		if (run > 0 && encode_put(o, (const char *)u, run) != 0)
			return -1;
		u += run;
		if (*u == '\0')
			break;
		switch (*u) {
		case '"':
		case '\\':
			esc[1] = (char)*u;
			break;
		case '\b':
			esc[1] = 'b';
			break;
		case '\f':
			esc[1] = 'f';
			break;
		case '\n':
			esc[1] = 'n';
			break;
		case '\r':
			esc[1] = 'r';
			break;
		case '\t':
			esc[1] = 't';
			break;
		default:
			esc[1] = 'u';
			esc[4] = hex[*u >> 4];
			esc[5] = hex[*u & 0xf];
			break;
		}
		if (encode_put(o, esc, esc[1] == 'u' ? 6 : 2) != 0)
			return -1;
		u++;
	}
	return encode_put(o, "\"", 1);
}

/* A number as cJSON prints it: integers directly, the rest by cJSON. */
static int
encode_number(struct proto_out *o, const cJSON *item)
{
	char buf[ENCODE_NUMBER_MAX], *p = buf + sizeof buf;
	double d = item->valuedouble;
	unsigned long long u;
	long long v;

	/* -0 is printed "-0" by cJSON: left to it, as are fractions. */
	if (!(d > -ENCODE_EXACT && d < ENCODE_EXACT) ||
	    d != (double)(long long)d || (d == 0 && signbit(d))) {
		/* cJSON only reads the item (its API is not const). */
		if (!cJSON_PrintPreallocated((cJSON *)item, buf, sizeof buf, 0))
			return -1;
		return encode_put(o, buf, strlen(buf));
	}
	v = (long long)d;
	u = v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v;
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	if (v < 0)
		*--p = '-';
	return encode_put(o, p, (size_t)(buf + sizeof buf - p));
}

static int encode_value(struct proto_out *o, const cJSON *item);

/* An array's items or an object's members, the members named "_..." left
 * out. */
static int
encode_children(struct proto_out *o, const cJSON *item, int object)
{
	const cJSON *c;
	int first = 1;

	if (encode_put(o, object ? "{" : "[", 1) != 0)
		return -1;
	for (c = item->child; c != NULL; c = c->next) {
		if (object && c->string != NULL && c->string[0] == '_')
			continue;
		if (!first && encode_put(o, ",", 1) != 0)
			return -1;
		first = 0;
		if (object &&
		    (encode_string(o, c->string) != 0 ||
		        encode_put(o, ":", 1) != 0))
			return -1;
		if (encode_value(o, c) != 0)
			return -1;
	}
	return encode_put(o, object ? "}" : "]", 1);
}

static int
encode_value(struct proto_out *o, const cJSON *item)
{
	switch (item->type & 0xff) {
	case cJSON_NULL:
		return encode_put(o, "null", 4);
	case cJSON_False:
		return encode_put(o, "false", 5);
	case cJSON_True:
		return encode_put(o, "true", 4);
	case cJSON_Number:
		return encode_number(o, item);
	case cJSON_Raw:
		if (item->valuestring == NULL)
			return -1;
		return encode_put(
		    o, item->valuestring, strlen(item->valuestring));
	case cJSON_String:
		return encode_string(o, item->valuestring);
	case cJSON_Array:
		return encode_children(o, item, 0);
	case cJSON_Object:
		return encode_children(o, item, 1);
	default:
		return -1;
	}
}

int
proto_json_encode(struct proto_out *o, const cJSON *msg)
{
	o->len = 0;
	if (msg == NULL || encode_value(o, msg) != 0 ||
	    encode_put(o, "\n", 1) != 0) {
		o->len = 0;
		if (o->p != NULL)
			o->p[0] = '\0';
		return -1;
	}
	o->p[o->len] = '\0';
	return 0;
}

void
proto_out_free(struct proto_out *o)
{
	free(o->p);
	o->p = NULL;
	o->len = o->cap = 0;
}

char *
proto_json_line(const cJSON *msg)
{
	struct proto_out o = {NULL, 0, 0};

	if (proto_json_encode(&o, msg) != 0) {
		proto_out_free(&o);
		return NULL;
	}
	return o.p;
}
