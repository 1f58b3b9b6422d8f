/*
 * rules.c: what every game shares: option checking against a game's option
 * table, the generic perft, error formatting and a small random generator.
 */
#include "rules.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
rules_out_init(struct rules_out *o, char *buf, size_t len)
{
	o->buf = buf;
	o->len = len;
	o->used = 0;
	o->full = len == 0;
	if (len > 0)
		buf[0] = '\0';
}

/* Is there room for n more bytes and the NUL? If not, the writer is full
 * from now on. */
static int
rules_out_room(struct rules_out *o, size_t n)
{
	if (o->full || o->used >= o->len || n >= o->len - o->used) {
		o->full = 1;
		return 0;
	}
	return 1;
}

/* Append formatted text; out of room marks the writer full. For whole
 * sentences: characters and numbers have their own writers below. */
void
rules_out_add(struct rules_out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->full)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->used, o->len - o->used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= o->len - o->used) {
		o->full = 1;
		return;
	}
	o->used += (size_t)n;
}

void
rules_out_mem(struct rules_out *o, const char *s, size_t n)
{
	if (!rules_out_room(o, n))
		return;
	memcpy(o->buf + o->used, s, n);
	o->used += n;
	o->buf[o->used] = '\0';
}

void
rules_out_str(struct rules_out *o, const char *str)
{
	rules_out_mem(o, str, strlen(str));
}

void
rules_out_char(struct rules_out *o, char c)
{
	if (!rules_out_room(o, 1))
		return;
	o->buf[o->used++] = c;
	o->buf[o->used] = '\0';
}

/* A decimal number right-aligned in width characters, as "%*lld". */
void
rules_out_int(struct rules_out *o, long long v, int width)
{
	/* 20 digits and a sign hold any long long. */
	char digits[24], *p = digits + sizeof digits;
	unsigned long long u =
	    v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v;
	int n;

	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u != 0);
	if (v < 0)
		*--p = '-';
	n = (int)(digits + sizeof digits - p);
	for (; width > n; width--)
		rules_out_char(o, ' ');
	rules_out_mem(o, p, (size_t)n);
}

/* The text's length, or -1 (and an empty buffer) when it did not fit. */
int
rules_out_done(struct rules_out *o)
{
	if (o->full) {
		if (o->len > 0)
			o->buf[0] = '\0';
		return -1;
	}
	return (int)o->used;
}

int
rules_is_pass(struct rules_move m)
{
	return m.to == RULES_NONE;
}

int
rules_move_eq(struct rules_move a, struct rules_move b)
{
	return a.from == b.from && a.to == b.to && a.arg == b.arg;
}

/* Is m among the n moves of list? */
int
rules_move_listed(const struct rules_move *list, int n, struct rules_move m)
{
	int i;

	for (i = 0; i < n; i++)
		if (rules_move_eq(list[i], m))
			return 1;
	return 0;
}

const struct rules_optdesc *
rules_optdesc_find(const struct rules_game *g, const char *key)
{
	const struct rules_optdesc *d;

	for (d = g->options; d != NULL && d->name != NULL; d++)
		if (strcmp(d->name, key) == 0)
			return d;
	return NULL;
}

/* Parse a whole decimal integer; 0 or -1. */
static int
rules_parse_long(const char *s, long *out)
{
	char *end;

	if (*s == '\0')
		return -1;
	errno = 0;
	*out = strtol(s, &end, 10);
	if (errno != 0 || *end != '\0')
		return -1;
	return 0;
}

/* Is word one of the '|'-separated choices? */
static int
rules_choice_ok(const char *choices, const char *word)
{
	size_t n = strlen(word);
	const char *p = choices;

	while (*p != '\0') {
		const char *bar = strchr(p, '|');
		size_t len = bar != NULL ? (size_t)(bar - p) : strlen(p);

		if (len == n && strncmp(p, word, n) == 0)
			return 1;
		if (bar == NULL)
			break;
		p = bar + 1;
	}
	return 0;
}

/* Check options against the game's table: every key known, given once, and
 * every value of its type and range. The reason names the option. */
int
rules_opts_check(const struct rules_game *g, const struct rules_opt *opts,
    int nopts, char *err, size_t errlen)
{
	int i, j;

	for (i = 0; i < nopts; i++) {
		const struct rules_optdesc *d;
		long v;

		d = rules_optdesc_find(g, opts[i].key);
		if (d == NULL) {
			rules_seterr(err, errlen, "%s has no option '%s'",
			    g->name, opts[i].key);
			return -1;
		}
		for (j = 0; j < i; j++) {
			if (strcmp(opts[j].key, opts[i].key) == 0) {
				rules_seterr(err, errlen,
				    "option '%s' is given twice", d->name);
				return -1;
			}
		}
		switch (d->type) {
		case RULES_OPT_INT:
			if (rules_parse_long(opts[i].value, &v) != 0 ||
			    v < d->min || v > d->max) {
				rules_seterr(err, errlen,
				    "option '%s' must be a whole number "
				    "from %ld to %ld",
				    d->name, d->min, d->max);
				return -1;
			}
			break;
		case RULES_OPT_CHOICE:
			if (!rules_choice_ok(d->choices, opts[i].value)) {
				rules_seterr(err, errlen,
				    "option '%s' must be one of %s", d->name,
				    d->choices);
				return -1;
			}
			break;
		case RULES_OPT_TEXT:
			if (strlen(opts[i].value) > (size_t)d->max) {
				rules_seterr(err, errlen,
				    "option '%s' is longer than %ld bytes",
				    d->name, d->max);
				return -1;
			}
			break;
		}
	}
	return 0;
}

