/*
 * protocol.h: tablero's wire protocol as a library: line framing (with
 * telnet noise removed), decoding of JSON and shorthand requests into one
 * typed struct, encoding of replies, errors and events as JSON lines, text
 * mode for people on telnet, and the table of error codes.
 *
 * docs/PROTOCOL.md is the normative description; this header is its C face.
 * protocol/ depends on cJSON only and knows no game: verbs, fields and error
 * codes are all it knows.
 *
 * Ownership: every char * in a decoded request is malloc'd and freed by
 * proto_request_free(); every cJSON * returned belongs to the caller
 * (cJSON_Delete); every char * returned by proto_json_line()/proto_text()
 * belongs to the caller (free).
 */
#ifndef TABLERO_PROTOCOL_H
#define TABLERO_PROTOCOL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

/* The protocol's version: sent in the welcome event, checked in hello. */
#define PROTO_VERSION 1

/* Default longest line in bytes, without its "\n" or "\r\n" (the server's
 * --max-line changes it). Bounds what one connection makes us buffer. */
#define PROTO_LINE_MAX_DEFAULT 8192

/* Deepest nesting of objects/arrays accepted in a JSON request: requests are
 * at most three levels deep; deeper input only costs stack and time. */
#define PROTO_JSON_DEPTH_MAX 16

/* Longest verb kept for echoing in "re" (longer ones are unknown anyway). */
#define PROTO_CMD_MAX 32

/* Longest raw text of an id: enough for any UUID or 64-bit counter. */
#define PROTO_ID_MAX 128

/* Longest name, token, game, room, seat, action, mode, status, from: names
 * are 16 at most; 64 leaves room without letting a client store essays. */
#define PROTO_FIELD_MAX 64

/* Longest password (hello's password, password's password and old):
 * argon2id takes any length, but a client could otherwise make every
 * login hash a line's worth of bytes; 128 holds any passphrase people
 * type. */
#define PROTO_PASSWORD_MAX 128

/* Longest move text (the longest notation is a few squares). */
#define PROTO_MOVE_MAX 64

/* Longest chat text the decoder accepts (the server's chat limit, 500 bytes,
 * is stricter and gives its own message). */
#define PROTO_TEXT_MAX 2048

/* Longest option key. */
#define PROTO_OPTION_KEY_MAX 64

/* Longest option value (a board or level file passed inline). */
#define PROTO_OPTION_VALUE_MAX 16384

/* Most options in one create; no game has more than a handful. */
#define PROTO_MAX_OPTIONS 16

/* Most bot entries in one create (no game has more seats). */
#define PROTO_MAX_BOTS 8

/* Bot levels. */
#define PROTO_BOT_LEVEL_MIN 1
#define PROTO_BOT_LEVEL_MAX 5
/* The deepest search a create may ask of its bots (field depth, in
 * plies): deeper than any engine completes within its time. */
#define PROTO_BOT_DEPTH_MAX 64

/* Clock ranges in seconds: a day per game at most, an hour of increment. */
#define PROTO_CLOCK_INITIAL_MIN 1
#define PROTO_CLOCK_INITIAL_MAX 86400
#define PROTO_CLOCK_INCREMENT_MIN 0
#define PROTO_CLOCK_INCREMENT_MAX 3600

/* Largest seq (and largest integer option value in magnitude): integers
 * beyond 2^53 cannot pass through a JSON double exactly. */
#define PROTO_INT_MAX 9007199254740991LL

/* ---------------------------------------------------------------- errors.c */

/* The fixed vocabulary of error codes, in the brief's order. */
enum proto_error {
	PROTO_OK = 0,
	PROTO_E_BAD_JSON,
	PROTO_E_BAD_REQUEST,
	PROTO_E_UNKNOWN_CMD,
	PROTO_E_LINE_TOO_LONG,
	PROTO_E_NOT_LOGGED_IN,
	PROTO_E_BAD_NAME,
	PROTO_E_NAME_TAKEN,
	PROTO_E_BAD_TOKEN,
	PROTO_E_BAD_PASSWORD,
	PROTO_E_NO_SUCH_GAME,
	PROTO_E_BAD_OPTIONS,
	PROTO_E_NO_SUCH_ROOM,
	PROTO_E_ROOM_FULL,
	PROTO_E_NOT_IN_ROOM,
	PROTO_E_NOT_A_PLAYER,
	PROTO_E_NOT_YOUR_TURN,
	PROTO_E_ILLEGAL_MOVE,
	PROTO_E_GAME_OVER,
	PROTO_E_NOT_ALLOWED,
	PROTO_E_RATE_LIMITED,
	PROTO_E_LIMIT_REACHED,
	PROTO_E_SERVER_FULL,
	PROTO_E_IDLE,
	PROTO_E_STORE_FAILING,
	PROTO_E_NOT_READY,
	PROTO_E_BANNED,
	PROTO_E_KICKED,
	PROTO_E_MUTED,
	PROTO_E_TOURNEY_ROOM,
	PROTO_E_INTERNAL,
	PROTO_E_COUNT
};

