/*
 * verbs.c: the table of verbs: one row per verb of PROTO_VERBS with its
 * wire name, whether it needs hello, which request fields it takes and
 * requires, its shorthand form and positional arguments, the one sentence
 * help shows and its text rendering. docs/PROTOCOL.md describes the same
 * table; the server's handlers are found by the same list (cmd_<name>).
 */
#include <string.h>

#include "protocol/protocol.h"

#define F(x) (1u << PROTO_F_##x)
/* A verb's fields are bits of an unsigned: a field past the 32nd needs a
 * wider type. */
_Static_assert(PROTO_F_COUNT <= 32, "more fields than bits in .fields");

/* One verb: each row below is named verbs_<name>. */
struct verbs_entry {
	const char *name;
	int login;         /* 1: only after hello */
	unsigned fields;   /* fields decoded for this verb (room: always) */
	unsigned required; /* fields that must be present */
	enum proto_shorthand_args args;
	int positional[2]; /* fields of the positional arguments, -1: none */
	const char *usage; /* the shorthand form, for help and errors */
	const char *summary;
	text_fn *text;    /* the reply in text mode */
	const char *said; /* text_reply_said's fixed sentence */
};

static const struct verbs_entry verbs_hello = {
    .name = "hello",
    .login = 0,
    .fields =
        F(NAME) | F(TOKEN) | F(PROTO) | F(PASSWORD) | F(EVENTS) | F(LOBBY),
    .required = F(NAME),
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_NAME, PROTO_F_TOKEN},
    .usage = "hello NAME [TOKEN | password=PASSWORD]",
    .summary = "log in; the first hello of a name returns its token",
    .text = text_reply_hello,
};

static const struct verbs_entry verbs_password = {
    .name = "password",
    .login = 1,
    .fields = F(PASSWORD) | F(OLD),
    .required = F(PASSWORD),
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_PASSWORD, PROTO_F_OLD},
    .usage = "password NEW [OLD]",
    .summary = "set your password (OLD: the one it replaces), to log in "
               "anywhere with hello NAME password=NEW",
    .text = text_reply_said,
    .said = "Password set: from any machine, hello NAME password=... logs "
            "you in.",
};

static const struct verbs_entry verbs_games = {
    .name = "games",
    .login = 0,
    .fields = 0,
    .required = 0,
    .args = PROTO_ARGS_FIELDS,
    .positional = {-1, -1},
    .usage = "games",
    .summary = "the games, their seats, options and move notation",
    .text = text_reply_games,
};

static const struct verbs_entry verbs_rooms = {
    .name = "rooms",
    .login = 1,
    .fields = F(GAME) | F(STATUS) | F(FROM),
    .required = 0,
    .args = PROTO_ARGS_ROOMS,
    .positional = {-1, -1},
    .usage = "rooms [GAME] [waiting|playing|ended|adjourned] [from=ROOM]",
    .summary = "the public rooms, newest first, a page at a time",
    .text = text_reply_rooms,
};

static const struct verbs_entry verbs_create = {
    .name = "create",
    .login = 1,
    .fields = F(GAME) | F(OPTIONS) | F(SEAT) | F(BOTS) | F(BOT) | F(PRIVATE) |
        F(CLOCK) | F(DEPTH),
    .required = F(GAME),
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_GAME, -1},
    .usage = "create GAME [OPTION=VALUE ...] [seat=SEAT] [bot=LEVEL] "
             "[bots=SEAT:LEVEL,...] [depth=PLIES] [private=yes] "
             "[time=SECONDS] [inc=SECONDS]",
    .summary = "open a new room and take a seat in it",
    .text = text_reply_seated,
};

static const struct verbs_entry verbs_join = {
    .name = "join",
    .login = 1,
    .fields = F(SEAT),
    .required = 0,
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_ROOM, PROTO_F_SEAT},
    .usage = "join ROOM [SEAT]",
    .summary = "take a free seat in a room (or resume yours)",
    .text = text_reply_seated,
};

