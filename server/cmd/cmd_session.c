/*
 * cmd_session.c: the verbs of a connection's own conversation: hello
 * (logging in and resuming seats), mine (those seats again), ping, quit
 * and mode.
 */
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "server/club/seek.h"
#include "server/club/tourney.h"
#include "server/cmd/cmd.h"
#include "server/club/club.h"
#include "server/net/limit.h"
#include "server/store/storeq.h"
#include "server/store/store.h"

/* A room as hello lists it: the rooms verb's summary, with its seq,
 * privacy and whose turn it is. */
static cJSON *
cmd_hello_summary(const struct room *r)
{
	cJSON *o = room_summary(r);

	cJSON_AddItemToObject(o, "turn",
	    r->status == ROOM_PLAYING || r->status == ROOM_ADJOURNED
	        ? cJSON_CreateString(r->g->seat_names[r->g->turn(r->st)])
	        : cJSON_CreateNull());
	proto_add_int(o, "seq", r->seq);
	cJSON_AddBoolToObject(o, "private", r->is_private);
	return o;
}

/* The game in r that seat lost by abandonment while away (the opponent
 * claimed it), as hello tells of it: the room, its game, the winner and
 * a sentence; NULL when r is not such a game. */
static cJSON *
cmd_hello_abandoned(const struct room *r, int seat)
{
	const char *reason =
	    cJSON_GetStringValue(cJSON_GetObjectItem(r->result, "reason"));
	const char *winner =
	    cJSON_GetStringValue(cJSON_GetObjectItem(r->result, "winner"));
	const char *wname =
	    cJSON_GetStringValue(cJSON_GetObjectItem(r->result, "winner_name"));
	cJSON *o;

	if (r->status != ROOM_ENDED || reason == NULL ||
	    strcmp(reason, "abandonment") != 0 || winner == NULL ||
	    strcmp(winner, r->g->seat_names[seat]) == 0)
		return NULL;
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "room", r->id);
	cJSON_AddStringToObject(o, "game", r->g->name);
	cJSON_AddStringToObject(o, "winner", winner);
	if (wname != NULL)
		cJSON_AddStringToObject(o, "winner_name", wname);
	else
		cJSON_AddNullToObject(o, "winner_name");
	proto_sentence(o, "message",
	    "While you were away, %s claimed %s (%s): you lost it by "
	    "abandonment.",
	    wname != NULL ? wname : winner, r->id, r->g->title);
	return o;
}

static void cmd_hello_in(struct conn *c, const struct proto_request *req,
    const struct store_identity *id, const char *token, int is_new);
static password_done_fn cmd_hello_password;

void
cmd_hello(struct conn *c, const struct proto_request *req)
{
	char token[PLAYER_TOKEN_BYTES * 2 + 1] = "";
	struct store_identity id;
	int is_new, rc;

	if (c->player != NULL) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "already logged in as %s", c->player->name);
		return;
	}
	if (c->srv->cluster_ops != NULL &&
	    !c->srv->cluster_ops->ready(c->srv)) {
		conn_error(c, req, PROTO_E_NOT_READY, "%s",
		    proto_error_message(PROTO_E_NOT_READY));
		return;
	}
	if (!player_name_valid(req->name)) {
		conn_error(c, req, PROTO_E_BAD_NAME,
		    "a name is 1 to 16 letters, digits, '_' or '-'");
		return;
	}
	if (sanction_name_banned(c->srv, req->name)) {
		limit_log(c->srv, "conn %llu %s: hello as %s refused: banned",
		    (unsigned long long)c->id, c->addr, req->name);
		conn_error(c, req, PROTO_E_BANNED,
		    "an operator banned %s from this server", req->name);
		net_close(c, 1);
		return;
	}
	rc = player_authenticate(
	    c, req, token, sizeof token, &id, &is_new, cmd_hello_password);
	if (rc != 0)
		return; /* refused, or a password being checked */
	cmd_hello_in(c, req, &id, is_new ? token : req->token, is_new);
}

/* A hello's password checked, back on the loop: a wrong one counts as a
 * failed login; the right one gets a new token for this machine, kept
 * (PASSWORD_DEVICES) in the change that logs in. */
