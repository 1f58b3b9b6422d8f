/*
 * core.h: players and rooms in memory, the games they play, the bots'
 * and hints' threads, recovery, the archive of finished games and the
 * store ops of rooms and moves.
 */
#ifndef TABLERO_SERVER_CORE_H
#define TABLERO_SERVER_CORE_H

#include "server/net/net.h"
#include "server/store/store.h"

/* Why a game is not rated, in words ("the players share an address"),
 * with room to spare. */
#define RATING_WHY_MAX 128

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
	int64_t created_ms; /* when the identity was made; 0: not known */
	char addr[SERVER_LIMIT_KEY]; /* its last address's key ("" none) */
	struct conn *conn;           /* NULL while offline */
	struct room **rooms;  /* rooms that hold this player (any order) */
	int nrooms, roomscap; /* at most the rooms per player plus those
	                         watched */
	int played;           /* has started a game (never pruned) */
	/* The names this player blocks (block.c), read at hello; NULL
	 * before (the store has them). */
	struct block_list *blocks;
	/* Tells and invites to this player lately (cmd_social.c): at most
	 * SERVER_HEARD_PER_SEC a second, whoever sends them. */
	struct bucket heard;
	/* The room of the last invitation this player heard (cmd/bare.c),
	 * where a join without a room goes; "" none. */
	char invited[SERVER_ROOM_ID_MAX];
	/* The player's ratings, for who (club/rating.c): {pool: [rating,
	 * rd, games]}, read at hello and kept current as rated games end
	 * here; NULL before. */
	cJSON *ratings;
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
	/* A bot's last search (worker.c): its score for itself, in its
	 * engine's units (ai.h's ai_report), and the game_no it was made in
	 * (0: none yet); what it answers a draw offer with. */
	int bot_score;
	int bot_score_game;
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
	/* The clocks are stopped since then (mono ms; 0: running): the
	 * cluster cut a player off (room_clock_stop). */
	int64_t clock_stop_ms;
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
	int solo_tries; /* one player: restarts and failed ends at this level
	                   since it was last solved (record.c) */
	/* Whether the game under way is rated, decided at its start by the
	 * club (rating.c), stored with the room and said in its started
	 * and ended events: -1 not decided (a one-player game, a room from
	 * before), 1 rated, 0 not, with why in unrated. */
	int rated;
	char unrated[RATING_WHY_MAX];
	/* Watchers' comings and goings (room_watcher_news): told one by one
	 * within this bucket, else counted in a watchers event the timer
	 * sends when dirty. */
	struct bucket watcher_news;
	int watchers_dirty;
	struct event *watchers_timer;
	cJSON *chat;      /* chat.c: the last lines of its chat, or NULL */
	long long epoch;  /* cluster.c: this node's lease epoch, 0: alone */
	int64_t lease_ms; /* cluster.c: the lease last known held (mono) */
};
/* replay.c */
int replay_at(
    const struct room *r, long long at, cJSON *state, char *err, size_t errlen);

/* grace.c */
void grace_check(struct room *r, int64_t now);

/*
 * The cluster, seen from below it (cluster/ fills the table when --redis
 * is given; srv->cluster_ops is NULL on a single node, and every caller
 * tests that first, as PostgreSQL's code tests a hook pointer). The
 * layers below name no cluster function, so a build without cluster/
 * links (make tablerod-alone).
 */
struct cluster_ops {
	/* 1 when the node takes logins (Redis reached) */
	int (*ready)(const struct server *srv);
	/* a request line for a room another node owns goes there: 1 when
	 * taken (its reply and events come back through Redis), 0 when it
	 * runs here */
	int (*route)(struct conn *c, const struct proto_request *req,
	    const char *line, size_t len);
	/* a shorthand line that is no verb, from a connection whose current
	 * room another node holds: sent there, where it may be a bare move;
	 * 1 when sent, 0 when it is this node's to refuse */
	int (*route_bare)(struct conn *c, const char *line, size_t len);
	/* a connection here closed: its stand-ins elsewhere go too */
	void (*conn_closed)(struct conn *c);
	/* c logged in here: its presence; its older connection on another
	 * node is closed */
	void (*hello)(struct conn *c);
	/* the unfinished rooms p sits in that this node does not hold, as
	 * the store has them, added to hello's list `rooms` */
	void (*hello_rooms)(
	    struct server *srv, const struct player *p, cJSON *rooms);
	/* the other nodes' public rooms that req's filters let through,
	 * added to list (`rooms`) */
	void (*lobby_rooms)(const struct server *srv,
	    const struct proto_request *req, cJSON *list);
	/* the other nodes' players merged into list by name (`who`): how
	 * many were added, guests counted into *guests */
	int (*lobby_who)(const struct server *srv, cJSON *list, int *guests);
	/* the unfinished rooms p created or sits in on other nodes (from
	 * the store), for the rooms-per-player limit */
	int (*rooms_elsewhere)(struct server *srv, const struct player *p);
	/* the public rooms name sits in on other nodes, added to list as
	 * finger's "playing" entries unless list has them already */
	void (*finger_rooms)(
	    const struct server *srv, const char *name, cJSON *list);
	/* 1 when name is logged in on another live node */
	int (*online)(const struct server *srv, const char *name);
	/* send ev to name, logged in on another node, through a stand-in
	 * there; nothing when it is nowhere */
	void (*deliver)(struct server *srv, const char *name, const cJSON *ev);
	/* 1 when seeks and tournaments are this node's (the club's lease) */
	int (*club_here)(const struct server *srv);
	/* 1 after refusing req (not_ready) when the club is another node's */
	int (*club_refuse)(struct conn *c, const struct proto_request *req);
	/* 1 when room id, not in this node's memory, may be on another node */
	int (*club_room_away)(const struct server *srv, const char *id);
	/* a tournament's room ended on a node that is not the club's: its
	 * result goes to the club's node (0), or -1 when this node is it */
	int (*club_room_ended)(struct room *r, int winner, const char *reason);
	/* 1 when c is another node's player's stand-in here */
	int (*is_standin)(const struct conn *c);
	/* an operator's act made (and stored) here, for every other live
	 * node to apply to its memory and its connections:
	 * cmd_moderate_remote's acts */
	void (*admin)(struct server *srv, const char *act, const char *target,
	    long long until_ms, const char *admin, long long made_ms);
};

