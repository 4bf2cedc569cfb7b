/*
 * test_techniques.c — each registered technique (sb_technique_step) on hand-made candidate
 * boards: the exact resulting candidates of all 81 cells, the step's verdict and its
 * counters; positions where a technique must not fire; the contradictions each one detects;
 * and a soundness sweep over real puzzles (no technique ever removes a solution digit).
 *
 * The geometry used to build expected boards is written here from scratch (row r, column c,
 * box 3*(r/3)+c/3), not taken from the library's peer tables.
 */
#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "reference.h"
#include "sudokubench.h"
#include "test_util.h"

/* ------------------------------------------------------------------------------------------ */
/* Helpers                                                                                    */
/* ------------------------------------------------------------------------------------------ */

#define ALL ((uint16_t)SB_ALL_DIGITS)

/* Cell index of row r, column c. */
static int rc(int r, int c)
{
    return 9 * r + c;
}

static int box_of(int cell)
{
    return 3 * (cell / 27) + (cell % 9) / 3;
}

/* The mask of the digits written in s ("159" -> digits 1, 5, 9). */
static uint16_t dm(const char *s)
{
    uint16_t m = 0;
    for (; *s; s++) {
        cr_assert(*s >= '1' && *s <= '9', "bad digit list %s", s);
        m |= (uint16_t)(1u << (*s - '1'));
    }
    return m;
}

static void fill(uint16_t cand[SB_CELLS], uint16_t m)
{
    for (int c = 0; c < SB_CELLS; c++)
        cand[c] = m;
}

/* Removes digits from every cell of row r whose column is not in keep_cols (a 9-bit set). */
static void row_remove_except(uint16_t cand[SB_CELLS], int r, unsigned keep_cols, uint16_t digits)
{
    for (int c = 0; c < 9; c++)
        if (!(keep_cols >> c & 1))
            cand[rc(r, c)] &= (uint16_t)~digits;
}

/* Removes digits from every cell of column c whose row is not in keep_rows. */
static void col_remove_except(uint16_t cand[SB_CELLS], int c, unsigned keep_rows, uint16_t digits)
{
    for (int r = 0; r < 9; r++)
        if (!(keep_rows >> r & 1))
            cand[rc(r, c)] &= (uint16_t)~digits;
}

/* Removes digits from every cell of box b not listed in keep (cells, terminated by -1). */
static void box_remove_except(uint16_t cand[SB_CELLS], int b, const int *keep, uint16_t digits)
{
    for (int cell = 0; cell < SB_CELLS; cell++) {
        if (box_of(cell) != b)
            continue;
        int kept = 0;
        for (const int *k = keep; *k >= 0; k++)
            kept |= *k == cell;
        if (!kept)
            cand[cell] &= (uint16_t)~digits;
    }
}

/* Makes cell hold the single digit d and removes d from its 20 peers (a consistent board). */
static void place(uint16_t cand[SB_CELLS], int cell, int d)
{
    const uint16_t bit = (uint16_t)(1u << (d - 1));
    for (int c = 0; c < SB_CELLS; c++)
        if (c != cell && (c / 9 == cell / 9 || c % 9 == cell % 9 || box_of(c) == box_of(cell)))
            cand[c] &= (uint16_t)~bit;
    cand[cell] = bit;
}

static void mask_text(uint16_t m, char out[10])
{
    int n = 0;
    for (int d = 1; d <= 9; d++)
        if (m >> (d - 1) & 1)
            out[n++] = (char)('0' + d);
    out[n] = '\0';
}

static int popcount16(uint16_t m)
{
    int n = 0;
    for (; m; m &= (uint16_t)(m - 1))
        n++;
    return n;
}

/* Eliminations (bits removed) and cells newly left with one candidate going from `before`
 * to `after`; also asserts that no candidate was added. */
static void diff_counts(const uint16_t before[SB_CELLS], const uint16_t after[SB_CELLS],
                        uint64_t *elims, uint64_t *singles)
{
    *elims = 0;
    *singles = 0;
    for (int c = 0; c < SB_CELLS; c++) {
        cr_assert_eq(after[c] & (uint16_t)~before[c], 0, "cell %d gained candidates", c);
        *elims += (uint64_t)popcount16(before[c] & (uint16_t)~after[c]);
        if (before[c] != after[c] && popcount16(after[c]) == 1)
            (*singles)++;
    }
}

/* Runs one step of tech on cand and checks: the verdict, the whole resulting board against
 * want, and the counters (eliminations and placements derived from the board difference,
 * which must also equal the given literals; applications exactly apps). */
