/*
 * test_protocol_decode.c: the request decoder: every verb as JSON and as
 * shorthand, every decoder error with its message, ids, quoting, key=value,
 * rest-of-line text, UTF-8 and control-character checks, limits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "protocol/protocol.h"

static struct proto_request req;
static char err[256];

/* Decode a NUL-free line into the global req (freeing the previous). */
static enum proto_error
dec(const char *line)
{
	proto_request_free(&req);
	return proto_decode(line, strlen(line), &req, err, sizeof err);
}

/* Decode a line that may hold NUL bytes. */
static enum proto_error
decn(const char *line, size_t len)
{
	proto_request_free(&req);
	return proto_decode(line, len, &req, err, sizeof err);
}

/* Check that a line fails with code e and message msg. */
static void
fails(const char *line, enum proto_error e, const char *msg, int lineno)
{
	enum proto_error got = dec(line);

	check_int(got, e, __FILE__, lineno, line);
	check_str(err, msg, __FILE__, lineno, line);
}

#define FAILS(line, e, msg) fails((line), (e), (msg), __LINE__)

static void
test_hello(void)
{
	CHECK_INT(dec("{\"cmd\":\"hello\",\"name\":\"ana\"}"), PROTO_OK);
	CHECK_INT(req.verb, PROTO_HELLO);
	CHECK_INT(req.shorthand, 0);
	CHECK_STR(req.cmd, "hello");
	CHECK_STR(req.name, "ana");
	CHECK(req.token == NULL && req.id == NULL && req.room == NULL);
	CHECK_INT(req.has_proto, 0);
	CHECK_INT(dec("{\"cmd\":\"hello\",\"name\":\"ana\",\"token\":"
	              "\"0123abcd\",\"proto\":1}"),
	    PROTO_OK);
	CHECK_STR(req.token, "0123abcd");
	CHECK_INT(req.has_proto, 1);
	CHECK_INT(req.proto, 1);
	FAILS("{\"cmd\":\"hello\",\"name\":\"ana\",\"proto\":2}",
	    PROTO_E_BAD_REQUEST, "this server speaks protocol 1");
	FAILS("{\"cmd\":\"hello\",\"name\":\"ana\",\"proto\":\"1\"}",
	    PROTO_E_BAD_REQUEST, "field 'proto' must be an integer");
	FAILS("{\"cmd\":\"hello\"}", PROTO_E_BAD_REQUEST,
	    "field 'name' is required");
	FAILS("{\"cmd\":\"hello\",\"name\":7}", PROTO_E_BAD_REQUEST,
	    "field 'name' must be a string");
	/* names are the server's business: "" and odd ones pass */
	CHECK_INT(dec("{\"cmd\":\"hello\",\"name\":\"\"}"), PROTO_OK);
	CHECK_STR(req.name, "");
	CHECK_INT(dec("hello ana"), PROTO_OK);
	CHECK_INT(req.verb, PROTO_HELLO);
	CHECK_INT(req.shorthand, 1);
	CHECK_STR(req.name, "ana");
	CHECK_INT(dec("  HeLLo   ana   0123abcd  "), PROTO_OK);
	CHECK_STR(req.cmd, "hello");
	CHECK_STR(req.name, "ana");
	CHECK_STR(req.token, "0123abcd");
	CHECK_INT(dec("hello ana proto=1"), PROTO_OK);
	CHECK_INT(req.has_proto, 1);
	FAILS("hello ana proto=2", PROTO_E_BAD_REQUEST,
	    "this server speaks protocol 1");
	FAILS("hello", PROTO_E_BAD_REQUEST, "field 'name' is required");
	FAILS("hello ana tok extra", PROTO_E_BAD_REQUEST,
	    "unexpected argument 'extra' (usage: hello NAME [TOKEN | "
	    "password=PASSWORD])");
	CHECK_INT(dec("hello name=bob token=ff"), PROTO_OK);
	CHECK_STR(req.name, "bob");
	CHECK_STR(req.token, "ff");
	/* the form of moved events (issue 32) */
	CHECK(req.events == NULL);
	CHECK_INT(dec("{\"cmd\":\"hello\",\"name\":\"ana\",\"events\":"
	              "\"lean\"}"),
	    PROTO_OK);
	CHECK_STR(req.events, "lean");
	CHECK_INT(dec("hello ana events=FULL"), PROTO_OK);
	CHECK_STR(req.events, "full");
	FAILS("{\"cmd\":\"hello\",\"name\":\"ana\",\"events\":\"tiny\"}",
	    PROTO_E_BAD_REQUEST, "field 'events' must be one of full, lean");
	FAILS("{\"cmd\":\"hello\",\"name\":\"ana\",\"events\":true}",
	    PROTO_E_BAD_REQUEST, "field 'events' must be one of full, lean");
}

static void
test_rooms(void)
{
	CHECK_INT(dec("{\"cmd\":\"games\"}"), PROTO_OK);
	CHECK_INT(req.verb, PROTO_GAMES);
	CHECK_INT(dec("games"), PROTO_OK);
	CHECK_INT(req.verb, PROTO_GAMES);
	CHECK_INT(dec("{\"cmd\":\"rooms\",\"game\":\"ataxx\",\"status\":"
	              "\"waiting\"}"),
	    PROTO_OK);
	CHECK_INT(req.verb, PROTO_ROOMS);
	CHECK_STR(req.game, "ataxx");
	CHECK_STR(req.status, "waiting");
	FAILS("{\"cmd\":\"rooms\",\"status\":\"sleeping\"}",
	    PROTO_E_BAD_REQUEST,
	    "field 'status' must be one of waiting, playing, ended, "
	    "adjourned");
	CHECK_INT(dec("rooms"), PROTO_OK);
	CHECK(req.game == NULL && req.status == NULL);
	CHECK_INT(dec("rooms ataxx"), PROTO_OK);
	CHECK_STR(req.game, "ataxx");
	CHECK(req.status == NULL);
	CHECK_INT(dec("rooms Playing"), PROTO_OK);
	CHECK_STR(req.status, "playing");
	CHECK(req.game == NULL);
	CHECK_INT(dec("rooms amazons adjourned"), PROTO_OK);
	CHECK_STR(req.game, "amazons");
	CHECK_STR(req.status, "adjourned");
	CHECK_INT(dec("rooms status=ended game=stones"), PROTO_OK);
	CHECK_STR(req.game, "stones");
	CHECK_STR(req.status, "ended");
	CHECK_INT(dec("rooms waiting from=r12"), PROTO_OK);
	CHECK_STR(req.status, "waiting");
	CHECK_STR(req.from, "r12");
	FAILS("rooms a b", PROTO_E_BAD_REQUEST,
	    "unexpected argument 'b' (usage: rooms [GAME] "
	    "[waiting|playing|ended|adjourned] [from=ROOM])");
}

