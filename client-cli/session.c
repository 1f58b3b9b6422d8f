/*
 * session.c: every line the server sends, as the client understands it:
 * the welcome (log in with the kept token), replies (matched in order to
 * the requests that asked them) and events (boards, moves, the end, chat).
 * Nothing the server sends can crash it: a line that is not a JSON object,
 * or has unknown or wrongly typed members, is ignored or reported; and
 * every string in it is made safe for a terminal before anything reads
 * it (proto_text_untrusted_tree), so no server can write escapes. In
 * batch mode every line goes out as it came, for the script.
 */
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "client-cli/client.h"

/* The string member key of o, or NULL. */
static const char *
session_str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Print a message for people the way the protocol's text mode says it,
 * when board (or NULL) is drawn right after it: what that board shows
 * (whose turn, the clocks) is not said twice. */
static void
session_text_beside(struct client *c, const cJSON *msg, const char *board)
{
	char *text = proto_text_beside(msg, board);

	if (text != NULL)
		view_text(c, text);
	free(text);
}

/* Print a message for people the way the protocol's text mode says it. */
static void
session_text(struct client *c, const cJSON *msg)
{
	session_text_beside(c, msg, NULL);
}

static void session_hello_as(struct client *c, const char *password);

/* Log in: the name (asked once when not given) and its kept token. */
void
session_hello(struct client *c)
{
	session_hello_as(c, NULL);
}

/* The hello of session_hello, with a password instead of the token when
 * one is given. */
static void
session_hello_as(struct client *c, const char *password)
{
	cJSON *req;

	if (c->opts.name[0] == '\0') {
		if (!c->interactive) {
			view_print(c, "A name is needed: use --name NAME.\n");
			c->exit_code = CLIENT_EXIT_USAGE;
			event_base_loopexit(c->base, NULL);
			return;
		}
		c->asking_name = 1;
		term_prompt(c);
		return;
	}
	if (c->token[0] == '\0' && !c->token_retried)
		token_load(&c->opts, c->token, sizeof c->token);
	req = cJSON_CreateObject();
	if (req == NULL)
		return;
	cJSON_AddStringToObject(req, "cmd", "hello");
	cJSON_AddStringToObject(req, "name", c->opts.name);
	if (password != NULL)
		cJSON_AddStringToObject(req, "password", password);
	else if (c->token[0] != '\0')
		cJSON_AddStringToObject(req, "token", c->token);
	cJSON_AddNumberToObject(req, "proto", PROTO_VERSION);
	/* moves come as what changed; the rules play them here (room.c) */
	cJSON_AddStringToObject(req, "events", "lean");
	conn_send(c, req, CLIENT_P_HELLO, NULL);
}

/* The TCP connection is up: wait for the welcome. */
void
session_connected(struct client *c)
{
	c->backoff_ms = 0;
}

/* Ask quietly for a room's state (verb join, watch or state): its board
 * is drawn when it comes; one such request at a time, so that a resume
 * and a gap in seq do not draw it twice. */
static void
session_resync(struct client *c, const char *verb, const char *room)
{
	cJSON *req;

	if (c->resyncing)
		return;
	req = cJSON_CreateObject();
	if (req == NULL)
		return;
	cJSON_AddStringToObject(req, "cmd", verb);
	cJSON_AddStringToObject(req, "room", room);
	if (conn_send(c, req, CLIENT_P_QUIET, NULL) == 0)
		c->resyncing = 1;
}

/* Go back to the room we were in after a reconnect. */
static void
session_resume(struct client *c, const cJSON *rooms)
{
	struct client_room *r = &c->room;
	const cJSON *st;

	if (r->active) {
		session_resync(c, r->myseat >= 0 ? "join" : "watch", r->id);
		return;
	}
	if (cJSON_GetArraySize(rooms) == 1) {
		/* one game going on: back into it at once */
		const char *id =
		    session_str(cJSON_GetArrayItem(rooms, 0), "room");
		if (id == NULL)
			return;
		view_print(c, "Back to your game in room %s.\n", id);
		session_resync(c, "join", id);
		return;
	}
	cJSON_ArrayForEach(st, rooms) {
		const char *id = session_str(st, "room");
		const char *game = session_str(st, "game");
		if (id != NULL && game != NULL)
			view_print(c,
			    "You have a seat in room %s (%s): join %s to go "
			    "back.\n",
			    id, game, id);
	}
}

