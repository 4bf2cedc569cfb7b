/*
 * test_gdataset.c — the generator and augmenter on any geometry (sb_ggenerator, sb_gaugment
 * and their batch calls, src/generate/gdataset.c): puzzles unique and minimal by the
 * dancing-links oracle (dlx.c, which shares no code with the library), solutions checked by
 * the rules, the same rows for any thread count, transforms that keep solution counts, the
 * error for a geometry with no full grid, and the stop flag.
 */
#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dlx.h"
#include "sudokubench.h"

/* A geometry and its house list as plain ints, for the oracle. */
typedef struct geo {
    sb_geometry *g;
    int nc, n, nh; /* cells, digits, houses */
    int *houses;   /* house h is houses[h*n .. +n) */
} geo;

/* Makes a geometry from a spec, or from a geometry file's text when text starts with a
 * letter other than a spec's, and copies its houses out. */
static geo geo_make(const char *spec)
{
    geo G = {0};
    char why[SB_GEO_WHY_LEN] = "";
    int rc;
    if (!strncmp(spec, "jigsaw", 6) || !strncmp(spec, "houses", 6)) {
        FILE *f = fmemopen((void *)spec, strlen(spec), "r");
        cr_assert_not_null(f);
        rc = sb_geometry_read(f, "t.geo", &G.g, why, sizeof why);
        fclose(f);
    } else {
        rc = sb_geometry_parse(spec, &G.g, why, sizeof why);
    }
    cr_assert_eq(rc, SB_OK, "%s: %s", spec, why);
    G.nc = sb_geometry_cells(G.g);
    G.n = sb_geometry_digits(G.g);
    G.nh = sb_geometry_houses(G.g);
    G.houses = malloc((size_t)G.nh * (size_t)G.n * sizeof *G.houses);
    cr_assert_not_null(G.houses);
    for (int h = 0; h < G.nh; h++) {
        const uint16_t *cells = sb_geometry_house(G.g, h);
        for (int i = 0; i < G.n; i++)
            G.houses[h * G.n + i] = cells[i];
    }
    return G;
}

static void geo_free(geo *G)
{
    sb_geometry_free(G->g);
    free(G->houses);
}

/* @return the oracle's solution count of cells up to limit (0: all). */
static uint64_t oracle(const geo *G, const uint8_t *cells, uint64_t limit, uint8_t *first)
{
    return dlx_count(G->nc, G->n, G->nh, G->houses, cells, limit, first);
}

/* The geometries every property is checked on: small enough for the oracle's minimality
 * check (one count per given). */
static const char *const specs[] = {
    "2x2", "2x3", "3x2", "3x3", "latin:5", "cube:2", "cube:3", "x:2x2", "x:2x3", "x:3x3",
    "jigsaw 6\nAAABBB\nAAABBB\nCCCDDD\nCCCFFD\nEEEDDF\nEEEFFF\n",
};
#define NSPECS (sizeof specs / sizeof specs[0])

/* Checks that puzzle has exactly one solution, solution, and that every given is needed. */
static void unique_and_minimal(const geo *G, const uint8_t *puzzle, const uint8_t *solution,
                               const sb_ggenerated *info, const char *what)
{
    uint8_t *p = malloc((size_t)G->nc), *first = malloc((size_t)G->nc);
    cr_assert(p && first);
    cr_assert_eq(oracle(G, puzzle, 2, first), 1, "%s: not unique", what);
    cr_assert_eq(memcmp(first, solution, (size_t)G->nc), 0, "%s: solution is not the one", what);
    cr_assert_eq(sb_gsolution_check(G->g, puzzle, solution), 1, "%s: solution breaks a rule", what);
    int clues = 0;
    memcpy(p, puzzle, (size_t)G->nc);
    for (int c = 0; c < G->nc; c++) {
        if (!p[c])
            continue;
        clues++;
        p[c] = 0;
        cr_assert_eq(oracle(G, p, 2, NULL), 2, "%s: given at cell %d is not needed", what, c);
        p[c] = puzzle[c];
    }
    if (info)
        cr_assert_eq(info->clues, clues, "%s: clues %d, counted %d", what, info->clues, clues);
    free(p);
    free(first);
}

