/*
 * block.c: whom each player blocks. A blocked name's tells, invites,
 * seeks (their pairings), joins of the player's rooms and room chat do
 * not reach the player who blocks it (cmd_social.c, cmd_room.c,
 * cmd_lobby.c, club/cmd_seek.c ask here). Each block is a row of the
 * store's table blocks (schema.c), written as a row op in the change
 * that makes it, so that an acknowledged block is stored; a player's
 * list is read back at hello and kept with the player while in memory.
 * A player not in memory here (on another node of a cluster, or only
 * held by a room since a restart) is asked of the store, which holds
 * every acknowledged block. Names compare whatever their case, as
 * identities do: the rows keep them folded to lower case.
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "server/core/core.h"
#include "server/store/storeq.h"
#include "server/store/store.h"

/* A player's blocks: the blocked names as registered, in the order
 * they were blocked. */
struct block_list {
	char (*names)[SERVER_NAME_MAX + 1];
	int n, cap;
};

/* A new block, or the same one again (a group tried twice): one row. */
#define BLOCK_PUT                                                              \
	"INSERT INTO blocks (name, blocked, shown, made_ms)"                   \
	" VALUES ($1, $2, $3, $4) ON CONFLICT (name, blocked) DO NOTHING"
#define BLOCK_DELETE "DELETE FROM blocks WHERE name = $1 AND blocked = $2"
/* A player's list, oldest first; never more than SERVER_BLOCKS_MAX (a
 * longer list, written by hand, is cut there). */
#define BLOCK_READ                                                             \
	"SELECT shown FROM blocks WHERE name = $1"                             \
	" ORDER BY made_ms, blocked"
#define BLOCK_ONE "SELECT 1 FROM blocks WHERE name = $1 AND blocked = $2"

/* name in lower case into out (names are ASCII, at most
 * SERVER_NAME_MAX: a longer one is cut, and matches no identity). */
static void
block_fold(const char *name, char out[SERVER_NAME_MAX + 1])
{
	size_t i;

	for (i = 0; name[i] != '\0' && i < SERVER_NAME_MAX; i++)
		out[i] = (char)tolower((unsigned char)name[i]);
	out[i] = '\0';
}

/* Add a name to a list (within its bound). */
static void
block_list_add(struct block_list *l, const char *shown)
{
	l->names = xgrow(l->names, l->n, &l->cap, 4, sizeof *l->names);
	snprintf(l->names[l->n], sizeof l->names[l->n], "%s", shown);
	l->n++;
}

/* One row of BLOCK_READ into the list. */
static int
block_load_row(void *arg, const char *const *v)
{
	struct block_list *l = arg;

	if (v[0] != NULL && l->n < SERVER_BLOCKS_MAX && player_name_valid(v[0]))
		block_list_add(l, v[0]);
	return 0;
}

/* Read p's blocks from the store (at hello: they may have changed on
 * another node since p was last here): 0, or -1 (logged) with p's list
 * as it was. */
int
block_load(struct server *srv, struct player *p)
{
	char folded[SERVER_NAME_MAX + 1];
	const char *v[1] = {folded};
	struct block_list *l = xcalloc(1, sizeof *l);

	block_fold(p->name, folded);
	if (store_rows(srv->reader, BLOCK_READ, 1, v, 1, block_load_row, l) !=
	    0) {
		log_error("store: reading %s's blocks: %s", p->name,
		    store_errmsg(srv->reader));
		free(l->names);
		free(l);
		return -1;
	}
	block_free(p);
	p->blocks = l;
	return 0;
}

/* Let go of p's list. */
void
block_free(struct player *p)
{
	if (p->blocks == NULL)
		return;
	free(p->blocks->names);
	free(p->blocks);
	p->blocks = NULL;
}

/* The index of name in p's list whatever its case, or -1. */
static int
block_find(const struct player *p, const char *name)
{
	int i;

	if (p->blocks == NULL)
		return -1;
	for (i = 0; i < p->blocks->n; i++)
		if (strcasecmp(p->blocks->names[i], name) == 0)
			return i;
	return -1;
}

/* 1 when p (its list read) blocks name. */
int
block_has(const struct player *p, const char *name)
{
	return block_find(p, name) >= 0;
}

/* One row of BLOCK_ONE: it is there. */
static int
block_one_row(void *arg, const char *const *v)
{
	(void)v;
	*(int *)arg = 1;
	return 0;
}

/* 1 when the player called `to` blocks `from`: from the list in memory
 * when `to` is here with it, else from the store (a failed read is
 * logged and counts as no block: a message may then reach them, which
 * a block may stop again). */
int
block_refuses(struct server *srv, const char *to, const char *from)
{
	const struct player *p = player_find(srv, to);
	char a[SERVER_NAME_MAX + 1], b[SERVER_NAME_MAX + 1];
	const char *v[2] = {a, b};
	int found = 0;

	if (p != NULL && p->blocks != NULL)
		return block_has(p, from);
	block_fold(to, a);
	block_fold(from, b);
	if (store_rows(
	        srv->reader, BLOCK_ONE, 2, v, 1, block_one_row, &found) != 0) {
		log_error("store: reading %s's blocks: %s", to,
		    store_errmsg(srv->reader));
		return 0;
	}
	return found;
}

/* p blocks the name shown (spelled as registered): in memory and as a
 * row op of this change. 0, 1 when p blocks it already, -1 when p's
 * list is full (SERVER_BLOCKS_MAX). */
int
block_add(struct server *srv, struct player *p, const char *shown)
{
	char a[SERVER_NAME_MAX + 1], b[SERVER_NAME_MAX + 1], ms[24];
	const char *v[4] = {a, b, shown, ms};

	if (p->blocks == NULL)
		p->blocks = xcalloc(1, sizeof *p->blocks);
	if (block_has(p, shown))
		return 1;
	if (p->blocks->n >= SERVER_BLOCKS_MAX)
		return -1;
	block_list_add(p->blocks, shown);
	block_fold(p->name, a);
	block_fold(shown, b);
	snprintf(ms, sizeof ms, "%lld", (long long)clock_now_ms());
	storeq_row(srv->storeq, "blocks", BLOCK_PUT, 4, v);
	return 0;
}

/* p no longer blocks name: in memory and as a row op, the name as the
 * list spelled it into shown[SERVER_NAME_MAX + 1]. 0, or -1 when p did
 * not block it. */
int
block_del(struct server *srv, struct player *p, const char *name, char *shown)
{
	char a[SERVER_NAME_MAX + 1], b[SERVER_NAME_MAX + 1];
	const char *v[2] = {a, b};
	int i = block_find(p, name);

	if (i < 0)
		return -1;
	memcpy(shown, p->blocks->names[i], sizeof p->blocks->names[i]);
	memmove(p->blocks->names + i, p->blocks->names + i + 1,
	    (size_t)(p->blocks->n - i - 1) * sizeof *p->blocks->names);
	p->blocks->n--;
	block_fold(p->name, a);
	block_fold(name, b);
	storeq_row(srv->storeq, "blocks", BLOCK_DELETE, 2, v);
	return 0;
}

/* p's blocked names as a JSON array, as registered, oldest first. */
cJSON *
block_json(const struct player *p)
{
	cJSON *a = cJSON_CreateArray();
	int i;

	if (a == NULL)
		fatal("out of memory");
	for (i = 0; p->blocks != NULL && i < p->blocks->n; i++)
		cJSON_AddItemToArray(
		    a, cJSON_CreateString(p->blocks->names[i]));
	return a;
}
