/*
 * main.c: tablero's start and end: the command line
 * (tablero [HOST[:PORT]] [--name NAME] [--no-color] [--batch]), the event
 * loop shared by the socket and the terminal, and the exit code
 * (docs/tablero.1 lists them).
 */
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event2/event.h>

#include "client-cli/client.h"

static const struct option main_options[] = {
    {"name", required_argument, NULL, 'n'},
    {"no-color", no_argument, NULL, 'C'},
    {"no-colour", no_argument, NULL, 'C'},
    {"batch", no_argument, NULL, 'b'},
    {"tls", no_argument, NULL, 'T'},
    {"tls-pin", required_argument, NULL, 'P'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0},
};

/* --help. */
static void
main_usage(FILE *f)
{
	fprintf(f,
	    "usage: tablero [HOST[:PORT]] [--name NAME] [--no-color] "
	    "[--batch] [--tls [--tls-pin FILE]]\n"
	    "Play board games on a tablerod server (default %s:%s).\n"
	    "\n"
	    "  --name NAME  log in as NAME (asked once when not given); the\n"
	    "               token is kept in $XDG_CONFIG_HOME/tablero/\n"
	    "  --no-color   plain ASCII, no colour (also: NO_COLOR set)\n"
	    "  --batch      read commands (shorthand or JSON) from stdin,\n"
	    "               print replies and events as JSON lines\n"
	    "  --tls        connect with TLS (default port %s), the server's\n"
	    "               certificate checked against the system's store\n"
	    "  --tls-pin FILE  with --tls: trust only the certificate in\n"
	    "               FILE (PEM; a self-signed one), whatever its name\n"
	    "  --help       this text\n"
	    "  --version    the version\n"
	    "\n"
	    "Exit: 0 done, 1 usage, 2 cannot connect, 3 login refused,\n"
	    "4 connection lost (batch), 5 internal error. See tablero(1).\n",
	    CLIENT_DEFAULT_HOST, CLIENT_DEFAULT_PORT, CLIENT_TLS_PORT);
}

/* HOST, HOST:PORT, [V6]:PORT or :PORT into the options; 0 or -1. */
static int
main_host(struct client_opts *o, const char *arg)
{
	const char *colon = strrchr(arg, ':');
	size_t hlen;

	if (arg[0] == '[') {
		const char *end = strchr(arg, ']');
		if (end == NULL)
			return -1;
		hlen = (size_t)(end - arg - 1);
		if (hlen == 0 || hlen >= sizeof o->host)
			return -1;
		memcpy(o->host, arg + 1, hlen);
		o->host[hlen] = '\0';
		colon = end[1] == ':' ? end + 1 : NULL;
	} else {
		if (colon != NULL && strchr(arg, ':') != colon)
			colon = NULL; /* a bare IPv6 address */
		hlen = colon != NULL ? (size_t)(colon - arg) : strlen(arg);
		if (hlen >= sizeof o->host)
			return -1;
		if (hlen > 0) {
			memcpy(o->host, arg, hlen);
			o->host[hlen] = '\0';
		}
	}
	if (colon != NULL) {
		const char *p = colon + 1;
		long port = strtol(p, NULL, 10);
		if (*p == '\0' || strspn(p, "0123456789") != strlen(p) ||
		    port < 1 || port > 65535)
			return -1;
		snprintf(o->port, sizeof o->port, "%ld", port);
	}
	return 0;
}

/* Parse the command line; -1 on a usage error, 1 when done (help). */
static int
main_args(struct client_opts *o, int argc, char **argv)
{
	int ch;

	snprintf(o->host, sizeof o->host, "%s", CLIENT_DEFAULT_HOST);
	snprintf(o->port, sizeof o->port, "%s", CLIENT_DEFAULT_PORT);
	o->color = 1;
	while ((ch = getopt_long(argc, argv, "n:", main_options, NULL)) != -1) {
		switch (ch) {
		case 'n':
			if (strlen(optarg) >= sizeof o->name)
				return -1;
			snprintf(o->name, sizeof o->name, "%s", optarg);
			break;
		case 'C':
			o->color = 0;
			break;
		case 'b':
			o->batch = 1;
			break;
		case 'T':
			o->tls = 1;
			break;
		case 'P':
			if (strlen(optarg) >= sizeof o->tls_pin)
				return -1;
			snprintf(o->tls_pin, sizeof o->tls_pin, "%s", optarg);
			o->tls = 1;
			break;
		case 'h':
			main_usage(stdout);
			return 1;
		case 'V':
			printf("tablero %s (protocol %d)\n", CLIENT_VERSION,
			    PROTO_VERSION);
			return 1;
		default:
			return -1;
		}
	}
	if (o->tls)
		snprintf(o->port, sizeof o->port, "%s", CLIENT_TLS_PORT);
	if (optind < argc && main_host(o, argv[optind++]) != 0)
		return -1;
	if (optind < argc)
		return -1;
	return 0;
}

/* Colour only for a terminal, and never when NO_COLOR is set. */
static void
main_color(struct client_opts *o)
{
	const char *no = getenv("NO_COLOR");
	const char *term = getenv("TERM");

	if ((no != NULL && no[0] != '\0') || !isatty(STDOUT_FILENO) ||
	    o->batch || term == NULL || strcmp(term, "dumb") == 0)
		o->color = 0;
}

int
main(int argc, char **argv)
{
	struct client c;
	int rc;

	memset(&c, 0, sizeof c);
	room_clear(&c.room);
	rc = main_args(&c.opts, argc, argv);
	if (rc != 0) {
		if (rc < 0)
			main_usage(stderr);
		return rc < 0 ? CLIENT_EXIT_USAGE : CLIENT_EXIT_OK;
	}
	main_color(&c.opts);
	signal(SIGPIPE, SIG_IGN);
	c.out = stdout;
	c.base = event_base_new();
	if (c.base == NULL)
		return CLIENT_EXIT_INTERNAL;
	if (c.opts.name[0] == '\0' && !c.opts.batch)
		token_last_name(&c.opts, c.opts.name, sizeof c.opts.name);
	rc = c.opts.batch || !isatty(STDIN_FILENO) ? batch_start(&c)
	                                           : term_start(&c);
	if (rc != 0 || conn_start(&c) != 0) {
		term_stop(&c);
		batch_stop(&c);
		event_base_free(c.base);
		return rc != 0 ? CLIENT_EXIT_INTERNAL : CLIENT_EXIT_CONNECT;
	}
	event_base_dispatch(c.base);
	term_stop(&c);
	batch_stop(&c);
	conn_stop(&c);
	if (c.retry != NULL)
		event_free(c.retry);
	session_free(&c);
	event_base_free(c.base);
	return c.exit_code;
}
