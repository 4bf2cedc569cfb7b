/*
 * test_engine.c — the engine table (sb_engine, src/engine/engine.c): which row each (geometry,
 * pipeline, level) gets, every row's counts and first solutions against the dancing-links
 * oracle (dlx.c) on house lists written here, enumeration (every solution once, valid, in the
 * order the 0.1 engines give), 9x9 through the engine equal to sb_solve and sb_solve_batch,
 * counters, and the documented errors.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlx.h"
#include "sudokubench.h"

/* A house list typed without the library: boxed RxC (houses rows, columns, boxes) or latin
 * (box_rows 0: rows and columns). */
typedef struct hl {
    int ncells, n, nh;
    int h[48 * 16]; /* room for 4x4's 48 houses of 16 */
} hl;

/* Fills H for an n x n grid with boxes of br x bc (br 0: none). House h's cells go in
 * h[h*n ..]: row r is {n*r + i}, column c is {n*i + c}, box b is its br x bc block. */
static void make_houses(hl *H, int n, int br, int bc)
{
    H->ncells = n * n;
    H->n = n;
    H->nh = br ? 3 * n : 2 * n;
    for (int k = 0; k < n; k++)
        for (int i = 0; i < n; i++) {
            H->h[k * n + i] = n * k + i;
            H->h[(n + k) * n + i] = n * i + k;
            if (br)
                H->h[(2 * n + k) * n + i] =
                    n * (k / (n / bc) * br + i / bc) + k % (n / bc) * bc + i % bc;
        }
}

/* 1 when sol solves puzzle (may be NULL) under H, checked without the library. */
static int valid(const hl *H, const uint8_t *puzzle, const uint8_t *sol)
{
    for (int c = 0; c < H->ncells; c++)
        if (sol[c] < 1 || sol[c] > H->n || (puzzle && puzzle[c] && puzzle[c] != sol[c]))
            return 0;
    for (int h = 0; h < H->nh; h++) {
        uint64_t seen = 0;
        for (int i = 0; i < H->n; i++)
            seen |= UINT64_C(1) << sol[H->h[h * H->n + i]];
        if (seen != ((UINT64_C(1) << H->n) - 1) << 1)
            return 0;
    }
    return 1;
}

/* One case: a geometry spec and its typed house list. */
typedef struct gcase {
    const char *spec;
    int n, br, bc;
} gcase;

static sb_geometry *geo(const char *spec)
{
    sb_geometry *g = NULL;
    char why[SB_GEO_WHY_LEN] = "";
    cr_assert_eq(sb_geometry_parse(spec, &g, why, sizeof why), SB_OK, "%s: %s", spec, why);
    return g;
}

static sb_options opts(const char *pipeline, int simd)
{
    sb_options o;
    sb_options_default(&o);
    cr_assert_eq(sb_options_pipeline(&o, pipeline), SB_OK, "%s", pipeline);
    o.simd = simd;
    return o;
}

/* The row an engine for (g, pipeline, simd) runs, asserting it was made. */
static const char *row_of(const sb_geometry *g, const char *pipeline, int simd)
{
    sb_options o = opts(pipeline, simd);
    sb_engine *e = NULL;
    const int rc = sb_engine_new(g, &o, &e);
    cr_assert_eq(rc, SB_OK, "%s on %s: %s", pipeline, sb_geometry_name(g),
                 sb_strerror(rc));
    static char name[32];
    snprintf(name, sizeof name, "%s", sb_engine_name(e));
    sb_engine_free(e);
    return name;
}

/* A level above scalar this CPU has, or -1. */
static int vector_level(void)
{
    for (int l = SB_SIMD_SCALAR + 1; l < SB_SIMD_LEVELS; l++)
        if (sb_simd_supported(l))
            return l;
    return -1;
}

