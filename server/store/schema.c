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
/* REAL: a double in either backend (SQLite's REAL, PostgreSQL's DOUBLE
 * PRECISION). */
#define STORE_RATINGS(BIG, REAL, NOROWID)                                      \
	"CREATE TABLE ratings ("                                               \
	" name TEXT NOT NULL,"                                                 \
	" pool TEXT NOT NULL,"                                                 \
	" rating " REAL " NOT NULL,"                                           \
	" rd " REAL " NOT NULL,"                                               \
	" vol " REAL " NOT NULL,"                                              \
	" wins INTEGER NOT NULL,"                                              \
	" draws INTEGER NOT NULL,"                                             \
	" losses INTEGER NOT NULL,"                                            \
	" updated_ms " BIG " NOT NULL,"                                        \
	" PRIMARY KEY (name, pool))" NOROWID ";"                               \
	"CREATE INDEX ratings_pool ON ratings (pool, rating);"                 \
	"CREATE TABLE records ("                                               \
	" name TEXT NOT NULL,"                                                 \
	" game TEXT NOT NULL,"                                                 \
	" solved INTEGER NOT NULL,"                                            \
	" best INTEGER NOT NULL,"                                              \
	" tries INTEGER NOT NULL,"                                             \
	" updated_ms " BIG " NOT NULL,"                                        \
	" PRIMARY KEY (name, game))" NOROWID ";"

#define STORE_V_TOURNEY(BIG)                                                   \
	"CREATE TABLE tourneys ("                                              \
	" id TEXT PRIMARY KEY NOT NULL,"                                       \
	" game TEXT NOT NULL,"                                                 \
	" options TEXT NOT NULL,"                                              \
	" format TEXT NOT NULL,"                                               \
	" rounds INTEGER NOT NULL,"                                            \
	" grace_sec INTEGER NOT NULL,"                                         \
	" clock_initial_ms " BIG " NOT NULL,"                                  \
	" clock_increment_ms " BIG " NOT NULL,"                                \
	" organiser TEXT NOT NULL,"                                            \
	" status TEXT NOT NULL,"                                               \
	" round INTEGER NOT NULL,"                                             \
	" created_ms " BIG " NOT NULL);"                                       \
	"CREATE TABLE tourney_players ("                                       \
	" tourney TEXT NOT NULL REFERENCES tourneys (id) ON DELETE CASCADE,"   \
	" name TEXT NOT NULL,"                                                 \
	" seq INTEGER NOT NULL,"                                               \
	" joined_ms " BIG " NOT NULL,"                                         \
	" PRIMARY KEY (tourney, name));"                                       \
	"CREATE TABLE tourney_games ("                                         \
	" tourney TEXT NOT NULL REFERENCES tourneys (id) ON DELETE CASCADE,"   \
	" round INTEGER NOT NULL,"                                             \
	" board INTEGER NOT NULL,"                                             \
	" white TEXT NOT NULL,"                                                \
	" black TEXT,"                                                         \
	" room TEXT,"                                                          \
	" result TEXT NOT NULL,"                                               \
	" reason TEXT NOT NULL,"                                               \
	" deadline_ms " BIG " NOT NULL,"                                       \
	" PRIMARY KEY (tourney, round, board));"

/* seeks: every open seek (seek.h, seekstore.c), one row each, deleted
 * when it ends; range_lo and range_hi NULL when any opponent will do. */
#define STORE_V_SEEKS(BIG)                                                     \
	"CREATE TABLE seeks ("                                                 \
	" id TEXT PRIMARY KEY NOT NULL,"                                       \
	" name TEXT NOT NULL,"                                                 \
	" game TEXT NOT NULL,"                                                 \
	" options TEXT NOT NULL,"                                              \
	" clock_initial_ms " BIG " NOT NULL,"                                  \
	" clock_increment_ms " BIG " NOT NULL,"                                \
	" rated INTEGER NOT NULL,"                                             \
	" range_lo INTEGER,"                                                   \
	" range_hi INTEGER,"                                                   \
	" rating INTEGER NOT NULL,"                                            \
	" made_ms " BIG " NOT NULL);"

