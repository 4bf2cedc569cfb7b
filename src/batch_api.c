/*
 * batch_api.c — whole arrays of puzzles in one call, on every core: the entry points that
 * bindings (python/) and other programs use instead of writing their own thread pool.
 *
 * Each call opens one OpenMP team; every thread makes its own solver or generator (the
 * library's thread rule: one context per thread), takes chunks of the index range from a
 * dynamic schedule (hard puzzles cluster in corpora) and writes only its own rows of the
 * caller's arrays, so no locks are taken and the output does not depend on the thread count.
 * The CLI's batch engine (src/cli/batch.c) adds what a stream needs (reading windows,
 * ordered writing, progress); over arrays already in memory this is all there is to do.
 */
#include <omp.h>
#include <string.h>

#include "sudokubench.h"

enum { BATCH_CHUNK = 64 /* indices a thread takes at once: small enough to balance */ };

/* The team size for a batch of n items: threads (0 = OpenMP's default), at most n, >= 1. */
static int team_size(int threads, size_t n)
{
    int t = threads > 0 ? threads : omp_get_max_threads();
    if ((size_t)t > n)
        t = n ? (int)n : 1;
    return t;
}

/* Records an error a thread met in *shared (SB_OK is ignored). With several errors one of
 * them is kept, which one depends on timing: the caller only needs to learn that one did. */
static void keep_error(int *shared, int st)
{
    if (st == SB_OK)
        return;
#pragma omp atomic write
    *shared = st;
}

/* Solves rows lo .. lo+k-1 of a batch together with solver s (NULL: its thread could not
 * make one) through sb_solve_many, which checks the stop flag before each puzzle and, at
 * AVX2, searches two puzzles at once, and writes the rows' outputs. @return 1 when the stop
 * flag cut a row short (its status says SB_ERR_STOPPED). */
static int solve_rows(sb_solver *s, const uint8_t *cells, size_t lo, size_t k, uint64_t *counts,
                      uint64_t *guesses, uint8_t *solutions, int8_t *status)
{
    sb_result res[BATCH_CHUNK];
    int st[BATCH_CHUNK];
    if (s) {
        sb_solve_many(s, (const sb_grid *)(cells + lo * SB_CELLS), k, res, st);
    } else {
        memset(res, 0, k * sizeof *res);
        for (size_t j = 0; j < k; j++)
            st[j] = SB_ERR_NOMEM;
    }
    int stopped = 0;
    for (size_t j = 0; j < k; j++) {
        const size_t i = lo + j;
        if (counts)
            counts[i] = res[j].count;
        if (guesses)
            guesses[i] = res[j].guesses;
        if (solutions)
            memcpy(solutions + i * SB_CELLS, res[j].solution.cell, SB_CELLS);
        if (status)
            status[i] = (int8_t)st[j];
        stopped |= st[j] == SB_ERR_STOPPED;
    }
    return stopped;
}

int sb_solve_batch(const sb_options *opt, const uint8_t *cells, size_t n, int threads,
                   uint64_t *counts, uint64_t *guesses, uint8_t *solutions, int8_t *status)
{
    if (!opt || (!cells && n))
        return SB_ERR_ARG;
    /* The first solver, made before the team, checks the options (a bad pipeline or SIMD
     * level is an error of the call, never a row status) and serves thread 0: making a
     * solver costs tens of microseconds, as much as solving dozens of easy puzzles. */
    sb_solver *first;
    int setup = sb_solver_new(&first, opt);
    if (setup != SB_OK)
        return setup;
    int stopped = 0;
#pragma omp parallel num_threads(team_size(threads, n))
    {
        sb_solver *s = first;
        if (omp_get_thread_num() != 0) {
            s = NULL;
            keep_error(&setup, sb_solver_new(&s, opt));
        }
#pragma omp for schedule(dynamic, 1)
        for (size_t lo = 0; lo < n; lo += BATCH_CHUNK) {
            const size_t k = n - lo < BATCH_CHUNK ? n - lo : BATCH_CHUNK;
            if (solve_rows(s, cells, lo, k, counts, guesses, solutions, status)) {
#pragma omp atomic write
                stopped = 1;
            }
        }
        if (s != first)
            sb_solver_free(s);
    }
    sb_solver_free(first);
    if (setup != SB_OK)
        return setup;
    return stopped ? SB_ERR_STOPPED : SB_OK;
}

