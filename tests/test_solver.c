/*
 * test_solver.c — the solver against the independent reference (reference.c), across every
 * SIMD level this CPU supports and every registered pipeline, plus the small API contracts
 * around solving (options, verdicts, solution checking, errors, SIMD and pipeline registry).
 */
#define _POSIX_C_SOURCE 200809L

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "sudokubench.h"
#include "test_util.h"

/* ------------------------------------------------------------------------------------------ */
/* A corpus of mutated puzzles with reference answers                                         */
/* ------------------------------------------------------------------------------------------ */

enum mutation {
    MUT_BASE,          /* a uniquely solvable puzzle dug from a random full grid */
    MUT_REMOVE,        /* the base with 1..6 clues removed: often several solutions */
    MUT_WRONG_CLUE,    /* a blank given a digit that is not its solution but fits: none */
    MUT_CONFLICT_CLUE, /* a blank given a digit already in its row/column/box: none */
    MUT_CHANGE_GIVEN,  /* a given changed to another digit that fits: usually none */
    MUT_RANDOM_DIG,    /* random 24..32 clues of the full grid: often several */
    MUT_REMOVE_WRONG,  /* clues removed and a wrong clue added: any count */
    MUT_KINDS
};

static const char *const MUT_NAME[MUT_KINDS] = {
    "base", "remove", "wrong-clue", "conflict-clue", "change-given", "random-dig", "remove+wrong",
};

typedef struct item {
    uint8_t p[81];   /* the puzzle */
    uint8_t sol[81]; /* the reference's first solution (zeros when none) */
    int ref;         /* reference count, up to the corpus' ref limit */
    int kind;        /* enum mutation */
} item;

typedef struct corpus {
    item *items;
    int n, cap;
} corpus;

static item *corpus_push(corpus *c, const uint8_t p[81], int kind)
{
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 256;
        c->items = realloc(c->items, (size_t)c->cap * sizeof *c->items);
        cr_assert_not_null(c->items);
    }
    item *it = &c->items[c->n++];
    memcpy(it->p, p, 81);
    it->kind = kind;
    it->ref = -1;
    return it;
}

static void remove_clues(ref_rng *r, uint8_t p[81], int k)
{
    for (int removed = 0; removed < k && ref_clues(p) > 0;) {
        int c = ref_rng_below(r, 81);
        if (p[c]) {
            p[c] = 0;
            removed++;
        }
    }
}

/* Writes into a random blank of p a digit d != full[cell]; fits says whether d must fit
 * (no direct conflict) or must conflict. Returns 0 if no such placement was found. */
static int add_bad_clue(ref_rng *r, const uint8_t full[81], uint8_t p[81], int fits)
{
    for (int tries = 0; tries < 2000; tries++) {
        int c = ref_rng_below(r, 81);
        int d = 1 + ref_rng_below(r, 9);
        if (p[c] || d == full[c])
            continue;
        if (ref_digit_fits(p, c, d) != fits)
            continue;
        p[c] = (uint8_t)d;
        return 1;
    }
    return 0;
}

static int change_given(ref_rng *r, const uint8_t full[81], uint8_t p[81])
{
    for (int tries = 0; tries < 2000; tries++) {
        int c = ref_rng_below(r, 81);
        int d = 1 + ref_rng_below(r, 9);
        if (!p[c] || d == full[c])
            continue;
        uint8_t keep = p[c];
        p[c] = 0;
        if (ref_digit_fits(p, c, d)) {
            p[c] = (uint8_t)d;
            return 1;
        }
        p[c] = keep;
    }
    return 0;
}

/* Builds about 8 puzzles per base and labels each with the reference count (up to
 * ref_limit). */
