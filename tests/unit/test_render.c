/*
 * test_render.c: every game's texts (position string, board rows, picture,
 * exported file, move notation and sentence) on many random positions,
 * against a fingerprint of what the vsnprintf-based writers made before
 * they were rewritten with direct writes (the same test passes on that
 * older code). Also: each text's length is what the function returns, a
 * buffer one byte short is refused, and the position string reads back
 * to the same position.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "rules/games.h"

/* Random games played per option set, and their longest. */
#define RENDER_GAMES 12
#define RENDER_PLIES 120

/* A game state with room and alignment for any game. */
struct state {
	_Alignas(16) unsigned char b[RULES_STATE_MAX];
};

/* One way to start a game, and the fingerprint of its random games. */
struct render_case {
	const struct rules_game *g;
	struct rules_opt opts[4];
	int nopts;
	uint64_t want;
};

/* FNV-1a over the bytes, and the length as a separator. */
static uint64_t
render_mix(uint64_t h, const char *s, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
	}
	h ^= (uint64_t)(unsigned)n;
	return h * 1099511628211ULL;
}

typedef int render_fn(const void *st, char *buf, size_t len);

/* One text of the position: its length is strlen's, a buffer one byte
 * short is refused, and it goes into the fingerprint. */
static uint64_t
render_text(uint64_t h, render_fn *fn, const struct state *st, char *out)
{
	static char shorter[RULES_TEXT_MAX];
	int n = fn(st->b, out, RULES_TEXT_MAX);

	CHECK(n >= 0);
	if (n < 0)
		return h;
	CHECK_INT(strlen(out), n);
	CHECK_INT(fn(st->b, shorter, (size_t)n), -1);
	CHECK_INT(fn(st->b, shorter, (size_t)n + 1), n);
	CHECK(memcmp(shorter, out, (size_t)n + 1) == 0);
	return render_mix(h, out, n);
}

/* Every text of one position, and its position string read back. */
static uint64_t
render_position(uint64_t h, const struct rules_game *g, const struct state *st,
    const struct state *fresh)
{
	static char text[RULES_TEXT_MAX], again[RULES_TEXT_MAX];
	char err[RULES_ERR_MAX] = "";
	struct state back;

	h = render_text(h, g->board_rows, st, text);
	h = render_text(h, g->render, st, text);
	if (g->export_file != NULL)
		h = render_text(h, g->export_file, st, text);
	h = render_text(h, g->to_position, st, text);
	memcpy(&back, fresh, sizeof back);
	CHECK_INT(g->from_position(back.b, text, err, sizeof err), 0);
	CHECK_STR(err, "");
	CHECK(g->to_position(back.b, again, sizeof again) >= 0);
	CHECK_STR(again, text);
	return h;
}

/* Random games from one option set; their fingerprint. */
static uint64_t
render_games(const struct render_case *rc, uint64_t seed)
{
	static struct rules_move moves[RULES_MAX_MOVES];
	const struct rules_game *g = rc->g;
	char err[RULES_ERR_MAX] = "", line[RULES_LINE_MAX];
	struct state st, fresh;
	struct rules_status status;
	struct rules_rng rng;
	uint64_t h = 14695981039346656037ULL;
	int game, ply, n;

	rules_rng_seed(&rng, seed);
	CHECK_INT(
	    rules_start(g, fresh.b, rc->opts, rc->nopts, err, sizeof err), 0);
	CHECK_STR(err, "");
	for (game = 0; game < RENDER_GAMES; game++) {
		memcpy(&st, &fresh, sizeof st);
		for (ply = 0; ply < RENDER_PLIES; ply++) {
			h = render_position(h, g, &st, &fresh);
			rules_status(g, st.b, &status);
			if (status.result != RULES_PLAYING)
				break;
			n = g->legal_moves(st.b, moves, RULES_MAX_MOVES);
			if (n <= 0)
				break;
			n = (int)rules_rng_below(&rng, (unsigned)n);
			g->format_move(st.b, moves[n], line, sizeof line);
			h = render_mix(h, line, (int)strlen(line));
			g->describe_move(st.b, moves[n], line, sizeof line);
			h = render_mix(h, line, (int)strlen(line));
			g->apply(st.b, moves[n]);
		}
	}
	return h;
}

