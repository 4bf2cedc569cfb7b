/* kernel_sse4.c — the 128-bit kernel stamped for x86-64 SSE4.1 + POPCNT (Nehalem, and every
 * x86-64 since 2008). Built with -msse4.1 -mpopcnt (Makefile: KERNEL_FLAGS); only called after
 * sb_simd_supported(SB_SIMD_SSE4) said yes. */
#define SB_KERNEL_DFS sb_kernel_dfs_sse4
#define SB_KERNEL_BFS sb_kernel_bfs_sse4
#define SB_KERNEL_POPCNT 1
#define SBV_BYTES 16
#include "kernel_band.h"
