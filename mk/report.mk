# mk/report.mk — the test of make report and make study: tests/cli/report.sh runs
# scripts/report/report.sh on two 120-puzzle slices with 0.01 s rows and scripts/report/study.sh
# on one, and checks the reports and their five charts are made (matplotlib, PNG files of
# their set sizes); the scaling warning and the study's noise marks on made-up timings
# (a few seconds). The reports themselves are `make report` and `make study` (Makefile).
# The charts need Debian's python3-matplotlib (PYTHON, the Makefile's; make deps-all).
DEB_PKGS_ALL += python3-matplotlib

.PHONY: test-report
ifneq ($(CROSS),)
test-report:
	@echo "test-report: skipped for CROSS=$(CROSS) (the charts of an emulated run say nothing more)"
else
test-report: $(BIN) ## make report and make study run to the end on small slices: report.md, study.md and five PNG charts (tests/cli/report.sh)
	PYTHON="$(PYTHON)" bash tests/cli/report.sh $(BIN)
endif
TEST_EXTRA += test-report
