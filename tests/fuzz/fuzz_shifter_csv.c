/*
 * fuzz_shifter_csv.c: the movimientos.csv parser on random bytes. A refused
 * file must say why (with its line, or the whole file's fault) and leave the
 * table as it was; an accepted one must hold 1 to 16 well-formed pieces with
 * distinct names (valid UTF-8, 1 to 15 characters) and letters, and must
 * make a level that the rules and the solver can play.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ai/ai.h"
#include "rules/games.h"
#include "rules/shifter.h"

/* A little over the parser's own limit, so that the limit is exercised. */
#define FUZZ_CSV_MAX 17000
/* Levels made from a fuzzed table: small, so an input stays fast. */
#define FUZZ_LEVELS 6
/* Solver nodes per input. */
#define FUZZ_NODES 2000

/* The characters of a name if it is well-formed UTF-8 (no overlong
 * form, surrogate or code point past U+10FFFF), else -1. Written apart
 * from the parser's decoder so that the two check each other. */
static int
fuzz_utf8_chars(const unsigned char *p)
{
	int chars = 0;

	while (*p != 0) {
		uint32_t c;
		int len, i;

		if (*p < 0x80)
			len = 1, c = *p;
		else if ((*p & 0xe0) == 0xc0)
			len = 2, c = *p & 0x1f;
		else if ((*p & 0xf0) == 0xe0)
			len = 3, c = *p & 0x0f;
		else if ((*p & 0xf8) == 0xf0)
			len = 4, c = *p & 0x07;
		else
			return -1;
		for (i = 1; i < len; i++) {
			if ((p[i] & 0xc0) != 0x80)
				return -1;
			c = c << 6 | (p[i] & 0x3f);
		}
		if ((len == 2 && c < 0x80) || (len == 3 && c < 0x800) ||
		    (len == 4 && c < 0x10000) || c > 0x10ffff ||
		    (c >= 0xd800 && c <= 0xdfff))
			return -1;
		p += len;
		chars++;
	}
	return chars;
}

/* Abort unless the table is well formed. */
static void
fuzz_check_table(const struct shifter_state *s)
{
	int k, j, i;

	if (s->nkinds < 1 || s->nkinds > SHIFTER_MAX_KINDS)
		abort();
	for (k = 0; k < s->nkinds; k++) {
		const struct shifter_kind *kd = &s->kind[k];
		size_t n = strlen(kd->name);

		int chars = fuzz_utf8_chars((const unsigned char *)kd->name);

		if (chars < 1 || chars > SHIFTER_NAME_CHARS)
			abort();
		if (n < 1 || n > SHIFTER_NAME_MAX || kd->nsteps < 1 ||
		    kd->nsteps > SHIFTER_MAX_STEPS || kd->letter < 'A' ||
		    kd->letter > 'Z')
			abort();
		for (i = 0; i < kd->nsteps; i++)
			if ((kd->step[i].dx == 0 && kd->step[i].dy == 0) ||
			    kd->step[i].dx < -7 || kd->step[i].dx > 7 ||
			    kd->step[i].dy < -7 || kd->step[i].dy > 7 ||
			    kd->step[i].extends > 1)
				abort();
		for (j = 0; j < k; j++)
			if (strcmp(kd->name, s->kind[j].name) == 0 ||
			    kd->letter == s->kind[j].letter)
				abort();
	}
}

/* Play a level of the table: the solver's hints while they last, else
 * the first capture. */
static void
fuzz_play(struct shifter_state *s, int level)
{
	const struct rules_game *g = &rules_shifter;
	struct rules_move list[SHIFTER_SQUARES], hint;
	char err[RULES_ERR_MAX];
	int n, guard, on_hints = 1;

	if (shifter_generate(
	        s, level, (uint64_t)level * 7919, err, sizeof err) != 0) {
		if (err[0] == '\0')
			abort();
		return;
	}
	if (__builtin_popcountll(shifter_occupied(s)) != level + 2)
		abort();
	for (guard = 0; guard < SHIFTER_SQUARES; guard++) {
		enum ai_verdict v =
		    ai_shifter_solve(s, FUZZ_NODES, NULL, &hint);

		n = g->legal_moves(s, list, SHIFTER_SQUARES);
		/* A generated level can be won, and hints keep it so. */
		if (v == AI_LOST && on_hints)
			abort();
		if (n == 0)
			break;
		on_hints &= v == AI_WINNABLE;
		g->apply(s, v == AI_WINNABLE ? hint : list[0]);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct shifter_state *s, *before;
	char err[RULES_ERR_MAX];

	if (size > FUZZ_CSV_MAX)
		return 0;
	s = calloc(1, sizeof *s);
	before = calloc(1, sizeof *before);
	if (s != NULL && before != NULL) {
		err[0] = '\0';
		if (shifter_table_parse(
		        s, (const char *)data, size, err, sizeof err) != 0) {
			if (err[0] == '\0' || memcmp(s, before, sizeof *s) != 0)
				abort();
		} else {
			fuzz_check_table(s);
			fuzz_play(
			    s, 1 + (size > 0 ? data[0] : 0) % FUZZ_LEVELS);
		}
	}
	free(s);
	free(before);
	return 0;
}
