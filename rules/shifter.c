/*
 * shifter.c: the rules of Shape Shifter Chess (seed 001), a one-player game
 * on 8x8 boards in levels: the active piece captures another piece by one of
 * its own moves (jumping over anything between) and becomes it, until one
 * piece is left. Holds the movimientos.csv parser, the seed's level
 * generator, the position string, the level file and the game's interface.
 * Square numbers and the step convention are described in shifter.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "games.h"
#include "shifter.h"

/* Bytes of a custom movimientos.csv: 16 pieces of 32 lines of ~24 bytes
 * fit with room for comments and blanks. */
#define SHIFTER_MOVES_MAX 16384
/* Bytes of a level file: an export is well under 1 KB; the rest is room for
 * comments and blank lines. */
#define SHIFTER_FILE_MAX 4096
/* Fresh starts the generator makes before it gives up; every start is at
 * most 64 placements, so this bounds init's work. */
#define SHIFTER_GEN_TRIES 1000
/* Free squares one piece can step to, counted once per line and distance. */
#define SHIFTER_MAX_TARGETS (SHIFTER_MAX_STEPS * (SHIFTER_SIDE - 1))
/* Digits in a step of the csv: more is malformed, fewer still catches any
 * step that is off the board. */
#define SHIFTER_INT_DIGITS 9

/* A macro, not an array: the sentences it ends are whole formats, each
 * its own msgid (docs/PROTOCOL.md). */
#define SHIFTER_ROW_HINT                                                       \
	"expected a board row of 8 squares, each . or a piece letter"

/* The square's name ("e4") into buf, at least 3 bytes. */
static void
shifter_sqname(int sq, char *buf)
{
	if (sq < 0 || sq >= SHIFTER_SQUARES) {
		buf[0] = '-';
		buf[1] = '\0';
		return;
	}
	buf[0] = (char)('a' + sq % SHIFTER_SIDE);
	buf[1] = (char)('8' - sq / SHIFTER_SIDE);
	buf[2] = '\0';
}

static uint64_t
shifter_bit(int sq)
{
	return (uint64_t)1 << sq;
}

static int
shifter_popcount(uint64_t x)
{
	int n = 0;

	for (; x != 0; x &= x - 1)
		n++;
	return n;
}

static int
shifter_is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static int
shifter_is_upper(char c)
{
	return c >= 'A' && c <= 'Z';
}

static int
shifter_is_lower(char c)
{
	return c >= 'a' && c <= 'z';
}

static int
shifter_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static char
shifter_to_upper(char c)
{
	return shifter_is_lower(c) ? (char)(c - 'a' + 'A') : c;
}

static char
shifter_to_lower(char c)
{
	return shifter_is_upper(c) ? (char)(c - 'A' + 'a') : c;
}

/* Drop blanks on both ends of p[0..n). */
static void
shifter_trim(const char **p, size_t *n)
{
	while (*n > 0 && shifter_is_blank(**p)) {
		(*p)++;
		(*n)--;
	}
	while (*n > 0 && shifter_is_blank((*p)[*n - 1]))
		(*n)--;
}

/* Lines of a text that need not end in NUL, numbered from 1. */
struct shifter_lines {
	const char *p, *end;
	int lineno;
};

/* The next line without its end of line ("\n" or "\r\n") and without
 * blanks around it; 0 at the end of the text. */
static int
shifter_lines_next(struct shifter_lines *it, const char **line, size_t *n)
{
	const char *q;

	if (it->p >= it->end)
		return 0;
	q = memchr(it->p, '\n', (size_t)(it->end - it->p));
	if (q == NULL)
		q = it->end;
	*line = it->p;
	*n = (size_t)(q - it->p);
	it->p = q < it->end ? q + 1 : q;
	it->lineno++;
	if (*n > 0 && (*line)[*n - 1] == '\r')
		(*n)--;
	shifter_trim(line, n);
	return 1;
}

/* The seed's Spanish piece names, and what the English interface calls
 * them (a level file and movimientos.csv keep the seed's names). */
static const char *const shifter_english[][2] = {{"caballo", "knight"},
    {"torre", "rook"}, {"alfil", "bishop"}, {"rey", "king"}, {"reina", "queen"},
    {"dama", "queen"}, {"peon", "pawn"}, {"pe\xc3\xb3n", "pawn"}};

/* A piece kind's name for people: the English of a seed's name, else
 * the name as the file gave it. */
static const char *
shifter_word(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof shifter_english / sizeof shifter_english[0]; i++)
		if (strcmp(name, shifter_english[i][0]) == 0)
			return shifter_english[i][1];
	return name;
}

/* Is p[0..n) the word w? */
static int
shifter_word_is(const char *p, size_t n, const char *w)
{
	return strlen(w) == n && memcmp(p, w, n) == 0;
}

/* A decimal integer with an optional sign; 0 or -1. */
static int
shifter_parse_int(const char *p, size_t n, int *out)
{
	int neg = 0, v = 0;
	size_t i = 0;

	if (n > 0 && (p[0] == '-' || p[0] == '+')) {
		neg = p[0] == '-';
		i = 1;
	}
	if (i == n || n - i > SHIFTER_INT_DIGITS)
		return -1;
	for (; i < n; i++) {
		if (!shifter_is_digit(p[i]))
			return -1;
		v = v * 10 + (p[i] - '0');
	}
	*out = neg ? -v : v;
	return 0;
}

/* Case-insensitive comparison of p[0..n) with a lower-case word. */
static int
shifter_word_nocase(const char *p, size_t n, const char *w)
{
	size_t i;

	if (strlen(w) != n)
		return 0;
	for (i = 0; i < n; i++)
		if (shifter_to_lower(p[i]) != w[i])
			return 0;
	return 1;
}

/* Decode the UTF-8 character at p[0..n) into *cp; its length in bytes, or
 * 0 when it is malformed (a stray or missing continuation byte, an overlong
 * form, a surrogate, or beyond U+10FFFF). */
static size_t
shifter_utf8_next(const unsigned char *p, size_t n, uint32_t *cp)
{
	static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
	size_t len, i;
	uint32_t v;

	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2, v = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3, v = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4, v = p[0] & 0x07;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		v = v << 6 | (p[i] & 0x3f);
	}
	if (v < least[len] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		return 0;
	*cp = v;
	return len;
}

/* May this character be part of a piece name? ASCII letters, digits, '_'
 * and '-', and any character beyond ASCII (letters and marks of every
 * script) except the Latin-1 symbols, the invisible and spacing ones
 * (general punctuation: spaces, zero-width, bidirectional controls; the
 * ideographic space and CJK punctuation; the byte order mark) and the
 * specials, so that a name reads as one word. */
