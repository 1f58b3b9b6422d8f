/*
 * app.h: the program: its flags, and the housekeeping every second.
 */
#ifndef TABLERO_SERVER_APP_H
#define TABLERO_SERVER_APP_H

#include <stdio.h>

#include "server/server.h"

/* flags.c: the flags' table; parsing, defaults and --help come from it */
void flags_defaults(struct config *cfg);
void flags_parse(struct config *cfg, int argc, char **argv);
int flags_set(struct config *cfg, const char *name, const char *arg, char *err,
    size_t errlen);
void flags_usage(FILE *out);

/*
 * A part of tablerod that a build may leave out (the cluster): its flags
 * checked after parsing (0, or -1 with the reason in err; may be NULL),
 * started once the store, the listeners and the club are up (0, or -1
 * logged), stopped before they go. module.c runs them; app_modules, the
 * build's list, ends with NULL (modules.c, or alone.c).
 */
struct evbuffer;
struct app_module {
	const char *name;
	int (*check)(const struct config *cfg, char *err, size_t errlen);
	int (*start)(struct server *srv);
	void (*stop)(struct server *srv);
	/* Its figures for --metrics-port (metrics_head, metrics_one), or
	 * NULL. */
	void (*metrics)(struct server *srv, struct evbuffer *out);
};
extern const struct app_module *const app_modules[];

/* module.c */
const struct app_module *app_module_find(const char *name);
int app_modules_check(const struct config *cfg, char *err, size_t errlen);
int app_modules_start(struct server *srv);
void app_modules_stop(struct server *srv);

/* metrics.c: --metrics-port, Prometheus's text format */
/* Who may read the metrics by default: the machine itself. */
#define METRICS_FROM "127.0.0.1,::1"
int metrics_start(struct server *srv);
void metrics_stop(struct server *srv);
void metrics_head(
    struct evbuffer *out, const char *name, const char *type, const char *help);
void metrics_one(struct evbuffer *out, const char *name, const char *type,
    const char *help, unsigned long long v);

/* sweep.c: housekeeping every second */
void sweep_start(struct server *srv);
void sweep_stop(struct server *srv);

#endif
