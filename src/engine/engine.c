/*
 * engine.c — one solver context for every geometry (sb_engine): the table of specialised
 * engines, and the one place that picks among them.
 *
 * sb_engine_new walks the rows (engine_table) in order and takes the first row whose match
 * accepts the (geometry, pipeline, SIMD level) asked for; the row's ops then serve every call, with no
 * further choice on the hot path. The rows wrap the engines the library already has:
 *   9x9       sb_solver (solver.c): the fused kernel of the level for "fast", the 9x9 generic
 *             engine (pipeline.c) for the other pipelines; enumeration on the general solver
 *             ("fast") or the generic pipeline on the 3x3 geometry, whose DFS order is the one
 *             `solve --all` has always written (the fused kernel has no per-solution hook)
 *   box16     the 16-digit whole-board kernel (box16/box16.c), its stamp chosen here
 *   general   the general solver's per-cell engine (geometry/general.c)
 *   pipeline  the generic pipelines on any geometry (geometry/gpipeline.c)
 *   plugin    a solver plug-in (sb_options.plugin; plugin.c), first: it is asked for by name
 */
#include <stdlib.h>
#include <string.h>

#include "box16/box16.h"
#include "search/gsearch.h"
#include "internal.h"

/* The 9x9 row hands rows of 81 cells to sb_solver as sb_grids, without copying them. */
_Static_assert(sizeof(sb_grid) == SB_CELLS, "an sb_grid is its 81 cells");
#include "sudokubench.h"

/* What a row's match looks at: the request, resolved. */
typedef struct engine_want {
    const sb_geometry *g; /* the geometry asked for */
    int nine;             /* 1: the 9x9 grid (sb_geometry_9x9 or the standard 3x3 geometry) */
    int fast;             /* 1: pipeline "fast" */
    int level;            /* the SIMD level, resolved */
    const sb_plugin *plugin; /* the plug-in asked for (NULL: none) */
} engine_want;

struct sb_engine {
    int row;                    /* index of the row chosen in engine_table (ROW_*) */
    const sb_geometry *g;       /* the caller's geometry (not owned) */
    const sb_geometry *gg;      /* the geometry the general engines run on: g (9x9
                                   enumeration: the boxed 3x3 geometry it is) */
    int ncells, n;              /* cells and digits */
    int fast;                   /* 1: pipeline "fast" */
    int nine9;                  /* 1: the 9x9 grid (NULL or the standard 3x3 geometry) */
    int level;                  /* the SIMD level, resolved */
    sb_options opt;             /* the caller's options, spec dropped */
    char *spec;                 /* the pipeline's registry name or custom spec (owned) */
    sb_spec_parsed parsed;      /* the spec, parsed once (sb_options_pipeline's, or here) */
    sb_solver *s9;              /* 9x9: the solver (its limit, budget and stop flag set per
                                   call: sb_solver_limits) */
    sb_result *many;            /* 9x9 solve_many: one block's results (SB_ENGINE_BLOCK) */
    sb_gsolver *gs;             /* general; 9x9 enumeration of "fast" */
    sb_gpipeline *gp;           /* pipeline; 9x9 enumeration of the other pipelines */
    sb_box16 *k16;              /* box16: the kernel */
    sb_box16_fn stamp;          /* box16: its search at the level */
    sb_glimit lim;              /* box16: budget, stop flag and poll interval */
    sb_plugin_geometry pg;      /* plugin: the grid as the plug-in sees it */
    void *pstate;               /* plugin: its state for this engine */
    uint64_t *drop_cand;        /* general: sb_engine_solve_drop's candidates (ncells),
                                   made at its first call */
};

/* The mask of every digit of e's geometry (bit d-1 = digit d). */
static uint64_t engine_digits(const sb_engine *e)
{
    return e->n == 64 ? UINT64_MAX : (UINT64_C(1) << e->n) - 1;
}

/* ---- 9x9: sb_solver, and the general engines on the 3x3 geometry for enumeration ---- */

