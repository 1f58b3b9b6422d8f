/*
 * solitaire.c: peg solitaire (the seed's El Solitario): jumps, the end of
 * the game, the R,C DIR notation, the board file format, the position
 * string, the pictures, and random boards generated backwards from the goal
 * so that they are solvable by construction.
 */
#include <stdio.h>
#include <string.h>

#include "games.h"
#include "solitaire.h"

/* The longest board file the `file` option takes: a 10x10 file is about
 * 230 bytes, so this leaves room for any spacing without inviting abuse. */
#define SOLITAIRE_FILE_MAX 4096

/* The most backward moves a generated board may ask for: 61 pegs already
 * crowd a 10x10 board and the generator stops anyway when it is stuck. */
#define SOLITAIRE_MAX_STEPS 60

/* Generated boards: at least 3 cells a side so that the goal always has
 * room for a backward jump. */
#define SOLITAIRE_GEN_MIN 3

/* Digits of a number in a board file: more is surely a mistake, and this
 * keeps every number far from int overflow. */
#define SOLITAIRE_NUM_DIGITS 6

/* Characters of a bad word quoted back in an error. */
#define SOLITAIRE_SHOW_MAX 12

/* Directions, in the seed's order: its numbered choices follow it. */
enum solitaire_dir { SOL_UP, SOL_DOWN, SOL_LEFT, SOL_RIGHT, SOL_NDIRS };

static const int solitaire_dr[SOL_NDIRS] = {-1, 1, 0, 0};
static const int solitaire_dc[SOL_NDIRS] = {0, 0, -1, 1};
static const char *const solitaire_dirname[SOL_NDIRS] = {
    "up", "down", "left", "right"};

static const struct rules_optdesc solitaire_options[] = {
    {"board", RULES_OPT_CHOICE, 0, 0, "english|european|example", "english",
        "a built-in board: the English cross, the European board (cannot "
        "be won: its start and goal differ in position class) or the seed's "
        "6x6 example"},
    {"file", RULES_OPT_TEXT, 0, SOLITAIRE_FILE_MAX, NULL, NULL,
        "a board file's text: rows cols, the cells as 0/1/2 row by row, the "
        "goal's row and column from 0"},
    {"steps", RULES_OPT_INT, 1, SOLITAIRE_MAX_STEPS, NULL, NULL,
        "generate a random solvable board with this many backward jumps"},
    {"rows", RULES_OPT_INT, SOLITAIRE_GEN_MIN, SOLITAIRE_MAX_SIDE, NULL, "7",
        "rows of a generated board"},
    {"cols", RULES_OPT_INT, SOLITAIRE_GEN_MIN, SOLITAIRE_MAX_SIDE, NULL, "7",
        "columns of a generated board"},
    {"seed", RULES_OPT_INT, 0, 2147483647, NULL, NULL,
        "the random seed of a generated board"},
    {NULL, 0, 0, 0, NULL, NULL, NULL},
};

static int
solitaire_isspace(int ch)
{
	return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' ||
	    ch == '\v' || ch == '\f';
}

static int
solitaire_isdigit(int ch)
{
	return ch >= '0' && ch <= '9';
}

static int
solitaire_isalpha(int ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

static int
solitaire_inside(const struct solitaire_state *s, int r, int c)
{
	return r >= 0 && r < s->rows && c >= 0 && c < s->cols;
}

/* A cell's content; outside the board counts as unusable. */
static int
solitaire_at(const struct solitaire_state *s, int r, int c)
{
	if (!solitaire_inside(s, r, c))
		return SOLITAIRE_OFF;
	return s->cell[r * s->cols + c];
}

/* Can the peg at (r, c) jump in direction d? */
static int
solitaire_can_jump(const struct solitaire_state *s, int r, int c, int d)
{
	return solitaire_at(s, r, c) == SOLITAIRE_PEG &&
	    solitaire_at(s, r + solitaire_dr[d], c + solitaire_dc[d]) ==
	    SOLITAIRE_PEG &&
	    solitaire_at(s, r + 2 * solitaire_dr[d], c + 2 * solitaire_dc[d]) ==
	    SOLITAIRE_EMPTY;
}

/* The directions the peg at (r, c) can jump, as bits 1 << dir; their
 * count. */
static int
solitaire_dirs(const struct solitaire_state *s, int r, int c, int *set)
{
	int d, n = 0;

	*set = 0;
	for (d = 0; d < SOL_NDIRS; d++) {
		if (solitaire_can_jump(s, r, c, d)) {
			*set |= 1 << d;
			n++;
		}
	}
	return n;
}

static struct rules_move
solitaire_mkmove(const struct solitaire_state *s, int r, int c, int d)
{
	struct rules_move m;

	m.from = (int16_t)(r * s->cols + c);
	m.to = (int16_t)((r + 2 * solitaire_dr[d]) * s->cols + c +
	    2 * solitaire_dc[d]);
	m.arg = RULES_NONE;
	return m;
}

/* The direction of a move of two cells in a straight line, else -1. */
static int
solitaire_move_dir(const struct solitaire_state *s, struct rules_move m)
{
	int ncells = s->rows * s->cols, fr, fc, tr, tc, d;

	if (m.from < 0 || m.from >= ncells || m.to < 0 || m.to >= ncells)
		return -1;
	fr = m.from / s->cols;
	fc = m.from % s->cols;
	tr = m.to / s->cols;
	tc = m.to % s->cols;
	for (d = 0; d < SOL_NDIRS; d++)
		if (tr == fr + 2 * solitaire_dr[d] &&
		    tc == fc + 2 * solitaire_dc[d])
			return d;
	return -1;
}

static int
solitaire_any_move(const struct solitaire_state *s)
{
	int r, c, d;

	for (r = 0; r < s->rows; r++)
		for (c = 0; c < s->cols; c++)
			for (d = 0; d < SOL_NDIRS; d++)
				if (solitaire_can_jump(s, r, c, d))
					return 1;
	return 0;
}

/* Count the pegs: what every loader ends with. */
static void
solitaire_count(struct solitaire_state *s)
{
	int i;

	s->pegs = 0;
	for (i = 0; i < s->rows * s->cols; i++)
		if (s->cell[i] == SOLITAIRE_PEG)
			s->pegs++;
}

/* Quote a word of untrusted text for an error: printable, and short. */
static void
solitaire_show(char *out, size_t outlen, const char *w, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len && i < SOLITAIRE_SHOW_MAX && n + 1 < outlen; i++) {
		unsigned char ch = (unsigned char)w[i];

		out[n++] = ch >= 0x20 && ch < 0x7f ? (char)ch : '?';
	}
	if (len > SOLITAIRE_SHOW_MAX && n + 4 <= outlen) {
		memcpy(out + n, "...", 3);
		n += 3;
	}
	out[n] = '\0';
}

