/*
 * search.h — the one search loop of every engine that is not a fused kernel's propagation,
 * written once as a template: the fused 9x9 kernels (src/kernel/entries.h), the 9x9 generic
 * pipelines (pipeline.c), the general solver (geometry/general.c), the generic pipelines on
 * any geometry (geometry/gpipeline.c) and the 16-digit whole-board kernel (box16/box16_kernel.h)
 * all stamp it, so every comparison isolates propagation: the same cell rule and digit order
 * (the fast kernels add line.h's pairs once a puzzle has taken SBL_AFTER guesses), the same
 * guess count convention, the same budget and stop flag rules.
 *
 * A stamp defines SB_SEARCH_CTX, SRCH_BOARD and SRCH_MASK, includes this file (which checks
 * them and declares the hooks: search_hooks.h), defines the hooks, loads the root board into
 * srch_at(x, 0), and names its entry: a function of its own that calls one of the entries
 * below. Everything here is always inlined into that function, so the mode arguments
 * (const int) are constants there and each call of an entry compiles to a loop specialised
 * for them (and for whatever else the stamp makes constant, as box16_kernel.h's box width).
 *
 *   srch_dfs       the depth-first loop, shared, with two modes: singles (srch_choose may
 *                  return a cell with one candidate, taken without a guess) and each (every
 *                  solution written out and handed to a callback, or only the first kept).
 *   srch_dfs_count the 9x9 entry: counts solutions up to limit into an sb_search_run's result,
 *                  the first solution copied out, under its budget and stop flag (polled
 *                  every SB_SEARCH_POLL guesses; a flag raised before the solve is seen at the
 *                  first poll); @return its status.
 *   srch_dfs_each  the geometry entry: counts solutions up to limit (0 = all) into an
 *                  sb_gresult, copies the first into first (may be NULL), hands each to fn
 *                  (may be NULL) in DFS order, under an sb_glimit polled every lim->every
 *                  guesses from the first guess on (boards there can be large: a flag raised
 *                  before the solve stops it at its first guess); @return SB_OK,
 *                  SB_ERR_STOPPED (fn asked, or the stop flag), SB_ERR_BUDGET or SB_ERR_NOMEM.
 *   srch_bfs_count the 9x9 breadth-first search, for boards of one SRCH_BOARD each.
 *
 * Guess convention (the field's): one guess per search state pushed. The branching cell's
 * digit tried first is the stamp's srch_first; a cell with a single candidate is taken without
 * a push (it is forced, not a guess).
 *
 * Budget and stop flag: the guess counter is compared with one precomputed bound per guess;
 * only when it passes the bound does the search look at the budget and the stop flag
 * (srch_poll), so neither costs anything per node. Work between two guesses is bounded (at
 * most one board's forced assignments and the pops of earlier guesses), so polling on
 * guesses is prompt.
 */
#ifndef SB_SEARCH_H
#define SB_SEARCH_H

#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "gsearch.h"
#include "search_hooks.h"

/* What a search keeps outside its boards: the 9x9 entry's locals, an sb_gsearch's fields
 * (gsearch_hooks.h) or a whole-board kernel's. */
typedef struct srch_space {
    int ncells;           /* cells of a board: the digits of a solution */
    int *bcell;           /* per level: the cell of the alternative left below */
    SRCH_MASK *bdigit;    /* per level: the digit that alternative must drop */
    uint8_t *sol;         /* scratch: the solution handed to the callback (mode each) */
    uint64_t *poll_at;    /* the next poll bound: the 9x9 entry's local (a register), the
                             geometry searches' state (memory: one register less for the
                             propagation the loop inlines) */
    const sb_glimit *lim; /* budget, stop flag and poll interval */
} srch_space;

/* A 9x9 run's budget and stop flag as the sb_glimit its search polls, every SB_SEARCH_POLL
 * guesses (the paired search, kernel_pair.h, polls the same way). */
static inline sb_glimit srch_run_limit(const sb_search_run *run)
{
    return (sb_glimit){run->max_guesses, run->stop, SB_SEARCH_POLL};
}

/* A 9x9 run's first poll bound: SB_SEARCH_POLL guesses in, or the budget when that is less. */
static inline uint64_t srch_run_first_poll(const sb_search_run *run)
{
    return run->max_guesses < SB_SEARCH_POLL ? run->max_guesses : SB_SEARCH_POLL;
}

/* A search's poll, when its guesses are about to reach need past its bound: checks the budget,
 * then the stop flag (sb_glimit_check), and on SB_OK sets *poll_at to the next bound
 * (sb_glimit_next). @return SB_OK, SB_ERR_BUDGET or SB_ERR_STOPPED. */
