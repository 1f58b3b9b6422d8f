/*
 * test_shifter.c: Shape Shifter Chess: the movimientos.csv parser, every
 * rule and illegal-move reason, the position string, the level file, the
 * generator over many seeds and levels, and the solver.
 *
 * `test_shifter bench [SEEDS]` instead times the solver on level 20 (median
 * of 3 runs for each of 20 seeds), then solves every level for SEEDS seeds
 * (default 300), and prints the numbers; no test here asserts on time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ai/ai.h"
#include "check.h"
#include "rules/games.h"
#include "rules/shifter.h"

static const struct rules_game *G = &rules_shifter;

/* The seed's movimientos.csv, line for line. */
static const char seed_csv[] = "caballo,1;2,false\n"
                               "caballo,2;1,false\n"
                               "caballo,-1;2,false\n"
                               "caballo,-2;1,false\n"
                               "caballo,-1;-2,false\n"
                               "caballo,-2;-1,false\n"
                               "caballo,1;-2,false\n"
                               "caballo,2;-1,false\n"
                               "torre,0;1,true\n"
                               "torre,1;0,true\n"
                               "torre,-1;0,true\n"
                               "torre,0;-1,true\n"
                               "alfil,1;1,true\n"
                               "alfil,-1;1,true\n"
                               "alfil,-1;-1,true\n"
                               "alfil,1;-1,true\n";

/* A level-3 board that can be won: caballo b1 -> torre c3 -> alfil c7
 * (the torre jumps over c5) -> torre e5 -> caballo c5. */
static const char pos_win[] = "3 ......../..A...../......../..C.T.../"
                              "......../..T...../......../.C...... b1";
/* The same but the second torre on h2: every order leaves a piece. */
static const char pos_lost[] = "3 ......../..A...../......../..C...../"
                               "......../..T...../.......T/.C...... b1";

/* Check the options and init; the init's result, its reason in err. */
static int
t_init(struct shifter_state *s, const char *seed, const char *level,
    const char *moves, const char *file, char *err)
{
	struct rules_opt o[4];
	int n = 0;

	if (seed != NULL)
		o[n++] = (struct rules_opt){"seed", seed};
	if (level != NULL)
		o[n++] = (struct rules_opt){"level", level};
	if (moves != NULL)
		o[n++] = (struct rules_opt){"moves", moves};
	if (file != NULL)
		o[n++] = (struct rules_opt){"file", file};
	err[0] = '\0';
	if (rules_opts_check(G, o, n, err, RULES_ERR_MAX) != 0)
		return -1;
	return G->init(s, o, n, err, RULES_ERR_MAX);
}

/* A generated level. */
static int
t_level(struct shifter_state *s, int seed, int level)
{
	char a[16], b[16], err[RULES_ERR_MAX];

	snprintf(a, sizeof a, "%d", seed);
	snprintf(b, sizeof b, "%d", level);
	return t_init(s, a, b, NULL, NULL, err);
}

/* A position on the shipped table. */
static int
t_pos(struct shifter_state *s, const char *pos)
{
	char err[RULES_ERR_MAX];

	if (t_init(s, NULL, NULL, NULL, NULL, err) != 0)
		return -1;
	return G->from_position(s, pos, err, sizeof err);
}

static int
t_sq(const char *name)
{
	int sq = -1;
	char err[RULES_ERR_MAX];

	G->parse_square(NULL, name, &sq, err, sizeof err);
	return sq;
}

/* The table parser's reason for text (or "" when it parses). */
static const char *
t_csv_err(const char *text)
{
	static struct shifter_state s;
	static char err[RULES_ERR_MAX];

	memset(&s, 0, sizeof s);
	if (shifter_table_parse(&s, text, strlen(text), err, sizeof err) == 0)
		return "";
	return err;
}

/* from_position's reason for text (or "" when it is accepted). */
static const char *
t_pos_err(const char *text)
{
	static struct shifter_state s;
	static char err[RULES_ERR_MAX];
	char e[RULES_ERR_MAX];

	t_init(&s, NULL, NULL, NULL, NULL, e);
	if (G->from_position(&s, text, err, sizeof err) == 0)
		return "";
	return err;
}

/* import_file's reason for text (or "" when it is accepted); a refused
 * file must leave the state as it was. */
static const char *
t_file_err(const char *text)
{
	static struct shifter_state s, before;
	static char err[RULES_ERR_MAX];

	t_level(&s, 1, 3);
	before = s;
	if (G->import_file(&s, text, strlen(text), err, sizeof err) == 0)
		return "";
	CHECK(memcmp(&s, &before, sizeof s) == 0);
	return err;
}

/* parse_move's reason (or "" when legal). */
static const char *
t_move_err(const struct shifter_state *s, const char *text)
{
	static char err[RULES_ERR_MAX];
	struct rules_move m;

	if (G->parse_move(s, text, &m, err, sizeof err) == 0)
		return "";
	return err;
}

/* Play a move given in notation; 0 when it was legal. */
static int
t_play(struct shifter_state *s, const char *text)
{
	struct rules_move m;
	char err[RULES_ERR_MAX];

	if (G->parse_move(s, text, &m, err, sizeof err) != 0)
		return -1;
	G->apply(s, m);
	return 0;
}

static void
test_descriptor(void)
{
	int k;

	CHECK(rules_find("shifter") == G);
	CHECK_STR(G->name, "shifter");
	CHECK_STR(G->title, "Shape Shifter Chess");
	CHECK_INT(G->seats, 1);
	CHECK_STR(G->seat_names[0], "player");
	CHECK_STR(G->file_format, "level file");
	CHECK(G->state_size <= RULES_STATE_MAX);
	CHECK(G->init && G->turn && G->status && G->legal_moves &&
	    G->legal_from && G->parse_square && G->parse_move &&
	    G->format_move && G->describe_move && G->apply && G->to_position &&
	    G->from_position && G->import_file && G->export_file && G->render &&
	    G->board_rows && G->hash && G->restart);
	for (k = 0; G->options[k].name != NULL; k++)
		;
	CHECK_INT(k, 4);
}

static void
test_shipped_table(void)
{
	struct shifter_state s;
	char err[RULES_ERR_MAX];
	const char *data;
	size_t len = 0;

	data = rules_data("shifter/movimientos.csv", &len);
	CHECK(data != NULL);
	CHECK_INT(len, strlen(seed_csv));
	CHECK_STR(data, seed_csv);
	CHECK_INT(t_init(&s, "1", "1", NULL, NULL, err), 0);
	CHECK_INT(s.nkinds, 3);
	CHECK_STR(s.kind[0].name, "caballo");
	CHECK_STR(s.kind[1].name, "torre");
	CHECK_STR(s.kind[2].name, "alfil");
	CHECK_INT(s.kind[0].letter, 'C');
	CHECK_INT(s.kind[1].letter, 'T');
	CHECK_INT(s.kind[2].letter, 'A');
	CHECK_INT(s.kind[0].nsteps, 8);
	CHECK_INT(s.kind[1].nsteps, 4);
	CHECK_INT(s.kind[2].nsteps, 4);
	CHECK_INT(s.kind[0].step[0].dx, 1);
	CHECK_INT(s.kind[0].step[0].dy, 2);
	CHECK_INT(s.kind[1].step[0].extends, 1);
	CHECK_INT(s.kind[0].step[0].extends, 0);
}

