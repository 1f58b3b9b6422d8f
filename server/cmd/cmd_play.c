/*
 * cmd_play.c: the verbs of playing: move, resign, draw offers, the
 * one-player undo, restart, next and hint, two-player take-backs, rematch
 * and claim.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ai/ai.h"
#include "server/cmd/cmd.h"
#include "server/club/club.h"
#include "server/club/tourney.h"
#include "server/net/limit.h"
#include "server/store/store.h"

/* The room and the caller's seat in it, for verbs only players may use;
 * NULL after replying the error. */
static struct room *
cmd_player_room(struct conn *c, const struct proto_request *req, int *seat)
{
	struct room *r = cmd_room_arg(c, req);

	if (r == NULL)
		return NULL;
	*seat = room_seat_of(r, c->player);
	if (*seat >= 0)
		return r;
	if (room_is_watcher(r, c->player))
		conn_error(c, req, PROTO_E_NOT_A_PLAYER,
		    "you are watching %s, not playing", r->id);
	else
		conn_error(
		    c, req, PROTO_E_NOT_IN_ROOM, "you are not in %s", r->id);
	return NULL;
}

/* The game must be under way; 0, or -1 after replying the error. */
static int
cmd_need_playing(
    struct conn *c, const struct proto_request *req, struct room *r)
{
	if (r->status == ROOM_PLAYING || r->status == ROOM_ADJOURNED)
		return 0;
	if (r->status == ROOM_ENDED)
		conn_error(
		    c, req, PROTO_E_GAME_OVER, "the game in %s is over", r->id);
	else
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "the game in %s has not started: waiting for a player",
		    r->id);
	return -1;
}

static int
cmd_need_solo(struct conn *c, const struct proto_request *req, struct room *r)
{
	if (r->g->seats == 1)
		return 0;
	conn_error(c, req, PROTO_E_NOT_ALLOWED, "%s only in one-player games",
	    proto_verb_name(req->verb));
	return -1;
}

static int
cmd_need_duo(struct conn *c, const struct proto_request *req, struct room *r)
{
	if (r->g->seats == 2)
		return 0;
	conn_error(c, req, PROTO_E_NOT_ALLOWED, "%s only in two-player games",
	    proto_verb_name(req->verb));
	return -1;
}

/* The longest move reply printed from its template: the members' names,
 * the id, the room's id, the notation and the seq's digits. */
#define CMD_MOVE_REPLY_MAX                                                     \
	(64 + PROTO_ID_MAX + SERVER_ROOM_ID_MAX + SERVER_MOVE_TEXT_MAX + 24)

/* The reply to a JSON client's move, printed from a template as cJSON
 * would print its tree (the busiest reply: no tree to build, print and
 * free). 0, or -1 when the request is not the plain case (a text-mode
 * connection, a cmd spelled otherwise, a notation to escape): then the
 * caller builds the tree. */
static int
cmd_move_reply_line(struct conn *c, const struct proto_request *req,
    const struct room *r, long long seq)
{
	const char *mv = r->hist[r->nhist - 1].notation;
	char line[CMD_MOVE_REPLY_MAX];
	struct proto_line l = {line, sizeof line, 0, 0};

	if (c->mode != CONN_MODE_JSON || req->cmd == NULL ||
	    strcmp(req->cmd, "move") != 0 || !proto_json_plain(mv) ||
	    !proto_json_plain(r->id))
		return -1;
	proto_line_str(&l, "{\"re\":\"move\"");
	if (req->id != NULL) {
		proto_line_str(&l, ",\"id\":");
		proto_line_str(&l, req->id);
	}
	proto_line_str(&l, ",\"ok\":true");
	if (!c->lean) {
		proto_line_str(&l, ",\"room\":\"");
		proto_line_str(&l, r->id);
		proto_line_str(&l, "\",\"move\":\"");
		proto_line_str(&l, mv);
		proto_line_str(&l, "\"");
	}
	proto_line_str(&l, ",\"seq\":");
	proto_line_int(&l, seq);
	proto_line_str(&l, "}\n");
	if (l.full)
		return -1;
	conn_reply_line(c, line, l.len);
	return 0;
}

/* The move's reply as a cJSON tree, for what cmd_move_reply_line does not
 * print. */
