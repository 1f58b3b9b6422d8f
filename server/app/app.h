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

/* sweep.c: housekeeping every second */
void sweep_start(struct server *srv);
void sweep_stop(struct server *srv);

#endif
