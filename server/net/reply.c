/*
 * reply.c: a connection's answer to its request, from any layer (Redis's
 * addReply in networking.c): the reply goes out ahead of the events the
 * request has caused so far, and an error reply carries one of the
 * protocol's codes and a sentence (with its msgid and arguments, for a
 * JSON client that translates).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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
	if (said.fmt != NULL && strcmp(said.fmt, "%s") == 0 &&
	    strcmp(said.text, proto_error_message(e)) == 0) {
		said.fmt = proto_error_message(e); /* the code's own, as "%s" */
		said.nargs = 0;
	}
	if (c->mode != CONN_MODE_TEXT)
		proto_said_add(reply, proto_said_inner(&said));
	conn_reply(c, reply);
}

/* Add to o, a reply for c, the msgid and arguments of its sentence text,
 * when text is the reason proto_errf or rules_seterr wrote last on this
 * thread, or a sentence with no conversions given as it is; nothing for
 * a text-mode connection. */
void
conn_said(struct conn *c, cJSON *o, const char *text)
{
	const struct rules_said *s = rules_said_of(text);
	struct rules_said fixed;

	if (o == NULL || text == NULL || c->mode == CONN_MODE_TEXT)
		return;
	if (s == NULL && strchr(text, '%') == NULL) {
		fixed.fmt = text;
		fixed.nargs = 0;
		s = &fixed;
	}
	proto_said_add(o, s);
}

/* conn_error for a sentence a caller passes along (a literal, or a reason
 * made with proto_errf): it keeps its msgid (conn_said). */
void
conn_error_text(struct conn *c, const struct proto_request *req,
    enum proto_error e, const char *text)
{
	cJSON *reply;

	if (e < PROTO_E_COUNT)
		net_stats()->errors[e]++;
	reply = proto_error_reply(req, e, text);
	if (reply != NULL && text != NULL && text[0] != '\0')
		conn_said(c, reply, text);
	conn_reply(c, reply);
}
