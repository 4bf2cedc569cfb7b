/*
 * box16_stamps.h — what the box16 stamps and their dispatcher (box16.c) share: the kernel's
 * type and the one signature every stamp of the template box16_kernel.h has. A leaf, so that
 * the template needs nothing of the dispatcher that includes it.
 */
#ifndef SB_BOX16_STAMPS_H
#define SB_BOX16_STAMPS_H

#include "search/gsearch.h"

/* The general solver's whole-board kernel for 16-digit boxed grids (box16/box16.c):
 * RxC with R*C = 16 and R, C >= 2. It runs general.c's search (same fixpoint, same branching,
 * so the same counts, guesses and order of solutions) on 16-lane vectors. */
typedef struct sb_box16 sb_box16;

/* The kernel's search in one stamp: sb_box16_run's arguments less the level, the root given
 * as its 256 candidate masks (bit d-1: digit d; sb_box16_cand makes them), so that a caller
 * can start from pencil marks or bar digits from cells before the root settles. */
typedef int (*sb_box16_fn)(sb_box16 *k, const uint16_t *cand, uint64_t limit,
                           sb_gsolution_fn fn, void *user, sb_gresult *res, uint8_t *first,
                           const sb_glimit *lim);

/* The kernel's search in each stamp (box16_kernel.h; sb_box16_stamp picks one). */
int sb_box16_search_base(sb_box16 *k, const uint16_t *cand, uint64_t limit, sb_gsolution_fn fn,
                         void *user, sb_gresult *res, uint8_t *first, const sb_glimit *lim);
int sb_box16_search_avx2(sb_box16 *k, const uint16_t *cand, uint64_t limit, sb_gsolution_fn fn,
                         void *user, sb_gresult *res, uint8_t *first, const sb_glimit *lim);

#endif /* SB_BOX16_STAMPS_H */
