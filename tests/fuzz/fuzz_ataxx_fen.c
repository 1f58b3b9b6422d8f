/*
 * fuzz_ataxx_fen.c: random bytes as an Ataxx position string. A string that
 * from_position() accepts must come back unchanged from to_position(), and
 * the fast perft must agree with the generic one on it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/games.h"

/* Past the game's own limit (160), to test that limit too. */
#define FUZZ_MAX_INPUT 512

#define G (&rules_ataxx)

struct fuzz_state {
	_Alignas(16) unsigned char b[RULES_STATE_MAX];
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_state st;
	struct rules_status s;
	char text[FUZZ_MAX_INPUT + 1], out[RULES_TEXT_MAX];
	char err[RULES_ERR_MAX];
	int d;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (G->init(st.b, NULL, 0, err, sizeof err) != 0)
		abort();
	err[0] = '\0';
	if (G->from_position(st.b, text, err, sizeof err) != 0) {
		if (err[0] == '\0')
			abort();
		return 0;
	}
	if (G->to_position(st.b, out, sizeof out) <= 0 ||
	    strcmp(out, text) != 0)
		abort();
	if (G->render(st.b, out, sizeof out) <= 0 ||
	    G->board_rows(st.b, out, sizeof out) <= 0)
		abort();
	G->status(st.b, &s);
	if (s.nscores != 2 || (s.result == RULES_PLAYING) != (s.reason[0] == 0))
		abort();
	for (d = 1; d <= 2; d++)
		if (G->perft(st.b, d) != rules_perft_generic(G, st.b, d))
			abort();
	return 0;
}
