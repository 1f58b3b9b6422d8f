/*
 * loadgen.c: the benchmarks' load generator, on libevent. It drives
 * tablerod or the echo server (bench/echod.c) over loopback and prints one
 * line of key=value figures for bench/run.sh. Scenarios (-m):
 *   ping   -c CONNS -d DEPTH: every connection keeps DEPTH pings in flight;
 *          any line that is not an event counts as the reply (echod sends
 *          the request back); -c 0: only the bystander;
 *   moves  -r ROOMS [-R]: two clients per private Ataxx room, the side to
 *          move sends a random legal move (picked from the board of the
 *          last event) as soon as it knows the position; both ask for a
 *          rematch when a game ends; -R names the room in every move (so
 *          the server looks it up) instead of acting on the current one
 *          (the state and rematch requests between games too);
 *          -t RATE: moves at a fixed pace, RATE moves/s in all, spread
 *          evenly over the rooms (each room has a slot every ROOMS/RATE
 *          s, the rooms' slots staggered) and the side to move waits for
 *          its room's slot; a move that finds its slot more than one
 *          interval past gives up the missed slots (no burst to catch
 *          up) and counts as late; rate= is then the pace achieved;
 *   idle   -c CONNS: connections that say hello and then nothing; the
 *          server's resident memory per connection;
 *   bots   -r ROOMS -l LEVEL: rooms where two bots play each other.
 * In ping, moves and bots a bystander thread (its own socket, no room)
 * pings every 10 ms, so its times show how long the load makes others
 * wait. -L RATE adds a login storm: a thread that connects, says hello as
 * a fresh name (a new identity the server stores) and closes, RATE times
 * a second (logins= done in the window, login_p99_ms= of their replies). With
 * -P PID the server's CPU time and minor page faults (from /proc/PID/stat) and
 * memory are measured over the same window. -w: seconds of load before the
 * measured window (0.5), e.g. to measure 10,000 rooms once their games have
 * reached their usual length. Usage: loadgen -m MODE -p PORT [-P PID] [-s
 * SECONDS] [-w SECONDS] [-c N]
 *        [-d N] [-r N] [-R] [-e] [-t RATE] [-l N] [-x SEED] [-L RATE]
 * rate= counts the replies in the window: pings, or in moves mode the
 * moves acknowledged (not the rematches and state requests between them).
 * -W: speak through a WebSocket (PORT is tablerod's --web-port): one
 * message per text frame, framed and masked by wslay, as a browser does.
 * -e (moves mode): the players say hello with "events":"lean" and apply
 * each lean moved event to their own board (docs/PROTOCOL.md, "Lean
 * events"), as a client with the rules does.
 * Two nodes of a cluster (moves mode): -q PORT2 with -S LAYOUT puts the
 * rooms' players on PORT and PORT2: split, each room's two players on the
 * same node, rooms alternating (every move local to its room's owner);
 * cross, the creator on PORT and the other player on PORT2 (half the
 * moves forwarded); far, the creator makes the room on PORT (which owns
 * it), then logs in again on PORT2 with its token and resumes its seat,
 * and the other player joins on PORT2 (every move forwarded). -A FILE:
 * every ok move reply (room, move, seq) appended to FILE as received, one
 * a line, to check later that each acknowledged move was stored.
 * machine_busy= is the share of all the machine's CPUs that was busy in
 * the window: their wall time less their idle time in /proc/stat (see
 * lg_machine for why not its busy counters).
 * -Q PID (up to LG_MORE_PIDS times): more processes whose CPU is measured
 * like -P's (the second node, Redis): cpu2_us=, cpu3_us=... per move.
 * -F ping|pipe -f WEBPORT [-n N]: N hostile connections (LG_FLOOD_CONNS)
 * to tablerod's --web-port beside the load (issue 30), from a thread of
 * their own, that never read: ping, each a WebSocket sending 125-byte
 * pings as fast as the socket takes them; pipe, each pipelining GET
 * /js/app.js as fast as the socket takes them. A connection the server
 * closes is opened again at once. flood_kib= (bytes sent in the window)
 * and flood_conns= (connections opened in it) say how hard it pushed.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <cJSON.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <wslay/wslay.h>

/* Requests one connection may keep in flight (-d). */
#define LG_DEPTH_MAX 64
/* Connections at once (-c, 2 per room with -r). */
#define LG_CONNS_MAX 20000
/* Connects started but not yet welcomed, so a burst of thousands does not
 * overrun the listen queue of a server that is slower to accept. */
#define LG_CONNECTING_MAX 500
/* Seconds allowed to connect, log in and seat everyone (20,000
 * connections to a server under valgrind take minutes). */
#define LG_SETUP_SEC 600
/* Seconds of load before the measured window starts (-w). */
#define LG_WARMUP_SEC 0.5
/* The longest -s and -w. */
#define LG_SECONDS_MAX 300
/* Seconds to collect the replies outstanding after the window. */
#define LG_DRAIN_SEC 10
/* Seconds between the bystander's pings. */
#define LG_BYSTANDER_PAUSE_MS 10
/* Seconds the bystander waits for one reply before it gives up. */
#define LG_BYSTANDER_WAIT_SEC 10
/* Processes measured besides -P's (-Q): a cluster's other nodes, Redis. */
#define LG_MORE_PIDS 3
/* Board side of the Ataxx rooms, and its largest. */
#define LG_ATAXX_SIZE 7
#define LG_BOARD_MAX 9
/* Random tries at a move before listing every move of the position. */
#define LG_PICK_TRIES 24
/* The highest -t: a slot every 1 us is beyond any server here. */
#define LG_PACE_MAX 1000000
/* The highest -L: logins a second, each a connection of its own. */
#define LG_LOGINS_MAX 10000
/* Flood connections (-F) by default, and at most (-n). */
#define LG_FLOOD_CONNS 8
#define LG_FLOOD_MAX 256
/* Bytes of a flood connection's burst: many pings or requests at once. */
#define LG_FLOOD_CHUNK (64 * 1024)
/* The machine's CPU counters come from /proc/stat, or from the file this
 * variable names (tests/blackbox/test_bench_busy.py writes one). */
#define LG_STAT_ENV "LOADGEN_STAT"
/* The most CPUs counted in that file (its cpuN lines). */
#define LG_CPUS_MAX 4096

enum lg_mode { LG_PING, LG_MOVES, LG_IDLE, LG_BOTS };
/* Where -q puts the players of each room (see the top). */
enum lg_layout { LG_ONE, LG_SPLIT, LG_CROSS, LG_FAR };

struct lg;

struct lg_conn {
	struct lg *lg;
	struct bufferevent *bev;
	struct lg_conn *partner; /* the other player of the room */
	int index;
	int port;       /* the node this connection talks to */
	int creator;    /* creates the room (and in bots mode, watches it) */
	int moving;     /* -S far: made the room, about to log in on PORT2 */
	char token[80]; /* -S far: the identity's token from hello */
	int heard;      /* a first line came: no longer connecting */
	int welcomed;   /* ping and idle modes: the welcome came */
	int helloed;    /* moves mode: logged in */
	int ready, dead;
	/* requests in flight: their send times, oldest first */
	double sent[LG_DEPTH_MAX];
	int head, inflight;
	const char *verb; /* moves mode: the request in flight */
	char name[24];
	char room[32]; /* the room's id, once known */
	int joined;    /* the join request went out */
	/* moves mode: the game as the last event showed it */
	char seat[16];     /* this side's seat name ("white") */
	char turnmark[32]; /* "turn":"white" when white is this seat */
	char mine;         /* 'x' or 'o' */
	int myturn, playing, rematch, resync;
	int n;
	char board[LG_BOARD_MAX][LG_BOARD_MAX];
	/* moves mode with -t: the room's next slot (kept on its creator) and
	 * the timer this side waits on for it */
	double slot;
	struct event *wait;
	/* -W: the WebSocket, and whether the server's 101 came */
	wslay_event_context_ptr ws;
	int upgraded;
};

struct lg_lat {
	double *v;
	size_t n, cap;
};

