/*
 * test_ataxx.c: the Ataxx rules through the rules interface: start
 * positions, clones, jumps, infection, passes, the ends of a game, every
 * illegal-move reason, the FEN, the pictures, and perft (published counts
 * and the fast perft against the generic one).
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "rules/games.h"

#define G (&rules_ataxx)

/* A game state with room and alignment for any game. */
struct state {
	_Alignas(16) unsigned char b[RULES_STATE_MAX];
};

static void
new_game(struct state *st, int size)
{
	char val[8], err[RULES_ERR_MAX] = "";
	struct rules_opt opt = {"size", val};

	snprintf(val, sizeof val, "%d", size);
	CHECK_INT(rules_opts_check(G, &opt, 1, err, sizeof err), 0);
	CHECK_INT(G->init(st->b, &opt, 1, err, sizeof err), 0);
	CHECK_STR(err, "");
}

static void
load(struct state *st, const char *fen)
{
	char err[RULES_ERR_MAX] = "";

	new_game(st, 7);
	CHECK_INT(G->from_position(st->b, fen, err, sizeof err), 0);
	CHECK_STR(err, "");
}

/* The position string, in a static buffer. */
static const char *
fen(const struct state *st)
{
	static char buf[RULES_LINE_MAX];

	CHECK(G->to_position(st->b, buf, sizeof buf) > 0);
	return buf;
}

/* Parse and play a move that must be legal. */
static void
play(struct state *st, const char *text)
{
	char err[RULES_ERR_MAX] = "";
	struct rules_move m;

	CHECK_INT(G->parse_move(st->b, text, &m, err, sizeof err), 0);
	CHECK_STR(err, "");
	G->apply(st->b, m);
}

static void
illegal(const struct state *st, const char *text, const char *reason)
{
	char err[RULES_ERR_MAX] = "";
	struct rules_move m;

	CHECK_INT(G->parse_move(st->b, text, &m, err, sizeof err), -1);
	CHECK_STR(err, reason);
}

static void
bad_fen(const char *text, const char *reason)
{
	char err[RULES_ERR_MAX] = "";
	struct state st;

	new_game(&st, 7);
	CHECK_INT(G->from_position(st.b, text, err, sizeof err), -1);
	CHECK_STR(err, reason);
	/* A rejected position leaves the game as it was. */
	CHECK_STR(fen(&st), "x5o/7/7/7/7/7/o5x x 0 1");
}

static void
round_trip(const char *text)
{
	struct state st;

	load(&st, text);
	CHECK_STR(fen(&st), text);
}

static void
test_descriptor(void)
{
	char err[RULES_ERR_MAX];
	struct rules_opt opt = {"size", "4"};

	CHECK_STR(G->name, "ataxx");
	CHECK(rules_find("ataxx") == G);
	CHECK_INT(G->seats, 2);
	CHECK_STR(G->seat_names[0], "white");
	CHECK_STR(G->seat_names[1], "black");
	/* the start is the state as made: no level start to go back to */
	CHECK(G->restart == NULL);
	CHECK_INT(G->no_draw_offers, 0);
	CHECK(G->state_size <= RULES_STATE_MAX);
	CHECK(G->init && G->turn && G->status && G->legal_moves &&
	    G->legal_from && G->parse_square && G->parse_move &&
	    G->format_move && G->describe_move && G->apply && G->to_position &&
	    G->from_position && G->render && G->board_rows && G->hash &&
	    G->perft);
	CHECK(G->import_file == NULL && G->export_file == NULL);
	CHECK_INT(rules_opts_check(G, &opt, 1, err, sizeof err), -1);
	CHECK_STR(err, "option 'size' must be a whole number from 5 to 9");
	opt.value = "10";
	CHECK_INT(rules_opts_check(G, &opt, 1, err, sizeof err), -1);
	CHECK_STR(rules_opt_get(G, NULL, 0, "size"), "7");
}

