/*
 * bucket.c: a token bucket, the one rate limiter of the server: it gains
 * tokens at a rate up to a cap, and a use takes one (limit.c counts
 * messages, failed logins, new names and kept games with it; log lines
 * too).
 */
#include "server/base/base.h"

/* Refill a bucket that gains `per_ms` tokens a millisecond up to `cap`. */
void
bucket_refill(struct bucket *b, double per_ms, double cap, int64_t now)
{
	if (!b->used) {
		b->tokens = cap;
		b->at = now;
		b->used = 1;
		return;
	}
	if (now > b->at)
		b->tokens += (double)(now - b->at) * per_ms;
	if (b->tokens > cap)
		b->tokens = cap;
	b->at = now;
}

/* 1 when the bucket holds a whole token (after refilling); takes none. */
int
bucket_has(struct bucket *b, double per_ms, double cap, int64_t now)
{
	bucket_refill(b, per_ms, cap, now);
	return b->tokens >= 1.0;
}

/* Milliseconds until the bucket holds a whole token again. */
int64_t
bucket_wait_ms(const struct bucket *b, double per_ms)
{
	if (b->tokens >= 1.0 || per_ms <= 0)
		return 0;
	return (int64_t)((1.0 - b->tokens) / per_ms) + 1;
}