Test(engine, every_row_is_reachable_and_chosen_as_documented)
{
    size_t n;
    const sb_engine_info *rows = sb_engines(&n);
    /* The plugin row is first and taken only with sb_options.plugin set: a loaded shared
     * object, which tests/cli/plugins.sh gives it (build/plugins). */
    const char *const want[] = {"plugin", "9x9", "box16", "general", "pipeline"};
    cr_assert_eq(n, 5);
    for (size_t i = 0; i < n; i++) {
        cr_assert_str_eq(rows[i].name, want[i]);
        cr_assert(rows[i].about && strlen(rows[i].about) > 20, "%s has no about", want[i]);
    }
    sb_geometry *g33 = geo("3x3"), *g44 = geo("4x4"), *g28 = geo("2x8"), *g82 = geo("8x2");
    sb_geometry *g23 = geo("2x3"), *lat = geo("latin:5"), *x33 = geo("x:3x3");
    sb_geometry *g55 = geo("5x5"), *cube = geo("cube:4");
    const sb_geometry *nine = sb_geometry_9x9();
    /* The 9x9 grid as a bare house list (no layout): same houses, but not the 9x9 row. */
    hl H;
    make_houses(&H, 9, 3, 3);
    sb_geometry *list9 = NULL;
    char why[SB_GEO_WHY_LEN];
    cr_assert_eq(sb_geometry_from_houses(81, 9, 27, H.h, "nine", &list9, why, sizeof why), SB_OK);

    int seen[5] = {0};
    const int vec = vector_level();
    struct {
        const sb_geometry *g;
        const char *pipeline;
        int simd;
        const char *row;
    } cases[] = {
        {nine, "fast", SB_SIMD_SCALAR, "9x9"},
        {nine, "list", SB_SIMD_AUTO, "9x9"},
        {nine, "restart:ns,hs", SB_SIMD_AUTO, "9x9"},
        {g33, "fast", SB_SIMD_AUTO, "9x9"},
        {g33, "none", SB_SIMD_SCALAR, "9x9"},
        {g44, "fast", SB_SIMD_SCALAR, "general"},
        {g28, "fast", SB_SIMD_SCALAR, "general"},
        {g23, "fast", SB_SIMD_AUTO, "general"},
        {lat, "fast", SB_SIMD_AUTO, "general"},
        {x33, "fast", SB_SIMD_AUTO, "general"},
        {g55, "fast", SB_SIMD_AUTO, "general"},
        {cube, "fast", SB_SIMD_AUTO, "general"},
        {list9, "fast", SB_SIMD_AUTO, "general"},
        {g44, "list", SB_SIMD_AUTO, "pipeline"},
        {g23, "array:ns,hs,lc", SB_SIMD_SCALAR, "pipeline"},
        {lat, "singles", SB_SIMD_AUTO, "pipeline"},
        {list9, "list", SB_SIMD_AUTO, "pipeline"},
        {g44, "fast", vec, "box16"},
        {g28, "fast", vec, "box16"},
        {g82, "fast", vec, "box16"},
    };
    const size_t nc = sizeof cases / sizeof cases[0] - (vec < 0 ? 3 : 0);
    if (vec < 0)
        fprintf(stderr, "note: no SIMD level above scalar here: the box16 row is not reached\n");
    for (size_t i = 0; i < nc; i++) {
        const char *got = row_of(cases[i].g, cases[i].pipeline, cases[i].simd);
        cr_assert_str_eq(got, cases[i].row, "%s on %s at %s", cases[i].pipeline,
                         sb_geometry_name(cases[i].g),
                         sb_simd_name(cases[i].simd));
        for (int r = 0; r < 5; r++)
            seen[r] |= !strcmp(got, want[r]);
    }
    cr_assert(!seen[0], "the plugin row taken without a plug-in");
    for (int r = 1; r < 5; r++)
        cr_assert(seen[r] || (r == 2 && vec < 0), "row %s never chosen", want[r]);
    sb_geometry *all[] = {g33, g44, g28, g82, g23, lat, x33, g55, cube, list9};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        sb_geometry_free(all[i]);
}

/* A deterministic stream for picking blanks (the test's own, not the library's RNG). */
static uint64_t next(uint64_t *s)
{
    *s = *s * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
    return *s >> 33;
}

/* Blanks from lo to hi percent of the cells, spread over the puzzles of a case. */
typedef struct blanks {
    int lo, hi;
} blanks;

/* Puzzle k of a case: the oracle's first full grid with digits relabelled by k and a share
 * of the cells from b blanked (more or fewer by k, so a case meets unique puzzles and puzzles
 * with several solutions); every fourth one gets two clashing givens. */
static void puzzle(const hl *H, const uint8_t *full, int k, blanks b, uint8_t *p)
{
    uint64_t s = (uint64_t)k * 977 + 13;
    const int blank_pct = b.lo + k * 7 % (b.hi - b.lo + 1);
    for (int c = 0; c < H->ncells; c++)
        p[c] = (uint8_t)((full[c] - 1 + k) % H->n + 1);
    for (int c = 0; c < H->ncells; c++)
        if ((int)(next(&s) % 100) < blank_pct)
            p[c] = 0;
    if (k % 4 == 3) { /* row 0's first two cells the same digit: no solution */
        p[0] = 1;
        p[1] = 1;
    }
}

/* sb_engine_solve_many on a case's puzzles (and one refused, a cell above N) gives what one
 * sb_engine_solve per puzzle gives: status, count, guesses and first solution. */
static void many_agrees(sb_engine *e, const hl *H, blanks b, const uint8_t *full, int puzzles,
                        uint64_t limit, const char *spec)
{
    const size_t nc = (size_t)H->ncells, n = (size_t)puzzles + 1;
    uint8_t *all = malloc(n * nc), *first = malloc(n * nc), *one = malloc(nc);
    sb_gresult *res = malloc(n * sizeof *res);
    int *st = malloc(n * sizeof *st);
    for (int k = 0; k < puzzles; k++)
        puzzle(H, full, k, b, all + (size_t)k * nc);
    memset(all + (n - 1) * nc, 0, nc);
    all[(n - 1) * nc] = (uint8_t)(H->n + 1);
    memset(first, 0xAA, n * nc);
    cr_assert_eq(sb_engine_solve_many(e, all, n, limit, res, first, st), SB_OK);
    for (size_t k = 0; k < n; k++) {
        sb_gresult r;
        memset(one, 0xAA, nc);
        const int rc = sb_engine_solve(e, all + k * nc, limit, &r, one);
        cr_assert_eq(st[k], rc, "%s many #%zu: status %d, one solve %d", spec, k, st[k], rc);
        cr_assert_eq(res[k].count, r.count, "%s many #%zu: count", spec, k);
        cr_assert_eq(res[k].guesses, r.guesses, "%s many #%zu: guesses", spec, k);
        cr_assert_eq(memcmp(first + k * nc, one, nc), 0, "%s many #%zu: first solution", spec, k);
    }
    cr_assert_eq(st[n - 1], SB_ERR_ARG, "%s: the refused puzzle", spec);
    free(all);
    free(first);
    free(one);
    free(res);
    free(st);
}

