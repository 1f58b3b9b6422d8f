/*
 * test_stones.c: the Stones rules against the seed: its transcript with
 * every rejected input, each illegal-move reason, perft counts, the
 * repetition draw, the no-slide rule, the `first` option, the position
 * string and the picture.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rules/games.h"
#include "rules/stones.h"

#define G (&rules_stones)

/* Longest random playout: the repetition rule ends every game within
 * 2 * 3360 slide plies plus the six placements. */
#define TEST_MAX_PLIES 7000

static unsigned char st_buf[RULES_STATE_MAX];

/* The seed's sentence for a slide that is not four characters. */
#define FOUR_CHARS                                                             \
	"Enter origin and destination positions in 4 characters, e.g., A2B1"

/* A new game with first=FIRST (and seed when it is not NULL). */
static void *
new_game(const char *first, const char *seed)
{
	struct rules_opt opts[2];
	char err[RULES_ERR_MAX] = "";
	int n = 0;

	if (first != NULL)
		opts[n++] = (struct rules_opt){"first", first};
	if (seed != NULL)
		opts[n++] = (struct rules_opt){"seed", seed};
	CHECK(rules_opts_check(G, opts, n, err, sizeof err) == 0);
	CHECK(G->init(st_buf, opts, n, err, sizeof err) == 0);
	return st_buf;
}

/* Play text, which must be legal. */
static void
play(void *st, const char *text)
{
	struct rules_move m;
	char err[RULES_ERR_MAX] = "";

	if (G->parse_move(st, text, &m, err, sizeof err) != 0) {
		printf("     move %s refused: %s\n", text, err);
		CHECK(0);
		return;
	}
	G->apply(st, m);
}

/* text must be refused with exactly reason, and the reason's code
 * (stones_check_move) must say the same sentence. */
static void
refuse(const void *st, const char *text, const char *reason)
{
	struct rules_move m;
	char err[RULES_ERR_MAX] = "", said[RULES_ERR_MAX] = "";
	enum stones_reason why = stones_check_move(st, text, &m);

	CHECK_INT(G->parse_move(st, text, &m, err, sizeof err), -1);
	CHECK_STR(err, reason);
	CHECK(why != STONES_OK);
	stones_reason_text(why, G->turn(st) + 1, said, sizeof said);
	CHECK_STR(said, reason);
}

static void
load(void *st, const char *pos)
{
	char err[RULES_ERR_MAX] = "";

	if (G->from_position(st, pos, err, sizeof err) != 0) {
		printf("     position %s refused: %s\n", pos, err);
		CHECK(0);
	}
}

static const char *
position(const void *st)
{
	static char buf[RULES_LINE_MAX];

	CHECK(G->to_position(st, buf, sizeof buf) > 0);
	return buf;
}

static void
expect_status(
    const void *st, enum rules_result result, int winner, const char *reason)
{
	struct rules_status s;

	G->status(st, &s);
	CHECK_INT(s.result, result);
	CHECK_INT(s.winner, winner);
	CHECK_STR(s.reason, reason);
}

static void
test_interface(void)
{
	CHECK(rules_find("stones") == G);
	CHECK_INT(G->seats, 2);
	CHECK_STR(G->seat_names[0], "player 1");
	CHECK_STR(G->seat_names[1], "player 2");
	/* the start is the state as made: no level start to go back to */
	CHECK(G->restart == NULL);
	CHECK_INT(G->no_draw_offers, 0);
	CHECK(G->state_size <= RULES_STATE_MAX);
	CHECK(G->init && G->turn && G->status && G->legal_moves &&
	    G->legal_from && G->parse_square && G->parse_move &&
	    G->format_move && G->describe_move && G->apply && G->to_position &&
	    G->from_position && G->render && G->board_rows && G->hash);
	CHECK(G->import_file == NULL && G->export_file == NULL);
	CHECK(G->file_format == NULL);
}

