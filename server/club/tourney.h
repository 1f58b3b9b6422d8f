/*
 * tourney.h: tournaments (tourney.c: the state machine and the verb;
 * store/tstore.c: their rows as store ops and their reload). The pairing
 * arithmetic is pairing.h's.
 */
#ifndef TABLERO_TOURNEY_H
#define TABLERO_TOURNEY_H

#include <stdint.h>

#include "server/club/pairing.h"
#include "server/club/club.h"

/* Tournaments not yet over, server-wide: each holds rooms and a sweep
 * visit every second; a club runs a few at once. */
#define TOURNEY_LIVE_MAX 64
/* Tournaments not yet over that one organiser may hold. */
#define TOURNEY_PER_ORGANISER 4
/* Tournaments not yet over made from one address (an IPv6 /64), whoever
 * organises them: a club behind one router runs a few at once, but
 * throwaway names cannot take the server's TOURNEY_LIVE_MAX between them
 * (issue 30: 16 names x 4 filled it in 4 s). */
#define TOURNEY_PER_ADDRESS 8
/* Seconds an open tournament waits for its organiser's start
 * (--tourney-expire): an evening to gather the players. Past it, it
 * expires and counts against no cap. */
#define TOURNEY_EXPIRE_SEC 10800
/* Seconds a paired player has to sit down in the room before losing the
 * game by forfeit: the default, and the range of grace=. Past the most,
 * a class has gone home; the least keeps tests quick. */
#define TOURNEY_GRACE_DEFAULT 120
#define TOURNEY_GRACE_MIN 1
#define TOURNEY_GRACE_MAX 3600
/* The most rounds rounds= may ask of a Swiss (a round robin plays as
 * many as it takes). */
#define TOURNEY_ROUNDS_MAX 20
/* "t" and a number, as room ids are "r" and one. */
#define TOURNEY_ID_MAX 24

enum tourney_status {
	TOURNEY_OPEN,
	TOURNEY_PLAYING,
	TOURNEY_ENDED,
	TOURNEY_EXPIRED /* open past --tourney-expire: never played */
};

/* One game of a round; black -1 is a bye for white. "white" is the
 * room's first seat, "black" its second, whatever the game calls them. */
struct tourney_game {
	int round, board;
	int white, black; /* player indices */
	char room[SERVER_ROOM_ID_MAX];
	enum pairing_res res;
	char reason[24];
	int64_t deadline_ms; /* wall clock: not seated by then, forfeit */
};

struct tourney {
	struct tourney *next; /* all tournaments, oldest first */
	struct server *srv;
	char id[TOURNEY_ID_MAX];
	long number;
	const struct rules_game *g;
	cJSON *options; /* the rooms' options: an object of strings */
	int swiss;
	int rounds; /* 0 until the start for a Swiss without rounds= */
	int grace_sec;
	int64_t clock_initial_ms, clock_inc_ms;
	char organiser[SERVER_NAME_MAX + 1];
	char addr[SERVER_LIMIT_KEY]; /* the address it was made from ("") */
	enum tourney_status status;
	int round; /* the round being played, 0 before the start */
	int64_t created_ms;
	char names[PAIRING_PLAYERS_MAX][SERVER_NAME_MAX + 1];
	int64_t joined_ms[PAIRING_PLAYERS_MAX];
	int nplayers;
	struct tourney_game *games;
	int ngames, gamescap;
};

/* tourney.c */
void tourney_room_ended(struct room *r, int winner, const char *reason);
void tourney_result(
    struct server *srv, const char *id, int winner, const char *reason);
int tourney_seat(const struct room *r, const struct player *p, int *seat);
int tourney_keeps(const struct room *r);
int tourney_room(const struct room *r);
void tourney_logged_in(struct server *srv, const struct player *p);
void tourney_remind_name(struct server *srv, const char *name);
void tourney_mine(struct server *srv, const struct player *p, cJSON *rooms);
void tourney_sweep(struct server *srv);
int tourney_recover(struct server *srv);
void tourney_free_all(void);
struct tourney *tourney_find(const char *id);
struct tourney *tourney_new(struct server *srv, const char *id);
void tourney_add_player(struct tourney *t, const char *name, int64_t ms);
struct tourney_game *tourney_add_game(struct tourney *t);
int tourney_player_index(const struct tourney *t, const char *name);
const char *tourney_res_text(enum pairing_res res, int bye);
enum pairing_res tourney_res_parse(const char *s);

/* store/tstore.c */
void tstore_tourney(struct tourney *t);
void tstore_player(struct tourney *t, int i);
void tstore_player_delete(struct tourney *t, const char *name);
void tstore_game(struct tourney *t, const struct tourney_game *g);
void tstore_room_result(
    struct server *srv, const char *room, int winner, const char *reason);
int tstore_result_of(struct server *srv, const char *room,
    enum pairing_res *res, char *reason, size_t len);
int tstore_load(struct server *srv);

#endif