static void
test_reach(void)
{
	struct shifter_state s;
	char err[RULES_ERR_MAX];

	t_init(&s, NULL, NULL, NULL, NULL, err);
	/* caballo on a8: b6 and c7. */
	CHECK_U64(shifter_reach(&s, 0, t_sq("a8")),
	    (1ULL << t_sq("b6")) | (1ULL << t_sq("c7")));
	CHECK_INT(__builtin_popcountll(shifter_reach(&s, 0, t_sq("d4"))), 8);
	CHECK_INT(__builtin_popcountll(shifter_reach(&s, 1, t_sq("d4"))), 14);
	CHECK_INT(__builtin_popcountll(shifter_reach(&s, 2, t_sq("a1"))), 7);
	CHECK_INT(__builtin_popcountll(shifter_reach(&s, 2, t_sq("d4"))), 13);
	/* The direction convention: dx to the right, dy down the picture. */
	CHECK_INT(t_init(&s, NULL, NULL, "abajo,0;1,false\nderecha,1;0,false\n",
	              NULL, err),
	    0);
	CHECK_U64(shifter_reach(&s, 0, t_sq("e4")), 1ULL << t_sq("e3"));
	CHECK_U64(shifter_reach(&s, 1, t_sq("e4")), 1ULL << t_sq("f4"));
	CHECK_U64(shifter_reach(&s, 0, t_sq("e1")), 0);
}

static void
test_csv_good(void)
{
	static struct shifter_state s;
	char text[4096], err[RULES_ERR_MAX];
	size_t n;
	int i;

	CHECK_STR(t_csv_err(seed_csv), "");
	/* CRLF, blanks, comments, spaces around fields, any case of
	 * true/false, a piece's lines apart, a file without a last
	 * newline. */
	memset(&s, 0, sizeof s);
	strcpy(text,
	    "# pieces\r\n\r\n  rey , 1 ; 0 , TRUE \r\n"
	    "dama,1;1,False\r\n\nrey,-1;0,true");
	CHECK_INT(
	    shifter_table_parse(&s, text, strlen(text), err, sizeof err), 0);
	CHECK_INT(s.nkinds, 2);
	CHECK_STR(s.kind[0].name, "rey");
	CHECK_INT(s.kind[0].nsteps, 2);
	CHECK_INT(s.kind[0].step[1].dx, -1);
	CHECK_INT(s.kind[0].step[0].extends, 1);
	CHECK_INT(s.kind[1].step[0].extends, 0);
	CHECK_INT(s.kind[0].letter, 'R');
	CHECK_INT(s.kind[1].letter, 'D');
	/* Letters: the first letter of the name unless taken, else the first
	 * free one from A. */
	memset(&s, 0, sizeof s);
	strcpy(text,
	    "torre,1;0,true\ntanque,1;1,false\nalfil,1;1,true\n"
	    "_x,2;2,false\nB-9,3;3,false\n");
	CHECK_INT(
	    shifter_table_parse(&s, text, strlen(text), err, sizeof err), 0);
	CHECK_INT(s.kind[0].letter, 'T');
	CHECK_INT(s.kind[1].letter, 'A');
	CHECK_INT(s.kind[2].letter, 'B');
	CHECK_INT(s.kind[3].letter, 'C');
	CHECK_INT(s.kind[4].letter, 'D');
	/* The limits exactly: 16 pieces, 32 steps, 15-byte names, 7;-7. */
	n = 0;
	for (i = 0; i < SHIFTER_MAX_KINDS; i++)
		n += (size_t)snprintf(
		    text + n, sizeof text - n, "p%d,1;0,false\n", i);
	CHECK_STR(t_csv_err(text), "");
	n = 0;
	for (i = 0; i < SHIFTER_MAX_STEPS; i++)
		n += (size_t)snprintf(text + n, sizeof text - n,
		    "abcdefghijklmno,%d;-7,false\n", i % 15 - 7);
	CHECK_STR(t_csv_err(text), "");
}

static void
test_csv_bad(void)
{
	char text[4096];
	size_t n;
	int i;

	CHECK_STR(t_csv_err(""), "no pieces defined");
	CHECK_STR(t_csv_err("\n\r\n  \n# nothing\n"), "no pieces defined");
	CHECK_STR(t_csv_err("a,1;0,true\nb,1;0,true\nc,1;0,true\nd,1;0\n"),
	    "line 4: expected piece,dx;dy,extensible");
	CHECK_STR(t_csv_err("a,1;0,true,x\n"),
	    "line 1: expected piece,dx;dy,extensible");
	CHECK_STR(
	    t_csv_err("a,1,true\n"), "line 1: expected piece,dx;dy,extensible");
	CHECK_STR(t_csv_err("a,1;x,true\n"),
	    "line 1: expected piece,dx;dy,extensible");
	CHECK_STR(t_csv_err("a,;1,true\n"),
	    "line 1: expected piece,dx;dy,extensible");
	CHECK_STR(t_csv_err("a,1;2;3,true\n"),
	    "line 1: expected piece,dx;dy,extensible");
	CHECK_STR(t_csv_err("a,1;1234567890,true\n"),
	    "line 1: expected piece,dx;dy,extensible");
	CHECK_STR(t_csv_err("pieza,dir_x;dir_y,extensible\n"),
	    "line 1: expected piece,dx;dy,extensible");
	CHECK_STR(t_csv_err("\n\n\n\n\n\na,1;0,true\nb,1;1,si\n"),
	    "line 8: extensible must be true or false");
	CHECK_STR(
	    t_csv_err("a,1;0,\n"), "line 1: extensible must be true or false");
	CHECK_STR(t_csv_err("a,1;0,true\nb,0;0,false\n"),
	    "line 2: step 0;0 never moves");
	CHECK_STR(t_csv_err("a,1;0,true\nb,-0;+0,false\n"),
	    "line 2: step 0;0 never moves");
	CHECK_STR(t_csv_err("\n\n\n\n\n\n\n\nz,9;1,false\n"),
	    "line 9: step 9;1 is off any 8x8 board");
	CHECK_STR(t_csv_err("z,1;-8,true\n"),
	    "line 1: step 1;-8 is off any 8x8 board");
	CHECK_STR(t_csv_err("dama reina,1;1,true\n"),
	    "line 1: a piece name is one word of letters, digits, _ or - "
	    "(character 5 is not)");
	CHECK_STR(t_csv_err(",1;1,true\n"),
	    "line 1: a piece name is 1 to 15 characters (at most 32 bytes)");
	CHECK_STR(t_csv_err("abcdefghijklmnop,1;1,true\n"),
	    "line 1: a piece name is 1 to 15 characters (at most 32 bytes)");
	CHECK_STR(t_csv_err("a,1;0,true\nb\r,1;0,true\n"),
	    "line 2: a piece name is one word of letters, digits, _ or - "
	    "(character 2 is not)");
	n = 0;
	for (i = 0; i < 39; i++)
		n += (size_t)snprintf(
		    text + n, sizeof text - n, "p%d,1;0,false\n", i % 16);
	n += (size_t)snprintf(text + n, sizeof text - n, "extra,1;0,false\n");
	CHECK_STR(t_csv_err(text), "too many pieces (max 16): line 40");
	n = 0;
	for (i = 0; i < SHIFTER_MAX_STEPS + 1; i++)
		n += (size_t)snprintf(
		    text + n, sizeof text - n, "rey,1;0,false\n");
	CHECK_STR(t_csv_err(text), "line 33: too many moves for rey (max 32)");
}

