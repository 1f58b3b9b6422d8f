/*
 * test_encode.c: proto_json_encode against the plain way (a deep copy with
 * the "_..." members deleted, printed by cJSON_PrintUnformatted, and
 * "\n"), byte for byte, on many random messages: every kind of value,
 * strings with every byte, hidden members at every depth. After each
 * encoding the message is as it was: the same items in the same order,
 * every link intact, and cJSON prints it as before. Also: a big message
 * (a long history) grows the buffer, a reused buffer holds exactly the
 * last message, and text mode into a reused buffer matches proto_text.
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

/* Items (at most ENCODE_SHAPE_MAX) of a message in document order. */
#define ENCODE_SHAPE_MAX 40000

struct encode_shape {
	const cJSON *item[ENCODE_SHAPE_MAX];
	size_t n;
	int broken; /* a link is wrong somewhere */
};

/* Record item and everything under it, checking each list's links: every
 * next's prev is the item before it, the first one's prev is the last. */
static void
encode_shape_of(struct encode_shape *sh, const cJSON *item)
{
	const cJSON *c, *last = NULL;

	if (sh->n < ENCODE_SHAPE_MAX)
		sh->item[sh->n] = item;
	sh->n++;
	for (c = item->child; c != NULL; c = c->next) {
		if (c != item->child && c->prev != last)
			sh->broken = 1;
		last = c;
		encode_shape_of(sh, c);
	}
	if (item->child != NULL && item->child->prev != last)
		sh->broken = 1;
}

static struct encode_shape encode_before, encode_after;

/* Whether an object at any depth of item has a member named "_...". */
static int
encode_has_hidden(const cJSON *item)
{
	const cJSON *c;

	for (c = item->child; c != NULL; c = c->next) {
		if (cJSON_IsObject(item) && c->string != NULL &&
		    c->string[0] == '_')
			return 1;
		if (encode_has_hidden(c))
			return 1;
	}
	return 0;
}

/* Encode msg into o and check it all: the line is the plain way's, no
 * "_" member in it, msg unchanged (items, order, links, its print). 1 when
 * everything holds. */
static int
encode_check(struct proto_out *o, const cJSON *msg)
{
	char *want = reference_line(msg), *full = cJSON_PrintUnformatted(msg);
	char *again;
	cJSON *parsed;
	int ok = 1;

	encode_before.n = encode_after.n = 0;
	encode_before.broken = encode_after.broken = 0;
	encode_shape_of(&encode_before, msg);
	if (want == NULL || full == NULL || encode_before.broken ||
	    encode_before.n > ENCODE_SHAPE_MAX)
		ok = 0;
	if (proto_json_encode(o, msg) != 0 || o->p == NULL ||
	    o->len != strlen(o->p))
		ok = 0;
	else if (want != NULL && strcmp(o->p, want) != 0) {
		CHECK_STR(o->p, want);
		ok = 0;
	}
	parsed = ok ? cJSON_ParseWithLength(o->p, o->len) : NULL;
	if (parsed == NULL || encode_has_hidden(parsed))
		ok = 0;
	encode_shape_of(&encode_after, msg);
	if (encode_after.broken || encode_after.n != encode_before.n ||
	    memcmp(encode_after.item, encode_before.item,
	        (encode_before.n < ENCODE_SHAPE_MAX ? encode_before.n
	                                            : ENCODE_SHAPE_MAX) *
	            sizeof encode_before.item[0]) != 0)
		ok = 0;
	again = cJSON_PrintUnformatted(msg);
	if (again == NULL || full == NULL || strcmp(again, full) != 0)
		ok = 0;
	cJSON_Delete(parsed);
	cJSON_free(again);
	cJSON_free(full);
	free(want);
	return ok;
}

