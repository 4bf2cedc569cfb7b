/*
 * gsearch.h — what every geometry engine's search shares: the guess budget and the stop flag
 * (sb_glimit, polled the same way by all), and the stack of flat boards of the engines that
 * are not a whole-board kernel (sb_gsearch): the general solver (general.c) and the generic
 * pipelines (gpipeline.c). The search loop itself is src/search/search.h's, stamped through its
 * geometry entry (srch_dfs_each) by those two and by the 16-digit whole-board kernel
 * (src/box16/box16_kernel.h).
 *
 * An sb_gsearch board is a flat run of `words` uint64_t, cand[0 .. ncells) first (bit d-1 =
 * digit d) and the number of assigned cells last (ncells: solved); sb_gsearch_at and
 * sb_gsearch_push place them on the stack, and gsearch_hooks.h gives search.h's board hooks
 * on them.
 */
#ifndef SB_GSEARCH_H
#define SB_GSEARCH_H

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* How a solve may be cut short, set on an engine and read by its search. */
typedef struct sb_glimit {
    uint64_t max_guesses;              /* guesses allowed (UINT64_MAX: none) */
    const volatile sig_atomic_t *stop; /* the caller's stop flag, or NULL */
    uint64_t every;                    /* guesses between two polls */
} sb_glimit;

/* @return the poll interval of a search whose guess costs about what the general solver's
 * does on ncells cells: SB_SEARCH_POLL on 9x9, fewer guesses on larger boards (a guess there
 * costs about ncells times more), so a raised flag is seen within milliseconds anywhere. */
static inline uint64_t sb_glimit_every_cells(int ncells)
{
    const uint64_t every = (uint64_t)SB_SEARCH_POLL * SB_CELLS / (uint64_t)(ncells > 0 ? ncells : 1);
    return every < 1 ? 1 : every > SB_SEARCH_POLL ? SB_SEARCH_POLL : every;
}

/* No budget, no stop flag, a poll every `every` guesses (at least 1). */
static inline void sb_glimit_init(sb_glimit *l, uint64_t every)
{
    l->max_guesses = UINT64_MAX;
    l->stop = NULL;
    l->every = every ? every : 1;
}

/* Called when a search is about to push guess number need and its guess count has reached
 * its poll bound (0 at the start of a solve, then what sb_glimit_next gave): checks the
 * budget, then the stop flag. @return SB_OK, SB_ERR_BUDGET or SB_ERR_STOPPED. */
static inline int sb_glimit_check(const sb_glimit *l, uint64_t need)
{
    if (need > l->max_guesses)
        return SB_ERR_BUDGET;
    if (l->stop && *l->stop)
        return SB_ERR_STOPPED;
    return SB_OK;
}

/* @return the next poll bound after a check at need that passed: l->every guesses on, or the
 * budget when that comes first (a value, not an out-parameter, so a search keeps the bound
 * in a register). */
static inline uint64_t sb_glimit_next(const sb_glimit *l, uint64_t need)
{
    const uint64_t next = need + l->every;
    return next < need || next > l->max_guesses ? l->max_guesses : next;
}

/* One search's stack and scratch, shared by the general solver and the generic pipelines. */
typedef struct sb_gsearch {
    int ncells;       /* cells of a board */
    size_t words;     /* uint64_t words per board */
    uint64_t *stack;  /* cap boards */
    size_t cap;       /* boards the stack has room for (grown up to ncells + 1) */
    int *bcell;       /* per level: the cell of the alternative left below */
    uint64_t *bdigit; /* per level: the digit that alternative must drop */
    uint8_t *sol;     /* scratch: the solution handed to callbacks */
    sb_glimit lim;    /* budget and stop flag of every later solve */
    uint64_t poll_at; /* the running search's next poll bound (in memory: one register less
                         for the propagation the loop inlines) */
    int most;         /* 1: the branch cell's most-held digit first, 0: its lowest (srch_first) */
} sb_gsearch;

