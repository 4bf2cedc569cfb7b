# mk/coverage.mk — line and branch coverage of src/ under a test target (gcov + gcovr).
#
#   make coverage                          make test on a --coverage build in build/cov
#   make coverage COV_TARGET=check-all     the same under another target
#   make coverage CROSS=aarch64-linux-gnu- make test under qemu, in build/cov-aarch64
#
# The build is -O1 (not the -O3 of the tests) so that lines map to code; what counts is the
# same build before and after a change to the tests: a suite made faster must not cover fewer
# lines or branches. Each run starts from zeroed counters and writes
# $(COV_DIR)/coverage.txt (the per-file table) and coverage.json (gcovr's, for merging runs:
# `gcovr -a A.json -a B.json`); the summary is the last lines it prints. gcovr merges the
# counts of a source compiled into several objects (the library's PIC copy, the MPI CLI);
# scripts/testing/coverage.py runs it (Debian's gcovr 5.2 cannot merge the kernel stamps' helpers).

DEB_PKGS_ALL += gcovr

COV_TARGET ?= test
COV_DIR    := build/cov$(if $(CROSS),-$(CROSS_ARCH))
COV_GCOV   := $(CROSS)gcov

.PHONY: coverage

coverage: ## line and branch coverage of src/ under make test (COV_TARGET=...; CROSS= for qemu): build/cov*/coverage.txt
	@mkdir -p $(COV_DIR)
	find $(COV_DIR) -name '*.gcda' -delete
	-$(MAKE) --no-print-directory -k BUILD=$(COV_DIR) CFLAGS="-O1 -g --coverage" \
	  $(if $(CROSS),CROSS=$(CROSS)) $(COV_TARGET)
	/usr/bin/python3 scripts/testing/coverage.py -r . --filter 'src/' --gcov-executable $(COV_GCOV) \
	  --exclude-unreachable-branches \
	  --txt $(COV_DIR)/coverage.txt --json $(COV_DIR)/coverage.json --print-summary $(COV_DIR)
