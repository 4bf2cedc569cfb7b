/*
 * test_parse.c — sb_parse_line, the streaming sb_reader, sb_grid_format and sb_grid_conflict.
 * Messages are the ones docs/cli.md promises.
 */
#define _POSIX_C_SOURCE 200809L

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "sudokubench.h"
#include "test_util.h"

/* The seed 004 puzzles; KP/KS: puzzle 1 in Kaggle form (zeros) and its solution. */
static const char P1[] =
    "..5..63........4..98.74...51...7.9....95.16....8.2...76...18.93..1........42..5..";
static const char P2[] =
    ".4.7.28........2.9928.4......38.7.1.....2.....7.9.14......5.1935.6........91.4.85";
static const char KP[] =
    "005006300000000400980740005100070900009501600008020007600018093001000000004200500";
static const char KS[] =
    "425186379317952486986743215163874952279531648548629137652418793791365824834297561";

/* ------------------------------------------------------------------------------------------ */
/* sb_parse_line                                                                              */
/* ------------------------------------------------------------------------------------------ */

typedef struct parsed {
    sb_line_kind kind;
    sb_grid grid;
    char why[SB_WHY_LEN];
    size_t col;
} parsed;

static parsed parse(const char *line)
{
    parsed p;
    memset(&p.grid, 0x77, sizeof p.grid);
    memset(p.why, 0, sizeof p.why);
    p.col = 0;
    p.kind = sb_parse_line(line, strlen(line), &p.grid, p.why, &p.col);
    return p;
}

static void expect_puzzle(const char *line, const char *want81)
{
    parsed p = parse(line);
    cr_assert_eq(p.kind, SB_LINE_PUZZLE, "line \"%s\": kind %d (why: %s)", line, p.kind,
                 p.why);
    sb_grid want = tu_grid(want81);
    cr_assert_arr_eq(p.grid.cell, want.cell, 81, "line \"%s\" parsed differently", line);
}

static void expect_skip(const char *line)
{
    parsed p = parse(line);
    cr_assert_eq(p.kind, SB_LINE_SKIP, "line \"%s\": kind %d, want skip", line, p.kind);
}

static parsed expect_invalid(const char *line, const char *why_part)
{
    parsed p = parse(line);
    cr_assert_eq(p.kind, SB_LINE_INVALID, "line \"%s\": kind %d, want invalid", line, p.kind);
    cr_assert_neq(p.why[0], '\0', "line \"%s\": no reason given", line);
    cr_assert_lt(strlen(p.why), (size_t)SB_WHY_LEN);
    if (why_part)
        cr_assert(strstr(p.why, why_part) != NULL, "line \"%s\": why \"%s\" lacks \"%s\"", line,
                  p.why, why_part);
    cr_assert_geq(p.col, 1, "line \"%s\": column %zu", line, p.col);
    return p;
}

static char *str_replace_char(const char *s, size_t at, char c)
{
    char *t = strdup(s);
    cr_assert_not_null(t);
    t[at] = c;
    return t;
}

Test(parse, plain_puzzles)
{
    expect_puzzle(P1, P1);
    expect_puzzle(P2, P2);
    expect_puzzle(KP, KP);
    expect_puzzle(KS, KS);
}

Test(parse, all_blank_forms)
{
    const char blanks[] = {'.', '0', '-', '_'};
    for (size_t k = 0; k < sizeof blanks; k++) {
        char line[82];
        for (int i = 0; i < 81; i++)
            line[i] = P1[i] == '.' ? blanks[k] : P1[i];
        line[81] = '\0';
        expect_puzzle(line, P1);
    }
    /* Mixed in one line. */
    char line[82];
    for (int i = 0, b = 0; i < 81; i++)
        line[i] = P1[i] == '.' ? blanks[b++ % 4] : P1[i];
    line[81] = '\0';
    expect_puzzle(line, P1);
    /* All blank. */
    char empty[82];
    memset(empty, '_', 81);
    empty[81] = '\0';
    char dots[82];
    memset(dots, '.', 81);
    dots[81] = '\0';
    expect_puzzle(empty, dots);
}

