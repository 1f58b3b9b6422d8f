/*
 * test_protocol.c: the protocol library's framing (chunks, CRLF, telnet IAC,
 * the limit, NUL bytes, blank lines), its error table, its encoder (ids
 * echoed verbatim, escaping, "_" members dropped) and its text mode.
 * Decoding is in test_protocol_decode.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "protocol/protocol.h"

/* Lines a framer handed out, and how often it said "too long". */
struct got {
	char lines[16][64];
	size_t lens[16];
	int n;
	int toolong;
};

/* Feed buf to f in chunks of `chunk` bytes (0: all at once), collecting
 * what comes out. */
static void
feed(struct proto_framer *f, const char *buf, size_t len, size_t chunk,
    struct got *g)
{
	const char *line;
	size_t linelen, off = 0, n, used;
	int toolong;

	while (off < len) {
		n = chunk == 0 || len - off < chunk ? len - off : chunk;
		while (n > 0) {
			used = proto_framer_push(
			    f, buf + off, n, &line, &linelen, &toolong);
			CHECK(used > 0 && used <= n);
			CHECK(proto_framer_pending(f) <= 4096);
			off += used;
			n -= used;
			if (toolong)
				g->toolong++;
			if (line != NULL && g->n < 16) {
				CHECK(linelen < sizeof g->lines[0]);
				memcpy(g->lines[g->n], line, linelen);
				g->lines[g->n][linelen] = '\0';
				g->lens[g->n] = linelen;
				g->n++;
			}
		}
	}
}

/* Run input through a fresh framer with the given limit and chunk size. */
static void
frame(const char *buf, size_t len, size_t limit, size_t chunk, struct got *g)
{
	struct proto_framer *f = proto_framer_new(limit);

	memset(g, 0, sizeof *g);
	CHECK(f != NULL);
	if (f == NULL)
		return;
	feed(f, buf, len, chunk, g);
	proto_framer_free(f);
}

static void
test_framer_lines(void)
{
	static const char in[] = "hello ana\r\nmove b6\n{\"cmd\":\"ping\"}\n";
	struct got g;
	size_t chunk;

	/* every chunk size gives the same lines */
	for (chunk = 0; chunk <= 8; chunk++) {
		frame(in, sizeof in - 1, 0, chunk, &g);
		CHECK_INT(g.n, 3);
		CHECK_STR(g.lines[0], "hello ana");
		CHECK_STR(g.lines[1], "move b6");
		CHECK_STR(g.lines[2], "{\"cmd\":\"ping\"}");
		CHECK_INT(g.toolong, 0);
	}
	/* an unfinished line stays pending */
	frame("abc", 3, 0, 0, &g);
	CHECK_INT(g.n, 0);
	/* only one CR before LF is the terminator */
	frame("a\r\r\n", 4, 0, 1, &g);
	CHECK_INT(g.n, 1);
	CHECK_INT(g.lens[0], 2);
	CHECK_STR(g.lines[0], "a\r");
	/* a CR inside a line is kept */
	frame("a\rb\n", 4, 0, 1, &g);
	CHECK_STR(g.lines[0], "a\rb");
}

static void
test_framer_consumed(void)
{
	struct proto_framer *f = proto_framer_new(0);
	const char *line;
	size_t linelen, used;
	int toolong;

	/* it stops after the first line; the caller keeps the rest */
	used = proto_framer_push(f, "ab\ncd\nef", 8, &line, &linelen, &toolong);
	CHECK_INT(used, 3);
	CHECK(line != NULL && linelen == 2 && memcmp(line, "ab", 2) == 0);
	CHECK_INT(line[linelen], '\0');
	used = proto_framer_push(f, "cd\nef", 5, &line, &linelen, &toolong);
	CHECK_INT(used, 3);
	CHECK(line != NULL && strcmp(line, "cd") == 0);
	used = proto_framer_push(f, "ef", 2, &line, &linelen, &toolong);
	CHECK_INT(used, 2);
	CHECK(line == NULL);
	CHECK_INT(proto_framer_pending(f), 2);
	used = proto_framer_push(f, "\n", 1, &line, &linelen, &toolong);
	CHECK(line != NULL && strcmp(line, "ef") == 0);
	/* nothing at all */
	used = proto_framer_push(f, "", 0, &line, &linelen, &toolong);
	CHECK_INT(used, 0);
	CHECK(line == NULL);
	CHECK_INT(toolong, 0);
	proto_framer_free(f);
	proto_framer_free(NULL);
}

static void
test_framer_blank(void)
{
	static const char in[] = "\n\r\n   \n \t\r\n\r\r\nx\n\n";
	struct got g;

	frame(in, sizeof in - 1, 0, 0, &g);
	CHECK_INT(g.n, 1);
	CHECK_STR(g.lines[0], "x");
	frame(in, sizeof in - 1, 0, 1, &g);
	CHECK_INT(g.n, 1);
}

