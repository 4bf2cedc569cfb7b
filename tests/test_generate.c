/*
 * test_generate.c — the generator and the validity-preserving transforms, checked against the
 * independent reference solver (reference.c): every generated puzzle has exactly one
 * solution and it is the one reported; --minimal puzzles lose uniqueness without any clue;
 * symmetry, clue and guess bounds hold; output depends only on (seed, index, options) and
 * stays the same from version to version;
 * transforms keep solution counts (0, 1, 2+) and map solutions to solutions.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "sudokubench.h"
#include "test_util.h"

/* The default options with another seed. */
static sb_gen_options seeded(uint64_t seed)
{
    sb_gen_options opt;
    sb_gen_options_default(&opt);
    opt.seed = seed;
    return opt;
}

/* Creates a generator from opt, asserting success. */
static sb_generator *make_gen(const sb_gen_options *opt)
{
    sb_generator *g = NULL;
    const int rc = sb_generator_new(&g, opt);
    cr_assert_eq(rc, SB_OK, "sb_generator_new = %d (%s)", rc, sb_strerror(rc));
    cr_assert_not_null(g);
    return g;
}

/* Generates puzzle index, asserting it was made. */
static sb_generated gen_one(sb_generator *g, uint64_t index)
{
    sb_generated p;
    memset(&p, 0xA5, sizeof p); /* make stale fields visible */
    const int rc = sb_generate(g, index, &p);
    cr_assert_eq(rc, 1, "sb_generate(%llu) = %d", (unsigned long long)index, rc);
    return p;
}

/* Asserts that p is proper by the reference: one solution, equal to p->solution, the givens
 * are the solution's digits, and clues counts them. */
static void assert_proper(const sb_generated *p, const char *what)
{
    char t[82];
    tu_text(p->puzzle.cell, t);
    uint8_t sol[81];
    cr_assert_eq(ref_count(p->puzzle.cell, 2, sol), 1, "%s: not exactly one solution: %s", what,
                 t);
    cr_assert_arr_eq(sol, p->solution.cell, 81, "%s: reported solution is not the solution of %s",
                     what, t);
    cr_assert(ref_is_valid_solution(p->puzzle.cell, p->solution.cell), "%s: %s", what, t);
    cr_assert_eq(ref_clues(p->puzzle.cell), p->clues, "%s: clues %d, counted %d: %s", what,
                 p->clues, ref_clues(p->puzzle.cell), t);
}

Test(generate, default_puzzles_are_proper_by_reference)
{
    sb_gen_options opt = seeded(7);
    sb_generator *g = make_gen(&opt);
    sb_solver *s = tu_solver(2, 0, SB_SIMD_SCALAR);
    int min_clues = 81, max_clues = 0;
    for (uint64_t i = 0; i < 1500; i++) {
        const sb_generated p = gen_one(g, i);
        assert_proper(&p, "default");
        cr_assert_eq(p.attempts, 1, "no bound was set, yet %llu attempts",
                     (unsigned long long)p.attempts);
        const sb_result res = tu_solve(s, p.puzzle.cell);
        cr_assert_eq(res.guesses, p.guesses, "reported %llu guesses, solve says %llu",
                     (unsigned long long)p.guesses, (unsigned long long)res.guesses);
        min_clues = p.clues < min_clues ? p.clues : min_clues;
        max_clues = p.clues > max_clues ? p.clues : max_clues;
    }
    /* Default digging goes well below a full grid (it stops at the first necessary clue). */
    cr_assert_lt(max_clues, 45, "default digging left %d clues", max_clues);
    cr_assert_geq(min_clues, SB_MIN_CLUES);
    sb_solver_free(s);
    sb_generator_free(g);
}

Test(generate, minimal_puzzles_lose_uniqueness_without_any_clue)
{
    sb_gen_options opt = seeded(11);
    opt.minimal = 1;
    sb_generator *g = make_gen(&opt);
    for (uint64_t i = 0; i < 60; i++) {
        const sb_generated p = gen_one(g, i);
        assert_proper(&p, "minimal");
        cr_assert_leq(p.clues, 32, "a minimal puzzle with %d clues is implausible", p.clues);
        uint8_t q[81];
        for (int c = 0; c < 81; c++) {
            if (!p.puzzle.cell[c])
                continue;
            memcpy(q, p.puzzle.cell, 81);
            q[c] = 0;
            char t[82];
            tu_text(p.puzzle.cell, t);
            cr_assert_eq(ref_count(q, 2, NULL), 2, "puzzle %llu: clue r%dc%d can go: %s",
                         (unsigned long long)i, c / 9 + 1, c % 9 + 1, t);
        }
    }
    sb_generator_free(g);
}

