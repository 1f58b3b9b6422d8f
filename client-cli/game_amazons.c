/*
 * game_amazons.c: how the client talks an Amazons player through a move,
 * as the seed's program did (in English): choose an amazon, then its
 * destination, then where the arrow goes, each step checked on its own
 * and re-asked on its own (a bad arrow re-asks only the arrow); -1
 * resigns at any step, and `back` or an empty line undoes the last
 * choice. The board is drawn again at each step with the squares the
 * move can go to marked; on a terminal too short for the seed's picture
 * (80x24) a compact board is drawn instead, so board and prompt fit.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client-cli/client.h"
#include "rules/games.h"

/* The steps of a move (client_room.step). */
enum { AMAZONS_PICK, AMAZONS_DEST, AMAZONS_ARROW };

/* The board's side and cells (square = rank * side + file, rank 0 the
 * first), as rules/amazons.c numbers them. */
#define AMAZONS_SIDE 10
#define AMAZONS_CELLS (AMAZONS_SIDE * AMAZONS_SIDE)

/* The seed's picture needs this many rows with the move's sentence and
 * the prompt; a shorter terminal gets the compact board (14 lines). */
#define AMAZONS_TALL_ROWS 30

/* Marks of the cells: a chosen amazon and where the move can go. */
enum { AMAZONS_MARK_NONE, AMAZONS_MARK_CHOSEN, AMAZONS_MARK_CAN };

/* The legal moves of the amazon chosen (r->part[0]); their count, 0
 * when none is chosen. */
static int
amazons_chosen_moves(const struct client_room *r, struct rules_move *moves)
{
	char err[RULES_ERR_MAX];
	int n;

	if (r->step == AMAZONS_PICK)
		return 0;
	n = games_square_moves(
	    r, r->part[0], moves, RULES_MAX_MOVES, err, sizeof err);
	return n < 0 ? 0 : n;
}

/* The cells ('W', 'B', '*', '.') of st, and for the move being entered
 * (marks) the amazon chosen and the squares it or its arrow can reach;
 * the amazon is shown on its destination once that is chosen. 0 or -1. */
static int
amazons_cells(const struct client_room *r, const void *st, int marks,
    char *cells, unsigned char *mark)
{
	static struct rules_move moves[RULES_MAX_MOVES];
	char rows[RULES_TEXT_MAX], err[RULES_ERR_MAX];
	int rank, file, i, n, from, to = -1;

	if (r->rg->board_rows(st, rows, sizeof rows) <
	    AMAZONS_CELLS + AMAZONS_SIDE)
		return -1;
	for (rank = 0; rank < AMAZONS_SIDE; rank++)
		for (file = 0; file < AMAZONS_SIDE; file++)
			cells[rank * AMAZONS_SIDE + file] =
			    rows[(AMAZONS_SIDE - 1 - rank) *
			            (AMAZONS_SIDE + 1) +
			        file];
	memset(mark, AMAZONS_MARK_NONE, AMAZONS_CELLS);
	if (!marks || (n = amazons_chosen_moves(r, moves)) == 0 ||
	    r->rg->parse_square(st, r->part[0], &from, err, sizeof err) != 0)
		return 0;
	if (r->step == AMAZONS_ARROW &&
	    r->rg->parse_square(st, r->part[1], &to, err, sizeof err) == 0) {
		cells[to] = cells[from];
		cells[from] = '.';
	}
	mark[to >= 0 ? to : from] = AMAZONS_MARK_CHOSEN;
	for (i = 0; i < n; i++) {
		if (to < 0)
			mark[moves[i].to] = AMAZONS_MARK_CAN;
		else if (moves[i].to == to && moves[i].arg >= 0)
			mark[moves[i].arg] = AMAZONS_MARK_CAN;
	}
	return 0;
}

/* The picture's characters for a cell: the seed's ('0', 'X', '*', ' ')
 * or the compact board's ('.' for empty); '+' where the move can go,
 * brackets around the chosen amazon. */
