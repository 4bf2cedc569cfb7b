/*
 * test_seed.c — the two puzzles of the course assignment "seed 004", their published
 * solutions, and the assignment's accessor and hypothesis-set cases.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "reference.h"
#include "sudokubench.h"
#include "test_util.h"

static const char *const PUZZLE1 =
    "..5..63../......4../98.74...5/1...7.9../..95.16../..8.2...7/6...18.93/..1....../..42..5..";
static const char *const SOLUTION1 =
    "425186379317952486986743215163874952279531648548629137652418793791365824834297561";
static const char *const PUZZLE2 =
    ".4.7.28../......2.9/928.4..../..38.7.1./....2..../.7.9.14../....5.193/5.6....../..91.4.85";
static const char *const SOLUTION2 =
    "145792836367518249928643571453867912891425367672931458784256193516389724239174685";

/* The published solutions are themselves valid solutions (checked by the reference). */
Test(seed004, published_solutions_are_valid)
{
    sb_grid p1 = tu_grid(PUZZLE1), s1 = tu_grid(SOLUTION1);
    sb_grid p2 = tu_grid(PUZZLE2), s2 = tu_grid(SOLUTION2);
    cr_assert(ref_is_valid_solution(p1.cell, s1.cell));
    cr_assert(ref_is_valid_solution(p2.cell, s2.cell));
    cr_assert(sb_solution_check(&p1, &s1));
    cr_assert(sb_solution_check(&p2, &s2));
    uint8_t first[81];
    cr_assert_eq(ref_count(p1.cell, 0, first), 1);
    cr_assert_arr_eq(first, s1.cell, 81);
    cr_assert_eq(ref_count(p2.cell, 0, first), 1);
    cr_assert_arr_eq(first, s2.cell, 81);
}

static void check_solves(const char *puzzle, const char *solution)
{
    sb_grid p = tu_grid(puzzle), want = tu_grid(solution);
    int levels[SB_SIMD_LEVELS];
    int n = tu_supported_levels(levels);
    cr_assert_geq(n, 1);
    cr_assert_eq(levels[0], SB_SIMD_SCALAR, "scalar must always be supported");
    for (int i = 0; i < n; i++) {
        sb_solver *s = tu_solver(2, 0, levels[i]);
        sb_result res = tu_solve(s, p.cell);
        char got[SB_GRID_TEXT];
        sb_grid_format(&res.solution, got);
        cr_assert_eq(res.count, 1, "level %s: count %llu", sb_simd_name(levels[i]),
                     (unsigned long long)res.count);
        cr_assert_arr_eq(res.solution.cell, want.cell, 81, "level %s: got %s want %s",
                         sb_simd_name(levels[i]), got, solution);
        cr_assert_eq(sb_result_verdict(&res), SB_SOLVED);
        sb_solver_free(s);
    }
}

Test(seed004, puzzle1_solution_every_level)
{
    check_solves(PUZZLE1, SOLUTION1);
}

Test(seed004, puzzle2_solution_every_level)
{
    check_solves(PUZZLE2, SOLUTION2);
}

/* The parser reads the assignment's puzzles the same way (row separators removed). */
Test(seed004, parser_reads_puzzles)
{
    const char *texts[2] = {PUZZLE1, PUZZLE2};
    for (int k = 0; k < 2; k++) {
        char line[82];
        int n = 0;
        for (const char *p = texts[k]; *p; p++)
            if (*p != '/')
                line[n++] = *p;
        line[n] = '\0';
        cr_assert_eq(n, 81);
        sb_grid g, want = tu_grid(texts[k]);
        memset(&g, 0x77, sizeof g);
        char why[SB_WHY_LEN] = "";
        size_t col = 0;
        cr_assert_eq(sb_parse_line(line, 81, &g, why, &col), SB_LINE_PUZZLE, "why: %s", why);
        cr_assert_arr_eq(g.cell, want.cell, 81);
        char back[SB_GRID_TEXT];
        sb_grid_format(&g, back);
        cr_assert_str_eq(back, line);
    }
}

