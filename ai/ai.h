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

/* The bots' levels: 1 (gentle) to 5 (strongest). */
#define AI_LEVEL_MIN 1
#define AI_LEVEL_MAX 5

/* Evaluation weights a bench may try instead of an engine's own. */
#define AI_WEIGHTS 16

/* What a bot may spend on one move. */
struct ai_limits {
	int level;     /* AI_LEVEL_MIN..AI_LEVEL_MAX: strength and weakening */
	int depth;     /* > 0: search at most this many plies, not weakened */
	long ms;       /* the deadline, from the call, in milliseconds */
	uint64_t seed; /* varies the choice among near-equal moves */
	int plain;     /* the bench's yardstick: the evaluation's first term
	                  alone (Amazons: queen territory), to measure the
	                  others */
	const int
	    *weights; /* the bench's trial evaluation weights (NULL:
	                 the engine's own; Ataxx and Amazons read AI_WEIGHTS) */
	const atomic_int
	    *cancel; /* set by another thread: stop (NULL: never) */
};

/* What a bot's search did, for the bench and the log. */
struct ai_report {
	int depth;  /* the deepest iteration completed */
	long nodes; /* positions searched */
	long ms;    /* time spent */
	int score;  /* the engine's score of its move, for the side to move */
};

/* The time per move of a level, in milliseconds (docs/PROTOCOL.md). */
long ai_level_ms(int level);

/* Fill lim for a level (depth 0) with its time and the given seed. */
void ai_limits_level(struct ai_limits *lim, int level, uint64_t seed);

/* A computer player's move for the side to move of a two-player game,
 * within lim: the game's own engine, else the generic search of bot.c.
 * 0, or -1 when there is no move (rep may be NULL). */
int ai_bot_move(const struct rules_game *g, const void *st,
    const struct ai_limits *lim, struct rules_move *out, struct ai_report *rep);

/* Whether a bot accepts a draw offer when its last search scored its own
 * side `score` (ai_report's score, from its move's search): a position
 * drawn or lost for it by a margin (docs/RULES.md, "Bots answer"). */
int ai_bot_accepts_draw(const struct rules_game *g, int score);

/* Milliseconds on a monotonic clock. */
uint64_t ai_clock_ms(void);

/* The clock reading at which a search that started at `start` with `ms`
 * to think stops: a thirty-second short, the time it takes to unwind the
 * search and free its tables. */
uint64_t ai_deadline(uint64_t start, long ms);

/* Whether the search must stop: past deadline (ms on ai_clock_ms) or
 * cancelled. */
int ai_out_of_time(uint64_t deadline, const atomic_int *cancel);

/* bot.c: the generic search over the rules interface (the previous bot,
 * kept for games without an engine and as the bench's yardstick). */
int ai_generic_move(const struct rules_game *g, const void *st,
    const struct ai_limits *lim, struct rules_move *out, struct ai_report *rep);

/* ataxx_engine.c */
int ai_ataxx_move(const void *st, const struct ai_limits *lim,
    struct rules_move *out, struct ai_report *rep);
/* The engine's two copies, which ai_ataxx_move chooses between by the
 * board's size: on 128-bit bitboards (any size) and on 64-bit ones (up to
 * 7x7, ataxx_engine64.c); the same search, for the test that says so. */
int ai_ataxx_move128(const void *st, const struct ai_limits *lim,
    struct rules_move *out, struct ai_report *rep);
int ai_ataxx_move64(const void *st, const struct ai_limits *lim,
    struct rules_move *out, struct ai_report *rep);

/* The counts behind the Ataxx evaluation's terms beyond material, for the
 * side to move, in the order of its weights (the rest 0), for tuning
 * (bench/texel.py); the material, one side's pieces minus the other's. */
int ai_ataxx_terms(const void *st, int terms[AI_WEIGHTS]);

/* ataxx_net.c */
/* The inputs of the Ataxx engine's small neural evaluation: material,
 * exposed stones, clone reach, edge stones, corner stones, each the side
 * to move's count minus the other's (not the holes: they count the same
 * as the reach, docs/ENGINES.md). */
#define AI_ATAXX_NET_IN 5
/* Its value in hundredths of a piece beyond 100 a piece of material and
 * the side to move's tempo, for the side with counts x, with `empty` of
 * `squares` playable squares empty (odd in x). */
int ai_ataxx_net(const int x[AI_ATAXX_NET_IN], int empty, int squares);

