/*
 * base.h: what every layer of the server uses and that knows none of
 * them: allocation, the log, the clock, a token bucket, a set with slots,
 * daemonising (table.h: the hash table).
 */
#ifndef TABLERO_SERVER_BASE_H
#define TABLERO_SERVER_BASE_H

#include <stddef.h>
#include <stdint.h>

/* A token bucket (bucket.c). */
struct bucket {
	double tokens;
	int64_t at; /* last refill, monotonic ms */
	int used;   /* 0: never used (counts as full) */
};

/* An unordered set of pointers, each member keeping its index (slots.c). */
struct slots {
	void **v;
	int n, cap;
};

/* log.c */
enum { LOG_LEVEL_ERROR, LOG_LEVEL_WARN, LOG_LEVEL_INFO, LOG_LEVEL_DEBUG };
/* Client bytes shown in a log line at most. */
#define LOG_CLIENT_BYTES 128
int log_level_parse(const char *name);
void log_set_level(int level);
int log_open(const char *path);
void log_reopen(void);
void log_close(void);
void log_msg(int level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void fatal(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));
const char *log_sanitize(const char *in, size_t len, char *out, size_t outlen);
#define log_error(...) log_msg(LOG_LEVEL_ERROR, __VA_ARGS__)
#define log_warn(...) log_msg(LOG_LEVEL_WARN, __VA_ARGS__)
#define log_info(...) log_msg(LOG_LEVEL_INFO, __VA_ARGS__)
#define log_debug(...) log_msg(LOG_LEVEL_DEBUG, __VA_ARGS__)

/* bucket.c */
void bucket_refill(struct bucket *b, double per_ms, double cap, int64_t now);
int bucket_has(struct bucket *b, double per_ms, double cap, int64_t now);
int64_t bucket_wait_ms(const struct bucket *b, double per_ms);

/* slots.c */
int slots_add(struct slots *s, void *p);
void *slots_del(struct slots *s, int slot);
void slots_free(struct slots *s);

/* xmalloc.c */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
void *xgrow(void *p, int n, int *cap, int first, size_t size);
char *xstrdup(const char *s);
void xmalloc_install(void);

/* daemon.c */
int daemon_detach(int *ready_fd, const char *log_file);
void daemon_ready(int fd);
int daemon_write_pidfile(const char *path);

/* clock.c (time helpers) */
int64_t clock_now_ms(void);  /* wall clock, ms since the epoch */
int64_t clock_mono_ms(void); /* monotonic ms */

#endif
