# make mca — llvm-mca's model of the kernels' hot loops on the CPUs of MCA_CPUS (default Intel
# sapphirerapids, alderlake, icelake-server and cascadelake, AMD znver3): cycles, uops and
# the busiest port per loop body, then a table of cycles per region and CPU
# (scripts/measure/mca.sh; the per-microarchitecture analysis, docs/performance.md). A model,
# never a test: it prints, it gates nothing.
DEB_PKGS_ALL += llvm

MCA_CPUS ?= sapphirerapids alderlake icelake-server cascadelake znver3

.PHONY: mca
mca: $(TABLES) ## llvm-mca model of the kernels' hot loops per CPU of MCA_CPUS (scripts/measure/mca.sh)
	@CC="$(CC)" MCA_CPUS="$(MCA_CPUS)" MCA_FLAGS_sse4="$(KERNEL_FLAGS_sse4)" \
	  MCA_FLAGS_avx2="$(KERNEL_FLAGS_avx2)" MCA_FLAGS_avx512bw="$(KERNEL_FLAGS_avx512bw)" \
	  MCA_FLAGS_avx512="$(KERNEL_FLAGS_avx512)" scripts/measure/mca.sh $(BUILD)

# That every region's markers still enclose its loop: the sources only marked and compiled,
# no llvm-mca (x86 stamps: not under CROSS).
TEST_EXTRA += $(if $(CROSS),,test-mca-marks)
.PHONY: test-mca-marks
test-mca-marks: $(TABLES)
	@CC="$(CC)" MCA_CHECK=1 MCA_FLAGS_sse4="$(KERNEL_FLAGS_sse4)" \
	  MCA_FLAGS_avx2="$(KERNEL_FLAGS_avx2)" MCA_FLAGS_avx512bw="$(KERNEL_FLAGS_avx512bw)" \
	  MCA_FLAGS_avx512="$(KERNEL_FLAGS_avx512)" scripts/measure/mca.sh $(BUILD)