static void
test_framer_iac(void)
{
	/* IAC WILL ECHO, IAC DO SGA, IAC NOP, IAC SB TTYPE ... IAC SE */
	static const char in[] = "\xff\xfb\x01he\xff\xfd\x03ll\xff\xf1o"
	                         "\xff\xfa\x18\x01\xff\xff\x0a\xff\xf0\n";
	/* IAC IAC is one 255 byte of data */
	static const char dbl[] = "a\xff\xff"
	                          "b\n";
	/* IAC DONT, IAC WONT and a bare IAC IP */
	static const char more[] = "\xff\xfe\x05x\xff\xfc\x01y\xff\xf4z\n";
	struct got g;
	size_t chunk;

	for (chunk = 0; chunk <= 3; chunk++) {
		frame(in, sizeof in - 1, 0, chunk, &g);
		CHECK_INT(g.n, 1);
		CHECK_STR(g.lines[0], "hello");
		frame(dbl, sizeof dbl - 1, 0, chunk, &g);
		CHECK_INT(g.n, 1);
		CHECK_STR(g.lines[0],
		    "a\xff"
		    "b");
		frame(more, sizeof more - 1, 0, chunk, &g);
		CHECK_INT(g.n, 1);
		CHECK_STR(g.lines[0], "xyz");
	}
	/* a "\n" inside a subnegotiation does not end a line */
	frame("a\xff\xfa\x01\n\xff\xf0"
	      "b\n",
	    9, 0, 1, &g);
	CHECK_INT(g.n, 1);
	CHECK_STR(g.lines[0], "ab");
	/* telnet's bare CR "\r\0": the CR stays, the NUL goes */
	frame("a\r\0b\n", 5, 0, 1, &g);
	CHECK_INT(g.n, 1);
	CHECK_INT(g.lens[0], 3);
	CHECK_STR(g.lines[0], "a\rb");
}

static void
test_framer_nul(void)
{
	struct got g;

	frame("a\0b\n", 4, 0, 1, &g);
	CHECK_INT(g.n, 1);
	CHECK_INT(g.lens[0], 3);
	CHECK(memcmp(g.lines[0], "a\0b", 3) == 0);
}

static void
test_framer_limit(void)
{
	struct got g;
	struct proto_framer *f;
	char *big;
	size_t i;

	/* exactly the limit: fine, with LF or CRLF */
	frame("12345678\n", 9, 8, 0, &g);
	CHECK_INT(g.n, 1);
	CHECK_STR(g.lines[0], "12345678");
	CHECK_INT(g.toolong, 0);
	frame("12345678\r\nok\n", 13, 8, 1, &g);
	CHECK_INT(g.n, 2);
	CHECK_STR(g.lines[0], "12345678");
	CHECK_INT(g.toolong, 0);
	/* one byte over: reported once, the rest of the line dropped, the
	 * next line comes through */
	frame("123456789\nok\n", 13, 8, 0, &g);
	CHECK_INT(g.toolong, 1);
	CHECK_INT(g.n, 1);
	CHECK_STR(g.lines[0], "ok");
	frame("123456789\nok\n", 13, 8, 1, &g);
	CHECK_INT(g.toolong, 1);
	CHECK_INT(g.n, 1);
	/* a CR past the limit that is not a CRLF is over */
	frame("12345678\rx\n", 11, 8, 1, &g);
	CHECK_INT(g.toolong, 1);
	CHECK_INT(g.n, 0);
	/* telnet bytes do not count */
	frame("1234\xff\xfb\x01"
	      "5678\n",
	    12, 8, 1, &g);
	CHECK_INT(g.toolong, 0);
	CHECK_STR(g.lines[0], "12345678");
	/* a megabyte without a newline: one report, never more than the
	 * limit held */
	big = malloc(1 << 20);
	CHECK(big != NULL);
	if (big == NULL)
		return;
	memset(big, 'x', 1 << 20);
	f = proto_framer_new(4096);
	memset(&g, 0, sizeof g);
	for (i = 0; i < 16; i++)
		feed(f, big, 1 << 16, 1000, &g);
	CHECK_INT(g.toolong, 1);
	CHECK_INT(g.n, 0);
	CHECK(proto_framer_pending(f) <= 4096);
	feed(f, "\nping\n", 6, 0, &g);
	CHECK_INT(g.n, 1);
	CHECK_STR(g.lines[0], "ping");
	proto_framer_free(f);
	free(big);
	/* default limit */
	f = proto_framer_new(0);
	big = calloc(1, PROTO_LINE_MAX_DEFAULT + 2);
	memset(big, 'y', PROTO_LINE_MAX_DEFAULT);
	big[PROTO_LINE_MAX_DEFAULT] = '\n';
	{
		const char *line;
		size_t linelen, used;
		int toolong;

		used = proto_framer_push(f, big, PROTO_LINE_MAX_DEFAULT + 1,
		    &line, &linelen, &toolong);
		CHECK_INT(used, PROTO_LINE_MAX_DEFAULT + 1);
		CHECK(line != NULL);
		CHECK_INT(linelen, PROTO_LINE_MAX_DEFAULT);
		big[PROTO_LINE_MAX_DEFAULT] = 'y';
		big[PROTO_LINE_MAX_DEFAULT + 1] = '\n';
		used = proto_framer_push(f, big, PROTO_LINE_MAX_DEFAULT + 2,
		    &line, &linelen, &toolong);
		CHECK_INT(toolong, 1);
		CHECK(line == NULL);
		CHECK_INT(used, PROTO_LINE_MAX_DEFAULT + 1);
	}
	proto_framer_free(f);
	free(big);
}

/* The line buffer: none until a line comes, small for short lines, grown
 * for a long one and given back once that line is handled. */
/* A fingerprint of what a framer makes of buf fed in chunks of `chunk`
 * bytes: every line (bytes and length) and every "too long". */
static unsigned long long
framer_print(const char *buf, size_t len, size_t limit, size_t chunk)
{
	struct proto_framer *f = proto_framer_new(limit);
	unsigned long long h = 14695981039346656037ULL;
	const char *line;
	size_t linelen, off = 0, n, used, i;
	int toolong;

	while (off < len) {
		n = len - off < chunk ? len - off : chunk;
		while (n > 0) {
			used = proto_framer_push(
			    f, buf + off, n, &line, &linelen, &toolong);
			off += used;
			n -= used;
			if (toolong != 0)
				h = (h ^ (unsigned)(toolong + 7)) *
				    1099511628211ULL;
			for (i = 0; line != NULL && i <= linelen; i++)
				h = (h ^ (unsigned char)line[i]) *
				    1099511628211ULL;
			if (line != NULL)
				h = (h ^ linelen) * 1099511628211ULL;
		}
	}
	proto_framer_free(f);
	return h;
}

