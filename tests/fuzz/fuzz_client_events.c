/*
 * fuzz_client_events.c: the tablero client's handling of what a server
 * sends (client-cli/session.c and everything it calls: rooms, boards,
 * game prompts) on arbitrary lines. The first byte picks a game whose
 * room the client is put in first (a canned create reply); then each
 * line of the input is a line from the server, or, when it starts with
 * '>', a line the player typed. Nothing may crash, leak or overflow.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <event2/event.h>

#include "client-cli/client.h"

/* Inputs beyond this teach the fuzzer nothing new. */
#define FUZZ_INPUT_MAX 65536

/* A create reply that puts the client (named "fz") in a room of each
 * game, in a running game where it is to move. */
static const char *const fuzz_rooms[] = {
    "{\"re\":\"create\",\"ok\":true,\"room\":\"r1\",\"seat\":\"white\","
    "\"state\":{\"room\":\"r1\",\"game\":\"ataxx\",\"options\":{\"size\":"
    "\"5\"},\"seats\":[{\"seat\":\"white\",\"name\":\"fz\",\"bot\":null},"
    "{\"seat\":\"black\",\"name\":null,\"bot\":1}],\"turn\":\"white\","
    "\"status\":\"playing\",\"position\":\"x3o/5/5/5/o3x x 0 1\","
    "\"history\":[{}],\"clocks\":{\"white\":60000,\"black\":60000},"
    "\"seq\":2}}",
    "{\"re\":\"create\",\"ok\":true,\"room\":\"r1\",\"seat\":\"white\","
    "\"state\":{\"room\":\"r1\",\"game\":\"amazons\",\"options\":{},"
    "\"seats\":[{\"seat\":\"white\",\"name\":\"fz\",\"bot\":null},"
    "{\"seat\":\"black\",\"name\":\"b\",\"bot\":null}],\"turn\":\"white\","
    "\"status\":\"playing\",\"position\":\"3B2B3/10/10/B8B/10/10/W8W/10/10/"
    "3W2W3 w\",\"history\":[{}],\"seq\":2}}",
    "{\"re\":\"create\",\"ok\":true,\"room\":\"r1\",\"seat\":\"player 1\","
    "\"state\":{\"room\":\"r1\",\"game\":\"stones\",\"options\":{},"
    "\"seats\":[{\"seat\":\"player 1\",\"name\":\"fz\",\"bot\":null},"
    "{\"seat\":\"player 2\",\"name\":\"b\",\"bot\":null}],\"turn\":"
    "\"player 1\",\"status\":\"playing\",\"position\":\".../.../... x x\","
    "\"history\":[{}],\"seq\":2}}",
    "{\"re\":\"create\",\"ok\":true,\"room\":\"r1\",\"seat\":\"player\","
    "\"state\":{\"room\":\"r1\",\"game\":\"solitaire\",\"options\":{},"
    "\"seats\":[{\"seat\":\"player\",\"name\":\"fz\",\"bot\":null}],"
    "\"turn\":\"player\",\"status\":\"playing\",\"position\":\"7x7:##ooo##/"
    "##ooo##/ooooooo/ooo.ooo/ooooooo/##ooo##/##ooo## goal=4,4\","
    "\"history\":[{}],\"seq\":2}}",
    "{\"re\":\"create\",\"ok\":true,\"room\":\"r1\",\"seat\":\"player\","
    "\"state\":{\"room\":\"r1\",\"game\":\"shifter\",\"options\":{\"seed\":"
    "\"7\"},\"seats\":[{\"seat\":\"player\",\"name\":\"fz\",\"bot\":null}],"
    "\"turn\":\"player\",\"status\":\"playing\",\"position\":\"1 ......../"
    "......../......../......../......../......A./..A...../....C... g3\","
    "\"history\":[{}],\"seq\":2}}",
};

#define FUZZ_NROOMS (sizeof fuzz_rooms / sizeof fuzz_rooms[0])

/* One line: typed by the player ('>') or sent by the server. */
static void
fuzz_line(struct client *c, const char *line, size_t len)
{
	char *typed;

	if (len > 0 && line[0] == '>') {
		/* load reads a local file: a fifo or a device would block */
		if (len >= 5 && strncasecmp(line + 1, "load", 4) == 0)
			return;
		typed = malloc(len);
		if (typed == NULL)
			return;
		memcpy(typed, line + 1, len - 1);
		typed[len - 1] = '\0';
		command_line(c, typed);
		free(typed);
		return;
	}
	session_line(c, line, len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;
	struct client c;
	const char *p, *end, *nl;

	if (size < 1 || size > FUZZ_INPUT_MAX)
		return 0;
	if (sink == NULL)
		sink = fopen("/dev/null", "w");
	memset(&c, 0, sizeof c);
	room_clear(&c.room);
	c.out = sink;
	c.base = event_base_new();
	snprintf(c.opts.name, sizeof c.opts.name, "fz");
	snprintf(c.opts.host, sizeof c.opts.host, "fuzz.invalid");
	snprintf(c.opts.port, sizeof c.opts.port, "1");
	c.opts.color = data[0] & 0x80;
	session_line(&c, fuzz_rooms[data[0] % FUZZ_NROOMS],
	    strlen(fuzz_rooms[data[0] % FUZZ_NROOMS]));
	p = (const char *)data + 1;
	end = (const char *)data + size;
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		fuzz_line(&c, p, (size_t)(nl - p));
		p = nl + 1;
	}
	conn_stop(&c);
	if (c.retry != NULL)
		event_free(c.retry);
	session_free(&c);
	event_base_free(c.base);
	return 0;
}