/* rating_games: one row per person per rated game whose rating change
 * is stored (game: "ROOM/GAME_NO@ENDED_MS"), written in the same
 * transaction as the change, which is made only when its row is new: a
 * group tried again after its commit went through unseen changes no
 * rating twice (pg.c adds changes to the row as it is). Pruned by age
 * (rating.c). counters: numbers that must only grow, one row each
 * ("seek": the highest seek id ever shown, sstore.c; "club": the epoch
 * of the last taking of the club on a cluster, which fences the club's
 * rows as owner_epoch fences a room's, pg.c). */
#define STORE_V_ONCE(BIG)                                                      \
	"CREATE TABLE rating_games ("                                          \
	" game TEXT NOT NULL,"                                                 \
	" name TEXT NOT NULL,"                                                 \
	" at_ms " BIG " NOT NULL,"                                             \
	" PRIMARY KEY (game, name));"                                          \
	"CREATE INDEX rating_games_at ON rating_games (at_ms);"                \
	"CREATE TABLE counters ("                                              \
	" name TEXT PRIMARY KEY NOT NULL,"                                     \
	" value " BIG " NOT NULL);"

/* blocks: whom each player blocks (core/block.c), both names folded to
 * lower case (as identities.folded) and the blocked one as registered
 * (shown), so `blocks` lists them as people spell them. sanctions: the
 * operators' bans and mutes in force (cmd/sanction.c): kind 'ban' (an
 * identity, folded), 'banaddr' (an address or network as the server
 * writes it, "ADDR/BITS") or 'mute'; until_ms the end (ms since the
 * epoch), 0 until lifted. admin_log: every operator's act, kept for
 * good (an upsert by its key, so a group tried twice writes it once). */
#define STORE_V_MODERATE(BIG)                                                  \
	"CREATE TABLE blocks ("                                                \
	" name TEXT NOT NULL,"                                                 \
	" blocked TEXT NOT NULL,"                                              \
	" shown TEXT NOT NULL,"                                                \
	" made_ms " BIG " NOT NULL,"                                           \
	" PRIMARY KEY (name, blocked));"                                       \
	"CREATE TABLE sanctions ("                                             \
	" kind TEXT NOT NULL,"                                                 \
	" target TEXT NOT NULL,"                                               \
	" until_ms " BIG " NOT NULL,"                                          \
	" admin TEXT NOT NULL,"                                                \
	" made_ms " BIG " NOT NULL,"                                           \
	" PRIMARY KEY (kind, target));"                                        \
	"CREATE TABLE admin_log ("                                             \
	" at_ms " BIG " NOT NULL,"                                             \
	" admin TEXT NOT NULL,"                                                \
	" act TEXT NOT NULL,"                                                  \
	" target TEXT NOT NULL,"                                               \
	" detail TEXT NOT NULL,"                                               \
	" PRIMARY KEY (at_ms, admin, act, target));"
/* The reads a guest can make, each one index range in the order it is
 * listed (docs/PROTOCOL.md, section 2, "Storage"): the public finished
 * games newest first, all of them or one game's (`rooms ended`); a
 * player's (`history`) come from games_name0 and games_name1, whose
 * rowid SQLite keeps after ended_ms. PostgreSQL keeps no rowid in an
 * index: its indexes end with the id, so a page's order (ended_ms, then
 * id) is the index's and no sort runs; the indexes they replace are
 * dropped. */
#define STORE_V_READS_SQLITE                                                   \
	"CREATE INDEX games_public ON games (private, ended_ms);"              \
	"CREATE INDEX games_public_game ON games (private, game, ended_ms);"
#define STORE_V_READS_PG                                                       \
	"CREATE INDEX games_public ON games (private, ended_ms, id);"          \
	"CREATE INDEX games_public_game ON games"                              \
	" (private, game, ended_ms, id);"                                      \
	"CREATE INDEX games_name0_at ON games (name0, ended_ms, id);"          \
	"CREATE INDEX games_name1_at ON games (name1, ended_ms, id);"          \
	"CREATE INDEX games_room_id ON games (room, id);"                      \
	"DROP INDEX games_name0;"                                              \
	"DROP INDEX games_name1;"                                              \
	"DROP INDEX games_room;"

/* The rating's decision made when a two-player game starts (club/
 * rating.c): NULL, not made (a room from before, or no game under way);
 * '' rated; otherwise why not, as the started event said. */
