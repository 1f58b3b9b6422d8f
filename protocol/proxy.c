/*
 * proxy.c: the PROXY protocol's header (HAProxy's proxy-protocol.txt,
 * versions 1 and 2), which a load balancer in TCP mode sends first on each
 * connection to tell the server whose connection it is. Parsing only, over
 * the bytes read so far: no sockets, no allocation. The server (server/
 * proxy.c) reads the header off a trusted proxy's connection with it.
 *
 * Version 1 is one text line, "PROXY TCP4|TCP6 SRC DST SPORT DPORT\r\n" or
 * "PROXY UNKNOWN ...\r\n", at most PROTO_PROXY_V1_MAX bytes. Version 2 is
 * a 16-byte binary head (a 12-byte signature, version and command, family
 * and transport, the length of the rest) and that many bytes: addresses,
 * then TLVs, which are skipped. Anything that is not exactly one of these
 * is malformed: the spec says to drop the connection, never to guess.
 */
#include <arpa/inet.h>
#include <string.h>

#include "protocol/protocol.h"

/* Version 2's signature: starts like no other protocol's first bytes. */
static const unsigned char proto_proxy_sig[12] = {
    0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};
/* Version 1's first word, and its longest address text (an IPv6 one). */
static const char proto_proxy_v1_word[] = "PROXY ";
#define PROTO_PROXY_V1_ADDR_MAX 39
/* Version 2's fixed head and its address blocks' sizes (spec 2.2). */
#define PROTO_PROXY_V2_HEAD 16
#define PROTO_PROXY_V2_INET_LEN 12
#define PROTO_PROXY_V2_INET6_LEN 36

/* A malformed header: its reason kept, PROTO_PROXY_BAD returned. */
static int
proto_proxy_bad(struct proto_proxy *out, const char *why)
{
	out->why = why;
	return PROTO_PROXY_BAD;
}

/* Does buf (len bytes) start as prefix (plen bytes) does, as far as it
 * goes? */
static int
proto_proxy_prefix(
    const unsigned char *buf, size_t len, const void *prefix, size_t plen)
{
	return memcmp(buf, prefix, len < plen ? len : plen) == 0;
}

/* A port in version 1's words: 1 to 5 digits, no heading zero, at most
 * 65535. 0, or -1. */
static int
proto_proxy_v1_port(const char *s, size_t len, uint16_t *port)
{
	unsigned long v = 0;
	size_t i;

	if (len == 0 || len > 5 || (len > 1 && s[0] == '0'))
		return -1;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	if (v > 65535)
		return -1;
	*port = (uint16_t)v;
	return 0;
}

/* An address in version 1's words, of the family the line named. 0, or
 * -1. */
static int
proto_proxy_v1_addr(const char *s, size_t len, int family, uint8_t *addr)
{
	char text[PROTO_PROXY_V1_ADDR_MAX + 1];

	if (len == 0 || len > PROTO_PROXY_V1_ADDR_MAX)
		return -1;
	memcpy(text, s, len);
	text[len] = '\0';
	/* inet_pton takes exactly four decimal parts for IPv4 and refuses
	 * heading zeroes, as the spec asks. */
	return inet_pton(family == 4 ? AF_INET : AF_INET6, text, addr) == 1
	    ? 0
	    : -1;
}

/* The next space-separated field of line[*at..end): its start and
 * length; *at moves past it and one space. -1 when empty. */
static int
proto_proxy_v1_field(const char *line, size_t end, size_t *at,
    const char **field, size_t *len, int last)
{
	size_t i = *at;

	while (i < end && line[i] != ' ')
		i++;
	if (i == *at || (last ? i != end : i == end))
		return -1;
	*field = line + *at;
	*len = i - *at;
	*at = last ? i : i + 1;
	return 0;
}

/* Version 1: the whole line is in buf (end: where its "\r\n" starts). */
static int
proto_proxy_v1_line(const char *line, size_t end, struct proto_proxy *out)
{
	const char *f[4];
	size_t n[4], at = sizeof proto_proxy_v1_word - 1, i;
	int family;

	for (i = 0; i < end; i++)
		if (line[i] < 0x20 || line[i] > 0x7e)
			return proto_proxy_bad(out, "v1: a byte not US-ASCII");
	if (end - at >= 7 && memcmp(line + at, "UNKNOWN", 7) == 0 &&
	    (end - at == 7 || line[at + 7] == ' ')) {
		/* the rest of the line says nothing to rely on */
		out->local = 1;
		return PROTO_PROXY_DONE;
	}
	if (end - at < 5 || memcmp(line + at, "TCP", 3) != 0 ||
	    (line[at + 3] != '4' && line[at + 3] != '6') || line[at + 4] != ' ')
		return proto_proxy_bad(
		    out, "v1: the protocol is not TCP4, TCP6 or UNKNOWN");
	family = line[at + 3] - '0';
	at += 5;
	for (i = 0; i < 4; i++)
		if (proto_proxy_v1_field(
		        line, end, &at, &f[i], &n[i], i == 3) != 0)
			return proto_proxy_bad(
			    out, "v1: not five fields one space apart");
	if (proto_proxy_v1_addr(f[0], n[0], family, out->addr) != 0 ||
	    proto_proxy_v1_addr(f[1], n[1], family, out->dst) != 0)
		return proto_proxy_bad(
		    out, "v1: an address not of the family named");
	if (proto_proxy_v1_port(f[2], n[2], &out->port) != 0 ||
	    proto_proxy_v1_port(f[3], n[3], &out->dst_port) != 0)
		return proto_proxy_bad(out, "v1: a port not 0 to 65535");
	out->family = family;
	return PROTO_PROXY_DONE;
}

