/*
 * fuzz_proto_framer.c: the line framer under random bytes and random
 * chunking. Every line handed out fits the limit and holds no "\n"; the
 * framer never holds more than the limit; and the lines do not depend on
 * how the bytes were split into chunks, nor on the buffer being given back
 * (proto_framer_trim) between chunks.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/protocol.h"

/* Inputs beyond this teach the fuzzer nothing new. */
#define FUZZ_INPUT_MAX 65536

/* What came out of one run: every line (with a 0xff... separator kept out
 * of the way by storing lengths) and the too-long reports. */
struct fuzz_out {
	unsigned char *bytes;
	size_t len, cap;
	int toolong;
};

static void
fuzz_keep(struct fuzz_out *o, const char *line, size_t len)
{
	size_t need = o->len + len + sizeof len;

	if (need > o->cap) {
		o->cap = need * 2;
		o->bytes = realloc(o->bytes, o->cap);
		if (o->bytes == NULL)
			abort();
	}
	memcpy(o->bytes + o->len, &len, sizeof len);
	memcpy(o->bytes + o->len + sizeof len, line, len);
	o->len = need;
}

/* Feed data in chunks whose sizes come from a little PRNG (seed 0: all at
 * once). */
static void
fuzz_run(const uint8_t *data, size_t size, size_t limit, uint32_t seed,
    struct fuzz_out *o)
{
	struct proto_framer *f = proto_framer_new(limit);
	const char *line;
	size_t off = 0, n, used, linelen;
	int toolong;

	if (f == NULL)
		abort();
	while (off < size) {
		n = size - off;
		if (seed != 0) {
			seed = seed * 1103515245u + 12345u;
			n = 1 + (seed >> 16) % 17;
			if (n > size - off)
				n = size - off;
		}
		while (n > 0) {
			used = proto_framer_push(f, (const char *)data + off, n,
			    &line, &linelen, &toolong);
			if (used == 0 || used > n)
				abort();
			off += used;
			n -= used;
			if (proto_framer_pending(f) > limit)
				abort();
			o->toolong += toolong;
			if (line == NULL)
				continue;
			if (linelen == 0 || linelen > limit ||
			    memchr(line, '\n', linelen) != NULL ||
			    line[linelen] != '\0')
				abort();
			fuzz_keep(o, line, linelen);
		}
		/* as the server does once a connection's input is read:
		 * giving the buffer back changes no line */
		if (seed != 0) {
			proto_framer_trim(f);
			if (proto_framer_held(f) > limit + 1)
				abort();
		}
	}
	proto_framer_free(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_out whole = {NULL, 0, 0, 0}, split = {NULL, 0, 0, 0};
	size_t limit;
	uint32_t seed;

	if (size < 3 || size > FUZZ_INPUT_MAX)
		return 0;
	/* the first bytes choose the limit and the chunking */
	limit = 1 + data[0] % 64;
	seed = 1 + data[1] + 256u * data[2];
	data += 3;
	size -= 3;
	fuzz_run(data, size, limit, 0, &whole);
	fuzz_run(data, size, limit, seed, &split);
	if (whole.len != split.len || whole.toolong != split.toolong ||
	    (whole.len > 0 && memcmp(whole.bytes, split.bytes, whole.len) != 0))
		abort();
	free(whole.bytes);
	free(split.bytes);
	return 0;
}
