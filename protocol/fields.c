/*
 * fields.c: checks and stores the fields of a request, whether they come as
 * JSON values (request.c) or as shorthand text (shorthand.c), so both paths
 * give the server the same guarantees: valid UTF-8, no control characters,
 * bounded lengths, integers in range, enumerations spelled right.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "protocol/protocol.h"
#include "rules/rules.h"

/* What a field holds. */
enum fields_kind {
	FIELDS_STRING,  /* a string */
	FIELDS_SEAT,    /* a string, or a positive integer kept as text */
	FIELDS_ENUM,    /* one of a few words */
	FIELDS_SEQ,     /* a non-negative integer */
	FIELDS_PROTO,   /* the protocol version */
	FIELDS_PRIVATE, /* a boolean: private, rated, lobby (fields_bool) */
	FIELDS_CLOCK,   /* {initial, increment} */
	FIELDS_OPTIONS, /* {key: string or integer} */
	FIELDS_BOTS,    /* {seat: level} */
	FIELDS_BOT,     /* a level, for every free seat */
	FIELDS_DEPTH,   /* the bots' search depth, in plies */
};

/* Which control characters a string may hold. */
enum fields_policy {
	FIELDS_PLAIN, /* none */
	FIELDS_TEXT,  /* "\n" and "\t" (chat) */
	FIELDS_FILE,  /* "\n", "\r" and "\t" (a file passed as an option) */
};

struct fields_entry {
	const char *name;
	enum fields_kind kind;
	size_t max;
	enum fields_policy policy;
	int empty_ok;        /* "" is a value (names: the server judges) */
	size_t offset;       /* of the char * in struct proto_request */
	const char *choices; /* FIELDS_ENUM: the words, ", " separated */
};

#define FIELDS_OFF(m) offsetof(struct proto_request, m)

static const struct fields_entry fields_table[PROTO_F_COUNT] = {
    [PROTO_F_NAME] = {"name", FIELDS_STRING, PROTO_FIELD_MAX, FIELDS_PLAIN, 1,
        FIELDS_OFF(name), NULL},
    [PROTO_F_TOKEN] = {"token", FIELDS_STRING, PROTO_FIELD_MAX, FIELDS_PLAIN, 0,
        FIELDS_OFF(token), NULL},
    [PROTO_F_GAME] = {"game", FIELDS_STRING, PROTO_FIELD_MAX, FIELDS_PLAIN, 0,
        FIELDS_OFF(game), NULL},
    [PROTO_F_ROOM] = {"room", FIELDS_STRING, PROTO_FIELD_MAX, FIELDS_PLAIN, 0,
        FIELDS_OFF(room), NULL},
    [PROTO_F_SEAT] = {"seat", FIELDS_SEAT, PROTO_FIELD_MAX, FIELDS_PLAIN, 0,
        FIELDS_OFF(seat), NULL},
    [PROTO_F_MOVE] = {"move", FIELDS_STRING, PROTO_MOVE_MAX, FIELDS_PLAIN, 0,
        FIELDS_OFF(move), NULL},
    [PROTO_F_FROM] = {"from", FIELDS_STRING, PROTO_FIELD_MAX, FIELDS_PLAIN, 0,
        FIELDS_OFF(from), NULL},
    [PROTO_F_TEXT] = {"text", FIELDS_STRING, PROTO_TEXT_MAX, FIELDS_TEXT, 0,
        FIELDS_OFF(text), NULL},
    [PROTO_F_ACTION] = {"action", FIELDS_ENUM, PROTO_FIELD_MAX, FIELDS_PLAIN, 0,
        FIELDS_OFF(action), "offer, accept, decline"},
    [PROTO_F_MODE] = {"mode", FIELDS_ENUM, PROTO_FIELD_MAX, FIELDS_PLAIN, 0,
        FIELDS_OFF(mode), "json, text"},
    [PROTO_F_STATUS] = {"status", FIELDS_ENUM, PROTO_FIELD_MAX, FIELDS_PLAIN, 0,
        FIELDS_OFF(status), "waiting, playing, ended, adjourned"},
    [PROTO_F_SEQ] = {"seq", FIELDS_SEQ, 0, FIELDS_PLAIN, 0, 0, NULL},
    [PROTO_F_PROTO] = {"proto", FIELDS_PROTO, 0, FIELDS_PLAIN, 0, 0, NULL},
    [PROTO_F_PRIVATE] = {"private", FIELDS_PRIVATE, 0, FIELDS_PLAIN, 0, 0,
        NULL},
    [PROTO_F_CLOCK] = {"clock", FIELDS_CLOCK, 0, FIELDS_PLAIN, 0, 0, NULL},
    [PROTO_F_OPTIONS] = {"options", FIELDS_OPTIONS, 0, FIELDS_PLAIN, 0, 0,
        NULL},
    [PROTO_F_BOTS] = {"bots", FIELDS_BOTS, 0, FIELDS_PLAIN, 0, 0, NULL},
    [PROTO_F_BOT] = {"bot", FIELDS_BOT, 0, FIELDS_PLAIN, 0, 0, NULL},
    [PROTO_F_SINCE] = {"since", FIELDS_SEQ, 0, FIELDS_PLAIN, 0, 0, NULL},
    [PROTO_F_DEPTH] = {"depth", FIELDS_DEPTH, 0, FIELDS_PLAIN, 0, 0, NULL},
    [PROTO_F_AT] = {"at", FIELDS_SEQ, 0, FIELDS_PLAIN, 0, 0, NULL},
    [PROTO_F_RATED] = {"rated", FIELDS_PRIVATE, 0, FIELDS_PLAIN, 0, 0, NULL},
    [PROTO_F_RANGE] = {"range", FIELDS_STRING, PROTO_FIELD_MAX, FIELDS_PLAIN, 0,
        FIELDS_OFF(range), NULL},
    [PROTO_F_SEEK] = {"seek", FIELDS_STRING, PROTO_FIELD_MAX, FIELDS_PLAIN, 0,
        FIELDS_OFF(seek), NULL},
    [PROTO_F_DO] = {"do", FIELDS_ENUM, PROTO_FIELD_MAX, FIELDS_PLAIN, 0,
        FIELDS_OFF(act), "create, join, leave, start, list, show"},
    [PROTO_F_TOURNEY] = {"tourney", FIELDS_STRING, PROTO_FIELD_MAX,
        FIELDS_PLAIN, 0, FIELDS_OFF(tourney), NULL},
    [PROTO_F_MINUTES] = {"minutes", FIELDS_SEQ, 0, FIELDS_PLAIN, 0, 0, NULL},
    [PROTO_F_ADDRESS] = {"address", FIELDS_STRING, PROTO_FIELD_MAX,
        FIELDS_PLAIN, 0, FIELDS_OFF(address), NULL},
    [PROTO_F_PASSWORD] = {"password", FIELDS_STRING, PROTO_PASSWORD_MAX,
        FIELDS_PLAIN, 0, FIELDS_OFF(password), NULL},
    [PROTO_F_OLD] = {"old", FIELDS_STRING, PROTO_PASSWORD_MAX, FIELDS_PLAIN, 0,
        FIELDS_OFF(old), NULL},
    [PROTO_F_EVENTS] = {"events", FIELDS_ENUM, PROTO_FIELD_MAX, FIELDS_PLAIN, 0,
        FIELDS_OFF(events), "full, lean"},
    [PROTO_F_LOBBY] = {"lobby", FIELDS_PRIVATE, 0, FIELDS_PLAIN, 0, 0, NULL},
};