static void check_step(int tech, const uint16_t cand[SB_CELLS], const uint16_t want[SB_CELLS],
                       int verdict, uint64_t elims, uint64_t placements, uint64_t apps)
{
    size_t n = 0;
    const char *name = sb_techniques(&n)[tech].name;
    uint16_t got[SB_CELLS];
    memcpy(got, cand, sizeof got);
    sb_technique_counts tc;
    memset(&tc, 0, sizeof tc);
    const int rv = sb_technique_step(tech, got, &tc);
    cr_assert_eq(rv, verdict, "%s: step returned %d, expected %d", name, rv, verdict);
    for (int c = 0; c < SB_CELLS; c++) {
        char g[10], w[10], b[10];
        mask_text(got[c], g);
        mask_text(want[c], w);
        mask_text(cand[c], b);
        cr_assert_eq(got[c], want[c], "%s: cell r%dc%d: before {%s}, got {%s}, expected {%s}",
                     name, c / 9 + 1, c % 9 + 1, b, g, w);
    }
    uint64_t de, ds;
    diff_counts(cand, want, &de, &ds);
    cr_assert_eq(de, elims, "%s: test expectation inconsistent: %llu bits differ, %llu stated",
                 name, (unsigned long long)de, (unsigned long long)elims);
    cr_assert_eq(ds, placements, "%s: test expectation inconsistent (placements)", name);
    cr_assert_eq(tc.eliminations, elims, "%s: eliminations %llu, expected %llu", name,
                 (unsigned long long)tc.eliminations, (unsigned long long)elims);
    cr_assert_eq(tc.placements, placements, "%s: placements %llu, expected %llu", name,
                 (unsigned long long)tc.placements, (unsigned long long)placements);
    cr_assert_eq(tc.applications, apps, "%s: applications %llu, expected %llu", name,
                 (unsigned long long)tc.applications, (unsigned long long)apps);
    if (verdict == SB_STEP_CHANGED)
        cr_assert_geq(tc.applications, 1);
}

/* Asserts tech leaves cand exactly as it is, with zero counters. */
static void check_unchanged(int tech, const uint16_t cand[SB_CELLS])
{
    check_step(tech, cand, cand, SB_STEP_UNCHANGED, 0, 0, 0);
}

/* Asserts tech reports a contradiction on cand. */
static void check_contradiction(int tech, const uint16_t cand[SB_CELLS], const char *what)
{
    size_t n = 0;
    uint16_t work[SB_CELLS];
    memcpy(work, cand, sizeof work);
    sb_technique_counts tc;
    memset(&tc, 0, sizeof tc);
    const int rv = sb_technique_step(tech, work, &tc);
    cr_assert_eq(rv, SB_STEP_CONTRADICTION, "%s (%s): step returned %d, expected contradiction",
                 sb_techniques(&n)[tech].name, what, rv);
}

/* ------------------------------------------------------------------------------------------ */
/* Registry and arguments                                                                     */
/* ------------------------------------------------------------------------------------------ */

Test(technique, registry_names_in_order)
{
    static const char *const want[] = {"ns",  "hs",  "lc",  "nt2", "nt3", "nt4", "ht2",
                                       "ht3", "ht4", "xw",  "sf",  "jf",  "xy",  "xyz",
                                       "ww",  "sky", "kite", "col", "xc"};
    size_t n = 0;
    const sb_technique_info *t = sb_techniques(&n);
    cr_assert_not_null(t);
    cr_assert_eq(n, (size_t)SB_TECH_COUNT);
    cr_assert_eq(SB_TECH_COUNT, 19);
    cr_assert_eq(SB_TECH_NAKED_SINGLE, 0);
    cr_assert_eq(SB_TECH_HIDDEN_SINGLE, 1);
    cr_assert_eq(SB_TECH_LOCKED, 2);
    cr_assert_eq(SB_TECH_NAKED_PAIR, 3);
    cr_assert_eq(SB_TECH_NAKED_TRIPLE, 4);
    cr_assert_eq(SB_TECH_NAKED_QUAD, 5);
    cr_assert_eq(SB_TECH_HIDDEN_PAIR, 6);
    cr_assert_eq(SB_TECH_HIDDEN_TRIPLE, 7);
    cr_assert_eq(SB_TECH_HIDDEN_QUAD, 8);
    cr_assert_eq(SB_TECH_XWING, 9);
    cr_assert_eq(SB_TECH_XCHAIN, 18);
    for (size_t i = 0; i < n; i++) {
        cr_assert_not_null(t[i].name);
        cr_assert_str_eq(t[i].name, want[i], "technique %zu is %s, expected %s", i, t[i].name,
                         want[i]);
        cr_assert_not_null(t[i].description);
        cr_assert_gt(strlen(t[i].description), 0);
    }
}

