/*
 * gpipeline.c — the generic pipelines on any geometry (sb_gpipeline): the any-geometry stamp
 * of src/technique/technique.h, whose 9x9 stamp is src/technique/pipeline.c (also the home of the technique
 * registry and spec parser, sb_plan_parse). The same techniques, orders, sweeps and branching
 * rule run here over the houses of an sb_geometry, with one uint64_t candidate mask per cell,
 * so N may reach 64; this file supplies the geometry's tables (houses, peers, runs of disjoint
 * houses, locked candidates' partners), the board, the root load and the search's hooks.
 *
 * A reference for comparisons rather than a fast path (the general solver, sb_gsolver, is
 * that): portable C, no tables beyond the geometry's own. On the 3x3 geometry it does what
 * pipeline.c does, step for step (one implementation), so counts, first solutions, guesses and
 * the technique counters agree (tests/test_geometry.c checks it on the samples).
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

#include "internal.h"
#include "search/gsearch.h"

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
    int lines;               /* 1 when two runs of disjoint houses cross as rows and columns */
    int line0[2];            /* then the first house of each (each run has n houses) */
    int *lineof;             /* 2 * ncells: per family, the index of the line through a cell */
    int *iwork;              /* whole-board techniques' int scratch (TQ_IWORK_INTS) */
    uint64_t *seen;          /* their two cell bitsets (2 * dwords words), zero between calls */
    sb_gsearch srch;         /* the search's stack, budget and stop flag (gsearch.h) */
    const volatile sig_atomic_t *halt; /* while a solve runs on a board of more than
                                HALT_CELLS cells: its stop flag, polled before each sweep
                                too (one propagation there can take a second); NULL on
                                smaller boards (a propagation takes milliseconds: the
                                per-guess poll suffices) and in sb_gpipeline_root */
    int halted;              /* the stop flag cut the running solve's propagation short */
    sb_technique_counts counts[SB_TECH_SLOTS]; /* technique work since made or reset: the
                                built-ins, then the technique plug-ins */
    sb_tech_ext *ext;        /* the technique plug-ins' states (plan.ext), or NULL */
};

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

/* Finds the line families fish and single-digit patterns work on: the first two runs of
 * disjoint houses, n houses each, where every house of one meets every house of the other in
 * exactly one cell (rows and columns on a grid or latin square; none on a cube). Fills
 * p->lines, line0 and lineof. */
static void find_lines(sb_gpipeline *p)
{
    int *of = p->lineof, n = p->n;
    for (int a = 0; a < p->nhouses; a = p->group_end[a])
        for (int b = p->group_end[a]; b < p->nhouses; b = p->group_end[b]) {
            if (p->group_end[a] - a != n || p->group_end[b] - b != n)
                continue;
            int ok = 1;
            for (int c = 0; c < p->ncells; c++)
                of[c] = -1;
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++)
                    of[p->house[a + i][j]] = i;
            for (int i = 0; ok && i < n; i++) { /* b's house i meets each of a's once */
                uint64_t met = 0;
                for (int j = 0; j < n; j++) {
                    const int l = of[p->house[b + i][j]];
                    ok &= l >= 0 && !(met >> l & 1);
                    met |= l >= 0 ? UINT64_C(1) << l : 0;
                }
            }
            if (!ok)
                continue;
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++)
                    of[p->ncells + p->house[b + i][j]] = i;
            p->lines = 1;
            p->line0[0] = a;
            p->line0[1] = b;
            return;
        }
}

int sb_gpipeline_new(const sb_geometry *g, const char *name_or_spec, sb_gpipeline **out)
{
    sb_options none;
    sb_options_default(&none);
    return sb_gpipeline_new_opt(g, &none, name_or_spec, out);
}

static int gpipeline_make(const sb_geometry *g, const sb_options *opt, const sb_plan *planp,
                          sb_gpipeline **out);

int sb_gpipeline_new_opt(const sb_geometry *g, const sb_options *opt, const char *name_or_spec,
                         sb_gpipeline **out)
{
    if (!g || !name_or_spec || !out)
        return SB_ERR_ARG;
    *out = NULL;
    size_t np;
    const int idx = sb_pipeline_find(name_or_spec);
    const char *spec = idx >= 0 ? sb_pipelines(&np)[idx].spec : name_or_spec;
    sb_plan plan;
    if (sb_plan_parse_opt(opt, spec, &plan) != SB_OK) /* also "fast": the general solver's */
        return SB_ERR_PIPELINE;
    return gpipeline_make(g, opt, &plan, out);
}

