/*
 * store.h: the store interface. A backend (sqlite.c, pg.c) is a table of
 * functions, struct store_backend; the server talks to a store only through
 * the store_* calls below, which pick the backend by the --db string. The
 * store knows no game: rooms carry their options, seats and results as JSON
 * text the server prepares.
 *
 * Writes are ops (struct store_op), built on the loop and committed by the
 * store thread (thread.c) in groups: one transaction per group, all or
 * nothing. Every op is idempotent (an upsert keyed as its comment says), so
 * a group retried after a commit whose outcome was unknown does no harm.
 * Reads run on their own connection (STORE_READER), so the loop never
 * waits for the writer; they see what is committed, nothing more.
 */
#ifndef TABLERO_STORE_STORE_H
#define TABLERO_STORE_STORE_H

#include <stddef.h>
#include <stdint.h>

/* One connection to a backend (opaque; each backend defines its own). */
struct store;
struct store_conn;

/* A room as stored. Strings are NUL-terminated; JSON fields are text. */
struct store_room {
	const char *id;      /* "r12" */
	const char *game;    /* wire name */
	const char *options; /* JSON object: the options it was made with */
	const char *seats;   /* JSON array: [{"name":"ana","bot":0}, ...] */
	const char *status;  /* "waiting", "playing", "ended", "adjourned" */
	const char *result;  /* JSON object, or NULL while not ended */
	const char *creator; /* name of the player who created it */
	int is_private;
	long long clock_initial_ms; /* 0: no clock */
	long long clock_increment_ms;
	int game_no;          /* 1, 2, ...: a rematch, restart or next level */
	long long created_ms; /* ms since the epoch */
	long long updated_ms;
	long long seq; /* the room's last event number */
	/* Whether its game is rated, decided at the game's start: NULL not
	 * decided, "" rated, else why not (club/rating.c). */
	const char *unrated;
};

/* One accepted move of a room's current game. */
struct store_move {
	int ply;               /* 1, 2, ... within (room, game_no) */
	int seat;              /* seat index that played it; -1 server (pass) */
	const char *move;      /* notation, as accepted */
	long long clock_ms[2]; /* clocks after the move; -1 without a clock */
	long long at_ms;       /* when it was played, ms since the epoch */
	long long seq;         /* the seq of its moved event */
};

/* A finished game as kept for good. Strings are NUL-terminated. */
struct store_game {
	long long id;         /* its number in the store, 1, 2, ... */
	const char *room;     /* "r12" */
	int game_no;          /* which game of the room */
	const char *game;     /* wire name */
	const char *options;  /* JSON object, as the room's */
	const char *seats;    /* JSON array: [{"seat":..,"name":..,"bot":..}] */
	const char *names[2]; /* the seated people's names, NULL: none */
	const char *result;   /* JSON object: the ended event's fields */
	int is_private;
	long long clock_initial_ms, clock_increment_ms; /* 0: no clock */
	long long started_ms; /* put: when there is no move, else ignored */
	long long ended_ms;
	int nmoves;
	const char *moves; /* JSON array: [{"seat":..,"move":..,"text":..}] */
	const char *start; /* position strings at the start and the end */
	const char *position;
};

/* Where a page of finished games starts: the games that ended before
 * this one (by ended_ms, then id), newest first. Both 0: from the
 * newest. */
struct store_cursor {
	long long ended_ms;
	long long id;
};

/* The longest a read a request makes may take (the lists of finished
 * games and a finished room's last game): it runs on the event loop, so
 * every other client waits that long. With its index one takes a
 * millisecond or two; past this the read is stopped and fails with
 * STORE_SLOW, so no stored data can make it stall the loop longer. */
#define STORE_READ_MS 50
/* What a read stopped at STORE_READ_MS returns (its errmsg says so). */
#define STORE_SLOW (-3)

/* An identity found by name whatever its case (the exact spelling first):
 * its name as registered, its token hash, whether it ever played, when
 * it was made and last said hello (ms since the epoch). */
struct store_identity {
	char name[64];
	char hash[128];
	int played;
	long long created_ms, seen_ms;
};

/* One person's Glicko-2 rating in one pool (a game and the options that
 * change its play: "ataxx size=9"), with their results there. */