static void
test_create_json(void)
{
	CHECK_INT(dec("{\"cmd\":\"create\",\"game\":\"ataxx\",\"options\":"
	              "{\"size\":7,\"file\":\"6 6\\n0 0\",\"neg\":-3},"
	              "\"seat\":\"black\",\"bots\":{\"white\":3},\"private\":"
	              "true,\"clock\":{\"initial\":300,\"increment\":5}}"),
	    PROTO_OK);
	CHECK_INT(req.verb, PROTO_CREATE);
	CHECK_STR(req.game, "ataxx");
	CHECK_INT(req.noptions, 3);
	CHECK_STR(req.options[0].key, "size");
	CHECK_STR(req.options[0].value, "7");
	CHECK_STR(proto_request_option(&req, "file"), "6 6\n0 0");
	CHECK_STR(proto_request_option(&req, "neg"), "-3");
	CHECK(proto_request_option(&req, "nope") == NULL);
	CHECK_STR(req.seat, "black");
	CHECK_INT(req.nbots, 1);
	CHECK_STR(req.bots[0].seat, "white");
	CHECK_INT(req.bots[0].level, 3);
	CHECK_INT(req.has_private, 1);
	CHECK_INT(req.is_private, 1);
	CHECK_INT(req.has_clock, 1);
	CHECK_INT(req.clock_initial, 300);
	CHECK_INT(req.clock_increment, 5);
	/* the least: a game */
	CHECK_INT(dec("{\"cmd\":\"create\",\"game\":\"solitaire\"}"), PROTO_OK);
	CHECK_INT(
	    req.noptions + req.nbots + req.has_clock + req.has_private, 0);
	CHECK(req.seat == NULL);
	/* seat by number, a bot for every free seat, clock without
	 * increment */
	CHECK_INT(
	    dec("{\"cmd\":\"create\",\"game\":\"stones\",\"seat\":2,"
	        "\"bot\":4,\"clock\":{\"initial\":60},\"private\":false}"),
	    PROTO_OK);
	CHECK_STR(req.seat, "2");
	CHECK_INT(req.nbots, 1);
	CHECK(req.bots[0].seat == NULL);
	CHECK_INT(req.bots[0].level, 4);
	CHECK_INT(req.clock_initial, 60);
	CHECK_INT(req.clock_increment, 0);
	CHECK_INT(req.has_private, 1);
	CHECK_INT(req.is_private, 0);
	FAILS("{\"cmd\":\"create\"}", PROTO_E_BAD_REQUEST,
	    "field 'game' is required");
	FAILS("{\"cmd\":\"create\",\"game\":\"x\",\"options\":{\"size\":7.5}}",
	    PROTO_E_BAD_REQUEST,
	    "field 'options.size' must be a string or an integer");
	FAILS("{\"cmd\":\"create\",\"game\":\"x\",\"options\":{\"a\":{}}}",
	    PROTO_E_BAD_REQUEST,
	    "field 'options.a' must be a string or an integer");
	FAILS("{\"cmd\":\"create\",\"game\":\"x\",\"options\":{\"a\":true}}",
	    PROTO_E_BAD_REQUEST,
	    "field 'options.a' must be a string or an integer");
	FAILS("{\"cmd\":\"create\",\"game\":\"x\",\"options\":[1]}",
	    PROTO_E_BAD_REQUEST, "field 'options' must be an object");
	FAILS("{\"cmd\":\"create\",\"game\":\"x\",\"options\":{\"a\":1,"
	      "\"a\":2}}",
	    PROTO_E_BAD_REQUEST, "field 'options.a' is given twice");
	FAILS("{\"cmd\":\"create\",\"game\":\"x\",\"options\":{\"\":1}}",
	    PROTO_E_BAD_REQUEST,
	    "an option name is empty, too long or not plain text");
	FAILS("{\"cmd\":\"create\",\"game\":\"x\",\"options\":{\"a\":1e300}}",
	    PROTO_E_BAD_REQUEST,
	    "field 'options.a' must be a string or an integer");
	FAILS("{\"cmd\":\"create\",\"game\":\"x\",\"bots\":{\"white\":9}}",
	    PROTO_E_BAD_REQUEST,
	    "field 'bots.white' must be an integer from 1 to 5");
	FAILS("{\"cmd\":\"create\",\"game\":\"x\",\"bots\":[3]}",
	    PROTO_E_BAD_REQUEST,
	    "field 'bots' must be an object {\"SEAT\": LEVEL}");
	FAILS("{\"cmd\":\"create\",\"game\":\"x\",\"bot\":0}",
	    PROTO_E_BAD_REQUEST, "field 'bot' must be an integer from 1 to 5");
	FAILS("{\"cmd\":\"create\",\"game\":\"x\",\"clock\":{\"initial\":0}}",
	    PROTO_E_BAD_REQUEST,
	    "field 'clock.initial' must be an integer from 1 to 86400");
	FAILS("{\"cmd\":\"create\",\"game\":\"x\",\"clock\":{\"increment\":1}}",
	    PROTO_E_BAD_REQUEST, "field 'clock.initial' is required");
	FAILS("{\"cmd\":\"create\",\"game\":\"x\",\"clock\":{\"initial\":10,"
	      "\"increment\":3601}}",
	    PROTO_E_BAD_REQUEST,
	    "field 'clock.increment' must be an integer from 0 to 3600");
	FAILS("{\"cmd\":\"create\",\"game\":\"x\",\"clock\":300}",
	    PROTO_E_BAD_REQUEST,
	    "field 'clock' must be an object {\"initial\": SECONDS, "
	    "\"increment\": SECONDS}");
	FAILS("{\"cmd\":\"create\",\"game\":\"x\",\"private\":\"yes\"}",
	    PROTO_E_BAD_REQUEST, "field 'private' must be true or false");
	FAILS("{\"cmd\":\"create\",\"game\":\"x\",\"seat\":0}",
	    PROTO_E_BAD_REQUEST,
	    "field 'seat' must be a seat name or a seat number from 1");
	FAILS("{\"cmd\":\"create\",\"game\":\"x\",\"seat\":true}",
	    PROTO_E_BAD_REQUEST,
	    "field 'seat' must be a seat name or a seat number from 1");
}

static void
test_create_options_limit(void)
{
	char line[2048];
	size_t n;
	int i;

	n = (size_t)snprintf(line, sizeof line,
	    "{\"cmd\":\"create\",\"game\":\"x\",\"options\":{");
	for (i = 0; i < PROTO_MAX_OPTIONS; i++)
		n += (size_t)snprintf(line + n, sizeof line - n, "%s\"o%d\":%d",
		    i ? "," : "", i, i);
	snprintf(line + n, sizeof line - n, "}}");
	CHECK_INT(dec(line), PROTO_OK);
	CHECK_INT(req.noptions, PROTO_MAX_OPTIONS);
	snprintf(line + n, sizeof line - n, ",\"one_more\":1}}");
	FAILS(line, PROTO_E_BAD_REQUEST,
	    "field 'options' has more than 16 "
	    "options");
	/* the same in shorthand */
	n = (size_t)snprintf(line, sizeof line, "create x");
	for (i = 0; i < PROTO_MAX_OPTIONS; i++)
		n += (size_t)snprintf(
		    line + n, sizeof line - n, " o%d=%d", i, i);
	CHECK_INT(dec(line), PROTO_OK);
	CHECK_INT(req.noptions, PROTO_MAX_OPTIONS);
	snprintf(line + n, sizeof line - n, " x=1");
	FAILS(line, PROTO_E_BAD_REQUEST,
	    "field 'options' has more than 16 "
	    "options");
}

