/*
 * amazons.c: the rules of Amazons on the seed's 10x10 board: legal moves
 * (queen move, then a queen-like arrow shot from the landing square), the
 * precise reason a move is illegal, the end of the game (the side to move
 * with no complete move loses), the position string, the seed's tablero.txt
 * file, the ASCII picture and a bulk-counting perft.
 *
 * Square n is file n % 10 (a..j, from the left) and rank n / 10 (1..10,
 * from the bottom): a1 = 0, j1 = 9, a10 = 90, j10 = 99. Boards are 100-bit
 * bitboards in an unsigned __int128 with the same numbering; the state keeps
 * them as 64-bit halves so that it stays 8-byte aligned.
 */
#include <stdio.h>
#include <string.h>

#include "amazons.h"
#include "games.h"

/* Files and ranks of the board, and its squares. */
#define AMAZONS_SIDE 10
#define AMAZONS_CELLS 100

/* Amazons each side has, in every position (the seed's starting count). */
#define AMAZONS_PER_SIDE 4

/* Longest move text looked at, from its first non-blank character to its
 * end (trailing blanks included): "a10-a10/a10" is 11 characters, so
 * anything past this is not a move; it also keeps echoed squares short. */
#define AMAZONS_MOVE_TEXT_MAX 32

/* Largest tablero.txt accepted: 100 squares of at most 3 characters and a
 * comma come to about 400 bytes; 4 KiB leaves room for blanks and CRLF and
 * still bounds the work on hostile input. */
#define AMAZONS_FILE_MAX 4096

/* How many bytes of a bad token an error message quotes. */
#define AMAZONS_ECHO_MAX 12

/* Room for a square's name such as "a10", with its NUL. */
#define AMAZONS_SQNAME 4

__extension__ typedef unsigned __int128 amazons_bb;

/* All 100 squares; every square but file a; every square but file j. */
#define AMAZONS_FULL ((((amazons_bb)1) << AMAZONS_CELLS) - 1)
#define AMAZONS_HALVES(hi, lo) ((((amazons_bb)(hi)) << 64) | (amazons_bb)(lo))
#define AMAZONS_FILE_A AMAZONS_HALVES(0x4010040ULL, 0x1004010040100401ULL)
#define AMAZONS_FILE_J AMAZONS_HALVES(0x802008020ULL, 0x802008020080200ULL)
#define AMAZONS_NOT_A (AMAZONS_FULL & ~AMAZONS_FILE_A)
#define AMAZONS_NOT_J (AMAZONS_FULL & ~AMAZONS_FILE_J)

/* The seed's opening: white a4 d1 g1 j4, black a7 d10 g10 j7. */
static const int8_t amazons_start[2][AMAZONS_PER_SIDE] = {
    {30, 3, 6, 39},
    {60, 93, 96, 69},
};

/* A move that is not one (a macro, not an array: rules_seterr keeps it as
 * the sentence's msgid, docs/PROTOCOL.md). */
#define AMAZONS_MALFORMED "malformed move: expected like d1-i6/e10"

static amazons_bb
amazons_bb_get(const uint64_t h[2])
{
	return AMAZONS_HALVES(h[1], h[0]);
}

static void
amazons_bb_put(uint64_t h[2], amazons_bb b)
{
	h[0] = (uint64_t)b;
	h[1] = (uint64_t)(b >> 64);
}

static amazons_bb
amazons_bit(int sq)
{
	return (amazons_bb)1 << sq;
}

static int
amazons_bb_has(amazons_bb b, int sq)
{
	return (int)((b >> sq) & 1);
}

static int
amazons_bb_count(amazons_bb b)
{
	return __builtin_popcountll((uint64_t)b) +
	    __builtin_popcountll((uint64_t)(b >> 64));
}

/* Remove the lowest square of a non-empty board and return it. */
static int
amazons_bb_pop(amazons_bb *b)
{
	uint64_t lo = (uint64_t)*b;
	int sq;

	if (lo != 0)
		sq = __builtin_ctzll(lo);
	else
		sq = 64 + __builtin_ctzll((uint64_t)(*b >> 64));
	*b &= *b - 1;
	return sq;
}

/* The squares a slider on `from` reaches by repeated left shifts of `s`,
 * stopping before the first square outside `open`. */
static amazons_bb
amazons_ray_up(amazons_bb from, int s, amazons_bb open)
{
	amazons_bb att = 0;

	for (;;) {
		from = (from << s) & open;
		if (from == 0)
			return att;
		att |= from;
	}
}

/* The same by right shifts. */
static amazons_bb
amazons_ray_down(amazons_bb from, int s, amazons_bb open)
{
	amazons_bb att = 0;

	for (;;) {
		from = (from >> s) & open;
		if (from == 0)
			return att;
		att |= from;
	}
}

/* Every empty square a queen on sq reaches over the occupied squares occ;
 * the masks drop the squares a shift wraps onto the other edge. */
