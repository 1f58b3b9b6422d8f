/*
 * net.h: connections and their transports: sockets, lines in and out,
 * the output caps, held output (held.c), the PROXY protocol, the web port
 * with its WebSocket and TLS.
 */
#ifndef TABLERO_SERVER_NET_H
#define TABLERO_SERVER_NET_H

#include <sys/queue.h>

#include <event2/listener.h>

#include "server/server.h"

enum conn_mode { CONN_MODE_UNSET, CONN_MODE_JSON, CONN_MODE_TEXT };

enum conn_state {
	CONN_OPEN,
	CONN_FLUSHING, /* reading stopped; closed once the output is sent */
	CONN_DEAD,     /* freed by the reaper, outside any callback */
};

struct conn {
	TAILQ_ENTRY(conn) entry;
	TAILQ_ENTRY(conn) flush_entry; /* in srv->to_flush when flushing */
	TAILQ_ENTRY(conn) dead_entry;  /* in srv->dead once dead */
	int to_flush;                  /* listed in srv->to_flush */
	struct server *srv;
	/* The socket's (or TLS) bufferevent; NULL for a WebSocket, whose
	 * frames ws.c reads and writes. */
	struct bufferevent *bev;
	/* What is read and what is to send: bev's input and output, or a
	 * WebSocket's lines (ws.c frames them). */
	struct evbuffer *in, *out;
	struct proto_framer *framer;
	int deferring; /* events go behind the reply (held.c's dhead) */
	uint64_t id;
	char addr[64];
	enum conn_mode mode;
	int lean;  /* JSON events in their lean form (hello's "events") */
	int lobby; /* rooms_changed events wanted (hello's "lobby") */
	enum conn_state state;
	int waiting;      /* a reply is being computed: read nothing more yet */
	int read_stopped; /* reading off until net_resume (a full input) */
	struct player *player; /* NULL before hello */
	struct room *current;  /* the room verbs without a room act on */
	double tokens;         /* rate limit bucket */
	int64_t refill_ms;
	int refused; /* refused messages in a row */
	struct event *idle;
	struct limit_entry *lim_addr; /* the source address's limits */
	struct limit_entry *lim_name; /* the identity's, once logged in */
	int64_t last_ms;              /* last message, monotonic */
	int lingering;    /* closing: reading and dropping what comes */
	size_t discarded; /* bytes dropped while lingering */
	/* Output held until the change it depends on is committed, in
	 * order (held.c): while one of its replies is held, nothing more is
	 * read. */
	struct net_held *held; /* hq while anything is held, else NULL */
	struct net_held *hq;   /* held output (kept once made) */
	struct net_held *dq;   /* deferring: events behind a reply */
	size_t held_bytes;     /* in hq: waiting for the store */
	size_t deferred_bytes; /* in dq */
	int held_slot;         /* slot in srv->held_conns, or -1 */
	/* The op the newest of its held replies waits for (0: none): while
	 * that is not committed it reads nothing more (held_blocks). */
	uint64_t reply_held;
	int replying;   /* the message being sent is a reply (conn_reply) */
	int bev_writes; /* bev is no plain socket's: it writes by itself */
	int relay;      /* bev is one end of a pair (a cluster stand-in's) */
	struct ws *ws;  /* a WebSocket's (ws.c), while both are there */
	struct event *deadline; /* closing: closed by then (net_close) */
	struct event *rest;     /* told to wait: reads again then (net_rest) */
	int guest;              /* player is an anonymous watcher (session.c) */
	/* The cluster's record of the connection (cluster_route.c): NULL
	 * on a single node, and until the cluster needs one. */
	struct route_home *route;
};
/*
 * What the layer above does with a connection (cmd/session.c's, set in
 * srv->conn_ops at start): net.c calls these and names no session
 * function, as HAProxy's transports call their upper layer through a
 * table.
 */