/* The seed's picture after its last move, B3B2 (player 1 wins). */
static const char seed_final_picture[] = "  1   2   3\n"
                                         "A  ---x---o\n"
                                         "  |\\  |  /|\n"
                                         "  | \\ | / |\n"
                                         "  |  \\|/  |\n"
                                         "B o---x--- \n"
                                         "  |  /|\\  |\n"
                                         "  | / | \\ |\n"
                                         "  |/  |  \\|\n"
                                         "C  ---x---o\n"
                                         "x = player 1, o = player 2; player 1 "
                                         "wins: three in a row\n";

/* The seed's example game, every rejected input with its reason. */
static void
test_transcript(void)
{
	void *st = new_game("1", NULL);
	char pic[RULES_TEXT_MAX];

	CHECK_INT(G->turn(st), 0);
	play(st, "A2");
	play(st, "C1");
	play(st, "B3");
	CHECK_INT(G->turn(st), 1);
	refuse(st, "C1", "Position taken by another peg");
	refuse(st, "0", "Not a board position");
	{
		struct rules_move m;

		CHECK_INT(stones_check_move(st, "C1", &m), STONES_R_TAKEN);
		CHECK_INT(stones_check_move(st, "0", &m), STONES_R_NOT_POINT);
		CHECK_INT(stones_check_move(st, "B2", &m), STONES_OK);
	}
	play(st, "B2");
	play(st, "C3");
	refuse(st, "A1", "Cannot complete 3-in-a-row at this stage");
	play(st, "A3");
	CHECK_STR(position(st), ".xo/.ox/x.o x x");
	CHECK_INT(G->turn(st), 0);
	refuse(st, "C1A1",
	    "Destination position is not connected to origin position");
	refuse(st, "B1A1", "Origin is not occupied by player's 1 peg");
	refuse(st, "C1B2", "Destination position is not empty");
	refuse(st, "SDKJGJSDF", FOUR_CHARS);
	play(st, "C1C2");
	play(st, "B2B1");
	refuse(st, "C3C2", "Origin is not occupied by player's 1 peg");
	expect_status(st, RULES_PLAYING, RULES_NONE, "");
	play(st, "B3B2");
	expect_status(st, RULES_WIN, 0, "three in a row");
	CHECK_INT(G->legal_moves(st, NULL, 0), 0);
	refuse(st, "A1B1", "the game is over");
	CHECK_INT(
	    G->render(st, pic, sizeof pic), (int)strlen(seed_final_picture));
	CHECK_STR(pic, seed_final_picture);
}

/* Every reason for a refused placement or slide, and notation details. */
static void
test_reasons(void)
{
	void *st = new_game("2", NULL);
	struct rules_move m;
	char err[RULES_ERR_MAX];

	CHECK_INT(G->turn(st), 1);
	refuse(st, "", "Not a board position");
	refuse(st, "A", "Not a board position");
	refuse(st, "A0", "Not a board position");
	refuse(st, "D1", "Not a board position");
	refuse(st, "A4", "Not a board position");
	refuse(st, "1A", "Not a board position");
	refuse(st, "A1 ", "Not a board position");
	refuse(st, "A1B2C", "Not a board position");
	refuse(st, "A1B1", "Not a board position");
	refuse(st, "zzzz", "Not a board position");
	play(st, "b2"); /* any case */
	play(st, "a1");
	refuse(st, "C3", "Cannot complete 3-in-a-row at this stage");
	refuse(st, "b2", "Position taken by another peg");
	play(st, "c2");
	CHECK_INT(G->turn(st), 0);
	play(st, "A2");
	play(st, "B1");
	refuse(st, "A1", "Position taken by another peg");
	play(st, "C1");
	/* o: A1 B2 C2, x: A2 B1 C1; o (player 2) slides first. */
	CHECK_STR(position(st), "ox./xo./xo. o o");
	CHECK_INT(G->turn(st), 1);
	refuse(st, "A1", FOUR_CHARS);
	refuse(st, "A1A2B", FOUR_CHARS);
	refuse(st, "F34H", "Origin is not a board position");
	refuse(st, "B2D4", "Destination is not a board position");
	refuse(st, "A2A3", "Origin is not occupied by player's 2 peg");
	refuse(st, "A3B3", "Origin is not occupied by player's 2 peg");
	refuse(st, "B2B2", "Destination position is not empty");
	refuse(st, "A1B1", "Destination position is not empty");
	refuse(st, "A1B3",
	    "Destination position is not connected to origin position");
	refuse(st, "C2A3",
	    "Destination position is not connected to origin position");
	CHECK_INT(G->parse_move(st, "c2c3", &m, err, sizeof err), 0);
	CHECK_INT(m.from, 7);
	CHECK_INT(m.to, 8);
	CHECK_INT(m.arg, RULES_NONE);
	CHECK_INT(G->parse_move(st, "b2A3", &m, err, sizeof err), 0);
	CHECK_INT(m.from, 4);
	CHECK_INT(m.to, 2);
}