/* The wire code ("bad_json"); "ok" for PROTO_OK; "internal" when out of
 * range. */
const char *proto_error_code(enum proto_error e);

/* The default message for people ("the line is not valid JSON"). */
const char *proto_error_message(enum proto_error e);

/* The error whose wire code is `code`, or PROTO_E_COUNT when none is. */
enum proto_error proto_error_from_code(const char *code);

/* ---------------------------------------------------------------- framer.c */

/*
 * The framer turns a byte stream into lines. It accepts "\n" and "\r\n"
 * (and telnet's "\r\0"), drops telnet IAC sequences (IAC IAC is a literal
 * 255 byte; IAC WILL/WONT/DO/DONT x is 3 bytes; IAC SB ... IAC SE is
 * dropped whole; any other IAC x is 2 bytes) with its state kept across
 * calls, and skips blank lines (only spaces, tabs and CRs). It never holds
 * more than `limit` bytes of one line.
 */
struct proto_framer;

/* A framer for lines of at most `limit` bytes (0: PROTO_LINE_MAX_DEFAULT);
 * NULL when out of memory. */
struct proto_framer *proto_framer_new(size_t limit);
void proto_framer_free(struct proto_framer *f);

/*
 * Feed bytes. Stops as soon as one complete non-blank line is ready or the
 * current line goes over the limit, and returns how many bytes of buf it
 * consumed: the caller calls again with the rest (buf + consumed).
 *
 * line, linelen: *line is set to the line (without its "\n" or "\r\n";
 * NUL-terminated for convenience but it may hold NUL bytes: use *linelen)
 * when one is ready, else to NULL. Valid until the next call or the free.
 *
 * *toolong: set to 1 (once per offending line) when the current line went
 * over the limit; the framer then drops the rest of that line up to its
 * "\n". The server answers line_too_long and closes. -1 when no memory
 * could be had for the line (the caller treats it as out of memory). Else 0.
 */
size_t proto_framer_push(struct proto_framer *f, const char *buf, size_t len,
    const char **line, size_t *linelen, int *toolong);

/* Bytes of the current incomplete line held (always <= the limit). */
size_t proto_framer_pending(const struct proto_framer *f);

/* Bytes of line buffer allocated: none before the first line, small for
 * short lines, grown only as a long line needs (at most limit + 1). */
size_t proto_framer_held(const struct proto_framer *f);

/* Give back the line buffer when no partial line is held (the last line
 * handed out is then invalid): for a connection with nothing left to read,
 * so an idle one holds no buffer. */
void proto_framer_trim(struct proto_framer *f);

/* ----------------------------------------------------------------- proxy.c */

/*
 * The PROXY protocol's header (HAProxy's proxy-protocol.txt, v1 and v2),
 * sent first by a trusted load balancer on each connection it passes on.
 * Version 1 is at most PROTO_PROXY_V1_MAX bytes by the spec (its worst
 * case, "PROXY UNKNOWN" with two IPv6 addresses and ports). Version 2 is
 * 16 bytes and a length; PROTO_PROXY_V2_MAX bounds the whole: the largest
 * address block (two UNIX paths, 216 bytes) and room for the TLVs HAProxy
 * may add (ALPN, authority, unique id, TLS details), so a header is never
 * more than a few hundred bytes held per connection.
 */
#define PROTO_PROXY_V1_MAX 107
#define PROTO_PROXY_V2_MAX 1024
/* The most bytes a header may take, of either version. */
#define PROTO_PROXY_MAX PROTO_PROXY_V2_MAX

enum { PROTO_PROXY_BAD = -1, PROTO_PROXY_MORE = 0, PROTO_PROXY_DONE = 1 };

