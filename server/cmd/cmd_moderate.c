/*
 * cmd_moderate.c: the operators' verbs, for the identities --admin
 * names: kick NAME (close their connection), mute NAME [MINUTES] and
 * unmute NAME (no chat, tell or invite of theirs), ban NAME and ban
 * ADDRESS[/BITS] with unban (no login, no connection from there), bans
 * (what is in force) and announce TEXT (to everyone online). Every act
 * is logged and stored (admin_log) before its reply; bans and mutes
 * are stored too and survive a restart (sanction.c). An operator
 * cannot sanction another operator, nor ban their own address.
 *
 * On a cluster, an announcement reaches the other nodes' players through
 * player_send; kick, ban and mute act on this node's memory: a kick or
 * a ban closes only connections of this node, another node reads an
 * identity's ban or mute at that player's next login there (sanction.c)
 * and an address ban at its next start (docs/PROTOCOL.md says so).
 */
#include <string.h>
#include <strings.h>

#include "server/cmd/cmd.h"

/* 0 when c's player is an operator, else -1 after refusing req. */
static int
cmd_moderate_admin(struct conn *c, const struct proto_request *req)
{
	if (!c->guest && sanction_is_admin(c->srv, c->player->name))
		return 0;
	conn_error(c, req, PROTO_E_NOT_ALLOWED,
	    "only the server's operators (tablerod --admin) may %s",
	    proto_verb_name(req->verb));
	return -1;
}

/* The identity an operator acts on, as registered, into out: not the
 * operator, nor another operator. 0, or -1 after replying. */
static int
cmd_moderate_target(struct conn *c, const struct proto_request *req,
    const char *name, char out[SERVER_NAME_MAX + 1])
{
	if (name == NULL) {
		conn_error(c, req, PROTO_E_BAD_REQUEST,
		    "%s NAME: a name is required", proto_verb_name(req->verb));
		return -1;
	}
	if (cmd_known_name(c, req, name, out, SERVER_NAME_MAX + 1) != 0)
		return -1;
	if (sanction_is_admin(c->srv, out)) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "%s is an operator of this server (--admin)", out);
		return -1;
	}
	return 0;
}

/* Close o with a last error line (re null) saying why. */
static void
cmd_moderate_close(struct conn *o, enum proto_error e, const char *why)
{
	conn_error(o, NULL, e, "%s", why);
	net_close(o, 1);
}

/* The connection of the player called name on this node, or NULL. */
static struct conn *
cmd_moderate_conn(struct server *srv, const char *name)
{
	struct player *p = player_find(srv, name);

	if (p == NULL || p->conn == NULL || p->conn->state != CONN_OPEN)
		return NULL;
	return p->conn;
}

void
cmd_kick(struct conn *c, const struct proto_request *req)
{
	char name[SERVER_NAME_MAX + 1];
	struct conn *o;
	cJSON *rep;

	if (cmd_moderate_admin(c, req) != 0 ||
	    cmd_moderate_target(c, req, req->name, name) != 0)
		return;
	if ((o = cmd_moderate_conn(c->srv, name)) == NULL) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    c->srv->cluster_ops != NULL && player_online(c->srv, name)
		        ? "%s is connected to another node of the cluster: "
		          "kick them there"
		        : "%s is not connected",
		    name);
		return;
	}
	sanction_log(c->srv, c->player->name, "kick", name, "");
	rep = proto_reply(req);
	cJSON_AddStringToObject(rep, "name", name);
	conn_reply(c, rep);
	cmd_moderate_close(
	    o, PROTO_E_KICKED, "an operator closed your connection");
}

