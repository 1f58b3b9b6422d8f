/*
 * shorthand.c: decodes a text line `verb arg ... key=value ...` (what people
 * type on telnet) into the same struct proto_request as a JSON line. Values
 * with spaces are quoted ("..." with \" \\ \n \t escapes); chat and say take
 * the rest of the line verbatim; in create and seek every key that is not
 * a request field becomes a game option.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>

#include "protocol/protocol.h"

/* Most arguments on one shorthand line: create with every key and 16
 * options has 24. */
#define SHORTHAND_ARGS_MAX 32

/* One argument, unescaped into the line's scratch buffer. */
struct shorthand_arg {
	size_t off, len; /* in the scratch buffer */
	ssize_t eq;      /* offset of the first unquoted '=' in it, or -1 */
};

/* Whether a byte separates arguments. */
static int
shorthand_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/*
 * Read one argument from line[*pos..len) into out (unescaping quoted
 * parts); *pos moves past it. 1 when one was read, 0 at the end of the
 * line, -1 on a quoting error (err set).
 */
static int
shorthand_arg(const char *line, size_t len, size_t *pos, char *out,
    size_t *outlen, ssize_t *eq, char *err, size_t errlen)
{
	size_t i = *pos, n = 0;
	int quoted = 0;
	char c;

	while (i < len && shorthand_blank(line[i]))
		i++;
	if (i == len) {
		*pos = i;
		return 0;
	}
	*eq = -1;
	for (; i < len; i++) {
		c = line[i];
		if (!quoted && shorthand_blank(c))
			break;
		if (c == '"') {
			quoted = !quoted;
			continue;
		}
		if (quoted && c == '\\') {
			if (++i == len)
				break;
			switch (line[i]) {
			case '"':
			case '\\':
				c = line[i];
				break;
			case 'n':
				c = '\n';
				break;
			case 't':
				c = '\t';
				break;
			default:
				proto_errf(err, errlen,
				    "unknown escape in quotes "
				    "(use \\\", \\\\, \\n or \\t)");
				return -1;
			}
		} else if (!quoted && c == '=' && *eq == -1)
			*eq = (ssize_t)n;
		out[n++] = c;
	}
	if (quoted) {
		proto_errf(err, errlen, "unterminated quote");
		return -1;
	}
	*pos = i;
	*outlen = n;
	return 1;
}

/* Put a user's word into an error message only when it is printable and
 * short. */
static const char *
shorthand_word(const char *s, size_t len, char *buf, size_t buflen)
{
	size_t i;

	if (len >= buflen || !proto_utf8_valid(s, len))
		return "...";
	for (i = 0; i < len; i++) {
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return "...";
	}
	memcpy(buf, s, len);
	buf[len] = '\0';
	return buf;
}

/* Decode a verb whose arguments are the rest of the line (PROTO_ARGS_REST:
 * chat, say, tell, announce): an optional room=ID first, then a word
 * for a first positional field other than text (tell's NAME), then the
 * rest verbatim. */
static enum proto_error
shorthand_rest(const char *line, size_t len, size_t pos, char *scratch,
    struct proto_request *req, char *err, size_t errlen)
{
	size_t p, n;
	ssize_t eq;
	enum proto_error e;
	int positional[2];

	while (pos < len && shorthand_blank(line[pos]))
		pos++;
	if (len - pos > 5 && strncmp(line + pos, "room=", 5) == 0) {
		p = pos;
		if (shorthand_arg(
		        line, len, &p, scratch, &n, &eq, err, errlen) < 0)
			return PROTO_E_BAD_REQUEST;
		e = proto_field_text(
		    req, PROTO_F_ROOM, scratch + 5, n - 5, err, errlen);
		if (e != PROTO_OK)
			return e;
		pos = p;
		while (pos < len && shorthand_blank(line[pos]))
			pos++;
	}
	proto_verb_args(req->verb, positional);
	if (positional[0] >= 0 && positional[0] != PROTO_F_TEXT) {
		/* tell NAME TEXT: the first word is the name */
		p = pos;
		while (p < len && !shorthand_blank(line[p]))
			p++;
		if (p > pos) {
			e = proto_field_text(req,
			    (enum proto_field)positional[0], line + pos,
			    p - pos, err, errlen);
			if (e != PROTO_OK)
				return e;
		}
		pos = p;
		while (pos < len && shorthand_blank(line[pos]))
			pos++;
	}
	if (pos == len)
		return PROTO_OK;
	return proto_field_text(
	    req, PROTO_F_TEXT, line + pos, len - pos, err, errlen);
}

