/*
 * gpipeline.c — the generic pipelines on any geometry (sb_gpipeline): the list, array and
 * restart orders and custom specs of the 9x9 engine (src/pipeline.c: the same technique
 * registry and spec parser, sb_plan_parse) over the houses of an sb_geometry, with one
 * uint64_t candidate mask per cell, so N may reach 64.
 *
 * It is the 9x9 engine's semantics written for houses as data, a reference for comparisons
 * rather than a fast path (the general solver, sb_gsolver, is that): portable C, no tables
 * beyond the geometry's own. On the 3x3 geometry it does what pipeline.c does, step for step:
 * the same techniques per house, sweeps over the same house groups, the same branching rule
 * and guess convention (src/search.h), so counts, first solutions, guesses and the technique
 * counters agree (tests/test_geometry.c checks it on the samples).
 *
 * Board (one flat run of uint64_t words, so a guess is one memcpy):
 *   cand[0 .. ncells)          candidate mask per cell, bit d-1 = digit d
 *   assigned[0 .. dwords)      bit c once the search assigned cell c (its digit left its peers)
 *   nsolved                    the number of assigned cells; ncells means solved
 * A cell with one candidate is "known" to the techniques; only the search assigns it.
 *
 * Sweeps: a technique visits the houses in the geometry's order, grouped into runs of pairwise
 * disjoint houses (rows, columns, boxes on a grid; the planes of one axis on a cube). The list
 * order takes one snapshot per run and lands its eliminations together; array and restart work
 * in place, house by house. Locked candidates work on every pair of houses meeting in 2..N-1
 * cells (box and line; two planes of a cube; region and line), as the general solver's do; a
 * geometry without such a pair (latin:N) has nothing for them: sb_gpipeline_skipped says so.
 */
#include <stdlib.h>
#include <string.h>

#include "../internal.h"
#include "../gsearch.h"

/* Most cells of a tuple (nt4, ht4). */
enum { TUPLE_MAX = 4 };

/* Result of a technique on one house, as in pipeline.c. */
enum { G_CONTRADICTION = -1, G_NOTHING = 0, G_FOUND = 1 };

/* Ints per locked-candidates partner entry in lpart. */
enum { LPART_INTS = 5 };

/* Boards of more cells poll the stop flag before each sweep too (sb_gpipeline.halt). */
enum { HALT_CELLS = 256 };

struct sb_gpipeline {
    const sb_geometry *g;    /* the geometry (not owned) */
    int ncells;              /* cells */
    int n;                   /* digits, also cells per house */
    int nhouses;             /* houses */
    uint64_t all;            /* mask of all n digits */
    size_t dwords;           /* words of the assigned bitset */
    size_t words;            /* words per board: ncells + dwords + 1 */
    sb_plan plan;            /* the order and its technique steps */
    unsigned skipped;        /* bit t: technique t of the plan has nothing to work on here */
    const uint16_t **house;  /* the cells of each house (the geometry's arrays) */
    const uint16_t **peer;   /* the peers of each cell */
    int *npeer;              /* the peer count of each cell */
    int *group_end;          /* per house: one past the last house of its run of disjoint
                                houses (the unit of a sweep and of a list-order snapshot) */
    int *lpstart;            /* nhouses + 1 offsets into lpart: each house's partners */
    int *lpart;              /* per partner: the other house, then offsets into pcells of the
                                shared cells, this house's other cells, the other house's other
                                cells, and the end */
    uint16_t *pcells;        /* the cell lists lpart points into */
    uint64_t *emask;         /* per cell: eliminations scheduled, not yet applied */
    uint64_t *etouched;      /* bit c: emask[c] may be non-zero (dwords words) */
    uint64_t *snap;          /* list order: the snapshot a sweep reads (ncells words) */
    sb_gsearch srch;         /* the search's stack, budget and stop flag (gsearch.h) */
    const volatile sig_atomic_t *halt; /* while a solve runs on a board of more than
                                HALT_CELLS cells: its stop flag, polled before each sweep
                                too (one propagation there can take a second); NULL on
                                smaller boards (a propagation takes milliseconds: the
                                per-guess poll suffices) and in sb_gpipeline_root */
    int halted;              /* the stop flag cut the running solve's propagation short */
    sb_technique_counts counts[SB_TECH_COUNT]; /* technique work since made or reset */
};