static corpus build_corpus(uint64_t seed, int nbase, int ref_limit)
{
    corpus c = {0};
    ref_rng r;
    ref_rng_seed(&r, seed);
    for (int b = 0; b < nbase; b++) {
        uint8_t full[81], base[81], q[81];
        ref_random_full_grid(&r, full);
        cr_assert(ref_is_valid_solution(full, full), "reference made an invalid full grid");
        ref_unique_puzzle(&r, full, 24 + ref_rng_below(&r, 9), base);
        corpus_push(&c, base, MUT_BASE);

        for (int k = 0; k < 2; k++) {
            memcpy(q, base, 81);
            remove_clues(&r, q, 1 + ref_rng_below(&r, 6));
            corpus_push(&c, q, MUT_REMOVE);
        }
        memcpy(q, base, 81);
        if (add_bad_clue(&r, full, q, 1))
            corpus_push(&c, q, MUT_WRONG_CLUE);
        memcpy(q, base, 81);
        if (add_bad_clue(&r, full, q, 0))
            corpus_push(&c, q, MUT_CONFLICT_CLUE);
        memcpy(q, base, 81);
        if (change_given(&r, full, q))
            corpus_push(&c, q, MUT_CHANGE_GIVEN);
        ref_random_puzzle(&r, full, 24 + ref_rng_below(&r, 9), q);
        corpus_push(&c, q, MUT_RANDOM_DIG);
        memcpy(q, base, 81);
        remove_clues(&r, q, 1 + ref_rng_below(&r, 4));
        if (add_bad_clue(&r, full, q, 1))
            corpus_push(&c, q, MUT_REMOVE_WRONG);
    }
    for (int i = 0; i < c.n; i++) {
        item *it = &c.items[i];
        it->ref = ref_count(it->p, ref_limit, it->sol);
        /* Sanity of the generator itself. */
        if (it->kind == MUT_BASE)
            cr_assert_eq(it->ref, 1, "generator: base puzzle not unique");
        if (it->kind == MUT_WRONG_CLUE || it->kind == MUT_CONFLICT_CLUE)
            cr_assert_eq(it->ref, 0, "generator: %s puzzle has a solution", MUT_NAME[it->kind]);
    }
    return c;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

/* Checks one engine result against the reference for a solver limit. */
static void check_against_ref(const item *it, const sb_result *res, uint64_t limit,
                              const char *where)
{
    char pt[82], st[82];
    tu_text(it->p, pt);
    tu_text(res->solution.cell, st);
    uint64_t want = limit ? min_u64((uint64_t)it->ref, limit) : (uint64_t)it->ref;
    cr_assert_eq(res->count, want,
                 "%s: puzzle %s (%s): count %llu, reference says %llu (limit %llu)", where, pt,
                 MUT_NAME[it->kind], (unsigned long long)res->count, (unsigned long long)want,
                 (unsigned long long)limit);
    if (res->count == 0) {
        uint8_t zero[81] = {0};
        cr_assert_arr_eq(res->solution.cell, zero, 81,
                         "%s: puzzle %s: count 0 but solution not all zero: %s", where, pt, st);
        return;
    }
    cr_assert(ref_is_valid_solution(it->p, res->solution.cell),
              "%s: puzzle %s (%s): count %llu, invalid solution %s", where, pt,
              MUT_NAME[it->kind], (unsigned long long)res->count, st);
    if (it->ref == 1) {
        char rt[82];
        tu_text(it->sol, rt);
        cr_assert_arr_eq(res->solution.cell, it->sol, 81,
                         "%s: puzzle %s: unique solution %s, engine gave %s", where, pt, rt, st);
    }
}

/* Runs the corpus through (limit, pipeline) at every supported level, checks each result
 * against the reference and every level against scalar (count, guesses, solution). */
static void run_corpus_all_levels(const corpus *c, uint64_t limit, int pipeline)
{
    int levels[SB_SIMD_LEVELS];
    int nl = tu_supported_levels(levels);
    cr_assert_geq(nl, 1);
    cr_assert_eq(levels[0], SB_SIMD_SCALAR);
    sb_result *scalar = calloc((size_t)c->n, sizeof *scalar);
    cr_assert_not_null(scalar);
    for (int l = 0; l < nl; l++) {
        sb_solver *s = tu_solver(limit, pipeline, levels[l]);
        char where[96];
        size_t np = 0;
        snprintf(where, sizeof where, "pipeline %s, level %s, limit %llu",
                 sb_pipelines(&np)[pipeline].name, sb_simd_name(levels[l]),
                 (unsigned long long)limit);
        for (int i = 0; i < c->n; i++) {
            const item *it = &c->items[i];
            sb_result res = tu_solve(s, it->p);
            check_against_ref(it, &res, limit, where);
            if (l == 0) {
                scalar[i] = res;
                continue;
            }
            char pt[82];
            tu_text(it->p, pt);
            cr_assert_eq(res.count, scalar[i].count, "%s: %s: count differs from scalar", where,
                         pt);
            cr_assert_eq(res.guesses, scalar[i].guesses,
                         "%s: %s: guesses %llu, scalar %llu", where, pt,
                         (unsigned long long)res.guesses,
                         (unsigned long long)scalar[i].guesses);
            cr_assert_arr_eq(res.solution.cell, scalar[i].solution.cell, 81,
                             "%s: %s: solution differs from scalar", where, pt);
        }
        sb_solver_free(s);
    }
    free(scalar);
}

Test(random, limit2_against_reference_all_levels)
{
    corpus c = build_corpus(UINT64_C(0x5EED0004), 300, 2);
    cr_assert_geq(c.n, 2000, "corpus has only %d puzzles", c.n);
    int by_count[3] = {0};
    for (int i = 0; i < c.n; i++)
        by_count[c.items[i].ref >= 2 ? 2 : c.items[i].ref]++;
    cr_assert_geq(by_count[0], 200, "only %d unsolvable puzzles", by_count[0]);
    cr_assert_geq(by_count[1], 200, "only %d unique puzzles", by_count[1]);
    cr_assert_geq(by_count[2], 200, "only %d multiple-solution puzzles", by_count[2]);
    run_corpus_all_levels(&c, 2, 0);

    /* Verdicts follow the counts. */
    sb_solver *s = tu_solver(2, 0, SB_SIMD_SCALAR);
    for (int i = 0; i < c.n; i += 7) {
        sb_result res = tu_solve(s, c.items[i].p);
        sb_verdict want = c.items[i].ref == 0   ? SB_UNSOLVABLE
                          : c.items[i].ref == 1 ? SB_SOLVED
                                                : SB_MULTIPLE;
        cr_assert_eq(sb_result_verdict(&res), want);
    }
    sb_solver_free(s);
    free(c.items);
}

Test(random, limit1_against_reference_all_levels)
{
    corpus c = build_corpus(UINT64_C(0x11A1), 100, 2);
    run_corpus_all_levels(&c, 1, 0);
    free(c.items);
}

/* Few-solution puzzles: remove 2..6 clues from unique puzzles, reference counts them all. */
Test(random, limit0_and_limit5_exact_counts)
{
    enum { MAX_SOL = 200 };
    corpus c = {0};
    ref_rng r;
    ref_rng_seed(&r, UINT64_C(0xC0FFEE));
    int over5 = 0, multi = 0, attempts = 0;
    while (c.n < 150) {
        cr_assert_lt(++attempts, 1000, "too few puzzles with at most %d solutions", MAX_SOL);
        uint8_t full[81], base[81], sol[81];
        ref_random_full_grid(&r, full);
        ref_unique_puzzle(&r, full, 24 + ref_rng_below(&r, 9), base);
        remove_clues(&r, base, 2 + ref_rng_below(&r, 5));
        /* Near-minimal puzzles can gain a million solutions: keep the countable ones. */
        int n = ref_count(base, MAX_SOL + 1, sol);
        cr_assert_geq(n, 1);
        if (n > MAX_SOL)
            continue;
        item *it = corpus_push(&c, base, MUT_REMOVE);
        it->ref = n;
        memcpy(it->sol, sol, 81);
        over5 += it->ref > 5;
        multi += it->ref > 1;
    }
    /* The mix has to exercise both limits. */
    cr_assert_geq(multi, 50, "only %d puzzles with several solutions", multi);
    cr_assert_geq(over5, 10, "only %d puzzles with more than 5 solutions", over5);
    run_corpus_all_levels(&c, 0, 0);
    run_corpus_all_levels(&c, 5, 0);
    free(c.items);
}

/* Every registered pipeline is a correct solver (guesses may differ between pipelines,
 * not between levels of one pipeline). */
Test(random, every_pipeline_against_reference)
{
    size_t np = 0;
    const sb_pipeline_info *pl = sb_pipelines(&np);
    cr_assert_not_null(pl);
    cr_assert_geq(np, 1);
    corpus c = build_corpus(UINT64_C(0xB1BE11E), 40, 2);
    for (size_t p = 0; p < np; p++) {
        run_corpus_all_levels(&c, 2, (int)p);
        run_corpus_all_levels(&c, 1, (int)p);
    }
    free(c.items);
}

/* Known hard puzzles (deep search), checked against the reference at every level. */
Test(random, hard_puzzles)
{
    static const char *const hard[] = {
        /* Arto Inkala's "hardest" (2012) */
        "8........ ..36..... .7..9.2.. .5...7... ....457.. ...1...3. ..1....68 ..85...1. "
        ".9....4..",
        /* built to defeat naive row-major backtracking */
        "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9",
        /* 17 clues */
        ".......1. 4........ .2....... ....5.4.7 ..8...3.. ..1.9.... 3..4..2.. .5.1..... "
        "...8.6...",
        /* Easter Monster */
        "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1",
    };
    corpus c = {0};
    for (size_t i = 0; i < sizeof hard / sizeof hard[0]; i++) {
        sb_grid g = tu_grid(hard[i]);
        item *it = corpus_push(&c, g.cell, MUT_BASE);
        it->ref = ref_count(it->p, 2, it->sol);
        cr_assert_eq(it->ref, 1, "hard puzzle %zu is not unique", i);
    }
    run_corpus_all_levels(&c, 2, 0);
    run_corpus_all_levels(&c, 1, 0);
    run_corpus_all_levels(&c, 0, 0);
    free(c.items);
}

/* A long-lived solver gives the same results as a fresh one for each puzzle. */
Test(random, solver_reuse_is_stateless)
{
    corpus c = build_corpus(UINT64_C(0x2E05E), 25, 2);
    int levels[SB_SIMD_LEVELS];
    int nl = tu_supported_levels(levels);
    for (int l = 0; l < nl; l++) {
        sb_solver *shared = tu_solver(2, 0, levels[l]);
        for (int i = 0; i < c.n; i++) {
            sb_result a = tu_solve(shared, c.items[i].p);
            sb_solver *fresh = tu_solver(2, 0, levels[l]);
            sb_result b = tu_solve(fresh, c.items[i].p);
            sb_solver_free(fresh);
            cr_assert_eq(a.count, b.count);
            cr_assert_eq(a.guesses, b.guesses);
            cr_assert_arr_eq(a.solution.cell, b.solution.cell, 81);
        }
        sb_solver_free(shared);
    }
    free(c.items);
}

/* One solver per thread, many threads at once: same answers as a single thread. */
Test(random, solvers_in_parallel_threads)
{
    corpus c = build_corpus(UINT64_C(0x7777), 40, 2);
    int levels[SB_SIMD_LEVELS];
    int nl = tu_supported_levels(levels);
    int best = levels[nl - 1];
    sb_result *want = calloc((size_t)c.n, sizeof *want);
    sb_result *got = calloc((size_t)c.n, sizeof *got);
    cr_assert(want && got);
    sb_solver *s = tu_solver(2, 0, best);
    for (int i = 0; i < c.n; i++)
        want[i] = tu_solve(s, c.items[i].p);
    sb_solver_free(s);

    int failures = 0;
#pragma omp parallel num_threads(4) reduction(+ : failures)
    {
        sb_options opt;
        sb_options_default(&opt);
        opt.simd = best;
        sb_solver *ts = NULL;
        if (sb_solver_new(&ts, &opt) != SB_OK) {
            failures++;
        } else {
#pragma omp for schedule(dynamic, 4)
            for (int i = 0; i < c.n; i++) {
                sb_grid g = tu_from_cells(c.items[i].p);
                if (sb_solve(ts, &g, &got[i]) != SB_OK)
                    failures++;
            }
            sb_solver_free(ts);
        }
    }
    cr_assert_eq(failures, 0);
    for (int i = 0; i < c.n; i++) {
        cr_assert_eq(got[i].count, want[i].count, "puzzle %d", i);
        cr_assert_eq(got[i].guesses, want[i].guesses, "puzzle %d", i);
        cr_assert_arr_eq(got[i].solution.cell, want[i].solution.cell, 81, "puzzle %d", i);
    }
    free(want);
    free(got);
    free(c.items);
}

/* ------------------------------------------------------------------------------------------ */
/* Fixed cases                                                                                */
/* ------------------------------------------------------------------------------------------ */

Test(fixed, singles_need_no_guesses)
{
    ref_rng r;
    ref_rng_seed(&r, 5);
    int levels[SB_SIMD_LEVELS];
    int nl = tu_supported_levels(levels);
    int tested = 0;
    for (int k = 0; k < 200; k++) {
        uint8_t full[81], p[81], tmp[81];
        ref_random_full_grid(&r, full);
        memcpy(p, full, 81);
        remove_clues(&r, p, 5);
        if (!ref_naked_singles(p, tmp))
            continue; /* e.g. an unavoidable rectangle: not a singles puzzle */
        tested++;
        for (int l = 0; l < nl; l++) {
            sb_solver *s = tu_solver(2, 0, levels[l]);
            sb_result res = tu_solve(s, p);
            char pt[82];
            tu_text(p, pt);
            cr_assert_eq(res.count, 1, "%s: %s", sb_simd_name(levels[l]), pt);
            cr_assert_eq(res.guesses, 0, "%s: %s needs only singles, got %llu guesses",
                         sb_simd_name(levels[l]), pt, (unsigned long long)res.guesses);
            cr_assert_arr_eq(res.solution.cell, full, 81);
            sb_solver_free(s);
        }
    }
    cr_assert_geq(tested, 150);
}

Test(fixed, empty_grid)
{
    uint8_t empty[81] = {0};
    int levels[SB_SIMD_LEVELS];
    int nl = tu_supported_levels(levels);
    for (int l = 0; l < nl; l++) {
        sb_solver *s2 = tu_solver(2, 0, levels[l]);
        sb_result res = tu_solve(s2, empty);
        cr_assert_eq(res.count, 2, "%s", sb_simd_name(levels[l]));
        cr_assert(ref_is_valid_solution(empty, res.solution.cell));
        cr_assert_eq(sb_result_verdict(&res), SB_MULTIPLE);
        sb_solver_free(s2);

        sb_solver *s1 = tu_solver(1, 0, levels[l]);
        res = tu_solve(s1, empty);
        cr_assert_eq(res.count, 1);
        cr_assert(ref_is_valid_solution(empty, res.solution.cell));
        sb_solver_free(s1);

        sb_solver *s5 = tu_solver(5, 0, levels[l]);
        res = tu_solve(s5, empty);
        cr_assert_eq(res.count, 5);
        cr_assert(ref_is_valid_solution(empty, res.solution.cell));
        sb_solver_free(s5);
    }
}

Test(fixed, full_grid_and_conflicts)
{
    ref_rng r;
    ref_rng_seed(&r, 99);
    int levels[SB_SIMD_LEVELS];
    int nl = tu_supported_levels(levels);
    for (int k = 0; k < 20; k++) {
        uint8_t full[81];
        ref_random_full_grid(&r, full);
        for (int l = 0; l < nl; l++) {
            sb_solver *s = tu_solver(2, 0, levels[l]);
            sb_result res = tu_solve(s, full);
            cr_assert_eq(res.count, 1);
            cr_assert_eq(res.guesses, 0);
            cr_assert_arr_eq(res.solution.cell, full, 81);

            /* A full grid with two cells of a row swapped has conflicting givens. */
            uint8_t bad[81];
            memcpy(bad, full, 81);
            bad[0] = full[1];
            bad[1] = full[0];
            res = tu_solve(s, bad);
            cr_assert_eq(res.count, 0);
            cr_assert_eq(sb_result_verdict(&res), SB_UNSOLVABLE);
            sb_solver_free(s);
        }
    }
    /* Two equal givens and nothing else: in a row, a column, a box. */
    const int pairs[3][2] = {{3, 7}, {4, 76}, {30, 50}};
    for (int k = 0; k < 3; k++) {
        uint8_t p[81] = {0};
        p[pairs[k][0]] = 6;
        p[pairs[k][1]] = 6;
        for (int l = 0; l < nl; l++) {
            sb_solver *s = tu_solver(2, 0, levels[l]);
            sb_result res = tu_solve(s, p);
            cr_assert_eq(res.count, 0, "conflict %d/%d", pairs[k][0], pairs[k][1]);
            uint8_t zero[81] = {0};
            cr_assert_arr_eq(res.solution.cell, zero, 81);
            sb_solver_free(s);
        }
    }
}

Test(api, options_default)
{
    sb_options opt;
    memset(&opt, 0x5A, sizeof opt);
    sb_options_default(&opt);
    cr_assert_eq(opt.limit, 2);
    cr_assert_eq(opt.pipeline, 0);
    cr_assert_eq(opt.simd, SB_SIMD_AUTO);
}

Test(api, result_verdict)
{
    sb_result res;
    memset(&res, 0, sizeof res);
    const struct {
        uint64_t count;
        sb_verdict v;
    } cases[] = {{0, SB_UNSOLVABLE}, {1, SB_SOLVED},     {2, SB_MULTIPLE},
                 {3, SB_MULTIPLE},   {1000, SB_MULTIPLE}, {UINT64_MAX, SB_MULTIPLE}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        res.count = cases[i].count;
        cr_assert_eq(sb_result_verdict(&res), cases[i].v, "count %llu",
                     (unsigned long long)cases[i].count);
        cr_assert_eq(sb_count_verdict(cases[i].count), cases[i].v, "count %llu",
                     (unsigned long long)cases[i].count);
    }
}

Test(api, solution_check)
{
    ref_rng r;
    ref_rng_seed(&r, 1234);
    for (int k = 0; k < 50; k++) {
        uint8_t full[81], p[81];
        ref_random_full_grid(&r, full);
        ref_random_puzzle(&r, full, 30, p);
        sb_grid pg = tu_from_cells(p), sg = tu_from_cells(full), empty;
        memset(&empty, 0, sizeof empty);
        cr_assert_eq(sb_solution_check(&pg, &sg), 1);
        cr_assert_eq(sb_solution_check(&empty, &sg), 1);
        cr_assert_eq(sb_solution_check(&sg, &sg), 1);

        /* A wrong given: the puzzle says d, the (otherwise valid) solution says otherwise. */
        sb_grid wrong = pg;
        for (int c = 0; c < 81; c++)
            if (wrong.cell[c]) {
                wrong.cell[c] = (uint8_t)(wrong.cell[c] % 9 + 1);
                break;
            }
        cr_assert_eq(sb_solution_check(&wrong, &sg), 0, "wrong given accepted");

        /* Row duplicates only: swap two cells of one column inside one box (rows 0, 1). */
        sb_grid t = sg;
        t.cell[0] = sg.cell[9];
        t.cell[9] = sg.cell[0];
        cr_assert(!ref_is_valid_solution(empty.cell, t.cell));
        cr_assert_eq(sb_solution_check(&empty, &t), 0, "row duplicate accepted");

        /* Column duplicates only: swap two cells of one row inside one box (cols 3, 4). */
        t = sg;
        t.cell[3] = sg.cell[4];
        t.cell[4] = sg.cell[3];
        cr_assert_eq(sb_solution_check(&empty, &t), 0, "column duplicate accepted");

        /* Box duplicates only: swap rows 2 and 3 (rows and columns stay permutations). */
        t = sg;
        memcpy(&t.cell[18], &sg.cell[27], 9);
        memcpy(&t.cell[27], &sg.cell[18], 9);
        cr_assert(!ref_is_valid_solution(empty.cell, t.cell));
        cr_assert_eq(sb_solution_check(&empty, &t), 0, "box duplicate accepted");

        /* A zero cell. */
        t = sg;
        t.cell[40] = 0;
        cr_assert_eq(sb_solution_check(&empty, &t), 0, "zero cell accepted");

        /* A value above 9. */
        t = sg;
        t.cell[80] = 10;
        cr_assert_eq(sb_solution_check(&empty, &t), 0, "value 10 accepted");
        t.cell[80] = (uint8_t)(sg.cell[80] + 9);
        cr_assert_eq(sb_solution_check(&empty, &t), 0, "value %d accepted", t.cell[80]);
        t.cell[80] = 255;
        cr_assert_eq(sb_solution_check(&empty, &t), 0, "value 255 accepted");
    }
    /* All cells the same digit. */
    sb_grid all5, empty;
    memset(all5.cell, 5, 81);
    memset(&empty, 0, sizeof empty);
    cr_assert_eq(sb_solution_check(&empty, &all5), 0);
}

Test(api, solver_new_errors)
{
    sb_options opt;
    sb_solver *s = NULL;
    size_t np = 0;
    sb_pipelines(&np);

    sb_options_default(&opt);
    opt.simd = SB_SIMD_SCALAR;
    opt.pipeline = (int)np;
    cr_assert_eq(sb_solver_new(&s, &opt), SB_ERR_PIPELINE);
    opt.pipeline = -1;
    cr_assert_eq(sb_solver_new(&s, &opt), SB_ERR_PIPELINE);
    opt.pipeline = 1000;
    cr_assert_eq(sb_solver_new(&s, &opt), SB_ERR_PIPELINE);

    sb_options_default(&opt);
    int unsupported = -1;
    for (int l = 0; l < SB_SIMD_LEVELS; l++)
        if (!sb_simd_supported(l))
            unsupported = l;
    if (unsupported >= 0) {
        opt.simd = unsupported;
        cr_assert_eq(sb_solver_new(&s, &opt), SB_ERR_SIMD, "unsupported level %s accepted",
                     sb_simd_name(unsupported));
    }
    opt.simd = 7;
    cr_assert_eq(sb_solver_new(&s, &opt), SB_ERR_SIMD);
    opt.simd = SB_SIMD_LEVELS;
    cr_assert_eq(sb_solver_new(&s, &opt), SB_ERR_SIMD);
    opt.simd = -2;
    cr_assert_eq(sb_solver_new(&s, &opt), SB_ERR_SIMD);

    sb_solver_free(NULL);
}

Test(api, solve_argument_errors)
{
    sb_solver *s = tu_solver(2, 0, SB_SIMD_SCALAR);
    sb_grid g;
    sb_result res;
    memset(&g, 0, sizeof g);
    g.cell[17] = 10;
    cr_assert_eq(sb_solve(s, &g, &res), SB_ERR_ARG);
    g.cell[17] = 255;
    cr_assert_eq(sb_solve(s, &g, &res), SB_ERR_ARG);
    g.cell[17] = 0;
    cr_assert_eq(sb_solve(s, NULL, &res), SB_ERR_ARG);
    cr_assert_eq(sb_solve(s, &g, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_solve(NULL, &g, &res), SB_ERR_ARG);
    /* The solver still works after rejected calls. */
    cr_assert_eq(sb_solve(s, &g, &res), SB_OK);
    cr_assert_eq(res.count, 2);
    sb_solver_free(s);
}

Test(api, strerror_names)
{
    const int st[] = {SB_OK, SB_ERR_NOMEM, SB_ERR_ARG, SB_ERR_SIMD, SB_ERR_IO, SB_ERR_PIPELINE};
    const int n = (int)(sizeof st / sizeof st[0]);
    for (int i = 0; i < n; i++) {
        const char *a = sb_strerror(st[i]);
        cr_assert_not_null(a, "status %d", st[i]);
        cr_assert_gt(strlen(a), 0, "status %d", st[i]);
        for (int j = 0; j < i; j++)
            cr_assert_str_neq(a, sb_strerror(st[j]), "statuses %d and %d share a name", st[i],
                              st[j]);
    }
}

Test(api, simd_names)
{
    const char *const names[SB_SIMD_LEVELS] = {"scalar", "sse4",  "avx2",
                                               "avx512", "neon", "avx512bw"};
    for (int l = 0; l < SB_SIMD_LEVELS; l++) {
        cr_assert_str_eq(sb_simd_name(l), names[l]);
        cr_assert_eq(sb_simd_parse(sb_simd_name(l)), l);
    }
    cr_assert_eq(sb_simd_parse("auto"), SB_SIMD_AUTO);
    cr_assert_eq(sb_simd_parse("bogus"), SB_ERR_SIMD);
    cr_assert_eq(sb_simd_parse(""), SB_ERR_SIMD);
    cr_assert_eq(sb_simd_parse("avx"), SB_ERR_SIMD);
    cr_assert_str_eq(sb_simd_name(SB_SIMD_LEVELS), "?");
    cr_assert_str_eq(sb_simd_name(99), "?");
    cr_assert_str_eq(sb_simd_name(-7), "?");
}

Test(api, simd_support_and_resolve)
{
    cr_assert_eq(sb_simd_supported(SB_SIMD_SCALAR), 1);
    cr_assert_eq(sb_simd_supported(SB_SIMD_LEVELS), 0);
    cr_assert_eq(sb_simd_supported(7), 0);
    cr_assert_eq(sb_simd_resolve(SB_SIMD_SCALAR), SB_SIMD_SCALAR);
    for (int l = 0; l < SB_SIMD_LEVELS; l++)
        cr_assert_eq(sb_simd_resolve(l), sb_simd_supported(l) ? l : SB_ERR_SIMD, "level %d", l);
    cr_assert_eq(sb_simd_resolve(7), SB_ERR_SIMD);
}

/* Each test runs in its own process, so changing the environment here is contained. */
/* The x86-64 levels nest: a CPU with avx512 has avx512bw, one with avx512bw has avx2, one with
 * avx2 has sse4 (each level's feature list contains the next one's). */
Test(api, simd_levels_nest)
{
    if (sb_simd_supported(SB_SIMD_AVX512))
        cr_assert_eq(sb_simd_supported(SB_SIMD_AVX512BW), 1);
    if (sb_simd_supported(SB_SIMD_AVX512BW))
        cr_assert_eq(sb_simd_supported(SB_SIMD_AVX2), 1);
    if (sb_simd_supported(SB_SIMD_AVX2))
        cr_assert_eq(sb_simd_supported(SB_SIMD_SSE4), 1);
}

/* 1 on an AMD CPU of family 19h, read off CPUID here: auto's row for it puts avx512bw first. */
static int amd_family_19h(void)
{
#if defined(__x86_64__) || defined(__i386__)
    unsigned a, b, c, d;
    char vendor[13] = {0};
    if (!__get_cpuid(0, &a, &b, &c, &d))
        return 0;
    memcpy(vendor, &b, 4);
    memcpy(vendor + 4, &d, 4);
    memcpy(vendor + 8, &c, 4);
    if (strcmp(vendor, "AuthenticAMD") || !__get_cpuid(1, &a, &b, &c, &d))
        return 0;
    const unsigned base = a >> 8 & 0xF;
    return (base == 0xF ? base + (a >> 20 & 0xFF) : base) == 0x19;
#else
    return 0;
#endif
}

Test(api, simd_auto_and_environment)
{
    /* auto: the first supported level in this order (the enum's numbering is not it: avx512bw
     * came after neon); on AMD family 19h (Zen 4) avx512bw comes before avx512. */
    int order[] = {SB_SIMD_AVX512, SB_SIMD_AVX512BW, SB_SIMD_AVX2, SB_SIMD_SSE4, SB_SIMD_NEON};
    if (amd_family_19h()) {
        order[0] = SB_SIMD_AVX512BW;
        order[1] = SB_SIMD_AVX512;
    }
    int best = SB_SIMD_SCALAR;
    for (int i = (int)(sizeof order / sizeof order[0]) - 1; i >= 0; i--)
        if (sb_simd_supported(order[i]))
            best = order[i];

    cr_assert_eq(unsetenv("SUDOKUBENCH_SIMD"), 0);
    cr_assert_eq(sb_simd_resolve(SB_SIMD_AUTO), best);
    sb_options opt;
    sb_solver *s = NULL;
    sb_options_default(&opt);
    cr_assert_eq(sb_solver_new(&s, &opt), SB_OK);
    cr_assert_eq(sb_solver_simd(s), best);
    sb_solver_free(s);

    cr_assert_eq(setenv("SUDOKUBENCH_SIMD", "scalar", 1), 0);
    cr_assert_eq(sb_simd_resolve(SB_SIMD_AUTO), SB_SIMD_SCALAR);
    s = NULL;
    cr_assert_eq(sb_solver_new(&s, &opt), SB_OK);
    cr_assert_eq(sb_solver_simd(s), SB_SIMD_SCALAR);
    sb_solver_free(s);

    cr_assert_eq(setenv("SUDOKUBENCH_SIMD", "bogus", 1), 0);
    cr_assert_eq(sb_simd_resolve(SB_SIMD_AUTO), SB_ERR_SIMD);
    s = NULL;
    cr_assert_eq(sb_solver_new(&s, &opt), SB_ERR_SIMD);

    for (int l = 0; l < SB_SIMD_LEVELS; l++) {
        if (sb_simd_supported(l))
            continue;
        cr_assert_eq(setenv("SUDOKUBENCH_SIMD", sb_simd_name(l), 1), 0);
        cr_assert_eq(sb_simd_resolve(SB_SIMD_AUTO), SB_ERR_SIMD, "forced unsupported %s",
                     sb_simd_name(l));
        cr_assert_eq(sb_solver_new(&s, &opt), SB_ERR_SIMD);
    }
    unsetenv("SUDOKUBENCH_SIMD");
}

Test(api, pipeline_registry)
{
    size_t np = 0;
    const sb_pipeline_info *pl = sb_pipelines(&np);
    cr_assert_not_null(pl);
    cr_assert_geq(np, 1);
    int fast = sb_pipeline_find("fast");
    cr_assert_eq(fast, 0, "\"fast\" should be pipeline 0 (the default), found at %d", fast);
    cr_assert_str_eq(pl[fast].name, "fast");
    for (size_t i = 0; i < np; i++) {
        cr_assert_not_null(pl[i].name);
        cr_assert_not_null(pl[i].description);
        cr_assert_gt(strlen(pl[i].name), 0);
        cr_assert_gt(strlen(pl[i].description), 0);
        cr_assert_eq(sb_pipeline_find(pl[i].name), (int)i, "pipeline %s", pl[i].name);
        for (size_t j = 0; j < i; j++)
            cr_assert_str_neq(pl[i].name, pl[j].name);
    }
    cr_assert_eq(sb_pipeline_find("no-such-pipeline"), SB_ERR_PIPELINE);
    cr_assert_eq(sb_pipeline_find(""), SB_ERR_PIPELINE);
}
