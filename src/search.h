/*
 * search.h — the one search loop of every engine that is not a fused kernel's propagation,
 * written once as a template: the fused 9x9 kernels (src/kernel/entries.h), the 9x9 generic
 * pipelines (pipeline.c), the general solver (geometry/general.c), the generic pipelines on
 * any geometry (geometry/gpipeline.c) and the 16-digit whole-board kernel (kernel/box16.h)
 * all stamp it, so every comparison isolates propagation: same branching cell, same digit
 * order, same guess count convention, the same budget and stop flag rules.
 *
 * Two signatures around the one loop, chosen by the includer:
 *   9x9 (the default): boards are sb_board, the stack SB_STACK_DEPTH boards from the caller,
 *       the result an sb_result inside an sb_search_run (internal.h), the first solution
 *       copied out; SB_SEARCH_BFS also stamps the breadth-first search.
 *         void SB_SEARCH_DFS(SB_SEARCH_CTX *x, sb_board *stack, const sb_grid *puzzle,
 *                            uint64_t limit, sb_result *res)
 *   geometry (SRCH_GEOMETRY defined): boards are runs of SRCH_ELEM that the hooks place
 *       (srch_at, srch_push), candidate masks SRCH_MASK, the root loaded by the caller (ok:
 *       0 when its propagation found a contradiction), every solution handed to fn.
 *         int SB_SEARCH_DFS(SB_SEARCH_CTX *x, int ok, uint64_t limit, sb_gsolution_fn fn,
 *                           void *user, sb_gresult *res, uint8_t *first)
 *       It counts solutions up to limit (0 = all) into res (zeroed by the caller), copies the
 *       first into first (may be NULL), hands each to fn (may be NULL) in DFS order, and
 *       returns SB_OK, SB_ERR_STOPPED (fn asked, or the stop flag), SB_ERR_BUDGET or
 *       SB_ERR_NOMEM. SRCH_STATE(x) is the search state (fields ncells, bcell[], bdigit[],
 *       sol, poll_at), SRCH_LIMIT(x) its sb_glimit (gsearch.h). SRCH_GSEARCH: the context's
 *       member srch is an sb_gsearch, and this file supplies those and the board hooks
 *       (general.c, gpipeline.c write choose, take and drop only). SRCH_INLINE: the loop is
 *       always_inline (box16.h: the box width in its hook context folds into every hook).
 *       SRCH_SINGLES: srch_choose may return a cell with one candidate (gpipeline.c).
 *
 * Hooks, static inline, defined before including (b is a board, c a cell, d a digit's bit):
 *   int srch_load(SB_SEARCH_CTX *x, sb_board *b, const sb_grid *puzzle)          (9x9 only)
 *       root board from the givens, propagated; 0 on contradiction
 *   int srch_solved(SB_SEARCH_CTX *x, const BOARD *b)
 *       1 when b is a complete solution
 *   int srch_choose(SB_SEARCH_CTX *x, const BOARD *b)
 *       the branching cell: among the unassigned cells with the fewest candidates, the best by
 *       the engine's score (open peers sharing a digit), the first in cell order on a tie
 *   int srch_take(SB_SEARCH_CTX *x, BOARD *b, int cell, MASK digit)
 *       assign digit to cell and propagate; 0 on contradiction
 *   int srch_drop(SB_SEARCH_CTX *x, BOARD *b, int cell, MASK digit)
 *       remove digit from cell and propagate; 0 on contradiction
 *   MASK srch_cell(SB_SEARCH_CTX *x, const BOARD *b, int cell)
 *       the candidate mask of cell (bit d-1 = digit d): a kernel whose board layout is not
 *       cell-major (digit-major bitboards) converts here; the search reads cells only through it
 *   void srch_solution(SB_SEARCH_CTX *x, const sb_board *b, sb_grid *out)  (9x9, optional)
 *       writes solved board b's digits to out; defined with SRCH_SOLUTION by an includer whose
 *       layout has a faster way than 81 srch_cell calls
 *   SRCH_ELEM *srch_at(SB_SEARCH_CTX *x, size_t depth)                        (geometry only)
 *       the board of stack level depth
 *   SRCH_ELEM *srch_push(SB_SEARCH_CTX *x, size_t depth)                      (geometry only)
 *       copies level depth's board to level depth + 1 (growing the stack if it must) and
 *       returns that copy; NULL when out of memory
 * (BOARD: sb_board, or SRCH_ELEM in geometry mode; MASK: uint16_t, or SRCH_MASK.)
 *
 * Guess convention (the field's): one guess per search state pushed. Digits are tried lowest
 * first; a cell with a single candidate is taken without a push (it is forced, not a guess).
 *
 * Budget and stop flag: the guess counter is compared with one precomputed bound per guess;
 * only when it passes the bound does the search look at the budget and the stop flag, so
 * neither costs anything per node. 9x9 polls every SB_SEARCH_POLL guesses through the
 * sb_search_run that res is the first member of (a flag raised before the solve is seen at
 * the first poll); geometry mode through SRCH_LIMIT(x) every lim->every guesses from the
 * first guess on (boards there can be large: a flag raised before the solve stops it at its
 * first guess). Work between two guesses is bounded (at most one board's forced assignments
 * and the pops of earlier guesses), so polling on guesses is prompt.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#ifndef SRCH_GEOMETRY
/* Candidate masks of the 9x9 boards. */
#define SRCH_MASK uint16_t

