/*
 * general.c — the general solver: any geometry of up to 64 digits (sb_gsolver).
 *
 * Board layout (one flat run of uint64_t words, so a guess is one memcpy):
 *   cand[0 .. ncells)            candidate mask per cell, bit d-1 = digit d possible
 *   done[0 .. dwords)            bit c set once cell c is assigned (queued to leave its peers)
 *   placed[0 .. nhouses)         the digits of the assigned cells of each house
 *   ndone                        the number of assigned cells; ncells means solved
 * The stack holds one board per DFS level and grows on demand (doubling) up to ncells + 1
 * boards, the deepest a search can go since every level assigns at least one more cell, so
 * enumeration streams in constant memory whatever the number of solutions.
 *
 * Propagation at every node, to a fixpoint: naked singles (an assigned cell's digit leaves its
 * peers, through a queue), hidden singles (a digit with one place in a house is placed there)
 * over the geometry's houses, then locked candidates over every pair of houses that meet in
 * 2..N-1 cells (found once per solver: box and line on boxed grids, two planes of a cube, a
 * region and a line on a jigsaw; none on a latin square), only for pairs with a changed house,
 * from the ORs of segments (cell groups) taken once per pass: the shared cells of each pair and
 * the cover of each side's other cells, so a box/line pair reads 7 segment ORs, not 28 cells.
 * Search: branch on a cell with the fewest candidates (among those, the best score: its
 * unassigned peers sharing a digit with it, bivalue ones counted three times, as the fast 9x9
 * kernel's src/kernel/branch.h), on up to 9 digits the digit most of its peers hold first
 * and with more the lowest (gsearch_hooks.h's srch_first), one guess per state pushed
 * (src/search/search.h's counting), in the one search loop of every engine (src/search/search.h's geometry
 * entry, srch_dfs_each: its guess budget, stop flag and enumeration callback).
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "sudokubench.h"
#include "box16/box16.h"
#include "search/gsearch.h"

struct sb_gsolver {
    const sb_geometry *g;       /* the geometry (not owned) */
    int ncells;                 /* cells */
    int n;                      /* digits */
    int nhouses;                /* houses */
    uint64_t all;               /* mask of all n digits */
    size_t dwords;              /* words of the done bitset */
    size_t words;               /* words per board: ncells + dwords + nhouses + 1 */
    const uint16_t **house;     /* the cells of each house (the geometry's arrays) */
    const uint16_t **peer;      /* the peers of each cell */
    int *npeer;                 /* the peer count of each cell */
    sb_gsearch srch;            /* the search's stack, budget and stop flag (gsearch.h) */
    int *queue;                 /* cells assigned but not yet removed from their peers */
    int qhead, qtail;           /* queue[qhead .. qtail) is pending */
    const uint16_t **chouse;    /* the houses of each cell */
    int *nchouse;               /* the house count of each cell */
    uint64_t *dirty;            /* bit h: house h may hold a new hidden single or lack a digit;
                                   a clear bit means it was scanned since its cells last changed
                                   on the current board (kept across push/pop: see propagate) */
    size_t hwords;              /* words of dirty */
    uint64_t *hmask;            /* the houses of each cell as a bitset of hwords words, so a
                                   touch is an OR per word, not a bit per house */
    uint64_t *ldirty;           /* bit h: house h changed since the last locked-candidates pass
                                   (the same rules as dirty) */
    uint64_t *lscan;            /* scratch: the ldirty bits a locked pass works from */
    int npairs;                 /* house pairs meeting in 2..N-1 cells (locked candidates) */
    int *pair;                  /* per pair: house a, house b, the segment of its shared cells,
                                   then offsets into pseg of the segments covering a's other
                                   cells, b's other cells and the end */
    int *pseg;                  /* the segment lists the pairs point into */
    int nseg;                   /* segments: cell groups whose candidates a locked pass ORs once
                                   for every pair that uses them (a box's row segments serve the
                                   box's pairs and the rows' pairs alike) */
    int *segstart;              /* nseg + 1 offsets into segcells */
    uint16_t *segcells;         /* the cells of each segment */
    uint64_t *segval;           /* scratch: per segment, its OR at the start of a locked pass */
    int *hpair;                 /* the pairs of each house: hpair[hpstart[h] .. hpstart[h+1]) */
    int *hpstart;               /* nhouses + 1 offsets into hpair */
    unsigned tech;              /* SB_GTECH_* bits in use (naked singles always are) */
    sb_box16 *x16;              /* the whole-board kernel for this geometry (box16.c), or NULL */
    int level;                  /* SIMD level (sb_gsolver_simd): scalar runs the per-cell engine
                                   below even where x16 exists, the reference the kernel is
                                   tested against */
};

