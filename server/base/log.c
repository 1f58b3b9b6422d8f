/*
 * log.c: tablerod's log: levels, stderr or a file (reopened on SIGHUP) or
 * syslog, and sanitising of client bytes before they reach it.
 *
 * Any thread may log (the loop, the store thread): each line is formatted
 * whole and goes out in one write(2) to one descriptor, with no buffer or
 * FILE in between. A reopen after rotation opens the new file and dup2()s
 * it onto that same descriptor number, so a thread writing at that moment
 * writes whole to the old file or whole to the new one, never to a
 * descriptor closed under it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "server/base/base.h"

/* Bytes of a log line's text (the message, after its stamp and level);
 * a longer message is cut. */
#define LOG_LINE_MAX 2048
/* Bytes of a line's stamp and level in front of its text. */
#define LOG_PREFIX_MAX 48

/* The log belongs to the process, like stderr: level and syslog are set
 * once at start, before any thread; the path and the descriptor change
 * on the loop only (open, reopen, close), and the descriptor's number
 * stays the same on a reopen. */
static struct {
	int level;
	atomic_int fd;   /* where lines go: STDERR_FILENO or the file */
	char path[1024]; /* "" for stderr */
	int use_syslog;
	int has_file; /* fd is a file log_open opened (the loop alone) */
} log_cfg = {LOG_LEVEL_INFO, STDERR_FILENO, "", 0, 0};

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

/* Open path for appending, close-on-exec; the descriptor or -1. */
static int
log_open_file(const char *path)
{
	return open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
}

/* Log to the file at path ("" for stderr, "syslog" for syslog); 0 or -1.
 * A file already open is replaced in place (dup2 onto its number). */
int
log_open(const char *path)
{
	int fd, cur = atomic_load(&log_cfg.fd);

	if (strcmp(path, "syslog") == 0) {
		openlog("tablerod", LOG_PID | LOG_NDELAY, LOG_DAEMON);
		log_cfg.use_syslog = 1;
		return 0;
	}
	snprintf(log_cfg.path, sizeof log_cfg.path, "%s", path);
	if (path[0] == '\0')
		return 0;
	fd = log_open_file(path);
	if (fd == -1)
		return -1;
	if (!log_cfg.has_file) {
		atomic_store(&log_cfg.fd, fd);
		log_cfg.has_file = 1;
		return 0;
	}
	/* dup2 swaps the file under cur atomically: a write in another
	 * thread goes whole to the old file or whole to the new one. */
	if (dup2(fd, cur) == -1) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	close(fd);
	(void)fcntl(cur, F_SETFD, FD_CLOEXEC); /* dup2 clears it */
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

/* Back to stderr, at the very end (no other thread is left). */
void
log_close(void)
{
	int fd = atomic_exchange(&log_cfg.fd, STDERR_FILENO);

	if (log_cfg.has_file)
		close(fd);
	log_cfg.has_file = 0;
	if (log_cfg.use_syslog)
		closelog();
}

/* Write all n bytes of buf to fd, in one write(2) unless it comes back
 * short; a log that cannot be written loses the line, nothing else. */
static void
log_write(int fd, const char *buf, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, buf, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		buf += w;
		n -= (size_t)w;
	}
}

void
log_msg(int level, const char *fmt, ...)
{
	static const int prio[] = {LOG_ERR, LOG_WARNING, LOG_INFO, LOG_DEBUG};
	char line[LOG_LINE_MAX], out[LOG_PREFIX_MAX + LOG_LINE_MAX + 1];
	char stamp[32];
	struct tm tm;
	time_t now;
	va_list ap;
	int n;

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
	n = snprintf(
	    out, sizeof out, "%s %s %s\n", stamp, log_names[level], line);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof out)
		n = (int)sizeof out - 1; /* cannot happen: out holds line */
	log_write(atomic_load(&log_cfg.fd), out, (size_t)n);
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
