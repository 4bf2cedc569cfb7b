/*
 * test_bounds.c — the readers' bounds on line length against comment lines, and the look at
 * an input's start that tells its geometry: a comment line of any length is skipped by every
 * reader (the 9x9 reader, its Kaggle rows, the reader of any geometry, sb_reader on 9x9),
 * with later records at their physical line numbers, whether the line comes whole in one read
 * or in pieces; a long line that is not a comment stays one invalid record "line too long";
 * sb_input_pick_head finds the first puzzle line behind any number of comment lines, in a
 * file (nothing consumed) and in a pipe, which it gives back whole.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "app/app.h" /* sb_input_pick_head */
#include "test_util.h"

static const char P1[] =
    "..5..63........4..98.74...51...7.9....95.16....8.2...76...18.93..1........42..5..";
static const char P2[] =
    ".4.7.28........2.9928.4......38.7.1.....2.....7.9.14......5.1935.6........91.4.85";
static const char S1[] =
    "425186379317952486986743215163874952279531648548629137652418793791365824834297561";
static const char S44[] = "0000002130040000"; /* a 2x2 (4x4) puzzle */

/* A growing text to build inputs in. */
typedef struct text {
    char *s;
    size_t n, cap;
} text;

static void add(text *t, const char *s, size_t n)
{
    if (t->n + n + 1 > t->cap) {
        t->cap = (t->n + n + 1) * 2;
        t->s = realloc(t->s, t->cap);
        cr_assert_not_null(t->s);
    }
    memcpy(t->s + t->n, s, n);
    t->n += n;
    t->s[t->n] = '\0';
}

static void line(text *t, const char *s)
{
    add(t, s, strlen(s));
    add(t, "\n", 1);
}

/* Adds a line of len bytes: lead, then fill repeated, then '\n'. */
static void long_line(text *t, const char *lead, char fill, size_t len)
{
    const size_t k = strlen(lead);
    cr_assert_geq(len, k);
    add(t, lead, k);
    for (size_t i = k; i < len; i++)
        add(t, &fill, 1);
    add(t, "\n", 1);
}

/* A stream over t: a temporary file (read with read()) or, with mem, fmemopen (stdio only). */
static FILE *stream(const text *t, int mem)
{
    if (mem) {
        FILE *f = fmemopen(t->s, t->n, "r");
        cr_assert_not_null(f);
        return f;
    }
    FILE *f = tmpfile();
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(t->s, 1, t->n, f), t->n);
    rewind(f);
    return f;
}

#define MAX_RECS 16

/* Reads every record of t with the 9x9 reader into rec and cells. @return the number of
 * records. */
static int read9(const text *t, int mem, sb_record *rec, uint8_t (*cells)[SB_CELLS])
{
    FILE *f = stream(t, mem);
    sb_reader *r;
    cr_assert_eq(sb_reader_open(&r, sb_geometry_9x9(), f), SB_OK);
    int n = 0, st;
    while ((st = sb_reader_next(r, &rec[n], cells[n], NULL)) == 1)
        cr_assert_lt(++n, MAX_RECS);
    cr_assert_eq(st, 0, "sb_reader_next: %d", st);
    sb_reader_close(r);
    fclose(f);
    return n;
}

/* Reads every record of t with sb_reader on g into rec and cells. */
static int readg(const sb_geometry *g, const text *t, int mem, sb_record *rec, uint8_t *cells)
{
    FILE *f = stream(t, mem);
    sb_reader *r;
    cr_assert_eq(sb_reader_open(&r, g, f), SB_OK);
    int n = 0, st;
    while ((st = sb_reader_next(r, &rec[n], cells + (size_t)n * SB_CELLS, NULL)) == 1)
        cr_assert_lt(++n, MAX_RECS);
    cr_assert_eq(st, 0, "sb_reader_next: %d", st);
    sb_reader_close(r);
    fclose(f);
    return n;
}

static void want9(const sb_record *rec, const uint8_t *cells, uint64_t line_no,
                  const char *puzzle)
{
    cr_assert_eq(rec->kind, SB_LINE_PUZZLE, "line %llu: %s", (unsigned long long)rec->line,
                 rec->why);
    cr_assert_eq(rec->line, line_no, "record at line %llu, want %llu",
                 (unsigned long long)rec->line, (unsigned long long)line_no);
    const sb_grid g = tu_grid(puzzle);
    cr_assert_arr_eq(cells, g.cell, SB_CELLS);
}