/* Random streams of short lines, CRs, CRLFs, telnet commands, NULs,
 * blanks and over-long lines: whole lines in one chunk (the framer's fast
 * way) give what one byte at a time (always the byte-by-byte way) gives. */
static void
test_framer_whole(void)
{
	static const char *const bits[] = {"ping", "{\"cmd\":\"ping\"}", "\n",
	    "\r\n", "\r", "\r\0", " ", "\t", "\xff\xfb\x01", "\xff\xff",
	    "\xff\xfa\x1f\x00\x50\xff\xf0", "\xff", "a", "\0", "move b2",
	    "0123456789abcdef0123456789abcdef"};
	static const size_t lens[] = {
	    4, 15, 1, 2, 1, 2, 1, 1, 3, 2, 7, 1, 1, 1, 7, 32};
	static const size_t limits[] = {8, 40, 8192};
	char buf[2048];
	unsigned long long rng = 0x9e3779b97f4a7c15ULL;
	int t, same = 0;

	for (t = 0; t < 3000; t++) {
		size_t len = 0, limit = limits[t % 3], chunk;

		while (len + 32 < sizeof buf) {
			size_t k;

			rng ^= rng << 13;
			rng ^= rng >> 7;
			rng ^= rng << 17;
			k = (size_t)(rng % 16);
			memcpy(buf + len, bits[k], lens[k]);
			len += lens[k];
			if (rng % 5 == 0)
				buf[len++] = '\n';
		}
		chunk = 1 + (size_t)(rng >> 40) % 700;
		if (framer_print(buf, len, limit, len) ==
		        framer_print(buf, len, limit, 1) &&
		    framer_print(buf, len, limit, chunk) ==
		        framer_print(buf, len, limit, 1))
			same++;
	}
	CHECK_INT(same, 3000);
}

static void
test_framer_held(void)
{
	struct proto_framer *f = proto_framer_new(0);
	char *big = malloc(PROTO_LINE_MAX_DEFAULT + 1);
	const char *line;
	size_t linelen, used;
	int toolong;

	CHECK(f != NULL && big != NULL);
	if (f == NULL || big == NULL)
		return;
	CHECK_INT(proto_framer_held(f), 0);
	used = proto_framer_push(
	    f, "{\"cmd\":\"ping\"}\n", 15, &line, &linelen, &toolong);
	CHECK_INT(used, 15);
	CHECK(line != NULL && linelen == 14);
	CHECK(proto_framer_held(f) > 14);
	CHECK(proto_framer_held(f) <= 256);
	memset(big, 'z', PROTO_LINE_MAX_DEFAULT);
	big[PROTO_LINE_MAX_DEFAULT] = '\n';
	used = proto_framer_push(
	    f, big, PROTO_LINE_MAX_DEFAULT + 1, &line, &linelen, &toolong);
	CHECK_INT(used, PROTO_LINE_MAX_DEFAULT + 1);
	CHECK_INT(linelen, PROTO_LINE_MAX_DEFAULT);
	CHECK_INT(proto_framer_held(f), PROTO_LINE_MAX_DEFAULT + 1);
	used = proto_framer_push(f, "ab", 2, &line, &linelen, &toolong);
	CHECK_INT(used, 2);
	CHECK(line == NULL && toolong == 0);
	CHECK(proto_framer_held(f) <= 256);
	used = proto_framer_push(f, "\n", 1, &line, &linelen, &toolong);
	CHECK(line != NULL && linelen == 2 && memcmp(line, "ab", 2) == 0);
	/* an over-long line gives its buffer back too */
	memset(big, 'z', PROTO_LINE_MAX_DEFAULT + 1);
	used = proto_framer_push(
	    f, big, PROTO_LINE_MAX_DEFAULT + 1, &line, &linelen, &toolong);
	CHECK_INT(toolong, 1);
	CHECK_INT(proto_framer_held(f), 0);
	/* trim: a partial line stays, a handed-out one's buffer goes */
	used = proto_framer_push(f, "\nabc", 4, &line, &linelen, &toolong);
	proto_framer_trim(f);
	CHECK_INT(proto_framer_pending(f), 3);
	used = proto_framer_push(f, "\n", 1, &line, &linelen, &toolong);
	CHECK(line != NULL && linelen == 3 && memcmp(line, "abc", 3) == 0);
	CHECK(proto_framer_held(f) > 0);
	proto_framer_trim(f);
	CHECK_INT(proto_framer_held(f), 0);
	CHECK_INT(proto_framer_pending(f), 0);
	proto_framer_free(f);
	free(big);
}

static void
test_errors(void)
{
	static const char *const codes[] = {"bad_json", "bad_request",
	    "unknown_cmd", "line_too_long", "not_logged_in", "bad_name",
	    "name_taken", "bad_token", "bad_password", "no_such_game",
	    "bad_options", "no_such_room", "room_full", "not_in_room",
	    "not_a_player", "not_your_turn", "illegal_move", "game_over",
	    "not_allowed", "rate_limited", "limit_reached", "server_full",
	    "idle", "store_failing", "not_ready", "banned", "kicked", "muted",
	    "tourney_room", "internal"};
	int i;

	CHECK_INT(PROTO_E_COUNT - 1, sizeof codes / sizeof codes[0]);
	for (i = 1; i < PROTO_E_COUNT; i++) {
		CHECK_STR(proto_error_code((enum proto_error)i), codes[i - 1]);
		CHECK(strlen(proto_error_message((enum proto_error)i)) > 5);
		CHECK_INT(proto_error_from_code(codes[i - 1]), i);
	}
	CHECK_INT(proto_error_from_code("nope"), PROTO_E_COUNT);
	CHECK_STR(proto_error_code(PROTO_E_COUNT), "internal");
	CHECK_STR(proto_error_code(PROTO_OK), "ok");
}