Test(generate, output_depends_only_on_seed_index_and_options)
{
    sb_gen_options opt = seeded(42);
    opt.symmetry = SB_SYM_ROT180;
    enum { N = 40 };
    static sb_generated forward[N];
    sb_generator *a = make_gen(&opt);
    for (int i = 0; i < N; i++)
        forward[i] = gen_one(a, (uint64_t)i);
    /* Another context, indices in reverse order, on every SIMD level this CPU has. */
    int levels[SB_SIMD_LEVELS];
    const int nl = tu_supported_levels(levels);
    for (int l = 0; l < nl; l++) {
        opt.simd = levels[l];
        sb_generator *b = make_gen(&opt);
        for (int i = N - 1; i >= 0; i--) {
            const sb_generated p = gen_one(b, (uint64_t)i);
            cr_assert_arr_eq(p.puzzle.cell, forward[i].puzzle.cell, 81,
                             "index %d differs on level %s or in reverse order", i,
                             sb_simd_name(levels[l]));
            cr_assert_arr_eq(p.solution.cell, forward[i].solution.cell, 81);
            cr_assert_eq(p.guesses, forward[i].guesses);
        }
        sb_generator_free(b);
    }
    /* Another seed gives other puzzles. */
    opt.seed = 43;
    opt.simd = SB_SIMD_AUTO;
    sb_generator *c = make_gen(&opt);
    int same = 0;
    for (int i = 0; i < N; i++) {
        const sb_generated p = gen_one(c, (uint64_t)i);
        same += !memcmp(p.puzzle.cell, forward[i].puzzle.cell, 81);
    }
    cr_assert_eq(same, 0, "%d of %d puzzles equal under another seed", same, N);
    sb_generator_free(c);
    sb_generator_free(a);
}

/* FNV-1a over n bytes, continuing from h. */
static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * UINT64_C(0x100000001B3);
    return h;
}

/* A corpus made from a seed must stay the same corpus in every later version: the digests
 * below (puzzle, solution and guess count of the first n puzzles, FNV-1a) and the first
 * puzzle of each were recorded from the generator; a change to the grid maker, the digging
 * order, the random draws or the options' meaning shows here. */
Test(generate, puzzles_of_a_seed_stay_the_same_across_versions)
{
    static const struct {
        uint64_t seed;
        int minimal, symmetry, max_clues, n;
        uint64_t digest;
        const char *first;
    } pins[] = {
        {1, 0, SB_SYM_NONE, 81, 50, UINT64_C(0x9764721ff0b1b95f),
         "..5.....94....21...2..4..73...8....6..9.17....37.6.8.4.6.95..2.8...3..6.1926..3.8"},
        {2, 1, SB_SYM_NONE, 81, 20, UINT64_C(0xcb4239b09666e8e6),
         "......2..1..6.5..39....38....6...54....2....18.3..6........13.4.5..7.........9..6"},
        {3, 1, SB_SYM_ROT90, 81, 10, UINT64_C(0x7cdb728ee98ac87d),
         "2.....73816....24.73..2.......916.....98.46.....253.......3..76.73....24652.....3"},
        {4, 0, SB_SYM_NONE, 24, 5, UINT64_C(0x9c8836e88cb0fbf0),
         "7.......9..146........5...2.631..25.8......6....8..1....82..5....2..78..5...4...."},
    };
    for (size_t t = 0; t < sizeof pins / sizeof pins[0]; t++) {
        sb_gen_options opt = seeded(pins[t].seed);
        opt.minimal = pins[t].minimal;
        opt.symmetry = pins[t].symmetry;
        opt.max_clues = pins[t].max_clues;
        sb_generator *g = make_gen(&opt);
        uint64_t h = UINT64_C(0xCBF29CE484222325);
        for (int i = 0; i < pins[t].n; i++) {
            const sb_generated p = gen_one(g, (uint64_t)i);
            const uint64_t guesses = p.guesses;
            h = fnv1a(h, p.puzzle.cell, 81);
            h = fnv1a(h, p.solution.cell, 81);
            h = fnv1a(h, &guesses, sizeof guesses);
            if (i == 0) {
                char text[82];
                tu_text(p.puzzle.cell, text);
                cr_assert_str_eq(text, pins[t].first, "seed %llu: first puzzle",
                                 (unsigned long long)pins[t].seed);
            }
        }
        cr_assert_eq(h, pins[t].digest, "seed %llu: digest %016llx, recorded %016llx",
                     (unsigned long long)pins[t].seed, (unsigned long long)h,
                     (unsigned long long)pins[t].digest);
        sb_generator_free(g);
    }
}