/*
 * The game's functions.
 */

static int
solitaire_turn(const void *st)
{
	return 0;
}

static void
solitaire_status(const void *st, struct rules_status *out)
{
	const struct solitaire_state *s = st;

	out->winner = RULES_NONE;
	out->nscores = 1;
	out->score[0] = s->pegs;
	out->score[1] = 0;
	if (s->pegs == 1 && s->cell[s->goal] == SOLITAIRE_PEG) {
		out->result = RULES_SOLVED;
		out->reason = "one peg left on the goal";
	} else if (solitaire_any_move(s)) {
		out->result = RULES_PLAYING;
		out->reason = "";
	} else {
		out->result = RULES_BLOCKED;
		if (s->pegs == 0)
			out->reason = "no peg left";
		else if (s->pegs == 1)
			out->reason = "one peg left, off the goal";
		else
			out->reason = "no move left";
	}
}

static int
solitaire_legal_from(
    const void *st, int square, struct rules_move *out, int max)
{
	const struct solitaire_state *s = st;
	int r, c, d, n = 0;

	if (square < 0 || square >= s->rows * s->cols)
		return 0;
	r = square / s->cols;
	c = square % s->cols;
	for (d = 0; d < SOL_NDIRS && n < max; d++)
		if (solitaire_can_jump(s, r, c, d))
			out[n++] = solitaire_mkmove(s, r, c, d);
	return n;
}

/* Every jump, cell by cell from the top left, each cell's in the seed's
 * order of directions (a finished game has none: one peg cannot jump). */
static int
solitaire_legal_moves(const void *st, struct rules_move *out, int max)
{
	const struct solitaire_state *s = st;
	int i, n = 0;

	for (i = 0; i < s->rows * s->cols && n < max; i++)
		n += solitaire_legal_from(st, i, out + n, max - n);
	return n;
}

static void
solitaire_apply(void *st, struct rules_move m)
{
	struct solitaire_state *s = st;
	int d = solitaire_move_dir(s, m);

	if (d < 0)
		return;
	s->cell[m.from] = SOLITAIRE_EMPTY;
	s->cell[(m.from + m.to) / 2] = SOLITAIRE_EMPTY;
	s->cell[m.to] = SOLITAIRE_PEG;
	s->pegs--;
}

/* A cell written "R,C" (1-based, spaces around the comma allowed), with
 * its digits kept for messages. */
struct solitaire_rc {
	int row, col; /* saturated so that long numbers stay off the board */
	const char *rtext, *ctext;
	int rlen, clen;
};

static const char *
solitaire_skip_spaces(const char *p)
{
	while (*p != '\0' && solitaire_isspace((unsigned char)*p))
		p++;
	return p;
}

/* Read digits at *pp into a number that saturates at 1000. */
static int
solitaire_scan_num(const char **pp, const char **text, int *len)
{
	const char *p = *pp;
	int v = 0;

	if (!solitaire_isdigit((unsigned char)*p))
		return -1;
	*text = p;
	while (solitaire_isdigit((unsigned char)*p)) {
		v = v * 10 + (*p - '0');
		if (v > 1000)
			v = 1000;
		p++;
	}
	*len = (int)(p - *text);
	*pp = p;
	return v;
}

