/*
 * term.c: the keyboard and the screen of an interactive tablero, through
 * libedit's readline-compatible callback interface driven by the same
 * libevent loop as the socket: a line typed goes to command.c; anything
 * the server says is printed above the prompt, and the prompt with what
 * the user was typing is drawn again, so input is never garbled. Tab
 * completes verbs, game names and room ids. A clock ticks the prompt
 * once a second while a timed game runs.
 */
#include <sys/ioctl.h>

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>
#include <editline/readline.h>

#include "client-cli/client.h"

/* The one client libedit's callbacks (which take no argument) serve:
 * libedit itself is a single global, so this is its twin. */
static struct client *term_client;
static struct event *term_stdin;
static char term_prompt_text[1024];
/* 1 while libedit runs our line handler: the cursor is at the start of a
 * fresh line and the prompt is drawn when the handler is installed again,
 * so nothing is to be erased or redrawn meanwhile. */
static int term_in_handler;

/* Longest room id list kept for completion. */
#define TERM_ROOMS_MAX 64

/* The signals that end an interactive client, handled in the loop. */
static const int term_signal_nos[] = {SIGINT, SIGTERM, SIGHUP};
#define TERM_NSIGNALS (int)(sizeof term_signal_nos / sizeof term_signal_nos[0])
static struct event *term_signals[TERM_NSIGNALS];

/* Room ids seen in replies, for completion. */
static char term_rooms[TERM_ROOMS_MAX][CLIENT_FIELD];
static int term_nrooms;

/* 1 while the word being completed is the line's first (a verb). */
static int term_first_word;
/* 1 while it is the second word after `tourney`: its subcommands first. */
static int term_tourney_word;
static const char *const term_tourney_words[] = {
    "create", "join", "leave", "start", "list", "show", NULL};

/* Remember a room id for tab completion. */
void
term_add_room(const char *id)
{
	int i;

	for (i = 0; i < term_nrooms; i++)
		if (strcmp(term_rooms[i], id) == 0)
			return;
	if (term_nrooms < TERM_ROOMS_MAX)
		snprintf(term_rooms[term_nrooms++], CLIENT_FIELD, "%s", id);
}

/* How many command words and games there are. */
static int
term_words(void)
{
	int n = 0;

	while (command_word(n) != NULL)
		n++;
	return n;
}

static int
term_games(void)
{
	int n = 0;

	while (games_at(n) != NULL)
		n++;
	return n;
}

/* Completion candidates, those starting with text, one per call (state
 * 0: the first): verbs and local commands for the line's first word,
 * game names and room ids after it. */
static char *
term_complete_one(const char *text, int state)
{
	static int i;
	size_t n = strlen(text);
	int words = term_first_word ? term_words() : 0;
	int sub = 0;
	const char *w;

	if (state == 0)
		i = 0;
	while (term_tourney_word && term_tourney_words[sub] != NULL)
		sub++;
	for (;; i++) {
		int k = i - words - sub;
		const struct client_game *g;
		if (i < sub)
			w = term_tourney_words[i];
		else if (i < words + sub)
			w = command_word(i - sub);
		else if (term_first_word)
			return NULL;
		else if ((g = games_at(k)) != NULL)
			w = g->rules->name;
		else if (k - term_games() < term_nrooms)
			w = term_rooms[k - term_games()];
		else
			return NULL;
		if (strncmp(w, text, n) == 0) {
			i++;
			return strdup(w);
		}
	}
}

/* libedit's completion hook: the word at start is the first when only
 * blanks come before it. */
static char **
term_complete(const char *text, int start, int end)
{
	struct client_room *r = &term_client->room;
	int i;

	if (r->active)
		term_add_room(r->id);
	term_first_word = 1;
	for (i = 0; i < start && rl_line_buffer[i] != '\0'; i++)
		if (rl_line_buffer[i] != ' ' && rl_line_buffer[i] != '\t')
			term_first_word = 0;
	/* "tourney " and nothing more before the word: its subcommand */
	i = 0;
	while (rl_line_buffer[i] == ' ' || rl_line_buffer[i] == '\t')
		i++;
	term_tourney_word = strncmp(rl_line_buffer + i, "tourney", 7) == 0 &&
	    (rl_line_buffer[i + 7] == ' ' || rl_line_buffer[i + 7] == '\t') &&
	    strspn(rl_line_buffer + i + 7, " \t") == (size_t)(start - i - 7);
	rl_attempted_completion_over = 1;
	return rl_completion_matches(text, term_complete_one);
}

