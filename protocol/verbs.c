/*
 * verbs.c: the table of verbs: wire name, which request fields each takes
 * and requires, its shorthand form and positional arguments, and the one
 * sentence help shows. docs/PROTOCOL.md describes the same table.
 */
#include <string.h>

#include "protocol/protocol.h"

#define F(x) (1u << PROTO_F_##x)

struct verbs_entry {
	const char *name;
	unsigned fields;   /* fields decoded for this verb (room: always) */
	unsigned required; /* fields that must be present */
	enum proto_shorthand_args args;
	int positional[2]; /* fields of the positional arguments, -1: none */
	const char *shorthand;
	const char *summary;
};

static const struct verbs_entry verbs_table[PROTO_VERB_COUNT] = {
    [PROTO_HELLO] = {"hello", F(NAME) | F(TOKEN) | F(PROTO), F(NAME),
        PROTO_ARGS_FIELDS, {PROTO_F_NAME, PROTO_F_TOKEN}, "hello NAME [TOKEN]",
        "log in; the first hello of a name returns its token"},
    [PROTO_GAMES] = {"games", 0, 0, PROTO_ARGS_FIELDS, {-1, -1}, "games",
        "the games, their seats, options and move notation"},
    [PROTO_ROOMS] = {"rooms", F(GAME) | F(STATUS), 0, PROTO_ARGS_ROOMS,
        {-1, -1}, "rooms [GAME] [waiting|playing|ended|adjourned]",
        "the public rooms, of one game or status if you say"},
    [PROTO_CREATE] = {"create",
        F(GAME) | F(OPTIONS) | F(SEAT) | F(BOTS) | F(BOT) | F(PRIVATE) |
            F(CLOCK) | F(DEPTH),
        F(GAME), PROTO_ARGS_FIELDS, {PROTO_F_GAME, -1},
        "create GAME [OPTION=VALUE ...] [seat=SEAT] [bot=LEVEL] "
        "[bots=SEAT:LEVEL,...] [depth=PLIES] [private=yes] "
        "[time=SECONDS] [inc=SECONDS]",
        "open a new room and take a seat in it"},
    [PROTO_JOIN] = {"join", F(SEAT), 0, PROTO_ARGS_FIELDS,
        {PROTO_F_ROOM, PROTO_F_SEAT}, "join ROOM [SEAT]",
        "take a free seat in a room (or resume yours)"},
    [PROTO_WATCH] = {"watch", 0, 0, PROTO_ARGS_FIELDS, {PROTO_F_ROOM, -1},
        "watch ROOM", "watch a room's game"},
    [PROTO_LEAVE] = {"leave", 0, 0, PROTO_ARGS_FIELDS, {PROTO_F_ROOM, -1},
        "leave [ROOM]", "leave a room (resigns a running game you play)"},
    [PROTO_STATE] = {"state", 0, 0, PROTO_ARGS_FIELDS, {PROTO_F_ROOM, -1},
        "state [ROOM]", "the full state of a room's game"},
    [PROTO_MOVES] = {"moves", F(FROM), 0, PROTO_ARGS_FIELDS, {PROTO_F_FROM, -1},
        "moves [FROM]", "the legal moves, all or from one square"},
    [PROTO_MOVE] = {"move", F(MOVE) | F(SEQ), F(MOVE), PROTO_ARGS_JOIN,
        {PROTO_F_MOVE, -1}, "move MOVE [seq=N]",
        "play a move in the game's notation"},
    [PROTO_RESIGN] = {"resign", 0, 0, PROTO_ARGS_FIELDS, {PROTO_F_ROOM, -1},
        "resign [ROOM]", "give up the game"},
    [PROTO_DRAW] = {"draw", F(ACTION), F(ACTION), PROTO_ARGS_FIELDS,
        {PROTO_F_ACTION, -1}, "draw offer|accept|decline",
        "offer a draw, or answer an offer"},
    [PROTO_UNDO] = {"undo", 0, 0, PROTO_ARGS_FIELDS, {PROTO_F_ROOM, -1},
        "undo [ROOM]", "one-player games: take back the last move"},
    [PROTO_RESTART] = {"restart", 0, 0, PROTO_ARGS_FIELDS, {PROTO_F_ROOM, -1},
        "restart [ROOM]", "one-player games: back to the start of this board"},
    [PROTO_NEXT] = {"next", 0, 0, PROTO_ARGS_FIELDS, {PROTO_F_ROOM, -1},
        "next [ROOM]", "one-player games: the next level once solved"},
    [PROTO_HINT] = {"hint", 0, 0, PROTO_ARGS_FIELDS, {PROTO_F_ROOM, -1},
        "hint [ROOM]",
        "one-player games: a move that keeps the puzzle solvable"},
    [PROTO_REMATCH] = {"rematch", 0, 0, PROTO_ARGS_FIELDS, {PROTO_F_ROOM, -1},
        "rematch [ROOM]", "after the end: play again in the same room"},
    [PROTO_CLAIM] = {"claim", 0, 0, PROTO_ARGS_FIELDS, {PROTO_F_ROOM, -1},
        "claim [ROOM]",
        "win when the opponent stayed away past the grace period"},
    [PROTO_EXPORT] = {"export", 0, 0, PROTO_ARGS_FIELDS, {PROTO_F_ROOM, -1},
        "export [ROOM]", "the position in the game's file format"},
    [PROTO_CHAT] = {"chat", F(TEXT), F(TEXT), PROTO_ARGS_REST,
        {PROTO_F_TEXT, -1}, "chat TEXT",
        "chat in the lobby (with room=ID first: in that room)"},
    [PROTO_SAY] = {"say", F(TEXT), F(TEXT), PROTO_ARGS_REST, {PROTO_F_TEXT, -1},
        "say TEXT", "chat in your current room"},
    [PROTO_WHO] = {"who", 0, 0, PROTO_ARGS_FIELDS, {-1, -1}, "who",
        "the players online"},
    [PROTO_PING] = {"ping", 0, 0, PROTO_ARGS_FIELDS, {-1, -1}, "ping", "pong"},
    [PROTO_QUIT] = {"quit", 0, 0, PROTO_ARGS_FIELDS, {-1, -1}, "quit",
        "say goodbye and close the connection"},
    [PROTO_MODE] = {"mode", F(MODE), F(MODE), PROTO_ARGS_FIELDS,
        {PROTO_F_MODE, -1}, "mode json|text",
        "switch this connection's output to JSON or text"},
    [PROTO_HELP] = {"help", 0, 0, PROTO_ARGS_FIELDS, {-1, -1}, "help",
        "this list"},
};

