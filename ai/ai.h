/*
 * ai.h: bots and solvers, built on the rules interface. Everything here is
 * pure computation on a copy of a state: no I/O, safe on a worker thread.
 */
#ifndef TABLERO_AI_H
#define TABLERO_AI_H

#include <stdatomic.h>

#include "rules/rules.h"

enum ai_verdict {
	AI_UNKNOWN = -1, /* the node limit ran out first */
	AI_LOST = 0,     /* no sequence of moves wins from here */
	AI_WINNABLE = 1, /* *hint is a move after which it is still winnable */
};

/* ai.c: the entry points the server calls, dispatching by game. */

/* Solve a one-player game: a verdict, and for AI_WINNABLE a move that keeps
 * the puzzle winnable (a finished puzzle: SOLVED is winnable with no move,
 * hint->to == RULES_NONE). node_limit bounds the work (0: no bound); when
 * another thread sets *cancel (NULL: never) the search soon stops with
 * AI_UNKNOWN. */
enum ai_verdict ai_solve(const struct rules_game *g, const void *st,
    long node_limit, const atomic_int *cancel, struct rules_move *hint);

/* Solvers look at the cancel flag once in this many nodes (a power of
 * two): a few milliseconds. */
#define AI_CANCEL_EVERY 65536L

/* Whether *cancel (NULL: never) was set. */
int ai_cancelled(const atomic_int *cancel);

/* bot.c */

/* A computer player's move for the side to move of a two-player game, at
 * level 1 (weak, instant) to 5 (strong, about a second); seed varies its
 * choice among equal moves. 0, or -1 when there is no move. */
int ai_bot_move(const struct rules_game *g, const void *st, int level,
    uint64_t seed, struct rules_move *out);

/* solitaire_solver.c */
enum ai_verdict ai_solitaire_solve(const void *st, long node_limit,
    const atomic_int *cancel, struct rules_move *hint);

/* shifter_solver.c */
enum ai_verdict ai_shifter_solve(const void *st, long node_limit,
    const atomic_int *cancel, struct rules_move *hint);

#endif
