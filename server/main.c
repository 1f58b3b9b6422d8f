/*
 * main.c: tablerod's start and end: flags, daemon mode and pidfile, the
 * store and recovery, the event loop with its signals, and a clean
 * shutdown.
 */
#include <sys/resource.h>

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>
#include <event2/thread.h>
#include <sodium.h>

#include "server/server.h"
#include "server/store.h"

/* The data file's name when only a directory (or nothing) is given. */
#define MAIN_DB_NAME "tablero.db"

enum {
	OPT_DB = 256,
	OPT_DATA_DIR,
	OPT_SYNC,
	OPT_LOG_LEVEL,
	OPT_LOG_FILE,
	OPT_PIDFILE,
	OPT_MAX_LINE,
	OPT_MAX_CLIENTS,
	OPT_MAX_ROOMS,
	OPT_MAX_WATCHERS,
	OPT_GRACE,
	OPT_IDLE,
	OPT_MAX_OUTPUT,
	OPT_RATE,
	OPT_BURST,
	OPT_BOT_DELAY,
	OPT_ADJOURN_DAYS,
	OPT_WORKERS,
	OPT_HINT_NODES,
};

static const struct option main_options[] = {
    {"listen", required_argument, NULL, 'l'},
    {"port", required_argument, NULL, 'p'},
    {"db", required_argument, NULL, OPT_DB},
    {"data-dir", required_argument, NULL, OPT_DATA_DIR},
    {"sync", required_argument, NULL, OPT_SYNC},
    {"log-level", required_argument, NULL, OPT_LOG_LEVEL},
    {"log-file", required_argument, NULL, OPT_LOG_FILE},
    {"daemon", no_argument, NULL, 'd'},
    {"pidfile", required_argument, NULL, OPT_PIDFILE},
    {"max-line", required_argument, NULL, OPT_MAX_LINE},
    {"max-clients", required_argument, NULL, OPT_MAX_CLIENTS},
    {"max-rooms-per-player", required_argument, NULL, OPT_MAX_ROOMS},
    {"max-watchers", required_argument, NULL, OPT_MAX_WATCHERS},
    {"grace", required_argument, NULL, OPT_GRACE},
    {"idle", required_argument, NULL, OPT_IDLE},
    {"max-output", required_argument, NULL, OPT_MAX_OUTPUT},
    {"rate", required_argument, NULL, OPT_RATE},
    {"burst", required_argument, NULL, OPT_BURST},
    {"bot-delay", required_argument, NULL, OPT_BOT_DELAY},
    {"adjourn-days", required_argument, NULL, OPT_ADJOURN_DAYS},
    {"workers", required_argument, NULL, OPT_WORKERS},
    {"hint-nodes", required_argument, NULL, OPT_HINT_NODES},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0},
};

static void
main_usage(FILE *out)
{
	fprintf(out,
	    "usage: tablerod [options]\n"
	    "tablero's game server: five board games over one line of JSON "
	    "(or plain\ntext, for telnet) per message.\n\n"
	    "  -l, --listen ADDR        address to listen on, IPv4 or IPv6; "
	    "repeat for\n"
	    "                           several (default: every address, "
	    "0.0.0.0 and ::)\n"
	    "  -p, --port N             TCP port (default %d; 0 picks a free "
	    "one)\n"
	    "      --db PATH            SQLite data file, or :memory: "
	    "(default %s in\n"
	    "                           --data-dir)\n"
	    "      --data-dir DIR       where the data file lives (default "
	    "the working\n"
	    "                           directory)\n"
	    "      --sync normal|full   SQLite synchronous mode (default "
	    "normal)\n"
	    "      --log-level LEVEL    error, warn, info or debug (default "
	    "info)\n"
	    "      --log-file PATH      log to a file (reopened on SIGHUP), "
	    "or 'syslog'\n"
	    "                           (default stderr; syslog with -d)\n"
	    "  -d, --daemon             detach and run in the background\n"
	    "      --pidfile PATH       write the pid there (default none)\n"
	    "      --max-line N         longest request line in bytes "
	    "(default %d)\n"
	    "      --max-clients N      connections at once (default %d)\n"
	    "      --max-rooms-per-player N  unfinished rooms per player "
	    "(default %d)\n"
	    "      --max-watchers N     spectators per room (default %d)\n"
	    "      --grace SECONDS      a gone player's seat is held this long "
	    "before\n"
	    "                           the opponent may claim (default %d)\n"
	    "      --idle SECONDS       time allowed before hello (default "
	    "%d)\n"
	    "      --max-output BYTES   unread output before a client is "
	    "dropped\n"
	    "                           (default %d)\n"
	    "      --rate N             messages per second per connection "
	    "(default %d)\n"
	    "      --burst N            messages in a burst (default %d)\n"
	    "      --bot-delay MS       pause before a bot moves (default "
	    "500)\n"
	    "      --adjourn-days N     adjourned games are kept this long "
	    "(default %d)\n"
	    "      --workers N          threads for bot moves and hints "
	    "(default: one\n"
	    "                           per processor, at most %d)\n"
	    "      --hint-nodes N       positions a hint may search before "
	    "it answers\n"
	    "                           \"unknown\" (default %ld, up to "
	    "about 10 s)\n"
	    "  -h, --help               this help\n"
	    "  -V, --version            the version\n"
	    "\nSignals: TERM and INT shut down cleanly (games are saved), HUP "
	    "reopens\nthe log file.\n",
	    TABLEROD_PORT, MAIN_DB_NAME, SERVER_LINE_MAX, SERVER_CLIENTS_MAX,
	    SERVER_ROOMS_PER_PLAYER, SERVER_WATCHERS_MAX, SERVER_GRACE_SEC,
	    SERVER_HELLO_IDLE_SEC, SERVER_OUTPUT_MAX, SERVER_RATE_PER_SEC,
	    SERVER_RATE_BURST, SERVER_ADJOURN_DAYS, SERVER_WORKERS_MAX,
	    SERVER_HINT_NODES);
}

