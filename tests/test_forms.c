/*
 * test_forms.c — the input forms beyond one 81-cell line (docs/cli.md "Other input forms"):
 * tdoku records and pencilmarks in sb_parse_line, nine-line grids in sb_reader_next, with
 * their error columns, line numbers and the one-record-per-puzzle rule; and that a grid's
 * record comes out of a pipe as soon as its ninth row has arrived (streaming).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "reference.h"
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

/* Reads the records of stream f (closed after) up to max, their cells into cells; returns
 * how many. */
static int read_stream(FILE *f, sb_record *recs, uint8_t (*cells)[SB_CELLS], int max)
{
    sb_reader *r;
    cr_assert_eq(sb_reader_open(&r, sb_geometry_9x9(), f), SB_OK);
    int n = 0, got;
    while (n < max && (got = sb_reader_next(r, &recs[n], cells[n], NULL)) == 1)
        n++;
    sb_reader_close(r);
    fclose(f);
    return n;
}

/* Reads every record of text; returns how many (at most max). */
static int read_all(const char *text, sb_record *recs, uint8_t (*cells)[SB_CELLS], int max)
{
    return read_stream(fmemopen((void *)text, strlen(text), "r"), recs, cells, max);
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
    uint8_t cells[8][SB_CELLS];
    const int n = read_all(text, rec, cells, 8);
    cr_assert_eq(n, 6, "records: %d", n);
    cr_assert_eq(rec[0].kind, SB_LINE_PUZZLE);
    cr_assert_eq(rec[0].line, 1);
    cr_assert_arr_eq(cells[0], want.cell, SB_CELLS);
    cr_assert_eq(rec[1].kind, SB_LINE_PUZZLE);
    cr_assert_eq(rec[1].line, 11); /* its first row: the rule right after a grid closed it */
    cr_assert_arr_eq(cells[1], want.cell, SB_CELLS);
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
    uint8_t cells[4][SB_CELLS];
    int n = read_all("+---+---+---+\n\n-----------\n123456789\n.........\n", rec, cells, 4);
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
Test(forms, grid_streams_from_a_pipe)
{
    int fd[2];
    cr_assert_eq(pipe(fd), 0);
    char rows[256] = "";
    put_rows(rows, "%c%c%c%c%c%c%c%c%c\n");
    cr_assert_eq(write(fd[1], rows, strlen(rows)), (ssize_t)strlen(rows));
    FILE *in = fdopen(fd[0], "r");
    sb_reader *r;
    cr_assert_eq(sb_reader_open(&r, sb_geometry_9x9(), in), SB_OK);
    sb_record rec;
    uint8_t cells[SB_CELLS];
    cr_assert_eq(sb_reader_next(r, &rec, cells, NULL), 1); /* would block if it read ahead */
    cr_assert_eq(rec.kind, SB_LINE_PUZZLE);
    close(fd[1]);
    cr_assert_eq(sb_reader_next(r, &rec, cells, NULL), 0);
    sb_reader_close(r);
    fclose(in);
}

/* ---- pencilmark puzzles with eliminations beyond their givens ---------------------------- */

/* Writes the 729-character pencilmark line of candidate masks cand. */
static void marks_text(const uint16_t cand[SB_CELLS], char out[SB_CELLS * 9 + 1])
{
    for (int c = 0; c < SB_CELLS; c++)
        for (int k = 0; k < 9; k++)
            out[9 * c + k] = cand[c] >> k & 1 ? (char)('1' + k) : '.';
    out[SB_CELLS * 9] = '\0';
}

/* Makes a pencilmark puzzle from puzzle p (solution sol) in one of three ways, chosen by
 * kind: 0 drops random candidates but never the solution's digit (one solution, sol);
 * 1 also blanks some givens first, so the rest may admit several grids (1, 2+ solutions);
 * 2 then drops the solution's digit from a random blank cell (no solution: p is proper). */
static void make_marks(ref_rng *rng, const uint8_t *p, const uint8_t *sol, int kind,
                       uint16_t cand[SB_CELLS])
{
    sb_grid g;
    memcpy(g.cell, p, SB_CELLS);
    if (kind == 1)
        for (int c = 0; c < SB_CELLS; c++)
            if (g.cell[c] && ref_rng_below(rng, 3) == 0)
                g.cell[c] = 0;
    sb_grid_candidates(&g, cand);
    for (int c = 0; c < SB_CELLS; c++) {
        if (g.cell[c] || ref_rng_below(rng, 3) != 0)
            continue;
        const uint16_t keep = (uint16_t)(1u << (sol[c] - 1));
        for (int k = 0; k < 9; k++)
            if ((1u << k) != keep && ref_rng_below(rng, 2) == 0)
                cand[c] &= (uint16_t)~(1u << k);
    }
    if (kind == 2) {
        int c;
        do
            c = ref_rng_below(rng, SB_CELLS);
        while (g.cell[c]);
        cand[c] &= (uint16_t)~(1u << (sol[c] - 1));
        if (!cand[c]) /* keep every cell with a candidate: an empty cell is a parse error */
            cand[c] = (uint16_t)(SB_ALL_DIGITS & ~(1u << (sol[c] - 1)));
    }
}

/* 1 when every cell of sol is one of its candidates. */
static int within_marks(const uint16_t cand[SB_CELLS], const sb_grid *sol)
{
    for (int c = 0; c < SB_CELLS; c++)
        if (!sol->cell[c] || !(cand[c] >> (sol->cell[c] - 1) & 1))
            return 0;
    return 1;
}

/* sb_solve_candidates against the reference's brute force (tests/reference.c) on random
 * pencilmark puzzles made from the sample files: counts at limit 2 and 0, the unique
 * solution itself, any solution's validity, for several pipelines and both search modes;
 * the line goes through the reader first, so parsing is checked on the way. */
Test(forms, pencilmark_solves_match_the_reference)
{
    enum { PER_FILE = 20 };
    static const char *const files[] = {"datasets/samples/17_clue_2000.txt",
                                        "datasets/samples/top1465.txt"};
    static const char *const pipes[] = {"fast", "list", "restart", "none"};
    static sb_record samples[PER_FILE];
    static uint8_t sample_cells[PER_FILE][SB_CELLS];
    sb_solver *solvers[4][2];
    for (int p = 0; p < 4; p++)
        for (int m = 0; m < 2; m++) {
            sb_options opt;
            sb_options_default(&opt);
            cr_assert_eq(sb_options_pipeline(&opt, pipes[p]), SB_OK);
            opt.search = m ? SB_SEARCH_BFS : SB_SEARCH_DFS;
            cr_assert_eq(sb_solver_new(&solvers[p][m], &opt), SB_OK);
        }
    sb_options all;
    sb_options_default(&all);
    all.limit = 0;
    all.max_guesses = 2000; /* enough for the counts of up to 50 checked below */
    sb_solver *counter;
    cr_assert_eq(sb_solver_new(&counter, &all), SB_OK);
    ref_rng rng;
    ref_rng_seed(&rng, 15);
    int seen[3] = {0, 0, 0}; /* puzzles with 0, 1, 2+ solutions */
    for (size_t f = 0; f < 2; f++) {
        FILE *in = fopen(files[f], "r");
        cr_assert(in, "cannot open %s (tests run from the repository root)", files[f]);
        cr_assert_eq(read_stream(in, samples, sample_cells, PER_FILE), PER_FILE);
        for (int i = 0; i < PER_FILE; i++) {
            const uint8_t *p = sample_cells[i];
            uint8_t sol[SB_CELLS];
            cr_assert_eq(ref_count(p, 2, sol), 1);
            for (int kind = 0; kind < 3; kind++) {
                uint16_t cand[SB_CELLS];
                make_marks(&rng, p, sol, kind, cand);
                char line[SB_CELLS * 9 + 2];
                marks_text(cand, line);
                strcat(line, "\n");
                FILE *in = fmemopen(line, strlen(line), "r");
                sb_reader *r;
                cr_assert_eq(sb_reader_open(&r, sb_geometry_9x9(), in), SB_OK);
                sb_record rec;
                uint8_t cells[SB_CELLS];
                uint64_t rcand[SB_CELLS];
                cr_assert_eq(sb_reader_next(r, &rec, cells, rcand), 1);
                cr_assert_eq(rec.kind, SB_LINE_PUZZLE, "%s", rec.why);
                cr_assert_eq(rec.marks, 1);
                uint16_t got[SB_CELLS]; /* the masks, as sb_solve_candidates takes them */
                for (int c = 0; c < SB_CELLS; c++) {
                    cr_assert_leq(rcand[c], (uint64_t)SB_ALL_DIGITS);
                    got[c] = (uint16_t)rcand[c];
                }
                cr_assert_arr_eq(got, cand, sizeof cand);
                sb_reader_close(r);
                fclose(in);

                uint8_t first[SB_CELLS];
                const int want = ref_count_marks(cand, 2, first);
                seen[want]++;
                for (int pi = 0; pi < 4; pi++)
                    for (int m = 0; m < (kind == 0 ? 2 : 1); m++) { /* others: too wide
                                                                       for a BFS frontier */
                        sb_result res;
                        const int st = sb_solve_candidates(solvers[pi][m], got, &res);
                        cr_assert_eq(st, SB_OK, "%s %s kind %d: %s", pipes[pi],
                                     m ? "bfs" : "dfs", kind, sb_strerror(st));
                        cr_assert_eq(res.count, (uint64_t)want, "%s %s kind %d: %s", pipes[pi],
                                     m ? "bfs" : "dfs", kind, line);
                        if (want == 1)
                            cr_assert_arr_eq(res.solution.cell, first, SB_CELLS);
                        if (want >= 1) {
                            cr_assert(within_marks(cand, &res.solution));
                            cr_assert(sb_solution_check(&(sb_grid){{0}}, &res.solution));
                        }
                    }
                /* every solution, where there are few enough to count by brute force */
                sb_result res;
                if (sb_solve_candidates(counter, cand, &res) == SB_OK && res.count < 50)
                    cr_assert_eq(res.count, (uint64_t)ref_count_marks(cand, 0, NULL), "%s",
                                 line);
                /* a class below search completes the grid by logic: one solution */
                sb_rating rating;
                cr_assert_eq(sb_rate_candidates(cand, &rating), SB_OK);
                if (rating.cls < SB_CLASS_SEARCH)
                    cr_assert_eq(want, 1, "rated %s: %s", sb_class_name(rating.cls), line);
            }
        }
    }
    for (int k = 0; k < 3; k++)
        cr_assert_geq(seen[k], 30, "%d puzzles with %d solutions", seen[k], k);
    for (int p = 0; p < 4; p++)
        for (int m = 0; m < 2; m++)
            sb_solver_free(solvers[p][m]);
    sb_solver_free(counter);
}

/* Candidates that say no more than their givens are that puzzle: the same result as
 * sb_solve (kernel, guesses and all) and the same rating; bad masks are refused. */
Test(forms, plain_pencilmarks_solve_as_their_givens)
{
    const sb_grid g = grid_of_p();
    uint16_t cand[SB_CELLS];
    sb_grid_candidates(&g, cand);
    sb_options opt;
    sb_options_default(&opt);
    sb_solver *s;
    cr_assert_eq(sb_solver_new(&s, &opt), SB_OK);
    sb_result a, b;
    cr_assert_eq(sb_solve(s, &g, &a), SB_OK);
    cr_assert_eq(sb_solve_candidates(s, cand, &b), SB_OK);
    cr_assert_eq(a.count, b.count);
    cr_assert_eq(a.guesses, b.guesses);
    cr_assert_arr_eq(a.solution.cell, b.solution.cell, SB_CELLS);
    sb_rating ra, rb;
    cr_assert_eq(sb_rate(&g, &ra), SB_OK);
    cr_assert_eq(sb_rate_candidates(cand, &rb), SB_OK);
    cr_assert_eq(ra.cls, rb.cls);
    cand[1] |= 1u << 3; /* r1c2 keeps 4, though r1c1 is 4: still the same puzzle */
    cr_assert_eq(sb_solve_candidates(s, cand, &b), SB_OK);
    cr_assert_eq(a.guesses, b.guesses);
    cr_assert_arr_eq(a.solution.cell, b.solution.cell, SB_CELLS);
    cand[3] = 0x200;
    cr_assert_eq(sb_solve_candidates(s, cand, &b), SB_ERR_ARG);
    cr_assert_eq(sb_solve_candidates(s, NULL, &b), SB_ERR_ARG);
    cand[3] = 0; /* no candidate: no solution */
    cr_assert_eq(sb_solve_candidates(s, cand, &b), SB_OK);
    cr_assert_eq(b.count, 0);
    sb_solver_free(s);
}

/* A reader given no room for candidates refuses extra eliminations (its caller reads cells
 * only), and keeps taking plain pencilmarks; one given room reads a tdoku record of marks
 * back. */
Test(forms, reader_marks_switch_and_tdoku_of_marks)
{
    const sb_grid g = grid_of_p();
    uint16_t cand[SB_CELLS];
    sb_grid_candidates(&g, cand);
    cand[1] &= (uint16_t)~(cand[1] & -cand[1]); /* r1c2 loses its lowest candidate */
    static char text[4 * 1024];
    marks_text(cand, text);
    strcat(text, "\n");
    marks_text(cand, text + strlen(text));
    strcat(text, ":1:");
    strcat(text, S);
    strcat(text, "\n");
    for (int on = 0; on < 2; on++) {
        FILE *in = fmemopen(text, strlen(text), "r");
        sb_reader *r;
        cr_assert_eq(sb_reader_open(&r, sb_geometry_9x9(), in), SB_OK);
        sb_record rec[2];
        uint8_t cells[2][SB_CELLS];
        uint64_t rcand[2][SB_CELLS];
        for (int i = 0; i < 2; i++) {
            cr_assert_eq(sb_reader_next(r, &rec[i], cells[i], on ? rcand[i] : NULL), 1);
            cr_assert_eq(rec[i].line, (uint64_t)i + 1);
            if (on) {
                cr_assert_eq(rec[i].kind, SB_LINE_PUZZLE, "%s", rec[i].why);
                cr_assert_eq(rec[i].marks, 1);
                for (int c = 0; c < SB_CELLS; c++)
                    cr_assert_eq(rcand[i][c], (uint64_t)cand[c], "cell %d", c);
                cr_assert_arr_eq(cells[i], g.cell, SB_CELLS);
            } else {
                cr_assert_eq(rec[i].kind, SB_LINE_INVALID);
                cr_assert_eq(rec[i].marks, 0);
                cr_assert_str_eq(rec[i].why, "pencilmarks: elimination beyond the givens (r1c2)");
            }
        }
        sb_reader_close(r);
        fclose(in);
    }
}
