/*
 * flags.c: tablerod's command-line flags in one table, in the manner of
 * Redis's config table: each row gives a flag's long and short name, its
 * type, the config field it sets, its range, its default and its help.
 * Parsing, the defaults and --help all come from the table, so a new flag
 * is one row (and its field in struct config).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "server/club/seek.h"
#include "server/club/tourney.h"
#include "server/app/app.h"
#include "server/cmd/cmd.h"
#include "server/club/club.h"
#include "server/net/limit.h"
#include "server/store/store.h"

/* A macro's value as a string literal. */
#define FLAGS_STR2(x) #x
#define FLAGS_STR(x) FLAGS_STR2(x)

/* Column where --help starts each flag's text, and its last column. */
#define FLAGS_HELP_COL 27
#define FLAGS_HELP_WIDTH 79
/* Where Linux says the largest listen backlog it allows. */
#define FLAGS_SOMAXCONN "/proc/sys/net/core/somaxconn"

enum flags_type {
	FLAGS_INT,    /* int within [min, max] */
	FLAGS_LONG,   /* long within [min, max] */
	FLAGS_SIZE,   /* size_t within [min, max] */
	FLAGS_STRING, /* const char *, the argument itself */
	FLAGS_LIST,   /* const char *[max], count in the int at count_off */
	FLAGS_CHOICE, /* int: the index of the argument in choices */
	FLAGS_BOOL,   /* int set to 1; no argument */
	FLAGS_HELP,   /* print --help and exit */
	FLAGS_VERSION /* print the version and exit */
};

struct flags_entry {
	const char *name; /* long name, without "--" */
	char shortname;   /* 0: none */
	enum flags_type type;
	size_t off; /* the field in struct config */
	size_t count_off;
	long min, max;
	long def;            /* numbers and choices (an index) */
	const char *choices; /* "normal|full" */
	const char *arg;     /* the argument's name in --help */
	const char *help;
	const char *def_text; /* the default in words, when not a number */
};

#define CFG(field) offsetof(struct config, field)

