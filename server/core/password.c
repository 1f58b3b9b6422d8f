/*
 * password.c: accounts: an identity's password, stored as libsodium's
 * crypto_pwhash_str writes it (argon2id with its salt and costs), and the
 * tokens a password login hands out ("devices"). Hashing and checking a
 * password costs tens of milliseconds by design, so it never runs on the
 * event loop: each is a task of the search threads (worker_task), and
 * the connection reads nothing more until its answer is back on the loop
 * (as a hint's). The rows are the store's identities.password_hash and
 * tokens (schema.c, version 14), written as row ops in the change that
 * makes them, so an acknowledged password or token is stored.
 */
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "server/core/core.h"
#include "server/store/storeq.h"
#include "server/store/store.h"

/* The stored password of an identity, NULL for none. */
#define PASSWORD_READ "SELECT password_hash FROM identities WHERE name = $1"
/* (SQLite numbers $N parameters in the order they first appear.) */
#define PASSWORD_PUT "UPDATE identities SET password_hash = $1 WHERE name = $2"
/* A token a password login gave out, found by its hash. */
#define PASSWORD_DEVICE_ONE "SELECT 1 FROM tokens WHERE name = $1 AND hash = $2"
#define PASSWORD_DEVICE_PUT                                                    \
	"INSERT INTO tokens (name, hash, made_ms) VALUES ($1, $2, $3)"         \
	" ON CONFLICT (name, hash) DO NOTHING"
#define PASSWORD_STR_(x) #x
#define PASSWORD_STR(x) PASSWORD_STR_(x)
/* Past PASSWORD_DEVICES tokens of one name, the oldest go. */
#define PASSWORD_DEVICE_TRIM                                                   \
	"DELETE FROM tokens WHERE name = $1 AND hash NOT IN (SELECT hash"      \
	" FROM tokens WHERE name = $1 ORDER BY made_ms DESC, hash "            \
	"LIMIT " PASSWORD_STR(PASSWORD_DEVICES) ")"

_Static_assert(
    sizeof(((struct password_result *)0)->hashed) == crypto_pwhash_STRBYTES,
    "a stored password fits its buffer");

/* One password's work, handed to a search thread and back. */
struct password_job {
	struct server *srv;
	password_done_fn *done;
	struct password_result res;
	/* the stored hash to check given against (given NULL: none) */
	char stored[crypto_pwhash_STRBYTES];
	char *given;
	char *fresh; /* the password to hash into res.hashed, or NULL */
};

/* 1 when a password is PASSWORD_MIN to PROTO_PASSWORD_MAX bytes. */
int
password_length_ok(const char *pw)
{
	size_t n = strlen(pw);

	return n >= PASSWORD_MIN && n <= PROTO_PASSWORD_MAX;
}

/* One row of PASSWORD_READ into the caller's buffer. */
static int
password_read_row(void *arg, const char *const *v)
{
	char *out = arg;

	if (v[0] != NULL && strlen(v[0]) < crypto_pwhash_STRBYTES)
		snprintf(out, crypto_pwhash_STRBYTES, "%s", v[0]);
	return 0;
}

/* The committed password of identity name (as registered) into out
 * (crypto_pwhash_STRBYTES bytes), "" for none: 0, or -1 (logged). */
int
password_stored(struct server *srv, const char *name, char *out)
{
	const char *v[1] = {name};

	out[0] = '\0';
	if (store_rows(srv->reader, PASSWORD_READ, 1, v, 1, password_read_row,
	        out) != 0) {
		log_error("store: reading %s's password: %s", name,
		    store_errmsg(srv->reader));
		return -1;
	}
	return 0;
}

/* Store a new password hash for name in the change being made. */
void
password_put(struct server *srv, const char *name, const char *hashed)
{
	const char *v[2] = {hashed, name};

	storeq_row(srv->storeq, "identities", PASSWORD_PUT, 2, v);
}

