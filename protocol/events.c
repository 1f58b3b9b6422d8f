/*
 * events.c: the protocol's vocabulary of events, in one table: each
 * event's wire name, whether it belongs to a room (room id and seq), and
 * its rendering in text mode (docs/PROTOCOL.md lists the same).
 */
#include <string.h>

#include "protocol/protocol.h"

struct events_entry {
	const char *name;
	int in_room; /* 1: a room's event, with the room's id and seq (chat
	                also comes from the lobby, without them) */
	text_fn *text;
};

static const struct events_entry events_table[] = {
    [PROTO_EV_WELCOME] = {"welcome", 0, text_event_welcome},
    [PROTO_EV_REPLACED] = {"replaced", 0, text_event_replaced},
    [PROTO_EV_SHUTDOWN] = {"shutdown", 0, text_event_shutdown},
    [PROTO_EV_CHAT] = {"chat", 1, text_event_chat},
    [PROTO_EV_JOINED] = {"joined", 1, text_event_joined},
    [PROTO_EV_LEFT] = {"left", 1, text_event_left},
    [PROTO_EV_STARTED] = {"started", 1, text_event_started},
    [PROTO_EV_MOVED] = {"moved", 1, text_event_moved},
    [PROTO_EV_ENDED] = {"ended", 1, text_event_ended},
    [PROTO_EV_DRAW_OFFERED] = {"draw_offered", 1, text_event_draw_offered},
    [PROTO_EV_DRAW_DECLINED] = {"draw_declined", 1, text_event_draw_declined},
    [PROTO_EV_TAKEBACK_OFFERED] = {"takeback_offered", 1,
        text_event_takeback_offered},
    [PROTO_EV_TAKEBACK_DECLINED] = {"takeback_declined", 1,
        text_event_takeback_declined},
    [PROTO_EV_REMATCH_OFFERED] = {"rematch_offered", 1,
        text_event_rematch_offered},
    [PROTO_EV_OPPONENT_GONE] = {"opponent_gone", 1, text_event_opponent_gone},
    [PROTO_EV_OPPONENT_BACK] = {"opponent_back", 1, text_event_opponent_back},
    [PROTO_EV_CLOCK] = {"clock", 1, text_event_clock},
    [PROTO_EV_UNDONE] = {"undone", 1, text_event_undone},
    [PROTO_EV_RESTARTED] = {"restarted", 1, text_event_restarted},
    [PROTO_EV_GRACE_OVER] = {"grace_over", 1, text_event_grace_over},
    [PROTO_EV_TOLD] = {"told", 0, text_event_told},
    [PROTO_EV_INVITED] = {"invited", 0, text_event_invited},
    /* A message kept while its player was away (message), at hello. */
    [PROTO_EV_MESSAGE] = {"message", 0, text_event_message},
    /* A challenge to you (match), and the end of yours unanswered. */
    [PROTO_EV_CHALLENGED] = {"challenged", 0, text_event_challenged},
    [PROTO_EV_CHALLENGE_OVER] = {"challenge_over", 0,
        text_event_challenge_over},
    [PROTO_EV_PAIRED] = {"paired", 0, text_event_paired},
    [PROTO_EV_TOURNEY_ROUND] = {"tourney_round", 0, text_event_tourney_round},
    [PROTO_EV_TOURNEY_ENDED] = {"tourney_ended", 0, text_event_tourney_ended},
    /* A cluster node lost the room to another node (SCALING.md part 3):
     * not a room event, as the room's seq is no longer this node's. */
    [PROTO_EV_RECONNECT] = {"reconnect", 0, text_event_reconnect},
    /* An operator's word to everyone online (announce). */
    [PROTO_EV_ANNOUNCEMENT] = {"announcement", 0, text_event_announcement},
    /* How many watch a room whose watchers come and go too many to name
     * one by one: names its room, with no seq (it is no part of the
     * game's history, and is sent from a timer, stored nowhere). */
    [PROTO_EV_WATCHERS] = {"watchers", 0, text_event_watchers},
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
