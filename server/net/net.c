/*
 * net.c: sockets. Listening (IPv4 and IPv6), accepting with a back-off when
 * descriptors run out, one bufferevent per connection (a WebSocket's
 * input and output are ws.c's, which frames them), lines out of the
 * protocol framer into the session, capped output, and closing: a
 * connection is never freed inside its own callback but marked dead and
 * freed by the reaper event; closing has a deadline (its last output and
 * the lingering together), whatever the peer does meanwhile. Out of
 * descriptors, every listener (the web and TLS ones too) pauses.
 *
 * Writing: a connection's write event is armed only while the socket
 * would block. Output added in a loop pass lists its connection; the
 * flusher event, run at the end of the pass, writes each listed one at
 * once (a reply and the events behind it in one writev) and arms the
 * write event only for bytes the kernel did not take. (libevent's
 * bufferevent arms the write event when output is added and disarms it
 * when the output empties: two epoll_ctl calls per message.)
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/listener.h>
#include <event2/util.h>

#include "server/net/net.h"
#include "server/net/limit.h"

/* Seconds to stop accepting on every listener after accept() ran out of
 * descriptors (or memory): long enough not to spin, short enough that
 * clients waiting in the backlog are taken soon after. */
#define NET_ACCEPT_RETRY_SEC 1
/* TCP keepalive: probe after 60 s idle, every 10 s, give up after 5, so a
 * half-open connection is found in about two minutes. */
#define NET_KEEPIDLE 60
#define NET_KEEPINTVL 10
#define NET_KEEPCNT 5
/* Seconds the server waits for clients to take their last bytes at
 * shutdown. */
#define NET_SHUTDOWN_SEC 2
/* Loop passes run after the loop ended, at most, for libevent to finish
 * freeing the bufferevents of the last pass (a pass runs at most 32 of
 * its deferred callbacks at once, the rest wait for the next): a bound
 * far above what thousands of connections need. */
#define NET_SETTLE_PASSES 1000
/* Lingering close: after the last reply the server shuts down its
 * writing and reads (and drops) what the client still sends for at most
 * this long and this many bytes, so that the close sends no reset that
 * could destroy the reply on its way (as HTTP servers do). */
#define NET_LINGER_SEC 2
#define NET_LINGER_BYTES (256 * 1024)
/* The reused encoding buffer is given back once a message made it larger
 * than this, so a rare big reply (a long history) does not stay held. */
#define NET_ENCODED_KEEP (64 * 1024)
/* Shedding for the global output cap stops once the total is down to
 * this many eighths of it, so the next scan is some way off. */
#define NET_SHED_EIGHTHS 7
/* The longest a refused client is left unread (net_rest): a refusal's
 * wait is a budget's refill, well under this; the bound keeps a wrong
 * one from making a connection look hung. */
#define NET_REST_MAX_MS 5000

static void net_read_cb(struct bufferevent *bev, void *arg);
static void net_output_cb(
    struct evbuffer *out, const struct evbuffer_cb_info *info, void *arg);
static void net_write_cb(struct bufferevent *bev, void *arg);
static void net_event_cb(struct bufferevent *bev, short what, void *arg);
static void net_linger(struct conn *c);
static void net_shed(struct server *srv);
static size_t net_queued(struct conn *c);
static size_t net_unread(struct conn *c);
static void net_refuse(evutil_socket_t fd, const char *why);
static void net_flush_unlist(struct conn *c);
static void net_refuse_full(evutil_socket_t fd);
static struct limit_entry *net_address_limit(
    struct server *srv, evutil_socket_t fd, const struct sockaddr *sa);
static void net_tune_socket(evutil_socket_t fd);
static void net_addr_text(const struct sockaddr *sa, char *buf, size_t len);

/* What net/ counted since start (the loop's alone). */
static struct net_stats net_counted;

/* The counters, for the files of net/ to add to and metrics to read. */
struct net_stats *
net_stats(void)
{
	return &net_counted;
}

/* A refusal's name in the metrics. */
const char *
net_refusal_name(enum net_refusal r)
{
	static const char *const names[NET_REFUSALS] = {"max_clients",
	    "max_per_address", "addresses", "max_output", "max_output_total",
	    "addr_rate", "login_fails", "new_names", "games_per_hour",
	    "websocket_control", "deadline"};

	return r < NET_REFUSALS ? names[r] : "?";
}

/* The HTTP status counted at h. */
int
net_http_status(enum net_http h)
{
	static const int codes[NET_HTTPS] = {
	    101, 200, 304, 400, 403, 404, 405, 414, 431};

	return h < NET_HTTPS ? codes[h] : 0;
}

/* One HTTP response of that status was sent. */
void
net_count_http(int status)
{
	int h;

	for (h = 0; h < NET_HTTPS; h++)
		if (net_http_status((enum net_http)h) == status)
			net_counted.http[h]++;
}

/* Take a connection out of the server and free it with its socket. */
static void
net_conn_free(struct server *srv, struct conn *c)
{
	TAILQ_REMOVE(&srv->conns, c, entry);
	if (c->state == CONN_DEAD)
		TAILQ_REMOVE(&srv->dead, c, dead_entry);
	net_flush_unlist(c);
	srv->nconns--;
	/* A WebSocket sends what was still queued and its close frame, and
	 * counts on until its close is done. */
	if (c->ws != NULL) {
		evbuffer_remove_cb(c->out, net_output_cb, c);
		ws_conn_freed(c->ws);
	} else if (c->bev != NULL) {
		/* a pair's other end hears the end of the stream, with
		 * what was still queued */
		if (c->relay)
			bufferevent_flush(c->bev, EV_WRITE, BEV_FINISHED);
		bufferevent_free(c->bev);
	}
	proto_framer_free(c->framer);
	held_free(c);
	if (c->idle != NULL)
		event_free(c->idle);
	if (c->deadline != NULL)
		event_free(c->deadline);
	if (c->rest != NULL)
		event_free(c->rest);
	free(c);
}