/* Build the prompt for where the player is. */
static void
term_build_prompt(struct client *c)
{
	struct client_room *r = &c->room;
	char ask[256] = "", clocks[256] = "", waiting[256];

	view_clocks(c, clocks, sizeof clocks);
	if (c->asking_name)
		snprintf(ask, sizeof ask, "Your name: ");
	else if (c->asking_leave == CLIENT_LEAVE_ROOM)
		snprintf(
		    ask, sizeof ask, "Leave room %s and resign? (y/n) ", r->id);
	else if (c->asking_leave == CLIENT_LEAVE_QUIT)
		snprintf(ask, sizeof ask, "Quit tablero anyway? (y/n) ");
	else if (c->asking_start != NULL)
		snprintf(
		    ask, sizeof ask, "%s ", c->asking_start->start_question);
	else if (r->active && r->ask_again && r->cg != NULL)
		snprintf(ask, sizeof ask, "%s ", r->cg->again);
	else if (room_my_turn(r) && r->cg != NULL && r->have_state)
		r->cg->prompt(r, ask, sizeof ask);
	else if (r->active)
		snprintf(ask, sizeof ask, "[%s] > ", r->id);
	else
		snprintf(ask, sizeof ask, "tablero> ");
	mine_waiting(c, waiting, sizeof waiting);
	if (clocks[0] != '\0' && r->clocks_running)
		snprintf(term_prompt_text, sizeof term_prompt_text,
		    "%s%s%s[%s] %s", waiting[0] ? "(your move in" : "", waiting,
		    waiting[0] ? ") " : "", clocks, ask);
	else
		snprintf(term_prompt_text, sizeof term_prompt_text, "%s%s%s%s",
		    waiting[0] ? "(your move in" : "", waiting,
		    waiting[0] ? ") " : "", ask);
}

/* Draw the prompt anew (after the state changed). */
void
term_prompt(struct client *c)
{
	if (!c->interactive || secret_active())
		return; /* piped input: no prompts between the answers; a
		           secret keeps its own prompt */
	term_build_prompt(c);
	rl_set_prompt(term_prompt_text);
	if (term_in_handler)
		return;
	/* libedit redraws from column 0 of the line the cursor is on */
	fputs("\r\033[K", c->out);
	fflush(c->out);
	rl_forced_update_display();
}

/* Print text above the prompt, keeping what the user was typing. */
void
term_write(struct client *c, const char *text)
{
	if (!c->interactive) {
		fputs(text, c->out);
		fflush(c->out);
		return;
	}
	if (term_in_handler) {
		fputs(text, c->out);
		fflush(c->out);
		return;
	}
	if (secret_active()) {
		fputs("\r\033[K", c->out);
		fputs(text, c->out);
		secret_redraw(c);
		return;
	}
	/* erase the prompt line, print, and let libedit draw it again */
	fputs("\r\033[K", c->out);
	fputs(text, c->out);
	fflush(c->out);
	rl_forced_update_display();
}

/* A whole line typed (NULL: end of input). */
static void
term_line(char *line)
{
	struct client *c = term_client;

	if (line == NULL) {
		fputs("\n", c->out);
		if (c->asking_leave == CLIENT_LEAVE_NO &&
		    command_leave_asks(c, CLIENT_LEAVE_QUIT)) {
			/* a second Ctrl-D at the question leaves */
			term_build_prompt(c);
			rl_callback_handler_install(
			    term_prompt_text, term_line);
			return;
		}
		c->quitting = 1;
		event_base_loopexit(c->base, NULL);
		return;
	}
	/* a password verb's line may hold one: never kept */
	if (*line != '\0' &&
	    strncmp(line + strspn(line, " \t"), "password", 8) != 0)
		add_history(line);
	term_in_handler = 1;
	command_line(c, line);
	free(line);
	term_in_handler = 0;
	/* libedit leaves the finished line in its buffer and reads the next
	 * one blocking unless the handler is installed again: this clears
	 * the line, goes back to one key at a time and draws the prompt
	 * (unless the line asked a secret, which has the keyboard now) */
	if (c->interactive && !secret_active()) {
		term_build_prompt(c);
		rl_callback_handler_install(term_prompt_text, term_line);
	}
}

/* The keyboard has bytes for libedit; none at all means the terminal is
 * gone (libedit would then return without a word, and the loop spin). */
