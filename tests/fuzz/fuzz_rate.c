/*
 * fuzz_rate.c — libFuzzer target: sb_rate on any puzzle (fuzz_grid of the input).
 *
 * Invariants: no crash; rating is deterministic; a class below "search" means the
 * techniques completed the grid, so the puzzle has exactly one solution (the fast solver,
 * limit 2); the techniques outside the class's set did nothing; class "singles" holds
 * exactly when the independent naked-singles filler of tests/reference.c completes the grid
 * to a valid solution.
 */
#include "fuzz_util.h"
#include "reference.h"

static sb_solver *solver;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    sb_options o;
    sb_options_default(&o);
    FUZZ_CHECK(sb_solver_new(&solver, &o) == SB_OK, "solver");
    return 0;
}

/* @return 1 when technique t belongs to the technique set of class cls (below search). */
static int in_class(int t, int cls)
{
    switch (cls) {
    case SB_CLASS_SINGLES: return t == SB_TECH_NAKED_SINGLE;
    case SB_CLASS_HIDDEN: return t <= SB_TECH_HIDDEN_SINGLE;
    case SB_CLASS_LOCKED: return t <= SB_TECH_LOCKED;
    default: return 1;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sb_grid g;
    fuzz_grid(data, size, &g);
    sb_rating a, b;
    FUZZ_CHECK(sb_rate(&g, &a) == SB_OK, "sb_rate failed");
    FUZZ_CHECK(sb_rate(&g, &b) == SB_OK && !memcmp(&a, &b, sizeof a), "not deterministic");
    FUZZ_CHECK(a.cls >= SB_CLASS_SINGLES && a.cls < SB_CLASS_COUNT, "class %d", a.cls);
    if (a.cls != SB_CLASS_SEARCH) {
        sb_result res;
        FUZZ_CHECK(sb_solve(solver, &g, &res) == SB_OK && res.count == 1,
                   "class %s but %llu solutions", sb_class_name(a.cls),
                   (unsigned long long)res.count);
        for (int t = 0; t < SB_TECH_COUNT; t++)
            FUZZ_CHECK(in_class(t, a.cls) || (a.counts[t].applications == 0 &&
                                              a.counts[t].eliminations == 0),
                       "technique %d worked at class %s", t, sb_class_name(a.cls));
    }
    uint8_t filled[SB_CELLS];
    const int singles = ref_naked_singles(g.cell, filled) && !ref_has_conflict(g.cell) &&
                        ref_is_valid_solution(g.cell, filled);
    FUZZ_CHECK(singles == (a.cls == SB_CLASS_SINGLES),
               "class %s, the reference naked-singles filler %s", sb_class_name(a.cls),
               singles ? "completes it" : "does not complete it");
    return 0;
}