/* Moves from one point: along rows, columns and the diagonals through B2
 * only. */
static void
test_lines(void)
{
	void *st = new_game("1", NULL);
	struct rules_move mv[RULES_MAX_MOVES];

	/* x: A2 B1 C3, o: A1 C1 C2; x to move, A3 B2 B3 empty. */
	load(st, "ox./x../oox x x");
	refuse(st, "A2B3",
	    "Destination position is not connected to origin position");
	refuse(st, "B1A2", "Destination position is not empty");
	CHECK_INT(G->legal_from(st, 1, mv, RULES_MAX_MOVES), 2); /* A3 B2 */
	CHECK_INT(G->legal_from(st, 3, mv, RULES_MAX_MOVES), 1); /* B2 */
	CHECK_INT(mv[0].from, 3);
	CHECK_INT(mv[0].to, 4);
	CHECK_INT(G->legal_from(st, 8, mv, RULES_MAX_MOVES), 2); /* B3 B2 */
	CHECK_INT(G->legal_from(st, 0, mv, RULES_MAX_MOVES), 0); /* o's */
	CHECK_INT(G->legal_from(st, 5, mv, RULES_MAX_MOVES), 0); /* empty */
	CHECK_INT(G->legal_from(st, 9, mv, RULES_MAX_MOVES), 0);
	CHECK_INT(G->legal_from(st, -1, mv, RULES_MAX_MOVES), 0);
	CHECK_INT(G->legal_moves(st, mv, RULES_MAX_MOVES), 5);
	CHECK_INT(G->legal_moves(st, mv, 3), 3); /* never past max */
	/* In the placement phase: the one placement on that point. */
	new_game("1", NULL);
	CHECK_INT(G->legal_from(st, 4, mv, RULES_MAX_MOVES), 1);
	CHECK_INT(mv[0].from, RULES_NONE);
	CHECK_INT(mv[0].to, 4);
	play(st, "A1");
	play(st, "B2");
	CHECK_INT(G->legal_from(st, 8, mv, RULES_MAX_MOVES), 0);
	CHECK_INT(G->legal_from(st, 0, mv, RULES_MAX_MOVES), 0);
	CHECK_INT(G->legal_moves(st, mv, RULES_MAX_MOVES), 6);
}

/* Slides into each of the eight lines: rows, columns and diagonals. */
static void
test_each_line(void)
{
	static const struct {
		const char *pos, *move;
	} wins[] = {
	    {"x.x/oxo/o.. x x", "B2A2"}, /* row A */
	    {"o.o/x.x/ox. x x", "C2B2"}, /* row B */
	    {"o.o/ox./x.x x x", "B2C2"}, /* row C */
	    {"xo./.xo/xo. x x", "B2B1"}, /* column 1 */
	    {"ox./o.x/.xo x x", "B3B2"}, /* column 2 */
	    {"o.x/ox./.ox x x", "B2B3"}, /* column 3 */
	    {"xo./o.x/.ox x x", "B3B2"}, /* A1-B2-C3 */
	    {"o.x/x.o/xo. x x", "B1B2"}, /* A3-B2-C1 */
	};
	void *st = new_game("1", NULL);
	size_t i;

	for (i = 0; i < sizeof wins / sizeof wins[0]; i++) {
		load(st, wins[i].pos);
		expect_status(st, RULES_PLAYING, RULES_NONE, "");
		play(st, wins[i].move);
		expect_status(st, RULES_WIN, 0, "three in a row");
	}
}