/* What a complete header says. */
struct proto_proxy {
	int version; /* 1 or 2 */
	size_t len;  /* the header's bytes (PROTO_PROXY_DONE) */
	int local;   /* 1: LOCAL, UNKNOWN or a family not carried: the
	                connection's own address stands */
	int family;  /* 4 or 6 (not local): addr holds 4 or 16 bytes */
	uint8_t addr[16], dst[16]; /* the client's, and where it went */
	uint16_t port, dst_port;   /* host order */
	const char *why;           /* PROTO_PROXY_BAD: the reason, static */
};

/*
 * Parse the bytes read so far of a connection that must start with a
 * header: PROTO_PROXY_DONE with *out filled (out->len bytes are the
 * header, the rest belongs to the connection); PROTO_PROXY_MORE when
 * every byte of buf is header and more must come (so a reader may take
 * them all); PROTO_PROXY_BAD with out->why.
 */
int proto_proxy_parse(const void *buf, size_t len, struct proto_proxy *out);

/* ----------------------------------------------------------------- verbs.c */

/*
 * Every verb, in the order of docs/PROTOCOL.md, as X(ENUM, wire name). This
 * list is the only place a verb is named: verbs.c gives each one its row
 * (verbs_<name>: fields, login rule, usage, help, text rendering) and the
 * server its handler cmd_<name>; a verb missing either does not build.
 */
#define PROTO_VERBS(X)                                                         \
	X(HELLO, hello)                                                        \
	X(PASSWORD, password)                                                  \
	X(GAMES, games)                                                        \
	X(ROOMS, rooms)                                                        \
	X(CREATE, create)                                                      \
	X(JOIN, join)                                                          \
	X(WATCH, watch)                                                        \
	X(LEAVE, leave)                                                        \
	X(STATE, state)                                                        \
	X(MOVES, moves)                                                        \
	X(MOVE, move)                                                          \
	X(RESIGN, resign)                                                      \
	X(DRAW, draw)                                                          \
	X(TAKEBACK, takeback)                                                  \
	X(UNDO, undo)                                                          \
	X(RESTART, restart)                                                    \
	X(NEXT, next)                                                          \
	X(HINT, hint)                                                          \
	X(REMATCH, rematch)                                                    \
	X(MINE, mine)                                                          \
	X(CLAIM, claim)                                                        \
	X(EXPORT, export)                                                      \
	X(HISTORY, history)                                                    \
	X(CHAT, chat)                                                          \
	X(SAY, say)                                                            \
	X(TELL, tell)                                                          \
	X(INVITE, invite)                                                      \
	X(MESSAGE, message)                                                    \
	X(MATCH, match)                                                        \
	X(ACCEPT, accept)                                                      \
	X(DECLINE, decline)                                                    \
	X(WHO, who)                                                            \
	X(PING, ping)                                                          \
	X(QUIT, quit)                                                          \
	X(MODE, mode)                                                          \
	X(HELP, help)                                                          \
	X(FINGER, finger)                                                      \
	X(RATINGS, ratings)                                                    \
	X(SEEK, seek)                                                          \
	X(SEEKS, seeks)                                                        \
	X(PLAY, play)                                                          \
	X(UNSEEK, unseek)                                                      \
	X(TOURNEY, tourney)                                                    \
	X(BLOCK, block)                                                        \
	X(UNBLOCK, unblock)                                                    \
	X(BLOCKS, blocks)                                                      \
	X(KICK, kick)                                                          \
	X(MUTE, mute)                                                          \
	X(UNMUTE, unmute)                                                      \
	X(BAN, ban)                                                            \
	X(UNBAN, unban)                                                        \
	X(BANS, bans)                                                          \
	X(ANNOUNCE, announce)

enum proto_verb {
#define PROTO_VERB_ENUM(upper, lower) PROTO_##upper,
	PROTO_VERBS(PROTO_VERB_ENUM)
#undef PROTO_VERB_ENUM
	    PROTO_VERB_COUNT /* also: "no verb" (unknown_cmd, bad_json) */
};

/* The wire name ("hello"), or NULL when out of range. */
const char *proto_verb_name(enum proto_verb v);

/* The verb named `name` exactly (lower case), or PROTO_VERB_COUNT. */
enum proto_verb proto_verb_from_name(const char *name);

/* The verb's shorthand form for help ("move MOVE [seq=N]"); every verb
 * also takes room=ID. */
const char *proto_verb_shorthand(enum proto_verb v);

/* One sentence on what the verb does, for help. */
const char *proto_verb_summary(enum proto_verb v);

