# sudokubench — every entry point. `make help` lists the targets.
#
# Build output goes to $(BUILD) (default build/): build/sudokubench, build/libsudokubench.a.
# The programs' layer (src/app/: streams, segments, side files, sources, the record solver) is
# a private archive, build/libsbapp.a, linked into the programs and the tests only: it is
# not part of libsudokubench (.a or .so) and is never installed.
# The default binary runs on any x86-64: no -march=native; SIMD kernels are compiled per
# instruction set with per-file -m flags and chosen at run time.
#
# Toolchains (README "Portability"); each gets its own BUILD unless BUILD= is given, so their
# objects never mix:
#   make                              gcc                      -> build/
#   make CC=clang                     clang + libomp           -> build/clang/
#   make CROSS=aarch64-linux-gnu-     $(CROSS)gcc, cross build -> build/aarch64/
#                                     (make test-aarch64 runs its tests under qemu-aarch64)
#   make CROSS=riscv64-linux-gnu-     the same for riscv64 -> build/riscv64/ (make test-riscv64)
# The table generator (build/.../gen/gen_tables) always runs on the build machine: HOSTCC.

CROSS    ?=
CROSS_TRIPLET := $(patsubst %-,%,$(CROSS))
CROSS_ARCH    := $(firstword $(subst -, ,$(CROSS)))
# CC is make's default (cc, gcc on Debian) unless given; with CROSS it is $(CROSS)gcc unless
# given on the command line.
ifneq ($(CROSS),)
ifneq ($(origin CC),command line)
CC       := $(CROSS)gcc
endif
endif
ifeq ($(origin AR),default)
AR       := $(CROSS)ar
endif
OBJCOPY  ?= $(CROSS)objcopy
HOSTCC   ?= $(if $(CROSS),gcc,$(CC))
CC_IS_CLANG := $(if $(findstring clang,$(shell $(CC) --version 2>/dev/null | head -n 1)),1)
ifndef BUILD
BUILD    := $(if $(CROSS),build/$(CROSS_ARCH),$(if $(CC_IS_CLANG),build/clang,build))
endif
OPT      ?= -O3
SAN      ?=
# clang 14 writes DWARF 5 forms that valgrind 3.19 (Debian 12) cannot read, so the callgrind
# perf tests need DWARF 4 from it; gcc keeps plain -g (the flags perf-check records).
CFLAGS   ?= $(OPT) $(if $(CC_IS_CLANG),-gdwarf-4,-g)
WARN     := -Wall -Wextra
# -DSB_EXPERT: the tree's own code (library, programs, tests, bench, fuzzers) sees the expert
# tier of include/sudokubench.h besides the stable one. Every command that compiles the tree's
# code passes it (BASE here, gbench below, mk/reliability.mk, scripts/measure/mca.sh) or
# defines it (python/sudokubench/_build.py); the examples and an installed program get the
# stable tier unless they define it.
BASE     := -std=c11 -D_GNU_SOURCE -DSB_EXPERT -fopenmp -Iinclude -Isrc -I$(BUILD)/gen $(WARN)
ifeq ($(SAN),1)
CFLAGS   := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
endif
ALL_CFLAGS = $(BASE) $(CFLAGS) -DSB_BUILD_FLAGS='"$(CFLAGS)"'
LDLIBS   := -fopenmp

# Decompressors of compressed inputs (src/app/unpack.c): the programs' (app layer), not the
# library's. Each is built in when its header and library are there for CC, so a cross build
# without the target's zlib, libzstd or liblzma still builds, and says so when it meets such
# a file. $(call have_lib,HEADER,-lLIB): 1 when a program including HEADER links with -lLIB.
have_lib = $(shell printf '\043include <$(1)>\nint main(void){return 0;}\n' | \
             $(CC) -x c - -o /dev/null $(2) >/dev/null 2>&1 && echo 1)
HAVE_ZLIB := $(call have_lib,zlib.h,-lz)
HAVE_ZSTD := $(call have_lib,zstd.h,-lzstd)
HAVE_LZMA := $(call have_lib,lzma.h,-llzma)
APP_DEFS   := $(if $(HAVE_ZLIB),-DHAVE_ZLIB) $(if $(HAVE_ZSTD),-DHAVE_ZSTD) \
              $(if $(HAVE_LZMA),-DHAVE_LZMA)
APP_LDLIBS := $(if $(HAVE_ZLIB),-lz) $(if $(HAVE_ZSTD),-lzstd) $(if $(HAVE_LZMA),-llzma)