/* Read "R,C" at *pp; 0, or -1 when it is not there. */
static int
solitaire_scan_rc(const char **pp, struct solitaire_rc *rc)
{
	const char *p = solitaire_skip_spaces(*pp);

	rc->row = solitaire_scan_num(&p, &rc->rtext, &rc->rlen);
	if (rc->row < 0)
		return -1;
	p = solitaire_skip_spaces(p);
	if (*p != ',')
		return -1;
	p = solitaire_skip_spaces(p + 1);
	rc->col = solitaire_scan_num(&p, &rc->ctext, &rc->clen);
	if (rc->col < 0)
		return -1;
	*pp = p;
	return 0;
}

/* The cell a parsed R,C names, or -1 with the reason. */
static int
solitaire_rc_cell(const struct solitaire_state *s,
    const struct solitaire_rc *rc, char *err, size_t errlen)
{
	char rt[SOLITAIRE_SHOW_MAX + 4], ct[SOLITAIRE_SHOW_MAX + 4];

	if (rc->row < 1 || rc->row > s->rows || rc->col < 1 ||
	    rc->col > s->cols) {
		solitaire_show(rt, sizeof rt, rc->rtext, (size_t)rc->rlen);
		solitaire_show(ct, sizeof ct, rc->ctext, (size_t)rc->clen);
		rules_seterr(
		    err, errlen, "not a cell of this board: %s,%s", rt, ct);
		return -1;
	}
	return (rc->row - 1) * s->cols + rc->col - 1;
}

static int
solitaire_parse_square(
    const void *st, const char *text, int *square, char *err, size_t errlen)
{
	const struct solitaire_state *s = st;
	struct solitaire_rc rc;
	const char *p = text;
	int cell;

	if (solitaire_scan_rc(&p, &rc) != 0 ||
	    *solitaire_skip_spaces(p) != '\0') {
		rules_seterr(err, errlen, "malformed cell: expected like 3,4");
		return -1;
	}
	cell = solitaire_rc_cell(s, &rc, err, errlen);
	if (cell < 0)
		return -1;
	*square = cell;
	return 0;
}

/* A direction word (up, down, left, right or their first letter, any
 * case), or -1. */
static int
solitaire_word_dir(const char *w, size_t len)
{
	static const char letters[SOL_NDIRS] = {'u', 'd', 'l', 'r'};
	char low[8];
	size_t i;
	int d;

	if (len == 0 || len >= sizeof low)
		return -1;
	for (i = 0; i < len; i++)
		low[i] = (char)(w[i] >= 'A' && w[i] <= 'Z' ? w[i] - 'A' + 'a'
		                                           : w[i]);
	low[len] = '\0';
	for (d = 0; d < SOL_NDIRS; d++)
		if (strcmp(low, solitaire_dirname[d]) == 0 ||
		    (len == 1 && low[0] == letters[d]))
			return d;
	return -1;
}

/* "up", "up or left", "up, down or left": the directions in set. */
static void
solitaire_dir_list(int set, char *buf, size_t len)
{
	struct rules_out b;
	int d, n = 0, total = 0;

	for (d = 0; d < SOL_NDIRS; d++)
		total += (set >> d) & 1;
	rules_out_init(&b, buf, len);
	for (d = 0; d < SOL_NDIRS; d++) {
		if (!((set >> d) & 1))
			continue;
		n++;
		rules_out_add(&b, "%s%s",
		    n == 1 ? "" : (n == total ? " or " : ", "),
		    solitaire_dirname[d]);
	}
}

/* Check that the peg at cell can jump in direction d (-1: the only way it
 * can); that jump, or -1 with the reason. */
static int
solitaire_check_jump(const struct solitaire_state *s, int cell, int d,
    struct rules_move *out, char *err, size_t errlen)
{
	int r = cell / s->cols, c = cell % s->cols, set, n;
	char list[64];

	if (s->cell[cell] != SOLITAIRE_PEG) {
		rules_seterr(err, errlen, "no peg at %d,%d", r + 1, c + 1);
		return -1;
	}
	n = solitaire_dirs(s, r, c, &set);
	if (n == 0) {
		rules_seterr(
		    err, errlen, "the peg at %d,%d cannot move", r + 1, c + 1);
		return -1;
	}
	if (d >= 0 && !((set >> d) & 1)) {
		rules_seterr(err, errlen, "%d,%d cannot jump %s", r + 1, c + 1,
		    solitaire_dirname[d]);
		return -1;
	}
	if (d < 0 && n > 1) {
		solitaire_dir_list(set, list, sizeof list);
		rules_seterr(err, errlen,
		    "the peg at %d,%d can jump %s: say which", r + 1, c + 1,
		    list);
		return -1;
	}
	for (d = d >= 0 ? d : 0; !((set >> d) & 1); d++)
		;
	*out = solitaire_mkmove(s, r, c, d);
	return 0;
}

