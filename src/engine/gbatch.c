/*
 * gbatch.c — whole arrays of puzzles of any geometry in one call, on every core: what
 * sb_solve_batch (src/engine/batch_api.c) is to 9x9, for bindings (python/) and other programs.
 *
 * One OpenMP team; each thread makes its own engine for the options (sb_engine: the engine
 * table picks the row, 9x9 included; an engine is one thread's mutable state), takes chunks of
 * rows from a dynamic schedule (a corpus mixes puzzles of microseconds and of seconds) and
 * writes only its own rows, so the output does not depend on the thread count. The stop flag
 * goes into every engine, so one long search ends too, and is also read before each puzzle,
 * so the rows after it cost one look each.
 */
#include <omp.h>
#include <string.h>

#include "internal.h"
#include "sudokubench.h"

enum {
    GBATCH_CHUNK = 8 /* rows a thread takes at once: a 16x16 or larger solve takes long
                        enough that a bigger chunk would only unbalance the team */
};

/* sb_batch_begin's release of an engine. */
static void engine_release(void *e)
{
    sb_engine_free(e);
}

int sb_gsolve_batch(const sb_geometry *g, const sb_options *opt, const uint8_t *cells,
                    size_t n, int threads, uint64_t *counts, uint64_t *guesses,
                    uint8_t *solutions, int8_t *status)
{
    if (!g || !opt || (!cells && n))
        return SB_ERR_ARG;
    const size_t nc = (size_t)sb_geometry_cells(g);
    if (n > SIZE_MAX / nc)
        return SB_ERR_ARG; /* n rows of nc bytes would wrap a size_t */
    /* The first engine, made before the team, checks the options (an error of the call, never
     * a row status) and serves thread 0. */
    sb_engine *first;
    int setup = sb_engine_new(g, opt, &first);
    if (setup != SB_OK)
        return setup;
    int team;
    const int start = sb_batch_begin(threads, n, &team, engine_release, first);
    if (start != SB_OK)
        return start;
    int stopped = 0;
#pragma omp parallel num_threads(team)
    {
        sb_engine *e = first;
        if (omp_get_thread_num() != 0) {
            e = NULL;
            sb_batch_error(&setup, sb_engine_new(g, opt, &e));
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
                    st = e ? sb_engine_solve(e, cells + i * nc, opt->limit, &res, sol)
                           : SB_ERR_NOMEM;
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
        if (e != first)
            sb_engine_free(e);
    }
    sb_engine_free(first);
    if (setup != SB_OK)
        return setup;
    return stopped ? SB_ERR_STOPPED : SB_OK;
}
