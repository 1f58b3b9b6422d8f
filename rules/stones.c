/*
 * stones.c: the rules of Stones, the 3x3 game of three pegs a side. The first
 * player (drawn at random) places three pegs, the second player places three,
 * no placement may complete three in a row; then both slide a peg along a
 * line to a neighbouring empty point until one has three in a row. A third
 * repetition draws; a player with no slide loses. See docs/RULES.md (Stones).
 */
#include <string.h>

#include "games.h"
#include "stones.h"

/* Points A1..C3, numbered row by row from the top: A1 = 0, C3 = 8. */
#define STONES_POINTS 9
#define STONES_SIDE 3

/* Pegs each player places. */
#define STONES_PEGS 3

/* Pegs on the board once both have placed: the slide phase. */
#define STONES_ALL_PEGS (2 * STONES_PEGS)

/* Lines that count for three in a row: 3 rows, 3 columns, 2 diagonals. */
#define STONES_NLINES 8

/* Distinct slide-phase (position, side to move) pairs: C(9,3) ways for x,
 * C(6,3) for o on the rest, two sides to move. */
#define STONES_X_SETS 84
#define STONES_O_SETS 20
#define STONES_REP_SLOTS (STONES_X_SETS * STONES_O_SETS * 2)

/* How many times each pair has occurred, two bits a pair (the game ends at
 * the third occurrence, so 0..3 fits). */
#define STONES_REP_BYTES (STONES_REP_SLOTS / 4)

/* The occurrence of a position that ends the game in a draw. */
#define STONES_REP_DRAW 3

/* Characters we look at before deciding a move text has the wrong length:
 * notation is at most 4 characters, so 5 tells "too long" apart. */
#define STONES_MOVE_SCAN 5

/* The position string: "xxx/xxx/xxx s f", 15 characters. */
#define STONES_POS_LEN 15

/* Why a game ended; indexes stones_end_reason. */
enum stones_end {
	STONES_END_NONE,
	STONES_END_LINE,
	STONES_END_NOMOVE,
	STONES_END_REPETITION,
};

static const char *const stones_end_reason[] = {
    "",
    "three in a row",
    "no move",
    "third repetition",
};

/* The game's state: plain bytes that copy with memcpy. */
struct stones_state {
	uint16_t pegs[2]; /* bit p set: that seat has a peg on point p */
	uint8_t first;    /* seat that placed first */
	uint8_t turn;     /* seat to move */
	uint8_t result;   /* enum rules_result */
	int8_t winner;    /* seat that won, or RULES_NONE */
	uint8_t end;      /* enum stones_end */
	uint8_t rep[STONES_REP_BYTES]; /* occurrences of slide positions */
};

/* Neighbours along the board's lines: rows, columns, and the diagonals
 * from each corner to B2. */
static const uint16_t stones_adj[STONES_POINTS] = {
    (1 << 1) | (1 << 3) | (1 << 4), /* A1: A2 B1 B2 */
    (1 << 0) | (1 << 2) | (1 << 4), /* A2: A1 A3 B2 */
    (1 << 1) | (1 << 5) | (1 << 4), /* A3: A2 B3 B2 */
    (1 << 0) | (1 << 6) | (1 << 4), /* B1: A1 C1 B2 */
    0x1ff & ~(1 << 4),              /* B2: every other point */
    (1 << 2) | (1 << 8) | (1 << 4), /* B3: A3 C3 B2 */
    (1 << 3) | (1 << 7) | (1 << 4), /* C1: B1 C2 B2 */
    (1 << 6) | (1 << 8) | (1 << 4), /* C2: C1 C3 B2 */
    (1 << 7) | (1 << 5) | (1 << 4), /* C3: C2 B3 B2 */
};

static const uint16_t stones_lines[STONES_NLINES] = {
    0x007, 0x038, 0x1c0, /* rows A, B, C */
    0x049, 0x092, 0x124, /* columns 1, 2, 3 */
    0x111, 0x054,        /* A1-B2-C3, A3-B2-C1 */
};

static const char stones_mark[2] = {'x', 'o'};