static inline int srch_poll(const sb_glimit *lim, uint64_t need, uint64_t *poll_at)
{
    const int st = sb_glimit_check(lim, need);
    if (st == SB_OK)
        *poll_at = sb_glimit_next(lim, need);
    return st;
}

/* Writes the digits of solved board b's cells 0 .. n-1 into out through srch_cell: the
 * srch_solution of a stamp without a faster way. */
static inline __attribute__((always_inline)) void srch_cells_digits(SB_SEARCH_CTX *x,
                                                                    const SRCH_BOARD *b, int n,
                                                                    uint8_t *out)
{
    for (int c = 0; c < n; c++)
        out[c] = (uint8_t)(__builtin_ctzll(srch_cell(x, b, c)) + 1);
}

/* srch_push of a stack that is an array of whole boards (9x9): copies level depth up. */
static inline __attribute__((always_inline)) SRCH_BOARD *srch_push_copy(SRCH_BOARD *stack,
                                                                        size_t depth)
{
    stack[depth + 1] = stack[depth];
    return &stack[depth + 1];
}

/* Depth-first from the root at srch_at(x, 0) (ok: 0 when its load found a contradiction):
 * the board below the current one keeps the untried alternative (the branch digit is dropped
 * from it when it is popped); the copy above takes the digit. Solutions are counted in *count
 * up to limit (0 = all), guesses in *guesses, polled against sp->lim when they reach
 * *sp->poll_at. Modes (constants in each entry):
 *   singles  1: srch_choose may return a cell with one candidate, taken without a guess
 *   each     0: the first solution's digits go to first (no callback, sp->sol unused);
 *            1: every solution is written to sp->sol and handed to fn (may be NULL), the
 *            first copied to first (may be NULL)
 * @return SB_OK, SB_ERR_STOPPED (fn asked, or the stop flag), SB_ERR_BUDGET or SB_ERR_NOMEM. */
static inline __attribute__((always_inline)) int srch_dfs(SB_SEARCH_CTX *x, int ok,
                                                          uint64_t limit, const srch_space *sp,
                                                          sb_gsolution_fn fn, void *user,
                                                          uint64_t *count, uint64_t *guesses,
                                                          uint8_t *first, const int singles,
                                                          const int each)
{
    size_t depth = 0;
    SRCH_BOARD *b = srch_at(x, 0);
    for (;;) {
        if (ok && srch_solved(x, b)) {
            if (each) {
                srch_solution(x, b, sp->sol);
                if (*count == 0 && first)
                    memcpy(first, sp->sol, (size_t)sp->ncells);
                (*count)++;
                if (fn && fn(sp->sol, *count - 1, user))
                    return SB_ERR_STOPPED;
            } else if ((*count)++ == 0) {
                srch_solution(x, b, first);
            }
            if (limit && *count >= limit)
                return SB_OK;
            ok = 0; /* counted: look for the next one */
        }
        if (ok) {
            const int c = srch_choose(x, b, *guesses);
            const SRCH_MASK m = srch_cell(x, b, c);
            const SRCH_MASK d = m & (SRCH_MASK)(m - 1) ? srch_first(x, b, c, m) : m;
            if (!singles || m != d) {
                if (__builtin_expect(*guesses >= *sp->poll_at, 0)) {
                    const int st = srch_poll(sp->lim, *guesses + 1, sp->poll_at);
                    if (st != SB_OK)
                        return st;
                }
                SRCH_BOARD *next = srch_push(x, depth);
                if (!next)
                    return SB_ERR_NOMEM;
                sp->bcell[depth] = c;
                sp->bdigit[depth] = d;
                depth++;
                (*guesses)++;
                b = next;
            }
            ok = srch_take(x, b, c, d);
            continue;
        }
        if (depth == 0)
            return SB_OK;
        b = srch_at(x, --depth);
        ok = srch_drop(x, b, sp->bcell[depth], sp->bdigit[depth]);
    }
}

/* The 9x9 entry (see the top): the root at srch_at(x, 0), ok 0 when its load found a
 * contradiction; cells with one candidate are taken without a guess. run->res is zeroed here.
 * @return SB_OK, SB_ERR_BUDGET or SB_ERR_STOPPED. */
static inline __attribute__((always_inline)) int srch_dfs_count(SB_SEARCH_CTX *x, int ok,
                                                                uint64_t limit,
                                                                sb_search_run *run)
{
    int bcell[SB_STACK_DEPTH];        /* cell of each alternative on the stack */
    SRCH_MASK bdigit[SB_STACK_DEPTH]; /* digit that alternative must drop */
    sb_result *res = &run->res;
    const sb_glimit lim = srch_run_limit(run);
    uint64_t poll_at = srch_run_first_poll(run);
    const srch_space sp = {SB_CELLS, bcell, bdigit, NULL, &poll_at, &lim};
    memset(res, 0, sizeof *res);
    return srch_dfs(x, ok, limit, &sp, NULL, NULL, &res->count, &res->guesses,
                    res->solution.cell, 1, 0);
}