/* The set of given digits in house h, as a bit mask (bit d-1 for digit d). */
static unsigned givens_in_house(const sb_grid *g, int house)
{
    const sb_peer_tables *t = sb_tables();
    unsigned m = 0;
    for (int k = 0; k < 9; k++) {
        int v = g->cell[t->house_cells[house][k]];
        if (v)
            m |= 1u << (v - 1);
    }
    return m;
}

static unsigned set_of(const char *digits)
{
    unsigned m = 0;
    for (const char *p = digits; *p; p++)
        m |= 1u << (*p - '1');
    return m;
}

Test(seed004, accessors_rows_columns_blocks)
{
    sb_grid g = tu_grid(PUZZLE1);
    struct {
        const char *what;
        int house;
        const char *digits;
    } cases[] = {
        {"row(0)", 0, "563"},        {"row(1)", 1, "4"},        {"row(2)", 2, "59784"},
        {"column(8)", 9 + 8, "573"}, {"column(0)", 9 + 0, "916"}, {"column(1)", 9 + 1, "8"},
        {"column(2)", 9 + 2, "51984"}, {"block(0)", 18 + 0, "598"}, {"block(1)", 18 + 1, "674"},
        {"block(3)", 18 + 3, "198"}, {"block(8)", 18 + 8, "935"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        cr_expect_eq(givens_in_house(&g, cases[i].house), set_of(cases[i].digits),
                     "%s: got mask %#x, want {%s}", cases[i].what,
                     givens_in_house(&g, cases[i].house), cases[i].digits);
}

Test(seed004, hypothesis_sets)
{
    sb_grid g = tu_grid(PUZZLE1);
    uint16_t cand[SB_CELLS];
    sb_grid_candidates(&g, cand);
    struct {
        int row, col;
        const char *digits;
    } cases[] = {{0, 0, "274"}, {0, 1, "1247"}, {2, 2, "236"}, {0, 3, "189"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int cell = 9 * cases[i].row + cases[i].col;
        cr_expect_eq(cand[cell], set_of(cases[i].digits), "(%d,%d): got %#x, want {%s}",
                     cases[i].row, cases[i].col, cand[cell], cases[i].digits);
    }
    /* Given cells hold their own digit. */
    for (int c = 0; c < SB_CELLS; c++)
        if (g.cell[c])
            cr_expect_eq(cand[c], 1u << (g.cell[c] - 1), "given cell %d", c);
    /* Every blank cell: exactly the digits that do not directly conflict (reference). */
    for (int c = 0; c < SB_CELLS; c++) {
        if (g.cell[c])
            continue;
        unsigned want = 0;
        for (int d = 1; d <= 9; d++)
            if (ref_digit_fits(g.cell, c, d))
                want |= 1u << (d - 1);
        cr_expect_eq(cand[c], want, "blank cell %d: got %#x want %#x", c, cand[c], want);
    }
}

Test(seed004, first_blank_cells)
{
    /* Through the library's parser, so this checks what the library sees. */
    char line[82];
    int len = 0;
    for (const char *p = PUZZLE1; *p; p++)
        if (*p != '/')
            line[len++] = *p;
    line[len] = '\0';
    sb_grid g;
    cr_assert_eq(sb_parse_line(line, (size_t)len, &g, NULL, NULL), SB_LINE_PUZZLE);
    int found[3], n = 0;
    for (int c = 0; c < SB_CELLS && n < 3; c++)
        if (g.cell[c] == 0)
            found[n++] = c;
    cr_assert_eq(n, 3);
    cr_expect_eq(found[0], 9 * 0 + 0);
    cr_expect_eq(found[1], 9 * 0 + 1);
    cr_expect_eq(found[2], 9 * 0 + 3);
}