static void
test_csv_options(void)
{
	struct shifter_state s;
	char err[RULES_ERR_MAX], *big;

	CHECK_INT(
	    t_init(&s, NULL, NULL, "a,1;0,true\nb,1;1,si\n", NULL, err), -1);
	CHECK_STR(err, "moves: line 2: extensible must be true or false");
	CHECK_INT(t_init(&s, NULL, NULL, "", NULL, err), -1);
	CHECK_STR(err, "moves: no pieces defined");
	big = malloc(16386);
	memset(big, '\n', 16385);
	big[16385] = '\0';
	CHECK_INT(t_init(&s, NULL, NULL, big, NULL, err), -1);
	CHECK_STR(err, "option 'moves' is longer than 16384 bytes");
	CHECK_INT(shifter_table_parse(&s, big, 16385, err, sizeof err), -1);
	CHECK_STR(err, "the file is longer than 16384 bytes");
	free(big);
	/* A custom table: every generated piece is a rey. */
	CHECK_INT(t_init(&s, "3", "5",
	              "rey,1;0,false\nrey,-1;0,false\nrey,0;1,false\n"
	              "rey,0;-1,false\nrey,1;1,false\nrey,-1;1,false\n"
	              "rey,1;-1,false\nrey,-1;-1,false\n",
	              NULL, err),
	    0);
	CHECK_INT(s.nkinds, 1);
	CHECK_INT(__builtin_popcountll(shifter_occupied(&s)), 7);
	CHECK_INT(ai_shifter_solve(&s, 0, NULL, NULL), AI_WINNABLE);
	/* Options out of range. */
	CHECK_INT(t_init(&s, NULL, "0", NULL, NULL, err), -1);
	CHECK_STR(err, "option 'level' must be a whole number from 1 to 62");
	CHECK_INT(t_init(&s, NULL, "63", NULL, NULL, err), -1);
	CHECK_INT(t_init(&s, "-1", NULL, NULL, NULL, err), -1);
	CHECK_INT(t_init(&s, "2147483647", "62", NULL, NULL, err), 0);
}

/* Check a generated level: N+2 pieces of known kinds, the active one on a
 * piece, the start layout the same as the board. */
static void
t_check_generated(const struct shifter_state *s, int level)
{
	int sq, count = 0, bad = 0;

	for (sq = 0; sq < SHIFTER_SQUARES; sq++) {
		if (s->board[sq] == SHIFTER_EMPTY)
			continue;
		count++;
		if (s->board[sq] < 0 || s->board[sq] >= s->nkinds)
			bad++;
	}
	CHECK_INT(count, level + 2);
	CHECK_INT(bad, 0);
	CHECK_INT(s->level, level);
	CHECK(s->active >= 0 && s->active < SHIFTER_SQUARES &&
	    s->board[(int)s->active] != SHIFTER_EMPTY);
	CHECK(memcmp(s->board, s->start, sizeof s->board) == 0);
	CHECK_INT(s->start_active, s->active);
}

static void
test_generator(void)
{
	static struct shifter_state a, b;
	int level, seed, same = 0;

	for (level = 1; level <= SHIFTER_MAX_LEVEL; level++) {
		for (seed = 0; seed < 40; seed++) {
			CHECK_INT(t_level(&a, seed, level), 0);
			t_check_generated(&a, level);
		}
	}
	/* The same options make the same level; another seed another. */
	CHECK_INT(t_level(&a, 12345, 10), 0);
	CHECK_INT(t_level(&b, 12345, 10), 0);
	CHECK(memcmp(&a, &b, sizeof a) == 0);
	for (seed = 0; seed < 50; seed++) {
		t_level(&b, seed, 10);
		same += memcmp(a.board, b.board, sizeof a.board) == 0;
	}
	CHECK_INT(same, 0);
	/* Out of range, or no table. */
	{
		char err[RULES_ERR_MAX];

		a = b;
		CHECK_INT(shifter_generate(&a, 0, 1, err, sizeof err), -1);
		CHECK_STR(err, "level must be 1 to 62");
		CHECK_INT(shifter_generate(&a, 63, 1, err, sizeof err), -1);
		a.nkinds = 0;
		CHECK_INT(shifter_generate(&a, 5, 1, err, sizeof err), -1);
		CHECK_STR(err, "no pieces defined");
	}
	/* No seed option: seed 1. */
	{
		char err[RULES_ERR_MAX];

		CHECK_INT(t_init(&a, NULL, "7", NULL, NULL, err), 0);
		CHECK_INT(t_level(&b, 1, 7), 0);
		CHECK(memcmp(&a, &b, sizeof a) == 0);
		/* A piece that only steps right cannot make a long level:
		 * the generator gives up with a reason. */
		CHECK_INT(
		    t_init(&a, "1", "20", "paso,1;0,false\n", NULL, err), -1);
		CHECK_STR(err,
		    "could not place the 22 pieces of level 20 in 1000 tries "
		    "with these pieces");
		CHECK_INT(
		    t_init(&a, "1", "5", "paso,1;0,false\n", NULL, err), 0);
		CHECK_INT(__builtin_popcountll(shifter_occupied(&a)), 7);
	}
}

/* Follow the solver's hints to the end; 1 when that wins the level. */
static int
t_follow_hints(struct shifter_state *s)
{
	struct rules_status st;
	struct rules_move hint;
	int guard;

	for (guard = 0; guard < SHIFTER_SQUARES; guard++) {
		if (ai_shifter_solve(s, 0, NULL, &hint) != AI_WINNABLE)
			return 0;
		if (hint.to == RULES_NONE)
			break;
		G->apply(s, hint);
	}
	G->status(s, &st);
	return st.result == RULES_SOLVED && hint.to == RULES_NONE;
}

static void
test_generated_solvable(void)
{
	static struct shifter_state s;
	int level, seed, lost = 0, failed = 0;

	for (level = 1; level <= 30; level++) {
		for (seed = 0; seed < 40; seed++) {
			t_level(&s, seed, level);
			if (ai_shifter_solve(&s, 0, NULL, NULL) != AI_WINNABLE)
				lost++;
			if (seed < 8 && !t_follow_hints(&s))
				failed++;
		}
	}
	CHECK_INT(lost, 0);
	CHECK_INT(failed, 0);
	/* And a few of the high levels. */
	for (level = 31; level <= SHIFTER_MAX_LEVEL; level += 5) {
		t_level(&s, level, level);
		CHECK_INT(ai_shifter_solve(&s, 0, NULL, NULL), AI_WINNABLE);
	}
}

static void
test_solver(void)
{
	static struct shifter_state s;
	struct rules_move hint, mv[RULES_MAX_MOVES];

	CHECK_INT(t_pos(&s, pos_win), 0);
	CHECK_INT(ai_shifter_solve(&s, 0, NULL, &hint), AI_WINNABLE);
	CHECK_INT(hint.from, t_sq("b1"));
	CHECK_INT(hint.to, t_sq("c3"));
	CHECK_INT(hint.arg, RULES_NONE);
	CHECK(t_follow_hints(&s));
	CHECK_INT(ai_shifter_solve(&s, 0, NULL, &hint), AI_WINNABLE);
	CHECK_INT(hint.from, RULES_NONE);
	CHECK_INT(hint.to, RULES_NONE);
	CHECK_INT(t_pos(&s, pos_lost), 0);
	CHECK_INT(ai_shifter_solve(&s, 0, NULL, &hint), AI_LOST);
	CHECK_INT(hint.to, RULES_NONE);
	/* Blocked at once: the caballo on b1 reaches nothing. */
	CHECK_INT(t_pos(&s,
	              "1 ......../......../......../......../"
	              "......../......../......../TC.....A b1"),
	    0);
	CHECK_INT(ai_shifter_solve(&s, 0, NULL, &hint), AI_LOST);
	/* A capture to make, but the caballos on d8 and h4 can only be taken
	 * by the torre on d4, which takes one of them and stops. */
	CHECK_INT(t_pos(&s,
	              "2 ...C..../......../......../......../"
	              "...T...C/......../......../A....... a1"),
	    0);
	CHECK_INT(G->legal_moves(&s, mv, RULES_MAX_MOVES), 1);
	CHECK_INT(ai_shifter_solve(&s, 0, NULL, &hint), AI_LOST);
	/* A node limit that runs out first. */
	t_level(&s, 3, 30);
	CHECK_INT(ai_shifter_solve(&s, 1, NULL, &hint), AI_UNKNOWN);
	CHECK_INT(ai_shifter_solve(&s, 0, NULL, &hint), AI_WINNABLE);
	CHECK(hint.from == s.active && hint.to >= 0);
}