/* Decode a line and build its reply line; the caller frees. */
static char *
reply_line(const char *line)
{
	struct proto_request req;
	char err[256];
	cJSON *r;
	char *s;
	enum proto_error e;

	e = proto_decode(line, strlen(line), &req, err, sizeof err);
	r = e == PROTO_OK ? proto_reply(&req) : proto_error_reply(&req, e, err);
	s = proto_json_line(r);
	cJSON_Delete(r);
	proto_request_free(&req);
	return s;
}

#define BAD_JSON_START "{\"re\":null,\"ok\":false,\"error\":\"bad_json\","

static void
test_encode_ids(void)
{
	char *s;

	s = reply_line(
	    "{\"cmd\":\"ping\",\"id\":123456789012345678901234567890}");
	CHECK_STR(s,
	    "{\"re\":\"ping\",\"id\":123456789012345678901234567890,"
	    "\"ok\":true}\n");
	free(s);
	s = reply_line(
	    "{\"id\": \"a\\\"b\\\\c\\u00e9\\n\" , \"cmd\":\"ping\"}");
	CHECK_STR(s,
	    "{\"re\":\"ping\",\"id\":\"a\\\"b\\\\c\\u00e9\\n\","
	    "\"ok\":true}\n");
	free(s);
	s = reply_line("{\"cmd\":\"ping\",\"id\":-7}");
	CHECK_STR(s, "{\"re\":\"ping\",\"id\":-7,\"ok\":true}\n");
	free(s);
	/* the key written with an escape is still "id" */
	s = reply_line("{\"cmd\":\"ping\",\"\\u0069d\":42}");
	CHECK_STR(s, "{\"re\":\"ping\",\"id\":42,\"ok\":true}\n");
	free(s);
	/* an "id" nested deeper is not the request's id */
	s = reply_line("{\"cmd\":\"ping\",\"x\":{\"id\":1},\"id\":2}");
	CHECK_STR(s, "{\"re\":\"ping\",\"id\":2,\"ok\":true}\n");
	free(s);
	s = reply_line("{\"cmd\":\"ping\",\"x\":{\"id\":1}}");
	CHECK_STR(s, "{\"re\":\"ping\",\"ok\":true}\n");
	free(s);
	/* the id comes back with an error too, and with unknown commands */
	s = reply_line("{\"cmd\":\"fly\",\"id\":\"x1\"}");
	CHECK_STR(s,
	    "{\"re\":\"fly\",\"id\":\"x1\",\"ok\":false,\"error\":"
	    "\"unknown_cmd\",\"message\":\"unknown command 'fly' "
	    "(help lists them)\"}\n");
	free(s);
	s = reply_line("{\"cmd\":\"move\",\"id\":9}");
	CHECK_STR(s,
	    "{\"re\":\"move\",\"id\":9,\"ok\":false,\"error\":"
	    "\"bad_request\",\"message\":\"field 'move' is "
	    "required\"}\n");
	free(s);
	/* no cmd to echo: "re" is null */
	s = reply_line("{\"cmd\":");
	CHECK(s != NULL &&
	    strncmp(s, BAD_JSON_START, strlen(BAD_JSON_START)) == 0);
	free(s);
}

static void
test_encode_escape(void)
{
	cJSON *ev;
	char *s;

	ev = proto_event(PROTO_EV_CHAT, "r1", 3);
	cJSON_AddStringToObject(ev, "from", "ana");
	cJSON_AddStringToObject(
	    ev, "text", "say \"hi\"\\ \n\t\x01 \xc3\xa9 </script>");
	s = proto_json_line(ev);
	CHECK_STR(s,
	    "{\"event\":\"chat\",\"room\":\"r1\",\"seq\":3,\"from\":"
	    "\"ana\",\"text\":\"say \\\"hi\\\"\\\\ \\n\\t\\u0001 "
	    "\xc3\xa9 </script>\"}\n");
	free(s);
	cJSON_Delete(ev);
	/* no room, no seq */
	ev = proto_event(PROTO_EV_REPLACED, NULL, 0);
	s = proto_json_line(ev);
	CHECK_STR(s, "{\"event\":\"replaced\"}\n");
	free(s);
	cJSON_Delete(ev);
	ev = proto_welcome("0.1.0");
	s = proto_json_line(ev);
	CHECK_STR(s,
	    "{\"event\":\"welcome\",\"server\":\"tablerod\","
	    "\"version\":\"0.1.0\",\"proto\":1,\"hint\":\"Welcome! To "
	    "play, type: hello YOURNAME (help lists the commands). Programs "
	    "speak JSON lines: {\\\"cmd\\\":\\\"hello\\\","
	    "\\\"name\\\":\\\"ana\\\"}\"}\n");
	free(s);
	cJSON_Delete(ev);
	/* a large seq prints as an integer (cJSON prints integers exactly up
	 * to 15 digits) */
	ev = proto_event(PROTO_EV_MOVED, "r2", 123456789012345LL);
	s = proto_json_line(ev);
	CHECK_STR(s,
	    "{\"event\":\"moved\",\"room\":\"r2\",\"seq\":"
	    "123456789012345}\n");
	free(s);
	cJSON_Delete(ev);
	/* default and own messages */
	ev = proto_error_reply(
	    NULL, PROTO_E_ILLEGAL_MOVE, "arrow path blocked at h4");
	s = proto_json_line(ev);
	CHECK_STR(s,
	    "{\"re\":null,\"ok\":false,\"error\":\"illegal_move\","
	    "\"message\":\"arrow path blocked at h4\"}\n");
	free(s);
	cJSON_Delete(ev);
	ev = proto_error_reply(NULL, PROTO_E_SERVER_FULL, NULL);
	s = proto_json_line(ev);
	CHECK_STR(s,
	    "{\"re\":null,\"ok\":false,\"error\":\"server_full\","
	    "\"message\":\"the server is full: try again later\"}\n");
	free(s);
	cJSON_Delete(ev);
	CHECK(proto_json_line(NULL) == NULL);
}

