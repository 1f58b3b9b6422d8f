/*
 * echod.c: the benchmarks' baseline, a minimal libevent line-echo server
 * built with tablerod's flags. It greets each connection with one welcome
 * line (as tablerod does) and sends every line back as it came, so the
 * load generator drives both the same way: what is left of tablerod's
 * figure against this one is the cost of tablerod itself.
 * Usage: echod [-p PORT] [-b BACKLOG]; prints "listening on 127.0.0.1:PORT".
 */
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>

/* Longest line echoed: tablerod's default line limit. */
#define ECHOD_LINE_MAX 8192
/* The greeting, standing for tablerod's welcome event. */
#define ECHOD_WELCOME "{\"event\":\"welcome\",\"server\":\"echod\"}\n"

/* Echo every complete line; close a connection whose line is too long
 * (libevent holds the free until the callback returns, and echod keeps no
 * list of connections that a free could break). */
static void
echod_read(struct bufferevent *bev, void *arg)
{
	struct evbuffer *in = bufferevent_get_input(bev);
	struct evbuffer *out = bufferevent_get_output(bev);
	size_t len;
	char *line;

	while ((line = evbuffer_readln(in, &len, EVBUFFER_EOL_CRLF)) != NULL) {
		evbuffer_add(out, line, len);
		evbuffer_add(out, "\n", 1);
		free(line);
	}
	if (evbuffer_get_length(in) > ECHOD_LINE_MAX)
		bufferevent_free(bev);
}

static void
echod_event(struct bufferevent *bev, short what, void *arg)
{
	if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR))
		bufferevent_free(bev);
}

static void
echod_accept(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa,
    int socklen, void *arg)
{
	struct event_base *base = arg;
	struct bufferevent *bev;
	int one = 1;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	bev = bufferevent_socket_new(base, fd, BEV_OPT_CLOSE_ON_FREE);
	if (bev == NULL) {
		evutil_closesocket(fd);
		return;
	}
	bufferevent_setcb(bev, echod_read, NULL, echod_event, NULL);
	bufferevent_enable(bev, EV_READ | EV_WRITE);
	bufferevent_write(bev, ECHOD_WELCOME, strlen(ECHOD_WELCOME));
}

static void
echod_stop(evutil_socket_t sig, short what, void *arg)
{
	event_base_loopexit(arg, NULL);
}

/* As many open files as the hard limit allows: one per connection. */
static void
echod_raise_files(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

int
main(int argc, char **argv)
{
	struct sockaddr_in sin;
	socklen_t sl = sizeof sin;
	struct event_base *base;
	struct evconnlistener *l;
	struct event *term;
	int c, port = 0, backlog = SOMAXCONN;

	while ((c = getopt(argc, argv, "p:b:")) != -1) {
		if (c == 'p')
			port = atoi(optarg);
		else if (c == 'b')
			backlog = atoi(optarg);
		else {
			fprintf(
			    stderr, "usage: echod [-p PORT] [-b BACKLOG]\n");
			return 2;
		}
	}
	signal(SIGPIPE, SIG_IGN);
	echod_raise_files();
	base = event_base_new();
	if (base == NULL)
		return 1;
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sin.sin_port = htons((unsigned short)port);
	l = evconnlistener_new_bind(base, echod_accept, base,
	    LEV_OPT_CLOSE_ON_FREE | LEV_OPT_REUSEABLE, backlog,
	    (struct sockaddr *)&sin, sizeof sin);
	if (l == NULL) {
		perror("echod: listen");
		return 1;
	}
	getsockname(evconnlistener_get_fd(l), (struct sockaddr *)&sin, &sl);
	printf("listening on 127.0.0.1:%d\n", ntohs(sin.sin_port));
	fflush(stdout);
	term = evsignal_new(base, SIGTERM, echod_stop, base);
	event_add(term, NULL);
	event_base_dispatch(base);
	event_free(term);
	evconnlistener_free(l);
	event_base_free(base);
	return 0;
}