#define STORE_V_UNRATED "ALTER TABLE rooms ADD COLUMN unrated TEXT;"

/* The address (its limit key: an IPv4 address, an IPv6 /64) a
 * tournament was made from, which the cap per address counts
 * (club/tourney.c); NULL for those made before. */
#define STORE_V_TOURNEY_ADDR                                                   \
	"ALTER TABLE tourneys ADD COLUMN organiser_addr TEXT;"

/* 14: accounts (core/password.c). password_hash: the identity's
 * password as crypto_pwhash_str writes it (argon2id, its salt and
 * costs), NULL for none. tokens: the tokens a password login handed out
 * ("devices"), by their hash as identities.token_hash, at most
 * PASSWORD_DEVICES per identity (the oldest go); an identity with a
 * password has played (never pruned), so its rows never outlive it. */
#define STORE_V_ACCOUNTS(BIG, NOROWID)                                         \
	"ALTER TABLE identities ADD COLUMN password_hash TEXT;"                \
	"CREATE TABLE tokens ("                                                \
	" name TEXT NOT NULL,"                                                 \
	" hash TEXT NOT NULL,"                                                 \
	" made_ms " BIG " NOT NULL,"                                           \
	" PRIMARY KEY (name, hash))" NOROWID ";"

/* messages: kept for a registered player who is away (cmd/message.c),
 * until their next hello: the recipient and the sender as registered,
 * when it was sent (ms since the epoch, distinct per server) and its
 * text. The key reads a player's oldest first; sender counts a
 * sender's messages waiting (bounded). */
#define STORE_V_MESSAGES(BIG)                                                  \
	"CREATE TABLE messages ("                                              \
	" recipient TEXT NOT NULL,"                                            \
	" sent_ms " BIG " NOT NULL,"                                           \
	" sender TEXT NOT NULL,"                                               \
	" text TEXT NOT NULL,"                                                 \
	" PRIMARY KEY (recipient, sent_ms, sender));"                          \
	"CREATE INDEX messages_sender ON messages (sender);"

/* 16: a game's end finds the rows kept of the same game (SQLite's
 * ST_GAME_REPLACED and ST_GAME_PUT's NOT EXISTS, PostgreSQL's PS_GAME_PUT)
 * in one seek of this index, by room and game number; through games_room
 * (or PostgreSQL's games_room_id) it read every game the room ever kept,
 * twice per game's end: in a room whose players play again and again
 * that grew without bound (9% of a 10-room bench's CPU after 5 s). */
