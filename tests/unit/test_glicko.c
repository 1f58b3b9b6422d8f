/*
 * test_glicko.c: Glicko-2 (server/glicko.c) against Glickman's worked
 * example ("Example of the Glicko-2 system"): a 1500/200/0.06 player who
 * beats a 1400/30, loses to a 1550/100 and to a 1700/300 ends at
 * r' = 1464.06, RD' = 151.52, sigma' = 0.05999, to the paper's decimals;
 * and the shape of one game's update as the server uses it.
 */
#include <math.h>
#include <stdio.h>

#include "server/club/glicko.h"
#include "tests/unit/check.h"

/* v rounded to `places` decimals, as an integer (1464.0506, 2: 146406). */
static long long
test_round(double v, int places)
{
	return llround(v * pow(10, places));
}

/*
 * The paper's example. The paper carries its steps on the Glicko-2 scale
 * to four decimals: mu' = -0.2069, phi' = 0.8722, sigma' = 0.05999 (five
 * decimals, cut), and prints r' = 1464.06 and RD' = 151.52 from those;
 * exactly, r' = 1464.0507, RD' = 151.5165, sigma' = 0.0599960 (what other
 * implementations give too). Both are checked.
 */
static void
test_example(void)
{
	const struct glicko p = {1500, 200, 0.06};
	const struct glicko_game games[3] = {
	    {1400, 30, 1}, {1550, 100, 0}, {1700, 300, 0}};
	struct glicko out;
	double mu, phi;

	glicko_update(&p, games, 3, 0.5, &out);
	mu = (out.rating - 1500) / 173.7178;
	phi = out.rd / 173.7178;
	CHECK_INT(test_round(mu, 4), -2069);
	CHECK_INT(test_round(phi, 4), 8722);
	CHECK_INT((long long)floor(out.vol * 1e5), 5999);
	CHECK_INT(
	    test_round(173.7178 * test_round(mu, 4) / 1e4 + 1500, 2), 146406);
	CHECK_INT(test_round(173.7178 * test_round(phi, 4) / 1e4, 2), 15152);
	CHECK_INT(test_round(out.rating, 4), 14640507);
	CHECK_INT(test_round(out.rd, 4), 1515165);
	CHECK_INT(test_round(out.vol, 7), 599960);
}

/* A period without games: the rating stays, the deviation grows, within
 * its bound. */
static void
test_idle(void)
{
	const struct glicko p = {1500, 200, 0.06}, fresh = {1500, 350, 0.06};
	struct glicko out;

	glicko_update(&p, NULL, 0, GLICKO_TAU, &out);
	CHECK(out.rating == 1500);
	CHECK(out.rd > 200 && out.rd < 201);
	glicko_update(&fresh, NULL, 0, GLICKO_TAU, &out);
	CHECK(out.rd == GLICKO_RD_MAX);
}

/* One game between two new players: the winner gains what the loser
 * loses, both deviations fall; a draw between equals moves nothing. */
static void
test_one_game(void)
{
	const struct glicko a = {
	    GLICKO_START_RATING, GLICKO_START_RD, GLICKO_START_VOL};
	struct glicko_game g = {a.rating, a.rd, 1};
	struct glicko win, loss, draw;

	glicko_update(&a, &g, 1, GLICKO_TAU, &win);
	g.score = 0;
	glicko_update(&a, &g, 1, GLICKO_TAU, &loss);
	g.score = 0.5;
	glicko_update(&a, &g, 1, GLICKO_TAU, &draw);
	CHECK(win.rating > 1600 && win.rating < 1700);
	CHECK_INT(test_round(win.rating - 1500, 6),
	    test_round(1500 - loss.rating, 6));
	CHECK(win.rd < GLICKO_START_RD && loss.rd < GLICKO_START_RD);
	CHECK_INT(test_round(draw.rating, 6), test_round(1500, 6));
}

/* Against a far stronger, well-known opponent a win gains much, a loss
 * costs little; the deviation never falls below its floor. */
static void
test_upset(void)
{
	const struct glicko a = {1500, 60, 0.06};
	struct glicko_game g = {2000, 50, 1};
	struct glicko win, loss, p = {1500, GLICKO_RD_MIN, 0.06};
	int i;

	glicko_update(&a, &g, 1, GLICKO_TAU, &win);
	g.score = 0;
	glicko_update(&a, &g, 1, GLICKO_TAU, &loss);
	CHECK(win.rating - 1500 > 10 * (1500 - loss.rating));
	g.rating = 1500;
	for (i = 0; i < 50; i++) {
		g.score = i % 2;
		glicko_update(&p, &g, 1, GLICKO_TAU, &p);
	}
	CHECK(p.rd >= GLICKO_RD_MIN);
}

int
main(void)
{
	test_example();
	test_idle();
	test_one_game();
	test_upset();
	return check_done();
}
