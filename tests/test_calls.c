/*
 * test_calls.c — sb_technique_counts.calls, the times a technique ran whether or not it found
 * anything (what the study divides time by for the cost of one call). Exact values where the
 * number of runs is known independently: one per sb_technique_step; one per technique of the
 * rating's last set on a board where nothing applies; a singles-only puzzle's ns sweeps counted
 * by stepping ns by hand; 0 for a fast+T technique when the kernel never stalls. Relations
 * elsewhere: the list order runs every step as often; in restart order the steps after ns run
 * once per fixpoint; every stamp (9x9, any geometry on 3x3, every SIMD level of fast+T) and
 * every thread count gives the same calls.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

/* A puzzle `rate` classes `singles`: naked singles alone complete it. */
static const char *const SINGLES =
    "29.1.5.3...8........5..816..4....3.23..8...5...6.5.49.4..53..7.9......2...274.8..";

/* A solver for spec (a registry name or custom spec) at level simd, limit 2. */
static sb_solver *spec_solver(const char *spec, int simd)
{
    sb_options opt;
    sb_solver *s = NULL;
    sb_options_default(&opt);
    opt.limit = 2;
    opt.pipeline = SB_PIPELINE_CUSTOM;
    opt.spec = spec;
    opt.simd = simd;
    cr_assert_eq(sb_solver_new(&s, &opt), SB_OK, "%s", spec);
    return s;
}

/* Solves text with s and returns its counters (reset first). */
static void counts_of(sb_solver *s, const char *text, sb_technique_counts out[SB_TECH_COUNT])
{
    sb_grid g = tu_grid(text);
    sb_result res;
    sb_solver_counts_reset(s);
    cr_assert_eq(sb_solve(s, &g, &res), SB_OK);
    cr_assert_eq(res.count, 1);
    sb_solver_counts(s, out);
}

/* One call per step, changed or not, added to what is there. */
Test(calls, one_per_technique_step)
{
    for (int t = 0; t < SB_TECH_COUNT; t++) {
        uint16_t cand[SB_CELLS];
        for (int c = 0; c < SB_CELLS; c++)
            cand[c] = SB_ALL_DIGITS;
        cand[0] = 1u << 4;
        sb_technique_counts tc = {100, 200, 300, 7};
        sb_technique_step(t, cand, &tc);
        cr_assert_eq(tc.calls, 8, "technique %d", t);
        sb_technique_step(t, cand, &tc);
        sb_technique_step(t, cand, &tc);
        cr_assert_eq(tc.calls, 10, "technique %d", t);
    }
}

/* The empty grid: nothing applies anywhere, so the rating's last set (chains: every
 * technique) runs each technique exactly once, and none applies. */
Test(calls, a_stall_runs_each_technique_once)
{
    sb_grid empty;
    memset(&empty, 0, sizeof empty);
    sb_rating rt;
    cr_assert_eq(sb_rate(&empty, &rt), SB_OK);
    cr_assert_eq(rt.cls, SB_CLASS_SEARCH);
    for (int t = 0; t < SB_TECH_COUNT; t++) {
        cr_assert_eq(rt.counts[t].calls, 1, "technique %d: %llu calls", t,
                     (unsigned long long)rt.counts[t].calls);
        cr_assert_eq(rt.counts[t].applications + rt.counts[t].eliminations, 0);
    }
}

/* The singles puzzle rated: its class runs ns alone (restart:ns), as many times as stepping
 * ns by hand from the givens' candidates until a step changes nothing (that step included). */