Test(parse, line_ends_and_surrounding_space)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s\r", P1);
    expect_puzzle(buf, P1);
    snprintf(buf, sizeof buf, "   %s", P1);
    expect_puzzle(buf, P1);
    snprintf(buf, sizeof buf, "%s  \t ", P1);
    expect_puzzle(buf, P1);
    snprintf(buf, sizeof buf, "\t %s \t\r", P1);
    expect_puzzle(buf, P1);
    snprintf(buf, sizeof buf, " %s,%s \r", KP, KS);
    expect_puzzle(buf, KP);
}

Test(parse, respects_length_argument)
{
    /* The bytes after len are not part of the line. */
    char buf[200];
    snprintf(buf, sizeof buf, "%s999", P1);
    sb_grid g;
    char why[SB_WHY_LEN] = "";
    size_t col = 0;
    cr_assert_eq(sb_parse_line(buf, 81, &g, why, &col), SB_LINE_PUZZLE);
    sb_grid want = tu_grid(P1);
    cr_assert_arr_eq(g.cell, want.cell, 81);
    /* Fewer bytes than the text holds: too few cells. */
    cr_assert_eq(sb_parse_line(buf, 80, &g, why, &col), SB_LINE_INVALID);
    cr_assert(strstr(why, "too few cells (80 of 81)") != NULL, "why: %s", why);
}

Test(parse, too_few_and_too_many_cells)
{
    char buf[256];
    memcpy(buf, P1, 80);
    buf[80] = '\0';
    expect_invalid(buf, "too few cells (80 of 81)");
    expect_invalid("5", "too few cells (1 of 81)");
    expect_invalid("12345", "too few cells (5 of 81)");

    snprintf(buf, sizeof buf, "%s.", P1);
    parsed p = expect_invalid(buf, "too many cells");
    cr_assert_eq(p.col, 82, "82nd cell is column 82, got %zu", p.col);
    snprintf(buf, sizeof buf, "%s5", P1);
    expect_invalid(buf, "too many cells");
    snprintf(buf, sizeof buf, "%s%s", P1, P1);
    expect_invalid(buf, "too many cells");
}

Test(parse, unexpected_character)
{
    char *line = str_replace_char(P1, 9, 'x');
    parsed p = expect_invalid(line, "unexpected character 'x'");
    cr_assert_eq(p.col, 10, "col %zu", p.col);
    free(line);

    line = str_replace_char(P1, 0, 'x');
    p = expect_invalid(line, "unexpected character 'x'");
    cr_assert_eq(p.col, 1);
    free(line);

    line = str_replace_char(P1, 80, 'Q');
    p = expect_invalid(line, "unexpected character 'Q'");
    cr_assert_eq(p.col, 81);
    free(line);

    /* Leading blanks count in the column. */
    char buf[256];
    line = str_replace_char(P1, 9, 'x');
    snprintf(buf, sizeof buf, "  \t%s", line);
    p = expect_invalid(buf, "unexpected character 'x'");
    cr_assert_eq(p.col, 13, "col %zu", p.col);
    free(line);

    /* A space inside the puzzle, another separator, a non-printable byte: invalid. */
    line = str_replace_char(P1, 40, ' ');
    p = expect_invalid(line, NULL);
    free(line);
    line = str_replace_char(P1, 40, ';');
    p = expect_invalid(line, "unexpected character ';'");
    cr_assert_eq(p.col, 41);
    free(line);
    line = str_replace_char(P1, 40, '\x01');
    p = expect_invalid(line, NULL);
    cr_assert_eq(p.col, 41);
    free(line);
}

Test(parse, invalid_with_null_out_params)
{
    sb_grid g;
    cr_assert_eq(sb_parse_line("abc", 3, &g, NULL, NULL), SB_LINE_INVALID);
    cr_assert_eq(sb_parse_line(P1, 81, &g, NULL, NULL), SB_LINE_PUZZLE);
    cr_assert_eq(sb_parse_line("# x", 3, &g, NULL, NULL), SB_LINE_SKIP);
}

Test(parse, skipped_lines)
{
    expect_skip("");
    expect_skip("   ");
    expect_skip("\t \t");
    expect_skip("\r");
    expect_skip("  \r");
    expect_skip("#");
    expect_skip("# a comment");
    expect_skip("#123456789");
    expect_skip("   # indented comment");
    expect_skip("# comment\r");
    expect_skip("quizzes,solutions");
    expect_skip("quizzes,solutions\r");
}

