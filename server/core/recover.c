/*
 * recover.c: at start, every unfinished room rebuilt from the store by
 * replaying its moves through the rules; a room whose replay fails is set
 * aside with a logged error and the rest come back. Recovery only reads:
 * what is written is store/write.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/core/core.h"
#include "server/net/limit.h"
#include "server/store/store.h"

/* A stored status; anything unknown comes back adjourned. */
static enum room_status
recover_status(const char *s)
{
	enum proto_room_status st = proto_room_status_from_name(s, strlen(s));

	return st == PROTO_ROOM_STATUS_COUNT ? ROOM_ADJOURNED
	                                     : (enum room_status)st;
}

/* Seats from their stored JSON; everyone starts out gone. */
static void
recover_seats(struct room *r, const char *json)
{
	cJSON *a = cJSON_Parse(json), *it;
	int i = 0;

	cJSON_ArrayForEach(it, a) {
		const char *name =
		    cJSON_GetStringValue(cJSON_GetObjectItem(it, "name"));
		cJSON *bot = cJSON_GetObjectItem(it, "bot");
		cJSON *depth = cJSON_GetObjectItem(it, "depth");

		if (i == r->g->seats)
			break;
		if (name != NULL && player_name_valid(name)) {
			r->seats[i].player = player_get(r->srv, name);
			r->seats[i].gone = 1;
			r->seats[i].gone_ms = clock_mono_ms();
		}
		if (cJSON_IsNumber(bot))
			r->seats[i].bot = bot->valueint;
		if (cJSON_IsNumber(depth) && depth->valueint > 0 &&
		    depth->valueint <= PROTO_BOT_DEPTH_MAX)
			r->seats[i].depth = depth->valueint;
		i++;
	}
	cJSON_Delete(a);
}

/* Replay stored moves through the rules; 0, or -1 with the reason. */
static int
recover_replay(struct room *r, const struct store_move *moves, int n, char *err,
    size_t errlen)
{
	char why[RULES_ERR_MAX];
	int i;

	for (i = 0; i < n; i++) {
		struct room_move mv;

		memset(&mv, 0, sizeof mv);
		if (r->g->parse_move(
		        r->st, moves[i].move, &mv.m, why, sizeof why) != 0) {
			snprintf(err, errlen,
			    "move %d '%s' does not replay: %s", moves[i].ply,
			    moves[i].move, why);
			return -1;
		}
		mv.seat = moves[i].seat;
		r->g->format_move(r->st, mv.m, mv.notation, sizeof mv.notation);
		r->g->describe_move(
		    r->st, mv.m, mv.sentence, sizeof mv.sentence);
		mv.clock_ms[0] = moves[i].clock_ms[0];
		mv.clock_ms[1] = moves[i].clock_ms[1];
		r->g->apply(r->st, mv.m);
		room_hist_push(r, &mv);
	}
	return 0;
}

/* Clocks as the last move left them; the time the server was down is not
 * charged to anyone. */
static void
recover_clocks(struct room *r)
{
	int i;

	for (i = 0; i < 2; i++)
		r->clock_ms[i] = r->clock_initial_ms;
	if (r->nhist > 0 && r->hist[r->nhist - 1].clock_ms[0] >= 0) {
		r->clock_ms[0] = r->hist[r->nhist - 1].clock_ms[0];
		r->clock_ms[1] = r->hist[r->nhist - 1].clock_ms[1];
	}
	r->turn_start_ms = room_clock_now(r);
}

/* One stored room rebuilt and added to the server: the room, or NULL
 * when it was set aside (logged). */