struct store_rating {
	const char *name;
	const char *pool;
	double rating, rd, vol;
	int wins, draws, losses;
	long long updated_ms;
	/* On a put: the game that made the change ("ROOM/GAME_NO@ENDED_MS"),
	 * or NULL; a change whose game is stored already (rating_games) is
	 * not made again, so a group tried again after a commit that went
	 * through unseen changes the rating once. */
	const char *game;
	/* On a put: the rating and counts this change was worked out from.
	 * PostgreSQL adds the change to the row as it is then, so that two
	 * nodes ending games of one player at once lose neither (pg.c). */
	double before_rating;
	int before_wins, before_draws, before_losses;
};

/* One person's record in a one-player game: for a game with levels the
 * levels solved, the highest (best) and the fewest tries it took
 * (tries); for another the games solved and the fewest pieces left
 * (best; tries unused). */
struct store_record {
	const char *name;
	const char *game;
	int solved, best, tries;
	long long updated_ms;
};

/* The writes. a, b, c are the op's strings, n and m its numbers. */
enum store_op_kind {
	/* u.room; upsert keyed by room id. */
	STORE_OP_ROOM_SAVE,
	/* a room id: the room and its moves go (none: nothing). */
	STORE_OP_ROOM_DELETE,
	/* a room, n game_no, u.move; upsert keyed by (room, game_no, ply). */
	STORE_OP_MOVE_PUT,
	/* a room, n game_no, m ply: the moves from ply on go. */
	STORE_OP_MOVE_TRUNCATE,
	/* a name, b game, c JSON; upsert keyed by (name, game). */
	STORE_OP_PROGRESS_PUT,
	/* u.game; kept once per (room, game_no, ended_ms). */
	STORE_OP_GAME_PUT,
	/* a name, b token hash; upsert keyed by name. */
	STORE_OP_IDENT_PUT,
	/* a name: it sat in a game that started (never pruned). */
	STORE_OP_IDENT_PLAYED,
	/* a name, ms now: it logged in (the prune counts from then). */
	STORE_OP_IDENT_SEEN,
	/* ms: identities that never played, last seen before it and creating
	 * no unfinished room, go. */
	STORE_OP_IDENT_PRUNE,
	/* a status list ("adjourned", or several, comma-separated), ms: rooms
	 * in it last updated before ms go, with their moves. */
	STORE_OP_ROOM_PRUNE,
	/* ms, n: at most n finished games that ended before ms go, the
	 * oldest first (--keep-games-days). */
	STORE_OP_GAMES_PRUNE,
	/* u.rating; upsert keyed by (name, pool): the values after a game,
	 * once per (u.rating.game, name) (schema.c's rating_games). */
	STORE_OP_RATING_PUT,
	/* u.record; upsert keyed by (name, game): the values after a game. */
	STORE_OP_RECORD_PUT,
	/* u.row: a statement of fixed text, the same in both dialects (an
	 * upsert keyed as its text says, or a delete), run with the row's
	 * values as text: the tables of tourney.c (tstore.c). */
	STORE_OP_ROW,
};

/* The club's name where the fence names rooms (store_op_fence_key,
 * storeq's epoch and lost callbacks): never a room's id. */
#define STORE_CLUB_KEY "~club"

/* The most strings one op owns (a kept game has ten; a tournament's row
 * thirteen values). */
#define STORE_OP_STRS 16

/* A row op's statement and values (NULL: SQL NULL), $1.. in order. */
struct store_row {
	const char *what; /* its table, for errors */
	const char *sql;
	/* 1: a write of the club's (seeks, tournaments; storeq_club_row),
	 * fenced by the club's epoch as a room's ops by the room's (pg.c):
	 * its fence key is STORE_CLUB_KEY. */
	int club;
	/* Not NULL: the room whose fence it shares (storeq_room_row), as
	 * store_op_room gives it: written only while its room's ops are. */
	const char *room;
	int n;
	const char *vals[STORE_OP_STRS];
};