# The library: src/'s folders but two, one per layer or component (src/README.md); src/cli/
# and src/app/ are the programs'.
LIB_SRCS := $(filter-out src/app/% src/cli/%,$(wildcard src/*/*.c))

# Each kernel stamp is compiled for its instruction set with per-file flags (gcc and clang
# alike); the rest of the library stays baseline. Stamps for another architecture compile to
# the portable algorithm and are never dispatched (src/kernel/simd.c).
TARGET_ARCH_NAME := $(shell $(CC) -dumpmachine 2>/dev/null)
ifneq ($(findstring x86_64,$(TARGET_ARCH_NAME)),)
KERNEL_FLAGS_sse4   := -msse4.1 -mpopcnt
KERNEL_FLAGS_avx2   := -mavx2 -mbmi -mbmi2 -mpopcnt -mlzcnt
KERNEL_FLAGS_avx512bw := -mavx512f -mavx512bw -mavx512vl $(KERNEL_FLAGS_avx2)
KERNEL_FLAGS_avx512 := $(KERNEL_FLAGS_avx512bw) -mavx512vpopcntdq -mavx512vbmi -mavx512bitalg
KERNEL_FLAGS_box16_avx2 := $(KERNEL_FLAGS_avx2)
# The "fast+T" stamps (kernel_<level>_tech.c): the same flags as their level.
KERNEL_FLAGS_sse4_tech   := $(KERNEL_FLAGS_sse4)
KERNEL_FLAGS_avx2_tech   := $(KERNEL_FLAGS_avx2)
KERNEL_FLAGS_avx512_tech := $(KERNEL_FLAGS_avx512)
KERNEL_FLAGS_avx512bw_tech := $(KERNEL_FLAGS_avx512bw)
endif
LIB_SRCS := $(filter-out src/tables/gen_tables.c,$(LIB_SRCS))
APP_SRCS := $(wildcard src/app/*.c)
CLI_SRCS := $(wildcard src/cli/*.c)
TEST_SRCS := $(wildcard tests/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
APP_OBJS := $(APP_SRCS:%.c=$(BUILD)/obj/%.o)
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/obj/%.o)
TEST_OBJS := $(TEST_SRCS:%.c=$(BUILD)/obj/%.o)
LIB      := $(BUILD)/libsudokubench.a
APP_LIB  := $(BUILD)/libsbapp.a
BIN      := $(BUILD)/sudokubench
UNIT     := $(BUILD)/tests/unit
# The AVX-512 lane tables, each made by gen_tables in its mode (GEN_MODE_name): NAME.inc in
# byte-pair form (VBMI byte permutes), NAME_w.inc in word form (gen_tables MODE w: the
# avx512bw stamp's word permutes).
LANE_TABLES := house_lanes cell_house_lanes lane_order locked_lanes
GEN_MODE_house_lanes      := lanes
GEN_MODE_cell_house_lanes := cells
GEN_MODE_lane_order       := order
GEN_MODE_locked_lanes     := locked
TABLES   := $(BUILD)/gen/tables.inc $(LANE_TABLES:%=$(BUILD)/gen/%.inc) \
            $(LANE_TABLES:%=$(BUILD)/gen/%_w.inc) $(BUILD)/gen/geometry9.inc \
            $(BUILD)/gen/lane_map.inc

# Cross builds (CROSS=...): the tests run under qemu user-mode emulation (scripts/cross/qemu-run;
# BIN_RUN is a generated wrapper for scripts that take a binary path), and the unit tests link
# Criterion from a private sysroot of the target's Debian packages (scripts/cross/cross-sysroot.sh:
# libcriterion-dev:arm64 cannot be installed beside the amd64 one). Criterion re-executes the
# test binary for each worker, which the host kernel cannot run: QEMU_SHIM (LD_PRELOAD'ed into
# the guest, scripts/cross/qemu-exec-shim.c) sends that exec through qemu. Natively all are empty.
# Debian has Criterion for arm64 but for no riscv64: bookworm has no riscv64 port, Debian builds
# criterion only for amd64, arm64 and i386 (its sandbox library, BoxFort, has no riscv64 code
# in Debian), and trixie and sid dropped it. So a riscv64 build skips the unit tests (UNIT_SKIP)
# and needs no sysroot; the CLI and geometry suites and the oracle slice (tests/dlx.c) still
# run under qemu.
DEB_ARCH_aarch64 := arm64
DEB_ARCH_riscv64 := riscv64
CRITERION_DEB_ARCHS := arm64
SYSROOT_PKGS     := libcriterion-dev libcriterion3
UNIT_RUN :=
UNIT_SKIP :=
BIN_RUN  := $(BIN)
ifneq ($(CROSS),)
CROSS_DEB_ARCH := $(DEB_ARCH_$(CROSS_ARCH))
UNIT_SKIP      := $(if $(filter $(CROSS_DEB_ARCH),$(CRITERION_DEB_ARCHS)),,Debian has no Criterion for $(CROSS_DEB_ARCH) (Makefile, CROSS section))
SYSROOT        := build/sysroot/$(CROSS_DEB_ARCH)
SYSROOT_STAMP  := $(SYSROOT)/.complete
SYSROOT_LIBS   := $(abspath $(SYSROOT))/usr/lib/$(CROSS_TRIPLET):$(abspath $(SYSROOT))/lib/$(CROSS_TRIPLET)
CRIT_CFLAGS    := -I$(SYSROOT)/usr/include
CRIT_LIBS      := -L$(SYSROOT)/usr/lib/$(CROSS_TRIPLET) -Wl,-rpath-link,$(SYSROOT_LIBS)
QEMU_RUN       := $(abspath scripts/cross/qemu-run) --arch $(CROSS_ARCH) --prefix /usr/$(CROSS_TRIPLET)
QEMU_SHIM      := $(BUILD)/qemu-exec-shim.so
# Bounded: a hang under emulation must fail the run, not eat CI's 90 minutes. A hang guard,
# never a speed limit: the suite, a few minutes under qemu on the CI machine, ran past 15 on a
# slow 2-core VM, so the bound is 40 minutes (QEMU_UNIT_GUARD, seconds).
QEMU_UNIT_GUARD ?= 2400
UNIT_RUN       := timeout -s KILL $(QEMU_UNIT_GUARD) $(QEMU_RUN) --libs $(SYSROOT_LIBS) --preload $(abspath $(QEMU_SHIM))
BIN_RUN        := $(BIN)-qemu
endif

# Corpora for `make bench`: the standard ones when ../shared is beside the checkout, else
# the small samples committed in datasets/samples (the embedded default); and always the
# project's two corpora of puzzles with several solutions (datasets/multi), classes none of
# the others has: minimal puzzles less one given (scripts/datasets/make_multi.py) and a
# generator's candidates, full grids dug to 30-40 givens (scripts/datasets/make_dug.py).
# scripts/datasets/corpora.sh lists the same.
SHARED_DATA := $(wildcard ../shared/datasets/puzzles*)
MULTI_CORPUS := datasets/multi/multi_2000_seed1.txt
DUG_CORPUS := datasets/multi/dug_2000_seed1.txt
BENCH_FILES ?= $(if $(SHARED_DATA),$(SHARED_DATA),$(wildcard datasets/samples/*.txt)) $(MULTI_CORPUS) $(DUG_CORPUS)
BENCH_ARGS  ?= -t 1 --seconds 2 --pipelines fast

# Performance tooling (bench/, scripts/sbperf, docs/ci.md). The gate counts
# instructions under callgrind against PERF_BASELINE and fails above PERF_THRESHOLD percent.
# The tooling's Python is the package scripts/sbperf, run as modules (python3 -m sbperf.gate)
# by PY_TOOLS, which gives it its module path; no bytecode caches in the source tree.
# PYTHON is Debian's python3 when there is one: the charts need its python3-matplotlib, and
# the Python package installs into its site directory (mk/install.mk); a python3 found
# first on PATH (pyenv, a virtualenv) may have neither.
PYTHON         ?= $(firstword $(wildcard /usr/bin/python3) python3)
PY_TOOLS       := PYTHONPATH=$(abspath scripts) PYTHONDONTWRITEBYTECODE=1 $(PYTHON)
PERF_DIR       := $(BUILD)/perf
PERF_DRIVER    := $(PERF_DIR)/perf_driver
PERF_SLOW      := $(BUILD)/perf-test/perf_driver_slow
GBENCH         := $(PERF_DIR)/gbench
PERF_THRESHOLD ?= 2
PERF_BASELINE  ?= bench/baseline.json
# The second gate: sb_solve_many's instructions for the fast pipeline at avx2 (the paired
# search the CLI uses there), measured by the driver with SB_PERF_MANY=1.
PERF_BASELINE_MANY ?= bench/baseline_many.json
PERF_WALL      ?= 1
PERF_COUNT_ARGS = --driver $(PERF_DRIVER) --cc "$(CC)" --flags "$(CFLAGS)"
PERF_ARGS       = $(PERF_COUNT_ARGS) $(if $(filter 1,$(PERF_WALL)),--gbench $(GBENCH))
# PERF_PLUGIN=FILE: perf-check and perf-baseline gate that solver plug-in (docs/plugins.md)
# instead of the library, against PERF_BASELINE, which must then name the plug-in's own file
# (nothing is committed for one: make perf-baseline PERF_PLUGIN=FILE PERF_BASELINE=FILE
# records it). The driver's --plugin mode counts the instructions inside sb_engine_solve (the
# harness and the plug-in) on the same corpora, after checking every answer natively. The
# library's other parts of perf-check (sb_solve_many, AVX-512, wall time) do not run. With
# PERF_PLUGIN_REPO=DIR and PERF_PLUGIN_BUILD='CMD', perf-history and perf-bisect chart the
# plug-in's own commits, PERF_PLUGIN then the .so's path in DIR (mk/history.mk).
PERF_PLUGIN    ?=
PERF_PLUGIN_ARGS = $(PERF_COUNT_ARGS) --plugin "$(PERF_PLUGIN)"
GBENCH_ARGS    ?= --benchmark_out=$(BUILD)/reports/gbench.json --benchmark_out_format=json
# What the gates hand to CI (scripts/sbperf/publish.py; docs/ci.md "Pull-request gates"):
# PERF_SUMMARY=FILE appends each gate's verdict, exit code and table as Markdown to FILE
# ($GITHUB_STEP_SUMMARY); PERF_EXPORT='FORMAT:FILE ...' writes the counts as bmf (Bencher
# Metric Format) or github (github-action-benchmark's customSmallerIsBetter), as bench
# --export writes its rows, and the verdicts as junit (JUnit XML). The gates of one
# perf-check write into the same files, which it removes first; the AVX-512 gate takes junit.
PERF_SUMMARY   ?=
PERF_EXPORT    ?=
PERF_PUBLISH    = $(if $(PERF_SUMMARY),--summary "$(PERF_SUMMARY)") \
                  $(foreach e,$(PERF_EXPORT),--export "$(e)")
PERF_EXPORT_FILES = $(foreach e,$(PERF_EXPORT),$(patsubst $(firstword $(subst :, ,$(e))):%,%,$(e)))
PERF_AVX512_PUBLISH = $(if $(PERF_SUMMARY),--summary "$(PERF_SUMMARY)") \
                      $(foreach e,$(filter junit:%,$(PERF_EXPORT)),--export "$(e)")

# Debian packages, in three sets; each mk/*.mk adds its area's to the set that needs them.
#   DEB_PKGS       make deps: building (make, make all) and make bench. zlib1g-dev, libzstd-dev,
#                  liblzma-dev: compressed inputs (each optional: see HAVE_ZLIB)
#   DEB_PKGS_PERF  make deps-perf adds them: make perf-check (valgrind counts; python3 runs the
#                  gate; git builds the AVX-512 gate's base revision; g++ and libbenchmark-dev
#                  the wall-time part, PERF_WALL=1)
#   DEB_PKGS_ALL   make deps-all adds them: make test and every other target. clang + libomp-dev:
#                  `make CC=clang`; gcc-aarch64-linux-gnu + qemu-user: `make test-aarch64`, which
#                  also needs the arm64 architecture known to apt (DEB_FOREIGN_ARCHS, added by
#                  deps-all) for the Criterion sysroot that deps-all unpacks into
#                  build/sysroot/arm64; gcc-riscv64-linux-gnu: `make test-riscv64` (no sysroot:
#                  see UNIT_SKIP)
DEB_PKGS      := gcc make libc6-dev zlib1g-dev libzstd-dev liblzma-dev
DEB_PKGS_PERF := python3 valgrind git g++ libbenchmark-dev
DEB_PKGS_ALL  := libcriterion-dev time hyperfine cmake \
                 clang libomp-dev gcc-aarch64-linux-gnu gcc-riscv64-linux-gnu qemu-user
DEB_FOREIGN_ARCHS := arm64

# Areas with their own targets (MPI, install/Python, fuzzing, ...) live in mk/*.mk, included
# here so each keeps its rules in one file: they may append to DEB_PKGS, DEB_PKGS_PERF or
# DEB_PKGS_ALL (make deps, deps-perf, deps-all) and to TEST_EXTRA (extra prerequisites of
# make test).
.DEFAULT_GOAL := all
TEST_EXTRA :=
# $(call shards,NAME,N): the targets NAME.0 ... NAME.N-1 of a suite run as N shards (make test)
shards = $(foreach k,$(shell seq 0 $$(($(2) - 1))),$(1).$(k))
include $(sort $(wildcard mk/*.mk))

.PHONY: all help deps deps-perf deps-all check-all test test-serial test-unit test-cli test-sanitize test-aarch64 test-riscv64 bench batch datasets clean
.PHONY: test-perf gbench perf-check perf-baseline report hyperfine same-bytes study

all: $(BIN) $(LIB) ## build build/sudokubench and build/libsudokubench.a

help: ## list the targets
	@grep -hE '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | awk -F'\t' '{printf "  make %-14s %s\n", $$1, $$2}'
	@echo "  variables: BUILD=$(BUILD) OPT=$(OPT) BENCH_FILES=... BENCH_ARGS='$(BENCH_ARGS)'"
	@echo "  tests: TEST_JOBS=$(TEST_JOBS) TEST_TIMEOUT=$(TEST_TIMEOUT) (s, a command's hang guard) UNIT_TIMEOUT=$(UNIT_TIMEOUT) UNIT_SCALE=$(UNIT_SCALE) (4 under SAN=1 or CROSS=)"
	@echo "  toolchains: CC=clang (build/clang; clang libomp-dev), CROSS=aarch64-linux-gnu- (build/aarch64;"
	@echo "    gcc-aarch64-linux-gnu, tests via make test-aarch64 under qemu-user), CROSS=riscv64-linux-gnu-"
	@echo "    (build/riscv64; gcc-riscv64-linux-gnu, make test-riscv64); HOSTCC=$(HOSTCC) builds gen_tables"
	@echo "  perf: PERF_THRESHOLD=$(PERF_THRESHOLD) (percent) PERF_BASELINE=$(PERF_BASELINE) PERF_WALL=$(PERF_WALL) (0: no wall-time part)"
	@echo "    PERF_PLUGIN=FILE: perf-check/perf-baseline gate that solver plug-in against its own PERF_BASELINE=FILE"
	@echo "    PERF_PLUGIN_REPO=DIR PERF_PLUGIN_BUILD='CMD' PERF_PLUGIN=REL/PATH.so PERF_BASELINE=FILE: perf-history/perf-bisect over the plug-in's commits"
	@echo "  make deps: $(sort $(DEB_PKGS))"
	@echo "  make deps-perf adds: $(sort $(filter-out $(DEB_PKGS),$(DEB_PKGS_PERF)))"
	@echo "  make deps-all adds: $(sort $(filter-out $(DEB_PKGS) $(DEB_PKGS_PERF),$(DEB_PKGS_ALL))) and the $(DEB_FOREIGN_ARCHS) architecture"

# One recipe for the three sets: DEPS_SET is the target's packages, DEPS_ARCHS the foreign
# architectures it adds to apt (deps-all only), each with its Criterion sysroot. The light
# set comes without apt's recommended packages (libc6-dev's libc-devtools would bring an
# image library stack: 82 packages instead of 45 on a Debian 12 base system); the others
# keep them (the cross builds need the cross compilers' recommended libc6-dev-*-cross).
deps: ## install the missing Debian packages building and make bench need (DEB_PKGS; idempotent)
deps-perf: ## deps, and what make perf-check needs (DEB_PKGS_PERF: valgrind, ...)
deps-all: ## deps-perf, and what make test and every other target need (DEB_PKGS_ALL); adds arm64 to apt, unpacks its Criterion sysroot
# The probes above (the compiler's target, the compression libraries) and those of mk/*.mk
# (MPI, python3, ...) ran when this make started: after an install they may be stale, so
# when deps installed something it stops before the other goals of its command line
# (DEPS_AFTER) and asks for them in a new make.
DEPS_GOALS := deps deps-perf deps-all
DEPS_AFTER := $(filter-out $(DEPS_GOALS),$(MAKECMDGOALS))
deps:      DEPS_SET = $(DEB_PKGS)
deps-perf: DEPS_SET = $(DEB_PKGS) $(DEB_PKGS_PERF)
deps-all:  DEPS_SET = $(DEB_PKGS) $(DEB_PKGS_PERF) $(DEB_PKGS_ALL)
deps-all:  DEPS_ARCHS = $(DEB_FOREIGN_ARCHS)
deps:      DEPS_APT = --no-install-recommends
deps deps-perf deps-all:
	@set -e; SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); update=""; missing=""; \
	for a in $(DEPS_ARCHS); do \
	  if ! dpkg --print-foreign-architectures | grep -qx "$$a"; then \
	    echo "$@: adding the $$a architecture to apt"; $$SUDO dpkg --add-architecture "$$a"; update=1; \
	  fi; \
	  [ -f build/sysroot/$$a/.complete ] || apt-cache show "libcriterion3:$$a" >/dev/null 2>&1 || update=1; \
	done; \
	for p in $(sort $(DEPS_SET)); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing$$update" ]; then $$SUDO apt-get update -qq; fi; \
	if [ -n "$$missing" ]; then \
	  echo "$@: installing$$missing"; \
	  DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(DEPS_APT) $$missing; \
	else echo "$@: all present ($(sort $(DEPS_SET)))"; fi; \
	for a in $(DEPS_ARCHS); do \
	  bash scripts/cross/cross-sysroot.sh "$$a" "build/sysroot/$$a" $(SYSROOT_PKGS); \
	done; \
	if [ -n "$$missing" ] && [ -n "$(DEPS_AFTER)" ]; then \
	  echo "$@: installed; this make probed the machine before that: run 'make $(DEPS_AFTER)' now" >&2; \
	  exit 1; \
	fi

$(BUILD)/gen/gen_tables: src/tables/gen_tables.c include/sudokubench.h
	@mkdir -p $(dir $@)
	$(HOSTCC) -std=c11 -O1 $(WARN) -Iinclude -o $@ src/tables/gen_tables.c

$(BUILD)/gen/tables.inc: $(BUILD)/gen/gen_tables
	$< > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/geometry9.inc: $(BUILD)/gen/gen_tables
	$< geometry > $@.tmp && mv $@.tmp $@

$(BUILD)/gen/lane_map.inc: $(BUILD)/gen/gen_tables
	$< map > $@.tmp && mv $@.tmp $@

$(LANE_TABLES:%=$(BUILD)/gen/%.inc): $(BUILD)/gen/%.inc: $(BUILD)/gen/gen_tables
	$< $(GEN_MODE_$*) > $@.tmp && mv $@.tmp $@

$(LANE_TABLES:%=$(BUILD)/gen/%_w.inc): $(BUILD)/gen/%_w.inc: $(BUILD)/gen/gen_tables
	$< $(GEN_MODE_$*) w > $@.tmp && mv $@.tmp $@

$(BUILD)/obj/src/kernel/kernel_%.o: src/kernel/kernel_%.c $(TABLES) $(wildcard include/*.h src/*.h src/*/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(KERNEL_FLAGS_$*) -c -o $@ $<

$(BUILD)/obj/src/box16/kernel_%.o: src/box16/kernel_%.c $(TABLES) $(wildcard include/*.h src/*.h src/*/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(KERNEL_FLAGS_$*) -c -o $@ $<

$(BUILD)/obj/%.o: %.c $(TABLES) $(wildcard include/*.h src/*.h src/*/*.h tests/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests -c -o $@ $<

$(LIB): $(LIB_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

$(APP_OBJS): ALL_CFLAGS += $(APP_DEFS)
$(APP_LIB): $(APP_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^

# The app archive comes before the library it calls (static archives resolve left to right).
$(BIN): $(CLI_OBJS) $(APP_LIB) $(LIB)
	$(CC) $(ALL_CFLAGS) -o $@ $(CLI_OBJS) $(APP_LIB) $(LIB) $(APP_LDLIBS) $(LDLIBS)

# UNIT_SCALE: the heaviest cross-checks of the unit suite (hundreds of puzzles through every
# spec, level and stamp, against the oracle) take 1/UNIT_SCALE of their puzzles. The plain
# build runs them whole; under ASan + UBSan (about 4x slower) and qemu (5-20x) the same code
# paths on a quarter of the puzzles catch what those builds are for: memory errors and the
# target's own kernels. Each build directory keeps its own value (make does not track flags).
UNIT_SCALE ?= $(if $(filter 1,$(SAN))$(CROSS),4,1)
$(TEST_OBJS): ALL_CFLAGS += -DTU_SCALE=$(UNIT_SCALE)

$(UNIT): $(TEST_OBJS) $(APP_LIB) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $(TEST_OBJS) $(APP_LIB) $(LIB) $(APP_LDLIBS) $(CRIT_LIBS) -lcriterion $(LDLIBS)

ifneq ($(CROSS),)
$(SYSROOT_STAMP):
	bash scripts/cross/cross-sysroot.sh $(CROSS_DEB_ARCH) $(SYSROOT) $(SYSROOT_PKGS)

$(TEST_OBJS): ALL_CFLAGS += $(CRIT_CFLAGS)
$(TEST_OBJS) $(UNIT): | $(if $(UNIT_SKIP),,$(SYSROOT_STAMP))

$(QEMU_SHIM): scripts/cross/qemu-exec-shim.c
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -O2 $(WARN) -o $@ $< -ldl

# What the CLI test scripts run: a cross binary under qemu, by absolute paths (BIN_RUN, and
# mk/geometry.mk's checker): BUILD/X-qemu runs BUILD/X.
$(BUILD)/%-qemu: scripts/cross/qemu-run
	@mkdir -p $(dir $@)
	printf '#!/bin/sh\n# generated by make: %s under qemu (scripts/cross/qemu-run); $$SB_PRELOAD: a guest\n# library to preload (the fault shim of the CLI tests)\nexec %s $${SB_PRELOAD:+--preload "$$SB_PRELOAD"} %s "$$@"\n' \
	  '$(abspath $(BUILD)/$*)' '$(QEMU_RUN)' '$(abspath $(BUILD)/$*)' > $@.tmp && chmod +x $@.tmp && mv $@.tmp $@
endif

# make test runs its suites side by side, TEST_JOBS at a time (default three times the cores:
# the MPI, namespace-host and Slurm suites spend most of their time waiting on start-ups, so
# they start first and take little CPU), each suite's output printed whole when it ends
# (--output-sync). Long suites are split into shards (SB_SHARD=K/N, tests/cli/harness.sh):
# NAME.K runs every Nth case of NAME from the Kth, and NAME alone still runs them all.
# `make test-serial` runs the same suites one after another.
TEST_JOBS    ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) * 3 )))
# TEST_TIMEOUT: the test scripts' hang guard per command, in seconds, never a speed limit
# (exported to them as SUDOKUBENCH_TEST_TIMEOUT; a script run alone takes 120). Side by side on
# 2 cores the heaviest command (a 25x25 generate: about 7-11 s alone natively, 21 s under ASan)
# ran past 120 s natively as well as under ASan or qemu.
TEST_TIMEOUT ?= 600
export SUDOKUBENCH_TEST_TIMEOUT = $(TEST_TIMEOUT)
TEST_WAITING := test-hosts test-mpi test-slurm

test: ## every suite, side by side (TEST_JOBS=N): unit (Criterion), CLI, perf-gate and each area's TEST_EXTRA (mk/*.mk)
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) --output-sync=target test-serial

test-serial: $(filter $(TEST_WAITING),$(TEST_EXTRA)) test-unit test-cli test-perf $(TEST_EXTRA) ## the suites of make test, one after another (unless make -j)

# UNIT_TIMEOUT: seconds any one unit test may take before Criterion kills it, a hang guard
# only (no test is timed; the slowest takes seconds natively, minutes under qemu or ASan).
UNIT_TIMEOUT ?= 600
test-unit: $(if $(UNIT_SKIP),,$(UNIT) $(QEMU_SHIM))
	@sh scripts/guards/omp-litter.sh
	$(if $(UNIT_SKIP),@echo "test-unit: skipped for CROSS=$(CROSS): $(UNIT_SKIP)",$(if $(filter 1,$(SAN)),LSAN_OPTIONS=suppressions=$(abspath tests/lsan.supp)) $(UNIT_RUN) $(UNIT) --jobs 2 --timeout $(UNIT_TIMEOUT))

# The signal cases interrupt runs from inside, through the fault shim (tests/fault/shim.c, built
# for the target: under CROSS= the wrapper hands it to qemu's guest).
test-cli: test-cli-run test-cli-batch test-cli-paths
CLI_SHARDS ?= 2
test-cli-run test-cli-batch test-cli-paths: test-cli-%: $(call shards,test-cli-%,$(CLI_SHARDS))
$(foreach t,run batch paths,$(call shards,test-cli-$(t),$(CLI_SHARDS))): $(BIN) $(BIN_RUN) $(FAULT_SHIM)
	@sh scripts/guards/omp-litter.sh
	SB_SHARD=$(subst .,,$(suffix $@))/$(CLI_SHARDS) SB_SHIM=$(abspath $(FAULT_SHIM)) \
	  bash tests/cli/$(patsubst test-cli-%,%,$(basename $@)).sh $(BIN_RUN)

test-sanitize: ## the whole test suite built with ASan + UBSan (in build/asan; with CC=clang build/clang/asan)
	$(MAKE) --no-print-directory BUILD=$(BUILD)/asan SAN=1 test

# What CI runs is .ci/run. check-all is everything at full size on every toolchain, one step
# after another: the fuzzers searching (FUZZ_SECONDS a target), the whole cross-check, the
# suites on a slowed CPU. For a release or a scheduled job; about an hour on 2 cores.
check-all: ## everything at full size, every toolchain: CI's steps plus make fuzz, check-oracle and test-slow
	$(MAKE) --no-print-directory test
	$(MAKE) --no-print-directory test-sanitize
	$(MAKE) --no-print-directory perf-check
	$(MAKE) --no-print-directory CC=clang test
	$(MAKE) --no-print-directory test-aarch64
	$(MAKE) --no-print-directory test-riscv64
	$(MAKE) --no-print-directory fuzz
	$(MAKE) --no-print-directory check-oracle
	$(MAKE) --no-print-directory test-slow

# One rule per cross architecture, each in build/ARCH with the Debian cross gcc ARCH-linux-gnu-gcc.
test-aarch64 test-riscv64: test-%:
	$(MAKE) --no-print-directory CROSS=$*-linux-gnu- CC=$*-linux-gnu-gcc BUILD=build/$* test
test-aarch64: ## cross-build for aarch64 (build/aarch64) and run the unit + CLI tests under qemu-aarch64 (no perf tests)
test-riscv64: ## cross-build for riscv64 (build/riscv64) and run the CLI, geometry and oracle tests under qemu-riscv64 (no Criterion for riscv64)

bench: $(BIN) ## benchmark: ../shared/datasets if present, else datasets/samples, and datasets/multi (1 thread)
	$(BIN) bench $(BENCH_ARGS) $(BENCH_FILES)

batch: $(BIN) ## batch engine at scale: a 5M-puzzle file in build/, solve with 1 and all threads, rate + peak RSS
	bash scripts/measure/batch_scale.sh $(BIN)

datasets: $(BIN) ## build local corpora in datasets/generated/: 1M generated, 100k minimal, augmented standard sets
	bash scripts/datasets/make_datasets.sh $(BIN)

$(PERF_DRIVER): bench/perf_driver.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB) $(LDLIBS)