static int
stones_popcount(unsigned v)
{
	int n = 0;

	for (; v != 0; v &= v - 1)
		n++;
	return n;
}

/* Does this set of points hold a whole line? */
static int
stones_has_line(unsigned set)
{
	int i;

	for (i = 0; i < STONES_NLINES; i++)
		if ((set & stones_lines[i]) == stones_lines[i])
			return 1;
	return 0;
}

static int
stones_placing(const struct stones_state *s)
{
	return stones_popcount(s->pegs[0] | s->pegs[1]) < STONES_ALL_PEGS;
}

static unsigned
stones_empty(const struct stones_state *s)
{
	return 0x1ff & ~(unsigned)(s->pegs[0] | s->pegs[1]);
}

/* Rank of three ascending numbers among all such triples (the
 * combinatorial number system): 0 .. C(n,3)-1 for numbers below n. */
static int
stones_rank3(const int v[3])
{
	return v[0] + v[1] * (v[1] - 1) / 2 +
	    v[2] * (v[2] - 1) * (v[2] - 2) / 6;
}

/* The repetition slot of a slide-phase state: x's three points ranked
 * among the nine, o's ranked among the six x leaves free, and the side to
 * move. */
static int
stones_rep_slot(const struct stones_state *s)
{
	int xs[STONES_PEGS], os[STONES_PEGS], nx = 0, no = 0, nfree = 0, p;

	for (p = 0; p < STONES_POINTS; p++) {
		if (s->pegs[0] >> p & 1) {
			if (nx < STONES_PEGS)
				xs[nx++] = p;
			continue;
		}
		if (s->pegs[1] >> p & 1 && no < STONES_PEGS)
			os[no++] = nfree;
		nfree++;
	}
	if (nx != STONES_PEGS || no != STONES_PEGS)
		return -1;
	return (stones_rank3(xs) * STONES_O_SETS + stones_rank3(os)) * 2 +
	    s->turn;
}

/* Count one more occurrence of the current slide position; the new count. */
static int
stones_rep_bump(struct stones_state *s)
{
	int slot = stones_rep_slot(s), shift, n;

	if (slot < 0)
		return 0;
	shift = (slot % 4) * 2;
	n = s->rep[slot / 4] >> shift & 3;
	if (n < 3) {
		n++;
		s->rep[slot / 4] =
		    (uint8_t)((s->rep[slot / 4] & ~(3 << shift)) | n << shift);
	}
	return n;
}

/* Can this seat slide any peg? */
static int
stones_can_slide(const struct stones_state *s, int seat)
{
	unsigned empty = stones_empty(s);
	int p;

	for (p = 0; p < STONES_POINTS; p++)
		if (s->pegs[seat] >> p & 1 && (stones_adj[p] & empty) != 0)
			return 1;
	return 0;
}

static void
stones_finish(struct stones_state *s, int winner, enum stones_end why)
{
	s->result = winner == RULES_NONE ? RULES_DRAW : RULES_WIN;
	s->winner = (int8_t)winner;
	s->end = (uint8_t)why;
}

/* After a move or a load, with the side to move set: end the game when
 * the side that just moved has three in a row, when the side to move has
 * no slide, or when this slide position occurs for the third time. (A side
 * with no slide never arises in play: each such position already has the
 * other side's three in a row, which test_stones checks over every
 * position; the rule only guarantees that a game cannot stall.) */
static void
stones_settle(struct stones_state *s)
{
	int prev = 1 - s->turn, count;

	s->result = RULES_PLAYING;
	s->winner = RULES_NONE;
	s->end = STONES_END_NONE;
	if (stones_has_line(s->pegs[prev])) {
		stones_finish(s, prev, STONES_END_LINE);
		return;
	}
	if (stones_placing(s))
		return;
	count = stones_rep_bump(s);
	if (!stones_can_slide(s, s->turn))
		stones_finish(s, prev, STONES_END_NOMOVE);
	else if (count >= STONES_REP_DRAW)
		stones_finish(s, RULES_NONE, STONES_END_REPETITION);
}

