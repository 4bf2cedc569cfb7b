/*
 * internal.h — declarations shared inside the library (never installed, never public).
 *
 * The solver kernel is written once (kernel.h) and compiled once per SIMD level
 * (kernel_scalar.c, kernel_avx2.c, kernel_avx512.c); solver.c picks one through the
 * dispatch table below, chosen once per solver context.
 */
#ifndef SB_INTERNAL_H
#define SB_INTERNAL_H

#include <stdint.h>

#include "sudokubench.h"

/* Lanes of a board: 81 cells padded to a multiple of 32 16-bit lanes (one AVX-512 vector
 * holds 32, an AVX2 vector 16) so whole-board vector passes need no tail handling. */
#define SB_LANES 96

/* The search state: everything a guess copies. 192 bytes = three 64-byte cache lines. */
typedef struct sb_board {
    uint16_t cand[SB_LANES - 1]; /* cells 0..80 candidate masks; lanes 81..94 stay 0 */
    uint16_t nsolved;            /* cells assigned so far (their digit removed from peers) */
} __attribute__((aligned(64))) sb_board;

/* Depth bound of the search stack: each level assigns at least one more cell. */
#define SB_STACK_DEPTH (SB_CELLS + 1)

/* One kernel: counts solutions of puzzle up to limit (0 = all) using stack
 * (SB_STACK_DEPTH boards) and fills res. Cell values are already checked to be 0..9. */
typedef void (*sb_kernel_fn)(sb_board *stack, const sb_grid *puzzle, uint64_t limit,
                             sb_result *res);

void sb_kernel_solve_scalar(sb_board *stack, const sb_grid *puzzle, uint64_t limit,
                            sb_result *res);
void sb_kernel_solve_avx2(sb_board *stack, const sb_grid *puzzle, uint64_t limit,
                          sb_result *res);
void sb_kernel_solve_avx512(sb_board *stack, const sb_grid *puzzle, uint64_t limit,
                            sb_result *res);

/* The peer tables themselves (sb_tables() returns this): kernels read them directly so the
 * hot loops need no call. */
extern const sb_peer_tables sb_peer_tables_data;

/* For each cell, its three houses as a 27-bit set: which houses an elimination touches. */
extern const uint32_t sb_cell_house_bits[SB_CELLS];

/* For each position i of a house, the board lane of cell i of every house (lane h of the
 * row = house h; lanes 27..31 read the always-zero lane 81): one permute per position
 * gathers all 27 houses side by side for vector hidden singles. */
extern const uint16_t sb_house_lanes[SB_DIGITS][32] __attribute__((aligned(64)));

/* Popcount of a 9-bit candidate mask, without relying on the POPCNT instruction. */
extern const uint8_t sb_popcount9[512];

#endif /* SB_INTERNAL_H */