# Test-only: the same driver with sb_solve renamed in a copy of the library and wrapped by a
# burner (tests/perf/slowdown.c), so the gate's own test sees a real regression inside the
# measured function while the shipped sources stay untouched.
$(PERF_SLOW): bench/perf_driver.c tests/perf/slowdown.c $(LIB)
	@mkdir -p $(dir $@)
	$(OBJCOPY) --redefine-sym sb_solve=sb_solve_unslowed $(LIB) $(dir $@)libslowed.a
	$(CC) $(ALL_CFLAGS) -o $@ $< tests/perf/slowdown.c $(dir $@)libslowed.a $(LDLIBS)

$(GBENCH): bench/gbench.cc $(LIB)
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 $(OPT) -g $(WARN) -DSB_EXPERT -Iinclude -o $@ $< $(LIB) -lbenchmark -lpthread $(LDLIBS)

# The perf tooling's own tests (synthetic data, no solver runs), one file per module of
# scripts/sbperf: every test-perf variant runs them. The history's are mk/history.mk's.
PERF_UNIT_TESTS := stats table charts measure gate avx512 compare compare_ir guess_model
PERF_UNIT := for t in $(PERF_UNIT_TESTS); do $(PY_TOOLS) tests/perf/test_$$t.py || exit 1; done