static void
cmd_move_reply_tree(struct conn *c, const struct proto_request *req,
    const struct room *r, long long seq)
{
	cJSON *rep = proto_reply(req);

	/* The lean form's reply says only which event is the move: the
	 * moved event carries its room and notation. */
	if (!c->lean) {
		cJSON_AddStringToObject(rep, "room", r->id);
		cJSON_AddStringToObject(
		    rep, "move", r->hist[r->nhist - 1].notation);
	}
	proto_add_int(rep, "seq", seq);
	conn_reply(c, rep);
}

void
cmd_move(struct conn *c, const struct proto_request *req)
{
	char err[RULES_ERR_MAX];
	struct rules_move m;
	struct room *r;
	long long seq;
	int seat;

	if ((r = cmd_player_room(c, req, &seat)) == NULL ||
	    cmd_need_playing(c, req, r) != 0)
		return;
	if (req->has_seq && req->seq != r->seq) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "stale: the room is at seq %lld", r->seq);
		return;
	}
	if (r->g->turn(r->st) != seat) {
		conn_error(c, req, PROTO_E_NOT_YOUR_TURN, "it is %s's turn",
		    r->g->seat_names[r->g->turn(r->st)]);
		return;
	}
	if (r->g->parse_move(r->st, req->move, &m, err, sizeof err) != 0) {
		conn_error(c, req, PROTO_E_ILLEGAL_MOVE, "%s", err);
		return;
	}
	if (room_play(r, seat, m, err, sizeof err) != 0) {
		conn_error(c, req,
		    r->status == ROOM_ENDED ? PROTO_E_GAME_OVER
		                            : PROTO_E_INTERNAL,
		    "%s", err);
		return;
	}
	seq = r->seq;
	if (cmd_move_reply_line(c, req, r, seq) != 0)
		cmd_move_reply_tree(c, req, r, seq);
	room_after_move(r);
	cmd_auto_next(r);
}

void
cmd_resign(struct conn *c, const struct proto_request *req)
{
	struct room *r;
	int seat;

	if ((r = cmd_player_room(c, req, &seat)) == NULL ||
	    cmd_need_playing(c, req, r) != 0)
		return;
	if (r->g->seats == 1)
		room_end(r, "blocked", -1, "resignation");
	else
		room_end(r, "win", 1 - seat, "resignation");
	/* The reply still goes out ahead of the ended event. */
	conn_reply(c, proto_reply(req));
}

static void
cmd_draw_event(struct room *r, enum proto_event_kind e, int seat)
{
	cJSON *ev = room_event(r, e);
	const struct player *p = r->seats[seat].player;

	cJSON_AddStringToObject(ev, "name", p != NULL ? p->name : "bot");
	cJSON_AddStringToObject(ev, "seat", r->g->seat_names[seat]);
	room_broadcast(r, ev);
}

/* An event that asks seat for an answer makes the room current for that
 * player, so the answer works as the prompt says, without a room. */
static void
cmd_answer_here(struct room *r, int seat)
{
	struct player *p = r->seats[seat].player;

	if (p != NULL && p->conn != NULL)
		p->conn->current = r;
}

/* seat asks the opponent (a draw or a take-back): stored, replied, the
 * room made current for the one who answers, and the request announced.
 * *offer holds the asking seat. One offer of each kind per side is
 * pending at a time: a second one is refused until the first is answered
 * or a move cancels it, so an offer costs its opponent one answer, never
 * a flood of events and commits. 1 when the offer was made, 0 when
 * refused. */
static int
cmd_offer(struct conn *c, const struct proto_request *req, struct room *r,
    int seat, int *offer, enum proto_event_kind asked)
{
	if (*offer == seat && asked == PROTO_EV_DRAW_OFFERED) {
		/* one format each offer, so that a client translates it */
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "you have offered a draw already: it is pending until "
		    "your opponent answers or a move is made");
		return 0;
	}
	if (*offer == seat) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "you have offered a take-back already: it is pending "
		    "until your opponent answers or a move is made");
		return 0;
	}
	room_commit(r, 1, 0);
	conn_reply(c, proto_reply(req));
	*offer = seat;
	cmd_answer_here(r, 1 - seat);
	cmd_draw_event(r, asked, seat);
	return 1;
}