/* sb_engine_solve_candidates against the oracle on the solvable puzzles of a case: the givens'
 * own candidates count as the givens do; a blank cell c cut to the digit d of the oracle's
 * first solution counts as the puzzle with d given at c; c cut to every digit but d counts the
 * rest (the whole count less that one, checked where the counts are complete). Every first
 * solution is valid and inside the candidates. */
static void candidates_agree(sb_engine *e, const hl *H, blanks b, const uint8_t *full,
                             int puzzles, const char *spec)
{
    enum { CAP = 5000 };
    const size_t nc = (size_t)H->ncells;
    const uint64_t all = H->n == 64 ? UINT64_MAX : (UINT64_C(1) << H->n) - 1;
    uint8_t *p = malloc(nc), *q = malloc(nc), *want = malloc(nc), *got = malloc(nc);
    uint64_t *cand = malloc(nc * sizeof *cand);
    int checked = 0;
    for (int k = 0; k < puzzles; k++) {
        puzzle(H, full, k, b, p);
        const uint64_t count = dlx_count(H->ncells, H->n, H->nh, H->h, p, CAP, want);
        int c0 = -1;
        for (int c = 0; c < H->ncells && c0 < 0; c++)
            if (!p[c])
                c0 = c;
        if (!count || count == CAP || c0 < 0)
            continue;
        memcpy(q, p, nc);
        q[c0] = want[c0];
        const uint64_t with = dlx_count(H->ncells, H->n, H->nh, H->h, q, CAP, NULL);
        for (int mode = 0; mode < 3; mode++) {
            for (int c = 0; c < H->ncells; c++)
                cand[c] = p[c] ? UINT64_C(1) << (p[c] - 1) : all;
            const uint64_t d = UINT64_C(1) << (want[c0] - 1);
            if (mode == 1)
                cand[c0] = d;
            if (mode == 2)
                cand[c0] = all & ~d;
            const uint64_t expect = mode == 0 ? count : mode == 1 ? with : count - with;
            sb_gresult r;
            const int rc = sb_engine_solve_candidates(e, cand, 0, &r, got);
            cr_assert_eq(rc, SB_OK, "%s cand #%d/%d: %s", spec, k, mode, sb_strerror(rc));
            cr_assert_eq(r.count, expect, "%s cand #%d/%d: %llu, oracle %llu", spec, k, mode,
                         (unsigned long long)r.count, (unsigned long long)expect);
            if (r.count) {
                cr_assert(valid(H, p, got), "%s cand #%d/%d: invalid first solution", spec, k,
                          mode);
                for (int c = 0; c < H->ncells; c++)
                    cr_assert(cand[c] >> (got[c] - 1) & 1, "%s cand #%d/%d: cell %d outside "
                              "its candidates", spec, k, mode, c);
            }
        }
        checked++;
    }
    cr_assert_gt(checked, 0, "%s: no solvable puzzle to start from candidates", spec);
    free(p);
    free(q);
    free(want);
    free(got);
    free(cand);
}

/* What one row must give on one geometry: counts and first solutions as the oracle's (the
 * first solution a valid one, equal to the oracle's when unique), up to limit. */
static void row_agrees(const char *spec, int n, int br, int bc, const char *pipeline, int simd,
                       const char *row, int puzzles, blanks b, uint64_t limit)
{
    sb_geometry *g = geo(spec);
    hl *H = malloc(sizeof *H);
    make_houses(H, n, br, bc);
    const size_t nc = (size_t)H->ncells;
    uint8_t *full = calloc(nc, 1), *p = malloc(nc), *want = malloc(nc), *got = malloc(nc);
    cr_assert_eq(dlx_count(H->ncells, n, H->nh, H->h, full, 1, full), 1);
    sb_options o = opts(pipeline, simd);
    sb_engine *e = NULL;
    cr_assert_eq(sb_engine_new(!strcmp(spec, "3x3") ? sb_geometry_9x9() : g, &o, &e), SB_OK);
    cr_assert_str_eq(sb_engine_name(e), row);
    unsigned kinds = 0; /* bit 0: a puzzle without solution, 1: a unique one, 2: several */
    for (int k = 0; k < puzzles; k++) {
        puzzle(H, full, k, b, p);
        const uint64_t count = dlx_count(H->ncells, n, H->nh, H->h, p, limit, want);
        kinds |= 1u << (count < 2 ? count : 2);
        sb_gresult res;
        memset(got, 0xAA, nc);
        const int rc = sb_engine_solve(e, p, limit, &res, got);
        cr_assert_eq(rc, SB_OK, "%s %s #%d: %s", spec, pipeline, k, sb_strerror(rc));
        cr_assert_eq(res.count, count, "%s %s #%d: %llu solutions, oracle %llu", spec,
                     pipeline, k, (unsigned long long)res.count, (unsigned long long)count);
        if (count)
            cr_assert(valid(H, p, got), "%s %s #%d: first solution invalid", spec, pipeline, k);
        else
            for (size_t c = 0; c < nc; c++)
                cr_assert_eq(got[c], 0xAA, "%s %s #%d: first written with no solution", spec,
                             pipeline, k);
        if (count == 1)
            cr_assert_eq(memcmp(got, want, nc), 0, "%s %s #%d: not the oracle's solution",
                         spec, pipeline, k);
    }
    cr_assert_eq(kinds, 7, "%s: the puzzles must have 0, 1 and several solutions", spec);
    many_agrees(e, H, b, full, puzzles, limit, spec);
    candidates_agree(e, H, b, full, puzzles, spec);
    sb_engine_free(e);
    free(full);
    free(p);
    free(want);
    free(got);
    free(H);
    sb_geometry_free(g);
}

