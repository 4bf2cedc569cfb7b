# mk/guesses.mk — the guess counts held to an independent model:
# scripts/sbperf/guess_model.py reimplements the fast pipeline's propagation, branch.h's
# branch rule and search.h's DFS in plain Python, so the same-guesses-at-every-level contract
# is checked against the documented rule, not only level against level. The model also
# takes stronger rules, on every board or to a depth, and other branching (--triad,
# --triad-depth, --branch) for the guess studies of docs/performance.md.
#
#   make test-guesses   every SIMD level this CPU runs (the guest's under CROSS=) and the
#                       generic pipelines with the same techniques, per puzzle on slices of
#                       the committed corpora (tests/guesses/check.sh); part of make test
#   make guess-study    the model's nine searches (with and without the triad rules, cell
#                       or band branching, line pairs) on the committed samples and the multi corpus,
#                       beside tdoku's own guesses; build/reports/guess-study.{md,json}

.PHONY: test-guesses
TEST_EXTRA += test-guesses

test-guesses: $(BIN) $(BIN_RUN) ## every SIMD level's per-puzzle counts and guesses against scripts/sbperf/guess_model.py, an independent model of the search (part of make test)
	bash tests/guesses/check.sh $(BIN_RUN)

# The guess study of docs/performance.md: the nine searches of
# guess_model.py --study on the committed samples and the multi corpus, and tdoku's own
# guesses on them when make compare has built it. A few minutes (Python, every core).
GUESS_STUDY_FILES := datasets/samples/hardest_11plus_1000.txt datasets/samples/top1465.txt \
                     $(MULTI_CORPUS) datasets/samples/17_clue_2000.txt
GUESS_STUDY_TDOKU := $(BUILD)/peers/tdoku-native/run_benchmark

.PHONY: guess-study
guess-study: ## guesses a puzzle of the fast search, with the triad rules and with tdoku's band branching (python3 -m sbperf.guess_model --study), beside tdoku's own when make compare built it; build/reports/guess-study.{md,json}
	@mkdir -p $(BUILD)/reports
	$(PY_TOOLS) -m sbperf.guess_model --study $(if $(wildcard $(GUESS_STUDY_TDOKU)),--tdoku $(GUESS_STUDY_TDOKU)) \
	  --json $(BUILD)/reports/guess-study.json $(GUESS_STUDY_FILES) > $(BUILD)/reports/guess-study.md.tmp
	mv $(BUILD)/reports/guess-study.md.tmp $(BUILD)/reports/guess-study.md
	@cat $(BUILD)/reports/guess-study.md
	$(if $(wildcard $(GUESS_STUDY_TDOKU)),,@echo "guess-study: no tdoku row ($(GUESS_STUDY_TDOKU) is missing: make compare builds it)")