/* 1 when m has exactly one bit. */
static inline int single(uint64_t m)
{
    return m && !(m & (m - 1));
}

/* 1 when the bit of c is set in the bitset bits. */
static inline int bit_at(const uint64_t *bits, int c)
{
    return (int)(bits[c / 64] >> (c % 64) & 1);
}

/* ------------------------------------------------------------------------------------------ */
/* Set-up                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* Finds each house's locked-candidates partners: the houses meeting it in 2..N-1 cells.
 * @return 0, or -1 when out of memory. */
static int find_partners(sb_gpipeline *p)
{
    const int n = p->n, nh = p->nhouses;
    const size_t cw = p->dwords;
    uint64_t *bits = calloc((size_t)nh * cw, sizeof *bits);
    p->lpstart = calloc((size_t)nh + 1, sizeof *p->lpstart);
    if (!bits || !p->lpstart) {
        free(bits);
        return -1;
    }
    for (int h = 0; h < nh; h++)
        for (int i = 0; i < n; i++)
            bits[(size_t)h * cw + p->house[h][i] / 64] |= UINT64_C(1) << (p->house[h][i] % 64);
    /* Two passes: count, then fill. A pair is listed from both sides. */
    int *count = calloc((size_t)nh, sizeof *count), *meet = malloc((size_t)nh * sizeof *meet),
        *shared = malloc((size_t)nh * sizeof *shared);
    if (!count || !meet || !shared) {
        free(count);
        free(meet);
        free(shared);
        free(bits);
        return -1;
    }
    size_t npart = 0, ncell = 0;
    for (int pass = 0; pass < 2; pass++) {
        npart = ncell = 0;
        for (int a = 0; a < nh; a++) {
            p->lpstart[a] = (int)npart;
            const int m = sb_gmeeting(p->g, a, count, meet, shared);
            for (int j = 0; j < m; j++) {
                const int b = meet[j], k = shared[j];
                if (pass) {
                    int *q = p->lpart + npart * LPART_INTS;
                    const uint64_t *ba = bits + (size_t)a * cw, *bb = bits + (size_t)b * cw;
                    q[0] = b;
                    q[1] = (int)ncell;
                    for (int i = 0; i < n; i++) /* shared */
                        if (bit_at(bb, p->house[a][i]))
                            p->pcells[ncell++] = p->house[a][i];
                    q[2] = (int)ncell;
                    for (int i = 0; i < n; i++) /* a's others */
                        if (!bit_at(bb, p->house[a][i]))
                            p->pcells[ncell++] = p->house[a][i];
                    q[3] = (int)ncell;
                    for (int i = 0; i < n; i++) /* b's others */
                        if (!bit_at(ba, p->house[b][i]))
                            p->pcells[ncell++] = p->house[b][i];
                    q[4] = (int)ncell;
                } else {
                    ncell += (size_t)(2 * n - k);
                }
                npart++;
            }
        }
        p->lpstart[nh] = (int)npart;
        if (!pass) {
            p->lpart = malloc((npart ? npart : 1) * LPART_INTS * sizeof *p->lpart);
            p->pcells = malloc((ncell ? ncell : 1) * sizeof *p->pcells);
            if (!p->lpart || !p->pcells) {
                free(count);
                free(meet);
                free(shared);
                free(bits);
                return -1;
            }
        }
    }
    free(count);
    free(meet);
    free(shared);
    /* The runs of disjoint houses, in house order: a house meeting one of the current run
     * starts the next. */
    uint64_t *run = calloc(cw, sizeof *run);
    if (!run) {
        free(bits);
        return -1;
    }
    for (int h = 0, start = 0; h <= nh; h++) {
        int meets = 0;
        for (size_t w = 0; h < nh && w < cw; w++)
            meets |= (run[w] & bits[(size_t)h * cw + w]) != 0;
        if (h == nh || meets) {
            for (int k = start; k < h; k++)
                p->group_end[k] = h;
            memset(run, 0, cw * sizeof *run);
            start = h;
        }
        for (size_t w = 0; h < nh && w < cw; w++)
            run[w] |= bits[(size_t)h * cw + w];
    }
    free(run);
    free(bits);
    return 0;
}