/* The bot in seat `bot` declines the pending offer *offer: stored, then
 * announced with the declined event. */
static void
cmd_bot_declines(struct room *r, int bot, int *offer, enum proto_event_kind e)
{
	room_commit(r, 1, 0);
	*offer = -1;
	cmd_draw_event(r, e, bot);
}

/* Whether the bot in seat `bot` accepts a draw: its last search in this
 * game scored its side drawn or lost by a margin (ai_bot_accepts_draw);
 * before its first move it has no score and declines. */
static int
cmd_bot_accepts_draw(const struct room *r, int bot)
{
	const struct room_seat *s = &r->seats[bot];

	return s->bot_score_game == r->game_no &&
	    ai_bot_accepts_draw(r->g, s->bot_score);
}

void
cmd_draw(struct conn *c, const struct proto_request *req)
{
	struct room *r;
	int seat;

	if ((r = cmd_player_room(c, req, &seat)) == NULL ||
	    cmd_need_duo(c, req, r) != 0 || cmd_need_playing(c, req, r) != 0)
		return;
	if (strcmp(req->action, "offer") == 0 && r->g->no_draw_offers) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "%s has no draws: the game always has a winner (resign "
		    "to give up)",
		    r->g->title);
		return;
	}
	if (strcmp(req->action, "offer") == 0) {
		if (!cmd_offer(c, req, r, seat, &r->draw_offer,
		        PROTO_EV_DRAW_OFFERED) ||
		    r->seats[1 - seat].bot == 0)
			return;
		if (cmd_bot_accepts_draw(r, 1 - seat))
			room_end(r, "draw", -1, "draw by agreement");
		else
			cmd_bot_declines(r, 1 - seat, &r->draw_offer,
			    PROTO_EV_DRAW_DECLINED);
		return;
	}
	if (r->draw_offer != 1 - seat) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "your opponent has not offered a draw");
		return;
	}
	if (strcmp(req->action, "accept") == 0)
		room_end(r, "draw", -1, "draw by agreement");
	else
		room_commit(r, 1, 0);
	conn_reply(c, proto_reply(req));
	if (r->status != ROOM_ENDED) {
		r->draw_offer = -1;
		cmd_draw_event(r, PROTO_EV_DRAW_DECLINED, seat);
	}
}

/* A position the rules say is over (a blocked start) is announced as
 * ended, with no turn, as a moved event would; the ended event follows. */
static void
cmd_status_from_rules(const struct room *r, cJSON *ev)
{
	struct rules_status st;

	rules_status(r->g, r->st, &st);
	if (st.result == RULES_PLAYING)
		return;
	cJSON_ReplaceItemInObject(ev, "status", cJSON_CreateString("ended"));
	cJSON_ReplaceItemInObject(ev, "turn", cJSON_CreateNull());
}

/* The event that tells the room the position changed without a move
 * (undo, restart, an accepted take-back), not sent yet. */
static cJSON *
cmd_position_json(struct room *r, enum proto_event_kind e)
{
	cJSON *ev = room_event(r, e);
	cJSON *st = room_state(r), *it;

	for (it = st->child; it != NULL; it = it->next) {
		if (strcmp(it->string, "position") == 0 ||
		    strcmp(it->string, "board") == 0 ||
		    strcmp(it->string, "turn") == 0 ||
		    strcmp(it->string, "status") == 0)
			cJSON_AddItemToObject(
			    ev, it->string, cJSON_Duplicate(it, 1));
	}
	cJSON_Delete(st);
	cmd_status_from_rules(r, ev);
	room_add_picture(r, ev);
	return ev;
}

/* Tell the room the position changed without a move (undo, restart). */
static void
cmd_position_event(struct room *r, enum proto_event_kind e)
{
	room_broadcast(r, cmd_position_json(r, e));
}

static void cmd_level_start(struct room *r);

/* Go back to the first n moves of the current game (with level_start, to
 * the start of its level: cmd_level_start), in the store too (in one
 * transaction, with the seq of the event to come). The game is under way
 * again until the rules say otherwise: the caller's room_after_move ends
 * it when that position is already over. */