/* 1 when the verb needs hello first (all but games, ping, quit, mode and
 * help, and hello itself). */
int proto_verb_login(enum proto_verb v);

/* The first verb whose row in the table lacks a name, usage line, summary
 * or text rendering, or PROTO_VERB_COUNT when every row is complete; the
 * server checks it at start, the unit tests too. */
enum proto_verb proto_verbs_check(void);

/* ---------------------------------------------------------------- events.c */

/*
 * Every event the server sends, in the order of docs/PROTOCOL.md, as
 * X(ENUM, wire name); events.c gives each its row (wire name, whether it
 * is a room's event, its text rendering), as errors.c does for errors.
 */
#define PROTO_EVENTS(X)                                                        \
	X(WELCOME, welcome)                                                    \
	X(REPLACED, replaced)                                                  \
	X(SHUTDOWN, shutdown)                                                  \
	X(CHAT, chat)                                                          \
	X(JOINED, joined)                                                      \
	X(LEFT, left)                                                          \
	X(STARTED, started)                                                    \
	X(MOVED, moved)                                                        \
	X(ENDED, ended)                                                        \
	X(DRAW_OFFERED, draw_offered)                                          \
	X(DRAW_DECLINED, draw_declined)                                        \
	X(TAKEBACK_OFFERED, takeback_offered)                                  \
	X(TAKEBACK_DECLINED, takeback_declined)                                \
	X(REMATCH_OFFERED, rematch_offered)                                    \
	X(OPPONENT_GONE, opponent_gone)                                        \
	X(OPPONENT_BACK, opponent_back)                                        \
	X(CLOCK, clock)                                                        \
	X(UNDONE, undone)                                                      \
	X(RESTARTED, restarted)                                                \
	X(GRACE_OVER, grace_over)                                              \
	X(TOLD, told)                                                          \
	X(INVITED, invited)                                                    \
	X(MESSAGE, message)                                                    \
	X(CHALLENGED, challenged)                                              \
	X(CHALLENGE_OVER, challenge_over)                                      \
	X(PAIRED, paired)                                                      \
	X(TOURNEY_ROUND, tourney_round)                                        \
	X(TOURNEY_RESULT, tourney_result)                                      \
	X(TOURNEY_JOINED, tourney_joined)                                      \
	X(TOURNEY_ENDED, tourney_ended)                                        \
	X(RECONNECT, reconnect)                                                \
	X(ANNOUNCEMENT, announcement)                                          \
	X(WATCHERS, watchers)                                                  \
	X(ROOMS_CHANGED, rooms_changed)

enum proto_event_kind {
#define PROTO_EVENT_ENUM(upper, lower) PROTO_EV_##upper,
	PROTO_EVENTS(PROTO_EVENT_ENUM)
#undef PROTO_EVENT_ENUM
	    PROTO_EV_COUNT /* also: an event this library does not know */
};

/* The wire name ("moved"), or NULL when out of range. */
const char *proto_event_name(enum proto_event_kind e);

/* The event named `name` exactly, or PROTO_EV_COUNT. */
enum proto_event_kind proto_event_from_name(const char *name);

/* 1 for a room's events (built with the room's id and its next seq; chat
 * is also the lobby's, without them), 0 for a connection's (welcome,
 * replaced, shutdown). */
int proto_event_in_room(enum proto_event_kind e);

/* 1 when the lean form of events (hello's "events":"lean") leaves out
 * member, a member of an event of kind e; 0 for a member both forms
 * print (and for every member of an event with no lean form). */
int proto_event_lean_drops(enum proto_event_kind e, const cJSON *member);

/* The first event whose row lacks a name or text rendering, or
 * PROTO_EV_COUNT when every row is complete. */
enum proto_event_kind proto_events_check(void);

/* ------------------------------ request.c, shorthand.c, fields.c: decoding */

/* One option of create: key and value as text (JSON integers printed as
 * decimal integers), like struct rules_opt. */
struct proto_kv {
	char *key;
	char *value;
};

/* One bot of create: a seat (name or number as text) or NULL for "every
 * free seat" (shorthand bot=N, JSON "bot":N), and its level. */
struct proto_bot {
	char *seat;
	int level;
};

