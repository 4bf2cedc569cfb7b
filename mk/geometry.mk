# mk/geometry.mk — the geometry CLI tests: tests/cli/geometry.sh with its independent checker
# build/tests/gcheck (tests/cli/gcheck.c + the dancing-links oracle tests/dlx.c).
GCHECK := $(BUILD)/tests/gcheck

$(GCHECK): tests/cli/gcheck.c tests/dlx.c tests/dlx.h $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ tests/cli/gcheck.c tests/dlx.c $(LIB) $(LDLIBS)

.PHONY: test-geometry
# Under CROSS= the checker is a target binary, run like the CLI through a generated qemu
# wrapper (GCHECK_RUN). That is done where the unit suite cannot run (UNIT_SKIP: riscv64), as
# these suites are then the library's only test of other geometries; for aarch64 the unit
# tests cover them under qemu.
GCHECK_RUN := $(if $(CROSS),$(GCHECK)-qemu,$(GCHECK))
ifeq ($(if $(CROSS),$(UNIT_SKIP),run),)
test-geometry:
	@echo "test-geometry: skipped for CROSS=$(CROSS) (the checker is a target binary; the unit tests cover the library under qemu)"
else
test-geometry: $(BIN) $(BIN_RUN) $(GCHECK) $(GCHECK_RUN) ## CLI on other geometries: --grid, detection, errors, --all, pretty (tests/cli/geometry.sh)
	bash tests/cli/geometry.sh $(BIN_RUN) $(GCHECK_RUN)
	bash tests/cli/greader.sh $(BIN_RUN)
	bash tests/cli/gstop.sh $(BIN_RUN)
endif
TEST_EXTRA += test-geometry

# make geometry-bench — the general solver's speed, a benchmark (never a test). Fixed-seed
# sets, cached under build/geometry-bench: two sets of minimal 16x16 puzzles from the
# generator (20 with seed 7, 40 with seed 8: the oracle's time per puzzle differs a lot
# between sets, so the ratio is quoted for both), 40 25x25 puzzles with 55% of the cells given
# (gcheck half; at 50% most have two solutions and a few take seconds to show it); 9x9
# samples from datasets/. 16x16 runs the whole-board kernel at the best level, at the
# baseline one (sse4 / neon: 128-bit vectors) and the per-cell reference (scalar).
# Prints the least of GBENCH_ROUNDS runs per solver and the same-run ratios; the instruction
# counts quoted in docs/geometry.md come from callgrind on the same commands.
GBENCH_DIR := $(BUILD)/geometry-bench
GBENCH_ROUNDS ?= 3
GBENCH_BASE := $(if $(findstring aarch64,$(TARGET_ARCH_NAME)),neon,sse4)
$(GBENCH_DIR)/m16.txt: | $(BIN)
	@mkdir -p $(dir $@)
	$(BIN) generate --grid 4x4 -n 20 --seed 7 -t 2 >$@.tmp && mv $@.tmp $@
$(GBENCH_DIR)/m16b.txt: | $(BIN)
	@mkdir -p $(dir $@)
	$(BIN) generate --grid 4x4 -n 40 --seed 8 -t 2 >$@.tmp && mv $@.tmp $@
$(GBENCH_DIR)/h25.txt: | $(GCHECK)
	@mkdir -p $(dir $@)
	$(GCHECK) half 5x5 40 25 55 >$@.tmp && mv $@.tmp $@
$(GBENCH_DIR)/s17.txt $(GBENCH_DIR)/h11.txt:
	@mkdir -p $(dir $@)
	grep -v '^#' datasets/samples/17_clue_2000.txt | head -200 >$(GBENCH_DIR)/s17.txt
	grep -v '^#' datasets/samples/hardest_11plus_1000.txt | head -100 >$(GBENCH_DIR)/h11.txt

.PHONY: geometry-bench
geometry-bench: $(BIN) $(GCHECK) $(GBENCH_DIR)/m16.txt $(GBENCH_DIR)/m16b.txt $(GBENCH_DIR)/h25.txt $(GBENCH_DIR)/s17.txt ## general solver vs the DLX oracle (16x16) and the fast kernel (9x9); 25x25 rate
	@set -e; d=$(GBENCH_DIR); r=$(GBENCH_ROUNDS); \
	us() { $(GCHECK) bench $$1 $$2 $$3 $$r | tee /dev/stderr | sed 's/.*, \([0-9.]*\) us\/puzzle/\1/'; }; \
	for m in m16 m16b; do \
	g=$$(us general 4x4 $$d/$$m.txt); b=$$(SUDOKUBENCH_SIMD=$(GBENCH_BASE) us general 4x4 $$d/$$m.txt); \
	s=$$(SUDOKUBENCH_SIMD=scalar us general 4x4 $$d/$$m.txt); x=$$(us dlx 4x4 $$d/$$m.txt); \
	awk -v g=$$g -v b=$$b -v s=$$s -v x=$$x -v m=$$m -v bl=$(GBENCH_BASE) 'BEGIN { printf "16x16 minimal (%s): oracle %.1f/s; kernel best level %.0f/s = %.1fx the oracle, %s %.0f/s = %.1fx, per-cell reference (scalar) %.0f/s = %.1fx (target 100x)\n", m, 1e6/x, 1e6/g, x/g, bl, 1e6/b, x/b, 1e6/s, x/s }'; done; \
	g=$$(us general 5x5 $$d/h25.txt); \
	awk -v g=$$g 'BEGIN { printf "25x25 55%% given: general %.0f/s (target thousands)\n", 1e6/g }'; \
	for f in s17 h11; do g=$$(us general 3x3 $$d/$$f.txt); k=$$(SUDOKUBENCH_SIMD=scalar us fast 3x3 $$d/$$f.txt); \
	a=$$(us fast 3x3 $$d/$$f.txt); \
	awk -v g=$$g -v k=$$k -v a=$$a -v f=$$f 'BEGIN { printf "9x9 %s: general (scalar code) %.0f/s, fast scalar %.0f/s, fast best level %.0f/s; general/fast time %.2fx at scalar (target <= 2x), %.2fx at the best level\n", f, 1e6/g, 1e6/k, 1e6/a, g/k, g/a }'; done
