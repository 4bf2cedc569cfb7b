# make mca — llvm-mca's model of the kernels' hot loops on Intel (sapphirerapids,
# icelake-server; cascadelake for avx512bw) and AMD (znver3) cores: cycles, uops and the
# busiest port per loop body
# (scripts/measure/mca.sh; the per-microarchitecture analysis, docs/performance.md). A model,
# never a test: it prints, it gates nothing.
DEB_PKGS_ALL += llvm

.PHONY: mca
mca: $(TABLES) ## llvm-mca model of the kernels' hot loops per microarchitecture (scripts/measure/mca.sh)
	@CC="$(CC)" scripts/measure/mca.sh $(BUILD)