enum {
    PAIR_INTS = 6 /* ints per pair in sb_gsolver.pair */
};

/* A growable list of ints (setup only). */
typedef struct ivec {
    int *v;     /* the items */
    size_t n;   /* items in use */
    size_t cap; /* items allocated */
} ivec;

/* Appends x to a. @return 0, or -1 when out of memory. */
static int push(ivec *a, int x)
{
    if (a->n == a->cap) {
        const size_t cap = a->cap ? 2 * a->cap : 64;
        int *v = realloc(a->v, cap * sizeof *v);
        if (!v)
            return -1;
        a->v = v;
        a->cap = cap;
    }
    a->v[a->n++] = x;
    return 0;
}

/* Appends a new segment to cells and starts: the cells of house h set in the cell bitset m, in the
 * house's order. @return 0, or -1 when out of memory. */
static int new_segment(const sb_gsolver *s, ivec *cells, ivec *starts, int h, const uint64_t *m)
{
    if (push(starts, (int)cells->n))
        return -1;
    for (int i = 0; i < s->n; i++)
        if (m[s->house[h][i] / 64] >> (s->house[h][i] % 64) & 1)
            if (push(cells, s->house[h][i]))
                return -1;
    return 0;
}

/* Finds every pair of houses that share at least 2 cells but not all (box and row, plane and
 * plane, region and column, ...): where locked candidates apply. Each pair's shared cells are a
 * segment, and each side's other cells are covered by the segments of that house's other pairs
 * that fit (on a boxed grid, a box less one row segment is its other row segments), plus one
 * segment of whatever is left. @return 0, or -1 when out of memory. */
