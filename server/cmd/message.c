/*
 * message.c: messages kept for a registered player who is away (message
 * NAME TEXT), given to them as message events right after their next
 * hello's reply, then deleted. A player who is here gets it at once, as
 * a tell, and nothing is kept. A kept message is a row of the store's
 * table messages (schema.c), written as a row op before the reply says
 * so (acknowledged means stored: it survives a restart); the rows
 * waiting are bounded per sender and per recipient, and deleted past
 * MESSAGE_KEEP_DAYS or with their recipient's identity (the hourly
 * prune). Blocks and mutes hold as for tell: a muted player sends none,
 * a player who blocks the sender is sent none, and one who blocks them
 * after it was kept never reads it.
 */
#include <stdlib.h>
#include <string.h>

#include "server/cmd/cmd.h"
#include "server/store/storeq.h"
#include "server/store/store.h"

/* Messages one player may have waiting for others, all recipients
 * together: enough for a club's notes; names are cheap (an address makes
 * 250 an hour), so this and the bound per recipient keep what a flood
 * can add to the store small (20 of 500 bytes a name). */
#define MESSAGE_PER_SENDER 20
/* Messages one player may have waiting, from everyone together: what
 * one hello shows, and what a crowd of senders can pile on one victim. */
#define MESSAGE_PER_RECIPIENT 50
/* Days a message waits for its player; older ones are deleted unread
 * (the player has not been here for a month). */
#define MESSAGE_KEEP_DAYS 30

/* One message, or the same again (a group tried twice): one row. The
 * key is its recipient, its time (made distinct on this server) and
 * its sender. */
#define MESSAGE_PUT                                                            \
	"INSERT INTO messages (recipient, sent_ms, sender, text)"              \
	" VALUES ($1, $2, $3, $4)"                                             \
	" ON CONFLICT (recipient, sent_ms, sender) DO NOTHING"
#define MESSAGE_READ                                                           \
	"SELECT sender, sent_ms, text FROM messages WHERE recipient = $1"      \
	" ORDER BY sent_ms, sender LIMIT 50"
#define MESSAGE_TO "SELECT count(*) FROM messages WHERE recipient = $1"
#define MESSAGE_FROM "SELECT count(*) FROM messages WHERE sender = $1"
#define MESSAGE_DELETE                                                         \
	"DELETE FROM messages WHERE recipient = $1 AND sent_ms = $2"           \
	" AND sender = $3"
/* Old messages, and those whose recipient's identity is gone (pruned
 * unplayed: the name may be someone else's next). */
#define MESSAGE_PRUNE                                                          \
	"DELETE FROM messages WHERE sent_ms < $1 OR NOT EXISTS"                \
	" (SELECT 1 FROM identities WHERE identities.name ="                   \
	" messages.recipient)"

_Static_assert(MESSAGE_PER_RECIPIENT == 50, "MESSAGE_READ's LIMIT");

/* A message queued and not yet known committed: the reader does not
 * count it yet, so the bounds count these too (memory is the truth). */
struct message_fresh {
	struct message_fresh *next;
	uint64_t op; /* the op that stores it */
	char sender[SERVER_NAME_MAX + 1];
	char recipient[SERVER_NAME_MAX + 1];
};

/* Ops up to committed are stored: their messages are the reader's. */
void
message_committed(struct server *srv, uint64_t committed)
{
	struct message_fresh **fp = &srv->message_fresh, *f;

	while ((f = *fp) != NULL) {
		if (f->op <= committed) {
			*fp = f->next;
			free(f);
		} else {
			fp = &f->next;
		}
	}
}

static int
message_count_row(void *arg, const char *const *v)
{
	*(long *)arg = v[0] != NULL ? strtol(v[0], NULL, 10) : 0;
	return 0;
}

/* How many messages wait for (to) or from name: the store's and those
 * queued; -1 when the store could not be read (logged). */
static long
message_count(struct server *srv, const char *name, int to)
{
	const struct message_fresh *f;
	const char *v[1] = {name};
	long n = 0;

	if (store_rows(srv->reader, to ? MESSAGE_TO : MESSAGE_FROM, 1, v, 1,
	        message_count_row, &n) != 0) {
		log_error(
		    "store: counting messages: %s", store_errmsg(srv->reader));
		return -1;
	}
	for (f = srv->message_fresh; f != NULL; f = f->next)
		n += strcmp(to ? f->recipient : f->sender, name) == 0;
	return n;
}

/* 0 when the bounds let c's player keep one more message for name, or
 * -1 after refusing. */
static int
message_room_for(
    struct conn *c, const struct proto_request *req, const char *name)
{
	long from = message_count(c->srv, c->player->name, 0);
	long to = message_count(c->srv, name, 1);

	if (from < 0 || to < 0) {
		conn_error(c, req, PROTO_E_INTERNAL, "the store failed");
		return -1;
	}
	if (from >= MESSAGE_PER_SENDER) {
		conn_error(c, req, PROTO_E_LIMIT_REACHED,
		    "you have %d messages waiting for their players already, "
		    "the most there may be: try again once some are read",
		    MESSAGE_PER_SENDER);
		return -1;
	}
	if (to >= MESSAGE_PER_RECIPIENT) {
		conn_error(c, req, PROTO_E_LIMIT_REACHED,
		    "%s has %d messages waiting already, the most there may "
		    "be: try again once they have been here",
		    name, MESSAGE_PER_RECIPIENT);
		return -1;
	}
	return 0;
}