/* Free every dead connection: runs as its own event, outside any
 * connection's callback. */
static void
net_reap(evutil_socket_t fd, short what, void *arg)
{
	struct server *srv = arg;
	struct conn *c;

	/* closing one may close others: they join the list's end. */
	while ((c = TAILQ_FIRST(&srv->dead)) != NULL) {
		srv->conn_ops->closed(c);
		net_conn_free(srv, c);
	}
	if (srv->shutting_down && srv->nconns == 0)
		event_base_loopexit(srv->base, NULL);
}

/* Mark a connection dead and list it for the reaper. */
static void
net_set_dead(struct conn *c)
{
	if (c->state == CONN_DEAD)
		return;
	c->state = CONN_DEAD;
	if (c->bev != NULL)
		bufferevent_disable(c->bev, EV_READ | EV_WRITE);
	net_flush_unlist(c);
	TAILQ_INSERT_TAIL(&c->srv->dead, c, dead_entry);
	event_active(c->srv->reaper, 0, 0);
}

/* A closing connection's deadline passed: it goes, whatever is left;
 * unless its last output still waits for the store (held.c), a wait of
 * the server's (bounded by --store-give-up), not the peer's: then it gets
 * its time again. */
static void
net_deadline_cb(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c = arg;
	struct timeval by = {SERVER_CLOSE_FLUSH_SEC + NET_LINGER_SEC, 0};

	if (c->held != NULL && !c->lingering) {
		evtimer_add(c->deadline, &by);
		return;
	}
	net_counted.refused[NET_REFUSED_DEADLINE]++;
	log_debug("conn %llu %s: its close not done in %d s; closed",
	    (unsigned long long)c->id, c->addr,
	    SERVER_CLOSE_FLUSH_SEC + NET_LINGER_SEC);
	net_set_dead(c);
}

/* Close a connection: at once, or (flush) once its output has been sent,
 * within SERVER_CLOSE_FLUSH_SEC, then lingering; both within a deadline
 * that nothing the peer sends (or takes, a byte at a time) moves. The
 * session hears of it from the reaper, so closing is safe in the middle
 * of a broadcast. */
void
net_close(struct conn *c, int flush)
{
	struct evbuffer *out = c->out;
	struct timeval tv = {SERVER_CLOSE_FLUSH_SEC, 0};
	struct timeval by = {SERVER_CLOSE_FLUSH_SEC + NET_LINGER_SEC, 0};

	if (c->state == CONN_DEAD)
		return;
	if (!flush) {
		net_set_dead(c);
		return;
	}
	if (c->lingering || c->state == CONN_FLUSHING)
		return;
	c->state = CONN_FLUSHING;
	c->deadline = evtimer_new(c->srv->base, net_deadline_cb, c);
	if (c->deadline == NULL)
		fatal("out of memory");
	evtimer_add(c->deadline, &by);
	/* A WebSocket's lines are framed when it is freed, behind what it
	 * sent (a line not ended, a text-mode prompt, is dropped then). */
	if ((evbuffer_get_length(out) == 0 || c->bev == NULL) &&
	    c->held == NULL) {
		net_linger(c);
		return;
	}
	if (c->bev == NULL) /* a WebSocket: read no more lines */
		return;
	bufferevent_disable(c->bev, EV_READ);
	bufferevent_set_timeouts(c->bev, NULL, &tv);
}

/* Is c within its output cap: under --max-output bytes queued and
 * unread? 0 after dropping it (it is not reading, and must never slow
 * anyone else) with the reason logged; len: the message at hand. */
static int
net_output_room(struct conn *c, size_t len)
{
	size_t queued = net_unread(c);

	if (queued < c->srv->cfg.output_max)
		return 1;
	net_counted.refused[NET_REFUSED_OUTPUT]++;
	log_warn(
	    "conn %llu %s%s%s: not reading, dropping it: %zu bytes "
	    "queued unread (--max-output %zu), a %zu-byte message not sent",
	    (unsigned long long)c->id, c->addr, c->lim_name != NULL ? " " : "",
	    c->lim_name != NULL ? c->lim_name->key + 2 : "", queued,
	    c->srv->cfg.output_max, len);
	net_close(c, 0);
	return 0;
}

/* len bytes were queued for c: counted against --max-output-total. */
static void
net_output_count(struct conn *c, size_t len)
{
	c->srv->queued += len;
	if (c->srv->queued > c->srv->cfg.output_total_max)
		net_shed(c->srv);
}

/* Queue bytes for a client. One that already has --max-output bytes
 * queued and unread is not reading and is dropped, so it never slows
 * anyone else; the cap counts what is queued, not the message at hand
 * (every reply is bounded, see SERVER_STATE_HISTORY_MAX), so a reader
 * always gets its reply. */
void
net_send(struct conn *c, const char *data, size_t len)
{
	if (c->state == CONN_DEAD || !net_output_room(c, len))
		return;
	held_add(c, data, len);
	net_output_count(c, len);
}

