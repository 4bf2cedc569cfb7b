/* kernel_avx512.c — the kernel stamped for AVX-512 F/BW/VL/VPOPCNTDQ/VBMI (Ice Lake, Zen 4
 * and later). Built with those -m flags (Makefile: KERNEL_FLAGS); only called after
 * sb_simd_supported(SB_SIMD_AVX512) said yes. */
#if defined(__AVX512BW__)
#define SB_KERNEL_AVX512 1
#endif
#define SB_KERNEL_DFS sb_kernel_dfs_avx512
#define SB_KERNEL_BFS sb_kernel_bfs_avx512
#define SB_KERNEL_POPCNT 1
#include "kernel.h"
