/*
 * cmd_rating.c: the verbs that show ratings and profiles: finger (a
 * player's ratings per pool with their deviation and results, the games
 * they sit in now, member since and last seen, one-player records) and
 * ratings (a pool's best, a page at a time, provisional ones apart; a
 * one-player game's records, record.c). Both read through the
 * loop's reader (what is committed, on either backend and on every node
 * sharing the database); finger adds this node's ratings not yet known
 * committed (rating.c, record.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/club/glicko.h"
#include "server/club/club.h"
#include "server/net/limit.h"
#include "server/store/store.h"

/* Players on one page of ratings: the top 50 fit a screen or two. */
#define CMD_RATING_PAGE 50
/* The last page one may ask for: a bounded OFFSET, far beyond any club. */
#define CMD_RATING_PAGES_MAX 1000

/* A rating as the replies show it: rounded, provisional flagged. */
static cJSON *
cmd_rating_json(const struct store_rating *sr)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "rating", (double)lround(sr->rating));
	cJSON_AddNumberToObject(o, "rd", (double)lround(sr->rd));
	cJSON_AddBoolToObject(o, "provisional", rating_provisional(sr->rd));
	cJSON_AddNumberToObject(o, "wins", sr->wins);
	cJSON_AddNumberToObject(o, "draws", sr->draws);
	cJSON_AddNumberToObject(o, "losses", sr->losses);
	return o;
}

/* finger's list of ratings: one per pool, this node's fresh ones first. */
struct cmd_finger_list {
	cJSON *list;
};

static void
cmd_finger_add(void *arg, const struct store_rating *sr)
{
	struct cmd_finger_list *l = arg;
	cJSON *it, *o;
	char game[RATING_POOL_MAX];

	cJSON_ArrayForEach(it, l->list) {
		if (strcmp(
		        cJSON_GetStringValue(cJSON_GetObjectItem(it, "pool")),
		        sr->pool) == 0)
			return; /* a fresher one is listed */
	}
	snprintf(
	    game, sizeof game, "%.*s", (int)strcspn(sr->pool, " "), sr->pool);
	o = cmd_rating_json(sr);
	cJSON_AddStringToObject(o, "game", game);
	cJSON_AddStringToObject(o, "pool", sr->pool);
	cJSON_AddItemToArray(l->list, o);
}

/* A one-player record as the replies show it. */
static cJSON *
cmd_record_json(const struct store_record *sr)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "game", sr->game);
	cJSON_AddNumberToObject(o, "solved", sr->solved);
	if (sr->game != NULL && rules_find(sr->game) != NULL &&
	    record_by_level(rules_find(sr->game))) {
		cJSON_AddNumberToObject(o, "level", sr->best);
		cJSON_AddNumberToObject(o, "tries", sr->tries);
	} else {
		cJSON_AddNumberToObject(o, "fewest_left", sr->best);
	}
	return o;
}

/* finger's list of records: one per game, this node's fresh ones first. */
static void
cmd_finger_record(void *arg, const struct store_record *sr)
{
	struct cmd_finger_list *l = arg;
	cJSON *it;

	cJSON_ArrayForEach(it, l->list) {
		if (strcmp(
		        cJSON_GetStringValue(cJSON_GetObjectItem(it, "game")),
		        sr->game) == 0)
			return; /* a fresher one is listed */
	}
	cJSON_AddItemToArray(l->list, cmd_record_json(sr));
}

/* The unfinished games name sits in, as finger lists them (private ones
 * only to the player themself). */
