/*
 * fuzz_solitaire_file.c: the peg solitaire board file loader on random
 * bytes. A refused file must say why and leave the game as it was; an
 * accepted one must export to text that imports to the same state, and
 * every picture and the rules must work on it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/games.h"
#include "rules/solitaire.h"

/* Over the `file` option's 4096 bytes, so that long files are tried. */
#define FUZZ_FILE_MAX 6000

/* Everything that reads a state, on an accepted one. */
static void
fuzz_use(const struct rules_game *g, struct solitaire_state *s)
{
	struct rules_move mv[4 * SOLITAIRE_MAX_CELLS];
	struct rules_status st;
	char buf[RULES_TEXT_MAX];
	int i, n;

	if (g->render(s, buf, sizeof buf) < 0 ||
	    g->board_rows(s, buf, sizeof buf) < 0)
		abort();
	g->status(s, &st);
	if (st.reason == NULL || st.nscores != 1 || st.score[0] != s->pegs)
		abort();
	n = g->legal_moves(s, mv, 4 * SOLITAIRE_MAX_CELLS);
	if ((n > 0) != (st.result == RULES_PLAYING))
		abort();
	for (i = 0; i < n; i++) {
		g->format_move(s, mv[i], buf, sizeof buf);
		g->describe_move(s, mv[i], buf, sizeof buf);
	}
	if (n > 0) {
		g->apply(s, mv[n / 2]);
		if (g->legal_moves(s, mv, 4 * SOLITAIRE_MAX_CELLS) < 0)
			abort();
	}
}

static void
fuzz_check(const struct rules_game *g, struct solitaire_state *a,
    struct solitaire_state *b, const uint8_t *data, size_t size)
{
	char err[RULES_ERR_MAX], fa[RULES_TEXT_MAX], pos[RULES_LINE_MAX];
	struct solitaire_state before;
	int na;

	if (g->init(a, NULL, 0, err, sizeof err) != 0 ||
	    g->init(b, NULL, 0, err, sizeof err) != 0)
		abort();
	before = *a;
	err[0] = '\0';
	if (g->import_file(a, (const char *)data, size, err, sizeof err) != 0) {
		if (err[0] == '\0' || memcmp(a, &before, sizeof before) != 0)
			abort();
		return;
	}
	na = g->export_file(a, fa, sizeof fa);
	if (na < 0 || g->import_file(b, fa, (size_t)na, err, sizeof err) != 0 ||
	    memcmp(a, b, sizeof *a) != 0)
		abort();
	if (g->to_position(a, pos, sizeof pos) < 0 ||
	    g->from_position(b, pos, err, sizeof err) != 0 ||
	    memcmp(a, b, sizeof *a) != 0 || g->hash(a) != g->hash(b))
		abort();
	fuzz_use(g, a);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct rules_game *g = &rules_solitaire;
	struct solitaire_state *a, *b;

	if (size > FUZZ_FILE_MAX)
		return 0;
	a = malloc(sizeof *a);
	b = malloc(sizeof *b);
	if (a != NULL && b != NULL)
		fuzz_check(g, a, b, data, size);
	free(a);
	free(b);
	return 0;
}