int sb_gpipeline_new(const sb_geometry *g, const char *name_or_spec, sb_gpipeline **out)
{
    if (!g || !name_or_spec || !out)
        return SB_ERR_ARG;
    *out = NULL;
    size_t np;
    const int idx = sb_pipeline_find(name_or_spec);
    const char *spec = idx >= 0 ? sb_pipelines(&np)[idx].spec : name_or_spec;
    sb_plan plan;
    if (sb_plan_parse(spec, &plan) != SB_OK) /* also "fast": the general solver's business */
        return SB_ERR_PIPELINE;
    sb_gpipeline *p = calloc(1, sizeof *p);
    if (!p)
        return SB_ERR_NOMEM;
    p->g = g;
    p->plan = plan;
    p->ncells = sb_geometry_cells(g);
    p->n = sb_geometry_digits(g);
    p->nhouses = sb_geometry_houses(g);
    p->all = p->n == 64 ? ~UINT64_C(0) : (UINT64_C(1) << p->n) - 1;
    p->dwords = ((size_t)p->ncells + 63) / 64;
    p->words = (size_t)p->ncells + p->dwords + 1;
    const size_t nc = (size_t)p->ncells;
    p->house = malloc((size_t)p->nhouses * sizeof *p->house);
    p->group_end = malloc((size_t)p->nhouses * sizeof *p->group_end);
    p->peer = malloc(nc * sizeof *p->peer);
    p->npeer = malloc(nc * sizeof *p->npeer);
    p->emask = calloc(nc, sizeof *p->emask);
    p->etouched = calloc(p->dwords, sizeof *p->etouched);
    p->snap = malloc(nc * sizeof *p->snap);
    /* A poll per guess: a guess here runs whole technique sweeps (tens of microseconds on
     * 9x9, milliseconds on 64x64), next to which the poll's few instructions are nothing,
     * while a poll every few thousand guesses would leave Ctrl-C waiting for seconds. */
    const int srch_failed = sb_gsearch_init(&p->srch, p->ncells, p->words, 1);
    if (!p->house || !p->group_end || !p->peer || !p->npeer || !p->emask || !p->etouched ||
        !p->snap || srch_failed) {
        sb_gpipeline_free(p);
        return SB_ERR_NOMEM;
    }
    for (int h = 0; h < p->nhouses; h++)
        p->house[h] = sb_geometry_house(g, h);
    for (int c = 0; c < p->ncells; c++)
        p->peer[c] = sb_geometry_peers(g, c, &p->npeer[c]);
    if (find_partners(p) != 0) {
        sb_gpipeline_free(p);
        return SB_ERR_NOMEM;
    }
    for (int i = 0; i < plan.nsteps; i++)
        if (plan.steps[i] == SB_TECH_LOCKED && p->lpstart[p->nhouses] == 0)
            p->skipped |= 1u << SB_TECH_LOCKED;
    *out = p;
    return SB_OK;
}

void sb_gpipeline_free(sb_gpipeline *p)
{
    if (!p)
        return;
    free(p->house);
    free(p->group_end);
    free(p->peer);
    free(p->npeer);
    free(p->lpstart);
    free(p->lpart);
    free(p->pcells);
    free(p->emask);
    free(p->etouched);
    free(p->snap);
    sb_gsearch_free(&p->srch);
    free(p);
}

void sb_gpipeline_budget(sb_gpipeline *p, uint64_t max_guesses)
{
    p->srch.lim.max_guesses = max_guesses;
}

void sb_gpipeline_stop(sb_gpipeline *p, const volatile sig_atomic_t *stop)
{
    p->srch.lim.stop = stop;
}

