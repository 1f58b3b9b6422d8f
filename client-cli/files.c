/*
 * files.c: files stay on the player's machine. `load FILE [GAME]` reads a
 * local file, finds with rules/ which game reads it (a game's file format,
 * or a text option such as a table of piece moves) and creates a room
 * from it; `save FILE` asks the server for the room's export and writes
 * it, keeping a copy as the last saved file of that game in the config
 * folder (a game's start question may offer it). A file that cannot be
 * read or written is a sentence, never a crash.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "client-cli/client.h"

/* Room for a path. */
#define FILES_PATH_MAX 1024

/* The whole of a local file, NUL-terminated (malloc'd), or NULL with the
 * reason in err. */
char *
files_read(const char *path, size_t *len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n;

	if (f == NULL) {
		snprintf(err, errlen, "%s", strerror(errno));
		return NULL;
	}
	buf = malloc(CLIENT_FILE_MAX + 2);
	if (buf == NULL) {
		fclose(f);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	n = fread(buf, 1, CLIENT_FILE_MAX + 1, f);
	if (ferror(f)) {
		snprintf(err, errlen, "%s", strerror(errno));
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	if (n > CLIENT_FILE_MAX) {
		snprintf(
		    err, errlen, "it is longer than %d bytes", CLIENT_FILE_MAX);
		free(buf);
		return NULL;
	}
	if (memchr(buf, '\0', n) != NULL) {
		snprintf(err, errlen, "it is not a text file");
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* Write text to path; 0, or -1 with the reason in err. */
static int
files_write(const char *path, const char *text, char *err, size_t errlen)
{
	FILE *f = fopen(path, "w");
	size_t n = strlen(text);

	if (f == NULL) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	if (fwrite(text, 1, n, f) != n) {
		snprintf(err, errlen, "%s", strerror(errno));
		fclose(f);
		return -1;
	}
	if (fclose(f) != 0) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	return 0;
}

/* Add one game's reason for refusing a file to why. */
static void
files_why(char *why, size_t whylen, const struct rules_game *g, const char *err)
{
	size_t n = strlen(why);

	if (n + 4 < whylen)
		snprintf(why + n, whylen - n, "%s%s: %s", n > 0 ? "; " : "",
		    g->title, err);
}

/* The option under which game g takes this text, or NULL: its file
 * format ("file"), else one of its text options that accepts it. */
static const char *
files_option_for(const struct rules_game *g, const char *text, size_t len,
    char *why, size_t whylen)
{
	static _Alignas(16) unsigned char st[RULES_STATE_MAX];
	const struct rules_optdesc *d;
	char err[RULES_ERR_MAX];

	if (g->import_file != NULL &&
	    g->init(st, NULL, 0, err, sizeof err) == 0) {
		if (g->import_file(st, text, len, err, sizeof err) == 0)
			return "file";
		files_why(why, whylen, g, err);
	}
	for (d = g->options; d != NULL && d->name != NULL; d++) {
		struct rules_opt o = {d->name, text};
		if (d->type != RULES_OPT_TEXT || strcmp(d->name, "file") == 0)
			continue;
		if (rules_opts_check(g, &o, 1, err, sizeof err) == 0 &&
		    g->init(st, &o, 1, err, sizeof err) == 0)
			return d->name;
		files_why(why, whylen, g, err);
	}
	return NULL;
}

/* The game whose position string the text is (what save writes for a
 * game without a file format), or NULL; the server's `position` option
 * takes it. */
static const struct rules_game *
files_position_game(const char *text, const char *want)
{
	static _Alignas(16) unsigned char st[RULES_STATE_MAX];
	const struct rules_game *const *g;
	char err[RULES_ERR_MAX], line[RULES_LINE_MAX];

	games_trim(text, line, sizeof line);
	for (g = rules_games; *g != NULL; g++) {
		if (want[0] != '\0' && strcmp(want, (*g)->name) != 0)
			continue;
		if ((*g)->init(st, NULL, 0, err, sizeof err) == 0 &&
		    (*g)->from_position(st, line, err, sizeof err) == 0)
			return *g;
	}
	return NULL;
}

/* Split "FILE [GAME]" (the file may be quoted). */
static void
files_args(const char *args, char *path, size_t plen, char *game, size_t glen)
{
	const char *end;

	game[0] = '\0';
	if (*args == '"' && (end = strchr(args + 1, '"')) != NULL) {
		snprintf(path, plen, "%.*s", (int)(end - args - 1), args + 1);
		args = end + 1;
	} else {
		end = args + strcspn(args, " \t");
		snprintf(path, plen, "%.*s", (int)(end - args), args);
		args = end;
	}
	games_trim(args, game, glen);
}

/* load FILE [GAME]: a room from a local file. */
void
files_load(struct client *c, const char *args)
{
	char path[FILES_PATH_MAX], game[CLIENT_FIELD], err[256] = "";
	char why[4 * RULES_ERR_MAX] = "";
	const struct rules_game *const *g, *found;
	const char *opt = NULL;
	size_t len = 0;
	char *text;
	cJSON *req, *opts;

	files_args(args, path, sizeof path, game, sizeof game);
	if (path[0] == '\0') {
		view_refuse(c, "load", "Say which file: load FILE [GAME].");
		return;
	}
	text = files_read(path, &len, err, sizeof err);
	if (text == NULL) {
		view_refuse(c, "load", "Cannot read %s: %s.", path, err);
		return;
	}
	for (g = rules_games; *g != NULL && opt == NULL; g++)
		if (game[0] == '\0' || strcmp(game, (*g)->name) == 0)
			opt = files_option_for(*g, text, len, why, sizeof why);
	if (opt != NULL) {
		found = g[-1];
	} else if ((found = files_position_game(text, game)) != NULL) {
		opt = "position";
		games_trim(text, text, len + 1);
	} else {
		view_refuse(
		    c, "load", "No game here reads %s (%s).", path, why);
		free(text);
		return;
	}
	req = cJSON_CreateObject();
	opts = cJSON_AddObjectToObject(req, "options");
	cJSON_AddStringToObject(req, "cmd", "create");
	cJSON_AddStringToObject(req, "game", found->name);
	cJSON_AddStringToObject(opts, opt, text);
	free(text);
	if (!c->opts.batch)
		view_print(c, "Loading %s as %s (%s).\n", path, found->title,
		    strcmp(opt, "file") == 0 ? "its file" : opt);
	conn_send(c, req, CLIENT_P_PRINT, NULL);
}

/* save FILE: ask for the room's export; the reply is written later. */
void
files_save(struct client *c, const char *args)
{
	char path[FILES_PATH_MAX], game[CLIENT_FIELD];
	cJSON *req;

	files_args(args, path, sizeof path, game, sizeof game);
	if (path[0] == '\0') {
		view_refuse(c, "save", "Say where: save FILE [ROOM].");
		return;
	}
	req = cJSON_CreateObject();
	if (req == NULL)
		return;
	cJSON_AddStringToObject(req, "cmd", "export");
	/* without a room the server exports the current one */
	if (game[0] != '\0' || c->room.active)
		cJSON_AddStringToObject(
		    req, "room", game[0] ? game : c->room.id);
	conn_send(c, req, CLIENT_P_SAVE, path);
}

/* A batch's reply to save: {"re":"save","ok":true,"file":PATH}. */
static void
files_batch_reply(struct client *c, const char *path)
{
	cJSON *o = cJSON_CreateObject();
	char *line;

	cJSON_AddStringToObject(o, "re", "save");
	cJSON_AddBoolToObject(o, "ok", 1);
	cJSON_AddStringToObject(o, "file", path);
	line = proto_json_line(o);
	if (line != NULL)
		fputs(line, c->out);
	free(line);
	cJSON_Delete(o);
}

/* The export for a save arrived: write it (and the game's last copy). */
void
files_saved(struct client *c, const cJSON *rep, const char *path)
{
	const cJSON *text = cJSON_GetObjectItemCaseSensitive(rep, "text");
	const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(rep, "format");
	char err[256], last[FILES_PATH_MAX];
	int n;

	if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(rep, "ok")) ||
	    !cJSON_IsString(text) || path == NULL) {
		view_error(c, rep);
		return;
	}
	if (files_write(path, text->valuestring, err, sizeof err) != 0) {
		view_refuse(c, "save", "Cannot write %s: %s.", path, err);
		return;
	}
	if (c->opts.batch) {
		files_batch_reply(c, path);
		return;
	}
	view_print(c, "Saved to %s (%s).\n", path,
	    cJSON_IsString(fmt) ? fmt->valuestring : "position");
	if (c->room.rg == NULL || token_dir(last, sizeof last, 1) != 0)
		return;
	n = (int)strlen(last);
	snprintf(last + n, sizeof last - (size_t)n, "/last-%s.txt",
	    c->room.rg->name);
	(void)files_write(last, text->valuestring, err, sizeof err);
}

/* The last file saved of a game (malloc'd), or NULL. */
char *
files_last(const char *game, size_t *len)
{
	char path[FILES_PATH_MAX], err[256];
	int n;

	if (token_dir(path, sizeof path, 0) != 0)
		return NULL;
	n = (int)strlen(path);
	snprintf(path + n, sizeof path - (size_t)n, "/last-%s.txt", game);
	return files_read(path, len, err, sizeof err);
}