static void
test_start(void)
{
	static const char *const starts[] = {"x3o/5/5/5/o3x x 0 1",
	    "x4o/6/6/6/6/o4x x 0 1", "x5o/7/7/7/7/7/o5x x 0 1",
	    "x6o/8/8/8/8/8/8/o6x x 0 1", "x7o/9/9/9/9/9/9/9/o7x x 0 1"};
	struct rules_move mv[RULES_MAX_MOVES];
	struct rules_status s;
	char buf[RULES_TEXT_MAX];
	struct state st;
	int size;

	for (size = 5; size <= 9; size++) {
		new_game(&st, size);
		CHECK_STR(fen(&st), starts[size - 5]);
		CHECK_INT(G->turn(st.b), 0);
		G->status(st.b, &s);
		CHECK_INT(s.result, RULES_PLAYING);
		CHECK_INT(s.nscores, 2);
		CHECK_INT(s.score[0], 2);
		CHECK_INT(s.score[1], 2);
		CHECK_STR(s.reason, "");
		/* 3 clones and 5 jumps from each corner. */
		CHECK_INT(G->legal_moves(st.b, mv, RULES_MAX_MOVES), 16);
	}
	new_game(&st, 5);
	CHECK_INT(G->board_rows(st.b, buf, sizeof buf), 30);
	CHECK_STR(buf, "x...o\n.....\n.....\n.....\no...x\n");
	/* Without options the board is 7x7. */
	CHECK_INT(G->init(st.b, NULL, 0, buf, sizeof buf), 0);
	CHECK_STR(fen(&st), starts[2]);
}

static void
test_clone_jump_infect(void)
{
	struct rules_move m;
	struct rules_status s;
	char buf[RULES_LINE_MAX], err[RULES_ERR_MAX];
	struct state st;

	/* A clone adds a piece and turns the neighbour. */
	load(&st, "x4/1o3/5/5/4o x 7 3");
	CHECK_INT(G->parse_move(st.b, "a4", &m, err, sizeof err), 0);
	CHECK_INT(m.from, RULES_NONE);
	CHECK_INT(m.to, 5);
	CHECK_INT(m.arg, RULES_NONE);
	G->describe_move(st.b, m, buf, sizeof buf);
	CHECK_STR(buf, "White player clones at a4");
	G->format_move(st.b, m, buf, sizeof buf);
	CHECK_STR(buf, "a4");
	G->apply(st.b, m);
	/* Clone: halfmove clock back to 0; white moved, same fullmove. */
	CHECK_STR(fen(&st), "x4/xx3/5/5/4o o 0 3");
	CHECK_INT(G->turn(st.b), 1);
	G->status(st.b, &s);
	CHECK_INT(s.score[0], 3);
	CHECK_INT(s.score[1], 1);

	/* A jump moves the piece and turns every enemy around it; black
	 * has no piece left, so white wins. */
	load(&st, "x6/7/2oo3/7/7/7/7 x 0 1");
	CHECK_INT(G->parse_move(st.b, "a7c6", &m, err, sizeof err), 0);
	CHECK_INT(m.from, 0);
	CHECK_INT(m.to, 9);
	G->describe_move(st.b, m, buf, sizeof buf);
	CHECK_STR(buf, "White player moves from a7 to c6");
	G->format_move(st.b, m, buf, sizeof buf);
	CHECK_STR(buf, "a7c6");
	G->apply(st.b, m);
	CHECK_STR(fen(&st), "7/2x4/2xx3/7/7/7/7 o 1 1");
	G->status(st.b, &s);
	CHECK_INT(s.result, RULES_WIN);
	CHECK_INT(s.winner, 0);
	CHECK_INT(s.score[0], 3);
	CHECK_INT(s.score[1], 0);
	CHECK_STR(s.reason, "no pieces left");
	CHECK_INT(G->legal_moves(st.b, &m, 1), 0);
	illegal(&st, "a1", "the game is over");

	/* Clocks: a black move ends the full move, a jump counts up. */
	new_game(&st, 7);
	play(&st, "b6");
	play(&st, "f6");
	CHECK_STR(fen(&st), "x5o/1x3o1/7/7/7/7/o5x x 0 2");
	play(&st, "g1e3");
	CHECK_STR(fen(&st), "x5o/1x3o1/7/7/4x2/7/o6 o 1 2");
	play(&st, "a1b3");
	CHECK_STR(fen(&st), "x5o/1x3o1/7/7/1o2x2/7/7 x 2 3");
	/* Upper case is read too; a source next to the destination is the
	 * clone onto it. */
	CHECK_INT(G->parse_move(st.b, "E3F2", &m, err, sizeof err), 0);
	CHECK_INT(m.from, RULES_NONE);
	CHECK_INT(m.to, 5 * 7 + 5);
	CHECK_INT(G->parse_move(st.b, "E3C1", &m, err, sizeof err), 0);
	CHECK_INT(m.from, 4 * 7 + 4);
	CHECK_INT(m.to, 6 * 7 + 2);
}