/* Our kept token was refused: the server may have forgotten the name (its
 * data file was reset, or an identity that never played was pruned). Ask
 * once without a token: a name still registered is refused again
 * (name_taken), a forgotten one is made anew. 1 when asked. */
static int
session_token_stale(struct client *c, const char *code)
{
	if (code == NULL || proto_error_from_code(code) != PROTO_E_BAD_TOKEN ||
	    c->token[0] == '\0' || c->token_retried)
		return 0;
	c->token_retried = 1;
	c->token[0] = '\0';
	session_hello(c);
	return 1;
}

/* The password for our name was typed (NULL or empty: none): log in
 * with it, or choose another name (a client that was logged in before
 * gives up instead). */
static void
session_password_typed(struct client *c, const char *pw)
{
	if (pw != NULL && pw[0] != '\0') {
		session_hello_as(c, pw);
		return;
	}
	if (c->ever_logged_in) {
		c->exit_code = CLIENT_EXIT_LOGIN;
		c->quitting = 1;
		event_base_loopexit(c->base, NULL);
		return;
	}
	view_print(c, "Choose another name.\n");
	c->opts.name[0] = '\0';
	c->token[0] = '\0';
	c->token_retried = 0;
	c->asking_name = 1;
	term_prompt(c);
}

/* Our name is registered and we have no token the server takes (or the
 * password was wrong): a person at the keyboard is asked for the
 * password, without echo. 1 when asked. */
static int
session_password_ask(struct client *c, const cJSON *rep, const char *code)
{
	enum proto_error e =
	    code != NULL ? proto_error_from_code(code) : PROTO_E_COUNT;
	char prompt[CLIENT_FIELD + 32];

	if (!c->interactive ||
	    (e != PROTO_E_NAME_TAKEN && e != PROTO_E_BAD_PASSWORD))
		return 0;
	if (e == PROTO_E_NAME_TAKEN)
		view_print(c,
		    "The name %s is registered, and this client has no token "
		    "for it.\n",
		    c->opts.name);
	else
		view_error(c, rep);
	view_print(c, "Type its password (Enter alone: %s).\n",
	    c->ever_logged_in ? "give up" : "choose another name");
	snprintf(prompt, sizeof prompt, "Password for %s: ", c->opts.name);
	secret_ask(c, prompt, session_password_typed);
	return 1;
}

/* The server refused our name (not a possible name, or someone else's):
 * a person at the keyboard is asked for another, as on the first run.
 * 1 when asked. */
static int
session_name_again(struct client *c, const char *code)
{
	enum proto_error e =
	    code != NULL ? proto_error_from_code(code) : PROTO_E_COUNT;

	if (!c->interactive || c->ever_logged_in ||
	    (e != PROTO_E_BAD_NAME && e != PROTO_E_NAME_TAKEN))
		return 0;
	if (e == PROTO_E_NAME_TAKEN)
		view_print(c,
		    "That name is someone else's here (or its token is not "
		    "in this client's store).\n");
	view_print(c, "Choose another name.\n");
	c->opts.name[0] = '\0';
	c->token[0] = '\0';
	c->token_retried = 0;
	c->asking_name = 1;
	return 1;
}

/* The games hello says we lost by abandonment while away (the opponent
 * claimed them), each in the server's sentence. */
static void
session_abandoned(struct client *c, const cJSON *rep)
{
	const cJSON *g;

	if (c->opts.batch)
		return;
	cJSON_ArrayForEach(
	    g, cJSON_GetObjectItemCaseSensitive(rep, "abandoned"))
		if (session_str(g, "message") != NULL)
			view_print(c, "%s\n", session_str(g, "message"));
}

