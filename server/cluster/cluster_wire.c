/*
 * cluster_wire.c: the bytes of the nodes' messages, read without the
 * node: a link's opening line and frame heads (cluster_link.c), a pack's
 * RESP bulk strings and a message's LEN:BYTES fields (cluster_stream.c),
 * stream ids. Pure functions of their input, no allocation; the link
 * port takes the opening line from anyone who connects, so
 * tests/fuzz/fuzz_cluster_wire.c feeds all of them at random.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "server/cluster/cluster_wire.h"

int
cluster_node_valid(const char *id)
{
	size_t n = strlen(id), i;

	if (n == 0 || n > CLUSTER_NODE_MAX)
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)id[i]) && id[i] != '-' &&
		    id[i] != '_' && id[i] != '.')
			return 0;
	return 1;
}

/* The next word of line[*i..len) (up to a space) into out (room
 * outlen): 0, or -1 when there is none or it does not fit. */
static int
wire_word(const char *line, size_t len, size_t *i, char *out, size_t outlen)
{
	size_t k = 0;

	while (*i < len && line[*i] == ' ')
		(*i)++;
	while (*i < len && line[*i] != ' ') {
		if (k + 1 >= outlen || line[*i] == '\0')
			return -1;
		out[k++] = line[(*i)++];
	}
	out[k] = '\0';
	return k > 0 ? 0 : -1;
}

/* s as a decimal number without sign or excess: 0 with *n, or -1. */
static int
wire_num(const char *s, unsigned long long *n)
{
	char *end;

	if (s[0] < '0' || s[0] > '9' || strlen(s) > 20)
		return -1;
	*n = strtoull(s, &end, 10);
	return *end == '\0' ? 0 : -1;
}

int
wire_hello_parse(const char *line, size_t len, struct wire_hello *h)
{
	char word[16], num[3][24];
	size_t i = 0;
	unsigned long long version;

	memset(h, 0, sizeof *h);
	if (len > CLUSTER_LINK_HELLO_MAX ||
	    wire_word(line, len, &i, word, sizeof word) != 0 ||
	    strcmp(word, "TABLERO-LINK") != 0 ||
	    wire_word(line, len, &i, num[0], sizeof num[0]) != 0 ||
	    wire_num(num[0], &version) != 0 ||
	    version != CLUSTER_LINK_VERSION ||
	    wire_word(line, len, &i, h->from, sizeof h->from) != 0 ||
	    !cluster_node_valid(h->from) ||
	    wire_word(line, len, &i, num[1], sizeof num[1]) != 0 ||
	    wire_num(num[1], &h->inc) != 0 ||
	    wire_word(line, len, &i, num[2], sizeof num[2]) != 0 ||
	    wire_num(num[2], &h->to) != 0 ||
	    wire_word(line, len, &i, h->secret, sizeof h->secret) != 0 ||
	    strlen(h->secret) != CLUSTER_LINK_SECRET - 1 ||
	    wire_word(line, len, &i, h->fence, sizeof h->fence) != 0)
		return -1;
	while (i < len && line[i] == ' ')
		i++;
	return i == len ? 0 : -1;
}

int
wire_frame_head(
    const char *buf, size_t n, size_t max, size_t *hlen, size_t *len)
{
	size_t d = 0, v = 0;

	while (d < n && buf[d] >= '0' && buf[d] <= '9') {
		if (d == CLUSTER_LINK_LEN_DIGITS)
			return -1;
		v = v * 10 + (size_t)(buf[d] - '0');
		d++;
	}
	if (d == n)
		return 0;
	if (d == 0 || buf[d] != '\n' || v > max)
		return -1;
	*hlen = d + 1;
	*len = v;
	return 1;
}

int
wire_bulk(char **p, char *end, char **str, size_t *len)
{
	char *q = *p;
	size_t n = 0, d = 0;

	if (q >= end || *q++ != '$')
		return -1;
	while (q < end && *q >= '0' && *q <= '9') {
		if (++d > CLUSTER_WIRE_LEN_DIGITS)
			return -1;
		n = n * 10 + (size_t)(*q++ - '0');
	}
	if (d == 0 || end - q < 2 || q[0] != '\r' || q[1] != '\n')
		return -1;
	q += 2;
	if ((size_t)(end - q) < 2 || n > (size_t)(end - q) - 2 ||
	    q[n] != '\r' || q[n + 1] != '\n')
		return -1;
	*str = q;
	*len = n;
	*p = q + n + 2;
	return 0;
}

int
wire_fields(char *p, size_t n, char **str, size_t *lens, int max)
{
	char *end = p + n;
	size_t len, d;
	int k = 0;

	while (p < end) {
		len = 0;
		for (d = 0; p + d < end && p[d] >= '0' && p[d] <= '9' &&
		     d < CLUSTER_WIRE_LEN_DIGITS;
		     d++)
			len = len * 10 + (size_t)(p[d] - '0');
		if (d == 0 || k == max || p + d >= end || p[d] != ':' ||
		    (size_t)(end - (p + d + 1)) <= len ||
		    p[d + 1 + len] != '\0')
			return -1;
		str[k] = p + d + 1;
		lens[k] = len;
		k++;
		p += d + 2 + len;
	}
	return k;
}

int
wire_id_cmp(const char *a, const char *b)
{
	unsigned long long ams, aseq = 0, bms, bseq = 0;
	char *end;

	ams = strtoull(a, &end, 10);
	if (*end == '-')
		aseq = strtoull(end + 1, NULL, 10);
	bms = strtoull(b, &end, 10);
	if (*end == '-')
		bseq = strtoull(end + 1, NULL, 10);
	if (ams != bms)
		return ams < bms ? -1 : 1;
	return aseq < bseq ? -1 : aseq > bseq;
}
