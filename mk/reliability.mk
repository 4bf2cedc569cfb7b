# mk/reliability.mk — reliability (docs/reliability.md): fault injection, the large independent
# cross-check, fuzzing.
#
#   make test-fault     the CLI under injected read/write/allocation faults (tests/fault/),
#                       and solve/rate/validate -o FILE --resume after SIGKILLs (resume.sh);
#                       part of make test (skipped under CROSS=: an LD_PRELOAD shim of the
#                       build machine cannot enter qemu's guest; SAN=1 leaves out the
#                       allocation faults, ASan owns malloc, and injects at fewer offsets)
#   make test-oracle    a slice of the cross-check (ORACLE_SLICE puzzles), part of make test
#   make check-oracle   >= ORACLE_TARGET puzzles (standard corpora when ../shared/datasets is
#                       present, else the samples, plus mutants) through every pipeline and
#                       SIMD level against tests/dlx.c and tests/reference.c; 0 mismatches
#   make test-slow      the fault suites and the CLI suites that send signals on a slowed CPU
#                       (scripts/testing/slow-cpu), plain and ASan builds: nothing depends on speed
#   make fuzz           every libFuzzer target for FUZZ_SECONDS each (clang, ASan + UBSan)

TEST_EXTRA += test-fault test-oracle
DEB_PKGS_ALL += python3 clang llvm libclang-rt-14-dev

.PHONY: test-fault test-oracle check-oracle fuzz fuzz-build fuzz-corpus

# ---- fault injection ---------------------------------------------------------------------
FAULT_SHIM := $(BUILD)/fault/shim.so

# The shim is built without sanitizers: it is preloaded into the program, not part of it.
# Under SAN=1 it leaves malloc alone (-DFAULT_NO_ALLOC): ASan's runtime must own it.
$(FAULT_SHIM): tests/fault/shim.c
	@mkdir -p $(dir $@)
	$(CC) -shared -fPIC -O2 $(WARN) $(if $(filter 1,$(SAN)),-DFAULT_NO_ALLOC) -o $@ $< -ldl

ifneq ($(CROSS),)
test-fault:
	@echo "test-fault: skipped for CROSS=$(CROSS): the LD_PRELOAD shim is a build-machine library and cannot be preloaded into qemu's guest"
else
test-fault: $(BIN) $(FAULT_SHIM)
	python3 tests/fault/run.py $(BIN) $(FAULT_SHIM) $(if $(filter 1,$(SAN)),--no-malloc --quick)
	bash tests/fault/resume.sh $(BIN) $(FAULT_SHIM)
endif

# ---- the same suites on a slowed CPU ----------------------------------------------------
# test-slow: the fault suites and the CLI suites that send signals, run by scripts/testing/slow-cpu
# (pinned to one core with a busy loop competing on it), first on this build, then on the
# ASan + UBSan build; with the Python suite (its Ctrl-C cases) on the plain one. Not part of
# make test: it proves that no test depends on the machine's speed. Each command's hang guard
# is raised to SLOW_TIMEOUT seconds (the tests time nothing).
SLOW_TIMEOUT ?= 900
.PHONY: test-slow test-slow-one
test-slow: ## the fault and signal suites on a slowed CPU (one core shared with a busy loop), plain and ASan builds
	$(MAKE) --no-print-directory test-slow-one SLOW_PY=1
	$(MAKE) --no-print-directory BUILD=$(BUILD)/asan SAN=1 test-slow-one

ifneq ($(CROSS),)
test-slow-one:
	@echo "test-slow: not for CROSS=$(CROSS) (qemu is slow already; the shim is the guest's)"