ifneq ($(CROSS),)
test-perf:
	$(PERF_UNIT)
	@echo "test-perf: callgrind checks skipped for CROSS=$(CROSS) (valgrind runs only host binaries)"
else ifeq ($(SAN),1)
test-perf:
	$(PERF_UNIT)
	@echo "test-perf: callgrind check skipped under SAN=1 (valgrind cannot run ASan builds)"
else
test-perf: $(PERF_DRIVER) $(PERF_SLOW) $(PLUGIN_SOS)
	$(PERF_UNIT)
	bash tests/perf/real_check.sh $(PERF_DRIVER) $(PERF_SLOW)
	bash tests/perf/plugin_check.sh $(PERF_DRIVER) $(PLUGIN_DIR) "$(MAKE)"
	PYTHON="$(PYTHON)" bash tests/perf/plugin_history.sh $(PERF_DRIVER) "$(MAKE)"
endif

gbench: $(GBENCH) ## Google Benchmark: every pipeline x corpus x SIMD level; JSON in build/reports/gbench.json
	@mkdir -p $(BUILD)/reports
	$(GBENCH) $(GBENCH_ARGS) $(BENCH_FILES)

# The wall-time part times the library's pipelines, so a plug-in's check does not build it.
PERF_WALL_DEP = $(if $(PERF_PLUGIN),,$(if $(filter 1,$(PERF_WALL)),$(GBENCH)))

