/*
 * fuzz_shifter_level.c: the Shape Shifter level file loader on random
 * bytes. A refused file must say why and leave the game as it was; an
 * accepted one must export, and the export must import again to exactly the
 * same state and export to the same text; its position string must
 * round-trip too.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/games.h"
#include "rules/shifter.h"

/* A little over the loader's own limit, so that the limit is exercised. */
#define FUZZ_FILE_MAX 5000

static void
fuzz_check(const struct rules_game *g, struct shifter_state *a,
    struct shifter_state *b, const uint8_t *data, size_t size)
{
	char err[RULES_ERR_MAX], pa[RULES_LINE_MAX], pb[RULES_LINE_MAX];
	char fa[RULES_TEXT_MAX], fb[RULES_TEXT_MAX];
	int na, nb;

	if (g->init(a, NULL, 0, err, sizeof err) != 0 ||
	    g->init(b, NULL, 0, err, sizeof err) != 0)
		abort();
	err[0] = '\0';
	if (g->import_file(a, (const char *)data, size, err, sizeof err) != 0) {
		if (err[0] == '\0' || memcmp(a, b, sizeof *a) != 0)
			abort();
		return;
	}
	na = g->export_file(a, fa, sizeof fa);
	if (na < 0 || g->import_file(b, fa, (size_t)na, err, sizeof err) != 0)
		abort();
	if (memcmp(a, b, sizeof *a) != 0)
		abort();
	nb = g->export_file(b, fb, sizeof fb);
	if (nb != na || strcmp(fa, fb) != 0)
		abort();
	if (g->to_position(a, pa, sizeof pa) < 0 ||
	    g->from_position(b, pa, err, sizeof err) != 0 ||
	    g->to_position(b, pb, sizeof pb) < 0 || strcmp(pa, pb) != 0 ||
	    g->hash(a) != g->hash(b))
		abort();
	if (g->render(a, fa, sizeof fa) < 0 ||
	    g->board_rows(a, fa, sizeof fa) != 72)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct rules_game *g = &rules_shifter;
	struct shifter_state *a, *b;

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
