/*
 * test_bench_api.c — the benchmark calls (sb_bench_*): puzzles come back as they went in
 * (9x9 packed, other geometries a byte a cell), the warm-up's verdicts and guesses are what
 * one sb_solve per puzzle gives for any thread count, and a timed run makes whole passes.
 */
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

enum { N = 150 };

Test(bench_api, warmup_matches_one_solve_per_puzzle_for_any_thread_count)
{
    static uint8_t cells[N * SB_CELLS], back[SB_CELLS], verdicts[N];
    tu_load_cells("datasets/samples/top1465.txt", cells, N);
    memset(cells + 5 * SB_CELLS, 0, SB_CELLS);      /* row 5: empty, several solutions */
    cells[8 * SB_CELLS + 1] = cells[8 * SB_CELLS];  /* row 8: maybe a clash, maybe a blank */
    if (!cells[8 * SB_CELLS])
        cells[8 * SB_CELLS] = cells[8 * SB_CELLS + 1] = 5; /* now a clash in row 0 */
    sb_bench *b;
    cr_assert_eq(sb_bench_new(sb_geometry_9x9(), &b), SB_OK);
    for (size_t i = 0; i < N; i++)
        cr_assert_eq(sb_bench_add(b, cells + i * SB_CELLS), SB_OK);
    cr_assert_eq(sb_bench_size(b), N);
    for (size_t i = 0; i < N; i++) {
        sb_bench_puzzle(b, i, back);
        cr_assert(!memcmp(back, cells + i * SB_CELLS, SB_CELLS), "puzzle %zu unpacked", i);
    }
    sb_options opt;
    sb_options_default(&opt);
    opt.pipeline = sb_pipeline_find("restart");
    sb_solver *s;
    cr_assert_eq(sb_solver_new(&s, &opt), SB_OK);
    uint64_t want_guesses = 0, want_v[3] = {0, 0, 0};
    for (size_t i = 0; i < N; i++) {
        sb_result r;
        cr_assert_eq(sb_solve(s, (const sb_grid *)(cells + i * SB_CELLS), &r), SB_OK);
        want_guesses += r.guesses;
        want_v[sb_result_verdict(&r)]++;
    }
    sb_technique_counts want_c[SB_TECH_COUNT];
    sb_solver_counts(s, want_c);
    sb_solver_free(s);
    cr_assert_eq(want_v[SB_UNSOLVABLE], 1);
    cr_assert_eq(want_v[SB_MULTIPLE], 1);
    for (int threads = 1; threads <= 3; threads += 2) {
        memset(verdicts, 0xff, sizeof verdicts);
        cr_assert_eq(sb_bench_prepare(b, &opt, threads), SB_OK);
        sb_bench_warmup w;
        cr_assert_eq(sb_bench_warm(b, verdicts, &w), SB_OK);
        cr_assert_eq(w.wrong, N, "no solution breaks the rules");
        cr_assert_eq(w.guesses, want_guesses);
        for (int v = 0; v < 3; v++)
            cr_assert_eq(w.verdicts[v], want_v[v]);
        cr_assert_eq(verdicts[5], SB_MULTIPLE);
        cr_assert_eq(verdicts[8], SB_UNSOLVABLE);
        cr_assert_eq(verdicts[0], SB_SOLVED);
        for (int k = 0; k < SB_TECH_COUNT; k++)
            cr_assert_eq(w.counts[k].placements, want_c[k].placements, "technique %d", k);
        uint64_t passes = 0;
        double seconds = -1;
        cr_assert_eq(sb_bench_time(b, 0, &passes, &seconds), SB_OK);
        cr_assert_eq(passes, 1, "min_seconds 0: exactly one pass");
        cr_assert(seconds >= 0);
    }
    sb_bench_truncate(b, 7);
    cr_assert_eq(sb_bench_size(b), 7);
    sb_bench_free(b);
}