static void
cmd_hello_password(struct conn *c, struct password_result *res)
{
	char token[PLAYER_TOKEN_BYTES * 2 + 1], hash[PLAYER_HASH_HEX];

	if (!res->ok) {
		player_failed(c, &res->req, res->id.name, PROTO_E_BAD_PASSWORD,
		    "wrong password for that name");
		return;
	}
	if (storeq_failing(c->srv->storeq)) {
		conn_error(c, &res->req, PROTO_E_STORE_FAILING,
		    "the server cannot store games right now; try again "
		    "shortly");
		return;
	}
	player_token_new(token, sizeof token);
	player_token_hash(token, hash);
	password_device_put(c->srv, res->id.name, hash);
	cmd_hello_in(c, &res->req, &res->id, token, 0);
	sodium_memzero(token, sizeof token);
}

/* Log c in as identity *id (its name as registered), token the one its
 * reply gives back, is_new when hello just made it. */
static void
cmd_hello_in(struct conn *c, const struct proto_request *req,
    const struct store_identity *id_in, const char *token, int is_new)
{
	struct store_identity id = *id_in;
	struct player *p;
	struct room *r, *latest = NULL, **held;
	cJSON *rep, *rooms, *lost, *one;
	int i, n;

	p = player_get(c->srv, id.name);
	/* Whom the player blocks, as stored (perhaps changed on another
	 * node since they were last here). */
	if (block_load(c->srv, p) != 0) {
		conn_error(c, req, PROTO_E_INTERNAL, "the store failed");
		player_release(c->srv, p);
		return;
	}
	rating_load(c->srv, p); /* for who; a failure is logged, not fatal */
	p->played = p->played || id.played;
	/* what the club's rating rules ask of an identity (rating.c) */
	p->created_ms = id.created_ms;
	snprintf(p->addr, sizeof p->addr, "%s",
	    c->lim_addr != NULL ? c->lim_addr->key : "");
	/* Queued like any write: the reply waits for its commit. */
	if (!p->played && !is_new)
		storeq_identity_seen(c->srv->storeq, p->name, clock_now_ms());
	player_replace(p);
	p->conn = c;
	c->player = p;
	c->lean = req->events != NULL && strcmp(req->events, "lean") == 0;
	c->lobby = req->has_lobby && req->is_lobby;
	c->lim_name = limit_name(c->srv, p->name);
	if (c->lim_name != NULL)
		c->lim_name->refs++;
	session_logged_in(c);
	if (c->srv->cluster_ops != NULL)
		c->srv->cluster_ops->hello(c);
	log_info("%s logged in from %s (conn %llu)", p->name, c->addr,
	    (unsigned long long)c->id);

	rep = proto_reply(req);
	cJSON_AddStringToObject(rep, "name", p->name);
	cJSON_AddStringToObject(rep, "token", token);
	cJSON_AddBoolToObject(rep, "new", is_new);
	if (req->events != NULL)
		cJSON_AddStringToObject(rep, "events", req->events);
	held = room_sorted(p, &n);
	/* Back in every seat first, so the rooms listed show it (the
	 * events this sends wait until the reply is out). */
	for (i = 0; i < n; i++)
		if (room_seat_of(held[i], p) >= 0)
			room_player_back(held[i], p);
	rooms = cJSON_AddArrayToObject(rep, "rooms");
	lost = cJSON_AddArrayToObject(rep, "abandoned");
	for (i = 0; i < n; i++) {
		r = held[i];
		if (room_seat_of(r, p) >= 0 &&
		    (one = cmd_hello_abandoned(r, room_seat_of(r, p))) != NULL)
			cJSON_AddItemToArray(lost, one);
		if (room_seat_of(r, p) < 0 || r->status == ROOM_ENDED)
			continue;
		/* A summary, not the state: a reply that never grows with
		 * the games (the client asks state per room). */
		cJSON_AddItemToArray(rooms, cmd_hello_summary(r));
		if (latest == NULL || r->updated_ms >= latest->updated_ms)
			latest = r;
	}
	if (c->srv->cluster_ops != NULL)
		c->srv->cluster_ops->hello_rooms(c->srv, p, rooms);
	conn_reply(c, rep);
	c->current = latest;
	free(held);
	seek_logged_in(c->srv, p);
	tourney_logged_in(c->srv, p);
	message_deliver(c);
}

/* Who sits against seat in r, for mine: a player's name, "bot level N",
 * or NULL while the other seats are free. */