static void
cmd_rewind(struct room *r, int n, int level_start)
{
	room_replay(r, n);
	if (level_start)
		cmd_level_start(r);
	if (r->status == ROOM_ENDED) {
		r->status = ROOM_PLAYING;
		cJSON_Delete(r->result);
		r->result = NULL;
	}
	room_commit(r, 1, n + 1);
}

/* How many moves stay when seat's last move and every move after it are
 * taken back (so that seat is to move again); -1 when seat has none. */
static int
cmd_takeback_keep(const struct room *r, int seat)
{
	int i;

	for (i = r->nhist - 1; i >= 0; i--)
		if (r->hist[i].seat == seat)
			return i;
	return -1;
}

/* The clocks as they were after the first n moves (the last of them
 * that ran a clock), or as they started. */
static void
cmd_takeback_clocks(struct room *r, int n)
{
	int i;

	if (r->clock_initial_ms <= 0)
		return;
	r->clock_ms[0] = r->clock_ms[1] = r->clock_initial_ms;
	for (i = n - 1; i >= 0; i--)
		if (r->hist[i].clock_ms[0] >= 0 &&
		    r->hist[i].clock_ms[1] >= 0) {
			r->clock_ms[0] = r->hist[i].clock_ms[0];
			r->clock_ms[1] = r->hist[i].clock_ms[1];
			break;
		}
	r->turn_start_ms = room_clock_now(r);
}

/* The accepted take-back of seat's last move: the room goes back to its
 * first n moves, in the store too (truncated as undo does, in one group
 * with the event's seq), then an undone event says who and how many; c
 * (with req) is the one who accepted, NULL for a bot. */
static void
cmd_takeback_accept(struct conn *c, const struct proto_request *req,
    struct room *r, int seat, int n)
{
	const struct player *p = r->seats[seat].player;
	int taken = r->nhist - n;
	cJSON *ev;

	room_replay(r, n);
	cmd_takeback_clocks(r, n);
	r->takeback_offer = -1;
	room_commit(r, 1, n + 1);
	if (c != NULL)
		conn_reply(c, proto_reply(req));
	ev = cmd_position_json(r, PROTO_EV_UNDONE);
	cJSON_AddStringToObject(ev, "name", p != NULL ? p->name : "bot");
	cJSON_AddStringToObject(ev, "seat", r->g->seat_names[seat]);
	cJSON_AddNumberToObject(ev, "moves", taken);
	room_broadcast(r, ev);
	room_after_move(r);
}

void
cmd_takeback(struct conn *c, const struct proto_request *req)
{
	struct room *r;
	int seat, n;

	if ((r = cmd_player_room(c, req, &seat)) == NULL ||
	    cmd_need_duo(c, req, r) != 0 || cmd_need_playing(c, req, r) != 0)
		return;
	if (strcmp(req->action, "offer") == 0) {
		if (cmd_takeback_keep(r, seat) < 0) {
			conn_error(c, req, PROTO_E_NOT_ALLOWED,
			    "you have played no move to take back");
			return;
		}
		if (!cmd_offer(c, req, r, seat, &r->takeback_offer,
		        PROTO_EV_TAKEBACK_OFFERED) ||
		    r->seats[1 - seat].bot == 0)
			return;
		/* A bot grants take-backs in unrated games only: in a rated
		 * one they would change what the rating measures. */
		if (r->rated != 1)
			cmd_takeback_accept(
			    NULL, NULL, r, seat, cmd_takeback_keep(r, seat));
		else
			cmd_bot_declines(r, 1 - seat, &r->takeback_offer,
			    PROTO_EV_TAKEBACK_DECLINED);
		return;
	}
	if (r->takeback_offer != 1 - seat ||
	    (n = cmd_takeback_keep(r, 1 - seat)) < 0) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "your opponent has not asked to take back a move");
		return;
	}
	if (strcmp(req->action, "accept") == 0) {
		cmd_takeback_accept(c, req, r, 1 - seat, n);
		return;
	}
	room_commit(r, 1, 0);
	conn_reply(c, proto_reply(req));
	r->takeback_offer = -1;
	cmd_draw_event(r, PROTO_EV_TAKEBACK_DECLINED, seat);
}