static amazons_bb
amazons_attacks(int sq, amazons_bb occ)
{
	amazons_bb b = amazons_bit(sq), open = AMAZONS_FULL & ~occ;
	amazons_bb na = open & AMAZONS_NOT_A, nj = open & AMAZONS_NOT_J;

	return amazons_ray_up(b, 1, na) | amazons_ray_down(b, 1, nj) |
	    amazons_ray_up(b, 10, open) | amazons_ray_down(b, 10, open) |
	    amazons_ray_up(b, 11, na) | amazons_ray_up(b, 9, nj) |
	    amazons_ray_down(b, 9, na) | amazons_ray_down(b, 11, nj);
}

/* The eight squares around every square of b. */
static amazons_bb
amazons_neighbours(amazons_bb b)
{
	amazons_bb na = b & AMAZONS_NOT_J, nj = b & AMAZONS_NOT_A;

	return ((b << 10) | (b >> 10) | (na << 1) | (na << 11) | (na >> 9) |
	           (nj >> 1) | (nj << 9) | (nj >> 11)) &
	    AMAZONS_FULL;
}

static amazons_bb
amazons_own(const struct amazons_state *s, int seat)
{
	return amazons_bb_get(s->amz[seat]);
}

static amazons_bb
amazons_occupied(const struct amazons_state *s)
{
	return amazons_own(s, 0) | amazons_own(s, 1) |
	    amazons_bb_get(s->arrows);
}

/* Does the side to move have a complete move? An amazon with an empty
 * neighbour has one: it steps there and shoots back onto the square it
 * left. */
static int
amazons_can_move(const struct amazons_state *s)
{
	return (amazons_neighbours(amazons_own(s, (int)s->turn)) &
	           ~amazons_occupied(s)) != 0;
}

/* A square's name, "a1" to "j10". */
static void
amazons_sqname(int sq, char name[AMAZONS_SQNAME])
{
	int rank = sq / AMAZONS_SIDE + 1, k = 1;

	name[0] = (char)('a' + sq % AMAZONS_SIDE);
	if (rank >= 10)
		name[k++] = '1';
	name[k++] = (char)('0' + rank % 10);
	name[k] = '\0';
}

/* Quote up to AMAZONS_ECHO_MAX bytes of untrusted text for a reason, with
 * non-printable bytes as '?' and "..." when cut short. */