/* Our hello's reply: keep the token, say hello, resume. */
static void
session_hello_reply(struct client *c, const cJSON *rep)
{
	const char *token = session_str(rep, "token");
	const cJSON *isnew = cJSON_GetObjectItemCaseSensitive(rep, "new");

	if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(rep, "ok"))) {
		const char *code = session_str(rep, "error");
		if (session_token_stale(c, code) ||
		    session_password_ask(c, rep, code))
			return;
		view_error(c, rep);
		if (session_name_again(c, code))
			return;
		if (code != NULL &&
		    proto_error_from_code(code) == PROTO_E_NAME_TAKEN)
			view_print(c,
			    "That name is someone else's here (or "
			    "its token is not in this client's "
			    "store): choose another with --name.\n");
		c->exit_code = CLIENT_EXIT_LOGIN;
		c->quitting = 1;
		event_base_loopexit(c->base, NULL);
		return;
	}
	if (token != NULL && strlen(token) < sizeof c->token) {
		snprintf(c->token, sizeof c->token, "%s", token);
		if (token_save(&c->opts, token) != 0)
			view_print(c,
			    "Your token could not be kept in the "
			    "config folder: next time you will need "
			    "another name.\n");
	}
	c->logged_in = 1;
	if (c->token_retried && cJSON_IsTrue(isnew) && !c->opts.batch)
		view_print(c,
		    "This server no longer knew the name %s (its data was "
		    "reset, or the name had not been used for a long time): "
		    "it is yours again, with a new token.\n",
		    c->opts.name);
	c->token_retried = 0;
	if (!c->ever_logged_in && !c->opts.batch)
		view_print(c,
		    "%s, %s. Type help for the commands, games for the games, "
		    "rooms for the rooms.\n",
		    cJSON_IsTrue(isnew) ? "Welcome" : "Welcome back",
		    c->opts.name);
	else if (c->ever_logged_in && !c->opts.batch)
		view_print(c, "Connected again as %s.\n", c->opts.name);
	c->ever_logged_in = 1;
	session_abandoned(c, rep);
	mine_from_hello(c, cJSON_GetObjectItemCaseSensitive(rep, "rooms"));
	if (!c->opts.batch)
		session_resume(
		    c, cJSON_GetObjectItemCaseSensitive(rep, "rooms"));
}

/* Replay the room's history from a state (or its next page) to mark the
 * last move; the next page is asked quietly while one is due. 1 when the
 * replay has just found the last move. */
static int
session_replay(struct client *c, const cJSON *st, int first)
{
	struct client_room *r = &c->room;
	long long next;
	cJSON *req;

	if (first && replay_start(r, st) != 0)
		return 0;
	next = replay_page(r, st);
	if (next <= 0)
		return next == 0 && r->have_last;
	req = cJSON_CreateObject();
	if (req == NULL)
		return 0;
	cJSON_AddStringToObject(req, "cmd", "state");
	cJSON_AddStringToObject(req, "room", r->id);
	cJSON_AddNumberToObject(req, "since", (double)next);
	if (conn_send(c, req, CLIENT_P_PAGE, NULL) != 0)
		r->replaying = 0;
	return 0;
}

/* The board a state held back while its history was replayed: drawn
 * once, with the last move marked when the replay found it. */
static void
session_board_late(struct client *c)
{
	struct client_room *r = &c->room;

	if (!r->board_due)
		return;
	view_board(c);
	if (r->status == PROTO_ROOM_ENDED)
		view_print(c, "This game is over.\n");
}

/* A further page of a room's history came: replay it; once the last move
 * is found, the board is drawn again with it marked (only colour shows
 * the mark). */
static void
session_page(struct client *c, const cJSON *rep)
{
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(rep, "state");
	const char *id = session_str(st, "room");
	struct client_room *r = &c->room;

	if (!r->replaying || id == NULL || strcmp(id, r->id) != 0)
		return;
	if (session_replay(c, st, 0) && c->opts.color && !r->board_due)
		view_board(c);
	if (!r->replaying)
		session_board_late(c);
}

/* A state asked with at=N: the position after the game's first N moves,
 * shown with the moves and never taken as the room's own (the room on
 * the screen, its turn and clocks, and the games waiting for us stay as
 * they are). */
static void
session_state_at(struct client *c, const cJSON *st, long long at)
{
	struct client_room *past = calloc(1, sizeof *past);
	const cJSON *total =
	    cJSON_GetObjectItemCaseSensitive(st, "history_total");
	char *rec;

	if (past == NULL) {
		view_print(c, "(Out of memory: the position is not shown.)\n");
		return;
	}
	room_clear(past);
	if (room_take_state(c, past, st) != 0) {
		free(past);
		return;
	}
	past->has_clocks = 0; /* the clocks are as now, not as then */
	rec = proto_text_record(st);
	if (rec != NULL)
		view_text(c, rec);
	free(rec);
	if (at == 0)
		view_print(c, "Room %s (%s) at its start:\n", past->id,
		    past->rg != NULL ? past->rg->title : "?");
	else
		view_print(c, "Room %s (%s) after move %lld of %lld:\n",
		    past->id, past->rg != NULL ? past->rg->title : "?", at,
		    cJSON_IsNumber(total) ? (long long)total->valuedouble : at);
	if (past->rg == NULL)
		view_print(c, "This client does not know that game.\n");
	else
		view_board_of(c, past);
	room_clear(past);
	free(past);
}