Test(gdataset, puzzles_are_unique_and_minimal_with_a_valid_solution)
{
    for (size_t s = 0; s < NSPECS; s++) {
        geo G = geo_make(specs[s]);
        sb_ggenerator *gen;
        char why[SB_GEO_WHY_LEN];
        cr_assert_eq(sb_ggenerator_new(G.g, 7, &gen, why, sizeof why), SB_OK, "%s", why);
        cr_assert_eq(sb_ggenerator_geometry(gen), G.g);
        uint8_t *puzzle = malloc((size_t)G.nc), *solution = malloc((size_t)G.nc);
        for (uint64_t i = 0; i < 6; i++) {
            sb_ggenerated info;
            char what[128];
            snprintf(what, sizeof what, "%s #%llu", sb_geometry_name(G.g), (unsigned long long)i);
            cr_assert_eq(sb_ggenerate(gen, i, puzzle, solution, &info), SB_OK, "%s", what);
            unique_and_minimal(&G, puzzle, solution, &info, what);
        }
        free(puzzle);
        free(solution);
        sb_ggenerator_free(gen);
        geo_free(&G);
    }
}

/* sb_ggenerator_simd: every level this CPU runs makes the default level's puzzles, solutions
 * and guesses (16x16 switches between box16's stamps and, at scalar, the per-cell engine;
 * 3x3 between the 9x9 kernels); a level the CPU lacks is refused and the generator goes on
 * as it was. */
Test(gdataset, every_simd_level_makes_the_same_puzzles)
{
    static const char *const sp[] = {"4x4", "3x3", "2x3"};
    for (size_t s = 0; s < sizeof sp / sizeof sp[0]; s++) {
        geo G = geo_make(sp[s]);
        const size_t nc = (size_t)G.nc;
        enum { N = 3 };
        uint8_t *want = malloc(N * 2 * nc), *got = malloc(2 * nc);
        uint64_t want_guesses[N];
        sb_ggenerator *gen;
        cr_assert_eq(sb_ggenerator_new(G.g, 5, &gen, NULL, 0), SB_OK);
        for (uint64_t i = 0; i < N; i++) {
            sb_ggenerated info;
            cr_assert_eq(sb_ggenerate(gen, i, want + 2 * nc * i, want + 2 * nc * i + nc, &info),
                         SB_OK);
            want_guesses[i] = info.guesses;
        }
        int lacked = -1;
        for (int lv = SB_SIMD_SCALAR; lv < SB_SIMD_LEVELS; lv++) {
            if (!sb_simd_supported(lv)) {
                lacked = lv;
                continue;
            }
            cr_assert_eq(sb_ggenerator_simd(gen, lv), SB_OK, "%s", sb_simd_name(lv));
            for (uint64_t i = 0; i < N; i++) {
                sb_ggenerated info;
                cr_assert_eq(sb_ggenerate(gen, i, got, got + nc, &info), SB_OK);
                cr_assert_eq(memcmp(got, want + 2 * nc * i, 2 * nc), 0, "%s at %s, #%llu: "
                             "another puzzle or solution", sp[s], sb_simd_name(lv),
                             (unsigned long long)i);
                cr_assert_eq(info.guesses, want_guesses[i], "%s at %s: guesses", sp[s],
                             sb_simd_name(lv));
            }
        }
        cr_assert_geq(lacked, 0, "every SIMD level supported: none to refuse");
        cr_assert_eq(sb_ggenerator_simd(gen, lacked), SB_ERR_SIMD, "%s", sb_simd_name(lacked));
        cr_assert_eq(sb_ggenerator_simd(gen, 99), SB_ERR_SIMD);
        cr_assert_eq(sb_ggenerate(gen, 0, got, got + nc, NULL), SB_OK);
        cr_assert_eq(memcmp(got, want, 2 * nc), 0, "%s: after a refused level", sp[s]);
        sb_ggenerator_free(gen);
        free(want);
        free(got);
        geo_free(&G);
    }
}

/* The bytes `sudokubench generate --grid 2x2 --seed 11` wrote before the generator moved into
 * the library (its first two lines): the move keeps every (seed, index)'s puzzle. */
Test(gdataset, a_seed_keeps_the_puzzles_the_cli_made)
{
    geo G = geo_make("2x2");
    sb_ggenerator *gen;
    cr_assert_eq(sb_ggenerator_new(G.g, 11, &gen, NULL, 0), SB_OK);
    static const char *const want[2] = {"..3..21.2....3..", "...2.4....3....1"};
    for (int i = 0; i < 2; i++) {
        uint8_t p[16];
        char text[17];
        cr_assert_eq(sb_ggenerate(gen, (uint64_t)i, p, NULL, NULL), SB_OK);
        cr_assert_eq(sb_gformat(G.g, p, SB_GFORM_CHARS, text, sizeof text), 16);
        cr_assert_str_eq(text, want[i], "index %d", i);
    }
    sb_ggenerator_free(gen);
    geo_free(&G);
}

