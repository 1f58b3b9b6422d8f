/*
 * sstore.c: the open seeks in the store: one row of the table seeks
 * (schema.c) each, written as a row op through the store thread when the
 * seek opens and deleted when it ends (the pool's ended hook: paired,
 * withdrawn, quit, grace over, another game started), in the change that
 * ends it; and read back at start (or when a cluster node takes the
 * club), every seek's player away until they log in again within the
 * grace (seek.c, cmd_seek.c). The highest seek number ever shown is
 * kept too (the counters table), so that ids never repeat.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/club/seek.h"
#include "server/store/schema.h"
#include "server/store/store.h"
#include "server/store/storeq.h"

#define SSTORE_PUT                                                             \
	"INSERT INTO seeks (id, name, game, options, clock_initial_ms,"        \
	" clock_increment_ms, rated, range_lo, range_hi, rating, made_ms)"     \
	" VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"               \
	" ON CONFLICT (id) DO UPDATE SET name = excluded.name,"                \
	" game = excluded.game, options = excluded.options,"                   \
	" clock_initial_ms = excluded.clock_initial_ms,"                       \
	" clock_increment_ms = excluded.clock_increment_ms,"                   \
	" rated = excluded.rated, range_lo = excluded.range_lo,"               \
	" range_hi = excluded.range_hi, rating = excluded.rating,"             \
	" made_ms = excluded.made_ms"
#define SSTORE_DELETE "DELETE FROM seeks WHERE id = $1"
/* The highest seek number ever shown, raised (never lowered) in each
 * change that shows a new one: a restart, or the node taking the club,
 * goes on above it, so an id once shown never names another seek. */
#define SSTORE_COUNT                                                           \
	"INSERT INTO counters (name, value) VALUES ('seek', $1)"               \
	" ON CONFLICT (name) DO UPDATE SET value = CASE"                       \
	" WHEN excluded.value > counters.value THEN excluded.value"            \
	" ELSE counters.value END"
#define SSTORE_NCOLS 11

/* Queue the deletion of the seek's row. */
static void
sstore_delete(struct server *srv, const char *id)
{
	const char *v[1] = {id};

	storeq_club_row(srv->storeq, "seeks", SSTORE_DELETE, 1, v);
}

/* The pool's ended hook: the seek's row goes with it. */
static void
sstore_ended(void *arg, const struct seek *s)
{
	sstore_delete(arg, s->id);
}

/* An empty pool whose ended seeks lose their rows. */
struct seek_pool *
sstore_pool(struct server *srv)
{
	struct seek_pool *pool = seek_pool_new();

	pool->ended = sstore_ended;
	pool->arg = srv;
	return pool;
}

/* Queue the seek's row (it has just opened). */
void
sstore_put(struct server *srv, const struct seek *s)
{
	char ci[24], cinc[24], lo[16], hi[16], rating[16], made[24];
	char *options = cJSON_PrintUnformatted(s->options);
	const char *v[SSTORE_NCOLS];

	if (options == NULL)
		fatal("out of memory");
	snprintf(ci, sizeof ci, "%lld", (long long)s->clock_initial_ms);
	snprintf(cinc, sizeof cinc, "%lld", (long long)s->clock_inc_ms);
	snprintf(lo, sizeof lo, "%d", s->range_lo);
	snprintf(hi, sizeof hi, "%d", s->range_hi);
	snprintf(rating, sizeof rating, "%d", s->rating);
	snprintf(made, sizeof made, "%lld", (long long)s->made_ms);
	v[0] = s->id;
	v[1] = s->name;
	v[2] = s->g->name;
	v[3] = options;
	v[4] = ci;
	v[5] = cinc;
	v[6] = s->rated ? "1" : "0";
	v[7] = s->range_lo >= 0 ? lo : NULL;
	v[8] = s->range_lo >= 0 ? hi : NULL;
	v[9] = rating;
	v[10] = made;
	storeq_club_row(srv->storeq, "seeks", SSTORE_PUT, SSTORE_NCOLS, v);
	free(options);
}

/* Queue the seek's number as the highest shown (it is about to be:
 * the reply that shows it waits for this change's commit). */
void
sstore_counted(struct server *srv, const struct seek *s)
{
	unsigned long long n;
	char num[24];
	const char *v[1] = {num};

	if (sscanf(s->id, "s%llu", &n) != 1)
		return;
	snprintf(num, sizeof num, "%llu", n);
	storeq_club_row(srv->storeq, "counters", SSTORE_COUNT, 1, v);
}