/* 1 when a create or join reply starts the game, whose started event
 * (drawing the board) follows: a playing room without a move, where we
 * held no seat before (joining our own seat again resumes the game: no
 * event follows, and the board is drawn here). */
static int
session_starts(struct client *c, const cJSON *st, enum proto_verb re)
{
	const char *id = session_str(st, "room");
	const char *status = session_str(st, "status");

	return (re == PROTO_CREATE || re == PROTO_JOIN) && id != NULL &&
	    status != NULL && strcmp(status, "playing") == 0 &&
	    cJSON_GetArraySize(
	        cJSON_GetObjectItemCaseSensitive(st, "history")) == 0 &&
	    (re == PROTO_CREATE || !mine_has(c, id));
}

/* A pending offer of a state (draw_offer, takeback_offer: the asking
 * seat, or NULL), said as its event was: "bob offers a draw: type draw
 * accept or draw decline." (noun: the offer, "draw offer"; asks: what
 * the asker does; verb: the answer's verb). */
static void
session_offer(struct client *c, const char *seat, const char *noun,
    const char *asks, const char *verb)
{
	const struct client_room *r = &c->room;
	int s;

	if (seat == NULL || r->rg == NULL)
		return;
	for (s = 0; s < r->rg->seats && s < 2; s++)
		if (strcmp(r->rg->seat_names[s], seat) == 0)
			break;
	if (s >= r->rg->seats || s >= 2)
		return;
	if (s == r->myseat)
		view_print(c, "Your %s waits for an answer.\n", noun);
	else if (r->myseat >= 0)
		view_print(c, "%s %s: type %s accept or %s decline.\n",
		    r->names[s][0] != '\0' ? r->names[s] : seat, asks, verb,
		    verb);
	else
		view_print(c, "%s %s.\n",
		    r->names[s][0] != '\0' ? r->names[s] : seat, asks);
}

/* What the state says of the game under way beyond the board: its
 * tournament and the offers pending, so that a player back in the room
 * (join, state) sees what the events said while they were away. */
static void
session_terms(struct client *c, const cJSON *st)
{
	const char *t = session_str(st, "tourney");

	if (c->room.status != PROTO_ROOM_PLAYING)
		return;
	if (t != NULL)
		view_print(c, "A game of tournament %s.\n", t);
	session_offer(c, session_str(st, "draw_offer"), "draw offer",
	    "offers a draw", "draw");
	session_offer(c, session_str(st, "takeback_offer"), "take-back request",
	    "asks to take back a move", "takeback");
}

/* A room state arrived (create, join, watch, state): show it. */
static void
session_state(struct client *c, const cJSON *rep, enum proto_verb re, int quiet)
{
	const cJSON *st = cJSON_GetObjectItemCaseSensitive(rep, "state");
	const cJSON *at = cJSON_GetObjectItemCaseSensitive(st, "at");
	const char *seat = session_str(rep, "seat");
	struct client_room *r = &c->room;
	int starts = session_starts(c, st, re);

	int asked = re == PROTO_STATE; /* the player asked for it */

	if (asked && !quiet && cJSON_IsNumber(at) && at->valuedouble >= 0 &&
	    at->valuedouble <= (double)PROTO_INT_MAX) {
		session_state_at(c, st, (long long)at->valuedouble);
		return;
	}
	if (room_from_state(c, st) != 0)
		return;
	mine_from_state(c, st);
	session_replay(c, st, 1);
	if (!quiet && !asked && seat != NULL)
		view_print(c, "You are in room %s (%s), seat %s.\n", r->id,
		    r->rg != NULL ? r->rg->title : "?", seat);
	else if (!quiet && !asked)
		view_print(c, "You are watching room %s (%s).\n", r->id,
		    r->rg != NULL ? r->rg->title : "?");
	if (r->rg == NULL) {
		view_print(c, "This client does not know that game.\n");
		return;
	}
	if (r->status == PROTO_ROOM_WAITING) {
		if (asked)
			view_board(c);
		view_print(
		    c, "Waiting for an opponent: they type join %s.\n", r->id);
		return;
	}
	/* a game that starts with this reply draws its board with the
	 * started event that follows */
	if (!quiet && starts)
		return;
	if (asked) { /* the game so far, as text mode lists it */
		char *rec = proto_text_record(st);
		if (rec != NULL)
			view_text(c, rec);
		free(rec);
	}
	if (r->replaying) {
		/* drawn once the last page has come (session_board_late) */
		r->board_due = 1;
		session_terms(c, st);
		return;
	}
	view_board(c);
	session_terms(c, st);
	if (r->status == PROTO_ROOM_ENDED)
		view_print(c, "This game is over.\n");
}

