/*
 * pairing.h: a tournament's pure arithmetic (pairing.c): the round robin's
 * rounds by the circle method (Berger tables), a Swiss round paired by the
 * Dutch system's basic rules, and the standings with their tie-breaks.
 * Players are indices 0..n-1 in their seeding order (the order they
 * joined; a Swiss's by rating); no I/O, no allocation beyond the caller's
 * arrays.
 */
#ifndef TABLERO_PAIRING_H
#define TABLERO_PAIRING_H

/* Most players in one tournament: a class or a club night; the Swiss
 * search and the standings stay instant at this size. */
#define PAIRING_PLAYERS_MAX 64
/* Games of one round at most (a bye counts as one). */
#define PAIRING_BOARDS_MAX (PAIRING_PLAYERS_MAX / 2 + 1)
/* Steps the Swiss search may take before it gives up on a round without
 * repeats (then repeats are allowed, the least first): bounds the work of
 * an impossible round; a possible one of 64 players takes far fewer. */
#define PAIRING_SEARCH_MAX 200000L

/* A game's result; a bye is a game with black -1, scored PAIRING_WHITE. */
enum pairing_res {
	PAIRING_NONE,  /* not played yet */
	PAIRING_WHITE, /* white (the first seat) won */
	PAIRING_BLACK, /* black (the second seat) won */
	PAIRING_DRAW,
	PAIRING_NEITHER, /* both lost (neither showed up) */
};

/* One game of a round: player indices; black -1 is a bye for white. */
struct pairing_game {
	int white, black;
	enum pairing_res res;
};

/* The tie-break of the standings. */
enum pairing_tiebreak {
	PAIRING_SONNEBORN_BERGER, /* round robin */
	PAIRING_BUCHHOLZ,         /* Swiss */
};

/* What puts a line of the standings above the next one. */
enum pairing_crit {
	PAIRING_BY_POINTS,
	PAIRING_BY_BUCHHOLZ,
	PAIRING_BY_SB, /* Sonneborn-Berger */
	PAIRING_BY_WINS,
	PAIRING_BY_SEED,
	PAIRING_BY_LAST, /* the last line: nobody below */
};

/* The tie-breaks of each format in the order they apply, after the
 * points, ending with PAIRING_BY_SEED (which always decides). */
#define PAIRING_TIEBREAKS_MAX 4
extern const enum pairing_crit pairing_tiebreaks[2][PAIRING_TIEBREAKS_MAX];
/* A criterion's name as shown ("Buchholz", "Sonneborn-Berger", "wins",
 * "seed", "points"). */
const char *pairing_crit_name(enum pairing_crit c);

/* One line of the standings. Points are in halves (a win 2, a draw 1). */
struct pairing_standing {
	int player;
	int halves;      /* the score in half points */
	int tb_quarters; /* the first tie-break in quarter points */
	int bh_quarters; /* Buchholz in quarter points */
	int sb_quarters; /* Sonneborn-Berger in quarter points */
	int wins, draws, losses, byes;
	enum pairing_crit above_next; /* what puts it above the next line */
};

/* Rounds of a round robin of n players (n - 1, or n when n is odd). */
int pairing_rr_rounds(int n);
/* Round `round` (0-based) of a round robin of n players into out; the
 * number of games (a bye included). */
int pairing_rr_round(int n, int round, struct pairing_game *out);
/* The next Swiss round of n players (indices in seeding order) after the
 * past games into out, by the basic rules of the FIDE Dutch system
 * (docs/RULES.md): score groups, top half against bottom half, floaters
 * down, colour preferences, no pair meeting twice, the bye to the
 * lowest-ranked player without one. The number of games; *repeats is
 * set to 1 when no round without repeats was found and one with repeats
 * was made (by the older search by score). */
int pairing_swiss(int n, const struct pairing_game *past, int npast,
    struct pairing_game *out, int *repeats);
/* The standings of n players after the games into out (n lines), best
 * first: by score, then the format's tie-breaks in order
 * (pairing_tiebreaks: a Swiss Buchholz, Sonneborn-Berger, wins; a round
 * robin Sonneborn-Berger, wins), then seeding. Sonneborn-Berger: the
 * scores of the opponents beaten plus half those of the opponents drawn;
 * Buchholz: the sum of the opponents' scores; wins: games won (not
 * byes). A bye adds nothing to any. */
void pairing_standings(int n, const struct pairing_game *games, int ngames,
    enum pairing_tiebreak tb, struct pairing_standing *out);

#endif
