/*
 * test_many.c — sb_solve_many against sb_solve: on every SIMD level the machine has (the AVX2
 * level runs its paired search, two puzzles side by side), the results and statuses must be
 * those of one sb_solve call per puzzle, solutions and guesses included; counts are checked
 * against the independent reference (reference.c). Also: budgets, the stop flag, bad cells,
 * odd sizes, and the pair policy (sb_pair: ON pairs, AUTO and OFF run one board). The cases
 * run under SB_PAIR_ON, so that the paired search is what they check where a level has one.
 */
#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "sudokubench.h"
#include "test_util.h"

/* A corpus of n puzzles: the first puzzles of the hardest committed sample, then puzzles from
 * random grids with 0, 1 or 2+ solutions (unique ones, clues removed, a wrong clue that fits
 * the givens, a given repeated in a house), interleaved so neighbours differ in cost. */
static sb_grid *corpus(int *n_out)
{
    enum { FROM_FILE = 300, RANDOM = 400 };
    sb_grid *g = calloc(FROM_FILE + RANDOM, sizeof *g);
    cr_assert_not_null(g);
    int n = 0;
    FILE *in = fopen("datasets/samples/hardest_11plus_1000.txt", "r");
    cr_assert_not_null(in, "run the tests from the repository root");
    char line[1100];
    while (n < FROM_FILE && fgets(line, sizeof line, in))
        if (sb_parse_line(line, strcspn(line, "\r\n"), &g[n], NULL, NULL) == SB_LINE_PUZZLE)
            n++;
    fclose(in);
    cr_assert_eq(n, FROM_FILE);
    ref_rng r;
    ref_rng_seed(&r, UINT64_C(0x5EED2));
    while (n < FROM_FILE + RANDOM) {
        uint8_t full[81], p[81];
        ref_random_full_grid(&r, full);
        ref_unique_puzzle(&r, full, 24 + ref_rng_below(&r, 10), p);
        switch (n % 4) {
        case 1: /* clues removed: usually several solutions */
            for (int k = 1 + ref_rng_below(&r, 4); k > 0; k--) {
                const int c = ref_rng_below(&r, 81);
                p[c] = 0;
            }
            break;
        case 2: /* a wrong digit in a blank cell: often no solution */
            for (int c = ref_rng_below(&r, 81);; c = (c + 1) % 81)
                if (!p[c]) {
                    p[c] = (uint8_t)(full[c] % 9 + 1);
                    break;
                }
            break;
        case 3: /* a given repeated in its row: conflicting givens */
            for (int c = ref_rng_below(&r, 81);; c = (c + 1) % 81)
                if (p[c] && !p[(c / 9) * 9 + (c % 9 + 4) % 9]) {
                    p[(c / 9) * 9 + (c % 9 + 4) % 9] = p[c];
                    break;
                }
            break;
        }
        g[n++] = tu_from_cells(p);
    }
    *n_out = n;
    return g;
}

/* Makes a solver for SIMD level `level` with the given limit, guess budget and pair policy. */
static sb_solver *mk_pair(int level, uint64_t limit, uint64_t budget, int pair)
{
    sb_options opt;
    sb_options_default(&opt);
    opt.simd = level;
    opt.limit = limit;
    opt.max_guesses = budget;
    opt.pair = pair;
    sb_solver *s = NULL;
    cr_assert_eq(sb_solver_new(&s, &opt), SB_OK, "level %s", sb_simd_name(level));
    return s;
}

/* The same with the paired search where the level has one (SB_PAIR_ON). */
static sb_solver *mk(int level, uint64_t limit, uint64_t budget)
{
    return mk_pair(level, limit, budget, SB_PAIR_ON);
}

/* sb_solve_many on puzzles g[0..n) under a pair policy equals one sb_solve per puzzle, field
 * by field. */
