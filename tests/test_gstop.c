/*
 * test_gstop.c — the stop flag of every geometry engine: the general solver's
 * per-cell engine, its 16-digit whole-board kernel at every SIMD level this CPU has, and the
 * generic pipelines. A flag raised before a solve, or during one (from the enumeration
 * callback after K solutions, or from a second thread once the callback has reported
 * progress), ends it with SB_ERR_STOPPED; a flag that stays down changes no count, guess or
 * order. Nothing here waits on a clock: an empty grid's enumeration cannot end by itself, so
 * only the flag can end those solves.
 */
#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>

#include "sudokubench.h"

/* One engine under test: the general solver at a SIMD level, or a generic pipeline. */
typedef struct engine {
    sb_gsolver *gs;   /* the general solver, or NULL */
    sb_gpipeline *gp; /* the generic pipeline, or NULL */
} engine;

/* What the enumeration callbacks share with the test (and with the raising thread). */
typedef struct watch {
    volatile sig_atomic_t *flag; /* the stop flag, raised at solution raise_at (0: never) */
    uint64_t raise_at;           /* raise after this many solutions (0: not from here) */
    atomic_ulong seen;           /* solutions reported so far */
    uint64_t hash;               /* FNV-1a over the first HASHED solutions, in order */
    int ncells;                  /* cells of a solution */
} watch;

enum {
    K = 7,     /* solutions before the callback raises the flag */
    HASHED = K /* solutions a watch hashes: what a stopped and a capped listing share */
};

/* sb_gsolution_fn: counts the solutions and hashes the first HASHED, raises the flag at
 * raise_at, and always goes on (so only the solver's poll can end a run). */
static int on_solution(const uint8_t *sol, uint64_t index, void *user)
{
    watch *w = user;
    for (int c = 0; c < w->ncells && index < HASHED; c++)
        w->hash = (w->hash ^ sol[c]) * UINT64_C(0x100000001b3);
    const unsigned long n = atomic_fetch_add(&w->seen, 1) + 1;
    if (w->raise_at && n == w->raise_at)
        *w->flag = 1;
    return 0;
}

/* Makes the geometry of spec. */
static sb_geometry *geo(const char *spec)
{
    sb_geometry *g = NULL;
    char why[SB_GEO_WHY_LEN];
    cr_assert_eq(sb_geometry_parse(spec, &g, why, sizeof why), SB_OK, "%s: %s", spec, why);
    return g;
}

/* Makes the general solver on g at SIMD level (which this CPU must have). */
static engine general(const sb_geometry *g, int level)
{
    engine e = {0};
    cr_assert_eq(sb_gsolver_new(g, &e.gs), SB_OK);
    cr_assert_eq(sb_gsolver_simd(e.gs, level), SB_OK);
    return e;
}

/* Makes the generic pipeline name on g. */
static engine pipeline(const sb_geometry *g, const char *name)
{
    engine e = {0};
    cr_assert_eq(sb_gpipeline_new(g, name, &e.gp), SB_OK, "%s", name);
    return e;
}

static void engine_free(engine *e)
{
    sb_gsolver_free(e->gs);
    sb_gpipeline_free(e->gp);
}

/* Installs the stop flag (NULL: none) on e. */
static void engine_stop(engine *e, const volatile sig_atomic_t *flag)
{
    if (e->gs)
        sb_gsolver_stop(e->gs, flag);
    else
        sb_gpipeline_stop(e->gp, flag);
}

static int engine_solve(engine *e, const uint8_t *cells, uint64_t limit, sb_gresult *res,
                        uint8_t *first)
{
    return e->gs ? sb_gsolve(e->gs, cells, limit, res, first)
                 : sb_gpipeline_solve(e->gp, cells, limit, res, first);
}

static int engine_each(engine *e, const uint8_t *cells, uint64_t limit, watch *w,
                       sb_gresult *res)
{
    return e->gs ? sb_gsolve_each(e->gs, cells, limit, on_solution, w, res)
                 : sb_gpipeline_each(e->gp, cells, limit, on_solution, w, res);
}