/* The start of the level the room's game was made from, as options for a
 * game that begins there: a level file saved mid-level has an earlier
 * start than its board (rules' restart). The options as they are when the
 * game's start is its level's start (or the game has no levels). */
static cJSON *
cmd_level_start_options(const struct room *r)
{
	char *buf;
	void *st;
	cJSON *o = cJSON_Duplicate(r->options, 1);

	if (r->g->restart == NULL)
		return o;
	st = xmalloc(r->g->state_size);
	memcpy(st, r->start, r->g->state_size);
	r->g->restart(st);
	if (memcmp(st, r->start, r->g->state_size) != 0) {
		buf = xmalloc(RULES_TEXT_MAX);
		if (r->g->to_position(st, buf, RULES_TEXT_MAX) >= 0) {
			/* The level's start as a position: it replays the
			 * very same level, also after a server restart. */
			cJSON_DeleteItemFromObject(o, RULES_OPT_FILE);
			cJSON_DeleteItemFromObject(o, RULES_OPT_POSITION);
			cJSON_AddStringToObject(o, RULES_OPT_POSITION, buf);
		}
		free(buf);
	}
	free(st);
	return o;
}

/* restart in a game made from a level file saved mid-level goes back to
 * the level's start, not to the board it was loaded with: the room's
 * options then give that start as its position (stored with the room by
 * the caller's commit). */
static void
cmd_level_start(struct room *r)
{
	char err[RULES_ERR_MAX];
	cJSON *o = cmd_level_start_options(r);

	if (cJSON_Compare(o, r->options, 1)) {
		cJSON_Delete(o);
		return;
	}
	if (room_reset_options(r, o, err, sizeof err) != 0)
		log_error(
		    "room %s: restart at the level's start: %s", r->id, err);
}

void
cmd_undo(struct conn *c, const struct proto_request *req)
{
	struct room *r;
	int seat;

	if ((r = cmd_player_room(c, req, &seat)) == NULL ||
	    cmd_need_solo(c, req, r) != 0)
		return;
	if (r->nhist == 0) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED, "nothing to undo");
		return;
	}
	cmd_rewind(r, r->nhist - 1, 0);
	conn_reply(c, proto_reply(req));
	cmd_position_event(r, PROTO_EV_UNDONE);
	room_after_move(r);
}

void
cmd_restart(struct conn *c, const struct proto_request *req)
{
	struct room *r;
	int seat;

	if ((r = cmd_player_room(c, req, &seat)) == NULL ||
	    cmd_need_solo(c, req, r) != 0)
		return;
	if (r->status != ROOM_ENDED)
		r->solo_tries++; /* a try given up (record.c); an end counted */
	cmd_rewind(r, 0, 1);
	conn_reply(c, proto_reply(req));
	cmd_position_event(r, PROTO_EV_RESTARTED);
	room_after_move(r);
}

/* Set up a new game in the room with new options (taken over): a rematch
 * or the next level; nothing stored or sent yet. 0, or -1 with the
 * reason. */
static int
cmd_new_game(struct room *r, cJSON *options, char *err, size_t errlen)
{
	struct room *fresh =
	    room_new(r->srv, r->g, options, r->game_no + 1, err, errlen);

	if (fresh == NULL)
		return -1;
	cJSON_Delete(r->options);
	r->options = fresh->options;
	fresh->options = NULL;
	memcpy(r->opts, fresh->opts, sizeof r->opts);
	r->nopts = fresh->nopts;
	memcpy(r->st, fresh->st, r->g->state_size);
	memcpy(r->start, fresh->start, r->g->state_size);
	room_free(fresh);
	r->game_no++;
	r->nhist = 0;
	cJSON_Delete(r->result);
	r->result = NULL;
	room_start_prepare(r);
	return 0;
}

/* Start the new game cmd_new_game set up: stored, then announced. */
static void
cmd_new_game_commit(
    struct conn *c, const struct proto_request *req, struct room *r)
{
	room_commit(r, room_start_nevents(r), 0);
	conn_reply(c, proto_reply(req));
	room_start_announce(r);
}

/* The room's options without its seed (a new game draws a new one). */
static cJSON *
cmd_options_reseeded(const struct room *r)
{
	cJSON *o = cJSON_Duplicate(r->options, 1);

	cJSON_DeleteItemFromObject(o, RULES_OPT_SEED);
	return o;
}

