/*
 * framer.c: turns the bytes of a connection into lines. Telnet IAC
 * sequences are removed first (their state survives chunk boundaries), then
 * "\n" or "\r\n" ends a line, blank lines are skipped and a line longer than
 * the limit is reported once and dropped without ever being held whole.
 */
#include <stdlib.h>

#include "protocol/protocol.h"

/* Telnet bytes (RFC 854). */
#define FRAMER_IAC 255
#define FRAMER_DONT 254
#define FRAMER_DO 253
#define FRAMER_WONT 252
#define FRAMER_WILL 251
#define FRAMER_SB 250
#define FRAMER_SE 240

/* Where the telnet decoder is. */
enum framer_telnet {
	FRAMER_DATA,   /* ordinary bytes */
	FRAMER_CMD,    /* after IAC */
	FRAMER_OPTION, /* after IAC WILL/WONT/DO/DONT: one option byte */
	FRAMER_SUB,    /* inside IAC SB ... */
	FRAMER_SUBIAC, /* inside IAC SB ..., after IAC */
};

struct proto_framer {
	size_t limit;
	size_t len;               /* bytes of the current line in buf */
	enum framer_telnet state; /* telnet decoder */
	int cr;                   /* a "\r" is held back, not yet in buf */
	int ready;                /* buf holds a line handed out last call */
	int skipping;             /* dropping an over-long line up to "\n" */
	char *buf;                /* limit + 1 bytes (room for a NUL) */
};

struct proto_framer *
proto_framer_new(size_t limit)
{
	struct proto_framer *f;

	if (limit == 0)
		limit = PROTO_LINE_MAX_DEFAULT;
	f = calloc(1, sizeof *f);
	if (f == NULL)
		return NULL;
	f->buf = malloc(limit + 1);
	if (f->buf == NULL) {
		free(f);
		return NULL;
	}
	f->limit = limit;
	f->state = FRAMER_DATA;
	return f;
}

void
proto_framer_free(struct proto_framer *f)
{
	if (f == NULL)
		return;
	free(f->buf);
	free(f);
}

size_t
proto_framer_pending(const struct proto_framer *f)
{
	return f->ready ? 0 : f->len;
}

/* Run one byte through the telnet decoder: 1 and *out set when it is data. */
static int
framer_telnet(struct proto_framer *f, unsigned char c, unsigned char *out)
{
	switch (f->state) {
	case FRAMER_DATA:
		if (c == FRAMER_IAC) {
			f->state = FRAMER_CMD;
			return 0;
		}
		*out = c;
		return 1;
	case FRAMER_CMD:
		f->state = FRAMER_DATA;
		if (c == FRAMER_IAC) {
			*out = c;
			return 1;
		}
		if (c == FRAMER_WILL || c == FRAMER_WONT || c == FRAMER_DO ||
		    c == FRAMER_DONT)
			f->state = FRAMER_OPTION;
		else if (c == FRAMER_SB)
			f->state = FRAMER_SUB;
		return 0;
	case FRAMER_OPTION:
		f->state = FRAMER_DATA;
		return 0;
	case FRAMER_SUB:
		if (c == FRAMER_IAC)
			f->state = FRAMER_SUBIAC;
		return 0;
	case FRAMER_SUBIAC:
		f->state = c == FRAMER_SE ? FRAMER_DATA : FRAMER_SUB;
		return 0;
	}
	return 0;
}

/* Whether the current line holds only spaces, tabs and CRs. */
static int
framer_blank(const struct proto_framer *f)
{
	size_t i;

	for (i = 0; i < f->len; i++) {
		if (f->buf[i] != ' ' && f->buf[i] != '\t' && f->buf[i] != '\r')
			return 0;
	}
	return 1;
}

/* Append one byte to the line: 0, or -1 when that would pass the limit. */
static int
framer_add(struct proto_framer *f, unsigned char c)
{
	if (f->skipping)
		return 0;
	if (f->len == f->limit) {
		f->skipping = 1;
		f->len = 0;
		return -1;
	}
	f->buf[f->len++] = (char)c;
	return 0;
}

/* Handle one data byte: 1 when a line is complete, -1 when the line went
 * over the limit, else 0. */
static int
framer_byte(struct proto_framer *f, unsigned char c)
{
	if (f->cr) {
		f->cr = 0;
		if (c == '\n')
			return framer_byte(f, c);
		/* telnet's "\r\0" is a bare CR: keep the CR, drop the NUL */
		if (framer_add(f, '\r') == -1)
			return -1;
		if (c == '\0')
			return 0;
	}
	if (c == '\r') {
		f->cr = 1;
		return 0;
	}
	if (c != '\n')
		return framer_add(f, c);
	if (f->skipping) {
		f->skipping = 0;
		f->len = 0;
		return 0;
	}
	if (framer_blank(f)) {
		f->len = 0;
		return 0;
	}
	return 1;
}

size_t
proto_framer_push(struct proto_framer *f, const char *buf, size_t len,
    const char **line, size_t *linelen, int *toolong)
{
	size_t i;
	unsigned char c;
	int r;

	*line = NULL;
	*linelen = 0;
	*toolong = 0;
	if (f->ready) {
		f->ready = 0;
		f->len = 0;
	}
	for (i = 0; i < len; i++) {
		if (!framer_telnet(f, (unsigned char)buf[i], &c))
			continue;
		r = framer_byte(f, c);
		if (r == -1) {
			*toolong = 1;
			return i + 1;
		}
		if (r == 1) {
			f->buf[f->len] = '\0';
			f->ready = 1;
			*line = f->buf;
			*linelen = f->len;
			return i + 1;
		}
	}
	return len;
}