Test(technique, bad_index_is_an_argument_error)
{
    uint16_t cand[SB_CELLS], orig[SB_CELLS];
    fill(cand, ALL);
    place(cand, rc(4, 4), 5);
    memcpy(orig, cand, sizeof orig);
    const int bad[] = {-1, SB_TECH_COUNT, SB_TECH_COUNT + 1, 1000, -1000};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sb_technique_counts tc;
        memset(&tc, 0, sizeof tc);
        cr_assert_eq(sb_technique_step(bad[i], cand, &tc), SB_ERR_ARG, "technique %d", bad[i]);
        cr_assert_eq(sb_technique_step(bad[i], cand, NULL), SB_ERR_ARG, "technique %d", bad[i]);
        cr_assert_arr_eq(cand, orig, sizeof orig, "technique %d changed the board", bad[i]);
        cr_assert_eq(tc.applications + tc.placements + tc.eliminations, 0);
    }
}

/* An all-candidates board and a complete consistent board give no technique anything to do. */
Test(technique, nothing_to_do_on_open_and_on_solved_boards)
{
    uint16_t open[SB_CELLS], solved[SB_CELLS];
    fill(open, ALL);
    ref_rng r;
    ref_rng_seed(&r, 77);
    uint8_t full[81];
    ref_random_full_grid(&r, full);
    for (int c = 0; c < SB_CELLS; c++)
        solved[c] = (uint16_t)(1u << (full[c] - 1));
    for (int t = 0; t < SB_TECH_COUNT; t++) {
        check_unchanged(t, open);
        check_unchanged(t, solved);
    }
}

/* counts may be NULL; otherwise the step adds to what is already there. */
Test(technique, counters_accumulate_and_may_be_null)
{
    uint16_t base[SB_CELLS], a[SB_CELLS], b[SB_CELLS];
    fill(base, ALL);
    base[rc(0, 0)] = dm("5");
    memcpy(a, base, sizeof a);
    memcpy(b, base, sizeof b);
    cr_assert_eq(sb_technique_step(SB_TECH_NAKED_SINGLE, a, NULL), SB_STEP_CHANGED);
    sb_technique_counts tc = {100, 200, 300, 0};
    cr_assert_eq(sb_technique_step(SB_TECH_NAKED_SINGLE, b, &tc), SB_STEP_CHANGED);
    cr_assert_arr_eq(a, b, sizeof a, "NULL counters changed the result");
    cr_assert_eq(tc.applications, 103);
    cr_assert_eq(tc.placements, 200);
    cr_assert_eq(tc.eliminations, 320);
    /* A second step finds nothing and adds nothing. */
    cr_assert_eq(sb_technique_step(SB_TECH_NAKED_SINGLE, b, &tc), SB_STEP_UNCHANGED);
    cr_assert_eq(tc.applications, 103);
    cr_assert_eq(tc.placements, 200);
    cr_assert_eq(tc.eliminations, 320);
}

/* ------------------------------------------------------------------------------------------ */
/* ns                                                                                         */
/* ------------------------------------------------------------------------------------------ */

/* A known 5 at r1c1 leaves its row, column and box: its 20 peers lose 5, nothing else moves. */
Test(technique, naked_single_leaves_its_houses)
{
    uint16_t cand[SB_CELLS], want[SB_CELLS];
    fill(cand, ALL);
    cand[rc(0, 0)] = dm("5");
    fill(want, ALL);
    place(want, rc(0, 0), 5);
    /* Row 1 (8 cells), column 1 (8 cells), then the 4 box cells off both lines. */
    check_step(SB_TECH_NAKED_SINGLE, cand, want, SB_STEP_CHANGED, 20, 0, 3);
}

/* In place, house by house: r1c2 = {5,7} becomes a 7 while row 1 is processed, so the later
 * column 2 and box 1 also lose 7; row 1 itself (already done) keeps its 7s. */
Test(technique, naked_single_cascades_in_house_order)
{
    uint16_t cand[SB_CELLS], want[SB_CELLS];
    fill(cand, ALL);
    cand[rc(0, 0)] = dm("5");
    cand[rc(0, 1)] = dm("57");
    fill(want, ALL);
    place(want, rc(0, 0), 5);
    want[rc(0, 1)] = dm("7");
    for (int r = 1; r < 9; r++)
        want[rc(r, 1)] &= (uint16_t)~dm("7"); /* column 2 */
    const int box_rest[] = {rc(0, 2), rc(1, 0), rc(1, 2), rc(2, 0), rc(2, 2)};
    for (int i = 0; i < 5; i++)
        want[box_rest[i]] &= (uint16_t)~dm("7"); /* box 1 (column 2 already done) */
    /* 20 fives, 8 sevens in column 2, 5 sevens in the box; one cell left single (r1c2);
     * houses: row 1, column 1, column 2, box 1. */
    check_step(SB_TECH_NAKED_SINGLE, cand, want, SB_STEP_CHANGED, 33, 1, 4);
}