static void
amazons_echo(const char *s, size_t n, char *out, size_t outlen)
{
	size_t i, k = 0;

	for (i = 0; i < n && i < AMAZONS_ECHO_MAX && k + 1 < outlen; i++) {
		unsigned char c = (unsigned char)s[i];

		out[k++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	if (i < n && k + 4 <= outlen) {
		memcpy(out + k, "...", 3);
		k += 3;
	}
	out[k] = '\0';
}

static int
amazons_is_letter(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int
amazons_is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int
amazons_is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Scan a square-shaped token (a letter, then digits) at the start of s[0..n).
 * Returns its length, 0 when s does not start with one; *sq is the square,
 * or RULES_NONE when the token is off the board ("k3", "a11", "a01").
 */
static size_t
amazons_scan_square(const char *s, size_t n, int *sq)
{
	size_t len = 1;
	int file, rank = 0;

	*sq = RULES_NONE;
	if (n < 2 || !amazons_is_letter(s[0]) || !amazons_is_digit(s[1]))
		return 0;
	while (len < n && amazons_is_digit(s[len])) {
		if (rank <= AMAZONS_SIDE)
			rank = rank * 10 + (s[len] - '0');
		len++;
	}
	file = (s[0] | 0x20) - 'a';
	if (file < AMAZONS_SIDE && s[1] != '0' && rank >= 1 &&
	    rank <= AMAZONS_SIDE)
		*sq = (rank - 1) * AMAZONS_SIDE + file;
	return len;
}

/* One whole square name, any case; 0, or -1 with the reason. */
static int
amazons_square_text(const char *s, size_t n, int *sq, char *err, size_t errlen)
{
	char quoted[AMAZONS_ECHO_MAX + 4];

	if (n > 0 && amazons_scan_square(s, n, sq) == n && *sq != RULES_NONE)
		return 0;
	amazons_echo(s, n, quoted, sizeof quoted);
	rules_seterr(err, errlen, "not a square: %s", quoted);
	return -1;
}

/*
 * The three squares of a move's text: "d1-i6/e10" or "d1i6e10", any case,
 * blanks around it ignored. 0, or -1 with "malformed move: ..." or
 * "not a square: k3".
 */
static int
amazons_parse_text(const char *text, int sq[3], char *err, size_t errlen)
{
	static const char seps[3] = {'-', '/', '\0'};
	char lower[AMAZONS_MOVE_TEXT_MAX + 1];
	size_t start[3], len[3], n, i, pos = 0;
	int k;

	while (amazons_is_blank(*text))
		text++;
	n = strnlen(text, AMAZONS_MOVE_TEXT_MAX + 1);
	if (n <= AMAZONS_MOVE_TEXT_MAX)
		while (n > 0 && amazons_is_blank(text[n - 1]))
			n--;
	if (n == 0 || n > AMAZONS_MOVE_TEXT_MAX) {
		rules_seterr(err, errlen, AMAZONS_MALFORMED);
		return -1;
	}
	for (i = 0; i < n; i++)
		lower[i] = amazons_is_letter(text[i]) ? (char)(text[i] | 0x20)
		                                      : text[i];
	lower[n] = '\0';
	for (k = 0; k < 3; k++) {
		start[k] = pos;
		len[k] = amazons_scan_square(lower + pos, n - pos, &sq[k]);
		if (len[k] == 0) {
			rules_seterr(err, errlen, AMAZONS_MALFORMED);
			return -1;
		}
		pos += len[k];
		if (k < 2 && pos < n && lower[pos] == seps[k])
			pos++;
	}
	if (pos != n) {
		rules_seterr(err, errlen, AMAZONS_MALFORMED);
		return -1;
	}
	for (k = 0; k < 3; k++) {
		if (sq[k] == RULES_NONE) {
			rules_seterr(err, errlen, "not a square: %.*s",
			    (int)len[k], lower + start[k]);
			return -1;
		}
	}
	return 0;
}

/* The queen step from a toward b, as (file, rank) unit steps; 0 when b is
 * not on a straight line from a (or is a). */
static int
amazons_line(int a, int b, int *df, int *dr)
{
	int fa = a % AMAZONS_SIDE, ra = a / AMAZONS_SIDE;
	int fb = b % AMAZONS_SIDE, rb = b / AMAZONS_SIDE;

	*df = (fb > fa) - (fb < fa);
	*dr = (rb > ra) - (rb < ra);
	if (a == b)
		return 0;
	return fa == fb || ra == rb || fb - fa == rb - ra || fb - fa == ra - rb;
}

/* The first occupied square walking from a to b (a excluded, b included),
 * or RULES_NONE when the way and b are free; a and b are on one line. */
static int
amazons_first_block(int a, int b, amazons_bb occ)
{
	int df, dr, sq = a;

	amazons_line(a, b, &df, &dr);
	do {
		sq += dr * AMAZONS_SIDE + df;
		if (amazons_bb_has(occ, sq))
			return sq;
	} while (sq != b);
	return RULES_NONE;
}

/* The words that name one part of a move, the queen move or the arrow
 * shot, in its reasons. */
/* Which part of a move is checked: the amazon's move or its arrow. Each
 * reason names the part in words of its own format (not an argument), so
 * that each sentence is whole, its own msgid (docs/PROTOCOL.md). */
struct amazons_part {
	int arrow; /* 0: the amazon ("queen"), 1: the arrow */
};

static const struct amazons_part amazons_queen = {0};
static const struct amazons_part amazons_arrow = {1};

/* Check one part of a move from a to b over occ; 0, or -1 with the reason
 * naming the part. */
static int
amazons_check_part(const struct amazons_part *part, int a, int b,
    amazons_bb occ, char *err, size_t errlen)
{
	char na[AMAZONS_SQNAME], nb[AMAZONS_SQNAME], nc[AMAZONS_SQNAME];
	int df, dr, block;

	amazons_sqname(a, na);
	amazons_sqname(b, nb);
	if (a == b) {
		if (part->arrow)
			rules_seterr(err, errlen,
			    "arrow %s to %s does not move", na, nb);
		else
			rules_seterr(err, errlen,
			    "amazon %s to %s does not move", na, nb);
		return -1;
	}
	if (!amazons_line(a, b, &df, &dr)) {
		if (part->arrow)
			rules_seterr(err, errlen,
			    "arrow %s to %s is not a straight line", na, nb);
		else
			rules_seterr(err, errlen,
			    "%s to %s is not a straight line", na, nb);
		return -1;
	}
	block = amazons_first_block(a, b, occ);
	if (block == b) {
		if (part->arrow)
			rules_seterr(
			    err, errlen, "arrow square %s is occupied", nb);
		else
			rules_seterr(
			    err, errlen, "destination %s is occupied", nb);
		return -1;
	}
	if (block != RULES_NONE) {
		amazons_sqname(block, nc);
		if (part->arrow)
			rules_seterr(
			    err, errlen, "arrow path blocked at %s", nc);
		else
			rules_seterr(
			    err, errlen, "queen path blocked at %s", nc);
		return -1;
	}
	return 0;
}

/* Is the move (squares already on the board) legal here? 0, or -1 with the
 * reason. */
static int
amazons_check(
    const struct amazons_state *s, const int sq[3], char *err, size_t errlen)
{
	char name[AMAZONS_SQNAME];
	amazons_bb occ = amazons_occupied(s);

	if (!amazons_can_move(s)) {
		rules_seterr(err, errlen, "the game is over: %s has no move",
		    rules_amazons.seat_names[s->turn]);
		return -1;
	}
	if (!amazons_bb_has(amazons_own(s, (int)s->turn), sq[0])) {
		amazons_sqname(sq[0], name);
		rules_seterr(err, errlen, "no amazon of yours on %s", name);
		return -1;
	}
	if (amazons_check_part(
	        &amazons_queen, sq[0], sq[1], occ, err, errlen) != 0)
		return -1;
	occ = (occ & ~amazons_bit(sq[0])) | amazons_bit(sq[1]);
	return amazons_check_part(
	    &amazons_arrow, sq[1], sq[2], occ, err, errlen);
}

static void
amazons_set_start(struct amazons_state *s)
{
	int seat, i;

	memset(s, 0, sizeof *s);
	for (seat = 0; seat < 2; seat++) {
		amazons_bb b = 0;

		for (i = 0; i < AMAZONS_PER_SIDE; i++)
			b |= amazons_bit(amazons_start[seat][i]);
		amazons_bb_put(s->amz[seat], b);
	}
}

static int
amazons_init(
    void *st, const struct rules_opt *opts, int nopts, char *err, size_t errlen)
{
	amazons_set_start(st);
	return 0;
}

static int
amazons_turn(const void *st)
{
	const struct amazons_state *s = st;

	return (int)s->turn;
}

static void
amazons_status(const void *st, struct rules_status *out)
{
	const struct amazons_state *s = st;

	memset(out, 0, sizeof *out);
	out->winner = RULES_NONE;
	out->reason = "";
	if (amazons_can_move(s)) {
		out->result = RULES_PLAYING;
		return;
	}
	out->result = RULES_WIN;
	out->winner = 1 - (int)s->turn;
	out->reason = "no move";
}

/* Append the moves of the amazon on `from` to out[n..max); the new n. */
static int
amazons_moves_of(const struct amazons_state *s, int from,
    struct rules_move *out, int n, int max)
{
	amazons_bb occ = amazons_occupied(s) & ~amazons_bit(from);
	amazons_bb dests = amazons_attacks(from, occ);

	while (dests != 0 && n < max) {
		int to = amazons_bb_pop(&dests);
		amazons_bb shots = amazons_attacks(to, occ);

		while (shots != 0 && n < max) {
			out[n].from = (int16_t)from;
			out[n].to = (int16_t)to;
			out[n].arg = (int16_t)amazons_bb_pop(&shots);
			n++;
		}
	}
	return n;
}

static int
amazons_legal_moves(const void *st, struct rules_move *out, int max)
{
	const struct amazons_state *s = st;
	amazons_bb own = amazons_own(s, (int)s->turn);
	int n = 0;

	while (own != 0)
		n = amazons_moves_of(s, amazons_bb_pop(&own), out, n, max);
	return n;
}

static int
amazons_legal_from(const void *st, int square, struct rules_move *out, int max)
{
	const struct amazons_state *s = st;

	if (square < 0 || square >= AMAZONS_CELLS ||
	    !amazons_bb_has(amazons_own(s, (int)s->turn), square))
		return 0;
	return amazons_moves_of(s, square, out, 0, max);
}

static int
amazons_parse_square(
    const void *st, const char *text, int *square, char *err, size_t errlen)
{
	return amazons_square_text(
	    text, strnlen(text, AMAZONS_MOVE_TEXT_MAX), square, err, errlen);
}

static int
amazons_parse_move(const void *st, const char *text, struct rules_move *out,
    char *err, size_t errlen)
{
	int sq[3];

	if (amazons_parse_text(text, sq, err, errlen) != 0 ||
	    amazons_check(st, sq, err, errlen) != 0)
		return -1;
	out->from = (int16_t)sq[0];
	out->to = (int16_t)sq[1];
	out->arg = (int16_t)sq[2];
	return 0;
}

/* Are all three squares of m on the board? */
static int
amazons_move_ok(struct rules_move m)
{
	return m.from >= 0 && m.from < AMAZONS_CELLS && m.to >= 0 &&
	    m.to < AMAZONS_CELLS && m.arg >= 0 && m.arg < AMAZONS_CELLS;
}

static void
amazons_format_move(const void *st, struct rules_move m, char *buf, size_t len)
{
	char a[AMAZONS_SQNAME], b[AMAZONS_SQNAME], c[AMAZONS_SQNAME];

	if (!amazons_move_ok(m)) {
		snprintf(buf, len, "-");
		return;
	}
	amazons_sqname(m.from, a);
	amazons_sqname(m.to, b);
	amazons_sqname(m.arg, c);
	snprintf(buf, len, "%s-%s/%s", a, b, c);
}

static void
amazons_describe_move(
    const void *st, struct rules_move m, char *buf, size_t len)
{
	const struct amazons_state *s = st;
	char a[AMAZONS_SQNAME], b[AMAZONS_SQNAME], c[AMAZONS_SQNAME];

	/* one format a side, so that each sentence is whole (rules_say) */
	if (!amazons_move_ok(m)) {
		if (s->turn == 0)
			rules_say(buf, len, "white makes no move");
		else
			rules_say(buf, len, "black makes no move");
		return;
	}
	amazons_sqname(m.from, a);
	amazons_sqname(m.to, b);
	amazons_sqname(m.arg, c);
	if (s->turn == 0)
		rules_say(
		    buf, len, "white moves %s to %s and shoots %s", a, b, c);
	else
		rules_say(
		    buf, len, "black moves %s to %s and shoots %s", a, b, c);
}

static void
amazons_apply(void *st, struct rules_move m)
{
	struct amazons_state *s = st;
	amazons_bb own;

	if (!amazons_move_ok(m))
		return;
	own = amazons_own(s, (int)s->turn);
	own = (own & ~amazons_bit(m.from)) | amazons_bit(m.to);
	amazons_bb_put(s->amz[s->turn], own);
	amazons_bb_put(
	    s->arrows, amazons_bb_get(s->arrows) | amazons_bit(m.arg));
	s->turn ^= 1;
}

/* What stands on sq: 'W', 'B', '*' (arrow) or '.'. */
static char
amazons_cell(const struct amazons_state *s, int sq)
{
	if (amazons_bb_has(amazons_own(s, 0), sq))
		return 'W';
	if (amazons_bb_has(amazons_own(s, 1), sq))
		return 'B';
	if (amazons_bb_has(amazons_bb_get(s->arrows), sq))
		return '*';
	return '.';
}

/*
 * Position string: the ranks from 10 down to 1 separated by '/', each as
 * 'W' (white amazon), 'B' (black amazon), 'x' (arrow) and digits for runs of
 * empty squares ("10" for an empty rank), then a space and the side to move,
 * 'w' or 'b'. The opening is "3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3 w".
 */
static int
amazons_to_position(const void *st, char *buf, size_t len)
{
	static const char pieces[] = {'W', 'B', 'x'};
	const struct amazons_state *s = st;
	struct rules_out o;
	int rank, file, run;

	rules_out_init(&o, buf, len);
	for (rank = AMAZONS_SIDE - 1; rank >= 0; rank--) {
		run = 0;
		for (file = 0; file < AMAZONS_SIDE; file++) {
			char c = amazons_cell(s, rank * AMAZONS_SIDE + file);

			if (c == '.') {
				run++;
				continue;
			}
			if (run > 0) {
				rules_out_int(&o, run, 0);
				run = 0;
			}
			rules_out_char(
			    &o, c == '*' ? pieces[2] : pieces[c == 'B']);
		}
		if (run > 0)
			rules_out_int(&o, run, 0);
		if (rank > 0)
			rules_out_char(&o, '/');
	}
	rules_out_str(&o, s->turn == 0 ? " w" : " b");
	return rules_out_done(&o);
}

/* Check that each side of a parsed position has its four amazons; 0, or -1
 * with the reason. */
static int
amazons_check_counts(const struct amazons_state *s, char *err, size_t errlen)
{
	int seat;

	for (seat = 0; seat < 2; seat++) {
		int n = amazons_bb_count(amazons_own(s, seat));

		if (n != AMAZONS_PER_SIDE) {
			rules_seterr(err, errlen,
			    "expected %d %s amazons, found %d",
			    AMAZONS_PER_SIDE, rules_amazons.seat_names[seat],
			    n);
			return -1;
		}
	}
	return 0;
}

/* Describe a byte of a position string for a reason. */
static void
amazons_char_name(char c, char *out, size_t outlen)
{
	unsigned char u = (unsigned char)c;

	if (u >= 0x20 && u < 0x7f)
		snprintf(out, outlen, "'%c'", c);
	else
		snprintf(out, outlen, "byte 0x%02x", u);
}

/* Parse one rank of a position string at *pp into s; 0, or -1. */
static int
amazons_parse_rank(struct amazons_state *s, const char **pp, int rank,
    char *err, size_t errlen)
{
	const char *p = *pp;
	amazons_bb b[3] = {0, 0, 0};
	int file = 0, seat;
	char what[16];

	while (*p != '\0' && *p != '/' && *p != ' ') {
		if (amazons_is_digit(*p)) {
			int run = 0;

			if (*p == '0') {
				rules_seterr(err, errlen,
				    "rank %d: a run of empty squares cannot "
				    "start with 0",
				    rank + 1);
				return -1;
			}
			while (amazons_is_digit(*p)) {
				if (run <= AMAZONS_SIDE)
					run = run * 10 + (*p - '0');
				p++;
			}
			file += run;
		} else if (*p == 'W' || *p == 'B' || *p == 'x') {
			if (file < AMAZONS_SIDE)
				b[*p == 'W'         ? 0
				        : *p == 'B' ? 1
				                    : 2] |=
				    amazons_bit(rank * AMAZONS_SIDE + file);
			file++;
			p++;
		} else {
			amazons_char_name(*p, what, sizeof what);
			rules_seterr(err, errlen,
			    "rank %d: unexpected %s (expected W, B, x or a "
			    "digit)",
			    rank + 1, what);
			return -1;
		}
		if (file > AMAZONS_SIDE) {
			rules_seterr(err, errlen,
			    "rank %d has more than %d squares", rank + 1,
			    AMAZONS_SIDE);
			return -1;
		}
	}
	if (file < AMAZONS_SIDE) {
		rules_seterr(err, errlen, "rank %d has %d squares, expected %d",
		    rank + 1, file, AMAZONS_SIDE);
		return -1;
	}
	for (seat = 0; seat < 2; seat++)
		amazons_bb_put(s->amz[seat], amazons_own(s, seat) | b[seat]);
	amazons_bb_put(s->arrows, amazons_bb_get(s->arrows) | b[2]);
	*pp = p;
	return 0;
}

static int
amazons_from_position(void *st, const char *text, char *err, size_t errlen)
{
	struct amazons_state s;
	const char *p = text;
	char what[16];
	int rank;

	memset(&s, 0, sizeof s);
	for (rank = AMAZONS_SIDE - 1; rank >= 0; rank--) {
		if (amazons_parse_rank(&s, &p, rank, err, errlen) != 0)
			return -1;
		if (rank > 0 && *p != '/') {
			rules_seterr(err, errlen,
			    "expected '/' after rank %d: the board has 10 "
			    "ranks",
			    rank + 1);
			return -1;
		}
		if (rank == 0 && *p == '/') {
			rules_seterr(
			    err, errlen, "more than 10 ranks in the board");
			return -1;
		}
		if (rank > 0)
			p++;
	}
	if (p[0] != ' ' || (p[1] != 'w' && p[1] != 'b')) {
		rules_seterr(err, errlen,
		    "expected a space and the side to move, w or b, after "
		    "rank 1");
		return -1;
	}
	p++;
	s.turn = *p == 'b';
	if (p[1] != '\0') {
		amazons_char_name(p[1], what, sizeof what);
		rules_seterr(
		    err, errlen, "unexpected %s after the side to move", what);
		return -1;
	}
	if (amazons_check_counts(&s, err, errlen) != 0)
		return -1;
	memcpy(st, &s, sizeof s);
	return 0;
}

/* One line of a tablero.txt: [start, start+len). */
struct amazons_line {
	const char *start;
	size_t len;
};

/* Split text into at most `max` lines (CRLF or LF; a last newline ends the
 * last line rather than starting an empty one). Returns the number of
 * lines, or -1 (with the reason) when a line past `max` is not blank. */
static int
amazons_split_lines(const char *text, size_t len, struct amazons_line *lines,
    int max, char *err, size_t errlen)
{
	size_t pos = 0;
	int n = 0;

	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl != NULL ? (size_t)(nl - text) : len;
		size_t l = end - pos, i;

		if (l > 0 && text[pos + l - 1] == '\r')
			l--;
		if (n < max) {
			lines[n].start = text + pos;
			lines[n].len = l;
		} else {
			for (i = 0; i < l; i++) {
				if (!amazons_is_blank(text[pos + i])) {
					rules_seterr(err, errlen,
					    "line %d: unexpected text after "
					    "the %d lines of the file",
					    n + 1, max);
					return -1;
				}
			}
		}
		n++;
		pos = end + 1;
	}
	return n < max ? n : max;
}

/* Trim blanks from both ends of [*s, *s + *n). */
static void
amazons_trim(const char **s, size_t *n)
{
	while (*n > 0 && amazons_is_blank(**s)) {
		(*s)++;
		(*n)--;
	}
	while (*n > 0 && amazons_is_blank((*s)[*n - 1]))
		(*n)--;
}

/*
 * Read a comma-separated list of squares (line `lineno`, blank = none) into
 * *b, refusing squares already in *used; the count, or -1 with the reason.
 */
static int
amazons_read_squares(struct amazons_line line, int lineno, amazons_bb *b,
    amazons_bb *used, char *err, size_t errlen)
{
	const char *s = line.start;
	size_t n = line.len;
	char name[AMAZONS_SQNAME], quoted[AMAZONS_ECHO_MAX + 4];
	int count = 0;

	amazons_trim(&s, &n);
	if (n == 0)
		return 0;
	for (;;) {
		const char *comma = memchr(s, ',', n);
		size_t ilen = comma != NULL ? (size_t)(comma - s) : n;
		const char *item = s;
		int sq;

		amazons_trim(&item, &ilen);
		if (ilen == 0) {
			rules_seterr(err, errlen,
			    "line %d: square %d of the list is empty", lineno,
			    count + 1);
			return -1;
		}
		if (amazons_scan_square(item, ilen, &sq) != ilen ||
		    sq == RULES_NONE) {
			amazons_echo(item, ilen, quoted, sizeof quoted);
			rules_seterr(err, errlen,
			    "line %d: '%s' is not a square", lineno, quoted);
			return -1;
		}
		if (amazons_bb_has(*used, sq)) {
			amazons_sqname(sq, name);
			rules_seterr(err, errlen,
			    "line %d: square %s is used twice", lineno, name);
			return -1;
		}
		*used |= amazons_bit(sq);
		*b |= amazons_bit(sq);
		count++;
		if (comma == NULL)
			return count;
		n -= (size_t)(comma - s) + 1;
		s = comma + 1;
	}
}

/*
 * The seed's tablero.txt: line 1 the white amazons, line 2 the black ones,
 * line 3 the arrows (all comma-separated squares; line 3 may be empty),
 * line 4 the player to move, 1 (white) or 2 (black).
 */
static int
amazons_import_file(
    void *st, const char *text, size_t len, char *err, size_t errlen)
{
	static const char *const what[4] = {"the white amazons",
	    "the black amazons", "the arrows", "the player to move (1 or 2)"};
	struct amazons_line lines[4];
	struct amazons_state s;
	amazons_bb b[3] = {0, 0, 0}, used = 0;
	char quoted[AMAZONS_ECHO_MAX + 4];
	const char *p;
	size_t n;
	int nlines, i, count;

	if (len > AMAZONS_FILE_MAX) {
		rules_seterr(err, errlen, "the file is longer than %d bytes",
		    AMAZONS_FILE_MAX);
		return -1;
	}
	nlines = amazons_split_lines(text, len, lines, 4, err, errlen);
	if (nlines < 0)
		return -1;
	if (nlines < 4) {
		rules_seterr(err, errlen, "line %d: missing, expected %s",
		    nlines + 1, what[nlines]);
		return -1;
	}
	for (i = 0; i < 3; i++) {
		count = amazons_read_squares(
		    lines[i], i + 1, &b[i], &used, err, errlen);
		if (count < 0)
			return -1;
		if (i < 2 && count != AMAZONS_PER_SIDE) {
			rules_seterr(err, errlen,
			    "line %d: expected %d amazons, found %d", i + 1,
			    AMAZONS_PER_SIDE, count);
			return -1;
		}
	}
	p = lines[3].start;
	n = lines[3].len;
	amazons_trim(&p, &n);
	if (n != 1 || (p[0] != '1' && p[0] != '2')) {
		amazons_echo(p, n, quoted, sizeof quoted);
		rules_seterr(err, errlen,
		    "line 4: expected the player to move, 1 or 2, found '%s'",
		    quoted);
		return -1;
	}
	memset(&s, 0, sizeof s);
	amazons_bb_put(s.amz[0], b[0]);
	amazons_bb_put(s.amz[1], b[1]);
	amazons_bb_put(s.arrows, b[2]);
	s.turn = p[0] == '2';
	memcpy(st, &s, sizeof s);
	return 0;
}

/* Write the squares of b comma-separated, file a to j, rank 1 to 10. */
static void
amazons_out_squares(struct rules_out *o, amazons_bb b)
{
	char name[AMAZONS_SQNAME];
	int file, rank, first = 1;

	for (file = 0; file < AMAZONS_SIDE; file++) {
		for (rank = 0; rank < AMAZONS_SIDE; rank++) {
			int sq = rank * AMAZONS_SIDE + file;

			if (!amazons_bb_has(b, sq))
				continue;
			if (!first)
				rules_out_char(o, ',');
			amazons_sqname(sq, name);
			rules_out_str(o, name);
			first = 0;
		}
	}
	rules_out_char(o, '\n');
}

static int
amazons_export_file(const void *st, char *buf, size_t len)
{
	const struct amazons_state *s = st;
	struct rules_out o;

	rules_out_init(&o, buf, len);
	amazons_out_squares(&o, amazons_own(s, 0));
	amazons_out_squares(&o, amazons_own(s, 1));
	amazons_out_squares(&o, amazons_bb_get(s->arrows));
	rules_out_str(&o, s->turn == 0 ? "1\n" : "2\n");
	return rules_out_done(&o);
}

/* How the seed draws a cell of amazons_cell(): '0' white, 'X' black, '*'
 * arrow, ' ' empty. */
static char
amazons_picture(char cell)
{
	switch (cell) {
	case 'W':
		return '0';
	case 'B':
		return 'X';
	case '*':
		return '*';
	default:
		return ' ';
	}
}

/* The seed's picture: rank 10 on top, '0' white, 'X' black, '*' arrows,
 * the legend, then whose turn it is or who won. */
static int
amazons_render(const void *st, char *buf, size_t len)
{
	static const char grid[] =
	    "  +---+---+---+---+---+---+---+---+---+---+\n";
	const struct amazons_state *s = st;
	const char *const *names = rules_amazons.seat_names;
	struct rules_out o;
	int rank, file, side = (int)s->turn;

	rules_out_init(&o, buf, len);
	rules_out_str(&o, "  | a | b | c | d | e | f | g | h | i | j |\n");
	rules_out_str(&o, grid);
	for (rank = AMAZONS_SIDE - 1; rank >= 0; rank--) {
		rules_out_int(&o, rank + 1, 2);
		rules_out_char(&o, '|');
		for (file = 0; file < AMAZONS_SIDE; file++) {
			char c = amazons_cell(s, rank * AMAZONS_SIDE + file);
			char cell[4] = {' ', amazons_picture(c), ' ', '|'};

			rules_out_mem(&o, cell, sizeof cell);
		}
		rules_out_char(&o, '\n');
		rules_out_str(&o, grid);
	}
	rules_out_str(
	    &o, "0 white (player 1) - X black (player 2) - * arrow\n");
	if (amazons_can_move(s)) {
		rules_out_str(&o, names[side]);
		rules_out_str(&o,
		    side == 0 ? " (player 1) to move\n"
		              : " (player 2) to move\n");
	} else {
		rules_out_str(&o, names[1 - side]);
		rules_out_str(&o, " wins: ");
		rules_out_str(&o, names[side]);
		rules_out_str(&o, " has no move\n");
	}
	return rules_out_done(&o);
}

static int
amazons_board_rows(const void *st, char *buf, size_t len)
{
	const struct amazons_state *s = st;
	struct rules_out o;
	int rank, file;

	rules_out_init(&o, buf, len);
	for (rank = AMAZONS_SIDE - 1; rank >= 0; rank--) {
		for (file = 0; file < AMAZONS_SIDE; file++)
			rules_out_char(
			    &o, amazons_cell(s, rank * AMAZONS_SIDE + file));
		rules_out_char(&o, '\n');
	}
	return rules_out_done(&o);
}

static uint64_t
amazons_hash(const void *st)
{
	const struct amazons_state *s = st;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ s->turn;

	h = rules_mix64(h ^ s->amz[0][0]);
	h = rules_mix64(h ^ s->amz[0][1]);
	h = rules_mix64(h ^ s->amz[1][0]);
	h = rules_mix64(h ^ s->amz[1][1]);
	h = rules_mix64(h ^ s->arrows[0]);
	return rules_mix64(h ^ s->arrows[1]);
}

/* Leaves below a position given as boards (own = the side to move), with
 * the last ply counted in bulk: per queen move, the arrow squares are
 * counted, never played. */
static uint64_t
amazons_perft_bb(amazons_bb own, amazons_bb opp, amazons_bb arrows, int depth)
{
	amazons_bb occ = own | opp | arrows, left = own;
	uint64_t total = 0;

	if (depth <= 0)
		return 1;
	while (left != 0) {
		int from = amazons_bb_pop(&left);
		amazons_bb fbit = amazons_bit(from), rest = occ & ~fbit;
		amazons_bb dests = amazons_attacks(from, rest);

		while (dests != 0) {
			int to = amazons_bb_pop(&dests);
			amazons_bb tbit = amazons_bit(to);
			amazons_bb shots = amazons_attacks(to, rest);
			amazons_bb moved = (own & ~fbit) | tbit;

			if (depth == 1) {
				total += (uint64_t)amazons_bb_count(shots);
				continue;
			}
			while (shots != 0)
				total += amazons_perft_bb(opp, moved,
				    arrows |
				        amazons_bit(amazons_bb_pop(&shots)),
				    depth - 1);
		}
	}
	return total;
}

static uint64_t
amazons_perft(const void *st, int depth)
{
	const struct amazons_state *s = st;
	int side = (int)s->turn;

	return amazons_perft_bb(amazons_own(s, side), amazons_own(s, 1 - side),
	    amazons_bb_get(s->arrows), depth);
}

/* No options: the game always starts from the seed's opening; a saved
 * game comes in through import_file or from_position. */
static const struct rules_optdesc amazons_options[] = {
    {NULL, RULES_OPT_INT, 0, 0, NULL, NULL, NULL},
};

const struct rules_game rules_amazons = {
    .name = "amazons",
    .title = "Amazons",
    .seats = 2,
    .seat_names = {"white", "black"},
    .no_draw_offers = 1,
    .options = amazons_options,
    .notation = "amazon from-to/arrow, e.g. d1-i6/e10 (d1i6e10 also "
                "accepted, any case)",
    .file_format = "tablero.txt",
    .state_size = sizeof(struct amazons_state),
    .init = amazons_init,
    .turn = amazons_turn,
    .status = amazons_status,
    .legal_moves = amazons_legal_moves,
    .legal_from = amazons_legal_from,
    .parse_square = amazons_parse_square,
    .parse_move = amazons_parse_move,
    .format_move = amazons_format_move,
    .describe_move = amazons_describe_move,
    .apply = amazons_apply,
    .to_position = amazons_to_position,
    .from_position = amazons_from_position,
    .import_file = amazons_import_file,
    .export_file = amazons_export_file,
    .render = amazons_render,
    .board_rows = amazons_board_rows,
    .hash = amazons_hash,
    .perft = amazons_perft,
};