static void
test_rules(void)
{
	static struct shifter_state s, before;
	struct rules_move mv[RULES_MAX_MOVES], m;
	struct rules_status st;
	char buf[RULES_LINE_MAX];

	CHECK_INT(t_pos(&s, pos_win), 0);
	CHECK_INT(G->turn(&s), 0);
	G->status(&s, &st);
	CHECK_INT(st.result, RULES_PLAYING);
	CHECK_STR(st.reason, "");
	CHECK_INT(st.nscores, 1);
	CHECK_INT(st.score[0], 5);
	CHECK_INT(st.winner, RULES_NONE);
	CHECK_INT(G->legal_moves(&s, mv, RULES_MAX_MOVES), 1);
	CHECK_INT(mv[0].from, t_sq("b1"));
	CHECK_INT(mv[0].to, t_sq("c3"));
	CHECK_INT(mv[0].arg, RULES_NONE);
	CHECK_INT(G->legal_from(&s, t_sq("b1"), mv, RULES_MAX_MOVES), 1);
	CHECK_INT(G->legal_from(&s, t_sq("c3"), mv, RULES_MAX_MOVES), 0);
	CHECK_INT(G->legal_from(&s, -1, mv, RULES_MAX_MOVES), 0);
	CHECK_INT(G->legal_from(&s, 64, mv, RULES_MAX_MOVES), 0);
	/* Every reason. */
	CHECK_STR(t_move_err(&s, "c3"), "");
	CHECK_STR(t_move_err(&s, " C3 "), "");
	CHECK_STR(t_move_err(&s, "e4"), "no piece on e4 to capture");
	CHECK_STR(t_move_err(&s, "c5"), "the knight on b1 cannot reach c5");
	CHECK_STR(t_move_err(&s, "b1"), "the knight on b1 cannot take itself");
	CHECK_STR(t_move_err(&s, "i9"), "not a square: i9");
	CHECK_STR(t_move_err(&s, "a0"), "not a square: a0");
	CHECK_STR(t_move_err(&s, "A10"), "not a square: A10");
	CHECK_STR(
	    t_move_err(&s, ""), "malformed move: expected a square like e4");
	CHECK_STR(
	    t_move_err(&s, "e"), "malformed move: expected a square like e4");
	CHECK_STR(
	    t_move_err(&s, "4e"), "malformed move: expected a square like e4");
	CHECK_STR(t_move_err(&s, "b1c3"),
	    "malformed move: expected a square like e4");
	CHECK_STR(
	    t_move_err(&s, "c3!"), "malformed move: expected a square like e4");
	CHECK_STR(
	    t_move_err(&s, "e 4"), "malformed move: expected a square like e4");
	/* describe and format take the state before the move. */
	CHECK_INT(G->parse_move(&s, "c3", &m, buf, sizeof buf), 0);
	G->describe_move(&s, m, buf, sizeof buf);
	CHECK_STR(buf,
	    "the knight on b1 takes the rook on c3 and becomes "
	    "a rook");
	G->format_move(&s, m, buf, sizeof buf);
	CHECK_STR(buf, "c3");
	before = s;
	/* Not captures by the active piece: nothing happens. */
	G->apply(&s, (struct rules_move){t_sq("b1"), t_sq("e4"), RULES_NONE});
	G->apply(&s, (struct rules_move){t_sq("c3"), t_sq("c5"), RULES_NONE});
	G->apply(&s, (struct rules_move){t_sq("b1"), t_sq("b1"), RULES_NONE});
	G->apply(&s, (struct rules_move){t_sq("b1"), 64, RULES_NONE});
	CHECK(memcmp(&s, &before, sizeof s) == 0);
	G->apply(&s, m);
	CHECK(G->hash(&s) != G->hash(&before));
	/* The mover left; the torre stays and is active. */
	CHECK_INT(s.board[t_sq("b1")], SHIFTER_EMPTY);
	CHECK_INT(s.active, t_sq("c3"));
	CHECK_INT(s.board[t_sq("c3")], 1);
	/* The torre jumps over c5 to c7. */
	CHECK_INT(G->legal_moves(&s, mv, RULES_MAX_MOVES), 2);
	CHECK_INT(mv[0].to, t_sq("c7"));
	CHECK_INT(mv[1].to, t_sq("c5"));
	CHECK_STR(t_move_err(&s, "e5"), "the rook on c3 cannot reach e5");
	CHECK_STR(t_move_err(&s, "b1"), "no piece on b1 to capture");
	G->describe_move(&s, mv[0], buf, sizeof buf);
	CHECK_STR(buf,
	    "the rook on c3 takes the bishop on c7 and becomes "
	    "a bishop");
	/* The wrong way: into the caballo on c5, which reaches nothing. */
	before = s;
	CHECK_INT(t_play(&s, "c5"), 0);
	G->status(&s, &st);
	CHECK_INT(st.result, RULES_BLOCKED);
	CHECK_STR(st.reason, "no capture left");
	CHECK_INT(st.score[0], 3);
	CHECK_INT(G->legal_moves(&s, mv, RULES_MAX_MOVES), 0);
	CHECK_STR(t_move_err(&s, "c7"), "the knight on c5 cannot reach c7");
	/* The right way. */
	s = before;
	CHECK_INT(t_play(&s, "c7"), 0);
	CHECK_INT(t_play(&s, "e5"), 0);
	CHECK_INT(t_play(&s, "c5"), 0);
	G->status(&s, &st);
	CHECK_INT(st.result, RULES_SOLVED);
	CHECK_STR(st.reason, "level won");
	CHECK_INT(st.score[0], 1);
	CHECK_INT(G->legal_moves(&s, mv, RULES_MAX_MOVES), 0);
	CHECK_STR(t_move_err(&s, "c3"), "the level is already won");
	CHECK_STR(t_move_err(&s, "i9"), "not a square: i9");
	/* The start layout is still in the state, for a restart. */
	CHECK_INT(t_pos(&before, pos_win), 0);
	CHECK(memcmp(s.start, before.board, sizeof s.start) == 0);
	CHECK_INT(s.start_active, t_sq("b1"));
}

static void
test_squares(void)
{
	struct shifter_state s;
	char err[RULES_ERR_MAX], buf[16];
	int sq = 99;
	struct rules_move m = {0, 36, RULES_NONE};

	t_init(&s, NULL, NULL, NULL, NULL, err);
	CHECK_INT(t_sq("a8"), 0);
	CHECK_INT(t_sq("h8"), 7);
	CHECK_INT(t_sq("e4"), 36);
	CHECK_INT(t_sq("E4"), 36);
	CHECK_INT(t_sq("a1"), 56);
	CHECK_INT(t_sq("h1"), 63);
	CHECK_INT(G->parse_square(&s, "j1", &sq, err, sizeof err), -1);
	CHECK_STR(err, "not a square: j1");
	CHECK_INT(G->parse_square(&s, "11", &sq, err, sizeof err), -1);
	CHECK_STR(err, "malformed square: expected a square like e4");
	G->format_move(&s, m, buf, sizeof buf);
	CHECK_STR(buf, "e4");
}