/* A consistent board (every known digit already gone from its peers) gives ns nothing. */
Test(technique, naked_single_nothing_when_consistent)
{
    uint16_t cand[SB_CELLS];
    fill(cand, ALL);
    place(cand, rc(0, 0), 5);
    place(cand, rc(4, 7), 5);
    place(cand, rc(8, 3), 2);
    check_unchanged(SB_TECH_NAKED_SINGLE, cand);
}

Test(technique, naked_single_contradictions)
{
    uint16_t cand[SB_CELLS];
    /* Two known 5s in a row. */
    fill(cand, ALL);
    cand[rc(0, 0)] = dm("5");
    cand[rc(0, 4)] = dm("5");
    check_contradiction(SB_TECH_NAKED_SINGLE, cand, "two 5s in row 1");
    /* ... in a column. */
    fill(cand, ALL);
    cand[rc(2, 6)] = dm("3");
    cand[rc(7, 6)] = dm("3");
    check_contradiction(SB_TECH_NAKED_SINGLE, cand, "two 3s in column 7");
    /* ... in a box only. */
    fill(cand, ALL);
    cand[rc(3, 3)] = dm("9");
    cand[rc(5, 5)] = dm("9");
    check_contradiction(SB_TECH_NAKED_SINGLE, cand, "two 9s in box 5");
    /* A cell losing its last candidates: r1c5 = {5,7} with known 5 and 7 in its row. */
    fill(cand, ALL);
    cand[rc(0, 0)] = dm("5");
    cand[rc(0, 1)] = dm("7");
    cand[rc(0, 4)] = dm("57");
    check_contradiction(SB_TECH_NAKED_SINGLE, cand, "r1c5 emptied");
}

/* ------------------------------------------------------------------------------------------ */
/* hs                                                                                         */
/* ------------------------------------------------------------------------------------------ */

/* Digit 3 has a single place in row 1 (r1c5): that cell becomes 3; hs removes nothing from
 * peers (that is ns's job). */
Test(technique, hidden_single_in_a_row)
{
    uint16_t cand[SB_CELLS], want[SB_CELLS];
    fill(cand, ALL);
    row_remove_except(cand, 0, 1u << 4, dm("3"));
    memcpy(want, cand, sizeof want);
    want[rc(0, 4)] = dm("3");
    check_step(SB_TECH_HIDDEN_SINGLE, cand, want, SB_STEP_CHANGED, 8, 1, 1);
}

/* Hidden singles in a column and in a box, found in the same step. */
Test(technique, hidden_single_in_a_column_and_a_box)
{
    uint16_t cand[SB_CELLS], want[SB_CELLS];
    fill(cand, ALL);
    col_remove_except(cand, 7, 1u << 2, dm("8")); /* 8 only at r3c8 in column 8 */
    const int keep[] = {rc(4, 4), -1};
    box_remove_except(cand, 4, keep, dm("6")); /* 6 only at r5c5 in box 5 */
    memcpy(want, cand, sizeof want);
    want[rc(2, 7)] = dm("8");
    want[rc(4, 4)] = dm("6");
    check_step(SB_TECH_HIDDEN_SINGLE, cand, want, SB_STEP_CHANGED, 16, 2, 2);
}

/* Every digit with two places in every house, and a known digit with one place: nothing. */
Test(technique, hidden_single_nothing)
{
    uint16_t cand[SB_CELLS];
    fill(cand, ALL);
    /* Digit 4 in two places of row 1 (and therefore of the box and columns too). */
    row_remove_except(cand, 0, (1u << 3) | (1u << 5), dm("4"));
    check_unchanged(SB_TECH_HIDDEN_SINGLE, cand);
    /* A known 5 that has left its peers has one place in each of its houses: not a find. */
    fill(cand, ALL);
    place(cand, rc(6, 2), 5);
    place(cand, rc(1, 8), 7);
    check_unchanged(SB_TECH_HIDDEN_SINGLE, cand);
}

Test(technique, hidden_single_contradictions)
{
    uint16_t cand[SB_CELLS];
    /* Digit 6 has no place in row 3. */
    fill(cand, ALL);
    row_remove_except(cand, 2, 0, dm("6"));
    check_contradiction(SB_TECH_HIDDEN_SINGLE, cand, "no 6 in row 3");
    /* Digit 2 has no place in box 9. */
    fill(cand, ALL);
    const int none[] = {-1};
    box_remove_except(cand, 8, none, dm("2"));
    check_contradiction(SB_TECH_HIDDEN_SINGLE, cand, "no 2 in box 9");
    /* Digits 3 and 4 both have their only place of row 1 at r1c5. */
    fill(cand, ALL);
    row_remove_except(cand, 0, 1u << 4, dm("34"));
    check_contradiction(SB_TECH_HIDDEN_SINGLE, cand, "3 and 4 both need r1c5");
}

/* ------------------------------------------------------------------------------------------ */
/* lc                                                                                         */
/* ------------------------------------------------------------------------------------------ */