Test(calls, singles_puzzle_ns_sweeps_counted_by_hand)
{
    const sb_grid g = tu_grid(SINGLES);
    uint16_t cand[SB_CELLS];
    sb_grid_candidates(&g, cand);
    uint64_t steps = 0;
    int st;
    do {
        st = sb_technique_step(SB_TECH_NAKED_SINGLE, cand, NULL);
        steps++;
    } while (st == SB_STEP_CHANGED);
    cr_assert_eq(st, SB_STEP_UNCHANGED);
    cr_assert_gt(steps, 2);
    sb_rating rt;
    cr_assert_eq(sb_rate(&g, &rt), SB_OK);
    cr_assert_eq(rt.cls, SB_CLASS_SINGLES);
    cr_assert_eq(rt.counts[SB_TECH_NAKED_SINGLE].calls, steps, "ns: %llu calls, %llu by hand",
                 (unsigned long long)rt.counts[SB_TECH_NAKED_SINGLE].calls,
                 (unsigned long long)steps);
    for (int t = 1; t < SB_TECH_COUNT; t++)
        cr_assert_eq(rt.counts[t].calls, 0, "technique %d is not in the class", t);
}

/* The singles puzzle solved: in list order every step runs once per round, so all as often;
 * in restart order hs and xw run only at the fixpoints ns reaches, once each there, and find
 * nothing; fast+xw never stalls on it, so xw never runs. */
Test(calls, singles_puzzle_in_each_order)
{
    sb_technique_counts c[SB_TECH_COUNT];
    sb_solver *s = spec_solver("list:ns,hs,xw", SB_SIMD_AUTO);
    counts_of(s, SINGLES, c);
    cr_assert_gt(c[SB_TECH_NAKED_SINGLE].calls, 0);
    cr_assert_eq(c[SB_TECH_HIDDEN_SINGLE].calls, c[SB_TECH_NAKED_SINGLE].calls);
    cr_assert_eq(c[SB_TECH_XWING].calls, c[SB_TECH_NAKED_SINGLE].calls);
    sb_solver_free(s);

    s = spec_solver("restart:ns,hs,xw", SB_SIMD_AUTO);
    counts_of(s, SINGLES, c);
    cr_assert_gt(c[SB_TECH_HIDDEN_SINGLE].calls, 0);
    cr_assert_gt(c[SB_TECH_NAKED_SINGLE].calls, c[SB_TECH_HIDDEN_SINGLE].calls);
    cr_assert_eq(c[SB_TECH_XWING].calls, c[SB_TECH_HIDDEN_SINGLE].calls);
    cr_assert_eq(c[SB_TECH_HIDDEN_SINGLE].applications + c[SB_TECH_XWING].applications, 0);
    sb_solver_free(s);

    int levels[SB_SIMD_LEVELS];
    const int nl = tu_supported_levels(levels);
    for (int li = 0; li < nl; li++) {
        s = spec_solver("fast+xw", levels[li]);
        counts_of(s, SINGLES, c);
        for (int t = 0; t < SB_TECH_COUNT; t++)
            cr_assert_eq(c[t].calls + c[t].applications, 0, "%s technique %d",
                         sb_simd_name(levels[li]), t);
        sb_solver_free(s);
    }
}

/* fast+xw,sky on hard puzzles: the same counters at every level; xw runs at every stall and
 * after every change, sky only when xw found nothing, so xw runs at least as often; a
 * technique that applied ran; the kernel's own propagation is not a counted technique. */
Test(calls, fast_plus_same_calls_at_every_level)
{
    enum { N = 60 };
    uint8_t *cells = malloc((size_t)SB_CELLS * N);
    cr_assert_not_null(cells);
    tu_load_cells("datasets/samples/hardest_11plus_1000.txt", cells, N);
    int levels[SB_SIMD_LEVELS];
    const int nl = tu_supported_levels(levels);
    sb_technique_counts first[SB_TECH_COUNT];
    for (int li = 0; li < nl; li++) {
        sb_solver *s = spec_solver("fast+xw,sky", levels[li]);
        for (int i = 0; i < N; i++)
            tu_solve(s, cells + (size_t)SB_CELLS * i);
        sb_technique_counts c[SB_TECH_COUNT];
        sb_solver_counts(s, c);
        sb_solver_free(s);
        if (li == 0)
            memcpy(first, c, sizeof c);
        cr_assert_arr_eq(c, first, sizeof c, "%s counts differ from %s",
                         sb_simd_name(levels[li]), sb_simd_name(levels[0]));
        cr_assert_gt(c[SB_TECH_SKYSCRAPER].calls, 0);
        cr_assert_geq(c[SB_TECH_XWING].calls, c[SB_TECH_SKYSCRAPER].calls);
        for (int t = 0; t < SB_TECH_COUNT; t++) {
            if (c[t].applications)
                cr_assert_gt(c[t].calls, 0, "technique %d applied without a call", t);
            if (t != SB_TECH_XWING && t != SB_TECH_SKYSCRAPER)
                cr_assert_eq(c[t].calls, 0, "technique %d is not in the spec", t);
        }
    }
    free(cells);
}