/*
 * A decoded request. Every string is valid UTF-8, has no control characters
 * (text: no control characters but "\n" and "\t"; option values: but "\n",
 * "\r" and "\t") and fits its PROTO_*_MAX. Absent strings are NULL. The
 * decoder checks required fields per verb, enumerations (draw action, mode,
 * rooms status) and ranges; it does NOT check names (the server answers
 * bad_name) nor that a room, game, seat or move exists.
 */
struct proto_request {
	enum proto_verb verb; /* PROTO_VERB_COUNT when unknown */
	int shorthand;        /* 1: came as a shorthand text line */
	char *cmd;            /* the verb for "re": JSON cmd as sent, shorthand
	                         verb lower-cased; NULL when unreadable */
	char *id;             /* raw JSON text of id (a string literal with its
	                         quotes, or an integer), or NULL */
	char *name;           /* hello */
	char *token;          /* hello */
	char *password;       /* hello, password: the password (new) */
	char *old;            /* password: the password it replaces */
	char *game;           /* rooms (filter), create */
	char *room;           /* any verb; NULL: the current room */
	char *seat;           /* create, join: seat name or number as text */
	char *move;           /* move */
	char *from;           /* moves */
	char *text;           /* chat, say */
	char *action;         /* draw: "offer", "accept" or "decline" */
	char *mode;           /* mode: "json" or "text" */
	char *status;         /* rooms: "waiting", "playing", "ended",
	                         "adjourned" */
	int has_seq;          /* move */
	long long seq;
	int has_since; /* state: history from the move after this */
	long long since;
	int has_at; /* state: the position after the first `at` moves */
	long long at;
	int has_proto; /* hello (always PROTO_VERSION when set) */
	long proto;
	int has_private; /* create */
	int is_private;
	int has_clock; /* create */
	long clock_initial, clock_increment;
	struct proto_kv options[PROTO_MAX_OPTIONS]; /* create */
	int noptions;
	struct proto_bot bots[PROTO_MAX_BOTS]; /* create */
	int nbots;
	int bot_depth; /* create: the bots' search depth, 0 for their level's */
	int has_rated; /* seek: rated (1) or casual (0) */
	int is_rated;
	char *range;   /* seek: the opponents' ratings, "LO-HI" */
	char *seek;    /* unseek: the seek's id */
	char *act;     /* tourney: field "do", what to do (create, join, ...) */
	char *tourney; /* tourney: a tournament's id ("t1") */
	int has_minutes; /* mute: how long; absent: until unmute */
	long long minutes;
	char *address; /* ban, unban: an address or a network, "ADDR[/BITS]" */
	char *events;  /* hello: "full" or "lean" moved events */
	int has_lobby; /* hello: rooms_changed events wanted (lobby) */
	int is_lobby;
};

/*
 * Decode one line (as the framer hands it out): JSON when its first
 * non-blank byte is '{', else shorthand. Returns PROTO_OK, or
 * PROTO_E_BAD_JSON / PROTO_E_UNKNOWN_CMD / PROTO_E_BAD_REQUEST with a
 * message for people in err (naming the field and what was expected; err
 * may be NULL). Even on error, req->cmd and req->id are filled when they
 * could be read, so the error reply can echo them. Always call
 * proto_request_free() afterwards.
 */
enum proto_error proto_decode(const char *line, size_t len,
    struct proto_request *req, char *err, size_t errlen);

/* 1 when the line is JSON (first non-blank byte '{'), 0 for shorthand. */
int proto_line_is_json(const char *line, size_t len);

/* Free the request's strings and zero it (verb PROTO_VERB_COUNT); in
 * fields.c, like the next one. */
void proto_request_free(struct proto_request *req);

/* The JSON request that means the same as req: every field of the
 * decoder's table that req holds (depth included), so a request typed in
 * shorthand goes out as JSON unchanged. The one encoder for every
 * program that sends requests; in fields.c. NULL when out of memory. */
cJSON *proto_request_encode(const struct proto_request *req);

/* The option `key` of a create request, or NULL. */
const char *proto_request_option(
    const struct proto_request *req, const char *key);

/* A room's status, as rooms, state and summaries name it. */
enum proto_room_status {
	PROTO_ROOM_WAITING,
	PROTO_ROOM_PLAYING,
	PROTO_ROOM_ENDED,
	PROTO_ROOM_ADJOURNED,
	PROTO_ROOM_STATUS_COUNT
};

/* "waiting"...; NULL when out of range (fields.c, like the next one). */
const char *proto_room_status_name(enum proto_room_status s);