static void
test_position(void)
{
	static struct shifter_state s, t;
	char buf[RULES_LINE_MAX], buf2[RULES_LINE_MAX];
	int seed, level, bad = 0;

	CHECK_INT(t_pos(&s, pos_win), 0);
	CHECK_INT(G->to_position(&s, buf, sizeof buf), (int)strlen(pos_win));
	CHECK_STR(buf, pos_win);
	CHECK_INT(G->to_position(&s, buf, 10), -1);
	/* Generated and played positions round-trip. */
	for (level = 1; level <= SHIFTER_MAX_LEVEL; level += 3) {
		for (seed = 0; seed < 5; seed++) {
			struct rules_move mv[64];

			t_level(&s, seed, level);
			if (G->legal_moves(&s, mv, 64) > 0)
				G->apply(&s, mv[0]);
			G->to_position(&s, buf, sizeof buf);
			t_init(&t, NULL, NULL, NULL, NULL, buf2);
			if (G->from_position(&t, buf, buf2, sizeof buf2) != 0)
				bad++;
			G->to_position(&t, buf2, sizeof buf2);
			bad += strcmp(buf, buf2) != 0;
			bad += G->hash(&s) != G->hash(&t);
		}
	}
	CHECK_INT(bad, 0);
	/* A position string is a fresh start: the start layout is it. */
	CHECK_INT(t_pos(&s, pos_win), 0);
	CHECK(memcmp(s.board, s.start, sizeof s.board) == 0);
	/* Malformed ones. */
	CHECK_STR(t_pos_err(""),
	    "position: expected LEVEL RANKS ACTIVE, like "
	    "\"1 ......../......../..C...../......../"
	    "......../...T..../......../.A...... c6\"");
	CHECK_STR(t_pos_err("3  ......../......../......../......../"
	                    "......../......../......../.C...... b1"),
	    "position: expected LEVEL RANKS ACTIVE, like "
	    "\"1 ......../......../..C...../......../......../"
	    "...T..../......../.A...... c6\"");
	CHECK_STR(t_pos_err("0 ......../......../......../......../"
	                    "......../......../......../.C...... b1"),
	    "position: level must be 1 to 62");
	CHECK_STR(t_pos_err("63 ......../......../......../......../"
	                    "......../......../......../.C...... b1"),
	    "position: level must be 1 to 62");
	CHECK_STR(t_pos_err("03 ......../......../......../......../"
	                    "......../......../......../.C...... b1"),
	    "position: level must be 1 to 62");
	CHECK_STR(t_pos_err("3 ......../......../......../......../"
	                    "......../......../......../.C..... b1"),
	    "position: expected 8 ranks of 8 squares separated by /");
	CHECK_STR(t_pos_err("3 ......./........./......../......../"
	                    "......../......../......../.C...... b1"),
	    "position: rank 8 must have 8 squares");
	CHECK_STR(t_pos_err("3 ......../......../......../.......x/"
	                    "......../......../......../.C...... b1"),
	    "position: no piece has the letter 'x' (on h5)");
	CHECK_STR(t_pos_err("3 ......../......../......../......../"
	                    "......../......../......../.Q...... b1"),
	    "position: no piece has the letter 'Q' (on b1)");
	CHECK_STR(t_pos_err("3 ......../......../......../......\x01./"
	                    "......../......../......../.C...... b1"),
	    "position: byte 0x01 is not a piece letter (on g5)");
	CHECK_STR(t_pos_err("3 ......../......../......../......../"
	                    "......../......../......../.C...... B1"),
	    "position: the active piece's square must be like c6");
	CHECK_STR(t_pos_err("3 ......../......../......../......../"
	                    "......../......../......../.C...... b9"),
	    "position: the active piece's square must be like c6");
	CHECK_STR(t_pos_err("3 ......../......../......../......../"
	                    "......../......../......../.C...... c1"),
	    "position: no piece on c1, the active square");
	CHECK_STR(t_pos_err("1 ......../......../......../......../"
	                    "......../......../......../CCCC.... b1"),
	    "position: the board has 4 pieces, level 1 has at most 3");
}

static void
test_level_file(void)
{
	static struct shifter_state s, t, u;
	char buf[RULES_TEXT_MAX], err[RULES_ERR_MAX];
	int seed, level, n, bad = 0;

	/* A fresh level: no start section. */
	CHECK_INT(t_pos(&s, pos_win), 0);
	n = G->export_file(&s, buf, sizeof buf);
	CHECK_STR(buf,
	    "shifter level 3\n"
	    "# rows 8 to 1, columns a to h; . is empty, the active "
	    "piece is in lower case\n"
	    "........\n"
	    "..A.....\n"
	    "........\n"
	    "..C.T...\n"
	    "........\n"
	    "..T.....\n"
	    "........\n"
	    ".c......\n"
	    "C caballo\n"
	    "T torre\n"
	    "A alfil\n");
	CHECK_INT(n, (int)strlen(buf));
	CHECK_INT(G->export_file(&s, buf, 20), -1);
	/* After a move: the start layout follows. */
	t_play(&s, "c3");
	G->export_file(&s, buf, sizeof buf);
	CHECK(strstr(buf, "\n..t.....\n........\n........\nstart\n") != NULL);
	CHECK(strstr(buf, "start\n........\n..A.....\n") != NULL);
	t_init(&t, NULL, NULL, NULL, NULL, err);
	CHECK_INT(G->import_file(&t, buf, strlen(buf), err, sizeof err), 0);
	CHECK(memcmp(&s, &t, sizeof s) == 0);
	/* Every state round-trips exactly, mid-level too. */
	for (level = 1; level <= SHIFTER_MAX_LEVEL; level += 2) {
		for (seed = 0; seed < 4; seed++) {
			struct rules_move mv[64];
			int k;

			t_level(&s, seed * 7 + 1, level);
			for (k = 0; k < seed; k++)
				if (G->legal_moves(&s, mv, 64) > 0)
					G->apply(&s, mv[0]);
			n = G->export_file(&s, buf, sizeof buf);
			t_level(&t, 99, 1);
			bad += n < 0;
			bad += G->import_file(
			           &t, buf, (size_t)n, err, sizeof err) != 0;
			bad += memcmp(&s, &t, sizeof s) != 0;
		}
	}
	CHECK_INT(bad, 0);
	/* Loaded through the option; its level wins over `level`. */
	CHECK_INT(t_pos(&s, pos_win), 0);
	G->export_file(&s, buf, sizeof buf);
	CHECK_INT(t_init(&u, "5", "9", NULL, buf, err), 0);
	CHECK(memcmp(&s, &u, sizeof s) == 0);
	CHECK_INT(t_init(&u, "5", "9", NULL, "shifter level 0\n", err), -1);
	CHECK_STR(err, "file: line 1: the level must be 1 to 62");
	/* The file's own letters, CRLF, blanks and comments. */
	CHECK_STR(t_file_err("# saved\r\n\r\nshifter level 1\r\n........\r\n"
	                     "........\r\n........\r\n........\r\n........\r\n"
	                     "........\r\n...X....\r\n.k..Z...\r\n"
	                     "\r\nk caballo\r\nX torre\r\n# z\r\nZ alfil\r\n"),
	    "");
	/* The moves table decides which names exist. */
	t_init(&u, NULL, NULL, "rey,1;0,false\n", NULL, err);
	CHECK_INT(G->import_file(&u, buf, strlen(buf), err, sizeof err), -1);
	CHECK_STR(err, "line 11: no piece named caballo in the moves table");
}

