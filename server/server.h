/*
 * server.h: tablerod's internal header: the limits, the structures that one
 * event loop owns (connections, players, rooms) and every server file's
 * prototypes, grouped by file.
 */
#ifndef TABLERO_SERVER_H
#define TABLERO_SERVER_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/queue.h>

#include <event2/event.h>
#include <event2/listener.h>

#include "protocol/protocol.h"
#include "rules/rules.h"
#include "server/base/table.h"

struct bufferevent;
struct evbuffer;
struct evconnlistener;
struct sockaddr;
struct store;
struct worker;

#define TABLEROD_VERSION "0.1.0"
#define TABLEROD_PORT 7777

/*
 * Limits on what clients may make the server hold or do. Each is a default;
 * the operator tunes the ones with a flag (see tablerod --help).
 */
/* Longest request line: a board file passed inline fits easily. */
#define SERVER_LINE_MAX PROTO_LINE_MAX_DEFAULT
/* Connections at once: about 50 KiB each at most, well within one box. */
#define SERVER_CLIENTS_MAX 10000
/* Descriptors kept beside the clients' ones: listeners, the data file with
 * its WAL and shared memory, the log, libevent's signal and wake-up pipes,
 * the daemon's pipe, and room to spare. */
#define SERVER_FD_RESERVE 32
/* Unfinished rooms one player may create or sit in: enough for a club
 * night, small enough that one name cannot fill the server. */
#define SERVER_ROOMS_PER_PLAYER 16
/* Spectators per room: every one costs a copy of every event. */
#define SERVER_WATCHERS_MAX 64
/* Longest chat message in bytes: a few sentences. */
#define SERVER_CHAT_MAX 500
/* Messages a connection may send per second on average, and in a burst:
 * far above a person's pace, far below a flood. */
#define SERVER_RATE_PER_SEC 20
#define SERVER_RATE_BURST 40
/* Refused messages in a row before a flooding client is cut off. */
#define SERVER_FLOOD_MAX 100
/* Output bytes queued for one connection before it counts as not reading
 * and is dropped, so a stuck client never slows the others. */
#define SERVER_OUTPUT_MAX (1024 * 1024)
/* Moves of history in one state (create, join, watch, state): a long game
 * is paged with state's since, so that no reply grows with a game. Each
 * page also stays within a quarter of --max-output (SERVER_STATE_SHARE),
 * and holds at least one move. */
#define SERVER_STATE_HISTORY_MAX 500
#define SERVER_STATE_SHARE 4
/* Seconds a connection may stay without hello. */
#define SERVER_HELLO_IDLE_SEC 60
/* Seconds a gone player's seat is held before the opponent may claim. */
#define SERVER_GRACE_SEC 60
/* Seconds to flush a last message to a peer before closing anyway. */
#define SERVER_CLOSE_FLUSH_SEC 5
/* Moves in one game: past this the game is drawn ("move limit"), so a game
 * that cycles (Ataxx jumps) cannot grow without bound. */
#define SERVER_GAME_MOVES_MAX 5000
/* Milliseconds a bot waits before it moves, so people can follow. */
#define SERVER_BOT_DELAY_MS 500
/* The data file's name when only a directory (or nothing) is given. */
#define SERVER_DB_NAME "tablero.db"
/* Days an adjourned room is kept before it is pruned at start. */
#define SERVER_ADJOURN_DAYS 30
/* Nodes a hint may search: a quarter of a second per million, so at most
 * about ten seconds of a search thread; shipped boards take milliseconds,
 * large generated ones may end "unknown". */
#define SERVER_HINT_NODES 30000000L
/* The longest a hint searches (--hint-time), whatever its node bound: the
 * slice one player's hint may hold a search thread. */
#define SERVER_HINT_MS 10000
/* The longest any bot thinks (--bot-max-time): above level 5's 2 s, and
 * the slice a bot-versus-bot room may hold a search thread. */
#define SERVER_BOT_MAX_MS 3000
/* The least pause between moves when only bots play (--bot-pace), so
 * people can watch. */
#define SERVER_BOT_PACE_MS 1000
/* Search threads (bots and hints); each holds a position and a search
 * stack, and more than the processors only adds switching. */
