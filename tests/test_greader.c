/*
 * test_greader.c — reading and rating any geometry in the library (include/sudokubench.h,
 * "Any geometry: reading, ..." and the expert tier): sb_reader's records, line numbers, forms,
 * reasons and columns, the clash message per kind of house, the bound on line length and the
 * stop flag; sb_geometry_detect for every cell count; sb_grate's classes against the general
 * solver's technique sets under a guess budget of 0 (another engine, same rules) and against
 * sb_rate on 9x9, and sb_grate_batch.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"

#define JIGSAW_FILE "tests/data/jigsaw6.txt"
#define MINIMAL16_FILE "tests/data/minimal16.txt"

/* s44, seed 002's 4x4, and its solution. */
static const char S44[] = "0000002130040000";
static const char S44_SOL[] = "2143432132141432";

/* Makes a geometry from a spec, asserting it works. */
static sb_geometry *geo(const char *spec)
{
    sb_geometry *g = NULL;
    char why[SB_GEO_WHY_LEN];
    cr_assert_eq(sb_geometry_parse(spec, &g, why, sizeof why), SB_OK, "%s: %s", spec, why);
    return g;
}

/* A stream over text: through stdio only (fmemopen, no descriptor) or, with fd, a temporary
 * file read with read(). */
static FILE *stream(const char *text, size_t len, int fd)
{
    FILE *f = fd ? tmpfile() : fmemopen((void *)(uintptr_t)text, len, "r");
    cr_assert(f != NULL);
    if (fd) {
        cr_assert_eq(fwrite(text, 1, len, f), len);
        rewind(f);
    }
    return f;
}

/* Reads every record of text on g into recs (at most max) and their cells into cells
 * (max rows of the geometry's cell count). @return the number of records. */
static int read_all(const sb_geometry *g, const char *text, int fd, sb_record *recs,
                    uint8_t *cells, int max)
{
    FILE *f = stream(text, strlen(text), fd);
    sb_reader *r;
    cr_assert_eq(sb_reader_open(&r, g, f), SB_OK);
    const size_t nc = g ? (size_t)sb_geometry_cells(g) : SB_CELLS;
    int n = 0, st;
    while ((st = sb_reader_next(r, &recs[n], cells + (size_t)n * nc, NULL)) == 1)
        cr_assert(++n < max, "more records than expected");
    cr_assert_eq(st, 0, "reader ended with %d", st);
    sb_reader_close(r);
    fclose(f);
    return n;
}

/* Writes cells as digit characters (the test's own encoder). */
static void chars(const uint8_t *cells, int n, char *out)
{
    for (int i = 0; i < n; i++)
        out[i] = cells[i] ? "0123456789ABCDEFG"[cells[i]] : '0';
    out[n] = '\0';
}

Test(greader, records_line_numbers_forms_and_reasons)
{
    sb_geometry *g = geo("2x2");
    const char *text = "\xEF\xBB\xBF# s44 twice, then faults\n"
                       "\n"
                       "  0000002130040000\r\n"
                       "0,0,0,0, 0,0,2,1,3,0,0,4,0,0,0,0\n"
                       "000000213004000\n"
                       "0000002150040000\n"
                       "\t# comment\n"
                       "2143432132141432"; /* no final newline */
    for (int fd = 0; fd < 2; fd++) {
        sb_record rec[8];
        uint8_t cells[8 * 16];
        char t[17];
        cr_assert_eq(read_all(g, text, fd, rec, cells, 8), 5);
        const uint64_t lines[] = {3, 4, 5, 6, 8};
        for (int i = 0; i < 5; i++)
            cr_assert_eq(rec[i].line, lines[i], "record %d: line %llu", i,
                         (unsigned long long)rec[i].line);
        cr_assert_eq(rec[0].kind, SB_LINE_PUZZLE);
        cr_assert_eq(rec[0].form, SB_GFORM_CHARS);
        chars(cells, 16, t);
        cr_assert_str_eq(t, S44);
        cr_assert_str_eq(rec[0].why, "");
        cr_assert_eq(rec[1].kind, SB_LINE_PUZZLE);
        cr_assert_eq(rec[1].form, SB_GFORM_INTS);
        chars(cells + 16, 16, t);
        cr_assert_str_eq(t, S44);
        cr_assert_eq(rec[2].kind, SB_LINE_INVALID);
        cr_assert_str_eq(rec[2].why, "too few cells (15 of 16)");
        cr_assert_eq(rec[2].col, 16);
        cr_assert_str_eq(rec[2].text, "000000213004000");
        cr_assert_eq(rec[3].kind, SB_LINE_INVALID);
        cr_assert_str_eq(rec[3].why, "digit '5' out of range 1..4");
        cr_assert_eq(rec[3].col, 9);
        cr_assert_eq(rec[4].kind, SB_LINE_PUZZLE);
        chars(cells + 64, 16, t);
        cr_assert_str_eq(t, S44_SOL);
    }
    sb_geometry_free(g);
}

