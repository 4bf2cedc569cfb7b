# mk/hosts.mk — MPI across hosts on one machine (issue 27, docs/scale.md "Across hosts
# (namespaces)"): tests/cli/hosts.sh runs build/sudokubench-mpi on 3 network namespaces with
# their own hostnames, byte-identical to one process. It needs the MPI build (mk/mpi.mk, read
# after this file: so MPI_SKIP and MPI_BIN are used in the recipe, expanded once every file is
# read), root, ip netns and unshare; hosts.sh itself skips with its reason when the hosts
# cannot be made (not root, no CAP_NET_ADMIN in a container). Its failing-host cases preload
# the fault shim (mk/reliability.mk's FAULT_SHIM) into one host's rank.

TEST_EXTRA += test-hosts

.PHONY: test-hosts

test-hosts: $(BIN) ## MPI across 3 namespace hosts (root; skipped otherwise): same bytes as one process
	@if [ -n "$(MPI_SKIP)" ]; then echo "test-hosts: skipped: $(MPI_SKIP)"; else \
	    $(MAKE) --no-print-directory $(MPI_BIN) $(FAULT_SHIM) && \
	    MPIRUN=$(MPIRUN) SHIM=$(abspath $(FAULT_SHIM)) bash tests/cli/hosts.sh $(BIN) $(MPI_BIN); fi

# Two namespace hosts against one (issue 27 target 1): scripts/hosts_bench.sh, N hard puzzles
# (default 200,000) solved plain, -np 1 and -np 2 over 2 hosts, R rounds: wall, --stats and CPU
# seconds per rank, build/reports/hosts-bench.md. A benchmark, never run by make test (nor to be
# dry-run: its recipe calls $(MAKE), so `make -n hosts-bench` runs it).
HOSTS_BENCH_N ?= 200000
HOSTS_BENCH_R ?= 3

.PHONY: hosts-bench

hosts-bench: $(BIN) ## plain vs mpirun -np 1 vs -np 2 over 2 namespace hosts (root): build/reports/hosts-bench.md
	@if [ -n "$(MPI_SKIP)" ]; then echo "hosts-bench: skipped: $(MPI_SKIP)"; else \
	    $(MAKE) --no-print-directory $(MPI_BIN) && \
	    N=$(HOSTS_BENCH_N) R=$(HOSTS_BENCH_R) DIR=$(BUILD)/hosts-bench MPIRUN=$(MPIRUN) \
	    REPORT=$(BUILD)/reports/hosts-bench.md bash scripts/hosts_bench.sh $(BIN) $(MPI_BIN); fi
