/* kernel_avx512bw_tech.c — kernel_avx512bw.c again with SB_KERNEL_TECH: the "fast+T" entries
 * (kernel_tech.h), built with the same -m flags (Makefile: KERNEL_FLAGS). */
#define SB_KERNEL_TECH 1
#define SB_KERNEL_DFS sb_tkernel_dfs_avx512bw
#define SB_KERNEL_BFS sb_tkernel_bfs_avx512bw
#if defined(__AVX512BW__)
#define SB_KERNEL_AVX512 1
#endif
#define SB_KERNEL_POPCNT 1
#include "kernel.h"