else
test-slow-one: $(BIN) $(FAULT_SHIM) $(if $(SLOW_PY),$(PY_STAMP))
	@echo "=== test-slow: $(BUILD), one core shared with a busy loop"
	SUDOKUBENCH_TEST_TIMEOUT=$(SLOW_TIMEOUT) scripts/testing/slow-cpu python3 tests/fault/run.py $(BIN) $(FAULT_SHIM) \
	  $(if $(filter 1,$(SAN)),--no-malloc --quick)
	SUDOKUBENCH_TEST_TIMEOUT=$(SLOW_TIMEOUT) scripts/testing/slow-cpu bash tests/fault/resume.sh $(BIN) $(FAULT_SHIM)
	SUDOKUBENCH_TEST_TIMEOUT=$(SLOW_TIMEOUT) SB_SHIM=$(abspath $(FAULT_SHIM)) scripts/testing/slow-cpu bash tests/cli/run.sh $(BIN)
	SUDOKUBENCH_TEST_TIMEOUT=$(SLOW_TIMEOUT) SB_SHIM=$(abspath $(FAULT_SHIM)) scripts/testing/slow-cpu bash tests/cli/batch.sh $(BIN)
	$(if $(SLOW_PY),SUDOKUBENCH_TEST_TIMEOUT=$(SLOW_TIMEOUT) SB_CLI=$(abspath $(BIN)) PYTHONPATH=$(abspath $(PY_DIR)):$(abspath tests) \
	  PYTHONDONTWRITEBYTECODE=1 scripts/testing/slow-cpu $(PYTHON) -m pytest -q -p no:cacheprovider python/tests)
endif

