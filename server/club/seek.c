/*
 * seek.c: the seek pool in memory: add, find, compare and remove seeks,
 * oldest first, each player's by name. What a seek is and how it is
 * stored: seek.h. The verbs and the pairing are in cmd_seek.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/club/seek.h"

struct seek_pool *
seek_pool_new(void)
{
	struct seek_pool *pool = xcalloc(1, sizeof *pool);

	TAILQ_INIT(&pool->list);
	return pool;
}

void
seek_pool_free(struct seek_pool *pool)
{
	struct seek *s;

	if (pool == NULL)
		return;
	while ((s = TAILQ_FIRST(&pool->list)) != NULL)
		seek_remove(pool, s);
	free(pool);
}

/* Compare two options by key (qsort). */
static int
seek_cmp_key(const void *a, const void *b)
{
	const cJSON *x = *(const cJSON *const *)a,
	            *y = *(const cJSON *const *)b;

	return strcmp(x->string, y->string);
}

/* The options sorted by key, as one "key=value\n..." string: two seeks
 * with the same string ask for the same game. */
static char *
seek_key(cJSON *options)
{
	cJSON *items[PROTO_MAX_OPTIONS * 2], *it;
	size_t len = 1, off = 0;
	int n = 0, i;
	char *key;

	cJSON_ArrayForEach(it, options) {
		if (n == (int)(sizeof items / sizeof items[0]))
			break;
		items[n++] = it;
		len += strlen(it->string) + strlen(it->valuestring) + 2;
	}
	qsort(items, (size_t)n, sizeof items[0], seek_cmp_key);
	/* the object itself in the same order, so lists read the same */
	for (i = 0; i < n; i++)
		cJSON_DetachItemViaPointer(options, items[i]);
	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(options, items[i]);
	key = xmalloc(len);
	for (i = 0; i < n; i++)
		off += (size_t)snprintf(key + off, len - off, "%s=%s\n",
		    items[i]->string, items[i]->valuestring);
	key[off] = '\0';
	return key;
}

/* A seek for game g with its options (an object of strings, taken over,
 * defaults already filled in): no id yet, no clock, casual, any range. */
struct seek *
seek_new(const struct rules_game *g, cJSON *options)
{
	struct seek *s = xcalloc(1, sizeof *s);

	s->g = g;
	s->options = options;
	s->key = seek_key(options);
	s->range_lo = s->range_hi = -1;
	s->rating = SEEK_RATING_DEFAULT;
	return s;
}

void
seek_free(struct seek *s)
{
	if (s == NULL)
		return;
	cJSON_Delete(s->options);
	free(s->key);
	free(s);
}

/* Put the seek in the pool (newest last) with a fresh id. */
void
seek_add(struct seek_pool *pool, struct seek *s)
{
	snprintf(
	    s->id, sizeof s->id, "s%llu", (unsigned long long)++pool->next_id);
	TAILQ_INSERT_TAIL(&pool->list, s, entry);
	pool->n++;
}

/* Put a seek back from the store (its id set) in the pool, newest last;
 * the next fresh id comes after it, so ids stay unique across a restart. */
void
seek_add_stored(struct seek_pool *pool, struct seek *s)
{
	unsigned long long n;

	if (sscanf(s->id, "s%llu", &n) == 1 && n > pool->next_id)
		pool->next_id = n;
	TAILQ_INSERT_TAIL(&pool->list, s, entry);
	pool->n++;
}

/* The seek ends: whoever keeps its row is told, then it leaves the pool. */
void
seek_end(struct seek_pool *pool, struct seek *s)
{
	if (pool->ended != NULL)
		pool->ended(pool->arg, s);
	seek_remove(pool, s);
}

/* Take the seek out of the pool and free it (its row, if any, stays:
 * seek_end ends a seek). */
void
seek_remove(struct seek_pool *pool, struct seek *s)
{
	TAILQ_REMOVE(&pool->list, s, entry);
	pool->n--;
	seek_free(s);
}

