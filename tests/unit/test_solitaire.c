/*
 * test_solitaire.c: peg solitaire's rules (jumps, the end of the game,
 * every illegal-move reason), the board file format and its errors, the
 * position string, the pictures, the backward generator, and the solver,
 * cross-checked against a plain search through the rules interface.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ai/ai.h"
#include "check.h"
#include "rules/games.h"
#include "rules/solitaire.h"

static const struct rules_game *G = &rules_solitaire;

#define ENGLISH_POS                                                            \
	"7x7:##ooo##/##ooo##/ooooooo/ooo.ooo/ooooooo/##ooo##/##ooo## "         \
	"goal=4,4"
#define EXAMPLE_POS "6x6:######/.ooo##/oo#o##/.o..##/o.oooo/###o## goal=3,4"
#define EXAMPLE_FILE                                                           \
	"6 6\n0 0 0 0 0 0\n1 2 2 2 0 0\n2 2 0 2 0 0\n1 2 1 1 0 0\n2 1 2 2 2 "  \
	"2\n0 0 0 2 0 0\n2 3\n"

/* A game made by init with one option (or none when key is NULL). */
static int
make(struct solitaire_state *s, const char *key, const char *value, char *err)
{
	struct rules_opt o = {key, value};
	int n = key != NULL;

	err[0] = '\0';
	if (rules_opts_check(G, &o, n, err, RULES_ERR_MAX) != 0)
		return -1;
	return G->init(s, &o, n, err, RULES_ERR_MAX);
}

static void
load(struct solitaire_state *s, const char *pos)
{
	char err[RULES_ERR_MAX];

	CHECK_INT(make(s, NULL, NULL, err), 0);
	CHECK_INT(G->from_position(s, pos, err, sizeof err), 0);
}

static const char *
position(const struct solitaire_state *s)
{
	static char buf[RULES_LINE_MAX];

	G->to_position(s, buf, sizeof buf);
	return buf;
}

/* The reason a move is refused ("" when it is legal). */
static const char *
refusal(const struct solitaire_state *s, const char *text)
{
	static char err[RULES_ERR_MAX];
	struct rules_move m;

	if (G->parse_move(s, text, &m, err, sizeof err) == 0)
		return "";
	return err;
}

/* Play a move given in notation; 0 when it was legal. */
static int
play(struct solitaire_state *s, const char *text)
{
	char err[RULES_ERR_MAX];
	struct rules_move m;

	if (G->parse_move(s, text, &m, err, sizeof err) != 0) {
		printf("     %s: %s\n", text, err);
		return -1;
	}
	G->apply(s, m);
	return 0;
}

static void
test_descriptor(void)
{
	const struct rules_optdesc *o;
	int n = 0;

	CHECK(rules_find("solitaire") == G);
	CHECK_INT(G->seats, 1);
	CHECK_STR(G->seat_names[0], "player");
	CHECK_STR(G->file_format, "board file");
	CHECK(G->state_size == sizeof(struct solitaire_state));
	CHECK(G->state_size <= RULES_STATE_MAX);
	for (o = G->options; o->name != NULL; o++)
		n++;
	CHECK_INT(n, 6);
	CHECK(G->init && G->turn && G->status && G->legal_moves &&
	    G->legal_from && G->parse_square && G->parse_move &&
	    G->format_move && G->describe_move && G->apply && G->to_position &&
	    G->from_position && G->import_file && G->export_file && G->render &&
	    G->board_rows && G->hash);
	/* the start is the state as made: no level start to go back to */
	CHECK(G->restart == NULL);
}

/* A board that is over before the first move (issue 13: a restart into
 * it must end the game): the rules' status says so from the position. */
static void
test_blocked_start(void)
{
	struct solitaire_state s;
	struct rules_status st;
	char err[RULES_ERR_MAX];

	CHECK_INT(make(&s, "file", "3 3\n0 0 0\n0 2 1\n0 0 0\n1 2\n", err), 0);
	rules_status(G, &s, &st);
	CHECK_INT(st.result, RULES_BLOCKED);
	CHECK_INT(st.nscores, 1);
	CHECK_INT(st.score[0], 1);
	CHECK(st.reason != NULL && st.reason[0] != '\0');
	CHECK_INT(G->legal_moves(&s, NULL, 0), 0);
	/* one peg, on the goal: solved before the first move */
	CHECK_INT(make(&s, "file", "1 3 1 1 2 0 2", err), 0);
	rules_status(G, &s, &st);
	CHECK_INT(st.result, RULES_SOLVED);
}

static void
test_english(void)
{
	struct solitaire_state s;
	struct rules_status st;
	struct rules_move mv[RULES_MAX_MOVES];
	char err[RULES_ERR_MAX], buf[RULES_LINE_MAX];
	int n;

	CHECK_INT(make(&s, NULL, NULL, err), 0);
	CHECK_STR(position(&s), ENGLISH_POS);
	CHECK_INT(G->turn(&s), 0);
	G->status(&s, &st);
	CHECK_INT(st.result, RULES_PLAYING);
	CHECK_STR(st.reason, "");
	CHECK_INT(st.nscores, 1);
	CHECK_INT(st.score[0], 32);
	CHECK_INT(st.winner, RULES_NONE);
	n = G->legal_moves(&s, mv, RULES_MAX_MOVES);
	CHECK_INT(n, 4);
	/* cell by cell from the top: 2,4 down, 4,2 right, 4,6 left, 6,4 up */
	G->format_move(&s, mv[0], buf, sizeof buf);
	CHECK_STR(buf, "2,4 down");
	G->format_move(&s, mv[1], buf, sizeof buf);
	CHECK_STR(buf, "4,2 right");
	G->format_move(&s, mv[2], buf, sizeof buf);
	CHECK_STR(buf, "4,6 left");
	G->format_move(&s, mv[3], buf, sizeof buf);
	CHECK_STR(buf, "6,4 up");
	CHECK_INT(mv[0].from, 1 * 7 + 3);
	CHECK_INT(mv[0].to, 3 * 7 + 3);
	CHECK_INT(mv[0].arg, RULES_NONE);
	CHECK_U64(rules_perft(G, &s, 1), 4);
	CHECK_U64(rules_perft(G, &s, 2), 12);
	CHECK_U64(rules_perft(G, &s, 3), 60);
	CHECK_U64(rules_perft(G, &s, 4), 400);
	CHECK_U64(rules_perft(G, &s, 5), 2960);
}