static void want_too_long(const sb_record *rec, uint64_t line_no)
{
    cr_assert_eq(rec->kind, SB_LINE_INVALID);
    cr_assert_eq(rec->line, line_no, "record at line %llu, want %llu",
                 (unsigned long long)rec->line, (unsigned long long)line_no);
    cr_assert_str_eq(rec->why, "line too long");
    cr_assert_eq(rec->col, SB_MAX_LINE + 1);
}

static sb_geometry *geo(const char *spec)
{
    sb_geometry *g = NULL;
    char why[SB_GEO_WHY_LEN];
    cr_assert_eq(sb_geometry_parse(spec, &g, why, sizeof why), SB_OK, "%s: %s", spec, why);
    return g;
}

/* ---- the 9x9 reader ------------------------------------------------------------------------ */

Test(reader_bounds, a_5000_byte_comment_between_puzzles_is_skipped)
{
    text t = {0};
    line(&t, P1);                    /* 1 */
    long_line(&t, "#", 'c', 5000);   /* 2 */
    line(&t, P2);                    /* 3 */
    long_line(&t, "  \t# ", 'x', 5000); /* 4: after blanks */
    line(&t, P1);                    /* 5 */
    for (int mem = 0; mem < 2; mem++) {
        sb_record rec[MAX_RECS];
        uint8_t cells[MAX_RECS][SB_CELLS];
        cr_assert_eq(read9(&t, mem, rec, cells), 3, "a record for a comment line");
        want9(&rec[0], cells[0], 1, P1);
        want9(&rec[1], cells[1], 3, P2);
        want9(&rec[2], cells[2], 5, P1);
    }
    free(t.s);
}

Test(reader_bounds, comments_longer_than_the_buffer_are_skipped_at_the_start_middle_and_end)
{
    /* 200,000 bytes: more than the reader's 64 KiB buffer, so it comes in pieces; the first
     * line has a BOM; the last comment has no final newline */
    text t = {0};
    long_line(&t, "\xEF\xBB\xBF# opening", '=', 200000); /* 1 */
    line(&t, P1);                                         /* 2 */
    long_line(&t, "#", '#', 200000);                      /* 3 */
    line(&t, P2);                                         /* 4 */
    long_line(&t, " #", 'z', 200000);                     /* 5 */
    t.n--;                                                /* no final '\n' */
    for (int mem = 0; mem < 2; mem++) {
        sb_record rec[MAX_RECS];
        uint8_t cells[MAX_RECS][SB_CELLS];
        cr_assert_eq(read9(&t, mem, rec, cells), 2);
        want9(&rec[0], cells[0], 2, P1);
        want9(&rec[1], cells[1], 4, P2);
    }
    free(t.s);
}

Test(reader_bounds, a_long_comment_ends_a_grid_as_a_short_one_does)
{
    /* a nine-line grid cut by a comment: "grid ends after 2 of 9 rows" at its first line,
     * the same for a comment of 10 bytes and of 5,000 and 200,000 */
    static const size_t lens[] = {10, 5000, 200000};
    for (size_t k = 0; k < sizeof lens / sizeof *lens; k++) {
        text t = {0};
        line(&t, "..5 ..6 3..");
        line(&t, "... ... .4.");
        long_line(&t, "#", 'c', lens[k]);
        line(&t, P1);
        sb_record rec[MAX_RECS];
        uint8_t cells[MAX_RECS][SB_CELLS];
        cr_assert_eq(read9(&t, 0, rec, cells), 2, "comment of %zu bytes", lens[k]);
        cr_assert_eq(rec[0].kind, SB_LINE_INVALID);
        cr_assert_eq(rec[0].line, 1);
        cr_assert_str_eq(rec[0].why, "grid ends after 2 of 9 rows");
        want9(&rec[1], cells[1], 4, P1);
        free(t.s);
    }
}

Test(reader_bounds, a_2000_byte_line_that_is_no_comment_stays_line_too_long)
{
    text t = {0};
    line(&t, P1);                     /* 1 */
    long_line(&t, "1", '2', 2000);    /* 2 */
    line(&t, P2);                     /* 3 */
    long_line(&t, "x#", 'c', 2000);   /* 4: '#' is not first */
    long_line(&t, "", ' ', 2000);     /* 5: blanks only, past the bound */
    line(&t, P1);                     /* 6 */
    for (int mem = 0; mem < 2; mem++) {
        sb_record rec[MAX_RECS];
        uint8_t cells[MAX_RECS][SB_CELLS];
        cr_assert_eq(read9(&t, mem, rec, cells), 6);
        want9(&rec[0], cells[0], 1, P1);
        want_too_long(&rec[1], 2);
        want9(&rec[2], cells[2], 3, P2);
        want_too_long(&rec[3], 4);
        want_too_long(&rec[4], 5);
        want9(&rec[5], cells[5], 6, P1);
    }
    free(t.s);
}