/* The cases every engine must pass on the empty grid of g, whose listing never ends within a
 * test (only the flag can stop it), and on a puzzle of g with a few solutions. */
static void check_engine(engine *e, const sb_geometry *g, const char *what)
{
    const int nc = sb_geometry_cells(g);
    uint8_t *empty = calloc((size_t)nc, 1), *puzzle = malloc((size_t)nc);
    uint8_t *first = malloc((size_t)nc), *first2 = malloc((size_t)nc);
    volatile sig_atomic_t flag = 0;
    sb_gresult r, r2;

    /* Raised before the solve: the first guess sees it, in the count and in the listing. */
    engine_stop(e, &flag);
    flag = 1;
    cr_assert_eq(engine_solve(e, empty, 0, &r, first), SB_ERR_STOPPED, "%s: count", what);
    cr_assert_eq(r.count, 0, "%s", what);
    watch w0 = {.flag = &flag, .ncells = nc};
    cr_assert_eq(engine_each(e, empty, 0, &w0, &r), SB_ERR_STOPPED, "%s: each", what);
    cr_assert_eq(atomic_load(&w0.seen), 0, "%s", what);

    /* Raised during the listing by its own callback after K solutions. */
    flag = 0;
    watch w = {.flag = &flag, .raise_at = K, .ncells = nc};
    cr_assert_eq(engine_each(e, empty, 0, &w, &r), SB_ERR_STOPPED, "%s: during", what);
    cr_assert_geq(atomic_load(&w.seen), K, "%s", what);
    cr_assert_eq(r.count, atomic_load(&w.seen), "%s", what);

    /* The listing capped at K with the flag down, and with no flag: the same solutions in
     * the same order, the same guesses, and the same first K as the stopped run. */
    flag = 0;
    watch a = {.flag = &flag, .ncells = nc}, b = {.flag = &flag, .ncells = nc};
    cr_assert_eq(engine_each(e, empty, K, &a, &r), SB_OK, "%s", what);
    engine_stop(e, NULL);
    cr_assert_eq(engine_each(e, empty, K, &b, &r2), SB_OK, "%s", what);
    cr_assert_eq(a.hash, b.hash, "%s: an idle flag changed the order", what);
    cr_assert_eq(a.hash, w.hash, "%s: the stopped listing's first solutions differ", what);
    cr_assert_eq(r.count, K, "%s", what);
    cr_assert_eq(r.guesses, r2.guesses, "%s", what);

    /* A puzzle with a few solutions (the K-th solution of the empty grid, every third cell
     * blanked), counted to the end with the flag down and with none: the same count,
     * guesses, first solution and order. */
    cr_assert_eq(engine_solve(e, empty, K, &r, puzzle), SB_OK, "%s", what);
    for (int c = 0; c < nc; c += 3)
        puzzle[c] = 0;
    engine_stop(e, &flag);
    watch c1 = {.flag = &flag, .ncells = nc}, c2 = {.flag = &flag, .ncells = nc};
    cr_assert_eq(engine_solve(e, puzzle, 0, &r, first), SB_OK, "%s", what);
    cr_assert_eq(engine_each(e, puzzle, 0, &c1, &r2), SB_OK, "%s", what);
    cr_assert_eq(r.count, r2.count, "%s", what);
    engine_stop(e, NULL);
    cr_assert_eq(engine_solve(e, puzzle, 0, &r2, first2), SB_OK, "%s", what);
    cr_assert_eq(r.count, r2.count, "%s", what);
    cr_assert_eq(r.guesses, r2.guesses, "%s", what);
    cr_assert_eq(memcmp(first, first2, (size_t)nc), 0, "%s", what);
    cr_assert_eq(engine_each(e, puzzle, 0, &c2, &r2), SB_OK, "%s", what);
    cr_assert_eq(c1.hash, c2.hash, "%s", what);

    /* The budget still comes first and stays deterministic with a flag installed. */
    engine_stop(e, &flag);
    if (e->gs)
        sb_gsolver_budget(e->gs, 0);
    else
        sb_gpipeline_budget(e->gp, 0);
    cr_assert_eq(engine_solve(e, empty, 0, &r, NULL), SB_ERR_BUDGET, "%s", what);
    cr_assert_eq(r.guesses, 0, "%s", what);
    if (e->gs)
        sb_gsolver_budget(e->gs, UINT64_MAX);
    else
        sb_gpipeline_budget(e->gp, UINT64_MAX);
    engine_stop(e, NULL);
    free(empty);
    free(puzzle);
    free(first);
    free(first2);
}