/* The seat to move next in the placement phase, from the pegs placed. */
static int
stones_placer(const struct stones_state *s)
{
	int first = s->first;

	return stones_popcount(s->pegs[first]) < STONES_PEGS ? first
	                                                     : 1 - first;
}

static void
stones_reset(struct stones_state *s, int first)
{
	memset(s, 0, sizeof *s);
	s->first = (uint8_t)first;
	s->turn = (uint8_t)first;
	s->result = RULES_PLAYING;
	s->winner = RULES_NONE;
	s->end = STONES_END_NONE;
}

static const struct rules_optdesc stones_options[] = {
    {"first", RULES_OPT_CHOICE, 0, 0, "1|2|random", "random",
        "who places first: player 1, player 2 or drawn at random"},
    {"seed", RULES_OPT_INT, 0, 2147483647, NULL, NULL,
        "seed of the draw for the first player"},
    {NULL, 0, 0, 0, NULL, NULL, NULL},
};

/* Seed used for the draw when the option is absent (the server always
 * passes one). */
#define STONES_DEFAULT_SEED 1

static int
stones_init(
    void *st, const struct rules_opt *opts, int nopts, char *err, size_t errlen)
{
	const char *first = rules_opt_get(&rules_stones, opts, nopts, "first");
	const char *seed = rules_opt_get(&rules_stones, opts, nopts, "seed");
	struct rules_rng rng;
	int seat;

	if (first == NULL || strcmp(first, "random") == 0) {
		rules_rng_seed(&rng,
		    seed != NULL ? (uint64_t)rules_opt_long(
		                       &rules_stones, opts, nopts, "seed")
		                 : STONES_DEFAULT_SEED);
		seat = (int)rules_rng_below(&rng, 2);
	} else if (strcmp(first, "1") == 0) {
		seat = 0;
	} else if (strcmp(first, "2") == 0) {
		seat = 1;
	} else {
		rules_seterr(
		    err, errlen, "option 'first' must be one of 1|2|random");
		return -1;
	}
	stones_reset(st, seat);
	return 0;
}

static int
stones_turn(const void *st)
{
	const struct stones_state *s = st;

	return s->turn;
}

static void
stones_status(const void *st, struct rules_status *out)
{
	const struct stones_state *s = st;

	memset(out, 0, sizeof *out);
	out->result = (enum rules_result)s->result;
	out->winner = s->winner;
	out->nscores = 0;
	out->reason = stones_end_reason[s->end];
}

/* Is placing a peg of the side to move on p legal? */
static int
stones_can_place(const struct stones_state *s, int p)
{
	if ((stones_empty(s) >> p & 1) == 0)
		return 0;
	return !stones_has_line(s->pegs[s->turn] | 1u << p);
}

/* Legal moves placing on or sliding from one point (every point when only
 * is RULES_NONE), in point order. */
static int
stones_gen(
    const struct stones_state *s, int only, struct rules_move *out, int max)
{
	unsigned empty = stones_empty(s);
	int n = 0, p, q;

	if (s->result != RULES_PLAYING)
		return 0;
	for (p = 0; p < STONES_POINTS; p++) {
		if (only != RULES_NONE && p != only)
			continue;
		if (stones_placing(s)) {
			if (stones_can_place(s, p) && n < max)
				out[n++] = (struct rules_move){
				    RULES_NONE, (int16_t)p, RULES_NONE};
			continue;
		}
		if ((s->pegs[s->turn] >> p & 1) == 0)
			continue;
		for (q = 0; q < STONES_POINTS; q++)
			if (stones_adj[p] & empty & 1u << q && n < max)
				out[n++] = (struct rules_move){
				    (int16_t)p, (int16_t)q, RULES_NONE};
	}
	return n;
}

static int
stones_legal_moves(const void *st, struct rules_move *out, int max)
{
	return stones_gen(st, RULES_NONE, out, max);
}

static int
stones_legal_from(const void *st, int square, struct rules_move *out, int max)
{
	if (square < 0 || square >= STONES_POINTS)
		return 0;
	return stones_gen(st, square, out, max);
}

/* Two characters, a row letter A-C (any case) and a column 1-3, to a
 * point; -1 when they name no point. */