Test(gdataset, the_9x9_geometry_generates_and_augments_as_3x3)
{
    geo G = geo_make("3x3");
    sb_ggenerator *a, *b;
    cr_assert_eq(sb_ggenerator_new(NULL, 3, &a, NULL, 0), SB_ERR_ARG);
    cr_assert_null(a);
    cr_assert_eq(sb_ggenerator_new(sb_geometry_9x9(), 3, &a, NULL, 0), SB_OK);
    cr_assert_eq(sb_ggenerator_new(G.g, 3, &b, NULL, 0), SB_OK);
    cr_assert_str_eq(sb_geometry_name(sb_ggenerator_geometry(a)), "3x3");
    uint8_t pa[81], pb[81], sa[81], sb[81], ta[81], tb[81];
    cr_assert_eq(sb_ggenerate(a, 5, pa, sa, NULL), SB_OK);
    cr_assert_eq(sb_ggenerate(b, 5, pb, sb, NULL), SB_OK);
    cr_assert_eq(memcmp(pa, pb, 81), 0);
    cr_assert_eq(memcmp(sa, sb, 81), 0);
    cr_assert_eq(sb_gaugment(sb_geometry_9x9(), 9, 4, pa, ta), SB_OK);
    cr_assert_eq(sb_gaugment(G.g, 9, 4, pa, tb), SB_OK);
    cr_assert_eq(memcmp(ta, tb, 81), 0);
    sb_ggenerator_free(a);
    sb_ggenerator_free(b);
    geo_free(&G);
}

Test(gdataset, batch_rows_are_the_same_for_any_thread_count)
{
    const char *const batch_specs[] = {"2x3", "x:3x3", "cube:3", specs[NSPECS - 1]};
    enum { N = 12 };
    for (size_t s = 0; s < sizeof batch_specs / sizeof batch_specs[0]; s++) {
        geo G = geo_make(batch_specs[s]);
        const size_t nc = (size_t)G.nc;
        uint8_t *p1 = calloc(N, nc), *s1 = calloc(N, nc), *p3 = calloc(N, nc), *s3 = calloc(N, nc);
        uint64_t g1[N], g3[N];
        cr_assert_eq(sb_ggenerate_batch(G.g, 21, 100, N, 1, p1, s1, g1, NULL), SB_OK);
        cr_assert_eq(sb_ggenerate_batch(G.g, 21, 100, N, 3, p3, s3, g3, NULL), SB_OK);
        cr_assert_eq(memcmp(p1, p3, N * nc), 0, "%s: puzzles differ", batch_specs[s]);
        cr_assert_eq(memcmp(s1, s3, N * nc), 0, "%s: solutions differ", batch_specs[s]);
        cr_assert_eq(memcmp(g1, g3, sizeof g1), 0, "%s: guesses differ", batch_specs[s]);
        /* Row i is index first + i of sb_ggenerate. */
        sb_ggenerator *gen;
        cr_assert_eq(sb_ggenerator_new(G.g, 21, &gen, NULL, 0), SB_OK);
        uint8_t *p = malloc(nc), *sol = malloc(nc);
        for (int i = 0; i < N; i++) {
            sb_ggenerated info;
            cr_assert_eq(sb_ggenerate(gen, 100 + (uint64_t)i, p, sol, &info), SB_OK);
            cr_assert_eq(memcmp(p, p1 + i * nc, nc), 0, "%s row %d", batch_specs[s], i);
            cr_assert_eq(memcmp(sol, s1 + i * nc, nc), 0, "%s row %d", batch_specs[s], i);
            cr_assert_eq(info.guesses, g1[i]);
        }
        /* Augmenting: the same for any thread count, row i = sb_gaugment of input i mod n. */
        uint8_t *a1 = calloc(40, nc), *a3 = calloc(40, nc);
        cr_assert_eq(sb_gaugment_batch(G.g, p1, N, 5, 7, 40, 1, a1, NULL), SB_OK);
        cr_assert_eq(sb_gaugment_batch(G.g, p1, N, 5, 7, 40, 3, a3, NULL), SB_OK);
        cr_assert_eq(memcmp(a1, a3, 40 * nc), 0, "%s: augment rows differ", batch_specs[s]);
        for (int i = 0; i < 40; i++) {
            cr_assert_eq(sb_gaugment(G.g, 5, 7 + (uint64_t)i, p1 + (size_t)((7 + i) % N) * nc, p), SB_OK);
            cr_assert_eq(memcmp(p, a1 + i * nc, nc), 0, "%s augment row %d", batch_specs[s], i);
        }
        free(a1);
        free(a3);
        free(p);
        free(sol);
        sb_ggenerator_free(gen);
        free(p1);
        free(s1);
        free(p3);
        free(s3);
        geo_free(&G);
    }
}