static int find_pairs(sb_gsolver *s)
{
    const int n = s->n, nh = s->nhouses;
    const size_t cw = ((size_t)s->ncells + 63) / 64;
    uint64_t *bits = calloc((size_t)nh * cw + 2 * cw, sizeof *bits);
    ivec ab = {0}, cells = {0}, starts = {0}, pseg = {0};
    int ret = -1;
    if (!bits)
        return -1;
    uint64_t *rem = bits + (size_t)nh * cw, *sq = rem + cw;
    for (int h = 0; h < nh; h++)
        for (int i = 0; i < n; i++)
            bits[(size_t)h * cw + s->house[h][i] / 64] |= UINT64_C(1) << (s->house[h][i] % 64);
    int *count = calloc((size_t)nh, sizeof *count), *meet = malloc((size_t)nh * sizeof *meet);
    if (!count || !meet) {
        free(count);
        free(meet);
        goto out;
    }
    for (int a = 0; a < nh; a++) { /* pairs (a, b), b > a, in the order of a double loop */
        const int m = sb_gmeeting(s->g, a, count, meet, NULL);
        for (int i = 0; i < m; i++)
            if (meet[i] > a && (push(&ab, a) || push(&ab, meet[i]))) {
                free(count);
                free(meet);
                goto out;
            }
    }
    free(count);
    free(meet);
    const size_t np = ab.n / 2;
    s->npairs = (int)np;
    /* Each house's pairs, so a pass visits only the pairs of changed houses. */
    s->hpstart = calloc((size_t)nh + 1, sizeof *s->hpstart);
    s->hpair = malloc((np ? 2 * np : 1) * sizeof *s->hpair);
    s->pair = malloc((np ? np : 1) * PAIR_INTS * sizeof *s->pair);
    int *fill = malloc((size_t)nh * sizeof *fill);
    if (!s->hpstart || !s->hpair || !s->pair || !fill) {
        free(fill);
        goto out;
    }
    for (size_t p = 0; p < ab.n; p++)
        s->hpstart[ab.v[p] + 1]++;
    for (int h = 0; h < nh; h++)
        s->hpstart[h + 1] += s->hpstart[h];
    memcpy(fill, s->hpstart, (size_t)nh * sizeof *fill);
    for (size_t p = 0; p < ab.n; p++)
        s->hpair[fill[ab.v[p]]++] = (int)(p / 2);
    free(fill);
    for (size_t p = 0; p < np; p++) { /* segment p: the cells pair p shares */
        for (size_t w = 0; w < cw; w++)
            sq[w] = bits[(size_t)ab.v[2 * p] * cw + w] & bits[(size_t)ab.v[2 * p + 1] * cw + w];
        if (new_segment(s, &cells, &starts, ab.v[2 * p], sq))
            goto out;
    }
    /* Segment r (r < np) is pair r's shared cells: cells[starts[r] .. seg_end(r)). The cover
     * below walks those few cells, not r's whole bitset, for every pair of a house: on long
     * house lists (thousands of pairs per house, 64-word bitsets) that walk was the cost. */
    const size_t first_end = cells.n;
#define SEG_END(r) ((size_t)(r) + 1 < np ? (size_t)starts.v[(r) + 1] : first_end)
    for (size_t p = 0; p < np; p++) {
        int *q = s->pair + p * PAIR_INTS;
        q[0] = ab.v[2 * p];
        q[1] = ab.v[2 * p + 1];
        q[2] = (int)p;
        for (int side = 0; side < 2; side++) { /* cover the side's cells outside the pair */
            const int h = q[side], o = q[1 - side];
            q[3 + side] = (int)pseg.n;
            for (size_t w = 0; w < cw; w++)
                rem[w] = bits[(size_t)h * cw + w] & ~bits[(size_t)o * cw + w];
            for (int k = s->hpstart[h]; k < s->hpstart[h + 1]; k++) {
                const int r = s->hpair[k];
                if (r == (int)p)
                    continue;
                const size_t lo = (size_t)starts.v[r], hi = SEG_END(r);
                size_t i = lo;
                while (i < hi && rem[cells.v[i] / 64] >> (cells.v[i] % 64) & 1)
                    i++;
                if (i < hi) /* a cell of r's segment is not left to cover */
                    continue;
                for (i = lo; i < hi; i++)
                    rem[cells.v[i] / 64] &= ~(UINT64_C(1) << (cells.v[i] % 64));
                if (push(&pseg, r))
                    goto out;
            }
            uint64_t left = 0;
            for (size_t w = 0; w < cw; w++)
                left |= rem[w];
            if (left && (push(&pseg, (int)starts.n) || new_segment(s, &cells, &starts, h, rem)))
                goto out;
        }
        q[5] = (int)pseg.n;
    }
#undef SEG_END
    s->nseg = (int)starts.n;
    if (push(&starts, (int)cells.n))
        goto out;
    s->segcells = malloc((cells.n ? cells.n : 1) * sizeof *s->segcells);
    s->segval = malloc((starts.n) * sizeof *s->segval);
    if (!s->segcells || !s->segval)
        goto out;
    for (size_t i = 0; i < cells.n; i++)
        s->segcells[i] = (uint16_t)cells.v[i];
    s->segstart = starts.v;
    starts.v = NULL;
    s->pseg = pseg.v;
    pseg.v = NULL;
    ret = 0;
out:
    free(bits);
    free(ab.v);
    free(cells.v);
    free(starts.v);
    free(pseg.v);
    return ret;
}

/* Makes a solver for g; with16: also the whole-board kernel when g has one (the 0.1 API's
 * sb_gsolver, whose level may change after it is made). @return as sb_gsolver_new. */