Test(generate, symmetric_patterns_hold)
{
    for (int sym = 0; sym < SB_SYM_COUNT; sym++) {
        for (int minimal = 0; minimal <= 1; minimal++) {
            sb_gen_options opt = seeded(5);
            opt.symmetry = sym;
            opt.minimal = minimal;
            sb_generator *g = make_gen(&opt);
            for (uint64_t i = 0; i < (minimal ? 6u : 30u); i++) {
                const sb_generated p = gen_one(g, i);
                assert_proper(&p, sb_symmetry_name(sym));
                for (int cell = 0; cell < 81; cell++) {
                    const int img = ref_symmetry_image(sym, cell / 9, cell % 9);
                    cr_assert_eq(!p.puzzle.cell[cell], !p.puzzle.cell[img],
                                 "%s: r%dc%d and its image r%dc%d differ", sb_symmetry_name(sym),
                                 cell / 9 + 1, cell % 9 + 1, img / 9 + 1, img % 9 + 1);
                }
            }
            sb_generator_free(g);
        }
    }
}

Test(generate, clue_bound_holds)
{
    sb_gen_options opt = seeded(3);
    opt.max_clues = 24;
    sb_generator *g = make_gen(&opt);
    int retried = 0;
    for (uint64_t i = 0; i < 20; i++) {
        const sb_generated p = gen_one(g, i);
        assert_proper(&p, "--clues 24");
        cr_assert_leq(p.clues, 24);
        retried += p.attempts > 1;
    }
    cr_assert_gt(retried, 0, "a bound of 24 should need a retry now and then");
    sb_generator_free(g);
}

Test(generate, guess_range_holds)
{
    sb_gen_options opt = seeded(9);
    opt.minimal = 1;
    opt.min_guesses = 2;
    opt.max_guesses = 6;
    sb_generator *g = make_gen(&opt);
    sb_solver *s = tu_solver(2, 0, SB_SIMD_SCALAR);
    for (uint64_t i = 0; i < 10; i++) {
        const sb_generated p = gen_one(g, i);
        assert_proper(&p, "--guesses 2-6");
        const sb_result res = tu_solve(s, p.puzzle.cell);
        cr_assert(res.guesses >= 2 && res.guesses <= 6, "guesses %llu outside 2..6",
                  (unsigned long long)res.guesses);
        cr_assert_eq(res.guesses, p.guesses);
    }
    sb_solver_free(s);
    sb_generator_free(g);
}

Test(generate, gives_up_after_max_attempts_with_a_proper_candidate)
{
    sb_gen_options opt;
    sb_gen_options_default(&opt);
    opt.max_clues = SB_MIN_CLUES; /* practically never reached by random digging */
    opt.max_attempts = 3;
    sb_generator *g = make_gen(&opt);
    sb_generated p;
    memset(&p, 0xA5, sizeof p); /* make stale fields visible */
    cr_assert_eq(sb_generate(g, 0, &p), 0);
    cr_assert_eq(p.attempts, 3);
    uint8_t sol[81];
    cr_assert_eq(ref_count(p.puzzle.cell, 2, sol), 1, "the last candidate must still be proper");
    cr_assert_arr_eq(sol, p.solution.cell, 81);
    cr_assert_eq(ref_clues(p.puzzle.cell), p.clues);
    sb_solver *s = tu_solver(2, 0, SB_SIMD_SCALAR);
    cr_assert_eq(tu_solve(s, p.puzzle.cell).guesses, p.guesses, "stale guess count");
    sb_solver_free(s);
    sb_generator_free(g);
}