static int
stones_point(const char *t)
{
	int row, col;

	if (t[0] >= 'A' && t[0] <= 'C')
		row = t[0] - 'A';
	else if (t[0] >= 'a' && t[0] <= 'c')
		row = t[0] - 'a';
	else
		return -1;
	if (t[1] < '1' || t[1] > '3')
		return -1;
	col = t[1] - '1';
	return row * STONES_SIDE + col;
}

/* Length of text, counting no further than limit. */
static size_t
stones_len(const char *text, size_t limit)
{
	size_t n = 0;

	while (n < limit && text[n] != '\0')
		n++;
	return n;
}

static int
stones_parse_square(
    const void *st, const char *text, int *square, char *err, size_t errlen)
{
	int p = -1;

	if (stones_len(text, 3) == 2)
		p = stones_point(text);
	if (p < 0) {
		rules_seterr(err, errlen, "Not a board position");
		return -1;
	}
	*square = p;
	return 0;
}

/* A placement in the notation ("A2"), checked as the seed checks it: the
 * text (a slide's four characters too are no board position), then the
 * point taken, then three in a row. */
static enum stones_reason
stones_check_place(const struct stones_state *s, const char *text, size_t len,
    struct rules_move *out)
{
	int p = len == 2 ? stones_point(text) : -1;

	if (p < 0)
		return STONES_R_NOT_POINT;
	if ((stones_empty(s) >> p & 1) == 0)
		return STONES_R_TAKEN;
	if (!stones_can_place(s, p))
		return STONES_R_THREE;
	*out = (struct rules_move){RULES_NONE, (int16_t)p, RULES_NONE};
	return STONES_OK;
}

/* A slide in the notation ("C1C2"), checked in the seed's order: four
 * characters, two points, the origin, the destination, the line between
 * them. */
static enum stones_reason
stones_check_slide(const struct stones_state *s, const char *text, size_t len,
    struct rules_move *out)
{
	int from, to;

	if (len != 4)
		return STONES_R_FOUR_CHARS;
	from = stones_point(text);
	to = stones_point(text + 2);
	if (from < 0)
		return STONES_R_FROM_NOT_POINT;
	if (to < 0)
		return STONES_R_TO_NOT_POINT;
	if ((s->pegs[s->turn] >> from & 1) == 0)
		return STONES_R_FROM_NOT_OWN;
	if ((stones_empty(s) >> to & 1) == 0)
		return STONES_R_TO_TAKEN;
	if ((stones_adj[from] >> to & 1) == 0)
		return STONES_R_NOT_CONNECTED;
	*out = (struct rules_move){(int16_t)from, (int16_t)to, RULES_NONE};
	return STONES_OK;
}

enum stones_reason
stones_check_move(const void *st, const char *text, struct rules_move *out)
{
	const struct stones_state *s = st;
	size_t len = stones_len(text, STONES_MOVE_SCAN);

	if (s->result != RULES_PLAYING)
		return STONES_R_OVER;
	if (stones_placing(s))
		return stones_check_place(s, text, len, out);
	return stones_check_slide(s, text, len, out);
}

/* The reason's sentence into buf; each is written by its own literal, so
 * that rules_seterr keeps it as the sentence's msgid (docs/PROTOCOL.md). */
void
stones_reason_text(enum stones_reason why, int player, char *buf, size_t len)
{
	switch (why) {
	case STONES_OK:
		rules_seterr(buf, len, "%s", "");
		return;
	case STONES_R_OVER:
		rules_seterr(buf, len, "the game is over");
		return;
	case STONES_R_TAKEN:
		rules_seterr(buf, len, "Position taken by another peg");
		return;
	case STONES_R_THREE:
		rules_seterr(
		    buf, len, "Cannot complete 3-in-a-row at this stage");
		return;
	case STONES_R_FOUR_CHARS:
		rules_seterr(buf, len,
		    "Enter origin and destination positions in 4 characters, "
		    "e.g., A2B1");
		return;
	case STONES_R_FROM_NOT_POINT:
		rules_seterr(buf, len, "Origin is not a board position");
		return;
	case STONES_R_TO_NOT_POINT:
		rules_seterr(buf, len, "Destination is not a board position");
		return;
	case STONES_R_FROM_NOT_OWN:
		rules_seterr(buf, len,
		    "Origin is not occupied by player's %d peg", player);
		return;
	case STONES_R_TO_TAKEN:
		rules_seterr(buf, len, "Destination position is not empty");
		return;
	case STONES_R_NOT_CONNECTED:
		rules_seterr(buf, len,
		    "Destination position is not connected to origin "
		    "position");
		return;
	default:
		rules_seterr(buf, len, "Not a board position");
		return;
	}
}