/* block.c */
int block_load(struct server *srv, struct player *p);
void block_free(struct player *p);
int block_has(const struct player *p, const char *name);
int block_refuses(struct server *srv, const char *to, const char *from);
int block_add(struct server *srv, struct player *p, const char *shown);
int block_del(
    struct server *srv, struct player *p, const char *name, char *shown);
cJSON *block_json(const struct player *p);

/* player.c */
/* Random bytes in a token: 128 bits cannot be guessed. */
#define PLAYER_TOKEN_BYTES 16
/* A token's hash as stored: BLAKE2b-256 as hex, with its NUL. */
#define PLAYER_HASH_HEX 65
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

int player_throttled(
    struct conn *c, const struct proto_request *req, const char *name);
void player_failed(struct conn *c, const struct proto_request *req,
    const char *name, enum proto_error code, const char *why);
void player_token_new(char *token, size_t len);
void player_token_hash(const char *token, char *hex);
void player_replace(struct player *p);

/* password.c: accounts (passwords, and the tokens password logins give) */
/* The shortest password: 8 bytes, so that guessing one at the
 * throttled rate of failed logins takes years. */
#define PASSWORD_MIN 8
/* argon2id's costs: OWASP's recommended minimum (2 passes over 19 MiB,
 * one lane), some 20-50 ms of one search thread per hash; never on the
 * loop. A thread at a time holds 19 MiB while it hashes. */
#define PASSWORD_OPSLIMIT 2
#define PASSWORD_MEMLIMIT (19u * 1024 * 1024)
/* Tokens password logins gave one identity that stay good: a person's
 * machines and browsers; the oldest go past it, so logins from
 * everywhere cannot grow the store. */
#define PASSWORD_DEVICES 8
/* What a password task found, back on the loop: req holds the request's
 * verb, cmd, id and name; id the identity it was started with. */
struct password_result {
	struct proto_request req;
	struct store_identity id;
	int ok;           /* the given password matched (or none was given) */
	int failed;       /* hashing failed (out of memory) */
	char hashed[128]; /* the fresh password's hash (crypto_pwhash_STRBYTES)
	                   */
};
typedef void password_done_fn(struct conn *c, struct password_result *res);
int player_authenticate(struct conn *c, const struct proto_request *req,
    char *token_out, size_t toklen, struct store_identity *id, int *is_new,
    password_done_fn *pw_done);
int password_length_ok(const char *pw);
int password_stored(struct server *srv, const char *name, char *out);
void password_put(struct server *srv, const char *name, const char *hashed);
int password_device_find(
    struct server *srv, const char *name, const char *hash, int *found);
void password_device_put(
    struct server *srv, const char *name, const char *hash);
void password_check(struct conn *c, const struct proto_request *req,
    const struct store_identity *id, const char *stored, const char *given,
    const char *fresh, password_done_fn *done);
int player_online(struct server *srv, const char *name);
void player_send(struct server *srv, const char *name, const cJSON *ev);

/*
 * What the layers above rooms do when a room changes: the club settles
 * seeks when a game starts and rates, records and scores it when it ends;
 * the cluster takes and gives back a room's lease and keeps its watchers
 * in Redis. Each registers a table at start (room_hooks_add), as
 * PostgreSQL's optional parts attach through hook pointers, so room.c
 * names neither. A member may be NULL; tables run in the order they were
 * registered.
 */
