/*
 * rules.h: the one interface every game implements, the registry that finds
 * a game by its wire name, and the small helpers the games share.
 *
 * A game is a table of function pointers (struct rules_game). Its state is a
 * plain struct of game->state_size bytes with no pointers, so callers copy it
 * with memcpy (copy-make for search, a saved copy for restart). Everything
 * random in a game comes from its `seed` option, so that replaying the same
 * options and moves always rebuilds the same position.
 *
 * rules/ includes libc only: no I/O, no JSON, no allocation in move
 * generation.
 */
#ifndef TABLERO_RULES_H
#define TABLERO_RULES_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* "No square" in a move or a result. */
#define RULES_NONE (-1)

/* The most moves any position of any game has (Amazons stays under 5,000). */
#define RULES_MAX_MOVES 8192

/* The largest state of any game, in bytes (Shape Shifter holds its piece
 * table). A caller that wants one buffer for every game uses this. */
#define RULES_STATE_MAX 16384

/* Room for an error or illegal-move reason, with its NUL. */
#define RULES_ERR_MAX 160

/* Room for a one-line position string or a move sentence, with its NUL. */
#define RULES_LINE_MAX 1024

/* Room for an ASCII picture or an exported file, with its NUL. */
#define RULES_TEXT_MAX 8192

/*
 * A move. Each game says what its fields hold (see docs/RULES.md); squares
 * are the game's own square numbers. A pass has to == RULES_NONE.
 */
struct rules_move {
	int16_t from; /* source square, or RULES_NONE (placement, clone) */
	int16_t to;   /* destination square, or RULES_NONE for a pass */
	int16_t arg;  /* a third part (the Amazons arrow), or RULES_NONE */
};

/* One option given to a game, as text: {"size", "7"}. */
struct rules_opt {
	const char *key;
	const char *value;
};

enum rules_opt_type {
	RULES_OPT_INT,    /* decimal integer within [min, max] */
	RULES_OPT_CHOICE, /* one of the words in choices, '|' separated */
	RULES_OPT_TEXT,   /* free text (a file's content), up to max bytes */
};

/* What a game accepts: listed by the `games` verb and checked by
 * rules_opts_check(). An array of these ends with a NULL name. */
struct rules_optdesc {
	const char *name;
	enum rules_opt_type type;
	long min, max;       /* INT: the range; TEXT: max is the byte limit */
	const char *choices; /* CHOICE: "1|2|random" */
	const char *def;     /* default, as text; NULL when there is none */
	const char *help;    /* one short sentence */
};

/*
 * Option names with a meaning beyond the game: the server acts on them, so
 * a game that has such a thing uses the name (in its optdesc table):
 * - RULES_OPT_SEED (INT): everything random in the game comes from it. The
 *   server draws one when the player gives none and stores it with the
 *   room, so replaying the options and moves rebuilds the same game; a
 *   rematch or the next level draws a new one.
 * - RULES_OPT_LEVEL (INT, one-player games): the level. A new game of it
 *   resumes at the player's saved level (one more once it was solved), and
 *   `next` plays the level after this one.
 * - RULES_OPT_FILE (TEXT): a file in the game's file_format. A game that
 *   does not declare it still takes it when it has import_file: the server
 *   loads it after init.
 * - RULES_OPT_POSITION (TEXT): a position string (to_position's form). A
 *   game that does not declare it still takes it: the server loads it with
 *   from_position after init.
 */
#define RULES_OPT_SEED "seed"
#define RULES_OPT_LEVEL "level"
#define RULES_OPT_FILE "file"
#define RULES_OPT_POSITION "position"

/* Most options rules_start takes: a room's (the protocol's 16, and the
 * seed the server may add) with room to spare. */
#define RULES_START_OPTS_MAX 32

enum rules_result {
	RULES_PLAYING,
	RULES_WIN,     /* two players: `winner` won */
	RULES_DRAW,    /* two players: nobody won */
	RULES_SOLVED,  /* one player: the puzzle or level is won */
	RULES_BLOCKED, /* one player: no move is left, the puzzle is lost */
};