/* @return 1 when g is the 9x9 grid: sb_geometry_9x9(), or a boxed 3x3 geometry whose houses
 * are the 9x9 API's in its order (rows, columns, boxes; sb_tables), so cells mean the same in
 * both. */
static int is_9x9(const sb_geometry *g)
{
    if (g == sb_geometry_9x9())
        return 1;
    if (sb_geometry_kind_of(g) != SB_GEO_BOXED || sb_geometry_cells(g) != SB_CELLS ||
        sb_geometry_digits(g) != SB_DIGITS || sb_geometry_houses(g) != SB_HOUSES)
        return 0;
    const sb_peer_tables *t = sb_tables();
    for (int h = 0; h < SB_HOUSES; h++) {
        const uint16_t *hc = sb_geometry_house(g, h);
        for (int i = 0; i < SB_DIGITS; i++)
            if (hc[i] != t->house_cells[h][i])
                return 0;
    }
    return 1;
}

/* Row 9x9: any pipeline on the 9x9 grid. */
static int match_nine(const engine_want *w)
{
    return w->nine;
}

/* Puzzles per sb_solve_many call: its paired kernel's block, so the pair policy sees the
 * blocks it would see given the whole array. */
enum { SB_ENGINE_BLOCK = 256 };

/* The rows' make, solve, many, cand and each: the ops of engine_ops below, on checked
 * arguments. */
static int make_nine(sb_engine *e)
{
    /* the block of solve_many's results, made here so that memory fails at creation */
    if (!(e->many = malloc(SB_ENGINE_BLOCK * sizeof *e->many)))
        return SB_ERR_NOMEM;
    return sb_solver_new_parsed(&e->s9, &e->opt, &e->parsed);
}

/* Copies a grid's 81 cells as 80 + 1, a size the compiler copies inline (81 makes a memcpy
 * call, a tenth of an easy puzzle's cost outside the search). */
static inline void copy81(uint8_t *to, const uint8_t *from)
{
    memcpy(to, from, SB_CELLS - 1);
    to[SB_CELLS - 1] = from[SB_CELLS - 1];
}

static int solve_nine(sb_engine *e, const uint8_t *cells, uint64_t limit, sb_gresult *res,
                      uint8_t *first)
{
    sb_result r;
    sb_solver_limits(e->s9, limit, e->opt.max_guesses, e->opt.stop);
    const int st = sb_solve(e->s9, (const sb_grid *)(const void *)cells, &r);
    res->count = r.count;
    res->guesses = r.guesses;
    if (first && r.count)
        copy81(first, r.solution.cell);
    return st;
}

static int many_nine(sb_engine *e, const uint8_t *cells, size_t n, uint64_t limit,
                     sb_gresult *res, uint8_t *first, int *status)
{
    sb_solver_limits(e->s9, limit, e->opt.max_guesses, e->opt.stop);
    const sb_grid *grid = (const sb_grid *)(const void *)cells;
    for (size_t lo = 0; lo < n; lo += SB_ENGINE_BLOCK) {
        const size_t k = n - lo < SB_ENGINE_BLOCK ? n - lo : SB_ENGINE_BLOCK;
        sb_solve_many(e->s9, grid + lo, k, e->many, status + lo);
        for (size_t j = 0; j < k; j++) {
            const sb_result *r = &e->many[j];
            res[lo + j] = (sb_gresult){r->count, r->guesses};
            if (first && r->count)
                copy81(first + (lo + j) * SB_CELLS, r->solution.cell);
        }
    }
    return SB_OK;
}

static int cand_nine(sb_engine *e, const uint64_t *cand, uint64_t limit, sb_gresult *res,
                     uint8_t *first)
{
    uint16_t c16[SB_CELLS];
    sb_result r;
    for (int c = 0; c < SB_CELLS; c++)
        c16[c] = (uint16_t)cand[c]; /* checked: no bit above digit 9 */
    sb_solver_limits(e->s9, limit, e->opt.max_guesses, e->opt.stop);
    const int st = sb_solve_candidates(e->s9, c16, &r);
    res->count = r.count;
    res->guesses = r.guesses;
    if (first && r.count)
        memcpy(first, r.solution.cell, SB_CELLS);
    return st;
}