struct lg {
	struct event_base *base;
	enum lg_mode mode;
	int port, pid, conns, depth, rooms, level;
	int port2;                     /* -q: a second node */
	int more[LG_MORE_PIDS], nmore; /* -Q: more processes measured */
	long long more0[LG_MORE_PIDS]; /* their CPU ticks as the window opens */
	enum lg_layout layout;         /* -S: the players' nodes */
	FILE *acklog;                  /* -A: ok move replies, or NULL */
	int named;                     /* -R: every move names its room */
	int ws;                        /* -W: through a WebSocket */
	int lean;    /* -e: lean moved events, each applied to the board here */
	double pace; /* -t: moves per second in all, 0: as fast as answered */
	double seconds, warmup;
	unsigned long long rng;
	struct lg_conn *c;
	int next_connect, connecting, nready;
	int running, counting;
	long n_ok, errors, games, nomove, dropped;
	long late; /* paced moves sent more than an interval after their slot */
	struct lg_lat lat;
	double t0;
	double t_setup, t_load, t_end; /* when each phase began, 0: not yet */
	long long cpu0, flt0;
	struct rusage ru0;
	long long idle0; /* the machine's idle jiffies as the window opens */
	double idle_t0;  /* when they were read */
	long rss0;       /* the server's memory before the connections, KiB */
	const char *failed; /* why the run failed, or NULL */
	struct lg_by *by;
	double logins;          /* -L: logins a second, 0: none */
	struct lg_storm *storm; /* the login storm's thread */
	int flood_kind;         /* -F: LG_FLOOD_PING or _PIPE, 0: none */
	int flood_port;         /* -f: the web port */
	int flood_n;            /* -n: its connections */
	struct lg_flood *flood; /* its thread */
};

enum { LG_FLOOD_NONE, LG_FLOOD_PING, LG_FLOOD_PIPE };

/* The flood (-F): a thread of nonblocking sockets that never read. */
struct lg_flood {
	pthread_t thread;
	int kind, port, n;
	atomic_int counting, stop;
	long long sent; /* bytes sent in the window */
	long opened;    /* connections opened in the window */
	int failed;     /* connections that could not be opened */
	unsigned char chunk[LG_FLOOD_CHUNK];
	size_t chunklen;
};

/* The login storm (-L): a thread with blocking sockets of its own. */
struct lg_storm {
	pthread_t thread;
	int port;
	double rate;
	atomic_int counting, stop;
	struct lg_lat lat;
	long n;     /* logins done in the window */
	int failed; /* logins that failed */
};

/* The bystander: a thread with a blocking socket of its own. */
struct lg_by {
	pthread_t thread;
	int port;
	atomic_int counting, stop;
	struct lg_lat lat;
	int failed;
};

static double
lg_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void
lg_die(const char *what)
{
	fprintf(stderr, "loadgen: %s\n", what);
	exit(1);
}

static void
lg_lat_add(struct lg_lat *l, double v)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 4096;
		l->v = realloc(l->v, l->cap * sizeof *l->v);
		if (l->v == NULL)
			lg_die("out of memory");
	}
	l->v[l->n++] = v;
}

static int
lg_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The p-th percentile (0..100) in milliseconds; sorts the samples. */
static double
lg_pct(struct lg_lat *l, double p)
{
	size_t i;

	if (l->n == 0)
		return 0;
	qsort(l->v, l->n, sizeof *l->v, lg_cmp_double);
	i = (size_t)(l->n * p / 100.0);
	if (i >= l->n)
		i = l->n - 1;
	return l->v[i] * 1e3;
}

static unsigned
lg_rand(struct lg *lg, unsigned n)
{
	lg->rng ^= lg->rng << 13;
	lg->rng ^= lg->rng >> 7;
	lg->rng ^= lg->rng << 17;
	return (unsigned)(lg->rng % n);
}

/* User + system CPU ticks of process pid (every thread), -1 if unknown;
 * its minor page faults so far into *minflt. */