Test(generate, bad_options_are_refused)
{
    sb_gen_options opt;
    sb_generator *g = (sb_generator *)&opt; /* must be reset to NULL on failure */
    sb_gen_options_default(&opt);
    opt.max_clues = SB_MIN_CLUES - 1;
    cr_assert_eq(sb_generator_new(&g, &opt), SB_ERR_ARG, "16 clues never give one solution");
    cr_assert_null(g);
    sb_gen_options_default(&opt);
    opt.max_clues = 82;
    cr_assert_eq(sb_generator_new(&g, &opt), SB_ERR_ARG);
    sb_gen_options_default(&opt);
    opt.min_guesses = 5;
    opt.max_guesses = 4;
    cr_assert_eq(sb_generator_new(&g, &opt), SB_ERR_ARG);
    sb_gen_options_default(&opt);
    opt.max_attempts = 0;
    cr_assert_eq(sb_generator_new(&g, &opt), SB_ERR_ARG);
    sb_gen_options_default(&opt);
    opt.symmetry = SB_SYM_COUNT;
    cr_assert_eq(sb_generator_new(&g, &opt), SB_ERR_ARG);
    cr_assert_eq(sb_generator_new(NULL, &opt), SB_ERR_ARG);
    cr_assert_eq(sb_generate(NULL, 0, NULL), SB_ERR_ARG);
    sb_generator_free(NULL);
}

Test(generate, symmetry_names_round_trip)
{
    for (int s = 0; s < SB_SYM_COUNT; s++)
        cr_assert_eq(sb_symmetry_parse(sb_symmetry_name(s)), s);
    cr_assert_eq(sb_symmetry_parse("spiral"), SB_ERR_ARG);
    cr_assert_eq(sb_symmetry_parse(NULL), SB_ERR_ARG);
    cr_assert_str_eq(sb_symmetry_name(-1), "?");
}

/* sb_symmetry_image on any n: each map is a permutation with the documented images of the
 * corner (0, 0), rot90 has order 4, the reflections and rot180 order 2. */