static const struct flags_entry flags_table[] = {
    {.name = "listen",
        .shortname = 'l',
        .type = FLAGS_LIST,
        .off = CFG(listen),
        .count_off = CFG(nlisten),
        .max = SERVER_LISTEN_MAX,
        .arg = "ADDR",
        .help = "address to listen on, IPv4 or IPv6; repeat for several",
        .def_text = "every address, 0.0.0.0 and ::"},
    {.name = "port",
        .shortname = 'p',
        .type = FLAGS_INT,
        .off = CFG(port),
        .min = 0,
        .max = 65535,
        .def = TABLEROD_PORT,
        .arg = "N",
        .help = "TCP port (0 picks a free one)"},
    {.name = "web-port",
        .type = FLAGS_INT,
        .off = CFG(web_port),
        .min = -1,
        .max = 65535,
        .def = -1,
        .arg = "N",
        .help = "serve the browser client (HTTP, WebSocket at /ws, and "
                "the line protocol too) on this port; 0 picks a free one",
        .def_text = "off"},
    {.name = "web-dir",
        .type = FLAGS_STRING,
        .off = CFG(web_dir),
        .arg = "DIR",
        .help = "serve the browser client's files from this folder, read "
                "at start, instead of the copy built into tablerod",
        .def_text = "the built-in copy"},
    {.name = "web-origin",
        .type = FLAGS_LIST,
        .off = CFG(web_origin),
        .count_off = CFG(nweb_origin),
        .max = SERVER_LISTEN_MAX,
        .arg = "ORIGIN",
        .help = "another page origin (https://host:port) allowed to open "
                "the WebSocket; repeat for several",
        .def_text = "only pages this server served"},
    {.name = "tls-port",
        .type = FLAGS_INT,
        .off = CFG(tls_port),
        .min = -1,
        .max = 65535,
        .def = -1,
        .arg = "N",
        .help = "serve everything the web port does, and the line "
                "protocol for tablero --tls, over TLS on this port",
        .def_text = "off"},
    {.name = "tls-cert",
        .type = FLAGS_STRING,
        .off = CFG(tls_cert),
        .arg = "PATH",
        .help = "the TLS certificate chain (PEM) for --tls-port"},
    {.name = "tls-key",
        .type = FLAGS_STRING,
        .off = CFG(tls_key),
        .arg = "PATH",
        .help = "the TLS private key (PEM) for --tls-port"},
    {.name = "db",
        .type = FLAGS_STRING,
        .off = CFG(db),
        .arg = "PATH|URL",
        .help = "SQLite data file, :memory:, or a postgresql:// URL",
        .def_text = SERVER_DB_NAME " in --data-dir"},
    {.name = "redis",
        .type = FLAGS_STRING,
        .off = CFG(redis),
        .arg = "HOST:PORT|URL",
        .help = "join a cluster of nodes through this Redis (needs a "
                "postgresql:// --db shared by every node); a URL "
                "redis://[[USER]:PASSWORD@]HOST[:PORT] logs in with AUTH",
        .def_text = "off: one node alone"},
    {.name = "redis-password-file",
        .type = FLAGS_STRING,
        .off = CFG(redis_password_file),
        .arg = "PATH",
        .help = "Redis's AUTH from this file's first line: PASSWORD, or "
                "USER PASSWORD (an ACL user); kept out of the command line",
        .def_text = "none, or the --redis URL's"},
    {.name = "redis-sentinel",
        .type = FLAGS_STRING,
        .off = CFG(redis_sentinel),
        .arg = "HOST:PORT,...",
        .help = "Redis Sentinel: ask these sentinels where --redis-master "
                "is, and again after a failover (joins a cluster as "
                "--redis does)",
        .def_text = "none: --redis is the master"},
    {.name = "redis-master",
        .type = FLAGS_STRING,
        .off = CFG(redis_master),
        .arg = "NAME",
        .help = "the master's name the sentinels know (--redis-sentinel)",
        .def_text = "none"},
    {.name = "node",
        .type = FLAGS_STRING,
        .off = CFG(node),
        .arg = "ID",
        .help = "this node's name in the cluster (letters, digits, - _ .)",
        .def_text = "hostname-pid"},
    {.name = "node-link",
        .type = FLAGS_STRING,
        .off = CFG(node_link),
        .arg = "HOST:PORT|off",
        .help = "take the other nodes' messages on this address (a TCP "
                "port every node can reach and strangers cannot), not "
                "through Redis; off: all through Redis",
        .def_text = "the address this node reaches Redis from, a free port"},
    {.name = "copy-db",
        .type = FLAGS_STRING,
        .off = CFG(copy_db),
        .arg = "FROM TO",
        .help = "copy every game and identity of store FROM into the new"
                " store TO (a path or URL each), then exit"},
    {.name = "data-dir",
        .type = FLAGS_STRING,
        .off = CFG(data_dir),
        .arg = "DIR",
        .help = "where the data file lives",
        .def_text = "the working directory"},
    {.name = "sync",
        .type = FLAGS_CHOICE,
        .off = CFG(sync_full),
        .choices = "normal|full",
        .def = 1,
        .arg = "normal|full",
        .help = "SQLite synchronous mode: full syncs each group commit to "
                "the disk (no acknowledged move is lost to a power cut), "
                "normal only at checkpoints"},
    {.name = "store-give-up",
        .type = FLAGS_INT,
        .off = CFG(store_give_up),
        .min = 1,
        .max = 86400,
        .def = 60,
        .arg = "SECONDS",
        .help = "a store failing this long (full disk, lost database) makes "
                "tablerod log why and exit non-zero; a restart recovers "
                "what was committed"},
    {.name = "log-level",
        .type = FLAGS_CHOICE,
        .off = CFG(log_level),
        .choices = "error|warn|info|debug",
        .def = LOG_LEVEL_INFO,
        .arg = "LEVEL",
        .help = "error, warn, info or debug"},
    {.name = "log-file",
        .type = FLAGS_STRING,
        .off = CFG(log_file),
        .arg = "PATH",
        .help = "log to a file (reopened on SIGHUP), or 'syslog'",
        .def_text = "stderr; syslog with -d"},
    {.name = "daemon",
        .shortname = 'd',
        .type = FLAGS_BOOL,
        .off = CFG(daemon),
        .help = "detach and run in the background"},
    {.name = "pidfile",
        .type = FLAGS_STRING,
        .off = CFG(pidfile),
        .arg = "PATH",
        .help = "write the pid there",
        .def_text = "none"},
    {.name = "max-line",
        .type = FLAGS_SIZE,
        .off = CFG(max_line),
        .min = 64,
        .max = 1 << 20,
        .def = SERVER_LINE_MAX,
        .arg = "N",
        .help = "longest request line in bytes"},
    {.name = "max-clients",
        .type = FLAGS_INT,
        .off = CFG(max_clients),
        .min = 1,
        .max = 1000000,
        .def = SERVER_CLIENTS_MAX,
        .arg = "N",
        .help = "connections at once"},
    {.name = "max-rooms-per-player",
        .type = FLAGS_INT,
        .off = CFG(max_rooms_per_player),
        .min = 1,
        .max = 1000,
        .def = SERVER_ROOMS_PER_PLAYER,
        .arg = "N",
        .help = "unfinished rooms per player"},
    {.name = "max-watchers",
        .type = FLAGS_INT,
        .off = CFG(max_watchers),
        .min = 0,
        .max = 100000,
        .def = SERVER_WATCHERS_MAX,
        .arg = "N",
        .help = "spectators per room"},
    {.name = "grace",
        .type = FLAGS_INT,
        .off = CFG(grace_sec),
        .min = 0,
        .max = 86400,
        .def = SERVER_GRACE_SEC,
        .arg = "SECONDS",
        .help = "a gone player's seat is held this long before the "
                "opponent may claim"},
    {.name = "idle",
        .type = FLAGS_INT,
        .off = CFG(idle_sec),
        .min = 1,
        .max = 86400,
        .def = SERVER_HELLO_IDLE_SEC,
        .arg = "SECONDS",
        .help = "time allowed before hello"},
    {.name = "max-output",
        .type = FLAGS_SIZE,
        .off = CFG(output_max),
        .min = 4096,
        .max = 1L << 30,
        .def = SERVER_OUTPUT_MAX,
        .arg = "BYTES",
        .help = "unread output before a client is dropped"},
    {.name = "rate",
        .type = FLAGS_INT,
        .off = CFG(rate),
        .min = 1,
        .max = 100000,
        .def = SERVER_RATE_PER_SEC,
        .arg = "N",
        .help = "messages per second per connection"},
    {.name = "burst",
        .type = FLAGS_INT,
        .off = CFG(burst),
        .min = 1,
        .max = 100000,
        .def = SERVER_RATE_BURST,
        .arg = "N",
        .help = "messages in a burst"},
    {.name = "bot-delay",
        .type = FLAGS_INT,
        .off = CFG(bot_delay_ms),
        .min = 0,
        .max = 60000,
        .def = SERVER_BOT_DELAY_MS,
        .arg = "MS",
        .help = "pause before a bot moves"},
    {.name = "keep-ended",
        .type = FLAGS_INT,
        .off = CFG(ended_keep_sec),
        .min = 0,
        .max = 86400,
        .def = SERVER_ENDED_KEEP_SEC,
        .arg = "SECONDS",
        .help = "a finished room leaves memory this long after its end at "
                "most (sooner once nobody is in it)"},
    {.name = "adjourn-days",
        .type = FLAGS_INT,
        .off = CFG(adjourn_days),
        .min = 1,
        .max = 36500,
        .def = SERVER_ADJOURN_DAYS,
        .arg = "N",
        .help = "adjourned games are kept this long"},
    {.name = "workers",
        .type = FLAGS_INT,
        .off = CFG(workers),
        .min = 1,
        .max = SERVER_WORKERS_MAX,
        .def = 0,
        .arg = "N",
        .help = "threads for bot moves and hints",
        .def_text =
            "one per processor, at most " FLAGS_STR(SERVER_WORKERS_MAX)},
    {.name = "hint-nodes",
        .type = FLAGS_LONG,
        .off = CFG(hint_nodes),
        .min = 1000,
        .max = 1000000000,
        .def = SERVER_HINT_NODES,
        .arg = "N",
        .help = "positions a hint may search before it answers \"unknown\" "
                "(the default takes up to about 10 s)"},
    {.name = "backlog",
        .type = FLAGS_INT,
        .off = CFG(backlog),
        .min = 1,
        .max = SERVER_BACKLOG_MAX,
        .def = 0,
        .arg = "N",
        .help = "connections the kernel queues before they are accepted",
        .def_text = "the system's most, net.core.somaxconn"},
    {.name = "hint-time",
        .type = FLAGS_INT,
        .off = CFG(hint_ms),
        .min = 10,
        .max = 600000,
        .def = SERVER_HINT_MS,
        .arg = "MS",
        .help = "the longest a hint may search"},
    {.name = "bot-max-time",
        .type = FLAGS_INT,
        .off = CFG(bot_max_ms),
        .min = 1,
        .max = 60000,
        .def = SERVER_BOT_MAX_MS,
        .arg = "MS",
        .help = "the longest any bot may think"},
    {.name = "bot-pace",
        .type = FLAGS_INT,
        .off = CFG(bot_pace_ms),
        .min = 0,
        .max = 60000,
        .def = SERVER_BOT_PACE_MS,
        .arg = "MS",
        .help = "the least pause between moves when only bots play"},
    {.name = "addr-rate",
        .type = FLAGS_INT,
        .off = CFG(addr_rate),
        .min = 1,
        .max = 10000000,
        .def = 0,
        .arg = "N",
        .help = "messages per second from one address, over all its "
                "connections",
        .def_text = FLAGS_STR(SERVER_ADDR_RATE_FACTOR) " x --rate"},
    {.name = "addr-burst",
        .type = FLAGS_INT,
        .off = CFG(addr_burst),
        .min = 1,
        .max = 10000000,
        .def = 0,
        .arg = "N",
        .help = "messages in a burst from one address",
        .def_text = FLAGS_STR(SERVER_ADDR_RATE_FACTOR) " x --burst"},
    {.name = "login-fails",
        .type = FLAGS_INT,
        .off = CFG(login_fails),
        .min = 1,
        .max = 100000,
        .def = SERVER_LOGIN_FAILS,
        .arg = "N",
        .help = "failed logins per minute from one address; a name may "
                "have 5 x N"},
    {.name = "max-per-address",
        .type = FLAGS_INT,
        .off = CFG(max_per_addr),
        .min = 1,
        .max = 1000000,
        .def = SERVER_CONNS_PER_ADDR,
        .arg = "N",
        .help = "connections from one address (an IPv6 /64)"},
    {.name = "proxy-from",
        .type = FLAGS_STRING,
        .off = CFG(proxy_from),
        .arg = "ADDR[/BITS][,...]",
        .help = "connections from these sources (a load balancer such as "
                "HAProxy with send-proxy-v2) must start with a PROXY "
                "protocol header (v1 or v2), whose client address counts "
                "for every per-address limit; on every port",
        .def_text = "none: every connection is its own client"},
    {.name = "metrics-port",
        .type = FLAGS_INT,
        .off = CFG(metrics_port),
        .min = -1,
        .max = 65535,
        .def = -1,
        .arg = "N",
        .help = "serve GET /metrics in Prometheus's text format on this "
                "port (tablerod(8) names the metrics); 0 picks a free one",
        .def_text = "off"},
    {.name = "metrics-from",
        .type = FLAGS_STRING,
        .off = CFG(metrics_from),
        .arg = "ADDR[/BITS][,...]",
        .help = "who may read --metrics-port; others get 403",
        .def_text = "127.0.0.1,::1: this machine"},
    {.name = "admin",
        .type = FLAGS_LIST,
        .off = CFG(admin),
        .count_off = CFG(nadmin),
        .max = SERVER_ADMINS_MAX,
        .arg = "NAME",
        .help = "an operator: this identity may kick, mute, ban and "
                "announce (docs/PROTOCOL.md); register the name first; "
                "repeat for several",
        .def_text = "nobody"},
    {.name = "idle-lobby",
        .type = FLAGS_INT,
        .off = CFG(lobby_idle_sec),
        .min = 1,
        .max = 604800,
        .def = SERVER_LOBBY_IDLE_SEC,
        .arg = "SECONDS",
        .help = "a logged-in client in no game and watching nothing is "
                "closed after this silence"},
    {.name = "new-names",
        .type = FLAGS_INT,
        .off = CFG(new_names),
        .min = 1,
        .max = 1000000,
        .def = SERVER_NEW_NAMES,
        .arg = "N",
        .help = "new identities one address may make per hour"},
    {.name = "unplayed-days",
        .type = FLAGS_INT,
        .off = CFG(unplayed_days),
        .min = 1,
        .max = 36500,
        .def = SERVER_UNPLAYED_DAYS,
        .arg = "N",
        .help = "identities that never played are deleted this many days "
                "after their last hello"},
    {.name = "games-per-hour",
        .type = FLAGS_INT,
        .off = CFG(games_per_hour),
        .min = 1,
        .max = 1000000,
        .def = SERVER_GAMES_PER_HOUR,
        .arg = "N",
        .help =
            "finished games one identity may have kept an hour (an "
            "address: " FLAGS_STR(
                SERVER_ADDR_RATE_FACTOR) " x as many); "
                                         "past it, starting a game is refused"},
    {.name = "guest-reads",
        .type = FLAGS_INT,
        .off = CFG(guest_reads),
        .min = 1,
        .max = 1000000,
        .def = SERVER_GUEST_READS,
        .arg = "N",
        .help = "reads of the store (history, rooms ended, a finished "
                "room) guests at one address may make a second, in bursts "
                "of 5 x as many"},
    {.name = "rated-min-age",
        .type = FLAGS_INT,
        .off = CFG(rated_min_age_sec),
        .min = 0,
        .max = 31536000,
        .def = SERVER_RATED_MIN_AGE_SEC,
        .arg = "SECONDS",
        .help = "a game between two people is rated only when both "
                "identities are this old"},
    {.name = "rated-min-games",
        .type = FLAGS_INT,
        .off = CFG(rated_min_games),
        .min = 0,
        .max = 1000,
        .def = SERVER_RATED_MIN_GAMES,
        .arg = "N",
        .help = "and both have finished this many rated games (against "
                "bots too)"},
    {.name = "rated-same-address",
        .type = FLAGS_BOOL,
        .off = CFG(rated_same_address),
        .help = "rate games between two people on one address (an IPv6 "
                "/64) too"},
    {.name = "tourney-expire",
        .type = FLAGS_INT,
        .off = CFG(tourney_expire_sec),
        .min = 1,
        .max = 31536000,
        .def = TOURNEY_EXPIRE_SEC,
        .arg = "SECONDS",
        .help = "a tournament its organiser has not started expires this "
                "long after it was made"},
    {.name = "keep-games-days",
        .type = FLAGS_INT,
        .off = CFG(keep_games_days),
        .min = 0,
        .max = 36500,
        .def = 0,
        .arg = "N",
        .help = "finished games are deleted this many days after their end",
        .def_text = "0: kept for good"},
    {.name = "rooms-page",
        .type = FLAGS_INT,
        .off = CFG(rooms_page),
        .min = 1,
        .max = 1000,
        .def = SERVER_ROOMS_PAGE,
        .arg = "N",
        .help = "rooms in one rooms reply"},
    {.name = "waiting-expire",
        .type = FLAGS_INT,
        .off = CFG(waiting_expire_sec),
        .min = 1,
        .max = 31536000,
        .def = SERVER_WAITING_EXPIRE_SEC,
        .arg = "SECONDS",
        .help = "a waiting room whose creator is gone is closed after this "
                "long"},
    {.name = "challenge-expire",
        .type = FLAGS_INT,
        .off = CFG(challenge_expire_sec),
        .min = 1,
        .max = 86400,
        .def = MATCH_EXPIRE_SEC,
        .arg = "SECONDS",
        .help = "a challenge (match) not answered this long is over"},
    {.name = "max-output-total",
        .type = FLAGS_SIZE,
        .off = CFG(output_total_max),
        .min = 65536,
        .max = LONG_MAX,
        .def = SERVER_OUTPUT_TOTAL_MAX,
        .arg = "BYTES",
        .help = "unread output of all clients together; past it those "
                "furthest behind are dropped first"},
    {.name = "max-seeks",
        .type = FLAGS_INT,
        .off = CFG(max_seeks),
        .min = 0,
        .max = 1000000,
        .def = SEEK_POOL_MAX,
        .arg = "N",
        .help = "open seeks on the server"},
    {.name = "help", .shortname = 'h', .type = FLAGS_HELP, .help = "this help"},
    {.name = "version",
        .shortname = 'V',
        .type = FLAGS_VERSION,
        .help = "the version"},
};