#define SERVER_WORKERS_MAX 64
/* Listen addresses. */
#define SERVER_LISTEN_MAX 8
/* Largest --backlog: the kernel caps it at net.core.somaxconn anyway. */
#define SERVER_BACKLOG_MAX 65535
/* Messages one source address may send per second, and in a burst, as a
 * multiple of one connection's (--rate, --burst): a household or a club
 * behind one NAT, but not a botnet of reconnections. */
#define SERVER_ADDR_RATE_FACTOR 10
/* Connections from one source address (an IPv6 /64) at once: a club
 * behind one NAT fits, one host cannot take every slot. */
#define SERVER_CONNS_PER_ADDR 256
/* Failed logins (wrong token) per minute from one address; a name may
 * have five times as many, so no single address can lock its owner out. */
#define SERVER_LOGIN_FAILS 10
/* New identities one address may make per hour: a family or a classroom,
 * not a script. */
#define SERVER_NEW_NAMES 250
/* Finished games one identity may have kept an hour (a token bucket of as
 * many); an address, SERVER_ADDR_RATE_FACTOR times as many. Each kept game
 * is a row of about a kilobyte and its moves (at most
 * SERVER_GAME_MOVES_MAX): a player finishes a few an hour, a script would
 * otherwise fill the disk at its message rate. */
#define SERVER_GAMES_PER_HOUR 60
/* Finished games deleted at most per prune (--keep-games-days): one short
 * transaction of the store thread, every SWEEP_GAMES_SEC. */
#define SERVER_GAMES_PRUNE_MAX 1000
/* Seconds a logged-in connection that sits in no unfinished game and
 * watches nothing may stay silent before it is closed. */
#define SERVER_LOBBY_IDLE_SEC 1800
/* Days an identity that never played a game is kept after its last hello
 * before it is pruned. */
#define SERVER_UNPLAYED_DAYS 7
/* Rooms in one rooms reply; the client pages on with `from`. Each summary
 * is a few hundred bytes, so a page stays far below any output cap. */
#define SERVER_ROOMS_PAGE 100
/* Players one who reply lists: each is at most about 170 bytes (a name
 * and 16 room ids), so the reply stays below 100 kB. */
#define SERVER_WHO_MAX 500
/* Seconds a waiting room whose creator has gone is kept. */
#define SERVER_WAITING_EXPIRE_SEC 600
/* Output bytes queued for all connections together: past it the
 * connections furthest behind are dropped first. */
#define SERVER_OUTPUT_TOTAL_MAX (256L * 1024 * 1024)
/* Abuse accounting: most entries (addresses and names with recent
 * activity; about 200 bytes each), and the longest key. */
#define SERVER_LIMIT_ENTRIES 200000
#define SERVER_LIMIT_KEY 56
/* Room-id index chains at first; the index (table.c) doubles as rooms
 * are added, so a lookup stays one short chain however many rooms there
 * are. */
#define SERVER_ROOM_BUCKETS 1024
/* Seconds a finished room stays in memory at most (for a rematch, a last
 * look, chat): without this, finished rooms would add up without bound. It
 * leaves sooner once nobody is in it; the store keeps it. */
#define SERVER_ENDED_KEEP_SEC 600

#define SERVER_NAME_MAX 16 /* a player's name, without its NUL */
#define SERVER_ROOM_ID_MAX 24
#define SERVER_MOVE_TEXT_MAX 64
#define SERVER_SENTENCE_MAX 160

