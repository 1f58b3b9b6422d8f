/*
 * client.h: tablero, the terminal client: its one internal header, with
 * the prototypes grouped by file in file order.
 *
 * The client keeps one connection to tablerod (conn.c), speaks JSON only,
 * turns what the server sends into screens (session.c, view.c), reads the
 * keyboard with libedit's readline-compatible callback interface (term.c)
 * or script lines (--batch), and asks each game's prompt file
 * (game_*.c, found through games.c) how to talk to the player. No game's
 * name appears outside game_*.c and games.c.
 */
#ifndef TABLERO_CLIENT_H
#define TABLERO_CLIENT_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "protocol/protocol.h"
#include "rules/rules.h"

#define CLIENT_VERSION "0.1.0"
#define CLIENT_DEFAULT_HOST "localhost"
#define CLIENT_DEFAULT_PORT "7777"
/* The port --tls uses unless one is given: where docs/WEB.md suggests
 * tablerod --tls-port listens. */
#define CLIENT_TLS_PORT "7443"

/* Exit codes, as docs/tablero.1 lists them. */
enum client_exit {
	CLIENT_EXIT_OK = 0,       /* quit, end of input, end of a batch */
	CLIENT_EXIT_USAGE = 1,    /* bad command line */
	CLIENT_EXIT_CONNECT = 2,  /* could not reach the server at start */
	CLIENT_EXIT_LOGIN = 3,    /* the server refused the name or token */
	CLIENT_EXIT_LOST = 4,     /* batch: the connection was lost */
	CLIENT_EXIT_INTERNAL = 5, /* out of memory, a broken terminal */
};

/* Longest line the server may send us: a state with a 16 KiB board file
 * option and its picture fits many times; anything longer is a broken or
 * hostile server, and the line is dropped with a notice. */
#define CLIENT_LINE_MAX (256 * 1024)

/* Requests we wait for at once (replies come in order): a script may send
 * many without waiting; past this we stop reading its input until replies
 * arrive, so our memory stays bounded whatever the server does. */
#define CLIENT_PENDING_MAX 64

/* Reconnect backoff: first wait and cap, in milliseconds. */
#define CLIENT_BACKOFF_FIRST_MS 500
#define CLIENT_BACKOFF_MAX_MS 8000

/* Longest file load and save read or write (the largest option value). */
#define CLIENT_FILE_MAX PROTO_OPTION_VALUE_MAX

/* Room for a seat or player name, a room id, a move: the protocol's 64. */
#define CLIENT_FIELD (PROTO_FIELD_MAX + 1)

/* Most choices a prompt offers at once (a peg's jump directions). */
#define CLIENT_CHOICES_MAX 8

/* What a pending request's reply is for, beyond printing it. */
enum client_purpose {
	CLIENT_P_PRINT, /* print the reply for people */
	CLIENT_P_HELLO, /* our own login: store the token, resume */
	CLIENT_P_SAVE,  /* an export to write to a local file */
	CLIENT_P_QUIET, /* a resume join/state: show the state only */
	CLIENT_P_MOVE,  /* a move: an error re-asks the game's prompt */
	CLIENT_P_PAGE,  /* a state's next page of history, for replay.c */
};

struct client_pending {
	enum client_purpose purpose;
	char *path; /* CLIENT_P_SAVE: where to write */
};