/* An error reply to a move: the game's words, and its prompt again. */
static void
session_move_error(struct client *c, const cJSON *rep)
{
	struct client_room *r = &c->room;
	const char *code = session_str(rep, "error");
	const char *msg = session_str(rep, "message");
	char buf[512];

	enum proto_error e =
	    code != NULL ? proto_error_from_code(code) : PROTO_E_COUNT;

	if (e == PROTO_E_ILLEGAL_MOVE && msg != NULL && r->cg != NULL &&
	    r->cg->reason != NULL) {
		r->cg->reason(r, msg, buf, sizeof buf);
		view_print(c, "%s\n", buf);
		r->step = 0;
		return;
	}
	if (e == PROTO_E_NOT_ALLOWED && msg != NULL &&
	    strncmp(msg, "stale", 5) == 0) {
		view_print(c, "The board changed meanwhile; here it is.\n");
		session_resync(c, "state", r->id);
		return;
	}
	view_error(c, rep);
}

/* 1 when a successful reply to this verb is followed by the event that
 * says what happened, so the reply itself says nothing. */
static int
session_event_follows(enum proto_verb re)
{
	switch (re) {
	case PROTO_MOVE:
	case PROTO_CHAT:
	case PROTO_SAY:
	case PROTO_REMATCH:
	case PROTO_NEXT:
	case PROTO_RESTART:
	case PROTO_UNDO:
	case PROTO_RESIGN:
	case PROTO_DRAW:
	case PROTO_TAKEBACK:
	case PROTO_CLAIM:
		return 1;
	default:
		return 0;
	}
}

/* The room ids of a rooms reply, for tab completion. */
static void
session_remember_rooms(const cJSON *rep)
{
	const cJSON *r;

	cJSON_ArrayForEach(r, cJSON_GetObjectItemCaseSensitive(rep, "rooms")) {
		const char *id = session_str(r, "room");
		if (id != NULL)
			term_add_room(id);
	}
}

/* The seek ids of a seek, seeks or unseek reply, for tab completion
 * (unseek SEEK). */
static void
session_remember_seeks(const cJSON *rep)
{
	const cJSON *s, *one = cJSON_GetObjectItemCaseSensitive(rep, "seek");
	const char *id;

	if ((id = session_str(one, "seek")) != NULL)
		term_add_room(id);
	cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(rep, "seeks")) {
		if ((id = session_str(s, "seek")) != NULL)
			term_add_room(id);
	}
}

/* The tournament ids of a tourney reply (one, or a list), for tab
 * completion after `tourney join` and the like. */
static void
session_remember_tourneys(const cJSON *rep)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(rep, "tourney");

	if (session_str(t, "id") != NULL)
		term_add_room(session_str(t, "id"));
	cJSON_ArrayForEach(
	    t, cJSON_GetObjectItemCaseSensitive(rep, "tourneys")) {
		if (session_str(t, "id") != NULL)
			term_add_room(session_str(t, "id"));
	}
}

/* A moves reply in the current game's short form, when it has one: 1
 * when printed. */
static int
session_moves(struct client *c, const cJSON *rep)
{
	static char buf[16384];
	const struct client_room *r = &c->room;

	if (!r->active || r->cg == NULL || r->cg->moves == NULL)
		return 0;
	r->cg->moves(r, rep, buf, sizeof buf);
	if (buf[0] == '\0')
		return 0;
	view_text(c, buf);
	return 1;
}