struct config {
	const char *listen[SERVER_LISTEN_MAX]; /* addresses; none: all */
	int nlisten;
	int port;
	const char *db;      /* data file, ":memory:" for none, or a URL */
	const char *copy_db; /* --copy-db FROM: copy it to copy_to, exit */
	const char *copy_to;
	const char *data_dir;
	int sync_full;
	int store_give_up;    /* seconds a failing store is tried */
	const char *log_file; /* NULL: stderr */
	int log_level;
	int daemon;
	const char *pidfile;
	size_t max_line;
	int max_clients;
	int max_rooms_per_player;
	int max_watchers;
	int grace_sec;
	int idle_sec;
	size_t output_max;
	int rate;
	int burst;
	int bot_delay_ms;
	int adjourn_days;
	int ended_keep_sec; /* a finished room's time in memory at most */
	int workers;        /* search threads */
	long hint_nodes;    /* a hint's search bound */
	int backlog;        /* listen() backlog */
	int hint_ms;        /* a hint's time bound */
	int bot_max_ms;     /* the longest a bot thinks */
	int bot_pace_ms;    /* the least pause between bot-versus-bot moves */
	int addr_rate;      /* messages per second per address; 0: default */
	int addr_burst;
	int login_fails; /* failed logins per minute per address */
	int max_per_addr;
	int lobby_idle_sec;
	int new_names; /* identities per address per hour */
	int unplayed_days;
	int games_per_hour;  /* finished games kept per identity per hour */
	int keep_games_days; /* finished games kept this long; 0: forever */
	int rooms_page;
	int waiting_expire_sec;
	size_t output_total_max;
	int web_port; /* -1: no web port */
	const char *web_dir;
	const char *web_origin[SERVER_LISTEN_MAX];
	int nweb_origin;
	int tls_port; /* -1: no TLS port */
	const char *tls_cert, *tls_key;
	int max_seeks; /* open seeks on the server (seek.h) */
	const char
	    *redis; /* HOST:PORT: a cluster node (cluster.c); NULL: alone */
	const char *node; /* the node's id in the cluster; NULL: made up */
	const char *proxy_from; /* trusted PROXY protocol sources (proxy.c) */
};

/* A token bucket (bucket.c). */
struct bucket {
	double tokens;
	int64_t at; /* last refill, monotonic ms */
	int used;   /* 0: never used (counts as full) */
};

/* What one address ("a:...") or one case-folded name ("n:...") did
 * lately, across its connections. */
struct limit_entry {
	struct table_link link; /* in srv->limits, by key */
	char key[SERVER_LIMIT_KEY];
	int refs;            /* connections holding it */
	struct bucket msgs;  /* messages */
	struct bucket fails; /* failed logins */
	struct bucket names; /* new identities (addresses) */
	struct bucket games; /* finished games kept */
	/* An address's use on the other nodes of a cluster as last read
	 * (cluster_limit.c): current while remote_gen is srv->limit_gen;
	 * messages and failed logins drain from remote_at on, as a bucket
	 * refills. */
	unsigned remote_gen;
	int remote_conns;
	double remote_msgs, remote_fails;
	int64_t remote_at;
};

enum conn_mode { CONN_MODE_UNSET, CONN_MODE_JSON, CONN_MODE_TEXT };

enum conn_state {
	CONN_OPEN,
	CONN_FLUSHING, /* reading stopped; closed once the output is sent */
	CONN_DEAD,     /* freed by the reaper, outside any callback */
};

/* An unordered set of pointers, each member keeping its index (slots.c). */
struct slots {
	void **v;
	int n, cap;
};

struct conn {
	TAILQ_ENTRY(conn) entry;
	TAILQ_ENTRY(conn) flush_entry; /* in srv->to_flush when flushing */
	TAILQ_ENTRY(conn) dead_entry;  /* in srv->dead once dead */
	int to_flush;                  /* listed in srv->to_flush */
	struct server *srv;
	struct bufferevent *bev;
	struct proto_framer *framer;
	int deferring; /* events go behind the reply (held.c's dhead) */
	uint64_t id;
	char addr[64];
	enum conn_mode mode;
	enum conn_state state;
	int waiting; /* a reply is being computed: read nothing more yet */
	struct player *player; /* NULL before hello */
	struct room *current;  /* the room verbs without a room act on */
	double tokens;         /* rate limit bucket */
	int64_t refill_ms;
	int refused; /* refused messages in a row */
	struct event *idle;
	struct limit_entry *lim_addr; /* the source address's limits */
	struct limit_entry *lim_name; /* the identity's, once logged in */
	int64_t last_ms;              /* last message, monotonic */
	int lingering;    /* closing: reading and dropping what comes */
	size_t discarded; /* bytes dropped while lingering */
	/* Output held until the change it depends on is committed, in
	 * order (held.c): while one of its replies is held, nothing more is
	 * read. */
	struct net_held *held; /* hq while anything is held, else NULL */
	struct net_held *hq;   /* held output (kept once made) */
	struct net_held *dq;   /* deferring: events behind a reply */
	size_t held_bytes;     /* in hq: waiting for the store */
	size_t deferred_bytes; /* in dq */
	int held_slot;         /* slot in srv->held_conns, or -1 */
	/* The op the newest of its held replies waits for (0: none): while
	 * that is not committed it reads nothing more (held_blocks). */
	uint64_t reply_held;
	int replying;   /* the message being sent is a reply (session_reply) */
	int bev_writes; /* bev is no plain socket's: it writes by itself */
	int relay;      /* bev is the server's end of a WebSocket (ws.c) */
	int guest;      /* player is an anonymous watcher (session.c) */
	struct route_home *route; /* cluster_route.c: owners it asked */
	int route_local;          /* cluster_route.c: run this line here */
	int route_proxy; /* cluster_route.c: another node's player's stand-in */
};
TAILQ_HEAD(conn_list, conn);