/* On the 3x3 geometry the any-geometry stamp makes the calls of the 9x9 stamp; on 16x16 the
 * generic engine counts them too. */
Test(calls, both_stamps_count_alike)
{
    enum { N = 40 };
    static const char *const spec = "restart:ns,hs,lc,nt2,xw,sky,xy";
    uint8_t *cells = malloc((size_t)SB_CELLS * N);
    cr_assert_not_null(cells);
    tu_load_cells("datasets/samples/top1465.txt", cells, N);
    sb_geometry *g;
    cr_assert_eq(sb_geometry_parse("3x3", &g, NULL, 0), SB_OK);
    sb_solver *s = spec_solver(spec, SB_SIMD_AUTO);
    sb_gpipeline *gp;
    cr_assert_eq(sb_gpipeline_new(g, spec, &gp), SB_OK);
    for (int i = 0; i < N; i++) {
        const uint8_t *p = cells + (size_t)SB_CELLS * i;
        tu_solve(s, p);
        sb_gresult r;
        cr_assert_eq(sb_gpipeline_solve(gp, p, 2, &r, NULL), SB_OK);
    }
    sb_technique_counts a[SB_TECH_COUNT], b[SB_TECH_COUNT];
    sb_solver_counts(s, a);
    sb_gpipeline_counts(gp, b);
    for (int t = 0; t < SB_TECH_COUNT; t++)
        cr_assert_eq(a[t].calls, b[t].calls, "technique %d: %llu vs %llu", t,
                     (unsigned long long)a[t].calls, (unsigned long long)b[t].calls);
    cr_assert_gt(a[SB_TECH_XY_WING].calls, 0);
    sb_gpipeline_free(gp);
    sb_solver_free(s);
    sb_geometry_free(g);
    free(cells);
}

/* The bench warm-up sums its threads' counters: the same calls on 1 and 2 threads, for a
 * generic spec and for fast+T. */
Test(calls, bench_sums_the_same_calls_on_any_thread_count)
{
    enum { N = 150 };
    static const char *const specs[] = {"list:ns,hs,lc,xw", "fast+xw,kite"};
    uint8_t *cells = malloc((size_t)SB_CELLS * N);
    cr_assert_not_null(cells);
    tu_load_cells("datasets/samples/hardest_11plus_1000.txt", cells, N);
    sb_bench *b;
    cr_assert_eq(sb_bench_new(sb_geometry_9x9(), &b), SB_OK);
    for (int i = 0; i < N; i++)
        cr_assert_eq(sb_bench_add(b, cells + (size_t)SB_CELLS * i), SB_OK);
    uint8_t verdicts[N];
    for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        sb_options opt;
        sb_options_default(&opt);
        opt.pipeline = SB_PIPELINE_CUSTOM;
        opt.spec = specs[k];
        sb_bench_warmup w[2];
        for (int th = 1; th <= 2; th++) {
            cr_assert_eq(sb_bench_prepare(b, &opt, th), SB_OK);
            cr_assert_eq(sb_bench_warm(b, verdicts, &w[th - 1]), SB_OK);
        }
        int ran = 0;
        for (int t = 0; t < SB_TECH_COUNT; t++) {
            cr_assert_eq(w[0].counts[t].calls, w[1].counts[t].calls, "%s technique %d", specs[k],
                         t);
            ran += w[0].counts[t].calls > 0;
        }
        cr_assert_geq(ran, 2, "%s: no calls counted", specs[k]);
    }
    sb_bench_free(b);
    free(cells);
}