/* The status named by s[0..len) in any case, or PROTO_ROOM_STATUS_COUNT. */
enum proto_room_status proto_room_status_from_name(const char *s, size_t len);

/* -------------------------------------------------------------- encode.c */

/* {"re":cmd,"id":raw,"ok":true}; the server adds the result fields. "re" is
 * null when req->cmd is NULL, "id" is absent when req->id is NULL. NULL when
 * out of memory. */
cJSON *proto_reply(const struct proto_request *req);

/* {"re":cmd,"id":raw,"ok":false,"error":code,"message":message}; req may be
 * NULL ("re":null, no id); message NULL: the code's default message. */
cJSON *proto_error_reply(
    const struct proto_request *req, enum proto_error e, const char *message);

/* sentence.c: a sentence with "msg" (its English format, the msgid) and
 * "args" (its arguments), for clients that translate. */
struct rules_said;
int proto_said_add(cJSON *o, const struct rules_said *s);
const struct rules_said *proto_said_inner(const struct rules_said *s);
int proto_said_nest(cJSON *o, int i, const char *msgid);
int proto_vsentence(cJSON *o, const char *key, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
int proto_sentence(cJSON *o, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* {"event":name,"room":room,"seq":seq}, the head every event starts with
 * (the server adds the event's own fields); room NULL: no room; seq <= 0:
 * no seq. NULL when out of memory or e is out of range. */
cJSON *proto_event(enum proto_event_kind e, const char *room, long long seq);

/* The welcome event: {"event":"welcome","server":"tablerod","version":
 * version,"proto":PROTO_VERSION,"hint":"Type: hello YOURNAME ..."}. */
cJSON *proto_welcome(const char *version);

/* encode.c's record of a member left out of a line while it is printed. */
struct proto_hidden;

/* A growing buffer that messages are encoded into, reused from one message
 * to the next so that encoding allocates nothing once it is big enough.
 * Zero it to start; proto_out_free() gives its memory back. */
struct proto_out {
	char *p;    /* the encoded message, NUL-terminated; NULL before any */
	size_t len; /* its length, without the NUL */
	size_t cap; /* bytes allocated */
	struct proto_hidden *hidden; /* the "_..." members while printing */
	size_t hiddencap;            /* records allocated there */
};

/* Replace o's content with msg as one JSON line ending in "\n", printed by
 * cJSON (cJSON_PrintPreallocated) with the members whose name starts with
 * '_' left out at every depth. They are taken out of msg while it is
 * printed and put back in place, so msg is as it was on return (same
 * members in the same order) and nothing is copied; no other thread may
 * read msg meanwhile. 0, or -1 when out of memory or msg cannot be printed
 * (o is then empty). */
int proto_json_encode(struct proto_out *o, const cJSON *msg);

/* proto_json_encode() in the lean form a client asks for with hello's
 * "events":"lean": an event that has one (proto_event_lean) is printed
 * without the members that form leaves out; anything else as in the
 * full form. */
int proto_json_encode_lean(struct proto_out *o, const cJSON *msg);

/* Free o's memory and zero it. */
void proto_out_free(struct proto_out *o);

/* proto_json_encode() into a new string: malloc'd; NULL when out of
 * memory. */
char *proto_json_line(const cJSON *msg);

/* -------------------------------------------------------------- number.c */

/* The integer v as a cJSON raw item of its decimal digits, which cJSON
 * prints as they are (its number printer formats each number with
 * "%1.15g" and reads it back with sscanf to check it). For the members
 * built for every move and ping: seq, clocks, the ping's time. Read such a
 * member with proto_number(): cJSON_GetNumberValue() of it is NaN. NULL
 * when out of memory. */
cJSON *proto_int(long long v);

/* proto_int(v) added to object o as member key (copied); the item, or NULL
 * when out of memory. */
cJSON *proto_add_int(cJSON *o, const char *key, long long v);

/* A member's value whether a cJSON number or an integer from proto_int():
 * 1 and *out set, else 0 (not a number). */
int proto_number(const cJSON *v, double *out);

/* Room for any long long in decimal: 19 digits, a sign and the NUL. */
#define PROTO_INT_CHARS 21
/* v in decimal, written at the end of buf; its first digit (or sign). */
char *proto_int_digits(char buf[PROTO_INT_CHARS], long long v);

/* ---------------------------------------------------------------- line.c */

/* A line built by appending: buf of cap bytes (cap > 0), len of them used
 * and a NUL after them; full set once something did not fit, after which
 * nothing more is added (the caller then makes the message otherwise). */
struct proto_line {
	char *buf;
	size_t cap, len;
	int full;
};
/* Append n bytes of s. */
void proto_line_mem(struct proto_line *l, const char *s, size_t n);
/* Append the string s. */
void proto_line_str(struct proto_line *l, const char *s);
/* Append v in decimal, as proto_int prints it. */
void proto_line_int(struct proto_line *l, long long v);
/* Is s printed in a JSON string as it is, by cJSON too (no quote,
 * backslash or control character to escape)? A template appends only
 * such strings. */
int proto_json_plain(const char *s);

/* -------------------------------------------------------------- text.c */

/* Any reply, error or event as plain English for people (telnet): boards
 * from "_picture" or "picture", whose turn, results; errors as
 * "error (illegal_move): arrow path blocked at h4". One or more lines, each
 * ending in "\n". malloc'd; NULL when out of memory. */
char *proto_text(const cJSON *msg);

/* The same rendering into o, replacing its content; 0, or -1 when out of
 * memory (o is then empty). */
int proto_text_encode(struct proto_out *o, const cJSON *msg);

/* proto_text() for a reader that draws the room itself right after the
 * message (the terminal client): board is the picture it draws, with the
 * clocks where there are any; NULL: it draws none (proto_text). The
 * message's own picture and clocks are left out, and the turn line where
 * board says whose turn it is (as where the message's picture does). */
char *proto_text_beside(const cJSON *msg, const char *board);

/* The moves of a state's history (its page) as people read them,
 * "Moves (12): 1. b6 2. f2 ...", wrapped at 78 columns; what text mode
 * prints under a state reply's board. malloc'd; NULL when no move was
 * played or out of memory. */
char *proto_text_record(const cJSON *state);

/* A two-player result's rating line as text mode ends the outcome with:
 * "Rated (ataxx size=7): ana 1500 -> 1662?, bob 1500 -> 1338?.\n" or
 * "Not rated: why.\n", for a reader that says the outcome in its own
 * words (the terminal client's games). malloc'd; NULL when the result says
 * neither (a one-player game) or out of memory. */
char *proto_text_rated(const cJSON *result);

/* A clock's time left (milliseconds) as people read it: "4:53", or
 * "1:02:03" past an hour; never negative. */
void proto_clock_format(long long ms, char *buf, size_t len);

/* Text from elsewhere made safe to print on a terminal, the way text mode
 * shows chat: every line break (CR, CRLF, NEL, U+2028, U+2029) becomes
 * "\n", every other control character (ESC included) and every character
 * that reorders or hides text becomes <U+XXXX>, an invalid byte <0xXX>.
 * malloc'd; NULL when out of memory. */
char *proto_text_untrusted(const char *s);

/* proto_text_untrusted() applied to every string in the tree v, in place
 * (object keys included); 0, or -1 when out of memory. */
int proto_text_untrusted_tree(cJSON *v);

/* ------------------------------------- internal to protocol/ (not an API) */

/*
 * What follows is shared between the files of protocol/ only (the decoder
 * is split into verbs.c, fields.c, request.c and shorthand.c). The server
 * and clients use what is above.
 */

/* The request fields, by their JSON names. */
enum proto_field {
	PROTO_F_NAME,
	PROTO_F_TOKEN,
	PROTO_F_GAME,
	PROTO_F_ROOM,
	PROTO_F_SEAT,
	PROTO_F_MOVE,
	PROTO_F_FROM,
	PROTO_F_TEXT,
	PROTO_F_ACTION,
	PROTO_F_MODE,
	PROTO_F_STATUS,
	PROTO_F_SEQ,
	PROTO_F_PROTO,
	PROTO_F_PRIVATE,
	PROTO_F_CLOCK,
	PROTO_F_OPTIONS,
	PROTO_F_BOTS,
	PROTO_F_BOT,
	PROTO_F_SINCE,
	PROTO_F_DEPTH,
	PROTO_F_AT,
	PROTO_F_RATED,
	PROTO_F_RANGE,
	PROTO_F_SEEK,
	PROTO_F_DO,
	PROTO_F_TOURNEY,
	PROTO_F_MINUTES,
	PROTO_F_ADDRESS,
	PROTO_F_PASSWORD,
	PROTO_F_OLD,
	PROTO_F_EVENTS,
	PROTO_F_LOBBY,
	PROTO_F_COUNT
};

/* How a verb's shorthand takes its positional arguments. */
enum proto_shorthand_args {
	PROTO_ARGS_FIELDS, /* one field per argument (verbs.c's table) */
	PROTO_ARGS_JOIN,   /* all joined by one space into one field (move) */
	PROTO_ARGS_REST,   /* the rest of the line, verbatim (chat, say) */
	PROTO_ARGS_ROOMS,  /* a status word is the status, else the game */
};

/* verbs.c */
int proto_verb_has_field(enum proto_verb v, enum proto_field field);
int proto_verb_requires(enum proto_verb v, enum proto_field field);
/* The verb's fields (room included) and its required ones, as bit masks
 * by enum proto_field. */
unsigned proto_verb_fields(enum proto_verb v);
unsigned proto_verb_required(enum proto_verb v);
enum proto_shorthand_args proto_verb_args(enum proto_verb v, int positional[2]);

/* fields.c */
void proto_errf(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int proto_utf8_valid(const char *s, size_t len);

/* unicode.c: characters that reorder or hide text. */
/* Decode the UTF-8 character at s: its length (1 to 4) with *cp set, or 0
 * when the bytes are not valid UTF-8. */
size_t proto_utf8_next(const char *s, size_t len, uint32_t *cp);
/* 1 when cp reorders or hides text (bidi controls, invisible format
 * characters, C1 controls, U+2028 and U+2029). */
int proto_char_hides(uint32_t cp);
/* 1 when cp ends a line on some reader (LF, CR, NEL, U+2028, U+2029). */
int proto_char_breaks(uint32_t cp);
/* The offset of the first character of s that hides text (or of the
 * first invalid byte), with *cp set; len when there is none. */
size_t proto_text_hiding(const char *s, size_t len, uint32_t *cp);
enum proto_error proto_unknown_cmd(
    const struct proto_request *req, char *err, size_t errlen);
char *proto_strndup(const char *s, size_t len);
int proto_parse_int(
    const char *s, size_t len, long long min, long long max, long long *out);
const char *proto_field_name(enum proto_field field);
int proto_field_from_name(const char *name);
enum proto_error proto_field_json(struct proto_request *req,
    enum proto_field field, const cJSON *item, char *err, size_t errlen);
enum proto_error proto_field_text(struct proto_request *req,
    enum proto_field field, const char *value, size_t len, char *err,
    size_t errlen);
enum proto_error proto_request_add_option(struct proto_request *req,
    const char *key, size_t keylen, const char *value, size_t len, char *err,
    size_t errlen);
enum proto_error proto_request_check(
    struct proto_request *req, char *err, size_t errlen);

/* request.c */
char *proto_cmd_copy(const char *s, size_t len);

/* text.c: the reply renderers that verbs.c's rows name */
struct text_buf;
typedef void text_fn(struct text_buf *b, const cJSON *msg);
text_fn *proto_verb_text(enum proto_verb v);    /* in verbs.c */
const char *proto_verb_said(enum proto_verb v); /* in verbs.c */
text_fn text_reply_hello, text_reply_games, text_reply_rooms, text_reply_seated,
    text_reply_watch, text_reply_leave, text_reply_state, text_reply_moves,
    text_reply_move, text_reply_hint, text_reply_export, text_reply_who,
    text_reply_help, text_reply_said, text_reply_ok, text_reply_history;
text_fn text_reply_mine, text_reply_message, text_reply_play, text_reply_match;
text_fn text_reply_finger, text_reply_ratings;
text_fn text_reply_seek, text_reply_seeks;
text_fn text_reply_tourney;
text_fn text_reply_blocks, text_reply_moderate, text_reply_bans;

/* text.c: the event renderers that events.c's rows name */
text_fn *proto_event_text(enum proto_event_kind e); /* in events.c */
#define PROTO_TEXT_EVENT_DECLARE(upper, lower) text_fn text_event_##lower;
PROTO_EVENTS(PROTO_TEXT_EVENT_DECLARE)
#undef PROTO_TEXT_EVENT_DECLARE

/* shorthand.c */
enum proto_error proto_decode_shorthand(const char *line, size_t len,
    struct proto_request *req, char *err, size_t errlen);
/* Rewrite a decoding error of a shorthand line for people: "field 'game'
 * is required" becomes the verb's usage line, another "field ..." message
 * gets it appended; other messages stay. */
void proto_shorthand_usage(enum proto_verb verb, char *err, size_t errlen);

#endif
