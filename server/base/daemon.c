/*
 * daemon.c: detaching from the terminal (-d) and the pidfile, the classic
 * way (memcached daemon.c): fork, setsid, chdir("/"), /dev/null on 0-2.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "server/base/base.h"

/* Tell the launcher the daemon failed, and where its log says why: the
 * log file (an absolute path by now), or syslog. */
static void
daemon_failed(const char *log_file)
{
	if (log_file != NULL && strcmp(log_file, "syslog") != 0)
		fprintf(stderr,
		    "tablerod: the daemon did not start; see its log %s\n",
		    log_file);
	else
		fprintf(stderr,
		    "tablerod: the daemon did not start; see its log in "
		    "syslog (journalctl -t tablerod)\n");
}

/*
 * Fork into the background.  The parent waits until the daemon says it
 * is serving (daemon_ready) and exits 0, or 1 if the daemon failed to
 * start (naming where the log is: log_file, NULL for syslog), so a
 * launcher or an init script learns of a failure.  In the child: 0 with
 * *ready_fd set, or -1 when a step failed (errno set).
 */
int
daemon_detach(int *ready_fd, const char *log_file)
{
	int fd, pipefd[2];
	char c = 0;

	if (pipe(pipefd) != 0)
		return -1;
	switch (fork()) {
	case -1:
		return -1;
	case 0:
		break;
	default:
		close(pipefd[1]);
		while (read(pipefd[0], &c, 1) == -1 && errno == EINTR)
			;
		if (c != 'R')
			daemon_failed(log_file);
		_exit(c == 'R' ? 0 : 1);
	}
	close(pipefd[0]);
	*ready_fd = pipefd[1];
	if (setsid() == -1)
		return -1;
	if (chdir("/") != 0)
		return -1;
	fd = open("/dev/null", O_RDWR);
	if (fd == -1)
		return -1;
	if (dup2(fd, STDIN_FILENO) == -1 || dup2(fd, STDOUT_FILENO) == -1 ||
	    dup2(fd, STDERR_FILENO) == -1) {
		close(fd);
		return -1;
	}
	if (fd > STDERR_FILENO)
		close(fd);
	return 0;
}

/* Tell the waiting launcher that the daemon is serving; it exits 0.  A
 * daemon that dies first closes the pipe unannounced and it exits 1. */
void
daemon_ready(int fd)
{
	ssize_t n;

	if (fd < 0)
		return;
	do
		n = write(fd, "R", 1);
	while (n == -1 && errno == EINTR);
	close(fd);
}

/* Write our pid to a temporary file beside path, then rename it into place,
 * so nobody ever reads a half-written pidfile. 0 or -1. */
int
daemon_write_pidfile(const char *path)
{
	char tmp[4096];
	FILE *f;
	int n;

	n = snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
	if (n < 0 || (size_t)n >= sizeof tmp) {
		errno = ENAMETOOLONG;
		return -1;
	}
	f = fopen(tmp, "w");
	if (f == NULL)
		return -1;
	if (fprintf(f, "%ld\n", (long)getpid()) < 0 || fclose(f) != 0) {
		unlink(tmp);
		return -1;
	}
	if (rename(tmp, path) != 0) {
		unlink(tmp);
		return -1;
	}
	return 0;
}