struct room *
recover_room(struct server *srv, const struct store_room *sr,
    const struct store_move *moves, int nmoves)
{
	const struct rules_game *g = rules_find(sr->game);
	char err[RULES_ERR_MAX * 2];
	cJSON *options;
	struct room *r;

	if (g == NULL) {
		log_error("recover: room %s: no game '%s'; set aside", sr->id,
		    sr->game);
		return NULL;
	}
	options = cJSON_Parse(sr->options);
	if (!cJSON_IsObject(options)) {
		cJSON_Delete(options);
		log_error("recover: room %s: bad options; set aside", sr->id);
		return NULL;
	}
	r = room_new(srv, g, options, sr->game_no, err, sizeof err);
	if (r == NULL) {
		log_error("recover: room %s: %s; set aside", sr->id, err);
		return NULL;
	}
	snprintf(r->id, sizeof r->id, "%s", sr->id);
	/* Private rooms ("p...") have no number. */
	r->number = sr->id[0] == 'r' ? strtol(sr->id + 1, NULL, 10) : 0;
	snprintf(r->creator, sizeof r->creator, "%s", sr->creator);
	r->is_private = sr->is_private;
	r->clock_initial_ms = sr->clock_initial_ms;
	r->clock_inc_ms = sr->clock_increment_ms;
	r->created_ms = sr->created_ms;
	r->updated_ms = sr->updated_ms;
	r->status = recover_status(sr->status);
	r->rated = sr->unrated == NULL ? -1 : sr->unrated[0] == '\0';
	if (sr->unrated != NULL)
		snprintf(r->unrated, sizeof r->unrated, "%s", sr->unrated);
	r->seq = sr->seq;
	r->seq_stored = sr->seq;
	if (nmoves > 0 && moves[nmoves - 1].seq > r->seq)
		r->seq = moves[nmoves - 1].seq;
	recover_seats(r, sr->seats);
	if (recover_replay(r, moves, nmoves, err, sizeof err) != 0) {
		log_error("recover: room %s: %s; set aside", sr->id, err);
		room_free(r);
		return NULL;
	}
	recover_clocks(r);
	room_add(r);
	return r;
}

static int
recover_one(void *arg, const struct store_room *sr,
    const struct store_move *moves, int nmoves)
{
	recover_room(arg, sr, moves, nmoves);
	return 0;
}

/* Rebuild every unfinished room from the store, after pruning adjourned
 * rooms too old to keep and finished rooms' rows (committed here, before
 * anything is queued: the store's lock keeps the idle thread out). 0, or -1
 * when the store could not be read or written. */
int
recover_rooms(struct server *srv)
{
	int64_t before =
	    clock_now_ms() - (int64_t)srv->cfg.adjourn_days * 86400 * 1000;
	struct store_op *prune = store_op_new(STORE_OP_ROOM_PRUNE);
	struct room *r;
	long pruned = 0, ended = 0;
	int n = 0, rc;

	prune->a = store_op_str(prune, "adjourned");
	prune->ms = before;
	prune->count = &pruned;
	/* Finished rooms left behind (a stop, a failed delete) are no longer
	 * needed: their games are in the games table. */
	prune->next = store_op_new(STORE_OP_ROOM_PRUNE);
	prune->next->a = store_op_str(prune->next, "ended");
	prune->next->ms = clock_now_ms() + 1;
	prune->next->count = &ended;
	rc = store_commit(srv->store, prune);
	store_op_free(prune);
	if (rc != 0) {
		log_error("recover: %s", store_errmsg(srv->store));
		return -1;
	}
	/* A cluster node takes rooms one by one through their leases
	 * (cluster.c), never all of them. */
	if (srv->cluster_ops == NULL &&
	    store_load(srv->reader, recover_one, srv) != 0) {
		log_error("recover: %s", store_errmsg(srv->reader));
		return -1;
	}
	TAILQ_FOREACH(r, &srv->rooms, entry) {
		room_recovered(r);
		n++;
	}
	log_info("recovered %d rooms (%ld adjourned rooms older than %d days "
	         "and %ld finished rooms' rows pruned)",
	    n, pruned, srv->cfg.adjourn_days, ended);
	return 0;
}