static void
test_perft(void)
{
	static const uint64_t want[] = {1, 9, 72, 456, 2736, 13680, 49392};
	void *st;
	int d;

	st = new_game("1", NULL);
	for (d = 0; d <= 6; d++)
		CHECK_U64(rules_perft(G, st, d), want[d]);
	st = new_game("2", NULL);
	CHECK_U64(rules_perft(G, st, 6), 49392);
}

/* perft at depth d equals the sum of perft at d-1 over the moves. */
static void
check_perft_split(const char *pos, int depth, uint64_t want)
{
	unsigned char root[RULES_STATE_MAX], child[RULES_STATE_MAX];
	struct rules_move mv[RULES_MAX_MOVES];
	uint64_t sum = 0;
	int i, n;

	new_game("1", NULL);
	if (pos != NULL)
		load(st_buf, pos);
	memcpy(root, st_buf, G->state_size);
	n = G->legal_moves(root, mv, RULES_MAX_MOVES);
	for (i = 0; i < n; i++) {
		memcpy(child, root, G->state_size);
		G->apply(child, mv[i]);
		sum += rules_perft(G, child, depth - 1);
	}
	CHECK_U64(sum, rules_perft(G, root, depth));
	CHECK_U64(sum, want);
}

static void
test_perft_deeper(void)
{
	/* Counts cross-checked with an independent implementation; the
	 * slide-phase ones include games drawn by repetition. */
	check_perft_split(NULL, 8, 705312);
	check_perft_split(".xo/.ox/x.o x x", 8, 39973);
	check_perft_split(".xo/.ox/x.o x x", 10, 543075);
	check_perft_split("x.x/..x/... o x", 9, 260826);
}

/* Slides C1B1, C3C2, B1C1, C2C3: back where it started. */
static void
cycle(void *st)
{
	play(st, "C1B1");
	play(st, "C3C2");
	play(st, "B1C1");
	play(st, "C2C3");
}

static void
test_repetition(void)
{
	static const char *const triangle[12] = {
	    "A1A2",
	    "B3C3",
	    "A2B2",
	    "C3B3",
	    "B2A1",
	    "B3C3",
	    "A1A2",
	    "C3B3",
	    "A2B2",
	    "B3C3",
	    "B2A1",
	    "C3B3",
	};
	void *st = new_game("1", NULL);
	int i;

	/* The position after the last placement is its first occurrence. */
	play(st, "A2");
	play(st, "C1");
	play(st, "B3");
	play(st, "B2");
	play(st, "C3");
	play(st, "A3");
	cycle(st); /* second occurrence */
	expect_status(st, RULES_PLAYING, RULES_NONE, "");
	play(st, "C1B1");
	play(st, "C3C2");
	play(st, "B1C1");
	expect_status(st, RULES_PLAYING, RULES_NONE, "");
	play(st, "C2C3"); /* third */
	expect_status(st, RULES_DRAW, RULES_NONE, "third repetition");
	CHECK_INT(G->legal_moves(st, NULL, 0), 0);
	refuse(st, "C1B1", "the game is over");

	/* A loaded position is the first occurrence; loading again forgets
	 * the history. */
	load(st, ".xo/.ox/x.o x x");
	cycle(st);
	load(st, ".xo/.ox/x.o x x");
	cycle(st);
	expect_status(st, RULES_PLAYING, RULES_NONE, "");
	cycle(st);
	expect_status(st, RULES_DRAW, RULES_NONE, "third repetition");

	/* x turns a peg round the triangle A1 A2 B2 while o steps between
	 * B3 and C3: the board comes back after 5 plies with o to move,
	 * which is another position; with x to move only every 12 plies. */
	load(st, "x.o/o.o/xx. x x");
	for (i = 0; i < 23; i++) {
		play(st, triangle[i % 12]);
		expect_status(st, RULES_PLAYING, RULES_NONE, "");
		if (i % 12 == 4)
			CHECK_STR(position(st), "x.o/o.o/xx. o x");
	}
	play(st, triangle[23 % 12]);
	CHECK_STR(position(st), "x.o/o.o/xx. x x");
	expect_status(st, RULES_DRAW, RULES_NONE, "third repetition");
}