Test(gdataset, augment_keeps_solution_counts_and_maps_the_solution)
{
    for (size_t s = 0; s < NSPECS; s++) {
        geo G = geo_make(specs[s]);
        const size_t nc = (size_t)G.nc;
        sb_ggenerator *gen;
        cr_assert_eq(sb_ggenerator_new(G.g, 1, &gen, NULL, 0), SB_OK);
        uint8_t *p = malloc(nc), *sol = malloc(nc), *tp = malloc(nc), *ts = malloc(nc);
        uint8_t *loose = malloc(nc), *tl = malloc(nc);
        cr_assert_eq(sb_ggenerate(gen, 0, p, sol, NULL), SB_OK);
        /* A puzzle with several solutions (a minimal one less three givens), few enough
         * for the oracle to count them all. */
        memcpy(loose, p, nc);
        for (size_t c = 0, k = 0; c < nc && k < 3; c++)
            if (loose[c]) {
                loose[c] = 0;
                k++;
            }
        const uint64_t many = oracle(&G, loose, 0, NULL);
        cr_assert_gt(many, 1);
        int moved = 0;
        for (uint64_t i = 0; i < 8; i++) {
            cr_assert_eq(sb_gaugment(G.g, 3, i, p, tp), SB_OK);
            cr_assert_eq(sb_gaugment(G.g, 3, i, sol, ts), SB_OK);
            cr_assert_eq(sb_gaugment(G.g, 3, i, loose, tl), SB_OK);
            cr_assert_eq(sb_gsolution_check(G.g, tp, ts), 1, "%s #%llu: the solution does not map",
                         specs[s], (unsigned long long)i);
            cr_assert_eq(oracle(&G, tp, 2, NULL), 1, "%s: transformed puzzle not unique", specs[s]);
            cr_assert_eq(oracle(&G, tl, 0, NULL), many, "%s: solution count changed", specs[s]);
            int clues = 0, tclues = 0;
            for (size_t c = 0; c < nc; c++) {
                clues += p[c] != 0;
                tclues += tp[c] != 0;
            }
            cr_assert_eq(clues, tclues);
            moved |= memcmp(p, tp, nc) != 0;
        }
        cr_assert(moved, "%s: 8 transforms left the puzzle as it was", specs[s]);
        /* A cell above N is refused, and so is writing over the input. */
        memcpy(tl, p, nc);
        tl[0] = (uint8_t)(G.n + 1);
        cr_assert_eq(sb_gaugment(G.g, 3, 0, tl, tp), SB_ERR_ARG);
        cr_assert_eq(sb_gaugment(G.g, 3, 0, p, p), SB_ERR_ARG);
        cr_assert_eq(sb_gaugment_batch(G.g, tl, 1, 3, 0, 1, 1, tp, NULL), SB_ERR_ARG);
        free(p);
        free(sol);
        free(tp);
        free(ts);
        free(loose);
        free(tl);
        sb_ggenerator_free(gen);
        geo_free(&G);
    }
}

/* x:1x2 and x:1x3 (the diagonals cannot both hold every digit) and a 2x2 jigsaw whose regions
 * are the diagonals have no full grid: the generator says so instead of drawing fills forever. */
Test(gdataset, a_geometry_without_a_full_grid_is_an_error)
{
    static const char *const none[] = {"x:1x2", "x:1x3", "jigsaw 2\nab\nba\n"};
    for (size_t s = 0; s < sizeof none / sizeof none[0]; s++) {
        geo G = geo_make(none[s]);
        sb_ggenerator *gen = (sb_ggenerator *)&G; /* must be reset to NULL */
        char why[SB_GEO_WHY_LEN];
        cr_assert_eq(oracle(&G, (const uint8_t[16]){0}, 1, NULL), 0, "%s has a grid", none[s]);
        cr_assert_eq(sb_ggenerator_new(G.g, 1, &gen, why, sizeof why), SB_ERR_ARG, "%s", none[s]);
        cr_assert_null(gen);
        char want[SB_GEO_WHY_LEN];
        snprintf(want, sizeof want, "%s has no full grid", sb_geometry_name(G.g));
        cr_assert(strstr(why, want), "%s: why is '%s'", none[s], why);
        uint8_t p[16];
        cr_assert_eq(sb_ggenerate_batch(G.g, 1, 0, 2, 1, p, NULL, NULL, NULL), SB_ERR_ARG);
        geo_free(&G);
    }
}

