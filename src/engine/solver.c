/*
 * solver.c — solver contexts and the kernel dispatch table. The pipeline registry and the spec
 * parser are pipeline.c's (this file calls them; they call nothing here).
 *
 * A solver context owns its search stack (2 * SB_STACK_DEPTH boards, 64-byte aligned), its BFS
 * frontier, its technique counters and the kernel or plan chosen for it, so threads never
 * share mutable state.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"


/* One row of the dispatch table: the fast kernel stamped for one instruction set. */
typedef struct kernel_entry {
    sb_dfs_fn dfs;   /* depth-first entry */
    sb_bfs_fn bfs;   /* breadth-first entry */
    sb_pair_fn pair; /* depth-first over many puzzles two at a time, or NULL (sb_solve_many) */
    sb_tdfs_fn tdfs; /* "fast+T": depth-first with techniques (kernel_tech.h) */
    sb_tbfs_fn tbfs; /* "fast+T": breadth-first with techniques */
} kernel_entry;

/* The scalar level's fused kernel: where the architecture's baseline has 128-bit vectors
 * (SSE2 on x86-64, NEON on aarch64) the band kernel stamped for it (kernel_base.c), 1.7x fewer
 * instructions than the cell-major reference; elsewhere the reference (kernel_scalar.c), which
 * the band kernel lowered to integer words did not beat (docs/performance.md). */
#if defined(__SSE2__) || defined(__ARM_NEON)
#define SCALAR_DFS sb_kernel_dfs_base
#define SCALAR_BFS sb_kernel_bfs_base
#define SCALAR_TDFS sb_tkernel_dfs_base /* fast+T: the same kernel with techniques */
#define SCALAR_TBFS sb_tkernel_bfs_base
#else
#define SCALAR_DFS sb_kernel_dfs_scalar
#define SCALAR_BFS sb_kernel_bfs_scalar
#define SCALAR_TDFS sb_tkernel_dfs_scalar
#define SCALAR_TBFS sb_tkernel_bfs_scalar
#endif

/* The dispatch table, indexed by sb_simd level. */
static const kernel_entry kernel_table[SB_SIMD_LEVELS] = {
    [SB_SIMD_SCALAR] = {SCALAR_DFS, SCALAR_BFS, NULL, SCALAR_TDFS, SCALAR_TBFS},
    [SB_SIMD_SSE4] = {sb_kernel_dfs_sse4, sb_kernel_bfs_sse4, NULL, sb_tkernel_dfs_sse4,
                      sb_tkernel_bfs_sse4},
    [SB_SIMD_AVX2] = {sb_kernel_dfs_avx2, sb_kernel_bfs_avx2, sb_kernel_pair_avx2,
                      sb_tkernel_dfs_avx2, sb_tkernel_bfs_avx2},
    [SB_SIMD_AVX512] = {sb_kernel_dfs_avx512, sb_kernel_bfs_avx512, NULL, sb_tkernel_dfs_avx512,
                        sb_tkernel_bfs_avx512},
    [SB_SIMD_NEON] = {sb_kernel_dfs_neon, sb_kernel_bfs_neon, NULL, sb_tkernel_dfs_neon,
                      sb_tkernel_bfs_neon},
    [SB_SIMD_AVX512BW] = {sb_kernel_dfs_avx512bw, sb_kernel_bfs_avx512bw, NULL,
                          sb_tkernel_dfs_avx512bw, sb_tkernel_bfs_avx512bw},
};

/* One search of a solver: from the givens of puzzle, or from the candidate masks marks (the
 * generic plan's searches only), with the budget, stop flag and result in run. @return its
 * status. */
typedef int (*search_fn)(sb_solver *s, const sb_grid *puzzle, const uint16_t *marks,
                         sb_search_run *run);

