/*
 * test_reader_stream.c — what the batch engine relies on in the parser: the 81-cell fast path
 * of sb_parse_line agrees with the full scan on every line, and sb_reader_next can be
 * resumed after a read that did not complete (EAGAIN on a non-blocking pipe, EINTR from a
 * signal) without losing or duplicating input, also in the middle of a too-long line.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "test_util.h"

static const char P1[] =
    "..5..63........4..98.74...51...7.9....95.16....8.2...76...18.93..1........42..5..";

/* A small deterministic generator (xorshift64) so failures reproduce. */
static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

Test(parse_fast_path, agrees_with_full_scan)
{
    /* Mostly cell characters, sometimes one of the bytes the full scan must explain. */
    static const char cells[] = "123456789.0-_";
    static const char odd[] = "x: \t,#\x01\x80\xff\r";
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    for (int iter = 0; iter < 20000; iter++) {
        char line[SB_CELLS + 2], shifted[SB_CELLS + 2];
        const int nodd = iter % 4 == 0 ? (int)(next_rand(&seed) % 3) : 0;
        for (int i = 0; i < SB_CELLS; i++)
            line[i] = cells[next_rand(&seed) % (sizeof cells - 1)];
        for (int k = 0; k < nodd; k++)
            line[next_rand(&seed) % SB_CELLS] = odd[next_rand(&seed) % (sizeof odd - 1)];
        /* The same line behind one leading space never takes the fast path. */
        shifted[0] = ' ';
        memcpy(shifted + 1, line, SB_CELLS);
        sb_grid fast, full;
        char why_fast[SB_WHY_LEN], why_full[SB_WHY_LEN];
        size_t col_fast, col_full;
        memset(&fast, 0xAA, sizeof fast);
        memset(&full, 0x55, sizeof full);
        const sb_line_kind kf = sb_parse_line(line, SB_CELLS, &fast, why_fast, &col_fast);
        const sb_line_kind ks = sb_parse_line(shifted, SB_CELLS + 1, &full, why_full, &col_full);
        cr_assert_eq(kf, ks, "line %.81s: kind %d vs %d", line, kf, ks);
        cr_assert_str_eq(why_fast, why_full, "line %.81s", line);
        if (kf == SB_LINE_PUZZLE) {
            cr_assert_arr_eq(fast.cell, full.cell, SB_CELLS, "line %.81s: grids differ", line);
            for (int i = 0; i < SB_CELLS; i++) {
                const int want = line[i] >= '1' && line[i] <= '9' ? line[i] - '0' : 0;
                cr_assert_eq(fast.cell[i], want, "line %.81s cell %d", line, i);
            }
            cr_assert_eq(col_fast, 0);
        } else if (kf == SB_LINE_INVALID) {
            cr_assert_eq(col_fast + 1, col_full, "line %.81s: column %zu vs %zu", line, col_fast,
                         col_full);
        }
        /* A CR after the 81 cells changes nothing. */
        line[SB_CELLS] = '\r';
        sb_grid cr;
        char why_cr[SB_WHY_LEN];
        size_t col_cr;
        cr_assert_eq(sb_parse_line(line, SB_CELLS + 1, &cr, why_cr, &col_cr), kf, "%.81s\\r", line);
        cr_assert_str_eq(why_cr, why_fast);
        if (kf == SB_LINE_PUZZLE)
            cr_assert_arr_eq(cr.cell, fast.cell, SB_CELLS);
    }
}

/* Makes a pipe (its read end non-blocking when asked: reads with no data then fail with
 * EAGAIN) and a reader over its read end, returned with the stream to close. */
static sb_reader *pipe_reader(int fds[2], int nonblocking, FILE **in)
{
    cr_assert_eq(pipe(fds), 0);
    if (nonblocking)
        cr_assert_eq(fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK), 0);
    *in = fdopen(fds[0], "rb");
    cr_assert_not_null(*in);
    sb_reader *r;
    cr_assert_eq(sb_reader_open(&r, sb_geometry_9x9(), *in), SB_OK);
    return r;
}

/* Writes the whole string s to fd (a pipe with room: the test data is small). */
static void put(int fd, const char *s)
{
    const size_t n = strlen(s);
    cr_assert_eq(write(fd, s, n), (ssize_t)n);
}

Test(reader_resume, after_eagain_mid_line)
{
    int fds[2];
    FILE *in;
    sb_reader *r = pipe_reader(fds, 1, &in);
    sb_record rec;
    uint8_t cells[SB_CELLS];
    char half[42];
    memcpy(half, P1, 41);
    half[41] = '\0';
    put(fds[1], half);
    errno = 0;
    cr_assert_eq(sb_reader_next(r, &rec, cells, NULL), SB_ERR_IO,
                 "half a line is not a record yet");
    cr_assert_eq(errno, EAGAIN);
    put(fds[1], P1 + 41);
    put(fds[1], "\nxyz\n");
    cr_assert_eq(sb_reader_next(r, &rec, cells, NULL), 1);
    cr_assert_eq(rec.kind, SB_LINE_PUZZLE, "%s", rec.why);
    cr_assert_eq(rec.line, 1);
    sb_grid want = tu_grid(P1);
    cr_assert_arr_eq(cells, want.cell, SB_CELLS, "the halves were not joined");
    cr_assert_eq(sb_reader_next(r, &rec, cells, NULL), 1);
    cr_assert_eq(rec.kind, SB_LINE_INVALID);
    cr_assert_eq(rec.line, 2);
    cr_assert_eq(sb_reader_next(r, &rec, cells, NULL), SB_ERR_IO);
    cr_assert_eq(errno, EAGAIN);
    close(fds[1]);
    cr_assert_eq(sb_reader_next(r, &rec, cells, NULL), 0,
                 "end of input after the writer closed");
    sb_reader_close(r);
    fclose(in);
}

