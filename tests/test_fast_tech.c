/*
 * test_fast_tech.c — "fast+T[,T...]": the fused kernel with techniques on its own board
 * (src/kernel/kernel_tech.h). Against the DLX oracle and plain "fast" on the sample corpora
 * (17-clue, hardest 11+, several-solution puzzles), at every SIMD level this CPU runs; the
 * guesses of one spec are the same at every level; every application keeps the solution's
 * digits (a check hook on the internal entries); specs outside the native set are refused.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../src/internal.h"
#include "dlx.h"
#include "reference.h"
#include "test_util.h"

/* Puzzles per corpus: enough for every technique to fire many times, few enough for qemu. */
enum { PER_CORPUS = 100, NPUZ = 3 * PER_CORPUS };

/* Every native technique alone, then one combination of all of them. */
static const char *const specs[] = {"fast+xw",  "fast+sf", "fast+jf", "fast+sky",
                                    "fast+kite", "fast+xy", "fast+xyz", "fast+ww",
                                    "fast+xw,sf,jf,sky,kite,xy,xyz,ww"};
enum { NSPECS = sizeof specs / sizeof specs[0] };

/* The test corpus with its oracle answers. */
typedef struct corpus {
    int n;
    uint8_t cells[NPUZ][SB_CELLS];
    uint8_t first[NPUZ][SB_CELLS]; /* the oracle's first solution */
    uint64_t count[NPUZ];          /* the oracle's count, limit 2 */
} corpus;

/* Appends up to max puzzles of path to c. */
static void load(corpus *c, const char *path, int max)
{
    FILE *in = fopen(path, "r");
    cr_assert_not_null(in, "%s", path);
    char line[256];
    for (int k = 0; k < max && fgets(line, sizeof line, in);) {
        sb_grid gr;
        if (sb_parse_line(line, strcspn(line, "\r\n"), &gr, NULL, NULL) != SB_LINE_PUZZLE)
            continue;
        memcpy(c->cells[c->n++], gr.cell, SB_CELLS);
        k++;
    }
    fclose(in);
}

/* The three corpora, each puzzle counted by DLX (limit 2). */
static corpus *build(void)
{
    corpus *c = calloc(1, sizeof *c);
    cr_assert_not_null(c);
    load(c, "datasets/samples/17_clue_2000.txt", PER_CORPUS);
    load(c, "datasets/samples/hardest_11plus_1000.txt", PER_CORPUS);
    load(c, "datasets/multi/multi_2000_seed1.txt", PER_CORPUS);
    cr_assert_eq(c->n, NPUZ);
    int houses[27 * 9];
    ref_sudoku_houses(houses);
    for (int i = 0; i < c->n; i++)
        c->count[i] = dlx_count(SB_CELLS, 9, 27, houses, c->cells[i], 2, c->first[i]);
    return c;
}

/* A solver for spec at level, search mode m (limit 2). */
static sb_solver *solver(const char *spec, int level, int m)
{
    sb_options o;
    sb_options_default(&o);
    o.simd = level;
    o.search = m;
    cr_assert_eq(sb_options_pipeline(&o, spec), SB_OK, "%s", spec);
    sb_solver *s = NULL;
    cr_assert_eq(sb_solver_new(&s, &o), SB_OK, "%s", spec);
    return s;
}

/* Solutions and counts equal the oracle's (depth- and breadth-first); guesses equal across
 * levels; the techniques save guesses over the corpus; their counters move. */
