/*
 * solitaire_table.c: the shipped tables of winnable peg solitaire
 * positions. For a board with a table (data/solitaire/NAME.win, made by
 * `bots soltable NAME`), every position reachable from the board's start
 * that can still be won and holds at least MIN pegs is in it, one per
 * class of positions the board's symmetries map onto each other (fewer
 * pegs are searched fast enough: a table of all of them would be seven
 * times the size). A position of such a board is then
 * answered by looking up its jumps, in microseconds, where the search can
 * take seconds (proving an early position lost visits millions of
 * positions).
 *
 * The file: a text line "tablero-solitaire-win ROWS COLS GOAL USABLE MIN N"
 * (USABLE: the usable cells as a hexadecimal mask of grid cells, row by
 * row from bit 0), then N keys of AI_SOLTAB_KEY_BYTES bytes each, least
 * significant byte first, in increasing order. A key's bit k is the k-th
 * usable cell (row by row); a position's key is the smallest of its
 * images under the board's symmetries.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai/ai.h"
#include "rules/solitaire.h"

/* The boards that ship a table, by their name under data/solitaire/. */
static const char *const soltab_names[] = {"english"};

/* The header line is short; a longer one is not a table. */
#define SOLTAB_HEADER_MAX 128

/* Symmetry s (0..7) of an n x n square moves cell (r, c) to (*rr, *cc). */
static void
soltab_map(int s, int n, int r, int c, int *rr, int *cc)
{
	int t;

	if (s & 1) { /* mirror left to right */
		c = n - 1 - c;
	}
	if (s & 2) { /* mirror top to bottom */
		r = n - 1 - r;
	}
	if (s & 4) { /* transpose */
		t = r;
		r = c;
		c = t;
	}
	*rr = r;
	*cc = c;
}

int
ai_soltab_board(struct ai_soltab_board *tb, const struct solitaire_state *st)
{
	int idx[SOLITAIRE_MAX_CELLS], i, k, s, r, c, rr, cc, n = st->rows;

	memset(tb, 0, sizeof *tb);
	if (st->rows * st->cols > 64)
		return -1; /* the usable mask is one word */
	for (i = 0; i < st->rows * st->cols; i++) {
		idx[i] = -1;
		if (st->cell[i] == SOLITAIRE_OFF)
			continue;
		if (tb->ncells == AI_SOLTAB_CELLS)
			return -1;
		idx[i] = tb->ncells;
		tb->cell[tb->ncells++] = i;
		tb->usable |= (uint64_t)1 << i;
	}
	for (s = 0; s < 8; s++) {
		int ok = st->rows == st->cols || s == 0;

		for (k = 0; k < tb->ncells && ok; k++) {
			r = tb->cell[k] / st->cols;
			c = tb->cell[k] % st->cols;
			soltab_map(s, n, r, c, &rr, &cc);
			i = rr * st->cols + cc;
			ok = idx[i] >= 0 &&
			    (tb->cell[k] != st->goal || i == st->goal);
			if (ok)
				tb->perm[tb->nsym][k] = (uint8_t)idx[i];
		}
		if (ok)
			tb->nsym++;
	}
	return 0;
}

uint64_t
ai_soltab_key(const struct ai_soltab_board *tb, uint64_t pegs)
{
	uint64_t best = ~(uint64_t)0, img;
	int s, k;

	for (s = 0; s < tb->nsym; s++) {
		img = 0;
		for (k = 0; k < tb->ncells; k++)
			if (pegs >> k & 1)
				img |= (uint64_t)1 << tb->perm[s][k];
		if (img < best)
			best = img;
	}
	return best;
}

/* Whether the shipped file text (len bytes) is a table for st's board
 * (t->board): then it fills in the rest of *t. */
static int
soltab_parse(const char *text, size_t len, const struct solitaire_state *st,
    struct ai_soltab *t)
{
	char head[SOLTAB_HEADER_MAX + 1];
	const char *nl = memchr(
	    text, '\n', len < SOLTAB_HEADER_MAX ? len : SOLTAB_HEADER_MAX);
	unsigned long long usable, count;
	int rows, cols, goal, minpegs;

	if (nl == NULL)
		return 0;
	memcpy(head, text, (size_t)(nl - text));
	head[nl - text] = '\0';
	if (sscanf(head, "tablero-solitaire-win %d %d %d %llx %d %llu", &rows,
	        &cols, &goal, &usable, &minpegs, &count) != 6 ||
	    rows != st->rows || cols != st->cols || goal != st->goal ||
	    usable != t->board.usable || minpegs < 2 ||
	    count > (len - (size_t)(nl + 1 - text)) / AI_SOLTAB_KEY_BYTES)
		return 0;
	t->keys = (const unsigned char *)nl + 1;
	t->n = (size_t)count;
	t->minpegs = minpegs;
	return 1;
}

int
ai_soltab_find(const struct solitaire_state *st, struct ai_soltab *t)
{
	size_t i, len;
	char name[64];
	const char *text;

	if (ai_soltab_board(&t->board, st) != 0)
		return 0;
	for (i = 0; i < sizeof soltab_names / sizeof soltab_names[0]; i++) {
		snprintf(
		    name, sizeof name, "solitaire/%s.win", soltab_names[i]);
		text = rules_data(name, &len);
		if (text != NULL && soltab_parse(text, len, st, t))
			return 1;
	}
	return 0;
}

/* The key at position i of the table. */
static uint64_t
soltab_at(const struct ai_soltab *t, size_t i)
{
	const unsigned char *p = t->keys + i * AI_SOLTAB_KEY_BYTES;
	uint64_t k = 0;
	int b;

	for (b = AI_SOLTAB_KEY_BYTES - 1; b >= 0; b--)
		k = k << 8 | p[b];
	return k;
}

int
ai_soltab_has(const struct ai_soltab *t, uint64_t pegs)
{
	uint64_t key = ai_soltab_key(&t->board, pegs), at;
	size_t lo = 0, hi = t->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		at = soltab_at(t, mid);
		if (at == key)
			return 1;
		if (at < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}
