/*
 * ataxx.c: the rules of Ataxx (Infection, "Infectlog" in the seed) on square
 * boards of 5x5 to 9x9: move generation, notation, the libataxx FEN, the
 * ASCII board and a fast bitboard perft.
 *
 * Squares are bits of a 9-wide grid (bit = row * 9 + column, row 0 at the
 * top) whatever the board size, so one table of neighbour and jump masks
 * serves every size; bits outside the board are never set in a position.
 * Square numbers on the interface are dense instead: row * size + column,
 * row 0 at the top, the order of board_rows().
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ataxx.h"
#include "games.h"

#define ATAXX_MIN_SIZE 5
#define ATAXX_MAX_SIZE 9

/* The halfmove clock and fullmove number stay at or below this, both when
 * read from a position and when counted up by moves, so every number
 * to_position() writes is one from_position() reads back. */
#define ATAXX_COUNTER_MAX 999999999u

/* The longest position string read: a 9x9 board is at most 89 characters,
 * the rest of the fields fewer than 25; anything longer is not a FEN. */
#define ATAXX_FEN_MAX 160

/* The longest move text read: a jump is 4 characters; anything much longer
 * is not a move, and the cap keeps error messages short. */
#define ATAXX_MOVE_MAX 16

/* Room for a square's name, "b6", with its NUL. */
#define ATAXX_NAME_LEN 3

/* White (seat 0) is 'x' in the FEN, black (seat 1) is 'o'. */
#define ATAXX_WHITE 0
#define ATAXX_BLACK 1

/* One bit of the grid, or 0 off the 9x9 grid. */
#define ATAXX_BIT(r, c)                                                        \
	((r) >= 0 && (r) < ATAXX_STRIDE && (c) >= 0 && (c) < ATAXX_STRIDE      \
	        ? (ataxx_bb)1 << ((unsigned)((r)*ATAXX_STRIDE + (c)) & 127u)   \
	        : (ataxx_bb)0)
#define ATAXX_R(s) ((s) / ATAXX_STRIDE)
#define ATAXX_C(s) ((s) % ATAXX_STRIDE)
#define ATAXX_AT(s, dr, dc) ATAXX_BIT(ATAXX_R(s) + (dr), ATAXX_C(s) + (dc))

/* The 8 squares at distance 1 of square s. */
#define ATAXX_ADJ(s)                                                           \
	(ATAXX_AT(s, -1, -1) | ATAXX_AT(s, -1, 0) | ATAXX_AT(s, -1, 1) |       \
	    ATAXX_AT(s, 0, -1) | ATAXX_AT(s, 0, 1) | ATAXX_AT(s, 1, -1) |      \
	    ATAXX_AT(s, 1, 0) | ATAXX_AT(s, 1, 1))

/* The 16 squares at distance 2 of square s (Chebyshev distance). */
#define ATAXX_JUMP(s)                                                          \
	(ATAXX_AT(s, -2, -2) | ATAXX_AT(s, -2, -1) | ATAXX_AT(s, -2, 0) |      \
	    ATAXX_AT(s, -2, 1) | ATAXX_AT(s, -2, 2) | ATAXX_AT(s, 2, -2) |     \
	    ATAXX_AT(s, 2, -1) | ATAXX_AT(s, 2, 0) | ATAXX_AT(s, 2, 1) |       \
	    ATAXX_AT(s, 2, 2) | ATAXX_AT(s, -1, -2) | ATAXX_AT(s, 0, -2) |     \
	    ATAXX_AT(s, 1, -2) | ATAXX_AT(s, -1, 2) | ATAXX_AT(s, 0, 2) |      \
	    ATAXX_AT(s, 1, 2))

/* M applied to the 9 squares of grid row r, then to all 81 squares. */
#define ATAXX_ROW(M, r)                                                        \
	M((r)*9 + 0), M((r)*9 + 1), M((r)*9 + 2), M((r)*9 + 3), M((r)*9 + 4),  \
	    M((r)*9 + 5), M((r)*9 + 6), M((r)*9 + 7), M((r)*9 + 8)
#define ATAXX_TABLE(M)                                                         \
	{                                                                      \
		ATAXX_ROW(M, 0), ATAXX_ROW(M, 1), ATAXX_ROW(M, 2),             \
		    ATAXX_ROW(M, 3), ATAXX_ROW(M, 4), ATAXX_ROW(M, 5),         \
		    ATAXX_ROW(M, 6), ATAXX_ROW(M, 7), ATAXX_ROW(M, 8)          \
	}