/* The transport queued len bytes for c by itself (a WebSocket's pong or
 * close frame): they count against the same caps as a reply. 0 when c
 * was dropped for them. */
int
net_output_added(struct conn *c, size_t len)
{
	if (c->state == CONN_DEAD)
		return 0;
	net_output_count(c, len);
	return c->state != CONN_DEAD && net_output_room(c, len);
}

/* msg in the connection's output mode, in the server's one reused
 * buffer: valid until the next encoding. */
static const struct proto_out *
net_encode(struct conn *c, const cJSON *msg)
{
	struct proto_out *o = &c->srv->encoded;
	int rc = c->mode == CONN_MODE_TEXT ? proto_text_encode(o, msg)
	    : c->lean                      ? proto_json_encode_lean(o, msg)
	                                   : proto_json_encode(o, msg);

	if (rc != 0)
		fatal("out of memory encoding a message");
	return o;
}

/* Done with the reused buffer: given back when a big message grew it. */
static void
net_encode_done(struct server *srv)
{
	if (srv->encoded.cap > NET_ENCODED_KEEP)
		proto_out_free(&srv->encoded);
}

/* msg went to c: the layer above may note it (an invitation) and, in
 * text mode, follow it with a line of its own ("Your move in r1 (like
 * b6):"). */
static void
net_sent(struct conn *c, const cJSON *msg)
{
	if (c->srv->conn_ops->sent != NULL)
		c->srv->conn_ops->sent(c, msg);
}

/* Send a reply or event in the connection's output mode. */
void
net_send_msg(struct conn *c, const cJSON *msg)
{
	const struct proto_out *o = net_encode(c, msg);

	net_send(c, o->p, o->len);
	net_encode_done(c->srv);
	net_sent(c, msg);
}

/* Send one message to many: encoded once per output form (JSON, lean
 * JSON, text), for the first recipient in that form, and kept in one
 * allocation of its size for the others. */
void
net_send_cached(struct conn *c, const cJSON *msg, struct net_cache *cache)
{
	struct net_encoded **e = c->mode == CONN_MODE_TEXT ? &cache->text
	    : c->lean                                      ? &cache->lean
	                                                   : &cache->json;

	if (*e == NULL) {
		const struct proto_out *o = net_encode(c, msg);

		*e = xmalloc(sizeof **e + o->len);
		(*e)->len = o->len;
		memcpy((*e)->text, o->p, o->len);
		net_encode_done(c->srv);
	}
	net_send(c, (*e)->text, (*e)->len);
	net_sent(c, msg);
}

void
net_cache_clear(struct net_cache *cache)
{
	free(cache->json);
	free(cache->lean);
	free(cache->text);
	cache->json = cache->lean = cache->text = NULL;
}

/*
 * Everything is sent: shut down writing and read for NET_LINGER_SEC what
 * the client still sends, dropping it, so that the close does not reset
 * the connection (a reset can destroy the last reply before the client
 * reads it). Closed at the client's end of file, the timeout, or past
 * NET_LINGER_BYTES.
 */
static void
net_linger(struct conn *c)
{
	struct timeval tv = {NET_LINGER_SEC, 0};

	/* A WebSocket's close is its close frames (ws.c, once the
	 * connection is freed). */
	if (c->bev == NULL || c->srv->shutting_down ||
	    shutdown(bufferevent_getfd(c->bev), SHUT_WR) != 0) {
		net_set_dead(c);
		return;
	}
	c->lingering = 1;
	bufferevent_disable(c->bev, EV_WRITE);
	bufferevent_setwatermark(c->bev, EV_READ, 0, 0);
	bufferevent_set_timeouts(c->bev, &tv, NULL);
	bufferevent_enable(c->bev, EV_READ);
	evbuffer_drain(c->in, evbuffer_get_length(c->in));
}

/* A flushing connection whose held output went out (or was dropped) and
 * was sent: the lingering close starts. */
void
net_linger_now(struct conn *c)
{
	net_linger(c);
}

/* A lingering connection's input: dropped; too much of it ends the wait. */
static void
net_linger_read(struct conn *c)
{
	struct evbuffer *in = c->in;

	c->discarded += evbuffer_get_length(in);
	evbuffer_drain(in, evbuffer_get_length(in));
	if (c->discarded > NET_LINGER_BYTES)
		net_set_dead(c);
}

/* Output sent to a connection (or behind its reply) and not yet taken by
 * the kernel: what the client has not read, a WebSocket's frames (ws.c)
 * included. Output held for the store (held.c) is the server's wait, not
 * the client's, and is not counted. */
static size_t
net_unread(struct conn *c)
{
	return evbuffer_get_length(c->out) + c->deferred_bytes +
	    (c->ws != NULL ? ws_unsent(c->ws) : 0);
}

/* Output queued for a connection and not yet taken by the kernel, held
 * output included (the global cap counts all the memory). */
static size_t
net_queued(struct conn *c)
{
	return net_unread(c) + c->held_bytes;
}

/*
 * The output queued for every connection went past output_total_max:
 * count it exactly, and drop the connections furthest behind until it is
 * down to NET_SHED_EIGHTHS of the cap. srv->queued is an upper bound kept
 * cheaply between two counts (sends add, nothing subtracts).
 */