Test(parse, kaggle_rows)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s,%s", KP, KS);
    expect_puzzle(buf, KP);
    snprintf(buf, sizeof buf, "%s,%s\r", KP, KS);
    expect_puzzle(buf, KP);

    /* Bad solution columns. */
    const char *bad[] = {
        "",                                  /* empty */
        "12345",                             /* short */
        NULL,                                /* 80 digits (filled below) */
        NULL,                                /* 82 digits */
        NULL,                                /* a '.' inside */
        NULL,                                /* a letter inside */
    };
    char s80[90], s82[90], sdot[90], slet[90];
    memcpy(s80, KS, 80);
    s80[80] = '\0';
    snprintf(s82, sizeof s82, "%s1", KS);
    snprintf(sdot, sizeof sdot, "%s", KS);
    sdot[30] = '.';
    snprintf(slet, sizeof slet, "%s", KS);
    slet[50] = 'z';
    bad[2] = s80;
    bad[3] = s82;
    bad[4] = sdot;
    bad[5] = slet;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(buf, sizeof buf, "%s,%s", KP, bad[i]);
        parsed p = expect_invalid(buf, "bad solution column");
        cr_assert_gt(p.col, 81, "line \"%s\": column %zu is inside the puzzle", buf, p.col);
    }
}

/* ------------------------------------------------------------------------------------------ */
/* sb_reader                                                                                  */
/* ------------------------------------------------------------------------------------------ */

/* A temporary stream holding len bytes of data, positioned at the start. */
static FILE *stream_of(const char *data, size_t len)
{
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    if (len)
        cr_assert_eq(fwrite(data, 1, len, f), len);
    rewind(f);
    return f;
}

#define MAX_RECS 4096

typedef struct recs {
    sb_record r[MAX_RECS];
    uint8_t cells[MAX_RECS][SB_CELLS]; /* row i: record i's cells */
    int n;
} recs;

/* Reads every record of f (asserting no errors); returns a heap copy the caller frees. */
static recs *read_all(FILE *f)
{
    recs *out = calloc(1, sizeof *out);
    cr_assert_not_null(out);
    sb_reader *r = NULL;
    cr_assert_eq(sb_reader_open(&r, sb_geometry_9x9(), f), SB_OK);
    cr_assert_not_null(r);
    for (;;) {
        cr_assert_lt(out->n, MAX_RECS, "too many records");
        int rc = sb_reader_next(r, &out->r[out->n], out->cells[out->n], NULL);
        cr_assert_geq(rc, 0, "sb_reader_next: %d (%s)", rc, sb_strerror(rc));
        if (rc == 0)
            break;
        cr_assert_eq(rc, 1);
        out->n++;
    }
    /* End of input is sticky. */
    sb_record extra;
    uint8_t cells[SB_CELLS];
    cr_assert_eq(sb_reader_next(r, &extra, cells, NULL), 0);
    sb_reader_close(r);
    return out;
}

static recs *read_string(const char *data, size_t len)
{
    FILE *f = stream_of(data, len);
    recs *out = read_all(f);
    fclose(f);
    return out;
}

/* Checks record i of a: a puzzle at line with the cells of want81. */
static void expect_rec_puzzle(const recs *a, int i, uint64_t line, const char *want81)
{
    const sb_record *rec = &a->r[i];
    cr_assert_eq(rec->kind, SB_LINE_PUZZLE, "line %llu: kind %d (why %s)",
                 (unsigned long long)rec->line, rec->kind, rec->why);
    cr_assert_eq(rec->line, line, "record line %llu, want %llu", (unsigned long long)rec->line,
                 (unsigned long long)line);
    cr_assert_str_eq(rec->why, "", "a puzzle record has a reason: %s", rec->why);
    sb_grid want = tu_grid(want81);
    cr_assert_arr_eq(a->cells[i], want.cell, 81, "line %llu: wrong grid",
                     (unsigned long long)line);
}

static void expect_rec_invalid(const sb_record *rec, uint64_t line, const char *why_part)
{
    cr_assert_eq(rec->kind, SB_LINE_INVALID, "line %llu: kind %d", (unsigned long long)rec->line,
                 rec->kind);
    cr_assert_eq(rec->line, line, "record line %llu, want %llu", (unsigned long long)rec->line,
                 (unsigned long long)line);
    cr_assert(strstr(rec->why, why_part) != NULL, "line %llu: why \"%s\" lacks \"%s\"",
              (unsigned long long)line, rec->why, why_part);
    cr_assert_geq(rec->col, 1);
}

