/* kernel_base_tech.c — kernel_base.c's band kernel again with SB_KERNEL_TECH: the "fast+T"
 * entries (kernel_tech.h) of the scalar level where the baseline has 128-bit vectors
 * (solver.c), built like it with no -m flag. */
#define SB_KERNEL_TECH 1
#define SB_KERNEL_DFS sb_tkernel_dfs_base
#define SB_KERNEL_BFS sb_tkernel_bfs_base
#define SB_KERNEL_POPCNT 0
#define SBV_BYTES 16
#include "kernel_band.h"
