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
 *
 * Thread start. When the runtime cannot start a team's thread (pthread_create fails: address
 * space, RLIMIT_NPROC, a cgroup's pids limit), libgomp prints "Thread creation failed" and
 * exits the process, and LLVM's libomp aborts it: no OpenMP call reports it. So before every
 * team a call checks that the team can start (sb_threads_check, below, which the CLI calls
 * before its own regions too): it starts the team's extra threads itself, with the stack size
 * the runtime would use, all alive at once, then ends them. That is the only test that covers
 * every cause; checking the address space alone (mmap of the stacks) would miss the thread
 * limits. The price is one thread start and join per extra thread (~10-50 us), about what the
 * runtime pays again to start the team, so it is small next to any batch worth a team. A
 * thread of the caller that already ran a team of that size keeps it (libgomp's pool), so a
 * caller that opens many regions on one thread (the CLI) checks only when the team grows.
 */
#include <ctype.h>
#include <errno.h>
#include <omp.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "sudokubench.h"

enum {
    BATCH_CHUNK = 64,  /* indices a thread takes at once: small enough to balance */
    AUGMENT_RUN = 512  /* augment rows between two looks at the stop flag (~50 us) */
};

/* The most rows an array of puzzles can hold: n * SB_CELLS bytes must not wrap a size_t. */
#define ROWS_MAX (SIZE_MAX / SB_CELLS)

/* ------------------------------------------------------------------------------------------ */
/* Can the team start?                                                                        */
/* ------------------------------------------------------------------------------------------ */

#ifndef KMP_VERSION_MAJOR
/* Reads a libgomp stack-size variable the way libgomp's initialize_env does: a whole number
 * with an optional unit B, K, M or G (any case; K without one), spaces around both.
 * @return 1 with *bytes set; 0 when unset or malformed (libgomp then ignores it too). */
static int gomp_stacksize(const char *name, size_t *bytes)
{
    const char *s = getenv(name);
    if (!s)
        return 0;
    while (isspace((unsigned char)*s))
        s++;
    if (!*s)
        return 0;
    char *end;
    errno = 0;
    const unsigned long v = strtoul(s, &end, 10);
    if (errno)
        return 0;
    while (isspace((unsigned char)*end))
        end++;
    unsigned shift = 10;
    if (*end) {
        switch (tolower((unsigned char)*end)) {
        case 'b': shift = 0; break;
        case 'k': break;
        case 'm': shift = 20; break;
        case 'g': shift = 30; break;
        default: return 0;
        }
        for (end++; isspace((unsigned char)*end); end++)
            ;
        if (*end)
            return 0;
    }
    if ((v << shift) >> shift != v)
        return 0;
    *bytes = (size_t)(v << shift);
    return 1;
}
#endif

/* Initialises *attr as the OpenMP runtime's thread attributes, as far as they decide whether
 * a thread can start: its stack size. */
static void runtime_thread_attr(pthread_attr_t *attr)
{
    pthread_attr_init(attr);
#ifdef KMP_VERSION_MAJOR
    /* LLVM's libomp (its omp.h defines KMP_VERSION_MAJOR) sets each worker's stack size
     * itself, plus 128 bytes per global thread id: 64 KiB more covers 512 ids. */
    pthread_attr_setstacksize(attr, kmp_get_stacksize_s() + (64u << 10));
#else
    /* libgomp: $OMP_STACKSIZE, else $GOMP_STACKSIZE, else pthread's default attributes (the
     * RLIMIT_STACK of the process start). It reads them once at load: a variable changed
     * later makes this check stricter or looser than the runtime, never crashes it. A size
     * pthread refuses leaves the default, as libgomp does. */
    size_t bytes;
    if (gomp_stacksize("OMP_STACKSIZE", &bytes) || gomp_stacksize("GOMP_STACKSIZE", &bytes))
        pthread_attr_setstacksize(attr, bytes);
#endif
}

/* A probe thread: waits at the gate (a mutex the checker holds while it starts the others),
 * so all of them are alive at once, as a team's threads are. */
static void *probe_wait(void *gate)
{
    pthread_mutex_lock(gate);
    pthread_mutex_unlock(gate);
    return NULL;
}

int sb_threads_check(int threads, char *why, size_t whylen)
{
    if (why && whylen)
        why[0] = '\0';
    /* The runtime never makes a team above its thread limit, and a region nested deeper than
     * the active levels allowed runs on the calling thread alone. */
    const int limit = omp_get_thread_limit();
    if (threads > limit)
        threads = limit;
    if (threads <= 1 || omp_get_active_level() >= omp_get_max_active_levels())
        return SB_OK;
    pthread_t *tid = malloc((size_t)(threads - 1) * sizeof *tid);
    if (!tid) { /* callers print why as it is: it must say what failed */
        if (why && whylen)
            snprintf(why, whylen, "out of memory");
        return SB_ERR_NOMEM;
    }
    pthread_attr_t attr;
    runtime_thread_attr(&attr);
    pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER;
    /* The probes inherit a mask blocking every signal: a SIGINT meant for the caller (the
     * CLI's reading thread, Python's main thread) must not land on a thread about to end. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_mutex_lock(&gate);
    int started = 0, err = 0;
    while (started < threads - 1 && !(err = pthread_create(&tid[started], &attr, probe_wait, &gate)))
        started++;
    pthread_mutex_unlock(&gate);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_mutex_destroy(&gate);
    pthread_attr_destroy(&attr);
    free(tid);
    if (!err)
        return SB_OK;
    if (why && whylen) {
        char text[128];
        snprintf(why, whylen, "cannot start %d threads: %s", threads,
                 strerror_r(err, text, sizeof text));
    }
    errno = err;
    return SB_ERR_THREADS;
}

/* ------------------------------------------------------------------------------------------ */
/* Batches                                                                                    */
/* ------------------------------------------------------------------------------------------ */

/* The team size for a batch of n items: threads (0 = OpenMP's default), at most n, >= 1. */
static int team_size(int threads, size_t n)
{
    int t = threads > 0 ? threads : omp_get_max_threads();
    if ((size_t)t > n)
        t = n ? (int)n : 1;
    return t;
}

int sb_batch_team(int threads, size_t n, int *team)
{
    *team = team_size(threads, n);
    return sb_threads_check(*team, NULL, 0);
}

int sb_batch_begin(int threads, size_t n, int *team, void (*release)(void *), void *first)
{
    const int st = sb_batch_team(threads, n, team);
    if (st != SB_OK) {
        const int why = errno;
        release(first);
        errno = why;
    }
    return st;
}

/* Indices a thread takes at once in sb_generate_batch: one (an index is a whole generation,
 * up to milliseconds) until the range gives every thread 16 chunks, then more, up to
 * BATCH_CHUNK, so that after a stop the rest of a long range costs few loop steps. */
static size_t generate_chunk(size_t n, int team)
{
    const size_t k = n / ((size_t)team * 16);
    return k < 1 ? 1 : k > BATCH_CHUNK ? BATCH_CHUNK : k;
}

/* @return 1 when the stop flag (may be NULL) is raised. */
static int stop_raised(const volatile sig_atomic_t *stop)
{
    return stop && *stop;
}

/* Notes in *shared that the stop flag cut the batch short. */
static void keep_stopped(int *shared)
{
#pragma omp atomic write
    *shared = 1;
}

void sb_batch_error(int *shared, int st)
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

/* sb_batch_begin's release of a solver. */
static void solver_release(void *s)
{
    sb_solver_free(s);
}

int sb_solve_batch(const sb_options *opt, const uint8_t *cells, size_t n, int threads,
                   uint64_t *counts, uint64_t *guesses, uint8_t *solutions, int8_t *status)
{
    if (!opt || (!cells && n) || n > ROWS_MAX)
        return SB_ERR_ARG;
    /* The first solver, made before the team, checks the options (a bad pipeline or SIMD
     * level is an error of the call, never a row status) and serves thread 0: making a
     * solver costs tens of microseconds, as much as solving dozens of easy puzzles. */
    sb_solver *first;
    int setup = sb_solver_new(&first, opt);
    if (setup != SB_OK)
        return setup;
    int team;
    const int start = sb_batch_begin(threads, n, &team, solver_release, first);
    if (start != SB_OK)
        return start;
    int stopped = 0;
#pragma omp parallel num_threads(team)
    {
        sb_solver *s = first;
        if (omp_get_thread_num() != 0) {
            s = NULL;
            sb_batch_error(&setup, sb_solver_new(&s, opt));
        }
#pragma omp for schedule(dynamic, 1)
        for (size_t lo = 0; lo < n; lo += BATCH_CHUNK) {
            const size_t k = n - lo < BATCH_CHUNK ? n - lo : BATCH_CHUNK;
            if (solve_rows(s, cells, lo, k, counts, guesses, solutions, status))
                keep_stopped(&stopped);
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
    return sb_rate_batch_stop(cells, n, threads, classes, NULL);
}

int sb_rate_batch_stop(const uint8_t *cells, size_t n, int threads, int8_t *classes,
                       const volatile sig_atomic_t *stop)
{
    if (((!cells || !classes) && n) || n > ROWS_MAX)
        return SB_ERR_ARG;
    int team, err = sb_batch_team(threads, n, &team), stopped = 0;
    if (err != SB_OK)
        return err;
#pragma omp parallel for num_threads(team) schedule(dynamic, 1)
    for (size_t lo = 0; lo < n; lo += BATCH_CHUNK) {
        const size_t hi = n - lo < BATCH_CHUNK ? n : lo + BATCH_CHUNK;
        for (size_t i = lo; i < hi; i++) {
            if (stop_raised(stop)) {
                keep_stopped(&stopped);
                break;
            }
            sb_rating r;
            const int st = sb_rate((const sb_grid *)(cells + i * SB_CELLS), &r);
            sb_batch_error(&err, st);
            classes[i] = st == SB_OK ? (int8_t)r.cls : (int8_t)-1;
        }
    }
    return stopped ? SB_ERR_STOPPED : err;
}

int sb_generate_batch(const sb_gen_options *opt, uint64_t first, size_t n, int threads,
                      uint8_t *puzzles, uint8_t *solutions, uint64_t *guesses)
{
    return sb_generate_batch_stop(opt, first, n, threads, puzzles, solutions, guesses, NULL);
}

/* sb_batch_begin's release of a generator. */
static void generator_release(void *g)
{
    sb_generator_free(g);
}

int sb_generate_batch_stop(const sb_gen_options *opt, uint64_t first, size_t n, int threads,
                           uint8_t *puzzles, uint8_t *solutions, uint64_t *guesses,
                           const volatile sig_atomic_t *stop)
{
    if (!opt || (!puzzles && n) || n > ROWS_MAX ||
        (n && first > UINT64_MAX - (uint64_t)(n - 1)))
        return SB_ERR_ARG;
    /* As in sb_solve_batch: the generator that checks the options serves thread 0. */
    sb_generator *g0;
    int err = sb_generator_new(&g0, opt);
    if (err != SB_OK)
        return err;
    int team;
    const int start = sb_batch_begin(threads, n, &team, generator_release, g0);
    if (start != SB_OK)
        return start;
    int missed = 0, stopped = 0;
    const size_t chunk = generate_chunk(n, team);
#pragma omp parallel num_threads(team)
    {
        sb_generator *g = g0;
        if (omp_get_thread_num() != 0) {
            g = NULL;
            sb_batch_error(&err, sb_generator_new(&g, opt));
        }
#pragma omp for schedule(dynamic, 1)
        for (size_t lo = 0; lo < n; lo += chunk) {
            const size_t hi = n - lo < chunk ? n : lo + chunk;
            for (size_t i = lo; i < hi; i++) {
                if (stop_raised(stop)) {
                    keep_stopped(&stopped);
                    break;
                }
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
        }
        if (g != g0)
            sb_generator_free(g);
    }
    sb_generator_free(g0);
    if (err != SB_OK)
        return err;
    return stopped ? SB_ERR_STOPPED : missed ? SB_ERR_BUDGET : SB_OK;
}

int sb_augment_batch(const uint8_t *in, size_t n_in, uint64_t seed, uint64_t first, size_t n,
                     int threads, uint8_t *out)
{
    return sb_augment_batch_stop(in, n_in, seed, first, n, threads, out, NULL);
}

int sb_augment_batch_stop(const uint8_t *in, size_t n_in, uint64_t seed, uint64_t first,
                          size_t n, int threads, uint8_t *out,
                          const volatile sig_atomic_t *stop)
{
    if (n > ROWS_MAX || n_in > ROWS_MAX ||
        (n && (!in || !n_in || !out || first > UINT64_MAX - (uint64_t)(n - 1))))
        return SB_ERR_ARG;
    for (size_t i = 0; n && i < n_in * SB_CELLS; i++)
        if (in[i] > 9)
            return SB_ERR_ARG;
    int team, stopped = 0;
    const int start = sb_batch_team(threads, n, &team);
    if (start != SB_OK)
        return start;
    /* Runs of rows, statically split as before (each row is ~100 ns of work): the flag is
     * read once a run, a cost lost in the run's memory traffic. */
#pragma omp parallel for num_threads(team) schedule(static)
    for (size_t lo = 0; lo < n; lo += AUGMENT_RUN) {
        if (stop_raised(stop)) {
            keep_stopped(&stopped);
            continue;
        }
        const size_t hi = n - lo < AUGMENT_RUN ? n : lo + AUGMENT_RUN;
        for (size_t i = lo; i < hi; i++) {
            const uint64_t index = first + i;
            sb_rng rng;
            sb_transform t;
            sb_rng_seed(&rng, seed, index);
            sb_transform_random(&t, &rng);
            sb_transform_map(&t, (const sb_grid *)(in + (index % n_in) * SB_CELLS),
                             (sb_grid *)(out + i * SB_CELLS));
        }
    }
    return stopped ? SB_ERR_STOPPED : SB_OK;
}