/* Random messages: proto_json_encode against the plain way. */
static void
encode_random(void)
{
	struct proto_out o = {0};
	int i, same = 0;

	for (i = 0; i < ENCODE_TRIES; i++) {
		cJSON *msg = encode_container(0, 1);

		same += encode_check(&o, msg);
		cJSON_Delete(msg);
	}
	CHECK_INT(same, ENCODE_TRIES);
	proto_out_free(&o);
}

/* Hidden members first, last, side by side and many in one object (more
 * than the first allocation of their records), and in arrays of objects:
 * all back in their places. */
static void
encode_hidden_places(void)
{
	struct proto_out o = {0};
	cJSON *msg = cJSON_CreateObject(), *arr, *one;
	char key[16];
	int i;

	cJSON_AddStringToObject(msg, "_first", "x");
	cJSON_AddStringToObject(msg, "_second", "y");
	cJSON_AddNumberToObject(msg, "seq", 7);
	for (i = 0; i < 40; i++) {
		snprintf(key, sizeof key, i % 3 ? "k%d" : "_h%d", i);
		cJSON_AddNumberToObject(msg, key, i);
	}
	arr = cJSON_AddArrayToObject(msg, "moves");
	for (i = 0; i < 5; i++) {
		one = cJSON_CreateObject();
		cJSON_AddStringToObject(one, "_only", "z");
		cJSON_AddItemToArray(arr, one);
	}
	cJSON_AddStringToObject(msg, "_picture", "board");
	cJSON_AddStringToObject(msg, "_last", "board");
	CHECK(encode_check(&o, msg));
	CHECK_INT(
	    strncmp(o.p, "{\"seq\":7,\"k1\":1,\"k2\":2,\"k4\":4,", 29), 0);
	CHECK(strstr(o.p, "\"moves\":[{},{},{},{},{}]}\n") != NULL);
	/* the tail link is right: an added member goes last */
	cJSON_AddNumberToObject(msg, "end", 1);
	CHECK_STR(cJSON_GetArrayItem(msg, cJSON_GetArraySize(msg) - 2)->string,
	    "_last");
	CHECK(encode_check(&o, msg));
	CHECK(strstr(o.p, "]},\"end\":1}\n") != NULL ||
	    strstr(o.p, "],\"end\":1}\n") != NULL);
	/* only hidden members: an empty object */
	cJSON_Delete(msg);
	msg = cJSON_CreateObject();
	cJSON_AddStringToObject(msg, "_picture", "board");
	CHECK(encode_check(&o, msg));
	CHECK_STR(o.p, "{}\n");
	cJSON_Delete(msg);
	proto_out_free(&o);
}

/* A long history (a big reply) grows the buffer by doubling, prints as
 * cJSON does, and a short message after it fits the same buffer. */
static void
encode_big(void)
{
	struct proto_out o = {0};
	cJSON *small = proto_event(PROTO_EV_CHAT, "r1", 2);
	cJSON *big = proto_event(PROTO_EV_MOVED, "r1", 5001), *moves, *m;
	size_t cap;
	int i;

	cJSON_AddStringToObject(small, "text", "hi");
	CHECK(encode_check(&o, small));
	cap = o.cap;
	CHECK(cap > o.len);
	moves = cJSON_AddArrayToObject(big, "history");
	for (i = 0; i < 5000; i++) {
		m = cJSON_CreateObject();
		cJSON_AddNumberToObject(m, "n", i + 1);
		cJSON_AddStringToObject(m, "move", "a1-b2");
		cJSON_AddStringToObject(m, "seat", i % 2 ? "white" : "black");
		cJSON_AddNumberToObject(m, "ms", 299999 - i);
		cJSON_AddStringToObject(m, "_sentence", "black clones to b2");
		cJSON_AddItemToArray(moves, m);
	}
	cJSON_AddStringToObject(big, "_picture", "a board");
	CHECK(encode_check(&o, big));
	CHECK(o.len > 200000);
	CHECK(o.cap > o.len + 1);
	CHECK(o.cap / 2 < o.len + 2);            /* not more than doubling */
	CHECK_INT(o.cap % cap, 0);               /* doubled from the first */
	CHECK_INT(o.cap & (o.cap / cap - 1), 0); /* by a power of two */
	CHECK(strstr(o.p, "_sentence") == NULL);
	cap = o.cap;
	CHECK(encode_check(&o, small));
	CHECK_INT(o.cap, cap);
	CHECK_STR(o.p,
	    "{\"event\":\"chat\",\"room\":\"r1\",\"seq\":2,\"text\":\"hi\"}\n");
	/* the same big line through proto_json_line */
	CHECK(encode_check(&o, big));
	{
		char *line = proto_json_line(big);

		CHECK_STR(line, o.p);
		free(line);
	}
	cJSON_Delete(small);
	cJSON_Delete(big);
	proto_out_free(&o);
}

