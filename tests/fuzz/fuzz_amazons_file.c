/*
 * fuzz_amazons_file.c: the Amazons tablero.txt loader on random bytes. A
 * refused file must say why and leave the game as it was; an accepted one
 * must export, and the export must import again to the same position and
 * export to the same text.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/games.h"

/* A little over the loader's own limit, so that the limit is exercised. */
#define FUZZ_FILE_MAX 5000

static void
fuzz_check(const struct rules_game *g, void *a, void *b, const uint8_t *data,
    size_t size)
{
	char err[RULES_ERR_MAX], pa[RULES_LINE_MAX], pb[RULES_LINE_MAX];
	char fa[RULES_TEXT_MAX], fb[RULES_TEXT_MAX];
	int na, nb;

	if (g->init(a, NULL, 0, err, sizeof err) != 0 ||
	    g->init(b, NULL, 0, err, sizeof err) != 0 ||
	    g->to_position(a, pa, sizeof pa) < 0)
		abort();
	err[0] = '\0';
	if (g->import_file(a, (const char *)data, size, err, sizeof err) != 0) {
		if (err[0] == '\0' || g->to_position(a, pb, sizeof pb) < 0 ||
		    strcmp(pa, pb) != 0)
			abort();
		return;
	}
	na = g->export_file(a, fa, sizeof fa);
	if (na < 0 || g->import_file(b, fa, (size_t)na, err, sizeof err) != 0)
		abort();
	nb = g->export_file(b, fb, sizeof fb);
	if (nb != na || strcmp(fa, fb) != 0)
		abort();
	if (g->to_position(a, pa, sizeof pa) < 0 ||
	    g->to_position(b, pb, sizeof pb) < 0 || strcmp(pa, pb) != 0 ||
	    g->hash(a) != g->hash(b))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct rules_game *g = &rules_amazons;
	void *a, *b;

	if (size > FUZZ_FILE_MAX)
		return 0;
	a = malloc(g->state_size);
	b = malloc(g->state_size);
	if (a != NULL && b != NULL)
		fuzz_check(g, a, b, data, size);
	free(a);
	free(b);
	return 0;
}
