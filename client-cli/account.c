/*
 * account.c: the password command of an interactive client: the current
 * password (Enter alone when there is none), the new one and the new one
 * again, each typed without echo (secret.c), then one password request;
 * the server's answer is printed as any reply. Never on the command line
 * itself, so a password is neither shown nor kept in the history. A
 * script (batch mode) sends `password NEW [OLD]` as typed instead.
 */
#include <string.h>

#include "client-cli/client.h"

static struct {
	char old[PROTO_PASSWORD_MAX + 1];
	char fresh[PROTO_PASSWORD_MAX + 1];
} account;

/* Zero n bytes where the compiler cannot drop the stores. */
static void
account_wipe(void *p, size_t n)
{
	volatile unsigned char *v = p;

	while (n-- > 0)
		*v++ = 0;
}

static void
account_clear(void)
{
	account_wipe(&account, sizeof account);
}

/* The new one typed twice: send the request if both agree. */
static void
account_again(struct client *c, const char *pw)
{
	cJSON *req;

	if (pw == NULL || strcmp(pw, account.fresh) != 0) {
		view_print(c, "%s: the password is unchanged.\n",
		    pw == NULL ? "Given up" : "The two new passwords differ");
		account_clear();
		return;
	}
	req = cJSON_CreateObject();
	if (req != NULL) {
		cJSON_AddStringToObject(req, "cmd", "password");
		cJSON_AddStringToObject(req, "password", account.fresh);
		if (account.old[0] != '\0')
			cJSON_AddStringToObject(req, "old", account.old);
		conn_send(c, req, CLIENT_P_PRINT, NULL);
	}
	account_clear();
}

/* The new password typed once. */
static void
account_new(struct client *c, const char *pw)
{
	if (pw == NULL || pw[0] == '\0') {
		view_print(c, "Given up: the password is unchanged.\n");
		account_clear();
		return;
	}
	snprintf(account.fresh, sizeof account.fresh, "%s", pw);
	secret_ask(c, "New password again: ", account_again);
}

/* The current password typed (empty: none yet). */
static void
account_old(struct client *c, const char *pw)
{
	if (pw == NULL) {
		view_print(c, "Given up: the password is unchanged.\n");
		return;
	}
	snprintf(account.old, sizeof account.old, "%s", pw);
	secret_ask(c, "New password (8 or more characters): ", account_new);
}

/* `password` typed at the prompt: ask the three, without echo. */
void
account_password(struct client *c)
{
	if (!c->logged_in) {
		view_print(c, "Log in first: the password is your name's.\n");
		return;
	}
	account_clear();
	view_print(
	    c, "Setting the password of %s (Ctrl-C gives up).\n", c->opts.name);
	secret_ask(c,
	    "Current password (Enter alone if there is none): ", account_old);
}