/*
 * A player: one identity in memory. Lifetime: made by player_get() at
 * hello (or when recovery seats a name), and kept while anything points at
 * it: its connection (conn) or a room it sits in, watches or created (each
 * such room is in p->rooms, and the room's seats, watchers and creator are
 * the only other pointers to a player). player_release() frees a player
 * once both are gone (offline, in no room); the rest are freed at
 * shutdown. So a struct player * in a seat or a watcher list is always
 * valid while the room holds it.
 */
struct player {
	struct table_link link; /* in srv->players, by name */
	char name[SERVER_NAME_MAX + 1];
	struct conn *conn;    /* NULL while offline */
	struct room **rooms;  /* rooms that hold this player (any order) */
	int nrooms, roomscap; /* at most the rooms per player plus those
	                         watched */
	int played;           /* has started a game (never pruned) */
};

/* The protocol's words for them (proto_room_status_name). */
enum room_status {
	ROOM_WAITING = PROTO_ROOM_WAITING,
	ROOM_PLAYING = PROTO_ROOM_PLAYING,
	ROOM_ENDED = PROTO_ROOM_ENDED,
	ROOM_ADJOURNED = PROTO_ROOM_ADJOURNED,
};

struct room_seat {
	struct player *player; /* NULL: free, or a bot */
	int bot;               /* bot level, 0 for a person */
	int depth;             /* the bot's search depth, 0: its level's */
	int gone;              /* the player's connection dropped */
	int64_t gone_ms;
	int64_t grace_told_ms; /* gone_ms of the absence whose grace_over
	                          was sent (grace.c) */
	int rematch;           /* asked for a rematch */
};

struct room_move {
	struct rules_move m;
	int seat; /* -1: played by the server (a pass) */
	char notation[SERVER_MOVE_TEXT_MAX];
	char sentence[SERVER_SENTENCE_MAX];
	int64_t clock_ms[2];
};

/*
 * A room in memory: unfinished rooms, and finished ones until their last
 * member leaves or SERVER_ENDED_KEEP_SEC pass (room_forget() then frees it;
 * the store keeps it). Found by id through the server's index.
 */
struct room {
	TAILQ_ENTRY(room) entry; /* all rooms, oldest first (rooms, shutdown) */
	struct table_link by_id; /* in srv->rooms_by_id */
	struct server *srv;
	char id[SERVER_ROOM_ID_MAX];
	long number;
	const struct rules_game *g;
	cJSON *options; /* object of strings: what the game was made with */
	struct rules_opt opts[PROTO_MAX_OPTIONS + 1];
	int nopts;
	void *st;    /* the position */
	void *start; /* the position the current game started from */
	enum room_status status;
	cJSON *result; /* the ended event's fields, NULL while not ended */
	struct room_seat seats[2];
	struct player **watchers;
	int nwatchers;
	struct room_move *hist;
	int nhist, histcap;
	long long seq;
	int seq_dirty;        /* an event's seq is not stored yet */
	long long seq_stored; /* the seq the store holds (or has reserved) */
	int game_no;
	int is_private;
	char creator[SERVER_NAME_MAX + 1];
	int64_t clock_initial_ms, clock_inc_ms; /* 0: no clock */
	int64_t clock_ms[2];
	int64_t turn_start_ms;
	struct event *flag_timer;
	struct event *bot_timer;
	int bot_pending;
	int draw_offer;     /* seat that offered a draw, or -1 */
	int takeback_offer; /* seat that asked for a take-back, or -1 */
	int64_t created_ms, updated_ms;
	int64_t ended_mono_ms;      /* when the game ended (monotonic) */
	struct event *retire_timer; /* finished: when to leave memory */
	int archive_due;            /* ended, not yet kept in the games table */
	int in_server;              /* room_add'ed (not one being created) */
	int solo_tries;   /* one player: restarts and failed ends at this level
	                     since it was last solved (record.c) */
	long long epoch;  /* cluster.c: this node's lease epoch, 0: alone */
	int64_t lease_ms; /* cluster.c: the lease last known held (mono) */
};
TAILQ_HEAD(room_list, room);

