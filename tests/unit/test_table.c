/*
 * test_table.c: the server's one hash table (server/table.c): items found,
 * unlinked and walked; the table grows; a sweep covers it in parts; and
 * names chosen to share one chain of the old tables (djb2 into 4,096
 * chains, for players and for the abuse accounting) are spread out, so a
 * lookup compares about as many keys with 4,000 such names as with 500.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/core/core.h"
#include "server/net/limit.h"
#include "tests/unit/check.h"

/* Chains of the old player and abuse tables. */
#define TEST_OLD_CHAINS 4096
/* Most names the collision test makes. */
#define TEST_NAMES_MAX 4000
/* Characters of each generated name (one length: see test_djb2). */
#define TEST_NAME_LEN 9

struct item {
	struct table_link link;
	char key[SERVER_NAME_MAX + 1];
	int seen;
};

/* The old tables' hash: djb2 from h (the player table folded case
 * first; the names here are lower case). */
static unsigned
test_djb2(const char *key, unsigned h)
{
	for (; *key != '\0'; key++)
		h = h * 33 + (unsigned char)*key;
	return h;
}

static struct item *
test_item(struct table_link *l)
{
	return l == NULL ? NULL : TABLE_ITEM(l, struct item, link);
}

static void
test_mark(struct table_link *l, void *arg)
{
	int *count = arg;

	test_item(l)->seen++;
	(*count)++;
}

/* Unlink and free every item whose key ends in an odd digit. */
static void
test_drop_odd(struct table_link *l, void *arg)
{
	struct table *t = arg;
	struct item *it = test_item(l);

	if ((it->key[strlen(it->key) - 1] - '0') % 2 == 0)
		return;
	table_del(t, l);
	free(it);
}

static void
test_free_item(struct table_link *l, void *arg)
{
	free(test_item(l));
}

/* Add, find, unlink; grow past the first chains; walk and sweep. */
static void
test_basics(void)
{
	static struct table t; /* zeroed: an empty table */
	struct item *items[1000];
	int i, count = 0;

	CHECK(table_find(&t, "x") == NULL);
	for (i = 0; i < 1000; i++) {
		items[i] = calloc(1, sizeof *items[i]);
		snprintf(items[i]->key, sizeof items[i]->key, "k%d", i);
		table_add(&t, &items[i]->link, items[i]->key);
	}
	CHECK_INT(t.n, 1000);
	CHECK(t.nchains >= 1000); /* grew from 16 */
	for (i = 0; i < 1000; i++) {
		char key[16];

		snprintf(key, sizeof key, "k%d", i);
		CHECK(test_item(table_find(&t, key)) == items[i]);
	}
	CHECK(table_find(&t, "k1000") == NULL);
	CHECK(table_find(&t, "") == NULL);
	table_walk(&t, test_mark, &count);
	CHECK_INT(count, 1000);
	for (i = 0; i < 1000; i++)
		CHECK_INT(items[i]->seen, 1);
	/* A sweep of a quarter of the chains four times is one pass. */
	count = 0;
	for (i = 0; i < 4; i++)
		table_sweep(&t, t.nchains / 4, test_mark, &count);
	CHECK_INT(count, 1000);
	for (i = 0; i < 1000; i++)
		CHECK_INT(items[i]->seen, 2);
	/* A walk may free the item it is given. */
	table_walk(&t, test_drop_odd, &t);
	CHECK_INT(t.n, 500);
	CHECK(test_item(table_find(&t, "k998")) == items[998]);
	CHECK(table_find(&t, "k999") == NULL);
	table_del(&t, &items[998]->link);
	CHECK(table_find(&t, "k998") == NULL);
	CHECK_INT(t.n, 499);
	free(items[998]);
	table_walk(&t, test_free_item, NULL);
	table_free(&t);
	CHECK_INT(t.n, 0);
	CHECK(table_find(&t, "k0") == NULL);
}

/* Two tables hash the same key differently: each draws its own key. */
static void
test_keys_differ(void)
{
	struct table a, b;

	table_init(&a, 0);
	table_init(&b, 0);
	table_add(&a, &(struct item){0}.link, "x"); /* draws a's key */
	table_add(&b, &(struct item){0}.link, "x");
	CHECK(memcmp(a.key, b.key, sizeof a.key) != 0);
	table_free(&a);
	table_free(&b);
}

