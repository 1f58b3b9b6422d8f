/*
 * test_amazons.c: the Amazons rules through the rules interface: the
 * seed's opening, worked example and its four checks, every illegal-move
 * reason, the end of the game, the position string, tablero.txt, the
 * picture, perft against the published counts and against the generic one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/games.h"
#include "tests/unit/check.h"

/* A state buffer with the alignment any game's state needs. */
union amz_buf {
	unsigned char b[RULES_STATE_MAX];
	uint64_t align;
};

static const struct rules_game *G = &rules_amazons;

static const char START_POS[] = "3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3 w";

/* The seed's worked example (Figura 5), as its tablero.txt. */
static const char EXAMPLE_FILE[] =
    "a7,g1,i9,j6\n"
    "b1,b10,g7,i3\n"
    "a10,a8,a6,b7,b6,b3,b2,e1,f1,g5,g9,h1,h4,h5,i1,j1\n"
    "1\n";

static const char EXAMPLE_POS[] =
    "xB8/6x1W1/x9/Wx4B3/xx7W/6xx2/7x2/1x6B1/1x8/1B2xxWxxx w";

/* The last board of the seed's sample game: black to move has no move. */
static const char FINAL_FILE[] =
    "c10,e8,g3,i10\n"
    "d10,j10,a2,g2\n"
    "e10,h10,c9,d9,e9,h9,i9,j9,a8,d8,f8,i8,c7,f7,g7,h7,e6,i6,a5,b5,d5,"
    "e5,f5,g5,h5,b4,c4,d4,f4,h4,j4,a3,b3,d3,e3,f3,h3,i3,j3,b2,c2,d2,f2,"
    "h2,j2,a1,b1,c1,f1,g1,h1,i1,j1\n"
    "2\n";

static void
amz_init(union amz_buf *s)
{
	char err[RULES_ERR_MAX] = "";

	memset(s, 0, sizeof *s);
	CHECK_INT(G->init(s->b, NULL, 0, err, sizeof err), 0);
}

/* A game at the position string pos. */
static void
amz_at(union amz_buf *s, const char *pos)
{
	char err[RULES_ERR_MAX] = "";

	amz_init(s);
	if (G->from_position(s->b, pos, err, sizeof err) != 0)
		printf("     bad position %s: %s\n", pos, err);
}

/* A game loaded from a tablero.txt text. */
static void
amz_file(union amz_buf *s, const char *text)
{
	char err[RULES_ERR_MAX] = "";

	amz_init(s);
	if (G->import_file(s->b, text, strlen(text), err, sizeof err) != 0)
		printf("     bad file: %s\n", err);
}

static void
amz_pos(const union amz_buf *s, char *buf)
{
	CHECK(G->to_position(s->b, buf, RULES_LINE_MAX) > 0);
}

/* Check that text is a legal move here. */
static void
amz_legal(const union amz_buf *s, const char *text, int from, int to, int arg)
{
	struct rules_move m = {RULES_NONE, RULES_NONE, RULES_NONE};
	char err[RULES_ERR_MAX] = "";
	int r = G->parse_move(s->b, text, &m, err, sizeof err);

	CHECK_INT(r, 0);
	if (r != 0)
		printf("     %s: %s\n", text, err);
	CHECK_INT(m.from, from);
	CHECK_INT(m.to, to);
	CHECK_INT(m.arg, arg);
}

/* Check that text is refused here with exactly this reason. */
static void
amz_illegal(const union amz_buf *s, const char *text, const char *reason)
{
	struct rules_move m;
	char err[RULES_ERR_MAX] = "";

	CHECK_INT(G->parse_move(s->b, text, &m, err, sizeof err), -1);
	CHECK_STR(err, reason);
}

/* Square number of a name, by the documented numbering. */
static int
sq(const char *name)
{
	return (name[1] - '1' + (name[2] == '0' ? 9 : 0)) * 10 +
	    (name[0] - 'a');
}

static void
test_descriptor(void)
{
	CHECK_STR(G->name, "amazons");
	CHECK_INT(G->seats, 2);
	CHECK_STR(G->seat_names[0], "white");
	CHECK_STR(G->seat_names[1], "black");
	CHECK_STR(G->file_format, "tablero.txt");
	/* The seed has no draws, so nobody may offer one (issue 13). */
	/* the start is the state as made: no level start to go back to */
	CHECK(G->restart == NULL);
	CHECK_INT(G->no_draw_offers, 1);
	CHECK(G->state_size > 0 && G->state_size <= RULES_STATE_MAX);
	CHECK(G->options != NULL && G->options[0].name == NULL);
	CHECK(G->init && G->turn && G->status && G->legal_moves &&
	    G->legal_from && G->parse_square && G->parse_move &&
	    G->format_move && G->describe_move && G->apply && G->to_position &&
	    G->from_position && G->import_file && G->export_file && G->render &&
	    G->board_rows && G->hash && G->perft);
	CHECK(rules_find("amazons") == G);
}

