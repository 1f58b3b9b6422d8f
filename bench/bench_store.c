/*
 * bench_store.c: what the store costs the event loop. Measures moves
 * put per second to a file-backed store with synchronous=NORMAL and
 * with FULL (each put a group of its own, its own transaction: the
 * server's worst case, one move per group), with the latency spread of single
 * appends, and the time to open and load 1,000 unfinished rooms of 40 moves at
 * start.
 *
 * Usage: bench_store [DIR]   (DIR for the data files, default /tmp; use a
 * directory on the disk the server will use: fsync cost is the disk's)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/vfs.h>
#endif

#include "server/store/store.h"

/* Appends per run, and the time after which a (slow, FULL) run stops. */
#define BENCH_APPENDS 20000
#define BENCH_SECONDS 3.0
/* Runs per setting; the median is reported. */
#define BENCH_RUNS 3
/* Moves are spread over this many rooms, as on a busy server. */
#define BENCH_ROOMS 50
/* An append slower than this stalls the event loop noticeably. */
#define BENCH_SLOW_US 1000.0
/* The load benchmark: rooms and moves per room. */
#define BENCH_LOAD_ROOMS 1000
#define BENCH_LOAD_MOVES 40

/* One append run's results. */
struct bench_run {
	int moves;
	double seconds;
	double p50_us, p99_us, max_us;
	int slow;          /* appends that took over BENCH_SLOW_US */
	double slow_share; /* the share of the run's time they took */
};

/* Monotonic seconds. */
static double
bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Wall-clock milliseconds since the epoch, for the rows' times. */
static long long
bench_epoch_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int
bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Make a fresh data file name in dir (the empty file mkstemp made). */
static int
bench_tmp(const char *dir, char *path, size_t len)
{
	int fd;

	snprintf(path, len, "%s/tablero-bench-store-XXXXXX", dir);
	if ((fd = mkstemp(path)) < 0) {
		perror(path);
		return -1;
	}
	close(fd);
	return 0;
}

/* Remove a data file and its WAL companions. */
static void
bench_rm(const char *path)
{
	char p[1100];

	unlink(path);
	snprintf(p, sizeof p, "%s-wal", path);
	unlink(p);
	snprintf(p, sizeof p, "%s-shm", path);
	unlink(p);
}

/* Save rooms r1..rN, playing, created in order. */
static int
bench_rooms(struct store *s, int n)
{
	struct store_room r = {
	    .game = "ataxx",
	    .options = "{\"size\":7}",
	    .seats =
	        "[{\"name\":\"ana\",\"bot\":0},{\"name\":\"bo\",\"bot\":0}]",
	    .status = "playing",
	    .creator = "ana",
	    .clock_initial_ms = 300000,
	    .clock_increment_ms = 2000,
	    .game_no = 1,
	};
	char id[16];
	int i;

	for (i = 1; i <= n; i++) {
		snprintf(id, sizeof id, "r%d", i);
		r.id = id;
		r.created_ms = r.updated_ms = bench_epoch_ms() + i;
		struct store_op op;

		memset(&op, 0, sizeof op);
		op.kind = STORE_OP_ROOM_SAVE;
		op.u.room = r;
		if (store_commit(s, &op) != 0) {
			fprintf(stderr, "save room: %s\n", store_errmsg(s));
			return -1;
		}
	}
	return 0;
}

/* Append move number i (0-based) of a run: round robin over nrooms. */
static int
bench_append(struct store *s, int i, int nrooms)
{
	struct store_move m;
	struct store_op op;
	char room[16];

	snprintf(room, sizeof room, "r%d", i % nrooms + 1);
	m.ply = i / nrooms + 1;
	m.seat = m.ply % 2;
	m.move = "b2-d3";
	m.clock_ms[0] = 300000 - m.ply * 10;
	m.clock_ms[1] = 300000 - m.ply * 11;
	m.at_ms = bench_epoch_ms();
	memset(&op, 0, sizeof op);
	op.kind = STORE_OP_MOVE_PUT;
	op.a = room;
	op.n = 1;
	op.u.move = m;
	if (store_commit(s, &op) != 0) {
		fprintf(stderr, "%s\n", store_errmsg(s));
		return -1;
	}
	return 0;
}

