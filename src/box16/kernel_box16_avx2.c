/* kernel_box16_avx2.c — the 16-digit boxed-grid kernel (box16_kernel.h) stamped for AVX2: a row of
 * 16 cells in one register. Built with KERNEL_FLAGS_box16_avx2; only called after
 * sb_simd_supported(SB_SIMD_AVX2) said yes (src/box16/box16.c). */
#define B16_SEARCH sb_box16_search_avx2
#include "box16_kernel.h"
