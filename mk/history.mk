# mk/history.mk — performance over history (docs/ci.md, "History: make perf-history").
#
#   make perf-history [REV=A..B]       measure each commit of the range (default: the last
#                                      HISTORY_COUNT=10) into $(BUILD)/reports/history.jsonl,
#                                      then draw history.html (a chart per corpus, inline
#                                      SVG with a tooltip per point; no script) and
#                                      history.png there
#   make perf-bisect GOOD=A BAD=B [ENTRY=fast/scalar/top1465]
#                                      the first commit whose count rose above PERF_THRESHOLD
#   make perf-history PERF_PLUGIN_REPO=DIR PERF_PLUGIN_BUILD='CMD' PERF_PLUGIN=REL/PATH.so \
#                     PERF_BASELINE=FILE.json [REV=A..B]
#                                      the same for a solver plug-in's own commits: each is
#                                      built by CMD in its worktree of DIR, and this tree's
#                                      perf driver measures the .so at REL/PATH.so there on
#                                      the entries of the plug-in's baseline (make
#                                      perf-baseline PERF_PLUGIN=...) -> history-NAME.jsonl,
#                                      .html and .png, NAME the plug-in's; perf-bisect takes
#                                      the same variables
#   make perf-history-clean            remove the worktrees of built commits
#
# Each commit is built in its own git worktree under $(BUILD)/history/wt/ (kept: a commit is
# built once) with ccache when installed (consecutive commits share most sources); the
# measurement is the gate's: callgrind Ir inside sb_solve / sb_solve_many for each entry of
# PERF_BASELINE and PERF_BASELINE_MANY, on the first quarter of their slices
# (HISTORY_DIVIDE=4, rounded up: 10 commits in minutes; HISTORY_DIVIDE=1 takes the gate's
# whole slices, 4x the time; HISTORY_PUZZLES=N caps every slice). The revision that wrote the
# baseline is measured on the same slices and gives the chart its reference and band.
# Bisection runs `git bisect run` in a throwaway clone: the checkout, branch and bisect state
# of this repository are never touched. A plug-in's worktrees are under
# $(BUILD)/history/plugin-NAME/wt/; its records carry this tree's revision (the harness, in
# toolchain_id), so a commit x entry is measured again when this tree changes.
#
# The modules are scripts/sbperf's (history, bisect, worktree, report, charts), run by
# PY_TOOLS; the charts are matplotlib's (python3-matplotlib, mk/report.mk), and the test loads
# the page in headless Chromium (chromium). The AVX-512 gate of perf-check (sbperf.avx512,
# variables PERF_AVX512*) builds its base driver through the same cache.

DEB_PKGS_ALL += ccache chromium
TEST_EXTRA += test-history

REV             ?=
HISTORY_COUNT   ?= 10
HISTORY_DIVIDE  ?= 4
HISTORY_PUZZLES ?= 0
HISTORY_ONLY    ?=
HISTORY_JOBS    ?= $(shell nproc 2>/dev/null || echo 2)
HISTORY_DIR     := $(BUILD)/history
# HISTORY_FILE: by default $(BUILD)/reports/history.jsonl, for a plug-in history-NAME.jsonl
HISTORY_FILE    ?=
# A solver plug-in's history: its repository, the shell command that builds it (run in the
# root of each commit's worktree), and PERF_PLUGIN, the .so it gives, relative to that root.
PERF_PLUGIN_REPO  ?=
PERF_PLUGIN_BUILD ?=
HISTORY_SUBJECT  = $(if $(PERF_PLUGIN_REPO),--plugin-repo "$(PERF_PLUGIN_REPO)" \
                   --plugin-build '$(subst ','\'',$(PERF_PLUGIN_BUILD))' \
                   --plugin "$(PERF_PLUGIN)" --driver $(PERF_DRIVER) \
                   --baseline $(PERF_BASELINE),--baseline $(PERF_BASELINE) $(PERF_BASELINE_MANY))
HISTORY_ARGS     = --workdir $(HISTORY_DIR) $(if $(HISTORY_FILE),--out $(HISTORY_FILE)) \
                   --reports $(BUILD)/reports --cc "$(CC)" \
                   --jobs $(HISTORY_JOBS) --threshold $(PERF_THRESHOLD) \
                   --count $(HISTORY_COUNT) --divide $(HISTORY_DIVIDE) --puzzles $(HISTORY_PUZZLES) \
                   $(if $(HISTORY_ONLY),--only $(HISTORY_ONLY)) $(HISTORY_SUBJECT)
