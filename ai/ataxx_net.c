/*
 * ataxx_net.c: a small neural evaluation for the Ataxx engine
 * (AX_W_NET in ai/ataxx_engine.c), trained here on self-play positions by
 * bench/ataxx_net.py; its weights are the generated table
 * ai/ataxx_net_table.h. Inputs: the engine's counts (material, exposed
 * stones, clone reach, edge and corner stones, each the side to move's
 * minus the other's) and the share of empty squares (how far the
 * game is). One hidden layer of AX_NET_HIDDEN pairs of rectified units;
 * each pair is fed the counts and their negation, so the value is odd in
 * the counts: swapping the sides negates it. The engine adds its tempo
 * weight for the side to move, and its shortcut one ply before the leaves
 * relies on the oddness: the same counts with the other side to move are
 * worth the negation, the tempo handed over.
 */
#include "ai/ai.h"

#include "ai/ataxx_net_table.h"

/* A rectified unit. */
static double
ataxx_net_relu(double z)
{
	return z > 0 ? z : 0;
}

int
ai_ataxx_net(const int x[AI_ATAXX_NET_IN], int empty, int squares)
{
	double phase = squares > 0 ? (double)empty / squares : 0, v = 0;
	int i, j;

	for (i = 0; i < AI_ATAXX_NET_IN; i++)
		v += ataxx_net_lin[i] * x[i];
	for (j = 0; j < AX_NET_HIDDEN; j++) {
		/* the pair's units: the weighed counts, then their negation,
		 * each plus the phase's part and the unit's own */
		double a = 0, rest = ataxx_net_c[j] + ataxx_net_u[j] * phase;

		for (i = 0; i < AI_ATAXX_NET_IN; i++)
			a += ataxx_net_w[j][i] * x[i];
		v += ataxx_net_v[j] *
		    (ataxx_net_relu(a + rest) - ataxx_net_relu(rest - a));
	}
	return (int)(v >= 0 ? v + 0.5 : v - 0.5);
}