static void
term_read_cb(evutil_socket_t fd, short what, void *arg)
{
	struct client *c = arg;
	int avail = 0;

	if (ioctl(fd, FIONREAD, &avail) == 0 && avail == 0) {
		c->quitting = 1;
		event_base_loopexit(c->base, NULL);
		return;
	}
	if (secret_active()) {
		if (secret_read(c, fd) != 0) {
			c->quitting = 1;
			event_base_loopexit(c->base, NULL);
		}
		return;
	}
	rl_callback_read_char();
}

/* SIGINT (Ctrl-C): drop the line being typed, as a shell does, and draw
 * a fresh prompt below it. */
static void
term_interrupt(struct client *c)
{
	int typed = rl_end > 0; /* libedit sets it at each key */

	/* libedit empties its line when the handler is installed anew (and
	 * sets rl_end again only at the next key) */
	rl_callback_handler_remove();
	rl_end = rl_point = 0;
	fputs("^C\n", c->out);
	term_in_handler = 1; /* the cursor is on a fresh line */
	command_interrupt(c, typed);
	term_in_handler = 0;
	term_build_prompt(c);
	rl_callback_handler_install(term_prompt_text, term_line);
}

/* SIGINT clears the line; SIGTERM, SIGHUP leave cleanly, the terminal
 * given back (in the loop, not in a signal handler: libedit's own
 * handlers may deadlock on stdio's locks). */
static void
term_signal_cb(evutil_socket_t sig, short what, void *arg)
{
	struct client *c = arg;

	if (sig == SIGINT && c->interactive && secret_active()) {
		fputs("^C", c->out);
		secret_cancel(c); /* the secret's function says what now */
		return;
	}
	if (sig == SIGINT && c->interactive) {
		term_interrupt(c);
		return;
	}
	c->quitting = 1;
	event_base_loopexit(c->base, NULL);
}

/* Once a second in a timed game: the prompt's clock counts down. */
static void
term_tick_cb(evutil_socket_t fd, short what, void *arg)
{
	struct client *c = arg;

	if (c->room.active && c->room.has_clocks && c->room.clocks_running)
		term_prompt(c);
}

/* libedit lets go of the keyboard (a secret is asked: secret.c). */
void
term_editor_off(struct client *c)
{
	rl_callback_handler_remove();
	rl_end = rl_point = 0;
	fputs("\r\033[K", c->out);
	fflush(c->out);
}

/* libedit takes the keyboard again, with a fresh prompt, unless the
 * loop is inside our line handler (which installs it as it returns). */
void
term_editor_on(struct client *c)
{
	if (!c->interactive || term_in_handler)
		return;
	term_build_prompt(c);
	rl_callback_handler_install(term_prompt_text, term_line);
}

/* Take the terminal; 0 or -1. */
int
term_start(struct client *c)
{
	struct timeval sec = {1, 0};
	int i;

	term_client = c;
	rl_catch_signals = 0;
	rl_readline_name = "tablero";
	rl_attempted_completion_function = term_complete;
	rl_completer_word_break_characters = " \t";
	term_build_prompt(c);
	rl_callback_handler_install(term_prompt_text, term_line);
	term_stdin = event_new(
	    c->base, STDIN_FILENO, EV_READ | EV_PERSIST, term_read_cb, c);
	c->tick = event_new(c->base, -1, EV_PERSIST, term_tick_cb, c);
	if (term_stdin == NULL || c->tick == NULL)
		return -1;
	for (i = 0; i < TERM_NSIGNALS; i++) {
		term_signals[i] = evsignal_new(
		    c->base, term_signal_nos[i], term_signal_cb, c);
		if (term_signals[i] == NULL)
			return -1;
		event_add(term_signals[i], NULL);
	}
	event_add(term_stdin, NULL);
	event_add(c->tick, &sec);
	c->interactive = 1;
	return 0;
}

/* Give the terminal back. */
void
term_stop(struct client *c)
{
	int i;

	if (!c->interactive)
		return;
	rl_callback_handler_remove();
	fputs("\n", c->out); /* the shell goes on below the prompt */
	if (term_stdin != NULL)
		event_free(term_stdin);
	term_stdin = NULL;
	if (c->tick != NULL)
		event_free(c->tick);
	c->tick = NULL;
	for (i = 0; i < TERM_NSIGNALS; i++) {
		if (term_signals[i] != NULL)
			event_free(term_signals[i]);
		term_signals[i] = NULL;
	}
	c->interactive = 0;
}
