/*
 * test_proxy.c: the PROXY protocol header parser (protocol/proxy.c):
 * version 1 (TCP4, TCP6, UNKNOWN), version 2 (IPv4, IPv6, LOCAL, families
 * whose address is not carried, TLVs skipped), a header that comes a byte
 * at a time (every byte before its end is "more", and the client's first
 * bytes after it are never taken), truncated, oversized and garbage input;
 * and --proxy-from's list.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "protocol/protocol.h"
#include "server/net/net.h"

/* Version 2's signature. */
static const unsigned char sig[12] = {
    0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};
/* Address blocks and TLVs of nothing. */
static const unsigned char zeros[PROTO_PROXY_V2_MAX];

/* A version 2 header: the signature, ver_cmd, fam, and body (len bytes)
 * into out; its length. */
static size_t
v2(unsigned char *out, int ver_cmd, int fam, const unsigned char *body,
    size_t len)
{
	memcpy(out, sig, 12);
	out[12] = (unsigned char)ver_cmd;
	out[13] = (unsigned char)fam;
	out[14] = (unsigned char)(len >> 8);
	out[15] = (unsigned char)len;
	if (len > 0)
		memcpy(out + 16, body, len);
	return 16 + len;
}

/* The client's address as text. */
static const char *
addr_text(const struct proto_proxy *pp, char *buf, size_t len)
{
	inet_ntop(pp->family == 4 ? AF_INET : AF_INET6, pp->addr, buf,
	    (socklen_t)len);
	return buf;
}

/* Parse s (with what follows it, the client's own first bytes, which
 * must not be taken) whole, and a byte at a time: every shorter prefix
 * is MORE, the whole gives the same verdict. */
static int
parse_both(const void *s, size_t len, struct proto_proxy *pp)
{
	struct proto_proxy part;
	size_t i;
	int rc = proto_proxy_parse(s, len, pp), rc2 = PROTO_PROXY_MORE;

	for (i = 1; i <= len && rc2 == PROTO_PROXY_MORE; i++)
		rc2 = proto_proxy_parse(s, i, &part);
	CHECK_INT(rc2, rc);
	if (rc == PROTO_PROXY_DONE) {
		CHECK_INT(part.len, pp->len);
		CHECK_INT(i - 1, pp->len); /* done at its last byte */
	}
	return rc;
}

static void
test_proxy_v1(void)
{
	struct proto_proxy pp;
	char buf[64];
	const char *h4 = "PROXY TCP4 192.0.2.7 10.0.0.1 51234 7777\r\n";
	const char *h6 =
	    "PROXY TCP6 2001:db8::7 2001:db8::1 40000 443\r\nhello x\n";
	const char *unk = "PROXY UNKNOWN\r\n{\"cmd\":\"ping\"}\n";

	CHECK_INT(parse_both(h4, strlen(h4), &pp), PROTO_PROXY_DONE);
	CHECK_INT(pp.version, 1);
	CHECK_INT(pp.len, strlen(h4));
	CHECK_INT(pp.local, 0);
	CHECK_INT(pp.family, 4);
	CHECK_STR(addr_text(&pp, buf, sizeof buf), "192.0.2.7");
	CHECK_INT(pp.port, 51234);
	CHECK_INT(pp.dst_port, 7777);

	CHECK_INT(parse_both(h6, strlen(h6), &pp), PROTO_PROXY_DONE);
	CHECK_INT(pp.len, strlen(h6) - strlen("hello x\n"));
	CHECK_INT(pp.family, 6);
	CHECK_STR(addr_text(&pp, buf, sizeof buf), "2001:db8::7");
	CHECK_INT(pp.port, 40000);

	/* UNKNOWN: the connection's own address stands; the rest of the
	 * line is ignored. */
	CHECK_INT(parse_both(unk, strlen(unk), &pp), PROTO_PROXY_DONE);
	CHECK_INT(pp.local, 1);
	CHECK_INT(pp.len, 15);
	unk = "PROXY UNKNOWN ffff::1 ffff::2 65535 65535\r\n";
	CHECK_INT(parse_both(unk, strlen(unk), &pp), PROTO_PROXY_DONE);
	CHECK_INT(pp.local, 1);
	/* The longest line the spec allows (107 bytes) is taken. */
	unk = "PROXY UNKNOWN ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff "
	      "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff 65535 65535\r\n";
	CHECK_INT(strlen(unk), PROTO_PROXY_V1_MAX);
	CHECK_INT(parse_both(unk, strlen(unk), &pp), PROTO_PROXY_DONE);
}

