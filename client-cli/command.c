/*
 * command.c: one line the player typed. A protocol verb (in shorthand,
 * checked by protocol/'s decoder) is sent as JSON; `load`, `save` and
 * `exit` are the client's own; anything else in the player's turn is an
 * answer to the game's prompt (game_*.c); the play-again question and the
 * name question take the line when they are asked.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "client-cli/client.h"

/* The client's own commands, after the protocol's verbs. */
static const char *const command_local[] = {
    "load", "save", "exit", "mine", NULL};

/* The i-th command word (verbs, then local ones), or NULL past the end;
 * for completion. */
const char *
command_word(int i)
{
	int n;

	if (i < 0)
		return NULL;
	if (i < PROTO_VERB_COUNT)
		return proto_verb_name((enum proto_verb)i);
	for (n = 0; command_local[n] != NULL; n++)
		if (i - PROTO_VERB_COUNT == n)
			return command_local[n];
	return NULL;
}

/* The first word of line, lower-cased, into buf. */
static void
command_first(const char *line, char *buf, size_t len)
{
	size_t i = 0;

	while (*line == ' ' || *line == '\t')
		line++;
	while (line[i] != '\0' && line[i] != ' ' && line[i] != '\t' &&
	    i + 1 < len) {
		buf[i] = (char)tolower((unsigned char)line[i]);
		i++;
	}
	buf[i] = '\0';
}

/* 1 when word is a protocol verb or one of the client's own commands. */
int
command_is_verb(const char *word)
{
	int i;

	if (proto_verb_from_name(word) != PROTO_VERB_COUNT)
		return 1;
	for (i = 0; command_local[i] != NULL; i++)
		if (strcmp(command_local[i], word) == 0)
			return 1;
	return 0;
}

/* The rest of the line after its first word. */
static const char *
command_args(const char *line)
{
	while (*line == ' ' || *line == '\t')
		line++;
	while (*line != '\0' && *line != ' ' && *line != '\t')
		line++;
	while (*line == ' ' || *line == '\t')
		line++;
	return line;
}

/* Send a one-word verb on the current room. */
static void
command_simple(struct client *c, const char *verb, enum client_purpose p)
{
	cJSON *req = cJSON_CreateObject();

	if (req == NULL)
		return;
	cJSON_AddStringToObject(req, "cmd", verb);
	if (c->room.active)
		cJSON_AddStringToObject(req, "room", c->room.id);
	conn_send(c, req, p, NULL);
}

/* A create of a game that asks its start question first. */
static int
command_create_question(struct client *c, const struct proto_request *req)
{
	const struct client_game *g = games_find(req->game);

	if (g == NULL || g->start_question == NULL || req->noptions > 0 ||
	    !c->interactive)
		return 0;
	c->room.ask_again = 0;
	c->asking_start = g;
	return 1;
}

/* A protocol verb typed in shorthand: decode, check, send as JSON. */
static void
command_verb(struct client *c, const char *line)
{
	struct proto_request req;
	char err[256];
	enum proto_error e;
	enum client_purpose p = CLIENT_P_PRINT;

	e = proto_decode(line, strlen(line), &req, err, sizeof err);
	if (e != PROTO_OK) {
		err[0] = (char)toupper((unsigned char)err[0]);
		view_print(c, "%s.\n", err);
		proto_request_free(&req);
		return;
	}
	if (req.verb == PROTO_HELLO) {
		view_print(
		    c, "You are logged in already (as %s).\n", c->opts.name);
		proto_request_free(&req);
		return;
	}
	if (req.verb == PROTO_CREATE && command_create_question(c, &req)) {
		proto_request_free(&req);
		return;
	}
	if (req.verb == PROTO_QUIT)
		c->quitting = 1;
	if (req.verb == PROTO_MOVE)
		p = CLIENT_P_MOVE;
	if (req.verb == PROTO_HELP)
		view_print(c,
		    "The client's own commands:\n"
		    "  load FILE [GAME]  create a room from a local "
		    "file: a game's file\n"
		    "                    (games names each file format) "
		    "or a position saved\n"
		    "  save FILE [ROOM]  write the room's position to "
		    "a local file\n"
		    "  exit              leave tablero (as quit)\n"
		    "  mine              the games you sit in, and where it "
		    "is your move\n"
		    "  password          set or change your password (asked "
		    "without echo)\n"
		    "In a game, just answer its prompt.\n");
	conn_send(c, proto_request_encode(&req), p, NULL);
	proto_request_free(&req);
}

