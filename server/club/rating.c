/*
 * rating.c: rated games. When a two-player game ends (room_end_prepare)
 * this decides whether it is rated, computes both sides' new Glicko-2
 * ratings (glicko.c) from their ratings before it, puts the change into
 * the result (so the ended event, the room's row and the kept game all
 * show it) and queues the new rows in the same change as the end: one
 * transaction. Each game is its own rating period. Ratings queued and not
 * yet known committed are kept here, since the loop's reader cannot see
 * them yet (memory is the truth). docs/RULES.md, "Ratings", says why each
 * number is what it is.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai/ai.h"
#include "server/club/glicko.h"
#include "server/club/club.h"
#include "server/net/limit.h"
#include "server/store/store.h"
#include "server/store/storeq.h"

/* Each bot level's starting rating in a pool it has not played in yet:
 * levels about 300 points apart, level 3 at a new player's 1500. From
 * there each level's rating in each pool is measured from its results
 * (rating_game_end), as a person's is. */
static const double rating_bot[AI_LEVEL_MAX + 1] = {
    0, 900, 1200, 1500, 1800, 2100};
/* A bot's deviation before its first measured game in a pool: the start
 * is a guess worth a few games, far less sure than a person's 80 after
 * many, less unsure than a new person's 350. */
#define RATING_BOT_RD 200.0
/* The name a bot level's ratings are stored under: '~' is in no
 * player's name, so it can never be one. */
#define RATING_BOT_NAME "~bot%d"
/* Longest option name a game rates apart by ("size"). */
#define RATING_KEY_MAX 32
/* Moves each side must have made for a game to be rated: fewer, and the
 * game was aborted, not played. */
#define RATING_MOVES_MIN 2
/* Days a rated game's mark is kept (rating_games): a group is tried
 * again only while the store thread holds it, minutes or hours of a
 * failing store; a month is far past any, and keeps the table to about
 * a month of rated games. */
#define RATING_ONCE_KEEP_DAYS 30
/* A rated game's key in rating_games: a room id, a game number and a
 * time in ms, each far shorter than their share of it. */
#define RATING_GAME_KEY_MAX 96

/* A rating queued and not yet known committed. */
struct rating_fresh {
	struct rating_fresh *next;
	uint64_t op; /* the op that stores it */
	char name[SERVER_NAME_MAX + 1];
	char pool[RATING_POOL_MAX];
	struct glicko g;
	int wins, draws, losses;
};

/* One rating as this file uses it. */
struct rating_row {
	struct glicko g;
	int wins, draws, losses;
};

/* The pool of game g with options opts: its name, then each option it
 * rates apart as " key=value" (an integer as a number, so that "07" and
 * "7" are one pool). */
void
rating_pool(const struct rules_game *g, const struct rules_opt *opts, int nopts,
    char *buf, size_t len)
{
	const char *p = g->rating_pools;
	size_t n = (size_t)snprintf(buf, len, "%s", g->name);

	while (p != NULL && *p != '\0' && n < len) {
		char key[RATING_KEY_MAX];
		size_t k = strcspn(p, ",");
		const struct rules_optdesc *d;
		const char *v;

		snprintf(key, sizeof key, "%.*s", (int)k, p);
		p += k + (p[k] == ',');
		d = rules_optdesc_find(g, key);
		if (d == NULL)
			continue;
		if (d->type == RULES_OPT_INT)
			n += (size_t)snprintf(buf + n, len - n, " %s=%ld", key,
			    rules_opt_long(g, opts, nopts, key));
		else if ((v = rules_opt_get(g, opts, nopts, key)) != NULL)
			n += (size_t)snprintf(
			    buf + n, len - n, " %s=%s", key, v);
	}
}

/* 1 when the rating's deviation is at or above the provisional bound. */
int
rating_provisional(double rd)
{
	return rd >= RATING_PROVISIONAL_RD;
}

/* The newest rating of name in pool queued and not yet committed. */
static const struct rating_fresh *
rating_fresh_find(struct server *srv, const char *name, const char *pool)
{
	const struct rating_fresh *f;

	for (f = srv->rating_fresh; f != NULL; f = f->next)
		if (strcmp(f->name, name) == 0 && strcmp(f->pool, pool) == 0)
			return f;
	return NULL;
}

