/*
 * test_stream.c — the stream engine (sb_stream_*, src/app/): output in input order whatever
 * the thread count, a stop on a record boundary, item runs and a handler's halt code.
 *
 * Records are P1 (solution S1, checked with an independent brute-force solver when the CLI
 * tests were written) with its digits rotated by line % 9, so each line has a different
 * puzzle whose solution is S1 rotated the same way: the expected output is built from that,
 * not from the solver, and every solution is also checked against the rules.
 */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/app.h"
#include "test_util.h"

static const char P1[] =
    "..5..63........4..98.74...51...7.9....95.16....8.2...76...18.93..1........42..5..";
static const char S1[] =
    "425186379317952486986743215163874952279531648548629137652418793791365824834297561";

enum { LINES = 20000, INVALID_EVERY = 1000, COMMENT_EVERY = 333, STOP_LINE = 5000 };

/* What a test run collects: everything the stream hands back, in order. */
typedef struct collect {
    sb_buf out;              /* written output */
    sb_buf msg;              /* messages */
    uint64_t committed;      /* items committed */
    int open_failures;       /* inputs that could not be opened */
    volatile sig_atomic_t stop; /* the run's stop flag */
    uint64_t stop_line;      /* a record handler raises stop on this line (0: never) */
    uint64_t halt_item;      /* the item handler halts on this index (UINT64_MAX: never) */
    int progress_calls;      /* progress callbacks seen */
    int bad_fraction;        /* a progress fraction outside [0, 1] (or -1) was seen */
} collect;

/* Digit d rotated by k (blanks stay blank). */
static char rotate(char d, int k)
{
    return d >= '1' && d <= '9' ? (char)('1' + (d - '1' + k) % 9) : d;
}

/* Writes the test input to a temporary file. @return its path (static storage). */
static const char *write_input(void)
{
    static char path[] = "/tmp/sb-test-stream-XXXXXX";
    const int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    cr_assert_not_null(f);
    for (int line = 1; line <= LINES; line++) {
        if (line % INVALID_EVERY == 0)
            fputs("not a puzzle\n", f);
        else if (line % COMMENT_EVERY == 0)
            fputs("# a comment\n", f);
        else {
            for (int i = 0; i < SB_CELLS; i++)
                fputc(rotate(P1[i], line % 9), f);
            fputc('\n', f);
        }
    }
    cr_assert_eq(fclose(f), 0);
    return path;
}

/* The output and messages the test input must give, up to line last, built from S1. */
static void expected(sb_buf *out, sb_buf *msg, int last)
{
    for (int line = 1; line <= last; line++) {
        if (line % INVALID_EVERY == 0) {
            sb_buf_printf(out, "%d invalid\n", line);
            sb_buf_printf(msg, "E%d\n", line);
        } else if (line % COMMENT_EVERY != 0) {
            char sol[SB_CELLS + 1];
            for (int i = 0; i < SB_CELLS; i++)
                sol[i] = rotate(S1[i], line % 9);
            sol[SB_CELLS] = 0;
            sb_buf_printf(out, "%d %s\n", line, sol);
        }
    }
}

static int worker_new(void *ctx, void **worker)
{
    (void)ctx;
    sb_options opt;
    sb_options_default(&opt);
    return sb_solver_new((sb_solver **)worker, &opt) == SB_OK ? 0 : 99;
}

static void worker_end(void *ctx, void *worker)
{
    (void)ctx;
    sb_solver_free(worker);
}

/* Solves a record and writes "LINE SOLUTION" (or "LINE invalid" with a message). */
static int record(void *ctx, void *worker, uint32_t input, const sb_record *rec,
                  const uint8_t *cells, const uint64_t *cand, sb_buf *out, sb_buf *err,
                  void *tag)
{
    collect *c = ctx;
    (void)input;
    cr_assert_null(cand, "no pencilmarks asked for");
    const sb_grid *grid = (const sb_grid *)(const void *)cells;
    memset(tag, 1, 1);
    if (rec->line == c->stop_line)
        c->stop = 1; /* this record still completes; the flag stops what follows */
    if (rec->kind == SB_LINE_INVALID) {
        sb_buf_printf(out, "%llu invalid\n", (unsigned long long)rec->line);
        sb_buf_printf(err, "E%llu\n", (unsigned long long)rec->line);
        return SB_OK;
    }
    sb_result res;
    if (sb_solve(worker, grid, &res) != SB_OK || res.count != 1 ||
        !sb_solution_check(grid, &res.solution))
        return 98; /* fails the comparison: the output stops here */
    char *p = sb_buf_reserve(out, 32 + SB_CELLS);
    if (!p)
        return SB_OK;
    int n = snprintf(p, 32, "%llu ", (unsigned long long)rec->line);
    for (int i = 0; i < SB_CELLS; i++)
        p[n++] = (char)('0' + res.solution.cell[i]);
    p[n++] = '\n';
    out->len += (size_t)n;
    return SB_OK;
}