static void
net_shed(struct server *srv)
{
	size_t low = srv->cfg.output_total_max / 8 * NET_SHED_EIGHTHS;
	struct conn *c, *worst;
	size_t total = 0, most;

	TAILQ_FOREACH(c, &srv->conns, entry)
		if (c->state != CONN_DEAD && !c->lingering)
			total += net_queued(c);
	srv->queued = total;
	if (total <= srv->cfg.output_total_max)
		return;
	while (total > low) {
		worst = NULL;
		most = 0;
		TAILQ_FOREACH(c, &srv->conns, entry) {
			size_t q;

			if (c->state == CONN_DEAD || c->lingering)
				continue;
			q = net_queued(c);
			if (q > most) {
				most = q;
				worst = c;
			}
		}
		if (worst == NULL)
			break;
		limit_log(srv,
		    "conn %llu %s: %zu bytes unread while all clients "
		    "hold %zu (cap %zu): dropping it first",
		    (unsigned long long)worst->id, worst->addr, most, total,
		    srv->cfg.output_total_max);
		net_counted.refused[NET_REFUSED_OUTPUT_TOTAL]++;
		net_close(worst, 0);
		total -= most;
	}
	srv->queued = total;
}

/* Hand complete lines to the session, one at a time, until the input is
 * used up or the connection stops reading: the socket's input, or the
 * lines a WebSocket read (ws.c calls it). */
void
net_input(struct conn *c)
{
	struct evbuffer *in = c->in;

	if (c->lingering) {
		net_linger_read(c);
		return;
	}
	while (c->state == CONN_OPEN && !c->waiting && !held_blocks(c) &&
	    evbuffer_get_length(in) > 0) {
		struct evbuffer_iovec v;
		const char *line;
		size_t used, linelen;
		int toolong;

		if (evbuffer_peek(in, -1, NULL, &v, 1) < 1)
			break;
		used = proto_framer_push(c->framer, v.iov_base, v.iov_len,
		    &line, &linelen, &toolong);
		if (toolong < 0)
			fatal("out of memory reading a line");
		if (toolong) {
			evbuffer_drain(in, evbuffer_get_length(in));
			conn_error(c, NULL, PROTO_E_LINE_TOO_LONG,
			    "line longer than %zu bytes; closing",
			    c->srv->cfg.max_line);
			net_close(c, 1);
			return;
		}
		if (line != NULL) {
			net_counted.lines++;
			c->srv->conn_ops->line(c, line, linelen);
		}
		evbuffer_drain(in, used);
		if (used == 0 && line == NULL)
			break;
	}
	if (c->state == CONN_OPEN && evbuffer_get_length(in) == 0)
		proto_framer_trim(c->framer);
	/* Lines left unread (a reply is awaited) up to the input's high
	 * mark: reading stops until net_resume, since libevent runs a read
	 * callback again and again while it leaves the input at the mark
	 * with reading on (a loop that spun as long as the reply took). A
	 * WebSocket stops reading at a line's worth by itself. */
	if (c->state == CONN_OPEN && c->bev != NULL &&
	    (c->waiting || held_blocks(c)) &&
	    evbuffer_get_length(in) >= c->srv->cfg.max_line) {
		c->read_stopped = 1;
		bufferevent_disable(c->bev, EV_READ);
	}
}

/* The socket's bytes came. */
static void
net_read_cb(struct bufferevent *bev, void *arg)
{
	net_input(arg);
}

/* Go on with the lines a connection sent while it waited for a reply. */
void
net_resume(struct conn *c)
{
	if (c->state != CONN_OPEN)
		return;
	if (c->bev == NULL) {
		/* a WebSocket: its lines, then the frames behind them */
		net_input(c);
		if (c->ws != NULL && c->state == CONN_OPEN)
			ws_resume(c->ws);
		return;
	}
	bufferevent_setwatermark(c->bev, EV_READ, 0, 0);
	if (c->read_stopped) {
		c->read_stopped = 0;
		bufferevent_enable(c->bev, EV_READ);
	}
	net_input(c);
}

/*
 * Hold the lines a client sends while a reply is computed: they wait in
 * the input, which stops growing at one line's worth, so a client cannot
 * pile up input meanwhile.  Reading goes on below that, so a client that
 * hangs up is noticed (and its search cancelled) at once.
 */
void
net_pause(struct conn *c)
{
	c->waiting = 1;
	if (c->bev != NULL) /* a WebSocket stops at a line's worth itself */
		bufferevent_setwatermark(
		    c->bev, EV_READ, 0, c->srv->cfg.max_line);
}

/* A rest is over: c reads again. */
static void
net_rest_cb(evutil_socket_t fd, short what, void *arg)
{
	struct conn *c = arg;

	c->waiting = 0;
	net_resume(c);
}

/*
 * c was refused and told to ask again in ms: it reads nothing more until
 * then. What it sends meanwhile waits in its input (which stops growing
 * at a line's worth, as while a reply is computed), so a script that asks
 * again at once, in a loop, costs one refusal a wait instead of one a
 * request, and a person, who waits anyway, sees no difference.
 */
void
net_rest(struct conn *c, int64_t ms)
{
	struct timeval tv;

	if (c->state != CONN_OPEN || c->waiting || ms <= 0)
		return;
	if (ms > NET_REST_MAX_MS)
		ms = NET_REST_MAX_MS;
	if (c->rest == NULL &&
	    (c->rest = evtimer_new(c->srv->base, net_rest_cb, c)) == NULL)
		fatal("out of memory");
	net_pause(c);
	tv.tv_sec = (time_t)(ms / 1000);
	tv.tv_usec = (suseconds_t)(ms % 1000 * 1000);
	evtimer_add(c->rest, &tv);
}