/* 1 when game g declares the option name in its table. */
int
rules_has_option(const struct rules_game *g, const char *name)
{
	const struct rules_optdesc *d;

	for (d = g->options; d != NULL && d->name != NULL; d++)
		if (strcmp(d->name, name) == 0)
			return 1;
	return 0;
}

/* Set up st for a new game from a room's options, as every room starts
 * (the server, and the client replaying a room): the game's own options,
 * checked, go to init; a `file` (for a game with import_file that does not
 * declare it) and a `position` are loaded after it. 0, or -1 with the
 * reason in err. */
int
rules_start(const struct rules_game *g, void *st, const struct rules_opt *opts,
    int nopts, char *err, size_t errlen)
{
	struct rules_opt own[RULES_START_OPTS_MAX];
	const char *file = NULL, *position = NULL;
	int i, n = 0;

	for (i = 0; i < nopts; i++) {
		const char *k = opts[i].key;

		if (strcmp(k, RULES_OPT_FILE) == 0 && g->import_file != NULL &&
		    !rules_has_option(g, RULES_OPT_FILE))
			file = opts[i].value;
		else if (strcmp(k, RULES_OPT_POSITION) == 0 &&
		    !rules_has_option(g, RULES_OPT_POSITION))
			position = opts[i].value;
		else if (n < RULES_START_OPTS_MAX)
			own[n++] = opts[i];
		else {
			rules_seterr(err, errlen, "too many options");
			return -1;
		}
	}
	memset(st, 0, g->state_size);
	if (rules_opts_check(g, own, n, err, errlen) != 0 ||
	    g->init(st, own, n, err, errlen) != 0)
		return -1;
	if (file != NULL &&
	    g->import_file(st, file, strlen(file), err, errlen) != 0)
		return -1;
	if (position != NULL &&
	    g->from_position(st, position, err, errlen) != 0) {
		char why[RULES_ERR_MAX];

		snprintf(why, sizeof why, "%s", err);
		rules_seterr(err, errlen, "option 'position': %s", why);
		return -1;
	}
	return 0;
}

/* The value given for key, else its default (NULL when it has none). */
const char *
rules_opt_get(const struct rules_game *g, const struct rules_opt *opts,
    int nopts, const char *key)
{
	const struct rules_optdesc *d;
	int i;

	for (i = 0; i < nopts; i++)
		if (strcmp(opts[i].key, key) == 0)
			return opts[i].value;
	d = rules_optdesc_find(g, key);
	return d != NULL ? d->def : NULL;
}

/* An integer option already checked by rules_opts_check(), else its
 * default; 0 when neither exists. */
long
rules_opt_long(const struct rules_game *g, const struct rules_opt *opts,
    int nopts, const char *key)
{
	const char *s = rules_opt_get(g, opts, nopts, key);
	long v;

	if (s == NULL || rules_parse_long(s, &v) != 0)
		return 0;
	return v;
}

/* Count leaves by copy-make over the interface; buffers come from one
 * allocation per call, never from move generation. */
static uint64_t
rules_perft_walk(const struct rules_game *g, const void *st, int depth,
    unsigned char *states, struct rules_move *moves)
{
	struct rules_move *mv = moves + (size_t)depth * RULES_MAX_MOVES;
	void *next = states + (size_t)depth * g->state_size;
	uint64_t total = 0;
	int i, n;

	n = g->legal_moves(st, mv, RULES_MAX_MOVES);
	if (depth == 1)
		return (uint64_t)n;
	for (i = 0; i < n; i++) {
		memcpy(next, st, g->state_size);
		g->apply(next, mv[i]);
		total += rules_perft_walk(g, next, depth - 1, states, moves);
	}
	return total;
}

uint64_t
rules_perft_generic(const struct rules_game *g, const void *st, int depth)
{
	unsigned char *states;
	struct rules_move *moves;
	uint64_t n;

	if (depth <= 0)
		return 1;
	states = malloc((size_t)(depth + 1) * g->state_size);
	moves = malloc((size_t)(depth + 1) * RULES_MAX_MOVES * sizeof *moves);
	if (states == NULL || moves == NULL) {
		free(states);
		free(moves);
		return 0;
	}
	n = rules_perft_walk(g, st, depth, states, moves);
	free(states);
	free(moves);
	return n;
}

/* A game's status with every field a game does not set zeroed (level). */
void
rules_status(
    const struct rules_game *g, const void *st, struct rules_status *out)
{
	memset(out, 0, sizeof *out);
	g->status(st, out);
}

/* The game's own perft when it has one, else the generic one. */
uint64_t
rules_perft(const struct rules_game *g, const void *st, int depth)
{
	if (g->perft != NULL)
		return g->perft(st, depth);
	return rules_perft_generic(g, st, depth);
}

/* splitmix64's finaliser: a good 64-bit mix for hashes and seeds. */
uint64_t
rules_mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

void
rules_rng_seed(struct rules_rng *r, uint64_t seed)
{
	r->s = seed;
}

/* splitmix64: small, fast and the same on every machine. */
uint64_t
rules_rng_next(struct rules_rng *r)
{
	r->s += 0x9e3779b97f4a7c15ULL;
	return rules_mix64(r->s);
}

/* A uniform number in [0, n), n > 0, without modulo bias. */
unsigned
rules_rng_below(struct rules_rng *r, unsigned n)
{
	uint64_t limit = UINT64_MAX - UINT64_MAX % n;
	uint64_t x;

	do
		x = rules_rng_next(r);
	while (x >= limit);
	return (unsigned)(x % n);
}
