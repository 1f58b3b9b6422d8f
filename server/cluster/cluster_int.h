/*
 * cluster_int.h: what the files of cluster/ share: the node's state
 * (struct cluster), the records of connections that talk across nodes,
 * and each file's functions, grouped by file.
 *
 *   cluster.c         the node: start and stop, room leases, the orphan
 *                     scan, the store's fence, the room hooks, ops table
 *   cluster_redis.c   the Redis connections: address and credentials,
 *                     Sentinel, AUTH, the watchdog, up and settled
 *   cluster_node.c    incarnations and the other nodes' liveness
 *   cluster_stream.c  the node's stream: entries out (XADD) and in
 *   cluster_link.c    the same packs straight from node to node (TCP)
 *   cluster_route.c   a home connection's requests for other nodes' rooms
 *   cluster_standin.c another node's player here: stand-ins, their
 *                     numbered output, its acknowledgements and replays
 *   cluster_club.c    the club's lease and its events across nodes
 *   cluster_lobby.c   the cluster-wide lobby and presence
 *   cluster_limit.c   per-address limits over the nodes
 *   cluster_admin.c   the operators' acts across the nodes
 */
#ifndef TABLERO_SERVER_CLUSTER_INT_H
#define TABLERO_SERVER_CLUSTER_INT_H

#include <cjson/cJSON.h>
#include <hiredis/async.h>
#include <hiredis/hiredis.h>

#include "server/club/club.h"
#include "server/cluster/cluster.h"
#include "server/cluster/cluster_wire.h"
#include "server/cmd/cmd.h"

/* How often the node beats, renews its leases and looks for orphans:
 * a third of the lease, so two renewals can be lost before it lapses. */
#define CLUSTER_TICK_MS 2000
/* A lease's life: a dead node's rooms are taken within it plus one scan
 * (6 + 2 s, inside the 15 s the issue allows for failover). */
#define CLUSTER_LEASE_MS 6000
/* A room's lease once the room has left memory and the store (finished
 * and retired, closed, expired), and for how long: a request still
 * naming it (another node's player's current room) is answered "no
 * room" at once instead of waiting out a failover for an owner. Room ids
 * are never used again. */
#define CLUSTER_GONE "gone"
#define CLUSTER_GONE_MS (10 * 60 * 1000)
/* The heartbeat's life in the nodes' set: a node silent that long is
 * out of it. */
#define CLUSTER_NODE_TTL_MS 6000
/* Room for a Redis key or value made here: a room id, a node id. */
#define CLUSTER_KEY 160
/* The most nodes a node keeps the heartbeats and incarnations of. */
#define CLUSTER_LIVE_MAX 64
/* A node whose last heartbeat is older than this is taken for dead by
 * the others' routing: its beat (every tick) and our read of it (every
 * tick) are both late, with a second to spare. */
#define CLUSTER_ALIVE_MS 5000
/* Room for an incarnation or a connection id as text (a 64-bit number). */
#define CLUSTER_NUM 24
/* Room for a stand-in's index key: "home|inc|conn". */
#define CLUSTER_STANDIN_KEY (CLUSTER_NODE_MAX + 2 * CLUSTER_NUM + 3)
/* A Redis command unanswered this long means Redis is unreachable: a
 * stopped Redis (SIGSTOP, a frozen machine) keeps its sockets open and
 * hiredis 0.14 has no timeout of its own. A loaded Redis answers in
 * milliseconds; three seconds is far past that. */
#define CLUSTER_REDIS_TIMEOUT_MS 3000
/* After Redis comes back (not at the first connection), this long before
 * the node takes rooms nobody holds or judges another node gone: every
 * live node has reconnected (each tries every tick), set its leases again
 * and beaten by then. */
#define CLUSTER_SETTLE_MS (CLUSTER_LEASE_MS + CLUSTER_TICK_MS)
/* A lease-taking script run later than this after it was sent does
 * nothing: a command written to a stopped Redis runs when Redis goes on,
 * long after the node gave up on it, and must not take a room then. */