/* Version 1: wait for "\r\n" within PROTO_PROXY_V1_MAX bytes. */
static int
proto_proxy_v1(const unsigned char *buf, size_t len, struct proto_proxy *out)
{
	size_t max = len < PROTO_PROXY_V1_MAX ? len : PROTO_PROXY_V1_MAX, i;

	for (i = 0; i < max; i++) {
		if (buf[i] == '\r' && i + 1 < len && buf[i + 1] == '\n') {
			out->len = i + 2;
			if (out->len > PROTO_PROXY_V1_MAX)
				break;
			return proto_proxy_v1_line((const char *)buf, i, out);
		}
		if (buf[i] == '\n' || (buf[i] == '\r' && i + 1 < len))
			return proto_proxy_bad(
			    out, "v1: a lone CR or LF in the line");
	}
	if (len >= PROTO_PROXY_V1_MAX)
		return proto_proxy_bad(out, "v1: no CRLF within 107 bytes");
	return PROTO_PROXY_MORE;
}

/* Version 2: the 16-byte head, then its length's worth. */
static int
proto_proxy_v2(const unsigned char *buf, size_t len, struct proto_proxy *out)
{
	const unsigned char *a = buf + PROTO_PROXY_V2_HEAD;
	size_t body;
	int cmd, fam, proto;

	if (len < PROTO_PROXY_V2_HEAD)
		return PROTO_PROXY_MORE;
	if ((buf[12] >> 4) != 2)
		return proto_proxy_bad(out, "v2: a version other than 2");
	cmd = buf[12] & 0x0f;
	fam = buf[13] >> 4;
	proto = buf[13] & 0x0f;
	body = (size_t)buf[14] << 8 | buf[15];
	if (cmd > 1)
		return proto_proxy_bad(
		    out, "v2: a command other than LOCAL, PROXY");
	/* LOCAL ignores the family byte, PROXY must name a known one. */
	if (cmd == 1 && (fam > 3 || proto > 2))
		return proto_proxy_bad(
		    out, "v2: an unknown family or transport");
	if (PROTO_PROXY_V2_HEAD + body > PROTO_PROXY_V2_MAX)
		return proto_proxy_bad(out, "v2: longer than the server takes");
	if (len < PROTO_PROXY_V2_HEAD + body)
		return PROTO_PROXY_MORE;
	out->len = PROTO_PROXY_V2_HEAD + body;
	/* LOCAL (health checks), AF_UNSPEC, AF_UNIX, UDP: the connection's
	 * own address stands, as the spec lets a receiver do. */
	if (cmd == 0 || proto != 1 || (fam != 1 && fam != 2)) {
		out->local = 1;
		return PROTO_PROXY_DONE;
	}
	if (fam == 1 && body < PROTO_PROXY_V2_INET_LEN)
		return proto_proxy_bad(out, "v2: an IPv4 block too short");
	if (fam == 2 && body < PROTO_PROXY_V2_INET6_LEN)
		return proto_proxy_bad(out, "v2: an IPv6 block too short");
	out->family = fam == 1 ? 4 : 6;
	if (fam == 1) {
		memcpy(out->addr, a, 4);
		memcpy(out->dst, a + 4, 4);
		a += 8;
	} else {
		memcpy(out->addr, a, 16);
		memcpy(out->dst, a + 16, 16);
		a += 32;
	}
	out->port = (uint16_t)(a[0] << 8 | a[1]);
	out->dst_port = (uint16_t)(a[2] << 8 | a[3]);
	return PROTO_PROXY_DONE;
}

int
proto_proxy_parse(const void *data, size_t len, struct proto_proxy *out)
{
	const unsigned char *buf = data;

	memset(out, 0, sizeof *out);
	if (len == 0)
		return PROTO_PROXY_MORE;
	if (proto_proxy_prefix(
	        buf, len, proto_proxy_sig, sizeof proto_proxy_sig)) {
		if (len < sizeof proto_proxy_sig)
			return PROTO_PROXY_MORE;
		out->version = 2;
		return proto_proxy_v2(buf, len, out);
	}
	if (proto_proxy_prefix(buf, len, proto_proxy_v1_word,
	        sizeof proto_proxy_v1_word - 1)) {
		if (len < sizeof proto_proxy_v1_word - 1)
			return PROTO_PROXY_MORE;
		out->version = 1;
		return proto_proxy_v1(buf, len, out);
	}
	return proto_proxy_bad(out, "not a PROXY protocol header");
}