static void
amazons_cell_text(char cell, unsigned char mark, int compact, char out[3])
{
	char c = cell == 'W' ? '0'
	    : cell == 'B'    ? 'X'
	    : cell == '*'    ? '*'
	    : compact        ? '.'
	                     : ' ';

	out[0] = mark == AMAZONS_MARK_CHOSEN ? '[' : ' ';
	out[1] = mark == AMAZONS_MARK_CAN ? '+' : c;
	out[2] = mark == AMAZONS_MARK_CHOSEN ? ']' : ' ';
}

/* Append s to buf at *used (bounded). */
static void
amazons_add(char *buf, size_t len, size_t *used, const char *s, size_t n)
{
	if (*used + n + 1 > len)
		n = len - *used - 1;
	memcpy(buf + *used, s, n);
	*used += n;
	buf[*used] = '\0';
}

/* printf to buf at *used (bounded: a longer text is cut). */
static void amazons_addf(char *buf, size_t len, size_t *used, const char *fmt,
    ...) __attribute__((format(printf, 4, 5)));

static void
amazons_addf(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*used + 1 >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
	if (n > 0)
		*used += (size_t)n < len - *used ? (size_t)n : len - *used - 1;
}

/* The lines of rules' picture after its board (legend, whose turn). */
static const char *
amazons_tail(const char *picture)
{
	const char *legend = strstr(picture, "\n0 white");

	return legend != NULL ? legend + 1 : "";
}

/* The board, the seed's picture or the compact one, with the move being
 * entered marked (see client_game.draw). */
static int
amazons_draw(const struct client_room *r, const void *st, int marks, int rows,
    char *buf, size_t len)
{
	static const char files[] = "     a  b  c  d  e  f  g  h  i  j\n";
	static const char grid[] =
	    "  +---+---+---+---+---+---+---+---+---+---+\n";
	const char *top;
	char cells[AMAZONS_CELLS], pic[RULES_TEXT_MAX], one[3], num[16];
	unsigned char mark[AMAZONS_CELLS];
	static const char marks_legend[] =
	    "[ ] the amazon moving, + where it can go\n";
	int compact = rows > 0 && rows < AMAZONS_TALL_ROWS;
	int rank, file, any = 0;
	size_t used = 0;

	if (len == 0 || r->rg->render(st, pic, sizeof pic) < 0 ||
	    amazons_cells(r, st, marks, cells, mark) != 0)
		return -1;
	for (rank = 0; rank < AMAZONS_CELLS; rank++)
		any |= mark[rank] != AMAZONS_MARK_NONE;
	if (!compact && !any)
		return -1; /* rules' picture as it is */
	buf[0] = '\0';
	if (compact)
		amazons_add(buf, len, &used, files, strlen(files));
	else if ((top = strstr(pic, "\n10|")) != NULL)
		amazons_add(buf, len, &used, pic, (size_t)(top - pic) + 1);
	for (rank = AMAZONS_SIDE - 1; rank >= 0; rank--) {
		snprintf(num, sizeof num, compact ? "%3d " : "%2d|", rank + 1);
		amazons_add(buf, len, &used, num, strlen(num));
		for (file = 0; file < AMAZONS_SIDE; file++) {
			int sq = rank * AMAZONS_SIDE + file;
			amazons_cell_text(cells[sq], mark[sq], compact, one);
			amazons_add(buf, len, &used, one, sizeof one);
			if (!compact)
				amazons_add(buf, len, &used, "|", 1);
		}
		if (compact)
			snprintf(num, sizeof num, " %d\n", rank + 1);
		else
			snprintf(num, sizeof num, "\n");
		amazons_add(buf, len, &used, num, strlen(num));
		if (!compact)
			amazons_add(buf, len, &used, grid, strlen(grid));
	}
	if (compact)
		amazons_add(buf, len, &used, files, strlen(files));
	amazons_add(
	    buf, len, &used, amazons_tail(pic), strlen(amazons_tail(pic)));
	if (any)
		amazons_add(
		    buf, len, &used, marks_legend, strlen(marks_legend));
	return (int)used;
}

