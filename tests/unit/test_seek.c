/*
 * test_seek.c: the seek pool alone (server/seek.c): options compared
 * whatever their order, what makes two seeks compatible (players, game,
 * options, clock, rated, ranges both ways, a seeker away), range=LO-HI
 * parsing, a player's seeks counted and removed, ids, and seeks of a
 * player away past the grace expiring while those back in time stay.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "server/club/seek.h"
#include "tests/unit/check.h"

/* A seek by name for game g with options given as "k", "v", ..., NULL. */
static struct seek *
test_seek(const char *name, const struct rules_game *g, ...)
{
	cJSON *o = cJSON_CreateObject();
	struct seek *s;
	const char *k, *v;
	va_list ap;

	va_start(ap, g);
	while ((k = va_arg(ap, const char *)) != NULL) {
		v = va_arg(ap, const char *);
		cJSON_AddStringToObject(o, k, v);
	}
	va_end(ap);
	s = seek_new(g, o);
	strcpy(s->name, name);
	return s;
}

static void
test_compatible(void)
{
	const struct rules_game *ataxx = rules_find("ataxx");
	const struct rules_game *amazons = rules_find("amazons");
	struct seek *a = test_seek("ana", ataxx, "size", "7", "x", "1", NULL);
	struct seek *b = test_seek("bob", ataxx, "x", "1", "size", "7", NULL);
	struct seek *c;

	CHECK_STR(a->key, b->key);
	CHECK(seek_compatible(a, b) && seek_compatible(b, a));
	strcpy(b->name, "ana");
	CHECK(!seek_compatible(a, b)); /* one player's own two seeks */
	strcpy(b->name, "bob");
	c = test_seek("cid", amazons, "size", "7", "x", "1", NULL);
	CHECK(!seek_compatible(a, c));
	seek_free(c);
	c = test_seek("cid", ataxx, "size", "5", "x", "1", NULL);
	CHECK(!seek_compatible(a, c));
	seek_free(c);
	b->clock_initial_ms = 60000;
	CHECK(!seek_compatible(a, b));
	a->clock_initial_ms = 60000;
	a->clock_inc_ms = 1000;
	CHECK(!seek_compatible(a, b));
	b->clock_inc_ms = 1000;
	CHECK(seek_compatible(a, b));
	a->rated = 1;
	CHECK(!seek_compatible(a, b));
	b->rated = 1;
	CHECK(seek_compatible(a, b));
	/* ranges, each way */
	b->rating = 1700;
	a->range_lo = 1300;
	a->range_hi = 1699;
	CHECK(!seek_compatible(a, b) && !seek_compatible(b, a));
	a->range_hi = 1700;
	CHECK(seek_compatible(a, b));
	b->range_lo = 1600;
	b->range_hi = 2000;
	CHECK(!seek_compatible(a, b)); /* ana's 1500 is out of bob's */
	a->rating = 1600;
	CHECK(seek_compatible(a, b) && seek_compatible(b, a));
	b->gone_ms = 5;
	CHECK(!seek_compatible(a, b));
	seek_free(a);
	seek_free(b);
}

static void
test_range(void)
{
	int lo = -1, hi = -1;

	CHECK_INT(seek_parse_range("1300-1700", &lo, &hi), 0);
	CHECK_INT(lo, 1300);
	CHECK_INT(hi, 1700);
	CHECK_INT(seek_parse_range("0-5000", &lo, &hi), 0);
	CHECK_INT(seek_parse_range("1500-1500", &lo, &hi), 0);
	CHECK_INT(seek_parse_range("1700-1300", &lo, &hi), -1);
	CHECK_INT(seek_parse_range("0-5001", &lo, &hi), -1);
	CHECK_INT(seek_parse_range("-5-10", &lo, &hi), -1);
	CHECK_INT(seek_parse_range("1500", &lo, &hi), -1);
	CHECK_INT(seek_parse_range("1500-", &lo, &hi), -1);
	CHECK_INT(seek_parse_range("15a0-1600", &lo, &hi), -1);
	CHECK_INT(seek_parse_range("1500-1600 ", &lo, &hi), -1);
	CHECK_INT(seek_parse_range("", &lo, &hi), -1);
}

static void
test_pool(void)
{
	const struct rules_game *g = rules_find("stones");
	struct seek_pool *pool = seek_pool_new();
	struct seek *a = test_seek("ana", g, NULL), *a2, *b;

	seek_add(pool, a);
	a2 = test_seek("ana", g, "first", "2", NULL);
	seek_add(pool, a2);
	b = test_seek("bob", g, NULL);
	seek_add(pool, b);
	CHECK_STR(a->id, "s1");
	CHECK_STR(b->id, "s3");
	CHECK(seek_find(pool, "s2") == a2);
	CHECK(seek_find(pool, "s9") == NULL);
	CHECK_INT(seek_count_of(pool, "ana"), 2);
	CHECK_INT(pool->n, 3);
	{
		struct seek *same = test_seek("ana", g, NULL);

		CHECK(seek_find_same(pool, same) == a);
		same->rated = 1;
		CHECK(seek_find_same(pool, same) == NULL);
		seek_free(same);
	}
	/* ana away at 1000, back at once; bob away at 2000 for good */
	seek_player_gone(pool, "ana", 1000);
	CHECK(a->gone_ms == 1000 && a2->gone_ms == 1000 && b->gone_ms == 0);
	seek_player_back(pool, "ana");
	CHECK(a->gone_ms == 0);
	seek_player_gone(pool, "bob", 2000);
	CHECK_INT(seek_expire(pool, 2000 + 59999, 60000), 0);
	CHECK_INT(seek_expire(pool, 2000 + 60000, 60000), 1);
	CHECK(seek_find(pool, "s3") == NULL);
	CHECK_INT(seek_remove_player(pool, "ana"), 2);
	CHECK_INT(pool->n, 0);
	b = test_seek("bob", g, NULL);
	seek_add(pool, b);
	CHECK_STR(b->id, "s4"); /* ids are never given twice */
	seek_pool_free(pool);
}

int
main(void)
{
	test_compatible();
	test_range();
	test_pool();
	return check_done();
}