/* What rating_get's query looks for and finds. */
struct rating_find {
	const char *pool;
	struct rating_row *out;
	int found;
};

static void
rating_find_cb(void *arg, const struct store_rating *r)
{
	struct rating_find *f = arg;

	if (strcmp(r->pool, f->pool) != 0)
		return;
	f->out->g.rating = r->rating;
	f->out->g.rd = r->rd;
	f->out->g.vol = r->vol;
	f->out->wins = r->wins;
	f->out->draws = r->draws;
	f->out->losses = r->losses;
	f->found = 1;
}

/* name's rating in pool (start when there is none); 0, or -1 when the
 * store could not be read. */
static int
rating_get_from(struct server *srv, const char *name, const char *pool,
    const struct glicko *start, struct rating_row *out)
{
	const struct rating_fresh *f = rating_fresh_find(srv, name, pool);
	struct rating_find q = {pool, out, 0};

	memset(out, 0, sizeof *out);
	out->g = *start;
	if (f != NULL) {
		out->g = f->g;
		out->wins = f->wins;
		out->draws = f->draws;
		out->losses = f->losses;
		return 0;
	}
	if (store_ratings_of(srv->reader, name, rating_find_cb, &q) != 0) {
		log_error("store: %s", store_errmsg(srv->reader));
		return -1;
	}
	return 0;
}

/* name's rating in pool (a new player's when there is none); 0, or -1
 * when the store could not be read. */
static int
rating_get(struct server *srv, const char *name, const char *pool,
    struct rating_row *out)
{
	const struct glicko start = {
	    GLICKO_START_RATING, GLICKO_START_RD, GLICKO_START_VOL};

	return rating_get_from(srv, name, pool, &start, out);
}

/* name's current rating in game g with options (an object of strings, as
 * a room's), rounded; *provisional (when not NULL) says whether it is
 * provisional. A new player's 1500 when there is none, or when the store
 * could not be read (logged). For seeks' ranges (seek_rating). */
int
rating_of(struct server *srv, const char *name, const struct rules_game *g,
    const cJSON *options, int *provisional)
{
	struct rules_opt opts[PROTO_MAX_OPTIONS];
	char pool[RATING_POOL_MAX];
	struct rating_row row;
	const cJSON *it;
	int n = 0;

	cJSON_ArrayForEach(it, options) {
		if (n == PROTO_MAX_OPTIONS || !cJSON_IsString(it))
			continue;
		opts[n].key = it->string;
		opts[n].value = it->valuestring;
		n++;
	}
	rating_pool(g, opts, n, pool, sizeof pool);
	rating_get(srv, name, pool, &row);
	if (provisional != NULL)
		*provisional = rating_provisional(row.g.rd);
	return (int)lround(row.g.rating);
}

/* Call cb with each of name's ratings queued and not yet committed, the
 * newest first (finger). */
void
rating_fresh_each(
    struct server *srv, const char *name, store_rating_cb cb, void *arg)
{
	const struct rating_fresh *f;
	struct store_rating sr;

	for (f = srv->rating_fresh; f != NULL; f = f->next) {
		if (strcmp(f->name, name) != 0)
			continue;
		memset(&sr, 0, sizeof sr);
		sr.name = f->name;
		sr.pool = f->pool;
		sr.rating = f->g.rating;
		sr.rd = f->g.rd;
		sr.vol = f->g.vol;
		sr.wins = f->wins;
		sr.draws = f->draws;
		sr.losses = f->losses;
		cb(arg, &sr);
	}
}

/* Forget the marks of rated games older than RATING_ONCE_KEEP_DAYS
 * (rating_games): hourly, with the identities' prune. */
void
rating_prune(struct server *srv)
{
	char before[24];
	const char *v[1] = {before};

	snprintf(before, sizeof before, "%lld",
	    (long long)(clock_now_ms() -
	        (int64_t)RATING_ONCE_KEEP_DAYS * 86400 * 1000));
	storeq_row(srv->storeq, "rating_games",
	    "DELETE FROM rating_games WHERE at_ms < $1", 1, v);
}

/* Ops up to committed are stored: their ratings are the reader's. */
void
rating_committed(struct server *srv, uint64_t committed)
{
	struct rating_fresh **fp = &srv->rating_fresh, *f;

	while ((f = *fp) != NULL) {
		if (f->op <= committed) {
			*fp = f->next;
			free(f);
		} else {
			fp = &f->next;
		}
	}
}