Test(generate, symmetry_images_are_the_documented_maps)
{
    for (int n = 1; n <= 16; n++) {
        const int last = n - 1;
        /* where (0, 0) goes: rot180 (last, last), rot90 (0, last), mirror (0, last), diagonal */
        const int corner[SB_SYM_COUNT] = {0, n * last + last, last, last, 0};
        for (int sym = 0; sym < SB_SYM_COUNT; sym++) {
            cr_assert_eq(sb_symmetry_image(sym, n, 0), corner[sym], "%s n=%d",
                         sb_symmetry_name(sym), n);
            const int order = sym == SB_SYM_ROT90 ? 4 : sym == SB_SYM_NONE ? 1 : 2;
            unsigned char hit[256] = {0};
            for (int c = 0; c < n * n; c++) {
                const int x = sb_symmetry_image(sym, n, c);
                cr_assert(x >= 0 && x < n * n && !hit[x], "%s n=%d: not a permutation",
                          sb_symmetry_name(sym), n);
                hit[x] = 1;
                int y = c;
                for (int k = 0; k < order; k++)
                    y = sb_symmetry_image(sym, n, y);
                cr_assert_eq(y, c, "%s n=%d: order is not %d", sb_symmetry_name(sym), n, order);
            }
        }
        if (n > 1) /* a quarter turn moves (0, 1) to (1, last) */
            cr_assert_eq(sb_symmetry_image(SB_SYM_ROT90, n, 1), n + last);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* PRNG and transforms                                                                        */
/* ------------------------------------------------------------------------------------------ */

Test(rng, streams_are_reproducible_and_below_is_uniform)
{
    sb_rng a, b;
    sb_rng_seed(&a, 1, 5);
    sb_rng_seed(&b, 1, 5);
    for (int i = 0; i < 100; i++)
        cr_assert_eq(sb_rng_next(&a), sb_rng_next(&b));
    sb_rng_seed(&b, 1, 6);
    cr_assert_neq(sb_rng_next(&a), sb_rng_next(&b), "neighbouring streams coincide");
    cr_assert_eq(sb_rng_below(&a, 0), 0);
    enum { BINS = 6, DRAWS = 60000 };
    int hist[BINS] = {0};
    for (int i = 0; i < DRAWS; i++) {
        const uint64_t v = sb_rng_below(&a, BINS);
        cr_assert_lt(v, BINS);
        hist[v]++;
    }
    for (int i = 0; i < BINS; i++) /* expected 10000 each; 5 sigma is about 460 */
        cr_assert(hist[i] > 9400 && hist[i] < 10600, "bin %d got %d of %d", i, hist[i], DRAWS);
    const uint64_t big = UINT64_C(0xC000000000000001); /* the rejection zone is large here */
    for (int i = 0; i < 1000; i++)
        cr_assert_lt(sb_rng_below(&a, big), big);
}

/* Asserts t is a bijection of cells and of digits 1..9 keeping 0. */
static void assert_permutation(const sb_transform *t)
{
    int seen[81] = {0}, dseen[10] = {0};
    for (int i = 0; i < 81; i++) {
        cr_assert_lt(t->cell[i], 81);
        cr_assert_eq(seen[t->cell[i]]++, 0, "cell %d used twice", t->cell[i]);
    }
    cr_assert_eq(t->digit[0], 0);
    for (int d = 1; d <= 9; d++) {
        cr_assert(t->digit[d] >= 1 && t->digit[d] <= 9);
        cr_assert_eq(dseen[t->digit[d]]++, 0);
    }
}

Test(transform, index_zero_is_identity_and_indices_are_checked)
{
    sb_transform t;
    sb_transform_identity(&t);
    for (int i = 0; i < 81; i++)
        cr_assert_eq(t.cell[i], i);
    for (int d = 0; d <= 9; d++)
        cr_assert_eq(t.digit[d], d);
    cr_assert_eq(sb_transform_from_index(&t, SB_TRANSFORMS), SB_ERR_ARG);
    cr_assert_eq(sb_transform_from_index(NULL, 0), SB_ERR_ARG);
    cr_assert_eq(sb_transform_from_index(&t, SB_TRANSFORMS - 1), SB_OK);
    assert_permutation(&t);
}

Test(transform, distinct_indices_give_distinct_valid_transforms)
{
    enum { N = 3000 };
    static sb_transform seen[N];
    sb_rng r;
    sb_rng_seed(&r, 2, 0);
    int transposed = 0;
    for (int i = 0; i < N; i++) {
        /* Random indices and small ones: each part of the mixed-radix index gets exercised. */
        const uint64_t index = i < 200 ? (uint64_t)i : sb_rng_below(&r, SB_TRANSFORMS);
        cr_assert_eq(sb_transform_from_index(&seen[i], index), SB_OK);
        assert_permutation(&seen[i]);
        transposed += seen[i].cell[1] % 9 == seen[i].cell[0] % 9; /* a column, not a row */
        for (int j = 0; j < i; j++)
            cr_assert(memcmp(&seen[i], &seen[j], sizeof seen[i]) != 0,
                      "indices %d and %d give the same transform", i, j);
    }
    cr_assert_gt(transposed, N / 4, "transposes are missing");
    cr_assert_lt(transposed, 3 * N / 4);
}

/* The rank of a permutation of 0..8 among all 9! (Lehmer code), to mark it as seen. */
static int perm_rank(const uint8_t p[9])
{
    int rank = 0;
    for (int i = 0; i < 9; i++) {
        int smaller = 0;
        for (int j = i + 1; j < 9; j++)
            smaller += p[j] < p[i];
        rank = rank * (9 - i) + smaller;
    }
    return rank;
}

Test(transform, every_relabelling_and_line_order_is_reached_once)
{
    enum { FACT9 = 362880, LINES = 1296 };
    const uint64_t digit_step = UINT64_C(2) * LINES * LINES; /* index layout, low to high: */
    uint8_t *seen = calloc(FACT9, 1);                         /* transpose, columns, rows, digits */
    cr_assert_not_null(seen);
    sb_transform t;
    for (uint64_t k = 0; k < FACT9; k++) {
        cr_assert_eq(sb_transform_from_index(&t, k * digit_step), SB_OK);
        uint8_t p[9];
        for (int d = 0; d < 9; d++)
            p[d] = (uint8_t)(t.digit[d + 1] - 1);
        const int rank = perm_rank(p);
        cr_assert_eq(seen[rank]++, 0, "relabelling code %llu repeats another",
                     (unsigned long long)k);
    }
    for (int axis = 0; axis < 2; axis++) { /* 0: row orders, 1: column orders */
        memset(seen, 0, FACT9);
        for (uint64_t k = 0; k < LINES; k++) {
            const uint64_t index = axis ? 2 * k : 2 * LINES * k;
            cr_assert_eq(sb_transform_from_index(&t, index), SB_OK);
            uint8_t src[9];
            for (int i = 0; i < 9; i++)
                src[i] = axis ? t.cell[i] : (uint8_t)(t.cell[9 * i] / 9);
            for (int i = 0; i < 9; i++)
                cr_assert_eq(src[i] / 3, src[i - i % 3] / 3, "line %d leaves its band", i);
            const int rank = perm_rank(src);
            cr_assert_eq(seen[rank]++, 0, "line order %llu repeats another",
                         (unsigned long long)k);
        }
    }
    free(seen);
    /* The lowest bit transposes: output row 0 then reads input column 0. */
    cr_assert_eq(sb_transform_from_index(&t, 1), SB_OK);
    for (int i = 0; i < 9; i++)
        cr_assert_eq(t.cell[i], 9 * i);
}

/* Sets base to a reference-made puzzle of each class, cycling: unique, several solutions,
 * none. Returns the class's reference count (up to 3). */
static int class_puzzle(ref_rng *r, int k, uint8_t out[81])
{
    uint8_t full[81];
    ref_random_full_grid(r, full);
    ref_unique_puzzle(r, full, 26, out);
    if (k % 3 == 1) { /* several: blank clues until the reference finds more than one */
        for (int c = 0; c < 81 && ref_count(out, 2, NULL) < 2; c++)
            out[c] = 0;
    } else if (k % 3 == 2) { /* none: a blank given a fitting digit that is not its own */
        for (int c = 0; c < 81; c++)
            if (!out[c])
                for (int d = 1; d <= 9; d++)
                    if (d != full[c] && ref_digit_fits(out, c, d)) {
                        out[c] = (uint8_t)d;
                        if (ref_count(out, 1, NULL) == 0)
                            return 0;
                        out[c] = 0;
                    }
    }
    return ref_count(out, 3, NULL);
}

Test(transform, preserves_counts_and_maps_solutions_to_solutions)
{
    ref_rng r;
    ref_rng_seed(&r, 77);
    sb_rng rng;
    sb_rng_seed(&rng, 77, 0);
    int classes[4] = {0};
    for (int k = 0; k < 45; k++) {
        uint8_t p[81], sol[81];
        const int count = class_puzzle(&r, k, p);
        classes[count > 2 ? 2 : count]++;
        ref_count(p, 1, sol);
        const sb_grid pg = tu_from_cells(p), sg = tu_from_cells(sol);
        for (int j = 0; j < 8; j++) {
            sb_transform t;
            sb_transform_random(&t, &rng);
            sb_grid tp, ts;
            sb_transform_apply(&t, &pg, &tp);
            sb_transform_apply(&t, &sg, &ts);
            uint8_t tsol[81];
            cr_assert_eq(ref_count(tp.cell, 3, tsol), count, "puzzle %d: count changed", k);
            if (count == 1)
                cr_assert_arr_eq(tsol, ts.cell, 81, "solution of transform != transformed solution");
            if (count >= 1)
                cr_assert(ref_is_valid_solution(tp.cell, ts.cell),
                          "a transformed solution is no solution of the transformed puzzle");
            char a[SB_GRID_TEXT], b[SB_CELLS];
            sb_grid_format(&tp, a);
            sb_transform_format(&t, &pg, b);
            cr_assert(!memcmp(a, b, SB_CELLS), "format and apply disagree");
        }
    }
    cr_assert(classes[0] && classes[1] && classes[2], "classes 0/1/2+: %d %d %d", classes[0],
              classes[1], classes[2]);
}
