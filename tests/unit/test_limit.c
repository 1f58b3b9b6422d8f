/*
 * test_limit.c: the server's abuse accounting and player lifetime without
 * sockets: token buckets, address keys (IPv6 by its /64), entries swept
 * only at rest, the other nodes' reported use counted as used (a
 * cluster's per-address limits) until newer reports replace it, and
 * players forgotten once offline and in no room (the
 * 10,000 identities a flood makes do not stay in memory).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "server/net/limit.h"
#include "server/core/core.h"
#include "tests/unit/check.h"

static void
test_bucket(void)
{
	struct bucket b;

	memset(&b, 0, sizeof b);
	/* A fresh bucket is full: 3 tokens, then none. */
	CHECK(bucket_has(&b, 0.001, 3, 1000));
	b.tokens -= 3;
	CHECK(!bucket_has(&b, 0.001, 3, 1000));
	CHECK_INT(bucket_wait_ms(&b, 0.001), 1001);
	/* One token a second comes back, never more than the cap. */
	CHECK(bucket_has(&b, 0.001, 3, 2000));
	CHECK(bucket_has(&b, 0.001, 3, 100000));
	CHECK(b.tokens <= 3.0);
}

static void
test_limit_addr_key(void)
{
	struct sockaddr_in in4;
	struct sockaddr_in6 a, b;
	char ka[SERVER_LIMIT_KEY], kb[SERVER_LIMIT_KEY];

	memset(&in4, 0, sizeof in4);
	in4.sin_family = AF_INET;
	inet_pton(AF_INET, "192.0.2.7", &in4.sin_addr);
	limit_addr_key((struct sockaddr *)&in4, ka, sizeof ka);
	CHECK_STR(ka, "a:192.0.2.7");
	memset(&a, 0, sizeof a);
	a.sin6_family = AF_INET6;
	b = a;
	inet_pton(AF_INET6, "2001:db8:1:2:aaaa::1", &a.sin6_addr);
	inet_pton(AF_INET6, "2001:db8:1:2:bbbb::9", &b.sin6_addr);
	limit_addr_key((struct sockaddr *)&a, ka, sizeof ka);
	limit_addr_key((struct sockaddr *)&b, kb, sizeof kb);
	CHECK_STR(ka, "a:2001:db8:1:2::");
	CHECK_STR(kb, ka); /* one /64, one address */
	inet_pton(AF_INET6, "::ffff:192.0.2.7", &a.sin6_addr);
	limit_addr_key((struct sockaddr *)&a, ka, sizeof ka);
	CHECK_STR(ka, "a:192.0.2.7");
}

/* Sweeps enough for a whole pass over the table (each visits a part). */
static void
test_sweep_pass(struct server *srv)
{
	int i;

	for (i = 0; i < 8; i++)
		limit_sweep(srv);
}

static void
test_limit_sweep(struct server *srv)
{
	struct limit_entry *e = limit_get(srv, "a:192.0.2.1");
	struct limit_entry *n = limit_name(srv, "AnA");

	CHECK(e != NULL && n != NULL);
	CHECK_STR(n->key, "n:ana");
	CHECK(limit_name(srv, "ana") == n);
	CHECK_INT(srv->limits.n, 2);
	e->refs = 1;
	limit_fails_take(srv, n);
	test_sweep_pass(srv);
	/* held, and not at rest: both stay */
	CHECK_INT(srv->limits.n, 2);
	e->refs = 0;
	test_sweep_pass(srv);
	CHECK_INT(srv->limits.n, 1);
	limit_free_all(srv);
	CHECK_INT(srv->limits.n, 0);
}

/* Kept games: a name's budget is --games-per-hour, an address's 10 x;
 * an entry that used some is not at rest. */
static void
test_limit_games(struct server *srv)
{
	struct limit_entry *addr = limit_get(srv, "a:192.0.2.9");
	char why[128] = "";
	int i;

	CHECK(addr != NULL);
	CHECK_INT(limit_games_cap(srv, limit_name(srv, "Gp")), 2);
	CHECK_INT(limit_games_cap(srv, addr), 20);
	CHECK(limit_games_ok(srv, "gp", addr, why, sizeof why));
	limit_games_take(srv, "gp", addr);
	CHECK(limit_games_ok(srv, "GP", addr, why, sizeof why));
	limit_games_take(srv, "Gp", addr);
	CHECK(!limit_games_ok(srv, "gp", addr, why, sizeof why));
	CHECK(strstr(why, "you have 2 finished games kept this hour") != NULL);
	/* a token a half hour, rounded up to the minute */
	CHECK(strstr(why, "try again in 30 min") != NULL ||
	    strstr(why, "try again in 31 min") != NULL);
	/* another name from that address: its own budget, and the
	 * address's 18 left */
	for (i = 0; i < 18; i++) {
		char name[24];

		snprintf(name, sizeof name, "other%d", i / 2);
		CHECK(limit_games_ok(srv, name, addr, why, sizeof why));
		limit_games_take(srv, name, addr);
	}
	CHECK(!limit_games_ok(srv, "fresh", addr, why, sizeof why));
	CHECK(strstr(why, "your address has 20 finished") != NULL);
	CHECK(limit_games_ok(srv, "fresh", NULL, why, sizeof why));
	test_sweep_pass(srv);
	CHECK(limit_name(srv, "gp")->games.tokens < 1.0); /* kept */
	limit_free_all(srv);
}