static int make(const sb_geometry *g, int with16, sb_gsolver **out)
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
    s->all = sb_all_digits(s->n);
    s->dwords = ((size_t)s->ncells + 63) / 64;
    s->words = (size_t)s->ncells + s->dwords + (size_t)s->nhouses + 1;
    const size_t nc = (size_t)s->ncells;
    s->house = malloc((size_t)s->nhouses * sizeof *s->house);
    s->peer = malloc(nc * sizeof *s->peer);
    s->npeer = malloc(nc * sizeof *s->npeer);
    s->queue = malloc(nc * sizeof *s->queue);
    s->chouse = malloc(nc * sizeof *s->chouse);
    s->nchouse = malloc(nc * sizeof *s->nchouse);
    s->hwords = ((size_t)s->nhouses + 63) / 64;
    s->dirty = calloc(s->hwords, sizeof *s->dirty);
    s->ldirty = calloc(s->hwords, sizeof *s->ldirty);
    s->lscan = calloc(s->hwords, sizeof *s->lscan);
    s->hmask = calloc(nc * s->hwords, sizeof *s->hmask);
    s->tech = SB_GTECH_ALL;
    s->level = sb_simd_resolve(SB_SIMD_AUTO);
    if (s->level < 0) /* $SUDOKUBENCH_SIMD names no level this CPU has: the reference */
        s->level = SB_SIMD_SCALAR;
    const int srch_failed = sb_gsearch_init(&s->srch, s->ncells, s->n, s->words,
                                            sb_glimit_every_cells(s->ncells));
    if (!s->house || !s->peer || !s->npeer || !s->queue || srch_failed || !s->chouse ||
        !s->nchouse || !s->dirty || !s->ldirty || !s->lscan || !s->hmask) {
        sb_gsolver_free(s);
        return SB_ERR_NOMEM;
    }
    for (int h = 0; h < s->nhouses; h++)
        s->house[h] = sb_geometry_house(g, h);
    for (int c = 0; c < s->ncells; c++) {
        s->peer[c] = sb_geometry_peers(g, c, &s->npeer[c]);
        s->chouse[c] = sb_geometry_cell_houses(g, c, &s->nchouse[c]);
        for (int i = 0; i < s->nchouse[c]; i++)
            s->hmask[(size_t)c * s->hwords + s->chouse[c][i] / 64] |= UINT64_C(1) << (s->chouse[c][i] % 64);
    }
    if (find_pairs(s) != 0 || (with16 && sb_box16_new(g, &s->x16) != SB_OK)) {
        sb_gsolver_free(s);
        return SB_ERR_NOMEM;
    }
    *out = s;
    return SB_OK;
}

int sb_gsolver_new(const sb_geometry *g, sb_gsolver **out)
{
    return make(g, 1, out);
}

int sb_gsolver_new_cells(const sb_geometry *g, sb_gsolver **out)
{
    return make(g, 0, out);
}

void sb_gsolver_free(sb_gsolver *s)
{
    if (!s)
        return;
    free(s->house);
    free(s->peer);
    free(s->npeer);
    free(s->queue);
    sb_gsearch_free(&s->srch);
    free(s->chouse);
    free(s->nchouse);
    free(s->dirty);
    free(s->hmask);
    free(s->ldirty);
    free(s->lscan);
    free(s->pair);
    free(s->pseg);
    free(s->segstart);
    free(s->segcells);
    free(s->segval);
    free(s->hpair);
    free(s->hpstart);
    sb_box16_free(s->x16);
    free(s);
}

/* Marks cell c assigned and queues it so its digit leaves its peers. */
static inline void assign(sb_gsolver *s, uint64_t *b, int c)
{
    uint64_t *done = b + s->ncells;
    done[c / 64] |= UINT64_C(1) << (c % 64);
    b[s->words - 1]++;
    uint64_t *placed = done + s->dwords;
    for (int i = 0, k = s->nchouse[c]; i < k; i++)
        placed[s->chouse[c][i]] |= b[c];
    s->queue[s->qtail++] = c;
}

/* Marks the houses of cell c for the next hidden-single scan (c's candidates changed). */
static inline void touch(sb_gsolver *s, int c)
{
    const uint64_t *m = s->hmask + (size_t)c * s->hwords;
    for (size_t w = 0; w < s->hwords; w++) {
        s->dirty[w] |= m[w];
        s->ldirty[w] |= m[w];
    }
}

/* 1 when cell c is assigned on board b. */
static inline int is_done(const sb_gsolver *s, const uint64_t *b, int c)
{
    return (int)(b[s->ncells + (size_t)c / 64] >> (c % 64) & 1);
}

/* Removes the digits of mask from the cells list[0..k), queueing cells left with one.
 * @return 1 if anything changed, -1 on a cell left with none, else 0. */
static int strip(sb_gsolver *s, uint64_t *b, const uint16_t *list, int k, uint64_t mask)
{
    int changed = 0;
    for (int i = 0; i < k; i++) {
        const int c = list[i];
        if (!(b[c] & mask))
            continue;
        b[c] &= ~mask;
        if (!b[c])
            return -1;
        touch(s, c);
        if (!(b[c] & (b[c] - 1)) && !is_done(s, b, c))
            assign(s, b, c);
        changed = 1;
    }
    return changed;
}