/* Check the create option rated (yes or no, two-player games only); 0,
 * or -1 with the reason. */
int
rating_option_check(
    const struct rules_game *g, const cJSON *options, char *err, size_t errlen)
{
	const char *v = cJSON_GetStringValue(
	    cJSON_GetObjectItemCaseSensitive(options, RATING_OPT));

	if (cJSON_GetObjectItemCaseSensitive(options, RATING_OPT) == NULL)
		return 0;
	if (g->seats < 2) {
		proto_errf(err, errlen,
		    "%s is a one-player game: it is never "
		    "rated (no rated option)",
		    g->name);
		return -1;
	}
	if (v == NULL || (strcmp(v, "yes") != 0 && strcmp(v, "no") != 0)) {
		proto_errf(err, errlen, "option rated must be yes or no");
		return -1;
	}
	return 0;
}

/* Moves seat made in the game. */
static int
rating_moves_of(const struct room *r, int seat)
{
	int i, n = 0;

	for (i = 0; i < r->nhist; i++)
		if (r->hist[i].seat == seat)
			n++;
	return n;
}

/* Why the game in r is not rated by what is known at its start (its
 * options and seats), or NULL. */
static const char *
rating_unrated_seats(const struct room *r)
{
	const char *opt = cJSON_GetStringValue(
	    cJSON_GetObjectItemCaseSensitive(r->options, RATING_OPT));
	int s, people = 0;

	if (opt != NULL && strcmp(opt, "no") == 0)
		return "created with rated=no";
	if (cJSON_GetObjectItemCaseSensitive(r->options, RULES_OPT_FILE) !=
	        NULL ||
	    cJSON_GetObjectItemCaseSensitive(r->options, RULES_OPT_POSITION) !=
	        NULL)
		return "it began from a loaded position";
	for (s = 0; s < 2; s++) {
		if (r->seats[s].player != NULL)
			people++;
		else if (r->seats[s].bot <= 0 || r->seats[s].bot > AI_LEVEL_MAX)
			return "a seat was empty";
		else if (r->seats[s].depth > 0)
			return "a bot with a set depth has no rating";
	}
	if (people == 0)
		return "no person played";
	return NULL;
}

/* Why the game that just ended in r is not rated, or NULL when it is:
 * what its start decided (rating_game_start; a room from before decides
 * here by its options and seats), then its end. */
static const char *
rating_unrated(const struct room *r, const char *result)
{
	const char *why;
	int s;

	if (r->rated == 0)
		return r->unrated;
	if ((why = rating_unrated_seats(r)) != NULL)
		return why;
	if (strcmp(result, "win") != 0 && strcmp(result, "draw") != 0)
		return "it has no winner and is no draw";
	for (s = 0; s < 2; s++)
		if (rating_moves_of(r, s) < RATING_MOVES_MIN)
			return "aborted: fewer than two moves by each side";
	return NULL;
}

/* A time in seconds as people read it: "24 h", "90 min", "45 s". */
static void
rating_span(int sec, char *buf, size_t len)
{
	if (sec >= 3600 && sec % 3600 == 0)
		snprintf(buf, len, "%d h", sec / 3600);
	else if (sec >= 60 && sec % 60 == 0)
		snprintf(buf, len, "%d min", sec / 60);
	else
		snprintf(buf, len, "%d s", sec);
}

/* When p's identity was made: known since its hello, else read from the
 * store; one the store does not hold yet is being made now. */
static int64_t
rating_made_ms(struct server *srv, struct player *p)
{
	struct store_identity id;
	int found = 0;

	if (p->created_ms > 0)
		return p->created_ms;
	if (store_identity_find(srv->reader, p->name, &id, &found) != 0)
		log_error("store: %s", store_errmsg(srv->reader));
	if (!found || id.created_ms <= 0)
		return clock_now_ms();
	p->created_ms = id.created_ms;
	return p->created_ms;
}

/* Pools a player is rated in at most, as rating_games_of counts them:
 * each game and board size; far more than there are. */
#define RATING_POOLS_MAX 32

/* What rating_games_of gathers: the rated games of each pool. */
struct rating_count {
	char pool[RATING_POOLS_MAX][RATING_POOL_MAX];
	int games[RATING_POOLS_MAX];
	int n;
};