struct conn_ops {
	/* accepted: greet it */
	void (*open)(struct conn *c);
	/* one whole line read (len bytes, no newline; may hold NUL) */
	void (*line)(struct conn *c, const char *line, size_t len);
	/* msg was just sent to c, in either mode (a text-mode prompt
	 * follows it; an invitation is remembered), or NULL */
	void (*sent)(struct conn *c, const cJSON *msg);
	/* the connection is going: let go of what it holds */
	void (*closed)(struct conn *c);
};

/* What net/ counts, for --metrics-port (app/metrics.c). */
enum net_transport { NET_TCP, NET_TLS, NET_WEBSOCKET, NET_TRANSPORTS };
/* What a client was refused or cut off for, by limit. */
enum net_refusal {
	NET_REFUSED_CLIENTS,      /* --max-clients */
	NET_REFUSED_ADDR_CONNS,   /* --max-per-address */
	NET_REFUSED_ADDRESSES,    /* SERVER_LIMIT_ENTRIES addresses tracked */
	NET_REFUSED_OUTPUT,       /* --max-output: a client not reading */
	NET_REFUSED_OUTPUT_TOTAL, /* --max-output-total */
	NET_REFUSED_ADDR_RATE,    /* --addr-rate: an address's messages */
	NET_REFUSED_LOGIN_FAILS,  /* --login-fails */
	NET_REFUSED_NEW_NAMES,    /* --new-names */
	NET_REFUSED_GAMES,        /* --games-per-hour */
	NET_REFUSED_WS_CONTROL,   /* a WebSocket's pings past their rate */
	NET_REFUSED_DEADLINE,     /* a handshake, head, response or close */
	NET_REFUSALS
};
/* The HTTP statuses the web port answers with. */
enum net_http {
	NET_HTTP_101,
	NET_HTTP_200,
	NET_HTTP_304,
	NET_HTTP_400,
	NET_HTTP_403,
	NET_HTTP_404,
	NET_HTTP_405,
	NET_HTTP_414,
	NET_HTTP_431,
	NET_HTTPS
};
struct net_stats {
	uint64_t accepted[NET_TRANSPORTS]; /* connections made */
	uint64_t lines;                    /* requests read */
	uint64_t errors[PROTO_E_COUNT];    /* error replies by code */
	uint64_t refused[NET_REFUSALS];
	uint64_t http[NET_HTTPS]; /* HTTP responses by status */
	uint64_t accept_pauses;   /* out of descriptors */
};

/* net.c */
struct net_stats *net_stats(void);
const char *net_refusal_name(enum net_refusal r);
int net_http_status(enum net_http h);
void net_count_http(int status);
void net_count_conns(struct server *srv, int conns[NET_TRANSPORTS],
    size_t *unread, size_t *held);
int net_listen(struct server *srv);
void net_start(struct server *srv);
void net_send(struct conn *c, const char *data, size_t len);
void net_input(struct conn *c);
int net_output_added(struct conn *c, size_t len);
void net_send_msg(struct conn *c, const cJSON *msg);
/* One message encoded in one output mode. */
struct net_encoded {
	size_t len;
	char text[];
};
struct net_cache {
	/* each form's encoding (JSON, lean JSON, text), made for its first
	 * recipient; NULL until then */
	struct net_encoded *json, *lean, *text;
};
void net_send_cached(struct conn *c, const cJSON *msg, struct net_cache *cache);
void net_cache_clear(struct net_cache *cache);
void net_close(struct conn *c, int flush);
void net_shutdown(struct server *srv);
void net_resume(struct conn *c);
void net_pause(struct conn *c);
void net_rest(struct conn *c, int64_t ms);
typedef void net_answer_fn(struct conn *c, void *arg);
void net_answer(struct conn *c, net_answer_fn *answer, void *arg);
void net_settle(struct server *srv);
void net_free_all(struct server *srv);
void net_linger_now(struct conn *c);
struct limit_entry *net_admit(
    struct server *srv, evutil_socket_t fd, const struct sockaddr *sa);
int net_admit_room(struct server *srv, evutil_socket_t fd);
/* net_conn_new's flags. */
#define NET_BEV_WRITES 1 /* the bufferevent writes by itself (TLS) */
#define NET_RELAY 2      /* one end of a bufferevent pair */
struct conn *net_conn_new(struct server *srv, struct bufferevent *bev,
    const char *addr, struct limit_entry *lim, int flags);
