# mk/multi.mk — the benchmark corpus of puzzles with several solutions:
# datasets/multi/, made by scripts/datasets/make_multi.py (minimal puzzles of `generate`, one given
# less each), measured by make bench / compare / gbench / report (BENCH_FILES,
# scripts/datasets/corpora.sh). datasets/README.md describes it.
#
#   make multi-corpus   rewrite $(MULTI_CORPUS) with this build's generator (review the diff)
#   make test-multi     the generator and the committed corpus against the dancing-links
#                       oracle (tests/datasets/multi.sh, with mk/geometry.mk's gcheck); part
#                       of make test

.PHONY: multi-corpus dug-corpus test-multi
TEST_EXTRA += test-multi

dug-corpus: $(BIN) ## rewrite $(DUG_CORPUS) (generator-class candidates: full grids dug to 30-40 givens, 2+ solutions) with scripts/datasets/make_dug.py
	python3 scripts/datasets/make_dug.py $(BIN) --count 2000 --seed 1 --givens 30-40 -o $(DUG_CORPUS)

multi-corpus: $(BIN) ## rewrite datasets/multi/multi_2000_seed1.txt (puzzles with 2+ solutions) with scripts/datasets/make_multi.py
	python3 scripts/datasets/make_multi.py $(BIN) --count 2000 --seed 1 --remove 1 -o $(MULTI_CORPUS)

# The corpus is data, the same on every target: checked once, by build-machine binaries.
ifneq ($(CROSS),)
test-multi:
	@echo "test-multi: skipped for CROSS=$(CROSS) (the corpus is data: the native make test checks it)"
else
test-multi: $(BIN) $(GCHECK)
	bash tests/datasets/multi.sh $(BIN) $(GCHECK)
endif
