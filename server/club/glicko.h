/*
 * glicko.h: Glickman's Glicko-2 rating system, pure (no I/O, no state):
 * one rating period's update of one player from the games of that period.
 * See glicko.c and docs/RULES.md ("Ratings").
 */
#ifndef TABLERO_GLICKO_H
#define TABLERO_GLICKO_H

/* A new player's rating, deviation and volatility (Glickman's values). */
#define GLICKO_START_RATING 1500.0
#define GLICKO_START_RD 350.0
#define GLICKO_START_VOL 0.06
/* tau, the system constant that limits how fast volatility moves;
 * Glickman suggests 0.3 to 1.2 and uses 0.5 in his example. Board games
 * between club players change slowly: 0.5. */
#define GLICKO_TAU 0.5
/* Deviation bounds: a deviation never grows above a new player's, and a
 * very active player's never falls below 30 (so that a new result still
 * moves it a little). */
#define GLICKO_RD_MAX 350.0
#define GLICKO_RD_MIN 30.0

/* A rating on the Glicko scale. */
struct glicko {
	double rating, rd, vol;
};

/* One game of the period: the opponent's rating and deviation and the
 * score (1 win, 0.5 draw, 0 loss). */
struct glicko_game {
	double rating, rd, score;
};

/* p after the n games of one rating period, with system constant tau,
 * into *out (out may be p). With no game only the deviation grows. */
void glicko_update(const struct glicko *p, const struct glicko_game *games,
    int n, double tau, struct glicko *out);

#endif
