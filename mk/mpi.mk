# mk/mpi.mk — MPI (docs/scale.md): build/sudokubench-mpi runs the same commands on
# MPI ranks with output byte-identical to one process.
#
# One code path: the CLI sources (src/cli/*.c) compiled again with $(MPICC) and -DSB_MPI (mpi.c
# plugs into the batch engine), linked with the same app archive (src/app/) and library. Plain
# `make` never needs MPI. `make test` runs tests/cli/mpi.sh when mpicc and mpirun are installed
# and the build is a plain native gcc one; otherwise test-mpi says why it skips them and runs
# only the plain binary's -o cases (CROSS: no target MPI; SAN=1: Open MPI's own leaks and the
# ASan runtime under mpirun; CC=clang: Open MPI's mpicc wraps gcc, and gcc objects with clang's
# libomp would mix two OpenMP runtimes).

DEB_PKGS_ALL += openmpi-bin libopenmpi-dev
TEST_EXTRA += test-mpi

MPICC     ?= mpicc
MPIRUN    ?= mpirun
MPI_BIN   := $(BUILD)/sudokubench-mpi
MPI_OBJS  := $(CLI_SRCS:%.c=$(BUILD)/mpi/obj/%.o)
MPI_HAVE  := $(shell command -v $(MPICC) >/dev/null 2>&1 && command -v $(MPIRUN) >/dev/null 2>&1 && echo 1)
MPI_SKIP  := $(if $(CROSS),CROSS=$(CROSS) (no MPI for the target),$(if $(filter 1,$(SAN)),SAN=1 (Open MPI under ASan),$(if $(CC_IS_CLANG),CC=clang (mpicc wraps gcc: two OpenMP runtimes),$(if $(MPI_HAVE),,$(MPICC) or $(MPIRUN) not installed (make deps-all)))))
# Samples for the MPI bench (scripts/measure/mpi_bench.sh): puzzles per file.
MPI_BENCH_N  ?= 1000000
MPI_BENCH_N2 ?= 10000000

.PHONY: mpi test-mpi mpi-bench

$(BUILD)/mpi/obj/%.o: %.c $(TABLES) $(wildcard include/*.h src/app/*.h src/cli/*.h)
	@mkdir -p $(dir $@)
	$(MPICC) $(ALL_CFLAGS) -DSB_MPI -c -o $@ $<

$(MPI_BIN): $(MPI_OBJS) $(APP_LIB) $(LIB)
	$(MPICC) $(ALL_CFLAGS) -o $@ $(MPI_OBJS) $(APP_LIB) $(LIB) $(APP_LDLIBS) $(LDLIBS)

mpi: $(MPI_BIN) ## build/sudokubench-mpi with Open MPI (mpicc): the same commands on MPI ranks (docs/scale.md)

# The MPI cases mostly wait on mpirun's start-ups (about 80 s of wall for 30 s of CPU, one
# after another): make test runs them as MPI_SHARDS processes side by side.
MPI_SHARDS ?= 3
ifeq ($(MPI_SKIP),)
test-mpi: $(call shards,test-mpi,$(MPI_SHARDS))
$(call shards,test-mpi,$(MPI_SHARDS)): $(BIN) $(MPI_BIN)
	SB_SHARD=$(subst .,,$(suffix $@))/$(MPI_SHARDS) MPIRUN=$(MPIRUN) PLUGIN_DIR=$(PLUGIN_DIR) bash tests/cli/mpi.sh $(BIN) $(MPI_BIN)
else
test-mpi: $(BIN) $(BIN_RUN)
	@echo "test-mpi: MPI runs skipped: $(MPI_SKIP); the plain binary's -o cases run"
	bash tests/cli/mpi.sh $(BIN_RUN) none
endif

mpi-bench: $(BIN) $(MPI_BIN) ## MPI scaling on generated puzzles: -np 2 vs 1, -np 1 vs plain, peak RSS per rank (scripts/measure/mpi_bench.sh)
	MPIRUN=$(MPIRUN) N=$(MPI_BENCH_N) N2=$(MPI_BENCH_N2) bash scripts/measure/mpi_bench.sh $(BIN) $(MPI_BIN)
