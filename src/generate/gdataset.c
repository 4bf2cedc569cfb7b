/*
 * gdataset.c — datasets on any geometry: the generator of unique, minimal puzzles
 * (sb_ggenerator), the augmenter (a random symmetry of the geometry and a digit relabelling,
 * sb_gaugment) and their batch calls over whole arrays on every core.
 *
 * Randomness. Every draw comes from one splitmix64 state (sb_rng_next) seeded directly from
 * (seed, index) by the mixes below, and values below n are taken modulo n. That is the exact
 * sequence `sudokubench generate/augment --grid` wrote before the algorithms moved here from
 * the CLI, so a (seed, index) keeps its puzzle: sb_rng_seed's stream mixing and the exactly
 * uniform sb_rng_below would give other ones. The modulo bias is below 2^-50 for the small
 * ranges drawn (at most SB_GEO_MAX_CELLS).
 *
 * Generation of puzzle i: a random full grid (a quarter of the cells given random digits
 * their peers allow, then the general solver's first solution under a small guess budget; a
 * seed that is stuck or over the budget is thrown away), then its givens removed in a
 * random order while the puzzle keeps one solution. Removing more givens never removes
 * solutions, so a given kept once stays needed: the result is minimal. A removal that
 * leaves one of the grid's unavoidable sets without a given is refused with no check
 * (find_unavoidable). Each uniqueness check has a guess budget (dig_budget: far above what
 * geometries up to 16 digits need; 10,000 above, where a check of a sparse 25x25 or
 * latin:36 grid can take minutes): a check that runs out keeps its given, and after
 * DIG_MAX_HITS such checks the rest of the givens are kept unchecked. The puzzle is unique
 * all the same, and minimal but for those givens (sb_ggenerated.undecided counts them).
 * Options (sb_ggen_options) change the digging only: under a symmetry the givens go one
 * orbit at a time (with none every cell is its own orbit and the orbits are the cells in
 * order, so the draws are the ones above), and a clue bound drops a candidate once its
 * necessary givens pass it and draws the next candidate from the same stream.
 *
 * A geometry may have no full grid at all (x:1x2, a jigsaw whose regions cannot all hold every
 * digit): then every random fill fails and the loop above never ends. sb_ggenerator_new
 * decides that case for the small ones by solving the empty grid under a budget; for a
 * geometry whose empty grid is too hard to settle there (x:8x8 needs millions of guesses),
 * sb_ggenerate gives up after GEN_MAX_FILLS failed fills in a row.
 */
#include <errno.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h" /* sb_engine_solve_drop */
#include "sudokubench.h"

enum {
    FILL_BUDGET = 1000,     /* guesses a random fill may take before it is thrown away */
    EMPTY_BUDGET = 1000,    /* guesses sb_ggenerator_new spends on the empty grid */
    GEN_MAX_FILLS = 100000, /* failed fills in a row before sb_ggenerate gives up */
    /* Guesses one uniqueness check of the digging may take: up to 16 digits far above any
     * check seen (x:4x4 48,910, 4x4 2,890, 3x5 1,067, the rest under 300), so their puzzles
     * stay as they were; above, where a check of a sparse grid can take minutes (5x5,
     * latin:36), a check that runs out keeps its given (unique still, perhaps not minimal) */
    DIG_BUDGET_SMALL = 1000000,
    DIG_BUDGET_LARGE = 10000,
    DIG_MAX_HITS = 32, /* checks of one puzzle out of guesses before the rest is kept unchecked */
    UA_MAX_SLOTS = 1 << 20, /* houses x digits above which a geometry goes without the sets */
    AUG_RUN = 64            /* augment rows between two looks at the stop flag */
};

/* The odd constant mixing an index into a seed (both generate and augment). */
#define INDEX_MIX UINT64_C(0xD1B54A32D192ED03)
/* Told apart from generate's: augment's state for (seed, i) differs from generate's. */
#define AUGMENT_SALT UINT64_C(0xA5A5)

/* @return a value in 0..n-1 (n >= 1, small) from the next draw of r. */
static int below(sb_rng *r, int n)
{
    return (int)(sb_rng_next(r) % (uint64_t)n);
}