/* Pointing, box -> row: in box 1, digit 4 only at r1c1 and r1c2, so 4 leaves r1c4..r1c9. */
Test(technique, locked_pointing_box_to_row)
{
    uint16_t cand[SB_CELLS], want[SB_CELLS];
    fill(cand, ALL);
    const int keep[] = {rc(0, 0), rc(0, 1), -1};
    box_remove_except(cand, 0, keep, dm("4"));
    memcpy(want, cand, sizeof want);
    for (int c = 3; c < 9; c++)
        want[rc(0, c)] &= (uint16_t)~dm("4");
    check_step(SB_TECH_LOCKED, cand, want, SB_STEP_CHANGED, 6, 0, 1);
}

/* Pointing, box -> column: in box 5, digit 7 only at r4c5 and r6c5, so 7 leaves the rest of
 * column 5. */
Test(technique, locked_pointing_box_to_column)
{
    uint16_t cand[SB_CELLS], want[SB_CELLS];
    fill(cand, ALL);
    const int keep[] = {rc(3, 4), rc(5, 4), -1};
    box_remove_except(cand, 4, keep, dm("7"));
    memcpy(want, cand, sizeof want);
    for (int r = 0; r < 9; r++)
        if (r < 3 || r > 5)
            want[rc(r, 4)] &= (uint16_t)~dm("7");
    check_step(SB_TECH_LOCKED, cand, want, SB_STEP_CHANGED, 6, 0, 1);
}

/* Claiming, row -> box: in row 1, digit 2 only in box 1 (a triple r1c1..r1c3), so 2 leaves
 * the other six cells of box 1. */
Test(technique, locked_claiming_row_to_box)
{
    uint16_t cand[SB_CELLS], want[SB_CELLS];
    fill(cand, ALL);
    row_remove_except(cand, 0, 0x7, dm("2"));
    memcpy(want, cand, sizeof want);
    for (int r = 1; r < 3; r++)
        for (int c = 0; c < 3; c++)
            want[rc(r, c)] &= (uint16_t)~dm("2");
    check_step(SB_TECH_LOCKED, cand, want, SB_STEP_CHANGED, 6, 0, 1);
}

/* Claiming, column -> box: in column 9, digit 9 only in box 9 (r7c9..r9c9), so 9 leaves the
 * other six cells of box 9. */
Test(technique, locked_claiming_column_to_box)
{
    uint16_t cand[SB_CELLS], want[SB_CELLS];
    fill(cand, ALL);
    col_remove_except(cand, 8, 0x1C0, dm("9"));
    memcpy(want, cand, sizeof want);
    for (int r = 6; r < 9; r++)
        for (int c = 6; c < 8; c++)
            want[rc(r, c)] &= (uint16_t)~dm("9");
    check_step(SB_TECH_LOCKED, cand, want, SB_STEP_CHANGED, 6, 0, 1);
}

/* A digit spread over two rows and two columns of a box, or over two boxes of a line, locks
 * nothing; nor do known cells, whose digits are ns's business. */
Test(technique, locked_nothing)
{
    uint16_t cand[SB_CELLS];
    fill(cand, ALL);
    const int keep[] = {rc(0, 0), rc(1, 1), -1};
    box_remove_except(cand, 0, keep, dm("4")); /* two rows, two columns */
    row_remove_except(cand, 4, 0x3F, dm("8")); /* row 5: 8 in boxes 4 and 5 */
    check_unchanged(SB_TECH_LOCKED, cand);
    /* A known 4 that has left its peers: in box 1 the only 4 is the known cell. */
    fill(cand, ALL);
    place(cand, rc(0, 0), 4);
    check_unchanged(SB_TECH_LOCKED, cand);
}

/* ------------------------------------------------------------------------------------------ */
/* Naked tuples                                                                               */
/* ------------------------------------------------------------------------------------------ */

/* Naked pair {3,8} at r5c2 and r5c7 (different boxes): 3 and 8 leave the rest of row 5. */
Test(technique, naked_pair)
{
    uint16_t cand[SB_CELLS], want[SB_CELLS];
    fill(cand, ALL);
    cand[rc(4, 1)] = dm("38");
    cand[rc(4, 6)] = dm("38");
    memcpy(want, cand, sizeof want);
    for (int c = 0; c < 9; c++)
        if (c != 1 && c != 6)
            want[rc(4, c)] &= (uint16_t)~dm("38");
    check_step(SB_TECH_NAKED_PAIR, cand, want, SB_STEP_CHANGED, 14, 0, 1);
}