struct ws;
struct conn *net_conn_new_ws(struct server *srv, struct ws *ws,
    struct evbuffer *in, struct evbuffer *out, const char *addr,
    struct limit_entry *lim);
void net_addr_words(const struct sockaddr *sa, char *buf, size_t len);
int net_bind_port(struct server *srv, const char *host, int port,
    evconnlistener_cb cb, struct evconnlistener **out, int max,
    const char *what);

/* reply.c */
void conn_reply(struct conn *c, cJSON *reply);
void conn_reply_line(struct conn *c, const char *line, size_t len);
void conn_error(struct conn *c, const struct proto_request *req,
    enum proto_error e, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void conn_error_text(struct conn *c, const struct proto_request *req,
    enum proto_error e, const char *text);
void conn_said(struct conn *c, cJSON *o, const char *text);

/* proxy.c */
/* Where a trusted connection goes once its header is read: the listener's
 * accept, with the client's address (arg: the listener's own). */
typedef void proxy_done_fn(
    struct server *srv, evutil_socket_t fd, const struct sockaddr *sa, int arg);
int proxy_check_flag(const char *list, char *err, size_t errlen);
int proxy_init(struct server *srv);
int proxy_waiting(const struct server *srv);
int proxy_take(struct server *srv, evutil_socket_t fd,
    const struct sockaddr *sa, socklen_t salen, proxy_done_fn *done, int arg);
void proxy_stop(struct server *srv);
void proxy_free_all(struct server *srv);
struct proxy_list;
struct proxy_list *proxy_list_new(
    const char *flag, const char *list, char *err, size_t errlen);
int proxy_list_has(const struct proxy_list *l, const struct sockaddr *sa);
void proxy_list_free(struct proxy_list *l);

/* web.c */
struct ssl_ctx_st;
int web_listen(struct server *srv);
void web_listeners_enable(struct server *srv, int on);
void web_stop(struct server *srv);
void web_free_all(struct server *srv);

/* webfile.c */
/* One of the browser client's files, in memory. */
struct webfile {
	char *path;       /* its URL's path: "/js/app.js" */
	const char *type; /* its Content-Type */
	const unsigned char *data, *gz;
	size_t len, gzlen; /* gz: a smaller gzip copy, or NULL */
	char etag[20], gzetag[20];
	int owned; /* data and gz were read from --web-dir (freed) */
};
/* One of the files built into tablerod (webdata.c, by contrib/embed-web.sh):
 * its path, bytes and gzip copy. */
struct webfile_builtin {
	const char *path;
	const unsigned char *data;
	size_t len;
	const unsigned char *gz;
	size_t gzlen;
};
extern const struct webfile_builtin webfile_builtin[];
struct webfiles;
struct webfiles *webfile_load(const char *dir, char *err, size_t errlen);
const struct webfile *webfile_find(const struct webfiles *f, const char *path);
int webfile_count(const struct webfiles *f, size_t *bytes);
void webfile_free(struct webfiles *f);

/* ws.c */
struct ws;
int ws_accept(struct server *srv, struct bufferevent *bev, const char *key,
    const char *addr, struct limit_entry *lim, int flags);
size_t ws_unsent(const struct ws *ws);
void ws_send(struct ws *ws);
void ws_resume(struct ws *ws);
void ws_conn_freed(struct ws *ws);
void ws_free_all(struct server *srv);

/* tls.c */
struct ssl_ctx_st *tls_server_ctx(const char *cert, const char *key);
struct bufferevent *tls_accept(
    struct server *srv, struct ssl_ctx_st *ctx, evutil_socket_t fd);
void tls_free(struct ssl_ctx_st *ctx);

/* held.c */
uint64_t held_tag(struct conn *c);
void held_add(struct conn *c, const char *data, size_t len);
void held_go_on(struct conn *c);
int held_blocks(const struct conn *c);
void held_end_deferring(struct conn *c);
void held_release(struct server *srv, uint64_t committed);
void held_free(struct conn *c);

#endif