/* Neighbour and jump masks of every square, built by the compiler. */
const ataxx_bb ataxx_adj[ATAXX_CELLS] = ATAXX_TABLE(ATAXX_ADJ);
const ataxx_bb ataxx_jump[ATAXX_CELLS] = ATAXX_TABLE(ATAXX_JUMP);

static const struct rules_optdesc ataxx_options[] = {
    {"size", RULES_OPT_INT, ATAXX_MIN_SIZE, ATAXX_MAX_SIZE, NULL, "7",
        "board side, from 5x5 to 9x9"},
    {"position", RULES_OPT_TEXT, 0, ATAXX_FEN_MAX, NULL, NULL,
        "start from this position string; its board sets the size"},
    {NULL, RULES_OPT_INT, 0, 0, NULL, NULL, NULL},
};

static inline void
ataxx_put(uint64_t w[2], ataxx_bb b)
{
	w[0] = (uint64_t)b;
	w[1] = (uint64_t)(b >> 64);
}

static ataxx_bb
ataxx_empty(const struct ataxx_state *s)
{
	return ataxx_board(s->size) &
	    ~(ataxx_get(s->piece[0]) | ataxx_get(s->piece[1]) |
	        ataxx_get(s->gap));
}

/* Why the game is over (static text), or NULL while it goes on. */
static const char *
ataxx_end_reason(const struct ataxx_state *s)
{
	ataxx_bb x = ataxx_get(s->piece[ATAXX_WHITE]);
	ataxx_bb o = ataxx_get(s->piece[ATAXX_BLACK]);
	ataxx_bb empty = ataxx_empty(s);

	if (x == 0 || o == 0)
		return "no pieces left";
	if (empty == 0)
		return "board full";
	if (!ataxx_mobile(x | o, empty))
		return "neither side can move";
	return NULL;
}

/* Grid bit of an interface square number, or -1 off the board. */
static int
ataxx_to_bit(const struct ataxx_state *s, int square)
{
	int n = s->size;

	if (square < 0 || square >= n * n)
		return -1;
	return square / n * ATAXX_STRIDE + square % n;
}

static int
ataxx_from_bit(const struct ataxx_state *s, int bit)
{
	return ATAXX_R(bit) * s->size + ATAXX_C(bit);
}

/* A grid bit's name, "b6": column letter, then rank counted from the
 * bottom (one digit, as boards are at most 9x9). */
static void
ataxx_name(const struct ataxx_state *s, int bit, char name[ATAXX_NAME_LEN])
{
	name[0] = (char)('a' + ATAXX_C(bit));
	name[1] = (char)('0' + s->size - ATAXX_R(bit));
	name[2] = '\0';
}

static int ataxx_from_position(
    void *st, const char *text, char *err, size_t errlen);

/* Was the option key given (rather than left to its default)? */
static int
ataxx_opt_given(const struct rules_opt *opts, int nopts, const char *key)
{
	int i;

	for (i = 0; i < nopts; i++)
		if (strcmp(opts[i].key, key) == 0)
			return 1;
	return 0;
}

/* Start from the `position` option: the size comes from its board, and a
 * `size` given beside it must agree. 0, or -1 with the reason. */
static int
ataxx_init_position(struct ataxx_state *s, const struct rules_opt *opts,
    int nopts, char *err, size_t errlen)
{
	const char *pos = rules_opt_get(&rules_ataxx, opts, nopts, "position");
	long size = rules_opt_long(&rules_ataxx, opts, nopts, "size");
	char why[RULES_ERR_MAX];

	if (ataxx_from_position(s, pos, why, sizeof why) != 0) {
		rules_seterr(err, errlen, "option 'position': %s", why);
		return -1;
	}
	if (ataxx_opt_given(opts, nopts, "size") && size != s->size) {
		rules_seterr(err, errlen,
		    "option 'size' is %ld but the position is %dx%d: give "
		    "size=%d or leave size out",
		    size, s->size, s->size, s->size);
		return -1;
	}
	return 0;
}

