/*
 * general.c — the general solver: any geometry of up to 64 digits (sb_gsolver).
 *
 * Board layout (one flat run of uint64_t words, so a guess is one memcpy):
 *   cand[0 .. ncells)            candidate mask per cell, bit d-1 = digit d possible
 *   done[0 .. dwords)            bit c set once cell c is assigned (queued to leave its peers)
 *   ndone                        the number of assigned cells; ncells means solved
 * The stack holds one board per DFS level and grows on demand (doubling) up to ncells + 1
 * boards, the deepest a search can go since every level assigns at least one more cell, so
 * enumeration streams in constant memory whatever the number of solutions.
 *
 * Propagation at every node, to a fixpoint: naked singles (an assigned cell's digit leaves its
 * peers, through a queue) then hidden singles (a digit with one place in a house is placed
 * there) over the geometry's houses. Search follows src/search.h's conventions: branch on the
 * first cell with the fewest candidates, digits lowest first, one guess per state pushed.
 */
#include <stdlib.h>
#include <string.h>

#include "sudokubench.h"

struct sb_gsolver {
    const sb_geometry *g;       /* the geometry (not owned) */
    int ncells;                 /* cells */
    int n;                      /* digits */
    int nhouses;                /* houses */
    uint64_t all;               /* mask of all n digits */
    size_t dwords;              /* words of the done bitset */
    size_t words;               /* words per board: ncells + dwords + 1 */
    const uint16_t **house;     /* the cells of each house (the geometry's arrays) */
    const uint16_t **peer;      /* the peers of each cell */
    int *npeer;                 /* the peer count of each cell */
    uint64_t *stack;            /* cap boards of `words` words */
    size_t cap;                 /* boards the stack has room for */
    int *bcell;                 /* per level: the cell of the alternative left below */
    uint64_t *bdigit;           /* per level: the digit that alternative must drop */
    int *queue;                 /* cells assigned but not yet removed from their peers */
    int qhead, qtail;           /* queue[qhead .. qtail) is pending */
    uint8_t *sol;               /* scratch: the solution handed to callbacks */
    uint64_t max_guesses;       /* guess budget per solve (UINT64_MAX: none) */
    const uint16_t **chouse;    /* the houses of each cell */
    int *nchouse;               /* the house count of each cell */
    uint64_t *dirty;            /* bit h: house h may hold a new hidden single or lack a digit;
                                   a clear bit means it was scanned since its cells last changed
                                   on the current board (kept across push/pop: see propagate) */
    size_t hwords;              /* words of dirty */
};

int sb_gsolver_new(const sb_geometry *g, sb_gsolver **out)
{
    if (!g || !out)
        return SB_ERR_ARG;
    sb_gsolver *s = calloc(1, sizeof *s);
    if (!s)
        return SB_ERR_NOMEM;
    s->g = g;
    s->ncells = sb_geometry_cells(g);
    s->n = sb_geometry_digits(g);
    s->nhouses = sb_geometry_houses(g);
    s->all = s->n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << s->n) - 1;
    s->dwords = ((size_t)s->ncells + 63) / 64;
    s->words = (size_t)s->ncells + s->dwords + 1;
    const size_t nc = (size_t)s->ncells;
    s->house = malloc((size_t)s->nhouses * sizeof *s->house);
    s->peer = malloc(nc * sizeof *s->peer);
    s->npeer = malloc(nc * sizeof *s->npeer);
    s->bcell = malloc((nc + 1) * sizeof *s->bcell);
    s->bdigit = malloc((nc + 1) * sizeof *s->bdigit);
    s->queue = malloc(nc * sizeof *s->queue);
    s->sol = malloc(nc);
    s->chouse = malloc(nc * sizeof *s->chouse);
    s->nchouse = malloc(nc * sizeof *s->nchouse);
    s->hwords = ((size_t)s->nhouses + 63) / 64;
    s->dirty = calloc(s->hwords, sizeof *s->dirty);
    s->cap = 4;
    s->max_guesses = UINT64_MAX;
    s->stack = malloc(s->cap * s->words * sizeof *s->stack);
    if (!s->house || !s->peer || !s->npeer || !s->bcell || !s->bdigit || !s->queue || !s->sol ||
        !s->stack || !s->chouse || !s->nchouse || !s->dirty) {
        sb_gsolver_free(s);
        return SB_ERR_NOMEM;
    }
    for (int h = 0; h < s->nhouses; h++)
        s->house[h] = sb_geometry_house(g, h);
    for (int c = 0; c < s->ncells; c++) {
        s->peer[c] = sb_geometry_peers(g, c, &s->npeer[c]);
        s->chouse[c] = sb_geometry_cell_houses(g, c, &s->nchouse[c]);
    }
    *out = s;
    return SB_OK;
}

