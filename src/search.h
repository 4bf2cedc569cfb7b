/*
 * search.h — the one search every pipeline uses, written once as a template so that a
 * comparison of pipelines isolates their propagation: same branching cell, same digit order,
 * same guess count convention.
 *
 * The includer defines SB_SEARCH_DFS and SB_SEARCH_BFS (names of the functions to generate),
 * SB_SEARCH_CTX (the hook context type), and these static inline hooks before including:
 *   int srch_load(SB_SEARCH_CTX *x, sb_board *b, const sb_grid *puzzle)
 *       root board from the givens, propagated; 0 on contradiction
 *   int srch_solved(SB_SEARCH_CTX *x, const sb_board *b)
 *       1 when b is a complete solution
 *   int srch_choose(SB_SEARCH_CTX *x, const sb_board *b)
 *       the branching cell: among the unassigned cells with the fewest candidates, the best by
 *       the kernel's score (open peers sharing a digit), the first in cell order on a tie
 *   int srch_take(SB_SEARCH_CTX *x, sb_board *b, int cell, uint16_t digit)
 *       assign digit to cell and propagate; 0 on contradiction
 *   int srch_drop(SB_SEARCH_CTX *x, sb_board *b, int cell, uint16_t digit)
 *       remove digit from cell and propagate; 0 on contradiction
 *   uint16_t srch_cell(SB_SEARCH_CTX *x, const sb_board *b, int cell)
 *       the candidate mask of cell (bit d-1 = digit d): a kernel whose board layout is not
 *       cell-major (digit-major bitboards) converts here; the search reads cells only through it
 *   void srch_solution(SB_SEARCH_CTX *x, const sb_board *b, sb_grid *out)   (optional)
 *       writes solved board b's digits to out; defined with SRCH_SOLUTION by an includer whose
 *       layout has a faster way than 81 srch_cell calls
 *
 * Guess convention (the field's): one guess per search state pushed. Digits are tried lowest
 * first; a cell with a single candidate is taken without a push (it is forced, not a guess).
 *
 * Budget and stop flag: res is &run->res of an sb_search_run (internal.h). The guess counter
 * is compared with one precomputed bound per guess; only when it passes the bound (every
 * SB_SEARCH_POLL guesses, or at the budget) does srch_poll look at the budget and the stop
 * flag, so neither costs anything per node. Work between two guesses is bounded (at most 81
 * forced assignments and the pops of earlier guesses), so polling on guesses is prompt.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

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

/* Depth-first: the board below the current one keeps the untried alternative (the branch
 * digit is dropped from it when it is popped); the copy above takes the digit. */
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
    for (;;) {
        if (ok && srch_solved(x, b)) {
            if (res->count++ == 0)
                srch_copy_solution(x, b, &res->solution);
            if (limit && res->count >= limit)
                return;
            ok = 0; /* counted: look for the next one */
        }
        if (ok) {
            const int c = srch_choose(x, b);
            const uint16_t m = srch_cell(x, b, c);
            const uint16_t d = m & (uint16_t)-m;
            if (m != d) {
                if (__builtin_expect(res->guesses >= poll_at, 0) &&
                    (run->status = srch_poll(run, res->guesses + 1, &poll_at)) != SB_OK)
                    return;
                sb_board *next = b + 1;
                *next = *b;
                branch_cell[depth] = (uint8_t)c;
                branch_digit[depth] = d;
                depth++;
                res->guesses++;
                b = next;
            }
            ok = srch_take(x, b, c, d);
            continue;
        }
        if (depth == 0)
            return;
        b = &stack[--depth];
        ok = srch_drop(x, b, branch_cell[depth], branch_digit[depth]);
    }
}

#ifdef SB_SEARCH_BFS
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
