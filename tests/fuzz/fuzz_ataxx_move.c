/*
 * fuzz_ataxx_move.c: random bytes as Ataxx moves, split at spaces and played
 * in turn from a few positions. A move the parser accepts must be one of
 * legal_moves() and must leave a sound position after apply().
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/games.h"

/* Longer inputs only repeat what short ones test. */
#define FUZZ_MAX_INPUT 256

#define G (&rules_ataxx)

static const char *const fuzz_positions[] = {
    "x5o/7/7/7/7/7/o5x x 0 1",
    "x3o/5/5/5/o3x o 0 1",
    "x7o/9/9/4-4/9/9/9/9/o7x x 0 1",
    "7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1",
    "xxxx1/xxxxx/xxxxx/ooooo/ooooo o 0 1",
    "x1x4o/1o6/8/2xooo2/8/8/1x4x1/o6x o 0 1",
};

struct fuzz_state {
	_Alignas(16) unsigned char b[RULES_STATE_MAX];
};

/* Pieces on the board, from the picture of it. */
static int
fuzz_count(const struct fuzz_state *st, int *x, int *o)
{
	char rows[RULES_TEXT_MAX];
	int i, n = G->board_rows(st->b, rows, sizeof rows);

	if (n <= 0)
		abort();
	*x = *o = 0;
	for (i = 0; i < n; i++) {
		*x += rows[i] == 'x';
		*o += rows[i] == 'o';
		if (strchr("xo.-\n", rows[i]) == NULL)
			abort();
	}
	return n;
}

/* Play one accepted move and check what must hold after it. */
static void
fuzz_play(struct fuzz_state *st, struct rules_move m)
{
	static struct rules_move mv[RULES_MAX_MOVES];
	char pos[RULES_LINE_MAX], again[RULES_LINE_MAX];
	char err[RULES_ERR_MAX];
	struct rules_status s;
	struct fuzz_state copy;
	int n, x0, o0, x1, o1, me = G->turn(st->b);

	n = G->legal_moves(st->b, mv, RULES_MAX_MOVES);
	if (!rules_move_listed(mv, n, m))
		abort();
	fuzz_count(st, &x0, &o0);
	G->apply(st->b, m);
	fuzz_count(st, &x1, &o1);
	if (G->turn(st->b) == me)
		abort();
	/* A clone adds one piece, a jump or a pass none. */
	if (x1 + o1 != x0 + o0 + (m.to != RULES_NONE && m.from == RULES_NONE))
		abort();
	if ((me == 0 && x1 < x0) || (me == 1 && o1 < o0))
		abort();
	G->status(st->b, &s);
	if (s.score[0] != x1 || s.score[1] != o1)
		abort();
	if ((G->legal_moves(st->b, mv, RULES_MAX_MOVES) == 0) !=
	    (s.result != RULES_PLAYING))
		abort();
	if (G->to_position(st->b, pos, sizeof pos) <= 0)
		abort();
	memcpy(&copy, st, sizeof copy);
	if (G->from_position(copy.b, pos, err, sizeof err) != 0 ||
	    G->to_position(copy.b, again, sizeof again) <= 0 ||
	    strcmp(pos, again) != 0 || G->hash(copy.b) != G->hash(st->b))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_state st;
	struct rules_move m, lm[RULES_MAX_MOVES];
	char text[FUZZ_MAX_INPUT + 1], err[RULES_ERR_MAX];
	size_t p;
	int sq;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	for (p = 0; p < sizeof fuzz_positions / sizeof fuzz_positions[0]; p++) {
		char *tok, *save = NULL, buf[FUZZ_MAX_INPUT + 1];

		if (G->init(st.b, NULL, 0, err, sizeof err) != 0 ||
		    G->from_position(
		        st.b, fuzz_positions[p], err, sizeof err) != 0)
			abort();
		memcpy(buf, text, size + 1);
		for (tok = strtok_r(buf, " ", &save); tok != NULL;
		     tok = strtok_r(NULL, " ", &save)) {
			err[0] = '\0';
			if (G->parse_square(st.b, tok, &sq, err, sizeof err) ==
			    0)
				G->legal_from(st.b, sq, lm, RULES_MAX_MOVES);
			else if (err[0] == '\0')
				abort();
			err[0] = '\0';
			if (G->parse_move(st.b, tok, &m, err, sizeof err) == 0)
				fuzz_play(&st, m);
			else if (err[0] == '\0')
				abort();
		}
	}
	return 0;
}