Test(engine, row_9x9_agrees_with_the_oracle)
{
    row_agrees("3x3", 9, 3, 3, "fast", SB_SIMD_AUTO, "9x9", 24, (blanks){30, 65}, 20);
    row_agrees("3x3", 9, 3, 3, "list", SB_SIMD_AUTO, "9x9", 24, (blanks){30, 65}, 20);
}

Test(engine, row_box16_agrees_with_the_oracle)
{
    const int vec = vector_level();
    if (vec < 0) {
        fprintf(stderr, "note: no SIMD level above scalar here: box16 untested\n");
        return;
    }
    row_agrees("4x4", 16, 4, 4, "fast", vec, "box16", 12, (blanks){20, 55}, 8);
    row_agrees("2x8", 16, 2, 8, "fast", SB_SIMD_AUTO, "box16", 12, (blanks){20, 55}, 8);
}

Test(engine, row_general_agrees_with_the_oracle)
{
    row_agrees("4x4", 16, 4, 4, "fast", SB_SIMD_SCALAR, "general", 12, (blanks){20, 55}, 8);
    row_agrees("2x3", 6, 2, 3, "fast", SB_SIMD_AUTO, "general", 40, (blanks){35, 70}, 0);
    row_agrees("latin:5", 5, 0, 0, "fast", SB_SIMD_AUTO, "general", 40, (blanks){35, 70}, 0);
}

Test(engine, row_pipeline_agrees_with_the_oracle)
{
    row_agrees("2x3", 6, 2, 3, "list", SB_SIMD_AUTO, "pipeline", 40, (blanks){35, 70}, 0);
    row_agrees("latin:5", 5, 0, 0, "restart:ns,hs,nt2", SB_SIMD_AUTO, "pipeline", 40,
               (blanks){35, 70}, 0);
    row_agrees("3x4", 12, 3, 4, "array", SB_SIMD_AUTO, "pipeline", 12, (blanks){25, 60}, 10);
}

/* ---- enumeration ---- */

typedef struct listing {
    size_t nc;     /* cells per solution */
    size_t n, cap; /* solutions kept */
    uint8_t *sol;  /* n solutions of nc cells, in the order given */
    int bad_index; /* an index out of order was seen */
} listing;

static int keep(const uint8_t *sol, uint64_t index, void *user)
{
    listing *l = user;
    if (index != l->n)
        l->bad_index = 1;
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->sol = realloc(l->sol, l->cap * l->nc);
        cr_assert_not_null(l->sol);
    }
    memcpy(l->sol + l->n++ * l->nc, sol, l->nc);
    return 0;
}

static size_t cells_of;
static int cmp_sol(const void *a, const void *b)
{
    return memcmp(a, b, cells_of);
}

/* Lists the solutions of p with engine e: exactly the oracle's count, each valid, none twice;
 * @return the listing (caller frees sol). */
static listing list_all(sb_engine *e, const hl *H, const uint8_t *p, uint64_t count)
{
    listing l = {.nc = (size_t)H->ncells};
    sb_gresult res;
    const int rc = sb_engine_each(e, p, 0, keep, &l, &res);
    cr_assert_eq(rc, SB_OK, "%s: %s", sb_engine_name(e), sb_strerror(rc));
    cr_assert_eq(res.count, count, "%s: %llu listed, oracle %llu", sb_engine_name(e),
                 (unsigned long long)res.count, (unsigned long long)count);
    cr_assert_eq(l.n, count);
    cr_assert_not(l.bad_index);
    uint8_t *sorted = malloc(l.n * l.nc + 1);
    if (l.n) /* no solution: l.sol is NULL, which memcpy may not take even for 0 bytes */
        memcpy(sorted, l.sol, l.n * l.nc);
    cells_of = l.nc;
    qsort(sorted, l.n, l.nc, cmp_sol);
    for (size_t i = 0; i < l.n; i++) {
        cr_assert(valid(H, p, sorted + i * l.nc), "%s: solution %zu invalid", sb_engine_name(e), i);
        if (i)
            cr_assert_neq(memcmp(sorted + (i - 1) * l.nc, sorted + i * l.nc, l.nc), 0,
                          "%s: a solution listed twice", sb_engine_name(e));
    }
    free(sorted);
    return l;
}

/* Every solution once on each row; the order of the 0.1 engine the row stands for (the
 * order `solve --all` writes): the 9x9 row lists as sb_gsolve_each / sb_gpipeline_each on
 * the 3x3 geometry, box16 as the general solver. */
