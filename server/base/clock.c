/*
 * clock.c: the server's two clocks: wall time for what is stored, and
 * monotonic time for measuring a player's thinking time.
 */
#include <time.h>

#include "server/base/base.h"

int64_t
clock_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t
clock_mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