static int
solitaire_parse_move(const void *st, const char *text, struct rules_move *out,
    char *err, size_t errlen)
{
	const struct solitaire_state *s = st;
	struct rules_status status;
	struct solitaire_rc rc;
	const char *p = text, *w;
	char shown[SOLITAIRE_SHOW_MAX + 4];
	int cell, d = -1;

	if (solitaire_scan_rc(&p, &rc) != 0)
		goto malformed;
	p = solitaire_skip_spaces(p);
	if (solitaire_isalpha((unsigned char)*p)) {
		for (w = p; solitaire_isalpha((unsigned char)*p); p++)
			;
		d = solitaire_word_dir(w, (size_t)(p - w));
		if (d < 0) {
			solitaire_show(shown, sizeof shown, w, (size_t)(p - w));
			rules_seterr(err, errlen,
			    "'%s' is not a direction: say up, down, left or "
			    "right",
			    shown);
			return -1;
		}
		p = solitaire_skip_spaces(p);
	}
	if (*p != '\0')
		goto malformed;
	cell = solitaire_rc_cell(s, &rc, err, errlen);
	if (cell < 0)
		return -1;
	solitaire_status(s, &status);
	if (status.result != RULES_PLAYING) {
		rules_seterr(
		    err, errlen, "the game is over: %s", status.reason);
		return -1;
	}
	return solitaire_check_jump(s, cell, d, out, err, errlen);
malformed:
	rules_seterr(err, errlen, "malformed move: expected like 3,4 up");
	return -1;
}

static void
solitaire_format_move(
    const void *st, struct rules_move m, char *buf, size_t len)
{
	const struct solitaire_state *s = st;
	int d = solitaire_move_dir(s, m);

	if (len == 0)
		return;
	if (d < 0) {
		snprintf(buf, len, "?");
		return;
	}
	snprintf(buf, len, "%d,%d %s", m.from / s->cols + 1,
	    m.from % s->cols + 1, solitaire_dirname[d]);
}

static void
solitaire_describe_move(
    const void *st, struct rules_move m, char *buf, size_t len)
{
	const struct solitaire_state *s = st;
	int d = solitaire_move_dir(s, m), over;

	if (len == 0)
		return;
	if (d < 0) {
		rules_say(buf, len, "not a jump");
		return;
	}
	over = (m.from + m.to) / 2;
	rules_say(buf, len, "peg %d,%d jumps %s over %d,%d to %d,%d",
	    m.from / s->cols + 1, m.from % s->cols + 1, solitaire_dirname[d],
	    over / s->cols + 1, over % s->cols + 1, m.to / s->cols + 1,
	    m.to % s->cols + 1);
}

/*
 * The position string: "RxC:" then the rows top first, separated by '/',
 * one character a cell ('#' unusable, '.' empty, 'o' peg), then
 * " goal=R,C" (1-based). Example: "3x3:#o#/.o./### goal=2,2".
 */

static const char solitaire_pos_chars[3] = {'#', '.', 'o'};

static int
solitaire_to_position(const void *st, char *buf, size_t len)
{
	const struct solitaire_state *s = st;
	struct rules_out b;
	int r, c;

	rules_out_init(&b, buf, len);
	rules_out_int(&b, s->rows, 0);
	rules_out_char(&b, 'x');
	rules_out_int(&b, s->cols, 0);
	rules_out_char(&b, ':');
	for (r = 0; r < s->rows; r++) {
		for (c = 0; c < s->cols; c++)
			rules_out_char(
			    &b, solitaire_pos_chars[s->cell[r * s->cols + c]]);
		if (r + 1 < s->rows)
			rules_out_char(&b, '/');
	}
	rules_out_str(&b, " goal=");
	rules_out_int(&b, s->goal / s->cols + 1, 0);
	rules_out_char(&b, ',');
	rules_out_int(&b, s->goal % s->cols + 1, 0);
	return rules_out_done(&b);
}

/* A number of a position string: 1 to 3 digits, no leading zero (so that
 * every valid string is the one to_position writes); -1 when absent. */
static int
solitaire_pos_num(const char **pp)
{
	const char *p = *pp;
	int v = 0, n = 0;

	if (*p < '1' || *p > '9')
		return -1;
	while (solitaire_isdigit((unsigned char)*p) && n < 3) {
		v = v * 10 + (*p - '0');
		p++;
		n++;
	}
	if (solitaire_isdigit((unsigned char)*p))
		return -1;
	*pp = p;
	return v;
}

/* Read the rows of a position string into t; 0 or -1 with the reason. */
static int
solitaire_pos_rows(
    struct solitaire_state *t, const char **pp, char *err, size_t errlen)
{
	const char *p = *pp, *q;
	int r, c, v;

	for (r = 0; r < t->rows; r++) {
		for (c = 0; c < t->cols; c++, p++) {
			v = (unsigned char)*p;
			if (v == '\0' || v == '/' || v == ' ') {
				rules_seterr(err, errlen,
				    "position: row %d should have %d cells, "
				    "not %d",
				    r + 1, t->cols, c);
				return -1;
			}
			q = memchr(solitaire_pos_chars, v, 3);
			if (q == NULL) {
				rules_seterr(err, errlen,
				    v >= 0x20 && v < 0x7f
				        ? "position: row %d, cell %d: '%c' is "
				          "not #, . or o"
				        : "position: row %d, cell %d: byte "
				          "%#x is not #, . or o",
				    r + 1, c + 1, v);
				return -1;
			}
			t->cell[r * t->cols + c] =
			    (uint8_t)(q - solitaire_pos_chars);
		}
		if (r + 1 < t->rows && *p == '/') {
			p++;
		} else if (r + 1 < t->rows && (*p == '\0' || *p == ' ')) {
			rules_seterr(err, errlen,
			    "position: only %d of %d rows", r + 1, t->rows);
			return -1;
		} else if (r + 1 == t->rows && *p == '/') {
			rules_seterr(err, errlen, "position: more than %d rows",
			    t->rows);
			return -1;
		} else if (*p != ' ' && *p != '\0') {
			rules_seterr(err, errlen,
			    "position: row %d is longer than %d cells", r + 1,
			    t->cols);
			return -1;
		}
	}
	*pp = p;
	return 0;
}