static void
test_pass(void)
{
	struct rules_move mv[RULES_MAX_MOVES], m;
	char buf[RULES_LINE_MAX], err[RULES_ERR_MAX];
	struct state st;

	/* White is walled in by two black ranks: its only move is a pass. */
	load(&st, "7/7/7/7/ooooooo/ooooooo/xxxxxxx x 5 9");
	CHECK_INT(G->legal_moves(st.b, mv, RULES_MAX_MOVES), 1);
	CHECK(rules_is_pass(mv[0]));
	CHECK_INT(mv[0].from, RULES_NONE);
	CHECK_INT(mv[0].arg, RULES_NONE);
	G->format_move(st.b, mv[0], buf, sizeof buf);
	CHECK_STR(buf, "0000");
	G->describe_move(st.b, mv[0], buf, sizeof buf);
	CHECK_STR(buf, "White player has no move and passes");
	illegal(&st, "a4", "no piece of yours adjacent to a4");
	illegal(&st, "a1a3", "destination a3 is occupied by black");
	CHECK_INT(G->parse_move(st.b, "0000", &m, err, sizeof err), 0);
	CHECK(rules_is_pass(m));
	G->apply(st.b, m);
	CHECK_STR(fen(&st), "7/7/7/7/ooooooo/ooooooo/xxxxxxx o 6 9");
	CHECK_INT(G->legal_moves(st.b, mv, RULES_MAX_MOVES), 75);

	/* A black pass ends the full move. */
	load(&st, "xxxx1/xxxxx/xxxxx/ooooo/ooooo o 0 4");
	CHECK_INT(G->legal_moves(st.b, mv, RULES_MAX_MOVES), 1);
	G->describe_move(st.b, mv[0], buf, sizeof buf);
	CHECK_STR(buf, "Black player has no move and passes");
	play(&st, "0000");
	CHECK_STR(fen(&st), "xxxx1/xxxxx/xxxxx/ooooo/ooooo x 1 5");
	illegal(&st, "0000", "you have legal moves, you cannot pass");
	play(&st, "e5");
	CHECK_STR(fen(&st), "xxxxx/xxxxx/xxxxx/ooooo/ooooo o 0 5");
}

static void
check_end(const char *pos, enum rules_result r, int winner, int x, int o,
    const char *reason)
{
	struct rules_move mv[4];
	struct rules_status s;
	struct state st;

	load(&st, pos);
	G->status(st.b, &s);
	CHECK_INT(s.result, r);
	CHECK_INT(s.winner, winner);
	CHECK_INT(s.score[0], x);
	CHECK_INT(s.score[1], o);
	CHECK_STR(s.reason, reason);
	CHECK_INT(G->legal_moves(st.b, mv, 4), 0);
	CHECK_U64(G->perft(st.b, 1), 0);
}

static void
test_game_end(void)
{
	check_end("xxxxx/xxxxx/xxxxx/ooooo/ooooo x 0 1", RULES_WIN, 0, 15, 10,
	    "board full");
	check_end("ooooo/ooooo/ooooo/xxxxx/xxxxx x 0 1", RULES_WIN, 1, 10, 15,
	    "board full");
	/* An even board can end level. */
	check_end("xxxxxx/xxxxxx/xxxxxx/oooooo/oooooo/oooooo o 3 40",
	    RULES_DRAW, RULES_NONE, 18, 18, "board full");
	check_end("x6/7/7/7/7/7/7 o 0 1", RULES_WIN, 0, 1, 0, "no pieces left");
	check_end("7/7/7/7/7/7/6o x 0 1", RULES_WIN, 1, 0, 1, "no pieces left");
	check_end("7/7/7/7/7/7/7 x 0 1", RULES_DRAW, RULES_NONE, 0, 0,
	    "no pieces left");
	/* Gaps can leave empty squares nobody reaches. */
	check_end("xo---/-----/-----/-----/----1 x 0 1", RULES_DRAW, RULES_NONE,
	    1, 1, "neither side can move");
	check_end("xo---/x----/-----/-----/----1 o 0 1", RULES_WIN, 0, 2, 1,
	    "neither side can move");
}