static int
ataxx_init(
    void *st, const struct rules_opt *opts, int nopts, char *err, size_t errlen)
{
	struct ataxx_state *s = st;
	int n = (int)rules_opt_long(&rules_ataxx, opts, nopts, "size");
	int last = n - 1;

	if (n < ATAXX_MIN_SIZE || n > ATAXX_MAX_SIZE) {
		rules_seterr(err, errlen, "size must be from %d to %d",
		    ATAXX_MIN_SIZE, ATAXX_MAX_SIZE);
		return -1;
	}
	memset(s, 0, sizeof *s);
	s->size = (uint8_t)n;
	s->fullmove = 1;
	ataxx_put(
	    s->piece[ATAXX_WHITE], ATAXX_BIT(0, 0) | ATAXX_BIT(last, last));
	ataxx_put(
	    s->piece[ATAXX_BLACK], ATAXX_BIT(0, last) | ATAXX_BIT(last, 0));
	if (ataxx_opt_given(opts, nopts, "position"))
		return ataxx_init_position(s, opts, nopts, err, errlen);
	return 0;
}

static int
ataxx_turn(const void *st)
{
	const struct ataxx_state *s = st;

	return s->turn;
}

static void
ataxx_status(const void *st, struct rules_status *out)
{
	const struct ataxx_state *s = st;
	const char *why = ataxx_end_reason(s);
	int x = ataxx_pop(ataxx_get(s->piece[ATAXX_WHITE]));
	int o = ataxx_pop(ataxx_get(s->piece[ATAXX_BLACK]));

	out->nscores = 2;
	out->score[ATAXX_WHITE] = x;
	out->score[ATAXX_BLACK] = o;
	out->winner = RULES_NONE;
	if (why == NULL) {
		out->result = RULES_PLAYING;
		out->reason = "";
		return;
	}
	out->reason = why;
	if (x == o) {
		out->result = RULES_DRAW;
		return;
	}
	out->result = RULES_WIN;
	out->winner = x > o ? ATAXX_WHITE : ATAXX_BLACK;
}

/* Append a move if there is room; the new count. */
static int
ataxx_push(struct rules_move *out, int n, int max, int from, int to)
{
	if (n < max) {
		out[n].from = (int16_t)from;
		out[n].to = (int16_t)to;
		out[n].arg = RULES_NONE;
	}
	return n + 1;
}

/* The clones onto `dests` and the jumps from `sources`, in interface
 * numbers; the count of moves there are (only max are written). */
static int
ataxx_collect(const struct ataxx_state *s, ataxx_bb dests, ataxx_bb sources,
    struct rules_move *out, int max)
{
	ataxx_bb empty = ataxx_empty(s);
	ataxx_bb own = ataxx_get(s->piece[s->turn]);
	ataxx_bb reach = 0, b, t;
	int n = 0;

	for (b = own; b != 0; b &= b - 1)
		reach |= ataxx_adj[ataxx_lsb(b)];
	for (b = reach & empty & dests; b != 0; b &= b - 1)
		n = ataxx_push(
		    out, n, max, RULES_NONE, ataxx_from_bit(s, ataxx_lsb(b)));
	for (b = own & sources; b != 0; b &= b - 1) {
		int from = ataxx_lsb(b);

		for (t = ataxx_jump[from] & empty; t != 0; t &= t - 1)
			n = ataxx_push(out, n, max, ataxx_from_bit(s, from),
			    ataxx_from_bit(s, ataxx_lsb(t)));
	}
	return n;
}

static int
ataxx_legal_moves(const void *st, struct rules_move *out, int max)
{
	const struct ataxx_state *s = st;
	ataxx_bb all = ataxx_board(s->size);
	int n;

	if (ataxx_end_reason(s) != NULL)
		return 0;
	n = ataxx_collect(s, all, all, out, max);
	if (n == 0)
		n = ataxx_push(out, 0, max, RULES_NONE, RULES_NONE);
	return n < max ? n : max;
}

/* On an own piece: the clones around it and its jumps; on an empty
 * square: the clone onto it. */
static int
ataxx_legal_from(const void *st, int square, struct rules_move *out, int max)
{
	const struct ataxx_state *s = st;
	int bit = ataxx_to_bit(s, square), n;
	ataxx_bb b;

	if (bit < 0 || ataxx_end_reason(s) != NULL)
		return 0;
	b = (ataxx_bb)1 << bit;
	if (b & ataxx_get(s->piece[s->turn]))
		n = ataxx_collect(s, ataxx_adj[bit], b, out, max);
	else
		n = ataxx_collect(s, b, 0, out, max);
	return n < max ? n : max;
}

