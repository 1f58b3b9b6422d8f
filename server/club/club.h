/*
 * club.h: what a club keeps of its games: ratings (Glicko-2) and
 * one-player records (seek.h: seeks; tourney.h: tournaments).
 */
#ifndef TABLERO_SERVER_CLUB_H
#define TABLERO_SERVER_CLUB_H

#include "server/core/core.h"

/* club.c */
void club_start(struct server *srv);
int club_refused(struct conn *c, const struct proto_request *req);

/* rating.c: rated games (Glicko-2, glicko.c) */
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
void rating_game_start(struct room *r);
void rating_game_end(struct room *r, const char *result, int winner);
int rating_load(struct server *srv, struct player *p);
cJSON *rating_who(const struct player *p);

/* record.c: one-player records */
struct store_record;
int record_by_level(const struct rules_game *g);
void record_fresh_each(struct server *srv, const char *name,
    void (*cb)(void *arg, const struct store_record *r), void *arg);
void record_committed(struct server *srv, uint64_t committed);
void record_game_end(struct room *r, const char *result);

/* The club's verbs, in cmd/session.c's table with the others
 * (cmd_rating.c: finger, ratings; cmd_seek.c: seek, seeks, unseek;
 * tourney.c: tourney). */
void cmd_finger(struct conn *c, const struct proto_request *req);
void cmd_ratings(struct conn *c, const struct proto_request *req);
void cmd_seek(struct conn *c, const struct proto_request *req);
void cmd_seeks(struct conn *c, const struct proto_request *req);
void cmd_unseek(struct conn *c, const struct proto_request *req);
void cmd_play(struct conn *c, const struct proto_request *req);

/* match.c: challenges (match, accept, decline) */
/* Seconds a challenge waits for its answer (--challenge-expire's
 * default): a person at the keyboard answers within a minute; longer
 * and the challenger has moved on. */
#define MATCH_EXPIRE_SEC 60
void cmd_match(struct conn *c, const struct proto_request *req);
void cmd_accept(struct conn *c, const struct proto_request *req);
void cmd_decline(struct conn *c, const struct proto_request *req);
void match_sweep(struct server *srv);
void match_free_all(struct server *srv);
void cmd_tourney(struct conn *c, const struct proto_request *req);

#endif