static long long
lg_proc_cpu(int pid, long long *minflt)
{
	char path[64], buf[1024], *p;
	unsigned long long ut, st, mf;
	FILE *f;
	size_t n;

	snprintf(path, sizeof path, "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (f == NULL)
		return -1;
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (p == NULL ||
	    sscanf(p + 2,
	        "%*c %*d %*d %*d %*d %*d %*u %llu %*u %*u "
	        "%*u %llu %llu",
	        &mf, &ut, &st) != 3)
		return -1;
	*minflt = (long long)mf;
	return (long long)(ut + st);
}

/* Resident memory of process pid in KiB, -1 if unknown. */
static long
lg_proc_rss(int pid)
{
	char path[64], line[256];
	long kib = -1;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL)
		if (sscanf(line, "VmRSS: %ld", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

/* Idle jiffies of the whole machine (idle and iowait, all its CPUs) and
 * its number of CPUs, from /proc/stat; *ncpu 0 when unknown. Its busy
 * counters are not read: with tick-based accounting (the usual
 * CONFIG_TICK_CPU_ACCOUNTING) a CPU's user and system time are sampled
 * at its tick, which a tickless idle CPU (NO_HZ_IDLE) stops and restarts,
 * while its idle time is measured when it sleeps. Paced runs keep both
 * cores in short bursts between long sleeps, and the sampled busy time
 * read 0.00-0.04 of the machine while the server alone used 0.3 of a
 * core (issue 32). Busy is the wall time of every CPU less the idle. */
static void
lg_machine(long long *idle, int *ncpu)
{
	const char *path = getenv(LG_STAT_ENV);
	FILE *f = fopen(path != NULL ? path : "/proc/stat", "r");
	long long v[5];
	char line[512];
	int n = 0;

	*idle = 0;
	*ncpu = 0;
	if (f == NULL)
		return;
	while (fgets(line, sizeof line, f) != NULL) {
		if (strncmp(line, "cpu ", 4) == 0 &&
		    sscanf(line + 4, "%lld %lld %lld %lld %lld", &v[0], &v[1],
		        &v[2], &v[3], &v[4]) == 5)
			*idle = v[3] + v[4];
		else if (strncmp(line, "cpu", 3) == 0 && line[3] >= '0' &&
		    line[3] <= '9' && n < LG_CPUS_MAX)
			n++;
	}
	fclose(f);
	*ncpu = n;
}

/* The share of the machine's CPU time that was busy since the window
 * opened (0 to 1), or -1 when /proc/stat cannot tell. */
static double
lg_machine_busy(struct lg *lg)
{
	long long idle;
	int ncpu;
	double wall, all, busy;

	lg_machine(&idle, &ncpu);
	wall = lg_now() - lg->idle_t0;
	all = wall * ncpu * (double)sysconf(_SC_CLK_TCK);
	if (ncpu == 0 || all <= 0 || idle < lg->idle0)
		return -1;
	busy = 1 - (double)(idle - lg->idle0) / all;
	return busy < 0 ? 0 : busy > 1 ? 1 : busy;
}

/* --------------------------------------------------------------- bystander */

/* Read one line into buf (NUL-terminated); 0, or -1 on close or timeout. */
static int
lg_by_line(int fd, char *buf, size_t len)
{
	size_t n = 0;

	while (n + 1 < len) {
		ssize_t r = recv(fd, buf + n, 1, 0);

		if (r <= 0)
			return -1;
		if (buf[n] == '\n')
			break;
		n++;
	}
	buf[n] = '\0';
	return 0;
}

/* Skip events; the next line that is a reply (or an echo). */
static int
lg_by_reply(int fd, char *buf, size_t len)
{
	do {
		if (lg_by_line(fd, buf, len) != 0)
			return -1;
	} while (strncmp(buf, "{\"event\"", 8) == 0);
	return 0;
}

static void *
lg_by_main(void *arg)
{
	struct lg_by *by = arg;
	struct sockaddr_in sin;
	struct timeval tv = {LG_BYSTANDER_WAIT_SEC, 0};
	struct timespec pause = {0, LG_BYSTANDER_PAUSE_MS * 1000000L};
	static const char ping[] = "{\"cmd\":\"ping\"}\n";
	char buf[4096];
	int fd, one = 1;

	fd = socket(AF_INET, SOCK_STREAM, 0);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sin.sin_port = htons((unsigned short)by->port);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sin, sizeof sin) != 0 ||
	    lg_by_line(fd, buf, sizeof buf) != 0) {
		by->failed = 1;
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while (!atomic_load(&by->stop)) {
		double t = lg_now();
		/* a ping sent in the window counts, however late its reply */
		int counted = atomic_load(&by->counting);

		if (send(fd, ping, sizeof ping - 1, MSG_NOSIGNAL) < 0 ||
		    lg_by_reply(fd, buf, sizeof buf) != 0) {
			by->failed = 1;
			break;
		}
		if (counted)
			lg_lat_add(&by->lat, lg_now() - t);
		nanosleep(&pause, NULL);
	}
	close(fd);
	return NULL;
}

/* A blocking socket connected to the server on loopback, its welcome
 * read; -1 on failure. */
static int
lg_dial(int port, char *buf, size_t len)
{
	struct sockaddr_in sin;
	struct timeval tv = {LG_BYSTANDER_WAIT_SEC, 0};
	int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;

	if (fd < 0)
		return -1;
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sin.sin_port = htons((unsigned short)port);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	if (connect(fd, (struct sockaddr *)&sin, sizeof sin) != 0 ||
	    lg_by_line(fd, buf, len) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* One login of the storm: connect, hello as fresh name i, close; 0 when
 * the server said ok. */
static int
lg_storm_one(struct lg_storm *st, long i)
{
	char buf[4096], line[128];
	int fd = lg_dial(st->port, buf, sizeof buf), n, ok;

	if (fd < 0)
		return -1;
	n = snprintf(line, sizeof line,
	    "{\"cmd\":\"hello\",\"name\":\"s%d_%ld\"}\n",
	    (int)getpid() % 100000, i);
	ok = send(fd, line, (size_t)n, MSG_NOSIGNAL) == n &&
	    lg_by_reply(fd, buf, sizeof buf) == 0 &&
	    strstr(buf, "\"ok\":true") != NULL;
	close(fd);
	return ok ? 0 : -1;
}

static void *
lg_storm_main(void *arg)
{
	struct lg_storm *st = arg;
	double step = 1.0 / st->rate, next = lg_now();
	long i = 0;

	while (!atomic_load(&st->stop)) {
		double now = lg_now(), t;
		int counted;

		if (now < next) {
			double w = next - now;
			struct timespec ts = {
			    (time_t)w, (long)((w - (double)(time_t)w) * 1e9)};

			nanosleep(&ts, NULL);
			continue;
		}
		/* a missed slot is given up, not made up in a burst */
		next = (now - next > step ? now : next) + step;
		counted = atomic_load(&st->counting);
		t = lg_now();
		if (lg_storm_one(st, i++) != 0) {
			st->failed++;
			continue;
		}
		if (counted) {
			st->n++;
			lg_lat_add(&st->lat, lg_now() - t);
		}
	}
	return NULL;
}

/* ------------------------------------------------------------------- flood */

/* One flood connection: connected, upgraded to a WebSocket (ping), made
 * nonblocking; -1 on failure. */
static int
lg_flood_open(struct lg_flood *fl)
{
	static const char upgrade[] =
	    "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
	    "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
	    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n";
	struct sockaddr_in sin;
	struct timeval tv = {LG_BYSTANDER_WAIT_SEC, 0};
	char buf[512];
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	size_t have = 0;

	if (fd < 0)
		return -1;
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sin.sin_port = htons((unsigned short)fl->port);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	if (connect(fd, (struct sockaddr *)&sin, sizeof sin) != 0)
		goto fail;
	if (fl->kind == LG_FLOOD_PING) {
		/* the 101's head, byte by byte: nothing after it is read */
		if (send(fd, upgrade, sizeof upgrade - 1, MSG_NOSIGNAL) < 0)
			goto fail;
		while (have < 4 || memcmp(buf + have - 4, "\r\n\r\n", 4) != 0) {
			if (have == sizeof buf ||
			    recv(fd, buf + have, 1, 0) != 1)
				goto fail;
			have++;
		}
		if (strncmp(buf, "HTTP/1.1 101", 12) != 0)
			goto fail;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) != 0)
		goto fail;
	return fd;
fail:
	close(fd);
	return -1;
}

static void *
lg_flood_main(void *arg)
{
	struct lg_flood *fl = arg;
	struct pollfd pfd[LG_FLOOD_MAX];
	size_t off[LG_FLOOD_MAX];
	int i;

	for (i = 0; i < fl->n; i++) {
		pfd[i].fd = -1;
		off[i] = 0;
	}
	while (!atomic_load(&fl->stop)) {
		for (i = 0; i < fl->n; i++) {
			if (pfd[i].fd >= 0)
				continue;
			if ((pfd[i].fd = lg_flood_open(fl)) < 0) {
				fl->failed++;
				continue;
			}
			pfd[i].events = POLLOUT;
			off[i] = 0;
			if (atomic_load(&fl->counting))
				fl->opened++;
		}
		if (poll(pfd, (nfds_t)fl->n, 10) < 0 && errno != EINTR)
			break;
		for (i = 0; i < fl->n; i++) {
			ssize_t w;

			if (pfd[i].fd < 0 || pfd[i].revents == 0)
				continue;
			w = send(pfd[i].fd, fl->chunk + off[i],
			    fl->chunklen - off[i], MSG_NOSIGNAL);
			if (w < 0 && (errno == EAGAIN || errno == EINTR))
				continue;
			if (w <= 0 || (pfd[i].revents & (POLLERR | POLLHUP))) {
				close(pfd[i].fd); /* closed: again at once */
				pfd[i].fd = -1;
				continue;
			}
			off[i] = (off[i] + (size_t)w) % fl->chunklen;
			if (atomic_load(&fl->counting))
				fl->sent += w;
		}
	}
	for (i = 0; i < fl->n; i++)
		if (pfd[i].fd >= 0)
			close(pfd[i].fd);
	return NULL;
}

/* The flood's burst: whole 125-byte pings (masked, as a client's must
 * be) or whole requests, repeated to fill the chunk. */
static void
lg_flood_chunk(struct lg_flood *fl)
{
	static const char get[] = "GET /js/app.js HTTP/1.1\r\nHost: x\r\n\r\n";
	unsigned char ping[2 + 4 + 125];
	const unsigned char *one = ping;
	size_t len = sizeof ping, i;

	ping[0] = 0x80 | WSLAY_PING;
	ping[1] = 0x80 | 125;
	memset(ping + 2, 0x5a, 4 + 125);
	if (fl->kind == LG_FLOOD_PIPE) {
		one = (const unsigned char *)get;
		len = sizeof get - 1;
	}
	for (i = 0; i + len <= sizeof fl->chunk; i += len)
		memcpy(fl->chunk + i, one, len);
	fl->chunklen = i;
}

static struct lg_flood *
lg_flood_start(int kind, int port, int n)
{
	struct lg_flood *fl = calloc(1, sizeof *fl);

	if (fl == NULL)
		lg_die("out of memory");
	fl->kind = kind;
	fl->port = port;
	fl->n = n;
	lg_flood_chunk(fl);
	if (pthread_create(&fl->thread, NULL, lg_flood_main, fl) != 0)
		lg_die("no flood thread");
	return fl;
}

/* The flood's figures, once it has stopped. */
static void
lg_flood_report(struct lg_flood *fl)
{
	atomic_store(&fl->stop, 1);
	pthread_join(fl->thread, NULL);
	printf(" flood_kib=%lld flood_conns=%ld flood_failed=%d",
	    fl->sent / 1024, fl->opened, fl->failed);
}

static struct lg_storm *
lg_storm_start(int port, double rate)
{
	struct lg_storm *st = calloc(1, sizeof *st);

	if (st == NULL)
		lg_die("out of memory");
	st->port = port;
	st->rate = rate;
	if (pthread_create(&st->thread, NULL, lg_storm_main, st) != 0)
		lg_die("no login storm thread");
	return st;
}

static struct lg_by *
lg_by_start(int port)
{
	struct lg_by *by = calloc(1, sizeof *by);

	if (by == NULL)
		lg_die("out of memory");
	by->port = port;
	if (pthread_create(&by->thread, NULL, lg_by_main, by) != 0)
		lg_die("no bystander thread");
	return by;
}

/* ---------------------------------------------------------------- requests */

static void
lg_send(struct lg_conn *c, const char *line, const char *verb)
{
	if (c->dead)
		return;
	if (c->ws != NULL) {
		struct wslay_event_msg m = {WSLAY_TEXT_FRAME,
		    (const uint8_t *)line, strlen(line) - 1}; /* no \n */

		if (wslay_event_queue_msg(c->ws, &m) != 0 ||
		    wslay_event_send(c->ws) != 0)
			lg_die("websocket send failed");
	} else
		bufferevent_write(c->bev, line, strlen(line));
	c->sent[(c->head + c->inflight) % LG_DEPTH_MAX] = lg_now();
	c->inflight++;
	c->verb = verb;
}

/* c is set up: logged in and seated (or its bots' room made). */
static void
lg_ready(struct lg_conn *c)
{
	if (c->ready)
		return;
	c->ready = 1;
	c->lg->nready++;
}

/* Log in as c's name. */
static void
lg_hello(struct lg_conn *c)
{
	char line[160];

	const char *lean = c->lg->lean ? ",\"events\":\"lean\"" : "";

	if (c->token[0] != '\0')
		snprintf(line, sizeof line,
		    "{\"cmd\":\"hello\",\"name\":\"%s\",\"token\":\"%s\"%s}"
		    "\n",
		    c->name, c->token, lean);
	else
		snprintf(line, sizeof line,
		    "{\"cmd\":\"hello\",\"name\":\"%s\"%s}\n", c->name, lean);
	lg_send(c, line, "hello");
}

/* The oldest request in flight got its reply; counted if measuring (in
 * moves mode only a move: its one request in flight is c->verb). */
static void
lg_replied(struct lg_conn *c, int ok)
{
	struct lg *lg = c->lg;
	int counted = lg->counting &&
	    (lg->mode != LG_MOVES || strcmp(c->verb, "move") == 0);
	double t;

	if (c->inflight == 0)
		return;
	t = c->sent[c->head];
	c->head = (c->head + 1) % LG_DEPTH_MAX;
	c->inflight--;
	if (!ok) {
		lg->errors++;
		return;
	}
	if (counted) {
		lg->n_ok++;
		lg_lat_add(&lg->lat, lg_now() - t);
	}
}

static void
lg_square(char *out, int n, int r, int col)
{
	out[0] = (char)('a' + col);
	snprintf(out + 1, 4, "%d", n - r);
}

/* A random legal Ataxx move for c's side into buf ("b6" or "a7c5"); 0, or
 * -1 when the side has none on c's board. */
static int
lg_pick(struct lg_conn *c, char *buf)
{
	int own[LG_BOARD_MAX * LG_BOARD_MAX], nown = 0, i, n = c->n;
	int from[LG_BOARD_MAX * LG_BOARD_MAX * 24],
	    to[LG_BOARD_MAX * LG_BOARD_MAX * 24];
	int nmoves = 0, tr, tc, dr, dc, tries, k;

	for (i = 0; i < n * n; i++)
		if (c->board[i / n][i % n] == c->mine)
			own[nown++] = i;
	for (tries = 0; nown > 0 && tries < LG_PICK_TRIES; tries++) {
		i = own[lg_rand(c->lg, (unsigned)nown)];
		dr = (int)lg_rand(c->lg, 5) - 2;
		dc = (int)lg_rand(c->lg, 5) - 2;
		tr = i / n + dr;
		tc = i % n + dc;
		if ((dr || dc) && tr >= 0 && tr < n && tc >= 0 && tc < n &&
		    c->board[tr][tc] == '.') {
			from[0] = i;
			to[0] = tr * n + tc;
			nmoves = 1;
			break;
		}
	}
	for (k = 0; nmoves == 0 && k < nown; k++)
		for (dr = -2; dr <= 2; dr++)
			for (dc = -2; dc <= 2; dc++) {
				tr = own[k] / n + dr;
				tc = own[k] % n + dc;
				if ((!dr && !dc) || tr < 0 || tr >= n ||
				    tc < 0 || tc >= n ||
				    c->board[tr][tc] != '.')
					continue;
				from[nmoves] = own[k];
				to[nmoves++] = tr * n + tc;
			}
	if (nmoves == 0)
		return -1;
	k = nmoves == 1 ? 0 : (int)lg_rand(c->lg, (unsigned)nmoves);
	tr = to[k] / n;
	tc = to[k] % n;
	if (abs(tr - from[k] / n) <= 1 && abs(tc - from[k] % n) <= 1) {
		lg_square(buf, n, tr, tc);
		return 0;
	}
	lg_square(buf, n, from[k] / n, from[k] % n);
	lg_square(buf + strlen(buf), n, tr, tc);
	return 0;
}

static void lg_act(struct lg_conn *c);

/* The slot c waited for has come. */
static void
lg_slot_cb(evutil_socket_t fd, short what, void *arg)
{
	lg_act(arg);
}

/* With -t: 0 when c's room may move now (its slot then moves one interval
 * on), -1 when c must wait (its timer is set for the slot). */
static int
lg_paced(struct lg_conn *c)
{
	struct lg *lg = c->lg;
	struct lg_conn *room = &lg->c[c->index & ~1];
	double now = lg_now(), interval = lg->rooms / lg->pace;

	if (now < room->slot) {
		double d = room->slot - now;
		struct timeval tv = {
		    (time_t)d, (suseconds_t)((d - (time_t)d) * 1e6)};

		if (c->wait == NULL)
			c->wait = evtimer_new(lg->base, lg_slot_cb, c);
		if (c->wait == NULL)
			lg_die("out of memory");
		evtimer_add(c->wait, &tv);
		return -1;
	}
	if (now - room->slot > interval) {
		if (lg->counting)
			lg->late++;
		room->slot = now;
	}
	room->slot += interval;
	return 0;
}

/* Send verb about c's room: named with -R (as the moves are), else the
 * current room. */
static void
lg_send_room(struct lg_conn *c, const char *verb)
{
	char line[128];

	if (c->lg->named)
		snprintf(line, sizeof line,
		    "{\"cmd\":\"%s\",\"room\":\"%s\"}\n", verb, c->room);
	else
		snprintf(line, sizeof line, "{\"cmd\":\"%s\"}\n", verb);
	lg_send(c, line, verb);
}

/* c's next request in moves mode, if it has none in flight. */
static void
lg_act(struct lg_conn *c)
{
	char line[128], mv[16];

	if (c->inflight > 0 || c->dead || !c->lg->running || !c->ready)
		return;
	if (c->resync) {
		c->resync = 0;
		lg_send_room(c, "state");
	} else if (c->rematch) {
		c->rematch = 0;
		lg_send_room(c, "rematch");
	} else if (c->playing && c->myturn) {
		if (c->lg->pace > 0 && lg_paced(c) != 0)
			return;
		c->myturn = 0;
		if (lg_pick(c, mv) != 0) {
			/* the server passes for a side without a move, so
			 * this board is not the room's: ask for it */
			c->lg->nomove++;
			lg_send_room(c, "state");
			return;
		}
		if (c->lg->named)
			snprintf(line, sizeof line,
			    "{\"cmd\":\"move\",\"room\":\"%s\",\"move\":"
			    "\"%s\"}\n",
			    c->room, mv);
		else
			snprintf(line, sizeof line,
			    "{\"cmd\":\"move\",\"move\":\"%s\"}\n", mv);
		lg_send(c, line, "move");
	}
}

/* Ask to join the room c's partner made, once c is logged in. */
static void
lg_join(struct lg_conn *c)
{
	char line[128];

	if (!c->helloed || c->room[0] == '\0' || c->joined)
		return;
	snprintf(
	    line, sizeof line, "{\"cmd\":\"join\",\"room\":\"%s\"}\n", c->room);
	c->joined = 1;
	lg_send(c, line, "join");
}

/* Take the board, turn and status of an event or state object. */
static void
lg_take_position(struct lg_conn *c, const cJSON *o)
{
	const cJSON *board = cJSON_GetObjectItem(o, "board");
	const cJSON *turn = cJSON_GetObjectItem(o, "turn");
	const cJSON *status = cJSON_GetObjectItem(o, "status");
	const cJSON *row;
	int r = 0;

	cJSON_ArrayForEach(row, board) {
		if (!cJSON_IsString(row) || r == LG_BOARD_MAX ||
		    strlen(row->valuestring) > LG_BOARD_MAX)
			break;
		memcpy(
		    c->board[r++], row->valuestring, strlen(row->valuestring));
	}
	c->n = r;
	if (cJSON_IsString(status))
		c->playing = strcmp(status->valuestring, "playing") == 0;
	c->myturn =
	    cJSON_IsString(turn) && strcmp(turn->valuestring, c->seat) == 0;
}

/* A moved event that gives c the turn, read without a JSON parser (the
 * load generator must stay well under the server's CPU): the board rows
 * and the status; -1 when the line is not shaped as expected. */
static int
lg_fast_moved(struct lg_conn *c, const char *line)
{
	const char *b = strstr(line, "\"board\":[");
	const char *st = strstr(line, "\"status\":\"");
	int r = 0;

	if (b == NULL || st == NULL)
		return -1;
	for (b += 9; *b == '"' && r < LG_BOARD_MAX; r++) {
		const char *q = strchr(b + 1, '"');

		if (q == NULL || q - b - 1 > LG_BOARD_MAX)
			return -1;
		memcpy(c->board[r], b + 1, (size_t)(q - b - 1));
		b = q + 1;
		if (*b == ',')
			b++;
	}
	if (*b != ']')
		return -1;
	c->n = r;
	c->playing = strncmp(st + 10, "playing\"", 8) == 0;
	c->myturn = 1;
	return 0;
}

/* The string value of member key in a flat JSON line ("seat", "move"),
 * copied into buf; 0, or -1 when it is not there as a string. */
static int
lg_fast_str(const char *line, const char *key, char *buf, size_t len)
{
	char pat[32];
	const char *v, *q;

	snprintf(pat, sizeof pat, "\"%s\":\"", key);
	if ((v = strstr(line, pat)) == NULL)
		return -1;
	v += strlen(pat);
	if ((q = strchr(v, '"')) == NULL || (size_t)(q - v) >= len)
		return -1;
	memcpy(buf, v, (size_t)(q - v));
	buf[q - v] = '\0';
	return 0;
}

/* A lean moved event (-e): the move applied to c's board by Ataxx's rules
 * (a clone or a jump, the neighbours taken; a pass changes nothing), the
 * turn and whether the game goes on; -1 when the line is not shaped as
 * expected (c then asks state). */
static int
lg_lean_moved(struct lg_conn *c, const char *line)
{
	char seat[16], mv[16];
	char me, them;
	int n = c->n, fr, fc, tr, tc, dr, dc, len;

	c->playing = strstr(line, "\"turn\":null") == NULL;
	c->myturn = c->turnmark[0] != '\0' && strstr(line, c->turnmark) != NULL;
	if (lg_fast_str(line, "seat", seat, sizeof seat) != 0)
		return strstr(line, "\"seat\":null") != NULL ? 0 : -1;
	if (lg_fast_str(line, "move", mv, sizeof mv) != 0)
		return -1;
	if (strcmp(mv, "0000") == 0)
		return 0;
	/* the first seat's pieces are x (lg_started) */
	me = strcmp(seat, c->seat) == 0 ? c->mine : c->mine == 'x' ? 'o' : 'x';
	them = me == 'x' ? 'o' : 'x';
	len = (int)strlen(mv);
	if (len != 2 && len != 4)
		return -1;
	tc = mv[len - 2] - 'a';
	tr = n - (mv[len - 1] - '0');
	if (tc < 0 || tc >= n || tr < 0 || tr >= n)
		return -1;
	if (len == 4) {
		fc = mv[0] - 'a';
		fr = n - (mv[1] - '0');
		if (fc < 0 || fc >= n || fr < 0 || fr >= n)
			return -1;
		c->board[fr][fc] = '.';
	}
	c->board[tr][tc] = me;
	for (dr = -1; dr <= 1; dr++)
		for (dc = -1; dc <= 1; dc++)
			if (tr + dr >= 0 && tr + dr < n && tc + dc >= 0 &&
			    tc + dc < n && c->board[tr + dr][tc + dc] == them)
				c->board[tr + dr][tc + dc] = me;
	return 0;
}

/* A started event: c's seat, its pieces and the position. */
static void
lg_started(struct lg_conn *c, const cJSON *m)
{
	const cJSON *seats = cJSON_GetObjectItem(m, "seats"), *s;
	int i = 0;

	cJSON_ArrayForEach(s, seats) {
		const cJSON *name = cJSON_GetObjectItem(s, "name");
		const cJSON *seat = cJSON_GetObjectItem(s, "seat");

		if (cJSON_IsString(name) && cJSON_IsString(seat) &&
		    strcmp(name->valuestring, c->name) == 0) {
			snprintf(
			    c->seat, sizeof c->seat, "%s", seat->valuestring);
			snprintf(c->turnmark, sizeof c->turnmark,
			    "\"turn\":\"%s\"", c->seat);
			c->mine = i == 0 ? 'x' : 'o';
		}
		i++;
	}
	c->playing = 1;
	lg_take_position(c, m);
	lg_ready(c);
}

/* A reply in moves or bots mode that is not an ok move. */
static void
lg_reply(struct lg_conn *c, const cJSON *m)
{
	struct lg *lg = c->lg;
	const char *verb = c->verb;
	const cJSON *ok = cJSON_GetObjectItem(m, "ok");
	char line[256];

	lg_replied(c, cJSON_IsTrue(ok));
	if (!cJSON_IsTrue(ok)) {
		if (lg->errors <= 3) {
			const cJSON *err = cJSON_GetObjectItem(m, "message");

			fprintf(stderr, "loadgen: %s: %s refused: %s\n",
			    c->name, verb,
			    cJSON_IsString(err) ? err->valuestring : "?");
		}
		c->resync = 1;
		return;
	}
	if (strcmp(verb, "hello") == 0 && !c->creator) {
		c->helloed = 1;
		lg_join(c);
	} else if (strcmp(verb, "hello") == 0 && c->room[0] != '\0') {
		/* -S far: back on PORT2, resume the seat of the room made */
		snprintf(line, sizeof line,
		    "{\"cmd\":\"join\",\"room\":\"%s\"}\n", c->room);
		lg_send(c, line, "join");
	} else if (strcmp(verb, "join") == 0 && c->creator) {
		snprintf(
		    c->partner->room, sizeof c->partner->room, "%s", c->room);
		lg_join(c->partner);
	} else if (strcmp(verb, "hello") == 0) {
		const cJSON *token = cJSON_GetObjectItem(m, "token");

		if (cJSON_IsString(token))
			snprintf(c->token, sizeof c->token, "%s",
			    token->valuestring);
		if (lg->mode == LG_BOTS)
			snprintf(line, sizeof line,
			    "{\"cmd\":\"create\",\"game\":\"ataxx\","
			    "\"options\":{\"size\":\"%d\"},\"bots\":{\"white\":"
			    "%d,\"black\":%d},\"private\":true}\n",
			    LG_ATAXX_SIZE, lg->level, lg->level);
		else
			snprintf(line, sizeof line,
			    "{\"cmd\":\"create\",\"game\":\"ataxx\","
			    "\"options\":{\"size\":\"%d\"},\"private\":true}"
			    "\n",
			    LG_ATAXX_SIZE);
		lg_send(c, line, "create");
	} else if (strcmp(verb, "create") == 0 && lg->mode == LG_BOTS) {
		lg_ready(c);
	} else if (strcmp(verb, "create") == 0) {
		const cJSON *room = cJSON_GetObjectItem(m, "room");

		if (!cJSON_IsString(room))
			lg_die("create: no room in the reply");
		snprintf(c->room, sizeof c->room, "%s", room->valuestring);
		if (lg->layout == LG_FAR) {
			c->moving = 1; /* lg_read_cb moves it to PORT2 */
			return;
		}
		snprintf(c->partner->room, sizeof c->partner->room, "%s",
		    room->valuestring);
		lg_join(c->partner);
	} else if (strcmp(verb, "state") == 0) {
		lg_take_position(c, cJSON_GetObjectItem(m, "state"));
		c->rematch = !c->playing;
	}
}

/* One line from the server in moves or bots mode. */
static void
lg_game_line(struct lg_conn *c, const char *line, size_t len)
{
	cJSON *m;
	const cJSON *ev;

	if (strncmp(line, "{\"re\":\"move\",\"ok\":true", 22) == 0) {
		if (c->lg->acklog != NULL) {
			fwrite(line, 1, len, c->lg->acklog);
			fputc('\n', c->lg->acklog);
		}
		lg_replied(c, 1);
		return;
	}
	if (strncmp(line, "{\"event\":\"moved\"", 16) == 0 && c->lg->lean &&
	    c->lg->mode == LG_MOVES) {
		if (lg_lean_moved(c, line) != 0)
			c->resync = 1;
		return;
	}
	if (strncmp(line, "{\"event\":\"moved\"", 16) == 0) {
		if (c->lg->mode == LG_BOTS && c->lg->counting)
			c->lg->n_ok++;
		if (c->turnmark[0] == '\0' ||
		    strstr(line, c->turnmark) == NULL) {
			c->myturn = 0;
			return;
		}
		if (lg_fast_moved(c, line) == 0)
			return;
	}
	m = cJSON_ParseWithLength(line, len);
	if (m == NULL)
		lg_die("a line that is not JSON");
	ev = cJSON_GetObjectItem(m, "event");
	if (cJSON_GetObjectItem(m, "re") != NULL)
		lg_reply(c, m);
	else if (!cJSON_IsString(ev))
		;
	else if (strcmp(ev->valuestring, "welcome") == 0)
		lg_hello(c);
	else if (strcmp(ev->valuestring, "moved") == 0)
		lg_take_position(c, m);
	else if (strcmp(ev->valuestring, "started") == 0)
		lg_started(c, m);
	else if (strcmp(ev->valuestring, "ended") == 0) {
		c->playing = 0;
		c->rematch = 1;
		if (c->creator && c->lg->counting)
			c->lg->games++;
	}
	cJSON_Delete(m);
}

/* One line in ping or idle mode: the welcome, events, or a reply. */
static void
lg_plain_line(struct lg_conn *c, const char *line, size_t len)
{
	struct lg *lg = c->lg;

	if (strncmp(line, "{\"event\":\"welcome\"", 18) == 0 && !c->welcomed) {
		c->welcomed = 1;
		if (lg->mode == LG_PING)
			lg_ready(c);
		else
			lg_hello(c);
		return;
	}
	if (strncmp(line, "{\"event\"", 8) == 0)
		return;
	lg_replied(c, strstr(line, "\"ok\":false") == NULL);
	if (lg->mode == LG_IDLE)
		lg_ready(c);
	else if (lg->mode == LG_PING && lg->running)
		lg_send(c, "{\"cmd\":\"ping\"}\n", "ping");
}

static void lg_connect_more(struct lg *lg);
static void lg_move_far(struct lg_conn *c);

/* One line (or WebSocket message) from the server. */
static void
lg_line(struct lg_conn *c, const char *line, size_t len)
{
	if (c->lg->mode == LG_PING || c->lg->mode == LG_IDLE)
		lg_plain_line(c, line, len);
	else
		lg_game_line(c, line, len);
}

static ssize_t
lg_ws_recv(wslay_event_context_ptr ctx, uint8_t *buf, size_t len, int flags,
    void *user)
{
	struct lg_conn *c = user;
	int n = evbuffer_remove(bufferevent_get_input(c->bev), buf, len);

	if (n <= 0) {
		wslay_event_set_error(ctx, WSLAY_ERR_WOULDBLOCK);
		return -1;
	}
	return n;
}

static ssize_t
lg_ws_send(wslay_event_context_ptr ctx, const uint8_t *data, size_t len,
    int flags, void *user)
{
	struct lg_conn *c = user;

	if (bufferevent_write(c->bev, data, len) != 0) {
		wslay_event_set_error(ctx, WSLAY_ERR_CALLBACK_FAILURE);
		return -1;
	}
	return (ssize_t)len;
}

static int
lg_ws_mask(wslay_event_context_ptr ctx, uint8_t *buf, size_t len, void *user)
{
	static uint32_t x = 2463534242u; /* xorshift: masks need no more */
	size_t i;

	for (i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		buf[i] = (uint8_t)x;
	}
	return 0;
}

/* A text message: a line, NUL-terminated as evbuffer_readln's are. */
static void
lg_ws_msg(wslay_event_context_ptr ctx,
    const struct wslay_event_on_msg_recv_arg *arg, void *user)
{
	struct lg_conn *c = user;
	char *line;

	if (arg->opcode != WSLAY_TEXT_FRAME)
		return;
	line = malloc(arg->msg_length + 1);
	if (line == NULL)
		lg_die("out of memory");
	memcpy(line, arg->msg, arg->msg_length);
	line[arg->msg_length] = '\0';
	lg_line(c, line, arg->msg_length);
	free(line);
}

/* Start a WebSocket on c: the upgrade request now, wslay for the rest. */
static void
lg_ws_start(struct lg_conn *c)
{
	static const struct wslay_event_callbacks cbs = {
	    lg_ws_recv, lg_ws_send, lg_ws_mask, NULL, NULL, NULL, lg_ws_msg};

	if (wslay_event_context_client_init(&c->ws, &cbs, c) != 0)
		lg_die("out of memory");
	evbuffer_add_printf(bufferevent_get_output(c->bev),
	    "GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
	    "Upgrade: websocket\r\nConnection: Upgrade\r\n"
	    "Sec-WebSocket-Version: 13\r\n"
	    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
	    c->lg->port);
}

/* Frames in: first the server's 101, then messages. -1: not yet. */
static int
lg_ws_read(struct lg_conn *c)
{
	struct evbuffer *in = bufferevent_get_input(c->bev);

	if (!c->upgraded) {
		struct evbuffer_ptr end =
		    evbuffer_search(in, "\r\n\r\n", 4, NULL);

		if (end.pos < 0)
			return -1;
		if (evbuffer_get_length(in) < 12 ||
		    memcmp(evbuffer_pullup(in, 12), "HTTP/1.1 101", 12) != 0)
			lg_die("the websocket upgrade was refused");
		evbuffer_drain(in, (size_t)end.pos + 4);
		c->upgraded = 1;
	}
	if (wslay_event_recv(c->ws) != 0 || wslay_event_send(c->ws) != 0)
		lg_die("websocket receive failed");
	return 0;
}

static void
lg_read_cb(struct bufferevent *bev, void *arg)
{
	struct lg_conn *c = arg;
	struct evbuffer *in = bufferevent_get_input(bev);
	size_t len;
	char *line;

	if (c->ws != NULL) {
		if (lg_ws_read(c) != 0)
			return;
	} else
		while (!c->moving &&
		    (line = evbuffer_readln(in, &len, EVBUFFER_EOL_LF)) !=
		        NULL) {
			lg_line(c, line, len);
			free(line);
		}
	if (c->moving) {
		lg_move_far(c);
		return;
	}
	if (c->lg->mode == LG_MOVES)
		lg_act(c);
	if (!c->heard) {
		c->heard = 1;
		c->lg->connecting--;
		lg_connect_more(c->lg);
	}
}

static void
lg_event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct lg_conn *c = arg;

	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)) {
		if (!c->dead)
			c->lg->dropped++;
		c->dead = 1;
		c->lg->errors += c->inflight;
		c->inflight = 0;
		bufferevent_disable(bev, EV_READ | EV_WRITE);
	}
}