Test(reader_bounds, a_hash_past_the_first_1024_bytes_does_not_make_a_comment)
{
    /* the answer must not depend on how the line arrives: only its first SB_MAX_LINE bytes
     * say whether it is a comment */
    text t = {0};
    long_line(&t, "", ' ', SB_MAX_LINE);
    t.n--;
    long_line(&t, "#", 'c', 3000); /* 1: 1024 blanks, then '#' */
    line(&t, P1);                  /* 2 */
    sb_record rec[MAX_RECS];
    uint8_t cells[MAX_RECS][SB_CELLS];
    cr_assert_eq(read9(&t, 0, rec, cells), 2);
    want_too_long(&rec[0], 1);
    want9(&rec[1], cells[1], 2, P1);
    free(t.s);
}

Test(reader_bounds, kaggle_rows_around_a_long_comment)
{
    text t = {0};
    char row[2 * 81 + 2];
    line(&t, "quizzes,solutions");          /* 1 */
    snprintf(row, sizeof row, "%s,%s", P1, S1);
    for (char *c = row; c < row + 81; c++)
        *c = *c == '.' ? '0' : *c;
    line(&t, row);                          /* 2 */
    long_line(&t, "# rows 3-", '-', 5000);  /* 3 */
    line(&t, row);                          /* 4 */
    long_line(&t, "0", '0', 2000);          /* 5: too long */
    line(&t, row);                          /* 6 */
    for (int mem = 0; mem < 2; mem++) {
        sb_record rec[MAX_RECS];
        uint8_t cells[MAX_RECS][SB_CELLS];
        cr_assert_eq(read9(&t, mem, rec, cells), 4);
        want9(&rec[0], cells[0], 2, P1);
        want9(&rec[1], cells[1], 4, P1);
        want_too_long(&rec[2], 5);
        want9(&rec[3], cells[3], 6, P1);
    }
    free(t.s);
}

/* Writes s to a non-blocking pipe's write end. */
static void put(int fd, const char *s, size_t n)
{
    cr_assert_eq(write(fd, s, n), (ssize_t)n);
}

Test(reader_bounds, a_long_comment_in_pieces_resumes_after_eagain_and_a_stop)
{
    int p[2];
    cr_assert_eq(pipe(p), 0);
    cr_assert_eq(fcntl(p[0], F_SETFL, O_NONBLOCK), 0);
    FILE *in = fdopen(p[0], "r");
    sb_reader *r;
    cr_assert_eq(sb_reader_open(&r, sb_geometry_9x9(), in), SB_OK);
    volatile sig_atomic_t stop = 0;
    sb_reader_set_stop(r, &stop);
    char chunk[3000];
    memset(chunk, 'c', sizeof chunk);
    chunk[0] = '#';
    put(p[1], P1, 81);
    put(p[1], "\n", 1);
    put(p[1], chunk, sizeof chunk);
    sb_record rec;
    uint8_t cells[SB_CELLS];
    cr_assert_eq(sb_reader_next(r, &rec, cells, NULL), 1);
    want9(&rec, cells, 1, P1);
    errno = 0;
    cr_assert_eq(sb_reader_next(r, &rec, cells, NULL), SB_ERR_IO,
                 "the comment has not ended: no record");
    cr_assert_eq(errno, EAGAIN);
    stop = 1;
    put(p[1], chunk + 1, 100);
    cr_assert_eq(sb_reader_next(r, &rec, cells, NULL), SB_ERR_STOPPED,
                 "a stop while the comment is skipped");
    stop = 0;
    put(p[1], "cc\n", 3);
    put(p[1], P2, 81);
    put(p[1], "\n", 1);
    close(p[1]);
    cr_assert_eq(sb_reader_next(r, &rec, cells, NULL), 1);
    want9(&rec, cells, 3, P2);
    cr_assert_eq(sb_reader_next(r, &rec, cells, NULL), 0);
    sb_reader_close(r);
    fclose(in);
}

/* ---- the reader of any geometry -------------------------------------------------------------- */