/* The board's sixteen links, written out independently of the rules. */
static const char *const links[] = {
    "A1A2", "A2A3", "B1B2", "B2B3", "C1C2", "C2C3", /* rows */
    "A1B1", "B1C1", "A2B2", "B2C2", "A3B3", "B3C3", /* columns */
    "A1B2", "B2C3", "A3B2", "B2C1",                 /* diagonals */
};

static int
linked(int p, int q)
{
	char a[5], b[5];
	size_t i;

	snprintf(a, sizeof a, "%c%c%c%c", 'A' + p / 3, '1' + p % 3, 'A' + q / 3,
	    '1' + q % 3);
	snprintf(b, sizeof b, "%c%c%c%c", 'A' + q / 3, '1' + q % 3, 'A' + p / 3,
	    '1' + p % 3);
	for (i = 0; i < sizeof links / sizeof links[0]; i++)
		if (strcmp(links[i], a) == 0 || strcmp(links[i], b) == 0)
			return 1;
	return 0;
}

/* Every slide position: a slide is accepted exactly along a link to an
 * empty point; and a side to move with no slide only ever happens when
 * the other side already has three in a row (eight positions), so the
 * "no move" rule is never what ends a game. */
static void
test_all_slide_positions(void)
{
	struct rules_move m;
	struct rules_status s;
	char pos[32], err[RULES_ERR_MAX], text[8];
	int code, turn, p, q, loaded = 0, blocked = 0;

	new_game("1", NULL);
	for (code = 0; code < 19683; code++) { /* 3^9 boards */
		int c = code, nx = 0, no = 0, k = 0, moves = 0;

		for (p = 0; p < 9; p++, c /= 3) {
			if (p > 0 && p % 3 == 0)
				pos[k++] = '/';
			pos[k++] = ".xo"[c % 3];
			nx += c % 3 == 1;
			no += c % 3 == 2;
		}
		if (nx != 3 || no != 3)
			continue;
		for (turn = 0; turn < 2; turn++) {
			snprintf(pos + k, sizeof pos - (size_t)k, " %c x",
			    "xo"[turn]);
			if (G->from_position(st_buf, pos, err, sizeof err) != 0)
				continue;
			loaded++;
			G->status(st_buf, &s);
			moves = 0;
			for (p = 0; p < 9; p++) {
				if (pos[p + p / 3] != "xo"[turn])
					continue;
				for (q = 0; q < 9; q++)
					moves += pos[q + q / 3] == '.' &&
					    linked(p, q);
			}
			if (moves == 0) {
				blocked++;
				CHECK_INT(s.result, RULES_WIN);
				CHECK_INT(s.winner, 1 - turn);
				CHECK_STR(s.reason, "three in a row");
			}
			if (s.result != RULES_PLAYING)
				continue;
			CHECK_INT(G->legal_moves(st_buf, NULL, 0), 0);
			CHECK_INT(G->legal_moves(st_buf, &m, 1), 1);
			for (p = 0; p < 9; p++) {
				for (q = 0; q < 9; q++) {
					int ok;

					snprintf(text, sizeof text, "%c%c%c%c",
					    'a' + p / 3, '1' + p % 3,
					    'a' + q / 3, '1' + q % 3);
					ok = G->parse_move(st_buf, text, &m,
					         err, sizeof err) == 0;
					CHECK_INT(ok,
					    pos[p + p / 3] == "xo"[turn] &&
					        pos[q + q / 3] == '.' &&
					        linked(p, q));
				}
			}
		}
	}
	/* 84 * 20 boards, two sides to move, less those where the side to
	 * move has a line. */
	CHECK(loaded > 3000 && loaded < 3360);
	CHECK_INT(blocked, 8);
}