/* The room being played or watched, rebuilt from every state and event. */
struct client_room {
	int active; /* 0: in the lobby */
	char id[CLIENT_FIELD];
	const struct rules_game *rg;
	const struct client_game *cg;
	cJSON *options; /* the room's options (for rules init) */
	int myseat;     /* our seat number, or -1 when watching */
	char seats[2][CLIENT_FIELD];
	char names[2][CLIENT_FIELD];
	int bots[2]; /* the seat is a bot's (its name is said, not sent) */
	enum proto_room_status status; /* PROTO_ROOM_STATUS_COUNT: unknown */
	int turn;                      /* seat to move, or -1 */
	long long seq;
	int have_state; /* st holds the position */
	_Alignas(16) unsigned char st[RULES_STATE_MAX];
	_Alignas(16) unsigned char before[RULES_STATE_MAX]; /* of the last
	                                                 move */
	int have_last;
	struct rules_move last;
	int has_clocks;
	long long clocks[2]; /* ms left when clocks_at was taken */
	long long clocks_at; /* monotonic ms when they were received */
	int clocks_running;  /* the side to move's clock is running */
	int clocks_stopped;  /* the server stopped them (a clock event with
	                        stopped: a cluster cut a player off) until
	                        its next clock event */
	/* The game prompt's own progress through a move. */
	int step;
	char part[3][CLIENT_FIELD];
	int nchoices;
	char choices[CLIENT_CHOICES_MAX][CLIENT_FIELD];
	int ask_again;   /* the game ended: waiting for the play-again answer */
	char result[16]; /* the last game's result: win, draw, solved... */
	/* replay.c: the game played again from its options through the
	 * state's pages of history, to find the last move. */
	int replaying;
	int board_due; /* the board waits for the replay's last page */
	long long replay_n, replay_total; /* moves replayed, to replay */
	struct rules_move replay_last;
	_Alignas(16) unsigned char replay[RULES_STATE_MAX];
};

/* What the player asked for that would leave a running two-player game,
 * asked first (command_leave_asks). */
enum client_leaving {
	CLIENT_LEAVE_NO,   /* nothing is asked */
	CLIENT_LEAVE_QUIT, /* quit, exit, Ctrl-D: the seat is kept a while */
	CLIENT_LEAVE_ROOM, /* leave: resigns the game */
};

/* Most rooms where the player holds a seat that the client follows
 * (mine.c); a player in more games than this still gets every event,
 * without the reminder. */
#define CLIENT_MINE_MAX 32

/* A room where we hold a seat (mine.c). */
struct client_mine {
	char room[CLIENT_FIELD];
	char game[CLIENT_FIELD];
	char seat[CLIENT_FIELD];
	char against[CLIENT_FIELD]; /* the other player's name, or "" */
	char tourney[CLIENT_FIELD]; /* its tournament, or "" */
	int my_turn;
};

/* What the user asked on the command line. */
struct client_opts {
	char host[256];
	char port[16];
	char name[CLIENT_FIELD];
	int color;
	int batch;
	int tls;           /* --tls: the connection is TLS (tls.c) */
	char tls_pin[512]; /* --tls-pin: the one certificate trusted */
};

struct client {
	struct event_base *base;
	struct client_opts opts;
	struct bufferevent *bev;
	struct proto_framer *framer;
	struct event *retry;
	struct event *tick;
	int connected;
	int logged_in;
	int resyncing; /* a quiet join/watch/state is on its way */
	int ever_logged_in;
	int backoff_ms;
	int token_retried; /* the kept token was refused: hello without it */
	int dozing;        /* closed by the server for idling, or by an operator
	                    * (the error's enum proto_error, else 0): connect
	                    * again only when the user asks for something */
	const char *lost_why; /* why the connection ended (static text) */
	int heard;            /* a byte came on this connection */
	int probed;           /* the TLS probe went out on this connection */
	int tls_port; /* the connection ended as a TLS port ends a line */
	char token[CLIENT_FIELD];
	struct client_pending pending[CLIENT_PENDING_MAX];
	int npending, pending_head;
	struct client_room room;
	struct client_mine mine[CLIENT_MINE_MAX]; /* mine.c */
	char invited[CLIENT_FIELD]; /* the last room we were invited to */
	int nmine;
	FILE *out;       /* where screens (or batch JSON lines) go */
	int interactive; /* libedit owns the terminal */
	int input_done;  /* batch: stdin ended */
	int asking_name; /* the prompt asks for the name */
	const struct client_game *asking_start; /* its start question is
	                                           asked */
	enum client_leaving asking_leave; /* a yes leaves the running game */
	int quitting;
	int exit_code;
	struct evbuffer *batch_in; /* batch: the script read so far */
	struct event *batch_ev;
	int batch_final;  /* batch: the closing ping is sent */
	char *batch_held; /* batch: a local line waiting for the replies */
};