static int
solitaire_from_position(void *st, const char *text, char *err, size_t errlen)
{
	struct solitaire_state t;
	const char *p = text;
	int rows, cols, gr, gc;

	memset(&t, 0, sizeof t);
	rows = solitaire_pos_num(&p);
	if (rows < 0 || *p != 'x')
		goto bad_start;
	p++;
	cols = solitaire_pos_num(&p);
	if (cols < 0 || *p != ':')
		goto bad_start;
	p++;
	if (rows > SOLITAIRE_MAX_SIDE || cols > SOLITAIRE_MAX_SIDE) {
		rules_seterr(err, errlen,
		    "position: size %dx%d is out of range (1..%d)", rows, cols,
		    SOLITAIRE_MAX_SIDE);
		return -1;
	}
	t.rows = (int8_t)rows;
	t.cols = (int8_t)cols;
	if (solitaire_pos_rows(&t, &p, err, errlen) != 0)
		return -1;
	if (strncmp(p, " goal=", 6) != 0)
		goto bad_goal;
	p += 6;
	gr = solitaire_pos_num(&p);
	if (gr < 0 || *p != ',')
		goto bad_goal;
	p++;
	gc = solitaire_pos_num(&p);
	if (gc < 0)
		goto bad_goal;
	if (*p != '\0') {
		rules_seterr(
		    err, errlen, "position: unexpected text after the goal");
		return -1;
	}
	if (gr > rows || gc > cols) {
		rules_seterr(err, errlen,
		    "position: goal %d,%d is outside the %dx%d board", gr, gc,
		    rows, cols);
		return -1;
	}
	t.goal = (int16_t)((gr - 1) * cols + gc - 1);
	if (t.cell[t.goal] == SOLITAIRE_OFF) {
		rules_seterr(err, errlen,
		    "position: goal %d,%d is not a usable cell", gr, gc);
		return -1;
	}
	solitaire_count(&t);
	memcpy(st, &t, sizeof t);
	return 0;
bad_start:
	rules_seterr(
	    err, errlen, "position: expected the size at the start, like 7x7:");
	return -1;
bad_goal:
	rules_seterr(
	    err, errlen, "position: expected ' goal=R,C' after the rows");
	return -1;
}

/*
 * The board file (the seed's format, read as the seed's `cargar` reads its
 * stream): the numbers of rows and columns, then rows x cols cells, 0
 * (unusable), 1 (empty) or 2 (peg), row by row from the top, then the goal's
 * row and column counted from 0. Only the order of the numbers counts: they
 * are separated by any blanks and line breaks, so rows may be split over
 * lines or joined on one. Nothing may follow the goal.
 */

/* A cursor over the numbers of a board file. */
struct solitaire_reader {
	const char *p, *end;
	int line;  /* the line of the word last read, from 1 */
	int count; /* words read so far */
};

/* One word of the file: where it is and on which line. */
struct solitaire_word {
	const char *w;
	size_t len;
	int line;
};

/* The next word (a run of non-blanks); 0, or -1 at the end of the text. */
static int
solitaire_next_word(struct solitaire_reader *rd, struct solitaire_word *wd)
{
	while (rd->p < rd->end && solitaire_isspace((unsigned char)*rd->p)) {
		if (*rd->p == '\n')
			rd->line++;
		rd->p++;
	}
	if (rd->p == rd->end)
		return -1;
	wd->w = rd->p;
	while (rd->p < rd->end && !solitaire_isspace((unsigned char)*rd->p))
		rd->p++;
	wd->len = (size_t)(rd->p - wd->w);
	wd->line = rd->line;
	rd->count++;
	return 0;
}

/* A word as a whole number; 0, or -1 with the reason. */
static int
solitaire_word_int(
    const struct solitaire_word *wd, int *out, char *err, size_t errlen)
{
	size_t len = wd->len, j, neg = len > 1 && wd->w[0] == '-';
	char shown[SOLITAIRE_SHOW_MAX + 4];
	int v = 0;

	for (j = neg; j < len; j++)
		if (!solitaire_isdigit((unsigned char)wd->w[j]))
			break;
	solitaire_show(shown, sizeof shown, wd->w, len);
	if (j < len) {
		rules_seterr(err, errlen, "line %d: '%s' is not a number",
		    wd->line, shown);
		return -1;
	}
	if (len - neg > SOLITAIRE_NUM_DIGITS) {
		rules_seterr(
		    err, errlen, "line %d: '%s' is too large", wd->line, shown);
		return -1;
	}
	for (j = neg; j < len; j++)
		v = v * 10 + (wd->w[j] - '0');
	*out = neg ? -v : v;
	return 0;
}