/* The seed's own walk through its 6x6 example. */
static void
test_example(void)
{
	struct solitaire_state s;
	struct rules_move m, mv[8];
	char err[RULES_ERR_MAX], buf[RULES_TEXT_MAX];
	int sq;

	CHECK_INT(make(&s, "board", "example", err), 0);
	CHECK_STR(position(&s), EXAMPLE_POS);
	/* the goal is at (3, 4) as players count */
	CHECK_INT(G->parse_square(&s, "3,4", &sq, err, sizeof err), 0);
	CHECK_INT(sq, s.goal);
	CHECK_INT(s.goal, 2 * 6 + 3);
	G->board_rows(&s, buf, sizeof buf);
	CHECK_STR(buf, "######\n.ooo##\noo#@##\n.o..##\no.oooo\n###o##\n");
	G->render(&s, buf, sizeof buf);
	CHECK_STR(buf,
	    "   1  2  3  4  5  6\n"
	    " 1 #  #  #  #  #  #\n"
	    " 2 .  o  o  o  #  #\n"
	    " 3 o  o  # [o] #  #\n"
	    " 4 .  o  .  .  #  #\n"
	    " 5 o  .  o  o  o  o\n"
	    " 6 #  #  #  o  #  #\n"
	    "o peg, . empty hole, # no hole, [ ] the goal; 13 pegs "
	    "left\n");
	/* (2, 4) has one jump: naming the peg plays it */
	CHECK_INT(G->parse_move(&s, "2,4", &m, err, sizeof err), 0);
	G->describe_move(&s, m, buf, sizeof buf);
	CHECK_STR(buf, "peg 2,4 jumps down over 3,4 to 4,4");
	G->apply(&s, m);
	G->board_rows(&s, buf, sizeof buf);
	CHECK_STR(buf, "######\n.oo.##\noo#G##\n.o.o##\no.oooo\n###o##\n");
	/* (5, 4) can go up or left: the player must choose */
	CHECK_STR(refusal(&s, "5,4"),
	    "the peg at 5,4 can jump up or left: say which");
	CHECK_INT(G->parse_square(&s, "5,4", &sq, err, sizeof err), 0);
	CHECK_INT(G->legal_from(&s, sq, mv, 8), 2);
	G->format_move(&s, mv[0], buf, sizeof buf);
	CHECK_STR(buf, "5,4 up");
	G->format_move(&s, mv[1], buf, sizeof buf);
	CHECK_STR(buf, "5,4 left");
	/* option 2, left: (5, 3) is emptied */
	CHECK_INT(G->parse_move(&s, "5,4 left", &m, err, sizeof err), 0);
	CHECK_INT(m.from, mv[1].from);
	CHECK_INT(m.to, mv[1].to);
	G->describe_move(&s, m, buf, sizeof buf);
	CHECK_STR(buf, "peg 5,4 jumps left over 5,3 to 5,2");
	G->apply(&s, m);
	G->board_rows(&s, buf, sizeof buf);
	CHECK_STR(buf, "######\n.oo.##\noo#G##\n.o.o##\noo..oo\n###o##\n");
	CHECK_INT(s.pegs, 11);
	CHECK_INT(G->legal_from(&s, 0, mv, 8), 0);
	CHECK_INT(G->legal_from(&s, -1, mv, 8), 0);
	CHECK_INT(G->legal_from(&s, 36, mv, 8), 0);
}