static void
test_create_shorthand(void)
{
	CHECK_INT(dec("create ataxx size=7 bot=3"), PROTO_OK);
	CHECK_INT(req.verb, PROTO_CREATE);
	CHECK_STR(req.game, "ataxx");
	CHECK_INT(req.noptions, 1);
	CHECK_STR(proto_request_option(&req, "size"), "7");
	CHECK_INT(req.nbots, 1);
	CHECK(req.bots[0].seat == NULL);
	CHECK_INT(req.bots[0].level, 3);
	CHECK_INT(dec("create amazons bots=white:3,black:2 private=yes "
	              "time=300 inc=5 seat=1 room=zz"),
	    PROTO_OK);
	CHECK_INT(req.nbots, 2);
	CHECK_STR(req.bots[0].seat, "white");
	CHECK_INT(req.bots[0].level, 3);
	CHECK_STR(req.bots[1].seat, "black");
	CHECK_INT(req.bots[1].level, 2);
	CHECK_INT(req.is_private, 1);
	CHECK_INT(req.has_clock, 1);
	CHECK_INT(req.clock_initial, 300);
	CHECK_INT(req.clock_increment, 5);
	CHECK_STR(req.seat, "1");
	CHECK_STR(req.room, "zz");
	CHECK_INT(req.noptions, 0);
	CHECK_INT(dec("create x time=60"), PROTO_OK);
	CHECK_INT(req.clock_increment, 0);
	CHECK_INT(dec("create x private=No"), PROTO_OK);
	CHECK_INT(req.has_private, 1);
	CHECK_INT(req.is_private, 0);
	CHECK_INT(dec("create x private=0 game2=y"), PROTO_OK);
	CHECK_STR(proto_request_option(&req, "game2"), "y");
	/* a board file in quotes */
	CHECK_INT(dec("create solitaire file=\"6 6\\n0 0 \\\"x\\\" \\\\ "
	              "\\t.\" level=3"),
	    PROTO_OK);
	CHECK_STR(proto_request_option(&req, "file"), "6 6\n0 0 \"x\" \\ \t.");
	CHECK_STR(proto_request_option(&req, "level"), "3");
	/* quotes may sit anywhere in an argument */
	CHECK_INT(dec("create x name=\"a b\"c"), PROTO_OK);
	CHECK_STR(proto_request_option(&req, "name"), "a bc");
	CHECK_INT(dec("create \"ataxx\""), PROTO_OK);
	CHECK_STR(req.game, "ataxx");
	CHECK_INT(dec("create x empty="), PROTO_OK);
	CHECK_STR(proto_request_option(&req, "empty"), "");
	FAILS("create", PROTO_E_BAD_REQUEST, "field 'game' is required");
	FAILS("create x inc=5", PROTO_E_BAD_REQUEST,
	    "field 'inc' needs 'time' too");
	FAILS("create x time=0", PROTO_E_BAD_REQUEST,
	    "field 'time' must be given once, an integer from 1 to 86400");
	FAILS("create x time=5 inc=x", PROTO_E_BAD_REQUEST,
	    "field 'inc' must be given once, an integer from 0 to 3600");
	FAILS("create x private=maybe", PROTO_E_BAD_REQUEST,
	    "field 'private' must be yes or no");
	FAILS("create x bot=6", PROTO_E_BAD_REQUEST,
	    "field 'bot' must be an integer from 1 to 5");
	FAILS("create x bots=white", PROTO_E_BAD_REQUEST,
	    "field 'bots' must look like SEAT:LEVEL,SEAT:LEVEL with levels "
	    "from 1 to 5");
	FAILS("create x bots=white:3,", PROTO_E_BAD_REQUEST,
	    "field 'bots' must look like SEAT:LEVEL,SEAT:LEVEL");
	FAILS("create x bots=white:3,white:2", PROTO_E_BAD_REQUEST,
	    "a bot for seat 'white' is given twice");
	FAILS("create x size=7 size=8", PROTO_E_BAD_REQUEST,
	    "field 'options.size' is given twice");
	FAILS("create x y", PROTO_E_BAD_REQUEST,
	    "unexpected argument 'y' (usage: create GAME [OPTION=VALUE ...] "
	    "[seat=SEAT] [bot=LEVEL] [bots=SEAT:LEVEL,...] [depth=PLIES] "
	    "[private=yes] [time=SECONDS] [inc=SECONDS])");
	FAILS("create x bot=3 depth=0", PROTO_E_BAD_REQUEST,
	    "field 'depth' must be an integer from 1 to 64");
	FAILS("create x bot=3 depth=65", PROTO_E_BAD_REQUEST,
	    "field 'depth' must be an integer from 1 to 64");
	FAILS("create x clock=5", PROTO_E_BAD_REQUEST,
	    "in shorthand the clock is time=SECONDS inc=SECONDS");
	FAILS("create x options=5", PROTO_E_BAD_REQUEST,
	    "in shorthand each option is KEY=VALUE");
	FAILS("create x file=\"abc", PROTO_E_BAD_REQUEST, "unterminated quote");
	FAILS("create x file=\"a\\qb\"", PROTO_E_BAD_REQUEST,
	    "unknown escape in quotes (use \\\", \\\\, \\n or \\t)");
	FAILS("create x game=y", PROTO_E_BAD_REQUEST,
	    "field 'game' is given twice");
}

