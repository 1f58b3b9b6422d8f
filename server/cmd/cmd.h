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
void bare_sent(struct conn *c, const cJSON *msg);

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

/* sanction.c: the operators' bans and mutes in force */
enum sanction_kind {
	SANCTION_BAN,     /* an identity may not log in */
	SANCTION_BANADDR, /* connections from a network are refused */
	SANCTION_MUTE,    /* an identity may not chat, tell or invite */
};
struct sanction {
	enum sanction_kind kind;
	/* the identity as registered, or the network as "ADDR/BITS" */
	char target[64];
	unsigned char addr[16]; /* SANCTION_BANADDR: the network */
	int family, bits;
	int64_t until_ms; /* ms since the epoch; 0: until lifted */
	char admin[SERVER_NAME_MAX + 1];
	int64_t made_ms;
};
int sanction_load(struct server *srv);
void sanction_free_all(struct server *srv);
int sanction_is_admin(const struct server *srv, const char *name);
int sanction_parse_net(const char *text, struct sanction *s);
int sanction_net_covers(const struct sanction *s, const char *addr);
struct sanction *sanction_find(
    struct server *srv, enum sanction_kind kind, const char *target);
int sanction_addr_banned(const struct server *srv, const char *addr);
int sanction_name_banned(struct server *srv, const char *name);
int sanction_muted(struct conn *c, const struct proto_request *req);
int sanction_hold(struct server *srv, const struct sanction *s);
int sanction_add(struct server *srv, const struct sanction *s);
void sanction_drop(
    struct server *srv, enum sanction_kind kind, const char *target);
int sanction_del(struct server *srv, enum sanction_kind kind,
    const char *target, char *shown);
void sanction_json(struct server *srv, cJSON *bans, cJSON *mutes);
void sanction_log(struct server *srv, const char *admin, const char *act,
    const char *target, const char *detail);

/* cmd_moderate.c */
void cmd_moderate_remote(struct server *srv, const char *act,
    const char *target, long long until_ms, const char *admin,
    long long made_ms);

/* cmd_room.c */
struct room *cmd_room_arg(struct conn *c, const struct proto_request *req);
struct room *cmd_room_member(struct conn *c, const struct proto_request *req);
void cmd_guest_resign_all(struct conn *c);
void cmd_export_room(struct conn *c, const struct proto_request *req,
    const struct room *r, const cJSON *seats);
int cmd_chat_fits(struct conn *c, const struct proto_request *req);
int cmd_store_failing(struct conn *c, const struct proto_request *req);

/* cmd_archive.c */
int cmd_archive_budget(struct conn *c, const struct proto_request *req);
int cmd_archive_from(
    struct conn *c, const struct proto_request *req, struct archive_page *pg);
void cmd_archive_more(cJSON *rep, const struct archive_page *pg);
void cmd_archive_page(struct conn *c, const struct proto_request *req,
    cJSON *rep, const struct archive_page *pg, int rc);
void cmd_archive_show(struct conn *c, const struct proto_request *req);

/* message.c: messages kept for players who are away */
void message_committed(struct server *srv, uint64_t committed);
void message_deliver(struct conn *c);
void message_prune(struct server *srv);

/* cmd_social.c */
int cmd_social_heard(struct conn *c, const struct proto_request *req);

/* cmd_play.c */
void cmd_auto_next(struct room *r);

#endif