/* Handle one key=value argument; *t, *inc collect time= and inc=. */
static enum proto_error
shorthand_key(struct proto_request *req, const char *key, size_t keylen,
    const char *value, size_t len, long long *t, long long *inc, char *err,
    size_t errlen)
{
	char name[PROTO_FIELD_MAX + 1], word[PROTO_CMD_MAX + 1];
	int f = -1;

	if (keylen < sizeof name) {
		memcpy(name, key, keylen);
		name[keylen] = '\0';
		f = proto_field_from_name(name);
	}
	/* create and seek (the verbs with a clock): time= and inc= are the
	 * clock, and every key that is no field of theirs a game option */
	if (proto_verb_has_field(req->verb, PROTO_F_CLOCK) &&
	    keylen < sizeof name) {
		if (strcmp(name, "time") == 0) {
			if (*t >= 0 ||
			    !proto_parse_int(value, len,
			        PROTO_CLOCK_INITIAL_MIN,
			        PROTO_CLOCK_INITIAL_MAX, t)) {
				proto_errf(err, errlen,
				    "field 'time' must be "
				    "given once, an integer from %d to %d",
				    PROTO_CLOCK_INITIAL_MIN,
				    PROTO_CLOCK_INITIAL_MAX);
				return PROTO_E_BAD_REQUEST;
			}
			return PROTO_OK;
		}
		if (strcmp(name, "inc") == 0) {
			if (*inc >= 0 ||
			    !proto_parse_int(value, len,
			        PROTO_CLOCK_INCREMENT_MIN,
			        PROTO_CLOCK_INCREMENT_MAX, inc)) {
				proto_errf(err, errlen,
				    "field 'inc' must be "
				    "given once, an integer from %d to %d",
				    PROTO_CLOCK_INCREMENT_MIN,
				    PROTO_CLOCK_INCREMENT_MAX);
				return PROTO_E_BAD_REQUEST;
			}
			return PROTO_OK;
		}
		if (f < 0 ||
		    !proto_verb_has_field(req->verb, (enum proto_field)f))
			return proto_request_add_option(
			    req, key, keylen, value, len, err, errlen);
	}
	/* Another verb that takes options (ratings): an unknown key is one. */
	if ((f < 0 || !proto_verb_has_field(req->verb, (enum proto_field)f)) &&
	    proto_verb_has_field(req->verb, PROTO_F_OPTIONS))
		return proto_request_add_option(
		    req, key, keylen, value, len, err, errlen);
	if (f < 0 || !proto_verb_has_field(req->verb, (enum proto_field)f)) {
		proto_errf(err, errlen, "unknown key '%s' (usage: %s)",
		    shorthand_word(key, keylen, word, sizeof word),
		    proto_verb_shorthand(req->verb));
		return PROTO_E_BAD_REQUEST;
	}
	return proto_field_text(
	    req, (enum proto_field)f, value, len, err, errlen);
}

/* Whether a word is one of the rooms statuses. */
static int
shorthand_status(const char *s, size_t len)
{
	return proto_room_status_from_name(s, len) != PROTO_ROOM_STATUS_COUNT;
}

/* Handle the positional arguments args[0..n) of scratch. */
static enum proto_error
shorthand_positional(struct proto_request *req, char *scratch,
    const struct shorthand_arg *args, int n, char *err, size_t errlen)
{
	enum proto_shorthand_args how;
	int pos[2], i, f;
	size_t total;
	char *p, word[PROTO_CMD_MAX + 1];
	enum proto_error e;

	if (n == 0)
		return PROTO_OK;
	how = proto_verb_args(req->verb, pos);
	if (how == PROTO_ARGS_JOIN) {
		/* join the arguments in place: they are in order in scratch */
		p = scratch + args[0].off;
		total = args[0].len;
		for (i = 1; i < n; i++) {
			p[total++] = ' ';
			memmove(p + total, scratch + args[i].off, args[i].len);
			total += args[i].len;
		}
		return proto_field_text(
		    req, (enum proto_field)pos[0], p, total, err, errlen);
	}
	for (i = 0; i < n; i++) {
		f = -1;
		if (how == PROTO_ARGS_ROOMS)
			f = shorthand_status(
			        scratch + args[i].off, args[i].len) &&
			        req->status == NULL
			    ? PROTO_F_STATUS
			    : req->game == NULL ? PROTO_F_GAME
			                        : -1;
		else if (i < 2)
			f = pos[i];
		if (f < 0) {
			proto_errf(err, errlen,
			    "unexpected argument '%s' "
			    "(usage: %s)",
			    shorthand_word(scratch + args[i].off, args[i].len,
			        word, sizeof word),
			    proto_verb_shorthand(req->verb));
			return PROTO_E_BAD_REQUEST;
		}
		e = proto_field_text(req, (enum proto_field)f,
		    scratch + args[i].off, args[i].len, err, errlen);
		if (e != PROTO_OK)
			return e;
	}
	return PROTO_OK;
}

