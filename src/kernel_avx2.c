/* kernel_avx2.c — the kernel stamped for AVX2 + BMI1/2 + POPCNT (Haswell and later).
 * Only called after sb_simd_supported(SB_SIMD_AVX2) said yes. */
#if defined(__x86_64__) || defined(__i386__)
#pragma GCC target("avx2,bmi,bmi2,popcnt,lzcnt")
#define SB_KERNEL_POPCNT 1
#else
#define SB_KERNEL_POPCNT 0
#endif
#define SB_KERNEL_DFS sb_kernel_dfs_avx2
#define SB_KERNEL_BFS sb_kernel_bfs_avx2
#include "kernel.h"
