/*
 * test_flags.c: tablerod's flag table: defaults, parsing of each type with
 * its ranges, and --help made from the same rows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/app/app.h"
#include "tests/unit/check.h"

static void
test_defaults(void)
{
	struct config cfg;

	flags_defaults(&cfg);
	CHECK_INT(cfg.port, TABLEROD_PORT);
	CHECK_INT(cfg.log_level, LOG_LEVEL_INFO);
	CHECK_INT(cfg.sync_full, 1);
	CHECK_INT(cfg.max_line, SERVER_LINE_MAX);
	CHECK_INT(cfg.max_clients, SERVER_CLIENTS_MAX);
	CHECK_INT(cfg.max_rooms_per_player, SERVER_ROOMS_PER_PLAYER);
	CHECK_INT(cfg.max_watchers, SERVER_WATCHERS_MAX);
	CHECK_INT(cfg.grace_sec, SERVER_GRACE_SEC);
	CHECK_INT(cfg.idle_sec, SERVER_HELLO_IDLE_SEC);
	CHECK_INT(cfg.output_max, SERVER_OUTPUT_MAX);
	CHECK_INT(cfg.rate, SERVER_RATE_PER_SEC);
	CHECK_INT(cfg.burst, SERVER_RATE_BURST);
	CHECK_INT(cfg.bot_delay_ms, SERVER_BOT_DELAY_MS);
	CHECK_INT(cfg.adjourn_days, SERVER_ADJOURN_DAYS);
	CHECK_INT(cfg.ended_keep_sec, SERVER_ENDED_KEEP_SEC);
	CHECK_INT(cfg.hint_nodes, SERVER_HINT_NODES);
	CHECK(cfg.workers >= 1 && cfg.workers <= SERVER_WORKERS_MAX);
	CHECK(cfg.db == NULL && cfg.pidfile == NULL && cfg.nlisten == 0);
	CHECK_INT(cfg.daemon, 0);
}

static void
test_set(void)
{
	struct config cfg;
	char err[256];
	int i;

	flags_defaults(&cfg);
	CHECK_INT(flags_set(&cfg, "port", "0", err, sizeof err), 0);
	CHECK_INT(cfg.port, 0);
	CHECK_INT(flags_set(&cfg, "port", "65536", err, sizeof err), -1);
	CHECK_STR(err, "--port must be a whole number from 0 to 65535");
	CHECK_INT(flags_set(&cfg, "port", "12x", err, sizeof err), -1);
	CHECK_INT(flags_set(&cfg, "port", "", err, sizeof err), -1);
	CHECK_INT(cfg.port, 0);
	CHECK_INT(flags_set(&cfg, "max-output", "4096", err, sizeof err), 0);
	CHECK_INT(cfg.output_max, 4096);
	CHECK_INT(flags_set(&cfg, "max-output", "4095", err, sizeof err), -1);
	CHECK_INT(flags_set(&cfg, "hint-nodes", "5000", err, sizeof err), 0);
	CHECK_INT(cfg.hint_nodes, 5000);
	CHECK_INT(flags_set(&cfg, "sync", "normal", err, sizeof err), 0);
	CHECK_INT(cfg.sync_full, 0);
	CHECK_INT(flags_set(&cfg, "sync", "full", err, sizeof err), 0);
	CHECK_INT(cfg.sync_full, 1);
	CHECK_INT(flags_set(&cfg, "sync", "fast", err, sizeof err), -1);
	CHECK_INT(flags_set(&cfg, "log-level", "debug", err, sizeof err), 0);
	CHECK_INT(cfg.log_level, LOG_LEVEL_DEBUG);
	CHECK_INT(flags_set(&cfg, "log-level", "warn", err, sizeof err), 0);
	CHECK_INT(cfg.log_level, LOG_LEVEL_WARN);
	CHECK_INT(flags_set(&cfg, "db", ":memory:", err, sizeof err), 0);
	CHECK_STR(cfg.db, ":memory:");
	CHECK_INT(flags_set(&cfg, "daemon", NULL, err, sizeof err), 0);
	CHECK_INT(cfg.daemon, 1);
	for (i = 0; i < SERVER_LISTEN_MAX; i++)
		CHECK_INT(flags_set(&cfg, "listen", "::1", err, sizeof err), 0);
	CHECK_INT(cfg.nlisten, SERVER_LISTEN_MAX);
	CHECK_INT(flags_set(&cfg, "listen", "::1", err, sizeof err), -1);
	CHECK_INT(cfg.nlisten, SERVER_LISTEN_MAX);
	CHECK_INT(flags_set(&cfg, "nonesuch", "1", err, sizeof err), -1);
}

/* --help names every flag once, with the defaults of the table. */
static void
test_usage(void)
{
	static const char *const want[] = {"  -l, --listen ADDR ",
	    "  -p, --port N ", "      --db PATH|URL ",
	    "      --sync normal|full ", "  -d, --daemon ",
	    "      --bot-delay MS ", "(default 500)", "(default 7777)",
	    "(default 60)", "      --hint-nodes N ", "  -h, --help ",
	    "  -V, --version "};
	char *text = NULL, *line;
	size_t len = 0, i;
	FILE *f = open_memstream(&text, &len);

	CHECK(f != NULL);
	if (f == NULL)
		return;
	flags_usage(f);
	fclose(f);
	for (i = 0; i < sizeof want / sizeof want[0]; i++)
		CHECK(strstr(text, want[i]) != NULL);
	CHECK(strstr(text, "--bot-delay") == strstr(text, "--bot-delay MS"));
	for (line = text; line != NULL && *line != '\0';) {
		char *nl = strchr(line, '\n');

		CHECK(nl == NULL || nl - line <= 79);
		line = nl != NULL ? nl + 1 : NULL;
	}
	free(text);
}

int
main(void)
{
	test_defaults();
	test_set();
	test_usage();
	return check_done();
}