#define STORE_V_GAME_NO                                                        \
	"CREATE INDEX games_room_game ON games (room, game_no, ended_ms);"

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
    /* ratings: each person's Glicko-2 rating per pool (a game and the
     * options that change its play), with wins, draws and losses there;
     * written in the same transaction as the rated game's end. records:
     * each person's record in each one-player game (levels solved, the
     * highest and its fewest tries; or games solved and fewest pieces
     * left), written with the game's end. */
    {.sqlite = STORE_RATINGS("INTEGER", "REAL", " WITHOUT ROWID"),
        .pg = STORE_RATINGS("BIGINT", "DOUBLE PRECISION", "")},
    /* tourney: tournaments (tourney.c): one row each, its players in
     * the order they joined (seq: the seeding), and every game of every
     * round made so far: white and black (NULL: a bye), its room, its
     * result ("" while it is played; "1-0", "0-1", "1/2", "0-0" when
     * neither showed, "bye") and why, and when a player not seated by
     * then loses it (deadline_ms, ms since the epoch). */
    {.sqlite = STORE_V_TOURNEY("INTEGER"), .pg = STORE_V_TOURNEY("BIGINT")},
    /* 7: a room's owner_epoch, the fence of a cluster's nodes: the
     * epoch of the last lease taken on it (0: never in a cluster). A
     * commit of a node holding a lower epoch is refused (pg.c). */
    {.sqlite = STORE_V5("INTEGER"), .pg = STORE_V5("BIGINT")},
    /* seeks: the open seeks survive a restart (seekstore.c); each
     * waits for its player for the grace from the start. */
    {.sqlite = STORE_V_SEEKS("INTEGER"), .pg = STORE_V_SEEKS("BIGINT")},
    /* once: ratings changed once per game however often a group is
     * tried, seek ids never given out twice, the club's epoch
     * (STORE_V_ONCE). */
    {.sqlite = STORE_V_ONCE("INTEGER"), .pg = STORE_V_ONCE("BIGINT")},
    /* moderate: players' blocks, operators' bans and mutes, and the log
     * of operators' acts survive a restart (STORE_V_MODERATE). */
    {.sqlite = STORE_V_MODERATE("INTEGER"), .pg = STORE_V_MODERATE("BIGINT")},
    /* reads: every read a guest can make walks one index in its order
     * (STORE_V_READS_SQLITE, STORE_V_READS_PG). */
    {.sqlite = STORE_V_READS_SQLITE, .pg = STORE_V_READS_PG},
    /* unrated: whether the game being played is rated, decided at its
     * start and stored with the room (STORE_V_UNRATED). */
    {.sqlite = STORE_V_UNRATED, .pg = NULL},
    /* tourney_addr: the address a tournament was made from
     * (STORE_V_TOURNEY_ADDR); status may now be "expired". */
    {.sqlite = STORE_V_TOURNEY_ADDR, .pg = NULL},
    /* 14 accounts: passwords and the tokens password logins gave out
     * (STORE_V_ACCOUNTS). */
    {.sqlite = STORE_V_ACCOUNTS("INTEGER", " WITHOUT ROWID"),
        .pg = STORE_V_ACCOUNTS("BIGINT", "")},
    /* 15 messages (issue 31):
     * messages kept for players who are away (STORE_V_MESSAGES). */
    {.sqlite = STORE_V_MESSAGES("INTEGER"), .pg = STORE_V_MESSAGES("BIGINT")},
    /* 16 games_room_game: a game's earlier rows found in one seek at its
     * end (STORE_V_GAME_NO). */
    {.sqlite = STORE_V_GAME_NO, .pg = NULL},
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
#define STORE_IDENT_COLS                                                       \
	"name, token_hash, created_ms, folded, played, seen_ms, password_hash"
#define STORE_TOKEN_COLS "name, hash, made_ms"
#define STORE_ROOM_COLS                                                        \
	"id, number, game, options, seats, status, result, creator, private,"  \
	" clock_initial_ms, clock_increment_ms, game_no, created_ms,"          \
	" updated_ms, seq, unrated"
#define STORE_MOVE_COLS                                                        \
	"room, game_no, ply, seat, move, clock0, clock1, at_ms, seq"
#define STORE_GAME_COLS                                                        \
	"id, room, game_no, game, options, seats, name0, name1, result,"       \
	" private, clock_initial_ms, clock_increment_ms, started_ms,"          \
	" ended_ms, nmoves, moves, start, position"
#define STORE_PROGRESS_COLS "name, game, json, updated_ms"
#define STORE_RATING_COLS                                                      \
	"name, pool, rating, rd, vol, wins, draws, losses, updated_ms"
#define STORE_RECORD_COLS "name, game, solved, best, tries, updated_ms"
#define STORE_TOURNEY_COLS                                                     \
	"id, game, options, format, rounds, grace_sec, clock_initial_ms,"      \
	" clock_increment_ms, organiser, status, round, created_ms,"           \
	" organiser_addr"
#define STORE_TPLAYER_COLS "tourney, name, seq, joined_ms"
#define STORE_TGAME_COLS                                                       \
	"tourney, round, board, white, black, room, result, reason,"           \
	" deadline_ms"
#define STORE_RGAME_COLS "game, name, at_ms"
#define STORE_COUNTER_COLS "name, value"
#define STORE_BLOCK_COLS "name, blocked, shown, made_ms"
#define STORE_MESSAGE_COLS "recipient, sent_ms, sender, text"
#define STORE_SANCTION_COLS "kind, target, until_ms, admin, made_ms"
#define STORE_ADMIN_LOG_COLS "at_ms, admin, act, target, detail"
#define STORE_SEEK_COLS                                                        \
	"id, name, game, options, clock_initial_ms, clock_increment_ms,"       \
	" rated, range_lo, range_hi, rating, made_ms"