/* A successful reply, by its verb. */
static void
session_ok(struct client *c, const cJSON *rep, enum proto_verb re,
    struct client_pending *p)
{
	if (p->purpose == CLIENT_P_SAVE) {
		files_saved(c, rep, p->path);
		return;
	}
	if (p->purpose == CLIENT_P_PAGE) {
		session_page(c, rep);
		return;
	}
	if (re == PROTO_CREATE || re == PROTO_JOIN || re == PROTO_WATCH ||
	    re == PROTO_STATE) {
		session_state(c, rep, re, p->purpose == CLIENT_P_QUIET);
		return;
	}
	if (session_event_follows(re) || p->purpose == CLIENT_P_QUIET)
		return;
	if (re == PROTO_LEAVE) {
		if (c->room.active)
			mine_drop(c, c->room.id);
		if (c->room.active)
			view_print(c, "You left room %s.\n", c->room.id);
		else
			view_print(c, "You left the room.\n");
		room_clear(&c->room);
		return;
	}
	if (re == PROTO_QUIT) {
		c->quitting = 1;
		return;
	}
	if (re == PROTO_ROOMS)
		session_remember_rooms(rep);
	if (re == PROTO_SEEK || re == PROTO_SEEKS || re == PROTO_UNSEEK)
		session_remember_seeks(rep);
	if (re == PROTO_TOURNEY)
		session_remember_tourneys(rep);
	if (re == PROTO_MOVES && session_moves(c, rep))
		return;
	session_text(c, rep);
}

/* Take the oldest pending request (what this reply answers). */
static struct client_pending
session_pop(struct client *c)
{
	struct client_pending p = {CLIENT_P_PRINT, NULL};

	if (c->npending > 0) {
		p = c->pending[c->pending_head];
		c->pending[c->pending_head].path = NULL;
		c->pending_head = (c->pending_head + 1) % CLIENT_PENDING_MAX;
		c->npending--;
	}
	return p;
}

/* A reply from the server. */
static void
session_reply(struct client *c, const cJSON *rep)
{
	struct client_pending p = session_pop(c);
	const char *re = session_str(rep, "re");
	const cJSON *ok = cJSON_GetObjectItemCaseSensitive(rep, "ok");

	if (p.purpose == CLIENT_P_QUIET)
		c->resyncing = 0;
	if (p.purpose == CLIENT_P_HELLO)
		session_hello_reply(c, rep);
	else if (!cJSON_IsTrue(ok) && p.purpose == CLIENT_P_MOVE)
		session_move_error(c, rep);
	else if (!cJSON_IsTrue(ok) && p.purpose == CLIENT_P_SAVE)
		files_saved(c, rep, p.path);
	else if (!cJSON_IsTrue(ok) && p.purpose == CLIENT_P_PAGE) {
		c->room.replaying = 0; /* no mark: nothing to say */
		session_board_late(c);
	} else if (!cJSON_IsTrue(ok))
		view_error(c, rep);
	else if (re != NULL)
		session_ok(c, rep, proto_verb_from_name(re), &p);
	free(p.path);
}

/* The rating line of a result, "Rated (ataxx size=7): ana 1500 ->
 * 1662?, ..." or "Not rated: why.", when it has one. */
static void
session_rated(struct client *c, const cJSON *result)
{
	char *text = proto_text_rated(result);

	if (text != NULL)
		view_text(c, text);
	free(text);
}

/* The game in the current room ended. */
static void
session_ended(struct client *c, const cJSON *ev)
{
	struct client_room *r = &c->room;
	const char *res = session_str(ev, "result");
	char buf[512] = "";

	snprintf(r->result, sizeof r->result, "%s", res != NULL ? res : "");
	if (r->cg != NULL && r->cg->ended != NULL)
		r->cg->ended(r, ev, buf, sizeof buf);
	if (buf[0] != '\0') {
		/* the game's own words for the outcome; the rating line
		 * (or why not rated) is the server's, as telnet shows it */
		view_print(c, "%s\n", buf);
		session_rated(c, ev);
	} else
		session_text(c, ev);
	if (r->myseat >= 0 && r->cg != NULL && r->cg->again != NULL &&
	    (r->cg->goes_on == NULL || !r->cg->goes_on(r, ev)))
		r->ask_again = 1;
}