/* main.c: flags, exit codes, the loop. */

/* conn.c: the connection: connect, read lines, send, reconnect. */
int conn_start(struct client *c);
void conn_stop(struct client *c);
int conn_send(struct client *c, cJSON *req, enum client_purpose purpose,
    const char *path);
int conn_send_raw(struct client *c, const char *line, size_t len);
void conn_lost(struct client *c, const char *why);

/* session.c: every line from the server: replies, events, login, resume. */
void session_line(struct client *c, const char *line, size_t len);
void session_connected(struct client *c);
void session_hello(struct client *c);
void session_free(struct client *c);

/* room.c: the current room's state kept from states and events. */
void room_clear(struct client_room *r);
int room_take_state(struct client *c, struct client_room *r, const cJSON *st);
int room_from_state(struct client *c, const cJSON *st);
void room_from_event(
    struct client *c, const cJSON *ev, enum proto_event_kind ev_kind);
int room_my_turn(const struct client_room *r);
void room_move_text(
    const struct client_room *r, const cJSON *ev, char *buf, size_t len);
int room_playing_against(const struct client_room *r);
const char *room_seat_label(
    const struct client_room *r, int seat, char *buf, size_t len);
/* Room for one room_seat_label: a seat name and a player name. */
#define CLIENT_LABEL (2 * CLIENT_FIELD + 8)

/* mine.c: the games where we hold a seat, and where our move waits. */
int mine_has(struct client *c, const char *id);
void mine_drop(struct client *c, const char *id);
void mine_from_hello(struct client *c, const cJSON *rooms);
void mine_from_state(struct client *c, const cJSON *st);
void mine_tourney(struct client *c, const cJSON *ev);
int mine_event(struct client *c, const cJSON *ev, enum proto_event_kind ev_kind,
    int quiet);
void mine_waiting(const struct client *c, char *buf, size_t len);
void mine_list(struct client *c);

/* replay.c: the last move of a room joined, found by replaying it. */
int replay_start(struct client_room *r, const cJSON *st);
long long replay_page(struct client_room *r, const cJSON *st);

