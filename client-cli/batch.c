/*
 * batch.c: tablero --batch, for scripts and tests. Standard input holds
 * commands, one a line: JSON requests (sent as they are) or shorthand
 * (checked by protocol/'s decoder and sent as JSON), and the client's
 * own `load FILE` and `save FILE`. Standard output gets every reply and
 * event as a JSON line. At the end of input the client waits for the
 * replies still due (and the events they caused: a last ping it does
 * not print proves they have all come), then exits.
 *
 * Without --batch, a standard input that is not a terminal is read the
 * same way, but its lines are what a person would type (command.c) and
 * the output is for people.
 */
#include <sys/stat.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/event.h>

#include "client-cli/client.h"

/* Most bytes of one input line (a JSON request with a board file). */
#define BATCH_LINE_MAX (PROTO_OPTION_VALUE_MAX + 1024)

/* Most bytes of a script given as a regular file (read at once). */
#define BATCH_FILE_MAX (64 * 1024 * 1024)

/* Most bytes of script read ahead of the replies. */
#define BATCH_AHEAD_MAX (4 * BATCH_LINE_MAX)

/* A script line the decoder refused: its error reply, as the server
 * would write it, on stdout. */
static void
batch_refused(struct client *c, const struct proto_request *req,
    enum proto_error e, const char *err)
{
	cJSON *rep = proto_error_reply(req, e, err);
	char *line = proto_json_line(rep);

	if (line != NULL)
		fputs(line, c->out);
	fflush(c->out);
	free(line);
	cJSON_Delete(rep);
}

/* 1 when a script line is handled here, not sent as it is: it must
 * wait for the replies due, so that the output keeps the input's order. */
static int
batch_is_local(const char *line)
{
	struct proto_request req;
	enum proto_error e;

	while (*line == ' ' || *line == '\t')
		line++;
	if (*line == '{' || *line == '\0')
		return 0;
	if (strncmp(line, "load ", 5) == 0 || strncmp(line, "save ", 5) == 0)
		return 1;
	e = proto_decode(line, strlen(line), &req, NULL, 0);
	proto_request_free(&req);
	return e != PROTO_OK;
}

/* One script line. */
static void
batch_line(struct client *c, char *line, size_t len)
{
	struct proto_request req;
	char word[16], err[256];
	enum proto_error e;
	size_t i = 0;

	while (*line == ' ' || *line == '\t')
		line++, len--;
	if (len == 0)
		return;
	if (line[0] == '{') {
		if (conn_send_raw(c, line, len) != 0)
			view_print(c, "batch: cannot send (not connected)\n");
		return;
	}
	while (i + 1 < sizeof word && line[i] != '\0' && line[i] != ' ')
		word[i] = line[i], i++;
	word[i] = '\0';
	if (strcmp(word, "load") == 0 || strcmp(word, "save") == 0) {
		const char *args = line + i;
		while (*args == ' ' || *args == '\t')
			args++;
		if (word[0] == 'l')
			files_load(c, args);
		else
			files_save(c, args);
		return;
	}
	e = proto_decode(line, len, &req, err, sizeof err);
	if (e != PROTO_OK)
		batch_refused(c, &req, e, err);
	else
		conn_send(c, proto_request_encode(&req), CLIENT_P_PRINT, NULL);
	proto_request_free(&req);
}

/* One input line: a script's (--batch) or a person's (piped). */
static void
batch_dispatch(struct client *c, char *line, size_t len)
{
	if (c->opts.batch)
		batch_line(c, line, len);
	else
		command_line(c, line);
}

/* Send the lines read so far, as many as the pending queue allows; at
 * the end of input, finish. */