static int
stones_parse_move(const void *st, const char *text, struct rules_move *out,
    char *err, size_t errlen)
{
	const struct stones_state *s = st;
	enum stones_reason why = stones_check_move(st, text, out);

	if (why == STONES_OK)
		return 0;
	stones_reason_text(why, s->turn + 1, err, errlen);
	return -1;
}

/* A point's name, "A1".."C3", or "??" for a number that names none. */
static void
stones_name(int p, char name[3])
{
	if (p < 0 || p >= STONES_POINTS) {
		name[0] = name[1] = '?';
	} else {
		name[0] = (char)('A' + p / STONES_SIDE);
		name[1] = (char)('1' + p % STONES_SIDE);
	}
	name[2] = '\0';
}

static void
stones_format_move(const void *st, struct rules_move m, char *buf, size_t len)
{
	struct rules_out o;
	char from[3], to[3];

	stones_name(m.from, from);
	stones_name(m.to, to);
	rules_out_init(&o, buf, len);
	if (m.from != RULES_NONE)
		rules_out_str(&o, from);
	rules_out_str(&o, to);
}

static void
stones_describe_move(const void *st, struct rules_move m, char *buf, size_t len)
{
	const struct stones_state *s = st;
	char from[3], to[3];

	stones_name(m.from, from);
	stones_name(m.to, to);
	if (m.from == RULES_NONE)
		rules_say(
		    buf, len, "player %d places a peg on %s", s->turn + 1, to);
	else
		rules_say(buf, len, "player %d slides %s to %s", s->turn + 1,
		    from, to);
}

static void
stones_apply(void *st, struct rules_move m)
{
	struct stones_state *s = st;
	unsigned mine = s->pegs[s->turn];

	/* Callers pass legal moves; a point off the board must still not
	 * become an undefined shift. */
	if (m.to < 0 || m.to >= STONES_POINTS || m.from < RULES_NONE ||
	    m.from >= STONES_POINTS)
		return;
	if (m.from != RULES_NONE)
		mine &= ~(1u << m.from);
	mine |= 1u << m.to;
	s->pegs[s->turn] = (uint16_t)mine;
	if (stones_placing(s))
		s->turn = (uint8_t)stones_placer(s);
	else
		s->turn = (uint8_t)(1 - s->turn);
	stones_settle(s);
}

static int
stones_to_position(const void *st, char *buf, size_t len)
{
	const struct stones_state *s = st;
	int p, n = 0;

	if (len < STONES_POS_LEN + 1)
		return -1;
	for (p = 0; p < STONES_POINTS; p++) {
		if (p > 0 && p % STONES_SIDE == 0)
			buf[n++] = '/';
		if (s->pegs[0] >> p & 1)
			buf[n++] = 'x';
		else if (s->pegs[1] >> p & 1)
			buf[n++] = 'o';
		else
			buf[n++] = '.';
	}
	buf[n++] = ' ';
	buf[n++] = stones_mark[s->turn];
	buf[n++] = ' ';
	buf[n++] = stones_mark[s->first];
	buf[n] = '\0';
	return n;
}

/* 'x' or 'o' to a seat; -1 for anything else. */
static int
stones_seat_of(char c)
{
	if (c == 'x')
		return 0;
	if (c == 'o')
		return 1;
	return -1;
}

/* Read the board part of a position string into s->pegs; 0, or -1 with
 * the place where it goes wrong. */
static int
stones_read_board(
    struct stones_state *s, const char *text, char *err, size_t errlen)
{
	const char *t = text;
	int p;

