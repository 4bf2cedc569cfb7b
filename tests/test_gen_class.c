/*
 * test_gen_class.c — sb_generate_class (generate --class): every puzzle it returns is proper
 * (every solution counted) and rated in the class asked for;
 * class -1 is sb_generate; the result depends on (seed, index, class) only; a class no
 * candidate reaches within the tries is reported, not faked; its singles test gives the
 * rating's verdict.
 */
#include <string.h>

#include "internal.h"
#include "test_util.h"

/* A generator of the defaults with seed. */
static sb_generator *gen(uint64_t seed)
{
    sb_gen_options o;
    sb_gen_options_default(&o);
    o.seed = seed;
    sb_generator *g;
    cr_assert_eq(sb_generator_new(&g, &o), SB_OK);
    return g;
}

Test(gen_class, puzzles_are_proper_and_in_the_class_asked_for)
{
    sb_generator *g = gen(7);
    sb_options o;
    sb_options_default(&o);
    o.limit = 0; /* every solution counted */
    sb_solver *s;
    cr_assert_eq(sb_solver_new(&s, &o), SB_OK);
    const int classes[] = {SB_CLASS_SINGLES, SB_CLASS_HIDDEN, SB_CLASS_LOCKED};
    for (size_t c = 0; c < sizeof classes / sizeof *classes; c++)
        for (uint64_t i = 0; i < 6; i++) {
            sb_generated p;
            cr_assert_eq(sb_generate_class(g, i, classes[c], 2000, &p), 1, "class %d index %llu",
                         classes[c], (unsigned long long)i);
            sb_rating rt;
            cr_assert_eq(sb_rate(&p.puzzle, &rt), SB_OK);
            cr_assert_eq((int)rt.cls, classes[c]);
            sb_result r;
            cr_assert_eq(sb_solve(s, &p.puzzle, &r), SB_OK);
            cr_assert_eq(r.count, 1, "one solution");
            cr_assert(!memcmp(&r.solution, &p.solution, sizeof r.solution));
            cr_assert_geq(p.attempts, 1);
        }
    sb_solver_free(s);
    sb_generator_free(g);
}

Test(gen_class, any_class_is_sb_generate_and_results_repeat)
{
    sb_generator *g = gen(3), *h = gen(3);
    for (uint64_t i = 0; i < 5; i++) {
        sb_generated a, b, c;
        cr_assert_eq(sb_generate(g, i, &a), 1);
        cr_assert_eq(sb_generate_class(h, i, -1, 1000, &b), 1);
        cr_assert(!memcmp(&a.puzzle, &b.puzzle, sizeof a.puzzle), "index %llu", (unsigned long long)i);
        cr_assert_eq(a.attempts, b.attempts);
        /* the same (seed, index, class) from another generator, after other calls */
        cr_assert_eq(sb_generate_class(g, i, SB_CLASS_HIDDEN, 2000, &b), 1);
        cr_assert_eq(sb_generate_class(h, i, SB_CLASS_HIDDEN, 2000, &c), 1);
        cr_assert(!memcmp(&b.puzzle, &c.puzzle, sizeof b.puzzle));
    }
    sb_generator_free(g);
    sb_generator_free(h);
}

Test(gen_class, one_try_of_another_class_gives_up)
{
    /* candidate 0 is sb_generate's puzzle: with one try, any other class is out of reach */
    sb_generator *g = gen(1);
    sb_generated a, p;
    cr_assert_eq(sb_generate(g, 0, &a), 1);
    sb_rating rt;
    cr_assert_eq(sb_rate(&a.puzzle, &rt), SB_OK);
    const int other = rt.cls == SB_CLASS_SEARCH ? SB_CLASS_SINGLES : SB_CLASS_SEARCH;
    cr_assert_eq(sb_generate_class(g, 0, other, 1, &p), 0);
    cr_assert_eq(p.attempts, a.attempts, "the one candidate's attempts");
    cr_assert_eq(sb_generate_class(g, 0, (int)rt.cls, 1, &p), 1, "its own class fits at once");
    cr_assert(!memcmp(&p.puzzle, &a.puzzle, sizeof p.puzzle));
    cr_assert_lt(sb_generate_class(NULL, 0, -1, 1, &p), 0, "NULL generator refused");
    sb_generator_free(g);
}

/* sb_singles_class against the rating engine on puzzles of every kind: the generator's (nine
 * in ten of them singles or hidden), minimal ones, and the committed samples' hard ones. */
static void check_singles_class(const sb_grid *p, int seen[3])
{
    sb_rating rt;
    cr_assert_eq(sb_rate(p, &rt), SB_OK);
    const int want = rt.cls < SB_CLASS_LOCKED ? (int)rt.cls : SB_CLASS_LOCKED;
    const int got = sb_singles_class(p);
    if (got != want) {
        char t[82];
        tu_text(p->cell, t);
        cr_assert_fail("%s: singles class %d, the rating's %d", t, got, (int)rt.cls);
    }
    seen[got]++;
}

Test(gen_class, singles_class_is_the_ratings_verdict_cut_at_locked)
{
    int seen[3] = {0};
    sb_gen_options o;
    sb_gen_options_default(&o);
    for (int minimal = 0; minimal < 2; minimal++) {
        o.seed = 11 + (uint64_t)minimal;
        o.minimal = minimal;
        sb_generator *g;
        cr_assert_eq(sb_generator_new(&g, &o), SB_OK);
        const uint64_t n = TU_SAMPLE(minimal ? 300 : 3000);
        for (uint64_t i = 0; i < n; i++) {
            sb_generated p;
            cr_assert_eq(sb_generate(g, i, &p), 1);
            check_singles_class(&p.puzzle, seen);
        }
        sb_generator_free(g);
    }
    static const char *const files[] = {"datasets/samples/17_clue_2000.txt",
                                        "datasets/samples/top1465.txt",
                                        "datasets/samples/hardest_11plus_1000.txt"};
    const size_t n = TU_SAMPLE(300);
    uint8_t *cells = malloc(n * SB_CELLS);
    cr_assert(cells);
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        tu_load_cells(files[f], cells, n);
        for (size_t i = 0; i < n; i++) {
            const sb_grid p = tu_from_cells(cells + i * SB_CELLS);
            check_singles_class(&p, seen);
        }
    }
    free(cells);
    cr_assert_gt(seen[SB_CLASS_SINGLES], 0);
    cr_assert_gt(seen[SB_CLASS_HIDDEN], 0);
    cr_assert_gt(seen[SB_CLASS_LOCKED], 0);
}