Test(greader, echo_text_as_the_9x9_reader)
{
    sb_geometry *g = geo("2x2");
    sb_record rec[2];
    uint8_t cells[2 * 16];
    cr_assert_eq(read_all(g, "00:0\x01\x80x\n", 0, rec, cells, 2), 1);
    cr_assert_eq(rec[0].kind, SB_LINE_INVALID);
    cr_assert_str_eq(rec[0].text, "00?0??x");
    sb_geometry_free(g);
}

/* Reads one line on spec and checks it is invalid with why at col. */
static void want_invalid(sb_geometry *g, const char *line, const char *why, size_t col)
{
    sb_record rec[2];
    uint8_t *cells = malloc(2 * (size_t)sb_geometry_cells(g));
    cr_assert(cells != NULL);
    cr_assert_eq(read_all(g, line, 0, rec, cells, 2), 1);
    cr_assert_eq(rec[0].kind, SB_LINE_INVALID, "%s: %s", sb_geometry_name(g), line);
    cr_assert_str_eq(rec[0].why, why, "%s: %s", sb_geometry_name(g), line);
    cr_assert_eq(rec[0].col, col, "%s: column %zu, want %zu", sb_geometry_name(g), rec[0].col,
                 col);
    free(cells);
}

Test(greader, clash_names_the_cells_and_the_house)
{
    sb_geometry *g = geo("2x2");
    want_invalid(g, "1001000000000000", "1 twice in row 1 (r1c1, r1c4)", 4);
    want_invalid(g, "0300000000000300", "3 twice in column 2 (r1c2, r4c2)", 14);
    want_invalid(g, "4000040000000000", "4 twice in box 1 (r1c1, r2c2)", 6);
    want_invalid(g, "0,0,0,0,0,0,0,0,0,0,0,0,2,0,0, 2", "2 twice in row 4 (r4c1, r4c4)", 32);
    sb_geometry_free(g);
    g = geo("cube:2");
    want_invalid(g, "10000100", "1 twice in plane y=1 (x1y1z1, x2y1z2)", 6);
    sb_geometry_free(g);
    g = geo("x:2x2");
    want_invalid(g, "1000000000100000", "1 twice in main diagonal (r1c1, r3c3)", 11);
    sb_geometry_free(g);
    char why[SB_GEO_WHY_LEN];
    cr_assert_eq(sb_geometry_load(JIGSAW_FILE, &g, why, sizeof why), SB_OK, "%s", why);
    /* AAABBB / AAABBB / CCCDDD / CCCFFD: region D holds r3c4 and r4c6 */
    want_invalid(g, "000000000000000500000005" "000000000000", "5 twice in region 4 (r3c4, r4c6)",
                 24);
    sb_geometry_free(g);
    static const int houses[] = {0, 1, 2, 3, 0, 2, 1, 3};
    cr_assert_eq(sb_geometry_from_houses(4, 2, 4, houses, NULL, &g, why, sizeof why), SB_OK);
    want_invalid(g, "1010", "1 twice in house 3 (cell 0, cell 2)", 3);
    sb_geometry_free(g);
}

Test(greader, character_form_only_up_to_35_digits)
{
    sb_geometry *g = geo("6x6"); /* 36 digits: 1296 cells */
    char *line = malloc(2 * 1296 + 2);
    cr_assert(line != NULL);
    memset(line, '0', 1296);
    strcpy(line + 1296, "\n");
    want_invalid(g, line, "one character per cell needs N <= 35, not 36: write integers", 1);
    memmove(line + 1, line, 1296 + 2); /* the column is the first cell's */
    line[0] = ' ';
    want_invalid(g, line, "one character per cell needs N <= 35, not 36: write integers", 2);
    line[0] = '0'; /* the integer form of the same empty grid */
    for (int i = 1; i < 1296; i++)
        memcpy(line + 2 * i - 1, ",0", 2);
    strcpy(line + 2 * 1296 - 1, "\n");
    sb_record rec[2];
    uint8_t *cells = malloc(2 * 1296);
    cr_assert(cells != NULL);
    cr_assert_eq(read_all(g, line, 0, rec, cells, 2), 1);
    cr_assert_eq(rec[0].kind, SB_LINE_PUZZLE, "%s", rec[0].why);
    cr_assert_eq(rec[0].form, SB_GFORM_INTS);
    free(cells);
    free(line);
    sb_geometry_free(g);
    g = geo("5x7"); /* 35 digits: the character form still writes it */
    line = malloc(35 * 35 + 2);
    cr_assert(line != NULL);
    memset(line, '.', 35 * 35);
    line[0] = 'Z';
    strcpy(line + 35 * 35, "\n");
    cells = malloc(2 * 35 * 35);
    cr_assert(cells != NULL);
    cr_assert_eq(read_all(g, line, 0, rec, cells, 2), 1);
    cr_assert_eq(rec[0].kind, SB_LINE_PUZZLE, "%s", rec[0].why);
    cr_assert_eq(cells[0], 35);
    free(cells);
    free(line);
    sb_geometry_free(g);
}

