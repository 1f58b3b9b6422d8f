/*
 * test_encode.c: proto_json_encode against what the server printed before
 * it (a deep copy with the "_..." members deleted, printed by
 * cJSON_PrintUnformatted, and "\n"), byte for byte, on many random
 * messages: every kind of value, numbers at the edges of cJSON's number
 * printer, strings with every byte, hidden members at every depth. Also:
 * a reused buffer holds exactly the last message, and text mode into a
 * reused buffer matches proto_text.
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "protocol/protocol.h"

/* Random messages compared, and how deep and wide they grow. */
#define ENCODE_TRIES 3000
#define ENCODE_DEPTH 4
#define ENCODE_WIDTH 6

static uint64_t encode_rng = 88172645463325252ULL;

/* xorshift64: the next random number. */
static uint64_t
encode_next(void)
{
	encode_rng ^= encode_rng << 13;
	encode_rng ^= encode_rng >> 7;
	encode_rng ^= encode_rng << 17;
	return encode_rng;
}

static unsigned
encode_below(unsigned n)
{
	return (unsigned)(encode_next() % n);
}

/* The old way: delete the members named "_..." at every depth. */
static void
reference_strip(cJSON *item)
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
			reference_strip(c);
	}
}

/* The old proto_json_line: copy, strip, print, add "\n". malloc'd. */
static char *
reference_line(const cJSON *msg)
{
	cJSON *copy = cJSON_Duplicate(msg, 1);
	char *text, *line;
	size_t len;

	reference_strip(copy);
	text = cJSON_PrintUnformatted(copy);
	cJSON_Delete(copy);
	if (text == NULL)
		return NULL;
	len = strlen(text);
	line = malloc(len + 2);
	memcpy(line, text, len);
	memcpy(line + len, "\n", 2);
	cJSON_free(text);
	return line;
}

/* A number at one of the edges of cJSON's printer, or a random one. */
static double
encode_number(void)
{
	static const double edges[] = {0.0, -0.0, 1.0, -1.0, 7.0, 10.0,
	    (double)INT_MAX, (double)INT_MAX + 1, (double)INT_MIN,
	    (double)INT_MIN - 1, 999999999999999.0, -999999999999999.0, 1e15,
	    -1e15, 1e15 + 1, 9007199254740991.0, 9007199254740992.0,
	    1763912345678.0, 1e300, -1e-300, 0.1, 0.5, -2.5, 1.0 / 3,
	    123456.789, 5e-324, DBL_MAX, 1e21, 12345678901234567890.0};
	double d;

	switch (encode_below(6)) {
	case 0:
		return edges[encode_below(sizeof edges / sizeof edges[0])];
	case 1: /* an integer of any size up to 2^53 */
		d = (double)(encode_next() >> (11 + encode_below(53)));
		return encode_below(2) ? -d : d;
	case 2: /* any double that is a number */
		do {
			uint64_t bits = encode_next();

			memcpy(&d, &bits, sizeof d);
		} while (isnan(d) || isinf(d));
		return d;
	case 3:
		return (double)(int)encode_next() / (1 + encode_below(1000));
	case 4:
		return encode_below(2)
		    ? NAN
		    : (encode_below(2) ? INFINITY : -INFINITY);
	default:
		return (double)encode_below(100000);
	}
}

/* A random string of any bytes but NUL, '_' first now and then. */
static void
encode_string(char *buf, size_t cap)
{
	static const char some[] = "\"\\/\b\f\n\r\t\x01\x1f\x7f _az\xc3\xa9";
	size_t n = encode_below((unsigned)cap - 1), i;

	for (i = 0; i < n; i++) {
		if (encode_below(3) == 0)
			buf[i] = some[encode_below(sizeof some - 1)];
		else
			buf[i] = (char)(1 + encode_below(255));
	}
	buf[n] = '\0';
	if (n > 0 && encode_below(4) == 0)
		buf[0] = '_';
}

static cJSON *encode_value(int depth);

/* An object or array of random members. */
static cJSON *
encode_container(int depth, int object)
{
	cJSON *o = object ? cJSON_CreateObject() : cJSON_CreateArray();
	unsigned i, n = encode_below(ENCODE_WIDTH + 1);
	char key[12];

	for (i = 0; i < n; i++) {
		cJSON *v = encode_value(depth + 1);

		if (!object || encode_below(20) == 0) {
			cJSON_AddItemToArray(o, v); /* in an object: no name */
			continue;
		}
		encode_string(key, sizeof key);
		if (encode_below(3) == 0)
			snprintf(key, sizeof key, "_picture");
		cJSON_AddItemToObject(o, key, v);
	}
	return o;
}