static void
test_illegal(void)
{
	char err[RULES_ERR_MAX];
	struct rules_move m;
	struct state st;

	new_game(&st, 7);
	illegal(&st, "h1", "h1 is not a square of this board (a1 to g7)");
	illegal(&st, "a8", "a8 is not a square of this board (a1 to g7)");
	illegal(&st, "a0", "a0 is not a square of this board (a1 to g7)");
	illegal(&st, "A10", "a10 is not a square of this board (a1 to g7)");
	illegal(&st, "a7z1", "z1 is not a square of this board (a1 to g7)");
	illegal(&st, "a7b999", "b999 is not a square of this board (a1 to g7)");
	illegal(&st, "",
	    "cannot read '' as a move: write a clone as b6, a jump as a7c5, "
	    "a pass as 0000");
	illegal(&st, "zz",
	    "cannot read 'zz' as a move: write a clone as b6, a jump as "
	    "a7c5, a pass as 0000");
	illegal(&st, "b6 ",
	    "cannot read 'b6 ' as a move: write a clone as b6, a jump as "
	    "a7c5, a pass as 0000");
	illegal(&st, "a7-c5",
	    "cannot read 'a7-c5' as a move: write a clone as b6, a jump as "
	    "a7c5, a pass as 0000");
	illegal(&st, "b6\n\x01",
	    "cannot read 'b6?\?' as a move: write a clone as b6, a jump as "
	    "a7c5, a pass as 0000");
	illegal(&st, "a7c5a7c5a7c5a7c5a7",
	    "cannot read 'a7c5a7c5a7c5a7c5...' as a move: write a clone as "
	    "b6, a jump as a7c5, a pass as 0000");
	illegal(&st, "a7c5c3",
	    "cannot read 'a7c5c3' as a move: write a clone as b6, a jump as "
	    "a7c5, a pass as 0000");
	illegal(&st, "a7", "destination a7 is occupied by white");
	illegal(&st, "g7", "destination g7 is occupied by black");
	illegal(&st, "d4", "no piece of yours adjacent to d4");
	illegal(&st, "g7e5", "no piece of yours on g7");
	illegal(&st, "d4d2", "no piece of yours on d4");
	illegal(&st, "a7d4", "a7 to d4 is not a jump (distance must be 2)");
	illegal(&st, "a7a7", "a7 to a7 is not a jump (distance must be 2)");
	illegal(&st, "a7a4", "a7 to a4 is not a jump (distance must be 2)");
	illegal(&st, "0000", "you have legal moves, you cannot pass");
	illegal(&st, "000",
	    "cannot read '000' as a move: write a clone as "
	    "b6, a jump as a7c5, a pass as 0000");
	/* a7 to b6 is the clone onto b6, whichever piece it grows from. */
	CHECK_INT(G->parse_move(st.b, "a7b6", &m, err, sizeof err), 0);
	CHECK_INT(m.from, RULES_NONE);
	CHECK_INT(m.to, 8);

	load(&st, "x1x3o/7/2-1-2/7/2-1-2/7/o5x x 0 1");
	illegal(&st, "a7c7", "destination c7 is occupied by white");
	illegal(&st, "a7c5", "c5 is a gap, no piece can go there");
	illegal(&st, "c5", "c5 is a gap, no piece can go there");
	illegal(&st, "a7a8", "a8 is not a square of this board (a1 to g7)");

	new_game(&st, 5);
	illegal(&st, "f1", "f1 is not a square of this board (a1 to e5)");
	illegal(&st, "a5a7", "a7 is not a square of this board (a1 to e5)");
	new_game(&st, 9);
	CHECK_INT(G->parse_move(st.b, "i9g7", &m, err, sizeof err), -1);
	CHECK_STR(err, "no piece of yours on i9");
	CHECK_INT(G->parse_move(st.b, "i1g3", &m, err, sizeof err), 0);
	CHECK_INT(m.from, 80);
	CHECK_INT(m.to, 60);
}

static void
test_squares(void)
{
	struct rules_move mv[RULES_MAX_MOVES];
	char err[RULES_ERR_MAX], buf[RULES_LINE_MAX];
	struct state st;
	int sq, n, i;

	new_game(&st, 7);
	CHECK_INT(G->parse_square(st.b, "b6", &sq, err, sizeof err), 0);
	CHECK_INT(sq, 8);
	CHECK_INT(G->parse_square(st.b, "G1", &sq, err, sizeof err), 0);
	CHECK_INT(sq, 48);
	CHECK_INT(G->parse_square(st.b, "a7", &sq, err, sizeof err), 0);
	CHECK_INT(sq, 0);
	CHECK_INT(G->parse_square(st.b, "h9", &sq, err, sizeof err), -1);
	CHECK_STR(err, "h9 is not a square of this board (a1 to g7)");
	CHECK_INT(G->parse_square(st.b, "b", &sq, err, sizeof err), -1);
	CHECK_STR(err, "expected a square like b6, not 'b'");
	CHECK_INT(G->parse_square(st.b, "b6c5", &sq, err, sizeof err), -1);
	CHECK_STR(err, "expected a square like b6, not 'b6c5'");

	/* From a piece: 3 clones around it and 5 jumps. */
	n = G->legal_from(st.b, 0, mv, RULES_MAX_MOVES);
	CHECK_INT(n, 8);
	for (i = 0; i < n; i++) {
		G->format_move(st.b, mv[i], buf, sizeof buf);
		CHECK(strstr("b7 a6 b6 a7c7 a7c6 a7a5 a7b5 a7c5", buf) != NULL);
		CHECK_INT(mv[i].from, i < 3 ? RULES_NONE : 0);
	}
	/* On an empty square: the clone onto it. */
	CHECK_INT(G->legal_from(st.b, 8, mv, RULES_MAX_MOVES), 1);
	CHECK_INT(mv[0].from, RULES_NONE);
	CHECK_INT(mv[0].to, 8);
	CHECK_INT(G->legal_from(st.b, 24, mv, RULES_MAX_MOVES), 0);
	CHECK_INT(G->legal_from(st.b, 6, mv, RULES_MAX_MOVES), 0);
	CHECK_INT(G->legal_from(st.b, -1, mv, RULES_MAX_MOVES), 0);
	CHECK_INT(G->legal_from(st.b, 49, mv, RULES_MAX_MOVES), 0);
	/* A short buffer gets what fits. */
	CHECK_INT(G->legal_from(st.b, 0, mv, 2), 2);
	CHECK_INT(G->legal_moves(st.b, mv, 5), 5);
}