perf-check: $(PERF_DRIVER) $(PERF_WALL_DEP) ## CI gate: callgrind counts vs bench/baseline.json, fails above PERF_THRESHOLD=2 % (PERF_SUMMARY=FILE, PERF_EXPORT='bmf|github|junit:FILE ...'; PERF_PLUGIN=FILE gates a solver plug-in)
	$(if $(PERF_EXPORT_FILES),rm -f $(foreach f,$(PERF_EXPORT_FILES),"$(f)"))
ifneq ($(PERF_PLUGIN),)
	$(PY_TOOLS) -m sbperf.gate check $(PERF_PLUGIN_ARGS) --baseline $(PERF_BASELINE) \
	  --threshold $(PERF_THRESHOLD) --current-out $(PERF_DIR)/current-$(notdir $(PERF_BASELINE)) $(PERF_PUBLISH)
else
	$(PY_TOOLS) -m sbperf.gate check $(PERF_ARGS) --baseline $(PERF_BASELINE) \
	  --threshold $(PERF_THRESHOLD) --current-out $(PERF_DIR)/current.json $(PERF_PUBLISH)
	SB_PERF_MANY=1 $(PY_TOOLS) -m sbperf.gate check $(PERF_COUNT_ARGS) \
	  --baseline $(PERF_BASELINE_MANY) --threshold $(PERF_THRESHOLD) \
	  --current-out $(PERF_DIR)/current_many.json $(PERF_PUBLISH)
	$(if $(filter 1,$(PERF_AVX512)),$(PERF_AVX512_GATE),@echo "perf-check avx512: NOT GATED (PERF_AVX512=0)")