static void
test_first_option(void)
{
	char a[RULES_LINE_MAX], b[RULES_LINE_MAX];
	int seed, seen[2] = {0, 0};
	char text[16];
	struct rules_opt bad = {"first", "3"};
	char err[RULES_ERR_MAX];

	new_game("1", NULL);
	CHECK_INT(G->turn(st_buf), 0);
	CHECK_STR(position(st_buf), ".../.../... x x");
	new_game("2", NULL);
	CHECK_INT(G->turn(st_buf), 1);
	CHECK_STR(position(st_buf), ".../.../... o o");
	new_game(NULL, NULL); /* random with the fixed seed */
	strcpy(a, position(st_buf));
	new_game("random", "1");
	CHECK_STR(position(st_buf), a);
	for (seed = 0; seed < 64; seed++) {
		snprintf(text, sizeof text, "%d", seed);
		new_game("random", text);
		strcpy(a, position(st_buf));
		seen[G->turn(st_buf)]++;
		new_game(NULL, text);
		strcpy(b, position(st_buf));
		CHECK_STR(a, b);
	}
	CHECK(seen[0] > 0 && seen[1] > 0);
	CHECK_INT(rules_opts_check(G, &bad, 1, err, sizeof err), -1);
	bad = (struct rules_opt){"seed", "-1"};
	CHECK_INT(rules_opts_check(G, &bad, 1, err, sizeof err), -1);
	bad = (struct rules_opt){"seed", "2147483647"};
	CHECK_INT(rules_opts_check(G, &bad, 1, err, sizeof err), 0);
	CHECK_INT(G->init(st_buf, &bad, 1, err, sizeof err), 0);
}

static void
test_positions(void)
{
	static const char *const good[] = {
	    ".../.../... x x", ".../.../... o o", "x../.../... x x",
	    "xx./.../... x x", "xx./x../... o x", "xxo/x../... o x",
	    "xxo/x../o.. o x", "oo./o../x.. x o", ".xo/.ox/x.o x x",
	    ".xo/.ox/x.o o x", ".xo/.ox/x.o o o", "o.o/x.x/ox. x x",
	    "ooo/xx./.x. x o", /* o has won */
	    "xxx/oo./..o o x", /* x has won */
	    "xo./oxo/..x o o", /* x has won on the diagonal */
	};
	static const struct {
		const char *text, *reason;
	} bad[] = {
	    {"", "point A1 must be x, o or . at character 1"},
	    {".../.../...",
	        "expected a space after the board at character "
	        "12"},
	    {".../.../... ", "side to move (character 13) must be x or o"},
	    {".../.../... x",
	        "expected a space after the side to move at "
	        "character 14"},
	    {".../.../... x ",
	        "who placed first (character 15) must be x or "
	        "o"},
	    {".../.../... x x ",
	        "unexpected text after the position at "
	        "character 16"},
	    {".../.../... xx",
	        "expected a space after the side to move at "
	        "character 14"},
	    {"..../.../... x x", "expected '/' before row B at character 4"},
	    {"../.../... x x", "point A3 must be x, o or . at character 3"},
	    {".../.X./... x x", "point B2 must be x, o or . at character 6"},
	    {".../.../... X x", "side to move (character 13) must be x or o"},
	    {".../.../... x 1",
	        "who placed first (character 15) must be x or "
	        "o"},
	    {"...,.../... x x", "expected '/' before row B at character 4"},
	    {"xxx/x../... o x", "x has more than 3 pegs"},
	    {"xx./.../... o x", "x is to place next, not o"},
	    {"xxo/x../... x x", "o is to place next, not x"},
	    {"xo./.../... x x",
	        "o has pegs before x, who places first, has "
	        "placed all three"},
	    {"xxx/.../... o x", "x has three in a row while placing"},
	    {"xxx/oo./..o x x",
	        "x is to move but already has three in a "
	        "row"},
	    {"ooo/xx./.x. o o",
	        "o is to move but already has three in a "
	        "row"},
	};
	char err[RULES_ERR_MAX];
	size_t i;

	new_game("1", NULL);
	for (i = 0; i < sizeof good / sizeof good[0]; i++) {
		load(st_buf, good[i]);
		CHECK_STR(position(st_buf), good[i]);
	}
	load(st_buf, "xxx/oo./..o o x");
	expect_status(st_buf, RULES_WIN, 0, "three in a row");
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		memset(err, 0, sizeof err);
		CHECK_INT(
		    G->from_position(st_buf, bad[i].text, err, sizeof err), -1);
		CHECK_STR(err, bad[i].reason);
	}
	/* A refused string leaves the game as it was. */
	load(st_buf, ".xo/.ox/x.o o x");
	CHECK_INT(G->from_position(st_buf, "junk", err, sizeof err), -1);
	CHECK_STR(position(st_buf), ".xo/.ox/x.o o x");
	{
		char tiny[15];

		CHECK_INT(G->to_position(st_buf, tiny, sizeof tiny), -1);
	}
}

