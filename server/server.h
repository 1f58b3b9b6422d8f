/*
 * server.h: tablerod's internal header: the limits, the structures that one
 * event loop owns (connections, players, rooms) and every server file's
 * prototypes, grouped by file.
 */
#ifndef TABLERO_SERVER_H
#define TABLERO_SERVER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/queue.h>

#include <event2/event.h>

#include "protocol/protocol.h"
#include "rules/rules.h"

struct bufferevent;
struct evbuffer;
struct evconnlistener;
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
/* Seconds a connection may stay without hello. */
#define SERVER_HELLO_IDLE_SEC 60
/* Seconds a gone player's seat is held before the opponent may claim. */
#define SERVER_GRACE_SEC 60
/* Seconds to flush a last message to a peer before closing anyway. */
#define SERVER_CLOSE_FLUSH_SEC 5
/* Moves in one game: past this the game is drawn ("move limit"), so a game
 * that cycles (Ataxx jumps) cannot grow without bound. */
#define SERVER_GAME_MOVES_MAX 5000
/* Days an adjourned room is kept before it is pruned at start. */
#define SERVER_ADJOURN_DAYS 30
/* Nodes a hint may search: a quarter of a second per million, so at most
 * about ten seconds of a search thread; shipped boards take milliseconds,
 * large generated ones may end "unknown". */
#define SERVER_HINT_NODES 30000000L
/* Search threads (bots and hints); each holds a position and a search
 * stack, and more than the processors only adds switching. */
#define SERVER_WORKERS_MAX 64
/* Listen addresses. */
#define SERVER_LISTEN_MAX 8
/* Player-name hash buckets. */
#define SERVER_PLAYER_BUCKETS 4096

#define SERVER_NAME_MAX 16 /* a player's name, without its NUL */
#define SERVER_ROOM_ID_MAX 24
#define SERVER_MOVE_TEXT_MAX 64
#define SERVER_SENTENCE_MAX 160

struct config {
	const char *listen[SERVER_LISTEN_MAX]; /* addresses; none: all */
	int nlisten;
	int port;
	const char *db; /* data file, ":memory:" for none */
	const char *data_dir;
	int sync_full;
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
	int workers;     /* search threads */
	long hint_nodes; /* a hint's search bound */
};

enum conn_mode { CONN_MODE_UNSET, CONN_MODE_JSON, CONN_MODE_TEXT };

enum conn_state {
	CONN_OPEN,
	CONN_FLUSHING, /* reading stopped; closed once the output is sent */
	CONN_DEAD,     /* freed by the reaper, outside any callback */
};

struct conn {
	TAILQ_ENTRY(conn) entry;
	struct server *srv;
	struct bufferevent *bev;
	struct proto_framer *framer;
	struct evbuffer *deferred; /* events held until the reply is sent */
	int deferring;
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
};
TAILQ_HEAD(conn_list, conn);

struct player {
	struct player *next; /* hash chain */
	char name[SERVER_NAME_MAX + 1];
	struct conn *conn; /* NULL while offline */
};

enum room_status {
	ROOM_WAITING,
	ROOM_PLAYING,
	ROOM_ENDED,
	ROOM_ADJOURNED,
};

struct room_seat {
	struct player *player; /* NULL: free, or a bot */
	int bot;               /* bot level, 0 for a person */
	int gone;              /* the player's connection dropped */
	int64_t gone_ms;
	int rematch; /* asked for a rematch */
};

struct room_move {
	struct rules_move m;
	int seat; /* -1: played by the server (a pass) */
	char notation[SERVER_MOVE_TEXT_MAX];
	char sentence[SERVER_SENTENCE_MAX];
	int64_t clock_ms[2];
};

struct room {
	TAILQ_ENTRY(room) entry;
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
	int seq_dirty; /* an event's seq is not stored yet */
	int game_no;
	int is_private;
	char creator[SERVER_NAME_MAX + 1];
	int64_t clock_initial_ms, clock_inc_ms; /* 0: no clock */
	int64_t clock_ms[2];
	int64_t turn_start_ms;
	struct event *flag_timer;
	struct event *bot_timer;
	int bot_pending;
	int draw_offer; /* seat that offered a draw, or -1 */
	int64_t created_ms, updated_ms;
	int broken; /* its replay failed: set aside */
};
TAILQ_HEAD(room_list, room);