void
cmd_mute(struct conn *c, const struct proto_request *req)
{
	struct sanction s;
	char detail[48];
	cJSON *rep;

	if (cmd_moderate_admin(c, req) != 0)
		return;
	if (req->has_minutes &&
	    (req->minutes < 1 || req->minutes > SERVER_MUTE_MINUTES_MAX)) {
		conn_error(c, req, PROTO_E_BAD_REQUEST,
		    "minutes is 1 to %d (without it: until unmute)",
		    SERVER_MUTE_MINUTES_MAX);
		return;
	}
	memset(&s, 0, sizeof s);
	if (cmd_moderate_target(c, req, req->name, s.target) != 0)
		return;
	s.kind = SANCTION_MUTE;
	s.made_ms = clock_now_ms();
	s.until_ms = req->has_minutes ? s.made_ms + req->minutes * 60000 : 0;
	snprintf(s.admin, sizeof s.admin, "%s", c->player->name);
	if (sanction_add(c->srv, &s) != 0) {
		conn_error(c, req, PROTO_E_LIMIT_REACHED,
		    "%d bans and mutes are in force already (lift some)",
		    SERVER_SANCTIONS_MAX);
		return;
	}
	if (req->has_minutes)
		snprintf(detail, sizeof detail, "%lld minutes", req->minutes);
	else
		snprintf(detail, sizeof detail, "until unmuted");
	sanction_log(c->srv, c->player->name, "mute", s.target, detail);
	rep = proto_reply(req);
	cJSON_AddStringToObject(rep, "name", s.target);
	if (req->has_minutes) {
		cJSON_AddNumberToObject(rep, "minutes", (double)req->minutes);
		cJSON_AddNumberToObject(rep, "until", (double)s.until_ms);
	}
	conn_reply(c, rep);
}

void
cmd_unmute(struct conn *c, const struct proto_request *req)
{
	char shown[sizeof((struct sanction *)0)->target];
	cJSON *rep;

	if (cmd_moderate_admin(c, req) != 0)
		return;
	if (sanction_del(c->srv, SANCTION_MUTE, req->name, shown) != 0) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "%s is not muted (bans lists the mutes)", req->name);
		return;
	}
	sanction_log(c->srv, c->player->name, "unmute", shown, "");
	rep = proto_reply(req);
	cJSON_AddStringToObject(rep, "name", shown);
	conn_reply(c, rep);
}

/* The address or network a ban or unban names, or NULL for an
 * identity: the address field, or a name field that holds '.' or ':'
 * (no name does: shorthand's one argument). */
static const char *
cmd_moderate_net(const struct proto_request *req)
{
	if (req->address != NULL)
		return req->address;
	if (req->name != NULL && strpbrk(req->name, ".:") != NULL)
		return req->name;
	return NULL;
}

/* ban ADDRESS[/BITS]: every connection from there is closed now and
 * refused from now on. */
static void
cmd_ban_net(struct conn *c, const struct proto_request *req, const char *net)
{
	struct sanction s;
	struct conn *o;
	cJSON *rep;
	int closed = 0;

	memset(&s, 0, sizeof s);
	if (sanction_parse_net(net, &s) != 0) {
		conn_error(c, req, PROTO_E_BAD_REQUEST,
		    "'%s' is no address: ban ADDRESS[/BITS], IPv4 or IPv6 "
		    "(ban 192.0.2.7, ban 2001:db8::/32)",
		    net);
		return;
	}
	s.kind = SANCTION_BANADDR;
	s.made_ms = clock_now_ms();
	snprintf(s.admin, sizeof s.admin, "%s", c->player->name);
	if (sanction_net_covers(&s, c->addr)) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "%s holds your own address: an operator does not ban "
		    "themselves",
		    s.target);
		return;
	}
	if (sanction_add(c->srv, &s) != 0) {
		conn_error(c, req, PROTO_E_LIMIT_REACHED,
		    "%d bans and mutes are in force already (lift some)",
		    SERVER_SANCTIONS_MAX);
		return;
	}
	sanction_log(c->srv, c->player->name, "ban", s.target, "address");
	TAILQ_FOREACH(o, &c->srv->conns, entry) {
		if (o == c || o->state != CONN_OPEN ||
		    !sanction_net_covers(&s, o->addr))
			continue;
		cmd_moderate_close(
		    o, PROTO_E_BANNED, "an operator banned your address");
		closed++;
	}
	rep = proto_reply(req);
	cJSON_AddStringToObject(rep, "address", s.target);
	cJSON_AddNumberToObject(rep, "closed", closed);
	conn_reply(c, rep);
}

void
cmd_ban(struct conn *c, const struct proto_request *req)
{
	const char *net = cmd_moderate_net(req);
	struct sanction s;
	struct conn *o;
	cJSON *rep;

	if (cmd_moderate_admin(c, req) != 0)
		return;
	if (net != NULL) {
		cmd_ban_net(c, req, net);
		return;
	}
	memset(&s, 0, sizeof s);
	if (cmd_moderate_target(c, req, req->name, s.target) != 0)
		return;
	s.kind = SANCTION_BAN;
	s.made_ms = clock_now_ms();
	snprintf(s.admin, sizeof s.admin, "%s", c->player->name);
	if (sanction_add(c->srv, &s) != 0) {
		conn_error(c, req, PROTO_E_LIMIT_REACHED,
		    "%d bans and mutes are in force already (lift some)",
		    SERVER_SANCTIONS_MAX);
		return;
	}
	sanction_log(c->srv, c->player->name, "ban", s.target, "identity");
	rep = proto_reply(req);
	cJSON_AddStringToObject(rep, "name", s.target);
	o = cmd_moderate_conn(c->srv, s.target);
	cJSON_AddNumberToObject(rep, "closed", o != NULL);
	conn_reply(c, rep);
	if (o != NULL)
		cmd_moderate_close(o, PROTO_E_BANNED, "an operator banned you");
}

