/*
 * test_segment.c — the segments (sb_segment_*, src/app/): cuts fall only after lines that
 * leave a reader fresh (never inside a nine-line grid), line counts match a count of the
 * file's own bytes, the segments' streams and pieces together give back the whole input,
 * and a segment writer puts each piece at its offset, keeping the first failure.
 *
 * The input mixes one-line puzzles, comments, blank lines and nine-line grids; the expected
 * values come from the text the test wrote (where each grid's lines are), not from the code
 * under test.
 */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/app.h"

static const char P1[] =
    "..5..63........4..98.74...51...7.9....95.16....8.2...76...18.93..1........42..5..";

enum { BLOCKS = 2000 }; /* about 230 kB: several reads of a pipe */

/* The test input and, per byte, whether a cut there would split a nine-line grid. */
typedef struct input {
    char *text;
    size_t len;
    unsigned char *inside; /* inside[i]: a cut at offset i splits a nine-line grid */
    uint64_t lines;        /* lines written */
    char path[32];
    int fd;
} input;

/* Appends s to in; a cut before any of its bytes splits no grid unless grid says so. */
static void put(input *in, const char *s, int grid)
{
    const size_t n = strlen(s);
    in->text = realloc(in->text, in->len + n + 1);
    in->inside = realloc(in->inside, in->len + n + 1);
    cr_assert(in->text && in->inside);
    memcpy(in->text + in->len, s, n);
    memset(in->inside + in->len, grid, n);
    in->len += n;
    for (size_t i = 0; i < n; i++)
        in->lines += s[i] == '\n';
}

/* Writes the mixed input (last line without '\n' when open_end) to a temporary file. */
static void make_input(input *in, int open_end)
{
    memset(in, 0, sizeof *in);
    for (int b = 0; b < BLOCKS; b++) {
        char line[100];
        snprintf(line, sizeof line, "%s\n", P1);
        put(in, line, 0);
        if (b % 7 == 0)
            put(in, "# a comment\n", 0);
        if (b % 5 == 0)
            put(in, "\n", 0);
        if (b % 3 == 0) { /* a nine-line grid: no cut after its lines 1..8 */
            for (int r = 0; r < 9; r++) {
                const size_t start = in->len;
                snprintf(line, sizeof line, "%.9s\n", P1 + 9 * r);
                put(in, line, 0);
                in->inside[start] = r > 0; /* a cut before rows 2..9 splits the grid */
            }
        }
    }
    if (open_end) {
        put(in, P1, 0);
        in->lines++;
    }
    in->inside[in->len] = 0;
    strcpy(in->path, "/tmp/sb-test-seg-XXXXXX");
    in->fd = mkstemp(in->path);
    cr_assert(in->fd >= 0);
    cr_assert_eq(write(in->fd, in->text, in->len), (ssize_t)in->len);
}

static void free_input(input *in)
{
    close(in->fd);
    unlink(in->path);
    free(in->text);
    free(in->inside);
}

/* Reads stream f whole into a malloc'd buffer; *n gets its length. */
static char *slurp(FILE *f, size_t *n)
{
    size_t cap = 1 << 16, len = 0, k;
    char *s = malloc(cap);
    while ((k = fread(s + len, 1, cap - len, f)) > 0) {
        len += k;
        if (len == cap)
            s = realloc(s, cap *= 2);
    }
    *n = len;
    return s;
}

