# Makefile: tablero's one flat Makefile. Builds everything into $(BUILD)/.
#
#   make            build tablerod, perft and the tests
#   make run        build and start tablerod on port 7777 in the foreground
#   make test       build and run every test; last line "N passed, M failed"
#   make pg-test    the tests that store, against a throwaway PostgreSQL
#   make cluster-test  several nodes with PostgreSQL, Redis and HAProxy
#   make cluster-asan-test  the same against the asan build
#   make mutate     do the tests fail when they should? Small realistic bugs
#                   (tests/mutate.py's table), each put into a scratch copy
#                   of the tree: the tests named for it must fail ("caught");
#                   not part of make test. MUTATE="N ..." runs those rows.
#                   A row whose text is gone fails ("no longer applies"):
#                   update the row with the code (docs/HACKING.md,
#                   "Mutation tests").
#   make asan       build and run the tests with address and UB sanitizers
#   make tsan       build with ThreadSanitizer; tsan-test runs the threaded tests
#   make fuzz       build the libFuzzer targets (clang)
#   make tablerod-alone  tablerod without cluster/ and hiredis
#   make alone-test the single-node black-box suite against it
#   make check-layers  no call against the server folders' order
#   make bench      perft and server benchmarks
#   make install    install the binaries, data and man pages under $(PREFIX)
#   make format     format the C sources with .clang-format

CC ?= cc
CFLAGS ?= -O2 -g
# Extra machine flags. Empty: the binaries `make install` ships run on any
# machine of the architecture. `make bench` builds its own copy with
# -march=native (popcount for the bitboards) in $(BUILD)/native.
NATIVE ?=
PREFIX ?= /usr/local
BUILD ?= build
FUZZCC ?= clang
PORT ?= 7777
# How long each fuzz target runs in `make test`.
FUZZ_SECONDS ?= 4

PKGS = libevent libevent_pthreads libevent_openssl libssl libcrypto libcjson \
	sqlite3 libpq libsodium hiredis
# tablerod-alone has no cluster, so no Redis client.
ALONE_PKGS = $(filter-out hiredis,$(PKGS))
# Debian ships no pkg-config files for these two: http-parser for the
# web port's requests (web.c), wslay for loadgen's WebSocket clients
# (the server frames its WebSockets itself, ws.c).
WEB_LIBS = -lhttp_parser
LOADGEN_LIBS = -lwslay
# Deferred (=) so that pkg-config is asked after deps.sh has run.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null || \
	echo -levent_pthreads -levent_openssl -levent -lssl -lcrypto -lcjson \
	-lsqlite3 -lpq -lsodium -lhiredis) $(WEB_LIBS)
ALONE_LIBS = $(shell pkg-config --libs $(ALONE_PKGS) 2>/dev/null || \
	echo -levent_pthreads -levent_openssl -levent -lssl -lcrypto -lcjson \
	-lsqlite3 -lpq -lsodium) $(WEB_LIBS)
# The client alone reads the keyboard with libedit.
CLIENT_PKGS = libedit
CLIENT_LIBS = $(shell pkg-config --libs $(CLIENT_PKGS) 2>/dev/null || \
	echo -ledit)

WARN = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wpointer-arith -Wno-unused-parameter
ALL_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
	$(WARN) $(NATIVE) -I. $(PKG_CFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(LDFLAGS) -pthread

RULES_SRC = $(wildcard rules/*.c)
AI_SRC = $(wildcard ai/*.c)
PROTO_SRC = $(wildcard protocol/*.c)
# The server's folders, lowest first: a folder's objects may call only
# into their own folder, the folders before it, and libraries (make
# check-layers; docs/HACKING.md says why each folder sits where it does).
SERVER_LAYERS = base store net core club cmd cluster app
SERVER_SRC = $(filter-out server/app/main.c server/app/alone.c,\
	$(wildcard server/*/*.c))
