/*
 * glicko.c: one rating period of Glicko-2, as in Mark Glickman's "Example
 * of the Glicko-2 system" (2013): steps 1 to 8, with the Illinois
 * algorithm (regula falsi) for the new volatility in step 5. Pure: no
 * I/O, no state. tests/unit/test_glicko.c checks the paper's example.
 */
#include <math.h>

#include "server/club/glicko.h"

/* The Glicko-2 scale factor: 400 / ln(10). */
#define GLICKO_SCALE 173.7178
/* The volatility iteration stops when its interval is this narrow
 * (Glickman's epsilon). */
#define GLICKO_EPSILON 0.000001
/* Iterations of the volatility search at most: it converges in a dozen;
 * a bound so that no input can make it spin. */
#define GLICKO_ITER_MAX 200

/* g(phi): how much an opponent's deviation damps a result. */
static double
glicko_g(double phi)
{
	return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (M_PI * M_PI));
}

/* E: the expected score against an opponent. */
static double
glicko_e(double mu, double mu_j, double phi_j)
{
	return 1.0 / (1.0 + exp(-glicko_g(phi_j) * (mu - mu_j)));
}

/* Step 5's f(x). */
static double
glicko_f(double x, double delta, double phi, double v, double a, double tau)
{
	double ex = exp(x), d = phi * phi + v + ex;

	return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) -
	    (x - a) / (tau * tau);
}

/* Step 5: the new volatility, by the Illinois algorithm. */
static double
glicko_volatility(double sigma, double delta, double phi, double v, double tau)
{
	double a = log(sigma * sigma), A = a, B, fA, fB, C, fC;
	int k = 1, i;

	if (delta * delta > phi * phi + v) {
		B = log(delta * delta - phi * phi - v);
	} else {
		while (glicko_f(a - k * tau, delta, phi, v, a, tau) < 0 &&
		    k < GLICKO_ITER_MAX)
			k++;
		B = a - k * tau;
	}
	fA = glicko_f(A, delta, phi, v, a, tau);
	fB = glicko_f(B, delta, phi, v, a, tau);
	for (i = 0; fabs(B - A) > GLICKO_EPSILON && i < GLICKO_ITER_MAX; i++) {
		C = A + (A - B) * fA / (fB - fA);
		fC = glicko_f(C, delta, phi, v, a, tau);
		if (fC * fB <= 0) {
			A = B;
			fA = fB;
		} else {
			fA = fA / 2.0;
		}
		B = C;
		fB = fC;
	}
	return exp(A / 2.0);
}

/* Keep a deviation within the documented bounds. */
static double
glicko_clamp_rd(double rd)
{
	if (rd > GLICKO_RD_MAX)
		return GLICKO_RD_MAX;
	if (rd < GLICKO_RD_MIN)
		return GLICKO_RD_MIN;
	return rd;
}

void
glicko_update(const struct glicko *p, const struct glicko_game *games, int n,
    double tau, struct glicko *out)
{
	double mu = (p->rating - GLICKO_START_RATING) / GLICKO_SCALE;
	double phi = p->rd / GLICKO_SCALE, sum_v = 0, sum_d = 0;
	double v, delta, sigma, phi_star, phi_new;
	int j;

	if (n <= 0) { /* step 6 alone: the deviation grows */
		out->rd = glicko_clamp_rd(
		    GLICKO_SCALE * sqrt(phi * phi + p->vol * p->vol));
		out->rating = p->rating;
		out->vol = p->vol;
		return;
	}
	for (j = 0; j < n; j++) { /* steps 3 and 4 */
		double mu_j =
		    (games[j].rating - GLICKO_START_RATING) / GLICKO_SCALE;
		double phi_j = games[j].rd / GLICKO_SCALE;
		double g = glicko_g(phi_j), e = glicko_e(mu, mu_j, phi_j);

		sum_v += g * g * e * (1.0 - e);
		sum_d += g * (games[j].score - e);
	}
	v = 1.0 / sum_v;
	delta = v * sum_d;
	sigma = glicko_volatility(p->vol, delta, phi, v, tau);
	phi_star = sqrt(phi * phi + sigma * sigma); /* step 6 */
	phi_new = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v); /* 7 */
	out->rating = GLICKO_SCALE * (mu + phi_new * phi_new * sum_d) +
	    GLICKO_START_RATING; /* step 8 */
	out->rd = glicko_clamp_rd(GLICKO_SCALE * phi_new);
	out->vol = sigma;
}