static void
test_squares(void)
{
	union amz_buf s;
	char err[RULES_ERR_MAX];
	int n = -5;

	amz_init(&s);
	CHECK_INT(sq("a1"), 0);
	CHECK_INT(sq("j10"), 99);
	CHECK_INT(G->parse_square(s.b, "a1", &n, err, sizeof err), 0);
	CHECK_INT(n, 0);
	CHECK_INT(G->parse_square(s.b, "J10", &n, err, sizeof err), 0);
	CHECK_INT(n, 99);
	CHECK_INT(G->parse_square(s.b, "e7", &n, err, sizeof err), 0);
	CHECK_INT(n, 64);
	CHECK_INT(G->parse_square(s.b, "k3", &n, err, sizeof err), -1);
	CHECK_STR(err, "not a square: k3");
	CHECK_INT(G->parse_square(s.b, "a0", &n, err, sizeof err), -1);
	CHECK_STR(err, "not a square: a0");
	CHECK_INT(G->parse_square(s.b, "a11", &n, err, sizeof err), -1);
	CHECK_STR(err, "not a square: a11");
	CHECK_INT(G->parse_square(s.b, "a01", &n, err, sizeof err), -1);
	CHECK_STR(err, "not a square: a01");
	CHECK_INT(G->parse_square(s.b, "", &n, err, sizeof err), -1);
	CHECK_STR(err, "not a square: ");
	CHECK_INT(G->parse_square(s.b, "b\x01", &n, err, sizeof err), -1);
	CHECK_STR(err, "not a square: b?");
}

static void
test_start(void)
{
	union amz_buf s;
	struct rules_status st;
	char buf[RULES_TEXT_MAX];

	amz_init(&s);
	CHECK_INT(G->turn(s.b), 0);
	G->status(s.b, &st);
	CHECK_INT(st.result, RULES_PLAYING);
	CHECK_INT(st.winner, RULES_NONE);
	CHECK_STR(st.reason, "");
	amz_pos(&s, buf);
	CHECK_STR(buf, START_POS);
	CHECK(G->board_rows(s.b, buf, sizeof buf) > 0);
	CHECK_STR(buf,
	    "...B..B...\n"
	    "..........\n"
	    "..........\n"
	    "B........B\n"
	    "..........\n"
	    "..........\n"
	    "W........W\n"
	    "..........\n"
	    "..........\n"
	    "...W..W...\n");
	CHECK(G->export_file(s.b, buf, sizeof buf) > 0);
	CHECK_STR(buf, "a4,d1,g1,j4\na7,d10,g10,j7\n\n1\n");
}

static void
test_render(void)
{
	static const char want[] =
	    "  | a | b | c | d | e | f | g | h | i | j |\n"
	    "  +---+---+---+---+---+---+---+---+---+---+\n"
	    "10| * | X |   |   |   |   |   |   |   |   |\n"
	    "  +---+---+---+---+---+---+---+---+---+---+\n"
	    " 9|   |   |   |   |   |   | * |   | 0 |   |\n"
	    "  +---+---+---+---+---+---+---+---+---+---+\n"
	    " 8| * |   |   |   |   |   |   |   |   |   |\n"
	    "  +---+---+---+---+---+---+---+---+---+---+\n"
	    " 7| 0 | * |   |   |   |   | X |   |   |   |\n"
	    "  +---+---+---+---+---+---+---+---+---+---+\n"
	    " 6| * | * |   |   |   |   |   |   |   | 0 |\n"
	    "  +---+---+---+---+---+---+---+---+---+---+\n"
	    " 5|   |   |   |   |   |   | * | * |   |   |\n"
	    "  +---+---+---+---+---+---+---+---+---+---+\n"
	    " 4|   |   |   |   |   |   |   | * |   |   |\n"
	    "  +---+---+---+---+---+---+---+---+---+---+\n"
	    " 3|   | * |   |   |   |   |   |   | X |   |\n"
	    "  +---+---+---+---+---+---+---+---+---+---+\n"
	    " 2|   | * |   |   |   |   |   |   |   |   |\n"
	    "  +---+---+---+---+---+---+---+---+---+---+\n"
	    " 1|   | X |   |   | * | * | 0 | * | * | * |\n"
	    "  +---+---+---+---+---+---+---+---+---+---+\n"
	    "0 white (player 1) - X black (player 2) - * arrow\n"
	    "white (player 1) to move\n";
	union amz_buf s;
	char buf[RULES_TEXT_MAX];
	int n;

	amz_file(&s, EXAMPLE_FILE);
	n = G->render(s.b, buf, sizeof buf);
	CHECK_INT(n, (int)strlen(want));
	CHECK_STR(buf, want);
	CHECK_INT(G->render(s.b, buf, 100), -1);
	CHECK(G->board_rows(s.b, buf, sizeof buf) == 110);
	CHECK_STR(buf,
	    "*B........\n"
	    "......*.W.\n"
	    "*.........\n"
	    "W*....B...\n"
	    "**.......W\n"
	    "......**..\n"
	    ".......*..\n"
	    ".*......B.\n"
	    ".*........\n"
	    ".B..**W***\n");
	CHECK_INT(G->board_rows(s.b, buf, 50), -1);
	amz_file(&s, FINAL_FILE);
	CHECK(G->render(s.b, buf, sizeof buf) > 0);
	CHECK(strstr(buf, "\nwhite wins: black has no move\n") != NULL);
}

