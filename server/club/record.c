/*
 * record.c: one-player records. When a one-player game ends
 * (room_end_prepare) its player's record in that game is updated and
 * queued in the same change as the end: for a game with levels (Shape
 * Shifter) the levels solved, the highest one and the fewest tries it
 * took (restarts and failed ends at that level before solving it, counted
 * in the room); for another (solitaire) the games solved and the fewest
 * pieces left in any game. Records queued and not yet known committed are
 * kept here, as rating.c keeps ratings. `ratings GAME` of a one-player
 * game lists them (cmd_rating.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/club/club.h"
#include "server/net/limit.h"
#include "server/store/store.h"
#include "server/store/storeq.h"

/* A record queued and not yet known committed. */
struct record_fresh {
	struct record_fresh *next;
	uint64_t op; /* the op that stores it */
	char name[SERVER_NAME_MAX + 1];
	char game[RATING_POOL_MAX];
	int solved, best, tries;
};

/* 1 when g's records go by level (it has a level option). */
int
record_by_level(const struct rules_game *g)
{
	return rules_optdesc_find(g, RULES_OPT_LEVEL) != NULL;
}

/* Call cb with each of name's records queued and not yet committed, the
 * newest first (or of every name when name is NULL). */
void
record_fresh_each(
    struct server *srv, const char *name, store_record_cb cb, void *arg)
{
	const struct record_fresh *f;
	struct store_record sr;

	for (f = srv->record_fresh; f != NULL; f = f->next) {
		if (name != NULL && strcmp(f->name, name) != 0)
			continue;
		memset(&sr, 0, sizeof sr);
		sr.name = f->name;
		sr.game = f->game;
		sr.solved = f->solved;
		sr.best = f->best;
		sr.tries = f->tries;
		cb(arg, &sr);
	}
}

/* Ops up to committed are stored: their records are the reader's. */
void
record_committed(struct server *srv, uint64_t committed)
{
	struct record_fresh **fp = &srv->record_fresh, *f;

	while ((f = *fp) != NULL) {
		if (f->op <= committed) {
			*fp = f->next;
			free(f);
		} else {
			fp = &f->next;
		}
	}
}

/* What record_get looks for and finds. */
struct record_find {
	const char *game;
	struct store_record *out;
	int found;
};

static void
record_find_cb(void *arg, const struct store_record *r)
{
	struct record_find *f = arg;

	if (f->found || strcmp(r->game, f->game) != 0)
		return;
	f->out->solved = r->solved;
	f->out->best = r->best;
	f->out->tries = r->tries;
	f->found = 1;
}

/* name's record in game into *out (*found 0 when none); 0, or -1 when the
 * store could not be read. */
static int
record_get(struct server *srv, const char *name, const char *game,
    struct store_record *out, int *found)
{
	struct record_find q = {game, out, 0};

	memset(out, 0, sizeof *out);
	record_fresh_each(srv, name, record_find_cb, &q);
	if (!q.found &&
	    store_records_of(srv->reader, name, record_find_cb, &q) != 0) {
		log_error("store: %s", store_errmsg(srv->reader));
		return -1;
	}
	*found = q.found;
	return 0;
}

/* Queue name's new record in game and keep it until it is committed. */
static void
record_put(struct server *srv, const char *name, const char *game,
    const struct store_record *rec)
{
	struct store_record sr = *rec;
	struct record_fresh *f = xcalloc(1, sizeof *f);

	sr.name = name;
	sr.game = game;
	sr.updated_ms = clock_now_ms();
	storeq_record_put(srv->storeq, &sr);
	f->op = storeq_ops(srv->storeq);
	snprintf(f->name, sizeof f->name, "%s", name);
	snprintf(f->game, sizeof f->game, "%s", game);
	f->solved = sr.solved;
	f->best = sr.best;
	f->tries = sr.tries;
	f->next = srv->record_fresh;
	srv->record_fresh = f;
}

/* The record after a game with levels: level solved after tries. */
static void
record_level(
    struct store_record *rec, int found, int solved, long level, int tries)
{
	if (!solved)
		return;
	rec->solved++;
	if (!found || level > rec->best) {
		rec->best = (int)level;
		rec->tries = tries;
	} else if (level == rec->best && tries < rec->tries) {
		rec->tries = tries;
	}
}

/* The one-player game in r has just ended with result (room_end_prepare):
 * its player's record is updated and queued with the end. */
void
record_game_end(struct room *r, const char *result)
{
	struct player *p = r->seats[0].player;
	struct store_record rec;
	struct rules_status st;
	int found, solved = strcmp(result, "solved") == 0;

	/* A game left before any move is no game (archive.c keeps none). */
	if (r->g->seats != 1 || p == NULL || r->nhist == 0)
		return;
	if (record_get(r->srv, p->name, r->g->name, &rec, &found) != 0)
		return; /* logged; the game itself is kept as ever */
	if (record_by_level(r->g)) {
		record_level(&rec, found, solved, room_level_after(r) - 1,
		    r->solo_tries);
	} else {
		rules_status(r->g, r->st, &st);
		rec.solved += solved;
		if (st.nscores > 0 && (!found || st.score[0] < rec.best))
			rec.best = st.score[0];
	}
	record_put(r->srv, p->name, r->g->name, &rec);
	r->solo_tries = solved ? 0 : r->solo_tries + 1;
}