/* The answer to the play-again question. */
static void
command_again(struct client *c, const char *line)
{
	const struct client_game *g = c->room.cg;

	c->room.ask_again = 0;
	if (line[0] == 'y' || line[0] == 'Y') {
		command_simple(c,
		    g != NULL && g->again_verb != NULL ? g->again_verb(&c->room)
		                                       : "rematch",
		    CLIENT_P_PRINT);
		return;
	}
	if (g != NULL && g->again_verb != NULL)
		view_print(c,
		    "Type r to play it again, leave to go back to the lobby, "
		    "or rooms to see the others.\n");
	else
		view_print(c,
		    "Type leave to go back to the lobby, or rooms to see "
		    "the others.\n");
}

/* The answer to a game's start question: its create goes out. */
static void
command_start(struct client *c, const char *line)
{
	const struct client_game *g = c->asking_start;
	cJSON *req = cJSON_CreateObject();
	char msg[512] = "";
	int rc;

	c->asking_start = NULL;
	if (req == NULL)
		return;
	cJSON_AddStringToObject(req, "cmd", "create");
	cJSON_AddStringToObject(req, "game", g->rules->name);
	rc = g->start(c, line, req, msg, sizeof msg);
	if (rc != 0) {
		if (msg[0] != '\0')
			view_print(c, "%s\n", msg);
		if (rc > 0)
			c->asking_start = g;
		cJSON_Delete(req);
		return;
	}
	if (msg[0] != '\0')
		view_print(c, "%s\n", msg);
	conn_send(c, req, CLIENT_P_PRINT, NULL);
}

/* A line typed in our turn: the game's prompt decides. */
static void
command_game(struct client *c, const char *line)
{
	struct client_room *r = &c->room;
	char move[CLIENT_FIELD * 4] = "", msg[1024] = "";
	cJSON *req;

	int step = r->step;

	switch (r->cg->input(r, line, move, sizeof move, msg, sizeof msg)) {
	case CG_AGAIN:
		if (r->cg->steps && r->step != step)
			view_board(c); /* the next step's squares marked */
		if (msg[0] != '\0')
			view_print(c, "%s\n", msg);
		return;
	case CG_RESIGN:
		command_simple(c, "resign", CLIENT_P_PRINT);
		return;
	case CG_VERB:
		command_simple(c, move, CLIENT_P_PRINT);
		return;
	case CG_SEND:
		break;
	}
	if (msg[0] != '\0')
		view_print(c, "%s\n", msg);
	req = cJSON_CreateObject();
	if (req == NULL)
		return;
	cJSON_AddStringToObject(req, "cmd", "move");
	cJSON_AddStringToObject(req, "room", r->id);
	cJSON_AddStringToObject(req, "move", move);
	cJSON_AddNumberToObject(req, "seq", (double)r->seq);
	conn_send(c, req, CLIENT_P_MOVE, NULL);
}

/* Ask before what would leave a running two-player game: 1 when the
 * question is asked (the caller does nothing more), 0 when nothing is to
 * be asked. */
int
command_leave_asks(struct client *c, enum client_leaving what)
{
	struct client_room *r = &c->room;

	if (!c->interactive || !room_playing_against(r))
		return 0;
	c->asking_leave = what;
	if (what == CLIENT_LEAVE_ROOM)
		view_print(c,
		    "Leaving room %s now resigns the game you are playing "
		    "there.\n",
		    r->id);
	else
		view_print(c,
		    "You are playing in room %s (%s). If you quit, your seat "
		    "is kept for the server's grace time (60 seconds unless "
		    "it says otherwise): come back before it ends, or your "
		    "opponent may claim the game.\n",
		    r->id, r->rg->title);
	return 1;
}

/* The answer to the leave question: y does what was asked. */
static void
command_leave_answer(struct client *c, const char *line)
{
	enum client_leaving what = c->asking_leave;

	c->asking_leave = CLIENT_LEAVE_NO;
	if (line[0] != 'y' && line[0] != 'Y') {
		view_print(c, "You stay in room %s.\n", c->room.id);
		return;
	}
	if (what == CLIENT_LEAVE_ROOM) {
		command_simple(c, "leave", CLIENT_P_PRINT);
		return;
	}
	command_simple(c, "quit", CLIENT_P_PRINT);
	c->quitting = 1;
}