/* The fused kernel's drop search (sb_solve_drop); SB_ERR_ARG on another pipeline. */
static int drop_nine(sb_engine *e, const uint8_t *cells, int cell, uint64_t drop,
                     uint64_t limit, sb_gresult *res)
{
    sb_grid g;
    sb_result r;
    memcpy(g.cell, cells, SB_CELLS);
    sb_solver_limits(e->s9, limit, e->opt.max_guesses, e->opt.stop);
    const int st = sb_solve_drop(e->s9, &g, cell, (uint16_t)drop, limit, &r);
    if (st == SB_ERR_ARG)
        return st;
    res->count = r.count;
    res->guesses = r.guesses;
    return st;
}

static int make_general(sb_engine *e);
static int make_pipeline(sb_engine *e);
/* The per-cell engine from candidates: the givens, the blanks' every digit, cell without
 * drop. Its load takes candidates as it takes givens, so this is its own search. */
static int drop_general(sb_engine *e, const uint8_t *cells, int cell, uint64_t drop,
                        uint64_t limit, sb_gresult *res)
{
    if (!e->drop_cand && !(e->drop_cand = malloc((size_t)e->ncells * sizeof *e->drop_cand)))
        return SB_ERR_NOMEM;
    const uint64_t all = engine_digits(e);
    for (int c = 0; c < e->ncells; c++)
        e->drop_cand[c] = cells[c] ? UINT64_C(1) << (cells[c] - 1) : all;
    e->drop_cand[cell] &= ~drop;
    return sb_gsolve_candidates(e->gs, e->drop_cand, limit, res, NULL);
}

static int each_general(sb_engine *e, const uint8_t *cells, uint64_t limit, sb_gsolution_fn fn,
                        void *user, sb_gresult *res);
static int each_pipeline(sb_engine *e, const uint8_t *cells, uint64_t limit, sb_gsolution_fn fn,
                         void *user, sb_gresult *res);
static int many_each(sb_engine *e, const uint8_t *cells, size_t n, uint64_t limit,
                     sb_gresult *res, uint8_t *first, int *status);

/* Enumeration runs the rows general ("fast") or pipeline on the boxed 3x3 geometry, made at the
 * first call (a batch of counts never pays for them). */
static int each_nine(sb_engine *e, const uint8_t *cells, uint64_t limit, sb_gsolution_fn fn,
                     void *user, sb_gresult *res)
{
    if (!e->gs && !e->gp) {
        const int st = (e->fast ? make_general : make_pipeline)(e);
        if (st != SB_OK)
            return st;
    }
    return (e->fast ? each_general : each_pipeline)(e, cells, limit, fn, user, res);
}

/* Hands e->opt's budget and stop flag to every engine e has made: the box16 kernel's limits
 * and the per-cell engines' setters (the 9x9 solver takes them at each call). */
static void engine_limits(sb_engine *e)
{
    e->lim.max_guesses = e->opt.max_guesses;
    e->lim.stop = e->opt.stop;
    if (e->gs) {
        sb_gsolver_budget(e->gs, e->opt.max_guesses);
        sb_gsolver_stop(e->gs, e->opt.stop);
    }
    if (e->gp) {
        sb_gpipeline_budget(e->gp, e->opt.max_guesses);
        sb_gpipeline_stop(e->gp, e->opt.stop);
    }
}

/* solve_many for rows without a batched path: one solve per puzzle, the stop flag read before
 * each, as sb_solve_many does. */
static int many_each(sb_engine *e, const uint8_t *cells, size_t n, uint64_t limit,
                     sb_gresult *res, uint8_t *first, int *status)
{
    const size_t C = (size_t)e->ncells;
    for (size_t i = 0; i < n; i++) {
        memset(&res[i], 0, sizeof res[i]); /* what an unstarted puzzle gets */
        status[i] = e->opt.stop && *e->opt.stop
                        ? SB_ERR_STOPPED
                        : sb_engine_solve(e, cells + i * C, limit, &res[i], first ? first + i * C : NULL);
    }
    return SB_OK;
}

