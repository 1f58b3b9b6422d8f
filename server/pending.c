/*
 * pending.c: rooms' changes the store thread has not committed yet. Each
 * change to a room keeps the room as it was before it (a room_snap taken
 * by the change), dropped once the store commits the change; when a change
 * fails, every room it or a later change touched is put back as it was
 * before the oldest of them, and a room made by one of them goes.
 */
#include <stdlib.h>
#include <string.h>

#include "server/server.h"

/* One uncommitted change of a room. */
struct room_pending {
	uint64_t change;
	struct room_snap snap;  /* the room before the change */
	int created;            /* the change made the room */
	struct room_move *hist; /* the snapshot's history, once the room's
	                         * own is about to be overwritten */
};

/* List r among the rooms with pending changes. */
static void
pending_list(struct room *r)
{
	struct server *srv = r->srv;

	if (r->pend_slot >= 0)
		return;
	r->pend_slot = slots_add(&srv->pend_rooms, r);
}

/* Take r off the list (the last one takes its slot). */
static void
pending_unlist(struct room *r)
{
	struct room *moved;

	if (r->pend_slot < 0)
		return;
	moved = slots_del(&r->srv->pend_rooms, r->pend_slot);
	if (moved != NULL)
		moved->pend_slot = r->pend_slot;
	r->pend_slot = -1;
}

static void
pending_free_one(struct room_pending *p)
{
	room_snap_drop(&p->snap);
	free(p->hist);
	p->hist = NULL;
}

/* r's change `change` will be committed later: keep snap (r before it;
 * taken over) until then. */
void
pending_keep(
    struct room *r, struct room_snap *snap, uint64_t change, int created)
{
	struct room_pending *p;

	r->pend = xgrow(r->pend, r->npend, &r->pendcap, 4, sizeof *r->pend);
	p = &r->pend[r->npend++];
	p->change = change;
	p->snap = *snap;
	p->created = created;
	p->hist = NULL;
	memset(snap, 0, sizeof *snap);
	pending_list(r);
}

/* r->hist[r->nhist] is about to be written: every snapshot that still
 * counts that entry as its own keeps a copy of its history first (undo,
 * restart and a new game rewrite the history below a snapshot's nhist). */
void
pending_hist_guard(struct room *r)
{
	int i;

	for (i = 0; i < r->npend; i++) {
		struct room_pending *p = &r->pend[i];
		size_t n = (size_t)p->snap.nhist;

		if (p->hist != NULL || r->nhist >= p->snap.nhist)
			continue;
		p->hist = xmalloc(n * sizeof *p->hist);
		memcpy(p->hist, r->hist, n * sizeof *p->hist);
	}
}

/* Drop r's snapshots of changes up to committed. */
static void
pending_drop_upto(struct room *r, uint64_t committed)
{
	int n = 0, i;

	while (n < r->npend && r->pend[n].change <= committed)
		pending_free_one(&r->pend[n++]);
	if (n == 0)
		return;
	room_snap_committed(r, committed);
	for (i = n; i < r->npend; i++)
		r->pend[i - n] = r->pend[i];
	r->npend -= n;
	if (r->npend == 0)
		pending_unlist(r);
}

/* The store committed every change up to committed. */
void
pending_commit(struct server *srv, uint64_t committed)
{
	int i = 0;

	while (i < srv->pend_rooms.n) {
		struct room *r = srv->pend_rooms.v[i];

		pending_drop_upto(r, committed);
		if (r->pend_slot == i)
			i++;
	}
}

/* Put r back as it was before its oldest pending change (the store
 * dropped that change and every later one): a room that change made
 * leaves memory. */
static void
pending_put_back(struct room *r)
{
	struct room_pending *p = &r->pend[0];
	int i;

	for (i = 1; i < r->npend; i++)
		pending_free_one(&r->pend[i]);
	r->npend = 0;
	pending_unlist(r);
	if (p->created) {
		pending_free_one(p);
		log_info("room %s: its creation was not stored; gone", r->id);
		if (r->in_server)
			room_forget(r);
		else
			room_free(r);
		return;
	}
	if (p->hist != NULL)
		memcpy(
		    r->hist, p->hist, (size_t)p->snap.nhist * sizeof *r->hist);
	free(p->hist);
	p->hist = NULL;
	room_snap_restore(r, &p->snap);
	room_schedule_bot(r); /* a bot whose move went asks again */
}

/* A change failed (all committed ones were dropped already): every room
 * with a pending change is put back. */
void
pending_fail(struct server *srv)
{
	while (srv->pend_rooms.n > 0)
		pending_put_back(srv->pend_rooms.v[srv->pend_rooms.n - 1]);
}

/* r leaves memory: its pending snapshots go (a commit that fails later
 * has no room to put back). */
void
pending_clear(struct room *r)
{
	int i;

	for (i = 0; i < r->npend; i++)
		pending_free_one(&r->pend[i]);
	r->npend = 0;
	free(r->pend);
	r->pend = NULL;
	r->pendcap = 0;
	pending_unlist(r);
}
