/*
 * perft.c: count the leaves of a game's move tree to a depth, the proof that
 * move generation is exact. Usage:
 *   perft [-g] [-t] [-o key=value]... GAME DEPTH [POSITION]
 * The last line printed is the leaf count; -t adds a line on stderr with the
 * time taken and the leaves per second; -g uses the generic perft over the
 * rules interface (the baseline the benchmarks compare a game's own perft
 * with).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rules/rules.h"

/* Options given with -o. */
#define PERFT_MAX_OPTS 16

static void
perft_usage(void)
{
	int i;

	fprintf(stderr,
	    "usage: perft [-g] [-t] [-o key=value]... GAME DEPTH [POSITION]\n"
	    "games:");
	for (i = 0; rules_games[i] != NULL; i++)
		fprintf(stderr, " %s", rules_games[i]->name);
	fprintf(stderr, "\n");
	exit(2);
}

static double
perft_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	struct rules_opt opts[PERFT_MAX_OPTS];
	char err[RULES_ERR_MAX];
	const struct rules_game *g;
	int nopts = 0, timing = 0, generic = 0, c, depth;
	void *st;
	double t0, t;
	uint64_t n;

	while ((c = getopt(argc, argv, "gto:")) != -1) {
		char *eq;

		switch (c) {
		case 'g':
			generic = 1;
			break;
		case 't':
			timing = 1;
			break;
		case 'o':
			eq = strchr(optarg, '=');
			if (eq == NULL || nopts == PERFT_MAX_OPTS)
				perft_usage();
			*eq = '\0';
			opts[nopts].key = optarg;
			opts[nopts].value = eq + 1;
			nopts++;
			break;
		default:
			perft_usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc < 2 || argc > 3)
		perft_usage();
	g = rules_find(argv[0]);
	if (g == NULL) {
		fprintf(stderr, "perft: no game '%s'\n", argv[0]);
		perft_usage();
	}
	depth = atoi(argv[1]);
	if (depth < 0) {
		fprintf(stderr, "perft: depth must be 0 or more\n");
		return 2;
	}
	st = calloc(1, g->state_size);
	if (st == NULL)
		return 1;
	if (rules_opts_check(g, opts, nopts, err, sizeof err) != 0 ||
	    g->init(st, opts, nopts, err, sizeof err) != 0) {
		fprintf(stderr, "perft: %s\n", err);
		return 1;
	}
	if (argc == 3 && g->from_position(st, argv[2], err, sizeof err) != 0) {
		fprintf(stderr, "perft: bad position: %s\n", err);
		return 1;
	}
	t0 = perft_now();
	n = generic ? rules_perft_generic(g, st, depth)
	            : rules_perft(g, st, depth);
	t = perft_now() - t0;
	if (timing)
		fprintf(stderr,
		    "%s depth %d: %" PRIu64
		    " leaves in %.3f s, %.0f leaves/s\n",
		    g->name, depth, n, t, t > 0 ? (double)n / t : 0.0);
	printf("%" PRIu64 "\n", n);
	free(st);
	return 0;
}