Test(greader, long_lines_are_refused_without_being_kept)
{
    sb_geometry *g = geo("2x2");
    /* A line far beyond the buffer, then s44; and a line just over the bound that fits the
     * buffer whole, which is refused all the same (the answer must not depend on how the
     * input arrives). */
    const size_t big = 200000, over = SB_GEO_MAX_LINE + 1;
    char *text = malloc(big + over + 64);
    cr_assert(text != NULL);
    memset(text, '1', big);
    size_t n = big;
    n += (size_t)sprintf(text + n, "\n%s\n", S44);
    memset(text + n, '2', over); /* not '#': a comment line is skipped at any length */
    n += over;
    sprintf(text + n, "\n%s\n", S44);
    for (int fd = 0; fd < 2; fd++) {
        sb_record rec[8];
        uint8_t cells[8 * 16];
        cr_assert_eq(read_all(g, text, fd, rec, cells, 8), 4);
        for (int i = 0; i < 4; i += 2) {
            cr_assert_eq(rec[i].kind, SB_LINE_INVALID);
            cr_assert_str_eq(rec[i].why, "line too long");
            cr_assert_eq(rec[i].col, SB_GEO_MAX_LINE + 1);
            cr_assert_str_eq(rec[i].text, "?");
            cr_assert_eq(rec[i].line, (uint64_t)i + 1);
            cr_assert_eq(rec[i + 1].kind, SB_LINE_PUZZLE);
            cr_assert_eq(rec[i + 1].line, (uint64_t)i + 2);
        }
    }
    /* exactly the bound is a line like any other */
    memset(text, ' ', SB_GEO_MAX_LINE);
    memcpy(text + SB_GEO_MAX_LINE - 16, S44, 16);
    strcpy(text + SB_GEO_MAX_LINE, "\n");
    sb_record rec[2];
    uint8_t cells[2 * 16];
    cr_assert_eq(read_all(g, text, 0, rec, cells, 2), 1);
    cr_assert_eq(rec[0].kind, SB_LINE_PUZZLE, "%s", rec[0].why);
    free(text);
    sb_geometry_free(g);
}

Test(greader, stop_flag_ends_the_skip_of_a_long_line_and_the_next_call_resumes)
{
    sb_geometry *g = geo("2x2");
    int p[2];
    cr_assert_eq(pipe(p), 0);
    static char chunk[40000]; /* less than a pipe holds: written without a reader */
    memset(chunk, '7', sizeof chunk);
    cr_assert_eq(write(p[1], chunk, sizeof chunk), (ssize_t)sizeof chunk);
    FILE *in = fdopen(p[0], "r");
    sb_reader *r;
    volatile sig_atomic_t stop = 0;
    cr_assert_eq(sb_reader_open(&r, g, in), SB_OK);
    sb_reader_set_stop(r, &stop);
    sb_record rec;
    uint8_t cells[16];
    cr_assert_eq(sb_reader_next(r, &rec, cells, NULL), 1); /* reported before its end arrives */
    cr_assert_str_eq(rec.why, "line too long");
    stop = 1; /* the line has no end yet: without the flag the call would wait for it */
    cr_assert_eq(sb_reader_next(r, &rec, cells, NULL), SB_ERR_STOPPED);
    cr_assert_eq(sb_reader_next(r, &rec, cells, NULL), SB_ERR_STOPPED);
    stop = 0;
    const char rest[] = "777\n0000002130040000\n";
    cr_assert_eq(write(p[1], rest, strlen(rest)), (ssize_t)strlen(rest));
    close(p[1]);
    cr_assert_eq(sb_reader_next(r, &rec, cells, NULL), 1);
    cr_assert_eq(rec.kind, SB_LINE_PUZZLE);
    cr_assert_eq(rec.line, 2);
    cr_assert_eq(sb_reader_next(r, &rec, cells, NULL), 0);
    sb_reader_close(r);
    fclose(in);
    sb_geometry_free(g);
}