CLIENT_SRC = $(filter-out client-cli/main.c,$(wildcard client-cli/*.c))
UNIT_SRC = $(wildcard tests/unit/test_*.c)
FUZZ_SRC = $(wildcard tests/fuzz/fuzz_*.c)
DATA = $(sort $(wildcard data/*/*))

GEN_DATA = $(BUILD)/gen/data.c
# The browser client, built into tablerod (server/net/webfile.c) with a
# gzip copy of each file; --web-dir serves another copy. The page as
# served is WEB_OUT: web/'s files, and js/rules.wasm, the games' rules
# (rules/ and web/wasm/rules_wasm.c built to WebAssembly by clang against
# Debian's wasi-libc), with which the page plays lean moves itself; the
# browser tests serve that folder.
WEB_FILES = web/index.html web/style.css web/favicon.svg \
	$(sort $(wildcard web/js/*.js))
WEB_OUT = $(BUILD)/web
WEB_WASM = $(WEB_OUT)/js/rules.wasm
WEB_BUILT = $(WEB_FILES:web/%=$(WEB_OUT)/%) $(WEB_WASM)
WEB_GZ = $(WEB_BUILT:%=%.gz)
# The shipped files the rules read (rules_data); not the solitaire
# solver's table (english.win, 1.2 MB), which is the bots'.
WASM_DATA = $(filter-out %.win,$(DATA))
GEN_WASM_DATA = $(BUILD)/gen/wasm/data.c
# clang's own headers, then wasi-libc's (never the machine's glibc);
# -nostartfiles and --no-entry: a library of exported functions, no main.
WASM_CFLAGS = --target=wasm32-wasi --sysroot=/usr -nostdinc \
	-isystem $$(clang -print-resource-dir)/include \
	-isystem /usr/include/wasm32-wasi -std=c11 -D_POSIX_C_SOURCE=200809L \
	-D_DEFAULT_SOURCE -Os $(WARN) -I. -nostartfiles -Wl,--no-entry \
	-Wl,--strip-all
# Generated into net/'s folder of objects: webfile.c's data is net/'s.
GEN_WEB = $(BUILD)/gen/server/net/webdata.c
WEB_OBJ = $(BUILD)/obj/server/net/webdata.o
RULES_OBJ = $(RULES_SRC:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/data.o
AI_OBJ = $(AI_SRC:%.c=$(BUILD)/obj/%.o)
PROTO_OBJ = $(PROTO_SRC:%.c=$(BUILD)/obj/%.o)
SERVER_OBJ = $(SERVER_SRC:%.c=$(BUILD)/obj/%.o) $(WEB_OBJ)
CLIENT_OBJ = $(CLIENT_SRC:%.c=$(BUILD)/obj/%.o)

LIBRULES = $(BUILD)/librules.a
LIBAI = $(BUILD)/libai.a
LIBPROTO = $(BUILD)/libprotocol.a
LIBSERVER = $(BUILD)/libserver.a
LIBCLIENT = $(BUILD)/libclient.a
LIBS_ALL = $(LIBSERVER) $(LIBAI) $(LIBPROTO) $(LIBRULES)

UNIT_BIN = $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
FUZZ_BIN = $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz/%)
SERVER_BIN = $(if $(wildcard server/app/main.c),$(BUILD)/tablerod \
	$(BUILD)/tablerod-alone)
# tablerod-alone: every server folder but cluster/, and alone.c's empty
# list of optional parts in place of modules.c, linked as objects (not
# from an archive), so that a call from below into cluster/ fails to
# link.
ALONE_OBJ = $(BUILD)/obj/server/app/main.o $(BUILD)/obj/server/app/alone.o \
	$(filter-out $(BUILD)/obj/server/cluster/% \
	    $(BUILD)/obj/server/app/modules.o,$(SERVER_OBJ))
CLIENT_BIN = $(if $(wildcard client-cli/main.c),$(BUILD)/tablero)
BENCH_BIN = $(BUILD)/perft $(BUILD)/perft_ref $(BUILD)/bench_store $(BUILD)/echod $(BUILD)/loadgen \
	$(BUILD)/bots

.PHONY: all deps run test pg-test cluster-test cluster-asan-test mutate asan asan-test tsan tsan-test fuzz fuzz-run \
	tablerod-alone alone-test check-layers \
	bench bench-peer-deps bots-prev install clean format check-format FORCE
.SUFFIXES:
# Keep every intermediate object: nothing is rebuilt for nothing, and make
# prints no clean-up after the tests' closing "N passed, M failed" line.
.SECONDARY:

all: $(SERVER_BIN) $(CLIENT_BIN) $(BENCH_BIN) $(UNIT_BIN)

deps:
	@sh contrib/deps.sh

# Every object waits for deps.sh (order-only) so a fresh machine works.
$(BUILD)/obj/%.o: %.c | deps
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(GEN_DATA): $(DATA) contrib/embed.sh
	@mkdir -p $(@D)
	sh contrib/embed.sh $(DATA) > $@.tmp && mv $@.tmp $@

$(BUILD)/obj/gen/data.o: $(GEN_DATA) | deps
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -Irules -c $< -o $@

$(WEB_OUT)/%.gz: $(WEB_OUT)/%
	gzip -9 -n -c $< > $@.tmp && mv $@.tmp $@

$(WEB_OUT)/%: web/%
	@mkdir -p $(@D)
	cp $< $@

$(GEN_WASM_DATA): $(WASM_DATA) contrib/embed.sh
	@mkdir -p $(@D)
	sh contrib/embed.sh $(WASM_DATA) > $@.tmp && mv $@.tmp $@

$(WEB_WASM): $(RULES_SRC) $(wildcard rules/*.h) web/wasm/rules_wasm.c \
	    $(GEN_WASM_DATA) | deps
	@mkdir -p $(@D)
	clang $(WASM_CFLAGS) -o $@.tmp $(RULES_SRC) web/wasm/rules_wasm.c \
	    -Irules $(GEN_WASM_DATA) && mv $@.tmp $@

$(GEN_WEB): $(WEB_BUILT) $(WEB_GZ) contrib/embed-web.sh
	@mkdir -p $(@D)
	sh contrib/embed-web.sh $(WEB_OUT) $(WEB_BUILT) > $@.tmp && mv $@.tmp $@

$(WEB_OBJ): $(GEN_WEB) | deps
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(LIBRULES): $(RULES_OBJ)
	rm -f $@ && $(AR) rcs $@ $^
$(LIBAI): $(AI_OBJ)
	rm -f $@ && $(AR) rcs $@ $^
$(LIBPROTO): $(PROTO_OBJ)
	rm -f $@ && $(AR) rcs $@ $^
$(LIBSERVER): $(SERVER_OBJ)
	rm -f $@ && $(AR) rcs $@ $^
$(LIBCLIENT): $(CLIENT_OBJ)
	rm -f $@ && $(AR) rcs $@ $^

$(BUILD)/tablerod: $(BUILD)/obj/server/app/main.o $(LIBS_ALL)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS) -lm
$(BUILD)/tablerod-alone: $(ALONE_OBJ) $(LIBAI) $(LIBPROTO) $(LIBRULES)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS) $(ALONE_LIBS) -lm
tablerod-alone: $(BUILD)/tablerod-alone

# Every server folder's undefined symbols against SERVER_LAYERS.
CHECK_LAYERS_OBJ = $(sort $(SERVER_OBJ) $(ALONE_OBJ))
check-layers: $(CHECK_LAYERS_OBJ)
	@sh contrib/check-layers.sh "$(SERVER_LAYERS)" $(BUILD)/obj/server \
	    $(CHECK_LAYERS_OBJ)

$(BUILD)/tablero: $(BUILD)/obj/client-cli/main.o $(CLIENT_OBJ) $(LIBPROTO) $(LIBRULES)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS) $(CLIENT_LIBS) -lm
$(BUILD)/perft: $(BUILD)/obj/bench/perft.o $(LIBRULES)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS)
$(BUILD)/perft_ref: $(BUILD)/obj/bench/perft_ref.o
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS)
$(BUILD)/bots: $(BUILD)/obj/bench/bots.o $(LIBAI) $(LIBRULES)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS) -lm
$(BUILD)/bench_store: $(BUILD)/obj/bench/bench_store.o $(LIBSERVER)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS)
$(BUILD)/echod: $(BUILD)/obj/bench/echod.o
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS)
$(BUILD)/loadgen: $(BUILD)/obj/bench/loadgen.o
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS) $(LOADGEN_LIBS)

$(BUILD)/tests/%: $(BUILD)/obj/tests/unit/%.o $(BUILD)/obj/tests/unit/check.o $(LIBS_ALL)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS) -lm
# The store tests share their fixtures.
STORE_TESTS = $(BUILD)/tests/test_store $(BUILD)/tests/test_pgstore
$(STORE_TESTS): $(BUILD)/tests/%: $(BUILD)/obj/tests/unit/%.o \
	    $(BUILD)/obj/tests/unit/store_fixture.o \
	    $(BUILD)/obj/tests/unit/check.o $(LIBS_ALL)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS) -lm
# The client's unit tests link the client's objects too.
$(BUILD)/tests/test_client_%: $(BUILD)/obj/tests/unit/test_client_%.o $(BUILD)/obj/tests/unit/check.o $(LIBCLIENT) $(LIBPROTO) $(LIBRULES)
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS) $(PKG_LIBS) $(CLIENT_LIBS) -lm

# libFuzzer targets: every library source again, built by clang with the
# fuzzer and sanitizers, into its own folder.
FUZZ_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -g -O1 \
	-I. $(PKG_CFLAGS) -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined
# cluster_wire.c: the one server file fuzzed, pure (the link port's parsing).
FUZZ_LIB_SRC = $(RULES_SRC) $(AI_SRC) $(PROTO_SRC) $(CLIENT_SRC) \
	server/cluster/cluster_wire.c
FUZZ_LIB_OBJ = $(FUZZ_LIB_SRC:%.c=$(BUILD)/fz/%.o) $(BUILD)/fz/gen/data.o

$(BUILD)/fz/%.o: %.c | deps
	@mkdir -p $(@D)
	$(FUZZCC) $(FUZZ_CFLAGS) -Wall -Wextra -Werror -Wno-unused-parameter -MMD -MP -c $< -o $@
$(BUILD)/fz/gen/data.o: $(GEN_DATA) | deps
	@mkdir -p $(@D)
	$(FUZZCC) $(FUZZ_CFLAGS) -Irules -c $< -o $@
$(BUILD)/fuzz/%: $(BUILD)/fz/tests/fuzz/%.o $(FUZZ_LIB_OBJ)
	@mkdir -p $(@D)
	$(FUZZCC) $(FUZZ_CFLAGS) -o $@ $^ $(PKG_LIBS) $(CLIENT_LIBS) -lm

fuzz: $(FUZZ_BIN)

# Each target for FUZZ_SECONDS from its seed corpus in tests/fuzz/corpus/.
fuzz-run: fuzz
	@for t in $(FUZZ_BIN); do n=$${t##*/}; w=$$(mktemp -d); \
	    [ -d tests/fuzz/corpus/$$n ] && cp -R tests/fuzz/corpus/$$n/. $$w/; \
	    echo "$$n"; $$t -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 \
	    -timeout=10 -artifact_prefix=$$w/ $$w || exit 1; rm -rf $$w; done

# tests/run.sh runs TEST_JOBS tests at once (default 6). Under the
# sanitizers each server computes several times more, and a loaded
# machine makes its replies miss the tests' bounded waits (a hint under
# ThreadSanitizer takes seconds): these run fewer at once, unless
# TEST_JOBS says otherwise.
ASAN_TEST_JOBS = 4
TSAN_TEST_JOBS = 3

test: all fuzz
	@sh tests/run.sh $(BUILD) $(FUZZ_SECONDS)

pg-test: all
	@sh tests/pg.sh $(BUILD)

cluster-test: all
	@sh tests/cluster.sh $(BUILD)

# The single-node black-box suite against tablerod-alone, through a
# folder whose tablerod is tablerod-alone (the tests run $(BUILD)/tablerod;
# tablero and loadgen there are the usual ones, and web/ the page as
# built, which tablerod-alone embeds too).
# test_build_parts.py compares the two builds, so it runs with make test.
ALONE_VIEW = $(BUILD)/alone-view
ALONE_TESTS = $(filter-out test_build_parts.py,\
	$(notdir $(wildcard tests/blackbox/test_*.py)))
alone-test: all
	@mkdir -p $(ALONE_VIEW)
	@ln -sf ../tablerod-alone $(ALONE_VIEW)/tablerod
	@ln -sf ../tablero $(ALONE_VIEW)/tablero
	@ln -sf ../loadgen $(ALONE_VIEW)/loadgen
	@ln -sfn ../web $(ALONE_VIEW)/web
	@TABLERO_WEB=0 sh tests/run.sh $(ALONE_VIEW) 0 $(ALONE_TESTS)

# Each row of tests/mutate.py's table in a scratch copy of the tree (the
# build folder copied too, so only what the row touches is rebuilt); the
# rows that need PostgreSQL or the cluster run inside
# contrib/clustertest.sh, which the script starts (when it cannot, those
# rows are skipped and said so). Non-zero when a row is missed, no longer
# applies or does not build.
mutate: all
	@python3 tests/mutate.py --build $(BUILD) $(MUTATE)

asan:
	$(MAKE) BUILD=$(BUILD)/asan NATIVE="$(NATIVE)" \
	    CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined" \
	    LDFLAGS="-fsanitize=address,undefined" all

asan-test: asan
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	    TEST_JOBS=$${TEST_JOBS:-$(ASAN_TEST_JOBS)} \
	    TABLERO_SLOW=1 sh tests/run.sh $(BUILD)/asan 0

# The cluster tests against the asan build: the stand-ins and failovers
# free connections and rooms while other nodes' messages still name them
# (two heap uses after free were found only this way).
cluster-asan-test: asan
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	    sh tests/cluster.sh $(BUILD)/asan

# ThreadSanitizer: its own build, like asan. tsan-test runs the black-box
# tests whose server runs more than one thread at once (the store thread,
# bots and hints, password hashes, pages of finished games read as tasks,
# signals under load); the first report stops the server
# (halt_on_error) and the harness fails the test on any report.
TSAN_TESTS = test_persist_store.py test_badclient_store.py \
	test_badclient_group.py test_badclient_midgroup.py test_workers.py \
	test_bots_fair.py test_persist_term.py test_threads_sighup.py \
	test_accounts.py test_reads_offloop.py test_reads_bounded.py
tsan:
	$(MAKE) BUILD=$(BUILD)/tsan NATIVE="$(NATIVE)" \
	    CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=thread" \
	    LDFLAGS="-fsanitize=thread" all

tsan-test: tsan
	TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$(CURDIR)/tests/tsan.supp" \
	    TEST_JOBS=$${TEST_JOBS:-$(TSAN_TEST_JOBS)} \
	    TABLERO_SLOW=1 sh tests/run.sh $(BUILD)/tsan 0 $(TSAN_TESTS)

bench: $(BUILD)/perft bench-peer-deps
	$(MAKE) BUILD=$(BUILD)/native NATIVE=-march=native all bots-prev
	PORTABLE=$(BUILD) sh bench/run.sh $(BUILD)/native

# bench-peer-deps: Colyseus and its load generator's packages for the
# bench's rows against it (bench/peer, pinned by its package-lock.json),
# installed with npm ci when node and npm are here and the lock file is
# newer than what was installed; otherwise the bench skips those rows and
# says why (a failed install does not stop the bench).
bench-peer-deps:
	@if ! command -v node >/dev/null 2>&1 || \
	    ! command -v npm >/dev/null 2>&1; then \
		echo "bench-peer-deps: no node or npm: no Colyseus rows"; \
	elif [ ! bench/peer/node_modules/.package-lock.json -nt \
	    bench/peer/package-lock.json ]; then \
		(cd bench/peer && npm ci --no-audit --no-fund) || \
		    echo "bench-peer-deps: npm ci failed: no Colyseus rows"; \
	fi

# bots-prev: the bots bench with the previous release's Ataxx and Amazons
# engines (BOTS_PREV, a git revision) linked in beside today's, for the
# ladder's `prev` player. Every function a copied file defines for others
# (at a line's start, as the style writes definitions, or named by a
# #define) is renamed *_prev, so that it links whatever the revision
# exports; a file the revision lacks becomes a comment. Needs git; not
# part of `all`.
BOTS_PREV ?= c54ec62
PREV_SRC = $(BUILD)/prev/ataxx_engine.c $(BUILD)/prev/ataxx_engine64.c \
	$(BUILD)/prev/amazons_engine.c

bots-prev: $(BUILD)/bots-prev
$(BUILD)/prev/%.c: FORCE
	@mkdir -p $(@D)
	git show $(BOTS_PREV):ai/$*.c >$@.src 2>/dev/null || \
	    echo '/* not in $(BOTS_PREV) */' >$@.src
	sed -n -e 's/^\(ai_[a-z0-9_]*\)(.*/s\/\\<\1\\>\/\1_prev\/g/p' \
	    -e 's/^#define [A-Z0-9_]* \(ai_[a-z0-9_]*\)$$/s\/\\<\1\\>\/\1_prev\/g/p' \
	    $@.src >$@.sed
	sed -f $@.sed $@.src >$@.tmp && rm $@.src $@.sed
	@cmp -s $@.tmp $@ && rm $@.tmp || mv $@.tmp $@
$(BUILD)/bots-prev: $(BUILD)/obj/bench/bots.o $(PREV_SRC) $(LIBAI) $(LIBRULES)
	$(CC) $(ALL_CFLAGS) -Wno-missing-prototypes -o $@ $^ $(ALL_LDFLAGS) -lm
FORCE:

run: all
	$(BUILD)/tablerod --port $(PORT) --db tablero.db

install: all
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(SERVER_BIN) $(CLIENT_BIN) $(DESTDIR)$(PREFIX)/bin/
	install -d $(DESTDIR)$(PREFIX)/share/tablero
	cp -R data/. $(DESTDIR)$(PREFIX)/share/tablero/
	install -d $(DESTDIR)$(PREFIX)/share/man/man1 \
	    $(DESTDIR)$(PREFIX)/share/man/man8
	install -m 644 docs/tablero.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 644 docs/tablerod.8 $(DESTDIR)$(PREFIX)/share/man/man8/

format:
	clang-format -i $(filter-out build/%,$(wildcard */*.c */*.h */*/*.c */*/*.h tests/*/*.c tests/*/*.h))

check-format:
	@for f in $(filter-out build/%,$(wildcard */*.c */*.h */*/*.c */*/*.h tests/*/*.c tests/*/*.h)); do \
	    clang-format "$$f" | cmp -s - "$$f" || echo "not formatted: $$f"; done

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD)/obj $(BUILD)/fz -name '*.d' 2>/dev/null)