/* A move was played in the current room. */
static void
session_moved(struct client *c, const cJSON *ev)
{
	struct client_room *r = &c->room;
	const char *text = session_str(ev, "text");
	const char *who = session_str(ev, "name");
	char buf[512] = "";
	int had_state;

	if (r->cg != NULL && r->cg->moved != NULL && r->have_state)
		r->cg->moved(r, ev, buf, sizeof buf);
	if (buf[0] == '\0' && text != NULL)
		snprintf(buf, sizeof buf, "%s%s%s.", who != NULL ? who : "",
		    who != NULL ? ": " : "", text);
	else if (buf[0] == '\0') /* the lean form: said from the rules */
		room_move_text(r, ev, buf, sizeof buf);
	had_state = r->have_state;
	room_from_event(c, ev, PROTO_EV_MOVED);
	if (had_state && !r->have_state && r->rg != NULL &&
	    cJSON_GetObjectItemCaseSensitive(ev, "position") == NULL) {
		/* a lean move the position could not take: start again
		 * from the state (drawn when it comes) */
		session_resync(c, "state", r->id);
		if (buf[0] != '\0')
			view_print(c, "%s\n", buf);
		return;
	}
	view_board(c);
	if (buf[0] != '\0')
		view_print(c, "%s\n", buf);
}

/* An event of the room we are in. */
static void
session_room_event(
    struct client *c, const cJSON *ev, enum proto_event_kind ev_kind)
{
	struct client_room *r = &c->room;
	const cJSON *seq = cJSON_GetObjectItemCaseSensitive(ev, "seq");
	int was_stopped;

	if (cJSON_IsNumber(seq) && r->seq > 0 &&
	    seq->valuedouble > (double)r->seq + 1 && r->rg != NULL)
		session_resync(c, "state", r->id);
	if (ev_kind == PROTO_EV_MOVED) {
		session_moved(c, ev);
		return;
	}
	if (ev_kind == PROTO_EV_STARTED || ev_kind == PROTO_EV_UNDONE ||
	    ev_kind == PROTO_EV_RESTARTED) {
		char buf[256] = "";
		room_from_event(c, ev, ev_kind);
		/* started: who plays; undone, restarted: what the new
		 * board is (it came without a word before) */
		session_text_beside(c, ev, view_picture(c));
		/* who begins is said before the board, as the seeds do */
		if (ev_kind == PROTO_EV_STARTED && r->cg != NULL &&
		    r->cg->started != NULL && r->have_state) {
			r->cg->started(r, buf, sizeof buf);
			view_print(c, "%s\n", buf);
		}
		view_board(c);
		return;
	}
	if (ev_kind == PROTO_EV_ENDED) {
		room_from_event(c, ev, ev_kind);
		session_ended(c, ev);
		return;
	}
	was_stopped = r->clocks_stopped;
	room_from_event(c, ev, ev_kind);
	/* a clock event only sets the prompt's clocks, unless the server
	 * stopped them (a cluster cut a player off) or starts them again */
	if (ev_kind != PROTO_EV_CLOCK || r->clocks_stopped)
		session_text(c, ev);
	else if (was_stopped)
		view_print(c, "The clocks go again.\n");
	if (ev_kind == PROTO_EV_LEFT && r->ask_again &&
	    session_str(ev, "seat") != NULL) {
		/* the other player is gone: nobody answers a rematch */
		r->ask_again = 0;
		view_print(c,
		    "No rematch then. Type leave to go back to the lobby, "
		    "or rooms to see the others.\n");
	}
}

/* An event from the server. */
static void
session_event(struct client *c, const cJSON *ev, enum proto_event_kind ev_kind)
{
	const char *room = session_str(ev, "room");

	if (ev_kind == PROTO_EV_WELCOME) {
		session_hello(c);
		return;
	}
	if (ev_kind == PROTO_EV_REPLACED) {
		view_print(c,
		    "You logged in from somewhere else; this client "
		    "stops.\n");
		c->quitting = 1;
		return;
	}
	if ((ev_kind == PROTO_EV_INVITED ||
	        ev_kind == PROTO_EV_TOURNEY_ROUND) &&
	    room != NULL) /* join alone */
		snprintf(c->invited, sizeof c->invited, "%s", room);
	if (ev_kind == PROTO_EV_TOURNEY_ROUND && room != NULL) {
		term_add_room(room);
		mine_tourney(c, ev);
	}
	if (ev_kind == PROTO_EV_PAIRED && room != NULL) {
		/* a seek met another: said, and on to the new game's board
		 * (seated already: join answers with its state) */
		session_text(c, ev);
		term_add_room(room);
		session_resync(c, "join", room);
		return;
	}
	if (ev_kind == PROTO_EV_SHUTDOWN) {
		/* the server's own words are for telnet (hello NAME TOKEN):
		 * this client logs in again by itself */
		view_print(c,
		    "The server is stopping; your games are saved. This "
		    "client connects again by itself when it is back.\n");
		return;
	}
	if (room != NULL && c->room.active && strcmp(room, c->room.id) == 0) {
		mine_event(c, ev, ev_kind, 1);
		session_room_event(c, ev, ev_kind);
		return;
	}
	session_text(c, ev);
	/* our move in a game we are not looking at: said, and from the
	 * lobby we go back to it */
	if (room != NULL && mine_event(c, ev, ev_kind, 0))
		session_resync(c, "join", room);
}