static void
test_notation(void)
{
	struct solitaire_state s;
	struct rules_move m;
	char err[RULES_ERR_MAX];
	int sq;

	CHECK_INT(make(&s, "board", "example", err), 0);
	/* the ways to write the one jump of (2, 4) */
	CHECK_STR(refusal(&s, "2,4 down"), "");
	CHECK_STR(refusal(&s, "2,4 d"), "");
	CHECK_STR(refusal(&s, "2,4 D"), "");
	CHECK_STR(refusal(&s, "2,4 DOWN"), "");
	CHECK_STR(refusal(&s, "  2 , 4   Down  "), "");
	CHECK_STR(refusal(&s, "2,4down"), "");
	CHECK_STR(refusal(&s, "02,04 down"), "");
	CHECK_INT(G->parse_move(&s, "2 ,4 d", &m, err, sizeof err), 0);
	CHECK_INT(m.from, 9);
	CHECK_INT(m.to, 21);
	/* every reason */
	CHECK_STR(refusal(&s, "2,1"), "no peg at 2,1");
	CHECK_STR(refusal(&s, "1,1 down"), "no peg at 1,1");
	CHECK_STR(refusal(&s, "2,2"), "the peg at 2,2 cannot move");
	CHECK_STR(refusal(&s, "2,2 right"), "the peg at 2,2 cannot move");
	CHECK_STR(refusal(&s, "2,4 left"), "2,4 cannot jump left");
	CHECK_STR(refusal(&s, "2,4 up"), "2,4 cannot jump up");
	CHECK_STR(refusal(&s, "11,1"), "not a cell of this board: 11,1");
	CHECK_STR(refusal(&s, "7,1 up"), "not a cell of this board: 7,1");
	CHECK_STR(refusal(&s, "1,7"), "not a cell of this board: 1,7");
	CHECK_STR(refusal(&s, "0,3"), "not a cell of this board: 0,3");
	CHECK_STR(refusal(&s, "99999999999999999999,1"),
	    "not a cell of this board: 999999999999...,1");
	CHECK_STR(refusal(&s, "3,4 north"),
	    "'north' is not a direction: say up, down, left or right");
	CHECK_STR(refusal(&s, "3,4 upp"),
	    "'upp' is not a direction: say up, down, left or right");
	static const char *const bad[] = {"", "   ", "up", "3", "3,", ",4",
	    "3;4 up", "3,4,5", "3,4 up down", "3,4 up!", "3 4 up", "-3,4",
	    "3,4 2", "3,4\xff", "a,b"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		CHECK_STR(refusal(&s, bad[i]),
		    "malformed move: expected like 3,4 up");
	/* a plus of pegs: its centre can jump four ways, the others none */
	load(&s, "5x5:...../..o../.ooo./..o../..... goal=3,3");
	CHECK_STR(refusal(&s, "3,3"),
	    "the peg at 3,3 can jump up, down, left or right: say which");
	CHECK_STR(refusal(&s, "2,3"), "the peg at 2,3 cannot move");
	CHECK_STR(refusal(&s, "3,2 left"), "the peg at 3,2 cannot move");
	/* three ways */
	load(&s, "5x5:...../..o../.oo../..o../..... goal=3,3");
	CHECK_STR(refusal(&s, "3,3"),
	    "the peg at 3,3 can jump up, down or left: say which");
	CHECK_STR(refusal(&s, "3,3 right"), "3,3 cannot jump right");
	CHECK_STR(refusal(&s, "3,3 l"), "");
	/* one way each */
	load(&s, "5x5:..o../..o../oo.oo/..o../..o.. goal=3,3");
	CHECK_STR(refusal(&s, "3,3"), "no peg at 3,3");
	CHECK_STR(refusal(&s, "1,3"), "");
	CHECK_STR(refusal(&s, "3,1"), "");
	CHECK_STR(refusal(&s, "3,5"), "");
	CHECK_STR(refusal(&s, "5,3"), "");
	CHECK_STR(refusal(&s, "2,3"), "the peg at 2,3 cannot move");
	/* squares */
	CHECK_INT(G->parse_square(&s, "3,4", &sq, err, sizeof err), 0);
	CHECK_INT(sq, 13);
	CHECK_INT(G->parse_square(&s, " 5 , 5 ", &sq, err, sizeof err), 0);
	CHECK_INT(sq, 24);
	CHECK_INT(G->parse_square(&s, "6,1", &sq, err, sizeof err), -1);
	CHECK_STR(err, "not a cell of this board: 6,1");
	CHECK_INT(G->parse_square(&s, "3,4 up", &sq, err, sizeof err), -1);
	CHECK_STR(err, "malformed cell: expected like 3,4");
	CHECK_INT(G->parse_square(&s, "", &sq, err, sizeof err), -1);
	CHECK_STR(err, "malformed cell: expected like 3,4");
}

static void
test_status(void)
{
	struct solitaire_state s;
	struct rules_status st;
	struct rules_move mv[8];

	/* one peg left, on the goal */
	load(&s, "1x3:oo. goal=1,3");
	CHECK_INT(play(&s, "1,1"), 0);
	G->status(&s, &st);
	CHECK_INT(st.result, RULES_SOLVED);
	CHECK_STR(st.reason, "one peg left on the goal");
	CHECK_INT(st.score[0], 1);
	CHECK_INT(st.winner, RULES_NONE);
	CHECK_INT(G->legal_moves(&s, mv, 8), 0);
	CHECK_STR(
	    refusal(&s, "1,3"), "the game is over: one peg left on the goal");
	CHECK_STR(refusal(&s, "x"), "malformed move: expected like 3,4 up");
	/* one peg left, elsewhere */
	load(&s, "1x3:.oo goal=1,3");
	CHECK_INT(play(&s, "1,3 left"), 0);
	G->status(&s, &st);
	CHECK_INT(st.result, RULES_BLOCKED);
	CHECK_STR(st.reason, "one peg left, off the goal");
	CHECK_INT(st.score[0], 1);
	/* pegs that cannot meet */
	load(&s, "1x5:o.o.o goal=1,3");
	G->status(&s, &st);
	CHECK_INT(st.result, RULES_BLOCKED);
	CHECK_STR(st.reason, "no move left");
	CHECK_INT(st.score[0], 3);
	CHECK_INT(G->legal_moves(&s, mv, 8), 0);
	CHECK_STR(refusal(&s, "1,1"), "the game is over: no move left");
	/* no peg at all */
	load(&s, "1x1:. goal=1,1");
	G->status(&s, &st);
	CHECK_INT(st.result, RULES_BLOCKED);
	CHECK_STR(st.reason, "no peg left");
	CHECK_INT(st.score[0], 0);
	/* a peg already alone on the goal */
	load(&s, "2x2:o./.. goal=1,1");
	G->status(&s, &st);
	CHECK_INT(st.result, RULES_SOLVED);
	/* a jump lands only on a usable empty cell */
	load(&s, "1x4:oo#. goal=1,4");
	G->status(&s, &st);
	CHECK_INT(st.result, RULES_BLOCKED);
	CHECK_STR(refusal(&s, "1,1 right"), "the game is over: no move left");
	load(&s, "1x4:ooo. goal=1,4");
	CHECK_STR(refusal(&s, "1,1 right"), "the peg at 1,1 cannot move");
	CHECK_STR(refusal(&s, "1,2 left"), "1,2 cannot jump left");
	CHECK_STR(refusal(&s, "1,2"), "");
	CHECK_INT(G->legal_moves(&s, mv, 8), 1);
	/* legal_moves stops at max */
	load(&s, "5x5:...../..o../.ooo./..o../..... goal=3,3");
	CHECK_INT(G->legal_moves(&s, mv, 8), 4);
	CHECK_INT(G->legal_moves(&s, mv, 2), 2);
}

static void
test_position(void)
{
	static const char *const good[] = {ENGLISH_POS, EXAMPLE_POS,
	    "1x1:o goal=1,1", "1x1:. goal=1,1",
	    "10x10:oooooooooo/##########/.........o/oooooooooo/oooooooooo/"
	    "oooooooooo/oooooooooo/oooooooooo/oooooooooo/ooooooooo. "
	    "goal=10,10",
	    "3x10:#o#o#o#o#o/........../#o#o#o#o#o goal=2,10"};
	static const struct {
		const char *text, *reason;
	} bad[] = {
	    {"", "position: expected the size at the start, like 7x7:"},
	    {"7x7", "position: expected the size at the start, like 7x7:"},
	    {"7 x7:", "position: expected the size at the start, like 7x7:"},
	    {"07x7:", "position: expected the size at the start, like 7x7:"},
	    {"0x3:", "position: expected the size at the start, like 7x7:"},
	    {"1000x3:", "position: expected the size at the start, like 7x7:"},
	    {"11x3:ooo goal=1,1",
	        "position: size 11x3 is out of range (1..10)"},
	    {"2x11:", "position: size 2x11 is out of range (1..10)"},
	    {"2x2:o./o goal=1,1", "position: row 2 should have 2 cells, not 1"},
	    {"2x2:/.. goal=1,1", "position: row 1 should have 2 cells, not 0"},
	    {"2x2:o.x/.. goal=1,1", "position: row 1 is longer than 2 cells"},
	    {"2x2:o./..o goal=1,1", "position: row 2 is longer than 2 cells"},
	    {"2x2:ox/.. goal=1,1",
	        "position: row 1, cell 2: 'x' is not #, . or o"},
	    {"2x2:o\t/.. goal=1,1",
	        "position: row 1, cell 2: byte 0x9 is not #, . or o"},
	    {"2x2:o. goal=1,1", "position: only 1 of 2 rows"},
	    {"2x2:o.", "position: only 1 of 2 rows"},
	    {"2x2:o./../.. goal=1,1", "position: more than 2 rows"},
	    {"2x2:o./..", "position: expected ' goal=R,C' after the rows"},
	    {"2x2:o./.. goal=",
	        "position: expected ' goal=R,C' after the rows"},
	    {"2x2:o./..  goal=1,1",
	        "position: expected ' goal=R,C' after the rows"},
	    {"2x2:o./.. goal=01,1",
	        "position: expected ' goal=R,C' after the rows"},
	    {"2x2:o./.. goal=1;1",
	        "position: expected ' goal=R,C' after the rows"},
	    {"2x2:o./.. goal=3,1",
	        "position: goal 3,1 is outside the 2x2 board"},
	    {"2x2:o./.. goal=1,9",
	        "position: goal 1,9 is outside the 2x2 board"},
	    {"2x2:#./.. goal=1,1", "position: goal 1,1 is not a usable cell"},
	    {"2x2:o./.. goal=1,1 ", "position: unexpected text after the goal"},
	    {"2x2:o./.. goal=1,1\n",
	        "position: unexpected text after the goal"},
	};
	struct solitaire_state s, t;
	char err[RULES_ERR_MAX], buf[8];
	size_t i;

	for (i = 0; i < sizeof good / sizeof good[0]; i++) {
		load(&s, good[i]);
		CHECK_STR(position(&s), good[i]);
	}
	load(&s, "3x3:o.o/#o#/ooo goal=3,2");
	CHECK_INT(s.rows, 3);
	CHECK_INT(s.cols, 3);
	CHECK_INT(s.pegs, 6);
	CHECK_INT(s.goal, 7);
	CHECK_INT(s.cell[3], SOLITAIRE_OFF);
	CHECK_INT(s.cell[1], SOLITAIRE_EMPTY);
	CHECK_INT(s.cell[0], SOLITAIRE_PEG);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		load(&s, EXAMPLE_POS);
		t = s;
		CHECK_INT(
		    G->from_position(&s, bad[i].text, err, sizeof err), -1);
		CHECK_STR(err, bad[i].reason);
		/* a refused position leaves the game as it was */
		CHECK(memcmp(&s, &t, sizeof s) == 0);
	}
	CHECK_INT(G->to_position(&s, buf, sizeof buf), -1);
	CHECK_INT(G->to_position(&s, buf, 0), -1);
}

