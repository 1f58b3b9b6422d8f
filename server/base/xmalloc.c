/*
 * xmalloc.c: the server's allocator. Out of memory is fatal (fatal() logs
 * it and aborts), so no caller checks for NULL: every allocation of the
 * server goes through these, cJSON's included (xmalloc_install() gives
 * them to cJSON, so a cJSON_Create* or cJSON_Add* never fails for lack of
 * memory either).
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "server/base/base.h"

void *
xmalloc(size_t n)
{
	void *p = malloc(n == 0 ? 1 : n);

	if (p == NULL)
		fatal("out of memory (%zu bytes)", n);
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n == 0 ? 1 : n, size == 0 ? 1 : size);

	if (p == NULL)
		fatal("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n == 0 ? 1 : n);
	if (p == NULL)
		fatal("out of memory (%zu bytes)", n);
	return p;
}

/* An array of n elements of size bytes, with room for one more: grown
 * (doubled, from first) when n has reached *cap. */
void *
xgrow(void *p, int n, int *cap, int first, size_t size)
{
	if (n < *cap)
		return p;
	*cap = *cap == 0 ? first : *cap * 2;
	return xrealloc(p, (size_t)*cap * size);
}

char *
xstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = xmalloc(n);

	memcpy(p, s, n);
	return p;
}

/* Make cJSON allocate with xmalloc; once, before any cJSON is made. */
void
xmalloc_install(void)
{
	cJSON_Hooks hooks = {xmalloc, free};

	cJSON_InitHooks(&hooks);
}
