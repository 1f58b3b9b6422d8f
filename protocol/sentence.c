/*
 * sentence.c: a sentence for people in a JSON message, with what it was
 * printed from: "msg", the English format string (the msgid), and "args",
 * its arguments in order, so that a client can show the sentence in its
 * own language (docs/PROTOCOL.md, "Sentences in other languages").
 */
#include "protocol/protocol.h"
#include "rules/rules.h"

#include <stdarg.h>
#include <string.h>

/* The arguments of s as a JSON array; a string argument that is a
 * sentence kept before (rules_said_inside) becomes {"msg","args"} of its
 * own when nest is 1. NULL when out of memory. */
static cJSON *
sentence_args(const struct rules_said *s, int nest)
{
	cJSON *args = cJSON_CreateArray();
	int i;

	for (i = 0; args != NULL && i < s->nargs; i++) {
		const struct rules_said_arg *a = &s->args[i];
		const struct rules_said *in = nest && a->kind == RULES_SAID_STR
		    ? rules_said_inside(rules_said_str(s, i), s)
		    : NULL;
		cJSON *v = in != NULL ? cJSON_CreateObject()
		    : a->kind == RULES_SAID_STR
		    ? cJSON_CreateString(rules_said_str(s, i))
		    : a->kind == RULES_SAID_REAL
		    ? cJSON_CreateNumber(a->real)
		    : cJSON_CreateNumber((double)a->num);

		if (in != NULL && v != NULL &&
		    (cJSON_AddStringToObject(v, "msg", in->fmt) == NULL ||
		        !cJSON_AddItemToObject(
		            v, "args", sentence_args(in, 0)))) {
			cJSON_Delete(v);
			v = NULL;
		}
		if (v == NULL || !cJSON_AddItemToArray(args, v)) {
			cJSON_Delete(v);
			cJSON_Delete(args);
			return NULL;
		}
	}
	return args;
}

/* Add "msg" and "args" from s to o (nothing when s kept no msgid, or its
 * msgid is a bare "%s" that says nothing); 0, or -1 when out of memory. */
int
proto_said_add(cJSON *o, const struct rules_said *s)
{
	cJSON *args;

	if (s == NULL || s->fmt == NULL || strcmp(s->fmt, "%s") == 0)
		return 0;
	args = sentence_args(s, 1);
	if (args == NULL)
		return -1;
	if (cJSON_AddStringToObject(o, "msg", s->fmt) == NULL) {
		cJSON_Delete(args);
		return -1;
	}
	if (!cJSON_AddItemToObject(o, "args", args)) {
		cJSON_Delete(args);
		return -1;
	}
	return 0;
}

/* The msgid of a sentence made with "%s" from text another part printed:
 * the reason a game gave (rules_seterr), when text is that reason. */
const struct rules_said *
proto_said_inner(const struct rules_said *s)
{
	const struct rules_said *inner;

	if (s->fmt == NULL || strcmp(s->fmt, "%s") != 0 || s->nargs != 1)
		return s;
	inner = rules_said_of(s->text);
	return inner != NULL ? inner : s;
}

/* Add key, the sentence fmt makes with ap, and its "msg" and "args" to o;
 * 0, or -1 when out of memory. */
int
proto_vsentence(cJSON *o, const char *key, const char *fmt, va_list ap)
{
	struct rules_said s;

	rules_said_vset(&s, fmt, ap);
	if (cJSON_AddStringToObject(o, key, s.text) == NULL)
		return -1;
	return proto_said_add(o, proto_said_inner(&s));
}

/* proto_vsentence with the arguments given. */
int
proto_sentence(cJSON *o, const char *key, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = proto_vsentence(o, key, fmt, ap);
	va_end(ap);
	return rc;
}

/* Make the sentence argument i of o's "args" a sentence of its own,
 * {"msg": msgid, "args": []} (a fixed phrase such as a game's reason for
 * its end), so that a client translates it too; 0, or -1 when o has no
 * such argument or memory ran out. */
int
proto_said_nest(cJSON *o, int i, const char *msgid)
{
	cJSON *args = cJSON_GetObjectItemCaseSensitive(o, "args");
	cJSON *inner;

	if (!cJSON_IsArray(args) || i < 0 || i >= cJSON_GetArraySize(args) ||
	    msgid == NULL)
		return -1;
	inner = cJSON_CreateObject();
	if (inner == NULL ||
	    cJSON_AddStringToObject(inner, "msg", msgid) == NULL ||
	    cJSON_AddItemToObject(inner, "args", cJSON_CreateArray()) == 0) {
		cJSON_Delete(inner);
		return -1;
	}
	return cJSON_ReplaceItemInArray(args, i, inner) ? 0 : -1;
}