/* view.c: boards, sentences, colours. */
void view_print(struct client *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void view_text(struct client *c, const char *text);
void view_board(struct client *c);
void view_board_of(struct client *c, struct client_room *r);
const char *view_picture(struct client *c);
void view_clocks(struct client *c, char *buf, size_t len);
void view_error(struct client *c, const cJSON *rep);
void view_refuse(struct client *c, const char *verb, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
long long view_now_ms(void);
int view_rows(void);

/* term.c: the keyboard through libedit; printing above the prompt. */
int term_start(struct client *c);
void term_stop(struct client *c);
void term_write(struct client *c, const char *text);
void term_prompt(struct client *c);
void term_add_room(const char *id);
void term_editor_off(struct client *c);
void term_editor_on(struct client *c);

/* account.c: the password command, asked without echo. */
void account_password(struct client *c);

/* secret.c: a password typed without echo (termios). done gets it, or
 * NULL when the user gave up; it is wiped after done returns. */
typedef void secret_fn(struct client *c, const char *secret);
void secret_ask(struct client *c, const char *prompt, secret_fn *done);
int secret_active(void);
int secret_read(struct client *c, int fd);
void secret_redraw(struct client *c);
void secret_cancel(struct client *c);

/* command.c: one line the user typed (or a script line). */
void command_line(struct client *c, const char *line);
int command_leave_asks(struct client *c, enum client_leaving what);
void command_interrupt(struct client *c, int typed);
int command_is_verb(const char *word);
const char *command_word(int i);

/* files.c: load FILE and save FILE on the user's machine. */
void files_load(struct client *c, const char *args);
void files_save(struct client *c, const char *args);
void files_saved(struct client *c, const cJSON *rep, const char *path);
char *files_read(const char *path, size_t *len, char *err, size_t errlen);
char *files_last(const char *game, size_t *len);

/* token.c: the token store under $XDG_CONFIG_HOME/tablero/. */
int token_dir(char *buf, size_t len, int create);
int token_load(const struct client_opts *o, char *token, size_t len);
int token_save(const struct client_opts *o, const char *token);
int token_last_name(const struct client_opts *o, char *name, size_t len);

/* tls.c: --tls. */
struct bufferevent *tls_wrap(
    struct client *c, struct bufferevent *bev, char *why, size_t len);
const char *tls_why(struct bufferevent *bev);

/* batch.c: --batch: script lines in, JSON lines out. */
int batch_start(struct client *c);
void batch_reply_seen(struct client *c);
void batch_stop(struct client *c);

/* games.c and game_*.c: each game's way of talking to the player. */

/* What a typed line in our turn comes to. */
enum cg_action {
	CG_AGAIN,  /* stay: msg says why (or what comes next) */
	CG_SEND,   /* send move */
	CG_RESIGN, /* the player gives up */
	CG_VERB,   /* send the verb in move (restart, undo) */
};

struct client_game {
	/* The game's descriptor in rules/: its name, title and seats come
	 * from there (one registry of games), this table keyed by it. */
	const struct rules_game *rules;
	/* The prompt for the player's next step (our turn). */
	void (*prompt)(const struct client_room *r, char *buf, size_t len);
	/* One line typed in our turn. */
	enum cg_action (*input)(struct client_room *r, const char *line,
	    char *move, size_t mlen, char *msg, size_t msglen);
	/* A sentence for a played move (NULL: the server's text). */
	void (*moved)(const struct client_room *r, const cJSON *ev, char *buf,
	    size_t len);
	/* The server's reason for an illegal move in the game's words. */
	void (*reason)(const struct client_room *r, const char *why, char *buf,
	    size_t len);
	/* The line said when the game ends (NULL: the generic one). */
	void (*ended)(const struct client_room *r, const cJSON *ev, char *buf,
	    size_t len);
	/* The play-again question. */
	const char *again;
	/* Asked before creating a room of this game (NULL: none); the
	 * answer goes to start(), which may add options to the create. */
	const char *start_question;
	int (*start)(struct client *c, const char *answer, cJSON *create,
	    char *msg, size_t msglen); /* 0 send, 1 ask again, -1 drop */
	/* Said when a game starts (NULL: nothing more). */
	void (*started)(const struct client_room *r, char *buf, size_t len);
	/* The verb a "yes" to the play-again question sends (NULL:
	 * rematch). */
	const char *(*again_verb)(const struct client_room *r);
	/* 1 when the server starts the next game by itself after this end
	 * (no play-again question); NULL: it never does. */
	int (*goes_on)(const struct client_room *r, const cJSON *ev);
	/* The board drawn instead of rules' picture (NULL: the picture):
	 * st is r->st, or r->before (marks 0) for the last move's
	 * highlight; marks: show where the move being entered can go;
	 * rows: the terminal's height (0: unknown). Its length, or -1 for
	 * rules' picture. */
	int (*draw)(const struct client_room *r, const void *st, int marks,
	    int rows, char *buf, size_t len);
	/* 1: a move is entered in steps, the board is drawn again after
	 * each, and an empty line goes to input() (it goes back a step). */
	int steps;
	/* A moves reply for people, shorter than the protocol's list
	 * (NULL: the protocol's text). */
	void (*moves)(const struct client_room *r, const cJSON *rep, char *buf,
	    size_t len);
};

extern const struct client_game game_amazons, game_ataxx, game_stones,
    game_solitaire, game_shifter;
const struct client_game *games_find(const char *name);
const struct client_game *games_for(const struct rules_game *rg);
const struct client_game *games_at(int i);
void games_reason_default(
    const struct client_room *r, const char *why, char *buf, size_t len);
int games_square_moves(const struct client_room *r, const char *square,
    struct rules_move *out, int max, char *err, size_t errlen);
void games_trim(const char *in, char *out, size_t len);

#endif
