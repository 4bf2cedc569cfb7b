# mk/slurm.mk — Slurm for real on one machine (docs/scale.md "Slurm"):
# tests/cli/slurm.sh starts a private munged, slurmctld and two slurmd (two node names, each in
# its own UTS namespace) from Debian's slurm-wlm and munge, submits docs/scale.md's job script
# with sbatch, runs its srun line and mpirun inside an allocation: the same bytes as one
# process. It needs the MPI build (mk/mpi.mk: MPI_SKIP and MPI_BIN, expanded in the recipe once
# every file is read) and root; slurm.sh itself skips with its reason when the daemons cannot
# start (not root, no packages, a container that refuses them). About 35 s here.

DEB_PKGS_ALL += slurm-wlm munge
TEST_EXTRA += test-slurm

.PHONY: test-slurm

# The start-up shim (tests/cli/mpi_ready.c): marks each rank that got through MPI_Init, so
# slurm.sh can tell Open MPI's start-up crash from the program's.
MPI_READY_SHIM := $(BUILD)/mpi_ready.so

$(MPI_READY_SHIM): tests/cli/mpi_ready.c
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Wextra -fPIC -shared -o $@ $< -ldl

# MPI_BIN is a prerequisite through hosts.mk's second expansion (MPI_HOSTS_NEED), not a
# recursive make: under make test's -j a second make would build it beside the first.
test-slurm: $(BIN) $(MPI_READY_SHIM) $$(MPI_HOSTS_NEED) ## MPI under a one-machine Slurm: docs/scale.md's sbatch script and srun line (root; skipped otherwise)
	@if [ -n "$(MPI_SKIP)" ]; then echo "test-slurm: skipped: $(MPI_SKIP)"; else \
	    bash tests/cli/slurm.sh $(BIN) $(MPI_BIN) $(abspath $(MPI_READY_SHIM)); fi
