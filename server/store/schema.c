/*
 * schema.c: the store's schema and its migrations, one list for both
 * backends (schema.h). SQLite's text is the original; PostgreSQL's differs
 * only in types (BIGINT for 64-bit integers: SQLite's INTEGER is 64 bits,
 * PostgreSQL's 32; BIGSERIAL for the finished games' ids), in the room numbers
 * (a sequence instead of SQLite's meta row and trigger) and in SQLite's WITHOUT
 * ROWID.
 */
#include <stddef.h>

#include "server/store/schema.h"

/* The migrations' text in either backend's types: BIG a 64-bit integer's,
 * ID the games' id's; NOROWID SQLite's " WITHOUT ROWID" or nothing;
 * NUMBERS how room numbers are kept (a meta row or a sequence). */
#define STORE_V1(BIG, NOROWID, NUMBERS)                                        \
	"CREATE TABLE identities ("                                            \
	" name TEXT PRIMARY KEY NOT NULL,"                                     \
	" token_hash TEXT NOT NULL,"                                           \
	" created_ms " BIG " NOT NULL);"                                       \
	"CREATE TABLE rooms ("                                                 \
	" id TEXT PRIMARY KEY NOT NULL,"                                       \
	" number " BIG "," /* from "r<digits>", for the next room number */    \
	" game TEXT NOT NULL,"                                                 \
	" options TEXT NOT NULL,"                                              \
	" seats TEXT NOT NULL,"                                                \
	" status TEXT NOT NULL,"                                               \
	" result TEXT,"                                                        \
	" creator TEXT NOT NULL,"                                              \
	" private INTEGER NOT NULL,"                                           \
	" clock_initial_ms " BIG " NOT NULL,"                                  \
	" clock_increment_ms " BIG " NOT NULL,"                                \
	" game_no INTEGER NOT NULL,"                                           \
	" created_ms " BIG " NOT NULL,"                                        \
	" updated_ms " BIG " NOT NULL);"                                       \
	"CREATE INDEX rooms_status_updated ON rooms (status, updated_ms);"     \
	"CREATE INDEX rooms_number ON rooms (number);"                         \
	"CREATE TABLE moves ("                                                 \
	" room TEXT NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,"         \
	" game_no INTEGER NOT NULL,"                                           \
	" ply INTEGER NOT NULL,"                                               \
	" seat INTEGER NOT NULL,"                                              \
	" move TEXT NOT NULL,"                                                 \
	" clock0 " BIG " NOT NULL,"                                            \
	" clock1 " BIG " NOT NULL,"                                            \
	" at_ms " BIG " NOT NULL,"                                             \
	" PRIMARY KEY (room, game_no, ply))" NOROWID ";" NUMBERS               \
	"CREATE TABLE progress ("                                              \
	" name TEXT NOT NULL,"                                                 \
	" game TEXT NOT NULL,"                                                 \
	" json TEXT NOT NULL,"                                                 \
	" updated_ms " BIG " NOT NULL,"                                        \
	" PRIMARY KEY (name, game))" NOROWID ";"
/* SQLite keeps the highest room number ever saved, kept when rooms are
 * deleted so that a pruned room's id is never given out again. */
#define STORE_V1_SQLITE_NUMBERS                                                \
	"CREATE TABLE meta ("                                                  \
	" key TEXT PRIMARY KEY NOT NULL,"                                      \
	" value INTEGER NOT NULL) WITHOUT ROWID;"                              \
	"INSERT INTO meta (key, value) VALUES ('room_max', 0);"                \
	"CREATE TRIGGER rooms_max AFTER INSERT ON rooms"                       \
	" WHEN NEW.number IS NOT NULL BEGIN"                                   \
	" UPDATE meta SET value = max(value, NEW.number)"                      \
	" WHERE key = 'room_max'; END;"
/* PostgreSQL's come from a sequence, so that servers sharing the database
 * never give out one twice; a pruned room's number is never given out
 * again either. */