/* A reused buffer: a long message, then a short one, holds only the short
 * one; a message that cannot be printed leaves it empty, unchanged. */
static void
encode_reuse(void)
{
	struct proto_out o = {0};
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
	cJSON_AddStringToObject(bad, "_picture", "board");
	cJSON_AddItemToObject(bad, "x", raw);
	CHECK_INT(proto_json_encode(&o, bad), -1);
	CHECK(cJSON_PrintUnformatted(bad) == NULL);
	CHECK_INT(o.len, 0);
	CHECK_STR(o.p, "");
	CHECK_STR(bad->child->string, "_picture");
	CHECK(bad->child->next == raw && bad->child->prev == raw);
	CHECK_INT(proto_json_encode(&o, NULL), -1);
	proto_out_free(&o);
	CHECK(o.p == NULL && o.cap == 0 && o.hidden == NULL);
	cJSON_Delete(big);
	cJSON_Delete(small);
	cJSON_Delete(bad);
}

/* Text mode into a reused buffer is proto_text's rendering, also in a
 * buffer JSON used before (the server keeps one for both), and JSON after
 * it. */
static void
encode_text(void)
{
	struct proto_out o = {0};
	cJSON *ev = proto_event(PROTO_EV_CHAT, "r1", 4);
	cJSON *err = proto_error_reply(NULL, PROTO_E_ILLEGAL_MOVE, "no");
	cJSON *moved = proto_event(PROTO_EV_MOVED, "r1", 5);
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
	/* a picture: shown in text, left out of JSON, both in one buffer */
	cJSON_AddStringToObject(moved, "move", "a1-b2");
	cJSON_AddStringToObject(moved, "_picture", "  a b\n1 x .\n");
	CHECK(encode_check(&o, moved));
	CHECK(strstr(o.p, "x .") == NULL);
	CHECK_INT(proto_text_encode(&o, moved), 0);
	CHECK(strstr(o.p, "1 x .\n") != NULL);
	CHECK_INT(o.len, strlen(o.p));
	CHECK(encode_check(&o, moved));
	proto_out_free(&o);
	cJSON_Delete(ev);
	cJSON_Delete(err);
	cJSON_Delete(moved);
}

/* proto_int prints as cJSON prints the same number (up to 15 digits,
 * where "%1.15g" writes every integer plainly) and exactly beyond;
 * proto_number reads it back, and only integers as proto_int writes them. */
