/*
 * fuzz_cluster_wire.c: what a link port reads (server/cluster/
 * cluster_wire.c) under random bytes: the opening line anyone may send,
 * then frames, their packs' RESP bulk strings and their messages'
 * LEN:BYTES fields, as a node reads them. Each piece is copied to a
 * buffer of exactly its size, so that a read past it is ASan's to see;
 * what the parsers hand back lies inside what they were given, and a
 * message's fields end where their lengths say, on a NUL.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "server/cluster/cluster_wire.h"

/* Inputs beyond this teach the fuzzer nothing new. */
#define FUZZ_INPUT_MAX 65536
/* The frames' cap here: small, so that the fuzzer reaches it. */
#define FUZZ_FRAME_MAX 4096
/* A message's fields, at most (as cluster_stream.c's). */
#define FUZZ_FIELDS 24

/* n bytes of p on the heap, exactly. */
static char *
fuzz_copy(const char *p, size_t n)
{
	char *c = malloc(n > 0 ? n : 1);

	if (c == NULL)
		abort();
	memcpy(c, p, n);
	return c;
}

/* One message's fields: each inside the message, NUL-ended. */
static void
fuzz_message(const char *p, size_t n)
{
	char *m = fuzz_copy(p, n), *str[FUZZ_FIELDS];
	size_t lens[FUZZ_FIELDS];
	int k, i;

	k = wire_fields(m, n, str, lens, FUZZ_FIELDS);
	if (k > FUZZ_FIELDS)
		abort();
	for (i = 0; i < k; i++)
		if (str[i] < m || str[i] + lens[i] >= m + n ||
		    str[i][lens[i]] != '\0')
			abort();
	free(m);
}

/* One frame's pack: pairs of bulk strings, each inside the frame. */
static void
fuzz_pack(const char *p, size_t n)
{
	char *f = fuzz_copy(p, n), *q = f, *end = f + n, *s;
	size_t len;

	while (q < end && wire_bulk(&q, end, &s, &len) == 0) {
		if (s < f || s + len > end || q > end)
			abort();
		fuzz_message(s, len);
	}
	free(f);
}

/* The opening line: what it hands back is valid as it says. */
static void
fuzz_hello(const char *p, size_t n)
{
	char *line = fuzz_copy(p, n);
	struct wire_hello h;

	if (wire_hello_parse(line, n, &h) == 0) {
		if (!cluster_node_valid(h.from) ||
		    strlen(h.secret) != CLUSTER_LINK_SECRET - 1 ||
		    h.fence[0] == '\0')
			abort();
		(void)wire_id_cmp(h.fence, "0-0");
	}
	free(line);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *nl;
	size_t off, hlen, len;
	int rc;

	if (size > FUZZ_INPUT_MAX)
		return 0;
	nl = memchr(p, '\n', size);
	if (nl == NULL)
		return 0;
	fuzz_hello(p, (size_t)(nl - p));
	off = (size_t)(nl - p) + 1;
	while (off < size) {
		rc = wire_frame_head(
		    p + off, size - off, FUZZ_FRAME_MAX, &hlen, &len);
		if (rc <= 0)
			break;
		if (hlen > size - off || len > FUZZ_FRAME_MAX)
			abort();
		off += hlen;
		if (len > size - off)
			break;
		fuzz_pack(p + off, len);
		off += len;
	}
	return 0;
}