int sb_gpipeline_new_parsed(const sb_geometry *g, const sb_options *opt,
                            const sb_spec_parsed *pp, sb_gpipeline **out)
{
    *out = NULL;
    sb_plan plan;
    sb_spec_plan(pp, &plan);
    return gpipeline_make(g, opt, &plan, out);
}

/* Makes the pipeline of plan on g with opt's technique plug-ins. @return SB_OK with *out set,
 * or an error (out of memory, a plug-in refusing g). */
static int gpipeline_make(const sb_geometry *g, const sb_options *opt, const sb_plan *planp,
                          sb_gpipeline **out)
{
    sb_plan plan = *planp;
    sb_gpipeline *p = calloc(1, sizeof *p);
    if (!p)
        return SB_ERR_NOMEM;
    const int est = sb_tech_ext_new(opt->techniques, opt->ntechniques, g, &p->ext);
    if (est != SB_OK) {
        free(p);
        return est;
    }
    plan.ext = p->ext;
    p->g = g;
    p->plan = plan;
    p->ncells = sb_geometry_cells(g);
    p->n = sb_geometry_digits(g);
    p->nhouses = sb_geometry_houses(g);
    p->all = sb_all_digits(p->n);
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
    p->lineof = malloc(2 * nc * sizeof *p->lineof);
    p->iwork = malloc((5 * nc + 6 * (size_t)p->nhouses) * sizeof *p->iwork);
    p->seen = calloc(2 * p->dwords, sizeof *p->seen);
    /* A poll per guess: a guess here runs whole technique sweeps (tens of microseconds on
     * 9x9, milliseconds on 64x64), next to which the poll's few instructions are nothing,
     * while a poll every few thousand guesses would leave Ctrl-C waiting for seconds. */
    const int srch_failed = sb_gsearch_init(&p->srch, p->ncells, p->n, p->words, 1);
    if (!p->house || !p->group_end || !p->peer || !p->npeer || !p->emask || !p->etouched ||
        !p->snap || !p->lineof || !p->iwork || !p->seen || srch_failed) {
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
    find_lines(p);
    /* Techniques that need locked-candidates partners, or rows and columns. */
    const unsigned lineless = 1u << SB_TECH_XWING | 1u << SB_TECH_SWORDFISH |
                              1u << SB_TECH_JELLYFISH | 1u << SB_TECH_SKYSCRAPER |
                              1u << SB_TECH_KITE;
    for (int i = 0; i < plan.nsteps; i++) {
        if (plan.steps[i] == SB_TECH_LOCKED && p->lpstart[p->nhouses] == 0)
            p->skipped |= 1u << SB_TECH_LOCKED;
        if ((lineless >> plan.steps[i] & 1) && !p->lines)
            p->skipped |= 1u << plan.steps[i];
    }
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
    free(p->lineof);
    free(p->iwork);
    free(p->seen);
    sb_gsearch_free(&p->srch);
    sb_tech_ext_free(p->ext);
    free(p);
}

void sb_gpipeline_budget(sb_gpipeline *p, uint64_t max_guesses)
{
    if (p)
        p->srch.lim.max_guesses = max_guesses;
}

void sb_gpipeline_stop(sb_gpipeline *p, const volatile sig_atomic_t *stop)
{
    if (p)
        p->srch.lim.stop = stop;
}

unsigned sb_gpipeline_skipped(const sb_gpipeline *p)
{
    return p ? p->skipped : 0;
}

void sb_gpipeline_counts(const sb_gpipeline *p, sb_technique_counts out[SB_TECH_COUNT])
{
    if (p && out)
        memcpy(out, p->counts, SB_TECH_COUNT * sizeof *out);
}

int sb_gpipeline_plugin_counts(const sb_gpipeline *p, sb_technique_counts out[SB_TECH_PLUGINS])
{
    if (!p || !p->ext)
        return 0;
    memcpy(out, p->counts + SB_TECH_COUNT, (size_t)p->ext->n * sizeof *out);
    return p->ext->n;
}

sb_tech_ext *sb_gpipeline_ext(sb_gpipeline *p)
{
    return p ? p->ext : NULL;
}

void sb_gpipeline_counts_reset(sb_gpipeline *p)
{
    if (p)
        memset(p->counts, 0, sizeof p->counts);
}

/* ------------------------------------------------------------------------------------------ */
/* The any-geometry stamp of technique.h (techniques, orders, branching)                       */
/* ------------------------------------------------------------------------------------------ */

/* 1 when the running solve's stop flag (p->halt, set) is raised, noting it in p->halted: the
 * propagation then ends as a contradiction, the search unwinds and run() reports the stop. */
static inline int halt_now(sb_gpipeline *p)
{
    if (!*p->halt)
        return 0;
    p->halted = 1;
    return 1;
}

#define TQ_MASK uint64_t
#define TQ_CELL uint16_t
#define TQ_CTX sb_gpipeline
#define TQ_BOARD uint64_t
#define TQ_NMAX SB_GEO_MAX_DIGITS
#define TQ_CELLS_MAX SB_GEO_MAX_CELLS
#define TQ_N(x) ((x)->n)
#define TQ_ALL(x) ((x)->all)
#define TQ_NCELLS(x) ((x)->ncells)
#define TQ_NHOUSES(x) ((x)->nhouses)
#define TQ_HOUSE(x, h) ((x)->house[h])
#define TQ_GROUP_END(x, h0) ((x)->group_end[h0])
#define TQ_PEERS(x, c) ((x)->peer[c])
#define TQ_NPEERS(x, c) ((x)->npeer[c])
#define TQ_EMASK(x) ((x)->emask)
#define TQ_ETOUCHED(x) ((x)->etouched)
#define TQ_EWORDS(x) ((x)->dwords)
#define TQ_SNAP(x) ((x)->snap)
#define TQ_COUNTS(x) ((x)->counts)
#define TQ_LP_BEGIN(x, h) ((x)->lpstart[h])
#define TQ_LP_END(x, h) ((x)->lpstart[(h) + 1])
#define TQ_LP_BASE(x) ((x)->pcells)
#define TQ_LP_AT(x, j, i) ((x)->lpart[(size_t)(j) * LPART_INTS + 1 + (i)])
#define TQ_POPCOUNT(m) __builtin_popcountll(m)
#define TQ_HALT(x) halt_now(x)
#define TQ_EXT(x) ((x)->ext)
#define TQ_CAND(b) (b)
#define TQ_ASSIGNED(x, b, c) bit_at((b) + (x)->ncells, c)
#define TQ_MARK(x, b, c) \
    ((b)[(x)->ncells + (c) / 64] |= UINT64_C(1) << ((c) % 64), (b)[(x)->words - 1]++)
#define TQ_LINES(x) ((x)->lines)
#define TQ_LINE0(x, f) ((x)->line0[f])
#define TQ_LINE_OF(x, f, c) ((x)->lineof[(size_t)(f) * (size_t)(x)->ncells + (size_t)(c)])
#define TQ_WORK(x, w) tq_work w = {(x)->iwork, (x)->seen}
#include "technique/technique.h"

/* Runs the plan's order to its fixpoint on cand (one test per call picks the instance, so a
 * board that does not poll between sweeps pays nothing per sweep). @return 0 on
 * contradiction (or a stop), else 1. */
static int run_plan(sb_gpipeline *p, uint64_t *cand)
{
    return p->halt ? tq_plan(p, &p->plan, cand, 1) : tq_plan(p, &p->plan, cand, 0);
}

/* ------------------------------------------------------------------------------------------ */
/* Search (src/search/search.h's rules on a geometry board)                                          */
/* ------------------------------------------------------------------------------------------ */

/* The root board from the givens, propagated. @return 0 on contradiction. */
static int load(sb_gpipeline *p, uint64_t *b, const uint8_t *cells)
{
    memset(b, 0, p->words * sizeof *b);
    /* All givens are placed before any is assigned, so equal givens in a house collide as an
     * emptied cell, as in pipeline.c. */
    for (int c = 0; c < p->ncells; c++)
        b[c] = cells[c] ? UINT64_C(1) << (cells[c] - 1) : p->all;
    for (int c = 0; c < p->ncells; c++)
        if (cells[c] && (!b[c] || !tq_assign(p, b, c, b[c])))
            return 0;
    return run_plan(p, b);
}

/* The root board from candidate masks (a cell of one candidate is placed), propagated.
 * @return 0 on contradiction. */
static int load_candidates(sb_gpipeline *p, uint64_t *b, const uint64_t *cand)
{
    memset(b, 0, p->words * sizeof *b);
    memcpy(b, cand, (size_t)p->ncells * sizeof *b);
    for (int c = 0; c < p->ncells; c++)
        if (!b[c] || (!(b[c] & (b[c] - 1)) && !tq_assign(p, b, c, b[c])))
            return 0;
    return run_plan(p, b);
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

/* Checks candidate masks for a solve: none above digit N. @return SB_OK or SB_ERR_ARG. */
static int check_candidates(const sb_gpipeline *p, const uint64_t *cand)
{
    if (!p || !cand)
        return SB_ERR_ARG;
    for (int c = 0; c < p->ncells; c++)
        if (cand[c] & ~p->all)
            return SB_ERR_ARG;
    return SB_OK;
}

/* The search (src/search/search.h) on sb_gsearch's boards (gsearch_hooks.h gives the board hooks). */
#define SB_SEARCH_CTX sb_gpipeline
#define SRCH_BOARD uint64_t
#define SRCH_MASK uint64_t
#include "search/search.h"
#include "search/gsearch_hooks.h"

/* The search's hooks: cell c takes digit d on board b, then the plan. @return 0 on a
 * contradiction. */
static inline int srch_take(sb_gpipeline *p, uint64_t *b, int c, uint64_t d)
{
    return tq_assign(p, b, c, d) && run_plan(p, b);
}

/* Digit d leaves cell c of board b (the alternative below a guess), then the plan.
 * @return 0 on a contradiction. */
static inline int srch_drop(sb_gpipeline *p, uint64_t *b, int c, uint64_t d)
{
    b[c] &= ~d;
    return b[c] && run_plan(p, b);
}

/* The branching cell of open board b (choose: a known cell first, taken without a guess). */
static inline int srch_choose(sb_gpipeline *p, const uint64_t *b, uint64_t guesses)
{
    (void)guesses; /* the cell rule throughout */
    return tq_choose(p, b);
}

/* The pipelines' search: search.h's geometry entry, with singles (known cells are assigned by
 * the search, without a guess). */
static int dfs(sb_gpipeline *p, int ok, uint64_t limit, sb_gsolution_fn fn, void *user,
               sb_gresult *res, uint8_t *first)
{
    const srch_space sp = srch_gsearch_space(&p->srch);
    return srch_dfs_each(p, ok, limit, &sp, fn, user, res, first, 1);
}

/* The search behind sb_gpipeline_solve, sb_gpipeline_each and sb_gpipeline_solve_candidates
 * (src/search/search.h's loop), from the givens cells or (cells NULL) the candidate masks
 * cand. fn and first may be NULL. */
static int run(sb_gpipeline *p, const uint8_t *cells, const uint64_t *cand, uint64_t limit,
               sb_gsolution_fn fn, void *user, sb_gresult *res, uint8_t *first)
{
    if (!res)
        return SB_ERR_ARG;
    memset(res, 0, sizeof *res);
    const int st = cells ? check_cells(p, cells) : check_candidates(p, cand);
    if (st != SB_OK)
        return st;
    p->halt = p->ncells > HALT_CELLS ? p->srch.lim.stop : NULL;
    p->halted = 0;
    if (p->ext)
        p->ext->fault = SB_OK;
    const int ok = cells ? load(p, p->srch.stack, cells)
                         : load_candidates(p, p->srch.stack, cand);
    const int rc = dfs(p, ok, limit, fn, user, res, first);
    p->halt = NULL;
    /* A plug-in's breach beats everything: the search below it ran on a broken answer. */
    if (p->ext && p->ext->fault)
        return p->ext->fault;
    return p->halted ? SB_ERR_STOPPED : rc;
}

int sb_gpipeline_solve(sb_gpipeline *p, const uint8_t *cells, uint64_t limit, sb_gresult *res,
                       uint8_t *first)
{
    return run(p, cells, NULL, limit, NULL, NULL, res, first);
}

int sb_gpipeline_solve_candidates(sb_gpipeline *p, const uint64_t *cand, uint64_t limit,
                                  sb_gresult *res, uint8_t *first)
{
    return run(p, NULL, cand, limit, NULL, NULL, res, first);
}

int sb_gpipeline_each(sb_gpipeline *p, const uint8_t *cells, uint64_t limit,
                      sb_gsolution_fn fn, void *user, sb_gresult *res)
{
    if (!fn)
        return SB_ERR_ARG;
    return run(p, cells, NULL, limit, fn, user, res, NULL);
}

int sb_gpipeline_root(sb_gpipeline *p, const uint8_t *cells)
{
    const int st = check_cells(p, cells);
    if (st != SB_OK)
        return st;
    uint64_t *b = p->srch.stack;
    return load(p, b, cells) ? tq_complete(p, b) : 0;
}