void sb_gsolver_free(sb_gsolver *s)
{
    if (!s)
        return;
    free(s->house);
    free(s->peer);
    free(s->npeer);
    free(s->bcell);
    free(s->bdigit);
    free(s->queue);
    free(s->sol);
    free(s->stack);
    free(s->chouse);
    free(s->nchouse);
    free(s->dirty);
    free(s);
}

/* Marks cell c assigned and queues it so its digit leaves its peers. */
static inline void assign(sb_gsolver *s, uint64_t *b, int c)
{
    uint64_t *done = b + s->ncells;
    done[c / 64] |= UINT64_C(1) << (c % 64);
    b[s->words - 1]++;
    s->queue[s->qtail++] = c;
}

/* Marks the houses of cell c for the next hidden-single scan (c's candidates changed). */
static inline void touch(sb_gsolver *s, int c)
{
    const uint16_t *h = s->chouse[c];
    for (int i = 0, k = s->nchouse[c]; i < k; i++)
        s->dirty[h[i] / 64] |= UINT64_C(1) << (h[i] % 64);
}

/* 1 when cell c is assigned on board b. */
static inline int is_done(const sb_gsolver *s, const uint64_t *b, int c)
{
    return (int)(b[s->ncells + (size_t)c / 64] >> (c % 64) & 1);
}

/* Naked then hidden singles until nothing changes. @return 0 on a contradiction (a cell with
 * no candidate, a digit with no place in a house, or a cell that is the only place for two
 * digits), else 1. The queue is empty on return either way.
 *
 * Hidden singles scan only the dirty houses. That is sound across the search because a board
 * is pushed only after a propagation that returned 1 (every house scanned clean for it), and a
 * pop changes one cell, which is touched; bits left over from an abandoned subtree only cost
 * a rescan. A contradiction clears them all. */
static int propagate(sb_gsolver *s, uint64_t *b)
{
    uint64_t *cand = b;
    for (;;) {
        while (s->qhead < s->qtail) {
            const int c = s->queue[s->qhead++];
            const uint64_t bit = cand[c];
            const uint16_t *p = s->peer[c];
            for (int i = 0, np = s->npeer[c]; i < np; i++) {
                const int q = p[i];
                if (!(cand[q] & bit))
                    continue;
                cand[q] &= ~bit;
                if (!cand[q])
                    goto contradiction;
                touch(s, q);
                if (!(cand[q] & (cand[q] - 1)) && !is_done(s, b, q))
                    assign(s, b, q);
            }
        }
        s->qhead = s->qtail = 0; /* drained: each cell is queued at most once per board */
        if (b[s->words - 1] == (uint64_t)s->ncells)
            return 1;
        /* Hidden singles: digits seen once in a house ("once and not twice"). */
        int placed = 0;
        for (size_t wd = 0; wd < s->hwords; wd++)
        for (uint64_t todo = s->dirty[wd]; todo; todo &= todo - 1) {
            const int h = (int)(wd * 64 + (size_t)__builtin_ctzll(todo));
            s->dirty[wd] &= ~(todo & -todo);
            const uint16_t *hc = s->house[h];
            uint64_t once = 0, twice = 0, solved = 0;
            for (int i = 0; i < s->n; i++) {
                const uint64_t m = cand[hc[i]];
                twice |= once & m;
                once |= m;
                solved |= m & (m - 1) ? 0 : m;
            }
            if (once != s->all)
                goto contradiction;
            /* A solved cell's digit is seen once too (naked singles removed it from its peers): only
             * the others are news, and most houses have none, so the cell walk is skipped. */
            const uint64_t hidden = once & ~twice & ~solved;
            if (!hidden)
                continue;
            for (int i = 0; i < s->n; i++) {
                const int c = hc[i];
                const uint64_t m = cand[c] & hidden;
                if (!m)
                    continue;
                if (m & (m - 1)) /* the only place for two digits (even if it holds just them) */
                    goto contradiction;
                if (cand[c] == m)
                    continue; /* already this single */
                cand[c] = m;
                assign(s, b, c);
                touch(s, c);
                placed = 1;
            }
        }
        if (!placed)
            return 1;
    }
contradiction:
    s->qhead = s->qtail = 0;
    memset(s->dirty, 0, s->hwords * sizeof *s->dirty);
    return 0;
}

