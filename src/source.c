/*
 * source.c — record sources of the stream engine for any geometry (sudokubench.h, "Sources"):
 * the 9x9 reader's records or the reader of any geometry (sb_greader) behind one
 * sb_stream_source, so a stream, a serial loop or a sharded run reads every geometry the same
 * way; and a look at the start of an input that consumes nothing, for picking the geometry
 * before the input is read (sb_geometry_detect).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <poll.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "sudokubench.h"

/* sb_stream_source.open of 9x9 records: the sb_reader over in. */
static int reader_open(void *ctx, FILE *in, void **out)
{
    const sb_gsource *s = ctx;
    sb_reader *r = NULL;
    const int st = sb_reader_open(&r, in);
    if (st == SB_OK)
        sb_reader_set_stop(r, s->stop);
    *out = r;
    return st;
}

/* sb_stream_source.next of 9x9 records. */
static int reader_next(void *r, sb_record *rec)
{
    return sb_reader_next(r, rec);
}

/* sb_stream_source.close of 9x9 records. */
static void reader_close(void *r)
{
    sb_reader_close(r);
}

/* sb_stream_source.open of another geometry: an sb_greader over in. */
static int greader_open(void *ctx, FILE *in, void **out)
{
    const sb_gsource *s = ctx;
    sb_greader *r = NULL;
    const int st = sb_greader_open(&r, s->g, in);
    sb_greader_set_stop(r, s->stop); /* a stop ends the skip of an endless line */
    *out = r;
    return st;
}

/* sb_stream_source.next of another geometry: the next puzzle or invalid line as an
 * sb_stream_grec. @return 1, 0 at the end, SB_ERR_IO (errno set; EINTR also when the stop
 * flag cut a skip short: every caller then looks at the flag and calls again). */
static int greader_next(void *r, sb_record *rec)
{
    sb_stream_grec *gr = (sb_stream_grec *)rec;
    sb_grecord g;
    const int st = sb_greader_next(r, &g, gr->cells);
    if (st == SB_ERR_STOPPED) {
        errno = EINTR;
        return SB_ERR_IO;
    }
    if (st != 1)
        return st;
    rec->line = g.line;
    rec->kind = g.kind;
    rec->marks = 0; /* the 9x9 reader's pencilmarks: none here */
    rec->col = g.col;
    memcpy(rec->why, g.why, sizeof rec->why);
    memcpy(rec->text, g.text, sizeof rec->text);
    gr->form = g.form;
    return 1;
}

/* sb_stream_source.close of another geometry. */
static void greader_close(void *r)
{
    sb_greader_close(r);
}

void sb_gsource_init(sb_gsource *s, const sb_geometry *g, const volatile sig_atomic_t *stop)
{
    s->g = g;
    s->stop = stop;
    if (!g) {
        s->source = (sb_stream_source){.rec_size = sizeof(sb_record), .ctx = s,
                                       .open = reader_open, .next = reader_next,
                                       .close = reader_close};
        return;
    }
    /* a multiple of 8 bytes, so records in an array stay aligned */
    s->source = (sb_stream_source){
        .rec_size = (offsetof(sb_stream_grec, cells) + (size_t)sb_geometry_cells(g) + 7) / 8 * 8,
        .ctx = s, .open = greader_open, .next = greader_next, .close = greader_close};
}

/* @return 1 when a line (no '\n') holds something to read: it is not blank, not a comment. */
static int has_content(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
            return s[i] != '#';
    return 0;
}

/* sb_input_peek on a pipe (fd): tee() copies what it holds into a pipe of ours without
 * consuming it. Waits until a whole puzzle line is there, the writer is done, or the pipe is
 * full. */
