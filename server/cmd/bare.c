/*
 * bare.c: what a person types on telnet that is not quite a request. A
 * shorthand line whose first word is no verb, from a player seated in a
 * running game in their current room, is the move it spells there ("A2",
 * "b6", "3,4 up" mean "move A2"...); a spectator who types one is told
 * they watch; hello typed by someone logged in is answered as such, not
 * with a missing field. And in text mode, an event that leaves it a
 * player's turn is followed by a prompt line for them; in both modes the
 * room of an invitation is remembered, for a join without a room.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/cmd/cmd.h"
#include "server/club/club.h"
#include "server/net/limit.h"

/* What a bare move is short for. */
#define BARE_PREFIX "move "

/* Decode the line again as "move LINE" into mv; its result. */
static enum proto_error
bare_as_move(const char *line, size_t len, struct proto_request *mv, char *err,
    size_t errlen)
{
	size_t plen = strlen(BARE_PREFIX);
	char *buf = xmalloc(plen + len + 1);
	enum proto_error e;

	memcpy(buf, BARE_PREFIX, plen);
	memcpy(buf + plen, line, len);
	buf[plen + len] = '\0';
	memset(mv, 0, sizeof *mv);
	e = proto_decode(buf, plen + len, mv, err, errlen);
	free(buf);
	return e;
}

/* A request the decoder refused with e (err its reason): the same
 * refusal, a better one for a person, or, for a bare move, the move
 * request decoded in req (PROTO_OK). In the player's turn a line that is
 * no move there either stays an unknown command, saying why it is no
 * move; out of turn the move is refused as any move would be. */
enum proto_error
bare_line(struct conn *c, const char *line, size_t len,
    struct proto_request *req, enum proto_error e, char *err, size_t errlen)
{
	struct room *r = c->current;
	struct player *p = c->player;
	struct proto_request mv;
	struct rules_move m;
	char why[RULES_ERR_MAX];
	int seat;

	if (!req->shorthand || p == NULL)
		return e;
	if (e == PROTO_E_BAD_REQUEST && req->verb == PROTO_HELLO) {
		proto_errf(
		    err, errlen, "you are logged in already, as %s", p->name);
		return PROTO_E_NOT_ALLOWED;
	}
	if (e != PROTO_E_UNKNOWN_CMD || r == NULL)
		return e;
	if ((seat = room_seat_of(r, p)) < 0) {
		if (room_is_watcher(r, p))
			proto_errf(err, errlen,
			    "you are watching %s: only its players move "
			    "(help lists the commands)",
			    r->id);
		return e;
	}
	if (r->status != ROOM_PLAYING)
		return e;
	if (bare_as_move(line, len, &mv, why, sizeof why) != PROTO_OK) {
		proto_request_free(&mv);
		return e;
	}
	if (r->g->turn(r->st) == seat &&
	    r->g->parse_move(r->st, mv.move, &m, why, sizeof why) != 0) {
		proto_errf(err, errlen,
		    "unknown command '%s', and no move in %s either: %s "
		    "(help lists the commands)",
		    req->cmd != NULL ? req->cmd : "?", r->id, why);
		proto_request_free(&mv);
		return e;
	}
	proto_request_free(req);
	*req = mv;
	return PROTO_OK;
}

/* 1 for the events after which the side to move may have changed. */
static int
bare_turn_event(const char *name)
{
	return strcmp(name, "moved") == 0 || strcmp(name, "started") == 0 ||
	    strcmp(name, "undone") == 0 || strcmp(name, "restarted") == 0 ||
	    strcmp(name, "opponent_back") == 0;
}

/* A text-mode player was just sent msg: when it is an event of a room
 * where they are seated and it is now their move, say so on a line of its
 * own, with a legal move as the example ("Your move in r1, like b6."). */
static void
bare_prompt(struct conn *c, const cJSON *msg)
{
	static struct rules_move moves[RULES_MAX_MOVES];
	const char *ev =
	    cJSON_GetStringValue(cJSON_GetObjectItem(msg, "event"));
	const char *id = cJSON_GetStringValue(cJSON_GetObjectItem(msg, "room"));
	char line[SERVER_SENTENCE_MAX], like[SERVER_MOVE_TEXT_MAX];
	struct room *r;
	int seat, n;

	if (c->mode != CONN_MODE_TEXT || c->player == NULL || ev == NULL ||
	    id == NULL || !bare_turn_event(ev) ||
	    (r = room_find(c->srv, id)) == NULL || r->status != ROOM_PLAYING ||
	    (seat = room_seat_of(r, c->player)) < 0 ||
	    r->g->turn(r->st) != seat)
		return;
	n = r->g->legal_moves(r->st, moves, RULES_MAX_MOVES);
	if (n <= 0)
		return;
	r->g->format_move(r->st, moves[0], like, sizeof like);
	snprintf(
	    line, sizeof line, "Your move in %s (like %s):\n", r->id, like);
	net_send(c, line, strlen(line));
}

/* msg was sent to c: an invitation is remembered for a join without a
 * room (cmd_room.c), and in text mode a turn may be prompted. */
void
bare_sent(struct conn *c, const cJSON *msg)
{
	const char *ev =
	    cJSON_GetStringValue(cJSON_GetObjectItem(msg, "event"));
	const char *id = cJSON_GetStringValue(cJSON_GetObjectItem(msg, "room"));

	if (c->player != NULL && ev != NULL && id != NULL &&
	    strcmp(ev, "invited") == 0)
		snprintf(
		    c->player->invited, sizeof c->player->invited, "%s", id);
	bare_prompt(c, msg);
}