Test(reader_resume, long_line_reported_before_its_end_and_skipped_after_eagain)
{
    int fds[2];
    FILE *in;
    sb_reader *r = pipe_reader(fds, 1, &in);
    char chunk[1501];
    memset(chunk, '7', 1500);
    chunk[1500] = '\0';
    put(fds[1], chunk);
    sb_record rec;
    uint8_t cells[SB_CELLS];
    cr_assert_eq(sb_reader_next(r, &rec, cells, NULL), 1,
                 "a too-long line is reported without its end");
    cr_assert_eq(rec.kind, SB_LINE_INVALID);
    cr_assert_str_eq(rec.why, "line too long");
    cr_assert_eq(rec.line, 1);
    cr_assert_eq(rec.col, SB_MAX_LINE + 1);
    cr_assert_eq(sb_reader_next(r, &rec, cells, NULL), SB_ERR_IO,
                 "the rest of the long line has not come");
    cr_assert_eq(errno, EAGAIN);
    put(fds[1], chunk); /* more of the same line: still skipped */
    cr_assert_eq(sb_reader_next(r, &rec, cells, NULL), SB_ERR_IO);
    cr_assert_eq(errno, EAGAIN);
    put(fds[1], "77\n");
    put(fds[1], P1);
    put(fds[1], "\n");
    cr_assert_eq(sb_reader_next(r, &rec, cells, NULL), 1);
    cr_assert_eq(rec.kind, SB_LINE_PUZZLE, "%s", rec.why);
    cr_assert_eq(rec.line, 2, "the long line's tail was taken for a line");
    close(fds[1]);
    cr_assert_eq(sb_reader_next(r, &rec, cells, NULL), 0);
    sb_reader_close(r);
    fclose(in);
}

/* SIGALRM handler: does nothing; its only effect is to interrupt the blocking read (a
 * reader that retried EINTR would block for ever: make test's per-test timeout ends it). */
static void on_alarm(int sig)
{
    (void)sig;
}

/* The thread that interrupts the reader: it signals the target thread again and again until
 * told to stop, so one signal lands while the target is blocked in read() however long the
 * target takes to get there (a single timer would race the reader on a slow machine). */
typedef struct {
    pthread_t target;
    atomic_int stop;
} nudger;

/* Sends SIGALRM to n->target every millisecond until n->stop. */
static void *nudge(void *arg)
{
    nudger *n = arg;
    const struct timespec ms = {.tv_nsec = 1000000};
    while (!atomic_load(&n->stop)) {
        pthread_kill(n->target, SIGALRM);
        nanosleep(&ms, NULL);
    }
    return NULL;
}

Test(reader_resume, after_eintr_from_a_signal)
{
    struct sigaction sa = {.sa_handler = on_alarm}; /* no SA_RESTART: read() returns EINTR */
    sigemptyset(&sa.sa_mask);
    cr_assert_eq(sigaction(SIGALRM, &sa, NULL), 0);
    int fds[2];
    FILE *in;
    sb_reader *r = pipe_reader(fds, 0, &in);
    put(fds[1], "12345");
    nudger n = {.target = pthread_self()};
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, nudge, &n), 0);
    sb_record rec;
    uint8_t cells[SB_CELLS];
    errno = 0;
    const int got = sb_reader_next(r, &rec, cells, NULL);
    const int err = errno;
    atomic_store(&n.stop, 1);
    pthread_join(t, NULL);
    cr_assert_eq(got, SB_ERR_IO, "the blocked read was not interrupted");
    cr_assert_eq(err, EINTR);
    put(fds[1], "\n");
    put(fds[1], P1);
    close(fds[1]);
    cr_assert_eq(sb_reader_next(r, &rec, cells, NULL), 1);
    cr_assert_eq(rec.kind, SB_LINE_INVALID, "the 5 bytes before the signal were lost");
    cr_assert_str_eq(rec.why, "too few cells (5 of 81)");
    cr_assert_eq(sb_reader_next(r, &rec, cells, NULL), 1);
    cr_assert_eq(rec.kind, SB_LINE_PUZZLE, "last line without a newline: %s", rec.why);
    cr_assert_eq(rec.line, 2);
    cr_assert_eq(sb_reader_next(r, &rec, cells, NULL), 0);
    sb_reader_close(r);
    fclose(in);
}