static void
test_fen(void)
{
	struct rules_move mv[RULES_MAX_MOVES];
	char buf[RULES_TEXT_MAX];
	struct state st;

	round_trip("x5o/7/7/7/7/7/o5x x 0 1");
	round_trip("x5o/7/7/7/7/7/o5x o 0 1");
	round_trip("x3o/5/5/5/o3x o 17 250");
	round_trip("x4o/6/2xo2/2ox2/6/o4x x 0 1");
	round_trip("x6o/8/8/3--3/3--3/8/8/o6x x 3 2");
	round_trip("x7o/9/9/4-4/9/9/9/9/o7x o 999999999 999999999");
	round_trip("x5o/7/2-1-2/3-3/2-1-2/7/o5x o 0 1");
	round_trip("7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1");
	round_trip("7/7/7/2x1o2/7/7/7 o 12 34");
	round_trip("7/7/7/7/7/7/7 x 0 1");
	round_trip("xxxxx/xxxxx/xxxxx/ooooo/ooooo x 0 1");
	round_trip("-----/-----/-----/-----/----- x 0 1");

	/* The position decides the size, whatever the game was made with. */
	load(&st, "x3o/5/5/5/o3x x 0 1");
	CHECK_INT(G->legal_moves(st.b, mv, RULES_MAX_MOVES), 16);
	CHECK_INT(G->board_rows(st.b, buf, sizeof buf), 30);
	/* The clocks stop at their limit. */
	load(&st, "x5o/7/7/7/7/7/o5x o 999999999 999999999");
	play(&st, "g7e5");
	CHECK_STR(fen(&st), "x6/7/4o2/7/7/7/o5x x 999999999 999999999");

	bad_fen("",
	    "the board is missing (fields are separated by one "
	    "space)");
	bad_fen("x5o/7/7/7/7/7/o5x",
	    "the side to move is missing: a position is board, side to move, "
	    "halfmove clock, fullmove number");
	bad_fen("x5o/7/7/7/7/7/o5x x",
	    "the halfmove clock is missing: a position is board, side to "
	    "move, halfmove clock, fullmove number");
	bad_fen("x5o/7/7/7/7/7/o5x x 0",
	    "the fullmove number is missing: a position is board, side to "
	    "move, halfmove clock, fullmove number");
	bad_fen("x5o/7/7/7/7/7/o5x x 0 1 ",
	    "position has more than 4 fields (board, side to move, halfmove "
	    "clock, fullmove number)");
	bad_fen("x5o/7/7/7/7/7/o5x x 0 1 5",
	    "position has more than 4 fields (board, side to move, halfmove "
	    "clock, fullmove number)");
	bad_fen("x5o/7/7/7/7/7/o5x  x 0 1",
	    "the side to move is missing (fields are separated by one "
	    "space)");
	bad_fen(" x5o/7/7/7/7/7/o5x x 0 1",
	    "the board is missing (fields are separated by one space)");
	bad_fen(
	    "x2o/4/4/o2x x 0 1", "the board has 4 ranks; it must have 5 to 9");
	bad_fen("9/9/9/9/9/9/9/9/9/9 x 0 1",
	    "the board has 10 ranks; it must have 5 to 9");
	bad_fen("x5o/8/7/7/7/7/o5x x 0 1",
	    "rank 6 has 8 squares; every rank must have 7");
	bad_fen("x5o/7/7/7/7/7/o4x x 0 1",
	    "rank 1 has 6 squares; every rank must have 7");
	bad_fen("x5o/7/7/7/7/7/o5xx x 0 1",
	    "rank 1 has 8 squares; every rank must have 7");
	bad_fen("x5o/34/7/7/7/7/o5x x 0 1",
	    "rank 6: write each run of empty squares as one digit from 1 to "
	    "9");
	bad_fen("x5o/07/7/7/7/7/o5x x 0 1",
	    "rank 6: write each run of empty squares as one digit from 1 to "
	    "9");
	bad_fen("x5o/7/7/7/7/7/o5X x 0 1",
	    "rank 1: unexpected character 'X' (use x, o, - and digits)");
	bad_fen("x5o/7/7/7/7/7/o5\x01 x 0 1",
	    "rank 1: unexpected character '?' (use x, o, - and digits)");
	bad_fen("x5o//7/7/7/7/o5x x 0 1", "rank 6 is empty");
	bad_fen("x5o/7/7/7/7/7/o5x X 0 1",
	    "side to move must be x (white) or o (black)");
	bad_fen("x5o/7/7/7/7/7/o5x w 0 1",
	    "side to move must be x (white) or o (black)");
	bad_fen("x5o/7/7/7/7/7/o5x xo 0 1",
	    "side to move must be x (white) or o (black)");
	bad_fen("x5o/7/7/7/7/7/o5x x -1 1",
	    "halfmove clock must be a whole number from 0 to 999999999");
	bad_fen("x5o/7/7/7/7/7/o5x x 01 1",
	    "halfmove clock must be a whole number from 0 to 999999999");
	bad_fen("x5o/7/7/7/7/7/o5x x 1000000000 1",
	    "halfmove clock must be a whole number from 0 to 999999999");
	bad_fen("x5o/7/7/7/7/7/o5x x a 1",
	    "halfmove clock must be a whole number from 0 to 999999999");
	bad_fen("x5o/7/7/7/7/7/o5x x 0 0",
	    "fullmove number must be a whole number from 1 to 999999999");
	bad_fen("x5o/7/7/7/7/7/o5x x 0 +1",
	    "fullmove number must be a whole number from 1 to 999999999");
	memset(buf, 'x', 200);
	buf[200] = '\0';
	bad_fen(buf, "position is longer than 160 characters");
}