/* Connect c to its port (c->port). */
static void
lg_open(struct lg_conn *c)
{
	struct sockaddr_in sin;
	int one = 1;

	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sin.sin_port = htons((unsigned short)c->port);
	c->bev = bufferevent_socket_new(c->lg->base, -1, BEV_OPT_CLOSE_ON_FREE);
	if (c->bev == NULL)
		lg_die("out of memory");
	bufferevent_setcb(c->bev, lg_read_cb, NULL, lg_event_cb, c);
	bufferevent_enable(c->bev, EV_READ | EV_WRITE);
	if (bufferevent_socket_connect(
	        c->bev, (struct sockaddr *)&sin, sizeof sin) != 0)
		lg_die("connect failed (open files?)");
	setsockopt(bufferevent_getfd(c->bev), IPPROTO_TCP, TCP_NODELAY, &one,
	    sizeof one);
	if (c->lg->ws)
		lg_ws_start(c);
}

/* -S far: the room is made on PORT; close that connection and log in
 * again on PORT2 with the token (the reply to hello then resumes the seat
 * and sends the partner to join). */
static void
lg_move_far(struct lg_conn *c)
{
	c->moving = 0;
	bufferevent_free(c->bev);
	if (c->ws != NULL) {
		wslay_event_context_free(c->ws);
		c->ws = NULL;
		c->upgraded = 0;
	}
	c->inflight = 0;
	c->head = 0;
	c->port = c->lg->port2;
	lg_open(c);
}