struct server {
	struct event_base *base;
	struct config cfg;
	struct store *store;  /* the writer: the store thread's */
	struct store *reader; /* the loop's reads (store.h) */
	/* Identities made and not yet known committed, newest first
	 * (player.c): the reader cannot see them yet. */
	struct player_fresh *fresh;
	struct evconnlistener *listeners[SERVER_LISTEN_MAX * 2];
	int nlisteners;
	struct event *accept_retry;
	struct event *reaper;
	struct conn_list dead; /* dead connections, for the reaper */
	/* Connections given output in this loop pass, written by the
	 * flusher event at its end (net.c). */
	struct conn_list to_flush;
	struct event *flusher;
	struct event *sig_term, *sig_int, *sig_hup;
	struct event *shutdown_timer;
	struct conn_list conns;
	int nconns;
	uint64_t next_conn_id;
	struct table players;     /* by name */
	struct room_list rooms;   /* every room in memory, oldest first */
	struct table rooms_by_id; /* the same rooms, by id */
	struct worker *worker;
	int shutting_down;
	struct table limits;      /* limit_entry by key */
	unsigned limit_gen;       /* the other nodes' reports read (limit.c) */
	struct bucket log_bucket; /* limit_log's */
	long log_suppressed;
	struct event *sweep;     /* housekeeping, every second */
	int64_t pruned_ms;       /* last prune of unplayed identities */
	int64_t games_pruned_ms; /* last prune of old finished games */
	size_t queued;           /* output queued for everyone, or more */
	struct storeq *storeq;   /* the store thread: every write goes there */
	struct slots held_conns; /* connections with held output */
	uint64_t committed;      /* every op up to this one is stored */
	int out_free; /* output made now depends on no change (ping) */
	struct proto_out encoded; /* net_send_msg's reused buffer */
	struct web *web;          /* the web listeners (web.c), or NULL */
	struct cluster *cluster;  /* the cluster (cluster.c), or NULL: alone */
	int nweb;            /* web.c's connections not yet handed to net.c */
	struct proxy *proxy; /* --proxy-from (proxy.c), or NULL */
	/* Ratings queued and not yet known committed (rating.c). */
	struct rating_fresh *rating_fresh;
	struct record_fresh *record_fresh; /* the same, of records.c */
	struct seek_pool *seeks; /* open seeks, memory only (seek.h) */
};

/* log.c */
enum { LOG_LEVEL_ERROR, LOG_LEVEL_WARN, LOG_LEVEL_INFO, LOG_LEVEL_DEBUG };
/* Client bytes shown in a log line at most. */
#define LOG_CLIENT_BYTES 128
int log_level_parse(const char *name);
void log_set_level(int level);
int log_open(const char *path);
void log_reopen(void);
void log_close(void);
void log_msg(int level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void fatal(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));
const char *log_sanitize(const char *in, size_t len, char *out, size_t outlen);
#define log_error(...) log_msg(LOG_LEVEL_ERROR, __VA_ARGS__)
#define log_warn(...) log_msg(LOG_LEVEL_WARN, __VA_ARGS__)
#define log_info(...) log_msg(LOG_LEVEL_INFO, __VA_ARGS__)
#define log_debug(...) log_msg(LOG_LEVEL_DEBUG, __VA_ARGS__)

/* flags.c: the flags' table; parsing, defaults and --help come from it */
void flags_defaults(struct config *cfg);
void flags_parse(struct config *cfg, int argc, char **argv);
int flags_set(struct config *cfg, const char *name, const char *arg, char *err,
    size_t errlen);
void flags_usage(FILE *out);

/* bucket.c */
void bucket_refill(struct bucket *b, double per_ms, double cap, int64_t now);
int bucket_has(struct bucket *b, double per_ms, double cap, int64_t now);
int64_t bucket_wait_ms(const struct bucket *b, double per_ms);

/* slots.c */
int slots_add(struct slots *s, void *p);
void *slots_del(struct slots *s, int slot);
void slots_free(struct slots *s);

