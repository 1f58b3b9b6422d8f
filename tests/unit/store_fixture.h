/*
 * store_fixture.h: what the store tests (test_store.c on SQLite,
 * test_pgstore.c on PostgreSQL) build and read alike: a rating put, and a
 * ratings read's last row.
 */
#ifndef TABLERO_STORE_FIXTURE_H
#define TABLERO_STORE_FIXTURE_H

#include "server/store/store.h"

/* A rating put in the "ataxx" pool: name's values after the game key
 * ended at ms (wins counted up from before_wins, the rating from before). */
struct store_op *store_fixture_rating(const char *name, const char *key,
    long long ms, double before, double after, int before_wins);

/* What a ratings read found: the last row's rating and wins, and the
 * rows. */
struct store_fixture_rated {
	double rating;
	int wins, n;
};

/* The ratings read's callback filling a struct store_fixture_rated. */
void store_fixture_rated_cb(void *arg, const struct store_rating *r);

#endif