#define OPT(k, v)                                                              \
	{                                                                      \
		(k), (v)                                                       \
	}

/* The fingerprints were taken from the writers before the rewrite;
 * Shape Shifter's again when its pictures and sentences began to call
 * the seed's pieces by their English names (issue 21): "the knight on
 * b1", "C knight (caballo)"; Ataxx's when its move sentences became the
 * seed's words (issue 21): "White player clones at b6", "Black player
 * moves from a7 to c5", "Black player has no move and passes". */
static const struct render_case render_cases[] = {
    {&rules_amazons, {OPT(NULL, NULL)}, 0, 0xc0878118889d2352ULL},
    {&rules_ataxx, {OPT("size", "5")}, 1, 0x1dea030171c334cfULL},
    {&rules_ataxx, {OPT("size", "7")}, 1, 0x1c4b5cd1b7c5fde9ULL},
    {&rules_ataxx, {OPT("size", "9")}, 1, 0xc35d1f44c53bd782ULL},
    {&rules_ataxx, {OPT("position", "x1-1-1o/7/2-1-2/7/2-1-2/7/o1-1-1x x 0 1")},
        1, 0xee854f30e05e02abULL},
    {&rules_stones, {OPT("first", "1")}, 1, 0xa05296ab6371e72bULL},
    {&rules_stones, {OPT("first", "2")}, 1, 0x64d228e75f396147ULL},
    {&rules_solitaire, {OPT("board", "english")}, 1, 0x7a0f1aaf16e8c9d4ULL},
    {&rules_solitaire, {OPT("board", "european")}, 1, 0x3a37d3a2717cab09ULL},
    {&rules_solitaire, {OPT("board", "example")}, 1, 0xaf1b0fa8644fbefbULL},
    {&rules_solitaire,
        {OPT("steps", "30"), OPT("rows", "10"), OPT("cols", "9"),
            OPT("seed", "7")},
        4, 0xed8a1cf51c0cba75ULL},
    {&rules_shifter, {OPT("level", "1"), OPT("seed", "3")}, 2,
        0x09994cdc25e03505ULL},
    {&rules_shifter, {OPT("level", "9"), OPT("seed", "11")}, 2,
        0x976d5f5b4c051fdcULL},
    {&rules_shifter, {OPT("level", "40"), OPT("seed", "5")}, 2,
        0x8f52defd3620f9f8ULL},
};

/* The writer itself: numbers as printf would write them, and a text that
 * does not fit leaves an empty buffer and -1. */
static void
render_writer(void)
{
	char buf[64], small[6];
	struct rules_out o;

	rules_out_init(&o, buf, sizeof buf);
	rules_out_int(&o, -42, 5);
	rules_out_char(&o, '|');
	rules_out_int(&o, 7, 0);
	rules_out_int(&o, 123, 2);
	rules_out_mem(&o, "|ab", 2);
	rules_out_int(&o, -9223372036854775807LL - 1, 0);
	rules_out_str(&o, "|");
	rules_out_int(&o, 0, 3);
	CHECK_INT(rules_out_done(&o), 36);
	CHECK_STR(buf, "  -42|7123|a-9223372036854775808|  0");

	rules_out_init(&o, small, sizeof small);
	rules_out_str(&o, "abcde");
	CHECK_INT(rules_out_done(&o), 5);
	CHECK_STR(small, "abcde");
	rules_out_init(&o, small, sizeof small);
	rules_out_str(&o, "abc");
	rules_out_int(&o, 12, 3);
	rules_out_char(&o, 'z');
	CHECK_INT(rules_out_done(&o), -1);
	CHECK_STR(small, "");
	rules_out_init(&o, small, 0);
	rules_out_char(&o, 'z');
	CHECK_INT(rules_out_done(&o), -1);
}

int
main(void)
{
	size_t i;

	render_writer();

	for (i = 0; i < sizeof render_cases / sizeof render_cases[0]; i++) {
		const struct render_case *rc = &render_cases[i];
		uint64_t got = render_games(rc, 1000 + i);

		if (got != rc->want)
			printf("case %zu (%s): fingerprint 0x%016llxULL\n", i,
			    rc->g->name, (unsigned long long)got);
		CHECK_U64(got, rc->want);
	}
	return check_done();
}