#define FLAGS_COUNT ((int)(sizeof flags_table / sizeof flags_table[0]))

/* The field a row sets. */
static void *
flags_field(struct config *cfg, size_t off)
{
	return (char *)cfg + off;
}

/* The index of word in choices ("a|b|c"), or -1. */
static long
flags_choice(const char *choices, const char *word)
{
	const char *p = choices;
	size_t n = strlen(word);
	long i;

	for (i = 0; p != NULL; i++) {
		const char *bar = strchr(p, '|');
		size_t len = bar != NULL ? (size_t)(bar - p) : strlen(p);

		if (len == n && strncmp(p, word, n) == 0)
			return i;
		p = bar != NULL ? bar + 1 : NULL;
	}
	return -1;
}

/* A row's default, as --help shows it; "" when it has none. */
static const char *
flags_default_text(const struct flags_entry *f, char *buf, size_t len)
{
	const char *p;
	long i;

	if (f->def_text != NULL)
		return f->def_text;
	switch (f->type) {
	case FLAGS_INT:
	case FLAGS_LONG:
	case FLAGS_SIZE:
		snprintf(buf, len, "%ld", f->def);
		return buf;
	case FLAGS_CHOICE:
		for (p = f->choices, i = 0; i < f->def && p != NULL; i++)
			p = strchr(p, '|') != NULL ? strchr(p, '|') + 1 : NULL;
		snprintf(buf, len, "%.*s", p != NULL ? (int)strcspn(p, "|") : 0,
		    p != NULL ? p : "");
		return buf;
	default:
		return "";
	}
}