/* A second thread's job: wait until the solver has listed `after` solutions, then raise the
 * flag (or give up once the solve has returned without it, which fails the case). */
typedef struct raiser {
    watch *w;
    unsigned long after;
    atomic_int done; /* set by the solving thread when the solve returned */
} raiser;

static void *raise_later(void *arg)
{
    raiser *r = arg;
    while (atomic_load(&r->w->seen) < r->after && !atomic_load(&r->done))
        sched_yield();
    *r->w->flag = 1;
    return NULL;
}

/* The flag raised by another thread once the listing is under way ends it. */
static void check_thread(engine *e, const sb_geometry *g, const char *what)
{
    const int nc = sb_geometry_cells(g);
    uint8_t *empty = calloc((size_t)nc, 1);
    volatile sig_atomic_t flag = 0;
    watch w = {.flag = &flag, .ncells = nc};
    raiser rz = {.w = &w, .after = 3};
    pthread_t t;
    sb_gresult r;
    engine_stop(e, &flag);
    cr_assert_eq(pthread_create(&t, NULL, raise_later, &rz), 0);
    const int st = engine_each(e, empty, 0, &w, &r);
    atomic_store(&rz.done, 1);
    pthread_join(t, NULL);
    cr_assert_eq(st, SB_ERR_STOPPED, "%s: thread", what);
    cr_assert_geq(r.count, 3, "%s", what);
    engine_stop(e, NULL);
    free(empty);
}

/* Runs check_engine (and check_thread) on the general solver of each spec at level. */
static void general_on(const char *const *specs, size_t n, int level, int threads)
{
    for (size_t i = 0; i < n; i++) {
        sb_geometry *g = geo(specs[i]);
        engine e = general(g, level);
        char what[64];
        snprintf(what, sizeof what, "general %s at %s", specs[i], sb_simd_name(level));
        check_engine(&e, g, what);
        if (threads)
            check_thread(&e, g, what);
        engine_free(&e);
        sb_geometry_free(g);
    }
}

Test(gstop, general_per_cell)
{
    static const char *const specs[] = {"2x3", "3x3", "4x4", "5x5", "latin:6", "x:3x3"};
    general_on(specs, sizeof specs / sizeof *specs, SB_SIMD_SCALAR, 0);
    general_on(specs + 1, 1, SB_SIMD_SCALAR, 1);
}

Test(gstop, box16_every_level)
{
    static const char *const specs[] = {"4x4", "2x8", "8x2"};
    static const int levels[] = {SB_SIMD_SSE4, SB_SIMD_AVX2, SB_SIMD_AVX512, SB_SIMD_NEON};
    int ran = 0;
    for (size_t l = 0; l < sizeof levels / sizeof *levels; l++)
        if (sb_simd_supported(levels[l])) {
            general_on(specs, sizeof specs / sizeof *specs, levels[l], 1);
            ran++;
        }
    cr_assert_gt(ran, 0, "no SIMD level to run the 16-digit kernel at");
}

Test(gstop, gpipeline)
{
    static const char *const specs[] = {"2x3", "3x3", "4x4", "latin:5"};
    static const char *const names[] = {"list", "array", "restart", "restart:ns,hs,lc,nt,ht"};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        sb_geometry *g = geo(specs[i]);
        const int big = sb_geometry_cells(g) > 81; /* one pipeline there: seconds per sweep set */
        for (size_t k = 0; k < (big ? 1 : sizeof names / sizeof *names); k++) {
            engine e = pipeline(g, names[k]);
            char what[96];
            snprintf(what, sizeof what, "pipeline %s on %s", names[k], specs[i]);
            check_engine(&e, g, what);
            if (k == 0)
                check_thread(&e, g, what);
            engine_free(&e);
        }
        sb_geometry_free(g);
    }
}
