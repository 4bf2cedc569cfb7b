# mk/report.mk — make report's test: tests/cli/report.sh runs scripts/report/report.sh on two
# 120-puzzle slices with 0.01 s rows and checks the report and its four charts are made (a
# few seconds). The report itself is `make report` (Makefile). Needs gnuplot (make deps-all).
.PHONY: test-report
ifneq ($(CROSS),)
test-report:
	@echo "test-report: skipped for CROSS=$(CROSS) (gnuplot charts of an emulated run say nothing more)"
else
test-report: $(BIN) ## make report runs to the end on small slices: report.md and four PNG charts (tests/cli/report.sh)
	bash tests/cli/report.sh $(BIN)
endif
TEST_EXTRA += test-report