Test(greader, the_9x9_geometry_is_the_9x9_reader)
{
    /* a one-line puzzle, a nine-line grid, a Kaggle header, a clash (a puzzle on 9x9) */
    const char *text = "quizzes,solutions\n"
                       "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n"
                       "..3|.2.|6..\n9..|3.5|..1\n..1|8.6|4..\n---+---+---\n..8|1.2|9..\n"
                       "7..|...|..8\n..6|7.8|2..\n---+---+---\n..2|6.9|5..\n8..|2.3|..9\n..5|.1.|3..\n"
                       "11...............................................................................\n";
    sb_record rec[4];
    uint8_t cells[4 * SB_CELLS];
    cr_assert_eq(read_all(sb_geometry_9x9(), text, 0, rec, cells, 4), 3);
    cr_assert_eq(rec[0].line, 2);
    cr_assert_eq(rec[1].line, 3);
    cr_assert_eq(rec[2].line, 14);
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(rec[i].kind, SB_LINE_PUZZLE, "record %d: %s", i, rec[i].why);
        cr_assert_eq(rec[i].form, SB_GFORM_CHARS);
    }
    cr_assert_arr_eq(cells, cells + SB_CELLS, SB_CELLS);
    cr_assert_eq(cells[2], 3);
    cr_assert_eq(cells[2 * SB_CELLS + 1], 1);
}

