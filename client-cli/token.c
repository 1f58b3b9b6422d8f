/*
 * token.c: the player's token, kept so nobody ever types it: one file per
 * server and name, $XDG_CONFIG_HOME/tablero/HOST_PORT_NAME.token (or
 * ~/.config/tablero/), the folder mode 0700 and the file 0600, written to
 * a temporary file and renamed so a crash never leaves half a token.
 */
#include <sys/stat.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client-cli/client.h"

/* Room for a path in the config folder. */
#define TOKEN_PATH_MAX 1024

/* The config folder (created when asked); 0 or -1. */
int
token_dir(char *buf, size_t len, int create)
{
	const char *xdg = getenv("XDG_CONFIG_HOME");
	const char *home = getenv("HOME");
	int n;

	if (xdg != NULL && xdg[0] == '/') {
		if (create)
			(void)mkdir(xdg, 0700);
		n = snprintf(buf, len, "%s/tablero", xdg);
	} else if (home != NULL && home[0] != '\0') {
		n = snprintf(buf, len, "%s/.config", home);
		if (create && n > 0 && (size_t)n < len)
			(void)mkdir(buf, 0700);
		n = snprintf(buf, len, "%s/.config/tablero", home);
	} else
		return -1;
	if (n < 0 || (size_t)n >= len)
		return -1;
	if (create && mkdir(buf, 0700) != 0 && errno != EEXIST)
		return -1;
	return 0;
}

/* The file for this server and name: characters other than letters,
 * digits, '.', '-' in the host become '_'. */
static int
token_path(const struct client_opts *o, const char *what, char *buf, size_t len,
    int create)
{
	char host[256];
	size_t i;
	int n;

	if (token_dir(buf, len, create) != 0)
		return -1;
	for (i = 0; o->host[i] != '\0' && i + 1 < sizeof host; i++) {
		unsigned char ch = (unsigned char)o->host[i];
		host[i] =
		    isalnum(ch) || ch == '.' || ch == '-' ? (char)ch : '_';
	}
	host[i] = '\0';
	n = snprintf(buf + strlen(buf), len - strlen(buf), "/%s_%s%s%s.%s",
	    host, o->port, what[0] == 't' ? "_" : "",
	    what[0] == 't' ? o->name : "", what);
	return n < 0 ? -1 : 0;
}

/* Read a short one-line file into buf; 0 or -1. */
static int
token_read(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (f == NULL)
		return -1;
	if (fgets(buf, (int)len, f) == NULL) {
		fclose(f);
		return -1;
	}
	fclose(f);
	n = strcspn(buf, "\r\n");
	buf[n] = '\0';
	return n > 0 ? 0 : -1;
}

/* Write a one-line file, mode 0600, through a renamed temporary. */
static int
token_write(const char *path, const char *text)
{
	char tmp[TOKEN_PATH_MAX + 8];
	int fd, ok;
	size_t n = strlen(text);

	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -1;
	ok = write(fd, text, n) == (ssize_t)n && write(fd, "\n", 1) == 1;
	ok = close(fd) == 0 && ok;
	if (!ok || rename(tmp, path) != 0) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* The kept token for this server and name; 0, or -1 when there is none. */
int
token_load(const struct client_opts *o, char *token, size_t len)
{
	char path[TOKEN_PATH_MAX];

	token[0] = '\0';
	if (token_path(o, "token", path, sizeof path, 0) != 0)
		return -1;
	return token_read(path, token, len);
}

/* Keep the token for this server and name, and the name as the last one
 * used on this server; 0 or -1. */
int
token_save(const struct client_opts *o, const char *token)
{
	char path[TOKEN_PATH_MAX];

	if (token_path(o, "name", path, sizeof path, 1) == 0)
		(void)token_write(path, o->name);
	if (token_path(o, "token", path, sizeof path, 1) != 0)
		return -1;
	return token_write(path, token);
}

/* The name last used on this server; 0, or -1 when there is none. */
int
token_last_name(const struct client_opts *o, char *name, size_t len)
{
	char path[TOKEN_PATH_MAX];

	if (token_path(o, "name", path, sizeof path, 0) != 0)
		return -1;
	return token_read(path, name, len);
}