int sb_rate_batch(const uint8_t *cells, size_t n, int threads, int8_t *classes)
{
    if ((!cells || !classes) && n)
        return SB_ERR_ARG;
    int err = SB_OK;
#pragma omp parallel for num_threads(team_size(threads, n)) schedule(dynamic, BATCH_CHUNK)
    for (size_t i = 0; i < n; i++) {
        sb_rating r;
        const int st = sb_rate((const sb_grid *)(cells + i * SB_CELLS), &r);
        keep_error(&err, st);
        classes[i] = st == SB_OK ? (int8_t)r.cls : (int8_t)-1;
    }
    return err;
}

int sb_generate_batch(const sb_gen_options *opt, uint64_t first, size_t n, int threads,
                      uint8_t *puzzles, uint8_t *solutions, uint64_t *guesses)
{
    if (!opt || (!puzzles && n))
        return SB_ERR_ARG;
    /* As in sb_solve_batch: the generator that checks the options serves thread 0. */
    sb_generator *g0;
    int err = sb_generator_new(&g0, opt);
    if (err != SB_OK)
        return err;
    int missed = 0;
#pragma omp parallel num_threads(team_size(threads, n))
    {
        sb_generator *g = g0;
        if (omp_get_thread_num() != 0) {
            g = NULL;
            keep_error(&err, sb_generator_new(&g, opt));
        }
#pragma omp for schedule(dynamic, 1)
        for (size_t i = 0; i < n; i++) {
            sb_generated p;
            memset(&p, 0, sizeof p);
            if (g && sb_generate(g, first + i, &p) != 1) {
#pragma omp atomic write
                missed = 1;
            }
            memcpy(puzzles + i * SB_CELLS, p.puzzle.cell, SB_CELLS);
            if (solutions)
                memcpy(solutions + i * SB_CELLS, p.solution.cell, SB_CELLS);
            if (guesses)
                guesses[i] = p.guesses;
        }
        if (g != g0)
            sb_generator_free(g);
    }
    sb_generator_free(g0);
    if (err != SB_OK)
        return err;
    return missed ? SB_ERR_BUDGET : SB_OK;
}

int sb_augment_batch(const uint8_t *in, size_t n_in, uint64_t seed, uint64_t first, size_t n,
                     int threads, uint8_t *out)
{
    if (n && (!in || !n_in || !out))
        return SB_ERR_ARG;
    for (size_t i = 0; i < n_in * SB_CELLS; i++)
        if (in[i] > 9)
            return SB_ERR_ARG;
#pragma omp parallel for num_threads(team_size(threads, n)) schedule(static)
    for (size_t i = 0; i < n; i++) {
        const uint64_t index = first + i;
        sb_rng rng;
        sb_transform t;
        sb_rng_seed(&rng, seed, index);
        sb_transform_random(&t, &rng);
        sb_transform_apply(&t, (const sb_grid *)(in + (index % n_in) * SB_CELLS),
                           (sb_grid *)(out + i * SB_CELLS));
    }
    return SB_OK;
}

int sb_reader_read_cells(sb_reader *r, uint8_t *cells, size_t max, size_t *n, sb_record *bad)
{
    if (!r || !n || (!cells && max))
        return SB_ERR_ARG;
    *n = 0;
    sb_record rec;
    while (*n < max) {
        const int got = sb_reader_next(r, &rec);
        if (got != 1)
            return got; /* 0 at the end, or an error */
        if (rec.kind != SB_LINE_PUZZLE) {
            if (bad)
                *bad = rec;
            return 2;
        }
        memcpy(cells + *n * SB_CELLS, rec.grid.cell, SB_CELLS);
        ++*n;
    }
    return 1;
}