/* ataxx_solve.c: endings solved exactly (docs/ENGINES.md). */
/* The most empty squares of a position the solver takes. */
#define AI_ATAXX_SOLVE_EMPTY 16
/* A question for the solver, its limits, and its answer's details. */
struct ai_ataxx_proof {
	int lead;          /* the lead to end with: 1 a win, 0 a win or draw */
	int plies;         /* the longest line looked at */
	long node_limit;   /* 0: none */
	uint64_t deadline; /* on ai_clock_ms (0: none) */
	const atomic_int *cancel; /* NULL: never */
	struct rules_move move;   /* out: the first move of a proof */
	int length;               /* out: the plies of the shortest proof */
	long nodes;               /* out: positions searched */
};
/* Whether the side to move of an Ataxx position can force the game to
 * end within pf->plies plies with pf->lead pieces more than the other or
 * more: 1 (pf->move the first move of a shortest such line, pf->length
 * its plies; a finished game: no move), 0 when it cannot, -1 when a limit
 * or *cancel came first, the position has more than AI_ATAXX_SOLVE_EMPTY
 * empty squares, or memory ran out. */
int ai_ataxx_solve(const void *st, struct ai_ataxx_proof *pf);
/* amazons_engine.c */
int ai_amazons_move(const void *st, const struct ai_limits *lim,
    struct rules_move *out, struct ai_report *rep);

/* When no empty square is reachable by both sides, the most moves each
 * side has left (moves[0] white, moves[1] black; the side to move wins
 * with more) and 1 when both counts are exact, 0 when one is an upper
 * bound (a region too large to count); -1 when the sides still meet. */
int ai_amazons_count(const void *st, int moves[2]);

/* The Amazons engine's own weights and search settings (enum am_weight's
 * order, the rest 0), for tests and the bench to vary one of them. */
void ai_amazons_defaults(int weights[AI_WEIGHTS]);

/* The counts behind the Amazons evaluation's terms for the side to move
 * (each its own minus the other's, in the order of its weights, the
 * search's settings 0): 0, or 1 when the sides are apart and every region
 * was counted (the evaluation is then the exact count, not these terms),
 * -1 out of memory. */
int ai_amazons_terms(const void *st, int terms[AI_WEIGHTS]);

/* stones_solver.c: perfect play from a table solved from the position. */
int ai_stones_move(const void *st, const struct ai_limits *lim,
    struct rules_move *out, struct ai_report *rep);

/* The value of a Stones position with perfect play, for the side to move:
 * 1 won, 0 drawn, -1 lost; *plies (may be NULL) the plies to the end of a
 * won or lost game. -2 when out of memory. */
int ai_stones_value(const void *st, int *plies);

/* solitaire_solver.c: ai_solitaire_solve uses the board's shipped table
 * (solitaire_table.c) where it has one; ai_solitaire_search never does
 * (the tests and the bench compare them). */
enum ai_verdict ai_solitaire_solve(const void *st, long node_limit,
    const atomic_int *cancel, struct rules_move *hint);
enum ai_verdict ai_solitaire_search(const void *st, long node_limit,
    const atomic_int *cancel, struct rules_move *hint);

/* solitaire_table.c: the shipped tables of winnable positions. */

/* Boards of up to 64 usable cells within 64 grid cells have a table; a
 * key fits in 5 bytes on boards of up to 40 usable cells (English: 33). */
#define AI_SOLTAB_CELLS 64
#define AI_SOLTAB_KEY_BYTES 5

struct solitaire_state;

/* A board's usable cells and symmetries (those that keep the goal). */
struct ai_soltab_board {
	int ncells;                       /* usable cells */
	int cell[AI_SOLTAB_CELLS];        /* grid cell of the k-th usable one */
	uint64_t usable;                  /* the usable grid cells */
	int nsym;                         /* symmetries, the identity first */
	uint8_t perm[8][AI_SOLTAB_CELLS]; /* usable cell k goes to perm[s][k] */
};

/* A table found for a board. */
struct ai_soltab {
	struct ai_soltab_board board;
	const unsigned char *keys; /* n keys of AI_SOLTAB_KEY_BYTES */
	size_t n;
	int minpegs; /* the table holds the positions of this many pegs or
	                more */
};

/* The usable cells and symmetries of st's board; -1 when it is too large
 * for a table. */
int ai_soltab_board(
    struct ai_soltab_board *tb, const struct solitaire_state *st);

/* The key of a peg set (bit k: the k-th usable cell): the smallest of its
 * images under the board's symmetries. */
uint64_t ai_soltab_key(const struct ai_soltab_board *tb, uint64_t pegs);

/* Whether st's board ships a table: then *t is it. */
int ai_soltab_find(const struct solitaire_state *st, struct ai_soltab *t);

/* Whether the peg set (bit k: the k-th usable cell, at least minpegs
 * pegs) is in the table: it is winnable; a position reachable from the
 * start that is not in it is lost. */
int ai_soltab_has(const struct ai_soltab *t, uint64_t pegs);

/* shifter_solver.c */
enum ai_verdict ai_shifter_solve(const void *st, long node_limit,
    const atomic_int *cancel, struct rules_move *hint);

#endif