static void
test_pictures(void)
{
	char buf[RULES_TEXT_MAX];
	struct state st;

	new_game(&st, 7);
	CHECK(G->render(st.b, buf, sizeof buf) > 0);
	CHECK_STR(buf,
	    "   a b c d e f g\n"
	    " 7 x . . . . . o\n"
	    " 6 . . . . . . .\n"
	    " 5 . . . . . . .\n"
	    " 4 . . . . . . .\n"
	    " 3 . . . . . . .\n"
	    " 2 . . . . . . .\n"
	    " 1 o . . . . . x\n"
	    "x white 2, o black 2 (. empty)\n"
	    "white to move\n");
	CHECK_INT(G->render(st.b, buf, 20), -1);
	load(&st, "xxxxx/xxxxx/x-xxx/ooooo/ooooo o 0 1");
	CHECK(G->render(st.b, buf, sizeof buf) > 0);
	CHECK_STR(buf,
	    "   a b c d e\n"
	    " 5 x x x x x\n"
	    " 4 x x x x x\n"
	    " 3 x - x x x\n"
	    " 2 o o o o o\n"
	    " 1 o o o o o\n"
	    "x white 14, o black 10 (. empty, - gap)\n"
	    "game over (board full): white wins\n");
	CHECK_INT(G->board_rows(st.b, buf, sizeof buf), 30);
	CHECK_STR(buf, "xxxxx\nxxxxx\nx-xxx\nooooo\nooooo\n");
	CHECK_INT(G->board_rows(st.b, buf, 30), -1);
	load(&st, "xxxxxx/xxxxxx/xxxxxx/oooooo/oooooo/oooooo o 3 40");
	CHECK(G->render(st.b, buf, sizeof buf) > 0);
	CHECK(strstr(buf, "game over (board full): draw\n") != NULL);
	CHECK_INT(G->to_position(st.b, buf, 10), -1);
}