endif

# The AVX-512 timed gate alone (perf-check's last part; mk/history.mk has its variables): it
# times only where the CPU has AVX-512 and says NOT GATED elsewhere.
PERF_AVX512_GATE = $(PY_TOOLS) -m sbperf.avx512 gate $(PERF_AVX512_ARGS) $(PERF_AVX512_PUBLISH)
.PHONY: perf-check-avx512
perf-check-avx512: $(PERF_DRIVER) ## perf-check's AVX-512 timed gate alone (NOT GATED where the CPU has no AVX-512)
	$(PERF_AVX512_GATE)

perf-baseline: $(PERF_DRIVER) $(PERF_WALL_DEP) ## measure and rewrite bench/baseline.json (review the diff, commit it); with PERF_PLUGIN=FILE the plug-in's PERF_BASELINE
ifneq ($(PERF_PLUGIN),)
	$(PY_TOOLS) -m sbperf.gate baseline $(PERF_PLUGIN_ARGS) --out $(PERF_BASELINE)
else
	$(PY_TOOLS) -m sbperf.gate baseline $(PERF_ARGS) --out $(PERF_BASELINE)
	SB_PERF_MANY=1 $(PY_TOOLS) -m sbperf.gate baseline $(PERF_COUNT_ARGS) \
	  --function sb_solve_many --only fast:avx2 --out $(PERF_BASELINE_MANY)