/* The OR of the segments pseg[from .. to) on board b. */
static inline uint64_t segs_or(const sb_gsolver *s, int from, int to)
{
    uint64_t m = 0;
    for (int i = from; i < to; i++)
        m |= s->segval[s->pseg[i]];
    return m;
}

/* Removes the digits of mask from the cells of the segments pseg[from .. to), as strip.
 * @return 1 if anything changed, -1 on a cell left with none, else 0. */
static int strip_segs(sb_gsolver *s, uint64_t *b, int from, int to, uint64_t mask)
{
    int r = 0;
    for (int i = from; i < to && r >= 0; i++) {
        const int g = s->pseg[i];
        r |= strip(s, b, s->segcells + s->segstart[g], s->segstart[g + 1] - s->segstart[g], mask);
    }
    return r;
}

/* One pass of locked candidates over the house pairs with a changed house: a digit whose
 * places in one house all lie where it meets the other leaves the rest of the other (box-line
 * pointing and claiming on boxed grids; plane lines on a cube; regions on a jigsaw).
 * @return 1 if a candidate went, 0 if none, -1 on a contradiction. */
static int locked(sb_gsolver *s, uint64_t *b)
{
    int any = 0;
    const uint64_t *ld = s->lscan; /* what changed before this pass; its own changes go on */
    memcpy(s->lscan, s->ldirty, s->hwords * sizeof *s->lscan);
    memset(s->ldirty, 0, s->hwords * sizeof *s->ldirty);
    /* Every segment's OR, once for the pass. A value taken before a strip of the same pass may
     * hold digits gone since: that only makes a confinement harder to see (never a wrong one),
     * and the stripped houses are passed again. */
    for (int g = 0; g < s->nseg; g++) {
        uint64_t m = 0;
        for (int i = s->segstart[g]; i < s->segstart[g + 1]; i++)
            m |= b[s->segcells[i]];
        s->segval[g] = m;
    }
    for (size_t wd = 0; wd < s->hwords; wd++)
    for (uint64_t todo = ld[wd]; todo; todo &= todo - 1) {
    const int h = (int)(wd * 64 + (size_t)__builtin_ctzll(todo));
    for (int k = s->hpstart[h]; k < s->hpstart[h + 1]; k++) {
        const int *q = s->pair + s->hpair[k] * PAIR_INTS;
        const int other = q[0] == h ? q[1] : q[0];
        if (other < h && (ld[other / 64] >> (other % 64) & 1))
            continue; /* done when the pass was at the other house */
        const uint64_t in = s->segval[q[2]], oa = segs_or(s, q[3], q[4]), ob = segs_or(s, q[4], q[5]);
        /* digits confined to the shared cells in one house leave the other's other cells */
        const uint64_t from_b = in & ~oa & ob, from_a = in & ~ob & oa;
        int r = 0;
        if (from_b)
            r = strip_segs(s, b, q[4], q[5], from_b);
        if (r >= 0 && from_a)
            r |= strip_segs(s, b, q[3], q[4], from_a);
        if (r < 0)
            return -1;
        any |= r;
    }
    }
    return any;
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
    const uint64_t *placed = b + s->ncells + s->dwords;
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
        int found = 0;
        for (size_t wd = 0; wd < s->hwords && (s->tech & SB_GTECH_HIDDEN); wd++)
        for (uint64_t todo = s->dirty[wd]; todo; todo &= todo - 1) {
            const int h = (int)(wd * 64 + (size_t)__builtin_ctzll(todo));
            s->dirty[wd] &= ~(todo & -todo);
            const uint16_t *hc = s->house[h];
            uint64_t once = 0, twice = 0;
            for (int i = 0; i < s->n; i++) {
                const uint64_t m = cand[hc[i]];
                twice |= once & m;
                once |= m;
            }
            if (once != s->all)
                goto contradiction;
            /* An assigned cell's digit is seen once too (naked singles removed it from its
             * peers): only the others are news, and most houses have none, so the cell walk is
             * skipped. A cell single but not yet assigned may still show here (as itself). */
            const uint64_t hidden = once & ~twice & ~placed[h];
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
                found = 1;
            }
        }
        if (found)
            continue;
        const int lc = s->tech & SB_GTECH_LOCKED ? locked(s, b) : 0;
        if (lc < 0)
            goto contradiction;
        if (!lc)
            return 1;
    }