/* A time for a new message: now, or one ms past the last one made here,
 * so that a sender's messages to one player never share a key. */
static int64_t
message_time(struct server *srv)
{
	int64_t now = clock_now_ms();

	if (now <= srv->message_last_ms)
		now = srv->message_last_ms + 1;
	srv->message_last_ms = now;
	return now;
}

/* The message event. */
static cJSON *
message_event(const char *from, int64_t ms, const char *text)
{
	cJSON *ev = proto_event(PROTO_EV_MESSAGE, NULL, 0);

	cJSON_AddStringToObject(ev, "from", from);
	proto_add_int(ev, "sent_ms", ms);
	cJSON_AddStringToObject(ev, "text", text);
	return ev;
}

/* Queue the row of a message from c's player to name, and keep it
 * counted until it is committed. */
static void
message_keep(struct conn *c, const char *name, int64_t ms, const char *text)
{
	struct message_fresh *f = xcalloc(1, sizeof *f);
	char at[24];
	const char *v[4] = {name, at, c->player->name, text};

	snprintf(at, sizeof at, "%lld", (long long)ms);
	storeq_row(c->srv->storeq, "messages", MESSAGE_PUT, 4, v);
	f->op = storeq_ops(c->srv->storeq);
	snprintf(f->sender, sizeof f->sender, "%s", c->player->name);
	snprintf(f->recipient, sizeof f->recipient, "%s", name);
	f->next = c->srv->message_fresh;
	c->srv->message_fresh = f;
}

/* message NAME TEXT: kept for a registered player who is away (stored
 * before the reply), or given at once to one who is here. */
void
cmd_message(struct conn *c, const struct proto_request *req)
{
	char name[SERVER_NAME_MAX + 1];
	int64_t ms;
	cJSON *rep, *ev;
	int here;

	if (sanction_muted(c, req) || !cmd_chat_fits(c, req) ||
	    cmd_known_name(c, req, req->name, name, sizeof name) != 0)
		return;
	if (strcmp(name, c->player->name) == 0) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "that is you: a message is for someone else");
		return;
	}
	if (block_refuses(c->srv, name, c->player->name)) {
		conn_error(c, req, PROTO_E_NOT_ALLOWED,
		    "%s blocks you: your messages do not reach them", name);
		return;
	}
	here = player_online(c->srv, name);
	if (here ? cmd_social_heard(c, req) != 0
	         : message_room_for(c, req, name) != 0)
		return;
	ms = message_time(c->srv);
	if (!here)
		message_keep(c, name, ms, req->text);
	rep = proto_reply(req);
	cJSON_AddStringToObject(rep, "name", name);
	cJSON_AddBoolToObject(rep, "kept", !here);
	conn_reply(c, rep);
	if (here) {
		ev = message_event(c->player->name, ms, req->text);
		player_send(c->srv, name, ev);
		cJSON_Delete(ev);
	}
}

/* What message_give reads: the connection, and how many it gave. */
struct message_give {
	struct conn *c;
	int n;
};

/* One kept message of c's player: given (unless the player blocks its
 * sender now), and its row deleted. */
static int
message_give_row(void *arg, const char *const *v)
{
	struct message_give *g = arg;
	struct conn *c = g->c;
	const char *del[3] = {c->player->name, v[1], v[0]};
	cJSON *ev;

	if (v[0] == NULL || v[1] == NULL || v[2] == NULL)
		return 0;
	storeq_row(c->srv->storeq, "messages", MESSAGE_DELETE, 3, del);
	if (block_has(c->player, v[0]))
		return 0;
	ev = message_event(v[0], strtoll(v[1], NULL, 10), v[2]);
	net_send_msg(c, ev);
	cJSON_Delete(ev);
	g->n++;
	return 0;
}

/* Right after a hello's reply: the messages kept for its player, oldest
 * first, each a message event; their rows are deleted in the same
 * change, so the events go out once that is committed (a crash before
 * gives them again at the next hello). */
void
message_deliver(struct conn *c)
{
	struct message_give g = {c, 0};
	const char *v[1] = {c->player->name};

	if (store_rows(c->srv->reader, MESSAGE_READ, 1, v, 3, message_give_row,
	        &g) != 0)
		log_error("store: reading %s's messages: %s", c->player->name,
		    store_errmsg(c->srv->reader));
	else if (g.n > 0)
		log_info("%s was given %d kept messages", c->player->name, g.n);
}

/* The hourly prune: messages older than MESSAGE_KEEP_DAYS, and those
 * whose recipient is no identity any more. */
void
message_prune(struct server *srv)
{
	char before[24];
	const char *v[1] = {before};

	snprintf(before, sizeof before, "%lld",
	    (long long)(clock_now_ms() -
	        (int64_t)MESSAGE_KEEP_DAYS * 86400 * 1000));
	storeq_row(srv->storeq, "messages", MESSAGE_PRUNE, 1, v);
}
