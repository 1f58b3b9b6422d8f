/*
 * store.h: tablerod's durable store (SQLite, WAL, one file). The server
 * writes every accepted move here before acknowledging it, and rebuilds
 * unfinished rooms from it at start. The store knows no game: rooms carry
 * their options, seats and results as JSON text the server prepares.
 */
#ifndef TABLERO_STORE_H
#define TABLERO_STORE_H

#include <stddef.h>

struct store;

/* A room as stored. Strings are NUL-terminated; JSON fields are text. */
struct store_room {
	const char *id;   /* "r12" */
	const char *game; /* wire name */
	const char
	    *options;      /* JSON object: the options the game was made with */
	const char *seats; /* JSON array: [{"name":"ana","bot":0}, ...] */
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

/* Called by store_load for each room to rebuild, with its current game's
 * moves in order; return 0 to go on, -1 to stop with an error. */
typedef int (*store_room_cb)(void *arg, const struct store_room *r,
    const struct store_move *moves, int nmoves);

/* Open (creating and migrating the schema) the data file at path;
 * ":memory:" for a throw-away store. sync_full selects synchronous=FULL
 * instead of NORMAL. NULL with a reason in err on failure (corrupt file,
 * unwritable directory, newer schema than this server knows). */
struct store *store_open(
    const char *path, int sync_full, char *err, size_t errlen);
void store_close(struct store *s);
/* The last error's text, for logs. */
const char *store_errmsg(struct store *s);

/* All of the following return 0 on success, -1 on a store error. */

/* Checkpoints become the caller's job (the store thread's, between
 * batches): SQLite's automatic checkpoint, which would run inside a commit,
 * is turned off. */
int store_wal_manual(struct store *s);
/* Copy the WAL back into the data file when it holds at least min_pages
 * pages (a passive checkpoint: it never waits for readers); *done says
 * whether it ran. */
int store_checkpoint(struct store *s, int min_pages, int *done);

/* Group the writes that follow into one transaction, committed (all or
 * nothing) by store_commit; a failed commit rolls back. Not nested. */
int store_begin(struct store *s);
int store_commit(struct store *s);
/* Undo every write since store_begin (after one failed). */
void store_rollback(struct store *s);

/* The store thread's group transaction: begin, then each change between
 * store_group_mark and store_group_keep (or store_group_undo, which takes
 * back that change alone), then commit (rolled back when it fails). The
 * fault hook is checked by each write, not by these. */
int store_group_begin(struct store *s);
int store_group_mark(struct store *s);
int store_group_keep(struct store *s);
int store_group_undo(struct store *s);
int store_group_commit(struct store *s);

/* Identities: a name and the hex hash of its token (never the token). */
int store_identity_get(
    struct store *s, const char *name, char *hash, size_t hashlen, int *found);
int store_identity_put(struct store *s, const char *name, const char *hash);
/* An identity found by name whatever its case (the exact spelling first):
 * its name as registered, its token hash, whether it ever played. */
struct store_identity {
	char name[64];
	char hash[128];
	int played;
};
int store_identity_find(
    struct store *s, const char *name, struct store_identity *out, int *found);
/* The identity sat in a game that started: never pruned. */
int store_identity_played(struct store *s, const char *name);
/* The identity logged in now (the prune counts from its last hello). */
int store_identity_seen(struct store *s, const char *name);
/* Delete identities that never played, last seen before before_ms and
 * creating no unfinished room; the count. */
int store_identity_prune(struct store *s, long long before_ms, int *count);

/* Insert or replace a room's row (not its moves). */
int store_room_save(struct store *s, const struct store_room *r);
int store_room_delete(struct store *s, const char *id);
/* Append one move to (room, game_no); committed when this returns. */
int store_move_append(
    struct store *s, const char *room, int game_no, const struct store_move *m);
/* Delete the moves of (room, game_no) from ply on (undo, restart). */
int store_move_truncate(
    struct store *s, const char *room, int game_no, int ply);
/* Call cb for every room whose status is not "ended", oldest first, with
 * its current game's moves. */
int store_load(struct store *s, store_room_cb cb, void *arg);
/* The highest room number ever used ("r12" -> 12), 0 when none. */
int store_room_max_number(struct store *s, long *n);
/* Delete rooms (and their moves) whose status is in `status` (e.g.
 * "adjourned") and that were last updated before before_ms; the count. */
int store_prune(
    struct store *s, const char *status, long long before_ms, int *count);

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

/* Called for each finished game a query finds; it must not use the store
 * (the query is still running) and its strings live until it returns. */
typedef void (*store_game_cb)(void *arg, const struct store_game *g);

/* Keep a finished game. */
int store_game_put(struct store *s, const struct store_game *g);
/* The last `limit` finished games that are not private (of one game when
 * game is not NULL), newest first. */
int store_games_recent(
    struct store *s, const char *game, int limit, store_game_cb cb, void *arg);
/* The last `limit` finished games name played (private ones too when
 * with_private), newest first. */
int store_games_of(struct store *s, const char *name, int with_private,
    int limit, store_game_cb cb, void *arg);
/* Delete at most max finished games (the oldest first) that ended before
 * before_ms; the count (max: there may be more). */
int store_games_prune(
    struct store *s, long long before_ms, int max, int *count);
/* The last finished game of a room; *found is 0 when it has none. */
int store_game_last(
    struct store *s, const char *room, store_game_cb cb, void *arg, int *found);

/* A player's one-player progress per game (e.g. {"level":7}), JSON text. */
int store_progress_put(
    struct store *s, const char *name, const char *game, const char *json);
int store_progress_get(struct store *s, const char *name, const char *game,
    char *buf, size_t len, int *found);

#endif