/* One write, its values copied: own[] holds every string it points at. */
struct store_op {
	struct store_op *next;
	enum store_op_kind kind;
	uint64_t change; /* the change it belongs to (thread.c) */
	const char *a, *b, *c;
	int n, m;
	long long ms;
	/* Not NULL: where commit adds the rows a prune removed (a backend
	 * that cannot count leaves it). */
	long *count;
	/* A cluster node's lease epoch on the op's room (store_op_room), 0:
	 * none. A backend shared by several nodes (pg.c) fences: when the
	 * room's stored owner_epoch is higher, another node took the room,
	 * and commit sets `fenced` on the op and returns STORE_FENCED. */
	long long epoch;
	int fenced;
	union {
		struct store_room room;
		struct store_move move;
		struct store_game game;
		struct store_rating rating;
		struct store_record record;
		struct store_row row;
	} u;
	char *own[STORE_OP_STRS];
	int nown;
};

/* Called by store_load for each room to rebuild, with its current game's
 * moves in order; return 0 to go on, -1 to stop with an error. */
typedef int (*store_room_cb)(void *arg, const struct store_room *r,
    const struct store_move *moves, int nmoves);
/* Called for each finished game a query finds; it must not use the store
 * (the query is still running) and its strings live until it returns. */
typedef void (*store_game_cb)(void *arg, const struct store_game *g);
/* Called for each rating a query finds; as store_game_cb. */
typedef void (*store_rating_cb)(void *arg, const struct store_rating *r);
/* Called for each one-player record a query finds; as store_game_cb. */
typedef void (*store_record_cb)(void *arg, const struct store_record *r);

/* Called by copy_read with each row, its columns as text (NULL: SQL
 * NULL); return 0 to go on, else the read stops with that value. */
typedef int (*store_row_cb)(void *arg, const char *const *vals);

struct store_table;

/* What commit returns, besides 0 and -1, when ops' rooms were taken by
 * another node (their `fenced` set): nothing of the group is written. */
#define STORE_FENCED (-2)

/* The most columns a rows read hands its callback. */
#define STORE_ROWS_COLS 8

/* store_open flags. */
enum {
	STORE_SYNC_FULL = 1, /* every commit waits for the disk (fsync) */
	STORE_READER = 2,    /* a connection for reads only: no migration */
};

/*
 * What a backend implements. Every int function returns 0 on success and
 * -1 on an error whose text errmsg gives. A writer connection is used by
 * the store thread alone, a reader by the loop alone.
 */
struct store_backend {
	const char *name; /* "sqlite", "postgresql": for logs */
	/* 1 when `where` (the --db string) is this backend's. */
	int (*handles)(const char *where);
	/* 1 when a reader of `where` must share the writer's connection (an
	 * in-memory database); NULL: never. */
	int (*reader_shares)(const char *where);
	/* Connect; a writer creates and migrates the schema. NULL with the
	 * reason in err (corrupt file, unreachable server, newer schema). */
	struct store_conn *(*open)(
	    const char *where, int flags, char *err, size_t errlen);
	void (*close)(struct store_conn *c);
	const char *(*errmsg)(struct store_conn *c);

	/* Write the ops in one transaction: all of them or, on -1 or
	 * STORE_FENCED, none (the backend leaves the connection ready for
	 * the next try). */
	int (*commit)(struct store_conn *c, const struct store_op *ops);
	/* Between groups, on the thread: housekeeping (a checkpoint); NULL
	 * when the backend has none. */
	int (*idle)(struct store_conn *c);

