/*
 * framer.c: turns the bytes of a connection into lines. Telnet IAC
 * sequences are removed first (their state survives chunk boundaries), then
 * "\n" or "\r\n" ends a line, blank lines are skipped and a line longer than
 * the limit is reported once and dropped without ever being held whole.
 * The line buffer grows only as a line needs it, so an idle connection
 * holds none and a short-line one a small one.
 */
#include <stdlib.h>
#include <string.h>

#include "protocol/protocol.h"

/* Telnet bytes (RFC 854). */
#define FRAMER_IAC 255
#define FRAMER_DONT 254
#define FRAMER_DO 253
#define FRAMER_WONT 252
#define FRAMER_WILL 251
#define FRAMER_SB 250
#define FRAMER_SE 240

/* Bytes of the first line buffer: most requests (a move, a ping) fit. */
#define FRAMER_BUF_MIN 128
/* A buffer grown past this for one long line (a board file) is given back
 * once that line is handled, so it is not held for the connection's life. */
#define FRAMER_BUF_KEEP 1024

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
	char *buf;                /* cap bytes, NULL while cap is 0 */
	size_t cap;               /* always > len when buf is set (for a NUL) */
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

size_t
proto_framer_held(const struct proto_framer *f)
{
	return f->cap;
}

/* Make room for n more bytes and the NUL after them (the line stays within
 * the limit): 0, or -1 when out of memory. Doubles, from FRAMER_BUF_MIN up
 * to limit + 1. */
static int
framer_grow(struct proto_framer *f, size_t n)
{
	size_t cap;
	char *buf;

	if (f->len + n < f->cap)
		return 0;
	cap = f->cap == 0 ? FRAMER_BUF_MIN : f->cap * 2;
	while (cap < f->len + n + 1 && cap <= f->limit)
		cap *= 2;
	if (cap > f->limit + 1)
		cap = f->limit + 1;
	buf = realloc(f->buf, cap);
	if (buf == NULL)
		return -1;
	f->buf = buf;
	f->cap = cap;
	return 0;
}

void
proto_framer_trim(struct proto_framer *f)
{
	if (f->ready) {
		f->ready = 0;
		f->len = 0;
	}
	if (f->len > 0)
		return;
	free(f->buf);
	f->buf = NULL;
	f->cap = 0;
}

/* Give back a buffer that one long line grew past FRAMER_BUF_KEEP. */
static void
framer_shrink(struct proto_framer *f)
{
	if (f->cap <= FRAMER_BUF_KEEP)
		return;
	free(f->buf);
	f->buf = NULL;
	f->cap = 0;
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

/* Append one byte to the line: 0, -1 when that would pass the limit, or
 * -2 when out of memory. */
static int
framer_add(struct proto_framer *f, unsigned char c)
{
	if (f->skipping)
		return 0;
	if (f->len == f->limit) {
		f->skipping = 1;
		f->len = 0;
		framer_shrink(f);
		return -1;
	}
	if (framer_grow(f, 1) != 0)
		return -2;
	f->buf[f->len++] = (char)c;
	return 0;
}

/* Handle one data byte: 1 when a line is complete, -1 when the line went
 * over the limit, -2 when out of memory, else 0. */
static int
framer_byte(struct proto_framer *f, unsigned char c)
{
	if (f->cr) {
		f->cr = 0;
		if (c == '\n')
			return framer_byte(f, c);
		/* telnet's "\r\0" is a bare CR: keep the CR, drop the NUL */
		int r = framer_add(f, '\r');

		if (r < 0)
			return r;
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

/*
 * The common case at the start of a line: a whole line in buf, within the
 * limit, not blank, with no telnet byte and no CR but its CRLF's, is
 * copied in one go (what the byte-at-a-time way below would make of it).
 * The bytes consumed, or 0 to take that way (also when out of memory:
 * it then says so).
 */
static size_t
framer_whole(struct proto_framer *f, const char *buf, size_t len,
    const char **line, size_t *linelen)
{
	size_t scan = len < f->limit + 2 ? len : f->limit + 2, n, i;
	const char *nl = memchr(buf, '\n', scan);
	int blank = 1;

	if (nl == NULL)
		return 0;
	n = (size_t)(nl - buf);
	if (n > 0 && buf[n - 1] == '\r')
		n--;
	if (n == 0 || n > f->limit)
		return 0;
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (c == FRAMER_IAC || c == '\r')
			return 0;
		if (c != ' ' && c != '\t')
			blank = 0;
	}
	if (blank || framer_grow(f, n) != 0)
		return 0;
	memcpy(f->buf, buf, n);
	f->buf[n] = '\0';
	f->len = n;
	f->ready = 1;
	*line = f->buf;
	*linelen = n;
	return (size_t)(nl - buf) + 1;
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
		framer_shrink(f);
	}
	if (f->len == 0 && !f->cr && !f->skipping && f->state == FRAMER_DATA &&
	    (i = framer_whole(f, buf, len, line, linelen)) > 0)
		return i;
	for (i = 0; i < len; i++) {
		if (!framer_telnet(f, (unsigned char)buf[i], &c))
			continue;
		r = framer_byte(f, c);
		if (r < 0) {
			*toolong = r == -1 ? 1 : -1;
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
