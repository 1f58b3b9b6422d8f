/*
 * test_pairing.c: server/pairing.c: the circle method meets every pair
 * once with colours balanced and one bye each for an odd count; Swiss
 * rounds pair everyone once without repeats (byes to different players);
 * the standings' Sonneborn-Berger and Buchholz, worked by hand.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/club/pairing.h"
#include "tests/unit/check.h"

/* Every pair of n players meets once over the rounds; each player plays
 * once a round; whites and blacks differ by one at most; a player of an
 * odd count has exactly one bye. */
static void
test_round_robin(int n)
{
	static int met[PAIRING_PLAYERS_MAX][PAIRING_PLAYERS_MAX];
	struct pairing_game g[PAIRING_BOARDS_MAX];
	int colour[PAIRING_PLAYERS_MAX] = {0}, byes[PAIRING_PLAYERS_MAX] = {0};
	int rounds = pairing_rr_rounds(n), r, i, k, a, b, pairs = 0;

	memset(met, 0, sizeof met);
	CHECK_INT(rounds, n % 2 == 0 ? n - 1 : n);
	for (r = 0; r < rounds; r++) {
		int seen[PAIRING_PLAYERS_MAX] = {0};

		k = pairing_rr_round(n, r, g);
		CHECK_INT(k, (n + 1) / 2);
		for (i = 0; i < k; i++) {
			a = g[i].white;
			b = g[i].black;
			CHECK(a >= 0 && a < n);
			seen[a]++;
			if (b < 0) {
				byes[a]++;
				continue;
			}
			seen[b]++;
			met[a][b]++;
			met[b][a]++;
			colour[a]++;
			colour[b]--;
			pairs++;
		}
		for (i = 0; i < n; i++)
			CHECK_INT(seen[i], 1);
	}
	CHECK_INT(pairs, n * (n - 1) / 2);
	for (a = 0; a < n; a++) {
		CHECK(colour[a] >= -1 && colour[a] <= 1);
		CHECK_INT(byes[a], n % 2);
		for (b = 0; b < n; b++)
			CHECK_INT(met[a][b], a == b ? 0 : 1);
	}
	CHECK_INT(pairing_rr_round(n, rounds, g), 0);
}

/* A small generator for results, the same every run. */
static unsigned long test_seed = 12345;

static int
test_rand(int m)
{
	test_seed = test_seed * 6364136223846793005UL + 1442695040888963407UL;
	return (int)((test_seed >> 33) % (unsigned long)m);
}

/* A Swiss of n players over `rounds` rounds with random results: each
 * round pairs everyone once, no pair twice, nobody two byes, colours
 * within two. */
static void
test_swiss(int n, int rounds)
{
	static struct pairing_game all[PAIRING_PLAYERS_MAX * 8];
	static int met[PAIRING_PLAYERS_MAX][PAIRING_PLAYERS_MAX];
	int byes[PAIRING_PLAYERS_MAX] = {0}, colour[PAIRING_PLAYERS_MAX] = {0};
	int nall = 0, r, i, k, repeats;

	memset(met, 0, sizeof met);
	for (r = 0; r < rounds; r++) {
		struct pairing_game g[PAIRING_BOARDS_MAX];
		int seen[PAIRING_PLAYERS_MAX] = {0};

		k = pairing_swiss(n, all, nall, g, &repeats);
		CHECK_INT(repeats, 0);
		CHECK_INT(k, (n + 1) / 2);
		for (i = 0; i < k; i++) {
			int a = g[i].white, b = g[i].black;

			seen[a]++;
			if (b < 0) {
				CHECK_INT(g[i].res, PAIRING_WHITE);
				byes[a]++;
			} else {
				seen[b]++;
				met[a][b]++;
				met[b][a]++;
				colour[a]++;
				colour[b]--;
				g[i].res = 1 + test_rand(3);
			}
			all[nall++] = g[i];
		}
		for (i = 0; i < n; i++)
			CHECK_INT(seen[i], 1);
	}
	for (i = 0; i < n; i++) {
		int j;

		CHECK(byes[i] <= 1);
		CHECK(colour[i] >= -2 && colour[i] <= 2);
		for (j = 0; j < n; j++)
			CHECK(met[i][j] <= 1);
	}
}

