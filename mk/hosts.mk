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