static void
test_file(void)
{
	static const struct {
		const char *text, *reason;
	} bad[] = {
	    {"",
	        "the board file is empty: expected the size as 'rows cols' "
	        "first"},
	    {"\n  \r\n\t\n",
	        "the board file is empty: expected the size as 'rows cols' "
	        "first"},
	    {"6\n",
	        "the file ends after 1 number: expected the size as 'rows "
	        "cols' first"},
	    {"6 6 6\n", "line 1: cell (0, 0) is 6, not 0, 1 or 2"},
	    {"11 3\n", "line 1: board size 11x3 is out of range (1..10)"},
	    {"0\n5\n", "line 2: board size 0x5 is out of range (1..10)"},
	    {"-1 5\n", "line 1: board size -1x5 is out of range (1..10)"},
	    {"a 3\n", "line 1: 'a' is not a number"},
	    {"6 6x\n", "line 1: '6x' is not a number"},
	    {"- 3\n", "line 1: '-' is not a number"},
	    {"1234567 3\n", "line 1: '1234567' is too large"},
	    /* wrong counts: too few numbers, wherever the lines break */
	    {"6 6\n0 0 0 0 0 0\n1 2 2 2 0\n",
	        "the file ends after 13 numbers: a 6x6 board needs 40 (rows "
	        "and cols, 36 cells, the goal's row and column)"},
	    {"6 6\n0 0 0 0 0 0",
	        "the file ends after 8 numbers: a 6x6 board "
	        "needs 40 (rows and cols, 36 cells, the "
	        "goal's row and column)"},
	    {"6 6\n",
	        "the file ends after 2 numbers: a 6x6 board needs 40 "
	        "(rows and cols, 36 cells, the goal's row and column)"},
	    {"6 6\n0 0 0 0 0 0\n1 2 2 2 0 0\n2 2 0 2 0 0\n1 2 1 1 0 0\n2 1 2 "
	     "2 2 2\n0 0 0 2 0 0\n",
	        "the file ends after 38 numbers: a 6x6 board needs 40 (rows "
	        "and cols, 36 cells, the goal's row and column)"},
	    {"1 2\n1 2\n0\n",
	        "the file ends after 5 numbers: a 1x2 board needs 6 (rows and "
	        "cols, 2 cells, the goal's row and column)"},
	    /* too many */
	    {"1 2\n1 2\n0 1 2\n",
	        "line 3: unexpected '2' after the goal: a 1x2 board is 6 "
	        "numbers, the file has 7"},
	    {EXAMPLE_FILE "foo\n",
	        "line 9: unexpected 'foo' after the goal: a 6x6 board is 40 "
	        "numbers, the file has 41"},
	    {EXAMPLE_FILE "\n\n0 1\n2\n",
	        "line 11: unexpected '0' after the goal: a 6x6 board is 40 "
	        "numbers, the file has 43"},
	    /* bad cells */
	    {"6 6\n0 0 0 0 0 0\n1 2 2 2 0 0\n2 2 0 2 0 0\n1 7 1 1 0 0\n",
	        "line 5: cell (3, 1) is 7, not 0, 1 or 2"},
	    {"2 2\n0 -1\n", "line 2: cell (0, 1) is -1, not 0, 1 or 2"},
	    {"2 2\n0 x\n", "line 2: 'x' is not a number"},
	    {"2 2\n0 abcdefghijklmnopq\n",
	        "line 2: 'abcdefghijkl...' is not a number"},
	    /* the goal */
	    {"1 2\n1 2\n0 b\n", "line 3: 'b' is not a number"},
	    {"6 6\n0 0 0 0 0 0\n1 2 2 2 0 0\n2 2 0 2 0 0\n1 2 1 1 0 0\n2 1 2 "
	     "2 2 2\n0 0 0 2 0 0\n9 1\n",
	        "line 8: goal (9, 1) is outside the 6x6 board"},
	    {"1 2\n1 2\n0 -1\n",
	        "line 3: goal (0, -1) is outside the 1x2 board"},
	    {"6 6\n0 0 0 0 0 0\n1 2 2 2 0 0\n2 2 0 2 0 0\n1 2 1 1 0 0\n2 1 2 "
	     "2 2 2\n0 0 0 2 0\n0\n0 0\n",
	        "line 9: goal cell (0, 0) is not usable"},
	};
	static const char crlf[] =
	    "6 6\r\n0 0 0 0 0 0\r\n1 2 2 2 0 0  \r\n2\t2 0 2 0 0\r\n\r\n"
	    "1 2 1 1 0 0\r\n 2 1 2 2 2 2\r\n0 0 0 2 0 0\r\n2 3 \r\n\r\n  \n";
	static const char nul[] = "2 2\n\0 1\n1 1\n0 0\n";
	struct solitaire_state s, t;
	char err[RULES_ERR_MAX], buf[RULES_TEXT_MAX];
	const char *text;
	size_t i, len;

	CHECK_INT(make(&s, NULL, NULL, err), 0);
	CHECK_INT(G->import_file(
	              &s, EXAMPLE_FILE, strlen(EXAMPLE_FILE), err, sizeof err),
	    0);
	CHECK_STR(position(&s), EXAMPLE_POS);
	CHECK_INT(G->export_file(&s, buf, sizeof buf), strlen(EXAMPLE_FILE));
	CHECK_STR(buf, EXAMPLE_FILE);
	CHECK_INT(
	    G->import_file(&s, crlf, sizeof crlf - 1, err, sizeof err), 0);
	CHECK_STR(position(&s), EXAMPLE_POS);
	/* the length given is the file, whatever follows */
	CHECK_INT(G->import_file(&s, EXAMPLE_FILE "junk", strlen(EXAMPLE_FILE),
	              err, sizeof err),
	    0);
	CHECK_INT(G->import_file(&s, nul, sizeof nul - 1, err, sizeof err), -1);
	CHECK_STR(err, "line 2: '?' is not a number");
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		load(&s, ENGLISH_POS);
		t = s;
		CHECK_INT(G->import_file(&s, bad[i].text, strlen(bad[i].text),
		              err, sizeof err),
		    -1);
		CHECK_STR(err, bad[i].reason);
		CHECK(memcmp(&s, &t, sizeof s) == 0);
	}
	/* the shipped boards are in the file format, exported as they are */
	static const char *const names[] = {"solitaire/english.txt",
	    "solitaire/european.txt", "solitaire/example.txt"};
	for (i = 0; i < 3; i++) {
		text = rules_data(names[i], &len);
		CHECK(text != NULL);
		if (text == NULL)
			continue;
		CHECK_INT(G->import_file(&s, text, len, err, sizeof err), 0);
		CHECK_INT(G->export_file(&s, buf, sizeof buf), len);
		CHECK_STR(buf, text);
	}
	CHECK_INT(G->export_file(&s, buf, 10), -1);
	/* the file option */
	CHECK_INT(make(&s, "file", EXAMPLE_FILE, err), 0);
	CHECK_STR(position(&s), EXAMPLE_POS);
	CHECK_INT(make(&s, "file", "6 6\n", err), -1);
	CHECK_STR(err,
	    "the file ends after 2 numbers: a 6x6 board needs 40 (rows and "
	    "cols, 36 cells, the goal's row and column)");
}

