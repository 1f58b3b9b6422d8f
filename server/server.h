/*
 * server.h: tablerod's top: the limits on what clients may make the
 * server hold (each a default of a flag), the configuration, and the one
 * struct server that the event loop owns. Each folder's own types and
 * prototypes are in its header (base/base.h, net/net.h, core/core.h,
 * club/club.h, cmd/cmd.h, app/app.h; docs/HACKING.md has the map).
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
#include "server/base/base.h"
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
/* Descriptors kept beside the clients' and the listeners' ones (main.c
 * counts those): the data file with its WAL and shared memory, the log,
 * libevent's signal and wake-up pipes, the daemon's pipe, the workers'
 * and the store's wake-ups, and room to spare. */
#define SERVER_FD_RESERVE 32
/* Unfinished rooms one player may create or sit in: enough for a club
 * night, small enough that one name cannot fill the server. */
#define SERVER_ROOMS_PER_PLAYER 16
/* Spectators per room: every one costs a copy of every event. */
#define SERVER_WATCHERS_MAX 64
/* Guests (watchers without a name) may take 1/SHARE of a room's watcher
 * slots (--max-watchers): anyone can open guest connections without a
 * name, and would otherwise take every slot (issue 30), leaving none for
 * the players' friends. */
#define SERVER_GUEST_WATCHERS_SHARE 2
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
/* The server's own listeners (the web and TLS ones are web.c's): the
 * line protocol's and --metrics-port's, two an address at most. */
#define SERVER_LISTENERS_MAX (SERVER_LISTEN_MAX * 4)
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
/* Reads of the store a second that guests at one address may make
 * (history, `rooms ended`, a finished room no longer in memory), in
 * bursts of five times as many (limit.c): each is an indexed read of a
 * millisecond or two on the event loop, which a person needs a few of a
 * minute and a script could ask for at its message rate. */
#define SERVER_GUEST_READS 2
/* A game between two people is rated only when each has existed this
 * long (--rated-min-age) and has finished this many rated games, bots'
 * included (--rated-min-games), and they come from different addresses
 * (an IPv6 /64 counts as one): a name is free and made in a moment, so
 * without these anyone can feed a rating with throwaway names that lose
 * on purpose (issue 30: 1500 -> 2274 in 60 games). A day and five games:
 * a newcomer's first evening is rated against the bots, and a farm needs
 * names made a day before, each with five games played out, from other
 * addresses. docs/RULES.md, "Ratings". */
#define SERVER_RATED_MIN_AGE_SEC 86400
#define SERVER_RATED_MIN_GAMES 5
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
/* Room hook tables (core.h's struct room_hooks) at most: the club's and
 * the cluster's, and room to spare. */
#define SERVER_ROOM_HOOKS_MAX 4

/* Players one player may block: more than anyone needs against a few
 * nuisances; each is a row and a name in memory while they are here. */
#define SERVER_BLOCKS_MAX 100
/* Tells and invites one player may receive a second, from everyone
 * together, and in a burst: a conversation or a club's invitations
 * fit; ten names sending at their message rate (a hundred a second,
 * issue 30) do not. */
#define SERVER_HEARD_PER_SEC 2
#define SERVER_HEARD_BURST 10
/* Identities --admin may name: a club's few operators. */
#define SERVER_ADMINS_MAX 16
/* Bans and mutes in force at most (checked per connection and per
 * message, one short scan): an operator's list, not a firewall's. */