Test(fast_tech, equals_fast_and_dlx_at_every_level)
{
    corpus *c = build();
    int levels[SB_SIMD_LEVELS];
    const int nl = tu_supported_levels(levels);
    uint64_t fast_guesses = 0;
    sb_solver *f = solver("fast", SB_SIMD_SCALAR, SB_SEARCH_DFS);
    for (int i = 0; i < c->n; i++) {
        sb_result r;
        const sb_grid g = tu_from_cells(c->cells[i]);
        cr_assert_eq(sb_solve(f, &g, &r), SB_OK);
        cr_assert_eq(r.count, c->count[i]);
        fast_guesses += r.guesses;
    }
    sb_solver_free(f);
    uint64_t guesses[NPUZ];
    for (int sp = 0; sp < NSPECS; sp++) {
        uint64_t total = 0;
        for (int li = 0; li < nl; li++) {
            const char *lv = sb_simd_name(levels[li]);
            for (int m = SB_SEARCH_DFS; m <= SB_SEARCH_BFS; m++) {
                sb_solver *s = solver(specs[sp], levels[li], m);
                for (int i = 0; i < c->n; i++) {
                    const sb_grid g = tu_from_cells(c->cells[i]);
                    sb_result r;
                    char t[82];
                    tu_text(c->cells[i], t);
                    cr_assert_eq(sb_solve(s, &g, &r), SB_OK);
                    cr_assert_eq(r.count, c->count[i], "%s %s puzzle %d %s: count %llu, DLX %llu",
                                 specs[sp], lv, i, t, (unsigned long long)r.count,
                                 (unsigned long long)c->count[i]);
                    if (r.count)
                        cr_assert(ref_is_valid_solution(c->cells[i], r.solution.cell),
                                  "%s %s puzzle %d %s: invalid solution", specs[sp], lv, i, t);
                    if (r.count == 1)
                        cr_assert_eq(memcmp(r.solution.cell, c->first[i], SB_CELLS), 0);
                    if (m != SB_SEARCH_DFS)
                        continue;
                    if (li == 0) {
                        guesses[i] = r.guesses;
                        total += r.guesses;
                    }
                    cr_assert_eq(r.guesses, guesses[i], "%s puzzle %d: %s %llu guesses, %s %llu",
                                 specs[sp], i, lv, (unsigned long long)r.guesses,
                                 sb_simd_name(levels[0]), (unsigned long long)guesses[i]);
                }
                sb_technique_counts k[SB_TECH_COUNT];
                sb_solver_counts(s, k);
                uint64_t apps = 0;
                for (int t = 0; t < SB_TECH_COUNT; t++) {
                    apps += k[t].applications;
                    cr_assert_geq(k[t].eliminations, k[t].applications, "%s %s", specs[sp], lv);
                    cr_assert_leq(k[t].placements, k[t].eliminations, "%s %s", specs[sp], lv);
                }
                cr_assert_gt(apps, 0, "%s %s: never applied on the corpus", specs[sp], lv);
                sb_solver_free(s);
            }
        }
        /* Sound techniques only remove what a branch would have had to refute: over this
         * corpus each saves guesses (a measured property of these samples, not a theorem:
         * another board can change the branching cell). */
        cr_assert_leq(total, fast_guesses, "%s: %llu guesses, fast %llu", specs[sp],
                      (unsigned long long)total, (unsigned long long)fast_guesses);
    }
    free(c);
}

/* The check hook's state: the solution every board on the solution path keeps. */
typedef struct sound_ctx {
    const uint8_t *sol;
    uint64_t checked; /* applications on a board holding the solution */
} sound_ctx;

/* Fails when an application on a board still holding the whole solution removes one of its
 * digits. */
static void sound_check(void *user, int t, const uint32_t *w, const uint32_t *el)
{
    sound_ctx *x = user;
    for (int c = 0; c < SB_CELLS; c++) {
        const int d = x->sol[c] - 1;
        if (!(w[4 * d + c / 27] >> (c % 27) & 1u))
            return; /* a board off the solution's path: anything may go */
    }
    x->checked++;
    for (int c = 0; c < SB_CELLS; c++) {
        const int d = x->sol[c] - 1;
        cr_assert_eq(el[4 * d + c / 27] >> (c % 27) & 1u, 0u,
                     "technique %d removed the solution's digit %d from cell %d", t, d + 1, c);
    }
}

/* After every application, the known solution's digits survive (the first oracle solution
 * of a several-solution puzzle too), in every stamp: each supported level's, plus the
 * baseline band stamp, which serves the scalar level where SSE2/NEON exist (solver.c) while
 * the cell-major reference serves it elsewhere. Every stamp makes the same guesses. */
