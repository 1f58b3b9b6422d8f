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
 * player_send; every other act is stored here and sent to every other
 * live node (cluster_ops admin, an "admin" stream entry), which applies
 * it with cmd_moderate_remote: the sanction put in (or lifted from) its
 * memory, and a kicked or banned player connected there closed (their
 * stand-ins everywhere go with the connection). A node that misses the
 * entry (Redis away) reads an identity's ban or mute at that player's
 * next login there (sanction.c) and an address ban at its next start.
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

/* Close o with a last error line (re null) saying why (a literal: its
 * own msgid, conn_error_text). */
static void
cmd_moderate_close(struct conn *o, enum proto_error e, const char *why)
{
	conn_error_text(o, NULL, e, why);
	net_close(o, 1);
}

/* The connection of the player called name on this node, or NULL (a
 * stand-in of another node's player is not theirs: their home's is). */
static struct conn *
cmd_moderate_conn(struct server *srv, const char *name)
{
	struct player *p = player_find(srv, name);

	if (p == NULL || p->conn == NULL || p->conn->state != CONN_OPEN)
		return NULL;
	if (srv->cluster_ops != NULL && srv->cluster_ops->is_standin(p->conn))
		return NULL;
	return p->conn;
}

/* Send an act made here to the cluster's other nodes (nothing alone). */
static void
cmd_moderate_tell(struct server *srv, const char *act, const char *target,
    int64_t until_ms, const char *admin, int64_t made_ms)
{
	if (srv->cluster_ops != NULL)
		srv->cluster_ops->admin(srv, act, target, (long long)until_ms,
		    admin, (long long)made_ms);
}

/* 1 when name is connected to another node of the cluster (or acts here
 * through a stand-in, its connection being elsewhere). */
static int
cmd_moderate_elsewhere(struct server *srv, const char *name)
{
	return srv->cluster_ops != NULL &&
	    cmd_moderate_conn(srv, name) == NULL && player_online(srv, name);
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
	o = cmd_moderate_conn(c->srv, name);
	if (o == NULL && !cmd_moderate_elsewhere(c->srv, name)) {
		conn_error(
		    c, req, PROTO_E_NOT_ALLOWED, "%s is not connected", name);
		return;
	}
	sanction_log(c->srv, c->player->name, "kick", name, "");
	rep = proto_reply(req);
	cJSON_AddStringToObject(rep, "name", name);
	conn_reply(c, rep);
	if (o == NULL) /* their node closes them */
		cmd_moderate_tell(
		    c->srv, "kick", name, 0, c->player->name, clock_now_ms());
	else
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
	cmd_moderate_tell(
	    c->srv, "mute", s.target, s.until_ms, s.admin, s.made_ms);
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
	cmd_moderate_tell(
	    c->srv, "unmute", shown, 0, c->player->name, clock_now_ms());
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
	cmd_moderate_tell(c->srv, "banaddr", s.target, 0, s.admin, s.made_ms);
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
	/* one connected elsewhere is closed by their node */
	cJSON_AddNumberToObject(rep, "closed",
	    o != NULL || cmd_moderate_elsewhere(c->srv, s.target));
	cmd_moderate_tell(c->srv, "ban", s.target, 0, s.admin, s.made_ms);
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
	cmd_moderate_tell(c->srv,
	    kind == SANCTION_BANADDR ? "unbanaddr" : "unban", shown, 0,
	    c->player->name, clock_now_ms());
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

/* The connections of this node from the network of s closed (not
 * stand-ins: their homes are checked there): how many. */
static int
cmd_moderate_close_net(struct server *srv, const struct sanction *s)
{
	struct conn *o;
	int closed = 0;

	TAILQ_FOREACH(o, &srv->conns, entry) {
		if (o->state != CONN_OPEN || !sanction_net_covers(s, o->addr) ||
		    (srv->cluster_ops != NULL &&
		        srv->cluster_ops->is_standin(o)))
			continue;
		cmd_moderate_close(
		    o, PROTO_E_BANNED, "an operator banned your address");
		closed++;
	}
	return closed;
}

/*
 * An operator's act made on another node of the cluster (stored there):
 * act is "kick", "ban", "banaddr", "mute", "unban", "unbanaddr" or
 * "unmute", on target (an identity, or a network "ADDR/BITS"). The
 * sanction is put in or lifted from this node's memory (not stored
 * again), and a kicked or banned player connected here is closed. Came
 * through Redis from a node: checked as any input all the same.
 */
void
cmd_moderate_remote(struct server *srv, const char *act, const char *target,
    long long until_ms, const char *admin, long long made_ms)
{
	struct sanction s;
	struct conn *o;
	int net = strcmp(act, "banaddr") == 0 || strcmp(act, "unbanaddr") == 0;

	memset(&s, 0, sizeof s);
	if (net ? sanction_parse_net(target, &s) != 0
	        : !player_name_valid(target))
		return;
	if (!net)
		snprintf(s.target, sizeof s.target, "%s", target);
	snprintf(s.admin, sizeof s.admin, "%s",
	    player_name_valid(admin) ? admin : "?");
	s.until_ms = until_ms;
	s.made_ms = made_ms;
	if (strcmp(act, "ban") == 0 || strcmp(act, "mute") == 0 ||
	    strcmp(act, "banaddr") == 0) {
		s.kind = act[0] == 'm' ? SANCTION_MUTE
		    : net              ? SANCTION_BANADDR
		                       : SANCTION_BAN;
		if (sanction_hold(srv, &s) != 0)
			log_warn("moderate: %s %s from another node not held: "
			         "%d in force already",
			    act, s.target, SERVER_SANCTIONS_MAX);
	} else if (strcmp(act, "unban") == 0) {
		sanction_drop(srv, SANCTION_BAN, s.target);
	} else if (strcmp(act, "unmute") == 0) {
		sanction_drop(srv, SANCTION_MUTE, s.target);
	} else if (strcmp(act, "unbanaddr") == 0) {
		sanction_drop(srv, SANCTION_BANADDR, s.target);
	} else if (strcmp(act, "kick") != 0) {
		return;
	}
	if (strcmp(act, "banaddr") == 0) {
		log_info("moderate: %s by %s (another node): %d closed here",
		    act, s.admin, cmd_moderate_close_net(srv, &s));
		return;
	}
	if (strcmp(act, "kick") != 0 && strcmp(act, "ban") != 0)
		return;
	if ((o = cmd_moderate_conn(srv, s.target)) == NULL)
		return;
	log_info("moderate: %s %s by %s (another node): closed here", act,
	    s.target, s.admin);
	cmd_moderate_close(o, act[0] == 'k' ? PROTO_E_KICKED : PROTO_E_BANNED,
	    act[0] == 'k' ? "an operator closed your connection"
	                  : "an operator banned you");
}