Test(greader_bounds, a_5000_byte_comment_on_9x9_as_the_9x9_reader)
{
    text t = {0};
    line(&t, P1);
    long_line(&t, "#", 'c', 5000);
    line(&t, P2);
    long_line(&t, "1", '2', 2000);
    line(&t, P1);
    for (int mem = 0; mem < 2; mem++) {
        sb_record rec[MAX_RECS];
        uint8_t cells[MAX_RECS * SB_CELLS];
        cr_assert_eq(readg(sb_geometry_9x9(), &t, mem, rec, cells), 4);
        const uint64_t lines[] = {1, 3, 4, 5};
        for (int i = 0; i < 4; i++)
            cr_assert_eq(rec[i].line, lines[i], "record %d at line %llu", i,
                         (unsigned long long)rec[i].line);
        cr_assert_eq(rec[0].kind, SB_LINE_PUZZLE);
        cr_assert_eq(rec[1].kind, SB_LINE_PUZZLE);
        cr_assert_eq(rec[2].kind, SB_LINE_INVALID);
        cr_assert_str_eq(rec[2].why, "line too long");
        cr_assert_eq(rec[3].kind, SB_LINE_PUZZLE);
        const sb_grid g2 = tu_grid(P2);
        cr_assert_arr_eq(cells + SB_CELLS, g2.cell, SB_CELLS);
    }
    free(t.s);
}

Test(greader_bounds, comments_past_its_bound_are_skipped_other_long_lines_refused)
{
    /* SB_GEO_MAX_LINE is 32,000: comments of 5,000, 40,000 (within the reader's buffer) and
     * 200,000 bytes (in pieces) between 2x2 puzzles; 40,000 bytes of cells stay "line too
     * long" */
    sb_geometry *g = geo("2x2");
    text t = {0};
    long_line(&t, "\xEF\xBB\xBF#", '-', 40000); /* 1 */
    line(&t, S44);                               /* 2 */
    long_line(&t, "#", 'c', 5000);               /* 3 */
    line(&t, S44);                               /* 4 */
    long_line(&t, "\t#", 'c', 40000);            /* 5 */
    line(&t, S44);                               /* 6 */
    long_line(&t, " #", 'c', 200000);            /* 7 */
    line(&t, S44);                               /* 8 */
    long_line(&t, "1", '2', 40000);              /* 9 */
    line(&t, S44);                               /* 10 */
    for (int mem = 0; mem < 2; mem++) {
        sb_record rec[MAX_RECS];
        uint8_t cells[MAX_RECS * SB_CELLS];
        cr_assert_eq(readg(g, &t, mem, rec, cells), 6);
        const uint64_t lines[] = {2, 4, 6, 8, 9, 10};
        for (int i = 0; i < 6; i++) {
            cr_assert_eq(rec[i].line, lines[i], "record %d at line %llu, want %llu", i,
                         (unsigned long long)rec[i].line, (unsigned long long)lines[i]);
            cr_assert_eq(rec[i].kind, i == 4 ? SB_LINE_INVALID : SB_LINE_PUZZLE, "record %d: %s",
                         i, rec[i].why);
        }
        cr_assert_str_eq(rec[4].why, "line too long");
        cr_assert_eq(rec[4].col, SB_GEO_MAX_LINE + 1);
    }
    free(t.s);
    sb_geometry_free(g);
}

/* ---- the look that tells the geometry -------------------------------------------------------- */

/* t with n comment lines ("# comment K") first. */
static text commented(size_t n, const char *rest)
{
    text t = {0};
    char c[40];
    for (size_t i = 0; i < n; i++) {
        snprintf(c, sizeof c, "# comment %zu", i + 1);
        line(&t, c);
    }
    add(&t, rest, strlen(rest));
    return t;
}

Test(input_head, a_file_behind_100000_comment_lines_tells_2x2_and_the_line)
{
    char path[] = "/tmp/sb-test-bounds-XXXXXX";
    const int fd = mkstemp(path);
    cr_assert(fd >= 0);
    text t = commented(100000, "0000002130040000\n0000002130040000\n");
    cr_assert_eq(write(fd, t.s, t.n), (ssize_t)t.n);
    close(fd);
    static char buf[1 << 16];
    sb_input_head h;
    const char *paths[] = {path};
    const int64_t n = sb_input_pick_head(paths, 1, buf, sizeof buf, &h);
    cr_assert_eq(n, 34, "the two puzzle lines: %lld bytes", (long long)n);
    cr_assert(!memcmp(buf, S44, 16));
    cr_assert_eq(h.skipped, 100000);
    cr_assert_eq(h.more, 0);
    cr_assert_eq(h.at, 0);
    sb_geometry *g = NULL;
    uint64_t ln = 0;
    cr_assert_eq(sb_geometry_detect(buf, (size_t)n, h.more, &g, &ln, NULL, 0), SB_OK);
    cr_assert_not_null(g, "read as 9x9");
    cr_assert_str_eq(sb_geometry_name(g), "2x2");
    cr_assert_eq(ln + h.skipped, 100001);
    sb_geometry_free(g);
    /* only comments: no puzzle line, -1 */
    free(t.s);
    t = commented(100000, "");
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    cr_assert_eq(fwrite(t.s, 1, t.n, f), t.n);
    fclose(f);
    cr_assert_eq(sb_input_pick_head(paths, 1, buf, sizeof buf, &h), -1);
    unlink(path);
    free(t.s);
}

