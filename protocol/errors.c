/*
 * errors.c: the protocol's fixed vocabulary of error codes and their default
 * messages for people, in one table (docs/PROTOCOL.md lists the same).
 */
#include <string.h>

#include "protocol/protocol.h"

struct errors_entry {
	const char *code;
	const char *message;
};

static const struct errors_entry errors_table[PROTO_E_COUNT] = {
    [PROTO_OK] = {"ok", "ok"},
    [PROTO_E_BAD_JSON] = {"bad_json", "the line is not valid JSON"},
    [PROTO_E_BAD_REQUEST] = {"bad_request",
        "the request is missing a field or has a wrong one"},
    [PROTO_E_UNKNOWN_CMD] = {"unknown_cmd",
        "unknown command (help lists them)"},
    [PROTO_E_LINE_TOO_LONG] = {"line_too_long",
        "the line is longer than the server accepts"},
    [PROTO_E_NOT_LOGGED_IN] = {"not_logged_in",
        "say hello first: hello YOURNAME"},
    [PROTO_E_BAD_NAME] = {"bad_name",
        "a name is 1 to 16 letters, digits, '_' or '-'"},
    [PROTO_E_NAME_TAKEN] = {"name_taken",
        "that name is registered: hello NAME TOKEN"},
    [PROTO_E_BAD_TOKEN] = {"bad_token", "wrong token for that name"},
    [PROTO_E_BAD_PASSWORD] = {"bad_password", "wrong password for that name"},
    [PROTO_E_NO_SUCH_GAME] = {"no_such_game",
        "no such game (games lists them)"},
    [PROTO_E_BAD_OPTIONS] = {"bad_options", "bad game options"},
    [PROTO_E_NO_SUCH_ROOM] = {"no_such_room", "no such room"},
    [PROTO_E_ROOM_FULL] = {"room_full", "the room has no free seat"},
    [PROTO_E_NOT_IN_ROOM] = {"not_in_room", "you are not in that room"},
    [PROTO_E_NOT_A_PLAYER] = {"not_a_player", "you are watching, not playing"},
    [PROTO_E_NOT_YOUR_TURN] = {"not_your_turn", "it is not your turn"},
    [PROTO_E_ILLEGAL_MOVE] = {"illegal_move", "illegal move"},
    [PROTO_E_GAME_OVER] = {"game_over", "the game is over"},
    [PROTO_E_NOT_ALLOWED] = {"not_allowed", "not allowed now"},
    [PROTO_E_RATE_LIMITED] = {"rate_limited", "too many messages: slow down"},
    [PROTO_E_LIMIT_REACHED] = {"limit_reached", "a limit was reached"},
    [PROTO_E_SERVER_FULL] = {"server_full",
        "the server is full: try again later"},
    [PROTO_E_IDLE] = {"idle", "closed for being idle"},
    [PROTO_E_STORE_FAILING] = {"store_failing",
        "the server cannot store games right now; try again shortly"},
    [PROTO_E_NOT_READY] = {"not_ready",
        "this server has not joined its cluster yet; try again shortly"},
    [PROTO_E_BANNED] = {"banned",
        "an operator of this server banned you or your address"},
    [PROTO_E_KICKED] = {"kicked", "an operator closed your connection"},
    [PROTO_E_MUTED] = {"muted",
        "an operator muted you: you cannot chat, tell or invite now"},
    [PROTO_E_INTERNAL] = {"internal", "internal server error"},
};

const char *
proto_error_code(enum proto_error e)
{
	if ((int)e < 0 || e >= PROTO_E_COUNT)
		e = PROTO_E_INTERNAL;
	return errors_table[e].code;
}

const char *
proto_error_message(enum proto_error e)
{
	if ((int)e < 0 || e >= PROTO_E_COUNT)
		e = PROTO_E_INTERNAL;
	return errors_table[e].message;
}

enum proto_error
proto_error_from_code(const char *code)
{
	int i;

	if (code == NULL)
		return PROTO_E_COUNT;
	for (i = 0; i < PROTO_E_COUNT; i++) {
		if (strcmp(errors_table[i].code, code) == 0)
			return (enum proto_error)i;
	}
	return PROTO_E_COUNT;
}