	for (p = 0; p < STONES_POINTS; p++) {
		char name[3];

		stones_name(p, name);
		if (p > 0 && p % STONES_SIDE == 0) {
			if (*t != '/') {
				rules_seterr(err, errlen,
				    "expected '/' before row %c at "
				    "character %d",
				    name[0], (int)(t - text) + 1);
				return -1;
			}
			t++;
		}
		if (*t != '.' && stones_seat_of(*t) < 0) {
			rules_seterr(err, errlen,
			    "point %s must be x, o or . at character %d", name,
			    (int)(t - text) + 1);
			return -1;
		}
		if (*t != '.')
			s->pegs[stones_seat_of(*t)] |= (uint16_t)(1u << p);
		t++;
	}
	return 0;
}

/* Read " s f" after the board: side to move and who placed first. */
static int
stones_read_tail(
    struct stones_state *s, const char *t, char *err, size_t errlen)
{
	int turn, first;

	if (t[0] != ' ') {
		rules_seterr(err, errlen,
		    "expected a space after the board at character 12");
		return -1;
	}
	turn = stones_seat_of(t[1]);
	if (turn < 0) {
		rules_seterr(
		    err, errlen, "side to move (character 13) must be x or o");
		return -1;
	}
	if (t[2] != ' ') {
		rules_seterr(err, errlen,
		    "expected a space after the side to move at character 14");
		return -1;
	}
	first = stones_seat_of(t[3]);
	if (first < 0) {
		rules_seterr(err, errlen,
		    "who placed first (character 15) must be x or o");
		return -1;
	}
	if (t[4] != '\0') {
		rules_seterr(err, errlen,
		    "unexpected text after the position at character 16");
		return -1;
	}
	s->turn = (uint8_t)turn;
	s->first = (uint8_t)first;
	return 0;
}

/* Can play reach this position: peg counts, placement order, side to move
 * and lines? 0, or -1 with what is wrong. */
static int
stones_check_reachable(const struct stones_state *s, char *err, size_t errlen)
{
	int f = s->first, seat, placer;

	for (seat = 0; seat < 2; seat++) {
		if (stones_popcount(s->pegs[seat]) > STONES_PEGS) {
			rules_seterr(err, errlen, "%c has more than %d pegs",
			    stones_mark[seat], STONES_PEGS);
			return -1;
		}
	}
	if (!stones_placing(s)) {
		if (stones_has_line(s->pegs[s->turn])) {
			rules_seterr(err, errlen,
			    "%c is to move but already has three in a row",
			    stones_mark[s->turn]);
			return -1;
		}
		return 0;
	}
	for (seat = 0; seat < 2; seat++) {
		if (stones_has_line(s->pegs[seat])) {
			rules_seterr(err, errlen,
			    "%c has three in a row while placing",
			    stones_mark[seat]);
			return -1;
		}
	}
	if (s->pegs[1 - f] != 0 && stones_popcount(s->pegs[f]) < STONES_PEGS) {
		rules_seterr(err, errlen,
		    "%c has pegs before %c, who places first, has placed "
		    "all three",
		    stones_mark[1 - f], stones_mark[f]);
		return -1;
	}
	placer = stones_placer(s);
	if (s->turn != placer) {
		rules_seterr(err, errlen, "%c is to place next, not %c",
		    stones_mark[placer], stones_mark[s->turn]);
		return -1;
	}
	return 0;
}

/* Load a position string; the repetition history starts afresh, with
 * this position (in the slide phase) as its first occurrence. */
static int
stones_from_position(void *st, const char *text, char *err, size_t errlen)
{
	struct stones_state n;

	memset(&n, 0, sizeof n);
	if (stones_read_board(&n, text, err, errlen) != 0 ||
	    stones_read_tail(&n, text + 11, err, errlen) != 0 ||
	    stones_check_reachable(&n, err, errlen) != 0)
		return -1;
	stones_settle(&n);
	memcpy(st, &n, sizeof n);
	return 0;
}