/* The answer to the request net_pause held c for, computed off the loop:
 * answer(c, arg) replies as a verb's handler would (the events it causes
 * go behind its reply), then c reads again. */
void
net_answer(struct conn *c, net_answer_fn *answer, void *arg)
{
	c->waiting = 0;
	c->deferring = 1;
	answer(c, arg);
	c->deferring = 0;
	held_end_deferring(c);
	net_resume(c);
}

/* Everything written: a flushing connection with nothing held starts
 * its lingering close. */
static void
net_written(struct conn *c)
{
	if (c->state == CONN_FLUSHING && !c->lingering && c->held == NULL)
		net_linger(c);
}

/* The armed write event emptied the output: disarm it (so output added
 * later is written by the flusher again). */
static void
net_write_cb(struct bufferevent *bev, void *arg)
{
	struct conn *c = arg;

	if (c->state == CONN_DEAD ||
	    evbuffer_get_length(bufferevent_get_output(bev)) > 0)
		return;
	bufferevent_disable(bev, EV_WRITE);
	net_written(c);
}

/* Write a connection's output to its socket now; arm the write event for
 * what the kernel did not take, close it on a write error. */
static void
net_flush_conn(struct conn *c)
{
	struct evbuffer *out = c->out;
	int n, err;

	if (evbuffer_get_length(out) == 0) {
		net_written(c);
		return;
	}
	/* A WebSocket: its lines framed into its socket's output and
	 * written now (ws.c); the output is empty then. */
	if (c->bev == NULL) {
		if (c->ws != NULL)
			ws_send(c->ws);
		if (c->state != CONN_DEAD)
			net_written(c);
		return;
	}
	/* TLS connections and pairs: the bufferevent writes (or hands on)
	 * by itself, and calls net_write_cb once the output is empty. */
	if (c->bev_writes) {
		bufferevent_enable(c->bev, EV_WRITE);
		return;
	}
	/* A bufferevent keeps its output's start frozen while it is not
	 * writing itself, as its own write callback does around a write. */
	evbuffer_unfreeze(out, 1);
	n = evbuffer_write(out, bufferevent_getfd(c->bev));
	err = errno;
	evbuffer_freeze(out, 1);
	if (n < 0 && err != EAGAIN && err != EWOULDBLOCK && err != EINTR) {
		log_debug("conn %llu %s: closed (write: %s)",
		    (unsigned long long)c->id, c->addr, strerror(err));
		net_close(c, 0);
		return;
	}
	if (evbuffer_get_length(out) > 0) {
		bufferevent_enable(c->bev, EV_WRITE);
		return;
	}
	net_written(c);
}

/* The end of a loop pass: write every connection given output in it. */
static void
net_flush_cb(evutil_socket_t fd, short what, void *arg)
{
	struct server *srv = arg;
	struct conn *c;

	(void)fd;
	(void)what;
	while ((c = TAILQ_FIRST(&srv->to_flush)) != NULL) {
		net_flush_unlist(c);
		net_flush_conn(c);
	}
}

/* Output was added to c: list it for the flusher unless the armed write
 * event will take it (or it cannot be written any more). */
static void
net_output_cb(
    struct evbuffer *out, const struct evbuffer_cb_info *info, void *arg)
{
	struct conn *c = arg;
	struct server *srv = c->srv;

	(void)out;
	if (info->n_added == 0 || c->to_flush || c->state == CONN_DEAD ||
	    c->lingering ||
	    (c->bev != NULL && (bufferevent_get_enabled(c->bev) & EV_WRITE)))
		return;
	c->to_flush = 1;
	TAILQ_INSERT_TAIL(&srv->to_flush, c, flush_entry);
	event_active(srv->flusher, 0, 0);
}

/* Take c off the flusher's list. */
static void
net_flush_unlist(struct conn *c)
{
	if (!c->to_flush)
		return;
	c->to_flush = 0;
	TAILQ_REMOVE(&c->srv->to_flush, c, flush_entry);
}

static void
net_event_cb(struct bufferevent *bev, short what, void *arg)
{
	struct conn *c = arg;

	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR | BEV_EVENT_TIMEOUT)) {
		log_debug("conn %llu %s: closed (%s)",
		    (unsigned long long)c->id, c->addr,
		    (what & BEV_EVENT_EOF)           ? "eof"
		        : (what & BEV_EVENT_TIMEOUT) ? "timeout"
		                                     : "error");
		net_close(c, 0);
	}
}

/* TCP_NODELAY for prompt replies; keepalive to find half-open peers. */
static void
net_tune_socket(evutil_socket_t fd)
{
	int one = 1, idle = NET_KEEPIDLE, intvl = NET_KEEPINTVL;
	int cnt = NET_KEEPCNT;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &one, sizeof one);
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle);
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof intvl);
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof cnt);
}

/* Tell a client we are full, in one line straight on the socket. */
static void
net_refuse_full(evutil_socket_t fd)
{
	net_refuse(fd, "the server is full; try again later");
}