#define CLUSTER_TAKE_LATE_MS CLUSTER_REDIS_TIMEOUT_MS
/* How long one XREAD of the node's stream waits for entries before it is
 * sent again (a lost connection is noticed within it; the watchdog
 * allows for it). */
#define CLUSTER_STREAM_BLOCK_MS 2000
/* Redis away this long: the node's players are told to connect again
 * (HAProxy sends them to a node whose ping says ready). Well within the
 * default grace (60 s), so that a player whose node alone lost Redis is
 * back in its seats on another node before anyone may claim them; a
 * shorter outage of Redis for every node stays weather, with nobody
 * reconnecting. */
#define CLUSTER_DRAIN_MS 30000
/* The longest password or user name for Redis (AUTH). */
#define CLUSTER_CRED_MAX 256
/* The most sentinels --redis-sentinel lists. */
#define CLUSTER_SENTINELS_MAX 8
/* The longest master name --redis-master gives. */
#define CLUSTER_MASTER_MAX 64

struct evbuffer;
struct standin;
struct route_home;
struct route_req;

/* The most nodes whose messages are gathered at once (cluster_stream.c):
 * more, and every pack goes first. */
#define CLUSTER_STREAM_PACKS CLUSTER_LIVE_MAX
/* The messages for one node's stream made during this pass of the loop,
 * sent as one entry at its end (cluster_stream.c). */
struct stream_pack {
	char node[CLUSTER_NODE_MAX + 1];
	/* Room for the command's head, then the messages' fields as RESP
	 * bulk strings. */
	char *buf;
	size_t len, cap;
	int nfields, nmsgs;
};

/* Room for a link's address as text ("[v6 address]:port"). */
#define CLUSTER_LINK_ADDR 80
/* The states of a link this node sends on (cluster_link.c). */
enum link_state {
	LINK_NONE,       /* no connection: packs go through Redis */
	LINK_ASKED,      /* its address asked of Redis */
	LINK_CONNECTING, /* connecting */
	LINK_FENCE,      /* connected; packs held until the XADDs sent to
	                    the node's stream before are answered */
	LINK_UP          /* packs go on it */
};
/* A link this node sends its packs for one other node on: one TCP
 * connection to that node's incarnation (cluster_link.c). Slots are
 * never freed; one for a node whose link is down stays LINK_NONE. */
struct link_out {
	struct cluster *cl;
	char node[CLUSTER_NODE_MAX + 1];
	unsigned long long inc; /* the incarnation connected to */
	enum link_state state;
	evutil_socket_t fd;               /* -1: none */
	struct event *rev, *wev;          /* its end noticed; room to write */
	struct evbuffer *out;             /* bytes not yet written */
	struct evbuffer *held;            /* packs while LINK_FENCE */
	char secret[CLUSTER_LINK_SECRET]; /* the node's, from link:{node} */
	int64_t since_ms;                 /* when the state began */
	int xadds;                       /* XADDs to node's stream unanswered */
	char last_id[CLUSTER_STREAM_ID]; /* the last one's id */
};
/* A link another node sends on to this one. */
struct link_in;

/* Another node as last read from the nodes' set: its incarnation and
 * last heartbeat (wall ms, its own clock). */
struct cluster_live {
	char node[CLUSTER_NODE_MAX + 1];
	unsigned long long inc;
	long long ms;
};

/* A node this one has heard of: its newest incarnation, and whether
 * that one is over (gone past a lease, or replaced). */
struct cluster_known {
	char node[CLUSTER_NODE_MAX + 1];
	unsigned long long inc;
	int over;
};

TAILQ_HEAD(route_home_list, route_home);

struct cluster {
	struct server *srv;
	char node[CLUSTER_NODE_MAX + 1];
	/* This process's incarnation (cluster_node.c): a new one at each
	 * start; every message says which it came from and which it is for. */
	unsigned long long inc;
	char inc_text[CLUSTER_NUM];