/* The seed's example board and the four checks it gives. */
static void
test_seed_example(void)
{
	union amz_buf s;
	char buf[RULES_TEXT_MAX];

	amz_file(&s, EXAMPLE_FILE);
	amz_pos(&s, buf);
	CHECK_STR(buf, EXAMPLE_POS);
	CHECK_INT(G->turn(s.b), 0);
	CHECK(G->export_file(s.b, buf, sizeof buf) > 0);
	CHECK_STR(buf,
	    "a7,g1,i9,j6\n"
	    "b1,b10,g7,i3\n"
	    "a6,a8,a10,b2,b3,b6,b7,e1,f1,g5,g9,h1,h4,h5,i1,j1\n"
	    "1\n");
}

/* Check 1: "movimiento_valido(t, 'b1', 'a1') retorna True". */
static void
test_seed_check_b1_a1(void)
{
	union amz_buf s;

	amz_at(&s, "xB8/6x1W1/x9/Wx4B3/xx7W/6xx2/7x2/1x6B1/1x8/1B2xxWxxx b");
	amz_legal(&s, "b1-a1/a2", sq("b1"), sq("a1"), sq("a2"));
	/* the arrow may land on the square the amazon just left */
	amz_legal(&s, "b1-a1/b1", sq("b1"), sq("a1"), sq("b1"));
}

/* Check 2: i3 to f6 is refused: the arrows on the way block it. */
static void
test_seed_check_i3_f6(void)
{
	union amz_buf s;

	amz_at(&s, "xB8/6x1W1/x9/Wx4B3/xx7W/6xx2/7x2/1x6B1/1x8/1B2xxWxxx b");
	amz_illegal(&s, "i3-f6/f7", "queen path blocked at h4");
	amz_illegal(&s, "i3f6f7", "queen path blocked at h4");
}

/* Check 3: "lanzamiento_valido(t, 'c1', 'd1') retorna True". */
static void
test_seed_check_c1_d1(void)
{
	union amz_buf s;

	amz_at(&s, "xB8/6x1W1/x9/Wx4B3/xx7W/6xx2/7x2/1x6B1/1x8/1B2xxWxxx b");
	amz_legal(&s, "b1-c1/d1", sq("b1"), sq("c1"), sq("d1"));
}

/* Check 4: an arrow from g6 to g8 is stopped by the amazon on g7. */
static void
test_seed_check_g6_g8(void)
{
	union amz_buf s;

	amz_file(&s, EXAMPLE_FILE);
	amz_illegal(&s, "j6-g6/g8", "arrow path blocked at g7");
	amz_legal(&s, "j6-g6/f6", sq("j6"), sq("g6"), sq("f6"));
}

static void
test_notation(void)
{
	union amz_buf s;
	struct rules_move m = {3, 58, 94};
	char buf[RULES_LINE_MAX];

	amz_init(&s);
	amz_legal(&s, "d1-i6/e10", 3, 58, 94);
	amz_legal(&s, "d1i6e10", 3, 58, 94);
	amz_legal(&s, "D1-I6/E10", 3, 58, 94);
	amz_legal(&s, "D1i6E10", 3, 58, 94);
	amz_legal(&s, "  d1-i6/e10\t", 3, 58, 94);
	amz_legal(&s, "d1-i6e10", 3, 58, 94);
	amz_legal(&s, "d1i6/e10", 3, 58, 94);
	G->format_move(s.b, m, buf, sizeof buf);
	CHECK_STR(buf, "d1-i6/e10");
	G->describe_move(s.b, m, buf, sizeof buf);
	CHECK_STR(buf, "white moves d1 to i6 and shoots e10");
	G->apply(s.b, m);
	amz_pos(&s, buf);
	CHECK_STR(buf, "3Bx1B3/10/10/B8B/8W1/10/W8W/10/10/6W3 b");
	CHECK_INT(G->turn(s.b), 1);
	m.from = (int16_t)sq("a7");
	m.to = (int16_t)sq("a10");
	m.arg = (int16_t)sq("b10");
	G->describe_move(s.b, m, buf, sizeof buf);
	CHECK_STR(buf, "black moves a7 to a10 and shoots b10");
	G->format_move(s.b, m, buf, sizeof buf);
	CHECK_STR(buf, "a7-a10/b10");
	amz_legal(&s, "a7-a10/b10", sq("a7"), sq("a10"), sq("b10"));
}