static void
test_level_file_bad(void)
{
	static const char rows[] = "........\n........\n........\n........\n"
	                           "........\n........\n........\n.c.T....\n";
	char text[2048], *big;
	struct shifter_state s;
	char err[RULES_ERR_MAX];

	CHECK_STR(
	    t_file_err(""), "empty level file: expected \"shifter level N\"");
	CHECK_STR(t_file_err("# only a comment\n\n"),
	    "empty level file: expected \"shifter level N\"");
	CHECK_STR(t_file_err("shifter levels 3\n"),
	    "line 1: expected \"shifter level N\"");
	CHECK_STR(t_file_err("\nshifter level\n"),
	    "line 2: expected \"shifter level N\"");
	CHECK_STR(t_file_err("shifter level 0\n"),
	    "line 1: the level must be 1 to 62");
	CHECK_STR(t_file_err("shifter level x\n"),
	    "line 1: the level must be 1 to 62");
	CHECK_STR(t_file_err("shifter level 1\n........\n.......\n"),
	    "line 3: expected a board row of 8 squares, each . or a piece "
	    "letter");
	CHECK_STR(t_file_err("shifter level 1\n........\n...*....\n"),
	    "line 3: expected a board row of 8 squares, each . or a piece "
	    "letter");
	CHECK_STR(t_file_err("shifter level 1\n........\n........\n"
	                     "........\n..c.c...\n"),
	    "line 5: a second active piece, on e5");
	CHECK_STR(t_file_err("shifter level 1\n........\n........\n"),
	    "the board has only 2 of 8 rows");
	snprintf(
	    text, sizeof text, "shifter level 1\n%sstart\n........\n", rows);
	CHECK_STR(t_file_err(text), "the start layout has only 1 of 8 rows");
	CHECK_STR(t_file_err("shifter level 1\n........\n........\n........\n"
	                     "........\n........\n........\n........\n"
	                     ".C.T....\nC caballo\nT torre\n"),
	    "the board has no active piece (write its letter in lower case)");
	snprintf(text, sizeof text,
	    "shifter level 1\n%sstart\n%sC caballo\nT torre\n", rows,
	    "........\n........\n........\n........\n"
	    "........\n........\n........\n.C.T....\n");
	CHECK_STR(t_file_err(text),
	    "the start layout has no active piece "
	    "(write its letter in lower case)");
	snprintf(text, sizeof text, "shifter level 1\n%sC\n", rows);
	CHECK_STR(t_file_err(text),
	    "line 10: expected a letter and a piece name, like \"C caballo\"");
	snprintf(text, sizeof text, "shifter level 1\n%sCx caballo\n", rows);
	CHECK_STR(t_file_err(text),
	    "line 10: expected a letter and a piece name, like \"C caballo\"");
	snprintf(text, sizeof text, "shifter level 1\n%sstart\n", rows);
	CHECK_STR(t_file_err(text), "the start layout has only 0 of 8 rows");
	snprintf(
	    text, sizeof text, "shifter level 1\n%sC caballo\nT dama\n", rows);
	CHECK_STR(t_file_err(text),
	    "line 11: no piece named dama in the moves table");
	snprintf(text, sizeof text, "shifter level 1\n%sC caballo\nT tor\bre\n",
	    rows);
	CHECK_STR(t_file_err(text),
	    "line 11: a piece name is one word of letters, digits, _ or - "
	    "(character 4 is not)");
	snprintf(text, sizeof text,
	    "shifter level 1\n%sC caballo\nT torre\nc alfil\n", rows);
	CHECK_STR(
	    t_file_err(text), "line 12: the letter C is already in the legend");
	snprintf(text, sizeof text, "shifter level 1\n%sC caballo\n", rows);
	CHECK_STR(
	    t_file_err(text), "line 9: the letter T is not in the legend");
	CHECK_STR(t_file_err("shifter level 1\n........\n........\n........\n"
	                     "........\n........\n........\n........\n"
	                     ".c.T.TT.\nC caballo\nT torre\n"),
	    "the board has 4 pieces, level 1 has at most 3");
	snprintf(text, sizeof text,
	    "shifter level 2\n%sstart\n%s\nC caballo\nT torre\n",
	    "........\n........\n........\n..T.....\n"
	    "........\n........\n........\n.c.T....\n",
	    "........\n........\n........\n........\n"
	    "........\n........\n........\n.c.T....");
	CHECK_STR(t_file_err(text),
	    "line 5: the piece on c5 is not in the start layout");
	snprintf(text, sizeof text,
	    "shifter level 2\n%sstart\n%s\nC caballo\nT torre\n",
	    "........\n........\n........\n........\n"
	    "........\n........\n........\n.c.T....\n",
	    "........\n........\n........\n........\n"
	    "........\n........\n........\n.c.C....");
	CHECK_STR(t_file_err(text),
	    "line 9: the piece on d1 is not in the start layout");
	snprintf(text, sizeof text,
	    "shifter level 2\n%sstart\n%s\nC caballo\nT torre\n",
	    "........\n........\n........\n........\n"
	    "........\n........\n........\n.c.T....\n",
	    "TTTTT...\n........\n........\n........\n"
	    "........\n........\n........\n.c.T....");
	CHECK_STR(t_file_err(text),
	    "the start layout has 7 pieces, level 2 has at most 4");
	big = malloc(5000);
	memset(big, '\n', 4999);
	big[4999] = '\0';
	CHECK_STR(t_file_err(big), "the file is longer than 4096 bytes");
	free(big);
	CHECK_INT(t_init(&s, NULL, NULL, NULL, "shifter level 3\n", err), -1);
	CHECK_STR(err, "file: the board has only 0 of 8 rows");
}

/* Piece names are any UTF-8 word (issue 13): the table, the letters, the
 * level file's legend, the pictures and the move sentences with them. */