struct room_hooks {
	/* r joined the server's rooms (room_add) */
	void (*added)(struct room *r);
	/* r leaves memory (room_forget), still whole */
	void (*gone)(struct room *r);
	/* p came to watch r (add 1) or stopped (add 0) */
	void (*watcher)(struct room *r, struct player *p, int add);
	/* a game begins in r, in memory, before its commit */
	void (*started)(struct room *r);
	/* r's game is over, in memory, before its commit: r->result is
	 * made and may take more fields (a rating's change) */
	void (*ended)(
	    struct room *r, const char *result, int winner, const char *reason);
};
void room_hooks_add(struct server *srv, const struct room_hooks *h);

/* The create option that says whether a two-player game is rated: the
 * server's (club/rating.c reads it), never passed to the game's rules. */
#define RATING_OPT "rated"

/* chat.c: the last lines of a room's chat, for join, watch and state */
void chat_keep(
    struct room *r, const char *from, const char *text, long long seq);
void chat_add(const struct room *r, cJSON *st, const struct player *viewer);

/* lobby.c: rooms_changed for the connections that asked (hello's lobby) */
void lobby_touch(struct room *r);
void lobby_event(struct room *r, const cJSON *ev);
void lobby_free(struct server *srv);

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
int room_guests(const struct room *r);
int room_watcher_news(struct room *r);
void room_check_retire(struct room *r);
int room_seat_index(const struct rules_game *g, const char *s);
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
int64_t room_clock_now(const struct room *r);
void room_clock_stop(struct room *r);
void room_clock_go(struct room *r);
void room_recovered(struct room *r);
/* worker.c: bot searches off the event loop */
struct worker *worker_new(struct server *srv);
void worker_free(struct worker *w);
void worker_bot(struct worker *w, struct room *r, int seat);
void worker_cancel_conn(struct worker *w, uint64_t conn);
int worker_jobs(const struct worker *w);
/* A hint's answer, on the loop: req holds the request's verb, cmd and id;
 * verdict an enum ai_verdict; move NULL when none was found. */
typedef void worker_hint_fn(struct conn *c, const struct proto_request *req,
    const char *room, int verdict, const char *move);
void worker_hint(struct worker *w, struct room *r, struct conn *c,
    const struct proto_request *req, worker_hint_fn *done);
/* A task's work, on a search thread (it touches nothing of the loop's),
 * and its end, on the loop: c is NULL when the connection is gone. */
typedef void worker_task_fn(void *arg);
typedef void worker_task_done_fn(struct conn *c, void *arg);
void worker_task(struct worker *w, struct conn *c, worker_task_fn *task,
    worker_task_done_fn *done, void *arg);

/* archive.c: finished games kept in the store */
/* Finished games one page of `rooms ended` or `history` lists at most,
 * newest first: a screenful, and a bounded query however long the server
 * runs. */
#define ARCHIVE_LIST_MAX 50
/* A page's cursor as text: "ENDED_MS.ID", two 64-bit numbers. */
#define ARCHIVE_CURSOR_MAX 48
/* One page of finished games, read by archive_recent_in or
 * archive_games_of_in: from `from` on ({0, 0}: the newest), its summaries
 * into list; n of them, more when older ones remain, next the cursor of
 * the page after. */
struct archive_page {
	cJSON *list;
	struct store_cursor from;
	int n, more;
	char next[ARCHIVE_CURSOR_MAX];
};
void archive_game(struct room *r);
int archive_cursor_parse(const char *text, struct store_cursor *out);
int archive_recent_in(
    struct store *st, const char *game, struct archive_page *pg);
void archive_read_failed(
    struct conn *c, const struct proto_request *req, int rc);
struct room *archive_find(
    struct conn *c, const struct proto_request *req, cJSON **row);
cJSON *archive_state_of(const struct room *r, const cJSON *row);
int archive_visible(const struct conn *c, const cJSON *row);
int archive_games_of_in(
    struct store *st, const char *name, int own, struct archive_page *pg);
char *archive_record(const struct room *r, const cJSON *seats);
int archive_just_advanced(const struct room *r);

/* pages.c: pages of finished games read off the loop */
typedef void pages_done_fn(struct conn *c, const struct proto_request *req,
    cJSON *rep, const struct archive_page *pg, int rc);
int pages_open(struct server *srv, char *err, size_t errlen);
void pages_close(struct server *srv);
void pages_read(struct conn *c, const struct proto_request *req,
    const char *name, int own, const char *game,
    const struct store_cursor *from, cJSON *rep, cJSON *list,
    pages_done_fn *done);

/* recover.c */
int recover_rooms(struct server *srv);
struct store_room;
struct store_move;
struct room *recover_room(struct server *srv, const struct store_room *sr,
    const struct store_move *moves, int nmoves);

/* store/write.c: the server's objects as store ops */
void write_room(struct room *r);
void write_move(struct room *r, const struct room_move *mv, int ply);

#endif