static int
shifter_name_char(uint32_t c)
{
	if (c < 0x80)
		return shifter_is_upper((char)c) || shifter_is_lower((char)c) ||
		    shifter_is_digit((char)c) || c == '_' || c == '-';
	if (c < 0xc0 || c == 0xd7 || c == 0xf7)
		return 0;
	if ((c >= 0x2000 && c <= 0x206f) || (c >= 0x3000 && c <= 0x303f) ||
	    c == 0xfeff || (c >= 0xfff0 && c <= 0xffff))
		return 0;
	return 1;
}

/* Check a piece name: valid UTF-8, 1 to SHIFTER_NAME_CHARS characters
 * in at most SHIFTER_NAME_MAX bytes, each one shifter_name_char allows.
 * 0, or -1 with the reason on line lineno. */
static int
shifter_name_check(
    const char *p, size_t n, int lineno, char *err, size_t errlen)
{
	const unsigned char *u = (const unsigned char *)p;
	size_t i = 0, len;
	int chars = 0;
	uint32_t c;

	while (i < n) {
		len = shifter_utf8_next(u + i, n - i, &c);
		if (len == 0) {
			rules_seterr(err, errlen,
			    "line %d: a piece name must be UTF-8 text; byte %d "
			    "of it (0x%02x) is not",
			    lineno, (int)i + 1, u[i]);
			return -1;
		}
		if (!shifter_name_char(c)) {
			rules_seterr(err, errlen,
			    "line %d: a piece name is one word of letters, "
			    "digits, _ or - (character %d is not)",
			    lineno, chars + 1);
			return -1;
		}
		i += len;
		chars++;
	}
	if (n == 0 || chars > SHIFTER_NAME_CHARS || n > SHIFTER_NAME_MAX) {
		rules_seterr(err, errlen,
		    "line %d: a piece name is 1 to %d characters (at most %d "
		    "bytes)",
		    lineno, SHIFTER_NAME_CHARS, SHIFTER_NAME_MAX);
		return -1;
	}
	return 0;
}

/* The kind named p[0..n) in the table, or -1. */
static int
shifter_kind_find(const struct shifter_state *s, const char *p, size_t n)
{
	int k;

	for (k = 0; k < s->nkinds; k++)
		if (shifter_word_is(p, n, s->kind[k].name))
			return k;
	return -1;
}

/* The kind whose letter is c, or -1. */
static int
shifter_kind_by_letter(const struct shifter_state *s, char c)
{
	int k;

	for (k = 0; k < s->nkinds; k++)
		if (s->kind[k].letter == c)
			return k;
	return -1;
}

/* The picture letter a name suggests: its first letter in upper case,
 * with the accent dropped from a Latin-1 letter (Ángel A, ñandú N); 0
 * when the name starts with no such letter. */
static char
shifter_name_letter(const char *name)
{
	/* U+00C0..U+00FF without accents; '.' where there is no letter. */
	static const char latin1[] = "AAAAAAACEEEEIIIIDNOOOOO.OUUUUYTS"
	                             "AAAAAAACEEEEIIIIDNOOOOO.OUUUUYTY";
	const unsigned char *u = (const unsigned char *)name;
	uint32_t cp;
	char c;

	if (shifter_utf8_next(u, strlen(name), &cp) == 0)
		return 0;
	if (cp >= 0xc0 && cp <= 0xff)
		c = latin1[cp - 0xc0];
	else
		c = cp < 0x80 ? shifter_to_upper((char)cp) : 0;
	return shifter_is_upper(c) ? c : 0;
}

/* Give every kind a letter: the one its name suggests when no earlier kind
 * has it, else the first free letter from A. */
static void
shifter_table_letters(struct shifter_state *s)
{
	int k;

	for (k = 0; k < s->nkinds; k++) {
		char c = shifter_name_letter(s->kind[k].name);

		s->kind[k].letter = 0;
		if (!shifter_is_upper(c) || shifter_kind_by_letter(s, c) >= 0)
			for (c = 'A'; shifter_kind_by_letter(s, c) >= 0; c++)
				;
		s->kind[k].letter = c;
	}
}

/* Split "dx;dy" into its two integers; 0 or -1. */
static int
shifter_parse_step(const char *p, size_t n, int *dx, int *dy)
{
	const char *semi = memchr(p, ';', n);
	const char *a = p, *b;
	size_t na, nb;

	if (semi == NULL)
		return -1;
	na = (size_t)(semi - p);
	b = semi + 1;
	nb = n - na - 1;
	shifter_trim(&a, &na);
	shifter_trim(&b, &nb);
	if (shifter_parse_int(a, na, dx) != 0 ||
	    shifter_parse_int(b, nb, dy) != 0)
		return -1;
	return 0;
}

/* One line "piece,dx;dy,extensible" into the table; 0 or -1. */
static int
shifter_table_line(struct shifter_state *s, const char *line, size_t n,
    int lineno, char *err, size_t errlen)
{
	const char *f[3], *c1, *c2;
	size_t fn[3];
	int dx, dy, k, i, extends;
	struct shifter_kind *kd;

	c1 = memchr(line, ',', n);
	c2 = c1 != NULL ? memchr(c1 + 1, ',', n - (size_t)(c1 + 1 - line))
	                : NULL;
	if (c2 == NULL || memchr(c2 + 1, ',', n - (size_t)(c2 + 1 - line))) {
		rules_seterr(err, errlen,
		    "line %d: expected piece,dx;dy,extensible", lineno);
		return -1;
	}
	f[0] = line;
	fn[0] = (size_t)(c1 - line);
	f[1] = c1 + 1;
	fn[1] = (size_t)(c2 - c1 - 1);
	f[2] = c2 + 1;
	fn[2] = n - (size_t)(c2 + 1 - line);
	for (i = 0; i < 3; i++)
		shifter_trim(&f[i], &fn[i]);
	if (shifter_parse_step(f[1], fn[1], &dx, &dy) != 0) {
		rules_seterr(err, errlen,
		    "line %d: expected piece,dx;dy,extensible", lineno);
		return -1;
	}
	if (shifter_name_check(f[0], fn[0], lineno, err, errlen) != 0)
		return -1;
	if (shifter_word_nocase(f[2], fn[2], "true"))
		extends = 1;
	else if (shifter_word_nocase(f[2], fn[2], "false"))
		extends = 0;
	else {
		rules_seterr(err, errlen,
		    "line %d: extensible must be true or false", lineno);
		return -1;
	}
	if (dx == 0 && dy == 0) {
		rules_seterr(
		    err, errlen, "line %d: step 0;0 never moves", lineno);
		return -1;
	}
	if (dx < -(SHIFTER_SIDE - 1) || dx > SHIFTER_SIDE - 1 ||
	    dy < -(SHIFTER_SIDE - 1) || dy > SHIFTER_SIDE - 1) {
		rules_seterr(err, errlen,
		    "line %d: step %d;%d is off any 8x8 board", lineno, dx, dy);
		return -1;
	}
	k = shifter_kind_find(s, f[0], fn[0]);
	if (k < 0) {
		if (s->nkinds == SHIFTER_MAX_KINDS) {
			rules_seterr(err, errlen,
			    "too many pieces (max %d): line %d",
			    SHIFTER_MAX_KINDS, lineno);
			return -1;
		}
		k = s->nkinds++;
		memcpy(s->kind[k].name, f[0], fn[0]);
		s->kind[k].name[fn[0]] = '\0';
	}
	kd = &s->kind[k];
	if (kd->nsteps == SHIFTER_MAX_STEPS) {
		rules_seterr(err, errlen,
		    "line %d: too many moves for %s (max %d)", lineno, kd->name,
		    SHIFTER_MAX_STEPS);
		return -1;
	}
	kd->step[kd->nsteps].dx = (int8_t)dx;
	kd->step[kd->nsteps].dy = (int8_t)dy;
	kd->step[kd->nsteps].extends = (uint8_t)extends;
	kd->nsteps++;
	return 0;
}