/* Start connects until LG_CONNECTING_MAX are under way. */
static void
lg_connect_more(struct lg *lg)
{
	while (lg->next_connect < lg->conns &&
	    lg->connecting < LG_CONNECTING_MAX) {
		lg_open(&lg->c[lg->next_connect++]);
		lg->connecting++;
	}
}

/* ------------------------------------------------------------------ phases */

static void lg_tick(evutil_socket_t fd, short what, void *arg);

/* Begin the load: every connection sends its first requests (with -t, the
 * rooms' first slots one 1/RATE apart). */
static void
lg_start_load(struct lg *lg)
{
	double now = lg_now();
	int i, k;

	lg->running = 1;
	for (i = 0; lg->pace > 0 && i < lg->conns; i += 2)
		lg->c[i].slot = now + (i / 2) / lg->pace;
	for (i = 0; i < lg->conns; i++) {
		struct lg_conn *c = &lg->c[i];

		if (lg->mode == LG_PING)
			for (k = 0; k < lg->depth; k++)
				lg_send(c, "{\"cmd\":\"ping\"}\n", "ping");
		else if (lg->mode == LG_MOVES)
			lg_act(c);
	}
}

static void
lg_window_open(struct lg *lg)
{
	long long flt;
	int i, ncpu;

	lg->counting = 1;
	if (lg->by != NULL)
		atomic_store(&lg->by->counting, 1);
	if (lg->storm != NULL)
		atomic_store(&lg->storm->counting, 1);
	if (lg->flood != NULL)
		atomic_store(&lg->flood->counting, 1);
	lg->t0 = lg_now();
	lg->cpu0 = lg->pid ? lg_proc_cpu(lg->pid, &lg->flt0) : -1;
	for (i = 0; i < lg->nmore; i++)
		lg->more0[i] = lg_proc_cpu(lg->more[i], &flt);
	getrusage(RUSAGE_SELF, &lg->ru0);
	lg_machine(&lg->idle0, &ncpu);
	lg->idle_t0 = lg_now();
}

