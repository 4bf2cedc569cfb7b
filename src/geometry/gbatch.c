/*
 * gbatch.c — whole arrays of puzzles of any geometry in one call, on every core: what
 * sb_solve_batch (src/batch_api.c) is to 9x9, for bindings (python/) and other programs.
 *
 * One OpenMP team; each thread makes its own engine for the options (the general solver for
 * "fast", else a generic pipeline: an engine is one thread's mutable state), takes chunks of
 * rows from a dynamic schedule (a corpus mixes puzzles of microseconds and of seconds) and
 * writes only its own rows, so the output does not depend on the thread count. The stop flag
 * goes into every engine, so one long search ends too, and is also read before each puzzle,
 * so the rows after it cost one look each.
 */
#include <errno.h>
#include <omp.h>
#include <string.h>

#include "sudokubench.h"

enum {
    GBATCH_CHUNK = 8 /* rows a thread takes at once: a 16x16 or larger solve takes long
                        enough that a bigger chunk would only unbalance the team */
};

/* One thread's engine: exactly one of the two is set. */
typedef struct gengine {
    sb_gsolver *solver; /* "fast": the general solver */
    sb_gpipeline *pipe; /* any other registry name or custom spec */
} gengine;

static void gengine_free(gengine *e)
{
    sb_gsolver_free(e->solver);
    sb_gpipeline_free(e->pipe);
    e->solver = NULL;
    e->pipe = NULL;
}

/* Makes the engine *opt asks for on g, with its budget and stop flag.
 * @return SB_OK; SB_ERR_PIPELINE (bad index or spec); SB_ERR_SIMD; SB_ERR_NOMEM. */
static int gengine_new(const sb_geometry *g, const sb_options *opt, gengine *e)
{
    memset(e, 0, sizeof *e);
    size_t np;
    const sb_pipeline_info *reg = sb_pipelines(&np);
    const char *name = opt->spec;
    if (opt->pipeline != SB_PIPELINE_CUSTOM) {
        if (opt->pipeline < 0 || (size_t)opt->pipeline >= np)
            return SB_ERR_PIPELINE;
        name = reg[opt->pipeline].name;
    }
    if (!name)
        return SB_ERR_PIPELINE;
    int st;
    if (!strcmp(name, "fast")) {
        st = sb_gsolver_new(g, &e->solver);
        if (st == SB_OK)
            st = sb_gsolver_simd(e->solver, opt->simd);
        if (st == SB_OK) {
            sb_gsolver_budget(e->solver, opt->max_guesses);
            sb_gsolver_stop(e->solver, opt->stop);
        }
    } else {
        /* The pipelines are portable C at every level, but a level this CPU lacks is still
         * the caller's error, as sb_solver_new says for 9x9. */
        st = sb_simd_resolve(opt->simd) < 0 ? SB_ERR_SIMD : sb_gpipeline_new(g, name, &e->pipe);
        if (st == SB_OK) {
            sb_gpipeline_budget(e->pipe, opt->max_guesses);
            sb_gpipeline_stop(e->pipe, opt->stop);
        }
    }
    if (st != SB_OK)
        gengine_free(e);
    return st;
}

/* Solves one puzzle with engine e, as sb_gsolve. */
static int gengine_solve(gengine *e, const uint8_t *cells, uint64_t limit, sb_gresult *res,
                         uint8_t *first)
{
    return e->solver ? sb_gsolve(e->solver, cells, limit, res, first)
                     : sb_gpipeline_solve(e->pipe, cells, limit, res, first);
}

/* Records an error in *shared (SB_OK is ignored); with several, which one is kept depends on
 * timing: the caller only needs to learn that one happened. */
static void keep_error(int *shared, int st)
{
    if (st == SB_OK)
        return;
#pragma omp atomic write
    *shared = st;
}

int sb_gsolve_batch(const sb_geometry *g, const sb_options *opt, const uint8_t *cells,
                    size_t n, int threads, uint64_t *counts, uint64_t *guesses,
                    uint8_t *solutions, int8_t *status)
{
    if (!g)
        return sb_solve_batch(opt, cells, n, threads, counts, guesses, solutions, status);
    if (!opt || (!cells && n) || opt->search != SB_SEARCH_DFS)
        return SB_ERR_ARG;
    const size_t nc = (size_t)sb_geometry_cells(g);
    /* The first engine, made before the team, checks the options (an error of the call, never
     * a row status) and serves thread 0. */
    gengine first;
    int setup = gengine_new(g, opt, &first);
    if (setup != SB_OK)
        return setup;
    int team = threads > 0 ? threads : omp_get_max_threads();
    if ((size_t)team > n)
        team = n ? (int)n : 1;
    const int start = sb_threads_check(team, NULL, 0);
    if (start != SB_OK) {
        const int why = errno;
        gengine_free(&first);
        errno = why;
        return start;
    }
    int stopped = 0;
#pragma omp parallel num_threads(team)
    {
        gengine mine, *e = &first;
        if (omp_get_thread_num() != 0) {
            const int made = gengine_new(g, opt, &mine);
            keep_error(&setup, made);
            e = made == SB_OK ? &mine : NULL;
        }
#pragma omp for schedule(dynamic, 1)
        for (size_t lo = 0; lo < n; lo += GBATCH_CHUNK) {
            const size_t hi = n - lo < GBATCH_CHUNK ? n : lo + GBATCH_CHUNK;
            for (size_t i = lo; i < hi; i++) {
                sb_gresult res = {0, 0};
                uint8_t *sol = solutions ? solutions + i * nc : NULL;
                if (sol)
                    memset(sol, 0, nc);
                int st;
                if (opt->stop && *opt->stop)
                    st = SB_ERR_STOPPED;
                else
                    st = e ? gengine_solve(e, cells + i * nc, opt->limit, &res, sol) : SB_ERR_NOMEM;
                if (st == SB_ERR_STOPPED) {
#pragma omp atomic write
                    stopped = 1;
                }
                if (counts)
                    counts[i] = res.count;
                if (guesses)
                    guesses[i] = res.guesses;
                if (status)
                    status[i] = (int8_t)st;
            }
        }
        if (e == &mine)
            gengine_free(&mine);
    }
    gengine_free(&first);
    if (setup != SB_OK)
        return setup;
    return stopped ? SB_ERR_STOPPED : SB_OK;
}