/* The branching cell: the first unassigned cell with the fewest candidates. */
static int choose(const sb_gsolver *s, const uint64_t *b)
{
    int best = -1, best_n = 65;
    for (int c = 0; c < s->ncells; c++) {
        const uint64_t m = b[c];
        if (!(m & (m - 1)))
            continue;
        const int k = __builtin_popcountll(m);
        if (k < best_n) {
            best_n = k;
            best = c;
            if (k == 2)
                break;
        }
    }
    return best;
}

/* Makes the stack hold at least need boards. @return 1, or 0 when out of memory. */
static int reserve(sb_gsolver *s, size_t need)
{
    if (need <= s->cap)
        return 1;
    size_t cap = s->cap * 2 > need ? s->cap * 2 : need;
    if (cap > (size_t)s->ncells + 1)
        cap = (size_t)s->ncells + 1;
    uint64_t *p = realloc(s->stack, cap * s->words * sizeof *p);
    if (!p)
        return 0;
    s->stack = p;
    s->cap = cap;
    return 1;
}

/* The one search behind sb_gsolve and sb_gsolve_each. fn may be NULL; first may be NULL. */
static int run(sb_gsolver *s, const uint8_t *cells, uint64_t limit, sb_gsolution_fn fn,
               void *user, sb_gresult *res, uint8_t *first)
{
    if (!s || !cells || !res)
        return SB_ERR_ARG;
    memset(res, 0, sizeof *res);
    for (int c = 0; c < s->ncells; c++)
        if (cells[c] > s->n)
            return SB_ERR_ARG;

    const size_t w = s->words;
    size_t depth = 0;
    uint64_t *b = s->stack;
    memset(b, 0, w * sizeof *b);
    s->qhead = s->qtail = 0;
    for (int c = 0; c < s->ncells; c++)
        b[c] = s->all;
    for (int h = 0; h < s->nhouses; h++) /* the root: every house unscanned */
        s->dirty[h / 64] |= UINT64_C(1) << (h % 64);
    /* Givens become singles first, then one propagation: a clash between two givens shows
     * as a peer losing its only candidate. */
    for (int c = 0; c < s->ncells; c++)
        if (cells[c] || s->n == 1) { /* one digit: every cell is a single from the start, and
                                        no elimination would ever assign it (found by fuzzing) */
            b[c] = UINT64_C(1) << ((cells[c] ? cells[c] : 1) - 1);
            assign(s, b, c);
        }
    int ok = propagate(s, b);
    for (;;) {
        if (ok && b[w - 1] == (uint64_t)s->ncells) {
            for (int c = 0; c < s->ncells; c++)
                s->sol[c] = (uint8_t)(__builtin_ctzll(b[c]) + 1);
            if (res->count == 0 && first)
                memcpy(first, s->sol, (size_t)s->ncells);
            res->count++;
            if (fn && fn(s->sol, res->count - 1, user))
                return SB_ERR_STOPPED;
            if (limit && res->count >= limit)
                return SB_OK;
            ok = 0; /* counted: backtrack for the next one */
        }
        if (ok) {
            const int c = choose(s, b);
            const uint64_t d = b[c] & -b[c];
            if (res->guesses >= s->max_guesses)
                return SB_ERR_BUDGET;
            if (!reserve(s, depth + 2))
                return SB_ERR_NOMEM;
            uint64_t *next = s->stack + (depth + 1) * w;
            memcpy(next, s->stack + depth * w, w * sizeof *next);
            s->bcell[depth] = c;
            s->bdigit[depth] = d;
            depth++;
            res->guesses++;
            b = next;
            b[c] = d;
            assign(s, b, c);
            touch(s, c);
            ok = propagate(s, b);
            continue;
        }
        if (depth == 0)
            return SB_OK;
        depth--;
        b = s->stack + depth * w;
        const int c = s->bcell[depth];
        b[c] &= ~s->bdigit[depth];
        touch(s, c);
        if (!b[c]) {
            ok = 0;
        } else {
            if (!(b[c] & (b[c] - 1)))
                assign(s, b, c);
            ok = propagate(s, b);
        }
    }
}

void sb_gsolver_budget(sb_gsolver *s, uint64_t max_guesses)
{
    s->max_guesses = max_guesses;
}

int sb_gsolve(sb_gsolver *s, const uint8_t *cells, uint64_t limit, sb_gresult *res,
              uint8_t *first)
{
    return run(s, cells, limit, NULL, NULL, res, first);
}

int sb_gsolve_each(sb_gsolver *s, const uint8_t *cells, uint64_t limit, sb_gsolution_fn fn,
                   void *user, sb_gresult *res)
{
    if (!fn)
        return SB_ERR_ARG;
    return run(s, cells, limit, fn, user, res, NULL);
}