struct server {
	struct event_base *base;
	struct config cfg;
	struct store *store;
	struct evconnlistener *listeners[SERVER_LISTEN_MAX * 2];
	int nlisteners;
	struct event *accept_retry;
	struct event *reaper;
	struct event *sig_term, *sig_int, *sig_hup;
	struct event *shutdown_timer;
	struct conn_list conns;
	int nconns;
	uint64_t next_conn_id;
	struct player *players[SERVER_PLAYER_BUCKETS];
	struct room_list rooms;
	long next_room;
	struct worker *worker;
	int shutting_down;
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
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
#define log_error(...) log_msg(LOG_LEVEL_ERROR, __VA_ARGS__)
#define log_warn(...) log_msg(LOG_LEVEL_WARN, __VA_ARGS__)
#define log_info(...) log_msg(LOG_LEVEL_INFO, __VA_ARGS__)
#define log_debug(...) log_msg(LOG_LEVEL_DEBUG, __VA_ARGS__)

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
struct net_cache {
	char *json, *text;
};
void net_send_cached(struct conn *c, const cJSON *msg, struct net_cache *cache);
void net_cache_clear(struct net_cache *cache);
void net_close(struct conn *c, int flush);
void net_shutdown(struct server *srv);
void net_resume(struct conn *c);
void net_pause(struct conn *c);
struct conn *net_find(struct server *srv, uint64_t id);
void net_free_all(struct server *srv);

/* session.c */
void session_open(struct conn *c);
void session_line(struct conn *c, const char *line, size_t len);
void session_closed(struct conn *c);
void session_reply(struct conn *c, cJSON *reply);
void session_error(struct conn *c, const struct proto_request *req,
    enum proto_error e, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* player.c */
struct player *player_find(struct server *srv, const char *name);
struct player *player_get(struct server *srv, const char *name);
int player_name_valid(const char *name);
void player_free_all(struct server *srv);
void player_hello(struct conn *c, const struct proto_request *req);
void player_who(struct conn *c, const struct proto_request *req);
void player_lobby_chat(struct conn *c, const struct proto_request *req);

/* lobby.c */
void lobby_games(struct conn *c, const struct proto_request *req);
void lobby_rooms(struct conn *c, const struct proto_request *req);
void lobby_help(struct conn *c, const struct proto_request *req);
cJSON *lobby_room_summary(const struct room *r);
cJSON *lobby_clock(long long initial_ms, long long inc_ms);
const char *lobby_status_name(enum room_status s);

/* room.c */
struct room *room_find(struct server *srv, const char *id);
struct room *room_new(struct server *srv, const struct rules_game *g,
    cJSON *options, int game_no, char *err, size_t errlen);
void room_free(struct room *r);
int room_reset_options(struct room *r, cJSON *o, char *err, size_t errlen);
long room_level_after(const struct room *r);
void room_free_all(struct server *srv);
int room_seat_of(const struct room *r, const struct player *p);
int room_is_watcher(const struct room *r, const struct player *p);
int room_count_for(struct server *srv, const struct player *p);
cJSON *room_state(const struct room *r);
int room_picture(const struct room *r, char *buf, size_t len);
cJSON *room_event(struct room *r, const char *name);
void room_broadcast(struct room *r, cJSON *ev);
void room_save(struct room *r);
void room_start(struct room *r);
void room_end(
    struct room *r, const char *result, int winner, const char *reason);
int room_play(
    struct room *r, int seat, struct rules_move m, char *err, size_t errlen);
void room_after_move(struct room *r);
void room_player_gone(struct room *r, struct player *p);
void room_player_back(struct room *r, struct player *p);
void room_remove_watcher(struct room *r, struct player *p);
void room_replay(struct room *r, int nmoves);
void room_schedule_bot(struct room *r);
void room_clock_arm(struct room *r);
void room_recovered(struct room *r);

/* cmd_room.c: the verbs that act on rooms */
void cmd_create(struct conn *c, const struct proto_request *req);
void cmd_join(struct conn *c, const struct proto_request *req);
void cmd_watch(struct conn *c, const struct proto_request *req);
void cmd_leave(struct conn *c, const struct proto_request *req);
void cmd_state(struct conn *c, const struct proto_request *req);
void cmd_moves(struct conn *c, const struct proto_request *req);
void cmd_say(struct conn *c, const struct proto_request *req);
void cmd_export(struct conn *c, const struct proto_request *req);
struct room *cmd_room_arg(struct conn *c, const struct proto_request *req);
void cmd_export_room(struct conn *c, const struct proto_request *req,
    const struct room *r, const cJSON *seats);
int cmd_seat_index(const struct rules_game *g, const char *s);

/* cmd_play.c: the verbs of play */
void cmd_move(struct conn *c, const struct proto_request *req);
void cmd_resign(struct conn *c, const struct proto_request *req);
void cmd_draw(struct conn *c, const struct proto_request *req);
void cmd_undo(struct conn *c, const struct proto_request *req);
void cmd_restart(struct conn *c, const struct proto_request *req);
void cmd_next(struct conn *c, const struct proto_request *req);
void cmd_auto_next(struct room *r);
void cmd_hint(struct conn *c, const struct proto_request *req);
void cmd_rematch(struct conn *c, const struct proto_request *req);
void cmd_claim(struct conn *c, const struct proto_request *req);
void cmd_hint_done(struct conn *c, const struct proto_request *req,
    const char *room, int verdict, const char *move);

/* worker.c: bot searches off the event loop */
struct worker *worker_new(struct server *srv);
void worker_free(struct worker *w);
void worker_bot(struct worker *w, struct room *r, int level);
void worker_cancel_conn(struct worker *w, uint64_t conn);
void worker_hint(struct worker *w, struct room *r, struct conn *c,
    const struct proto_request *req);

/* archive.c: finished games kept in the store */
void archive_game(struct room *r);
int archive_recent(struct server *srv, const char *game, cJSON *list);
void archive_history(struct conn *c, const struct proto_request *req);
void archive_show(struct conn *c, const struct proto_request *req);
char *archive_record(const struct room *r, const cJSON *seats);
int archive_just_advanced(const struct room *r);

/* recover.c */
int recover_rooms(struct server *srv);
void recover_persist_room(struct room *r);
int recover_store_move(struct room *r, const struct room_move *mv, int ply);

#endif
