/*
 * fuzz_proto_proxy.c: the PROXY protocol header parser under random bytes.
 * It never reads past what it is given; a header it takes is within the
 * bytes and PROTO_PROXY_MAX, its family and reason are sane; "more" is
 * never said past PROTO_PROXY_MAX bytes; and the verdict does not depend
 * on how the bytes came: fed one more byte at a time, the first prefix
 * that is not "more" gets the verdict (and the header) the whole input
 * gets, as the server's reader relies on (it takes every byte of a "more"
 * and exactly a header's).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/protocol.h"

/* Past a header's longest, more bytes teach nothing new. */
#define FUZZ_INPUT_MAX (PROTO_PROXY_MAX * 2)

/* The checks every verdict must pass. */
static void
fuzz_check(int rc, size_t size, const struct proto_proxy *pp)
{
	if (rc == PROTO_PROXY_MORE && size >= PROTO_PROXY_MAX)
		abort();
	if (rc == PROTO_PROXY_BAD && pp->why == NULL)
		abort();
	if (rc != PROTO_PROXY_DONE)
		return;
	if (pp->len == 0 || pp->len > size || pp->len > PROTO_PROXY_MAX ||
	    (pp->version != 1 && pp->version != 2))
		abort();
	if (pp->version == 1 && pp->len > PROTO_PROXY_V1_MAX)
		abort();
	if (!pp->local && pp->family != 4 && pp->family != 6)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proto_proxy whole, part;
	uint8_t *copy;
	size_t i;
	int rc, rc2 = PROTO_PROXY_MORE;

	if (size > FUZZ_INPUT_MAX)
		return 0;
	/* An exact-size copy, so ASan sees any read past the end. */
	copy = malloc(size > 0 ? size : 1);
	if (copy == NULL)
		abort();
	memcpy(copy, data, size);
	rc = proto_proxy_parse(copy, size, &whole);
	fuzz_check(rc, size, &whole);
	for (i = 1; i <= size && rc2 == PROTO_PROXY_MORE; i++) {
		rc2 = proto_proxy_parse(copy, i, &part);
		fuzz_check(rc2, i, &part);
	}
	if (rc2 != rc)
		abort();
	if (rc == PROTO_PROXY_DONE &&
	    (part.len != whole.len || part.local != whole.local ||
	        part.family != whole.family || part.port != whole.port ||
	        memcmp(part.addr, whole.addr, sizeof part.addr) != 0))
		abort();
	free(copy);
	return 0;
}
