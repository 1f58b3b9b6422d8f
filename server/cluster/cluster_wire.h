/*
 * cluster_wire.h: the bytes of the nodes' messages, read without the
 * node (cluster_wire.c): pure functions of their input, which the link
 * port (cluster_link.c) and the stream (cluster_stream.c) use, and
 * tests/fuzz/fuzz_cluster_wire.c feeds at random.
 */
#ifndef TABLERO_SERVER_CLUSTER_WIRE_H
#define TABLERO_SERVER_CLUSTER_WIRE_H

#include <stddef.h>

#include "server/cluster/cluster.h"

/* Room for a link's secret as text: 32 random bytes in hex. */
#define CLUSTER_LINK_SECRET 65
/* Room for a stream entry's id ("1700000000000-12"). */
#define CLUSTER_STREAM_ID 48
/* The version a link's opening line names: a node refuses another. */
#define CLUSTER_LINK_VERSION 1
/* The longest opening line: its words, a node id, three numbers, the
 * secret, a stream id; one longer is no link's. */
#define CLUSTER_LINK_HELLO_MAX                                                 \
	(64 + CLUSTER_NODE_MAX + 3 * 24 + CLUSTER_LINK_SECRET +                \
	    CLUSTER_STREAM_ID)
/* Digits of a frame's length, at most. */
#define CLUSTER_LINK_LEN_DIGITS 9
/* Digits of a field's length in a message, at most (a length past a
 * gigabyte is malformed). */
#define CLUSTER_WIRE_LEN_DIGITS 10

/* A link's opening line: TABLERO-LINK VERSION FROM INC TO-INC SECRET
 * FENCE. */
struct wire_hello {
	char from[CLUSTER_NODE_MAX + 1];
	unsigned long long inc, to;
	char secret[CLUSTER_LINK_SECRET];
	char fence[CLUSTER_STREAM_ID];
};

/* The opening line line[0..len) (no newline) into h: 0, or -1 when it is
 * no link's of this version (a word missing or too long, a bad node id,
 * numbers that are not, a secret of the wrong length). */
int wire_hello_parse(const char *line, size_t len, struct wire_hello *h);
/* The frame head at buf[0..n) ("LEN\n"): 1 with its bytes in *hlen
 * (newline included) and the frame's length in *len, 0 when more bytes
 * are needed, -1 when malformed or longer than max. */
int wire_frame_head(
    const char *buf, size_t n, size_t max, size_t *hlen, size_t *len);
/* The RESP bulk string at *p, before end ("$N\r\n", N bytes, "\r\n"):
 * 0 with its bytes in *str, *len and *p past it, or -1. */
int wire_bulk(char **p, char *end, char **str, size_t *len);
/* A message's fields, each LEN:BYTES and a NUL byte, from p[0..n): their
 * bytes (C strings where they lie) and lengths into str and lens, at
 * most max of them: how many, or -1 when malformed or more than max. */
int wire_fields(char *p, size_t n, char **str, size_t *lens, int max);
/* The order of two stream entry ids ("MS-SEQ", a missing SEQ is 0): <0,
 * 0 or >0. */
int wire_id_cmp(const char *a, const char *b);

#endif