static void
test_utf8_names(void)
{
	static const char csv[] = "pe\xc3\xb3n,0;-1,false\n"
	                          "caballo,1;2,false\n"
	                          "caballo,-1;-2,false\n"
	                          "\xc3\xa1guila,1;-1,false\n"
	                          "\xce\xb1\xce\xbb\xcf\x86\xce\xb9\xce\xbb,"
	                          "-1;-1,true\n"; /* Greek alfil */
	/* the águila on b1 takes the caballo on c2, which takes the peón on
	 * b4 */
	static const char level[] =
	    "shifter level 1\n"
	    "........\n........\n........\n........\n"
	    ".P......\n........\n..C.....\n.a......\n"
	    "P pe\xc3\xb3n\nA \xc3\xa1guila\nC caballo\n";
	static struct shifter_state s, t;
	char buf[RULES_TEXT_MAX], err[RULES_ERR_MAX];
	struct rules_move m;

	CHECK_INT(t_init(&s, NULL, NULL, csv, NULL, err), 0);
	CHECK_STR(err, "");
	CHECK_INT(s.nkinds, 4);
	CHECK_STR(s.kind[0].name, "pe\xc3\xb3n");
	CHECK_INT(s.kind[0].letter, 'P');
	CHECK_INT(s.kind[1].letter, 'C');
	CHECK_INT(s.kind[2].letter, 'A'); /* the accent dropped: Á */
	CHECK_INT(s.kind[3].letter, 'B'); /* no Latin letter: first free */
	CHECK_INT(G->import_file(&s, level, strlen(level), err, sizeof err), 0);
	CHECK_STR(err, "");
	CHECK_INT(G->render(&s, buf, sizeof buf) > 0, 1);
	CHECK(strstr(buf, "active: the \xc3\xa1guila on b1") != NULL);
	CHECK(strstr(buf,
	          "pieces: P pawn (pe\xc3\xb3n), C knight (caballo), "
	          "A \xc3\xa1guila, "
	          "B \xce\xb1\xce\xbb\xcf\x86\xce\xb9\xce\xbb\n") != NULL);
	/* the level file round-trips, legend names in UTF-8 */
	CHECK_INT(G->export_file(&s, buf, sizeof buf) > 0, 1);
	CHECK(strstr(buf, "\nP pe\xc3\xb3n\n") != NULL);
	CHECK(strstr(buf, "\nA \xc3\xa1guila\n") != NULL);
	t = s;
	memset(t.board, 0, sizeof t.board);
	CHECK_INT(G->import_file(&t, buf, strlen(buf), err, sizeof err), 0);
	CHECK(memcmp(&s, &t, sizeof s) == 0);
	/* the move sentences name the pieces */
	CHECK_INT(G->parse_move(&s, "c2", &m, err, sizeof err), 0);
	G->describe_move(&s, m, buf, sizeof buf);
	CHECK_STR(buf,
	    "the \xc3\xa1guila on b1 takes the knight on c2 and "
	    "becomes a knight");
	G->apply(&s, m);
	CHECK_INT(G->parse_move(&s, "b4", &m, err, sizeof err), 0);
	G->describe_move(&s, m, buf, sizeof buf);
	CHECK_STR(buf,
	    "the knight on c2 takes the pawn on b4 and "
	    "becomes a pawn");
	G->apply(&s, m);
	G->render(&s, buf, sizeof buf);
	CHECK(strstr(buf, "active: the pawn on b4; level won\n") != NULL);

	/* names: decomposed accents, 15 characters of 2 bytes, the bounds */
	CHECK_STR(t_csv_err("peo\xcc\x81n,1;0,true\n"), "");
	CHECK_STR(t_csv_err("\xce\xb1\xce\xb1\xce\xb1\xce\xb1\xce\xb1\xce\xb1"
	                    "\xce\xb1\xce\xb1\xce\xb1\xce\xb1\xce\xb1\xce\xb1"
	                    "\xce\xb1\xce\xb1\xce\xb1,1;0,true\n"),
	    "");
	CHECK_STR(t_csv_err("\xce\xb1\xce\xb1\xce\xb1\xce\xb1\xce\xb1\xce\xb1"
	                    "\xce\xb1\xce\xb1\xce\xb1\xce\xb1\xce\xb1\xce\xb1"
	                    "\xce\xb1\xce\xb1\xce\xb1\xce\xb1,1;0,true\n"),
	    "line 1: a piece name is 1 to 15 characters (at most 32 bytes)");
	CHECK_STR(t_csv_err("\xf0\x9f\x90\xb4\xf0\x9f\x90\xb4\xf0\x9f\x90\xb4"
	                    "\xf0\x9f\x90\xb4\xf0\x9f\x90\xb4\xf0\x9f\x90\xb4"
	                    "\xf0\x9f\x90\xb4\xf0\x9f\x90\xb4\xf0\x9f\x90\xb4,"
	                    "1;0,true\n"),
	    "line 1: a piece name is 1 to 15 characters (at most 32 bytes)");
	/* invalid UTF-8: stray continuation, Latin-1 byte, cut sequence,
	 * overlong, surrogate, beyond U+10FFFF */
	CHECK_STR(t_csv_err("a\x80,1;0,true\n"),
	    "line 1: a piece name must be UTF-8 text; byte 2 of it (0x80) is "
	    "not");
	CHECK_STR(t_csv_err("pe\xf3n,1;0,true\n"),
	    "line 1: a piece name must be UTF-8 text; byte 3 of it (0xf3) is "
	    "not");
	CHECK_STR(t_csv_err("pe\xc3,1;0,true\n"),
	    "line 1: a piece name must be UTF-8 text; byte 3 of it (0xc3) is "
	    "not");
	CHECK_STR(t_csv_err("\xc0\xaf,1;0,true\n"),
	    "line 1: a piece name must be UTF-8 text; byte 1 of it (0xc0) is "
	    "not");
	CHECK_STR(t_csv_err("\xe0\x80\xaf,1;0,true\n"),
	    "line 1: a piece name must be UTF-8 text; byte 1 of it (0xe0) is "
	    "not");
	CHECK_STR(t_csv_err("x\xed\xa0\x80,1;0,true\n"),
	    "line 1: a piece name must be UTF-8 text; byte 2 of it (0xed) is "
	    "not");
	CHECK_STR(t_csv_err("\xf4\x90\x80\x80,1;0,true\n"),
	    "line 1: a piece name must be UTF-8 text; byte 1 of it (0xf4) is "
	    "not");
	/* invisible or spacing characters do not make a word */
	CHECK_STR(t_csv_err("pe\xc2\xa0n,1;0,true\n"),
	    "line 1: a piece name is one word of letters, digits, _ or - "
	    "(character 3 is not)");
	CHECK_STR(t_csv_err("pe\xe2\x80\x8bn,1;0,true\n"),
	    "line 1: a piece name is one word of letters, digits, _ or - "
	    "(character 3 is not)");
	CHECK_STR(t_csv_err("\xe2\x80\xaetorre,1;0,true\n"),
	    "line 1: a piece name is one word of letters, digits, _ or - "
	    "(character 1 is not)");
	CHECK_STR(t_csv_err("\xe3\x80\x80,1;0,true\n"),
	    "line 1: a piece name is one word of letters, digits, _ or - "
	    "(character 1 is not)");
	/* and in a level file's legend */
	CHECK_STR(t_file_err("shifter level 1\n........\n........\n........\n"
	                     "........\n........\n........\n........\n"
	                     ".c......\nC cab\xe1llo\n"),
	    "line 10: a piece name must be UTF-8 text; byte 4 of it (0xe1) is "
	    "not");
}

/* Play the first legal move n times. */
static void
t_first_moves(struct shifter_state *s, int n)
{
	struct rules_move mv[SHIFTER_SQUARES];

	while (n-- > 0 && G->legal_moves(s, mv, SHIFTER_SQUARES) > 0)
		G->apply(s, mv[0]);
}

/* What `restart` and resuming a level need from the rules (issue 13):
 * `restart` reaches a level file's start section; the start, as a
 * position string, makes the very level again; the status of a blocked
 * start comes from the rules. */
static void
test_restart(void)
{
	static struct shifter_state fresh, s, t, u;
	char buf[RULES_TEXT_MAX], pos[RULES_LINE_MAX], err[RULES_ERR_MAX];
	struct rules_status st;

	/* a generated level, two captures in: restart is the level as made */
	CHECK_INT(t_level(&fresh, 11, 5), 0);
	s = fresh;
	t_first_moves(&s, 2);
	CHECK(memcmp(&s, &fresh, sizeof s) != 0);
	G->restart(&s);
	CHECK(memcmp(&s, &fresh, sizeof s) == 0);

	/* a level file saved mid-level: the game made from it is at the
	 * saved board, and restart goes to the file's start section */
	s = fresh;
	t_first_moves(&s, 2);
	CHECK(G->export_file(&s, buf, sizeof buf) > 0);
	CHECK(strstr(buf, "\nstart\n") != NULL);
	CHECK_INT(t_init(&t, "3", NULL, NULL, buf, err), 0);
	CHECK(memcmp(&t, &s, sizeof t) == 0);
	G->restart(&t);
	CHECK(memcmp(&t, &fresh, sizeof t) == 0);
	rules_status(G, &t, &st);
	CHECK_INT(st.result, RULES_PLAYING);
	CHECK_INT(st.score[0], 5 + 2);
	CHECK_INT(st.level, 5);

	/* resume the very level: the start's position string, loaded into a
	 * game made with another seed and level, is the same level; so is
	 * the same seed and level again */
	CHECK(G->to_position(&t, pos, sizeof pos) > 0);
	CHECK_INT(t_level(&u, 99, 1), 0);
	CHECK_INT(G->from_position(&u, pos, err, sizeof err), 0);
	CHECK(memcmp(&u, &fresh, sizeof u) == 0);
	CHECK_INT(t_level(&u, 11, 5), 0);
	CHECK(memcmp(&u, &fresh, sizeof u) == 0);
	/* a restarted state round-trips through its position string */
	s = fresh;
	t_first_moves(&s, 3);
	G->restart(&s);
	CHECK(G->to_position(&s, pos, sizeof pos) > 0);
	CHECK_INT(t_level(&u, 5, 2), 0);
	CHECK_INT(G->from_position(&u, pos, err, sizeof err), 0);
	CHECK(memcmp(&u, &s, sizeof u) == 0);

	/* restart into a blocked start: the caballo on b1 cannot reach the
	 * torre on a8, so the level is lost from the start */
	CHECK_INT(t_pos(&s,
	              "1 T......./......../......../......../......../"
	              "......../......../.C...... b1"),
	    0);
	CHECK(G->export_file(&s, buf, sizeof buf) > 0);
	CHECK_INT(t_init(&t, "3", NULL, NULL, buf, err), 0);
	G->restart(&t);
	rules_status(G, &t, &st);
	CHECK_INT(st.result, RULES_BLOCKED);
	CHECK_STR(st.reason, "no capture left");
	CHECK_INT(st.score[0], 2);
	CHECK_INT(G->legal_moves(&t, NULL, 0), 0);
}