static void each_case(const char *spec, int n, int br, int bc, const char *pipeline, int simd,
                      const char *row, blanks b)
{
    sb_geometry *g = geo(spec);
    hl *H = malloc(sizeof *H);
    make_houses(H, n, br, bc);
    const size_t nc = (size_t)H->ncells;
    uint8_t *full = calloc(nc, 1), *p = malloc(nc);
    cr_assert_eq(dlx_count(H->ncells, n, H->nh, H->h, full, 1, full), 1);
    sb_options o = opts(pipeline, simd);
    sb_engine *e = NULL;
    const int nine = !strcmp(spec, "3x3");
    cr_assert_eq(sb_engine_new(nine ? sb_geometry_9x9() : g, &o, &e), SB_OK);
    cr_assert_str_eq(sb_engine_name(e), row);
    /* The reference order: the general solver per cell, or the generic pipeline on g. */
    sb_gsolver *gs = NULL;
    sb_gpipeline *gp = NULL;
    if (!strcmp(pipeline, "fast")) {
        cr_assert_eq(sb_gsolver_new(g, &gs), SB_OK);
        cr_assert_eq(sb_gsolver_simd(gs, SB_SIMD_SCALAR), SB_OK);
    } else {
        cr_assert_eq(sb_gpipeline_new(g, pipeline, &gp), SB_OK);
    }
    int several = 0;
    for (int k = 0; k < 6; k++) {
        puzzle(H, full, k, b, p);
        const uint64_t count = dlx_count(H->ncells, n, H->nh, H->h, p, 5000, NULL);
        cr_assert_lt(count, 5000, "%s #%d: too many solutions for this test", spec, k);
        several += count > 1;
        listing got = list_all(e, H, p, count);
        listing want = {.nc = nc};
        sb_gresult res;
        const int rc = gs ? sb_gsolve_each(gs, p, 0, keep, &want, &res)
                          : sb_gpipeline_each(gp, p, 0, keep, &want, &res);
        cr_assert_eq(rc, SB_OK);
        cr_assert_eq(want.n, got.n);
        cr_assert(!got.n || !memcmp(want.sol, got.sol, got.n * nc),
                  "%s %s #%d: order differs from the 0.1 engine's", spec, pipeline, k);
        /* A limit cuts the same listing short. */
        if (count > 2) {
            listing cut = {.nc = nc};
            cr_assert_eq(sb_engine_each(e, p, 2, keep, &cut, &res), SB_OK);
            cr_assert_eq(res.count, 2);
            cr_assert_eq(memcmp(cut.sol, got.sol, 2 * nc), 0);
            free(cut.sol);
        }
        free(got.sol);
        free(want.sol);
    }
    cr_assert_geq(several, 3, "%s: too few puzzles with several solutions", spec);
    sb_gsolver_free(gs);
    sb_gpipeline_free(gp);
    sb_engine_free(e);
    free(full);
    free(p);
    free(H);
    sb_geometry_free(g);
}

Test(engine, each_lists_every_solution_once_in_the_old_order)
{
    each_case("3x3", 9, 3, 3, "fast", SB_SIMD_AUTO, "9x9", (blanks){45, 62});
    each_case("3x3", 9, 3, 3, "list", SB_SIMD_AUTO, "9x9", (blanks){45, 62});
    each_case("2x3", 6, 2, 3, "fast", SB_SIMD_AUTO, "general", (blanks){50, 75});
    each_case("latin:5", 5, 0, 0, "singles", SB_SIMD_AUTO, "pipeline", (blanks){50, 75});
    each_case("4x4", 16, 4, 4, "fast", SB_SIMD_SCALAR, "general", (blanks){30, 45});
    const int vec = vector_level();
    if (vec >= 0)
        each_case("4x4", 16, 4, 4, "fast", vec, "box16", (blanks){30, 45});
}

/* ---- 9x9 through the engine is sb_solve ---- */

/* Reads up to max 9x9 puzzles of a sample file into cells. @return how many. */
static size_t samples(const char *path, uint8_t *cells, size_t max)
{
    FILE *in = fopen(path, "r");
    cr_assert_not_null(in, "%s", path);
    char line[256];
    size_t n = 0;
    while (n < max && fgets(line, sizeof line, in)) {
        sb_grid gr;
        if (sb_parse_line(line, strcspn(line, "\r\n"), &gr, NULL, NULL) == SB_LINE_PUZZLE)
            memcpy(cells + SB_CELLS * n++, gr.cell, SB_CELLS);
    }
    fclose(in);
    return n;
}