/* Count games in pool, unless the pool is counted already (the
 * newest first: what is queued before what is stored). */
static void
rating_count_add(struct rating_count *c, const char *pool, int games)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (strcmp(c->pool[i], pool) == 0)
			return;
	if (c->n == RATING_POOLS_MAX)
		return;
	snprintf(c->pool[c->n], sizeof c->pool[0], "%s", pool);
	c->games[c->n++] = games;
}

static void
rating_count_cb(void *arg, const struct store_rating *r)
{
	rating_count_add(arg, r->pool, r->wins + r->draws + r->losses);
}

/* The rated games name has finished, in every pool, bots' included: its
 * ratings queued and not yet committed, then the store's. */
static int
rating_games_of(struct server *srv, const char *name)
{
	struct rating_count *c = xcalloc(1, sizeof *c);
	int i, n = 0;

	rating_fresh_each(srv, name, rating_count_cb, c);
	if (store_ratings_of(srv->reader, name, rating_count_cb, c) != 0)
		log_error("store: %s", store_errmsg(srv->reader));
	for (i = 0; i < c->n; i++)
		n += c->games[i];
	free(c);
	return n;
}

/* The address a player plays from: its connection's, else the last one
 * it logged in from ("" when none is known). */
static const char *
rating_addr_of(const struct player *p)
{
	if (p->conn != NULL && p->conn->lim_addr != NULL)
		return p->conn->lim_addr->key;
	return p->addr;
}

/* Why a game between the two people seated in r is not rated by the
 * rules against farming (docs/RULES.md, "Ratings"), into why; 0 when it
 * is rated, -1 when not. */
static int
rating_people_rules(struct room *r, char *why, size_t len)
{
	const struct config *cfg = &r->srv->cfg;
	struct player *p[2] = {r->seats[0].player, r->seats[1].player};
	const char *a0 = rating_addr_of(p[0]), *a1 = rating_addr_of(p[1]);
	int64_t now = clock_now_ms();
	char span[32];
	int s;

	if (!cfg->rated_same_address && a0[0] != '\0' && strcmp(a0, a1) == 0) {
		snprintf(why, len,
		    "both players play from one address: games between "
		    "them are not rated");
		return -1;
	}
	for (s = 0; s < 2; s++) {
		if (now - rating_made_ms(r->srv, p[s]) >=
		    (int64_t)cfg->rated_min_age_sec * 1000)
			continue;
		rating_span(cfg->rated_min_age_sec, span, sizeof span);
		snprintf(why, len,
		    "%s is new: games between people are rated once both "
		    "names are %s old",
		    p[s]->name, span);
		return -1;
	}
	for (s = 0; s < 2 && cfg->rated_min_games > 0; s++) {
		if (rating_games_of(r->srv, p[s]->name) >= cfg->rated_min_games)
			continue;
		snprintf(why, len,
		    "%s is new: games between people are rated once both "
		    "have finished %d rated games (against bots too)",
		    p[s]->name, cfg->rated_min_games);
		return -1;
	}
	return 0;
}

/* Decide whether the two-player game starting in r (room_start_prepare,
 * before its commit) is rated: r->rated and r->unrated, stored with the
 * room and told in the started event and again at the end. Its options
 * and seats first; between two people, the rules against farming. */
void
rating_game_start(struct room *r)
{
	const char *why;

	if (r->g->seats != 2)
		return;
	r->rated = 1;
	r->unrated[0] = '\0';
	if ((why = rating_unrated_seats(r)) != NULL) {
		r->rated = 0;
		snprintf(r->unrated, sizeof r->unrated, "%s", why);
		return;
	}
	if (r->seats[0].player != NULL && r->seats[1].player != NULL &&
	    rating_people_rules(r, r->unrated, sizeof r->unrated) != 0)
		r->rated = 0;
}

/* One side's entry of the result's ratings. */
static cJSON *
rating_entry(const struct room *r, int seat, const struct glicko *before,
    const struct glicko *after)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "seat", r->g->seat_names[seat]);
	if (r->seats[seat].player != NULL)
		cJSON_AddStringToObject(o, "name", r->seats[seat].player->name);
	else {
		cJSON_AddNullToObject(o, "name");
		cJSON_AddNumberToObject(o, "bot", r->seats[seat].bot);
	}
	cJSON_AddNumberToObject(o, "before", lround(before->rating));
	cJSON_AddNumberToObject(o, "after", lround(after->rating));
	cJSON_AddNumberToObject(
	    o, "change", lround(after->rating) - lround(before->rating));
	cJSON_AddNumberToObject(o, "rd", lround(after->rd));
	cJSON_AddBoolToObject(o, "provisional", rating_provisional(after->rd));
	return o;
}