/* Writes the solved board b (every cell one candidate) as digits into out: through the
 * includer's srch_solution when it defines SRCH_SOLUTION (a kernel whose board is not
 * cell-major), else cell by cell. */
static inline void srch_copy_solution(SB_SEARCH_CTX *x, const sb_board *b, sb_grid *out)
{
#ifdef SRCH_SOLUTION
    srch_solution(x, b, out);
#else
    for (int c = 0; c < SB_CELLS; c++)
        out->cell[c] = (uint8_t)(__builtin_ctz(srch_cell(x, b, c)) + 1);
#endif
}

/* Called when a search is about to reach `need` guesses past *poll_at: checks the budget,
 * then the stop flag, and sets the next bound. @return SB_OK, SB_ERR_BUDGET or
 * SB_ERR_STOPPED. */
static inline int srch_poll(const sb_search_run *run, uint64_t need, uint64_t *poll_at)
{
    if (need > run->max_guesses)
        return SB_ERR_BUDGET;
    if (run->stop && *run->stop)
        return SB_ERR_STOPPED;
    const uint64_t next = need + SB_SEARCH_POLL;
    *poll_at = next < need || next > run->max_guesses ? run->max_guesses : next;
    return SB_OK;
}
#endif

#ifdef SRCH_GSEARCH
/* sb_gsearch's flat boards (gsearch.h): uint64_t words, cell-major, the assigned count last. */
#define SRCH_ELEM uint64_t
#define SRCH_MASK uint64_t
#define SRCH_STATE(x) (&(x)->srch)
#define SRCH_LIMIT(x) (&(x)->srch.lim)

/* Solved: every cell assigned. */
static inline int srch_solved(SB_SEARCH_CTX *x, const uint64_t *b)
{
    return b[x->srch.words - 1] == (uint64_t)x->srch.ncells;
}

static inline uint64_t srch_cell(SB_SEARCH_CTX *x, const uint64_t *b, int c)
{
    (void)x;
    return b[c];
}

static inline uint64_t *srch_at(SB_SEARCH_CTX *x, size_t depth)
{
    return x->srch.stack + depth * x->srch.words;
}

/* The stack grows (doubling) up to ncells + 1 boards, the deepest a search goes. */
static inline uint64_t *srch_push(SB_SEARCH_CTX *x, size_t depth)
{
    sb_gsearch *k = &x->srch;
    const size_t w = k->words;
    if (!sb_stack_reserve(&k->stack, &k->cap, depth + 2, (size_t)k->ncells + 1, w))
        return NULL;
    uint64_t *b = k->stack + depth * w; /* the stack may have moved */
    memcpy(b + w, b, w * sizeof *b);
    return b + w;
}
#endif

/* Depth-first: the board below the current one keeps the untried alternative (the branch
 * digit is dropped from it when it is popped); the copy above takes the digit. The two
 * signatures (see the top) differ only in where the boards, the branch records and the
 * result live, and in what a solution and a poll do. */