/* Numbers a board file of t's size holds: the size, the cells, the goal. */
static int
solitaire_file_numbers(const struct solitaire_state *t)
{
	return 2 + t->rows * t->cols + 2;
}

/* The file ended early: say how many numbers it has and needs. */
static int
solitaire_short_file(const struct solitaire_reader *rd,
    const struct solitaire_state *t, char *err, size_t errlen)
{
	rules_seterr(err, errlen,
	    "the file ends after %d numbers: a %dx%d board needs %d (rows "
	    "and cols, %d cells, the goal's row and column)",
	    rd->count, t->rows, t->cols, solitaire_file_numbers(t),
	    t->rows * t->cols);
	return -1;
}

/* The next number, which the file must have; 0, or -1 with the reason. */
static int
solitaire_read_int(struct solitaire_reader *rd, const struct solitaire_state *t,
    struct solitaire_word *wd, int *out, char *err, size_t errlen)
{
	if (solitaire_next_word(rd, wd) != 0)
		return solitaire_short_file(rd, t, err, errlen);
	return solitaire_word_int(wd, out, err, errlen);
}

/* The first two numbers: the board's size. */
static int
solitaire_read_size(struct solitaire_reader *rd, struct solitaire_state *t,
    char *err, size_t errlen)
{
	struct solitaire_word wd;
	int rows, cols;

	if (solitaire_next_word(rd, &wd) != 0) {
		rules_seterr(err, errlen,
		    "the board file is empty: expected the size as 'rows "
		    "cols' first");
		return -1;
	}
	if (solitaire_word_int(&wd, &rows, err, errlen) != 0)
		return -1;
	if (solitaire_next_word(rd, &wd) != 0) {
		rules_seterr(err, errlen,
		    "the file ends after 1 number: expected the size as "
		    "'rows cols' first");
		return -1;
	}
	if (solitaire_word_int(&wd, &cols, err, errlen) != 0)
		return -1;
	if (rows < 1 || rows > SOLITAIRE_MAX_SIDE || cols < 1 ||
	    cols > SOLITAIRE_MAX_SIDE) {
		rules_seterr(err, errlen,
		    "line %d: board size %dx%d is out of range (1..%d)",
		    wd.line, rows, cols, SOLITAIRE_MAX_SIDE);
		return -1;
	}
	t->rows = (int8_t)rows;
	t->cols = (int8_t)cols;
	return 0;
}

/* The cells, row by row. */
static int
solitaire_read_cells(struct solitaire_reader *rd, struct solitaire_state *t,
    char *err, size_t errlen)
{
	struct solitaire_word wd;
	int i, v;

	for (i = 0; i < t->rows * t->cols; i++) {
		if (solitaire_read_int(rd, t, &wd, &v, err, errlen) != 0)
			return -1;
		if (v < SOLITAIRE_OFF || v > SOLITAIRE_PEG) {
			rules_seterr(err, errlen,
			    "line %d: cell (%d, %d) is %d, not 0, 1 or 2",
			    wd.line, i / t->cols, i % t->cols, v);
			return -1;
		}
		t->cell[i] = (uint8_t)v;
	}
	return 0;
}

/* The goal's row and column, and nothing after them. */
static int
solitaire_read_goal(struct solitaire_reader *rd, struct solitaire_state *t,
    char *err, size_t errlen)
{
	struct solitaire_word wd, more;
	char shown[SOLITAIRE_SHOW_MAX + 4];
	int gr, gc;

	if (solitaire_read_int(rd, t, &wd, &gr, err, errlen) != 0 ||
	    solitaire_read_int(rd, t, &wd, &gc, err, errlen) != 0)
		return -1;
	if (gr < 0 || gr >= t->rows || gc < 0 || gc >= t->cols) {
		rules_seterr(err, errlen,
		    "line %d: goal (%d, %d) is outside the %dx%d board",
		    wd.line, gr, gc, t->rows, t->cols);
		return -1;
	}
	t->goal = (int16_t)(gr * t->cols + gc);
	if (t->cell[t->goal] == SOLITAIRE_OFF) {
		rules_seterr(err, errlen,
		    "line %d: goal cell (%d, %d) is not usable", wd.line, gr,
		    gc);
		return -1;
	}
	if (solitaire_next_word(rd, &wd) != 0)
		return 0;
	solitaire_show(shown, sizeof shown, wd.w, wd.len);
	while (solitaire_next_word(rd, &more) == 0)
		;
	rules_seterr(err, errlen,
	    "line %d: unexpected '%s' after the goal: a %dx%d board is %d "
	    "numbers, the file has %d",
	    wd.line, shown, t->rows, t->cols, solitaire_file_numbers(t),
	    rd->count);
	return -1;
}