/* xmalloc.c */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
void *xgrow(void *p, int n, int *cap, int first, size_t size);
char *xstrdup(const char *s);
void xmalloc_install(void);

/* daemon.c */
int daemon_detach(int *ready_fd, const char *log_file);
void daemon_ready(int fd);
int daemon_write_pidfile(const char *path);

/* clock.c (time helpers) */
int64_t clock_now_ms(void);  /* wall clock, ms since the epoch */
int64_t clock_mono_ms(void); /* monotonic ms */

/* net.c */
int net_listen(struct server *srv);
void net_start(struct server *srv);
void net_send(struct conn *c, const char *data, size_t len);
void net_send_msg(struct conn *c, const cJSON *msg);
/* One message encoded in one output mode. */
struct net_encoded {
	size_t len;
	char text[];
};
struct net_cache {
	/* each mode's encoding, made for its first recipient; NULL until
	 * then */
	struct net_encoded *json, *text;
};
void net_send_cached(struct conn *c, const cJSON *msg, struct net_cache *cache);
void net_cache_clear(struct net_cache *cache);
void net_close(struct conn *c, int flush);
void net_shutdown(struct server *srv);
void net_resume(struct conn *c);
void net_pause(struct conn *c);
void net_settle(struct server *srv);
void net_free_all(struct server *srv);
void net_linger_now(struct conn *c);
struct limit_entry *net_admit(
    struct server *srv, evutil_socket_t fd, const struct sockaddr *sa);
int net_admit_room(struct server *srv, evutil_socket_t fd);
/* net_conn_new's flags. */
#define NET_BEV_WRITES 1 /* the bufferevent writes by itself (TLS) */
#define NET_RELAY 2      /* the server's end of a WebSocket's pair */
struct conn *net_conn_new(struct server *srv, struct bufferevent *bev,
    const char *addr, struct limit_entry *lim, int flags);
void net_addr_words(const struct sockaddr *sa, char *buf, size_t len);
int net_bind_port(struct server *srv, const char *host, int port,
    evconnlistener_cb cb, struct evconnlistener **out, int max,
    const char *what);

/* proxy.c */
/* Where a trusted connection goes once its header is read: the listener's
 * accept, with the client's address (arg: the listener's own). */
typedef void proxy_done_fn(
    struct server *srv, evutil_socket_t fd, const struct sockaddr *sa, int arg);
int proxy_check_flag(const char *list, char *err, size_t errlen);
int proxy_init(struct server *srv);
int proxy_waiting(const struct server *srv);
int proxy_take(struct server *srv, evutil_socket_t fd,
    const struct sockaddr *sa, socklen_t salen, proxy_done_fn *done, int arg);
void proxy_stop(struct server *srv);
void proxy_free_all(struct server *srv);

/* replay.c */
int replay_at(
    const struct room *r, long long at, cJSON *state, char *err, size_t errlen);

/* web.c */
struct ssl_ctx_st;
int web_listen(struct server *srv);
void web_stop(struct server *srv);
void web_free_all(struct server *srv);

/* ws.c */
int ws_accept(struct server *srv, struct bufferevent *bev, const char *key,
    const char *addr, struct limit_entry *lim, int flags);
void ws_free_all(struct server *srv);

/* tls.c */
struct ssl_ctx_st *tls_server_ctx(const char *cert, const char *key);
struct bufferevent *tls_accept(
    struct server *srv, struct ssl_ctx_st *ctx, evutil_socket_t fd);
void tls_free(struct ssl_ctx_st *ctx);

/* held.c */
uint64_t held_tag(struct conn *c);
void held_add(struct conn *c, const char *data, size_t len);
void held_go_on(struct conn *c);
int held_blocks(const struct conn *c);
void held_end_deferring(struct conn *c);
void held_release(struct server *srv, uint64_t committed);
void held_free(struct conn *c);

/* limit.c */
struct sockaddr;
struct limit_entry *limit_get(struct server *srv, const char *key);
struct limit_entry *limit_name(struct server *srv, const char *name);
void limit_addr_key(const struct sockaddr *sa, char *key, size_t len);
void limit_sweep(struct server *srv);
void limit_free_all(struct server *srv);
double limit_fails_cap(const struct server *srv, const struct limit_entry *e);
int limit_fails_ok(struct server *srv, struct limit_entry *e, int64_t *wait_ms);
void limit_fails_take(struct server *srv, struct limit_entry *e);
double limit_games_cap(const struct server *srv, const struct limit_entry *e);
int limit_games_ok(struct server *srv, const char *name,
    struct limit_entry *addr, char *why, size_t len);