/* Processors online, within 1..SERVER_WORKERS_MAX: the default pool. */
static int
flags_processors(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		return 1;
	return n > SERVER_WORKERS_MAX ? SERVER_WORKERS_MAX : (int)n;
}

/* The system's largest listen backlog (Linux caps listen() at
 * net.core.somaxconn), so a burst of connects waits instead of being lost;
 * SOMAXCONN where that cannot be read. */
static int
flags_backlog(void)
{
	FILE *f = fopen(FLAGS_SOMAXCONN, "r");
	int n = 0;

	if (f != NULL) {
		if (fscanf(f, "%d", &n) != 1)
			n = 0;
		fclose(f);
	}
	if (n < 1)
		return SOMAXCONN;
	return n > SERVER_BACKLOG_MAX ? SERVER_BACKLOG_MAX : n;
}

void
flags_defaults(struct config *cfg)
{
	int i;

	memset(cfg, 0, sizeof *cfg);
	for (i = 0; i < FLAGS_COUNT; i++) {
		const struct flags_entry *f = &flags_table[i];

		if (f->type == FLAGS_INT || f->type == FLAGS_CHOICE)
			*(int *)flags_field(cfg, f->off) = (int)f->def;
		else if (f->type == FLAGS_LONG)
			*(long *)flags_field(cfg, f->off) = f->def;
		else if (f->type == FLAGS_SIZE)
			*(size_t *)flags_field(cfg, f->off) = (size_t)f->def;
	}
	cfg->workers = flags_processors();
	cfg->backlog = flags_backlog();
}