Test(reader, open_arguments)
{
    sb_reader *r = NULL;
    cr_assert_eq(sb_reader_open(&r, sb_geometry_9x9(), NULL), SB_ERR_ARG);
    cr_assert_eq(sb_reader_open(&r, NULL, stdin), SB_ERR_ARG, "a NULL geometry is refused");
    sb_reader_close(NULL);
}

Test(reader, empty_inputs)
{
    recs *a = read_string("", 0);
    cr_assert_eq(a->n, 0);
    free(a);
    a = read_string("\xEF\xBB\xBF", 3);
    cr_assert_eq(a->n, 0);
    free(a);
    const char *only = "\n\n# only comments\n   \nquizzes,solutions\n";
    a = read_string(only, strlen(only));
    cr_assert_eq(a->n, 0);
    free(a);
}

Test(reader, fmemopen_stream)
{
    char data[512];
    int len = snprintf(data, sizeof data, "%s\n%s\n", P1, P2);
    FILE *f = fmemopen(data, (size_t)len, "r");
    cr_assert_not_null(f);
    recs *a = read_all(f);
    fclose(f);
    cr_assert_eq(a->n, 2);
    expect_rec_puzzle(a, 0, 1, P1);
    expect_rec_puzzle(a, 1, 2, P2);
    free(a);
}

Test(reader, bom_crlf_and_missing_final_newline)
{
    char data[1024];
    int len = snprintf(data, sizeof data, "\xEF\xBB\xBF%s\r\n%s\r\n%s", P1, P2, P1);
    recs *a = read_string(data, (size_t)len);
    cr_assert_eq(a->n, 3);
    expect_rec_puzzle(a, 0, 1, P1);
    expect_rec_puzzle(a, 1, 2, P2);
    expect_rec_puzzle(a, 2, 3, P1);
    free(a);

    /* BOM then a comment line; and a final line ending in a bare CR. */
    len = snprintf(data, sizeof data, "\xEF\xBB\xBF# header\n%s\n%s\r", P1, P2);
    a = read_string(data, (size_t)len);
    cr_assert_eq(a->n, 2);
    expect_rec_puzzle(a, 0, 2, P1);
    expect_rec_puzzle(a, 1, 3, P2);
    free(a);

    /* A BOM in the middle of the input is not skipped. */
    len = snprintf(data, sizeof data, "%s\n\xEF\xBB\xBF%s\n", P1, P2);
    a = read_string(data, (size_t)len);
    cr_assert_eq(a->n, 2);
    expect_rec_puzzle(a, 0, 1, P1);
    cr_assert_eq(a->r[1].kind, SB_LINE_INVALID);
    cr_assert_eq(a->r[1].line, 2);
    free(a);
}

Test(reader, skipped_lines_keep_physical_numbers)
{
    char data[2048];
    int len = snprintf(data, sizeof data,
                       "# comment\n"           /* 1 */
                       "\n"                    /* 2 */
                       "   \t \n"              /* 3 */
                       "quizzes,solutions\n"   /* 4 */
                       "%s\n"                  /* 5 */
                       "  # indented\r\n"      /* 6 */
                       "12345\n"               /* 7: invalid */
                       "%s,%s\n"               /* 8: Kaggle row */
                       "\r\n"                  /* 9 */
                       "%s\n",                 /* 10 */
                       P1, KP, KS, P2);
    recs *a = read_string(data, (size_t)len);
    cr_assert_eq(a->n, 4);
    expect_rec_puzzle(a, 0, 5, P1);
    expect_rec_invalid(&a->r[1], 7, "too few cells (5 of 81)");
    expect_rec_puzzle(a, 2, 8, KP);
    expect_rec_puzzle(a, 3, 10, P2);
    free(a);
}

