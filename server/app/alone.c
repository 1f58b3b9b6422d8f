/*
 * alone.c: tablerod-alone's optional parts: none. It is tablerod without
 * cluster/ and without hiredis, one node alone (make tablerod-alone;
 * modules.c is tablerod's list).
 */
#include <stddef.h>

#include "server/app/app.h"

const struct app_module *const app_modules[] = {NULL};
