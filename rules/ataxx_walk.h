/*
 * ataxx_walk.h: the body of Ataxx perft, included twice by ataxx.c: once
 * with the 128-bit bitboard every board size fits, once with a 64-bit word,
 * which boards up to 7x7 fit (their last square is bit 6 * 9 + 6 = 60) and
 * which takes half the instructions for every mask, count and lowest bit.
 * The includer defines:
 *   WALK_BB       the bitboard type;
 *   WALK_POP(b)   its population count, WALK_LSB(b) its lowest bit;
 *   WALK_COUNT, WALK_NAME   the names of the two functions made here.
 * A table entry (ataxx_adj, ataxx_jump) is cast to WALK_BB: bits past the
 * word are off a board that fits it, and every mask is and-ed with squares
 * of the board.
 */

/* Leaves one ply on for the side with `own` to move: its moves (bulk
 * counted), else 1 for a pass, else 0 when the game is over. */
RULES_INLINE uint64_t
WALK_COUNT(WALK_BB own, WALK_BB opp, WALK_BB empty)
{
	WALK_BB reach = 0, b;
	uint64_t n = 0;

	if (own == 0 || opp == 0)
		return 0;
	for (b = own; b != 0; b &= b - 1) {
		int sq = WALK_LSB(b);

		reach |= (WALK_BB)ataxx_adj[sq];
		n += (uint64_t)WALK_POP((WALK_BB)ataxx_jump[sq] & empty);
	}
	n += (uint64_t)WALK_POP(reach & empty);
	if (n != 0)
		return n;
	return ataxx_mobile(opp, empty) ? 1 : 0;
}

/* Perft by copy-make on bitboards, the side to move always `own`. */
RULES_HOT static uint64_t
WALK_NAME(WALK_BB own, WALK_BB opp, WALK_BB empty, int depth)
{
	WALK_BB reach = 0, b, t, cap, bit, fb;
	uint64_t n = 0;
	int moved = 0;

	if (depth == 1)
		return WALK_COUNT(own, opp, empty);
	if (own == 0 || opp == 0)
		return 0;
	for (b = own; b != 0; b &= b - 1)
		reach |= (WALK_BB)ataxx_adj[WALK_LSB(b)];
	for (b = reach & empty; b != 0; b &= b - 1) {
		bit = b & -b;
		cap = (WALK_BB)ataxx_adj[WALK_LSB(b)] & opp;
		n += WALK_NAME(
		    opp ^ cap, own | bit | cap, empty ^ bit, depth - 1);
		moved = 1;
	}
	for (b = own; b != 0; b &= b - 1) {
		fb = b & -b;
		for (t = (WALK_BB)ataxx_jump[WALK_LSB(b)] & empty; t != 0;
		     t &= t - 1) {
			bit = t & -t;
			cap = (WALK_BB)ataxx_adj[WALK_LSB(t)] & opp;
			n += WALK_NAME(opp ^ cap, (own ^ fb) | bit | cap,
			    empty ^ bit ^ fb, depth - 1);
			moved = 1;
		}
	}
	if (moved)
		return n;
	if (!ataxx_mobile(opp, empty))
		return 0;
	return WALK_NAME(opp, own, empty, depth - 1);
}