Test(reader, huge_line_without_newline)
{
    const size_t big = 10u * 1024u * 1024u;
    char *data = malloc(big);
    cr_assert_not_null(data);
    for (size_t i = 0; i < big; i++)
        data[i] = (char)('1' + i % 9);
    FILE *f = stream_of(data, big);
    free(data);
    recs *a = read_all(f);
    fclose(f);
    cr_assert_eq(a->n, 1, "%d records", a->n);
    expect_rec_invalid(&a->r[0], 1, "line too long");
    char want[82];
    for (int i = 0; i < 81; i++)
        want[i] = (char)('1' + i % 9);
    want[81] = '\0';
    cr_assert_str_eq(a->r[0].text, want);
    free(a);
}

Test(reader, long_lines_do_not_shift_records)
{
    /* puzzle / 5000-byte line / puzzle / 3 MB line / puzzle (missing final newline) */
    size_t cap = 4u * 1024u * 1024u;
    char *data = malloc(cap);
    cr_assert_not_null(data);
    size_t n = 0;
    n += (size_t)sprintf(data + n, "%s\n", P1);
    for (int i = 0; i < 5000; i++)
        data[n++] = '.';
    data[n++] = '\n';
    n += (size_t)sprintf(data + n, "%s\n", P2);
    for (size_t i = 0; i < 3u * 1024u * 1024u; i++)
        data[n++] = (char)(i % 7 == 0 ? ':' : '5');
    data[n++] = '\n';
    n += (size_t)sprintf(data + n, "%s", P1);
    recs *a = read_string(data, n);
    free(data);
    cr_assert_eq(a->n, 5, "%d records", a->n);
    expect_rec_puzzle(a, 0, 1, P1);
    expect_rec_invalid(&a->r[1], 2, "line too long");
    expect_rec_puzzle(a, 2, 3, P2);
    expect_rec_invalid(&a->r[3], 4, "line too long");
    expect_rec_puzzle(a, 4, 5, P1);
    char want[82];
    memset(want, '.', 81);
    want[81] = '\0';
    cr_assert_str_eq(a->r[1].text, want);
    for (int i = 0; i < 81; i++)
        want[i] = i % 7 == 0 ? '?' : '5';
    cr_assert_str_eq(a->r[3].text, want, "text %s", a->r[3].text);
    free(a);
}

Test(reader, max_line_boundary)
{
    /* SB_MAX_LINE bytes is accepted (81 cells plus trailing spaces); one more is too long. */
    char *data = malloc(3 * (SB_MAX_LINE + 2) + 200);
    cr_assert_not_null(data);
    size_t n = 0;
    memcpy(data + n, P1, 81);
    memset(data + n + 81, ' ', SB_MAX_LINE - 81);
    n += SB_MAX_LINE;
    data[n++] = '\n';
    memcpy(data + n, P2, 81);
    memset(data + n + 81, ' ', SB_MAX_LINE + 1 - 81);
    n += SB_MAX_LINE + 1;
    data[n++] = '\n';
    n += (size_t)sprintf(data + n, "%s\n", P1);
    recs *a = read_string(data, n);
    free(data);
    cr_assert_eq(a->n, 3);
    expect_rec_puzzle(a, 0, 1, P1);
    expect_rec_invalid(&a->r[1], 2, "line too long");
    expect_rec_puzzle(a, 2, 3, P1);
    free(a);
}

Test(reader, invalid_text_echo)
{
    char data[1024];
    size_t n = 0;
    /* Line 1: control bytes, ':' and non-ASCII among printable text, longer than 81. */
    const char head[] = "12\x01:ab\x7f\t\xc3\xa9";
    memcpy(data, head, sizeof head - 1);
    n = sizeof head - 1;
    for (int i = 0; i < 100; i++)
        data[n++] = 'z';
    data[n++] = '\n';
    /* Line 2: short invalid line. */
    n += (size_t)sprintf(data + n, "abc\n");
    /* Line 3: 80 cells. */
    n += (size_t)sprintf(data + n, "%.80s\n", P1);
    recs *a = read_string(data, n);
    cr_assert_eq(a->n, 3);

    char want[82];
    const char whead[] = "12??ab????";
    memcpy(want, whead, sizeof whead - 1);
    for (size_t i = sizeof whead - 1; i < 81; i++)
        want[i] = 'z';
    want[81] = '\0';
    cr_assert_eq(a->r[0].kind, SB_LINE_INVALID);
    cr_assert_eq(a->r[0].line, 1);
    cr_assert_str_eq(a->r[0].text, want);

    expect_rec_invalid(&a->r[1], 2, "unexpected character 'a'");
    cr_assert_eq(a->r[1].col, 1);
    cr_assert_str_eq(a->r[1].text, "abc");

    expect_rec_invalid(&a->r[2], 3, "too few cells (80 of 81)");
    char want80[81];
    memcpy(want80, P1, 80);
    want80[80] = '\0';
    cr_assert_str_eq(a->r[2].text, want80);
    free(a);
}