/* ---- box16: the 16-digit whole-board kernel ---- */

/* Row box16: "fast" on a 16-digit boxed grid, at a level with vectors (scalar runs the
 * per-cell engine, the reference the kernel is tested against). */
static int match_box16(const engine_want *w)
{
    return w->fast && w->level != SB_SIMD_SCALAR && sb_box16_fits(w->g);
}

static int make_box16(sb_engine *e)
{
    if (sb_box16_new(e->g, &e->k16) != SB_OK || !e->k16)
        return SB_ERR_NOMEM;
    e->stamp = sb_box16_stamp(e->level);
    sb_glimit_init(&e->lim, sb_glimit_every_cells(e->ncells));
    engine_limits(e);
    return SB_OK;
}

/* The kernel from its root: the givens cells or (cells NULL) the pencilmarks in64, with the
 * digits drop barred from cell before the root settles (drop 0: none). */
static int run_box16(sb_engine *e, const uint8_t *cells, const uint64_t *in64, int cell,
                     uint64_t drop, uint64_t limit, sb_gsolution_fn fn, void *user,
                     sb_gresult *res, uint8_t *first)
{
    uint16_t root[256];
    sb_box16_cand(cells, in64, root);
    root[cell] &= (uint16_t)~drop;
    return e->stamp(e->k16, root, limit, fn, user, res, first, &e->lim);
}

static int solve_box16(sb_engine *e, const uint8_t *cells, uint64_t limit, sb_gresult *res,
                       uint8_t *first)
{
    return run_box16(e, cells, NULL, 0, 0, limit, NULL, NULL, res, first);
}

static int each_box16(sb_engine *e, const uint8_t *cells, uint64_t limit, sb_gsolution_fn fn,
                      void *user, sb_gresult *res)
{
    return run_box16(e, cells, NULL, 0, 0, limit, fn, user, res, NULL);
}

/* The drop enters the kernel's root, as the 9x9 kernel's does. */
static int drop_box16(sb_engine *e, const uint8_t *cells, int cell, uint64_t drop,
                      uint64_t limit, sb_gresult *res)
{
    return run_box16(e, cells, NULL, cell, drop, limit, NULL, NULL, res, NULL);
}

/* Pencil marks load as the kernel's root as they are: the fixpoint of the rules is unique,
 * so the root, the tree and the counts and guesses are the per-cell engine's. */
static int cand_box16(sb_engine *e, const uint64_t *cand, uint64_t limit, sb_gresult *res,
                      uint8_t *first)
{
    return run_box16(e, NULL, cand, 0, 0, limit, NULL, NULL, res, first);
}

/* ---- general and pipeline: the per-cell engines ---- */

/* Row general: "fast" on any other geometry. */
static int match_general(const engine_want *w)
{
    return w->fast;
}

/* Row pipeline: every other request (a pipeline other than "fast" on a geometry not 9x9). */
static int match_pipeline(const engine_want *w)
{
    (void)w;
    return 1;
}

/* Makes the general solver's per-cell engine at the level. */
static int new_general(sb_engine *e)
{
    const int st = sb_gsolver_new_cells(e->gg, &e->gs);
    return st == SB_OK ? sb_gsolver_simd(e->gs, e->level) : st;
}

/* Makes the generic pipeline of the parsed spec; for 9x9 enumeration (on the 3x3 geometry,
 * which has no fused kernel) "fast+T" runs its generic plan (fast's order, then T). Other
 * geometries refuse "fast+T": it names the 9x9 kernel. */
static int new_pipeline(sb_engine *e)
{
    if (e->parsed.tech && !is_9x9(e->gg))
        return SB_ERR_PIPELINE;
    return sb_gpipeline_new_parsed(e->gg, &e->opt, &e->parsed, &e->gp);
}

static int make_general(sb_engine *e)
{
    const int st = new_general(e);
    if (st == SB_OK)
        engine_limits(e);
    return st;
}

static int solve_general(sb_engine *e, const uint8_t *cells, uint64_t limit, sb_gresult *res,
                         uint8_t *first)
{
    return sb_gsolve(e->gs, cells, limit, res, first);
}