static void
test_room_verbs(void)
{
	static const struct {
		const char *name;
		enum proto_verb verb;
	} verbs[] = {{"watch", PROTO_WATCH}, {"leave", PROTO_LEAVE},
	    {"state", PROTO_STATE}, {"resign", PROTO_RESIGN},
	    {"undo", PROTO_UNDO}, {"restart", PROTO_RESTART},
	    {"next", PROTO_NEXT}, {"hint", PROTO_HINT},
	    {"rematch", PROTO_REMATCH}, {"claim", PROTO_CLAIM},
	    {"export", PROTO_EXPORT}, {"join", PROTO_JOIN}};
	char line[128];
	size_t i;

	for (i = 0; i < sizeof verbs / sizeof verbs[0]; i++) {
		snprintf(line, sizeof line, "{\"cmd\":\"%s\"}", verbs[i].name);
		CHECK_INT(dec(line), PROTO_OK);
		CHECK_INT(req.verb, verbs[i].verb);
		CHECK_STR(proto_verb_name(req.verb), verbs[i].name);
		CHECK(req.room == NULL);
		snprintf(line, sizeof line, "{\"cmd\":\"%s\",\"room\":\"r4\"}",
		    verbs[i].name);
		CHECK_INT(dec(line), PROTO_OK);
		CHECK_STR(req.room, "r4");
		snprintf(line, sizeof line, "%s", verbs[i].name);
		CHECK_INT(dec(line), PROTO_OK);
		CHECK_INT(req.verb, verbs[i].verb);
		CHECK(req.room == NULL);
		snprintf(line, sizeof line, "%s r4", verbs[i].name);
		CHECK_INT(dec(line), PROTO_OK);
		CHECK_STR(req.room, "r4");
		snprintf(line, sizeof line, "%s room=r5", verbs[i].name);
		CHECK_INT(dec(line), PROTO_OK);
		CHECK_STR(req.room, "r5");
		snprintf(line, sizeof line, "{\"cmd\":\"%s\",\"room\":5}",
		    verbs[i].name);
		FAILS(
		    line, PROTO_E_BAD_REQUEST, "field 'room' must be a string");
		snprintf(line, sizeof line, "%s r4 room=r5", verbs[i].name);
		FAILS(line, PROTO_E_BAD_REQUEST, "field 'room' is given twice");
		snprintf(line, sizeof line, "%s room=", verbs[i].name);
		FAILS(line, PROTO_E_BAD_REQUEST,
		    "field 'room' must not be empty");
	}
	CHECK_INT(dec("join r4 white"), PROTO_OK);
	CHECK_STR(req.room, "r4");
	CHECK_STR(req.seat, "white");
	CHECK_INT(
	    dec("{\"cmd\":\"join\",\"room\":\"r4\",\"seat\":2}"), PROTO_OK);
	CHECK_STR(req.seat, "2");
	FAILS("watch r4 r5", PROTO_E_BAD_REQUEST,
	    "unexpected argument 'r5' (usage: watch ROOM)");
	FAILS("resign r4 now", PROTO_E_BAD_REQUEST,
	    "unexpected argument 'now' (usage: resign [ROOM])");
	FAILS("state seq=3", PROTO_E_BAD_REQUEST,
	    "unknown key 'seq' (usage: state [ROOM] [since=N] [at=N])");
	CHECK_INT(dec("state r4 at=2"), PROTO_OK);
	CHECK_INT(req.has_at, 1);
	CHECK_INT((int)req.at, 2);
	FAILS("state r4 at=-1", PROTO_E_BAD_REQUEST,
	    "field 'at' must be an integer from 0 to 9007199254740991");
	FAILS("state r4 since=-1", PROTO_E_BAD_REQUEST,
	    "field 'since' must be an integer from 0 to 9007199254740991");
	FAILS("state since=1 since=2", PROTO_E_BAD_REQUEST,
	    "field 'since' is given twice");
	/* room is a string of at most PROTO_FIELD_MAX bytes */
	FAILS("state "
	      "r1234567890123456789012345678901234567890123456789012345678901"
	      "234",
	    PROTO_E_BAD_REQUEST, "field 'room' is longer than 64 bytes");
}

static void
test_moves_move(void)
{
	CHECK_INT(dec("{\"cmd\":\"moves\",\"from\":\"b6\"}"), PROTO_OK);
	CHECK_INT(req.verb, PROTO_MOVES);
	CHECK_STR(req.from, "b6");
	CHECK_INT(dec("moves"), PROTO_OK);
	CHECK(req.from == NULL);
	CHECK_INT(dec("moves b6"), PROTO_OK);
	CHECK_STR(req.from, "b6");
	CHECK_INT(dec("moves from=c3 room=r2"), PROTO_OK);
	CHECK_STR(req.from, "c3");
	CHECK_STR(req.room, "r2");

	CHECK_INT(dec("{\"cmd\":\"move\",\"room\":\"r1\",\"move\":\"b6\","
	              "\"seq\":12}"),
	    PROTO_OK);
	CHECK_INT(req.verb, PROTO_MOVE);
	CHECK_STR(req.move, "b6");
	CHECK_INT(req.has_seq, 1);
	CHECK_INT(req.seq, 12);
	CHECK_INT(dec("{\"cmd\":\"move\",\"move\":\"b6\",\"seq\":0,\"room\":"
	              "null}"),
	    PROTO_OK);
	CHECK_INT(req.has_seq, 1);
	CHECK_INT(req.seq, 0);
	CHECK(req.room == NULL);
	CHECK_INT(dec("move b6"), PROTO_OK);
	CHECK_STR(req.move, "b6");
	CHECK_INT(req.has_seq, 0);
	CHECK_INT(
	    dec("{\"cmd\":\"state\",\"room\":\"r1\",\"since\":500}"), PROTO_OK);
	CHECK_INT(req.has_since, 1);
	CHECK_INT(req.since, 500);
	CHECK_INT(req.has_seq, 0);
	CHECK_INT(dec("state r2 since=0"), PROTO_OK);
	CHECK_STR(req.room, "r2");
	CHECK_INT(req.has_since, 1);
	CHECK_INT(req.since, 0);
	CHECK_INT(dec("move 3,4   up"), PROTO_OK);
	CHECK_STR(req.move, "3,4 up");
	CHECK_INT(dec("move d1-i6/e10 seq=40"), PROTO_OK);
	CHECK_STR(req.move, "d1-i6/e10");
	CHECK_INT(req.seq, 40);
	CHECK_INT(dec("MOVE seq=2 3,4 room=r9 left"), PROTO_OK);
	CHECK_STR(req.move, "3,4 left");
	CHECK_STR(req.room, "r9");
	CHECK_INT(dec("move move=A2"), PROTO_OK);
	CHECK_STR(req.move, "A2");
	FAILS("move", PROTO_E_BAD_REQUEST, "field 'move' is required");
	FAILS("{\"cmd\":\"move\"}", PROTO_E_BAD_REQUEST,
	    "field 'move' is required");
	FAILS("{\"cmd\":\"move\",\"move\":5}", PROTO_E_BAD_REQUEST,
	    "field 'move' must be a string");
	FAILS("{\"cmd\":\"move\",\"move\":\"\"}", PROTO_E_BAD_REQUEST,
	    "field 'move' must not be empty");
	FAILS("{\"cmd\":\"move\",\"move\":\"b6\",\"seq\":-1}",
	    PROTO_E_BAD_REQUEST,
	    "field 'seq' must be an integer from 0 to 9007199254740991");
	FAILS("{\"cmd\":\"move\",\"move\":\"b6\",\"seq\":1.5}",
	    PROTO_E_BAD_REQUEST,
	    "field 'seq' must be an integer from 0 to 9007199254740991");
	FAILS("{\"cmd\":\"move\",\"move\":\"b6\",\"seq\":\"3\"}",
	    PROTO_E_BAD_REQUEST,
	    "field 'seq' must be an integer from 0 to 9007199254740991");
	FAILS("move b6 seq=x", PROTO_E_BAD_REQUEST,
	    "field 'seq' must be an integer from 0 to 9007199254740991");
	FAILS("move b6 seq=99999999999999999", PROTO_E_BAD_REQUEST,
	    "field 'seq' must be an integer from 0 to 9007199254740991");
	FAILS("move b6 seq=1 seq=2", PROTO_E_BAD_REQUEST,
	    "field 'seq' is given twice");
	FAILS("move b6 foo=1", PROTO_E_BAD_REQUEST,
	    "unknown key 'foo' (usage: move MOVE [seq=N])");
	FAILS("move b6 move=c5", PROTO_E_BAD_REQUEST,
	    "field 'move' is given twice");
	FAILS("{\"cmd\":\"move\",\"move\":"
	      "\"12345678901234567890123456789012345678901234567890123456789"
	      "0123456\"}",
	    PROTO_E_BAD_REQUEST, "field 'move' is longer than 64 bytes");
	FAILS("{\"cmd\":\"move\",\"move\":\"b\\n6\"}", PROTO_E_BAD_REQUEST,
	    "field 'move' contains a control character");
	FAILS("move \"b\\n6\"", PROTO_E_BAD_REQUEST,
	    "field 'move' contains a control character");
	FAILS("move b\x7f", PROTO_E_BAD_REQUEST,
	    "field 'move' contains a control character");
}

