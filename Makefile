# sudokubench — every entry point. `make help` lists the targets.
#
# Build output goes to $(BUILD) (default build/): build/sudokubench, build/libsudokubench.a.
# The default binary runs on any x86-64: no -march=native; SIMD kernels are compiled per
# instruction set with target pragmas and chosen at run time.

BUILD    ?= build
CC       ?= gcc
OPT      ?= -O3
SAN      ?=
CFLAGS   ?= $(OPT) -g
WARN     := -Wall -Wextra
BASE     := -std=c11 -D_GNU_SOURCE -fopenmp -Iinclude -Isrc -I$(BUILD)/gen $(WARN)
ifeq ($(SAN),1)
CFLAGS   := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
endif
ALL_CFLAGS = $(BASE) $(CFLAGS) -DSB_BUILD_FLAGS='"$(CFLAGS)"'
LDLIBS   := -fopenmp

LIB_SRCS := $(wildcard src/*.c)
LIB_SRCS := $(filter-out src/gen_tables.c,$(LIB_SRCS))
CLI_SRCS := $(wildcard src/cli/*.c)
TEST_SRCS := $(wildcard tests/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/obj/%.o)
TEST_OBJS := $(TEST_SRCS:%.c=$(BUILD)/obj/%.o)
LIB      := $(BUILD)/libsudokubench.a
BIN      := $(BUILD)/sudokubench
UNIT     := $(BUILD)/tests/unit
TABLES   := $(BUILD)/gen/tables.inc $(BUILD)/gen/house_lanes.inc

# Corpora for `make bench`: the standard ones when ../shared is beside the checkout, else
# the small samples committed in datasets/samples (the embedded default).
SHARED_DATA := $(wildcard ../shared/datasets/puzzles*)
BENCH_FILES ?= $(if $(SHARED_DATA),$(SHARED_DATA),$(wildcard datasets/samples/*.txt))
BENCH_ARGS  ?= -t 1 --seconds 2

# Debian packages the build and tests need (`make deps` installs what is missing).
DEB_PKGS := gcc make libc6-dev libcriterion-dev python3

.PHONY: all help deps test test-unit test-cli test-sanitize bench clean

all: $(BIN) $(LIB) ## build build/sudokubench and build/libsudokubench.a

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | awk -F'\t' '{printf "  make %-14s %s\n", $$1, $$2}'
	@echo "  variables: BUILD=$(BUILD) OPT=$(OPT) BENCH_FILES=... BENCH_ARGS='$(BENCH_ARGS)'"
	@echo "  DEB_PKGS (make deps): $(DEB_PKGS)"

deps: ## install the missing Debian packages of DEB_PKGS (idempotent)
	@missing=""; for p in $(DEB_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "deps: installing$$missing"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	else echo "deps: all present ($(DEB_PKGS))"; fi

$(BUILD)/gen/gen_tables: src/gen_tables.c include/sudokubench.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -O1 -Iinclude -o $@ src/gen_tables.c

$(BUILD)/gen/tables.inc: $(BUILD)/gen/gen_tables
	$< > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/house_lanes.inc: $(BUILD)/gen/gen_tables
	$< lanes > $@.tmp && mv $@.tmp $@

$(BUILD)/obj/%.o: %.c $(TABLES) $(wildcard include/*.h src/*.h src/cli/*.h tests/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests -c -o $@ $<

$(LIB): $(LIB_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BIN): $(CLI_OBJS) $(LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $(CLI_OBJS) $(LIB) $(LDLIBS)

$(UNIT): $(TEST_OBJS) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $(TEST_OBJS) $(LIB) -lcriterion $(LDLIBS)

test: test-unit test-cli ## build and run the unit tests (Criterion) and the CLI tests

test-unit: $(UNIT)
	$(UNIT) --jobs 2

test-cli: $(BIN)
	bash tests/cli/run.sh $(BIN)

test-sanitize: ## the whole test suite built with ASan + UBSan (in build/asan)
	$(MAKE) --no-print-directory BUILD=build/asan SAN=1 test

bench: $(BIN) ## benchmark: ../shared/datasets if present, else datasets/samples (1 thread)
	$(BIN) bench $(BENCH_ARGS) $(BENCH_FILES)

clean: ## remove build/
	rm -rf build