	/* Redis (cluster_redis.c) */
	char host[CLUSTER_KEY]; /* the master's address (--redis, Sentinel) */
	int port;
	char user[CLUSTER_CRED_MAX]; /* AUTH: "" without (ACL user, password) */
	char pass[CLUSTER_CRED_MAX];
	char sentinel_host[CLUSTER_SENTINELS_MAX][CLUSTER_KEY];
	int sentinel_port[CLUSTER_SENTINELS_MAX];
	int nsentinels, sentinel_next;
	char master[CLUSTER_MASTER_MAX + 1];
	redisAsyncContext *sq; /* a sentinel being asked, or NULL */
	int64_t sq_ms;         /* when it was asked */
	int master_known;      /* host and port are the sentinels' answer */
	redisAsyncContext *ac; /* NULL: not connected (tried each tick) */
	redisAsyncContext *rd; /* the stream reader's (XREAD BLOCK) */
	int64_t beat_ms;       /* the unanswered heartbeat's time, 0: none */
	int64_t read_ms;       /* the unanswered stream read's time */
	int64_t up_ms;         /* Redis answered since this time; 0: away */
	int64_t down_ms;       /* away since this time (0: never up yet) */
	int ever_up;           /* joined once ("cluster: ready") */
	int lost_once;         /* Redis went away since it first answered */
	int drained;           /* its players told to go, since away */
	int store_ok;  /* the store's last read (the scan's) went through */
	int told_down; /* "Redis unreachable" logged since it was up */

	char last_id[CLUSTER_STREAM_ID]; /* the last entry read, "$": none */
	/* Messages gathered for other nodes' streams (cluster_stream.c),
	 * sent by pack_ev at the end of the pass. */
	struct stream_pack packs[CLUSTER_STREAM_PACKS];
	int npacks;
	struct event *pack_ev;
	struct standin *standins;        /* other nodes' players here */
	struct table standin_index;      /* the newest stand-in of each
	                                    home connection, by
	                                    "home|inc|conn" */
	struct table homes;              /* route_home of this node's
	                                    connections, by id */
	struct route_home_list inflight; /* homes with a request in flight */
	struct route_home_list unacked;  /* homes owing acknowledgements */
	struct event *tick;
	int scanning; /* lease tries of a scan still unanswered */
	/* The unfinished rooms of the store at the last scan (sorted), to
	 * tell a room whose owner is unknown from one that is no more. */
	char (*unfinished)[SERVER_ROOM_ID_MAX];
	int nunfinished;
	int64_t unfinished_ms; /* when it was read; 0: never */
	/* While a room is claimed: where its new epoch is (set before the
	 * room is loaded, so that its first ops carry it). */
	const long long *claiming;
	/* The other nodes' parts of the lobby (cluster_lobby.c). */
	cJSON *lobby;
	/* The live nodes and their last heartbeats, as last read. */
	struct cluster_live live[CLUSTER_LIVE_MAX];
	int nlive;
	/* Every node heard of, with its newest incarnation. */
	struct cluster_known known[CLUSTER_LIVE_MAX];
	int nknown;
	/* The club (cluster_club.c): the epoch of its lease while this node
	 * holds it (0: another node's, or none), when it was last renewed,
	 * and whether a try to take it is unanswered. */
	long long club_epoch;
	/* The club's epoch in the store (store_club_claim) while this node
	 * holds it: stamped on the club's rows, which the store refuses
	 * once another node has taken the club (0: not held). */
	long long club_fence;
	int64_t club_ms;
	int64_t club_taken_ms; /* when this node last took it */
	int club_trying;
	/* Links (cluster_link.c): where this node takes them, the secret
	 * a sender proves it read from Redis, the links it sends on and
	 * those it takes. */
	struct evconnlistener *link_lis;
	char link_addr[CLUSTER_LINK_ADDR]; /* as published; "": none */
	char link_secret[CLUSTER_LINK_SECRET];
	int link_off; /* --node-link off */
	struct link_out links[CLUSTER_LIVE_MAX];
	int nlinks;
	struct link_in *link_ins;
	int nlink_ins;
	/* What --metrics-port shows (cluster_stats): the counters. */
	struct cluster_stats stats;
};