/* A boolean field's two members: *has (given) and the value. */
static int *
fields_bool(struct proto_request *req, enum proto_field field, int **has)
{
	if (field == PROTO_F_RATED) {
		*has = &req->has_rated;
		return &req->is_rated;
	}
	if (field == PROTO_F_LOBBY) {
		*has = &req->has_lobby;
		return &req->is_lobby;
	}
	*has = &req->has_private;
	return &req->is_private;
}

/* Longest word of an enumeration. */
#define FIELDS_WORD_MAX 16

void
proto_errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	int n;
	size_t len, i;

	if (err == NULL || errlen == 0)
		return;
	va_start(ap, fmt);
	rules_said_vkeep(fmt, ap); /* its msgid, for a client that translates */
	va_end(ap);
	va_start(ap, fmt);
	n = vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	if (n < 0) {
		err[0] = '\0';
		return;
	}
	len = strlen(err);
	if ((size_t)n < errlen)
		return;
	/* truncated: never leave half a UTF-8 sequence at the end */
	i = len;
	while (i > 0 && ((unsigned char)err[i - 1] & 0xc0) == 0x80)
		i--;
	if (i > 0 && (unsigned char)err[i - 1] >= 0xc0)
		err[i - 1] = '\0';
	else if (!proto_utf8_valid(err, len))
		err[i] = '\0';
}

int
proto_utf8_valid(const char *s, size_t len)
{
	size_t i = 0, n;
	uint32_t cp;

	for (; i < len; i += n)
		if ((n = proto_utf8_next(s + i, len - i, &cp)) == 0)
			return 0;
	return 1;
}