#define SERVER_SANCTIONS_MAX 4096
/* The longest mute, in minutes: a year; longer is a ban. */
#define SERVER_MUTE_MINUTES_MAX 525600

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
	int games_per_hour; /* finished games kept per identity per hour */
	int guest_reads;    /* guests' reads of the store per s per address */
	int rated_min_age_sec;  /* rated games: an identity's least age */
	int rated_min_games;    /* and its rated games finished */
	int rated_same_address; /* 1: two people on one address are rated */
	int tourney_expire_sec; /* an open tournament expires after this */
	int keep_games_days;    /* finished games kept this long; 0: forever */
	int rooms_page;
	int waiting_expire_sec;
	int challenge_expire_sec; /* a challenge (match) waits this long */
	size_t output_total_max;
	int web_port; /* -1: no web port */
	const char *web_dir;
	const char *web_origin[SERVER_LISTEN_MAX];
	int nweb_origin;
	int tls_port; /* -1: no TLS port */
	const char *tls_cert, *tls_key;
	int max_seeks; /* open seeks on the server (seek.h) */
	/* HOST:PORT or redis://[USER:PASSWORD@]HOST[:PORT]: a cluster node
	 * (cluster/); NULL (and no redis_sentinel): alone */
	const char *redis;
	const char
	    *redis_password_file;   /* AUTH's password (or USER PASSWORD) */
	const char *redis_sentinel; /* HOST:PORT,...: ask these for ... */
	const char *redis_master;   /* ... this master's address */
	const char *node;      /* the node's id in the cluster; NULL: made up */
	const char *node_link; /* HOST:PORT other nodes link to, or "off" */
	const char *proxy_from; /* trusted PROXY protocol sources (proxy.c) */
	const char *admin[SERVER_ADMINS_MAX]; /* operators' names (--admin) */
	int nadmin;
	int metrics_port;         /* -1: no metrics (app/metrics.c) */
	const char *metrics_from; /* who may scrape them */
};

TAILQ_HEAD(conn_list, conn);
TAILQ_HEAD(room_list, room);

struct server {
	struct event_base *base;
	struct config cfg;
	const struct conn_ops *conn_ops; /* the session's (net.h) */
	/* The layers above the rooms, told of their changes (core.h). */
	const struct room_hooks *room_hooks[SERVER_ROOM_HOOKS_MAX];
	int nroom_hooks;
	struct store *store;  /* the writer: the store thread's */
	struct store *reader; /* the loop's reads (store.h) */
	struct pages *pages;  /* page reads off the loop (core/pages.c) */
	/* Identities made and not yet known committed, newest first
	 * (player.c): the reader cannot see them yet. */
	struct player_fresh *fresh;
	struct evconnlistener *listeners[SERVER_LISTENERS_MAX];
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
	struct event *sweep;       /* housekeeping, every second */
	struct event *lobby_timer; /* the next rooms_changed (lobby.c) */
	int64_t lobby_sent_ms;     /* the last one, monotonic */
	int64_t pruned_ms;         /* last prune of unplayed identities */
	int64_t games_pruned_ms;   /* last prune of old finished games */
	size_t queued;             /* output queued for everyone, or more */
	struct storeq *storeq;   /* the store thread: every write goes there */
	struct slots held_conns; /* connections with held output */
	uint64_t committed;      /* every op up to this one is stored */
	int out_free; /* output made now depends on no change (ping) */
	struct proto_out encoded; /* net_send_msg's reused buffer */
	struct web *web;          /* the web listeners (web.c), or NULL */
	struct cluster *cluster;  /* the cluster's own (cluster.c), or NULL */
	/* The cluster for the layers below it (core.h), or NULL: alone. */
	const struct cluster_ops *cluster_ops;
	int nweb;            /* web.c's connections not yet handed to net.c */
	struct proxy *proxy; /* --proxy-from (proxy.c), or NULL */
	/* Ratings queued and not yet known committed (rating.c). */
	struct rating_fresh *rating_fresh;
	struct record_fresh *record_fresh; /* the same, of records.c */
	/* Kept messages queued and not yet known committed, and the time
	 * of the last one made (cmd/message.c). */
	struct message_fresh *message_fresh;
	int64_t message_last_ms;
	struct match *matches;   /* challenges waiting (club/match.c) */
	struct seek_pool *seeks; /* open seeks, memory only (seek.h) */
	struct metrics *metrics; /* --metrics-port (app/metrics.c), or NULL */
	/* Bans and mutes in force (cmd/sanction.c), or NULL before the
	 * store is read. */
	struct sanctions *sanctions;
};

#endif