/*
 * A connection's record on the cluster (c->route): on the home node, a
 * person's own connection (its requests for other nodes' rooms, the
 * channels their output comes back by); on an owner, a stand-in.
 */
/* The most owners one home connection keeps a channel with (more: the
 * oldest is closed). A player sits in at most a few nodes' rooms. */
#define CLUSTER_ROUTE_NODES 8
/* Output from one stand-in on one owner, as the home has it. */
struct route_chan {
	char node[CLUSTER_NODE_MAX + 1];
	unsigned long long inc;   /* the owner's incarnation */
	unsigned long long sid;   /* the stand-in's id there (0: not known) */
	unsigned long long next;  /* the output number expected next */
	unsigned long long acked; /* the last one acknowledged */
	int64_t asked_ms;         /* a replay last asked for */
};
struct route_home {
	struct table_link link; /* in cl->homes (not a stand-in's) */
	char key[CLUSTER_NUM];  /* the connection's id as text */
	struct conn *c;
	int proxy;  /* the connection is another node's player's stand-in */
	int local;  /* running a line here that came back to this node */
	int paused; /* reading stopped for the request in flight */
	/* The room another node owns that this connection's requests
	 * without a room act on (its last forwarded request's), "": none. */
	char current[SERVER_ROOM_ID_MAX];
	/* The owner last found for a room (a cache: a bounce clears it). */
	char cache_room[SERVER_ROOM_ID_MAX];
	char cache_node[CLUSTER_NODE_MAX + 1];
	struct route_chan chans[CLUSTER_ROUTE_NODES];
	int nchans;
	unsigned long long rseq; /* the last request number given */
	struct route_req *req;   /* the request in flight, or NULL */
	int in_inflight, in_unacked;
	TAILQ_ENTRY(route_home) inflight_entry;
	TAILQ_ENTRY(route_home) unacked_entry;
};

/* cluster.c */
/* Tell c with a reconnect event (room NULL: none) that what it used went
 * to another node, with nothing held shown (it showed changes that may
 * never be stored), and close it: the client connects again. */
void cluster_tell(struct conn *c, const char *room, const char *what);
#define CLUSTER_MOVED                                                          \
	"this room moved to another server: connect again and log in with "    \
	"hello NAME TOKEN"
/* Redis answers (first, or again after an absence): the tick's work is
 * done at once, what Redis lost is written again from memory (leases,
 * watchers, presence, the lobby), and what may have been lost on the way
 * is sent again. */
void cluster_back(struct cluster *cl);
/* Redis went away (stop 1): the clocks of this node's timed games with a
 * player on another node stop, since that player cannot move here now
 * through no doing of theirs; Redis is back (stop 0): they go again,
 * the time between charged to nobody. */
void cluster_clocks(struct cluster *cl, int stop);
/* 1 when room id was unfinished at the last look at the store, or when
 * the store was never looked at (so it may be). */
int cluster_room_unfinished(const struct cluster *cl, const char *id);
/* A reply that is an error, or no reply (the connection went). */
int cluster_bad(const redisReply *rep);
/* After each answered heartbeat: take the unfinished rooms nobody
 * holds (a dead node's), once Redis has answered long enough. */
void cluster_scan(struct cluster *cl);

/* cluster_redis.c */
/* --redis (HOST:PORT or a redis:// URL with credentials), the password
 * file and the sentinels into cl: 0, or -1 with the reason in err. */
int cluster_redis_config(
    struct cluster *cl, const struct config *cfg, char *err, size_t errlen);
/* Every tick: the watchdog, then connect what is not connected (asking
 * the sentinels for the master first when there are any). */
