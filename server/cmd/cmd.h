/*
 * cmd.h: the session (one connection's conversation: decode, rate,
 * dispatch) and the verbs, one handler each, found through one table.
 */
#ifndef TABLERO_SERVER_CMD_H
#define TABLERO_SERVER_CMD_H

#include "server/core/core.h"

/* bare.c */
enum proto_error bare_line(struct conn *c, const char *line, size_t len,
    struct proto_request *req, enum proto_error e, char *err, size_t errlen);
void bare_prompt(struct conn *c, const cJSON *msg);

/* session.c */
void session_open(struct conn *c);
void session_line(struct conn *c, const char *line, size_t len);
void session_closed(struct conn *c);
void session_logged_in(struct conn *c);
void session_store_done(void *arg, uint64_t committed, int failing);
extern const struct conn_ops session_conn_ops;

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

/* cmd_block.c */
int cmd_known_name(struct conn *c, const struct proto_request *req,
    const char *name, char *out, size_t len);

/* cmd_room.c */
struct room *cmd_room_arg(struct conn *c, const struct proto_request *req);
void cmd_export_room(struct conn *c, const struct proto_request *req,
    const struct room *r, const cJSON *seats);
int cmd_chat_fits(struct conn *c, const struct proto_request *req);
int cmd_store_failing(struct conn *c, const struct proto_request *req);

/* cmd_archive.c */
void cmd_archive_show(struct conn *c, const struct proto_request *req);

/* cmd_play.c */
void cmd_auto_next(struct room *r);

#endif
