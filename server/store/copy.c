/*
 * copy.c: `tablerod --copy-db FROM TO` copies a whole store into an empty
 * one, between any two backends (an SQLite file to PostgreSQL and back):
 * identities, rooms and their moves, finished games (with their ids),
 * one-player progress and the highest room number given out. Both are
 * opened as a server would open them (so both are migrated to this
 * server's schema); the target is written in one transaction, so a copy
 * that fails leaves it empty.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "server/base/base.h"
#include "server/store/schema.h"
#include "server/store/store.h"

/* One table's copy: the target and the rows written so far. */
struct copy_run {
	struct store *to;
	const struct store_table *t;
	long long rows;
	int write_failed; /* the target refused a row (else the read failed) */
};

/* A row of the source goes to the target. */
static int
copy_row(void *arg, const char *const *vals)
{
	struct copy_run *run = arg;

	if (store_copy_write(run->to, run->t, vals) != 0) {
		run->write_failed = 1;
		return -1;
	}
	run->rows++;
	return 0;
}

/* Stops the read at the first row: the store is not empty. */
static int
copy_any(void *arg, const char *const *vals)
{
	(void)vals;
	*(int *)arg = 1;
	return 1;
}

/* 1 when the target holds any row of a real table (room_max aside), 0
 * when it is empty, -1 on an error. */
static int
copy_target_used(struct store *to)
{
	int i, any = 0;

	for (i = 0; i < store_ntables && !any; i++) {
		if (strcmp(store_tables[i].name, "room_max") == 0)
			continue;
		if (store_copy_read(to, &store_tables[i], copy_any, &any) < 0)
			return -1;
	}
	return any;
}

/* Every table from `from` into `to`, inside the target's transaction. */
static int
copy_tables(struct store *from, struct store *to, char *err, size_t errlen)
{
	struct copy_run run = {.to = to};
	int i;

	for (i = 0; i < store_ntables; i++) {
		run.t = &store_tables[i];
		run.rows = 0;
		if (store_copy_read(from, run.t, copy_row, &run) != 0) {
			snprintf(err, errlen, "%s %s: %s",
			    run.write_failed ? "writing" : "reading",
			    run.t->name,
			    store_errmsg(run.write_failed ? to : from));
			return -1;
		}
		log_info("copy: %s: %lld rows", run.t->name, run.rows);
	}
	return 0;
}

int
store_copy(const char *from, const char *to, char *err, size_t errlen)
{
	struct store *src = NULL, *dst = NULL;
	int used, ret = -1;

	err[0] = '\0';
	if (strcmp(from, to) == 0) {
		snprintf(err, errlen, "--copy-db: FROM and TO are the same");
		return -1;
	}
	/* Opening a missing file would make an empty store, copied as such:
	 * a mistyped FROM must not look like a copy. */
	if (strstr(from, "://") == NULL && strcmp(from, ":memory:") != 0 &&
	    access(from, F_OK) != 0) {
		snprintf(err, errlen, "%s: %s", from, strerror(errno));
		return -1;
	}
	if ((src = store_open(from, 0, err, errlen)) == NULL)
		goto out;
	if ((dst = store_open(to, STORE_SYNC_FULL, err, errlen)) == NULL)
		goto out;
	if ((used = copy_target_used(dst)) != 0) {
		snprintf(err, errlen, "%s: %s", to,
		    used < 0 ? store_errmsg(dst)
		             : "not empty (--copy-db writes only into a new"
		               " store)");
		goto out;
	}
	if (store_copy_txn(dst, 0) != 0) {
		snprintf(err, errlen, "%s: %s", to, store_errmsg(dst));
		goto out;
	}
	if (copy_tables(src, dst, err, errlen) != 0) {
		store_copy_txn(dst, -1);
		goto out;
	}
	if (store_copy_txn(dst, 1) != 0) {
		snprintf(err, errlen, "%s: %s", to, store_errmsg(dst));
		goto out;
	}
	ret = 0;
out:
	store_close(dst);
	store_close(src);
	return ret;
}