/* Remove every seek of the player; how many there were. */
int
seek_remove_player(struct seek_pool *pool, const char *name)
{
	struct seek *s, *next;
	int n = 0;

	for (s = TAILQ_FIRST(&pool->list); s != NULL; s = next) {
		next = TAILQ_NEXT(s, entry);
		if (strcmp(s->name, name) == 0) {
			seek_end(pool, s);
			n++;
		}
	}
	return n;
}

int
seek_count_of(const struct seek_pool *pool, const char *name)
{
	const struct seek *s;
	int n = 0;

	TAILQ_FOREACH(s, &pool->list, entry)
		n += strcmp(s->name, name) == 0;
	return n;
}

struct seek *
seek_find(const struct seek_pool *pool, const char *id)
{
	struct seek *s;

	TAILQ_FOREACH(s, &pool->list, entry)
		if (strcmp(s->id, id) == 0)
			return s;
	return NULL;
}

/* Does a seek ask for the same game as another: game, options, clock,
 * rated or casual? */
static int
seek_same_game(const struct seek *a, const struct seek *b)
{
	return a->g == b->g && strcmp(a->key, b->key) == 0 &&
	    a->clock_initial_ms == b->clock_initial_ms &&
	    a->clock_inc_ms == b->clock_inc_ms && a->rated == b->rated;
}

/* The same player's open seek for the same game and range, or NULL. */
struct seek *
seek_find_same(const struct seek_pool *pool, const struct seek *s)
{
	struct seek *o;

	TAILQ_FOREACH(o, &pool->list, entry)
		if (strcmp(o->name, s->name) == 0 && seek_same_game(o, s) &&
		    o->range_lo == s->range_lo && o->range_hi == s->range_hi)
			return o;
	return NULL;
}

/* Is the rating inside the seek's range (any, when it has none)? */
static int
seek_in_range(const struct seek *s, int rating)
{
	return s->range_lo < 0 ||
	    (rating >= s->range_lo && rating <= s->range_hi);
}

/* Can two seeks make a game: two players, both connected, the same game,
 * options, clock and rated or casual, each inside the other's range? */
int
seek_compatible(const struct seek *a, const struct seek *b)
{
	return strcmp(a->name, b->name) != 0 && a->gone_ms == 0 &&
	    b->gone_ms == 0 && seek_same_game(a, b) &&
	    seek_in_range(a, b->rating) && seek_in_range(b, a->rating);
}

/* The oldest seek of the pool compatible with s whose player ready()
 * says can play now, or NULL. */
struct seek *
seek_match(const struct seek_pool *pool, const struct seek *s,
    int (*ready)(void *arg, const struct seek *o), void *arg)
{
	struct seek *o;

	TAILQ_FOREACH(o, &pool->list, entry)
		if (seek_compatible(o, s) && ready(arg, o))
			return o;
	return NULL;
}

/* The player's next seek after prev (NULL: the first), oldest first. */
struct seek *
seek_next_of(
    const struct seek_pool *pool, const char *name, const struct seek *prev)
{
	struct seek *s =
	    prev != NULL ? TAILQ_NEXT(prev, entry) : TAILQ_FIRST(&pool->list);

	for (; s != NULL; s = TAILQ_NEXT(s, entry))
		if (strcmp(s->name, name) == 0)
			return s;
	return NULL;
}

/* The open seeks (of game g, or all when NULL), newest first, at most max
 * of them into the array list, leaving out those whose player is away;
 * 1 when more were left out, else 0. */
int
seek_list_json(const struct seek_pool *pool, const struct rules_game *g,
    int max, cJSON *list)
{
	const struct seek *s;
	int n = 0;

	TAILQ_FOREACH_REVERSE(s, &pool->list, seek_list, entry)
	{
		if (s->gone_ms != 0 || (g != NULL && s->g != g))
			continue;
		if (n == max)
			return 1;
		cJSON_AddItemToArray(list, seek_json(s));
		n++;
	}
	return 0;
}