struct sb_solver {
    sb_options opt;                              /* its options, simd resolved, spec dropped */
    search_fn givens;                            /* the search of a puzzle's givens and */
    search_fn marks;                             /* of candidate masks: chosen at creation from
                                                    the pipeline and the search mode, so a
                                                    solve dispatches once, through these */
    sb_pair_fn pairs;                            /* the paired kernel when the solver runs
                                                    "fast" depth-first on a level that has one,
                                                    else NULL (sb_solve_many) */
    sb_fast_tech ft;                             /* its techniques (counts: this context's) */
    kernel_entry kernel;                         /* kernel_table[opt.simd] */
    sb_technique_counts *plan_counts;            /* where the generic plan counts: counts, or
                                                    scratch for "fast" (which keeps none, even
                                                    when marks run it on the plan) */
    sb_technique_counts scratch[SB_TECH_SLOTS];
    sb_plan plan;                                /* the generic pipeline; for "fast",
                                                    SB_FAST_GENERIC (candidate solves: the fused
                                                    kernel loads givens only) */
    sb_board *stack;                             /* 2 * SB_STACK_DEPTH boards, 64-byte aligned
                                                    (the second half for a paired search) */
    sb_board *ring;                              /* BFS frontier, allocated on first use */
    size_t ring_len;                             /* boards in ring */
    sb_technique_counts counts[SB_TECH_SLOTS];   /* technique work since made or reset: the
                                                    built-ins, then the technique plug-ins */
    sb_tech_ext *ext;                            /* the technique plug-ins' states, or NULL */
    uint64_t paired;                             /* puzzles handed to the paired kernel */
};

void sb_options_default(sb_options *opt)
{
    if (!opt)
        return;
    memset(opt, 0, sizeof *opt);
    opt->limit = 2;
    opt->pipeline = 0;
    opt->spec = NULL;
    opt->simd = SB_SIMD_AUTO;
    opt->search = SB_SEARCH_DFS;
    opt->bfs_cap = SB_BFS_CAP;
    opt->max_guesses = UINT64_MAX;
    opt->stop = NULL;
    opt->pair = SB_PAIR_AUTO;
}

static const char *const pair_names[] = {"auto", "on", "off"};

const char *sb_pair_name(int policy)
{
    return policy >= 0 && policy < 3 ? pair_names[policy] : "?";
}

int sb_pair_resolve(int policy)
{
    if (policy < 0 || policy >= 3)
        return SB_ERR_ARG;
    const char *env = policy == SB_PAIR_AUTO ? getenv("SUDOKUBENCH_PAIR") : NULL;
    if (!env || !*env)
        return policy;
    for (int p = 0; p < 3; p++)
        if (!strcmp(env, pair_names[p]))
            return p;
    return SB_ERR_ARG;
}

int sb_options_pipeline(sb_options *opt, const char *name_or_spec)
{
    if (!opt || !name_or_spec)
        return SB_ERR_ARG;
    size_t np;
    const int p = sb_pipeline_find(name_or_spec);
    sb_spec_parsed parsed;
    if (sb_spec_parse(opt, p >= 0 ? sb_pipelines(&np)[p].spec : name_or_spec, &parsed, NULL, 0) !=
        SB_OK)
        return SB_ERR_PIPELINE;
    opt->pipeline = p >= 0 ? p : SB_PIPELINE_CUSTOM;
    opt->spec = p >= 0 ? NULL : name_or_spec;
    /* the one parse of a run: every engine and solver made from opt (or a copy) reuses it */
    parsed.pipeline = opt->pipeline;
    parsed.spec = opt->spec;
    parsed.techniques = opt->techniques;
    parsed.ntechniques = opt->ntechniques;
    memcpy(opt->parsed, &parsed, sizeof parsed);
    return SB_OK;
}

sb_verdict sb_count_verdict(uint64_t count)
{
    return count == 0 ? SB_UNSOLVABLE : count == 1 ? SB_SOLVED : SB_MULTIPLE;
}

sb_verdict sb_result_verdict(const sb_result *res)
{
    return res ? sb_count_verdict(res->count) : SB_UNSOLVABLE;
}

int sb_solver_new(sb_solver **out, const sb_options *opt)
{
    if (!out || !opt)
        return SB_ERR_ARG;
    return sb_solver_new_parsed(out, opt, sb_options_parsed(opt));
}

/* The six searches a solver may run: the fused kernel, the kernel with techniques ("fast+T")
 * and the generic plan, each depth- or breadth-first. The kernels load givens only. */