static void same_as_single_pair(int level, uint64_t limit, uint64_t budget, const sb_grid *g,
                                int n, int pair)
{
    sb_solver *a = mk(level, limit, budget), *b = mk_pair(level, limit, budget, pair);
    sb_result *res = calloc((size_t)n, sizeof *res);
    int *st = calloc((size_t)n, sizeof *st);
    cr_assert(res && st);
    cr_assert_eq(sb_solve_many(b, g, (size_t)n, res, st), SB_OK);
    for (int i = 0; i < n; i++) {
        sb_result one;
        memset(&one, 0, sizeof one);
        const int rc = sb_solve(a, &g[i], &one);
        char pt[82];
        tu_text(g[i].cell, pt);
        cr_assert_eq(st[i], rc, "%s limit %llu budget %llu, puzzle %d %s: status %d, sb_solve %d",
                     sb_simd_name(level), (unsigned long long)limit, (unsigned long long)budget,
                     i, pt, st[i], rc);
        cr_assert_eq(res[i].count, one.count, "%s limit %llu, puzzle %d %s: count %llu vs %llu",
                     sb_simd_name(level), (unsigned long long)limit, i, pt,
                     (unsigned long long)res[i].count, (unsigned long long)one.count);
        cr_assert_eq(res[i].guesses, one.guesses, "%s limit %llu, puzzle %d %s: guesses %llu vs %llu",
                     sb_simd_name(level), (unsigned long long)limit, i, pt,
                     (unsigned long long)res[i].guesses, (unsigned long long)one.guesses);
        cr_assert_arr_eq(res[i].solution.cell, one.solution.cell, 81,
                         "%s limit %llu, puzzle %d %s: first solutions differ",
                         sb_simd_name(level), (unsigned long long)limit, i, pt);
    }
    free(res);
    free(st);
    sb_solver_free(a);
    sb_solver_free(b);
}

/* The same with the paired search where the level has one. */
static void same_as_single(int level, uint64_t limit, uint64_t budget, const sb_grid *g, int n)
{
    same_as_single_pair(level, limit, budget, g, n, SB_PAIR_ON);
}

Test(solve_many, equals_sb_solve_on_every_level)
{
    int n;
    sb_grid *g = corpus(&n);
    int levels[SB_SIMD_LEVELS];
    const int nl = tu_supported_levels(levels);
    const uint64_t limits[] = {1, 2, 3};
    for (int l = 0; l < nl; l++)
        for (size_t k = 0; k < sizeof limits / sizeof *limits; k++)
            same_as_single(levels[l], limits[k], UINT64_MAX, g, n);
    free(g);
}

/* Counts with limit 2 against the independent reference, through sb_solve_many. */
Test(solve_many, counts_match_the_reference)
{
    int n;
    sb_grid *g = corpus(&n);
    int levels[SB_SIMD_LEVELS];
    const int nl = tu_supported_levels(levels);
    int seen[3] = {0, 0, 0};
    int *want = calloc((size_t)n, sizeof *want);
    cr_assert_not_null(want);
    for (int i = 0; i < n; i++) {
        want[i] = ref_count(g[i].cell, 2, NULL);
        seen[want[i]]++;
    }
    cr_assert(seen[0] > 20 && seen[1] > 20 && seen[2] > 20, "corpus covers 0, 1, 2+: %d %d %d",
              seen[0], seen[1], seen[2]);
    sb_result *res = calloc((size_t)n, sizeof *res);
    int *st = calloc((size_t)n, sizeof *st);
    cr_assert(res && st);
    for (int l = 0; l < nl; l++) {
        sb_solver *s = mk(levels[l], 2, UINT64_MAX);
        cr_assert_eq(sb_solve_many(s, g, (size_t)n, res, st), SB_OK);
        for (int i = 0; i < n; i++) {
            cr_assert_eq(st[i], SB_OK);
            cr_assert_eq(res[i].count, (uint64_t)want[i], "%s puzzle %d: count %llu, reference %d",
                         sb_simd_name(levels[l]), i, (unsigned long long)res[i].count, want[i]);
            if (res[i].count)
                cr_assert(ref_is_valid_solution(g[i].cell, res[i].solution.cell),
                          "%s puzzle %d: invalid solution", sb_simd_name(levels[l]), i);
        }
        sb_solver_free(s);
    }
    free(want);
    free(res);
    free(st);
    free(g);
}

/* A small guess budget stops some searches (SB_ERR_BUDGET) at the same point as sb_solve. */
Test(solve_many, budget_statuses_equal_sb_solve)
{
    int n;
    sb_grid *g = corpus(&n);
    int levels[SB_SIMD_LEVELS];
    const int nl = tu_supported_levels(levels);
    for (int l = 0; l < nl; l++)
        for (uint64_t budget = 0; budget <= 40; budget += 20)
            same_as_single(levels[l], 2, budget, g, n);
    free(g);
}