Test(reader, many_records_mixed_forms)
{
    /* Thousands of lines in assorted forms: every record comes back in order and intact. */
    enum { N = 3000 };
    ref_rng rng;
    ref_rng_seed(&rng, 77);
    uint8_t(*grids)[81] = malloc(N * sizeof *grids);
    int *kind = malloc(N * sizeof *kind);
    char *data = malloc((size_t)N * 300);
    cr_assert(grids && kind && data);
    size_t n = 0;
    for (int i = 0; i < N; i++) {
        uint8_t full[81];
        ref_random_full_grid(&rng, full);
        ref_random_puzzle(&rng, full, 20 + ref_rng_below(&rng, 40), grids[i]);
        int form = ref_rng_below(&rng, 6);
        kind[i] = form;
        const char *blank = ".0-_";
        char text[82];
        for (int c = 0; c < 81; c++)
            text[c] = grids[i][c] ? (char)('0' + grids[i][c]) : blank[ref_rng_below(&rng, 4)];
        text[81] = '\0';
        switch (form) {
        case 0: n += (size_t)sprintf(data + n, "%s\n", text); break;
        case 1: n += (size_t)sprintf(data + n, "%s\r\n", text); break;
        case 2: n += (size_t)sprintf(data + n, "  %s\t\n", text); break;
        case 3: {
            char sol[82];
            for (int c = 0; c < 81; c++)
                sol[c] = (char)('0' + full[c]);
            sol[81] = '\0';
            n += (size_t)sprintf(data + n, "%s,%s\n", text, sol);
            break;
        }
        case 4: n += (size_t)sprintf(data + n, "# comment %d\n", i); break;
        default: n += (size_t)sprintf(data + n, "%.79s\n", text); break; /* invalid */
        }
    }
    recs *a = read_string(data, n);
    int k = 0;
    for (int i = 0; i < N; i++) {
        if (kind[i] == 4)
            continue;
        cr_assert_lt(k, a->n);
        const uint8_t *cells = a->cells[k];
        const sb_record *rec = &a->r[k++];
        cr_assert_eq(rec->line, (uint64_t)i + 1, "record %d: line %llu, want %d", k,
                     (unsigned long long)rec->line, i + 1);
        if (kind[i] == 5) {
            expect_rec_invalid(rec, (uint64_t)i + 1, "too few cells (79 of 81)");
        } else {
            cr_assert_eq(rec->kind, SB_LINE_PUZZLE, "line %d: why %s", i + 1, rec->why);
            cr_assert_arr_eq(cells, grids[i], 81, "line %d", i + 1);
        }
    }
    cr_assert_eq(k, a->n);
    free(a);
    free(data);
    free(kind);
    free(grids);
}

Test(reader, read_error_reports_io)
{
    FILE *f = fopen("/dev/null", "w"); /* reading a write-only stream fails */
    cr_assert_not_null(f);
    sb_reader *r = NULL;
    cr_assert_eq(sb_reader_open(&r, sb_geometry_9x9(), f), SB_OK);
    sb_record rec;
    uint8_t cells[SB_CELLS];
    cr_assert_eq(sb_reader_next(r, &rec, cells, NULL), SB_ERR_IO);
    sb_reader_close(r);
    fclose(f);
}

/* ------------------------------------------------------------------------------------------ */
/* sb_grid_format and sb_grid_conflict                                                        */
/* ------------------------------------------------------------------------------------------ */

