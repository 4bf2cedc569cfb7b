# mk/geometry.mk — issue 13's CLI tests: tests/cli/geometry.sh with its independent checker
# build/tests/gcheck (tests/cli/gcheck.c + the dancing-links oracle tests/dlx.c).
GCHECK := $(BUILD)/tests/gcheck

$(GCHECK): tests/cli/gcheck.c tests/dlx.c tests/dlx.h $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ tests/cli/gcheck.c tests/dlx.c $(LIB) $(LDLIBS)

.PHONY: test-geometry
ifneq ($(CROSS),)
test-geometry:
	@echo "test-geometry: skipped for CROSS=$(CROSS) (the checker is a target binary; the unit tests cover the library under qemu)"
else
test-geometry: $(BIN) $(GCHECK) ## CLI on other geometries: --grid, detection, errors, --all, pretty (tests/cli/geometry.sh)
	bash tests/cli/geometry.sh $(BIN) $(GCHECK)
endif
TEST_EXTRA += test-geometry