/* The geometry entry (see the top): the root at srch_at(x, 0), ok 0 when its propagation found
 * a contradiction; res zeroed by the caller; singles as srch_dfs's. */
static inline __attribute__((always_inline)) int srch_dfs_each(SB_SEARCH_CTX *x, int ok,
                                                               uint64_t limit,
                                                               const srch_space *sp,
                                                               sb_gsolution_fn fn, void *user,
                                                               sb_gresult *res, uint8_t *first,
                                                               const int singles)
{
    *sp->poll_at = 0; /* the first push polls: a flag raised before the solve stops it */
    return srch_dfs(x, ok, limit, sp, fn, user, &res->count, &res->guesses, first, singles, 1);
}

/* Breadth-first, for a stamp whose board is one SRCH_BOARD (the 9x9 sb_board): a FIFO
 * frontier of boards, grown by doubling up to cap boards, from root (ok 0: its load found a
 * contradiction). A branching board's children (one per candidate of the chosen cell) join
 * the back; every candidate beyond the first counts as a guess, so a cell of k candidates
 * costs k-1 guesses as in the DFS. run->res is zeroed here; the budget and stop flag are
 * run's, checked before a node's guesses are added. @return SB_OK, SB_ERR_FRONTIER when the
 * frontier would exceed cap, SB_ERR_NOMEM, SB_ERR_BUDGET or SB_ERR_STOPPED. */
static inline __attribute__((always_inline)) int srch_bfs_count(SB_SEARCH_CTX *x,
                                                                const SRCH_BOARD *root, int ok,
                                                                SRCH_BOARD **ring,
                                                                size_t *ring_len, size_t cap,
                                                                uint64_t limit,
                                                                sb_search_run *run)
{
    size_t head = 0, n = 0; /* frontier = ring[head .. head+n) modulo ring_len */
    sb_result *res = &run->res;
    const sb_glimit lim = srch_run_limit(run);
    uint64_t poll_at = srch_run_first_poll(run);

    memset(res, 0, sizeof *res);
    if (!ok)
        return SB_OK;
    if (cap == 0)
        return SB_ERR_FRONTIER;
    if (*ring_len == 0) {
        const size_t len = cap < 64 ? cap : 64;
        SRCH_BOARD *r = aligned_alloc(64, len * sizeof *r);
        if (!r)
            return SB_ERR_NOMEM;
        *ring = r;
        *ring_len = len;
    }
    (*ring)[0] = *root;
    n = 1;
    while (n > 0) {
        SRCH_BOARD b = (*ring)[head];
        head = (head + 1) % *ring_len;
        n--;
        if (srch_solved(x, &b)) {
            if (res->count++ == 0)
                srch_solution(x, &b, res->solution.cell);
            if (limit && res->count >= limit)
                return SB_OK;
            continue;
        }
        const int c = srch_choose(x, &b, 0); /* a frontier splits by the cell rule alone */
        const SRCH_MASK cand = srch_cell(x, &b, c);
        const int k = sizeof cand <= sizeof(unsigned) ? __builtin_popcount(cand)
                                                      : __builtin_popcountll(cand);
        const uint64_t add = (uint64_t)(k - 1);
        if (res->guesses + add > poll_at) {
            const int st = srch_poll(&lim, res->guesses + add, &poll_at);
            if (st != SB_OK)
                return st;
        }
        res->guesses += add;
        for (SRCH_MASK m = cand; m; m &= (SRCH_MASK)(m - 1)) {
            SRCH_BOARD child = b;
            if (!srch_take(x, &child, c, m & (SRCH_MASK)-m))
                continue;
            if (n >= cap)
                return SB_ERR_FRONTIER;
            if (n == *ring_len) {
                /* Grow: unroll the ring into a buffer twice the size. */
                const size_t len = *ring_len * 2 < cap ? *ring_len * 2 : cap;
                SRCH_BOARD *r = aligned_alloc(64, len * sizeof *r);
                if (!r)
                    return SB_ERR_NOMEM;
                for (size_t i = 0; i < n; i++)
                    r[i] = (*ring)[(head + i) % *ring_len];
                free(*ring);
                *ring = r;
                *ring_len = len;
                head = 0;
            }
            (*ring)[(head + n) % *ring_len] = child;
            n++;
        }
    }
    return SB_OK;
}

#endif /* SB_SEARCH_H */