static cJSON *
cmd_mine_opponent(const struct room *r, int seat)
{
	char bot[32];
	int s;

	for (s = 0; s < r->g->seats; s++) {
		if (s == seat)
			continue;
		if (r->seats[s].player != NULL)
			return cJSON_CreateString(r->seats[s].player->name);
		if (r->seats[s].bot > 0) {
			snprintf(
			    bot, sizeof bot, "bot level %d", r->seats[s].bot);
			return cJSON_CreateString(bot);
		}
	}
	return cJSON_CreateNull();
}

/* The tournament games that wait for p to sit down (tourney_mine), each
 * with its room's summary (status, seats, ...) when the room is here. */
static void
cmd_mine_tourney(struct server *srv, const struct player *p, cJSON *rooms)
{
	cJSON *waiting = cJSON_CreateArray(), *one, *sum, *it;
	const struct room *r;

	tourney_mine(srv, p, waiting);
	while ((one = cJSON_DetachItemFromArray(waiting, 0)) != NULL) {
		r = room_find(srv,
		    cJSON_GetStringValue(cJSON_GetObjectItem(one, "room")));
		if (r != NULL) {
			sum = cmd_hello_summary(r);
			cJSON_ArrayForEach(it, sum)
				if (!cJSON_HasObjectItem(one, it->string))
					cJSON_AddItemToObject(one, it->string,
					    cJSON_Duplicate(it, 1));
			cJSON_Delete(sum);
		}
		cJSON_AddItemToArray(rooms, one);
	}
	cJSON_Delete(waiting);
}

/* The unfinished games where the player holds a seat, as hello lists
 * them, each with the seat, the opponent and whether it is their move:
 * what a telnet player asks when several games run at once. */
void
cmd_mine(struct conn *c, const struct proto_request *req)
{
	cJSON *rep = proto_reply(req), *rooms, *one;
	struct room **held;
	int i, n, seat;

	rooms = cJSON_AddArrayToObject(rep, "rooms");
	held = room_sorted(c->player, &n);
	for (i = 0; i < n; i++) {
		seat = room_seat_of(held[i], c->player);
		if (seat < 0 || held[i]->status == ROOM_ENDED)
			continue;
		one = cmd_hello_summary(held[i]);
		cJSON_AddStringToObject(
		    one, "seat", held[i]->g->seat_names[seat]);
		cJSON_AddItemToObject(
		    one, "opponent", cmd_mine_opponent(held[i], seat));
		cJSON_AddBoolToObject(one, "your_turn",
		    held[i]->status == ROOM_PLAYING &&
		        held[i]->g->turn(held[i]->st) == seat);
		cJSON_AddItemToArray(rooms, one);
	}
	free(held);
	cmd_mine_tourney(c->srv, c->player, rooms);
	if (c->srv->cluster_ops != NULL)
		c->srv->cluster_ops->hello_rooms(c->srv, c->player, rooms);
	conn_reply(c, rep);
}

/* Whether this node takes logins and stores games now: a cluster node
 * that reaches Redis (or a node alone), whose store is not failing. A
 * load balancer's health check asks ping (contrib/haproxy-tablero.cfg). */
static int
cmd_ping_ready(const struct server *srv)
{
	const struct cluster_ops *cl = srv->cluster_ops;

	return (cl == NULL || cl->ready(srv)) && !storeq_failing(srv->storeq);
}

void
cmd_ping(struct conn *c, const struct proto_request *req)
{
	cJSON *rep = proto_reply(req);

	/* Constant keys, not copied: the busiest reply allocates less. */
	cJSON_AddItemToObjectCS(rep, "pong", cJSON_CreateTrue());
	cJSON_AddItemToObjectCS(rep, "time", proto_int(clock_now_ms()));
	cJSON_AddItemToObjectCS(
	    rep, "ready", cJSON_CreateBool(cmd_ping_ready(c->srv)));
	conn_reply(c, rep);
}

void
cmd_quit(struct conn *c, const struct proto_request *req)
{
	cJSON *rep = proto_reply(req);

	cJSON_AddStringToObject(rep, "message", "bye");
	if (c->player != NULL && c->srv->seeks != NULL)
		seek_remove_player(c->srv->seeks, c->player->name);
	conn_reply(c, rep);
	net_close(c, 1);
}

/* Switch output mode; the reply already speaks the new one. */
void
cmd_mode(struct conn *c, const struct proto_request *req)
{
	cJSON *rep = proto_reply(req);

	c->mode =
	    strcmp(req->mode, "text") == 0 ? CONN_MODE_TEXT : CONN_MODE_JSON;
	cJSON_AddStringToObject(rep, "mode", req->mode);
	conn_reply(c, rep);
}