static void
test_encode_hidden(void)
{
	cJSON *ev, *st;
	char *s;

	ev = proto_event(PROTO_EV_MOVED, "r1", 2);
	cJSON_AddStringToObject(ev, "_picture", "  a b\n1 x .\n");
	cJSON_AddStringToObject(ev, "move", "b6");
	st = cJSON_AddObjectToObject(ev, "state");
	cJSON_AddStringToObject(st, "_secret", "x");
	cJSON_AddNumberToObject(st, "n", 1);
	cJSON_AddItemToObject(st, "list", cJSON_CreateArray());
	cJSON_AddItemToArray(
	    cJSON_GetObjectItem(st, "list"), cJSON_CreateObject());
	cJSON_AddStringToObject(
	    cJSON_GetArrayItem(cJSON_GetObjectItem(st, "list"), 0), "_deep",
	    "y");
	s = proto_json_line(ev);
	CHECK_STR(s,
	    "{\"event\":\"moved\",\"room\":\"r1\",\"seq\":2,\"move\":"
	    "\"b6\",\"state\":{\"n\":1,\"list\":[{}]}}\n");
	free(s);
	/* the message itself keeps them for text mode */
	CHECK(cJSON_GetObjectItem(ev, "_picture") != NULL);
	CHECK(cJSON_GetObjectItem(st, "_secret") != NULL);
	cJSON_Delete(ev);
}

/* The lean form (hello's "events":"lean"): a moved event without the
 * name, sentence, position, board rows, status and a null clocks, its
 * "_picture" hidden as ever; with clocks when they are there; anything
 * else as in the full form; the message put back as it was. */
static void
test_encode_lean(void)
{
	struct proto_out o = {0};
	cJSON *ev, *rep;
	const char *full =
	    "{\"event\":\"moved\",\"room\":\"r1\",\"seq\":4,\"seat\":"
	    "\"white\",\"name\":\"ana\",\"move\":\"b6\",\"text\":\"White "
	    "clones at b6\",\"turn\":\"black\",\"status\":\"playing\","
	    "\"scores\":[3,2],\"position\":\"x5o/1x5/7/7/7/7/o5x o 0 1\","
	    "\"board\":[\"x.....o\"],\"clocks\":null}\n";

	ev = cJSON_Parse(full);
	CHECK(ev != NULL);
	cJSON_AddStringToObject(ev, "_picture", "x . o");
	CHECK_INT(proto_json_encode_lean(&o, ev), 0);
	CHECK_STR(o.p,
	    "{\"event\":\"moved\",\"room\":\"r1\",\"seq\":4,"
	    "\"seat\":\"white\",\"move\":\"b6\",\"turn\":"
	    "\"black\",\"scores\":[3,2]}\n");
	CHECK_INT(proto_json_encode(&o, ev), 0);
	CHECK_STR(o.p, full);
	CHECK(cJSON_GetObjectItem(ev, "_picture") != NULL);
	/* the game's last move, in a room with clocks */
	cJSON_ReplaceItemInObject(ev, "turn", cJSON_CreateNull());
	cJSON_ReplaceItemInObject(ev, "status", cJSON_CreateString("ended"));
	cJSON_ReplaceItemInObject(ev, "clocks", cJSON_Parse("{\"white\":1}"));
	CHECK_INT(proto_json_encode_lean(&o, ev), 0);
	CHECK_STR(o.p,
	    "{\"event\":\"moved\",\"room\":\"r1\",\"seq\":4,"
	    "\"seat\":\"white\",\"move\":\"b6\",\"turn\":null,"
	    "\"scores\":[3,2],\"clocks\":{\"white\":1}}\n");
	CHECK_INT(cJSON_GetArraySize(ev), 14);
	cJSON_Delete(ev);
	/* an event with no lean form, and a reply, are as they were */
	ev = cJSON_Parse("{\"event\":\"started\",\"room\":\"r1\",\"board\":"
	                 "[\"x\"],\"text\":\"t\"}");
	CHECK_INT(proto_json_encode_lean(&o, ev), 0);
	CHECK_STR(o.p,
	    "{\"event\":\"started\",\"room\":\"r1\",\"board\":"
	    "[\"x\"],\"text\":\"t\"}\n");
	cJSON_Delete(ev);
	rep = cJSON_Parse("{\"re\":\"state\",\"ok\":true,\"name\":\"a\","
	                  "\"board\":[]}");
	CHECK_INT(proto_json_encode_lean(&o, rep), 0);
	CHECK_STR(o.p,
	    "{\"re\":\"state\",\"ok\":true,\"name\":\"a\","
	    "\"board\":[]}\n");
	cJSON_Delete(rep);
	proto_out_free(&o);
}

/* The text of a message given as JSON text. */
static char *
text_of(const char *json)
{
	cJSON *m = cJSON_Parse(json);
	char *s;

	CHECK(m != NULL);
	s = proto_text(m);
	cJSON_Delete(m);
	return s;
}

/* proto_text_beside: a reader that draws the board (and the clocks)
 * itself is not told what that board says, and is told the turn where
 * its board does not say it. */