void cluster_redis_tick(struct cluster *cl);
/* Send the heartbeat; its answer says Redis is up. */
void cluster_redis_beat(struct cluster *cl, const char *key, const char *val);
/* 1 when Redis answers (the last heartbeat did, none is late). */
int cluster_redis_up(const struct cluster *cl);
/* 1 when Redis has answered for CLUSTER_SETTLE_MS. */
int cluster_redis_settled(const struct cluster *cl);
/* Close both connections (their callbacks get no reply); why is logged. */
void cluster_redis_drop(struct cluster *cl, const char *why);
/* At stop: every connection closed, no callback runs after. */
void cluster_redis_stop(struct cluster *cl);

/* cluster_node.c */
/* A new incarnation: the start time in ms and 16 random bits, so that a
 * later start of a node has the larger one (machines keep their clocks
 * with NTP) and two starts in one millisecond still differ. */
unsigned long long cluster_node_new_inc(void);
/* 1 when node is this one, or beat lately (or nothing is known yet, or
 * this node cannot judge: Redis has not answered long enough). */
int cluster_node_alive(const struct cluster *cl, const char *node);
/* The newest incarnation of node heard of (0: none). */
unsigned long long cluster_node_inc(const struct cluster *cl, const char *node);
/* A message from node's incarnation inc: 0 to act on it, -1 when a newer
 * incarnation of node is known (nothing of an old one acts). A newer one
 * than known ends the old (its stand-ins here close). */
int cluster_node_heard(
    struct cluster *cl, const char *node, unsigned long long inc);
/* The nodes' set came (ZRANGEBYSCORE WITHSCORES, members "node|inc"):
 * the live nodes now, and the incarnations that ended since. */
void cluster_node_read(struct cluster *cl, const redisReply *rep);
/* The member of the nodes' set of this node ("node|inc"). */
void cluster_node_member(const struct cluster *cl, char *out, size_t len);
/* "node|inc|conn" (a presence, a watcher without its name) into its
 * parts: 0, or -1 when malformed. */
int cluster_node_addr(const char *v, char *node, unsigned long long *inc,
    unsigned long long *conn);

/* cluster_stream.c */
/* Most fields (names and values) of one entry made here, besides the
 * type, the sender and the recipient's incarnation. */
#define CLUSTER_STREAM_FIELDS 20
/* Add a message of type t to node's stream, for its incarnation to (0:
 * whichever reads it), with n fields and values; lens[i] the length of
 * argv[i] when it may hold any byte, (size_t)-1 (or lens NULL): a C
 * string. It goes with the others for that node at the end of the pass,
 * in order, as one entry. */
void cluster_stream_send(struct cluster *cl, const char *node,
    unsigned long long to, const char *t, int n, const char *const *argv,
    const size_t *lens);
/* n in decimal into out, as snprintf's "%llu" writes it but without
 * its cost (the numbers of every message). */
void cluster_num(char out[CLUSTER_NUM], unsigned long long n);
/* Send every gathered message now. */
void cluster_stream_flush(struct cluster *cl);
/* At start: the event that sends the packs at the end of a pass. */
void cluster_stream_start(struct cluster *cl);
/* At stop: what is gathered is sent, the packs freed. */
void cluster_stream_stop(struct cluster *cl);
/* Read the node's stream on cl->rd, from cl->last_id on, for good. */
void cluster_stream_read(struct cluster *cl);
/* The value of field name in a stream entry's field array, or NULL. */
const redisReply *cluster_stream_field(
    const redisReply *fields, const char *name);
/* The string of field name, or "" when missing. */
const char *cluster_stream_str(const redisReply *fields, const char *name);
/* The number in field name, 0 when missing. */
unsigned long long cluster_stream_num(
    const redisReply *fields, const char *name);

/* Room for a pack's bytes as a link carries them (cluster_link.c): a
 * pack's fields are at most CLUSTER_STREAM_PACK_BYTES past one message,
 * and a message is one line of output at most (--max-line's order of
 * size); a pack larger than this goes through Redis instead. */