static void
batch_pump(struct client *c)
{
	char *line;
	size_t len;

	if (!c->connected || (!c->logged_in && c->opts.name[0] != '\0'))
		return;
	if (c->batch_held != NULL && c->npending > 0)
		return;
	if (c->batch_held != NULL) {
		line = c->batch_held;
		c->batch_held = NULL;
		batch_dispatch(c, line, strlen(line));
		free(line);
	}
	while (c->npending < CLIENT_PENDING_MAX - 1 &&
	    (line = evbuffer_readln(c->batch_in, &len, EVBUFFER_EOL_CRLF)) !=
	        NULL) {
		if (c->npending > 0 && batch_is_local(line)) {
			c->batch_held = line;
			return;
		}
		batch_dispatch(c, line, len);
		free(line);
	}
	if (c->npending < CLIENT_PENDING_MAX - 1 &&
	    evbuffer_get_length(c->batch_in) > BATCH_LINE_MAX) {
		view_print(c, "batch: an input line is longer than %d bytes\n",
		    BATCH_LINE_MAX);
		evbuffer_drain(c->batch_in, evbuffer_get_length(c->batch_in));
	}
	/* read no further ahead than this while replies are due */
	if (!c->input_done &&
	    evbuffer_get_length(c->batch_in) > BATCH_AHEAD_MAX)
		event_del(c->batch_ev);
	else if (!c->input_done)
		event_add(c->batch_ev, NULL);
	if (!c->input_done || c->npending > 0 ||
	    evbuffer_get_length(c->batch_in) > 0)
		return;
	if (!c->batch_final) {
		cJSON *ping = cJSON_CreateObject();
		c->batch_final = 1;
		cJSON_AddStringToObject(ping, "cmd", "ping");
		conn_send(c, ping, CLIENT_P_QUIET, NULL);
		return;
	}
	c->quitting = 1;
	event_base_loopexit(c->base, NULL);
}

/* Standard input has bytes (or ended). */
static void
batch_read_cb(evutil_socket_t fd, short what, void *arg)
{
	struct client *c = arg;
	int n = evbuffer_read(c->batch_in, fd, 4096);

	if (n <= 0) {
		c->input_done = 1;
		/* a last line without its newline is still a line */
		if (evbuffer_get_length(c->batch_in) > 0)
			evbuffer_add(c->batch_in, "\n", 1);
		event_del(c->batch_ev);
	}
	batch_pump(c);
}

/* A standard input the event loop cannot watch (a regular file,
 * /dev/null) is read whole at once; 0, or -1 when it is too big or
 * unreadable. */
static int
batch_slurp(struct client *c)
{
	int n;

	while ((n = evbuffer_read(c->batch_in, STDIN_FILENO, 65536)) > 0)
		if (evbuffer_get_length(c->batch_in) > BATCH_FILE_MAX) {
			view_print(c,
			    "batch: the input is longer than %d "
			    "bytes\n",
			    BATCH_FILE_MAX);
			return -1;
		}
	if (n < 0)
		return -1;
	c->input_done = 1;
	if (evbuffer_get_length(c->batch_in) > 0)
		evbuffer_add(c->batch_in, "\n", 1);
	return 0;
}

/* 1 when the event loop can watch standard input: a pipe, a socket, a
 * terminal; not a regular file or a device like /dev/null. */
static int
batch_pollable(void)
{
	struct stat st;

	if (fstat(STDIN_FILENO, &st) != 0)
		return 1;
	if (S_ISREG(st.st_mode))
		return 0;
	return !S_ISCHR(st.st_mode) || isatty(STDIN_FILENO);
}

/* Start reading the script; 0 or -1. */
int
batch_start(struct client *c)
{
	c->batch_in = evbuffer_new();
	c->batch_ev = event_new(
	    c->base, STDIN_FILENO, EV_READ | EV_PERSIST, batch_read_cb, c);
	if (c->batch_in == NULL || c->batch_ev == NULL)
		return -1;
	if (batch_pollable())
		return event_add(c->batch_ev, NULL);
	return batch_slurp(c);
}

/* A reply came (or we logged in): more lines may go out now. */
void
batch_reply_seen(struct client *c)
{
	if (c->batch_in != NULL)
		batch_pump(c);
}

/* Free the script's buffer. */
void
batch_stop(struct client *c)
{
	if (c->batch_ev != NULL)
		event_free(c->batch_ev);
	if (c->batch_in != NULL)
		evbuffer_free(c->batch_in);
	free(c->batch_held);
	c->batch_held = NULL;
	c->batch_ev = NULL;
	c->batch_in = NULL;
}