/* Sets p to a random permutation of 0..n-1 (Fisher-Yates from the top). */
static void random_perm(int *p, int n, sb_rng *r)
{
    for (int i = 0; i < n; i++)
        p[i] = i;
    for (int i = n - 1; i > 0; i--) {
        const int j = below(r, i + 1), t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
}

/* ------------------------------------------------------------------------------------------ */
/* The generator                                                                              */
/* ------------------------------------------------------------------------------------------ */

struct sb_ggenerator {
    const sb_geometry *g;              /* the geometry */
    uint64_t seed;                     /* puzzle i is a function of (seed, i, the options) */
    sb_ggen_options opt;               /* the options it was made with */
    int norbits;                       /* orbits of the symmetry (cells when none) */
    int *orbit_at;                     /* orbit o is orbit_cells[orbit_at[o] .. orbit_at[o+1]) */
    int *orbit_cells;                  /* the cells, orbit by orbit */
    const volatile sig_atomic_t *stop; /* polled between solver calls, or NULL */
    sb_engine *engine;                 /* dig's checks (sb_engine_solve), fills (gen_solve) */
    int level;                         /* the engine's SIMD level, resolved */
    int nc, n;                         /* cells, digits */
    uint8_t *grid;                     /* the full grid being dug */
    uint8_t *puzzle;                   /* the puzzle being dug */
    int *order;                        /* a permutation of the cells */
    uint64_t dig_budget;               /* guesses a uniqueness check of dig may take */
    /* The grid's unavoidable sets (find_unavoidable), or ua_set NULL when the geometry has
     * too many house slots to index them (UA_MAX_SLOTS). */
    int ua_width;    /* slots a cell: n - 1 (one per other digit), then one per twin pair */
    int *ua_set;     /* nc x ua_width: the sets holding each cell (0: none, never empty) */
    int *ua_clues;   /* clues left in each set while digging */
    int ntwins;      /* twin houses (find_twins) */
    int *twin_house; /* the first house of each pair */
    uint16_t *twin;  /* ntwins x n: the partner in the second house of each cell of the first */
    uint8_t *twin_slot; /* ntwins x 2n: the slot (past n - 1) of each cell and its partner */
    int *ua_parent;  /* scratch: 3 x nc, union-find over the cells, their sets, by digit */
    uint16_t *ua_at; /* scratch: nh x n, the cell of each digit in each house */
};

/* @return 1 when the generator's stop flag is raised. */
static int gen_stopped(const sb_ggenerator *gen)
{
    return gen->stop && *gen->stop;
}

/* Where gen_solve's callback keeps the first solution. */
typedef struct gen_first {
    uint8_t *out; /* the first solution's cells, or NULL */
    size_t nc;    /* cells */
} gen_first;

/* sb_engine_each's callback of gen_solve: keeps the first solution. @return 0 (go on). */
static int keep_first(const uint8_t *solution, uint64_t index, void *user)
{
    const gen_first *f = user;
    if (index == 0 && f->out)
        memcpy(f->out, solution, f->nc);
    return 0;
}

/* sb_gsolve's contract on gen->puzzle through the engine: counts up to limit, the first
 * solution into first (may be NULL). It enumerates (sb_engine_each), whose DFS order is the
 * general solver's on every geometry, 9x9 included (a solve there runs the fused kernel,
 * whose first solution may differ), so a seed keeps giving the same puzzles. */
static int gen_solve(sb_ggenerator *gen, uint64_t limit, sb_gresult *res, uint8_t *first)
{
    gen_first f = {first, (size_t)gen->nc};
    return sb_engine_each(gen->engine, gen->puzzle, limit, keep_first, &f, res);
}

/* Writes "NAME has no full grid ..." into why (may be NULL). */
static void no_grid_why(const sb_geometry *g, const char *how, char *why, size_t whylen)
{
    if (why && whylen)
        snprintf(why, whylen, "%s has no full grid: %s",
                 sb_geometry_name(g), how);
}

void sb_ggen_options_default(sb_ggen_options *opt)
{
    if (!opt)
        return;
    opt->seed = 0;
    opt->symmetry = SB_SYM_NONE;
    opt->max_clues = 0;
    opt->max_attempts = 100000;
}

/* Fills map (sb_geometry_cells entries) with the cell each cell of g goes to under sym: the
 * N x N picture of a square geometry turned, or every plane of a cube (rows y, columns z).
 * @return 0 when g has no picture for sym to act on (a bare house list, sym not none). */
static int symmetry_map(const sb_geometry *g, int sym, int *map)
{
    sb_geometry_layout l;
    sb_geometry_layout_of(g, &l);
    const int kind = sb_geometry_kind_of(g), nc = sb_geometry_cells(g);
    if (kind == SB_GEO_HOUSES && sym != SB_SYM_NONE)
        return 0;
    const int plane = kind == SB_GEO_CUBE ? l.rows * l.rows : nc;
    const int side = kind == SB_GEO_CUBE ? l.rows : l.cols;
    for (int c = 0; c < nc; c++)
        map[c] = kind == SB_GEO_HOUSES
                     ? c
                     : c - c % plane + sb_symmetry_image(sym, side, c % plane);
    return 1;
}

/* @return the first house of g that map does not send onto a house (its cells' images, sorted,
 * are no house's cells), or -1 when every house goes onto a house. */
static int unmapped_house(const sb_geometry *g, const int *map)
{
    const int n = sb_geometry_digits(g), nh = sb_geometry_houses(g);
    int img[SB_GEO_MAX_DIGITS];
    for (int h = 0; h < nh; h++) {
        const uint16_t *cells = sb_geometry_house(g, h);
        for (int i = 0; i < n; i++) { /* insertion sort: N <= 64 */
            int j = i;
            for (const int v = map[cells[i]]; j > 0 && img[j - 1] > v; j--)
                img[j] = img[j - 1];
            img[j] = map[cells[i]];
        }
        /* A house holding img holds its lowest cell: look among that cell's houses. */
        int nch, found = 0;
        const uint16_t *hs = sb_geometry_cell_houses(g, img[0], &nch);
        for (int k = 0; k < nch && !found; k++) {
            const uint16_t *other = sb_geometry_house(g, hs[k]);
            found = 1;
            for (int i = 0; i < n && found; i++)
                found = other[i] == img[i];
        }
        if (!found)
            return h;
    }
    return -1;
}

int sb_gsymmetry_check(const sb_geometry *g, int sym, char *why, size_t whylen)
{
    if (why && whylen)
        why[0] = '\0';
    if (sym < 0 || sym >= SB_SYM_COUNT) {
        if (why && whylen)
            snprintf(why, whylen, "unknown symmetry %d", sym);
        return SB_ERR_ARG;
    }
    if (!g) {
        if (why && whylen)
            snprintf(why, whylen, "no geometry");
        return SB_ERR_ARG;
    }
    if (g == sb_geometry_9x9() || sym == SB_SYM_NONE)
        return SB_OK; /* 9x9: every sb_symmetry maps rows, columns and boxes onto their kind */
    int *map = malloc((size_t)sb_geometry_cells(g) * sizeof *map);
    if (!map)
        return SB_ERR_NOMEM;
    int st = SB_OK;
    if (!symmetry_map(g, sym, map)) {
        if (why && whylen)
            snprintf(why, whylen, "%s has no grid picture for %s to act on (a bare house list)",
                     sb_geometry_name(g), sb_symmetry_name(sym));
        st = SB_ERR_ARG;
    } else {
        const int h = unmapped_house(g, map);
        if (h >= 0) {
            if (why && whylen)
                snprintf(why, whylen, "%s does not suit %s: it maps house %d onto cells that "
                         "are no house", sb_symmetry_name(sym), sb_geometry_name(g), h);
            st = SB_ERR_ARG;
        }
    }
    free(map);
    return st;
}

/* @return the guesses one uniqueness check of dig may take on a geometry of n digits. */
static uint64_t dig_budget(int n)
{
    return n <= 16 ? DIG_BUDGET_SMALL : DIG_BUDGET_LARGE;
}

/* Splits the cells into the orbits of gen->opt.symmetry (orbit_at, orbit_cells), in the
 * order of their lowest cells: with no symmetry orbit o is cell o. @return SB_OK or
 * SB_ERR_NOMEM. */
static int build_orbits(sb_ggenerator *gen)
{
    const int nc = gen->nc;
    int *map = malloc((size_t)nc * sizeof *map);
    uint8_t *seen = calloc((size_t)nc, 1);
    gen->orbit_at = malloc(((size_t)nc + 1) * sizeof *gen->orbit_at);
    gen->orbit_cells = malloc((size_t)nc * sizeof *gen->orbit_cells);
    const int ok = map && seen && gen->orbit_at && gen->orbit_cells;
    if (ok) {
        symmetry_map(gen->g, gen->opt.symmetry, map); /* checked by sb_gsymmetry_check */
        int at = 0;
        gen->norbits = 0;
        for (int c = 0; c < nc; c++) {
            if (seen[c])
                continue;
            gen->orbit_at[gen->norbits++] = at;
            for (int x = c; !seen[x]; x = map[x]) {
                seen[x] = 1;
                gen->orbit_cells[at++] = x;
            }
        }
        gen->orbit_at[gen->norbits] = at;
    }
    free(map);
    free(seen);
    return ok ? SB_OK : SB_ERR_NOMEM;
}

/* Checks the options against geometry g. @return SB_OK, or SB_ERR_ARG (why says it) or
 * SB_ERR_NOMEM. */
static int options_check(const sb_geometry *g, const sb_ggen_options *opt, char *why,
                         size_t whylen)
{
    const int nc = sb_geometry_cells(g), n = sb_geometry_digits(g);
    if (opt->max_attempts == 0) {
        if (why && whylen)
            snprintf(why, whylen, "max_attempts must be at least 1");
        return SB_ERR_ARG;
    }
    if (opt->max_clues < 0 || opt->max_clues > nc) {
        if (why && whylen)
            snprintf(why, whylen, "%d clues is outside 0..%d, the cells of %s", opt->max_clues,
                     nc, sb_geometry_name(g));
        return SB_ERR_ARG;
    }
    if (opt->max_clues && opt->max_clues < n - 1) {
        if (why && whylen)
            snprintf(why, whylen, "%d clues is infeasible on %s: a puzzle with fewer than %d "
                     "givens lacks two digits, which could swap", opt->max_clues,
                     sb_geometry_name(g), n - 1);
        return SB_ERR_ARG;
    }
    return sb_gsymmetry_check(g, opt->symmetry, why, whylen);
}

/* @return 1 when cells c and d lie in the same houses but for hc (c's) and hd (d's). */
static int twins_at(const sb_geometry *g, int c, int hc, int d, int hd)
{
    int kc, kd;
    const uint16_t *a = sb_geometry_cell_houses(g, c, &kc), *b = sb_geometry_cell_houses(g, d, &kd);
    for (int i = 0, j = 0;; i++, j++) { /* both ascending */
        i += i < kc && a[i] == hc;
        j += j < kd && b[j] == hd;
        if (i == kc || j == kd)
            return i == kc && j == kd;
        if (a[i] != b[j])
            return 0;
    }
}

/* @return the index in house h of cell c's twin (twins_at) when c lies in house hc, or -1. */
static int twin_in(const sb_geometry *g, int n, int c, int hc, int h)
{
    const uint16_t *cells = sb_geometry_house(g, h);
    for (int i = 0; i < n; i++)
        if (twins_at(g, c, hc, cells[i], h))
            return i;
    return -1;
}

/* Finds the twin houses of gen's geometry: houses h1 < h2 where every cell of h1 has a twin in
 * h2, lying in all its houses but h1 (two rows of one band, two columns of one stack). On a
 * grid, where h1's cells and their twins hold the same digits over a cycle of cells, swapping
 * each cell with its twin keeps h1 and h2 valid and every other house too (it holds both or
 * neither): those cells are an unavoidable set that no set of two digits gives when the cycle
 * has three cells or more. Sets gen->ua_width. @return SB_OK or SB_ERR_NOMEM. */
static int find_twins(sb_ggenerator *gen)
{
    const sb_geometry *g = gen->g;
    const int n = gen->n, nh = sb_geometry_houses(g);
    int cap = 0, *per_cell = calloc((size_t)gen->nc, sizeof *per_cell), tmax = 0;
    if (!per_cell)
        return SB_ERR_NOMEM;
    for (int h1 = 0; h1 < nh; h1++) {
        const uint16_t *cells = sb_geometry_house(g, h1);
        int k0;
        const uint16_t *hs0 = sb_geometry_cell_houses(g, cells[0], &k0);
        const int via = hs0[0] == h1 ? (k0 > 1 ? hs0[1] : -1) : hs0[0]; /* another house */
        if (via < 0)
            continue;
        const uint16_t *near = sb_geometry_house(g, via);
        for (int x = 0; x < n; x++) { /* cells[0]'s twin lies in via with it */
            int kx;
            const uint16_t *hx = sb_geometry_cell_houses(g, near[x], &kx);
            for (int y = 0; y < kx; y++) {
                const int h2 = hx[y];
                if (h2 <= h1 || near[x] == cells[0] || !twins_at(g, cells[0], h1, near[x], h2))
                    continue;
                if (gen->ntwins == cap) {
                    cap = cap ? 2 * cap : 64;
                    int *th = realloc(gen->twin_house, (size_t)cap * sizeof *th);
                    if (th)
                        gen->twin_house = th;
                    uint16_t *tw = realloc(gen->twin, (size_t)cap * (size_t)n * sizeof *tw);
                    if (tw)
                        gen->twin = tw;
                    uint8_t *ts = realloc(gen->twin_slot, (size_t)cap * 2 * (size_t)n);
                    if (ts)
                        gen->twin_slot = ts;
                    if (!th || !tw || !ts) {
                        free(per_cell);
                        return SB_ERR_NOMEM;
                    }
                }
                uint16_t *partner = gen->twin + (size_t)gen->ntwins * (size_t)n;
                const uint16_t *other = sb_geometry_house(g, h2);
                uint64_t taken = 0; /* one twin each, and room for a slot more */
                int all = 1;
                for (int i = 0; i < n && all; i++) {
                    const int p = twin_in(g, n, cells[i], h1, h2);
                    all = p >= 0 && !(taken >> p & 1) && per_cell[cells[i]] < UINT8_MAX &&
                          per_cell[other[p]] < UINT8_MAX;
                    taken |= UINT64_C(1) << (all ? p : 0);
                    partner[i] = all ? other[p] : 0;
                }
                if (!all)
                    continue;
                uint8_t *slot = gen->twin_slot + (size_t)gen->ntwins * 2 * (size_t)n;
                for (int i = 0; i < n; i++) {
                    slot[2 * i] = (uint8_t)per_cell[cells[i]]++;
                    slot[2 * i + 1] = (uint8_t)per_cell[partner[i]]++;
                    tmax = per_cell[cells[i]] > tmax ? per_cell[cells[i]] : tmax;
                    tmax = per_cell[partner[i]] > tmax ? per_cell[partner[i]] : tmax;
                }
                gen->twin_house[gen->ntwins++] = h1;
            }
        }
    }
    free(per_cell);
    gen->ua_width = n - 1 + tmax;
    return SB_OK;
}

int sb_ggenerator_new(const sb_geometry *g, uint64_t seed, sb_ggenerator **out, char *why,
                      size_t whylen)
{
    sb_ggen_options opt;
    sb_ggen_options_default(&opt);
    opt.seed = seed;
    return sb_ggenerator_new_opts(g, &opt, out, why, whylen);
}

int sb_ggenerator_new_opts(const sb_geometry *g, const sb_ggen_options *opt,
                           sb_ggenerator **out, char *why, size_t whylen)
{
    if (why && whylen)
        why[0] = '\0';
    if (!out)
        return SB_ERR_ARG;
    *out = NULL;
    if (!g)
        return SB_ERR_ARG;
    sb_ggenerator *gen = calloc(1, sizeof *gen);
    if (!gen)
        return SB_ERR_NOMEM;
    if (opt)
        gen->opt = *opt;
    else
        sb_ggen_options_default(&gen->opt);
    int st = SB_OK;
    gen->g = g;
    gen->seed = gen->opt.seed;
    if (st == SB_OK)
        st = options_check(g, &gen->opt, why, whylen);
    if (st == SB_OK) {
        gen->nc = sb_geometry_cells(g);
        gen->n = sb_geometry_digits(g);
        gen->dig_budget = dig_budget(gen->n);
        gen->grid = calloc((size_t)gen->nc, 1);
        gen->puzzle = calloc((size_t)gen->nc, 1);
        gen->order = malloc((size_t)gen->nc * sizeof *gen->order);
        st = gen->grid && gen->puzzle && gen->order ? build_orbits(gen) : SB_ERR_NOMEM;
    }
    if (st == SB_OK && (size_t)sb_geometry_houses(g) * (size_t)gen->n <= UA_MAX_SLOTS &&
        gen->n > 1 && (st = find_twins(gen)) == SB_OK) {
        const size_t slots = (size_t)gen->nc * (size_t)gen->ua_width;
        gen->ua_set = calloc(slots, sizeof *gen->ua_set); /* slots of no twin: set 0 */
        gen->ua_clues = malloc((slots + 1) * sizeof *gen->ua_clues); /* a set: 2 slots or more */
        gen->ua_parent = malloc(3 * (size_t)gen->nc * sizeof *gen->ua_parent);
        gen->ua_at = malloc((size_t)sb_geometry_houses(g) * (size_t)gen->n * sizeof *gen->ua_at);
        if (!gen->ua_set || !gen->ua_clues || !gen->ua_parent || !gen->ua_at)
            st = SB_ERR_NOMEM;
    }
    sb_options o;
    sb_options_default(&o); /* "fast" at the best level: the engine table picks the row */
    gen->level = sb_simd_resolve(o.simd);
    if (st == SB_OK)
        st = sb_engine_new(g, &o, &gen->engine);
    if (st == SB_OK) {
        /* A full grid is a solution of the empty grid: settle small geometries here. */
        sb_gresult res;
        sb_engine_budget(gen->engine, EMPTY_BUDGET);
        st = gen_solve(gen, 1, &res, NULL);
        sb_engine_budget(gen->engine, UINT64_MAX);
        if (st == SB_ERR_BUDGET)
            st = SB_OK; /* undecided: sb_ggenerate's bound on failed fills takes over */
        else if (st == SB_OK && res.count == 0) {
            no_grid_why(g, "its empty grid has no solution", why, whylen);
            st = SB_ERR_ARG;
        }
    }
    if (st != SB_OK) {
        sb_ggenerator_free(gen);
        return st;
    }
    *out = gen;
    return SB_OK;
}

void sb_ggenerator_free(sb_ggenerator *gen)
{
    if (!gen)
        return;
    sb_engine_free(gen->engine);
    free(gen->grid);
    free(gen->puzzle);
    free(gen->order);
    free(gen->orbit_at);
    free(gen->orbit_cells);
    free(gen->ua_set);
    free(gen->ua_clues);
    free(gen->ua_parent);
    free(gen->ua_at);
    free(gen->twin_house);
    free(gen->twin);
    free(gen->twin_slot);
    free(gen);
}

void sb_ggenerator_stop(sb_ggenerator *gen, const volatile sig_atomic_t *stop)
{
    if (!gen)
        return;
    gen->stop = stop;
    /* The solver polls it too: one uniqueness check of a large sparse grid can take minutes. */
    sb_engine_stop(gen->engine, stop);
}

int sb_ggenerator_simd(sb_ggenerator *gen, int level)
{
    if (!gen)
        return SB_ERR_ARG;
    const int resolved = sb_simd_resolve(level);
    if (resolved < 0)
        return SB_ERR_SIMD;
    if (resolved == gen->level) /* the engine it has: the CLI asks at the default level too */
        return SB_OK;
    /* The engine table picks the row for the level (box16's kernel or the per-cell engine,
     * the 9x9 kernel of that level), as sb_engine_new does for a solve. */
    sb_options o;
    sb_options_default(&o);
    o.simd = level;
    sb_engine *e = NULL;
    const int st = sb_engine_new(gen->g, &o, &e);
    if (st != SB_OK)
        return st;
    sb_engine_stop(e, gen->stop);
    sb_engine_free(gen->engine);
    gen->engine = e;
    gen->level = resolved;
    return SB_OK;
}

const sb_geometry *sb_ggenerator_geometry(const sb_ggenerator *gen)
{
    return gen ? gen->g : NULL;
}

/* Fills gen->grid with a random full grid drawn from r (see the file comment).
 * @return SB_OK; SB_ERR_BUDGET after GEN_MAX_FILLS failed fills; SB_ERR_STOPPED; SB_ERR_NOMEM. */
static int fill(sb_ggenerator *gen, sb_rng *r)
{
    const int nc = gen->nc;
    for (int tries = 0; tries < GEN_MAX_FILLS; tries++) {
        if (gen_stopped(gen))
            return SB_ERR_STOPPED;
        memset(gen->puzzle, 0, (size_t)nc);
        random_perm(gen->order, nc, r);
        for (int i = 0; i < nc / 4 + 1; i++) { /* a quarter of the cells: varied, still easy */
            const int c = gen->order[i];
            int np;
            const uint16_t *peer = sb_geometry_peers(gen->g, c, &np);
            uint64_t used = 0;
            for (int k = 0; k < np; k++)
                if (gen->puzzle[peer[k]])
                    used |= UINT64_C(1) << (gen->puzzle[peer[k]] - 1);
            const int d = 1 + below(r, gen->n);
            if (!(used >> (d - 1) & 1))
                gen->puzzle[c] = (uint8_t)d;
        }
        sb_gresult res;
        sb_engine_budget(gen->engine, FILL_BUDGET);
        const int st = gen_solve(gen, 1, &res, gen->grid);
        sb_engine_budget(gen->engine, UINT64_MAX);
        if (st == SB_ERR_NOMEM || st == SB_ERR_STOPPED)
            return st;
        if (st == SB_OK && res.count == 1)
            return SB_OK;
    }
    return SB_ERR_BUDGET;
}

/* @return the root of cell c in the union-find p (with path halving). */
static int ua_root(int *p, int c)
{
    while (p[c] != c)
        c = p[c] = p[p[c]];
    return c;
}

/* @return the slot of ua_set holding the set of cell c (digit d) for the other digit o. */
static size_t ua_slot(int width, int c, int d, int o)
{
    return (size_t)c * (size_t)width + (size_t)(o - 1 - (o > d));
}

/* Finds gen->grid's unavoidable sets and sets each one's clues to its size (every cell a
 * clue). Two digits a and b: a house holds one a and one b, so swapping a and b keeps
 * it valid exactly when both its a and its b swap: the classes of the cells holding a or b,
 * linked house by house, are sets whose a and b can swap, and a puzzle with no clue in one of
 * them has a second solution. */
static void find_unavoidable(sb_ggenerator *gen)
{
    const int nc = gen->nc, n = gen->n, nh = sb_geometry_houses(gen->g);
    const uint8_t *grid = gen->grid;
    int *parent = gen->ua_parent, *set_of = parent + nc, *by_digit = set_of + nc;
    int start[SB_GEO_MAX_DIGITS + 2] = {0}, nsets = 1;
    gen->ua_clues[0] = INT32_MAX / 2; /* set 0: no set, never emptied */
    for (int c = 0; c < nc; c++)
        start[grid[c]]++;
    for (int d = 1; d <= n; d++)
        start[d] += start[d - 1]; /* start[d]: past the cells of digits 1..d */
    for (int c = nc - 1; c >= 0; c--)
        by_digit[--start[grid[c]]] = c; /* now start[d]: the first of digit d's cells */
    start[n + 1] = nc;
    for (int h = 0; h < nh; h++) {
        const uint16_t *cells = sb_geometry_house(gen->g, h);
        for (int i = 0; i < n; i++)
            gen->ua_at[(size_t)h * (size_t)n + grid[cells[i]] - 1] = cells[i];
    }
    for (int a = 1; a <= n; a++)
        for (int b = a + 1; b <= n; b++) {
            const int *cells[2] = {by_digit + start[a], by_digit + start[b]};
            const int count[2] = {start[a + 1] - start[a], start[b + 1] - start[b]};
            for (int k = 0; k < 2; k++)
                for (int i = 0; i < count[k]; i++)
                    parent[cells[k][i]] = cells[k][i], set_of[cells[k][i]] = -1;
            for (int h = 0; h < nh; h++) {
                const uint16_t *at = gen->ua_at + (size_t)h * (size_t)n;
                parent[ua_root(parent, at[a - 1])] = ua_root(parent, at[b - 1]);
            }
            for (int k = 0; k < 2; k++)
                for (int i = 0; i < count[k]; i++) {
                    const int c = cells[k][i], r = ua_root(parent, c);
                    if (set_of[r] < 0)
                        set_of[r] = nsets, gen->ua_clues[nsets++] = 0;
                    gen->ua_set[ua_slot(gen->ua_width, c, k ? b : a, k ? a : b)] = set_of[r];
                    gen->ua_clues[set_of[r]]++;
                }
        }
    /* Twin houses (find_twins): the cycles of h1's cells through the cell holding the digit
     * of each one's twin. */
    for (int t = 0; t < gen->ntwins; t++) {
        const uint16_t *h1 = sb_geometry_house(gen->g, gen->twin_house[t]);
        const uint16_t *twin = gen->twin + (size_t)t * (size_t)n;
        const uint8_t *slot = gen->twin_slot + (size_t)t * 2 * (size_t)n;
        int at[SB_GEO_MAX_DIGITS + 1], cycle[SB_GEO_MAX_DIGITS];
        for (int i = 0; i < n; i++)
            at[grid[h1[i]]] = i;
        uint64_t seen = 0;
        for (int i0 = 0; i0 < n; i0++) {
            int len = 0;
            for (int i = i0; !(seen >> i & 1); i = at[grid[twin[i]]]) {
                seen |= UINT64_C(1) << i;
                cycle[len++] = i;
            }
            const int id = len > 2 ? nsets++ : 0; /* two cells: a two-digit set */
            if (id)
                gen->ua_clues[id] = 2 * len;
            for (int j = 0; j < len; j++) {
                const int i = cycle[j], w = gen->ua_width, base = n - 1;
                gen->ua_set[(size_t)h1[i] * (size_t)w + (size_t)(base + slot[2 * i])] = id;
                gen->ua_set[(size_t)twin[i] * (size_t)w + (size_t)(base + slot[2 * i + 1])] = id;
            }
        }
    }
}

/* Blanks (on = 0) or restores (on = 1) the cells of orbit o in gen->puzzle and counts them
 * out of (into) their unavoidable sets. @return 1 when blanking left a set without a clue (the
 * puzzle has several solutions), else 0. */
static int set_orbit(sb_ggenerator *gen, int o, int on)
{
    const int step = on ? 1 : -1;
    int emptied = 0;
    for (int k = gen->orbit_at[o]; k < gen->orbit_at[o + 1]; k++) {
        const int c = gen->orbit_cells[k];
        gen->puzzle[c] = on ? gen->grid[c] : 0;
        if (!gen->ua_set)
            continue;
        const int *sets = gen->ua_set + (size_t)c * (size_t)gen->ua_width;
        for (int i = 0; i < gen->ua_width; i++)
            emptied |= (gen->ua_clues[sets[i]] += step) == 0;
    }
    return emptied;
}

/* Digs gen->grid (copied into gen->puzzle) down to a minimal puzzle, orbits in an order drawn
 * from r, but for the givens whose check ran out of guesses (*undecided of them; see the file
 * comment). bound (0: none) drops the candidate once its kept givens pass it.
 * @return SB_OK with *clues set; SB_GGEN_MISSED when dropped; SB_ERR_STOPPED; SB_ERR_NOMEM. */
static int dig(sb_ggenerator *gen, sb_rng *r, int bound, int *clues, int *undecided)
{
    *undecided = 0;
    memcpy(gen->puzzle, gen->grid, (size_t)gen->nc);
    if (gen->ua_set)
        find_unavoidable(gen);
    random_perm(gen->order, gen->norbits, r);
    sb_gresult res = {0};
    int kept = 0, st, hits = 0;
    for (int i = 0; i < gen->norbits; i++) {
        /* The solver reads the flag inside a check too (sb_ggenerator_stop). */
        if (gen_stopped(gen))
            return SB_ERR_STOPPED;
        const int o = gen->order[i], size = gen->orbit_at[o + 1] - gen->orbit_at[o];
        if (set_orbit(gen, o, 0)) {
            st = SB_OK, res.count = 2; /* a set without a clue: several solutions */
        } else if (hits < DIG_MAX_HITS) {
            /* The check takes the engine's fastest path (on 3x3 the 9x9 kernel); the fills
             * and the reported guesses keep sb_engine_each's. One cell up to 16 digits: a
             * search barred from the grid's digit there, which any second solution avoids,
             * finding none (sb_engine_solve_drop, to 1: 9x9's kernel, box16's and the
             * per-cell engine; the other pipelines count to 2). Its tree is smaller than a
             * count to 2, which does not depend on the search's order either, so the puzzles
             * are the same.
             * Above 16 digits the budget decides which givens stay, and the two searches
             * spend it differently: the count keeps those puzzles as they were. */
            sb_engine_budget(gen->engine, gen->dig_budget);
            st = SB_ERR_ARG;
            if (size == 1 && gen->dig_budget == DIG_BUDGET_SMALL) { /* no check runs out */
                const int c = gen->orbit_cells[gen->orbit_at[o]];
                st = sb_engine_solve_drop(gen->engine, gen->puzzle, c,
                                          UINT64_C(1) << (gen->grid[c] - 1), 1, &res);
                res.count = res.count ? 2 : 1; /* another solution, or the grid alone */
            }
            if (st == SB_ERR_ARG)
                st = sb_engine_solve(gen->engine, gen->puzzle, 2, &res, NULL);
            sb_engine_budget(gen->engine, UINT64_MAX);
            hits += st == SB_ERR_BUDGET;
        } else
            st = SB_ERR_BUDGET; /* too sparse to decide in time: the rest stays */
        if (st != SB_OK && st != SB_ERR_BUDGET)
            return st;
        if (st == SB_OK && res.count == 1)
            continue;
        set_orbit(gen, o, 1);
        *undecided += st == SB_ERR_BUDGET ? size : 0; /* kept: unique, perhaps not needed */
        /* Necessary for good: removing more givens only adds solutions. */
        if ((kept += size) > bound && bound)
            return SB_GGEN_MISSED;
    }
    *clues = kept;
    return SB_OK;
}

int sb_ggenerate(sb_ggenerator *gen, uint64_t index, uint8_t *puzzle, uint8_t *solution,
                 sb_ggenerated *info)
{
    if (!gen || !puzzle)
        return SB_ERR_ARG;
    const int nc = gen->nc;
    sb_rng r = {.state = gen->seed ^ (index * INDEX_MIX)};
    int st = SB_GGEN_MISSED, clues = 0, undecided = 0;
    uint64_t attempt = 0;
    while (st == SB_GGEN_MISSED && attempt < gen->opt.max_attempts) {
        attempt++;
        if ((st = fill(gen, &r)) != SB_OK)
            return st;
        /* The last candidate is dug to the end: a missed index still gets a proper puzzle. */
        st = dig(gen, &r, attempt < gen->opt.max_attempts ? gen->opt.max_clues : 0, &clues,
                 &undecided);
        if (st == SB_OK && gen->opt.max_clues && clues > gen->opt.max_clues)
            st = SB_GGEN_MISSED;
        if (st != SB_OK && st != SB_GGEN_MISSED)
            return st;
    }
    /* A fresh check gives the finished puzzle's own guess count. */
    sb_gresult res = {0};
    const int check = gen_solve(gen, 2, &res, NULL);
    if (check != SB_OK)
        return check;
    memcpy(puzzle, gen->puzzle, (size_t)nc);
    if (solution)
        memcpy(solution, gen->grid, (size_t)nc);
    if (info) {
        info->clues = clues;
        info->guesses = res.guesses;
        info->attempts = attempt;
        info->undecided = undecided;
    }
    return st;
}

/* ------------------------------------------------------------------------------------------ */
/* The augmenter                                                                              */
/* ------------------------------------------------------------------------------------------ */

/* A symmetry of a geometry that keeps every house a house, as drawn by draw_symmetry. */
typedef struct gsym {
    int kind;                     /* the sb_geometry_kind */
    int cols, k;                  /* printed columns; a cube's K */
    int rp[SB_GEO_MAX_DIGITS];    /* square grids: row i goes to row rp[i] ... */
    int cp[SB_GEO_MAX_DIGITS];    /* ... column j to column cp[j] ... */
    int tr;                       /* ... then transposed when set */
    int ax[3], pc[3][8];          /* cube: coordinate orders per axis, then an axis order */
} gsym;

/* A random order of n lines in groups of size k into p: the groups permuted, and the lines
 * within each group (the rows of bands, the columns of stacks). */
static void group_perm(int *p, int n, int k, sb_rng *r)
{
    int groups[SB_GEO_MAX_DIGITS], inner[SB_GEO_MAX_DIGITS];
    random_perm(groups, n / k, r);
    for (int g = 0; g < n / k; g++) {
        random_perm(inner, k, r);
        for (int i = 0; i < k; i++)
            p[g * k + i] = groups[g] * k + inner[i];
    }
}

/* Draws into s a random symmetry of a geometry of kind and layout l: bands, rows in bands,
 * stacks, columns in stacks and a transpose when the boxes are square (RxC); any rows,
 * columns and a transpose (latin); mirrors and a transpose (x:RxC, whose diagonals must stay
 * diagonals); coordinate orders per axis and an axis order (cube); none for a jigsaw or a
 * house list (they have no symmetry known from their kind). */
static void draw_symmetry(int kind, const sb_geometry_layout *l, sb_rng *r, gsym *s)
{
    s->kind = kind;
    s->cols = l->cols;
    s->tr = 0;
    if (kind == SB_GEO_CUBE) {
        s->k = l->rows;
        random_perm(s->ax, 3, r);
        for (int a = 0; a < 3; a++)
            random_perm(s->pc[a], s->k, r);
        return;
    }
    for (int i = 0; i < l->rows && i < SB_GEO_MAX_DIGITS; i++)
        s->rp[i] = s->cp[i] = i;
    if (kind == SB_GEO_BOXED) {
        group_perm(s->rp, l->rows, l->box_rows, r);
        group_perm(s->cp, l->cols, l->box_cols, r);
        s->tr = l->box_rows == l->box_cols && below(r, 2);
    } else if (kind == SB_GEO_LATIN) {
        random_perm(s->rp, l->rows, r);
        random_perm(s->cp, l->cols, r);
        s->tr = below(r, 2);
    } else if (kind == SB_GEO_X) {
        const int flip = below(r, 4);
        for (int i = 0; i < l->rows; i++) {
            s->rp[i] = flip & 1 ? l->rows - 1 - i : i;
            s->cp[i] = flip & 2 ? l->cols - 1 - i : i;
        }
        s->tr = l->box_rows == l->box_cols && below(r, 2);
    }
}

/* @return the cell that cell c goes to under s. */
static int sym_image(const gsym *s, int c)
{
    if (s->kind == SB_GEO_CUBE) {
        const int k = s->k, v[3] = {s->pc[0][c / (k * k)], s->pc[1][c / k % k], s->pc[2][c % k]};
        return k * k * v[s->ax[0]] + k * v[s->ax[1]] + v[s->ax[2]];
    }
    if (s->kind == SB_GEO_JIGSAW || s->kind == SB_GEO_HOUSES)
        return c;
    const int row = s->rp[c / s->cols], col = s->cp[c % s->cols];
    return s->tr ? col * s->cols + row : row * s->cols + col;
}

/* What sb_gaugment needs of a geometry (NULL: the 9x9 grid, with no object to ask). */
typedef struct gshape {
    int kind, nc, n;        /* kind, cells, digits */
    sb_geometry_layout l;   /* printing layout (rows and boxes) */
} gshape;

/* Fills *s for g (NULL: 9x9). */
static void shape_of(const sb_geometry *g, gshape *s)
{
    s->kind = sb_geometry_kind_of(g);
    s->nc = sb_geometry_cells(g);
    s->n = sb_geometry_digits(g);
    sb_geometry_layout_of(g, &s->l);
}

/* Writes in transformed by the transform of (seed, index) into out: digits relabelled, then
 * the symmetry applied (the draws in that order). Cells must be 0..N. */
static void augment_one(const gshape *sh, uint64_t seed, uint64_t index, const uint8_t *in,
                        uint8_t *out)
{
    sb_rng r = {.state = seed ^ (index * INDEX_MIX) ^ AUGMENT_SALT};
    int relabel[SB_GEO_MAX_DIGITS + 1];
    gsym s;
    random_perm(relabel + 1, sh->n, &r);
    relabel[0] = -1;
    draw_symmetry(sh->kind, &sh->l, &r, &s);
    for (int c = 0; c < sh->nc; c++)
        out[sym_image(&s, c)] = (uint8_t)(in[c] ? relabel[in[c]] + 1 : 0);
}

/* @return 1 when every one of the n cells is 0..max. */
static int cells_in_range(const uint8_t *cells, size_t n, int max)
{
    for (size_t i = 0; i < n; i++)
        if (cells[i] > max)
            return 0;
    return 1;
}

int sb_gaugment(const sb_geometry *g, uint64_t seed, uint64_t index, const uint8_t *in,
                uint8_t *out)
{
    if (!g)
        return SB_ERR_ARG;
    gshape sh;
    shape_of(g, &sh);
    const uintptr_t i0 = (uintptr_t)in, o0 = (uintptr_t)out, nc = (uintptr_t)sh.nc;
    const int overlap = in && out && i0 < o0 + nc && o0 < i0 + nc;
    if (!in || !out || overlap || !cells_in_range(in, (size_t)sh.nc, sh.n))
        return SB_ERR_ARG;
    augment_one(&sh, seed, index, in, out);
    return SB_OK;
}

/* ------------------------------------------------------------------------------------------ */
/* Batches                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* @return the team for n items: threads (0: OpenMP's default), at most n, at least 1. */
static int team_of(int threads, size_t n)
{
    const int t = threads > 0 ? threads : omp_get_max_threads();
    return (size_t)t > n ? (n ? (int)n : 1) : t;
}

int sb_ggenerate_batch(const sb_geometry *g, uint64_t seed, uint64_t first, size_t n,
                       int threads, uint8_t *puzzles, uint8_t *solutions, uint64_t *guesses,
                       const volatile sig_atomic_t *stop)
{
    sb_ggen_options opt;
    sb_ggen_options_default(&opt);
    opt.seed = seed;
    return sb_ggenerate_batch_opts(g, &opt, first, n, threads, puzzles, solutions, guesses,
                                   stop);
}

int sb_ggenerate_batch_opts(const sb_geometry *g, const sb_ggen_options *opt, uint64_t first,
                            size_t n, int threads, uint8_t *puzzles, uint8_t *solutions,
                            uint64_t *guesses, const volatile sig_atomic_t *stop)
{
    if ((!puzzles && n) || (n && first > UINT64_MAX - (uint64_t)(n - 1)))
        return SB_ERR_ARG;
    /* The generator made first checks the options and that the geometry has a full grid, and
     * serves thread 0. */
    sb_ggenerator *g0;
    int err = sb_ggenerator_new_opts(g, opt, &g0, NULL, 0);
    if (err != SB_OK)
        return err;
    const int team = team_of(threads, n);
    const int start = sb_threads_check(team, NULL, 0);
    if (start != SB_OK) {
        const int why = errno;
        sb_ggenerator_free(g0);
        errno = why;
        return start;
    }
    g = sb_ggenerator_geometry(g0); /* NULL was 3x3: every thread shares g0's */
    const size_t nc = (size_t)sb_geometry_cells(g);
    if (n > SIZE_MAX / nc) { /* n rows of nc bytes would wrap a size_t */
        sb_ggenerator_free(g0);
        return SB_ERR_ARG;
    }
    int stopped = 0, missed = 0;
#pragma omp parallel num_threads(team)
    {
        sb_ggenerator *gen = g0;
        if (omp_get_thread_num() != 0) {
            const int st = sb_ggenerator_new_opts(g, &g0->opt, &gen, NULL, 0);
            if (st != SB_OK) {
#pragma omp atomic write
                err = st;
            }
        }
        sb_ggenerator_stop(gen, stop);
        /* One index at a time: each is a whole generation (milliseconds to minutes). */
#pragma omp for schedule(dynamic, 1)
        for (size_t i = 0; i < n; i++) {
            sb_ggenerated info = {0};
            const int st = gen ? sb_ggenerate(gen, first + i, puzzles + i * nc,
                                              solutions ? solutions + i * nc : NULL, &info)
                               : SB_ERR_NOMEM;
            if (st == SB_ERR_STOPPED) {
#pragma omp atomic write
                stopped = 1;
            } else if (st == SB_ERR_BUDGET || st == SB_GGEN_MISSED) {
#pragma omp atomic write
                missed = 1;
            } else if (st != SB_OK) {
#pragma omp atomic write
                err = st;
            }
            if ((st == SB_OK || st == SB_GGEN_MISSED) && guesses)
                guesses[i] = info.guesses;
        }
        if (gen != g0)
            sb_ggenerator_free(gen);
    }
    sb_ggenerator_free(g0);
    if (err == SB_ERR_NOMEM)
        return err;
    return stopped ? SB_ERR_STOPPED : err != SB_OK ? err : missed ? SB_ERR_BUDGET : SB_OK;
}

int sb_gaugment_batch(const sb_geometry *g, const uint8_t *in, size_t n_in, uint64_t seed,
                      uint64_t first, size_t n, int threads, uint8_t *out,
                      const volatile sig_atomic_t *stop)
{
    if (!g)
        return SB_ERR_ARG;
    gshape sh;
    shape_of(g, &sh);
    const size_t nc = (size_t)sh.nc;
    if (n > SIZE_MAX / nc || n_in > SIZE_MAX / nc) /* the arrays' sizes would wrap */
        return SB_ERR_ARG;
    if (n && (!in || !n_in || !out || first > UINT64_MAX - (uint64_t)(n - 1) ||
              !cells_in_range(in, n_in * nc, sh.n)))
        return SB_ERR_ARG;
    const int team = team_of(threads, n);
    const int start = sb_threads_check(team, NULL, 0);
    if (start != SB_OK)
        return start;
    int stopped = 0;
#pragma omp parallel for num_threads(team) schedule(dynamic, 1)
    for (size_t lo = 0; lo < n; lo += AUG_RUN) {
        if (stop && *stop) {
#pragma omp atomic write
            stopped = 1;
            continue;
        }
        const size_t hi = n - lo < AUG_RUN ? n : lo + AUG_RUN;
        for (size_t i = lo; i < hi; i++) {
            const uint64_t index = first + i;
            augment_one(&sh, seed, index, in + (index % n_in) * nc, out + i * nc);
        }
    }
    return stopped ? SB_ERR_STOPPED : SB_OK;
}