Test(engine, nine_by_nine_equals_sb_solve_for_every_pipeline_and_limit)
{
    enum { MAX = 16 };
    uint8_t *cells = malloc(SB_CELLS * MAX);
    size_t n = samples("datasets/samples/top1465.txt", cells, MAX);
    cr_assert_gt(n, 10);
    cells[0] = cells[1] = 0; /* a few with several solutions */
    memset(cells + SB_CELLS, 0, 40);
    size_t np;
    sb_pipelines(&np);
    int lv[SB_SIMD_LEVELS], nl = 0;
    for (int l = 0; l < SB_SIMD_LEVELS; l++)
        if (sb_simd_supported(l))
            lv[nl++] = l;
    for (size_t p = 0; p < np; p++)
        for (int li = 0; li < nl; li++) {
            if (p != 0 && li > 0)
                break; /* the generic pipelines run the same C at every level */
            sb_options o;
            sb_options_default(&o);
            o.pipeline = (int)p;
            o.simd = lv[li];
            sb_engine *e = NULL;
            cr_assert_eq(sb_engine_new(sb_geometry_9x9(), &o, &e), SB_OK);
            cr_assert_str_eq(sb_engine_name(e), "9x9");
            const uint64_t limits[] = {2, 1, 0, 2};
            for (size_t k = 0; k < 4; k++) {
                sb_solver *s = NULL;
                o.limit = limits[k];
                cr_assert_eq(sb_solver_new(&s, &o), SB_OK);
                for (size_t i = 0; i < n; i++) {
                    if (limits[k] == 0 && i < 2)
                        continue; /* too many solutions to count all */
                    sb_result want;
                    sb_gresult got;
                    uint8_t first[SB_CELLS] = {0};
                    const int ws = sb_solve(s, (const sb_grid *)(cells + SB_CELLS * i), &want);
                    const int gs = sb_engine_solve(e, cells + SB_CELLS * i, limits[k], &got, first);
                    cr_assert_eq(gs, ws);
                    cr_assert_eq(got.count, want.count, "pipeline %zu #%zu", p, i);
                    cr_assert_eq(got.guesses, want.guesses, "pipeline %zu #%zu", p, i);
                    cr_assert_eq(memcmp(first, want.solution.cell, SB_CELLS), 0);
                }
                sb_solver_free(s);
            }
            /* Technique counters: the engine's equal its solvers' over the same solves, also
             * across the limit changes that make its 9x9 solver again. */
            sb_technique_counts ec[SB_TECH_COUNT], c1[SB_TECH_COUNT], c2[SB_TECH_COUNT];
            sb_engine_counts_reset(e);
            sb_solver *s1 = NULL, *s = NULL;
            o.limit = 1;
            cr_assert_eq(sb_solver_new(&s1, &o), SB_OK);
            o.limit = 2;
            cr_assert_eq(sb_solver_new(&s, &o), SB_OK);
            for (size_t i = 2; i < n; i++) {
                sb_result r;
                sb_gresult gr;
                sb_solve(s1, (const sb_grid *)(cells + SB_CELLS * i), &r);
                sb_solve(s, (const sb_grid *)(cells + SB_CELLS * i), &r);
                sb_engine_solve(e, cells + SB_CELLS * i, 1, &gr, NULL);
                sb_engine_solve(e, cells + SB_CELLS * i, 2, &gr, NULL);
            }
            sb_engine_counts(e, ec);
            sb_solver_counts(s1, c1);
            sb_solver_counts(s, c2);
            for (int t = 0; t < SB_TECH_COUNT; t++) {
                cr_assert_eq(ec[t].eliminations, c1[t].eliminations + c2[t].eliminations,
                             "pipeline %zu tech %d", p, t);
                cr_assert_eq(ec[t].placements, c1[t].placements + c2[t].placements);
                cr_assert_eq(ec[t].applications, c1[t].applications + c2[t].applications);
                if (p == 0)
                    cr_assert_eq(ec[t].eliminations, 0, "fast keeps no counters");
                else if (t == SB_TECH_NAKED_SINGLE && strstr(sb_pipelines(&np)[p].spec, "ns"))
                    cr_assert_gt(ec[t].eliminations, 0, "pipeline %zu counts nothing", p);
            }
            sb_solver_free(s1);
            sb_engine_counts_reset(e);
            sb_engine_counts(e, ec);
            for (int t = 0; t < SB_TECH_COUNT; t++)
                cr_assert_eq(ec[t].eliminations + ec[t].placements + ec[t].applications, 0);
            cr_assert_eq(sb_engine_skipped(e), 0);
            sb_solver_free(s);
            sb_engine_free(e);
        }
    free(cells);
}

Test(engine, gsolve_batch_of_9x9_equals_sb_solve_batch)
{
    enum { MAX = 40 };
    uint8_t *cells = malloc(SB_CELLS * MAX);
    size_t n = samples("datasets/samples/17_clue_2000.txt", cells, MAX);
    cells[SB_CELLS * 3 + 5] = 12; /* a refused row */
    memset(cells + SB_CELLS * 7, 0, 30);
    sb_geometry *g33 = geo("3x3");
    const char *const pipes[] = {"fast", "list", "restart:ns,hs"};
    for (int p = 0; p < 3; p++)
        for (int search = SB_SEARCH_DFS; search <= SB_SEARCH_BFS; search++)
            for (int threads = 1; threads <= 2; threads++) {
                sb_options o = opts(pipes[p], SB_SIMD_AUTO);
                o.search = search;
                o.max_guesses = 5000;
                uint64_t c1[MAX], c2[MAX], q1[MAX], q2[MAX];
                uint8_t *s1 = malloc(SB_CELLS * MAX), *s2 = malloc(SB_CELLS * MAX);
                int8_t t1[MAX], t2[MAX];
                cr_assert_eq(sb_solve_batch(&o, cells, n, threads, c1, q1, s1, t1), SB_OK);
                for (int which = 0; which < 2; which++) {
                    memset(s2, 0x55, SB_CELLS * MAX);
                    cr_assert_eq(sb_gsolve_batch(which ? g33 : sb_geometry_9x9(), &o, cells, n, threads, c2,
                                                 q2, s2, t2),
                                 SB_OK);
                    cr_assert_eq(memcmp(c1, c2, n * sizeof *c1), 0, "%s counts", pipes[p]);
                    cr_assert_eq(memcmp(q1, q2, n * sizeof *q1), 0, "%s guesses", pipes[p]);
                    cr_assert_eq(memcmp(t1, t2, n), 0, "%s status", pipes[p]);
                    cr_assert_eq(memcmp(s1, s2, n * SB_CELLS), 0, "%s solutions", pipes[p]);
                }
                cr_assert_eq(t1[3], SB_ERR_ARG);
                free(s1);
                free(s2);
            }
    sb_geometry_free(g33);
    free(cells);
}

/* ---- counters and errors ---- */