unsigned sb_gpipeline_skipped(const sb_gpipeline *p)
{
    return p->skipped;
}

void sb_gpipeline_counts(const sb_gpipeline *p, sb_technique_counts out[SB_TECH_COUNT])
{
    memcpy(out, p->counts, sizeof p->counts);
}

void sb_gpipeline_counts_reset(sb_gpipeline *p)
{
    memset(p->counts, 0, sizeof p->counts);
}

/* ------------------------------------------------------------------------------------------ */
/* Techniques: one house of a candidate array, eliminations scheduled in p->emask            */
/* ------------------------------------------------------------------------------------------ */

/* Schedules removing digits from cell c, whose candidates are m. @return 1 if any is new. */
static int schedule(sb_gpipeline *p, int c, uint64_t m, uint64_t digits)
{
    const uint64_t x = m & digits;
    if (!x)
        return 0;
    p->emask[c] |= x;
    p->etouched[c / 64] |= UINT64_C(1) << (c % 64);
    return 1;
}

/* Digits of the known (single-candidate) cells of house h; *dup gets those known twice. */
static uint64_t known_in(const sb_gpipeline *p, const uint64_t *cand, int h, uint64_t *dup)
{
    const uint16_t *hc = p->house[h];
    uint64_t known = 0, twice = 0;
    for (int i = 0; i < p->n; i++)
        if (single(cand[hc[i]])) {
            twice |= known & cand[hc[i]];
            known |= cand[hc[i]];
        }
    *dup = twice;
    return known;
}

/* ns: the digits of known cells leave the house's other cells. */
static int g_naked_single(sb_gpipeline *p, const uint64_t *cand, int h)
{
    const uint16_t *hc = p->house[h];
    uint64_t dup;
    const uint64_t known = known_in(p, cand, h, &dup);
    if (dup)
        return G_CONTRADICTION;
    int found = 0;
    for (int i = 0; i < p->n; i++)
        if (!single(cand[hc[i]]))
            found |= schedule(p, hc[i], cand[hc[i]], known);
    return found;
}

/* hs: a digit not known in the house with one place there fills that cell. */
static int g_hidden_single(sb_gpipeline *p, const uint64_t *cand, int h)
{
    const uint16_t *hc = p->house[h];
    uint64_t once = 0, twice = 0, dup;
    const uint64_t known = known_in(p, cand, h, &dup);
    for (int i = 0; i < p->n; i++) {
        twice |= once & cand[hc[i]];
        once |= cand[hc[i]];
    }
    if (once != p->all)
        return G_CONTRADICTION; /* a digit with no place left */
    const uint64_t hidden = once & ~twice & ~known;
    int found = 0;
    for (int i = 0; i < p->n; i++) {
        const uint64_t mine = cand[hc[i]] & hidden;
        if (mine & (mine - 1))
            return G_CONTRADICTION; /* one cell, two digits that must both go there */
        if (mine)
            found |= schedule(p, hc[i], cand[hc[i]], ~mine);
    }
    return found;
}

/* OR of the candidates of the unknown cells pcells[from .. to). */
static uint64_t open_union(const sb_gpipeline *p, const uint64_t *cand, int from, int to)
{
    uint64_t u = 0;
    for (int i = from; i < to; i++)
        if (!single(cand[p->pcells[i]]))
            u |= cand[p->pcells[i]];
    return u;
}

/* lc: for each house meeting h in 2..N-1 cells, a digit open in h whose unknown places in h
 * all lie in the shared cells leaves the other house's other cells (pointing from a box,
 * claiming from a line on a boxed grid). Known cells are the naked singles' business. */
static int g_locked(sb_gpipeline *p, const uint64_t *cand, int h)
{
    uint64_t dup;
    const uint64_t open = ~known_in(p, cand, h, &dup) & p->all;
    int found = 0;
    for (int k = p->lpstart[h]; k < p->lpstart[h + 1]; k++) {
        const int *q = p->lpart + (size_t)k * LPART_INTS;
        const uint64_t only = open_union(p, cand, q[1], q[2]) & ~open_union(p, cand, q[2], q[3]) & open;
        for (int i = q[3]; only && i < q[4]; i++) {
            const int c = p->pcells[i];
            if (!single(cand[c]))
                found |= schedule(p, c, cand[c], only);
        }
    }
    return found;
}