Test(greader, arguments)
{
    sb_reader *r = (sb_reader *)1;
    cr_assert_eq(sb_reader_open(&r, NULL, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_reader_open(NULL, NULL, stdin), SB_ERR_ARG);
    cr_assert_eq(sb_reader_open(&r, NULL, stdin), SB_ERR_ARG); /* 9x9 is sb_geometry_9x9() */
    cr_assert_eq(sb_reader_next(NULL, NULL, NULL, NULL), SB_ERR_ARG);
    sb_reader_close(NULL);
    sb_reader_set_stop(NULL, NULL);
}

/* ------------------------------------------------------------------------------------------ */
/* Detection                                                                                  */
/* ------------------------------------------------------------------------------------------ */

/* Detects the geometry of text (more as given); checks the status and the name ("" = 9x9). */
static void want_detect(const char *text, int more, int want_st, const char *want,
                        uint64_t want_line)
{
    sb_geometry *g = (sb_geometry *)1;
    uint64_t line = 99;
    char why[SB_GEO_WHY_LEN] = "";
    const int st = sb_geometry_detect(text, strlen(text), more, &g, &line, why, sizeof why);
    cr_assert_eq(st, want_st, "%.40s: status %d (%s)", text, st, why);
    if (st == SB_OK)
        cr_assert_str_eq(g == sb_geometry_9x9() ? "" : sb_geometry_name(g), want, "%.40s", text);
    else
        cr_assert_str_eq(why, want, "%.40s", text);
    cr_assert_eq(line, want_line, "%.40s: line %llu", text, (unsigned long long)line);
    sb_geometry_free(g);
}

Test(detect, every_square_cell_count_gives_the_geometry_for_cells_gives)
{
    for (int n = 1; n <= SB_GEO_MAX_DIGITS; n++) {
        const int cells = n * n;
        char *line = malloc((size_t)cells + 2);
        cr_assert(line != NULL);
        memset(line, '.', (size_t)cells);
        strcpy(line + cells, "\n");
        sb_geometry *want = NULL;
        char why[SB_GEO_WHY_LEN] = "";
        const int wst = sb_geometry_for_cells(cells, &want, why, sizeof why);
        if (cells == SB_CELLS || cells == SB_DIGITS)
            want_detect(line, 0, SB_OK, "", 1);
        else if (wst == SB_OK)
            want_detect(line, 0, SB_OK, sb_geometry_name(want), 1);
        else /* N prime: latin:N must be said */
            want_detect(line, 0, SB_ERR_ARG, why, 1);
        sb_geometry_free(want);
        free(line);
    }
}

Test(detect, named_cases)
{
    want_detect("0000002130040000\n", 0, SB_OK, "2x2", 1);
    want_detect("0,0,0,0,0,0,2,1,3,0,0,4,0,0,0,0\n", 0, SB_OK, "2x2", 1);
    want_detect("# s44\n\n  0000002130040000\n", 0, SB_OK, "2x2", 3);
    want_detect("\xEF\xBB\xBF" "0000002130040000", 0, SB_OK, "2x2", 1);
    char t256[260];
    memset(t256, '.', 256);
    strcpy(t256 + 256, "\n");
    want_detect(t256, 0, SB_OK, "4x4", 1);
    want_detect("000810002060070904500003000\n", 0, SB_ERR_ARG,
                "27 cells is not an N x N grid: say cube:3", 1);
    want_detect("0000000000000000000000000\n", 0, SB_ERR_ARG,
                "25 cells: N = 5 is prime, so no boxes fit; say latin:5", 1);
    /* 9x9: 81 cells, a nine-line grid's row, a garbled line, a count nothing fits, nothing */
    want_detect("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n",
                0, SB_OK, "", 1);
    want_detect("# first\n\n" /* the line is that of the 9x9 reader's first record */
                "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n",
                0, SB_OK, "", 3);
    /* a tdoku tail or a comment after the cells is not counted: the reader reports it */
    want_detect("0000002130040000:1:2143432132141432\n", 0, SB_OK, "2x2", 1);
    want_detect("0000002130040000 # s44\n", 0, SB_OK, "2x2", 1);
    want_detect("..3|.2.|6..\n", 0, SB_OK, "", 1);
    want_detect("123456789\n", 0, SB_OK, "", 1);
    want_detect("hello, world\n", 0, SB_OK, "", 1);
    want_detect("00000000000000000000\n", 0, SB_OK, "", 1);
    want_detect("# only a comment\n", 0, SB_OK, "", 0);
    want_detect("", 0, SB_OK, "", 0);
    /* the input goes on: a line without its '\n' may be cut, so it does not decide */
    want_detect("0000002130040000", 1, SB_OK, "", 0);
    want_detect("0000002130040000\n00", 1, SB_OK, "2x2", 1);
    sb_geometry *g;
    cr_assert_eq(sb_geometry_detect("x", 1, 0, NULL, NULL, NULL, 0), SB_ERR_ARG);
    cr_assert_eq(sb_geometry_detect(NULL, 0, 0, &g, NULL, NULL, 0), SB_OK);
    cr_assert_eq(g, sb_geometry_9x9());
    sb_geometry_free(g); /* the constant: a no-op */
    cr_assert_eq(sb_geometry_cells(sb_geometry_9x9()), SB_CELLS);
}

/* ------------------------------------------------------------------------------------------ */
/* Rating                                                                                     */
/* ------------------------------------------------------------------------------------------ */

/* The general solver's technique masks per class below tuples: the independent side. */
static const unsigned gtech[SB_CLASS_TUPLES] = {0, SB_GTECH_HIDDEN, SB_GTECH_ALL};

/* Checks sb_grate's class of puzzle (a proper puzzle of g) against the general solver under a
 * guess budget of 0 with each class's techniques. @return the class. */
static int check_class(const sb_geometry *g, sb_gsolver *s, const uint8_t *puzzle)
{
    sb_rating rt;
    cr_assert_eq(sb_grate(g, puzzle, &rt), SB_OK);
    sb_gsolver_budget(s, 0);
    for (int c = 0; c < SB_CLASS_TUPLES; c++) {
        sb_gresult res;
        sb_gsolver_techniques(s, gtech[c]);
        const int st = sb_gsolve(s, puzzle, 1, &res, NULL);
        const int solves = st == SB_OK && res.count == 1;
        cr_assert_eq(solves, (int)rt.cls <= c, "%s: class %s, but the technique set %d %s",
                     sb_geometry_name(g), sb_class_name(rt.cls), c,
                     solves ? "solves it" : "does not");
    }
    sb_gsolver_techniques(s, SB_GTECH_ALL);
    sb_gsolver_budget(s, UINT64_MAX);
    return rt.cls;
}

/* A proper puzzle from a full grid: cells blanked in a fixed order while the count stays 1,
 * keeping at least keep givens. */
static void dig(sb_gsolver *s, const uint8_t *full, uint8_t *puzzle, int nc, int keep,
                uint64_t seed)
{
    memcpy(puzzle, full, (size_t)nc);
    int givens = nc;
    for (int k = 0; k < nc && givens > keep; k++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        const int c = (int)((seed >> 33) % (uint64_t)nc);
        if (!puzzle[c])
            continue;
        const uint8_t d = puzzle[c];
        puzzle[c] = 0;
        sb_gresult res;
        cr_assert_eq(sb_gsolve(s, puzzle, 2, &res, NULL), SB_OK);
        if (res.count != 1)
            puzzle[c] = d;
        else
            givens--;
    }
}

/* Makes *s, a solver for g, and returns one full grid of g (the first solution of the empty
 * grid), malloc'd. */
static uint8_t *full_grid(sb_geometry *g, sb_gsolver **s)
{
    const int nc = sb_geometry_cells(g);
    cr_assert_eq(sb_gsolver_new(g, s), SB_OK);
    uint8_t *empty = calloc((size_t)nc, 1), *full = malloc((size_t)nc);
    sb_gresult res;
    cr_assert_eq(sb_gsolve(*s, empty, 1, &res, full), SB_OK);
    free(empty);
    return full;
}

Test(grate, classes_agree_with_the_general_solver_on_every_kind_of_geometry)
{
    static const char *const specs[] = {"2x2", "2x3", "3x3", "latin:5", "cube:2", "x:2x3", "3x4"};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        sb_geometry *g = geo(specs[i]);
        const int nc = sb_geometry_cells(g);
        sb_gsolver *s;
        uint8_t *full = full_grid(g, &s), *p = malloc((size_t)nc);
        cr_assert(sb_gsolution_check(g, NULL, full));
        /* one blank: singles by any method */
        memcpy(p, full, (size_t)nc);
        p[nc / 2] = 0;
        cr_assert_eq(check_class(g, s, p), SB_CLASS_SINGLES);
        for (int k = 0; k < 40; k++) {
            dig(s, full, p, nc, k % 2 ? nc / 4 : 0, (uint64_t)k * 7919 + i);
            check_class(g, s, p);
        }
        free(full);
        free(p);
        sb_gsolver_free(s);
        sb_geometry_free(g);
    }
}

