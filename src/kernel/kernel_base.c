/* kernel_base.c — the band kernel (kernel_band.h) stamped for the architecture's baseline, with
 * no -m flag: 128-bit SSE2 on x86-64, NEON on aarch64. It runs the scalar level where that
 * baseline has 128-bit vectors (solver.c); elsewhere (riscv64 without V) the compilers lower
 * its vectors to pairs of 64-bit integer words and it was measured no faster than the
 * reference (docs/performance.md, "The scalar level"), so it is only compiled and tested there. */
#define SB_KERNEL_DFS sb_kernel_dfs_base
#define SB_KERNEL_BFS sb_kernel_bfs_base
#define SB_KERNEL_POPCNT 0
#define SBV_BYTES 16
/* On x86-64 gcc left this stamp's naked singles out of line (its stack-frame limit, with the
 * SWAR counts' extra live vectors); forced inline, the shared settle is the call instead, once
 * a settle where the naked singles were called several times: 1.8-2.3% fewer instructions on
 * the five samples, 1.02-1.05x at the scalar level (docs/performance.md). */
#define SBB_NAKED_INLINE __attribute__((always_inline))
#include "kernel_band.h"