/*
 * Fill names[] with n names of TEST_NAME_LEN lower-case letters and digits
 * that all fall in one chain of the old tables: djb2 from 5381 modulo
 * 4,096. Names of one length that collide from one start collide from any
 * (h0 * 33^len is the same for all), so "n:" + name collides in the old
 * abuse table too.
 */
static void
test_colliding_names(char (*names)[SERVER_NAME_MAX + 1], int n)
{
	static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	unsigned long i;
	int found = 0;

	for (i = 0; found < n; i++) {
		char name[TEST_NAME_LEN + 1];
		unsigned long v = i;
		int k;

		name[0] = 'c';
		for (k = 1; k < TEST_NAME_LEN; k++, v /= 36)
			name[k] = digits[v % 36];
		name[TEST_NAME_LEN] = '\0';
		if (test_djb2(name, 5381) % TEST_OLD_CHAINS == 0)
			memcpy(names[found++], name, sizeof name);
	}
}

/* Keys compared per lookup of the first n names as players of srv. */
static double
test_probes(char (*names)[SERVER_NAME_MAX + 1], int n)
{
	static struct server srv;
	uint64_t before;
	double per;
	int i;

	TAILQ_INIT(&srv.rooms);
	for (i = 0; i < n; i++)
		player_get(&srv, names[i]);
	CHECK_INT(srv.players.n, n);
	CHECK(table_longest(&srv.players) <= 12);
	before = srv.players.probes;
	for (i = 0; i < n; i++)
		CHECK(player_find(&srv, names[i]) != NULL &&
		    strcmp(player_find(&srv, names[i])->name, names[i]) == 0);
	/* each name was looked up twice above */
	per = (double)(srv.players.probes - before) / (2.0 * n);
	player_free_all(&srv);
	return per;
}

/* Names that shared one chain of the old tables: lookups stay flat. */
static void
test_djb2_collisions(void)
{
	static char names[TEST_NAMES_MAX][SERVER_NAME_MAX + 1];
	static struct server srv;
	double small, big;
	int i;

	test_colliding_names(names, TEST_NAMES_MAX);
	for (i = 1; i < TEST_NAMES_MAX; i++) {
		char a[SERVER_LIMIT_KEY], b[SERVER_LIMIT_KEY];

		/* one old chain for all: the player table's ... */
		CHECK_INT(test_djb2(names[i], 5381) % TEST_OLD_CHAINS,
		    test_djb2(names[0], 5381) % TEST_OLD_CHAINS);
		/* ... and the abuse table's, keyed "n:" + name */
		snprintf(a, sizeof a, "n:%s", names[i]);
		snprintf(b, sizeof b, "n:%s", names[0]);
		CHECK_INT(test_djb2(a, 5381) % TEST_OLD_CHAINS,
		    test_djb2(b, 5381) % TEST_OLD_CHAINS);
		CHECK(player_name_valid(names[i]));
	}
	/* The old tables compared up to 500 and 4,000 keys per lookup;
	 * this one about one or two, the same at both sizes. */
	small = test_probes(names, 500);
	big = test_probes(names, TEST_NAMES_MAX);
	printf("keys compared per lookup: %.2f of 500 names, %.2f of %d\n",
	    small, big, TEST_NAMES_MAX);
	CHECK(small >= 1.0 && small < 2.0);
	CHECK(big >= 1.0 && big < 2.0);
	/* The abuse table, through limit_name. */
	TAILQ_INIT(&srv.rooms);
	for (i = 0; i < TEST_NAMES_MAX; i++)
		CHECK(limit_name(&srv, names[i]) != NULL);
	CHECK_INT(srv.limits.n, TEST_NAMES_MAX);
	CHECK(table_longest(&srv.limits) <= 12);
	limit_free_all(&srv);
}

int
main(void)
{
	test_basics();
	test_keys_differ();
	test_djb2_collisions();
	return check_done();
}