Test(segment, cuts_follow_whole_lines_and_never_split_a_grid)
{
    input in;
    make_input(&in, 1);
    const int64_t size = (int64_t)in.len;
    cr_assert_eq(sb_segment_cut(in.fd, 0, size, 0), 0);
    int64_t prev = 0;
    uint64_t lines = 0;
    for (int64_t seg = 7; seg < 4000; seg = seg * 3 + 1) {
        prev = 0, lines = 0;
        char *joined = malloc(in.len + 1);
        size_t jl = 0;
        for (int64_t pos = seg;; pos += seg) {
            const int64_t cut = pos >= size ? size : sb_segment_cut(in.fd, pos, size, 0);
            cr_assert(cut >= pos || cut == size, "cut %lld before pos %lld", (long long)cut,
                      (long long)pos);
            cr_assert(cut == size || in.text[cut - 1] == '\n', "cut %lld not at a line start",
                      (long long)cut);
            cr_assert(!in.inside[cut], "cut %lld splits a grid (segment %lld)", (long long)cut,
                      (long long)seg);
            /* the segment [prev, cut) through both readers: a stream and a read */
            const int64_t n = sb_segment_lines(in.fd, prev, cut);
            uint64_t want = 0;
            for (int64_t i = prev; i < cut; i++)
                want += in.text[i] == '\n';
            want += cut == size && cut > prev && in.text[cut - 1] != '\n';
            cr_assert_eq((uint64_t)n, want);
            FILE *f = sb_segment_open(in.fd, prev, cut);
            cr_assert_not_null(f);
            size_t got;
            char *s = slurp(f, &got);
            fclose(f);
            cr_assert_eq(got, (size_t)(cut - prev));
            cr_assert_eq(sb_text_lines(s, got), want);
            memcpy(joined + jl, s, got);
            jl += got;
            free(s);
            sb_buf b = {0};
            if (cut > prev) { /* two positions may give one cut: an empty segment */
                cr_assert_eq(sb_segment_read(&b, in.fd, prev, cut, cut - prev), 1);
                cr_assert_eq(b.len, (size_t)(cut - prev));
                cr_assert(!memcmp(b.data, in.text + prev, b.len));
                /* too large for max: the caller streams it instead */
                cr_assert_eq(sb_segment_read(&b, in.fd, prev, cut, cut - prev - 1), 0);
            }
            sb_buf_free(&b);
            lines += (uint64_t)n;
            prev = cut;
            if (cut == size)
                break;
        }
        cr_assert_eq(jl, in.len, "the segments of %lld give back every byte", (long long)seg);
        cr_assert(!memcmp(joined, in.text, in.len));
        cr_assert_eq(lines, in.lines);
        free(joined);
    }
    free_input(&in);
}

Test(segment, each_line_cuts_after_any_line)
{
    input in;
    make_input(&in, 0);
    int split = 0;
    for (int64_t pos = 1; pos < (int64_t)in.len; pos += 97) {
        const int64_t cut = sb_segment_cut(in.fd, pos, (int64_t)in.len, 1);
        cr_assert(cut == (int64_t)in.len || in.text[cut - 1] == '\n');
        /* the next line end at or after the line start at or after pos */
        int64_t start = pos;
        while (in.text[start - 1] != '\n')
            start++;
        int64_t end = start;
        while (end < (int64_t)in.len && in.text[end] != '\n')
            end++;
        cr_assert_eq(cut, end < (int64_t)in.len ? end + 1 : (int64_t)in.len);
        split |= in.inside[cut];
    }
    cr_assert(split, "with each_line some cuts fall inside a grid (no grid rule applies)");
    free_input(&in);
}

Test(segment, pieces_of_a_pipe_are_line_aligned_and_whole)
{
    input in;
    make_input(&in, 1);
    int p[2];
    cr_assert_eq(pipe(p), 0);
    /* the whole input fits the pipe in pieces: a writer child feeds it */
    const pid_t child = fork();
    cr_assert(child >= 0);
    if (child == 0) {
        close(p[0]);
        size_t done = 0;
        while (done < in.len) {
            const ssize_t k = write(p[1], in.text + done, in.len - done);
            if (k <= 0)
                _exit(1);
            done += (size_t)k;
        }
        _exit(0);
    }
    close(p[1]);
    sb_segment_piece piece = {0};
    volatile sig_atomic_t stop = 0;
    size_t at = 0;
    int pieces = 0;
    while (!(piece.eof && !piece.buf.len)) {
        const size_t n = sb_segment_fill(&piece, p[0], 1000, 0, &stop);
        cr_assert(n <= piece.buf.len);
        cr_assert(!memcmp(piece.buf.data, in.text + at, n), "piece %d differs", pieces);
        at += n;
        cr_assert(at == in.len || (in.text[at - 1] == '\n' && !in.inside[at]),
                  "piece ends at %zu: not after a cut line", at);
        cr_assert(n > 0, "an empty piece before the end");
        sb_segment_take(&piece, n);
        pieces++;
    }
    cr_assert_eq(at, in.len);
    cr_assert_eq(piece.err, 0);
    cr_assert(pieces >= 3, "%d pieces of a 230 kB input", pieces);
    sb_buf_free(&piece.buf);
    close(p[0]);
    free_input(&in);
}