static void
test_text_beside(void)
{
	cJSON *m = cJSON_Parse(
	    "{\"event\":\"started\",\"room\":\"r4\",\"seats\":[{\"seat\":"
	    "\"white\",\"name\":\"ana\"}],\"turn\":\"white\",\"clocks\":"
	    "{\"white\":600000},\"picture\":\" x o\\nwhite to move\\n\"}");
	char *s, *plain;

	CHECK(m != NULL);
	s = proto_text_beside(m, "x o\nwhite to move\n");
	CHECK_STR(s, "[r4] The game starts: white: ana.\n");
	free(s);
	/* a board that does not say the turn: the turn line stays */
	s = proto_text_beside(m, "x o\n2 pegs left\n");
	CHECK_STR(s, "[r4] The game starts: white: ana.\nwhite to move.\n");
	free(s);
	/* no board drawn: all of it, as proto_text */
	s = proto_text_beside(m, NULL);
	plain = proto_text(m);
	CHECK_STR(s, plain);
	CHECK_STR(s,
	    "[r4] The game starts: white: ana.\n x o\nwhite to move\n"
	    "Clocks: white 10:00.\n");
	free(s);
	free(plain);
	cJSON_Delete(m);
	/* an empty turn (a hostile server's; the fuzzer found it) is no
	 * seat any board names: the search for it ends (it looped) */
	m = cJSON_Parse("{\"event\":\"started\",\"room\":\"r1\","
	                "\"seats\":[],\"turn\":\"\"}");
	CHECK(m != NULL);
	s = proto_text_beside(m, "x o\nwhite to move\n");
	CHECK_STR(s, "[r1] The game starts: .\n to move.\n");
	free(s);
	cJSON_Delete(m);
}

static void
test_text(void)
{
	char *s;

	s = text_of(
	    "{\"re\":\"move\",\"id\":3,\"ok\":false,\"error\":"
	    "\"illegal_move\",\"message\":\"arrow path blocked at h4\"}");
	CHECK_STR(s, "error (illegal_move): arrow path blocked at h4\n");
	free(s);
	s = text_of("{\"event\":\"moved\",\"room\":\"r4\",\"seq\":5,\"seat\":"
	            "\"black\",\"name\":\"ana\",\"move\":\"b6\",\"text\":"
	            "\"black clones to b6\",\"turn\":\"white\",\"status\":"
	            "\"playing\",\"_picture\":\"  a b\\n1 x o\"}");
	CHECK_STR(s,
	    "[r4] ana plays b6: black clones to b6.\n  a b\n1 x o\n"
	    "white to move.\n");
	free(s);
	/* a picture that names the side to move is not repeated */
	s = text_of("{\"event\":\"started\",\"room\":\"r4\",\"seq\":3,"
	            "\"seats\":[{\"seat\":\"white\",\"name\":\"ana\"},"
	            "{\"seat\":\"black\",\"name\":\"bob\"}],\"turn\":"
	            "\"white\",\"_picture\":\" x o\\nwhite to move\\n\"}");
	CHECK_STR(s,
	    "[r4] The game starts: white: ana, black: bob.\n x o\n"
	    "white to move\n");
	free(s);
	/* ... nor one with a note after the seat (Amazons) */
	s = text_of("{\"event\":\"started\",\"room\":\"r4\",\"turn\":"
	            "\"white\",\"_picture\":\" x o\\nwhite (player 1) to "
	            "move\\n\"}");
	CHECK_STR(s, "[r4] The game starts.\n x o\nwhite (player 1) to move\n");
	free(s);
	s = text_of("{\"event\":\"started\",\"room\":\"r4\",\"turn\":"
	            "\"white\",\"_picture\":\"white (player 1)\\nto move\"}");
	CHECK_STR(s,
	    "[r4] The game starts.\nwhite (player 1)\nto move\nwhite to "
	    "move.\n");
	free(s);
	test_text_beside();
	s = text_of("{\"event\":\"moved\",\"room\":\"r4\",\"seq\":6,\"seat\":"
	            "\"white\",\"name\":null,\"move\":\"0000\",\"text\":"
	            "\"white has no move and passes\",\"turn\":\"black\"}");
	CHECK_STR(s, "[r4] white has no move and passes.\nblack to move.\n");
	free(s);
	s = text_of("{\"event\":\"ended\",\"room\":\"r4\",\"seq\":9,\"result\":"
	            "\"win\",\"winner\":\"white\",\"winner_name\":\"bob\","
	            "\"reason\":\"resignation\",\"scores\":{\"black\":3,"
	            "\"white\":7}}");
	CHECK_STR(s,
	    "[r4] Game over: bob (white) wins (resignation).\n"
	    "Score: black 3, white 7.\n");
	free(s);
	s = text_of("{\"event\":\"ended\",\"room\":\"r2\",\"seq\":9,\"result\":"
	            "\"draw\",\"winner\":null,\"reason\":\"third repetition\","
	            "\"scores\":null}");
	CHECK_STR(s, "[r2] Game over: a draw (third repetition).\n");
	free(s);
	s = text_of("{\"event\":\"chat\",\"room\":\"r4\",\"seq\":7,\"from\":"
	            "\"ana\",\"text\":\"good game\"}");
	CHECK_STR(s, "[r4] ana: good game\n");
	free(s);
	s = text_of("{\"event\":\"chat\",\"from\":\"bob\",\"text\":\"hi\"}");
	CHECK_STR(s, "[lobby] bob: hi\n");
	free(s);
	s = text_of("{\"re\":\"hello\",\"ok\":true,\"name\":\"ana\",\"token\":"
	            "\"0123\",\"new\":true,\"rooms\":[]}");
	CHECK_STR(s,
	    "Hello, ana. Your token is 0123\nKeep it: next time log "
	    "in with: hello ana 0123\n");
	free(s);
	s = text_of("{\"re\":\"ping\",\"ok\":true,\"pong\":true,\"time\":1}");
	CHECK_STR(s, "pong\n");
	free(s);
	s = text_of(
	    "{\"re\":\"moves\",\"ok\":true,\"moves\":[\"b6\",\"a7c5\"]}");
	CHECK_STR(s, "Moves: b6, a7c5\n");
	free(s);
	s = text_of("{\"event\":\"opponent_gone\",\"room\":\"r4\",\"seq\":8,"
	            "\"name\":\"bob\",\"seat\":\"white\",\"grace\":60}");
	CHECK_STR(s,
	    "[r4] bob (white) is gone; the seat is held for 60 s, then the "
	    "opponent may claim the game.\n");
	free(s);
	s = text_of("{\"event\":\"clock\",\"room\":\"r4\",\"seq\":2,\"clocks\":"
	            "{\"black\":299500,\"white\":3600000}}");
	CHECK_STR(s, "[r4] Clocks: black 4:59, white 1:00:00.\n");
	free(s);
	s = text_of(
	    "{\"re\":\"state\",\"ok\":true,\"state\":{\"room\":\"r4\","
	    "\"game\":\"ataxx\",\"title\":\"Ataxx\",\"status\":"
	    "\"playing\",\"seats\":[{\"seat\":\"black\",\"name\":\"ana\","
	    "\"bot\":null,\"connected\":true},{\"seat\":\"white\","
	    "\"name\":null,\"bot\":3,\"connected\":true}],\"turn\":"
	    "\"black\",\"result\":null,\"picture\":\"x o\\n\","
	    "\"clocks\":null,\"watchers\":0}}");
	CHECK_STR(s,
	    "Room r4: Ataxx, playing.\nSeats: black: ana, white: bot "
	    "level 3.\nx o\nblack to move.\n");
	free(s);
	/* an event text mode does not know still reads */
	s = text_of("{\"event\":\"fireworks\",\"room\":\"r1\",\"seq\":1,"
	            "\"colour\":\"red\"}");
	CHECK_STR(s, "[r1] fireworks\ncolour: red\n");
	free(s);
	s = text_of("{\"re\":\"create\",\"ok\":true,\"room\":\"r9\",\"seat\":"
	            "null}");
	CHECK_STR(s, "You are watching room r9.\n");
	free(s);
	s = text_of("{\"re\":\"join\",\"ok\":true,\"room\":\"r9\",\"seat\":"
	            "\"black\"}");
	CHECK_STR(s, "You are in room r9, seat black.\n");
	free(s);
	s = text_of("{}");
	CHECK_STR(s, "OK.\n");
	free(s);
}