/* A whole number within [min, max] for flag `name`, or exit with a clear
 * message (a bad flag is the operator's mistake, found at start). */
static long
main_number(const char *name, const char *s, long min, long max)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || *s == '\0' || *end != '\0' || v < min || v > max) {
		fprintf(stderr,
		    "tablerod: --%s must be a whole number from "
		    "%ld to %ld\n",
		    name, min, max);
		exit(2);
	}
	return v;
}

/* Processors online, within 1..SERVER_WORKERS_MAX: the default pool. */
static int
main_processors(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		return 1;
	return n > SERVER_WORKERS_MAX ? SERVER_WORKERS_MAX : (int)n;
}

static void
main_defaults(struct config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->port = TABLEROD_PORT;
	cfg->log_level = LOG_LEVEL_INFO;
	cfg->max_line = SERVER_LINE_MAX;
	cfg->max_clients = SERVER_CLIENTS_MAX;
	cfg->max_rooms_per_player = SERVER_ROOMS_PER_PLAYER;
	cfg->max_watchers = SERVER_WATCHERS_MAX;
	cfg->grace_sec = SERVER_GRACE_SEC;
	cfg->idle_sec = SERVER_HELLO_IDLE_SEC;
	cfg->output_max = SERVER_OUTPUT_MAX;
	cfg->rate = SERVER_RATE_PER_SEC;
	cfg->burst = SERVER_RATE_BURST;
	cfg->bot_delay_ms = 500;
	cfg->adjourn_days = SERVER_ADJOURN_DAYS;
	cfg->workers = main_processors();
	cfg->hint_nodes = SERVER_HINT_NODES;
}