/* Naked pair inside a box only (r1c1, r3c3): the other seven box cells lose 1 and 2. */
Test(technique, naked_pair_in_a_box)
{
    uint16_t cand[SB_CELLS], want[SB_CELLS];
    fill(cand, ALL);
    cand[rc(0, 0)] = dm("12");
    cand[rc(2, 2)] = dm("12");
    memcpy(want, cand, sizeof want);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++)
            if (r != c || r == 1)
                want[rc(r, c)] &= (uint16_t)~dm("12");
    check_step(SB_TECH_NAKED_PAIR, cand, want, SB_STEP_CHANGED, 14, 0, 1);
}

/* The same pair spread over different houses, or two different pairs in a house: nothing. */
Test(technique, naked_pair_nothing)
{
    uint16_t cand[SB_CELLS];
    fill(cand, ALL);
    cand[rc(4, 1)] = dm("38");
    cand[rc(5, 6)] = dm("38"); /* different row, column and box */
    check_unchanged(SB_TECH_NAKED_PAIR, cand);
    fill(cand, ALL);
    cand[rc(4, 1)] = dm("38");
    cand[rc(4, 6)] = dm("39");
    check_unchanged(SB_TECH_NAKED_PAIR, cand);
    /* A triple is not a pair. */
    fill(cand, ALL);
    cand[rc(4, 1)] = dm("159");
    cand[rc(4, 4)] = dm("15");
    cand[rc(4, 7)] = dm("59");
    check_unchanged(SB_TECH_NAKED_PAIR, cand);
}

/* Naked triple of the [1,5,9][1,5][5,9] form in column 3 (rows 1, 5, 9: three boxes). */
Test(technique, naked_triple_partial_form)
{
    uint16_t cand[SB_CELLS], want[SB_CELLS];
    fill(cand, ALL);
    cand[rc(0, 2)] = dm("159");
    cand[rc(4, 2)] = dm("15");
    cand[rc(8, 2)] = dm("59");
    memcpy(want, cand, sizeof want);
    for (int r = 0; r < 9; r++)
        if (r != 0 && r != 4 && r != 8)
            want[rc(r, 2)] &= (uint16_t)~dm("159");
    check_step(SB_TECH_NAKED_TRIPLE, cand, want, SB_STEP_CHANGED, 18, 0, 1);
}

/* Naked triple [2,4][4,6][2,6] in row 8. */
Test(technique, naked_triple_cycle_form)
{
    uint16_t cand[SB_CELLS], want[SB_CELLS];
    fill(cand, ALL);
    cand[rc(7, 0)] = dm("24");
    cand[rc(7, 4)] = dm("46");
    cand[rc(7, 8)] = dm("26");
    memcpy(want, cand, sizeof want);
    for (int c = 1; c < 8; c++)
        if (c != 4)
            want[rc(7, c)] &= (uint16_t)~dm("246");
    check_step(SB_TECH_NAKED_TRIPLE, cand, want, SB_STEP_CHANGED, 18, 0, 1);
}

/* Three cells with four digits between them, in one house: not a triple. */
Test(technique, naked_triple_nothing)
{
    uint16_t cand[SB_CELLS];
    fill(cand, ALL);
    cand[rc(0, 2)] = dm("159");
    cand[rc(4, 2)] = dm("15");
    cand[rc(8, 2)] = dm("57");
    check_unchanged(SB_TECH_NAKED_TRIPLE, cand);
    /* The triple of the test above, spread over three different columns and rows. */
    fill(cand, ALL);
    cand[rc(0, 2)] = dm("159");
    cand[rc(4, 3)] = dm("15");
    cand[rc(8, 7)] = dm("59");
    check_unchanged(SB_TECH_NAKED_TRIPLE, cand);
}

/* Naked quad {2,4,6,7} over r9c1, r9c4, r9c6, r9c9, no pair or triple inside it. */
Test(technique, naked_quad)
{
    uint16_t cand[SB_CELLS], want[SB_CELLS];
    fill(cand, ALL);
    cand[rc(8, 0)] = dm("24");
    cand[rc(8, 3)] = dm("46");
    cand[rc(8, 5)] = dm("67");
    cand[rc(8, 8)] = dm("27");
    memcpy(want, cand, sizeof want);
    for (int c = 0; c < 9; c++)
        if (c != 0 && c != 3 && c != 5 && c != 8)
            want[rc(8, c)] &= (uint16_t)~dm("2467");
    check_step(SB_TECH_NAKED_QUAD, cand, want, SB_STEP_CHANGED, 20, 0, 1);
    /* The lower-order naked tuples see nothing in that position. */
    check_unchanged(SB_TECH_NAKED_PAIR, cand);
    check_unchanged(SB_TECH_NAKED_TRIPLE, cand);
}

/* Four cells with five digits: not a quad. */
Test(technique, naked_quad_nothing)
{
    uint16_t cand[SB_CELLS];
    fill(cand, ALL);
    cand[rc(8, 0)] = dm("24");
    cand[rc(8, 3)] = dm("46");
    cand[rc(8, 5)] = dm("67");
    cand[rc(8, 8)] = dm("28");
    check_unchanged(SB_TECH_NAKED_QUAD, cand);
}