static int fused_dfs(sb_solver *s, const sb_grid *puzzle, const uint16_t *marks,
                     sb_search_run *run)
{
    (void)marks;
    s->kernel.dfs(s->stack, puzzle, s->opt.limit, run);
    return run->status;
}

static int fused_bfs(sb_solver *s, const sb_grid *puzzle, const uint16_t *marks,
                     sb_search_run *run)
{
    (void)marks;
    return s->kernel.bfs(&s->ring, &s->ring_len, s->opt.bfs_cap, puzzle, s->opt.limit, run);
}

static int tech_dfs(sb_solver *s, const sb_grid *puzzle, const uint16_t *marks,
                    sb_search_run *run)
{
    (void)marks;
    s->kernel.tdfs(s->stack, puzzle, s->opt.limit, run, &s->ft);
    return run->status;
}

static int tech_bfs(sb_solver *s, const sb_grid *puzzle, const uint16_t *marks,
                    sb_search_run *run)
{
    (void)marks;
    return s->kernel.tbfs(&s->ring, &s->ring_len, s->opt.bfs_cap, puzzle, s->opt.limit, run,
                          &s->ft);
}

static int plan_dfs(sb_solver *s, const sb_grid *puzzle, const uint16_t *marks,
                    sb_search_run *run)
{
    sb_generic_dfs(&s->plan, s->plan_counts, s->stack, puzzle, marks, s->opt.limit, run);
    return run->status;
}

static int plan_bfs(sb_solver *s, const sb_grid *puzzle, const uint16_t *marks,
                    sb_search_run *run)
{
    return sb_generic_bfs(&s->plan, s->plan_counts, &s->ring, &s->ring_len, s->opt.bfs_cap,
                          puzzle, marks, s->opt.limit, run);
}

/* The searches by [search mode][fused, fast+T, plan]. */
static const search_fn searches[2][3] = {
    [SB_SEARCH_DFS] = {fused_dfs, tech_dfs, plan_dfs},
    [SB_SEARCH_BFS] = {fused_bfs, tech_bfs, plan_bfs},
};

int sb_solver_new_parsed(sb_solver **out, const sb_options *opt, const sb_spec_parsed *pp)
{
    *out = NULL;
    if (opt->plugin) /* plug-ins are engine rows (sb_engine_new) */
        return SB_ERR_ARG;
    sb_spec_parsed own;
    if (!pp) { /* options not made by sb_options_pipeline: parse their spec here */
        size_t npipelines;
        const sb_pipeline_info *pipelines = sb_pipelines(&npipelines);
        const char *spec;
        if (opt->pipeline == SB_PIPELINE_CUSTOM)
            spec = opt->spec;
        else if (opt->pipeline >= 0 && (size_t)opt->pipeline < npipelines)
            spec = pipelines[opt->pipeline].spec;
        else
            return SB_ERR_PIPELINE;
        if (!spec || sb_spec_parse(opt, spec, &own, NULL, 0) != SB_OK)
            return SB_ERR_PIPELINE;
        pp = &own;
    }
    const int tech = pp->tech, fast = pp->fast;
    sb_fast_tech ft = {0};
    ft.nsteps = pp->ft_nsteps;
    memcpy(ft.steps, pp->ft_steps, sizeof ft.steps);
    sb_plan plan; /* the generic plan; candidate solves of fast+T: the kernel's, then T */
    sb_spec_plan(pp, &plan);
    if (opt->search != SB_SEARCH_DFS && opt->search != SB_SEARCH_BFS)
        return SB_ERR_ARG;
    const int pair = sb_pair_resolve(opt->pair);
    if (pair < 0)
        return SB_ERR_ARG;
    const int level = sb_simd_resolve(opt->simd);
    if (level < 0)
        return SB_ERR_SIMD;
    sb_solver *s = calloc(1, sizeof *s);
    if (!s)
        return SB_ERR_NOMEM;
    s->stack = aligned_alloc(64, 2 * SB_STACK_DEPTH * sizeof(sb_board));
    const int est = s->stack ? sb_tech_ext_new(opt->techniques, opt->ntechniques, NULL, &s->ext)
                             : SB_ERR_NOMEM;
    if (est != SB_OK) {
        free(s->stack);
        free(s);
        return est;
    }
    s->opt = *opt;
    s->opt.simd = level;
    s->opt.pair = pair;
    s->opt.spec = NULL; /* the plan holds what it said */
    if (s->opt.bfs_cap == 0)
        s->opt.bfs_cap = SB_BFS_CAP;
    s->ft = ft;
    s->ft.counts = s->counts;
    s->ft.ext = s->ext;
    s->kernel = kernel_table[level];
    const int fused = fast && !tech, bfs = opt->search == SB_SEARCH_BFS;
    s->givens = searches[bfs][fused ? 0 : tech ? 1 : 2];
    s->marks = searches[bfs][2];
    s->pairs = fused && !bfs ? s->kernel.pair : NULL;
    s->plan_counts = fused ? s->scratch : s->counts;
    s->plan = plan;
    s->plan.ext = s->ext;
    *out = s;
    return SB_OK;
}

