/* kernel_neon.c — the 128-bit kernel stamped for aarch64 Advanced SIMD (NEON, mandatory on
 * every AArch64 CPU). On other targets it compiles to the scalar algorithm and is never
 * dispatched (sb_simd_supported(SB_SIMD_NEON) is 0 there). */
#define SB_KERNEL_DFS sb_kernel_dfs_neon
#define SB_KERNEL_BFS sb_kernel_bfs_neon
#define SB_KERNEL_POPCNT 1
#define SBV_BYTES 16
#include "kernel_band.h"
