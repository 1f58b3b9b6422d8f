/*
 * fault.c: test-only fault injection for the backends (fault.h): reads
 * the control file before each write.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "server/store/fault.h"

/* What the control file holds while every write fails. */
#define STORE_FAULT_WORD "fail"
/* What it holds to stop the next commit, and what that commit writes
 * there while it waits; how often it reads the file again (ms). */
#define STORE_FAULT_HOLD "hold"
#define STORE_FAULT_HOLDING "holding"
#define STORE_FAULT_HOLD_POLL_MS 10
/* What it holds to stop the next page read of finished games (a slow
 * read, which must not stall the loop), and what that read writes. */
#define STORE_FAULT_READHOLD "readhold"
#define STORE_FAULT_READHOLDING "readholding"

int
store_fault_init(struct store_fault *f)
{
	const char *v = getenv(STORE_FAULT_ENV);

	memset(f, 0, sizeof *f);
	if (v == NULL || *v == '\0')
		return 0;
	return (f->file = strdup(v)) != NULL ? 0 : -1;
}

void
store_fault_free(struct store_fault *f)
{
	free(f->file);
	f->file = NULL;
}

/* The control file's text into buf; 0, or -1 when there is none. */
static int
store_fault_read(const struct store_fault *f, char *buf, size_t len)
{
	size_t n;
	FILE *fp;

	if (f->file == NULL || (fp = fopen(f->file, "r")) == NULL)
		return -1;
	n = fread(buf, 1, len - 1, fp);
	fclose(fp);
	buf[n] = '\0';
	return 0;
}

int
store_fault_now(struct store_fault *f)
{
	char buf[STORE_FAULT_READ];

	if (store_fault_read(f, buf, sizeof buf) != 0)
		return 0;
	if (strncmp(buf, "pass ", 5) == 0) {
		/* A new "pass N" counts again from N. */
		if (strcmp(buf, f->seen) != 0) {
			memcpy(f->seen, buf, sizeof buf);
			f->left = strtol(buf + 5, NULL, 10);
		}
		if (f->left > 0) {
			f->left--;
			return 0;
		}
		return 1;
	}
	f->seen[0] = '\0';
	return strncmp(buf, STORE_FAULT_WORD, strlen(STORE_FAULT_WORD)) == 0;
}

int
store_fault_undo(struct store_fault *f)
{
	char buf[STORE_FAULT_READ];

	return store_fault_read(f, buf, sizeof buf) == 0 &&
	    strstr(buf, "undo") != NULL;
}

/* While the control file holds word, write waiting into it and wait
 * until it says something else. */
static void
store_fault_wait(struct store_fault *f, const char *word, const char *waiting)
{
	struct timespec ts = {0, STORE_FAULT_HOLD_POLL_MS * 1000000L};
	char buf[STORE_FAULT_READ];
	FILE *fp;

	if (store_fault_read(f, buf, sizeof buf) != 0 || strcmp(buf, word) != 0)
		return;
	if ((fp = fopen(f->file, "w")) != NULL) {
		fputs(waiting, fp);
		fclose(fp);
	}
	while (store_fault_read(f, buf, sizeof buf) == 0 &&
	    strcmp(buf, waiting) == 0)
		nanosleep(&ts, NULL);
}

void
store_fault_hold(struct store_fault *f)
{
	store_fault_wait(f, STORE_FAULT_HOLD, STORE_FAULT_HOLDING);
}

void
store_fault_read_hold(struct store_fault *f)
{
	store_fault_wait(f, STORE_FAULT_READHOLD, STORE_FAULT_READHOLDING);
}