/* The seed reads the board file as a stream of integers: the layout of
 * the lines does not matter (issue 13). */
static void
test_file_stream(void)
{
	static const char *const layouts[] = {
	    /* all on one line */
	    "6 6 0 0 0 0 0 0 1 2 2 2 0 0 2 2 0 2 0 0 1 2 1 1 0 0 2 1 2 2 2 2 "
	    "0 0 0 2 0 0 2 3",
	    /* one number a line */
	    "6\n6\n0\n0\n0\n0\n0\n0\n1\n2\n2\n2\n0\n0\n2\n2\n0\n2\n0\n0\n"
	    "1\n2\n1\n1\n0\n0\n2\n1\n2\n2\n2\n2\n0\n0\n0\n2\n0\n0\n2\n3\n",
	    /* rows split and joined, the goal split over lines */
	    "6 6 0 0 0\n0 0 0 1 2 2 2\n0 0 2 2 0 2 0 0 1 2 1 1 0 0\n\n2 1 "
	    "2\r\n2 2 2 0 0 0 2 0 0 2\n3\n",
	    /* leading zeros are the same numbers, as the seed's stream */
	    "06 6\n0 0 0 0 0 0\n1 2 2 02 0 0\n2 2 0 2 0 0\n1 2 1 1 0 "
	    "0\n2 1 2 2 2 2\n0 0 0 2 0 0\n2 003\n",
	};
	struct solitaire_state s;
	char err[RULES_ERR_MAX];
	size_t i;

	for (i = 0; i < sizeof layouts / sizeof layouts[0]; i++) {
		CHECK_INT(make(&s, NULL, NULL, err), 0);
		err[0] = '\0';
		CHECK_INT(G->import_file(&s, layouts[i], strlen(layouts[i]),
		              err, sizeof err),
		    0);
		CHECK_STR(err, "");
		CHECK_STR(position(&s), EXAMPLE_POS);
	}
}

static void
test_boards(void)
{
	struct solitaire_state s;
	char err[RULES_ERR_MAX], buf[RULES_TEXT_MAX];

	CHECK_INT(make(&s, "board", "european", err), 0);
	CHECK_STR(position(&s),
	    "7x7:##ooo##/#ooooo#/ooooooo/ooo.ooo/ooooooo/"
	    "#ooooo#/##ooo## goal=4,4");
	CHECK_INT(s.pegs, 36);
	CHECK_INT(make(&s, "board", "english", err), 0);
	CHECK_STR(position(&s), ENGLISH_POS);
	G->render(&s, buf, sizeof buf);
	CHECK_STR(buf,
	    "   1  2  3  4  5  6  7\n"
	    " 1 #  #  o  o  o  #  #\n"
	    " 2 #  #  o  o  o  #  #\n"
	    " 3 o  o  o  o  o  o  o\n"
	    " 4 o  o  o [.] o  o  o\n"
	    " 5 o  o  o  o  o  o  o\n"
	    " 6 #  #  o  o  o  #  #\n"
	    " 7 #  #  o  o  o  #  #\n"
	    "o peg, . empty hole, # no hole, [ ] the goal; 32 pegs "
	    "left\n");
	G->board_rows(&s, buf, sizeof buf);
	CHECK_STR(buf,
	    "##ooo##\n##ooo##\nooooooo\noooGooo\nooooooo\n##ooo##\n##ooo##\n");
	CHECK_INT(G->render(&s, buf, 20), -1);
	CHECK_INT(G->board_rows(&s, buf, 20), -1);
	load(&s, "1x10:oo........ goal=1,10");
	G->render(&s, buf, sizeof buf);
	CHECK_STR(buf,
	    "   1  2  3  4  5  6  7  8  9 10\n"
	    " 1 o  o  .  .  .  .  .  .  . [.]\n"
	    "o peg, . empty hole, # no hole, [ ] the goal; 2 pegs "
	    "left\n");
	load(&s, "1x1:o goal=1,1");
	G->render(&s, buf, sizeof buf);
	CHECK_STR(buf,
	    "   1\n 1[o]\n"
	    "o peg, . empty hole, # no hole, [ ] the goal; 1 peg "
	    "left\n");
	G->board_rows(&s, buf, sizeof buf);
	CHECK_STR(buf, "@\n");
	/* options */
	CHECK_INT(make(&s, "board", "french", err), -1);
	CHECK_STR(
	    err, "option 'board' must be one of english|european|example");
	struct rules_opt both[2] = {{"file", EXAMPLE_FILE}, {"steps", "5"}};
	CHECK_INT(rules_opts_check(G, both, 2, err, sizeof err), 0);
	CHECK_INT(G->init(&s, both, 2, err, sizeof err), -1);
	CHECK_STR(err, "give only one of file and steps");
	struct rules_opt over[2] = {
	    {"board", "european"}, {"file", EXAMPLE_FILE}};
	CHECK_INT(G->init(&s, over, 2, err, sizeof err), 0);
	CHECK_STR(position(&s), EXAMPLE_POS);
	CHECK_INT(make(&s, "steps", "0", err), -1);
	CHECK_INT(make(&s, "steps", "61", err), -1);
	CHECK_INT(make(&s, "rows", "11", err), -1);
	CHECK_INT(make(&s, "cols", "2", err), -1);
	CHECK_INT(make(&s, "seed", "-1", err), -1);
}

