/*
 * store_fixture.c: the store tests' shared fixtures (store_fixture.h).
 */
#include "tests/unit/store_fixture.h"

struct store_op *
store_fixture_rating(const char *name, const char *key, long long ms,
    double before, double after, int before_wins)
{
	struct store_op *op = store_op_new(STORE_OP_RATING_PUT);
	struct store_rating *r = &op->u.rating;

	r->name = store_op_str(op, name);
	r->pool = store_op_str(op, "ataxx");
	r->game = store_op_str(op, key);
	r->rating = after;
	r->rd = 200;
	r->vol = 0.06;
	r->wins = before_wins + 1;
	r->updated_ms = ms;
	r->before_rating = before;
	r->before_wins = before_wins;
	return op;
}

void
store_fixture_rated_cb(void *arg, const struct store_rating *r)
{
	struct store_fixture_rated *out = arg;

	out->rating = r->rating;
	out->wins = r->wins;
	out->n++;
}
