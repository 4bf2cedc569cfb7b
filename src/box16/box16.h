/*
 * box16.h — the interface of the whole-board kernel for 16-digit boxed grids (4x4, 2x8, 8x2):
 * what the engine table's "box16" row and the general solver call. The kernel itself is the
 * template box16_kernel.h, stamped by box16.c (baseline) and kernel_box16_avx2.c.
 */
#ifndef SB_BOX16_H
#define SB_BOX16_H

#include "box16_stamps.h"

/* @return 1 when g is such a grid in the layout the kernel assumes (every house one row, one
 * column or one box of RxC, each once), else 0: the match of the engine table's "box16" row
 * (src/engine/engine.c) and what sb_box16_new checks. */
int sb_box16_fits(const sb_geometry *g);

/* Builds the kernel for g. @return SB_OK with *out NULL when g is not such a grid
 * (sb_box16_fits), SB_OK with *out set, or SB_ERR_NOMEM. */
int sb_box16_new(const sb_geometry *g, sb_box16 **out);

/* Frees a kernel (NULL is allowed). */
void sb_box16_free(sb_box16 *k);

/* sb_gsolve / sb_gsolve_candidates / sb_gsolve_each on the kernel's stamp for level (a
 * supported SB_SIMD_* other than scalar: avx2 and avx512 run the AVX2 stamp, the others the
 * baseline one) under the budget and stop flag of lim, from the root cand (sb_box16_cand);
 * fn may be NULL, first may be NULL; res zeroed by the caller. @return as sb_gsolve_each. */
int sb_box16_run(sb_box16 *k, int level, const uint16_t *cand, uint64_t limit,
                 sb_gsolution_fn fn, void *user, sb_gresult *res, uint8_t *first,
                 const sb_glimit *lim);

/* The root board as the stamps take it (bit d-1: digit d): from the givens cells (every value
 * 0..16; a blank: all 16 bits), or, cells NULL, from the candidate masks in64 (bits 0..15,
 * checked by the caller). */
void sb_box16_cand(const uint8_t *cells, const uint64_t *in64, uint16_t cand[256]);

/* @return the stamp that runs level (a supported level other than scalar), as sb_box16_run
 * picks it: the engine table's "box16" row picks it once, at sb_engine_new. */
sb_box16_fn sb_box16_stamp(int level);

#endif /* SB_BOX16_H */