Test(grate, minimal_16x16_puzzles_rate_by_the_general_solver_and_need_search_when_it_guesses)
{
    sb_geometry *g = geo("4x4");
    sb_gsolver *s;
    cr_assert_eq(sb_gsolver_new(g, &s), SB_OK);
    FILE *in = fopen(MINIMAL16_FILE, "r");
    cr_assert(in != NULL);
    sb_reader *r;
    cr_assert_eq(sb_reader_open(&r, g, in), SB_OK);
    sb_record rec;
    uint8_t cells[256];
    int n = 0;
    while (sb_reader_next(r, &rec, cells, NULL) == 1) {
        cr_assert_eq(rec.kind, SB_LINE_PUZZLE);
        const int cls = check_class(g, s, cells);
        sb_gresult res;
        sb_gsolver_budget(s, 0);
        const int st = sb_gsolve(s, cells, 2, &res, NULL);
        sb_gsolver_budget(s, UINT64_MAX);
        if (st == SB_ERR_BUDGET) /* it needs a guess: locked and below cannot be its class */
            cr_assert_geq(cls, SB_CLASS_TUPLES);
        n++;
    }
    cr_assert_eq(n, 10);
    sb_reader_close(r);
    fclose(in);
    sb_gsolver_free(s);
    sb_geometry_free(g);
}

Test(grate, the_3x3_geometry_and_the_9x9_geometry_rate_as_sb_rate)
{
    static const char *const files[] = {"datasets/samples/17_clue_2000.txt",
                                        "datasets/samples/top1465.txt"};
    sb_geometry *g = geo("3x3");
    int classes[SB_CLASS_COUNT] = {0};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        FILE *in = fopen(files[f], "r");
        cr_assert(in != NULL, "%s", files[f]);
        sb_reader *r;
        cr_assert_eq(sb_reader_open(&r, sb_geometry_9x9(), in), SB_OK);
        sb_record rec;
        uint8_t cells[SB_CELLS];
        for (int k = 0; k < 150 && sb_reader_next(r, &rec, cells, NULL) == 1; k++) {
            sb_rating want, got, nine;
            cr_assert_eq(sb_rate((const sb_grid *)(const void *)cells, &want), SB_OK);
            cr_assert_eq(sb_grate(g, cells, &got), SB_OK);
            cr_assert_eq(sb_grate(sb_geometry_9x9(), cells, &nine), SB_OK);
            cr_assert_eq(got.cls, want.cls, "%s:%llu", files[f], (unsigned long long)rec.line);
            cr_assert_arr_eq(got.counts, want.counts, sizeof want.counts, "%s:%llu counters",
                             files[f], (unsigned long long)rec.line);
            cr_assert_arr_eq(&nine, &want, sizeof want);
            classes[got.cls]++;
        }
        sb_reader_close(r);
        fclose(in);
    }
    cr_assert(classes[SB_CLASS_SEARCH] > 0 && classes[SB_CLASS_LOCKED] + classes[SB_CLASS_HIDDEN] > 0,
              "the samples should reach several classes");
    sb_geometry_free(g);
}