/* Read a movimientos.csv into the state's piece table (replacing it; the
 * board is left alone). Blank lines and lines starting with '#' are
 * skipped; there is no header line. 0, or -1 with the line at fault. */
int
shifter_table_parse(struct shifter_state *s, const char *text, size_t len,
    char *err, size_t errlen)
{
	struct shifter_lines it = {text, text + len, 0};
	struct shifter_state t;
	const char *line;
	size_t n;

	if (len > SHIFTER_MOVES_MAX) {
		rules_seterr(err, errlen, "the file is longer than %d bytes",
		    SHIFTER_MOVES_MAX);
		return -1;
	}
	memset(&t, 0, sizeof t);
	while (shifter_lines_next(&it, &line, &n)) {
		if (n == 0 || line[0] == '#')
			continue;
		if (shifter_table_line(&t, line, n, it.lineno, err, errlen) !=
		    0)
			return -1;
	}
	if (t.nkinds == 0) {
		rules_seterr(err, errlen, "no pieces defined");
		return -1;
	}
	shifter_table_letters(&t);
	s->nkinds = t.nkinds;
	memcpy(s->kind, t.kind, sizeof s->kind);
	return 0;
}

/* The squares a piece of kind k on sq attacks, as a bitboard: every step
 * once, or repeated to the edge when it extends; nothing blocks. */
uint64_t
shifter_reach(const struct shifter_state *s, int k, int sq)
{
	const struct shifter_kind *kd = &s->kind[k];
	uint64_t m = 0;
	int i;

	for (i = 0; i < kd->nsteps; i++) {
		int dx = kd->step[i].dx, dy = kd->step[i].dy;
		int x = sq % SHIFTER_SIDE + dx, y = sq / SHIFTER_SIDE + dy;

		while (
		    x >= 0 && x < SHIFTER_SIDE && y >= 0 && y < SHIFTER_SIDE) {
			m |= shifter_bit(y * SHIFTER_SIDE + x);
			if (!kd->step[i].extends)
				break;
			x += dx;
			y += dy;
		}
	}
	return m;
}

uint64_t
shifter_occupied(const struct shifter_state *s)
{
	uint64_t m = 0;
	int sq;

	for (sq = 0; sq < SHIFTER_SQUARES; sq++)
		if (s->board[sq] != SHIFTER_EMPTY)
			m |= shifter_bit(sq);
	return m;
}

/* The active piece's captures, as a bitboard. */
static uint64_t
shifter_targets(const struct shifter_state *s)
{
	int a = s->active;

	if (a < 0 || a >= SHIFTER_SQUARES || s->board[a] == SHIFTER_EMPTY)
		return 0;
	return shifter_reach(s, s->board[a], a) & shifter_occupied(s);
}

/* The empty squares a piece of kind k on sq can step to, once for every
 * line and distance that leads there (the weights of the seed's "pick a
 * random move until it lands on an empty square"); their count. */
static int
shifter_free_targets(const struct shifter_state *s, int k, int sq, int8_t *out)
{
	const struct shifter_kind *kd = &s->kind[k];
	int i, n = 0;

	for (i = 0; i < kd->nsteps; i++) {
		int dx = kd->step[i].dx, dy = kd->step[i].dy;
		int x = sq % SHIFTER_SIDE + dx, y = sq / SHIFTER_SIDE + dy;

		while (
		    x >= 0 && x < SHIFTER_SIDE && y >= 0 && y < SHIFTER_SIDE) {
			if (s->board[y * SHIFTER_SIDE + x] == SHIFTER_EMPTY)
				out[n++] = (int8_t)(y * SHIFTER_SIDE + x);
			if (!kd->step[i].extends)
				break;
			x += dx;
			y += dy;
		}
	}
	return n;
}

/* At a dead end, give the piece on sq another kind, at random among the
 * kinds that have an empty square to step to from there; -1 when none. */
static int
shifter_repick(struct shifter_state *s, int sq, struct rules_rng *r)
{
	uint64_t empty = ~shifter_occupied(s);
	int ok[SHIFTER_MAX_KINDS], n = 0, k;

	for (k = 0; k < s->nkinds; k++)
		if (shifter_reach(s, k, sq) & empty)
			ok[n++] = k;
	if (n == 0)
		return -1;
	s->board[sq] = (int8_t)ok[rules_rng_below(r, (unsigned)n)];
	return 0;
}

/* One run of the seed's six steps; -1 at a dead end no kind escapes. */
static int
shifter_generate_once(struct shifter_state *s, int npieces, struct rules_rng *r)
{
	int8_t t[SHIFTER_MAX_TARGETS];
	int last, count, n;

	memset(s->board, (unsigned char)SHIFTER_EMPTY, sizeof s->board);
	last = (int)rules_rng_below(r, SHIFTER_SQUARES);
	s->board[last] = (int8_t)rules_rng_below(r, s->nkinds);
	s->active = (int8_t)last;
	for (count = 1; count < npieces; count++) {
		n = shifter_free_targets(s, s->board[last], last, t);
		if (n == 0) {
			if (shifter_repick(s, last, r) != 0)
				return -1;
			n = shifter_free_targets(s, s->board[last], last, t);
		}
		last = t[rules_rng_below(r, (unsigned)n)];
		s->board[last] = (int8_t)rules_rng_below(r, s->nkinds);
	}
	return 0;
}