void sb_solver_free(sb_solver *s)
{
    if (!s)
        return;
    free(s->ring);
    free(s->stack);
    sb_tech_ext_free(s->ext);
    free(s);
}

int sb_solver_simd(const sb_solver *s)
{
    return s ? s->opt.simd : SB_ERR_ARG;
}

void sb_solver_counts(const sb_solver *s, sb_technique_counts out[SB_TECH_COUNT])
{
    if (s && out)
        memcpy(out, s->counts, SB_TECH_COUNT * sizeof *out);
}

int sb_solver_plugin_counts(const sb_solver *s, sb_technique_counts out[SB_TECH_PLUGINS])
{
    if (!s || !s->ext || !out)
        return 0;
    memcpy(out, s->counts + SB_TECH_COUNT, (size_t)s->ext->n * sizeof *out);
    return s->ext->n;
}

const char *sb_solver_plugin_why(const sb_solver *s)
{
    return s && s->ext && s->ext->fault ? s->ext->why : NULL;
}

sb_tech_ext *sb_solver_ext(sb_solver *s)
{
    return s ? s->ext : NULL;
}

void sb_solver_limits(sb_solver *s, uint64_t limit, uint64_t max_guesses,
                      const volatile sig_atomic_t *stop)
{
    if (!s)
        return;
    s->opt.limit = limit;
    s->opt.max_guesses = max_guesses;
    s->opt.stop = stop;
}

void sb_solver_counts_reset(sb_solver *s)
{
    if (s)
        memset(s->counts, 0, sizeof s->counts);
}

uint64_t sb_solver_paired(const sb_solver *s)
{
    return s ? s->paired : 0;
}

/* Runs search fn (the solver's givens or marks search) and returns its status with *res
 * filled. Arguments already checked. */
static int run_search(sb_solver *s, search_fn fn, const sb_grid *puzzle, const uint16_t *marks,
                      sb_result *res)
{
    /* The search reads the budget and stop flag from run and writes its result there; the
     * copy out is a hundred bytes per solve, against hundreds of nanoseconds of search. */
    sb_search_run run = {.max_guesses = s->opt.max_guesses, .stop = s->opt.stop};
    if (s->ext)
        s->ext->fault = SB_OK;
    const int st = fn(s, puzzle, marks, &run);
    *res = run.res;
    /* A plug-in's breach beats everything: the search below it ran on a broken answer. */
    return s->ext && s->ext->fault ? s->ext->fault : st;
}

/* 1 when every cell of puzzle holds 0..9. One reduction, no early exit, so the compiler can
 * vectorise it: on easy corpora the solve itself is a few hundred nanoseconds and a
 * byte-at-a-time loop showed up. A maximum, which vectorises as one byte-max a vector, where
 * or-ing each cell's "> 9" made gcc build a flag vector per load (about 50 instructions a
 * puzzle against about 20). */
static int grid_valid(const sb_grid *puzzle)
{
    uint8_t top = 0;
    for (int c = 0; c < SB_CELLS; c++)
        top = puzzle->cell[c] > top ? puzzle->cell[c] : top;
    return top <= 9;
}