/* Could the peg at cell i have been the last landing of a jump, i.e. are
 * the next two cells one way on the board and free of pegs? */
static int
can_unjump(const struct solitaire_state *s, int i)
{
	static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
	int r = i / s->cols, c = i % s->cols, d, r2, c2;

	for (d = 0; d < 4; d++) {
		r2 = r + 2 * dr[d];
		c2 = c + 2 * dc[d];
		if (r2 < 0 || r2 >= s->rows || c2 < 0 || c2 >= s->cols)
			continue;
		if (s->cell[(r + dr[d]) * s->cols + c + dc[d]] !=
		        SOLITAIRE_PEG &&
		    s->cell[r2 * s->cols + c2] != SOLITAIRE_PEG)
			return 1;
	}
	return 0;
}

static int
generate(struct solitaire_state *s, int rows, int cols, int steps, int seed)
{
	char r[16], c[16], st[16], sd[16], err[RULES_ERR_MAX];
	struct rules_opt o[4] = {
	    {"rows", r}, {"cols", c}, {"steps", st}, {"seed", sd}};

	snprintf(r, sizeof r, "%d", rows);
	snprintf(c, sizeof c, "%d", cols);
	snprintf(st, sizeof st, "%d", steps);
	snprintf(sd, sizeof sd, "%d", seed);
	if (rules_opts_check(G, o, 4, err, sizeof err) != 0)
		return -1;
	return G->init(s, o, 4, err, sizeof err);
}

/* A search that another thread cancels gives up with "unknown": a board
 * that takes far more than AI_CANCEL_EVERY nodes, solved with no node
 * limit, is winnable when let run and unknown with the flag set. */
static void
test_cancel(void)
{
	struct solitaire_state s;
	struct rules_move hint;
	atomic_int cancel;

	CHECK_INT(generate(&s, 10, 10, 60, 1), 0);
	atomic_init(&cancel, 0);
	CHECK_INT(ai_solitaire_solve(&s, 0, &cancel, &hint), AI_WINNABLE);
	atomic_store(&cancel, 1);
	CHECK_INT(ai_solitaire_solve(&s, 0, &cancel, &hint), AI_UNKNOWN);
	/* the flag is looked at only so often: a small board still solves */
	CHECK_INT(generate(&s, 7, 7, 5, 1), 0);
	CHECK_INT(ai_solitaire_solve(&s, 0, &cancel, &hint), AI_WINNABLE);
}

static void
test_generator(void)
{
	static const struct {
		int rows, cols, steps;
	} kinds[] = {
	    {7, 7, 5}, {7, 7, 15}, {10, 10, 12}, {4, 9, 10}, {10, 3, 8}};
	struct solitaire_state s, t;
	struct rules_move hint;
	char err[RULES_ERR_MAX], buf[RULES_TEXT_MAX];
	int seed, i, k, stuck, differ = 0, bad = 0, lost = 0, winnable = 0;
	int full = 0;

	CHECK_INT(generate(&s, 7, 7, 10, 42), 0);
	CHECK_INT(generate(&t, 7, 7, 10, 42), 0);
	CHECK(memcmp(&s, &t, sizeof s) == 0);
	CHECK_INT(s.pegs, 11);
	CHECK_INT(s.rows, 7);
	CHECK_INT(s.cols, 7);
	/* no seed: the fixed seed 1 */
	struct rules_opt noseed[1] = {{"steps", "10"}};
	CHECK_INT(G->init(&s, noseed, 1, err, sizeof err), 0);
	CHECK_INT(generate(&t, 7, 7, 10, 1), 0);
	CHECK(memcmp(&s, &t, sizeof s) == 0);
	for (k = 0; k < (int)(sizeof kinds / sizeof kinds[0]); k++) {
		for (seed = 0; seed < 200; seed++) {
			if (generate(&s, kinds[k].rows, kinds[k].cols,
			        kinds[k].steps, seed) != 0) {
				bad++;
				continue;
			}
			if (seed > 0 && memcmp(&s, &t, sizeof s) != 0)
				differ++;
			t = s;
			/* exact size, pegs and counts */
			if (s.rows != kinds[k].rows ||
			    s.cols != kinds[k].cols || s.pegs < 2 ||
			    s.pegs > kinds[k].steps + 1)
				bad++;
			/* it stopped early only when stuck */
			stuck = 1;
			for (i = 0; i < s.rows * s.cols; i++)
				if (s.cell[i] == SOLITAIRE_PEG &&
				    can_unjump(&s, i))
					stuck = 0;
			if (s.pegs < kinds[k].steps + 1 && !stuck)
				bad++;
			full += s.pegs == kinds[k].steps + 1;
			/* round trips */
			G->export_file(&s, buf, sizeof buf);
			CHECK_INT(G->import_file(
			              &t, buf, strlen(buf), err, sizeof err),
			    0);
			if (memcmp(&s, &t, sizeof s) != 0)
				bad++;
			G->to_position(&s, buf, sizeof buf);
			CHECK_INT(
			    G->from_position(&t, buf, err, sizeof err), 0);
			if (memcmp(&s, &t, sizeof s) != 0)
				bad++;
			t = s;
			/* solvable by construction */
			switch (ai_solitaire_solve(&s, 0, NULL, &hint)) {
			case AI_WINNABLE:
				winnable++;
				break;
			case AI_LOST:
				lost++;
				printf("     lost: %s\n", position(&s));
				break;
			default:
				break;
			}
		}
	}
	CHECK_INT(bad, 0);
	CHECK_INT(lost, 0);
	CHECK_INT(winnable, 200 * (int)(sizeof kinds / sizeof kinds[0]));
	CHECK(differ > 900);
	CHECK(full > 900);
	/* a 3x3 board is soon stuck, and says so by stopping */
	CHECK_INT(generate(&s, 3, 3, 60, 3), 0);
	CHECK(s.pegs < 61);
	for (i = 0; i < 9; i++)
		if (s.cell[i] == SOLITAIRE_PEG)
			CHECK(!can_unjump(&s, i));
	CHECK_INT(ai_solitaire_solve(&s, 0, NULL, &hint), AI_WINNABLE);
}