static const struct verbs_entry verbs_watch = {
    .name = "watch",
    .login = 1,
    .fields = 0,
    .required = 0,
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_ROOM, -1},
    .usage = "watch ROOM",
    .summary = "watch a room's game",
    .text = text_reply_watch,
};

static const struct verbs_entry verbs_leave = {
    .name = "leave",
    .login = 1,
    .fields = 0,
    .required = 0,
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_ROOM, -1},
    .usage = "leave [ROOM]",
    .summary = "leave a room (resigns a running game you play)",
    .text = text_reply_leave,
};

static const struct verbs_entry verbs_state = {
    .name = "state",
    .login = 1,
    .fields = F(SINCE) | F(AT),
    .required = 0,
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_ROOM, -1},
    .usage = "state [ROOM] [since=N] [at=N]",
    .summary = "the full state of a room's game (history after move N; "
               "the board after move N)",
    .text = text_reply_state,
};

static const struct verbs_entry verbs_moves = {
    .name = "moves",
    .login = 1,
    .fields = F(FROM),
    .required = 0,
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_FROM, -1},
    .usage = "moves [FROM]",
    .summary = "the legal moves, all or from one square",
    .text = text_reply_moves,
};

static const struct verbs_entry verbs_move = {
    .name = "move",
    .login = 1,
    .fields = F(MOVE) | F(SEQ),
    .required = F(MOVE),
    .args = PROTO_ARGS_JOIN,
    .positional = {PROTO_F_MOVE, -1},
    .usage = "move MOVE [seq=N]",
    .summary = "play a move in the game's notation",
    .text = text_reply_move,
};

static const struct verbs_entry verbs_resign = {
    .name = "resign",
    .login = 1,
    .fields = 0,
    .required = 0,
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_ROOM, -1},
    .usage = "resign [ROOM]",
    .summary = "give up the game",
    .text = text_reply_said,
    .said = "You resigned.",
};

static const struct verbs_entry verbs_draw = {
    .name = "draw",
    .login = 1,
    .fields = F(ACTION),
    .required = F(ACTION),
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_ACTION, -1},
    .usage = "draw offer|accept|decline",
    .summary = "offer a draw, or answer an offer",
    .text = text_reply_ok,
};

static const struct verbs_entry verbs_takeback = {
    .name = "takeback",
    .login = 1,
    .fields = F(ACTION),
    .required = F(ACTION),
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_ACTION, -1},
    .usage = "takeback offer|accept|decline",
    .summary = "two-player games: ask to take back your last move, or "
               "answer",
    .text = text_reply_ok,
};

static const struct verbs_entry verbs_undo = {
    .name = "undo",
    .login = 1,
    .fields = 0,
    .required = 0,
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_ROOM, -1},
    .usage = "undo [ROOM]",
    .summary = "one-player games: take back the last move",
    .text = text_reply_ok,
};

static const struct verbs_entry verbs_restart = {
    .name = "restart",
    .login = 1,
    .fields = 0,
    .required = 0,
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_ROOM, -1},
    .usage = "restart [ROOM]",
    .summary = "one-player games: back to the start of this board",
    .text = text_reply_ok,
};

static const struct verbs_entry verbs_next = {
    .name = "next",
    .login = 1,
    .fields = 0,
    .required = 0,
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_ROOM, -1},
    .usage = "next [ROOM]",
    .summary = "one-player games: the next level once solved",
    .text = text_reply_ok,
};

static const struct verbs_entry verbs_hint = {
    .name = "hint",
    .login = 1,
    .fields = 0,
    .required = 0,
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_ROOM, -1},
    .usage = "hint [ROOM]",
    .summary = "one-player games: a move that keeps the puzzle solvable",
    .text = text_reply_hint,
};

static const struct verbs_entry verbs_rematch = {
    .name = "rematch",
    .login = 1,
    .fields = 0,
    .required = 0,
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_ROOM, -1},
    .usage = "rematch [ROOM]",
    .summary = "after the end: play again in the same room",
    .text = text_reply_ok,
};