static void
encode_ints(void)
{
	static const long long edges[] = {0, 1, -1, 9, 10, -10, 99, 100,
	    2147483647LL, -2147483648LL, 999999999999999LL, -999999999999999LL,
	    1763912345678LL};
	static const char *not_ints[] = {"\"7\"", "1.5", "01", "-", "", "1e3",
	    "+1", " 1", "1 ", "1234567890123456789", "--1", "null"};
	char want[64];
	size_t i;
	double d;

	for (i = 0; i < sizeof edges / sizeof edges[0] + 2000; i++) {
		unsigned shift = 14 + encode_below(50);
		long long v = (long long)(encode_next() >> shift);
		cJSON *raw, *num;
		char *r, *n;

		if (i < sizeof edges / sizeof edges[0])
			v = edges[i];
		else if (encode_below(2))
			v = -v;
		raw = proto_int(v);
		num = cJSON_CreateNumber((double)v);
		r = cJSON_PrintUnformatted(raw);
		n = cJSON_PrintUnformatted(num);
		snprintf(want, sizeof want, "%lld", v);
		CHECK_STR(r, want);
		if (v > -1000000000000000LL && v < 1000000000000000LL)
			CHECK_STR(r, n);
		d = 0.5;
		CHECK(proto_number(raw, &d) && d == (double)v);
		CHECK(proto_number(num, &d) && d == (double)v);
		cJSON_free(r);
		cJSON_free(n);
		cJSON_Delete(raw);
		cJSON_Delete(num);
	}
	snprintf(want, sizeof want, "%lld", LLONG_MIN);
	{
		cJSON *lo = proto_int(LLONG_MIN), *hi = proto_int(LLONG_MAX);

		CHECK_STR(lo->valuestring, want);
		snprintf(want, sizeof want, "%lld", LLONG_MAX);
		CHECK_STR(hi->valuestring, want);
		CHECK(
		    !proto_number(lo, &d)); /* too long to read back exactly */
		cJSON_Delete(lo);
		cJSON_Delete(hi);
	}
	for (i = 0; i < sizeof not_ints / sizeof not_ints[0]; i++) {
		cJSON *raw = cJSON_CreateRaw(not_ints[i]);

		CHECK(!proto_number(raw, &d));
		cJSON_Delete(raw);
	}
	CHECK(!proto_number(NULL, &d));
	{
		cJSON *s = cJSON_CreateString("7");

		CHECK(!proto_number(s, &d));
		cJSON_Delete(s);
	}
}

/* Text mode reads raw integers (seq, clocks, counts) as it reads numbers:
 * an event built either way reads the same. */
static void
encode_text_ints(void)
{
	cJSON *a = proto_event(PROTO_EV_MOVED, "r1", 12);
	cJSON *b = proto_event(PROTO_EV_MOVED, "r1", 0), *ca, *cb;
	char *ta, *tb;

	cJSON_AddNumberToObject(b, "seq", 12);
	cJSON_AddStringToObject(a, "move", "a1");
	cJSON_AddStringToObject(b, "move", "a1");
	cJSON_AddStringToObject(a, "turn", "white");
	cJSON_AddStringToObject(b, "turn", "white");
	ca = cJSON_AddObjectToObject(a, "clocks");
	cb = cJSON_AddObjectToObject(b, "clocks");
	proto_add_int(ca, "black", 299000);
	cJSON_AddNumberToObject(cb, "black", 299000);
	proto_add_int(ca, "white", 3723000);
	cJSON_AddNumberToObject(cb, "white", 3723000);
	ta = proto_text(a);
	tb = proto_text(b);
	CHECK_STR(ta, tb);
	CHECK(ta != NULL && strstr(ta, "black 4:59, white 1:02:03") != NULL);
	free(ta);
	free(tb);
	ta = proto_json_line(a);
	tb = proto_json_line(b);
	CHECK_STR(ta, tb);
	free(ta);
	free(tb);
	cJSON_Delete(a);
	cJSON_Delete(b);
	/* a reply's other members, shown as they are */
	a = proto_reply(NULL);
	b = proto_reply(NULL);
	proto_add_int(a, "time", -1763912345678LL);
	cJSON_AddNumberToObject(b, "time", -1763912345678.0);
	ta = proto_text(a);
	tb = proto_text(b);
	CHECK_STR(ta, tb);
	CHECK_STR(ta, "OK.\ntime: -1763912345678\n");
	free(ta);
	free(tb);
	cJSON_Delete(a);
	cJSON_Delete(b);
}

int
main(void)
{
	encode_random();
	encode_hidden_places();
	encode_big();
	encode_reuse();
	encode_text();
	encode_ints();
	encode_text_ints();
	return check_done();
}