#define STORE_V1_PG_NUMBERS "CREATE SEQUENCE room_numbers;"
#define STORE_V2(BIG)                                                          \
	"ALTER TABLE rooms ADD COLUMN seq " BIG " NOT NULL DEFAULT 0;"         \
	"ALTER TABLE moves ADD COLUMN seq " BIG " NOT NULL DEFAULT 0;"
#define STORE_V3(ID, BIG)                                                      \
	"CREATE TABLE games ("                                                 \
	" id " ID " PRIMARY KEY,"                                              \
	" room TEXT NOT NULL,"                                                 \
	" game_no INTEGER NOT NULL,"                                           \
	" game TEXT NOT NULL,"                                                 \
	" options TEXT NOT NULL,"                                              \
	" seats TEXT NOT NULL,"                                                \
	" name0 TEXT,"                                                         \
	" name1 TEXT,"                                                         \
	" result TEXT NOT NULL,"                                               \
	" private INTEGER NOT NULL,"                                           \
	" clock_initial_ms " BIG " NOT NULL,"                                  \
	" clock_increment_ms " BIG " NOT NULL,"                                \
	" started_ms " BIG " NOT NULL,"                                        \
	" ended_ms " BIG " NOT NULL,"                                          \
	" nmoves INTEGER NOT NULL,"                                            \
	" moves TEXT NOT NULL,"                                                \
	" start TEXT NOT NULL,"                                                \
	" position TEXT NOT NULL);"                                            \
	"CREATE INDEX games_ended ON games (ended_ms);"                        \
	"CREATE INDEX games_room ON games (room);"                             \
	"CREATE INDEX games_name0 ON games (name0, ended_ms);"                 \
	"CREATE INDEX games_name1 ON games (name1, ended_ms);"
/* The cluster's fence (cluster.c, pg.c): the lease epoch of the node
 * that owns the room; a node writes a room only while it holds the
 * highest epoch taken. */
#define STORE_V5(BIG)                                                          \
	"ALTER TABLE rooms ADD COLUMN owner_epoch " BIG " NOT NULL DEFAULT 0;"
#define STORE_V4(BIG)                                                          \
	"ALTER TABLE identities ADD COLUMN folded TEXT;"                       \
	"ALTER TABLE identities ADD COLUMN played INTEGER NOT NULL DEFAULT 1;" \
	"ALTER TABLE identities ADD COLUMN seen_ms " BIG                       \
	" NOT NULL DEFAULT 0;"                                                 \
	"UPDATE identities SET folded = lower(name) WHERE NOT EXISTS"          \
	" (SELECT 1 FROM identities o WHERE lower(o.name) ="                   \
	" lower(identities.name) AND (o.created_ms < identities.created_ms"    \
	" OR (o.created_ms = identities.created_ms AND o.name <"               \
	" identities.name)));"                                                 \
	"CREATE UNIQUE INDEX identities_folded ON identities (folded);"        \
	"CREATE INDEX identities_unplayed ON identities (played, seen_ms);"

const struct store_migration store_schema[] = {
    /* 1: the first schema. */
    {.sqlite = STORE_V1("INTEGER", " WITHOUT ROWID", STORE_V1_SQLITE_NUMBERS),
        .pg = STORE_V1("BIGINT", "", STORE_V1_PG_NUMBERS)},
    /* 2: event numbers survive a restart: the room's last seq, and the
     * seq of each move's moved event. */
    {.sqlite = STORE_V2("INTEGER"), .pg = STORE_V2("BIGINT")},
    /* 3: every finished game is kept, whole: its players (name0 and
     * name1, NULL for a bot or a free seat, for a player's history),
     * result, times, moves (JSON) and start and final positions; a
     * rematch or a restart of the room never touches it. */
    {.sqlite = STORE_V3("INTEGER", "INTEGER"),
        .pg = STORE_V3("BIGSERIAL", "BIGINT")},
    /* 4: names are unique whatever their case: `folded` is the name in
     * lower case, unique. Where names clashed already, the first
     * registered (oldest, then smallest in byte order) gets the folded
     * key; the others keep working under their exact spelling only.
     * `played`: set once the identity sat in a game that started;
     * identities that never did are pruned --unplayed-days after they
     * were last seen (`seen_ms`, the last hello). Those made before this
     * version count as played (nothing says otherwise). */
    {.sqlite = STORE_V4("INTEGER"), .pg = STORE_V4("BIGINT")},
    /* 5: a room's owner_epoch, the fence of a cluster's nodes: the
     * epoch of the last lease taken on it (0: never in a cluster). A
     * commit of a node holding a lower epoch is refused (pg.c). */
    {.sqlite = STORE_V5("INTEGER"), .pg = STORE_V5("BIGINT")},
};