/* Check board i of g: white w, black b (-1: the bye). */
#define CHECK_BOARD(g, i, w, b)                                                \
	do {                                                                   \
		CHECK_INT((g)[i].white, (w));                                  \
		CHECK_INT((g)[i].black, (b));                                  \
	} while (0)

/* The first round of a Swiss of five (Dutch): the bye to the last seed
 * (4), then top half against bottom half: 0-2, 1-3; the higher seed has
 * white on board 1, black on board 2. */
static void
test_swiss_first(void)
{
	struct pairing_game g[PAIRING_BOARDS_MAX];
	int repeats, k = pairing_swiss(5, NULL, 0, g, &repeats);

	CHECK_INT(k, 3);
	CHECK_BOARD(g, 0, 0, 2);
	CHECK_BOARD(g, 1, 3, 1);
	CHECK_BOARD(g, 2, 4, -1);
}

/* Round 1 of eight: 1 vs 5, 2 vs 6, 3 vs 7, 4 vs 8 (seeds from 1; here
 * players 0-4, 1-5, 2-6, 3-7), colours alternating by board. */
static void
test_dutch_round1(void)
{
	struct pairing_game g[PAIRING_BOARDS_MAX];
	int repeats, k = pairing_swiss(8, NULL, 0, g, &repeats);

	CHECK_INT(k, 4);
	CHECK_INT(repeats, 0);
	CHECK_BOARD(g, 0, 0, 4);
	CHECK_BOARD(g, 1, 5, 1);
	CHECK_BOARD(g, 2, 2, 6);
	CHECK_BOARD(g, 3, 7, 3);
}

/* Round 2 of eight after the higher seeds all won round 1: the score
 * group on 1 is {0, 1, 2, 3}: S1 {0, 1} against S2 {2, 3}: 0-2, 1-3; the
 * group on 0 likewise: 4-6, 5-7. Colours: 0 and 2 both had white and
 * both want black (equally): the higher-ranked 0 has it, so 2 is white;
 * 1 and 3 both had black: 1 has white; 4 and 6 both had black: 4 has
 * white; 5 and 7 both had white: 5 has black. */
static void
test_dutch_round2(void)
{
	struct pairing_game past[4] = {
	    {0, 4, PAIRING_WHITE},
	    {5, 1, PAIRING_BLACK},
	    {2, 6, PAIRING_WHITE},
	    {7, 3, PAIRING_BLACK},
	};
	struct pairing_game g[PAIRING_BOARDS_MAX];
	int repeats, k = pairing_swiss(8, past, 4, g, &repeats);

	CHECK_INT(k, 4);
	CHECK_BOARD(g, 0, 2, 0);
	CHECK_BOARD(g, 1, 1, 3);
	CHECK_BOARD(g, 2, 4, 6);
	CHECK_BOARD(g, 3, 7, 5);
}

/* Floaters: six players, round 1 0-3, 4-1, 2-5; 0 and 1 win, 2 and 5
 * draw. Groups: {0, 1} on 1, {2, 5} on 1/2, {3, 4} on 0. 0-1 meet
 * (1 had black: white). 2 and 5 have met: both float down, and in the
 * last group each floater meets the highest resident it may: 2-3, 5-4.
 * 2 had white: black; 5 had black: white. */
static void
test_dutch_floaters(void)
{
	struct pairing_game past[3] = {
	    {0, 3, PAIRING_WHITE},
	    {4, 1, PAIRING_BLACK},
	    {2, 5, PAIRING_DRAW},
	};
	struct pairing_game g[PAIRING_BOARDS_MAX];
	int repeats, k = pairing_swiss(6, past, 3, g, &repeats);

	CHECK_INT(k, 3);
	CHECK_INT(repeats, 0);
	CHECK_BOARD(g, 0, 1, 0);
	CHECK_BOARD(g, 1, 3, 2);
	CHECK_BOARD(g, 2, 5, 4);
}