static int cand_general(sb_engine *e, const uint64_t *cand, uint64_t limit, sb_gresult *res,
                        uint8_t *first)
{
    return sb_gsolve_candidates(e->gs, cand, limit, res, first);
}

static int each_general(sb_engine *e, const uint8_t *cells, uint64_t limit, sb_gsolution_fn fn,
                        void *user, sb_gresult *res)
{
    return sb_gsolve_each(e->gs, cells, limit, fn, user, res);
}

static int make_pipeline(sb_engine *e)
{
    const int st = new_pipeline(e);
    if (st == SB_OK)
        engine_limits(e);
    return st;
}

static int solve_pipeline(sb_engine *e, const uint8_t *cells, uint64_t limit, sb_gresult *res,
                          uint8_t *first)
{
    return sb_gpipeline_solve(e->gp, cells, limit, res, first);
}

static int cand_pipeline(sb_engine *e, const uint64_t *cand, uint64_t limit, sb_gresult *res,
                         uint8_t *first)
{
    return sb_gpipeline_solve_candidates(e->gp, cand, limit, res, first);
}

static int each_pipeline(sb_engine *e, const uint8_t *cells, uint64_t limit, sb_gsolution_fn fn,
                         void *user, sb_gresult *res)
{
    return sb_gpipeline_each(e->gp, cells, limit, fn, user, res);
}

/* ---- plugin: a solver plug-in (plugin.c) ---- */

/* Row plugin: whatever the request, when it names a plug-in. */
static int match_plugin(const engine_want *w)
{
    return w->plugin != NULL;
}

static int make_plugin(sb_engine *e)
{
    const sb_plugin *p = e->opt.plugin;
    if (!sb_plugin_accepts(p, e->nine9 ? sb_geometry_9x9() : e->g))
        return SB_ERR_PLUGIN;
    sb_plugin_geometry_of(p, e->nine9 ? NULL : e->g, &e->pg);
    e->pstate = sb_plugin_state_new(p, &e->pg);
    return e->pstate ? SB_OK : SB_ERR_PLUGIN;
}

static int solve_plugin(sb_engine *e, const uint8_t *cells, uint64_t limit, sb_gresult *res,
                        uint8_t *first)
{
    return sb_plugin_solve(e->opt.plugin, e->pstate, cells, limit, &e->opt, first, res);
}

/* A plug-in takes givens (the ABI has no candidates). */
static int cand_plugin(sb_engine *e, const uint64_t *cand, uint64_t limit, sb_gresult *res,
                       uint8_t *first)
{
    (void)e, (void)cand, (void)limit, (void)res, (void)first;
    return SB_ERR_ARG;
}

/* A plug-in counts; it does not list its solutions (the ABI has no callback). */
static int each_plugin(sb_engine *e, const uint8_t *cells, uint64_t limit, sb_gsolution_fn fn,
                       void *user, sb_gresult *res)
{
    (void)e, (void)cells, (void)limit, (void)fn, (void)user, (void)res;
    return SB_ERR_ARG;
}

/* ---- the table ---- */

/* The rows, in match order: the first whose match accepts the request serves it. */
enum { ROW_PLUGIN, ROW_NINE, ROW_BOX16, ROW_GENERAL, ROW_PIPELINE, ROW_COUNT };

/* What sb_engines lists, one entry per row (indexed by the rows above, so it cannot fall
 * out of step with the operations below). */
static const sb_engine_info engine_info[ROW_COUNT] = {
    [ROW_PLUGIN] = {"plugin", "a solver plug-in (sb_options.plugin) on any geometry it accepts: "
                              "its solve per puzzle, every answer checked against the ABI's "
                              "contract"},
    [ROW_NINE] = {"9x9", "the 9x9 grid, any pipeline: sb_solver (\"fast\": the fused kernel of "
                         "the SIMD level, else the 9x9 generic engine); each enumerates on the "
                         "general solver (\"fast\") or the generic pipeline on the 3x3 geometry"},
    [ROW_BOX16] = {"box16", "\"fast\" on a 16-digit boxed grid (4x4, 2x8, 8x2) above scalar: "
                            "the whole-board kernel, AVX2 stamp for avx2/avx512, 128-bit "
                            "otherwise"},
    [ROW_GENERAL] = {"general", "\"fast\" on any other geometry (or box16's at scalar): the "
                                "general solver, per cell"},
    [ROW_PIPELINE] = {"pipeline", "any other pipeline or custom spec on a geometry other than "
                                  "9x9: the generic pipeline"},
};