static void
test_text(void)
{
	void *st = new_game("1", NULL);
	struct rules_move m = {RULES_NONE, 1, RULES_NONE};
	char buf[RULES_TEXT_MAX], err[RULES_ERR_MAX];
	int sq;

	G->format_move(st, m, buf, sizeof buf);
	CHECK_STR(buf, "A2");
	G->describe_move(st, m, buf, sizeof buf);
	CHECK_STR(buf, "player 1 places a peg on A2");
	CHECK_INT(G->board_rows(st, buf, sizeof buf), 12);
	CHECK_STR(buf, "...\n...\n...\n");
	CHECK(G->render(st, buf, sizeof buf) > 0);
	CHECK_STR(buf,
	    "  1   2   3\n"
	    "A  --- --- \n"
	    "  |\\  |  /|\n"
	    "  | \\ | / |\n"
	    "  |  \\|/  |\n"
	    "B  --- --- \n"
	    "  |  /|\\  |\n"
	    "  | / | \\ |\n"
	    "  |/  |  \\|\n"
	    "C  --- --- \n"
	    "x = player 1, o = player 2; player 1 to place peg no. "
	    "1\n");
	CHECK_INT(G->render(st, buf, 50), -1);
	load(st, ".xo/.ox/x.o o x");
	m = (struct rules_move){4, 3, RULES_NONE};
	G->format_move(st, m, buf, sizeof buf);
	CHECK_STR(buf, "B2B1");
	G->describe_move(st, m, buf, sizeof buf);
	CHECK_STR(buf, "player 2 slides B2 to B1");
	CHECK_INT(G->board_rows(st, buf, sizeof buf), 12);
	CHECK_STR(buf, ".xo\n.ox\nx.o\n");
	CHECK_INT(G->board_rows(st, buf, 12), -1);
	CHECK(G->render(st, buf, sizeof buf) > 0);
	CHECK(strstr(buf, "B  ---o---x\n") != NULL);
	CHECK(strstr(buf, "; player 2 to move\n") != NULL);
	load(st, ".xo/.ox/x.o x x");
	play(st, "C1B1");
	play(st, "C3C2");
	play(st, "B1C1");
	play(st, "C2C3");
	play(st, "C1B1");
	play(st, "C3C2");
	play(st, "B1C1");
	play(st, "C2C3");
	CHECK(G->render(st, buf, sizeof buf) > 0);
	CHECK(strstr(buf, "; draw: third repetition\n") != NULL);

	CHECK_INT(G->parse_square(st, "c3", &sq, err, sizeof err), 0);
	CHECK_INT(sq, 8);
	CHECK_INT(G->parse_square(st, "A1", &sq, err, sizeof err), 0);
	CHECK_INT(sq, 0);
	CHECK_INT(G->parse_square(st, "A1x", &sq, err, sizeof err), -1);
	CHECK_STR(err, "Not a board position");
	CHECK_INT(G->parse_square(st, "d1", &sq, err, sizeof err), -1);
}

