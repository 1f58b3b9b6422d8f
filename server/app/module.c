/*
 * module.c: the parts of tablerod that a build may leave out, as nginx
 * lists its modules: app_modules (modules.c in tablerod, alone.c in
 * tablerod-alone) is found by name, its flags checked after parsing, and
 * each part started once the store, the listeners and the club are up,
 * and stopped in the reverse order before they go.
 */
#include <stdio.h>
#include <string.h>

#include "server/app/app.h"

/* The build's part called name, or NULL when this build has none. */
const struct app_module *
app_module_find(const char *name)
{
	int i;

	for (i = 0; app_modules[i] != NULL; i++)
		if (strcmp(app_modules[i]->name, name) == 0)
			return app_modules[i];
	return NULL;
}

/* Every part's check of cfg: 0, or -1 with the first reason in err. */
int
app_modules_check(const struct config *cfg, char *err, size_t errlen)
{
	int i;

	for (i = 0; app_modules[i] != NULL; i++)
		if (app_modules[i]->check != NULL &&
		    app_modules[i]->check(cfg, err, errlen) != 0)
			return -1;
	return 0;
}

/* Start every part, in order: 0, or -1 (logged) at the first failure. */
int
app_modules_start(struct server *srv)
{
	int i;

	for (i = 0; app_modules[i] != NULL; i++)
		if (app_modules[i]->start(srv) != 0)
			return -1;
	return 0;
}

/* Stop every part, the last started first. */
void
app_modules_stop(struct server *srv)
{
	int n = 0;

	while (app_modules[n] != NULL)
		n++;
	while (n-- > 0)
		app_modules[n]->stop(srv);
}
