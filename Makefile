# fronts — build, test, demo, bench, install.
# Every dependency is found with pkg-config; see DEPS below for the Debian
# packages that provide them.

PREFIX   ?= /usr/local
DESTDIR  ?=
BINDIR    = $(PREFIX)/bin
SHAREDIR  = $(PREFIX)/share/fronts
MANDIR    = $(PREFIX)/share/man/man1

VERSION  := 0.1.0
BUILD    ?= build

PKGS      = ncursesw python3-embed libcurl libcjson readline libseccomp libutf8proc libcrypto libcbor \
            libjpeg libpng libgif libwebp libwebpmux libwebpdemux libexif
TEST_PKGS = cmocka

# Debian packages needed to build and test (installed by `make deps` as root).
DEPS = build-essential pkg-config libncurses-dev libpython3-dev python3 \
       libcurl4-openssl-dev libcjson-dev libreadline-dev libcmocka-dev \
       libseccomp-dev libutf8proc-dev libssl-dev tmux clang \
       libclang-rt-14-dev tzdata valgrind libcbor-dev libfaketime \
       libjpeg-dev libpng-dev libgif-dev libwebp-dev libexif-dev

# pkg-config with a clean fallback for packages that ship no .pc file.
pc_cflags = $(shell pkg-config --cflags $(1) 2>/dev/null)
pc_libs   = $(shell pkg-config --libs $(1) 2>/dev/null || echo $(2))

DEP_CFLAGS := $(call pc_cflags,$(PKGS))
DEP_LIBS   := $(call pc_libs,ncursesw,-lncursesw) \
              $(call pc_libs,python3-embed,-lpython3.11) \
              $(call pc_libs,libcurl,-lcurl) \
              $(call pc_libs,libcjson,-lcjson) \
              $(call pc_libs,readline,-lreadline) \
              $(call pc_libs,libseccomp,-lseccomp) \
              $(call pc_libs,libutf8proc,-lutf8proc) \
              $(call pc_libs,libcrypto,-lcrypto) \
              $(call pc_libs,libcbor,-lcbor) \
              $(call pc_libs,libjpeg,-ljpeg) \
              $(call pc_libs,libpng,-lpng16) \
              $(call pc_libs,libgif,-lgif) \
              $(call pc_libs,libwebpmux libwebpdemux libwebp,-lwebpmux -lwebpdemux -lwebp) \
              $(call pc_libs,libexif,-lexif) \
              -lpthread -lm
TEST_LIBS  := $(call pc_libs,cmocka,-lcmocka)

CC      ?= cc
OPT     ?= -O2 -g
CFLAGS  ?= $(OPT)
CFLAGS  += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -Wno-unused-parameter -Wno-format-truncation $(EXTRA_WARN) \
           -fPIE -Isrc -DFRONTS_VERSION='"$(VERSION)"' \
           -DFRONTS_SHAREDIR='"$(SHAREDIR)"' $(DEP_CFLAGS)
LDFLAGS ?=
# fronts runs the model's code in its workers: its own code and the
# interpreter's stay at a random address (SECURITY.md, "The interpreter's
# own bugs"), whatever the compiler's default (CFLAGS has -fPIE).
PIE      = -pie
ASFLAGS  = -Isrc
# The embedded interpreter's stdlib is the one libpython was built for.
PY_HOME  := $(shell pkg-config --variable=prefix python3-embed 2>/dev/null || echo /usr)
CFLAGS   += -DFRONTS_PYTHON_HOME='"$(PY_HOME)"'

# src/core/gen/: generated tables, each named with its generator below.
SRCS     := $(sort $(wildcard src/*/*.c src/*/gen/*.c))
ASMS     := $(sort $(wildcard src/*/*.S))
OBJS     := $(SRCS:%.c=$(BUILD)/%.o) $(ASMS:%.S=$(BUILD)/%.o)
MAIN_OBJ := $(BUILD)/src/cli/main.o
LIB_OBJS := $(filter-out $(MAIN_OBJ),$(OBJS))
LIB      := $(BUILD)/libfronts.a
BIN      := $(BUILD)/fronts
# The assume-breach build: the model gets the real builtins, os, socket
# and ctypes (see namespace.c). Only `make test` builds it; never `all`
# or `install`.
BREACH_OBJ := $(BUILD)/breach/namespace.o
BREACH_BIN := $(BUILD)/fronts-breach
# The test build: the release objects with hook.c compiled again with
# FRONTS_TEST_HOOKS, linked ahead of the library (core/hook.h): the only
# binary whose clock and pause points a test can set. The breach build and
# the unit tests carry the same hooks; `all` and `install` never do.
HOOK_OBJ := $(BUILD)/testhooks/hook.o
TEST_BIN := $(BUILD)/fronts-test

UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
BENCH_SRCS := $(sort $(wildcard bench/*.c))
BENCH_BINS := $(BENCH_SRCS:bench/%.c=$(BUILD)/bench/%)
FUZZ_SRCS := $(sort $(wildcard tests/fuzz/fuzz_*.c))
# ONLY="test_project test_plan" (unit) or ONLY=fuzz_text (fuzz): just those.
ONLY      ?=
UNIT_RUN  := $(if $(ONLY),$(filter $(ONLY:%=$(BUILD)/tests/%),$(UNIT_BINS)),$(UNIT_BINS))
FUZZ_RUN  := $(if $(ONLY),$(filter $(ONLY:%=tests/fuzz/%.c),$(FUZZ_SRCS)),$(FUZZ_SRCS))

.PHONY: debug gen gen-check all test test-night unit integration demo bench asan fuzz memcheck tsan install uninstall clean deps check-deps
all: $(BIN)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/%.o: %.S
	@mkdir -p $(dir $@)
	$(CC) $(ASFLAGS) -MMD -MP -c $< -o $@

$(LIB): $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BIN): $(MAIN_OBJ) $(LIB)
	$(CC) $(CFLAGS) $(PIE) $(LDFLAGS) -o $@ $(MAIN_OBJ) $(LIB) $(DEP_LIBS)

$(BREACH_OBJ): src/sandbox/namespace.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DFRONTS_TEST_BREACH -MMD -MP -c $< -o $@

$(BREACH_BIN): $(MAIN_OBJ) $(BREACH_OBJ) $(HOOK_OBJ) $(LIB)
	$(CC) $(CFLAGS) $(PIE) $(LDFLAGS) -o $@ $(MAIN_OBJ) $(BREACH_OBJ) $(HOOK_OBJ) $(LIB) $(DEP_LIBS)

$(HOOK_OBJ): src/core/hook.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DFRONTS_TEST_HOOKS -MMD -MP -c $< -o $@

$(TEST_BIN): $(MAIN_OBJ) $(HOOK_OBJ) $(LIB)
	$(CC) $(CFLAGS) $(PIE) $(LDFLAGS) -o $@ $(MAIN_OBJ) $(HOOK_OBJ) $(LIB) $(DEP_LIBS)

$(BUILD)/tests/%: tests/unit/%.c $(LIB) $(HOOK_OBJ) tests/unit/testutil.h $(TEST_EXTRA)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(call pc_cflags,$(TEST_PKGS)) $(LDFLAGS) -o $@ $< $(TEST_EXTRA) $(HOOK_OBJ) $(LIB) $(DEP_LIBS) $(TEST_LIBS)

$(BUILD)/bench/%: bench/%.c $(LIB) $(wildcard bench/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB) $(DEP_LIBS)

# The README's test command: unit tests, then integration tests against the
# real binary (CLI and TUI through tmux).
TEST_ENV = FRONTS_BIN=$(abspath $(BIN)) FRONTS_TEST_BIN=$(abspath $(TEST_BIN)) \
	FRONTS_BREACH_BIN=$(abspath $(BREACH_BIN)) BUILD=$(BUILD)
test: $(BIN) $(TEST_BIN) $(BREACH_BIN) $(UNIT_BINS)
	sh tests/layers.sh
	$(TEST_ENV) sh tests/run.sh $(UNIT_BINS)

# The integration tests again with the clock of every process but fronts
# at a night-time hour (libfaketime), when every demo front is in its quiet
# hours: a test script or fake that reads the wall clock instead of the
# pinned one fails here, at any hour of day. fronts itself is left out:
# its clock is the pin (FRONTS_TEST_NOW), test_clock.sh checks that
# nothing else in it reads the time, and libfaketime's timed waits break
# the guard's CLOCK_MONOTONIC watchdog.
NIGHT ?= 2026-12-02 02:30:00
test-night: $(BIN) $(TEST_BIN) $(BREACH_BIN)
	$(TEST_ENV) \
		FAKETIME_SKIP_CMDS=fronts,fronts-test,fronts-breach \
		FAKETIME="@$(NIGHT)" sh tests/faketime.sh sh tests/run.sh

unit: $(UNIT_RUN)
	FRONTS_BIN=$(abspath $(BIN)) BUILD=$(BUILD) FRONTS_ONLY_UNIT=1 sh tests/run.sh $(UNIT_RUN)

# Every build below defines FRONTS_CHECKS: the invariants of
# core/invariant.h are checked there, never in the release build.
# A debug build of the binary and the suite: `make debug`, then
# `make BUILD=build-debug OPT="-O0 -g -DFRONTS_CHECKS" test`.
debug:
	$(MAKE) BUILD=build-debug OPT="-O0 -g -DFRONTS_CHECKS" all

# ASan + UBSan build in its own directory, then the same suite.
asan:
	$(MAKE) BUILD=build-asan OPT="-O1 -g -DFRONTS_CHECKS -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
		LDFLAGS="-fsanitize=address,undefined" test

# ThreadSanitizer build in its own directory: the unit tests that run
# threads, then a short plan in both isolations and a TUI run reading the
# live search (tests/tsan/run.sh; tests/tsan/tsan.supp says what is
# suppressed and why).
TSAN_UNITS = test_util test_mutex test_search test_guard test_wmodel test_demo_model test_worker test_planner
tsan:
	$(MAKE) BUILD=build-tsan OPT="-O1 -g -DFRONTS_CHECKS -fsanitize=thread -fno-omit-frame-pointer" \
		LDFLAGS="-fsanitize=thread" TEST_EXTRA=tests/tsan/skip.c \
		build-tsan/fronts $(TSAN_UNITS:%=build-tsan/tests/%)
	FRONTS_BIN=$(abspath build-tsan/fronts) BUILD=build-tsan \
		sh tests/tsan/run.sh $(TSAN_UNITS:%=build-tsan/tests/%)

# libFuzzer harnesses (clang), each run briefly. FUZZ_SECONDS per harness.
FUZZ_SECONDS ?= 20
fuzz:
	$(MAKE) BUILD=build-fuzz CC=clang EXTRA_WARN="-Wno-unknown-warning-option -Wno-missing-field-initializers" OPT="-O1 -g -DFRONTS_CHECKS -fsanitize=fuzzer-no-link,address,undefined" build-fuzz/libfronts.a
	@set -e; for f in $(FUZZ_RUN); do \
		n=$$(basename $$f .c); \
		clang $(CFLAGS) -Wno-unknown-warning-option -O1 -g -fsanitize=fuzzer,address,undefined -o build-fuzz/$$n $$f build-fuzz/libfronts.a $(DEP_LIBS); \
		mkdir -p build-fuzz/corpus-$$n; \
		seeds=; [ -d tests/fuzz/seeds/$$n ] && seeds=tests/fuzz/seeds/$$n; \
		echo "fuzz $$n: $(FUZZ_SECONDS) s"; \
		build-fuzz/$$n -max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 build-fuzz/corpus-$$n $$seeds >build-fuzz/$$n.log 2>&1 || \
			{ tail -n 40 build-fuzz/$$n.log; exit 1; }; \
		tail -n 2 build-fuzz/$$n.log; \
	done

# valgrind memcheck over the readers' unit tests and a handful of real
# invocations (tests/memcheck/run.sh): an uninitialised read fails it.
MEMCHECK_UNITS := $(addprefix $(BUILD)/tests/,test_plan test_ledger \
	test_project test_util test_frame test_timeutil test_legal \
	test_validate test_text test_approval test_channel test_http \
	test_instlimits test_history)
memcheck: $(BIN) $(TEST_BIN) $(MEMCHECK_UNITS)
	FRONTS_BIN=$(abspath $(BIN)) FRONTS_TEST_BIN=$(abspath $(TEST_BIN)) \
		BUILD=$(BUILD) sh tests/memcheck/run.sh $(MEMCHECK_UNITS)

bench: $(BIN) $(BREACH_BIN) $(BENCH_BINS)
	FRONTS_BIN=$(abspath $(BIN)) FRONTS_BREACH_BIN=$(abspath $(BREACH_BIN)) BUILD=$(BUILD) sh bench/run.sh $(BENCH_BINS)

# Generated sources: src/core/gen/, each table named with its generator in
# tools/gen.sh. `gen` writes them again; `gen-check` (CI) regenerates them
# apart and fails on any difference. Both need node and npm.
gen:
	sh tools/gen.sh write

gen-check:
	sh tools/gen.sh check $(BUILD)/gen

check-deps:
	@sh tools/deps.sh check $(DEPS)

deps:
	@sh tools/deps.sh install $(DEPS)

demo: deps
	$(MAKE) all
	@sh tools/demo.sh $(abspath $(BIN))

install: $(BIN)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SHAREDIR)/themes $(DESTDIR)$(MANDIR)
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/fronts
	install -m 644 themes/*.theme $(DESTDIR)$(SHAREDIR)/themes/
	install -d $(DESTDIR)$(SHAREDIR)/replay
	install -m 644 fixtures/replay/*.json $(DESTDIR)$(SHAREDIR)/replay/
	install -m 644 man/fronts.1 $(DESTDIR)$(MANDIR)/fronts.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/fronts $(DESTDIR)$(MANDIR)/fronts.1
	rm -rf $(DESTDIR)$(SHAREDIR)

clean:
	rm -rf build build-asan build-fuzz build-tsan

# .incbin'd Python helpers are not seen by -MMD.
$(BUILD)/src/sandbox/pysrc.o: $(wildcard src/sandbox/py/*.py)
$(BUILD)/src/core/demo_data.o: $(wildcard fixtures/demo/* fixtures/demo/media/*) $(wildcard fixtures/empty/*)

# .incbin'd prompt templates, likewise.
$(BUILD)/src/runs/prompts.o: $(wildcard src/runs/prompts/*.txt)

-include $(OBJS:.o=.d) $(BREACH_OBJ:.o=.d) $(HOOK_OBJ:.o=.d)
