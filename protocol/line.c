/*
 * line.c: a line built by appending strings and integers, for the
 * messages printed from a template instead of a cJSON tree (the move's
 * reply, the lean moved event): no allocation, and no printf, whose
 * format parsing cost more than the rest of such a line's making.
 */
#include <string.h>

#include "protocol/protocol.h"

void
proto_line_mem(struct proto_line *l, const char *s, size_t n)
{
	if (l->full || n >= l->cap - l->len) {
		l->full = 1;
		return;
	}
	memcpy(l->buf + l->len, s, n);
	l->len += n;
	l->buf[l->len] = '\0';
}

void
proto_line_str(struct proto_line *l, const char *s)
{
	proto_line_mem(l, s, strlen(s));
}

void
proto_line_int(struct proto_line *l, long long v)
{
	char buf[PROTO_INT_CHARS];

	proto_line_str(l, proto_int_digits(buf, v));
}

int
proto_json_plain(const char *s)
{
	for (; *s != '\0'; s++)
		if (*s == '"' || *s == '\\' || (unsigned char)*s < 0x20)
			return 0;
	return 1;
}
