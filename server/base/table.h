/*
 * table.h: one hash table for tablerod's indexes by string key (rooms by
 * id, players by name, abuse accounting by address or name). Items embed a
 * struct table_link; the table chains the links, grows as items are added
 * and hashes keys with SipHash (libsodium's crypto_shorthash) under a
 * random key drawn per table, so nobody outside can choose keys that share
 * a chain. A zeroed struct table is an empty table.
 */
#ifndef TABLERO_SERVER_TABLE_H
#define TABLERO_SERVER_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include <sodium.h>

/* The link an item embeds; its key must stay put while it is linked. */
struct table_link {
	struct table_link *next;
	const char *key;
	uint64_t hash;
};

struct table {
	struct table_link **chains;
	size_t nchains;  /* a power of two; 0 until the first add */
	size_t first;    /* chains at first (0: TABLE_FIRST_CHAINS) */
	size_t n;        /* items */
	size_t swept;    /* the chain table_sweep visits next */
	uint64_t probes; /* keys compared by table_find, for tests */
	unsigned char key[crypto_shorthash_KEYBYTES];
};

/* Called with each item a walk visits; it may unlink and free that item
 * (and no other). */
typedef void (*table_fn)(struct table_link *l, void *arg);

/* The item (of type `type`, whose link is `member`) of link l. */
#define TABLE_ITEM(l, type, member)                                            \
	((type *)(void *)((char *)(l)-offsetof(type, member)))

void table_init(struct table *t, size_t first);
struct table_link *table_find(struct table *t, const char *key);
void table_add(struct table *t, struct table_link *l, const char *key);
void table_del(struct table *t, struct table_link *l);
void table_walk(struct table *t, table_fn fn, void *arg);
void table_sweep(struct table *t, size_t chains, table_fn fn, void *arg);
size_t table_longest(const struct table *t);
void table_free(struct table *t);

#endif