/* A row's operations (the rows' state lives in sb_engine). */
typedef struct engine_ops {
    int (*match)(const engine_want *w); /* 1 when the row serves the request */
    int (*make)(sb_engine *e);          /* makes its state; SB_OK or an error */
    int (*solve)(sb_engine *e, const uint8_t *cells, uint64_t limit, sb_gresult *res,
                 uint8_t *first);       /* sb_engine_solve on checked arguments */
    int (*many)(sb_engine *e, const uint8_t *cells, size_t n, uint64_t limit, sb_gresult *res,
                uint8_t *first, int *status); /* sb_engine_solve_many on checked arguments
                                                 (many_each where the row has no batched
                                                 path) */
    int (*cand)(sb_engine *e, const uint64_t *cand, uint64_t limit, sb_gresult *res,
                uint8_t *first);       /* sb_engine_solve_candidates on checked arguments */
    int (*each)(sb_engine *e, const uint8_t *cells, uint64_t limit, sb_gsolution_fn fn,
                void *user, sb_gresult *res); /* sb_engine_each on checked arguments */
    int (*drop)(sb_engine *e, const uint8_t *cells, int cell, uint64_t drop, uint64_t limit,
                sb_gresult *res); /* sb_engine_solve_drop on checked arguments, or NULL
                                     where the row has no search that takes a drop */
} engine_ops;

static const engine_ops engine_table[ROW_COUNT] = {
    [ROW_PLUGIN] = {match_plugin, make_plugin, solve_plugin, many_each, cand_plugin,
                    each_plugin, NULL},
    [ROW_NINE] = {match_nine, make_nine, solve_nine, many_nine, cand_nine, each_nine,
                  drop_nine},
    [ROW_BOX16] = {match_box16, make_box16, solve_box16, many_each, cand_box16, each_box16,
                   drop_box16},
    [ROW_GENERAL] = {match_general, make_general, solve_general, many_each, cand_general,
                     each_general, drop_general},
    [ROW_PIPELINE] = {match_pipeline, make_pipeline, solve_pipeline, many_each, cand_pipeline,
                      each_pipeline, NULL},
};
#define ENGINE_COUNT ((size_t)ROW_COUNT)

const sb_engine_info *sb_engines(size_t *count)
{
    if (count)
        *count = ENGINE_COUNT;
    return engine_info;
}

void sb_engine_free(sb_engine *e)
{
    if (!e)
        return;
    sb_solver_free(e->s9);
    sb_gsolver_free(e->gs);
    sb_gpipeline_free(e->gp);
    sb_box16_free(e->k16);
    free(e->many);
    free(e->drop_cand);
    if (e->pstate)
        sb_plugin_state_free(e->opt.plugin, e->pstate);
    free(e->spec);
    free(e);
}