static void
amazons_prompt(const struct client_room *r, char *buf, size_t len)
{
	if (r->step == AMAZONS_DEST)
		snprintf(buf, len,
		    "Valid amazon, to which square do you want "
		    "to move your amazon? (-1 to resign) >> ");
	else if (r->step == AMAZONS_ARROW && r->part[2][0] != '\0')
		snprintf(buf, len,
		    "To which square do you want to shoot your "
		    "arrow? (-1 to resign) >> ");
	else if (r->step == AMAZONS_ARROW)
		snprintf(buf, len,
		    "Valid move, to which square do you want to "
		    "shoot your arrow? (-1 to resign) >> ");
	else
		snprintf(buf, len,
		    "Choose one of your amazons (-1 to resign) "
		    ">> ");
}

/* Step 1: one of our amazons that can move. */
static enum cg_action
amazons_pick(struct client_room *r, const char *sq, char *msg, size_t msglen)
{
	static struct rules_move moves[RULES_MAX_MOVES];
	char err[RULES_ERR_MAX];
	int n =
	    games_square_moves(r, sq, moves, RULES_MAX_MOVES, err, sizeof err);

	if (n < 0) {
		snprintf(msg, msglen, "Invalid amazon: %s.", err);
		return CG_AGAIN;
	}
	if (n == 0) {
		snprintf(msg, msglen,
		    "Invalid amazon: %s is not one of your amazons that can "
		    "move.",
		    sq);
		return CG_AGAIN;
	}
	snprintf(r->part[0], sizeof r->part[0], "%s", sq);
	r->step = AMAZONS_DEST;
	snprintf(msg, msglen,
	    "(+ marks where it can go; back or an empty line chooses "
	    "another amazon.)");
	return CG_AGAIN;
}

/* Step 2: a square the chosen amazon reaches. */
static enum cg_action
amazons_dest(struct client_room *r, const char *sq, char *msg, size_t msglen)
{
	static struct rules_move moves[RULES_MAX_MOVES];
	char err[RULES_ERR_MAX];
	int n = games_square_moves(
	    r, r->part[0], moves, RULES_MAX_MOVES, err, sizeof err);
	int to, i;

	if (r->rg->parse_square(r->st, sq, &to, err, sizeof err) != 0) {
		snprintf(msg, msglen, "Invalid move: %s.", err);
		return CG_AGAIN;
	}
	for (i = 0; i < n; i++)
		if (moves[i].to == to)
			break;
	if (i == n) {
		snprintf(msg, msglen,
		    "Invalid move: the amazon on %s cannot go to %s (it moves "
		    "like a queen and cannot pass arrows or amazons).",
		    r->part[0], sq);
		return CG_AGAIN;
	}
	snprintf(r->part[1], sizeof r->part[1], "%s", sq);
	r->part[2][0] = '\0';
	r->step = AMAZONS_ARROW;
	snprintf(msg, msglen,
	    "(+ marks the arrow's squares; back or an empty line moves "
	    "the amazon again.)");
	return CG_AGAIN;
}

/* Step 3: the arrow; the whole move is checked by rules/. */
static enum cg_action
amazons_arrow(struct client_room *r, const char *sq, char *move, size_t mlen,
    char *msg, size_t msglen)
{
	struct rules_move m;
	char err[RULES_ERR_MAX];

	snprintf(move, mlen, "%s-%s/%s", r->part[0], r->part[1], sq);
	if (r->rg->parse_move(r->st, move, &m, err, sizeof err) != 0) {
		snprintf(msg, msglen, "Invalid shot: %s.", err);
		snprintf(r->part[2], sizeof r->part[2], "again");
		return CG_AGAIN;
	}
	snprintf(msg, msglen, "Valid shot.");
	r->step = AMAZONS_PICK;
	return CG_SEND;
}

/* back, or an empty line: undo the last choice. */
static enum cg_action
amazons_back(struct client_room *r, char *msg, size_t msglen)
{
	if (r->step == AMAZONS_ARROW) {
		r->step = AMAZONS_DEST;
		snprintf(msg, msglen,
		    "The amazon on %s is yours to move again.", r->part[0]);
	} else if (r->step == AMAZONS_DEST) {
		r->step = AMAZONS_PICK;
		snprintf(msg, msglen, "Choose another amazon.");
	}
	return CG_AGAIN;
}

