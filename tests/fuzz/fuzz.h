/*
 * fuzz.h: what the libFuzzer targets share. Header only: the Makefile
 * links each target from its one file and the libraries, so a shared
 * helper is a static inline function here.
 */
#ifndef TABLERO_FUZZ_H
#define TABLERO_FUZZ_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rules.h"

/* The fuzzer's size bytes as a string on the heap: copied, with a NUL
 * after them (one inside ends the string early, as it would a line's).
 * NULL when out of memory; the caller frees it. */
static inline char *
fuzz_text(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);

	if (text != NULL) {
		memcpy(text, data, size);
		text[size] = '\0';
	}
	return text;
}

/* Is m one of the moves g lists as legal in st? (The list is static: a
 * fuzz target runs one input at a time.) */
static inline int
fuzz_is_legal(const struct rules_game *g, const void *st, struct rules_move m)
{
	static struct rules_move list[RULES_MAX_MOVES];

	return rules_move_listed(
	    list, g->legal_moves(st, list, RULES_MAX_MOVES), m);
}

#endif