/* The most digits a geometry may have for its search to try the branch cell's most-held digit
 * first (search_hooks.h's srch_first); with more, the lowest first. On 9x9 the order cuts the
 * instructions of limit-2 checks with several solutions by 3-5%; with 16 digits such checks
 * ran 20% more instructions, and a 25x25 generate 27% longer: there a guess's cascade is long,
 * and the most constraining digit makes it longer still (docs/geometry.md). */
#define SB_GSEARCH_MOST_DIGITS 9

/* Allocates k for boards of words words over ncells cells of a geometry of digits digits (a
 * small stack that grows), with no budget and no stop flag, polling every `every` guesses.
 * @return 0, or -1 when out of memory (k is then safe to sb_gsearch_free). */
static inline int sb_gsearch_init(sb_gsearch *k, int ncells, int digits, size_t words,
                                  uint64_t every)
{
    const size_t nc = (size_t)ncells;
    k->ncells = ncells;
    k->most = digits <= SB_GSEARCH_MOST_DIGITS;
    k->words = words;
    k->cap = 4;
    k->stack = malloc(k->cap * words * sizeof *k->stack);
    k->bcell = malloc((nc + 1) * sizeof *k->bcell);
    k->bdigit = malloc((nc + 1) * sizeof *k->bdigit);
    k->sol = malloc(nc ? nc : 1);
    sb_glimit_init(&k->lim, every);
    return k->stack && k->bcell && k->bdigit && k->sol ? 0 : -1;
}

/* The board of stack level depth. */
static inline uint64_t *sb_gsearch_at(sb_gsearch *k, size_t depth)
{
    return k->stack + depth * k->words;
}

/* Copies level depth's board to level depth + 1, growing the stack (doubling) up to ncells + 1
 * boards, the deepest a search goes. @return the copy, or NULL when out of memory. */
static inline uint64_t *sb_gsearch_push(sb_gsearch *k, size_t depth)
{
    const size_t w = k->words;
    if (!sb_stack_reserve(&k->stack, &k->cap, depth + 2, (size_t)k->ncells + 1, w))
        return NULL;
    uint64_t *b = k->stack + depth * w; /* the stack may have moved */
    memcpy(b + w, b, w * sizeof *b);
    return b + w;
}

/* Frees what sb_gsearch_init allocated. */
static inline void sb_gsearch_free(sb_gsearch *k)
{
    free(k->stack);
    free(k->bcell);
    free(k->bdigit);
    free(k->sol);
}

/* The general solver without the whole-board kernel (the engine table's "general" row, and
 * 9x9 enumeration): sb_gsolver_new's solver that runs the per-cell engine at every level.
 * @return as sb_gsolver_new. */
int sb_gsolver_new_cells(const sb_geometry *g, sb_gsolver **out);

/* qsort order of ints, ascending. */
static inline int sb_gint_cmp(const void *a, const void *b)
{
    const int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The houses that meet house a of g in 2..N-1 cells (the pairs locked candidates work on),
 * ascending, into out[0 ..), with the number of cells each shares in shared (may be NULL);
 * both need room for every house. count is scratch of sb_geometry_houses(g) zeros, zeros
 * again on return. Only the houses of a's own cells are visited, so listing the partners of
 * every house costs the geometry's cell-house incidences times the houses per cell, not the
 * square of the houses (19,200 houses of 64 cells took 35 s the square way). @return how many. */
static inline int sb_gmeeting(const sb_geometry *g, int a, int *count, int *out, int *shared)
{
    const int n = sb_geometry_digits(g);
    const uint16_t *cells = sb_geometry_house(g, a);
    int m = 0;
    for (int i = 0; i < n; i++) {
        int k;
        const uint16_t *hs = sb_geometry_cell_houses(g, cells[i], &k);
        for (int j = 0; j < k; j++)
            if (hs[j] != a && count[hs[j]]++ == 0)
                out[m++] = hs[j];
    }
    qsort(out, (size_t)m, sizeof *out, sb_gint_cmp);
    int kept = 0;
    for (int i = 0; i < m; i++) {
        const int b = out[i], k = count[b];
        count[b] = 0;
        if (k >= 2 && k < n) {
            if (shared)
                shared[kept] = k;
            out[kept++] = b;
        }
    }
    return kept;
}

#endif /* SB_GSEARCH_H */