/* One run: append up to BENCH_APPENDS moves or for BENCH_SECONDS. */
static int
bench_append_run(
    const char *dir, int sync_full, double *lat, struct bench_run *run)
{
	char path[1024], err[512];
	struct store *s;
	double start, t0, t1;
	int i, n;

	if (bench_tmp(dir, path, sizeof path) != 0)
		return -1;
	if ((s = store_open(path, sync_full ? STORE_SYNC_FULL : 0, err,
	         sizeof err)) == NULL) {
		fprintf(stderr, "%s\n", err);
		bench_rm(path);
		return -1;
	}
	if (bench_rooms(s, BENCH_ROOMS) != 0)
		goto fail;
	start = bench_now();
	t1 = start;
	for (i = 0; i < BENCH_APPENDS && t1 - start < BENCH_SECONDS; i++) {
		t0 = bench_now();
		if (bench_append(s, i, BENCH_ROOMS) != 0)
			goto fail;
		t1 = bench_now();
		lat[i] = (t1 - t0) * 1e6;
	}
	run->moves = i;
	run->seconds = t1 - start;
	run->slow = 0;
	run->slow_share = 0;
	for (n = 0; n < i; n++)
		if (lat[n] > BENCH_SLOW_US) {
			run->slow++;
			run->slow_share += lat[n] / 1e6;
		}
	run->slow_share /= run->seconds;
	qsort(lat, (size_t)i, sizeof *lat, bench_cmp_double);
	run->p50_us = lat[i / 2];
	run->p99_us = lat[(size_t)i * 99 / 100];
	run->max_us = lat[i - 1];
	store_close(s);
	bench_rm(path);
	return 0;
fail:
	store_close(s);
	bench_rm(path);
	return -1;
}

/* BENCH_RUNS runs with one synchronous setting; the median by rate. */
static int
bench_appends(const char *dir, int sync_full)
{
	const char *name = sync_full ? "FULL" : "NORMAL";
	struct bench_run runs[BENCH_RUNS];
	double rate[BENCH_RUNS], sorted[BENCH_RUNS], *lat;
	int i, mid;

	if ((lat = malloc(BENCH_APPENDS * sizeof *lat)) == NULL)
		return -1;
	for (i = 0; i < BENCH_RUNS; i++) {
		if (bench_append_run(dir, sync_full, lat, &runs[i]) != 0) {
			free(lat);
			return -1;
		}
		rate[i] = sorted[i] = runs[i].moves / runs[i].seconds;
		printf("store append synchronous=%-6s run %d: %6d moves in"
		       " %.3f s: %8.0f moves/s, %7.1f us/move (p50 %.1f us,"
		       " p99 %.1f us, max %.1f us; %d over %.0f us, %.0f%% of"
		       " the time)\n",
		    name, i + 1, runs[i].moves, runs[i].seconds, rate[i],
		    1e6 / rate[i], runs[i].p50_us, runs[i].p99_us,
		    runs[i].max_us, runs[i].slow, BENCH_SLOW_US,
		    runs[i].slow_share * 100);
	}
	free(lat);
	qsort(sorted, BENCH_RUNS, sizeof *sorted, bench_cmp_double);
	for (mid = 0; rate[mid] != sorted[BENCH_RUNS / 2]; mid++)
		;
	printf("store append synchronous=%-6s median: %8.0f moves/s, %7.1f"
	       " us/move (p99 %.1f us)\n",
	    name, rate[mid], 1e6 / rate[mid], runs[mid].p99_us);
	return 0;
}

/* A store_load callback that counts rooms and moves. */
static int
bench_count(void *arg, const struct store_room *r,
    const struct store_move *moves, int nmoves)
{
	long *n = arg;

	(void)r;
	(void)moves;
	n[0]++;
	n[1] += nmoves;
	return 0;
}