void limit_games_take(
    struct server *srv, const char *name, struct limit_entry *addr);
int limit_games_check(struct conn *c, const struct proto_request *req);
int limit_names_take(
    struct server *srv, struct limit_entry *e, int64_t *wait_ms);
int limit_addr_msgs_has(struct server *srv, struct limit_entry *a, int64_t now);
int limit_remote_conns(const struct server *srv, const struct limit_entry *e);
double limit_used_msgs(struct server *srv, struct limit_entry *e, int64_t now);
double limit_used_fails(struct server *srv, struct limit_entry *e, int64_t now);
void limit_remote_add(struct server *srv, struct limit_entry *e, int conns,
    double msgs, double fails, int64_t now);
void limit_log(struct server *srv, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* grace.c */
void grace_check(struct room *r, int64_t now);

/* bare.c */
enum proto_error bare_line(struct conn *c, const char *line, size_t len,
    struct proto_request *req, enum proto_error e, char *err, size_t errlen);
void bare_prompt(struct conn *c, const cJSON *msg);

/* session.c */
void session_open(struct conn *c);
void session_line(struct conn *c, const char *line, size_t len);
void session_closed(struct conn *c);
void session_logged_in(struct conn *c);
void session_reply(struct conn *c, cJSON *reply);
void session_store_done(void *arg, uint64_t committed, int failing);
void session_error(struct conn *c, const struct proto_request *req,
    enum proto_error e, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* player.c */
/* Random bytes in a token: 128 bits cannot be guessed. */
#define PLAYER_TOKEN_BYTES 16
struct player *player_find(struct server *srv, const char *name);
struct player *player_get(struct server *srv, const char *name);
int player_name_valid(const char *name);
void player_free_all(struct server *srv);
void player_release(struct server *srv, struct player *p);
void player_played(struct server *srv, struct player *p);
void player_played_in(struct room *r);
void player_prune(struct server *srv);
void player_committed(struct server *srv, uint64_t committed);
void player_room_add(struct player *p, struct room *r);
void player_room_del(struct player *p, struct room *r);
struct store_identity;
int player_authenticate(struct conn *c, const struct proto_request *req,
    char *token_out, size_t toklen, struct store_identity *id, int *is_new);
void player_replace(struct player *p);

/* room.c */
const char *room_status_name(enum room_status s);
cJSON *room_summary(const struct room *r);
cJSON *room_clock_summary(long long initial_ms, long long inc_ms);
struct room *room_find(struct server *srv, const char *id);
struct room *room_new(struct server *srv, const struct rules_game *g,
    cJSON *options, int game_no, char *err, size_t errlen);
void room_add(struct room *r);
void room_forget(struct room *r);
void room_free(struct room *r);
int room_reset_options(struct room *r, cJSON *o, char *err, size_t errlen);
long room_level_after(const struct room *r);
void room_free_all(struct server *srv);
void room_sync_member(struct room *r, struct player *p);
int room_add_watcher(struct room *r, struct player *p);
void room_check_retire(struct room *r);
int room_seat_of(const struct room *r, const struct player *p);
int room_is_watcher(const struct room *r, const struct player *p);
int room_count_for(const struct player *p);
struct room **room_sorted(const struct player *p, int *n);
cJSON *room_state(const struct room *r);
cJSON *room_state_since(const struct room *r, int since);
int room_picture(const struct room *r, char *buf, size_t len);
void room_add_picture(const struct room *r, cJSON *ev);
cJSON *room_event(struct room *r, enum proto_event_kind e);
void room_broadcast(struct room *r, cJSON *ev);
void room_save(struct room *r);
void room_commit(struct room *r, int nevents, int truncate_from);
void room_start_prepare(struct room *r);
int room_start_nevents(const struct room *r);
void room_start_announce(struct room *r);
void room_end_prepare(
    struct room *r, const char *result, int winner, const char *reason);
void room_end_announce(struct room *r);
void room_end(
    struct room *r, const char *result, int winner, const char *reason);
int room_play(
    struct room *r, int seat, struct rules_move m, char *err, size_t errlen);
void room_after_move(struct room *r);
void room_player_gone(struct room *r, struct player *p);
void room_player_back(struct room *r, struct player *p);
void room_remove_watcher(struct room *r, struct player *p);
void room_replay(struct room *r, int nmoves);
void room_hist_push(struct room *r, const struct room_move *mv);
void room_schedule_bot(struct room *r);
void room_bot_retry(struct room *r);
void room_clock_arm(struct room *r);
void room_recovered(struct room *r);

/*
 * cmd_*.c: the verbs, one handler cmd_<name> per verb of PROTO_VERBS
 * (cmd_session.c: hello, ping, quit, mode; cmd_lobby.c: games, rooms, help,
 * who, chat; cmd_room.c: entering, leaving and looking at rooms;
 * cmd_play.c: the verbs of play). session.c finds them by the same list.
 */
typedef void cmd_fn(struct conn *c, const struct proto_request *req);
#define SERVER_CMD_DECLARE(upper, lower) cmd_fn cmd_##lower;
PROTO_VERBS(SERVER_CMD_DECLARE)
#undef SERVER_CMD_DECLARE

/* cmd_room.c */
struct room *cmd_room_arg(struct conn *c, const struct proto_request *req);
void cmd_export_room(struct conn *c, const struct proto_request *req,
    const struct room *r, const cJSON *seats);
int cmd_chat_fits(struct conn *c, const struct proto_request *req);
int cmd_seat_index(const struct rules_game *g, const char *s);
int cmd_store_failing(struct conn *c, const struct proto_request *req);

/* cmd_play.c */
void cmd_auto_next(struct room *r);
void cmd_hint_done(struct conn *c, const struct proto_request *req,
    const char *room, int verdict, const char *move);

/* worker.c: bot searches off the event loop */
struct worker *worker_new(struct server *srv);
void worker_free(struct worker *w);
void worker_bot(struct worker *w, struct room *r, int seat);
void worker_cancel_conn(struct worker *w, uint64_t conn);
void worker_hint(struct worker *w, struct room *r, struct conn *c,
    const struct proto_request *req);

/* archive.c: finished games kept in the store */
void archive_game(struct room *r);
int archive_recent(struct server *srv, const char *game, cJSON *list);
void archive_show(struct conn *c, const struct proto_request *req);
char *archive_record(const struct room *r, const cJSON *seats);
int archive_just_advanced(const struct room *r);

/* sweep.c: housekeeping every second */
void sweep_start(struct server *srv);
void sweep_stop(struct server *srv);

/* recover.c */
int recover_rooms(struct server *srv);
struct store_room;
struct store_move;
struct room *recover_room(struct server *srv, const struct store_room *sr,
    const struct store_move *moves, int nmoves);

/* rating.c: rated games (Glicko-2, glicko.c) */
/* The create option that says whether a two-player game is rated. */
#define RATING_OPT "rated"
/* A game's pool: its name and the options rated apart ("ataxx size=9"). */
#define RATING_POOL_MAX 64
/* A rating is provisional (shown with '?') while its deviation is at or
 * above this: about three new games against established players. */
#define RATING_PROVISIONAL_RD 110.0
void rating_pool(const struct rules_game *g, const struct rules_opt *opts,
    int nopts, char *buf, size_t len);
int rating_provisional(double rd);
int rating_of(struct server *srv, const char *name, const struct rules_game *g,
    const cJSON *options, int *provisional);
void rating_committed(struct server *srv, uint64_t committed);
void rating_prune(struct server *srv);
struct store_rating;
void rating_fresh_each(struct server *srv, const char *name,
    void (*cb)(void *arg, const struct store_rating *r), void *arg);
int rating_option_check(
    const struct rules_game *g, const cJSON *options, char *err, size_t errlen);
void rating_game_end(struct room *r, const char *result, int winner);

/* record.c: one-player records */
struct store_record;
int record_by_level(const struct rules_game *g);
void record_fresh_each(struct server *srv, const char *name,
    void (*cb)(void *arg, const struct store_record *r), void *arg);
void record_committed(struct server *srv, uint64_t committed);
void record_game_end(struct room *r, const char *result);

/* store/write.c: the server's objects as store ops */
void write_room(struct room *r);
void write_move(struct room *r, const struct room_move *mv, int ply);

#endif
