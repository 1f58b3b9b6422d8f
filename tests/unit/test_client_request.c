/*
 * test_client_request.c: the client's own pieces that need no server: a
 * command typed in shorthand and sent as JSON (protocol/'s one encoder)
 * means the same request (the JSON decodes to the same fields, every
 * field of struct proto_request compared, depth included), and the token store
 * keeps one file per server and name, mode 0600, and gives it back.
 */
#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client-cli/client.h"
#include "tests/unit/check.h"

/* Shorthand lines a player types, one of each kind of field. */
static const char *const lines[] = {
    "hello ana",
    "games",
    "rooms ataxx waiting",
    "create ataxx size=7 bot=3",
    "create ataxx bot=3 depth=4",
    "create amazons bots=white:1,black:2 depth=2 seat=black",
    "create amazons bots=black:2 time=300 inc=5 private=yes",
    "create stones seat=2 first=random",
    "create solitaire file=\"3 3\\n1 2 1\\n2 2 2\\n1 1\"",
    "join r4 black",
    "join r4 2",
    "watch r1",
    "leave",
    "state room=r4",
    "state r4 since=500",
    "state r4 at=3",
    "moves b6",
    "move 3,4 up seq=12",
    "draw offer",
    "chat room=r4 good game, \"really\"",
    "say hi there",
    "export r2",
    "mode text",
    "hint",
    "who",
    "block eve",
    "mute eve 30",
    "ban 192.0.2.0/24",
    "announce back in five minutes",
};

/* Two decoded requests mean the same (strings compared, NULL = NULL). */
static int
same_str(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}

static int
same_request(const struct proto_request *a, const struct proto_request *b)
{
	int i,
	    same = a->verb == b->verb && same_str(a->name, b->name) &&
	    same_str(a->token, b->token) && same_str(a->game, b->game) &&
	    same_str(a->room, b->room) && same_str(a->seat, b->seat) &&
	    same_str(a->move, b->move) && same_str(a->from, b->from) &&
	    same_str(a->text, b->text) && same_str(a->action, b->action) &&
	    same_str(a->mode, b->mode) && same_str(a->status, b->status) &&
	    a->has_seq == b->has_seq && a->seq == b->seq &&
	    a->has_since == b->has_since && a->since == b->since &&
	    a->has_at == b->has_at && a->at == b->at &&
	    a->has_minutes == b->has_minutes && a->minutes == b->minutes &&
	    same_str(a->address, b->address) &&
	    a->has_private == b->has_private &&
	    a->is_private == b->is_private && a->has_clock == b->has_clock &&
	    a->clock_initial == b->clock_initial &&
	    a->clock_increment == b->clock_increment &&
	    a->noptions == b->noptions && a->nbots == b->nbots &&
	    a->has_proto == b->has_proto && a->proto == b->proto &&
	    a->bot_depth == b->bot_depth;

	for (i = 0; same && i < a->noptions; i++)
		same = same_str(a->options[i].key, b->options[i].key) &&
		    same_str(a->options[i].value, b->options[i].value);
	for (i = 0; same && i < a->nbots; i++)
		same = same_str(a->bots[i].seat, b->bots[i].seat) &&
		    a->bots[i].level == b->bots[i].level;
	return same;
}

/* Each shorthand line, sent as JSON, decodes to the same request. */
static void
test_request_json(void)
{
	size_t i;

	for (i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		struct proto_request a, b;
		char err[256];
		char *json;
		cJSON *o;

		CHECK_INT(proto_decode(
		              lines[i], strlen(lines[i]), &a, err, sizeof err),
		    PROTO_OK);
		o = proto_request_encode(&a);
		CHECK(o != NULL);
		json = proto_json_line(o);
		CHECK(json != NULL && json[0] == '{');
		CHECK_INT(
		    proto_decode(json, strlen(json) - 1, &b, err, sizeof err),
		    PROTO_OK);
		if (!same_request(&a, &b))
			fprintf(
			    stderr, "not the same: %s -> %s", lines[i], json);
		CHECK(same_request(&a, &b));
		free(json);
		cJSON_Delete(o);
		proto_request_free(&a);
		proto_request_free(&b);
	}
}

/* The token store: per server and name, 0600, read back. */
static void
test_token(void)
{
	char dir[] = "/tmp/tablero-token-XXXXXX";
	char path[1024], tok[CLIENT_FIELD], name[CLIENT_FIELD];
	struct client_opts o;
	struct stat st;

	CHECK(mkdtemp(dir) != NULL);
	setenv("XDG_CONFIG_HOME", dir, 1);
	memset(&o, 0, sizeof o);
	snprintf(o.host, sizeof o.host, "game.example.org");
	snprintf(o.port, sizeof o.port, "7777");
	snprintf(o.name, sizeof o.name, "ana");
	CHECK_INT(token_load(&o, tok, sizeof tok), -1);
	CHECK_INT(token_save(&o, "0123456789abcdef0123456789abcdef"), 0);
	CHECK_INT(token_load(&o, tok, sizeof tok), 0);
	CHECK_STR(tok, "0123456789abcdef0123456789abcdef");
	snprintf(path, sizeof path,
	    "%s/tablero/game.example.org_7777_ana.token", dir);
	CHECK_INT(stat(path, &st), 0);
	CHECK_INT(st.st_mode & 0777, 0600);
	snprintf(path, sizeof path, "%s/tablero", dir);
	CHECK_INT(stat(path, &st), 0);
	CHECK_INT(st.st_mode & 0777, 0700);
	CHECK_INT(token_last_name(&o, name, sizeof name), 0);
	CHECK_STR(name, "ana");
	/* another name on the same server has no token yet */
	snprintf(o.name, sizeof o.name, "bob");
	CHECK_INT(token_load(&o, tok, sizeof tok), -1);
	/* a host with odd characters stays one file name */
	snprintf(o.host, sizeof o.host, "../../etc");
	CHECK_INT(token_save(&o, "ffff"), 0);
	snprintf(path, sizeof path, "%s/tablero/.._.._etc_7777_bob.token", dir);
	CHECK_INT(stat(path, &st), 0);
}

/* One table of games, keyed by the rules' descriptor: every game of
 * rules/' registry has its prompt file, found by name or descriptor. */
static void
test_games_table(void)
{
	int i;

	for (i = 0; rules_games[i] != NULL; i++) {
		const struct client_game *g = games_for(rules_games[i]);
		CHECK(g != NULL);
		CHECK(g != NULL && g->rules == rules_games[i]);
		CHECK(games_find(rules_games[i]->name) == g);
	}
	CHECK(games_find("nonesuch") == NULL);
	CHECK(games_for(NULL) == NULL);
}

int
main(void)
{
	test_request_json();
	test_games_table();
	test_token();
	return check_done();
}