Test(technique, naked_tuple_contradictions)
{
    uint16_t cand[SB_CELLS];
    /* Three cells of row 1 share two digits. */
    fill(cand, ALL);
    cand[rc(0, 0)] = dm("12");
    cand[rc(0, 4)] = dm("12");
    cand[rc(0, 8)] = dm("12");
    check_contradiction(SB_TECH_NAKED_TRIPLE, cand, "3 cells, 2 digits");
    /* Four cells of column 4 share three digits. */
    fill(cand, ALL);
    cand[rc(0, 3)] = dm("12");
    cand[rc(3, 3)] = dm("23");
    cand[rc(6, 3)] = dm("13");
    cand[rc(8, 3)] = dm("123");
    check_contradiction(SB_TECH_NAKED_QUAD, cand, "4 cells, 3 digits");
    /* Two empty cells in a box: two cells with no digit at all. */
    fill(cand, ALL);
    cand[rc(3, 3)] = 0;
    cand[rc(5, 5)] = 0;
    check_contradiction(SB_TECH_NAKED_PAIR, cand, "2 cells, 0 digits");
}

/* ------------------------------------------------------------------------------------------ */
/* Hidden tuples                                                                              */
/* ------------------------------------------------------------------------------------------ */

/* Hidden pair: in row 3, digits 4 and 7 only at r3c1 and r3c9: those keep just {4,7}. */
Test(technique, hidden_pair)
{
    uint16_t cand[SB_CELLS], want[SB_CELLS];
    fill(cand, ALL);
    row_remove_except(cand, 2, (1u << 0) | (1u << 8), dm("47"));
    memcpy(want, cand, sizeof want);
    want[rc(2, 0)] = dm("47");
    want[rc(2, 8)] = dm("47");
    check_step(SB_TECH_HIDDEN_PAIR, cand, want, SB_STEP_CHANGED, 14, 0, 1);
}

/* Two digits confined to two cells of different houses, or to three cells: nothing. */
Test(technique, hidden_pair_nothing)
{
    uint16_t cand[SB_CELLS];
    fill(cand, ALL);
    row_remove_except(cand, 2, (1u << 0) | (1u << 8), dm("4"));
    row_remove_except(cand, 2, (1u << 0) | (1u << 7), dm("7"));
    check_unchanged(SB_TECH_HIDDEN_PAIR, cand);
    /* A hidden pair already reduced to a naked pair has nothing left to remove. */
    fill(cand, ALL);
    row_remove_except(cand, 2, (1u << 0) | (1u << 8), dm("47"));
    cand[rc(2, 0)] = dm("47");
    cand[rc(2, 8)] = dm("47");
    check_unchanged(SB_TECH_HIDDEN_PAIR, cand);
}

/* Hidden triple in box 5 on its diagonal: 1,2,3 only at r4c4 {1,2,...}, r5c5 {2,3,...},
 * r6c6 {1,3,...}: those cells keep {1,2}, {2,3}, {1,3}. */
Test(technique, hidden_triple)
{
    uint16_t cand[SB_CELLS], want[SB_CELLS];
    fill(cand, ALL);
    const int keep[] = {rc(3, 3), rc(4, 4), rc(5, 5), -1};
    box_remove_except(cand, 4, keep, dm("123"));
    cand[rc(3, 3)] &= (uint16_t)~dm("3");
    cand[rc(4, 4)] &= (uint16_t)~dm("1");
    cand[rc(5, 5)] &= (uint16_t)~dm("2");
    memcpy(want, cand, sizeof want);
    want[rc(3, 3)] = dm("12");
    want[rc(4, 4)] = dm("23");
    want[rc(5, 5)] = dm("13");
    check_step(SB_TECH_HIDDEN_TRIPLE, cand, want, SB_STEP_CHANGED, 18, 0, 1);
}

/* Three digits over four cells: not a hidden triple. */
Test(technique, hidden_triple_nothing)
{
    uint16_t cand[SB_CELLS];
    fill(cand, ALL);
    const int keep[] = {rc(3, 3), rc(4, 4), rc(5, 5), rc(3, 5), -1};
    box_remove_except(cand, 4, keep, dm("123"));
    check_unchanged(SB_TECH_HIDDEN_TRIPLE, cand);
}

/* Hidden quad in row 7: 1,2,3,4 only at r7c1 {1,2}, r7c4 {2,3}, r7c7 {3,4}, r7c9 {1,4}
 * (each with 5..9 too): those cells drop 5..9. */
