/*
 * log.c: tablerod's log: levels, stderr or a file (reopened on SIGHUP) or
 * syslog, and sanitising of client bytes before they reach it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>

#include "server/server.h"

/* The log belongs to the process, like stderr: set once at start, reopened
 * from the event loop only. */
static struct {
	int level;
	FILE *file;      /* NULL: stderr */
	char path[1024]; /* "" for stderr */
	int use_syslog;
} log_cfg = {LOG_LEVEL_INFO, NULL, "", 0};

static const char *const log_names[] = {"error", "warn", "info", "debug"};

/* Parse a level name; -1 when unknown. */
int
log_level_parse(const char *name)
{
	int i;

	for (i = 0; i <= LOG_LEVEL_DEBUG; i++)
		if (strcmp(name, log_names[i]) == 0)
			return i;
	return -1;
}

void
log_set_level(int level)
{
	log_cfg.level = level;
}

/* Log to the file at path ("" for stderr, "syslog" for syslog); 0 or -1. */
int
log_open(const char *path)
{
	FILE *f;

	if (strcmp(path, "syslog") == 0) {
		openlog("tablerod", LOG_PID | LOG_NDELAY, LOG_DAEMON);
		log_cfg.use_syslog = 1;
		return 0;
	}
	snprintf(log_cfg.path, sizeof log_cfg.path, "%s", path);
	if (path[0] == '\0')
		return 0;
	f = fopen(path, "a");
	if (f == NULL)
		return -1;
	setvbuf(f, NULL, _IOLBF, 0);
	if (log_cfg.file != NULL)
		fclose(log_cfg.file);
	log_cfg.file = f;
	return 0;
}

/* Reopen the log file after rotation (SIGHUP). */
void
log_reopen(void)
{
	char path[sizeof log_cfg.path];

	if (log_cfg.use_syslog || log_cfg.path[0] == '\0')
		return;
	memcpy(path, log_cfg.path, sizeof path);
	if (log_open(path) != 0)
		log_msg(LOG_LEVEL_ERROR, "cannot reopen log %s: %s", path,
		    strerror(errno));
	else
		log_msg(LOG_LEVEL_INFO, "log reopened");
}

void
log_close(void)
{
	if (log_cfg.file != NULL)
		fclose(log_cfg.file);
	log_cfg.file = NULL;
	if (log_cfg.use_syslog)
		closelog();
}

void
log_msg(int level, const char *fmt, ...)
{
	static const int prio[] = {LOG_ERR, LOG_WARNING, LOG_INFO, LOG_DEBUG};
	char line[2048], stamp[32];
	struct tm tm;
	time_t now;
	va_list ap;
	FILE *out;

	if (level > log_cfg.level)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	if (log_cfg.use_syslog) {
		syslog(prio[level], "%s", line);
		return;
	}
	now = time(NULL);
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
	out = log_cfg.file != NULL ? log_cfg.file : stderr;
	fprintf(out, "%s %s %s\n", stamp, log_names[level], line);
}

/* A broken invariant or out of memory: log and stop. */
void
fatal(const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	log_msg(LOG_LEVEL_ERROR, "fatal: %s", line);
	abort();
}

/* Copy client bytes for the log: at most LOG_CLIENT_BYTES of them, every
 * non-printable byte as \xNN, an ellipsis when cut. */
const char *
log_sanitize(const char *in, size_t len, char *out, size_t outlen)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, o = 0;

	if (outlen == 0)
		return out;
	for (i = 0; i < len && i < LOG_CLIENT_BYTES; i++) {
		unsigned char c = (unsigned char)in[i];

		if (o + 5 >= outlen)
			break;
		if (c >= 0x20 && c < 0x7f && c != '\\') {
			out[o++] = (char)c;
			continue;
		}
		out[o++] = '\\';
		out[o++] = 'x';
		out[o++] = hex[c >> 4];
		out[o++] = hex[c & 15];
	}
	if (i < len && o + 4 < outlen) {
		memcpy(out + o, "...", 3);
		o += 3;
	}
	out[o] = '\0';
	return out;
}