static cJSON *
encode_value(int depth)
{
	char s[24];
	unsigned kind = encode_below(depth < ENCODE_DEPTH ? 9 : 6);

	switch (kind) {
	case 0:
		return cJSON_CreateNull();
	case 1:
		return cJSON_CreateBool(encode_below(2));
	case 2:
	case 3:
		return cJSON_CreateNumber(encode_number());
	case 4:
		encode_string(s, sizeof s);
		return cJSON_CreateString(s);
	case 5:
		return cJSON_CreateRaw(encode_below(2) ? "\"id-7\"" : "-12");
	case 6:
		return encode_container(depth, 0);
	default:
		return encode_container(depth, 1);
	}
}

/* Random messages: the new printer against the old one. */
static void
encode_random(void)
{
	struct proto_out o = {NULL, 0, 0};
	int i, same = 0;

	for (i = 0; i < ENCODE_TRIES; i++) {
		cJSON *msg = encode_container(0, 1);
		char *want = reference_line(msg);

		CHECK(want != NULL);
		CHECK_INT(proto_json_encode(&o, msg), 0);
		if (want != NULL && o.p != NULL && strcmp(o.p, want) == 0 &&
		    o.len == strlen(want))
			same++;
		else if (want != NULL && o.p != NULL)
			CHECK_STR(o.p, want);
		free(want);
		cJSON_Delete(msg);
	}
	CHECK_INT(same, ENCODE_TRIES);
	proto_out_free(&o);
}

/* Each number alone, so a mismatch names it. */
static void
encode_numbers(void)
{
	int i;

	for (i = 0; i < ENCODE_TRIES; i++) {
		cJSON *msg = cJSON_CreateArray();
		char *want, *got;

		cJSON_AddItemToArray(msg, cJSON_CreateNumber(encode_number()));
		want = reference_line(msg);
		got = proto_json_line(msg);
		CHECK_STR(got, want);
		free(want);
		free(got);
		cJSON_Delete(msg);
	}
}

/* A reused buffer: a long message, then a short one, holds only the short
 * one; a message that cannot be printed leaves it empty. */
static void
encode_reuse(void)
{
	struct proto_out o = {NULL, 0, 0};
	cJSON *big = cJSON_CreateObject(), *small = cJSON_CreateObject();
	cJSON *bad = cJSON_CreateObject(), *raw = cJSON_CreateRaw("1");
	char long_text[5000];

	memset(long_text, 'a', sizeof long_text - 1);
	long_text[sizeof long_text - 1] = '\0';
	cJSON_AddStringToObject(big, "text", long_text);
	cJSON_AddNumberToObject(small, "seq", 3);
	cJSON_AddStringToObject(small, "_picture", long_text);
	CHECK_INT(proto_json_encode(&o, big), 0);
	CHECK_INT(o.len, strlen(long_text) + 12);
	CHECK_INT(proto_json_encode(&o, small), 0);
	CHECK_STR(o.p, "{\"seq\":3}\n");
	CHECK_INT(o.len, 10);
	CHECK(o.cap > 5000);
	/* cJSON refuses a raw item without text; so does the encoder */
	free(raw->valuestring);
	raw->valuestring = NULL;
	cJSON_AddItemToObject(bad, "x", raw);
	CHECK_INT(proto_json_encode(&o, bad), -1);
	CHECK(cJSON_PrintUnformatted(bad) == NULL);
	CHECK_INT(o.len, 0);
	CHECK_STR(o.p, "");
	CHECK_INT(proto_json_encode(&o, NULL), -1);
	proto_out_free(&o);
	CHECK(o.p == NULL && o.cap == 0);
	cJSON_Delete(big);
	cJSON_Delete(small);
	cJSON_Delete(bad);
}

/* Text mode into a reused buffer is proto_text's rendering. */
static void
encode_text(void)
{
	struct proto_out o = {NULL, 0, 0};
	cJSON *ev = proto_event(PROTO_EV_CHAT, "r1", 4);
	cJSON *err = proto_error_reply(NULL, PROTO_E_ILLEGAL_MOVE, "no");
	char *want;

	cJSON_AddStringToObject(ev, "from", "ana");
	cJSON_AddStringToObject(ev, "text", "hello\nthere");
	want = proto_text(ev);
	CHECK_INT(proto_text_encode(&o, ev), 0);
	CHECK_STR(o.p, want);
	CHECK_INT(o.len, strlen(want));
	free(want);
	want = proto_text(err);
	CHECK_INT(proto_text_encode(&o, err), 0);
	CHECK_STR(o.p, want);
	CHECK_STR(o.p, "error (illegal_move): no\n");
	CHECK_INT(o.len, strlen(want));
	free(want);
	proto_out_free(&o);
	cJSON_Delete(ev);
	cJSON_Delete(err);
}

int
main(void)
{
	encode_random();
	encode_numbers();
	encode_reuse();
	encode_text();
	return check_done();
}