void
cmd_unban(struct conn *c, const struct proto_request *req)
{
	char shown[sizeof((struct sanction *)0)->target];
	const char *net = cmd_moderate_net(req);
	enum sanction_kind kind = SANCTION_BAN;
	const char *target = req->name;
	struct sanction s;
	cJSON *rep;

	if (cmd_moderate_admin(c, req) != 0)
		return;
	if (net != NULL) {
		if (sanction_parse_net(net, &s) != 0) {
			conn_error(c, req, PROTO_E_BAD_REQUEST,
			    "'%s' is no address: unban ADDRESS[/BITS]", net);
			return;
		}
		kind = SANCTION_BANADDR;
		target = s.target;
	}
	if (target == NULL) {
		conn_error(c, req, PROTO_E_BAD_REQUEST,
		    "unban NAME or unban ADDRESS[/BITS]");
		return;
	}
	if (sanction_del(c->srv, kind, target, shown) != 0) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "%s is not banned (bans lists the bans)", target);
		return;
	}
	sanction_log(c->srv, c->player->name, "unban", shown,
	    kind == SANCTION_BANADDR ? "address" : "identity");
	rep = proto_reply(req);
	cJSON_AddStringToObject(
	    rep, kind == SANCTION_BANADDR ? "address" : "name", shown);
	conn_reply(c, rep);
}

void
cmd_bans(struct conn *c, const struct proto_request *req)
{
	cJSON *rep, *bans, *mutes;

	if (cmd_moderate_admin(c, req) != 0)
		return;
	rep = proto_reply(req);
	bans = cJSON_AddArrayToObject(rep, "bans");
	mutes = cJSON_AddArrayToObject(rep, "mutes");
	sanction_json(c->srv, bans, mutes);
	conn_reply(c, rep);
}

/* The announcement to the players of the other nodes of a cluster,
 * through player_send: how many. */
static int
cmd_announce_elsewhere(struct server *srv, const cJSON *ev)
{
	const struct cluster_ops *cl = srv->cluster_ops;
	cJSON *list, *p;
	const char *name;
	int guests = 0, n = 0;

	if (cl == NULL || (list = cJSON_CreateArray()) == NULL)
		return 0;
	cl->lobby_who(srv, list, &guests);
	cJSON_ArrayForEach(p, list) {
		name = cJSON_GetStringValue(cJSON_GetObjectItem(p, "name"));
		if (name == NULL || player_find(srv, name) != NULL)
			continue;
		player_send(srv, name, ev);
		n++;
	}
	cJSON_Delete(list);
	return n;
}

void
cmd_announce(struct conn *c, const struct proto_request *req)
{
	struct net_cache cache = {NULL, NULL, NULL};
	struct conn *o;
	cJSON *ev, *rep;
	int n = 0;

	if (cmd_moderate_admin(c, req) != 0 || !cmd_chat_fits(c, req))
		return;
	sanction_log(c->srv, c->player->name, "announce", "", req->text);
	ev = proto_event(PROTO_EV_ANNOUNCEMENT, NULL, 0);
	cJSON_AddStringToObject(ev, "from", c->player->name);
	cJSON_AddStringToObject(ev, "text", req->text);
	rep = proto_reply(req);
	TAILQ_FOREACH(o, &c->srv->conns, entry)
		if (o->player != NULL && o->state == CONN_OPEN)
			n++;
	n += cmd_announce_elsewhere(c->srv, ev);
	cJSON_AddNumberToObject(rep, "reached", n);
	conn_reply(c, rep);
	TAILQ_FOREACH(o, &c->srv->conns, entry)
		if (o->player != NULL && o->state == CONN_OPEN)
			net_send_cached(o, ev, &cache);
	net_cache_clear(&cache);
	cJSON_Delete(ev);
}