/* A whole number within the row's range: 0, or -1 with the reason. */
static int
flags_number(const struct flags_entry *f, const char *s, long *out, char *err,
    size_t errlen)
{
	char *end;

	errno = 0;
	*out = strtol(s, &end, 10);
	if (errno != 0 || *s == '\0' || *end != '\0' || *out < f->min ||
	    *out > f->max) {
		snprintf(err, errlen,
		    "--%s must be a whole number from %ld to %ld", f->name,
		    f->min, f->max);
		return -1;
	}
	return 0;
}

/* Set one row's field from its argument: 0, or -1 with the reason. */
static int
flags_apply(struct config *cfg, const struct flags_entry *f, const char *arg,
    char *err, size_t errlen)
{
	void *field = flags_field(cfg, f->off);
	int *count;
	long v;

	switch (f->type) {
	case FLAGS_INT:
	case FLAGS_LONG:
	case FLAGS_SIZE:
		if (flags_number(f, arg, &v, err, errlen) != 0)
			return -1;
		if (f->type == FLAGS_INT)
			*(int *)field = (int)v;
		else if (f->type == FLAGS_LONG)
			*(long *)field = v;
		else
			*(size_t *)field = (size_t)v;
		return 0;
	case FLAGS_STRING:
		*(const char **)field = arg;
		return 0;
	case FLAGS_LIST:
		count = flags_field(cfg, f->count_off);
		if (*count >= f->max) {
			snprintf(
			    err, errlen, "at most %ld --%s", f->max, f->name);
			return -1;
		}
		((const char **)field)[(*count)++] = arg;
		return 0;
	case FLAGS_CHOICE:
		v = flags_choice(f->choices, arg);
		if (v < 0) {
			snprintf(err, errlen, "--%s is one of %s", f->name,
			    f->choices);
			return -1;
		}
		*(int *)field = (int)v;
		return 0;
	case FLAGS_BOOL:
		*(int *)field = 1;
		return 0;
	default:
		snprintf(err, errlen, "--%s sets nothing", f->name);
		return -1;
	}
}

