/*
 * test_forms.c — the input forms beyond one 81-cell line (docs/cli.md "Other input forms"):
 * tdoku records and pencilmarks in sb_parse_line, nine-line grids in sb_reader_next, with
 * their error columns, line numbers and the one-record-per-puzzle rule; and that a grid's
 * record comes out of a pipe as soon as its ninth row has arrived (streaming).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"

static const char P[] =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
static const char S[] =
    "417369825632158947958724316825437169791586432346912758289643571573291684164875293";

/* Parses text with sb_parse_line; returns the kind, fills grid, why and col. */
static sb_line_kind parse(const char *text, sb_grid *g, char *why, size_t *col)
{
    return sb_parse_line(text, strlen(text), g, why, col);
}

/* The grid of P, for comparisons. */
static sb_grid grid_of_p(void)
{
    sb_grid g;
    cr_assert_eq(parse(P, &g, NULL, NULL), SB_LINE_PUZZLE);
    return g;
}

Test(forms, tdoku_records)
{
    const sb_grid want = grid_of_p();
    char line[400], why[SB_WHY_LEN];
    size_t col;
    sb_grid g;
    const char *good[] = {"%s:1:%s", "%s:0:", "%s:2:", "%s:budget:", "%s:1", "%s:12345:"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        snprintf(line, sizeof line, good[i], P, S);
        cr_assert_eq(parse(line, &g, why, &col), SB_LINE_PUZZLE, "%s: %s", line, why);
        cr_assert_arr_eq(g.cell, want.cell, SB_CELLS);
    }
    const struct { const char *fmt; size_t col; const char *why; } bad[] = {
        {"%s:invalid:", 83, "tdoku record of an invalid line"},
        {"%s::", 83, "bad count field"},
        {"%s:1x:", 84, "bad count field"},
        {"%s:1:123", 88, "bad solution column"}, /* one past the end, as "too few cells" */
        {"%s:1:%s0", 166, "bad solution column"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(line, sizeof line, bad[i].fmt, P, S);
        cr_assert_eq(parse(line, &g, why, &col), SB_LINE_INVALID, "%s", line);
        cr_assert_str_eq(why, bad[i].why, "%s", line);
        cr_assert_eq(col, bad[i].col, "%s: col %zu", line, col);
    }
}

/* Writes the 729-character pencilmarks of grid g: every candidate its givens allow. */
static void pencil(const sb_grid *g, char out[SB_CELLS * 9 + 1])
{
    uint16_t cand[SB_CELLS];
    sb_grid_candidates(g, cand);
    for (int c = 0; c < SB_CELLS; c++)
        for (int k = 0; k < 9; k++)
            out[9 * c + k] = cand[c] >> k & 1 ? (char)('1' + k) : '.';
    out[SB_CELLS * 9] = '\0';
}

Test(forms, pencilmarks)
{
    const sb_grid want = grid_of_p();
    char line[SB_CELLS * 9 + 1], why[SB_WHY_LEN];
    size_t col;
    sb_grid g;
    pencil(&want, line);
    cr_assert_eq(parse(line, &g, why, &col), SB_LINE_PUZZLE, "%s", why);
    cr_assert_arr_eq(g.cell, want.cell, SB_CELLS);
    /* Extra candidates the givens already exclude change nothing. */
    line[9 * 1 + 3] = '4'; /* r1c2 keeps 4, though r1c1 is 4 */
    cr_assert_eq(parse(line, &g, why, &col), SB_LINE_PUZZLE, "%s", why);
    cr_assert_arr_eq(g.cell, want.cell, SB_CELLS);
    /* Cell r1c2 (index 1) is blank: drop one of its allowed candidates. */
    pencil(&want, line);
    int k = 0;
    while (line[9 + k] == '.')
        k++;
    line[9 + k] = '.';
    cr_assert_eq(parse(line, &g, why, &col), SB_LINE_INVALID);
    cr_assert_str_eq(why, "pencilmarks: elimination beyond the givens (r1c2)");
    cr_assert_eq(col, (size_t)(9 + k + 1));
    pencil(&want, line);
    memset(line + 9 * 80, '.', 9);
    cr_assert_eq(parse(line, &g, why, &col), SB_LINE_INVALID);
    cr_assert_str_eq(why, "pencilmarks: cell r9c9 has no candidate");
    cr_assert_eq(col, (size_t)(9 * 80 + 1));
    pencil(&want, line);
    line[2] = '4';
    cr_assert_eq(parse(line, &g, why, &col), SB_LINE_INVALID);
    cr_assert_str_eq(why, "pencilmark '4' in place of digit 3");
    cr_assert_eq(col, 3);
}

/* Reads every record of text; returns how many (at most max). */
static int read_all(const char *text, sb_record *recs, int max)
{
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    sb_reader *r;
    cr_assert_eq(sb_reader_open(&r, f), SB_OK);
    int n = 0, got;
    while (n < max && (got = sb_reader_next(r, &recs[n])) == 1)
        n++;
    sb_reader_close(r);
    fclose(f);
    return n;
}

/* Appends P as nine rows, each written by fmt with its nine cells as arguments. */
static void put_rows(char *out, const char *fmt)
{
    for (int r = 0; r < 9; r++) {
        char c[9];
        for (int k = 0; k < 9; k++)
            c[k] = P[9 * r + k];
        sprintf(out + strlen(out), fmt, c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8]);
    }
}

