/*
 * test_bench_set.c — what a benchmark set keeps beside its puzzles (sb_bench_add_at): the
 * text form of each puzzle of another geometry, its input line, and the count of puzzles
 * before a line, which is how ranks holding parts of one file number its puzzles. The
 * expected texts are written by hand from the cells the test adds.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "sudokubench.h"

Test(bench_set, forms_lines_and_text_on_another_geometry)
{
    sb_geometry *g;
    char why[SB_GEO_WHY_LEN], text[64];
    cr_assert_eq(sb_geometry_parse("2x2", &g, why, sizeof why), SB_OK);
    sb_bench *b;
    cr_assert_eq(sb_bench_new(g, &b), SB_OK);
    static const uint8_t p[3][16] = {{1, 2, 0, 0, 3, 4}, {0, 0, 3}, {4}};
    cr_assert_eq(sb_bench_add_at(b, p[0], SB_GFORM_CHARS, 3), SB_OK);
    cr_assert_eq(sb_bench_add_at(b, p[1], SB_GFORM_INTS, 7), SB_OK);
    cr_assert_eq(sb_bench_add_at(b, p[2], SB_GFORM_CHARS, 9), SB_OK);
    cr_assert_eq(sb_bench_size(b), 3);
    cr_assert_eq(sb_bench_form(b, 0), SB_GFORM_CHARS);
    cr_assert_eq(sb_bench_form(b, 1), SB_GFORM_INTS);
    cr_assert_eq(sb_bench_text(b, 0, text, sizeof text), 16);
    cr_assert_str_eq(text, "12..34..........");
    cr_assert_eq(sb_bench_text(b, 1, text, sizeof text), 31);
    cr_assert_str_eq(text, "0,0,3,0,0,0,0,0,0,0,0,0,0,0,0,0");
    cr_assert_eq(sb_bench_text(b, 2, text, 10), 0, "too small: nothing");
    cr_assert_str_eq(text, "");
    cr_assert_eq(sb_bench_line(b, 1), 7);
    cr_assert_eq(sb_bench_before(b, 1), 0);
    cr_assert_eq(sb_bench_before(b, 3), 0);
    cr_assert_eq(sb_bench_before(b, 4), 1);
    cr_assert_eq(sb_bench_before(b, 8), 2);
    cr_assert_eq(sb_bench_before(b, 100), 3);
    uint8_t back[16];
    sb_bench_puzzle(b, 1, back);
    cr_assert(!memcmp(back, p[1], 16));
    sb_bench_truncate(b, 2);
    cr_assert_eq(sb_bench_before(b, 100), 2, "truncated puzzles no longer count");
    sb_bench_free(b);
    sb_geometry_free(g);
}

Test(bench_set, nine_by_nine_keeps_lines_only_once_given)
{
    static const char P1[] =
        "..5..63........4..98.74...51...7.9....95.16....8.2...76...18.93..1........42..5..";
    uint8_t cells[SB_CELLS];
    for (int i = 0; i < SB_CELLS; i++)
        cells[i] = P1[i] == '.' ? 0 : (uint8_t)(P1[i] - '0');
    sb_bench *b;
    cr_assert_eq(sb_bench_new(sb_geometry_9x9(), &b), SB_OK);
    /* enough puzzles without lines to make the set grow before the first line comes */
    for (int i = 0; i < 5000; i++)
        cr_assert_eq(sb_bench_add(b, cells), SB_OK);
    cr_assert_eq(sb_bench_line(b, 4999), 0, "no lines kept");
    cr_assert_eq(sb_bench_before(b, 100), 0, "no lines: none before any line");
    cr_assert_eq(sb_bench_add_at(b, cells, SB_GFORM_INTS, 12345), SB_OK);
    cr_assert_eq(sb_bench_line(b, 0), 0, "puzzles added before any line have none");
    cr_assert_eq(sb_bench_line(b, 5000), 12345);
    cr_assert_eq(sb_bench_before(b, 12345), 5000);
    cr_assert_eq(sb_bench_form(b, 5000), SB_GFORM_CHARS, "9x9 is written one character a cell");
    char text[SB_GRID_TEXT];
    cr_assert_eq(sb_bench_text(b, 5000, text, sizeof text), SB_CELLS);
    cr_assert_str_eq(text, P1);
    cr_assert_eq(sb_bench_text(b, 0, text, SB_CELLS), 0, "no room for the NUL: nothing");
    sb_bench_free(b);
}
