/*
 * reply.c: a connection's answer to its request, from any layer (Redis's
 * addReply in networking.c): the reply goes out ahead of the events the
 * request has caused so far, and an error reply carries one of the
 * protocol's codes and a sentence (with its msgid and arguments, for a
 * JSON client that translates).
 */
#include <stdarg.h>
#include <stdio.h>

#include "rules/rules.h"

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

/* Refuse req with code e and a sentence made from fmt; a JSON reply also
 * carries the sentence's msgid and arguments (proto_said_add). */
void
conn_error(struct conn *c, const struct proto_request *req, enum proto_error e,
    const char *fmt, ...)
{
	struct rules_said said;
	va_list ap;
	cJSON *reply;

	va_start(ap, fmt);
	rules_said_vset(&said, fmt, ap);
	va_end(ap);
	if (e < PROTO_E_COUNT)
		net_stats()->errors[e]++;
	reply =
	    proto_error_reply(req, e, said.text[0] != '\0' ? said.text : NULL);
	if (reply == NULL) {
		conn_reply(c, reply);
		return;
	}
	if (said.text[0] == '\0') {
		/* The code's own sentence: its msgid, with no arguments. */
		said.fmt = proto_error_message(e);
		said.nargs = 0;
	}
	if (c->mode != CONN_MODE_TEXT)
		proto_said_add(reply, proto_said_inner(&said));
	conn_reply(c, reply);
}
