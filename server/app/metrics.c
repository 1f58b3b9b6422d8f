/*
 * metrics.c: what an operator watches: --metrics-port serves GET /metrics
 * in Prometheus's text format (version 0.0.4) to the addresses of
 * --metrics-from (by default the machine itself), from every layer's
 * figures: connections by transport, players, rooms by game and status,
 * moves, requests, error replies by code, refusals by limit, HTTP
 * responses by status, output waiting, the store's commits (latency and
 * group size histograms, failures), the search threads' jobs and the
 * optional parts' own (modules.c: the cluster's). Each
 * scrape is one request on its own connection, answered and closed, each
 * within a deadline; a few at once at most. docs/tablerod.8 names every
 * metric.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/listener.h>

#include "server/app/app.h"
#include "server/cmd/cmd.h"
#include "server/net/limit.h"
#include "server/store/storeq.h"

/* Scrapes at once: a Prometheus or two, and someone with curl. */
#define METRICS_CONNS_MAX 4
/* A scrape's request head at most: curl's and Prometheus's are a few
 * hundred bytes. */
#define METRICS_HEAD_MAX 4096
/* Seconds a scrape has from its accept to taking the whole answer: a
 * deadline, so a slow one cannot keep a slot. */
#define METRICS_SEC 10
/* Reads (of 64 bytes) of a refused scraper's request before its close:
 * a request that came with the connection, so the close sends no reset
 * over the 403; no more, whatever it sends. */
#define METRICS_DRAIN_READS 4

struct metrics_conn {
	TAILQ_ENTRY(metrics_conn) entry;
	struct metrics *m;
	struct bufferevent *bev;
	struct event *deadline;
	int answered;
};

struct metrics {
	struct server *srv;
	struct proxy_list *from; /* --metrics-from */
	TAILQ_HEAD(, metrics_conn) conns;
	int nconns;
};

static void
metrics_conn_free(struct metrics_conn *mc)
{
	TAILQ_REMOVE(&mc->m->conns, mc, entry);
	mc->m->nconns--;
	event_free(mc->deadline);
	bufferevent_free(mc->bev);
	free(mc);
}