Test(grid, format)
{
    sb_grid g = tu_grid(P1);
    char out[SB_GRID_TEXT];
    memset(out, 'X', sizeof out);
    sb_grid_format(&g, out);
    cr_assert_str_eq(out, P1);
    cr_assert_eq(strlen(out), 81);

    sb_grid empty;
    memset(&empty, 0, sizeof empty);
    sb_grid_format(&empty, out);
    char dots[82];
    memset(dots, '.', 81);
    dots[81] = '\0';
    cr_assert_str_eq(out, dots);

    g = tu_grid(KS);
    sb_grid_format(&g, out);
    cr_assert_str_eq(out, KS);

    /* format -> parse round trip on random puzzles. */
    ref_rng rng;
    ref_rng_seed(&rng, 3);
    for (int k = 0; k < 100; k++) {
        uint8_t full[81];
        ref_random_full_grid(&rng, full);
        ref_random_puzzle(&rng, full, ref_rng_below(&rng, 82), g.cell);
        sb_grid_format(&g, out);
        char want[82];
        tu_text(g.cell, want);
        cr_assert_str_eq(out, want);
        sb_grid back;
        cr_assert_eq(sb_parse_line(out, 81, &back, NULL, NULL), SB_LINE_PUZZLE);
        cr_assert_arr_eq(back.cell, g.cell, 81);
    }
}

static int share_house(int a, int b)
{
    int ra = a / 9, ca = a % 9, rb = b / 9, cb = b % 9;
    return ra == rb || ca == cb || (ra / 3 == rb / 3 && ca / 3 == cb / 3);
}

Test(grid, conflict_cases)
{
    struct {
        int a, b;
        const char *what;
    } cases[] = {
        {2, 6, "row"}, {5, 77, "column"}, {30, 50, "box"}, {0, 80 - 8, "column 0"},
        {72, 80, "row 8"}, {60, 80, "box 8"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        sb_grid g;
        memset(&g, 0, sizeof g);
        g.cell[cases[i].a] = 4;
        g.cell[cases[i].b] = 4;
        int a = -1, b = -1;
        cr_assert_eq(sb_grid_conflict(&g, &a, &b), 1, "%s case", cases[i].what);
        cr_assert_eq(a, cases[i].a, "%s case: a = %d", cases[i].what, a);
        cr_assert_eq(b, cases[i].b, "%s case: b = %d", cases[i].what, b);
    }
    /* Valid puzzles: no conflict. */
    int a = -1, b = -1;
    sb_grid g = tu_grid(P1);
    cr_assert_eq(sb_grid_conflict(&g, &a, &b), 0);
    g = tu_grid(KS);
    cr_assert_eq(sb_grid_conflict(&g, &a, &b), 0);
    memset(&g, 0, sizeof g);
    cr_assert_eq(sb_grid_conflict(&g, &a, &b), 0);
    /* Same digit in cells that share no house: fine. */
    g.cell[0] = 9;
    g.cell[40] = 9;
    g.cell[80] = 9;
    cr_assert_eq(sb_grid_conflict(&g, &a, &b), 0);
}

Test(grid, conflict_random)
{
    ref_rng rng;
    ref_rng_seed(&rng, 11);
    int found = 0;
    for (int k = 0; k < 300; k++) {
        uint8_t full[81];
        sb_grid g;
        ref_random_full_grid(&rng, full);
        ref_random_puzzle(&rng, full, 15 + ref_rng_below(&rng, 40), g.cell);
        if (k % 2) {
            /* Add a clue that repeats a digit of one of its peers. */
            for (int tries = 0; tries < 1000; tries++) {
                int c = ref_rng_below(&rng, 81), d = 1 + ref_rng_below(&rng, 9);
                if (g.cell[c] == 0 && !ref_digit_fits(g.cell, c, d)) {
                    g.cell[c] = (uint8_t)d;
                    break;
                }
            }
        }
        int a = -1, b = -1;
        int want = ref_has_conflict(g.cell);
        int got = sb_grid_conflict(&g, &a, &b);
        char t[82];
        tu_text(g.cell, t);
        cr_assert_eq(got, want, "%s: conflict %d, reference %d", t, got, want);
        if (got) {
            found++;
            cr_assert(a >= 0 && a < b && b < 81, "%s: a %d b %d", t, a, b);
            cr_assert_neq(g.cell[a], 0);
            cr_assert_eq(g.cell[a], g.cell[b], "%s: cells %d and %d differ", t, a, b);
            cr_assert(share_house(a, b), "%s: cells %d and %d share no house", t, a, b);
        }
    }
    cr_assert_geq(found, 100);
}