/* Colours: 0 had white twice, so must have black, though it is ranked
 * first and its opponent 3 (black, then white) would like black too.
 * Scores after 0-2 (1-0), 1-3 (1-0), 0-1 (1/2), 3-2 (1/2): 0 and 1 on
 * 1.5 have met: both float to the group of 2 and 3: 0-3 (0-2 met),
 * 1-2, where 2, black twice, must have white. */
static void
test_dutch_colours(void)
{
	struct pairing_game past[4] = {
	    {0, 2, PAIRING_WHITE},
	    {1, 3, PAIRING_WHITE},
	    {0, 1, PAIRING_DRAW},
	    {3, 2, PAIRING_DRAW},
	};
	struct pairing_game g[PAIRING_BOARDS_MAX];
	int repeats, k = pairing_swiss(4, past, 4, g, &repeats);

	CHECK_INT(k, 2);
	CHECK_BOARD(g, 0, 3, 0);
	CHECK_BOARD(g, 1, 2, 1);
}

/* The bye goes to the lowest-ranked player who has had none: after 4's
 * bye and 0 and 1 winning (0-2, 3-1), the ranking is 0, 1, 4 (on 1),
 * 2, 3 (on 0): the bye to 3. The group on 1 pairs 0-1 and 4 floats down
 * to meet 2. 2 had black: white; 4 has no preference. */
static void
test_dutch_bye(void)
{
	struct pairing_game past[3] = {
	    {4, -1, PAIRING_WHITE},
	    {0, 2, PAIRING_WHITE},
	    {3, 1, PAIRING_BLACK},
	};
	struct pairing_game g[PAIRING_BOARDS_MAX];
	int repeats, k = pairing_swiss(5, past, 3, g, &repeats);

	CHECK_INT(k, 3);
	CHECK_BOARD(g, 0, 1, 0);
	CHECK_BOARD(g, 1, 2, 4);
	CHECK_BOARD(g, 2, 3, -1);
}

/* Two rounds of four: 0-1 and 2-3, then 0-2 and 1-3; the third round can
 * only be 0-3 and 1-2 although 0 and 1 (or 2 and 3) lead on score. */
static void
test_swiss_forced(void)
{
	struct pairing_game past[4] = {
	    {0, 1, PAIRING_DRAW},
	    {2, 3, PAIRING_DRAW},
	    {2, 0, PAIRING_DRAW},
	    {3, 1, PAIRING_DRAW},
	};
	struct pairing_game g[PAIRING_BOARDS_MAX];
	int repeats, k = pairing_swiss(4, past, 4, g, &repeats), i;

	CHECK_INT(k, 2);
	CHECK_INT(repeats, 0);
	for (i = 0; i < k; i++) {
		int a = g[i].white < g[i].black ? g[i].white : g[i].black;
		int b = g[i].white < g[i].black ? g[i].black : g[i].white;

		CHECK((a == 0 && b == 3) || (a == 1 && b == 2));
	}
	/* A fourth round cannot avoid repeats: one is made, and said. */
	{
		struct pairing_game all[6];

		memcpy(all, past, sizeof past);
		all[4] = g[0];
		all[5] = g[1];
		all[4].res = all[5].res = PAIRING_WHITE;
		k = pairing_swiss(4, all, 6, g, &repeats);
		CHECK_INT(k, 2);
		CHECK_INT(repeats, 1);
	}
}

/* Six players, all drawn so far (one score group, in seeding order),
 * after 0-4, 1-3, 2-5 and 3-0, 2-1, 5-4: S1 {0, 1, 2} against S2 {3, 4,
 * 5}: 0 has met 3 and 4, so 0-5; 1 has met 3: 1-4; then 2-3. */