Test(technique, hidden_quad)
{
    uint16_t cand[SB_CELLS], want[SB_CELLS];
    fill(cand, ALL);
    row_remove_except(cand, 6, (1u << 0) | (1u << 3) | (1u << 6) | (1u << 8), dm("1234"));
    cand[rc(6, 0)] &= (uint16_t)~dm("34");
    cand[rc(6, 3)] &= (uint16_t)~dm("14");
    cand[rc(6, 6)] &= (uint16_t)~dm("12");
    cand[rc(6, 8)] &= (uint16_t)~dm("23");
    memcpy(want, cand, sizeof want);
    want[rc(6, 0)] = dm("12");
    want[rc(6, 3)] = dm("23");
    want[rc(6, 6)] = dm("34");
    want[rc(6, 8)] = dm("14");
    check_step(SB_TECH_HIDDEN_QUAD, cand, want, SB_STEP_CHANGED, 20, 0, 1);
    check_unchanged(SB_TECH_HIDDEN_PAIR, cand);
    check_unchanged(SB_TECH_HIDDEN_TRIPLE, cand);
}

Test(technique, hidden_quad_nothing)
{
    uint16_t cand[SB_CELLS];
    fill(cand, ALL);
    /* Four digits over five cells. */
    row_remove_except(cand, 6, (1u << 0) | (1u << 3) | (1u << 6) | (1u << 8) | (1u << 1),
                      dm("1234"));
    check_unchanged(SB_TECH_HIDDEN_QUAD, cand);
}

Test(technique, hidden_tuple_contradictions)
{
    uint16_t cand[SB_CELLS];
    /* Digits 1 and 2 of row 1 both only at r1c1. */
    fill(cand, ALL);
    row_remove_except(cand, 0, 1u << 0, dm("12"));
    check_contradiction(SB_TECH_HIDDEN_PAIR, cand, "2 digits, 1 place");
    /* Digits 1, 2, 3 of row 1 only at r1c1 and r1c2. */
    fill(cand, ALL);
    row_remove_except(cand, 0, 0x3, dm("123"));
    check_contradiction(SB_TECH_HIDDEN_TRIPLE, cand, "3 digits, 2 places");
    /* Digits 5..8 of box 9 only in three of its cells. */
    fill(cand, ALL);
    const int keep[] = {rc(6, 6), rc(7, 7), rc(8, 8), -1};
    box_remove_except(cand, 8, keep, dm("5678"));
    check_contradiction(SB_TECH_HIDDEN_QUAD, cand, "4 digits, 3 places");
}

/* ------------------------------------------------------------------------------------------ */
/* Soundness on real puzzles                                                                  */
/* ------------------------------------------------------------------------------------------ */

/* From the givens' candidates of uniquely solvable puzzles, run every technique repeatedly
 * (round robin, to a fixpoint): no step may remove a digit of the solution, report a
 * contradiction or add a candidate, and its counters must match what changed. */
Test(technique, never_removes_the_solution)
{
    ref_rng r;
    ref_rng_seed(&r, UINT64_C(0x7EC4));
    uint64_t fired[SB_TECH_COUNT] = {0};
    for (int k = 0; k < 60; k++) {
        uint8_t full[81], p[81];
        ref_random_full_grid(&r, full);
        ref_unique_puzzle(&r, full, 22 + ref_rng_below(&r, 8), p);
        sb_grid g = tu_from_cells(p);
        uint16_t cand[SB_CELLS];
        sb_grid_candidates(&g, cand);
        char pt[82];
        tu_text(p, pt);
        for (int changed = 1; changed;) {
            changed = 0;
            for (int t = 0; t < SB_TECH_COUNT; t++) {
                uint16_t before[SB_CELLS];
                memcpy(before, cand, sizeof before);
                sb_technique_counts tc;
                memset(&tc, 0, sizeof tc);
                const int rv = sb_technique_step(t, cand, &tc);
                cr_assert_neq(rv, SB_STEP_CONTRADICTION, "technique %d on %s", t, pt);
                uint64_t de, ds;
                diff_counts(before, cand, &de, &ds);
                for (int c = 0; c < SB_CELLS; c++)
                    cr_assert(cand[c] >> (full[c] - 1) & 1,
                              "technique %d removed the solution digit %d of cell %d on %s", t,
                              full[c], c, pt);
                cr_assert_eq(tc.eliminations, de, "technique %d on %s: eliminations", t, pt);
                cr_assert_eq(tc.placements, ds, "technique %d on %s: placements", t, pt);
                if (de) {
                    cr_assert_eq(rv, SB_STEP_CHANGED);
                    cr_assert_geq(tc.applications, 1);
                    fired[t]++;
                    changed = 1;
                } else {
                    cr_assert_eq(rv, SB_STEP_UNCHANGED);
                    cr_assert_eq(tc.applications, 0);
                }
            }
        }
    }
    /* The sample must exercise the cheap techniques at least. */
    for (int t = 0; t <= SB_TECH_LOCKED; t++)
        cr_assert_gt(fired[t], 0, "technique %d never fired", t);
}