/* Every illegal-move reason, from the opening unless said otherwise. */
static void
test_reasons(void)
{
	static const char *const malformed[] = {"", "   ", "d1", "d1-i6",
	    "d1-i6/", "d1--i6/e10", "d1-i6//e10", "d1/i6-e10", "hello",
	    "d1-i6/e10x", "d1-i6/e10-", "1d-6i/10e", "d-i6/e10", "d1 i6 e10",
	    "d1-i6/e10 e1", "d1-i6/e1\x80", "a1-a2/a3-a4/a5",
	    "d1-i6/e100000000000000000000000000000000"};
	static const char mal[] = "malformed move: expected like d1-i6/e10";
	union amz_buf s;
	size_t i;

	amz_init(&s);
	for (i = 0; i < sizeof malformed / sizeof malformed[0]; i++)
		amz_illegal(&s, malformed[i], mal);
	/* junk past the length limit is not cut off and ignored */
	amz_illegal(&s, "d1-i6/e10                              x", mal);
	amz_illegal(&s, "d1-i6/e10                        ", mal);
	amz_legal(&s, "d1-i6/e10                       ", 3, 58, 94);
	amz_illegal(&s, "k3-k4/k5", "not a square: k3");
	amz_illegal(&s, "d1-K3/a1", "not a square: k3");
	amz_illegal(&s, "d1-d2/d0", "not a square: d0");
	amz_illegal(&s, "d1-d11/d2", "not a square: d11");
	amz_illegal(&s, "d01-d2/d3", "not a square: d01");
	amz_illegal(&s, "a7-a8/a9", "no amazon of yours on a7");
	amz_illegal(&s, "e5-e6/e7", "no amazon of yours on e5");
	amz_illegal(&s, "d1-e3/e4", "d1 to e3 is not a straight line");
	amz_illegal(&s, "d1-d1/d2", "amazon d1 to d1 does not move");
	amz_illegal(&s, "a4-a8/a9", "queen path blocked at a7");
	amz_illegal(&s, "a4-a7/a8", "destination a7 is occupied");
	amz_illegal(&s, "a4-j4/j5", "destination j4 is occupied");
	amz_illegal(&s, "d1-g1/h1", "destination g1 is occupied");
	amz_illegal(&s, "d1-h1/h2", "queen path blocked at g1");
	amz_illegal(&s, "d1-i6/e3", "arrow i6 to e3 is not a straight line");
	amz_illegal(&s, "d1-i6/i6", "arrow i6 to i6 does not move");
	amz_illegal(&s, "d1-d9/d10", "arrow square d10 is occupied");
	amz_illegal(&s, "a4-a5/a10", "arrow path blocked at a7");
	amz_illegal(&s, "g1-g4/j4", "arrow square j4 is occupied");
	amz_illegal(&s, "g1-j1/j6", "arrow path blocked at j4");
	/* the arrow may fly over and onto the square the amazon left */
	amz_legal(&s, "a4-a6/a1", sq("a4"), sq("a6"), sq("a1"));
	amz_legal(&s, "d1-d5/d1", sq("d1"), sq("d5"), sq("d1"));
	/* the first blocking square along the way is the one named */
	amz_at(&s, "3B2B3/10/10/B8B/10/10/W1xx5W/10/10/3W2W3 w");
	amz_illegal(&s, "a4-e4/e5", "queen path blocked at c4");
	amz_illegal(&s, "a4-b4/f4", "arrow path blocked at c4");
	amz_illegal(&s, "a4-a6/e2", "arrow path blocked at c4");
	/* moving at a finished game */
	amz_file(&s, FINAL_FILE);
	amz_illegal(&s, "d10-e9/e8", "the game is over: black has no move");
	amz_illegal(&s, "zz", mal);
}

/* The last board of the seed's sample game: black cannot move and loses. */
static void
test_no_move(void)
{
	union amz_buf s;
	struct rules_status st;
	struct rules_move mv[8];
	char buf[RULES_LINE_MAX];

	amz_file(&s, FINAL_FILE);
	CHECK_INT(G->turn(s.b), 1);
	G->status(s.b, &st);
	CHECK_INT(st.result, RULES_WIN);
	CHECK_INT(st.winner, 0);
	CHECK_STR(st.reason, "no move");
	CHECK_INT(G->legal_moves(s.b, mv, 8), 0);
	CHECK_INT(G->legal_from(s.b, sq("d10"), mv, 8), 0);
	CHECK_U64(G->perft(s.b, 1), 0);
	CHECK_U64(G->perft(s.b, 2), 0);
	CHECK_U64(rules_perft_generic(G, s.b, 1), 0);
	/* the same board with white to move: white can still play */
	amz_pos(&s, buf);
	buf[strlen(buf) - 1] = 'w';
	amz_at(&s, buf);
	G->status(s.b, &st);
	CHECK_INT(st.result, RULES_PLAYING);
	CHECK(G->legal_moves(s.b, mv, 8) > 0);
	/* white boxed into the corners, white to move: black wins */
	amz_at(&s, "Wx6xW/xx6xx/10/10/BBBB6/10/10/10/xx6xx/Wx6xW w");
	G->status(s.b, &st);
	CHECK_INT(st.result, RULES_WIN);
	CHECK_INT(st.winner, 1);
	CHECK_STR(st.reason, "no move");
	CHECK_INT(G->legal_moves(s.b, mv, 8), 0);
	/* one empty neighbour is enough: step there, shoot back */
	amz_at(&s, "W1x5xW/xxx5xx/10/10/BBBB6/10/10/10/xx6xx/Wx6xW w");
	G->status(s.b, &st);
	CHECK_INT(st.result, RULES_PLAYING);
	CHECK_INT(G->legal_moves(s.b, mv, 8), 1);
	CHECK_INT(mv[0].from, sq("a10"));
	CHECK_INT(mv[0].to, sq("b10"));
	CHECK_INT(mv[0].arg, sq("a10"));
	G->apply(s.b, mv[0]);
	G->status(s.b, &st);
	CHECK_INT(st.result, RULES_PLAYING);
	CHECK_INT(G->turn(s.b), 1);
}