/* Writes "item I", or halts with code 3 and its reason at c->halt_item. */
static int item(void *ctx, void *worker, uint64_t index, sb_buf *out, sb_buf *err, void *tag)
{
    const collect *c = ctx;
    (void)worker;
    memset(tag, 1, 1);
    sb_buf_printf(out, "item %llu\n", (unsigned long long)index);
    if (index == c->halt_item) {
        sb_buf_printf(err, "halt %llu\n", (unsigned long long)index);
        return 3;
    }
    return SB_OK;
}

static int write_cb(void *ctx, const char *p, size_t n)
{
    collect *c = ctx;
    if (n) {
        char *d = sb_buf_reserve(&c->out, n);
        cr_assert_not_null(d);
        memcpy(d, p, n);
        c->out.len += n;
    }
    return 0;
}

static void message_cb(void *ctx, const char *p, size_t n)
{
    collect *c = ctx;
    char *d = sb_buf_reserve(&c->msg, n);
    cr_assert_not_null(d);
    memcpy(d, p, n);
    c->msg.len += n;
}

static void commit_cb(void *ctx, const uint32_t *input, const unsigned char *tags, size_t n)
{
    collect *c = ctx;
    (void)input;
    for (size_t i = 0; i < n; i++)
        cr_assert_eq(tags[i], 1, "every committed item's tag was filled");
    c->committed += n;
}

static void input_error_cb(void *ctx, int input, sb_stream_fail why, int status, int err,
                           sb_buf *msg)
{
    collect *c = ctx;
    (void)status;
    (void)err;
    cr_assert_eq(why, SB_STREAM_OPEN);
    c->open_failures++;
    sb_buf_printf(msg, "OPEN %d\n", input);
}

static void error_cb(void *ctx, int status, const char *why)
{
    (void)ctx;
    cr_assert_fail("unexpected run error %d (%s)", status, why ? why : "");
}

static void progress_cb(void *ctx, const sb_stream *s)
{
    collect *c = ctx;
    sb_stream_stats st;
    sb_stream_progress(s, &st);
    c->progress_calls++;
    if (st.fraction < 0 || st.fraction > 1)
        c->bad_fraction = 1;
}

/* A job over c with every callback. */
static sb_stream_job job_of(collect *c, int threads)
{
    return (sb_stream_job){.threads = threads, .ctx = c, .stop = &c->stop, .tag_size = 1,
                           .worker_new = worker_new, .worker_end = worker_end,
                           .record = record, .item = item, .write = write_cb,
                           .message = message_cb, .commit = commit_cb,
                           .input_error = input_error_cb, .error = error_cb,
                           .g = sb_geometry_9x9()};
}

/* Runs job to its end. @return sb_stream_run's status; *st its final counts. */
static int run_job(const sb_stream_job *job, sb_stream_stats *st)
{
    sb_stream *s;
    cr_assert_eq(sb_stream_new(&s, job), SB_OK);
    const int rc = sb_stream_run(s);
    sb_stream_progress(s, st);
    sb_stream_free(s);
    return rc;
}

/* Counts the newlines of b (records, one line each). */
static uint64_t lines_of(const sb_buf *b)
{
    uint64_t n = 0;
    for (size_t i = 0; i < b->len; i++)
        n += b->data[i] == '\n';
    return n;
}

static void collect_free(collect *c)
{
    sb_buf_free(&c->out);
    sb_buf_free(&c->msg);
}

Test(stream, records_in_input_order_for_1_2_4_threads)
{
    const char *path = write_input();
    char *files[] = {(char *)path, "/nonexistent/sb-test-stream"};
    sb_buf want = {0}, want_msg = {0};
    expected(&want, &want_msg, LINES);
    sb_buf_printf(&want_msg, "OPEN 1\n"); /* after every record of the input before it */
    const int threads[] = {1, 2, 4};
    for (int k = 0; k < 3; k++) {
        collect c = {.halt_item = UINT64_MAX};
        sb_stream_job job = job_of(&c, threads[k]);
        job.files = files;
        job.nfiles = 2;
        sb_stream_stats st;
        cr_assert_eq(run_job(&job, &st), SB_OK, "-t %d", threads[k]);
        cr_assert_eq(c.out.len, want.len, "-t %d: output length", threads[k]);
        cr_assert(!memcmp(c.out.data, want.data, want.len), "-t %d: output bytes", threads[k]);
        cr_assert_eq(c.msg.len, want_msg.len, "-t %d: messages", threads[k]);
        cr_assert(!memcmp(c.msg.data, want_msg.data, want_msg.len), "-t %d", threads[k]);
        cr_assert_eq(c.open_failures, 1);
        cr_assert_eq(st.failed, 1);
        cr_assert_eq(st.written, lines_of(&want));
        cr_assert_eq(c.committed, st.written);
        cr_assert_eq(st.last_input, 0);
        cr_assert_eq(st.last_line, LINES);
        collect_free(&c);
    }
    sb_buf_free(&want);
    sb_buf_free(&want_msg);
    unlink(path);
}