static void
test_hash(void)
{
	struct state a, b;

	load(&a, "x5o/7/7/7/7/7/o5x x 0 1");
	load(&b, "x5o/7/7/7/7/7/o5x x 9 30");
	CHECK(G->hash(a.b) == G->hash(b.b));
	load(&b, "x5o/7/7/7/7/7/o5x o 0 1");
	CHECK(G->hash(a.b) != G->hash(b.b));
	load(&b, "x5o/7/7/7/7/7/o4xx x 0 1");
	CHECK(G->hash(a.b) != G->hash(b.b));
	load(&b, "x5o/7/7/3-3/7/7/o5x x 0 1");
	CHECK(G->hash(a.b) != G->hash(b.b));
	new_game(&b, 5);
	load(&a, "x3o/5/5/5/o3x x 0 1");
	CHECK(G->hash(a.b) == G->hash(b.b));
	/* Same moves, same position, same hash. */
	new_game(&a, 7);
	new_game(&b, 7);
	play(&a, "b6");
	play(&a, "f6");
	play(&b, "b6");
	play(&b, "f6");
	CHECK(G->hash(a.b) == G->hash(b.b));
}

/* Published perft counts (libataxx's test suite): depth 1, 2, ... */
static const struct {
	const char *fen;
	uint64_t n[6];
} perft_cases[] = {
    {"x5o/7/7/7/7/7/o5x x 0 1", {16, 256, 6460, 155888, 4752668}},
    {"x5o/7/7/7/7/7/o5x o 0 1", {16, 256, 6460, 155888}},
    {"x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1", {14, 196, 4184, 86528}},
    {"x5o/7/2-1-2/3-3/2-1-2/7/o5x o 0 1", {14, 196, 4100, 83104}},
    {"x5o/7/3-3/2-1-2/3-3/7/o5x x 0 1", {16, 256, 5948, 133264}},
    {"7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1", {1, 75, 249, 14270}},
    {"7/7/7/7/xxxxxxx/xxxxxxx/ooooooo x 0 1", {75, 249, 14270, 452980}},
    {"7/7/7/2x1o2/7/7/7 o 0 1", {23, 419, 7887, 168317}},
    {"7/7/7/7/-------/-------/x5o x 0 1", {2, 4, 13, 30, 73, 174}},
    {"7/7/7/7/7/7/7 x 0 1", {0, 0, 0}},
    /* Counted by hand: a black pass; white's clone onto e5 (fills the
     * board) or a jump there from c5, c4, c3, d3 or e3, after which
     * black has 1 (a pass), 5, 8, 6 and 5 moves. */
    {"xxxx1/xxxxx/xxxxx/ooooo/ooooo o 0 1", {1, 6, 25}},
};

/* Positions of every size, for the fast perft against the generic one. */
static const struct {
	const char *fen;
	int depth;
} cross_cases[] = {
    {"x3o/5/5/5/o3x x 0 1", 4},
    {"x1o2/1xo2/2-2/o1xx1/o3x o 0 1", 4},
    {"x4o/6/6/6/6/o4x x 0 1", 4},
    {"xo4/oxo3/2x3/3--1/6/o4x x 4 7", 3},
    {"x5o/7/2-1-2/7/2-1-2/7/o5x o 0 1", 3},
    {"xxxxxxx/xxxxxxx/ooooooo/ooo1ooo/xxxxxxx/x6/7 x 0 1", 4},
    {"x6o/8/8/3--3/3--3/8/8/o6x x 0 1", 3},
    {"x1x4o/1o6/8/2xooo2/8/8/1x4x1/o6x o 0 1", 3},
    {"x7o/9/9/9/9/9/9/9/o7x x 0 1", 3},
    {"x6xo/2o6/9/3xxo3/9/4-4/9/o7o/o6ox x 0 1", 3},
    {"xxxx1/xxxxx/xxxxx/ooooo/ooooo o 0 1", 4},
    {"xo---/x----/-----/-----/---1o x 0 1", 4},
};

/* init with opts; 0 or -1, the reason in err. */
static int
init_with(struct state *st, const struct rules_opt *opts, int n, char *err)
{
	err[0] = '\0';
	if (rules_opts_check(G, opts, n, err, RULES_ERR_MAX) != 0)
		return -1;
	return G->init(st->b, opts, n, err, RULES_ERR_MAX);
}

/* The `position` option at creation: the size comes from its board, a
 * `size` beside it that disagrees is refused (issue 13). */