static void
test_proxy_v1_bad(void)
{
	static const char *const bad[] = {
	    "PROXY TCP4 192.0.2.7 10.0.0.1 51234 7777\n",    /* no CR */
	    "PROXY TCP4 192.0.2.7 10.0.0.1 51234 7777\rx",   /* lone CR */
	    "PROXY TCP4 192.0.2.7  10.0.0.1 51234 7777\r\n", /* two spaces */
	    "PROXY TCP4 192.0.2.7 10.0.0.1 51234\r\n",       /* a field short */
	    "PROXY TCP4 192.0.2.7 10.0.0.1 51234 7777 1\r\n", /* one more */
	    "PROXY TCP4 192.0.2.7 10.0.0.1 51234 7777 \r\n",  /* trailing */
	    "PROXY TCP4 2001:db8::7 10.0.0.1 1 2\r\n",        /* v6 in TCP4 */
	    "PROXY TCP6 192.0.2.7 10.0.0.1 1 2\r\n",          /* v4 in TCP6 */
	    "PROXY TCP4 192.0.2.07 10.0.0.1 1 2\r\n",         /* heading zero */
	    "PROXY TCP4 192.0.2 10.0.0.1 1 2\r\n",            /* three parts */
	    "PROXY TCP4 192.0.2.7 10.0.0.1 65536 2\r\n",      /* port too big */
	    "PROXY TCP4 192.0.2.7 10.0.0.1 080 2\r\n",        /* heading zero */
	    "PROXY TCP4 192.0.2.7 10.0.0.1 -1 2\r\n",
	    "PROXY UDP4 192.0.2.7 10.0.0.1 1 2\r\n",
	    "PROXY UNKNOWNX\r\n",
	    "PROXY TCP4 192.0.2.\x01 10.0.0.1 1 2\r\n", /* a control byte */
	    "PROXY \r\n",
	    "proxy TCP4 192.0.2.7 10.0.0.1 1 2\r\n", /* the word is upper */
	    "PROXYTCP4\r\n",
	    "GET / HTTP/1.1\r\n", /* garbage: not a header at all */
	    "{\"cmd\":\"hello\",\"name\":\"ann\"}\n",
	};
	struct proto_proxy pp;
	char longline[300];
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int rc = parse_both(bad[i], strlen(bad[i]), &pp);

		if (rc != PROTO_PROXY_BAD)
			printf("taken: %s\n", bad[i]);
		CHECK_INT(rc, PROTO_PROXY_BAD);
		CHECK(pp.why != NULL);
	}
	/* Oversized: no CRLF within 107 bytes, bad at the 107th byte, not
	 * before (and never "more" past it). */
	memset(longline, 'a', sizeof longline);
	memcpy(longline, "PROXY UNKNOWN ", 14);
	CHECK_INT(proto_proxy_parse(longline, PROTO_PROXY_V1_MAX - 1, &pp),
	    PROTO_PROXY_MORE);
	CHECK_INT(proto_proxy_parse(longline, PROTO_PROXY_V1_MAX, &pp),
	    PROTO_PROXY_BAD);
	CHECK_INT(
	    proto_proxy_parse(longline, sizeof longline, &pp), PROTO_PROXY_BAD);
	/* CRLF just past the limit: bad. */
	memcpy(longline + PROTO_PROXY_V1_MAX - 1, "\r\n", 2);
	CHECK_INT(proto_proxy_parse(longline, PROTO_PROXY_V1_MAX + 1, &pp),
	    PROTO_PROXY_BAD);
	/* Truncated: a start of a header is "more", whatever its length. */
	CHECK_INT(proto_proxy_parse("PRO", 3, &pp), PROTO_PROXY_MORE);
	CHECK_INT(
	    proto_proxy_parse("PROXY TCP4 1.2.3.4", 18, &pp), PROTO_PROXY_MORE);
	CHECK_INT(
	    proto_proxy_parse("PROXY TCP4 1.2.3.4 5.6.7.8 1 2\r", 31, &pp),
	    PROTO_PROXY_MORE);
	CHECK_INT(proto_proxy_parse("", 0, &pp), PROTO_PROXY_MORE);
}