/* Is the room's game over and won? */
static int
cmd_solved(const struct room *r)
{
	const char *res =
	    cJSON_GetStringValue(cJSON_GetObjectItem(r->result, "result"));

	return r->status == ROOM_ENDED && res != NULL &&
	    strcmp(res, "solved") == 0;
}

/* Set up the next level with a new seed (nothing stored or sent yet); 0,
 * or -1 with the reason. */
static int
cmd_next_level(struct room *r, long level, char *err, size_t errlen)
{
	char buf[24];
	cJSON *o = cmd_options_reseeded(r);

	cJSON_DeleteItemFromObject(o, RULES_OPT_FILE);
	cJSON_DeleteItemFromObject(o, RULES_OPT_POSITION);
	cJSON_DeleteItemFromObject(o, RULES_OPT_LEVEL);
	snprintf(buf, sizeof buf, "%ld", level);
	cJSON_AddStringToObject(o, RULES_OPT_LEVEL, buf);
	return cmd_new_game(r, o, err, errlen);
}

/* After a won level the next one starts by itself (as in the seed),
 * stored, then announced; nothing when the game has no levels or that was
 * the last. */
void
cmd_auto_next(struct room *r)
{
	const struct rules_optdesc *d =
	    rules_optdesc_find(r->g, RULES_OPT_LEVEL);
	char err[RULES_ERR_MAX];
	struct player *p = r->seats[0].player;
	long level;

	if (r->g->seats != 1 || d == NULL || !cmd_solved(r))
		return;
	level = room_level_after(r);
	if (level > d->max ||
	    (p != NULL &&
	        !limit_games_ok(r->srv, p->name,
	            p->conn != NULL ? p->conn->lim_addr : NULL, err,
	            sizeof err)))
		return; /* past the kept games of the hour, next says why */
	if (cmd_next_level(r, level, err, sizeof err) != 0) {
		log_error("room %s: next level: %s", r->id, err);
		return;
	}
	room_commit(r, room_start_nevents(r), 0);
	room_start_announce(r);
}

void
cmd_next(struct conn *c, const struct proto_request *req)
{
	const struct rules_optdesc *d;
	char err[RULES_ERR_MAX];
	struct room *r;
	cJSON *rep;
	long level;
	int seat;

	if ((r = cmd_player_room(c, req, &seat)) == NULL ||
	    cmd_need_solo(c, req, r) != 0)
		return;
	if ((d = rules_optdesc_find(r->g, RULES_OPT_LEVEL)) == NULL) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "%s has no levels (restart or rematch instead)",
		    r->g->name);
		return;
	}
	if (archive_just_advanced(r)) {
		/* The server went on to this level by itself after the win:
		 * next says so and changes nothing. */
		rep = proto_reply(req);
		cJSON_AddNumberToObject(
		    rep, "level", (double)(room_level_after(r) - 1));
		conn_reply(c, rep);
		return;
	}
	if (!cmd_solved(r)) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "win this level first (or restart it)");
		return;
	}
	level = room_level_after(r);
	if (level > d->max) {
		conn_error(
		    c, req, PROTO_E_NOT_ALLOWED, "that was the last level");
		return;
	}
	if (limit_games_check(c, c->player->name, req) != 0)
		return;
	if (cmd_next_level(r, level, err, sizeof err) != 0) {
		log_error("room %s: next level: %s", r->id, err);
		conn_error(c, req, PROTO_E_INTERNAL, "%s", err);
		return;
	}
	cmd_new_game_commit(c, req, r);
}

static worker_hint_fn cmd_hint_done;

/* The solver runs on the worker thread; the reply comes when it is done,
 * and the connection reads nothing more until then, so replies stay in
 * request order. */
void
cmd_hint(struct conn *c, const struct proto_request *req)
{
	struct room *r;
	int seat;

	if ((r = cmd_player_room(c, req, &seat)) == NULL ||
	    cmd_need_solo(c, req, r) != 0 || cmd_need_playing(c, req, r) != 0)
		return;
	net_pause(c);
	worker_hint(c->srv->worker, r, c, req, cmd_hint_done);
}