static const struct verbs_entry verbs_mine = {
    .name = "mine",
    .login = 1,
    .fields = 0,
    .required = 0,
    .args = PROTO_ARGS_FIELDS,
    .positional = {-1, -1},
    .usage = "mine",
    .summary = "the games you sit in, and where it is your move",
    .text = text_reply_mine,
};

static const struct verbs_entry verbs_claim = {
    .name = "claim",
    .login = 1,
    .fields = 0,
    .required = 0,
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_ROOM, -1},
    .usage = "claim [ROOM]",
    .summary = "win when the opponent stayed away past the grace period",
    .text = text_reply_ok,
};

static const struct verbs_entry verbs_export = {
    .name = "export",
    .login = 1,
    .fields = 0,
    .required = 0,
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_ROOM, -1},
    .usage = "export [ROOM]",
    .summary = "the position in the game's file format",
    .text = text_reply_export,
};

static const struct verbs_entry verbs_chat = {
    .name = "chat",
    .login = 1,
    .fields = F(TEXT),
    .required = F(TEXT),
    .args = PROTO_ARGS_REST,
    .positional = {PROTO_F_TEXT, -1},
    .usage = "chat TEXT",
    .summary = "chat in the lobby (with room=ID first: in that room)",
    .text = text_reply_said,
    .said = "Sent.",
};

static const struct verbs_entry verbs_say = {
    .name = "say",
    .login = 1,
    .fields = F(TEXT),
    .required = F(TEXT),
    .args = PROTO_ARGS_REST,
    .positional = {PROTO_F_TEXT, -1},
    .usage = "say TEXT",
    .summary = "chat in your current room",
    .text = text_reply_said,
    .said = "Sent.",
};

static const struct verbs_entry verbs_tell = {
    .name = "tell",
    .login = 1,
    .fields = F(NAME) | F(TEXT),
    .required = F(NAME) | F(TEXT),
    .args = PROTO_ARGS_REST,
    .positional = {PROTO_F_NAME, PROTO_F_TEXT},
    .usage = "tell NAME TEXT",
    .summary = "a private message to a player who is connected",
    .text = text_reply_said,
    .said = "Sent.",
};

static const struct verbs_entry verbs_invite = {
    .name = "invite",
    .login = 1,
    .fields = F(NAME),
    .required = F(NAME),
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_NAME, PROTO_F_ROOM},
    .usage = "invite NAME [ROOM]",
    .summary = "invite a connected player to a room you are in (only "
               "they see its id)",
    .text = text_reply_said,
    .said = "Invited.",
};

static const struct verbs_entry verbs_message = {
    .name = "message",
    .login = 1,
    .fields = F(NAME) | F(TEXT),
    .required = F(NAME) | F(TEXT),
    .args = PROTO_ARGS_REST,
    .positional = {PROTO_F_NAME, PROTO_F_TEXT},
    .usage = "message NAME TEXT",
    .summary = "a message kept for a registered player who is away, "
               "given at their next hello",
    .text = text_reply_message,
};

static const struct verbs_entry verbs_match = {
    .name = "match",
    .login = 1,
    .fields = F(NAME) | F(GAME) | F(OPTIONS) | F(CLOCK) | F(RATED),
    .required = F(NAME),
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_NAME, PROTO_F_GAME},
    .usage = "match NAME [GAME] [OPTION=VALUE ...] [time=SECONDS] "
             "[inc=SECONDS] [rated=yes|no]",
    .summary = "challenge a connected player to a game: they accept or "
               "decline",
    .text = text_reply_match,
};

static const struct verbs_entry verbs_accept = {
    .name = "accept",
    .login = 1,
    .fields = F(NAME),
    .required = 0,
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_NAME, -1},
    .usage = "accept [NAME]",
    .summary = "accept a challenge (match): the game starts at once",
    .text = text_reply_play,
};

static const struct verbs_entry verbs_decline = {
    .name = "decline",
    .login = 1,
    .fields = F(NAME),
    .required = 0,
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_NAME, -1},
    .usage = "decline [NAME]",
    .summary = "decline a challenge (match)",
    .text = text_reply_said,
    .said = "Declined.",
};