int
flags_set(struct config *cfg, const char *name, const char *arg, char *err,
    size_t errlen)
{
	int i;

	for (i = 0; i < FLAGS_COUNT; i++)
		if (strcmp(flags_table[i].name, name) == 0)
			return flags_apply(
			    cfg, &flags_table[i], arg, err, errlen);
	snprintf(err, errlen, "no flag --%s", name);
	return -1;
}

/* Append words to the help, wrapped at FLAGS_HELP_WIDTH and indented to
 * FLAGS_HELP_COL; *col is the current column, *fresh 1 when no word is on
 * the line yet. */
static void
flags_wrap(FILE *out, const char *text, int *col, int *fresh)
{
	int n;

	for (;;) {
		while (*text == ' ')
			text++;
		if (*text == '\0')
			return;
		n = (int)strcspn(text, " ");
		if (!*fresh && *col + 1 + n > FLAGS_HELP_WIDTH) {
			fprintf(out, "\n%*s", FLAGS_HELP_COL, "");
			*col = FLAGS_HELP_COL;
			*fresh = 1;
		}
		if (!*fresh) {
			fputc(' ', out);
			(*col)++;
		}
		fprintf(out, "%.*s", n, text);
		*col += n;
		*fresh = 0;
		text += n;
	}
}

void
flags_usage(FILE *out)
{
	char buf[64], def[128];
	int i, col, fresh;

	fprintf(out,
	    "usage: tablerod [options]\n"
	    "tablero's game server: five board games over one line "
	    "of JSON (or plain\ntext, for telnet) per message.\n\n");
	for (i = 0; i < FLAGS_COUNT; i++) {
		const struct flags_entry *f = &flags_table[i];
		const char *d = flags_default_text(f, buf, sizeof buf);

		if (f->shortname != 0)
			col =
			    fprintf(out, "  -%c, --%s", f->shortname, f->name);
		else
			col = fprintf(out, "      --%s", f->name);
		if (f->arg != NULL)
			col += fprintf(out, " %s", f->arg);
		if (col < FLAGS_HELP_COL) {
			fprintf(out, "%*s", FLAGS_HELP_COL - col, "");
			col = FLAGS_HELP_COL;
		} else {
			fputc(' ', out);
			col++;
		}
		fresh = 1;
		flags_wrap(out, f->help, &col, &fresh);
		if (*d != '\0') {
			snprintf(def, sizeof def, "(default %s)", d);
			flags_wrap(out, def, &col, &fresh);
		}
		fputc('\n', out);
	}
	fprintf(out,
	    "\nSignals: TERM and INT shut down cleanly (games are "
	    "saved), HUP reopens\nthe log file.\n");
}

