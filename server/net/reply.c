/*
 * reply.c: a connection's answer to its request, from any layer (Redis's
 * addReply in networking.c): the reply goes out ahead of the events the
 * request has caused so far, and an error reply carries one of the
 * protocol's codes and a sentence.
 */
#include <stdarg.h>
#include <stdio.h>

#include "server/net/net.h"

/* Send a reply now, ahead of any events the request has caused so far. */
void
conn_reply(struct conn *c, cJSON *reply)
{
	int deferring = c->deferring;

	c->deferring = 0;
	c->replying = 1;
	net_send_msg(c, reply);
	c->replying = 0;
	c->deferring = deferring;
	cJSON_Delete(reply);
}

/* conn_reply for a JSON connection's reply already printed as one line
 * (its "\n" included) from a template, with no cJSON tree to build, print
 * and free (the move's reply). */
void
conn_reply_line(struct conn *c, const char *line, size_t len)
{
	int deferring = c->deferring;

	c->deferring = 0;
	c->replying = 1;
	net_send(c, line, len);
	c->replying = 0;
	c->deferring = deferring;
}

/* Refuse req with code e and a sentence made from fmt. */
void
conn_error(struct conn *c, const struct proto_request *req, enum proto_error e,
    const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (e < PROTO_E_COUNT)
		net_stats()->errors[e]++;
	conn_reply(c, proto_error_reply(req, e, msg[0] != '\0' ? msg : NULL));
}