/* Make level `level` from the seed's steps: a random square gets a random
 * piece, the active one; then each next piece goes on a random empty square
 * the last placed piece can move to, until there are level + 2. Playing
 * the pieces in the order they were placed wins, so every level can be
 * won. A piece with no empty square to move to takes another kind (see
 * shifter_repick); when no kind helps, generation starts afresh with the
 * next random numbers, at most SHIFTER_GEN_TRIES times. */
int
shifter_generate(
    struct shifter_state *s, int level, uint64_t seed, char *err, size_t errlen)
{
	struct rules_rng r;
	int i;

	if (s->nkinds == 0) {
		rules_seterr(err, errlen, "no pieces defined");
		return -1;
	}
	if (level < 1 || level > SHIFTER_MAX_LEVEL) {
		rules_seterr(
		    err, errlen, "level must be 1 to %d", SHIFTER_MAX_LEVEL);
		return -1;
	}
	/* The level is mixed in so that one seed gives different levels. */
	rules_rng_seed(&r, seed << 8 | (uint64_t)level);
	s->level = (uint8_t)level;
	for (i = 0; i < SHIFTER_GEN_TRIES; i++) {
		if (shifter_generate_once(s, level + 2, &r) == 0) {
			memcpy(s->start, s->board, sizeof s->start);
			s->start_active = s->active;
			return 0;
		}
	}
	rules_seterr(err, errlen,
	    "could not place the %d pieces of level %d in %d tries with "
	    "these pieces",
	    level + 2, level, SHIFTER_GEN_TRIES);
	return -1;
}

/* What shifter_check_count checks: each has its own sentence, so that
 * it translates whole. */
enum shifter_counted {
	SHIFTER_COUNT_BOARD,    /* a level file's board */
	SHIFTER_COUNT_START,    /* a level file's start layout */
	SHIFTER_COUNT_POSITION, /* a position string's board */
};

/* Check that a board of `count` pieces suits the level; 0 or -1. */
static int
shifter_check_count(
    int count, int level, enum shifter_counted what, char *err, size_t errlen)
{
	if (count <= level + 2)
		return 0;
	if (what == SHIFTER_COUNT_START)
		rules_seterr(err, errlen,
		    "the start layout has %d pieces, level %d has at most %d",
		    count, level, level + 2);
	else if (what == SHIFTER_COUNT_POSITION)
		rules_seterr(err, errlen,
		    "position: the board has %d pieces, level %d has at most "
		    "%d",
		    count, level, level + 2);
	else
		rules_seterr(err, errlen,
		    "the board has %d pieces, level %d has at most %d", count,
		    level, level + 2);
	return -1;
}

/* A level 1..SHIFTER_MAX_LEVEL written without leading zeros; 0 or -1. */
static int
shifter_parse_level(const char *p, size_t n, int *level)
{
	if (n == 0 || n > 2 || p[0] == '0' ||
	    shifter_parse_int(p, n, level) != 0 || !shifter_is_digit(p[0]) ||
	    *level < 1 || *level > SHIFTER_MAX_LEVEL)
		return -1;
	return 0;
}

/* The position string: "LEVEL R8/R7/R6/R5/R4/R3/R2/R1 ACTIVE", each rank
 * 8 characters from a to h, '.' for an empty square and the kind's letter
 * for a piece; ACTIVE is the active piece's square ("5 ..../.... c3"). */
static int
shifter_to_position(const void *st, char *buf, size_t len)
{
	const struct shifter_state *s = st;
	char line[RULES_LINE_MAX], sq[3];
	int n, i, p;

	p = snprintf(line, sizeof line, "%d ", s->level);
	if (p < 0)
		return -1;
	n = p;
	for (i = 0; i < SHIFTER_SQUARES; i++) {
		if (i > 0 && i % SHIFTER_SIDE == 0)
			line[n++] = '/';
		line[n++] = s->board[i] == SHIFTER_EMPTY
		    ? '.'
		    : s->kind[(int)s->board[i]].letter;
	}
	shifter_sqname(s->active, sq);
	line[n++] = ' ';
	line[n++] = sq[0];
	line[n++] = sq[1];
	line[n] = '\0';
	if ((size_t)n + 1 > len)
		return -1;
	memcpy(buf, line, (size_t)n + 1);
	return n;
}

/* A square in the canonical lower-case form "e4"; its number or -1. */
static int
shifter_square_exact(const char *p, size_t n)
{
	if (n != 2 || p[0] < 'a' || p[0] > 'h' || p[1] < '1' || p[1] > '8')
		return -1;
	return ('8' - p[1]) * SHIFTER_SIDE + (p[0] - 'a');
}

/* Read a position string (see shifter_to_position) against the state's
 * table; the starting layout becomes this position. 0 or -1. */
static int
shifter_from_position(void *st, const char *text, char *err, size_t errlen)
{
	struct shifter_state *s = st;
	int8_t board[SHIFTER_SQUARES];
	const char *sp1, *sp2, *p;
	size_t n = strlen(text);
	int level, rank, i, active, count = 0;
	char name[3];

	sp1 = memchr(text, ' ', n);
	sp2 = sp1 != NULL ? strchr(sp1 + 1, ' ') : NULL;
	if (sp2 == NULL || strchr(sp2 + 1, ' ') != NULL) {
		rules_seterr(err, errlen,
		    "position: expected LEVEL RANKS ACTIVE, like "
		    "\"1 ......../......../..C...../......../......../"
		    "...T..../......../.A...... c6\"");
		return -1;
	}
	if (shifter_parse_level(text, (size_t)(sp1 - text), &level) != 0) {
		rules_seterr(err, errlen, "position: level must be 1 to %d",
		    SHIFTER_MAX_LEVEL);
		return -1;
	}
	if (sp2 - sp1 - 1 != SHIFTER_SQUARES + SHIFTER_SIDE - 1) {
		rules_seterr(err, errlen,
		    "position: expected 8 ranks of 8 squares separated by /");
		return -1;
	}
	p = sp1 + 1;
	for (i = 0; i < SHIFTER_SQUARES; i++) {
		char c = p[i + i / SHIFTER_SIDE];
		int k;

		rank = SHIFTER_SIDE - i / SHIFTER_SIDE;
		if (c == '/' ||
		    (i % SHIFTER_SIDE == 0 && i > 0 &&
		        p[i + i / SHIFTER_SIDE - 1] != '/')) {
			rules_seterr(err, errlen,
			    "position: rank %d must have 8 squares",
			    c == '/' ? rank : rank + 1);
			return -1;
		}
		board[i] = SHIFTER_EMPTY;
		if (c == '.')
			continue;
		k = shifter_is_upper(c) ? shifter_kind_by_letter(s, c) : -1;
		if (k < 0) {
			shifter_sqname(i, name);
			if (c > ' ' && c < 0x7f)
				rules_seterr(err, errlen,
				    "position: no piece has the letter '%c' "
				    "(on %s)",
				    c, name);
			else
				rules_seterr(err, errlen,
				    "position: byte 0x%02x is not a piece "
				    "letter (on %s)",
				    (unsigned char)c, name);
			return -1;
		}
		board[i] = (int8_t)k;
		count++;
	}
	active = shifter_square_exact(sp2 + 1, strlen(sp2 + 1));
	if (active < 0) {
		rules_seterr(err, errlen,
		    "position: the active piece's square must be like c6");
		return -1;
	}
	if (board[active] == SHIFTER_EMPTY) {
		rules_seterr(err, errlen,
		    "position: no piece on %s, the active square", sp2 + 1);
		return -1;
	}
	if (shifter_check_count(
	        count, level, SHIFTER_COUNT_POSITION, err, errlen) != 0)
		return -1;
	s->level = (uint8_t)level;
	memcpy(s->board, board, sizeof board);
	memcpy(s->start, board, sizeof board);
	s->active = s->start_active = (int8_t)active;
	return 0;
}