/* The row of a getopt_long value: short names are themselves, long-only
 * rows are 256 + their index. */
static const struct flags_entry *
flags_by_value(int val)
{
	int i;

	if (val >= 256 && val - 256 < FLAGS_COUNT)
		return &flags_table[val - 256];
	for (i = 0; i < FLAGS_COUNT; i++)
		if (flags_table[i].shortname != 0 &&
		    flags_table[i].shortname == val)
			return &flags_table[i];
	return NULL;
}

/* getopt_long's tables, made from ours. */
static void
flags_getopt(struct option *longopts, char *shortopts)
{
	int i;

	for (i = 0; i < FLAGS_COUNT; i++) {
		const struct flags_entry *f = &flags_table[i];
		int has_arg = f->type != FLAGS_BOOL && f->type != FLAGS_HELP &&
		    f->type != FLAGS_VERSION;

		longopts[i].name = f->name;
		longopts[i].has_arg = has_arg ? required_argument : no_argument;
		longopts[i].flag = NULL;
		longopts[i].val = f->shortname != 0 ? f->shortname : 256 + i;
		if (f->shortname != 0) {
			*shortopts++ = f->shortname;
			if (has_arg)
				*shortopts++ = ':';
		}
	}
	memset(&longopts[FLAGS_COUNT], 0, sizeof longopts[FLAGS_COUNT]);
	*shortopts = '\0';
}

