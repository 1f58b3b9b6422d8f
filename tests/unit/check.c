/*
 * check.c: counts passed and failed checks for one unit-test binary.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

static int check_passed;
static int check_failed;
static int check_skipped;

void
check_true(int ok, const char *file, int line, const char *what)
{
	if (ok) {
		check_passed++;
		return;
	}
	check_failed++;
	printf("FAIL %s:%d: %s\n", file, line, what);
}

void
check_int(
    long long got, long long want, const char *file, int line, const char *what)
{
	check_true(got == want, file, line, what);
	if (got != want)
		printf("     got %lld, want %lld\n", got, want);
}

void
check_u64(
    uint64_t got, uint64_t want, const char *file, int line, const char *what)
{
	check_true(got == want, file, line, what);
	if (got != want)
		printf("     got %" PRIu64 ", want %" PRIu64 "\n", got, want);
}

void
check_str(const char *got, const char *want, const char *file, int line,
    const char *what)
{
	int ok = got != NULL && want != NULL && strcmp(got, want) == 0;

	check_true(ok, file, line, what);
	if (!ok)
		printf("     got \"%s\"\n     want \"%s\"\n",
		    got != NULL ? got : "(null)",
		    want != NULL ? want : "(null)");
}

void
check_skip(const char *why)
{
	printf("skipped: %s\n", why);
	check_skipped = 1;
}

/* Print the closing line and return the exit code: a test that made no
 * check and did not say it skipped fails (a loop that never ran, a main
 * that returned early). */
int
check_done(void)
{
	if (!check_skipped && check_passed + check_failed == 0)
		check_true(0, __FILE__, __LINE__, "the test made no check");
	printf("%d passed, %d failed\n", check_passed, check_failed);
	return check_failed == 0 ? 0 : 1;
}