endif

report: $(BIN) ## build/reports/report.md: bench matrix + thread scaling, PNG charts (matplotlib), the strategies study (REPORT_STUDY=0 leaves it out)
	CC="$(CC)" PYTHON="$(PYTHON)" REPORT_DIR=$(BUILD)/reports bash scripts/report/report.sh $(BIN)

study: $(BIN) ## build/reports/study.md + study.png: fast, list, BASE,T and fast+T rows per corpus, ns/call with its spread (scripts/report/study.sh: STUDY_CORPORA=samples|shared|all, STUDY_N, STUDY_FAST_N, STUDY_SECONDS, ...)
	PYTHON="$(PYTHON)" STUDY_DIR=$(BUILD)/reports bash scripts/report/study.sh $(BIN)

hyperfine: $(BIN) ## end-to-end CLI timings (hyperfine): solve pipelines x threads, generate (default, --minimal) x threads; JSON + Markdown in build/reports/
	HF_DIR=$(BUILD)/reports bash scripts/measure/hyperfine.sh $(BIN)

# Same-run comparison with tdoku from ../shared/peers (built once into $(BUILD)/peers): every
# SIMD level against the tdoku build of the same width on the bench corpora, interleaved rounds.
COMPARE_ROUNDS  ?= 3
COMPARE_SECONDS ?= 2
.PHONY: compare
compare: $(BIN) ## tdoku vs every SIMD level, same run, medians of COMPARE_ROUNDS=3 x COMPARE_SECONDS=2 (~8 min): build/reports/compare.md
	BUILD=$(BUILD) COMPARE_ROUNDS=$(COMPARE_ROUNDS) COMPARE_SECONDS=$(COMPARE_SECONDS) \
	  bash scripts/measure/compare.sh $(BIN) $(BENCH_FILES)