struct rules_status {
	enum rules_result result;
	int winner;   /* seat that won (RULES_WIN), else RULES_NONE */
	int nscores;  /* how many of score[] mean something: 0 to 2 */
	int score[2]; /* per seat: pieces (Ataxx), pegs left (solitaire)... */
	const char *reason; /* static text: "board full", "" while playing */
	int level; /* the level being played (games with levels), else 0 */
};

struct rules_game {
	const char *name;          /* wire name: "ataxx" */
	const char *title;         /* for people: "Ataxx" */
	int seats;                 /* 1 or 2 */
	const char *seat_names[2]; /* "white", "black"; seat 0 first */
	/* 1 when the game has no draws (the Amazons seed: there is always
	 * a loser), so the server refuses draw offers in it; 0 when players
	 * may agree a draw (two-player games) or it means nothing (one). */
	int no_draw_offers;
	/* Options whose values are rated apart, ","-separated ("size": a
	 * rating on 5x5 says little of one on 9x9); NULL: one pool. */
	const char *rating_pools;
	const struct rules_optdesc *options; /* ends with a NULL name */
	const char *notation;    /* one line of help on move notation */
	const char *file_format; /* import/export format name, or NULL */
	size_t state_size;       /* bytes of state, at most RULES_STATE_MAX */

	/* Set up a new game from options already checked by
	 * rules_opts_check(); 0, or -1 with a reason in err. */
	int (*init)(void *st, const struct rules_opt *opts, int nopts,
	    char *err, size_t errlen);
	/* The seat to move (0 for one-player games). */
	int (*turn)(const void *st);
	void (*status)(const void *st, struct rules_status *out);
	/* Every legal move (a pass when that is the only one); the count. */
	int (*legal_moves)(const void *st, struct rules_move *out, int max);
	/* The legal moves that start from (or place on) one square. */
	int (*legal_from)(
	    const void *st, int square, struct rules_move *out, int max);
	/* A square's name ("b6", "A2", "3,4") to its number; 0 or -1. */
	int (*parse_square)(const void *st, const char *text, int *square,
	    char *err, size_t errlen);
	/* Text in the game's notation to a legal move; 0, or -1 with the
	 * precise reason it is malformed or illegal. */
	int (*parse_move)(const void *st, const char *text,
	    struct rules_move *out, char *err, size_t errlen);
	/* A move in notation ("a7c5"), from the state before it. */
	void (*format_move)(
	    const void *st, struct rules_move m, char *buf, size_t len);
	/* A move as a sentence ("Black player moves from a7 to c5"), from the
	 * state before it. */
	void (*describe_move)(
	    const void *st, struct rules_move m, char *buf, size_t len);
	/* Play a legal move. */
	void (*apply)(void *st, struct rules_move m);
	/* The one-line position string; its length, or -1 when len is too
	 * small. */
	int (*to_position)(const void *st, char *buf, size_t len);
	/* Replace the position (st holds a game made by init); 0 or -1. */
	int (*from_position)(
	    void *st, const char *text, char *err, size_t errlen);
	/* Rewind st, in place, to the start of its level: the starting
	 * layout a level file's `start` section gave, which may be earlier
	 * than the board the game was created with (Shape Shifter). The
	 * rewound state round-trips through to_position and from_position
	 * (into a state init made with the same table), so that string can
	 * be stored to make the same level again. NULL when a game's start
	 * is always the state that init, a file and a position made. */
	void (*restart)(void *st);
	/* The seed's file format (NULL when the game has none); the import
	 * replaces the position in a game made by init. */
	int (*import_file)(
	    void *st, const char *text, size_t len, char *err, size_t errlen);
	int (*export_file)(const void *st, char *buf, size_t len);
	/* ASCII picture like the seed's, lines ending in '\n'; its length.
	 * A two-player game's last line says whose turn it is or how the
	 * game ended (the server rewrites it for an end off the board). */
	int (*render)(const void *st, char *buf, size_t len);
	/* The board as rows of one character a cell, top row first, each
	 * ending in '\n' (the legend is in docs/RULES.md); its length. */
	int (*board_rows)(const void *st, char *buf, size_t len);
	/* A hash of the position, equal for equal positions. */
	uint64_t (*hash)(const void *st);
	/* Leaf count at depth (a pass is a move, a finished game has no
	 * moves); NULL means rules_perft_generic() serves. */
	uint64_t (*perft)(const void *st, int depth);
};