/* The name seat's rating is kept under: the person's, or the bot
 * level's RATING_BOT_NAME. */
static void
rating_side_name(const struct room *r, int seat, char *buf, size_t len)
{
	if (r->seats[seat].player != NULL)
		snprintf(buf, len, "%s", r->seats[seat].player->name);
	else
		snprintf(buf, len, RATING_BOT_NAME, r->seats[seat].bot);
}

/* Keep pool's rating in p's own list (who), when the list was read. */
static void
rating_keep(
    struct player *p, const char *pool, const struct glicko *g, int games)
{
	cJSON *row;

	if (p->ratings == NULL ||
	    cJSON_GetObjectItemCaseSensitive(p->ratings, pool) != NULL)
		return;
	row = cJSON_AddArrayToObject(p->ratings, pool);
	cJSON_AddItemToArray(row, cJSON_CreateNumber(g->rating));
	cJSON_AddItemToArray(row, cJSON_CreateNumber(g->rd));
	cJSON_AddItemToArray(row, cJSON_CreateNumber(games));
}

static void
rating_load_cb(void *arg, const struct store_rating *r)
{
	struct glicko g = {r->rating, r->rd, r->vol};

	rating_keep(arg, r->pool, &g, r->wins + r->draws + r->losses);
}

/* Read p's ratings in every pool into p->ratings (at hello): those
 * queued and not yet committed first (the newest), then the store's.
 * 0, or -1 when the store could not be read (logged; who shows none). */
int
rating_load(struct server *srv, struct player *p)
{
	cJSON_Delete(p->ratings);
	p->ratings = cJSON_CreateObject();
	rating_fresh_each(srv, p->name, rating_load_cb, p);
	if (store_ratings_of(srv->reader, p->name, rating_load_cb, p) != 0) {
		log_error("store: %s", store_errmsg(srv->reader));
		return -1;
	}
	return 0;
}

/* The ratings who shows of p: for each game p has rated games in, the
 * pool where p played the most of them (its options are the ones p
 * plays), as {game: {"pool", "rating", "provisional", "games"}}. */
cJSON *
rating_who(const struct player *p)
{
	cJSON *out = cJSON_CreateObject(), *row, *o;
	char game[RATING_POOL_MAX];
	double games;

	cJSON_ArrayForEach(row, p->ratings) {
		snprintf(game, sizeof game, "%.*s",
		    (int)strcspn(row->string, " "), row->string);
		games = cJSON_GetArrayItem(row, 2)->valuedouble;
		o = cJSON_GetObjectItemCaseSensitive(out, game);
		if (o != NULL &&
		    cJSON_GetObjectItem(o, "games")->valuedouble >= games)
			continue;
		cJSON_DeleteItemFromObjectCaseSensitive(out, game);
		o = cJSON_AddObjectToObject(out, game);
		cJSON_AddStringToObject(o, "pool", row->string);
		cJSON_AddNumberToObject(o, "rating",
		    lround(cJSON_GetArrayItem(row, 0)->valuedouble));
		cJSON_AddBoolToObject(o, "provisional",
		    rating_provisional(
		        cJSON_GetArrayItem(row, 1)->valuedouble));
		cJSON_AddNumberToObject(o, "games", games);
	}
	return out;
}

/* Queue seat's new rating, made by the game named key at ms (stored
 * once per game and side: rating_games), and keep it until it is
 * committed. */