static void
test_create_position(void)
{
	static const char seven[] = "x5o/7/2-1-2/7/7/7/o5x o 3 9";
	struct rules_opt opts[2];
	char err[RULES_ERR_MAX];
	struct state st;

	opts[0] = (struct rules_opt){"size", "5"};
	opts[1] = (struct rules_opt){"position", seven};
	CHECK_INT(init_with(&st, opts, 2, err), -1);
	CHECK_STR(err,
	    "option 'size' is 5 but the position is 7x7: give size=7 or "
	    "leave size out");
	opts[1] = (struct rules_opt){"size", "5"};
	opts[0] = (struct rules_opt){"position", seven};
	CHECK_INT(init_with(&st, opts, 2, err), -1);

	opts[0] = (struct rules_opt){"size", "7"};
	opts[1] = (struct rules_opt){"position", seven};
	CHECK_INT(init_with(&st, opts, 2, err), 0);
	CHECK_STR(fen(&st), seven);

	opts[0] = (struct rules_opt){"position", "x3o/5/5/5/o3x x 0 1"};
	CHECK_INT(init_with(&st, opts, 1, err), 0);
	CHECK_STR(fen(&st), "x3o/5/5/5/o3x x 0 1");
	CHECK_INT(G->legal_moves(st.b, NULL, 0) >= 0, 1);

	opts[0] = (struct rules_opt){"position", "x3o/5/5/5 x 0 1"};
	CHECK_INT(init_with(&st, opts, 1, err), -1);
	CHECK(strncmp(err, "option 'position': ", 19) == 0);
	CHECK(strlen(err) > 19);
}

static void
test_perft(void)
{
	struct state st;
	size_t i;
	int d;

	for (i = 0; i < sizeof perft_cases / sizeof perft_cases[0]; i++) {
		load(&st, perft_cases[i].fen);
		for (d = 1; d <= 6 && perft_cases[i].n[d - 1] != 0; d++)
			CHECK_U64(G->perft(st.b, d), perft_cases[i].n[d - 1]);
		CHECK_U64(G->perft(st.b, 0), 1);
	}
	load(&st, "7/7/7/7/7/7/7 x 0 1");
	CHECK_U64(G->perft(st.b, 3), 0);
	for (i = 0; i < sizeof cross_cases / sizeof cross_cases[0]; i++) {
		load(&st, cross_cases[i].fen);
		for (d = 1; d <= cross_cases[i].depth; d++)
			CHECK_U64(
			    G->perft(st.b, d), rules_perft_generic(G, st.b, d));
	}
	/* The generic perft over the interface agrees with the published
	 * counts too. */
	new_game(&st, 7);
	CHECK_U64(rules_perft_generic(G, st.b, 4), 155888);
	CHECK_U64(rules_perft(G, st.b, 5), 4752668);
}

/* Check what must hold in any position, then return a legal move picked
 * by the random generator (or a pass). */
static int
check_invariants(
    struct state *st, struct rules_rng *rng, struct rules_move *pick)
{
	static struct rules_move mv[RULES_MAX_MOVES];
	char text[RULES_LINE_MAX], err[RULES_ERR_MAX];
	struct rules_status s;
	struct rules_move m;
	struct state copy;
	int n, i, size;

	n = G->legal_moves(st->b, mv, RULES_MAX_MOVES);
	G->status(st->b, &s);
	CHECK_INT(n == 0, s.result != RULES_PLAYING);
	CHECK_U64(G->perft(st->b, 1), (uint64_t)n);
	/* The position string round-trips. */
	copy = *st;
	CHECK_INT(G->from_position(copy.b, fen(st), err, sizeof err), 0);
	CHECK(G->hash(copy.b) == G->hash(st->b));
	CHECK_INT(G->board_rows(st->b, text, sizeof text) > 0, 1);
	size = (int)(strchr(text, '\n') - text);
	CHECK(s.score[0] + s.score[1] <= size * size);
	/* Every legal move reads back from its notation. */
	for (i = 0; i < n; i++) {
		G->format_move(st->b, mv[i], text, sizeof text);
		CHECK_INT(G->parse_move(st->b, text, &m, err, sizeof err), 0);
		CHECK(rules_move_eq(m, mv[i]));
	}
	if (n == 0)
		return 0;
	*pick = mv[rules_rng_below(rng, (unsigned)n)];
	return 1;
}

static void
test_random_games(void)
{
	struct rules_status s;
	struct rules_rng rng;
	struct rules_move m;
	struct state st;
	int size, game, ply, ended = 0;

	rules_rng_seed(&rng, 12345);
	for (size = 5; size <= 9; size++) {
		for (game = 0; game < 3; game++) {
			new_game(&st, size);
			for (ply = 0; ply < 3000; ply++) {
				if (!check_invariants(&st, &rng, &m))
					break;
				G->apply(st.b, m);
			}
			G->status(st.b, &s);
			ended += s.result != RULES_PLAYING;
		}
	}
	/* Random play fills boards this small well within 3000 plies. */
	CHECK_INT(ended, 15);
}

int
main(void)
{
	test_descriptor();
	test_start();
	test_clone_jump_infect();
	test_pass();
	test_game_end();
	test_illegal();
	test_squares();
	test_fen();
	test_create_position();
	test_pictures();
	test_hash();
	test_perft();
	test_random_games();
	return check_done();
}
