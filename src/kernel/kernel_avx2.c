/* kernel_avx2.c — the kernel stamped for AVX2 + BMI1/2 + POPCNT + LZCNT (Haswell, Zen and
 * later). Built with those -m flags (Makefile: KERNEL_FLAGS); only called after
 * sb_simd_supported(SB_SIMD_AVX2) said yes. With the band kernel, its paired search
 * (kernel_pair.h, which calls the band kernel's helpers). */
#define SB_KERNEL_DFS sb_kernel_dfs_avx2
#define SB_KERNEL_BFS sb_kernel_bfs_avx2
#define SB_KERNEL_PAIR sb_kernel_pair_avx2
#define SB_KERNEL_POPCNT 1
#define SBV_BYTES 32
#include "kernel_band.h"
#include "kernel_pair.h"