static void
test_legal_from(void)
{
	static struct rules_move all[RULES_MAX_MOVES], some[RULES_MAX_MOVES];
	union amz_buf s;
	int n, k, i, from_d1 = 0;

	amz_init(&s);
	n = G->legal_moves(s.b, all, RULES_MAX_MOVES);
	CHECK_INT(n, 2176);
	for (i = 0; i < n; i++)
		from_d1 += all[i].from == sq("d1");
	k = G->legal_from(s.b, sq("d1"), some, RULES_MAX_MOVES);
	CHECK_INT(k, from_d1);
	CHECK(k > 0);
	for (i = 0; i < k; i++)
		CHECK(some[i].from == sq("d1"));
	CHECK_INT(G->legal_from(s.b, sq("a7"), some, RULES_MAX_MOVES), 0);
	CHECK_INT(G->legal_from(s.b, sq("e5"), some, RULES_MAX_MOVES), 0);
	CHECK_INT(G->legal_from(s.b, -1, some, RULES_MAX_MOVES), 0);
	CHECK_INT(G->legal_from(s.b, 100, some, RULES_MAX_MOVES), 0);
	CHECK_INT(G->legal_moves(s.b, some, 10), 10);
}

/* Every generated move formats to text that parses back to itself. */
static void
check_moves_round_trip(const union amz_buf *s)
{
	static struct rules_move mv[RULES_MAX_MOVES];
	char text[RULES_LINE_MAX], err[RULES_ERR_MAX];
	int n, i, bad = 0;

	n = G->legal_moves(s->b, mv, RULES_MAX_MOVES);
	for (i = 0; i < n; i++) {
		struct rules_move m;

		G->format_move(s->b, mv[i], text, sizeof text);
		if (G->parse_move(s->b, text, &m, err, sizeof err) != 0 ||
		    m.from != mv[i].from || m.to != mv[i].to ||
		    m.arg != mv[i].arg)
			bad++;
	}
	CHECK_INT(bad, 0);
}

/* Count, by brute force over all 10^6 square triples, the texts that
 * parse; it must equal the number of generated moves. */
static void
check_parse_count(const union amz_buf *s)
{
	static struct rules_move mv[RULES_MAX_MOVES];
	char text[48], err[RULES_ERR_MAX];
	int n, a, b, c, ok = 0;

	n = G->legal_moves(s->b, mv, RULES_MAX_MOVES);
	for (a = 0; a < 100; a++) {
		if (G->legal_from(s->b, a, mv, 1) == 0)
			continue;
		for (b = 0; b < 100; b++)
			for (c = 0; c < 100; c++) {
				struct rules_move m;

				snprintf(text, sizeof text, "%c%d%c%d%c%d",
				    'a' + a % 10, a / 10 + 1, 'a' + b % 10,
				    b / 10 + 1, 'a' + c % 10, c / 10 + 1);
				ok += G->parse_move(
				          s->b, text, &m, err, sizeof err) == 0;
			}
	}
	CHECK_INT(ok, n);
}

static void
test_moves_parse_back(void)
{
	union amz_buf s;

	amz_init(&s);
	check_moves_round_trip(&s);
	check_parse_count(&s);
	amz_file(&s, EXAMPLE_FILE);
	check_moves_round_trip(&s);
	check_parse_count(&s);
}

static void
test_position_errors(void)
{
	static const struct {
		const char *pos, *reason;
	} bad[] = {
	    {"", "rank 10 has 0 squares, expected 10"},
	    {"3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3",
	        "expected a space and the side to move, w or b, after rank 1"},
	    {"3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3 ",
	        "expected a space and the side to move, w or b, after rank 1"},
	    {"3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3 x",
	        "expected a space and the side to move, w or b, after rank 1"},
	    {"3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3  w",
	        "expected a space and the side to move, w or b, after rank 1"},
	    {"3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3 wb",
	        "unexpected 'b' after the side to move"},
	    {"3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3 w\n",
	        "unexpected byte 0x0a after the side to move"},
	    {"3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3/10 w",
	        "more than 10 ranks in the board"},
	    {"3B2B3/10/10/B8B/10/10/W8W/10/3W2W3 w",
	        "expected '/' after rank 2: the board has 10 ranks"},
	    {"3B2B3/10/10/B8B/10/10/W8W/10/10 w",
	        "expected '/' after rank 2: the board has 10 ranks"},
	    {"3B2B3/10/10/B8B/10/10/W8W/10/9/3W2W3 w",
	        "rank 2 has 9 squares, expected 10"},
	    {"3B2B3/10/10/B8B/10/10/W8W/10/11/3W2W3 w",
	        "rank 2 has more than 10 squares"},
	    {"3B2B3/10/10/B8B/10/10/W9W/10/10/3W2W3 w",
	        "rank 4 has more than 10 squares"},
	    {"3B2B3/10/10/B8B/10/10/W8W/10/55/3W2W3 w",
	        "rank 2 has more than 10 squares"},
	    {"3B2B3/10/10/B8B/10/10/W8W/10/99999999999999/3W2W3 w",
	        "rank 2 has more than 10 squares"},
	    {"3B2B3/10/10/B8B/10/10/W8W/10/010/3W2W3 w",
	        "rank 2: a run of empty squares cannot start with 0"},
	    {"3B2B3/10/10/B8B/10/10/W8W/10/x0x8/3W2W3 w",
	        "rank 2: a run of empty squares cannot start with 0"},
	    {"3B2B3/10/10/B8B/10/10/W8W/10/w9/3W2W3 w",
	        "rank 2: unexpected 'w' (expected W, B, x or a digit)"},
	    {"3B2B3/10/10/B8B/10/10/W8W/10/*9/3W2W3 w",
	        "rank 2: unexpected '*' (expected W, B, x or a digit)"},
	    {"3B2B3/10/10/B8B/10/10/W8W/10/\x01"
	     "9/3W2W3 w",
	        "rank 2: unexpected byte 0x01 (expected W, B, x or a digit)"},
	    {"3B2B3/10/10/B8B/10/10/W8W/10/10/3W2x3 w",
	        "expected 4 white amazons, found 3"},
	    {"3B2B3/10/10/B8B/10/10/W8W/10/W9/3W2W3 w",
	        "expected 4 white amazons, found 5"},
	    {"3B2x3/10/10/B8B/10/10/W8W/10/10/3W2W3 b",
	        "expected 4 black amazons, found 3"},
	};
	union amz_buf s;
	char err[RULES_ERR_MAX], buf[RULES_LINE_MAX];
	size_t i;

	amz_init(&s);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		strcpy(err, "");
		CHECK_INT(
		    G->from_position(s.b, bad[i].pos, err, sizeof err), -1);
		CHECK_STR(err, bad[i].reason);
	}
	/* a refused position leaves the game as it was */
	amz_pos(&s, buf);
	CHECK_STR(buf, START_POS);
	CHECK_INT(G->to_position(s.b, buf, 10), -1);
	CHECK_INT(G->to_position(s.b, buf, sizeof START_POS - 1), -1);
	CHECK_INT(
	    G->to_position(s.b, buf, sizeof START_POS), (int)strlen(START_POS));
}

