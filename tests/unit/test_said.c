/*
 * test_said.c: a sentence's msgid and arguments (rules/said.c, and
 * protocol/sentence.c's JSON of them): every conversion the server's
 * formats use is taken from the va_list in order, a '*' width or
 * precision is an argument of its own, a format with more conversions
 * than are kept has no msgid, and a reason is found again by its text
 * only while it is the last one written on its thread.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/protocol.h"
#include "rules/rules.h"
#include "tests/unit/check.h"

/* The args of s as JSON, for one comparison. */
static char *
test_said_json(const struct rules_said *s)
{
	cJSON *o = cJSON_CreateObject();
	char *out;

	proto_said_add(o, s);
	out = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	return out;
}

static void
test_said_conversions(void)
{
	struct rules_said s;
	char *j;

	rules_said_set(
	    &s, "%c%.*s is not a square (a1 to %c%d)", 'q', 1, "9x", 'g', 7);
	CHECK_STR(s.text, "q9 is not a square (a1 to g7)");
	CHECK(s.fmt != NULL);
	j = test_said_json(&s);
	CHECK_STR(j,
	    "{\"msg\":\"%c%.*s is not a square (a1 to %c%d)\","
	    "\"args\":[\"q\",1,\"9\",\"g\",7]}");
	free(j);
	rules_said_set(&s, "%lld ms, %zu bytes, %ld, %u, %#x, %04lX, %5d%%",
	    (long long)-12, (size_t)34, 56L, 78u, 255u, 0x2066UL, 9);
	CHECK_STR(s.text, "-12 ms, 34 bytes, 56, 78, 0xff, 2066,     9%");
	j = test_said_json(&s);
	CHECK_STR(j,
	    "{\"msg\":\"%lld ms, %zu bytes, %ld, %u, %#x, %04lX, "
	    "%5d%%\",\"args\":[-12,34,56,78,255,8294,9]}");
	free(j);
	rules_said_set(&s, "%*d|%-*s|", 4, 7, 3, "ab");
	CHECK_STR(s.text, "   7|ab |");
	CHECK_INT(s.nargs, 4);
	rules_said_set(&s, "no conversion");
	j = test_said_json(&s);
	CHECK_STR(j, "{\"msg\":\"no conversion\",\"args\":[]}");
	free(j);
}

static void
test_said_limits(void)
{
	struct rules_said s;
	char *j, big[RULES_LINE_MAX + 8];

	/* one conversion more than is kept: the text, no msgid */
	rules_said_set(
	    &s, "%d %d %d %d %d %d %d %d %d", 1, 2, 3, 4, 5, 6, 7, 8, 9);
	CHECK_STR(s.text, "1 2 3 4 5 6 7 8 9");
	CHECK(s.fmt == NULL);
	j = test_said_json(&s);
	CHECK_STR(j, "{}");
	free(j);
	/* a string argument too long to keep: no msgid either */
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	rules_said_set(&s, "long: %s", big);
	CHECK(s.fmt == NULL);
	/* a bare "%s" says nothing: no msg */
	rules_said_set(&s, "%s", "words");
	j = test_said_json(&s);
	CHECK_STR(j, "{}");
	free(j);
}

static void
test_said_last(void)
{
	char err[RULES_ERR_MAX], small[8];
	const struct rules_said *s;

	rules_seterr(err, sizeof err, "no peg at %d,%d", 4, 4);
	s = rules_said_of("no peg at 4,4");
	CHECK(s != NULL && strcmp(s->fmt, "no peg at %d,%d") == 0);
	CHECK(rules_said_of("no peg at 5,5") == NULL);
	/* a sentence wrapping that text by "%s" is that sentence */
	{
		struct rules_said outer;

		rules_said_set(&outer, "%s", err);
		s = proto_said_inner(&outer);
		CHECK(s != NULL && s->fmt != NULL &&
		    strcmp(s->fmt, "no peg at %d,%d") == 0);
	}
	/* cut short by the caller's buffer: not found by its text */
	rules_seterr(small, sizeof small, "no peg at %d,%d", 4, 4);
	CHECK_STR(small, "no peg ");
	CHECK(rules_said_of(small) == NULL);
	/* a later reason replaces it */
	rules_seterr(err, sizeof err, "the game is over");
	CHECK(rules_said_of("no peg at 4,4") == NULL);
	/* a reason that wraps the one before has it inside */
	{
		char inner[RULES_ERR_MAX];
		char *j;
		cJSON *o = cJSON_CreateObject();

		rules_seterr(inner, sizeof inner, "rank %d is empty", 3);
		rules_seterr(err, sizeof err, "option 'position': %s", inner);
		CHECK_STR(err, "option 'position': rank 3 is empty");
		proto_said_add(o, rules_said_of(err));
		j = cJSON_PrintUnformatted(o);
		CHECK_STR(j,
		    "{\"msg\":\"option 'position': %s\",\"args\":"
		    "[{\"msg\":\"rank %d is empty\",\"args\":[3]}]}");
		free(j);
		cJSON_Delete(o);
	}
	/* protocol's reasons are kept the same way */
	proto_errf(err, sizeof err, "field '%s' is required", "name");
	s = rules_said_of(err);
	CHECK(s != NULL && strcmp(s->fmt, "field '%s' is required") == 0);
}

static void
test_said_nest(void)
{
	cJSON *o = cJSON_CreateObject();
	char *j;

	proto_sentence(o, "message", "%s: %d pieces remain", "No move left", 2);
	CHECK_INT(proto_said_nest(o, 0, "no move left"), 0);
	CHECK_INT(proto_said_nest(o, 5, "no move left"), -1);
	j = cJSON_PrintUnformatted(o);
	CHECK_STR(j,
	    "{\"message\":\"No move left: 2 pieces remain\","
	    "\"msg\":\"%s: %d pieces remain\",\"args\":[{\"msg\":"
	    "\"no move left\",\"args\":[]},2]}");
	free(j);
	cJSON_Delete(o);
}

int
main(void)
{
	test_said_conversions();
	test_said_limits();
	test_said_last();
	test_said_nest();
	return check_done();
}