#ifdef SRCH_GEOMETRY
#ifdef SRCH_INLINE
static inline __attribute__((always_inline))
#else
static
#endif
int SB_SEARCH_DFS(SB_SEARCH_CTX *x, int ok, uint64_t limit, sb_gsolution_fn fn, void *user,
                  sb_gresult *res, uint8_t *first)
{
    size_t depth = 0;
    SRCH_ELEM *b = srch_at(x, 0);
    SRCH_STATE(x)->poll_at = 0; /* the first push polls: a flag raised before the solve stops it */
#else
static void SB_SEARCH_DFS(SB_SEARCH_CTX *x, sb_board *stack, const sb_grid *puzzle,
                          uint64_t limit, sb_result *res)
{
    uint8_t branch_cell[SB_STACK_DEPTH];   /* cell of each alternative on the stack */
    uint16_t branch_digit[SB_STACK_DEPTH]; /* digit that alternative must drop */
    int depth = 0;
    sb_board *b = &stack[0];

    sb_search_run *run = (sb_search_run *)res;
    uint64_t poll_at = run->max_guesses < SB_SEARCH_POLL ? run->max_guesses : SB_SEARCH_POLL;
    memset(res, 0, sizeof *res);
    int ok = srch_load(x, b, puzzle);
#endif
    for (;;) {
        if (ok && srch_solved(x, b)) {
#ifdef SRCH_GEOMETRY
            const int n = SRCH_STATE(x)->ncells;
            uint8_t *sol = SRCH_STATE(x)->sol;
            for (int c = 0; c < n; c++)
                sol[c] = (uint8_t)(__builtin_ctzll(srch_cell(x, b, c)) + 1);
            if (res->count == 0 && first)
                memcpy(first, sol, (size_t)n);
            res->count++;
            if (fn && fn(sol, res->count - 1, user))
                return SB_ERR_STOPPED;
            if (limit && res->count >= limit)
                return SB_OK;
#else
            if (res->count++ == 0)
                srch_copy_solution(x, b, &res->solution);
            if (limit && res->count >= limit)
                return;
#endif
            ok = 0; /* counted: look for the next one */
        }
        if (ok) {
            const int c = srch_choose(x, b);
            const SRCH_MASK m = srch_cell(x, b, c);
            const SRCH_MASK d = m & (SRCH_MASK)-m;
#if !defined SRCH_GEOMETRY || defined SRCH_SINGLES
            if (m != d)
#endif
            {
#ifdef SRCH_GEOMETRY
                if (__builtin_expect(res->guesses >= SRCH_STATE(x)->poll_at, 0)) {
                    const int st = sb_glimit_check(SRCH_LIMIT(x), res->guesses + 1);
                    if (st != SB_OK)
                        return st;
                    SRCH_STATE(x)->poll_at = sb_glimit_next(SRCH_LIMIT(x), res->guesses + 1);
                }
                SRCH_ELEM *next = srch_push(x, depth);
                if (!next)
                    return SB_ERR_NOMEM;
                SRCH_STATE(x)->bcell[depth] = c;
                SRCH_STATE(x)->bdigit[depth] = d;
#else
                if (__builtin_expect(res->guesses >= poll_at, 0) &&
                    (run->status = srch_poll(run, res->guesses + 1, &poll_at)) != SB_OK)
                    return;
                sb_board *next = b + 1;
                *next = *b;
                branch_cell[depth] = (uint8_t)c;
                branch_digit[depth] = d;
#endif
                depth++;
                res->guesses++;
                b = next;
            }
            ok = srch_take(x, b, c, d);
            continue;
        }
#ifdef SRCH_GEOMETRY
        if (depth == 0)
            return SB_OK;
        b = srch_at(x, --depth);
        ok = srch_drop(x, b, SRCH_STATE(x)->bcell[depth], SRCH_STATE(x)->bdigit[depth]);
#else
        if (depth == 0)
            return;
        b = &stack[--depth];
        ok = srch_drop(x, b, branch_cell[depth], branch_digit[depth]);
#endif
    }
}

#if defined SB_SEARCH_BFS && !defined SRCH_GEOMETRY
/* Breadth-first: a FIFO frontier of boards, grown by doubling up to cap boards. A branching
 * board's children (one per candidate of the chosen cell) join the back; every candidate
 * beyond the first counts as a guess, so a cell of k candidates costs k-1 guesses as in the DFS.
 * @return SB_OK, SB_ERR_FRONTIER when the frontier would exceed cap, SB_ERR_NOMEM,
 * SB_ERR_BUDGET or SB_ERR_STOPPED (as the DFS, checked before a node's guesses are added). */
static int SB_SEARCH_BFS(SB_SEARCH_CTX *x, sb_board **ring, size_t *ring_len, size_t cap,
                         const sb_grid *puzzle, uint64_t limit, sb_result *res)
{
    size_t head = 0, n = 0; /* frontier = ring[head .. head+n) modulo ring_len */
    sb_board root;
    const sb_search_run *run = (const sb_search_run *)res;
    uint64_t poll_at = run->max_guesses < SB_SEARCH_POLL ? run->max_guesses : SB_SEARCH_POLL;

    memset(res, 0, sizeof *res);
    if (!srch_load(x, &root, puzzle))
        return SB_OK;
    if (cap == 0)
        return SB_ERR_FRONTIER;
    if (*ring_len == 0) {
        const size_t len = cap < 64 ? cap : 64;
        sb_board *r = aligned_alloc(64, len * sizeof *r);
        if (!r)
            return SB_ERR_NOMEM;
        *ring = r;
        *ring_len = len;
    }
    (*ring)[0] = root;
    n = 1;
    while (n > 0) {
        sb_board b = (*ring)[head];
        head = (head + 1) % *ring_len;
        n--;
        if (srch_solved(x, &b)) {
            if (res->count++ == 0)
                srch_copy_solution(x, &b, &res->solution);
            if (limit && res->count >= limit)
                return SB_OK;
            continue;
        }
        const int c = srch_choose(x, &b);
        const uint16_t cand = srch_cell(x, &b, c);
        const uint64_t add = (uint64_t)(__builtin_popcount(cand) - 1);
        if (res->guesses + add > poll_at) {
            const int st = srch_poll(run, res->guesses + add, &poll_at);
            if (st != SB_OK)
                return st;
        }
        res->guesses += add;
        for (uint16_t m = cand; m; m &= (uint16_t)(m - 1)) {
            sb_board child = b;
            if (!srch_take(x, &child, c, m & (uint16_t)-m))
                continue;
            if (n >= cap)
                return SB_ERR_FRONTIER;
            if (n == *ring_len) {
                /* Grow: unroll the ring into a buffer twice the size. */
                const size_t len = *ring_len * 2 < cap ? *ring_len * 2 : cap;
                sb_board *r = aligned_alloc(64, len * sizeof *r);
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
#endif