const char *
proto_verb_name(enum proto_verb v)
{
	if ((int)v < 0 || v >= PROTO_VERB_COUNT)
		return NULL;
	return verbs_table[v].name;
}

enum proto_verb
proto_verb_from_name(const char *name)
{
	int v;

	if (name == NULL)
		return PROTO_VERB_COUNT;
	for (v = 0; v < PROTO_VERB_COUNT; v++) {
		if (strcmp(verbs_table[v].name, name) == 0)
			return (enum proto_verb)v;
	}
	return PROTO_VERB_COUNT;
}

const char *
proto_verb_shorthand(enum proto_verb v)
{
	if ((int)v < 0 || v >= PROTO_VERB_COUNT)
		return NULL;
	return verbs_table[v].shorthand;
}

const char *
proto_verb_summary(enum proto_verb v)
{
	if ((int)v < 0 || v >= PROTO_VERB_COUNT)
		return NULL;
	return verbs_table[v].summary;
}

int
proto_verb_has_field(enum proto_verb v, enum proto_field field)
{
	if ((int)v < 0 || v >= PROTO_VERB_COUNT)
		return 0;
	if (field == PROTO_F_ROOM)
		return 1;
	return (verbs_table[v].fields & (1u << field)) != 0;
}

int
proto_verb_requires(enum proto_verb v, enum proto_field field)
{
	if ((int)v < 0 || v >= PROTO_VERB_COUNT)
		return 0;
	return (verbs_table[v].required & (1u << field)) != 0;
}

enum proto_shorthand_args
proto_verb_args(enum proto_verb v, int positional[2])
{
	positional[0] = verbs_table[v].positional[0];
	positional[1] = verbs_table[v].positional[1];
	return verbs_table[v].args;
}