/* Runs sb_input_pick_head on standard input made a pipe that a child fills with t (in
 * writes of piece bytes at most; 0: as much as the pipe takes), then reads all of standard
 * input back into *back. @return what sb_input_pick_head returned. */
static int64_t head_of_pipe(const text *t, size_t piece, char *buf, size_t cap,
                            sb_input_head *h, text *back)
{
    int p[2];
    cr_assert_eq(pipe(p), 0);
    const pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        close(p[0]);
        size_t done = 0;
        while (done < t->n) {
            const size_t want = piece && piece < t->n - done ? piece : t->n - done;
            const ssize_t k = write(p[1], t->s + done, want);
            if (k <= 0)
                _exit(1);
            done += (size_t)k;
        }
        _exit(0);
    }
    close(p[1]);
    cr_assert(dup2(p[0], STDIN_FILENO) >= 0);
    close(p[0]);
    const int64_t n = sb_input_pick_head(NULL, 0, buf, cap, h);
    char chunk[1 << 16];
    ssize_t k;
    *back = (text){0};
    while ((k = read(STDIN_FILENO, chunk, sizeof chunk)) > 0)
        add(back, chunk, (size_t)k);
    cr_assert_eq(k, 0, "read: %s", strerror(errno));
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the writer failed");
    return n;
}

/* Checks what standard input gives after the look (back) against the input t: an empty line
 * for each line read off (at least one), then the rest of t as it was; the readers skip an
 * empty line as a comment, so the records and their line numbers are t's. */
static void given_back_whole(const text *t, const text *back)
{
    size_t nl = 0;
    while (nl < back->n && back->s[nl] == '\n')
        nl++;
    cr_assert_gt(nl, 0, "nothing was read off the pipe: the test shows nothing");
    size_t skip = 0;
    for (size_t i = 0; i < nl; i++) {
        const char *e = memchr(t->s + skip, '\n', t->n - skip);
        cr_assert_not_null(e, "more empty lines than the input has lines");
        skip = (size_t)(e - t->s) + 1;
    }
    cr_assert_eq(back->n - nl, t->n - skip, "bytes lost or added");
    cr_assert(!memcmp(back->s + nl, t->s + skip, t->n - skip), "the rest of the input changed");
}

Test(input_head, a_pipe_behind_100000_comment_lines_is_given_back_whole)
{
    /* 1.6 MB of comments: far more than a pipe holds, so the look reads them off; written
     * at once, or a line at a time with the puzzle line cut in two writes */
    static const size_t pieces[] = {0, 7};
    for (size_t i = 0; i < sizeof pieces / sizeof *pieces; i++) {
        text t = commented(100000, "0000002130040000\n0000002130040000\n");
        static char buf[1 << 16];
        sb_input_head h;
        text back;
        const int64_t n = head_of_pipe(&t, pieces[i], buf, sizeof buf, &h, &back);
        /* the first puzzle line whole, and what had come of the rest */
        cr_assert(n >= 17 && n <= 34, "%lld bytes", (long long)n);
        cr_assert(!memcmp(buf, "0000002130040000\n0000002130040000\n", (size_t)n));
        cr_assert_eq(h.skipped, 100000);
        cr_assert_eq(h.at, 0);
        given_back_whole(&t, &back);
        free(t.s);
        free(back.s);
    }
}

Test(input_head, a_pipe_whose_puzzle_line_is_in_view_is_not_read_from)
{
    text t = commented(20, "0000002130040000\n");
    static char buf[1 << 16];
    sb_input_head h;
    text back;
    const int64_t n = head_of_pipe(&t, 0, buf, sizeof buf, &h, &back);
    cr_assert_eq(n, 17);
    cr_assert_eq(h.skipped, 20);
    cr_assert_eq(back.n, t.n);
    cr_assert(!memcmp(back.s, t.s, t.n), "the pipe was read from");
    free(t.s);
    free(back.s);
}
