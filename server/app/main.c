/*
 * main.c: tablerod's start and end: flags (from flags.c), daemon mode and
 * pidfile, the store and recovery, the event loop with its signals, and a clean
 * shutdown.
 */
#include <sys/resource.h>

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>
#include <event2/thread.h>
#include <sodium.h>

#include "server/club/seek.h"
#include "server/app/app.h"
#include "server/cmd/cmd.h"
#include "server/club/club.h"
#include "server/net/limit.h"
#include "server/club/tourney.h"
#include "server/store/storeq.h"
#include "server/store/store.h"

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

/* A store's --db string as opened: a URL or ":memory:" as it is, a path
 * made absolute (in dir when given). */
static char *
main_store_path(const char *dir, const char *name)
{
	if (strcmp(name, ":memory:") == 0 || strstr(name, "://") != NULL)
		return xstrdup(name);
	return main_absolute(dir != NULL ? dir : ".", name);
}

/* The data file's path: --db, in --data-dir, or SERVER_DB_NAME. */
static char *
main_db_path(const struct config *cfg)
{
	const char *name = cfg->db != NULL ? cfg->db : SERVER_DB_NAME;

	return main_store_path(cfg->data_dir, name);
}

/* The store's name for the log: a URL without its password. */
static void
main_store_shown(const char *db, char *buf, size_t len)
{
	const char *scheme = strstr(db, "://"), *at, *colon;

	snprintf(buf, len, "%s", db);
	if (scheme == NULL || (at = strchr(scheme + 3, '@')) == NULL)
		return;
	colon = memchr(scheme + 3, ':', (size_t)(at - scheme - 3));
	if (colon != NULL)
		snprintf(buf, len, "%.*s:***%s", (int)(colon - db), db, at);
}