static const struct verbs_entry verbs_history = {
    .name = "history",
    .login = 1,
    .fields = F(NAME) | F(FROM),
    .required = 0,
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_NAME, -1},
    .usage = "history [NAME] [from=CURSOR]",
    .summary = "a player's finished games, newest first, a page at a "
               "time (yours without NAME)",
    .text = text_reply_history,
};

static const struct verbs_entry verbs_who = {
    .name = "who",
    .login = 1,
    .fields = 0,
    .required = 0,
    .args = PROTO_ARGS_FIELDS,
    .positional = {-1, -1},
    .usage = "who",
    .summary = "the players online",
    .text = text_reply_who,
};

static const struct verbs_entry verbs_ping = {
    .name = "ping",
    .login = 0,
    .fields = 0,
    .required = 0,
    .args = PROTO_ARGS_FIELDS,
    .positional = {-1, -1},
    .usage = "ping",
    .summary = "pong",
    .text = text_reply_said,
    .said = "pong",
};

static const struct verbs_entry verbs_quit = {
    .name = "quit",
    .login = 0,
    .fields = 0,
    .required = 0,
    .args = PROTO_ARGS_FIELDS,
    .positional = {-1, -1},
    .usage = "quit",
    .summary = "say goodbye and close the connection",
    .text = text_reply_said,
    .said = "Bye.",
};

static const struct verbs_entry verbs_mode = {
    .name = "mode",
    .login = 0,
    .fields = F(MODE),
    .required = F(MODE),
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_MODE, -1},
    .usage = "mode json|text",
    .summary = "switch this connection's output to JSON or text",
    .text = text_reply_said,
    .said = "Output is text now (mode json switches to JSON).",
};

static const struct verbs_entry verbs_help = {
    .name = "help",
    .login = 0,
    .fields = 0,
    .required = 0,
    .args = PROTO_ARGS_FIELDS,
    .positional = {-1, -1},
    .usage = "help",
    .summary = "this list",
    .text = text_reply_help,
};

static const struct verbs_entry verbs_finger = {
    .name = "finger",
    .login = 1,
    .fields = F(NAME),
    .required = 0,
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_NAME, -1},
    .usage = "finger [NAME]",
    .summary = "a player's profile: ratings, results, games now, member "
               "since, last seen (yours without NAME)",
    .text = text_reply_finger,
};

static const struct verbs_entry verbs_ratings = {
    .name = "ratings",
    .login = 1,
    .fields = F(GAME) | F(OPTIONS),
    .required = F(GAME),
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_GAME, -1},
    .usage = "ratings GAME [OPTION=VALUE] [page=N]",
    .summary = "a game's best players, 50 a page, provisional ones apart; "
               "a one-player game's records",
    .text = text_reply_ratings,
};

static const struct verbs_entry verbs_seek = {
    .name = "seek",
    .login = 1,
    .fields = F(GAME) | F(OPTIONS) | F(CLOCK) | F(RATED) | F(RANGE),
    .required = F(GAME),
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_GAME, PROTO_F_RATED},
    .usage = "seek GAME [OPTION=VALUE ...] [time=SECONDS] [inc=SECONDS] "
             "[rated|casual] [range=LO-HI]",
    .summary = "look for an opponent: a matching seek starts a game at once",
    .text = text_reply_seek,
};

static const struct verbs_entry verbs_play = {
    .name = "play",
    .login = 1,
    .fields = F(SEEK),
    .required = F(SEEK),
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_SEEK, -1},
    .usage = "play SEEK",
    .summary = "take a listed seek: its game starts at once",
    .text = text_reply_play,
};

static const struct verbs_entry verbs_seeks = {
    .name = "seeks",
    .login = 1,
    .fields = F(GAME),
    .required = 0,
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_GAME, -1},
    .usage = "seeks [GAME]",
    .summary = "the open seeks, newest first",
    .text = text_reply_seeks,
};

