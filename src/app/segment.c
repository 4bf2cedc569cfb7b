/*
 * segment.c — cutting an input into line-aligned segments that separate streams can read
 * (app.h, "Segments"), part of the programs' layer: sharding one file over several processes
 * without MPI in sight (the CLI's MPI layer, src/cli/mpi.c, does only the MPI calls).
 *
 * A cut goes only after a line that leaves a reader as fresh as at the start of an input: a
 * one-line puzzle, a blank or a comment line (no nine-line grid can be open after it), or
 * any line when each line is a record of its own (another geometry's reader). So a grid is
 * never cut in two, whatever the segment size. Line counts follow the reader's: its
 * newlines, plus a last line without one at the end.
 *
 * A segment writer puts each piece's output at its offset in a file (pwrite in a thread of
 * its own, or the caller's write in place), one piece at a time, so writing a piece overlaps
 * handling the next; a failure is kept with its offset, so the caller can cut the file back
 * to the first piece not wholly written.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"

enum {
    SCAN = 1 << 16, /* bytes per read while counting lines or finding a line start */
    PEEK = 1 << 10  /* first read near a cut (doubled up to SCAN while no '\n'): puzzle
                       lines are short, and every shard places two cuts per segment, so
                       reading SCAN there was 6% more input read */
};

/* pread that retries after a signal. @return as pread. */
static ssize_t read_at(int fd, char *buf, size_t n, int64_t at)
{
    ssize_t k;
    do
        k = n ? pread(fd, buf, n, (off_t)at) : 0;
    while (k < 0 && errno == EINTR);
    return k;
}

/* The first line start at or after pos in fd (size bytes): pos itself when the byte before
 * it is a newline. @return it, or -1 after a read error (errno set). */
static int64_t line_start(int fd, int64_t pos, int64_t size)
{
    char buf[SCAN];
    if (pos <= 0)
        return 0;
    for (int64_t at = pos - 1, want = PEEK; at < size; want = want < SCAN ? 2 * want : SCAN) {
        const ssize_t k = read_at(fd, buf, (size_t)want, at);
        if (k <= 0)
            return k < 0 ? -1 : size;
        const char *nl = memchr(buf, '\n', (size_t)k);
        if (nl)
            return at + (nl - buf) + 1;
        at += k;
    }
    return size;
}

/* @return 1 if a cut may follow line s (len bytes, no '\n'): each_line, or a line that is
 * no part of a nine-line grid (a one-line puzzle, a blank or a comment). */
static int neutral_line(const char *s, size_t len, int each_line)
{
    if (each_line)
        return 1;
    sb_grid g;
    char why[SB_WHY_LEN];
    size_t col;
    return sb_parse_line(s, len, &g, why, &col) != SB_LINE_INVALID;
}

int64_t sb_segment_cut(int fd, int64_t pos, int64_t size, int each_line)
{
    char buf[SCAN];
    if (size < 0) {
        errno = EINVAL;
        return -1;
    }
    if (pos <= 0)
        return 0;
    int64_t at = line_start(fd, pos, size);
    size_t want = PEEK;
    while (at >= 0 && at < size) {
        const ssize_t k = read_at(fd, buf, want, at);
        if (k <= 0)
            return k < 0 ? -1 : size;
        const char *nl = memchr(buf, '\n', (size_t)k);
        if (!nl && want < SCAN && (size_t)k == want) {
            want *= 2; /* the line goes on: look further */
            continue;
        }
        if (!nl) { /* a line longer than the buffer: never a puzzle; on to its end */
            at = line_start(fd, at + 1, size);
            continue;
        }
        const size_t len = (size_t)(nl - buf);
        const int64_t next = at + (int64_t)len + 1;
        if (neutral_line(buf, len, each_line))
            return next;
        at = next;
    }
    return at < 0 ? -1 : size;
}

int64_t sb_segment_lines(int fd, int64_t start, int64_t end)
{
    char buf[SCAN];
    int64_t n = 0;
    char last = '\n';
    for (int64_t at = start; at < end;) {
        const size_t want = end - at < (int64_t)sizeof buf ? (size_t)(end - at) : sizeof buf;
        const ssize_t k = read_at(fd, buf, want, at);
        if (k <= 0)
            return -1;
        n += (int64_t)sb_text_lines(buf, (size_t)k) - (buf[k - 1] != '\n');
        last = buf[k - 1];
        at += k;
    }
    return n + (last != '\n');
}