/* Steps idx[0..k) to the next k-combination of 0..m-1 in lexicographic order.
 * @return 0 after the last one. */
static int next_combination(int *idx, int k, int m)
{
    int i = k - 1;
    while (i >= 0 && idx[i] == m - k + i)
        i--;
    if (i < 0)
        return 0;
    idx[i]++;
    for (int j = i + 1; j < k; j++)
        idx[j] = idx[j - 1] + 1;
    return 1;
}

/* The shared walk of naked and hidden tuples (duals, as in pipeline.c): over the m open
 * members of a house (cells for naked tuples, digits for hidden ones), member[j] its bit and
 * set[j] its set (its digits, or its places), calls found() for every k members whose sets
 * cover exactly k elements. @return G_CONTRADICTION when some k cover fewer than k, else
 * whether found() scheduled anything. */
static int walk_tuples(sb_gpipeline *p, const uint64_t *cand, int h, const uint64_t *member,
                       const uint64_t *set, int m, int k,
                       int (*found)(sb_gpipeline *, const uint64_t *, int, uint64_t, uint64_t))
{
    int idx[TUPLE_MAX], any = 0;
    if (m <= k)
        return G_NOTHING;
    for (int i = 0; i < k; i++)
        idx[i] = i;
    do {
        uint64_t u = 0, members = 0;
        for (int i = 0; i < k; i++) {
            u |= set[idx[i]];
            members |= member[idx[i]];
        }
        const int size = __builtin_popcountll(u);
        if (size < k)
            return G_CONTRADICTION;
        if (size == k)
            any |= found(p, cand, h, members, u);
    } while (next_combination(idx, k, m));
    return any;
}

/* A naked tuple's eliminations: its digits (cover) leave the house's other unknown cells
 * (members: positions in the house). */
static int naked_found(sb_gpipeline *p, const uint64_t *cand, int h, uint64_t members,
                       uint64_t cover)
{
    const uint16_t *hc = p->house[h];
    int any = 0;
    for (int i = 0; i < p->n; i++)
        if (!(members >> i & 1) && !single(cand[hc[i]]))
            any |= schedule(p, hc[i], cand[hc[i]], cover);
    return any;
}

/* A hidden tuple's eliminations: its cells (cover: positions in the house) keep only its
 * digits (members). */
static int hidden_found(sb_gpipeline *p, const uint64_t *cand, int h, uint64_t members,
                        uint64_t cover)
{
    const uint16_t *hc = p->house[h];
    int any = 0;
    for (uint64_t o = cover; o; o &= o - 1)
        any |= schedule(p, hc[__builtin_ctzll(o)], cand[hc[__builtin_ctzll(o)]], ~members);
    return any;
}

/* nt<k>: k unknown cells whose candidates together are k digits: those digits leave the
 * house's other unknown cells. */
static int g_naked_tuple(sb_gpipeline *p, const uint64_t *cand, int h, int k)
{
    const uint16_t *hc = p->house[h];
    uint64_t member[SB_GEO_MAX_DIGITS], set[SB_GEO_MAX_DIGITS];
    int m = 0;
    for (int i = 0; i < p->n; i++)
        if (!single(cand[hc[i]])) {
            member[m] = UINT64_C(1) << i;
            set[m++] = cand[hc[i]];
        }
    return walk_tuples(p, cand, h, member, set, m, k, naked_found);
}

/* ht<k>: k open digits whose places (unknown cells) together are k cells: those cells keep
 * only those digits. */
