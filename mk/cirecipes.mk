# mk/cirecipes.mk — the pull-request gate recipes of docs/examples (docs/ci.md, "Pull-request
# gates"): a GitHub Actions workflow (perf-gate.yml) and GitLab CI jobs
# (perf-gate.gitlab-ci.yml). tests/ci/recipes.py parses them (python3-yaml) and runs their
# commands in this tree as the CI systems would, with their variables faked: the GitHub
# workflow on the tree (it passes: summary, exports and JUnit report checked; its plug-in job
# records the example plug-in's baseline and passes against it), the GitLab jobs against
# doctored baselines (a count 10% smaller: each gate fails and names the entry). The steps
# that are CI plumbing (checkout, artifact upload, github-action-benchmark) are listed there,
# with the reason they are not run. make perf-check's counts run once in full (about 30 s
# idle) and once on one entry, the plug-in's recorded once, checked once and once on one
# entry; where the CPU has AVX-512 its timed gate runs too, its verdict not asserted (a
# timing).
DEB_PKGS_ALL += python3-yaml

.PHONY: test-cirecipes
TEST_EXTRA += test-cirecipes
ifneq ($(CROSS),)
test-cirecipes:
	@echo "test-cirecipes: skipped for CROSS=$(CROSS) (valgrind runs only host binaries)"
else ifeq ($(SAN),1)
test-cirecipes:
	@echo "test-cirecipes: skipped under SAN=1 (the recipes build and gate the plain build)"
else ifeq ($(CC_IS_CLANG),1)
test-cirecipes:
	@echo "test-cirecipes: skipped for CC=clang (the recipes build with the default gcc: the gcc make test runs it)"
else
# plugins: the GitHub and GitLab plug-in jobs build them with `make plugins`, a target of
# mk/plugins.mk (read after this file, so named rather than by its files).
test-cirecipes: $(BIN) $(LIB) $(PERF_DRIVER) plugins ## the CI recipes of docs/examples run as CI would: a passing gate on the tree, a failing one on a doctored baseline
	PYTHONDONTWRITEBYTECODE=1 $(PYTHON) tests/ci/recipes.py
endif