/* One board of a level file while it is read: letters as written. */
struct shifter_layout {
	char cell[SHIFTER_SQUARES]; /* '.' or the file's letter, upper case */
	int active;                 /* square, or RULES_NONE */
	int line[SHIFTER_SIDE];     /* the line each row came from */
};

/* One row of a level file's board; 0 or -1. */
static int
shifter_layout_row(struct shifter_layout *l, int row, const char *p, size_t n,
    int lineno, char *err, size_t errlen)
{
	char name[3];
	int i;

	if (n != SHIFTER_SIDE) {
		rules_seterr(err, errlen, "line %d: " SHIFTER_ROW_HINT, lineno);
		return -1;
	}
	for (i = 0; i < SHIFTER_SIDE; i++) {
		char c = p[i];
		int sq = row * SHIFTER_SIDE + i;

		if (c != '.' && !shifter_is_upper(c) && !shifter_is_lower(c)) {
			rules_seterr(
			    err, errlen, "line %d: " SHIFTER_ROW_HINT, lineno);
			return -1;
		}
		if (shifter_is_lower(c)) {
			if (l->active != RULES_NONE) {
				shifter_sqname(sq, name);
				rules_seterr(err, errlen,
				    "line %d: a second active piece, on %s",
				    lineno, name);
				return -1;
			}
			l->active = sq;
		}
		l->cell[sq] = shifter_to_upper(c);
	}
	l->line[row] = lineno;
	return 0;
}

/* A legend line "C caballo" into legend[letter]; 0 or -1. */
static int
shifter_legend_line(const struct shifter_state *s, int8_t *legend,
    const char *p, size_t n, int lineno, char *err, size_t errlen)
{
	const char *name;
	size_t nn;
	char c;
	int k;

	if (n < 3 || !(shifter_is_upper(p[0]) || shifter_is_lower(p[0])) ||
	    !shifter_is_blank(p[1])) {
		rules_seterr(err, errlen,
		    "line %d: expected a letter and a piece name, like "
		    "\"C caballo\"",
		    lineno);
		return -1;
	}
	c = shifter_to_upper(p[0]);
	name = p + 1;
	nn = n - 1;
	shifter_trim(&name, &nn);
	if (shifter_name_check(name, nn, lineno, err, errlen) != 0)
		return -1;
	k = shifter_kind_find(s, name, nn);
	if (k < 0) {
		rules_seterr(err, errlen,
		    "line %d: no piece named %.*s in the moves table", lineno,
		    (int)nn, name);
		return -1;
	}
	if (legend[c - 'A'] != SHIFTER_EMPTY) {
		rules_seterr(err, errlen,
		    "line %d: the letter %c is already in the legend", lineno,
		    c);
		return -1;
	}
	legend[c - 'A'] = (int8_t)k;
	return 0;
}

/* Turn a layout's letters into kinds through the legend; 0 or -1. */
static int
shifter_layout_resolve(const struct shifter_layout *l, const int8_t *legend,
    int8_t *board, int *count, char *err, size_t errlen)
{
	int sq;

	*count = 0;
	for (sq = 0; sq < SHIFTER_SQUARES; sq++) {
		char c = l->cell[sq];

		board[sq] = SHIFTER_EMPTY;
		if (c == '.')
			continue;
		if (legend[c - 'A'] == SHIFTER_EMPTY) {
			rules_seterr(err, errlen,
			    "line %d: the letter %c is not in the legend",
			    l->line[sq / SHIFTER_SIDE], c);
			return -1;
		}
		board[sq] = legend[c - 'A'];
		(*count)++;
	}
	return 0;
}

/* The header "shifter level N"; 0 or -1. */
static int
shifter_level_header(
    const char *p, size_t n, int lineno, int *level, char *err, size_t errlen)
{
	static const char head[] = "shifter level";
	const char *num;
	size_t nn;

	if (n <= sizeof head - 1 || memcmp(p, head, sizeof head - 1) != 0 ||
	    !shifter_is_blank(p[sizeof head - 1])) {
		rules_seterr(err, errlen,
		    "line %d: expected \"shifter level N\"", lineno);
		return -1;
	}
	num = p + sizeof head - 1;
	nn = n - (sizeof head - 1);
	shifter_trim(&num, &nn);
	if (shifter_parse_level(num, nn, level) != 0) {
		rules_seterr(err, errlen, "line %d: the level must be 1 to %d",
		    lineno, SHIFTER_MAX_LEVEL);
		return -1;
	}
	return 0;
}

/* Reading a level file: where we are. */
enum shifter_phase {
	SHIFTER_HEAD,
	SHIFTER_ROWS,
	SHIFTER_AFTER,
	SHIFTER_START_ROWS,
	SHIFTER_LEGEND,
};

