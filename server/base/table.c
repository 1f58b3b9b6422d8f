/*
 * table.c: the hash table behind tablerod's indexes (table.h): chains of
 * intrusive links, doubled when there are more items than chains, keys
 * hashed with SipHash-2-4 under a random key of the table's own.
 */
#include <stdlib.h>
#include <string.h>

#include "server/base/base.h"
#include "server/base/table.h"

/* Chains a table starts with when its owner names no other number: small,
 * since most tables in tests hold a handful of items. */
#define TABLE_FIRST_CHAINS 16

/* Make an empty table that starts with `first` chains (rounded up to a
 * power of two); not needed for a zeroed table. */
void
table_init(struct table *t, size_t first)
{
	memset(t, 0, sizeof *t);
	t->first = first;
}

/* SipHash of a key under the table's key. */
static uint64_t
table_hash(const struct table *t, const char *key)
{
	unsigned char out[crypto_shorthash_BYTES];
	uint64_t h;

	crypto_shorthash(out, (const unsigned char *)key, strlen(key), t->key);
	memcpy(&h, out, sizeof h);
	return h;
}

/* Chains first made: a random key, then the power of two at or above
 * t->first. */
static void
table_make(struct table *t)
{
	size_t n = 1, want = t->first > 0 ? t->first : TABLE_FIRST_CHAINS;

	if (sodium_init() < 0)
		fatal("libsodium cannot start");
	crypto_shorthash_keygen(t->key);
	while (n < want)
		n *= 2;
	t->chains = xcalloc(n, sizeof *t->chains);
	t->nchains = n;
}

/* Double the chains: each link moves by the hash it keeps. */
static void
table_grow(struct table *t)
{
	size_t n = t->nchains * 2, i;
	struct table_link **chains = xcalloc(n, sizeof *chains), *l, *next;

	for (i = 0; i < t->nchains; i++) {
		for (l = t->chains[i]; l != NULL; l = next) {
			next = l->next;
			l->next = chains[l->hash & (n - 1)];
			chains[l->hash & (n - 1)] = l;
		}
	}
	free(t->chains);
	t->chains = chains;
	t->nchains = n;
}

/* The link whose key is `key`, or NULL. */
struct table_link *
table_find(struct table *t, const char *key)
{
	struct table_link *l;
	uint64_t h;

	if (t->n == 0)
		return NULL;
	h = table_hash(t, key);
	for (l = t->chains[h & (t->nchains - 1)]; l != NULL; l = l->next) {
		t->probes++;
		if (l->hash == h && strcmp(l->key, key) == 0)
			return l;
	}
	return NULL;
}

/* Link an item under key (which the item holds; no item has it yet). */
void
table_add(struct table *t, struct table_link *l, const char *key)
{
	size_t b;

	if (t->nchains == 0)
		table_make(t);
	else if (t->n >= t->nchains)
		table_grow(t);
	l->key = key;
	l->hash = table_hash(t, key);
	b = l->hash & (t->nchains - 1);
	l->next = t->chains[b];
	t->chains[b] = l;
	t->n++;
}

/* Unlink an item that is in the table. */
void
table_del(struct table *t, struct table_link *l)
{
	struct table_link **pp;

	if (t->nchains == 0)
		return;
	for (pp = &t->chains[l->hash & (t->nchains - 1)]; *pp != NULL;
	     pp = &(*pp)->next) {
		if (*pp == l) {
			*pp = l->next;
			l->next = NULL;
			t->n--;
			return;
		}
	}
}

/* Call fn on each item of chain i (fn may unlink the item it is given). */
static void
table_chain(struct table *t, size_t i, table_fn fn, void *arg)
{
	struct table_link *l, *next;

	for (l = t->chains[i]; l != NULL; l = next) {
		next = l->next;
		fn(l, arg);
	}
}

/* Call fn on every item, in no order. */
void
table_walk(struct table *t, table_fn fn, void *arg)
{
	size_t i;

	for (i = 0; i < t->nchains; i++)
		table_chain(t, i, fn, arg);
}

/* Call fn on the items of `chains` chains from where the last sweep
 * stopped, so a pass over a big table is spread over many calls (an item
 * a grow moves behind the sweep waits for the next pass at most). */
void
table_sweep(struct table *t, size_t chains, table_fn fn, void *arg)
{
	size_t k;

	for (k = 0; k < chains && t->nchains > 0; k++) {
		if (t->swept >= t->nchains)
			t->swept = 0;
		table_chain(t, t->swept++, fn, arg);
	}
}

/* The longest chain's length: how many keys a lookup compares at most. */
size_t
table_longest(const struct table *t)
{
	size_t i, most = 0;

	for (i = 0; i < t->nchains; i++) {
		const struct table_link *l;
		size_t len = 0;

		for (l = t->chains[i]; l != NULL; l = l->next)
			len++;
		if (len > most)
			most = len;
	}
	return most;
}

/* Free the chains (not the items); the table is empty again. */
void
table_free(struct table *t)
{
	size_t first = t->first;

	free(t->chains);
	table_init(t, first);
}