static const struct verbs_entry verbs_unseek = {
    .name = "unseek",
    .login = 1,
    .fields = F(SEEK),
    .required = 0,
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_SEEK, -1},
    .usage = "unseek [SEEK]",
    .summary = "withdraw one of your seeks, or all of them",
    .text = text_reply_seeks,
};

static const struct verbs_entry verbs_tourney = {
    .name = "tourney",
    .login = 1,
    .fields = F(DO) | F(TOURNEY) | F(GAME) | F(OPTIONS) | F(CLOCK),
    .required = F(DO),
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_DO, PROTO_F_TOURNEY},
    .usage = "tourney create GAME [OPTION=VALUE ...] "
             "[format=roundrobin|swiss] [rounds=N] [grace=SECONDS] "
             "[time=SECONDS] [inc=SECONDS] | tourney join|leave|start|show "
             "ID | tourney list",
    .summary = "tournaments: create one, join or leave it, start it (its "
               "organiser), list them, show standings and pairings",
    .text = text_reply_tourney,
};

static const struct verbs_entry verbs_block = {
    .name = "block",
    .login = 1,
    .fields = F(NAME),
    .required = F(NAME),
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_NAME, -1},
    .usage = "block NAME",
    .summary = "hear nothing more from a player: no tells, invites, "
               "pairings, joins or chat of theirs reach you",
    .text = text_reply_blocks,
};

static const struct verbs_entry verbs_unblock = {
    .name = "unblock",
    .login = 1,
    .fields = F(NAME),
    .required = F(NAME),
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_NAME, -1},
    .usage = "unblock NAME",
    .summary = "hear from a player you blocked again",
    .text = text_reply_blocks,
};

static const struct verbs_entry verbs_blocks = {
    .name = "blocks",
    .login = 1,
    .fields = 0,
    .required = 0,
    .args = PROTO_ARGS_FIELDS,
    .positional = {-1, -1},
    .usage = "blocks",
    .summary = "the players you block",
    .text = text_reply_blocks,
};

static const struct verbs_entry verbs_kick = {
    .name = "kick",
    .login = 1,
    .fields = F(NAME),
    .required = F(NAME),
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_NAME, -1},
    .usage = "kick NAME",
    .summary = "operators: close a player's connection",
    .text = text_reply_moderate,
};

static const struct verbs_entry verbs_mute = {
    .name = "mute",
    .login = 1,
    .fields = F(NAME) | F(MINUTES),
    .required = F(NAME),
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_NAME, PROTO_F_MINUTES},
    .usage = "mute NAME [MINUTES]",
    .summary = "operators: stop a player's chat, tells and invites (for "
               "MINUTES, or until unmute)",
    .text = text_reply_moderate,
};

static const struct verbs_entry verbs_unmute = {
    .name = "unmute",
    .login = 1,
    .fields = F(NAME),
    .required = F(NAME),
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_NAME, -1},
    .usage = "unmute NAME",
    .summary = "operators: let a muted player talk again",
    .text = text_reply_moderate,
};

static const struct verbs_entry verbs_ban = {
    .name = "ban",
    .login = 1,
    .fields = F(NAME) | F(ADDRESS),
    .required = 0,
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_NAME, -1},
    .usage = "ban NAME|ADDRESS[/BITS]",
    .summary = "operators: refuse an identity, or an address or network, "
               "from now on",
    .text = text_reply_moderate,
};

static const struct verbs_entry verbs_unban = {
    .name = "unban",
    .login = 1,
    .fields = F(NAME) | F(ADDRESS),
    .required = 0,
    .args = PROTO_ARGS_FIELDS,
    .positional = {PROTO_F_NAME, -1},
    .usage = "unban NAME|ADDRESS[/BITS]",
    .summary = "operators: lift a ban",
    .text = text_reply_moderate,
};

static const struct verbs_entry verbs_bans = {
    .name = "bans",
    .login = 1,
    .fields = 0,
    .required = 0,
    .args = PROTO_ARGS_FIELDS,
    .positional = {-1, -1},
    .usage = "bans",
    .summary = "operators: the bans and mutes in force",
    .text = text_reply_bans,
};

