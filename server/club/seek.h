/*
 * seek.h: the seek pool's interface. A seek is a player's standing offer
 * to play a game (its options, clock, rated or casual, the opponents'
 * ratings wanted); two compatible seeks make a room (cmd_seek.c). The
 * pool lives in memory; each open seek is also a row of the store
 * (store/sstore.c), written as it opens and deleted as it ends, so the
 * seeks survive a restart and wait there for their players for the
 * grace. It knows players by name only, never by pointer,
 * and only seek.c walks it, so a cluster can move it elsewhere (Redis)
 * behind these calls.
 */
#ifndef TABLERO_SEEK_H
#define TABLERO_SEEK_H

#include <stdint.h>
#include <sys/queue.h>

#include <cjson/cJSON.h>

#include "rules/rules.h"
#include "server/club/club.h"

/* Open seeks per player: a few games or clocks at once is what people
 * do (Lichess allows a handful); more only fills the lobby's list. */
#define SEEK_PER_PLAYER_MAX 3
/* Open seeks on the server (--max-seeks' default): each is under 2 KB
 * (options are capped by SEEK_OPTIONS_MAX) and a new seek scans the pool
 * once, so 5,000 keep the pool under 10 MB and a scan well under a
 * millisecond. */
#define SEEK_POOL_MAX 5000
/* Bytes of a seek's options (keys and values): a seek is for a quick
 * game with the usual options; a board file or a position belongs to
 * create and invite. Also bounds the pool's memory. */
#define SEEK_OPTIONS_MAX 512
/* Seeks one seeks reply lists at most, newest first: the reply stays far
 * below the output cap; `seeks GAME` narrows the list. */
#define SEEK_LIST_MAX 100
/* The rating every player has until ratings exist (Glicko-2's start). */
#define SEEK_RATING_DEFAULT 1500
/* Bounds of range=LO-HI: far beyond any Glicko-2 rating. */
#define SEEK_RATING_MAX 5000
/* A seek's id: 's' and a counter. */
#define SEEK_ID_MAX 24

struct seek {
	TAILQ_ENTRY(seek) entry;
	char id[SEEK_ID_MAX];
	char name[SERVER_NAME_MAX + 1]; /* the seeker */
	const struct rules_game *g;
	cJSON *options; /* the game's options as strings, defaults filled
	                   in, sorted by key */
	char *key;      /* the options as one string, to compare */
	int64_t clock_initial_ms, clock_inc_ms; /* 0: untimed */
	int rated;                              /* 1 rated, 0 casual */
	int range_lo, range_hi; /* the opponent's rating wanted; -1: any */
	int rating;             /* the seeker's, when the seek was made */
	int64_t gone_ms;        /* when the seeker's connection dropped;
	                           0 while connected */
	int64_t made_ms;
};

TAILQ_HEAD(seek_list, seek);

struct seek_pool {
	struct seek_list list; /* oldest first */
	int n;
	uint64_t next_id;
	/* told of each seek that ends (not of those freed with the pool):
	 * sstore.c deletes its row; NULL: nobody is told */
	void (*ended)(void *arg, const struct seek *s);
	void *arg;
};

/* seek.c */
struct seek_pool *seek_pool_new(void);
void seek_pool_free(struct seek_pool *pool);
struct seek *seek_new(const struct rules_game *g, cJSON *options);
void seek_free(struct seek *s);
void seek_add(struct seek_pool *pool, struct seek *s);
void seek_add_stored(struct seek_pool *pool, struct seek *s);
void seek_remove(struct seek_pool *pool, struct seek *s);
void seek_end(struct seek_pool *pool, struct seek *s);
int seek_remove_player(struct seek_pool *pool, const char *name);
int seek_count_of(const struct seek_pool *pool, const char *name);
struct seek *seek_find(const struct seek_pool *pool, const char *id);
struct seek *seek_find_same(const struct seek_pool *pool, const struct seek *s);
int seek_compatible(const struct seek *a, const struct seek *b);
struct seek *seek_match(const struct seek_pool *pool, const struct seek *s,
    int (*ready)(void *arg, const struct seek *o), void *arg);
struct seek *seek_next_of(
    const struct seek_pool *pool, const char *name, const struct seek *prev);
int seek_list_json(const struct seek_pool *pool, const struct rules_game *g,
    int max, cJSON *list);
void seek_withdraw(struct seek_pool *pool, const char *name, const char *id,
    cJSON *gone, cJSON *left);
void seek_player_gone(struct seek_pool *pool, const char *name, int64_t now);
void seek_player_back(struct seek_pool *pool, const char *name);
int seek_expire(struct seek_pool *pool, int64_t now, int64_t grace_ms);
cJSON *seek_json(const struct seek *s);
int seek_parse_range(const char *text, int *lo, int *hi);
int seek_rating(struct server *srv, const char *name,
    const struct rules_game *g, const cJSON *options);

/* store/sstore.c */
struct seek_pool *sstore_pool(struct server *srv);
void sstore_put(struct server *srv, const struct seek *s);
void sstore_counted(struct server *srv, const struct seek *s);
int sstore_load(struct server *srv);

/* cmd_seek.c */
struct seek *seek_request_make(
    struct conn *c, const struct proto_request *req, const char *game);
struct room *seek_room_make(struct server *srv, struct seek *theirs,
    struct player *p, struct seek *mine, struct player *me);
void seek_room_started(struct room *r);
void seek_conn_closed(struct server *srv, const char *name);
void seek_logged_in(struct server *srv, struct player *me);
void seek_sweep(struct server *srv);

#endif