/* A metric's HELP and TYPE lines. */
void
metrics_head(
    struct evbuffer *out, const char *name, const char *type, const char *help)
{
	evbuffer_add_printf(
	    out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* A histogram from cumulative bucket counts. */
static void
metrics_histogram(struct evbuffer *out, const char *name, const char *help,
    const double *bounds, const uint64_t *le, uint64_t count, double sum)
{
	int i;

	metrics_head(out, name, "histogram", help);
	for (i = 0; i < STOREQ_BUCKETS; i++)
		evbuffer_add_printf(out, "%s_bucket{le=\"%g\"} %llu\n", name,
		    bounds[i], (unsigned long long)le[i]);
	evbuffer_add_printf(out,
	    "%s_bucket{le=\"+Inf\"} %llu\n%s_sum %.6f\n%s_count %llu\n", name,
	    (unsigned long long)count, name, sum, name,
	    (unsigned long long)count);
}

/* The connections, players and rooms now. */
static void
metrics_now(struct server *srv, struct evbuffer *out)
{
	static const char *const transports[NET_TRANSPORTS] = {
	    "tcp", "tls", "websocket"};
	int conns[NET_TRANSPORTS], guests = 0, i, g, s;
	int rooms[64][PROTO_ROOM_STATUS_COUNT];
	size_t unread, held;
	struct conn *c;
	struct room *r;

	net_count_conns(srv, conns, &unread, &held);
	metrics_head(out, "tablerod_connections", "gauge",
	    "Connections open, by transport (http: web connections before "
	    "they are a connection, and WebSockets closing; proxy: waiting "
	    "for their PROXY header).");
	for (i = 0; i < NET_TRANSPORTS; i++)
		evbuffer_add_printf(out,
		    "tablerod_connections{transport=\"%s\"} %d\n",
		    transports[i], conns[i]);
	evbuffer_add_printf(out,
	    "tablerod_connections{transport=\"http\"} %d\n"
	    "tablerod_connections{transport=\"proxy\"} %d\n",
	    srv->nweb, proxy_waiting(srv));
	metrics_head(out, "tablerod_connections_accepted_total", "counter",
	    "Connections made, by transport.");
	for (i = 0; i < NET_TRANSPORTS; i++)
		evbuffer_add_printf(out,
		    "tablerod_connections_accepted_total{transport=\"%s\"} "
		    "%llu\n",
		    transports[i],
		    (unsigned long long)net_stats()->accepted[i]);
	TAILQ_FOREACH(c, &srv->conns, entry)
		guests += c->guest;
	metrics_head(out, "tablerod_players", "gauge",
	    "Players in memory (online, or seated in a room).");
	evbuffer_add_printf(out, "tablerod_players %zu\n", srv->players.n);
	metrics_head(
	    out, "tablerod_guests", "gauge", "Anonymous watchers connected.");
	evbuffer_add_printf(out, "tablerod_guests %d\n", guests);
	memset(rooms, 0, sizeof rooms);
	TAILQ_FOREACH(r, &srv->rooms, entry)
		for (g = 0; g < 64 && rules_games[g] != NULL; g++)
			if (rules_games[g] == r->g &&
			    (int)r->status < PROTO_ROOM_STATUS_COUNT)
				rooms[g][r->status]++;
	metrics_head(out, "tablerod_rooms", "gauge",
	    "Rooms in memory, by game and status.");
	for (g = 0; g < 64 && rules_games[g] != NULL; g++)
		for (s = 0; s < PROTO_ROOM_STATUS_COUNT; s++)
			evbuffer_add_printf(out,
			    "tablerod_rooms{game=\"%s\",status=\"%s\"} %d\n",
			    rules_games[g]->name,
			    proto_room_status_name((enum proto_room_status)s),
			    rooms[g][s]);
	metrics_head(out, "tablerod_output_unread_bytes", "gauge",
	    "Output sent to clients and not yet taken by them (--max-output, "
	    "--max-output-total).");
	evbuffer_add_printf(out, "tablerod_output_unread_bytes %zu\n", unread);
	metrics_head(out, "tablerod_output_held_bytes", "gauge",
	    "Output held until the store has committed what it shows.");
	evbuffer_add_printf(out, "tablerod_output_held_bytes %zu\n", held);
	metrics_head(out, "tablerod_worker_jobs", "gauge",
	    "Bot moves and hints queued or being searched.");
	evbuffer_add_printf(
	    out, "tablerod_worker_jobs %d\n", worker_jobs(srv->worker));
}

/* The counters since start. */
static void
metrics_counters(struct server *srv, struct evbuffer *out)
{
	const struct net_stats *ns = net_stats();
	struct storeq_stats st;
	int i;

	metrics_head(out, "tablerod_requests_total", "counter",
	    "Request lines read (every transport).");
	evbuffer_add_printf(out, "tablerod_requests_total %llu\n",
	    (unsigned long long)ns->lines);
	metrics_head(out, "tablerod_errors_total", "counter",
	    "Error replies, by error code (docs/PROTOCOL.md).");
	for (i = 0; i < PROTO_E_COUNT; i++)
		if (i != PROTO_OK)
			evbuffer_add_printf(out,
			    "tablerod_errors_total{code=\"%s\"} %llu\n",
			    proto_error_code((enum proto_error)i),
			    (unsigned long long)ns->errors[i]);
	metrics_head(out, "tablerod_refused_total", "counter",
	    "Clients refused or cut off, by the limit that did it.");
	for (i = 0; i < NET_REFUSALS; i++)
		evbuffer_add_printf(out,
		    "tablerod_refused_total{limit=\"%s\"} %llu\n",
		    net_refusal_name((enum net_refusal)i),
		    (unsigned long long)ns->refused[i]);
	metrics_head(out, "tablerod_http_responses_total", "counter",
	    "HTTP responses of the web and TLS ports, by status.");
	for (i = 0; i < NET_HTTPS; i++)
		evbuffer_add_printf(out,
		    "tablerod_http_responses_total{code=\"%d\"} %llu\n",
		    net_http_status((enum net_http)i),
		    (unsigned long long)ns->http[i]);
	metrics_head(out, "tablerod_accept_pauses_total", "counter",
	    "Pauses of every listener after accept ran out of descriptors.");
	evbuffer_add_printf(out, "tablerod_accept_pauses_total %llu\n",
	    (unsigned long long)ns->accept_pauses);
	storeq_stats(srv->storeq, &st);
	metrics_head(out, "tablerod_moves_total", "counter",
	    "Moves made (each stored).");
	evbuffer_add_printf(
	    out, "tablerod_moves_total %llu\n", (unsigned long long)st.moves);
	metrics_histogram(out, "tablerod_store_commit_seconds",
	    "Time the store took to commit one group of changes.",
	    storeq_commit_bounds, st.commit_le, st.commits, st.commit_sec);
	metrics_histogram(out, "tablerod_store_group_ops",
	    "Changes (ops) committed in one group.", storeq_group_bounds,
	    st.group_le, st.commits, (double)st.ops);
	metrics_head(out, "tablerod_store_failures_total", "counter",
	    "Tries of a group that failed (each is tried again).");
	evbuffer_add_printf(out, "tablerod_store_failures_total %llu\n",
	    (unsigned long long)st.failures);
	metrics_head(out, "tablerod_store_failing", "gauge",
	    "1 while the store fails and changes are refused.");
	evbuffer_add_printf(
	    out, "tablerod_store_failing %d\n", storeq_failing(srv->storeq));
	metrics_head(out, "tablerod_store_pending_ops", "gauge",
	    "Changes queued and not yet known committed.");
	evbuffer_add_printf(out, "tablerod_store_pending_ops %llu\n",
	    (unsigned long long)(storeq_ops(srv->storeq) > srv->committed
	            ? storeq_ops(srv->storeq) - srv->committed
	            : 0));
}

/* A gauge or counter of one value. */
void
metrics_one(struct evbuffer *out, const char *name, const char *type,
    const char *help, unsigned long long v)
{
	metrics_head(out, name, type, help);
	evbuffer_add_printf(out, "%s %llu\n", name, v);
}

/* The figures of the build's optional parts (the cluster's). */
static void
metrics_modules(struct server *srv, struct evbuffer *out)
{
	int i;

	for (i = 0; app_modules[i] != NULL; i++)
		if (app_modules[i]->metrics != NULL)
			app_modules[i]->metrics(srv, out);
}

/* Answer the request read (at most METRICS_HEAD_MAX bytes, whole). */
static void
metrics_answer(struct metrics_conn *mc, const char *head, size_t len)
{
	struct evbuffer *out = bufferevent_get_output(mc->bev);
	struct evbuffer *body;
	int ok = len > 13 &&
	    (strncmp(head, "GET /metrics ", 13) == 0 ||
	        strncmp(head, "GET /metrics?", 13) == 0);

	mc->answered = 1;
	bufferevent_disable(mc->bev, EV_READ);
	if (!ok) {
		evbuffer_add_printf(out,
		    "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\n"
		    "Content-Length: 18\r\nConnection: close\r\n\r\n"
		    "only GET /metrics\n");
		return;
	}
	if ((body = evbuffer_new()) == NULL)
		fatal("out of memory");
	metrics_now(mc->m->srv, body);
	metrics_counters(mc->m->srv, body);
	metrics_modules(mc->m->srv, body);
	evbuffer_add_printf(out,
	    "HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4; "
	    "charset=utf-8\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n",
	    evbuffer_get_length(body));
	evbuffer_add_buffer(out, body);
	evbuffer_free(body);
}

static void
metrics_read_cb(struct bufferevent *bev, void *arg)
{
	struct metrics_conn *mc = arg;
	struct evbuffer *in = bufferevent_get_input(bev);
	struct evbuffer_ptr end;
	char head[METRICS_HEAD_MAX + 1];
	size_t n;

	if (mc->answered)
		return;
	end = evbuffer_search(in, "\r\n\r\n", 4, NULL);
	if (end.pos < 0) {
		if (evbuffer_get_length(in) >= METRICS_HEAD_MAX)
			metrics_conn_free(mc); /* no scraper sends that */
		return;
	}
	n = evbuffer_copyout(in, head, sizeof head - 1);
	head[n] = '\0';
	metrics_answer(mc, head, n);
}

/* The answer is sent: the scrape is done. */
static void
metrics_write_cb(struct bufferevent *bev, void *arg)
{
	struct metrics_conn *mc = arg;

	if (mc->answered &&
	    evbuffer_get_length(bufferevent_get_output(bev)) == 0)
		metrics_conn_free(mc);
}

static void
metrics_event_cb(struct bufferevent *bev, short what, void *arg)
{
	metrics_conn_free(arg);
}

/* METRICS_SEC passed: the scrape goes, done or not. */
static void
metrics_deadline_cb(evutil_socket_t fd, short what, void *arg)
{
	metrics_conn_free(arg);
}

/* A scrape's connection: from --metrics-from, and room for it, or
 * closed (403 said to one from elsewhere). */
static void
metrics_accept_cb(struct evconnlistener *l, evutil_socket_t fd,
    struct sockaddr *sa, int socklen, void *arg)
{
	static const char forbidden[] =
	    "HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n"
	    "Connection: close\r\n\r\n";
	struct server *srv = arg;
	struct metrics *m = srv->metrics;
	struct timeval tv = {METRICS_SEC, 0};
	struct metrics_conn *mc;
	char where[64];
	int i;

	if (!proxy_list_has(m->from, sa)) {
		net_addr_words(sa, where, sizeof where);
		limit_log(srv, "metrics: %s is not in --metrics-from: refused",
		    where);
		if (send(fd, forbidden, sizeof forbidden - 1,
		        MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
			log_debug("metrics: 403 not sent");
		/* what came already is read (a little), so the close sends
		 * no reset that could destroy the 403 on its way */
		for (i = 0; i < METRICS_DRAIN_READS &&
		     recv(fd, where, sizeof where, MSG_DONTWAIT) > 0;
		     i++)
			;
		evutil_closesocket(fd);
		return;
	}
	if (srv->shutting_down || m->nconns >= METRICS_CONNS_MAX) {
		evutil_closesocket(fd);
		return;
	}
	mc = xcalloc(1, sizeof *mc);
	mc->m = m;
	mc->bev = bufferevent_socket_new(
	    srv->base, fd, BEV_OPT_CLOSE_ON_FREE | BEV_OPT_DEFER_CALLBACKS);
	mc->deadline = evtimer_new(srv->base, metrics_deadline_cb, mc);
	if (mc->bev == NULL || mc->deadline == NULL)
		fatal("out of memory");
	TAILQ_INSERT_TAIL(&m->conns, mc, entry);
	m->nconns++;
	bufferevent_setcb(
	    mc->bev, metrics_read_cb, metrics_write_cb, metrics_event_cb, mc);
	bufferevent_setwatermark(mc->bev, EV_READ, 0, METRICS_HEAD_MAX);
	bufferevent_enable(mc->bev, EV_READ);
	evtimer_add(mc->deadline, &tv);
}

/* Listen on --metrics-port on every listen address (its listeners are
 * the server's, paused and closed with the others). 0, or -1 logged. */
int
metrics_start(struct server *srv)
{
	const struct config *cfg = &srv->cfg;
	static const char *const all[] = {"0.0.0.0", "::"};
	const char *const *hosts = cfg->nlisten > 0 ? cfg->listen : all;
	int nhosts = cfg->nlisten > 0 ? cfg->nlisten : 2, i, bound = 0;
	char err[160];

	if (cfg->metrics_port < 0)
		return 0;
	srv->metrics = xcalloc(1, sizeof *srv->metrics);
	srv->metrics->srv = srv;
	TAILQ_INIT(&srv->metrics->conns);
	srv->metrics->from = proxy_list_new(
	    "--metrics-from", cfg->metrics_from, err, sizeof err);
	if (srv->metrics->from == NULL) {
		log_error("%s", err);
		return -1;
	}
	for (i = 0; i < nhosts; i++) {
		int n = net_bind_port(srv, hosts[i], cfg->metrics_port,
		    metrics_accept_cb, srv->listeners + srv->nlisteners,
		    SERVER_LISTENERS_MAX - srv->nlisteners, "metrics");

		if (n < 0 && cfg->nlisten > 0)
			return -1;
		if (n > 0) {
			srv->nlisteners += n;
			bound += n;
		}
	}
	if (bound == 0)
		return -1;
	log_info("metrics for %s", cfg->metrics_from);
	return 0;
}

/* Close every scrape (at exit; the listeners are net.c's to free). */
void
metrics_stop(struct server *srv)
{
	struct metrics_conn *mc;

	if (srv->metrics == NULL)
		return;
	while ((mc = TAILQ_FIRST(&srv->metrics->conns)) != NULL)
		metrics_conn_free(mc);
	proxy_list_free(srv->metrics->from);
	free(srv->metrics);
	srv->metrics = NULL;
}