/* Text a client wrote cannot pass for anything else in text mode: each
 * line of a chat carries its prefix, the rest is escaped visibly. */
static void
test_text_untrusted(void)
{
	char *s;
	uint32_t cp = 0;

	s = text_of("{\"event\":\"chat\",\"from\":\"eve\",\"text\":"
	            "\"hi\\nerror (bad_token): x\\r\\nA\\rB\\u0085C\\u2028D"
	            "\\u2029\"}");
	CHECK_STR(s,
	    "[lobby] eve: hi\n[lobby] eve: error (bad_token): x\n"
	    "[lobby] eve: A\n[lobby] eve: B\n[lobby] eve: C\n"
	    "[lobby] eve: D\n[lobby] eve: \n");
	free(s);
	s = text_of("{\"event\":\"chat\",\"room\":\"r2\",\"seq\":3,"
	            "\"from\":\"eve\",\"text\":\"a\\u202eb\\u2066c\\u200bd"
	            "\\u001b[2Je\\tf\\u00ad\\u0090\\ufeff\"}");
	CHECK_STR(s,
	    "[r2] eve: a<U+202E>b<U+2066>c<U+200B>d<U+001B>[2Je\tf"
	    "<U+00AD><U+0090><U+FEFF>\n");
	free(s);
	/* an option value (a board file may hold CR) and an error message */
	s = text_of("{\"re\":\"state\",\"ok\":true,\"state\":{\"room\":"
	            "\"r4\",\"game\":\"x\",\"options\":{\"file\":"
	            "\"a\\r\\nWelcome\"}}}");
	/* a value of several lines (a board file) is not printed at all */
	CHECK(
	    strstr(s, "Options: file=(2 lines; export shows them).\n") != NULL);
	free(s);
	s = text_of("{\"re\":\"state\",\"ok\":true,\"state\":{\"room\":"
	            "\"r4\",\"game\":\"x\",\"options\":{\"file\":"
	            "\"a\\rWelcome\"}}}");
	CHECK(strstr(s, "Options: file=a<U+000D>Welcome.\n") != NULL);
	free(s);
	s = text_of("{\"ok\":false,\"error\":\"bad_request\",\"message\":"
	            "\"no room 'a\\nb\\u202e'\"}");
	CHECK_STR(s, "error (bad_request): no room 'a<U+000A>b<U+202E>'\n");
	free(s);
	/* what the decoder refuses in every string field */
	CHECK_INT(proto_text_hiding("ok \xe2\x80\xae", 6, &cp), 3);
	CHECK_INT(cp, 0x202e);
	CHECK_INT(proto_text_hiding("\xc2\x85", 2, &cp), 0);
	CHECK_INT(proto_text_hiding("\xe2\x9d\xa4\xef\xb8\x8f", 6, &cp), 6);
	CHECK_INT(proto_text_hiding("\xe2\x80\x8d", 3, &cp), 3);
}

/* Every verb has a complete row: name, usage, summary, text rendering;
 * the names round-trip and the login rule is the documented one. */