Test(fast_tech, every_application_keeps_the_solution)
{
    typedef void (*tdfs)(sb_board *, const sb_grid *, uint64_t, sb_result *, const sb_fast_tech *);
    static const tdfs entry[SB_SIMD_LEVELS] = {
        [SB_SIMD_SCALAR] = sb_tkernel_dfs_scalar, [SB_SIMD_SSE4] = sb_tkernel_dfs_sse4,
        [SB_SIMD_AVX2] = sb_tkernel_dfs_avx2,     [SB_SIMD_AVX512] = sb_tkernel_dfs_avx512,
        [SB_SIMD_NEON] = sb_tkernel_dfs_neon};
    corpus *c = build();
    int levels[SB_SIMD_LEVELS];
    const int nl = tu_supported_levels(levels);
    tdfs stamps[SB_SIMD_LEVELS + 1];
    const char *names[SB_SIMD_LEVELS + 1];
    for (int li = 0; li < nl; li++) {
        stamps[li] = entry[levels[li]];
        names[li] = sb_simd_name(levels[li]);
    }
    stamps[nl] = sb_tkernel_dfs_base;
    names[nl] = "base";
    sb_board *stack = aligned_alloc(64, 2 * SB_STACK_DEPTH * sizeof *stack);
    cr_assert_not_null(stack);
    uint64_t guesses[NPUZ];
    for (int sp = 0; sp < NSPECS; sp++)
        for (int k = 0; k <= nl; k++) {
            sb_fast_tech ft;
            cr_assert_eq(sb_fast_parse(specs[sp], &ft, NULL, 0), SB_OK);
            sound_ctx x = {0};
            ft.check = sound_check;
            ft.user = &x;
            for (int i = 0; i < c->n; i++) {
                if (!c->count[i])
                    continue;
                x.sol = c->first[i];
                const sb_grid g = tu_from_cells(c->cells[i]);
                sb_search_run run = {.max_guesses = UINT64_MAX};
                stamps[k](stack, &g, 2, &run.res, &ft);
                cr_assert_eq(run.res.count, c->count[i]);
                if (k == 0)
                    guesses[i] = run.res.guesses;
                cr_assert_eq(run.res.guesses, guesses[i], "%s puzzle %d: %s %llu guesses, %s %llu",
                             specs[sp], i, names[k], (unsigned long long)run.res.guesses,
                             names[0], (unsigned long long)guesses[i]);
            }
            cr_assert_gt(x.checked, 0, "%s %s: no application on a solution board", specs[sp],
                         names[k]);
        }
    free(stack);
    free(c);
}

/* Candidates that say more than their givens go to the generic engine with the kernel's
 * techniques and the spec's (solver.c): counts equal the reference count of those marks and
 * the techniques are counted. */
Test(fast_tech, candidates_beyond_the_givens)
{
    corpus *c = build();
    sb_solver *s = solver("fast+xw,sky,xy", SB_SIMD_SCALAR, SB_SEARCH_DFS);
    for (int i = 0; i < c->n; i++) {
        const sb_grid g = tu_from_cells(c->cells[i]);
        uint16_t cand[SB_CELLS];
        sb_grid_candidates(&g, cand);
        /* One more elimination: the first blank cell loses its lowest candidate. */
        int at = 0;
        while (at < SB_CELLS && c->cells[i][at])
            at++;
        cr_assert_lt(at, SB_CELLS);
        cand[at] &= (uint16_t)(cand[at] - 1);
        sb_result r;
        cr_assert_eq(sb_solve_candidates(s, cand, &r), SB_OK);
        cr_assert_eq(r.count, (uint64_t)ref_count_marks(cand, 2, NULL), "puzzle %d", i);
    }
    sb_technique_counts k[SB_TECH_COUNT];
    sb_solver_counts(s, k);
    cr_assert_gt(k[SB_TECH_HIDDEN_SINGLE].applications, 0);
    sb_solver_free(s);
    free(c);
}

/* fast+ takes the native techniques only, each token checked, with a reason. */
Test(fast_tech, specs_refused_with_a_reason)
{
    static const struct {
        const char *spec, *why;
    } bad[] = {{"fast+", "at least one technique"},
               {"fast+col", "'col' is not implemented on the fused kernel"},
               {"fast+xc", "'xc' is not implemented on the fused kernel"},
               {"fast+ns", "'ns' is not implemented on the fused kernel"},
               {"fast+xw,", "empty technique name"},
               {"fast+bogus", "unknown technique 'bogus'"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char why[256];
        cr_assert_eq(sb_pipeline_check(bad[i].spec), SB_ERR_PIPELINE, "%s", bad[i].spec);
        cr_assert_eq(sb_pipeline_explain(bad[i].spec, why, sizeof why), SB_ERR_PIPELINE);
        cr_assert_not_null(strstr(why, bad[i].why), "%s: %s", bad[i].spec, why);
        sb_options o;
        sb_options_default(&o);
        cr_assert_eq(sb_options_pipeline(&o, bad[i].spec), SB_ERR_PIPELINE);
    }
    sb_options o;
    sb_options_default(&o);
    cr_assert_eq(sb_options_pipeline(&o, "fast+xw,sky"), SB_OK);
    cr_assert_eq(o.pipeline, SB_PIPELINE_CUSTOM);
    /* Not a plan for the generic engine: other geometries cannot take it for one. */
    sb_plan plan;
    cr_assert_eq(sb_plan_parse("fast+xw", &plan), SB_ERR_PIPELINE);
}