/* Odd sizes (the paired search's lone last puzzle), none at all, and a bad cell among good
 * puzzles: SB_ERR_ARG in its slot only. */
Test(solve_many, sizes_and_bad_cells)
{
    int n;
    sb_grid *g = corpus(&n);
    int levels[SB_SIMD_LEVELS];
    const int nl = tu_supported_levels(levels);
    for (int l = 0; l < nl; l++) {
        for (int k = 1; k <= 5; k++)
            same_as_single(levels[l], 2, UINT64_MAX, g + 7, k);
        sb_solver *s = mk(levels[l], 2, UINT64_MAX);
        cr_assert_eq(sb_solve_many(s, g, 0, NULL, NULL), SB_OK);
        cr_assert_eq(sb_solve_many(NULL, g, 1, NULL, NULL), SB_ERR_ARG);
        sb_grid three[3] = {g[0], g[1], g[2]};
        three[1].cell[40] = 10;
        sb_result res[3];
        int st[3];
        cr_assert_eq(sb_solve_many(s, three, 3, res, st), SB_OK);
        cr_assert_eq(st[1], SB_ERR_ARG, "%s: bad cell status %d", sb_simd_name(levels[l]), st[1]);
        cr_assert_eq(res[1].count, 0);
        cr_assert_eq(st[0], SB_OK);
        cr_assert_eq(st[2], SB_OK);
        cr_assert_eq(res[0].count, 1);
        cr_assert_eq(res[2].count, 1);
        sb_solver_free(s);
    }
    free(g);
}

/* A stop flag raised before the call: nothing is solved, every status is SB_ERR_STOPPED. */
Test(solve_many, stop_flag_stops_every_puzzle)
{
    int n;
    sb_grid *g = corpus(&n);
    static volatile sig_atomic_t stop = 1;
    int levels[SB_SIMD_LEVELS];
    const int nl = tu_supported_levels(levels);
    sb_result res[16];
    int st[16];
    for (int l = 0; l < nl; l++) {
        sb_options opt;
        sb_options_default(&opt);
        opt.simd = levels[l];
        opt.stop = &stop;
        sb_solver *s = NULL;
        cr_assert_eq(sb_solver_new(&s, &opt), SB_OK);
        cr_assert_eq(sb_solve_many(s, g, 16, res, st), SB_OK);
        for (int i = 0; i < 16; i++) {
            cr_assert_eq(st[i], SB_ERR_STOPPED, "%s puzzle %d: status %d",
                         sb_simd_name(levels[l]), i, st[i]);
            cr_assert_eq(res[i].count, 0);
        }
        sb_solver_free(s);
    }
    free(g);
}

/* Every policy gives sb_solve's answers on every level. */
Test(solve_many, every_pair_policy_equals_sb_solve)
{
    int n;
    sb_grid *g = corpus(&n);
    int levels[SB_SIMD_LEVELS];
    const int nl = tu_supported_levels(levels);
    for (int l = 0; l < nl; l++)
        for (int pair = SB_PAIR_AUTO; pair <= SB_PAIR_OFF; pair++)
            same_as_single_pair(levels[l], 2, UINT64_MAX, g, n, pair);
    free(g);
}

/* Solves blocks of 64 puzzles at a time through s, the answers checked against sb_solve on
 * ref; @return the puzzles s handed to its paired kernel during these calls. */
static uint64_t paired_in(sb_solver *s, sb_solver *ref, const sb_grid *g, int blocks,
                          uint64_t *guesses)
{
    enum { B = 64 };
    sb_result res[B];
    int st[B];
    const uint64_t before = sb_solver_paired(s);
    *guesses = 0;
    for (int b = 0; b < blocks; b++) {
        cr_assert_eq(sb_solve_many(s, g, B, res, st), SB_OK);
        for (int i = 0; i < B; i++) {
            sb_result one;
            cr_assert_eq(st[i], sb_solve(ref, &g[i], &one));
            cr_assert_eq(res[i].count, one.count, "puzzle %d: count %llu vs %llu", i,
                         (unsigned long long)res[i].count, (unsigned long long)one.count);
            cr_assert_eq(res[i].guesses, one.guesses);
            cr_assert_arr_eq(res[i].solution.cell, one.solution.cell, 81);
            *guesses += res[i].guesses;
        }
    }
    return sb_solver_paired(s) - before;
}