static void
rating_put(struct room *r, int seat, const char *pool, const char *key,
    long long ms, const struct rating_row *row, const struct rating_row *before)
{
	char name[SERVER_NAME_MAX + 1];
	struct store_rating sr;
	struct rating_fresh *f = xcalloc(1, sizeof *f);

	rating_side_name(r, seat, name, sizeof name);
	memset(&sr, 0, sizeof sr);
	sr.name = name;
	sr.pool = pool;
	sr.rating = row->g.rating;
	sr.rd = row->g.rd;
	sr.vol = row->g.vol;
	sr.wins = row->wins;
	sr.draws = row->draws;
	sr.losses = row->losses;
	sr.updated_ms = ms;
	sr.game = key;
	sr.before_rating = before->g.rating;
	sr.before_wins = before->wins;
	sr.before_draws = before->draws;
	sr.before_losses = before->losses;
	storeq_rating_put(r->srv->storeq, &sr);
	f->op = storeq_ops(r->srv->storeq);
	snprintf(f->name, sizeof f->name, "%s", sr.name);
	snprintf(f->pool, sizeof f->pool, "%s", pool);
	f->g = row->g;
	f->wins = row->wins;
	f->draws = row->draws;
	f->losses = row->losses;
	f->next = r->srv->rating_fresh;
	r->srv->rating_fresh = f;
	if (r->seats[seat].player == NULL)
		return; /* a bot's: no who list to keep it in */
	if (r->seats[seat].player->ratings != NULL)
		cJSON_DeleteItemFromObjectCaseSensitive(
		    r->seats[seat].player->ratings, pool);
	rating_keep(r->seats[seat].player, pool, &row->g,
	    row->wins + row->draws + row->losses);
}

/* seat's side before the game: a person's rating, or the bot level's
 * in this pool (its starting guess before its first measured game). */
static int
rating_side(struct room *r, int seat, const char *pool, struct rating_row *row)
{
	struct glicko start = {
	    rating_bot[r->seats[seat].bot], RATING_BOT_RD, GLICKO_START_VOL};
	char name[SERVER_NAME_MAX + 1];

	if (r->seats[seat].player != NULL)
		return rating_get(
		    r->srv, r->seats[seat].player->name, pool, row);
	rating_side_name(r, seat, name, sizeof name);
	return rating_get_from(r->srv, name, pool, &start, row);
}

/* Does seat's rating move with this game? A person's always; a bot's
 * only against a person whose rating is established (not provisional),
 * so that throwaway names losing on purpose cannot push a level up for
 * others to farm. */
static int
rating_moves(const struct room *r, int seat, const struct rating_row *side)
{
	if (r->seats[seat].player != NULL)
		return 1;
	return r->seats[1 - seat].player != NULL &&
	    !rating_provisional(side[1 - seat].g.rd);
}

/* Rate the two-player game that has just ended in r (room_end_prepare,
 * r->result made): rated, and either the ratings or why not, go into the
 * result; the new ratings are queued with the end. */
void
rating_game_end(struct room *r, const char *result, int winner)
{
	const char *why;
	char pool[RATING_POOL_MAX], key[RATING_GAME_KEY_MAX];
	struct rating_row side[2], after[2];
	long long ms;
	cJSON *list;
	int s;

	if (r->g->seats != 2)
		return;
	why = rating_unrated(r, result);
	rating_pool(r->g, r->opts, r->nopts, pool, sizeof pool);
	if (why == NULL &&
	    (rating_side(r, 0, pool, &side[0]) != 0 ||
	        rating_side(r, 1, pool, &side[1]) != 0))
		why = "the ratings could not be read";
	cJSON_AddBoolToObject(r->result, "rated", why == NULL);
	if (why != NULL) {
		cJSON_AddStringToObject(r->result, "unrated", why);
		return;
	}
	cJSON_AddStringToObject(r->result, "pool", pool);
	list = cJSON_AddArrayToObject(r->result, "ratings");
	for (s = 0; s < 2; s++) {
		struct glicko_game g = {side[1 - s].g.rating, side[1 - s].g.rd,
		    winner < 0        ? 0.5
		        : winner == s ? 1.0
		                      : 0.0};

		after[s] = side[s];
		if (rating_moves(r, s, side)) {
			glicko_update(
			    &side[s].g, &g, 1, GLICKO_TAU, &after[s].g);
			after[s].wins += winner == s;
			after[s].losses += winner == 1 - s;
			after[s].draws += winner < 0;
		}
		cJSON_AddItemToArray(
		    list, rating_entry(r, s, &side[s].g, &after[s].g));
	}
	/* The game's key: its room, which game of it, when it ended. */
	ms = clock_now_ms();
	snprintf(key, sizeof key, "%s/%d@%lld", r->id, r->game_no, ms);
	for (s = 0; s < 2; s++)
		if (rating_moves(r, s, side))
			rating_put(r, s, pool, key, ms, &after[s], &side[s]);
}
