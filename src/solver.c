/*
 * solver.c — the pipeline registry, solver contexts and the kernel dispatch table.
 *
 * A solver context owns its search stack (SB_STACK_DEPTH boards, 64-byte aligned) and the
 * kernel chosen for it, so threads never share mutable state.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The pipeline registry: one row per pipeline. The CLI, tests and benchmarks iterate it. */
static const sb_pipeline_info pipeline_table[] = {
    {"fast", "naked + hidden singles at every node; DFS on the fewest-candidate cell"},
};
#define PIPELINE_COUNT (sizeof pipeline_table / sizeof pipeline_table[0])

/* The dispatch table, indexed by sb_simd level: the same kernel stamped per ISA. */
static const sb_kernel_fn kernel_table[SB_SIMD_LEVELS] = {
    [SB_SIMD_SCALAR] = sb_kernel_solve_scalar,
    [SB_SIMD_AVX2] = sb_kernel_solve_avx2,
    [SB_SIMD_AVX512] = sb_kernel_solve_avx512,
};

struct sb_solver {
    sb_options opt;      /* the options it was made with, simd resolved */
    sb_kernel_fn kernel; /* kernel_table[opt.simd] */
    sb_board *stack;     /* SB_STACK_DEPTH boards, 64-byte aligned */
};

const sb_pipeline_info *sb_pipelines(size_t *count)
{
    *count = PIPELINE_COUNT;
    return pipeline_table;
}

int sb_pipeline_find(const char *name)
{
    for (size_t i = 0; name && i < PIPELINE_COUNT; i++)
        if (!strcmp(pipeline_table[i].name, name))
            return (int)i;
    return SB_ERR_PIPELINE;
}

void sb_options_default(sb_options *opt)
{
    opt->limit = 2;
    opt->pipeline = 0;
    opt->simd = SB_SIMD_AUTO;
}

sb_verdict sb_result_verdict(const sb_result *res)
{
    return res->count == 0 ? SB_UNSOLVABLE : res->count == 1 ? SB_SOLVED : SB_MULTIPLE;
}

int sb_solver_new(sb_solver **out, const sb_options *opt)
{
    if (!out || !opt)
        return SB_ERR_ARG;
    *out = NULL;
    if (opt->pipeline < 0 || (size_t)opt->pipeline >= PIPELINE_COUNT)
        return SB_ERR_PIPELINE;
    const int level = sb_simd_resolve(opt->simd);
    if (level < 0)
        return SB_ERR_SIMD;
    sb_solver *s = malloc(sizeof *s);
    if (!s)
        return SB_ERR_NOMEM;
    s->stack = aligned_alloc(64, SB_STACK_DEPTH * sizeof(sb_board));
    if (!s->stack) {
        free(s);
        return SB_ERR_NOMEM;
    }
    s->opt = *opt;
    s->opt.simd = level;
    s->kernel = kernel_table[level];
    *out = s;
    return SB_OK;
}

void sb_solver_free(sb_solver *s)
{
    if (!s)
        return;
    free(s->stack);
    free(s);
}

int sb_solver_simd(const sb_solver *s)
{
    return s->opt.simd;
}

int sb_solve(sb_solver *s, const sb_grid *puzzle, sb_result *res)
{
    if (!s || !puzzle || !res)
        return SB_ERR_ARG;
    for (int c = 0; c < SB_CELLS; c++)
        if (puzzle->cell[c] > 9)
            return SB_ERR_ARG;
    s->kernel(s->stack, puzzle, s->opt.limit, res);
    return SB_OK;
}