#define CLUSTER_LINK_FRAME_MAX (16 * 1024 * 1024)
/* A link's frame (one pack's fields, RESP bulk strings "m" and a message
 * each, as an XADD carries them) from node from's incarnation inc: acted
 * on as the same entry of the stream would be; -1 when malformed. */
int cluster_stream_frame(struct cluster *cl, const char *from,
    unsigned long long inc, char *body, size_t len);

/* cluster_link.c */
/* --node-link into cl: 0, or -1 with the reason in err. */
int cluster_link_config(
    struct cluster *cl, const struct config *cfg, char *err, size_t errlen);
/* Every tick, Redis up: take links (once: where, the secret), publish
 * where (link:{node}), connect to every live node not linked. */
void cluster_link_tick(struct cluster *cl);
/* The pack for node (body: its fields, nmsgs messages) sent on its link:
 * 1 when taken (on the link, or held for it), 0 when it must go through
 * Redis (no link up). */
int cluster_link_send(
    struct cluster *cl, const char *node, const char *body, size_t len);
/* An XADD to node's stream was sent (its answer comes to
 * cluster_link_xadded): the argument its callback gets, or NULL when
 * none is kept. */
void *cluster_link_xadd(struct cluster *cl, const char *node);
void cluster_link_xadded(redisAsyncContext *ac, void *reply, void *arg);
/* The stream was read up to cl->last_id: links whose fence it passed
 * are read. */
void cluster_link_stream_read(struct cluster *cl);
/* node's incarnation inc (and older) ended: its links close. */
void cluster_link_over(
    struct cluster *cl, const char *node, unsigned long long inc);
/* The links that are up, sending and taking (the metrics). */
void cluster_link_count(const struct cluster *cl, int *out, int *in);
/* At stop: every link closed, the listener too. */
void cluster_link_stop(struct cluster *cl);

/* cluster_route.c */
/* c's record, made when first needed (a home connection's is found by
 * its id from then on). */
struct route_home *cluster_route_home(struct conn *c);
/* c is a stand-in: its record says so (and is in no index). */
void cluster_route_set_standin(struct conn *c);
/* The home connection of this node with id, open and logged in, or NULL
 * (a lookup, not a walk). */
struct conn *cluster_route_conn(struct cluster *cl, unsigned long long id);
/* Entries for a home connection: output of a stand-in ("out"), a request
 * an owner did not take ("bounce"), a stand-in's end ("closed"). */
void cluster_route_out(struct cluster *cl, const char *from,
    unsigned long long inc, const redisReply *fields);
void cluster_route_bounce(
    struct cluster *cl, const char *from, const redisReply *fields);
void cluster_route_closed_entry(
    struct cluster *cl, const char *from, const redisReply *fields);
/* node's incarnation inc ended: requests sent there go to their rooms'
 * next owners. */
void cluster_route_owner_ended(
    struct cluster *cl, const char *node, unsigned long long inc);
/* Every tick: acknowledgements owed, requests unanswered too long sent
 * again (or to a new owner). */
void cluster_route_tick(struct cluster *cl);
/* Redis is back: every request in flight is sent again (the owner runs
 * each once). */
void cluster_route_back(struct cluster *cl);
/* At stop: every connection's record freed. */
void cluster_route_stop(struct cluster *cl);

/* cluster_standin.c */
/* The stand-in of (home, inc, conn) logged in as name, made when new: the
 * way this node sends that player what it holds (held for the store like
 * any output); NULL when it cannot be made. */
struct conn *cluster_standin_get(struct cluster *cl, const char *home,
    unsigned long long inc, unsigned long long conn, const char *name);
/* Entries for stand-ins: a request ("req"), an acknowledgement ("ack"),
 * a replay asked ("resend"), a home connection's end ("bye"). */
void cluster_standin_req(struct cluster *cl, const char *from,
    unsigned long long inc, const redisReply *fields);
void cluster_standin_ack(struct cluster *cl, const char *from,
    unsigned long long inc, const redisReply *fields);