/* Time to open (with its integrity check) and load 1,000 rooms of 40
 * moves, as the server does at start. */
static int
bench_load(const char *dir)
{
	char path[1024], err[512];
	struct store *s;
	double open_s[BENCH_RUNS], load_s[BENCH_RUNS], t0;
	long n[2];
	int i;

	if (bench_tmp(dir, path, sizeof path) != 0)
		return -1;
	if ((s = store_open(path, 0, err, sizeof err)) == NULL) {
		fprintf(stderr, "%s\n", err);
		bench_rm(path);
		return -1;
	}
	if (bench_rooms(s, BENCH_LOAD_ROOMS) != 0)
		goto fail;
	for (i = 0; i < BENCH_LOAD_ROOMS * BENCH_LOAD_MOVES; i++)
		if (bench_append(s, i, BENCH_LOAD_ROOMS) != 0)
			goto fail;
	store_close(s);
	for (i = 0; i < BENCH_RUNS; i++) {
		t0 = bench_now();
		if ((s = store_open(path, 0, err, sizeof err)) == NULL) {
			fprintf(stderr, "%s\n", err);
			bench_rm(path);
			return -1;
		}
		open_s[i] = bench_now() - t0;
		n[0] = n[1] = 0;
		t0 = bench_now();
		if (store_load(s, bench_count, n) != 0) {
			fprintf(stderr, "%s\n", store_errmsg(s));
			goto fail;
		}
		load_s[i] = bench_now() - t0;
		store_close(s);
		if (n[0] != BENCH_LOAD_ROOMS ||
		    n[1] != (long)BENCH_LOAD_ROOMS * BENCH_LOAD_MOVES) {
			fprintf(stderr, "load gave %ld rooms, %ld moves\n",
			    n[0], n[1]);
			bench_rm(path);
			return -1;
		}
		printf("store load %d rooms x %d moves run %d: open %.2f ms,"
		       " load %.2f ms\n",
		    BENCH_LOAD_ROOMS, BENCH_LOAD_MOVES, i + 1, open_s[i] * 1e3,
		    load_s[i] * 1e3);
	}
	bench_rm(path);
	qsort(open_s, BENCH_RUNS, sizeof *open_s, bench_cmp_double);
	qsort(load_s, BENCH_RUNS, sizeof *load_s, bench_cmp_double);
	printf("store load %d rooms x %d moves median: open %.2f ms (with"
	       " quick_check), load %.2f ms (%.1f us/room)\n",
	    BENCH_LOAD_ROOMS, BENCH_LOAD_MOVES, open_s[BENCH_RUNS / 2] * 1e3,
	    load_s[BENCH_RUNS / 2] * 1e3,
	    load_s[BENCH_RUNS / 2] * 1e6 / BENCH_LOAD_ROOMS);
	return 0;
fail:
	store_close(s);
	bench_rm(path);
	return -1;
}

/* Say where the files are, and warn when fsync is free there; and how
 * busy the machine is, since other work shows in the latency tails. */
static void
bench_where(const char *dir)
{
#ifdef __linux__
	struct statfs fs;
	char load[64];
	FILE *f;

	if ((f = fopen("/proc/loadavg", "r")) != NULL) {
		if (fgets(load, sizeof load, f) != NULL)
			printf("store machine load average: %s", load);
		fclose(f);
	}

	/* TMPFS_MAGIC: memory, where FULL costs what NORMAL does. */
	if (statfs(dir, &fs) == 0 && fs.f_type == 0x01021994) {
		printf("store data files in %s (tmpfs: fsync is free here, FULL"
		       " figures mean nothing; give a disk directory)\n",
		    dir);
		return;
	}
#endif
	printf("store data files in %s\n", dir);
}

int
main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "/tmp";

	if (argc > 2) {
		fprintf(stderr, "usage: bench_store [DIR]\n");
		return 2;
	}
	bench_where(dir);
	if (bench_appends(dir, 0) != 0 || bench_appends(dir, 1) != 0 ||
	    bench_load(dir) != 0)
		return 1;
	return 0;
}
