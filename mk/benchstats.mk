# mk/benchstats.mk — bench's samples, statistics and ecosystem exports (tests/cli/benchstats.sh):
# --repeat, the header's CPU and load, notes and warnings after the table, --export gbench,
# bmf and github checked key by key. Google Benchmark's compare.py (libbenchmark-tools; its
# report module imports SciPy) reads two gbench exports when installed.
DEB_PKGS_ALL += libbenchmark-tools python3-scipy

.PHONY: test-benchstats
test-benchstats: $(BIN) $(BIN_RUN) ## bench --repeat statistics, notes and warnings after the table, --export gbench/bmf/github (tests/cli/benchstats.sh)
	bash tests/cli/benchstats.sh $(BIN_RUN)
TEST_EXTRA += test-benchstats