contradiction:
    s->qhead = s->qtail = 0;
    memset(s->dirty, 0, s->hwords * sizeof *s->dirty);
    memset(s->ldirty, 0, s->hwords * sizeof *s->ldirty);
    return 0;
}

/* The number of bits set in x: the instruction where the build has it, else a few shifts and
 * masks inline (the default x86-64 build would call libgcc's __popcountdi2, twice the work). */
static inline int pop64(uint64_t x)
{
#ifdef __POPCNT__
    return __builtin_popcountll(x);
#else
    x -= x >> 1 & UINT64_C(0x5555555555555555);
    x = (x & UINT64_C(0x3333333333333333)) + (x >> 2 & UINT64_C(0x3333333333333333));
    x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
    return (int)(x * UINT64_C(0x0101010101010101) >> 56);
#endif
}

/* The number of candidates in m, without a popcount call for the usual 0, 1 or 2 (the default
 * x86-64 build has no popcnt instruction). */
static inline int ncand(uint64_t m)
{
    const uint64_t m1 = m & (m - 1);
    if (!m1)
        return m != 0;
    return m1 & (m1 - 1) ? pop64(m) : 2;
}

/* Cell c's branch score: its unassigned peers that share a digit with it, bivalue ones
 * counted three times (a guess on c most often settles them). */
static int branch_score(const sb_gsolver *s, const uint64_t *b, int c)
{
    const uint16_t *p = s->peer[c];
    const uint64_t mc = b[c];
    int k = 0;
    for (int i = 0, np = s->npeer[c]; i < np; i++) {
        const uint64_t m = b[p[i]], m1 = m & (m - 1);
        if ((m & mc) && m1)
            k += m1 & (m1 - 1) ? 1 : 3;
    }
    return k;
}

/* The branching cell: an unassigned cell with the fewest candidates, among those the one with
 * the best branch_score (a guess there settles the most), the first in cell order on a
 * tie. The score halved the guesses of minimal 16x16 puzzles (docs/geometry.md). */
static int choose(const sb_gsolver *s, const uint64_t *b)
{
    int best = -1, best_n = 65, best_p = -1;
    for (int c = 0; c < s->ncells && best_n > 2; c++) { /* the fewest candidates */
        const int k = ncand(b[c]);
        if (k > 1 && k < best_n) {
            best_n = k;
            best = c;
        }
    }
    for (int c = best; c < s->ncells; c++) { /* the best score among those */
        const uint64_t m = b[c], m1 = m & (m - 1);
        if (!m1 || (best_n == 2 ? (m1 & (m1 - 1)) != 0 : pop64(m) != best_n))
            continue;
        const int pk = branch_score(s, b, c);
        if (pk > best_p) {
            best_p = pk;
            best = c;
        }
    }
    return best;
}

/* The search (src/search/search.h) on sb_gsearch's boards (gsearch_hooks.h gives the board hooks). */
#define SB_SEARCH_CTX sb_gsolver
#define SRCH_BOARD uint64_t
#define SRCH_MASK uint64_t
#include "search/search.h"
#include "search/gsearch_hooks.h"

/* The search's hooks: cell c takes digit d on board b (a copy of the board the guess was made
 * on), then propagation. @return 0 on a contradiction. */
static inline int srch_take(sb_gsolver *s, uint64_t *b, int c, uint64_t d)
{
    b[c] = d;
    assign(s, b, c);
    touch(s, c);
    return propagate(s, b);
}

/* Digit d leaves cell c of board b (the alternative below a guess), then propagation.
 * @return 0 on a contradiction. */
static inline int srch_drop(sb_gsolver *s, uint64_t *b, int c, uint64_t d)
{
    b[c] &= ~d;
    touch(s, c);
    if (!b[c])
        return 0;
    if (!(b[c] & (b[c] - 1)))
        assign(s, b, c);
    return propagate(s, b);
}

/* The branching cell of open board b (choose; never a single: propagation assigned those). */
static inline int srch_choose(sb_gsolver *s, const uint64_t *b, uint64_t guesses)
{
    (void)guesses; /* the cell rule throughout */
    return choose(s, b);
}