/* Withdraw the player's seek with this id (all of theirs when id is
 * NULL): each id withdrawn into the array gone, each seek of theirs left
 * into the array left. */
void
seek_withdraw(struct seek_pool *pool, const char *name, const char *id,
    cJSON *gone, cJSON *left)
{
	struct seek *s, *next;

	for (s = TAILQ_FIRST(&pool->list); s != NULL; s = next) {
		next = TAILQ_NEXT(s, entry);
		if (strcmp(s->name, name) != 0)
			continue;
		if (id == NULL || strcmp(s->id, id) == 0) {
			cJSON_AddItemToArray(gone, cJSON_CreateString(s->id));
			seek_end(pool, s);
		} else {
			cJSON_AddItemToArray(left, seek_json(s));
		}
	}
}

/* The player's connection dropped: their seeks wait, unmatched and
 * unlisted, for the grace period (seek_expire). */
void
seek_player_gone(struct seek_pool *pool, const char *name, int64_t now)
{
	struct seek *s;

	TAILQ_FOREACH(s, &pool->list, entry)
		if (strcmp(s->name, name) == 0 && s->gone_ms == 0)
			s->gone_ms = now > 0 ? now : 1;
}

/* The player is back within the grace: their seeks are open again. */
void
seek_player_back(struct seek_pool *pool, const char *name)
{
	struct seek *s;

	TAILQ_FOREACH(s, &pool->list, entry)
		if (strcmp(s->name, name) == 0)
			s->gone_ms = 0;
}

/* Remove the seeks whose player has been gone longer than grace_ms; how
 * many. */
int
seek_expire(struct seek_pool *pool, int64_t now, int64_t grace_ms)
{
	struct seek *s, *next;
	int n = 0;

	for (s = TAILQ_FIRST(&pool->list); s != NULL; s = next) {
		next = TAILQ_NEXT(s, entry);
		if (s->gone_ms != 0 && now - s->gone_ms >= grace_ms) {
			seek_end(pool, s);
			n++;
		}
	}
	return n;
}

/* A seek as seeks and the seek reply show it. */
cJSON *
seek_json(const struct seek *s)
{
	cJSON *o = cJSON_CreateObject(), *range;

	cJSON_AddStringToObject(o, "seek", s->id);
	cJSON_AddStringToObject(o, "name", s->name);
	cJSON_AddNumberToObject(o, "rating", s->rating);
	cJSON_AddStringToObject(o, "game", s->g->name);
	cJSON_AddItemToObject(o, "options", cJSON_Duplicate(s->options, 1));
	cJSON_AddItemToObject(o, "clock",
	    room_clock_summary(s->clock_initial_ms, s->clock_inc_ms));
	cJSON_AddBoolToObject(o, "rated", s->rated);
	if (s->range_lo >= 0) {
		range = cJSON_AddObjectToObject(o, "range");
		cJSON_AddNumberToObject(range, "min", s->range_lo);
		cJSON_AddNumberToObject(range, "max", s->range_hi);
	} else {
		cJSON_AddNullToObject(o, "range");
	}
	return o;
}

/* range=LO-HI: two ratings from 0 to SEEK_RATING_MAX, LO <= HI. 0, or -1
 * when the text is not such a range. */
int
seek_parse_range(const char *text, int *lo, int *hi)
{
	char *end;
	long a, b;

	if (text[0] < '0' || text[0] > '9')
		return -1;
	a = strtol(text, &end, 10);
	if (*end != '-' || end[1] < '0' || end[1] > '9')
		return -1;
	b = strtol(end + 1, &end, 10);
	if (*end != '\0' || a > b || b > SEEK_RATING_MAX)
		return -1;
	*lo = (int)a;
	*hi = (int)b;
	return 0;
}

/* The player's rating in this game and variant (rating.c), for the range
 * check: a new player's is 1500. */
int
seek_rating(struct server *srv, const char *name, const struct rules_game *g,
    const cJSON *options)
{
	return rating_of(srv, name, g, options, NULL);
}
