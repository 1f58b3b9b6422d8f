/*
 * events.c: the protocol's vocabulary of events, in one table: each
 * event's wire name, whether it belongs to a room (room id and seq), its
 * rendering in text mode and its lean form (docs/PROTOCOL.md lists the
 * same).
 */
#include <string.h>

#include "protocol/protocol.h"

/* 1 when the lean form leaves out member, a member of the event. */
typedef int events_lean_fn(const cJSON *member);

struct events_entry {
	const char *name;
	int in_room; /* 1: a room's event, with the room's id and seq (chat
	                also comes from the lobby, without them) */
	text_fn *text;
	events_lean_fn *lean; /* NULL: the same in both forms */
};

/* The lean moved event says what changed and no more: the mover's name
 * (its seat says who), the sentence, the position, the board rows and the
 * status go (turn is null exactly when the status is "ended", and the
 * ended event follows); clocks only in a room with clocks. A client
 * applies the move with the rules, or asks state when seq skips one. */
static int
events_lean_moved(const cJSON *m)
{
	static const char *const gone[] = {
	    "name", "text", "msg", "args", "position", "board", "status"};
	size_t i;

	if (m->string == NULL)
		return 0;
	for (i = 0; i < sizeof gone / sizeof gone[0]; i++)
		if (strcmp(m->string, gone[i]) == 0)
			return 1;
	if (strcmp(m->string, "clocks") == 0)
		return cJSON_IsNull(m);
	return 0;
}

static const struct events_entry events_table[] = {
    [PROTO_EV_WELCOME] = {"welcome", 0, text_event_welcome, NULL},
    [PROTO_EV_REPLACED] = {"replaced", 0, text_event_replaced, NULL},
    [PROTO_EV_SHUTDOWN] = {"shutdown", 0, text_event_shutdown, NULL},
    [PROTO_EV_CHAT] = {"chat", 1, text_event_chat, NULL},
    [PROTO_EV_JOINED] = {"joined", 1, text_event_joined, NULL},
    [PROTO_EV_LEFT] = {"left", 1, text_event_left, NULL},
    [PROTO_EV_STARTED] = {"started", 1, text_event_started, NULL},
    [PROTO_EV_MOVED] = {"moved", 1, text_event_moved, events_lean_moved},
    [PROTO_EV_ENDED] = {"ended", 1, text_event_ended, NULL},
    [PROTO_EV_DRAW_OFFERED] = {"draw_offered", 1, text_event_draw_offered,
        NULL},
    [PROTO_EV_DRAW_DECLINED] = {"draw_declined", 1, text_event_draw_declined,
        NULL},
    [PROTO_EV_TAKEBACK_OFFERED] = {"takeback_offered", 1,
        text_event_takeback_offered, NULL},
    [PROTO_EV_TAKEBACK_DECLINED] = {"takeback_declined", 1,
        text_event_takeback_declined, NULL},
    [PROTO_EV_REMATCH_OFFERED] = {"rematch_offered", 1,
        text_event_rematch_offered, NULL},
    [PROTO_EV_OPPONENT_GONE] = {"opponent_gone", 1, text_event_opponent_gone,
        NULL},
    [PROTO_EV_OPPONENT_BACK] = {"opponent_back", 1, text_event_opponent_back,
        NULL},
    [PROTO_EV_CLOCK] = {"clock", 1, text_event_clock, NULL},
    [PROTO_EV_UNDONE] = {"undone", 1, text_event_undone, NULL},
    [PROTO_EV_RESTARTED] = {"restarted", 1, text_event_restarted, NULL},
    [PROTO_EV_GRACE_OVER] = {"grace_over", 1, text_event_grace_over, NULL},
    [PROTO_EV_TOLD] = {"told", 0, text_event_told, NULL},
    [PROTO_EV_INVITED] = {"invited", 0, text_event_invited, NULL},
    [PROTO_EV_PAIRED] = {"paired", 0, text_event_paired, NULL},
    [PROTO_EV_TOURNEY_ROUND] = {"tourney_round", 0, text_event_tourney_round,
        NULL},
    /* A tournament game decided without being played (a forfeit). */
    [PROTO_EV_TOURNEY_RESULT] = {"tourney_result", 0, text_event_tourney_result,
        NULL},
    /* To the organiser: a player joined. */
    [PROTO_EV_TOURNEY_JOINED] = {"tourney_joined", 0, text_event_tourney_joined,
        NULL},
    [PROTO_EV_TOURNEY_ENDED] = {"tourney_ended", 0, text_event_tourney_ended,
        NULL},
    /* A message kept while its player was away (message), at hello. */
    [PROTO_EV_MESSAGE] = {"message", 0, text_event_message, NULL},
    /* A challenge to you (match), and the end of yours unanswered. */
    [PROTO_EV_CHALLENGED] = {"challenged", 0, text_event_challenged, NULL},
    [PROTO_EV_CHALLENGE_OVER] = {"challenge_over", 0, text_event_challenge_over,
        NULL},
    /* A cluster node lost the room to another node (SCALING.md part 3):
     * not a room event, as the room's seq is no longer this node's. */
    [PROTO_EV_RECONNECT] = {"reconnect", 0, text_event_reconnect, NULL},
    /* An operator's word to everyone online (announce). */
    [PROTO_EV_ANNOUNCEMENT] = {"announcement", 0, text_event_announcement,
        NULL},
    /* How many watch a room whose watchers come and go too many to name
     * one by one: names its room, with no seq (it is no part of the
     * game's history, and is sent from a timer, stored nowhere). */
    [PROTO_EV_WATCHERS] = {"watchers", 0, text_event_watchers, NULL},
    /* The lobby's list of rooms changed (hello's "lobby"): no room, no
     * seq, at most one a second (core/lobby.c). */
    [PROTO_EV_ROOMS_CHANGED] = {"rooms_changed", 0, text_event_rooms_changed,
        NULL},
};
_Static_assert(sizeof events_table / sizeof events_table[0] == PROTO_EV_COUNT,
    "one row per event");

const char *
proto_event_name(enum proto_event_kind e)
{
	if ((int)e < 0 || e >= PROTO_EV_COUNT)
		return NULL;
	return events_table[e].name;
}

enum proto_event_kind
proto_event_from_name(const char *name)
{
	int e;

	if (name == NULL)
		return PROTO_EV_COUNT;
	for (e = 0; e < PROTO_EV_COUNT; e++) {
		if (events_table[e].name != NULL &&
		    strcmp(events_table[e].name, name) == 0)
			return (enum proto_event_kind)e;
	}
	return PROTO_EV_COUNT;
}

int
proto_event_in_room(enum proto_event_kind e)
{
	if ((int)e < 0 || e >= PROTO_EV_COUNT)
		return 0;
	return events_table[e].in_room;
}

text_fn *
proto_event_text(enum proto_event_kind e)
{
	return events_table[e].text;
}

int
proto_event_lean_drops(enum proto_event_kind e, const cJSON *member)
{
	if ((int)e < 0 || e >= PROTO_EV_COUNT || events_table[e].lean == NULL)
		return 0;
	return events_table[e].lean(member);
}

enum proto_event_kind
proto_events_check(void)
{
	int e;

	for (e = 0; e < PROTO_EV_COUNT; e++) {
		if (events_table[e].name == NULL ||
		    events_table[e].text == NULL)
			return (enum proto_event_kind)e;
	}
	return PROTO_EV_COUNT;
}
