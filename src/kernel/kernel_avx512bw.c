/* kernel_avx512bw.c — the avx512 kernel stamped for AVX-512 F/BW/VL without VBMI or VPOPCNTDQ
 * (Skylake-SP, Cascade Lake, Cooper Lake): word permutes over the same lane tables, byte-table
 * popcounts (kernel.h). Built with those -m flags (Makefile: KERNEL_FLAGS); only called after
 * sb_simd_supported(SB_SIMD_AVX512BW) said yes. */
#if defined(__AVX512BW__)
#define SB_KERNEL_AVX512 1
#endif
#define SB_KERNEL_DFS sb_kernel_dfs_avx512bw
#define SB_KERNEL_BFS sb_kernel_bfs_avx512bw
#define SB_KERNEL_POPCNT 1
#include "kernel.h"