# ---- the independent cross-check ------------------------------------------------------------
ORACLE         := $(BUILD)/oracle/oracle
ORACLE_TARGET  ?= 200000
ORACLE_EVERY   ?= 40
ORACLE_FILES   ?= $(if $(SHARED_DATA),$(SHARED_DATA),$(wildcard datasets/samples/*.txt))
# The make-test slice: a few thousand puzzles from the committed samples, the slow generic
# pipelines on every ORACLE_SLICE_EVERY-th (ASan runs them about five times slower: 800).
# Under qemu (CROSS=) everything runs some ten times slower: a smaller slice.
ORACLE_SLICE       ?= $(if $(CROSS),800,$(if $(filter 1,$(SAN)),800,4000))
ORACLE_SLICE_EVERY ?= $(if $(CROSS),200,$(if $(filter 1,$(SAN)),150,80))

$(ORACLE): tests/oracle/oracle.c tests/dlx.c tests/reference.c tests/dlx.h tests/reference.h $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests -o $@ tests/oracle/oracle.c tests/dlx.c tests/reference.c $(LIB) $(LDLIBS)

test-oracle: $(ORACLE)
	$(if $(CROSS),timeout -s KILL 900 $(QEMU_RUN)) $(ORACLE) --target $(ORACLE_SLICE) \
	  --every $(ORACLE_SLICE_EVERY) $(wildcard datasets/samples/*.txt)

check-oracle: $(ORACLE) ## the cross-check: >= 200000 puzzles + mutants, every pipeline and SIMD level vs tests/dlx.c, 0 mismatches
	$(ORACLE) --target $(ORACLE_TARGET) --every $(ORACLE_EVERY) $(ORACLE_FILES)

# ---- fuzzing (libFuzzer: clang, ASan + UBSan) -----------------------------------------------
# Own objects in build/fuzz: the library compiled with clang's coverage instrumentation and
# the sanitizers. Each target runs FUZZ_SECONDS on its committed seed corpus
# (tests/fuzz/corpus/NAME, read only) plus what it finds (build/fuzz/corpus/NAME); a crash
# stops `make fuzz` with the input saved as build/fuzz/crash-NAME-*.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_DIR     := build/fuzz
FUZZ_FLAGS   := -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
                -fno-sanitize-recover=all
FUZZ_CFLAGS   = -std=c11 -D_GNU_SOURCE -DSB_EXPERT -fopenmp -Iinclude -Isrc -I$(BUILD)/gen -Itests $(WARN) \
                $(FUZZ_FLAGS) -DSB_BUILD_FLAGS='"fuzz"'
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
# The app layer's objects too: the API target drives its byte buffers (src/app/app.h).
FUZZ_LIB_OBJS := $(LIB_SRCS:%.c=$(FUZZ_DIR)/obj/%.o) $(APP_SRCS:%.c=$(FUZZ_DIR)/obj/%.o) \
                 $(FUZZ_DIR)/obj/tests/dlx.o $(FUZZ_DIR)/obj/tests/reference.o
FUZZ_BINS    := $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz_%)
# Named only by the pattern rule below, make would treat the objects as intermediate and
# delete them after each link.
.SECONDARY: $(FUZZ_LIB_OBJS)

$(FUZZ_DIR)/obj/src/kernel/kernel_%.o: src/kernel/kernel_%.c $(TABLES) $(wildcard include/*.h src/*.h src/*/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(KERNEL_FLAGS_$*) -c -o $@ $<

$(FUZZ_DIR)/obj/src/box16/kernel_%.o: src/box16/kernel_%.c $(TABLES) $(wildcard include/*.h src/*.h src/*/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(KERNEL_FLAGS_$*) -c -o $@ $<

$(FUZZ_DIR)/obj/%.o: %.c $(TABLES) $(wildcard include/*.h src/*.h src/*/*.h tests/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_util.h $(wildcard src/app/*.h) $(FUZZ_LIB_OBJS)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_LIB_OBJS)

fuzz-build: $(FUZZ_BINS) ## build the libFuzzer targets (build/fuzz/fuzz_*; clang)

fuzz: $(FUZZ_BINS) ## run every libFuzzer target for FUZZ_SECONDS=60 on its seed corpus (clang, ASan + UBSan)
	@set -e; for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(FUZZ_DIR)/corpus/$$t; \
	  echo "=== fuzz: $$t for $(FUZZ_SECONDS) s"; \
	  rc=0; $(FUZZ_DIR)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	    -timeout=30 -rss_limit_mb=2048 -artifact_prefix=$(FUZZ_DIR)/crash-$$t- \
	    $(FUZZ_DIR)/corpus/$$t tests/fuzz/corpus/$$t >$(FUZZ_DIR)/$$t.log 2>&1 || rc=$$?; \
	  grep -E '^(stat::|#[0-9]+[[:space:]]+(INITED|DONE)|==[0-9]+==|SUMMARY|fuzz invariant)' \
	    $(FUZZ_DIR)/$$t.log || true; \
	  test $$rc -eq 0 || { echo "fuzz: $$t failed (exit $$rc), see $(FUZZ_DIR)/$$t.log"; exit 1; }; \
	done

# Each libFuzzer target once over its committed seeds and regression inputs, no search: what
# CI runs (the build with clang's ASan + UBSan and libFuzzer's own driver), in about a minute;
# make fuzz is the search, FUZZ_SECONDS a target, for check-all.
fuzz-corpus: $(FUZZ_BINS) ## every libFuzzer target over its committed corpus and regression inputs, once (CI)
	@set -e; for t in $(FUZZ_TARGETS); do \
	  rc=0; $(FUZZ_DIR)/fuzz_$$t -runs=0 -timeout=30 -rss_limit_mb=2048 \
	    -artifact_prefix=$(FUZZ_DIR)/crash-$$t- tests/fuzz/corpus/$$t \
	    $$(test -d tests/fuzz/regress/$$t && echo tests/fuzz/regress/$$t) >$(FUZZ_DIR)/$$t-corpus.log 2>&1 || rc=$$?; \
	  grep -E '^(#[0-9]+[[:space:]]+(INITED|DONE)|==[0-9]+==|SUMMARY|fuzz invariant)' \
	    $(FUZZ_DIR)/$$t-corpus.log || true; \
	  test $$rc -eq 0 || { echo "fuzz-corpus: $$t failed (exit $$rc), see $(FUZZ_DIR)/$$t-corpus.log"; exit 1; }; \
	done

# The same targets without libFuzzer (tests/fuzz/replay.c), built by $(CC) with the build's
# flags: `make test` replays the seed corpora and every regression input on each toolchain.
FUZZ_REPLAY := $(FUZZ_TARGETS:%=$(BUILD)/fuzz-replay/fuzz_%)
TEST_EXTRA  += test-fuzz-replay
.PHONY: test-fuzz-replay

$(BUILD)/fuzz-replay/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c tests/fuzz/fuzz_util.h tests/dlx.c tests/reference.c $(wildcard src/app/*.h) $(APP_LIB) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests -o $@ $< tests/fuzz/replay.c tests/dlx.c tests/reference.c $(APP_LIB) $(LIB) $(APP_LDLIBS) $(LDLIBS)

test-fuzz-replay: $(FUZZ_REPLAY)
	@set -e; for t in $(FUZZ_TARGETS); do \
	  $(if $(CROSS),timeout -s KILL 900 $(QEMU_RUN)) $(BUILD)/fuzz-replay/fuzz_$$t \
	    tests/fuzz/corpus/$$t tests/fuzz/regress/$$t; \
	done

# Line coverage of the library per target (llvm-cov): each target rebuilt with clang's
# source-based coverage and run over its corpora (committed + found by make fuzz) and
# regression inputs; prints the TOTAL row of llvm-cov report over src/ for each.
FUZZ_COV_DIR := build/fuzz-cov
.PHONY: fuzz-coverage
fuzz-coverage: $(TABLES) ## line coverage of src/ per fuzz target over its corpora (llvm-cov; after make fuzz)
	@set -e; mkdir -p $(FUZZ_COV_DIR); for t in $(FUZZ_TARGETS); do \
	  $(FUZZ_CC) -std=c11 -D_GNU_SOURCE -DSB_EXPERT -fopenmp -Iinclude -Isrc -I$(BUILD)/gen -Itests -O1 -g \
	    -fprofile-instr-generate -fcoverage-mapping -DSB_BUILD_FLAGS='"cov"' \
	    -o $(FUZZ_COV_DIR)/fuzz_$$t tests/fuzz/fuzz_$$t.c tests/fuzz/replay.c tests/dlx.c \
	    tests/reference.c $(FUZZ_COV_DIR)/libcov.a; \
	  rm -f $(FUZZ_COV_DIR)/$$t.profraw; \
	  LLVM_PROFILE_FILE=$(FUZZ_COV_DIR)/$$t.profraw $(FUZZ_COV_DIR)/fuzz_$$t tests/fuzz/corpus/$$t \
	    $(FUZZ_DIR)/corpus/$$t tests/fuzz/regress/$$t >/dev/null; \
	  llvm-profdata merge -o $(FUZZ_COV_DIR)/$$t.profdata $(FUZZ_COV_DIR)/$$t.profraw; \
	  printf '%-9s ' $$t; llvm-cov report $(FUZZ_COV_DIR)/fuzz_$$t \
	    -instr-profile=$(FUZZ_COV_DIR)/$$t.profdata $(LIB_SRCS) | grep '^TOTAL'; \
	done

fuzz-coverage: $(FUZZ_COV_DIR)/libcov.a
FUZZ_COV_OBJS := $(LIB_SRCS:%.c=$(FUZZ_COV_DIR)/obj/%.o) $(APP_SRCS:%.c=$(FUZZ_COV_DIR)/obj/%.o)
.SECONDARY: $(FUZZ_COV_OBJS)
$(FUZZ_COV_DIR)/obj/src/kernel/kernel_%.o: src/kernel/kernel_%.c $(TABLES)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -std=c11 -D_GNU_SOURCE -DSB_EXPERT -fopenmp -Iinclude -Isrc -I$(BUILD)/gen -O1 -g \
	  -fprofile-instr-generate -fcoverage-mapping $(KERNEL_FLAGS_$*) -c -o $@ $<
$(FUZZ_COV_DIR)/obj/src/box16/kernel_%.o: src/box16/kernel_%.c $(TABLES)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -std=c11 -D_GNU_SOURCE -DSB_EXPERT -fopenmp -Iinclude -Isrc -I$(BUILD)/gen -O1 -g \
	  -fprofile-instr-generate -fcoverage-mapping $(KERNEL_FLAGS_$*) -c -o $@ $<
$(FUZZ_COV_DIR)/obj/%.o: %.c $(TABLES)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) -std=c11 -D_GNU_SOURCE -DSB_EXPERT -fopenmp -Iinclude -Isrc -I$(BUILD)/gen -O1 -g \
	  -fprofile-instr-generate -fcoverage-mapping -DSB_BUILD_FLAGS='"cov"' -c -o $@ $<
$(FUZZ_COV_DIR)/libcov.a: $(FUZZ_COV_OBJS)
	@rm -f $@
	$(AR) rcs $@ $^