/* Refuse a connection with one server_full line saying why. */
static void
net_refuse(evutil_socket_t fd, const char *why)
{
	cJSON *e = proto_error_reply(NULL, PROTO_E_SERVER_FULL, why);
	char *s = proto_json_line(e);

	if (s != NULL &&
	    send(fd, s, strlen(s), MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
		log_debug("server_full notice not sent: %s", strerror(errno));
	free(s);
	cJSON_Delete(e);
	evutil_closesocket(fd);
}

static void
net_addr_text(const struct sockaddr *sa, char *buf, size_t len)
{
	char host[64] = "?";
	int port = 0;

	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const void *)sa;

		evutil_inet_ntop(AF_INET, &in->sin_addr, host, sizeof host);
		port = ntohs(in->sin_port);
	} else if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const void *)sa;

		evutil_inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof host);
		port = ntohs(in6->sin6_port);
	}
	snprintf(buf, len, "%s:%d", host, port);
}

/* The limits of a new connection's address, or NULL after refusing it
 * (too many connections from there, or no room to count them). */
static struct limit_entry *
net_address_limit(
    struct server *srv, evutil_socket_t fd, const struct sockaddr *sa)
{
	char key[SERVER_LIMIT_KEY], where[64];
	struct limit_entry *lim;
	int remote;

	limit_addr_key(sa, key, sizeof key);
	lim = limit_get(srv, key);
	if (lim == NULL) {
		net_counted.refused[NET_REFUSED_ADDRESSES]++;
		limit_log(
		    srv, "too many addresses to track: refusing %s", key + 2);
		net_refuse_full(fd);
		return NULL;
	}
	/* In a cluster the other nodes' connections from there count too
	 * (as last reported: cluster_limit.c). */
	remote = limit_remote_conns(srv, lim);
	if (lim->refs + remote < srv->cfg.max_per_addr)
		return lim;
	net_counted.refused[NET_REFUSED_ADDR_CONNS]++;
	net_addr_text(sa, where, sizeof where);
	limit_log(srv,
	    "%s: %d connections from that address already (%d on other "
	    "nodes): refusing",
	    where, lim->refs + remote, remote);
	net_refuse(fd, "too many connections from your address");
	return NULL;
}

/* Is there room for one more connection (on fd)? 1, or 0 after refusing
 * and closing it (shutting down, --max-clients reached). Connections
 * waiting for their PROXY header (proxy.c) count. */
int
net_admit_room(struct server *srv, evutil_socket_t fd)
{
	if (srv->shutting_down) {
		evutil_closesocket(fd);
		return 0;
	}
	if (srv->nconns + srv->nweb + proxy_waiting(srv) >=
	    srv->cfg.max_clients) {
		net_counted.refused[NET_REFUSED_CLIENTS]++;
		limit_log(srv, "client limit %d reached: refusing a connection",
		    srv->cfg.max_clients);
		net_refuse_full(fd);
		return 0;
	}
	return 1;
}

/* May the server take a connection on fd from sa (the client's address:
 * behind a trusted proxy, the one its PROXY header said)? Its address's
 * limits (with a reference taken by the caller's connection), or NULL
 * after refusing and closing it (shutting down, full, too many from
 * there). */
struct limit_entry *
net_admit(struct server *srv, evutil_socket_t fd, const struct sockaddr *sa)
{
	struct limit_entry *lim;

	if (!net_admit_room(srv, fd))
		return NULL;
	if ((lim = net_address_limit(srv, fd, sa)) == NULL)
		return NULL;
	net_tune_socket(fd);
	return lim;
}

/* How c reached the server. */
static enum net_transport
net_transport(const struct conn *c)
{
	return c->bev == NULL || c->relay ? NET_WEBSOCKET
	    : c->bev_writes               ? NET_TLS
	                                  : NET_TCP;
}

/* The open connections by transport, and the output waiting for them:
 * unread (sent, not taken by the kernel) and held for the store. */
void
net_count_conns(
    struct server *srv, int conns[NET_TRANSPORTS], size_t *unread, size_t *held)
{
	struct conn *c;

	memset(conns, 0, NET_TRANSPORTS * sizeof conns[0]);
	*unread = *held = 0;
	TAILQ_FOREACH(c, &srv->conns, entry) {
		if (c->state == CONN_DEAD)
			continue;
		conns[net_transport(c)]++;
		*unread += net_unread(c);
		*held += c->held_bytes;
	}
}

/* A connection from the address addr with its limits lim (a reference
 * is taken here), not yet listed: its transport is set by the caller. */
static struct conn *
net_conn_make(struct server *srv, const char *addr, struct limit_entry *lim)
{
	struct conn *c = xcalloc(1, sizeof *c);

	c->srv = srv;
	c->held_slot = -1;
	c->lim_addr = lim;
	lim->refs++;
	c->id = ++srv->next_conn_id;
	snprintf(c->addr, sizeof c->addr, "%s", addr);
	c->framer = proto_framer_new(srv->cfg.max_line);
	if (c->framer == NULL)
		fatal("out of memory accepting a connection");
	return c;
}

/* List the connection made and greet it. */
static struct conn *
net_conn_open(struct conn *c)
{
	struct server *srv = c->srv;

	if (evbuffer_add_cb(c->out, net_output_cb, c) == NULL)
		fatal("out of memory accepting a connection");
	TAILQ_INSERT_TAIL(&srv->conns, c, entry);
	srv->nconns++;
	net_counted.accepted[net_transport(c)]++;
	log_debug("conn %llu %s: accepted%s", (unsigned long long)c->id,
	    c->addr,
	    c->bev == NULL      ? " (websocket)"
	        : c->bev_writes ? " (tls)"
	                        : "");
	srv->conn_ops->open(c);
	return c;
}