static const struct verbs_entry verbs_announce = {
    .name = "announce",
    .login = 1,
    .fields = F(TEXT),
    .required = F(TEXT),
    .args = PROTO_ARGS_REST,
    .positional = {PROTO_F_TEXT, -1},
    .usage = "announce TEXT",
    .summary = "operators: a message to everyone online",
    .text = text_reply_moderate,
};

/* The rows by verb; a verb of PROTO_VERBS without its verbs_<name> row does
 * not compile. */
static const struct verbs_entry *const verbs_table[] = {
#define VERBS_ROW(upper, lower) [PROTO_##upper] = &verbs_##lower,
    PROTO_VERBS(VERBS_ROW)
#undef VERBS_ROW
};
_Static_assert(sizeof verbs_table / sizeof verbs_table[0] == PROTO_VERB_COUNT,
    "one row per verb");

const char *
proto_verb_name(enum proto_verb v)
{
	if ((int)v < 0 || v >= PROTO_VERB_COUNT)
		return NULL;
	return verbs_table[v]->name;
}

enum proto_verb
proto_verb_from_name(const char *name)
{
	int v;

	if (name == NULL)
		return PROTO_VERB_COUNT;
	/* the first letter weeds out most rows before a strcmp */
	for (v = 0; v < PROTO_VERB_COUNT; v++) {
		if (verbs_table[v]->name[0] == name[0] &&
		    strcmp(verbs_table[v]->name, name) == 0)
			return (enum proto_verb)v;
	}
	return PROTO_VERB_COUNT;
}

const char *
proto_verb_shorthand(enum proto_verb v)
{
	if ((int)v < 0 || v >= PROTO_VERB_COUNT)
		return NULL;
	return verbs_table[v]->usage;
}

const char *
proto_verb_summary(enum proto_verb v)
{
	if ((int)v < 0 || v >= PROTO_VERB_COUNT)
		return NULL;
	return verbs_table[v]->summary;
}

int
proto_verb_has_field(enum proto_verb v, enum proto_field field)
{
	if ((int)v < 0 || v >= PROTO_VERB_COUNT)
		return 0;
	if (field == PROTO_F_ROOM)
		return 1;
	return (verbs_table[v]->fields & (1u << field)) != 0;
}

unsigned
proto_verb_fields(enum proto_verb v)
{
	if ((int)v < 0 || v >= PROTO_VERB_COUNT)
		return 0;
	return verbs_table[v]->fields | 1u << PROTO_F_ROOM;
}

unsigned
proto_verb_required(enum proto_verb v)
{
	if ((int)v < 0 || v >= PROTO_VERB_COUNT)
		return 0;
	return verbs_table[v]->required;
}

int
proto_verb_requires(enum proto_verb v, enum proto_field field)
{
	if ((int)v < 0 || v >= PROTO_VERB_COUNT)
		return 0;
	return (verbs_table[v]->required & (1u << field)) != 0;
}

enum proto_shorthand_args
proto_verb_args(enum proto_verb v, int positional[2])
{
	positional[0] = verbs_table[v]->positional[0];
	positional[1] = verbs_table[v]->positional[1];
	return verbs_table[v]->args;
}

int
proto_verb_login(enum proto_verb v)
{
	if ((int)v < 0 || v >= PROTO_VERB_COUNT)
		return 1;
	return verbs_table[v]->login;
}

const char *
proto_verb_said(enum proto_verb v)
{
	if ((int)v < 0 || v >= PROTO_VERB_COUNT)
		return NULL;
	return verbs_table[v]->said;
}

text_fn *
proto_verb_text(enum proto_verb v)
{
	return verbs_table[v]->text;
}

enum proto_verb
proto_verbs_check(void)
{
	int v;

	for (v = 0; v < PROTO_VERB_COUNT; v++) {
		const struct verbs_entry *e = verbs_table[v];

		if (e->name == NULL || e->usage == NULL || e->summary == NULL ||
		    e->text == NULL ||
		    (e->text == text_reply_said && e->said == NULL))
			return (enum proto_verb)v;
	}
	return PROTO_VERB_COUNT;
}