static void
test_position_round_trip(void)
{
	static const char *const good[] = {
	    START_POS,
	    EXAMPLE_POS,
	    "xB8/6x1W1/x9/Wx4B3/xx7W/6xx2/7x2/1x6B1/1x8/1B2xxWxxx b",
	    "Wx6xW/xx6xx/10/10/BBBB6/10/10/10/xx6xx/Wx6xW w",
	    "WWWWBBBBxx/xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx/"
	    "xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx/xxxxxxxxxx b",
	    "10/10/10/10/4WWWW2/2BBBB4/10/10/10/10 w",
	};
	union amz_buf s, t;
	char buf[RULES_LINE_MAX];
	size_t i;

	for (i = 0; i < sizeof good / sizeof good[0]; i++) {
		amz_at(&s, good[i]);
		amz_pos(&s, buf);
		CHECK_STR(buf, good[i]);
		amz_at(&t, buf);
		CHECK_U64(G->hash(t.b), G->hash(s.b));
		CHECK(memcmp(s.b, t.b, G->state_size) == 0);
	}
	amz_at(&s, good[4]);
	{
		struct rules_status st;

		G->status(s.b, &st);
		CHECK_INT(st.result, RULES_WIN);
		CHECK_INT(st.winner, 0);
	}
}

static void
test_file_formats(void)
{
	union amz_buf s;
	char buf[RULES_TEXT_MAX], err[RULES_ERR_MAX];
	static const char *const same[] = {
	    /* CRLF, no trailing newline, blank lines after, blanks, case */
	    "a7,g1,i9,j6\r\nb1,b10,g7,i3\r\n"
	    "a10,a8,a6,b7,b6,b3,b2,e1,f1,g5,g9,h1,h4,h5,i1,j1\r\n1\r\n",
	    "a7,g1,i9,j6\nb1,b10,g7,i3\n"
	    "a10,a8,a6,b7,b6,b3,b2,e1,f1,g5,g9,h1,h4,h5,i1,j1\n1",
	    "a7,g1,i9,j6\nb1,b10,g7,i3\n"
	    "a10,a8,a6,b7,b6,b3,b2,e1,f1,g5,g9,h1,h4,h5,i1,j1\n1\n\n\r\n  \n",
	    "g1, a7 ,j6,i9\nB1,B10,G7,I3\n"
	    " a10,a8,a6,b7,b6,b3,b2,e1,f1,g5,g9,h1,h4,h5,i1,j1 \n 1 \n",
	};
	size_t i;

	for (i = 0; i < sizeof same / sizeof same[0]; i++) {
		amz_init(&s);
		CHECK_INT(G->import_file(
		              s.b, same[i], strlen(same[i]), err, sizeof err),
		    0);
		amz_pos(&s, buf);
		CHECK_STR(buf, EXAMPLE_POS);
	}
	/* no arrows, black to move; export, then import again */
	amz_at(&s, "3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3 b");
	CHECK(G->export_file(s.b, buf, sizeof buf) > 0);
	CHECK_STR(buf, "a4,d1,g1,j4\na7,d10,g10,j7\n\n2\n");
	amz_init(&s);
	CHECK_INT(G->import_file(s.b, buf, strlen(buf), err, sizeof err), 0);
	amz_pos(&s, buf);
	CHECK_STR(buf, "3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3 b");
	CHECK_INT(G->export_file(s.b, buf, 10), -1);
	amz_file(&s, FINAL_FILE);
	CHECK(G->export_file(s.b, buf, sizeof buf) > 0);
	amz_init(&s);
	CHECK_INT(G->import_file(s.b, buf, strlen(buf), err, sizeof err), 0);
	CHECK(G->export_file(s.b, err, sizeof err) == -1);
	{
		char again[RULES_TEXT_MAX];

		CHECK(G->export_file(s.b, again, sizeof again) > 0);
		CHECK_STR(again, buf);
	}
}