/* SB_PAIR_AUTO and OFF run one board whatever the puzzles, easy (no guess) or hard (dozens of
 * guesses each); ON pairs every puzzle where the level has a paired kernel (AVX2) and none
 * elsewhere. */
Test(solve_many, only_pair_on_pairs)
{
    enum { B = 64 };
    int n;
    sb_grid *hard = corpus(&n); /* its first 300: the hardest sample */
    sb_grid easy[B];
    ref_rng r;
    ref_rng_seed(&r, UINT64_C(0xEA5E));
    for (int i = 0; i < B; i++) { /* solved grids less eight cells: singles only */
        uint8_t full[81];
        ref_random_full_grid(&r, full);
        for (int k = 0; k < 8; k++)
            full[ref_rng_below(&r, 81)] = 0;
        easy[i] = tu_from_cells(full);
    }
    int levels[SB_SIMD_LEVELS];
    const int nl = tu_supported_levels(levels);
    for (int l = 0; l < nl; l++) {
        const int lv = levels[l];
        const int has_pair = lv == SB_SIMD_AVX2; /* the header: the AVX2 kernel pairs */
        sb_solver *ref = mk_pair(lv, 2, UINT64_MAX, SB_PAIR_OFF);
        uint64_t ge, gh;
        for (int pair = SB_PAIR_AUTO; pair <= SB_PAIR_OFF; pair++) {
            sb_solver *s = mk_pair(lv, 2, UINT64_MAX, pair);
            const uint64_t want = pair == SB_PAIR_ON && has_pair ? B : 0;
            cr_assert_eq(paired_in(s, ref, easy, 2, &ge), 2 * want, "%s %s easy",
                         sb_simd_name(lv), sb_pair_name(pair));
            cr_assert_eq(ge, 0, "easy puzzles take no guess: %llu", (unsigned long long)ge);
            cr_assert_eq(paired_in(s, ref, hard, 1, &gh), want, "%s %s hard", sb_simd_name(lv),
                         sb_pair_name(pair));
            cr_assert_gt(gh, (uint64_t)10 * B, "hard puzzles: %llu guesses",
                         (unsigned long long)gh);
            sb_solver_free(s);
        }
        sb_solver_free(ref);
    }
    free(hard);
}

/* $SUDOKUBENCH_PAIR overrides SB_PAIR_AUTO only; a value that names no policy is refused. */
Test(solve_many, pair_policy_from_the_environment)
{
    cr_assert_eq(unsetenv("SUDOKUBENCH_PAIR"), 0);
    cr_assert_eq(sb_pair_resolve(SB_PAIR_AUTO), SB_PAIR_AUTO);
    cr_assert_eq(sb_pair_resolve(3), SB_ERR_ARG);
    cr_assert_eq(sb_pair_resolve(-1), SB_ERR_ARG);
    const char *names[] = {"auto", "on", "off"};
    for (int p = 0; p < 3; p++) {
        cr_assert_str_eq(sb_pair_name(p), names[p]);
        cr_assert_eq(setenv("SUDOKUBENCH_PAIR", names[p], 1), 0);
        cr_assert_eq(sb_pair_resolve(SB_PAIR_AUTO), p);
        cr_assert_eq(sb_pair_resolve(SB_PAIR_OFF), SB_PAIR_OFF, "an explicit policy wins");
    }
    cr_assert_str_eq(sb_pair_name(3), "?");
    cr_assert_eq(setenv("SUDOKUBENCH_PAIR", "yes", 1), 0);
    cr_assert_eq(sb_pair_resolve(SB_PAIR_AUTO), SB_ERR_ARG);
    sb_options opt;
    sb_options_default(&opt);
    cr_assert_eq(opt.pair, SB_PAIR_AUTO);
    sb_solver *s = NULL;
    cr_assert_eq(sb_solver_new(&s, &opt), SB_ERR_ARG);
    cr_assert_null(s);
    opt.pair = SB_PAIR_ON; /* explicit: the environment is not read */
    cr_assert_eq(sb_solver_new(&s, &opt), SB_OK);
    sb_solver_free(s);
    opt.pair = 7;
    cr_assert_eq(sb_solver_new(&s, &opt), SB_ERR_ARG);
}