/* The mark on point p: 'x', 'o', or empty for an empty point. */
static char
stones_cell(const struct stones_state *s, int p, char empty)
{
	if (s->pegs[0] >> p & 1)
		return 'x';
	if (s->pegs[1] >> p & 1)
		return 'o';
	return empty;
}

/* The last line of the picture: the legend and whose turn it is, or how
 * the game ended. */
static void
stones_legend(const struct stones_state *s, struct rules_out *o)
{
	const char *why = stones_end_reason[s->end];

	rules_out_str(o, "x = player 1, o = player 2; ");
	if (s->result == RULES_DRAW)
		rules_out_add(o, "draw: %s\n", why);
	else if (s->result == RULES_WIN)
		rules_out_add(o, "player %d wins: %s\n", s->winner + 1, why);
	else if (stones_placing(s))
		rules_out_add(o, "player %d to place peg no. %d\n", s->turn + 1,
		    stones_popcount(s->pegs[s->turn]) + 1);
	else
		rules_out_add(o, "player %d to move\n", s->turn + 1);
}

/* The seed's board: column numbers on top, row letters on the left, the
 * lines and both diagonals drawn between the points, empty points as
 * spaces; then the legend. */
static int
stones_render(const void *st, char *buf, size_t len)
{
	static const char *const between[2][3] = {
	    {"  |\\  |  /|\n", "  | \\ | / |\n", "  |  \\|/  |\n"},
	    {"  |  /|\\  |\n", "  | / | \\ |\n", "  |/  |  \\|\n"},
	};
	const struct stones_state *s = st;
	struct rules_out o;
	int r, k;

	rules_out_init(&o, buf, len);
	rules_out_str(&o, "  1   2   3\n");
	for (r = 0; r < STONES_SIDE; r++) {
		char row[] = "A x---x---x\n";

		row[0] = (char)('A' + r);
		row[2] = stones_cell(s, r * STONES_SIDE, ' ');
		row[6] = stones_cell(s, r * STONES_SIDE + 1, ' ');
		row[10] = stones_cell(s, r * STONES_SIDE + 2, ' ');
		rules_out_mem(&o, row, sizeof row - 1);
		for (k = 0; r < STONES_SIDE - 1 && k < 3; k++)
			rules_out_str(&o, between[r][k]);
	}
	stones_legend(s, &o);
	return rules_out_done(&o);
}

static int
stones_board_rows(const void *st, char *buf, size_t len)
{
	const struct stones_state *s = st;
	int p, n = 0;

	/* Three rows of three points, each with its newline. */
	if (len < STONES_POINTS + STONES_SIDE + 1)
		return -1;
	for (p = 0; p < STONES_POINTS; p++) {
		buf[n++] = stones_cell(s, p, '.');
		if (p % STONES_SIDE == STONES_SIDE - 1)
			buf[n++] = '\n';
	}
	buf[n] = '\0';
	return n;
}

static uint64_t
stones_hash(const void *st)
{
	const struct stones_state *s = st;

	return rules_mix64((uint64_t)s->pegs[0] | (uint64_t)s->pegs[1] << 9 |
	    (uint64_t)s->turn << 18 | (uint64_t)s->first << 19);
}

const struct rules_game rules_stones = {
    .name = "stones",
    .title = "Stones",
    .seats = 2,
    .seat_names = {"player 1", "player 2"},
    .options = stones_options,
    .notation = "place with a point like A2; once all six pegs are down, "
                "slide with origin and destination like C1C2",
    .file_format = NULL,
    .state_size = sizeof(struct stones_state),
    .init = stones_init,
    .turn = stones_turn,
    .status = stones_status,
    .legal_moves = stones_legal_moves,
    .legal_from = stones_legal_from,
    .parse_square = stones_parse_square,
    .parse_move = stones_parse_move,
    .format_move = stones_format_move,
    .describe_move = stones_describe_move,
    .apply = stones_apply,
    .to_position = stones_to_position,
    .from_position = stones_from_position,
    .import_file = NULL,
    .export_file = NULL,
    .render = stones_render,
    .board_rows = stones_board_rows,
    .hash = stones_hash,
    .perft = NULL,
};