static void
test_file_errors(void)
{
	static const struct {
		const char *text, *reason;
	} bad[] = {
	    {"", "line 1: missing, expected the white amazons"},
	    {"a7,g1,i9,j6", "line 2: missing, expected the black amazons"},
	    {"a7,g1,i9,j6\n", "line 2: missing, expected the black amazons"},
	    {"a7,g1,i9,j6\nb1,b10,g7,i3\n",
	        "line 3: missing, expected the arrows"},
	    {"a7,g1,i9,j6\nb1,b10,g7,i3\n\n",
	        "line 4: missing, expected the player to move (1 or 2)"},
	    {"a7,g1,i9,j6\r\nb1,b10,g7,i3\r\na1\r\n",
	        "line 4: missing, expected the player to move (1 or 2)"},
	    {"a7,g1,i9,j6\nb1,b10,g7,i3\n\n1\n2\n",
	        "line 5: unexpected text after the 4 lines of the file"},
	    {"a7,g1,i9,j6\nb1,b10,g7,i3\n\n1\n\n\nx",
	        "line 7: unexpected text after the 4 lines of the file"},
	    {"a7,g1,i9,j6\nb1,b10,g7,i3\nz9\n1\n",
	        "line 3: 'z9' is not a square"},
	    {"a7,g1,i9,j6\nb1,b10,g7,i3\na1,a11\n1\n",
	        "line 3: 'a11' is not a square"},
	    {"a7,g1,i9,k6\nb1,b10,g7,i3\n\n1\n",
	        "line 1: 'k6' is not a square"},
	    {"a7,g1,i9 j6\nb1,b10,g7,i3\n\n1\n",
	        "line 1: 'i9 j6' is not a square"},
	    {"a7;g1;i9;j6\nb1,b10,g7,i3\n\n1\n",
	        "line 1: 'a7;g1;i9;j6' is not a square"},
	    {"a7,g1,i9,j6\nb1,b10,g7,0123456789012345678\n\n1\n",
	        "line 2: '012345678901...' is not a square"},
	    {"a7,g1,i9,j6\nb1,b10,g7,i\x01\n\n1\n",
	        "line 2: 'i?' is not a square"},
	    {"a7,g1,i9\nb1,b10,g7,i3\n\n1\n",
	        "line 1: expected 4 amazons, found 3"},
	    {"a7,g1,i9,j6\nb1,b10,g7,i3,i4\n\n1\n",
	        "line 2: expected 4 amazons, found 5"},
	    {"\nb1,b10,g7,i3\n\n1\n", "line 1: expected 4 amazons, found 0"},
	    {"a7,g1,i9,j6\nb1,b1,g7,i3\n\n1\n",
	        "line 2: square b1 is used twice"},
	    {"a7,g1,i9,j6\nb1,b10,g7,a7\n\n1\n",
	        "line 2: square a7 is used twice"},
	    {"a7,g1,i9,j6\nb1,b10,g7,i3\na1,B10\n1\n",
	        "line 3: square b10 is used twice"},
	    {"a7,g1,,j6\nb1,b10,g7,i3\n\n1\n",
	        "line 1: square 3 of the list is empty"},
	    {"a7,g1,i9,j6,\nb1,b10,g7,i3\n\n1\n",
	        "line 1: square 5 of the list is empty"},
	    {"a7,g1,i9,j6\nb1,b10,g7,i3\n,\n1\n",
	        "line 3: square 1 of the list is empty"},
	    {"a7,g1,i9,j6\nb1,b10,g7,i3\n\n3\n",
	        "line 4: expected the player to move, 1 or 2, found '3'"},
	    {"a7,g1,i9,j6\nb1,b10,g7,i3\n\n12\n",
	        "line 4: expected the player to move, 1 or 2, found '12'"},
	    {"a7,g1,i9,j6\nb1,b10,g7,i3\n\nwhite\n",
	        "line 4: expected the player to move, 1 or 2, found 'white'"},
	    {"a7,g1,i9,j6\nb1,b10,g7,i3\n\n \n",
	        "line 4: expected the player to move, 1 or 2, found ''"},
	};
	union amz_buf s;
	char err[RULES_ERR_MAX], buf[RULES_LINE_MAX];
	static char big[5000];
	size_t i;

	amz_init(&s);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		strcpy(err, "");
		CHECK_INT(G->import_file(s.b, bad[i].text, strlen(bad[i].text),
		              err, sizeof err),
		    -1);
		CHECK_STR(err, bad[i].reason);
	}
	/* a NUL byte inside the file is an error, not the end of the text */
	{
		static const char nul[] = "a7,g1,i9,j6\nb1,b10,g7,i3\n\n1\0\n";

		CHECK_INT(
		    G->import_file(s.b, nul, sizeof nul - 1, err, sizeof err),
		    -1);
		CHECK_STR(err,
		    "line 4: expected the player to move, 1 or 2, found '1?'");
	}
	/* an oversized file is refused before it is read */
	memset(big, ' ', sizeof big);
	CHECK_INT(G->import_file(s.b, big, sizeof big, err, sizeof err), -1);
	CHECK_STR(err, "the file is longer than 4096 bytes");
	/* the game is untouched by refused files */
	amz_pos(&s, buf);
	CHECK_STR(buf, START_POS);
}