	/* Call cb for every room whose status is not "ended", oldest first,
	 * with its current game's moves. */
	int (*load)(struct store_conn *c, store_room_cb cb, void *arg);
	/* A room number never given out before, larger than any stored. */
	int (*room_number)(struct store_conn *c, long *n);
	int (*identity_find)(struct store_conn *c, const char *name,
	    struct store_identity *out, int *found);
	/* A player's one-player progress per game, JSON text. */
	int (*progress_get)(struct store_conn *c, const char *name,
	    const char *game, char *buf, size_t len, int *found);
	/* A page of the finished games that are not private (of one game
	 * when game is not NULL): at most `limit` from `from` on, newest
	 * first, walking one index in its order. Summaries: cb gets no
	 * moves, start or position (""). Bounded by STORE_READ_MS. */
	int (*games_recent)(struct store_conn *c, const char *game,
	    const struct store_cursor *from, int limit, store_game_cb cb,
	    void *arg);
	/* The same of the finished games name played (private ones too
	 * when with_private). */
	int (*games_of)(struct store_conn *c, const char *name,
	    int with_private, const struct store_cursor *from, int limit,
	    store_game_cb cb, void *arg);
	/* The last finished game of a room; *found is 0 when it has none.
	 * Bounded by STORE_READ_MS. */
	int (*game_last)(struct store_conn *c, const char *room,
	    store_game_cb cb, void *arg, int *found);
	/* The query plan of the read `what` ("games_of", "games_recent",
	 * "games_recent_game", "game_last"; SQLite also "game_put", the
	 * statements a game's end runs) in the backend's words, one step a
	 * line, into buf: for the tests that hold each read to its index.
	 * NULL: the backend cannot tell. */
	int (*plan)(
	    struct store_conn *c, const char *what, char *buf, size_t len);
	/* The bound of this connection's bounded reads, ms (STORE_READ_MS
	 * unless set; 0: every such read is stopped at once, for tests).
	 * NULL: the backend keeps STORE_READ_MS. */
	void (*set_read_ms)(struct store_conn *c, int ms);
	/* Every rating of name, by pool. */
	int (*ratings_of)(struct store_conn *c, const char *name,
	    store_rating_cb cb, void *arg);
	/* At most limit ratings of pool from the offset-th on, highest
	 * first (then by name): those whose deviation is below rd_bound, or
	 * (provisional) the others. */
	int (*ratings_top)(struct store_conn *c, const char *pool,
	    int provisional, double rd_bound, int offset, int limit,
	    store_rating_cb cb, void *arg);
	/* Every one-player record of name, by game. */
	int (*records_of)(struct store_conn *c, const char *name,
	    store_record_cb cb, void *arg);
	/* At most limit records of game from the offset-th on, the best
	 * first: by_level, the highest best then the fewest tries; else the
	 * most solved then the lowest best; then by name. */
	int (*records_top)(struct store_conn *c, const char *game, int by_level,
	    int offset, int limit, store_record_cb cb, void *arg);

	/* The cluster (cluster.c), on readers; NULL where one node alone
	 * uses the store (SQLite). The id and owner_epoch of every
	 * unfinished room, two columns per row. */
	int (*rooms_unfinished)(
	    struct store_conn *c, store_row_cb cb, void *arg);
	/* Take room id for this node: its owner_epoch goes one up (a node
	 * still writing it is fenced from then on) and cb gets the room as
	 * stored after that, with its moves; *epoch the new owner_epoch,
	 * 0 when the room is gone or ended (cb not called). */
	int (*room_claim)(struct store_conn *c, const char *id,
	    long long *epoch, store_room_cb cb, void *arg);
	/* Take the club for this node: its stored epoch (the counters row
	 * "club") goes one up, and *epoch gets it; a node writing the
	 * club's rows with a lower one is fenced from then on. */
	int (*club_claim)(struct store_conn *c, long long *epoch);
	/* How many unfinished rooms name created or sits in, besides the
	 * nskip rooms in skip (those the caller counts itself). */
	int (*rooms_of)(struct store_conn *c, const char *name,
	    const char *const *skip, int nskip, long *n);
	/* The unfinished rooms name sits in, besides the nskip in skip,
	 * newest first, at most limit, as stored (cb gets no moves). */
	int (*rooms_seated)(struct store_conn *c, const char *name,
	    const char *const *skip, int nskip, int limit, store_room_cb cb,
	    void *arg);

	/* A read of fixed text, the same in both dialects (as a row op's
	 * statement is), for the tables written with row ops: n values as
	 * text for $1.., and cb for each row with its first ncols columns
	 * as text (NULL: SQL NULL; at most STORE_ROWS_COLS). */
	int (*rows)(struct store_conn *c, const char *sql, int n,
	    const char *const *vals, int ncols, store_row_cb cb, void *arg);