static void
test_swiss_backtrack(void)
{
	struct pairing_game past[6] = {
	    {0, 4, PAIRING_DRAW},
	    {1, 3, PAIRING_DRAW},
	    {2, 5, PAIRING_DRAW},
	    {3, 0, PAIRING_DRAW},
	    {2, 1, PAIRING_DRAW},
	    {5, 4, PAIRING_DRAW},
	};
	struct pairing_game g[PAIRING_BOARDS_MAX];
	int repeats, k = pairing_swiss(6, past, 6, g, &repeats), i, seen = 0;

	CHECK_INT(k, 3);
	CHECK_INT(repeats, 0);
	for (i = 0; i < k; i++) {
		int a = g[i].white < g[i].black ? g[i].white : g[i].black;
		int b = g[i].white < g[i].black ? g[i].black : g[i].white;

		if ((a == 0 && b == 5) || (a == 1 && b == 4) ||
		    (a == 2 && b == 3))
			seen++;
	}
	CHECK_INT(seen, 3);
}

/* Colours: the player with more blacks gets white. */
static void
test_swiss_colours(void)
{
	struct pairing_game past[2] = {
	    {1, 0, PAIRING_BLACK}, /* 0 won with black */
	    {2, 3, PAIRING_WHITE}, /* 2 won with white */
	};
	struct pairing_game g[PAIRING_BOARDS_MAX];
	int repeats, k = pairing_swiss(4, past, 2, g, &repeats);

	CHECK_INT(k, 2);
	/* 0 and 2 lead: 0 had black, so 0 has white */
	CHECK_INT(g[0].white, 0);
	CHECK_INT(g[0].black, 2);
	CHECK_INT(g[1].white, 3);
	CHECK_INT(g[1].black, 1);
}

/*
 * By hand: A beats B, A draws C, D beats A, B beats C, B beats D, C beats
 * D. Scores: B 2, A 1.5, C 1.5, D 1.
 * Sonneborn-Berger: B: beat C (1.5) + beat D (1) = 2.5; A: beat B (2) +
 * draw C (1.5 / 2) = 2.75; C: draw A (0.75) + beat D (1) = 1.75; D: beat A
 * (1.5). So A places above C.
 * Buchholz: A: B 2 + C 1.5 + D 1 = 4.5; B: A 1.5 + C 1.5 + D 1 = 4;
 * C: A 1.5 + B 2 + D 1 = 4.5; D: 1.5 + 2 + 1.5 = 5.
 */
static void
test_standings(void)
{
	struct pairing_game g[6] = {
	    {0, 1, PAIRING_WHITE},
	    {2, 0, PAIRING_DRAW},
	    {3, 0, PAIRING_WHITE},
	    {1, 2, PAIRING_WHITE},
	    {3, 1, PAIRING_BLACK},
	    {2, 3, PAIRING_WHITE},
	};
	struct pairing_standing s[4];

	pairing_standings(4, g, 6, PAIRING_SONNEBORN_BERGER, s);
	CHECK_INT(s[0].player, 1);
	CHECK_INT(s[0].halves, 4);
	CHECK_INT(s[0].tb_quarters, 10);
	CHECK_INT(s[1].player, 0);
	CHECK_INT(s[1].halves, 3);
	CHECK_INT(s[1].tb_quarters, 11);
	CHECK_INT(s[1].wins, 1);
	CHECK_INT(s[1].draws, 1);
	CHECK_INT(s[1].losses, 1);
	CHECK_INT(s[2].player, 2);
	CHECK_INT(s[2].tb_quarters, 7);
	CHECK_INT(s[3].player, 3);
	CHECK_INT(s[3].halves, 2);
	CHECK_INT(s[3].tb_quarters, 6);

	pairing_standings(4, g, 6, PAIRING_BUCHHOLZ, s);
	CHECK_INT(s[0].player, 1);
	CHECK_INT(s[0].tb_quarters, 16);
	/* A and C tie on score and on Buchholz (4.5): the seeding decides */
	CHECK_INT(s[1].player, 0);
	CHECK_INT(s[1].tb_quarters, 18);
	CHECK_INT(s[2].player, 2);
	CHECK_INT(s[2].tb_quarters, 18);
	CHECK_INT(s[3].tb_quarters, 20);
}

/* A bye scores a win and adds nothing to the tie-break; a game neither
 * played (both absent) is a loss for both. */