static void
test_hash(void)
{
	struct solitaire_state a, b;

	/* the same position by two orders of the same jumps */
	load(&a, ENGLISH_POS);
	load(&b, ENGLISH_POS);
	CHECK(G->hash(&a) == G->hash(&b));
	CHECK_INT(play(&a, "2,4 down"), 0);
	CHECK(G->hash(&a) != G->hash(&b));
	CHECK_INT(play(&a, "5,4 up"), 0);
	CHECK_INT(play(&b, "2,4 down"), 0);
	CHECK_INT(play(&b, "5,4 up"), 0);
	CHECK_INT(play(&a, "7,4 up"), 0);
	CHECK_INT(play(&a, "4,2 right"), 0);
	CHECK_INT(play(&b, "4,2 right"), 0);
	CHECK_INT(play(&b, "7,4 up"), 0);
	CHECK_STR(position(&a), position(&b));
	CHECK(G->hash(&a) == G->hash(&b));
	CHECK(memcmp(&a, &b, sizeof a) == 0);
}

/* Can s still be won? A plain search through the rules interface, no
 * table: the solver's independent referee on small positions. */
static int
referee(const struct solitaire_state *s)
{
	struct rules_move mv[4 * SOLITAIRE_MAX_CELLS];
	struct rules_status st;
	struct solitaire_state next;
	int i, n;

	G->status(s, &st);
	if (st.result != RULES_PLAYING)
		return st.result == RULES_SOLVED;
	n = G->legal_moves(s, mv, 4 * SOLITAIRE_MAX_CELLS);
	for (i = 0; i < n; i++) {
		next = *s;
		G->apply(&next, mv[i]);
		if (referee(&next))
			return 1;
	}
	return 0;
}

/* Is m among the legal moves of s? */
static int
legal(const struct solitaire_state *s, struct rules_move m)
{
	struct rules_move mv[4 * SOLITAIRE_MAX_CELLS];
	int n = G->legal_moves(s, mv, 4 * SOLITAIRE_MAX_CELLS);

	return rules_move_listed(mv, n, m);
}