void cluster_standin_resend(struct cluster *cl, const char *from,
    unsigned long long inc, const redisReply *fields);
void cluster_standin_bye(struct cluster *cl, const char *from,
    unsigned long long inc, const redisReply *fields);
/* node's incarnation inc (and any older) ended: its players' stand-ins
 * close, which counts as those players leaving (their seats' grace
 * starts). */
void cluster_standin_end(
    struct cluster *cl, const char *node, unsigned long long inc);
/* Redis is back: every stand-in's unacknowledged output is sent again. */
void cluster_standin_back(struct cluster *cl);
/* Every tick: replies of requests that ran late (a hint) marked, closed
 * stand-ins whose output is acknowledged or too old forgotten. */
void cluster_standin_tick(struct cluster *cl);
/* At stop: every stand-in freed. */
void cluster_standin_stop(struct cluster *cl);
/* The stand-ins open here (the metrics). */
int cluster_standin_count(const struct cluster *cl);
/* A stand-in's connection is about to be freed: its record keeps what
 * the output still to come needs, not the pointer. */
void cluster_standin_conn_gone(struct cluster *cl, struct conn *c);
/* The stand-in c's home node, its incarnation and connection id there:
 * 0, or -1 when c is not one. */
int cluster_standin_home_of(const struct cluster *cl, const struct conn *c,
    const char **home, unsigned long long *inc, unsigned long long *id);
/* The seated players of room r, just taken by this node, are back: those
 * logged in here at once, those on other nodes (found by their presence)
 * through a stand-in each. */
void cluster_standin_seats(struct cluster *cl, struct room *r);
/* The watchers of room r, taken by this node, watch it here (from
 * watchers:{room}). */
void cluster_standin_watchers(struct cluster *cl, struct room *r);
/* r leaves memory: no stand-in keeps it as its current room (one acting
 * for a player who is not in the room is not unlinked by room_forget). */
void cluster_standin_room_gone(struct cluster *cl, const struct room *r);
/* The value of p's entry in watchers:{room} (its connection c: here, or
 * a stand-in's home): "node|inc|conn|name". */
void cluster_standin_watcher_val(const struct cluster *cl, const struct conn *c,
    const struct player *p, char *val, size_t len);

/* cluster_club.c */
/* Every tick: renew the club's lease, or try to take it when no node
 * holds it. */
void cluster_club_tick(struct cluster *cl);
/* The store's fence for the club's rows: the epoch they carry. */
long long cluster_club_fence_epoch(const struct cluster *cl);
/* The store refused the club's rows: another node took the club. */
void cluster_club_fenced(struct cluster *cl);
/* name logged in here and the club is another node's: that node is told
 * (a "tlogin" entry of its stream), to send name the reminders of the
 * tournament games waiting for them (tourney_logged_in's). */
void cluster_club_hello(struct cluster *cl, const char *name);
/* A "tlogin" entry: name logged in on another node; on the club's node,
 * the reminders of its waiting tournament games go to them
 * (tourney_remind_name, through player_send). */
void cluster_club_login(struct cluster *cl, const char *name);
/* Another node's room of a tournament game ended (a "tend" entry). */
void cluster_club_ended(struct cluster *cl, const char *room,
    const char *winner, const char *reason);

/* cluster_limit.c */
/* Every tick: report this node's use of each address's limits, read the
 * other live nodes' reports into the limits table. */
void cluster_limit_tick(struct cluster *cl);

/* cluster_lobby.c */
/* Write this node's part of the lobby and presence, read the others'. */
void cluster_lobby_tick(struct cluster *cl);
/* Another node's hello replaced name's connection id here. */
void cluster_lobby_kick(
    struct cluster *cl, const char *name, unsigned long long id);
/* The presence value of c here: "node|inc|conn". */
void cluster_lobby_presence(
    const struct cluster *cl, const struct conn *c, char *val, size_t len);

/* cluster_admin.c */
/* An operator's act made here (cluster_ops admin): to every other live
 * node's stream. */
