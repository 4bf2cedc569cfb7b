/*
 * fuzz_generate.c — libFuzzer target: generator and augment invariants.
 *
 * The input chooses a seed, an index, a symmetry, minimal digging, a clue bound and a
 * transform. Invariants: a generated puzzle has exactly one solution by the dancing-links
 * oracle (tests/dlx.c), and it is the one reported; its clue count is right and within the
 * bound; its clue pattern has the symmetry; the same (seed, index, options) give the same
 * puzzle again and at the scalar level. Augmenting (any of the SB_TRANSFORMS transforms)
 * preserves the solution count — of the generated puzzle and of the input's own puzzle
 * (fuzz_grid, counted with limit 2 by the oracle) — maps the solution to the solution, and
 * sb_transform_format writes what sb_transform_apply makes.
 */
#include "dlx.h"
#include "fuzz_util.h"
#include "reference.h"

static int houses[SB_HOUSES * SB_DIGITS];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    ref_sudoku_houses(houses);
    return 0;
}

/* Counts with limit 2 by the oracle. */
static uint64_t count2(const uint8_t *cells, uint8_t *first)
{
    return dlx_count(SB_CELLS, SB_DIGITS, SB_HOUSES, houses, cells, 2, first);
}

/* Checks that transform t preserves p's count and maps its first solution to a solution. */
static void check_transform(const sb_transform *t, const sb_grid *p)
{
    uint8_t sol[SB_CELLS], tsol[SB_CELLS];
    const uint64_t n = count2(p->cell, sol);
    sb_grid tp, s, ts;
    sb_transform_apply(t, p, &tp);
    FUZZ_CHECK(count2(tp.cell, tsol) == n, "a transform changed the count from %llu",
               (unsigned long long)n);
    char text[SB_GRID_TEXT], direct[SB_CELLS];
    sb_grid_format(&tp, text);
    sb_transform_format(t, p, direct);
    FUZZ_CHECK(!memcmp(text, direct, SB_CELLS), "sb_transform_format differs from apply");
    if (n >= 1) {
        memcpy(s.cell, sol, SB_CELLS);
        sb_transform_apply(t, &s, &ts);
        FUZZ_CHECK(sb_solution_check(&tp, &ts), "the transformed solution does not solve");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t pos = 0;
    sb_gen_options o;
    sb_gen_options_default(&o);
    o.seed = fuzz_u64(data, size, &pos);
    const uint64_t index = fuzz_u64(data, size, &pos) % 1000000;
    const uint64_t tindex = fuzz_u64(data, size, &pos) % SB_TRANSFORMS;
    const uint8_t flags = pos < size ? data[pos] : 0;
    pos++;
    o.symmetry = flags % SB_SYM_COUNT;
    o.minimal = (flags >> 3) & 1;
    o.max_clues = 30 + (flags >> 4) * 3; /* 30..75: reachable in a few attempts */
    o.max_attempts = 4;
    sb_generator *gen;
    FUZZ_CHECK(sb_generator_new(&gen, &o) == SB_OK, "sb_generator_new");
    sb_generated a;
    const int rc = sb_generate(gen, index, &a);
    FUZZ_CHECK(rc == 0 || rc == 1, "sb_generate returned %d", rc);
    uint8_t sol[SB_CELLS];
    FUZZ_CHECK(count2(a.puzzle.cell, sol) == 1, "a generated puzzle is not unique");
    FUZZ_CHECK(!memcmp(sol, a.solution.cell, SB_CELLS), "the reported solution is not it");
    int clues = 0;
    for (int c = 0; c < SB_CELLS; c++)
        clues += a.puzzle.cell[c] != 0;
    FUZZ_CHECK(clues == a.clues, "clues %d, reported %d", clues, a.clues);
    FUZZ_CHECK(rc == 0 || clues <= o.max_clues, "%d clues over the bound %d", clues,
               o.max_clues);
    FUZZ_CHECK(rc == 1 || a.attempts == o.max_attempts, "gave up after %llu attempts",
               (unsigned long long)a.attempts);
    for (int r = 0; r < 9; r++)
        for (int c = 0; c < 9; c++)
            FUZZ_CHECK(!a.puzzle.cell[9 * r + c] ==
                           !a.puzzle.cell[ref_symmetry_image(o.symmetry, r, c)],
                       "clue pattern breaks symmetry %s at r%dc%d",
                       sb_symmetry_name(o.symmetry), r + 1, c + 1);
    sb_generated again;
    FUZZ_CHECK(sb_generate(gen, index, &again) == rc &&
                   !memcmp(&again.puzzle, &a.puzzle, sizeof a.puzzle),
               "generating the same index twice differs");
    sb_generator_free(gen);
    o.simd = SB_SIMD_SCALAR;
    FUZZ_CHECK(sb_generator_new(&gen, &o) == SB_OK, "sb_generator_new scalar");
    FUZZ_CHECK(sb_generate(gen, index, &again) == rc &&
                   !memcmp(&again.puzzle, &a.puzzle, sizeof a.puzzle),
               "the scalar level generates another puzzle");
    sb_generator_free(gen);

    sb_transform t;
    FUZZ_CHECK(sb_transform_from_index(&t, tindex) == SB_OK, "transform %llu",
               (unsigned long long)tindex);
    check_transform(&t, &a.puzzle);
    sb_grid own;
    fuzz_grid(data + (pos < size ? pos : size), pos < size ? size - pos : 0, &own);
    check_transform(&t, &own);
    return 0;
}