	/* --copy-db (copy.c), on writers. Every row of table t (schema.h),
	 * in t's order, to cb. */
	int (*copy_read)(struct store_conn *c, const struct store_table *t,
	    store_row_cb cb, void *arg);
	/* The copy's one transaction on the target: begin (0), commit (1)
	 * or roll back (-1). */
	int (*copy_txn)(struct store_conn *c, int what);
	/* Write one row of t inside it (it may be sent later, at the latest
	 * by the commit, whose result then says how it went). */
	int (*copy_write)(struct store_conn *c, const struct store_table *t,
	    const char *const *vals);
};

extern const struct store_backend store_sqlite;
extern const struct store_backend store_pg;

/* The calls (store.c): the backend's, through the store's table. Open the
 * writer first (it migrates), then the loop's reader of the same store. */
struct store *store_open(
    const char *where, int flags, char *err, size_t errlen);
struct store *store_open_reader(struct store *writer, char *err, size_t errlen);
void store_close(struct store *s);
const char *store_errmsg(struct store *s);
const char *store_backend_name(const struct store *s);
int store_commit(struct store *s, const struct store_op *ops);
int store_idle(struct store *s);
int store_load(struct store *s, store_room_cb cb, void *arg);
int store_room_number(struct store *s, long *n);
int store_identity_find(
    struct store *s, const char *name, struct store_identity *out, int *found);
int store_progress_get(struct store *s, const char *name, const char *game,
    char *buf, size_t len, int *found);
int store_games_recent(
    struct store *s, const char *game, int limit, store_game_cb cb, void *arg);
int store_games_of(struct store *s, const char *name, int with_private,
    int limit, store_game_cb cb, void *arg);
int store_games_recent_from(struct store *s, const char *game,
    const struct store_cursor *from, int limit, store_game_cb cb, void *arg);
int store_games_of_from(struct store *s, const char *name, int with_private,
    const struct store_cursor *from, int limit, store_game_cb cb, void *arg);
int store_plan(struct store *s, const char *what, char *buf, size_t len);
void store_set_read_ms(struct store *s, int ms);
int store_game_last(
    struct store *s, const char *room, store_game_cb cb, void *arg, int *found);
int store_ratings_of(
    struct store *s, const char *name, store_rating_cb cb, void *arg);
int store_ratings_top(struct store *s, const char *pool, int provisional,
    double rd_bound, int offset, int limit, store_rating_cb cb, void *arg);
int store_records_of(
    struct store *s, const char *name, store_record_cb cb, void *arg);
int store_records_top(struct store *s, const char *game, int by_level,
    int offset, int limit, store_record_cb cb, void *arg);
int store_rooms_unfinished(struct store *s, store_row_cb cb, void *arg);
int store_room_claim(struct store *s, const char *id, long long *epoch,
    store_room_cb cb, void *arg);
int store_club_claim(struct store *s, long long *epoch);
int store_rooms_of(struct store *s, const char *name, const char *const *skip,
    int nskip, long *n);
int store_rooms_seated(struct store *s, const char *name,
    const char *const *skip, int nskip, int limit, store_room_cb cb, void *arg);
int store_rows(struct store *s, const char *sql, int n, const char *const *vals,
    int ncols, store_row_cb cb, void *arg);
int store_copy_read(
    struct store *s, const struct store_table *t, store_row_cb cb, void *arg);
int store_copy_txn(struct store *s, int what);
int store_copy_write(
    struct store *s, const struct store_table *t, const char *const *vals);

/* Copy everything in the store at from (a path or URL) into the empty
 * store at to (copy.c): 0, or -1 with the reason in err. Each table's
 * row count is logged. */
int store_copy(const char *from, const char *to, char *err, size_t errlen);

/* Ops (op.c): a new op of kind with its strings copied; store_op_free
 * frees a list of them. */
struct store_op *store_op_new(enum store_op_kind kind);
const char *store_op_str(struct store_op *op, const char *v);
void store_op_free(struct store_op *ops);
/* The id of the room an op writes, NULL when none (identities, prunes). */
const char *store_op_room(const struct store_op *op);
/* What fences an op: its room's id, STORE_CLUB_KEY for a club's row,
 * NULL for nothing. */
const char *store_op_fence_key(const struct store_op *op);

#endif