/* The other nodes' use (cluster_limit.c's reports) counts as used here:
 * connections, messages (drained at the address's rate), failed logins
 * of an address or a name; newer reports (limit_gen) replace it. */
static void
test_limit_remote(struct server *srv)
{
	struct limit_entry *e = limit_get(srv, "a:192.0.2.20");
	struct limit_entry *n = limit_name(srv, "Remote");
	int64_t now = clock_mono_ms(), wait = 0;

	CHECK(e != NULL && n != NULL);
	CHECK(limit_addr_msgs_has(srv, e, now));
	CHECK(limit_fails_ok(srv, e, &wait));
	CHECK_INT(limit_remote_conns(srv, e), 0);
	/* Two nodes report: their sums count. */
	limit_remote_add(srv, e, 2, 300, 4, now);
	limit_remote_add(srv, e, 1, 99.5, 5.5, now);
	CHECK_INT(limit_remote_conns(srv, e), 3);
	CHECK(!limit_addr_msgs_has(srv, e, now)); /* 400 - 399.5 */
	CHECK(!limit_fails_ok(srv, e, &wait));    /* 10 - 9.5 */
	CHECK(wait > 0);
	/* 10 ms later 2 messages drained (200 a second): one may go. */
	CHECK(limit_addr_msgs_has(srv, e, now + 10));
	/* A name's failed logins elsewhere count against it. */
	limit_remote_add(srv, n, 0, 0, 50, now);
	CHECK(!limit_fails_ok(srv, n, &wait));
	/* Reported use keeps an entry nobody holds here. */
	test_sweep_pass(srv);
	CHECK(limit_get(srv, "a:192.0.2.20") == e);
	/* What this node took is what it reports. */
	e->msgs.tokens -= 5;
	CHECK(limit_used_msgs(srv, e, e->msgs.at) > 4.99);
	CHECK(limit_used_msgs(srv, e, e->msgs.at) < 5.01);
	limit_fails_take(srv, n);
	CHECK(limit_used_fails(srv, n, n->fails.at) > 0.99);
	/* Newer reports without them: nothing from elsewhere counts. */
	srv->limit_gen++;
	CHECK_INT(limit_remote_conns(srv, e), 0);
	CHECK(limit_fails_ok(srv, e, &wait));
	CHECK(limit_fails_ok(srv, n, &wait));
	limit_free_all(srv);
}

/* Players stay in memory only while online or in a room. */
static void
test_player_release(struct server *srv)
{
	const struct rules_game *g = rules_find("stones");
	struct player *p, *q;
	struct room *r;
	char err[256];
	int i;

	for (i = 0; i < 10000; i++) {
		char name[16];

		snprintf(name, sizeof name, "id%05d", i);
		player_release(srv, player_get(srv, name));
	}
	CHECK_INT(srv->players.n, 0);
	p = player_get(srv, "Seated");
	q = player_get(srv, "watcher");
	CHECK(player_find(srv, "Seated") == p);
	CHECK(g != NULL);
	r = room_new(srv, g, cJSON_CreateObject(), 1, err, sizeof err);
	CHECK(r != NULL);
	if (r == NULL)
		return;
	snprintf(r->id, sizeof r->id, "r1");
	r->seats[0].player = p;
	room_add(r);
	room_add_watcher(r, q);
	player_release(srv, p);
	player_release(srv, q);
	CHECK(player_find(srv, "Seated") == p);
	CHECK(player_find(srv, "watcher") == q);
	room_remove_watcher(r, q);
	player_release(srv, q);
	CHECK(player_find(srv, "watcher") == NULL);
	room_forget(r);
	CHECK(player_find(srv, "Seated") == NULL);
	player_free_all(srv);
	room_free_all(srv);
}

int
main(void)
{
	static struct server srv;

	srv.cfg.rate = 20;
	srv.cfg.burst = 40;
	srv.cfg.addr_rate = 200;
	srv.cfg.addr_burst = 400;
	srv.cfg.login_fails = 10;
	srv.cfg.new_names = 250;
	srv.cfg.games_per_hour = 2;
	TAILQ_INIT(&srv.conns);
	TAILQ_INIT(&srv.rooms);
	test_bucket();
	test_limit_addr_key();
	test_limit_sweep(&srv);
	test_limit_games(&srv);
	test_limit_remote(&srv);
	test_player_release(&srv);
	return check_done();
}