/* Check the two boards of a level file and put them in s; 0 or -1. */
static int
shifter_level_commit(struct shifter_state *s, int level,
    const struct shifter_layout *cur, const struct shifter_layout *start,
    const int8_t *legend, char *err, size_t errlen)
{
	int8_t board[SHIFTER_SQUARES], first[SHIFTER_SQUARES];
	int count, nstart, sq;
	char name[3];

	/* (each part its own sentence, so that it translates whole) */
	if (cur->active == RULES_NONE) {
		rules_seterr(err, errlen,
		    "the board has no active piece "
		    "(write its letter in lower case)");
		return -1;
	}
	if (start->active == RULES_NONE) {
		rules_seterr(err, errlen,
		    "the start layout has no active piece "
		    "(write its letter in lower case)");
		return -1;
	}
	if (shifter_layout_resolve(cur, legend, board, &count, err, errlen) !=
	        0 ||
	    shifter_layout_resolve(
	        start, legend, first, &nstart, err, errlen) != 0)
		return -1;
	if (shifter_check_count(
	        count, level, SHIFTER_COUNT_BOARD, err, errlen) != 0 ||
	    shifter_check_count(
	        nstart, level, SHIFTER_COUNT_START, err, errlen) != 0)
		return -1;
	for (sq = 0; sq < SHIFTER_SQUARES; sq++) {
		if (board[sq] != SHIFTER_EMPTY && board[sq] != first[sq]) {
			shifter_sqname(sq, name);
			rules_seterr(err, errlen,
			    "line %d: the piece on %s is not in the start "
			    "layout",
			    cur->line[sq / SHIFTER_SIDE], name);
			return -1;
		}
	}
	s->level = (uint8_t)level;
	memcpy(s->board, board, sizeof board);
	memcpy(s->start, first, sizeof first);
	s->active = (int8_t)cur->active;
	s->start_active = (int8_t)start->active;
	return 0;
}

/*
 * The level file (see docs/RULES.md, Shape Shifter Chess): "shifter level N", 8
 * rows of the board from rank 8 down ('.' empty, a letter a piece, the active
 * piece in lower case), optionally "start" and the 8 rows of the level's
 * starting layout, then legend lines "C caballo" naming each letter's piece in
 * the moves table. Blank lines and lines starting with '#' are skipped.
 */
static int
shifter_import(void *st, const char *text, size_t len, char *err, size_t errlen)
{
	struct shifter_state *s = st;
	struct shifter_lines it = {text, text + len, 0};
	struct shifter_layout cur, start;
	enum shifter_phase ph = SHIFTER_HEAD;
	int8_t legend[26];
	int level = 0, row = 0, has_start = 0;
	const char *line;
	size_t n;

	if (len > SHIFTER_FILE_MAX) {
		rules_seterr(err, errlen, "the file is longer than %d bytes",
		    SHIFTER_FILE_MAX);
		return -1;
	}
	memset(&cur, 0, sizeof cur);
	memset(&start, 0, sizeof start);
	cur.active = start.active = RULES_NONE;
	memset(legend, (unsigned char)SHIFTER_EMPTY, sizeof legend);
	while (shifter_lines_next(&it, &line, &n)) {
		int rc = 0;

		if (n == 0 || line[0] == '#')
			continue;
		switch (ph) {
		case SHIFTER_HEAD:
			rc = shifter_level_header(
			    line, n, it.lineno, &level, err, errlen);
			ph = SHIFTER_ROWS;
			break;
		case SHIFTER_ROWS:
			rc = shifter_layout_row(
			    &cur, row, line, n, it.lineno, err, errlen);
			if (++row == SHIFTER_SIDE)
				ph = SHIFTER_AFTER;
			break;
		case SHIFTER_AFTER:
			if (shifter_word_is(line, n, "start")) {
				ph = SHIFTER_START_ROWS;
				has_start = 1;
				row = 0;
				break;
			}
			ph = SHIFTER_LEGEND;
			rc = shifter_legend_line(
			    s, legend, line, n, it.lineno, err, errlen);
			break;
		case SHIFTER_START_ROWS:
			rc = shifter_layout_row(
			    &start, row, line, n, it.lineno, err, errlen);
			if (++row == SHIFTER_SIDE)
				ph = SHIFTER_LEGEND;
			break;
		case SHIFTER_LEGEND:
			rc = shifter_legend_line(
			    s, legend, line, n, it.lineno, err, errlen);
			break;
		}
		if (rc != 0)
			return -1;
	}
	if (ph == SHIFTER_HEAD) {
		rules_seterr(err, errlen,
		    "empty level file: expected \"shifter level N\"");
		return -1;
	}
	if (ph == SHIFTER_ROWS) {
		rules_seterr(
		    err, errlen, "the board has only %d of 8 rows", row);
		return -1;
	}
	if (ph == SHIFTER_START_ROWS) {
		rules_seterr(
		    err, errlen, "the start layout has only %d of 8 rows", row);
		return -1;
	}
	return shifter_level_commit(
	    s, level, &cur, has_start ? &start : &cur, legend, err, errlen);
}

/* Eight rows of a board as in the level file. */
static void
shifter_out_rows(struct rules_out *o, const struct shifter_state *s,
    const int8_t *board, int active)
{
	int sq;

	for (sq = 0; sq < SHIFTER_SQUARES; sq++) {
		char c = board[sq] == SHIFTER_EMPTY
		    ? '.'
		    : s->kind[(int)board[sq]].letter;

		rules_out_char(o, sq == active ? shifter_to_lower(c) : c);
		if (sq % SHIFTER_SIDE == SHIFTER_SIDE - 1)
			rules_out_char(o, '\n');
	}
}

/* Write the level file: the current board, the starting layout when it
 * differs, and the legend of the kinds on either. */
static int
shifter_export(const void *st, char *buf, size_t len)
{
	const struct shifter_state *s = st;
	struct rules_out o = {buf, len, 0, 0};
	int k, sq, used;

	rules_out_add(&o, "shifter level %d\n", s->level);
	rules_out_str(&o,
	    "# rows 8 to 1, columns a to h; . is empty, "
	    "the active piece is in lower case\n");
	shifter_out_rows(&o, s, s->board, s->active);
	if (memcmp(s->board, s->start, sizeof s->board) != 0 ||
	    s->active != s->start_active) {
		rules_out_str(&o, "start\n");
		shifter_out_rows(&o, s, s->start, s->start_active);
	}
	for (k = 0; k < s->nkinds; k++) {
		used = 0;
		for (sq = 0; sq < SHIFTER_SQUARES; sq++)
			if (s->board[sq] == k || s->start[sq] == k)
				used = 1;
		if (used) {
			rules_out_char(&o, s->kind[k].letter);
			rules_out_char(&o, ' ');
			rules_out_str(&o, s->kind[k].name);
			rules_out_char(&o, '\n');
		}
	}
	return rules_out_done(&o);
}