Test(engine, pipeline_counters_and_skips_are_the_pipelines)
{
    sb_geometry *lat = geo("latin:5"), *g23 = geo("2x3");
    sb_options o = opts("list", SB_SIMD_AUTO);
    sb_engine *e = NULL;
    cr_assert_eq(sb_engine_new(lat, &o, &e), SB_OK);
    cr_assert_eq(sb_engine_skipped(e), 1u << SB_TECH_LOCKED);
    sb_engine_free(e);
    cr_assert_eq(sb_engine_new(g23, &o, &e), SB_OK);
    cr_assert_eq(sb_engine_skipped(e), 0);
    sb_gpipeline *gp = NULL;
    cr_assert_eq(sb_gpipeline_new(g23, "list", &gp), SB_OK);
    const uint8_t p[36] = {1, 0, 0, 0, 0, 6, 0, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0,
                           0, 0, 0, 0, 4, 0, 0, 0, 0, 2, 0, 0, 6, 0, 0, 0, 0, 1};
    sb_gresult a, b;
    cr_assert_eq(sb_engine_solve(e, p, 0, &a, NULL), SB_OK);
    cr_assert_eq(sb_gpipeline_solve(gp, p, 0, &b, NULL), SB_OK);
    cr_assert_eq(a.count, b.count);
    cr_assert_gt(a.count, 0);
    sb_technique_counts ec[SB_TECH_COUNT], pc[SB_TECH_COUNT];
    sb_engine_counts(e, ec);
    sb_gpipeline_counts(gp, pc);
    cr_assert_eq(memcmp(ec, pc, sizeof ec), 0);
    cr_assert_gt(ec[SB_TECH_NAKED_SINGLE].eliminations, 0);
    sb_engine_counts_reset(e);
    sb_engine_counts(e, ec);
    cr_assert_eq(ec[SB_TECH_NAKED_SINGLE].eliminations, 0);
    sb_gpipeline_free(gp);
    sb_engine_free(e);
    /* "fast" keeps none. */
    o = opts("fast", SB_SIMD_AUTO);
    cr_assert_eq(sb_engine_new(g23, &o, &e), SB_OK);
    cr_assert_eq(sb_engine_solve(e, p, 0, &a, NULL), SB_OK);
    sb_engine_counts(e, ec);
    for (int t = 0; t < SB_TECH_COUNT; t++)
        cr_assert_eq(ec[t].eliminations, 0);
    cr_assert_eq(sb_engine_skipped(e), 0);
    sb_engine_free(e);
    sb_geometry_free(lat);
    sb_geometry_free(g23);
}

static int stop_at_first(const uint8_t *sol, uint64_t index, void *user)
{
    (void)sol;
    (void)index;
    (void)user;
    return 1;
}