/*
 * A new connection speaking the line protocol over bev, from the address
 * addr with its limits lim (a reference is taken here). bev is a plain
 * socket's bufferevent, or (bev_writes) one that must write itself: a TLS
 * one (NET_BEV_WRITES), or one end of a bufferevent pair (NET_RELAY: a
 * cluster stand-in's; its end of stream is told to the other end when
 * the connection is freed).
 */
struct conn *
net_conn_new(struct server *srv, struct bufferevent *bev, const char *addr,
    struct limit_entry *lim, int flags)
{
	struct conn *c = net_conn_make(srv, addr, lim);

	c->bev_writes = (flags & (NET_BEV_WRITES | NET_RELAY)) != 0;
	c->relay = (flags & NET_RELAY) != 0;
	c->bev = bev;
	c->in = bufferevent_get_input(bev);
	c->out = bufferevent_get_output(bev);
	bufferevent_setcb(c->bev, net_read_cb, net_write_cb, net_event_cb, c);
	bufferevent_enable(c->bev, EV_READ);
	return net_conn_open(c);
}

/* A new connection over the WebSocket ws (ws.c), whose lines read are in
 * in and whose lines to send go to out (framed by ws_send), from addr
 * with its limits lim. */
struct conn *
net_conn_new_ws(struct server *srv, struct ws *ws, struct evbuffer *in,
    struct evbuffer *out, const char *addr, struct limit_entry *lim)
{
	struct conn *c = net_conn_make(srv, addr, lim);

	c->ws = ws;
	c->in = in;
	c->out = out;
	return net_conn_open(c);
}

/* The address in words, as logs and c->addr show it. */
void
net_addr_words(const struct sockaddr *sa, char *buf, size_t len)
{
	net_addr_text(sa, buf, len);
}

/* A connection to the line protocol's port from sa (the client's
 * address). */
static void
net_accept_from(struct server *srv, evutil_socket_t fd,
    const struct sockaddr *sa, int unused)
{
	struct limit_entry *lim;
	struct bufferevent *bev;
	char addr[64];

	(void)unused;
	if ((lim = net_admit(srv, fd, sa)) == NULL)
		return;
	net_addr_text(sa, addr, sizeof addr);
	bev = bufferevent_socket_new(
	    srv->base, fd, BEV_OPT_CLOSE_ON_FREE | BEV_OPT_DEFER_CALLBACKS);
	if (bev == NULL)
		fatal("out of memory accepting a connection");
	net_conn_new(srv, bev, addr, lim, 0);
}

/* A new connection: a trusted proxy's waits for its PROXY header first. */
static void
net_accept_cb(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa,
    int socklen, void *arg)
{
	struct server *srv = arg;

	if (proxy_take(srv, fd, sa, (socklen_t)socklen, net_accept_from, 0))
		return;
	net_accept_from(srv, fd, sa, 0);
}

/* The pause after running out of descriptors is over: every listener
 * takes connections again. */
static void
net_accept_resume(evutil_socket_t fd, short what, void *arg)
{
	struct server *srv = arg;
	int i;

	if (srv->shutting_down)
		return;
	for (i = 0; i < srv->nlisteners; i++)
		evconnlistener_enable(srv->listeners[i]);
	web_listeners_enable(srv, 1);
}

/* accept() failed on any listener: out of descriptors (or memory) means
 * every listener stops for a moment instead of spinning on a listener
 * that stays readable, with one log line (rate limited) per pause. */
static void
net_accept_error(struct evconnlistener *l, void *arg)
{
	struct server *srv = arg;
	struct timeval tv = {NET_ACCEPT_RETRY_SEC, 0};
	int err = EVUTIL_SOCKET_ERROR(), i;

	if (err != EMFILE && err != ENFILE && err != ENOBUFS && err != ENOMEM) {
		limit_log(
		    srv, "accept: %s", evutil_socket_error_to_string(err));
		return;
	}
	net_counted.accept_pauses++;
	limit_log(srv, "accept: %s; every listener pauses %d s",
	    evutil_socket_error_to_string(err), NET_ACCEPT_RETRY_SEC);
	for (i = 0; i < srv->nlisteners; i++)
		evconnlistener_disable(srv->listeners[i]);
	web_listeners_enable(srv, 0);
	evtimer_add(srv->accept_retry, &tv);
}

/* Bind port on one address, accepting with cb: the listeners made go to
 * out (at most max), each logged as "WHAT on ADDRESS"; their number, or
 * -1 with the reason logged. */