static int64_t peek_pipe(int fd, char *buf, size_t cap)
{
    int p[2];
    if (pipe(p) != 0)
        return -1;
    int64_t got = -1;
    for (;;) {
        const ssize_t k = tee(fd, p[1], cap, SPLICE_F_NONBLOCK);
        if (k < 0 && errno != EAGAIN)
            break;
        size_t n = 0;
        ssize_t m;
        while (k > 0 && n < (size_t)k && (m = read(p[0], buf + n, (size_t)k - n)) > 0)
            n += (size_t)m;
        /* The writer is done when the pipe hangs up, whatever it still holds: tee() left the
         * bytes in it, so POLLIN stays set beside POLLHUP (a last line without '\n', or only
         * blank or comment lines, would otherwise be waited for forever). */
        struct pollfd pf = {.fd = fd, .events = POLLIN};
        const int ended = k == 0 || (poll(&pf, 1, 0) > 0 && (pf.revents & POLLHUP));
        int whole = 0; /* a puzzle line with its '\n' is in */
        for (size_t i = 0, s = 0; i < n && !whole; i++)
            if (buf[i] == '\n') {
                whole = has_content(buf + s, i - s);
                s = i + 1;
            }
        if (whole || ended || n >= cap || k == 0) {
            got = (int64_t)n;
            break;
        }
        /* Part of a line: wait for more (a writer still typing), then look again. */
        poll(&pf, 1, -1);
        usleep(10000);
    }
    close(p[0]);
    close(p[1]);
    return got;
}

int64_t sb_input_peek(const char *path, char *buf, size_t cap)
{
    struct stat st;
    struct statfs fs;
    const int named = strcmp(path, "-") != 0;
    if (named && stat(path, &st) == 0 && S_ISFIFO(st.st_mode)) {
        /* A pipe by name: an anonymous one (<(...), /dev/fd/N) opens again onto the same
         * pipe, which the name's holder keeps open, so a look by tee() takes nothing from it.
         * A FIFO's open would have to be kept for the reading: closed, what its writer
         * already left would go, and the reader's open would wait for a writer for ever. */
        if (statfs(path, &fs) != 0 || fs.f_type != PIPEFS_MAGIC)
            return -1;
        const int fd = open(path, O_RDONLY | O_NONBLOCK);
        const int64_t got = fd < 0 ? -1 : peek_pipe(fd, buf, cap);
        if (fd >= 0)
            close(fd);
        return got;
    }
    /* O_NONBLOCK: a FIFO that appeared since the stat must not hold the open */
    const int fd = named ? open(path, O_RDONLY | O_NONBLOCK) : STDIN_FILENO;
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) != 0 || (named && !S_ISREG(st.st_mode))) {
        if (named)
            close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode))
        return S_ISFIFO(st.st_mode) ? peek_pipe(fd, buf, cap) : -1;
    const off_t at = named ? 0 : lseek(fd, 0, SEEK_CUR);
    size_t got = 0;
    ssize_t k = 0;
    while (at >= 0 && got < cap && (k = pread(fd, buf + got, cap - got, at + (off_t)got)) > 0)
        got += (size_t)k;
    if (named)
        close(fd);
    return at < 0 || k < 0 ? -1 : (int64_t)got;
}

int64_t sb_input_pick(const char *const *paths, int n, char *buf, size_t cap, int *at,
                      int *fifo)
{
    *at = 0;
    *fifo = -1;
    for (int i = 0; i < (n > 0 ? n : 1); i++) {
        const char *path = n > 0 ? paths[i] : "-";
        struct stat st;
        const int64_t k = sb_input_peek(path, buf, cap);
        if (k < 0 && *fifo < 0 && strcmp(path, "-") && !stat(path, &st) && S_ISFIFO(st.st_mode))
            *fifo = i;
        uint64_t line = 0;
        sb_geometry *g = NULL;
        /* the whole input seen (k < cap) and no puzzle line in it: the next decides */
        if (k < 0 || ((uint64_t)k < cap &&
                      sb_geometry_detect(buf, (size_t)k, 0, &g, &line, NULL, 0) == SB_OK &&
                      !g && !line))
            continue;
        sb_geometry_free(g);
        *at = i;
        return k;
    }
    return -1;
}