/* --copy-db FROM TO: copy, log how it went; the exit status. */
static int
main_copy(const struct config *cfg)
{
	char err[512], from_shown[256], to_shown[256];
	char *from = main_store_path(NULL, cfg->copy_db);
	char *to = main_store_path(NULL, cfg->copy_to);
	int rc;

	main_store_shown(from, from_shown, sizeof from_shown);
	main_store_shown(to, to_shown, sizeof to_shown);
	log_info("copying %s to %s", from_shown, to_shown);
	rc = store_copy(from, to, err, sizeof err);
	if (rc != 0)
		log_error("copy failed: %s", err);
	else
		log_info("copied %s to %s", from_shown, to_shown);
	free(from);
	free(to);
	return rc != 0 ? 1 : 0;
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
	uint64_t lost;

	if (srv->worker != NULL)
		worker_free(srv->worker);
	sweep_stop(srv);
	/* Everything queued is committed before the store closes (one more
	 * try when it is failing: what it cannot store was never
	 * acknowledged). */
	if (srv->storeq != NULL && (lost = storeq_free(srv->storeq)) > 0)
		log_error("store: %llu writes never acknowledged are not "
		          "stored",
		    (unsigned long long)lost);
	srv->storeq = NULL;
	app_modules_stop(srv);
	metrics_stop(srv);
	web_free_all(srv);
	net_free_all(srv);
	room_free_all(srv);
	seek_pool_free(srv->seeks);
	srv->seeks = NULL;
	tourney_free_all();
	slots_free(&srv->held_conns);
	match_free_all(srv);
	player_free_all(srv);
	sanction_free_all(srv);
	limit_free_all(srv);
	player_committed(srv, UINT64_MAX);
	rating_committed(srv, UINT64_MAX);
	message_committed(srv, UINT64_MAX);
	record_committed(srv, UINT64_MAX);
	pages_close(srv);
	store_close(srv->reader);
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

/* The listening sockets the flags ask for: each port (the line
 * protocol's, --web-port, --tls-port, --metrics-port) on each listen
 * address (by default two: every IPv4 and every IPv6 one). The
 * metrics' few scrapes at once fit in SERVER_FD_RESERVE. */
static int
main_listeners(const struct config *cfg)
{
	int ports = 1 + (cfg->web_port >= 0) + (cfg->tls_port >= 0) +
	    (cfg->metrics_port >= 0);

	return ports * (cfg->nlisten > 0 ? cfg->nlisten : 2);
}

/*
 * Make room for max_clients connections: raise the soft limit on open
 * files as far as the hard limit allows (as Redis does), and if that is
 * not enough lower max_clients, so the last clients are told server_full
 * instead of the accept failing for lack of descriptors. Every client
 * holds one descriptor whatever its port (a web connection its socket
 * and one response in memory, a WebSocket its socket until its close is
 * done, counted until then); beside them the listeners and
 * SERVER_FD_RESERVE.
 */
static void
main_open_files(struct config *cfg)
{
	struct rlimit rl;
	int listeners = main_listeners(cfg);
	rlim_t spare = (rlim_t)listeners + SERVER_FD_RESERVE;
	rlim_t want = (rlim_t)cfg->max_clients + spare;

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
	cfg->max_clients =
	    rl.rlim_cur > spare + 1 ? (int)(rl.rlim_cur - spare) : 1;
	log_warn("open files are limited to %ld: at most %d clients beside %d "
	         "listeners and %d descriptors kept in reserve (raise ulimit "
	         "-n or LimitNOFILE for more)",
	    (long)rl.rlim_cur, cfg->max_clients, listeners, SERVER_FD_RESERVE);
}

/* Start everything that can fail at start, in order; 0 or -1 (logged). */
static int
main_start(struct server *srv)
{
	char err[512], shown[256], *db;

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
	TAILQ_INIT(&srv->dead);
	TAILQ_INIT(&srv->to_flush);
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
	err[0] = '\0';
	srv->store = store_open(
	    db, srv->cfg.sync_full ? STORE_SYNC_FULL : 0, err, sizeof err);
	if (srv->store != NULL)
		srv->reader = store_open_reader(srv->store, err, sizeof err);
	if (srv->reader == NULL || pages_open(srv, err, sizeof err) != 0) {
		log_error("%s", err);
		free(db);
		return -1;
	}
	main_store_shown(db, shown, sizeof shown);
	log_info("data file %s (%s, synchronous=%s)", shown,
	    store_backend_name(srv->store),
	    srv->cfg.sync_full ? "full" : "normal");
	free(db);
	srv->storeq = storeq_new(srv->base, srv->store,
	    (int64_t)srv->cfg.store_give_up * 1000, session_store_done, srv);
	if (srv->storeq == NULL)
		return -1;
	srv->conn_ops = &session_conn_ops;
	/* Before listening: a banned address is refused from the first
	 * connection on. */
	if (sanction_load(srv) != 0)
		return -1;
	club_start(srv);
	if (net_listen(srv) != 0 || web_listen(srv) != 0 ||
	    metrics_start(srv) != 0)
		return -1;
	srv->worker = worker_new(srv);
	srv->seeks = sstore_pool(srv);
	/* On a cluster the tournaments and seeks are the club's node's:
	 * loaded when it takes the club (cluster_club.c). */
	if (app_modules_start(srv) != 0 || recover_rooms(srv) != 0 ||
	    (srv->cluster_ops == NULL &&
	        (tourney_recover(srv) != 0 || sstore_load(srv) != 0)))
		return -1;
	sweep_start(srv);
	return 0;
}

/* The web client's folder (when --web-dir names one; else the copy built
 * into tablerod is served) and the TLS files as absolute paths (a daemon
 * changes to /); each made path goes to owned[], freed at exit. */
static void
main_web_paths(struct config *cfg, char *owned[3])
{
	const char **paths[3] = {&cfg->web_dir, &cfg->tls_cert, &cfg->tls_key};
	int i;

	for (i = 0; i < 3; i++)
		if (*paths[i] != NULL)
			*paths[i] = owned[i] = main_absolute(".", *paths[i]);
}

static void
main_web_free(char *owned[3])
{
	int i;

	for (i = 0; i < 3; i++)
		free(owned[i]);
}

int
main(int argc, char **argv)
{
	static struct server srv;
	char *db, *pidfile = NULL, *logfile = NULL, *web[3] = {NULL};
	int ready = -1;

	xmalloc_install();
	if (proto_verbs_check() != PROTO_VERB_COUNT)
		fatal("verb %d has an incomplete row in protocol/verbs.c",
		    (int)proto_verbs_check());
	if (proto_events_check() != PROTO_EV_COUNT)
		fatal("event %d has an incomplete row in protocol/events.c",
		    (int)proto_events_check());
	flags_defaults(&srv.cfg);
	flags_parse(&srv.cfg, argc, argv);
	signal(SIGPIPE, SIG_IGN);
	db = main_db_path(&srv.cfg);
	srv.cfg.db = db;
	srv.cfg.data_dir = NULL;
	if (srv.cfg.pidfile != NULL)
		srv.cfg.pidfile = pidfile = main_absolute(".", srv.cfg.pidfile);
	if (srv.cfg.log_file != NULL && strcmp(srv.cfg.log_file, "syslog") != 0)
		srv.cfg.log_file = logfile =
		    main_absolute(".", srv.cfg.log_file);
	main_web_paths(&srv.cfg, web);
	if (main_log(&srv.cfg) != 0)
		return 1;
	if (srv.cfg.copy_db != NULL) {
		free(db);
		return main_copy(&srv.cfg);
	}
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
		main_web_free(web);
		return 1;
	}
	daemon_ready(ready);
	event_base_dispatch(srv.base);
	net_settle(&srv);
	log_info("tablerod stopped");
	main_cleanup(&srv);
	free(db);
	free(pidfile);
	free(logfile);
	main_web_free(web);
	return 0;
}