Test(grate, a_ladder_without_plugins_is_the_built_in_rating)
{
    /* sb_grater_ladder with no rungs: sb_rate's class and counters on 9x9, the 3x3 geometry
     * and from candidates (a blank cell less one candidate, as sb_rate_candidates rates it),
     * rung -1 and no plug-in work */
    sb_geometry *g = geo("3x3");
    sb_options none;
    sb_options_default(&none);
    sb_grater *r9, *r3;
    cr_assert_eq(sb_grater_new_opt(sb_geometry_9x9(), &none, &r9), SB_OK);
    cr_assert_eq(sb_grater_new_opt(g, &none, &r3), SB_OK);
    FILE *in = fopen("datasets/samples/top1465.txt", "r");
    cr_assert(in != NULL);
    sb_reader *r;
    cr_assert_eq(sb_reader_open(&r, sb_geometry_9x9(), in), SB_OK);
    sb_record rec;
    uint8_t cells[SB_CELLS];
    const sb_technique_counts zero[SB_TECH_PLUGINS] = {{0}};
    int search = 0;
    for (int k = 0; k < 100 && sb_reader_next(r, &rec, cells, NULL) == 1; k++) {
        sb_rating want, wantc;
        sb_ladder_rating got9, got3, gotc;
        cr_assert_eq(sb_rate((const sb_grid *)(const void *)cells, &want), SB_OK);
        cr_assert_eq(sb_grater_ladder(r9, cells, NULL, &got9), SB_OK);
        cr_assert_eq(sb_grater_ladder(r3, cells, NULL, &got3), SB_OK);
        for (const sb_ladder_rating *got = &got9; got; got = got == &got9 ? &got3 : NULL) {
            cr_assert_eq(got->base.cls, want.cls, "line %llu", (unsigned long long)rec.line);
            cr_assert_arr_eq(got->base.counts, want.counts, sizeof want.counts);
            cr_assert_eq(got->rung, -1);
            cr_assert_arr_eq(got->plugins, zero, sizeof zero);
        }
        uint16_t cand[SB_CELLS];
        sb_grid_candidates((const sb_grid *)(const void *)cells, cand);
        for (int c = 0; c < SB_CELLS; c++)
            if (!cells[c] && (cand[c] & (cand[c] - 1))) { /* drop its highest candidate */
                cand[c] &= (uint16_t)~(1u << (31 - __builtin_clz(cand[c])));
                break;
            }
        cr_assert_eq(sb_rate_candidates(cand, &wantc), SB_OK);
        cr_assert_eq(sb_grater_ladder_candidates(r9, cand, NULL, &gotc), SB_OK);
        cr_assert_eq(gotc.base.cls, wantc.cls);
        cr_assert_arr_eq(gotc.base.counts, wantc.counts, sizeof wantc.counts);
        cr_assert_eq(gotc.rung, -1);
        cr_assert_null(sb_grater_plugin_why(r9));
        search += want.cls == SB_CLASS_SEARCH;
    }
    cr_assert(search > 0 && search < 100, "top1465's first puzzles: some need search, not all");
    sb_reader_close(r);
    fclose(in);
    sb_grater_free(r9);
    sb_grater_free(r3);
    sb_geometry_free(g);
}

