/*
 * secret.c: a password typed at the terminal without echo. While one is
 * asked, libedit lets go of the keyboard (term_editor_off): the terminal
 * is set by termios to neither echo nor edit lines, and the keys read
 * here build the secret (Backspace and Ctrl-U edit it, Enter ends it,
 * Ctrl-D on an empty line or Ctrl-C gives up). Then the terminal is set
 * back as it was, libedit takes the keyboard again, and the caller's
 * function gets the secret, which is wiped once it returns. Nothing of
 * it is echoed, drawn, kept in libedit's history or logged.
 */
#include <errno.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "client-cli/client.h"

static struct {
	int active;
	struct termios saved; /* the terminal before we took it */
	int have_saved;
	char prompt[128];
	char buf[PROTO_PASSWORD_MAX + 1];
	size_t len;
	secret_fn *done;
} secret;

/* Zero n bytes where the compiler cannot drop the stores. */
static void
secret_wipe(void *p, size_t n)
{
	volatile unsigned char *v = p;

	while (n-- > 0)
		*v++ = 0;
}

/* 1 while a secret is being typed. */
int
secret_active(void)
{
	return secret.active;
}

/* Draw the secret's prompt on a fresh line (what was typed stays
 * hidden). */
void
secret_redraw(struct client *c)
{
	fputs("\r\033[K", c->out);
	fputs(secret.prompt, c->out);
	fflush(c->out);
}

/* Ask for a secret after prompt; done(c, secret) gets it (NULL when the
 * user gave up). Echo goes off until it is typed. */
void
secret_ask(struct client *c, const char *prompt, secret_fn *done)
{
	struct termios t;

	if (!c->interactive) {
		done(c, NULL);
		return;
	}
	term_editor_off(c);
	secret.have_saved = tcgetattr(STDIN_FILENO, &secret.saved) == 0;
	if (secret.have_saved) {
		t = secret.saved;
		t.c_lflag &= ~(tcflag_t)(ECHO | ECHONL | ICANON);
		t.c_lflag |= ISIG; /* Ctrl-C stays a signal: term.c's */
		t.c_cc[VMIN] = 1;
		t.c_cc[VTIME] = 0;
		(void)tcsetattr(STDIN_FILENO, TCSAFLUSH, &t);
	}
	snprintf(secret.prompt, sizeof secret.prompt, "%s", prompt);
	secret.len = 0;
	secret.done = done;
	secret.active = 1;
	secret_redraw(c);
}

/* The secret is typed (or given up, NULL): the terminal back, then the
 * caller's function, then the wipe. */
static void
secret_finish(struct client *c, int given)
{
	secret_fn *done = secret.done;
	char copy[sizeof secret.buf];

	secret.active = 0;
	if (secret.have_saved)
		(void)tcsetattr(STDIN_FILENO, TCSAFLUSH, &secret.saved);
	fputs("\n", c->out);
	fflush(c->out);
	memcpy(copy, secret.buf, sizeof copy);
	copy[secret.len] = '\0';
	secret_wipe(secret.buf, sizeof secret.buf);
	secret.len = 0;
	term_editor_on(c);
	done(c, given ? copy : NULL);
	secret_wipe(copy, sizeof copy);
}

/* Ctrl-C while a secret is asked: give it up. */
void
secret_cancel(struct client *c)
{
	if (secret.active)
		secret_finish(c, 0);
}

/* One key of the secret. */
static void
secret_key(struct client *c, unsigned char ch)
{
	if (ch == '\r' || ch == '\n') {
		secret_finish(c, 1);
	} else if (ch == 0x04) { /* Ctrl-D: give up on an empty line */
		if (secret.len == 0)
			secret_finish(c, 0);
	} else if (ch == 0x7f || ch == 0x08) {
		if (secret.len > 0)
			secret.buf[--secret.len] = '\0';
	} else if (ch == 0x15) { /* Ctrl-U */
		secret_wipe(secret.buf, sizeof secret.buf);
		secret.len = 0;
	} else if (ch >= 0x20 && secret.len + 1 < sizeof secret.buf) {
		secret.buf[secret.len++] = (char)ch;
	}
}

/* The keyboard has bytes while a secret is asked: read them here; 0, or
 * -1 when the terminal is gone. */
int
secret_read(struct client *c, int fd)
{
	unsigned char b[64];
	ssize_t n, i;

	n = read(fd, b, sizeof b);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return 0;
	if (n <= 0)
		return -1;
	for (i = 0; i < n && secret.active; i++)
		secret_key(c, b[i]);
	secret_wipe(b, sizeof b);
	return 0;
}
