/*
 * slots.c: an unordered set of pointers in one array, each member keeping
 * its own index (its slot) so that it leaves in constant time: the last
 * member moves into the slot it frees. The loop's list of connections
 * with held output (store/held.c) is such a set.
 */
#include <stdlib.h>

#include "server/base/base.h"

/* Members a set first makes room for; it doubles from there. */
#define SLOTS_FIRST 64

/* Add p; its slot. */
int
slots_add(struct slots *s, void *p)
{
	s->v = xgrow(s->v, s->n, &s->cap, SLOTS_FIRST, sizeof *s->v);
	s->v[s->n] = p;
	return s->n++;
}

/* Empty the slot `slot`: the member moved into it (its slot is now
 * `slot`), or NULL when the slot was the last. */
void *
slots_del(struct slots *s, int slot)
{
	void *last = s->v[--s->n];

	if (slot == s->n)
		return NULL;
	s->v[slot] = last;
	return last;
}

void
slots_free(struct slots *s)
{
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}