static void
test_draw_mode(void)
{
	CHECK_INT(dec("{\"cmd\":\"draw\",\"action\":\"offer\"}"), PROTO_OK);
	CHECK_INT(req.verb, PROTO_DRAW);
	CHECK_STR(req.action, "offer");
	CHECK_INT(dec("draw ACCEPT"), PROTO_OK);
	CHECK_STR(req.action, "accept");
	CHECK_INT(dec("draw decline room=r3"), PROTO_OK);
	CHECK_STR(req.action, "decline");
	CHECK_STR(req.room, "r3");
	FAILS("draw", PROTO_E_BAD_REQUEST, "field 'action' is required");
	FAILS("draw maybe", PROTO_E_BAD_REQUEST,
	    "field 'action' must be one of offer, accept, decline");
	FAILS("{\"cmd\":\"draw\",\"action\":1}", PROTO_E_BAD_REQUEST,
	    "field 'action' must be one of offer, accept, decline");

	CHECK_INT(dec("{\"cmd\":\"mode\",\"mode\":\"json\"}"), PROTO_OK);
	CHECK_INT(req.verb, PROTO_MODE);
	CHECK_STR(req.mode, "json");
	CHECK_INT(dec("mode text"), PROTO_OK);
	CHECK_STR(req.mode, "text");
	FAILS("mode", PROTO_E_BAD_REQUEST, "field 'mode' is required");
	FAILS("mode xml", PROTO_E_BAD_REQUEST,
	    "field 'mode' must be one of json, text");
}

