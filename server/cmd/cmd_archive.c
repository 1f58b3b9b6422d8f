/*
 * cmd_archive.c: the verbs that read finished games from the store
 * (core/archive.c keeps them): history, and state or export of a room
 * that is no longer in memory; and the budget of such reads that guests
 * at one address share (`rooms ended` counts against it too).
 */
#include <string.h>

#include "server/cmd/cmd.h"
#include "server/net/limit.h"

/* May c read the store for req? A guest's reads count against its
 * address's budget (--guest-reads); everyone else's are free (a name's
 * messages are rate limited already). 0, or -1 after replying
 * rate_limited with when to try again, and c reads nothing more until
 * then. */
int
cmd_archive_budget(struct conn *c, const struct proto_request *req)
{
	int64_t wait_ms = 0;

	if (!c->guest || limit_reads_take(c->srv, c->lim_addr, &wait_ms))
		return 0;
	c->srv->out_free = 1; /* shows nothing changed: not held */
	conn_error(c, req, PROTO_E_RATE_LIMITED,
	    "guests from your address may read finished games %d times a "
	    "second; try again in %lld ms (or say hello NAME)",
	    c->srv->cfg.guest_reads, (long long)wait_ms);
	/* a script asking again at once waits for that time unread */
	net_rest(c, wait_ms);
	return -1;
}

/* A page's cursor from req's from into pg (none: the newest); 0, or -1
 * after replying bad_request. */
int
cmd_archive_from(
    struct conn *c, const struct proto_request *req, struct archive_page *pg)
{
	memset(&pg->from, 0, sizeof pg->from);
	if (req->from == NULL ||
	    archive_cursor_parse(req->from, &pg->from) == 0)
		return 0;
	conn_error(c, req, PROTO_E_BAD_REQUEST,
	    "from is the next a page of finished games gave, like "
	    "1795434301020.1234");
	return -1;
}

/* Add a page's more and next to the reply. */
void
cmd_archive_more(cJSON *rep, const struct archive_page *pg)
{
	cJSON_AddBoolToObject(rep, "more", pg->more);
	if (pg->more)
		cJSON_AddStringToObject(rep, "next", pg->next);
	else
		cJSON_AddNullToObject(rep, "next");
}

/* A page read off the loop is back (pages.c): reply with it, or say
 * why the store could not give it. */
void
cmd_archive_page(struct conn *c, const struct proto_request *req, cJSON *rep,
    const struct archive_page *pg, int rc)
{
	if (rc != 0) {
		cJSON_Delete(rep);
		archive_read_failed(c, req, rc);
		return;
	}
	cmd_archive_more(rep, pg);
	conn_reply(c, rep);
}

/* The verb history [NAME] [from=CURSOR]: a page of the finished games a
 * player played, newest first; one's own private games too. The page is
 * read off the loop. */
void
cmd_history(struct conn *c, const struct proto_request *req)
{
	const char *name = req->name != NULL ? req->name : c->player->name;
	struct archive_page pg;
	cJSON *rep, *list;

	if (!player_name_valid(name)) {
		conn_error(c, req, PROTO_E_BAD_NAME,
		    "a name is 1 to 16 letters, digits, '_' or '-'");
		return;
	}
	if (cmd_archive_from(c, req, &pg) != 0 ||
	    cmd_archive_budget(c, req) != 0)
		return;
	rep = proto_reply(req);
	cJSON_AddStringToObject(rep, "name", name);
	list = cJSON_AddArrayToObject(rep, "games");
	pages_read(c, req, name, strcmp(name, c->player->name) == 0, NULL,
	    &pg.from, rep, list, cmd_archive_page);
}

/* state or export of a room that is not in memory: its last finished
 * game from the store. */
void
cmd_archive_show(struct conn *c, const struct proto_request *req)
{
	cJSON *row = NULL, *rep;
	struct room *r;

	if (cmd_archive_budget(c, req) != 0)
		return;
	if ((r = archive_find(c, req, &row)) == NULL)
		return;
	if (!archive_visible(c, row)) {
		conn_error(
		    c, req, PROTO_E_NO_SUCH_ROOM, "no room '%s'", req->room);
	} else if (req->verb == PROTO_EXPORT) {
		cmd_export_room(c, req, r, cJSON_GetObjectItem(row, "seats"));
	} else {
		cJSON *st = archive_state_of(r, row);
		char err[128];

		if (req->has_at &&
		    replay_at(r, req->at, st, err, sizeof err) != 0) {
			cJSON_Delete(st);
			conn_error(c, req, PROTO_E_BAD_REQUEST, "%s", err);
		} else {
			rep = proto_reply(req);
			cJSON_AddItemToObject(rep, "state", st);
			conn_reply(c, rep);
		}
	}
	room_free(r);
	cJSON_Delete(row);
}
