/*
 * gsearch_hooks.h — search.h's board hooks on sb_gsearch's flat boards (gsearch.h), for a
 * stamp whose hook context keeps its sb_gsearch in member srch and each cell's peers in peer
 * and npeer: the general solver (geometry/general.c) and the generic pipelines on a geometry
 * (geometry/gpipeline.c). It defines srch_solved, srch_cell, srch_first, srch_at, srch_push
 * and srch_solution, and srch_gsearch_space (the srch_space of srch_dfs_each); the stamp
 * writes srch_choose, srch_take and srch_drop.
 * Included after search.h, with SRCH_BOARD and SRCH_MASK uint64_t (checked here).
 */
#ifndef SB_GSEARCH_HOOKS_H
#define SB_GSEARCH_HOOKS_H

#include <stdint.h>

#include "gsearch.h"
#include "search.h"

/* A hook context, declared only: the operand of the check below, which evaluates nothing. */
extern SB_SEARCH_CTX *const srch_gsearch_ctx;

_Static_assert(_Generic((SRCH_BOARD *)0, uint64_t *: 1, default: 0) &&
                   _Generic((SRCH_MASK)0, uint64_t: 1, default: 0),
               "sb_gsearch boards are uint64_t words with uint64_t masks");
_Static_assert(_Generic(srch_gsearch_ctx->srch, sb_gsearch: 1, default: 0),
               "the hook context keeps its sb_gsearch in member srch");
_Static_assert(_Generic(srch_gsearch_ctx->peer, const uint16_t **: 1, default: 0) &&
                   _Generic(srch_gsearch_ctx->npeer, int *: 1, default: 0),
               "the hook context keeps each cell's peers in members peer and npeer");

/* Solved: every cell assigned (the count in the board's last word). */
static inline int srch_solved(SB_SEARCH_CTX *x, const uint64_t *b)
{
    return b[x->srch.words - 1] == (uint64_t)x->srch.ncells;
}

/* The board is cell-major: a cell's candidates are its word. */
static inline uint64_t srch_cell(SB_SEARCH_CTX *x, const uint64_t *b, int c)
{
    (void)x;
    return b[c];
}

/* The digit of cell c (candidates m, two or more) tried first: the one held by the most of
 * its peers, the lowest on a tie (search_hooks.h), on a geometry of at most
 * SB_GSEARCH_MOST_DIGITS digits; else the lowest. On a propagated board every peer holding a
 * digit of c is unassigned, so the count needs no open mask. */
static inline uint64_t srch_first(SB_SEARCH_CTX *x, const uint64_t *b, int c, uint64_t m)
{
    if (!x->srch.most)
        return m & (uint64_t)-m;
    const uint16_t *peer = x->peer[c];
    uint64_t best = 0;
    int best_n = -1;
    for (uint64_t f = m; f; f &= f - 1) {
        const uint64_t d = f & (uint64_t)-f;
        int n = 0;
        for (int i = 0, np = x->npeer[c]; i < np; i++)
            n += (b[peer[i]] & d) != 0;
        best = n > best_n ? d : best;
        best_n = n > best_n ? n : best_n;
    }
    return best;
}

static inline uint64_t *srch_at(SB_SEARCH_CTX *x, size_t depth)
{
    return sb_gsearch_at(&x->srch, depth);
}

static inline uint64_t *srch_push(SB_SEARCH_CTX *x, size_t depth)
{
    return sb_gsearch_push(&x->srch, depth);
}

static inline void srch_solution(SB_SEARCH_CTX *x, const uint64_t *b, uint8_t *out)
{
    srch_cells_digits(x, b, x->srch.ncells, out);
}

/* What srch_dfs_each keeps outside the boards: k's records, scratch, poll bound and limits. */
static inline srch_space srch_gsearch_space(sb_gsearch *k)
{
    return (srch_space){k->ncells, k->bcell, k->bdigit, k->sol, &k->poll_at, &k->lim};
}

#endif /* SB_GSEARCH_HOOKS_H */