const int store_schema_version =
    (int)(sizeof store_schema / sizeof store_schema[0]);

const char *
store_schema_sql(int i, int pg)
{
	if (pg && store_schema[i].pg != NULL)
		return store_schema[i].pg;
	return store_schema[i].sqlite;
}

/* The columns of each table, for store_tables. */
#define STORE_IDENT_COLS "name, token_hash, created_ms, folded, played, seen_ms"
#define STORE_ROOM_COLS                                                        \
	"id, number, game, options, seats, status, result, creator, private,"  \
	" clock_initial_ms, clock_increment_ms, game_no, created_ms,"          \
	" updated_ms, seq"
#define STORE_MOVE_COLS                                                        \
	"room, game_no, ply, seat, move, clock0, clock1, at_ms, seq"
#define STORE_GAME_COLS                                                        \
	"id, room, game_no, game, options, seats, name0, name1, result,"       \
	" private, clock_initial_ms, clock_increment_ms, started_ms,"          \
	" ended_ms, nmoves, moves, start, position"
#define STORE_PROGRESS_COLS "name, game, json, updated_ms"

const struct store_table store_tables[] = {
    {"identities", 6,
        "SELECT " STORE_IDENT_COLS " FROM identities ORDER BY name", NULL,
        "INSERT INTO identities (" STORE_IDENT_COLS ")"
        " VALUES ($1, $2, $3, $4, $5, $6)",
        NULL},
    {"rooms", 15, "SELECT " STORE_ROOM_COLS " FROM rooms ORDER BY id", NULL,
        "INSERT INTO rooms (" STORE_ROOM_COLS ") VALUES ($1, $2, $3, $4,"
        " $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)",
        NULL},
    {"moves", 9,
        "SELECT " STORE_MOVE_COLS " FROM moves ORDER BY room, game_no, ply",
        NULL,
        "INSERT INTO moves (" STORE_MOVE_COLS ") VALUES ($1, $2, $3, $4,"
        " $5, $6, $7, $8, $9)",
        NULL},
    {"games", 18, "SELECT " STORE_GAME_COLS " FROM games ORDER BY id", NULL,
        "INSERT INTO games (" STORE_GAME_COLS ") VALUES ($1, $2, $3, $4,"
        " $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,"
        " $18)",
        NULL},
    {"progress", 4,
        "SELECT " STORE_PROGRESS_COLS " FROM progress ORDER BY name, game",
        NULL,
        "INSERT INTO progress (" STORE_PROGRESS_COLS ")"
        " VALUES ($1, $2, $3, $4)",
        NULL},
    {"room_max", 1,
        "SELECT max(coalesce((SELECT value FROM meta"
        " WHERE key = 'room_max'), 0),"
        " coalesce((SELECT max(number) FROM rooms), 0))",
        "SELECT greatest((SELECT CASE WHEN is_called THEN last_value"
        " ELSE 0 END FROM room_numbers),"
        " coalesce((SELECT max(number) FROM rooms), 0))",
        "UPDATE meta SET value = max(value, CAST($1 AS INTEGER))"
        " WHERE key = 'room_max'",
        "SELECT setval('room_numbers', $1::bigint) WHERE $1::bigint >"
        " (SELECT CASE WHEN is_called THEN last_value ELSE 0 END"
        " FROM room_numbers)"},
};

const int store_ntables = (int)(sizeof store_tables / sizeof store_tables[0]);

const char *
store_table_sql(const struct store_table *t, int write, int pg)
{
	const char *pgsql = write ? t->write_pg : t->read_pg;

	if (pg && pgsql != NULL)
		return pgsql;
	return write ? t->write : t->read;
}