static double
lg_tv(struct timeval tv)
{
	return (double)tv.tv_sec + tv.tv_usec / 1e6;
}

/* Close the window and print the figures. */
static void
lg_window_close(struct lg *lg)
{
	double wall = lg_now() - lg->t0, self;
	long long flt = 0, flt2;
	double busy;
	int i;
	long long cpu = lg->pid ? lg_proc_cpu(lg->pid, &flt) : -1;
	long tick = sysconf(_SC_CLK_TCK);
	struct rusage ru;

	lg->counting = 0;
	if (lg->by != NULL)
		atomic_store(&lg->by->counting, 0);
	if (lg->flood != NULL)
		atomic_store(&lg->flood->counting, 0);
	getrusage(RUSAGE_SELF, &ru);
	busy = lg_machine_busy(lg);
	self = lg_tv(ru.ru_utime) + lg_tv(ru.ru_stime) -
	    lg_tv(lg->ru0.ru_utime) - lg_tv(lg->ru0.ru_stime);
	printf("rate=%.0f n=%ld p50_ms=%.3f p99_ms=%.3f", lg->n_ok / wall,
	    lg->n_ok, lg_pct(&lg->lat, 50), lg_pct(&lg->lat, 99));
	if (cpu >= 0 && lg->cpu0 >= 0)
		printf(" server_cpu=%.3f cpu_us=%.1f",
		    (double)(cpu - lg->cpu0) / tick / wall,
		    lg->n_ok ? (double)(cpu - lg->cpu0) / tick * 1e6 / lg->n_ok
		             : 0.0);
	for (i = 0; i < lg->nmore; i++) {
		long long c = lg_proc_cpu(lg->more[i], &flt2);

		if (c >= 0 && lg->more0[i] >= 0 && lg->n_ok > 0)
			printf(" cpu%d_us=%.1f", i + 2,
			    (double)(c - lg->more0[i]) / tick * 1e6 / lg->n_ok);
	}
	if (cpu >= 0 && lg->cpu0 >= 0 && lg->n_ok > 0)
		printf(" faults_per_msg=%.3f",
		    (double)(flt - lg->flt0) / (double)lg->n_ok);
	if (lg->pid && lg->rss0 >= 0)
		printf(" rss0_kib=%ld rss_kib=%ld", lg->rss0,
		    lg_proc_rss(lg->pid));
	printf(" loadgen_cpu=%.3f machine_busy=%.2f games=%ld", self / wall,
	    busy >= 0 ? busy : 0.0, lg->games);
	if (lg->pace > 0)
		printf(" pace=%.0f late=%ld", lg->pace, lg->late);
}