static void
test_proxy_v2(void)
{
	unsigned char h[2048], body[64];
	struct proto_proxy pp;
	char buf[64];
	size_t n;

	/* PROXY, TCP over IPv4: 192.0.2.9:4242 to 10.0.0.1:7777, then the
	 * client's first bytes. */
	memcpy(body, "\xc0\x00\x02\x09\x0a\x00\x00\x01\x10\x92\x1e\x61", 12);
	n = v2(h, 0x21, 0x11, body, 12);
	memcpy(h + n, "ping\n", 5);
	CHECK_INT(parse_both(h, n + 5, &pp), PROTO_PROXY_DONE);
	CHECK_INT(pp.version, 2);
	CHECK_INT(pp.len, 28);
	CHECK_INT(pp.local, 0);
	CHECK_INT(pp.family, 4);
	CHECK_STR(addr_text(&pp, buf, sizeof buf), "192.0.2.9");
	CHECK_INT(pp.port, 4242);
	CHECK_INT(pp.dst_port, 7777);

	/* PROXY, TCP over IPv6, with a TLV behind the addresses (skipped). */
	memset(body, 0, sizeof body);
	inet_pton(AF_INET6, "2001:db8:5::9", body);
	inet_pton(AF_INET6, "2001:db8::1", body + 16);
	body[32] = 0xc3, body[33] = 0x50;                 /* 50000 */
	body[34] = 0x01, body[35] = 0xbb;                 /* 443 */
	memcpy(body + 36, "\x04\x00\x03\x00\x00\x00", 6); /* NOOP TLV */
	n = v2(h, 0x21, 0x21, body, 42);
	CHECK_INT(parse_both(h, n, &pp), PROTO_PROXY_DONE);
	CHECK_INT(pp.len, 58);
	CHECK_INT(pp.family, 6);
	CHECK_STR(addr_text(&pp, buf, sizeof buf), "2001:db8:5::9");
	CHECK_INT(pp.port, 50000);
	CHECK_INT(pp.dst_port, 443);

	/* LOCAL (health checks): no address, whatever the family byte and
	 * however long the block. */
	n = v2(h, 0x20, 0x00, NULL, 0);
	CHECK_INT(parse_both(h, n, &pp), PROTO_PROXY_DONE);
	CHECK_INT(pp.local, 1);
	CHECK_INT(pp.len, 16);
	n = v2(h, 0x20, 0xff, body, 12);
	CHECK_INT(parse_both(h, n, &pp), PROTO_PROXY_DONE);
	CHECK_INT(pp.local, 1);
	CHECK_INT(pp.len, 28);
	/* PROXY with AF_UNSPEC, AF_UNIX or UDP: the proxy's address. */
	n = v2(h, 0x21, 0x00, NULL, 0);
	CHECK_INT(parse_both(h, n, &pp), PROTO_PROXY_DONE);
	CHECK_INT(pp.local, 1);
	memset(body, 0, sizeof body);
	n = v2(h, 0x21, 0x12, body, 12);
	CHECK_INT(parse_both(h, n, &pp), PROTO_PROXY_DONE);
	CHECK_INT(pp.local, 1);
	n = v2(h, 0x21, 0x31, zeros, 216);
	CHECK_INT(parse_both(h, n, &pp), PROTO_PROXY_DONE);
	CHECK_INT(pp.local, 1);
	CHECK_INT(pp.len, 232);
}

