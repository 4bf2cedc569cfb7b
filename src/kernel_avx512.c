/* kernel_avx512.c — the kernel stamped for AVX-512 F/BW/VL/VPOPCNTDQ (Ice Lake, Zen 4 and
 * later). Only called after sb_simd_supported(SB_SIMD_AVX512) said yes. */
#if defined(__x86_64__) || defined(__i386__)
#pragma GCC target("avx512f,avx512bw,avx512vl,avx512vpopcntdq,avx2,bmi,bmi2,popcnt,lzcnt")
#define SB_KERNEL_POPCNT 1
#define SB_KERNEL_AVX512 1
#else
#define SB_KERNEL_POPCNT 0
#endif
#define SB_KERNEL_DFS sb_kernel_dfs_avx512
#define SB_KERNEL_BFS sb_kernel_bfs_avx512
#include "kernel.h"