Test(forms, nine_line_grids_and_their_errors)
{
    const sb_grid want = grid_of_p();
    static char text[8192];
    text[0] = '\0';
    put_rows(text, "%c%c%c%c%c%c%c%c%c\n");                  /* lines 1-9 */
    strcat(text, "+-------+-------+-------+\n");               /* 10: read as 1-9's bottom rule */
    put_rows(text, "| %c %c %c | %c %c %c | %c %c %c |\n");  /* 11-19 */
    strcat(text, "+-------+-------+-------+\n\n");             /* 20: bottom rule, 21 blank */
    put_rows(text, "%c%c%c %c%c%c %c%c%c\n");                 /* 22-30 */
    text[strlen(text) - 3 * 12 - 7] = '?';                    /* line 27, column 6 */
    strcat(text, "123456789\n12345678.\n");                    /* 31-32: cut by ... */
    strcat(text, P);                                           /* 33: ... a one-line puzzle */
    strcat(text, "\n12345678\n");                              /* 34: not a row: invalid */
    sb_record rec[8];
    const int n = read_all(text, rec, 8);
    cr_assert_eq(n, 6, "records: %d", n);
    cr_assert_eq(rec[0].kind, SB_LINE_PUZZLE);
    cr_assert_eq(rec[0].line, 1);
    cr_assert_arr_eq(rec[0].grid.cell, want.cell, SB_CELLS);
    cr_assert_eq(rec[1].kind, SB_LINE_PUZZLE);
    cr_assert_eq(rec[1].line, 11); /* its first row: the rule right after a grid closed it */
    cr_assert_arr_eq(rec[1].grid.cell, want.cell, SB_CELLS);
    cr_assert_eq(rec[2].kind, SB_LINE_INVALID);
    cr_assert_eq(rec[2].line, 27);
    cr_assert_eq(rec[2].col, 6, "col %zu", rec[2].col);
    cr_assert_str_eq(rec[2].why, "unexpected character '?'");
    cr_assert_eq(rec[3].kind, SB_LINE_INVALID);
    cr_assert_eq(rec[3].line, 31);
    cr_assert_eq(rec[3].col, 1);
    cr_assert_str_eq(rec[3].why, "grid ends after 2 of 9 rows");
    cr_assert_eq(rec[4].kind, SB_LINE_PUZZLE);
    cr_assert_eq(rec[4].line, 33);
    cr_assert_eq(rec[5].kind, SB_LINE_INVALID);
    cr_assert_eq(rec[5].line, 34);
    cr_assert_str_eq(rec[5].why, "too few cells (8 of 81)");
}

Test(forms, grid_cut_by_end_of_input_and_lone_rules)
{
    sb_record rec[4];
    int n = read_all("+---+---+---+\n\n-----------\n123456789\n.........\n", rec, 4);
    cr_assert_eq(n, 1);
    cr_assert_eq(rec[0].kind, SB_LINE_INVALID);
    cr_assert_eq(rec[0].line, 3); /* the rule opening it; the first rule was alone */
    cr_assert_str_eq(rec[0].why, "grid ends after 2 of 9 rows");
    cr_assert(sb_line_is_grid("| 1 2 3 | . . . | 7 8 9 |", 25));
    cr_assert(sb_line_is_grid("------+-------+------", 21));
    cr_assert(!sb_line_is_grid(P, SB_CELLS));
    cr_assert(!sb_line_is_grid("1 2 3", 5));
}

/* A grid's record must come out of a pipe once its ninth row is in, without waiting for
 * more input (a writer that pauses after it must not stall the reader). */
Test(forms, grid_streams_from_a_pipe, .timeout = 10)
{
    int fd[2];
    cr_assert_eq(pipe(fd), 0);
    char rows[256] = "";
    put_rows(rows, "%c%c%c%c%c%c%c%c%c\n");
    cr_assert_eq(write(fd[1], rows, strlen(rows)), (ssize_t)strlen(rows));
    FILE *in = fdopen(fd[0], "r");
    sb_reader *r;
    cr_assert_eq(sb_reader_open(&r, in), SB_OK);
    sb_record rec;
    cr_assert_eq(sb_reader_next(r, &rec), 1); /* would block for ever if it read ahead */
    cr_assert_eq(rec.kind, SB_LINE_PUZZLE);
    close(fd[1]);
    cr_assert_eq(sb_reader_next(r, &rec), 0);
    sb_reader_close(r);
    fclose(in);
}