# Why the ratios are what they are: instructions a puzzle (callgrind) and instructions a
# second (times the timed median) of each level and its tdoku peer, on the first
# COMPARE_IR_PUZZLES puzzles of the committed samples (docs/performance.md).
COMPARE_IR_PUZZLES ?= 300
.PHONY: compare-ir
compare-ir: $(BIN) $(PERF_DRIVER) ## instructions/puzzle and instructions/s vs tdoku at each width, 300-puzzle slices (~5 min): build/reports/compare-ir.md
	BUILD=$(BUILD) COMPARE_ROUNDS=$(COMPARE_ROUNDS) COMPARE_SECONDS=$(COMPARE_SECONDS) \
	  COMPARE_IR_PUZZLES=$(COMPARE_IR_PUZZLES) bash scripts/measure/compare_ir.sh $(BIN) $(PERF_DRIVER)

# The refactor guard: this build against SAME_BASE (a revision, default HEAD) built
# in its own git worktree; scripts/guards/same-bytes.sh compares stdout, stderr and exit codes over
# a matrix of commands, formats, geometries and -t 1,2 (bench --json without its timings).
SAME_BASE ?= HEAD
same-bytes: $(BIN) ## the refactor guard: same bytes as SAME_BASE=REV (default HEAD) for every command, format, geometry and -t 1,2
	@rm -rf $(BUILD)/same-bytes; git worktree prune; \
	git worktree add --detach -q $(BUILD)/same-bytes $(SAME_BASE) && \
	echo "same-bytes: building $(SAME_BASE) ($$(git rev-parse --short $(SAME_BASE))) in $(BUILD)/same-bytes" && \
	$(MAKE) --no-print-directory -C $(BUILD)/same-bytes BUILD=build build/sudokubench >$(BUILD)/same-bytes.log 2>&1 && \
	scripts/guards/same-bytes.sh $(BUILD)/same-bytes/build/sudokubench $(BIN); rc=$$?; \
	git worktree remove --force $(BUILD)/same-bytes; exit $$rc

clean: ## remove build/
	rm -rf build