static void
test_hash(void)
{
	unsigned char a[RULES_STATE_MAX];
	void *st = new_game("1", NULL);

	play(st, "A2");
	play(st, "C1");
	memcpy(a, st, G->state_size);
	new_game("1", NULL);
	play(st, "C1");
	play(st, "A2");
	CHECK_U64(G->hash(st), G->hash(a));
	load(st, ".xo/.ox/x.o x x");
	memcpy(a, st, G->state_size);
	load(st, ".xo/.ox/x.o o x");
	CHECK(G->hash(st) != G->hash(a));
	load(st, ".xo/.ox/x.o x o");
	CHECK(G->hash(st) != G->hash(a));
}

/* Random games: each legal move formats and parses back to itself, every
 * slide or placement text is accepted exactly when it is legal, and the
 * position string round-trips. */
static void
test_random_games(void)
{
	struct rules_move mv[RULES_MAX_MOVES], m;
	unsigned char copy[RULES_STATE_MAX];
	char text[8], err[RULES_ERR_MAX], pos[RULES_LINE_MAX];
	struct rules_rng rng;
	struct rules_status s;
	int game, ply, i, n, a, b, ended = 0;

	rules_rng_seed(&rng, 42);
	for (game = 0; game < 200; game++) {
		new_game("random", game % 2 ? "7" : "8");
		for (ply = 0; ply < TEST_MAX_PLIES; ply++) {
			n = G->legal_moves(st_buf, mv, RULES_MAX_MOVES);
			G->status(st_buf, &s);
			CHECK_INT(n > 0, s.result == RULES_PLAYING);
			if (n == 0) {
				ended++;
				break;
			}
			for (i = 0; i < n; i++) {
				G->format_move(
				    st_buf, mv[i], text, sizeof text);
				CHECK_INT(G->parse_move(st_buf, text, &m, err,
				              sizeof err),
				    0);
				CHECK(memcmp(&m, &mv[i], sizeof m) == 0);
			}
			for (a = 0; a < 9 && game < 20; a++) {
				for (b = 0; b < 9; b++) {
					struct rules_move want = {
					    (int16_t)a, (int16_t)b, RULES_NONE};
					int ok, legal = 0;

					if (mv[0].from == RULES_NONE) {
						want.from = RULES_NONE;
						want.to = (int16_t)(a * 9 + b);
						if (want.to >= 9)
							break;
						snprintf(text, sizeof text,
						    "%c%c", 'A' + b / 3,
						    '1' + b % 3);
					} else {
						snprintf(text, sizeof text,
						    "%c%c%c%c", 'A' + a / 3,
						    '1' + a % 3, 'A' + b / 3,
						    '1' + b % 3);
					}
					ok = G->parse_move(st_buf, text, &m,
					         err, sizeof err) == 0;
					for (i = 0; i < n; i++)
						legal |= memcmp(&want, &mv[i],
						             sizeof want) == 0;
					CHECK_INT(ok, legal);
					if (ok)
						CHECK(memcmp(&m, &want,
						          sizeof m) == 0);
				}
			}
			CHECK(G->to_position(st_buf, pos, sizeof pos) > 0);
			memcpy(copy, st_buf, G->state_size);
			CHECK_INT(
			    G->from_position(copy, pos, err, sizeof err), 0);
			CHECK_U64(G->hash(copy), G->hash(st_buf));
			G->apply(
			    st_buf, mv[rules_rng_below(&rng, (unsigned)n)]);
		}
	}
	CHECK_INT(ended, 200);
}

int
main(void)
{
	test_interface();
	test_transcript();
	test_reasons();
	test_lines();
	test_each_line();
	test_perft();
	test_perft_deeper();
	test_repetition();
	test_all_slide_positions();
	test_first_option();
	test_positions();
	test_text();
	test_hash();
	test_random_games();
	return check_done();
}