static void
test_pictures(void)
{
	static struct shifter_state s;
	char buf[RULES_TEXT_MAX];
	int n;

	CHECK_INT(t_pos(&s, pos_win), 0);
	t_play(&s, "c3");
	n = G->render(&s, buf, sizeof buf);
	CHECK_STR(buf,
	    "Shape Shifter Chess, level 3: 4 pieces left\n"
	    "    a  b  c  d  e  f  g  h\n"
	    " 8  .  .  .  .  .  .  .  .  8\n"
	    " 7  .  . (A) .  .  .  .  .  7\n"
	    " 6  .  .  .  .  .  .  .  .  6\n"
	    " 5  .  . (C) .  T  .  .  .  5\n"
	    " 4  .  .  .  .  .  .  .  .  4\n"
	    " 3  .  . [T] .  .  .  .  .  3\n"
	    " 2  .  .  .  .  .  .  .  .  2\n"
	    " 1  .  .  .  .  .  .  .  .  1\n"
	    "    a  b  c  d  e  f  g  h\n"
	    "[ ] active: the rook on c3; ( ) it can take: c7 c5\n"
	    "pieces: C knight (caballo), T rook (torre), A bishop "
	    "(alfil)\n");
	CHECK_INT(n, (int)strlen(buf));
	CHECK_INT(G->render(&s, buf, 100), -1);
	n = G->board_rows(&s, buf, sizeof buf);
	CHECK_STR(buf,
	    "........\n..A.....\n........\n..C.T...\n"
	    "........\n..t.....\n........\n........\n");
	CHECK_INT(n, 72);
	t_play(&s, "c5");
	G->render(&s, buf, sizeof buf);
	CHECK(strstr(buf,
	          "[ ] active: the knight on c5; no capture left, "
	          "retry the level\n") != NULL);
	CHECK_INT(t_pos(&s,
	              "1 ......../......../......../......../"
	              "......../......../......../.C...... b1"),
	    0);
	G->render(&s, buf, sizeof buf);
	CHECK(strstr(buf, "level 1: 1 piece left\n") != NULL);
	CHECK(strstr(buf, "; level won\n") != NULL);
}

static void
test_hash_and_perft(void)
{
	static struct shifter_state a, b;
	char err[RULES_ERR_MAX];

	/* Reached by play or loaded: the same position, the same hash. */
	t_pos(&a, pos_win);
	t_play(&a, "c3");
	t_pos(&b,
	    "3 ......../..A...../......../..C.T.../"
	    "......../..T...../......../........ c3");
	CHECK_U64(G->hash(&a), G->hash(&b));
	t_pos(&b,
	    "3 ......../..A...../......../..C.T.../"
	    "......../..T...../......../........ c5");
	CHECK(G->hash(&a) != G->hash(&b));
	t_pos(&a, pos_win);
	CHECK_U64(rules_perft(G, &a, 1), 1);
	CHECK_U64(rules_perft(G, &a, 2), 2);
	CHECK_U64(rules_perft(G, &a, 3), 1);
	CHECK_U64(rules_perft(G, &a, 4), 1);
	CHECK_U64(rules_perft(G, &a, 5), 0);
	/* Counts of generated levels, as documented in docs/RULES.md. */
	t_init(&a, "7", "20", NULL, NULL, err);
	CHECK_U64(rules_perft(G, &a, 1), 2);
	CHECK_U64(rules_perft(G, &a, 2), 8);
	CHECK_U64(rules_perft(G, &a, 3), 26);
	CHECK_U64(rules_perft(G, &a, 6), 1012);
}

/* The node limit of the sweep. */
#define BENCH_NODES 3000000L

static double
bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int
bench_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Solve every level for `seeds` seeds with a node limit; print the
 * slowest, the total and the levels the limit left undecided. */
static int
bench_sweep(int seeds)
{
	static struct shifter_state s;
	double t, worst = 0, total = 0;
	int level, seed, undecided = 0, wl = 0, ws = 0;

	for (level = 1; level <= SHIFTER_MAX_LEVEL; level++) {
		for (seed = 0; seed < seeds; seed++) {
			enum ai_verdict v;
			double t0;

			t_level(&s, seed, level);
			t0 = bench_now();
			v = ai_shifter_solve(&s, BENCH_NODES, NULL, NULL);
			t = bench_now() - t0;
			total += t;
			if (t > worst) {
				worst = t;
				wl = level;
				ws = seed;
			}
			if (v != AI_WINNABLE) {
				printf("level %d seed %d: %s\n", level, seed,
				    v == AI_LOST ? "LOST" : "undecided");
				undecided++;
			}
		}
	}
	printf("levels 1-%d, %d seeds each: %.2f s in all, slowest %.1f ms "
	       "(level %d seed %d), %d not found winnable in %ld nodes\n",
	    SHIFTER_MAX_LEVEL, seeds, total, worst * 1e3, wl, ws, undecided,
	    BENCH_NODES);
	return undecided != 0;
}

/* Time the solver on level 20: for each seed the median of 3 runs; then
 * sweep every level. */
static int
bench(int sweep_seeds)
{
	static struct shifter_state s;
	double med[20], t[3], t0;
	int seed, i, nseeds = 20;

	for (seed = 1; seed <= nseeds; seed++) {
		t_level(&s, seed, 20);
		for (i = 0; i < 3; i++) {
			t0 = bench_now();
			if (ai_shifter_solve(&s, 0, NULL, NULL) != AI_WINNABLE)
				printf("seed %d: not winnable!\n", seed);
			t[i] = bench_now() - t0;
		}
		qsort(t, 3, sizeof t[0], bench_cmp);
		med[seed - 1] = t[1];
		printf("level 20 seed %2d: median of 3 %.1f us\n", seed,
		    t[1] * 1e6);
	}
	qsort(med, (size_t)nseeds, sizeof med[0], bench_cmp);
	printf("level 20, %d seeds: median %.1f us, max %.1f us\n", nseeds,
	    (med[nseeds / 2 - 1] + med[nseeds / 2]) / 2 * 1e6,
	    med[nseeds - 1] * 1e6);
	return bench_sweep(sweep_seeds);
}

int
main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "bench") == 0)
		return bench(argc > 2 ? atoi(argv[2]) : 300);
	test_descriptor();
	test_shipped_table();
	test_reach();
	test_csv_good();
	test_csv_bad();
	test_csv_options();
	test_generator();
	test_rules();
	test_squares();
	test_position();
	test_level_file();
	test_level_file_bad();
	test_utf8_names();
	test_restart();
	test_pictures();
	test_hash_and_perft();
	test_solver();
	test_generated_solvable();
	return check_done();
}