/* Are the stored options what a seek holds: an object of strings, as
 * as many as a request and its defaults may make? */
static int
sstore_options_ok(const cJSON *o)
{
	const cJSON *it;
	int n = 0;

	if (!cJSON_IsObject(o))
		return 0;
	cJSON_ArrayForEach(it, o) {
		if (!cJSON_IsString(it) || ++n > PROTO_MAX_OPTIONS * 2)
			return 0;
	}
	return 1;
}

/* A seeks row back into the pool, its player away since now (the grace
 * runs from the restart); a row that cannot be read is logged and
 * deleted. */
static int
sstore_load_row(void *arg, const char *const *v)
{
	struct server *srv = arg;
	const struct rules_game *g;
	struct seek *s;
	cJSON *options;
	int i;

	for (i = 0; i < SSTORE_NCOLS; i++)
		if (v[i] == NULL && i != 7 && i != 8)
			goto bad;
	g = rules_find(v[2]);
	options = cJSON_Parse(v[3]);
	if (g == NULL || g->seats != 2 || !sstore_options_ok(options) ||
	    strlen(v[0]) >= SEEK_ID_MAX || strlen(v[1]) > SERVER_NAME_MAX ||
	    seek_find(srv->seeks, v[0]) != NULL) {
		cJSON_Delete(options);
		goto bad;
	}
	s = seek_new(g, options);
	snprintf(s->id, sizeof s->id, "%s", v[0]);
	snprintf(s->name, sizeof s->name, "%s", v[1]);
	s->clock_initial_ms = strtoll(v[4], NULL, 10);
	s->clock_inc_ms = strtoll(v[5], NULL, 10);
	s->rated = atoi(v[6]) != 0;
	if (v[7] != NULL && v[8] != NULL) {
		s->range_lo = atoi(v[7]);
		s->range_hi = atoi(v[8]);
	}
	s->rating = atoi(v[9]);
	s->made_ms = strtoll(v[10], NULL, 10);
	s->gone_ms = clock_mono_ms();
	if (s->gone_ms <= 0)
		s->gone_ms = 1;
	seek_add_stored(srv->seeks, s);
	return 0;
bad:
	log_error("seek %s: its stored row cannot be read; deleted",
	    v[0] != NULL ? v[0] : "(no id)");
	if (v[0] != NULL)
		sstore_delete(srv, v[0]);
	return 0;
}

/* A counters row: the seeks' is where fresh ids go on from. */
static int
sstore_counter_row(void *arg, const char *const *v)
{
	struct seek_pool *pool = arg;
	unsigned long long n;

	if (v[0] != NULL && v[1] != NULL && strcmp(v[0], "seek") == 0 &&
	    sscanf(v[1], "%llu", &n) == 1 && n > pool->next_id)
		pool->next_id = n;
	return 0;
}

/* The table named name of store_tables, or NULL. */
static const struct store_table *
sstore_table(const char *name)
{
	int i;

	for (i = 0; i < store_ntables; i++)
		if (strcmp(store_tables[i].name, name) == 0)
			return &store_tables[i];
	return NULL;
}

/* Every stored seek back into srv->seeks (empty), oldest first, each
 * waiting for its player; a player connected here has theirs open at
 * once. 0, or -1 (logged). */
int
sstore_load(struct server *srv)
{
	const struct store_table *tab = sstore_table("seeks"),
	                         *count = sstore_table("counters");
	struct seek *s;
	struct player *p;

	if (tab == NULL || count == NULL ||
	    store_copy_read(srv->reader, tab, sstore_load_row, srv) != 0 ||
	    store_copy_read(
	        srv->reader, count, sstore_counter_row, srv->seeks) != 0) {
		log_error("store: reading seeks: %s",
		    tab != NULL && count != NULL ? store_errmsg(srv->reader)
		                                 : "no table");
		return -1;
	}
	TAILQ_FOREACH(s, &srv->seeks->list, entry) {
		p = player_find(srv, s->name);
		if (s->gone_ms != 0 && p != NULL && p->conn != NULL)
			seek_player_back(srv->seeks, s->name);
	}
	if (srv->seeks->n > 0)
		log_info(
		    "seeks: %d back, waiting for their players", srv->seeks->n);
	return 0;
}
