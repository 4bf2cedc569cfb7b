/* kernel_scalar_tech.c — the scalar stamp of kernel_scalar.c again with SB_KERNEL_TECH: the
 * "fast+T" entries (kernel_tech.h), built with the same -m flags (Makefile: KERNEL_FLAGS).
 * A stamp of its own, so "fast" without techniques keeps its code exactly. */
#define SB_KERNEL_TECH 1
#define SB_KERNEL_DFS sb_tkernel_dfs_scalar
#define SB_KERNEL_BFS sb_tkernel_bfs_scalar
#define SB_KERNEL_POPCNT 0
#include "kernel.h"