/* registry.c */
extern const struct rules_game *const rules_games[]; /* NULL-terminated */
const struct rules_game *rules_find(const char *name);

/* rules.c */
/* The game's option of that name, or NULL when it declares none. */
const struct rules_optdesc *rules_optdesc_find(
    const struct rules_game *g, const char *key);
int rules_opts_check(const struct rules_game *g, const struct rules_opt *opts,
    int nopts, char *err, size_t errlen);
int rules_has_option(const struct rules_game *g, const char *name);
int rules_start(const struct rules_game *g, void *st,
    const struct rules_opt *opts, int nopts, char *err, size_t errlen);
const char *rules_opt_get(const struct rules_game *g,
    const struct rules_opt *opts, int nopts, const char *key);
long rules_opt_long(const struct rules_game *g, const struct rules_opt *opts,
    int nopts, const char *key);
void rules_status(
    const struct rules_game *g, const void *st, struct rules_status *out);
uint64_t rules_perft(const struct rules_game *g, const void *st, int depth);
uint64_t rules_perft_generic(
    const struct rules_game *g, const void *st, int depth);
int rules_is_pass(struct rules_move m);
int rules_move_eq(struct rules_move a, struct rules_move b);
int rules_move_listed(
    const struct rules_move *list, int n, struct rules_move m);
uint64_t rules_mix64(uint64_t x);

/* A bounded text writer over a caller's buffer, for positions, pictures and
 * files: once out of room it writes no more, and rules_out_done() says -1.
 * The text is NUL-terminated after every write. Characters, strings and
 * numbers are written directly (a picture is hundreds of them: no printf
 * per character); rules_out_add() is for the odd formatted sentence. */
struct rules_out {
	char *buf;
	size_t len, used;
	int full;
};
void rules_out_init(struct rules_out *o, char *buf, size_t len);
void rules_out_add(struct rules_out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void rules_out_str(struct rules_out *o, const char *str);
void rules_out_mem(struct rules_out *o, const char *s, size_t n);
void rules_out_char(struct rules_out *o, char c);
void rules_out_int(struct rules_out *o, long long v, int width);
int rules_out_done(struct rules_out *o);

/* said.c: a sentence with its msgid (the format it was printed from) and
 * its arguments, for a client that translates. */
#define RULES_SAID_ARGS 8 /* the most conversions a kept format has */
enum rules_said_kind { RULES_SAID_INT, RULES_SAID_REAL, RULES_SAID_STR };
struct rules_said_arg {
	enum rules_said_kind kind;
	long long num; /* RULES_SAID_INT (also %x, %u and a '*') */
	double real;   /* RULES_SAID_REAL */
	size_t off;    /* RULES_SAID_STR (also %c): its place in pool */
};
struct rules_said {
	const char *fmt; /* the msgid, NULL when the arguments were not kept */
	int nargs;
	struct rules_said_arg args[RULES_SAID_ARGS];
	char text[RULES_LINE_MAX]; /* the sentence, formatted */
	char pool[RULES_LINE_MAX]; /* the string arguments, each NUL-ended */
	size_t used;
};
void rules_said_vset(struct rules_said *s, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
void rules_said_set(struct rules_said *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
const char *rules_said_str(const struct rules_said *s, int i);
void rules_said_vkeep(const char *fmt, va_list ap)
    __attribute__((format(printf, 1, 0)));
void rules_seterr(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void rules_say(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
const struct rules_said *rules_said_of(const char *text);
const struct rules_said *rules_said_inside(
    const char *text, const struct rules_said *outer);

/* A small deterministic random generator for the games' generators. */
struct rules_rng {
	uint64_t s;
};
void rules_rng_seed(struct rules_rng *r, uint64_t seed);
uint64_t rules_rng_next(struct rules_rng *r);
unsigned rules_rng_below(struct rules_rng *r, unsigned n);

/* data.c (generated from data/ by the Makefile) */
const char *rules_data(const char *name, size_t *len);

#endif