# The plug-in's commits are measured by this tree's driver, built once.
HISTORY_DEPS     = $(if $(PERF_PLUGIN_REPO),$(PERF_DRIVER))

# The AVX-512 timed gate (make perf-check; docs/ci.md "The AVX-512 gate"): base and head
# drivers in PERF_AVX512_ROUNDS interleaved rounds, Mann-Whitney U p < 0.05 and a median
# slowdown above PERF_AVX512_MIN_EFFECT percent fail. Base: PERF_AVX512_BASE, by default the
# revision that last changed PERF_BASELINE. PERF_AVX512=0 skips it.
PERF_AVX512            ?= 1
PERF_AVX512_BASE       ?=
PERF_AVX512_ROUNDS     ?= 20
PERF_AVX512_MIN_EFFECT ?= 3
PERF_AVX512_ARGS        = --head $(PERF_DRIVER) --baseline $(PERF_BASELINE) \
                          --workdir $(HISTORY_DIR) --cc "$(CC)" --rounds $(PERF_AVX512_ROUNDS) \
                          --min-effect $(PERF_AVX512_MIN_EFFECT) \
                          $(if $(PERF_AVX512_BASE),--base-rev $(PERF_AVX512_BASE))

.PHONY: perf-history perf-bisect perf-history-clean test-history

perf-history: $(HISTORY_DEPS) ## callgrind counts of each commit of REV=A..B (default the last 10) -> $(BUILD)/reports/history.jsonl + history.html (a chart per corpus) + history.png; a plug-in's commits with PERF_PLUGIN_REPO=DIR PERF_PLUGIN_BUILD='CMD' PERF_PLUGIN=REL/PATH.so PERF_BASELINE=FILE (-> history-NAME.*)
	$(PY_TOOLS) -m sbperf.history run $(HISTORY_ARGS) --rev "$(REV)"

perf-bisect: $(HISTORY_DEPS) ## first commit of GOOD..BAD whose count rose above PERF_THRESHOLD (ENTRY=..., default the worst entry; a plug-in's commits with PERF_PLUGIN_REPO=... as perf-history); checkout untouched
	@if [ -z "$(GOOD)" ] || [ -z "$(BAD)" ]; then \
	  echo "usage: make perf-bisect GOOD=REV BAD=REV [ENTRY=PIPELINE/LEVEL/DATASET]"; exit 2; fi
	$(PY_TOOLS) -m sbperf.bisect run $(HISTORY_ARGS) --good "$(GOOD)" --bad "$(BAD)" \
	  $(if $(ENTRY),--entry "$(ENTRY)")

perf-history-clean: ## remove the worktrees of commits built by perf-history / perf-bisect (keeps history.jsonl)
	rm -rf $(HISTORY_DIR)/wt $(HISTORY_DIR)/plugin-*/wt
	git worktree prune
	$(if $(PERF_PLUGIN_REPO),git -C "$(PERF_PLUGIN_REPO)" worktree prune)

# The history tests: the unit tests of its modules and the schema always; the end-to-end
# clone test (tests/perf/test_history.sh, about a minute) needs native callgrind runs, and
# loads the page it draws in headless Chromium.
HISTORY_UNIT_TESTS := json_schema worktree history report bisect
HISTORY_UNIT := for t in $(HISTORY_UNIT_TESTS); do $(PY_TOOLS) tests/perf/test_$$t.py || exit 1; done
ifneq ($(CROSS),)
test-history:
	$(HISTORY_UNIT)
	@echo "test-history: history/bisect clone test skipped for CROSS=$(CROSS) (valgrind runs only host binaries)"
else ifeq ($(SAN),1)
test-history:
	$(HISTORY_UNIT)
	@echo "test-history: history/bisect clone test skipped under SAN=1 (it builds and measures plain commits; nothing sanitized to test)"
else ifeq ($(CC_IS_CLANG),1)
test-history:
	$(HISTORY_UNIT)
	@echo "test-history: history/bisect clone test skipped for CC=clang (it tests the history scripts, not the toolchain: the gcc make test runs it)"
else
test-history: ## the history tests: its modules, the schema, perf-history/perf-bisect on a throwaway clone and its page in headless Chromium
	$(HISTORY_UNIT)
	CCACHE_DIR=$(abspath $(HISTORY_DIR))/ccache PYTHON="$(PYTHON)" bash tests/perf/test_history.sh
endif