uint64_t sb_text_lines(const char *s, size_t n)
{
    if (!s)
        return 0;
    uint64_t c = 0;
    for (const char *p = s; n && (p = memchr(p, '\n', (size_t)(s + n - p))) != NULL; p++)
        c++;
    return c + (n && s[n - 1] != '\n');
}

int sb_segment_read(sb_buf *b, int fd, int64_t start, int64_t end, int64_t max)
{
    if (!b || start < 0 || end < start) {
        errno = EINVAL;
        return -1;
    }
    b->len = 0;
    char *p = end - start <= max ? sb_buf_reserve(b, (size_t)(end - start)) : NULL;
    if (!p) {
        b->oom = 0;
        return 0;
    }
    for (int64_t at = start; at < end;) {
        const ssize_t k = read_at(fd, p + (at - start), (size_t)(end - at), at);
        if (k <= 0) {
            if (k == 0)
                errno = EIO; /* the file shrank under us */
            return -1;
        }
        at += k;
    }
    b->len = (size_t)(end - start);
    return 1;
}

/* A byte range of a file read with pread: the stream of one segment. */
typedef struct range {
    int fd;              /* the file (shared by several segments; not closed here) */
    int64_t pos, end;    /* next byte to read, end of the range */
} range;

/* fopencookie read of a range. */
static ssize_t range_read(void *c, char *buf, size_t size)
{
    range *r = c;
    if ((int64_t)size > r->end - r->pos)
        size = (size_t)(r->end - r->pos);
    const ssize_t k = read_at(r->fd, buf, size, r->pos);
    if (k > 0)
        r->pos += k;
    return k;
}

/* fopencookie close of a range. */
static int range_close(void *c)
{
    free(c);
    return 0;
}

FILE *sb_segment_open(int fd, int64_t start, int64_t end)
{
    if (start < 0 || end < start) {
        errno = EINVAL;
        return NULL;
    }
    range *r = malloc(sizeof *r);
    if (!r)
        return NULL;
    *r = (range){.fd = fd, .pos = start, .end = end};
    const cookie_io_functions_t io = {.read = range_read, .close = range_close};
    FILE *f = fopencookie(r, "r", io);
    if (!f)
        free(r);
    return f;
}

/* The end of the last neutral line (neutral_line) of s (n bytes) that starts at or after
 * from, 0 if none. */
static size_t last_cut(const char *s, size_t n, size_t from, int each_line)
{
    size_t end = n;
    while (end > from) {
        while (end > from && s[end - 1] != '\n')
            end--; /* an unfinished last line is no cut */
        if (end == from)
            break;
        size_t start = end - 1;
        while (start > 0 && s[start - 1] != '\n')
            start--;
        if (start < from)
            break;
        if (neutral_line(s + start, end - 1 - start, each_line))
            return end;
        end = start;
    }
    return 0;
}

size_t sb_segment_fill(sb_segment_piece *p, int fd, size_t want, int each_line,
                       const volatile sig_atomic_t *stop)
{
    size_t from = 0; /* lines starting before this were checked: no cut there */
    if (!p)
        return 0;
    for (;;) {
        if (p->eof)
            return p->buf.len;
        if (p->buf.len >= want) {
            const size_t cut = last_cut(p->buf.data, p->buf.len, from, each_line);
            if (cut)
                return cut;
            /* no neutral line yet (a long line, grids without blank lines): read on */
            for (from = p->buf.len; from > 0 && p->buf.data[from - 1] != '\n';)
                from--;
        }
        char *d = sb_buf_reserve(&p->buf, SCAN);
        if (!d) {
            p->eof = 1, p->err = ENOMEM;
            continue;
        }
        const ssize_t k = read(fd, d, SCAN);
        if (k < 0 && errno == EINTR) {
            if (stop && *stop)
                p->eof = 1;
            continue;
        }
        if (k <= 0) {
            p->eof = 1;
            p->err = k < 0 ? errno : 0;
        } else {
            p->buf.len += (size_t)k;
        }
    }
}