/* The bystander's figures, once it has stopped. */
static void
lg_by_report(struct lg_by *by)
{
	atomic_store(&by->stop, 1);
	pthread_join(by->thread, NULL);
	printf(" by_n=%zu by_failed=%d", by->lat.n, by->failed);
	if (by->lat.n > 0)
		printf(" by_p50_ms=%.3f by_p99_ms=%.3f", lg_pct(&by->lat, 50),
		    lg_pct(&by->lat, 99));
}

/* The login storm's figures, once it has stopped. */
static void
lg_storm_report(struct lg_storm *st)
{
	atomic_store(&st->stop, 1);
	pthread_join(st->thread, NULL);
	printf(" logins=%ld login_failed=%d", st->n, st->failed);
	if (st->lat.n > 0)
		printf(" login_p99_ms=%.3f", lg_pct(&st->lat, 99));
}

/* The clock of a run: setup, warm-up, window, drain. */
static void
lg_tick(evutil_socket_t fd, short what, void *arg)
{
	struct lg *lg = arg;
	static const struct timeval again = {0, 20000};
	double now = lg_now();
	int i, left = 0;

	if (lg->t_setup == 0)
		lg->t_setup = now;
	if (lg->t_load == 0) {
		if (lg->nready == lg->conns) {
			lg->t_load = now;
			if (lg->mode == LG_IDLE) {
				/* let the last replies settle */
				lg->running = 1;
				event_base_once(lg->base, -1, EV_TIMEOUT,
				    lg_tick, lg, &(struct timeval){1, 0});
				return;
			}
			lg_start_load(lg);
		} else if (now - lg->t_setup > LG_SETUP_SEC ||
		    lg->dropped > 0) {
			lg->failed = lg->dropped > 0
			    ? "the server closed connections during setup"
			    : "setup did not finish";
			event_base_loopexit(lg->base, NULL);
			return;
		}
	} else if (lg->mode == LG_IDLE) {
		long rss = lg->pid ? lg_proc_rss(lg->pid) : -1;

		printf("conns=%d", lg->conns);
		if (rss >= 0 && lg->rss0 >= 0)
			printf(" rss0_kib=%ld rss_kib=%ld per_conn_kib=%.2f",
			    lg->rss0, rss,
			    (double)(rss - lg->rss0) / lg->conns);
		event_base_loopexit(lg->base, NULL);
		return;
	} else if (!lg->counting && lg->t_end == 0 &&
	    now - lg->t_load >= lg->warmup) {
		lg_window_open(lg);
		lg->t_end = now + lg->seconds;
	} else if (lg->counting && now >= lg->t_end) {
		lg_window_close(lg);
		lg->running = 0;
	} else if (!lg->running && lg->t_end != 0) {
		for (i = 0; i < lg->conns; i++)
			left += lg->c[i].inflight;
		if (lg->mode == LG_BOTS || left == 0 ||
		    now - lg->t_end > LG_DRAIN_SEC) {
			printf(" stalled=%d", lg->mode == LG_BOTS ? 0 : left);
			event_base_loopexit(lg->base, NULL);
			return;
		}
	}
	event_base_once(lg->base, -1, EV_TIMEOUT, lg_tick, lg, &again);
}

static void
lg_usage(void)
{
	fprintf(stderr,
	    "usage: loadgen -m ping|moves|idle|bots -p PORT [-P PID] "
	    "[-s SECONDS] [-w WARMUP]\n"
	    "               [-c CONNS] [-d DEPTH] [-r ROOMS] [-R] [-W] [-e] "
	    "[-t RATE] [-l LEVEL] [-x SEED] [-L RATE]\n"
	    "               [-q PORT2 -S split|cross|far] [-A ACKFILE] "
	    "[-Q PID]...\n"
	    "               [-F ping|pipe -f WEBPORT [-n CONNS]]\n");
	exit(2);
}