Test(bench_api, other_geometry_keeps_cells_and_checks_solutions)
{
    sb_geometry *g;
    cr_assert_eq(sb_geometry_parse("2x2", &g, NULL, 0), SB_OK);
    /* a full 4x4 (checked by hand: rows, columns and boxes) with two cells blanked, so
     * one solution; the empty 4x4 (288 solutions) */
    static const uint8_t p[2][16] = {{0, 2, 3, 4, 3, 0, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1}, {0}};
    sb_bench *b;
    cr_assert_eq(sb_bench_new(g, &b), SB_OK);
    for (int i = 0; i < 2; i++)
        cr_assert_eq(sb_bench_add(b, p[i]), SB_OK);
    uint8_t back[16];
    sb_bench_puzzle(b, 0, back);
    cr_assert(!memcmp(back, p[0], 16));
    sb_options opt;
    sb_options_default(&opt);
    cr_assert_eq(sb_bench_prepare(b, &opt, 2), SB_OK);
    uint8_t verdicts[2];
    sb_bench_warmup w;
    cr_assert_eq(sb_bench_warm(b, verdicts, &w), SB_OK);
    cr_assert_eq(w.wrong, 2);
    cr_assert_eq(verdicts[1], SB_MULTIPLE);
    cr_assert_eq(w.verdicts[SB_MULTIPLE], 1);
    cr_assert_eq(verdicts[0], SB_SOLVED);
    cr_assert_eq(w.verdicts[SB_SOLVED], 1);
    sb_bench_free(b);
    sb_geometry_free(g);
}

/* The warm-up's paired count is what the row's solvers handed to a paired kernel: with one
 * thread the blocks go in file order, so one solver of the same options fed the same blocks
 * through sb_solve_many must hand over as many; ON pairs every puzzle where a paired kernel
 * exists (the fast pipeline at avx2), AUTO and OFF none, and other pipelines and levels never
 * pair. */
Test(bench_api, warmup_counts_the_puzzles_the_pair_policy_paired)
{
    enum { M = 300, BLOCK = 64 }; /* BLOCK: bench_api.c's BENCH_CHUNK, the blocks it hands out */
    static uint8_t cells[M * SB_CELLS], verdicts[M];
    tu_load_cells("datasets/samples/17_clue_2000.txt", cells, M / 2); /* easy */
    tu_load_cells("datasets/samples/hardest_11plus_1000.txt", cells + M / 2 * SB_CELLS, M / 2);
    int levels[SB_SIMD_LEVELS];
    const int nl = tu_supported_levels(levels);
    for (int pipe = 0; pipe < 2; pipe++) {
        /* A generic pipeline (slow on hard puzzles) runs the easy half, ON alone: the policy
         * that would pair it if anything did. */
        const size_t m = pipe ? M / 2 : M;
        sb_bench *b;
        cr_assert_eq(sb_bench_new(sb_geometry_9x9(), &b), SB_OK);
        for (size_t i = 0; i < m; i++)
            cr_assert_eq(sb_bench_add(b, cells + i * SB_CELLS), SB_OK);
        for (int l = 0; l < nl; l++)
            for (int pair = pipe ? SB_PAIR_ON : SB_PAIR_AUTO; pair <= SB_PAIR_ON + !pipe;
                 pair++) {
                sb_options opt;
                sb_options_default(&opt);
                opt.simd = levels[l];
                opt.pair = pair;
                if (pipe)
                    opt.pipeline = sb_pipeline_find("array");
                sb_solver *s;
                cr_assert_eq(sb_solver_new(&s, &opt), SB_OK);
                for (size_t lo = 0; lo < m; lo += BLOCK) {
                    sb_grid g[BLOCK];
                    sb_result res[BLOCK];
                    int st[BLOCK];
                    const size_t n = m - lo < BLOCK ? m - lo : BLOCK;
                    memcpy(g, cells + lo * SB_CELLS, n * SB_CELLS);
                    sb_solve_many(s, g, n, res, st);
                }
                const uint64_t want = sb_solver_paired(s);
                sb_solver_free(s);
                const int pairs = !pipe && levels[l] == SB_SIMD_AVX2;
                const char *what = sb_simd_name(levels[l]);
                if (pair == SB_PAIR_ON)
                    cr_assert_eq(want, pairs ? m : 0, "%s on, pipeline %d", what, pipe);
                if (pair != SB_PAIR_ON || !pairs)
                    cr_assert_eq(want, 0, "%s pair %d pipeline %d", what, pair, pipe);
                cr_assert_eq(sb_bench_prepare(b, &opt, 1), SB_OK);
                sb_bench_warmup w;
                cr_assert_eq(sb_bench_warm(b, verdicts, &w), SB_OK);
                cr_assert_eq(w.paired, want, "%s pair %d pipeline %d: %llu paired, want %llu",
                             what, pair, pipe, (unsigned long long)w.paired,
                             (unsigned long long)want);
                /* A second warm-up on the same solvers counts its own pass only. */
                cr_assert_eq(sb_bench_warm(b, verdicts, &w), SB_OK);
                cr_assert_eq(w.paired, want, "%s pair %d: second pass", what, pair);
            }
        sb_bench_free(b);
    }
}