/* Split the arguments after the verb and decode them. */
static enum proto_error
shorthand_args(const char *line, size_t len, size_t pos, char *scratch,
    struct proto_request *req, char *err, size_t errlen)
{
	struct shorthand_arg pargs[SHORTHAND_ARGS_MAX];
	size_t off = 0, n;
	ssize_t eq;
	long long t = -1, inc = -1;
	int npos = 0, nargs = 0, r;
	enum proto_error e;

	for (;;) {
		r = shorthand_arg(
		    line, len, &pos, scratch + off, &n, &eq, err, errlen);
		if (r < 0)
			return PROTO_E_BAD_REQUEST;
		if (r == 0)
			break;
		if (++nargs > SHORTHAND_ARGS_MAX) {
			proto_errf(err, errlen, "more than %d arguments",
			    SHORTHAND_ARGS_MAX);
			return PROTO_E_BAD_REQUEST;
		}
		if (eq > 0) {
			e = shorthand_key(req, scratch + off, (size_t)eq,
			    scratch + off + eq + 1, n - (size_t)eq - 1, &t,
			    &inc, err, errlen);
			if (e != PROTO_OK)
				return e;
		} else {
			pargs[npos].off = off;
			pargs[npos].len = n;
			pargs[npos].eq = eq;
			npos++;
		}
		off += n + 1;
	}
	e = shorthand_positional(req, scratch, pargs, npos, err, errlen);
	if (e != PROTO_OK)
		return e;
	if (inc >= 0 && t < 0) {
		proto_errf(err, errlen, "field 'inc' needs 'time' too");
		return PROTO_E_BAD_REQUEST;
	}
	if (t >= 0) {
		req->has_clock = 1;
		req->clock_initial = (long)t;
		req->clock_increment = inc >= 0 ? (long)inc : 0;
	}
	return PROTO_OK;
}

/*
 * For people typing a shorthand line: the verb's usage line instead of
 * the JSON field names: "field 'game' is required" becomes "usage: create GAME
 * ...", "field 'action' must be one of ..." becomes "'action' must be one
 * of ... (usage: draw offer|accept|decline)". Other messages stay.
 */
void
proto_shorthand_usage(enum proto_verb verb, char *err, size_t errlen)
{
	static const char prefix[] = "field ";
	static const char required[] = " is required";
	const char *usage = proto_verb_shorthand(verb);
	char why[256];
	size_t n = strlen(err);

	if (usage == NULL || strncmp(err, prefix, sizeof prefix - 1) != 0)
		return;
	if (n > sizeof required - 1 &&
	    strcmp(err + n - (sizeof required - 1), required) == 0) {
		proto_errf(err, errlen, "usage: %s", usage);
		return;
	}
	snprintf(why, sizeof why, "%s", err + sizeof prefix - 1);
	proto_errf(err, errlen, "%s (usage: %s)", why, usage);
}

enum proto_error
proto_decode_shorthand(const char *line, size_t len, struct proto_request *req,
    char *err, size_t errlen)
{
	char verb[PROTO_CMD_MAX + 1], *scratch;
	size_t pos = 0, start, i;
	int positional[2];
	enum proto_error e;

	if (memchr(line, '\0', len) != NULL) {
		proto_errf(err, errlen, "the line contains a NUL byte");
		return PROTO_E_BAD_REQUEST;
	}
	while (len > 0 && line[len - 1] == '\r')
		len--;
	while (pos < len && shorthand_blank(line[pos]))
		pos++;
	start = pos;
	while (pos < len && !shorthand_blank(line[pos]))
		pos++;
	if (pos - start <= PROTO_CMD_MAX) {
		for (i = start; i < pos; i++)
			verb[i - start] = line[i] >= 'A' && line[i] <= 'Z'
			    ? (char)(line[i] - 'A' + 'a')
			    : line[i];
		verb[pos - start] = '\0';
		req->cmd = proto_cmd_copy(verb, pos - start);
		req->verb = proto_verb_from_name(verb);
	}
	if (req->verb == PROTO_VERB_COUNT)
		return proto_unknown_cmd(req, err, errlen);
	/* unescaped arguments are never longer than the line */
	scratch = malloc(len + 1);
	if (scratch == NULL) {
		proto_errf(err, errlen, "out of memory");
		return PROTO_E_INTERNAL;
	}
	if (proto_verb_args(req->verb, positional) == PROTO_ARGS_REST)
		e = shorthand_rest(line, len, pos, scratch, req, err, errlen);
	else
		e = shorthand_args(line, len, pos, scratch, req, err, errlen);
	free(scratch);
	if (e == PROTO_OK)
		e = proto_request_check(req, err, errlen);
	return e;
}