static void
test_hash(void)
{
	union amz_buf a, b;
	char err[RULES_ERR_MAX];
	struct rules_move m;
	static const char *const one[] = {"d1-d2/d3", "a7-a8/a9", "g1-g2/g3"};
	static const char *const two[] = {"g1-g2/g3", "a7-a8/a9", "d1-d2/d3"};
	int i;

	amz_init(&a);
	amz_init(&b);
	CHECK_U64(G->hash(a.b), G->hash(b.b));
	for (i = 0; i < 3; i++) {
		CHECK_INT(G->parse_move(a.b, one[i], &m, err, sizeof err), 0);
		G->apply(a.b, m);
		CHECK_INT(G->parse_move(b.b, two[i], &m, err, sizeof err), 0);
		G->apply(b.b, m);
	}
	CHECK_U64(G->hash(a.b), G->hash(b.b));
	CHECK(memcmp(a.b, b.b, G->state_size) == 0);
	amz_init(&b);
	CHECK(G->hash(a.b) != G->hash(b.b));
	amz_at(&b, "3B2B3/10/10/B8B/10/10/W8W/10/10/3W2W3 b");
	CHECK(G->hash(b.b) != G->hash(a.b));
	amz_init(&a);
	CHECK(G->hash(a.b) != G->hash(b.b));
}

static void
test_perft_published(void)
{
	union amz_buf s;

	amz_init(&s);
	CHECK_U64(G->perft(s.b, 0), 1);
	CHECK_U64(G->perft(s.b, 1), 2176);
	CHECK_U64(G->perft(s.b, 2), 4307152);
	CHECK_U64(rules_perft(G, s.b, 2), 4307152);
	CHECK_U64(rules_perft_generic(G, s.b, 1), 2176);
	CHECK_U64(rules_perft_generic(G, s.b, 2), 4307152);
}

/* Play n pseudo-random plies from s (stopping at the end of the game). */
static int
amz_playout(union amz_buf *s, struct rules_rng *rng, int n)
{
	static struct rules_move mv[RULES_MAX_MOVES];
	int i, k;

	for (i = 0; i < n; i++) {
		k = G->legal_moves(s->b, mv, RULES_MAX_MOVES);
		if (k == 0)
			return i;
		G->apply(s->b, mv[rules_rng_below(rng, (unsigned)k)]);
	}
	return n;
}

/* Games played at random: every position round-trips through the string
 * and the file, the fast perft agrees with the generic one, and the game
 * ends with a win for the side that made the last move. */
static void
test_random_games(void)
{
	union amz_buf s, t;
	struct rules_rng rng;
	struct rules_status st;
	char pos[RULES_LINE_MAX], again[RULES_LINE_MAX];
	char file[RULES_TEXT_MAX], err[RULES_ERR_MAX];
	int game, plies, bad = 0, agree = 0, checked = 0;

	rules_rng_seed(&rng, 2016);
	for (game = 0; game < 12; game++) {
		amz_init(&s);
		plies = 0;
		for (;;) {
			int n = amz_playout(&s, &rng, 7);

			plies += n;
			amz_pos(&s, pos);
			amz_at(&t, pos);
			amz_pos(&t, again);
			bad += strcmp(pos, again) != 0;
			bad += memcmp(s.b, t.b, G->state_size) != 0;
			CHECK(G->export_file(s.b, file, sizeof file) > 0);
			amz_init(&t);
			bad += G->import_file(t.b, file, strlen(file), err,
			           sizeof err) != 0;
			bad += memcmp(s.b, t.b, G->state_size) != 0;
			if (plies >= 30 && checked < 4 && game % 3 == 0) {
				agree += G->perft(s.b, 2) ==
				    rules_perft_generic(G, s.b, 2);
				checked++;
			}
			if (n < 7)
				break;
		}
		G->status(s.b, &st);
		CHECK_INT(st.result, RULES_WIN);
		CHECK_INT(st.winner, 1 - G->turn(s.b));
		CHECK_INT(st.winner, (plies + 1) % 2);
		CHECK_U64(G->perft(s.b, 1), 0);
	}
	CHECK_INT(bad, 0);
	CHECK_INT(checked, 4);
	CHECK_INT(agree, checked);
}

/* An open early game and a crowded middle game: fast and generic perft
 * agree, to depth 2 and 3. */
static void
test_perft_midgame(void)
{
	union amz_buf s;
	struct rules_rng rng;
	uint64_t fast;

	amz_init(&s);
	rules_rng_seed(&rng, 7);
	CHECK_INT(amz_playout(&s, &rng, 6), 6);
	fast = G->perft(s.b, 2);
	CHECK(fast > 1000000);
	CHECK_U64(rules_perft_generic(G, s.b, 2), fast);
	CHECK_INT(amz_playout(&s, &rng, 38), 38);
	fast = G->perft(s.b, 3);
	CHECK(fast > 0);
	CHECK_U64(rules_perft_generic(G, s.b, 3), fast);
	CHECK_U64(G->perft(s.b, 2), rules_perft_generic(G, s.b, 2));
}

int
main(void)
{
	test_descriptor();
	test_squares();
	test_start();
	test_render();
	test_seed_example();
	test_seed_check_b1_a1();
	test_seed_check_i3_f6();
	test_seed_check_c1_d1();
	test_seed_check_g6_g8();
	test_notation();
	test_reasons();
	test_no_move();
	test_legal_from();
	test_moves_parse_back();
	test_position_errors();
	test_position_round_trip();
	test_file_formats();
	test_file_errors();
	test_hash();
	test_perft_published();
	test_random_games();
	test_perft_midgame();
	return check_done();
}