static void
main_parse(struct config *cfg, int argc, char **argv)
{
	int c;

	while ((c = getopt_long(argc, argv, "l:p:dhV", main_options, NULL)) !=
	    -1) {
		switch (c) {
		case 'l':
			if (cfg->nlisten == SERVER_LISTEN_MAX) {
				fprintf(stderr,
				    "tablerod: at most %d "
				    "--listen\n",
				    SERVER_LISTEN_MAX);
				exit(2);
			}
			cfg->listen[cfg->nlisten++] = optarg;
			break;
		case 'p':
			cfg->port = (int)main_number("port", optarg, 0, 65535);
			break;
		case 'd':
			cfg->daemon = 1;
			break;
		case OPT_DB:
			cfg->db = optarg;
			break;
		case OPT_DATA_DIR:
			cfg->data_dir = optarg;
			break;
		case OPT_SYNC:
			if (strcmp(optarg, "full") != 0 &&
			    strcmp(optarg, "normal") != 0) {
				fprintf(stderr,
				    "tablerod: --sync is normal "
				    "or full\n");
				exit(2);
			}
			cfg->sync_full = strcmp(optarg, "full") == 0;
			break;
		case OPT_LOG_LEVEL:
			cfg->log_level = log_level_parse(optarg);
			if (cfg->log_level < 0) {
				fprintf(stderr,
				    "tablerod: --log-level is "
				    "error, warn, info or debug\n");
				exit(2);
			}
			break;
		case OPT_LOG_FILE:
			cfg->log_file = optarg;
			break;
		case OPT_PIDFILE:
			cfg->pidfile = optarg;
			break;
		case OPT_MAX_LINE:
			cfg->max_line = (size_t)main_number(
			    "max-line", optarg, 64, 1 << 20);
			break;
		case OPT_MAX_CLIENTS:
			cfg->max_clients =
			    (int)main_number("max-clients", optarg, 1, 1000000);
			break;
		case OPT_MAX_ROOMS:
			cfg->max_rooms_per_player = (int)main_number(
			    "max-rooms-per-player", optarg, 1, 1000);
			break;
		case OPT_MAX_WATCHERS:
			cfg->max_watchers =
			    (int)main_number("max-watchers", optarg, 0, 100000);
			break;
		case OPT_GRACE:
			cfg->grace_sec =
			    (int)main_number("grace", optarg, 0, 86400);
			break;
		case OPT_IDLE:
			cfg->idle_sec =
			    (int)main_number("idle", optarg, 1, 86400);
			break;
		case OPT_MAX_OUTPUT:
			cfg->output_max = (size_t)main_number(
			    "max-output", optarg, 4096, 1L << 30);
			break;
		case OPT_RATE:
			cfg->rate = (int)main_number("rate", optarg, 1, 100000);
			break;
		case OPT_BURST:
			cfg->burst =
			    (int)main_number("burst", optarg, 1, 100000);
			break;
		case OPT_BOT_DELAY:
			cfg->bot_delay_ms =
			    (int)main_number("bot-delay", optarg, 0, 60000);
			break;
		case OPT_ADJOURN_DAYS:
			cfg->adjourn_days =
			    (int)main_number("adjourn-days", optarg, 1, 36500);
			break;
		case OPT_WORKERS:
			cfg->workers = (int)main_number(
			    "workers", optarg, 1, SERVER_WORKERS_MAX);
			break;
		case OPT_HINT_NODES:
			cfg->hint_nodes =
			    main_number("hint-nodes", optarg, 1000, 1000000000);
			break;
		case 'h':
			main_usage(stdout);
			exit(0);
		case 'V':
			printf("tablerod %s (protocol %d)\n", TABLEROD_VERSION,
			    PROTO_VERSION);
			exit(0);
		default:
			main_usage(stderr);
			exit(2);
		}
	}
	if (optind != argc) {
		fprintf(stderr, "tablerod: unexpected argument '%s'\n",
		    argv[optind]);
		exit(2);
	}
}

/* path made absolute against dir (relative to the working directory), so
 * that a daemon, which changes to /, still finds it. */
static char *
main_absolute(const char *dir, const char *path)
{
	char cwd[PATH_MAX], *out;
	size_t n;

	if (path[0] == '/')
		return xstrdup(path);
	if (dir[0] == '/')
		cwd[0] = '\0';
	else if (getcwd(cwd, sizeof cwd) == NULL)
		snprintf(cwd, sizeof cwd, ".");
	n = strlen(cwd) + strlen(dir) + strlen(path) + 3;
	out = xmalloc(n);
	snprintf(
	    out, n, "%s%s%s/%s", cwd, cwd[0] != '\0' ? "/" : "", dir, path);
	return out;
}

/* The data file's path: --db, in --data-dir, or MAIN_DB_NAME. */
static char *
main_db_path(const struct config *cfg)
{
	const char *name = cfg->db != NULL ? cfg->db : MAIN_DB_NAME;

	if (strcmp(name, ":memory:") == 0)
		return xstrdup(name);
	return main_absolute(cfg->data_dir != NULL ? cfg->data_dir : ".", name);
}

static void
main_signal(evutil_socket_t sig, short what, void *arg)
{
	struct server *srv = arg;

	if (sig == SIGHUP) {
		log_reopen();
		return;
	}
	log_info("signal %d: shutting down", (int)sig);
	net_shutdown(srv);
}

static void
main_signals(struct server *srv)
{
	srv->sig_term = evsignal_new(srv->base, SIGTERM, main_signal, srv);
	srv->sig_int = evsignal_new(srv->base, SIGINT, main_signal, srv);
	srv->sig_hup = evsignal_new(srv->base, SIGHUP, main_signal, srv);
	if (srv->sig_term == NULL || srv->sig_int == NULL ||
	    srv->sig_hup == NULL)
		fatal("cannot set up signal events");
	evsignal_add(srv->sig_term, NULL);
	evsignal_add(srv->sig_int, NULL);
	evsignal_add(srv->sig_hup, NULL);
}

/* Open the log where the flags say; 0 or -1 with a message on stderr. */
static int
main_log(const struct config *cfg)
{
	const char *where = cfg->log_file;

	log_set_level(cfg->log_level);
	if (where == NULL)
		where = cfg->daemon ? "syslog" : "";
	if (log_open(where) != 0) {
		fprintf(stderr, "tablerod: cannot open log %s: %s\n", where,
		    strerror(errno));
		return -1;
	}
	return 0;
}