/* The worker's answer to a hint, back on the loop. */
static void
cmd_hint_done(struct conn *c, const struct proto_request *req, const char *room,
    int v, const char *move)
{
	cJSON *rep = proto_reply(req);

	cJSON_AddStringToObject(rep, "room", room);
	cJSON_AddStringToObject(rep, "verdict",
	    v == AI_WINNABLE   ? "winnable"
	        : v == AI_LOST ? "lost"
	                       : "unknown");
	if (move != NULL)
		cJSON_AddStringToObject(rep, "move", move);
	/* It shows a position the store had committed when the hint was
	 * asked (the player's own output was out by then): never held, so
	 * a failed commit of other rooms cannot drop it. */
	c->srv->out_free = 1;
	conn_reply(c, rep);
	c->srv->out_free = 0;
	c->waiting = 0;
	net_resume(c);
}

/* Swap who sits where, so the other player starts the rematch. */
static void
cmd_swap_seats(struct room *r)
{
	struct room_seat t = r->seats[0];

	r->seats[0] = r->seats[1];
	r->seats[1] = t;
}

/* A rematch's options: a new seed, and a game made from a level file
 * begins at its level's start. */
static cJSON *
cmd_rematch_options(const struct room *r)
{
	cJSON *o = cmd_level_start_options(r);

	cJSON_DeleteItemFromObject(o, RULES_OPT_SEED);
	return o;
}

void
cmd_rematch(struct conn *c, const struct proto_request *req)
{
	char err[RULES_ERR_MAX];
	struct room *r;
	int seat, s, ready = 1;
	cJSON *ev;

	if ((r = cmd_player_room(c, req, &seat)) == NULL)
		return;
	if (tourney_room(r)) {
		conn_error(c, req, PROTO_E_TOURNEY_ROOM,
		    "%s plays a tournament game: no rematch there (the "
		    "tournament pairs the next round)",
		    r->id);
		return;
	}
	if (r->status != ROOM_ENDED) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "the game in %s is not over", r->id);
		return;
	}
	if (limit_games_check(c, c->player->name, req) != 0)
		return;
	r->seats[seat].rematch = 1;
	for (s = 0; s < r->g->seats; s++)
		if (r->seats[s].bot == 0 && !r->seats[s].rematch)
			ready = 0;
	if (!ready) {
		room_commit(r, 1, 0);
		conn_reply(c, proto_reply(req));
		for (s = 0; s < r->g->seats; s++)
			if (s != seat)
				cmd_answer_here(r, s);
		ev = room_event(r, PROTO_EV_REMATCH_OFFERED);
		cJSON_AddStringToObject(ev, "name", c->player->name);
		cJSON_AddStringToObject(ev, "seat", r->g->seat_names[seat]);
		room_broadcast(r, ev);
		return;
	}
	if (r->g->seats == 2)
		cmd_swap_seats(r);
	if (cmd_new_game(r, cmd_rematch_options(r), err, sizeof err) != 0) {
		/* cmd_new_game changed nothing: the seats go back. */
		if (r->g->seats == 2)
			cmd_swap_seats(r);
		r->seats[seat].rematch = 0;
		log_error("room %s: rematch: %s", r->id, err);
		conn_error(c, req, PROTO_E_INTERNAL, "%s", err);
		return;
	}
	cmd_new_game_commit(c, req, r);
}

void
cmd_claim(struct conn *c, const struct proto_request *req)
{
	struct room *r;
	int64_t waited;
	int seat;

	if ((r = cmd_player_room(c, req, &seat)) == NULL ||
	    cmd_need_duo(c, req, r) != 0 || cmd_need_playing(c, req, r) != 0)
		return;
	if (!r->seats[1 - seat].gone || r->seats[1 - seat].player == NULL) {
		conn_error(
		    c, req, PROTO_E_NOT_ALLOWED, "your opponent is here");
		return;
	}
	waited = clock_mono_ms() - r->seats[1 - seat].gone_ms;
	if (waited < (int64_t)r->srv->cfg.grace_sec * 1000) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "your opponent has %lld more seconds to come back",
		    (long long)((r->srv->cfg.grace_sec * 1000 - waited + 999) /
		        1000));
		return;
	}
	room_end(r, "win", seat, "abandonment");
	conn_reply(c, proto_reply(req));
}