static int
solitaire_import_file(
    void *st, const char *text, size_t len, char *err, size_t errlen)
{
	struct solitaire_reader rd;
	struct solitaire_state t;

	memset(&t, 0, sizeof t);
	rd.p = text;
	rd.end = text + len;
	rd.line = 1;
	rd.count = 0;
	if (solitaire_read_size(&rd, &t, err, errlen) != 0 ||
	    solitaire_read_cells(&rd, &t, err, errlen) != 0 ||
	    solitaire_read_goal(&rd, &t, err, errlen) != 0)
		return -1;
	solitaire_count(&t);
	memcpy(st, &t, sizeof t);
	return 0;
}

/* A line of the board file with two numbers: "7 7\n". */
static void
solitaire_out_pair(struct rules_out *b, int x, int y)
{
	rules_out_int(b, x, 0);
	rules_out_char(b, ' ');
	rules_out_int(b, y, 0);
	rules_out_char(b, '\n');
}

static int
solitaire_export_file(const void *st, char *buf, size_t len)
{
	const struct solitaire_state *s = st;
	struct rules_out b;
	int r, c;

	rules_out_init(&b, buf, len);
	solitaire_out_pair(&b, s->rows, s->cols);
	for (r = 0; r < s->rows; r++)
		for (c = 0; c < s->cols; c++) {
			rules_out_int(&b, s->cell[r * s->cols + c], 0);
			rules_out_char(&b, c + 1 < s->cols ? ' ' : '\n');
		}
	solitaire_out_pair(&b, s->goal / s->cols, s->goal % s->cols);
	return rules_out_done(&b);
}

/*
 * Pictures.
 */

/* The seed's console picture without colours: row numbers on the left,
 * column numbers on top, ' o ' peg, ' . ' empty hole, ' # ' no hole, and
 * the goal in brackets. */
static int
solitaire_render(const void *st, char *buf, size_t len)
{
	static const char *const cells[3] = {" #", " .", " o"};
	static const char *const goals[3] = {"[#", "[.", "[o"};
	const struct solitaire_state *s = st;
	struct rules_out b;
	int r, c, i;

	rules_out_init(&b, buf, len);
	rules_out_str(&b, "  ");
	for (c = 0; c < s->cols; c++) {
		rules_out_int(&b, c + 1, 2);
		rules_out_char(&b, c + 1 < s->cols ? ' ' : '\n');
	}
	for (r = 0; r < s->rows; r++) {
		rules_out_int(&b, r + 1, 2);
		for (c = 0; c < s->cols; c++) {
			i = r * s->cols + c;
			rules_out_str(&b,
			    i == s->goal ? goals[s->cell[i]]
			                 : cells[s->cell[i]]);
			/* A cell's third character; none at a row's end. */
			if (i == s->goal)
				rules_out_char(&b, ']');
			else if (c + 1 < s->cols)
				rules_out_char(&b, ' ');
		}
		rules_out_char(&b, '\n');
	}
	rules_out_add(&b,
	    "o peg, . empty hole, # no hole, [ ] the goal; %d peg%s left\n",
	    s->pegs, s->pegs == 1 ? "" : "s");
	return rules_out_done(&b);
}

/* One character a cell: '#' unusable, '.' empty, 'o' peg, 'G' the empty
 * goal, '@' a peg on the goal. */
static int
solitaire_board_rows(const void *st, char *buf, size_t len)
{
	const struct solitaire_state *s = st;
	struct rules_out b;
	int r, c, i;

	rules_out_init(&b, buf, len);
	for (r = 0; r < s->rows; r++) {
		for (c = 0; c < s->cols; c++) {
			i = r * s->cols + c;
			if (i == s->goal)
				rules_out_char(&b,
				    s->cell[i] == SOLITAIRE_PEG ? '@' : 'G');
			else
				rules_out_char(
				    &b, solitaire_pos_chars[s->cell[i]]);
		}
		rules_out_char(&b, '\n');
	}
	return rules_out_done(&b);
}

/* A hash of the peg set (and the board's size, which gives it meaning). */
static uint64_t
solitaire_hash(const void *st)
{
	const struct solitaire_state *s = st;
	uint64_t w[2] = {0, 0};
	int i;

	for (i = 0; i < s->rows * s->cols; i++)
		if (s->cell[i] == SOLITAIRE_PEG)
			w[i >> 6] |= (uint64_t)1 << (i & 63);
	return rules_mix64(w[0] ^
	    rules_mix64(
	        w[1] ^ ((uint64_t)(uint8_t)s->rows << 8 | (uint8_t)s->cols)));
}

/*
 * The generator: the seed's backward walk from the goal.
 */

/* May the peg at (r, c) be undone in direction d: the next two cells that
 * way are on the board and hold no peg? */
static int
solitaire_can_unjump(const struct solitaire_state *s, int r, int c, int d)
{
	int r1 = r + solitaire_dr[d], c1 = c + solitaire_dc[d];
	int r2 = r + 2 * solitaire_dr[d], c2 = c + 2 * solitaire_dc[d];

	return solitaire_inside(s, r2, c2) &&
	    solitaire_at(s, r1, c1) != SOLITAIRE_PEG &&
	    solitaire_at(s, r2, c2) != SOLITAIRE_PEG;
}