static cJSON *
cmd_finger_rooms(struct conn *c, struct player *p)
{
	cJSON *a = cJSON_CreateArray();
	int i, seat;

	for (i = 0; p != NULL && i < p->nrooms; i++) {
		const struct room *r = p->rooms[i];
		cJSON *o;

		seat = room_seat_of(r, p);
		if (seat < 0 || r->status == ROOM_ENDED ||
		    (r->is_private && c->player != p))
			continue;
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "room", r->id);
		cJSON_AddStringToObject(o, "game", r->g->name);
		cJSON_AddStringToObject(o, "seat", r->g->seat_names[seat]);
		cJSON_AddStringToObject(
		    o, "status", room_status_name(r->status));
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

void
cmd_finger(struct conn *c, const struct proto_request *req)
{
	const char *name = req->name != NULL ? req->name : c->player->name;
	const struct cluster_ops *cl = c->srv->cluster_ops;
	struct store_identity id;
	struct cmd_finger_list l;
	struct player *p;
	cJSON *playing;
	cJSON *rep;
	int found = 0;

	if (!player_name_valid(name)) {
		conn_error(c, req, PROTO_E_BAD_NAME,
		    "a name is 1 to 16 letters, digits, '_' or '-'");
		return;
	}
	memset(&id, 0, sizeof id);
	if (store_identity_find(c->srv->reader, name, &id, &found) != 0) {
		log_error("store: %s", store_errmsg(c->srv->reader));
		conn_error(c, req, PROTO_E_INTERNAL, "the store failed");
		return;
	}
	p = player_find(c->srv, found ? id.name : name);
	if (!found && p == NULL) {
		conn_error(c, req, PROTO_E_BAD_NAME,
		    "nobody is registered as %s", name);
		return;
	}
	rep = proto_reply(req);
	cJSON_AddStringToObject(rep, "name", found ? id.name : p->name);
	cJSON_AddBoolToObject(rep, "online",
	    (p != NULL && p->conn != NULL) ||
	        (cl != NULL &&
	            cl->online(c->srv,
	                cJSON_GetStringValue(
	                    cJSON_GetObjectItem(rep, "name")))));
	if (found) {
		cJSON_AddItemToObject(
		    rep, "since_ms", proto_int(id.created_ms));
		cJSON_AddItemToObject(rep, "seen_ms", proto_int(id.seen_ms));
	}
	l.list = cJSON_AddArrayToObject(rep, "ratings");
	rating_fresh_each(c->srv,
	    cJSON_GetStringValue(cJSON_GetObjectItem(rep, "name")),
	    cmd_finger_add, &l);
	if (store_ratings_of(c->srv->reader,
	        cJSON_GetStringValue(cJSON_GetObjectItem(rep, "name")),
	        cmd_finger_add, &l) != 0) {
		log_error("store: %s", store_errmsg(c->srv->reader));
		cJSON_Delete(rep);
		conn_error(c, req, PROTO_E_INTERNAL, "the store failed");
		return;
	}
	l.list = cJSON_AddArrayToObject(rep, "records");
	record_fresh_each(c->srv,
	    cJSON_GetStringValue(cJSON_GetObjectItem(rep, "name")),
	    cmd_finger_record, &l);
	if (store_records_of(c->srv->reader,
	        cJSON_GetStringValue(cJSON_GetObjectItem(rep, "name")),
	        cmd_finger_record, &l) != 0) {
		log_error("store: %s", store_errmsg(c->srv->reader));
		cJSON_Delete(rep);
		conn_error(c, req, PROTO_E_INTERNAL, "the store failed");
		return;
	}
	playing = cmd_finger_rooms(c, p);
	/* On a cluster: the rooms of the other nodes too. */
	if (cl != NULL)
		cl->finger_rooms(c->srv,
		    cJSON_GetStringValue(cJSON_GetObjectItem(rep, "name")),
		    playing);
	cJSON_AddItemToObject(rep, "playing", playing);
	conn_reply(c, rep);
}

/* One list of a ratings page. */
struct cmd_ratings_list {
	cJSON *list;
	int rank; /* of the next row; 0: not ranked (provisional) */
	int n;
};

static void
cmd_ratings_add(void *arg, const struct store_rating *sr)
{
	struct cmd_ratings_list *l = arg;
	cJSON *o;

	if (++l->n > CMD_RATING_PAGE)
		return; /* the one past the page: there is more */
	o = cmd_rating_json(sr);
	cJSON_AddStringToObject(o, "name", sr->name);
	if (l->rank > 0)
		cJSON_AddNumberToObject(o, "rank", l->rank++);
	cJSON_AddItemToArray(l->list, o);
}

static void
cmd_records_add(void *arg, const struct store_record *sr)
{
	struct cmd_ratings_list *l = arg;
	cJSON *o;

	if (++l->n > CMD_RATING_PAGE)
		return; /* the one past the page: there is more */
	o = cmd_record_json(sr);
	cJSON_DeleteItemFromObject(o, "game");
	cJSON_AddStringToObject(o, "name", sr->name);
	cJSON_AddNumberToObject(o, "rank", l->rank++);
	cJSON_AddItemToArray(l->list, o);
}

/* ratings of a one-player game: its records, the best first, a page. */
static void
cmd_records(
    struct conn *c, const struct proto_request *req, const struct rules_game *g)
{
	struct cmd_ratings_list l;
	cJSON *rep;
	int i, page = 1;

	for (i = 0; i < req->noptions; i++) {
		const char *v = req->options[i].value;
		char *end;
		long p;

		p = strtol(v, &end, 10);
		if (strcmp(req->options[i].key, "page") != 0 || *v == '\0' ||
		    *end != '\0' || p < 1 || p > CMD_RATING_PAGES_MAX) {
			conn_error(c, req, PROTO_E_BAD_OPTIONS,
			    "%s's records take only page (1 to %d)", g->name,
			    CMD_RATING_PAGES_MAX);
			return;
		}
		page = (int)p;
	}
	rep = proto_reply(req);
	cJSON_AddStringToObject(rep, "game", g->name);
	cJSON_AddNumberToObject(rep, "page", page);
	cJSON_AddStringToObject(
	    rep, "order", record_by_level(g) ? "level" : "solved");
	l = (struct cmd_ratings_list){cJSON_AddArrayToObject(rep, "records"),
	    (page - 1) * CMD_RATING_PAGE + 1, 0};
	if (store_records_top(c->srv->reader, g->name, record_by_level(g),
	        (page - 1) * CMD_RATING_PAGE, CMD_RATING_PAGE + 1,
	        cmd_records_add, &l) != 0) {
		log_error("store: %s", store_errmsg(c->srv->reader));
		cJSON_Delete(rep);
		conn_error(c, req, PROTO_E_INTERNAL, "the store failed");
		return;
	}
	cJSON_AddBoolToObject(rep, "more", l.n > CMD_RATING_PAGE);
	conn_reply(c, rep);
}

/* The pool and page a ratings request names: 0, or -1 with the reason. */
static int
cmd_ratings_args(const struct proto_request *req, const struct rules_game *g,
    char *pool, size_t len, int *page, char *err, size_t errlen)
{
	struct rules_opt opts[PROTO_MAX_OPTIONS];
	int i, n = 0;

	*page = 1;
	for (i = 0; i < req->noptions; i++) {
		const char *k = req->options[i].key, *v = req->options[i].value;
		const char *pools = g->rating_pools;
		size_t kl = strlen(k);
		char *end;

		if (strcmp(k, "page") == 0) {
			long p = strtol(v, &end, 10);

			if (*v == '\0' || *end != '\0' || p < 1 ||
			    p > CMD_RATING_PAGES_MAX) {
				proto_errf(err, errlen, "page must be 1 to %d",
				    CMD_RATING_PAGES_MAX);
				return -1;
			}
			*page = (int)p;
			continue;
		}
		while (pools != NULL && *pools != '\0' &&
		    !(strncmp(pools, k, kl) == 0 &&
		        (pools[kl] == ',' || pools[kl] == '\0'))) {
			pools += strcspn(pools, ",");
			pools += *pools == ',';
		}
		if (g->rating_pools == NULL) {
			proto_errf(err, errlen,
			    "%s has one ratings list: no option but page",
			    g->name);
			return -1;
		}
		if (pools == NULL || *pools == '\0') {
			proto_errf(err, errlen,
			    "%s's ratings are kept apart by %s only (and page)",
			    g->name, g->rating_pools);
			return -1;
		}
		opts[n].key = k;
		opts[n].value = v;
		n++;
	}
	if (rules_opts_check(g, opts, n, err, errlen) != 0)
		return -1;
	rating_pool(g, opts, n, pool, len);
	return 0;
}

void
cmd_ratings(struct conn *c, const struct proto_request *req)
{
	const struct rules_game *g = rules_find(req->game);
	char pool[RATING_POOL_MAX], err[RULES_ERR_MAX];
	struct cmd_ratings_list top, prov;
	cJSON *rep;
	int page, offset;

	if (g == NULL) {
		conn_error(c, req, PROTO_E_NO_SUCH_GAME,
		    "no game '%s' (games lists them)", req->game);
		return;
	}
	if (g->seats < 2) {
		cmd_records(c, req, g);
		return;
	}
	if (cmd_ratings_args(
	        req, g, pool, sizeof pool, &page, err, sizeof err) != 0) {
		conn_error(c, req, PROTO_E_BAD_OPTIONS, "%s", err);
		return;
	}
	offset = (page - 1) * CMD_RATING_PAGE;
	rep = proto_reply(req);
	cJSON_AddStringToObject(rep, "game", g->name);
	cJSON_AddStringToObject(rep, "pool", pool);
	cJSON_AddNumberToObject(rep, "page", page);
	cJSON_AddNumberToObject(rep, "provisional_rd", RATING_PROVISIONAL_RD);
	top = (struct cmd_ratings_list){
	    cJSON_AddArrayToObject(rep, "players"), offset + 1, 0};
	prov = (struct cmd_ratings_list){
	    cJSON_AddArrayToObject(rep, "provisional"), 0, 0};
	if (store_ratings_top(c->srv->reader, pool, 0, RATING_PROVISIONAL_RD,
	        offset, CMD_RATING_PAGE + 1, cmd_ratings_add, &top) != 0 ||
	    store_ratings_top(c->srv->reader, pool, 1, RATING_PROVISIONAL_RD,
	        offset, CMD_RATING_PAGE + 1, cmd_ratings_add, &prov) != 0) {
		log_error("store: %s", store_errmsg(c->srv->reader));
		cJSON_Delete(rep);
		conn_error(c, req, PROTO_E_INTERNAL, "the store failed");
		return;
	}
	cJSON_AddBoolToObject(
	    rep, "more", top.n > CMD_RATING_PAGE || prov.n > CMD_RATING_PAGE);
	conn_reply(c, rep);
}