char *
proto_strndup(const char *s, size_t len)
{
	char *p;

	p = malloc(len + 1);
	if (p == NULL)
		return NULL;
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

int
proto_parse_int(
    const char *s, size_t len, long long min, long long max, long long *out)
{
	size_t i = 0;
	int neg = 0;
	long long v = 0;

	if (len > 0 && s[0] == '-') {
		neg = 1;
		i = 1;
	}
	/* 16 digits hold PROTO_INT_MAX; more is out of range anyway */
	if (i == len || len - i > 16)
		return 0;
	for (; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		v = v * 10 + (s[i] - '0');
	}
	if (neg)
		v = -v;
	if (v < min || v > max)
		return 0;
	*out = v;
	return 1;
}

const char *
proto_field_name(enum proto_field field)
{
	if ((int)field < 0 || field >= PROTO_F_COUNT)
		return NULL;
	return fields_table[field].name;
}

int
proto_field_from_name(const char *name)
{
	int f;

	for (f = 0; f < PROTO_F_COUNT; f++) {
		if (strcmp(fields_table[f].name, name) == 0)
			return f;
	}
	return -1;
}

/* Check a string for a field called `label`: length, UTF-8, control
 * characters, emptiness. */
static enum proto_error
fields_check(const char *label, const char *s, size_t len, size_t max,
    enum fields_policy policy, int empty_ok, char *err, size_t errlen)
{
	size_t i;
	unsigned char c;
	uint32_t cp;

	if (len > max) {
		proto_errf(err, errlen, "field '%s' is longer than %zu bytes",
		    label, max);
		return PROTO_E_BAD_REQUEST;
	}
	if (len == 0 && !empty_ok) {
		proto_errf(err, errlen, "field '%s' must not be empty", label);
		return PROTO_E_BAD_REQUEST;
	}
	if (!proto_utf8_valid(s, len)) {
		proto_errf(err, errlen, "field '%s' is not valid UTF-8", label);
		return PROTO_E_BAD_REQUEST;
	}
	for (i = 0; i < len; i++) {
		c = (unsigned char)s[i];
		if (c >= 0x20 && c != 0x7f)
			continue;
		if (policy != FIELDS_PLAIN && (c == '\n' || c == '\t'))
			continue;
		if (policy == FIELDS_FILE && c == '\r')
			continue;
		proto_errf(err, errlen,
		    "field '%s' contains a control character", label);
		return PROTO_E_BAD_REQUEST;
	}
	if (proto_text_hiding(s, len, &cp) < len) {
		proto_errf(err, errlen,
		    "field '%s' contains U+%04lX, a character that reorders "
		    "or hides text",
		    label, (unsigned long)cp);
		return PROTO_E_BAD_REQUEST;
	}
	return PROTO_OK;
}

/* A counting field's (seq, since, at, minutes) value in req, and its
 * "present" flag in *has. */
static long long *
fields_count_slot(struct proto_request *req, enum proto_field field, int **has)
{
	switch (field) {
	case PROTO_F_SINCE:
		*has = &req->has_since;
		return &req->since;
	case PROTO_F_AT:
		*has = &req->has_at;
		return &req->at;
	case PROTO_F_MINUTES:
		*has = &req->has_minutes;
		return &req->minutes;
	default:
		*has = &req->has_seq;
		return &req->seq;
	}
}

/* Store v in a counting field; its "present" flag, for the caller to
 * set. */
static int *
fields_count(struct proto_request *req, enum proto_field field, long long *v)
{
	int *has;

	*fields_count_slot(req, field, &has) = *v;
	return has;
}

static int fields_present(
    const struct proto_request *req, enum proto_field field);

/* The slot of a string field. */
static char **
fields_slot(struct proto_request *req, enum proto_field field)
{
	return (char **)(void *)((char *)req + fields_table[field].offset);
}

/* A room's statuses in the order of enum proto_room_status (the status
 * field's choices above say the same words). */
static const char *const fields_room_status[PROTO_ROOM_STATUS_COUNT] = {
    "waiting", "playing", "ended", "adjourned"};

const char *
proto_room_status_name(enum proto_room_status s)
{
	if ((int)s < 0 || s >= PROTO_ROOM_STATUS_COUNT)
		return NULL;
	return fields_room_status[s];
}

enum proto_room_status
proto_room_status_from_name(const char *s, size_t len)
{
	int i;

	for (i = 0; i < PROTO_ROOM_STATUS_COUNT; i++)
		if (len == strlen(fields_room_status[i]) &&
		    strncasecmp(s, fields_room_status[i], len) == 0)
			return (enum proto_room_status)i;
	return PROTO_ROOM_STATUS_COUNT;
}

/* Find `word` (any case) among an enumeration's choices: its canonical
 * spelling, or NULL. */
static const char *
fields_choice(
    const char *choices, const char *word, size_t len, char *buf, size_t buflen)
{
	const char *p = choices, *end;
	size_t n;

	while (*p != '\0') {
		end = strchr(p, ',');
		n = end == NULL ? strlen(p) : (size_t)(end - p);
		if (n == len && n < buflen && strncasecmp(p, word, n) == 0) {
			memcpy(buf, p, n);
			buf[n] = '\0';
			return buf;
		}
		if (end == NULL)
			break;
		p = end + 2;
	}
	return NULL;
}

/* Store a checked string in a string field. */
static enum proto_error
fields_store(struct proto_request *req, enum proto_field field, const char *s,
    size_t len, char *err, size_t errlen)
{
	const struct fields_entry *fe = &fields_table[field];
	char **slot = fields_slot(req, field);
	char word[FIELDS_WORD_MAX];
	enum proto_error e;

	if (*slot != NULL) {
		proto_errf(err, errlen, "field '%s' is given twice", fe->name);
		return PROTO_E_BAD_REQUEST;
	}
	e = fields_check(
	    fe->name, s, len, fe->max, fe->policy, fe->empty_ok, err, errlen);
	if (e != PROTO_OK)
		return e;
	if (fe->kind == FIELDS_ENUM) {
		s = fields_choice(fe->choices, s, len, word, sizeof word);
		if (s == NULL) {
			proto_errf(err, errlen, "field '%s' must be one of %s",
			    fe->name, fe->choices);
			return PROTO_E_BAD_REQUEST;
		}
		len = strlen(s);
	}
	*slot = proto_strndup(s, len);
	if (*slot == NULL) {
		proto_errf(err, errlen, "out of memory");
		return PROTO_E_INTERNAL;
	}
	return PROTO_OK;
}

/* A JSON number that is an integer within [min, max]: 1 and *out set. */
static int
fields_json_int(const cJSON *item, long long min, long long max, long long *out)
{
	double d;
	long long v;

	if (!cJSON_IsNumber(item))
		return 0;
	d = item->valuedouble;
	if (!(d >= (double)-PROTO_INT_MAX && d <= (double)PROTO_INT_MAX))
		return 0;
	v = (long long)d;
	if ((double)v != d || v < min || v > max)
		return 0;
	*out = v;
	return 1;
}

/* Add one bot; seat NULL: every free seat. */
static enum proto_error
fields_add_bot(struct proto_request *req, const char *seat, size_t seatlen,
    long long level, char *err, size_t errlen)
{
	enum proto_error e;
	int i;

	if (seat != NULL) {
		e = fields_check("bots", seat, seatlen, PROTO_FIELD_MAX,
		    FIELDS_PLAIN, 0, err, errlen);
		if (e != PROTO_OK)
			return e;
	}
	for (i = 0; i < req->nbots; i++) {
		if ((seat == NULL && req->bots[i].seat == NULL) ||
		    (seat != NULL && req->bots[i].seat != NULL &&
		        strlen(req->bots[i].seat) == seatlen &&
		        memcmp(req->bots[i].seat, seat, seatlen) == 0)) {
			proto_errf(err, errlen,
			    "a bot for seat '%.*s' is given "
			    "twice",
			    seat == NULL ? 3 : (int)seatlen,
			    seat == NULL ? "any" : seat);
			return PROTO_E_BAD_REQUEST;
		}
	}
	if (req->nbots == PROTO_MAX_BOTS) {
		proto_errf(err, errlen, "field 'bots' has more than %d seats",
		    PROTO_MAX_BOTS);
		return PROTO_E_BAD_REQUEST;
	}
	if (seat != NULL) {
		req->bots[req->nbots].seat = proto_strndup(seat, seatlen);
		if (req->bots[req->nbots].seat == NULL) {
			proto_errf(err, errlen, "out of memory");
			return PROTO_E_INTERNAL;
		}
	}
	req->bots[req->nbots].level = (int)level;
	req->nbots++;
	return PROTO_OK;
}

enum proto_error
proto_request_add_option(struct proto_request *req, const char *key,
    size_t keylen, const char *value, size_t len, char *err, size_t errlen)
{
	struct proto_kv *kv;
	char label[PROTO_OPTION_KEY_MAX + 16];
	enum proto_error e;
	int i;

	e = fields_check("options", key, keylen, PROTO_OPTION_KEY_MAX,
	    FIELDS_PLAIN, 0, err, errlen);
	if (e != PROTO_OK) {
		proto_errf(err, errlen,
		    "an option name is empty, too long "
		    "or not plain text");
		return e;
	}
	snprintf(label, sizeof label, "options.%.*s", (int)keylen, key);
	for (i = 0; i < req->noptions; i++) {
		if (strlen(req->options[i].key) == keylen &&
		    memcmp(req->options[i].key, key, keylen) == 0) {
			proto_errf(
			    err, errlen, "field '%s' is given twice", label);
			return PROTO_E_BAD_REQUEST;
		}
	}
	if (req->noptions == PROTO_MAX_OPTIONS) {
		proto_errf(err, errlen,
		    "field 'options' has more than %d "
		    "options",
		    PROTO_MAX_OPTIONS);
		return PROTO_E_BAD_REQUEST;
	}
	e = fields_check(label, value, len, PROTO_OPTION_VALUE_MAX, FIELDS_FILE,
	    1, err, errlen);
	if (e != PROTO_OK)
		return e;
	kv = &req->options[req->noptions];
	kv->key = proto_strndup(key, keylen);
	kv->value = proto_strndup(value, len);
	if (kv->key == NULL || kv->value == NULL) {
		free(kv->key);
		free(kv->value);
		kv->key = kv->value = NULL;
		proto_errf(err, errlen, "out of memory");
		return PROTO_E_INTERNAL;
	}
	req->noptions++;
	return PROTO_OK;
}

/* JSON "options": {key: string or integer}. */
static enum proto_error
fields_json_options(
    struct proto_request *req, const cJSON *item, char *err, size_t errlen)
{
	const cJSON *c;
	char num[32];
	long long v;
	enum proto_error e;
	size_t keylen;

	if (!cJSON_IsObject(item)) {
		proto_errf(err, errlen, "field 'options' must be an object");
		return PROTO_E_BAD_REQUEST;
	}
	cJSON_ArrayForEach(c, item) {
		keylen = strlen(c->string);
		if (cJSON_IsString(c))
			e = proto_request_add_option(req, c->string, keylen,
			    c->valuestring, strlen(c->valuestring), err,
			    errlen);
		else if (fields_json_int(
		             c, -PROTO_INT_MAX, PROTO_INT_MAX, &v)) {
			snprintf(num, sizeof num, "%lld", v);
			e = proto_request_add_option(req, c->string, keylen,
			    num, strlen(num), err, errlen);
		} else {
			e = fields_check("options", c->string, keylen,
			    PROTO_OPTION_KEY_MAX, FIELDS_PLAIN, 0, err, errlen);
			if (e == PROTO_OK)
				proto_errf(err, errlen,
				    "field 'options.%s' "
				    "must be a string or an integer",
				    c->string);
			else
				proto_errf(err, errlen,
				    "an option name is "
				    "empty, too long or not plain text");
			e = PROTO_E_BAD_REQUEST;
		}
		if (e != PROTO_OK)
			return e;
	}
	return PROTO_OK;
}

/* JSON "bots": {seat: level}. */
static enum proto_error
fields_json_bots(
    struct proto_request *req, const cJSON *item, char *err, size_t errlen)
{
	const cJSON *c;
	long long level;
	enum proto_error e;
	size_t seatlen;

	if (!cJSON_IsObject(item)) {
		proto_errf(err, errlen,
		    "field 'bots' must be an object "
		    "{\"SEAT\": LEVEL}");
		return PROTO_E_BAD_REQUEST;
	}
	cJSON_ArrayForEach(c, item) {
		seatlen = strlen(c->string);
		e = fields_check("bots", c->string, seatlen, PROTO_FIELD_MAX,
		    FIELDS_PLAIN, 0, err, errlen);
		if (e != PROTO_OK)
			return e;
		if (!fields_json_int(
		        c, PROTO_BOT_LEVEL_MIN, PROTO_BOT_LEVEL_MAX, &level)) {
			proto_errf(err, errlen,
			    "field 'bots.%s' must be an "
			    "integer from %d to %d",
			    c->string, PROTO_BOT_LEVEL_MIN,
			    PROTO_BOT_LEVEL_MAX);
			return PROTO_E_BAD_REQUEST;
		}
		e = fields_add_bot(req, c->string, seatlen, level, err, errlen);
		if (e != PROTO_OK)
			return e;
	}
	return PROTO_OK;
}

/* JSON "clock": {initial, increment?}. */
static enum proto_error
fields_json_clock(
    struct proto_request *req, const cJSON *item, char *err, size_t errlen)
{
	const cJSON *ini, *inc;
	long long a, b = 0;

	if (!cJSON_IsObject(item)) {
		proto_errf(err, errlen,
		    "field 'clock' must be an object "
		    "{\"initial\": SECONDS, \"increment\": SECONDS}");
		return PROTO_E_BAD_REQUEST;
	}
	ini = cJSON_GetObjectItemCaseSensitive(item, "initial");
	inc = cJSON_GetObjectItemCaseSensitive(item, "increment");
	if (ini == NULL || cJSON_IsNull(ini)) {
		proto_errf(err, errlen, "field 'clock.initial' is required");
		return PROTO_E_BAD_REQUEST;
	}
	if (!fields_json_int(
	        ini, PROTO_CLOCK_INITIAL_MIN, PROTO_CLOCK_INITIAL_MAX, &a)) {
		proto_errf(err, errlen,
		    "field 'clock.initial' must be an "
		    "integer from %d to %d",
		    PROTO_CLOCK_INITIAL_MIN, PROTO_CLOCK_INITIAL_MAX);
		return PROTO_E_BAD_REQUEST;
	}
	if (inc != NULL && !cJSON_IsNull(inc) &&
	    !fields_json_int(inc, PROTO_CLOCK_INCREMENT_MIN,
	        PROTO_CLOCK_INCREMENT_MAX, &b)) {
		proto_errf(err, errlen,
		    "field 'clock.increment' must be an "
		    "integer from %d to %d",
		    PROTO_CLOCK_INCREMENT_MIN, PROTO_CLOCK_INCREMENT_MAX);
		return PROTO_E_BAD_REQUEST;
	}
	req->has_clock = 1;
	req->clock_initial = (long)a;
	req->clock_increment = (long)b;
	return PROTO_OK;
}

/* Set the protocol version, refusing any but ours. */
static enum proto_error
fields_proto(struct proto_request *req, long long v, char *err, size_t errlen)
{
	if (v != PROTO_VERSION) {
		proto_errf(err, errlen, "this server speaks protocol %d",
		    PROTO_VERSION);
		return PROTO_E_BAD_REQUEST;
	}
	req->has_proto = 1;
	req->proto = (long)v;
	return PROTO_OK;
}

/* The reason a depth is refused. */
static enum proto_error
fields_depth_error(char *err, size_t errlen)
{
	proto_errf(err, errlen, "field 'depth' must be an integer from 1 to %d",
	    PROTO_BOT_DEPTH_MAX);
	return PROTO_E_BAD_REQUEST;
}

enum proto_error
proto_field_json(struct proto_request *req, enum proto_field field,
    const cJSON *item, char *err, size_t errlen)
{
	const struct fields_entry *fe = &fields_table[field];
	char num[32];
	long long v;

	if (item == NULL || cJSON_IsNull(item))
		return PROTO_OK;
	switch (fe->kind) {
	case FIELDS_STRING:
	case FIELDS_ENUM:
		if (cJSON_IsString(item))
			return fields_store(req, field, item->valuestring,
			    strlen(item->valuestring), err, errlen);
		if (fe->kind == FIELDS_ENUM)
			proto_errf(err, errlen, "field '%s' must be one of %s",
			    fe->name, fe->choices);
		else
			proto_errf(err, errlen, "field '%s' must be a string",
			    fe->name);
		return PROTO_E_BAD_REQUEST;
	case FIELDS_SEAT:
		if (cJSON_IsString(item))
			return fields_store(req, field, item->valuestring,
			    strlen(item->valuestring), err, errlen);
		if (fields_json_int(item, 1, PROTO_INT_MAX, &v)) {
			snprintf(num, sizeof num, "%lld", v);
			return fields_store(
			    req, field, num, strlen(num), err, errlen);
		}
		proto_errf(err, errlen,
		    "field '%s' must be a seat name or a "
		    "seat number from 1",
		    fe->name);
		return PROTO_E_BAD_REQUEST;
	case FIELDS_SEQ:
		if (!fields_json_int(item, 0, PROTO_INT_MAX, &v)) {
			proto_errf(err, errlen,
			    "field '%s' must be an "
			    "integer from 0 to %lld",
			    fe->name, PROTO_INT_MAX);
			return PROTO_E_BAD_REQUEST;
		}
		*fields_count(req, field, &v) = 1;
		return PROTO_OK;
	case FIELDS_PROTO:
		if (!fields_json_int(item, -PROTO_INT_MAX, PROTO_INT_MAX, &v)) {
			proto_errf(err, errlen,
			    "field 'proto' must be an "
			    "integer");
			return PROTO_E_BAD_REQUEST;
		}
		return fields_proto(req, v, err, errlen);
	case FIELDS_PRIVATE: {
		int *has, *val = fields_bool(req, field, &has);

		if (!cJSON_IsBool(item)) {
			proto_errf(err, errlen,
			    "field '%s' must be true "
			    "or false",
			    fe->name);
			return PROTO_E_BAD_REQUEST;
		}
		*has = 1;
		*val = cJSON_IsTrue(item);
		return PROTO_OK;
	}
	case FIELDS_CLOCK:
		return fields_json_clock(req, item, err, errlen);
	case FIELDS_OPTIONS:
		return fields_json_options(req, item, err, errlen);
	case FIELDS_BOTS:
		return fields_json_bots(req, item, err, errlen);
	case FIELDS_BOT:
		if (!fields_json_int(
		        item, PROTO_BOT_LEVEL_MIN, PROTO_BOT_LEVEL_MAX, &v)) {
			proto_errf(err, errlen,
			    "field 'bot' must be an integer "
			    "from %d to %d",
			    PROTO_BOT_LEVEL_MIN, PROTO_BOT_LEVEL_MAX);
			return PROTO_E_BAD_REQUEST;
		}
		return fields_add_bot(req, NULL, 0, v, err, errlen);
	case FIELDS_DEPTH:
		if (!fields_json_int(item, 1, PROTO_BOT_DEPTH_MAX, &v))
			return fields_depth_error(err, errlen);
		req->bot_depth = (int)v;
		return PROTO_OK;
	}
	proto_errf(err, errlen, "field '%s' is not known", fe->name);
	return PROTO_E_INTERNAL;
}

/* Shorthand bots=SEAT:LEVEL,SEAT:LEVEL. */
static enum proto_error
fields_text_bots(struct proto_request *req, const char *s, size_t len,
    char *err, size_t errlen)
{
	const char *p = s, *end = s + len, *comma, *colon;
	long long level;
	enum proto_error e;

	while (p < end) {
		comma = memchr(p, ',', (size_t)(end - p));
		if (comma == NULL)
			comma = end;
		colon = memchr(p, ':', (size_t)(comma - p));
		if (colon == NULL || colon == p ||
		    !proto_parse_int(colon + 1, (size_t)(comma - colon - 1),
		        PROTO_BOT_LEVEL_MIN, PROTO_BOT_LEVEL_MAX, &level)) {
			proto_errf(err, errlen,
			    "field 'bots' must look like "
			    "SEAT:LEVEL,SEAT:LEVEL with levels from %d to %d",
			    PROTO_BOT_LEVEL_MIN, PROTO_BOT_LEVEL_MAX);
			return PROTO_E_BAD_REQUEST;
		}
		e = fields_add_bot(
		    req, p, (size_t)(colon - p), level, err, errlen);
		if (e != PROTO_OK)
			return e;
		p = comma + 1;
	}
	if (len == 0 || s[len - 1] == ',') {
		proto_errf(err, errlen,
		    "field 'bots' must look like "
		    "SEAT:LEVEL,SEAT:LEVEL");
		return PROTO_E_BAD_REQUEST;
	}
	return PROTO_OK;
}

/* Shorthand private=yes|no|true|false|1|0; rated takes the seek's
 * words too, rated|casual (seek ataxx rated). */
static enum proto_error
fields_text_private(struct proto_request *req, enum proto_field field,
    const char *s, size_t len, char *err, size_t errlen)
{
	static const char *const yes[] = {"yes", "true", "1", "rated"};
	static const char *const no[] = {"no", "false", "0", "casual"};
	size_t i, n = field == PROTO_F_RATED ? 4 : 3;
	int *has, *val = fields_bool(req, field, &has);

	for (i = 0; i < n; i++) {
		if (len == strlen(yes[i]) && strncasecmp(s, yes[i], len) == 0) {
			*has = *val = 1;
			return PROTO_OK;
		}
		if (len == strlen(no[i]) && strncasecmp(s, no[i], len) == 0) {
			*has = 1;
			*val = 0;
			return PROTO_OK;
		}
	}
	if (field == PROTO_F_RATED)
		proto_errf(err, errlen,
		    "field 'rated' must be yes or no (rated or casual)");
	else
		proto_errf(err, errlen, "field 'private' must be yes or no");
	return PROTO_E_BAD_REQUEST;
}

enum proto_error
proto_field_text(struct proto_request *req, enum proto_field field,
    const char *value, size_t len, char *err, size_t errlen)
{
	const struct fields_entry *fe = &fields_table[field];
	long long v;

	switch (fe->kind) {
	case FIELDS_STRING:
	case FIELDS_ENUM:
	case FIELDS_SEAT:
		return fields_store(req, field, value, len, err, errlen);
	case FIELDS_SEQ:
		if (fields_present(req, field)) {
			proto_errf(
			    err, errlen, "field '%s' is given twice", fe->name);
			return PROTO_E_BAD_REQUEST;
		}
		if (!proto_parse_int(value, len, 0, PROTO_INT_MAX, &v)) {
			proto_errf(err, errlen,
			    "field '%s' must be an "
			    "integer from 0 to %lld",
			    fe->name, PROTO_INT_MAX);
			return PROTO_E_BAD_REQUEST;
		}
		*fields_count(req, field, &v) = 1;
		return PROTO_OK;
	case FIELDS_PROTO:
		if (!proto_parse_int(
		        value, len, -PROTO_INT_MAX, PROTO_INT_MAX, &v)) {
			proto_errf(err, errlen,
			    "field 'proto' must be an "
			    "integer");
			return PROTO_E_BAD_REQUEST;
		}
		return fields_proto(req, v, err, errlen);
	case FIELDS_PRIVATE:
		return fields_text_private(req, field, value, len, err, errlen);
	case FIELDS_BOTS:
		return fields_text_bots(req, value, len, err, errlen);
	case FIELDS_BOT:
		if (!proto_parse_int(value, len, PROTO_BOT_LEVEL_MIN,
		        PROTO_BOT_LEVEL_MAX, &v)) {
			proto_errf(err, errlen,
			    "field 'bot' must be an integer "
			    "from %d to %d",
			    PROTO_BOT_LEVEL_MIN, PROTO_BOT_LEVEL_MAX);
			return PROTO_E_BAD_REQUEST;
		}
		return fields_add_bot(req, NULL, 0, v, err, errlen);
	case FIELDS_DEPTH:
		if (!proto_parse_int(value, len, 1, PROTO_BOT_DEPTH_MAX, &v))
			return fields_depth_error(err, errlen);
		req->bot_depth = (int)v;
		return PROTO_OK;
	case FIELDS_CLOCK:
		proto_errf(err, errlen,
		    "in shorthand the clock is "
		    "time=SECONDS inc=SECONDS");
		return PROTO_E_BAD_REQUEST;
	case FIELDS_OPTIONS:
		proto_errf(err, errlen,
		    "in shorthand each option is "
		    "KEY=VALUE");
		return PROTO_E_BAD_REQUEST;
	}
	proto_errf(err, errlen, "field '%s' is not known", fe->name);
	return PROTO_E_INTERNAL;
}

/* Whether a field is present in a request. */
static int
fields_present(const struct proto_request *req, enum proto_field field)
{
	switch (fields_table[field].kind) {
	case FIELDS_STRING:
	case FIELDS_ENUM:
	case FIELDS_SEAT:
		return *fields_slot((struct proto_request *)req, field) != NULL;
	case FIELDS_SEQ: {
		int *has;

		fields_count_slot((struct proto_request *)req, field, &has);
		return *has;
	}
	case FIELDS_PROTO:
		return req->has_proto;
	case FIELDS_PRIVATE: {
		int *has;

		fields_bool((struct proto_request *)req, field, &has);
		return *has;
	}
	case FIELDS_CLOCK:
		return req->has_clock;
	case FIELDS_OPTIONS:
		return req->noptions > 0;
	case FIELDS_BOTS:
	case FIELDS_BOT:
		return req->nbots > 0;
	case FIELDS_DEPTH:
		return req->bot_depth > 0;
	}
	return 0;
}

/* 1 when s is all decimal digits (a seat given by its number). */
static int
fields_digits(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s != '\0'; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* The bots of req as JSON: "bot" (a level for every free seat) when
 * named is 0, "bots" ({seat: level}) when 1. 0, or -1 out of memory. */
static int
fields_encode_bots(cJSON *o, const struct proto_request *req, int named)
{
	cJSON *bots = NULL;
	int i;

	for (i = 0; i < req->nbots; i++) {
		if ((req->bots[i].seat != NULL) != named)
			continue;
		if (!named) /* one level for every free seat */
			return cJSON_AddNumberToObject(
			           o, "bot", req->bots[i].level) != NULL
			    ? 0
			    : -1;
		if (bots == NULL &&
		    (bots = cJSON_AddObjectToObject(o, "bots")) == NULL)
			return -1;
		if (cJSON_AddNumberToObject(
		        bots, req->bots[i].seat, req->bots[i].level) == NULL)
			return -1;
	}
	return 0;
}

/* One field of req into o (it is present); 0, or -1 out of memory. */
static int
fields_encode_one(
    cJSON *o, const struct proto_request *req, enum proto_field field)
{
	const struct fields_entry *fe = &fields_table[field];
	const char *str = fe->offset != 0
	    ? *fields_slot((struct proto_request *)req, field)
	    : NULL;
	cJSON *sub;
	int i;

	switch (fe->kind) {
	case FIELDS_SEAT: /* a number when typed as one, else a name */
		if (!fields_digits(str))
			return cJSON_AddStringToObject(o, fe->name, str) != NULL
			    ? 0
			    : -1;
		return cJSON_AddNumberToObject(
		           o, fe->name, strtod(str, NULL)) != NULL
		    ? 0
		    : -1;
	case FIELDS_STRING:
	case FIELDS_ENUM:
		return cJSON_AddStringToObject(o, fe->name, str) != NULL ? 0
		                                                         : -1;
	case FIELDS_SEQ: {
		int *has;

		return cJSON_AddNumberToObject(o, fe->name,
		           (double)*fields_count_slot(
		               (struct proto_request *)req, field, &has)) !=
		        NULL
		    ? 0
		    : -1;
	}
	case FIELDS_PROTO:
		return cJSON_AddNumberToObject(
		           o, fe->name, (double)req->proto) != NULL
		    ? 0
		    : -1;
	case FIELDS_PRIVATE: {
		int *has,
		    *val =
		        fields_bool((struct proto_request *)req, field, &has);

		return cJSON_AddBoolToObject(o, fe->name, *val) != NULL ? 0
		                                                        : -1;
	}
	case FIELDS_CLOCK:
		sub = cJSON_AddObjectToObject(o, fe->name);
		return sub != NULL &&
		        cJSON_AddNumberToObject(sub, "initial",
		            (double)req->clock_initial) != NULL &&
		        cJSON_AddNumberToObject(sub, "increment",
		            (double)req->clock_increment) != NULL
		    ? 0
		    : -1;
	case FIELDS_OPTIONS:
		sub = cJSON_AddObjectToObject(o, fe->name);
		for (i = 0; sub != NULL && i < req->noptions; i++)
			if (cJSON_AddStringToObject(sub, req->options[i].key,
			        req->options[i].value) == NULL)
				return -1;
		return sub != NULL ? 0 : -1;
	case FIELDS_BOTS:
		return fields_encode_bots(o, req, 1);
	case FIELDS_BOT:
		return fields_encode_bots(o, req, 0);
	case FIELDS_DEPTH:
		return cJSON_AddNumberToObject(o, fe->name, req->bot_depth) !=
		        NULL
		    ? 0
		    : -1;
	}
	return -1;
}

cJSON *
proto_request_encode(const struct proto_request *req)
{
	const char *verb = proto_verb_name(req->verb);
	cJSON *o = cJSON_CreateObject();
	int f;

	if (o == NULL || verb == NULL ||
	    cJSON_AddStringToObject(o, "cmd", verb) == NULL)
		goto fail;
	for (f = 0; f < PROTO_F_COUNT; f++) {
		/* FIELDS_BOTS and FIELDS_BOT share req->bots: each encodes
		 * its own kind, so both are asked */
		if (!fields_present(req, (enum proto_field)f))
			continue;
		if (fields_encode_one(o, req, (enum proto_field)f) != 0)
			goto fail;
	}
	return o;
fail:
	cJSON_Delete(o);
	return NULL;
}

enum proto_error
proto_request_check(struct proto_request *req, char *err, size_t errlen)
{
	unsigned required = proto_verb_required(req->verb);
	int f;

	for (f = 0; required != 0 && f < PROTO_F_COUNT; f++) {
		if ((required & 1u << f) &&
		    !fields_present(req, (enum proto_field)f)) {
			proto_errf(err, errlen, "field '%s' is required",
			    fields_table[f].name);
			return PROTO_E_BAD_REQUEST;
		}
	}
	return PROTO_OK;
}

void
proto_request_free(struct proto_request *req)
{
	int i, f;

	if (req == NULL)
		return;
	free(req->cmd);
	free(req->id);
	for (f = 0; f < PROTO_F_COUNT; f++) {
		char *p;

		if (fields_table[f].offset == 0)
			continue;
		/* most are absent: no call for them */
		p = *fields_slot(req, (enum proto_field)f);
		if (p != NULL)
			free(p);
	}
	for (i = 0; i < req->noptions; i++) {
		free(req->options[i].key);
		free(req->options[i].value);
	}
	for (i = 0; i < req->nbots; i++)
		free(req->bots[i].seat);
	memset(req, 0, sizeof *req);
	req->verb = PROTO_VERB_COUNT;
}

const char *
proto_request_option(const struct proto_request *req, const char *key)
{
	int i;

	for (i = 0; i < req->noptions; i++) {
		if (strcmp(req->options[i].key, key) == 0)
			return req->options[i].value;
	}
	return NULL;
}

/* The error for a verb nobody knows, naming it when it could be read. */
enum proto_error
proto_unknown_cmd(const struct proto_request *req, char *err, size_t errlen)
{
	if (req->cmd != NULL)
		proto_errf(err, errlen,
		    "unknown command '%s' (help lists them)", req->cmd);
	else
		proto_errf(err, errlen, "unknown command (help lists them)");
	return PROTO_E_UNKNOWN_CMD;
}