Test(segment, text_lines_counts_an_unterminated_last_line)
{
    cr_assert_eq(sb_text_lines("", 0), 0);
    cr_assert_eq(sb_text_lines("a", 1), 1);
    cr_assert_eq(sb_text_lines("a\n", 2), 1);
    cr_assert_eq(sb_text_lines("\n\n", 2), 2);
    cr_assert_eq(sb_text_lines("a\nb", 3), 2);
}

Test(segment, a_writer_puts_each_piece_at_its_offset)
{
    char path[] = "/tmp/sb-test-segw-XXXXXX";
    const int fd = mkstemp(path);
    cr_assert(fd >= 0);
    sb_segment_writer *w = sb_segment_writer_new(fd, NULL, NULL);
    cr_assert_not_null(w);
    /* three pieces handed over out of order of their offsets, as rounds of ranks do */
    static const char *const piece[3] = {"bbbb", "a", "cc\n"};
    static const int64_t at[3] = {1, 0, 5};
    sb_buf out = {0};
    for (int k = 0; k < 3; k++) {
        sb_buf_put(&out, piece[k], strlen(piece[k]));
        sb_segment_writer_put(w, &out, at[k]);
        cr_assert_eq(out.len, 0, "the buffer handed back is empty");
    }
    int err = -1;
    cr_assert_eq(sb_segment_writer_wait(w, &err), -1, "nothing failed");
    sb_segment_writer_free(w);
    sb_buf_free(&out);
    char got[16] = "";
    cr_assert_eq(pread(fd, got, sizeof got - 1, 0), 8);
    cr_assert_str_eq(got, "abbbbcc\n");
    close(fd);
    unlink(path);
}

/* A write of the writer test below: records each call, fails the piece at offset 10. */
typedef struct calls {
    int64_t at[8];
    int n;
} calls;

static int failing_write(void *ctx, const char *p, size_t n, int64_t at)
{
    calls *c = ctx;
    (void)p, (void)n;
    cr_assert(c->n < 8);
    c->at[c->n++] = at;
    return at == 10 ? ENOSPC : 0;
}

Test(segment, a_writer_keeps_the_first_failure_and_writes_no_more)
{
    calls c = {.n = 0};
    sb_segment_writer *w = sb_segment_writer_new(-1, failing_write, &c);
    cr_assert_not_null(w);
    sb_buf out = {0};
    static const int64_t at[3] = {0, 10, 20};
    int err = 0;
    for (int k = 0; k < 3; k++) {
        sb_buf_put(&out, "xy", 2);
        sb_segment_writer_put(w, &out, at[k]);
        /* in place: each piece is written (or refused) before put returns */
        cr_assert_eq(sb_segment_writer_failed(w, &err), k ? 10 : -1);
    }
    cr_assert_eq(err, ENOSPC);
    cr_assert_eq(c.n, 2, "the piece after the failure is not written");
    cr_assert_eq(c.at[0], 0);
    cr_assert_eq(c.at[1], 10);
    cr_assert_eq(sb_segment_writer_wait(w, &err), 10);
    cr_assert_eq(err, ENOSPC);
    sb_buf_put(&out, "", 0);
    sb_segment_writer_put(w, &out, 30); /* an empty piece: nothing to write */
    cr_assert_eq(c.n, 2);
    sb_segment_writer_free(w);
    sb_segment_writer_free(NULL);
    sb_buf_free(&out);
}