void sb_segment_take(sb_segment_piece *p, size_t n)
{
    if (!p || n > p->buf.len)
        return;
    memmove(p->buf.data, p->buf.data + n, p->buf.len - n);
    p->buf.len -= n;
}

/* ------------------------------------------------------------------------------------------ */
/* Writing segments: each piece's output at its offset, overlapped with the next piece        */
/* ------------------------------------------------------------------------------------------ */

struct sb_segment_writer {
    int fd;                 /* where pwrite writes (fn NULL) */
    sb_segment_write_fn fn; /* the caller's write, in place; NULL: pwrite in a thread */
    void *ctx;              /* fn's */
    pthread_t thread;       /* the write in progress, when busy */
    int busy;               /* a thread runs and must be joined */
    sb_buf buf;             /* the piece being written */
    int64_t at;             /* its offset */
    int64_t bad;            /* offset of the first piece not wholly written, -1 if none (as of
                               the last join: the thread does not touch it) */
    int err;                /* errno of that failure */
    int64_t failed;         /* the write's own: offset of its piece if it failed, else -1 */
    int failed_err;         /* its errno */
};

/* Writes w->buf at w->at (the thread's body, or called in place), unless an earlier piece
 * failed (the file is cut back to that one anyway). A failure keeps its offset and errno. */
static void *writer_main(void *arg)
{
    sb_segment_writer *w = arg;
    const char *p = w->buf.data;
    size_t n = w->buf.len;
    int64_t at = w->at;
    int err = 0;
    if (w->fn && w->bad < 0)
        err = w->fn(w->ctx, p, n, at);
    while (!w->fn && !err && n > 0 && w->bad < 0) {
        const ssize_t k = pwrite(w->fd, p, n, (off_t)at);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            err = k < 0 ? errno : EIO;
        else
            p += k, at += k, n -= (size_t)k;
    }
    if (err)
        w->failed = w->at, w->failed_err = err;
    return NULL;
}

sb_segment_writer *sb_segment_writer_new(int fd, sb_segment_write_fn fn, void *ctx)
{
    sb_segment_writer *w = calloc(1, sizeof *w);
    if (w)
        w->fd = fd, w->fn = fn, w->ctx = ctx, w->bad = w->failed = -1;
    return w;
}

int64_t sb_segment_writer_wait(sb_segment_writer *w, int *err)
{
    if (!w) { /* no writer: nothing was written, from offset 0 on */
        if (err)
            *err = EINVAL;
        return 0;
    }
    if (w->busy)
        pthread_join(w->thread, NULL);
    w->busy = 0;
    if (w->failed >= 0 && w->bad < 0)
        w->bad = w->failed, w->err = w->failed_err;
    if (err)
        *err = w->err;
    return w->bad;
}

int64_t sb_segment_writer_failed(const sb_segment_writer *w, int *err)
{
    if (!w) { /* no writer: nothing was written, from offset 0 on */
        if (err)
            *err = EINVAL;
        return 0;
    }
    if (err)
        *err = w->err;
    return w->bad;
}

void sb_segment_writer_put(sb_segment_writer *w, sb_buf *out, int64_t at)
{
    int err;
    if (!w || !out)
        return;
    sb_segment_writer_wait(w, &err);
    const sb_buf done = w->buf;
    w->buf = *out;
    *out = done;
    out->len = 0;
    w->at = at;
    if (!w->buf.len)
        return;
    if (!w->fn) { /* a thread that leaves SIGINT/SIGTERM to the caller's thread */
        sigset_t block, old;
        sigemptyset(&block);
        sigaddset(&block, SIGINT);
        sigaddset(&block, SIGTERM);
        pthread_sigmask(SIG_BLOCK, &block, &old);
        w->busy = pthread_create(&w->thread, NULL, writer_main, w) == 0;
        pthread_sigmask(SIG_SETMASK, &old, NULL);
    }
    if (!w->busy) {
        writer_main(w);
        sb_segment_writer_wait(w, &err); /* takes in a failure */
    }
}

void sb_segment_writer_free(sb_segment_writer *w)
{
    int err;
    if (!w)
        return;
    sb_segment_writer_wait(w, &err);
    sb_buf_free(&w->buf);
    free(w);
}