int sb_engine_new(const sb_geometry *g, const sb_options *opt, sb_engine **out)
{
    if (!out)
        return SB_ERR_ARG;
    *out = NULL;
    if (!g || !opt)
        return SB_ERR_ARG;
    size_t np;
    const sb_pipeline_info *reg = sb_pipelines(&np);
    const char *name = opt->spec;
    if (opt->pipeline != SB_PIPELINE_CUSTOM) {
        if (opt->pipeline < 0 || (size_t)opt->pipeline >= np)
            return SB_ERR_PIPELINE;
        name = reg[opt->pipeline].name;
    }
    engine_want w = {.g = g, .nine = is_9x9(g), .fast = name && !strcmp(name, "fast"),
                     .plugin = opt->plugin};
    /* A plug-in row ignores the pipeline; its name is the row's. A technique plug-in is a
     * step of a pipeline (opt->techniques), never a row. */
    if (w.plugin && sb_plugin_is_technique(w.plugin))
        return SB_ERR_ARG;
    /* The spec parsed once: sb_options_pipeline's parse when it made opt's pipeline, else
     * here; every row and every engine made from these options runs from it. */
    const sb_spec_parsed *pp = sb_options_parsed(opt);
    sb_spec_parsed parsed;
    if (w.plugin)
        name = sb_plugin_name(w.plugin);
    else if (!name)
        return SB_ERR_PIPELINE;
    else if (!pp) {
        const int ri = opt->pipeline == SB_PIPELINE_CUSTOM ? sb_pipeline_find(name)
                                                            : opt->pipeline; /* a name as spec */
        if (sb_spec_parse(opt, ri >= 0 ? reg[ri].spec : name, &parsed, NULL, 0) != SB_OK)
            return SB_ERR_PIPELINE;
    }
    /* The geometry engines search depth-first only; 9x9 also breadth-first (sb_solver). */
    if (opt->search != SB_SEARCH_DFS && !(opt->search == SB_SEARCH_BFS && w.nine && !w.plugin))
        return SB_ERR_ARG;
    /* Every row checks the level, even where it runs portable C (the pipelines): a level this
     * CPU lacks is the caller's error, as sb_solver_new says for 9x9. */
    w.level = sb_simd_resolve(opt->simd);
    if (w.level < 0)
        return SB_ERR_SIMD;
    size_t row = 0;
    while (!engine_table[row].match(&w)) /* the last row matches everything */
        row++;
    sb_engine *e = calloc(1, sizeof *e);
    if (!e)
        return SB_ERR_NOMEM;
    e->row = (int)row;
    e->g = g;
    e->gg = g; /* 9x9: enumeration runs on it when it is the 3x3 geometry */
    e->nine9 = w.nine;
    e->ncells = w.nine ? SB_CELLS : sb_geometry_cells(g);
    e->n = w.nine ? SB_DIGITS : sb_geometry_digits(g);
    e->fast = w.fast;
    e->level = w.level;
    e->opt = *opt;
    e->opt.spec = NULL;
    if (!w.plugin)
        e->parsed = pp ? *pp : parsed;
    e->spec = strdup(name);
    const int st = e->spec ? engine_table[row].make(e) : SB_ERR_NOMEM;
    if (st != SB_OK) {
        sb_engine_free(e);
        return st;
    }
    *out = e;
    return SB_OK;
}

void sb_engine_budget(sb_engine *e, uint64_t max_guesses)
{
    if (!e)
        return;
    e->opt.max_guesses = max_guesses;
    engine_limits(e);
}

void sb_engine_stop(sb_engine *e, const volatile sig_atomic_t *stop)
{
    if (!e)
        return;
    e->opt.stop = stop;
    engine_limits(e);
}

const char *sb_engine_name(const sb_engine *e)
{
    return e ? engine_info[e->row].name : NULL;
}

/* Checks the arguments of a solve and zeroes *res. @return SB_OK or SB_ERR_ARG. */
static int check(sb_engine *e, const uint8_t *cells, sb_gresult *res)
{
    if (!e || !cells || !res)
        return SB_ERR_ARG;
    memset(res, 0, sizeof *res);
    uint8_t over = 0;
    for (int c = 0; c < e->ncells; c++)
        over |= cells[c] > e->n;
    return over ? SB_ERR_ARG : SB_OK;
}

int sb_engine_solve(sb_engine *e, const uint8_t *cells, uint64_t limit, sb_gresult *res,
                    uint8_t *first)
{
    const int st = check(e, cells, res);
    return st != SB_OK ? st : engine_table[e->row].solve(e, cells, limit, res, first);
}

int sb_engine_solve_many(sb_engine *e, const uint8_t *cells, size_t n, uint64_t limit,
                         sb_gresult *res, uint8_t *first, int *status)
{
    if (!e || (n && (!cells || !res || !status)) || n > SIZE_MAX / SB_GEO_MAX_CELLS)
        return SB_ERR_ARG;
    return engine_table[e->row].many(e, cells, n, limit, res, first, status);
}

