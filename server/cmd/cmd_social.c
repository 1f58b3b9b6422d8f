/*
 * cmd_social.c: the verbs between two people outside any room's chat:
 * tell (a private message, with chat's limit and attribution) and invite
 * (a room's id handed to one player, who alone sees it: "join r4"
 * accepts, or a bare "join" in tablero). Both reach players who are
 * connected; nothing is kept for one who is not (refused, saying so). On
 * a cluster a player logged in on another node (the lobby's cache of
 * that node) is sent the event there (cluster_club_deliver).
 */
#include <string.h>
#include <strings.h>

#include "server/cluster/cluster.h"
#include "server/cmd/cmd.h"
#include "server/club/club.h"
#include "server/net/limit.h"

/* A name logged in on another node of the cluster: nothing here. */
static struct player social_elsewhere;

/* The connected player named by req->name other than the sender, or
 * NULL with the error sent; &social_elsewhere when it is on another node
 * of the cluster. */
static struct player *
social_target(struct conn *c, const struct proto_request *req)
{
	struct player *p = player_find(c->srv, req->name);

	if (p == c->player ||
	    (c->player != NULL && strcmp(req->name, c->player->name) == 0)) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "that is you: tell and invite are for someone else");
		return NULL;
	}
	/* Nothing is kept for a player who is away: a message held only
	 * in memory would be acknowledged without being stored, and lost
	 * by a restart. The sender is told so and tries again later. */
	if ((p == NULL || p->conn == NULL || p->conn->state != CONN_OPEN) &&
	    cluster_online_elsewhere(c->srv, req->name))
		return &social_elsewhere;
	if (p == NULL || p->conn == NULL || p->conn->state != CONN_OPEN) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "%s is not connected now, and nothing is kept for later: "
		    "try again when they are back (who lists who is here)",
		    req->name);
		return NULL;
	}
	return p;
}

/* ev to p, or to name on another node of the cluster. */
static void
social_send(struct conn *c, struct player *p, const char *name, cJSON *ev)
{
	if (p == &social_elsewhere)
		cluster_club_deliver(c->srv, name, ev);
	else
		net_send_msg(p->conn, ev);
}

void
cmd_tell(struct conn *c, const struct proto_request *req)
{
	struct player *p;
	cJSON *ev;

	if (!cmd_chat_fits(c, req) || (p = social_target(c, req)) == NULL)
		return;
	conn_reply(c, proto_reply(req));
	ev = proto_event(PROTO_EV_TOLD, NULL, 0);
	cJSON_AddStringToObject(ev, "from", c->player->name);
	cJSON_AddStringToObject(ev, "text", req->text);
	social_send(c, p, req->name, ev);
	cJSON_Delete(ev);
}

void
cmd_invite(struct conn *c, const struct proto_request *req)
{
	struct room *r = cmd_room_arg(c, req);
	struct player *p;
	cJSON *ev;

	if (r == NULL)
		return;
	if (room_seat_of(r, c->player) < 0 && !room_is_watcher(r, c->player)) {
		conn_error(
		    c, req, PROTO_E_NOT_IN_ROOM, "you are not in %s", r->id);
		return;
	}
	if ((p = social_target(c, req)) == NULL)
		return;
	conn_reply(c, proto_reply(req));
	ev = proto_event(PROTO_EV_INVITED, NULL, 0);
	cJSON_AddStringToObject(ev, "from", c->player->name);
	cJSON_AddStringToObject(ev, "room", r->id);
	cJSON_AddStringToObject(ev, "game", r->g->name);
	cJSON_AddStringToObject(ev, "status",
	    proto_room_status_name((enum proto_room_status)r->status));
	cJSON_AddBoolToObject(ev, "private", r->is_private);
	social_send(c, p, req->name, ev);
	cJSON_Delete(ev);
}