/* In batch mode: our own hello's token is kept; every line goes out. */
static void
session_batch(struct client *c, const char *line, size_t len, const cJSON *msg)
{
	const char *ev = session_str(msg, "event");

	if (cJSON_GetObjectItemCaseSensitive(msg, "re") != NULL) {
		struct client_pending p = session_pop(c);
		if (p.purpose == CLIENT_P_HELLO)
			session_hello_reply(c, msg);
		else if (p.purpose == CLIENT_P_SAVE)
			files_saved(c, msg, p.path);
		free(p.path);
		if ((p.purpose != CLIENT_P_SAVE &&
		        p.purpose != CLIENT_P_QUIET) ||
		    !cJSON_IsTrue(
		        cJSON_GetObjectItemCaseSensitive(msg, "ok"))) {
			fwrite(line, 1, len, c->out);
			fputc('\n', c->out);
		}
		fflush(c->out);
		batch_reply_seen(c);
		return;
	}
	fwrite(line, 1, len, c->out);
	fputc('\n', c->out);
	fflush(c->out);
	if (ev != NULL && strcmp(ev, "welcome") == 0 && c->opts.name[0] != '\0')
		session_hello(c);
	else if (ev != NULL && strcmp(ev, "welcome") == 0)
		batch_reply_seen(c);
}

/* An error that answers no request ("re": null): the server says why it
 * closes the connection. After an idle close, or an operator's kick or
 * ban, the client waits for its user instead of reconnecting. */
static void
session_notice(struct client *c, const cJSON *msg)
{
	const char *code = session_str(msg, "error");
	enum proto_error e = proto_error_from_code(code);

	view_error(c, msg);
	if (e == PROTO_E_IDLE || e == PROTO_E_KICKED || e == PROTO_E_BANNED)
		c->dozing = (int)e;
}

/* One line from the server. */
void
session_line(struct client *c, const char *line, size_t len)
{
	cJSON *msg = cJSON_ParseWithLength(line, len);
	const char *ev;

	if (!cJSON_IsObject(msg)) {
		if (!c->opts.batch)
			view_print(c,
			    "(The server sent something this client "
			    "does not understand; it is ignored.)\n");
		cJSON_Delete(msg);
		return;
	}
	if (c->opts.batch) {
		session_batch(c, line, len, msg);
		cJSON_Delete(msg);
		return;
	}
	/* from here on the message is for a terminal: no string the server
	 * sends may move the cursor, clear the screen, set the title or the
	 * clipboard, whatever path prints it */
	if (proto_text_untrusted_tree(msg) != 0) {
		view_print(c,
		    "(Out of memory: a message from the server is "
		    "dropped.)\n");
		cJSON_Delete(msg);
		return;
	}
	ev = session_str(msg, "event");
	if (cJSON_IsNull(cJSON_GetObjectItemCaseSensitive(msg, "re")))
		session_notice(c, msg);
	else if (cJSON_GetObjectItemCaseSensitive(msg, "re") != NULL)
		session_reply(c, msg);
	else if (ev != NULL)
		session_event(c, msg, proto_event_from_name(ev));
	cJSON_Delete(msg);
	if (c->quitting && c->npending == 0)
		event_base_loopexit(c->base, NULL);
	else
		term_prompt(c);
	batch_reply_seen(c); /* piped input waits for the replies */
}

/* Free what the session holds. */
void
session_free(struct client *c)
{
	room_clear(&c->room);
}