/* Limits that default to a multiple of others, once those are known. */
static void
flags_derived(struct config *cfg)
{
	if (cfg->addr_rate == 0)
		cfg->addr_rate = cfg->rate * SERVER_ADDR_RATE_FACTOR;
	if (cfg->addr_burst == 0)
		cfg->addr_burst = cfg->burst * SERVER_ADDR_RATE_FACTOR;
}

void
flags_parse(struct config *cfg, int argc, char **argv)
{
	struct option longopts[FLAGS_COUNT + 1];
	char shortopts[FLAGS_COUNT * 2 + 1], err[256];
	const struct flags_entry *f;
	struct proxy_list *from;
	int c, i;

	flags_getopt(longopts, shortopts);
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		f = flags_by_value(c);
		if (f == NULL) {
			flags_usage(stderr);
			exit(2);
		}
		if (f->type == FLAGS_HELP) {
			flags_usage(stdout);
			exit(0);
		}
		if (f->type == FLAGS_VERSION) {
			printf("tablerod %s (protocol %d)\n", TABLEROD_VERSION,
			    PROTO_VERSION);
			exit(0);
		}
		if (flags_apply(cfg, f, optarg, err, sizeof err) != 0) {
			fprintf(stderr, "tablerod: %s\n", err);
			exit(2);
		}
	}
	/* --copy-db FROM TO: TO is the one argument left. */
	if (cfg->copy_db != NULL && optind == argc - 1)
		cfg->copy_to = argv[optind++];
	if (cfg->copy_db != NULL && cfg->copy_to == NULL) {
		fprintf(stderr, "tablerod: --copy-db FROM TO: TO is missing\n");
		exit(2);
	}
	if (optind != argc) {
		fprintf(stderr, "tablerod: unexpected argument '%s'\n",
		    argv[optind]);
		exit(2);
	}
	for (i = 0; i < cfg->nadmin; i++) {
		if (!player_name_valid(cfg->admin[i])) {
			fprintf(stderr,
			    "tablerod: --admin %s: a name is 1 to 16 letters, "
			    "digits, '_' or '-'\n",
			    cfg->admin[i]);
			exit(2);
		}
	}
	if (cfg->proxy_from != NULL &&
	    proxy_check_flag(cfg->proxy_from, err, sizeof err) != 0) {
		fprintf(stderr, "tablerod: %s\n", err);
		exit(2);
	}
	if (cfg->metrics_from == NULL)
		cfg->metrics_from = METRICS_FROM;
	if ((from = proxy_list_new("--metrics-from", cfg->metrics_from, err,
	         sizeof err)) == NULL) {
		fprintf(stderr, "tablerod: %s\n", err);
		exit(2);
	}
	proxy_list_free(from);
	if ((cfg->redis != NULL || cfg->redis_sentinel != NULL) &&
	    (cfg->db == NULL || !store_pg.handles(cfg->db))) {
		fprintf(stderr,
		    "tablerod: --redis joins a cluster, whose nodes "
		    "share one store: give --db postgresql://...\n");
		exit(2);
	}
	if ((cfg->redis != NULL || cfg->redis_sentinel != NULL ||
	        cfg->node != NULL) &&
	    app_module_find("cluster") == NULL) {
		fprintf(stderr,
		    "tablerod: --redis and --node join a cluster, and this "
		    "build has none (tablerod-alone): run tablerod\n");
		exit(2);
	}
	if (app_modules_check(cfg, err, sizeof err) != 0) {
		fprintf(stderr, "tablerod: %s\n", err);
		exit(2);
	}
	flags_derived(cfg);
}