Test(gdataset, bad_arguments)
{
    geo G = geo_make("2x2");
    sb_ggenerator *gen;
    uint8_t p[16] = {0}, q[16];
    cr_assert_eq(sb_ggenerator_new(G.g, 1, NULL, NULL, 0), SB_ERR_ARG);
    cr_assert_eq(sb_ggenerator_new(G.g, 1, &gen, NULL, 0), SB_OK);
    cr_assert_eq(sb_ggenerate(NULL, 0, p, NULL, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_ggenerate(gen, 0, NULL, NULL, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_gaugment(G.g, 0, 0, NULL, q), SB_ERR_ARG);
    cr_assert_eq(sb_gaugment(G.g, 0, 0, p, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_ggenerate_batch(G.g, 1, UINT64_MAX, 2, 1, q, NULL, NULL, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_ggenerate_batch(G.g, 1, 0, 1, 1, NULL, NULL, NULL, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_gaugment_batch(G.g, p, 0, 1, 0, 1, 1, q, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_gaugment_batch(G.g, p, 1, 1, UINT64_MAX, 2, 1, q, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_ggenerate_batch(G.g, 1, 0, 0, 1, NULL, NULL, NULL, NULL), SB_OK);
    cr_assert_eq(sb_gaugment_batch(G.g, NULL, 0, 1, 0, 0, 1, NULL, NULL), SB_OK);
    sb_ggenerator_stop(NULL, NULL);
    sb_ggenerator_free(gen);
    sb_ggenerator_free(NULL);
    geo_free(&G);
}

Test(gdataset, a_raised_stop_flag_ends_a_call_with_its_outputs_untouched)
{
    static volatile sig_atomic_t stop = 1;
    geo G = geo_make("2x3");
    sb_ggenerator *gen;
    cr_assert_eq(sb_ggenerator_new(G.g, 1, &gen, NULL, 0), SB_OK);
    sb_ggenerator_stop(gen, &stop);
    uint8_t p[36], sol[36], rows[3 * 36];
    memset(p, 0xEE, sizeof p);
    memset(sol, 0xEE, sizeof sol);
    sb_ggenerated info = {.clues = -5};
    cr_assert_eq(sb_ggenerate(gen, 0, p, sol, &info), SB_ERR_STOPPED);
    for (int c = 0; c < 36; c++)
        cr_assert(p[c] == 0xEE && sol[c] == 0xEE);
    cr_assert_eq(info.clues, -5);
    /* Lowered again, the same generator makes the puzzle it makes without a flag. */
    sb_ggenerator_stop(gen, NULL);
    cr_assert_eq(sb_ggenerate(gen, 0, p, sol, NULL), SB_OK);
    memset(rows, 0xEE, sizeof rows);
    cr_assert_eq(sb_ggenerate_batch(G.g, 1, 0, 3, 2, rows, NULL, NULL, &stop), SB_ERR_STOPPED);
    for (size_t c = 0; c < sizeof rows; c++)
        cr_assert_eq(rows[c], 0xEE);
    cr_assert_eq(sb_gaugment_batch(G.g, p, 1, 1, 0, 3, 2, rows, &stop), SB_ERR_STOPPED);
    for (size_t c = 0; c < sizeof rows; c++)
        cr_assert_eq(rows[c], 0xEE);
    sb_ggenerator_free(gen);
    geo_free(&G);
}

/* One generation of latin:36 on a thread of its own. */
typedef struct long_job {
    sb_ggenerator *gen;
    uint8_t *puzzle;
    int rc;
} long_job;

static void *long_generate(void *arg)
{
    long_job *j = arg;
    j->rc = sb_ggenerate(j->gen, 0, j->puzzle, NULL, NULL);
    return NULL;
}

/* A puzzle of latin:36 cannot be finished in any reasonable time (its uniqueness checks
 * grow exponentially as the digging goes on: seconds each after ~400 of 1296 cells): a
 * flag raised while one is being made must end it, whatever point it reached. */
Test(gdataset, a_stop_flag_raised_during_one_puzzle_ends_it)
{
    static volatile sig_atomic_t stop;
    geo G = geo_make("latin:36");
    long_job j = {.puzzle = malloc(1296)};
    cr_assert_eq(sb_ggenerator_new(G.g, 1, &j.gen, NULL, 0), SB_OK);
    sb_ggenerator_stop(j.gen, &stop);
    memset(j.puzzle, 0xEE, 1296);
    pthread_t t;
    clockid_t cpu;
    cr_assert_eq(pthread_create(&t, NULL, long_generate, &j), 0);
    cr_assert_eq(pthread_getcpuclockid(t, &cpu), 0);
    /* Past its fill and into the digging: 0.3 s of the thread's own CPU time (a readiness
     * condition, not a time limit: a slow machine only waits longer). */
    for (struct timespec used = {0}; used.tv_sec == 0 && used.tv_nsec < 300000000;
         sched_yield())
        clock_gettime(cpu, &used);
    stop = 1;
    pthread_join(t, NULL);
    cr_assert_eq(j.rc, SB_ERR_STOPPED);
    for (int c = 0; c < 1296; c++)
        cr_assert_eq(j.puzzle[c], 0xEE);
    sb_ggenerator_free(j.gen);
    free(j.puzzle);
    geo_free(&G);
}

/* ---- options: symmetric clue patterns and clue bounds (sb_ggen_options) ------------------ */

/* The image of cell c under sym on G, worked out here from the geometry's shape (not with
 * sb_symmetry_image): the N x N picture of a square geometry, or each plane of a cube. */
static int image_of(const geo *G, int sym, int c)
{
    sb_geometry_layout l; /* a cube's rows are K, a square grid's N */
    sb_geometry_layout_of(G->g, &l);
    const int side = l.rows, plane = side * side;
    const int base = c / plane * plane, r = c % plane / side, k = c % side, last = side - 1;
    int r2 = r, k2 = k;
    if (sym == SB_SYM_ROT180)
        r2 = last - r, k2 = last - k;
    else if (sym == SB_SYM_ROT90) /* (r, k) goes to (k, last - r): a quarter turn clockwise */
        r2 = k, k2 = last - r;
    else if (sym == SB_SYM_MIRROR)
        k2 = last - k;
    else if (sym == SB_SYM_DIAGONAL)
        r2 = k, k2 = r;
    return base + r2 * side + k2;
}

/* Checks a puzzle made under sym: unique with that solution (the oracle), its givens a
 * pattern sym keeps, and minimal among such patterns (blanking any orbit of givens leaves
 * 2+ solutions by the oracle). @return its clue count. */
static int symmetric_unique_minimal(const geo *G, int sym, const uint8_t *puzzle,
                                    const uint8_t *solution, const char *what)
{
    uint8_t *p = malloc((size_t)G->nc), *first = malloc((size_t)G->nc);
    cr_assert(p && first);
    cr_assert_eq(oracle(G, puzzle, 2, first), 1, "%s: not unique", what);
    cr_assert_eq(memcmp(first, solution, (size_t)G->nc), 0, "%s: not its solution", what);
    int clues = 0;
    for (int c = 0; c < G->nc; c++) {
        clues += puzzle[c] != 0;
        cr_assert_eq(puzzle[c] != 0, puzzle[image_of(G, sym, c)] != 0,
                     "%s: cell %d and its image %d differ", what, c, image_of(G, sym, c));
    }
    for (int c = 0; c < G->nc; c++) {
        if (!puzzle[c])
            continue;
        memcpy(p, puzzle, (size_t)G->nc);
        for (int x = c, k = 0; k < 4; k++, x = image_of(G, sym, x)) /* the orbit of c */
            p[x] = 0;
        cr_assert_eq(oracle(G, p, 2, NULL), 2, "%s: the orbit of cell %d is not needed", what,
                     c);
    }
    free(p);
    free(first);
    return clues;
}

/* Geometry and symmetry pairs that suit each other (every house goes onto a house). */
static const struct {
    const char *spec;
    int sym;
} suits[] = {
    {"2x2", SB_SYM_ROT180},  {"2x2", SB_SYM_ROT90},    {"2x2", SB_SYM_MIRROR},
    {"2x2", SB_SYM_DIAGONAL}, {"2x3", SB_SYM_ROT180},  {"2x3", SB_SYM_MIRROR},
    {"3x2", SB_SYM_ROT180},  {"latin:5", SB_SYM_ROT90}, {"latin:5", SB_SYM_DIAGONAL},
    {"x:2x2", SB_SYM_ROT90}, {"x:3x3", SB_SYM_ROT180}, {"cube:3", SB_SYM_ROT90},
    {"cube:3", SB_SYM_ROT180}, {"jigsaw 4\nAABB\nAABB\nCCDD\nCCDD\n", SB_SYM_ROT90},
};

Test(gdataset, symmetric_puzzles_are_symmetric_unique_and_minimal)
{
    for (size_t s = 0; s < sizeof suits / sizeof suits[0]; s++) {
        geo G = geo_make(suits[s].spec);
        sb_ggen_options opt;
        sb_ggen_options_default(&opt);
        opt.seed = 9;
        opt.symmetry = suits[s].sym;
        char why[SB_GEO_WHY_LEN];
        cr_assert_eq(sb_gsymmetry_check(G.g, opt.symmetry, why, sizeof why), SB_OK, "%s: %s",
                     suits[s].spec, why);
        sb_ggenerator *gen;
        cr_assert_eq(sb_ggenerator_new_opts(G.g, &opt, &gen, why, sizeof why), SB_OK, "%s", why);
        uint8_t *puzzle = malloc((size_t)G.nc), *solution = malloc((size_t)G.nc);
        for (uint64_t i = 0; i < 4; i++) {
            sb_ggenerated info;
            char what[128];
            snprintf(what, sizeof what, "%s %s #%llu", sb_geometry_name(G.g),
                     sb_symmetry_name(opt.symmetry), (unsigned long long)i);
            cr_assert_eq(sb_ggenerate(gen, i, puzzle, solution, &info), SB_OK, "%s", what);
            cr_assert_eq(sb_gsolution_check(G.g, puzzle, solution), 1, "%s", what);
            const int clues = symmetric_unique_minimal(&G, opt.symmetry, puzzle, solution, what);
            cr_assert_eq(info.clues, clues, "%s: clues %d, counted %d", what, info.clues, clues);
            cr_assert_eq(info.attempts, 1, "%s", what);
        }
        free(puzzle);
        free(solution);
        sb_ggenerator_free(gen);
        geo_free(&G);
    }
}

Test(gdataset, symmetries_that_do_not_suit_a_geometry_are_refused_with_the_reason)
{
    static const struct {
        const char *spec;
        int sym;
        const char *why;
    } bad[] = {
        {"2x3", SB_SYM_ROT90, "rot90 does not suit 2x3: it maps house "},
        {"2x3", SB_SYM_DIAGONAL, "diagonal does not suit 2x3: it maps house "},
        {"jigsaw 6\nAAABBB\nAAABBB\nCCCDDD\nCCCFFD\nEEEDDF\nEEEFFF\n", SB_SYM_ROT180,
         "rot180 does not suit jigsaw:6: it maps house "},
        {"houses 4 2\n0 1\n2 3\n0 2\n1 3\n", SB_SYM_ROT180,
         "houses:4:2 has no grid picture for rot180 to act on"},
    };
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
        geo G = geo_make(bad[b].spec);
        char why[SB_GEO_WHY_LEN] = "";
        cr_assert_eq(sb_gsymmetry_check(G.g, bad[b].sym, why, sizeof why), SB_ERR_ARG);
        cr_assert(!strncmp(why, bad[b].why, strlen(bad[b].why)), "got '%s', want '%s...'", why,
                  bad[b].why);
        sb_ggen_options opt;
        sb_ggen_options_default(&opt);
        opt.symmetry = bad[b].sym;
        sb_ggenerator *gen = (sb_ggenerator *)&opt; /* must come back NULL */
        char why2[SB_GEO_WHY_LEN] = "";
        cr_assert_eq(sb_ggenerator_new_opts(G.g, &opt, &gen, why2, sizeof why2), SB_ERR_ARG);
        cr_assert_null(gen);
        cr_assert_str_eq(why2, why);
        uint8_t p[64];
        cr_assert_eq(sb_ggenerate_batch_opts(G.g, &opt, 0, 1, 1, p, NULL, NULL, NULL),
                     SB_ERR_ARG);
        /* none always suits */
        cr_assert_eq(sb_gsymmetry_check(G.g, SB_SYM_NONE, NULL, 0), SB_OK);
        geo_free(&G);
    }
    /* 9x9 (NULL) takes every symmetry; an unknown one is refused everywhere. */
    for (int sym = 0; sym < SB_SYM_COUNT; sym++)
        cr_assert_eq(sb_gsymmetry_check(sb_geometry_9x9(), sym, NULL, 0), SB_OK);
    cr_assert_eq(sb_gsymmetry_check(NULL, SB_SYM_COUNT, NULL, 0), SB_ERR_ARG);
}

/* Default options give the puzzles of sb_ggenerator_new, and so does a bound no puzzle
 * passes (max_clues = cells): the options change the digging, never attempt 1's grid. */
Test(gdataset, default_options_and_a_loose_bound_keep_the_puzzles)
{
    geo G = geo_make("2x3");
    sb_ggen_options opt;
    sb_ggen_options_default(&opt);
    opt.seed = 11;
    sb_ggenerator *plain, *loose;
    cr_assert_eq(sb_ggenerator_new(G.g, 11, &plain, NULL, 0), SB_OK);
    opt.max_clues = G.nc;
    cr_assert_eq(sb_ggenerator_new_opts(G.g, &opt, &loose, NULL, 0), SB_OK);
    for (uint64_t i = 0; i < 8; i++) {
        uint8_t a[36], b[36];
        cr_assert_eq(sb_ggenerate(plain, i, a, NULL, NULL), SB_OK);
        cr_assert_eq(sb_ggenerate(loose, i, b, NULL, NULL), SB_OK);
        cr_assert_eq(memcmp(a, b, sizeof a), 0, "index %llu", (unsigned long long)i);
    }
    sb_ggenerator_free(plain);
    sb_ggenerator_free(loose);
    geo_free(&G);
}

Test(gdataset, clue_bounds_are_honoured_or_reported_unreachable)
{
    const char *const bound_specs[] = {"2x2", "2x3", "latin:5", "cube:2"};
    for (size_t s = 0; s < sizeof bound_specs / sizeof bound_specs[0]; s++) {
        geo G = geo_make(bound_specs[s]);
        const size_t nc = (size_t)G.nc;
        /* The fewest clues of 8 plain puzzles: a bound some candidates meet. */
        enum { N = 8 };
        uint8_t *p = calloc(N, nc), *sol = calloc(N, nc);
        int fewest = G.nc;
        cr_assert_eq(sb_ggenerate_batch(G.g, 3, 0, N, 1, p, NULL, NULL, NULL), SB_OK);
        for (size_t i = 0; i < N * nc; i += nc) {
            int clues = 0;
            for (size_t c = 0; c < nc; c++)
                clues += p[i + c] != 0;
            fewest = clues < fewest ? clues : fewest;
        }
        sb_ggen_options opt;
        sb_ggen_options_default(&opt);
        opt.seed = 3;
        opt.max_clues = fewest;
        char why[SB_GEO_WHY_LEN];
        sb_ggenerator *gen;
        cr_assert_eq(sb_ggenerator_new_opts(G.g, &opt, &gen, why, sizeof why), SB_OK, "%s", why);
        for (uint64_t i = 0; i < N; i++) {
            sb_ggenerated info;
            char what[96];
            snprintf(what, sizeof what, "%s --clues %d #%llu", bound_specs[s], fewest,
                     (unsigned long long)i);
            cr_assert_eq(sb_ggenerate(gen, i, p, sol, &info), SB_OK, "%s", what);
            cr_assert_leq(info.clues, fewest, "%s: %d clues", what, info.clues);
            cr_assert_geq(info.attempts, 1);
            unique_and_minimal(&G, p, sol, &info, what);
        }
        /* The same rows for any thread count, with the bound. */
        uint8_t *b1 = calloc(N, nc), *b3 = calloc(N, nc);
        cr_assert_eq(sb_ggenerate_batch_opts(G.g, &opt, 40, N, 1, b1, NULL, NULL, NULL), SB_OK);
        cr_assert_eq(sb_ggenerate_batch_opts(G.g, &opt, 40, N, 3, b3, NULL, NULL, NULL), SB_OK);
        cr_assert_eq(memcmp(b1, b3, N * nc), 0, "%s: rows differ with the thread count",
                     bound_specs[s]);
        sb_ggenerator_free(gen);
        /* N-1 givens: no minimal puzzle of these is that small in 3 candidates; the last
         * candidate comes back whole, a proper minimal puzzle. */
        opt.max_clues = G.n - 1;
        opt.max_attempts = 3;
        cr_assert_eq(sb_ggenerator_new_opts(G.g, &opt, &gen, why, sizeof why), SB_OK, "%s", why);
        sb_ggenerated info;
        const int st = sb_ggenerate(gen, 0, p, sol, &info);
        if (st == SB_GGEN_MISSED) {
            cr_assert_eq(info.attempts, 3);
            cr_assert_gt(info.clues, G.n - 1);
        } else {
            cr_assert_eq(st, SB_OK);
            cr_assert_leq(info.clues, G.n - 1);
        }
        unique_and_minimal(&G, p, sol, &info, bound_specs[s]);
        cr_assert_eq(sb_ggenerate_batch_opts(G.g, &opt, 0, 1, 1, b1, NULL, NULL, NULL),
                     st == SB_OK ? SB_OK : SB_ERR_BUDGET);
        sb_ggenerator_free(gen);
        /* Below N-1, or above the cells: refused with the reason. */
        opt.max_clues = G.n - 2;
        cr_assert_eq(sb_ggenerator_new_opts(G.g, &opt, &gen, why, sizeof why), SB_ERR_ARG);
        cr_assert(strstr(why, "infeasible"), "%s", why);
        opt.max_clues = G.nc + 1;
        cr_assert_eq(sb_ggenerator_new_opts(G.g, &opt, &gen, why, sizeof why), SB_ERR_ARG);
        cr_assert(strstr(why, "outside"), "%s", why);
        opt.max_clues = 0;
        opt.max_attempts = 0;
        cr_assert_eq(sb_ggenerator_new_opts(G.g, &opt, &gen, why, sizeof why), SB_ERR_ARG);
        free(p);
        free(sol);
        free(b1);
        free(b3);
        geo_free(&G);
    }
}