/* One row of PASSWORD_DEVICE_ONE: found. */
static int
password_device_row(void *arg, const char *const *v)
{
	(void)v;
	*(int *)arg = 1;
	return 0;
}

/* Whether hash (a token's, as identities.token_hash) is one a password
 * login gave name: *found 1 or 0; 0, or -1 (logged). */
int
password_device_find(
    struct server *srv, const char *name, const char *hash, int *found)
{
	const char *v[2] = {name, hash};

	*found = 0;
	if (store_rows(srv->reader, PASSWORD_DEVICE_ONE, 2, v, 1,
	        password_device_row, found) != 0) {
		log_error("store: reading %s's tokens: %s", name,
		    store_errmsg(srv->reader));
		return -1;
	}
	return 0;
}

/* Keep a token's hash for name (a password login's), dropping the oldest
 * past PASSWORD_DEVICES, in the change being made. */
void
password_device_put(struct server *srv, const char *name, const char *hash)
{
	char ms[24];
	const char *v[3] = {name, hash, ms};

	snprintf(ms, sizeof ms, "%lld", (long long)clock_now_ms());
	storeq_row(srv->storeq, "tokens", PASSWORD_DEVICE_PUT, 3, v);
	storeq_row(srv->storeq, "tokens", PASSWORD_DEVICE_TRIM, 1, v);
}

/* On a search thread: check given against stored, then hash fresh. */
static void
password_work(void *arg)
{
	struct password_job *j = arg;

	j->res.ok = 1;
	if (j->given != NULL)
		j->res.ok = crypto_pwhash_str_verify(
		                j->stored, j->given, strlen(j->given)) == 0;
	if (j->res.ok && j->fresh != NULL &&
	    crypto_pwhash_str(j->res.hashed, j->fresh, strlen(j->fresh),
	        PASSWORD_OPSLIMIT, PASSWORD_MEMLIMIT) != 0)
		j->res.failed = 1; /* out of memory */
}

/* Wipe and free a copy of a password. */
static void
password_wipe(char *pw)
{
	if (pw == NULL)
		return;
	sodium_memzero(pw, strlen(pw));
	free(pw);
}

/* The answer, to the connection (net_answer). */
static void
password_answer(struct conn *c, void *arg)
{
	struct password_job *j = arg;

	j->done(c, &j->res);
}

/* Back on the loop: the connection (NULL when it closed) hears the
 * answer, and reads again. */
static void
password_work_done(struct conn *c, void *arg)
{
	struct password_job *j = arg;

	password_wipe(j->given);
	password_wipe(j->fresh);
	if (c != NULL)
		net_answer(c, password_answer, j);
	proto_request_free(&j->res.req);
	sodium_memzero(j, sizeof *j);
	free(j);
}

/* Check given (NULL: nothing to check) against the stored hash, and hash
 * fresh (NULL: nothing to hash), off the loop; then done(c, result) on
 * the loop with req's verb, cmd, id and name, and the identity *id (NULL:
 * none). c reads nothing more meanwhile. */
void
password_check(struct conn *c, const struct proto_request *req,
    const struct store_identity *id, const char *stored, const char *given,
    const char *fresh, password_done_fn *done)
{
	struct password_job *j = xcalloc(1, sizeof *j);

	j->srv = c->srv;
	j->done = done;
	j->res.req.verb = req->verb;
	j->res.req.shorthand = req->shorthand;
	j->res.req.cmd = req->cmd != NULL ? xstrdup(req->cmd) : NULL;
	j->res.req.id = req->id != NULL ? xstrdup(req->id) : NULL;
	j->res.req.name = req->name != NULL ? xstrdup(req->name) : NULL;
	if (id != NULL)
		j->res.id = *id;
	snprintf(
	    j->stored, sizeof j->stored, "%s", stored != NULL ? stored : "");
	j->given = given != NULL ? xstrdup(given) : NULL;
	j->fresh = fresh != NULL ? xstrdup(fresh) : NULL;
	net_pause(c);
	worker_task(c->srv->worker, c, password_work, password_work_done, j);
}