static void
test_proxy_v2_bad(void)
{
	unsigned char h[2048], body[64];
	struct proto_proxy pp;
	size_t n;

	memset(body, 0, sizeof body);
	n = v2(h, 0x11, 0x11, body, 12); /* version 1 in v2's head */
	CHECK_INT(parse_both(h, n, &pp), PROTO_PROXY_BAD);
	n = v2(h, 0x22, 0x11, body, 12); /* command 2 */
	CHECK_INT(parse_both(h, n, &pp), PROTO_PROXY_BAD);
	n = v2(h, 0x21, 0x41, body, 12); /* family 4 */
	CHECK_INT(parse_both(h, n, &pp), PROTO_PROXY_BAD);
	n = v2(h, 0x21, 0x13, body, 12); /* transport 3 */
	CHECK_INT(parse_both(h, n, &pp), PROTO_PROXY_BAD);
	n = v2(h, 0x21, 0x11, body, 11); /* IPv4 block short */
	CHECK_INT(parse_both(h, n, &pp), PROTO_PROXY_BAD);
	n = v2(h, 0x21, 0x21, body, 35); /* IPv6 block short */
	CHECK_INT(parse_both(h, n, &pp), PROTO_PROXY_BAD);
	/* Oversized: refused at its head, before its body is waited for. */
	n = v2(h, 0x21, 0x11, body, 12);
	h[14] = (unsigned char)((PROTO_PROXY_V2_MAX - 16 + 1) >> 8);
	h[15] = (unsigned char)(PROTO_PROXY_V2_MAX - 16 + 1);
	CHECK_INT(proto_proxy_parse(h, 16, &pp), PROTO_PROXY_BAD);
	h[14] = 0xff, h[15] = 0xff;
	CHECK_INT(proto_proxy_parse(h, 16, &pp), PROTO_PROXY_BAD);
	/* The largest accepted. */
	n = v2(h, 0x21, 0x11, zeros, PROTO_PROXY_V2_MAX - 16);
	CHECK_INT(proto_proxy_parse(h, n, &pp), PROTO_PROXY_DONE);
	CHECK_INT(pp.len, PROTO_PROXY_V2_MAX);
	/* Truncated: the signature's start, the head, half the body. */
	n = v2(h, 0x21, 0x11, body, 12);
	CHECK_INT(proto_proxy_parse(h, 5, &pp), PROTO_PROXY_MORE);
	CHECK_INT(proto_proxy_parse(h, 15, &pp), PROTO_PROXY_MORE);
	CHECK_INT(proto_proxy_parse(h, 20, &pp), PROTO_PROXY_MORE);
	/* A signature gone wrong. */
	h[6] = 'x';
	CHECK_INT(proto_proxy_parse(h, n, &pp), PROTO_PROXY_BAD);
	CHECK_INT(
	    proto_proxy_parse("\r\n\r\n\0\r\nQUIX", 11, &pp), PROTO_PROXY_BAD);
}

static void
test_proxy_flag(void)
{
	char err[160];

	CHECK_INT(proxy_check_flag("127.0.0.1", err, sizeof err), 0);
	CHECK_INT(
	    proxy_check_flag("10.0.0.0/8,::1,2001:db8::/32", err, sizeof err),
	    0);
	CHECK_INT(proxy_check_flag("0.0.0.0/0", err, sizeof err), 0);
	CHECK_INT(proxy_check_flag("", err, sizeof err), -1);
	CHECK_INT(proxy_check_flag("10.0.0.1,", err, sizeof err), -1);
	CHECK_INT(proxy_check_flag("haproxy.example", err, sizeof err), -1);
	CHECK(strstr(err, "haproxy.example") != NULL);
	CHECK_INT(proxy_check_flag("10.0.0.0/33", err, sizeof err), -1);
	CHECK_INT(proxy_check_flag("::/129", err, sizeof err), -1);
	CHECK_INT(proxy_check_flag("10.0.0.0/", err, sizeof err), -1);
	CHECK_INT(proxy_check_flag("10.0.0.0/8x", err, sizeof err), -1);
	CHECK_INT(proxy_check_flag("1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,"
	                           "1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,"
	                           "1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,"
	                           "1.2.3.4,1.2.3.4",
	              err, sizeof err),
	    -1);
}

int
main(void)
{
	test_proxy_v1();
	test_proxy_v1_bad();
	test_proxy_v2();
	test_proxy_v2_bad();
	test_proxy_flag();
	return check_done();
}