static int g_hidden_tuple(sb_gpipeline *p, const uint64_t *cand, int h, int k)
{
    const uint16_t *hc = p->house[h];
    uint64_t place[SB_GEO_MAX_DIGITS] = {0}, member[SB_GEO_MAX_DIGITS], set[SB_GEO_MAX_DIGITS];
    uint64_t dup;
    const uint64_t open = ~known_in(p, cand, h, &dup) & p->all;
    for (int i = 0; i < p->n; i++)
        if (!single(cand[hc[i]]))
            for (uint64_t x = cand[hc[i]]; x; x &= x - 1)
                place[__builtin_ctzll(x)] |= UINT64_C(1) << i;
    int m = 0;
    for (uint64_t o = open; o; o &= o - 1) {
        member[m] = o & -o;
        set[m++] = place[__builtin_ctzll(o)];
    }
    return walk_tuples(p, cand, h, member, set, m, k, hidden_found);
}

/* Runs technique t on house h of cand. @return G_CONTRADICTION, G_NOTHING or G_FOUND. */
static int run_technique(sb_gpipeline *p, int t, const uint64_t *cand, int h)
{
    switch (t) {
    case SB_TECH_NAKED_SINGLE: return g_naked_single(p, cand, h);
    case SB_TECH_HIDDEN_SINGLE: return g_hidden_single(p, cand, h);
    case SB_TECH_LOCKED: return g_locked(p, cand, h);
    case SB_TECH_NAKED_PAIR: return g_naked_tuple(p, cand, h, 2);
    case SB_TECH_NAKED_TRIPLE: return g_naked_tuple(p, cand, h, 3);
    case SB_TECH_NAKED_QUAD: return g_naked_tuple(p, cand, h, 4);
    case SB_TECH_HIDDEN_PAIR: return g_hidden_tuple(p, cand, h, 2);
    case SB_TECH_HIDDEN_TRIPLE: return g_hidden_tuple(p, cand, h, 3);
    default: return g_hidden_tuple(p, cand, h, 4);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* Orders                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* Applies and clears the scheduled eliminations on cand, crediting tc (NULL: a contradiction
 * is being cleaned up, nothing applied). @return 0 when a cell is left empty, else 1;
 * *changed set when anything was removed. */
static int apply(sb_gpipeline *p, uint64_t *cand, sb_technique_counts *tc, int *changed)
{
    int ok = 1;
    for (size_t w = 0; w < p->dwords; w++) {
        for (uint64_t bits = p->etouched[w]; bits; bits &= bits - 1) {
            const int c = (int)(64 * w) + __builtin_ctzll(bits);
            const uint64_t x = cand[c] & p->emask[c];
            p->emask[c] = 0;
            if (!x || !tc)
                continue;
            cand[c] ^= x;
            *changed = 1;
            tc->eliminations += (uint64_t)__builtin_popcountll(x);
            if (!cand[c])
                ok = 0;
            else if (single(cand[c]))
                tc->placements++;
        }
        p->etouched[w] = 0;
    }
    return ok;
}

/* Technique t over every house, a run of disjoint houses at a time: in place (each house
 * sees the previous ones) or, for the list order, from one snapshot per run (its
 * eliminations land together). @return 0 on contradiction. */
static int sweep_all(sb_gpipeline *p, uint64_t *cand, int t, int snapshot, int *changed)
{
    sb_technique_counts *tc = &p->counts[t];
    for (int h0 = 0; h0 < p->nhouses; h0 = p->group_end[h0]) {
        const uint64_t *src = cand;
        if (snapshot) {
            memcpy(p->snap, cand, (size_t)p->ncells * sizeof *p->snap);
            src = p->snap;
        }
        for (int h = h0; h < p->group_end[h0]; h++) {
            const int r = run_technique(p, t, src, h);
            if (r == G_CONTRADICTION) {
                apply(p, cand, NULL, changed); /* drops what this run had scheduled */
                return 0;
            }
            tc->applications += (uint64_t)r;
            if (!snapshot && r == G_FOUND && !apply(p, cand, tc, changed))
                return 0;
        }
        if (snapshot && !apply(p, cand, tc, changed))
            return 0;
    }
    return 1;
}

/* 1 when the running solve's stop flag (p->halt, set) is raised, noting it in p->halted: the
 * propagation then ends as a contradiction, the search unwinds and run() reports the stop. */
static inline int halt_now(sb_gpipeline *p)
{
    if (!*p->halt)
        return 0;
    p->halted = 1;
    return 1;
}

/* Technique t's sweep, after a look at the stop flag when poll (a constant in each instance
 * of plan_at). @return 0 on contradiction or a stop. */
static inline __attribute__((always_inline)) int sweep_at(sb_gpipeline *p, uint64_t *cand, int t,
                                                          int snapshot, int *changed,
                                                          const int poll)
{
    return !(poll && halt_now(p)) && sweep_all(p, cand, t, snapshot, changed);
}

/* Runs the plan's order to its fixpoint on cand, polling the stop flag before each sweep
 * when poll. @return 0 on contradiction (or a stop), else 1. */
static inline __attribute__((always_inline)) int plan_at(sb_gpipeline *p, uint64_t *cand,
                                                         const int poll)
{
    const sb_plan *pl = &p->plan;
    if (pl->order == SB_ORDER_RESTART) {
        for (int i = 0; i < pl->nsteps;) {
            int changed = 0;
            if (!sweep_at(p, cand, pl->steps[i], 0, &changed, poll))
                return 0;
            i = changed ? 0 : i + 1;
        }
        return 1;
    }
    const int snapshot = pl->order == SB_ORDER_LIST;
    for (;;) {
        int changed = 0;
        for (int i = 0; i < pl->nsteps; i++)
            if (!sweep_at(p, cand, pl->steps[i], snapshot, &changed, poll))
                return 0;
        if (!changed)
            return 1;
    }
}

/* Runs the plan's order to its fixpoint on cand (one test per call picks the instance, so a
 * board that does not poll between sweeps pays nothing per sweep). @return 0 on
 * contradiction (or a stop), else 1. */
static int run_plan(sb_gpipeline *p, uint64_t *cand)
{
    return p->halt ? plan_at(p, cand, 1) : plan_at(p, cand, 0);
}

/* ------------------------------------------------------------------------------------------ */
/* Search (src/search.h's rules on a geometry board)                                          */
/* ------------------------------------------------------------------------------------------ */

/* Assigns digit d to cell c of board b: marks it and removes d from its peers.
 * @return 0 when a peer is left empty. */
static int assign(sb_gpipeline *p, uint64_t *b, int c, uint64_t d)
{
    uint64_t *assigned = b + p->ncells;
    int ok = 1;
    b[c] = d;
    assigned[c / 64] |= UINT64_C(1) << (c % 64);
    b[p->words - 1]++;
    for (int i = 0; i < p->npeer[c]; i++) {
        b[p->peer[c][i]] &= ~d;
        if (!b[p->peer[c][i]])
            ok = 0;
    }
    return ok;
}

/* The root board from the givens, propagated. @return 0 on contradiction. */
static int load(sb_gpipeline *p, uint64_t *b, const uint8_t *cells)
{
    memset(b, 0, p->words * sizeof *b);
    /* All givens are placed before any is assigned, so equal givens in a house collide as an
     * emptied cell, as in pipeline.c. */
    for (int c = 0; c < p->ncells; c++)
        b[c] = cells[c] ? UINT64_C(1) << (cells[c] - 1) : p->all;
    for (int c = 0; c < p->ncells; c++)
        if (cells[c] && (!b[c] || !assign(p, b, c, b[c])))
            return 0;
    return run_plan(p, b);
}

/* The score of cell c (candidates m) for branching, as the fast kernel's: its peers with two
 * or more candidates sharing a digit with it, bivalue ones counted three times. */
static int branch_score(const sb_gpipeline *p, const uint64_t *b, int c, uint64_t m)
{
    int score = 0;
    for (int i = 0; i < p->npeer[c]; i++) {
        const uint64_t q = b[p->peer[c][i]];
        if ((q & m) && (q & (q - 1)))
            score += 1 + 2 * (__builtin_popcountll(q) == 2);
    }
    return score;
}

/* The branching cell, src/search.h's rule: an unassigned cell with one candidate first
 * (taken without a guess), else among the unassigned cells with the fewest candidates the
 * best branch_score, the first in cell order on a tie. */
static int choose(const sb_gpipeline *p, const uint64_t *b)
{
    const uint64_t *assigned = b + p->ncells;
    int best_n = 65;
    for (int c = 0; c < p->ncells; c++)
        if (!bit_at(assigned, c)) {
            const int k = __builtin_popcountll(b[c]);
            if (k == 1)
                return c;
            best_n = k < best_n ? k : best_n;
        }
    int best = -1, best_score = -1;
    for (int c = 0; c < p->ncells; c++)
        if (!bit_at(assigned, c) && __builtin_popcountll(b[c]) == best_n) {
            const int score = branch_score(p, b, c, b[c]);
            if (score > best_score) {
                best_score = score;
                best = c;
            }
        }
    return best;
}

/* Checks the arguments of a solve. @return SB_OK or SB_ERR_ARG. */
static int check_cells(const sb_gpipeline *p, const uint8_t *cells)
{
    if (!p || !cells)
        return SB_ERR_ARG;
    for (int c = 0; c < p->ncells; c++)
        if (cells[c] > p->n)
            return SB_ERR_ARG;
    return SB_OK;
}

/* The search's hooks (gsearch.h): cell c takes digit d on board b, then the plan.
 * @return 0 on a contradiction. */
static inline int gs_take(sb_gpipeline *p, uint64_t *b, int c, uint64_t d)
{
    return assign(p, b, c, d) && run_plan(p, b);
}

/* Digit d leaves cell c of board b (the alternative below a guess), then the plan.
 * @return 0 on a contradiction. */
static inline int gs_drop(sb_gpipeline *p, uint64_t *b, int c, uint64_t d)
{
    b[c] &= ~d;
    return b[c] && run_plan(p, b);
}

/* The branching cell of open board b (choose: a known cell first, taken without a guess). */
static inline int gs_choose(sb_gpipeline *p, const uint64_t *b)
{
    return choose(p, b);
}

#define GS_CTX sb_gpipeline
#define GS_DFS dfs
#define GS_SINGLES /* known cells are assigned by the search, without a guess */
#include "../gsearch.h"

/* The search behind sb_gpipeline_solve and sb_gpipeline_each (src/search.h's rules through
 * gsearch.h's loop). fn and first may be NULL. */
static int run(sb_gpipeline *p, const uint8_t *cells, uint64_t limit, sb_gsolution_fn fn,
               void *user, sb_gresult *res, uint8_t *first)
{
    if (!res)
        return SB_ERR_ARG;
    memset(res, 0, sizeof *res);
    const int st = check_cells(p, cells);
    if (st != SB_OK)
        return st;
    p->halt = p->ncells > HALT_CELLS ? p->srch.lim.stop : NULL;
    p->halted = 0;
    const int rc = dfs(p, &p->srch, load(p, p->srch.stack, cells), limit, fn, user, res, first);
    p->halt = NULL;
    return p->halted ? SB_ERR_STOPPED : rc;
}

int sb_gpipeline_solve(sb_gpipeline *p, const uint8_t *cells, uint64_t limit, sb_gresult *res,
                       uint8_t *first)
{
    return run(p, cells, limit, NULL, NULL, res, first);
}

int sb_gpipeline_each(sb_gpipeline *p, const uint8_t *cells, uint64_t limit,
                      sb_gsolution_fn fn, void *user, sb_gresult *res)
{
    if (!fn)
        return SB_ERR_ARG;
    return run(p, cells, limit, fn, user, res, NULL);
}

int sb_gpipeline_root(sb_gpipeline *p, const uint8_t *cells)
{
    const int st = check_cells(p, cells);
    if (st != SB_OK)
        return st;
    uint64_t *b = p->srch.stack;
    if (!load(p, b, cells))
        return 0;
    for (int c = 0; c < p->ncells; c++)
        if (!single(b[c]))
            return 2;
    /* Every cell known: complete only if the known digits agree in every house. */
    for (int h = 0; h < p->nhouses; h++) {
        uint64_t dup;
        if (known_in(p, b, h, &dup) != p->all || dup)
            return 0;
    }
    return 1;
}