static enum lg_layout
lg_layout(const char *name)
{
	if (strcmp(name, "split") == 0)
		return LG_SPLIT;
	if (strcmp(name, "cross") == 0)
		return LG_CROSS;
	if (strcmp(name, "far") == 0)
		return LG_FAR;
	lg_usage();
	return LG_ONE;
}

static enum lg_mode
lg_mode(const char *name)
{
	static const char *names[] = {"ping", "moves", "idle", "bots"};
	int i;

	for (i = 0; i < 4; i++)
		if (strcmp(name, names[i]) == 0)
			return (enum lg_mode)i;
	lg_usage();
	return LG_PING;
}

static void
lg_options(struct lg *lg, int argc, char **argv)
{
	int o;

	lg->conns = 1;
	lg->depth = 1;
	lg->rooms = 10;
	lg->level = 2;
	lg->seconds = 3;
	lg->warmup = LG_WARMUP_SEC;
	lg->rng = 88172645463325252ULL;
	lg->flood_n = LG_FLOOD_CONNS;
	while ((o = getopt(argc, argv,
	            "m:p:P:Q:s:w:c:d:r:l:x:RWet:L:q:S:A:F:f:n:")) != -1) {
		switch (o) {
		case 'm':
			lg->mode = lg_mode(optarg);
			break;
		case 'p':
			lg->port = atoi(optarg);
			break;
		case 'P':
			lg->pid = atoi(optarg);
			break;
		case 's':
			lg->seconds = atof(optarg);
			break;
		case 'w':
			lg->warmup = atof(optarg);
			break;
		case 'c':
			lg->conns = atoi(optarg);
			break;
		case 'd':
			lg->depth = atoi(optarg);
			break;
		case 'r':
			lg->rooms = atoi(optarg);
			break;
		case 'l':
			lg->level = atoi(optarg);
			break;
		case 'R':
			lg->named = 1;
			break;
		case 'W':
			lg->ws = 1;
			break;
		case 'e':
			lg->lean = 1;
			break;
		case 't':
			lg->pace = atof(optarg);
			break;
		case 'L':
			lg->logins = atof(optarg);
			break;
		case 'x':
			lg->rng ^= strtoull(optarg, NULL, 10) * 2654435761ULL;
			break;
		case 'q':
			lg->port2 = atoi(optarg);
			break;
		case 'Q':
			if (lg->nmore == LG_MORE_PIDS)
				lg_usage();
			lg->more[lg->nmore++] = atoi(optarg);
			break;
		case 'S':
			lg->layout = lg_layout(optarg);
			break;
		case 'F':
			if (strcmp(optarg, "ping") == 0)
				lg->flood_kind = LG_FLOOD_PING;
			else if (strcmp(optarg, "pipe") == 0)
				lg->flood_kind = LG_FLOOD_PIPE;
			else
				lg_usage();
			break;
		case 'f':
			lg->flood_port = atoi(optarg);
			break;
		case 'n':
			lg->flood_n = atoi(optarg);
			break;
		case 'A':
			lg->acklog = fopen(optarg, "a");
			if (lg->acklog == NULL)
				lg_die("-A: cannot open the file");
			break;
		default:
			lg_usage();
		}
	}
	if (lg->mode == LG_MOVES)
		lg->conns = 2 * lg->rooms;
	else if (lg->mode == LG_BOTS)
		lg->conns = lg->rooms;
	if (lg->port <= 0 || lg->conns < (lg->mode == LG_PING ? 0 : 1) ||
	    lg->conns > LG_CONNS_MAX || lg->depth < 1 ||
	    lg->depth > LG_DEPTH_MAX || lg->seconds <= 0 ||
	    lg->seconds > LG_SECONDS_MAX || lg->warmup < 0 ||
	    lg->warmup > LG_SECONDS_MAX || !(lg->pace >= 0) ||
	    lg->pace > LG_PACE_MAX || (lg->pace > 0 && lg->mode != LG_MOVES) ||
	    !(lg->logins >= 0) || lg->logins > LG_LOGINS_MAX ||
	    (lg->logins > 0 && lg->mode == LG_IDLE) ||
	    (lg->layout != LG_ONE) != (lg->port2 > 0) ||
	    (lg->layout != LG_ONE && lg->mode != LG_MOVES) ||
	    (lg->flood_kind != LG_FLOOD_NONE &&
	        (lg->flood_port <= 0 || lg->flood_n < 1 ||
	            lg->flood_n > LG_FLOOD_MAX || lg->mode == LG_IDLE)))
		lg_usage();
}

/* The port connection i starts on (-q, -S: see the top). */
static int
lg_port_of(const struct lg *lg, int i)
{
	switch (lg->layout) {
	case LG_SPLIT:
		return (i / 2) % 2 ? lg->port2 : lg->port;
	case LG_CROSS:
	case LG_FAR:
		return i % 2 ? lg->port2 : lg->port;
	default:
		return lg->port;
	}
}

/* Open files for every connection: raise the soft limit to the hard one. */
static void
lg_raise_files(int need)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return;
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < (rlim_t)need)
		lg_die("the open-files hard limit is too low for -c");
}

/* Close every connection and free what the run held. */
static void
lg_free(struct lg *lg)
{
	int i;

	for (i = 0; i < lg->conns; i++) {
		if (lg->c[i].bev != NULL)
			bufferevent_free(lg->c[i].bev);
		if (lg->c[i].wait != NULL)
			event_free(lg->c[i].wait);
		if (lg->c[i].ws != NULL)
			wslay_event_context_free(lg->c[i].ws);
	}
	free(lg->c);
	free(lg->lat.v);
	if (lg->by != NULL) {
		free(lg->by->lat.v);
		free(lg->by);
	}
	if (lg->storm != NULL) {
		free(lg->storm->lat.v);
		free(lg->storm);
	}
	free(lg->flood);
	event_base_free(lg->base);
}

int
main(int argc, char **argv)
{
	struct lg lg;
	int i;

	memset(&lg, 0, sizeof lg);
	lg_options(&lg, argc, argv);
	signal(SIGPIPE, SIG_IGN);
	/* (a flood's connections only when there is one) */
	lg_raise_files(
	    lg.conns + (lg.flood_kind != LG_FLOOD_NONE ? lg.flood_n : 0) + 64);
	lg.base = event_base_new();
	lg.c = calloc((size_t)lg.conns + 1, sizeof *lg.c);
	if (lg.base == NULL || lg.c == NULL)
		lg_die("out of memory");
	for (i = 0; i < lg.conns; i++) {
		struct lg_conn *c = &lg.c[i];

		c->lg = &lg;
		c->index = i;
		c->creator = lg.mode == LG_BOTS || i % 2 == 0;
		if (lg.mode == LG_MOVES)
			c->partner = &lg.c[i ^ 1];
		c->port = lg_port_of(&lg, i);
		snprintf(c->name, sizeof c->name, "g%d_%d",
		    (int)getpid() % 1000000, i);
	}
	lg.rss0 = lg.pid ? lg_proc_rss(lg.pid) : -1;
	if (lg.mode != LG_IDLE)
		lg.by = lg_by_start(lg.port);
	if (lg.logins > 0)
		lg.storm = lg_storm_start(lg.port, lg.logins);
	if (lg.flood_kind != LG_FLOOD_NONE)
		lg.flood =
		    lg_flood_start(lg.flood_kind, lg.flood_port, lg.flood_n);
	lg_connect_more(&lg);
	lg_tick(-1, 0, &lg);
	event_base_dispatch(lg.base);
	if (lg.by != NULL)
		lg_by_report(lg.by);
	if (lg.storm != NULL)
		lg_storm_report(lg.storm);
	if (lg.flood != NULL)
		lg_flood_report(lg.flood);
	printf(" errors=%ld dropped=%ld nomove=%ld\n", lg.errors, lg.dropped,
	    lg.nomove);
	if (lg.failed != NULL)
		fprintf(stderr, "loadgen: %s (%d of %d ready)\n", lg.failed,
		    lg.nready, lg.conns);
	lg_free(&lg);
	if (lg.acklog != NULL && fclose(lg.acklog) != 0)
		lg_die("-A: cannot write the file");
	return lg.failed != NULL || lg.dropped > 0;
}