/* Copy move text for an error message: printable ASCII only, short. */
static void
ataxx_quote(const char *text, char *buf, size_t len)
{
	size_t i;

	for (i = 0; text[i] != '\0' && i + 1 < len; i++) {
		unsigned char c = (unsigned char)text[i];

		buf[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	buf[i] = '\0';
}

/*
 * Read one square name at *p ("b6", "B6"): 1 and the grid bit when it is a
 * square of this board, 0 when there is no letter-then-digits name there,
 * -1 (reason set) when the name is off the board.
 */
static int
ataxx_read_square(const struct ataxx_state *s, const char **p, int *bit,
    char *err, size_t errlen)
{
	const char *q = *p;
	int col, rank = 0, digits = 0;

	if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z')))
		return 0;
	col = (*q | 0x20) - 'a';
	for (q++; *q >= '0' && *q <= '9'; q++, digits++)
		if (digits < 3)
			rank = rank * 10 + (*q - '0');
	if (digits == 0)
		return 0;
	if (col >= s->size || rank < 1 || rank > s->size || digits > 2) {
		rules_seterr(err, errlen,
		    "%c%.*s is not a square of this board (a1 to %c%d)",
		    'a' + col, digits, *p + 1, 'a' + s->size - 1, s->size);
		return -1;
	}
	*bit = (s->size - rank) * ATAXX_STRIDE + col;
	*p = q;
	return 1;
}

static int
ataxx_parse_square(
    const void *st, const char *text, int *square, char *err, size_t errlen)
{
	const struct ataxx_state *s = st;
	char quoted[ATAXX_MOVE_MAX + 1];
	const char *p = text;
	int bit, r;

	r = strlen(text) <= ATAXX_MOVE_MAX
	    ? ataxx_read_square(s, &p, &bit, err, errlen)
	    : 0;
	if (r < 0)
		return -1;
	if (r == 0 || *p != '\0') {
		ataxx_quote(text, quoted, sizeof quoted);
		rules_seterr(
		    err, errlen, "expected a square like b6, not '%s'", quoted);
		return -1;
	}
	*square = ataxx_from_bit(s, bit);
	return 0;
}

/* Chebyshev distance between two grid bits. */
static int
ataxx_distance(int a, int b)
{
	int dr = ATAXX_R(a) - ATAXX_R(b), dc = ATAXX_C(a) - ATAXX_C(b);

	dr = dr < 0 ? -dr : dr;
	dc = dc < 0 ? -dc : dc;
	return dr > dc ? dr : dc;
}

/* Is the destination of a move free? Else the reason. */
static int
ataxx_check_dest(const struct ataxx_state *s, int to, char *err, size_t errlen)
{
	ataxx_bb b = (ataxx_bb)1 << to;
	char name[ATAXX_NAME_LEN];

	ataxx_name(s, to, name);
	if (b & ataxx_get(s->gap)) {
		rules_seterr(
		    err, errlen, "%s is a gap, no piece can go there", name);
		return -1;
	}
	if (b & (ataxx_get(s->piece[0]) | ataxx_get(s->piece[1]))) {
		rules_seterr(err, errlen, "destination %s is occupied by %s",
		    name,
		    rules_ataxx
		        .seat_names[(b & ataxx_get(s->piece[0])) ? 0 : 1]);
		return -1;
	}
	return 0;
}

/* A clone onto `to`: legal, or -1 and the reason. */
static int
ataxx_check_clone(const struct ataxx_state *s, int to, char *err, size_t errlen)
{
	char name[ATAXX_NAME_LEN];

	if (ataxx_check_dest(s, to, err, errlen) != 0)
		return -1;
	if ((ataxx_adj[to] & ataxx_get(s->piece[s->turn])) == 0) {
		ataxx_name(s, to, name);
		rules_seterr(
		    err, errlen, "no piece of yours adjacent to %s", name);
		return -1;
	}
	return 0;
}

/* A move written with a source: a jump, or (source next to destination)
 * the clone onto the destination. */
static int
ataxx_check_pair(
    const struct ataxx_state *s, int from, int to, char *err, size_t errlen)
{
	char a[ATAXX_NAME_LEN], b[ATAXX_NAME_LEN];
	int d = ataxx_distance(from, to);

	ataxx_name(s, from, a);
	ataxx_name(s, to, b);
	if ((((ataxx_bb)1 << from) & ataxx_get(s->piece[s->turn])) == 0) {
		rules_seterr(err, errlen, "no piece of yours on %s", a);
		return -1;
	}
	if (d != 1 && d != 2) {
		rules_seterr(err, errlen,
		    "%s to %s is not a jump (distance must be 2)", a, b);
		return -1;
	}
	return ataxx_check_dest(s, to, err, errlen);
}

static int
ataxx_parse_move(const void *st, const char *text, struct rules_move *out,
    char *err, size_t errlen)
{
	const struct ataxx_state *s = st;
	char quoted[ATAXX_MOVE_MAX + 1];
	const char *p = text;
	struct rules_move m = {RULES_NONE, RULES_NONE, RULES_NONE};
	int from = -1, to = -1, r;

	if (ataxx_end_reason(s) != NULL) {
		rules_seterr(err, errlen, "the game is over");
		return -1;
	}
	if (strcmp(text, "0000") == 0) {
		if (ataxx_collect(s, ~(ataxx_bb)0, ~(ataxx_bb)0, NULL, 0) !=
		    0) {
			rules_seterr(err, errlen,
			    "you have legal moves, you cannot pass");
			return -1;
		}
		*out = m;
		return 0;
	}
	r = 0;
	if (strlen(text) <= ATAXX_MOVE_MAX) {
		r = ataxx_read_square(s, &p, &to, err, errlen);
		if (r == 1 && *p != '\0') {
			from = to;
			r = ataxx_read_square(s, &p, &to, err, errlen);
		}
	}
	if (r < 0)
		return -1;
	if (r == 0 || *p != '\0') {
		ataxx_quote(text, quoted, sizeof quoted);
		rules_seterr(err, errlen,
		    "cannot read '%s%s' as a move: write a clone as b6, "
		    "a jump as a7c5, a pass as 0000",
		    quoted, strlen(text) > ATAXX_MOVE_MAX ? "..." : "");
		return -1;
	}
	if (from >= 0 && ataxx_check_pair(s, from, to, err, errlen) != 0)
		return -1;
	if (from >= 0 && ataxx_distance(from, to) == 2)
		m.from = (int16_t)ataxx_from_bit(s, from);
	else if (ataxx_check_clone(s, to, err, errlen) != 0)
		return -1;
	m.to = (int16_t)ataxx_from_bit(s, to);
	*out = m;
	return 0;
}

static void
ataxx_format_move(const void *st, struct rules_move m, char *buf, size_t len)
{
	const struct ataxx_state *s = st;
	int from = ataxx_to_bit(s, m.from), to = ataxx_to_bit(s, m.to);
	char a[ATAXX_NAME_LEN], b[ATAXX_NAME_LEN];

	if (to < 0) {
		snprintf(buf, len, "0000");
		return;
	}
	ataxx_name(s, to, b);
	if (from < 0) {
		snprintf(buf, len, "%s", b);
		return;
	}
	ataxx_name(s, from, a);
	snprintf(buf, len, "%s%s", a, b);
}

/* The move in the seed's words ("Jugador negro clona en 4,3": "Black
 * player clones at b6"; "Jugador blanco mueve de 4,2 a 4,4": "White
 * player moves from a7 to c5"), which clients show as they are. */
static void
ataxx_describe_move(const void *st, struct rules_move m, char *buf, size_t len)
{
	const struct ataxx_state *s = st;
	int white = s->turn == ATAXX_WHITE;
	int from = ataxx_to_bit(s, m.from), to = ataxx_to_bit(s, m.to);
	char a[ATAXX_NAME_LEN], b[ATAXX_NAME_LEN];

	/* one format a side, so that each sentence is whole (rules_say) */
	if (to < 0) {
		if (white)
			rules_say(
			    buf, len, "White player has no move and passes");
		else
			rules_say(
			    buf, len, "Black player has no move and passes");
		return;
	}
	ataxx_name(s, to, b);
	if (from < 0) {
		if (white)
			rules_say(buf, len, "White player clones at %s", b);
		else
			rules_say(buf, len, "Black player clones at %s", b);
		return;
	}
	ataxx_name(s, from, a);
	if (white)
		rules_say(buf, len, "White player moves from %s to %s", a, b);
	else
		rules_say(buf, len, "Black player moves from %s to %s", a, b);
}

/* Count a clock up, stopping at the limit. */
static uint32_t
ataxx_tick(uint32_t v)
{
	return v < ATAXX_COUNTER_MAX ? v + 1 : v;
}

static void
ataxx_apply(void *st, struct rules_move m)
{
	struct ataxx_state *s = st;
	int from = ataxx_to_bit(s, m.from), to = ataxx_to_bit(s, m.to);
	int me = s->turn, them = !s->turn;
	ataxx_bb own = ataxx_get(s->piece[me]);
	ataxx_bb opp = ataxx_get(s->piece[them]);
	ataxx_bb cap;

	s->halfmove = ataxx_tick(s->halfmove);
	if (me == ATAXX_BLACK)
		s->fullmove = ataxx_tick(s->fullmove);
	s->turn = (uint8_t)them;
	if (to < 0)
		return;
	if (from >= 0)
		own &= ~((ataxx_bb)1 << from);
	else
		s->halfmove = 0;
	cap = ataxx_adj[to] & opp;
	ataxx_put(s->piece[me], own | cap | (ataxx_bb)1 << to);
	ataxx_put(s->piece[them], opp & ~cap);
}

/* The character of one grid bit: x, o, - (gap) or the given empty mark. */
static char
ataxx_cell(const struct ataxx_state *s, int bit, char empty)
{
	ataxx_bb b = (ataxx_bb)1 << bit;

	if (b & ataxx_get(s->piece[ATAXX_WHITE]))
		return 'x';
	if (b & ataxx_get(s->piece[ATAXX_BLACK]))
		return 'o';
	if (b & ataxx_get(s->gap))
		return '-';
	return empty;
}

static int
ataxx_to_position(const void *st, char *buf, size_t len)
{
	const struct ataxx_state *s = st;
	struct rules_out o = {buf, len, 0, 0};
	int r, c, run;

	for (r = 0; r < s->size; r++) {
		run = 0;
		for (c = 0; c < s->size; c++) {
			char ch = ataxx_cell(s, r * ATAXX_STRIDE + c, 0);

			if (ch == 0) {
				run++;
				continue;
			}
			if (run > 0)
				rules_out_int(&o, run, 0);
			run = 0;
			rules_out_char(&o, ch);
		}
		if (run > 0)
			rules_out_int(&o, run, 0);
		if (r + 1 < s->size)
			rules_out_char(&o, '/');
	}
	rules_out_str(&o, s->turn == ATAXX_WHITE ? " x " : " o ");
	rules_out_int(&o, s->halfmove, 0);
	rules_out_char(&o, ' ');
	rules_out_int(&o, s->fullmove, 0);
	return rules_out_done(&o);
}

/* Read a counter field: decimal, no sign, no leading zero; -1 if not. */
static int
ataxx_read_counter(const char *f, size_t len, uint32_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (len == 0 || len > 9 || (f[0] == '0' && len > 1))
		return -1;
	for (i = 0; i < len; i++) {
		if (f[i] < '0' || f[i] > '9')
			return -1;
		v = v * 10 + (uint64_t)(f[i] - '0');
	}
	if (v > ATAXX_COUNTER_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/* Read one rank of n cells into the new state; -1 with the reason. */
static int
ataxx_read_rank(struct ataxx_state *s, ataxx_bb bb[3], const char *f,
    size_t len, int row, char *err, size_t errlen)
{
	int n = s->size, rank = n - row, col = 0, lastdigit = 0;
	size_t i;

	if (len == 0) {
		rules_seterr(err, errlen, "rank %d is empty", rank);
		return -1;
	}
	for (i = 0; i < len; i++) {
		char ch = f[i];
		int dig = ch >= '0' && ch <= '9';

		if (dig && (ch == '0' || lastdigit)) {
			rules_seterr(err, errlen,
			    "rank %d: write each run of empty squares as one "
			    "digit from 1 to 9",
			    rank);
			return -1;
		}
		lastdigit = dig;
		if (dig) {
			col += ch - '0';
			continue;
		}
		if (ch != 'x' && ch != 'o' && ch != '-') {
			rules_seterr(err, errlen,
			    "rank %d: unexpected character '%c' (use x, o, - "
			    "and digits)",
			    rank, ch >= 0x20 && ch < 0x7f ? ch : '?');
			return -1;
		}
		if (col < n)
			bb[ch == 'x'        ? 0
			        : ch == 'o' ? 1
			                    : 2] |= (ataxx_bb)1
			    << (row * ATAXX_STRIDE + col);
		col++;
	}
	if (col != n) {
		rules_seterr(err, errlen,
		    "rank %d has %d squares; every rank must have %d", rank,
		    col, n);
		return -1;
	}
	return 0;
}

/* Read the board field (ranks from the top, '/' between) into s. */
static int
ataxx_read_board(
    struct ataxx_state *s, const char *f, size_t len, char *err, size_t errlen)
{
	ataxx_bb bb[3] = {0, 0, 0};
	size_t i, start = 0;
	int ranks = 1, row = 0;

	for (i = 0; i < len; i++)
		ranks += f[i] == '/';
	if (ranks < ATAXX_MIN_SIZE || ranks > ATAXX_MAX_SIZE) {
		rules_seterr(err, errlen,
		    "the board has %d ranks; it must have %d to %d", ranks,
		    ATAXX_MIN_SIZE, ATAXX_MAX_SIZE);
		return -1;
	}
	s->size = (uint8_t)ranks;
	for (i = 0; i <= len; i++) {
		if (i < len && f[i] != '/')
			continue;
		if (ataxx_read_rank(
		        s, bb, f + start, i - start, row, err, errlen) != 0)
			return -1;
		row++;
		start = i + 1;
	}
	ataxx_put(s->piece[ATAXX_WHITE], bb[0]);
	ataxx_put(s->piece[ATAXX_BLACK], bb[1]);
	ataxx_put(s->gap, bb[2]);
	return 0;
}

static int
ataxx_from_position(void *st, const char *text, char *err, size_t errlen)
{
	static const char *const names[] = {
	    "board", "side to move", "halfmove clock", "fullmove number"};
	struct ataxx_state n;
	const char *field[4];
	size_t flen[4], len = strlen(text);
	int nf = 0;
	const char *p = text;

	if (len > ATAXX_FEN_MAX) {
		rules_seterr(err, errlen,
		    "position is longer than %d characters", ATAXX_FEN_MAX);
		return -1;
	}
	for (;;) {
		const char *sp = strchr(p, ' ');
		size_t l = sp != NULL ? (size_t)(sp - p) : strlen(p);

		if (nf == 4) {
			rules_seterr(err, errlen,
			    "position has more than 4 fields (board, side to "
			    "move, halfmove clock, fullmove number)");
			return -1;
		}
		field[nf] = p;
		flen[nf++] = l;
		if (l == 0) {
			rules_seterr(err, errlen,
			    "the %s is missing (fields are separated by one "
			    "space)",
			    names[nf - 1]);
			return -1;
		}
		if (sp == NULL)
			break;
		p = sp + 1;
	}
	if (nf < 4) {
		rules_seterr(err, errlen,
		    "the %s is missing: a position is board, side to move, "
		    "halfmove clock, fullmove number",
		    names[nf]);
		return -1;
	}
	memset(&n, 0, sizeof n);
	if (ataxx_read_board(&n, field[0], flen[0], err, errlen) != 0)
		return -1;
	if (flen[1] != 1 || (field[1][0] != 'x' && field[1][0] != 'o')) {
		rules_seterr(
		    err, errlen, "side to move must be x (white) or o (black)");
		return -1;
	}
	n.turn = field[1][0] == 'x' ? ATAXX_WHITE : ATAXX_BLACK;
	if (ataxx_read_counter(field[2], flen[2], &n.halfmove) != 0) {
		rules_seterr(err, errlen,
		    "halfmove clock must be a whole number from 0 to %u",
		    ATAXX_COUNTER_MAX);
		return -1;
	}
	if (ataxx_read_counter(field[3], flen[3], &n.fullmove) != 0 ||
	    n.fullmove == 0) {
		rules_seterr(err, errlen,
		    "fullmove number must be a whole number from 1 to %u",
		    ATAXX_COUNTER_MAX);
		return -1;
	}
	memcpy(st, &n, sizeof n);
	return 0;
}

/* The picture's last line: whose turn it is, or how the game ended. */
static void
ataxx_render_end(struct rules_out *o, const struct rules_status *stat, int turn)
{
	if (stat->result == RULES_PLAYING) {
		rules_out_str(o, rules_ataxx.seat_names[turn]);
		rules_out_str(o, " to move\n");
		return;
	}
	rules_out_str(o, "game over (");
	rules_out_str(o, stat->reason);
	rules_out_str(o, "): ");
	if (stat->result == RULES_DRAW)
		rules_out_str(o, "draw");
	else {
		rules_out_str(o, rules_ataxx.seat_names[stat->winner]);
		rules_out_str(o, " wins");
	}
	rules_out_char(o, '\n');
}

static int
ataxx_render(const void *st, char *buf, size_t len)
{
	const struct ataxx_state *s = st;
	struct rules_out o = {buf, len, 0, 0};
	struct rules_status stat;
	int r, c;

	ataxx_status(s, &stat);
	rules_out_str(&o, "  ");
	for (c = 0; c < s->size; c++) {
		rules_out_char(&o, ' ');
		rules_out_char(&o, (char)('a' + c));
	}
	rules_out_char(&o, '\n');
	for (r = 0; r < s->size; r++) {
		rules_out_int(&o, s->size - r, 2);
		for (c = 0; c < s->size; c++) {
			rules_out_char(&o, ' ');
			rules_out_char(
			    &o, ataxx_cell(s, r * ATAXX_STRIDE + c, '.'));
		}
		rules_out_char(&o, '\n');
	}
	rules_out_str(&o, "x white ");
	rules_out_int(&o, stat.score[0], 0);
	rules_out_str(&o, ", o black ");
	rules_out_int(&o, stat.score[1], 0);
	rules_out_str(&o,
	    ataxx_get(s->gap) != 0 ? " (. empty, - gap)\n" : " (. empty)\n");
	ataxx_render_end(&o, &stat, s->turn);
	return rules_out_done(&o);
}

static int
ataxx_board_rows(const void *st, char *buf, size_t len)
{
	const struct ataxx_state *s = st;
	struct rules_out o = {buf, len, 0, 0};
	int r, c;

	for (r = 0; r < s->size; r++) {
		for (c = 0; c < s->size; c++)
			rules_out_char(
			    &o, ataxx_cell(s, r * ATAXX_STRIDE + c, '.'));
		rules_out_char(&o, '\n');
	}
	return rules_out_done(&o);
}

/* The board, its size and the side to move; not the clocks. */
static uint64_t
ataxx_hash(const void *st)
{
	const struct ataxx_state *s = st;
	uint64_t h = rules_mix64(((uint64_t)s->size << 1 | s->turn) + 1);

	h = rules_mix64(h ^ s->piece[0][0]);
	h = rules_mix64(h ^ s->piece[0][1]);
	h = rules_mix64(h ^ s->piece[1][0]);
	h = rules_mix64(h ^ s->piece[1][1]);
	h = rules_mix64(h ^ s->gap[0]);
	return rules_mix64(h ^ s->gap[1]);
}

/* The walk for any board, on 128-bit bitboards. */
#define WALK_BB ataxx_bb
#define WALK_POP ataxx_pop
#define WALK_LSB ataxx_lsb
#define WALK_COUNT ataxx_count
#define WALK_NAME ataxx_walk
#include "ataxx_walk.h"
#undef WALK_BB
#undef WALK_POP
#undef WALK_LSB
#undef WALK_COUNT
#undef WALK_NAME

/* The walk for boards up to 7x7, on one 64-bit word. */
#define ATAXX_WALK64_SIZE 7
_Static_assert((ATAXX_WALK64_SIZE - 1) * (ATAXX_STRIDE + 1) < 64,
    "a 7x7 board's squares are bits of one word");
#define WALK_BB uint64_t
#define WALK_POP __builtin_popcountll
#define WALK_LSB __builtin_ctzll
#define WALK_COUNT ataxx_count64
#define WALK_NAME ataxx_walk64
#include "ataxx_walk.h"
#undef WALK_BB
#undef WALK_POP
#undef WALK_LSB
#undef WALK_COUNT
#undef WALK_NAME

static uint64_t
ataxx_perft(const void *st, int depth)
{
	const struct ataxx_state *s = st;

	if (depth <= 0)
		return 1;
	if (s->size <= ATAXX_WALK64_SIZE)
		return ataxx_walk64((uint64_t)ataxx_get(s->piece[s->turn]),
		    (uint64_t)ataxx_get(s->piece[!s->turn]),
		    (uint64_t)ataxx_empty(s), depth);
	return ataxx_walk(ataxx_get(s->piece[s->turn]),
	    ataxx_get(s->piece[!s->turn]), ataxx_empty(s), depth);
}

const struct rules_game rules_ataxx = {
    .name = "ataxx",
    .title = "Ataxx",
    .seats = 2,
    .seat_names = {"white", "black"},
    .rating_pools = "size",
    .options = ataxx_options,
    .notation = "clone: destination (b6); jump: source and destination "
                "(a7c5); pass: 0000",
    .file_format = NULL,
    .state_size = sizeof(struct ataxx_state),
    .init = ataxx_init,
    .turn = ataxx_turn,
    .status = ataxx_status,
    .legal_moves = ataxx_legal_moves,
    .legal_from = ataxx_legal_from,
    .parse_square = ataxx_parse_square,
    .parse_move = ataxx_parse_move,
    .format_move = ataxx_format_move,
    .describe_move = ataxx_describe_move,
    .apply = ataxx_apply,
    .to_position = ataxx_to_position,
    .from_position = ataxx_from_position,
    .import_file = NULL,
    .export_file = NULL,
    .render = ataxx_render,
    .board_rows = ataxx_board_rows,
    .hash = ataxx_hash,
    .perft = ataxx_perft,
};
