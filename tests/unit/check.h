/*
 * check.h: the unit tests' few assertions. Each failed check prints where
 * and why; check_done() prints "N passed, M failed" and gives the exit code
 * (a failure when no check ran at all, unless check_skip() said why the
 * test does not apply here).
 */
#ifndef TABLERO_CHECK_H
#define TABLERO_CHECK_H

#include <stdint.h>

void check_true(int ok, const char *file, int line, const char *what);
void check_int(long long got, long long want, const char *file, int line,
    const char *what);
void check_u64(
    uint64_t got, uint64_t want, const char *file, int line, const char *what);
void check_str(const char *got, const char *want, const char *file, int line,
    const char *what);
int check_done(void);
/* The test does not apply here (why: printed); check_done() then passes
 * with no check. */
void check_skip(const char *why);

#define CHECK(c) check_true(!!(c), __FILE__, __LINE__, #c)
#define CHECK_INT(got, want)                                                   \
	check_int((long long)(got), (long long)(want), __FILE__, __LINE__, #got)
#define CHECK_U64(got, want)                                                   \
	check_u64((uint64_t)(got), (uint64_t)(want), __FILE__, __LINE__, #got)
#define CHECK_STR(got, want) check_str((got), (want), __FILE__, __LINE__, #got)

#endif
