# mk/hosts.mk — MPI across hosts on one machine (docs/scale.md "Across hosts
# (namespaces)"): tests/cli/hosts.sh runs build/sudokubench-mpi on 3 network namespaces with
# their own hostnames, byte-identical to one process. It needs the MPI build (mk/mpi.mk, read
# after this file: so MPI_SKIP and MPI_BIN are used in the recipe, expanded once every file is
# read), root, ip netns and unshare; hosts.sh itself skips with its reason when the hosts
# cannot be made (not root, no CAP_NET_ADMIN in a container). Its failing-host cases preload
# the fault shim (mk/reliability.mk's FAULT_SHIM) into one host's rank.

TEST_EXTRA += test-hosts

# MPI_SKIP, MPI_BIN and FAULT_SHIM are set by files read after this one: the prerequisites
# name them through a second expansion (when the rule is used), so `make -n` only prints
# what these targets would do instead of running a sub-make.
.SECONDEXPANSION:
MPI_HOSTS_NEED = $(if $(MPI_SKIP),,$(MPI_BIN))

.PHONY: test-hosts

# Mostly waits (about 135 s of wall for 14 s of CPU): HOSTS_SHARDS sets of 3 hosts side by
# side, each running every HOSTS_SHARDS-th case (SB_SHARD, tests/cli/harness.sh).
HOSTS_SHARDS ?= 4
test-hosts: $(call shards,test-hosts,$(HOSTS_SHARDS)) ## MPI across 3 namespace hosts (root; skipped otherwise): same bytes as one process
$(call shards,test-hosts,$(HOSTS_SHARDS)): $(BIN) $$(MPI_HOSTS_NEED) $$(if $$(MPI_SKIP),,$$(FAULT_SHIM))
	@if [ -n "$(MPI_SKIP)" ]; then echo "test-hosts: skipped: $(MPI_SKIP)"; else \
	    SB_SHARD=$(subst .,,$(suffix $@))/$(HOSTS_SHARDS) MPIRUN=$(MPIRUN) SHIM=$(abspath $(FAULT_SHIM)) \
	    bash tests/cli/hosts.sh $(BIN) $(MPI_BIN); fi

# Two namespace hosts against one: scripts/measure/hosts_bench.sh, N hard puzzles
# (default 200,000) solved plain, -np 1 and -np 2 over 2 hosts, R rounds: wall, --stats and CPU
# seconds per rank, build/reports/hosts-bench.md. A benchmark, never run by make test.
HOSTS_BENCH_N ?= 200000
HOSTS_BENCH_R ?= 3

.PHONY: hosts-bench

hosts-bench: $(BIN) $$(MPI_HOSTS_NEED) ## plain vs mpirun -np 1 vs -np 2 over 2 namespace hosts (root): build/reports/hosts-bench.md
	@if [ -n "$(MPI_SKIP)" ]; then echo "hosts-bench: skipped: $(MPI_SKIP)"; else \
	    N=$(HOSTS_BENCH_N) R=$(HOSTS_BENCH_R) DIR=$(BUILD)/hosts-bench MPIRUN=$(MPIRUN) \
	    REPORT=$(BUILD)/reports/hosts-bench.md bash scripts/measure/hosts_bench.sh $(BIN) $(MPI_BIN); fi