int sb_engine_solve_candidates(sb_engine *e, const uint64_t *cand, uint64_t limit,
                               sb_gresult *res, uint8_t *first)
{
    if (!e || !cand || !res)
        return SB_ERR_ARG;
    memset(res, 0, sizeof *res);
    const uint64_t all = engine_digits(e);
    uint64_t over = 0;
    for (int c = 0; c < e->ncells; c++)
        over |= cand[c] & ~all;
    return over ? SB_ERR_ARG : engine_table[e->row].cand(e, cand, limit, res, first);
}

int sb_engine_solve_drop(sb_engine *e, const uint8_t *cells, int cell, uint64_t drop,
                         uint64_t limit, sb_gresult *res)
{
    if (!e || !engine_table[e->row].drop || cell < 0 || cell >= e->ncells)
        return SB_ERR_ARG; /* first: a caller falls back to a count where there is no drop */
    const uint64_t all = engine_digits(e);
    const int st = check(e, cells, res);
    return st != SB_OK || (drop & ~all) ? SB_ERR_ARG
                                        : engine_table[e->row].drop(e, cells, cell, drop, limit,
                                                                    res);
}

int sb_engine_each(sb_engine *e, const uint8_t *cells, uint64_t limit, sb_gsolution_fn fn,
                   void *user, sb_gresult *res)
{
    const int st = fn ? check(e, cells, res) : SB_ERR_ARG;
    return st != SB_OK ? st : engine_table[e->row].each(e, cells, limit, fn, user, res);
}

unsigned sb_engine_skipped(const sb_engine *e)
{
    /* 9x9 and "fast" skip nothing: the 9x9 boxes meet its lines, and the general solver runs
     * locked candidates wherever two houses meet. */
    return e && e->gp ? sb_gpipeline_skipped(e->gp) : 0;
}

void sb_engine_counts(const sb_engine *e, sb_technique_counts out[SB_TECH_COUNT])
{
    sb_technique_counts c[SB_TECH_COUNT];
    if (!e || !out)
        return;
    memset(out, 0, SB_TECH_COUNT * sizeof *out);
    if (e->s9) {
        sb_solver_counts(e->s9, c);
        sb_counts_add(out, c, SB_TECH_COUNT);
    }
    if (e->gp) {
        sb_gpipeline_counts(e->gp, c);
        sb_counts_add(out, c, SB_TECH_COUNT);
    }
}

int sb_engine_plugin_counts(const sb_engine *e, sb_technique_counts out[SB_TECH_PLUGINS])
{
    sb_technique_counts c[SB_TECH_PLUGINS];
    if (!e || !out)
        return 0;
    const int n = e->opt.ntechniques < SB_TECH_PLUGINS ? (int)e->opt.ntechniques
                                                        : SB_TECH_PLUGINS;
    memset(out, 0, (size_t)n * sizeof *out);
    if (e->s9)
        sb_counts_add(out, c, sb_solver_plugin_counts(e->s9, c));
    if (e->gp)
        sb_counts_add(out, c, sb_gpipeline_plugin_counts(e->gp, c));
    return n;
}

uint64_t sb_engine_paired(const sb_engine *e)
{
    return e ? sb_solver_paired(e->s9) : 0;
}

const char *sb_engine_plugin_why(const sb_engine *e)
{
    const sb_tech_ext *x = sb_engine_ext((sb_engine *)(uintptr_t)e);
    return x && x->fault ? x->why : NULL;
}

sb_tech_ext *sb_engine_ext(sb_engine *e)
{
    return !e ? NULL : e->s9 ? sb_solver_ext(e->s9) : e->gp ? sb_gpipeline_ext(e->gp) : NULL;
}

void sb_engine_counts_reset(sb_engine *e)
{
    if (!e)
        return;
    if (e->s9)
        sb_solver_counts_reset(e->s9);
    if (e->gp)
        sb_gpipeline_counts_reset(e->gp);
}