int
net_bind_port(struct server *srv, const char *host, int port,
    evconnlistener_cb cb, struct evconnlistener **out, int max,
    const char *what)
{
	struct evutil_addrinfo hints, *res, *ai;
	char portstr[16], where[96];
	int rc, bound = 0;

	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = EVUTIL_AI_PASSIVE | EVUTIL_AI_NUMERICSERV;
	snprintf(portstr, sizeof portstr, "%d", port);
	rc = evutil_getaddrinfo(host, portstr, &hints, &res);
	if (rc != 0) {
		log_error("listen %s: %s", host, evutil_gai_strerror(rc));
		return -1;
	}
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		struct evconnlistener *l;
		struct sockaddr_storage ss;
		socklen_t sl = sizeof ss;
		evutil_socket_t fd;
		int one = 1;

		if (bound == max)
			break;
		fd = socket(ai->ai_family, SOCK_STREAM, 0);
		if (fd < 0)
			continue;
		evutil_make_socket_nonblocking(fd);
		evutil_make_socket_closeonexec(fd);
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
		if (ai->ai_family == AF_INET6)
			setsockopt(
			    fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
			log_error(
			    "bind %s port %d: %s", host, port, strerror(errno));
			evutil_closesocket(fd);
			continue;
		}
		l = evconnlistener_new(srv->base, cb, srv,
		    LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE, srv->cfg.backlog,
		    fd);
		if (l == NULL) {
			log_error("listen %s: %s", host, strerror(errno));
			evutil_closesocket(fd);
			continue;
		}
		evconnlistener_set_error_cb(l, net_accept_error);
		out[bound++] = l;
		if (getsockname(fd, (struct sockaddr *)&ss, &sl) == 0) {
			net_addr_text(
			    (struct sockaddr *)&ss, where, sizeof where);
			log_info("%s on %s", what, where);
		}
	}
	evutil_freeaddrinfo(res);
	return bound > 0 ? bound : -1;
}

/* Bind the line protocol's port on one address; 0, or -1 logged. */
static int
net_bind(struct server *srv, const char *host)
{
	int n = net_bind_port(srv, host, srv->cfg.port, net_accept_cb,
	    srv->listeners + srv->nlisteners,
	    SERVER_LISTENERS_MAX - srv->nlisteners, "listening");

	if (n < 0)
		return -1;
	srv->nlisteners += n;
	return 0;
}

/* Bind every configured address (default: all IPv4 and IPv6 ones). 0, or
 * -1 when nothing could be bound or a named address failed. */
int
net_listen(struct server *srv)
{
	int i;

	srv->accept_retry = evtimer_new(srv->base, net_accept_resume, srv);
	srv->reaper = event_new(srv->base, -1, 0, net_reap, srv);
	srv->flusher = event_new(srv->base, -1, 0, net_flush_cb, srv);
	if (srv->accept_retry == NULL || srv->reaper == NULL ||
	    srv->flusher == NULL)
		fatal("out of memory");
	if (proxy_init(srv) != 0)
		return -1;
	if (srv->cfg.nlisten == 0) {
		int v4 = net_bind(srv, "0.0.0.0");
		int v6 = net_bind(srv, "::");

		return (v4 == 0 || v6 == 0) ? 0 : -1;
	}
	for (i = 0; i < srv->cfg.nlisten; i++)
		if (net_bind(srv, srv->cfg.listen[i]) != 0)
			return -1;
	return 0;
}

static void
net_shutdown_timeout(evutil_socket_t fd, short what, void *arg)
{
	struct server *srv = arg;

	event_base_loopexit(srv->base, NULL);
}

/* Tell every client we are going, stop listening, and leave the loop once
 * they have their last bytes (or after NET_SHUTDOWN_SEC). */
void
net_shutdown(struct server *srv)
{
	struct timeval tv = {NET_SHUTDOWN_SEC, 0};
	struct conn *c;
	int i;

	if (srv->shutting_down)
		return;
	srv->shutting_down = 1;
	for (i = 0; i < srv->nlisteners; i++)
		evconnlistener_disable(srv->listeners[i]);
	web_stop(srv);
	proxy_stop(srv);
	TAILQ_FOREACH(c, &srv->conns, entry) {
		cJSON *ev;

		if (c->state != CONN_OPEN)
			continue;
		ev = proto_event(PROTO_EV_SHUTDOWN, NULL, 0);
		/* The event says it shuts down; the message adds what
		 * people want to know (text mode: "The server is shutting
		 * down: your games are saved..."). */
		proto_sentence(ev, "message",
		    "your games are saved; come back with hello NAME TOKEN "
		    "when it is up again");
		net_send_msg(c, ev);
		cJSON_Delete(ev);
		net_close(c, 1);
	}
	srv->shutdown_timer = evtimer_new(srv->base, net_shutdown_timeout, srv);
	evtimer_add(srv->shutdown_timer, &tv);
	event_active(srv->reaper, 0, 0);
}

/*
 * The loop has ended: run what libevent still has active without
 * waiting. A freed bufferevent is finalized by callbacks in later passes,
 * which the last pass (the reaper freeing every connection at shutdown)
 * leaves queued; event_base_free would drop them and the bufferevents.
 * Nothing is freed yet, so the callbacks find everything as in the loop.
 */
void
net_settle(struct server *srv)
{
	int i;

	for (i = 0; i < NET_SETTLE_PASSES &&
	     event_base_get_num_events(srv->base, EVENT_BASE_COUNT_ACTIVE) > 0;
	     i++)
		event_base_loop(srv->base, EVLOOP_NONBLOCK);
}

/* Free every connection and listener (after the loop has ended). */
void
net_free_all(struct server *srv)
{
	struct conn *c;
	int i;

	while ((c = TAILQ_FIRST(&srv->conns)) != NULL)
		net_conn_free(srv, c);
	proto_out_free(&srv->encoded);
	proxy_free_all(srv);
	for (i = 0; i < srv->nlisteners; i++)
		evconnlistener_free(srv->listeners[i]);
	srv->nlisteners = 0;
	if (srv->accept_retry != NULL)
		event_free(srv->accept_retry);
	if (srv->reaper != NULL)
		event_free(srv->reaper);
	if (srv->flusher != NULL)
		event_free(srv->flusher);
	if (srv->shutdown_timer != NULL)
		event_free(srv->shutdown_timer);
}
