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

LIB_SRCS := $(wildcard src/*.c src/kernel/*.c)

# Each kernel stamp is compiled for its instruction set with per-file flags (gcc and clang
# alike); the rest of the library stays baseline. Stamps for another architecture compile to
# the portable algorithm and are never dispatched (src/kernel/simd.c).
TARGET_ARCH_NAME := $(shell $(CC) -dumpmachine 2>/dev/null)
ifneq ($(findstring x86_64,$(TARGET_ARCH_NAME)),)
KERNEL_FLAGS_sse4   := -msse4.1 -mpopcnt
KERNEL_FLAGS_avx2   := -mavx2 -mbmi -mbmi2 -mpopcnt -mlzcnt
KERNEL_FLAGS_avx512 := -mavx512f -mavx512bw -mavx512vl -mavx512vpopcntdq $(KERNEL_FLAGS_avx2)
endif
LIB_SRCS := $(filter-out src/gen_tables.c,$(LIB_SRCS))
CLI_SRCS := $(wildcard src/cli/*.c)
TEST_SRCS := $(wildcard tests/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/obj/%.o)
TEST_OBJS := $(TEST_SRCS:%.c=$(BUILD)/obj/%.o)
LIB      := $(BUILD)/libsudokubench.a
BIN      := $(BUILD)/sudokubench
UNIT     := $(BUILD)/tests/unit
TABLES   := $(BUILD)/gen/tables.inc $(BUILD)/gen/house_lanes.inc $(BUILD)/gen/cell_house_lanes.inc \
            $(BUILD)/gen/house_hi.inc $(BUILD)/gen/locked_lanes.inc

# Corpora for `make bench`: the standard ones when ../shared is beside the checkout, else
# the small samples committed in datasets/samples (the embedded default).
SHARED_DATA := $(wildcard ../shared/datasets/puzzles*)
BENCH_FILES ?= $(if $(SHARED_DATA),$(SHARED_DATA),$(wildcard datasets/samples/*.txt))
BENCH_ARGS  ?= -t 1 --seconds 2 --pipelines fast

# Performance tooling (bench/, scripts/perf_check.py, docs/ci.md). The gate counts
# instructions under callgrind against PERF_BASELINE and fails above PERF_THRESHOLD percent.
PERF_DIR       := $(BUILD)/perf
PERF_DRIVER    := $(PERF_DIR)/perf_driver
PERF_SLOW      := $(BUILD)/perf-test/perf_driver_slow
GBENCH         := $(PERF_DIR)/gbench
PERF_THRESHOLD ?= 2
PERF_BASELINE  ?= bench/baseline.json
PERF_WALL      ?= 1
PERF_ARGS       = --driver $(PERF_DRIVER) --cc "$(CC)" --flags "$(CFLAGS)" \
                  $(if $(filter 1,$(PERF_WALL)),--gbench $(GBENCH))
GBENCH_ARGS    ?= --benchmark_out=$(BUILD)/reports/gbench.json --benchmark_out_format=json

# Debian packages the build and tests need (`make deps` installs what is missing).
DEB_PKGS := gcc make libc6-dev libcriterion-dev python3 time \
            g++ libbenchmark-dev valgrind hyperfine gnuplot-nox

.PHONY: all help deps test test-unit test-cli test-sanitize bench batch datasets clean
.PHONY: test-perf gbench perf-check perf-baseline report hyperfine

all: $(BIN) $(LIB) ## build build/sudokubench and build/libsudokubench.a

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | awk -F'\t' '{printf "  make %-14s %s\n", $$1, $$2}'
	@echo "  variables: BUILD=$(BUILD) OPT=$(OPT) BENCH_FILES=... BENCH_ARGS='$(BENCH_ARGS)'"
	@echo "  perf: PERF_THRESHOLD=$(PERF_THRESHOLD) (percent) PERF_BASELINE=$(PERF_BASELINE) PERF_WALL=$(PERF_WALL) (0: no wall-time part)"
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

$(BUILD)/gen/cell_house_lanes.inc: $(BUILD)/gen/gen_tables
	$< cells > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/house_hi.inc: $(BUILD)/gen/gen_tables
	$< hi > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/locked_lanes.inc: $(BUILD)/gen/gen_tables
	$< locked > $@.tmp && mv $@.tmp $@

$(BUILD)/obj/src/kernel/kernel_%.o: src/kernel/kernel_%.c $(TABLES) $(wildcard include/*.h src/*.h src/kernel/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(KERNEL_FLAGS_$*) -c -o $@ $<

$(BUILD)/obj/%.o: %.c $(TABLES) $(wildcard include/*.h src/*.h src/kernel/*.h src/cli/*.h tests/*.h)
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

test: test-unit test-cli test-perf ## build and run the unit tests (Criterion), the CLI tests, the perf-gate tests

test-unit: $(UNIT)
	$(UNIT) --jobs 2

test-cli: $(BIN)
	bash tests/cli/run.sh $(BIN)
	bash tests/cli/batch.sh $(BIN)

test-sanitize: ## the whole test suite built with ASan + UBSan (in build/asan)
	$(MAKE) --no-print-directory BUILD=build/asan SAN=1 test

bench: $(BIN) ## benchmark: ../shared/datasets if present, else datasets/samples (1 thread)
	$(BIN) bench $(BENCH_ARGS) $(BENCH_FILES)

batch: $(BIN) ## batch engine at scale: a 5M-puzzle file in build/, solve with 1 and all threads, rate + peak RSS
	bash scripts/batch_scale.sh $(BIN)

datasets: $(BIN) ## build local corpora in datasets/generated/: 1M generated, 100k minimal, augmented standard sets
	bash scripts/make_datasets.sh $(BIN)

$(PERF_DRIVER): bench/perf_driver.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB) $(LDLIBS)

# Test-only: the same driver with sb_solve renamed in a copy of the library and wrapped by a
# burner (tests/perf/slowdown.c), so the gate's own test sees a real regression inside the
# measured function while the shipped sources stay untouched.
$(PERF_SLOW): bench/perf_driver.c tests/perf/slowdown.c $(LIB)
	@mkdir -p $(dir $@)
	objcopy --redefine-sym sb_solve=sb_solve_unslowed $(LIB) $(dir $@)libslowed.a
	$(CC) $(ALL_CFLAGS) -o $@ $< tests/perf/slowdown.c $(dir $@)libslowed.a $(LDLIBS)

$(GBENCH): bench/gbench.cc $(LIB)
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 $(OPT) -g $(WARN) -Iinclude -o $@ $< $(LIB) -lbenchmark -lpthread $(LDLIBS)

ifeq ($(SAN),1)
test-perf:
	python3 tests/perf/test_perf_check.py
	@echo "test-perf: callgrind check skipped under SAN=1 (valgrind cannot run ASan builds)"
else
test-perf: $(PERF_DRIVER) $(PERF_SLOW)
	python3 tests/perf/test_perf_check.py
	bash tests/perf/real_check.sh $(PERF_DRIVER) $(PERF_SLOW)
endif

gbench: $(GBENCH) ## Google Benchmark: every pipeline x corpus x SIMD level; JSON in build/reports/gbench.json
	@mkdir -p $(BUILD)/reports
	$(GBENCH) $(GBENCH_ARGS) $(BENCH_FILES)

perf-check: $(PERF_DRIVER) $(if $(filter 1,$(PERF_WALL)),$(GBENCH)) ## CI gate: callgrind counts vs bench/baseline.json, fails above PERF_THRESHOLD=2 %
	python3 scripts/perf_check.py check $(PERF_ARGS) --baseline $(PERF_BASELINE) \
	  --threshold $(PERF_THRESHOLD) --current-out $(PERF_DIR)/current.json

perf-baseline: $(PERF_DRIVER) $(if $(filter 1,$(PERF_WALL)),$(GBENCH)) ## measure and rewrite bench/baseline.json (review the diff, commit it)
	python3 scripts/perf_check.py baseline $(PERF_ARGS) --out $(PERF_BASELINE)

report: $(BIN) ## build/reports/report.md: bench matrix + thread scaling, gnuplot PNG charts
	CC="$(CC)" REPORT_DIR=$(BUILD)/reports bash scripts/report.sh $(BIN)

hyperfine: $(BIN) ## end-to-end CLI timings (hyperfine): pipelines x threads, JSON + Markdown in build/reports/
	HF_DIR=$(BUILD)/reports bash scripts/hyperfine.sh $(BIN)

# Same-run comparison with tdoku from ../shared/peers (built once into $(BUILD)/peers): every
# SIMD level against the tdoku build of the same width on the bench corpora, interleaved rounds.
COMPARE_ROUNDS  ?= 3
COMPARE_SECONDS ?= 2
.PHONY: compare
compare: $(BIN) ## tdoku vs every SIMD level, same run, medians of COMPARE_ROUNDS=3 x COMPARE_SECONDS=2 (~7 min): build/reports/compare.md
	BUILD=$(BUILD) COMPARE_ROUNDS=$(COMPARE_ROUNDS) COMPARE_SECONDS=$(COMPARE_SECONDS) \
	  bash scripts/compare.sh $(BIN) $(BENCH_FILES)

clean: ## remove build/
	rm -rf build