static void
test_standings_bye(void)
{
	struct pairing_game g[3] = {
	    {0, 1, PAIRING_WHITE},
	    {2, -1, PAIRING_WHITE},
	    {3, 4, PAIRING_NEITHER},
	};
	struct pairing_standing s[5];

	pairing_standings(5, g, 3, PAIRING_BUCHHOLZ, s);
	CHECK_INT(s[0].player, 0); /* 1 point, Buchholz 0 (1 has 0) */
	CHECK_INT(s[0].halves, 2);
	CHECK_INT(s[1].player, 2);
	CHECK_INT(s[1].halves, 2);
	CHECK_INT(s[1].byes, 1);
	CHECK_INT(s[1].tb_quarters, 0);
	CHECK_INT(s[4].player, 4);
	CHECK_INT(s[4].halves, 0);
	CHECK_INT(s[4].losses, 1);
	CHECK_INT(s[3].losses, 1);
}

/*
 * The tie-breaks in order, by hand (Swiss: Buchholz, Sonneborn-Berger,
 * wins, seed). Games: 1 beats 2, 3 beats 1, 0 draws 4 and 5, 2 beats 6,
 * 4 beats 7. Scores: 4 1.5; 0, 1, 2, 3 1; 5 0.5; 6, 7, 8 0.
 * Buchholz: 0: 4 + 5 = 2; 1: 2 + 3 = 2; 2: 1 + 6 = 1; 3: 1 = 1.
 * Sonneborn-Berger: 0: 1.5 / 2 + 0.5 / 2 = 1; 1: 2's 1 = 1; 2: 6's 0;
 * 3: 1's 1. So 1 and 0 tie on both, and 1's one win puts it above 0
 * (the seeding would not); 3 is above 2 on Sonneborn-Berger; 0 above 3
 * on Buchholz.
 */
static void
test_standings_order(void)
{
	struct pairing_game g[6] = {
	    {1, 2, PAIRING_WHITE},
	    {3, 1, PAIRING_WHITE},
	    {0, 4, PAIRING_DRAW},
	    {5, 0, PAIRING_DRAW},
	    {2, 6, PAIRING_WHITE},
	    {4, 7, PAIRING_WHITE},
	};
	struct pairing_standing s[9];

	pairing_standings(9, g, 6, PAIRING_BUCHHOLZ, s);
	CHECK_INT(s[0].player, 4);
	CHECK_INT(s[0].above_next, PAIRING_BY_POINTS);
	CHECK_INT(s[1].player, 1);
	CHECK_INT(s[1].bh_quarters, 8);
	CHECK_INT(s[1].sb_quarters, 4);
	CHECK_INT(s[1].above_next, PAIRING_BY_WINS);
	CHECK_INT(s[2].player, 0);
	CHECK_INT(s[2].bh_quarters, 8);
	CHECK_INT(s[2].sb_quarters, 4);
	CHECK_INT(s[2].above_next, PAIRING_BY_BUCHHOLZ);
	CHECK_INT(s[3].player, 3);
	CHECK_INT(s[3].above_next, PAIRING_BY_SB);
	CHECK_INT(s[4].player, 2);
	CHECK_INT(s[4].above_next, PAIRING_BY_POINTS);
	CHECK_INT(s[8].above_next, PAIRING_BY_LAST);
	CHECK_STR(pairing_crit_name(PAIRING_BY_SB), "Sonneborn-Berger");
}

int
main(void)
{
	int n;

	for (n = 2; n <= 12; n++)
		test_round_robin(n);
	test_round_robin(PAIRING_PLAYERS_MAX);
	test_round_robin(PAIRING_PLAYERS_MAX - 1);
	test_swiss_first();
	test_swiss_forced();
	test_swiss_backtrack();
	test_swiss_colours();
	test_dutch_round1();
	test_dutch_round2();
	test_dutch_floaters();
	test_dutch_colours();
	test_dutch_bye();
	for (n = 0; n < 50; n++) {
		test_swiss(8, 4);
		test_swiss(7, 3);
		test_swiss(12, 6);
		test_swiss(PAIRING_PLAYERS_MAX, 7);
	}
	test_standings();
	test_standings_bye();
	test_standings_order();
	return check_done();
}