static enum cg_action
amazons_input(struct client_room *r, const char *line, char *move, size_t mlen,
    char *msg, size_t msglen)
{
	char sq[CLIENT_FIELD];

	games_trim(line, sq, sizeof sq);
	if (strcmp(sq, "-1") == 0)
		return CG_RESIGN;
	if (sq[0] == '\0' || strcmp(sq, "back") == 0)
		return amazons_back(r, msg, msglen);
	if (r->step == AMAZONS_DEST)
		return amazons_dest(r, sq, msg, msglen);
	if (r->step == AMAZONS_ARROW)
		return amazons_arrow(r, sq, move, mlen, msg, msglen);
	return amazons_pick(r, sq, msg, msglen);
}

/* "Game over! The winner is ana." as the seed ends. */
static void
amazons_ended(
    const struct client_room *r, const cJSON *ev, char *buf, size_t len)
{
	const cJSON *w = cJSON_GetObjectItemCaseSensitive(ev, "winner");
	const cJSON *reason = cJSON_GetObjectItemCaseSensitive(ev, "reason");
	int seat = cJSON_IsString(w) && strcmp(w->valuestring, "black") == 0;
	const char *why = cJSON_IsString(reason) ? reason->valuestring : "";
	char winner[CLIENT_LABEL], loser[CLIENT_LABEL];

	if (!cJSON_IsString(w)) {
		snprintf(buf, len, "Game over! Nobody wins (%s).", why);
		return;
	}
	if (strcmp(why, "no move") == 0)
		snprintf(buf, len,
		    "Sadly %s has no possible moves.\nGame over! The winner "
		    "is %s.",
		    room_seat_label(r, !seat, loser, sizeof loser),
		    room_seat_label(r, seat, winner, sizeof winner));
	else
		snprintf(buf, len, "Game over (%s)! The winner is %s.", why,
		    room_seat_label(r, seat, winner, sizeof winner));
}

/* "It is white's turn!" at the start, as the seed names who begins. */
static void
amazons_started(const struct client_room *r, char *buf, size_t len)
{
	char who[CLIENT_LABEL];

	snprintf(buf, len, "%s starts!",
	    room_seat_label(r, r->turn, who, sizeof who));
}

/* A moves reply in a few lines: each destination once, with how many
 * arrows it leaves, instead of every move (hundreds from one amazon). */
static void
amazons_moves(
    const struct client_room *r, const cJSON *rep, char *buf, size_t len)
{
	const cJSON *moves = cJSON_GetObjectItemCaseSensitive(rep, "moves");
	const cJSON *m;
	char from[CLIENT_FIELD] = "", dest[CLIENT_FIELD] = "";
	size_t used = 0;
	int arrows = 0, total = 0;

	buf[0] = '\0';
	cJSON_ArrayForEach(m, moves) {
		char f[CLIENT_FIELD], d[CLIENT_FIELD];
		if (!cJSON_IsString(m) ||
		    sscanf(m->valuestring, "%15[a-j0-9]-%15[a-j0-9]", f, d) !=
		        2)
			continue;
		if (strcmp(f, from) != 0 || strcmp(d, dest) != 0) {
			if (dest[0] != '\0')
				amazons_addf(buf, len, &used, " (%d)", arrows);
			if (strcmp(f, from) != 0)
				amazons_addf(buf, len, &used, "%s%s goes to",
				    from[0] != '\0' ? ".\n" : "", f);
			amazons_addf(buf, len, &used, " %s", d);
			snprintf(from, sizeof from, "%s", f);
			snprintf(dest, sizeof dest, "%s", d);
			arrows = 0;
		}
		arrows++;
		total++;
	}
	if (total == 0)
		return;
	amazons_addf(buf, len, &used,
	    " (%d).\n%d moves in all; (n) is how many squares the arrow can "
	    "take from there.\n",
	    arrows, total);
	(void)r;
}

const struct client_game game_amazons = {
    .rules = &rules_amazons,
    .draw = amazons_draw,
    .steps = 1,
    .moves = amazons_moves,
    .prompt = amazons_prompt,
    .input = amazons_input,
    .reason = games_reason_default,
    .ended = amazons_ended,
    .again = "Play again? (y/n):",
    .started = amazons_started,
};
