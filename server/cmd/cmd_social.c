/*
 * cmd_social.c: the verbs between two people outside any room's chat:
 * tell (a private message, with chat's limit and attribution) and invite
 * (a room's id handed to one player, who alone sees it: "join r4"
 * accepts, or a bare "join" in tablero). Both reach players who are
 * connected; neither is kept for one who is not (refused, pointing to
 * message.c's message; a name nobody has is bad_name, a typo rather
 * than an absence). On
 * a cluster a player logged in on another node (the lobby's cache of
 * that node) is sent the event there (player_send). Neither reaches a
 * player who blocks the sender (core/block.c), nor comes from a muted
 * one (sanction.c), and a player hears at most SERVER_HEARD_PER_SEC of
 * them a second from everyone together (bursts of SERVER_HEARD_BURST):
 * the sender over it is refused, told to try again.
 */
#include <string.h>
#include <strings.h>

#include "server/cmd/cmd.h"
#include "server/club/club.h"
#include "server/net/limit.h"

/* Take one of the tells and invites req->name may hear now: 0, or -1
 * after refusing (rate_limited, with when to try again). A player on
 * another node of a cluster is counted there, not here. */
int
cmd_social_heard(struct conn *c, const struct proto_request *req)
{
	struct player *p = player_find(c->srv, req->name);
	const double per_ms = SERVER_HEARD_PER_SEC / 1000.0;
	int64_t now = clock_mono_ms();

	if (p == NULL)
		return 0;
	if (!bucket_has(&p->heard, per_ms, SERVER_HEARD_BURST, now)) {
		limit_log(c->srv,
		    "conn %llu %s as %s: tell or invite to %s refused: over "
		    "its %d a second",
		    (unsigned long long)c->id, c->addr, c->player->name,
		    p->name, SERVER_HEARD_PER_SEC);
		conn_error(c, req, PROTO_E_RATE_LIMITED,
		    "%s is getting more than %d tells and invites a second; "
		    "try again in %lld ms",
		    p->name, SERVER_HEARD_PER_SEC,
		    (long long)bucket_wait_ms(&p->heard, per_ms));
		return -1;
	}
	p->heard.tokens -= 1.0;
	return 0;
}

/* 0 when req->name is a connected player other than the sender (here or,
 * in a cluster, on another node) who takes tells and invites from the
 * sender now, or -1 with the error sent. */
static int
social_target(struct conn *c, const struct proto_request *req)
{
	struct player *p = player_find(c->srv, req->name);
	char known[SERVER_NAME_MAX + 1];

	if (p == c->player ||
	    (c->player != NULL && strcmp(req->name, c->player->name) == 0)) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "that is you: tell and invite are for someone else");
		return -1;
	}
	/* A tell or invite is not kept for a player who is away: the
	 * sender is told so, and that `message` keeps one (message.c). */
	if (!player_online(c->srv, req->name)) {
		/* A name nobody has is a different mistake (a typo) from a
		 * player who is away: bad_name says so (cmd_known_name). */
		if (cmd_known_name(c, req, req->name, known, sizeof known) != 0)
			return -1;
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "%s is not connected now: message %s TEXT keeps a "
		    "message for their next hello (who lists who is here)",
		    known, known);
		return -1;
	}
	if (block_refuses(c->srv, req->name, c->player->name)) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "%s blocks you: your tells and invites do not reach them",
		    req->name);
		return -1;
	}
	return cmd_social_heard(c, req);
}

void
cmd_tell(struct conn *c, const struct proto_request *req)
{
	cJSON *ev;

	if (sanction_muted(c, req) || !cmd_chat_fits(c, req) ||
	    social_target(c, req) != 0)
		return;
	conn_reply(c, proto_reply(req));
	ev = proto_event(PROTO_EV_TOLD, NULL, 0);
	cJSON_AddStringToObject(ev, "from", c->player->name);
	cJSON_AddStringToObject(ev, "text", req->text);
	player_send(c->srv, req->name, ev);
	cJSON_Delete(ev);
}

void
cmd_invite(struct conn *c, const struct proto_request *req)
{
	struct room *r;
	cJSON *ev;

	if (sanction_muted(c, req) || (r = cmd_room_member(c, req)) == NULL ||
	    social_target(c, req) != 0)
		return;
	conn_reply(c, proto_reply(req));
	ev = proto_event(PROTO_EV_INVITED, NULL, 0);
	cJSON_AddStringToObject(ev, "from", c->player->name);
	cJSON_AddStringToObject(ev, "room", r->id);
	cJSON_AddStringToObject(ev, "game", r->g->name);
	cJSON_AddStringToObject(ev, "status",
	    proto_room_status_name((enum proto_room_status)r->status));
	cJSON_AddBoolToObject(ev, "private", r->is_private);
	player_send(c->srv, req->name, ev);
	cJSON_Delete(ev);
}