Test(grate, refused_cells_and_arguments)
{
    sb_geometry *g = geo("2x2");
    uint8_t p[16] = {0};
    sb_rating rt;
    p[3] = 5;
    cr_assert_eq(sb_grate(g, p, &rt), SB_ERR_ARG);
    cr_assert_eq(sb_grate(g, NULL, &rt), SB_ERR_ARG);
    cr_assert_eq(sb_grate(g, p, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_grater_new(g, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_grater_rate(NULL, p, &rt), SB_ERR_ARG);
    sb_grater_free(NULL);
    /* a grid with a contradiction is search, as sb_rate says */
    static const uint8_t clash[16] = {1, 1};
    cr_assert_eq(sb_grate(g, clash, &rt), SB_OK);
    cr_assert_eq(rt.cls, SB_CLASS_SEARCH);
    sb_geometry_free(g);
}

Test(grate, batch_rows_equal_single_calls_for_any_thread_count_and_stop)
{
    sb_geometry *g = geo("2x3");
    enum { N = 60, NC = 36 };
    sb_gsolver *s;
    cr_assert_eq(sb_gsolver_new(g, &s), SB_OK);
    uint8_t empty[NC] = {0}, full[NC], cells[N * NC];
    sb_gresult res;
    cr_assert_eq(sb_gsolve(s, empty, 1, &res, full), SB_OK);
    for (int i = 0; i < N; i++)
        dig(s, full, cells + i * NC, NC, i % 3 * 4, (uint64_t)i + 1);
    cells[7 * NC + 5] = 9; /* refused: above N = 6 */
    int8_t want[N];
    uint64_t want_el[N * SB_TECH_COUNT];
    for (int i = 0; i < N; i++) {
        sb_rating rt;
        const int st = sb_grate(g, cells + i * NC, &rt);
        want[i] = st == SB_OK ? (int8_t)rt.cls : -1;
        for (int t = 0; t < SB_TECH_COUNT; t++)
            want_el[i * SB_TECH_COUNT + t] = st == SB_OK ? rt.counts[t].eliminations : 0;
    }
    cr_assert_eq(want[7], -1);
    for (int threads = 1; threads <= 3; threads++) {
        int8_t got[N];
        uint64_t el[N * SB_TECH_COUNT];
        cr_assert_eq(sb_grate_batch(g, cells, N, threads, got, el, NULL), SB_ERR_ARG);
        cr_assert_arr_eq(got, want, sizeof want, "threads %d", threads);
        cr_assert_arr_eq(el, want_el, sizeof want_el, "threads %d", threads);
    }
    volatile sig_atomic_t stop = 1;
    int8_t got[N];
    memset(got, 0x55, sizeof got);
    cr_assert_eq(sb_grate_batch(g, cells, N, 2, got, NULL, &stop), SB_ERR_STOPPED);
    for (int i = 0; i < N; i++)
        cr_assert_eq(got[i], 0x55, "row %d written after the stop", i);
    cr_assert_eq(sb_grate_batch(g, NULL, N, 1, got, NULL, NULL), SB_ERR_ARG);
    cr_assert_eq(sb_grate_batch(g, NULL, 0, 1, NULL, NULL, NULL), SB_OK);
    /* 9x9 (NULL) rows are sb_rate's */
    sb_grid p9 = tu_grid("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..");
    sb_rating r9;
    int8_t c9;
    cr_assert_eq(sb_rate(&p9, &r9), SB_OK);
    cr_assert_eq(sb_grate_batch(sb_geometry_9x9(), p9.cell, 1, 0, &c9, NULL, NULL), SB_OK);
    cr_assert_eq(c9, (int8_t)r9.cls);
    sb_gsolver_free(s);
    sb_geometry_free(g);
}

/* The class ladder on a geometry, fish, wings and chains included, against each class's
 * pipeline with search (sb_gpipeline_solve): puzzle p rated C is solved without a guess by
 * the set of every class >= C and needs a guess below C; at C the counters agree. The specs
 * are this test's own copy of docs/strategies.md's table. @return the class. */
static int check_ladder(const sb_geometry *g, const uint8_t *p)
{
    static const char *const spec[SB_CLASS_SEARCH] = {
        "restart:ns", "restart:ns,hs", "restart:ns,hs,lc", "restart:ns,hs,lc,nt,ht",
        "restart:ns,hs,lc,nt,ht,xw,sf,jf", "restart:ns,hs,lc,nt,ht,xw,sf,jf,xy,xyz,ww",
        "restart:ns,hs,lc,nt,ht,xw,sf,jf,xy,xyz,ww,sky,kite,col,xc"};
    sb_rating rt;
    cr_assert_eq(sb_grate(g, p, &rt), SB_OK);
    for (int c = 0; c < SB_CLASS_SEARCH; c++) {
        sb_gpipeline *pl;
        sb_gresult res;
        cr_assert_eq(sb_gpipeline_new(g, spec[c], &pl), SB_OK);
        cr_assert_eq(sb_gpipeline_solve(pl, p, 2, &res, NULL), SB_OK);
        cr_assert_eq(res.count, 1);
        cr_assert_eq(res.guesses == 0, (int)rt.cls <= c, "%s: class %s, %s makes %llu guesses",
                     sb_geometry_name(g), sb_class_name(rt.cls), spec[c],
                     (unsigned long long)res.guesses);
        if ((int)rt.cls == c) {
            /* The solve's root is the rating's run; the cells it then takes without a
             * guess find nothing more, though each runs the techniques again (calls). */
            sb_technique_counts tc[SB_TECH_COUNT];
            sb_gpipeline_counts(pl, tc);
            for (int t = 0; t < SB_TECH_COUNT; t++) {
                cr_assert(tc[t].applications == rt.counts[t].applications &&
                              tc[t].placements == rt.counts[t].placements &&
                              tc[t].eliminations == rt.counts[t].eliminations,
                          "%s: counters of technique %d of %s", sb_geometry_name(g), t,
                          spec[c]);
                cr_assert_geq(tc[t].calls, rt.counts[t].calls, "%s: technique %d of %s",
                              sb_geometry_name(g), t, spec[c]);
            }
        }
        sb_gpipeline_free(pl);
    }
    return rt.cls;
}

/* 6x6 boxes and a 6x6 latin square (no line families there for locked candidates; fish, sky
 * and kite are skipped where no rows and columns cross). 16x16 is left out: the singles-only
 * pipeline's search on a minimal 16x16 takes minutes. */
Test(grate, fish_wings_chains_ladder_on_2x3_and_latin)
{
    static const char *const specs[] = {"2x3", "latin:6"};
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        sb_geometry *g = geo(specs[i]);
        const int nc = sb_geometry_cells(g);
        sb_gsolver *s;
        uint8_t *full = full_grid(g, &s), *p = malloc((size_t)nc);
        for (int k = 0; k < 60; k++) {
            dig(s, full, p, nc, 0, (uint64_t)k * 104729 + i);
            check_ladder(g, p);
        }
        free(full);
        free(p);
        sb_gsolver_free(s);
        sb_geometry_free(g);
    }
}
