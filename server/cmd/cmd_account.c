/*
 * cmd_account.c: the password verb: a logged-in identity sets or changes
 * its password, with which hello logs in from anywhere (core/password.c
 * hashes it off the loop). Changing one needs the old one: a connection
 * left logged in somewhere cannot take the account over. Each request
 * costs a hash on a search thread, so each one counts against the
 * failed-login budget of the address and the identity, as a wrong
 * token does.
 */
#include <string.h>

#include "server/cmd/cmd.h"
#include "server/net/limit.h"
#include "server/store/storeq.h"

static password_done_fn cmd_password_done;

void
cmd_password(struct conn *c, const struct proto_request *req)
{
	char stored[sizeof((struct password_result *)0)->hashed];
	const char *name = c->player->name;
	struct store_identity id;

	if (!password_length_ok(req->password)) {
		conn_error(c, req, PROTO_E_BAD_REQUEST,
		    "a password is %d to %d bytes", PASSWORD_MIN,
		    PROTO_PASSWORD_MAX);
		return;
	}
	if (player_throttled(c, req, name) != 0)
		return;
	if (password_stored(c->srv, name, stored) != 0) {
		conn_error(c, req, PROTO_E_INTERNAL, "the store failed");
		return;
	}
	if (stored[0] != '\0' && req->old == NULL) {
		conn_error(c, req, PROTO_E_BAD_PASSWORD,
		    "%s has a password already: give it too to change it "
		    "(password NEW OLD)",
		    name);
		return;
	}
	/* A hash's cost, counted as failed logins are (see the top). */
	limit_fails_take(c->srv, c->lim_addr);
	limit_fails_take(c->srv, c->lim_name);
	memset(&id, 0, sizeof id);
	snprintf(id.name, sizeof id.name, "%s", name);
	password_check(c, req, &id, stored, stored[0] != '\0' ? req->old : NULL,
	    req->password, cmd_password_done);
}

/* Back on the loop: store the new hash (the identity is kept for good:
 * it has played, as far as pruning goes), then reply. */
static void
cmd_password_done(struct conn *c, struct password_result *res)
{
	struct player *p = c->player;

	if (p == NULL || strcmp(p->name, res->id.name) != 0) {
		conn_error(c, &res->req, PROTO_E_NOT_LOGGED_IN, "%s",
		    proto_error_message(PROTO_E_NOT_LOGGED_IN));
		return;
	}
	if (!res->ok) {
		limit_log(c->srv,
		    "conn %llu %s: failed password as %s: wrong "
		    "old password",
		    (unsigned long long)c->id, c->addr, p->name);
		conn_error(
		    c, &res->req, PROTO_E_BAD_PASSWORD, "wrong old password");
		return;
	}
	if (res->failed) {
		log_error(
		    "%s: hashing a password failed (out of memory?)", p->name);
		conn_error(c, &res->req, PROTO_E_INTERNAL,
		    "hashing the password failed; try again later");
		return;
	}
	if (storeq_failing(c->srv->storeq)) {
		conn_error(c, &res->req, PROTO_E_STORE_FAILING,
		    "the server cannot store games right now; try again "
		    "shortly");
		return;
	}
	password_put(c->srv, p->name, res->hashed);
	player_played(c->srv, p);
	log_info("%s set a password (conn %llu)", p->name,
	    (unsigned long long)c->id);
	conn_reply(c, proto_reply(&res->req));
}