/* Follow the solver's hints to the end; 0 when that wins. */
static int
follow_hints(struct solitaire_state *s)
{
	struct rules_status st;
	struct rules_move hint;

	for (;;) {
		G->status(s, &st);
		if (st.result != RULES_PLAYING)
			return st.result == RULES_SOLVED ? 0 : -1;
		if (ai_solitaire_solve(s, 0, NULL, &hint) != AI_WINNABLE ||
		    !legal(s, hint))
			return -1;
		G->apply(s, hint);
	}
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
test_solver(void)
{
	/* DFS-proved lost (its position class is the goal's): found by
	 * random play from the English start */
	static const char lost12[] =
	    "7x7:##ooo##/##o..##/......./....o.o/oo....o/##o.o##/##o..## "
	    "goal=4,4";
	static const char lost19[] =
	    "7x7:##oo.##/##ooo##/.....oo/o....../o.o.ooo/##ooo##/##ooo## "
	    "goal=4,4";
	struct solitaire_state s, next;
	struct rules_move hint, mv[4 * SOLITAIRE_MAX_CELLS];
	struct rules_rng rng;
	char err[RULES_ERR_MAX];
	struct solitaire_state line[32];
	int trial, n, wins = 0, losses = 0, wrong = 0;
	enum ai_verdict v;

	/* the English board, and its hints played out */
	CHECK_INT(make(&s, NULL, NULL, err), 0);
	CHECK_INT(ai_solitaire_solve(&s, 0, NULL, &hint), AI_WINNABLE);
	CHECK(legal(&s, hint));
	CHECK_INT(hint.arg, RULES_NONE);
	CHECK_INT(follow_hints(&s), 0);
	CHECK_INT(s.pegs, 1);
	CHECK_INT(s.cell[s.goal], SOLITAIRE_PEG);
	/* solved: winnable with no move */
	CHECK_INT(ai_solitaire_solve(&s, 0, NULL, &hint), AI_WINNABLE);
	CHECK_INT(hint.to, RULES_NONE);
	CHECK_INT(hint.from, RULES_NONE);
	/* the seed's example */
	CHECK_INT(make(&s, "board", "example", err), 0);
	CHECK_INT(ai_solitaire_solve(&s, 0, NULL, &hint), AI_WINNABLE);
	CHECK_INT(follow_hints(&s), 0);
	/* the European board from its centre: lost (position class), as
	 * the board option's help (in `games`) says, with a node limit far
	 * below a tenth of a second of search */
	CHECK_INT(make(&s, "board", "european", err), 0);
	CHECK_INT(ai_solitaire_solve(&s, 1, NULL, &hint), AI_LOST);
	CHECK_INT(hint.to, RULES_NONE);
	CHECK(strstr(G->options[0].help, "European board (cannot be won") !=
	    NULL);
	CHECK(strstr(G->options[0].help, "cannot") ==
	    strrchr(G->options[0].help, '(') + 1);
	/* ... but from (2, 4) with the goal at (6, 4) it is winnable */
	load(&s,
	    "7x7:##ooo##/#oo.oo#/ooooooo/ooooooo/ooooooo/#ooooo#/##ooo## "
	    "goal=6,4");
	CHECK_INT(ai_solitaire_solve(&s, 0, NULL, &hint), AI_WINNABLE);
	CHECK_INT(follow_hints(&s), 0);
	/* lost by search, confirmed by the referee */
	load(&s, lost12);
	CHECK_INT(ai_solitaire_solve(&s, 0, NULL, &hint), AI_LOST);
	CHECK_INT(referee(&s), 0);
	load(&s, lost19);
	CHECK_INT(ai_solitaire_solve(&s, 0, NULL, &hint), AI_LOST);
	/* lost at a glance */
	load(&s, "1x3:.oo goal=1,3");
	CHECK_INT(ai_solitaire_solve(&s, 0, NULL, &hint), AI_LOST);
	load(&s, "1x5:o.o.o goal=1,3");
	CHECK_INT(ai_solitaire_solve(&s, 0, NULL, &hint), AI_LOST);
	load(&s, "1x1:. goal=1,1");
	CHECK_INT(ai_solitaire_solve(&s, 0, NULL, &hint), AI_LOST);
	/* of two jumps, the one that ends on the goal */
	load(&s, "1x4:.oo. goal=1,4");
	CHECK_INT(ai_solitaire_solve(&s, 0, NULL, &hint), AI_WINNABLE);
	CHECK_INT(hint.from, 1);
	CHECK_INT(hint.to, 3);
	load(&s, "1x4:.oo. goal=1,1");
	CHECK_INT(ai_solitaire_solve(&s, 0, NULL, &hint), AI_WINNABLE);
	CHECK_INT(hint.from, 2);
	CHECK_INT(hint.to, 0);
	/* the node limit */
	CHECK_INT(make(&s, NULL, NULL, err), 0);
	CHECK_INT(ai_solitaire_solve(&s, 1, NULL, &hint), AI_UNKNOWN);
	CHECK_INT(hint.to, RULES_NONE);
	load(&s, lost19);
	CHECK_INT(ai_solitaire_solve(&s, 5, NULL, &hint), AI_UNKNOWN);
	/* small positions: a few jumps along a winning line from the English
	 * start, then random jumps: the solver agrees with the referee, and
	 * its hints keep the game winnable */
	CHECK_INT(make(&line[0], NULL, NULL, err), 0);
	for (n = 0; n < 31; n++) {
		line[n + 1] = line[n];
		CHECK_INT(
		    ai_solitaire_solve(&line[n], 0, NULL, &hint), AI_WINNABLE);
		G->apply(&line[n + 1], hint);
	}
	rules_rng_seed(&rng, 2024);
	for (trial = 0; trial < 300; trial++) {
		s = line[16 + rules_rng_below(&rng, 8)];
		while (s.pegs > 9) {
			n = G->legal_moves(&s, mv, 4 * SOLITAIRE_MAX_CELLS);
			if (n == 0)
				break;
			G->apply(&s, mv[rules_rng_below(&rng, (unsigned)n)]);
		}
		v = ai_solitaire_solve(&s, 0, NULL, &hint);
		if ((v == AI_WINNABLE) != referee(&s) || v == AI_UNKNOWN) {
			wrong++;
			printf("     disagree on %s\n", position(&s));
			continue;
		}
		if (v == AI_LOST) {
			losses++;
			continue;
		}
		wins++;
		next = s;
		if (hint.to != RULES_NONE) {
			if (!legal(&s, hint)) {
				wrong++;
				continue;
			}
			G->apply(&next, hint);
		}
		if (!referee(&next))
			wrong++;
	}
	printf("solver vs referee: %d winnable, %d lost\n", wins, losses);
	CHECK_INT(wrong, 0);
	CHECK(wins > 20);
	CHECK(losses > 20);
}

/*
 * The English board's shipped table (ai/solitaire_table.c) against the
 * search alone: on positions reached by random jumps from the start, the
 * verdicts agree (where the search alone is quick: 20 to 22 pegs), the
 * hints of a winnable one win when followed, and a position no game
 * reaches, whose complement was found lost, is searched, not taken as
 * lost for being missing from the table.
 */
static void
test_table(void)
{
	static const char lost12[] =
	    "7x7:##ooo##/##o..##/......./....o.o/oo....o/##o.o##/##o..## "
	    "goal=4,4";
	struct solitaire_state s, start;
	struct rules_move hint, mv[4 * SOLITAIRE_MAX_CELLS];
	struct rules_rng rng;
	struct ai_soltab tab;
	char err[RULES_ERR_MAX];
	int trial, n, i, k, wrong = 0, wins = 0, losses = 0, agree = 0;
	enum ai_verdict v;

	CHECK_INT(make(&start, NULL, NULL, err), 0);
	CHECK(ai_soltab_find(&start, &tab));
	CHECK_INT(tab.board.ncells, 33);
	CHECK_INT(tab.board.nsym, 8);
	CHECK(tab.n > 200000);
	/* the start and its four first jumps (one class) are winnable */
	CHECK(ai_soltab_has(&tab, ((uint64_t)1 << 33) - 1 - (1u << 16)));
	/* the European board and the example have no table */
	CHECK_INT(make(&s, "board", "european", err), 0);
	CHECK(!ai_soltab_find(&s, &tab));
	CHECK_INT(make(&s, "board", "example", err), 0);
	CHECK(!ai_soltab_find(&s, &tab));
	rules_rng_seed(&rng, 23);
	for (trial = 0; trial < 200; trial++) {
		s = start;
		/* 20 to 22 pegs left, then 22 to 31 */
		k = trial < 40 ? 10 + (int)rules_rng_below(&rng, 3)
		               : 1 + (int)rules_rng_below(&rng, 10);
		for (i = 0; i < k; i++) {
			n = G->legal_moves(&s, mv, 4 * SOLITAIRE_MAX_CELLS);
			if (n == 0)
				break;
			G->apply(&s, mv[rules_rng_below(&rng, (unsigned)n)]);
		}
		v = ai_solitaire_solve(&s, 0, NULL, &hint);
		if (trial < 40) {
			agree += v == ai_solitaire_search(&s, 0, NULL, &hint);
			continue;
		}
		if (v == AI_WINNABLE) {
			wins++;
			wrong += follow_hints(&s) != 0;
		} else {
			losses++;
			wrong += v != AI_LOST;
		}
	}
	CHECK_INT(agree, 40);
	CHECK_INT(wrong, 0);
	CHECK(wins > 20);
	CHECK(losses > 20);
	/* lost12's complement: 21 pegs, winnable (lost12 is reached from
	 * the start), reached by no game (lost12 is lost) */
	load(&s, lost12);
	for (i = 0; i < s.rows * s.cols; i++)
		if (s.cell[i] != SOLITAIRE_OFF)
			s.cell[i] ^= SOLITAIRE_EMPTY ^ SOLITAIRE_PEG;
	s.pegs = (int16_t)(33 - s.pegs);
	CHECK_INT(s.pegs, 21);
	CHECK_INT(ai_solitaire_solve(&s, 0, NULL, &hint), AI_WINNABLE);
	CHECK_INT(follow_hints(&s), 0);
	/* the full board (no game reaches it; its complement has no peg) */
	load(&s,
	    "7x7:##ooo##/##ooo##/ooooooo/ooooooo/ooooooo/##ooo##/##ooo## "
	    "goal=4,4");
	CHECK_INT(s.pegs, 33);
	CHECK_INT(ai_solitaire_solve(&s, 0, NULL, &hint), AI_LOST);
}

/* The English board's solve time, median of three: printed, not
 * asserted. */
static void
bench_english(void)
{
	struct solitaire_state s;
	struct rules_move hint;
	char err[RULES_ERR_MAX];
	double t[3], x;
	int i, j;

	CHECK_INT(make(&s, NULL, NULL, err), 0);
	for (i = 0; i < 3; i++) {
		t[i] = now();
		CHECK_INT(ai_solitaire_solve(&s, 0, NULL, &hint), AI_WINNABLE);
		t[i] = now() - t[i];
		for (j = i; j > 0 && t[j - 1] > t[j]; j--) {
			x = t[j];
			t[j] = t[j - 1];
			t[j - 1] = x;
		}
	}
	printf("bench: solitaire solver, English board from the start: "
	       "median %.1f ms (of %.1f, %.1f, %.1f)\n",
	    t[1] * 1e3, t[0] * 1e3, t[1] * 1e3, t[2] * 1e3);
}

int
main(void)
{
	test_descriptor();
	test_english();
	test_example();
	test_notation();
	test_status();
	test_position();
	test_file();
	test_file_stream();
	test_blocked_start();
	test_boards();
	test_table();
	test_generator();
	test_hash();
	test_solver();
	test_cancel();
	bench_english();
	return check_done();
}