static int
shifter_init(
    void *st, const struct rules_opt *opts, int nopts, char *err, size_t errlen)
{
	struct shifter_state *s = st;
	const char *moves, *file, *seedtext;
	char why[RULES_ERR_MAX];
	size_t len;

	memset(s, 0, sizeof *s);
	moves = rules_opt_get(&rules_shifter, opts, nopts, "moves");
	if (moves != NULL)
		len = strlen(moves);
	else
		moves = rules_data("shifter/movimientos.csv", &len);
	if (moves == NULL) {
		rules_seterr(
		    err, errlen, "the shipped movimientos.csv is missing");
		return -1;
	}
	if (shifter_table_parse(s, moves, len, why, sizeof why) != 0) {
		rules_seterr(err, errlen, "moves: %s", why);
		return -1;
	}
	file = rules_opt_get(&rules_shifter, opts, nopts, "file");
	if (file != NULL) {
		if (shifter_import(s, file, strlen(file), why, sizeof why) !=
		    0) {
			rules_seterr(err, errlen, "file: %s", why);
			return -1;
		}
		return 0;
	}
	seedtext = rules_opt_get(&rules_shifter, opts, nopts, "seed");
	return shifter_generate(s,
	    (int)rules_opt_long(&rules_shifter, opts, nopts, "level"),
	    seedtext != NULL
	        ? (uint64_t)rules_opt_long(&rules_shifter, opts, nopts, "seed")
	        : 1,
	    err, errlen);
}

static int
shifter_turn(const void *st)
{
	return 0;
}

static void
shifter_status(const void *st, struct rules_status *out)
{
	const struct shifter_state *s = st;
	int left = shifter_popcount(shifter_occupied(s));

	out->winner = RULES_NONE;
	out->level = s->level;
	out->nscores = 1;
	out->score[0] = left;
	out->score[1] = 0;
	if (left <= 1) {
		out->result = RULES_SOLVED;
		out->reason = "level won";
	} else if (shifter_targets(s) == 0) {
		out->result = RULES_BLOCKED;
		out->reason = "no capture left";
	} else {
		out->result = RULES_PLAYING;
		out->reason = "";
	}
}

/* The active piece's captures, in square order. */
static int
shifter_legal_moves(const void *st, struct rules_move *out, int max)
{
	const struct shifter_state *s = st;
	uint64_t t = shifter_targets(s);
	int n = 0, sq;

	for (sq = 0; sq < SHIFTER_SQUARES && n < max; sq++) {
		if (!(t & shifter_bit(sq)))
			continue;
		out[n].from = s->active;
		out[n].to = (int16_t)sq;
		out[n].arg = RULES_NONE;
		n++;
	}
	return n;
}

static int
shifter_legal_from(const void *st, int square, struct rules_move *out, int max)
{
	const struct shifter_state *s = st;

	if (square != s->active)
		return 0;
	return shifter_legal_moves(st, out, max);
}

/* A square in any case ("e4", "E4"); 0, or -1 naming what is wrong. */
static int
shifter_square_parse(const char *p, size_t n, int *square, const char *what,
    char *err, size_t errlen)
{
	char c;
	int rank;
	size_t i;

	if (n < 2 || n > 3 ||
	    !(shifter_is_upper(p[0]) || shifter_is_lower(p[0]))) {
		rules_seterr(err, errlen,
		    "malformed %s: expected a square like e4", what);
		return -1;
	}
	for (i = 1; i < n; i++) {
		if (!shifter_is_digit(p[i])) {
			rules_seterr(err, errlen,
			    "malformed %s: expected a square like e4", what);
			return -1;
		}
	}
	c = shifter_to_lower(p[0]);
	rank = p[1] - '0';
	if (n == 3)
		rank = rank * 10 + p[2] - '0';
	if (c > 'h' || rank < 1 || rank > SHIFTER_SIDE) {
		rules_seterr(err, errlen, "not a square: %.*s", (int)n, p);
		return -1;
	}
	*square = (SHIFTER_SIDE - rank) * SHIFTER_SIDE + (c - 'a');
	return 0;
}

static int
shifter_parse_square(
    const void *st, const char *text, int *square, char *err, size_t errlen)
{
	size_t n = strlen(text);

	shifter_trim(&text, &n);
	return shifter_square_parse(text, n, square, "square", err, errlen);
}

/* The destination square; legal only when it holds a piece the active
 * piece reaches. */
static int
shifter_parse_move(const void *st, const char *text, struct rules_move *out,
    char *err, size_t errlen)
{
	const struct shifter_state *s = st;
	const struct shifter_kind *kd;
	char from[3], to[3];
	size_t n = strlen(text);
	int sq;

	shifter_trim(&text, &n);
	if (shifter_square_parse(text, n, &sq, "move", err, errlen) != 0)
		return -1;
	if (shifter_popcount(shifter_occupied(s)) <= 1) {
		rules_seterr(err, errlen, "the level is already won");
		return -1;
	}
	shifter_sqname(sq, to);
	shifter_sqname(s->active, from);
	kd = &s->kind[(int)s->board[(int)s->active]];
	if (s->board[sq] == SHIFTER_EMPTY) {
		rules_seterr(err, errlen, "no piece on %s to capture", to);
		return -1;
	}
	if (sq == s->active) {
		rules_seterr(err, errlen, "the %s on %s cannot take itself",
		    shifter_word(kd->name), from);
		return -1;
	}
	if (!(shifter_targets(s) & shifter_bit(sq))) {
		rules_seterr(err, errlen, "the %s on %s cannot reach %s",
		    shifter_word(kd->name), from, to);
		return -1;
	}
	out->from = s->active;
	out->to = (int16_t)sq;
	out->arg = RULES_NONE;
	return 0;
}

static void
shifter_format_move(const void *st, struct rules_move m, char *buf, size_t len)
{
	char to[3];

	shifter_sqname(m.to, to);
	snprintf(buf, len, "%s", to);
}

/* Does a name take "an" before it (not "a")? */
static int
shifter_takes_an(const char *name)
{
	return strchr("aeiouAEIOU", name[0]) != NULL;
}

static void
shifter_describe_move(
    const void *st, struct rules_move m, char *buf, size_t len)
{
	const struct shifter_state *s = st;
	const char *a, *b;
	char from[3], to[3];

	if (m.from < 0 || m.from >= SHIFTER_SQUARES || m.to < 0 ||
	    m.to >= SHIFTER_SQUARES || s->board[m.from] == SHIFTER_EMPTY ||
	    s->board[m.to] == SHIFTER_EMPTY) {
		rules_say(buf, len, "no move");
		return;
	}
	a = shifter_word(s->kind[(int)s->board[m.from]].name);
	b = shifter_word(s->kind[(int)s->board[m.to]].name);
	shifter_sqname(m.from, from);
	shifter_sqname(m.to, to);
	/* one format an article, so that the sentence is whole (rules_say) */
	if (shifter_takes_an(b))
		rules_say(buf, len,
		    "the %s on %s takes the %s on %s and becomes an %s", a,
		    from, b, to, b);
	else
		rules_say(buf, len,
		    "the %s on %s takes the %s on %s and becomes a %s", a, from,
		    b, to, b);
}