/* Ctrl-C: the line typed so far is dropped (as in a shell), and a
 * question about leaving is answered no; it never ends the client. On an
 * empty line (typed 0) it says how to leave. */
void
command_interrupt(struct client *c, int typed)
{
	if (c->asking_leave != CLIENT_LEAVE_NO) {
		c->asking_leave = CLIENT_LEAVE_NO;
		view_print(c, "You stay in room %s.\n", c->room.id);
		return;
	}
	if (!typed)
		view_print(c,
		    "(Ctrl-C clears the line; quit or Ctrl-D leaves "
		    "tablero.)\n");
}

/* Handle one line the player typed. */
void
command_line(struct client *c, const char *line)
{
	char word[32];
	struct client_room *r = &c->room;

	command_first(line, word, sizeof word);
	if (c->asking_leave != CLIENT_LEAVE_NO) {
		command_leave_answer(c, line + strspn(line, " \t"));
		return;
	}
	if ((strcmp(word, "quit") == 0 || strcmp(word, "exit") == 0) &&
	    command_leave_asks(c, CLIENT_LEAVE_QUIT))
		return;
	if (strcmp(word, "leave") == 0 && command_args(line)[0] == '\0' &&
	    command_leave_asks(c, CLIENT_LEAVE_ROOM))
		return;
	if (c->asking_name) {
		if (word[0] == '\0')
			return;
		c->asking_name = 0;
		games_trim(line, c->opts.name, sizeof c->opts.name);
		session_hello(c);
		return;
	}
	if (c->asking_start != NULL) {
		command_start(c, line);
		return;
	}
	if (word[0] == '\0' && room_my_turn(r) && r->cg != NULL &&
	    r->cg->steps && r->have_state) {
		command_game(c, line); /* back a step */
		return;
	}
	if (word[0] == '\0')
		return;
	if (r->active && r->ask_again && !command_is_verb(word)) {
		command_again(c, line);
		return;
	}
	if (strcmp(word, "hello") == 0) {
		view_print(
		    c, "You are logged in already (as %s).\n", c->opts.name);
		return;
	}
	if (strcmp(word, "mode") == 0) {
		view_print(c,
		    "The mode is for telnet: this client speaks JSON to the "
		    "server and shows you text.\n");
		return;
	}
	if (strcmp(word, "join") == 0 && command_args(line)[0] == '\0' &&
	    c->invited[0] != '\0') {
		char join[CLIENT_FIELD + 8];
		snprintf(join, sizeof join, "join %s", c->invited);
		c->invited[0] = '\0';
		command_verb(c, join);
		return;
	}
	if (strcmp(word, "password") == 0 && c->interactive) {
		account_password(c); /* asked, never typed on the line */
		return;
	}
	if (strcmp(word, "mine") == 0) {
		mine_list(c);
		return;
	}
	if (strcmp(word, "load") == 0) {
		files_load(c, command_args(line));
		return;
	}
	if (strcmp(word, "save") == 0) {
		files_save(c, command_args(line));
		return;
	}
	if (strcmp(word, "exit") == 0) {
		command_simple(c, "quit", CLIENT_P_PRINT);
		c->quitting = 1;
		return;
	}
	if (proto_verb_from_name(word) != PROTO_VERB_COUNT) {
		command_verb(c, line);
		return;
	}
	if (room_my_turn(r) && r->cg != NULL && r->have_state) {
		command_game(c, line);
		return;
	}
	if (r->active && r->status == PROTO_ROOM_ENDED && r->myseat >= 0 &&
	    r->cg != NULL && r->cg->again_verb != NULL &&
	    strcmp(word, "r") == 0) {
		/* the play-again question answered no, then r after all */
		command_simple(c, r->cg->again_verb(r), CLIENT_P_PRINT);
		return;
	}
	if (r->active && r->myseat < 0) {
		view_print(c,
		    "You are watching room %s: only its players move. "
		    "(help lists the commands.)\n",
		    r->id);
		return;
	}
	if (r->active && r->status == PROTO_ROOM_PLAYING && r->turn >= 0 &&
	    r->myseat >= 0) {
		char who[CLIENT_LABEL];
		view_print(c, "It is not your turn: %s is to move.\n",
		    room_seat_label(r, r->turn, who, sizeof who));
		return;
	}
	view_print(c, "Unknown command '%s': help lists the commands.\n", word);
}