void cluster_admin_send(struct server *srv, const char *act, const char *target,
    long long until_ms, const char *admin, long long made_ms);
/* Another node's act (an "admin" entry): applied here. */
void cluster_admin_got(struct cluster *cl, const redisReply *fields);

/*
 * The cluster as the layers below see it (core.h's struct cluster_ops,
 * filled by cluster.c from these).
 */
/* 1 when the node takes logins and new rooms: alone, or Redis answers. */
int cluster_ready(const struct server *srv);
struct conn;
struct proto_request;
/* cluster_route.c: a request line for a room another node owns goes
 * there: 1 when taken (its one reply comes back through Redis, or is
 * made here when it cannot go), 0 when it runs here. */
int cluster_route_forward(struct conn *c, const struct proto_request *req,
    const char *line, size_t len);
/* A shorthand line that is no verb, from a connection whose current room
 * another node holds: sent there, where it may be a bare move ("A2")
 * (bare.c); 1 when sent, 0 when it is this node's to refuse. */
int cluster_route_bare(struct conn *c, const char *line, size_t len);
/* A connection closed: its stand-ins on other nodes go too, its watcher
 * entries and presence with it. */
void cluster_route_closed(struct conn *c);
/* 1 when c is another node's player's stand-in here. */
int cluster_route_is_standin(const struct conn *c);
/* cluster_lobby.c: a name logged in here (its presence; its older
 * connection on another node is closed); a connection's end. */
void cluster_player_hello(struct conn *c);
void cluster_lobby_gone(struct conn *c);
/* The other nodes' public rooms that req's filters let through, added to
 * list (`rooms`); their players merged into list by name (`who`): how
 * many were added, guests counted into *guests. */
struct cJSON;
void cluster_lobby_rooms(const struct server *srv,
    const struct proto_request *req, struct cJSON *list);
int cluster_lobby_who(
    const struct server *srv, struct cJSON *list, int *guests);
/* The unfinished rooms p created or sits in on other nodes (from the
 * store), for the rooms-per-player limit; 0 alone. */
int cluster_rooms_elsewhere(struct server *srv, const struct player *p);
/* The unfinished rooms p sits in that this node does not hold (another
 * node's, or a dead node's not yet taken), as the store has them, added
 * to hello's list `rooms`; nothing alone. */
void cluster_hello_rooms(
    struct server *srv, const struct player *p, struct cJSON *rooms);
/* cluster_club.c: seeks and tournaments live on one node, the club's
 * (a lease like a room's). 1 when they are this node's: alone, or the
 * club's node. */
int cluster_club_here(const struct server *srv);
/* 1 after refusing req (not_ready) when the club is another node's: a
 * club verb that could not be sent there is not run here. */
int cluster_club_refuse(struct conn *c, const struct proto_request *req);
/* The node whose lease club verbs follow ("club:owner"). */
#define CLUSTER_CLUB_KEY "club:owner"
/* Send ev to name, logged in on another node (its presence), through a
 * stand-in there; nothing when it is nowhere. */
void cluster_club_deliver(
    struct server *srv, const char *name, const struct cJSON *ev);
/* 1 when name is logged in on another live node (the lobby's cache). */
int cluster_online_elsewhere(const struct server *srv, const char *name);
/* The public rooms name sits in on other nodes (the lobby's cache, at
 * most two ticks old), added to list as finger's "playing" entries
 * unless list has them already. */
void cluster_finger_rooms(
    const struct server *srv, const char *name, struct cJSON *list);
/* 1 when room id, not in this node's memory, may be on another node:
 * listed there, or the club was taken too lately to know (the rooms of
 * a dead node are taken within a lease and a scan). */
int cluster_club_room_away(const struct server *srv, const char *id);
/* A tournament's room ended on a node that is not the club's: its
 * result goes to the club's node (0), or -1 when this node is it. */
int cluster_club_room_ended(struct room *r, int winner, const char *reason);

#endif