static void
test_chat(void)
{
	CHECK_INT(dec("chat good game"), PROTO_OK);
	CHECK_INT(req.verb, PROTO_CHAT);
	CHECK_STR(req.text, "good game");
	CHECK(req.room == NULL);
	/* verbatim after the verb and its spaces, quotes and = included */
	CHECK_INT(dec("chat   two  spaces \"q\" a=b \\n "), PROTO_OK);
	CHECK_STR(req.text, "two  spaces \"q\" a=b \\n ");
	CHECK_INT(dec("chat room=r4   hi there"), PROTO_OK);
	CHECK_STR(req.room, "r4");
	CHECK_STR(req.text, "hi there");
	CHECK_INT(dec("chat text=hi"), PROTO_OK);
	CHECK_STR(req.text, "text=hi");
	CHECK_INT(
	    dec("chat caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8e\xb2"), PROTO_OK);
	CHECK_STR(req.text, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8e\xb2");
	CHECK_INT(dec("say good game\r"), PROTO_OK);
	CHECK_INT(req.verb, PROTO_SAY);
	CHECK_STR(req.text, "good game");
	CHECK_INT(dec("{\"cmd\":\"chat\",\"room\":\"r1\",\"text\":\"two\\n"
	              "lines\\tand a tab\"}"),
	    PROTO_OK);
	CHECK_STR(req.text, "two\nlines\tand a tab");
	CHECK_STR(req.room, "r1");
	CHECK_INT(dec("{\"cmd\":\"say\",\"text\":\"hi\"}"), PROTO_OK);
	CHECK_INT(req.verb, PROTO_SAY);
	FAILS("chat", PROTO_E_BAD_REQUEST, "field 'text' is required");
	FAILS("say   ", PROTO_E_BAD_REQUEST, "field 'text' is required");
	FAILS("chat room=r4", PROTO_E_BAD_REQUEST, "field 'text' is required");
	FAILS("{\"cmd\":\"chat\",\"text\":\"\"}", PROTO_E_BAD_REQUEST,
	    "field 'text' must not be empty");
	FAILS("{\"cmd\":\"chat\",\"text\":\"a\\u0001b\"}", PROTO_E_BAD_REQUEST,
	    "field 'text' contains a control character");
	FAILS("{\"cmd\":\"chat\",\"text\":\"a\\rb\"}", PROTO_E_BAD_REQUEST,
	    "field 'text' contains a control character");
	FAILS("chat a\x1b[2Jb", PROTO_E_BAD_REQUEST,
	    "field 'text' contains a control character");
	FAILS("{\"cmd\":\"chat\",\"text\":[\"hi\"]}", PROTO_E_BAD_REQUEST,
	    "field 'text' must be a string");
}

static void
test_chat_limit(void)
{
	char line[PROTO_TEXT_MAX + 64];

	memset(line, 'a', sizeof line);
	memcpy(line, "chat ", 5);
	line[5 + PROTO_TEXT_MAX] = '\0';
	CHECK_INT(dec(line), PROTO_OK);
	CHECK_INT(strlen(req.text), PROTO_TEXT_MAX);
	line[5 + PROTO_TEXT_MAX] = 'a';
	line[6 + PROTO_TEXT_MAX] = '\0';
	FAILS(line, PROTO_E_BAD_REQUEST,
	    "field 'text' is longer than 2048 "
	    "bytes");
}

static void
test_plain_verbs(void)
{
	static const struct {
		const char *name;
		enum proto_verb verb;
	} verbs[] = {{"games", PROTO_GAMES}, {"who", PROTO_WHO},
	    {"ping", PROTO_PING}, {"quit", PROTO_QUIT}, {"help", PROTO_HELP}};
	char line[128];
	size_t i;

	for (i = 0; i < sizeof verbs / sizeof verbs[0]; i++) {
		snprintf(line, sizeof line, "{\"cmd\":\"%s\",\"junk\":[1,{}]}",
		    verbs[i].name);
		CHECK_INT(dec(line), PROTO_OK);
		CHECK_INT(req.verb, verbs[i].verb);
		snprintf(line, sizeof line, "%s", verbs[i].name);
		CHECK_INT(dec(line), PROTO_OK);
		CHECK_INT(req.verb, verbs[i].verb);
		CHECK_STR(req.cmd, verbs[i].name);
		snprintf(line, sizeof line, "%s extra", verbs[i].name);
		CHECK_INT(dec(line), PROTO_E_BAD_REQUEST);
	}
	FAILS("ping extra", PROTO_E_BAD_REQUEST,
	    "unexpected argument 'extra' (usage: ping)");
	/* every verb has a name, a shorthand and a summary */
	for (i = 0; i < PROTO_VERB_COUNT; i++) {
		CHECK(proto_verb_name((enum proto_verb)i) != NULL);
		CHECK_INT(
		    proto_verb_from_name(proto_verb_name((enum proto_verb)i)),
		    i);
		CHECK(strncmp(proto_verb_shorthand((enum proto_verb)i),
		          proto_verb_name((enum proto_verb)i),
		          strlen(proto_verb_name((enum proto_verb)i))) == 0);
		CHECK(strlen(proto_verb_summary((enum proto_verb)i)) > 3);
	}
	CHECK(proto_verb_name(PROTO_VERB_COUNT) == NULL);
	CHECK_INT(proto_verb_from_name("MOVE"), PROTO_VERB_COUNT);
}

static void
test_bad_json(void)
{
	FAILS("{", PROTO_E_BAD_JSON, "the line is not valid JSON (at byte 0)");
	FAILS("{\"cmd\":\"ping\",}", PROTO_E_BAD_JSON,
	    "the line is not valid JSON (at byte 14)");
	FAILS("{\"cmd\":\"ping\"} x", PROTO_E_BAD_JSON,
	    "unexpected text after the JSON object");
	FAILS("{\"cmd\":\"ping\"}{}", PROTO_E_BAD_JSON,
	    "unexpected text after the JSON object");
	CHECK(req.cmd == NULL && req.id == NULL);
	CHECK_INT(decn("{\"cmd\":\"ping\"\0}", 15), PROTO_E_BAD_JSON);
	CHECK_STR(err, "the line contains a NUL byte");
	CHECK_INT(decn("{\"cmd\":\"p\0ing\"}", 15), PROTO_E_BAD_JSON);
	FAILS("{\"cmd\":\"hello\",\"name\":\"ana\\u0000x\"}", PROTO_E_BAD_JSON,
	    "\\u0000 is not allowed in a string");
	/* an escaped backslash before u0000 is plain text */
	CHECK_INT(dec("{\"cmd\":\"chat\",\"text\":\"a\\\\u0000\"}"), PROTO_OK);
	CHECK_STR(req.text, "a\\u0000");
	/* a lone surrogate escape is not JSON text cJSON takes */
	CHECK_INT(
	    dec("{\"cmd\":\"chat\",\"text\":\"\\ud800\"}"), PROTO_E_BAD_JSON);
	/* an escaped pair is fine */
	CHECK_INT(
	    dec("{\"cmd\":\"chat\",\"text\":\"\\ud83c\\udfb2\"}"), PROTO_OK);
	CHECK_STR(req.text, "\xf0\x9f\x8e\xb2");
	/* leading blanks still make it JSON */
	CHECK_INT(dec("  \t{\"cmd\":\"ping\"}  "), PROTO_OK);
	CHECK_INT(proto_line_is_json("  {", 3), 1);
	CHECK_INT(proto_line_is_json("  x{", 4), 0);
	CHECK_INT(proto_line_is_json("", 0), 0);
}

static void
test_depth(void)
{
	char line[256];
	int depth, i;
	size_t n;

	/* the request object plus 15 levels is 16: fine; one more is not */
	for (depth = 15; depth <= 16; depth++) {
		n = (size_t)snprintf(
		    line, sizeof line, "{\"cmd\":\"ping\",\"x\":");
		for (i = 0; i < depth; i++)
			line[n++] = '[';
		for (i = 0; i < depth; i++)
			line[n++] = ']';
		line[n++] = '}';
		line[n] = '\0';
		if (depth == 15)
			CHECK_INT(dec(line), PROTO_OK);
		else
			FAILS(line, PROTO_E_BAD_JSON,
			    "JSON nested deeper than 16 levels");
	}
	/* brackets inside strings do not count */
	CHECK_INT(
	    dec("{\"cmd\":\"chat\",\"text\":\"[[[[[[[[[[[[[[[[[[[[{{{{\"}"),
	    PROTO_OK);
}

static void
test_cmd_errors(void)
{
	FAILS("{}", PROTO_E_BAD_REQUEST, "field 'cmd' is required");
	FAILS("{\"cmd\":null}", PROTO_E_BAD_REQUEST, "field 'cmd' is required");
	FAILS("{\"cmd\":5,\"id\":1}", PROTO_E_BAD_REQUEST,
	    "field 'cmd' must be a string");
	CHECK(req.cmd == NULL);
	CHECK_STR(req.id, "1");
	FAILS("{\"cmd\":\"fly\",\"id\":5}", PROTO_E_UNKNOWN_CMD,
	    "unknown command 'fly' (help lists them)");
	CHECK_STR(req.cmd, "fly");
	CHECK_STR(req.id, "5");
	CHECK_INT(req.verb, PROTO_VERB_COUNT);
	/* JSON verbs are exact */
	FAILS("{\"cmd\":\"PING\"}", PROTO_E_UNKNOWN_CMD,
	    "unknown command 'PING' (help lists them)");
	FAILS("{\"cmd\":\"\"}", PROTO_E_UNKNOWN_CMD,
	    "unknown command (help lists them)");
	CHECK(req.cmd == NULL);
	FAILS("{\"cmd\":\"f\\u0001y\"}", PROTO_E_UNKNOWN_CMD,
	    "unknown command (help lists them)");
	CHECK(req.cmd == NULL);
	FAILS("{\"cmd\":\"\xff\"}", PROTO_E_UNKNOWN_CMD,
	    "unknown command (help lists them)");
	FAILS("fly away", PROTO_E_UNKNOWN_CMD,
	    "unknown command 'fly' (help lists them)");
	CHECK_STR(req.cmd, "fly");
	CHECK_INT(req.shorthand, 1);
	FAILS("FLY", PROTO_E_UNKNOWN_CMD,
	    "unknown command 'fly' (help lists them)");
	FAILS("[1]", PROTO_E_UNKNOWN_CMD,
	    "unknown command '[1]' (help lists them)");
	FAILS("averyveryveryveryveryverylongcommandname", PROTO_E_UNKNOWN_CMD,
	    "unknown command (help lists them)");
	CHECK(req.cmd == NULL);
	CHECK_INT(decn("pi\0ng", 5), PROTO_E_BAD_REQUEST);
	CHECK_STR(err, "the line contains a NUL byte");
	/* a line of blanks (the framer drops them) is no command */
	FAILS("   ", PROTO_E_UNKNOWN_CMD, "unknown command (help lists them)");
}

static void
test_ids(void)
{
	CHECK_INT(
	    dec("{\"cmd\":\"ping\",\"id\":123456789012345678901234567890}"),
	    PROTO_OK);
	CHECK_STR(req.id, "123456789012345678901234567890");
	CHECK_INT(dec("{\"id\":\"a\\\"b\\\\c\",\"cmd\":\"ping\"}"), PROTO_OK);
	CHECK_STR(req.id, "\"a\\\"b\\\\c\"");
	CHECK_INT(dec("{\"cmd\":\"ping\",\"id\":\"\"}"), PROTO_OK);
	CHECK_STR(req.id, "\"\"");
	CHECK_INT(dec("{\"cmd\":\"ping\",\"id\":0}"), PROTO_OK);
	CHECK_STR(req.id, "0");
	CHECK_INT(dec("{\"cmd\":\"ping\",\"id\":null}"), PROTO_E_BAD_REQUEST);
	CHECK_STR(err, "field 'id' must be a string or an integer");
	FAILS("{\"cmd\":\"ping\",\"id\":1.5}", PROTO_E_BAD_REQUEST,
	    "field 'id' must be a string or an integer");
	FAILS("{\"cmd\":\"ping\",\"id\":1.0}", PROTO_E_BAD_REQUEST,
	    "field 'id' must be a string or an integer");
	FAILS("{\"cmd\":\"ping\",\"id\":1e3}", PROTO_E_BAD_REQUEST,
	    "field 'id' must be a string or an integer");
	FAILS("{\"cmd\":\"ping\",\"id\":{}}", PROTO_E_BAD_REQUEST,
	    "field 'id' must be a string or an integer");
	FAILS("{\"cmd\":\"ping\",\"id\":[1]}", PROTO_E_BAD_REQUEST,
	    "field 'id' must be a string or an integer");
	FAILS("{\"cmd\":\"ping\",\"id\":true}", PROTO_E_BAD_REQUEST,
	    "field 'id' must be a string or an integer");
	CHECK_STR(req.cmd, "ping");
	CHECK(req.id == NULL);
	FAILS("{\"cmd\":\"ping\",\"id\":\"\xff\"}", PROTO_E_BAD_REQUEST,
	    "field 'id' is not valid UTF-8");
	FAILS("{\"cmd\":\"ping\",\"id\":\"a\tb\"}", PROTO_E_BAD_REQUEST,
	    "field 'id' contains a control character");
	FAILS("{\"cmd\":\"ping\",\"id\":\"1234567890123456789012345678901234567"
	      "89012345678901234567890123456789012345678901234567890123456789"
	      "01234567890123456789012345678901\"}",
	    PROTO_E_BAD_REQUEST, "field 'id' is longer than 128 bytes");
	/* the first id wins, as in cJSON */
	CHECK_INT(dec("{\"cmd\":\"ping\",\"id\":1,\"id\":2}"), PROTO_OK);
	CHECK_STR(req.id, "1");
	/* ids with blanks around them */
	CHECK_INT(dec("{ \"cmd\" : \"ping\" , \"id\" :  77  }"), PROTO_OK);
	CHECK_STR(req.id, "77");
	CHECK_INT(dec("{\"text\":\"\\\"id\\\":5\",\"cmd\":\"ping\",\"id\":6}"),
	    PROTO_OK);
	CHECK_STR(req.id, "6");
	/* an id rides along with every other error it can */
	FAILS("{\"cmd\":\"move\",\"id\":\"m1\",\"move\":1}",
	    PROTO_E_BAD_REQUEST, "field 'move' must be a string");
	CHECK_STR(req.id, "\"m1\"");
	CHECK_STR(req.cmd, "move");
}

static void
test_utf8(void)
{
	/* invalid sequences in every kind of string field */
	FAILS("{\"cmd\":\"chat\",\"text\":\"a\xff\"}", PROTO_E_BAD_REQUEST,
	    "field 'text' is not valid UTF-8");
	FAILS("chat a\xc3\x28", PROTO_E_BAD_REQUEST,
	    "field 'text' is not valid UTF-8");
	FAILS("hello \xc0\xaf", PROTO_E_BAD_REQUEST,
	    "field 'name' is not valid UTF-8");
	FAILS("hello \xed\xa0\x80", PROTO_E_BAD_REQUEST,
	    "field 'name' is not valid UTF-8");
	FAILS("hello \xf4\x90\x80\x80", PROTO_E_BAD_REQUEST,
	    "field 'name' is not valid UTF-8");
	FAILS("hello \xe2\x82", PROTO_E_BAD_REQUEST,
	    "field 'name' is not valid UTF-8");
	FAILS("hello \xe0\x80\x80", PROTO_E_BAD_REQUEST,
	    "field 'name' is not valid UTF-8");
	FAILS("move \x80", PROTO_E_BAD_REQUEST,
	    "field 'move' is not valid UTF-8");
	FAILS(
	    "{\"cmd\":\"create\",\"game\":\"x\",\"options\":{\"f\":\"\xfe\"}}",
	    PROTO_E_BAD_REQUEST, "field 'options.f' is not valid UTF-8");
	FAILS("{\"cmd\":\"create\",\"game\":\"x\",\"options\":{\"\xfe\":1}}",
	    PROTO_E_BAD_REQUEST,
	    "an option name is empty, too long or not plain text");
	FAILS("{\"cmd\":\"create\",\"game\":\"x\",\"bots\":{\"\xfe\":1}}",
	    PROTO_E_BAD_REQUEST, "field 'bots' is not valid UTF-8");
	FAILS("join r1 \xff", PROTO_E_BAD_REQUEST,
	    "field 'seat' is not valid UTF-8");
	/* files may hold newlines, CRs and tabs, nothing else */
	CHECK_INT(dec("{\"cmd\":\"create\",\"game\":\"x\",\"options\":{\"f\":"
	              "\"1\\r\\n2\\t3\"}}"),
	    PROTO_OK);
	CHECK_STR(proto_request_option(&req, "f"), "1\r\n2\t3");
	FAILS("{\"cmd\":\"create\",\"game\":\"x\",\"options\":{\"f\":\"\\b\"}}",
	    PROTO_E_BAD_REQUEST,
	    "field 'options.f' contains a control "
	    "character");
	/* a tab separates arguments like a space */
	CHECK_INT(dec("hello a\tb"), PROTO_OK);
	CHECK_STR(req.token, "b");
	FAILS("hello \"a\tb\"", PROTO_E_BAD_REQUEST,
	    "field 'name' contains a control character");
}

static void
test_errors_never_split_utf8(void)
{
	char small[12];
	struct proto_request r;

	/* a message cut short never ends inside a UTF-8 sequence */
	CHECK_INT(
	    proto_decode("fly\xc3\xa9\xc3\xa9", 7, &r, small, sizeof small),
	    PROTO_E_UNKNOWN_CMD);
	CHECK(proto_utf8_valid(small, strlen(small)));
	proto_request_free(&r);
	CHECK_INT(proto_decode("ping", 4, &r, NULL, 0), PROTO_OK);
	proto_request_free(&r);
}

/* Whether two optional strings are equal. */
static int
same_str(const char *a, const char *b)
{
	return (a == NULL && b == NULL) ||
	    (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* Whether two decoded requests carry the same fields. */
static int
same_request(const struct proto_request *a, const struct proto_request *b)
{
	int i;

	if (a->verb != b->verb || !same_str(a->name, b->name) ||
	    !same_str(a->token, b->token) || !same_str(a->game, b->game) ||
	    !same_str(a->room, b->room) || !same_str(a->seat, b->seat) ||
	    !same_str(a->move, b->move) || !same_str(a->from, b->from) ||
	    !same_str(a->text, b->text) || !same_str(a->action, b->action) ||
	    !same_str(a->mode, b->mode) || !same_str(a->status, b->status) ||
	    a->has_seq != b->has_seq || a->seq != b->seq ||
	    a->has_proto != b->has_proto || a->has_private != b->has_private ||
	    a->is_private != b->is_private || a->has_clock != b->has_clock ||
	    a->clock_initial != b->clock_initial ||
	    a->clock_increment != b->clock_increment ||
	    a->noptions != b->noptions || a->nbots != b->nbots)
		return 0;
	for (i = 0; i < a->noptions; i++) {
		if (!same_str(a->options[i].key, b->options[i].key) ||
		    !same_str(a->options[i].value, b->options[i].value))
			return 0;
	}
	for (i = 0; i < a->nbots; i++) {
		if (!same_str(a->bots[i].seat, b->bots[i].seat) ||
		    a->bots[i].level != b->bots[i].level)
			return 0;
	}
	return 1;
}

/* The shorthand table of docs/PROTOCOL.md, section 4: each shorthand line
 * decodes to the same request as its JSON. */
static void
test_doc_table(void)
{
	static const char *const pairs[][2] = {
	    {"hello ana", "{\"cmd\":\"hello\",\"name\":\"ana\"}"},
	    {"hello ana 4b1d",
	        "{\"cmd\":\"hello\",\"name\":\"ana\","
	        "\"token\":\"4b1d\"}"},
	    {"rooms ataxx waiting",
	        "{\"cmd\":\"rooms\",\"game\":\"ataxx\","
	        "\"status\":\"waiting\"}"},
	    {"create ataxx size=7 bot=3",
	        "{\"cmd\":\"create\",\"game\":\"ataxx\",\"options\":"
	        "{\"size\":\"7\"},\"bot\":3}"},
	    {"create amazons bots=black:2 time=300 inc=5 private=yes",
	        "{\"cmd\":\"create\",\"game\":\"amazons\",\"bots\":"
	        "{\"black\":2},\"clock\":{\"initial\":300,\"increment\":5},"
	        "\"private\":true}"},
	    {"join r4", "{\"cmd\":\"join\",\"room\":\"r4\"}"},
	    {"join r4 black",
	        "{\"cmd\":\"join\",\"room\":\"r4\",\"seat\":\"black\"}"},
	    {"join r3 \"player 2\"",
	        "{\"cmd\":\"join\",\"room\":\"r3\","
	        "\"seat\":\"player 2\"}"},
	    {"create stones bots=\"player 2:3\"",
	        "{\"cmd\":\"create\",\"game\":\"stones\",\"bots\":"
	        "{\"player 2\":3}}"},
	    {"move b6", "{\"cmd\":\"move\",\"move\":\"b6\"}"},
	    {"move 3,4 up", "{\"cmd\":\"move\",\"move\":\"3,4 up\"}"},
	    {"moves b6", "{\"cmd\":\"moves\",\"from\":\"b6\"}"},
	    {"moves from=b6", "{\"cmd\":\"moves\",\"from\":\"b6\"}"},
	    {"draw offer", "{\"cmd\":\"draw\",\"action\":\"offer\"}"},
	    {"chat good game", "{\"cmd\":\"chat\",\"text\":\"good game\"}"},
	    {"say good game", "{\"cmd\":\"say\",\"text\":\"good game\"}"},
	    {"state r4", "{\"cmd\":\"state\",\"room\":\"r4\"}"},
	    {"state room=r4", "{\"cmd\":\"state\",\"room\":\"r4\"}"},
	    {"create solitaire file=\"3 3\\n1 1 1\\n1 0 1\\n1 1 1\"",
	        "{\"cmd\":\"create\",\"game\":\"solitaire\",\"options\":"
	        "{\"file\":\"3 3\\n1 1 1\\n1 0 1\\n1 1 1\"}}"},
	};
	struct proto_request a, b;
	size_t i;

	for (i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
		CHECK_INT(proto_decode(pairs[i][0], strlen(pairs[i][0]), &a,
		              err, sizeof err),
		    PROTO_OK);
		CHECK_INT(proto_decode(pairs[i][1], strlen(pairs[i][1]), &b,
		              err, sizeof err),
		    PROTO_OK);
		check_true(
		    same_request(&a, &b), __FILE__, __LINE__, pairs[i][0]);
		proto_request_free(&a);
		proto_request_free(&b);
	}
}

/* Shorthand mistakes for people: the usage line, not field names. */
static void
test_shorthand_usage(void)
{
	char msg[256];

	CHECK_INT(dec("create"), PROTO_E_BAD_REQUEST);
	proto_shorthand_usage(req.verb, err, sizeof err);
	snprintf(
	    msg, sizeof msg, "usage: %s", proto_verb_shorthand(PROTO_CREATE));
	CHECK_STR(err, msg);
	CHECK(strncmp(err, "usage: create GAME [OPTION=VALUE ...]", 37) == 0);
	CHECK_INT(dec("draw maybe"), PROTO_E_BAD_REQUEST);
	proto_shorthand_usage(req.verb, err, sizeof err);
	CHECK_STR(err,
	    "'action' must be one of offer, accept, decline "
	    "(usage: draw offer|accept|decline)");
	snprintf(msg, sizeof msg, "unexpected argument 'x' (usage: ping)");
	proto_shorthand_usage(PROTO_PING, msg, sizeof msg);
	CHECK_STR(msg, "unexpected argument 'x' (usage: ping)");
}

int
main(void)
{
	memset(&req, 0, sizeof req);
	test_shorthand_usage();
	test_hello();
	test_rooms();
	test_create_json();
	test_create_options_limit();
	test_create_shorthand();
	test_room_verbs();
	test_moves_move();
	test_draw_mode();
	test_chat();
	test_chat_limit();
	test_plain_verbs();
	test_bad_json();
	test_depth();
	test_cmd_errors();
	test_ids();
	test_utf8();
	test_errors_never_split_utf8();
	test_doc_table();
	proto_request_free(&req);
	return check_done();
}