/* The mover leaves the board; the piece it took stays and is active. A
 * move that is not a capture by the active piece changes nothing, so the
 * active square always holds a piece. */
static void
shifter_apply(void *st, struct rules_move m)
{
	struct shifter_state *s = st;

	if (m.to < 0 || m.to >= SHIFTER_SQUARES || m.from != s->active ||
	    m.to == m.from || s->board[m.to] == SHIFTER_EMPTY)
		return;
	s->board[(int)s->active] = SHIFTER_EMPTY;
	s->active = (int8_t)m.to;
}

/* Back to the level's starting layout: the board and active piece the
 * level began with (a level file's `start` section, else its board). */
static void
shifter_restart(void *st)
{
	struct shifter_state *s = st;

	memcpy(s->board, s->start, sizeof s->board);
	s->active = s->start_active;
}

/* The picture: the board with rank numbers and file letters, [X] the active
 * piece, (X) a piece it can take, then the active piece and the legend. */
static int
shifter_render(const void *st, char *buf, size_t len)
{
	const struct shifter_state *s = st;
	struct rules_out o = {buf, len, 0, 0};
	struct rules_status status;
	uint64_t t = shifter_targets(s);
	int sq, k;
	char name[3];

	shifter_status(s, &status);
	rules_out_add(&o, "Shape Shifter Chess, level %d: %d piece%s left\n",
	    s->level, status.score[0], status.score[0] == 1 ? "" : "s");
	rules_out_str(&o, "    a  b  c  d  e  f  g  h\n");
	for (sq = 0; sq < SHIFTER_SQUARES; sq++) {
		char c = s->board[sq] == SHIFTER_EMPTY
		    ? '.'
		    : s->kind[(int)s->board[sq]].letter;
		char cell[3] = {' ', c, ' '};
		char rank = (char)('0' + SHIFTER_SIDE - sq / SHIFTER_SIDE);

		if (sq == s->active) {
			cell[0] = '[';
			cell[2] = ']';
		} else if (t & shifter_bit(sq)) {
			cell[0] = '(';
			cell[2] = ')';
		}
		if (sq % SHIFTER_SIDE == 0) {
			char left[3] = {' ', rank, ' '};

			rules_out_mem(&o, left, sizeof left);
		}
		rules_out_mem(&o, cell, sizeof cell);
		if (sq % SHIFTER_SIDE == SHIFTER_SIDE - 1) {
			char right[3] = {' ', rank, '\n'};

			rules_out_mem(&o, right, sizeof right);
		}
	}
	rules_out_str(&o, "    a  b  c  d  e  f  g  h\n");
	shifter_sqname(s->active, name);
	rules_out_add(&o, "[ ] active: the %s on %s",
	    shifter_word(s->kind[(int)s->board[(int)s->active]].name), name);
	if (status.result == RULES_SOLVED)
		rules_out_str(&o, "; level won\n");
	else if (status.result == RULES_BLOCKED)
		rules_out_str(&o, "; no capture left, retry the level\n");
	else
		rules_out_str(&o, "; ( ) it can take:");
	for (sq = 0; sq < SHIFTER_SQUARES; sq++) {
		if (t & shifter_bit(sq)) {
			shifter_sqname(sq, name);
			rules_out_char(&o, ' ');
			rules_out_str(&o, name);
		}
	}
	if (status.result == RULES_PLAYING)
		rules_out_char(&o, '\n');
	rules_out_str(&o, "pieces:");
	for (k = 0; k < s->nkinds; k++) {
		char letter[3] = {' ', s->kind[k].letter, ' '};

		rules_out_mem(&o, letter, sizeof letter);
		rules_out_str(&o, shifter_word(s->kind[k].name));
		if (strcmp(shifter_word(s->kind[k].name), s->kind[k].name))
			rules_out_add(&o, " (%s)", s->kind[k].name);
		rules_out_char(&o, k + 1 < s->nkinds ? ',' : '\n');
	}
	return rules_out_done(&o);
}

/* One character a cell: '.' empty, the kind's letter for a piece, in lower
 * case for the active piece. */
static int
shifter_board_rows(const void *st, char *buf, size_t len)
{
	const struct shifter_state *s = st;
	struct rules_out o = {buf, len, 0, 0};

	shifter_out_rows(&o, s, s->board, s->active);
	return rules_out_done(&o);
}

/* Mixes the level, every piece's square and kind, and the active square;
 * the constants keep the three kinds of term apart. */
static uint64_t
shifter_hash(const void *st)
{
	const struct shifter_state *s = st;
	uint64_t h = rules_mix64(0x5368696674ULL + s->level), piece;
	int sq;

	for (sq = 0; sq < SHIFTER_SQUARES; sq++) {
		if (s->board[sq] == SHIFTER_EMPTY)
			continue;
		piece = (uint64_t)sq << 8 | (uint8_t)s->board[sq];
		h ^= rules_mix64(0x100000 + piece);
	}
	return h ^ rules_mix64(0x200000 + (uint64_t)(uint8_t)s->active);
}

static const struct rules_optdesc shifter_options[] = {
    {"seed", RULES_OPT_INT, 0, 2147483647, NULL, NULL,
        "seed of the level generator"},
    {"level", RULES_OPT_INT, 1, SHIFTER_MAX_LEVEL, NULL, "1",
        "the level: level N has N+2 pieces"},
    {"moves", RULES_OPT_TEXT, 0, SHIFTER_MOVES_MAX, NULL, NULL,
        "a movimientos.csv, lines piece,dx;dy,extensible"},
    {"file", RULES_OPT_TEXT, 0, SHIFTER_FILE_MAX, NULL, NULL,
        "a level file to play instead of a generated level"},
    {NULL, RULES_OPT_INT, 0, 0, NULL, NULL, NULL},
};

const struct rules_game rules_shifter = {
    .name = "shifter",
    .title = "Shape Shifter Chess",
    .seats = 1,
    .seat_names = {"player", NULL},
    .options = shifter_options,
    .notation = "the square of the piece to take, like e4",
    .file_format = "level file",
    .state_size = sizeof(struct shifter_state),
    .init = shifter_init,
    .turn = shifter_turn,
    .status = shifter_status,
    .legal_moves = shifter_legal_moves,
    .legal_from = shifter_legal_from,
    .parse_square = shifter_parse_square,
    .parse_move = shifter_parse_move,
    .format_move = shifter_format_move,
    .describe_move = shifter_describe_move,
    .apply = shifter_apply,
    .to_position = shifter_to_position,
    .from_position = shifter_from_position,
    .restart = shifter_restart,
    .import_file = shifter_import,
    .export_file = shifter_export,
    .render = shifter_render,
    .board_rows = shifter_board_rows,
    .hash = shifter_hash,
    .perft = NULL,
};