Test(stream, stop_flag_ends_on_a_record_boundary_with_a_prefix)
{
    const char *path = write_input();
    char *files[] = {(char *)path};
    sb_buf want = {0}, want_msg = {0}, upto = {0}, upto_msg = {0};
    expected(&want, &want_msg, LINES);
    expected(&upto, &upto_msg, STOP_LINE);
    const int threads[] = {1, 2, 4};
    for (int k = 0; k < 3; k++) {
        collect c = {.halt_item = UINT64_MAX, .stop_line = STOP_LINE};
        sb_stream_job job = job_of(&c, threads[k]);
        job.files = files;
        job.nfiles = 1;
        sb_stream_stats st;
        cr_assert_eq(run_job(&job, &st), SB_ERR_STOPPED, "-t %d", threads[k]);
        cr_assert(c.out.len < want.len, "-t %d: the stop cut the run short", threads[k]);
        cr_assert(!memcmp(c.out.data, want.data, c.out.len), "-t %d: a prefix", threads[k]);
        cr_assert(c.out.len == 0 || c.out.data[c.out.len - 1] == '\n',
                  "-t %d: ends on a record boundary", threads[k]);
        cr_assert_eq(st.written, lines_of(&c.out), "-t %d", threads[k]);
        cr_assert_eq(c.committed, st.written, "-t %d: commits = records written", threads[k]);
        if (threads[k] == 1) {
            /* one thread: exactly the records up to the one that raised the flag */
            cr_assert_eq(c.out.len, upto.len);
            cr_assert_eq(c.msg.len, upto_msg.len);
            cr_assert(!memcmp(c.msg.data, upto_msg.data, upto_msg.len));
        }
        collect_free(&c);
    }
    sb_buf_free(&want);
    sb_buf_free(&want_msg);
    sb_buf_free(&upto);
    sb_buf_free(&upto_msg);
    unlink(path);
}

Test(stream, skip_and_line_base_shift_records)
{
    const char *path = write_input();
    char *files[] = {(char *)path};
    collect c = {.halt_item = UINT64_MAX};
    sb_stream_job job = job_of(&c, 2);
    job.files = files;
    job.nfiles = 1;
    job.skip = 10; /* lines 1..10 hold ten puzzles */
    job.line_base = 1000000;
    sb_stream_stats st;
    cr_assert_eq(run_job(&job, &st), SB_OK);
    cr_assert_eq(st.skipped, 10);
    cr_assert_eq(st.skipped_invalid, 0);
    cr_assert(!strncmp(c.out.data, "1000011 ", 8), "first record is line 11, shifted");
    cr_assert_eq(st.last_line, 1000000 + LINES);
    collect_free(&c);
    unlink(path);
}

Test(stream, items_in_order_and_a_halt_code)
{
    enum { ITEMS = 30000, HALT = 7000 };
    sb_buf want = {0};
    for (int i = 0; i < ITEMS; i++)
        sb_buf_printf(&want, "item %d\n", i);
    const int threads[] = {1, 2, 4};
    for (int k = 0; k < 3; k++) {
        collect c = {.halt_item = UINT64_MAX};
        sb_stream_job job = job_of(&c, threads[k]);
        job.items = ITEMS;
        job.progress = progress_cb;
        sb_stream_stats st;
        cr_assert_eq(run_job(&job, &st), SB_OK);
        cr_assert_eq(c.out.len, want.len, "-t %d", threads[k]);
        cr_assert(!memcmp(c.out.data, want.data, want.len), "-t %d", threads[k]);
        cr_assert_eq(c.committed, ITEMS);
        cr_assert_eq(st.fraction, 1.0);
        if (threads[k] == 1) /* the calling thread handles chunks of every window then */
            cr_assert(c.progress_calls > 0);
        cr_assert(!c.bad_fraction);
        collect_free(&c);

        /* a handler's code ends the run after the items before it, with its reason */
        collect h = {.halt_item = HALT};
        job = job_of(&h, threads[k]);
        job.items = ITEMS;
        cr_assert_eq(run_job(&job, &st), 3, "-t %d", threads[k]);
        size_t upto = 0; /* bytes of items 0..HALT-1 */
        for (int i = 0; i < HALT; i++)
            upto += (size_t)snprintf(NULL, 0, "item %d\n", i);
        cr_assert_eq(h.out.len, upto, "-t %d: the items before the halt", threads[k]);
        cr_assert(!memcmp(h.out.data, want.data, upto));
        cr_assert_eq(h.msg.len, strlen("halt 7000\n"));
        cr_assert(!memcmp(h.msg.data, "halt 7000\n", h.msg.len));
        cr_assert_eq(h.committed, HALT);
        collect_free(&h);
    }
    sb_buf_free(&want);
}