static void
test_verbs_table(void)
{
	int v;

	CHECK_INT(proto_verbs_check(), PROTO_VERB_COUNT);
	for (v = 0; v < PROTO_VERB_COUNT; v++) {
		CHECK(proto_verb_name(v) != NULL);
		CHECK_INT(proto_verb_from_name(proto_verb_name(v)), v);
		CHECK(proto_verb_shorthand(v) != NULL);
		CHECK(proto_verb_summary(v) != NULL);
	}
	CHECK_INT(proto_verb_login(PROTO_HELLO), 0);
	CHECK_INT(proto_verb_login(PROTO_GAMES), 0);
	CHECK_INT(proto_verb_login(PROTO_PING), 0);
	CHECK_INT(proto_verb_login(PROTO_QUIT), 0);
	CHECK_INT(proto_verb_login(PROTO_MODE), 0);
	CHECK_INT(proto_verb_login(PROTO_HELP), 0);
	CHECK_INT(proto_verb_login(PROTO_ROOMS), 1);
	CHECK_INT(proto_verb_login(PROTO_MOVE), 1);
	CHECK_INT(proto_verb_login(PROTO_CHAT), 1);
}

/* Every event has a complete row; names round-trip; the room's events are
 * told from the connection's. */
static void
test_events_table(void)
{
	int e;
	cJSON *ev;

	CHECK_INT(proto_events_check(), PROTO_EV_COUNT);
	for (e = 0; e < PROTO_EV_COUNT; e++) {
		CHECK(proto_event_name(e) != NULL);
		CHECK_INT(proto_event_from_name(proto_event_name(e)), e);
	}
	CHECK_INT(proto_event_from_name("nonesuch"), PROTO_EV_COUNT);
	CHECK(proto_event_name(PROTO_EV_COUNT) == NULL);
	CHECK(proto_event(PROTO_EV_COUNT, NULL, 0) == NULL);
	CHECK_INT(proto_event_in_room(PROTO_EV_MOVED), 1);
	CHECK_INT(proto_event_in_room(PROTO_EV_CHAT), 1);
	CHECK_INT(proto_event_in_room(PROTO_EV_WELCOME), 0);
	CHECK_INT(proto_event_in_room(PROTO_EV_SHUTDOWN), 0);
	ev = proto_event(PROTO_EV_DRAW_OFFERED, "r4", 7);
	CHECK_STR(cJSON_GetStringValue(cJSON_GetObjectItem(ev, "event")),
	    "draw_offered");
	cJSON_Delete(ev);
}

/* What a terminal client does to every string a server sends: line
 * breaks kept as "\n", escapes and hidden characters shown, keys too. */
static void
test_text_untrusted_tree(void)
{
	cJSON *m = cJSON_Parse("{\"event\":\"joined\",\"name\":"
	                       "\"\\u001b]0;x\\u0007\",\"list\":[\"a\\r\\nb\","
	                       "{\"k\\u001b\":\"\\u202e\"}],\"n\":3}");
	char *s;

	CHECK(m != NULL);
	CHECK_INT(proto_text_untrusted_tree(m), 0);
	s = cJSON_PrintUnformatted(m);
	CHECK_STR(s,
	    "{\"event\":\"joined\",\"name\":\"<U+001B>]0;x<U+0007>\","
	    "\"list\":[\"a\\nb\",{\"k<U+001B>\":\"<U+202E>\"}],"
	    "\"n\":3}");
	free(s);
	cJSON_Delete(m);
	s = proto_text_untrusted("ok\tfine \xff");
	CHECK_STR(s, "ok\tfine <0xFF>");
	free(s);
	CHECK_INT(proto_text_untrusted_tree(NULL), 0);
}

/* One clock format for the server's text and the client. */
static void
test_clock_format(void)
{
	char buf[32];

	proto_clock_format(293000, buf, sizeof buf);
	CHECK_STR(buf, "4:53");
	proto_clock_format(3723999, buf, sizeof buf);
	CHECK_STR(buf, "1:02:03");
	proto_clock_format(-5, buf, sizeof buf);
	CHECK_STR(buf, "0:00");
}

/* A line built by appending: strings and integers as proto_int prints
 * them; what does not fit (the NUL included) sets full, and nothing is
 * added after it. */
static void
test_line(void)
{
	char buf[17];
	struct proto_line l = {buf, sizeof buf, 0, 0};

	proto_line_str(&l, "{\"seq\":");
	proto_line_int(&l, -1234567);
	proto_line_str(&l, "}"); /* 16 bytes and the NUL: full up */
	CHECK_STR(buf, "{\"seq\":-1234567}");
	CHECK_INT((int)l.len, 16);
	CHECK_INT(l.full, 0);
	proto_line_str(&l, "x"); /* one too many */
	CHECK_INT(l.full, 1);
	CHECK_INT((int)l.len, 16);
	proto_line_int(&l, 0); /* nothing is added after it */
	CHECK_STR(buf, "{\"seq\":-1234567}");
	l = (struct proto_line){buf, sizeof buf, 0, 0};
	proto_line_int(&l, 9007199254740993LL); /* 16 digits */
	CHECK_STR(buf, "9007199254740993");
	CHECK_INT(l.full, 0);
	l = (struct proto_line){buf, sizeof buf, 0, 0};
	proto_line_int(&l, 90071992547409930LL); /* 17: one too many */
	CHECK_INT(l.full, 1);
	CHECK_INT((int)l.len, 0);
	proto_line_str(&l, "a"); /* once full, nothing more, even what fits */
	CHECK_INT((int)l.len, 0);
}

int
main(void)
{
	test_verbs_table();
	test_events_table();
	test_framer_lines();
	test_framer_consumed();
	test_framer_blank();
	test_framer_iac();
	test_framer_nul();
	test_framer_limit();
	test_framer_held();
	test_framer_whole();
	test_errors();
	test_encode_ids();
	test_encode_escape();
	test_encode_hidden();
	test_encode_lean();
	test_text();
	test_text_untrusted();
	test_text_untrusted_tree();
	test_clock_format();
	test_line();
	return check_done();
}