/* The solver's search: search.h's geometry entry (choose never returns a single: propagation
 * assigned those). */
static int dfs(sb_gsolver *s, int ok, uint64_t limit, sb_gsolution_fn fn, void *user,
               sb_gresult *res, uint8_t *first)
{
    const srch_space sp = srch_gsearch_space(&s->srch);
    return srch_dfs_each(s, ok, limit, &sp, fn, user, res, first, 0);
}

/* The one search behind sb_gsolve, sb_gsolve_each and sb_gsolve_candidates: from the givens
 * cells, or (cells NULL) from the candidate masks cand. fn may be NULL; first may be NULL. */
static int run(sb_gsolver *s, const uint8_t *cells, const uint64_t *cand, uint64_t limit,
               sb_gsolution_fn fn, void *user, sb_gresult *res, uint8_t *first)
{
    if (!s || !(cells || cand) || !res)
        return SB_ERR_ARG;
    memset(res, 0, sizeof *res);
    for (int c = 0; c < s->ncells; c++)
        if (cells ? cells[c] > s->n : (cand[c] & ~s->all) != 0)
            return SB_ERR_ARG;
    if (s->x16 && s->level != SB_SIMD_SCALAR && s->tech == SB_GTECH_ALL) {
        uint16_t root[256];
        sb_box16_cand(cells, cand, root);
        return sb_box16_run(s->x16, s->level, root, limit, fn, user, res, first, &s->srch.lim);
    }

    uint64_t *b = s->srch.stack;
    memset(b, 0, s->words * sizeof *b);
    s->qhead = s->qtail = 0;
    for (int c = 0; c < s->ncells; c++)
        b[c] = cand ? cand[c] : s->all;
    for (int h = 0; h < s->nhouses; h++) /* the root: every house unscanned */
        s->dirty[h / 64] |= UINT64_C(1) << (h % 64);
    /* Givens (or cells of one candidate) become singles first, then one propagation: a clash
     * between two givens shows as a peer losing its only candidate, a cell without candidates
     * as a contradiction at once. */
    int ok = 1;
    if (cand) {
        for (int c = 0; c < s->ncells; c++) {
            ok &= b[c] != 0;
            if (b[c] && !(b[c] & (b[c] - 1)))
                assign(s, b, c);
        }
    } else {
        for (int c = 0; c < s->ncells; c++)
            if (cells[c] || s->n == 1) { /* one digit: every cell is a single from the start,
                                            and no elimination would ever assign it (found by
                                            fuzzing) */
                b[c] = UINT64_C(1) << ((cells[c] ? cells[c] : 1) - 1);
                assign(s, b, c);
            }
    }
    return dfs(s, ok && propagate(s, b), limit, fn, user, res, first);
}

void sb_gsolver_techniques(sb_gsolver *s, unsigned mask)
{
    if (s)
        s->tech = mask & SB_GTECH_ALL;
}

int sb_gsolver_simd(sb_gsolver *s, int level)
{
    if (!s)
        return SB_ERR_ARG;
    const int l = sb_simd_resolve(level);
    if (l < 0)
        return SB_ERR_SIMD;
    s->level = l;
    return SB_OK;
}

void sb_gsolver_budget(sb_gsolver *s, uint64_t max_guesses)
{
    if (s)
        s->srch.lim.max_guesses = max_guesses;
}

void sb_gsolver_stop(sb_gsolver *s, const volatile sig_atomic_t *stop)
{
    if (s)
        s->srch.lim.stop = stop;
}

int sb_gsolve(sb_gsolver *s, const uint8_t *cells, uint64_t limit, sb_gresult *res,
              uint8_t *first)
{
    return run(s, cells, NULL, limit, NULL, NULL, res, first);
}

int sb_gsolve_candidates(sb_gsolver *s, const uint64_t *cand, uint64_t limit, sb_gresult *res,
                         uint8_t *first)
{
    return cand ? run(s, NULL, cand, limit, NULL, NULL, res, first) : SB_ERR_ARG;
}

int sb_gsolve_each(sb_gsolver *s, const uint8_t *cells, uint64_t limit, sb_gsolution_fn fn,
                   void *user, sb_gresult *res)
{
    if (!fn)
        return SB_ERR_ARG;
    return run(s, cells, NULL, limit, fn, user, res, NULL);
}