int sb_solve(sb_solver *s, const sb_grid *puzzle, sb_result *res)
{
    if (!s || !puzzle || !res || !grid_valid(puzzle))
        return SB_ERR_ARG;
    return run_search(s, s->givens, puzzle, NULL, res);
}

int sb_solve_drop(sb_solver *s, const sb_grid *puzzle, int cell, uint16_t drop, uint64_t limit,
                  sb_result *res)
{
    if (!s || !puzzle || !res || s->givens != fused_dfs || cell < 0 || cell >= SB_CELLS ||
        (drop & ~SB_ALL_DIGITS) || !grid_valid(puzzle))
        return SB_ERR_ARG;
    sb_search_run run = {.max_guesses = s->opt.max_guesses, .stop = s->opt.stop,
                         .drop_cell = cell, .drop = drop};
    s->kernel.dfs(s->stack, puzzle, limit, &run);
    *res = run.res;
    return run.status;
}

int sb_solve_candidates(sb_solver *s, const uint16_t cand[SB_CELLS], sb_result *res)
{
    if (!s || !cand || !res)
        return SB_ERR_ARG;
    for (int c = 0; c < SB_CELLS; c++)
        if (cand[c] & ~SB_ALL_DIGITS)
            return SB_ERR_ARG;
    /* Candidates that say no more than their givens are that puzzle: the solver's own path
     * (the fused kernel for "fast"), with its guess counts. */
    sb_grid givens;
    if (sb_candidates_givens(cand, &givens))
        return run_search(s, s->givens, &givens, NULL, res);
    return run_search(s, s->marks, NULL, cand, res);
}

/* Puzzles handed to a paired kernel per call: bounds the run records on the stack; the tail
 * of a block (one puzzle left alone) is negligible at this size. */
#define PAIR_BLOCK 256

/* One sb_solve per puzzle, the stop flag looked at before each, as in the paired search. */
static void solve_each(sb_solver *s, const sb_grid *puzzles, size_t n, sb_result *res,
                       int *status)
{
    for (size_t i = 0; i < n; i++) {
        memset(&res[i], 0, sizeof res[i]); /* what a refused or unstarted puzzle gets */
        status[i] = s->opt.stop && *s->opt.stop ? SB_ERR_STOPPED
                                                : sb_solve(s, &puzzles[i], &res[i]);
    }
}

int sb_solve_many(sb_solver *s, const sb_grid *puzzles, size_t n, sb_result *res, int *status)
{
    if (!s || (n && (!puzzles || !res || !status)))
        return SB_ERR_ARG;
    /* The paired kernel under SB_PAIR_ON only. The pair overlaps two boards' settles; the
     * one-board AVX2 search runs 16-24% fewer instructions on every corpus and is at least
     * as fast: on the Intel VM 1.18x on 17-clue and 1.30x on generated puzzles that need no
     * guess, level on AMD Zen 5 (docs/performance.md, "The AVX2 paired search and the pair
     * policy"). So SB_PAIR_AUTO runs one board. */
    if (!s->pairs || s->opt.pair != SB_PAIR_ON) {
        solve_each(s, puzzles, n, res, status);
        return SB_OK;
    }
    sb_grid grid[PAIR_BLOCK];
    sb_search_run run[PAIR_BLOCK];
    size_t at[PAIR_BLOCK];
    for (size_t lo = 0, hi; lo < n; lo = hi) {
        hi = n - lo < PAIR_BLOCK ? n : lo + PAIR_BLOCK;
        size_t k = 0;
        for (size_t i = lo; i < hi; i++) {
            if (!grid_valid(&puzzles[i])) {
                memset(&res[i], 0, sizeof res[i]);
                status[i] = SB_ERR_ARG;
                continue;
            }
            grid[k] = puzzles[i];
            run[k] = (sb_search_run){.max_guesses = s->opt.max_guesses, .stop = s->opt.stop};
            at[k++] = i;
        }
        s->pairs(s->stack, grid, k, s->opt.limit, run);
        for (size_t j = 0; j < k; j++) {
            res[at[j]] = run[j].res;
            status[at[j]] = run[j].status;
        }
        s->paired += k;
    }
    return SB_OK;
}