static void
main_cleanup(struct server *srv)
{
	if (srv->worker != NULL)
		worker_free(srv->worker);
	net_free_all(srv);
	room_free_all(srv);
	player_free_all(srv);
	if (srv->store != NULL)
		store_close(srv->store);
	if (srv->sig_term != NULL) {
		event_free(srv->sig_term);
		event_free(srv->sig_int);
		event_free(srv->sig_hup);
	}
	if (srv->base != NULL)
		event_base_free(srv->base);
	if (srv->cfg.pidfile != NULL)
		unlink(srv->cfg.pidfile);
	log_close();
}

/*
 * Make room for max_clients connections: raise the soft limit on open
 * files as far as the hard limit allows (as Redis does), and if that is
 * not enough lower max_clients, so the last clients are told server_full
 * instead of the accept failing for lack of descriptors.
 */
static void
main_open_files(struct config *cfg)
{
	struct rlimit rl;
	rlim_t want = (rlim_t)cfg->max_clients + SERVER_FD_RESERVE;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur >= want)
		return;
	if (rl.rlim_max == RLIM_INFINITY || rl.rlim_max >= want)
		rl.rlim_cur = want;
	else
		rl.rlim_cur = rl.rlim_max;
	/* refused: go on with the limit we have */
	if (setrlimit(RLIMIT_NOFILE, &rl) != 0 &&
	    getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return;
	if (rl.rlim_cur >= want)
		return;
	cfg->max_clients = rl.rlim_cur > SERVER_FD_RESERVE + 1
	    ? (int)(rl.rlim_cur - SERVER_FD_RESERVE)
	    : 1;
	log_warn("open files are limited to %ld: at most %d clients (raise "
	         "ulimit -n or LimitNOFILE for more)",
	    (long)rl.rlim_cur, cfg->max_clients);
}

/* Start everything that can fail at start, in order; 0 or -1 (logged). */
static int
main_start(struct server *srv)
{
	char err[512], *db;

	if (evthread_use_pthreads() != 0 || sodium_init() < 0) {
		log_error("cannot initialise libevent threads or libsodium");
		return -1;
	}
	srv->base = event_base_new();
	if (srv->base == NULL) {
		log_error("cannot create the event base");
		return -1;
	}
	TAILQ_INIT(&srv->conns);
	TAILQ_INIT(&srv->rooms);
	main_open_files(&srv->cfg);
	/*
	 * Signals first, then the pidfile: whoever reads the pidfile (or
	 * the "listening" line) may signal at once, and an unhandled SIGHUP
	 * would kill the server.  Events that arrive before the loop runs
	 * wait for it.
	 */
	main_signals(srv);
	if (srv->cfg.pidfile != NULL &&
	    daemon_write_pidfile(srv->cfg.pidfile) != 0) {
		log_error("cannot write pidfile %s: %s", srv->cfg.pidfile,
		    strerror(errno));
		srv->cfg.pidfile = NULL; /* not ours: cleanup must not unlink */
		return -1;
	}
	db = main_db_path(&srv->cfg);
	srv->store = store_open(db, srv->cfg.sync_full, err, sizeof err);
	if (srv->store == NULL) {
		log_error("%s", err);
		free(db);
		return -1;
	}
	log_info("data file %s (synchronous=%s)", db,
	    srv->cfg.sync_full ? "full" : "normal");
	free(db);
	if (net_listen(srv) != 0)
		return -1;
	srv->worker = worker_new(srv);
	if (recover_rooms(srv) != 0)
		return -1;
	return 0;
}

int
main(int argc, char **argv)
{
	static struct server srv;
	char *db, *pidfile = NULL, *logfile = NULL;
	int ready = -1;

	main_defaults(&srv.cfg);
	main_parse(&srv.cfg, argc, argv);
	signal(SIGPIPE, SIG_IGN);
	db = main_db_path(&srv.cfg);
	srv.cfg.db = db;
	srv.cfg.data_dir = NULL;
	if (srv.cfg.pidfile != NULL)
		srv.cfg.pidfile = pidfile = main_absolute(".", srv.cfg.pidfile);
	if (srv.cfg.log_file != NULL && strcmp(srv.cfg.log_file, "syslog") != 0)
		srv.cfg.log_file = logfile =
		    main_absolute(".", srv.cfg.log_file);
	if (main_log(&srv.cfg) != 0)
		return 1;
	if (srv.cfg.daemon && daemon_detach(&ready, srv.cfg.log_file) != 0) {
		log_error("cannot become a daemon: %s", strerror(errno));
		return 1;
	}
	log_info(
	    "tablerod %s starting (pid %ld)", TABLEROD_VERSION, (long)getpid());
	if (main_start(&srv) != 0) {
		main_cleanup(&srv);
		free(db);
		free(pidfile);
		free(logfile);
		return 1;
	}
	daemon_ready(ready);
	event_base_dispatch(srv.base);
	log_info("tablerod stopped");
	main_cleanup(&srv);
	free(db);
	free(pidfile);
	free(logfile);
	return 0;
}
