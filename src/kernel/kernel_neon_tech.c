/* kernel_neon_tech.c — the neon stamp of kernel_neon.c again with SB_KERNEL_TECH: the
 * "fast+T" entries (kernel_tech.h), built with the same -m flags (Makefile: KERNEL_FLAGS).
 * A stamp of its own, so "fast" without techniques keeps its code exactly. */
#define SB_KERNEL_TECH 1
#define SB_KERNEL_DFS sb_tkernel_dfs_neon
#define SB_KERNEL_BFS sb_tkernel_bfs_neon
#define SB_KERNEL_POPCNT 1
#define SBV_BYTES 16
#include "kernel_band.h"