const struct store_table store_tables[] = {
    {"identities", 7,
        "SELECT " STORE_IDENT_COLS " FROM identities ORDER BY name", NULL,
        "INSERT INTO identities (" STORE_IDENT_COLS ")"
        " VALUES ($1, $2, $3, $4, $5, $6, $7)",
        NULL},
    {"tokens", 3,
        "SELECT " STORE_TOKEN_COLS " FROM tokens ORDER BY name, made_ms, hash",
        NULL, "INSERT INTO tokens (" STORE_TOKEN_COLS ") VALUES ($1, $2, $3)",
        NULL},
    {"rooms", 16, "SELECT " STORE_ROOM_COLS " FROM rooms ORDER BY id", NULL,
        "INSERT INTO rooms (" STORE_ROOM_COLS ") VALUES ($1, $2, $3, $4,"
        " $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)",
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
    {"ratings", 9,
        "SELECT " STORE_RATING_COLS " FROM ratings ORDER BY name, pool", NULL,
        "INSERT INTO ratings (" STORE_RATING_COLS ")"
        " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        NULL},
    {"records", 6,
        "SELECT " STORE_RECORD_COLS " FROM records ORDER BY name, game", NULL,
        "INSERT INTO records (" STORE_RECORD_COLS ")"
        " VALUES ($1, $2, $3, $4, $5, $6)",
        NULL},
    {"tourneys", 13,
        "SELECT " STORE_TOURNEY_COLS " FROM tourneys ORDER BY created_ms, id",
        NULL,
        "INSERT INTO tourneys (" STORE_TOURNEY_COLS ") VALUES ($1, $2, $3,"
        " $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
        NULL},
    {"tourney_players", 4,
        "SELECT " STORE_TPLAYER_COLS " FROM tourney_players"
        " ORDER BY tourney, seq",
        NULL,
        "INSERT INTO tourney_players (" STORE_TPLAYER_COLS ")"
        " VALUES ($1, $2, $3, $4)",
        NULL},
    {"tourney_games", 9,
        "SELECT " STORE_TGAME_COLS " FROM tourney_games"
        " ORDER BY tourney, round, board",
        NULL,
        "INSERT INTO tourney_games (" STORE_TGAME_COLS ") VALUES ($1, $2,"
        " $3, $4, $5, $6, $7, $8, $9)",
        NULL},
    {"seeks", 11, "SELECT " STORE_SEEK_COLS " FROM seeks ORDER BY made_ms, id",
        NULL,
        "INSERT INTO seeks (" STORE_SEEK_COLS ") VALUES ($1, $2, $3, $4,"
        " $5, $6, $7, $8, $9, $10, $11)",
        NULL},
    {"rating_games", 3,
        "SELECT " STORE_RGAME_COLS " FROM rating_games ORDER BY game, name",
        NULL,
        "INSERT INTO rating_games (" STORE_RGAME_COLS ") VALUES ($1, $2,"
        " $3)",
        NULL},
    {"counters", 2, "SELECT " STORE_COUNTER_COLS " FROM counters ORDER BY name",
        NULL, "INSERT INTO counters (" STORE_COUNTER_COLS ") VALUES ($1, $2)",
        NULL},
    {"blocks", 4,
        "SELECT " STORE_BLOCK_COLS " FROM blocks ORDER BY name, blocked", NULL,
        "INSERT INTO blocks (" STORE_BLOCK_COLS ") VALUES ($1, $2, $3, $4)",
        NULL},
    {"messages", 4,
        "SELECT " STORE_MESSAGE_COLS " FROM messages"
        " ORDER BY recipient, sent_ms, sender",
        NULL,
        "INSERT INTO messages (" STORE_MESSAGE_COLS ") VALUES ($1, $2, $3, $4)",
        NULL},
    {"sanctions", 5,
        "SELECT " STORE_SANCTION_COLS " FROM sanctions ORDER BY kind, target",
        NULL,
        "INSERT INTO sanctions (" STORE_SANCTION_COLS ")"
        " VALUES ($1, $2, $3, $4, $5)",
        NULL},
    {"admin_log", 5,
        "SELECT " STORE_ADMIN_LOG_COLS " FROM admin_log"
        " ORDER BY at_ms, admin, act, target",
        NULL,
        "INSERT INTO admin_log (" STORE_ADMIN_LOG_COLS ")"
        " VALUES ($1, $2, $3, $4, $5)",
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
