/* kernel_avx2_tech.c — the avx2 stamp of kernel_avx2.c again with SB_KERNEL_TECH: the
 * "fast+T" entries (kernel_tech.h), built with the same -m flags (Makefile: KERNEL_FLAGS).
 * A stamp of its own, so "fast" without techniques keeps its code exactly. */
#define SB_KERNEL_TECH 1
#define SB_KERNEL_DFS sb_tkernel_dfs_avx2
#define SB_KERNEL_BFS sb_tkernel_bfs_avx2
#define SB_KERNEL_POPCNT 1
#define SBV_BYTES 32
#include "kernel_band.h"