/* The cells whose peg could be undone (or, on the empty board, that have
 * room for it); their count. */
static int
solitaire_undoable(const struct solitaire_state *s, int *cells, int any)
{
	int i, d, n = 0;

	for (i = 0; i < s->rows * s->cols; i++) {
		if (!any && s->cell[i] != SOLITAIRE_PEG)
			continue;
		for (d = 0; d < SOL_NDIRS; d++) {
			if (solitaire_can_unjump(
			        s, i / s->cols, i % s->cols, d)) {
				cells[n++] = i;
				break;
			}
		}
	}
	return n;
}

/*
 * Start from unusable cells and one peg on a random goal (a cell with room
 * for a backward jump), then undo up to `steps` jumps: each time a random
 * peg among those that can be undone and a random direction where the next
 * two cells hold no peg; the peg goes, two pegs come, and their cells
 * become usable. It stops early only when no peg can be undone at all.
 */
static void
solitaire_generate(
    struct solitaire_state *s, int rows, int cols, int steps, uint64_t seed)
{
	struct rules_rng rng;
	int cells[SOLITAIRE_MAX_CELLS], dirs[SOL_NDIRS];
	int n, nd, i, d, r, c, step;

	memset(s, 0, sizeof *s);
	s->rows = (int8_t)rows;
	s->cols = (int8_t)cols;
	rules_rng_seed(&rng, seed);
	n = solitaire_undoable(s, cells, 1);
	s->goal =
	    (int16_t)(n > 0 ? cells[rules_rng_below(&rng, (unsigned)n)] : 0);
	s->cell[s->goal] = SOLITAIRE_PEG;
	s->pegs = 1;
	for (step = 0; step < steps; step++) {
		n = solitaire_undoable(s, cells, 0);
		if (n == 0)
			break;
		i = cells[rules_rng_below(&rng, (unsigned)n)];
		r = i / cols;
		c = i % cols;
		nd = 0;
		for (d = 0; d < SOL_NDIRS; d++)
			if (solitaire_can_unjump(s, r, c, d))
				dirs[nd++] = d;
		d = dirs[rules_rng_below(&rng, (unsigned)nd)];
		s->cell[i] = SOLITAIRE_EMPTY;
		s->cell[(r + solitaire_dr[d]) * cols + c + solitaire_dc[d]] =
		    SOLITAIRE_PEG;
		s->cell[(r + 2 * solitaire_dr[d]) * cols + c +
		    2 * solitaire_dc[d]] = SOLITAIRE_PEG;
		s->pegs++;
	}
}

static int
solitaire_init(
    void *st, const struct rules_opt *opts, int nopts, char *err, size_t errlen)
{
	const struct rules_game *g = &rules_solitaire;
	const char *file = rules_opt_get(g, opts, nopts, "file");
	const char *steps = rules_opt_get(g, opts, nopts, "steps");
	const char *board = rules_opt_get(g, opts, nopts, "board");
	const char *text;
	char name[64];
	size_t len;

	if (file != NULL && steps != NULL) {
		rules_seterr(err, errlen, "give only one of file and steps");
		return -1;
	}
	if (file != NULL)
		return solitaire_import_file(
		    st, file, strlen(file), err, errlen);
	if (steps != NULL) {
		solitaire_generate(st,
		    (int)rules_opt_long(g, opts, nopts, "rows"),
		    (int)rules_opt_long(g, opts, nopts, "cols"),
		    (int)rules_opt_long(g, opts, nopts, "steps"),
		    rules_opt_get(g, opts, nopts, "seed") != NULL
		        ? (uint64_t)rules_opt_long(g, opts, nopts, "seed")
		        : 1);
		return 0;
	}
	snprintf(name, sizeof name, "solitaire/%s.txt", board);
	text = rules_data(name, &len);
	if (text == NULL) {
		rules_seterr(
		    err, errlen, "the built-in board '%s' is missing", board);
		return -1;
	}
	return solitaire_import_file(st, text, len, err, errlen);
}

const struct rules_game rules_solitaire = {
    .name = "solitaire",
    .title = "Peg solitaire",
    .seats = 1,
    .seat_names = {"player", NULL},
    .options = solitaire_options,
    .notation = "R,C DIR: the peg's row and column from 1 (row 1 at the "
                "top) and up, down, left or right (u, d, l, r); R,C alone "
                "when that peg has one jump",
    .file_format = "board file",
    .state_size = sizeof(struct solitaire_state),
    .init = solitaire_init,
    .turn = solitaire_turn,
    .status = solitaire_status,
    .legal_moves = solitaire_legal_moves,
    .legal_from = solitaire_legal_from,
    .parse_square = solitaire_parse_square,
    .parse_move = solitaire_parse_move,
    .format_move = solitaire_format_move,
    .describe_move = solitaire_describe_move,
    .apply = solitaire_apply,
    .to_position = solitaire_to_position,
    .from_position = solitaire_from_position,
    .import_file = solitaire_import_file,
    .export_file = solitaire_export_file,
    .render = solitaire_render,
    .board_rows = solitaire_board_rows,
    .hash = solitaire_hash,
    .perft = NULL,
};