Test(engine, bad_options_and_arguments_give_the_documented_errors)
{
    sb_geometry *g23 = geo("2x3");
    sb_options o;
    sb_options_default(&o);
    sb_engine *e = (sb_engine *)&o;
    cr_assert_eq(sb_engine_new(g23, NULL, &e), SB_ERR_ARG);
    cr_assert_null(e);
    cr_assert_eq(sb_engine_new(g23, &o, NULL), SB_ERR_ARG);
    o.pipeline = 99;
    cr_assert_eq(sb_engine_new(g23, &o, &e), SB_ERR_PIPELINE);
    cr_assert_eq(sb_engine_new(sb_geometry_9x9(), &o, &e), SB_ERR_PIPELINE);
    o.pipeline = -7;
    cr_assert_eq(sb_engine_new(g23, &o, &e), SB_ERR_PIPELINE);
    o.pipeline = SB_PIPELINE_CUSTOM;
    o.spec = NULL;
    cr_assert_eq(sb_engine_new(g23, &o, &e), SB_ERR_PIPELINE);
    o.spec = "list:ns,zz";
    cr_assert_eq(sb_engine_new(g23, &o, &e), SB_ERR_PIPELINE);
    cr_assert_eq(sb_engine_new(sb_geometry_9x9(), &o, &e), SB_ERR_PIPELINE);
    o.simd = 99; /* the pipeline error comes first */
    cr_assert_eq(sb_engine_new(g23, &o, &e), SB_ERR_PIPELINE);
    sb_options_default(&o);
    o.simd = 99;
    cr_assert_eq(sb_engine_new(g23, &o, &e), SB_ERR_SIMD);
    cr_assert_eq(sb_engine_new(sb_geometry_9x9(), &o, &e), SB_ERR_SIMD);
    o.pipeline = 1;
    cr_assert_eq(sb_engine_new(g23, &o, &e), SB_ERR_SIMD, "pipelines check the level too");
    for (int l = SB_SIMD_SCALAR + 1; l < SB_SIMD_LEVELS; l++)
        if (!sb_simd_supported(l)) {
            o.simd = l;
            cr_assert_eq(sb_engine_new(g23, &o, &e), SB_ERR_SIMD, "%s", sb_simd_name(l));
        }
    sb_options_default(&o);
    o.search = SB_SEARCH_BFS;
    cr_assert_eq(sb_engine_new(g23, &o, &e), SB_ERR_ARG, "BFS beyond 9x9");
    cr_assert_eq(sb_engine_new(sb_geometry_9x9(), &o, &e), SB_OK, "BFS on 9x9");
    sb_engine_free(e);
    o.search = 7;
    cr_assert_eq(sb_engine_new(sb_geometry_9x9(), &o, &e), SB_ERR_ARG);
    /* A registry name given as a custom spec is that pipeline. */
    o.search = SB_SEARCH_DFS;
    o.pipeline = SB_PIPELINE_CUSTOM;
    o.spec = "list";
    cr_assert_eq(sb_engine_new(sb_geometry_9x9(), &o, &e), SB_OK);
    sb_engine_free(e);
    cr_assert_eq(sb_gsolve_batch(g23, &o, NULL, 1, 1, NULL, NULL, NULL, NULL), SB_ERR_ARG);
    o.search = SB_SEARCH_BFS;
    uint8_t p[36] = {0};
    cr_assert_eq(sb_gsolve_batch(g23, &o, p, 1, 1, NULL, NULL, NULL, NULL), SB_ERR_ARG);
    /* Solve arguments. */
    sb_options_default(&o);
    cr_assert_eq(sb_engine_new(g23, &o, &e), SB_OK);
    sb_gresult res;
    p[4] = 7;
    cr_assert_eq(sb_engine_solve(e, p, 2, &res, NULL), SB_ERR_ARG, "a digit above 6");
    cr_assert_eq(sb_engine_each(e, p, 2, stop_at_first, NULL, &res), SB_ERR_ARG);
    p[4] = 0;
    cr_assert_eq(sb_engine_each(e, p, 2, NULL, NULL, &res), SB_ERR_ARG);
    cr_assert_eq(sb_engine_solve(e, NULL, 2, &res, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_engine_solve(e, p, 2, NULL, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_engine_solve(NULL, p, 2, &res, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_engine_each(e, p, 0, stop_at_first, NULL, &res), SB_ERR_STOPPED);
    cr_assert_eq(res.count, 1);
    sb_engine_free(e);
    sb_engine_free(NULL);
    /* Budget and stop flag reach every row. */
    volatile sig_atomic_t stop = 1;
    const char *const pipes[] = {"fast", "list"};
    const char *const specs[] = {"4x4", "3x3", "2x3"};
    uint8_t empty[256] = {0};
    for (int s = 0; s < 3; s++)
        for (int q = 0; q < 2; q++)
            for (int lv = 0; lv < 2; lv++) {
                const int level = lv ? SB_SIMD_AUTO : SB_SIMD_SCALAR;
                sb_geometry *g = geo(specs[s]);
                o = opts(pipes[q], level);
                o.max_guesses = 3;
                cr_assert_eq(sb_engine_new(g, &o, &e), SB_OK);
                cr_assert_eq(sb_engine_solve(e, empty, 0, &res, NULL), SB_ERR_BUDGET, "%s %s %s",
                             specs[s], pipes[q], sb_engine_name(e));
                cr_assert_leq(res.guesses, 3);
                sb_engine_free(e);
                o.max_guesses = UINT64_MAX;
                o.stop = &stop;
                cr_assert_eq(sb_engine_new(g, &o, &e), SB_OK);
                cr_assert_eq(sb_engine_solve(e, empty, 0, &res, NULL), SB_ERR_STOPPED, "%s %s %s",
                             specs[s], pipes[q], sb_engine_name(e));
                sb_engine_free(e);
                sb_geometry_free(g);
            }
    sb_geometry_free(g23);
}

Test(engine, a_spec_is_parsed_once_by_sb_options_pipeline)
{
    /* Engines made from options that sb_options_pipeline filled run the spec as it was parsed
     * then: the spec's text is not read again (here it is overwritten with one that does not
     * parse), and the counts, guesses and counters are those of the spec as given. */
    enum { MAX = 20 };
    uint8_t *cells = malloc(SB_CELLS * MAX);
    const size_t n = samples("datasets/samples/top1465.txt", cells, MAX);
    char spec[32] = "restart:ns,hs,lc,xw";
    sb_options o;
    sb_options_default(&o);
    cr_assert_eq(sb_options_pipeline(&o, spec), SB_OK);
    sb_engine *before = NULL, *after = NULL;
    cr_assert_eq(sb_engine_new(sb_geometry_9x9(), &o, &before), SB_OK);
    strcpy(spec, "restart:nope");
    cr_assert_eq(sb_engine_new(sb_geometry_9x9(), &o, &after), SB_OK, "the spec was parsed again");
    sb_geometry *g44 = geo("4x4");
    sb_engine *e44 = NULL;
    cr_assert_eq(sb_engine_new(g44, &o, &e44), SB_OK, "the pipeline row parsed the spec again");
    sb_engine_free(e44);
    for (size_t i = 0; i < n; i++) {
        sb_gresult a, b;
        cr_assert_eq(sb_engine_solve(before, cells + i * SB_CELLS, 2, &a, NULL), SB_OK);
        cr_assert_eq(sb_engine_solve(after, cells + i * SB_CELLS, 2, &b, NULL), SB_OK);
        cr_assert_eq(a.count, b.count);
        cr_assert_eq(a.guesses, b.guesses);
    }
    sb_technique_counts ca[SB_TECH_COUNT], cb[SB_TECH_COUNT];
    sb_engine_counts(before, ca);
    sb_engine_counts(after, cb);
    cr_assert_eq(memcmp(ca, cb, sizeof ca), 0);
    cr_assert_gt(ca[SB_TECH_XWING].calls, 0, "xw ran");
    /* options changed after the parse are parsed afresh: the overwritten spec is refused */
    sb_options changed = o;
    char other[32] = "restart:nope";
    changed.spec = other;
    sb_engine *bad = (sb_engine *)1;
    cr_assert_eq(sb_engine_new(sb_geometry_9x9(), &changed, &bad), SB_ERR_PIPELINE);
    sb_engine_free(before);
    sb_engine_free(after);
    sb_geometry_free(g44);
    free(cells);
}
